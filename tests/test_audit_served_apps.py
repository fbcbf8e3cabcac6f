"""`docgen.audit.served_apps`: a well-known application a README says will be available at an address
that nothing of the repository installs, starts or names. Planted drifts and traps; the READMEs,
Dockerfiles and Compose files are small models written for these tests."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

TEXTGEN = """\
FROM acme/transformers-rocm:2.1.0
RUN git clone https://github.com/oobabooga/text-generation-webui.git /app && cd /app && git checkout v3.1
WORKDIR /app
RUN pip install -r requirements.txt
CMD python server.py --listen --listen-port=80
"""
# modelled on a web UI image's README whose launch note came from a sibling image's README
TEXTGEN_README = """\
# Text generation web UI on AMD GPUs

## Launch

```bash
make run
```

At the first start the initialisation takes a while. When it is done, ComfyUI will be available at
http://localhost.
"""
OLLAMA_COMPOSE = """\
services:
  ollama:
    image: ollama/ollama:0.5.7
    ports:
      - "11434:11434"
"""
# modelled on a Compose project's README listing where each service answers
OLLAMA_README = """\
# Local models

Start the services with `docker compose up -d`.

- The Ollama API will be available at [http://localhost:11434](http://localhost:11434).
- The Open WebUI will be available at [http://localhost:3000](http://localhost:3000).
"""


def _audit(tmp_path: Path, files: dict[str, str]) -> list[str]:
    make_tree(tmp_path, files)
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(files["README.md"], "README.md", [model], {}, tmp_path, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "will be available" in d.message]


def served(line: int, app: str) -> str:
    return (
        f"{line}: README says {app} will be available, but no Dockerfile or file of the repository "
        f"installs, starts or names {app} (likely)"
    )


def test_an_application_copied_from_a_sibling_readme(tmp_path: Path) -> None:
    files = {
        "Dockerfile": TEXTGEN,
        "README.md": TEXTGEN_README,
        "Makefile": "run:\n\tdocker run -p 80:80 tg\n",
    }
    assert _audit(tmp_path, files) == [served(9, "ComfyUI")]


def test_a_service_the_compose_file_does_not_run(tmp_path: Path) -> None:
    files = {
        "Dockerfile": "FROM ollama/ollama:0.5.7\n",
        "docker-compose.yml": OLLAMA_COMPOSE,
        "README.md": OLLAMA_README,
    }
    assert _audit(tmp_path, files) == [served(6, "Open WebUI")]


def test_applications_the_repository_holds_or_names(tmp_path: Path) -> None:
    # the Compose file runs it
    compose = OLLAMA_COMPOSE + "  webui:\n    image: ghcr.io/open-webui/open-webui:main\n"
    files = {
        "Dockerfile": "FROM ollama/ollama:0.5.7\n",
        "docker-compose.yml": compose,
        "README.md": OLLAMA_README,
    }
    assert _audit(tmp_path / "compose", files) == []
    # the README's own command installs it on the host
    readme = "# Lab\n\n```\npip install open-webui\nopen-webui serve\n```\n\nOpen WebUI will be available at http://localhost:8080.\n"
    assert _audit(tmp_path / "pip", {"Dockerfile": "FROM python:3.12\n", "README.md": readme}) == []
    # a base named after it
    based = {"Dockerfile": "FROM yanwk/comfyui-boot:cu124\n", "README.md": TEXTGEN_README}
    assert _audit(tmp_path / "base", based) == []
    # a script the image copies starts it
    script = {
        "Dockerfile": "FROM rocm/pytorch:latest\nCOPY start.sh /start.sh\nCMD /start.sh\n",
        "start.sh": "#!/bin/sh\ncd /opt/ComfyUI && python main.py --listen\n",
        "README.md": TEXTGEN_README,
    }
    assert _audit(tmp_path / "script", script) == []
    # another image of the repository installs it
    several = {
        "Dockerfile": TEXTGEN,
        "comfy/Dockerfile": "FROM rocm/pytorch:latest\nRUN git clone https://github.com/comfyanonymous/ComfyUI\n",
        "README.md": TEXTGEN_README,
    }
    assert _audit(tmp_path / "several", several) == []


def test_sentences_that_are_no_claim(tmp_path: Path) -> None:
    for sentence in (
        "A web UI like ComfyUI will be available at http://localhost once you add it.",
        "If you install it, ComfyUI will be available at http://localhost.",
        "ComfyUI is not available at http://localhost in this image.",
        "ComfyUI is a node-based interface.",  # no address, nothing said of where it is served
    ):
        files = {"Dockerfile": TEXTGEN, "README.md": f"# Web UI\n\n{sentence}\n"}
        assert _audit(tmp_path / str(len(sentence)), files) == []
