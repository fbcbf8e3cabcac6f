# syntax=a
# Syntax=b
FROM x
