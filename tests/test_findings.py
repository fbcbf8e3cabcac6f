"""Rule ids, silencing a rule in place or in the config, and the github format (docgen/findings.py)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree, run

DOCKERFILE = """\
FROM ubuntu:24.04
ARG UNUSED_ONE=1
# docgen: ignore=DG003
ARG UNUSED_TWO=2
ARG UNUSED_THREE=3
RUN git clone https://github.com/o/r.git  # docgen: ignore=DG004
RUN true
RUN git clone https://github.com/o/s.git
"""


def test_text_names_the_rule_and_ignore_comments_silence_it(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"Dockerfile": DOCKERFILE})
    result = run("lint", "Dockerfile")
    assert result.out.splitlines() == [
        "Dockerfile:2: warning: build arg UNUSED_ONE is declared but never used [DG003]",
        "Dockerfile:5: warning: build arg UNUSED_THREE is declared but never used [DG003]",
        "Dockerfile:8: warning: git clone of https://github.com/o/s.git is not pinned to a commit or tag "
        "(add git checkout <commit>) [DG004]",
        "3 warnings in 1 Dockerfile",
    ]


def test_an_ignore_comment_is_not_the_args_purpose(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"Dockerfile": DOCKERFILE})
    assert '"description": ""' in run("show", "Dockerfile", "--format", "json").out.split("UNUSED_TWO")[1]


def test_the_config_disables_a_rule(chdir_tmp: Path) -> None:
    config = '[tool.docgen.lint]\ndisable = ["DG003"]\n'
    make_tree(chdir_tmp, {"Dockerfile": DOCKERFILE, "pyproject.toml": f"[tool.docgen]\n{config}"})
    result = run("lint", "Dockerfile", "--strict")
    assert result.code == 1
    assert "[DG003]" not in result.out and "1 warning in 1 Dockerfile" in result.out


def test_an_unknown_rule_id_in_the_config_is_an_error(chdir_tmp: Path) -> None:
    make_tree(
        chdir_tmp, {"Dockerfile": DOCKERFILE, "pyproject.toml": '[tool.docgen.lint]\ndisable = ["DG999"]\n'}
    )
    result = run("lint", "Dockerfile")
    assert result.code == 2
    assert result.err.startswith("pyproject.toml:2: lint.disable: 'DG999' is no rule id (the ids: DG001, ")


def test_lint_warns_of_an_ignore_comment_naming_no_rule(chdir_tmp: Path) -> None:
    dockerfile = (
        "FROM ubuntu:24.04\n"
        "# docgen: ignore=DG030 a typo for DG003\n"
        "ARG A=1\n"
        "# docgen: ignore=dg003, unused-arg\n"
        "ARG B=2\n"
        "RUN true  # docgen: ignore=DG004-->\n"
    )
    make_tree(chdir_tmp, {"Dockerfile": dockerfile})
    result = run("lint", "Dockerfile", "--strict")
    assert (result.code, result.out.splitlines()) == (
        1,
        [
            "Dockerfile:2: warning: unknown rule id DG030 in an ignore comment: it silences nothing [DG010]",
            "Dockerfile:3: warning: build arg A is declared but never used [DG003]",
            "Dockerfile:4: warning: unknown rule id unused-arg in an ignore comment: it silences nothing "
            "[DG010]",
            "3 warnings in 1 Dockerfile",
        ],
    )


def test_github_format(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"Dockerfile": DOCKERFILE})
    lines = run("lint", "Dockerfile", "--format", "github").out.splitlines()
    assert lines[0] == (
        "::warning file=Dockerfile,line=2,title=docgen DG003::build arg UNUSED_ONE is declared but never used"
    )
    assert len(lines) == 3


def sarif_locations(text: str) -> tuple[list[dict[str, str]], dict[str, dict[str, str]]]:
    """The artifact locations of a SARIF log's results, and its run's `originalUriBaseIds`."""
    import json

    log = json.loads(text)["runs"][0]
    found = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in log["results"]]
    return found, log["originalUriBaseIds"]


def test_sarif_locations_are_relative_to_the_repository_root(chdir_tmp: Path) -> None:
    # Run from docker/ in a checkout, lint, audit and check name the files from the repository root,
    # as code scanning needs to place them; `%SRCROOT%` says where that is.
    readme = "# x\n\nIt pins `--build-arg NOT_DECLARED=1`.\n"
    config = '[tool.docgen]\n[[tool.docgen.images]]\ndockerfile = "Dockerfile"\noutputs = ["README.md"]\n'
    block = "<!-- BEGIN docgen:build-args -->\nstale\n<!-- END docgen:build-args -->\n"
    make_tree(
        chdir_tmp,
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            "docker/Dockerfile": DOCKERFILE,
            "docker/README.md": readme + block,
            "docker/pyproject.toml": config,
        },
    )
    import os

    os.chdir(chdir_tmp / "docker")
    root = {"%SRCROOT%": {"uri": chdir_tmp.resolve().as_uri() + "/"}}
    for command, uri in (
        (["lint", "Dockerfile"], "docker/Dockerfile"),
        (["audit", "README.md"], "docker/README.md"),
        (["check"], "docker/README.md"),
    ):
        locations, bases = sarif_locations(run(*command, "--format", "sarif").out)
        assert bases == root
        assert locations and all(loc == {"uri": uri, "uriBaseId": "%SRCROOT%"} for loc in locations), command


def test_without_git_sarif_locations_are_relative_to_the_project_root(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"pyproject.toml": "[tool.docgen]\n", "docker/Dockerfile": DOCKERFILE})
    import os

    os.chdir(chdir_tmp / "docker")
    locations, bases = sarif_locations(run("lint", "Dockerfile", "--format", "sarif").out)
    assert bases == {"%SRCROOT%": {"uri": chdir_tmp.resolve().as_uri() + "/"}}
    assert {loc["uri"] for loc in locations} == {"docker/Dockerfile"}


def test_an_ignore_comment_silences_a_lost_shell_variable(chdir_tmp: Path) -> None:
    """DG011 is silenced in place like every rule: the comment above the RUN."""
    dockerfile = "FROM ubuntu:24.04\n# docgen: ignore=DG011 kept for the docs\nRUN X=1\nRUN Y=2\n"
    make_tree(chdir_tmp, {"Dockerfile": dockerfile})
    lines = run("lint", "Dockerfile").out.splitlines()
    assert [line.split(": warning")[0] for line in lines if "[DG011]" in line] == ["Dockerfile:4"]


def test_an_ignore_comment_silences_a_redirected_requirement(chdir_tmp: Path) -> None:
    """DG013 comes from the extraction's reading of the RUN, and is silenced in place all the same."""
    dockerfile = (
        "FROM python:3.12-slim\n# docgen: ignore=DG013 wanted\nRUN pip install a>=1\nRUN pip install b>=2\n"
    )
    make_tree(chdir_tmp, {"Dockerfile": dockerfile})
    lines = run("lint", "Dockerfile").out.splitlines()
    assert [line.split(": warning")[0] for line in lines if "[DG013]" in line] == ["Dockerfile:4"]
