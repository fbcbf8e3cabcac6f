"""GPU target lists and the targets → products table (docgen.hardware)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from docgen.hardware import gpus, lookup, parse_targets
from docgen.model import Gpu

# --------------------------------------------------------------------------------------------------
# parse_targets


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("gfx942;gfx950", ["gfx942", "gfx950"]),
        ("gfx942,gfx950", ["gfx942", "gfx950"]),
        ("gfx942 gfx950", ["gfx942", "gfx950"]),
        ("gfx942|gfx950", ["gfx942", "gfx950"]),
        ("gfx942, gfx950 ;\tgfx90a", ["gfx942", "gfx950", "gfx90a"]),
        ('"8.0;9.0+PTX"', ["8.0", "9.0+PTX"]),
        ("'gfx942;gfx950'", ["gfx942", "gfx950"]),
        ('"gfx942" "gfx950"', ["gfx942", "gfx950"]),
        ("80;90", ["80", "90"]),
        ("sm_90a", ["sm_90a"]),
        ("compute_90", ["compute_90"]),
        ("gfx90a:xnack+;gfx942:sramecc+:xnack-", ["gfx90a:xnack+", "gfx942:sramecc+:xnack-"]),
    ],
)
def test_parse_targets_list_forms(value: str, expected: list[str]) -> None:
    assert parse_targets(value) == expected


@pytest.mark.parametrize("value", ["", "   ", ";;", '""', " ; , | "])
def test_parse_targets_empty(value: str) -> None:
    assert parse_targets(value) == []


def test_parse_targets_drops_empty_items() -> None:
    assert parse_targets(";gfx942;;gfx950;") == ["gfx942", "gfx950"]


def test_parse_targets_keeps_order() -> None:
    assert parse_targets("gfx950;gfx90a;gfx942") == ["gfx950", "gfx90a", "gfx942"]


def test_parse_targets_drops_exact_duplicates_only() -> None:
    assert parse_targets("gfx942;gfx950;gfx942") == ["gfx942", "gfx950"]
    # Different spellings are different targets as written; lookup treats them alike.
    assert parse_targets("gfx942;gfx942:xnack-;GFX942") == ["gfx942", "gfx942:xnack-", "GFX942"]


# --------------------------------------------------------------------------------------------------
# lookup: AMD


@pytest.mark.parametrize(
    ("target", "family", "products"),
    [
        ("gfx900", "Vega 10 (GCN5)", "Instinct MI25, Radeon RX Vega 56/64"),
        ("gfx906", "Vega 20 (GCN5)", "Instinct MI50, MI60, Radeon VII, Radeon Pro VII"),
        ("gfx908", "CDNA", "Instinct MI100"),
        ("gfx90a", "CDNA2", "Instinct MI210, MI250, MI250X"),
        ("gfx940", "CDNA3", "early Instinct MI300 target, no longer supported (builds use gfx942)"),
        ("gfx941", "CDNA3", "early Instinct MI300 target, no longer supported (builds use gfx942)"),
        ("gfx942", "CDNA3", "Instinct MI300X, MI300A, MI325X (MI300 series)"),
        ("gfx950", "CDNA4", "Instinct MI350X, MI355X (MI350 series)"),
        ("gfx1030", "RDNA2", "Radeon RX 6800/6800 XT/6900 XT, Radeon PRO W6800, V620"),
        ("gfx1100", "RDNA3", "Radeon RX 7900 XTX/XT/GRE, Radeon PRO W7900/W7800"),
        ("gfx1101", "RDNA3", "Radeon RX 7800 XT/7700 XT/7700, Radeon PRO W7700"),
        ("gfx1102", "RDNA3", "Radeon RX 7600/7600 XT"),
        ("gfx1103", "RDNA3", "Radeon 780M, 760M (Phoenix APUs)"),
        ("gfx1150", "RDNA3.5", "Radeon 890M (Ryzen AI 300, Strix Point APUs)"),
        ("gfx1151", "RDNA3.5", "Radeon 8060S (Ryzen AI Max, Strix Halo APUs)"),
        ("gfx1152", "RDNA3.5", "Radeon 860M (APU)"),
        ("gfx1200", "RDNA4", "Radeon RX 9060/9060 XT"),
        ("gfx1201", "RDNA4", "Radeon RX 9070/9070 XT/9070 GRE, Radeon AI PRO R9700"),
    ],
)
def test_lookup_amd(target: str, family: str, products: str) -> None:
    assert lookup(target) == Gpu(target, "AMD", family, products)


@pytest.mark.parametrize(
    ("target", "base"),
    [
        ("gfx90a:xnack+", "gfx90a"),
        ("gfx90a:xnack-", "gfx90a"),
        ("gfx942:sramecc+:xnack-", "gfx942"),
        ("gfx950:sramecc-", "gfx950"),
    ],
)
def test_lookup_amd_feature_suffix_maps_to_base_and_keeps_spelling(target: str, base: str) -> None:
    gpu = lookup(target)
    assert gpu == replace(lookup(base), target=target)
    assert gpu.known


@pytest.mark.parametrize("target", ["GFX942", "Gfx942", "gfx942:SRAMECC+"])
def test_lookup_is_case_insensitive(target: str) -> None:
    gpu = lookup(target)
    assert gpu.target == target
    assert gpu.family == "CDNA3"


# --------------------------------------------------------------------------------------------------
# lookup: NVIDIA


@pytest.mark.parametrize(
    ("target", "family", "products"),
    [
        ("6.0", "Pascal", "Tesla P100"),
        ("6.1", "Pascal", "Tesla P40, P4, GeForce GTX 10 series"),
        ("7.0", "Volta", "V100"),
        ("7.2", "Volta", "Jetson AGX Xavier, Xavier NX"),
        ("7.5", "Turing", "T4, RTX 20 series"),
        ("8.0", "Ampere", "A100, A30"),
        ("8.6", "Ampere", "A10, A40, RTX A6000, RTX 30 series"),
        ("8.7", "Ampere", "Jetson Orin"),
        ("8.9", "Ada Lovelace", "L4, L40, L40S, RTX 40 series"),
        ("9.0", "Hopper", "H100, H200, GH200"),
        ("10.0", "Blackwell", "B200, GB200"),
        ("10.3", "Blackwell", "B300, GB300"),
        ("11.0", "Blackwell", "Jetson T5000, T4000 (Thor)"),
        ("12.0", "Blackwell", "RTX 50 series, RTX PRO 6000 Blackwell"),
        ("12.1", "Blackwell", "GB10 (DGX Spark)"),
    ],
)
def test_lookup_nvidia(target: str, family: str, products: str) -> None:
    assert lookup(target) == Gpu(target, "NVIDIA", family, products)


@pytest.mark.parametrize(
    ("target", "capability"),
    [
        ("9.0+PTX", "9.0"),
        ("9.0+ptx", "9.0"),
        ("90", "9.0"),
        ("90a", "9.0"),
        ("90-real", "9.0"),
        ("90-virtual", "9.0"),
        ("sm_90", "9.0"),
        ("sm_90a", "9.0"),
        ("SM_90A", "9.0"),
        ("compute_90", "9.0"),
        ("9.0a", "9.0"),
        ("10.0f", "10.0"),
        ("100", "10.0"),
        ("sm_100a", "10.0"),
        ("sm_103", "10.3"),
        ("120", "12.0"),
        ("compute_121", "12.1"),
        ("80", "8.0"),
        ("8.6+PTX", "8.6"),
        ("sm_89", "8.9"),
    ],
)
def test_lookup_nvidia_spellings(target: str, capability: str) -> None:
    gpu = lookup(target)
    expected = lookup(capability)
    assert gpu.target == target
    assert gpu.vendor == "NVIDIA"
    assert (gpu.family, gpu.products) == (expected.family, expected.products)


# --------------------------------------------------------------------------------------------------
# unknown targets


@pytest.mark.parametrize(
    "target",
    [
        "gfx1036",
        "gfx9-4-generic",
        "gfx",
        "5.2",
        "52",
        "sm_52",
        "10.1",
        "sm_101",
        "9",
        "native",
        "all-major",
        "???",
    ],
)
def test_lookup_unknown_target(target: str) -> None:
    gpu = lookup(target)
    assert gpu == Gpu(target, "unknown", None, None)
    assert not gpu.known


@pytest.mark.parametrize("target", ["910", "910c", "Ascend910", "310", "a1", "Atlas 800T A2", "ascend"])
def test_lookup_unknown_npu_names_are_not_guessed(target: str) -> None:
    assert not lookup(target).known


# --------------------------------------------------------------------------------------------------
# lookup: Huawei Ascend


@pytest.mark.parametrize(
    ("target", "family"),
    [
        ("910b", "Ascend 910B"),
        ("910B", "Ascend 910B"),
        ("Ascend910B", "Ascend 910B"),
        ("Ascend910B1", "Ascend 910B"),
        ("ascend910b2", "Ascend 910B"),
        ("Ascend910B3", "Ascend 910B"),
        ("Ascend910B4", "Ascend 910B"),
        ("A2", "Ascend 910B"),
        ("a3", "Atlas A3"),
        ("310P", "Ascend 310P"),
        ("Ascend310P3", "Ascend 310P"),
        ("Ascend910B2C", "Ascend 910B"),
        ("ascend910_9391", "Atlas A3"),
        ("Ascend910_9382", "Atlas A3"),
    ],
)
def test_lookup_ascend(target: str, family: str) -> None:
    gpu = lookup(target)
    assert (gpu.target, gpu.vendor, gpu.family) == (target, "Huawei", family)
    assert gpu.products


def test_lookup_ascend_products_name_the_atlas_servers() -> None:
    assert "Atlas 800T A2" in (lookup("910b").products or "")
    assert "Atlas 800I A3" in (lookup("a3").products or "")


def test_gpus_every_nvidia_spelling_of_one_list() -> None:
    """The spellings real Dockerfiles use, each giving the same GPUs."""
    families = ["Ampere", "Ada Lovelace", "Hopper", "Blackwell", "Blackwell"]
    assert [g.family for g in gpus("8.0 8.9 9.0a 10.0 12.0+PTX")] == families
    assert [g.family for g in gpus('"8.0;8.9;9.0a;10.0;12.0+PTX"')] == families
    assert [g.family for g in gpus("80;89;90a;100;120")] == families
    assert [g.family for g in gpus("sm_80,sm_89,sm_90a,compute_100,sm_120")] == families
    assert [g.family for g in gpus("7.0 7.5 8.0 8.6 8.9 9.0+PTX")] == [
        "Volta", "Turing", "Ampere", "Ampere", "Ada Lovelace", "Hopper"
    ]  # fmt: skip


def test_gpus_every_rocm_target_is_named() -> None:
    """Each target ROCm builds for has a product name (gfx1150 was `unknown` before)."""
    rocm = "gfx90a gfx908 gfx906 gfx942 gfx950 gfx1030 gfx1100 gfx1101 gfx1102 gfx1103 gfx1150 gfx1151 "
    rocm += "gfx1200 gfx1201"
    assert all(g.known and g.vendor == "AMD" for g in gpus(rocm))


def test_gpus_keeps_unknown_targets_in_place() -> None:
    assert [g.target for g in gpus("gfx942;gfx1036;gfx950")] == ["gfx942", "gfx1036", "gfx950"]
    assert [g.known for g in gpus("gfx942;gfx1036;gfx950")] == [True, False, True]


# --------------------------------------------------------------------------------------------------
# gpus


def test_gpus_image_default() -> None:
    assert gpus('"gfx942;gfx950"') == (
        Gpu("gfx942", "AMD", "CDNA3", "Instinct MI300X, MI300A, MI325X (MI300 series)"),
        Gpu("gfx950", "AMD", "CDNA4", "Instinct MI350X, MI355X (MI350 series)"),
    )


def test_gpus_grep_pattern_gives_the_same_gpus() -> None:
    assert gpus("gfx942|gfx950") == gpus("gfx942;gfx950")


def test_gpus_torch_cuda_arch_list() -> None:
    result = gpus('"8.0;8.6;9.0+PTX"')
    assert [g.target for g in result] == ["8.0", "8.6", "9.0+PTX"]
    assert [g.family for g in result] == ["Ampere", "Ampere", "Hopper"]


def test_gpus_cmake_architectures() -> None:
    assert [g.family for g in gpus("80;90;100")] == ["Ampere", "Hopper", "Blackwell"]


def test_gpus_drops_exact_duplicates_but_keeps_spellings() -> None:
    result = gpus("gfx942;gfx942;gfx942:xnack-")
    assert [g.target for g in result] == ["gfx942", "gfx942:xnack-"]
    assert {g.family for g in result} == {"CDNA3"}


def test_gpus_empty() -> None:
    assert gpus("") == ()
