# syntax=docker/dockerfile:1
# ESCAPE = `
# check=skip=all
FROM x
RUN a `
  b
