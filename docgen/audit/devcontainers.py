"""What a README says of the dev container configuration beside it (`.devcontainer/devcontainer.json`,
`.devcontainer.json`, `.devcontainer/NAME/devcontainer.json`), read as the Dev Containers tools read it:
JSON with comments (`//`, `/* */`) and trailing commas, a commented-out key no key at all.

Two claims are compared with it:

- a setting the README quotes in a code span (`` `"mounts": ["source=/MY_HOME_DIR/.cache,target=/home/
  mamba/.cache,type=bind"]` ``) on a line about the dev container, whose key the configuration holds
  with another value: the strings are compared item by item (`target=…` with `target=…` of a mount, one
  `--flag` with the one at its place); an item whose value is a placeholder on either side
  (`/MY_HOME_DIR`, `CHANGE_ME`, `<path>`, `${localEnv:HOME}`) is the reader's to fill in and never
  compared (`quoted_settings`; `certain` when the line names the configuration file, else `likely`);
- a line of prose saying the container is set up to use the NVIDIA runtime or a GPU (`This container is
  configured to use the NVIDIA Container Runtime`) where no configuration gives it one: no `--gpus`,
  `--runtime=nvidia` or NVIDIA `--device` in `runArgs`, no `hostRequirements.gpu`, no compose file in
  its stead (`gpu_devcontainer`; `likely`: read from prose). A `runArgs` left in a comment is named.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from docgen.audit.auditor import LIKELY
from docgen.audit.references import inside
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import real_path, text_or_none
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic

_ABOUT = re.compile(r"dev[ \t-]?containers?\b|devcontainer", re.IGNORECASE)
"""Words of a line or a README about a dev container."""


def config_files(directory: Path) -> list[Path]:
    """The dev container configurations of the README's folder `directory`, in the order the tools
    offer them, inside the folder (no link out of it followed)."""
    directory = real_path(directory)
    top = directory
    found: list[Path] = []
    for candidate in (directory / ".devcontainer" / "devcontainer.json", directory / ".devcontainer.json"):
        if os.path.isfile(candidate) and (real := inside(candidate, top)) is not None:
            found.append(real)
    folder = directory / ".devcontainer"
    if os.path.isdir(folder):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            names = []
        for name in names:
            candidate = folder / name / "devcontainer.json"
            if os.path.isfile(candidate) and (real := inside(candidate, top)) is not None:
                found.append(real)
    return found


def _strip_comments(text: str) -> tuple[str, list[tuple[int, str]]]:
    """`text` with its `//` and `/* */` comments blanked (line ends kept, strings left alone), and each
    comment's (line, text)."""
    out: list[str] = []
    comments: list[tuple[int, str]] = []
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            comments.append((line, text[i + 2 : j]))
            out.append(" " * (j - i))
            i = j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            body = text[i:j]
            for k, part in enumerate(body.split("\n")):
                comments.append((line + k, part))
            out.append("".join("\n" if ch == "\n" else " " for ch in body))
            line += body.count("\n")
            i = j
            continue
        if c == "\n":
            line += 1
        out.append(c)
        i += 1
    return "".join(out), comments


_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def read_config(path: Path) -> tuple[dict[str, Any], list[str], list[tuple[int, str]]] | None:
    """The parsed configuration at `path`, its lines and its comments; None when it cannot be read."""
    text = text_or_none(path, MAX_PROJECT_FILE_BYTES)
    if text is None:
        return None
    bare, comments = _strip_comments(text)
    try:
        parsed = json.loads(_TRAILING_COMMA.sub(r"\1", bare))
    except (ValueError, RecursionError):
        return None
    if not isinstance(parsed, dict):
        return None
    return parsed, text.split("\n"), comments


def _found(tree: Any, key: str) -> list[Any]:
    """The values of `key` anywhere in `tree`."""
    out: list[Any] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                if k == key:
                    out.append(v)
                stack.append(v)
        elif isinstance(node, list):
            stack.extend(node)
    return out


def _leaves(value: Any) -> list[str] | None:
    """The strings of a value that is a string or a list of strings; None for anything else."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return None


_PLACEHOLDER = re.compile(
    r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|<[^>]*>|\$\{[^}]*\}|\$[A-Za-z_]|\{\{|\.\.\.|…"
    r"|(?i:CHANGE[_-]?ME|\byour|\bmy[_-]|\bx{3,}\b|path/to|\bexample\b|\bfoo\b)"
)
"""A value the reader fills in (`/MY_HOME_DIR`, `CHANGE_ME`, `<path>`, `${localEnv:HOME}`)."""


def _items(text: str) -> list[tuple[str, str]]:
    """The comma-separated items of a string (a mount's `source=…,target=…`) as (key, value); an item
    with no `=` has key ''."""
    out: list[tuple[str, str]] = []
    for item in text.split(","):
        key, eq, value = item.strip().partition("=")
        out.append((key.strip(), value.strip()) if eq else ("", item.strip()))
    return out


def _differences(said: list[str], held: list[str]) -> list[tuple[str, str]]:
    """The items of `said` (the README's strings) that differ from the same item of `held` (the file's),
    neither a placeholder: (README item, file item)."""
    if len(said) != len(held):
        return []
    out: list[tuple[str, str]] = []
    for a, b in zip(said, held, strict=True):
        if a == b:
            continue
        ia, ib = _items(a), _items(b)
        keyed_a = {k: v for k, v in ia if k}
        keyed_b = {k: v for k, v in ib if k}
        if keyed_a and set(keyed_a) == set(keyed_b) and len(keyed_a) == len(ia) and len(keyed_b) == len(ib):
            for k, v in keyed_a.items():
                w = keyed_b[k]
                if v != w and not _PLACEHOLDER.search(v) and not _PLACEHOLDER.search(w):
                    out.append((f"{k}={v}", f"{k}={w}"))
        elif len(ia) == 1 and len(ib) == 1 and not _PLACEHOLDER.search(a) and not _PLACEHOLDER.search(b):
            flag_a, flag_b = _FLAG.match(a), _FLAG.match(b)
            if (flag_a and flag_b and flag_a.group(1) == flag_b.group(1)) or (
                a.startswith("/") and b.startswith("/")
            ):
                out.append((a, b))  # `--ipc=host` said, `--ipc=private` held; `/ros2_ws`, `/rover_ws`
    return out


_FLAG = re.compile(r"(--?[\w-]+)=")
_QUOTED = re.compile(r'\s*"([\w.:/-]+)"\s*:\s*\S')
_OTHER_VALUE = re.compile(r"\binstead\b|\bchange\b[^`]*\bto\b|\breplace\b|\bsuch[ \t]+as\b|\be\.g\.", re.I)
"""A line offering its value as the reader's change, not as what the file holds."""


def _key_line(lines: list[str], key: str, item: str) -> int:
    """The 1-based line of the file holding `item` from the line of `"key"` on (that of the key when no
    line does, 1 when no line holds the key outside a comment)."""
    pattern = re.compile(rf'^\s*"{re.escape(key)}"\s*:')
    start = next((n for n, text in enumerate(lines, 1) if pattern.match(text)), 0)
    if not start:
        return 1
    return next((n for n, text in enumerate(lines[start - 1 :], start) if item in text), start)


def quoted_settings(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A setting quoted from the dev container configuration that it holds otherwise (see the module
    docstring)."""
    quoted: list[tuple[int, str, str, Any]] = []
    for para in doc.paragraphs:
        for line, text in para.lines:
            if '"' not in text or "`" not in text or not _ABOUT.search(text) or _OTHER_VALUE.search(text):
                continue
            for _, _, span in code_spans(text):
                m = _QUOTED.match(span)
                if m is None:
                    continue
                try:
                    value = json.loads("{" + span + "}")
                except (ValueError, RecursionError):
                    continue
                if isinstance(value, dict) and len(value) == 1:
                    key, said = next(iter(value.items()))
                    quoted.append((line, text, key, said))
    if not quoted:
        return
    files = config_files(directory)
    if len(files) != 1:
        return  # several configurations: which one the line quotes is not read
    read = read_config(files[0])
    if read is None:
        return
    config, lines, _ = read
    try:
        shown = files[0].relative_to(real_path(directory)).as_posix()
    except ValueError:
        return
    for line, text, key, said in quoted:
        held_values = _found(config, key)
        if len(held_values) != 1:
            continue  # a key the file lacks is the reader's to add; one it holds twice is not read
        said_leaves, held_leaves = _leaves(said), _leaves(held_values[0])
        if said_leaves is None or held_leaves is None:
            continue
        differ = _differences(said_leaves, held_leaves)
        if not differ:
            continue
        named = "devcontainer.json" in text
        said_text = ", ".join(a for a, _ in differ)
        held_text = ", ".join(b for _, b in differ)
        yield Diagnostic(
            readme,
            line,
            f'README quotes the dev container setting "{key}" with {said_text}, but '
            f"{shown}:{_key_line(lines, key, differ[0][1])} holds {held_text}: a reader copying the README's "
            "value gets another container than the project's configuration",
            confidence="certain" if named else LIKELY,
        )


_GPU_CONFIGURED = re.compile(
    r"\b(?:configured|set[ \t]+up|setup)[ \t]+(?:to[ \t]+use|with|for)[ \t]+"
    r"(?:the[ \t]+|an?[ \t]+|all[ \t]+)?"
    r"(?:NVIDIA[ \t]+(?:Container[ \t]+)?(?:Runtime|Toolkit|GPUs?)|GPUs?|CUDA[ \t]+GPUs?)\b"
    r"|\b(?:has|gets|is[ \t]+given|with)[ \t]+(?:access[ \t]+to[ \t]+)(?:the[ \t]+|all[ \t]+|your[ \t]+)?"
    r"(?:host'?s?[ \t]+)?(?:NVIDIA[ \t]+)?GPUs?\b",
    re.IGNORECASE,
)
"""A GPU set up for the container (`configured to use the NVIDIA Container Runtime`, `has access to all
GPUs`)."""
_CONTAINER = re.compile(r"\bcontainer\b|\bdev[ \t-]?container|\bdevcontainer", re.IGNORECASE)
_NOT_SAID = re.compile(
    r"--gpus\b|\bnot\b|n't\b|\bwithout\b|\boptional|\bif\b|\bwhen\b|\bunless\b|\buncomment|\bcomment"
    r"|\bremov|\bedit|\bchang|\bmodif|\badjust|\badd\b|\benable",
    re.IGNORECASE,
)
_GPU_ARG = re.compile(
    r"--gpus\b|--runtime[= \t]*nvidia|nvidia\.com/gpu|/dev/nvidia|--device[= \t]*nvidia", re.I
)


def _gives_gpu(config: dict[str, Any]) -> bool | None:
    """True when the configuration gives the container a GPU, None when it cannot be read from it alone
    (a compose file starts the container)."""
    if "dockerComposeFile" in config:
        return None
    args = config.get("runArgs")
    if isinstance(args, list) and _GPU_ARG.search(" ".join(str(a) for a in args)):
        return True
    needs = config.get("hostRequirements")
    if isinstance(needs, dict) and needs.get("gpu") not in (None, False):
        return True
    return False


def gpu_devcontainer(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A GPU set up for the container that no dev container configuration gives it (see the module
    docstring), once per README line (`likely`)."""
    said = [
        (line, claim)
        for para in doc.paragraphs
        for line, text in para.lines
        if (claim := _GPU_CONFIGURED.search(text)) and _CONTAINER.search(text) and not _NOT_SAID.search(text)
    ]
    if not said:
        return
    files = config_files(directory)
    if not files:
        return
    for fence in doc.fences:
        if any(_GPU_ARG.search(t) for _, t in fence.lines):
            return  # the README runs the container with a GPU itself
    commented: tuple[str, int] | None = None
    for file in files:
        read = read_config(file)
        if read is None:
            return
        config, _, comments = read
        if _gives_gpu(config) is not False:
            return
        if commented is None:
            for number, text in comments:
                if _GPU_ARG.search(text) or re.search(r'"runArgs"', text):
                    commented = (file.relative_to(real_path(directory)).as_posix(), number)
                    break
    names = ", ".join(f.relative_to(real_path(directory)).as_posix() for f in files)
    where = (
        f" ({commented[0]}:{commented[1]} leaves its runArgs in a comment)" if commented is not None else ""
    )
    for line, claim in said:
        yield Diagnostic(
            readme,
            line,
            f"README says the container is set up for the GPU ({claim.group(0).strip()}), but {names} "
            f"gives it none (no --gpus or --runtime=nvidia in runArgs, no hostRequirements.gpu){where}: "
            "the dev container starts without a GPU",
            confidence=LIKELY,
        )


def devcontainer_names(model_file: str, spellings: frozenset[str]) -> bool:
    """True when a dev container configuration that may build the Dockerfile at `model_file` (in its
    folder or the folder above it: `.devcontainer/Dockerfile` beside `devcontainer.json`, or a Dockerfile
    at the top with `.devcontainer/` beside it) names one of `spellings` (lower case, letters and digits
    only) anywhere: a feature it adds (`ghcr.io/…/features/uv`), a `postCreateCommand` installing it. The
    container it runs holds more than the image."""
    folder = Path(model_file).parent
    for directory in (folder, folder.parent):
        for config in config_files(directory):
            text = text_or_none(config, MAX_PROJECT_FILE_BYTES) or ""
            squashed = re.sub(r"[^a-z0-9]+", "", text.lower())
            if any(s in squashed for s in spellings):
                return True
    return False
