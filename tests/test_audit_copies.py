"""`docgen.audit.copies`: a Dockerfile pasted into the README as an audited file's content (named above the
block or in its first comment, most of its ENV/ARG names declared by the file) is compared with the file:
its FROM, ENV values and ARG defaults. A block the reader is to write (`your`, `extend`), one naming no
file, or one about other settings is not a copy."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import findings, make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

JETSON = """\
# docker/Dockerfile.jetson
ARG MODEL=tiny
FROM dustynv/l4t-pytorch:r36.4.0
ENV PORT=4123
ENV DEVICE=cuda
ENV WARMUP_RUNS=2
RUN pip install -r requirements.txt
"""

STALE = """\
# Jetson

Create `docker/Dockerfile.jetson` and paste the following content:

```dockerfile
ARG MODEL=base
FROM nvcr.io/nvidia/l4t-pytorch:r36.2.0-pth2.1-py3
ENV PORT=4123
ENV DEVICE=cuda WARMUP_RUNS=3
RUN pip install -r requirements.txt
```
"""


def test_a_stale_copy_of_a_named_dockerfile() -> None:
    assert findings(STALE, {"docker/Dockerfile.jetson": JETSON}) == [
        "6: README's copy of docker/Dockerfile.jetson says ARG MODEL=base but docker/Dockerfile.jetson:2 "
        "says MODEL=tiny",
        "7: README's copy of docker/Dockerfile.jetson says FROM nvcr.io/nvidia/l4t-pytorch:r36.2.0-pth2.1-"
        "py3 but docker/Dockerfile.jetson:3 says FROM dustynv/l4t-pytorch:r36.4.0",
        "9: README's copy of docker/Dockerfile.jetson sets ENV WARMUP_RUNS=3 but docker/Dockerfile.jetson:6 "
        "sets WARMUP_RUNS=2",
    ]


def test_a_copy_named_in_its_first_comment() -> None:
    readme = """\
Paste this:

```Dockerfile
# Dockerfile.jetson - for the Orin
FROM dustynv/l4t-pytorch:r36.4.0
ENV PORT=8000
ENV DEVICE=cuda
```
"""
    assert findings(readme, {"docker/Dockerfile.jetson": JETSON}) == [
        "6: README's copy of docker/Dockerfile.jetson sets ENV PORT=8000 but docker/Dockerfile.jetson:4 "
        "sets PORT=4123",
    ]


def test_blocks_that_are_not_a_copy() -> None:
    current = STALE.replace("MODEL=base", "MODEL=tiny").replace(
        "nvcr.io/nvidia/l4t-pytorch:r36.2.0-pth2.1-py3", "dustynv/l4t-pytorch:r36.4.0"
    )
    readmes = [
        current.replace("WARMUP_RUNS=3", "WARMUP_RUNS=2"),  # up to date
        # a Dockerfile the reader writes on top of the image
        STALE.replace(
            "Create `docker/Dockerfile.jetson` and paste", "Extend docker/Dockerfile.jetson in your own"
        ),
        STALE.replace("`docker/Dockerfile.jetson`", "a Dockerfile"),  # names no file
        # about other settings: only one of its names is the file's
        STALE.replace("ENV PORT=4123\nENV DEVICE=cuda WARMUP_RUNS=3", "ENV PORT=1\nENV HOST=x\nENV TOKEN=y"),
    ]
    for readme in readmes:
        assert findings(readme, {"docker/Dockerfile.jetson": JETSON}) == [], readme


def test_a_bare_dockerfile_is_named_only_in_code() -> None:
    plain = JETSON.replace("# docker/Dockerfile.jetson\n", "")
    assert findings(STALE.replace("`docker/Dockerfile.jetson`", "a Dockerfile"), {"Dockerfile": plain}) == []
    named = STALE.replace("`docker/Dockerfile.jetson`", "a `Dockerfile`")
    assert len(findings(named, {"Dockerfile": plain})) == 3
    assert len(findings(named, {"Dockerfile": plain, "gpu/Dockerfile": plain})) == 0  # which one?


def test_a_copy_from_the_same_base_repository() -> None:
    # No ENV or ARG in common to tell a copy by: its FROM names the file's base repository.
    dockerfile = 'FROM nvidia/cuda:12.0.1-cudnn8-runtime-ubuntu22.04\nRUN apt-get update\nCMD ["app"]\n'
    readme = """\
### 2. Create the `Dockerfile`

```Dockerfile
FROM nvidia/cuda:12.0.1-cudnn8-runtime-ubuntu20.04
ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update
CMD ["app"]
```
"""
    assert findings(readme, {"Dockerfile": dockerfile}) == [
        "4: README's copy of Dockerfile says FROM nvidia/cuda:12.0.1-cudnn8-runtime-ubuntu20.04 but "
        "Dockerfile:1 says FROM nvidia/cuda:12.0.1-cudnn8-runtime-ubuntu22.04"
    ]
    for trap in (
        readme.replace("Create the", "To use CUDA 11, change the"),  # a change the reader makes
        readme.replace("nvidia/cuda:12.0.1-cudnn8-runtime-ubuntu20.04", "python:3.12-slim"),  # another base
        readme.replace("ENV DEBIAN_FRONTEND=noninteractive\nRUN apt-get update\n", ""),  # too little to tell
    ):
        assert findings(trap, {"Dockerfile": dockerfile}) == [], trap


FAMILY = {
    "Dockerfile.lab": "FROM pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime\nRUN pip install jupyterlab\n",
    "Dockerfile.asr": "FROM pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime\nRUN pip install whisper\n",
    "Dockerfile.ui": "FROM pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime\nRUN pip install comfy\n",
}
EVERY = """\
## Base image

All custom Dockerfiles use the **universal base image**:

```dockerfile
FROM pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime
```
"""


def test_a_base_said_of_every_dockerfile() -> None:
    assert findings(EVERY, FAMILY) == [
        "6: README says every Dockerfile starts FROM pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime, but "
        "Dockerfile.ui:1 starts FROM pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime"
    ]
    same = {**FAMILY, "Dockerfile.ui": FAMILY["Dockerfile.lab"]}
    assert findings(EVERY, same) == []  # every one does
    for trap in (
        EVERY.replace("All custom Dockerfiles use", "Start your own Dockerfile from"),  # the reader's
        EVERY.replace("All custom Dockerfiles use", "The lab image uses"),  # one image
    ):
        assert findings(trap, FAMILY) == [], trap
    # none starts from it: not about these Dockerfiles
    other = EVERY.replace("2.7.1-cuda12.8", "2.5.0-cuda12.4")
    assert findings(other, FAMILY) == []


# A copy in a block of any language (or none), tied to its file by the instructions they share.

RECIPE = """\
FROM rockylinux:9.3
ARG ENGINE_VERSION="2.8.1"
ARG WORKERS=4
WORKDIR /opt/engine
RUN dnf install -y python3.11 && dnf clean all
RUN python3.11 -m pip install "engine==${ENGINE_VERSION}"
ENV ENGINE_WORKERS=${WORKERS}
CMD ["python3.11", "-m", "engine"]
"""

PASTED = """\
# Engine server

The image is made by [the recipe](images/engine.Dockerfile) and published on every tag.

It serves on port 9000.

For reference, the whole recipe as of today:

```{lang}
FROM rockylinux:9.3
ARG ENGINE_VERSION="2.7.0"
ARG WORKERS=4
WORKDIR /opt/engine
RUN dnf install -y python3.11 && dnf clean all
RUN python3.11 -m pip install "engine==${{ENGINE_VERSION}}"
ENV ENGINE_WORKERS=${{WORKERS}}
CMD ["python3.11", "-m", "engine"]
```
"""


def _copies(root: Path, readme: str, files: dict[str, str], audited: list[str]) -> list[str]:
    make_tree(root, {"README.md": readme, **files})
    models = [build_model(root / path, path) for path in audited]
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", models, {}, root)]


@pytest.mark.parametrize("lang", ["", "text", "bash", "dockerfile"])
def test_a_copy_in_a_block_of_any_language_named_far_above(tmp_path: Path, lang: str) -> None:
    files = {"images/engine.Dockerfile": RECIPE}
    assert _copies(tmp_path, PASTED.format(lang=lang), files, ["images/engine.Dockerfile"]) == [
        "11: README's copy of images/engine.Dockerfile says ARG ENGINE_VERSION=2.7.0 but "
        "images/engine.Dockerfile:2 says ENGINE_VERSION=2.8.1 (certain)"
    ]


def test_a_copy_is_tied_to_the_audited_file_it_shares_most_lines_with(tmp_path: Path) -> None:
    other = 'FROM rockylinux:9.3\nARG ENGINE_VERSION=1.0\nRUN dnf install -y nodejs\nCMD ["node"]\n'
    files = {"images/engine.Dockerfile": RECIPE, "images/web.Dockerfile": other}
    audited = ["images/web.Dockerfile", "images/engine.Dockerfile"]
    assert _copies(tmp_path, PASTED.format(lang=""), files, audited) == [
        "11: README's copy of images/engine.Dockerfile says ARG ENGINE_VERSION=2.7.0 but "
        "images/engine.Dockerfile:2 says ENGINE_VERSION=2.8.1 (certain)"
    ]


def test_blocks_of_any_language_that_are_no_copy(tmp_path: Path) -> None:
    files = {"images/engine.Dockerfile": RECIPE}
    audited = ["images/engine.Dockerfile"]
    readme = PASTED.format(lang="")
    traps = [
        # the reader writes it
        readme.replace("For reference, the whole recipe as of today:", "Add this to your Dockerfile:"),
        # built on the project's own image, then the reader's lines
        readme.replace("FROM rockylinux:9.3", "FROM acme/engine:2.7.0"),
        # up to date
        readme.replace('"2.7.0"', '"2.8.1"'),
        # a shell session, not a Dockerfile
        readme.replace("WORKDIR /opt/engine\nRUN ", "cd /opt/engine\n").replace(
            "RUN python3.11", "python3.11"
        ),
    ]
    for trap in traps:
        assert _copies(tmp_path, trap, files, audited) == [], trap
    # another Dockerfile of the repository, not audited, is the one pasted: it shares more lines
    older = RECIPE.replace('"2.8.1"', '"2.7.0"')
    files["images/engine-legacy.Dockerfile"] = older
    assert _copies(tmp_path, readme, files, audited) == []


# --------------------------------------------------------------------------------------------------
# The distribution packages of a pasted copy

LEVEL_ZERO = """\
FROM ubuntu:24.04
ENV DEBIAN_FRONTEND=noninteractive \\
    SYSMAN=0
RUN apt-get update && apt-get install -y --no-install-recommends \\
    ca-certificates curl python3 python3-pip \\
    && rm -rf /var/lib/apt/lists/*
ARG LOADER_VERSION=1.34.0
RUN cd /tmp && \\
    curl -fsSL -O "https://example.org/loader/v${LOADER_VERSION}/libloader1_${LOADER_VERSION}_amd64.deb" && \\
    apt-get install -y ./*.deb && rm -f ./*.deb
COPY entry.sh /entry.sh
RUN chmod +x /entry.sh
ENTRYPOINT ["/entry.sh"]
"""

PASTED_APT = """\
# GPU sandbox

### Working Dockerfile (`Dockerfile.gpu`)
Create `Dockerfile.gpu`:

```dockerfile
FROM ubuntu:24.04
ENV DEBIAN_FRONTEND=noninteractive
ENV SYSMAN=0
RUN apt-get update && apt-get install -y --no-install-recommends \\
    ca-certificates \\
    curl \\
    python3 \\
    python3-pip \\
    libloader1 \\
    clinfo \\
    && rm -rf /var/lib/apt/lists/*
COPY entry.sh /entry.sh
ENTRYPOINT ["/entry.sh"]
```
"""


def test_a_copy_installing_distribution_packages_the_file_no_longer_installs(tmp_path: Path) -> None:
    files = {"Dockerfile.gpu": LEVEL_ZERO}
    assert _copies(tmp_path, PASTED_APT, files, ["Dockerfile.gpu"]) == [
        "15: README's copy of Dockerfile.gpu apt-installs libloader1, clinfo, which Dockerfile.gpu does not "
        "install from the distribution's packages (it installs libloader1 from a download instead, line 9) "
        "(certain)"
    ]


def test_copies_whose_packages_the_file_may_still_install(tmp_path: Path) -> None:
    audited = ["Dockerfile.gpu"]
    traps = {
        # up to date: the file installs them by name too
        "same": LEVEL_ZERO.replace("python3 python3-pip", "python3 python3-pip libloader1 clinfo"),
        # a script of the build context may install them
        "script": LEVEL_ZERO.replace("RUN chmod +x /entry.sh", "COPY deps.sh /tmp/\nRUN bash /tmp/deps.sh"),
        # a list fed to apt-get docgen does not read
        "list": LEVEL_ZERO.replace("RUN chmod +x", "RUN xargs -a /pkgs apt-get install -y\nRUN chmod +x"),
        "variable": LEVEL_ZERO.replace("python3-pip", "python3-pip ${EXTRA_PACKAGES}"),
        # in a branch a build arg may take
        "branch": LEVEL_ZERO.replace(
            "RUN chmod +x",
            'ARG TOOLS=no\nRUN if [ "$TOOLS" = yes ]; then apt-get install -y clinfo libloader1; fi\n'
            "RUN chmod +x",
        ),
        # no apt package by name at all: another package manager
        "none": "FROM ubuntu:24.04\nENV DEBIAN_FRONTEND=noninteractive SYSMAN=0\nRUN pip install torch\n",
    }
    for name, dockerfile in traps.items():
        assert _copies(tmp_path, PASTED_APT, {"Dockerfile.gpu": dockerfile}, audited) == [], name
    # a Dockerfile the reader writes is no copy
    readme = PASTED_APT.replace("Create `Dockerfile.gpu`:", "Write your own Dockerfile.gpu, for example:")
    assert _copies(tmp_path, readme, {"Dockerfile.gpu": LEVEL_ZERO}, audited) == []


# The defaults of `${NAME:-default}` in a copy's instructions; copies pasted as plain text.

SERVER = """\
FROM acme/llm-server:latest

CMD python3 -m acme.serve \\
    --listen ${LISTEN:-0.0.0.0:9000} \\
    --weights ${WEIGHTS:-acme/tiny-chat-v3} \\
    ${SEED:+--seed "$SEED"}
"""

SERVER_TUTORIAL = """\
Serving a chat model
Make a folder for the project and enter it:

mkdir chat-server
cd chat-server
Then write a Dockerfile holding these lines:

FROM acme/llm-server:latest

CMD python3 -m acme.serve \\
 --listen ${LISTEN:-0.0.0.0:9000} \\
    --weights ${WEIGHTS:-acme/tiny-chat-v1} \\
    ${SEED:+--seed "$SEED"}
The server reads its settings from the environment, with the defaults above.
"""


def test_a_dockerfile_pasted_as_plain_text_with_a_stale_default(tmp_path: Path) -> None:
    assert _copies(tmp_path, SERVER_TUTORIAL, {"Dockerfile": SERVER}, ["Dockerfile"]) == [
        "12: README's copy of Dockerfile says ${WEIGHTS:-acme/tiny-chat-v1} but Dockerfile:5 says "
        "${WEIGHTS:-acme/tiny-chat-v3} (certain)"
    ]


@pytest.mark.parametrize("lang", ["", "text", "dockerfile"])
def test_a_fenced_twin_of_the_file_with_a_stale_default(tmp_path: Path, lang: str) -> None:
    readme = SERVER_TUTORIAL.replace("FROM acme", f"```{lang}\nFROM acme").replace(
        '"$SEED"}\n', '"$SEED"}\n```\n'
    )
    assert _copies(tmp_path, readme, {"Dockerfile": SERVER}, ["Dockerfile"]) == [
        "13: README's copy of Dockerfile says ${WEIGHTS:-acme/tiny-chat-v1} but Dockerfile:5 says "
        "${WEIGHTS:-acme/tiny-chat-v3} (certain)"
    ]


def test_a_named_copy_compares_the_defaults_of_its_instructions(tmp_path: Path) -> None:
    readme = STALE.replace("RUN pip install -r requirements.txt", 'CMD serve --port "${PORT:-4000}"')
    jetson = JETSON.replace("RUN pip install -r requirements.txt", 'CMD serve --port "${PORT:-4123}"')
    found = _copies(tmp_path, readme, {"docker/Dockerfile.jetson": jetson}, ["docker/Dockerfile.jetson"])
    assert found[-1] == (
        "10: README's copy of docker/Dockerfile.jetson says ${PORT:-4000} but docker/Dockerfile.jetson:7 "
        "says ${PORT:-4123} (certain)"
    )


@pytest.mark.parametrize(
    "readme",
    [
        # the same defaults as the file
        SERVER_TUTORIAL.replace("tiny-chat-v1", "tiny-chat-v3"),
        # an example built on the file, with a line of its own: not its twin
        SERVER_TUTORIAL.replace("CMD python3", "COPY template.jinja .\n\nCMD python3"),
        # another command: not the file's
        SERVER_TUTORIAL.replace("--weights", "--model"),
        # another base
        SERVER_TUTORIAL.replace("FROM acme/llm-server:latest", "FROM acme/llm-server:1.2"),
        # introduced as an example of the reader's own
        SERVER_TUTORIAL.replace("Then write a Dockerfile", "For example, your Dockerfile could hold"),
        # the command alone, with no FROM line
        SERVER_TUTORIAL.replace("FROM acme/llm-server:latest\n", ""),
    ],
)
def test_plain_text_blocks_that_are_no_stale_copy(tmp_path: Path, readme: str) -> None:
    assert _copies(tmp_path, readme, {"Dockerfile": SERVER}, ["Dockerfile"]) == []


# --------------------------------------------------------------------------------------------------
# Packages the file installs that a copy leaves out (and Python packages only the copy installs)

SPEECH = """\
FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04
ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update && apt-get install -y --no-install-recommends \\
        curl \\
        python3-pip \\
        sox \\
        libsndfile1 \\
    && rm -rf /var/lib/apt/lists/*
RUN pip install speechkit \\
        gradio \\
        uvicorn
"""

SPEECH_COPY = """\
# Speech

Write this `Dockerfile`:

```dockerfile
FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04
ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update && apt-get install -y --no-install-recommends \\
        curl \\
        python3-pip \\
    && rm -rf /var/lib/apt/lists/*
RUN pip install speechkit tqdm
```
"""


def test_a_copy_that_leaves_out_packages_the_file_installs(tmp_path: Path) -> None:
    assert _copies(tmp_path, SPEECH_COPY, {"Dockerfile": SPEECH}, ["Dockerfile"]) == [
        "9: README's copy of Dockerfile leaves out packages Dockerfile installs: sox, libsndfile1 (apt, "
        "Dockerfile:6); gradio, uvicorn (pip, Dockerfile:10); and it pip-installs tqdm, which Dockerfile "
        "does not install (certain)"
    ]


@pytest.mark.parametrize(
    "name, readme",
    [
        # words or marks saying the block is part of the file
        ("excerpt", SPEECH_COPY.replace("Write this", "An excerpt of the")),
        ("simplified", SPEECH_COPY.replace("Write this", "A simplified")),
        ("dots", SPEECH_COPY.replace("RUN pip install speechkit tqdm", "# ...\nRUN pip install speechkit")),
        # a copy naming them in a comment, one installing from a requirements file
        (
            "comment",
            SPEECH_COPY.replace("ENV DEBIAN", "# also: sox libsndfile1 gradio uvicorn\nENV DEBIAN").replace(
                "speechkit tqdm", "speechkit"
            ),
        ),
        (
            "requirements",
            SPEECH_COPY.replace("speechkit tqdm", "-r requirements.txt").replace(
                "        python3-pip \\\n", "        python3-pip sox libsndfile1 \\\n"
            ),
        ),
        # a copy showing only its apt step: pip is not compared
        (
            "apt only",
            SPEECH_COPY.replace("RUN pip install speechkit tqdm\n", "").replace(
                "        python3-pip \\\n", "        python3-pip sox libsndfile1 \\\n"
            ),
        ),
    ],
)
def test_copies_that_show_part_of_the_file_are_no_claim(tmp_path: Path, name: str, readme: str) -> None:
    found = _copies(tmp_path / name.replace(" ", "_"), readme, {"Dockerfile": SPEECH}, ["Dockerfile"])
    assert [f for f in found if "leaves out" in f or "pip-installs" in f] == [], name


def test_a_copy_of_the_runtime_stage_is_not_missing_the_build_stage(tmp_path: Path) -> None:
    staged = (
        "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build\n"
        "RUN apt-get update && apt-get install -y cmake ninja-build && pip install scikit-build\n"
        + SPEECH.replace("FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04", "FROM ubuntu:22.04")
    )
    readme = (
        SPEECH_COPY.replace("nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04", "ubuntu:22.04")
        .replace("        python3-pip \\\n", "        python3-pip sox libsndfile1 \\\n")
        .replace("speechkit tqdm", "speechkit gradio uvicorn")
    )
    found = _copies(tmp_path, readme, {"Dockerfile": staged}, ["Dockerfile"])
    assert [f for f in found if "leaves out" in f or "pip-installs" in f] == []


def test_a_copy_of_many_packages_is_compared_package_by_package(tmp_path: Path) -> None:
    # (benchmarks/bench_shapes.py `copied-packages`: a pattern compiled and run over the whole text for
    # each package)
    kept = "".join(f"        libkept{k} \\\n" for k in range(30))
    dockerfile = SPEECH.replace("        sox \\\n", kept + "        sox \\\n        libk1c \\\n")
    copy = SPEECH_COPY.replace(
        "        python3-pip \\\n", "        python3-pip \\\n" + kept + "        libk1 \\\n"
    )
    found = [f for f in _copies(tmp_path, copy, {"Dockerfile": dockerfile}, ["Dockerfile"]) if "copy" in f]
    assert found == [
        "9: README's copy of Dockerfile leaves out packages Dockerfile installs: sox, libk1c, libsndfile1 "
        "(apt, Dockerfile:36); gradio, uvicorn (pip, Dockerfile:41); and it pip-installs tqdm, which "
        "Dockerfile does not install (certain)",
        "41: README's copy of Dockerfile apt-installs libk1, which Dockerfile does not install from the "
        "distribution's packages (certain)",
    ]


# --------------------------------------------------------------------------------------------------
# A copy under a list of prerequisites that speaks to the reader, and the ports of a copy

WEBUI = """\
FROM nvidia/cuda:11.8.0-cudnn8-devel-rockylinux8

ENV http_proxy=http://127.0.0.1:3128
ENV https_proxy=http://127.0.0.1:3128

RUN dnf install -y git wget && dnf clean all
RUN git clone --depth 1 https://example.org/webui.git
WORKDIR /webui
EXPOSE 7860
CMD ["python", "launch.py", "--listen"]
"""

# (the shape of a personal setup README: a list of what to install, one item telling the reader to make
# sure their system supports the GPU runtime, then the word Dockerfile over the whole file pasted in)
LISTED = """\
# webui gpu image

- install the latest driver

- install docker (make sure your system supports the GPU runtime)

Dockerfile

```dockerfile
FROM nvidia/cuda:11.8.0-cudnn8-devel-rockylinux8

ENV http_proxy=http://10.0.0.5:3128
ENV https_proxy=http://10.0.0.5:3128

RUN dnf install -y git wget && dnf clean all
RUN git clone --depth 1 https://example.org/webui.git
WORKDIR /webui
EXPOSE 7860
CMD ["python", "launch.py", "--listen"]
```
"""


def test_a_copy_under_words_to_the_reader_further_up(tmp_path: Path) -> None:
    assert _copies(tmp_path, LISTED, {"Dockerfile": WEBUI}, ["Dockerfile"]) == [
        "12: README's copy of Dockerfile sets ENV http_proxy=http://10.0.0.5:3128 but Dockerfile:3 sets "
        "http_proxy=http://127.0.0.1:3128 (certain)",
        "13: README's copy of Dockerfile sets ENV https_proxy=http://10.0.0.5:3128 but Dockerfile:4 sets "
        "https_proxy=http://127.0.0.1:3128 (certain)",
    ]
    traps = [
        # the words just above make it the reader's own
        LISTED.replace("\nDockerfile\n", "\nWrite your Dockerfile like this:\n"),
        # a block of the reader's that shares too few lines with the file
        LISTED.replace(
            "RUN dnf install -y git wget && dnf clean all\nRUN git clone", "RUN yum install -y x\nRUN clone"
        )
        .replace("WORKDIR /webui", "WORKDIR /app")
        .replace('"--listen"]', '"--share"]'),
    ]
    for trap in traps:
        assert _copies(tmp_path, trap, {"Dockerfile": WEBUI}, ["Dockerfile"]) == [], trap


def test_a_copy_exposing_a_port_the_file_no_longer_exposes(tmp_path: Path) -> None:
    # (the shape of a README quoting its server image's Dockerfile in full)
    readme = """\
# inference server

The Dockerfile of `docker/Dockerfile.server`:

```dockerfile
FROM python:3.11-slim
ENV APP_HOME=/srv
ENV WORKERS=2
COPY . /srv
EXPOSE 8000
CMD ["python", "-m", "server"]
```
"""
    server = (
        "FROM python:3.11-slim\nENV APP_HOME=/srv\nENV WORKERS=2\nCOPY . /srv\nEXPOSE 8080\n"
        'CMD ["python", "-m", "server"]\n'
    )
    files = {"docker/Dockerfile.server": server}
    assert _copies(tmp_path, readme, files, ["docker/Dockerfile.server"]) == [
        "10: README's copy of docker/Dockerfile.server says EXPOSE 8000 but docker/Dockerfile.server:5 "
        "exposes 8080 (certain)"
    ]
    for trap in (
        readme.replace("EXPOSE 8000", "EXPOSE 8080/tcp"),  # the same port
        readme.replace("EXPOSE 8000\n", ""),  # the copy exposes none
        readme.replace("EXPOSE 8000", "EXPOSE ${PORT}"),  # a variable
    ):
        assert _copies(tmp_path, trap, files, ["docker/Dockerfile.server"]) == [], trap
    no_port = server.replace("EXPOSE 8080\n", "")
    assert (
        _copies(tmp_path, readme, {"docker/Dockerfile.server": no_port}, ["docker/Dockerfile.server"]) == []
    )


def test_a_copy_whose_pip_requirements_changed_bounds(tmp_path: Path) -> None:
    # (the shape of a trainer README quoting its GPU image's Dockerfile, pins and ranges side by side)
    readme = """\
# trainer

The Dockerfile of `docker/Dockerfile.gpu`:

```dockerfile
FROM rocm/pytorch:rocm6.2_ubuntu22.04
ENV HIP_ARCH=gfx942
RUN pip install "tensordict<0.6" --no-deps && \\
    pip install accelerate \\
    "ray[data,train]>=2.45.0" \\
    "pyarrow>=15" \\
    torch==2.3.0
COPY . /app
```
"""
    gpu = (
        "FROM rocm/pytorch:rocm6.2_ubuntu22.04\nENV HIP_ARCH=gfx942\n"
        'RUN pip install "tensordict<0.6" --no-deps && \\\n    pip install accelerate \\\n'
        '    "ray[data,train]<2.45.0" \\\n    "pyarrow>=15.0.0" \\\n    torch==2.4.0\nCOPY . /app\n'
    )
    files = {"docker/Dockerfile.gpu": gpu}
    assert _copies(tmp_path, readme, files, ["docker/Dockerfile.gpu"]) == [
        "10: README's copy of docker/Dockerfile.gpu installs ray[data,train]>=2.45.0 but "
        "docker/Dockerfile.gpu:5 installs ray[data,train]<2.45.0 (certain)",
        "12: README says torch 2.3.0 but docker/Dockerfile.gpu:7 says 2.4.0 (certain)",  # told once
    ]
    agreeing = readme.replace(">=2.45.0", "<2.45").replace("torch==2.3.0", "torch==2.4.0")
    assert _copies(tmp_path, agreeing, files, ["docker/Dockerfile.gpu"]) == []  # `<2.45` is `<2.45.0`
    # the file's bound is a variable; it installs pyarrow with two different ranges
    varied = gpu.replace('"ray[data,train]<2.45.0"', '"ray[data,train]${RAY_BOUND}"')
    varied = varied.replace("torch==2.4.0", 'torch==2.4.0 && pip install "pyarrow<19"')
    stale = agreeing.replace('"pyarrow>=15"', '"pyarrow>=14"').replace("<2.45", ">=2.45")
    assert _copies(tmp_path, stale, {"docker/Dockerfile.gpu": varied}, ["docker/Dockerfile.gpu"]) == []


def test_a_copy_of_a_web_image_with_a_stale_range_but_not_a_reader_s_own(tmp_path: Path) -> None:
    # (the shape of a web service README: the Dockerfile in full, then one to write yourself)
    readme = """\
# api

```
FROM python:3.12-slim
WORKDIR /srv
RUN pip install --no-cache-dir "fastapi>=0.110,<0.111" uvicorn
COPY app /srv/app
CMD ["uvicorn", "app.main:app"]
```
"""
    web = (
        "FROM python:3.12-slim\nWORKDIR /srv\n"
        'RUN pip install --no-cache-dir "fastapi>=0.115,<0.116" uvicorn\n'
        'COPY app /srv/app\nCMD ["uvicorn", "app.main:app"]\n'
    )
    files = {"Dockerfile": web}
    assert _copies(tmp_path, readme, files, ["Dockerfile"]) == [
        "6: README's copy of Dockerfile installs fastapi>=0.110,<0.111 but Dockerfile:3 installs "
        "fastapi>=0.115,<0.116 (certain)"
    ]
    own = readme.replace("# api\n", "# api\n\nTo extend it, write your own Dockerfile:\n")
    assert _copies(tmp_path, own, files, ["Dockerfile"]) == []


ROCM = """\
# Build the image in the repo dir:
# docker build -f docker/Dockerfile.rocm -t trainer-rocm .
# docker images # you can find your built image
FROM vendor/sglang:v0.4.6-rocm630
ENV PYTORCH_ROCM_ARCH="gfx90a;gfx942"
COPY . .
RUN pip install accelerate \\
    "ray[data,train,tune,serve]<2.45.0" \\
    wandb
"""

ROCM_PAGE = """\
Getting started with ROCm
=========================

Setup
-----

docker/Dockerfile.rocm
~~~~~~~~~~~~~~~~~~~~~~

.. code-block:: bash

    # Build the image in the repo dir:
    # docker build -f docker/Dockerfile.rocm -t trainer-rocm .
    # docker images # you can find your built image
    FROM vendor/sglang:v0.4.6-rocm630
    ENV PYTORCH_ROCM_ARCH="gfx90a;gfx942"
    COPY . .
    RUN pip install accelerate \\
        "ray[data,train,tune,serve]>=2.45.0" \\
        wandb

Build the image
~~~~~~~~~~~~~~~

.. code-block:: bash

    docker build -f docker/Dockerfile.rocm -t trainer-rocm .
"""


def test_an_rst_page_quoting_the_dockerfile(tmp_path: Path) -> None:
    """A reStructuredText page is read as one: its `~~~~` adornments are headings (not Markdown fences)
    and its `.. code-block::` bodies blocks; the copy's own comments that the file has too (`your built
    image`) do not make it the reader's Dockerfile."""
    make_tree(tmp_path, {"docs/rocm.rst": ROCM_PAGE, "docker/Dockerfile.rocm": ROCM})
    models = [build_model(tmp_path / "docker/Dockerfile.rocm", "docker/Dockerfile.rocm")]
    said = [f"{d.line}: {d.message}" for d in audit(ROCM_PAGE, "docs/rocm.rst", models, {}, tmp_path)]
    assert said == [
        "19: README's copy of docker/Dockerfile.rocm installs ray[data,train,tune,serve]>=2.45.0 but "
        "docker/Dockerfile.rocm:8 installs ray[data,train,tune,serve]<2.45.0"
    ]
    own = ROCM_PAGE.replace("# docker images # you can", "# add your own steps here; you can")
    assert [d.line for d in audit(own, "docs/rocm.rst", models, {}, tmp_path)] == []
