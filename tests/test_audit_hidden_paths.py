"""`docgen.audit.hidden_paths`: a README's `docker run -v $(pwd):/app` that hides what a RUN of the image
made below /app (a virtual environment, `node_modules`, a build folder, a download) while the container's
command uses it and the folder the README runs from lacks it. Planted drifts and the nearest right runs
as traps; the READMEs and Dockerfiles are small models written for these tests (a training job in a
virtual environment, a Vite dev server, a CMake solver, a model server with cloned weights).
"""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit
from docgen.audit.hidden_paths import BUILD, DOWNLOAD, NODE, VENV, Made, image_made


def _audit(tmp_path: Path, readme: str, dockerfile: str, files: dict[str, str] | None = None) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile, "README.md": readme, **(files or {})})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "whose bind over" in d.message]


TRAINER = """\
FROM python:3.12-slim
WORKDIR /srv
COPY . .
RUN python3 -m venv labenv && \\
    . labenv/bin/activate && \\
    pip install -r requirements.txt
CMD ["/bin/bash", "-c", "source labenv/bin/activate && python fit.py configs/base.json"]
"""
TRAINER_FILES = {"fit.py": "print(1)\n", "requirements.txt": "numpy\n", "configs/base.json": "{}\n"}


def _runs(*commands: str) -> str:
    body = "\n".join(commands)
    return f"# Trainer\n\n```bash\ndocker build -t lab/trainer .\n```\n\nRun it:\n\n```bash\n{body}\n```\n"


def test_a_virtual_environment_the_default_command_activates(tmp_path: Path) -> None:
    readme = _runs("docker run --rm --gpus all -v $(pwd):/srv lab/trainer")
    assert _audit(tmp_path, readme, TRAINER, TRAINER_FILES) == [
        "10: README runs lab/trainer with `-v $(pwd):/srv`, whose bind over /srv hides /srv/labenv, the "
        "virtual environment Dockerfile:4 makes: its default command (Dockerfile:7) uses it "
        "(`labenv/bin/activate`) and the folder the README runs from holds no labenv, so the command fails "
        "(likely)"
    ]


def test_in_a_git_checkout_the_repository_cannot_hold_it(tmp_path: Path) -> None:
    readme = _runs('docker run --rm --mount type=bind,source="$(pwd)",target=/srv lab/trainer')
    found = _audit(tmp_path, readme, TRAINER, {**TRAINER_FILES, ".git/HEAD": "ref: refs/heads/main\n"})
    assert [f.rsplit(" ", 1)[1] for f in found] == ["(certain)"]


def test_the_run_s_own_command_activating_it(tmp_path: Path) -> None:
    readme = _runs(
        'docker run -it -v "$PWD":/srv lab/trainer bash -c "source labenv/bin/activate && python fit.py"'
    )
    assert len(_audit(tmp_path, readme, TRAINER, TRAINER_FILES)) == 1


def test_a_run_whose_command_does_not_use_it(tmp_path: Path) -> None:
    # (a shell: what the reader types in it is not read; the image sets no PATH into the environment)
    readme = _runs("docker run -it -v $(pwd):/srv lab/trainer bash")
    assert _audit(tmp_path, readme, TRAINER, TRAINER_FILES) == []


def test_the_host_folder_holds_its_own_environment(tmp_path: Path) -> None:
    readme = _runs("docker run --rm -v $(pwd):/srv lab/trainer")
    files = {**TRAINER_FILES, "labenv/bin/activate": "# venv\n"}
    assert _audit(tmp_path, readme, TRAINER, files) == []


def test_the_readme_makes_the_environment_in_the_mounted_folder(tmp_path: Path) -> None:
    readme = _runs(
        "python3 -m venv labenv && labenv/bin/pip install -r requirements.txt",
        "docker run --rm -v $(pwd):/srv lab/trainer",
    )
    assert _audit(tmp_path, readme, TRAINER, TRAINER_FILES) == []


def test_a_mount_elsewhere_or_of_a_folder_below(tmp_path: Path) -> None:
    readme = _runs(
        "docker run --rm -v $(pwd):/workspace lab/trainer",
        "docker run --rm -v $(pwd)/configs:/srv/configs lab/trainer",
        "docker run --rm -v $(pwd)/outputs:/srv/labenv/outputs lab/trainer",
    )
    assert _audit(tmp_path, readme, TRAINER, TRAINER_FILES) == []


SERVER = """\
FROM python:3.11-slim
RUN python -m venv /opt/relay/.venv
ENV PATH=/opt/relay/.venv/bin:$PATH
WORKDIR /opt/relay
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY . .
CMD ["python", "serve.py"]
"""


def test_a_path_entry_in_the_hidden_environment(tmp_path: Path) -> None:
    readme = (
        "# Relay\n\n```\ndocker build -t relay .\ndocker run -p 8080:8080 -v ${PWD}:/opt/relay relay\n```\n"
    )
    files = {"serve.py": "print(1)\n", "requirements.txt": "flask\n"}
    assert _audit(tmp_path, readme, SERVER, files) == [
        "5: README runs relay with `-v ${PWD}:/opt/relay`, whose bind over /opt/relay hides "
        "/opt/relay/.venv, the virtual environment Dockerfile:2 makes: the image uses it (ENV PATH "
        "(Dockerfile:3)) and the folder the README runs from holds no .venv, so the command fails (likely)"
    ]


VITE = """\
FROM node:20-alpine
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
EXPOSE 5173
CMD ["npm", "run", "dev", "--", "--host"]
"""
VITE_FILES = {"package.json": "{}\n", "package-lock.json": "{}\n", "src/main.js": "\n"}


def _web(run: str, more: str = "") -> str:
    return f"# Shop front\n\n```sh\ndocker build -t shopfront .\n{run}\n```\n{more}"


def test_node_modules_under_the_bound_checkout(tmp_path: Path) -> None:
    found = _audit(tmp_path, _web("docker run -p 5173:5173 -v $(pwd):/app shopfront"), VITE, VITE_FILES)
    assert found == [
        "5: README runs shopfront with `-v $(pwd):/app`, whose bind over /app hides /app/node_modules, the "
        "node packages Dockerfile:4 makes: its default command (Dockerfile:7) uses it (`npm`) and the folder "
        "the README runs from holds no node_modules, so the command fails (likely)"
    ]


def test_an_anonymous_or_named_volume_keeps_the_image_s_node_modules(tmp_path: Path) -> None:
    # docker fills an empty volume with what the image holds at its target
    runs = (
        "docker run -p 5173:5173 -v $(pwd):/app -v /app/node_modules shopfront\n"
        "docker run -p 5173:5173 -v $(pwd):/app -v shop_modules:/app/node_modules shopfront"
    )
    assert _audit(tmp_path, _web(runs), VITE, VITE_FILES) == []


def test_node_modules_installed_on_the_host_or_in_the_container(tmp_path: Path) -> None:
    local = "\n## Local\n\n```sh\nnpm install\nnpm run dev\n```\n"
    assert _audit(tmp_path, _web("docker run -v $(pwd):/app shopfront", local), VITE, VITE_FILES) == []
    inside = _web("docker run -it -v $(pwd):/app shopfront sh", "\n```sh\nnpm install && npm run dev\n```\n")
    assert _audit(tmp_path, inside, VITE, VITE_FILES) == []


SOLVER = """\
FROM ubuntu:24.04
RUN apt-get update && apt-get install -y cmake g++
WORKDIR /src
COPY . .
RUN mkdir -p out && cd out && cmake .. && make -j4
CMD ["./out/heatsolver", "--case", "cases/plate.toml"]
"""


def test_a_build_folder_the_command_runs_a_program_from(tmp_path: Path) -> None:
    readme = "# Heat solver\n\n```\ndocker build -t heat .\ndocker run --rm -v `pwd`:/src heat\n```\n"
    files = {"CMakeLists.txt": "project(h)\n", "cases/plate.toml": "\n"}
    found = _audit(tmp_path, readme, SOLVER, files)
    assert [f.split(",")[0:2] for f in found] == [
        ["5: README runs heat with `-v `pwd`:/src`", " whose bind over /src hides /src/out"]
    ]
    assert found[0].endswith("(likely)")


def test_a_build_folder_the_readme_builds_first(tmp_path: Path) -> None:
    readme = (
        "# Heat solver\n\n```\ncmake -B out && cmake --build out\n```\n\n"
        "```\ndocker build -t heat .\ndocker run --rm -v `pwd`:/src heat\n```\n"
    )
    assert _audit(tmp_path, readme, SOLVER, {"CMakeLists.txt": "project(h)\n"}) == []


WEIGHTS = """\
FROM python:3.10
WORKDIR /data
RUN mkdir -p /data/models && \\
    git clone https://example.org/acme/tiny-asr.git /data/models/tiny
ENTRYPOINT ["python3", "-m", "asr_server", "--data-dir", "/data"]
"""


def test_a_download_below_a_folder_the_command_only_names(tmp_path: Path) -> None:
    # the server is given /data, the mount itself: it may fetch its model again there
    readme = "# ASR\n\n```\ndocker build -t asr .\ndocker run -v .:/data asr\n```\n"
    assert _audit(tmp_path, readme, WEIGHTS, {}) == []
    pointed = WEIGHTS.replace('"--data-dir", "/data"', '"--model", "/data/models/tiny"')
    found = _audit(tmp_path, readme, pointed, {})
    assert len(found) == 1 and "hides /data/models/tiny, the download Dockerfile:3 makes" in found[0]
    told = readme + "\nPut the model in `models/tiny` first.\n"
    assert _audit(tmp_path, told, pointed, {}) == []


def test_image_made_reads_each_run_from_its_folder(tmp_path: Path) -> None:
    dockerfile = (
        "FROM node:20 AS web\nWORKDIR /ui\nRUN npm install -g pnpm && pnpm install\n"
        "FROM python:3.12\nWORKDIR /app\nRUN uv venv && cd tools && virtualenv --prompt t env\n"
        "RUN cargo build --release && go build -o bin/cli ./cmd\n"
        "RUN wget -q -O weights.bin https://example.org/w && curl -L -o /opt/x.tgz https://example.org/x\n"
        "RUN npm install --global yarn && conda create -y -p /opt/env python=3.11\n"
        "RUN git clone --depth 1 -b v2 https://x.org/acme/pose.git && git clone -q https://x.org/a/b.git c\n"
    )
    make_tree(tmp_path, {"Dockerfile": dockerfile})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    assert image_made(model) == (
        Made("/app/.venv", VENV, 6),
        Made("/app/tools/env", VENV, 6),
        Made("/app/target", BUILD, 7),
        Made("/app/bin/cli", BUILD, 7),
        Made("/app/weights.bin", DOWNLOAD, 8),
        Made("/opt/x.tgz", DOWNLOAD, 8),
        Made("/opt/env", VENV, 9),
        Made("/app/pose", DOWNLOAD, 10),
        Made("/app/c", DOWNLOAD, 10),
    )
    # (the first stage's pnpm install is not the target's; a global install makes no node_modules)
    make_tree(
        tmp_path, {"Dockerfile": "FROM node:20\nWORKDIR /ui\nRUN npm i -g pnpm && cd web && pnpm install\n"}
    )
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    assert image_made(model) == (Made("/ui/web/node_modules", NODE, 3),)


COMPOSE = """\
services:
  web:
    build: .
    ports:
      - "5173:5173"
    volumes:
      - .:/app
{more}"""


def test_a_compose_service_binding_the_folder_over_its_node_modules(tmp_path: Path) -> None:
    readme = "# Shop front\n\n```sh\ndocker compose up --build\n```\n"
    files = {**VITE_FILES, "compose.yaml": COMPOSE.format(more="")}
    assert _audit(tmp_path, readme, VITE, files) == [
        "4: README runs service web with `.:/app` (compose.yaml), whose bind over /app hides "
        "/app/node_modules, the node packages Dockerfile:4 makes: its default command (Dockerfile:7) uses it "
        "(`npm`) and the folder the README runs from holds no node_modules, so the command fails (likely)"
    ]


def test_a_compose_service_keeping_node_modules_in_a_volume(tmp_path: Path) -> None:
    readme = "# Shop front\n\n```sh\ndocker compose up --build\n```\n"
    kept = COMPOSE.format(more="      - /app/node_modules\n")
    assert _audit(tmp_path, readme, VITE, {**VITE_FILES, "compose.yaml": kept}) == []
    named = COMPOSE.format(more="      - modules:/app/node_modules\nvolumes:\n  modules:\n")
    assert _audit(tmp_path, readme, VITE, {**VITE_FILES, "compose.yaml": named}) == []


SHELL_IMAGE = TRAINER.replace(
    'CMD ["/bin/bash", "-c", "source labenv/bin/activate && python fit.py configs/base.json"]', 'CMD ["bash"]'
)


def test_commands_typed_in_the_container_the_run_opens(tmp_path: Path) -> None:
    readme = (
        _runs("docker run -it --rm -v $(pwd):/srv lab/trainer")
        + "\nInside the container:\n\n```bash\nsource /srv/labenv/bin/activate\npython fit.py\n```\n"
    )
    found = _audit(tmp_path, readme, SHELL_IMAGE, TRAINER_FILES)
    assert len(found) == 1 and "the README's commands in the container use it (`/srv/labenv" in found[0]
    # a detached run types nothing in the container
    detached = readme.replace("-it --rm", "-d")
    assert _audit(tmp_path, detached, SHELL_IMAGE, TRAINER_FILES) == []


def test_node_started_beside_its_hidden_packages(tmp_path: Path) -> None:
    dockerfile = (
        "FROM node:22-slim\nWORKDIR /api\nCOPY package*.json ./\nRUN npm install --omit=dev\nCOPY . .\n"
    )
    readme = (
        "# Orders\n\n```\ndocker build -t orders .\ndocker run -v $(pwd):/api orders node server.js\n```\n"
    )
    found = _audit(tmp_path, readme, dockerfile + 'CMD ["node", "server.js"]\n', {"package.json": "{}\n"})
    assert len(found) == 1 and "its command uses it (`node`)" in found[0]
    # (started in another folder: the packages it needs are not those)
    elsewhere = readme.replace("orders node server.js", "orders sh -c 'cd /srv && node x.js'")
    assert _audit(tmp_path, elsewhere, dockerfile, {"package.json": "{}\n"}) == []


def test_a_folder_the_readme_enters_holds_it(tmp_path: Path) -> None:
    readme = _web("cd web\ndocker run -p 5173:5173 -v $(pwd):/app shopfront")
    files = {**VITE_FILES, "web/node_modules/vite/package.json": "{}\n"}
    assert _audit(tmp_path, readme, VITE, files) == []


def test_a_command_that_installs_the_packages_again_at_start(tmp_path: Path) -> None:
    files = {
        **VITE_FILES,
        "compose.yaml": COMPOSE.format(more='    command: sh -c "npm ci && npm run dev"\n'),
    }
    readme = "# Shop front\n\n```sh\ndocker compose up --build\n```\n"
    assert _audit(tmp_path, readme, VITE, files) == []
    restart = VITE.replace('CMD ["npm", "run", "dev", "--", "--host"]', "CMD npm install && npm run dev")
    assert _audit(tmp_path, _web("docker run -v $(pwd):/app shopfront"), restart, VITE_FILES) == []
