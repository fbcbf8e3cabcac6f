from x As Base
  run a \
  b
foo bar
RUN
