FROM x
RUN ["a", 1]
