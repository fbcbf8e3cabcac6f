"""`docgen audit`'s rule ids: each check's findings carry the id of its family (DG101 `stale-claim`,
DG102 `missing-file`, DG103 `broken-command`: `docgen.audit.FAMILIES`), DG101 silences them all, and the
JSON and SARIF formats give each finding its own id."""

from __future__ import annotations

import ast
import inspect
import json
from pathlib import Path

import pytest
from helpers import make_tree, run

import docgen.audit as audit_module
from docgen import findings
from docgen.audit import FAMILIES, audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

DOCKERFILE = "FROM ubuntu:22.04\nRUN pip install torch==2.1.0\n"
README = (
    "# App\n\n"
    "Uses PyTorch 2.0.0.\n\n"  # 3: DG101, a version the Dockerfile pins otherwise
    "See [NOTES](NOTES.md).\n\n"  # 5: DG102, a link to a file that is not there
    "```bash\ndocker run \\\n  # the image\n  app:latest\n```\n"  # 9: DG103, `\` into a comment line
)
STALE = "README.md:3: error: README says PyTorch 2.0.0 but Dockerfile:2 says 2.1.0 [DG101] (likely)"
MISSING = "README.md:5: error: README links to NOTES.md, which does not exist [DG102] (certain)"


def _checks_called() -> dict[str, list[ast.Call]]:
    """The checks `audit` and `_audit_part` call, by name, with their calls: the functions of
    `docgen.audit`'s modules whose result is findings (a `Diagnostic`, or a collection of them)."""
    tree = ast.parse(inspect.getsource(audit_module))
    called: dict[str, list[ast.Call]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in ("audit", "_audit_part"):
            for call in ast.walk(node):
                if not isinstance(call, ast.Call):
                    continue
                names = [call.func] if isinstance(call.func, ast.Name) else []
                if isinstance(call.func, ast.Name) and call.func.id in ("_ruled", "_tagged") and call.args:
                    names = [call.args[0]]
                for name in names:
                    if not isinstance(name, ast.Name):
                        continue
                    value = getattr(audit_module, name.id, None)
                    if (
                        inspect.isfunction(value)
                        and value.__module__ != audit_module.__name__
                        and "Diagnostic" in str(value.__annotations__.get("return", ""))
                    ):
                        called.setdefault(name.id, []).append(call)
    return called


def test_every_check_the_audit_calls_has_a_family() -> None:
    called = _checks_called()
    assert len(called) > 250  # (the reading above still finds the checks)
    assert sorted(name for name in called if getattr(audit_module, name) not in FAMILIES) == []
    # and no family is given to a check the audit no longer calls
    assert sorted(check.__name__ for check in FAMILIES if check.__name__ not in called) == []
    assert set(FAMILIES.values()) == set(findings.AUDIT_RULES)
    assert all(rule in findings.RULES for rule in findings.AUDIT_RULES)


def test_every_check_is_called_through_its_family() -> None:
    """A check called plainly gives findings with no id (DG101 by default): each is called through
    `_ruled`, or its findings go through `_tagged` (`dead_finding` makes one, `linked_rows` returns lines
    too)."""
    tagged: set[str] = set()
    plain: set[str] = set()
    for name, calls in _checks_called().items():
        for call in calls:
            func = call.func
            if isinstance(func, ast.Name) and func.id == "_tagged":
                tagged.add(name)
            elif isinstance(func, ast.Name) and func.id == name:
                plain.add(name)
    assert sorted(plain - tagged) == []


def test_each_family_from_one_readme(tmp_path: Path) -> None:
    make_tree(tmp_path, {"Dockerfile": DOCKERFILE, "README.md": README})
    model = model_of(parse_dockerfile(DOCKERFILE, "Dockerfile"))
    found = audit(README, "README.md", model, {}, tmp_path, tmp_path)
    assert [(d.line, d.rule) for d in found] == [(3, "DG101"), (5, "DG102"), (9, "DG103")]


def test_findings_of_each_family_from_the_checks_that_make_them(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    files = {
        "Dockerfile": "FROM python:3.12-slim\nARG TORCH=2.1.0\nRUN pip install torch==${TORCH}\n",
        "build_image.sh": "#!/bin/sh\n",
    }
    readme = (
        "# App\n\n"
        "| Build arg | Default |\n|---|---|\n| `TORCH` | `2.0.0` |\n| `CUDA` | `12.1` |\n\n"  # 5, 6
        "Run `build_imge.sh`, see [the guide](docs/guide.md).\n\n"  # 8: two names of no file
        "```bash\ndokcer build -t app .\n"  # 11: a program a slip off docker (`shell_words`)
        "docker build -t app\n```\n"  # 12: no build context (`grammar`)
    )
    make_tree(tmp_path, {**files, "README.md": readme})
    found = audit(
        readme,
        "README.md",
        model_of(parse_dockerfile(files["Dockerfile"], "Dockerfile")),
        {},
        tmp_path,
        tmp_path,
    )
    rules = {(d.line, d.rule) for d in found}
    assert rules == {(5, "DG101"), (6, "DG101"), (8, "DG102"), (11, "DG103"), (12, "DG103")}, found
    assert {d.rule for d in found} == set(findings.AUDIT_RULES)


@pytest.fixture
def project(chdir_tmp: Path) -> Path:
    (chdir_tmp / ".git").mkdir()
    make_tree(chdir_tmp, {"Dockerfile": DOCKERFILE, "README.md": README})
    return chdir_tmp


def _audited(*argv: str) -> list[str]:
    result = run("audit", "README.md", "--confidence", "likely", *argv)
    return result.out.splitlines()[:-1]


def test_each_finding_carries_its_familys_id(project: Path) -> None:
    found = _audited()
    assert [line[line.rindex("[") :] for line in found] == [
        "[DG101] (likely)",
        "[DG102] (certain)",
        "[DG103] (certain)",
    ]
    assert found[:2] == [STALE, MISSING]


def test_dg101_silences_every_audit_finding_in_place(project: Path) -> None:
    # (the comment line above a Markdown line; the README's lines move down one with each comment)
    (project / "README.md").write_text(
        "# App\n\n<!-- docgen: ignore=DG101 -->\nUses PyTorch 2.0.0.\n\n"
        "<!-- docgen: ignore=DG101 -->\nSee [NOTES](NOTES.md).\n"
    )
    result = run("audit", "README.md", "--confidence", "likely")
    assert result.code == 0, result.out


def test_an_audit_family_silences_only_itself_in_place(project: Path) -> None:
    (project / "README.md").write_text(
        "# App\n\n<!-- docgen: ignore=DG102 -->\nUses PyTorch 2.0.0.\n\n"
        "<!-- docgen: ignore=DG102 -->\nSee [NOTES](NOTES.md).\n"
    )
    found = _audited()
    assert found == [STALE.replace("README.md:3", "README.md:4")]
    (project / "README.md").write_text("# App\n\nSee [NOTES](NOTES.md). <!-- docgen: ignore=DG103 -->\n")
    assert [line[line.rindex("[") :] for line in _audited()] == ["[DG102] (certain)"]


@pytest.mark.parametrize(
    ("disabled", "left"),
    [
        ('["DG101"]', []),
        ('["DG102"]', ["DG101", "DG103"]),
        ('["DG103"]', ["DG101", "DG102"]),
        ('["DG102", "DG103"]', ["DG101"]),
    ],
)
def test_the_config_disables_a_family_or_every_one_by_dg101(
    project: Path, disabled: str, left: list[str]
) -> None:
    (project / "pyproject.toml").write_text(f"[tool.docgen.lint]\ndisable = {disabled}\n")
    assert [line[line.rindex("[") + 1 : line.rindex("]")] for line in _audited()] == left


def test_keep_reads_dg101_as_every_audit_family() -> None:
    found = [
        findings.Finding(rule, "error", "README.md", line, "m")
        for line, rule in ((1, "DG101"), (2, "DG102"), (3, "DG103"), (4, "DG003"))
    ]
    text = {"README.md": "<!-- docgen: ignore=DG101 -->\n\n\n\n"}  # (lines 1 and 2)
    assert [f.rule for f in findings.keep(found, text)] == ["DG103", "DG003"]
    assert [f.rule for f in findings.keep(found, {}, ["DG101"])] == ["DG003"]
    assert [f.rule for f in findings.keep(found, {}, ["DG102"])] == ["DG101", "DG103", "DG003"]
    assert [f.rule for f in findings.keep(found, {}, ["DG003"])] == ["DG101", "DG102", "DG103"]
    assert findings.unknown_ignores("<!-- docgen: ignore=DG102,DG103 -->", "README.md") == []


def test_json_and_sarif_give_each_finding_its_own_id(project: Path) -> None:
    data = json.loads(run("audit", "README.md", "--confidence", "likely", "--format", "json").out)
    assert [f["rule"] for f in data["findings"]] == ["DG101", "DG102", "DG103"]
    sarif = json.loads(run("audit", "README.md", "--confidence", "likely", "--format", "sarif").out)
    (log,) = sarif["runs"]
    rules = [rule["id"] for rule in log["tool"]["driver"]["rules"]]
    results = log["results"]
    assert [r["ruleId"] for r in results] == ["DG101", "DG102", "DG103"]
    assert all(rules[r["ruleIndex"]] == r["ruleId"] for r in results)
    named = {rule["id"]: rule["name"] for rule in log["tool"]["driver"]["rules"]}
    assert (named["DG101"], named["DG102"], named["DG103"]) == (
        "stale-claim",
        "missing-file",
        "broken-command",
    )
    github = run("audit", "README.md", "--confidence", "likely", "--format", "github").out.splitlines()
    assert "title=docgen DG102 certain::" in github[1]


def test_the_family_fixture_tells_gone_dockerfiles_as_missing_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/data/audit/family: links and `-f`s to Dockerfiles that are gone (`dead_finding`) are
    DG102, the stale versions and build args DG101; the summary's count of missing files is theirs."""
    monkeypatch.chdir(Path(__file__).parent.parent)
    result = run("audit", "tests/data/audit/family/README.md", "--confidence", "likely")
    found = result.out.splitlines()
    rules = [(line.split(":")[1], line[line.rindex("[") + 1 : line.rindex("]")]) for line in found[:-1]]
    assert [line for line, rule in rules if rule == "DG102"] == ["26", "43"]
    assert {rule for _, rule in rules} == {"DG101", "DG102"}
    assert found[-1].endswith("or the repository (2 of a missing file)")


def test_the_summary_counts_missing_files_by_their_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build whose COPY needs a file the context lacks is DG102 in words other than "does not exist":
    the summary counts it among the missing files by its id, not by its message."""
    make_tree(
        tmp_path,
        {
            "Dockerfile": "FROM ubuntu:22.04\nCOPY start.sh /start.sh\nRUN pip install torch==2.1.0\n",
            "README.md": "# App\n\nUses PyTorch 2.0.0.\n\n```bash\ndocker build -t app .\n```\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    found = run("audit", "README.md", "--confidence", "likely").out.splitlines()
    copied = [line for line in found if "[DG102]" in line]
    assert len(copied) == 1 and "does not exist" not in copied[0], found
    assert found[-1] == "2 claims in README.md contradict Dockerfile or the repository (1 of a missing file)"


def test_a_copy_the_context_lacks_is_missing_or_misplaced_by_what_the_project_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`references.context_findings` gives its findings their family whichever check calls it: a file
    no folder holds is DG102 for `docker build` and `docker compose` alike; one in another folder (the
    build's context is wrong) is DG103."""
    compose = "services:\n  app:\n    build: .\n"
    make_tree(
        tmp_path,
        {
            "Dockerfile": "FROM ubuntu:22.04\nCOPY start.sh /start.sh\n",
            "compose.yaml": compose,
            "README.md": "# App\n\n```bash\ndocker build -t app .\ndocker compose up\n```\n",
            "other/Dockerfile": "FROM ubuntu:22.04\nCOPY run.sh /run.sh\n",
            "other/run.sh": "echo hi\n",
            "other/README.md": "# Other\n\n```bash\ncd ..\ndocker build -t o -f other/Dockerfile .\n```\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    found = run("audit", "README.md").out.splitlines()[:-1]
    assert [line[line.rindex("[") + 1 : line.rindex("]")] for line in found] == ["DG102", "DG102"], found
    other = run("audit", "other/README.md", "--confidence", "likely").out.splitlines()[:-1]
    assert [line for line in other if "is in other/" in line and line.endswith("[DG103] (likely)")], other
