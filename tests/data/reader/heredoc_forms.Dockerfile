FROM x
RUN cat > f <<'EOF' && python3 - <<-"PY" && echo done
hello $X
EOF
	print(1)
	PY
COPY --chmod=755 <<EOF /a
x
EOF
