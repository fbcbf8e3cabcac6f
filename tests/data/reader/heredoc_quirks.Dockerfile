FROM x
RUN cat <<EOF&&x
body
EOF&&x
RUN x=$(cat <<EOF)
a
EOF)
RUN echo ${!x} <<EOF
RUN 3<<EOF cat
a
EOF
RUN <<$E
a
$E
RUN cat <<'EOF
RUN x$A<<EOF
