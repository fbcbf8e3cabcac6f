"""`docgen.audit.compose_paths`: a compose file the README starts (its compose commands, after a `cd`;
the recipe of a `make` target it runs) whose `include:` names a file that is not there, or whose service
bind-mounts a configuration file nothing makes. Traps: a folder the application makes, a file the README
tells to create, a twin to copy, a `.gitignore`d file, a service with profiles, a compose file the README
never starts, a mount read through a variable."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.audit.compose_paths import started_compose
from docgen.markdown import read_document

pytest.importorskip("yaml")

MAKEFILE = """\
.PHONY: up-proxy up-rag

env-check:
\t@test -f .env

up-proxy: env-check ## Start the proxy
\tcd proxy && docker compose up -d && cd ..

up-rag:
\t@cd rag && docker compose up -d

down-rag:
\tcd rag && docker compose down
"""
PROXY = """\
services:
  proxy:
    image: ghcr.io/example/proxy:1.2
    volumes:
      - ./data:/app/data
      - ./logs:/var/log/proxy
  grafana:
    image: grafana/grafana
    volumes:
      - ./grafana.ini:/etc/grafana/grafana.ini
  debug:
    image: busybox
    profiles: [debug]
    volumes:
      - ./debug.conf:/etc/debug.conf
"""
RAG = "include:\n  - ./compose-base.yml\nservices:\n  rag:\n    image: example/rag:0.9\n"
README = """\
# LLM stack

| Service | Port |
|---|---|
| Proxy | 4000 |
| Grafana | 3000 |

```bash
make up-proxy
make up-rag
```
"""


def found(root: Path, readme: str, files: dict[str, str | None]) -> list[str]:
    make_tree(root, {"README.md": readme, **{k: v for k, v in files.items() if v is not None}})
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [], {}, root, root)
        if "includes" in d.message or "bind-mounts" in d.message
    ]


def test_make_targets_start_compose_files_that_lack_what_they_read(tmp_path: Path) -> None:
    # a model-serving stack: each make target enters a folder and starts its compose file
    files = {"Makefile": MAKEFILE, "proxy/docker-compose.yml": PROXY, "rag/docker-compose.yml": RAG}
    assert found(tmp_path, README, files) == [
        "6: README runs make up-proxy, whose recipe (Makefile:7) runs docker compose up in proxy "
        "(proxy/docker-compose.yml, line 9), whose service grafana bind-mounts ./grafana.ini onto "
        "/etc/grafana/grafana.ini (proxy/docker-compose.yml:10), but ./grafana.ini does not exist and "
        "nothing makes it: Docker creates an empty folder in its place, and the service cannot read its "
        "configuration (certain)",
        "10: README runs make up-rag, whose recipe (Makefile:10) runs docker compose up in rag, but "
        "rag/docker-compose.yml:2 includes ./compose-base.yml, which does not exist: compose stops while "
        "loading the file, before it starts any service (certain)",
    ]


@pytest.mark.parametrize(
    ("extra", "readme"),
    [
        ({"proxy/grafana.ini": "[server]\n", "rag/compose-base.yml": "services: {}\n"}, README),
        ({"proxy/grafana.ini.example": "[server]\n", "rag/compose-base.yml": "services: {}\n"}, README),
        ({"proxy/.gitignore": "grafana.ini\n", "rag/compose-base.yml": "services: {}\n"}, README),
        # a setup script beside the compose file writes it
        (
            {"proxy/setup.sh": "cp defaults.ini grafana.ini\n", "rag/compose-base.yml": "services: {}\n"},
            README,
        ),
        # the README tells the reader to write it
        (
            {"rag/compose-base.yml": "services: {}\n"},
            README + "\nWrite your settings to `proxy/grafana.ini`.\n",
        ),
    ],
)
def test_files_that_are_there_or_that_the_reader_makes(
    tmp_path: Path, extra: dict[str, str | None], readme: str
) -> None:
    files: dict[str, str | None] = {
        "Makefile": MAKEFILE,
        "proxy/docker-compose.yml": PROXY,
        "rag/docker-compose.yml": RAG,
        **extra,
    }
    assert found(tmp_path, readme, files) == []


def test_compose_files_the_readme_never_starts(tmp_path: Path) -> None:
    # `make down-rag` stops, it does not load an include; the proxy's file is never started
    readme = "# Stack\n\n```sh\nmake down-rag\n```\n"
    files: dict[str, str | None] = {
        "Makefile": MAKEFILE,
        "proxy/docker-compose.yml": PROXY,
        "rag/docker-compose.yml": RAG,
    }
    assert found(tmp_path, readme, files) == []


def test_a_compose_command_after_a_cd(tmp_path: Path) -> None:
    # a monitoring README: `cd deploy` then `docker compose -f monitoring.yml up`; a variable mount is
    # not read, a folder mount is the application's
    compose = (
        "services:\n  prometheus:\n    image: prom/prometheus\n    volumes:\n"
        "      - ./prometheus.yml:/etc/prometheus/prometheus.yml:ro\n"
        "      - ${RULES:-./rules.yml}:/etc/prometheus/rules.yml\n"
        "      - ./prom-data:/prometheus\n"
    )
    readme = "# Monitoring\n\n```bash\ncd deploy\ndocker compose -f monitoring.yml up -d\n```\n"
    assert found(tmp_path, readme, {"deploy/monitoring.yml": compose}) == [
        "5: README runs docker compose up (deploy/monitoring.yml), whose service prometheus bind-mounts "
        "./prometheus.yml onto /etc/prometheus/prometheus.yml (deploy/monitoring.yml:5), but "
        "./prometheus.yml does not exist and nothing makes it: Docker creates an empty folder in its "
        "place, and the service cannot read its configuration (certain)"
    ]


def test_started_files(tmp_path: Path) -> None:
    make_tree(
        tmp_path, {"Makefile": MAKEFILE, "proxy/docker-compose.yml": PROXY, "rag/docker-compose.yml": RAG}
    )
    started = started_compose(read_document(README, "README.md"), tmp_path, tmp_path)
    assert [(s.shown, s.line) for s in started] == [
        ("proxy/docker-compose.yml", 9),
        ("rag/docker-compose.yml", 10),
    ]
    # a `cd` that cannot be followed leaves the block's later commands unread
    blocked = "```sh\ncd $STACK\ndocker compose up\n```\n"
    make_tree(tmp_path, {"docker-compose.yml": "services: {}\n"})
    assert started_compose(read_document(blocked, "README.md"), tmp_path, tmp_path) == []


def test_names_no_file_can_have(tmp_path: Path) -> None:
    # a NUL (a YAML escape) or an overlong name in a mount or an include: no file, and no error
    mounts = (
        "services:\n  app:\n    image: nginx\n    volumes:\n"
        '      - "./a\\0b.conf:/etc/nginx/a.conf"\n'
        f'      - "./{"x" * 300}.conf:/etc/nginx/b.conf"\n'
    )
    readme = "# App\n\n```sh\ndocker compose up -d\n```\n"
    included = found(tmp_path / "one", readme, {"compose.yaml": 'include:\n  - "./base\\0.yml"\n' + mounts})
    assert len(included) == 1 and "includes ./base" in included[0]
    mounted = found(tmp_path / "two", readme, {"compose.yaml": mounts})
    assert [m.split(" bind-mounts ")[1][:6] for m in mounted] == ["./xxxx"]  # (a NUL is in no file's name)


def findings(root: Path, readme: str, files: dict[str, str], words: str) -> list[str]:
    make_tree(root, {"README.md": readme, **files})
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [], {}, root, root)
        if words in d.message
    ]


# a model-serving stack: the analyzer's script lives in workspace/, the compose file binds it from the root
ANALYZER_COMPOSE = """\
services:
  analyzer:
    image: nvcr.io/nvidia/tritonserver:23.05-py3-sdk
    entrypoint: ["bash", "/tmp/analyze.sh"]
    volumes:
      - type: bind
        source: data/models
        target: /models
      - type: volume
        source: cache
        target: /cache
      - type: bind
        source: analyze.sh
        target: /tmp/analyze.sh
  server:
    image: nvcr.io/nvidia/tritonserver:23.05-py3
volumes:
  cache:
"""
ANALYZER_README = "# Triton\n\nProfile the models:\n\n```sh\ndocker compose up analyzer\n```\n"
# a web app whose long-syntax bind names ./config/app.toml while the file sits in conf/
WEB_COMPOSE = """\
services:
  web:
    build: .
    volumes:
      - type: bind
        source: ./config/app.toml
        target: /etc/app/app.toml
"""
WEB_README = "# Web\n\n```\ndocker compose up -d\n```\n"


def test_a_long_syntax_bind_of_a_file_that_sits_elsewhere(tmp_path: Path) -> None:
    files = {"docker-compose.yml": ANALYZER_COMPOSE, "workspace/analyze.sh": "model-analyzer profile\n"}
    assert findings(tmp_path, ANALYZER_README, files, "bind source path") == [
        "6: README runs docker compose up, whose service analyzer bind-mounts analyze.sh onto "
        "/tmp/analyze.sh (docker-compose.yml:13), but analyze.sh does not exist beside docker-compose.yml "
        '(the file is workspace/analyze.sh): compose stops with "bind source path does not exist" (certain)'
    ]
    files = {"docker-compose.yml": WEB_COMPOSE, "Dockerfile": "FROM nginx\n", "conf/app.toml": "x = 1\n"}
    [finding] = findings(tmp_path / "web", WEB_README, files, "bind source path")
    assert "bind-mounts ./config/app.toml" in finding and "(the file is conf/app.toml)" in finding
    # the short syntax's rule does not tell it again
    assert findings(tmp_path / "web", WEB_README, files, "empty folder") == []


@pytest.mark.parametrize(
    ("files", "readme"),
    [
        # the file is where the compose file binds it
        ({"analyze.sh": "x\n", "workspace/analyze.sh": "x\n"}, ANALYZER_README),
        # no file of that name anywhere: the workflow may make it (data/models too)
        ({}, ANALYZER_README),
        # the README tells the reader to put it there
        (
            {"workspace/analyze.sh": "x\n"},
            ANALYZER_README + "\nFirst `cp workspace/analyze.sh analyze.sh`.\n",
        ),
        # the service is not started
        ({"workspace/analyze.sh": "x\n"}, ANALYZER_README.replace("up analyzer", "up server")),
    ],
)
def test_long_binds_that_are_there_or_made(tmp_path: Path, files: dict[str, str], readme: str) -> None:
    files = {"docker-compose.yml": ANALYZER_COMPOSE, **files}
    assert findings(tmp_path, readme, files, "bind source path") == []


# a notebook stack whose environment is a list of mappings
NOTEBOOK_COMPOSE = """\
services:
  lab:
    image: quay.io/jupyter/scipy-notebook:2024-05-27
    ports:
      - 8888:8888
      - target: 6006
        published: 6006
    volumes:
      - ./work:/home/jovyan/work
    environment:
      - GRANT_SUDO: "yes"
      - NB_UID: 1000
"""
NOTEBOOK_README = "# Lab\n\n```bash\ndocker compose up -d\n```\n"


def test_a_service_key_of_a_shape_compose_refuses(tmp_path: Path) -> None:
    assert findings(tmp_path, NOTEBOOK_README, {"compose.yaml": NOTEBOOK_COMPOSE}, "refuses") == [
        "4: README runs docker compose up, but the environment: of service lab (compose.yaml:11) is not a "
        "mapping (NAME: value) or a list of NAME=value strings: compose refuses the file while loading it, "
        "before it starts any service (certain)"
    ]
    # a monitoring stack whose ports are a mapping, not a list
    compose = "services:\n  grafana:\n    image: grafana/grafana\n    ports:\n      3000: 3000\n"
    [finding] = findings(
        tmp_path / "m", "# M\n\n```\ndocker compose up\n```\n", {"compose.yml": compose}, "refuses"
    )
    assert "the ports: of service grafana (compose.yml:4) is not a list of ports" in finding


@pytest.mark.parametrize(
    "environment",
    [
        '    environment:\n      GRANT_SUDO: "yes"\n      NB_UID: 1000\n',
        "    environment:\n      - GRANT_SUDO=yes\n      - NB_UID\n",
        "",
    ],
)
def test_service_keys_compose_takes(tmp_path: Path, environment: str) -> None:
    compose = NOTEBOOK_COMPOSE.split("    environment:")[0] + environment
    assert findings(tmp_path, NOTEBOOK_README, {"compose.yaml": compose}, "refuses") == []


# a llama.cpp runner: the compose file (in docker/) mounts ../app at /app and starts in /app
LLAMA_COMPOSE = """\
services:
  llama:
    build:
      context: ..
      dockerfile: docker/Dockerfile
    volumes:
      - ../app:/app
      - ../models:/models
    working_dir: /app
"""
LLAMA_README = "# Llama\n\n```bash\ncd docker\ndocker compose run --rm llama python app/chat.py --n 4\n```\n"
# a node worker whose compose file sits beside the README
NODE_COMPOSE = (
    "services:\n  worker:\n    image: node:20\n    volumes:\n      - ./src:/srv\n    working_dir: /srv\n"
)
NODE_README = "# Worker\n\n```\ndocker compose run worker node src/jobs/send.js\n```\n"


def test_a_run_whose_path_doubles_the_mounted_folder(tmp_path: Path) -> None:
    files = {"docker/docker-compose.yml": LLAMA_COMPOSE, "docker/Dockerfile": "FROM python:3.11\n"}
    files["app/chat.py"] = "print('hi')\n"
    assert findings(tmp_path, LLAMA_README, files, "does not hold") == [
        "5: README runs docker compose run llama … app/chat.py, but the service starts in /app "
        "(docker/docker-compose.yml:9), where it mounts ../app at /app: app/chat.py is /app/app/chat.py, "
        "which ../app does not hold; the file is /app/chat.py (certain)"
    ]
    files = {"compose.yaml": NODE_COMPOSE, "src/jobs/send.js": "//\n"}
    [finding] = findings(tmp_path / "node", NODE_README, files, "does not hold")
    assert (
        "src/jobs/send.js is /srv/src/jobs/send.js" in finding and "the file is /srv/jobs/send.js" in finding
    )


@pytest.mark.parametrize(
    ("readme", "extra"),
    [
        # the path read from the working folder
        (LLAMA_README.replace("app/chat.py", "chat.py"), {}),
        # the file is there at the doubled path too
        (LLAMA_README, {"app/app/chat.py": "x\n"}),
        # no file of that name in the mounted folder at all (made at run time, or another file)
        (LLAMA_README.replace("app/chat.py", "app/other.py"), {}),
        # a module, not a file
        (LLAMA_README.replace("app/chat.py", "-m app.chat"), {}),
    ],
)
def test_runs_whose_path_is_right_or_unknown(tmp_path: Path, readme: str, extra: dict[str, str]) -> None:
    files = {"docker/docker-compose.yml": LLAMA_COMPOSE, "app/chat.py": "x\n", **extra}
    assert findings(tmp_path, readme, files, "does not hold") == []


# a GPU notebook stack: the README says its Dockerfile adds packages, the compose file runs the base image
GPU_COMPOSE = """\
services:
  notebook:
    image: cschranz/gpu-jupyter:v1.5_cuda-11.6_ubuntu-20.04
    volumes:
      - ~/data/notebook:/home/jovyan
"""
GPU_README = """\
# Notebook

```bash
./create_dirs.sh
docker compose up -d
```

- `notebook/Dockerfile`: adds some packages on top of the gpu-jupyter image.
"""
GPU_DOCKERFILE = "FROM cschranz/gpu-jupyter:v1.9_cuda-12.6_ubuntu-24.04\nRUN pip install opencv-python\n"


def test_a_dockerfile_the_compose_file_never_builds(tmp_path: Path) -> None:
    files = {
        "compose.yaml": GPU_COMPOSE,
        "notebook/Dockerfile": GPU_DOCKERFILE,
        "create_dirs.sh": "mkdir -p ~/data/notebook\n",
    }
    assert findings(tmp_path, GPU_README, files, "never builds") == [
        "8: README names notebook/Dockerfile, built FROM cschranz/gpu-jupyter:v1.9_cuda-12.6_ubuntu-24.04, "
        "but the compose file it starts never builds it: service notebook runs "
        "cschranz/gpu-jupyter:v1.5_cuda-11.6_ubuntu-20.04 (compose.yaml:3) with no build:, so what "
        "notebook/Dockerfile adds is not in the running image (likely)"
    ]


@pytest.mark.parametrize(
    ("compose", "readme", "script"),
    [
        # image: and build: together: compose builds the Dockerfile and names the image so
        (
            GPU_COMPOSE.replace("    image:", "    build: notebook\n    image:"),
            GPU_README,
            "mkdir -p ~/data/notebook\n",
        ),
        # the README builds it itself
        (GPU_COMPOSE, GPU_README.replace("./create_dirs.sh", "docker build -t lab notebook"), ""),
        # the setup script builds it
        (
            GPU_COMPOSE,
            GPU_README,
            "docker build -t cschranz/gpu-jupyter:v1.5_cuda-11.6_ubuntu-20.04 notebook\n",
        ),
        # the Dockerfile starts from another image than the service runs
        (GPU_COMPOSE.replace("cschranz/gpu-jupyter", "jupyter/base-notebook"), GPU_README, ""),
    ],
)
def test_dockerfiles_that_are_built(tmp_path: Path, compose: str, readme: str, script: str) -> None:
    files = {"compose.yaml": compose, "notebook/Dockerfile": GPU_DOCKERFILE, "create_dirs.sh": script}
    assert findings(tmp_path, readme, files, "never builds") == []


def test_a_setup_script_makes_another_folder_than_the_one_mounted(tmp_path: Path) -> None:
    files = {"compose.yaml": GPU_COMPOSE, "create_dirs.sh": "# data\nmkdir -p ~/data/notebooks ~/data/logs\n"}
    assert findings(tmp_path, GPU_README, files, "nothing makes:") == [
        "4: README runs ./create_dirs.sh, which makes ~/data/notebooks (create_dirs.sh:2), but the compose "
        "file it starts mounts ~/data/notebook (compose.yaml:5), which nothing makes: Docker creates it "
        "empty, and ~/data/notebooks is not what the container sees (likely)"
    ]
    # a media server: $HOME in the script, an absolute folder in the compose file
    compose = (
        "services:\n  media:\n    image: jellyfin/jellyfin\n    volumes:\n      - /srv/media/film:/media\n"
    )
    files = {"compose.yaml": compose, "setup.sh": "sudo mkdir -p /srv/media/films\n"}
    readme = "# Media\n\n```\nbash setup.sh\ndocker compose up -d\n```\n"
    [finding] = findings(tmp_path / "media", readme, files, "nothing makes:")
    assert "makes /srv/media/films (setup.sh:1)" in finding and "mounts /srv/media/film" in finding


@pytest.mark.parametrize(
    ("script", "readme"),
    [
        # the script makes the mounted folder (and one more)
        ("mkdir -p ~/data/notebook ~/data/cache\n", GPU_README),
        ("mkdir -p $HOME/data/notebook/work\n", GPU_README),
        # a folder elsewhere: not beside the mount
        ("mkdir -p ~/models\n", GPU_README),
        # the README names the mounted folder (it tells the reader to make it)
        ("mkdir -p ~/data/notebooks\n", GPU_README + "\nCreate `~/data/notebook` for the notebooks.\n"),
    ],
)
def test_setup_scripts_that_make_what_is_mounted(tmp_path: Path, script: str, readme: str) -> None:
    files = {"compose.yaml": GPU_COMPOSE, "create_dirs.sh": script}
    assert findings(tmp_path, readme, files, "nothing makes:") == []


# an image-generation web UI: its GPU reservation names the driver and a count but no capabilities
DEVICES_COMPOSE = """\
services:
  webui:
    build:
      context: ./docker
    ports:
      - "7860:7860"
    deploy:
      resources:
        reservations:
          devices:
            - driver: nvidia
              count: all
"""
DEVICES_README = (
    "# Web UI\n\nNeeds docker with the nvidia runtime.\n\n```\ndocker compose up --build -d\n```\n"
)


def test_a_gpu_reservation_without_capabilities(tmp_path: Path) -> None:
    assert findings(tmp_path, DEVICES_README, {"docker-compose.yml": DEVICES_COMPOSE}, "refuses") == [
        "6: README runs docker compose up, but the deploy.resources.reservations.devices: of service webui "
        "(docker-compose.yml:11) is not a list of device requests each with capabilities: (such as [gpu]): "
        "compose refuses the file while loading it, before it starts any service (certain)"
    ]
    # a speech model server reserving one card by id, also without capabilities
    compose = DEVICES_COMPOSE.replace("count: all", 'device_ids: ["0"]').replace("webui", "whisper")
    [finding] = findings(tmp_path / "w", DEVICES_README, {"compose.yaml": compose}, "refuses")
    assert "reservations.devices: of service whisper (compose.yaml:11)" in finding


@pytest.mark.parametrize(
    "gpu",
    [
        "    deploy:\n      resources:\n        reservations:\n          devices:\n"
        "            - driver: nvidia\n              count: 1\n              capabilities: [gpu]\n",
        "    gpus: all\n",
        "    runtime: nvidia\n",
        "    deploy:\n      resources:\n        limits:\n          memory: 8g\n",
    ],
)
def test_gpu_requests_compose_takes(tmp_path: Path, gpu: str) -> None:
    compose = DEVICES_COMPOSE.split("    deploy:")[0] + gpu
    assert findings(tmp_path, DEVICES_README, {"docker-compose.yml": compose}, "refuses") == []


def test_a_gpu_reservation_of_a_compose_file_the_readme_never_starts(tmp_path: Path) -> None:
    readme = "# Web UI\n\n```\ndocker build -t webui docker\n```\n"
    assert findings(tmp_path, readme, {"docker-compose.yml": DEVICES_COMPOSE}, "refuses") == []


# a ROS runner whose service is given `name:` (a container's name is `container_name:`)
ROS_COMPOSE = """\
version: "2.3"
services:
  detector:
    name: detector_m
    build:
      context: .
    network_mode: host
    runtime: nvidia
    x-notes: kept for the lab
"""


def test_a_service_key_compose_does_not_have(tmp_path: Path) -> None:
    readme = "# Ros\n\n```sh\ndocker-compose up --build\n```\n"
    assert findings(tmp_path, readme, {"docker-compose.yml": ROS_COMPOSE}, "no compose service key") == [
        "4: README runs docker compose up, but service detector (docker-compose.yml:4) has the key name:, "
        "which is no compose service key (did you mean container_name:?): compose refuses the file while "
        "loading it (additional property name not allowed), before it starts any service (certain)"
    ]
    # a web stack with a slip of a key
    compose = "services:\n  web:\n    image: nginx\n    restrat: always\n"
    [finding] = findings(tmp_path / "w", NOTEBOOK_README, {"compose.yaml": compose}, "no compose service key")
    assert "has the key restrat:, which is no compose service key (did you mean restart:?)" in finding


@pytest.mark.parametrize(
    ("compose", "readme"),
    [
        (ROS_COMPOSE.replace("name:", "container_name:"), "# Ros\n\n```sh\ndocker-compose up\n```\n"),
        (ROS_COMPOSE, "# Ros\n\nThe compose file runs the detector.\n"),  # never started
        (
            "services:\n  web:\n    image: nginx\n    mem_limit: 1g\n    volume_driver: local\n"
            "    <<: {restart: always}\n",
            NOTEBOOK_README,
        ),
    ],
)
def test_service_keys_compose_has_or_files_not_started(tmp_path: Path, compose: str, readme: str) -> None:
    assert findings(tmp_path, readme, {"docker-compose.yml": compose}, "no compose service key") == []


def test_a_service_key_compose_does_not_have_after_a_cd_into_the_clone(tmp_path: Path) -> None:
    readme = (
        "# Ros\n\n```sh\ngit clone https://github.com/lab/detector.git\ncd detector/\n"
        "docker-compose up --build\n```\n"
    )
    [finding] = findings(tmp_path, readme, {"docker-compose.yml": ROS_COMPOSE}, "no compose service key")
    assert finding.startswith("6: README runs docker compose up, but service detector (docker-compose.yml:4)")
    # a cd into another folder than the clone is not followed to the README's file
    other = "# Ros\n\n```sh\ncd deploy/\ndocker-compose up --build\n```\n"
    assert (
        findings(tmp_path / "o", other, {"docker-compose.yml": ROS_COMPOSE}, "no compose service key") == []
    )
    # a bare `cd` (the home folder) leaves the README's folder too, and reads as no clone of it
    home = "# Ros\n\n```sh\ncd\ndocker-compose up --build\n```\n"
    assert findings(tmp_path / "h", home, {"docker-compose.yml": ROS_COMPOSE}, "no compose service key") == []
