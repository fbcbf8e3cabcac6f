"""`docgen.audit.audit_facts`: the facts of the whole README and the project's files that every part of
an audit asks for are read once an audit, and each part still finds what it found when it read them
itself. The README, Dockerfile and scripts are small models written for these tests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from helpers import make_tree, told_at

from docgen.analysis import build_model
from docgen.audit import audit, audit_facts
from docgen.markdown import read_document
from docgen.model import ImageModel

DOCKERFILE = """\
FROM python:3.11-slim
ARG JOBS=2
ARG UNUSED_FLAG=1
RUN MAX_JOBS=${JOBS} pip install --no-cache-dir gradio==4.44.0
COPY start_web_ui.sh /opt/
ENV GRADIO_SERVER_PORT=7860
EXPOSE 7860
CMD ["/opt/start_web_ui.sh"]
"""

SECTION = """\
## Build {n}

```bash
docker build --build-arg JOBS={n} -t acme/webui .
docker run -p 8188:8188 acme/webui
```

| Connect Port | Internal Port | Description |
|---|---|---|
| 8188 | 8188 | Web UI |

| Build argument | Default |
|---|---|
| `JOBS` | `2` |
"""


def _audit(tmp_path: Path, sections: int) -> list[tuple[int, str]]:
    readme = "# Web UI\n\n" + "\n".join(SECTION.format(n=n) for n in range(1, sections + 1))
    start = '#!/bin/sh\nexec python -m webui --server_port 7860 "$@"\n'
    make_tree(tmp_path, {"Dockerfile": DOCKERFILE, "start_web_ui.sh": start, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")

    def rebuild(_: ImageModel, args: Mapping[str, str]) -> ImageModel:
        return build_model(tmp_path / "Dockerfile", "Dockerfile", dict(args))

    found = audit(readme, "README.md", [model], {}, tmp_path, tmp_path, rebuild)
    return [(d.line, d.message) for d in found]


def _counted(monkeypatch: pytest.MonkeyPatch, name: str) -> list[object]:
    """Counts the calls of `audit_facts.NAME` (one entry a call), calling it through."""
    calls: list[object] = []
    real: Callable[..., Any] = getattr(audit_facts, name)

    def counting(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(audit_facts, name, counting)
    return calls


def test_each_part_finds_what_it_found_alone(tmp_path: Path) -> None:
    # three sections, each its own build (`--build-arg JOBS=n`): three parts, each with its findings
    found = _audit(tmp_path / "three", 3)
    alone = _audit(tmp_path / "one", 1)
    published = [f for f in found if "publishes container port 8188" in f[1]]
    # one claim, word for word, in each part: one finding naming the three lines
    assert [told_at(*f) for f in published] == [[7, 22, 37]]
    assert [f for f in alone if "publishes container port 8188" in f[1]]
    rows = [f for f in found if "port table gives Web UI container port 8188" in f[1]]
    assert [told_at(*f) for f in rows] == [[12, 27, 42]]
    assert [m.split("; also at")[0] for _, m in rows] == [m for _, m in alone if "port table" in m]


def test_the_readme_and_the_files_are_read_once_an_audit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = _counted(monkeypatch, "built_repositories")
    tagged = _counted(monkeypatch, "tagged_names")
    texts = _counted(monkeypatch, "text_or_none")
    lints = _counted(monkeypatch, "lint_of")
    assert _audit(tmp_path, 4) != []
    assert len(built) == 1 and len(tagged) == 1
    assert [Path(str(args[0])).name for args in texts] == ["start_web_ui.sh"]
    assert len(lints) == 1  # the Dockerfile, linted once for every part's build-argument table


def test_a_second_audit_reads_them_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # nothing outlives an audit: an edited README or script is read afresh
    built = _counted(monkeypatch, "built_repositories")
    _audit(tmp_path, 2)
    _audit(tmp_path, 2)
    assert len(built) == 2


def test_the_whole_readme_facts_are_refused_before_the_asides_are_set_aside() -> None:
    facts = audit_facts.AuditFacts(
        read_document("# Web UI\n\n```bash\ndocker build -t acme/webui .\n```\n", "README.md")
    )
    with pytest.raises(RuntimeError, match="set aside"):
        _ = facts.doc
    with pytest.raises(RuntimeError, match="set aside"):
        _ = facts.built
    facts.settle()
    assert "acme/webui" in facts.built


def test_the_facts_are_read_from_the_readme_with_its_host_section_set_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build line under `## Native build` (a section about the host, set aside before any rule reads the
    whole README) is not among the builds the rules compare with; the image's own section's is. Read
    before the set-aside step, it would be."""
    seen: list[str] = []

    def recording(doc: Any) -> dict[str, set[str | None]]:
        seen.extend(text for fence in doc.fences for _, text in fence.lines)
        return {}

    monkeypatch.setattr(audit_facts, "built_repositories", recording)
    host = "\n## Native build\n\n```bash\ndocker build -t acme/legacy:0.9 .\n```\n"
    readme = "# Web UI\n\n" + SECTION.format(n=1) + host
    make_tree(tmp_path, {"Dockerfile": DOCKERFILE, "start_web_ui.sh": "#!/bin/sh\n", "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    audit(readme, "README.md", [model], {}, tmp_path, tmp_path)
    assert any("acme/webui" in line for line in seen)
    assert not any("acme/legacy" in line for line in seen)


WRAPPED = """\
FROM rocm/dev-ubuntu-22.04:6.2
ARG PYTHON_VERSION=3.10.14
RUN apt-get update && apt-get install -y python${PYTHON_VERSION%.*}
"""


@pytest.mark.parametrize(
    ("intro", "command", "told"),
    [
        # the example's choice, passed on through the project's own build script
        ("The example below builds Python 3.12 container.", "./build.sh --py_version 3.12", False),
        ("Build it with the following command (Python 3.12):", "./build.sh --python 3.12", False),
        # a plain claim, or an example that passes another version, stays a claim about the Dockerfile
        ("The image ships Python 3.12.", "./build.sh --py_version 3.12", True),
        ("The example below builds Python 3.12 container.", "./build.sh --py_version 3.11", True),
        ("The example below builds Python 3.12 container.", "python3.12 -m build", True),
    ],
)
def test_a_version_the_example_below_passes_is_the_examples(
    tmp_path: Path, intro: str, command: str, told: bool
) -> None:
    make_tree(tmp_path, {"Dockerfile": WRAPPED, "build.sh": "docker build --build-arg PYTHON_VERSION=$2 .\n"})
    readme = f"# JAX on ROCm\n\n{intro}\n\n```bash\n{command}\n```\n"
    found = audit(readme, "README.md", build_model(tmp_path / "Dockerfile", "Dockerfile"), {}, tmp_path)
    assert any("README says Python 3.12" in d.message for d in found) is told
