"""The contents table's rows and every table's labels and links: which components get a row of their
own, how the rest is grouped, what each row is called (config names, forks) and how a URL docgen cannot
expand is shown.

The Dockerfiles under tests/data/contents/ are written for these tests in the style of public training
and serving images (verl, SGLang, vLLM); they are not copies.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree, run

from docgen.pipeline import build_model
from docgen.render import RenderOptions, render_sections
from docgen.rows import contents_rows, is_key_package

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "contents"
BUNDLED = ROOT / "docker" / "rocm" / "Dockerfile.rocm"


def rows(body: str) -> list[list[str]]:
    """The cells of every table row of a rendered section (header and rule rows left out)."""
    found = []
    for line in body.splitlines():
        if line.startswith("| ") and not line.startswith(("| Component |", "| Build arg |", "| GPU target")):
            found.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return found


def contents(path: Path, **options: object) -> list[list[str]]:
    model = build_model(path, path.name)
    return rows(render_sections(model, RenderOptions(**options), ["contents"])["contents"])  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------------
# Which rows


def test_bundled_image_groups_helpers_and_lists_rocm_once() -> None:
    found = contents(BUNDLED)
    names = [row[0] for row in found]
    # was 42: twelve apt, three deadsnakes and four pip rows now one row each; no row for the
    # deadsnakes repository (the python3.12 packages name it as their source) nor for a -r file
    assert len(found) == 23
    assert names.count("ROCm") == 1  # the `rocm` package repeated the repository row it comes from
    assert (
        "apt packages (12): build-essential, ca-certificates, ccache, curl, gfortran, git, gnupg, "
        "libnuma-dev, libsqlite3-dev, software-properties-common, sqlite3, wget"
    ) in names
    assert [
        "pip packages (4): setuptools, wheel, packaging, ninja",
        "`unpinned`",
        "[pypi.org/](https://pypi.org/)",
        "`base`",
        "L42",
    ] in found
    assert "apt packages (3): python3.12, python3.12-dev, python3.12-venv" in names
    # key components keep their own row: pinned ones, and GPU/ML ones even unpinned
    for name in (
        "PyTorch",
        "xgrammar",
        "cupy-rocm-7-0",
        "transformers",
        "verl",
        "Flash Attention (ROCm fork)",
    ):
        assert name in names
    assert "requirements/rocm.txt" not in names  # a list of components, not one


def test_training_image_rows() -> None:
    found = contents(DATA / "verl-cuda.Dockerfile")
    also = [row[0] for row in found[found.index(next(r for r in found if r[0].startswith("apt"))) :]]
    assert also == [
        "apt packages (12): software-properties-common, git, curl, wget, vim, ca-certificates, "
        "build-essential, ninja-build, libibverbs-dev, rdma-core, numactl, libnuma-dev",
        "apt packages (3): python3.11, python3.11-dev, python3.11-venv",
        "pip packages (6): pip, setuptools, wheel, packaging, ninja, cmake",
        "pip packages (3): datasets, hydra-core, wandb",
    ]
    names = [row[0] for row in found]
    for key in (
        "PyTorch",
        "torchvision",
        "vLLM",
        "transformers",
        "accelerate",
        "peft",
        "ray",
        "Megatron-core",
    ):
        assert key in names
    assert len(found) == 18  # every component listed once: 38 components; no deadsnakes or -r file row


def test_serving_image_rows() -> None:
    found = contents(DATA / "sglang-rocm.Dockerfile")
    names = [row[0] for row in found]
    assert "apt packages (5): git, curl, vim, cmake, ninja-build" in names
    assert {"libopenmpi-dev", "rocm-dev", "hipblaslt-dev", "Triton (ROCm fork)", "SGLang"} <= set(names)
    assert "pip packages (3): orjson, uvloop, pybase64" in names
    assert len(names) == len(set(names))


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("torch", True),
        ("cupy-rocm-7-0", True),
        ("nvidia-cudnn-cu12", True),
        ("libnccl2", True),
        ("rocm-dev", True),
        ("flash_attn", True),
        ("torch-memory-saver", True),
        ("setuptools", False),
        ("cmake", False),
        ("python3.12-dev", False),
        ("git", False),
        ("torchdata-nightly", False),
        ("hipster", False),
    ],
)
def test_key_packages(name: str, key: bool) -> None:
    assert is_key_package(name) is key


def test_rows_without_instruction_lines_group_by_line() -> None:
    model = build_model(BUNDLED, "Dockerfile.rocm")
    by_line = contents_rows(model.components)
    grouped = [row.name for row in by_line.packages if row.name.startswith("apt packages")]
    assert grouped[0].startswith("apt packages (9): build-essential")  # lines 26 and 27 apart


def test_group_cells_are_escaped() -> None:
    text = "FROM python:3.12\nRUN pip install 'numpy<2' six 'tqdm>=4,<5'\n"
    path = Path("Dockerfile")
    from docgen.dockerfile import parse_dockerfile
    from docgen.pipeline import model_of

    model = model_of(parse_dockerfile(text, path.name))
    body = render_sections(model, RenderOptions(), ["contents"])["contents"]
    # a member keeps the range it was asked for; `<` and `>` are entities, so the cell stays text
    assert "| pip packages (3): numpy&lt;2, six, tqdm&gt;=4,&lt;5 |" in body


# --------------------------------------------------------------------------------------------------
# Links docgen cannot know


def test_url_with_a_shell_variable_is_code_not_a_broken_link() -> None:
    model = build_model(DATA / "verl-cuda.Dockerfile", "Dockerfile")
    out = render_sections(model, RenderOptions(versions=("Miniforge3", "PyTorch")))
    url = "https://github.com/conda-forge/miniforge/releases/download/24.11.3-0/Miniforge3-24.11.3-0-Linux-${ARCH}.sh"
    for section in ("contents", "versions"):
        assert f"| `{url}` |" in out[section]
        assert "%7B" not in out[section]
    assert "[download.pytorch.org/whl/cu126](https://download.pytorch.org/whl/cu126)" in out["versions"]


# --------------------------------------------------------------------------------------------------
# Labels: every key of [tool.docgen.names], end to end through `docgen sync`

DOCKERFILE = """\
FROM rocm/dev-ubuntu-22.04:6.4.1-complete
ARG TE_TAG=v2.4
ARG PYTHON_VERSION=3.12
RUN git clone https://github.com/ROCm/TransformerEngine.git /te && cd /te && git checkout ${TE_TAG}
RUN git clone https://github.com/ROCm/flash-attention.git /fa && cd /fa && git checkout v2.8.0-cktile
RUN git clone https://github.com/verl-project/verl.git /verl && cd /verl && git checkout v0.6.0
RUN pip install torch==2.8.0 xgrammar==0.1.25 && apt-get install -y python${PYTHON_VERSION}-dev
"""

README = """\
# Image

## Versions
<!-- BEGIN docgen:versions -->
<!-- END docgen:versions -->

## Contents
<!-- BEGIN docgen:contents -->
<!-- END docgen:contents -->
"""


def synced(tmp: Path, names: str, image_names: str = "") -> dict[str, list[list[str]]]:
    """The versions and contents rows `docgen sync` writes with `names` as [tool.docgen.names]."""
    pyproject = (
        f"[tool.docgen]\n\n[tool.docgen.names]\n{names}\n\n"
        f'[[tool.docgen.images]]\ndockerfile = "Dockerfile"\noutputs = ["README.md"]\n{image_names}'
    )
    make_tree(tmp, {"pyproject.toml": pyproject, "Dockerfile": DOCKERFILE, "README.md": README})
    result = run("sync")
    assert result.code == 0, result.err
    text = (tmp / "README.md").read_text()
    versions, _, contents = text.partition("## Contents")
    return {"versions": rows(versions), "contents": rows(contents)}


def test_no_names_upstream_and_forks(chdir_tmp: Path) -> None:
    found = synced(chdir_tmp, "")
    names = [row[0] for row in found["contents"]]
    assert "verl" in names  # verl-project is verl's own organisation: not "(verl-project fork)"
    assert "TransformerEngine (ROCm fork)" in names
    assert "Flash Attention (ROCm fork)" in names


def test_names_by_build_arg(chdir_tmp: Path) -> None:
    found = synced(chdir_tmp, 'TE_TAG = "Transformer Engine"\nPYTHON_VERSION = "CPython"')
    assert "Transformer Engine (ROCm fork)" in [row[0] for row in found["contents"]]
    assert ["Transformer Engine", "`v2.4`"] in [row[:2] for row in found["versions"]]
    assert ["CPython", "`3.12`"] in [row[:2] for row in found["versions"]]
    # an arg only inside a package name does not rename the package
    assert "python3.12-dev" in [row[0] for row in found["contents"]]


def test_names_by_component(chdir_tmp: Path) -> None:
    found = synced(chdir_tmp, 'torch = "PyTorch (ROCm build)"\nXGrammar = "XGrammar"')
    names = [row[0] for row in found["contents"]]
    assert "PyTorch (ROCm build)" in names
    assert "xgrammar" in names  # names are exact, or lower-case keys: `XGrammar` is neither
    found = synced(chdir_tmp, 'xgrammar = "XGrammar"')
    assert "XGrammar" in [row[0] for row in found["contents"]]


def test_names_by_repository_set_the_whole_label(chdir_tmp: Path) -> None:
    found = synced(
        chdir_tmp,
        '"rocm/flash-attention" = "Flash Attention (CK backend)"\n"verl-project/verl" = "verl (fork)"',
    )
    names = [row[0] for row in found["contents"]]
    assert "Flash Attention (CK backend)" in names  # no "(ROCm fork)" added: the label is the config's
    assert "verl (fork)" in names


def test_names_per_image_win(chdir_tmp: Path) -> None:
    found = synced(
        chdir_tmp, 'TE_TAG = "TE"', '[tool.docgen.images.names]\nTE_TAG = "TransformerEngine (AMD)"\n'
    )
    assert "TransformerEngine (AMD) (ROCm fork)" in [row[0] for row in found["contents"]]


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://x.org/a/${ARCH}/t.sh", "`https://x.org/a/${ARCH}/t.sh`"),
        ("https://x.org/t-$(uname -m).sh", "`https://x.org/t-$(uname -m).sh`"),
        ("https://x.org/$ARCH/t.sh", "`https://x.org/$ARCH/t.sh`"),
        ("https://x.org/t.sh", "[t.sh](https://x.org/t.sh)"),
        ("https://x.org/price$5.sh", "[t.sh](https://x.org/price$5.sh)"),  # `$5` is no variable of a URL
    ],
)
def test_link(url: str, shown: str) -> None:
    from docgen.render import link

    assert link("t.sh", url) == shown
