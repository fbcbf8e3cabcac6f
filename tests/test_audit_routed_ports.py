"""`docgen audit`: a request sent to a route named after one of the README's containers on the host
port another of them is published on (docgen/audit/routed_ports.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

SERVICE = 'FROM python:3.12-slim\nWORKDIR /srv\nCOPY {app} .\nCMD ["python", "{app}"]\n'
TREE = {
    "docker/Dockerfile.summarize": SERVICE.format(app="summarize_app.py"),
    "docker/Dockerfile.translate": SERVICE.format(app="translate_app.py"),
    "summarize_app.py": "",
    "translate_app.py": "",
}
BUILDS = (
    "```bash\ndocker build -t textkit-summarizer -f docker/Dockerfile.summarize .\n"
    "docker build -t textkit-translator -f docker/Dockerfile.translate .\n```\n\n"
)
RUNS = (
    "```bash\ndocker run -d -p 7100:7000 textkit-summarizer\n"
    "docker run -d -p 7200:7000 textkit-translator\n```\n\n"
)
PATHS = ("docker/Dockerfile.summarize", "docker/Dockerfile.translate")


def _findings(root: Path, readme: str, tree: dict[str, str] | None = None) -> list[str]:
    make_tree(root, TREE if tree is None else tree)
    models = [
        build_model(root / p, p) for p in ("docker/Dockerfile.summarize", "docker/Dockerfile.translate")
    ]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, root)
        if "sends" in d.message
    ]


def _curl(port: int, route: str) -> str:
    return f'```bash\ncurl -X POST http://localhost:{port}{route} -d \'{{"text": "hi"}}\'\n```\n'


def test_a_route_sent_to_the_port_of_another_container(tmp_path: Path) -> None:
    readme = "# Textkit\n\n" + BUILDS + RUNS + _curl(7100, "/summarize") + "\n" + _curl(7100, "/translate")
    assert _findings(tmp_path, readme) == [
        "18: README sends /translate to localhost:7100, where its `docker run` publishes textkit-summarizer; "
        "the route is textkit-translator's, which it publishes on 7200 (likely)"
    ]


@pytest.mark.parametrize(
    ("port", "route"),
    [
        (7200, "/translate"),  # the right port
        (7100, "/summarize"),
        (7100, "/api/v1/health"),  # words every API has
        (7100, "/predict"),  # named after no image
        (7300, "/translate"),  # a port no container of the README is published on
        (7100, "/"),
    ],
)
def test_requests_that_say_nothing(tmp_path: Path, port: int, route: str) -> None:
    assert _findings(tmp_path, "# Textkit\n\n" + BUILDS + RUNS + _curl(port, route)) == []


def test_a_container_that_serves_the_route_too(tmp_path: Path) -> None:
    tree = dict(TREE, **{"summarize_app.py": '@app.post("/translate")\ndef passthrough(): ...\n'})
    assert _findings(tmp_path, "# Textkit\n\n" + BUILDS + RUNS + _curl(7100, "/translate"), tree) == []


@pytest.mark.parametrize(
    "runs",
    [
        # every port published, or the host's network: ports not known
        RUNS.replace("-p 7200:7000", "-P"),
        RUNS.replace("-p 7200:7000", "--network host"),
        # one image only published
        "```bash\ndocker run -d -p 7100:7000 textkit-summarizer\n```\n\n",
        # images the README does not build (another project's)
        RUNS.replace("textkit-translator", "acme/translator"),
    ],
)
def test_runs_that_leave_the_ports_unknown(tmp_path: Path, runs: str) -> None:
    assert _findings(tmp_path, "# Textkit\n\n" + BUILDS + runs + _curl(7100, "/translate")) == []


def test_a_file_copied_from_outside_the_context_is_not_read(tmp_path: Path) -> None:
    # `COPY ../serve.py .` (BuildKit reads nothing above the context) and a link out of the project:
    # neither is read, so the route they name does not make the summarizer one that serves it
    (tmp_path / "serve.py").write_text('@app.post("/translate")\n')
    root = tmp_path / "project"
    copies = "COPY ../serve.py linked.py ./"
    summarize = SERVICE.format(app="summarize_app.py").replace("COPY summarize_app.py .", copies)
    tree = dict(TREE, **{"docker/Dockerfile.summarize": summarize})
    make_tree(root, tree)
    (root / "linked.py").symlink_to(tmp_path / "serve.py")
    assert len(_findings(root, "# Textkit\n\n" + BUILDS + RUNS + _curl(7100, "/translate"), tree)) == 1
