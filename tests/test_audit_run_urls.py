"""`docgen.audit.run_urls`: a prose line telling to open a page on the container's side of the mapping
the `docker run` just before it gives (`-p 9090:8080`, then `open http://localhost:8080`) is a finding
(`likely`) when no run publishes that host port; `-P`, `--network host`, a port in a variable, a compose
file or a tunnel named in the README, a word about the host, an address in a command block, a line with
no word telling to open it, and a command other than a run just before it are not."""

from __future__ import annotations

import pytest

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

DOCKERFILE = 'FROM ubuntu:22.04\nEXPOSE 8080\nCMD ["/opt/desk/start"]\n'


def found(readme: str) -> list[str]:
    model = model_of(parse_dockerfile(DOCKERFILE, "Dockerfile"))
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model)
        if "no run of the README publishes" in d.message
    ]


def readme(run: str, after: str = "Then open `http://localhost:8080` in a browser.") -> str:
    return f"# Desk\n\n```bash\n{run}\n```\n\n{after}\n"


RUN = "docker run -d --gpus all -p 9090:8080 -p 3478:3478/udp acme/desk:1"


def test_a_page_on_the_container_side_of_the_mapping() -> None:
    assert found(readme(RUN)) == [
        "7: README says to open http://localhost:8080, but the docker run on line 4 publishes container "
        "port 8080 on host port 9090, and no run of the README publishes host port 8080 (likely)"
    ]


@pytest.mark.parametrize(
    "after",
    [
        "1. Access the desktop with a web browser at `http://<host-ip>:8080`.",
        "Visit http://YOUR_SERVER_IP:8080/ to log in.",
    ],
)
def test_an_address_placeholder_is_the_reader_s_machine(after: str) -> None:
    assert len(found(readme(RUN, after))) == 1


def test_a_podman_run_is_named_so() -> None:
    assert "the podman run on line 4" in found(readme(RUN.replace("docker", "podman")))[0]


@pytest.mark.parametrize(
    ("run", "after"),
    [
        ("docker run -p 8080:8080 acme/desk:1", ""),  # the same port on both sides
        (f"{RUN}\ndocker run -p 8080:80 acme/proxy:1", ""),  # another run publishes host port 8080
        ("docker run -P acme/desk:1", ""),  # ports docker picks
        ("docker run --network host -p 9090:8080 acme/desk:1", ""),  # the host's network
        ("docker run -p ${DESK_PORT}:8080 acme/desk:1", ""),  # a host port in a variable
        (RUN, "Run `docker compose up` instead, then open `http://localhost:8080`."),  # compose
        (RUN, "Open `http://localhost:8080` through an SSH tunnel (`ssh -L 8080:localhost:9090`)."),
        (RUN, "Open http://localhost:8080 on the host where nginx fronts it."),  # a proxy
        (RUN, "The server listens on http://localhost:8080 inside the container."),  # no word to open
        (RUN, "Ollama on the host answers at http://localhost:8080, open it."),  # the host's service
        (RUN, "```bash\ncurl http://localhost:8080/health\n```"),  # a command block
        (f"{RUN}\npython3 serve.py --port 8080", ""),  # the last command is not a run
        ("docker run -p 9090-9095:8080-8085 acme/desk:1", ""),  # a range
    ],
)
def test_shapes_that_stay_silent(run: str, after: str) -> None:
    assert found(readme(run, after or "Then open `http://localhost:8080` in a browser.")) == []
