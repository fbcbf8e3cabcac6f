"""A folder a README's prose says a mount lands on in the container (`In the container `data_folder`
mounts as `/lab`.`, `The workspace folder is mounted in `/app/workspace` inside the container`) while
the run script the README names (`deeplearning.sh`, a shell script next to it that starts the
container) mounts elsewhere: `--volume=$WORK_FOLDER:/home/user/work`. The reader looks for their data
at a path the container does not have.

`mount_claims` reads the same kind of sentence against the README's own commands and compose files;
this rule reads it against the scripts the README names, which those never read. Read only when every
mount of those scripts has a target written out (one set from a variable or from the script's
arguments may be anywhere), the scripts, the README's commands, the compose files beside it and the
Dockerfiles' VOLUMEs mount nothing at, above or below the path, and neither the scripts nor the
Dockerfiles name it (a link or an env may make it). `likely`: read from prose.

And a run script the README runs as it is (`./run.sh`) whose `docker run` mounts a placeholder
(`-v /path/to/app:/home/app`, `-v <your_data>:/data`) when the README never tells the reader to edit
it (`placeholder_mounts`): Docker makes an empty folder at that path of the host, so the container's
folder holds nothing the steps after it need. Read only from a `docker run` the script runs (not one it
prints with `echo`, nor a comment or heredoc); silent when the README writes the placeholder anywhere
(`replace /path/to/app with …`) or, on a line naming the script, tells the reader to edit, change or
adjust it. `likely`: the reader may edit the script unasked.

The `docker run` commands of a script, as the shell reads them, are `container_runs`'s, for every rule
that reads a run script's options.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.grammar import run_command
from docgen.audit.mount_claims import command_targets, compose_targets, declared_volumes
from docgen.audit.paths import folders_above, resolves_inside, under_any
from docgen.audit.references import project_top, quote_after
from docgen.audit.script_builds import shell_scripts_run
from docgen.build_scripts import BLANK_AFTER, WITH_NVIDIA, container_command
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import text_or_none
from docgen.findings import BROKEN_COMMAND
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel
from docgen.shell import sh_code, sh_tokens, shell_split

_CLAIM = re.compile(
    r"\b(?:mount(?:s|ed)?|bind[- ]?mounted|mapped)[ \t]+(?:as|at|to|into|in|on|under)[ \t]+"
    r"`(/[A-Za-z0-9_.+@/-]*)`",
    re.IGNORECASE,
)
"""A mount's place in code after the verb: `mounts as `/lab``, `is mounted in `/app/workspace``."""
_CONTAINER = re.compile(r"\bcontainer\b", re.IGNORECASE)
_HOST = re.compile(r"\b(?:host|your machine|locally)\b", re.IGNORECASE)
"""A line about the host's side: the path may be the host's."""
_SCRIPT = re.compile(r"(?<![\w./-])((?:\.{0,2}/)?[\w.-]+(?:/[\w.-]+)*\.(?:sh|bash))\b")
"""A shell script the README names (`deeplearning.sh`, `./scripts/run.sh`)."""
_RUN = re.compile(container_command("run|create", WITH_NVIDIA))
_VOLUME = re.compile(r"(?:^|[\s\"'=(])(?:-v|--volume)(?:[ \t]+|=)[\"']?([^\s\"']+)")
_MOUNT = re.compile(r"(?:^|[\s\"'=(])--mount(?:[ \t]+|=)[\"']?([^\s\"']+)")
_SCRIPT_BYTES = 64_000
"""The most of a script read: a launcher is a few screens."""


def _target(volume: str) -> str | None:
    """The container side of `HOST:/in/image[:ro]` (`/in/image`), of `/in/image` alone, or None when
    it is not written out (`$HOST:$TARGET`, `"$@"`)."""
    parts = volume.split(":")
    if len(parts) >= 2:
        target = parts[1]
    else:
        target = parts[0]
    if not target.startswith("/") or any(c in target for c in "$`{*"):
        return None
    return posixpath.normpath(target)


def _mount_target(option: str) -> str | None:
    """The `target=`/`dst=`/`destination=` of a `--mount` option's value, None when it is not written out."""
    for part in option.split(","):
        key, _, value = part.partition("=")
        if key in ("target", "dst", "destination"):
            return _target(value)
    return None


def _script_targets(text: str) -> list[str | None] | None:
    """The targets of the mounts of a script that starts a container (None in the list: one not written
    out); None when the script starts none."""
    if not _RUN.search(text):
        return None
    found: list[str | None] = [_target(v) for v in _VOLUME.findall(text)]
    found += [_mount_target(m) for m in _MOUNT.findall(text)]
    return found


def _named_scripts(doc: Document, directory: Path, top: Path) -> list[tuple[str, str]]:
    """(name as written, text) of each shell script next to the README (or below it) that the README
    names anywhere: a link, a code span, a command."""
    texts = [t for p in doc.paragraphs for _, t in p.lines] + [t for f in doc.fences for _, t in f.lines]
    texts += [target for _, target in doc.destinations]
    found: dict[str, str] = {}
    for text in texts:
        for name in _SCRIPT.findall(text):
            if name in found or name.startswith("/") or ".." in name.split("/"):
                continue
            path = directory / name
            if not resolves_inside(path, top):
                continue
            script = text_or_none(path, _SCRIPT_BYTES)
            if script is not None:
                found[name] = script
    return list(found.items())


def script_mounts(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None = None
) -> Iterator[Diagnostic]:
    """A prose line saying, of the container, that a mount lands at a path in code, where the run scripts
    the README names mount only elsewhere (`likely`); one finding a path, at its first line. See the
    module's docstring for what keeps it silent."""
    claims = [
        (line, match.group(1))
        for para in doc.paragraphs
        for line, text in para.lines
        if _CONTAINER.search(text) and not _HOST.search(text)
        for match in _CLAIM.finditer(text)
    ]
    claims = [(line, path) for line, path in claims if path.count("/") >= 1 and path != "/"]
    if not claims:
        return
    top = project_top(directory, project)
    scripts = []
    for name, text in _named_scripts(doc, directory, top):
        targets = _script_targets(text)
        if targets is None:
            continue
        if not targets or None in targets:
            return  # a mount set from a variable or the arguments: it may land anywhere
        scripts.append((name, text, {t for t in targets if t is not None}))
    if not scripts:
        return
    compose = compose_targets(directory, top)
    if compose is None:
        return
    held = {t for _, _, targets in scripts for t in targets}
    held |= {posixpath.normpath(t) for t in compose[1] | command_targets(doc) | declared_volumes(models)}
    dockerfiles = [text_or_none(Path(m.file), MAX_PROJECT_FILE_BYTES) or "" for m in models if m.file]
    above_held = {folder for target in held for folder in folders_above(target)}
    texts = [text for _, text, _ in scripts] + dockerfiles
    told: set[str] = set()
    for line, said in claims:
        path = posixpath.normpath(said)
        if path in told or "/" in held or under_any(path, held):
            continue
        if path in above_held:
            continue  # a mount below it: the folder is there
        pattern = re.compile(rf"(?<![\w.-]){re.escape(path)}(?![\w.-])")
        if any(path in text and pattern.search(text) for text in texts):
            continue
        told.add(path)
        where = " and ".join(name for name, _, _ in scripts[:3])
        shown = ", ".join(sorted({t for _, _, ts in scripts for t in ts})[:4])
        yield Diagnostic(
            readme,
            line,
            f"README says a folder is mounted in the container at {said}, but {where} "
            f"mount{'s' if len(scripts) == 1 else ''} {shown} only",
            confidence=LIKELY,
        )


_RUN_START = re.compile(
    r"(?:^|[;&|(]|\b(?:then|do|else|sudo|exec|time|nohup)[ \t])[ \t]*"
    + container_command("run|create", WITH_NVIDIA, start="", end=BLANK_AFTER)
)
"""A `docker run` (`podman run`, `nvidia-docker run`) where a command of a script starts."""
_HEREDOC = re.compile(r"<<-?[ \t]*[\"']?([A-Za-z_]\w*)[\"']?")


def _words(command: str) -> list[str]:
    """The words of a command up to its first operator (`&&`, `|`, `;`, a redirection), quotes taken
    off, a command substitution kept whole as written (`$(id -u):$(id -g)`). ValueError when they cannot
    be told."""
    words: list[str] = []
    for token in sh_tokens(command):
        if token.operator:
            break
        if "$(" in token.text or "`" in token.text:
            words.append(token.text)
        else:
            words.append(" ".join(shell_split(token.text)))
    return words


def container_runs(text: str) -> list[tuple[int, str, list[str]]]:
    """(script line, the command from its engine on, its words after `run`) of each container run the
    shell script `text` runs, a command continued over lines (`\\`) read whole: not one in a string
    (`echo "docker run …"`, over several lines too), a comment or a heredoc's body, nor one whose words
    cannot be split."""
    found: list[tuple[int, str, list[str]]] = []
    lines = text.splitlines()
    quote: str | None = None
    heredoc: str | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if heredoc is not None:
            heredoc = None if line.strip() == heredoc else heredoc
            continue
        if quote is not None:
            quote = quote_after(line, quote)
            continue
        # the lines a `\\` continues, joined once at the end; each join is unquoted, so the quote open at
        # the end of the command is the one its last line leaves (linear in the command's lines)
        parts = [sh_code(line)]
        start, number = index, index
        quote = quote_after(parts[0], None)
        while parts[-1].rstrip().endswith("\\") and quote is None and index < len(lines):
            parts[-1] = parts[-1].rstrip()[:-1]
            parts.append(sh_code(lines[index]))
            index += 1
            quote = quote_after(parts[-1], None)
        code = " ".join(parts)
        if (opened := _HEREDOC.search(code)) is not None:
            heredoc = opened.group(1)
        run = _RUN_START.search(code)
        if run is None or quote is not None:
            continue
        try:
            words = _words(code[run.end() :])
        except ValueError:
            continue
        engine = code[run.start() :].lstrip(" \t;&|(")
        found.append((number if start == number else start, engine, words))
    return found


_PLACEHOLDER = re.compile(
    r"(?:^|/)(?:path/to|your[\w.-]*|(?:absolute|full|some)[-_/]path[\w-]*|<[^<>/]+>|\{[^{}$]+\}|xxx+|\.\.\.)"
    r"(?:/|$)",
    re.IGNORECASE,
)
"""A host path that stands for the reader's own: `/path/to/app`, `<your_data>`, `/your/models`,
`{DATA_DIR}`, `/absolute/path/to/data`."""
_EDIT = re.compile(
    r"\b(?:edit|chang|modif|replac|adjust|updat|customi[sz]|configur|substitut|fill|specif|point)\w*"
    r"|\b(?:vim?|nano|set[ \t]+(?:the|your)[ \t]+(?:path|folder|directory|mount))\b",
    re.IGNORECASE,
)
"""Words telling the reader to change a file (`edit run.sh`, `change the path in run.sh`)."""
_MOUNT_WORD = re.compile(r"\b(?:path|mount|volume|folder|director(?:y|ies)|dir)s?\b", re.IGNORECASE)
_SCRIPT_WORD = re.compile(r"\bscripts?\b", re.IGNORECASE)


def _mounts(words: list[str]) -> list[str]:
    """The `-v` / `--volume` values and the `--mount` sources of a container run's words."""
    read = run_command(words)
    if read is None:
        return []
    found = [value for option, value in read[2] if option in ("-v", "--volume")]
    for option, value in read[2]:
        if option == "--mount":
            for part in value.split(","):
                key, _, source = part.partition("=")
                if key in ("source", "src"):
                    found.append(source + ":")
    return found


def placeholder_mounts(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
    cloned: Callable[[int, str], tuple[str, Path] | None] | None = None,
) -> Iterator[Diagnostic]:
    """A run script the README runs whose container run mounts a placeholder the README never tells the
    reader to fill in (see the module's docstring): one finding a script, at the first README line
    running it (`script_builds.shell_scripts_run`; `cloned`: `steps.own_clones`)."""
    texts = [t for p in doc.paragraphs for _, t in p.lines] + [t for f in doc.fences for _, t in f.lines]
    for line, run, script, _, text in shell_scripts_run(doc, directory, audited, project, cloned):
        name = re.compile(rf"(?<![\w.-]){re.escape(script.name)}(?![\w-])")
        if any(
            _EDIT.search(t) and (name.search(t) or (_SCRIPT_WORD.search(t) and _MOUNT_WORD.search(t)))
            for t in texts
        ):
            continue  # (`Edit the path in run.sh first`, `change the dataset path in the script`)
        for at, _, words in container_runs(text):
            held = [m for m in _mounts(words) if _PLACEHOLDER.search(m.split(":", 1)[0])]
            held = [m for m in held if not any(m.split(":", 1)[0] in t for t in texts)]
            if not held:
                continue
            source, _, target = held[0].partition(":")
            target = target.split(":", 1)[0]
            raw = text.splitlines()
            at = next((n for n in range(at, len(raw) + 1) if source in raw[n - 1]), at)
            yield Diagnostic(
                readme,
                line,
                f"README runs {run} as it is, but {script.name}:{at} mounts {source}"
                f"{' at ' + target if target else ''}, a placeholder the README never says to fill in: "
                "docker makes an empty folder of that name on the host, so "
                f"{target or 'the mount'} in the container holds nothing",
                confidence=LIKELY,
                rule=BROKEN_COMMAND,
            )
            break
