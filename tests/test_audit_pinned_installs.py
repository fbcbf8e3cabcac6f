"""`docgen audit`: a package at a pinned version the README says the image installs
(docgen/audit/pinned_installs.py), against the Dockerfile's installs and its base.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

LOCAL = """\
FROM rover-base:stable
WORKDIR /srv/rover
COPY . /srv/rover/
RUN pip install --no-cache-dir fastapi==0.111.0 uvicorn==0.30.1
"""


def _audited(tmp_path: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(tmp_path, {"README.md": readme, **files})
    models = [build_model(tmp_path / path, path) for path in files if path.endswith("Dockerfile")]
    return [f"{d.line}: {d.message}" for d in audit(readme, "README.md", models, {}, tmp_path)]


@pytest.mark.parametrize(
    "said",
    [
        "The image installs `httpx==0.27.0` and its dependencies.",
        "- Includes httpx==0.27.0 for the API client",
        "- 构建时自动安装 `httpx==0.27.0` 及其依赖",
        "- 镜像包含 `httpx==0.27.0`",
    ],
)
def test_a_pinned_package_nothing_installs(tmp_path: Path, said: str) -> None:
    readme = f"# Rover service\n\n## Image\n\n{said}\n"
    assert _audited(tmp_path, readme, {"Dockerfile": LOCAL}) == [
        "5: README says the image installs httpx==0.27.0 but nothing in Dockerfile installs httpx "
        "(built on rover-base:stable)"
    ]


@pytest.mark.parametrize(
    ("files", "said"),
    [
        # installed (at another version, the version rules say so)
        ({"Dockerfile": LOCAL}, "The image installs `fastapi==0.111.0`."),
        # the base brings it
        ({"Dockerfile": LOCAL.replace("rover-base:stable", "example/httpx-runtime:1")}, None),
        # a script the Dockerfile runs installs it
        (
            {
                "Dockerfile": LOCAL + "RUN bash /srv/rover/tools/extras.sh\n",
                "tools/extras.sh": "pip install httpx==0.27.0\n",
            },
            None,
        ),
        # a requirements file the Dockerfile installs lists it
        (
            {
                "Dockerfile": LOCAL + "RUN pip install -r /srv/rover/requirements-api.txt\n",
                "requirements-api.txt": "httpx==0.27.0\n",
            },
            None,
        ),
        # the reader installs it
        ({"Dockerfile": LOCAL}, "The image does not ship it: install `httpx==0.27.0` yourself."),
        ({"Dockerfile": LOCAL}, "For the client, run `pip install httpx==0.27.0` in the container."),
        ({"Dockerfile": LOCAL}, "- 如需客户端，请手动安装 `httpx==0.27.0`"),
    ],
)
def test_a_pinned_package_the_image_may_hold_or_the_reader_installs(
    tmp_path: Path, files: dict[str, str], said: str | None
) -> None:
    readme = f"# Rover service\n\n## Image\n\n{said or 'The image installs `httpx==0.27.0`.'}\n"
    assert _audited(tmp_path, readme, files) == []


def test_a_base_another_dockerfile_of_the_readme_builds_may_bring_it(tmp_path: Path) -> None:
    # the section is about api/Dockerfile alone; its base is the image base/Dockerfile builds
    readme = (
        "# Rover\n\n## api/Dockerfile\n\nThe image includes `httpx==0.27.0`.\n\n"
        "```bash\ndocker build -f api/Dockerfile -t rover-api .\n```\n\n## base/Dockerfile\n\n"
        "```bash\ndocker build -f base/Dockerfile -t rover-base:stable .\n```\n"
    )
    files = {
        "api/Dockerfile": LOCAL,
        "base/Dockerfile": "FROM python:3.12-slim\nRUN pip install httpx==0.27.0\n",
    }
    assert _audited(tmp_path, readme, files) == []
    del files["base/Dockerfile"]  # (the same README against the api image alone: nothing builds its base)
    assert _audited(tmp_path / "alone", readme, files) == [
        "5: README says the image installs httpx==0.27.0 but nothing in api/Dockerfile installs httpx "
        "(built on rover-base:stable)"
    ]


def test_a_mistake_the_extractor_read_still_lets_it_tell(tmp_path: Path) -> None:
    # an unquoted bound (`docgen lint` DG013) is a mistake read, not a construct left unread: the
    # installs are all known, so a package nothing installs is still told
    unquoted = LOCAL + "RUN pip install --no-cache-dir pydantic>=2.7\n"
    readme = "# Rover service\n\n## Image\n\nThe image installs `httpx==0.27.0` and its dependencies.\n"
    assert _audited(tmp_path, readme, {"Dockerfile": unquoted}) == [
        "5: README says the image installs httpx==0.27.0 but nothing in Dockerfile installs httpx "
        "(built on rover-base:stable)"
    ]
