"""Families of images: one `[[tool.docgen.images]]` entry whose `dockerfile` is a glob gives one image per
file, each named after its file; names, `{name}` placeholders, and the errors of a glob or name that
cannot work. End to end through `docgen.cli.main` in a temporary project."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from helpers import count_image_reads, make_tree, run

from docgen.fastcheck import fast_check

CUDA = """\
ARG CUDA_VERSION=12.9.1
FROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04 AS base
ARG PYTHON_VERSION=3.12
RUN apt-get update && apt-get install -y python${PYTHON_VERSION}
# TORCH_CUDA_ARCH_LIST CUDA architectures to build for.
ARG TORCH_CUDA_ARCH_LIST="8.0 9.0 10.0"
RUN pip install torch==2.8.0 vllm==0.10.2
"""

ROCM = """\
ARG BASE_IMAGE=rocm/dev-ubuntu-22.04:6.4.1-complete
FROM ${BASE_IMAGE} AS base
# PYTORCH_ROCM_ARCH AMD GPU targets.
ARG PYTORCH_ROCM_ARCH="gfx90a;gfx942"
RUN pip install torch==2.7.1 --index-url https://download.pytorch.org/whl/rocm6.4
"""

ASCEND = """\
FROM quay.io/ascend/cann:8.2.rc1-910b-ubuntu22.04-py3.11
RUN pip install torch==2.7.1 torch-npu==2.7.1rc1 vllm-ascend==0.10.0rc1
"""

XPU = """\
FROM intel/oneapi-basekit:2025.1.3-0-devel-ubuntu24.04
RUN pip install torch==2.8.0 --index-url https://download.pytorch.org/whl/xpu
"""

README = "# {name}\n\n<!-- BEGIN docgen:versions -->\n<!-- END docgen:versions -->\n"


def config(entry: str) -> str:
    return f"[tool.docgen]\n\n[[tool.docgen.images]]\n{entry}"


@pytest.fixture
def family(chdir_tmp: Path) -> Path:
    """A folder of Dockerfiles, each with an empty README of its own."""
    make_tree(
        chdir_tmp,
        {
            "docker/Dockerfile.cuda": CUDA,
            "docker/Dockerfile.rocm": ROCM,
            "docker/ascend.Dockerfile": ASCEND,
            "docker/xpu/Dockerfile": XPU,
            **{f"docker/README.{n}.md": README.format(name=n) for n in ("cuda", "rocm", "ascend", "xpu")},
        },
    )
    return chdir_tmp


def fast(project: Path) -> int | None:
    return fast_check([], io.StringIO(), str(project))


def test_a_glob_gives_one_image_per_file_named_after_it(family: Path) -> None:
    (family / "pyproject.toml").write_text(
        config('dockerfile = "docker/Dockerfile.*"\noutputs = ["docker/README.{name}.md"]\n')
    )
    result = run("sync")
    assert (result.code, result.err) == (0, "")
    cuda = (family / "docker/README.cuda.md").read_text()
    rocm = (family / "docker/README.rocm.md").read_text()
    assert "| CUDA | `12.9.1`" in cuda and "ROCm" not in cuda
    assert "| ROCm | `6.4.1`" in rocm and "CUDA" not in rocm
    assert "BEGIN docgen:versions -->" in (family / "docker/README.ascend.md").read_text()  # not matched
    result = run("check")
    assert (result.code, result.err) == (0, "")
    assert result.out.splitlines()[:2] == [
        "docker/README.cuda.md is up to date",
        "docker/README.rocm.md is up to date",
    ]
    assert fast(family) == 0


def test_names_come_from_the_suffix_the_prefix_or_the_folder(family: Path) -> None:
    (family / "pyproject.toml").write_text(
        config('dockerfile = "docker/**/*ockerfile*"\noutputs = ["docker/README.{name}.md"]\n')
    )
    result = run("sync")
    assert (result.code, result.err) == (0, "")
    for name, row in (("cuda", "CUDA"), ("rocm", "ROCm"), ("ascend", "CANN"), ("xpu", "PyTorch")):
        assert f"| {row} |" in (family / f"docker/README.{name}.md").read_text(), name


def test_a_name_pattern_renames_every_image_of_a_glob(family: Path) -> None:
    (family / "pyproject.toml").write_text(
        config('dockerfile = "docker/Dockerfile.*"\nname = "vllm-{name}"\noutputs = ["docker/{name}.md"]\n')
    )
    for name in ("vllm-cuda", "vllm-rocm"):
        (family / f"docker/{name}.md").write_text(README.format(name=name))
    assert run("sync").code == 0
    assert "| CUDA |" in (family / "docker/vllm-cuda.md").read_text()
    assert "| ROCm |" in (family / "docker/vllm-rocm.md").read_text()


def test_a_plain_entry_may_be_named(family: Path) -> None:
    (family / "pyproject.toml").write_text(
        config(
            'dockerfile = "docker/xpu/Dockerfile"\nname = "intel"\noutputs = ["docker/README.{name}.md"]\n'
        )
    )
    (family / "docker/README.intel.md").write_text(README.format(name="intel"))
    assert run("sync").code == 0
    assert "| PyTorch |" in (family / "docker/README.intel.md").read_text()


def test_two_files_of_one_name_in_one_glob_say_how_to_tell_them_apart(family: Path) -> None:
    """SGLang keeps `Dockerfile.npu` and `npu.Dockerfile`: both are `npu`, and no `name` on the glob's
    entry can tell them apart, so the message says what can."""
    (family / "docker/rocm.Dockerfile").write_text(ROCM)
    (family / "pyproject.toml").write_text(
        config('dockerfile = "docker/*ockerfile*"\noutputs = ["docker/README.{name}.md"]\n\n')
        + '[[tool.docgen.images]]\ndockerfile = "docker/xpu/Dockerfile"\nname = "intel"\n'
    )
    result = run("sync")
    assert (result.code, result.out) == (2, "")
    assert result.err == (
        "pyproject.toml:4: two [[tool.docgen.images]] are named 'rocm' (docker/Dockerfile.rocm and "
        'docker/rocm.Dockerfile); leave one out of the glob (exclude = ["docker/rocm.Dockerfile"]) and give '
        'it an entry of its own with a name = "…"\n'
    )


@pytest.mark.parametrize(
    ("entry", "line", "message"),
    [
        (
            'dockerfile = "docker/Dockerfile.cu1*"\noutputs = ["x.md"]\n',
            4,
            "dockerfile = 'docker/Dockerfile.cu1*' matches no file (a glob: '*' and '?' match within a "
            "folder name, '**' any folders)",
        ),
        (
            'dockerfile = "docker/Dockerfile.*"\nname = "vllm"\noutputs = ["{name}.md"]\n',
            5,
            "name = 'vllm' would name all 2 files dockerfile = 'docker/Dockerfile.*' matches; write it "
            "with {name} (the name from each file, like 'vllm-{name}')",
        ),
        (
            'dockerfile = "docker/Dockerfile.cuda"\nname = "cu 129"\n',
            5,
            "name = 'cu 129' must be letters, digits, '.', '_', '+' or '-' (it names the image in "
            "messages and {name} placeholders)",
        ),
        (
            'dockerfile = "docker/Dockerfile.*"\noutputs = ["{name}.md"]\n\n'
            '[[tool.docgen.images]]\ndockerfile = "docker/xpu/Dockerfile"\nname = "rocm"\n',
            9,
            "two [[tool.docgen.images]] are named 'rocm' (docker/Dockerfile.rocm and "
            'docker/xpu/Dockerfile); give one a name = "…" of its own',
        ),
    ],
)
def test_a_glob_or_name_that_cannot_work_is_an_error_at_its_line(
    family: Path, entry: str, line: int, message: str
) -> None:
    (family / "pyproject.toml").write_text(config(entry))
    for command in ("sync", "check"):
        result = run(command)
        assert (result.code, result.out, result.err) == (2, "", f"pyproject.toml:{line}: {message}\n")
    assert fast(family) is None


def test_a_plain_entry_without_a_name_may_share_its_files_name(family: Path) -> None:
    """As before names existed: one Dockerfile documented twice, with different `versions`."""
    (family / "pyproject.toml").write_text(
        config(
            'dockerfile = "docker/Dockerfile.cuda"\noutputs = ["docker/README.cuda.md"]\n\n'
            '[[tool.docgen.images]]\ndockerfile = "docker/Dockerfile.cuda"\n'
            'outputs = ["docker/README.rocm.md"]\n'
            'versions = ["Python"]\n'
        )
    )
    assert run("sync").code == 0


def test_a_file_the_glob_gains_or_loses_is_seen_by_the_fast_path(family: Path) -> None:
    (family / "pyproject.toml").write_text(
        config('dockerfile = "docker/Dockerfile.*"\noutputs = ["docker/README.{name}.md"]\n')
    )
    assert run("sync").code == 0
    assert run("check").code == 0
    assert fast(family) == 0
    (family / "docker/Dockerfile.cu130").write_text(CUDA.replace("12.9.1", "13.0.1"))
    (family / "docker/README.cu130.md").write_text(README.format(name="cu130"))
    assert fast(family) is None  # the record knows two images; the glob now matches three
    result = run("check")
    assert result.code == 1 and "docker/README.cu130.md is out of date" in result.out
    assert run("sync").code == 0
    assert "| CUDA | `13.0.1`" in (family / "docker/README.cu130.md").read_text()
    assert fast(family) == 0
    (family / "docker/Dockerfile.cu130").unlink()
    assert fast(family) is None
    assert run("check").code == 0
    assert fast(family) == 0


def entry(dockerfile: str, name: str, extra: str = "") -> str:
    outputs = f'outputs = ["docker/README.{name}.md"]\n'
    return f'\n[[tool.docgen.images]]\ndockerfile = "{dockerfile}"\n{outputs}{extra}'


@pytest.fixture
def synced(family: Path) -> Path:
    """Three images, one entry each, synced."""
    (family / "pyproject.toml").write_text(
        "[tool.docgen]\n"
        + entry("docker/Dockerfile.cuda", "cuda")
        + entry("docker/Dockerfile.rocm", "rocm")
        + entry("docker/ascend.Dockerfile", "ascend")
    )
    assert run("sync").code == 0
    return family


def readmes(project: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((project / "docker").glob("README.*.md"))}


def test_adding_changing_or_removing_an_image_leaves_the_others_byte_for_byte(synced: Path) -> None:
    pyproject = synced / "pyproject.toml"
    before = {k: v for k, v in readmes(synced).items() if k != "README.xpu.md"}
    pyproject.write_text(pyproject.read_text() + entry("docker/xpu/Dockerfile", "xpu"))
    result = run("sync")
    assert result.out.splitlines()[:4] == [
        "docker/README.cuda.md: unchanged",
        "docker/README.rocm.md: unchanged",
        "docker/README.ascend.md: unchanged",
        "docker/README.xpu.md: updated",
    ]
    assert {k: v for k, v in readmes(synced).items() if k != "README.xpu.md"} == before
    pyproject.write_text(pyproject.read_text().replace(entry("docker/Dockerfile.rocm", "rocm"), ""))
    assert run("check").code == 0
    assert run("sync").out.count(": unchanged") == 3
    pyproject.write_text(pyproject.read_text() + 'versions = ["PyTorch"]\n')  # the xpu entry's own key
    result = run("sync")
    assert "docker/README.xpu.md: updated" in result.out and result.out.count(": unchanged") == 2
    assert readmes(synced)["README.cuda.md"] == before["README.cuda.md"]


def test_a_shared_setting_makes_every_image_stale(synced: Path) -> None:
    pyproject = synced / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text().replace(
            "[tool.docgen]\n", '[tool.docgen]\nnames = { torch = "PyTorch (pip)" }\n'
        )
    )
    result = run("check")
    assert result.code == 1 and result.out.endswith(
        "3 files checked, 3 out of date; run `docgen sync` to update them\n"
    )


def test_check_models_only_the_images_whose_fingerprints_differ(
    synced: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read = count_image_reads(monkeypatch)
    monkeypatch.setenv("DOCGEN_JOBS", "1")  # read here, where `counting` sees it
    dockerfile = synced / "docker/Dockerfile.rocm"
    dockerfile.write_text(dockerfile.read_text().replace("torch==2.7.1", "torch==2.8.0"))
    result = run("check")
    assert result.code == 1
    assert read == ["docker/Dockerfile.rocm"]
    assert result.out.splitlines()[0] == "docker/README.cuda.md is up to date"
    assert "docker/README.rocm.md is out of date" in result.out
    assert "docker/README.ascend.md is up to date" in result.out
    read.clear()
    assert run("check", "--full").code == 1
    assert read == ["docker/Dockerfile.cuda", "docker/Dockerfile.rocm", "docker/ascend.Dockerfile"]


CUDA_STAGES = """\
ARG CUDA_VERSION=12.9.1
FROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04 AS base
ARG CUDA_VERSION
RUN pip install torch==2.8.0 \\
    --index-url https://download.pytorch.org/whl/cu$(echo ${CUDA_VERSION} | cut -d. -f1,2 | tr -d .)
FROM base AS final
# TORCH_CUDA_ARCH_LIST CUDA architectures to build for.
ARG TORCH_CUDA_ARCH_LIST="8.0 9.0"
ARG CUDA_VERSION=12.8.0
RUN echo "${CUDA_VERSION}" > /etc/cuda-version
"""

BUILD_ARGS = "<!-- BEGIN docgen:build-args -->\n<!-- END docgen:build-args -->\n"


def test_args_make_one_dockerfile_several_images(family: Path) -> None:
    (family / "docker/Dockerfile.cuda").write_text(CUDA_STAGES)
    for name in ("cu129", "cu130"):
        (family / f"docker/README.{name}.md").write_text(README.format(name=name) + BUILD_ARGS)
    (family / "pyproject.toml").write_text(
        "[tool.docgen]\n"
        + entry("docker/Dockerfile.cuda", "cu129", 'name = "cu129"\n')
        + entry("docker/Dockerfile.cuda", "cu130", 'name = "cu130"\nargs = { CUDA_VERSION = "13.0.2" }\n')
    )
    result = run("sync")
    assert (result.code, result.err) == (0, "")
    cu129 = (family / "docker/README.cu129.md").read_text()
    cu130 = (family / "docker/README.cu130.md").read_text()
    assert "| CUDA | `12.9.1`" in cu129 and "13.0.2" not in cu129
    assert "| CUDA | `13.0.2`" in cu130 and "12.8.0" not in cu130  # every scope
    # the Default column shows what the image is built with, and says where it comes from
    row = next(line for line in cu130.splitlines() if line.startswith("| `CUDA_VERSION` |"))
    assert row.startswith("| `CUDA_VERSION` | `13.0.2` |")
    assert (
        "13.0.2 is given for this image by the configuration (args); the Dockerfile's default is 12.9.1."
        in row
    )
    assert cu130.count("12.9.1") == 1 and "given for this image" not in cu129
    assert run("check").code == 0
    pyproject = family / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace("13.0.2", "13.0.1"))
    result = run("check")
    assert result.code == 1
    assert "docker/README.cu129.md is up to date" in result.out
    assert "docker/README.cu130.md is out of date" in result.out


def test_one_dockerfile_with_args_twice_needs_names(family: Path) -> None:
    (family / "pyproject.toml").write_text(
        "[tool.docgen]\n"
        + entry("docker/Dockerfile.cuda", "cu129")
        + entry("docker/Dockerfile.cuda", "cu130", 'args = { CUDA_VERSION = "13.0.2" }\n')
    )
    result = run("sync")
    assert (result.code, result.err) == (
        2,
        "pyproject.toml:7: two [[tool.docgen.images]] are named 'cuda' (docker/Dockerfile.cuda and "
        'docker/Dockerfile.cuda); give one a name = "…" of its own\n',
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            "{ CUDA_VERSION = 13 }",
            'args.CUDA_VERSION must be a string, as --build-arg gives it (like CUDA_VERSION = "13"), not int',
        ),
        (
            '{ "CUDA-VERSION" = "13" }',
            "args: 'CUDA-VERSION' is not a build arg name (letters, digits and '_')",
        ),
    ],
)
def test_args_that_cannot_be_build_args_are_an_error(family: Path, args: str, message: str) -> None:
    (family / "pyproject.toml").write_text(
        config(f'dockerfile = "docker/Dockerfile.cuda"\nargs = {args}\noutputs = ["docker/README.cuda.md"]\n')
    )
    result = run("check")
    assert (result.code, result.err) == (2, f"pyproject.toml:5: {message}\n")


def test_an_arg_no_arg_declares_is_an_error(family: Path) -> None:
    (family / "pyproject.toml").write_text(
        config(
            'dockerfile = "docker/Dockerfile.cuda"\nargs = { CUDA_VERSON = "13.0.2" }\n'
            'outputs = ["docker/README.cuda.md"]\n'
        )
    )
    for command in ("sync", "check"):
        result = run(command)
        assert (result.code, result.err) == (
            2,
            "pyproject.toml:5: args: CUDA_VERSON is no ARG of docker/Dockerfile.cuda (did you mean "
            "CUDA_VERSION?); docker build would not use it\n",
        )


@pytest.mark.parametrize("form", ["text", "json", "sarif", "github"])
def test_check_says_the_same_with_and_without_rendering_fresh_images(synced: Path, form: str) -> None:
    dockerfile = synced / "docker/Dockerfile.rocm"
    dockerfile.write_text(dockerfile.read_text().replace("torch==2.7.1", "torch==2.8.0"))
    trusted, full = run("check", "--format", form), run("check", "--format", form, "--full")
    assert (trusted.code, trusted.out, trusted.err) == (full.code, full.out, full.err)


def test_exclude_removes_files_the_glob_matches(family: Path) -> None:
    (family / "docker/Dockerfile.cuda.dev").write_text(CUDA)
    (family / "docker/Dockerfile.rocm.dev").write_text(ROCM)
    (family / "pyproject.toml").write_text(
        config(
            'dockerfile = "docker/Dockerfile.*"\nexclude = ["docker/Dockerfile.*.dev"]\n'
            'outputs = ["docker/README.{name}.md"]\n'
        )
    )
    result = run("sync")
    assert (result.code, result.err) == (0, "")
    assert result.out.splitlines() == ["docker/README.cuda.md: updated", "docker/README.rocm.md: updated"]
    assert fast(family) == 0
    (family / "docker/Dockerfile.xpu.dev").write_text(XPU)  # matched and excluded: the same images
    assert run("check").code == 0
    (family / "docker/Dockerfile.xpu").write_text(XPU)  # matched, not excluded: a new image
    assert fast(family) is None
    result = run("check")
    assert result.code == 1 and "docker/README.xpu.md is out of date" in result.out


@pytest.mark.parametrize(
    ("entry", "line", "message"),
    [
        (
            'dockerfile = "docker/Dockerfile.*"\nexclude = ["docker/Dockerfile.*"]\n'
            'outputs = ["docker/README.{name}.md"]\n',
            4,
            "dockerfile = 'docker/Dockerfile.*' matches no file once exclude = ['docker/Dockerfile.*'] "
            "removes the files it matches",
        ),
        (
            'dockerfile = "docker/Dockerfile.cuda"\nexclude = ["docker/Dockerfile.rocm"]\n'
            'outputs = ["docker/README.cuda.md"]\n',
            5,
            "exclude removes files a glob matches, and dockerfile = 'docker/Dockerfile.cuda' is no glob",
        ),
        (
            'dockerfile = "docker/Dockerfile.*"\nexclude = "docker/Dockerfile.rocm"\n'
            'outputs = ["docker/README.{name}.md"]\n',
            5,
            "[[tool.docgen.images]].exclude must be a list, not str",
        ),
    ],
)
def test_an_exclude_that_cannot_work_is_an_error_at_its_line(
    family: Path, entry: str, line: int, message: str
) -> None:
    (family / "pyproject.toml").write_text(config(entry))
    result = run("check")
    assert (result.code, result.out, result.err) == (2, "", f"pyproject.toml:{line}: {message}\n")


# --------------------------------------------------------------------------------------------------
# One document with blocks about each image and blocks about all of them

BOTH_KINDS = """\
# Images

<!-- BEGIN docgen:versions image=cuda -->
<!-- END docgen:versions -->

<!-- BEGIN docgen:summary image=rocm -->
<!-- END docgen:summary -->

<!-- BEGIN docgen:images -->
<!-- END docgen:images -->

<!-- BEGIN docgen:matrix -->
<!-- END docgen:matrix -->
"""


def test_each_images_key_versions_are_worked_out_once_for_its_blocks_and_the_familys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The `versions` block of an image and its row of the `images` table show the same Key versions:
    they are worked out once an image, not once for its blocks and again for the family's."""
    from docgen import rows
    from docgen.family import Member, fill_document
    from docgen.pipeline import build_model

    make_tree(tmp_path, {"Dockerfile.cuda": CUDA, "Dockerfile.rocm": ROCM})
    members = [
        Member(name, build_model(tmp_path / f"Dockerfile.{name}", f"Dockerfile.{name}"), rows.RenderOptions())
        for name in ("cuda", "rocm")
    ]
    expected = fill_document(BOTH_KINDS, "README.md", members)[0]
    worked_out = []
    real = rows.version_rows

    def counted(*args: object, **kwargs: object) -> object:
        worked_out.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rows, "version_rows", counted)
    filled = fill_document(BOTH_KINDS, "README.md", members)[0]
    assert filled == expected
    assert "| torch |" in filled or "PyTorch" in filled  # the Key versions were rendered
    assert len(worked_out) == len(members)
