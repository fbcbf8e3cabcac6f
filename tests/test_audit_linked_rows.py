"""Table rows that link to the Dockerfile they are about (`docgen.audit.linked_rows`)."""

from __future__ import annotations

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

STACKS = {
    "gnu/Dockerfile": "FROM ubuntu:22.04\nRUN pip install numpy==1.26.4\n",
    "intel/Dockerfile": "FROM intel/oneapi-hpckit:2023.1-devel-ubuntu20.04\nRUN pip install numpy==1.24.0\n",
}
URL = "https://github.com/acme/stacks/blob/{ref}/{path}"
TABLE = """## Published images

| Tag | OS | Libraries | Dockerfile |
| --- | --- | --- | --- |
| `stacks:gnu-2023.05` | Ubuntu 18.04 | NumPy {numpy} | [base]({gnu_old}) |
| `stacks:gnu-2024.01` | Ubuntu 22.04 | NumPy {numpy} | [base]({gnu}) |
| `stacks:intel-2023.05` | Ubuntu 18.04 | NumPy 1.24.0 | [base]({intel_old}) |
| `stacks:intel-2024.01` | Ubuntu 20.04 | NumPy 1.24.0 | [base]({intel}) |
"""


def found(readme: str) -> list[tuple[int, str]]:
    models = [model_of(parse_dockerfile(text, path)) for path, text in STACKS.items()]
    return [(d.line, d.message) for d in audit(readme, "README.md", models)]


def table(numpy: str, old: str = "2023.05", new: str = "2024.01") -> str:
    return TABLE.format(
        numpy=numpy,
        gnu_old=URL.format(ref=old, path="gnu/Dockerfile"),
        gnu=URL.format(ref=new, path="gnu/Dockerfile"),
        intel_old=URL.format(ref=old, path="intel%2FDockerfile"),
        intel=URL.format(ref=new, path="intel/Dockerfile"),
    )


def test_a_row_is_compared_with_the_dockerfile_it_links_to() -> None:
    # NumPy 1.24.0 is intel's: true of the family, stale in the gnu row. The Ubuntu 18.04 rows link to a
    # tag and differ from the Dockerfile where their sibling rows agree with it: they describe that
    # older release and are not compared (line 5 says the same NumPy)
    assert found(table("1.24.0")) == [(6, "README says NumPy 1.24.0 but gnu/Dockerfile:2 says 1.26.4")]
    assert found(table("1.26.4")) == []


def test_rows_at_a_branch_are_builds_whose_differing_columns_are_not_compared() -> None:
    # at `main` every row is about the file now: the OS column the rows disagree on is a build's,
    # the NumPy column they agree on is compared in each row
    assert found(table("1.24.0", old="main", new="main")) == [
        (5, "README says NumPy 1.24.0 but gnu/Dockerfile:2 says 1.26.4; also at line 6"),
    ]


ASCEND = (
    "FROM quay.io/ascend/cann:8.0.0-910b-openeuler22.03-py3.10\n"
    "ARG VLLM_ASCEND_TAG={tag}\n"
    "RUN git clone https://github.com/vllm-project/vllm-ascend.git --branch $VLLM_ASCEND_TAG /w/vllm-ascend\n"
)
GITEE = "https://gitee.com/acme/images/blob/master/AI/vllm-ascend/{version}/22.03-lts/Dockerfile"
TAGS = """# Supported tags and respective Dockerfile links

| Tags | Currently |
|--|--|
|[{{current}}-oe2203lts]({current})| vLLM Ascend {{said}} on openEuler 22.03-LTS |

|[0.7.3rc2-oe2203lts]({old})| vLLM Ascend 0.7.3rc2 on openEuler 22.03-LTS |

|[0.8.5rc1-oe2203lts]({new})| vLLM Ascend 0.8.5rc1 on openEuler 22.03-LTS |
""".format(
    current=GITEE.format(version="{current}"),
    old=GITEE.format(version="0.7.3rc2"),
    new=GITEE.format(version="0.8.5rc1"),
)


def tags(paths: dict[str, str], said: str) -> list[tuple[int, str]]:
    models = [model_of(parse_dockerfile(ASCEND.format(tag=tag), path)) for path, tag in paths.items()]
    readme = TAGS.format(current="0.8.4rc1", said=said)
    return [(d.line, d.message) for d in audit(readme, "README.md", models)]


def test_rows_linking_a_dockerfile_none_of_the_audited_is_are_another_images() -> None:
    # the 0.7.3rc2 and 0.8.5rc1 rows (the last two cut off the table by a blank line) link version
    # folders no audited Dockerfile is in: other images of the family, not compared
    folders = {"0.8.4rc1/22.03-lts/Dockerfile": "v0.8.4rc1", "0.7.3/22.03-lts/Dockerfile": "v0.7.3"}
    assert tags(folders, "0.8.4rc1") == []
    # the row linking an audited one is compared with it
    assert tags(folders, "0.8.3") == [
        (5, "README says vLLM Ascend 0.8.3 but 0.8.4rc1/22.03-lts/Dockerfile:2 says v0.8.4rc1")
    ]
    # Dockerfiles audited without their folders: `Dockerfile` is the end of every link, which cannot
    # tell which it is; no row is compared with it
    assert tags({"Dockerfile": "v0.8.4rc1", "Dockerfile.073": "v0.7.3"}, "0.8.4rc1") == []


# A README of a family whose variants table names each row's Dockerfile in code (modelled on a sandbox
# image built on a CPU, an NGC PyTorch and a ROCm PyTorch base, and on a comparison page of
# `Dockerfile.cpu` / `Dockerfile.gpu` images): each row is about the Dockerfile it names.
VARIANTS = {
    "docker/Dockerfile.Plain": "FROM ubuntu:24.04\nRUN pip install rich==13.7.1\n",
    "docker/Dockerfile.NV": "FROM nvcr.io/nvidia/pytorch:25.11-py3\nRUN pip install rich==13.7.1\n",
    "docker/Dockerfile.AMD": (
        "FROM rocm/pytorch:rocm7.1.0_ubuntu24.04_py3.12_pytorch_release_2.8.0\nRUN pip install rich==13.7.1\n"
    ),
}
VARIANT_TABLE = """\
## Variants

| Variant | Dockerfile | GPU |
| --- | --- | --- |
| **Plain** | {plain} | None |
| **NV** | {nv} | NVIDIA (CUDA 13.0, PyTorch {nv_torch}) |
| **AMD** | {amd} | AMD (ROCm 7.1, PyTorch {amd_torch}) |
"""


def variants(
    nv_torch: str = "2.10",
    amd_torch: str = "2.8",
    plain: str = "`Dockerfile.Plain`",
    nv: str = "`Dockerfile.NV`",
    amd: str = "`Dockerfile.AMD`",
) -> list[tuple[int, str]]:
    models = [model_of(parse_dockerfile(text, path)) for path, text in VARIANTS.items()]
    readme = VARIANT_TABLE.format(nv_torch=nv_torch, amd_torch=amd_torch, plain=plain, nv=nv, amd=amd)
    return [(d.line, d.message) for d in audit(readme, "docker/README.md", models)]


def test_a_row_naming_its_dockerfile_is_compared_with_it_alone() -> None:
    # the NGC image's PyTorch docgen does not know: its row says nothing the ROCm image's 2.8.0 denies;
    # the ROCm row's own 2.8 is true
    assert variants() == []
    # the ROCm row is stale against its own base
    assert variants(amd_torch="2.7") == [
        (7, "README says PyTorch 2.7 but docker/Dockerfile.AMD:1 says 2.8.0"),
    ]


def test_a_row_keyed_by_its_variant_is_compared_with_it_alone() -> None:
    # no file names: the first cells are the variants of two Dockerfiles at least
    assert variants(plain="-", nv="-", amd="-") == []
    assert variants(amd_torch="2.7", plain="-", nv="-", amd="-") == [
        (7, "README says PyTorch 2.7 but docker/Dockerfile.AMD:1 says 2.8.0"),
    ]


def test_a_row_naming_two_dockerfiles_is_the_family_s() -> None:
    # `Dockerfile.NV` and `Dockerfile.AMD` in one row: compared with both, the ROCm image's 2.8.0 agrees
    both = "`Dockerfile.NV`, `Dockerfile.AMD`"
    assert variants(nv_torch="2.8", nv=both, plain="-", amd="-") == []


def test_a_row_naming_a_dockerfile_not_audited_is_another_image_s() -> None:
    # `Dockerfile.Intel` is no audited Dockerfile: its row is not compared at all
    assert variants(nv_torch="2.3", nv="`Dockerfile.Intel`") == []


FOLDERS = """## Images

| OS | Libraries | Folder |
| --- | --- | --- |
| Ubuntu 22.04 | NumPy {gnu} | [gnu](https://github.com/acme/stacks/tree/master/gnu) |
| Ubuntu 20.04 | NumPy {intel} | [intel](https://github.com/acme/stacks/tree/master/{intel_folder}) |
"""


def test_a_row_linking_its_image_s_folder_is_compared_with_the_dockerfile_in_it() -> None:
    """`…/tree/master/gnu`: the row is about `gnu/Dockerfile`, compared with it alone (NumPy 1.24.0 is the
    intel image's, not the gnu image's)."""
    readme = FOLDERS.format(gnu="1.24.0", intel="1.24.0", intel_folder="intel")
    assert [(line, message.split(" but ")[1]) for line, message in found(readme)] == [
        (5, "gnu/Dockerfile:2 says 1.26.4")
    ]
    assert found(FOLDERS.format(gnu="1.26.4", intel="1.24.0", intel_folder="intel")) == []


def test_a_folder_holding_no_audited_dockerfile_says_nothing_of_the_row() -> None:
    """A folder link that is no audited image's (`docs`) neither ties the row nor sets it aside as another
    image's: the row is read with its section, against the whole family."""
    readme = FOLDERS.format(gnu="1.26.4", intel="1.99.0", intel_folder="docs")
    assert [line for line, _ in found(readme)] == [6]
