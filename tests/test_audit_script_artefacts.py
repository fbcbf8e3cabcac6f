"""`docgen audit`: a script the README says sets up udev rules, a systemd unit or a cron job whose text
never names it (docgen/audit/script_artefacts.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = "FROM ubuntu:24.04\nCOPY scripts/ /opt/scripts/\n"

PASSTHROUGH = """\
# GPU passthrough kit

## Layout

- **`host/`**:
  - `prepare_host.sh`: host-side script configuring udev rules and group permissions.
- **`scripts/`**:
  - `serve.sh`: starts the server.
"""

CHMOD_ONLY = (
    "#!/usr/bin/env bash\nset -eu\nchmod 666 /dev/kfd\nchmod 666 /dev/dri/renderD* || true\nlspci -d 1002:\n"
)


def artefacts(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(
        root, {"README.md": readme, "Dockerfile": DOCKERFILE, "scripts/serve.sh": "#!/bin/sh\n", **files}
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", [model], {}, root, root)
        if "sets up" in d.message
    ]


def test_a_script_said_to_configure_udev_rules_that_writes_none(tmp_path: Path) -> None:
    assert artefacts(tmp_path, PASSTHROUGH, {"host/prepare_host.sh": CHMOD_ONLY}) == [
        (
            6,
            "README says prepare_host.sh sets up udev rules, but host/prepare_host.sh (lines 1-5) names no "
            "udev rule, rules.d folder or udevadm: it makes none",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    "files",
    [
        # it writes one
        {
            "host/prepare_host.sh": CHMOD_ONLY
            + 'echo \'KERNEL=="kfd", MODE="0666"\' > /etc/udev/rules.d/70-kfd.rules\n'
        },
        {"host/prepare_host.sh": CHMOD_ONLY + "cp 70-kfd.rules /etc/\n"},
        # a helper it runs writes one
        {
            "host/prepare_host.sh": CHMOD_ONLY + 'bash "$(dirname "$0")/write_rules.sh"\n',
            "host/write_rules.sh": "#!/bin/sh\nudevadm control --reload-rules\n",
        },
        # a package it installs may ship them
        {"host/prepare_host.sh": CHMOD_ONLY + "apt-get install -y rocm-dkms\n"},
        # no such script, or two of the name: which one is meant is not known
        {},
        {"host/a/prepare_host.sh": CHMOD_ONLY, "host/b/prepare_host.sh": CHMOD_ONLY},
    ],
)
def test_a_script_that_may_make_the_rules_is_not_told(tmp_path: Path, files: dict[str, str]) -> None:
    assert artefacts(tmp_path, PASSTHROUGH, files) == []


@pytest.mark.parametrize(
    "line",
    [
        # denied, left to the reader, or not the script's doing
        "  - `prepare_host.sh`: sets group permissions; it does not configure udev rules.",
        "  - `prepare_host.sh`: sets group permissions. You still need to add udev rules yourself.",
        "  - `prepare_host.sh`: sets group permissions (udev rules are optional).",
        "  - udev rules: see `prepare_host.sh`.",
    ],
)
def test_a_sentence_that_does_not_claim_it(tmp_path: Path, line: str) -> None:
    readme = PASSTHROUGH.replace(
        "  - `prepare_host.sh`: host-side script configuring udev rules and group permissions.", line
    )
    assert artefacts(tmp_path, readme, {"host/prepare_host.sh": CHMOD_ONLY}) == []


KIOSK = """\
# Kiosk display

| Script | What it does |
|---|---|
| `tools/install.sh` | installs a systemd service that starts the browser at boot |
| `tools/rotate.py` | adds a cron job rotating the screenshots |
"""


def test_a_table_of_scripts_with_a_unit_and_a_cron_job(tmp_path: Path) -> None:
    files = {
        "tools/install.sh": "#!/bin/sh\ncp kiosk.desktop ~/.config/autostart/\n",
        "tools/rotate.py": "import shutil\nshutil.rmtree('shots/old', ignore_errors=True)\n",
    }
    found = artefacts(tmp_path, KIOSK, files)
    assert [(line, message.split(",")[0]) for line, message, _ in found] == [
        (5, "README says tools/install.sh sets up a systemd unit"),
        (6, "README says tools/rotate.py sets up a cron job"),
    ]
    files["tools/install.sh"] += "systemctl enable --now kiosk.service\n"
    files["tools/rotate.py"] += (
        "# installed with: crontab -l | { cat; echo '0 3 * * * rotate.py'; } | crontab -\n"
    )
    assert artefacts(tmp_path / "b", KIOSK, files) == []
