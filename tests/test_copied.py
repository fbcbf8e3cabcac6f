"""`docgen.copied`: the build-context files a Dockerfile's COPY and ADD put in the image, read as
BuildKit reads a source (globs, folders, `.dockerignore`, no link out of the context), for every rule
that reads them. The trees are small models written for these tests.
"""

from __future__ import annotations

import posixpath
from pathlib import Path

import pytest
from helpers import make_tree

from docgen import copied
from docgen.analysis import build_model
from docgen.copied import (
    above_context,
    context_path,
    copied_files,
    copied_texts,
    ignored,
    without_whole_context,
)
from docgen.model import ContextCopy


def _copies(tmp_path: Path, dockerfile: str, files: dict[str, str]) -> list[tuple[str, str, str | None]]:
    """(source, place in the image, context path or None) of each `CopiedFile` of `dockerfile`."""
    make_tree(tmp_path, {"Dockerfile": dockerfile, **files})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    folder = tmp_path.resolve()
    return [
        (c.source, c.dest, c.path.relative_to(folder).as_posix() if c.path else None)
        for c in copied_files(folder, model.context_copies, model.file)
    ]


def test_a_source_is_read_as_buildkit_reads_it() -> None:
    assert context_path("/app.py") == "app.py"
    assert context_path("./src/") == "src"
    assert context_path('"run me.sh"') == "run me.sh"
    assert [context_path(w) for w in (".", "./", "/", "")] == [".", ".", ".", "."]
    assert context_path("a/../b.sh") == "b.sh"  # inside the context after all
    # what the context does not hold
    for word in ("https://example.org/x.tar.gz", "git@example.org:acme/app.git", "../shared/run.sh", '["a",'):
        assert context_path(word) is None, word
    assert above_context("../shared/run.sh") and above_context("/../x")
    assert not above_context("a/../b.sh") and not above_context("https://example.org/../x")


def test_files_globs_and_folders_with_their_place_in_the_image(tmp_path: Path) -> None:
    dockerfile = (
        "FROM ubuntu:22.04\n"
        "COPY setup.sh /opt/setup.sh\n"
        "COPY conf/ /etc/app/\n"
        "COPY scripts/*.sh /usr/local/bin/\n"
        "COPY a.txt b.txt /data\n"
        "COPY /top.cfg ./\n"
        "COPY nginx*.conf /etc/nginx/nginx.conf\n"
        "COPY run.sh .\n"
    )
    files = {
        "setup.sh": "echo setup\n",
        "conf/main.ini": "x=1\n",
        "conf/extra/more.ini": "y=2\n",
        "scripts/go.sh": "echo go\n",
        "scripts/.hidden.sh": "echo hidden\n",  # `*` matches a leading dot in BuildKit
        "scripts/notes.md": "not copied\n",
        "a.txt": "a\n",
        "b.txt": "b\n",
        "top.cfg": "k=v\n",
        "nginx-prod.conf": "events {}\n",
        "run.sh": "echo run\n",
    }
    assert _copies(tmp_path, dockerfile, files) == [
        ("setup.sh", "/opt/setup.sh", "setup.sh"),
        ("conf/", "/etc/app/main.ini", "conf/main.ini"),
        ("conf/", "/etc/app/extra/more.ini", "conf/extra/more.ini"),
        ("scripts/*.sh", "/usr/local/bin/.hidden.sh", "scripts/.hidden.sh"),
        ("scripts/*.sh", "/usr/local/bin/go.sh", "scripts/go.sh"),
        ("a.txt", "/data/a.txt", "a.txt"),
        ("b.txt", "/data/b.txt", "b.txt"),
        ("/top.cfg", "./top.cfg", "top.cfg"),
        ("nginx*.conf", "/etc/nginx/nginx.conf", "nginx-prod.conf"),  # one match: the file is the dest
        ("run.sh", "./run.sh", "run.sh"),
    ]


def test_what_the_context_does_not_hold_gives_nothing_or_a_missing_source(tmp_path: Path) -> None:
    dockerfile = (
        "FROM ubuntu:22.04\n"
        "ARG FLAVOR\n"
        "COPY ../shared/run.sh /opt/\n"
        "ADD https://example.org/tool.tar.gz /opt/\n"
        "COPY --from=builder /out /opt/out\n"
        "COPY <<EOF /etc/motd\nhello\nEOF\n"
        "COPY gone.sh ${FLAVOR}.cfg /opt/\n"
        "COPY empty/ /opt/empty/\n"
        "COPY link.sh /opt/\n"
    )
    make_tree(tmp_path / "outside", {"secret.sh": "echo secret\n"})
    context = tmp_path / "ctx"
    (context / "empty").mkdir(parents=True)
    (context / "link.sh").symlink_to(tmp_path / "outside" / "secret.sh")
    # `..`, a URL, another stage, a heredoc: nothing; a file not there and an unset variable: missing;
    # an empty folder is there; a link out of the context is not read, and is no missing source either
    assert _copies(context, dockerfile, {}) == [
        ("gone.sh", "/opt/", None),
        ("${FLAVOR}.cfg", "/opt/", None),
    ]


def test_the_dockerignore_leaves_files_out(tmp_path: Path) -> None:
    dockerfile = "FROM ubuntu:22.04\nCOPY . /app\nCOPY secrets.env /app/\n"
    files = {
        ".dockerignore": "# build junk\n*.log\n**/cache\n!keep.log\n/secrets.env\n",
        "main.py": "print()\n",
        "run.log": "x\n",
        "keep.log": "kept\n",
        "sub/deep.log": "not at the top: `*.log` is the top's only\n",
        "sub/cache/blob": "x\n",
        "secrets.env": "TOKEN=x\n",
    }
    found = _copies(tmp_path, dockerfile, files)
    assert [path for _, _, path in found] == [
        ".dockerignore",  # (BuildKit sends it too)
        "Dockerfile",
        "keep.log",
        "main.py",
        "sub/deep.log",
        None,  # `COPY secrets.env`: the build fails, the file is not in the context
    ]
    assert found[-1][0] == "secrets.env"


def test_the_dockerfile_s_own_ignore_file_wins(tmp_path: Path) -> None:
    files = {
        "Dockerfile.dockerignore": "tests\n",
        ".dockerignore": "src\n",
        "src/app.py": "print()\n",
        "tests/test_app.py": "assert True\n",
    }
    found = _copies(tmp_path, "FROM python:3.12\nCOPY src tests /app/\n", files)
    assert found == [("src", "/app/app.py", "src/app.py"), ("tests", "/app/", None)]


@pytest.mark.parametrize(
    ("pattern", "path", "left_out"),
    [
        ("*.md", "README.md", True),
        ("*.md", "docs/guide.md", False),
        ("**/*.md", "docs/guide.md", True),
        ("docs", "docs/guide.md", True),  # a folder left out leaves out what is below it
        ("doc?", "docs/guide.md", True),
        ("[a-c]*.txt", "b.txt", True),
        ("[!a-c]*.txt", "b.txt", False),
        ("build/**", "build/x/y.o", True),
        ("build/**", "builder/y.o", False),
    ],
)
def test_dockerignore_patterns_match_as_buildkit_matches_them(
    tmp_path: Path, pattern: str, path: str, left_out: bool
) -> None:
    file = tmp_path / ".dockerignore"
    file.write_text(pattern + "\n")
    assert ignored(path, copied.ignore_rules(file)) is left_out


def test_copied_texts_reads_within_the_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_tree(
        tmp_path,
        {"Dockerfile": "FROM ubuntu:22.04\nCOPY a.sh b.sh gone.sh /opt/\n", "a.sh": "one\n", "b.sh": "two\n"},
    )
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    read = copied_texts(model.file, model.context_copies)
    assert read is not None
    assert [(f.name, text) for f, text in read[0]] == [("a.sh", "one\n"), ("b.sh", "two\n")]
    assert read[1] == frozenset({"gone.sh"})
    copied_texts.cache_clear()
    monkeypatch.setattr(copied, "FILE_LIMIT", 1)
    assert copied_texts(model.file, model.context_copies) is None
    copied_texts.cache_clear()
    monkeypatch.setattr(copied, "FILE_LIMIT", 2)
    monkeypatch.setattr(copied, "TEXT_LIMIT", 5)
    assert copied_texts(model.file, model.context_copies) is None
    copied_texts.cache_clear()


def test_without_whole_context_keeps_the_named_sources() -> None:
    copies = (ContextCopy(0, 2, (".", "run.sh"), "/app/"), ContextCopy(0, 3, ("./",), "/srv"))
    assert [c.sources for c in without_whole_context(copies)] == [("run.sh",), ()]


def test_a_dockerignore_pattern_python_cannot_read_leaves_nothing_out(tmp_path: Path) -> None:
    # `[z-a]` is a range no regular expression takes: it is passed over, not raised
    file = tmp_path / ".dockerignore"
    file.write_text("[z-a]*\n*.log\n")
    rules = copied.ignore_rules(file)
    assert len(rules) == 1 and ignored("x.log", rules) and not ignored("zebra", rules)


def test_a_checkout_s_git_folder_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`COPY . .` of a checkout: the objects of `.git` would fill `FILE_LIMIT` before the files that matter;
    version-control folders are not walked. A folder named like one elsewhere in a path is still read."""
    objects = {f".git/objects/{n:02x}/obj": "x\n" for n in range(6)}
    files = {"app/run.sh": "echo hi\n", "docs/.gitkeep": "", **objects, "vendor/git/notes.txt": "keep\n"}
    got = _copies(tmp_path, "FROM ubuntu:22.04\nCOPY . /src\n", files)
    paths = [path for _, _, path in got]
    assert "app/run.sh" in paths and "vendor/git/notes.txt" in paths and "docs/.gitkeep" in paths
    assert not [p for p in paths if p and p.startswith(".git/")]
    copied_texts.cache_clear()
    monkeypatch.setattr(copied, "FILE_LIMIT", 4)  # six objects would pass it; the other files do not
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    read = copied_texts(model.file, model.context_copies)
    assert read is not None
    assert "echo hi\n" in [text for _, text in read[0]]
    copied_texts.cache_clear()


def test_placed_finds_each_file_where_copied_files_puts_it(tmp_path: Path) -> None:
    """`placed` (the image's side: which context file is at a path) and `copied_files` (the context's
    side: where each file goes) are one reading: every file found one way is found the other."""
    dockerfile = (
        "FROM ubuntu:22.04\n"
        "WORKDIR /srv\n"
        "COPY setup.sh /opt/setup.sh\n"
        "COPY conf/ /etc/app/\n"
        "COPY scripts/*.sh /usr/local/bin/\n"
        "COPY a.txt b.txt /data\n"
        "COPY /top.cfg ./\n"
        "COPY run.sh .\n"
    )
    files = {
        "setup.sh": "",
        "conf/app.toml": "",
        "conf/sub/extra.toml": "",
        "scripts/x.sh": "",
        "scripts/y.sh": "",
        "a.txt": "",
        "b.txt": "",
        "top.cfg": "",
        "run.sh": "",
        "ignored/skip.sh": "",
        ".dockerignore": "conf/sub\n",
    }
    make_tree(tmp_path, {"Dockerfile": dockerfile, **files})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    folder = tmp_path.resolve()
    rules = copied.dockerignore(folder, model.file)
    by_line = {c.line: c for c in model.context_copies}
    seen = 0
    for each in copied_files(folder, model.context_copies, model.file):
        assert each.path is not None
        place = posixpath.normpath(posixpath.join("/srv", each.dest))
        assert copied.placed(folder, by_line[each.line], place, "/srv", rules) == each.path.resolve()
        seen += 1
    assert seen == 8  # conf/sub left out
    # what is not copied there: a place nothing is put, a file the `.dockerignore` leaves out
    assert copied.placed(folder, by_line[4], "/etc/app/sub/extra.toml", "/srv", rules) is None
    assert copied.placed(folder, by_line[4], "/etc/app/sub/extra.toml", "/srv") is not None  # no rules
    assert copied.placed(folder, by_line[3], "/opt/other.sh", "/srv", rules) is None
    # a folder copied: its place is the folder
    assert copied.placed(folder, by_line[4], "/etc/app", "/srv", rules) == (folder / "conf")


def test_dockerignore_is_the_one_file_buildkit_reads(tmp_path: Path) -> None:
    make_tree(tmp_path, {".dockerignore": "*.log\n", "app.Dockerfile.dockerignore": "*.tmp\n"})
    context = copied.dockerignore(tmp_path)
    own = copied.dockerignore(tmp_path, str(tmp_path / "app.Dockerfile"))
    assert ignored("x.log", context) and not ignored("x.tmp", context)
    assert ignored("x.tmp", own) and not ignored("x.log", own)
    assert copied.dockerignore(tmp_path / "nothing") == ()


def test_a_folder_linking_out_of_the_context_is_not_listed(tmp_path: Path) -> None:
    # `COPY conf/ /etc/app/` where conf links to a folder outside the context: BuildKit copies the link;
    # docgen lists nothing outside
    make_tree(tmp_path / "outside", {"a.cfg": "x\n", "b.cfg": "y\n"})
    context = tmp_path / "ctx"
    context.mkdir()
    (context / "conf").symlink_to(tmp_path / "outside", target_is_directory=True)
    listed: list[str] = []
    real_walk = copied.os.walk

    def walk(path: object, *args: object, **kwargs: object) -> object:
        listed.append(str(path))
        return real_walk(path, *args, **kwargs)  # type: ignore[call-overload]

    copied.os.walk = walk  # type: ignore[assignment]
    try:
        assert _copies(context, "FROM ubuntu:22.04\nCOPY conf/ /etc/app/\n", {}) == []
    finally:
        copied.os.walk = real_walk
    assert listed == []


@pytest.mark.parametrize(
    ("pattern", "path", "copies"),
    [
        ("nodes", "nodes/fetch.py", True),  # a folder: every file below it
        ("nodes/*.py", "nodes/fetch.py", True),
        ("*.py", "fetch.py", True),
        ("*.py", "nodes/fetch.py", False),  # a star stays within one name (fnmatch's crosses `/`)
        ("**/fetch.py", "nodes/fetch.py", True),
        ("**/fetch.py", "a/nodes/fetch.py", False),  # `**` is `*`: no deeper (a shell's globstar is)
        ("nod?s", "nodes/fetch.py", True),  # a folder a glob matches is copied whole
        ("nodes/[^f]etch.py", "nodes/fetch.py", False),  # Go's negation
        ("nodes/[!f]etch.py", "nodes/fetch.py", True),  # a class of `!` and `f` (fnmatch's negation)
        ("nodes/[a-g]etch.py", "nodes/fetch.py", True),
        ("nodes/\\*.py", "nodes/*.py", True),  # `\` takes the star as written
        ("nodes/\\*.py", "nodes/fetch.py", False),
        ("nodes/[", "nodes/[", True),  # the file itself, named as written
        ("nodes/[.py", "nodes/a.py", False),  # a class never closed: Go refuses the pattern
        ("nodes/[z-a].py", "nodes/a.py", False),
    ],
)
def test_copies_path_matches_as_buildkit(pattern: str, path: str, copies: bool) -> None:
    assert copied.copies_path(pattern, path) is copies


_GLOB_TREE = {
    "fetch.py": "",
    "nodes/fetch.py": "",
    "nodes/getch.py": "",
    "nodes/!etch.py": "",
    "nodes/*.py": "",
    "nodes/sub/deep.py": "",
    "a/nodes/fetch.py": "",
}


@pytest.mark.parametrize(
    ("pattern", "names"),
    [
        ("**/fetch.py", ["nodes/fetch.py"]),  # `**` is `*` (pathlib's reaches fetch.py, a/nodes/fetch.py)
        ("*/fetch.py", ["nodes/fetch.py"]),
        ("*.py", ["fetch.py"]),  # a star stays within one name
        ("nodes/[!f]etch.py", ["nodes/!etch.py", "nodes/fetch.py"]),  # a class of `!` and `f`
        ("nodes/[^f]etch.py", ["nodes/!etch.py", "nodes/getch.py"]),  # Go's negation (fnmatch's: `^`, `f`)
        ("nodes/\\*.py", ["nodes/*.py"]),  # `\` takes the star as written
        ("no?es", ["nodes"]),  # a folder that matches: taken whole, not walked for more
        ("*/*", ["a/nodes", "nodes/!etch.py", "nodes/*.py", "nodes/fetch.py", "nodes/getch.py", "nodes/sub"]),
        ("nodes[^x]fetch.py", ["nodes/fetch.py"]),  # a negated class matches `/` in Go
        ("nodes[.-0]fetch.py", ["nodes/fetch.py"]),  # so does a range holding it
        ("nodes/[e-g]etch.py", ["nodes/fetch.py", "nodes/getch.py"]),
        ("nodes", ["nodes"]),
        ("nodes/[.py", []),  # a class never closed: Go refuses the pattern
        ("${DIR}/*.py", []),
        (".", ["."]),
    ],
)
def test_matched_finds_what_buildkit_copies(tmp_path: Path, pattern: str, names: list[str]) -> None:
    make_tree(tmp_path, _GLOB_TREE)
    assert [p.relative_to(tmp_path).as_posix() for p in copied.matched(tmp_path, pattern)] == names
    # one reading: what `matched` finds is what `copies_path` says the pattern copies
    for name in names:
        assert name == "." or copied.copies_path(pattern, name), name


def test_a_glob_does_not_walk_into_a_linked_folder(tmp_path: Path) -> None:
    # BuildKit's walk of the context takes a link as it is: nothing below `linked` matches a glob
    make_tree(tmp_path, {"nodes/fetch.py": ""})
    (tmp_path / "linked").symlink_to(tmp_path / "nodes", target_is_directory=True)
    assert [p.name for p in copied.matched(tmp_path, "*/fetch.py")] == ["fetch.py"]
    assert copied.matched(tmp_path, "linked/*.py") == []
    assert [p.name for p in copied.matched(tmp_path, "link*")] == ["linked"]  # the link itself


def test_a_double_star_copies_no_deeper_than_one_star(tmp_path: Path) -> None:
    dockerfile = "FROM ubuntu:22.04\nCOPY **/fetch.py /app/\nCOPY nod?s /srv/\n"
    assert _copies(tmp_path, dockerfile, _GLOB_TREE) == [
        ("**/fetch.py", "/app/fetch.py", "nodes/fetch.py"),
        ("nod?s", "/srv/!etch.py", "nodes/!etch.py"),
        ("nod?s", "/srv/*.py", "nodes/*.py"),
        ("nod?s", "/srv/fetch.py", "nodes/fetch.py"),
        ("nod?s", "/srv/getch.py", "nodes/getch.py"),
        ("nod?s", "/srv/sub/deep.py", "nodes/sub/deep.py"),
    ]


def test_glob_matches_a_name_as_buildkit() -> None:
    assert copied.glob_matches("*.sh", "start.sh") and not copied.glob_matches("*.sh", "bin/start.sh")
    assert copied.glob_matches("[!s]tart.sh", "start.sh")  # `!` is a letter of the class
    assert not copied.glob_matches("[^s]tart.sh", "start.sh")
    assert copied.glob_matches("\\*.sh", "*.sh") and not copied.glob_matches("\\*.sh", "start.sh")
    assert not copied.glob_matches("[.sh", "[.sh")  # Go refuses the pattern: no name matches it


def test_a_link_to_nothing_named_itself_names_nothing(tmp_path: Path) -> None:
    (tmp_path / "gone.sh").symlink_to(tmp_path / "nowhere.sh")
    assert copied.matched(tmp_path, "gone.sh") == []
    assert _copies(tmp_path, "FROM ubuntu:22.04\nCOPY gone.sh /app/\n", {}) == [("gone.sh", "/app/", None)]
