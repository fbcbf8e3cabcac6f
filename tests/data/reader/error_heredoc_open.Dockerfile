FROM x
RUN <<EOF
abc
