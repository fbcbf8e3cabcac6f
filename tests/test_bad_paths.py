"""Hostile paths, links, races and failed writes (docs/bad-input.md): templates linked out of the
project, names longer than the file system allows, an empty path, a README that is a Dockerfile,
writes refused midway, an edit saved while docgen runs, temporary files of a killed run, unreadable
template folders and special files where a template should be.

Same fixtures and conventions as `tests/test_bad_input.py`: a small project, `docgen` run as a user
would, the exact message and exit code asserted, and every file left as it was.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import make_tree, run
from test_bad_input import DOCKERFILE, PYPROJECT, README, assert_error, no_temp_files, synced
from test_bad_input import project as project  # the fixture
from test_mkdocs import page_markdown, site_files, write_tree

import docgen.family
import docgen.files
import docgen.init
from docgen.files import CHANGED_MEANWHILE, LEGACY_STALE_AFTER, STALE_AFTER

WITH_TEMPLATES = PYPROJECT.replace("[tool.docgen]\n", '[tool.docgen]\ntemplates = "tpl"\n')
SECRET = "AWS_SECRET_ACCESS_KEY=hunter2-do-not-print"
LONG = "a" * 300  # a name of 300 bytes: file systems allow 255
TOO_LONG = f"{LONG}: file name too long (longer than the file system allows)\n"


@pytest.fixture
def secret(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file outside the project holding something that must never reach a README, a log or a site."""
    path = tmp_path_factory.mktemp("outside") / "environ"
    path.write_text(SECRET + "\n")
    return path


def files_of(folder: Path) -> dict[str, bytes]:
    """The user's files: docgen's own settings cache (`.docgen_cache/`) is not one of them."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in folder.rglob("*")
        if p.is_file() and ".docgen_cache" not in p.relative_to(folder).parts
    }


# ---------------------------------------------------------------------------------------------------
# Templates stay inside the project, links resolved (#17.1)


def test_a_template_linked_out_of_the_project_is_refused_unread(project: Path, secret: Path) -> None:
    make_tree(project, {"pyproject.toml": WITH_TEMPLATES})
    (project / "tpl").mkdir()
    (project / "tpl" / "versions.md.j2").symlink_to(secret)
    message = (
        f"tpl/versions.md.j2: resolves to {secret}, outside the project folder {project.resolve()}; "
        "templates must stay inside it (not read)\n"
    )
    for command in ("sync", "check"):
        assert_error((command,), message, project)


@pytest.mark.parametrize(
    "statement",
    [
        '{% include "inc/leak.md.j2" %}',
        '{% extends "inc/leak.md.j2" %}',
        '{% import "inc/leak.md.j2" as m %}',
    ],
)
def test_a_template_reached_through_a_folder_linked_out_is_refused(
    project: Path, secret: Path, statement: str
) -> None:
    (secret.parent / "leak.md.j2").write_text(SECRET + "\n")
    make_tree(project, {"pyproject.toml": WITH_TEMPLATES, "tpl/versions.md.j2": statement + "\n"})
    (project / "tpl" / "inc").symlink_to(secret.parent)
    for command in ("sync", "check"):
        result = run(command)
        assert result.code == 2
        assert SECRET not in result.out + result.err
        assert "tpl/inc/leak.md.j2: resolves to" in result.err
        assert "outside the project folder" in result.err
    assert "hunter2" not in (project / "README.md").read_text()


def test_a_template_linked_within_the_project_is_used(project: Path) -> None:
    make_tree(project, {"pyproject.toml": WITH_TEMPLATES, "shared/versions.md.j2": "Shared table.\n"})
    (project / "tpl").mkdir()
    (project / "tpl" / "versions.md.j2").symlink_to("../shared/versions.md.j2")
    assert "Shared table.\n" in synced(project)


def test_the_mkdocs_plugin_refuses_a_template_linked_out(tmp_path: Path, secret: Path) -> None:
    files = site_files()
    files["pyproject.toml"] = files["pyproject.toml"].replace(
        "[tool.docgen]\n", '[tool.docgen]\n            templates = "tpl"\n'
    )
    root = write_tree(tmp_path / "site", files)
    (root / "tpl").mkdir()
    (root / "tpl" / "build-args.md.j2").symlink_to(secret)
    from mkdocs.exceptions import PluginError

    with pytest.raises(PluginError) as info:
        page_markdown(root / "mkdocs.yml", "page.md")
    assert "build-args.md.j2: resolves to" in str(info.value)
    assert SECRET not in str(info.value)


# ---------------------------------------------------------------------------------------------------
# Templates that cannot be read: an error, never the built-in ones in silence (#17.10e)


def test_an_unreadable_template_folder_is_an_error(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_tree(project, {"pyproject.toml": WITH_TEMPLATES, "tpl/versions.md.j2": "Mine.\n"})
    real_listdir = os.listdir

    def listdir(path: str | os.PathLike[str] = ".") -> list[str]:  # chmod 000, which root ignores
        if Path(path).name == "tpl":
            raise PermissionError(13, "Permission denied", str(path))
        return real_listdir(path)

    monkeypatch.setattr(os, "listdir", listdir)
    assert_error(
        ("sync",),
        "pyproject.toml:2: templates = 'tpl': cannot read the folder (Permission denied)\n",
        project,
    )


def test_an_unreadable_template_is_an_error(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_tree(project, {"pyproject.toml": WITH_TEMPLATES, "tpl/versions.md.j2": "Mine.\n"})
    real_stat = Path.stat

    def stat(self: Path, *, follow_symlinks: bool = True) -> os.stat_result:
        if self.name == "versions.md.j2" and self.parent.name == "tpl":  # in a folder without x
            raise PermissionError(13, "Permission denied", str(self))
        return real_stat(self, follow_symlinks=follow_symlinks)

    monkeypatch.setattr(Path, "stat", stat)
    assert_error(("sync",), "tpl/versions.md.j2: cannot read the template: permission denied\n", project)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads a chmod 000 folder")
def test_a_chmod_000_template_folder_is_an_error(project: Path) -> None:
    make_tree(project, {"pyproject.toml": WITH_TEMPLATES, "tpl/versions.md.j2": "Mine.\n"})
    (project / "tpl").chmod(0)
    try:
        assert_error(
            ("sync",),
            "pyproject.toml:2: templates = 'tpl': cannot read the folder (Permission denied)\n",
            project,
        )
    finally:
        (project / "tpl").chmod(0o755)


def test_special_files_as_templates(project: Path) -> None:
    make_tree(project, {"pyproject.toml": WITH_TEMPLATES})
    tpl = project / "tpl"
    tpl.mkdir()
    cases = [
        (lambda p: os.mkfifo(p), "is a special file (a FIFO, a device …), not a template file"),
        (lambda p: p.mkdir(), "is a folder, not a template file"),
        (lambda p: p.symlink_to("gone.md.j2"), "a symlink to a file that is not there"),
        (
            lambda p: p.symlink_to("versions.md.j2"),
            "cannot read the template: too many levels of symbolic links (a symlink loop?)",
        ),
        (lambda p: p.write_bytes(b"ok\n\xff\n"), "not UTF-8 text"),
    ]
    for make, message in cases:
        path = tpl / "versions.md.j2"
        make(path)
        where = "tpl/versions.md.j2:2" if "UTF-8" in message else "tpl/versions.md.j2"
        assert_error(("sync",), f"{where}: {message}\n", project)
        if path.is_dir() and not path.is_symlink():
            path.rmdir()
        else:
            path.unlink()


# ---------------------------------------------------------------------------------------------------
# Names longer than the file system allows, and other path errors: exit 2, never a traceback (#17.3)


@pytest.mark.parametrize(
    "argv",
    [
        ("show", LONG),
        ("lint", LONG),
        ("audit", LONG),
        ("init", LONG),
        ("sync", "--dockerfile", "Dockerfile", "--output", LONG),
        ("check", "--dockerfile", LONG, "--output", "README.md"),
        ("check", "--config", LONG),
        ("show", "--config", LONG),
    ],
)
def test_a_name_too_long_is_a_usage_error(project: Path, argv: tuple[str, ...]) -> None:
    assert_error(argv, TOO_LONG, project)


@pytest.mark.parametrize(
    "setting",
    [f'templates = "{LONG}"\n', f'[[tool.docgen.images]]\ndockerfile = "Dockerfile"\noutputs = ["{LONG}"]\n'],
)
def test_a_name_too_long_in_the_config_is_a_usage_error(project: Path, setting: str) -> None:
    text = (
        PYPROJECT.replace("[tool.docgen]\n", f"[tool.docgen]\n{setting}")
        if setting.startswith("templates")
        else "[tool.docgen]\n" + setting
    )
    make_tree(project, {"pyproject.toml": text})
    for command in ("sync", "check"):
        assert_error((command,), TOO_LONG, project)


def test_a_name_too_long_in_front_matter_is_a_plugin_error(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "site",
        site_files(
            **{"docs/fm.md": f"---\ndocgen_dockerfile: {LONG}\n---\n<!-- BEGIN docgen:versions -->\n"}
        ),
    )
    from mkdocs.exceptions import PluginError

    with pytest.raises(PluginError) as info:
        page_markdown(root / "mkdocs.yml", "fm.md")
    assert (
        str(info.value)
        == "docs/fm.md: docgen_dockerfile: file name too long (longer than the file system allows)"
    )


def test_a_file_used_as_a_folder_is_a_usage_error(project: Path) -> None:
    assert_error(
        ("sync", "--dockerfile", "Dockerfile", "--output", "README.md/x.md"),
        "README.md/x.md: a part of the path is a file, not a folder\n",
        project,
    )


def test_a_readme_of_a_long_name_can_be_written(project: Path) -> None:
    """Its temporary file repeats only the start of the name: `.NAME.PID.RANDOM.docgen-tmp` would
    pass 255 bytes (it used to fail with `cannot write: File name too long`)."""
    name = "r" * 240 + ".md"
    (project / "README.md").rename(project / name)
    make_tree(project, {"pyproject.toml": PYPROJECT.replace("README.md", name)})
    result = run("sync")
    assert (result.code, result.err) == (0, "")
    assert "ROCM_VERSION" in (project / name).read_text()
    assert no_temp_files(project)


# ---------------------------------------------------------------------------------------------------
# An empty path is refused, not taken for a missing argument (#17.10f)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("show", ""), "show: DOCKERFILE is an empty path"),
        (("lint", ""), "lint: DOCKERFILE is an empty path"),
        (("audit", ""), "audit: FILE.md is an empty path"),
        (("audit", "README.md", "--dockerfile", ""), "audit: --dockerfile is an empty path"),
        (("init", ""), "init: README is an empty path"),
        (("init", "README.md", "--dockerfile", ""), "init: --dockerfile is an empty path"),
        (("sync", "--dockerfile", "", "--output", "README.md"), "sync: --dockerfile is an empty path"),
        (("sync", "--dockerfile", "Dockerfile", "--output", ""), "sync: --output is an empty path"),
        (("check", "--config", ""), "check: --config is an empty path"),
    ],
)
def test_an_empty_path_is_refused(project: Path, argv: tuple[str, ...], message: str) -> None:
    before = files_of(project)
    assert_error(argv, f"docgen: error: {message}\n", project)
    assert files_of(project) == before


# ---------------------------------------------------------------------------------------------------
# init never writes Markdown into a Dockerfile or into pyproject.toml (#17.5)

IS_A_DOCKERFILE = (
    "is a Dockerfile, not a README; docgen adds its blocks to a Markdown file "
    "(Markdown appended to a Dockerfile would break its build)\n"
)


@pytest.mark.parametrize(
    "argv",
    [
        ("init", "Dockerfile", "--dockerfile", "Dockerfile"),
        ("init", "Dockerfile"),
        ("init", "Dockerfile.cuda", "--dockerfile", "Dockerfile"),
        ("init", "cuda.Dockerfile", "--dockerfile", "Dockerfile"),
    ],
)
def test_init_refuses_a_readme_that_is_a_dockerfile(project: Path, argv: tuple[str, ...]) -> None:
    make_tree(project, {"Dockerfile.cuda": DOCKERFILE, "cuda.Dockerfile": DOCKERFILE})
    before = files_of(project)
    result = run(*argv)
    assert (result.code, result.out, result.err) == (2, "", f"{argv[1]}: {IS_A_DOCKERFILE}")
    assert files_of(project) == before


def test_init_refuses_pyproject_as_the_readme(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"pyproject.toml": "[project]\nname = 'x'\n", "Dockerfile": DOCKERFILE})
    before = files_of(chdir_tmp)
    result = run("init", "pyproject.toml")
    assert (result.code, result.err) == (
        2,
        "pyproject.toml: is the configuration file; docgen adds its blocks to a Markdown file\n",
    )
    assert files_of(chdir_tmp) == before


# ---------------------------------------------------------------------------------------------------
# All or nothing when a rename fails late (#17.6)


def add_second_output(project: Path) -> None:
    """A second output, `second.md`, beside README.md in the project's one image."""
    make_tree(
        project,
        {"second.md": README, "pyproject.toml": PYPROJECT.replace('"README.md"', '"README.md", "second.md"')},
    )


def refuse_rename_of(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """`os.replace` onto a file called `name` fails as on an append-only file (`chattr +a`)."""
    real_replace = os.replace

    def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        if Path(dst).name == name:
            raise PermissionError(1, "Operation not permitted", str(src), None, str(dst))
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)


def test_sync_puts_back_the_first_output_when_the_second_cannot_be_replaced(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    add_second_output(project)
    before = files_of(project)
    refuse_rename_of(monkeypatch, "second.md")
    result = run("sync")
    assert (result.code, result.out) == (2, "")
    assert result.err == (
        "second.md: cannot write: Operation not permitted; the files written before it were put back\n"
    )
    assert files_of(project) == before
    assert no_temp_files(project)


def test_init_leaves_the_readme_when_pyproject_cannot_be_replaced(
    chdir_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_tree(chdir_tmp, {"README.md": "# R\n", "Dockerfile": DOCKERFILE, "pyproject.toml": "[project]\n"})
    before = files_of(chdir_tmp)
    refuse_rename_of(monkeypatch, "pyproject.toml")
    result = run("init")
    assert (result.code, result.out) == (2, "")
    assert result.err.startswith("pyproject.toml: cannot write: Operation not permitted; the files written")
    assert files_of(chdir_tmp) == before
    assert no_temp_files(chdir_tmp)


def test_a_file_that_cannot_be_put_back_is_named(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    add_second_output(project)
    real_replace = os.replace
    calls = []

    def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        calls.append(Path(dst).name)
        if Path(dst).name == "second.md" or calls.count("README.md") > 1:  # the put-back fails too
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    result = run("sync")
    assert result.code == 2
    assert result.err == (
        "second.md: cannot write: No space left on device; already written, and could not be put back: "
        "README.md\n"
    )
    assert no_temp_files(project)


# ---------------------------------------------------------------------------------------------------
# An edit saved while docgen runs is kept (#17.7)


def test_sync_keeps_an_edit_saved_while_it_ran(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_fill = docgen.family.fill_document
    edited = README.replace("Outro.", "Outro, edited while sync ran.")

    def fill_and_edit(*args: object, **kwargs: object) -> object:
        result = real_fill(*args, **kwargs)  # type: ignore[arg-type]
        (project / "README.md").write_text(edited)  # same inode, another size
        return result

    monkeypatch.setattr(docgen.family, "fill_document", fill_and_edit)
    result = run("sync")
    assert (result.code, result.out, result.err) == (2, "", f"README.md: {CHANGED_MEANWHILE}\n")
    assert (project / "README.md").read_text() == edited
    assert no_temp_files(project)


def test_sync_sees_an_edit_of_the_same_size_and_time(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Compared byte for byte too: a save within the file system's clock tick keeps size and mtime."""
    real_fill = docgen.family.fill_document
    readme = project / "README.md"

    def fill_and_edit(*args: object, **kwargs: object) -> object:
        result = real_fill(*args, **kwargs)  # type: ignore[arg-type]
        info = readme.stat()
        with readme.open("r+b") as handle:
            handle.write(b"X")
        os.utime(readme, ns=(info.st_atime_ns, info.st_mtime_ns))
        return result

    monkeypatch.setattr(docgen.family, "fill_document", fill_and_edit)
    result = run("sync")
    assert (result.code, result.err) == (2, f"README.md: {CHANGED_MEANWHILE}\n")
    assert readme.read_text() == "X" + README[1:]


@pytest.mark.parametrize("edited", ["README.md", "pyproject.toml"])
def test_init_keeps_an_edit_saved_while_it_ran(
    chdir_tmp: Path, monkeypatch: pytest.MonkeyPatch, edited: str
) -> None:
    make_tree(chdir_tmp, {"README.md": "# R\n", "Dockerfile": DOCKERFILE, "pyproject.toml": "[project]\n"})
    real_add = docgen.init.add_to_pyproject

    def add_and_edit(*args: object, **kwargs: object) -> str:
        result = real_add(*args, **kwargs)  # type: ignore[arg-type]
        (chdir_tmp / edited).write_text((chdir_tmp / edited).read_text() + "# saved meanwhile\n")
        return result

    monkeypatch.setattr(docgen.init, "add_to_pyproject", add_and_edit)
    before = files_of(chdir_tmp)
    result = run("init")
    assert (result.code, result.out, result.err) == (2, "", f"{edited}: {CHANGED_MEANWHILE}\n")
    after = files_of(chdir_tmp)
    assert after.pop(edited).endswith(b"# saved meanwhile\n")
    before.pop(edited)
    assert after == before


def test_init_keeps_a_config_created_while_it_ran(chdir_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_tree(chdir_tmp, {"README.md": "# R\n", "Dockerfile": DOCKERFILE})
    real_add = docgen.init.add_to_pyproject

    def add_and_create(*args: object, **kwargs: object) -> str:
        result = real_add(*args, **kwargs)  # type: ignore[arg-type]
        (chdir_tmp / "docgen.toml").write_text("# mine\n")
        return result

    monkeypatch.setattr(docgen.init, "add_to_pyproject", add_and_create)
    result = run("init")
    assert (result.code, result.err) == (2, f"docgen.toml: {CHANGED_MEANWHILE}\n")
    assert (chdir_tmp / "docgen.toml").read_text() == "# mine\n"
    assert (chdir_tmp / "README.md").read_text() == "# R\n"


# ---------------------------------------------------------------------------------------------------
# Temporary files of a killed run are removed by the next one, and only those (#17.10a)


def test_sync_removes_the_stale_temporary_files_of_a_killed_run(
    project: Path, request: pytest.FixtureRequest
) -> None:
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead_pid = int(dead.stdout)
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    request.addfinalizer(lambda: (live.kill(), live.wait()))
    live_pid = live.pid  # a sync still running, as far as its id tells
    old = time.time() - STALE_AFTER - 10
    ancient = time.time() - LEGACY_STALE_AFTER - 10
    temps = {
        f".README.md.{dead_pid}.abc_1234.docgen-tmp": (old, False),  # its process is gone: removed
        f".README.md.{dead_pid}.abc_5678.docgen-tmp": (time.time(), True),  # just written: kept a minute
        f".README.md.{live_pid}.abc_9012.docgen-tmp": (old, True),  # a sync still running: kept
        ".README.md.q7w_e9r0.docgen-tmp": (ancient, False),  # written before docgen named its pid
        ".README.md.q7w_e9r1.docgen-tmp": (old, True),  # the same, recent: could be a live run's
        f".README.md.{live_pid}.abc_3456.docgen-tmp.bak": (ancient, True),  # not docgen's name
        f".OTHER.md.{dead_pid}.abc_1234.docgen-tmp": (ancient, True),  # not an output of this run
        f".README.md.{dead_pid}.toolongname.docgen-tmp": (ancient, True),  # not what tempfile draws
    }
    for name, (mtime, _) in temps.items():
        (project / name).write_text("partial")
        os.utime(project / name, (mtime, mtime))
    (project / f".README.md.{dead_pid}.dir_5678.docgen-tmp").mkdir()  # not a file: kept
    assert run("sync").code == 0
    left = {p.name for p in project.iterdir() if ".docgen-tmp" in p.name}
    assert left == {name for name, (_, kept) in temps.items() if kept} | {
        f".README.md.{dead_pid}.dir_5678.docgen-tmp"
    }


def test_a_run_names_its_temporary_files_with_its_process_id(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    real_replace = os.replace

    def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        if ".docgen_cache" not in Path(dst).parts:  # the settings cache is docgen's own folder
            seen.append(Path(src).name)
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    assert run("sync").code == 0
    assert len(seen) == 1
    assert seen[0].startswith(f".README.md.{os.getpid()}.") and seen[0].endswith(".docgen-tmp")
    assert no_temp_files(project)
    own = project / seen[0]  # a file of this (running) process is never stale by its id
    own.write_text("partial")
    os.utime(own, (time.time() - STALE_AFTER - 10,) * 2)
    assert docgen.files.remove_stale_temps([project / "README.md"]) == []


def test_two_syncs_at_once_both_succeed(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The file changed since it was read, but into exactly what this run writes: another `sync`."""
    real_fill = docgen.family.fill_document

    def fill_and_race(*args: object, **kwargs: object) -> object:
        result = real_fill(*args, **kwargs)  # type: ignore[arg-type]
        docgen.files.write_atomic(project / "README.md", result[0])  # type: ignore[index]
        return result

    monkeypatch.setattr(docgen.family, "fill_document", fill_and_race)
    result = run("sync")
    assert (result.code, result.out, result.err) == (0, "README.md: updated\n", "")
    monkeypatch.undo()
    assert run("check").code == 0


def test_init_removes_the_stale_temporary_files_of_a_killed_run(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"README.md": "# R\n", "Dockerfile": DOCKERFILE, "pyproject.toml": "[project]\n"})
    ancient = time.time() - LEGACY_STALE_AFTER - 10
    for name in (".README.md.q7w_e9r0.docgen-tmp", ".pyproject.toml.q7w_e9r0.docgen-tmp"):
        (chdir_tmp / name).write_text("partial")
        os.utime(chdir_tmp / name, (ancient, ancient))
    assert run("init").code == 0
    assert no_temp_files(chdir_tmp)


def test_the_fingerprint_never_reads_a_template_file_linked_out(project: Path, secret: Path) -> None:
    """A link to a file out of the project counts by where it points, as a link to a folder does: a
    digest of `/proc/self/environ` is not put in a fingerprint, and the fast path of `check` steps aside."""
    from docgen import fingerprint

    (project / "tpl").mkdir()
    (project / "tpl" / "notes.txt").symlink_to(secret)
    outside: list[str] = []
    first = fingerprint.templates_digest(str(project / "tpl"), str(project), outside)
    assert outside == [str(project / "tpl" / "notes.txt")]
    secret.write_text(SECRET + " changed\n")
    assert fingerprint.templates_digest(str(project / "tpl"), str(project)) == first


def test_ctrl_c_between_two_renames_puts_back_the_first(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    add_second_output(project)
    before = files_of(project)
    real_replace = os.replace

    def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        if Path(dst).name == "second.md":
            raise KeyboardInterrupt
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    assert run("sync").code == 130
    assert files_of(project) == before
    assert no_temp_files(project)


def test_a_plugin_config_name_too_long_is_a_plugin_error(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "site",
        site_files(**{"mkdocs.yml": f"site_name: t\nplugins:\n  - docgen:\n      config: {LONG}\n"}),
    )
    from mkdocs.exceptions import PluginError

    with pytest.raises(PluginError) as info:
        page_markdown(root / "mkdocs.yml", "page.md")
    assert (
        str(info.value) == f"docgen: {root / LONG}: file name too long (longer than the file system allows)"
    )


def test_an_output_named_like_a_temporary_file_is_not_removed(project: Path) -> None:
    """Contrived, but docgen never deletes a file it was asked to fill."""
    odd = ".README.md.q7w_e9r0.docgen-tmp"
    make_tree(
        project, {odd: README, "pyproject.toml": PYPROJECT.replace('"README.md"', f'"README.md", "{odd}"')}
    )
    ancient = time.time() - LEGACY_STALE_AFTER - 10
    os.utime(project / odd, (ancient, ancient))
    assert run("sync").code == 0
    assert "ROCM_VERSION" in (project / odd).read_text()


def test_a_full_disk_on_the_second_output_changes_nothing(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every new text is written to its temporary file before the first rename."""
    add_second_output(project)
    before = files_of(project)
    renames: list[str] = []
    real_replace, real_fsync = os.replace, os.fsync
    monkeypatch.setattr(os, "replace", lambda src, dst: renames.append(dst) or real_replace(src, dst))
    written = []

    def fsync(fd: int) -> None:
        written.append(fd)
        if len(written) == 2:
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    result = run("sync")
    assert (result.code, result.err) == (2, "second.md: cannot write: No space left on device\n")
    assert [r for r in renames if ".docgen_cache" not in Path(r).parts] == []  # its own cache aside
    assert files_of(project) == before
    assert no_temp_files(project)


# --------------------------------------------------------------------------------------------------
# Dockerfiles next to a README: one name rule and one way to fail for audit, init and the CLI


@pytest.mark.parametrize(
    ("name", "is_one"),
    [
        ("Dockerfile", True),
        ("Containerfile", True),
        ("Dockerfile.rocm6.2", True),
        ("Dockerfile-ubuntu", True),
        ("Dockerfile_llamacpp", True),
        ("h100.Dockerfile", True),
        ("cuda_dockerfile", True),
        ("arm-Dockerfile", True),
        ("Dockerfile.dockerignore", False),  # BuildKit's ignore file of `Dockerfile`
        ("Dockerfile.cu129.dockerignore", False),
        ("Dockerfile.md", False),
        ("Dockerfile-build.sh", False),
        ("Dockerfile~", False),
        ("Dockerfile22", True),  # one per Ubuntu release: Dockerfile22, Dockerfile24
        ("Dockerfile2x", False),
        # lower case (BuildKit reads `dockerfile` when there is no `Dockerfile`), a word written onto it
        ("dockerfile", True),
        ("dockerfile.gpu", True),
        ("dockerfile-cli-only.gpu", True),
        ("ROCmDockerfile", True),
        ("DockerfileOptimized", True),
        ("DockerfileOptimized.md", False),
        ("dockerfile_utils.py", False),
        ("Dockerfiles", False),
        ("README.md", False),
    ],
)
def test_one_name_rule_says_what_a_dockerfile_is_called(name: str, is_one: bool) -> None:
    assert docgen.files.is_dockerfile_name(name) is is_one


PLAIN = "FROM ubuntu:22.04\n"
NO_BLOCKS = "# Image\n\nBuilt on Ubuntu 22.04.\n"


def test_audit_without_config_passes_over_files_named_like_but_no_dockerfiles(chdir_tmp: Path) -> None:
    make_tree(
        chdir_tmp,
        {
            "README.md": NO_BLOCKS,
            "Dockerfile": PLAIN,
            "Dockerfile.dockerignore": "*.pyc\n",
            "Dockerfile.md": "x\n",
        },
    )
    result = run("audit", "README.md")
    assert (result.code, result.err) == (0, "")
    assert result.out == "README.md: no claim outside the docgen blocks contradicts Dockerfile\n"


def test_init_finds_a_containerfile_beside_the_readme(chdir_tmp: Path) -> None:
    make_tree(
        chdir_tmp, {"pyproject.toml": PYPROJECT, "app/README.md": NO_BLOCKS, "app/Containerfile": PLAIN}
    )
    result = run("init", "app/README.md")
    assert result.code == 0, result.err
    assert 'dockerfile = "app/Containerfile"' in (chdir_tmp / "pyproject.toml").read_text()


def test_init_takes_no_script_named_after_the_dockerfile_for_a_second_one(chdir_tmp: Path) -> None:
    make_tree(
        chdir_tmp,
        {
            "pyproject.toml": PYPROJECT,
            "app/README.md": NO_BLOCKS,
            "app/Dockerfile": PLAIN,
            "app/Dockerfile-build.sh": "docker build .\n",
        },
    )
    result = run("init", "app/README.md")
    assert result.code == 0, result.err
    assert 'dockerfile = "app/Dockerfile"' in (chdir_tmp / "pyproject.toml").read_text()


@pytest.fixture
def unreadable_envs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Folders named `envs` cannot be listed (as a folder without read permission, which root reads)."""
    real_scandir = os.scandir

    def scandir(path: str | os.PathLike[str]) -> object:
        if os.path.basename(os.fspath(path)) == "envs":
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)


FAMILY = {"docker/README.md": NO_BLOCKS, "docker/Dockerfile": PLAIN, "docker/envs/Dockerfile.gb200": PLAIN}
CANNOT_LIST = "docker/envs: cannot read the folder (permission denied)\n"


@pytest.mark.usefixtures("unreadable_envs")
def test_audit_without_config_says_which_folder_it_cannot_read(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, FAMILY)
    result = run("audit", "docker/README.md")
    assert (result.code, result.out, result.err) == (2, "", CANNOT_LIST)


@pytest.mark.usefixtures("unreadable_envs")
def test_audit_of_a_given_dockerfile_passes_over_a_subfolder_it_cannot_read(chdir_tmp: Path) -> None:
    # the Dockerfiles beside the README only tell which sections are about other images: a folder
    # nobody may read there (a volume owned by root) does not stop the audit of the one given
    make_tree(chdir_tmp, FAMILY)
    result = run("audit", "docker/README.md", "--dockerfile", "docker/Dockerfile")
    assert (result.code, result.err) == (0, ""), result.err


@pytest.mark.usefixtures("unreadable_envs")
def test_init_of_a_folder_says_which_folder_it_cannot_read(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"pyproject.toml": PYPROJECT, **FAMILY})
    before = (chdir_tmp / "pyproject.toml").read_text()
    result = run("init", "docker")
    assert (result.code, result.out, result.err) == (2, "", CANNOT_LIST)
    assert (chdir_tmp / "pyproject.toml").read_text() == before


def test_init_of_a_folder_does_not_look_into_dot_folders(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"pyproject.toml": PYPROJECT, **FAMILY, "docker/.devcontainer/Dockerfile": PLAIN})
    result = run("init", "docker")
    assert result.code == 0, result.err
    assert ".devcontainer" not in (chdir_tmp / "pyproject.toml").read_text()


@pytest.mark.skipif(os.name != "posix", reason="symlinks")
def test_a_symlink_loop_named_like_a_dockerfile_is_no_dockerfile(chdir_tmp: Path) -> None:
    """`docker/Dockerfile.old -> Dockerfile.old` beside a README made `audit` and `init` say
    `docker: cannot read the folder (too many levels of symbolic links …)`, of a folder they had read;
    now it is passed over, as a link to a file that is not there is."""
    make_tree(chdir_tmp, {"docker/README.md": NO_BLOCKS, "docker/Dockerfile": PLAIN})
    (chdir_tmp / "docker/Dockerfile.old").symlink_to("Dockerfile.old")
    (chdir_tmp / "docker/Dockerfile.gone").symlink_to("Dockerfile.nothing")
    for argv in (
        ("audit", "docker/README.md"),
        ("audit", "docker/README.md", "--dockerfile", "docker/Dockerfile"),
    ):
        result = run(*argv)
        assert (result.code, result.err) == (0, ""), result.err
    make_tree(chdir_tmp, {"pyproject.toml": PYPROJECT})
    result = run("init", "docker")
    assert (result.code, result.err) == (0, ""), result.err
    assert 'dockerfile = "docker/Dockerfile"' in (chdir_tmp / "pyproject.toml").read_text()
