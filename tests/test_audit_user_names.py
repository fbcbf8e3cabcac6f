"""`docgen.audit.user_names`: a README naming the image's user with its id while the Dockerfile makes the
user of that id under another name is a `likely` finding; the host's user, a run-time `--user`, a name
the README passes as a build arg, a base image's user and a name the Dockerfile uses are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

SANDBOX = """\
FROM ubuntu:24.04
RUN apt-get update && apt-get install -y sudo git curl
ARG TOOLBOX_VERSION=v0.3.0
LABEL org.opencontainers.image.title="toolbox sandbox" com.toolbox.flavour="plain"
ARG USERNAME=devel
ARG USER_UID=1000
ARG USER_GID=1000
RUN groupadd --gid "${USER_GID}" "${USERNAME}" \\
 && useradd --non-unique --uid "${USER_UID}" --gid "${USER_GID}" -m -s /bin/bash "${USERNAME}" \\
 && echo "${USERNAME} ALL=(root) NOPASSWD:ALL" > "/etc/sudoers.d/${USERNAME}"
ENV HOME="/home/${USERNAME}"
WORKDIR /workspace
"""
"""Modelled on a coding-agent sandbox image: the user's name and id from build args."""

SLIM = """\
FROM python:3.12-slim AS runtime
RUN useradd -m -u 1000 appsvc && mkdir /data && chown appsvc:appsvc /data
COPY --chown=appsvc:appsvc . /srv
USER appsvc
EXPOSE 8000
"""
"""Modelled on a Python service image: a fixed user made and switched to."""


def found(root: Path, dockerfile: str, readme: str) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "README.md", model, {}, root, root)
        if "uid" in d.message
    ]


def said(name: str, uid: str, made: str) -> str:
    return (
        f"README says the image's user {name} has uid {uid}, but Dockerfile makes uid {uid} as user {made}: "
        f"no user {name} exists in the image"
    )


@pytest.mark.parametrize(
    ("dockerfile", "readme", "finding"),
    [
        (
            SANDBOX,
            "# toolbox\n\n## Container design\n\n- Ephemeral containers, removed on exit\n"
            "- Non-root user `toolbox` (uid 1000) with passwordless sudo\n",
            (6, said("toolbox", "1000", "devel"), "likely"),
        ),
        (
            SLIM,
            "# Panel bot\n\n## Docker\n\n- **Base Image**: `python:3.12-slim`\n"
            "- **Non-root User**: `panelbot` (UID 1000)\n- **Ports**: 8000\n",
            (6, said("panelbot", "1000", "appsvc"), "likely"),
        ),
    ],
)
def test_a_user_named_otherwise(
    tmp_path: Path, dockerfile: str, readme: str, finding: tuple[int, str, str]
) -> None:
    assert found(tmp_path, dockerfile, readme) == [finding]


@pytest.mark.parametrize(
    ("dockerfile", "readme"),
    [
        (SLIM, "# Panel bot\n\nThe service runs as `appsvc` (UID 1000) inside the container.\n"),  # true
        (SANDBOX, "# toolbox\n\nNon-root user `devel` (uid 1000) with passwordless sudo.\n"),  # true
        (  # the host's user
            SANDBOX,
            "# toolbox\n\nOn the host, user `alice` (uid 1000) owns the mounted workspace.\n",
        ),
        (  # a run-time choice
            SANDBOX,
            "# toolbox\n\nStart it with `--user toolbox` to be user `toolbox` (uid 1000).\n",
        ),
        (  # the README passes the name as a build arg
            SANDBOX,
            "# toolbox\n\n```bash\ndocker build --build-arg USERNAME=toolbox -t toolbox .\n```\n\n"
            "- Non-root user `toolbox` (uid 1000) with passwordless sudo\n",
        ),
        (  # a base image's own user
            SANDBOX.replace("FROM ubuntu:24.04", "FROM org/toolbox-base:2"),
            "# toolbox\n\n- Non-root user `toolbox` (uid 1000)\n",
        ),
        (SANDBOX, "# toolbox\n\n- Non-root user `ubuntu` (uid 1000)\n"),  # Ubuntu's own user
        (  # the Dockerfile uses the name as a user
            SANDBOX + "RUN chown -R toolbox /workspace\n",
            "# toolbox\n\n- Non-root user `toolbox` (uid 1000)\n",
        ),
        (SANDBOX, "# toolbox\n\n- Non-root user `toolbox` (uid 1001)\n"),  # another id: no user of it
        (
            SANDBOX.replace('"${USER_UID}"', '"${HOST_UID}"'),  # an id that does not expand
            "# toolbox\n\n- Non-root user `toolbox` (uid 1000)\n",
        ),
    ],
)
def test_users_the_image_may_have(tmp_path: Path, dockerfile: str, readme: str) -> None:
    assert found(tmp_path, dockerfile, readme) == []


def test_a_user_the_settings_rule_reported_is_told_once(tmp_path: Path) -> None:
    # line 5: `runs as user` is a claim `settings` compares with the image's USER, and reports; line 6 is
    # no claim it reads: `user_names` tells that one
    readme = (
        "# Panel bot\n\n## Docker\n\n- Runs as user `panelbot` (uid 1000)\n"
        "- **Non-root User**: `botsvc` (UID 1000)\n"
    )
    make_tree(tmp_path, {"Dockerfile": SLIM, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    assert [(d.line, d.message) for d in audit(readme, "README.md", model, {}, tmp_path, tmp_path)] == [
        (5, "README says the image runs as user panelbot but Dockerfile:4 says USER appsvc"),
        (6, said("botsvc", "1000", "appsvc")),
    ]


# --------------------------------------------------------------------------------------------------
# A home of a user the image does not have (`missing_homes`)

AGENT = """\
ARG BASE_CONTAINER
FROM ${BASE_CONTAINER}
RUN apt-get update && apt-get install -y wget
ARG AGENT_VERSION
RUN wget -O ~/agent.tar.gz https://example.org/agent/${AGENT_VERSION}/agent-linux.tar.gz
WORKDIR /root
RUN tar -xf agent.tar.gz
ENTRYPOINT ["./agent"]
"""
"""Modelled on a GPU-sharing server image: root's home, the base given by a build script."""

NOTEBOOK = """\
FROM python:3.11-slim
RUN pip install --no-cache-dir jupyterlab==4.2.5
WORKDIR /srv/notebooks
CMD ["jupyter", "lab", "--ip=0.0.0.0", "--allow-root"]
"""
"""Modelled on a notebook server image: a plain base, run as root."""


def homes(root: Path, dockerfile: str, readme: str) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "is in the container" in d.message
    ]


def test_a_home_of_no_user_of_the_image(tmp_path: Path) -> None:
    readme = (
        "# Agent server\n\n## Logs\n\nLogs are written to `/home/operator/agent/log`. Mount a volume there.\n"
    )
    assert homes(tmp_path, AGENT, readme) == [
        (
            5,
            "README says /home/operator/agent/log is in the container, but no Dockerfile makes a user "
            "operator or /home/operator: it runs as root in WORKDIR /root (Dockerfile:6)",
            "likely",
        )
    ]


def test_a_home_of_no_user_of_a_plain_base(tmp_path: Path) -> None:
    readme = "# Notebooks\n\nThe container keeps notebooks in `/home/analyst/work`.\n"
    assert [line for line, _, _ in homes(tmp_path, NOTEBOOK, readme)] == [3]


@pytest.mark.parametrize(
    ("dockerfile", "readme"),
    [
        # the image makes the user, switches to one, or names the home
        (AGENT + "RUN useradd -m operator\n", "Logs go to `/home/operator/log` in the container.\n"),
        (AGENT + "USER 1000\n", "Logs go to `/home/operator/log` in the container.\n"),
        (AGENT + "ENV HOME=/home/operator\n", "Logs go to `/home/operator/log` in the container.\n"),
        # a base image's user, or a base of the project's that may make it
        (
            NOTEBOOK.replace("python:3.11-slim", "quay.io/jupyter/base-notebook:2024-10-07"),
            "Notebooks are in `/home/jovyan/work` in the container.\n",
        ),
        (
            NOTEBOOK.replace("python:3.11-slim", "acme/notebook-base:3"),
            "Notebooks are in `/home/analyst/work` in the container.\n",
        ),
        # the host's home, a choice or an example
        (AGENT, "Logs go to `/home/operator/log` on the host; mount it into the container.\n"),
        (AGENT, "Mount your data, e.g. `-v /home/operator/data:/data`, into the container.\n"),
        (AGENT, "If you run as another user, logs go to `/home/operator/log` in the container.\n"),
        # a path the sentence does not place in the container
        (AGENT, "Logs go to `/home/operator/log`.\n"),
    ],
)
def test_homes_left_alone(tmp_path: Path, dockerfile: str, readme: str) -> None:
    assert homes(tmp_path, dockerfile, "# Agent\n\n" + readme) == []
