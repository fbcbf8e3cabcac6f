"""`docgen init`: add empty marker blocks to a hand-written README and the config entry feeding it.

`add_blocks` puts each missing block right under the heading that already talks about it (ATX or
setext or `<hN>`, outside fenced code, `<details>` and list items; compared case-insensitively,
ignoring badges, link targets, punctuation and a leading section number) and appends the rest at the
end under new headings, before closing sections such as License or Contributing. It only inserts:
every other byte, line endings, a byte-order mark and the final newline (or its absence) are kept,
and a second run adds nothing. `add_to_pyproject` appends the `[[tool.docgen.images]]` entry; `init`
does the file I/O. The headings recognised are listed in `HEADINGS` (and in docs/getting-started.md).
"""

from __future__ import annotations

import os
import posixpath
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from docgen import cache, files, markdown, markers
from docgen.analysis import build_model
from docgen.config import DEFAULT_ARCH_ARG, STANDALONE, Config, file_name, parse_toml, resolve_path
from docgen.errors import ConfigError, DocgenError, UsageError
from docgen.markdown import Heading, bare, heading_key
from docgen.markers import DEFAULT_SECTIONS, SECTIONS
from docgen.rows import arch_value, hardware_of

if sys.version_info >= (3, 11):
    pass
else:  # pragma: no cover - exercised on Python 3.10 only
    pass

HEADINGS: Mapping[str, tuple[str, ...]] = {
    "hardware": (
        "Supported hardware",
        "Hardware support",
        "Hardware",
        "Supported GPUs",
        "GPU support",
        "Supported GPU architectures",
        "Supported architectures",
        "GPU targets",
        "GPU requirements",
    ),
    "versions": (
        "Key versions",
        "Versions",
        "Software versions",
        "Component versions",
        "Package versions",
        "Pinned versions",
    ),
    "contents": (
        "What the image contains",
        "Contents",
        "Image contents",
        "What's in the image",
        "What's inside",
        "Components",
        "Included software",
        "Installed software",
    ),
    # Not "Configuration" or "Environment variables": in image READMEs those describe run-time
    # settings, and a table of build arguments under them would mislead.
    "build-args": (
        "Build arguments",
        "Build args",
        "Build-time arguments",
        "Build options",
        "Build configuration",
        "Docker build arguments",
    ),
    # the sections of a README about a family of images (`docgen init FOLDER`)
    "images": (
        "Images",
        "Available images",
        "Docker images",
        "Container images",
        "Image variants",
        "Supported images",
        "Prebuilt images",
        "Image list",
    ),
    "matrix": (
        "Version matrix",
        "Versions matrix",
        "Compatibility matrix",
        "Component matrix",
        "Software matrix",
        "Support matrix",
    ),
}
"""Section → the headings it goes under, best first; matched case-insensitively, ignoring punctuation."""

NEW_HEADINGS: Mapping[str, str] = {
    "hardware": "Supported hardware",
    "versions": "Key versions",
    "contents": "What the image contains",
    "build-args": "Build arguments",
    "images": "Images",
    "matrix": "Version matrix",
}
"""The heading written above a block appended at the end of the file."""

FAMILY_SECTIONS = ("images", "matrix")
"""The sections `docgen init FOLDER` adds to the folder's README: a row per image, and the key
components × images."""

BACK_MATTER = (
    "licen",
    "contribut",
    "citation",
    "citing",
    "howtocite",
    "acknowledg",
    "seealso",
    "support",
    "contact",
    "references",
    "authors",
    "maintainers",
)
"""Starts of (loosely compared) headings that close a README: License, Contributing, Citation, See also …
New headings go before a run of these at the end, not after them."""

ARCH_ARGS = (
    DEFAULT_ARCH_ARG,
    "PYTORCH_ROCM_ARCH",
    "TORCH_CUDA_ARCH_LIST",
    "GPU_TARGETS",
    "AMDGPU_TARGETS",
    "GFX_ARCH",
    "CMAKE_CUDA_ARCHITECTURES",
    "CUDA_ARCHITECTURES",
    "CUDA_DOCKER_ARCH",
    "ROCM_DOCKER_ARCH",
    "SOC_VERSION",
)
"""Build args that usually list the GPU targets, best first: a new entry names the first one the
Dockerfile sets as its `arch-arg` when the configured one (by default `GPU_ARCH`) is not set there."""


@dataclass(frozen=True)
class Added:
    """One block `add_blocks` inserted."""

    section: str
    """The block name (`versions`)."""
    line: int
    """1-based line of the new begin marker in the new text."""
    heading: str | None
    """The existing heading it was put under, as a reader sees it (no badge, link target or tag); None
    when it was appended at the end."""
    before: str | None = None
    """For an appended block: the closing heading (License …) it was put before; None: the file's end."""


_SECTION_OF: dict[str, tuple[str, int]] = {
    heading_key(h): (name, rank) for name, options in HEADINGS.items() for rank, h in enumerate(options)
}


def _headings(lines: Sequence[str]) -> tuple[list[Heading], str | None]:
    """The headings a block may go under, and the fence left open at the end.

    Not those in fenced code (examples), in an HTML comment (the begin marker's `-->` would close
    it), inside `<details>` (a block there would be collapsed out of sight) or indented into a list
    item (a block there would end the list); an HTML heading only between blank lines (inside `<div>`
    or before unseparated text, a block would land in the HTML).
    """
    return [h for h in markdown.headings(lines) if not h.nested], markdown.fence_states(lines)[1]


def _new_level(headings: Sequence[Heading]) -> int:
    """Level of appended headings: below a lone `#` heading (a title), else beside the top ones (a
    README whose only heading is `## Build arguments` gets `## Key versions`, not `###`)."""
    if not headings:
        return 2
    top = min(h.level for h in headings)
    return 2 if top == 1 and sum(h.level == top for h in headings) == 1 else top


def _back_matter(headings: Sequence[Heading], level: int) -> Heading | None:
    """The first of the License/Contributing/… headings (`BACK_MATTER`) ending the file, if any.

    Only headings at `level` or above count; the first heading of the file (its title) never does.
    """
    start = None
    for heading in headings[1:]:
        if heading.level <= level:
            start = (start or heading) if heading.key.startswith(BACK_MATTER) else None
    return start


def _is_blank(line: str) -> bool:
    return not bare(line).strip()


def add_blocks(
    text: str, path: str, sections: Sequence[str] = DEFAULT_SECTIONS, append: bool = True
) -> tuple[str, list[Added]]:
    """`text` with an empty block for every section in `sections` it does not hold yet.

    A block goes under the best matching heading (see `HEADINGS`), after one blank line and followed
    by one; sections without a heading are appended at the end, in `sections` order, under new
    headings (`NEW_HEADINGS`), before the License, Contributing … sections closing the file if any
    (with `append=False` they are left out: only headings already there get blocks).
    Returns the new text and what was added, in line order. Raises `MarkerError` (naming `path`) when
    the markers already in `text` are broken.
    """
    unknown = [s for s in sections if s not in HEADINGS]
    if unknown:
        raise ValueError(f"unknown sections: {', '.join(unknown)}")
    blocks = markers.find_blocks(text, path, known=SECTIONS)
    present = {b.name for b in blocks}
    missing = [s for s in sections if s not in present]
    if not missing:
        return text, []
    newline = markers.newline_of(text)
    lines = markers.split_lines(text)
    original = list(lines)
    inside = {i for b in blocks for i in range(b.begin_line - 1, b.end_line)}
    headings, open_fence = _headings(lines)

    best: dict[str, tuple[int, Heading]] = {}
    for heading in headings:
        match = _SECTION_OF.get(heading.key)
        if match is None or heading.line - 1 in inside:
            continue
        name, rank = match
        if name in missing and (name not in best or rank < best[name][0]):
            best[name] = (rank, heading)

    def block(name: str) -> str:
        return f"<!-- BEGIN docgen:{name} -->{newline}<!-- END docgen:{name} -->"

    # Each block is added to the end of the line it follows, so no line index moves.
    for name, (_, heading) in best.items():
        after = heading.last - 1
        if not lines[after].endswith(("\n", "\r")):  # the heading ends the file without a newline
            lines[after] += newline + newline + block(name)
            continue
        following = after + 1
        lead = newline
        if following < len(lines) and _is_blank(lines[following]) and lines[following].endswith(("\n", "\r")):
            after, following, lead = following, following + 1, ""
        tail = newline if following < len(lines) and not _is_blank(lines[following]) else ""
        lines[after] += lead + block(name) + newline + tail

    appended = [s for s in missing if s not in best] if append else []
    closing = None
    if appended:
        level = _new_level(headings)
        parts = [f"{'#' * level} {NEW_HEADINGS[s]}{newline}{newline}{block(s)}{newline}" for s in appended]
        tail = newline.join(parts)
        # a heading inside an existing block is generated text, not where the file's back matter starts
        closing = _back_matter([h for h in headings if h.line - 1 not in inside], level)
        if closing is not None:
            # before the License, Contributing … sections that end the file, a blank line on each side
            prev = closing.line - 2  # a block added after this line already ends in a blank line
            lead = "" if _is_blank(original[prev]) or lines[prev] != original[prev] else newline
            lines[closing.line - 1] = lead + tail + newline + lines[closing.line - 1]
        else:
            lacks_newline = bool(lines) and bare(lines[-1]) != "" and not lines[-1].endswith(("\n", "\r"))
            has_text = any(bare(line).strip() for line in lines)
            if lacks_newline:
                lines[-1] += newline
            if open_fence is not None:
                # an unclosed fence runs to the end of the file and would swallow the new blocks;
                # closing it there changes nothing in how the file renders
                lines.append(open_fence + newline)
            if has_text and not _is_blank(lines[-1]):
                lines.append(newline)
            lines.append(tail[: -len(newline)] if lacks_newline else tail)

    new_text = "".join(lines)
    under = {name: heading.shown for name, (_, heading) in best.items()}
    before = closing.shown if appended and closing is not None else None
    added = [
        Added(b.name, b.begin_line, under.get(b.name), None if b.name in under else before)
        for b in markers.find_blocks(new_text, path, known=SECTIONS)
        if b.name in missing
    ]
    return new_text, added


# --------------------------------------------------------------------------------------------------
# pyproject.toml


def _toml_string(value: str) -> str:
    """`value` as a TOML basic string."""
    escapes = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
    out = []
    for char in value:
        if char in escapes:
            out.append(escapes[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        elif 0xD800 <= ord(char) <= 0xDFFF:
            raise ConfigError(f"path {value!r} is not valid Unicode and cannot be written to TOML")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _toml_value(value: Any) -> str:
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_string(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")  # pragma: no cover


def config_snippet(dockerfile: str, output: str) -> str:
    """The `[[tool.docgen.images]]` TOML telling `docgen sync` that `dockerfile` feeds `output`.

    Both paths are relative to the folder holding pyproject.toml, written with `/`.
    """
    return _append_entries(None, [{"dockerfile": dockerfile, "outputs": [output]}], standalone=False)


def _same_path(value: object, path: str) -> bool:
    def norm(p: str) -> str:
        return posixpath.normpath(p.replace("\\", "/"))

    return isinstance(value, str) and bool(value) and norm(value) == norm(path)


def add_to_pyproject(
    pyproject_text: str | None,
    dockerfile: str,
    output: str,
    arch_args: Sequence[str] = (),
    standalone: bool = False,
) -> str | None:
    """`pyproject_text` with a `[[tool.docgen.images]]` entry for `dockerfile` → `output` appended.

    Everything already there is kept byte for byte (line endings too). None (no file yet) gives a new
    file holding just the entry. When an image with the same Dockerfile exists, the new entry copies
    its `arch-arg`, `versions` and `names`, so the new output shows the same tables. Otherwise, when the
    arch arg in force is not among `arch_args` (those of `ARCH_ARGS` the Dockerfile sets, best first),
    the entry gets `arch-arg = arch_args[0]`, so Supported hardware lists them. Returns None when
    an image with that Dockerfile already lists that output. Raises `ConfigError` for invalid TOML or
    when appending cannot work (`[tool.docgen]` written as an inline table, `images` as an array).
    With `standalone`, the file is a docgen.toml: the same keys at its top level (`[[images]]`).
    """
    data = parse_toml(pyproject_text) if pyproject_text is not None else {}
    table = _docgen_table(data, standalone)
    images = table.get("images") if isinstance(table, dict) else None
    same = [
        image
        for image in (images if isinstance(images, list) else [])
        if isinstance(image, dict) and _same_path(image.get("dockerfile"), dockerfile)
    ]
    for image in same:
        outputs = image.get("outputs")
        if isinstance(outputs, list) and any(_same_path(o, output) for o in outputs):
            return None
    settings = {k: same[0][k] for k in ("arch-arg", "versions", "names") if same and k in same[0]}
    in_force = _arch_arg_in_force(table)
    if not same and arch_args and in_force not in arch_args:
        settings["arch-arg"] = arch_args[0]
    entry = {"dockerfile": dockerfile, "outputs": [output], **settings}
    return _append_entries(pyproject_text, [entry], standalone)


def _append_entries(
    pyproject_text: str | None, entries: Sequence[Mapping[str, Any]], standalone: bool
) -> str:
    """`pyproject_text` (None: no file yet) with a `[[tool.docgen.images]]` table per entry appended,
    everything already there kept byte for byte. Raises `ConfigError` when the result is not the
    configuration meant (`[tool.docgen]` or its `images` written inline)."""
    header = "[[images]]" if standalone else "[[tool.docgen.images]]"
    snippet = "\n".join(
        "\n".join([header, *(f"{key} = {_toml_value(value)}" for key, value in entry.items())]) + "\n"
        for entry in entries
    )
    if pyproject_text is None:
        return snippet
    newline = markers.newline_of(pyproject_text)
    new = pyproject_text
    if bare(new).strip() or len(markers.split_lines(new)) > 1:
        if not new.endswith(("\n", "\r")):
            new += newline
        if not _is_blank(markers.split_lines(new)[-1]):
            new += newline
    new += snippet.replace("\n", newline)
    try:
        parse_toml(new)
    except ConfigError:
        # `[tool.docgen]` or its `images` are written inline: a `[[tool.docgen.images]]` table added by
        # hand would be just as invalid, so the advice is an item for the inline array
        items = "\n".join(_toml_value(dict(entry)) for entry in entries)
        raise ConfigError(
            f"cannot append {header}: this file writes [tool.docgen] or its images inline; "
            f"add {'this item' if len(entries) == 1 else 'these items'} to the tool.docgen.images array "
            "by hand (creating the array if needed):\n" + items,
            "pyproject.toml",
        ) from None
    return new


# --------------------------------------------------------------------------------------------------
# the command


def _inside(root: Path, path: Path, why: str = "docgen only writes files inside it") -> Path:
    """`path` resolved; a UsageError when it is outside the project folder `root`."""
    try:
        return resolve_path(root, str(path.absolute()), "path")
    except ConfigError:
        resolved = path.resolve()
        if os.path.normpath(path.absolute()) == str(resolved):
            raise UsageError(f"outside the project folder {root}; {why}", files.display(path)) from None
        shown = os.path.relpath(path.absolute(), os.getcwd())  # the link, not where it leads
        message = f"a symlink to {resolved}, outside the project folder {root}; {why}"
        raise UsageError(message, shown) from None


def _dockerfiles(paths: Iterable[Path], root: Path) -> list[Path]:
    """`paths` (Dockerfiles: `files.dockerfiles_in`) resolved, each once, sorted; a `UsageError` for one
    that leads out of the project folder `root` (a symlink)."""
    return sorted({_inside(root, p, "the Dockerfile must be inside it too") for p in paths})


def find_dockerfile(readme: Path, config: Config) -> Path:
    """The Dockerfile documented by `readme` (resolved) when `--dockerfile` is not given.

    The configured image listing `readme` among its outputs; else the only `Dockerfile*` or
    `*.Dockerfile` next to a README below the project root; else the only one of those, the ones at
    the root and the ones under `docker/`. Otherwise a `UsageError` asking for `--dockerfile`.
    """
    for image in config.images:
        if readme in image.outputs:
            return image.dockerfile
    root = config.root.resolve()
    beside = _dockerfiles(files.dockerfiles_in(readme.parent), root)
    if len(beside) == 1 and readme.parent != root:
        return beside[0]
    found = _dockerfiles(
        [*beside, *files.dockerfiles_in(root), *files.dockerfiles_in(root / "docker", None)], root
    )
    if len(found) == 1:
        return found[0]
    display = files.display(readme)
    if not found:
        raise UsageError(
            "no Dockerfile found beside it, at the project root or under docker/; "
            "pass --dockerfile DOCKERFILE",
            display,
        )
    names = sorted(p.relative_to(root).as_posix() for p in found)
    shown = ", ".join(names[:5]) + (", …" if len(names) > 5 else "")
    raise UsageError(f"which Dockerfile does it describe? {shown}; pass --dockerfile DOCKERFILE", display)


def _arch_args(dockerfile: Path, configured: Iterable[str]) -> list[str] | None:
    """The build args of `ARCH_ARGS` and `configured` that `dockerfile` sets to a list of GPU targets
    (a value with a digit: not `default` or `native`), best first; None when it cannot be read."""
    try:
        model = build_model(dockerfile)
    except DocgenError:
        return None  # `docgen sync` will say why
    values = {name: arch_value(model, name)[0] or "" for name in dict.fromkeys([*ARCH_ARGS, *configured])}
    found = [name for name, value in values.items() if any(c.isdigit() for c in value)]
    if not found and hardware_of(model, DEFAULT_ARCH_ARG).image is not None:
        return [DEFAULT_ARCH_ARG]  # no list, but the base image's tag names the NPU (a CANN image)
    return found


def _read(path: Path, what: str) -> tuple[str, files.Snapshot]:
    return files.read_snapshot(
        path,
        not_found=f"{what} not found",
        not_a_file=f"{what} is not a regular file",
        folder=f"{what} is a folder, not a file",
        refuse_binary=True,
    )


def _refuse_dockerfile(readme: Path, shown: str, dockerfile: Path | None, config: Config) -> None:
    """A `UsageError` when the README to add blocks to is a Dockerfile: the one it would document,
    one configured, or a file named like one (Markdown appended to it would break the build)."""
    configured = {image.dockerfile for image in config.images}
    if readme == dockerfile or readme in configured or files.is_dockerfile_name(readme.name):
        raise UsageError(
            "is a Dockerfile, not a README; docgen adds its blocks to a Markdown file "
            "(Markdown appended to a Dockerfile would break its build)",
            shown,
        )


def init(
    readme: Path,
    dockerfile: Path | None,
    config: Config,
    out: TextIO,
    *,
    write: Callable[[Sequence[tuple[Path, str, files.Snapshot]]], None] = files.replace_all,
) -> int:
    """Add the missing blocks to `readme` and the config entry feeding it; print what was done.

    `dockerfile` is the `--dockerfile` given (None to find it, see `find_dockerfile`); `write` writes
    the files, all or none (default: `docgen.files.replace_all`, which also keeps an edit saved while
    init ran). Every check runs before the first write, so a mistake (broken markers, an unknown
    Dockerfile, invalid TOML) leaves both files as they were. Returns 0.
    """
    root = config.root.resolve()
    readme_path = _inside(root, readme)
    readme_display = files.display(readme)
    _refuse_dockerfile(readme_path, readme_display, None, config)
    text, readme_read = _read(readme_path, "README")
    if dockerfile is not None:
        if not dockerfile.is_file():
            raise UsageError(
                "Dockerfile not found" if not dockerfile.exists() else "not a file", str(dockerfile)
            )
        dockerfile_path = _inside(root, dockerfile, "the Dockerfile must be inside it too")
        for image in config.images:
            if readme_path in image.outputs and image.dockerfile != dockerfile_path:
                raise UsageError(
                    f"already generated from {image.display} ({config.source}); "
                    "drop --dockerfile, or remove it from that image's outputs first",
                    readme_display,
                )
    else:
        dockerfile_path = find_dockerfile(readme_path, config)
    _refuse_dockerfile(readme_path, readme_display, dockerfile_path, config)
    arch_args = _arch_args(dockerfile_path, [image.arch_arg for image in config.images])
    new_text, added = add_blocks(text, readme_display)
    no_targets = arch_args == [] and any(a.section == "hardware" and a.heading is None for a in added)
    if no_targets:
        # a CPU image, or one that leaves the GPU targets to its base image: a new section would only
        # say "No GPU targets"
        new_text, added = add_blocks(text, readme_display, [s for s in DEFAULT_SECTIONS if s != "hardware"])

    # docgen.toml when the project has one, or has no pyproject.toml (a repository without Python)
    standalone = (root / STANDALONE).exists() or not (root / "pyproject.toml").exists()
    pyproject_link = root / (STANDALONE if standalone else "pyproject.toml")
    pyproject = pyproject_link.resolve()
    if pyproject.parent != root:
        # docgen reads the paths in a pyproject.toml relative to the folder of the file a link points to
        try:
            shown = pyproject_link.relative_to(Path.cwd().resolve()).as_posix()
        except ValueError:
            shown = str(pyproject_link)
        raise UsageError(
            f"a symlink to {pyproject}, in another folder; docgen will not write through it "
            "(add the [[tool.docgen.images]] entry there by hand, with paths relative to that folder)",
            shown,
        )
    pyproject_display = files.display(pyproject)
    dockerfile_rel = dockerfile_path.relative_to(root).as_posix()
    readme_rel = readme_path.relative_to(root).as_posix()
    configured = any(i.dockerfile == dockerfile_path and readme_path in i.outputs for i in config.images)
    new_pyproject = None
    if not configured:
        current, pyproject_read = (
            _read(pyproject, pyproject_link.name)
            if pyproject.exists()
            else (None, files.Snapshot.missing(pyproject))
        )
        if pyproject == readme_path:
            raise UsageError(
                "is the configuration file; docgen adds its blocks to a Markdown file", readme_display
            )
        try:
            new_pyproject = add_to_pyproject(current, dockerfile_rel, readme_rel, arch_args or (), standalone)
        except DocgenError as exc:
            exc.path = pyproject_display
            raise

    changes = [(readme_path, new_text, readme_read)] if added else []
    if new_pyproject is not None:
        changes.append((pyproject, new_pyproject, pyproject_read))
    files.remove_stale_temps([readme_path, pyproject])  # left by a run that was killed
    write(changes)  # both or neither: never one file changed and not the other

    for line in _added_lines(readme_display, added):
        print(line, file=out)
    if not added:
        print(
            f"{readme_display}: has every docgen block {'it needs ' if no_targets else ''}already", file=out
        )
    if no_targets:
        print(
            f'note: no "Supported hardware" section: {dockerfile_rel} sets no list of GPU targets '
            f"({', '.join(ARCH_ARGS[:3])} …); to add one, set arch-arg in {pyproject_display} "
            "and run docgen init again",
            file=out,
        )
    if any(item.heading is not None for item in added):
        print(
            "note: hand-written tables under these headings are left as they are; compare them with "
            f"the generated blocks (docgen audit {readme_display}) and delete them",
            file=out,
        )
    arrow = f"{dockerfile_rel} -> {readme_rel}"
    if new_pyproject is not None:
        written = parse_toml(new_pyproject)
        arch = _docgen_table(written, standalone)["images"][-1].get("arch-arg")
        shown = f" (arch-arg = {_toml_string(arch)})" if isinstance(arch, str) else ""
        header = "[[images]]" if standalone else "[[tool.docgen.images]]"
        print(f"{pyproject_display}: added {header} for {arrow}{shown}", file=out)
    else:
        print(f"{pyproject_display}: already configures {arrow}", file=out)
    print("next: run docgen sync", file=out)
    return 0


# --------------------------------------------------------------------------------------------------
# a folder of Dockerfiles: `docgen init docker/`


@dataclass(frozen=True)
class _Member:
    """One Dockerfile of the folder: its path from the project root, the image name the config will
    give it, and the README about it alone (with a heading for one of the image's sections), if any."""

    path: str
    name: str
    readme: str | None


def _own_readme(dockerfile: Path, name: str, folder: Path, alone: bool, root: Path) -> str | None:
    """The README about `dockerfile` alone, from the project root: `README.md` of its own folder (when
    that folder holds no other Dockerfile and is not the family's), else `README.NAME.md` or
    `README-NAME.md` beside it."""
    candidates = [dockerfile.parent / f"README.{name}.md", dockerfile.parent / f"README-{name}.md"]
    if alone and dockerfile.parent != folder:
        candidates.insert(0, dockerfile.parent / "README.md")
    for candidate in candidates:
        if candidate.is_file():  # a symlink out of the project is refused: init would write through it
            return _inside(root, candidate).relative_to(root).as_posix()
    return None


def _family_patterns(prefix: str) -> list[str]:
    """The globs a family entry may use for Dockerfiles under `prefix` (`docker/`), best first."""
    return [
        f"{prefix}Dockerfile.*",
        f"{prefix}*.Dockerfile",
        f"{prefix}*/Dockerfile",
        f"{prefix}**/Dockerfile",
        f"{prefix}**/Dockerfile.*",
        f"{prefix}**/*.Dockerfile",
        f"{prefix}**/Dockerfile*",
    ]


def _readme_pattern(member: _Member) -> str | None:
    """The member's own README with its name as `{name}` (`docker/{name}/README.md`): the outputs
    entry a glob can share, or None."""
    if member.readme is None:
        return None
    return member.readme.replace(member.name, "{name}") if member.name in member.readme else member.readme


def family_entries(members: Sequence[_Member], root: Path, prefix: str, index: str) -> list[dict[str, Any]]:
    """The `[[tool.docgen.images]]` entries for `members`: one glob entry per set of files a glob
    matches (no other Dockerfile, no name twice, the same kind of own README; files it matches that
    are no Dockerfile, such as `Dockerfile.cuda.dockerignore`, in its `exclude`), largest first, and a
    plain entry for each file left. Every entry lists the index README `index`."""
    import glob

    left = {m.path: m for m in members}
    entries: list[dict[str, Any]] = []
    expanded = {pattern: cache.expand(str(root), pattern) for pattern in _family_patterns(prefix)}
    while left:
        best: tuple[str, list[_Member], list[str]] | None = None
        for pattern, matched in expanded.items():  # (regular files only)
            others = [p for p in matched if p not in left]
            if any(files.is_dockerfile_name(posixpath.basename(p)) for p in others):
                continue  # a Dockerfile configured already, or taken by another entry
            group = [left[p] for p in matched if p in left]
            if len(group) < 2 or any(m.name != file_name(root / m.path, root) for m in group):
                continue  # a name of its own (two files would get one): an entry of its own
            if len({_readme_pattern(m) for m in group}) > 1:
                continue
            if best is None or (len(group), -len(others)) > (len(best[1]), -len(best[2])):
                best = (pattern, group, others)
        if best is None:
            break
        pattern, group, others = best
        own = _readme_pattern(group[0])
        entry: dict[str, Any] = {"dockerfile": pattern}
        if others:
            entry["exclude"] = [glob.escape(p) for p in others]
        entries.append({**entry, "outputs": [index, *([own] if own else [])]})
        for member in group:
            del left[member.path]
    for member in left.values():
        entry = {"dockerfile": member.path}
        if member.name != file_name(root / member.path, root):
            entry["name"] = member.name
        entries.append({**entry, "outputs": [index, *([member.readme] if member.readme else [])]})
    return entries


def init_folder(
    folder: Path,
    config: Config,
    out: TextIO,
    *,
    write: Callable[[Sequence[tuple[Path, str, files.Snapshot]]], None] = files.replace_all,
) -> int:
    """Set up the family of images built from the Dockerfiles in `folder` and below: the config
    entries (a glob where one fits), an index README (`folder/README.md`, created when missing) with
    `images` and `matrix` blocks, and per-image blocks in each image's own README under the headings
    it already has. Every check runs before the first write; the files are written all or none."""
    root = config.root.resolve()
    folder_path = _inside(root, folder)
    folder_display = files.display(folder)
    configured = {image.dockerfile for image in config.images}
    found = _dockerfiles(files.dockerfiles_in(folder_path, None), root)
    new = [path for path in found if path not in configured]
    if not found:
        raise UsageError("no Dockerfile in this folder or below (Dockerfile*, *.Dockerfile)", folder_display)
    prefix = "" if folder_path == root else folder_path.relative_to(root).as_posix() + "/"
    index_path = folder_path / "README.md"
    index = index_path.relative_to(root).as_posix()
    _refuse_dockerfile(index_path, files.display(index_path), None, config)

    folders: dict[Path, int] = {}
    for path in found:
        folders[path.parent] = folders.get(path.parent, 0) + 1
    names = [file_name(path, root) for path in new]
    shared = {name for name, count in Counter(names).items() if count > 1}
    shared |= {image.name for image in config.images}
    members = []
    for path, name in zip(new, names, strict=True):
        if name in shared:  # `docker/cuda/Dockerfile.base`, `docker/rocm/…`
            name = f"{path.parent.name}-{name}"
        members.append(
            _Member(
                path.relative_to(root).as_posix(),
                name,
                _own_readme(path, name, folder_path, folders[path.parent] == 1, root),
            )
        )

    # the README texts, before anything is written
    changes: list[tuple[Path, str, files.Snapshot]] = []
    report: list[str] = []
    if index_path.exists():
        text, read = _read(index_path, "README")
        new_text, added = add_blocks(text, index, FAMILY_SECTIONS)
        if added:
            changes.append((index_path, new_text, read))
        report += _added_lines(index, added)
        under_headings = any(item.heading is not None for item in added)
    else:
        newline = "\n"
        new_text = (
            f"# Images{newline}{newline}"
            f"The images built from the Dockerfiles in this folder.{newline}{newline}"
            f"<!-- BEGIN docgen:images -->{newline}<!-- END docgen:images -->{newline}{newline}"
            f"## {NEW_HEADINGS['matrix']}{newline}{newline}"
            f"<!-- BEGIN docgen:matrix -->{newline}<!-- END docgen:matrix -->{newline}"
        )
        changes.append((index_path, new_text, files.Snapshot.missing(index_path)))
        report.append(f"{index}: created with blocks docgen:images and docgen:matrix")
        under_headings = False
    kept: list[_Member] = []
    for member in members:
        if member.readme is None:
            kept.append(member)
            continue
        readme_path = root / member.readme
        text, read = _read(readme_path, "README")
        new_text, added = add_blocks(text, member.readme, DEFAULT_SECTIONS, append=False)
        has_blocks = bool(markers.find_blocks(new_text, member.readme, known=SECTIONS))
        if added:
            changes.append((readme_path, new_text, read))
            report += _added_lines(member.readme, added)
            under_headings = under_headings or bool(added)
        # a README with no heading for any section stays out of the config: an output needs a block
        kept.append(member if has_blocks else _Member(member.path, member.name, None))

    standalone = (root / STANDALONE).exists() or not (root / "pyproject.toml").exists()
    pyproject = (root / (STANDALONE if standalone else "pyproject.toml")).resolve()
    pyproject_display = files.display(pyproject)
    if pyproject.parent != root:
        raise UsageError(
            f"a symlink to {pyproject}, in another folder; docgen will not write through it",
            pyproject_display,
        )
    entries = family_entries(kept, root, prefix, index) if kept else []
    name_of = {m.path: m.name for m in members}

    def paths_of(entry: Mapping[str, Any]) -> list[str]:
        """The Dockerfiles of the family an entry takes (a glob's matches less what it excludes)."""
        pattern = entry["dockerfile"]
        return (
            [p for p in cache.expand(str(root), pattern) if p in name_of]
            if cache.is_glob(pattern)
            else [pattern]
        )

    if entries:
        current, pyproject_read = (
            _read(pyproject, pyproject.name)
            if pyproject.exists()
            else (None, files.Snapshot.missing(pyproject))
        )
        config_table = _docgen_table(parse_toml(current) if current is not None else {}, standalone)
        configured_args = [image.arch_arg for image in config.images]
        for entry in entries:
            chosen = [_arch_args(root / p, configured_args) or [] for p in paths_of(entry)]
            common = [a for a in chosen[0] if all(a in c for c in chosen)] if chosen else []
            if common and _arch_arg_in_force(config_table) not in common:
                entry["arch-arg"] = common[0]
        try:
            changes.append((pyproject, _append_entries(current, entries, standalone), pyproject_read))
        except DocgenError as exc:
            exc.path = pyproject_display
            raise
    files.remove_stale_temps([path for path, _, _ in changes])
    write(changes)

    for line in report:
        print(line, file=out)
    header = "[[images]]" if standalone else "[[tool.docgen.images]]"
    for entry in entries:
        pattern = entry["dockerfile"]
        shown = ", ".join(name_of[p] for p in paths_of(entry))
        print(f"{pyproject_display}: added {header} dockerfile = {_toml_string(pattern)} ({shown})", file=out)
    if under_headings:
        print(
            "note: hand-written tables under these headings are left as they are; compare them with "
            "the generated blocks (docgen audit) and delete them",
            file=out,
        )
    skipped = [path.relative_to(root).as_posix() for path in found if path in configured]
    if skipped:
        print(f"note: already configured, left as they are: {', '.join(skipped)}", file=out)
    print("next: run docgen sync", file=out)
    return 0


def _docgen_table(data: Mapping[str, Any], standalone: bool) -> Any:
    """docgen's table in a parsed config file: a docgen.toml's top level, a pyproject.toml's
    `[tool.docgen]` (None when it has none)."""
    tool = data.get("tool")
    return data if standalone else tool.get("docgen") if isinstance(tool, dict) else None


def _arch_arg_in_force(table: Any) -> str:
    """The top-level `arch-arg` of docgen's table (the default when it sets none)."""
    value = table.get("arch-arg") if isinstance(table, dict) else None
    return value if isinstance(value, str) else DEFAULT_ARCH_ARG


def _added_lines(display: str, added: Sequence[Added]) -> list[str]:
    """What `init` prints for each block it added to `display`."""
    return [
        f"{display}:{item.line}: added block docgen:{item.section} "
        + (
            f'under "{item.heading}"'
            if item.heading is not None
            else f'under a new heading "{NEW_HEADINGS[item.section]}" '
            + ("at the end" if item.before is None else f'before "{item.before}"')
        )
        for item in added
    ]
