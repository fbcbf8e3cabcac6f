FROM x
RUN <<EOF
set -e
FROM not-an-instruction
# not a comment
EOF
RUN after
