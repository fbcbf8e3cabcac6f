"""Every JSON output validates against its schema in docs/json.md, and SARIF output against SARIF 2.1.0."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import make_tree, run

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parent.parent

DOCKERFILE = """\
FROM rocm/dev-ubuntu-22.04:7.0.2 AS base
# MAX_JOBS Parallel compile jobs.
ARG MAX_JOBS=64
ARG UNUSED_THING=1
RUN git clone https://github.com/ROCm/aiter.git && pip install numpy==1.26.4
"""
CONFIG = '[tool.docgen]\n[[tool.docgen.images]]\ndockerfile = "Dockerfile"\noutputs = ["README.md"]\n'
README = (
    "# x\n\nBuilt on ROCm 6.4.1; pass `--build-arg NOT_DECLARED=1`.\n\n"
    "<!-- BEGIN docgen:build-args -->\nstale\n<!-- END docgen:build-args -->\n"
)


def schemas() -> dict[str, dict[str, object]]:
    text = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    found = re.findall(r"<!-- schema:(\w+) -->\n```json\n(.*?)\n```", text, re.S)
    return {name: json.loads(body) for name, body in found}


def validate(data: object, schema: dict[str, object]) -> None:
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    errors = sorted(validator.iter_errors(data), key=str)
    assert not errors, errors[0]


def test_docs_have_every_schema() -> None:
    assert set(schemas()) == {"findings", "check", "changes", "show"}


@pytest.mark.parametrize(
    ("argv", "schema"),
    [
        (["lint", "--format", "json"], "findings"),
        (["audit", "README.md", "--format", "json"], "findings"),
        (["check", "--strict", "--format", "json"], "check"),
        (["show", "--format", "json"], "show"),
    ],
)
def test_output_matches_its_schema(chdir_tmp: Path, argv: list[str], schema: str) -> None:
    make_tree(chdir_tmp, {"Dockerfile": DOCKERFILE, "pyproject.toml": CONFIG, "README.md": README})
    result = run(*argv)
    data = json.loads(result.out)
    assert data["schema_version"] == 1
    validate(data, schemas()[schema])
    if schema == "findings" and argv[0] == "lint":
        assert [f["rule"] for f in data["findings"]] == ["DG003", "DG004"]


def test_changes_output_matches_its_schema(chdir_tmp: Path) -> None:
    from test_changes import repository

    repository(chdir_tmp)
    data = json.loads(run("changes", "v1..v2", "--format", "json").out)
    validate(data, schemas()["changes"])
    assert len(data["images"][0]["changes"]) == 8


def sarif_schema() -> dict[str, object]:
    return json.loads((ROOT / "tests" / "data" / "sarif" / "sarif-2.1.0-subset.schema.json").read_text())


@pytest.mark.parametrize("command", [["lint"], ["check", "--strict"], ["audit", "README.md"]])
def test_sarif_output_is_valid_sarif_2_1_0(chdir_tmp: Path, command: list[str]) -> None:
    make_tree(chdir_tmp, {"Dockerfile": DOCKERFILE, "pyproject.toml": CONFIG, "README.md": README})
    result = run(*command, "--format", "sarif")
    assert result.code == 1 if command[0] != "lint" else result.code == 0
    log = json.loads(result.out)
    jsonschema.Draft7Validator(sarif_schema(), format_checker=jsonschema.FormatChecker()).validate(log)
    run_ = log["runs"][0]
    rules = [r["id"] for r in run_["tool"]["driver"]["rules"]]
    assert run_["results"]
    for item in run_["results"]:
        assert rules[item["ruleIndex"]] == item["ruleId"]
        assert item["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] in (
            "Dockerfile",
            "README.md",
        )


def test_the_sarif_schema_refuses_what_sarif_refuses() -> None:
    """The hand-written subset is not a schema that accepts anything."""
    validator = jsonschema.Draft7Validator(sarif_schema())
    good = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "docgen"}}, "results": []}]}
    assert validator.is_valid(good)
    for bad in (
        {**good, "version": "2.0.0"},
        {"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]},
        {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "d"}}, "results": [{"ruleId": "X"}]}]},
        {
            "version": "2.1.0",
            "runs": [
                {
                    "tool": {"driver": {"name": "d"}},
                    "results": [{"message": {"text": "m"}, "level": "fatal"}],
                }
            ],
        },
        {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "d"}}, "colour": 1}]},
    ):
        assert not validator.is_valid(bad), bad
