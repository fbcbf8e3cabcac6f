"""Names, versions and ref kinds read off URLs, file names and git refs.

Pure functions on short strings (a URL, a file name, a ref); every pattern is anchored and free of
nested quantifiers, so they stay linear on any input.
"""

from __future__ import annotations

import posixpath
import re
from urllib.parse import unquote, urlsplit

_HEX = frozenset("0123456789abcdef")
_VERSION = re.compile(r"v?(\d+(?:\.\d+)+(?:[.+~-]?[A-Za-z0-9]+)*)\Z")
_GLUED = re.compile(r"([A-Za-z]+)(\d+(?:\.\d+)+)")
_NUMERIC = re.compile(r"v?\d+\Z")
SEGMENT_VERSION = re.compile(r"(?:[A-Za-z]+[-_])*[A-Za-z]*v?(\d+(?:\.\d+)+)\Z")
"""A path segment that ends in a version (`rocm-7.0.2`, `v12.4`, `cuda12.1`): the version. (Words
and their separators are matched one way only: `(?:[A-Za-z]+[-_]?)*` tried every split of a run of
letters, 2ⁿ of them for a segment of n letters that ends in no version.)"""
_EXTENSIONS = (
    ".tar.gz",
    ".tar.xz",
    ".tar.bz2",
    ".tar.zst",
    ".tgz",
    ".tbz2",
    ".txz",
    ".zip",
    ".deb",
    ".rpm",
    ".whl",
    ".sh",
    ".run",
    ".bin",
    ".AppImage",
    ".tar",
    ".gz",
    ".xz",
    ".bz2",
    ".jar",
    ".exe",
    ".msi",
    ".py",
)
ARCHIVE_EXTENSIONS = frozenset(_EXTENSIONS) - {".py"}
_GENERIC_STEMS = frozenset(
    {"install", "installer", "setup", "download", "latest", "get", "bootstrap", "linux", "release", "archive"}
)
_BRANCH_NAMES = frozenset(
    {"main", "master", "develop", "dev", "devel", "trunk", "head", "nightly", "latest", "stable", "next"}
)

# The owners that publish each often-forked project, current and former (GitHub redirects a moved
# organisation, so Dockerfiles keep both: volcengine/verl and verl-project/verl). An organisation named
# after the project (`vllm-project`, `sgl-project`, `deepspeedai`, `triton-lang`) is taken as its own
# too (see `_named_after`), so a project that moves to such an organisation is not called a fork.
UPSTREAM: dict[str, frozenset[str]] = {
    name: frozenset(owners.split())
    for name, owners in {
        "flash-attention": "dao-ailab hazyresearch",
        "transformerengine": "nvidia",
        "apex": "nvidia",
        "megatron-lm": "nvidia",
        "cutlass": "nvidia",
        "nccl": "nvidia",
        "tensorrt-llm": "nvidia",
        "vllm": "vllm-project",
        "pytorch": "pytorch",
        "vision": "pytorch",
        "audio": "pytorch",
        "triton": "triton-lang openai",
        "xformers": "facebookresearch",
        "deepspeed": "deepspeedai microsoft",
        "bitsandbytes": "bitsandbytes-foundation timdettmers",
        "sglang": "sgl-project",
        "aiter": "rocm",
        "composable_kernel": "rocm",
        "rccl": "rocm",
        "verl": "volcengine verl-project",
        "transformers": "huggingface",
        "peft": "huggingface",
        "trl": "huggingface",
        "accelerate": "huggingface",
        "llama.cpp": "ggml-org ggerganov",
        "onnxruntime": "microsoft",
        "jax": "jax-ml google",
        "mamba": "state-spaces",
        "causal-conv1d": "dao-ailab",
        "lmdeploy": "internlm",
    }.items()
}
_ORG_WORDS = frozenset(
    {"project", "org", "team", "ai", "lang", "ml", "foundation", "dev", "labs", "hq", "io"}
)


def is_hex(text: str) -> bool:
    return bool(text) and all(c in _HEX for c in text.lower())


_RELEASE_BRANCH = re.compile(r"(?:^|[_\-])r\d+(?:\.\d+)*(?:\.x)?\Z")


def ref_kind(ref: str) -> str:
    """`commit`, `short-commit`, `tag` or `branch` for a git ref as written."""
    r = ref.strip()
    low = r.lower()
    if len(r) == 40 and is_hex(r):
        return "commit"
    if 7 <= len(r) < 40 and is_hex(r) and any(c.isdigit() for c in r) and any(c.isalpha() for c in low):
        return "short-commit"
    if low.startswith(("refs/tags/", "tags/")):
        return "tag"
    if low.startswith(("refs/heads/", "origin/", "release")) or low in _BRANCH_NAMES or "/" in low:
        return "branch"
    if any(word in low for word in ("internal", "testing", "develop", "staging", "nightly")):
        return "branch"
    if _RELEASE_BRANCH.search(low):  # `r2.5`, `core_r0.16.0`: release branches named like versions
        return "branch"
    if low.endswith((".x", "-x", "_x")) and any(c.isdigit() for c in low):  # `v1.19.x`: a maintenance branch
        return "branch"
    if re.match(r"v?\d", low) or re.search(r"\d\.\d", low):
        return "tag"
    return "branch"


def is_pinned_ref(kind: str) -> bool:
    """True when a ref of this kind names fixed content (a commit or a tag)."""
    return kind in ("commit", "short-commit", "tag")


def split_extension(filename: str) -> tuple[str, str]:
    """(stem, extension) with multi-part archive extensions (`.tar.gz`) kept together."""
    low = filename.lower()
    for ext in _EXTENSIONS:
        if low.endswith(ext.lower()) and len(filename) > len(ext):
            return filename[: -len(ext)], ext
    return filename, ""


def url_filename(url: str) -> str:
    """The URL-decoded last path segment of `url` (query and fragment removed)."""
    try:
        path = urlsplit(url).path
    except ValueError:
        path = url.split("?", 1)[0].split("#", 1)[0]
    return unquote(posixpath.basename(path.rstrip("/")))


def name_version(stem: str, ext: str = "") -> tuple[str, str | None]:
    """A package name and version read from a file stem (`cmake-3.26.4-linux-x86_64` → cmake, 3.26.4).

    Debian packages are `name_version_arch`, except a local-repository package whose name carries a
    dotted version (`cudnn-local-repo-ubuntu2204-9.8.0_1.0-1_amd64` → cudnn, 9.8.0: `1.0-1` only numbers
    the repository package). Other files are split at `-` and `_`, the name being the parts before the
    first version-like part joined by `-`, without trailing platform words (`vulkansdk-linux-x86_64-1.4.321.1`
    → vulkansdk). A stem without a version is returned whole.
    """
    intel = _INTEL_INSTALLER.match(stem)
    if intel is not None and "_" in intel.group(1) and any(c.isdigit() for c in intel.group(1)):
        # `l_openvino_toolkit_ubuntu22_2024.0.0.14509…`, `l_BaseKit_p_2024.0.1.46_offline`: Intel marks
        # a Linux installer with `l_` before the name and a product with `_p_` after it
        name, version = name_version(intel.group(1), ext)
        return re.sub(r"[-_]p\Z", "", name), version
    if ext == ".deb":
        parts = stem.split("_")
        if len(parts) >= 2 and parts[1][:1].isdigit():
            inner = _split_at_version(parts[0], dotted_only=True)
            if inner is not None:
                return inner
            version = parts[1].split(":", 1)[-1]
            return parts[0], version
    found = _split_at_version(stem)
    if found is not None:
        return found
    m = _GLUED.match(stem)  # go1.22.5.linux-amd64
    if m:
        return m.group(1), m.group(2)
    return stem, None


_INTEL_INSTALLER = re.compile(r"l_([A-Za-z][\w.+-]*)\Z")
"""An Intel installer's file stem: `l_` (Linux), then the name and a version (`l_HPCKit_p_2023.2.0.49440`)."""


def _split_at_version(stem: str, dotted_only: bool = False) -> tuple[str, str] | None:
    """(name, version) at the first `-`/`_`-separated version-like part after the first, else None."""
    tokens = re.split(r"([-_])", stem)  # words at even indexes, separators at odd ones
    words = tokens[::2]
    for i, token in enumerate(words):
        if i == 0:
            continue
        name = "-".join(strip_platform("".join(tokens[: 2 * i - 1])).split("_"))
        m = _VERSION.match(token)
        if m:
            return name, m.group(1)
        if _NUMERIC.match(token) and not dotted_only:
            # boost_1_82_0 → 1.82.0; a lone number is taken only as part of such a run
            run = [token.lstrip("v")]
            for following in words[i + 1 :]:
                if not following.isdigit():
                    break
                run.append(following)
            if len(run) > 1:
                return name, ".".join(run)
    return None


_PLATFORM_WORDS = frozenset(
    {
        "linux", "windows", "win", "win32", "win64", "macos", "darwin", "osx", "x86", "x64", "64", "32",
        "amd64", "arm64", "aarch64", "i386", "i686", "armhf", "ppc64le", "s390x", "musl", "gnu", "glibc",
        "static", "src", "source", "all", "any", "noarch", "local", "repo", "latest",
    }
)  # fmt: skip
_PLATFORM_PATTERN = re.compile(r"(?:cuda|cu|ubuntu|debian|rhel|el|centos|fedora|alpine)\d+(?:\.\d+)*\Z")


DISTRIBUTIONS = frozenset(
    {
        "ubuntu", "debian", "centos", "rhel", "redhat", "fedora", "rocky", "rockylinux", "almalinux",
        "alma", "alpine", "opensuse", "sles", "suse", "amazonlinux", "amzn", "oraclelinux", "openeuler",
        "ubi", "raspbian", "manjaro", "arch", "archlinux",
    }
)  # fmt: skip
"""Linux distributions by the names scripts and images give them: the version of one is the base
image's, never what a script named after it (`install_ubuntu.sh -p 3.6`) is given."""


def is_platform_word(word: str) -> bool:
    """True for words naming a platform, a flavour or a packaging form (`linux`, `x86`, `cuda12`, `src`),
    and for unexpanded variables, which in a name nearly always stand for one (`${TARGETARCH}`)."""
    low = word.lower()
    return low in _PLATFORM_WORDS or bool(_PLATFORM_PATTERN.match(low)) or low.startswith("$")


def strip_platform(name: str) -> str:
    """`name` without trailing platform words (`nvshmem_src_cuda12-all-all` → nvshmem), first word kept."""
    tokens = _NAME_TOKENS.findall(name)  # words and separators; `${TARGET_ARCH}` is one word
    while len(tokens) > 2 and tokens[-2] in ("-", "_") and is_platform_word(tokens[-1]):
        del tokens[-2:]
    return "".join(tokens)


_NAME_TOKENS = re.compile(r"\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|[^-_$]+|[-_$]")


def release_tag(url: str) -> str | None:
    """The tag of a GitHub release asset URL (`…/releases/download/<tag>/<file>`), whatever it looks like."""
    if github_repo(url) is None:
        return None
    try:
        parts = [unquote(p) for p in urlsplit(url).path.split("/") if p]
    except ValueError:
        return None
    if len(parts) >= 6 and parts[2] == "releases" and parts[3] == "download":
        return parts[4]
    return None


def repeated_version(url: str, version: str) -> str | None:
    """A longer version that a directory of `url` ends with and the file name repeats verbatim.

    `…/download/24.3.0-0/Mambaforge-24.3.0-0-Linux-x86_64.sh` with 24.3.0 read from the file name → 24.3.0-0;
    `…/MLNX_OFED-4.9-7.1.0.0/MLNX_OFED_LINUX-4.9-7.1.0.0-ubuntu20.04-x86_64.tgz` → 4.9-7.1.0.0 (one value,
    typically one build arg, written twice).
    """
    try:
        parts = [unquote(p) for p in urlsplit(url).path.split("/") if p]
    except ValueError:
        return None
    if len(parts) < 2:
        return None
    filename = parts[-1]
    for seg in reversed(parts[:-1]):
        m = _DIRECTORY_VERSION.search(seg)
        if m is None:
            continue
        tail = m.group(1)
        if len(tail) > len(version) and tail.startswith(version) and contains_word(filename, tail):
            return tail
    return None


_DIRECTORY_VERSION = re.compile(r"(?:\A|[-_])v?(\d[A-Za-z0-9.+~-]*)\Z")


def contains_word(text: str, value: str) -> bool:
    """True when `value` is in `text` not glued to a longer version or word (`12.4` is not in `12.4.1`)."""
    start = text.find(value)
    while start >= 0:
        end = start + len(value)
        before = text[start - 1] if start else ""
        after = text[end] if end < len(text) else ""
        glued_after = after.isalnum() or (after == "." and text[end + 1 : end + 2].isdigit())
        if not before.isalnum() and before != "." and not glued_after:
            return True
        start = text.find(value, start + 1)
    return False


def version_in_path(url: str) -> tuple[str | None, str | None]:
    """(name, version) from a URL path segment like `/v3.26/`, `/uv/0.4.0/`, `/rocm-rel-7.0.2/`."""
    try:
        parts = [unquote(p) for p in urlsplit(url).path.split("/") if p]
    except ValueError:
        return None, None
    for i in range(len(parts) - 2, -1, -1):  # the file name itself is not a directory segment
        seg = parts[i]
        m = SEGMENT_VERSION.match(seg)
        if m:
            before = parts[i - 1] if i > 0 else None
            if before in ("download", "releases", "files", "dist", "tags", "refs"):
                before = parts[i - 3] if i >= 3 and parts[i - 2] == "releases" else None
            return before, m.group(1)
    return None, None


def github_repo(url: str) -> tuple[str, str] | None:
    """(owner, repo) of a github.com / gitlab.com URL, `.git` removed."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    if host not in ("github.com", "gitlab.com", "www.github.com"):
        return None
    segs = [s for s in parts.path.split("/") if s]
    if len(segs) < 2:
        return None
    repo = segs[1][:-4] if segs[1].endswith(".git") else segs[1]
    return segs[0], repo


def repo_name(url: str) -> str:
    """The repository name of a git URL (`https://github.com/ROCm/aiter.git` → `aiter`)."""
    text = url.rstrip("/")
    if text.endswith(".git"):
        text = text[:-4]
    name = text[max(text.rfind("/"), text.rfind(":")) + 1 :]  # after the last `/` or `:`
    return name or url


def fork_of(url: str, installed: bool = False) -> str | None:
    """The owner, when the URL is a repository named like a project docgen knows but hosted by an owner
    that is neither one of the project's known owners nor an organisation named after the project.
    With `installed` (the repository is built and installed, not only checked out), a repository named
    after such a project with fork words (`vllm-patch`, `my-vllm`: see `forked_project`) is one too."""
    found = github_repo(url)
    if found is None:
        return None
    owner, repo = found
    project = repo.lower()
    upstream = UPSTREAM.get(project)
    if upstream is None and installed:
        project = forked_project(repo) or project
        upstream = UPSTREAM.get(project)
    if upstream is None or owner.lower() in upstream or _named_after(owner, project):
        return None
    return owner


FORK_WORDS = frozenset(
    {"patch", "patched", "fork", "forked", "custom", "mod", "modified", "fixed", "hotfix", "my"}
    | {"rocm", "amd", "hip"}
)
"""Words a fork adds to the name of the project it forks (`vllm-patch`, `vllm_fork`, `my-vllm`,
`flash-attention-rocm`). A word naming a platform of its own (`vllm-ascend`, `triton_xpu`) or another
project (`torch_memory_saver`, `sglang-router`) is not one: those are projects of their own."""
_PROJECT_WORDS = {
    name: tuple(re.split(r"[-_.]+", name)) for name in UPSTREAM if name not in ("vision", "audio")
}  # `vision` and `audio` (pytorch/vision, pytorch/audio) are words too common to stand for a project


def forked_project(repo: str) -> str | None:
    """The project of `UPSTREAM` whose name `repo` is with fork words before or after it (`vllm-patch`,
    `vllm_fork`, `my-vllm` → vllm; `flash-attention-rocm` → flash-attention), else None (the project's
    own name, and a name with any other word: `vllm-ascend`, `vllm-patches`)."""
    words = tuple(w for w in re.split(r"[-_.]+", repo.lower()) if w)
    for project, own in _PROJECT_WORDS.items():
        n = len(own)
        if len(words) <= n:
            continue
        if words[:n] == own and FORK_WORDS.issuperset(words[n:]):
            return project
        if words[-n:] == own and FORK_WORDS.issuperset(words[:-n]):
            return project
    return None


def _named_after(owner: str, repo: str) -> bool:
    """True for an organisation named after the repository: `vllm-project`/vllm, `deepspeedai`/DeepSpeed,
    `triton-lang`/triton (the project's words with a generic organisation word)."""
    plain = re.sub(r"[^a-z0-9]", "", repo.lower())
    words = [w for w in re.split(r"[^a-z0-9]+", owner.lower()) if w]
    if not plain or not words:
        return False
    kept = "".join(w for w in words if w not in _ORG_WORDS)
    joined = "".join(words)
    return kept == plain or any(joined == plain + w for w in _ORG_WORDS)


def repository_path(url: str) -> str | None:
    """`owner/repo` of a github.com / gitlab.com URL, as written there (`ROCm/flash-attention`)."""
    found = github_repo(url)
    return f"{found[0]}/{found[1]}" if found else None


def directory_name(url: str) -> str | None:
    """The last directory of a URL path that names something (`https://astral.sh/uv/install.sh` → uv)."""
    try:
        parts = [unquote(p) for p in urlsplit(url).path.split("/") if p][:-1]
    except ValueError:
        return None
    for part in reversed(parts):
        if is_generic_stem(part) or part[:1].isdigit() or part.lower() in _NOT_NAMES:
            continue
        if all(is_platform_word(word) for word in re.split(r"[-_]", part)):
            continue  # micro.mamba.pm/api/micromamba/linux-64/latest → micromamba
        return part
    return None


_NOT_NAMES = frozenset(
    {"releases", "files", "dist", "pub", "v1", "main", "source", "src", "artifactory", "stable", "api"}
)


def is_generic_stem(name: str) -> bool:
    """True for file stems that say nothing about what is installed (`install.sh`, `latest`)."""
    low = name.lower()
    return not low or low in _GENERIC_STEMS or low.startswith("get-") or low.startswith("install")


SAME_PROJECT: dict[str, str] = {
    "torch": "pytorch",
    "flashattn": "flashattention",
    "flashattention2": "flashattention",
    "fa": "flashattention",
    "te": "transformerengine",
    "mcore": "megatroncore",
    "megatronlm": "megatroncore",  # Megatron-LM's `core_v0.13.0` tags are Megatron Core releases
    "megatron": "megatroncore",
    "pytorchtritonrocm": "triton",
    "pytorchvision": "torchvision",
    "cpython": "python",
    "py": "python",
    "nvidiacuda": "cuda",
    "cudatoolkit": "cuda",
    "amdgpudriver": "amdgpu",
    "fschat": "fastchat",  # FastChat's pip name
    "openvinotoolkit": "openvino",  # the archive `l_openvino_toolkit_…` and the GitHub organisation
    "ascendcanntoolkit": "cann",  # Huawei's `Ascend-cann-toolkit_7.0.RC1.3_linux-x86_64.run`
    "canntoolkit": "cann",
    "habanaai": "habana",  # Habana Labs' GitHub organisation, as labels name its release
    "ipex": "intelextensionforpytorch",  # Intel Extension for PyTorch's short name and import name
    "itrex": "intelextensionfortransformers",  # Intel Extension for Transformers' repository's short name
    "anaconda3": "anaconda",  # the installer's name (`Anaconda3-2019.07-Linux-x86_64.sh`): its Python 3 line
    "miniconda3": "miniconda",
    "miniforge3": "miniforge",
    # a conda, apt or image name that is not the display name (`mamba install sage` is SageMath)
    "sage": "sagemath",  # conda-forge's `sage`; apt and the project spell it `sagemath`
    "pymolopensource": "pymol",  # conda-forge's `pymol-open-source`
    "pyg": "torchgeometric",  # PyG: conda's `pyg`, pip's `torch-geometric`, `PyTorch Geometric`
    "pytorchgeometric": "torchgeometric",
    "rdkitpypi": "rdkit",  # RDKit's former pip name
    "cudatoolkitdev": "cuda",  # conda-forge's CUDA toolkit with headers, versioned as CUDA
    "tesseractocr": "tesseract",  # apt's `tesseract-ocr`
    "ninjabuild": "ninja",  # apt's `ninja-build`
    "chromiumbrowser": "chromium",  # apt's `chromium-browser`
    "googlechromestable": "googlechrome",
    "firefoxesr": "firefox",
    "postgres": "postgresql",  # the `postgres` image is PostgreSQL
    "mongo": "mongodb",  # the `mongo` image is MongoDB
    "node": "nodejs",  # the `node` image and `nodejs` package are Node.js
    # a build of one project for a device, under another pip or conda name
    "pytorchgpu": "pytorch",  # conda-forge's `pytorch-gpu` and `pytorch-cpu`
    "pytorchcpu": "pytorch",
    "tensorflowgpu": "tensorflow",
    "tensorflowcpu": "tensorflow",
    "onnxruntimegpu": "onnxruntime",
    "faissgpu": "faiss",
    "faisscpu": "faiss",
    "paddlepaddlegpu": "paddlepaddle",
    "opencvpythonheadless": "opencv",
    "opencvcontribpython": "opencv",
    "opencvcontribpythonheadless": "opencv",
    "pytorchlightning": "lightning",  # PyTorch Lightning, now released as `lightning` too
    # an import name a README may call the package by
    "sklearn": "scikitlearn",
    "skimage": "scikitimage",
    "bs4": "beautifulsoup4",
}
"""One project under its spellings: the pip name, the conda or apt name, the image's name, the repository's
name and the display name, each
lower case with everything but letters and digits removed (`transformer_engine`, `TransformerEngine.git`
and `Transformer Engine` are all `transformerengine`), mapped to the spelling that stands for all.
`docgen audit` matches README names to Dockerfile components through it."""


BASE_PRODUCTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"(?:Intel[ \t]+)?oneAPI[ \t]+HPC[ \t]+(?:Toolkit|Kit)|hpckit", ("intel/oneapi-hpckit", "intel/hpckit")),
    (
        r"(?:Intel[ \t]+)?oneAPI[ \t]+Base[ \t]+(?:Toolkit|Kit)|basekit",
        ("intel/oneapi-basekit", "intel/basekit"),
    ),
    (
        r"(?:NVIDIA[ \t]+)?NGC[ \t]+PyTorch|NVIDIA(?:'s|’s)?[ \t]+PyTorch[ \t]+(?:container|image)",
        ("nvidia/pytorch",),
    ),
    (
        r"(?:NVIDIA[ \t]+)?NGC[ \t]+TensorFlow|NVIDIA(?:'s|’s)?[ \t]+TensorFlow[ \t]+(?:container|image)",
        ("nvidia/tensorflow",),
    ),
    (r"(?:NVIDIA[ \t]+)?NGC[ \t]+JAX|NVIDIA(?:'s|’s)?[ \t]+JAX[ \t]+(?:container|image)", ("nvidia/jax",)),
    (r"(?:NVIDIA[ \t]+)?(?:NGC[ \t]+)?Triton[ \t]+(?:Inference[ \t]+)?Server", ("nvidia/tritonserver",)),
    (
        r"(?:AMD[ \t]+)?ROCm[ \t]+PyTorch|AMD(?:'s|’s)?[ \t]+PyTorch[ \t]+(?:container|image)",
        ("rocm/pytorch",),
    ),
    (r"(?:AMD[ \t]+)?ROCm[ \t]+(?:dev|development)[ \t]+(?:image|container)", ("rocm/dev-*",)),
)
"""Products a base image is named by in prose (`the Intel oneAPI HPC Toolkit`, `NVIDIA's PyTorch
container`, `the ROCm dev image`): a pattern of their words → the repositories of their images, under
any registry (`nvcr.io/nvidia/pytorch` is `nvidia/pytorch`); a trailing `*` stands for the rest of a
name (`rocm/dev-*`: `rocm/dev-ubuntu-22.04`, `rocm/dev-almalinux-8`)."""


def is_product_image(repository: str, repositories: tuple[str, ...]) -> bool:
    """True when the image repository `repository` (no registry, no tag) is one of `repositories`, as
    `BASE_PRODUCTS` writes them (a trailing `*`: any rest of the name)."""
    return any(repository.startswith(r[:-1]) if r.endswith("*") else repository == r for r in repositories)
