"""End-to-end: `docgen sync`, `check` and `show` in a scratch project, called through `main([...])`."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
from pathlib import Path

import pytest
from helpers import make_tree, run, without_fingerprints

from docgen import findings
from docgen.markers import find_blocks

ROOT = Path(__file__).resolve().parent.parent

PYPROJECT = """\
[tool.docgen]
arch-arg = "GPU_ARCH"

[[tool.docgen.images]]
dockerfile = "docker/Dockerfile"
outputs = ["docker/README.md"]
"""

DOCKERFILE = """\
# GPU_ARCH GPU targets to build for.
ARG GPU_ARCH="gfx942;gfx950"
FROM ubuntu:22.04 AS base
# ROCM_VERSION ROCm release.
ARG ROCM_VERSION=7.0.2
FROM base AS build
ARG GPU_ARCH
# MAX_JOBS Parallel jobs.
ARG MAX_JOBS=
RUN make -j${MAX_JOBS:-$(nproc)} ARCH=${GPU_ARCH}
"""

README = """\
# My image

Hand-written intro.

## Versions
<!-- BEGIN docgen:versions -->
<!-- END docgen:versions -->

## Build arguments
<!-- BEGIN docgen:build-args -->
stale
<!-- END docgen:build-args -->

## Hardware
<!-- BEGIN docgen:hardware -->
<!-- END docgen:hardware -->

Trailing prose.
"""


@pytest.fixture
def project(chdir_tmp: Path) -> Path:
    make_tree(
        chdir_tmp,
        {"pyproject.toml": PYPROJECT, "docker/Dockerfile": DOCKERFILE, "docker/README.md": README},
    )
    return chdir_tmp


def outside_markers(text: str) -> str:
    """The text with every block body removed (what sync must never change)."""
    parts, pos = [], 0
    for block in find_blocks(text):
        parts.append(text[pos : block.body_start])
        pos = block.body_end
    parts.append(text[pos:])
    return "".join(parts)


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_sync_then_check(project: Path) -> None:
    readme = project / "docker/README.md"
    before = readme.read_text()
    result = run("sync")
    assert (result.code, result.out, result.err) == (0, "docker/README.md: updated\n", "")
    after = readme.read_text()
    assert sha(without_fingerprints(outside_markers(after))) == sha(outside_markers(before))
    assert "| `MAX_JOBS` | `$(nproc)` | Parallel jobs. |" in after
    assert "| `gfx942` | AMD | CDNA3 |" in after
    assert "stale" not in after
    # the second run changes nothing
    mtime = readme.stat().st_mtime_ns
    again = run("sync")
    assert again.out == "docker/README.md: unchanged\n"
    assert readme.read_text() == after and readme.stat().st_mtime_ns == mtime
    check = run("check")
    assert check.code == 0
    assert check.out == "docker/README.md is up to date\n1 file checked, 0 out of date\n"


def test_check_reports_drift_with_diff_and_fix(project: Path) -> None:
    run("sync")
    dockerfile = project / "docker/Dockerfile"
    dockerfile.write_text(DOCKERFILE.replace("7.0.2", "7.1.0"))
    readme_before = (project / "docker/README.md").read_text()
    result = run("check")
    assert result.code == 1
    assert "docker/README.md:6: block docgen:versions is out of date" in result.out
    assert "--- current docker/README.md (docgen:versions)" in result.out
    assert "+++ generated docker/README.md (docgen:versions)" in result.out
    assert re.search(r"^-\| ROCm \| `7\.0\.2`", result.out, re.M)
    assert re.search(r"^\+\| ROCm \| `7\.1\.0`", result.out, re.M)
    assert "docker/README.md is out of date" in result.out
    assert "run `docgen sync`" in result.out
    # check never writes
    assert (project / "docker/README.md").read_text() == readme_before


def test_missing_end_marker_is_exit_2_with_path_and_line(project: Path) -> None:
    readme = project / "docker/README.md"
    readme.write_text(README.replace("<!-- END docgen:hardware -->\n", ""))
    before = readme.read_bytes()
    for command in ("check", "sync"):
        result = run(command)
        assert result.code == 2
        assert (
            result.err
            == "docker/README.md:15: BEGIN docgen:hardware has no <!-- END docgen:hardware --> after it\n"
        )
        assert "Traceback" not in result.err
    assert readme.read_bytes() == before


def test_crlf_and_final_newline_and_mode_are_kept(project: Path) -> None:
    readme = project / "docker/README.md"
    readme.write_bytes(README.replace("\n", "\r\n").rstrip("\r\n").encode())
    os.chmod(readme, 0o640)
    assert run("sync").code == 0
    data = readme.read_bytes()
    assert b"\n" not in data.replace(b"\r\n", b"")
    assert not data.endswith(b"\n")
    assert stat.S_IMODE(readme.stat().st_mode) == 0o640
    assert run("check").code == 0


def test_escaping_keeps_one_cell(project: Path) -> None:
    evil = "a|b `tick` <script>x</script> --> *b* _c_"
    (project / "docker/Dockerfile").write_text(DOCKERFILE + f'# EVIL Evil value {evil}.\nARG EVIL="{evil}"\n')
    assert run("sync").code == 0
    text = (project / "docker/README.md").read_text()
    row = next(
        line for line in text.splitlines() if line.startswith("| `EVIL`") or line.startswith("| <code>")
    )
    assert row.startswith("| `EVIL` |")
    assert row.count("|") - row.count("\\|") == 5  # four cells
    assert "<script>" not in text and "-->" not in row and "`tick`" not in row
    assert "&lt;script&gt;x&lt;/script&gt;" in row
    assert run("check").code == 0


def test_cli_flags_override_config(project: Path) -> None:
    other = project / "other.md"
    other.write_text("<!-- BEGIN docgen:build-args -->\n<!-- END docgen:build-args -->\n")
    result = run("sync", "--dockerfile", "docker/Dockerfile", "--output", "other.md")
    assert result.code == 0 and result.out == "other.md: updated\n"
    assert "`ROCM_VERSION`" in other.read_text()
    assert "stale" in (project / "docker/README.md").read_text()  # the config's output untouched


@pytest.mark.parametrize(
    ("files", "argv", "message"),
    [
        (
            {"docker/README.md": README.replace("docgen:hardware", "docgen:hardwar")},
            ["check"],
            "unknown block docgen:hardwar",
        ),
        (
            {"docker/Dockerfile": "FROM a AS a\n"},
            ["check"],
            "docker/Dockerfile:1: stage a builds FROM a, which is itself",
        ),
        (
            {"pyproject.toml": PYPROJECT + "colour = 1\n"},
            ["sync"],
            "pyproject.toml:7: unknown key 'colour' in [[tool.docgen.images]]",
        ),
        (
            {"pyproject.toml": PYPROJECT.replace('arch-arg = "GPU_ARCH"', "arch-arg = 3")},
            ["sync"],
            "pyproject.toml:2: [tool.docgen].arch-arg must be a string, not int",
        ),
        (
            {"pyproject.toml": PYPROJECT.replace("docker/README.md", "../../etc/passwd")},
            ["sync"],
            "points outside the project folder",
        ),
        ({"pyproject.toml": PYPROJECT + "[broken\n"}, ["sync"], "pyproject.toml:7: invalid TOML"),
        ({"docker/README.md": b"\xff\xfe bad"}, ["sync"], "docker/README.md:1: not UTF-8 text"),
        ({}, ["show", "missing/Dockerfile"], "missing/Dockerfile: Dockerfile not found"),
        ({}, ["sync", "--output", "x.md"], "--output needs --dockerfile"),
    ],
)
def test_bad_input_exit_2(
    project: Path, files: dict[str, str | bytes], argv: list[str], message: str
) -> None:
    make_tree(project, files)
    result = run(*argv)
    assert result.code == 2, result
    assert message in result.err
    assert "Traceback" not in result.err and result.err.count("\n") == 1


def test_missing_readme(project: Path) -> None:
    (project / "docker/README.md").unlink()
    result = run("sync")
    assert result.code == 2 and result.err.startswith("docker/README.md: file not found")


def test_read_only_readme_is_an_error_not_a_traceback(project: Path) -> None:
    readme = project / "docker/README.md"
    os.chmod(readme, 0o444)
    result = run("sync")
    assert (
        result.code == 2 and result.err == "docker/README.md: file is read-only; docgen will not replace it\n"
    )
    assert readme.read_text() == README


def test_no_config_no_args(chdir_tmp: Path) -> None:
    result = run("sync")
    assert result.code == 2 and result.err == (
        "docgen: error: nothing to do: no docgen.toml, nor pyproject.toml with [tool.docgen], here or in a "
        "folder above; "
        "add one (docgen init does) or pass --dockerfile DOCKERFILE --output README.md\n"
    )


def test_output_that_is_the_dockerfile_given_on_the_command_line(chdir_tmp: Path) -> None:
    (chdir_tmp / "Dockerfile").write_text("FROM ubuntu:22.04\n")
    result = run("sync", "--dockerfile", "Dockerfile", "--output", "./Dockerfile")
    assert (result.code, result.err) == (
        2,
        "Dockerfile: --output is the Dockerfile itself; docgen will not write generated text into its "
        "own input\n",
    )


def test_help_documents_exit_codes() -> None:
    result = run("--help")
    assert result.code == 0
    for text in ("0  success", "1  check found", "2  bad usage"):
        assert text in result.out
    assert run("check", "--help").code == 0
    assert run("frobnicate").code == 2


def test_lint_and_audit_help_tell_their_rule_ids_and_how_to_silence_them() -> None:
    audit_help = " ".join(run("audit", "--help").out.split())
    for rule in findings.AUDIT_RULES:
        assert f"{rule} {findings.RULES[rule][0]}" in audit_help  # each family, by its id and name
    assert "<!-- docgen: ignore=DG102 -->" in audit_help and "DG101 silences all three" in audit_help
    lint_help = " ".join(run("lint", "--help").out.split())
    assert "# docgen: ignore=DG003" in lint_help and "disable" in lint_help
    assert "ignore=" not in " ".join(run("sync", "--help").out.split())


def test_show_json(project: Path) -> None:
    result = run("show", "--format", "json")
    assert result.code == 0
    data = json.loads(result.out)
    assert data["dockerfile"] == "docker/Dockerfile"
    assert [(s["name"], s["index"], s["from"], s["line"]) for s in data["stages"]] == [
        ("base", 0, "ubuntu:22.04", 3),
        ("build", 1, "base", 6),
    ]
    assert [(a["name"], a["scope"], a["line"], a["default"], a["stages"]) for a in data["args"]] == [
        ("GPU_ARCH", "global", 2, "gfx942;gfx950", ["build"]),
        ("ROCM_VERSION", "base", 5, "7.0.2", ["base", "build"]),
        ("GPU_ARCH", "build", 7, "gfx942;gfx950", ["build"]),
        ("MAX_JOBS", "build", 9, "", ["build"]),
    ]
    assert data["args"][0]["description"] == "GPU targets to build for."
    assert data["args"][3]["effective_default"] == "$(nproc)"
    assert isinstance(data["components"], list)


def test_show_table_and_verbose(project: Path) -> None:
    result = run("show", "docker/Dockerfile", "--verbose")
    assert result.code == 0
    assert "base" in result.out and "MAX_JOBS" in result.out


TARGETED = """\
FROM python:3.12-slim AS runtime
ARG TORCH_VERSION=2.6.0
RUN pip install torch==${TORCH_VERSION}
FROM runtime AS test
RUN pip install pytest==8.3.5
"""


@pytest.mark.parametrize("given", [(), ("docker/Dockerfile",), ("./docker/../docker/Dockerfile",)])
def test_show_builds_a_configured_dockerfile_with_its_args_and_target(
    chdir_tmp: Path, given: tuple[str, ...]
) -> None:
    """As `audit` does, and as `sync` documents it: `docker build --build-arg TORCH_VERSION=2.7.1
    --target runtime`, so torch 2.7.1 and no pytest."""
    make_tree(
        chdir_tmp,
        {
            "pyproject.toml": PYPROJECT.replace(
                "outputs", 'name = "app"\nargs = { TORCH_VERSION = "2.7.1" }\ntarget = "runtime"\noutputs'
            ),
            "docker/Dockerfile": TARGETED,
            "docker/README.md": README,
        },
    )
    result = run("show", *given)
    assert result.code == 0, result.err
    assert "built as configured (app): --build-arg TORCH_VERSION=2.7.1 --target runtime\n" in result.out
    assert "2.7.1" in result.out and "2.6.0" not in result.out.split("components:")[1]
    assert "pytest" not in result.out
    data = json.loads(run("show", *given, "--format", "json").out)
    pip = [(c["name"], c["version"]) for c in data["components"] if c["kind"] == "pip"]
    assert pip == [("torch", "2.7.1")]


def test_show_reads_a_dockerfile_no_image_configures_as_written(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"pyproject.toml": PYPROJECT, "other/Dockerfile": TARGETED})
    result = run("show", "other/Dockerfile")
    assert result.code == 0
    assert "built as configured" not in result.out
    assert "pytest" in result.out and "2.6.0" in result.out


def test_bundled_repository_is_up_to_date(tmp_path: Path) -> None:
    """`docgen check` on this repository passes (what CI runs), from a copy so nothing is touched."""
    copy = tmp_path / "repo"
    shutil.copytree(ROOT / "docker", copy / "docker")
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    old = os.getcwd()
    os.chdir(copy)
    try:
        result = run("check")
    finally:
        os.chdir(old)
    assert result.code == 0, result.out + result.err


# --------------------------------------------------------------------------------------------------
# lint, audit and init through the command line


def test_lint_command(project: Path) -> None:
    (project / "docker/Dockerfile").write_text(DOCKERFILE + "ARG UNUSED_THING=1\nRUN true\n")
    result = run("lint")
    assert result.code == 0
    assert "docker/Dockerfile:11: warning: build arg UNUSED_THING is declared but never used" in result.out
    assert result.out.endswith(" in 1 Dockerfile\n")
    assert run("lint", "--strict").code == 1
    assert run("lint", "docker/Dockerfile", "--strict").code == 1
    assert run("lint", "missing/Dockerfile").code == 2


def test_audit_command(project: Path) -> None:
    hand = project / "docker/HAND.md"
    hand.write_text(
        "# Image\n\n| Build arg | Default |\n|---|---|\n| `GPU_ARCH` | `gfx90a` |\n| `OLD_ARG` | `1` |\n"
    )
    result = run("audit", "docker/HAND.md", "--dockerfile", "docker/Dockerfile")
    assert result.code == 1
    assert "docker/HAND.md:5: " in result.out and "gfx90a" in result.out
    assert "docker/HAND.md:6: " in result.out and "OLD_ARG" in result.out
    hand.write_text("# Image\n\nNothing to contradict.\n")
    clean = run("audit", "docker/HAND.md")  # the only configured image
    assert clean.code == 0
    assert clean.out == "docker/HAND.md: no claim outside the docgen blocks contradicts docker/Dockerfile\n"
    assert run("audit", "docker/NOPE.md").code == 2


def test_audit_summary_of_many_dockerfiles_names_a_few(chdir_tmp: Path) -> None:
    """A README over a family of Dockerfiles gets a summary line a reader can take in: three names
    and how many more; the JSON format keeps every name."""
    make_tree(chdir_tmp, {f"Dockerfile.v{n}": "FROM ubuntu:22.04\n" for n in range(6)})
    (chdir_tmp / "README.md").write_text("# Images\n\nNothing to contradict.\n")
    clean = run("audit", "README.md")
    assert clean.code == 0
    assert clean.out == (
        "README.md: no claim outside the docgen blocks contradicts "
        "Dockerfile.v0, Dockerfile.v1, Dockerfile.v2 and 3 more\n"
    )
    data = json.loads(run("audit", "README.md", "--format", "json").out)
    assert data["dockerfile"] == ", ".join(f"Dockerfile.v{n}" for n in range(6))
    (chdir_tmp / "Dockerfile.v4").unlink()
    (chdir_tmp / "Dockerfile.v5").unlink()
    assert run("audit", "README.md").out.endswith("Dockerfile.v2, Dockerfile.v3\n")


def test_audit_in_a_subfolder_with_no_config_reads_the_checkout_as_the_project(
    chdir_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no `[tool.docgen]`, the project is the repository the current folder is in: a README of
    `build/rocm/` running `./build/rocm/build.sh` from the checkout's root is right, audited from its own
    folder too (the current folder was the project, and the script was told missing)."""
    readme = "# ROCm image\n\n```bash\n./build/rocm/build.sh\n```\n"
    make_tree(
        chdir_tmp,
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            "build/rocm/Dockerfile": "FROM rocm/dev-ubuntu-22.04:6.2\n",
            "build/rocm/build.sh": "docker build -t jax.rocm build/rocm\n",
            "build/rocm/README.md": readme,
        },
    )
    assert run("audit", "build/rocm/README.md").code == 0
    monkeypatch.chdir(chdir_tmp / "build" / "rocm")
    result = run("audit", "README.md")
    assert result.code == 0, result.out
    # without a checkout the current folder is the project: nothing above it is looked at
    (chdir_tmp / ".git" / "HEAD").unlink()
    (chdir_tmp / ".git").rmdir()
    assert "build/rocm/build.sh, which does not exist" in run("audit", "README.md").out


def test_init_command_then_sync(chdir_tmp: Path) -> None:
    make_tree(
        chdir_tmp,
        {
            "docker/Dockerfile": DOCKERFILE,
            "README.md": "# My image\n\n## Key versions\n\nby hand\n\n## Build arguments\n\nby hand\n",
        },
    )
    result = run("init", "README.md", "--dockerfile", "docker/Dockerfile")
    assert result.code == 0, result.err
    assert "README.md:" in result.out and "next: run docgen sync" in result.out
    text = (chdir_tmp / "README.md").read_text()
    assert "## Key versions\n\n<!-- BEGIN docgen:versions -->\n<!-- END docgen:versions -->\n" in text
    assert "[[images]]" in (chdir_tmp / "docgen.toml").read_text()  # no pyproject.toml: docgen.toml
    assert run("sync").code == 0
    assert run("check").code == 0
    synced = (chdir_tmp / "README.md").read_text()
    assert "| `MAX_JOBS` |" in synced and "by hand" in synced
    again = run("init")
    assert again.code == 0 and (chdir_tmp / "README.md").read_text() == synced


def test_show_json_lists_hard_coded_values(project: Path) -> None:
    (project / "docker/Dockerfile").write_text(
        DOCKERFILE
        + "RUN pip install https://example.com/rocm-rel-7.0.2/torch-2.9.1-cp312-cp312-linux_x86_64.whl\n"
    )
    data = json.loads(run("show", "--format", "json").out)
    assert {
        "arg": "ROCM_VERSION",
        "arg_line": 5,
        "value": "7.0.2",
        "line": 11,
        "spelling": "rocm-rel-7.0.2",
    } in (data["hardcoded"])
