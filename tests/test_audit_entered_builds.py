"""`docgen audit`: a `docker build -f` after a README `cd`, its path written from the context, not from
the folder the `cd` entered, and a build with no `-f` whose context holds no Dockerfile
(docgen/audit/entered_builds.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM python:3.12-slim\nCOPY . /app\n"


def found(
    root: Path, block: str, readme: str = "README.md", files: dict[str, str] | None = None
) -> list[str]:
    tree = {
        "deploy/Dockerfile": APP,
        "tools/gpu/Dockerfile.cuda": APP,
        "setup.py": "",
        readme: f"# Orbit\n\n## Build\n\n```bash\n{block}\n```\n",
    }
    make_tree(root, tree | (files or {}))
    model = build_model(root / "deploy/Dockerfile", "deploy/Dockerfile")
    page = root / readme
    text = page.read_text(encoding="utf-8")
    findings = audit(text, readme, model, {}, page.parent, root)
    return [f"{d.line} {d.confidence} {d.message}" for d in findings if "current folder" in d.message]


def test_a_clone_named_cd_then_a_build_written_from_the_context(tmp_path: Path) -> None:
    # the README sits in deploy/; the reader's clone is named by them (`orbit`), its deploy/ folder entered
    block = "cd orbit/deploy\ndocker compose build web    # or: docker build -f deploy/Dockerfile ..\n"
    assert found(tmp_path, block, "deploy/README.md") == [
        "7 certain README builds with -f deploy/Dockerfile from deploy/, where no deploy/Dockerfile exists; "
        "docker reads -f from the current folder, not from the context .., where the Dockerfile is "
        "(-f Dockerfile)"
    ]


def test_a_cd_of_the_same_line_into_a_deeper_folder(tmp_path: Path) -> None:
    block = "cd tools/gpu && docker build -t orbit:cuda -f tools/gpu/Dockerfile.cuda ../.."
    assert [f.split(" README")[0] for f in found(tmp_path, block)] == ["6 certain"]


def test_a_continued_buildx_command(tmp_path: Path) -> None:
    block = "cd tools/gpu\ndocker buildx build \\\n  -f tools/gpu/Dockerfile.cuda \\\n  -t orbit:cuda ../.."
    assert [f.split(" README")[0] for f in found(tmp_path, block)] == ["7 certain"]


@pytest.mark.parametrize(
    "block",
    [
        "cd tools/gpu && docker build -f Dockerfile.cuda -t orbit:cuda ../..",  # right: from the folder
        "cd deploy && docker build -f ../deploy/Dockerfile ..",  # right: the path climbs first
        "cd tools/gpu && docker build -f ./Dockerfile.cuda ../../.",
        "docker build -f deploy/Dockerfile .",  # no cd: from the root, right
        "cd deploy && docker compose -f compose.yaml build",  # compose: no Dockerfile -f
        "cd tools/gpu && podman build -f tools/gpu/Dockerfile.cuda ../..",  # podman looks in the context too
        "cd $ORBIT_HOME/deploy && docker build -f deploy/Dockerfile ..",  # a folder not known
        "cd ~/src/orbit/deploy && docker build -f deploy/Dockerfile ..",
        "cd /opt/orbit/deploy && docker build -f deploy/Dockerfile ..",
        "cd nowhere && docker build -f deploy/Dockerfile ..",  # a folder not found: the block is left
        "cd deploy\ncd nowhere\ndocker build -f deploy/Dockerfile ..",
        "cd deploy && docker build -f deploy/Dockerfile.$FLAVOUR ..",  # a variable
        "cd deploy && docker build -f deploy/Dockerfile.gone ..",  # not there from the context either
        "cd deploy && docker build -f deploy/Dockerfile https://example.com/orbit.git",
        # another repository's clone, whose layout is not this one's
        "git clone https://github.com/acme/kiln.git\ncd kiln/deploy\ndocker build -f deploy/Dockerfile ..",
        "git clone https://github.com/acme/kiln.git k2 && cd k2/deploy\ndocker build -f deploy/Dockerfile ..",
        # a clone's own name for a folder, then a Dockerfile not audited: maybe another repository's
        "cd orbit/tools/gpu && docker build -f tools/gpu/Dockerfile.cuda ../..",
        # an alternative on its own comment line may run anywhere
        "cd deploy\n# or, from the root: docker build -f deploy/Dockerfile .",
        "cd deploy\ndocker compose build web  # from the root: docker build -f deploy/Dockerfile ..",
    ],
)
def test_silent(tmp_path: Path, block: str) -> None:
    assert found(tmp_path, block) == []


def test_a_cd_in_another_block_is_not_followed(tmp_path: Path) -> None:
    block = "cd deploy\n```\n\nThen:\n\n```bash\ndocker build -f deploy/Dockerfile .."
    assert found(tmp_path, block) == []


def test_a_folder_named_twice_is_not_told(tmp_path: Path) -> None:
    # `cd deploy` from the README's folder (docs/) and from the root both name a folder: which is not told
    block = "cd deploy && docker build -f deploy/Dockerfile .."
    assert found(tmp_path, block, "docs/README.md", {"docs/deploy/notes.txt": ""}) == []
    assert found(tmp_path / "b", block, "docs/README.md") != []


def test_a_cd_into_a_symlink_loop_leaves_the_folder_unknown(tmp_path: Path) -> None:
    # `Path.resolve()` raised RuntimeError on the loop (Python < 3.13), which ended the audit (exit 2)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "loop").symlink_to("loop")
    assert found(tmp_path, "cd tools/loop\ndocker build -f deploy/Dockerfile ../..") == []


def test_a_cd_back_out_of_a_link_climbs_the_path_as_written(tmp_path: Path) -> None:
    # the shell's `cd lnk/..` is the folder `lnk` is in (the root), not the one above where it leads
    (tmp_path / "tools" / "gpu").mkdir(parents=True)
    (tmp_path / "lnk").symlink_to("tools/gpu")
    assert found(tmp_path, "cd lnk/..\ndocker build -f Dockerfile deploy") == [
        "7 certain README builds with -f Dockerfile from ./, where no Dockerfile exists; docker reads -f "
        "from the current folder, not from the context deploy, where the Dockerfile is (-f deploy/Dockerfile)"
    ]


# `docker build CONTEXT` with no -f in a folder the README entered that holds no Dockerfile. Modelled on two
# shapes: a Jetson build guide whose list says "go to X/build_cv where X is the image folder" then
# `docker build .`, and a command block `cd tools/gpu && docker build -t app .` where the folder holds
# only `Dockerfile.cuda`.
GUIDE = """\
# Vision build

# Build
1. go to X/build_cv where X is the image folder
2. `docker build .`
3. run it
"""


def no_dockerfile(root: Path, readme: str, files: dict[str, str] | None = None) -> list[str]:
    tree = {"deploy/Dockerfile": APP, "tools/gpu/Dockerfile.cuda": APP, "README.md": readme}
    make_tree(root, tree | (files or {}))
    model = build_model(root / "deploy/Dockerfile", "deploy/Dockerfile")
    findings = audit(readme, "README.md", model, {}, root, root)
    return [f"{d.line} {d.confidence} {d.message}" for d in findings if "holds no Dockerfile" in d.message]


def test_a_build_with_no_file_in_a_folder_that_holds_no_dockerfile(tmp_path: Path) -> None:
    block = "# Orbit\n\n```bash\ncd tools/gpu && docker build -t orbit:cuda .\n```\n"
    assert no_dockerfile(tmp_path, block) == [
        "4 certain README runs docker build . in tools/gpu/ (after its cd), but tools/gpu/ holds no "
        "Dockerfile: with no -f, docker build reads Dockerfile from the context"
    ]
    files = {"jetson/Dockerfile": APP, "jetson/build_cv/build_cv.sh": "cmake ..\n"}
    assert no_dockerfile(tmp_path / "b", GUIDE, files) == [
        "5 likely README runs docker build . in the folder line 4 enters (jetson/build_cv/), but it holds "
        "no Dockerfile: with no -f, docker build reads Dockerfile from the context"
    ]
    named = GUIDE.replace("X is the image folder", "X is jetson").replace("go to", "Go into the folder")
    assert [f[:9] for f in no_dockerfile(tmp_path / "c", named, files)] == ["5 certain"]
    plain = "# Vision\n\n1. change into `tools/gpu`\n2. `docker build -t vision .`\n"
    assert [f[:9] for f in no_dockerfile(tmp_path / "d", plain)] == ["4 certain"]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # a Dockerfile of another case: docker takes `dockerfile` too
        ("```bash\ncd tools/gpu && docker build .\n```\n", {"tools/gpu/dockerfile": APP}),
        # -f names the file
        ("```bash\ncd tools/gpu && docker build -f Dockerfile.cuda .\n```\n", {}),
        ("```bash\ncd tools/gpu && docker build -f ../../deploy/Dockerfile .\n```\n", {}),
        # podman and buildah read a Containerfile
        ("```bash\ncd tools/gpu && podman build .\n```\n", {"tools/gpu/Containerfile": APP}),
        ("```bash\ncd tools/gpu && buildah bud .\n```\n", {"tools/gpu/Containerfile": APP}),
        # the README or a script of the folder makes the Dockerfile first
        ("```bash\ncd tools/gpu\ncp Dockerfile.cuda Dockerfile\ndocker build .\n```\n", {}),
        ("```bash\ncd tools/gpu\n./render.sh\ndocker build .\n```\n", {"tools/gpu/render.sh": "echo x\n"}),
        ("```bash\ncd tools/gpu && docker build .\n```\n", {"tools/gpu/gen.py": "open('Dockerfile', 'w')\n"}),
        # a folder not found, a placeholder the README does not explain, another context
        ("```bash\ncd tools/cpu && docker build .\n```\n", {}),
        ("1. go to <folder>/build_cv\n2. `docker build .`\n", {"jetson/build_cv/a.sh": ""}),
        ("1. go to X/build_cv\n2. `docker build .`\n", {"jetson/build_cv/a.sh": ""}),
        ("```bash\ncd tools/gpu && docker build ../../deploy\n```\n", {}),
        # one of the folders the placeholder may be holds a Dockerfile
        (GUIDE, {"jetson/build_cv/a.sh": "", "jetson-py3/build_cv/Dockerfile": APP}),
    ],
)
def test_builds_that_find_their_dockerfile_or_cannot_be_told(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    assert no_dockerfile(tmp_path, readme, files) == []


# `docker build .` with no -f and no `cd`, run where the reader starts (the README's folder), which holds
# Dockerfiles of other names only. Modelled on an HPC container folder (`Dockerfile22`/`Dockerfile24`, one
# per Ubuntu release, made by a recipe tool) and on a service's docker/ folder (`cpu.Dockerfile`,
# `gpu.Dockerfile`).
def started(root: Path, block: str, files: dict[str, str]) -> list[str]:
    readme = f"# Solver image\n\n## Build\n\n```\n{block}\n```\n"
    make_tree(root, files | {"docker/README.md": readme})
    first = sorted(f for f in files if "ockerfile" in f)[0]
    model = build_model(root / first, first)
    findings = audit(readme, "docker/README.md", model, {}, root / "docker", root)
    return [f"{d.line} {d.confidence} {d.message}" for d in findings if "holds no Dockerfile" in d.message]


RELEASES = {"docker/Dockerfile22": APP, "docker/Dockerfile24": APP, "docker/expbox": "#!/bin/bash\n"}


def test_a_build_from_the_readmes_folder_that_holds_only_other_dockerfiles(tmp_path: Path) -> None:
    assert started(tmp_path / "a", "docker build --tag solver .", RELEASES) == [
        "6 certain README runs docker build . in the README's own folder docker/, but it holds no "
        "Dockerfile: with no -f, docker build reads Dockerfile from the context (the folder has "
        "Dockerfile22, Dockerfile24: name one with -f)"
    ]
    services = {"docker/cpu.Dockerfile": APP, "docker/gpu.Dockerfile": APP}
    assert [f[:9] for f in started(tmp_path / "b", "docker build -t solver:gpu ./", services)] == [
        "6 certain"
    ]
    # the README's recipe writes the Dockerfiles under their own names: no plain Dockerfile comes of it
    recipe = (
        "hpccm --recipe solver_24.py --format docker > Dockerfile24\n```\n\n```\ndocker build -t solver ."
    )
    told = started(tmp_path / "c", recipe, RELEASES | {"docker/solver_24.py": "# writes a Dockerfile\n"})
    assert [f[:10] for f in told] == ["10 certain"]


@pytest.mark.parametrize(
    ("block", "files"),
    [
        ("docker build -t solver .", RELEASES | {"docker/Dockerfile": APP}),  # the plain one is there
        ("docker build -t solver -f Dockerfile24 .", RELEASES),  # -f names one
        ("docker build -t solver ..", RELEASES | {"Dockerfile": APP}),  # another context, which has one
        ("docker build -t solver .", {"docker/compose.yaml": "services: {}\n", "Dockerfile": APP}),  # none
        ("cp Dockerfile24 Dockerfile\ndocker build -t solver .", RELEASES),  # the README makes it
        ("./render.sh > Dockerfile\ndocker build -t solver .", RELEASES),
        ("python gen.py\ndocker build -t solver .", RELEASES | {"docker/gen.py": "# writes Dockerfile\n"}),
        ("docker build -t solver $CONTEXT", RELEASES),  # a context docgen cannot follow
    ],
)
def test_builds_from_the_readmes_folder_that_find_a_dockerfile_or_cannot_be_told(
    tmp_path: Path, block: str, files: dict[str, str]
) -> None:
    assert started(tmp_path, block, files) == []


def test_a_cd_of_an_earlier_block_leaves_the_readmes_folder(tmp_path: Path) -> None:
    gpu = RELEASES | {"docker/gpu/Dockerfile": APP}
    # the reader's shell is still in gpu/ (its Dockerfile is read): no build from the README's folder
    assert started(tmp_path / "a", "cd gpu\n```\n\n```\ndocker build -t solver .", gpu) == []
    # a cd that comes after the build does not move it
    told = started(tmp_path / "b", "docker build -t solver .\n```\n\n```\ncd gpu", gpu)
    assert [f[:9] for f in told] == ["6 certain"]


def test_many_builds_read_the_readme_and_each_folder_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib

    entered_builds = importlib.import_module("docgen.audit.entered_builds")

    counts = {"read": 0, "writes": 0, "step": 0}

    class Counted:
        def __init__(self, pattern: re.Pattern[str], key: str) -> None:
            self.pattern, self.key = pattern, key

        def search(self, text: str) -> re.Match[str] | None:
            counts[self.key] += 1
            return self.pattern.search(text)

        def match(self, text: str) -> re.Match[str] | None:
            counts[self.key] += 1
            return self.pattern.match(text)

    def read(path: Path) -> str | None:
        counts["read"] += 1
        return "echo hi\n"

    monkeypatch.setattr(entered_builds, "text_or_none", read)
    monkeypatch.setattr(
        entered_builds, "WRITES_DOCKERFILE", Counted(entered_builds.WRITES_DOCKERFILE, "writes")
    )
    monkeypatch.setattr(entered_builds, "DOCKER_STEP", Counted(entered_builds.DOCKER_STEP, "step"))
    builds = 300
    block = "\n".join(["docker pull python:3.12"] + ["docker build -t solver ."] * builds)
    told = started(tmp_path, block, RELEASES | {"docker/build.sh": "echo hi\n"})
    assert len(told) == 1 and "and 289 more" in told[0]  # one finding, every build told
    assert counts["read"] == 1  # build.sh, once
    assert counts["writes"] <= builds + 20  # each line of the README once
    assert counts["step"] <= 2 * (builds + 1)  # each step once


ENGINE = (
    'FROM ubuntu:22.04\nENV PORT=5000\nCOPY entrypoint.sh /entrypoint.sh\nENTRYPOINT ["/entrypoint.sh"]\n'
)
"""Modelled on a model server's image kept in a subfolder of a larger repository, its script beside it."""


def rooted(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {"engines/llm/Dockerfile": ENGINE, "engines/llm/entrypoint.sh": "#!/bin/sh\n", **files})
    make_tree(root, {"engines/llm/README.md": readme})
    model = build_model(root / "engines/llm/Dockerfile", "engines/llm/Dockerfile")
    findings = audit(readme, "engines/llm/README.md", model, {}, root / "engines/llm", root)
    return [f"{d.line} {d.confidence} {d.message}" for d in findings if "repository's root" in d.message]


def test_a_build_said_to_run_from_the_repository_root_that_has_no_dockerfile(tmp_path: Path) -> None:
    readme = (
        "To create the docker image, run the following command from the root of the repository:\n"
        "```bash\nsudo docker build -t engine .\n```\n"
    )
    assert rooted(tmp_path, readme, {"setup.py": ""}) == [
        "3 likely README runs docker build . from the repository's root ./ (as line 1 says), but ./ holds "
        "no Dockerfile: with no -f, docker build reads Dockerfile from the context; the README's folder "
        "engines/llm/ has one: build from there"
    ]
    # a web app's page: the context is a folder of the root that holds no Dockerfile either
    web = "# Web\n\nBuild it from the repo root:\n\n```sh\ndocker build -t web frontend\n```\n"
    assert rooted(tmp_path / "b", web, {"frontend/index.html": ""}) == [
        "6 likely README runs docker build frontend from the repository's root ./ (as line 3 says), but "
        "frontend/ holds no Dockerfile: with no -f, docker build reads Dockerfile from the context"
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the root has a Dockerfile of its own
        (
            "Run this from the root of the repository:\n```bash\ndocker build -t engine .\n```\n",
            {"Dockerfile": APP},
        ),
        # the build names the subfolder's Dockerfile with -f
        (
            "From the repository root:\n```bash\n"
            "docker build -f engines/llm/Dockerfile -t engine engines/llm\n```\n",
            {},
        ),
        # the sentence says nothing of the root
        ("Run this in this folder:\n```bash\ndocker build -t engine .\n```\n", {}),
        # the root is named for another block, further up
        (
            "Clone it and go to the root of the repository.\n\nThen:\n\n"
            "```bash\ndocker build -t engine .\n```\n",
            {},
        ),
    ],
)
def test_builds_from_the_root_that_find_their_dockerfile(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    assert rooted(tmp_path, readme, files) == []


# `docker build .` with no -f and no `cd`, where neither the README's folder nor the project's top holds a
# Dockerfile, and the project's is elsewhere. Modelled on a GPU tutorial page in docs/ that pastes the
# ROCm Dockerfile (its RUN `cd`s moving no reader) and builds with no -f, and on a service README at
# the top whose only Dockerfile is in deploy/.
ROCM = "FROM rocm/dev-ubuntu-22.04:6.2\nRUN git clone https://example.org/k.git && cd k && make\n"
PASTED = "```bash\n# docker build -f docker/Dockerfile.rocm -t k-rocm .\n" + ROCM + "RUN pip list\n```\n"


def nowhere(root: Path, readme_path: str, readme: str, files: dict[str, str], built: str) -> list[str]:
    make_tree(root, files | {readme_path: readme})
    model = build_model(root / built, built)
    page = root / readme_path
    findings = audit(readme, readme_path, model, {}, page.parent, root)
    return [f"{d.line} {d.confidence} {d.message}" for d in findings if "with no -f (from" in d.message]


def test_a_build_with_no_file_where_no_folder_it_may_run_in_has_a_dockerfile(tmp_path: Path) -> None:
    page = f"# ROCm\n\n## Dockerfile\n\n{PASTED}\n## Build\n\n```bash\ndocker build -t k-rocm .\n```\n"
    rocm = {"docker/Dockerfile.rocm": ROCM}
    assert nowhere(
        tmp_path / "a", "docs/amd/rocm_build_dockerfile.md", page, rocm, "docker/Dockerfile.rocm"
    ) == [
        "15 certain README runs docker build . with no -f (from the README's folder or the project's top), "
        "but neither docs/amd/ nor ./ holds a Dockerfile: with no -f, docker build reads Dockerfile from "
        "the context; the project's is docker/Dockerfile.rocm (name it with -f)"
    ]
    service = "# svc\n\n```sh\npip install -e .\n```\n\n```sh\ndocker build -t svc:latest .\n```\n"
    told = nowhere(tmp_path / "b", "README.md", service, {"deploy/Dockerfile": APP}, "deploy/Dockerfile")
    assert told == [
        "8 certain README runs docker build . with no -f (from the README's folder or the project's top), "
        "but ./ holds no Dockerfile: with no -f, docker build reads Dockerfile from the context; the "
        "project's is deploy/Dockerfile (name it with -f)"
    ]


@pytest.mark.parametrize(
    ("block", "files"),
    [
        ("docker build -t svc .", {"Dockerfile": APP}),  # the top has one
        ("docker build -t svc .", {"dockerfile": APP}),  # BuildKit reads the lower-case name too
        ("docker build -t svc -f deploy/Dockerfile .", {}),  # -f names it
        ("docker build -t svc deploy", {}),  # the context holds it
        ("docker build -t svc ./build-ctx", {}),  # a context not there: another rule's
        ("cp deploy/Dockerfile Dockerfile\ndocker build -t svc .", {}),  # the README makes one
        ("cd deploy\ndocker build -t svc .", {}),  # a cd first: the entered folder's rule
        ("docker build -t svc $CTX", {}),  # a context docgen cannot follow
        ("make image\ndocker build -t svc .", {"Makefile": "image:\n\tcp deploy/Dockerfile Dockerfile\n"}),
    ],
)
def test_builds_with_no_file_that_find_one_or_cannot_be_told(
    tmp_path: Path, block: str, files: dict[str, str]
) -> None:
    readme = f"# svc\n\n```sh\n{block}\n```\n"
    tree = {"deploy/Dockerfile": APP} | files
    assert nowhere(tmp_path, "README.md", readme, tree, "deploy/Dockerfile") == []


@pytest.mark.parametrize(
    "prose",
    [
        "Para crear la imagen hay que ir a la carpeta ./deploy y ejecutar el comando",  # Spanish
        "Dans le dossier `deploy`, lancez :",  # French, the folder in a code span
        "Im Ordner deploy/ ausführen:",  # German, the folder with its slash
    ],
)
def test_a_build_whose_section_names_the_dockerfile_folder(tmp_path: Path, prose: str) -> None:
    # the prose before the build sends the reader to the Dockerfile's folder, in words docgen need not read
    readme = f"# svc\n\n## Build\n\n{prose}\n\n```sh\ndocker build -t svc .\n```\n"
    assert nowhere(tmp_path, "README.md", readme, {"deploy/Dockerfile": APP}, "deploy/Dockerfile") == []


@pytest.mark.parametrize(
    "readme",
    [
        # the bare word is the command, not the folder
        "# svc\n\n## Build\n\nBuild the docker image:\n\n```sh\ndocker build -t svc .\n```\n",
        # the folder is named after the build, or in another section
        "# svc\n\n## Build\n\n```sh\ndocker build -t svc .\n```\n\nThe Dockerfile is in deploy/.\n",
        "# svc\n\n## Layout\n\nSee deploy/.\n\n## Build\n\n```sh\ndocker build -t svc .\n```\n",
    ],
)
def test_a_build_whose_section_does_not_send_the_reader_there(tmp_path: Path, readme: str) -> None:
    told = nowhere(tmp_path, "README.md", readme, {"deploy/Dockerfile": APP}, "deploy/Dockerfile")
    assert [line.split(" ", 2)[1] for line in told] == ["certain"], told


def test_the_readme_is_no_dockerfile_of_another_name(tmp_path: Path) -> None:
    # a page named `…_dockerfile.md` in the context folder: no Dockerfile to name with -f
    page = "# ROCm\n\n```bash\ndocker build -t k-rocm .\n```\n"
    make_tree(tmp_path, {"docs/rocm_dockerfile.md": page, "docker/Dockerfile.rocm": ROCM})
    model = build_model(tmp_path / "docker/Dockerfile.rocm", "docker/Dockerfile.rocm")
    messages = [
        d.message for d in audit(page, "docs/rocm_dockerfile.md", model, {}, tmp_path / "docs", tmp_path)
    ]
    assert not any("rocm_dockerfile.md" in m for m in messages), messages
    assert any("the project's is docker/Dockerfile.rocm" in m for m in messages), messages


# `docker build .` with no -f, in a README's folder that holds no Dockerfile, when docgen found none to
# audit at all. Modelled on a model-server folder (`serving/v1/`: a predictor script and a manifest)
# whose image is built from a sibling folder, and on a tools page whose Dockerfile is one folder up.
SERVER = "# Server v1\n\n```sh\ndocker build -t acme/server:v1 .\n```\n"


def unaudited(root: Path, files: dict[str, str], readme: str = "serving/v1/README.md") -> list[str]:
    make_tree(root, files)
    page = root / readme
    text = page.read_text(encoding="utf-8")
    findings = audit(text, readme, [], {}, page.parent, root)
    return [f"{d.line} {d.confidence} {d.message}" for d in findings if "with no -f (from" in d.message]


def test_a_build_with_no_file_and_no_dockerfile_audited(tmp_path: Path) -> None:
    tree = {"serving/v1/README.md": SERVER, "serving/v1/predictor.py": "", ".git/HEAD": "ref: x\n"}
    assert unaudited(tmp_path / "a", tree) == [
        "4 certain README runs docker build . with no -f (from the README's folder or the project's top), "
        "but neither serving/v1/ nor ./ holds a Dockerfile: with no -f, docker build reads Dockerfile from "
        "the context and stops with none to read"
    ]
    # one folder up holds it: named; outside a git checkout the copy may lack the file (`likely`)
    up = {"serving/v1/README.md": SERVER, "serving/Dockerfile": APP}
    assert unaudited(tmp_path / "b", up) == [
        "4 likely README runs docker build . with no -f (from the README's folder or the project's top), "
        "but neither serving/v1/ nor ./ holds a Dockerfile: with no -f, docker build reads Dockerfile from "
        "the context and stops; the nearest is serving/Dockerfile (build there or name it with -f)"
    ]


@pytest.mark.parametrize(
    "files",
    [
        {"serving/v1/Dockerfile": APP},  # the README's folder has it
        {"Dockerfile": APP},  # so has the top
        {"serving/v1/build.sh": "cp ../Dockerfile.tmpl Dockerfile\n"},  # a script of the folder makes it
        {"serving/v1/README.md": SERVER.replace(" .\n", " -f ../Dockerfile .\n")},  # -f names one
        {"serving/v1/README.md": SERVER.replace("```sh\n", "```sh\ncd ../base\n")},  # a cd first
        {"serving/v1/README.md": SERVER.replace("```sh\n", "```sh\ncp ../Dockerfile.gpu Dockerfile\n")},
    ],
)
def test_builds_with_no_file_and_no_dockerfile_audited_that_may_work(
    tmp_path: Path, files: dict[str, str]
) -> None:
    tree = {"serving/v1/README.md": SERVER, ".git/HEAD": "ref: x\n", "serving/base/Dockerfile": APP}
    assert unaudited(tmp_path, tree | files) == []


# `docker build .` where the README has the reader write the Dockerfile: its text is given to paste
# into a file the reader makes. Modelled on a speech-synthesis README (`create a Dockerfile as
# following:` above a listing, the project's own image in docker/) and on a notebook tutorial (`save the
# text below as `Dockerfile``); a README that only shows its Dockerfile still builds from a folder
# without one.
LISTING = "```\nFROM python:3.12-slim\nRUN pip install jupyter\n```\n"


@pytest.mark.parametrize(
    "told",
    [
        "Pick a base image and create a Dockerfile as following:",
        "Save the text below as `Dockerfile` in an empty folder:",
        "Paste it into a file named Dockerfile:",
        "Write your own Dockerfile, for example:",
    ],
)
def test_a_build_of_a_dockerfile_the_readme_has_the_reader_write(tmp_path: Path, told: str) -> None:
    readme = f"# Speech\n\n## Setup\n\n{told}\n{LISTING}\n```\ndocker build -t speech .\n```\n"
    assert nowhere(tmp_path, "README.md", readme, {"docker/Dockerfile": APP}, "docker/Dockerfile") == []


@pytest.mark.parametrize(
    "shown",
    [
        "Our Dockerfile looks like this:",
        "The image is built from the Dockerfile below:",
        "Make sure the Dockerfile is up to date:",
    ],
)
def test_a_build_of_a_folder_without_the_dockerfile_the_readme_shows(tmp_path: Path, shown: str) -> None:
    readme = f"# Speech\n\n## Setup\n\n{shown}\n{LISTING}\n```\ndocker build -t speech .\n```\n"
    told = nowhere(tmp_path, "README.md", readme, {"docker/Dockerfile": APP}, "docker/Dockerfile")
    assert [t.split(" README")[0] for t in told] == ["12 certain"], told
