"""A README line saying the compose deployment runs on a CPU (`docker-compose.yml for deployment on both
CPU and NVIDIA GPU setups`, `the compose stack works with or without a GPU`, `… on CPU-only machines`)
where every service `docker compose up` starts from the compose file beside the README holds a hard
NVIDIA device reservation (`deploy.resources.reservations.devices` with `driver: nvidia` or
`capabilities: [gpu]`, `runtime: nvidia`, `gpus:`): on a host without an NVIDIA GPU and its container
toolkit, Compose cannot start them (`likely`: read from prose).

The other way round: a line of prose naming Compose or a service of the compose file (`` runs the
`trainer` service with GPU support ``, `the compose stack runs on the GPU`) where no service it names
(every service, when it names none) reserves a GPU: Compose gives the container no GPU, so what it runs
falls back to the CPU or fails (`likely`). Silent when the line passes `--gpus` itself, tells the reader
to edit the file or names a condition, when the folder holds another compose file (an override may add
the reservation), and when a reservation is written with a variable.

Read: lines of prose (not code blocks) naming Compose (`compose`, `docker-compose.yml`) and a CPU
deployment (`CPU and GPU`, `CPU or GPU`, `CPU-only`, `CPU/GPU`, `with or without a GPU`, `no GPU`).
Silent when the folder holds another compose file (a CPU variant: `docker-compose.cpu.yml`, an
override file), when a service has a profile, when the reservation is written with a variable
(`runtime: ${RUNTIME}`: switchable), when the line tells the reader to edit the file (`remove`,
`comment out`), and when no service starts. An environment variable that picks the device
(`DEVICE=cpu`) does not remove the reservation: still told.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from docgen import compose
from docgen.audit.auditor import LIKELY
from docgen.errors import MAX_PROJECT_FILE_BYTES, DocgenError
from docgen.files import bytes_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic

_COMPOSE = re.compile(r"\bcompose\b|compose\.ya?ml\b", re.IGNORECASE)
"""A line naming Compose or a compose file."""
_CPU = re.compile(
    r"\bCPUs?\b[ \t]*(?:and|or|/|&|\+)[ \t]*(?:\w+[ \t]+){0,2}GPUs?\b"
    r"|\bGPUs?\b[ \t]*(?:and|or|/|&|\+)[ \t]*CPUs?\b"
    r"|\bCPU[- ]only\b|\bwith[ \t]+or[ \t]+without[ \t]+(?:an?[ \t]+)?(?:\w+[ \t]+)?GPUs?\b"
    r"|\b(?:no|without[ \t]+(?:an?[ \t]+)?)(?:NVIDIA[ \t]+)?GPUs?\b",
    re.IGNORECASE,
)
"""A CPU deployment said (`both CPU and NVIDIA GPU`, `CPU-only`, `with or without a GPU`)."""
_EDIT = re.compile(
    r"\bremov|\bcomment|\bdelet|\bedit|\bchang|\bmodif|\badjust|\breplac|\bdrop\b|\boverrid|\bprofile"
    r"|\b-f\b|\bif\b|\bwhen\b|\bunless\b|\brequire|\bneeds?\b|\bmust\b|\bnot[ \t]+support",
    re.IGNORECASE,
)
"""Words of a line telling the reader to change the file, a condition, or a GPU requirement."""


def _reserves_nvidia(service: dict[Any, Any]) -> bool | None:
    """True when `service` reserves an NVIDIA GPU with no variable in the way, False when it reserves
    none, None when the reservation is written with a variable (switchable)."""
    found = False
    runtime = service.get("runtime")
    if isinstance(runtime, str):
        if "$" in runtime:
            return None
        found = found or runtime.strip().lower() == "nvidia"
    gpus = service.get("gpus")
    if gpus is not None:
        if "$" in str(gpus):
            return None
        found = True
    deploy = service.get("deploy")
    resources = deploy.get("resources") if isinstance(deploy, dict) else None
    reservations = resources.get("reservations") if isinstance(resources, dict) else None
    devices = reservations.get("devices") if isinstance(reservations, dict) else None
    if isinstance(devices, list):
        for device in devices:
            if not isinstance(device, dict):
                continue
            written = str({k: v for k, v in device.items() if k != compose.KEY_LINES})
            driver = str(device.get("driver", "")).lower()
            capabilities = device.get("capabilities")
            gpu = driver == "nvidia" or (isinstance(capabilities, list) and "gpu" in map(str, capabilities))
            if gpu and "$" in written:
                return None
            found = found or gpu
    return found


def _below(folder: Path) -> bool:
    """Whether a folder right under `folder` holds a compose file (a variant kept apart: `cpu/`)."""
    try:
        subfolders = [e.path for e in os.scandir(folder) if e.is_dir() and not e.name.startswith(".")]
    except OSError:
        return True
    for sub in subfolders[:200]:
        try:
            if any(e.is_file() and compose.FILE_NAME.match(e.name) for e in os.scandir(sub)):
                return True
        except OSError:
            continue
    return False


_NAMED = re.compile(r"[\w.-]*compose[\w.-]*\.ya?ml\b", re.IGNORECASE)
"""A compose file's name written in the README."""


def _only_compose_file(folder: Path) -> Path | None:
    """The compose file `docker compose` reads in `folder` when it is the only compose file there (no
    override, no `compose.gpu.yml` beside it); None otherwise."""
    files = compose.default_files(folder)
    if len(files) != 1:
        return None
    try:
        names = [e.name for e in os.scandir(folder) if e.is_file() and compose.FILE_NAME.match(e.name)]
    except OSError:
        return None
    return files[0] if len(names) == 1 else None


def _only_compose_services(folder: Path) -> tuple[Path, dict[Any, Any]] | None:
    """(the file, its `services` mapping) of the only compose file `docker compose` reads in `folder`
    (`_only_compose_file`); None when there is none, it cannot be read (too large, a link out) or
    loaded, or it includes or extends other files (its services are not all written here)."""
    path = _only_compose_file(folder)
    if path is None:
        return None
    data = bytes_or_none(path, MAX_PROJECT_FILE_BYTES)
    if data is None:
        return None
    try:
        document = compose.load(data, path.name)
    except DocgenError:
        return None
    services = document.get("services") if isinstance(document, dict) else None
    if not isinstance(services, dict) or "include" in document or "extends" in str(services):
        return None
    return path, services


def _gpu_only(folder: Path) -> tuple[str, list[str]] | None:
    """(compose file name, its services) when `docker compose up` in `folder` reads one file, the folder
    holds no other compose file, and every service it starts reserves an NVIDIA GPU; None otherwise."""
    if _below(folder) or (found := _only_compose_services(folder)) is None:
        return None
    path, services = found
    if not services:
        return None
    started = []
    for name, service in services.items():
        if name == compose.KEY_LINES:
            continue
        if not isinstance(service, dict) or service.get("profiles"):
            return None
        if _reserves_nvidia(service) is not True:
            return None
        started.append(str(name))
    return (path.name, started) if started else None


def gpu_only_compose(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A CPU deployment `doc` promises for a compose file whose every service reserves an NVIDIA GPU
    (see the module docstring), once per README line (`likely`)."""
    said = [
        (line, text)
        for para in doc.paragraphs
        for line, text in para.lines
        if _COMPOSE.search(text) and _CPU.search(text) and not _EDIT.search(text)
    ]
    if not said:
        return
    found = _gpu_only(directory)
    if found is None:
        return
    name, services = found
    texts = [t for fence in doc.fences for _, t in fence.lines]
    texts += [t for para in doc.paragraphs for _, t in para.lines]
    if any(m.group(0).lower() != name.lower() for t in texts for m in _NAMED.finditer(t)):
        return  # another compose file the README runs (`-f docker-compose.cpu.yml`)
    for line, text in said:
        claim = _CPU.search(text)
        assert claim is not None
        yield Diagnostic(
            readme,
            line,
            f"README says the compose deployment runs without an NVIDIA GPU ({claim.group(0).strip()}), "
            f"but every service {name} starts ({', '.join(services)}) reserves one and no CPU variant "
            f"exists: on a host without one, `docker compose up` cannot start it",
            confidence=LIKELY,
        )


_GPU_SAID = re.compile(
    r"\bwith[ \t]+(?:NVIDIA[ \t]+|CUDA[ \t]+)?GPU[ \t]+(?:support|acceleration|access|enabled)\b"
    r"|\bGPU[- ](?:accelerated|enabled)\b"
    r"|\b(?:runs?|running|trains?|training)[ \t]+on[ \t]+(?:the[ \t]+|your[ \t]+|an?[ \t]+|all[ \t]+)?"
    r"(?:NVIDIA[ \t]+)?GPUs?\b",
    re.IGNORECASE,
)
"""A GPU run said (`with GPU support`, `GPU-accelerated`, `runs on the GPU`)."""
_SERVICE_SAID = re.compile(r"`([\w.-]+)`[ \t]+(?:service|container)\b|\bservice[ \t]+`([\w.-]+)`", re.I)
_NOT_GPU_CLAIM = re.compile(r"--gpus\b|\bCPU\b|\bnot\b|n't\b|\bwithout\b|\boptional", re.IGNORECASE)


_ANCHOR_LINK = re.compile(r"\[([^\]]*)\]\(#[^)\s]*\)")
"""A link to a heading of the same page (`[Run with GPU support](#run-with-gpu-support)`)."""


def _in_anchor_link(text: str, claim: re.Match[str]) -> bool:
    """Whether `claim` lies in the text of a link to a heading of the page: a table of contents entry
    names a section, it says nothing of what the compose file does."""
    return any(m.start(1) <= claim.start() < m.end(1) for m in _ANCHOR_LINK.finditer(text))


def _services(folder: Path) -> dict[str, bool | None] | None:
    """Each service of the one compose file `docker compose` reads in `folder` → whether it reserves a
    GPU (None: written with a variable); None when the folder holds other compose files or none."""
    found_services = _only_compose_services(folder)
    if found_services is None:
        return None
    _, services = found_services
    found: dict[str, bool | None] = {}
    for name, service in services.items():
        if name == compose.KEY_LINES:
            continue
        if not isinstance(service, dict):
            return None
        found[str(name)] = _reserves_nvidia(service)
    return found or None


def gpu_less_compose(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A GPU run `doc` promises for services of the compose file beside it that reserve no GPU (see the
    module docstring), once per README line (`likely`)."""
    said = [
        (line, text, claim)
        for para in doc.paragraphs
        for line, text in para.lines
        if (claim := _GPU_SAID.search(text)) and not _EDIT.search(text) and not _NOT_GPU_CLAIM.search(text)
    ]
    if not said:
        return
    services = _services(directory)
    if services is None:
        return
    name = compose.default_files(directory)[0].name
    texts = [t for fence in doc.fences for _, t in fence.lines]
    texts += [t for para in doc.paragraphs for _, t in para.lines]
    if any(m.group(0).lower() != name.lower() for t in texts for m in _NAMED.finditer(t)):
        return  # the GPU run may be another compose file's (`-f docker-compose-cuda.yml`)
    for line, text, claim in said:
        if _in_anchor_link(text, claim):
            continue  # `- [Run with NVIDIA GPU support](#run-with-nvidia-gpu-support)`: a contents entry
        named = [a or b for a, b in _SERVICE_SAID.findall(text)]
        if named:
            if any(n not in services for n in named):
                continue
        elif _COMPOSE.search(text):
            named = list(services)
        else:
            continue
        if any(services[n] is not False for n in named):
            continue
        one = len(named) == 1
        yield Diagnostic(
            readme,
            line,
            f"README says {'service' if one else 'services'} {', '.join(named)} {'runs' if one else 'run'} "
            f"with a GPU ({claim.group(0).strip()}), but {name} reserves none for {'it' if one else 'them'} "
            "(no deploy.resources.reservations.devices, runtime: nvidia or gpus:): Compose gives the "
            "container no GPU",
            confidence=LIKELY,
        )
