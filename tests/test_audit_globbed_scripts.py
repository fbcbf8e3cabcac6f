"""`docgen audit`: a RUN that runs a script only a glob COPY could bring, while the build's context holds
no file of that name (docgen/audit/globbed_scripts.py): `COPY setup-*.sh /opt/kit/` then `RUN
/opt/kit/setup-extra.sh` with no `setup-extra.sh` in the context.

Shapes modelled on real pairs: an HPC image copying `install-*.sh` into `/opt/…/` and running each by
its path; a Node image copying `scripts/*.sh /scripts/` and running `/scripts/x_install.sh`.
Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

HPC = (
    "FROM nvidia/cuda:12.2.0-devel-ubuntu22.04\n"
    "COPY setup-*.sh /opt/kit/\n"
    "COPY mirrors.list /etc/apt/\n"
    "RUN /opt/kit/setup-system.sh\n"
    "ENV LANG=C.UTF-8\n"
    "RUN /opt/kit/setup-phylo.sh\n"
    "RUN /opt/kit/setup-sampler.sh\n"
    'ENTRYPOINT ["/bin/bash"]\n'
)
NODE = (
    "FROM node:20-alpine\n"
    "COPY tools/*.sh /tools/\n"
    "RUN sh /tools/web_setup.sh\n"
    "RUN /tools/api_setup.sh && apk add py3-pip\n"
    'CMD ["node", "server.js"]\n'
)
SCRIPTS = {
    "setup-system.sh": "apt-get update\n",
    "setup-phylo.sh": "make install\n",
    "mirrors.list": "deb x\n",
}
CLONE = "git clone https://github.com/wren/phylo-gpu-box.git\ncd phylo-gpu-box\ndocker build .\n"


def _audited(tmp_path: Path, dockerfile: str, files: dict[str, str], block: str) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile, **files})
    models = [build_model(tmp_path / "Dockerfile", "Dockerfile")]
    readme = f"# Box\n\nBuild it:\n\n```bash\n{block}```\n"
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, tmp_path)
        if "copies only the files" in d.message
    ]


def test_a_script_the_glob_does_not_bring(tmp_path: Path) -> None:
    found = _audited(tmp_path, HPC, SCRIPTS, CLONE)
    assert found == [
        "8: README builds ./Dockerfile with the context ., whose line 7 runs /opt/kit/setup-sampler.sh, "
        "but the context holds no setup-sampler.sh: line 2 copies only the files setup-*.sh matches (likely)"
    ]


def test_every_script_there_is_silent(tmp_path: Path) -> None:
    files = {**SCRIPTS, "setup-sampler.sh": "wget x\n"}
    assert _audited(tmp_path, HPC, files, "docker build -t box .\n") == []


def test_a_folder_subpath_glob_and_a_shell_running_it(tmp_path: Path) -> None:
    files = {"tools/web_setup.sh": "npm ci\n", "server.js": "x\n"}
    found = _audited(tmp_path, NODE, files, "docker build -t web .\n")
    assert [f.split(", whose ")[1].split(",")[0] for f in found] == ["line 4 runs /tools/api_setup.sh"]


def test_made_before_or_guarded_is_silent(tmp_path: Path) -> None:
    made = HPC.replace(
        "RUN /opt/kit/setup-sampler.sh",
        "RUN wget -O /opt/kit/setup-sampler.sh https://x.example/s.sh\nRUN /opt/kit/setup-sampler.sh",
    )
    assert _audited(tmp_path, made, SCRIPTS, "docker build .\n") == []
    guarded = HPC.replace(
        "RUN /opt/kit/setup-sampler.sh",
        "RUN if [ -f /opt/kit/setup-sampler.sh ]; then /opt/kit/setup-sampler.sh; fi",
    )
    assert _audited(tmp_path / "g", guarded, SCRIPTS, "docker build .\n") == []
    fetched = HPC.replace(
        "RUN /opt/kit/setup-sampler.sh",
        "RUN git clone https://x.example/k /opt/kit/extra && /opt/kit/setup-sampler.sh",
    )
    assert _audited(tmp_path / "f", fetched, SCRIPTS, "docker build .\n") == []


def test_a_brought_script_that_writes_it_is_silent(tmp_path: Path) -> None:
    files = {**SCRIPTS, "setup-system.sh": "curl -o /opt/kit/setup-sampler.sh https://x.example\n"}
    assert _audited(tmp_path, HPC, files, "docker build .\n") == []


def test_another_copy_a_stage_or_a_system_folder_is_silent(tmp_path: Path) -> None:
    other = HPC.replace("ENV LANG=C.UTF-8", "COPY extra/ /opt/kit/")
    assert _audited(tmp_path, other, SCRIPTS, "docker build .\n") == []
    staged = "FROM ubuntu:22.04 AS base\nRUN true\n" + HPC.replace(
        "FROM nvidia/cuda:12.2.0-devel-ubuntu22.04", "FROM base"
    )
    assert _audited(tmp_path / "s", staged, SCRIPTS, "docker build .\n") == []
    system = HPC.replace("/opt/kit/", "/usr/local/bin/")
    assert _audited(tmp_path / "u", system, SCRIPTS, "docker build .\n") == []
    relative = HPC.replace("ENV LANG=C.UTF-8", "WORKDIR /opt\nCOPY more kit/")
    assert _audited(tmp_path / "r", relative, SCRIPTS, "docker build .\n") == []


def test_a_name_the_glob_does_not_match_is_silent(tmp_path: Path) -> None:
    # the base may hold it, or it is not meant to come from the glob
    other = HPC.replace("RUN /opt/kit/setup-sampler.sh", "RUN /opt/kit/entrypoint.sh")
    assert _audited(tmp_path, other, SCRIPTS, "docker build .\n") == []


def test_the_readme_makes_it_first(tmp_path: Path) -> None:
    block = "curl -o setup-sampler.sh https://x.example/s.sh\ndocker build .\n"
    assert _audited(tmp_path, HPC, SCRIPTS, block) == []


def test_a_clone_of_another_repository_is_not_followed(tmp_path: Path) -> None:
    block = "git clone https://github.com/wren/other.git\ncd other\nmake\ndocker build .\n"
    assert _audited(tmp_path, HPC, SCRIPTS, block) == []


def test_an_archive_add_unpacks_is_silent(tmp_path: Path) -> None:
    added = HPC.replace("COPY setup-*.sh /opt/kit/", "ADD setup-* /opt/kit/")
    files = {**SCRIPTS, "setup-bundle.tar.gz": "x"}
    assert _audited(tmp_path, added, files, "docker build .\n") == []
