"""`docgen audit`: a README that pulls an image, then runs a make target or script whose `docker run`
runs another image (docgen/audit/pulled_runs.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.audit.pulled_runs import _script_runs
from docgen.pipeline import build_model

DOCKERFILE = "FROM ubuntu:24.04\nRUN echo serve\n"
MAKEFILE = """\
ARCH ?= gfx90a
image:
\tdocker build -t llm-server-$(ARCH) .
serve: ## start the server
\t@NAME="$(filter-out $@,$(MAKECMDGOALS))"; \\
\tPORT=9000 ./serve.sh $$NAME
%:
\t@:
"""
SERVE = """\
#!/usr/bin/env bash
set -euo pipefail
if [[ "${FULL:-0}" == "1" ]]; then
  IMAGE="llm-server-gfx90a"
else
  IMAGE="llm-server-gfx90a.slim"
fi
[ -t 0 ] && TTY="-it" || TTY="-i"
ARGS=(docker run --rm $TTY \\
  --device /dev/kfd \\
  -v "$(pwd)/models:/models:ro")
ARGS+=( -p 9000:9000 )
ARGS+=( "$IMAGE" )
"${ARGS[@]}" /opt/serve.sh "$@"
"""
README = """\
# LLM server

```sh
docker pull acme/llm-server:latest
```

```sh
make serve small-model
```
"""


def found(
    root: Path, readme: str, makefile: str = MAKEFILE, serve: str = SERVE, files: dict[str, str] | None = None
) -> list[tuple[int, str, str]]:
    tree = {
        "Dockerfile": DOCKERFILE,
        "Makefile": makefile,
        "serve.sh": serve,
        "README.md": readme,
        **(files or {}),
    }
    make_tree(root, {k: v for k, v in tree.items() if v})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if d.message.startswith("README pulls")
    ]


def test_a_pulled_image_the_wrapper_never_runs(tmp_path: Path) -> None:
    assert found(tmp_path, README + "\n```sh\nmake serve big-model\n```\n") == [
        (
            8,
            "README pulls acme/llm-server:latest (line 4), but make serve runs serve.sh, whose docker run "
            "(serve.sh:9) runs llm-server-gfx90a or llm-server-gfx90a.slim, which nothing the README pulls, "
            "builds or tags before is named; also at line 12",
            "likely",
        )
    ]


def test_a_script_the_readme_runs(tmp_path: Path) -> None:
    readme = README.replace("make serve small-model", "./serve.sh small-model")
    [(line, message, _)] = found(tmp_path, readme)
    assert line == 8 and "but serve.sh, whose docker run (serve.sh:9)" in message


@pytest.mark.parametrize(
    "readme",
    [
        README.replace("make serve small-model", "make image\nmake serve small-model"),  # built first
        README.replace("make serve small-model", "./build.sh\nmake serve small-model"),  # a script builds
        README.replace("make serve small-model", "make -C base image\nmake serve small-model"),  # elsewhere
        README.replace(
            "docker pull acme/llm-server:latest",
            "docker pull acme/llm-server:latest\ndocker tag acme/llm-server:latest llm-server-gfx90a.slim\n"
            "docker tag acme/llm-server:latest llm-server-gfx90a",
        ),
        README.replace("docker pull acme/llm-server:latest", "docker load -i llm-server.tar"),
        README.replace("docker pull acme/llm-server:latest", "docker build -t $IMAGE ."),  # not known
        "# LLM server\n\n```sh\nmake serve small-model\ndocker pull acme/llm-server:latest\n```\n",  # after
        "# LLM server\n\n```sh\nmake serve small-model\n```\n",  # nothing pulled
    ],
)
def test_readme_traps_stay_silent(tmp_path: Path, readme: str) -> None:
    assert found(tmp_path, readme) == []


@pytest.mark.parametrize(
    "serve",
    [
        SERVE.replace('IMAGE="llm-server-gfx90a.slim"', 'IMAGE="acme/llm-server:latest"'),  # the pulled one
        SERVE.replace('IMAGE="llm-server-gfx90a.slim"', 'IMAGE="${SERVER_IMAGE:-llm-server-gfx90a.slim}"'),
        SERVE.replace('IMAGE="llm-server-gfx90a.slim"', 'IMAGE="$1"'),
        SERVE.replace('IMAGE="llm-server-gfx90a.slim"', 'IMAGE="ghcr.io/acme/llm-server:slim"'),  # pullable
        SERVE.replace('IMAGE="llm-server-gfx90a.slim"', 'IMAGE="ubuntu:24.04"'),  # official
        SERVE.replace("set -euo pipefail", "docker pull acme/llm-server:latest"),  # the script gets it
        SERVE.replace("set -euo pipefail", "docker build -t llm-server-gfx90a.slim ."),
        SERVE.replace('ARGS+=( "$IMAGE" )\n', ""),  # the image cannot be told
        SERVE.replace("[ -t 0 ]", "read -r IMAGE; [ -t 0 ]"),
        SERVE.replace("[ -t 0 ]", "[ -f .image ] && IMAGE=$(cat .image)\n[ -t 0 ]"),  # set by a command
    ],
)
def test_script_traps_stay_silent(tmp_path: Path, serve: str) -> None:
    assert found(tmp_path, README, serve=serve) == []


@pytest.mark.parametrize(
    "makefile",
    [
        MAKEFILE.replace("serve: ## start the server\n", "serve: image\n"),  # the target builds first
        MAKEFILE.replace("PORT=9000 ./serve.sh $$NAME", "$(SCRIPT) $$NAME"),  # script not known
        MAKEFILE.replace("PORT=9000 ./serve.sh $$NAME", "./serve.sh $$NAME && ./other.sh"),  # two scripts
    ],
)
def test_makefile_traps_stay_silent(tmp_path: Path, makefile: str) -> None:
    assert found(tmp_path, README, makefile=makefile) == []


def test_script_runs_reads_a_plain_command() -> None:
    runs = _script_runs('NAME=app-gpu\ndocker run --rm -e A=1 --name x "$NAME" serve\n')
    assert runs is not None and (runs.images, runs.line) == (("app-gpu",), 2)
    assert _script_runs("docker run --rm $OPTS app serve\n") is None  # an option list not known
    # words about a run, not one: a comment, an echo, an array opened on the line before
    assert _script_runs('# the docker run command\necho "docker run app"\nlog "docker run x"\n') is None
    assert _script_runs("local cmd=(\n  docker run\n  --rm app\n)\n") is None


def test_many_commands_each_see_what_the_readme_ran_before(tmp_path: Path) -> None:
    # (benchmarks/bench_shapes.py `pulled-runs`: each command read every command before it, and each
    # script, again)
    makefile = "ARCH ?= gfx90a\nimage:\n\tdocker build -t llm-server-$(ARCH) .\n" + "".join(
        f"serve{k}:\n\tPORT=900{k} ./serve.sh\n" for k in range(8)
    )
    block = "".join(f"make serve{k}\n" for k in range(4)) + "./serve.sh\nmake image\n"
    block += "".join(f"make serve{k}\n" for k in range(4, 8))
    readme = f"# LLM server\n\n```sh\ndocker pull acme/llm-server:latest\n```\n\n```sh\n{block}```\n"
    [(line, message, confidence)] = found(tmp_path, readme, makefile)
    assert (line, confidence) == (8, "likely")
    assert message.startswith("README pulls acme/llm-server:latest (line 4), but make serve0 runs serve.sh")
    assert message.endswith("; also at lines 9, 10, 11, 12")  # not after make image builds the image
