# escape=x
FROM x
