"""Components, sources and pins: golden JSON per test Dockerfile, hand labels, and the bundled image.

Each `tests/data/components/NAME.Dockerfile` has a golden `NAME.json` next to it (what
`docgen show --format json --verbose` reports about components and skipped constructs). After an
intended change, regenerate them with:

    python tests/test_components.py --regen

`LABELS` are written by hand (not generated): every pinned component of each test Dockerfile with its
version or ref. Precision and recall of docgen's pins are measured against them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docgen import cli, pipeline
from docgen.components import extract
from docgen.dockerfile import parse_dockerfile
from docgen.errors import DocgenError
from docgen.evaluate import evaluate
from docgen.model import Component, ImageModel
from docgen.pipeline import build_model
from docgen.rows import version_rows
from docgen.sources.naming import name_version, ref_kind, split_extension

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "components"
CASES = sorted(DATA.glob("*.Dockerfile"))
REGEN = "python tests/test_components.py --regen"
BUNDLED = ROOT / "docker" / "rocm" / "Dockerfile.rocm"

LABELS: dict[str, dict[str, str]] = {
    "cuda_vllm": {
        "nvidia/cuda": "12.4.1-devel-ubuntu22.04",
        "ghcr.io/astral-sh/uv": "0.5.11",
        "libcudnn9-cuda-12": "9.1.0.70",
        "libnccl2": "2.21.5",
        "libnccl-dev": "2.21.5",
        "torch": "2.5.1",
        "torchvision": "0.20.1",
        "vllm": "ed6e9075d31e32c8548b480a47d1ffb77da1f54c",
        "flash-attn": "2.6.3",
        "a": "1",
        "nvcr.io/nvidia/pytorch": "24.05-py3",
        "flashinfer": "0.1.6+cu124torch2.4",
        "torchaudio": "2.5.1+cu124",
        "bitsandbytes": "0.44.1",
        "transformers": "4.46.3",
        "peft": "v0.13.2",
        "deepspeed": "0c6c981",
    },
    "rocm_heredoc": {
        "rocm/dev-ubuntu-22.04": "6.2.4-complete",
        "rocm": "6.2.4",
        "amdgpu": "6.2.4",
        "rccl": "2.20.5.60204",
        "cmake": "3.27.9",
        "torch": "2.3.0+rocm6.2.4",
        "pytorch-triton-rocm": "2.3.0+rocm6.2.4.7de3bbf6cd",
        "ninja": "1.11.1.1",
        "einops": "0.8.0",
        "flash-attention": "3cea2fb6ee3cc8d4c6e9f6b8de4b5cfd03f2ec18",
        "composable_kernel": "8ee36118cfd6a5f5e7a3a0e4e6f8a5a3c4f0b1d2",
        "nccl-tests": "2.13.9",
        "rocm_smi_lib": "rocm-6.2.4",
        "openmpi": "4.1.6",
    },
    "multistage_misc": {
        "ubuntu": "22.04",
        "go": "1.22.5",
        "protoc": "25.1",
        "ucx": "1.16.0",
        "uv": "0.4.30",
        "cuda-keyring": "1.1-1",
        "openmpi": "4.1.6",
        "boost": "1.82.0",
        "llvm": "17",
        "python": "3.11-slim",
    },
    "cuda_sglang": {
        "nvidia/cuda": "12.1.1-cudnn8-devel-ubuntu22.04",
        "libibverbs-dev": "39.0",
        "setuptools": "69.5.1",
        "sglang": "0.4.0.post1",
        "flashinfer": "0.1.6",
        "triton": "3.1.0",
        "vllm": "0.6.4.post1",
        "pytorch": "v2.5.1",
        "apex": "24.04.01",
        "flash-attention": "v2.6.3",
        "cutlass": "3.5.1",
        "xformers": "6e10bd21ac6fc878657b24684723ccd05e41d385",
        "mft": "4.28.0",
        "nsightsystems-linux-public": "2024.4.1.61",
        "huggingface_hub": "0.26.2",
        "sentencepiece": "0.2.0",
        "torchao": "0.6.1",
        "xgrammar": "0.1.4",
    },
    "bundled_rocm": {
        "ubuntu": "22.04",
        "cmake": "3.26.4",
        "rocm": "7.0.2",
        "amdgpu": "7.0.2",
        "torch": "2.9.1.dev20251204+rocm7.0.2.lw.git351ff442",
        "apex": "1.9.0a0+rocm7.0.2.git07c3ee53",
        "torchaudio": "2.9.0+rocm7.0.2.gite3c6ee2b",
        "torchvision": "0.24.0+rocm7.0.2.gitb919bd0c",
        "triton": "3.5.1+rocm7.0.2.gita272dfa8",
        "flash-attention": "83f9e450cd10e20701fb109db9c7703d376f282b",
        "transformerengine": "386bd316",
        "vllm": "1ff9d3353",
        "xgrammar": "0.1.32",
        "aiter": "45c428e54",
        "mbridge": "v0.15.1",
        "megatron-core": "0.16.0",
    },
}


def snapshot(model: ImageModel) -> dict[str, object]:
    """What the golden files hold: the components as `docgen show --format json` reports them, plus
    the extra fields docgen keeps, and the skipped constructs."""
    return {
        "components": [cli.component_json(c) for c in model.components],
        "skipped": [f"{s.line}: {s.message}" for s in model.skipped],
    }


def model_of(path: Path) -> ImageModel:
    return build_model(path, path.name)


def regenerate() -> None:
    for path in CASES:
        text = json.dumps(snapshot(model_of(path)), indent=2) + "\n"
        path.with_suffix(".json").write_text(text, encoding="utf-8")
        print(f"wrote {path.with_suffix('.json').relative_to(ROOT)}")


# --------------------------------------------------------------------------------------------------
# Goldens


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_golden(path: Path) -> None:
    golden = path.with_suffix(".json")
    assert golden.exists(), f"{golden.name} is missing: run `{REGEN}`"
    expected = json.loads(golden.read_text(encoding="utf-8"))
    actual = snapshot(model_of(path))
    assert actual == expected, f"{path.name} no longer matches {golden.name}; if intended, run `{REGEN}`"


# --------------------------------------------------------------------------------------------------
# Precision and recall against the hand labels


def _value(c: Component) -> str | None:
    return c.version or c.ref


def measure(models: dict[str, ImageModel]) -> tuple[int, int, int]:
    """(pins labelled and found right, pins labelled, pins docgen reports) over all labelled files."""
    right = labelled = reported = 0
    for stem, labels in LABELS.items():
        pins = [c for c in models[stem].components if c.pinned]
        reported += len(pins)
        labelled += len(labels)
        found = {(c.name.lower(), _value(c)) for c in pins}
        right += sum((name.lower(), value) in found for name, value in labels.items())
    return right, labelled, reported


def _models() -> dict[str, ImageModel]:
    models = {p.stem: model_of(p) for p in CASES}
    models["bundled_rocm"] = model_of(BUNDLED)
    return models


def test_every_case_is_labelled() -> None:
    assert {p.stem for p in CASES} <= set(LABELS)


def test_precision_and_recall() -> None:
    models = _models()
    right, labelled, reported = measure(models)
    wrong = []
    for stem, labels in LABELS.items():
        for c in models[stem].components:
            if c.pinned and labels.get(c.name) != _value(c) and labels.get(c.name.lower()) != _value(c):
                wrong.append(f"{stem}: {c.name} {_value(c)}")
    recall = right / labelled
    precision = (reported - len(wrong)) / reported
    assert recall >= 0.95, f"recall {recall:.3f} ({right}/{labelled})"
    assert precision >= 0.95, f"precision {precision:.3f}; reported as pinned but not labelled: {wrong}"


# --------------------------------------------------------------------------------------------------
# The bundled image


EXPECTED_KEY_VERSIONS = [
    ("Ubuntu", "22.04"),
    ("Python", "3.12"),
    ("ROCm", "7.0.2"),
    ("PyTorch", "2.9.1.dev20251204"),
    ("Triton", "3.5.1"),
    ("Flash Attention", "83f9e450"),
    ("TransformerEngine", "386bd316"),
    ("vLLM", "1ff9d3353"),
    ("aiter", "45c428e54"),
    ("Megatron-core", "0.16.0"),
]


def test_bundled_key_versions() -> None:
    rows = version_rows(model_of(BUNDLED), {}, None)
    assert [(r.name, r.version) for r in rows] == EXPECTED_KEY_VERSIONS
    by_name = {r.name: r for r in rows}
    assert by_name["ROCm"].source == "https://repo.radeon.com/rocm/apt/7.0.2/"
    assert by_name["ROCm"].arg == "ROCM_VERSION"
    assert by_name["Flash Attention"].source == "https://github.com/ROCm/flash-attention"
    assert by_name["Flash Attention"].arg == "FA_TAG"
    assert by_name["PyTorch"].source is not None and "torch-2.9.1" in by_name["PyTorch"].source
    assert by_name["Python"].arg == "PYTHON_VERSION"
    assert all(r.source for r in rows)


def test_bundled_fork_and_method() -> None:
    comps = {c.name: c for c in model_of(BUNDLED).components if c.kind == "git"}
    assert comps["flash-attention"].fork == "ROCm"
    assert comps["flash-attention"].method == "source"
    assert comps["flash-attention"].ref_kind == "commit"
    assert comps["vllm"].ref_kind == "short-commit"
    assert comps["vllm"].fork is None
    assert comps["verl"].pinned is False


@pytest.mark.parametrize(
    ("old", "new", "row", "shown"),
    [
        (
            "ARG FA_TAG=83f9e450cd10e20701fb109db9c7703d376f282b",
            "ARG FA_TAG=v2.7.4",
            "Flash Attention",
            "v2.7.4",
        ),
        ("ARG ROCM_VERSION=7.0.2", "ARG ROCM_VERSION=7.1.0", "ROCm", "7.1.0"),
        ("torch-2.9.1.dev20251204", "torch-2.10.0.dev20260101", "PyTorch", "2.10.0.dev20260101"),
        ("megatron-core==0.16.0", "megatron-core==0.17.1", "Megatron-core", "0.17.1"),
        ("ARG VLLM_TAG=1ff9d3353", "ARG VLLM_TAG=v0.11.0", "vLLM", "v0.11.0"),
        ("ARG PYTHON_VERSION=3.12", "ARG PYTHON_VERSION=3.11", "Python", "3.11"),
    ],
)
def test_bundled_key_versions_follow_the_dockerfile(
    tmp_path: Path, old: str, new: str, row: str, shown: str
) -> None:
    text = BUNDLED.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "Dockerfile"
    path.write_text(text.replace(old, new), encoding="utf-8")
    rows = {r.name: r.version for r in version_rows(model_of(path), {}, None)}
    assert rows[row] == shown


def test_configured_versions_choose_and_order_rows() -> None:
    rows = version_rows(model_of(BUNDLED), {}, ("torch", "AITER_TAG", "ROCm", "cmake"))
    assert [(r.name, r.version) for r in rows] == [
        ("PyTorch", "2.9.1.dev20251204"),
        ("aiter", "45c428e54"),
        ("ROCm", "7.0.2"),
        ("CMake", "3.26.4"),
    ]


# --------------------------------------------------------------------------------------------------
# Recognisers, one behaviour each


def components_of(text: str) -> tuple[tuple[Component, ...], list[str]]:
    parsed = parse_dockerfile(text, "Dockerfile")
    found, skipped = extract(parsed, evaluate(parsed))
    return found, [s.message for s in skipped]


def only(text: str, name: str) -> Component:
    found, _ = components_of(text)
    matches = [c for c in found if c.name == name]
    assert len(matches) == 1, [c.name for c in found]
    return matches[0]


def test_shell_variable_set_earlier_in_the_run() -> None:
    c = only(
        "FROM ubuntu:22.04\nRUN V=1.2.3 && curl -LO https://example.com/tool/v${V}/tool-${V}-linux.tar.gz\n",
        "tool",
    )
    assert (c.version, c.pinned, c.kind) == ("1.2.3", True, "download")


def test_default_inside_url_and_arg_link() -> None:
    text = "FROM ubuntu:22.04\nARG CMAKE_VERSION\nRUN wget https://x.org/cmake-${CMAKE_VERSION:-3.28.1}-linux-x86_64.sh\n"
    c = only(text, "cmake")
    assert (c.version, c.arg) == ("3.28.1", "CMAKE_VERSION")


def test_pip_quoting_ranges_and_extras() -> None:
    found, _ = components_of(
        "FROM python:3.12\nRUN pip install \"a==1\" 'b>=2' c 'd[x,y]==3.0' e===4.0 'f==1.*'\n"
    )
    pins = {c.name: (c.version, c.pinned) for c in found if c.kind == "pip"}
    assert pins == {
        "a": ("1", True),
        "b": (">=2", False),  # a range is shown, but is not a pin
        "c": (None, False),
        "d": ("3.0", True),
        "e": ("4.0", True),
        "f": ("==1.*", False),
    }


@pytest.mark.parametrize(
    "url",
    [
        "https://h/torch-2.9.1.dev20251204%2Brocm7.0.2-cp312-cp312-linux_x86_64.whl",
        "https://h/torch-2.9.1.dev20251204+rocm7.0.2-cp312-cp312-linux_x86_64.whl",
        "https://h/torch-2.9.1.dev20251204%2Brocm7.0.2-cp312-cp312-linux_x86_64.whl#sha256=abc123",
    ],
)
def test_wheel_urls(url: str) -> None:
    c = only(f"FROM python:3.12\nRUN pip install {url}\n", "torch")
    assert (c.kind, c.version, c.method, c.pinned) == (
        "wheel",
        "2.9.1.dev20251204+rocm7.0.2",
        "prebuilt",
        True,
    )
    assert c.source == url


@pytest.mark.parametrize(
    "word", ["torch-2.3.0-cp310-cp310-linux_aarch64.whl", "./torch-2.3.0-cp310-cp310-linux_aarch64.whl"]
)
def test_a_wheel_file_named_alone_is_the_package_it_holds(word: str) -> None:
    # pip reads a word ending in .whl as a file of the working directory, with or without `./`
    c = only(f"FROM python:3.10\nRUN wget -O {word} https://h/x.whl && pip install {word}\n", "torch")
    assert (c.kind, c.version, c.method) == ("wheel", "2.3.0", "prebuilt")


def test_git_clone_then_checkout_in_a_later_run_through_workdir() -> None:
    text = (
        "FROM ubuntu:22.04\nARG X_COMMIT=0123456789abcdef0123456789abcdef01234567\n"
        "RUN git clone https://github.com/org/x.git /src/x\nWORKDIR /src/x\n"
        "RUN git checkout ${X_COMMIT}\nRUN make -j\n"
    )
    c = only(text, "x")
    assert (c.ref, c.ref_kind, c.pinned, c.method, c.arg, c.line) == (
        "0123456789abcdef0123456789abcdef01234567",
        "commit",
        True,
        "source",
        "X_COMMIT",
        3,
    )


def test_clone_without_ref_is_floating() -> None:
    c = only("FROM ubuntu:22.04\nRUN git clone https://github.com/org/tool\n", "tool")
    assert (c.ref, c.pinned, c.method) == (None, False, "checkout")


def test_clone_branch_option_and_fetch_head() -> None:
    found, _ = components_of(
        "FROM ubuntu:22.04\n"
        "RUN git clone -b v1.4.0 --depth 1 https://github.com/org/a.git\n"
        "RUN mkdir b && cd b && git init && git remote add origin https://github.com/org/b "
        "&& git fetch origin 1234567abc && git checkout FETCH_HEAD\n"
    )
    refs = {c.name: (c.ref, c.ref_kind) for c in found}
    assert refs["a"] == ("v1.4.0", "tag")
    assert refs["b"] == ("1234567abc", "short-commit")


def test_exec_form_and_heredoc() -> None:
    found, _ = components_of(
        'FROM ubuntu:22.04\nRUN ["pip", "install", "x==1.0"]\nRUN <<EOF\nset -e\npip install y==2.0\nEOF\n'
    )
    lines = {c.name: (c.version, c.line) for c in found if c.kind == "pip"}
    assert lines == {"x": ("1.0", 2), "y": ("2.0", 5)}


def test_images_from_copy_and_mount() -> None:
    found, _ = components_of(
        "FROM alpine AS a\nFROM ubuntu@sha256:abc\n"
        "COPY --from=ghcr.io/astral-sh/uv:0.5 /uv /bin/\nCOPY --from=a / /\n"
        "RUN --mount=type=bind,from=busybox:1.36,target=/b true\n"
    )
    images = [(c.name, c.version, c.ref, c.pinned) for c in found if c.kind == "image"]
    assert images == [
        ("alpine", "latest", None, False),
        ("ubuntu", None, "sha256:abc", True),
        ("ghcr.io/astral-sh/uv", "0.5", None, True),
        ("busybox", "1.36", None, True),
    ]


def test_apt_pins_and_repos() -> None:
    found, _ = components_of(
        "FROM ubuntu:22.04\nARG ROCM_VERSION=6.3\n"
        "RUN echo 'deb [arch=amd64] https://repo.radeon.com/rocm/apt/'${ROCM_VERSION}' jammy main' "
        "| tee /etc/apt/sources.list.d/rocm.list\n"
        "RUN apt-get update && apt-get install -y rocm-dev curl=7.81.0-1\n"
    )
    got = {(c.kind, c.name): (c.version, c.pinned, c.arg) for c in found}
    assert got[("apt-repo", "rocm")] == ("6.3", True, "ROCM_VERSION")
    assert got[("apt", "curl")] == ("7.81.0", True, None)  # the Debian revision `-1` kept in ref
    assert got[("apt", "rocm-dev")] == (None, False, None)


DONOR_REPO = """\
FROM rocm/dev-ubuntu-22.04:7.0.2
RUN echo 'deb [arch=amd64 trusted=yes] https://repo.radeon.com/rocm/apt/6.3/ jammy main' \\
      > /etc/apt/sources.list.d/rocm63.list && \\
    apt-get update && cd /tmp && apt-get download rocblas=4.3.0.60300-39~22.04 && \\
    dpkg-deb -x rocblas*.deb /tmp/rocblas63 && cp -r /tmp/rocblas63/opt/rocm-6.3.0/lib/* /opt/rocm/lib/ && \\
    {cleanup}
"""


def test_a_repository_removed_before_anything_is_installed_from_it_is_no_component() -> None:
    # added to download one package (`apt-get download`), its list removed again: the image's ROCm
    # is its base's 7.0.2, not the donor's 6.3
    found, skipped = components_of(
        DONOR_REPO.format(cleanup="rm -rf /tmp/rocblas* /etc/apt/sources.list.d/rocm63.list")
    )
    assert [c.name for c in found if c.kind == "apt-repo"] == []
    assert any("removed again at line 6 before anything was installed" in message for message in skipped)
    parsed = parse_dockerfile(DONOR_REPO.format(cleanup="rm -rf /etc/apt/sources.list.d"), "Dockerfile")
    rows = version_rows(pipeline.model_of(parsed), {}, None)
    assert ("ROCm", "7.0.2") in [(r.name, r.version) for r in rows]


@pytest.mark.parametrize(
    "cleanup",
    [
        "apt-get install -y rocm-dev && rm /etc/apt/sources.list.d/rocm63.list",  # installed from it
        "dpkg -i rocblas*.deb && rm /etc/apt/sources.list.d/rocm63.list",  # the download is installed
        "apt-get -y dist-upgrade && rm /etc/apt/sources.list.d/rocm63.list",  # upgraded from it
        "rm /etc/apt/sources.list.d/other.list",  # another list goes
        "true",  # it stays for later RUNs
        'if [ -n "$X" ]; then rm /etc/apt/sources.list.d/rocm63.list; fi',  # only in a branch
    ],
)
def test_a_repository_installed_from_or_kept_is_still_a_component(cleanup: str) -> None:
    found, _ = components_of(DONOR_REPO.format(cleanup=cleanup))
    assert [(c.name, c.version) for c in found if c.kind == "apt-repo"] == [("rocm", "6.3")]


def test_a_package_file_dpkg_installs_is_that_package_at_the_version_its_name_says() -> None:
    found, _ = components_of(
        "FROM ubuntu:20.04\nARG CUDNN=8.1.1.33-1+cuda11.2\n"
        "COPY cudnn/ /tmp/\n"
        "RUN dpkg -i /tmp/libcudnn8_${CUDNN}_amd64.deb /tmp/libcudnn8-dev_8.1.1.33-1+cuda11.2_amd64.deb\n"
        "RUN dpkg -i /tmp/cuda-keyring.deb && dpkg --print-architecture && dpkg -l tzdata_1.0_all.deb\n"
    )
    got = {(c.kind, c.name): (c.version, c.ref, c.pinned, c.arg) for c in found}
    assert got[("apt", "libcudnn8")] == ("8.1.1.33", "8.1.1.33-1+cuda11.2", True, "CUDNN")
    assert got[("apt", "libcudnn8-dev")] == ("8.1.1.33", "8.1.1.33-1+cuda11.2", True, None)
    # a file named otherwise tells no version; `-l` lists, it installs nothing
    assert [name for kind, name in got if kind == "apt"] == ["libcudnn8", "libcudnn8-dev"]


def test_requirements_file_is_not_a_component() -> None:
    parsed = parse_dockerfile("FROM python:3.12\nRUN pip install -r requirements/rocm.txt\n", "Dockerfile")
    found, skipped = extract(parsed, evaluate(parsed))
    assert [c.name for c in found] == ["python"]
    said = "pip install -r requirements/rocm.txt: its pins live in that file; not listed"
    assert [s.message for s in skipped] == [said]


@pytest.mark.parametrize(
    ("ref", "kind"),
    [
        ("83f9e450cd10e20701fb109db9c7703d376f282b", "commit"),
        ("1ff9d3353", "short-commit"),
        ("v0.15.1", "tag"),
        ("2.6.3", "tag"),
        ("main", "branch"),
        ("release/2.10", "branch"),
        ("rocm6.4_internal_testing", "branch"),
        ("refs/tags/v1", "tag"),
    ],
)
def test_ref_kind(ref: str, kind: str) -> None:
    assert ref_kind(ref) == kind


@pytest.mark.parametrize(
    ("filename", "expected"),
    [
        ("cmake-3.26.4-linux-x86_64.tar.gz", ("cmake", "3.26.4")),
        ("boost_1_82_0.tar.gz", ("boost", "1.82.0")),
        ("libnccl2_2.18.3-1+cuda12.2_amd64.deb", ("libnccl2", "2.18.3-1+cuda12.2")),
        ("node-v18.17.0-linux-x64.tar.xz", ("node", "18.17.0")),
        ("go1.22.5.linux-amd64.tar.gz", ("go", "1.22.5")),
    ],
)
def test_name_version(filename: str, expected: tuple[str, str]) -> None:
    assert name_version(*split_extension(filename)) == expected


# --------------------------------------------------------------------------------------------------
# Robustness


def test_long_run_is_read_whole() -> None:
    """A RUN of 40,000 installs is read completely (its cost is measured in benchmarks/, not here)."""
    body = " \\\n".join(
        f"    && pip install pkg{i}==1.{i} && git clone https://h/r{i}.git" for i in range(20000)
    )
    text = f"FROM ubuntu:22.04\nRUN true{body}\n"
    found, _ = components_of(text)
    assert len(found) == 40001


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list("RUN pip install git clone -b ${}:-\"'\\\n&|;<>()=@#/.v1EOF$`")),
        max_size=200,
    )
)
def test_extract_never_raises(body: str) -> None:
    try:
        parsed = parse_dockerfile("FROM ubuntu:22.04\nRUN " + body + "\n", "Dockerfile")
        evaluation = evaluate(parsed)
    except DocgenError:
        return
    found, skipped = extract(parsed, evaluation)
    assert not any("Error" in s.message for s in skipped), skipped


def test_show_json_and_verbose(capsys: pytest.CaptureFixture[str]) -> None:
    path = DATA / "multistage_misc.Dockerfile"
    assert cli.main(["show", str(path), "--format", "json", "--verbose"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"name", "version", "ref", "source", "kind", "method", "stage", "line", "pinned", "arg"} <= set(
        data["components"][0]
    )
    assert any("not a pip requirement" in s for s in data["skipped"])
    assert cli.main(["show", str(path), "--verbose"]) == 0
    assert "skipped:" in capsys.readouterr().err


if __name__ == "__main__":
    if sys.argv[1:] == ["--regen"]:
        regenerate()
    else:
        print(__doc__)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://github.com/openai/triton/archive/main.tar.gz", ("triton", None, "main", False, "branch")),
        ("https://github.com/o/r/archive/refs/heads/dev.tar.gz", ("r", None, "dev", False, "branch")),
        ("https://github.com/o/r/archive/refs/tags/v1.2.0.tar.gz", ("r", "1.2.0", None, True, None)),
        (
            "https://github.com/o/r/archive/0123456789abcdef0123456789abcdef01234567.tar.gz",
            ("r", None, "0123456789abcdef0123456789abcdef01234567", True, None),
        ),
    ],
)
def test_github_archive_of_a_branch_is_not_a_pin(url: str, expected: tuple[object, ...]) -> None:
    found, _ = components_of(f"FROM scratch\nRUN curl -L {url} | tar xz\n")
    (download,) = [c for c in found if c.kind == "download"]
    assert (download.name, download.version, download.ref, download.pinned, download.ref_kind) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # ADD unpacks a local tar archive: what it holds is in the image, at its file name's version
        ("ADD vendor/ComfyUI-${COMFY_VERSION}.tar.gz /workspace/", [("ComfyUI", "0.3.75", "COMFY_VERSION")]),
        ("ADD third_party/cmake-3.29.3-linux-x86_64.tar.gz /opt/", [("cmake", "3.29.3", None)]),
        ('ADD ["libs/nccl-2.21.5.txz", "/opt/"]', [("nccl", "2.21.5", None)]),
        # traps: a zip or a wheel ADD copies unpacked, a plain file, a folder: none is a component here
        ("ADD vendor/ComfyUI-0.3.75.zip /workspace/", []),
        ("ADD wheels/flash_attn-2.6.3-cp310-linux_x86_64.whl /tmp/", []),
        ("ADD requirements.txt /app/", []),
        ("ADD ComfyUI-0.3.75/ /workspace/ComfyUI/", []),
    ],
)
def test_a_local_tar_archive_add_unpacks(line: str, expected: list[tuple[str, str, str | None]]) -> None:
    found, _ = components_of(f"FROM scratch\nARG COMFY_VERSION=0.3.75\n{line}\n")
    assert [(c.name, c.version, c.arg) for c in found if c.kind == "download"] == expected


def test_a_local_archive_copied_is_not_unpacked() -> None:
    # COPY never unpacks: the archive lies in the image as a file, and what a later RUN does with it is
    # the RUN's (not read here)
    found, _ = components_of("FROM scratch\nCOPY vendor/ComfyUI-0.3.75.tar.gz /tmp/\n")
    assert [c for c in found if c.kind == "download"] == []


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("* ComfyUI 0.3.60", ["3: README says ComfyUI 0.3.60 but Dockerfile:2 says 0.3.75"]),
        ("* ComfyUI 0.3.75", []),  # trap: the version the archive's name says
        ("## Changelog\n\n- v1: ComfyUI 0.3.60", []),  # trap: history
    ],
)
def test_a_readme_is_audited_against_a_local_tar_archive(
    tmp_path: Path, said: str, expected: list[str]
) -> None:
    from docgen.audit import audit

    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(
        "FROM python:3.12\nARG COMFY_VERSION=0.3.75\nADD ComfyUI-${COMFY_VERSION}.tar.gz /opt/\n"
    )
    readme = f"# Image\n\n{said}\n"
    found = audit(readme, "README.md", [build_model(dockerfile, "Dockerfile")], {}, tmp_path)
    assert [f"{d.line}: {d.message}" for d in found] == expected


def test_a_checksum_pins_even_a_branch_archive() -> None:
    url = "https://github.com/o/r/archive/main.tar.gz"
    found, _ = components_of(f"FROM scratch\nADD --checksum=sha256:{'a' * 64} {url} /src/\n")
    (download,) = [c for c in found if c.kind == "download"]
    assert download.pinned and download.ref_kind == "branch"
