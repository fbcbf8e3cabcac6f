"""`docgen check` explaining itself: fingerprints, causes, Dockerfile lines, CI annotations, JSON, the
summary line, `--strict`, and the fast path that must always agree with the full check."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import make_tree, run

from docgen import fingerprint, render
from docgen.fastcheck import fast_check, up_to_date
from docgen.findings import annotation
from docgen.markers import find_blocks

PYPROJECT = """\
[tool.docgen]
arch-arg = "GPU_ARCH"

[tool.docgen.names]
ROCM_VERSION = "ROCm"

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
RUN echo "deb https://repo.radeon.com/rocm/apt/${ROCM_VERSION} jammy main" > /etc/apt/sources.list.d/rocm.list
FROM base AS build
ARG GPU_ARCH
# MAX_JOBS Parallel jobs.
ARG MAX_JOBS=
RUN pip install torch==2.9.1 && make -j${MAX_JOBS:-$(nproc)} ARCH=${GPU_ARCH}
"""

README = """\
# My image

<!-- BEGIN docgen:versions -->
<!-- END docgen:versions -->

## Build arguments
<!-- BEGIN docgen:build-args -->
<!-- END docgen:build-args -->

<!-- BEGIN docgen:hardware -->
<!-- END docgen:hardware -->
"""


@pytest.fixture
def project(chdir_tmp: Path) -> Path:
    make_tree(
        chdir_tmp,
        {"pyproject.toml": PYPROJECT, "docker/Dockerfile": DOCKERFILE, "docker/README.md": README},
    )
    assert run("sync").code == 0
    return chdir_tmp


def readme(project: Path) -> Path:
    return project / "docker/README.md"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def fast(project: Path, *argv: str) -> tuple[int | None, str]:
    out = io.StringIO()
    code = fast_check(list(argv), out, str(project))
    return code, out.getvalue()


# --------------------------------------------------------------------------------------------------
# fingerprints


def test_sync_writes_a_fingerprint_into_every_begin_marker(project: Path) -> None:
    text = readme(project).read_text()
    blocks = find_blocks(text)
    assert [b.name for b in blocks] == ["versions", "build-args", "hardware"]
    for block in blocks:
        found = fingerprint.parse_attributes(block.attributes)
        assert set(found) == {"dockerfile", "setup", "text"}
        assert found["dockerfile"] == fingerprint.dockerfile_digest(
            (project / "docker/Dockerfile").read_bytes()
        )
        assert found["text"] == fingerprint.text_digest(block.name, text[block.body_start : block.body_end])
    # a second sync changes nothing; other attributes are kept, in place
    assert run("sync").out == "docker/README.md: unchanged\n"
    edit(
        readme(project),
        "<!-- BEGIN docgen:hardware dockerfile=",
        "<!-- BEGIN docgen:hardware keep=me x dockerfile=",
    )
    edit(
        readme(project),
        "<!-- BEGIN docgen:versions dockerfile=",
        "<!-- BEGIN docgen:versions text=0 y=1 z dockerfile=",
    )
    assert run("sync").out == "docker/README.md: updated\n"
    text = readme(project).read_text()
    assert "<!-- BEGIN docgen:hardware keep=me x dockerfile=" in text
    assert "<!-- BEGIN docgen:versions y=1 z dockerfile=" in text
    assert run("sync").out == "docker/README.md: unchanged\n"


def test_fingerprint_attribute_rewrite_keeps_indent_and_crlf(chdir_tmp: Path) -> None:
    make_tree(
        chdir_tmp,
        {
            "pyproject.toml": PYPROJECT,
            "docker/Dockerfile": DOCKERFILE,
            "docker/README.md": "  <!--BEGIN docgen:versions-->  \r\n<!-- END docgen:versions -->\r\n",
        },
    )
    assert run("sync").code == 0
    first = readme(chdir_tmp).read_bytes().decode().split("\r\n")[0]
    assert first.startswith("  <!--BEGIN docgen:versions dockerfile=") and first.endswith(" -->  ")
    assert run("check").code == 0


# --------------------------------------------------------------------------------------------------
# causes


def test_dockerfile_change_names_the_dockerfile_lines(project: Path) -> None:
    edit(project / "docker/Dockerfile", "ARG ROCM_VERSION=7.0.2", "ARG ROCM_VERSION=7.1.0")
    assert up_to_date([], str(project)) is None
    result = run("check")
    assert result.code == 1
    assert (
        "docker/README.md:3: block docgen:versions is out of date: docker/Dockerfile changed since the "
        "last sync (changed rows come from lines 5, 6)\n" in result.out
    )
    assert "docker/Dockerfile:5: behind the row 'ROCm'\n" in result.out
    assert "docker/Dockerfile:5: behind the row 'ROCM_VERSION'\n" in result.out
    assert "edited by hand" not in result.out
    assert "fix: run `docgen sync` and commit the result\n" in result.out
    assert result.out.endswith("1 file checked, 1 out of date; run `docgen sync` to update them\n")


def test_hand_edit_is_reported_as_a_hand_edit(project: Path) -> None:
    edit(readme(project), "| `MAX_JOBS` | `$(nproc)` |", "| `MAX_JOBS` | `64` |")
    assert up_to_date([], str(project)) is None
    result = run("check")
    assert result.code == 1
    assert "block docgen:build-args is out of date: the block was edited by hand since docgen wrote it\n" in (
        result.out
    )
    assert "docker/Dockerfile changed" not in result.out
    assert "behind the row" not in result.out
    assert "-| `MAX_JOBS` | `64` |" in result.out
    assert "fix: generated blocks are overwritten by `docgen sync`" in result.out


def test_hand_edit_and_dockerfile_change_together(project: Path) -> None:
    edit(readme(project), "| `MAX_JOBS` | `$(nproc)` |", "| `MAX_JOBS` | `64` |")
    edit(project / "docker/Dockerfile", "ARG MAX_JOBS=", "ARG MAX_JOBS=8")
    result = run("check")
    assert (
        "block docgen:build-args is out of date: the block was edited by hand since docgen wrote it; "
        "docker/Dockerfile changed since the last sync (changed rows come from line 10)\n" in result.out
    )
    assert "docker/Dockerfile:10: behind the row 'MAX_JOBS'\n" in result.out


def test_config_change_is_reported_as_setup(project: Path) -> None:
    edit(project / "pyproject.toml", 'arch-arg = "GPU_ARCH"', 'arch-arg = "ROCM_VERSION"')
    result = run("check")
    assert result.code == 1
    assert (
        "block docgen:hardware is out of date: the configuration, templates or docgen itself changed "
        "since the last sync\n" in result.out
    )


def test_block_without_fingerprint_has_unknown_cause(chdir_tmp: Path) -> None:
    make_tree(
        chdir_tmp,
        {
            "pyproject.toml": PYPROJECT,
            "docker/Dockerfile": DOCKERFILE,
            "docker/README.md": "<!-- BEGIN docgen:versions -->\nold\n<!-- END docgen:versions -->\n",
        },
    )
    result = run("check")
    assert result.code == 1
    assert "the block has no fingerprint of the last sync, so the cause is not known" in result.out
    assert "docker/Dockerfile:5: behind the row 'ROCm'" in result.out
    assert "docker/README.md:1: row 'old' is no longer in docker/Dockerfile" not in result.out


def test_removed_build_arg_is_named(project: Path) -> None:
    edit(project / "docker/Dockerfile", "# MAX_JOBS Parallel jobs.\nARG MAX_JOBS=\n", "")
    edit(project / "docker/Dockerfile", "${MAX_JOBS:-$(nproc)}", "$(nproc)")
    result = run("check")
    assert re.search(
        r"^docker/README\.md:\d+: row 'MAX_JOBS' is no longer in docker/Dockerfile$", result.out, re.M
    )


def test_fingerprints_only_stale_is_up_to_date(project: Path) -> None:
    """Bodies equal but the setup changed in a way that renders the same: check passes and says so."""
    edit(project / "pyproject.toml", "[tool.docgen.names]", 'templates = "tpl"\n\n[tool.docgen.names]')
    (project / "tpl").mkdir()
    assert up_to_date([], str(project)) is None
    result = run("check")
    assert result.code == 0
    assert result.out == (
        "docker/README.md is up to date (its fingerprints are from an earlier setup; "
        "`docgen sync` refreshes them)\n1 file checked, 0 out of date\n"
    )
    assert run("sync").out == "docker/README.md: updated\n"
    assert up_to_date([], str(project)) == ["docker/README.md"]


# --------------------------------------------------------------------------------------------------
# many files, JSON, GitHub Actions, --strict


def test_summary_counts_files(chdir_tmp: Path) -> None:
    files: dict[str, str] = {"pyproject.toml": '[tool.docgen]\narch-arg = "GPU_ARCH"\n'}
    for i in range(3):
        files[f"img{i}/Dockerfile"] = DOCKERFILE
        files[f"img{i}/README.md"] = README
        files["pyproject.toml"] += (
            f'\n[[tool.docgen.images]]\ndockerfile = "img{i}/Dockerfile"\noutputs = ["img{i}/README.md"]\n'
        )
    make_tree(chdir_tmp, files)
    assert run("sync").code == 0
    assert run("check").out.endswith("3 files checked, 0 out of date\n")
    edit(chdir_tmp / "img1/Dockerfile", "torch==2.9.1", "torch==2.10.0")
    result = run("check")
    assert result.code == 1
    assert "img0/README.md is up to date\n" in result.out and "img2/README.md is up to date\n" in result.out
    assert "img1/README.md is out of date\n" in result.out
    assert result.out.endswith("3 files checked, 1 out of date; run `docgen sync` to update them\n")


def test_json_format(project: Path) -> None:
    edit(project / "docker/Dockerfile", "ARG ROCM_VERSION=7.0.2", "ARG ROCM_VERSION=7.1.0")
    result = run("check", "--format", "json")
    assert result.code == 1
    data = json.loads(result.out)
    assert (data["checked"], data["out_of_date"]) == (1, 1)
    (doc,) = data["files"]
    assert (doc["path"], doc["dockerfile"], doc["up_to_date"]) == (
        "docker/README.md",
        "docker/Dockerfile",
        False,
    )
    versions = next(b for b in doc["blocks"] if b["name"] == "versions")
    assert versions["line"] == 3 and versions["causes"] == ["dockerfile"]
    assert {"line": 5, "row": "ROCm"} in versions["dockerfile_lines"]
    assert "+| ROCm | `7.1.0`" in versions["diff"]
    assert data["warnings"] == []


def test_github_actions_annotations(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    edit(project / "docker/Dockerfile", "torch==2.9.1", "torch==2.10.0")
    edit(readme(project), "| `MAX_JOBS` | `$(nproc)` |", "| `MAX_JOBS` | `64` |")
    out = run("check").out
    lines = [line for line in out.splitlines() if line.startswith("::")]
    assert "::error file=docker/README.md,line=3,title=docgen::block docgen:versions is out of date" in out
    assert any(
        line.startswith(
            "::error file=docker/Dockerfile,line=11,title=docgen::this line changed row 'PyTorch'"
        )
        for line in lines
    )
    readme_lines = readme(project).read_text().splitlines()
    hand = next(line for line in lines if "edited by hand" in line)
    line_no = int(hand.split("line=")[1].split(",")[0])
    assert readme_lines[line_no - 1].startswith("| `MAX_JOBS` | `64` |")
    # without GITHUB_ACTIONS, no workflow commands
    monkeypatch.delenv("GITHUB_ACTIONS")
    assert "::error" not in run("check").out


def test_annotation_escaping() -> None:
    assert annotation("error", "a,b:c.md", 3, "50% done\nnext") == (
        "::error file=a%2Cb%3Ac.md,line=3,title=docgen::50%25 done%0Anext"
    )
    assert annotation("warning", "x.md", None, "m") == "::warning file=x.md,title=docgen::m"


def test_strict_fails_on_lint_warnings(project: Path) -> None:
    edit(project / "docker/Dockerfile", "FROM base AS build\n", "FROM base AS build\nARG UNUSED=1\n")
    assert run("sync").code == 0
    plain = run("check")
    assert plain.code == 0
    strict = run("check", "--strict")
    assert strict.code == 1
    assert "docker/Dockerfile:8: warning: " in strict.out and "UNUSED" in strict.out
    data = json.loads(run("check", "--strict", "--format", "json").out)
    assert any("UNUSED" in w["message"] for w in data["warnings"])


def test_strict_fails_on_an_ignore_comment_naming_no_rule(project: Path) -> None:
    edit(
        project / "docker/Dockerfile", "FROM base AS build\n", "FROM base AS build\n# docgen: ignore=DG300\n"
    )
    assert run("sync").code == 0
    assert run("check").out.count("DG300") == 0
    strict = run("check", "--strict")
    assert strict.code == 1
    assert (
        "docker/Dockerfile:8: warning: unknown rule id DG300 in an ignore comment: it silences nothing"
        in strict.out
    )


# --------------------------------------------------------------------------------------------------
# the fast path


def test_fast_path_answers_when_everything_matches(project: Path) -> None:
    code, out = fast(project)
    assert (code, out) == (0, "docker/README.md is up to date\n1 file checked, 0 out of date\n")
    slow = run("check")
    assert (slow.code, slow.out) == (code, out)
    assert fast(project, "--config", "pyproject.toml")[0] == 0
    for argv in (["--format", "json"], ["--strict"], ["--dockerfile", "docker/Dockerfile"], ["-h"]):
        assert fast(project, *argv) == (None, "")


MUTATIONS = {
    "dockerfile comment": ("docker/Dockerfile", "# MAX_JOBS Parallel jobs.", "# MAX_JOBS Parallel jobs!"),
    "dockerfile line ending": ("docker/Dockerfile", "ARG MAX_JOBS=\n", "ARG MAX_JOBS=\r\n"),
    "body": ("docker/README.md", "| `GPU_ARCH` |", "| `GPU_ARCHS` |"),
    "body line ending": ("docker/README.md", "|---|---|---|---|\n", "|---|---|---|---|\r\n"),
    "fingerprint removed": (
        "docker/README.md",
        "<!-- BEGIN docgen:hardware dockerfile=",
        "<!-- BEGIN docgen:hardware x=",
    ),
    "config": ("pyproject.toml", 'arch-arg = "GPU_ARCH"', 'arch-arg = "MAX_JOBS"'),
    "config unknown key": ("pyproject.toml", 'arch-arg = "GPU_ARCH"', 'arch-arg = "GPU_ARCH"\ncolour = 1'),
    "broken marker": ("docker/README.md", "<!-- END docgen:hardware -->", ""),
    "prose outside": ("docker/README.md", "# My image", "# My image, renamed"),
}


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_fast_path_never_disagrees_with_the_full_check(project: Path, mutation: str) -> None:
    path, old, new = MUTATIONS[mutation]
    edit(project / path, old, new)
    code, out = fast(project)
    slow = run("check")
    if code is not None:  # decided fast: exactly what the full check says
        assert (code, out) == (slow.code, slow.out)
    else:
        assert mutation != "prose outside"
    if mutation == "prose outside":
        assert code == 0


def test_fast_path_notices_a_new_docgen(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert fast(project)[0] == 0
    monkeypatch.setattr(fingerprint, "_package_digest", "00000000")
    assert fast(project) == (None, "")


def test_dependency_versions_are_the_installed_ones() -> None:
    from importlib.metadata import version

    names = ("jinja2", "markupsafe", "packaging")
    expected = " ".join(f"{name}={version(name).split('.')[0]}" for name in names)
    assert fingerprint.dependency_versions() == expected


def test_dependency_versions_follow_the_import_path(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    make_tree(
        tmp_path,
        {
            "first/jinja2/__init__.py": "",
            "first/Jinja2-9.9.1.dist-info/METADATA": "",
            "first/packaging-1.0.dist-info/METADATA": "",  # metadata without the package: not it
            "second/jinja2/__init__.py": "",
            "second/jinja2-1.0.dist-info/METADATA": "",
            "second/packaging/__init__.py": "",  # the package without metadata
        },
    )
    path = [str(tmp_path / "missing"), str(first), str(second)]
    assert fingerprint.dependency_versions(path) == "jinja2=9 markupsafe=- packaging=?"


def test_fast_path_notices_upgraded_libraries(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert fast(project)[0] == 0
    monkeypatch.setattr(fingerprint, "_package_digest", None)
    monkeypatch.setattr(fingerprint, "dependency_versions", lambda: "jinja2=99.0 markupsafe=1 packaging=1")
    assert fast(project) == (None, "")


def test_fast_path_notices_a_changed_template(project: Path) -> None:
    edit(project / "pyproject.toml", "[tool.docgen.names]", 'templates = "tpl"\n\n[tool.docgen.names]')
    (project / "tpl").mkdir()
    assert run("sync").code == 0
    assert fast(project)[0] == 0
    (project / "tpl/hardware.md.j2").write_text("Hardware: {{ arch_value }}\n")
    assert fast(project) == (None, "")
    render.environment.cache_clear()  # a new process would load the new template
    assert run("check").code == 1


def test_fast_path_imports_no_parser_and_no_jinja(project: Path) -> None:
    code = (
        "import sys, io\n"
        "from docgen.fastcheck import fast_check\n"
        "assert fast_check([], io.StringIO()) == 0\n"
        "heavy = {'jinja2', 'packaging', 'docgen.cli', 'docgen.dockerfile', 'docgen.render'}\n"
        "assert not heavy & set(sys.modules), heavy & set(sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=project, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_console_entry_runs_fast_path_and_full_cli(project: Path) -> None:
    def docgen(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "docgen", *argv], cwd=project, capture_output=True, text=True
        )

    ok = docgen("check")
    assert (ok.returncode, ok.stdout) == (
        0,
        "docker/README.md is up to date\n1 file checked, 0 out of date\n",
    )
    edit(project / "docker/Dockerfile", "torch==2.9.1", "torch==2.10.0")
    stale = docgen("check")
    assert stale.returncode == 1 and "docker/Dockerfile changed since the last sync" in stale.stdout
    assert docgen("--version").stdout.startswith("docgen ")


def test_pre_commit_hooks_run_on_dockerfiles_config_and_docs_only() -> None:
    import yaml

    root = Path(__file__).resolve().parent.parent
    hooks = {h["id"]: h for h in yaml.safe_load((root / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"docgen-check", "docgen-sync"}
    assert hooks["docgen-check"]["entry"] == "docgen check"
    assert hooks["docgen-sync"]["entry"] == "docgen sync"
    for hook in hooks.values():
        assert hook["language"] == "python" and hook["pass_filenames"] is False
        files = re.compile(hook["files"])
        for path in (
            "docker/rocm/Dockerfile.rocm",
            "Dockerfile",
            "images/cuda.Dockerfile",
            "pyproject.toml",
            "docker/rocm/README.md",
            "docs/templates/versions.md.j2",
        ):
            assert files.search(path), path
        for path in ("docgen/cli.py", "tests/test_check.py", "setup.cfg", "docker/rocm/entrypoint.sh"):
            assert not files.search(path), path


# --------------------------------------------------------------------------------------------------
# the fast path against inputs it once answered differently from the full check


def full(project: Path) -> tuple[int, str]:
    result = run("check", "--format", "text")  # any option skips the fast path
    return result.code, result.err


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("[tool.docgen]", "[project]\nname = x\n\n[tool.docgen]", "pyproject.toml:2: invalid TOML"),
        ("[tool.docgen]", '[project]\nname = "x"\nname = "y"\n\n[tool.docgen]', "pyproject.toml:3: invalid"),
        ("[tool.docgen]", "[a]\n[a]\n\n[tool.docgen]", "pyproject.toml:2: invalid TOML"),
    ],
)
def test_fast_path_fails_like_the_full_check_on_invalid_toml_outside_the_docgen_tables(
    project: Path, old: str, new: str, message: str
) -> None:
    edit(project / "pyproject.toml", old, new)
    assert fast(project) == (None, "")
    code, err = full(project)
    assert code == 2 and err.startswith(message)


def test_fast_path_steps_aside_when_the_documents_line_ending_changes(project: Path) -> None:
    path = readme(project)
    text = path.read_bytes().replace(b"# My image\n", b"# My image\r\n" + b"prose\r\n" * 40)
    path.write_bytes(text)  # now mostly CRLF: sync would write the blocks with CRLF
    assert fast(project) == (None, "")
    result = run("check")
    assert result.code == 1
    assert "the document's line endings changed since the last sync" in result.out


def test_fast_path_notices_a_dockerfile_symlink_pointing_elsewhere(project: Path) -> None:
    for folder in ("a", "b"):
        (project / folder).mkdir()
        (project / folder / "Dockerfile").write_bytes((project / "docker/Dockerfile").read_bytes())
    (project / "docker/Dockerfile").unlink()
    (project / "docker/Dockerfile").symlink_to("../a/Dockerfile")
    assert run("sync").code == 0
    assert fast(project)[0] == 0
    (project / "docker/Dockerfile").unlink()
    (project / "docker/Dockerfile").symlink_to("../b/Dockerfile")  # same bytes, other line links
    assert fast(project) == (None, "")
    assert run("check").code == 1


def test_fast_path_notices_templates_in_a_symlinked_folder(project: Path) -> None:
    edit(project / "pyproject.toml", "[tool.docgen.names]", 'templates = "tpl"\n\n[tool.docgen.names]')
    (project / "tpl").mkdir()
    (project / "shared").mkdir()
    (project / "shared/row.j2").write_text("Hardware: one\n")
    (project / "tpl/sub").symlink_to("../shared")
    (project / "tpl/hardware.md.j2").write_text('{% include "sub/row.j2" %}')
    render.environment.cache_clear()
    assert run("sync").code == 0
    assert fast(project)[0] == 0
    (project / "shared/row.j2").write_text("Hardware: two\n")
    assert fast(project) == (None, "")
    render.environment.cache_clear()
    assert run("check").code == 1


def test_unreadable_files_in_the_template_folder_are_no_traceback(project: Path) -> None:
    edit(project / "pyproject.toml", "[tool.docgen.names]", 'templates = "tpl"\n\n[tool.docgen.names]')
    (project / "tpl").mkdir()
    (project / "tpl/notes.txt").symlink_to("nowhere")  # dangling
    (project / "tpl/loop").symlink_to(".")  # a folder loop
    os.mkfifo(project / "tpl/pipe")  # reading it would block
    render.environment.cache_clear()
    assert run("sync").code == 0
    assert fast(project)[0] == 0
    assert run("check").code == 0


def test_template_links_out_of_the_project_are_not_walked(
    project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    outside = tmp_path_factory.mktemp("disk")
    (outside / "big.bin").write_bytes(b"x")
    (project / "tpl").mkdir()
    (project / "tpl/disk").symlink_to(outside)  # think `ln -s / tpl/disk`
    before = fingerprint.templates_digest(str(project / "tpl"), str(project))
    (outside / "big.bin").write_bytes(b"y")
    (outside / "more").mkdir()
    after = fingerprint.templates_digest(str(project / "tpl"), str(project))
    assert before == after  # counted by where the link points, not by what is there
    (project / "tpl/disk").unlink()
    (project / "tpl/disk").symlink_to(outside / "more")
    moved = fingerprint.templates_digest(str(project / "tpl"), str(project))
    assert moved != before


@pytest.mark.parametrize("same_dockerfile", [True, False])
def test_an_output_of_two_images_must_say_which_image_each_block_is_about(
    project: Path, same_dockerfile: bool
) -> None:
    """Two images may fill one file, but a block about one image must name it with `image=`, and two
    images of one name cannot be told apart: an error, never a tug of war between them."""
    if not same_dockerfile:
        (project / "docker/Dockerfile.b").write_bytes((project / "docker/Dockerfile").read_bytes())
    dockerfile = "docker/Dockerfile" if same_dockerfile else "docker/Dockerfile.b"
    with (project / "pyproject.toml").open("a") as handle:
        handle.write(
            f'\n[[tool.docgen.images]]\ndockerfile = "{dockerfile}"\noutputs = ["docker/README.md"]\n'
            'versions = ["Ubuntu"]\n'
        )
    before = readme(project).read_bytes()
    if same_dockerfile:
        message = (
            "pyproject.toml: two [[tool.docgen.images]] named 'docker' (of docker/Dockerfile and of "
            "docker/Dockerfile) list 'docker/README.md' in outputs; give one a name = \"…\" of its own, "
            "which image= on the markers of that file names\n"
        )
    else:
        message = (
            "docker/README.md:3: block docgen:versions does not say which image it is about; add "
            "image=NAME (one of: docker, b)\n"
        )
    for command in ("sync", "check"):
        result = run(command)
        assert (result.code, result.out, result.err) == (2, "", message)
    assert fast(project) == (None, "")
    assert readme(project).read_bytes() == before


def test_an_output_listed_twice_is_an_error(project: Path) -> None:
    edit(project / "pyproject.toml", '["docker/README.md"]', '["docker/README.md", "docker/./README.md"]')
    message = (
        "pyproject.toml: the [[tool.docgen.images]] of docker/Dockerfile lists 'docker/README.md' "
        "twice in outputs\n"
    )
    assert fast(project) == (None, "")
    for command in ("sync", "check"):
        result = run(command)
        assert (result.code, result.out, result.err) == (2, "", message)


def test_an_output_given_twice_on_the_command_line_is_checked_once(project: Path) -> None:
    argv = (
        "--dockerfile",
        "docker/Dockerfile",
        "--output",
        "docker/README.md",
        "--output",
        "docker/./README.md",
    )
    assert run("sync", *argv).out == "docker/README.md: unchanged\n"
    assert run("check", *argv).out.endswith("\n1 file checked, 0 out of date\n")


def forge_text_fingerprint(project: Path) -> None:
    """Edit the first block of the README and write the text digest of the edit into its begin marker,
    as if docgen had written it, then stopped (or as a pull request could by hand)."""
    text = readme(project).read_text()
    block = find_blocks(text)[0]
    body = text[block.body_start : block.body_end]
    forged = fingerprint.parse_attributes(block.attributes)
    changed = body.replace("| Ubuntu |", "| Debian |")
    forged["text"] = fingerprint.text_digest(block.name, changed)
    attributes = " ".join(f"{k}={v}" for k, v in forged.items())
    begin = text[block.begin_start : block.body_start]
    readme(project).write_text(
        text[: block.begin_start]
        + begin.replace(block.attributes, attributes)
        + changed
        + text[block.body_end :]
    )


def test_reason_when_the_fingerprint_matches_but_the_text_differs(project: Path) -> None:
    forge_text_fingerprint(project)
    assert run("check").code == 0  # trusted, as on the fast path: every fingerprint matches
    result = run("check", "--full")
    assert result.code == 1
    assert "its fingerprint matches the Dockerfile, setup and text" in result.out
    assert "has no fingerprint" not in result.out


def test_in_ci_a_plain_check_renders_every_block(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pull request can write fingerprints by hand; in CI (`CI=true`) `check` trusts none of them."""
    forge_text_fingerprint(project)
    monkeypatch.setenv("CI", "true")
    result = run("check")
    assert result.code == 1
    assert "its fingerprint matches the Dockerfile, setup and text" in result.out


def test_github_actions_annotates_errors_too(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    edit(readme(project), "<!-- END docgen:hardware -->", "")
    result = run("check", "--format", "json")
    assert (result.code, result.out) == (2, "")  # stdout stays empty (or JSON)
    begin = next(
        n for n, line in enumerate(readme(project).read_text().splitlines(), 1) if "docgen:hardware" in line
    )
    message = "BEGIN docgen:hardware has no <!-- END docgen:hardware --> after it"
    assert result.err == (
        f"docker/README.md:{begin}: {message}\n"
        f"::error file=docker/README.md,line={begin},title=docgen::{message}\n"
    )
    # a message of several lines stays one workflow command
    make_tree(project, {"pyproject.toml": '[tool]\ndocgen = { arch-arg = "X" }\n', "README.md": "# R\n"})
    result = run("init", "--dockerfile", "docker/Dockerfile")
    assert result.code == 2
    command = result.err.splitlines()[-1]
    assert command.startswith("::error file=pyproject.toml,title=docgen::cannot append")
    assert 'by hand (creating the array if needed):%0A{ "dockerfile" = ' in command


def test_swapped_blocks_are_not_taken_for_what_docgen_wrote(project: Path) -> None:
    text = readme(project).read_text()
    swapped = (
        text.replace("docgen:hardware", "docgen:TMP").replace("docgen:versions", "docgen:hardware")
    ).replace("docgen:TMP", "docgen:versions")
    readme(project).write_text(swapped)
    assert fast(project) == (None, "")
    result = run("check")
    assert result.code == 1 and "edited by hand" in result.out


def test_an_output_synced_with_another_images_settings_is_not_up_to_date(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        PYPROJECT
        + '\n[[tool.docgen.images]]\ndockerfile = "docker/Dockerfile"\noutputs = ["docker/SITE.md"]\n'
        + 'versions = ["ROCm"]\n'
    )
    (project / "docker/SITE.md").write_text(README)
    assert run("sync").code == 0
    assert fast(project)[0] == 0
    # the flags pick the image that lists the file, so this changes nothing
    assert run("sync", "--dockerfile", "docker/Dockerfile", "--output", "docker/SITE.md").out == (
        "docker/SITE.md: unchanged\n"
    )
    assert fast(project)[0] == 0
    # both files in one command get the first image's settings: SITE.md is then stale for its own image
    both = ("--dockerfile", "docker/Dockerfile", "--output", "docker/README.md", "--output", "docker/SITE.md")
    assert run("sync", *both).out == "docker/README.md: unchanged\ndocker/SITE.md: updated\n"
    assert fast(project) == (None, "")
    assert run("check").code == 1


def test_template_links_out_of_the_project_send_check_to_the_full_path(
    project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    shared = tmp_path_factory.mktemp("shared")
    (shared / "foot.j2").write_text("SHARED v1\n")
    edit(project / "pyproject.toml", "[tool.docgen.names]", 'templates = "tpl"\n\n[tool.docgen.names]')
    (project / "tpl").mkdir()
    (project / "tpl/shared").symlink_to(shared)
    (project / "tpl/hardware.md.j2").write_text('{% include "shared/foot.j2" %}')
    render.environment.cache_clear()
    before = (project / "docker/README.md").read_bytes()
    result = run("sync")  # refused: a template is read only inside the project (docs/bad-input.md)
    assert result.code == 2
    assert "tpl/shared/foot.j2: resolves to" in result.err and "SHARED" not in result.err
    assert (project / "docker/README.md").read_bytes() == before
    assert fast(project) == (None, "")  # not decided from a digest that cannot see behind the link
    assert run("check").code == 2


def test_file_names_that_are_not_utf8_do_not_crash_the_fingerprint(project: Path) -> None:
    edit(project / "pyproject.toml", "[tool.docgen.names]", 'templates = "tpl"\n\n[tool.docgen.names]')
    (project / "tpl").mkdir()
    with open(os.fsencode(project / "tpl") + b"/notes-\xff.txt", "w") as handle:
        handle.write("x")
    assert run("sync").code == 0
    assert run("check").code == 0


class _CountedName(str):
    """An image name that counts the comparisons made with it."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        type(self).compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def test_the_fast_path_finds_each_blocks_image_by_name_in_one_step(tmp_path: Path) -> None:
    """300 images listing one README, a block about each: every block's image was looked for in the
    list of names (90,000 comparisons; 4,000 images made a `docgen check` that had nothing to do take
    5.4 s, 1.0 s now)."""
    from docgen.fastcheck import fresh_blocks

    make_tree(tmp_path, {"Dockerfile": "FROM ubuntu:22.04\n"})
    names = [_CountedName(f"i{i}") for i in range(300)]
    text = "".join(
        f"<!-- BEGIN docgen:versions image=i{i} -->\n<!-- END docgen:versions -->\n" for i in range(300)
    )
    members = [(name, str(tmp_path / "Dockerfile"), "settings") for name in names]
    _CountedName.compared = 0
    found = fresh_blocks(str(tmp_path), str(tmp_path / "README.md"), members, b"", text=text)
    assert found is not None and len(found) == 300
    assert _CountedName.compared <= 4 * 300
