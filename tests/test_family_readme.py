"""One README for several images: `image=` on markers, the `images` and `matrix` sections, their
fingerprints, the fast path on shared files, and the MkDocs plugin filling a page several images list.
End to end through `docgen.cli.main` in a temporary project."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from helpers import count_image_reads, make_tree, run

from docgen import render
from docgen.family import Member, fill_document
from docgen.fastcheck import fast_check
from docgen.pipeline import build_model
from docgen.rows import RenderOptions

CUDA = """\
ARG CUDA_VERSION=12.9.1
ARG PYTHON_VERSION=3.12
FROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04 AS base
ARG PYTHON_VERSION
RUN apt-get update && apt-get install -y --no-install-recommends \\
        python${PYTHON_VERSION} python${PYTHON_VERSION}-venv git \\
    && rm -rf /var/lib/apt/lists/*
# TORCH_CUDA_ARCH_LIST CUDA compute capabilities the kernels are built for.
ARG TORCH_CUDA_ARCH_LIST="8.0 8.9 9.0 10.0"
ENV TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST}
RUN pip install torch==2.8.0 --index-url https://download.pytorch.org/whl/cu129

FROM base AS final
# VLLM_VERSION The vLLM release installed.
ARG VLLM_VERSION=0.10.2
RUN pip install vllm==${VLLM_VERSION} flashinfer-python==0.3.1
"""

ROCM = """\
ARG ROCM_VERSION=6.4.1
FROM rocm/dev-ubuntu-22.04:${ROCM_VERSION}-complete AS base
# GPU_ARCH AMD GPU targets the kernels are built for.
ARG GPU_ARCH="gfx90a;gfx942"
ENV PYTORCH_ROCM_ARCH=${GPU_ARCH}
ARG PYTORCH_INDEX=https://download.pytorch.org/whl/rocm6.4
RUN pip install torch==2.7.1 --index-url ${PYTORCH_INDEX}

FROM base AS final
# TRITON_BRANCH Branch or commit of Triton built from source.
ARG TRITON_BRANCH=e5be006a
RUN git clone https://github.com/ROCm/triton.git /triton \\
    && cd /triton && git checkout ${TRITON_BRANCH} \\
    && pip install -e python
RUN pip install vllm==0.10.1
"""

XPU = """\
FROM intel/oneapi-basekit:2025.1.3-0-devel-ubuntu24.04
RUN pip install torch==2.8.0 --index-url https://download.pytorch.org/whl/xpu
"""

GLOB = """\
[[tool.docgen.images]]
dockerfile = "docker/Dockerfile.*"
outputs = ["docker/README.md"]
"""

GFX950 = """\
[[tool.docgen.images]]
dockerfile = "docker/Dockerfile.rocm"
name = "rocm-gfx950"
args = { ROCM_VERSION = "7.0.2", GPU_ARCH = "gfx950", PYTORCH_INDEX = "https://download.pytorch.org/whl/rocm7.0" }
outputs = ["docker/README.md"]
"""  # noqa: E501

README = """\
# Inference images

<!-- BEGIN docgen:images -->
<!-- END docgen:images -->

## Versions side by side

<!-- BEGIN docgen:matrix -->
<!-- END docgen:matrix -->

## CUDA

<!-- BEGIN docgen:versions image=cuda -->
<!-- END docgen:versions -->

## ROCm

<!-- BEGIN docgen:hardware image=rocm -->
<!-- END docgen:hardware -->

<!-- BEGIN docgen:hardware image=rocm-gfx950 wide -->
<!-- END docgen:hardware -->

<!-- BEGIN docgen:versions image=rocm-gfx950 -->
<!-- END docgen:versions -->
"""


@pytest.fixture
def project(chdir_tmp: Path) -> Path:
    """A CUDA image and two ROCm variants (a glob entry and an `args` entry), one README for all."""
    make_tree(
        chdir_tmp,
        {
            "pyproject.toml": "[tool.docgen]\n\n" + GLOB + "\n" + GFX950,
            "docker/Dockerfile.cuda": CUDA,
            "docker/Dockerfile.rocm": ROCM,
            "docker/README.md": README,
        },
    )
    return chdir_tmp


@pytest.fixture
def synced(project: Path) -> Path:
    result = run("sync")
    assert (result.code, result.out, result.err) == (0, "docker/README.md: updated\n", "")
    return project


def add_xpu(project: Path, *outputs: str) -> None:
    """A fourth image, docker/xpu/Dockerfile, with a README of its own holding a versions block, written
    into `outputs`."""
    (project / "docker/xpu").mkdir()
    (project / "docker/xpu/Dockerfile").write_text(XPU)
    (project / "docker/xpu/README.md").write_text(
        "<!-- BEGIN docgen:versions -->\n<!-- END docgen:versions -->\n"
    )
    pyproject = project / "pyproject.toml"
    listed = ", ".join(f'"{output}"' for output in outputs)
    pyproject.write_text(
        pyproject.read_text()
        + f'\n[[tool.docgen.images]]\ndockerfile = "docker/xpu/Dockerfile"\noutputs = [{listed}]\n'
    )


def fast(project: Path) -> int | None:
    return fast_check([], io.StringIO(), str(project))


def block(text: str, key: str) -> str:
    """The whole block (begin marker to end marker) whose begin marker starts with `key`."""
    name = key.split()[0]
    match = re.search(rf"<!-- BEGIN docgen:{re.escape(key)}[ -].*?<!-- END docgen:{name} -->\n", text, re.S)
    assert match, key
    return match.group()


def table(body: str) -> list[str]:
    return [line for line in body.splitlines() if line.startswith("|")]


def test_one_readme_for_three_images(synced: Path) -> None:
    text = (synced / "docker/README.md").read_text()
    images = table(block(text, "images"))
    assert images[:2] == ["| Image | Dockerfile | Base image | Key versions |", "|---|---|---|---|"]
    assert images[2:] == [
        "| cuda | [docker/Dockerfile.cuda](Dockerfile.cuda) | `nvidia/cuda:12.9.1-devel-ubuntu22.04` | "
        "CUDA `12.9.1` · PyTorch `2.8.0` · vLLM `0.10.2` |",
        "| rocm | [docker/Dockerfile.rocm](Dockerfile.rocm) | `rocm/dev-ubuntu-22.04:6.4.1-complete` | "
        "ROCm `6.4.1` · PyTorch `2.7.1` · vLLM `0.10.1` |",
        "| rocm-gfx950 | [docker/Dockerfile.rocm](Dockerfile.rocm) | "
        "`rocm/dev-ubuntu-22.04:7.0.2-complete` | ROCm `7.0.2` · PyTorch `2.7.1` · vLLM `0.10.1` |",
    ]
    matrix = table(block(text, "matrix"))
    assert matrix[0] == "| Component | cuda | rocm | rocm-gfx950 |"
    # the accelerator stack, the framework, the engine, the language, the libraries, then the rest
    assert [row.split(" | ")[0] for row in matrix[2:]] == [
        "| CUDA",
        "| ROCm",
        "| PyTorch",
        "| vLLM",
        "| Python",
        "| Triton",
        "| FlashInfer",
        "| Ubuntu",
    ]
    assert "| Python | [`3.12`](Dockerfile.cuda#L2) |  |  |" in matrix
    assert "| ROCm |  | [`6.4.1`](Dockerfile.rocm#L2) | [`7.0.2`](Dockerfile.rocm#L2) |" in matrix
    assert "| vLLM | [`0.10.2`](Dockerfile.cuda#L16) | [`0.10.1`](Dockerfile.rocm#L15) |" in "\n".join(matrix)
    # each per-image block from its own image, its marker's words kept as written
    cuda = block(text, "versions image=cuda")
    assert "| CUDA | `12.9.1` |" in cuda and "ROCm" not in cuda
    assert "`gfx942`" in block(text, "hardware image=rocm") and "gfx950" not in block(
        text, "hardware image=rocm"
    )
    gfx950 = block(text, "hardware image=rocm-gfx950")
    assert gfx950.startswith("<!-- BEGIN docgen:hardware image=rocm-gfx950 wide dockerfile=")
    assert "`gfx950`" in gfx950 and "gfx942" not in gfx950
    assert "| ROCm | `7.0.2` |" in block(text, "versions image=rocm-gfx950")
    # the same rows as each image's Key versions block
    for row in table(cuda)[2:]:
        name, version = row.split(" | ")[:2]
        assert f"{name} | [{version}](Dockerfile.cuda#L" in "\n".join(matrix)
    result = run("check")
    assert (result.code, result.out) == (0, "docker/README.md is up to date\n1 file checked, 0 out of date\n")
    assert fast(synced) == 0
    assert run("sync").out == "docker/README.md: unchanged\n"


def test_a_matrix_may_have_a_row_per_image(synced: Path) -> None:
    readme = synced / "docker/README.md"
    readme.write_text(readme.read_text().replace("BEGIN docgen:matrix ", "BEGIN docgen:matrix rows=images "))
    assert fast(synced) is None  # the orientation is part of the block's fingerprint
    assert run("check").code == 1
    assert run("sync").code == 0
    matrix = table(block(readme.read_text(), "matrix"))
    assert matrix[0] == "| Image | CUDA | ROCm | PyTorch | vLLM | Python | Triton | FlashInfer | Ubuntu |"
    assert matrix[4].startswith("| rocm-gfx950 |  | [`7.0.2`](Dockerfile.rocm#L2) | [`2.7.1`]")
    assert run("check").code == 0 and fast(synced) == 0


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "docgen:versions image=cuda",
            "docgen:versions",
            "docker/README.md:13: block docgen:versions does not say which image it is about; add "
            "image=NAME (one of: cuda, rocm, rocm-gfx950)",
        ),
        (
            "docgen:hardware image=rocm ",
            "docgen:hardware image=rocn ",
            "docker/README.md:18: block docgen:hardware image=rocn: no image of that name lists this file "
            "(did you mean rocm? the images that list it are cuda, rocm, rocm-gfx950)",
        ),
        (
            "docgen:hardware image=rocm ",
            "docgen:hardware image=xpu ",
            "docker/README.md:18: block docgen:hardware image=xpu: no image of that name lists this file "
            "(the images that list it are cuda, rocm, rocm-gfx950)",
        ),
        (
            "docgen:images ",
            "docgen:images image=cuda ",
            "docker/README.md:3: block docgen:images is about every image that lists this file (cuda, "
            "rocm, rocm-gfx950); remove image=cuda",
        ),
        (
            "docgen:matrix ",
            "docgen:matrix rows=image ",
            "docker/README.md:8: block docgen:matrix rows=image: write rows=components (a row per "
            "component, the default) or rows=images (a row per image)",
        ),
        (
            "docgen:hardware image=rocm ",
            "docgen:hardware image=rocm-gfx950 ",
            "docker/README.md:21: block docgen:hardware image=rocm-gfx950 appears twice (first at line 18)",
        ),
        (  # the first image= used to win in silence
            "docgen:hardware image=rocm ",
            "docgen:hardware image=rocm image=xpu ",
            "docker/README.md:18: block docgen:hardware names 2 images (image=rocm image=xpu); a block is "
            "about one: keep one image=",
        ),
        (  # the first rows= used to win in silence
            "docgen:matrix ",
            "docgen:matrix rows=images rows=components ",
            "docker/README.md:8: block docgen:matrix gives rows= twice (rows=images rows=components); "
            "keep one",
        ),
    ],
)
def test_a_block_that_cannot_say_which_image_is_an_error_at_its_marker(
    project: Path, old: str, new: str, message: str
) -> None:
    readme = project / "docker/README.md"
    text = readme.read_text().replace(old, new, 1)
    readme.write_text(text)
    for command in ("sync", "check"):
        result = run(command)
        assert (result.code, result.out, result.err) == (2, "", message + "\n")
    assert readme.read_text() == text
    assert fast(project) is None


SINGLE = """\
[tool.docgen]

[[tool.docgen.images]]
dockerfile = "docker/Dockerfile.cuda"
outputs = ["docker/README.md"]
"""


@pytest.mark.parametrize(
    ("blocks", "message"),
    [
        ("<!-- BEGIN docgen:versions image=rocm -->\n<!-- END docgen:versions -->\n", None),
        (
            "<!-- BEGIN docgen:versions image=rocm -->\n<!-- END docgen:versions -->\n"
            "<!-- BEGIN docgen:versions -->\n<!-- END docgen:versions -->\n",
            "docker/README.md:5: block docgen:versions about image cuda appears twice (first at line 3)",
        ),
    ],
)
def test_in_a_file_one_image_lists_image_must_name_that_image(
    project: Path, blocks: str, message: str | None
) -> None:
    (project / "pyproject.toml").write_text(SINGLE)
    (project / "docker/README.md").write_text("# CUDA\n\n" + blocks)
    result = run("sync")
    assert (result.code, result.err) == (
        2,
        "docker/README.md:3: block docgen:versions image=rocm: no image of that name lists this file "
        "(the image that lists it is cuda)\n",
    )
    (project / "docker/README.md").write_text("# CUDA\n\n" + blocks.replace("image=rocm", "image=cuda"))
    result = run("sync")
    assert (result.code, result.err) == ((2, message + "\n") if message else (0, ""))


def test_images_and_matrix_work_in_a_file_one_image_lists(project: Path) -> None:
    (project / "pyproject.toml").write_text(SINGLE)
    readme = project / "docker/README.md"
    readme.write_text(
        "# CUDA\n\n<!-- BEGIN docgen:images -->\n<!-- END docgen:images -->\n\n"
        "<!-- BEGIN docgen:matrix rows=images -->\n<!-- END docgen:matrix -->\n\n"
        "<!-- BEGIN docgen:versions image=cuda -->\n<!-- END docgen:versions -->\n"
    )
    assert run("sync").code == 0
    text = readme.read_text()
    assert table(block(text, "images"))[2].startswith("| cuda | [docker/Dockerfile.cuda](Dockerfile.cuda) |")
    header = "| Image | CUDA | PyTorch | vLLM | Python | FlashInfer | Ubuntu |"
    assert table(block(text, "matrix"))[0] == header
    assert "<!-- BEGIN docgen:versions image=cuda dockerfile=" in text
    assert run("check").code == 0 and fast(project) == 0


def blocks_of(text: str) -> dict[str, str]:
    """Begin marker line (without its fingerprint words) → the whole block."""
    found = {}
    for match in re.finditer(r"<!-- BEGIN docgen:(\S+)(.*?) -->\n.*?<!-- END docgen:\1 -->\n", text, re.S):
        words = [w for w in match.group(2).split() if w.split("=")[0] not in ("dockerfile", "setup", "text")]
        found[" ".join([match.group(1), *words])] = match.group()
    return found


FAMILY = ("images", "matrix")


def test_changing_one_image_leaves_the_blocks_of_the_others_byte_for_byte(synced: Path) -> None:
    readme = synced / "docker/README.md"
    before = blocks_of(readme.read_text())
    dockerfile = synced / "docker/Dockerfile.cuda"
    dockerfile.write_text(dockerfile.read_text().replace("PYTHON_VERSION=3.12", "PYTHON_VERSION=3.11"))
    assert fast(synced) is None
    result = run("check")
    assert result.code == 1
    assert (
        ": block docgen:images is out of date: image cuda (docker/Dockerfile.cuda) "
        "changed since the last sync\n" not in result.out  # its three most-read rows: no Python
    )
    assert (
        "docker/README.md:13: block docgen:matrix is out of date: image cuda (docker/Dockerfile.cuda) "
        "changed since the last sync\n" in result.out
    )
    assert (
        "docker/README.md:28: block docgen:versions is out of date: image cuda: docker/Dockerfile.cuda "
        "changed since the last sync (changed rows come from line 2)\n" in result.out
    )
    assert result.out.count("is out of date:") == 2
    assert run("sync").code == 0
    after = blocks_of(readme.read_text())
    changed = {key for key in before if before[key] != after[key]}
    assert changed == {"versions image=cuda", "images", "matrix"}  # images: its fingerprint only
    assert after["images"].split("-->", 1)[1] == before["images"].split("-->", 1)[1]
    assert run("check").code == 0 and fast(synced) == 0


def test_adding_an_image_changes_only_the_blocks_about_every_image(synced: Path) -> None:
    readme = synced / "docker/README.md"
    before = blocks_of(readme.read_text())
    (synced / "docker/Dockerfile.xpu").write_text(XPU)  # the glob finds it
    assert fast(synced) is None
    result = run("check")
    assert result.code == 1
    assert "block docgen:images is out of date: image xpu now lists docker/README.md" in result.out
    assert "block docgen:matrix is out of date: image xpu now lists docker/README.md" in result.out
    assert result.out.count("is out of date:") == 2
    assert run("sync").code == 0
    after = blocks_of(readme.read_text())
    assert {key for key in before if before[key] != after[key]} == set(FAMILY)
    assert table(block(readme.read_text(), "images"))[4].startswith("| xpu |")
    assert table(block(readme.read_text(), "matrix"))[0] == "| Component | cuda | rocm | xpu | rocm-gfx950 |"
    assert run("check").code == 0 and fast(synced) == 0


def test_removing_an_image_changes_only_the_blocks_about_every_image(synced: Path) -> None:
    readme = synced / "docker/README.md"
    text = readme.read_text()
    for key in ("hardware image=rocm-gfx950", "versions image=rocm-gfx950"):
        text = text.replace("\n" + block(text, key), "")
    readme.write_text(text)
    before = blocks_of(text)
    pyproject = synced / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace("\n" + GFX950, ""))
    result = run("check")
    assert result.code == 1
    assert (
        "block docgen:images is out of date: image rocm-gfx950 no longer lists docker/README.md" in result.out
    )
    assert result.out.count("is out of date:") == 2
    assert run("sync").code == 0
    after = blocks_of(readme.read_text())
    assert {key for key in before if before[key] != after[key]} == set(FAMILY)
    assert "rocm-gfx950" not in readme.read_text()
    assert run("check").code == 0 and fast(synced) == 0


def test_check_models_only_the_images_of_the_files_that_changed(
    synced: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    add_xpu(synced, "docker/xpu/README.md")
    assert run("sync").code == 0
    read = count_image_reads(monkeypatch)
    xpu = synced / "docker/xpu/Dockerfile"
    xpu.write_text(xpu.read_text().replace("2.8.0", "2.9.0"))
    assert run("check").out.splitlines()[0] == "docker/README.md is up to date"
    assert read == ["docker/xpu/Dockerfile"]
    read.clear()
    assert run("sync").code == 0
    read.clear()
    cuda = synced / "docker/Dockerfile.cuda"
    cuda.write_text(cuda.read_text().replace("torch==2.8.0", "torch==2.9.0"))
    assert run("check").code == 1
    assert read == ["docker/Dockerfile.cuda", "docker/Dockerfile.rocm", "docker/Dockerfile.rocm"]


MUTATIONS = {
    "a Dockerfile": ("docker/Dockerfile.rocm", "torch==2.7.1", "torch==2.7.0"),
    "args of a variant": ("pyproject.toml", 'GPU_ARCH = "gfx950"', 'GPU_ARCH = "gfx950;gfx942"'),
    "image= names another image": (
        "docker/README.md",
        "docgen:versions image=cuda",
        "docgen:versions image=rocm",
    ),
    "image= removed": ("docker/README.md", "docgen:versions image=cuda", "docgen:versions"),
    "image= of no listing image": (
        "docker/README.md",
        "docgen:versions image=cuda",
        "docgen:versions image=x",
    ),
    "image= on images": ("docker/README.md", "docgen:images ", "docgen:images image=cuda "),
    "rows=": ("docker/README.md", "docgen:matrix ", "docgen:matrix rows=images "),
    "rows= unknown": ("docker/README.md", "docgen:matrix ", "docgen:matrix rows= "),
    "rows= twice": ("docker/README.md", "docgen:matrix ", "docgen:matrix rows=components rows=images "),
    "matrix edited": ("docker/README.md", "| Component | cuda |", "| Component | CUDA |"),
    "two image blocks swapped": ("docker/README.md", "image=rocm ", "image=rocm-gfx950 "),
    "image renamed": ("pyproject.toml", 'name = "rocm-gfx950"', 'name = "gfx950"'),
    "prose outside": ("docker/README.md", "## Versions side by side", "## Versions"),
}


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_fast_path_never_disagrees_with_the_full_check_on_a_shared_file(synced: Path, mutation: str) -> None:
    path, old, new = MUTATIONS[mutation]
    text = (synced / path).read_text()
    assert old in text
    (synced / path).write_text(text.replace(old, new, 1))
    out = io.StringIO()
    code = fast_check([], out, str(synced))
    full = run("check")
    if code is not None:
        assert (code, out.getvalue()) == (full.code, full.out)
    assert (code is not None) == (mutation == "prose outside"), (code, full.out, full.err)
    assert full.code == (0 if mutation == "prose outside" else 1 if full.err == "" else 2)


def test_a_drift_in_json_names_every_dockerfile_of_a_shared_file(synced: Path) -> None:
    import json

    dockerfile = synced / "docker/Dockerfile.rocm"
    dockerfile.write_text(dockerfile.read_text().replace("torch==2.7.1", "torch==2.7.0"))
    data = json.loads(run("check", "--format", "json").out)
    (report,) = data["files"]
    assert report["dockerfile"] == "docker/Dockerfile.cuda, docker/Dockerfile.rocm"
    reasons = {b["name"]: b["reason"] for b in report["blocks"]}
    assert reasons["images"] == (
        "images rocm (docker/Dockerfile.rocm), rocm-gfx950 (docker/Dockerfile.rocm) changed since the "
        "last sync"
    )
    assert reasons["versions"].startswith(
        "image rocm-gfx950: docker/Dockerfile.rocm changed since the last sync"
    )


HOSTILE = "1.0|x`y`<script>alert(1)</script>\\n| z | --> "


def test_hostile_values_stay_inside_their_cells(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        "[tool.docgen]\n\n"
        '[tool.docgen.names]\n"torch" = "Py|Torch`<b>"\n\n'
        f'[tool.docgen.base-images."nvidia/cuda"]\nprovides = {{ NCCL = "{HOSTILE}" }}\n\n' + GLOB
    )
    readme = project / "docker/README.md"
    readme.write_text(
        "<!-- BEGIN docgen:images -->\n<!-- END docgen:images -->\n\n"
        "<!-- BEGIN docgen:matrix -->\n<!-- END docgen:matrix -->\n"
    )
    for rows in ("components", "images"):
        readme.write_text(
            re.sub("BEGIN docgen:matrix[^>]*-->", f"BEGIN docgen:matrix rows={rows} -->", readme.read_text())
        )
        result = run("sync")
        assert (result.code, result.err) == (0, "")
        text = readme.read_text()
        assert "<script>" not in text and "<b>" not in text and "| z |" not in text
        assert text.count("-->") == 4  # the markers' own
        for key in ("images", "matrix"):
            lines = table(block(text, key))
            assert len({len(re.findall(r"(?<!\\)\|", line)) for line in lines}) == 1, lines  # one cell count
        assert run("check").code == 0
        matrix = "\n".join(table(block(text, "matrix")))
        assert (
            "<code>1.0&#124;x&#96;y&#96;&lt;script&gt;alert(1)&lt;/script&gt;<br>&#124; z &#124; "
            "--&gt; </code>" in matrix
        )
        assert "Py&#124;Torch&#96;&lt;b&gt;" in matrix
    # a key item renamed by the configuration comes after the well-known ones, as other rows do
    header = (
        "| Image | CUDA | ROCm | vLLM | Python | NCCL | Triton | FlashInfer | Ubuntu "
        "| Py&#124;Torch&#96;&lt;b&gt; |"
    )
    assert header in text


def test_tags_make_a_column_when_an_image_has_some(tmp_path: Path) -> None:
    (tmp_path / "Dockerfile").write_text(CUDA)
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    options = RenderOptions(dockerfile_link="Dockerfile")
    text = "<!-- BEGIN docgen:images -->\n<!-- END docgen:images -->\n"
    plain = fill_document(text, "README.md", [Member("a", model, options), Member("b", model, options)])[0]
    assert "Tags" not in plain
    tagged = fill_document(
        text,
        "README.md",
        [Member("a", model, options, tags=("org/a:1.0", "org/a:latest|<x>")), Member("b", model, options)],
    )[0]
    rows = table(tagged)
    assert rows[0] == "| Image | Dockerfile | Base image | Key versions | Tags |"
    assert rows[2].endswith(" | `org/a:1.0`, <code>org/a:latest&#124;&lt;x&gt;</code> |")
    assert rows[3].endswith(" |  |")


def test_a_template_in_the_templates_folder_overrides_images_and_matrix(synced: Path) -> None:
    (synced / "tpl").mkdir()
    (synced / "tpl/images.md.j2").write_text(
        "{% for image in images %}- **{{ image.name | cell }}** on {{ image.base | code }}\n{% endfor %}"
    )
    (synced / "tpl/matrix.md.j2").write_text(
        "{{ matrix | length }} components × {{ images | length }} images\n"
    )
    pyproject = synced / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text().replace("[tool.docgen]\n", '[tool.docgen]\ntemplates = "tpl"\n')
    )
    render.environment.cache_clear()
    assert run("sync").code == 0
    text = (synced / "docker/README.md").read_text()
    assert "- **rocm-gfx950** on `rocm/dev-ubuntu-22.04:7.0.2-complete`\n" in text
    assert "\n8 components × 3 images\n" in text
    assert run("check").code == 0 and fast(synced) == 0


def test_the_mkdocs_plugin_fills_a_page_several_images_list(
    synced: Path, caplog: pytest.LogCaptureFixture
) -> None:
    pytest.importorskip("mkdocs")
    from test_mkdocs import page_markdown

    pyproject = synced / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text().replace(
            'outputs = ["docker/README.md"]\n', 'outputs = ["docker/README.md"]\npages = ["images.md"]\n'
        )
    )
    make_tree(
        synced,
        {
            "mkdocs.yml": "site_name: t\ntheme: mkdocs\nplugins: [docgen]\n",
            "docs/images.md": README.replace("# Inference images", "# Images"),
        },
    )
    with caplog.at_level("WARNING", logger="mkdocs.plugins.docgen"):
        page = page_markdown(synced / "mkdocs.yml", "images.md")
    assert "out of date" not in caplog.text  # the shared README, checked like `docgen check` does
    readme = (synced / "docker/README.md").read_text()
    assert "dockerfile=" not in page  # a site page carries no fingerprints

    def unlinked(text: str) -> str:
        return re.sub(r"\]\([^)\s]*\)", "]()", text)

    for key in (
        "images",
        "matrix",
        "versions image=cuda",
        "hardware image=rocm",
        "versions image=rocm-gfx950",
    ):
        body = block(readme, key).split("\n", 1)[1]
        assert unlinked(body) in unlinked(page), key

    cuda = synced / "docker/Dockerfile.cuda"
    cuda.write_text(cuda.read_text().replace("torch==2.8.0", "torch==2.9.0"))
    caplog.clear()
    with caplog.at_level("WARNING", logger="mkdocs.plugins.docgen"):
        page = page_markdown(synced / "mkdocs.yml", "images.md")
    assert "| PyTorch | [`2.9.0`]" in page
    assert (
        "docker/README.md is out of date with docker/Dockerfile.cuda, docker/Dockerfile.rocm "
        "(blocks: images, matrix, versions image=cuda)" in caplog.text
    )


@pytest.mark.parametrize("form", ["text", "json", "sarif", "github"])
def test_check_says_the_same_with_and_without_rendering_fresh_files(synced: Path, form: str) -> None:
    add_xpu(synced, "docker/xpu/README.md", "docker/README.md")
    readme = synced / "docker/README.md"
    readme.write_text(
        readme.read_text() + "\n<!-- BEGIN docgen:versions image=xpu -->\n<!-- END docgen:versions -->\n"
    )
    assert run("sync").code == 0
    dockerfile = synced / "docker/Dockerfile.rocm"
    dockerfile.write_text(dockerfile.read_text().replace("torch==2.7.1", "torch==2.8.0"))
    trusted, full = run("check", "--format", form), run("check", "--format", form, "--full")
    assert trusted.code == 1
    assert (trusted.code, trusted.out, trusted.err) == (full.code, full.out, full.err)


def test_the_command_line_image_keeps_the_configured_name(project: Path) -> None:
    """`--dockerfile X --output F` takes the settings (and the name) of the configured image of X, so
    `image=` blocks of that image still name it."""
    (project / "pyproject.toml").write_text(SINGLE)
    readme = project / "docker/README.cuda.md"
    readme.write_text("<!-- BEGIN docgen:versions image=cuda -->\n<!-- END docgen:versions -->\n")
    argv = ("--dockerfile", "docker/Dockerfile.cuda", "--output", "docker/README.cuda.md")
    result = run("sync", *argv)
    assert (result.code, result.err) == (0, "")
    assert "| CUDA | `12.9.1` |" in readme.read_text()
    assert run("check", *argv).code == 0


def test_check_models_only_the_images_whose_blocks_are_stale(
    synced: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without `images` and `matrix` blocks, a shared file's stale block needs its own image only; the
    blocks of the others are kept as they are (their fingerprints match), and check says the same as
    `--full`, which renders them all."""
    readme = synced / "docker/README.md"
    text = readme.read_text()
    for key in FAMILY:
        text = text.replace(block(text, key), "")
    readme.write_text(text)
    assert run("check").code == 0  # removing whole blocks leaves the others up to date
    read = count_image_reads(monkeypatch)
    cuda = synced / "docker/Dockerfile.cuda"
    cuda.write_text(cuda.read_text().replace("torch==2.8.0", "torch==2.9.0"))
    trusted = run("check")
    assert trusted.code == 1 and "block docgen:versions is out of date: image cuda:" in trusted.out
    assert read == ["docker/Dockerfile.cuda"]
    read.clear()
    full = run("check", "--full")
    assert read == ["docker/Dockerfile.cuda", "docker/Dockerfile.rocm", "docker/Dockerfile.rocm"]
    assert (trusted.code, trusted.out) == (full.code, full.out)
    readme.write_text(readme.read_text().replace("| `gfx942` |", "| `gfx942 ` |"))  # a hand edit as well
    read.clear()
    trusted = run("check")
    assert read == ["docker/Dockerfile.cuda", "docker/Dockerfile.rocm"]
    assert "block docgen:hardware is out of date: image rocm: the block was edited by hand" in trusted.out
    assert (trusted.code, trusted.out) == (run("check", "--full").code, run("check", "--full").out)


def test_image_names_no_image_of_a_dockerfile_without_a_name(tmp_path: Path) -> None:
    """`fill` (one Dockerfile, no configured image: a page's front matter names it) cannot match any
    `image=`."""
    from docgen.errors import MarkerError
    from docgen.pipeline import fill

    (tmp_path / "Dockerfile").write_text(XPU)
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    text = "<!-- BEGIN docgen:versions image=xpu -->\n<!-- END docgen:versions -->\n"
    with pytest.raises(MarkerError) as info:
        fill(text, "page.md", model, RenderOptions())
    assert str(info.value) == (
        "page.md:1: block docgen:versions image=xpu: no image of that name lists this file (its Dockerfile "
        "is no configured image with a name)"
    )
    assert "| PyTorch | `2.8.0` |" in fill(text.replace(" image=xpu", ""), "page.md", model, RenderOptions())
