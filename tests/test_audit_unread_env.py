"""`docgen audit`: a variable a README passes to the container beside others that the image's start reads,
while nothing of the image reads it (docgen/audit/unread_env.py).

Each case: a planted drift next to the nearest true statements (traps)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

# A simulator image whose entrypoint script picks a mode from variables (as GPU simulator stacks do).
SIM_DOCKERFILE = """\
FROM nvcr.io/nvidia/isaac-sim:4.5.0
COPY start.sh /opt/sim/start.sh
RUN chmod +x /opt/sim/start.sh
ENTRYPOINT ["/opt/sim/start.sh"]
"""
SIM_START = """\
#!/bin/bash
set -e
echo "preparing caches"
if [ "${RUN_GUI}" = "true" ]; then
  exec /opt/sim/gui.sh "$@"
elif [ "${RUN_SHELL}" = "true" ]; then
  exec /bin/bash
fi
exec /opt/sim/headless.sh
"""
SIM_README = """\
# Simulator container

```bash
docker build -t simlab:1.0 .
docker run --gpus all -e "ACCEPT_EULA=Y" -e "SIM_LICENSE_SERVER=lic.example.org" simlab:1.0
```

### Environment Variables
```bash
# GUI mode
-e "RUN_GUI=true"
# Shell
-e "RUN_SHELL=true"
# Rebuild the extension cache
-e "REBUILD_EXTENSIONS=true"
```
"""

# A training image whose CMD is a shell string reading the data path only.
TRAIN_DOCKERFILE = """\
FROM pytorch/pytorch:2.3.1-cuda12.1-cudnn8-runtime
RUN pip install zarr einops
WORKDIR /work/app
CMD ["sh", "-c", "python ./stats.py --path $DATA_FILE && python ./train.py --path $DATA_FILE"]
"""
TRAIN_README = """\
# Policy training

```sh
docker build -t trainer .
docker run --gpus all -v $(pwd)/data:/work/app/data -e DATA_FILE=data/demo.parquet -e EPOCHS=500 trainer
```
"""


def found(root: Path, files: dict[str, str], readme: str) -> list[tuple[int, str, str]]:
    make_tree(root, {**files, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, root, root)]


SIM = {"Dockerfile": SIM_DOCKERFILE, "start.sh": SIM_START}
TRAIN = {"Dockerfile": TRAIN_DOCKERFILE}


def test_a_mode_variable_the_entrypoint_script_never_reads(tmp_path: Path) -> None:
    said = (
        "README passes REBUILD_EXTENSIONS as an environment variable of the container, but nothing in the "
        "image reads it: start.sh, which the image starts, reads RUN_GUI, RUN_SHELL and never "
        "REBUILD_EXTENSIONS"
    )
    # (the run's ACCEPT_EULA and SIM_LICENSE_SERVER: none of them is the script's, the simulator's own)
    assert found(tmp_path, SIM, SIM_README) == [(15, said, "likely")]


def test_a_variable_beside_one_a_shell_cmd_reads(tmp_path: Path) -> None:
    said = (
        "README passes EPOCHS as an environment variable of the container, but nothing in the image reads "
        "it: CMD (Dockerfile:4), which the image starts, reads DATA_FILE and never EPOCHS"
    )
    assert found(tmp_path, TRAIN, TRAIN_README) == [(5, said, "likely")]


@pytest.mark.parametrize(
    ("files", "readme"),
    [
        # the script reads it
        (
            {
                **SIM,
                "start.sh": SIM_START.replace("set -e", 'set -e\n[ -n "$REBUILD_EXTENSIONS" ] && rm -rf c'),
            },
            SIM_README,
        ),
        # the Dockerfile names it (an ENV default the application reads)
        ({**SIM, "Dockerfile": SIM_DOCKERFILE + "ENV REBUILD_EXTENSIONS=false\n"}, SIM_README),
        # a file the image copies in names it
        (
            {
                **TRAIN,
                "Dockerfile": TRAIN_DOCKERFILE.replace("WORKDIR", "COPY train.py .\nWORKDIR"),
                "train.py": "import os\nEPOCHS = int(os.environ.get('EPOCHS', 100))\n",
            },
            TRAIN_README,
        ),
        # a script of the project names it (it may be mounted)
        ({**TRAIN, "scripts/train.py": "epochs = os.environ['EPOCHS']\n"}, TRAIN_README),
        # a variable a library reads itself
        (TRAIN, TRAIN_README.replace("EPOCHS=500", "HF_TOKEN=hf_xxx")),
        # the run replaces the entrypoint
        (SIM, SIM_README.replace("docker run --gpus all", "docker run --entrypoint bash --gpus all")),
        # the CMD is no shell: the program may read the environment
        (
            {
                "Dockerfile": TRAIN_DOCKERFILE.replace(
                    TRAIN_DOCKERFILE.splitlines()[-1], 'CMD ["python", "train.py"]'
                )
            },
            TRAIN_README,
        ),
        # a run passing one variable only
        (TRAIN, TRAIN_README.replace(" -e DATA_FILE=data/demo.parquet", "")),
    ],
)
def test_variables_the_image_may_read(tmp_path: Path, files: dict[str, str], readme: str) -> None:
    assert [f for f in found(tmp_path, files, readme) if "nothing in the image reads" in f[1]] == []
