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
