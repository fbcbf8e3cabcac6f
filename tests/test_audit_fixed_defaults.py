"""Build args the README documents whose default the Dockerfile also writes out in the word that reads
them (`docgen/audit/fixed_defaults.py`)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

LIBS = """\
FROM ubuntu:22.04
ARG NCCL_VERSION=2.21.5
ARG TOOL_VERSION=4.2
RUN curl -fsSLO https://downloads.example.org/nccl/2.21.5/nccl-repo-${NCCL_VERSION}-1_amd64.deb && \\
    dpkg -i nccl-repo-${NCCL_VERSION}-1_amd64.deb
RUN curl -fsSLO https://downloads.example.org/tool/tool-${TOOL_VERSION}.tar.gz
"""

README = """\
# Libraries image

```bash
docker build --build-arg NCCL_VERSION=2.21.5 --build-arg TOOL_VERSION=4.2 .
```

* `NCCL_VERSION`: can be changed, default 2.21.5.
* `TOOL_VERSION`: can be changed, default 4.2.
"""


def fixed(root: Path, readme: str = README, dockerfile: str = LIBS) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root)
        if "literally beside" in d.message
    ]


def test_a_documented_arg_whose_default_the_url_also_spells(tmp_path: Path) -> None:
    assert fixed(tmp_path) == [
        (
            7,
            "README documents build arg NCCL_VERSION as one to set, but Dockerfile:4 writes its default "
            "2.21.5 literally beside ${NCCL_VERSION} in "
            "`https://downloads.example.org/nccl/2.21.5/nccl-repo-${NCCL_VERSION}-1_amd64.deb`: another "
            "value changes one and not the other, so only 2.21.5 builds as meant",
            "likely",
        )
    ]


def test_the_arg_documented_in_a_table_only(tmp_path: Path) -> None:
    readme = "# Libraries\n\n| Build arg | Default |\n|---|---|\n| `NCCL_VERSION` | `2.21.5` |\n"
    assert [line for line, _, _ in fixed(tmp_path, readme)] == [5]


def test_a_long_word_is_shown_around_the_default_and_the_reference(tmp_path: Path) -> None:
    long = LIBS.replace("downloads.example.org/nccl", "downloads.example.org/" + "mirror/" * 12 + "nccl")
    long = long.replace("-1_amd64.deb &&", "-1_amd64" + "-extra" * 10 + ".deb &&")
    [(_, message, _)] = fixed(tmp_path, dockerfile=long)
    assert "`…mirror/nccl/2.21.5/nccl-repo-${NCCL_VERSION}-1_amd64-ext…`" in message


def test_traps_stay_silent(tmp_path: Path) -> None:
    # the default written on another word of the line: docgen lint's hard-coded value, not this
    apart = LIBS.replace(
        "-fsSLO https://downloads.example.org/nccl/2.21.5/nccl-repo-${NCCL_VERSION}-1_amd64.deb",
        "-fsSL -o nccl-2.21.5.deb https://downloads.example.org/nccl/${NCCL_VERSION}/nccl-repo.deb",
    )
    assert fixed(tmp_path / "apart", dockerfile=apart) == []
    # the arg's own fallback (`${NCCL_VERSION:-2.21.5}`) is no copy of it
    fallback = LIBS.replace("nccl/2.21.5/nccl-repo-${NCCL_VERSION}", "nccl/${NCCL_VERSION:-2.21.5}/nccl-repo")
    assert fixed(tmp_path / "fallback", dockerfile=fallback) == []
    # another version holding the default's numbers (`12.21.5`, `2.21.5.1`) is not it
    longer = LIBS.replace("nccl/2.21.5/", "nccl/12.21.5/2.21.5.1/")
    assert fixed(tmp_path / "longer", dockerfile=longer) == []
    # a commented-out line of the RUN, and a default that is no version
    url = "https://downloads.example.org/nccl/2.21.5/nccl-repo-${NCCL_VERSION}-1_amd64.deb"
    commented = LIBS.replace(
        f"RUN curl -fsSLO {url} && \\\n",
        f"RUN \\\n# curl -fsSLO {url} \\\n"
        "    curl -fsSLO https://downloads.example.org/nccl/${NCCL_VERSION}/x.deb && \\\n",
    )
    assert fixed(tmp_path / "commented", dockerfile=commented) == []
    branch = LIBS.replace("NCCL_VERSION=2.21.5\n", "NCCL_VERSION=main\n").replace(
        "nccl/2.21.5/", "nccl/main/"
    )
    assert fixed(tmp_path / "branch", dockerfile=branch) == []
    # an arg the README does not document
    assert fixed(tmp_path / "quiet", readme="# Libraries\n\nBuild it with `docker build .`.\n") == []
    # a stage that does not declare the arg reads it empty: its words are not the arg's
    staged = LIBS.replace(
        "FROM ubuntu:22.04\nARG NCCL_VERSION=2.21.5\n", "ARG NCCL_VERSION=2.21.5\nFROM ubuntu:22.04\n"
    )
    assert fixed(tmp_path / "staged", dockerfile=staged) == []
