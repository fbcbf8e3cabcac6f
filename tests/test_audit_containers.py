"""`docgen audit`: containers a README's docker commands address by a name nothing gives them
(docgen/audit/containers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM python:3.12-slim\nCOPY . /app\n"
SERVICE = "services:\n  detector:\n    build: .\n    name: detect_box\n    network_mode: host\n"


def found(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "README.md", model, {}, root, root)
        if "addresses container" in d.message
    ]


def readme(*blocks: str) -> str:
    return "# Detector\n\n" + "\n".join(f"```bash\n{block}\n```\n" for block in blocks)


def said(verb: str, name: str, hint: str = "") -> str:
    text = (
        f"README's docker {verb} addresses container {name}, which nothing it runs names so (no --name "
        f"{name}, no compose container_name: {name}): docker answers no such container"
    )
    return text + hint


def test_a_compose_name_key_that_is_no_container_name(tmp_path: Path) -> None:
    files = {
        "docker-compose.yml": SERVICE,
        "README.md": readme("docker-compose up --build", "docker exec -it detect_box bash"),
    }
    hint = (
        " (docker-compose.yml:4 sets name: detect_box inside a service, which Compose does not take for the "
        "container's name: container_name does)"
    )
    assert found(tmp_path, files) == [(8, said("exec", "detect_box", hint), "likely")]


@pytest.mark.parametrize(
    ("command", "verb"),
    [
        ("docker logs -f --tail 20 trainer_gpu", "logs"),
        ("sudo docker container attach trainer_gpu", "attach"),
        ("docker stop -t 5 trainer_gpu", "stop"),
    ],
)
def test_a_name_no_run_gives(tmp_path: Path, command: str, verb: str) -> None:
    files = {"README.md": readme("docker build -t trainer .\ndocker run -d --gpus all trainer", command)}
    assert found(tmp_path, files) == [(9, said(verb, "trainer_gpu"), "likely")]


@pytest.mark.parametrize(
    "files",
    [
        # a name the README's run gives, on the same line or another
        {"README.md": readme("docker run -d --name trainer_gpu trainer && docker exec -it trainer_gpu bash")},
        {"README.md": readme("docker run -d --name=trainer_gpu trainer", "docker logs trainer_gpu")},
        # compose: container_name, a service, Compose's own name
        {
            "compose.yaml": "services:\n  web:\n    build: .\n    container_name: trainer_gpu\n",
            "README.md": readme("docker compose up -d", "docker exec -it trainer_gpu bash"),
        },
        {
            "compose.yaml": "services:\n  web:\n    build: .\n",
            "README.md": readme("docker compose up -d", "docker exec -it detector-web-1 bash"),
        },
        # a script the README runs names it, or a Makefile, or a devcontainer
        {
            "scripts/start.sh": '#!/bin/sh\nNAME=trainer_gpu\ndocker run -d --name "$NAME" trainer\n',
            "README.md": readme(
                "./scripts/start.sh", "docker run --rm trainer true", "docker exec -it trainer_gpu sh"
            ),
        },
        {
            "Makefile": "run:\n\tdocker run -d --name trainer_gpu trainer\n",
            "README.md": readme("make run", "docker run --rm trainer true", "docker exec -it trainer_gpu sh"),
        },
        # placeholders and IDs
        {"README.md": readme("docker run -d trainer", "docker exec -it <container> bash")},
        {"README.md": readme("docker run -d trainer", "docker exec -it CONTAINER_ID bash")},
        {"README.md": readme("docker run -d trainer", "docker exec -it $NAME bash")},
        {"README.md": readme("docker run -d trainer", "docker exec -it my_container bash")},
        {"README.md": readme("docker run -d trainer", "docker logs 3f2a9c1b7d4e")},
        {"README.md": readme("docker run -d trainer", "docker exec -it 4afbed1fce bash")},
        {"README.md": readme("docker run -d trainer", "docker stop e91c07")},
        {"README.md": readme("docker run -d trainer", "docker exec -it $(docker ps -q) bash")},
        # a server the reader may run on their own
        {"README.md": readme("docker run -d trainer", "docker exec -it postgres psql -U lab")},
        # the README says the name elsewhere
        {
            "README.md": readme("docker run -d trainer")
            + "\nThe IDE starts `trainer_gpu` for you.\n\n"
            + readme("docker exec -it trainer_gpu bash")
        },
        # a README that starts no container addresses one started elsewhere
        {"README.md": readme("docker exec -it trainer_gpu bash")},
    ],
)
def test_names_something_gives_or_that_cannot_be_told(tmp_path: Path, files: dict[str, str]) -> None:
    assert found(tmp_path, files) == []


def test_a_script_linked_from_outside_the_project_names_nothing(tmp_path: Path) -> None:
    # A link to a file out of the project is not read: its `--name` is no name this project gives.
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside/start.sh").write_text("docker run --name trainer_gpu trainer\n")
    proj = tmp_path / "proj"
    files = {
        "README.md": readme(
            "docker build -t trainer .\ndocker run -d --gpus all trainer", "docker logs trainer_gpu"
        )
    }
    make_tree(proj, {"Dockerfile": APP, **files})
    (proj / "start.sh").symlink_to(tmp_path / "outside/start.sh")
    assert found(proj, files) == [(9, said("logs", "trainer_gpu"), "likely")]
    # the same file in the project names it; binary, empty and Latin-1 files beside it say nothing
    (proj / "start.sh").unlink()
    (proj / "start.sh").write_text("docker run --name trainer_gpu trainer\n")
    (proj / "blob.sh").write_bytes(b"\x00\xff\xfe\x00")
    (proj / "empty.sh").write_bytes(b"")
    (proj / "latin.sh").write_bytes(b"caf\xe9\n")
    # (the README's own detached run still gives it no name: `nameless_runs` tells that instead)
    assert [line for line, message, _ in found(proj, files) if "nothing it runs names" in message] == []
    assert [line for line, message, _ in found(proj, files) if "gives it no --name" in message] == [9]


# --------------------------------------------------------------------------------------------------
# A compose service's (or volume's) name given to docker as the container's (volume's) own

STACK = (
    "services:\n"
    "  qdrant:\n"
    "    image: qdrant/qdrant:v1.9.0\n"
    "    volumes:\n"
    "      - qdata:/qdrant/storage\n"
    "  indexer:\n"
    "    build: .\n"
    "    depends_on: [qdrant]\n"
    "volumes:\n"
    "  qdata:\n"
)
ALIASES = (
    "# vecstack helpers\n"
    'alias vup="docker compose up -d"\n'
    'alias qsh="docker exec -it qdrant /bin/sh"\n'
    "alias qsave='docker run --rm -v qdata:/data -v $(pwd):/out alpine tar czf /out/q.tgz /data'\n"
    'alias qload="docker run --rm --volumes-from vecstack_qdrant -v `pwd`:/out alpine tar xzf /out/q.tgz"\n'
)
VECSTACK = (
    "# vecstack\n\n"
    "```bash\n"
    "git clone https://github.com/example/vecstack.git\n"
    "cd vecstack\n"
    "source ./vecstack.rc\n"
    "vup\n"
    "qsh\n"
    "```\n\n"
    "Alias | What\n"
    "--- | ---\n"
    "qsave | Save the index.\n"
    "qload | Load it back.\n"
)


def compose_found(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "README.md", model, {}, root, root)
        if "Compose names" in d.message
    ]


def test_an_alias_file_the_readme_sources_addresses_compose_names(tmp_path: Path) -> None:
    files = {"docker-compose.yml": STACK, "vecstack.rc": ALIASES, "README.md": VECSTACK}
    found = compose_found(tmp_path, files)
    container = (
        "docker-compose.yml:2 gives service qdrant no container_name, so Compose names its container "
        "vecstack-qdrant-1: docker finds no container"
    )
    assert found == [
        (8, f"README's alias qsh (vecstack.rc:3) runs docker exec qdrant, but {container} qdrant", "certain"),
        (
            13,
            "README's alias qsave (vecstack.rc:4) runs docker run -v qdata:…, but docker-compose.yml:10 "
            "declares volume qdata with no name:, so Compose names it vecstack_qdata: docker makes a new, "
            "empty volume qdata",
            "certain",
        ),
        (
            14,
            "README's alias qload (vecstack.rc:5) runs docker run --volumes-from vecstack_qdrant, but "
            f"{container} vecstack_qdrant",
            "certain",
        ),
    ]


def test_the_readme_own_commands_and_a_script_it_runs(tmp_path: Path) -> None:
    # modelled on a worker/queue stack: logs and cp of a service by its name, a backup script
    compose_file = (
        "services:\n  broker:\n    image: redis:7\n  worker:\n    build: .\n"
        "    command: celery -A tasks worker\n"
    )
    files = {
        "compose.yaml": compose_file,
        "backup.sh": "#!/bin/sh\nset -e\ndocker exec broker redis-cli SAVE\n",
        "README.md": readme(
            "docker compose up -d --build",
            "docker logs -f --tail 50 worker\ndocker cp worker:/app/report.csv .",
            "./backup.sh",
        ),
    }
    found = compose_found(tmp_path, files)
    project = tmp_path.name.lower()

    def said(at: int, service: str) -> str:
        return (
            f"compose.yaml:{at} gives service {service} no container_name, so Compose names its container "
            f"{project}-{service}-1: docker finds no container {service}"
        )

    assert found == [
        (8, f"README runs docker logs worker, but {said(4, 'worker')}", "certain"),
        (9, f"README runs docker cp worker, but {said(4, 'worker')}", "certain"),
        (
            13,
            f"backup.sh:3, which the README runs, runs docker exec broker, but {said(2, 'broker')}",
            "likely",
        ),
    ]


def test_a_project_name_the_compose_file_or_command_sets_is_shown(tmp_path: Path) -> None:
    files = {
        "compose.yaml": "name: Lab-Stack\nservices:\n  web:\n    build: .\n",
        "README.md": readme("docker compose up -d", "docker exec -it web bash"),
    }
    assert [m for _, m, _ in compose_found(tmp_path, files)] == [
        "README runs docker exec web, but compose.yaml:3 gives service web no container_name, so Compose "
        "names its container lab-stack-web-1: docker finds no container web"
    ]
    files["README.md"] = readme("docker compose -p demo up -d", "docker exec -it web bash")
    assert "demo-web-1" in compose_found(tmp_path, files)[0][1]


@pytest.mark.parametrize(
    "files",
    [
        # the service names its container; the volume is external or named
        {
            "docker-compose.yml": STACK.replace(
                "    image: qdrant", "    container_name: qdrant\n    image: qdrant"
            )
            .replace("  qdata:\n", "  qdata:\n    external: true\n")
            .replace("vecstack_qdrant", "qdrant"),
            "vecstack.rc": ALIASES.replace("vecstack_qdrant", "qdrant"),
            "README.md": VECSTACK,
        },
        {
            "docker-compose.yml": STACK.replace("  qdata:\n", "  qdata:\n    name: qdata\n"),
            "vecstack.rc": (
                'alias qsave="docker run --rm -v qdata:/data alpine ls /data"\n'
                'alias vup="docker compose up"\n'
            ),
            "README.md": VECSTACK,
        },
        # an override file, or a second -f file, names the container
        {
            "docker-compose.yml": STACK,
            "docker-compose.override.yml": "services:\n  qdrant:\n    container_name: qdrant\n",
            "README.md": readme("docker compose up -d", "docker exec -it qdrant sh"),
        },
        {
            "docker-compose.yml": STACK,
            "compose.gpu.yml": "services:\n  qdrant:\n    container_name: qdrant\n",
            "README.md": readme(
                "docker compose -f docker-compose.yml -f compose.gpu.yml up -d", "docker logs qdrant"
            ),
        },
        # compose's own commands take service names
        {
            "compose.yaml": "services:\n  web:\n    build: .\n",
            "README.md": readme(
                "docker compose up -d", "docker compose exec web bash", "docker-compose logs web"
            ),
        },
        # Compose's own names for them
        {
            "compose.yaml": "name: lab\nservices:\n  web:\n    build: .\nvolumes:\n  cache:\n",
            "README.md": readme(
                "docker compose up -d",
                "docker exec -it lab-web-1 bash",
                "docker logs lab_web_1",
                "docker run --rm -v lab_cache:/c alpine ls /c",
            ),
        },
        # a `docker run --name` elsewhere in the README, or in a script, gives the name
        {
            "compose.yaml": "services:\n  web:\n    build: .\n",
            "README.md": readme(
                "docker compose up -d", "docker run -d --name web app:latest", "docker exec -it web bash"
            ),
        },
        {
            "compose.yaml": "services:\n  web:\n    build: .\n",
            "scripts/run.sh": "docker run -d --name=web app\n",
            "README.md": readme("docker compose up -d", "docker exec -it web bash"),
        },
        # the README makes the volume itself, or runs the service's own image without compose
        {
            "compose.yaml": STACK,
            "README.md": readme(
                "docker compose up -d", "docker volume create qdata", "docker run -v qdata:/d alpine ls /d"
            ),
        },
        {
            "compose.yaml": STACK,
            "README.md": readme("docker compose up -d")
            + "\nOr without compose:\n\n"
            + readme("docker run -d -v qdata:/qdrant/storage qdrant/qdrant:v1.9.0"),
        },
        # no compose up, one in another folder, podman-compose, a file that includes others
        {"compose.yaml": STACK, "README.md": readme("docker exec -it qdrant sh")},
        {
            "compose.yaml": STACK,
            "README.md": readme("cd deploy && docker compose up -d", "docker exec qdrant sh"),
        },
        {"compose.yaml": STACK, "README.md": readme("podman-compose up -d", "podman exec qdrant sh")},
        {
            "compose.yaml": "include:\n  - base.yaml\n" + STACK,
            "README.md": readme("docker compose up -d", "docker exec qdrant sh"),
        },
        # a script that leaves the folder before its compose up
        {
            "compose.yaml": STACK,
            "run.sh": "#!/bin/sh\ncd deploy/gpu\ndocker compose up -d\ndocker exec qdrant ls\n",
            "README.md": readme("./run.sh"),
        },
        # placeholders and a name the reader fills in
        {
            "compose.yaml": STACK,
            "README.md": readme("docker compose up -d", "docker exec -it <container> sh"),
        },
        # an alias the file defines for a service by its compose command
        {
            "docker-compose.yml": STACK,
            "vecstack.rc": 'alias vup="docker compose up -d"\nalias qsh="docker compose exec qdrant sh"\n',
            "README.md": VECSTACK,
        },
    ],
)
def test_names_compose_gives_or_that_cannot_be_told(tmp_path: Path, files: dict[str, str]) -> None:
    assert compose_found(tmp_path, files) == []


def test_a_sourced_file_linked_from_outside_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside/vecstack.rc").write_text(ALIASES)
    proj = tmp_path / "proj"
    files = {"docker-compose.yml": STACK, "README.md": VECSTACK}
    make_tree(proj, {"Dockerfile": APP, **files})
    (proj / "vecstack.rc").symlink_to(tmp_path / "outside/vecstack.rc")
    assert compose_found(proj, files) == []


# an alias a table describes as opening one service's container that opens another's

SHOP = (
    "services:\n  storefront-api:\n    build: .\n    container_name: shop_api\n"
    "  db:\n    image: postgres:16\n    container_name: shop_db\n"
)


def shop_readme(rows: str) -> str:
    return "# shop\n\n```sh\n. ./shop.aliases\nshop-up\n```\n\n| Alias | Does |\n|---|---|\n" + rows


def described(root: Path, aliases: str, rows: str) -> list[tuple[int, str, str]]:
    make_tree(
        root,
        {"Dockerfile": APP, "compose.yaml": SHOP, "shop.aliases": aliases, "README.md": shop_readme(rows)},
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "README.md", model, {}, root, root)
        if "opens the" in d.message
    ]


ALIASES_UP = 'alias shop-up="docker compose up -d"\n'


def test_an_alias_said_to_open_another_service_container(tmp_path: Path) -> None:
    aliases = (
        ALIASES_UP + "alias api-sh='docker exec -it shop_db sh'\nalias db-sh='docker compose exec db psql'\n"
    )
    rows = "| `api-sh` | Shell in the Storefront-API container |\n| `db-sh` | psql in the DB container |\n"
    assert described(tmp_path, aliases, rows) == [
        (
            10,
            "README says alias api-sh opens the storefront-api container, but shop.aliases:2 runs docker "
            "exec shop_db, the container of service db (compose.yaml:5)",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    ("aliases", "rows"),
    [
        # the container it says
        (
            ALIASES_UP + "alias api-sh='docker exec -it shop_api sh'\n",
            "| api-sh | Shell in the storefront api container |\n",
        ),
        (
            ALIASES_UP + "alias api-sh='docker compose exec storefront-api sh'\n",
            "| api-sh | storefront-api container shell |\n",
        ),
        # two services named, or none as a container, or no table row for the alias
        (
            ALIASES_UP + "alias api-sh='docker exec -it shop_db sh'\n",
            "| api-sh | db container, then the storefront-api container |\n",
        ),
        (
            ALIASES_UP + "alias api-sh='docker exec -it shop_db sh'\n",
            "| api-sh | Talks to storefront-api |\n",
        ),
        (
            ALIASES_UP + "alias api-sh='docker exec -it shop_db sh'\n",
            "| other | storefront-api container |\n",
        ),
    ],
)
def test_an_alias_that_opens_the_container_it_says(tmp_path: Path, aliases: str, rows: str) -> None:
    assert described(tmp_path, aliases, rows) == []


def image_found(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "README.md", model, {}, root, root)
        if "Compose v1's" in d.message
    ]


# A web UI built by compose, then run and removed by hand under Compose v1's image name
WEBUI_COMPOSE = "version: '3'\nservices:\n  web-ui:\n    build: .\n    ports:\n      - 7860:7860\n"
WEBUI = (
    "# Web UI\n\n## Install\n```python\ndocker compose up\n\n# run it with a GPU\n"
    "docker run -p 7860:7860 --gpus all --name webui sd-webui_web-ui\n```\n\n"
    "## Clean up\n```sh\ndocker rm -f webui\ndocker rmi -f sd-webui_web-ui\n```\n"
)
# A notebook server and a database: `docker compose build`, then the image saved for another host
LAB_COMPOSE = (
    "services:\n  notebook:\n    build:\n      context: .\n      dockerfile: Dockerfile\n"
    "  db:\n    image: postgres:16\n"
)
LAB = (
    "# Lab\n\nBring it up with `docker compose up -d`, then ship the image:\n\n"
    "```bash\ndocker save -o lab.tar lab_notebook:latest\n```\n"
)


def test_a_compose_v1_image_name_after_a_compose_v2_up(tmp_path: Path) -> None:
    files = {"docker-compose.yml": WEBUI_COMPOSE, "README.md": WEBUI}
    assert image_found(tmp_path / "webui", files) == [
        (
            8,
            "README names image sd-webui_web-ui, but docker-compose.yml:3 gives service web-ui a build: and "
            "no image:, and the README's docker compose up (line 5) is Compose v2, which tags it "
            "sd-webui-web-ui: sd-webui_web-ui is Compose v1's (docker-compose) name, so docker finds no "
            "such image; also at line 14",
            "certain",
        )
    ]
    lab = image_found(tmp_path / "lab", {"compose.yaml": LAB_COMPOSE, "README.md": LAB})
    assert [(line, "lab-notebook" in message) for line, message, _ in lab] == [(6, True)]


@pytest.mark.parametrize(
    ("compose_file", "text"),
    [
        # Compose v2's own name
        (WEBUI_COMPOSE, WEBUI.replace("sd-webui_web-ui", "sd-webui-web-ui")),
        # `docker-compose`: v1 names it so (and the v2 binary otherwise): which one runs is not known
        (WEBUI_COMPOSE, WEBUI.replace("docker compose up", "docker-compose up")),
        # the service tags the image it builds with its `image:`
        (WEBUI_COMPOSE.replace("    build: .\n", "    build: .\n    image: sd-webui_web-ui\n"), WEBUI),
        # the README tags the name itself
        (
            WEBUI_COMPOSE,
            WEBUI.replace(
                "docker compose up\n", "docker compose up\ndocker tag sd-webui-web-ui sd-webui_web-ui\n"
            ),
        ),
        # a service that pulls its image, no build
        (WEBUI_COMPOSE.replace("    build: .\n", "    image: ghcr.io/org/webui:1.0\n"), WEBUI),
        # an image of another registry or namespace whose name ends like the service
        (WEBUI_COMPOSE, WEBUI.replace("sd-webui_web-ui", "org/sd-webui_web-ui")),
        # a Python block that is Python, not shell: its words are no commands
        (WEBUI_COMPOSE, WEBUI.replace("# run it with a GPU\n", "import docker\n")),
    ],
)
def test_image_names_compose_gives_or_that_cannot_be_told(
    tmp_path: Path, compose_file: str, text: str
) -> None:
    assert image_found(tmp_path, {"docker-compose.yml": compose_file, "README.md": text}) == []


# A container addressed by name right after a `docker run` of the README's image that gives it none
# (`nameless_runs`)


def nameless(root: Path, text: str, files: dict[str, str] | None = None) -> list[tuple[int, str, str]]:
    return [f for f in found(root, {"README.md": text, **(files or {})}) if "gives it no --name" in f[1]]


def test_a_run_offered_as_another_way_gives_the_container_no_name(tmp_path: Path) -> None:
    # a UI server: its helper script names the container, the README's other way (a plain run) does not
    text = readme(
        "docker compose build\n./start.sh\n# or, by hand:\ndocker build -t studio:cu118 .\n"
        "docker run --rm --gpus all -p 8188:8188 studio:cu118",
        "docker exec -it studio python3 -c 'import torch'\ndocker logs -f studio",
    )
    files = {"start.sh": "docker run -d --name studio -p 8188:8188 studio:cu118\n"}
    assert nameless(tmp_path, text, files) == [
        (
            12,
            "README's docker exec addresses container studio after the docker run at line 8, which gives "
            "it no --name: docker names that container at random, so docker answers no such container "
            "(start.sh, which the README runs another way, names it)",
            "likely",
        ),
        (
            13,
            "README's docker logs addresses container studio after the docker run at line 8, which gives "
            "it no --name: docker names that container at random, so docker answers no such container "
            "(start.sh, which the README runs another way, names it)",
            "likely",
        ),
    ]


def test_a_detached_run_then_the_image_name_as_the_container(tmp_path: Path) -> None:
    # a notebook server: run detached from its own build, then entered by the image's name
    text = readme(
        "docker build -t geo-lab .\ndocker run -d -p 8888:8888 geo-lab", "docker exec -it geo-lab bash"
    )
    assert [(line, sure) for line, _, sure in nameless(tmp_path, text, {"compose.yaml": COMPOSED})] == [
        (9, "likely")
    ]


COMPOSED = "services:\n  lab:\n    build: .\n    container_name: geo-lab\n"


@pytest.mark.parametrize(
    "blocks",
    [
        # the run names it
        ("docker build -t geo-lab .\ndocker run -d --name geo-lab geo-lab", "docker exec -it geo-lab bash"),
        ("docker build -t geo-lab .\ndocker run -d --name=geo-lab geo-lab", "docker exec -it geo-lab bash"),
        # compose starts it last (its container_name)
        (
            "docker build -t geo-lab .\ndocker run -d geo-lab\ndocker compose up -d",
            "docker exec -it geo-lab bash",
        ),
        # a one-off command in the image, not the server
        ("docker build -t geo-lab .\ndocker run --rm geo-lab pytest", "docker exec -it geo-lab bash"),
        # an image the README does not build (someone else's)
        ("docker run -d -p 6379:6379 acme/cache", "docker exec -it geo-lab bash"),
        # the reader's own name, an ID
        ("docker build -t geo-lab .\ndocker run -d geo-lab", "docker exec -it <container> bash"),
        ("docker build -t geo-lab .\ndocker run -d geo-lab", "docker exec -it my_container bash"),
        # a later start by another tool, or a rename
        (
            "docker build -t geo-lab .\ndocker run -d geo-lab\nnvidia-docker run -d --name geo-lab geo-lab",
            "docker exec -it geo-lab bash",
        ),
        (
            "docker build -t geo-lab .\ndocker run -d geo-lab\ndocker rename $(docker ps -lq) geo-lab",
            "docker exec -it geo-lab bash",
        ),
        # the address before the run
        ("docker exec -it geo-lab bash", "docker build -t geo-lab .\ndocker run -d geo-lab"),
    ],
)
def test_runs_that_name_the_container_or_are_not_the_one_addressed(
    tmp_path: Path, blocks: tuple[str, ...]
) -> None:
    assert nameless(tmp_path, readme(*blocks), {"compose.yaml": COMPOSED}) == []


def test_a_side_session_beside_a_run_the_readme_names(tmp_path: Path) -> None:
    # a simulator README: its main run is `--name sim-lab`; a later bash session runs the image unnamed
    text = readme(
        "docker build -t sim-lab:4.5 .\ndocker run --name sim-lab -d --gpus all sim-lab:4.5",
        "docker run -e START_BASH=true -it sim-lab:4.5",
        "docker logs -f sim-lab",
    )
    assert nameless(tmp_path, text) == []
