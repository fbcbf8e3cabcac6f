FROM x
RUN apt-get install -y \
# compilers
    gcc \

    make
RUN next
