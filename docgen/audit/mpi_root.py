"""`mpirun` run as root in a container of an image that installs Open MPI: Open MPI's `mpirun` (and
`mpiexec`, `orterun`) refuses to start as root ("mpirun has detected an attempt to run as root …")
unless it is given `--allow-run-as-root` or both `OMPI_ALLOW_RUN_AS_ROOT=1` and
`OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1` are set. A README whose documented `mpirun -np 4 …` runs so fails as
written (`likely`: the README may mean a user it does not show).

Read: an `mpirun` given to a `docker run` of the image the README builds (`docker run … org/md:1 mpirun
-np 4 …`), and the command lines after an interactive `docker run -it … org/md:1` (no command, or a
shell) in the same block, which run in the container. The image runs as root when no stage of it sets
USER, its base image is a plain OS or CUDA image (`ubuntu`, `debian`, `nvidia/cuda`, …, which run as
root and set no ENTRYPOINT), and it sets none. It installs Open MPI when a RUN of its stages installs a
package of it (`openmpi-bin`, `libopenmpi-dev`, `openmpi`, `openmpi-devel`) or builds it (`openmpi-4.1.5`).

Silent when the Dockerfile or the README name `OMPI_ALLOW_RUN_AS_ROOT` or `--allow-run-as-root` anywhere,
when the Dockerfile installs another MPI too (MPICH, MVAPICH, Intel MPI), adds a user or switches to one
(`useradd`, `adduser`, `gosu`, `su-exec`), when the run passes `-u`/`--user`, sets `--entrypoint`, or the
block switches user (`su`, `sudo -u`), and when the base image is any other (it may set USER or ship
another MPI).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator, Sequence

from docgen.audit.auditor import LIKELY, dockerfile_read
from docgen.audit.commands import built_repositories, fence_commands, image_repository, joined, without_prompt
from docgen.audit.docker_cli import docker_verb
from docgen.audit.grammar import IMAGE_WORD, RUN, read_words
from docgen.audit.run_args import PLAIN_BASES, entrypoint, own_model
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel
from docgen.shell import sh_code, sh_words

_MPIRUN = re.compile(r"(?:[A-Za-z_]\w*=\S*[ \t]+)*(mpirun|mpiexec|orterun)(?=[ \t]|$)")
"""A step that runs Open MPI's launcher (after variables set for it)."""
_OPEN_MPI = re.compile(
    r"(?<![\w.-])(?:openmpi-bin|libopenmpi[\w.-]*|openmpi(?:-devel)?|openmpi-\d[\w.]*(?:\.tar\.\w+)?)(?![\w-])"
)
"""A package or a source release of Open MPI in a RUN (`openmpi-bin`, `openmpi-4.1.5.tar.gz`)."""
_OTHER_MPI = re.compile(r"mpich|mvapich|intel-oneapi-mpi|\bimpi\b|intel-mpi|hpcx", re.IGNORECASE)
"""Another MPI (or a bundle of Open MPI that sets its own rules) installed: which `mpirun` runs is unclear."""
_ALLOWED = re.compile(r"OMPI_ALLOW_RUN_AS_ROOT|allow-run-as-root")
_OTHER_USER = re.compile(r"\b(?:useradd|adduser|gosu|su-exec|setpriv|runuser)\b")
_SWITCHES = re.compile(r"(?:^|[;&|][ \t]*)(?:su|sudo[ \t]+-u|sudo[ \t]+--user)(?=[ \t]|$)")
_STEP = re.compile(r"&&|\|\||;|\|")
"""Where a step of a shell line starts (a `$(pwd)` in a mount stays in its word)."""
_LAUNCHERS = frozenset(("mpirun", "mpiexec", "orterun"))
_SHELLS = frozenset("sh bash /bin/sh /bin/bash zsh /bin/zsh".split())


def _root_open_mpi(model: ImageModel) -> bool:
    """Whether a container of the image `model` builds runs as root and has only Open MPI's `mpirun`
    (see the module docstring)."""
    chain = model.chain()
    if not chain or not model.file or entrypoint(model) is not False:
        return False
    base = image_repository(chain[-1].base).removeprefix("docker.io/").removeprefix("library/")
    if base not in PLAIN_BASES or base == "busybox":
        return False
    if any(s.keyword == "USER" for s in model.settings):
        return False
    read = dockerfile_read(model.file)
    if read is None:
        return False
    text, parsed = read
    if _ALLOWED.search(text) or _OTHER_USER.search(text):
        return False
    indexes = {stage.index for stage in chain}
    stage, installs = -1, False
    for inst in parsed.instructions:
        keyword = inst.keyword.upper()
        if keyword == "FROM":
            stage += 1
        elif keyword == "RUN":
            if _OTHER_MPI.search(inst.args):
                return False
            installs = installs or (stage in indexes and _OPEN_MPI.search(inst.args) is not None)
    return installs


def _run_of(step: str) -> tuple[str, list[str], bool] | None:
    """(image, words after it, whether it passes a user or an entrypoint) of a `docker run` step (also
    `nvidia-docker run`, `sudo docker run`); None for any other step or one not read whole."""
    step = re.sub(r"^[ \t]*(?:sudo[ \t]+)?nvidia-docker(?=[ \t])", "docker", without_prompt(step))
    step = re.sub(r"^[ \t]*sudo[ \t]+", "", step)
    if not step.startswith("docker"):
        return None
    try:
        words = sh_words(step)[1:]
    except ValueError:
        return None
    found = docker_verb(words) if words else None
    if found is None or found[0] != "run":
        return None
    read = read_words(words[found[1] :], RUN)
    if not read.complete or not read.positional or not IMAGE_WORD.fullmatch(read.positional[0]):
        return None
    away = any(n in ("-u", "--user", "--entrypoint") for n, _ in read.values)
    return read.positional[0], words[found[1] + read.after :], away


def _mpi_runs(doc: Document, models: Sequence[ImageModel]) -> Iterator[tuple[int, str, ImageModel]]:
    """(README line, launcher, model) of each `mpirun` run in a container of an image the README builds."""
    built = built_repositories(doc)
    if not built:
        return
    for fence in doc.fences:
        inside: ImageModel | None = None
        for command in fence_commands(fence):
            text = joined([(n, sh_code(t)) for n, t in command])
            if _SWITCHES.search(without_prompt(text)):
                return  # the block changes user: which one runs mpirun is unclear
            for step in _STEP.split(text):
                run = _run_of(step)
                if run is not None:
                    image, after, away = run
                    model = own_model(image, built, models)
                    inside = None
                    if model is None or away:
                        continue
                    if not after or (len(after) == 1 and after[0] in _SHELLS):
                        inside = model  # an interactive shell: the lines after run in the container
                    elif after[0] in _LAUNCHERS:
                        yield command[0][0], after[0], model
                    continue
                if re.match(r"[ \t]*exit\b", step):
                    inside = None
                if inside is not None and (match := _MPIRUN.match(without_prompt(step).strip())):
                    yield command[0][0], match.group(1), inside


def mpi_as_root(doc: Document, text: str, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    if not models or _ALLOWED.search(text) or not re.search(r"\b(?:mpirun|mpiexec|orterun)\b", text):
        return
    judged: dict[str, bool] = {}
    for line, launcher, model in _mpi_runs(doc, models):
        if model.path not in judged:
            judged[model.path] = _root_open_mpi(model)
        if not judged[model.path]:
            continue
        yield Diagnostic(
            readme,
            line,
            f"README runs {shlex.quote(launcher)} in a container of the image {model.path} builds, which "
            "runs as root (no USER) and installs Open MPI: Open MPI's launcher refuses to run as root "
            "without --allow-run-as-root (or OMPI_ALLOW_RUN_AS_ROOT=1 and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)",
            confidence=LIKELY,
        )
