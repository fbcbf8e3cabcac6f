FROM x
RUN a \ 	
  b
\
RUN c
