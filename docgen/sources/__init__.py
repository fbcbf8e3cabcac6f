"""Recognisers for what RUN, ADD and COPY install: git, pip, downloads and apt.

`script` reads shell text into commands and words; `run` walks one RUN and dispatches each command to
the recogniser for its tool; `context` holds what they share. Imports flow downward only: these
modules use `docgen.model`, `docgen.shell` and each other, never the pipeline above them.
"""
