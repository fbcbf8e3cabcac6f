"""The `docgen` command: sync, check and show. The only place that maps errors to exit codes."""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any, TextIO

from docgen import __version__, markers
from docgen.config import Config, ImageConfig, load_config, resolve_path
from docgen.errors import DocgenError, UsageError
from docgen.model import Component, ImageModel
from docgen.pipeline import build_model, fill, render_options

EXIT_OK = 0
EXIT_DRIFT = 1
EXIT_ERROR = 2

_EPILOG = """\
exit codes:
  0  success: files written (sync) or everything up to date (check)
  1  check found generated blocks that differ from what the Dockerfile says
  2  bad usage, config or input (printed as path:line: message)

configuration is read from [tool.docgen] in the nearest pyproject.toml;
--dockerfile and --output override it.
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="docgen",
        description="Keep the documentation of a Docker image true to its Dockerfile.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"docgen {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def add(name: str, help_text: str) -> argparse.ArgumentParser:
        cmd = sub.add_parser(
            name,
            help=help_text,
            description=help_text,
            epilog=_EPILOG,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        return cmd

    for name, help_text in (
        ("sync", "regenerate every docgen block in the configured Markdown files"),
        ("check", "exit 1 and show a diff when a generated block is out of date; never writes"),
    ):
        cmd = add(name, help_text)
        cmd.add_argument("--config", type=Path, help="pyproject.toml to read (default: the nearest one)")
        cmd.add_argument("--dockerfile", help="the Dockerfile to document (instead of the config's)")
        cmd.add_argument(
            "--output",
            action="append",
            default=[],
            metavar="FILE",
            help="a Markdown file to fill (repeatable)",
        )
    show = add("show", "print what docgen reads from a Dockerfile")
    show.add_argument("dockerfile", nargs="?", help="the Dockerfile (default: the first configured one)")
    show.add_argument("--config", type=Path, help="pyproject.toml to read (default: the nearest one)")
    show.add_argument(
        "--format", choices=("table", "json"), default="table", help="output format (default: table)"
    )
    show.add_argument(
        "--verbose", action="store_true", help="also list warnings and constructs docgen skipped"
    )
    return parser


def main(
    argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    """Run docgen with `argv` (default: `sys.argv[1:]`); returns the exit code."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    parser = _parser()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed usage or help
        return EXIT_OK if exc.code == 0 else EXIT_ERROR
    if args.command is None:
        parser.print_help(out)
        return EXIT_ERROR
    try:
        if args.command == "show":
            return _show(args, out, err)
        images, config = _images(args)
        if args.command == "sync":
            return _sync(images, config, out)
        return _check(images, config, out)
    except DocgenError as exc:
        print(f"docgen: error: {exc}" if not exc.path else str(exc), file=err)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130


def _config(args: argparse.Namespace) -> Config:
    path: Path | None = args.config
    if path is not None and not path.exists():
        raise UsageError("config file not found", str(path))
    return load_config(path)


def _images(args: argparse.Namespace) -> tuple[list[ImageConfig], Config]:
    config = _config(args)
    if args.dockerfile or args.output:
        if not args.dockerfile:
            raise UsageError("--output needs --dockerfile")
        root = config.root
        dockerfile = _existing(Path(args.dockerfile))
        image = ImageConfig(
            dockerfile=dockerfile,
            display=_display(dockerfile),
            outputs=tuple(
                resolve_path(root, str(Path(o).absolute()), "--output", "command line") for o in args.output
            ),
            **_image_defaults(config, dockerfile),
        )
        if not image.outputs:
            raise UsageError("--dockerfile needs at least one --output FILE to fill")
        return [image], config
    if not config.images:
        raise UsageError(
            f"nothing to do: no [[tool.docgen.images]] in {config.source}; "
            "add one or pass --dockerfile DOCKERFILE --output README.md"
        )
    return list(config.images), config


def _image_defaults(config: Config, dockerfile: Path) -> dict[str, Any]:
    """Settings of the configured image with the same Dockerfile, so flags keep its names and rows."""
    for image in config.images:
        if image.dockerfile == dockerfile:
            return {"arch_arg": image.arch_arg, "versions": image.versions, "names": image.names}
    return {}


def _existing(path: Path) -> Path:
    if not path.is_file():
        raise UsageError("Dockerfile not found" if not path.exists() else "not a file", str(path))
    return path.resolve()


def _display(path: Path) -> str:
    """A path as shown to the user: relative to the current folder when it is below it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def _read_text(path: Path) -> str:
    display = _display(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UsageError("file not found (create it with the marker blocks first)", display) from None
    except OSError as exc:
        raise UsageError(f"cannot read: {exc.strerror}", display) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise UsageError("not UTF-8 text", display, line) from None


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file and a rename; the file mode is kept."""
    display = _display(path)
    try:
        mode = path.stat().st_mode & 0o7777
    except OSError:
        mode = 0o644
    # the rename below would replace even a read-only file; respect the user's intent instead
    if path.exists() and (not os.access(path, os.W_OK) or not mode & 0o222):
        raise UsageError("file is read-only; docgen will not replace it", display)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".docgen-tmp", dir=path.parent)
    except OSError as exc:
        raise UsageError(f"cannot write: {exc.strerror or exc}", display) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException as exc:  # also Ctrl-C midway: never leave the temporary file behind
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise UsageError(f"cannot write: {exc.strerror or exc}", display) from None
        raise


def _generate(images: list[ImageConfig], config: Config) -> list[tuple[Path, str, str]]:
    """(output path, current text, generated text) for every output of every image."""
    results = []
    for image in images:
        model: ImageModel = build_model(image.dockerfile, image.display)
        for output in image.outputs:
            current = _read_text(output)
            generated = fill(current, _display(output), model, render_options(image, config, output))
            results.append((output, current, generated))
    return results


def _sync(images: list[ImageConfig], config: Config, out: TextIO) -> int:
    for output, current, generated in _generate(images, config):
        if generated != current:
            write_atomic(output, generated)
            print(f"{_display(output)}: updated", file=out)
        else:
            print(f"{_display(output)}: unchanged", file=out)
    return EXIT_OK


def _check(images: list[ImageConfig], config: Config, out: TextIO) -> int:
    stale = 0
    results = _generate(images, config)
    for output, current, generated in results:
        display = _display(output)
        if generated == current:
            print(f"{display} is up to date", file=out)
            continue
        stale += 1
        now = markers.find_blocks(current, display)
        new = markers.block_bodies(generated, display)
        for block in now:
            body = current[block.body_start : block.body_end]
            if new.get(block.name, body) == body:
                continue
            print(f"{display}:{block.begin_line}: block docgen:{block.name} is out of date", file=out)
            diff = difflib.unified_diff(
                body.splitlines(keepends=True),
                new[block.name].splitlines(keepends=True),
                fromfile=f"current {display} (docgen:{block.name})",
                tofile=f"generated {display} (docgen:{block.name})",
            )
            for line in diff:
                out.write(line if line.endswith("\n") else line + "\n")
        print(f"{display} is out of date", file=out)
    if stale:
        print(
            f"{len(results)} file(s) checked, {stale} out of date; run `docgen sync` to update them", file=out
        )
        return EXIT_DRIFT
    return EXIT_OK


# --------------------------------------------------------------------------------------------------
# show


def model_json(model: ImageModel) -> dict[str, Any]:
    """The model as the documented JSON of `docgen show --format json`."""
    return {
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
    }


def _show(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.dockerfile:
        path = _existing(Path(args.dockerfile))
        display = args.dockerfile
    else:
        config = _config(args)
        if not config.images:
            raise UsageError("give a DOCKERFILE, or configure [[tool.docgen.images]] in pyproject.toml")
        path, display = config.images[0].dockerfile, config.images[0].display
    model = build_model(path, display)
    if args.format == "json":
        data = model_json(model)
        if args.verbose:
            data["skipped"] = [str(d) for d in model.skipped]
        json.dump(data, out, indent=2)
        out.write("\n")
        return EXIT_OK
    print(f"{model.path}", file=out)
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


def main_entry() -> None:
    """Console-script entry point."""
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:  # `docgen show | head`: the reader went away, which is not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = EXIT_OK
    sys.exit(code)
