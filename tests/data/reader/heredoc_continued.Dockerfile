FROM x
RUN cat \
  <<EOF
body
EOF
