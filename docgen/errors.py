"""The one exception hierarchy of docgen.

Every user-facing failure is a `DocgenError` carrying the file and line it is about; only
`docgen.cli.main` turns them into messages and exit codes (2 for all of them), and the MkDocs plugin
turns them into `PluginError`.
"""

from __future__ import annotations

MAX_FILE_BYTES = 10 * 1024 * 1024
"""The largest file docgen reads (10 MiB): a Dockerfile, a Markdown file, a template, a bake file. A
README of 100 MB would take gigabytes of memory to split into lines and blocks. It lives here, with the
errors, so the fast path of `docgen check` (`docgen.fastcheck`) reads it without importing more."""

MAX_PROJECT_FILE_BYTES = 1_000_000
"""The largest file of the project `docgen audit` reads for a claim beside its inputs (a script the
README runs or the image copies, a file next to the Dockerfile, a file a release's pins may be in): a
larger one is a model, an archive or generated data, not a script, and is passed over (no claim from
it). Inputs docgen is given or follows (README, Dockerfile, compose and bake files) have
`MAX_FILE_BYTES`."""

TOO_LARGE = f"file is larger than {MAX_FILE_BYTES >> 20} MiB, not read"
"""The message for a file over `MAX_FILE_BYTES`, said before any of it is read."""


class DocgenError(Exception):
    """A problem with the user's input, printed as `path:line: message`."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        if self.path and self.line:
            return f"{self.path}:{self.line}: {self.message}"
        if self.path:
            return f"{self.path}: {self.message}"
        return self.message


class DockerfileError(DocgenError):
    """The Dockerfile cannot be read (broken heredoc, bad encoding, a stage loop …)."""


class MarkerError(DocgenError):
    """Marker blocks in a documentation file are broken (begin without end, nesting …)."""


class ConfigError(DocgenError):
    """`[tool.docgen]` in pyproject.toml is wrong (unknown key, wrong type, bad path …)."""


class TemplateError(DocgenError):
    """A user template cannot be loaded or rendered."""


class UsageError(DocgenError):
    """The command line is wrong, or a file named on it cannot be read or written."""
