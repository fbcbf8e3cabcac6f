"""Commands that give an image a Python or a C compiler other than its distribution's default package.

`apt-get install python3` on `ubuntu:22.04` installs Python 3.10, the release Ubuntu 22.04's `python3`
depends on (`baseimage.distribution`); that is the image's Python only when nothing else brings one: a
conda, mamba or Miniforge install, pyenv, asdf or mise, `uv python install` or a uv environment (uv may
fetch its own interpreter), a source build (`Python-3.11.9.tgz`, `make altinstall`, `install_python.sh`),
python-build-standalone, a named release from an archive (deadsnakes' `python3.11`), or an image copied
from (`COPY --from=python:3.12`).
The same holds of `gcc`: a versioned compiler package (`gcc-12`, `g++-13`, a PPA's), RHEL's
`gcc-toolset-13` or devtoolset, `update-alternatives` for gcc, conda compilers, Spack or a source build
of GCC each make the default package's version no longer the one `gcc` runs.

`foreign_toolchains` reads the text of each RUN (heredoc bodies included) and COPY, and returns which of
the two each brings (`python`, `gcc`) with its line. It errs on the side of finding one: a command it
cannot read makes docgen say nothing of the image's Python, never something wrong.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_OTHER_PYTHON = re.compile(
    r"\b(?:conda|mamba|micromamba|miniconda\w*|miniforge\w*|mambaforge|anaconda\w*|pixi|rye|pyenv"
    r"|deadsnakes|altinstall|cpython|python-build-standalone|asdf|mise)\b"
    r"|\bvirtualenv[ \t]+(?:[^;&|\n]{0,80}?[ \t])?-p\b"
    r"|\buv[ \t]+(?:python|venv|sync)\b"
    r"|\bpython\.org/ftp\b|\bPython-(?:3\.\d|\$)|\binstall[_-]python\b"
    r"|--python[ \t=]"
    r"|--from=[\w./:-]{0,120}?(?:python|conda|miniforge|mamba)",
    re.IGNORECASE,
)
"""A Python of its own: an environment manager, an interpreter build or download, a named release's
archive, an image of Python or conda copied from."""
_OTHER_GCC = re.compile(
    r"(?<![\w.+-])(?:gcc|g\+\+|gfortran|cpp)-\d"
    r"|\b(?:gcc-toolset|devtoolset|toolchain-r|spack|conda|mamba|micromamba)\b"
    r"|\bgnu/gcc\b|\bgcc-\d+\.\d+(?:\.\d+)?\.tar"
    r"|\bupdate-alternatives\b[^;&|\n]{0,200}?\b(?:gcc|g\+\+|cc|c\+\+)\b",
    re.IGNORECASE,
)
"""A compiler of its own: a versioned package, a toolset, a PPA of newer compilers, conda or Spack
compilers, a GCC download, or the default switched with `update-alternatives`."""


def foreign_toolchains(instructions: Iterable[tuple[int, str]]) -> tuple[tuple[str, int], ...]:
    """(`python` or `gcc`, line) for each RUN or COPY (line, text) that brings a Python or a compiler
    other than the distribution's default package, in the order found."""
    found: list[tuple[str, int]] = []
    for line, text in instructions:
        if _OTHER_PYTHON.search(text):
            found.append(("python", line))
        if _OTHER_GCC.search(text):
            found.append(("gcc", line))
    return tuple(found)
