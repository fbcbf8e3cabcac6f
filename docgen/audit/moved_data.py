"""A mount at the folder where a well-known program keeps its data by default (`-v ollama:/root/.ollama`,
`-v ~/.cache/huggingface:/root/.cache/huggingface`) while the image's `ENV` moves that data elsewhere
(`OLLAMA_MODELS=/data/models/ollama/models`, `HF_HOME=/opt/hf`): what the reader keeps in the volume is
never read, and what the program downloads is lost with the container.

The programs and their folders are one table (`_MOVABLE`), relative to the home of the user the
container runs as (`/root` when the image sets no USER, or sets root). The mount must be of a `docker
run` of the audited image: one a `docker build -t` of the README tags, or whose name ends in the name of
the Dockerfile's folder (`dusty-nv/ollama` for packages/llm/ollama/Dockerfile), in a command block or a
code span. Not a claim when the ENV keeps the data at or below the mounted folder, when its value holds a
variable, when the README names the variable or the new folder anywhere (it tells the reader, or the run
sets it back with `-e`), or when the image runs as another user. `likely`: a configuration file may
move the data back.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import LIKELY, Auditor
from docgen.audit.commands import fence_commands, image_repository, joined
from docgen.audit.image_paths import MOUNT, clean_path
from docgen.audit.names import docker_run
from docgen.audit.settings import Image
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic

_MOVABLE: dict[str, tuple[str, tuple[str, ...]]] = {
    "OLLAMA_MODELS": ("Ollama's models", (".ollama", ".ollama/models")),
    "HF_HOME": ("Hugging Face's cache", (".cache/huggingface",)),
    "HF_HUB_CACHE": ("Hugging Face's hub cache", (".cache/huggingface/hub",)),
    "HUGGINGFACE_HUB_CACHE": ("Hugging Face's hub cache", (".cache/huggingface/hub",)),
    "TORCH_HOME": ("PyTorch's cache", (".cache/torch",)),
}
"""ENV name → (what it holds, the folders below the home a mount of that data targets)."""
_ROOT_USERS = frozenset({"root", "0", "0:0", "root:root"})


def _runs(doc: Document) -> Iterator[tuple[int, str, str]]:
    """(README line, image, command) of each `docker run` of a command block or a code span."""
    for fence in doc.fences:
        for lines in fence_commands(fence):
            command = joined(lines)
            if (run := docker_run(command)) is not None:
                yield lines[0][0], run[1], command
    for para in doc.paragraphs:
        for line, text in para.lines:
            for _, _, span in code_spans(text):
                if (run := docker_run(span)) is not None:
                    yield line, run[1], span


def moved_data(doc: Document, text: str, auditor: Auditor) -> Iterator[Diagnostic]:
    """Each mount of a run of the audited image at the default folder of data its ENV moves (see the
    module docstring)."""
    if len(auditor.models) != 1:
        return
    model = auditor.models[0]
    image = Image(model)
    user = image.last("USER")
    if user is not None and user.value.strip() not in _ROOT_USERS:
        return
    chain = model.chain()
    if not chain:
        return
    target = chain[0].label
    moved: dict[str, tuple[str, int]] = {}
    for env in model.env:
        if env.stage == target and env.name in _MOVABLE and env.value:
            moved[env.name] = (env.value, env.line)
    if not moved:
        return
    # Whether the README names the variable or its folder: asked once a variable, not once a mount.
    told = {
        name: name in text or posixpath.normpath(value.rstrip("/") or "/") in text
        for name, (value, _) in moved.items()
    }
    built = set(auditor.shared.built)
    folder = Path(model.file).parent.name.lower() if model.file else ""
    for line, ran, command in _runs(doc):
        repo = image_repository(ran).lower()
        if repo not in built and not (folder and repo.rsplit("/", 1)[-1] == folder):
            continue
        for match in MOUNT.finditer(command):
            mounted = clean_path(match.group(1) or match.group(2) or "")
            if mounted is None:
                continue
            for name, (value, at) in moved.items():
                what, folders = _MOVABLE[name]
                if mounted not in {"/root/" + f for f in folders}:
                    continue
                place = value.rstrip("/")
                if "$" in place or not place.startswith("/"):
                    continue
                place = posixpath.normpath(place)
                if place == mounted or place.startswith(mounted + "/") or told[name]:
                    continue
                yield Diagnostic(
                    auditor.path,
                    line,
                    f"README mounts {mounted} for {what}, but {model.path}:{at} sets {name}={value}: "
                    f"the image keeps them there, not in the mounted folder",
                    confidence=LIKELY,
                )
