"""An install a README runs inside a container from the repository it mounts (`pip install -e .`, `pip
install -r requirements/build.txt`) while nothing enters the mount: the container starts in the image's
working folder, and `.` is not the repository.

```
docker build -t kiln .
docker run -it -v ${KILN_SRC}:/root/src kiln
# inside the container
pip install -e .
```

The Dockerfile sets no WORKDIR and builds on a base known to set none (a plain OS image, `nvidia/cuda`,
`python`), so the shell starts in `/`; `docker run` has no `-w` and no `cd` comes before the install.
`likely`: that the lines after the run are typed in the container is read from a comment or a sentence
between them (`# inside container`).

Read only when the README builds the one image audited (`docker build -t NAME`) and runs it by that
name, interactive (`-it`) with a mount (`-v`, `--volume`, `--mount`) and no program or a shell after the
image; the install is in the same block. A base that may set a WORKDIR of its own (any other image, a
private one) keeps it silent, and so does a WORKDIR anywhere in the image's stages.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from docgen.audit.auditor import LIKELY
from docgen.audit.commands import TAG_FLAG, fence_commands, image_repository, joined, without_prompt
from docgen.audit.container_blocks import SAID_INSIDE
from docgen.audit.names import run_image, takes_value, words_of
from docgen.audit.run_args import PLAIN_BASES
from docgen.audit.wording import is_shell_fence
from docgen.build_scripts import BLANK_AFTER, BUILD, WITH_NVIDIA, container_command
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_NO_WORKDIR = PLAIN_BASES | {"python"}
"""Base images that set no WORKDIR: a container of them starts in `/`."""
_RUN = re.compile(container_command("run", WITH_NVIDIA, end=BLANK_AFTER))
_SHELLS = frozenset({"bash", "sh", "zsh", "/bin/bash", "/bin/sh", "/bin/zsh", "/usr/bin/bash"})
_PIP = ("pip", "pip3", "python -m pip", "python3 -m pip")
_REQUIREMENTS = re.compile(r"[\w.-]+/[\w./-]*")
"""A relative path with a folder (`requirements/build.txt`)."""


def _installs_here(step: str) -> bool:
    """The command `step` installs from the folder the shell is in: `pip install -e .`, `pip install .`,
    `pip install -r requirements/build.txt` (a relative path with a folder), `python setup.py …`."""
    words = step.split()
    if words[:2] in (["python", "setup.py"], ["python3", "setup.py"]):
        return True
    head = next((len(p.split()) for p in _PIP if " ".join(words[: len(p.split())]) == p), 0)
    if not head or words[head : head + 1] != ["install"]:
        return False
    rest = words[head + 1 :]
    pairs = zip(rest, rest[1:], strict=False)
    return "." in rest or any(f == "-r" and _REQUIREMENTS.fullmatch(p) is not None for f, p in pairs)


_LEAVES = re.compile(r"\A(?:cd|pushd|exit|docker|sudo[ \t]+docker)\b")
"""A command after which the install is not read: it enters a folder, leaves the container or starts
another."""


def _variable(name: str) -> str:
    """`${NAME}` written `$NAME`, to compare the names a build and a run give the image."""
    return re.sub(r"\$\{(\w+)\}", r"$\1", name)


def _interactive_mounts(words: list[str]) -> tuple[str, list[str]] | None:
    """(image, mount targets) of the words after `docker run` when the run is interactive (`-it`), sets no
    working folder, mounts a folder and runs no program but a shell; None otherwise."""
    image = run_image(words)
    if image is None:
        return None
    index = 0
    flags: set[str] = set()
    targets: list[str] = []
    while index < len(words) and words[index].startswith("-"):
        word = words[index]
        value = ""
        if "=" in word and word.startswith("--"):
            word, value = word.split("=", 1)
            index += 1
        elif takes_value(word):
            value = words[index + 1] if index + 1 < len(words) else ""
            index += 2
        else:
            index += 1
        if word in ("-w", "--workdir"):
            return None
        if word in ("-v", "--volume") and value.count(":") >= 1:
            targets.append(value.split(":")[1])
        elif word == "--mount":
            targets += [p.split("=", 1)[1] for p in value.split(",") if p.startswith(("target=", "dst="))]
        if word.startswith("-") and not word.startswith("--"):
            flags.update(word[1:])
        flags.add(word)
    after = words[index + 1 :]
    interactive = ({"i", "t"} <= flags) or {"--interactive", "--tty"} <= flags
    if not interactive or not targets or (after and after[0] not in _SHELLS) or len(after) > 1:
        return None
    return _variable(image), targets


def _starts_in_root(model: ImageModel) -> bool:
    """The image `model` builds sets no WORKDIR in its stages and its base is known to set none."""
    chain = model.chain()
    labels = {stage.label for stage in chain}
    if any(s.keyword == "WORKDIR" and s.stage in labels for s in model.settings):
        return False
    base = chain[-1].base if chain else ""
    return image_repository(base).removeprefix("docker.io/").removeprefix("library/") in _NO_WORKDIR


def _built_names(doc: Document) -> set[str]:
    """The names the README's `docker build -t` give images, `${NAME}` written `$NAME`."""
    return {
        _variable(image_repository(match.group(1)))
        for fence in doc.fences
        for lines in fence_commands(fence)
        if BUILD.search(text := joined(lines))
        for match in TAG_FLAG.finditer(text)
    }


def unentered_mounts(doc: Document, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    if len(models) != 1 or not _starts_in_root(models[0]):
        return
    built = _built_names(doc)
    for fence in doc.fences:
        if not is_shell_fence(fence):
            continue
        commands = list(fence_commands(fence))
        for index, lines in enumerate(commands):
            text = without_prompt(joined(lines).strip()).removeprefix("sudo ")
            run = _RUN.match(text)
            read = _interactive_mounts(words_of(text[run.end() :])) if run is not None else None
            if read is None or image_repository(read[0]) not in built:
                continue
            inside = False
            for later in commands[index + 1 :]:
                step = without_prompt(joined(later).strip())
                if step.startswith("#"):
                    inside = inside or bool(SAID_INSIDE.search(step))
                    continue
                if _LEAVES.match(step):
                    break
                if inside and _installs_here(step):
                    yield Diagnostic(
                        readme,
                        later[0][0],
                        f"README runs `{step}` in the container of `docker run … {read[0]}` (line "
                        f"{lines[0][0]}), which mounts {', '.join(read[1])} but starts in /: "
                        f"{models[0].path} sets no WORKDIR nor does its base {models[0].chain()[-1].base}, "
                        "and neither -w nor a cd enters the mount, so the paths it reads are not found",
                        confidence=LIKELY,
                    )
                    break
