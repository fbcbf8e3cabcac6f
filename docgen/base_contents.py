"""What well-known base images carry: `nvcr.io/nvidia/pytorch` holds PyTorch, Apex and Transformer
Engine, `nvidia/cuda:*-cudnn-*` cuDNN, `ubuntu` no GPU component at all.

A README may list a component the Dockerfile never installs and still be right: the image it starts
from may carry it. `carries(base, names)` answers from `_FAMILIES`, the one table of what docgen knows
of base images without looking inside one: for each family, a pattern of its repository, a pattern of
the components it carries (by normalised name), the components its tag adds (`-cudnn` cuDNN, `-devel`
nvcc), and what else is known of it:

- a closed family (an operating system, a language, CUDA, ROCm, conda) carries nothing of note beyond
  its pattern: any other component is not in it;
- an open family (a framework image: NGC PyTorch, `pytorch/pytorch`, `rocm/pytorch`) carries many
  packages docgen does not list; only the add-ons of `lacks` (DeepSpeed, vLLM, xformers …) are known
  to be absent from it, anything else may be there.

An image of no family (a project's own image, `FROM ${BASE_IMAGE}`) may carry anything. What the
container runtime mounts (the driver, `nvidia-smi`) is carried by every image. `brought_by` names what
installing a package pulls in with it (vLLM brings xformers and FlashInfer), a fact of the same kind.
Names are compared normalised (`sources.naming.SAME_PROJECT`: `flash_attn` is `flashattention`,
`Megatron-LM` is `megatroncore`). Pure functions, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from docgen.baseimage import split_reference
from docgen.sources.naming import SAME_PROJECT

_CUDA = r"cuda\w*|cu(?:blas|fft|rand|solver|sparse|pti|b|file|tensor)\w*|npp\w*|nvjpeg|nvrtc|nvtx|nvml|thrust"
"""CUDA's own libraries, as an `nvidia/cuda` image or a framework image built on it holds them."""
_NCCL = r"nccl"
_ROCM = (
    r"rocm\w*|hip\w*|roc(?:blas|fft|rand|solver|sparse|prim|thrust|wmma|profiler|tracer|info|smi)\w*"
    r"|miopen\w*|rccl|amdgpu\w*|amdsmi|hsa\w*|migraphx|mivisionx|composablekernel|rpp|llvm\w*|clang"
)
"""ROCm's own libraries and tools, as a `rocm/dev-*` image or a framework image built on it holds them."""
_PYTHON = r"python\d*|pip\d*|setuptools|wheel"
_RUNTIME = re.compile(r"nvidia\w*|libcuda|cudadriver|driver|amdgpudkms")
"""What the container runtime or the host provides to every container (the driver, `nvidia-smi`):
carried by any image, so never said to be missing."""
_ADD_ONS = frozenset(
    {"deepspeed", "vllm", "sglang", "xformers", "bitsandbytes", "unsloth", "colossalai", "tensorrtllm"}
    | {"lmdeploy", "llamacpp", "ollama", "detectron2", "mmcv", "jax", "jaxlib", "paddlepaddle", "mindspore"}
    | {"nemo", "nemotoolkit", "nemoframeworklauncher", "nemolauncher"}
)
"""Components a framework base image is known not to carry: each is installed by the projects that use
it (a training or serving add-on), never by NVIDIA's, PyTorch's or AMD's framework images (NeMo and its
launcher are NVIDIA's own `nvcr.io/nvidia/nemo` image's, not its PyTorch image's)."""
_NOT_NVIDIA = frozenset({"apex", "transformerengine", "flashattention", "megatroncore"})
"""NVIDIA's training components, in NGC's PyTorch image and not in PyTorch's own or AMD's."""
_ONEAPI = (
    r"(?:intel)?(?:oneapi\w*|dpcpp\w*|icpx|icx|ifx|mkl\w*|onemkl|tbb|onetbb|ipp\w*|onednn|dnnl|oneccl\w*|ccl|impi"
    r"|intelmpi|vtune|advisor|inspector|levelzero|sycl\w*|opencl\w*)"
)
"""Intel's oneAPI compilers and libraries, as its `basekit` and `hpckit` images hold them (under their
apt names too: `intel-oneapi-mkl-devel`)."""
_ONEAPI_LACKS = frozenset(
    {"pytorch", "torchvision", "torchaudio", "tensorflow", "intelextensionforpytorch", "ipexllm"}
    | {"intelextensionfortransformers", "intelextensionfortensorflow", "transformers", "diffusers"}
)
"""Frameworks and Intel's extensions to them that oneAPI's Base and HPC Toolkit images come without: they
are in its AI Tools image (`intel/oneapi-aikit`) or installed by the projects that use them."""
_L4T_BASE_LACKS = frozenset(
    {"pytorch", "torch", "torchvision", "tensorflow", "keras", "onnx", "onnxruntime", "numpy", "pandas"}
    | {"scipy", "scikitlearn", "sklearn", "jupyter", "jupyterlab", "matplotlib"}
)
"""Frameworks and Python libraries NVIDIA's `l4t-base` image comes without: they are in its `l4t-pytorch`,
`l4t-tensorflow` and `l4t-ml` images, built on it."""


@dataclass(frozen=True)
class _Family:
    """A family of base images and what docgen knows they carry."""

    name: str
    """How the family is named in a finding (`NGC PyTorch`)."""
    repository: str
    """A pattern its repository (without a registry host, lower case) matches in full."""
    carried: str
    """A pattern the normalised name of each component it carries matches in full."""
    closed: bool
    """True when `carried` is all it carries of note; False when it carries more docgen does not list."""
    lacks: frozenset[str] = frozenset()
    """For an open family, the components (normalised) known to be absent from it."""
    tagged: tuple[tuple[str, str], ...] = ()
    """(a pattern its tag contains, a pattern of the names that tag adds): `-cudnn` adds cuDNN."""
    plain: bool = False
    """True for an operating system or a language image: no GPU or ML component at all."""
    root: bool = False
    """True when its images set no USER (a container runs as root unless the Dockerfile says otherwise),
    as a plain image's do too; False when docgen does not know (`mambaorg/micromamba` sets one)."""
    architectures: frozenset[str] = frozenset()
    """The architectures (GOARCH) its images are published for, when they are fewer than every one
    (`l4t-*`: arm64 only); empty when docgen does not know or any may be."""


_JETSON = frozenset({"arm64"})
"""What an image for Jetson (Linux for Tegra) is built for: NVIDIA publishes `l4t-*` for arm64 only."""
_OS = (
    r"ubuntu|debian|alpine|centos|rockylinux|fedora|almalinux|busybox|amazonlinux|oraclelinux"
    r"|ubi\d*|ubi-minimal|ubi\d+-minimal|buildpack-deps|opensuse"
)
_FAMILIES: tuple[_Family, ...] = (
    _Family("an operating system image", rf"(?:[\w.-]+/)*(?:{_OS})", r"(?!)", True, plain=True),
    _Family("a Python image", r"(?:[\w.-]+/)*python", _PYTHON, True, plain=True),
    _Family(
        "a conda image",
        r"continuumio/(?:miniconda3?|anaconda3?)|condaforge/(?:miniforge3?|mambaforge)|mambaorg/micromamba",
        rf"{_PYTHON}|conda|mamba|micromamba",
        True,
    ),
    _Family(
        "a CUDA image",
        r"(?:nvcr\.io/)?nvidia/cuda",
        rf"{_CUDA}|{_NCCL}",
        True,
        tagged=((r"cudnn", r"cudnn\d*"), (r"devel", r"nvcc")),
        root=True,
    ),
    _Family(
        "a CUDA OpenGL image",
        r"(?:nvcr\.io/)?nvidia/cudagl",
        rf"{_CUDA}|{_NCCL}|opengl|glvnd|libglvnd\w*|libgl\w*|egl|libegl\w*|gl|glx|mesa\w*",
        True,
        tagged=((r"cudnn", r"cudnn\d*"), (r"devel", r"nvcc")),
        root=True,
    ),
    _Family("a ROCm image", r"rocm/(?:dev-[\w.-]+|rocm-terminal)", _ROCM, True, root=True),
    _Family(
        "Intel's oneAPI toolkit image",
        r"intel/(?:oneapi-(?:basekit|hpckit|runtime)|basekit|hpckit)",
        _ONEAPI,
        False,
        lacks=_ADD_ONS | _NOT_NVIDIA | _ONEAPI_LACKS,
        root=True,
    ),
    _Family(
        "NGC PyTorch",
        r"nvcr\.io/nvidia/pytorch",
        rf"pytorch|torchvision|torchaudio|torchtensorrt|apex|transformerengine|flashattention|megatroncore"
        rf"|triton|tensorrt|nvinfer|dali|nvfuser|cudnn\d*|nvcc|{_CUDA}|{_NCCL}|{_PYTHON}|numpy|jupyter\w*"
        r"|tensorboard|openmpi|ucx|hpcx|magma|onnx|polygraphy|modelopt",
        False,
        lacks=_ADD_ONS,
        root=True,
    ),
    _Family(
        "NGC TensorFlow",
        r"nvcr\.io/nvidia/tensorflow",
        rf"tensorflow|horovod|tensorrt|nvinfer|dali|cudnn\d*|nvcc|{_CUDA}|{_NCCL}|{_PYTHON}|numpy|jupyter\w*"
        r"|tensorboard|openmpi|ucx|hpcx",
        False,
        lacks=_ADD_ONS | _NOT_NVIDIA | {"pytorch"},
        root=True,
    ),
    _Family(
        "NGC TensorRT",
        r"nvcr\.io/nvidia/tensorrt",
        rf"tensorrt|nvinfer|trtexec|onnx\w*|polygraphy|graphsurgeon|uff|pycuda|cudnn\d*|nvcc|{_CUDA}|{_NCCL}"
        rf"|{_PYTHON}|numpy|openmpi|ucx|hpcx",
        False,
        lacks=_ADD_ONS | _NOT_NVIDIA | {"jupyter", "jupyterlab"},
        root=True,
    ),
    _Family(
        "PyTorch's image",
        r"pytorch/pytorch",
        rf"pytorch|torchvision|torchaudio|triton|conda|numpy|{_CUDA}|{_NCCL}|{_PYTHON}",
        False,
        lacks=_ADD_ONS | _NOT_NVIDIA,
        tagged=((r"cudnn", r"cudnn\d*"), (r"devel", r"nvcc")),
        root=True,
    ),
    _Family(
        "AMD's PyTorch image",
        r"rocm/pytorch(?:-nightly)?",
        rf"pytorch|torchvision|torchaudio|triton|apex|numpy|conda|{_ROCM}|{_PYTHON}",
        False,
        lacks=_ADD_ONS,
    ),
    _Family(
        "NVIDIA's L4T PyTorch image",
        r"nvcr\.io/nvidia/l4t-pytorch",
        rf"pytorch|torchvision|torchaudio|tensorrt|nvinfer|cudnn\d*|nvcc|{_CUDA}|{_PYTHON}|numpy",
        False,
        lacks=_ADD_ONS,
        architectures=_JETSON,
    ),
    _Family(
        "NVIDIA's L4T base image",
        r"nvcr\.io/nvidia/l4t-base",
        r"(?!)",  # CUDA, cuDNN, TensorRT are mounted from the host on R32 and vary by release: not said
        False,
        lacks=_ADD_ONS | _NOT_NVIDIA | _L4T_BASE_LACKS,
        architectures=_JETSON,
    ),
    _Family(
        "an L4T image",
        r"nvcr\.io/nvidia/l4t-[\w.-]+|dustynv/[\w.-]+|balenalib/jetson-[\w.-]+",
        r"(?!)",  # what an L4T image holds varies (l4t-base mounts CUDA from the host): not said here
        False,
        architectures=_JETSON,
    ),
    _Family(
        "TensorFlow's image",
        r"tensorflow/tensorflow",
        rf"tensorflow|keras|tensorboard|numpy|jupyter\w*|cudnn\d*|{_CUDA}|{_NCCL}|{_PYTHON}",
        False,
        lacks=_ADD_ONS | _NOT_NVIDIA | {"pytorch"},
    ),
)
"""The families of base images docgen knows, tried in order; the first whose repository pattern
matches is the image's."""

BRINGS: dict[str, frozenset[str]] = {
    package: frozenset(brought.split())
    for package, brought in {
        "vllm": "xformers flashinfer flashattention triton pytorch ray transformers",
        "sglang": "flashinfer xformers triton pytorch transformers vllm",
        "tensorrtllm": "tensorrt nvinfer pytorch transformers modelopt flashinfer",
        "lmdeploy": "triton pytorch transformers",
        "unsloth": "xformers bitsandbytes triton pytorch transformers trl peft",
        "pytorch": "triton nccl cudnn cublas",
        "xformers": "pytorch",
        "deepspeed": "pytorch",
        "trl": "transformers accelerate datasets pytorch",
        "peft": "transformers accelerate pytorch",
        "accelerate": "pytorch",
        "sentencetransformers": "transformers pytorch",
        "axolotl": "transformers accelerate datasets peft trl pytorch",
        "notebook": "jupyter ipykernel",  # the `jupyter notebook` command
        "jupyterlab": "jupyter ipykernel",
    }.items()
}
"""What installing a package (normalised) may pull in with it (`pip install vllm` brings xformers and
FlashInfer): such a component is in the image though no line of the Dockerfile names it."""


KNOWN = frozenset(_ADD_ONS | _NOT_NVIDIA | set(BRINGS) | {n for brought in BRINGS.values() for n in brought})
"""The components (normalised) this module says something about: names a README's list may give."""


def _key(name: str) -> str:
    raw = re.sub(r"[^a-z0-9]+", "", name.lower())
    return SAME_PROJECT.get(raw, raw)


def _keys(names: Iterable[str]) -> set[str]:
    """The normalised names of `names`, each also without its packaging (`libcudnn8-dev` is cudnn8)."""
    keys = set()
    for name in names:
        key = _key(name)
        keys |= {key, _key(re.sub(r"\A(?:lib|python3?)|(?:dev|devel|headers)\Z", "", key))}
    return keys - {""}


def _repository(base: str) -> tuple[str, str]:
    """(the repository of the image reference `base` as pulled, lower case; its tag, lower case or '')."""
    name, tag = split_reference(base)
    return name, (tag or "").lower()


@lru_cache(maxsize=256)
def _family(repository: str) -> _Family | None:
    for family in _FAMILIES:
        if re.fullmatch(family.repository, repository):
            return family
    first, _, rest = repository.partition("/")
    if rest and ("." in first or ":" in first) and not first.startswith("nvcr.io"):
        return _family(rest)  # a mirror of a Docker Hub image (`registry:5000/nvidia/cuda`)
    return None


def family_name(base: str) -> str | None:
    """How the family of the base image reference `base` is named (`NGC PyTorch`), None when docgen does
    not know it."""
    family = _family(_repository(base)[0])
    return family.name if family is not None else None


def is_plain(base: str) -> bool:
    """True when `base` is an operating system or language image: one that holds no GPU or ML component."""
    family = _family(_repository(base)[0])
    return family is not None and family.plain


def runs_as_root(base: str) -> bool:
    """True when the images of `base` set no USER: a container of an image built on it runs as root
    unless its Dockerfile sets a user (an operating system or Python image, `nvidia/cuda`, NGC's)."""
    family = _family(_repository(base)[0])
    return family is not None and (family.plain or family.root)


_OLD_CUDA = re.compile(r"(?:[1-9]|10)\.\d")
"""A CUDA release before 11.0 at the start of an `nvidia/cuda` tag: published for amd64 (and ppc64le
in a repository of its own), not arm64; CUDA 11 and later have arm64 (SBSA) images too."""


def architectures(base: str) -> frozenset[str]:
    """The architectures the base image reference `base` is published for, when docgen knows they are
    fewer than every one: an L4T image (`nvcr.io/nvidia/l4t-cuda`, `dustynv/…`) arm64, an `nvidia/cuda`
    image of CUDA 10 or older amd64. Empty when it does not know (multi-architecture images such as
    `ubuntu`, `python`, CUDA 11+ or NGC's are published for arm64 and amd64 alike)."""
    repository, tag = _repository(base)
    family = _family(repository)
    if family is None:
        return frozenset()
    if family.name == "a CUDA image" and _OLD_CUDA.match(tag):
        return frozenset({"amd64"})
    return family.architectures


_L4T_RELEASE = re.compile(r"(?:\A|[-_.])r(3[2-9])\.\d+(?:\.\d+)?(?=\Z|[-_])")
"""An L4T release in a Jetson image's tag (`r35.2.1`, `humble-r36.2.0`): its major tells the JetPack."""
_JETPACK_OF_L4T = {"32": "4", "34": "5", "35": "5", "36": "6", "38": "7"}
"""JetPack major release of each L4T major (L4T R32 is JetPack 4, R34/R35 JetPack 5, R36 JetPack 6, R38
JetPack 7): NVIDIA's Jetson release tables."""
_JETPACK_OF_RELEASE = {
    **{f"32.{k}": v for k, v in {"1.0": "4.2", "2.0": "4.2.1", "2.1": "4.2.2", "2.3": "4.2.3"}.items()},
    **{f"32.{k}": v for k, v in {"3.1": "4.3", "4.3": "4.4", "4.4": "4.4.1", "5.0": "4.5"}.items()},
    **{f"32.{k}": v for k, v in {"5.1": "4.5.1", "6.1": "4.6", "7.1": "4.6.1", "7.2": "4.6.2"}.items()},
    **{f"32.{k}": v for k, v in {"7.3": "4.6.3", "7.4": "4.6.4", "7.5": "4.6.5", "7.6": "4.6.6"}.items()},
    **{"34.1.0": "5.0", "34.1.1": "5.0.1", "35.1.0": "5.0.2", "35.2.1": "5.1", "35.3.1": "5.1.1"},
    **{"35.4.1": "5.1.2", "35.5.0": "5.1.3", "35.6.0": "5.1.4", "35.6.1": "5.1.5"},
    **{"36.2.0": "6.0", "36.3.0": "6.0", "36.4.0": "6.1", "36.4.3": "6.2", "36.4.4": "6.2.1"},
    **{"38.2.0": "7.0"},
}
"""The JetPack release of each L4T release NVIDIA shipped one with (L4T R32.4.3 is JetPack 4.4, R32.6.1
JetPack 4.6, R36.2.0 the 6.0 developer preview): NVIDIA's JetPack archive. An L4T release not listed
(`r32.5.2`, a tag writing `r36.2`) tells the major only (`_JETPACK_OF_L4T`)."""
_L4T_CUDA = re.compile(r"(\d+)\.(\d+)(?:\.\d+)?(?=\Z|[-_])")
_JETPACK_OF_CUDA = {("10", "2"): "4", ("11", "4"): "5", ("13", "0"): "7"}
"""JetPack major release an `l4t-cuda` tag's CUDA belongs to (10.2: JetPack 4, 11.4: JetPack 5, 13.0:
JetPack 7); every CUDA 12 is JetPack 6's (12.2 in 6.0, 12.6 in 6.1 and 6.2)."""


def jetpack(base: str) -> str | None:
    """The JetPack release a Jetson base image reference is of: the one of the L4T release in its tag
    (`nvcr.io/nvidia/l4t-base:r32.4.3`: `4.4`, `_JETPACK_OF_RELEASE`), its major alone when the release
    is not listed (`nvcr.io/nvidia/l4t-pytorch:r35.2-pth2.0-py3`: `5`), else the major of the CUDA
    release of an `l4t-cuda` tag (`nvcr.io/nvidia/l4t-cuda:11.4.19-runtime`: `5`). None for any other
    image, or a tag that says neither."""
    repository, tag = _repository(base)
    family = _family(repository)
    if family is None or family.architectures != _JETSON:
        return None
    release = _L4T_RELEASE.search(tag.lower())
    if release is not None:
        full = _L4T_FULL.search(tag.lower())
        known = _JETPACK_OF_RELEASE.get(full.group(1)) if full is not None else None
        return known or _JETPACK_OF_L4T.get(release.group(1))
    cuda = _L4T_CUDA.match(tag) if repository.endswith("l4t-cuda") else None
    if cuda is None:
        return None
    return "6" if cuda.group(1) == "12" else _JETPACK_OF_CUDA.get((cuda.group(1), cuda.group(2)))


_L4T_FULL = re.compile(r"(?:\A|[-_.])r(3[2-9](?:\.\d+){1,2})(?=\Z|[-_])")
"""The whole L4T release in a Jetson image's tag: `36.2.0` of `r36.2.0`, of `humble-desktop-l4t-r35.2.1`."""


def jetpack_of_l4t(release: str) -> str | None:
    """The JetPack release of the L4T release `release` (`35.3.1`: `5.1.1`, `_JETPACK_OF_RELEASE`), its
    major alone when the release is not listed (`35.2.0`: `5`); None for no L4T release of R32 or later."""
    parts = release.split(".")
    if len(parts) < 2 or not all(p.isdigit() for p in parts):
        return None
    full = release if len(parts) == 3 else f"{release}.0"
    return _JETPACK_OF_RELEASE.get(full) or _JETPACK_OF_L4T.get(parts[0])


_CUDA_OF_L4T = {
    **dict.fromkeys(("32.1", "32.2", "32.3"), "10.0"),
    **dict.fromkeys(("32.4", "32.5", "32.6", "32.7"), "10.2"),
    **dict.fromkeys(("34.1", "35.1", "35.2", "35.3", "35.4", "35.5", "35.6"), "11.4"),
    **{"36.2": "12.2", "36.3": "12.2", "36.4": "12.6", "38.2": "13.0"},
}
"""The CUDA release of the JetPack of each L4T release (major and minor): JetPack 4.2 to 4.3 (L4T R32.1
to R32.3) CUDA 10.0, JetPack 4.4 to 4.6.x (R32.4 to R32.7) 10.2, every JetPack 5 (R34, R35) 11.4, JetPack
6.0 (R36.2, R36.3) 12.2, 6.1 and 6.2 (R36.4) 12.6, 7.0 (R38.2) 13.0. Written from memory of NVIDIA's
JetPack release notes, as known in 2025; docgen asks no registry. An L4T release not in it tells nothing."""
_CUDA_IN_TAG = re.compile(r"(?:\A|[-_.])cu(?:da)?[-_]?\d")
"""A tag that names a CUDA of its own (`…-r36.4.0-cu128`, `cuda-12.4`): a newer CUDA may be built in."""


def l4t_cuda(base: str) -> str | None:
    """The CUDA release (`10.2`) of the JetPack of the L4T release NVIDIA's own Jetson image `base` names
    (`nvcr.io/nvidia/l4t-base:r32.6.1`, `l4t-pytorch:r35.2.1-pth2.0-py3`, `_CUDA_OF_L4T`), or a
    jetson-containers image of JetPack 4 or 5 (`dustynv/ros:humble-desktop-l4t-r35.4.1`: built on NVIDIA's
    image of that release, with its CUDA); None for any other image (a `dustynv/…` image of JetPack 6 or
    later, whose builds may carry another CUDA), an `l4t-cuda` image (its tag says its CUDA), a tag naming
    a CUDA of its own (`…-cu122`), or an L4T release docgen does not know."""
    repository, tag = _repository(base)
    nvidia = re.fullmatch(r"nvcr\.io/nvidia/l4t-[\w.-]+", repository) and not repository.endswith("l4t-cuda")
    if not nvidia and not re.fullmatch(r"dustynv/[\w.-]+", repository):
        return None
    release = _L4T_FULL.search(tag) or re.search(r"(?:\A|[-_.])r(3[2-9]\.\d+)(?=\Z|[-_])", tag)
    if release is None or _CUDA_IN_TAG.search(tag):
        return None
    if not nvidia and release.group(1).split(".")[0] not in ("32", "34", "35"):
        return None
    return _CUDA_OF_L4T.get(".".join(release.group(1).split(".")[:2]))


def l4t_release(base: str) -> str | None:
    """The L4T release (`36.2.0`) a Jetson base image reference's tag names
    (`nvcr.io/nvidia/l4t-base:r36.2.0`, `dustynv/pytorch:2.1-r36.2.0`); None for any other image, or a
    tag naming none."""
    repository, tag = _repository(base)
    family = _family(repository)
    if family is None or family.architectures != _JETSON:
        return None
    release = _L4T_FULL.search(tag)
    return release.group(1) if release is not None else None


def carries(base: str, names: Iterable[str]) -> bool | None:
    """Whether the base image reference `base` carries a component known under one of `names` (any
    spelling: `flash_attn`, `TransformerEngine`): True when its family carries one (or its reference
    names one: `…/vllm-openai` carries vLLM), False when its family is known not to carry any, None when
    docgen cannot tell (a family it does not know, a component an open family may hold)."""
    keys = _keys(names)
    if not keys:
        return None
    repository, tag = _repository(base)
    written = re.sub(r"[^a-z0-9]+", "", f"{repository}{tag}")
    if any(_RUNTIME.fullmatch(k) or (len(k) >= 4 and k in written) for k in keys):
        return True
    family = _family(repository)
    if family is None:
        return None
    carried = [family.carried] + [names for pattern, names in family.tagged if re.search(pattern, tag)]
    if any(re.fullmatch(pattern, k) for pattern in carried for k in keys):
        return True
    if family.closed or keys & family.lacks:
        return False
    return None


_NO_PYTHON = re.compile(
    r"(?:(?:arm64v8|arm32v7|amd64|i386|ppc64le|s390x)/)?(?:ubuntu|debian|alpine|busybox)|(?:nvcr\.io/)?nvidia/cuda(?:gl)?"
)
"""Images that ship no Python interpreter: Debian's, Ubuntu's, Alpine's, BusyBox, and NVIDIA's CUDA
images built on Ubuntu (`python3: not found` in `nvidia/cuda:12.4.1-devel-ubuntu22.04`; `nvidia/cudagl`,
CUDA with OpenGL, too). An RPM
distribution's image holds one for its package manager (`yum`, `dnf`), a ROCm `dev` image for ROCm's
tools."""
_RPM_TAG = re.compile(r"ubi|rocky|centos|oracle|rhel|fedora|amzn|amazon|sles|suse|alma")
"""A tag naming an RPM distribution (`nvidia/cuda:12.4.1-devel-ubi9`, `…-rockylinux8`)."""


def lacks_python(base: str) -> bool:
    """True when the base image reference `base` is known to ship no Python interpreter (`_NO_PYTHON`,
    under a mirror's registry too), False when it may (any other image, a CUDA image of an RPM
    distribution)."""
    repository, tag = _repository(base)
    first, _, rest = repository.partition("/")
    if rest and ("." in first or ":" in first) and not first.startswith("nvcr.io"):
        repository = rest  # a mirror of a Docker Hub image (`registry:5000/nvidia/cuda`)
    return re.fullmatch(_NO_PYTHON, repository) is not None and not _RPM_TAG.search(tag)


_DASH_SH = re.compile(
    r"(?:(?:arm64v8|arm32v7|arm32v6|amd64|i386|ppc64le|s390x)/)?(?:ubuntu|debian|buildpack-deps|python)"
    r"|pytorch/pytorch|continuumio/(?:miniconda3?|anaconda3?)"
)
"""Images whose `/bin/sh` is dash and that set no SHELL of their own: Debian's and Ubuntu's, the official
images built on them (`python` but its Alpine and Windows tags), PyTorch's (Ubuntu) and conda's
(Debian)."""
_DASH_SH_IF_UBUNTU = re.compile(r"(?:nvcr\.io/)?nvidia/cuda|rocm/[\w.-]+")
"""Images whose `/bin/sh` is dash when the reference names Ubuntu (`nvidia/cuda:12.4.1-devel-ubuntu22.04`,
`rocm/dev-ubuntu-22.04`): their other tags are of RPM distributions or not known."""
_NOT_DASH_TAG = re.compile(r"alpine|busybox|windows|nanoserver|servercore|distroless|" + _RPM_TAG.pattern)
"""A tag naming a system whose `/bin/sh` is no dash: Alpine's and BusyBox's ash (which has `source`), an
RPM distribution's bash, Windows, or no shell at all."""


def dash_sh(base: str) -> bool:
    """True when the `/bin/sh` of base image reference `base` (after ARG expansion) is known to be dash,
    the shell Docker runs a shell-form RUN with: a Debian or Ubuntu image, or one built on them that sets
    no SHELL (`_DASH_SH`, `_DASH_SH_IF_UBUNTU`), under a mirror's registry too.
    False for any other image (Alpine's ash, an RPM distribution's bash, an image docgen does not know)."""
    if "$" in base:
        return False
    repository, tag = _repository(base)
    first, _, rest = repository.partition("/")
    if rest and ("." in first or ":" in first) and not first.startswith("nvcr.io"):
        repository = rest  # a mirror of a Docker Hub image (`registry:5000/nvidia/cuda`)
    if _NOT_DASH_TAG.search(tag) or _NOT_DASH_TAG.search(repository.rpartition("/")[2]):
        return False
    if _DASH_SH.fullmatch(repository):
        return True
    if _DASH_SH_IF_UBUNTU.fullmatch(repository):
        return "ubuntu" in repository or "ubuntu" in tag
    # NGC's framework containers (`nvcr.io/nvidia/pytorch`, `tensorrt`) are built on Ubuntu, but projects
    # build RUNs with `source` on them: what their /bin/sh is, is not known here
    return False


def brought_by(installed: Iterable[str], names: Iterable[str]) -> str | None:
    """The first of the `installed` packages that may pull in a component under one of `names` (`vllm`
    for `xformers`), None when none does."""
    keys = {_key(n) for n in names}
    for package in installed:
        if BRINGS.get(_key(package), frozenset()) & keys:
            return package
    return None
