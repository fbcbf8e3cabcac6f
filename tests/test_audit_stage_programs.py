"""`docgen audit`: a `docker run` of the README's image running an interpreter (`python3 -m …`, `node`)
that the image's last stage does not hold (docgen/audit/stage_programs.py).

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

BASE = """\
FROM debian:bookworm AS runtime
RUN apt-get update && apt-get install -y --no-install-recommends ocl-icd-libopencl1 clinfo
CMD ["clinfo"]

FROM debian:bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends build-essential cmake python3
COPY src /src
RUN cmake -S /src -B /b && cmake --build /b && cmake --install /b --prefix /dist

FROM runtime
COPY --from=build /dist/bin/ /dist/lib/ /srv/engine/
WORKDIR /srv/engine
"""
"""A base image whose Python is in the discarded build stage: only binaries reach the last stage."""
MODEL = """\
FROM scratch AS weights
COPY weights/ /

FROM acme/engine-board:base
COPY --from=weights / /srv/engine/weights/
COPY engine/start.sh /start.sh
ENTRYPOINT ["/start.sh"]
"""
START = '#!/bin/sh\ncmd=$@\nif [ "$cmd" = "" ]; then\n  cmd="./engine-cli"\nfi\nexec "${cmd}"\n'
README = """\
# engine-board

```bash
docker run --rm -it acme/engine-board:tiny-model

docker run --rm -it -p 8000:8000 acme/engine-board:tiny-model \\
    python3 -m engine.server --port 8000
```
"""
WANTED = (
    "7: README runs `python3 -m engine.server` in acme/engine-board:tiny-model, but the stages of that "
    "image (engine/Dockerfile:4 FROM acme/engine-board:base → engine/Dockerfile-base:10 FROM runtime → "
    "engine/Dockerfile-base:1 FROM debian:bookworm) install no Python and debian:bookworm ships none: "
    "python3 is not found in the container (likely)"
)


def run(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {"README.md": readme, **files})
    models = [build_model(root / path, path) for path in files if "Dockerfile" in path]
    found = audit(readme, "README.md", models, {}, root)
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in found
        if "is not found in the container" in d.message
    ]


def pair(base: str = BASE, model: str = MODEL, start: str = START) -> dict[str, str]:
    return {
        "engine/Dockerfile": model,
        "engine/Dockerfile-base": base,
        "engine/start.sh": start,
    }


def test_a_program_only_a_discarded_build_stage_installs(tmp_path: Path) -> None:
    assert run(tmp_path, README, pair()) == [WANTED]


def test_a_plain_image_with_no_entrypoint_runs_the_program(tmp_path: Path) -> None:
    readme = "# server\n\n```bash\ndocker build -t acme/server .\ndocker run acme/server node app.js\n```\n"
    dockerfile = "FROM ubuntu:24.04\nRUN apt-get update && apt-get install -y curl\nCOPY app.js /app.js\n"
    assert run(tmp_path, readme, {"Dockerfile": dockerfile, "app.js": "1\n"}) == [
        "5: README runs `node app.js` in acme/server, but the stages of that image (Dockerfile:1 FROM "
        "ubuntu:24.04) install no Node.js and ubuntu:24.04 ships none: node is not found in the container "
        "(likely)"
    ]


@pytest.mark.parametrize(
    "change",
    [
        # the last stage installs Python, or copies a tree that may hold it
        ("ocl-icd-libopencl1 clinfo", "ocl-icd-libopencl1 clinfo python3"),
        ("/dist/bin/ /dist/lib/", "/usr/local/ /dist/bin/"),
        (
            "COPY --from=build /dist/bin/",
            "COPY --from=build /opt/venv /opt/venv\nCOPY --from=build /dist/bin/",
        ),
        # a package that pulls Python in, a script or a download docgen cannot read
        ("ocl-icd-libopencl1 clinfo", "ocl-icd-libopencl1 clinfo software-properties-common"),
        ('CMD ["clinfo"]', "COPY setup.sh /setup.sh\nRUN bash /setup.sh"),
        ('CMD ["clinfo"]', "RUN curl -fsSL https://example.org/get.sh | sh"),
        # a base that ships Python, or one docgen does not know
        ("FROM debian:bookworm AS runtime", "FROM python:3.12-slim AS runtime"),
        ("FROM debian:bookworm AS runtime", "FROM nvidia/cuda:12.4.1-runtime-ubi9 AS runtime"),
        ("FROM debian:bookworm AS runtime", "FROM acme/runtime:1.0 AS runtime"),
        ("FROM debian:bookworm AS runtime", "FROM gcr.io/distroless/python3-debian12 AS runtime"),
        # a CUDA base whose last stage installs Python itself
        (
            "FROM debian:bookworm AS runtime\nRUN apt-get update && apt-get install -y "
            "--no-install-recommends ocl",
            "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04 AS runtime\n"
            "RUN apt-get update && apt-get install -y python3.10 ocl",
        ),
        (
            "FROM debian:bookworm AS runtime",
            "ARG RUNTIME_IMAGE=debian:bookworm\nFROM ${RUNTIME_IMAGE} AS runtime",
        ),
    ],
)
def test_a_last_stage_that_may_hold_python(tmp_path: Path, change: tuple[str, str]) -> None:
    assert run(tmp_path, README, pair(base=BASE.replace(*change))) == []


@pytest.mark.parametrize(
    "change",
    [
        # the entrypoint drops its arguments or runs its own program with them
        ('exec "${cmd}"', 'exec ./engine-cli "$cmd"'),
        # no ENTRYPOINT of a readable script
        ('ENTRYPOINT ["/start.sh"]', 'ENTRYPOINT ["/srv/engine/engine-cli"]'),
        ('ENTRYPOINT ["/start.sh"]', "ENTRYPOINT /start.sh"),
        # a base the README does not build and no sibling file's name says it builds
        ("FROM acme/engine-board:base", "FROM other/engine:base"),
        ("FROM acme/engine-board:base", "FROM acme/engine-board:runtime"),
    ],
)
def test_an_image_whose_command_is_not_run_or_not_known(tmp_path: Path, change: tuple[str, str]) -> None:
    files = pair(model=MODEL.replace(*change), start=START.replace(*change))
    assert run(tmp_path, README, files) == []


@pytest.mark.parametrize(
    "readme",
    [
        # --entrypoint, a path to a program, a shell opened first (python typed inside it is not read)
        README.replace("--rm -it -p", "--rm -it --entrypoint /srv/engine/serve -p"),
        README.replace("python3 -m", "/opt/py/bin/python3 -m"),
        README.replace("python3 -m engine.server --port 8000", "bash"),
        # a shell string that installs Python first
        README.replace(
            "python3 -m engine.server --port 8000", "sh -c 'apt-get install -y python3 && python3 -m x'"
        ),
        # a run of another image, a title naming another image
        README.replace("acme/engine-board:tiny-model \\", "acme/other:tiny-model \\"),
        README.replace("# engine-board", "# Board tools"),
    ],
)
def test_runs_not_read(tmp_path: Path, readme: str) -> None:
    files = pair()
    if "Board tools" in readme:
        files = {k.replace("engine/", "tools/"): v for k, v in files.items()}
        files["tools/Dockerfile"] = MODEL.replace("engine/start.sh", "tools/start.sh")
    assert run(tmp_path, readme, files) == []


def test_a_distroless_static_image_holds_no_python(tmp_path: Path) -> None:
    readme = "# tool\n\n```bash\ndocker build -t acme/tool .\ndocker run acme/tool python3 check.py\n```\n"
    dockerfile = "FROM golang:1.22 AS build\nCOPY . /s\nRUN go build -o /tool /s\n\n"
    dockerfile += "FROM gcr.io/distroless/static-debian12\nCOPY --from=build /tool /tool\n"
    found = run(tmp_path, readme, {"Dockerfile": dockerfile, "main.go": "package main\n"})
    assert len(found) == 1 and "ships none: python3 is not found" in found[0]


def test_a_shell_string_running_the_program(tmp_path: Path) -> None:
    readme = README.replace("python3 -m engine.server --port 8000", "sh -c 'python3 -m engine.server'")
    found = run(tmp_path, readme, pair())
    assert len(found) == 1 and found[0].startswith("7: README runs `python3 -m engine.server` in")


def test_stages_copying_out_of_each_other_are_each_read_once(tmp_path: Path) -> None:
    stages = ["FROM debian:bookworm AS s0\n"]
    for n in range(1, 60):
        earlier = max(n - 2, 0)
        stages.append(f"FROM scratch AS s{n}\nCOPY --from=s{n - 1} / /a/\nCOPY --from=s{earlier} / /b/\n")
    dockerfile = "".join(stages) + "FROM debian:bookworm\nCOPY --from=s59 / /srv/\n"
    readme = "# tool\n\n```bash\ndocker build -t acme/tool .\ndocker run acme/tool python3 check.py\n```\n"
    found = run(tmp_path, readme, {"Dockerfile": dockerfile})
    assert len(found) == 1 and "ships none: python3 is not found" in found[0]


@pytest.mark.parametrize(
    "run",
    [
        "RUN apt-get update && apt-get install -y $(cat /tmp/packages.txt)",
        "RUN xargs apt-get install -y < /tmp/packages.txt",
    ],
)
def test_packages_read_from_a_file(tmp_path: Path, run: str) -> None:
    base = BASE.replace('CMD ["clinfo"]', f"COPY packages.txt /tmp/\n{run}")
    assert run_(tmp_path, base) == []


def run_(root: Path, base: str) -> list[str]:
    return run(root, README, {**pair(base=base), "engine/packages.txt": "python3\n"})


CUDA_PY3 = """\
ARG CUDA_TAG=11.8.0-cudnn8-devel-ubuntu22.04
FROM nvidia/cuda:${CUDA_TAG}
ARG PY_VERSION='3.10'
ARG PACKAGES="python${PY_VERSION} python3-pip"
RUN apt-get update && apt-get install -y --no-install-recommends ${PACKAGES} \\
    && python3 -m pip install --no-cache-dir numpy
"""
"""Python 3 as Ubuntu's packages only: `python3` and `python3.10`, no `python`."""


def bare(root: Path, readme: str, dockerfile: str) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile})
    found = audit(readme, "README.md", [build_model(root / "Dockerfile", "Dockerfile")], {}, root)
    return [f"{d.line}: {d.confidence}" for d in found if "python is not found" in d.message]


def test_python_run_where_the_image_gives_only_python3(tmp_path: Path) -> None:
    readme = (
        "# acme/py-cuda\n\n```sh\ndocker run --rm --gpus all acme/py-cuda:1.1 python -c 'print(1)'\n```\n"
    )
    assert bare(tmp_path, readme, CUDA_PY3) == ["4: likely"]
    built = "# CUDA Python\n\n```sh\ndocker build -t pycuda .\ndocker run --rm pycuda python train.py\n```\n"
    assert bare(tmp_path, built, CUDA_PY3) == ["5: likely"]


@pytest.mark.parametrize(
    "extra",
    [
        "RUN apt-get update && apt-get install -y python-is-python3\n",  # Ubuntu's `python` link
        "RUN update-alternatives --install /usr/bin/python python /usr/bin/python3 1\n",
        "RUN ln -s /usr/bin/python3 /usr/bin/python\n",
        "RUN python3 -m venv /opt/venv\nENV PATH=/opt/venv/bin:$PATH\n",  # a venv gives `python`
        "RUN apt-get install -y python-minimal\n",  # Python 2 is `python`
        "COPY --from=ghcr.io/astral-sh/uv:latest /uv /bin/uv\n",
        "RUN ./install.sh\n",  # a script docgen does not read
    ],
)
def test_python_run_where_the_image_may_give_python(tmp_path: Path, extra: str) -> None:
    readme = "# acme/py-cuda\n\n```sh\ndocker run --rm acme/py-cuda:1.1 python -c 'print(1)'\n```\n"
    assert bare(tmp_path, readme, CUDA_PY3 + extra) == []


def test_python3_run_and_a_base_with_python_say_nothing(tmp_path: Path) -> None:
    readme = "# acme/py-cuda\n\n```sh\ndocker run --rm acme/py-cuda:1.1 python3 -c 'print(1)'\n```\n"
    assert bare(tmp_path, readme, CUDA_PY3) == []
    other = "# acme/py-cuda\n\n```sh\ndocker run --rm acme/py-cuda:1.1 python -c 'print(1)'\n```\n"
    pytorch = CUDA_PY3.replace("nvidia/cuda:${CUDA_TAG}", "pytorch/pytorch:2.1.2-cuda11.8-cudnn8-devel")
    assert bare(tmp_path, other, pytorch) == []


SHELL_PY3 = """\
FROM nvidia/cuda:12.2.2-cudnn8-runtime-ubuntu22.04
ENV PYTHONUNBUFFERED=1
RUN apt-get update && apt-get install -y python3.11 python3-pip cmake \\
    && ln -sf /usr/bin/python3.11 /usr/bin/python3 \\
    && make -j$(nproc) || true
ENV PYTHONPATH=/opt/lib:${PYTHONPATH}
COPY tools/ /opt/tools/
CMD ["/bin/bash"]
"""
"""An image that links `python3` to the release it installs and starts a shell: no `python` command."""


def test_python_typed_into_the_shell_of_an_interactive_run(tmp_path: Path) -> None:
    readme = (
        "# whisper-box-docker\n\n```bash\ndocker run --gpus all -it \\\n  -v /data:/data \\\n"
        "  registry.example.com/team/whisper-box:latest\n\n# inside the container\n"
        "python /opt/tools/fetch.py\n\nMODEL=small python /opt/tools/transcribe.py\n```\n"
    )
    assert bare(tmp_path, readme, SHELL_PY3) == ["9: likely"]
    chinese = (
        "# 语音识别\n\n```sh\ndocker build -t asr-gpu .\ndocker run -it --rm asr-gpu bash\n"
        "# 容器中运行\npython /opt/tools/fetch.py\n```\n"
    )
    assert bare(tmp_path, chinese, SHELL_PY3) == ["7: likely"]


@pytest.mark.parametrize(
    "readme",
    [
        # no words saying the lines run in the container: they may be the host's
        "# whisper-box\n\n```bash\ndocker run -it whisper-box:latest\npython /opt/tools/fetch.py\n```\n",
        # detached: the lines after it are typed on the host
        "# whisper-box\n\n```bash\ndocker run -d -it whisper-box:latest\n# inside the container\n"
        "python /opt/tools/fetch.py\n```\n",
        # python3 is there
        "# whisper-box\n\n```bash\ndocker run -it whisper-box:latest\n# inside the container\n"
        "python3 /opt/tools/fetch.py\n```\n",
        # a docker exec comes first: the line after the comment is after it
        "# whisper-box\n\n```bash\ndocker run -it whisper-box:latest\nexit\n# inside the container\n"
        "python /opt/tools/fetch.py\n```\n",
    ],
)
def test_lines_after_a_run_that_are_not_typed_into_its_shell(tmp_path: Path, readme: str) -> None:
    assert bare(tmp_path, readme, SHELL_PY3) == []


@pytest.mark.parametrize(
    "change",
    [
        ('CMD ["/bin/bash"]', 'CMD ["python3", "serve.py"]'),  # the run starts no shell
        ("/usr/bin/python3 \\", "/usr/bin/python \\"),  # a `python` link
        ("python3.11 python3-pip", "python3.11 python3-pip python-is-python3"),
    ],
)
def test_shell_lines_where_the_image_starts_no_shell_or_has_python(
    tmp_path: Path, change: tuple[str, str]
) -> None:
    readme = (
        "# whisper-box\n\n```bash\ndocker run -it whisper-box:latest\n# inside the container\n"
        "python /opt/tools/fetch.py\n```\n"
    )
    dockerfile = SHELL_PY3.replace(*change)
    assert dockerfile != SHELL_PY3
    assert bare(tmp_path, readme, dockerfile) == []


GL_BOX = """\
FROM nvidia/cudagl:11.4.2-devel-ubuntu20.04
RUN apt-get update && apt-get install -y x11-apps mesa-utils python3 python3-pip
RUN pip3 install pointkit
"""
DEV_CONFIG = '{\n  "name": "gl box",\n  "context": "..",\n  "dockerFile": "../Dockerfile"\n}\n'
DEV_README = """\
# Point clouds in a dev container

Open the folder in VS Code and run `Dev Containers: Reopen in Container`: it builds the image.

## Try it
From the terminal: `python demo.py`. The first import is slow (`python -c "import pointkit"` shows why).
"""


def _dev(root: Path, readme: str, dockerfile: str, config: str = DEV_CONFIG) -> list[str]:
    make_tree(
        root, {"Dockerfile": dockerfile, "README.md": readme, ".devcontainer/devcontainer.json": config}
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", model, {}, root)]


def test_python_typed_in_a_dev_container_that_has_only_python3(tmp_path: Path) -> None:
    assert _dev(tmp_path, DEV_README, GL_BOX) == [
        "6: README runs `python demo.py` in the dev container, which builds Dockerfile, but it installs "
        "Python 3 only as distribution packages on nvidia/cudagl:11.4.2-devel-ubuntu20.04 (Dockerfile:1), "
        "which give `python3` and no `python` command (no python-is-python3, alternatives link, conda or "
        "venv): python is not found (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile", "config"),
    [
        (
            DEV_README,
            GL_BOX.replace("python3 python3-pip", "python3 python3-pip python-is-python3"),
            DEV_CONFIG,
        ),
        (
            DEV_README.replace("`python demo.py`", "`python3 demo.py`").replace("`python -c", "`python3 -c"),
            GL_BOX,
            DEV_CONFIG,
        ),
        (DEV_README.replace("Reopen in Container", "Rebuild"), GL_BOX, DEV_CONFIG),  # no container entered
        (DEV_README, GL_BOX, DEV_CONFIG.replace("../Dockerfile", "../Dockerfile.dev")),  # another image
        (DEV_README.replace("From the terminal", "On your host machine"), GL_BOX, DEV_CONFIG),
    ],
)
def test_python_the_dev_container_has_or_that_runs_elsewhere(
    tmp_path: Path, readme: str, dockerfile: str, config: str
) -> None:
    assert [f for f in _dev(tmp_path, readme, dockerfile, config) if "dev container" in f] == []
