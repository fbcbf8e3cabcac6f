FROM x
RUN a \