"""What changed in an image between two versions of its Dockerfile: `docgen changes`, the job summary of
the GitHub Action, and the "what changed" line of `docgen check` all use this one comparison.

Two models are compared (`compare`): components whose version moved (`vLLM 1ff9d3353 → 18d87a87`),
components added and removed, stages whose base image changed, and build args added, removed or given
a new default. Older Dockerfiles come from git, run as a subprocess in the Dockerfile's folder (docgen
never fetches): a revision is resolved to a commit (`rev-parse --end-of-options`: never an option), the
file found in it by `ls-tree` and read by its blob id, after its size is checked. A revision git does
not know is a `UsageError`, which says so when the clone is shallow.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen.dockerfile import decode_dockerfile, parse_dockerfile, read_dockerfile_bytes
from docgen.errors import MAX_FILE_BYTES, TOO_LARGE, DockerfileError, UsageError
from docgen.model import ImageModel
from docgen.render import code_span, escape_text
from docgen.rows import component_name

SCHEMA_VERSION = 1
"""The version of `docgen changes --format json`'s schema (docs/json.md)."""

WORKING_TREE = ""
"""The revision that stands for the files as they are on disk."""

_PHRASES = {
    "image-added": "new image",
    "image-removed": "image removed",
    "version": "{name} {old} → {new}",
    "component-added": "added {name} {new}",
    "component-removed": "removed {name} {old}",
    "base-image": "base image of stage {name}: {old} → {new}",
    "arg-added": "new build arg {name} (default {new})",
    "arg-removed": "build arg {name} removed (default was {old})",
    "arg-default": "build arg {name} default {old} → {new}",
}
"""Every kind of change, in the order reports list them → how `Change.phrase` says it."""

KINDS = tuple(_PHRASES)
"""Every kind of change, in the order reports list them."""


@dataclass(frozen=True)
class Change:
    """One difference between the old and the new Dockerfile."""

    kind: str
    """One of `KINDS`."""
    name: str
    """The component's display name, the stage's label or the build arg (empty for a whole image)."""
    old: str | None
    """The value before (a version, a base image, a default); None when there was none."""
    new: str | None
    """The value after; None when there is none."""
    line: int
    """1-based line in the new Dockerfile (in the old one for a removal; 0 when unknown)."""

    def phrase(self) -> str:
        """The change in a few words: `vLLM 1ff9d3353 → 18d87a87`, `added aiter 0.1.5`."""
        old, new = self.old or "(none)", self.new or "(none)"
        return _PHRASES[self.kind].format(name=self.name, old=old, new=new)


@dataclass(frozen=True)
class ImageChanges:
    """The changes of one configured Dockerfile between two revisions."""

    dockerfile: str
    """The Dockerfile, as shown to the user."""
    changes: tuple[Change, ...]
    """What changed, in the order of `KINDS`, then by name."""


def _components(model: ImageModel, names: Mapping[str, str]) -> dict[str, tuple[str, int]]:
    """Display name → (version, line) of each component (versions joined when a name has several)."""
    found: dict[str, tuple[list[str], int]] = {}
    for comp in model.components:
        label = component_name(comp, names)  # as the tables name it
        versions, line = found.setdefault(label, ([], comp.line))
        if comp.display_version not in versions:
            versions.append(comp.display_version)
    return {label: (", ".join(versions), line) for label, (versions, line) in found.items()}


def _args(model: ImageModel) -> dict[str, tuple[str, int]]:
    """Build arg → (default as shown, line) from its first declaration."""
    found: dict[str, tuple[str, int]] = {}
    for decl in model.args:
        default = decl.effective_default
        found.setdefault(decl.name, ("(unset)" if default is None else default, decl.line))
    return found


def _bases(model: ImageModel) -> dict[str, tuple[str, int]]:
    """Stage label → (base image, line)."""
    return {s.label: (s.base, s.line) for s in model.stages}


def compare(old: ImageModel | None, new: ImageModel | None, names: Mapping[str, str]) -> tuple[Change, ...]:
    """What changed from `old` to `new` (None: the Dockerfile does not exist at that revision)."""
    if old is None and new is None:
        return ()
    if old is None:
        return (Change("image-added", "", None, None, 0),)
    if new is None:
        return (Change("image-removed", "", None, None, 0),)
    found: list[Change] = []

    def differences(
        before: dict[str, tuple[str, int]], after: dict[str, tuple[str, int]], kinds: str
    ) -> None:
        added, removed, changed = kinds.split()
        for name, (value, line) in after.items():
            if name not in before:
                found.append(Change(added, name, None, value, line))
            elif before[name][0] != value:
                found.append(Change(changed, name, before[name][0], value, line))
        for name, (value, line) in before.items():
            if name not in after:
                found.append(Change(removed, name, value, None, line))

    differences(_components(old, names), _components(new, names), "component-added component-removed version")
    differences(_bases(old), _bases(new), "- - base-image")
    differences(_args(old), _args(new), "arg-added arg-removed arg-default")
    found = [c for c in found if c.kind != "-"]  # stages added or removed are not base image changes
    order = {kind: i for i, kind in enumerate(KINDS)}
    return tuple(sorted(found, key=lambda c: (order[c.kind], c.name.lower())))


def model_from_bytes(data: bytes, shown: str) -> ImageModel:
    """The model of a Dockerfile given as bytes (an old revision of it)."""
    from docgen.analysis import model_of

    return model_of(parse_dockerfile(decode_dockerfile(data, shown), shown))


# --------------------------------------------------------------------------------------------------
# git


def _git(folder: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", "-C", str(folder), *args], capture_output=True, check=False)
    except OSError as exc:
        raise UsageError(
            f"cannot run git, which docgen changes reads the history with: {exc.strerror}"
        ) from None


def _shallow(folder: Path) -> bool:
    return _git(folder, "rev-parse", "--is-shallow-repository").stdout.strip() == b"true"


def resolve(folder: Path, rev: str, shown: str) -> str:
    """The commit `rev` names, in the repository holding `folder`; `WORKING_TREE` stays itself.

    A `UsageError` shown as `shown` (the file whose history is needed) when `folder` is not in a git
    repository or git does not know `rev` (saying so when the clone is shallow)."""
    if rev == WORKING_TREE:
        return rev
    inside = _git(folder, "rev-parse", "--is-inside-work-tree")
    if inside.returncode != 0:
        raise UsageError(
            "not in a git repository (docgen changes reads the Dockerfile's history from git)", shown
        )
    found = _git(folder, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    if found.returncode != 0:
        message = f"revision {rev!r} not found"
        if _shallow(folder):
            message += (
                "; this is a shallow clone, so older commits and tags are missing: fetch them "
                "(`git fetch --unshallow --tags`, or `fetch-depth: 0` with actions/checkout)"
            )
        raise UsageError(message, shown)
    return found.stdout.decode().strip()


def last_tag(folder: Path, shown: str) -> str:
    """The most recent tag reachable from HEAD, or from HEAD's parent when HEAD itself is tagged (the
    release just made is compared with the one before); a `UsageError` when there is none."""
    resolve(folder, "HEAD", shown)
    tagged = _git(folder, "describe", "--tags", "--exact-match", "HEAD").returncode == 0
    found = _git(folder, "describe", "--tags", "--abbrev=0", "HEAD^" if tagged else "HEAD")
    if found.returncode != 0:
        hint = " (this is a shallow clone: `git fetch --unshallow --tags`)" if _shallow(folder) else ""
        raise UsageError(
            f"no tag before HEAD to compare with{hint}; give a range: docgen changes REV1..REV2", shown
        )
    return found.stdout.decode("utf-8", "surrogateescape").strip()  # a tag name is bytes


def parse_range(spec: str | None, folder: Path, shown: str) -> tuple[str, str]:
    """(old, new) revisions of a range: `A..B`; `A..` or `A` alone is A to the working tree; no range is
    the last tag to HEAD."""
    if spec is None:
        return last_tag(folder, shown), "HEAD"
    if spec.count("..") > 1 or "..." in spec:
        raise UsageError(f"{spec!r} is not a range; write REV1..REV2 (or REV1 for REV1..the working tree)")
    old, _, new = spec.partition("..")
    if not old:
        raise UsageError(f"{spec!r} has no first revision; write REV1..REV2")
    return old, new  # `A` and `A..` leave `new` empty: the working tree


def read_at(path: Path, rev: str, shown: str) -> bytes | None:
    """The bytes of file `path` at commit `rev` (`WORKING_TREE`: on disk); None when it does not exist
    there.

    The same limits as the Dockerfile on disk: at most `errors.MAX_FILE_BYTES` (the size git records is
    checked before any byte is read) and a regular file (a symlink, a folder or a submodule at `rev` is a
    `DockerfileError`: its text is no Dockerfile, and a link's target is not followed)."""
    if rev == WORKING_TREE:
        return read_dockerfile_bytes(path, shown) if os.path.lexists(path) else None
    # `:(literal)`: a file name is never pathspec magic; -z: names are not quoted
    listed = _git(path.parent, "ls-tree", "-l", "-z", rev, "--", f":(literal){path.name}")
    if listed.returncode != 0:
        raise UsageError(f"git ls-tree {rev} failed: {listed.stderr.decode(errors='replace').strip()}", shown)
    entry = listed.stdout.split(b"\0", 1)[0]
    if not entry:
        return None
    mode, kind, blob, size = entry.split(b"\t", 1)[0].split()
    where = f"{shown} at {rev[:12]}"
    if kind != b"blob" or mode == b"120000":
        what = "a symbolic link" if mode == b"120000" else "a folder" if kind == b"tree" else "a submodule"
        raise DockerfileError(f"is {what} in that revision, not a Dockerfile", where)
    if int(size) > MAX_FILE_BYTES:
        raise DockerfileError(TOO_LARGE, where)
    found = _git(path.parent, "cat-file", "blob", blob.decode())
    if found.returncode != 0:
        raise UsageError(
            f"git cat-file {blob.decode()} failed: {found.stderr.decode(errors='replace').strip()}", shown
        )
    return found.stdout


def image_changes(
    path: Path, shown: str, old_rev: str, new_rev: str, names: Mapping[str, str]
) -> ImageChanges:
    """The changes of the Dockerfile at `path` from revision `old_rev` to `new_rev` (both resolved)."""
    models: list[ImageModel | None] = []
    for rev in (old_rev, new_rev):
        data = read_at(path, rev, shown)
        where = f"{shown} at {rev[:12]}" if rev else shown
        models.append(None if data is None else model_from_bytes(data, where))
    return ImageChanges(shown, compare(models[0], models[1], names))


def since_last_sync(
    dockerfile: Path, shown: str, output: Path, model: ImageModel, names: Mapping[str, str]
) -> str:
    """For `docgen check`: what changed in the Dockerfile since the commit that last changed `output`
    (`vLLM 1ff9d3353 → 18d87a87; new build arg MAX_JOBS (default '64')`), or '' when git cannot say."""
    try:
        log = _git(output.parent, "log", "-1", "--format=%H", "--", output.name)
        rev = log.stdout.decode().strip()
        if log.returncode != 0 or not rev:
            return ""
        data = read_at(dockerfile, rev, shown)
        old = None if data is None else model_from_bytes(data, f"{shown} at {rev[:12]}")
    except Exception:  # a best-effort note: any trouble with git or the old file means no note
        return ""
    changes = compare(old, model, names)
    return "; ".join(c.phrase() for c in changes)


# --------------------------------------------------------------------------------------------------
# Reports


def to_json(results: Sequence[ImageChanges], old: str, new: str) -> dict[str, Any]:
    """`docgen changes --format json` (schema in docs/json.md)."""
    return {
        "schema_version": SCHEMA_VERSION,
        "from": old,
        "to": new or "working tree",
        "images": [
            {
                "dockerfile": r.dockerfile,
                "changes": [
                    {
                        "kind": c.kind,
                        "name": c.name,
                        "old": c.old,
                        "new": c.new,
                        "line": c.line,
                        "text": c.phrase(),
                    }
                    for c in r.changes
                ],
            }
            for r in results
        ],
    }


_HEADINGS = {
    "version": "Versions",
    "component-added": "Added",
    "component-removed": "Removed",
    "base-image": "Base images",
    "arg-added": "Build arguments",
    "arg-removed": "Build arguments",
    "arg-default": "Build arguments",
}


def _code(value: str | None) -> str:
    """A value as inline code, escaped like every table value (it comes from the Dockerfile)."""
    return code_span(value) if value else "(none)"


def to_markdown(results: Sequence[ImageChanges], old: str, new: str, heading: str = "##") -> str:
    """Release notes: per image, a list of what changed under Versions, Added, Removed, Base images
    and Build arguments."""
    to = escape_text(new) if new else "the working tree"
    lines = [f"{heading} Changes from {escape_text(old)} to {to}", ""]
    for result in results:
        lines.append(f"{heading}# {escape_text(result.dockerfile)}")
        lines.append("")
        if not result.changes:
            lines += ["No change to versions, components, base images or build arguments.", ""]
            continue
        if result.changes[0].kind in ("image-added", "image-removed"):
            lines += [f"{result.changes[0].phrase().capitalize()}.", ""]
            continue
        current = None
        for change in result.changes:
            title = _HEADINGS[change.kind]
            if title != current:
                if current is not None:
                    lines.append("")
                lines += [f"**{title}**", ""]
                current = title
            lines.append(f"- {_item(change)}")
        lines.append("")
    return "\n".join(lines)


def _item(change: Change) -> str:
    """One change as a list item; names and values come from the Dockerfile (a Renovate depName, an
    ARG name), so they are escaped: Markdown or HTML in them must not become links or markup in the
    release notes and the Action's job summary."""
    name = escape_text(change.name)
    if change.kind in ("version", "base-image", "arg-default"):
        prefix = f"stage {name}" if change.kind == "base-image" else name
        if change.kind == "arg-default":
            prefix = f"{code_span(change.name)} default"
        return f"{prefix}: {_code(change.old)} → {_code(change.new)}"
    if change.kind == "component-added":
        return f"{name} {_code(change.new)}"
    if change.kind == "component-removed":
        return f"{name} {_code(change.old)}"
    if change.kind == "arg-added":
        return f"new {code_span(change.name)} (default {_code(change.new)})"
    return f"removed {code_span(change.name)} (default was {_code(change.old)})"
