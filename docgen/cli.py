"""The `docgen` command: sync, check, lint, audit, init and show. The only place that maps errors to exit
codes. (A plain `docgen check` with everything up to date never gets here: see `docgen.fastcheck`.)
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shlex
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, TextIO

from docgen import files, fingerprint, markers
from docgen.analysis import build_model, image_model, lint_file, read_image
from docgen.arguments import EXIT_DRIFT, EXIT_ERROR, EXIT_OK, parse
from docgen.config import NO_CONFIG, Config, ImageConfig, load_config, resolve_path
from docgen.console import OutputError, guarded_stdout, output_failed, summary
from docgen.errors import MAX_FILE_BYTES, ConfigError, DocgenError, MarkerError, UsageError
from docgen.model import Component, Diagnostic, ImageModel

# What only some commands use is imported where they use it: documents filled from families of
# images (`docgen.family`, `docgen.pipeline`, `docgen.parallel`) by sync and check, the formats of
# findings by the commands that report them. `docgen show` then loads the model stage alone
# (`docgen.analysis`), which docs/benchmarks.md measures.
if TYPE_CHECKING:
    from docgen.drift import Drift
    from docgen.family import Member


def main(
    argv: Sequence[str] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    *,
    parsed: argparse.Namespace | None = None,
) -> int:
    """Run docgen with `argv` (default: `sys.argv[1:]`), or with the command line `parsed` already
    (the console script parses it first); returns the exit code."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    args = parse(argv, out, err) if parsed is None else parsed
    if isinstance(args, int):  # help, version or a usage error: argparse has answered
        return args
    try:
        os.getcwd()
    except OSError as exc:  # the folder was deleted (or made unreadable) under the shell
        print(f"docgen: error: cannot use the current folder: {exc.strerror}", file=err)
        return EXIT_ERROR
    try:
        _refuse_empty_paths(args)
        if args.command == "show":
            return _show(args, out, err)
        if args.command == "lint":
            return _lint(args, out)
        if args.command == "audit":
            return _audit(args, out, err)
        if args.command == "changes":
            return _changes(args, out)
        if args.command == "init":
            from docgen.init import init, init_folder

            dockerfile = Path(args.dockerfile) if args.dockerfile else None
            if Path(args.readme).is_dir():
                if dockerfile is not None:
                    raise UsageError(
                        "--dockerfile names one Dockerfile; init on a folder sets up every Dockerfile in it",
                        args.readme,
                    )
                return init_folder(Path(args.readme), _config(args), out)
            return init(Path(args.readme), dockerfile, _config(args), out)
        images, config = _images(args)
        if args.command == "sync":
            return _sync(images, config, out)
        return _check(images, config, args, out, err)
    except DocgenError as exc:
        return _error(exc, err)
    except RecursionError:  # `${A:-${A:-…}}` hundreds deep, arrays nested as deep in pyproject.toml
        print("docgen: error: the input is nested too deeply to read (Python's recursion limit)", file=err)
        return EXIT_ERROR
    except BrokenPipeError:  # `docgen show | head`: main_entry's business
        raise
    except OSError as exc:  # a path operation failed: a name too long, a symlink loop, a file as a folder
        return _error(files.os_error(exc), err)
    except RuntimeError as exc:  # Path.resolve() on a symlink loop (Python < 3.13)
        if "Symlink loop" not in str(exc):
            raise
        print(f"docgen: error: {exc}; remove the loop", file=err)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130


def _error(exc: DocgenError, err: TextIO) -> int:
    print(f"docgen: error: {exc}" if not exc.path else str(exc), file=err)
    if os.environ.get("GITHUB_ACTIONS") == "true":  # on the pull request too, not only in the log
        from docgen.findings import annotation

        print(annotation("error", exc.path, exc.line, exc.message), file=err)
    return EXIT_ERROR


_PATH_ARGUMENTS = {
    "dockerfile": "DOCKERFILE",
    "file": "FILE.md",
    "readme": "README",
    "config": "--config",
    "output": "--output",
}
"""The path arguments of the commands, as the messages name them."""


def _refuse_empty_paths(args: argparse.Namespace) -> None:
    """A `UsageError` for a path argument given as '' (`docgen show ''`): it is no path, and leaving it
    out would mean something else (the configured Dockerfile)."""
    for attribute, name in _PATH_ARGUMENTS.items():
        value = getattr(args, attribute, None)
        values = value if isinstance(value, list) else [value]
        if any(v is not None and str(v) == "" for v in values):
            if attribute == "dockerfile" and args.command not in ("show", "lint"):
                name = "--dockerfile"
            raise UsageError(f"{args.command}: {name} is an empty path")


def _config(args: argparse.Namespace) -> Config:
    path = Path(args.config) if args.config is not None else None
    if path is not None and not path.exists():
        raise UsageError("config file not found", str(path))
    if path is not None and not path.is_file():  # a folder, or a FIFO that would block the read
        raise UsageError("not a file", str(path))
    return load_config(path, remember=args.command in ("check", "sync"))  # for the fast path of check


def _images(args: argparse.Namespace) -> tuple[list[ImageConfig], Config]:
    config = _config(args)
    if args.dockerfile or args.output:
        if not args.dockerfile:
            raise UsageError("--output needs --dockerfile")
        root = config.root
        dockerfile = _existing(Path(args.dockerfile))
        outputs = tuple(  # each file once, however it is spelled
            dict.fromkeys(
                resolve_path(root, str(Path(o).absolute()), "--output", "command line") for o in args.output
            )
        )
        image = ImageConfig(
            dockerfile=dockerfile,
            display=files.display(dockerfile),
            outputs=outputs,
            **_image_defaults(config, dockerfile, outputs),
        )
        if not image.outputs:
            raise UsageError("--dockerfile needs at least one --output FILE to fill")
        if dockerfile.resolve() in image.outputs:
            raise UsageError(
                "--output is the Dockerfile itself; docgen will not write generated text into its own input",
                image.display,
            )
        return [image], config
    if not config.images:
        where = (
            "no docgen.toml, nor pyproject.toml with [tool.docgen], here or in a folder above"
            if config.source.startswith("(")
            else f"no [[tool.docgen.images]] in {config.source}"
        )
        raise UsageError(
            f"nothing to do: {where}; add one (docgen init does) or pass "
            "--dockerfile DOCKERFILE --output README.md"
        )
    _outputs_once(config)
    return list(config.images), config


def _outputs_once(config: Config) -> None:
    """A `ConfigError` when one image lists a file twice in its outputs (its blocks would be written
    twice), or when two images of one name list a file (`image=` on its markers could not tell them
    apart). Several images may list one file: each block says which image it is about."""
    from docgen.family import by_document

    for image in config.images:
        for output in image.outputs:
            if image.outputs.count(output) > 1:
                shown = _relative_to(output, config.root)
                message = f"the [[tool.docgen.images]] of {image.display} lists {shown!r} twice in outputs"
                raise ConfigError(message, config.source)
    for output, members in by_document(config.images).items():
        names: dict[str, ImageConfig] = {}
        for image in members:
            first = names.setdefault(image.name, image)
            if first is not image:
                raise ConfigError(
                    f"two [[tool.docgen.images]] named {image.name!r} (of {first.display} and of "
                    f"{image.display}) list {_relative_to(output, config.root)!r} in outputs; give one a "
                    'name = "…" of its own, which image= on the markers of that file names',
                    config.source,
                )


def _image_defaults(config: Config, dockerfile: Path, outputs: Sequence[Path] = ()) -> dict[str, Any]:
    """Settings of the configured image with the same Dockerfile (the one listing `outputs` first),
    so flags keep its names and rows."""
    same = [image for image in config.images if image.dockerfile == dockerfile]
    same.sort(key=lambda image: not set(outputs) & set(image.outputs))  # stable: config order otherwise
    if not same:
        return {}
    image = same[0]
    return {
        "arch_arg": image.arch_arg,
        "arch_arg_set": image.arch_arg_set,
        "arch_arg_line": image.arch_arg_line,
        "versions": image.versions,
        "names": image.names,
        "settings": image.settings,
        "args": image.args,
        "bake_args": image.bake_args,
        "target": image.target,
        "target_at": image.target_at,
        "tags": image.tags,
        "name": image.name,  # which `image=` on the file's markers names
    }


_NO_OUTPUT = "file not found (create it with the marker blocks first)"


def _read_markdown(path: Path) -> str:
    return files.read_snapshot(path, not_found=_NO_OUTPUT)[0]


def _existing(path: Path) -> Path:
    if not path.is_file():
        raise UsageError("Dockerfile not found" if not path.exists() else "not a file", str(path))
    return path.resolve()


@dataclass
class _Document:
    """One output file of one or more images: its text now, and the text `docgen sync` would write."""

    path: Path
    display: str
    current: str
    generated: str
    blocks: list[markers.Block]
    """The blocks of `current`."""
    bodies: dict[str, str]
    """Block key (`Block.key`) → the body `generated` gives it."""
    images: list[ImageConfig]
    """The images listing the file, in the order of the configuration."""
    members: list[Member]
    """The same images, modelled, with their render options and fingerprints for this file."""
    snapshot: files.Snapshot
    """The file as read (`sync` will not replace it if it changes meanwhile)."""

    @property
    def dockerfiles(self) -> str:
        """The Dockerfiles of its images, as shown."""
        return ", ".join(dict.fromkeys(image.display for image in self.images))


@dataclass
class _Fresh:
    """One output whose every block carries the fingerprints of its inputs as they are now
    (`fastcheck.fresh_blocks`, every one fresh): up to date, and not modelled."""

    display: str
    dockerfile: str


def _documents(
    images: list[ImageConfig],
    config: Config,
    lint_into: list[Diagnostic] | None = None,
    skip_fresh: bool = False,
) -> Iterator[_Document | _Fresh]:
    """Every output of every image, with its regenerated text (each Dockerfile read once; a file that
    several images list, once, filled from all of them). With `lint_into`, each Dockerfile's lint
    warnings are added to that list from the same reading. With `skip_fresh`, an output whose
    fingerprints all match is `_Fresh`, not rendered, and an image none of whose outputs needs it is
    not read: `docgen check` of one stale image among hundreds models that one."""
    from docgen.family import Member, by_document, fill_document
    from docgen.fastcheck import fresh_blocks
    from docgen.parallel import read_images
    from docgen.pipeline import render_options

    root = str(config.root.resolve())
    outside: list[str] = []
    templates = fingerprint.templates_digest(
        str(config.templates) if config.templates else None, root, outside
    )
    families = by_document(images)
    digests: dict[str, str | None] = {}
    judge = skip_fresh and not outside

    def judged(output: Path, text: str | None = None) -> dict[str, bool] | None:
        """Each block of `output` → whether its fingerprints match (None: not judged, render all)."""
        if not judge:
            return None
        members = [(i.name, str(i.dockerfile), i.settings) for i in families[output]]
        return fresh_blocks(root, str(output), members, templates, digests, text)

    first = {output: judged(output) for output in families}
    fresh = {output: found is not None and all(found.values()) for output, found in first.items()}
    # each image is read once, when a document first needs it, and dropped after the last one
    uses = {id(i): 0 for i in images}
    for output, found in first.items():
        for index in _to_render(found, families[output]):
            uses[id(families[output][index])] += 1
    read: dict[int, tuple[bytes, ImageModel]] = {}
    was_read: set[int] = set()
    # the images some document needs, read in config order (in a process pool when it pays, see
    # `parallel.read_images`) and taken as documents ask for them
    to_read = [image for image in images if not skip_fresh or uses[id(image)]]
    reads = zip(
        to_read,
        read_images(
            [(i.dockerfile, i.display, i.args, i.target, i.target_at) for i in to_read],
            with_lint=lint_into is not None,
        ),
        strict=True,
    )
    to_read_ids = {id(image) for image in to_read}

    def reading(image: ImageConfig) -> tuple[bytes, ImageModel]:
        while id(image) in to_read_ids and id(image) not in was_read:
            other, (data, model, warnings) = next(reads)
            if lint_into is not None:
                lint_into.extend(warnings)
            _args_declared(other, model, config)
            was_read.add(id(other))
            read[id(other)] = data, model
        if id(image) not in read:  # dropped after what seemed its last use, or never listed: read it
            data, model, _ = read_image(
                image.dockerfile,
                image.display,
                build_args=image.args,
                target=image.target,
                target_at=image.target_at,
            )
            read[id(image)] = data, model
        return read[id(image)]

    done: set[Path] = set()
    passed: set[int] = set()  # the images whose own turn has come
    for image in images:
        if id(image) not in was_read and (not skip_fresh or uses[id(image)]):
            reading(image)
        for output in image.outputs:
            if output in done:
                continue
            done.add(output)
            family = families[output]
            display = files.display(output)
            if fresh[output]:
                yield _Fresh(display, ", ".join(dict.fromkeys(i.display for i in family)))
                continue
            current, snapshot = files.read_snapshot(output, not_found=_NO_OUTPUT)
            found = judged(output, current)  # the text as read now
            needed = _to_render(found, family)
            members = [
                _member(other, *reading(other), config, output, templates)
                if index in needed
                else Member(other.name, None, render_options(other, config, output), None, other.tags)
                for index, other in enumerate(family)
            ]
            kept = [key for key, ok in (found or {}).items() if ok]
            generated, blocks, bodies = fill_document(current, display, members, kept)
            if not blocks:  # listed as an output, so a mistake: markers misspelt, or hidden as code
                raise MarkerError(_no_block(current), display)
            yield _Document(output, display, current, generated, blocks, bodies, family, members, snapshot)
            for index in _to_render(first[output], family):
                uses[id(family[index])] -= 1
            for other in family:
                if not uses[id(other)] and id(other) in passed:
                    read.pop(id(other), None)
        passed.add(id(image))
        if not uses[id(image)]:
            read.pop(id(image), None)


def _to_render(found: dict[str, bool] | None, family: Sequence[ImageConfig]) -> set[int]:
    """The images (indexes in `family`) whose models a document needs, given which of its blocks are
    fresh (`fastcheck.fresh_blocks`; None: none is known to be): those of its stale blocks, and all of
    them for a stale `images` or `matrix` block."""
    if found is None:
        return set(range(len(family)))
    names = [image.name for image in family]
    needed = set()
    for key, ok in found.items():
        if ok:
            continue
        name, _, image = key.partition(f" {markers.IMAGE}=")
        if name in markers.FAMILY_SECTIONS:
            return set(range(len(family)))
        needed.add(names.index(image) if image else 0)
    return needed


def _member(
    image: ImageConfig, data: bytes, model: ImageModel, config: Config, output: Path, templates: bytes
) -> Member:
    """`image` as one of the images filling `output`: its render options and fingerprints there."""
    from docgen.family import Member
    from docgen.pipeline import dockerfile_stamp, render_options

    options = render_options(image, config, output)
    setup = fingerprint.setup_digest(
        image.settings,
        templates,
        _relative_to(output, config.root),
        _relative_to(image.dockerfile, config.root),
    )
    return Member(image.name, model, options, (dockerfile_stamp(data, model, options), setup), image.tags)


def _args_declared(image: ImageConfig, model: ImageModel, config: Config) -> None:
    """An error for an arg of `args` that no ARG of the Dockerfile declares: `docker build` warns that
    it was not consumed and builds the image as if it were not given, so it is a typo or a stale entry."""
    import difflib

    from docgen.evaluate import PROXY_ARGS

    declared = {arg.name for arg in model.args}
    own = dict(image.bake_own)
    for name in image.args:
        if name in declared or name in PROXY_ARGS or name.startswith(_READ_BY_BUILDKIT):
            continue
        if name in image.bake_args and (name not in own or image.bake_at is None):
            continue  # inherited from a target other Dockerfiles share
        close = difflib.get_close_matches(name, sorted(declared), n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        built = f" that target = {image.target!r} builds" if image.target else ""
        if image.bake_at is not None and name in own:
            bake_file, target = image.bake_at
            raise ConfigError(
                f'target "{target}" sets build arg {name}, which {image.display}{built} does not '
                f"declare{hint}; docker buildx bake would not use it",
                bake_file,
                own[name],
            )
        raise ConfigError(
            f"args: {name} is no ARG of {image.display}{built}{hint}; docker build would not use it",
            config.source,
            image.args_line,
        )


_READ_BY_BUILDKIT = ("BUILDKIT_", "SOURCE_DATE_EPOCH")
"""Build args BuildKit itself reads without an ARG (`BUILDKIT_INLINE_CACHE`, `SOURCE_DATE_EPOCH`)."""


def _no_block(text: str) -> str:
    """Why an output holds no docgen block, as far as can be seen."""
    message = "no docgen block found (blocks are <!-- BEGIN docgen:NAME --> … <!-- END docgen:NAME -->)"
    opened = markers.unclosed_fence(text)
    if opened is not None and "docgen:" in "".join(markers.split_lines(text)[opened:]):
        return (
            f"{message}; a code fence opened at line {opened} is never closed (the markers after it are code)"
        )
    return message


def _relative_to(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.resolve().as_posix()


def _sync(images: list[ImageConfig], config: Config, out: TextIO) -> int:
    # Everything is read and rendered first, and written only when all of it worked: an error in a
    # later image must not leave the earlier files written and the run half done. Only the new texts
    # of the files that change are kept meanwhile.
    # `files.replace_all` then writes them all or none, and none that the user saved meanwhile.
    changes: list[tuple[Path, str, files.Snapshot]] = []  # (path, new text, as read), in order
    report: list[str] = []
    outputs = []
    for doc in _documents(images, config):
        assert isinstance(doc, _Document)
        outputs.append(doc.path)
        if doc.generated != doc.current:
            changes.append((doc.path, doc.generated, doc.snapshot))
            report.append(f"{doc.display}: updated")
        else:
            report.append(f"{doc.display}: unchanged")
    for path, text, _ in changes:
        files.check_writable(path)
        if len(text) > MAX_FILE_BYTES // 4 and len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
            raise UsageError(
                f"the generated file would be larger than {MAX_FILE_BYTES >> 20} MiB, which docgen "
                "does not read back; not written (make the blocks smaller)",
                files.display(path),
            )
    files.remove_stale_temps(outputs)  # left by a sync that was killed
    files.replace_all(changes)
    for line in report:
        print(line, file=out)
    return EXIT_OK


def _drifts(doc: _Document) -> list[Drift]:
    """The blocks of `doc` whose body differs from the generated one, each explained."""
    from dataclasses import replace

    from docgen.drift import explain, explain_family
    from docgen.family import owners, rows_option

    members = doc.members
    owner = owners(doc.blocks, doc.display, [member.name for member in members])
    drifts = []
    for block in doc.blocks:
        body = doc.current[block.body_start : block.body_end]
        generated = doc.bodies.get(block.key, body)  # a block kept as it is: fresh
        if generated == body:
            continue
        index = owner[block.key]
        if index is None:
            stamp = fingerprint.family_stamp(
                [(m.name, *m.stamp) for m in members if m.stamp], rows_option(block, doc.display)
            )
            shown = [(image.name, image.display) for image in doc.images]
            drifts.append(explain_family(doc.display, block, body, generated, shown, *stamp))
            continue
        member = members[index]
        assert member.model is not None and member.stamp is not None, "a stale block's image is modelled"
        drift = explain(doc.display, block, body, generated, member.model, member.options, *member.stamp)
        if len(members) > 1:  # which of the file's images the block is about
            drift = replace(drift, reason=f"image {member.name}: {drift.reason}")
        drifts.append(drift)
    return drifts


def _check(
    images: list[ImageConfig], config: Config, args: argparse.Namespace, out: TextIO, err: TextIO
) -> int:
    # one document at a time: its model and texts are dropped before the next (cost stays linear)
    from docgen import findings

    checked, stale = 0, 0
    reports: list[dict[str, Any]] = []
    all_drifts: list[Drift] = []
    found_warnings: list[Diagnostic] = []
    form = args.format
    for doc in _documents(
        images,
        config,
        found_warnings if args.strict else None,
        not (args.strict or args.full) and fingerprint.trusted(),
    ):
        if isinstance(doc, _Fresh):
            checked += 1
            if form == "json":
                reports.append(
                    {"path": doc.display, "dockerfile": doc.dockerfile, "up_to_date": True, "blocks": []}
                    | {"dockerfile_changes": ""}
                )
            elif form == "text":
                print(f"{doc.display} is up to date", file=out)
            continue
        drifts = _drifts(doc)
        checked, stale = checked + 1, stale + bool(drifts)
        all_drifts += drifts
        what_changed = _what_changed(doc, drifts)
        if form == "json":
            changes = "; ".join(text for _, text in what_changed)
            reports.append({**_file_json(doc, drifts), "dockerfile_changes": changes})
        elif form == "text":
            _print_drifts(doc, drifts, out)
            for dockerfile, text in what_changed:
                print(f"{dockerfile}: changed since {doc.display} was last committed: {text}", file=out)
    kept = _kept(
        findings.from_diagnostics(found_warnings),
        config,
        {i.display: i.dockerfile for i in images},
        lint=args.strict,
    )
    warnings = [Diagnostic(f.path, f.line, f.message, f.rule) for f in kept]
    if form == "json":
        json.dump(
            {
                "schema_version": findings.SCHEMA_VERSION,
                "checked": checked,
                "out_of_date": stale,
                "files": reports,
                "warnings": [findings.finding_json(f) for f in kept],
            },
            out,
            indent=2,
        )
        out.write("\n")
    elif form == "sarif":
        from docgen.drift import HAND_EDIT

        stale_blocks = [
            findings.Finding(
                findings.STALE,
                "error",
                d.document,
                d.first_changed if HAND_EDIT in d.causes else d.line,
                f"block docgen:{d.block} is out of date: {d.reason}. Fix: {d.fix}",
            )
            for d in all_drifts
        ]
        root = findings.repository_root(config.root)
        json.dump(findings.to_sarif([*stale_blocks, *kept], root), out, indent=2, ensure_ascii=False)
        out.write("\n")
    elif form == "text":
        for finding in kept:
            print(finding.text, file=out)
        print(summary(checked, stale), file=out)
    if form == "github" or os.environ.get("GITHUB_ACTIONS") == "true":  # stdout stays pure JSON or SARIF
        _annotate(all_drifts, warnings, out if form in ("text", "github") else err)
    if stale:
        return EXIT_DRIFT
    return EXIT_DRIFT if warnings else EXIT_OK


def _what_changed(doc: _Document, drifts: list[Drift]) -> list[tuple[str, str]]:
    """For the blocks stale because their Dockerfile changed: what changed in each such Dockerfile
    since the commit that last changed the document (`vLLM 1ff9d3353 → 18d87a87`), as `docgen changes`
    says it, with the Dockerfile as shown; none where git cannot tell."""
    from docgen.changes import since_last_sync
    from docgen.drift import DOCKERFILE

    stale = {path for d in drifts if DOCKERFILE in d.causes for path in d.dockerfile.split(", ")}
    found: dict[str, str] = {}  # two images of one Dockerfile (built with other args) say it once
    for image, member in zip(doc.images, doc.members, strict=True):
        if image.display in stale and image.display not in found and member.model is not None:
            text = since_last_sync(image.dockerfile, image.display, doc.path, member.model, image.names)
            if text:
                found[image.display] = text
    return list(found.items())


def _print_drifts(doc: _Document, drifts: list[Drift], out: TextIO) -> None:
    if not drifts:
        note = ""
        if doc.generated != doc.current:
            note = " (its fingerprints are from an earlier setup; `docgen sync` refreshes them)"
        print(f"{doc.display} is up to date{note}", file=out)
        return
    for drift in drifts:
        print(
            f"{drift.document}:{drift.line}: block docgen:{drift.block} is out of date: {drift.reason}",
            file=out,
        )
        for source in sorted(drift.sources, key=lambda s: s.line):
            print(f"{drift.dockerfile}:{source.line}: behind the row {source.row!r}", file=out)
        for row in drift.removed:
            print(f"{drift.document}:{drift.line}: row {row!r} is no longer in {drift.dockerfile}", file=out)
        out.write(drift.diff)
        print(f"fix: {drift.fix}", file=out)
    print(f"{doc.display} is out of date", file=out)


def _annotate(drifts: list[Drift], warnings: list[Diagnostic], out: TextIO) -> None:
    """GitHub Actions annotations: one on each stale block, one on each Dockerfile line behind it."""
    from docgen.drift import HAND_EDIT
    from docgen.findings import annotation, rule_of

    behind: dict[tuple[str, int], list[str]] = {}
    for drift in drifts:
        line = drift.first_changed if HAND_EDIT in drift.causes else drift.line
        message = f"block docgen:{drift.block} is out of date: {drift.reason}. Fix: {drift.fix}"
        print(annotation("error", drift.document, line, message), file=out)
        for source in drift.sources:
            rows = behind.setdefault((drift.dockerfile, source.line), [])
            row = f"row {source.row!r} of docgen:{drift.block} in {drift.document}"
            if row not in rows:
                rows.append(row)
    for (dockerfile, line), rows in sorted(behind.items()):
        message = f"this line changed {', '.join(rows)}; run `docgen sync`"
        print(annotation("error", dockerfile, line, message), file=out)
    for warning in warnings:
        title = f"docgen {rule_of(warning)}"
        print(annotation("warning", warning.path, warning.line, warning.message, title), file=out)


def _file_json(doc: _Document, drifts: list[Drift]) -> dict[str, Any]:
    """One checked file as `docgen check --format json` reports it."""
    return {
        "path": doc.display,
        "dockerfile": doc.dockerfiles,
        "up_to_date": not drifts,
        "blocks": [
            {
                "name": d.block,
                "line": d.line,
                "causes": list(d.causes),
                "reason": d.reason,
                "fix": d.fix,
                "dockerfile_lines": [{"line": s.line, "row": s.row} for s in d.sources],
                "removed_rows": list(d.removed),
                "diff": d.diff,
            }
            for d in drifts
        ],
    }


# --------------------------------------------------------------------------------------------------
# lint and audit


def _lint(args: argparse.Namespace, out: TextIO) -> int:
    from docgen import findings

    config = _config(args)
    if args.dockerfile:
        targets = [(_existing(Path(args.dockerfile)), args.dockerfile)]
    else:
        if not config.images:
            raise UsageError("give a DOCKERFILE, or configure [[tool.docgen.images]] in pyproject.toml")
        targets = [(image.dockerfile, image.display) for image in config.images]
    found: list[findings.Finding] = []
    for path, display in targets:
        found += _kept(
            findings.from_diagnostics(lint_file(path, display)), config, {display: path}, lint=True
        )
    count = len(found)
    files = f"{len(targets)} Dockerfile{'' if len(targets) == 1 else 's'}"
    summary_line = f"{count} warning{'' if count == 1 else 's'} in {files}"
    _print_findings(found, args.format, out, summary_line, config.root)
    return EXIT_DRIFT if count and args.strict else EXIT_OK


def _kept(
    found: list[Any],
    config: Config,
    paths: dict[str, Path],
    *,
    lint: bool = False,
    texts: dict[str, str] | None = None,
) -> list[Any]:
    """`found` (findings) without the rules the config disables or a `docgen: ignore=ID` comment in
    their file silences (`paths`: each file as shown → where it is; `texts`: those read already, as
    shown → text). With `lint` (`lint`, `check --strict`), an id in those comments that names no rule
    is a warning too, among its file's."""
    from docgen import findings

    texts = dict(texts or {})
    about = {f.path for f in found}  # without `lint`, a file no finding is about is not read
    for shown, path in paths.items():
        if shown in texts or not (lint or shown in about):
            continue
        try:
            texts[shown] = path.read_bytes().decode("utf-8", "replace")
        except OSError:
            pass
    unknown = (
        [f for shown, text in texts.items() for f in findings.unknown_ignores(text, shown)] if lint else []
    )
    if unknown:
        order = {path: rank for rank, path in enumerate(dict.fromkeys(f.path for f in [*found, *unknown]))}
        found = sorted([*found, *unknown], key=lambda f: (order[f.path], f.line))
    return findings.keep(found, texts, config.lint_disable)


def _print_findings(
    found: list[Any], form: str, out: TextIO, summary_line: str, project: Path, **extra: Any
) -> None:
    """Findings in format `form`; `summary_line` ends the text format, `extra` goes into the JSON;
    SARIF locations are relative to the repository holding `project` (the project root)."""
    from docgen import findings

    if form == "json":
        json.dump(findings.to_json(found, **extra), out, indent=2, ensure_ascii=False)
        out.write("\n")
    elif form == "sarif":
        json.dump(
            findings.to_sarif(found, findings.repository_root(project)), out, indent=2, ensure_ascii=False
        )
        out.write("\n")
    elif form == "github":
        for line in findings.to_github(found):
            print(line, file=out)
    else:
        for finding in found:
            print(finding.text, file=out)
        print(summary_line, file=out)


def _bake_images(
    document: Path, images: list[ImageConfig], config: Config, err: TextIO, project: Path
) -> list[ImageConfig]:
    """`images` with each Dockerfile no configured image covers replaced by the images a build file
    beside the README or beside the Dockerfile builds from it: a bake file (`docker-bake.hcl`,
    `docker-bake.json`), else a compose file (`compose.yaml`, `docker-compose.yml` …: a Dockerfile a
    bake target builds is not taken from a compose file). One image a bake target or compose service,
    with its args and target (the values the file sets win over the ARG defaults); a target found in
    two such files is taken once. A build file that cannot be read (no HCL or YAML reader, a feature
    docgen does not read) is said once on `err` and left out; so is a target whose Dockerfile has not
    the stage it builds. A CI workflow, and then the Makefile `make` reads beside the README, gives only
    the values of the ARGs with no default (`makefile.targets`). Nothing outside `project` is looked at:
    neither a folder there nor a Dockerfile a context leads to."""
    from docgen import bake, compose, makefile, workflows

    configured = {image.dockerfile.resolve() for image in config.images}
    resolved = [(image.dockerfile.resolve(), image) for image in images]  # each path resolved once
    loose = {dockerfile: image for dockerfile, image in resolved if dockerfile not in configured}
    if not loose:
        return images
    top = project.resolve()
    folders = [
        folder
        for folder in dict.fromkeys([document.parent.resolve(), *(path.parent for path in loose)])
        if folder.is_relative_to(top)
    ]
    built: dict[Path, list[ImageConfig]] = {}
    taken: set[tuple[Path, str]] = set()  # (Dockerfile, target) of `built`: a bake matrix makes thousands
    baked: set[Path] = set()  # a Dockerfile a bake target builds is audited as bake builds it

    unset: dict[Path, frozenset[str]] = {}  # a Dockerfile → its build args that have no default
    passed: set[tuple[Path, tuple[tuple[str, str], ...]]] = set()  # the CI builds taken

    def read(path: Path, targets: Any, caller: bool = False) -> None:
        """Each target of the build file at `path` (`targets(bytes, shown)` reads it) building a loose
        Dockerfile, as an image. A `caller` (a CI workflow) gives only the build args that have no
        default: one passing none of them, or the same values as another, is not an image of its own."""
        shown = files.display(path)
        if not files.stays_home(path, top):
            return  # a link out of the project or its repository (a workflow, bake or compose file)
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                raise ConfigError("too large to read", shown)
            chosen = targets(path.read_bytes(), shown)
        except (DocgenError, OSError) as exc:
            why = exc if isinstance(exc, DocgenError) else f"{shown}: {exc.strerror or exc}"
            print(
                f"docgen: note: {why}; {shown} was not read, the Dockerfiles are audited with "
                "their own defaults",
                file=err,
            )
            return
        for target in chosen:
            dockerfile = files.real_path(path.parent / target.dockerfile)
            plain = loose.get(dockerfile)
            if plain is None or not dockerfile.is_relative_to(top):
                continue
            if (dockerfile, target.name) in taken or (
                path.name in compose.DEFAULT_FILES and dockerfile in baked
            ):
                continue
            if caller:
                if dockerfile in baked:
                    continue  # a bake or compose file builds it: CI runs that
                args = {k: v for k, v in target.args.items() if k in unset.get(dockerfile, ())}
                if not args or (dockerfile, tuple(sorted(args.items()))) in passed:
                    continue
                passed.add((dockerfile, tuple(sorted(args.items()))))
                own = {k: at for k, at in target.own_args.items() if k in args}
                target = dataclasses.replace(target, args=args, own_args=own)
            image = ImageConfig(
                dockerfile=dockerfile,
                display=plain.display,
                args=dict(target.args),
                target=target.target,
                target_at=(shown, target.target_line) if target.target else None,
                name=target.name,
                bake_own=tuple(target.own_args.items()),
                bake_at=(shown, target.name),
                tags=target.tags,
            )
            built.setdefault(dockerfile, []).append(image)
            taken.add((dockerfile, target.name))

    def from_bake(data: bytes, shown: str) -> list[bake.Target]:
        found = bake.parse(data, shown)
        return [found.target(target) for target in found.images()]

    for folder in folders:
        for name in bake.DEFAULT_FILES:
            if (folder / name).is_file():
                read(folder / name, from_bake)
    baked.update(built)
    if set(loose) - baked:
        for folder in folders:
            path = next((folder / n for n in compose.DEFAULT_FILES if (folder / n).is_file()), None)
            if path is not None:
                read(path, compose.parse)
    # the CI workflows building a Dockerfile no bake or compose file builds: the values its ARGs
    # without a default take there
    # (read only when such an ARG is there: most Dockerfiles give every ARG a default)
    baked.update(built)
    called = workflows.files(document.parent.resolve(), top) if set(loose) - baked else []
    for dockerfile in set(loose) - baked if called else ():
        unset[dockerfile] = _args_without_default(loose[dockerfile])
    for workflow in called if any(unset.values()) else ():
        read(workflow, workflows.parse, caller=True)
    # the Makefile `make` reads beside the README, building a Dockerfile no bake or compose file builds:
    # the values a plain `make` gives its ARGs without a default (`CRYOSPARC_VERSION ?= 4.5.3`)
    folder = document.parent.resolve()
    made = next((folder / name for name in makefile.DEFAULT_FILES if (folder / name).is_file()), None)
    if made is not None and set(loose) - baked:
        for dockerfile in set(loose) - baked:
            if dockerfile not in unset:
                unset[dockerfile] = _args_without_default(loose[dockerfile])
        if any(unset.values()):
            read(made, makefile.targets, caller=True)
    return [each for dockerfile, image in resolved for each in built.get(dockerfile, [image])]


def _args_without_default(image: ImageConfig) -> frozenset[str]:
    """The build args the Dockerfile of `image` declares with no default or an empty one (`ARG
    BASE_IMAGE`): those a caller must pass. None when it cannot be read."""
    try:
        model = image_model(image)
    except DocgenError:
        return frozenset()
    declared: dict[str, bool] = {}
    for decl in model.args:
        declared[decl.name] = declared.get(decl.name, True) and not decl.default
    return frozenset(name for name, bare in declared.items() if bare)


def _audited_model(image: ImageConfig, err: TextIO) -> ImageModel | None:
    """The model of `image` as it is built; an image of a bake file carries its target's name and where
    the bake file sets each build arg. A bake target building a stage its Dockerfile has not is said
    on `err` and left out (None)."""
    if image.bake_at is None:
        return image_model(image)
    try:
        model = image_model(image)
    except DocgenError as exc:
        # A configured bake file is read as bake's JSON or HCL, whatever its name: only the compose
        # files audit finds beside the README hold services.
        from docgen import compose

        service = PurePosixPath(image.bake_at[0]).name in compose.DEFAULT_FILES
        kind = "compose service" if service else "workflow job" if _called(image) else "bake target"
        print(f"docgen: note: {exc}; {kind} {image.bake_at[1]!r} is not audited", file=err)
        return None
    origins = tuple((arg, image.bake_at[0], line) for arg, line in image.bake_own)
    called = frozenset(image.args) if _called(image) else frozenset()
    return dataclasses.replace(model, image_name=image.name, arg_origins=origins, called_args=called)


def _called(image: ImageConfig) -> bool:
    """True when a CI workflow builds `image` (`_bake_images`): its args are values, not defaults."""
    from docgen import workflows

    return image.bake_at is not None and PurePosixPath(image.bake_at[0]).parent.as_posix().endswith(
        workflows.FOLDER
    )


def _rebuilder(
    built: list[tuple[ImageConfig, ImageModel]],
) -> Callable[[ImageModel, Mapping[str, str]], ImageModel | None]:
    """For `audit`: an audited model and the build args a README's build command passes → the model
    of its image built with them too (they win over the configured or bake-set ones), or None when
    they make the Dockerfile invalid (the README's section is then compared with the image as audited)."""
    images = {id(model): image for image, model in built}

    def rebuild(model: ImageModel, passed: Mapping[str, str]) -> ImageModel | None:
        image = images.get(id(model))
        if image is None:
            return None
        try:
            rebuilt = build_model(
                image.dockerfile, image.display, {**image.args, **passed}, image.target, image.target_at
            )
        except DocgenError:
            return None
        origins = tuple(o for o in model.arg_origins if o[0] not in passed)
        called = model.called_args - set(passed)
        return dataclasses.replace(
            rebuilt, image_name=model.image_name, arg_origins=origins, called_args=called
        )

    return rebuild


def _restager(built: list[tuple[ImageConfig, ImageModel]]) -> Callable[[ImageModel, str], ImageModel | None]:
    """For `audit`: an audited model of a build target and a stage of its Dockerfile that no target
    builds → the model of its Dockerfile built to that stage with the Dockerfile's own defaults (a
    compose service's or bake target's args are its target's), named after the stage; None when it
    cannot be built."""
    images = {id(model): image for image, model in built}

    def restage(model: ImageModel, stage: str) -> ImageModel | None:
        image = images.get(id(model))
        if image is None:
            return None
        try:
            staged = build_model(image.dockerfile, image.display, {} if image.bake_at else image.args, stage)
        except DocgenError:
            return None
        return dataclasses.replace(staged, image_name=stage)

    return restage


def _audit(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from docgen import findings
    from docgen.audit import audit
    from docgen.audit.ci_args import with_published_args

    config = _config(args)
    document = Path(args.file)
    if not document.is_file():
        raise UsageError("file not found" if not document.exists() else "not a file", args.file)
    # Every image the README may be about: the Dockerfiles given, else the configured images that fill
    # it, else every configured image, else the Dockerfiles next to it.
    # A configured image is audited as it is built: with its `args` and `target`.
    targets: list[ImageConfig] = []
    resolved = document.resolve()
    # With no configuration, the project is the repository the current folder is in, not that folder:
    # `cd build/rocm && docgen audit README.md` finds `./build/rocm/ci_build.sh`, which the README runs
    # from the checkout's root.
    home = findings.repository_root(config.root) if config.source == NO_CONFIG else config.root
    if args.dockerfile:
        for given in dict.fromkeys(args.dockerfile):
            path = _existing(Path(given))
            targets.append(ImageConfig(dockerfile=path, display=given, **_image_defaults(config, path)))
    else:
        filling = [i for i in config.images if resolved in i.outputs]
        targets = list(filling or config.images)
        if not targets:
            nearby = files.dockerfiles_in(document.parent, 1)
            if not nearby:  # where the README's own commands lead, then its folder's dot-folders
                text = files.text_or_none(document)
                top = home if resolved.is_relative_to(home.resolve()) else document.parent
                led = files.led_dockerfiles(document, text or "", top)
                nearby = [path for path, _ in led]
                composed = files.compose_dockerfiles_led_to(document, files.led_code(text or ""), top)
                if composed:  # said: the README's compose file, not a Dockerfile beside it, picked them
                    print(
                        f"docgen: note: no Dockerfile beside {files.display(document)}; auditing the "
                        f"images its compose file builds: {', '.join(files.display(p) for p in composed)}",
                        file=err,
                    )
                if any(why for _, why in led):  # said: which the README names, or which folder gave them
                    print(f"docgen: note: {_led_note(document, led)}", file=err)
            if not nearby:  # no image to compare with: what the README says of files and commands still is
                print(
                    f"docgen: note: no Dockerfile found for {files.display(document)}; only its file and "
                    "command claims are audited (pass --dockerfile to audit image claims)",
                    file=err,
                )
            targets = [ImageConfig(dockerfile=p.resolve(), display=files.display(p)) for p in nearby]
    # Files the README's commands name are looked for in the project folder only (the README's own
    # folder when it is outside it): never past it, nor through a link leading out of it.
    inside = resolved.is_relative_to(home.resolve())
    project = home if inside else document.parent
    plain = targets
    targets = _bake_images(document, targets, config, err, project)
    # A Dockerfile found beside the README that cannot be read is said and left out: the README may
    # not be about it, and one broken sibling must not stop the audit of the others. One given or
    # configured is an error, as everywhere.
    found_nearby = not args.dockerfile and not config.images
    built: list[tuple[ImageConfig, ImageModel]] = []
    broken: dict[Path, DocgenError] = {}
    for image in targets:
        try:
            model = _audited_model(image, err)
        except DocgenError as exc:
            if not found_nearby:
                raise
            if image.dockerfile not in broken:
                print(f"docgen: note: {exc}; {image.display} is not audited", file=err)
            broken[image.dockerfile] = exc
            continue
        if model is not None:
            built.append((image, model))
        elif not found_nearby:
            # A compose service or bake target left out may build a stage its Dockerfile has not;
            # but a Dockerfile given or configured that does not read is the error it is, whatever
            # service builds it (`--dockerfile Dockerfile.gpu` with a heredoc never closed).
            image_model(next(i for i in plain if i.dockerfile == image.dockerfile))
    if not built and plain:  # every bake target was left out: the Dockerfiles as they are
        readable = [image for image in plain if image.dockerfile not in broken]
        # none readable: what the README says of files and commands is still audited (its builds of the
        # broken ones cannot start), then the error is the audit's (exit 2), as for one given by name
        built = [(image, image_model(image)) for image in readable]
    # the values CI passes to the build args when it builds each Dockerfile: the published images'
    published = with_published_args([model for _, model in built], document.parent, project.resolve())
    built = [(image, model) for (image, _), model in zip(built, published, strict=True)]
    targets = [image for image, _ in built]
    models = [model for _, model in built]
    names: dict[str, str] = {}
    for image in targets:
        names.update(image.names)
    shown = files.display(document)
    labels = [image.display + (f" ({image.name})" if image.bake_at else "") for image in targets]
    display = ", ".join(labels)
    text = _read_markdown(document)
    unreadable = {os.path.realpath(path): exc for path, exc in broken.items()}
    diagnostics = audit(
        text,
        shown,
        models,
        names,
        document.parent,
        project.resolve(),
        _rebuilder(built),
        _restager(built),
        unreadable,
    )
    unsure = 0
    if args.confidence == "certain":  # claims read from prose are left out, and counted
        kept = [d for d in diagnostics if d.confidence != "likely"]
        unsure, diagnostics = len(diagnostics) - len(kept), kept
    found = _kept(
        findings.from_diagnostics(diagnostics, findings.AUDIT, "error"),
        config,
        {shown: document},
        texts={shown: text},
    )
    count = len(found)
    if found:
        missing = sum(1 for f in found if f.rule == findings.MISSING_FILE)
        line = _contradicted(count, missing, shown, _few(labels))
    elif labels:
        line = f"{shown}: no claim outside the docgen blocks contradicts {_few(labels)}"
    else:  # no Dockerfile was audited: the summary says so
        line = f"{shown}: no file or command claim outside the docgen blocks contradicts the repository"
        line += " (no Dockerfile audited)"
    if unsure:
        ones = "one" if unsure == 1 else "ones"
        line += f" ({unsure} likely {ones} not shown: --confidence likely shows them)"
    _print_findings(found, args.format, out, line, config.root, document=shown, dockerfile=display)
    if broken and not built:
        raise next(iter(broken.values()))
    return EXIT_DRIFT if found else EXIT_OK


def _led_note(document: Path, led: list[tuple[Path, str]]) -> str:
    """What the note says of the Dockerfiles `files.led_dockerfiles` chose for a README with none beside
    it: each group of them with why (`Dockerfile, Dockerfile.cpu (its commands name them from the
    project root)`); those its own commands lead to from its folder need no why, and are listed too."""
    groups: dict[str, list[str]] = {}
    for path, why in led:
        groups.setdefault(why, []).append(files.display(path))
    parts = []
    for why, shown in groups.items():
        them = "it" if len(shown) == 1 else "them"
        reason = why.format(them=them) if why else f"its commands lead to {them}"
        parts.append(f"{', '.join(shown)} ({reason})")
    listed = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
    return f"no Dockerfile beside {files.display(document)}; auditing {listed}"


def _few(labels: list[str], shown: int = 4) -> str:
    """`labels` joined for a summary line: all of them up to `shown`, else the first three and how many
    more (a README over a family of 60 Dockerfiles gets a line a reader can take in; the JSON format
    keeps every name)."""
    if len(labels) <= shown:
        return ", ".join(labels)
    return f"{', '.join(labels[: shown - 1])} and {len(labels) - shown + 1} more"


def _contradicted(count: int, missing: int, shown: str, display: str) -> str:
    """The summary line of an audit with `count` findings, `missing` of them (DG102) files the README
    names or its commands need that are not there: those contradict the repository, not the images
    (`display`; '' when no Dockerfile was audited, and every claim is the repository's)."""
    claims = f"{count} claim{'' if count == 1 else 's'} in {shown} contradict{'s' if count == 1 else ''}"
    if not display and missing != count:
        return f"{claims} the repository (no Dockerfile audited)"
    if missing == count:
        files = "a file it names or needs is" if count == 1 else "files they name or need are"
        return f"{claims} the repository: {files} missing"
    if missing:
        return f"{claims} {display} or the repository ({missing} of a missing file)"
    return f"{claims} {display}"


# --------------------------------------------------------------------------------------------------
# changes


def _changes(args: argparse.Namespace, out: TextIO) -> int:
    from docgen import changes

    config = _config(args)
    if not config.images:
        raise UsageError("nothing to compare: configure [[tool.docgen.images]] (docgen init does)")
    first = config.images[0]
    old, new = changes.parse_range(args.range, first.dockerfile.parent, first.display)
    old_commit = changes.resolve(first.dockerfile.parent, old, first.display)
    new_commit = changes.resolve(first.dockerfile.parent, new, first.display)
    results = [
        changes.image_changes(image.dockerfile, image.display, old_commit, new_commit, image.names)
        for image in config.images
    ]
    if args.format == "json":
        json.dump(changes.to_json(results, old, new), out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        out.write(changes.to_markdown(results, old, new))
    return EXIT_OK


# --------------------------------------------------------------------------------------------------
# show


def model_json(model: ImageModel) -> dict[str, Any]:
    """The model as the documented JSON of `docgen show --format json`."""
    from docgen.findings import SCHEMA_VERSION

    return {
        "schema_version": SCHEMA_VERSION,
        "dockerfile": model.path,
        "stages": [
            {
                "name": s.name,
                "index": s.index,
                "from": s.base,
                "line": s.line,
                "parent": s.parent,
                "platform": s.platform,
                "depends_on": list(s.depends_on),
            }
            for s in model.stages
        ],
        "args": [
            {
                "name": a.name,
                "scope": a.scope,
                "line": a.line,
                "default": a.default,
                "description": a.description,
                "value": a.effective_default,  # the name `docker buildx build --call=outline` gives it
                "stages": list(a.stages),
                "raw_default": a.raw_default,
                "effective_default": a.effective_default,
                "unknown": a.unknown,
                "bare": a.bare,
                "used_lines": list(a.used_lines),
            }
            for a in model.args
        ],
        "env": [asdict(e) for e in model.env],
        "components": [component_json(c) for c in model.components],
        "hardcoded": [asdict(h) for h in model.hardcoded],
        "warnings": [str(w) for w in model.warnings],
    }


def component_json(c: Component) -> dict[str, Any]:
    """One component as `docgen show --format json` reports it."""
    return {
        "name": c.name,
        "version": c.version,
        "ref": c.ref,
        "source": c.source,
        "kind": c.kind,
        "method": c.method,
        "stage": c.stage,
        "line": c.line,
        "pinned": c.pinned,
        "arg": c.arg,
        "ref_kind": c.ref_kind,
        "fork": c.fork,
        "condition": c.condition,
    }


def _show(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    # a configured Dockerfile is shown as its image is built, with its `args` and `target` (as `audit`)
    config = _config(args)
    if args.dockerfile:
        path = _existing(Path(args.dockerfile))
        image = ImageConfig(dockerfile=path, display=args.dockerfile, **_image_defaults(config, path))
    elif config.images:
        image = config.images[0]
    else:
        raise UsageError("give a DOCKERFILE, or configure [[tool.docgen.images]] in pyproject.toml")
    model = image_model(image)
    if args.format == "json":
        data = model_json(model)
        if args.verbose:
            data["skipped"] = [str(d) for d in model.skipped]
        json.dump(data, out, indent=2)
        out.write("\n")
        return EXIT_OK
    print(f"{model.path}", file=out)
    if image.args or image.target:
        built = [f"--build-arg {shlex.quote(f'{n}={v}')}" for n, v in sorted(image.args.items())]
        built += [f"--target {image.target}"] if image.target else []
        print(f"built as configured ({image.name}): {' '.join(built)}", file=out)
    print("\nstages:", file=out)
    for s in model.stages:
        print(f"  {s.index:>2} {s.label:<20} FROM {s.base:<40} line {s.line}", file=out)
    print("\nbuild args:", file=out)
    for a in model.args:
        value = "(unset)" if a.effective_default is None else repr(a.effective_default)
        print(f"  {a.name:<20} {a.scope:<14} line {a.line:<5} default {value}", file=out)
    if model.components:
        print("\ncomponents:", file=out)
        for c in model.components:
            print(f"  {c.name:<24} {c.display_version:<24} {c.kind:<9} {c.stage:<14} line {c.line}", file=out)
    if args.verbose:
        for w in model.warnings:
            print(f"warning: {w}", file=err)
        for skipped in model.skipped:
            print(f"skipped: {skipped}", file=err)
    return EXIT_OK


def main_entry(parsed: argparse.Namespace | None = None) -> None:
    """Console-script entry point (with the command line `parsed` already, by `docgen.__main__`)."""
    try:
        out = guarded_stdout()  # a full disk or a closed stdout: exit 2, never a traceback
        code = main(stdout=out, parsed=parsed)
        out.flush()
    except BrokenPipeError as exc:  # `docgen show | head`: the reader went away, which is not an error
        code = output_failed(exc)
    except OutputError as exc:
        code = output_failed(exc)
    sys.exit(code)
