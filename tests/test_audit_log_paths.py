"""`docgen audit`: a file of the container the README names that the image writes to another folder
(docgen/audit/log_paths.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

# A cloud-GPU template: a Logs table and a `tail -f` of the log its start script no longer writes there.
TEMPLATE_README = """\
# Kohya trainer template

## Logs

The trainer writes a log file you can tail.

| Application | Log file                   |
|-------------|----------------------------|
| Kohya       | /workspace/logs/kohya.log  |

```bash
tail -f /workspace/logs/kohya.log
```
"""
TEMPLATE_FILES = {
    "Dockerfile": 'FROM ubuntu:22.04\nCOPY scripts/ /scripts/\nCMD ["/scripts/start.sh"]\n',
    "scripts/start.sh": "#!/bin/bash\nmkdir -p /workspace/logs\n/scripts/start_kohya.sh\nsleep infinity\n",
    "scripts/start_kohya.sh": (
        "#!/bin/bash\ncd /kohya_ss\n"
        "nohup ./gui.sh --listen 0.0.0.0 --server_port 3011 > /var/log/kohya.log 2>&1 &\n"
    ),
}
# A ComfyUI server image whose README reads the log in the running container.
COMFY_README = """\
# ComfyUI server

```sh
docker run -d --name comfy --gpus all -p 8188:8188 org/comfy
docker exec comfy tail -n 50 /app/logs/comfyui.log
```
"""
COMFY_FILES = {
    "Dockerfile": 'FROM python:3.11\nCOPY entrypoint.sh /entrypoint.sh\nENTRYPOINT ["/entrypoint.sh"]\n',
    "entrypoint.sh": "#!/bin/sh\npython main.py --listen 2>&1 | tee /opt/comfy/comfyui.log\n",
}


def found(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "in the container, but" in d.message
    ]


def test_a_log_the_start_script_writes_elsewhere(tmp_path: Path) -> None:
    said = (
        "README names /workspace/logs/kohya.log in the container, but no file of the image names it: "
        "scripts/start_kohya.sh:3 writes kohya.log to /var/log/kohya.log; also at line 12"
    )
    assert found(tmp_path, TEMPLATE_README, TEMPLATE_FILES) == [(9, said, "likely")]


def test_a_log_read_with_docker_exec_is_certain(tmp_path: Path) -> None:
    said = (
        "README names /app/logs/comfyui.log in the container, but no file of the image names it: "
        "entrypoint.sh:2 writes comfyui.log to /opt/comfy/comfyui.log"
    )
    assert found(tmp_path, COMFY_README, COMFY_FILES) == [(5, said, "certain")]


@pytest.mark.parametrize(
    "changes",
    [
        # the script writes where the README says
        {"scripts/start_kohya.sh": "nohup ./gui.sh > /workspace/logs/kohya.log 2>&1 &\n"},
        # a link joins the folders
        {"scripts/start.sh": "#!/bin/bash\nln -s /var/log /workspace/logs\n/scripts/start_kohya.sh\n"},
        # the folder of the written log is a variable
        {"scripts/start_kohya.sh": "nohup ./gui.sh > ${LOG_DIR}/kohya.log 2>&1 &\n"},
        # two folders written: which one the README means is not told
        {"scripts/other.sh": "./gui.sh --log-file /opt/kohya/kohya.log\n"},
        # nothing writes a file of that name
        {"scripts/start_kohya.sh": "nohup ./gui.sh > /var/log/trainer.log 2>&1 &\n"},
    ],
)
def test_logs_the_image_accounts_for_are_silent(tmp_path: Path, changes: dict[str, str]) -> None:
    assert found(tmp_path, TEMPLATE_README, TEMPLATE_FILES | changes) == []
