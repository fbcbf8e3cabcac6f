"""`docgen audit`: a page the README says to open on the host right after a compose command, on a port no
compose service publishes (docgen/audit/compose_urls.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = 'FROM python:3.12-slim\nCOPY . /srv\nEXPOSE 7200\nCMD ["python", "/srv/serve.py"]\n'
STACK = (
    "services:\n"
    "  voxbox:\n"
    "    build: .\n"
    "    ports:\n"
    '      - "127.0.0.1:7200:7200"\n'
    "  voxbox-docs:\n"
    "    image: example/apidocs:2.1\n"
    "    ports:\n"
    '      - "127.0.0.1:7210:8080"\n'
)
VARIABLE = STACK.replace('"127.0.0.1:7210:8080"', '"${DOCS_PORT:-7210}:8080"')
UP = "```shell\ndocker compose up -d\n```\n\n"


def found(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, root, root)]


def test_a_page_on_a_port_no_service_publishes(tmp_path: Path) -> None:
    readme = f"# Voxbox\n\n{UP}Then open http://localhost:8080 in your browser.\n"
    assert found(tmp_path, readme, {"compose.yaml": STACK}) == [
        (
            7,
            "README says to open http://localhost:8080, but no service of compose.yaml publishes host port "
            "8080 (they publish 7200, 7210)",
            "likely",
        )
    ]


def test_a_compose_file_copied_from_a_template_beside_the_readme(tmp_path: Path) -> None:
    readme = (
        "# Voxbox\n\n1. Copy the template:\n\n"
        "   ```shell\n   cp compose.dist.yml docker-compose.yml\n   ```\n\n"
        "2. Start it:\n\n   ```shell\n   docker-compose up -d\n   ```\n\n3. Navigate to http://127.0.0.1:8080/ui\n"
    )
    assert [line for line, _, _ in found(tmp_path, readme, {"compose.dist.yml": STACK})] == [15]


@pytest.mark.parametrize(
    ("readme", "stack"),
    [
        # the port is published (the host side of a mapping)
        (f"# V\n\n{UP}Open http://localhost:7210 to read the API docs.\n", STACK),
        # a port in a range
        (f"# V\n\n{UP}Open http://localhost:7205.\n", STACK.replace("7200:7200", "7200-7209:7200-7209")),
        # long syntax
        (
            f"# V\n\n{UP}Visit http://localhost:8080.\n",
            "services:\n  web:\n    build: .\n    ports:\n      - target: 7200\n        published: 8080\n",
        ),
        # the host side is the user's to set
        (
            f"# V\n\n{UP}Open http://localhost:8080.\n",
            STACK.replace('"127.0.0.1:7210:8080"', '"${DOCS_PORT:-7210}:8080"'),
        ),
        # Docker picks the host's port
        (f"# V\n\n{UP}Open http://localhost:8080.\n", STACK.replace('"127.0.0.1:7210:8080"', '"8080"')),
        # the host's network
        (f"# V\n\n{UP}Open http://localhost:8080.\n", STACK + "    network_mode: host\n"),
    ],
)
def test_ports_published_or_not_known_stay_silent(tmp_path: Path, readme: str, stack: str) -> None:
    assert found(tmp_path, readme, {"compose.yaml": stack}) == []


def test_a_compose_file_of_a_folder_the_readme_changes_to_is_not_read(tmp_path: Path) -> None:
    readme = "# V\n\n```shell\ncd deploy\ndocker compose up -d\n```\n\nOpen http://localhost:8080.\n"
    files = {"compose.yaml": STACK, "deploy/compose.yaml": STACK.replace("7210:8080", "8080:8080")}
    assert found(tmp_path, readme, files) == []


@pytest.mark.parametrize(
    "readme",
    [
        # the last command before the line runs the program on the host, not compose
        f"# V\n\n{UP}## Without containers\n\n```shell\npython serve.py\n```\n\nOpen http://localhost:8080.\n",
        # a docker run of the README publishes the port
        f"# V\n\n{UP}Or: `docker run -p 8080:7200 voxbox`, then open http://localhost:8080.\n",
        # a service of the host
        f"# V\n\n{UP}Make sure Ollama is reachable at http://localhost:11434 on the host.\n",
        # a compose file the README runs that is not beside it
        "# V\n\n```shell\ndocker compose -f deploy/stack.yml up -d\n```\n\nOpen http://localhost:8080.\n",
        # no word saying to open it
        f"# V\n\n{UP}The callback URL is http://localhost:8080/hook.\n",
        # a command block is not prose
        f"# V\n\n{UP}```shell\ncurl http://localhost:8080/health\n```\n",
        # no compose command at all
        "# V\n\n```shell\n./start.sh\n```\n\nOpen http://localhost:8080.\n",
    ],
)
def test_lines_not_about_the_compose_services_stay_silent(tmp_path: Path, readme: str) -> None:
    # other rules may speak of these READMEs (a compose file not beside it); this one does not
    assert [m for _, m, _ in found(tmp_path, readme, {"compose.yaml": STACK}) if "to open" in m] == []


PORT_LIST = f"# Voxbox\n\n{UP}Ports:\n\n- 7200: speech API.\n- 8080: API docs.\n- 7300: metrics.\n"


def test_a_port_list_naming_ports_no_service_publishes(tmp_path: Path) -> None:
    # 7200 is published; 8080 is the docs service's container side (the host's is 7210); 7300 is nowhere
    assert found(tmp_path, PORT_LIST, {"compose.yaml": STACK}) == [
        (
            10,
            "README lists port 8080 (API docs), but compose.yaml publishes container port 8080 on host "
            "port 7210",
            "likely",
        ),
        (
            11,
            "README lists port 7300 (metrics), but compose.yaml publishes no host port 7300 (they publish "
            "7200, 7210)",
            "likely",
        ),
    ]


@pytest.mark.parametrize(
    "readme",
    [
        # the list says it names the containers' ports
        PORT_LIST.replace("Ports:", "Container ports:"),
        PORT_LIST.replace("Ports:", "## Exposed ports"),
        # each item says so
        f"# V\n\n{UP}Ports:\n\n- 8080: API docs (internal).\n- 7300: metrics, inside the container.\n",
        # a list that is not about ports
        f"# V\n\n{UP}Releases:\n\n- 2024: first version.\n- 2025: the docs service.\n",
        # a service of the host
        f"# V\n\n{UP}Ports:\n\n- 11434: Ollama on the host.\n",
    ],
)
def test_port_lists_that_stay_silent(tmp_path: Path, readme: str) -> None:
    assert [m for _, m, _ in found(tmp_path, readme, {"compose.yaml": STACK}) if "lists port" in m] == []


def test_a_port_list_when_the_host_ports_are_not_known(tmp_path: Path) -> None:
    assert found(tmp_path, PORT_LIST, {"compose.yaml": VARIABLE}) == []


# an LLM server stack: the inference server publishes its ports with no host side, the proxy a fixed one
PICKED = (
    "services:\n"
    "  engine:\n"
    "    image: example/llm-engine:24.05\n"
    "    ports:\n"
    '      - "9000"\n'
    '      - "9001"\n'
    "  gateway:\n"
    "    image: example/llm-gateway:1.2\n"
    "    ports:\n"
    '      - "4000:4000"\n'
)
PICKED_README = (
    "# Stack\n\n```bash\ndocker compose up -d\n```\n\nTest it:\n\n"
    "```\ncurl http://localhost:9000/v2/health/ready\n"
    "curl -X POST http://localhost:9000/v2/models/llm/generate -d '{}'\n"
    "curl http://localhost:4000/v1/models\n```\n"
)
PICKED_FINDING = (
    "README sends a request to host port 9000, but service engine (compose.yaml:2) publishes container "
    "port 9000 with no host port: Docker maps it to a host port it picks, and no service publishes host "
    "port 9000"
)


def test_a_request_to_a_port_docker_picks(tmp_path: Path) -> None:
    assert [f for f in found(tmp_path, PICKED_README, {"compose.yaml": PICKED}) if "picks" in f[1]] == [
        (10, PICKED_FINDING + "; also at line 11", "certain")
    ]


# a notebook stack of another shape: the short form the README reads is `"8888"` in docker-compose.yml
NOTEBOOK = "services:\n  lab:\n    build: .\n    ports:\n      - 8888\n"
NOTEBOOK_README = "# Lab\n\n```\ndocker-compose up\ncurl -s http://127.0.0.1:8888/api/status\n```\n"


def test_a_request_to_a_port_docker_picks_of_a_notebook(tmp_path: Path) -> None:
    assert [
        f[:1] + f[2:]
        for f in found(tmp_path, NOTEBOOK_README, {"docker-compose.yml": NOTEBOOK})
        if "picks" in f[1]
    ] == [(5, "certain")]


@pytest.mark.parametrize(
    ("readme", "stack"),
    [
        # the host port is published: the short form with both sides, or by another service
        (PICKED_README, PICKED.replace('- "9000"', '- "9000:9000"')),
        (PICKED_README, PICKED.replace('- "4000:4000"', '- "4000:4000"\n      - "9000:9100"')),
        # the host's network: nothing is published
        (
            PICKED_README,
            PICKED.replace(
                '    ports:\n      - "9000"', '    network_mode: host\n    ports:\n      - "9000"'
            ),
        ),
        # the README looks the picked port up, or publishes it itself
        (
            PICKED_README.replace(
                "Test it:", "Find the port with `docker compose port engine 9000`. Test it:"
            ),
            PICKED,
        ),
        (
            PICKED_README.replace(
                "docker compose up -d", "docker compose up -d\ndocker run -d -p 9000:80 example/mock"
            ),
            PICKED,
        ),
        # the request is sent before the stack starts, or from inside a container
        (
            "# Stack\n\nCheck nothing runs yet:\n\n```\ncurl http://localhost:9000/v2/health/ready\n```\n\n"
            "```bash\ndocker compose up -d\n```\n",
            PICKED,
        ),
        (PICKED_README.replace("```\ncurl http", "```\ndocker compose exec gateway sh\ncurl http"), PICKED),
    ],
)
def test_ports_the_reader_reaches_are_silent(tmp_path: Path, readme: str, stack: str) -> None:
    assert [f for f in found(tmp_path, readme, {"compose.yaml": stack}) if "picks" in f[1]] == []


# A speech server whose compose file moved it to 6310 while the image, its client script and the README's
# requests stayed on 6300 (modelled on small self-hosted TTS/ASR servers).
CHIRP_IMAGE = (
    'FROM python:3.12-slim\nWORKDIR /srv\nCOPY serve.py .\nEXPOSE 6300\nCMD ["python", "serve.py"]\n'
)
CHIRP_STACK = (
    "services:\n"
    "  chirp:\n"
    "    build: .\n"
    "    container_name: chirp-api\n"
    "    ports:\n"
    '      - "6310:6310"\n'
    "    environment:\n"
    '      CHIRP_PORT: "6310"\n'
)
CHIRP_CLIENT = (
    "import argparse\n\n\ndef main():\n    ap = argparse.ArgumentParser()\n"
    '    ap.add_argument("--endpoint", default="http://127.0.0.1:6300")\n'
    '    ap.add_argument("--rounds", type=int, default=3)\n'
    '    return ap.parse_args()\n\n\nif __name__ == "__main__":\n    main()\n'
)
CHIRP = (
    "# Chirp\n\n```bash\ndocker compose up -d --build\ndocker compose logs -f\n```\n\n"
    "Check it:\n\n```bash\ncurl http://localhost:6300/health\n"
    'curl -X POST http://localhost:6300/speak -d \'{"text": "hi"}\' -o hi.wav\n```\n\n'
    "Measure it:\n\n```bash\npython client.py --rounds 5\n```\n\n"
    "From another container:\n\n```env\nCHIRP_URL=http://chirp-api:6300\n```\n"
)


def chirp(
    root: Path, readme: str, stack: str = CHIRP_STACK, client: str = CHIRP_CLIENT
) -> list[tuple[int, str, str]]:
    files = {"Dockerfile": CHIRP_IMAGE, "README.md": readme, "compose.yaml": stack, "client.py": client}
    make_tree(root, {**files, "serve.py": "print('chirp')\n"})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, root, root)]


def test_requests_a_script_and_a_network_url_on_a_port_the_stack_moved_away_from(tmp_path: Path) -> None:
    assert chirp(tmp_path, CHIRP) == [
        (
            11,
            "README sends a request to host port 6300, but no service of compose.yaml publishes it (they "
            "publish 6310; EXPOSE (Dockerfile:4) names 6300); also at line 12",
            "certain",
        ),
        (
            18,
            "README runs client.py without --endpoint, which defaults to http://127.0.0.1:6300 "
            "(client.py:6), but no service of compose.yaml publishes host port 6300 (they publish 6310)",
            "certain",
        ),
        (
            24,
            "README reaches http://chirp-api:6300 from another container, but service chirp listens on 6310 "
            "(compose.yaml:8 sets CHIRP_PORT) and publishes 6310",
            "certain",
        ),
    ]


def test_a_service_url_on_the_host_side_of_a_mapping(tmp_path: Path) -> None:
    # in the compose network a container is reached on its own port (80), not the published one
    stack = 'services:\n  board:\n    build: .\n    ports:\n      - "8088:80"\n'
    readme = "# Board\n\n```bash\ndocker compose up -d\n```\n\nOther services reach it at `http://board:8088/api`.\n"
    assert [(n, c) for n, m, c in chirp(tmp_path, readme, stack) if "another container" in m] == [
        (7, "likely")
    ]


CLEAN = CHIRP.replace(":6300", ":6310")
CLEAN_CLIENT = CHIRP_CLIENT.replace("6300", "6310")


@pytest.mark.parametrize(
    ("readme", "stack", "client"),
    [
        # the requests and the script use the published port; the network URL the container's
        (CLEAN, CHIRP_STACK, CLEAN_CLIENT),
        # the script is given the URL
        (CLEAN.replace("--rounds 5", "--endpoint http://localhost:6310"), CHIRP_STACK, CHIRP_CLIENT),
        # a port the project never names (a service of the host: Ollama on 11434)
        (CLEAN.replace("localhost:6310/health", "localhost:11434/api/tags"), CHIRP_STACK, CLEAN_CLIENT),
        # the requests follow a server started on the host
        (
            CLEAN.replace(
                "curl http://localhost:6310/health",
                "uvicorn serve:app --port 6300\ncurl http://localhost:6300/",
            ),
            CHIRP_STACK,
            CLEAN_CLIENT,
        ),
        # the host side is the user's to set
        (CHIRP, CHIRP_STACK.replace('"6310:6310"', '"${CHIRP_HOST_PORT:-6310}:6310"'), CHIRP_CLIENT),
        # the image's port published on another host port: a URL on the container's port inside the network
        (
            CLEAN.replace("chirp-api:6310", "chirp-api:6300"),
            CHIRP_STACK.replace('"6310:6310"', '"6310:6300"').replace(
                'CHIRP_PORT: "6310"', 'CHIRP_PORT: "6300"'
            ),
            CLEAN_CLIENT,
        ),
    ],
)
def test_requests_the_stack_serves_stay_silent(tmp_path: Path, readme: str, stack: str, client: str) -> None:
    found_here = chirp(tmp_path, readme, stack, client)
    assert [m for _, m, _ in found_here if "6300" in m or "11434" in m or "another container" in m] == []


# --------------------------------------------------------------------------------------------------
# A request of a code block to a host port no `docker run -p` publishes (`run_requests`)

RUN_API = (
    "# Vision API\n\n```bash\ndocker run -d --gpus all \\\n  -p 3000:3001 \\\n  -p 8080:8080 \\\n"
    "  -e API_PORT=8080 \\\n  acme/vision:latest\n```\n\n"
    'Then, from Python:\n\n```python\nfrom openai import OpenAI\n\nbase_url = "http://localhost:8000/api/v1"\n'
    "client = OpenAI(base_url=base_url)\n```\n\n"
    "Or with curl:\n\n```shell\ncurl http://localhost:8080/api/v1/chat/completions -d '{}'\n```\n"
)


def requests_found(root: Path, readme: str) -> list[tuple[int, str, str]]:
    return [f for f in found(root, readme, {}) if "no docker run of it publishes" in f[1]]


def test_a_client_on_a_port_no_run_publishes(tmp_path: Path) -> None:
    assert requests_found(tmp_path, RUN_API) == [
        (
            16,
            "README sends a request to http://localhost:8000/api/v1, but no docker run of it publishes host "
            "port 8000 (they publish 3000, 8080), while README:23 reaches /api/v1/chat/completions on "
            "published port 8080",
            "certain",
        )
    ]


def test_a_curl_on_a_port_no_run_publishes(tmp_path: Path) -> None:
    readme = (
        "# Tagger\n\n```sh\ndocker run --rm -p 5005:5000 tagger\n```\n\n"
        "```sh\ncurl -X POST http://127.0.0.1:5000/predict -F img=@cat.jpg\n"
        "curl http://127.0.0.1:5005/predict/batch -F img=@dog.jpg\n```\n"
    )
    [(line, message, confidence)] = requests_found(tmp_path, readme)
    assert (line, confidence) == (8, "certain")
    assert "http://127.0.0.1:5000/predict," in message and "published port 5005" in message


@pytest.mark.parametrize(
    "change",
    [
        ("-p 8080:8080", "-p 8000:8080 \\\n  -p 8080:8080"),  # published after all
        ("acme/vision:latest", "--network host acme/vision:latest"),  # the host's network
        ("-p 8080:8080", "-p $PORT:8080"),  # a host port not written out
        ("Then, from Python:", "Then, with a proxy on port 8000 of the host:"),  # the host's own server
        ("Then, from Python:", "Start `python -m http.server 8000` first. Then, from Python:"),
        ('/api/v1"', '/v2"'),  # no request on the same path on a published port
        ("docker run -d", "docker compose up -d\ndocker run -d"),  # compose: its own rule
    ],
)
def test_requests_that_may_reach_a_server(tmp_path: Path, change: tuple[str, str]) -> None:
    assert requests_found(tmp_path, RUN_API.replace(*change)) == []


# A quantum-notebook project: `make up` runs compose, whose one service publishes nothing (EXPOSE alone
# does not publish), while the README's feature list says the notebook is reachable on the host.
QUBIT_APP = 'FROM python:3.12-slim\nEXPOSE 8888\nCMD ["jupyter", "lab", "--ip=0.0.0.0", "--port=8888"]\n'
QUBIT_STACK = (
    "services:\n  qubitlab:\n    build:\n      context: .\n    volumes:\n      - ./notebooks:/work\n"
)
QUBIT_MAKE = "up:\n\tdocker compose up -d\n\ndown:\n\tdocker compose down\n"
QUBIT_README = (
    "# Qubit lab\n\n## Features\n\n- **JupyterLab** accessible at `http://localhost:8888`\n\n"
    "## Usage\n\n```\nmake up     # start\nmake down   # stop\n```\n"
)


def test_a_notebook_said_reachable_while_no_service_publishes_a_port(tmp_path: Path) -> None:
    files = {"Dockerfile": QUBIT_APP, "docker-compose.yml": QUBIT_STACK, "Makefile": QUBIT_MAKE}
    assert found(tmp_path, QUBIT_README, files) == [
        (
            5,
            "README says to open http://localhost:8888, but no service of docker-compose.yml publishes a "
            "port (none has ports:; EXPOSE does not publish), and make up (line 10) starts them with docker "
            "compose up -d (Makefile:2): the address reaches nothing on the host",
            "likely",
        )
    ]


# A dashboard project of another shape: the README runs compose itself, the web service only `expose:`s.
BOARD_STACK = "services:\n  board:\n    build: .\n    expose:\n      - 3000\n  cache:\n    image: redis:7\n"
BOARD_README = (
    "# Board\n\n```bash\ndocker-compose up --build\n```\n\nThen open http://localhost:3000 in a browser.\n"
)


def test_a_dashboard_whose_services_only_expose(tmp_path: Path) -> None:
    assert [
        (line, conf)
        for line, m, conf in found(tmp_path, BOARD_README, {"compose.yml": BOARD_STACK})
        if "publishes a port" in m
    ] == [(7, "likely")]


def test_a_compose_command_run_through_a_make_target(tmp_path: Path) -> None:
    # the ports are published, but not the one the README opens after `make start`
    readme = "# Voxbox\n\n```shell\nmake start\n```\n\nThen open http://localhost:8080 in your browser.\n"
    files = {"compose.yaml": STACK, "Makefile": "start:\n\t@docker compose up -d\n"}
    assert [line for line, m, _ in found(tmp_path, readme, files) if "to open" in m] == [7]


@pytest.mark.parametrize(
    ("readme", "stack"),
    [
        # the host's network: no port needs publishing
        (BOARD_README, BOARD_STACK + "    network_mode: host\n"),
        # the README publishes the port with its own run
        (BOARD_README.replace("up --build", "run -p 3000:3000 board"), BOARD_STACK),
        # the README tells the reader to add the mapping
        (BOARD_README + '\nAdd `ports: ["3000:3000"]` to the board service first.\n', BOARD_STACK),
        # an editor forwards the ports of a dev container
        (BOARD_README + "\nOpen the folder in VS Code and reopen it in the devcontainer.\n", BOARD_STACK),
        # a server the README starts on the host serves the address, and the line is not after compose
        (
            "# Board\n\nOpen http://localhost:3000 in a browser.\n\n```bash\nnpm run dev\n```\n\n"
            "Or with containers:\n\n```bash\ndocker-compose up --build\n```\n",
            BOARD_STACK,
        ),
        # no word saying to open it
        (
            BOARD_README.replace(
                "Then open http://localhost:3000 in a browser", "Its callback is http://localhost:3000/hook"
            ),
            BOARD_STACK,
        ),
    ],
)
def test_unpublished_stacks_that_stay_silent(tmp_path: Path, readme: str, stack: str) -> None:
    assert [m for _, m, _ in found(tmp_path, readme, {"compose.yml": stack}) if "publishes a port" in m] == []
