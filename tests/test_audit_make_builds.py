"""`docgen audit` (docgen/audit/make_builds.py): image builds a README runs through make, by a `make TARGET`
command of its own or a script it runs (with or without an extension, the target written out or chosen
by a variable), whose context lacks what the Dockerfile copies; and the shapes that stay silent: the
file there, a target the script cannot spell, a context the project does not hold, a recipe that enters
another folder, a file the README makes first, `make -C`."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

SIM_MAKEFILE = """\
ARGS?=

.PHONY: sim sim_gpu base
sim_gpu: sim
\tdocker build ${ARGS} -t sim_gpu sim_gpu

sim: base
\tdocker build ${ARGS} --build-arg distro=$(DISTRO) -t sim sim

base:
\tdocker build ${ARGS} -t base base
"""
"""A simulator's Makefile (the shape of one that keeps a context folder per image): the GPU image is
built on the plain one, each from its own folder."""
SIM_BUILD = """\
#!/usr/bin/env python3
import argparse
import subprocess


def has_gpu():
    return subprocess.call(["nvidia-smi"]) == 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--distro", default="noble")
    args = parser.parse_args()
    name = "sim"
    if has_gpu():
        name += "_gpu"
    subprocess.check_call("DISTRO=%s make %s" % (args.distro, name), shell=True)


main()
"""
SIM_README = """\
# Simulator images

## Build

```bash
$ ./build
```

Pass `--distro jammy` for the older release.
"""
GPU_DOCKERFILE = """\
FROM sim
COPY egl_vendor.json /usr/share/glvnd/egl_vendor.d/10_nvidia.json
ENV NVIDIA_DRIVER_CAPABILITIES=all
"""


def sim_tree(**change: str) -> dict[str, str]:
    return {
        "README.md": SIM_README,
        "Makefile": SIM_MAKEFILE,
        "build": SIM_BUILD,
        "base/Dockerfile": "FROM ubuntu:24.04\nCOPY entry.sh /entry.sh\n",
        "base/entry.sh": '#!/bin/sh\nexec "$@"\n',
        "sim/Dockerfile": "FROM base\nARG distro\nCOPY worlds /opt/worlds\n",
        "sim/worlds/empty.world": "<sdf/>\n",
        "sim_gpu/Dockerfile": GPU_DOCKERFILE,
        **change,
    }


def found(root: Path, files: dict[str, str], dockerfile: str) -> list[tuple[int, str, str]]:
    make_tree(root, files)
    model = build_model(root / dockerfile, dockerfile)
    return [
        (d.line, d.message, d.confidence)
        for d in audit(files["README.md"], "README.md", model, {}, root, root)
        if "whose recipe" in d.message
    ]


def test_a_script_with_no_extension_making_a_target_a_variable_chooses(tmp_path: Path) -> None:
    assert found(tmp_path, sim_tree(), "sim_gpu/Dockerfile") == [
        (
            6,
            "README runs ./build, which runs make %s (build:17) (here sim_gpu, a target a variable "
            "chooses), whose recipe (Makefile:5) builds sim_gpu/Dockerfile with the context sim_gpu, which "
            "does not hold egl_vendor.json (line 2) that it copies, and no folder of the project has it",
            "likely",
        )
    ]


def test_the_copied_file_there_is_silent(tmp_path: Path) -> None:
    files = sim_tree(**{"sim_gpu/egl_vendor.json": "{}\n"})
    assert found(tmp_path, files, "sim_gpu/Dockerfile") == []


def test_a_target_the_script_cannot_spell_is_not_read(tmp_path: Path) -> None:
    # (the script names only `sim`: the GPU target is another script's)
    files = sim_tree(build=SIM_BUILD.replace('        name += "_gpu"\n', "        pass\n"))
    assert found(tmp_path, files, "sim_gpu/Dockerfile") == []


def test_a_context_the_project_lacks_is_not_read(tmp_path: Path) -> None:
    files = sim_tree(**{"base/Dockerfile": "FROM ubuntu:24.04\n", "sim_gpu/egl_vendor.json": "{}\n"})
    files["sim/Dockerfile"] = "FROM base\nCOPY worlds /opt/worlds\nCOPY run.sh /run.sh\n"
    files["Makefile"] = SIM_MAKEFILE.replace("-t sim sim", "-t sim build/sim")
    assert found(tmp_path, files, "sim/Dockerfile") == []


WEB_MAKEFILE = """\
REGISTRY ?= ghcr.io/example
VERSION := 2.3.0

.PHONY: image-api image-worker push

image-api:
\tdocker build -f docker/api.Dockerfile -t $(REGISTRY)/api:$(VERSION) .

image-worker:
\tcd worker && docker build -t $(REGISTRY)/worker:$(VERSION) .

push: image-api
\tdocker push $(REGISTRY)/api:$(VERSION)
"""
"""A web service's Makefile (the shape of one that builds every image from the repository's root)."""
API_DOCKERFILE = """\
FROM python:3.12-slim
WORKDIR /srv
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY gunicorn.conf.py /srv/
COPY api ./api
CMD ["gunicorn", "-c", "gunicorn.conf.py", "api.app:app"]
"""
WEB_README = """\
# Example API

Build the images:

```sh
make image-api
make image-worker
```

Or with the helper, which picks the flavour:

```sh
./scripts/images.sh worker
```
"""
IMAGES_SH = """\
#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-api}" in
  api|worker) TARGET="$1" ;;
  *) echo "unknown image" >&2; exit 1 ;;
esac
make "image-${TARGET}"
"""


def web_tree(**change: str) -> dict[str, str]:
    return {
        "README.md": WEB_README,
        "Makefile": WEB_MAKEFILE,
        "docker/api.Dockerfile": API_DOCKERFILE,
        "requirements.txt": "gunicorn==22.0.0\n",
        "api/app.py": "app = None\n",
        "worker/Dockerfile": "FROM python:3.12-slim\nCOPY tasks.py /tasks.py\n",
        "scripts/images.sh": IMAGES_SH,
        **change,
    }


def test_a_readme_make_command_whose_build_lacks_a_file(tmp_path: Path) -> None:
    said = (
        "README runs make image-api, whose recipe (Makefile:7) builds docker/api.Dockerfile with the "
        "context ., which does not hold gunicorn.conf.py (line 5) that it copies, and no folder of the "
        "project has it"
    )
    assert found(tmp_path, web_tree(), "docker/api.Dockerfile") == [(6, said, "certain")]


def test_a_shell_script_making_a_target_of_a_case_arm(tmp_path: Path) -> None:
    files = web_tree(**{"gunicorn.conf.py": "workers = 2\n"})
    files["README.md"] = WEB_README.replace("make image-api\nmake image-worker\n", "make push\n")
    # (`make push` builds image-api, which holds all; the script's api build is the same, told once)
    assert found(tmp_path, files, "docker/api.Dockerfile") == []
    files["docker/api.Dockerfile"] = API_DOCKERFILE.replace("COPY api ./api", "COPY api ./api\nCOPY v.txt .")
    assert found(tmp_path, files, "docker/api.Dockerfile") == [
        (
            6,
            "README runs make push, whose recipe (Makefile:7) builds docker/api.Dockerfile with the context "
            "., which does not hold v.txt (line 7) that it copies, and no folder of the project has it",
            "certain",
        )
    ]
    files["README.md"] = WEB_README.replace("make image-api\nmake image-worker\n", "docker compose up\n")
    told = found(tmp_path, files, "docker/api.Dockerfile")
    assert [(line, confidence) for line, _, confidence in told] == [(12, "likely")]


def test_a_recipe_entering_a_folder_is_not_read(tmp_path: Path) -> None:
    # (worker/ lacks tasks.py, but the recipe builds after a `cd`: not followed)
    files = web_tree(**{"gunicorn.conf.py": "workers = 2\n"})
    assert found(tmp_path, files, "docker/api.Dockerfile") == []


def test_a_file_the_readme_makes_first_is_silent(tmp_path: Path) -> None:
    files = web_tree()
    files["README.md"] = WEB_README.replace(
        "```sh\nmake image-api", "```sh\ncp gunicorn.conf.py.example gunicorn.conf.py\nmake image-api"
    )
    assert found(tmp_path, files, "docker/api.Dockerfile") == []


def test_make_reading_another_folder_is_not_read(tmp_path: Path) -> None:
    files = web_tree()
    files["README.md"] = WEB_README.replace("make image-api\nmake image-worker\n", "make -C . image-api\n")
    files["scripts/images.sh"] = IMAGES_SH.replace('make "image-${TARGET}"', 'make -C . "image-${TARGET}"')
    assert found(tmp_path, files, "docker/api.Dockerfile") == []
