"""`docgen audit`: a localhost address the README tells to open while the `docker run` it gives
publishes no port (docgen/audit/unpublished_ports.py).

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

DOCKERFILE = 'FROM python:3.12-slim\nRUN pip install notebook==7.2.1\nCMD ["sleep", "infinity"]\n'
UNREACHED = (
    "README opens localhost:8890 but the docker run it gives (line 6) publishes no port "
    "(no -p 8890:…, -P or --network host): the address reaches nothing"
)


def _readme(run: str, extra: str = "") -> str:
    return (
        "# Lab box\n\n## Usage\n\n1. Build with `docker build -t labbox .`.\n"
        f"2. Start it: `{run}`.\n3. Inside it run `jupyter notebook --ip=0.0.0.0 --port=8890`.\n"
        f"4. Then browse to http://localhost:8890 and paste the token.\n{extra}"
    )


def _audited(tmp_path: Path, readme: str, files: dict[str, str] | None = None) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": DOCKERFILE, **(files or {})})
    models = [build_model(tmp_path / "Dockerfile", "Dockerfile")]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, tmp_path)
        if "publishes no port" in d.message
    ]


def test_an_address_the_run_does_not_publish(tmp_path: Path) -> None:
    assert _audited(tmp_path, _readme("docker run -it --gpus all labbox")) == [f"8: {UNREACHED} (likely)"]


@pytest.mark.parametrize(
    "run",
    [
        "docker run -it -p 8890:8890 labbox",
        "docker run -it -P labbox",
        "docker run -dp 8890:8890 labbox",
        "docker run -it --net=host labbox",
        "docker run -it --network host labbox",
        "docker run -it --publish 8890:8890 labbox",
    ],
)
def test_runs_that_publish(tmp_path: Path, run: str) -> None:
    assert _audited(tmp_path, _readme(run)) == []


def test_a_later_run_that_publishes(tmp_path: Path) -> None:
    later = "\n## Serving\n\n```bash\ndocker run -d -p 8890:8890 labbox\n```\n"
    assert _audited(tmp_path, _readme("docker run -it labbox", later)) == []


def test_a_compose_file_or_compose_ports(tmp_path: Path) -> None:
    assert _audited(tmp_path, _readme("docker run -it labbox"), {"compose.yaml": "services: {}\n"}) == []
    told = "\nOr use `docker compose up`, which maps the ports.\n"
    assert _audited(tmp_path, _readme("docker run -it labbox", told)) == []


def test_an_address_a_server_prints(tmp_path: Path) -> None:
    readme = _readme("docker run -it labbox").replace(
        "http://localhost:8890", "the log line http://0.0.0.0:8890"
    )
    assert _audited(tmp_path, readme) == []


def test_an_address_fetched_inside_the_container(tmp_path: Path) -> None:
    readme = (
        "# Lab box\n\n## Usage\n\n```bash\ndocker run -it labbox bash\npython -m http.server 8890 &\n"
        "curl http://localhost:8890/\n```\n\nCheck it with `curl http://localhost:8890/`.\n"
    )
    assert _audited(tmp_path, readme) == []


HUB = """\
FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip openssh-server nodejs npm \\
 && pip3 install jupyterhub jupyterlab && npm install -g configurable-http-proxy
COPY conf/hub_config.py /srv/hub/
CMD ["sleep", "infinity"]
"""
HUB_CONFIG = (
    "c = get_config()  # noqa\nc.Spawner.default_url = '/lab'\nc.Authenticator.allowed_users = {'dev'}\n"
)
HUB_README = """\
# GPU workstation

## Run

```bash
docker build -t gpu-box .
docker run -d --gpus all -p 2022:22 -p 8888:8888 gpu-box
```

## Notebooks

Start the hub in the container:

```bash
docker exec -it gpu-box jupyterhub -f /srv/hub/hub_config.py
```

Open it in your browser:

```
http://localhost:8000
```
"""
HUB_FOUND = (
    "README opens localhost:8000, where jupyterhub (line 15) listens by default, but the docker run it gives "
    "(line 7) publishes only host ports 2022, 8888: the address reaches nothing"
)


def _hub(tmp_path: Path, readme: str, dockerfile: str = HUB, config: str = HUB_CONFIG) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile, "conf/hub_config.py": config})
    models = [build_model(tmp_path / "Dockerfile", "Dockerfile")]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, tmp_path)
        if "listens by default" in d.message
    ]


def test_a_default_port_the_runs_do_not_publish(tmp_path: Path) -> None:
    # the runs publish ports, but not 8000, where the hub the README starts listens; the address is
    # alone in a block after "Open it in your browser", and in prose too
    assert _hub(tmp_path, HUB_README) == [f"21: {HUB_FOUND} (likely)"]
    prose = HUB_README.replace(
        "Open it in your browser:\n\n```\nhttp://localhost:8000\n```", "Then visit http://localhost:8000."
    )
    assert _hub(tmp_path, prose) == [f"18: {HUB_FOUND} (likely)"]


@pytest.mark.parametrize(
    ("readme", "dockerfile", "config"),
    [
        # a run publishes the port
        (HUB_README.replace("-p 8888:8888", "-p 8888:8888 -p 8000:8000"), HUB, HUB_CONFIG),
        # the hub is given another port, on its command line or in the configuration file it reads
        (HUB_README.replace("hub_config.py\n", "hub_config.py --port 8888\n"), HUB, HUB_CONFIG),
        (HUB_README, HUB, HUB_CONFIG + "c.JupyterHub.bind_url = 'http://:8888'\n"),
        # the image does not hold the hub: the address is another program's
        (HUB_README, HUB.replace("jupyterhub ", ""), HUB_CONFIG),
        # the host's network, or a port Docker picks
        (HUB_README.replace("--gpus all", "--gpus all --network host"), HUB, HUB_CONFIG),
        (HUB_README.replace("-p 8888:8888", "-P"), HUB, HUB_CONFIG),
        # the block is a fetch inside the container, not a page to open
        (
            HUB_README.replace("```\nhttp://localhost:8000", "```\ncurl http://localhost:8000"),
            HUB,
            HUB_CONFIG,
        ),
        # a compose file runs the stack
        (HUB_README + "\nOr `docker compose up -d`.\n", HUB, HUB_CONFIG),
    ],
)
def test_default_port_traps(tmp_path: Path, readme: str, dockerfile: str, config: str) -> None:
    assert _hub(tmp_path, readme, dockerfile, config) == []


# a prose line above a `docker run` saying it maps ports, where neither the command nor the image has any
# (modelled on a document-QA image whose start script runs an interactive CLI, and on a speech-to-text
# worker run from the shell)
QA_DOCKERFILE = (
    "FROM pytorch/pytorch:2.0.1-cuda11.7-cudnn8-devel\nWORKDIR /workspace\nCOPY start.sh .\n"
    'CMD ["bash", "start.sh"]\n'
)
QA_README = (
    "## 使用\n\n"
    "运行如下命令启动镜像，注意需要挂载GPU、模型、文档目录并进行端口映射（如有需要也可挂载缓存目录）：\n\n"
    "```bash\ndocker run -it --rm --gpus all -v /path/to/model:/workspace/model qa-image\n```\n\n"
    "之后可以在命令行进行QA。\n"
)
WORKER_README = (
    "# Whisper worker\n\nStart the worker with the port mapping set up:\n\n"
    "```sh\ndocker run -it --rm \\\n  -v $PWD/audio:/audio \\\n  whisper-worker\n```\n"
)


def _mapped(
    tmp_path: Path, readme: str, dockerfile: str = QA_DOCKERFILE, files: dict[str, str] | None = None
) -> list[str]:
    make_tree(tmp_path, {"README.md": readme, "Dockerfile": dockerfile, **(files or {})})
    models = [build_model(tmp_path / "Dockerfile", "Dockerfile")]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, tmp_path)
        if "port mapping" in d.message
    ]


def test_a_port_mapping_said_of_a_run_that_maps_none(tmp_path: Path) -> None:
    assert _mapped(tmp_path, QA_README) == [
        "3: README says the command below sets up a port mapping (端口映射), but the docker run it gives "
        "(line 6) publishes no port (no -p, -P or --network) and Dockerfile exposes none (no EXPOSE): no "
        "port of the container is mapped or declared (likely)"
    ]
    assert [f.split(":", 1)[0] for f in _mapped(tmp_path / "w", WORKER_README)] == ["3"]


@pytest.mark.parametrize(
    ("readme", "dockerfile", "files"),
    [
        # the run publishes a port
        (QA_README.replace("--rm ", "--rm -p 8001:8001 "), QA_DOCKERFILE, {}),
        # the image declares one: the reader may be meant to add -p
        (QA_README, QA_DOCKERFILE + "EXPOSE 8001\n", {}),
        # negated
        (
            WORKER_README.replace("with the port mapping set up", "(no port mapping needed)"),
            QA_DOCKERFILE,
            {},
        ),
        # a condition
        (WORKER_README.replace("with the port mapping", "if you want the port mapping"), QA_DOCKERFILE, {}),
        # a compose file beside it
        (WORKER_README, QA_DOCKERFILE, {"compose.yaml": "services:\n  w:\n    build: .\n"}),
        # the words under another block, not over this one
        (
            "# Worker\n\nPort mapping is described below.\n\nSome text.\n\n"
            "```sh\ndocker run -it worker\n```\n",
            QA_DOCKERFILE,
            {},
        ),
    ],
)
def test_port_mapping_traps(tmp_path: Path, readme: str, dockerfile: str, files: dict[str, str]) -> None:
    assert _mapped(tmp_path, readme, dockerfile, files) == []


def test_a_code_span_command_is_introduced_by_its_own_line(tmp_path: Path) -> None:
    """A whole `docker run` in a code span is read with its own line: the line above it is another
    paragraph's, and the span's line may say the mapping itself."""
    above = "# Worker\n\nRun it with the port mapping set up.\n\nThen: `docker run -it --rm worker`\n"
    assert _mapped(tmp_path, above) == []
    own = "# Worker\n\nStart it with port mapping: `docker run -it --rm worker`\n"
    assert _mapped(tmp_path / "own", own) == [
        "3: README says the command sets up a port mapping (port mapping), but the docker run it gives "
        "(line 3) publishes no port (no -p, -P or --network) and Dockerfile exposes none (no EXPOSE): no "
        "port of the container is mapped or declared (likely)"
    ]
