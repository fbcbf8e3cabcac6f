FROM x
RUN echo a\\
RUN b\\\
RUN c
