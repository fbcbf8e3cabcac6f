"""`docgen.audit` on READMEs whose command blocks hold fragments of commands: a bare `cd`, `docker run`
with no image, `-e` at a line's end, an unclosed `$(`, a `\\` before nothing. Each rule reads commands
its own way, and a rule that takes a missing part for granted raises (a bare `cd` once stopped every
audit of a README that starts a compose file). The README's words are drawn at random from such
fragments, with a fixed seed: the same READMEs every run, and a failure names the one that raised."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

_FRAGMENTS = (
    "cd", "pushd", "cd -", "cd ~", "cd ''", 'cd ""', "docker", "docker run", "docker build", "docker compose",
    "docker-compose", "docker compose up", "docker exec", "make", "make -C", "make -f", "git clone",
    "git clone x", "bash", "sh", "python", "python3", "python -m", "pip install", "pip install -e", "curl",
    "wget", "source", ".", "./", "export", "export X", "docker run -e", "docker run -e X", "docker run -p",
    "docker run -v", "docker build -f", "docker build -t", "docker pull", "docker tag", "docker push",
    "nvidia-docker run", "podman run", "kubectl", "helm", "docker buildx bake", "sudo", "sudo docker",
    "docker run \\", "docker build \\", "roslaunch", "ssh", "scp", "apptainer build", "conda activate",
    "uvicorn", "docker run --rm -it $", "$(", "`", "'''", '"""',
)  # fmt: skip
_ENDS = ("", " ", " .", " a", " -", " \\", " &&", " |", ";")
_LANGS = ("bash", "sh", "", "console", "bash:run.sh")
_FILES = {
    "Dockerfile": 'FROM ubuntu:22.04\nARG X=1\nCOPY . /app\nWORKDIR /app\nCMD ["python", "app.py"]\n',
    "compose.yaml": "services:\n  app:\n    build: .\n    ports: ['8000']\n",
    "Makefile": "build:\n\tdocker build -t a .\n",
    "run.sh": "#!/bin/bash\ndocker run -it \\\n  -v a:/b\n  $IMG\ncd\n",
}


def _readmes(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    readmes = []
    for _ in range(count):
        lines = [rng.choice(_FRAGMENTS) + rng.choice(_ENDS) for _ in range(rng.randint(1, 6))]
        block = "```" + rng.choice(_LANGS) + "\n" + "\n".join(lines) + "\n```\n"
        readmes.append(f"# Tool\n\n{block}\n{rng.choice(lines)}\n")
    return readmes


@pytest.mark.parametrize("seed", [1, 2])
def test_fragments_of_commands_give_findings_or_none_never_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    make_tree(tmp_path, _FILES)
    monkeypatch.chdir(tmp_path)
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    for readme in _readmes(seed, 100):
        try:
            audit(readme, "README.md", model, {}, tmp_path, tmp_path)
        except Exception as error:  # (the README that raised, for the report)
            raise AssertionError(f"{readme!r} raised {error!r}") from error
