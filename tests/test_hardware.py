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
        ("gfx942", "CDNA3", "Instinct MI300X, MI300A, MI325X (MI300 series)"),
        ("gfx950", "CDNA4", "Instinct MI350X, MI355X (MI350 series)"),
        ("gfx1030", "RDNA2", "Radeon RX 6800/6800 XT/6900 XT, Radeon PRO W6800, V620"),
        ("gfx1100", "RDNA3", "Radeon RX 7900 XTX/XT/GRE, Radeon PRO W7900/W7800"),
        ("gfx1101", "RDNA3", "Radeon RX 7800 XT/7700 XT, Radeon PRO W7700"),
        ("gfx1102", "RDNA3", "Radeon RX 7600"),
        ("gfx1151", "RDNA3.5", "Ryzen AI Max (Strix Halo) APUs"),
        ("gfx1200", "RDNA4", "Radeon RX 9060 XT"),
        ("gfx1201", "RDNA4", "Radeon RX 9070/9070 XT, Radeon AI PRO R9700"),
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
        ("7.0", "Volta", "V100"),
        ("7.5", "Turing", "T4, RTX 20 series"),
        ("8.0", "Ampere", "A100, A30"),
        ("8.6", "Ampere", "A10, A40, RTX A6000, RTX 30 series"),
        ("8.7", "Ampere", "Jetson Orin"),
        ("8.9", "Ada Lovelace", "L4, L40S, RTX 40 series"),
        ("9.0", "Hopper", "H100, H200, GH200"),
        ("10.0", "Blackwell", "B200, GB200"),
        ("10.3", "Blackwell", "B300, GB300"),
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
    "target", ["gfx1036", "gfx9-4-generic", "gfx", "6.1", "61", "sm_61", "9", "native", "all-major", "???"]
)
def test_lookup_unknown_target(target: str) -> None:
    gpu = lookup(target)
    assert gpu == Gpu(target, "unknown", None, None)
    assert not gpu.known


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
