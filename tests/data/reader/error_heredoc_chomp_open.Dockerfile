FROM x
RUN <<-EOF cat
	abc
 EOF
