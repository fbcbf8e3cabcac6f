"""The `docgen` command (`python -m docgen` too): the front door, which loads only what is asked for.

A plain `docgen check` first tries the fast path (`docgen.fastcheck`); help, the version and usage
errors are answered by the command line alone (`docgen.arguments`); `docgen.cli` runs the rest, as parsed.
"""

import sys

from docgen.console import OutputError, guarded_stdout, output_failed


def main() -> None:
    """The `docgen` console script."""
    argv = sys.argv[1:]
    code = parsed = None
    if sys.stdout is not None:  # else the full CLI says that standard output is closed
        try:
            out = guarded_stdout()
            if argv[:1] == ["check"]:
                from docgen.fastcheck import fast_check

                code = fast_check(argv[1:], out)
            if code is None:
                from docgen.arguments import parse

                answer = parse(argv, out, sys.stderr)
                code, parsed = (answer, None) if isinstance(answer, int) else (None, answer)
            if code is not None:
                out.flush()
        except (BrokenPipeError, OutputError) as exc:
            code = output_failed(exc)
    if code is None:
        from docgen.cli import main_entry

        main_entry(parsed)
    sys.exit(code)


if __name__ == "__main__":
    main()
