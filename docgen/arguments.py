"""The command line of `docgen`: its commands, options, help text and exit codes.

Kept apart from `docgen.cli` (which runs the commands) so that `docgen --help`, `docgen --version` and a
usage error are answered without loading the pipeline, Jinja2 or `packaging` (`docgen.__main__`).
"""

from __future__ import annotations

import argparse
import contextlib

from docgen import __version__

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import TextIO

EXIT_OK = 0
EXIT_DRIFT = 1
EXIT_ERROR = 2

_EPILOG = """\
exit codes:
  0  success: files written (sync), everything up to date (check), no contradiction (audit)
  1  check found out-of-date blocks (or, with --strict, lint warnings); audit found contradictions;
     lint --strict found warnings
  2  bad usage, config or input (printed as path:line: message)

configuration is read from [tool.docgen] in the nearest pyproject.toml (or docgen.toml);
--dockerfile and --output override it.
"""

_LINT_RULES = """\
rule ids:
  each warning ends with its rule id ([DG003]; the list: docs/lint.md). Silence one on its line or the
  line above with `# docgen: ignore=DG003 why`, or everywhere with [tool.docgen.lint] disable = ["DG003"].

"""

_AUDIT_RULES = """\
rule ids:
  DG101 stale-claim (a claim about the image), DG102 missing-file (a file the README names or a command
  needs), DG103 broken-command (a command that cannot work as written). Silence one on its line or the
  line above with `<!-- docgen: ignore=DG102 -->`, or everywhere with [tool.docgen.lint] disable;
  DG101 silences all three.

"""

FORMATS = ("text", "json", "github", "sarif")
"""The output formats of lint, audit and check (`docgen.findings` writes them)."""

_FORMAT_HELP = (
    "output format: text (default), json, github (workflow-command annotations) or sarif "
    "(SARIF 2.1.0, for code scanning)"
)


def parser() -> argparse.ArgumentParser:
    """The parser of `docgen`'s command line: every command, option and help text."""
    parser = argparse.ArgumentParser(
        prog="docgen",
        description="Keep the documentation of a Docker image true to its Dockerfile.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"docgen {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def add(name: str, help_text: str, rules: str = "") -> argparse.ArgumentParser:
        cmd = sub.add_parser(
            name,
            help=help_text,
            description=help_text,
            epilog=rules + _EPILOG,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        return cmd

    for name, help_text in (
        ("sync", "regenerate every docgen block in the configured Markdown files"),
        (
            "check",
            "exit 1 when a generated block is out of date, with a diff, its cause and the fix; "
            "never writes your files",
        ),
    ):
        cmd = add(name, help_text)
        cmd.add_argument("--config", help="pyproject.toml or docgen.toml to read (default: the nearest one)")
        cmd.add_argument("--dockerfile", help="the Dockerfile to document (instead of the config's)")
        cmd.add_argument(
            "--output",
            action="append",
            default=[],
            metavar="FILE",
            help="a Markdown file to fill (repeatable)",
        )
        if name == "check":
            cmd.add_argument("--format", choices=FORMATS, default="text", help=_FORMAT_HELP)
            cmd.add_argument(
                "--strict", action="store_true", help="also run `docgen lint` and exit 1 on its warnings"
            )
            cmd.add_argument(
                "--full",
                action="store_true",
                help="render every image, also those whose blocks all carry the fingerprints of their "
                "inputs as they are now (finds a change docgen does not fingerprint)",
            )
    lint_cmd = add(
        "lint", "warn about mistakes in Dockerfiles (args out of scope, hard-coded values, ...)", _LINT_RULES
    )
    lint_cmd.add_argument("dockerfile", nargs="?", help="the Dockerfile (default: every configured one)")
    lint_cmd.add_argument("--config", help="pyproject.toml or docgen.toml to read (default: the nearest one)")
    lint_cmd.add_argument("--strict", action="store_true", help="exit 1 when there are warnings")
    lint_cmd.add_argument("--format", choices=FORMATS, default="text", help=_FORMAT_HELP)
    audit_cmd = add(
        "audit", "find claims in a hand-written Markdown file that contradict the Dockerfile", _AUDIT_RULES
    )
    audit_cmd.add_argument("file", metavar="FILE.md", help="the Markdown file to audit")
    audit_cmd.add_argument(
        "--dockerfile",
        action="append",
        help="a Dockerfile it documents; give it again for a README about several images (default: the "
        "configured images that fill FILE.md, else every configured image, else the Dockerfiles next to "
        "FILE.md, one that cannot be parsed left out with a note); a Dockerfile no image configures is "
        "audited as each target of a docker-bake or compose file beside it or FILE.md builds it, "
        "with its args",
    )
    audit_cmd.add_argument(
        "--config", help="pyproject.toml or docgen.toml to read (default: the nearest one)"
    )
    audit_cmd.add_argument("--format", choices=FORMATS, default="text", help=_FORMAT_HELP)
    audit_cmd.add_argument(
        "--confidence",
        choices=("likely", "certain"),
        default="likely",
        help="the least sure findings to report: likely (default: all, claims read from prose too) or "
        "certain (table cells, pins, build commands, base images, file references; the others are counted)",
    )
    init_cmd = add("init", "add the docgen marker blocks to an existing README, and the config entry for it")
    init_cmd.add_argument(
        "readme",
        nargs="?",
        default="README.md",
        help="the README, or a folder of Dockerfiles to set up as one family (default: README.md)",
    )
    init_cmd.add_argument("--dockerfile", help="the Dockerfile it documents (default: found in the project)")
    init_cmd.add_argument("--config", help="pyproject.toml or docgen.toml to read (default: the nearest one)")
    changes = add(
        "changes",
        "what changed in every configured image between two git revisions: versions, components, "
        "base images, build args",
    )
    changes.add_argument(
        "range",
        nargs="?",
        metavar="REV1..REV2",
        help="revisions to compare (default: the last tag..HEAD); REV1 alone or REV1.. compares with "
        "the working tree",
    )
    changes.add_argument("--config", help="pyproject.toml or docgen.toml to read (default: the nearest one)")
    changes.add_argument(
        "--format", choices=("markdown", "json"), default="markdown", help="output format (default: markdown)"
    )
    show = add("show", "print what docgen reads from a Dockerfile")
    show.add_argument("dockerfile", nargs="?", help="the Dockerfile (default: the first configured one)")
    show.add_argument("--config", help="pyproject.toml or docgen.toml to read (default: the nearest one)")
    show.add_argument(
        "--format", choices=("table", "json"), default="table", help="output format (default: table)"
    )
    show.add_argument(
        "--verbose", action="store_true", help="also list warnings and constructs docgen skipped"
    )
    return parser


def parse(argv: Sequence[str] | None, out: TextIO, err: TextIO) -> argparse.Namespace | int:
    """`argv` parsed; or the exit code when argparse has answered by itself (help and version on `out`,
    a usage error on `err`), or when no command is given (the help, exit 2)."""
    command_line = parser()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            args = command_line.parse_args(argv)
    except SystemExit as exc:  # argparse already printed usage or help
        return EXIT_OK if exc.code == 0 else EXIT_ERROR
    if args.command is None:
        command_line.print_help(out)
        return EXIT_ERROR
    return args
