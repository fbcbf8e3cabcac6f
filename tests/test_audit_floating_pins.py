"""`docgen audit`: an exact pin a README gives of a package the Dockerfile installs with no version
(docgen/audit/floating_pins.py), when nothing else can hold the version.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

README = """\
# Lumen inference image

## Python packages

- `lumenvision==0.9.2`
- `lumencore>=2.1.0`
"""

POETRY = """\
ARG BASE_IMAGE=lumen-base:latest
FROM ${BASE_IMAGE}
WORKDIR /srv
RUN poetry add lumencore \\
    lumenvision \\
    tilekit>=1.4.0
RUN poetry install --no-root
"""

SLIM = """\
FROM python:3.12-slim
RUN pip install --no-cache-dir lumencore lumenvision
"""


def _audited(tmp_path: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(tmp_path, {"README.md": readme, **files})
    models = [build_model(tmp_path / path, path) for path in files if path.endswith("Dockerfile")]
    found = audit(readme, "README.md", models, {}, tmp_path)
    return [f"{d.line}: {d.message}" for d in found]


@pytest.mark.parametrize(
    ("dockerfile", "line", "how", "base"),
    [
        (POETRY, 4, "poetry add", "lumen-base:latest"),
        (SLIM, 2, "pip install", "python:3.12-slim"),
        ("FROM ubuntu:24.04\nRUN uv pip install --system lumenvision\n", 2, "uv pip install", "ubuntu:24.04"),
        ("FROM python:3.11\nRUN python3 -m pip install lumenvision\n", 2, "pip install", "python:3.11"),
        ("FROM python:3.11\nWORKDIR /app\nRUN uv add lumenvision\n", 3, "uv add", "python:3.11"),
    ],
)
def test_a_pin_the_build_leaves_floating(
    tmp_path: Path, dockerfile: str, line: int, how: str, base: str
) -> None:
    assert _audited(tmp_path, README, {"Dockerfile": dockerfile}) == [
        f"5: README pins lumenvision==0.9.2 but Dockerfile:{line} installs lumenvision with no version "
        f"(`{how}`), which takes the newest release, and nothing else fixes it (built on {base})"
    ]


def test_a_block_that_lists_pins(tmp_path: Path) -> None:
    readme = "# Lumen\n\nPackage versions:\n\n```\nlumencore==2.1.0\nlumenvision==0.9.2\n```\n"
    found = _audited(tmp_path, readme, {"Dockerfile": SLIM})
    assert [f.split(" but ")[0] for f in found] == [
        "6: README pins lumencore==2.1.0",
        "7: README pins lumenvision==0.9.2",
    ]


def test_a_lock_install_without_a_lock_file(tmp_path: Path) -> None:
    dockerfile = SLIM + "COPY app /opt/app/\nRUN poetry install --no-root\n"
    files = {"Dockerfile": dockerfile, "app/pyproject.toml": '[project]\nname = "lumen"\n'}
    assert len(_audited(tmp_path, README, files)) == 1


def test_a_local_project_that_names_nothing(tmp_path: Path) -> None:
    dockerfile = SLIM + "COPY app /opt/app/\nRUN pip install -e /opt/app/\n"
    files = {"Dockerfile": dockerfile, "app/setup.py": "setup(install_requires=['lumencore>=2'])\n"}
    assert len(_audited(tmp_path, README, files)) == 1


@pytest.mark.parametrize(
    ("files", "readme"),
    [
        # a vendor's base may hold it, and pip keeps what is installed
        ({"Dockerfile": SLIM.replace("python:3.12-slim", "lumenlabs/lumen-runtime:2.1")}, README),
        ({"Dockerfile": SLIM.replace("python:3.12-slim", "nvcr.io/nvidia/pytorch:24.08-py3")}, README),
        # a base given by an arg with no default
        ({"Dockerfile": "ARG BASE\nFROM ${BASE}\nRUN pip install lumenvision\n"}, README),
        # constraints
        ({"Dockerfile": SLIM.replace("lumenvision", "-c /c.txt lumenvision")}, README),
        ({"Dockerfile": SLIM.replace("RUN", "ENV PIP_CONSTRAINT=/c.txt\nRUN")}, README),
        (
            {"Dockerfile": "FROM ubuntu:24.04\nENV UV_CONSTRAINT=/c.txt\nRUN uv pip install lumenvision\n"},
            README,
        ),
        # a lock file copied in
        (
            {
                "Dockerfile": POETRY.replace(
                    "WORKDIR /srv", "WORKDIR /srv\nCOPY pyproject.toml poetry.lock ./"
                )
            },
            README,
        ),
        (
            {
                "Dockerfile": SLIM + "COPY requirements.txt /r.txt\nRUN pip install -r /r.txt\n",
                "requirements.txt": "tilekit==1.4.0 --hash=sha256:00ff\n",
            },
            README,
        ),
        # a lock file a `uv sync` installs, in the folder copied
        (
            {
                "Dockerfile": "FROM python:3.12\nCOPY . /app\nWORKDIR /app\nRUN pip install uv && uv sync\n"
                "RUN pip install lumenvision\n",
                "uv.lock": "lumenvision 0.9.2\n",
            },
            README,
        ),
        # a later pin of it, a pin in the same Dockerfile, a wheel URL with its version
        ({"Dockerfile": SLIM + "RUN pip install lumenvision==0.9.2\n"}, README),
        (
            {
                "Dockerfile": "FROM python:3.12\nRUN pip install "
                "https://wheels.example.org/cu124/lumenvision-0.9.2%2Bcu124-cp312-cp312-linux_x86_64.whl\n"
                "RUN pip install lumenvision --index-url https://wheels.example.org/cu124\n"
            },
            README,
        ),
        # an upgrade, another package of the command held below a release
        ({"Dockerfile": SLIM.replace("--no-cache-dir", "-U")}, README),
        ({"Dockerfile": SLIM.replace("lumencore", "lumencore==2.1.0")}, README),
        # a list of packages that cannot be found, or that names it
        ({"Dockerfile": SLIM + "RUN pip install -r requirements/serve.txt\n"}, README),
        (
            {
                "Dockerfile": SLIM + "COPY app /opt/app/\nRUN pip install -e /opt/app/\n",
                "app/pyproject.toml": '[project]\ndependencies = ["lumenvision==0.9.2"]\n',
            },
            README,
        ),
        # an install script, a conda install of it
        (
            {"Dockerfile": SLIM + "COPY extras.sh /x.sh\nRUN bash /x.sh\n", "extras.sh": "pip install x\n"},
            README,
        ),
        ({"Dockerfile": SLIM + "RUN conda install -y lumenvision=0.9.2\n"}, README),
        # a base another audited Dockerfile builds with it
        (
            {
                "Dockerfile": POETRY,
                "base/Dockerfile": "FROM python:3.12\nRUN pip install poetry lumenvision==0.9.2\n",
            },
            README,
        ),
        # the README: a range, latest, a command, the reader's part, an example
        ({"Dockerfile": SLIM}, README.replace("lumenvision==0.9.2", "lumenvision>=0.9.2")),
        ({"Dockerfile": SLIM}, README.replace("`lumenvision==0.9.2`", "`lumenvision==0.9.2` (latest)")),
        ({"Dockerfile": SLIM}, "# Lumen\n\nRun `pip install lumenvision==0.9.2` to add it.\n"),
        ({"Dockerfile": SLIM}, "# Lumen\n\nYour host needs `lumenvision==0.9.2`.\n"),
        ({"Dockerfile": SLIM}, "# Lumen\n\nA pin, e.g. `lumenvision==0.9.2`, goes in the list.\n"),
        ({"Dockerfile": SLIM}, "# Lumen\n\n```bash\npip install lumenvision==0.9.2\n```\n"),
    ],
)
def test_what_holds_the_version_or_is_no_claim(tmp_path: Path, files: dict[str, str], readme: str) -> None:
    assert [f for f in _audited(tmp_path, readme, files) if "no version" in f] == []


# A version bound the shell reads as a redirection (`pip install inkscan>=2.9.1` unquoted: DG013)

OCR_README = """\
# Inkscan OCR server (CUDA 12.4)

## Python packages

- `inkscan>=2.9.1`
- `glyphnet<3`
- `pageflow>=1.0`
- `layoutkit~=0.8`

The server runs inkscan>=2.9.1 for text detection.

To try a newer detector yourself:

```bash
pip install inkscan>=3.0
```

## Changelog

- 0.3: moved to `inkscan>=2.9.1`
"""

OCR_DOCKERFILE = """\
ARG CUDA=12.4.1
FROM nvidia/cuda:${CUDA}-cudnn-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip > /dev/null
RUN pip3 install --no-cache-dir \\
      inkscan>=2.9.1 \\
      "glyphnet<3" \\
      pageflow \\
      layoutkit~=0.8 2>&1 | tee /tmp/pip.log
"""


def test_a_bound_the_shell_reads_as_a_redirection(tmp_path: Path) -> None:
    """The list item and the prose sentence state the bound the Dockerfile wrote unquoted: the image has
    none. A quoted bound, a package installed with no bound the README never wrote in the Dockerfile
    (the newest release satisfies `>=1.0`), `~=`, the reader's own command and the changelog stay quiet."""
    found = _audited(tmp_path, OCR_README, {"Dockerfile": OCR_DOCKERFILE})
    said = (
        "README says inkscan>=2.9.1 but Dockerfile:5 installs inkscan with no bound (the shell reads "
        "inkscan>=2.9.1 unquoted in a RUN as inkscan with its output redirected to =2.9.1: docgen lint "
        "DG013)"
    )
    assert found == [f"5: {said}", f"10: {said}"]
    make_tree(tmp_path, {"README.md": OCR_README, "Dockerfile": OCR_DOCKERFILE})
    models = [build_model(tmp_path / "Dockerfile", "Dockerfile")]
    confidences = [d.confidence for d in audit(OCR_README, "README.md", models, {}, tmp_path)]
    assert confidences == ["certain", "likely"]


TRAINER_README = """\
# ROCm trainer

| Package | Role |
|---|---|
| `torch<2.6` | training |
| `deepspeed>=0.14,<0.16` | ZeRO |
"""

TRAINER = """\
FROM rocm/dev-ubuntu-22.04:6.2
RUN apt-get update && apt-get install -y python3-pip
RUN pip install torch<2.6 deepspeed>=0.14,<0.16
"""


def test_bounds_of_a_rocm_trainer(tmp_path: Path) -> None:
    found = _audited(tmp_path, TRAINER_README, {"Dockerfile": TRAINER})
    assert [f.split(" but ")[0] for f in found] == [
        "5: README says torch<2.6",
        "6: README says deepspeed>=0.14,<0.16",
    ]
    assert "as torch with its input read from the file 2.6" in found[0]
    assert (
        "as deepspeed with its output redirected to =0.14, and its input read from the file 0.16" in found[1]
    )


@pytest.mark.parametrize(
    "dockerfile",
    [
        TRAINER.replace("torch<2.6 deepspeed>=0.14,<0.16", "'torch<2.6' \"deepspeed>=0.14,<0.16\""),
        # a later install holds the bound after all
        TRAINER + "RUN pip install 'torch<2.6' 'deepspeed>=0.14,<0.16'\n",
        # exec form: no shell
        TRAINER.replace("pip install torch<2.6 deepspeed>=0.14,<0.16", '["pip", "install", "torch<2.6"]'),
        # constraints fix what the image gets
        TRAINER.replace("pip install torch", "pip install -c /c.txt torch"),
    ],
)
def test_a_bound_the_image_keeps(tmp_path: Path, dockerfile: str) -> None:
    assert _audited(tmp_path, TRAINER_README, {"Dockerfile": dockerfile}) == []


def test_a_sibling_image_that_quotes_the_bound(tmp_path: Path) -> None:
    """Two images the README is about: one quotes the bound, so the README's bound holds for it."""
    files = {
        "rocm/Dockerfile": TRAINER,
        "cuda/Dockerfile": "FROM python:3.11\nRUN pip install 'torch<2.6' 'deepspeed>=0.14,<0.16'\n",
    }
    assert _audited(tmp_path, TRAINER_README, files) == []


def test_an_exact_pin_over_a_bound_the_shell_drops(tmp_path: Path) -> None:
    """The installs are read as the shell reads them: `lumenvision>=0.9` unquoted is `lumenvision` with no
    version (the pin is a finding); quoted, it holds the package (none)."""
    unquoted = "FROM python:3.12-slim\nRUN pip install lumenvision>=0.9 > /tmp/pip.log\n"
    found = _audited(tmp_path, README, {"Dockerfile": unquoted})
    assert [f.split(" but ")[0] for f in found] == ["5: README pins lumenvision==0.9.2"]
    quoted = unquoted.replace("lumenvision>=0.9", '"lumenvision>=0.9"')
    assert _audited(tmp_path, README, {"Dockerfile": quoted}) == []


RDNA = """\
FROM rocm/dev-ubuntu-24.04:7.0
ARG SERVE_REF=v0.16.0
RUN git clone https://github.com/acme/serve.git /app/serve && cd /app/serve && git checkout ${SERVE_REF} \\
    && pip install -r requirements/rocm.txt && pip install -e .
RUN pip install tokenizers==0.22.1
"""

RDNA_README = """\
# Serve on RDNA

## Notes

- The image pins `tokenizers==0.22.1` for the new vocabularies.
- New architectures still need matching support, but the image pins `transformers==5.7.0` so configs load.
- Older releases of this repository used to pin `accelerate==1.2.0`.
- You can pin `safetensors==0.5.0` yourself with a build of your own.
"""

KIOSK = """\
FROM python:3.12-slim
COPY requirements.txt /tmp/
RUN pip install --no-cache-dir -r /tmp/requirements.txt
"""


def test_a_pin_the_image_is_said_to_make_of_a_package_nothing_names(tmp_path: Path) -> None:
    # transformers is named nowhere (the clone's list is unread: said); tokenizers is pinned as said;
    # the history line and the reader's own pin are not the image's
    make_tree(tmp_path, {"Dockerfile": RDNA})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = [f"{d.line}: {d.message}" for d in audit(RDNA_README, "README.md", [model], {}, tmp_path)]
    assert found == [
        "6: README says the image pins transformers==5.7.0 but no line of Dockerfile or the files it copies "
        "names transformers (it installs a list or runs a script docgen cannot read, which may bring it)"
    ]


def test_a_pin_the_copied_requirements_make_is_no_finding(tmp_path: Path) -> None:
    readme = "# Kiosk\n\nThe image pins `flask==3.0.3` and the container pins `gunicorn==22.0.0`.\n"
    make_tree(tmp_path, {"Dockerfile": KIOSK, "requirements.txt": "flask==3.0.3\ngunicorn==22.0.0\n"})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    assert list(audit(readme, "README.md", [model], {}, tmp_path)) == []
    # the same README over a requirements file that lost gunicorn
    lost = tmp_path / "lost"
    make_tree(lost, {"Dockerfile": KIOSK, "requirements.txt": "flask==3.0.3\n"})
    model = build_model(lost / "Dockerfile", "Dockerfile")
    found = [d.message for d in audit(readme, "README.md", [model], {}, lost)]
    assert found == [
        "README says the image pins gunicorn==22.0.0 but no line of Dockerfile or the files it copies names "
        "gunicorn"
    ]
