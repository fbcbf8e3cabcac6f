"""`docgen audit`: a README telling the reader to reach the container by SSH while the image runs no SSH
server (docgen/audit/ssh_access.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

TEXTGEN = (
    "FROM nvidia/cuda:12.1.1-base-ubuntu22.04\n"
    "RUN apt-get update && apt-get install -y git python3-pip && rm -rf /var/lib/apt/lists/*\n"
    "WORKDIR /srv\n"
    "RUN git clone https://example.com/acme/textgen.git .\n"
    "EXPOSE 7860\n"
    'CMD ["python3", "serve.py", "--listen"]\n'
)
TEXTGEN_README = "## Textgen image\n\nCUDA 12.1, Ubuntu 22.04.\n\nNo notebook server, connect with SSH.\n"
DEVBOX = (
    "FROM python:3.12-slim\n"
    "RUN pip install --no-cache-dir poetry\n"
    "COPY start.sh /start.sh\n"
    'CMD ["/start.sh"]\n'
)
START = "#!/bin/sh\nexec python -m http.server 8000\n"
DEVBOX_README = (
    "# Devbox\n\n```bash\ndocker build -t devbox .\ndocker run -d -p 2222:22 -p 8000:8000 devbox\n"
    "ssh -p 2222 root@localhost\n```\n"
)


def _findings(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, files)
    model = build_model(root / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", model, {}, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "SSH" in d.message]


def test_a_sentence_saying_the_container_is_reached_by_ssh(tmp_path: Path) -> None:
    assert _findings(tmp_path, TEXTGEN_README, {"Dockerfile": TEXTGEN}) == [
        "5: README says the container is reached by SSH (connect with SSH), but Dockerfile installs and "
        "starts no SSH server (no openssh-server, sshd or dropbear; its base "
        "nvidia/cuda:12.1.1-base-ubuntu22.04 carries none) and opens no port 22 (likely)"
    ]


def test_a_port_22_mapping_and_an_ssh_login_to_localhost(tmp_path: Path) -> None:
    found = _findings(tmp_path, DEVBOX_README, {"Dockerfile": DEVBOX, "start.sh": START})
    assert [f.split(", but")[0] for f in found] == [
        "5: README says the container is reached by SSH (docker run -d -p 2222:22)"
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the image installs or starts a server
        (
            TEXTGEN_README,
            {"Dockerfile": TEXTGEN.replace("git python3-pip", "git openssh-server python3-pip")},
        ),
        (
            DEVBOX_README,
            {"Dockerfile": DEVBOX, "start.sh": "#!/bin/sh\n/usr/sbin/sshd\nexec sleep infinity\n"},
        ),
        (TEXTGEN_README, {"Dockerfile": TEXTGEN.replace("EXPOSE 7860", "EXPOSE 7860 22")}),
        # a base that may ship its own sshd
        (
            TEXTGEN_README,
            {"Dockerfile": TEXTGEN.replace("nvidia/cuda:12.1.1-base-ubuntu22.04", "acme/devbase:2")},
        ),
        # SSH to a host, a server, a cluster; a negation; git over SSH
        (
            "# Textgen\n\nConnect to your GPU server with SSH, then run `docker compose up`.\n",
            {"Dockerfile": TEXTGEN},
        ),
        ("# Textgen\n\nSSH into the host and start the image.\n", {"Dockerfile": TEXTGEN}),
        ("# Textgen\n\nThere is no need to connect with SSH: open the web UI.\n", {"Dockerfile": TEXTGEN}),
        (
            "# Textgen\n\n```bash\nssh me@gpu-01.example.org\n"
            "git clone git@example.com:acme/textgen.git\n```\n",
            {"Dockerfile": TEXTGEN},
        ),
    ],
)
def test_no_finding_where_an_ssh_server_may_run_or_ssh_is_not_into_the_container(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    assert _findings(tmp_path, readme, files) == []
