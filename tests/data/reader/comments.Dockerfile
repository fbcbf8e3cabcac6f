# syntax=docker/dockerfile:1
# Base image

# pinned
FROM x
# dropped
#
# Kept
RUN a \
# inside
  b
RUN c
