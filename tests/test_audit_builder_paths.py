"""`docgen.audit.builder_paths`: a path the README uses in the image (a search path exported in the
container, a `docker run` command, a folder prose says the binaries are in) that lies in the WORKDIR of a
builder stage whose files the image copies elsewhere is a finding; the folder the image's own stages name
(a `COPY --from` to the same place, a WORKDIR), one a copied entrypoint makes at run time, one a command
or a compose file mounts, a README building the builder stage (`--target builder`), a sentence about the
stages and a Dockerfile excerpt are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = """\
FROM debian:bookworm AS compile
RUN apt-get update && apt-get install -y cmake g++
WORKDIR /src
COPY main.cpp CMakeLists.txt ./
RUN cmake -B build && cmake --build build && mkdir -p /src/out && cp build/bin/* /src/out/

FROM debian:bookworm-slim
COPY --from=compile /src/out /opt/quill/bin/
ENV PATH=/opt/quill/bin:$PATH
CMD ["quill-serve"]
"""

README = """\
# Quill

{body}
"""

ENTRY = """\
#!/bin/sh
mkdir -p /src/out/cache
exec "$@"
"""


def found(
    root: Path, body: str, dockerfile: str = DOCKERFILE, extra: dict[str, str] | None = None
) -> list[str]:
    files = {
        "README.md": README.format(body=body),
        "Dockerfile": dockerfile,
        "main.cpp": "int main() {}\n",
        "CMakeLists.txt": "project(quill)\n",
        "entrypoint.sh": ENTRY,
        **(extra or {}),
    }
    make_tree(root, files)
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [model], {}, root)
        if "only stage" in d.message
    ]


def finding(path: str, line: int, more: str = "") -> str:
    return (
        f"{line}: README uses {path} in the image, but in Dockerfile only stage compile has /src (its "
        f"WORKDIR, line 3): the image copies its files to /opt/quill/bin (line 8){more} (likely)"
    )


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            '```sh\nexport PATH="/src/out:$PATH"\nexport LD_LIBRARY_PATH="/src/out:$LD_LIBRARY_PATH"\n```',
            [finding("/src/out", 4, "; also at line 5")],
        ),
        (
            "```sh\ndocker run --rm quill /src/out/quill-serve --help\n```",
            [finding("/src/out/quill-serve", 4)],
        ),
        ("The server binaries are in `/src/out`.", [finding("/src/out", 3)]),
        ("```\nloaded plugin from /src/out/libquill-gpu.so\n```", [finding("/src/out/libquill-gpu.so", 4)]),
    ],
)
def test_a_path_only_the_builder_has_is_a_finding(tmp_path: Path, body: str, expected: list[str]) -> None:
    assert found(tmp_path, body) == expected


RUN_IT = "```sh\ndocker run --rm quill /src/out/quill-serve --help\n```"


@pytest.mark.parametrize(
    ("body", "dockerfile", "extra"),
    [
        # the image has the folder: copied to the same place, its WORKDIR, an ENV names it
        (RUN_IT, DOCKERFILE.replace("/opt/quill/bin/", "/src/out/"), None),
        (RUN_IT, DOCKERFILE.replace('CMD ["quill-serve"]', 'WORKDIR /src\nCMD ["quill-serve"]'), None),
        (RUN_IT, DOCKERFILE.replace("ENV PATH=/opt/quill/bin:$PATH", "ENV PATH=/src/out:$PATH"), None),
        # an entrypoint copied into the image makes it at run time
        (
            RUN_IT,
            DOCKERFILE.replace(
                'CMD ["quill-serve"]', 'COPY entrypoint.sh /entrypoint.sh\nENTRYPOINT ["/entrypoint.sh"]'
            ),
            None,
        ),
        # mounted by the README's command or by the compose file beside it
        ("```sh\ndocker run -v ./out:/src/out quill /src/out/quill-serve\n```", DOCKERFILE, None),
        (RUN_IT, DOCKERFILE, {"compose.yaml": "services:\n  quill:\n    volumes:\n      - ./out:/src/out\n"}),
        # the README builds the builder stage itself
        (
            "```sh\ndocker build --target compile -t quill-build .\ndocker run quill-build ls /src/out\n```",
            DOCKERFILE,
            None,
        ),
        # how the stages work, a Dockerfile excerpt, the image's own path, a build command
        (
            "The compile stage builds into `/src/out` and the image copies it to `/opt/quill/bin`.",
            DOCKERFILE,
            None,
        ),
        ("```dockerfile\nCOPY --from=compile /src/out /opt/quill/bin/\n```", DOCKERFILE, None),
        ("```sh\ndocker run --rm quill /opt/quill/bin/quill-serve --help\n```", DOCKERFILE, None),
        # a single-stage image: no builder
        (RUN_IT, "FROM debian:bookworm\nWORKDIR /src\nCOPY main.cpp .\n", None),
    ],
)
def test_traps_are_silent(tmp_path: Path, body: str, dockerfile: str, extra: dict[str, str] | None) -> None:
    assert found(tmp_path, body, dockerfile, extra) == []


TOOLS = """\
FROM rust:1.79 AS build
WORKDIR /src
COPY . .
RUN cargo build --release && \\
    cp target/release/ferry /usr/local/bin/ && \\
    cp target/release/ferry-admin /usr/local/bin/ && \\
    install -m 755 target/release/ferry-gc /usr/local/bin/ferry-gc

FROM debian:bookworm-slim
COPY --from=build /usr/local/bin/ferry /usr/local/bin/
COPY --from=build /usr/local/bin/ferry-gc /usr/local/bin/
ENTRYPOINT ["ferry"]
"""


def test_a_program_the_builder_makes_that_the_image_does_not_copy(tmp_path: Path) -> None:
    body = (
        "| Program | Use |\n|---|---|\n| `ferry` | the server |\n| `ferry-admin` | manage users |\n\n"
        "Run `ferry-gc` now and then.\n"
    )
    assert found(tmp_path, body, TOOLS, {"Cargo.toml": "[package]\n"}) == [
        "6: README names ferry-admin as a program of the image, but in Dockerfile only stage build has it"
        " (/usr/local/bin/ferry-admin, line 4): the image's COPY --from=build (line 10) takes other files,"
        " not it (likely)"
    ]


@pytest.mark.parametrize(
    ("body", "dockerfile"),
    [
        # the image copies the whole folder, or a glob of it
        (
            "Use `ferry-admin` to manage users.\n",
            TOOLS.replace("/usr/local/bin/ferry /usr", "/usr/local/bin/ /usr"),
        ),
        ("Use `ferry-admin` to manage users.\n", TOOLS.replace("bin/ferry-gc /usr", "bin/ferry-* /usr")),
        # a line telling how the stages work
        ("The builder stage also makes `ferry-admin`; it is not copied.\n", TOOLS),
        # the image's own stage builds it again
        (
            "Use `ferry-admin` to manage users.\n",
            TOOLS + "RUN ln -s /usr/local/bin/ferry /usr/local/bin/ferry-admin\n",
        ),
    ],
)
def test_a_builder_program_the_image_may_hold_or_a_stage_line(
    tmp_path: Path, body: str, dockerfile: str
) -> None:
    assert found(tmp_path, body, dockerfile, {"Cargo.toml": "[package]\n"}) == []


# modelled on a chatbot inference image: two targets, each built under its own heading, the model
# repository cloned only by the accelerator's stage
TWO_TARGETS = """\
FROM ubuntu:22.04 AS graviton
WORKDIR /srv/bot
RUN apt-get update && apt-get install -y git python3-pip
RUN git clone https://github.com/acme/botkit.git && pip install -r botkit/requirements.txt
WORKDIR /srv/bot/botkit

FROM nvcr.io/nvidia/pytorch:24.01-py3 AS cuda
RUN git clone https://github.com/acme/botkit.git \\
    && cd botkit && pip install -r requirements.txt \\
    && git clone https://huggingface.co/acme/chat-13b
WORKDIR /botkit
"""
BOT = """\
# Chat inference in Docker

### Setup Graviton Environment
```
docker build -t bot:arm . --target graviton
```

### Setup CUDA Environment
```
docker build -t bot:gpu . --target cuda
```

### Inference on Graviton
```
python chat.py \\
    --model_path "./chat-13b" \\
    --prompt "Hello"
```

### Inference on CUDA
```
python chat.py --model_path ./chat-13b --cuda
```
"""
# modelled on a speech toolkit: a slim runtime target and a dev target that copies the test assets
SPEECH = """\
FROM python:3.11-slim AS runtime
WORKDIR /app
COPY app.py /app/app.py

FROM runtime AS dev
COPY samples /app/samples
"""
SPEECH_README = """\
# Speech toolkit

## Building the runtime image
```bash
docker build --target runtime -t speech .
```

## Building the development image
```bash
docker build --target dev -t speech-dev .
```

## Transcribing with the runtime image
```bash
python app.py ./samples/hello.wav
```
"""


def target_found(root: Path, readme: str, dockerfile: str, files: dict[str, str] | None = None) -> list[str]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model, {}, root, root)
        if "README passes ./" in d.message
    ]


def test_a_path_only_another_target_clones(tmp_path: Path) -> None:
    assert target_found(tmp_path, BOT, TWO_TARGETS) == [
        "16: README passes ./chat-13b in the image built with --target graviton, but Dockerfile makes "
        "chat-13b only in stage cuda (line 8), which --target graviton is not built from (likely)"
    ]


def test_a_path_only_a_later_target_copies(tmp_path: Path) -> None:
    files = {"app.py": "print()\n", "samples/hello.wav": ""}
    assert target_found(tmp_path, SPEECH_README, SPEECH, files) == [
        "15: README passes ./samples in the image built with --target runtime, but Dockerfile makes "
        "samples only in stage dev (line 6), which --target runtime is not built from (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        (BOT.replace("on Graviton", "on CUDA", 1), TWO_TARGETS),  # a heading of the right target
        (BOT.replace("### Inference on Graviton", "### Inference"), TWO_TARGETS),  # a heading of neither
        (BOT.replace("Setup Graviton Environment", "Setup CUDA Environment"), TWO_TARGETS),  # one heading
        (BOT.replace("docker build -t bot:gpu . --target cuda", "docker build -t bot:gpu ."), TWO_TARGETS),
        (  # the README fetches it first
            BOT.replace(
                "python chat.py \\\n",
                "git clone https://huggingface.co/acme/chat-13b\npython chat.py \\\n",
                1,
            ),
            TWO_TARGETS,
        ),
        (BOT, TWO_TARGETS.replace("WORKDIR /srv/bot/botkit", "RUN huggingface-cli download acme/chat-13b")),
        (BOT.replace('"./chat-13b"', '"./chat-7b"'), TWO_TARGETS),  # a name no stage makes
        (BOT.replace("python chat.py \\\n", "docker run -v ./chat-13b:/m bot:arm \\\n", 1), TWO_TARGETS),
    ],
)
def test_target_paths_silent(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert target_found(tmp_path, readme, dockerfile) == []
