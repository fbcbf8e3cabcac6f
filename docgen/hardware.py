"""GPU targets → products, for the Supported Hardware table.

A build arg such as `GPU_ARCH="gfx942;gfx950"` or `TORCH_CUDA_ARCH_LIST="8.0;9.0+PTX"` names compiler
targets; readers want to know which GPUs those are. `_TARGETS` is the one table of what docgen knows (AMD
LLVM targets, NVIDIA compute capabilities and Huawei Ascend NPUs); everything else here only splits lists
and normalises the spellings the build tools accept. A target missing from the table is still returned,
as unknown.
"""

from __future__ import annotations

import re

from docgen.model import Gpu

# (target, vendor, family, products). AMD: LLVM processor names (LLVM's AMDGPU processor table, ROCm's
# GPU support matrix); NVIDIA: compute capabilities `major.minor` (NVIDIA's CUDA GPUs page); Huawei:
# Ascend NPUs as CANN image tags and SOC_VERSION values name them (`910b`, `Ascend910B2`, `a3`, `310p`).
_TARGETS: tuple[tuple[str, str, str, str], ...] = (
    ("gfx803", "AMD", "GCN3/GCN4 (Fiji, Polaris)", "Radeon RX 470/480/570/580/590, Radeon R9 Fury/Nano"),
    ("gfx900", "AMD", "Vega 10 (GCN5)", "Instinct MI25, Radeon RX Vega 56/64"),
    ("gfx906", "AMD", "Vega 20 (GCN5)", "Instinct MI50, MI60, Radeon VII, Radeon Pro VII"),
    ("gfx908", "AMD", "CDNA", "Instinct MI100"),
    ("gfx90a", "AMD", "CDNA2", "Instinct MI210, MI250, MI250X"),
    ("gfx940", "AMD", "CDNA3", "early Instinct MI300 target, no longer supported (builds use gfx942)"),
    ("gfx941", "AMD", "CDNA3", "early Instinct MI300 target, no longer supported (builds use gfx942)"),
    ("gfx942", "AMD", "CDNA3", "Instinct MI300X, MI300A, MI325X (MI300 series)"),
    ("gfx950", "AMD", "CDNA4", "Instinct MI350X, MI355X (MI350 series)"),
    ("gfx1010", "AMD", "RDNA", "Radeon RX 5700/5700 XT/5600 XT, Radeon Pro W5700"),
    ("gfx1011", "AMD", "RDNA", "Radeon Pro V520"),
    ("gfx1012", "AMD", "RDNA", "Radeon RX 5500/5500 XT, Radeon Pro W5500"),
    ("gfx1030", "AMD", "RDNA2", "Radeon RX 6800/6800 XT/6900 XT, Radeon PRO W6800, V620"),
    ("gfx1031", "AMD", "RDNA2", "Radeon RX 6700 XT/6750 XT/6700"),
    ("gfx1032", "AMD", "RDNA2", "Radeon RX 6600/6600 XT/6650 XT, Radeon PRO W6600"),
    ("gfx1034", "AMD", "RDNA2", "Radeon RX 6500 XT/6400"),
    ("gfx1100", "AMD", "RDNA3", "Radeon RX 7900 XTX/XT/GRE, Radeon PRO W7900/W7800"),
    ("gfx1101", "AMD", "RDNA3", "Radeon RX 7800 XT/7700 XT/7700, Radeon PRO W7700"),
    ("gfx1102", "AMD", "RDNA3", "Radeon RX 7600/7600 XT"),
    ("gfx1103", "AMD", "RDNA3", "Radeon 780M, 760M (Phoenix APUs)"),
    ("gfx1150", "AMD", "RDNA3.5", "Radeon 890M (Ryzen AI 300, Strix Point APUs)"),
    ("gfx1151", "AMD", "RDNA3.5", "Radeon 8060S (Ryzen AI Max, Strix Halo APUs)"),
    ("gfx1152", "AMD", "RDNA3.5", "Radeon 860M (APU)"),
    ("gfx1200", "AMD", "RDNA4", "Radeon RX 9060/9060 XT"),
    ("gfx1201", "AMD", "RDNA4", "Radeon RX 9070/9070 XT/9070 GRE, Radeon AI PRO R9700"),
    ("6.0", "NVIDIA", "Pascal", "Tesla P100"),
    ("6.1", "NVIDIA", "Pascal", "Tesla P40, P4, GeForce GTX 10 series"),
    ("7.0", "NVIDIA", "Volta", "V100"),
    ("7.2", "NVIDIA", "Volta", "Jetson AGX Xavier, Xavier NX"),
    ("7.5", "NVIDIA", "Turing", "T4, RTX 20 series"),
    ("8.0", "NVIDIA", "Ampere", "A100, A30"),
    ("8.6", "NVIDIA", "Ampere", "A10, A40, RTX A6000, RTX 30 series"),
    ("8.7", "NVIDIA", "Ampere", "Jetson Orin"),
    ("8.9", "NVIDIA", "Ada Lovelace", "L4, L40, L40S, RTX 40 series"),
    ("9.0", "NVIDIA", "Hopper", "H100, H200, GH200"),
    ("10.0", "NVIDIA", "Blackwell", "B200, GB200"),
    ("10.3", "NVIDIA", "Blackwell", "B300, GB300"),
    ("11.0", "NVIDIA", "Blackwell", "Jetson T5000, T4000 (Thor)"),
    ("12.0", "NVIDIA", "Blackwell", "RTX 50 series, RTX PRO 6000 Blackwell"),
    ("12.1", "NVIDIA", "Blackwell", "GB10 (DGX Spark)"),
    ("910b", "Huawei", "Ascend 910B", "Atlas A2 series (Atlas 800T A2, Atlas 800I A2, Atlas 900 A2 PoD)"),
    ("910b1", "Huawei", "Ascend 910B", "Atlas A2 series"),
    ("910b2", "Huawei", "Ascend 910B", "Atlas A2 series"),
    ("910b3", "Huawei", "Ascend 910B", "Atlas A2 series"),
    ("910b4", "Huawei", "Ascend 910B", "Atlas A2 series"),
    ("a2", "Huawei", "Ascend 910B", "Atlas A2 series (Atlas 800T A2, Atlas 800I A2, Atlas 900 A2 PoD)"),
    ("910b2c", "Huawei", "Ascend 910B", "Atlas A2 series"),
    ("a3", "Huawei", "Atlas A3", "Atlas A3 series (Atlas 800T A3, Atlas 800I A3, Atlas 900 A3 SuperPoD)"),
    ("910_93", "Huawei", "Atlas A3", "Atlas A3 series (Atlas 800T A3, Atlas 800I A3, Atlas 900 A3 SuperPoD)"),
    ("310p", "Huawei", "Ascend 310P", "Atlas 300I Pro, Atlas 300I Duo, Atlas 300V Pro"),
    ("310p3", "Huawei", "Ascend 310P", "Atlas 300I Pro, Atlas 300I Duo, Atlas 300V Pro"),
)
_BY_TARGET = {target: (vendor, family, products) for target, vendor, family, products in _TARGETS}

# Lists are separated by `;` (CMake, PyTorch), `,`, whitespace or `|` (a grep pattern).
_SEPARATORS = re.compile(r"[;,|\s]+")
# `9.0`, `9.0a`, `10.0f`, `9.0+PTX` (TORCH_CUDA_ARCH_LIST).
_CAPABILITY = re.compile(r"(\d+)\.(\d)[af]?(?:\+ptx)?")
_A3_SOC = re.compile(r"910_93\d\d")
# `90`, `90a`, `90-real` (CMAKE_CUDA_ARCHITECTURES); `sm_90a`, `compute_90` (nvcc).
_SM = re.compile(r"(?:sm_|compute_)?(\d+)(\d)[af]?(?:-real|-virtual)?")


def parse_targets(value: str) -> list[str]:
    """Split a target list into targets, in order, without empties or exact duplicates.

    Accepts `gfx942;gfx950`, `gfx942,gfx950`, `gfx942 gfx950`, `gfx942|gfx950`, `"8.0;9.0+PTX"` and
    `80;90`; quotes around the whole list or around single targets are removed.
    """
    targets: list[str] = []
    for part in _SEPARATORS.split(value):
        target = part.strip().strip("\"'")
        if target and target not in targets:
            targets.append(target)
    return targets


def _normalise(target: str) -> str:
    """The key of `target` in the table: AMD feature suffixes dropped, NVIDIA spellings as `major.minor`,
    Ascend names without their `Ascend` prefix."""
    key = target.strip().strip("\"'").lower()
    key = key.removeprefix("ascend").removeprefix("-").removeprefix("_")  # Ascend910B2, ascend-310p
    if _A3_SOC.fullmatch(key):
        return "910_93"  # SOC_VERSION=Ascend910_9391, Ascend910_9382 …: the Atlas A3 chips
    if key.startswith("gfx"):
        return key.split(":", 1)[0]  # gfx90a:xnack+, gfx942:sramecc+:xnack-
    match = _CAPABILITY.fullmatch(key) or _SM.fullmatch(key)
    if match:
        return f"{int(match.group(1))}.{match.group(2)}"
    return key


def target_key(target: str) -> str:
    """`target` as a key two spellings of one target share (`sm_90` and `9.0`, `gfx90a:xnack+` and
    `gfx90a`)."""
    return _normalise(target)


def lookup(target: str) -> Gpu:
    """What `target` is; `Gpu.target` keeps the spelling given, an unknown target has vendor `unknown`."""
    row = _BY_TARGET.get(_normalise(target))
    if row is None:
        return Gpu(target, "unknown", None, None)
    vendor, family, products = row
    return Gpu(target, vendor, family, products)


def gpus(value: str) -> tuple[Gpu, ...]:
    """Every target named in a list such as the value of `GPU_ARCH`, looked up, in order."""
    return tuple(lookup(target) for target in parse_targets(value))


# The first CUDA release whose compiler (nvcc) builds for each compute capability, and the release that
# stopped, for the capabilities the Supported Hardware table names that a recent image may lack. Sources
# (docs/audit/checks.md cites them): NVIDIA's Hopper Compatibility Guide ("Building Applications Using CUDA
# Toolkit 11.8") and CMake's CUDA 12 architecture update (Ada 8.9 and Hopper 9.0 "for CUDA >= 11.8");
# NVIDIA's Blackwell Compatibility Guide ("Building Applications Using CUDA Toolkit 12.8") for 10.0,
# 10.1 and 12.0; the CUDA Features Archive for 12.9 ("adds compiler target support for SM architecture
# 10.3 … and 12.1") and 13.0 ("SM101 has been renumbered as SM110"; "supports all NVIDIA architectures
# from Turing through Grace Blackwell").
_FIRST_CUDA: dict[str, tuple[int, int]] = {
    "8.9": (11, 8),
    "9.0": (11, 8),
    "10.0": (12, 8),
    "10.1": (12, 8),
    "12.0": (12, 8),
    "10.3": (12, 9),
    "12.1": (12, 9),
    "11.0": (13, 0),
}
_LAST_CUDA: dict[str, tuple[int, int]] = {"10.1": (12, 9)}  # renumbered 11.0 in CUDA 13.0
_OLDEST_IN_13 = (7, 5)  # CUDA 13.0 builds from Turing (7.5) on


def is_cuda_target(target: str) -> bool:
    """True when `target` (`120`, `sm_90a`, `8.6`) is a compute capability docgen knows."""
    key = _normalise(target)
    return _BY_TARGET.get(key, ("",))[0] == "NVIDIA" or key in _FIRST_CUDA or key in _LAST_CUDA


def cuda_cannot_build(target: str, cuda: str) -> str | None:
    """Why the CUDA release `cuda` (`12.6`, `12.6.3`) cannot build for the NVIDIA `target` (`120`,
    `sm_120`, `12.0`, `12.0a`): `sm_120 needs CUDA 12.8 or later`; None when it can, or when docgen
    does not know (an AMD or unknown target, a version it cannot read)."""
    release = re.match(r"(\d+)\.(\d+)", cuda)
    key = _normalise(target)
    if release is None or not is_cuda_target(target):
        return None  # an AMD or Ascend target, or no target docgen knows
    have = (int(release[1]), int(release[2]))
    sm = "sm_" + key.replace(".", "")
    first, last = _FIRST_CUDA.get(key), _LAST_CUDA.get(key)
    if first is not None and have < first:
        return f"{sm} needs CUDA {first[0]}.{first[1]} or later"
    if last is not None and have > last:
        return f"CUDA {have[0]}.{have[1]} has no {sm} (CUDA 13.0 renumbered it sm_110)"
    major, minor = (int(part) for part in key.split("."))
    if have >= (13, 0) and (major, minor) < _OLDEST_IN_13:
        return f"CUDA {have[0]}.{have[1]} no longer builds for {sm} (CUDA 13.0 starts at sm_75)"
    return None


# A GPU named by its model (`MI300X`, `Instinct MI250`, `H100`, `L40S`) → its target, read off the
# products column of `_TARGETS` for AMD Instinct and NVIDIA data-centre names; a series (`MI300`) is
# its first target's. Consumer names (`RX 7900 XTX`) are written too many ways to be read here.
_AMD_MODEL = re.compile(r"\bMI\d{2,3}[AXP]?\b")
_NVIDIA_MODEL = re.compile(r"\b(?:[ABHLTV]\d{1,3}S?|G[BH]\d{2,3})\b")


def _models() -> dict[str, str]:
    found: dict[str, str] = {}
    for target, vendor, _family, products in _TARGETS:
        pattern = {"AMD": _AMD_MODEL, "NVIDIA": _NVIDIA_MODEL}.get(vendor)
        for name in pattern.findall(products) if pattern else ():
            found.setdefault(name.upper(), target)
    found.setdefault("MI200", "gfx90a")  # the MI200 series: MI210, MI250, MI250X
    return found


_BY_MODEL = _models()


# A Radeon card by its four-digit number (`RX 7900 XTX`, `RX 6800`) → its target, read off the
# `Radeon RX …` products of `_TARGETS`: the numbers after `RX` up to the next comma (`7800 XT/7700 XT/7700`).
# A mobile part (`RX 6800M`) is another chip and is not read.
_RX_PRODUCTS = re.compile(r"\bRadeon RX ([^,]*)")
_RX_NUMBER = re.compile(r"\b(\d{4})(?!\w)")
_RX_NAME = re.compile(r"RX[ \t]*(\d{4})(?!\w)", re.IGNORECASE)


def _radeon() -> dict[str, str]:
    found: dict[str, str] = {}
    for target, vendor, _family, products in _TARGETS:
        for run in _RX_PRODUCTS.findall(products) if vendor == "AMD" else ():
            for number in _RX_NUMBER.findall(run):
                found.setdefault(number, target)
    return found


_BY_RADEON = _radeon()


# A GeForce RTX card by its series (`RTX 30-series`, `RTX 40 series`) or its number (`RTX 3090`,
# `RTX4090`) → its compute capability, read off the `RTX NN series` products of `_TARGETS`. The
# professional cards (`RTX A6000`, `RTX PRO 6000`) are spelt apart and not read here.
_RTX_PRODUCTS = re.compile(r"\bRTX (\d)0 series")
_RTX_NAME = re.compile(r"RTX[ \t-]*(\d)0(?:\d0(?:[ \t]*(?:Ti|SUPER))?|[ \t-]*series)?(?!\w)", re.IGNORECASE)


def _geforce() -> dict[str, str]:
    found: dict[str, str] = {}
    for target, vendor, _family, products in _TARGETS:
        for digit in _RTX_PRODUCTS.findall(products) if vendor == "NVIDIA" else ():
            found.setdefault(digit, target)
    return found


_BY_RTX = _geforce()


def model_target(name: str) -> str | None:
    """The target key of a GPU model name (`MI300X` → `gfx942`, `H100` → `9.0`, `RX 7900 XTX` →
    `gfx1100`, `RTX 4090` and `RTX 40-series` → `8.9`), None when unknown."""
    radeon = _RX_NAME.match(name.strip())
    if radeon is not None:
        return _BY_RADEON.get(radeon.group(1))
    rtx = _RTX_NAME.fullmatch(name.strip())
    if rtx is not None:
        return _BY_RTX.get(rtx.group(1))
    return _BY_MODEL.get(name.strip().upper())


# What a compiled CUDA target runs on (NVIDIA's CUDA C++ Programming Guide, "Binary Compatibility" and
# "PTX Compatibility"; CMake's CUDA_ARCHITECTURES): a cubin for X.y runs on the GPUs of capability X.z
# with z >= y, never on another major; PTX for X.y is compiled by the driver for any GPU of capability
# X.y or newer. The spellings say which a target is: PyTorch's `8.6` a cubin, `8.6+PTX` both; CMake's
# `86` both, `86-real` a cubin, `86-virtual` PTX; nvcc's `sm_86` a cubin, `compute_86` PTX. An
# arch-specific target (`9.0a`, `sm_100f`) runs on its own capability only.
_CUDA_SPELLING = re.compile(
    r"(?P<sm>sm_)?(?P<compute>compute_)?(?:(?P<major>\d+)\.(?P<minor>\d)|(?P<joined>\d{2,3}))"
    r"(?P<specific>[af])?(?P<ptx>\+ptx)?(?P<real>-real)?(?P<virtual>-virtual)?",
    re.IGNORECASE,
)


def cuda_code(target: str) -> tuple[str, bool, bool, bool] | None:
    """(capability key, a cubin is built, PTX is built, arch-specific) of a CUDA target as a build tool
    spells it (see above); None when `target` is no CUDA target."""
    match = _CUDA_SPELLING.fullmatch(target.strip().strip("\"'"))
    if match is None:
        return None
    if match["joined"]:
        major, minor = match["joined"][:-1], match["joined"][-1]
    else:
        major, minor = match["major"], match["minor"]
    key = f"{int(major)}.{minor}"
    if _BY_TARGET.get(key, ("",))[0] != "NVIDIA":
        return None
    specific = bool(match["specific"])
    if match["sm"] or match["real"]:
        return key, True, False, specific
    if match["compute"] or match["virtual"]:
        return key, False, not specific, specific
    if match["joined"]:  # CMake: real and virtual
        return key, True, not specific, specific
    return key, True, bool(match["ptx"]), specific


def cuda_runs_on(card: str, built: list[tuple[str, bool, bool, bool]]) -> bool:
    """True when a GPU of capability `card` (`8.0`) runs code of the targets `built` (`cuda_code`'s)."""
    have = tuple(int(part) for part in card.split("."))
    for key, cubin, ptx, specific in built:
        target = tuple(int(part) for part in key.split("."))
        if specific:
            if target == have:
                return True
            continue
        if cubin and target[0] == have[0] and target[1] <= have[1]:
            return True
        if ptx and target <= have:
            return True
    return False


def model_names() -> frozenset[str]:
    """Every GPU model name `model_target` knows, upper case."""
    return frozenset(_BY_MODEL)


_HSA_VERSION = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{1,2})")


def hsa_override_target(value: str) -> str | None:
    """The gfx target an `HSA_OVERRIDE_GFX_VERSION` value makes the ROCm runtime report: major, minor
    and stepping, the stepping in hex (`11.0.0` → `gfx1100`, `9.0.10` → `gfx90a`, `9.4.2` → `gfx942`)."""
    match = _HSA_VERSION.fullmatch(value.strip().strip("\"'"))
    if match is None:
        return None
    major, minor, stepping = (int(part) for part in match.groups())
    if minor > 15 or stepping > 15:
        return None
    return f"gfx{major}{minor:x}{stepping:x}"


# The oldest Linux driver each CUDA major release runs on with minor version compatibility (a driver of
# that branch or newer runs what any release of the major builds). Source: NVIDIA's CUDA Compatibility
# guide, "Minor Version Compatibility", Table 1 "CUDA Toolkit 11.x, 12.x, and 13.x Driver Version Ranges"
# (CUDA 13.x ">= 580", 12.x ">= 525", 11.x ">= 450", with its note that 11.x needs "Tesla Recommended
# Drivers 450.80.02 (Linux)"), which refers to the CUDA Toolkit Release Notes' table "CUDA Toolkit and
# Minimum Required Driver Version for CUDA Minor Version Compatibility". Only the branch (the first
# number) is compared: a README's `525.x` meets 12.x's minimum.
_MIN_DRIVER: dict[int, str] = {11: "450.80.02", 12: "525", 13: "580"}


def cuda_driver_minimum(cuda: str) -> str | None:
    """The oldest Linux driver the CUDA release `cuda` (`12.6`, `13.0.1`) runs on (minor version
    compatibility), as NVIDIA writes it (`525`, `450.80.02`); None for a release the table lacks."""
    release = re.match(r"(\d+)\.\d+", cuda)
    return _MIN_DRIVER.get(int(release[1])) if release else None


def driver_too_old(driver: str, cuda: str) -> str | None:
    """Why a host driver `driver` (`525`, `470.82.01`) cannot run the CUDA release `cuda`: `CUDA 13.0
    needs driver 580 or newer`; None when it can (its branch is the minimum's or newer) or when docgen
    does not know."""
    minimum = cuda_driver_minimum(cuda)
    branch = re.match(r"\d+", driver)
    release = re.match(r"\d+\.\d+", cuda)
    if minimum is None or branch is None or release is None:
        return None
    if int(branch[0]) >= int(minimum.split(".", 1)[0]):
        return None
    return f"CUDA {release[0]} needs driver {minimum} or newer"


# The environment variables the GPU container runtimes read from a container's environment, as their
# documentation lists them. NVIDIA Container Toolkit, "Specialized Configurations with Docker",
# "Environment variables (OCI spec)": NVIDIA_VISIBLE_DEVICES, NVIDIA_MIG_CONFIG_DEVICES,
# NVIDIA_MIG_MONITOR_DEVICES, NVIDIA_DRIVER_CAPABILITIES, NVIDIA_REQUIRE_* (a family: `_CUDA`, `_DRIVER`,
# `_ARCH`, `_BRAND`, any constraint), NVIDIA_DISABLE_REQUIRE, and CUDA_VERSION for legacy CUDA images.
# The device selections of the GPU stacks' own runtimes: CUDA_VISIBLE_DEVICES (CUDA), HIP_VISIBLE_DEVICES,
# ROCR_VISIBLE_DEVICES and HSA_OVERRIDE_GFX_VERSION (ROCm), HABANA_VISIBLE_DEVICES (Habana), and
# ASCEND_VISIBLE_DEVICES, ASCEND_RT_VISIBLE_DEVICES (Ascend).
_RUNTIME_VARIABLES: dict[str, str] = {
    "NVIDIA_VISIBLE_DEVICES": "the NVIDIA container runtime",
    "NVIDIA_MIG_CONFIG_DEVICES": "the NVIDIA container runtime",
    "NVIDIA_MIG_MONITOR_DEVICES": "the NVIDIA container runtime",
    "NVIDIA_DRIVER_CAPABILITIES": "the NVIDIA container runtime",
    "NVIDIA_DISABLE_REQUIRE": "the NVIDIA container runtime",
    "NVIDIA_REQUIRE_CUDA": "the NVIDIA container runtime",
    "NVIDIA_REQUIRE_DRIVER": "the NVIDIA container runtime",
    "NVIDIA_REQUIRE_ARCH": "the NVIDIA container runtime",
    "NVIDIA_REQUIRE_BRAND": "the NVIDIA container runtime",
    "CUDA_VISIBLE_DEVICES": "the CUDA runtime",
    "HIP_VISIBLE_DEVICES": "the ROCm runtime",
    "ROCR_VISIBLE_DEVICES": "the ROCm runtime",
    "HSA_OVERRIDE_GFX_VERSION": "the ROCm runtime",
    "HABANA_VISIBLE_DEVICES": "the Habana runtime",
    "ASCEND_VISIBLE_DEVICES": "the Ascend runtime",
    "ASCEND_RT_VISIBLE_DEVICES": "the Ascend runtime",
}


def runtime_variables() -> dict[str, str]:
    """The environment variables a GPU container runtime reads (`NVIDIA_DRIVER_CAPABILITIES`) → the
    runtime that reads it (`the NVIDIA container runtime`)."""
    return dict(_RUNTIME_VARIABLES)


def runtime_reads(name: str) -> bool:
    """True when a GPU container runtime reads the variable `name`: one of `runtime_variables` or a
    constraint of the NVIDIA runtime's `NVIDIA_REQUIRE_*` family (`NVIDIA_REQUIRE_ARCH`)."""
    return name in _RUNTIME_VARIABLES or (
        name.startswith("NVIDIA_REQUIRE_") and len(name) > len("NVIDIA_REQUIRE_")
    )


_ARCH_OPTIONS: dict[str, str] = {
    "HIP_ARCH": "HIP",
    "HIP_ARCHITECTURES": "HIP",
    "CMAKE_HIP_ARCHITECTURES": "HIP",
    "AMDGPU_TARGETS": "HIP",
    "CUDA_ARCH": "CUDA",
    "CUDA_ARCHS": "CUDA",
    "CUDA_ARCHITECTURES": "CUDA",
    "CMAKE_CUDA_ARCHITECTURES": "CUDA",
    "CUDA_ARCH_LIST": "CUDA",
}
"""CMake options naming the GPU targets of one backend (LAMMPS' `HIP_ARCH`, CMake's
`CMAKE_CUDA_ARCHITECTURES`, ROCm's `AMDGPU_TARGETS`) → that backend: read only when it is built."""
_BACKENDS = {"CUDA": "CUDA", "HIP": "HIP", "ROCM": "HIP", "OPENCL": "OpenCL", "SYCL": "SYCL"}
_SELECTOR = re.compile(r"(?:GPU_API|GPU_BACKEND)\Z|(?:\A|_)(CUDA|HIP|ROCM|OPENCL|SYCL)\Z", re.IGNORECASE)
_ON = frozenset({"ON", "TRUE", "YES", "1"})


def arch_option_backend(option: str) -> str | None:
    """The GPU backend whose targets the CMake option `option` names (`HIP_ARCH` → HIP), else None."""
    return _ARCH_OPTIONS.get(option.upper())


def selected_backend(option: str, value: str) -> str | None:
    """The GPU backend a CMake `-D option=value` selects: a backend switch set to one (LAMMPS' `GPU_API=
    cuda`) or a backend's own switch turned on (`GGML_CUDA=ON`, `Kokkos_ENABLE_HIP=ON`, `USE_ROCM=ON`);
    None for any other option."""
    match = _SELECTOR.search(option)
    if match is None or re.search(r"\A(?:NO|DISABLE)_|_DISABLE_", option, re.IGNORECASE):
        return None
    if match.group(1) is None:
        return _BACKENDS.get(value.strip("\"'").upper())
    return _BACKENDS[match.group(1).upper()] if value.strip("\"'").upper() in _ON else None
