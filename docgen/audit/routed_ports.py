"""A request the README sends to a route of one of its containers (`curl localhost:8000/rerank`) on the
host port another of its containers is published on: the README runs several images it builds, each
with `docker run -p HOST:CONTAINER`, and the route is named after one of them (`fastembed-reranker`)
while the port is the other's (`-p 8000:8000 fastembed-text`). The request reaches the wrong service.

Read only when every host port is known: the README's `docker run` commands publish two or more of the
images its `docker build -t` commands build, each on its own host ports, and none publishes every port
(`-P`) or shares the host's network. A route is named after an image when a word of its path (`rerank`,
`embed_text`: `embed`, `text`) and a word of the image's name that not every image has (`reranker`;
`fastembed` is every image's) start alike, four letters at least and all but the last two of the
shorter (`translate`, `translator`); words every API has (`api`, `v1`,
`health`, `docs` …) name nothing. A finding only when exactly one image is so named, the port's image
is not, and no file the port's image copies from the build context names the route (`"/rerank"`:
it may serve it too). Each finding is `likely`.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.commands import (
    FILE_FLAG,
    TAG_FLAG,
    fence_commands,
    image_repository,
    joined,
    without_prompt,
)
from docgen.build_scripts import BUILD, DOCKER, container_command
from docgen.copied import copied_files
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel
from docgen.shell import shell_split

_RUN = re.compile(container_command("run", DOCKER))
_RUN_VALUES = frozenset(
    "-e --env -p --publish -v --volume --name --gpus --network --net -w --workdir -u --user --env-file "
    "--mount --shm-size --ipc --entrypoint --device --add-host -h --hostname -m --memory --cpus --restart "
    "--platform -l --label --ulimit --group-add --cap-add --cap-drop --security-opt --runtime --pull "
    "--log-driver --log-opt --tmpfs --pid --uts --cidfile --memory-swap --cpuset-cpus --stop-signal".split()
)
"""Options of `docker run` that take the next word as their value."""
_PUBLISH = re.compile(r"(?:(?:\d{1,3}\.){3}\d{1,3}:)?(\d{1,5}):(\d{1,5})(?:/(?:tcp|udp))?\Z")
_EVERY_PORT = re.compile(r"(?:^|[ \t])(?:-P|--publish-all)\b|--net(?:work)?(?:[ \t]+|=)[\"']?host\b")
_URL = re.compile(r"\bhttps?://(?:localhost|127\.0\.0\.1|0\.0\.0\.0):(\d{1,5})(/[\w./-]*)?")
_WORD = re.compile(r"[a-z][a-z0-9]*")
_GENERIC = frozenset(
    "api apis v1 v2 v3 health healthz ready docs openapi json app apps server service services web http "
    "latest gpu cpu cuda rocm image images docker local dev prod main".split()
)
"""Words of a route or an image name that name no one service (`image` is a kind of input too)."""
_STEM = 4
"""Letters a route's word and an image's word start alike at least to name the same thing."""


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _GENERIC}


def _run(words: list[str]) -> tuple[str, list[int]] | None:
    """(image, host ports) of the words after `run` of a `docker run`; None when its image is not found."""
    ports: list[int] = []
    at = 0
    while at < len(words):
        word = words[at]
        if not word.startswith("-"):
            return image_repository(word), ports
        option, _, value = word.partition("=")
        if option in _RUN_VALUES and not value:
            at += 1
            value = words[at] if at < len(words) else ""
        elif option.startswith("-p") and len(option) > 2 and not option.startswith("--"):
            option, value = "-p", option[2:]
        if option in ("-p", "--publish") and (match := _PUBLISH.match(value)) is not None:
            ports.append(int(match.group(1)))
        at += 1
    return None


def _split(text: str) -> list[str] | None:
    try:
        return shell_split(text.split(" #", 1)[0])
    except ValueError:
        return None


def _runs_and_builds(doc: Document) -> tuple[dict[int, str], dict[str, str]] | None:
    """(host port → image published there, image → Dockerfile its build names) of the README's commands;
    None when a run publishes ports docgen cannot list."""
    ports: dict[int, set[str]] = {}
    builds: dict[str, str] = {}
    for fence in doc.fences:
        for command in fence_commands(fence):
            text = without_prompt(joined(command).strip())
            if BUILD.search(text):
                tag = TAG_FLAG.search(text)
                file = FILE_FLAG.search(text)
                if tag is not None:
                    builds[image_repository(tag.group(1))] = (
                        file.group(1) if file is not None else "Dockerfile"
                    )
            elif (run := _RUN.search(text)) is not None:
                if _EVERY_PORT.search(text):
                    return None
                words = _split(text[run.end() :])
                started = _run(words) if words is not None else None
                if started is not None:
                    for port in started[1]:
                        ports.setdefault(port, set()).add(started[0])
    return {port: next(iter(images)) for port, images in ports.items() if len(images) == 1}, builds


def _alike(one: str, other: str) -> bool:
    """True when two words start alike up to their last two letters at most (`rerank` and `reranker`,
    `translate` and `translator`), `_STEM` letters at least."""
    same = len(os.path.commonprefix([one, other]))
    return same >= _STEM and same >= min(len(one), len(other)) - 2


def _named_after(route: str, images: Sequence[str]) -> list[str]:
    """The images of `images` whose own words (those not every image's name has) the route's words
    start alike with (`rerank` and `reranker`)."""
    every = set.intersection(*(_words(i) for i in images)) if images else set()
    said = [w for w in _words(route) if len(w) >= _STEM]
    named = []
    for image in images:
        own = [w for w in _words(image) - every if len(w) >= _STEM]
        if any(_alike(a, b) for a in said for b in own):
            named.append(image)
    return named


def _copied_texts(model: ImageModel, directory: Path) -> Iterator[str]:
    """The texts of the files `model` copies from its build context, taken as the README's folder (a
    README builds from it with `-f`), read as BuildKit copies them (`copied.copied_files`: no `..`, no
    link out, `.dockerignore` applied); the first `_MOST_COPIED` files only."""
    for count, copied in enumerate(copied_files(directory.resolve(), model.context_copies, model.file)):
        if count >= _MOST_COPIED:
            return
        if copied.path is not None and (text := text_or_none(copied.path)) is not None:
            yield text


_MOST_COPIED = 200
"""How many copied files are looked through for a route's name."""


def routed_ports(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """One finding per request sent to a route named after one image on a host port another image is
    published on (see the module's docstring)."""
    if not any("curl" in t for f in doc.fences for _, t in f.lines):
        return
    found = _runs_and_builds(doc)
    if found is None:
        return
    ports, builds = found
    published = sorted({image for image in ports.values() if image in builds})
    if len(published) < 2:
        return
    by_path = {posixpath.normpath(m.path): m for m in models}
    on: dict[str, list[int]] = {}
    for port, image in sorted(ports.items()):
        on.setdefault(image, []).append(port)
    for fence in doc.fences:
        for line, text in fence.lines:
            if "curl" not in text and "http" not in text:
                continue
            for url in _URL.finditer(text):
                port, route = int(url.group(1)), (url.group(2) or "").rstrip("/")
                there = ports.get(port)
                if there not in published or not route:
                    continue
                named = _named_after(route, published)
                if len(named) != 1 or named[0] == there:
                    continue
                model = by_path.get(posixpath.normpath(builds[there]))
                first = "/" + route.strip("/").split("/", 1)[0]
                if model is not None and any(
                    f'{first}"' in t or f"{first}'" in t for t in _copied_texts(model, directory)
                ):
                    continue  # the port's image may serve the route too
                other = named[0]
                yield Diagnostic(
                    readme,
                    line,
                    f"README sends {route} to localhost:{port}, where its `docker run` publishes {there}; "
                    f"the route is {other}'s, which it publishes on {', '.join(map(str, on[other]))}",
                    confidence=LIKELY,
                )
