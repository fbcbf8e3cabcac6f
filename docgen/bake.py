"""Docker Bake files (`docker-bake.hcl`, `docker-bake.json`): the images a project declares to Docker
itself, read for `[[tool.docgen.images]]` entries written `bake = "docker-bake.hcl"`.

What is read, as `docker buildx bake` reads it:

- `target` blocks: `context` (default `.`) and `dockerfile` (default `Dockerfile`, relative to the
  context), `args`, `target` and `tags`; `inherits` (the targets named, in order, later ones winning,
  the target's own attributes over all of them; `args` merged name by name);
- `group` blocks and their `targets` (a group may name groups); the images of a file are the targets
  of its `default` group, else its `default` target, else every target no other target inherits from
  (a `_common` target only holds shared attributes);
- `variable` blocks with their `default`, and `${NAME}` in strings. docgen has no environment input:
  a variable is always its default, never the environment's value of that name;
- the expressions build metadata is written with: literals, variables, `==`, `!=`, `!`, `&&`, `||`,
  `cond ? a : b` and parentheses (`COMMIT != "" ? COMMIT : "unknown"`);
- `matrix`: a target block with `matrix = { sm = ["80", "90"] }` is replaced, where it stands, by one
  target per combination of its values (the first key varying slowest), each named by its `name`
  (`name = "gpu-sm${sm}"`), the keys read in its attributes as `${sm}` or bare `sm`, an object value by
  key (`${item.cuda}`); the values may be a list variable (`sm = SM_LIST`). The block's own name becomes
  the group of the targets it makes, before groups are read, as bake does. Bake's own errors are
  errors here: no `name` for several combinations or one `name` for two (`duplicate name "gpu"`), a
  `name` without `matrix` (`name requires matrix`), a name with a character bake refuses; `inherits`
  naming the matrix block rather than a target it makes. At most `MAX_MATRIX_TARGETS` are made.

Functions (`${upper(X)}`, `function` blocks, a matrix `name` written with `replace(…)`), arithmetic, a
`matrix` given as a variable and `dockerfile-inline` are refused as not supported, with the line that
uses them, as are contexts that are not a local folder (a Git URL, `target:other`), in the attributes
docgen reads. Paths (the context, the Dockerfile) are relative to
the folder of the bake file (`docgen.config` also tries the project folder).

JSON is read with the standard library (the format `docker buildx bake --print` writes); HCL with the
optional `python-hcl2` package, imported only for a `.hcl` file.
"""

from __future__ import annotations

import itertools
import json
import math
import posixpath
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NoReturn

from docgen.errors import ConfigError
from docgen.shell import MAX_VALUE

INSTALL_HCL = "pip install 'dockerdocgen[hcl]'"
"""What installs the HCL reader."""
DEFAULT_FILES = ("docker-bake.json", "docker-bake.hcl")
"""The bake files `docker buildx bake` reads in a folder without `-f` (besides compose files and
`docker-bake.override.*`, which only change what these declare)."""

_NO_SCOPE: Mapping[str, object] = MappingProxyType({})
"""The values of a target no matrix makes: none."""
_BUILTIN_VARIABLES = frozenset({"BAKE_CMD_CONTEXT", "BAKE_LOCAL_PLATFORM"})
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_REFERENCE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)*")
"""A variable, a matrix key, or an attribute of a matrix value (`item.cuda`)."""
_TARGET_NAME = re.compile(r"[A-Za-z0-9_-]+")
"""The names bake allows a target (its `validTargetNameChars`)."""
MAX_MATRIX_TARGETS = 4096
"""The most targets docgen makes of one bake file's `matrix` attributes (a cross product grows fast)."""
_INTERPOLATION = re.compile(r"\$\$\{|\$\{|%\{")
_BRACES = {"{": 1, "}": -1}
"""How each brace changes the depth of `${…}` (where an interpolation ends)."""
_TOKEN = re.compile(
    r'\s*(?:(?P<string>"(?:[^"\\]|\\.)*")|(?P<number>\d+(?:\.\d+)?)'
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)*)|(?P<operator>==|!=|&&|\|\||[!?:(),]))"
)
"""One token of a bake expression (see `BakeFile._expression`; `,` only to tell a function call)."""
_BLOCK = re.compile(r'^[ \t]*(?:target|group|variable|function)[ \t]+"', re.MULTILINE)
_NOT_LOCAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|git@|target:)", re.IGNORECASE)


@dataclass(frozen=True)
class Target:
    """One bake target, `inherits` and `${VAR}` resolved."""

    name: str
    """The target's name (`cu130`)."""
    dockerfile: str
    """The Dockerfile, `/`-separated and relative to the bake file's folder (context + dockerfile)."""
    args: Mapping[str, str]
    """Its build args, every value a string (`1` for a number written 1)."""
    target: str | None
    """The stage it builds (`target = "vllm-openai"`), None for the last."""
    tags: tuple[str, ...]
    """The image names it is tagged with."""
    target_line: int | None
    """The line of the `target` attribute that gives `target` (its own, or an inherited target's)."""
    own_args: Mapping[str, int | None] = field(default_factory=dict)
    """The build args the target's own block sets (not those it inherits) → their line in the file."""
    context: str = "."
    """The build context, `/`-separated and relative to the file's folder (a compose service's `context`)."""
    platforms: tuple[str, ...] = ()
    """The platforms a CI step builds it for (`docker/build-push-action`'s `platforms:`, expressions read),
    () when it names none or docgen cannot read them."""
    platforms_line: int | None = None
    """The line of those `platforms:`."""
    contexts: Mapping[str, str] = field(default_factory=dict)
    """Its named contexts (`contexts = { scripts = "../common" }`), name → value as written, variables
    put in; {} when it names none or docgen cannot read them."""


class BakeFile:
    """A parsed bake file: its targets, groups and variables (see the module docstring)."""

    def __init__(self, data: Mapping[str, Any], display: str, text: str) -> None:
        self.display = display
        self._text = text
        self._groups: dict[str, dict[str, Any]] = _blocks(data, "group", display)
        self._own_groups = tuple(self._groups)  # the file's `group` blocks, not those a matrix makes
        variables = _blocks(data, "variable", display)
        self._defaults = {name: body.get("default", "") for name, body in variables.items()}
        self._values: dict[str, object] = {}
        self._done: dict[str, dict[str, Any]] = {}  # targets resolved: a chain is read once, not per target
        self._parents: dict[str, tuple[str, ...]] = {}  # each target's `inherits`, read once
        self._arg_lines: dict[tuple[str, str], int | None] = {}  # (block, build arg) → its line
        if "function" in data:
            self._fail("function blocks are not supported (docgen reads no bake functions)", "function")
        self._targets: dict[str, dict[str, Any]] = {}
        self._labels: dict[str, str] = {}  # a target a matrix makes → the block that makes it
        self._scopes: dict[str, Mapping[str, object]] = {}  # a target a matrix makes → its values
        self._expand(_blocks(data, "target", display))

    # -- matrix -----------------------------------------------------------------------------------
    def _expand(self, blocks: Mapping[str, dict[str, Any]]) -> None:
        """The targets of `blocks`, in file order, each `matrix` target replaced by the targets it makes
        (one per combination of its values, the first key varying slowest, each named by its `name`)
        and made a group of them, as `docker buildx bake` does before it reads a group."""
        made = 0
        for label, body in blocks.items():
            if "matrix" not in body:
                if "name" in body:  # bake's words
                    self._fail(f'target "{label}": name requires matrix', "target", label, "name")
                self._targets[label] = body
                continue
            combinations = self._combinations(label, body["matrix"], MAX_MATRIX_TARGETS - made)
            made += len(combinations)
            own = {key: value for key, value in body.items() if key not in ("matrix", "name")}
            names: dict[str, Mapping[str, object]] = {}
            for scope in combinations:
                name = self._matrix_name(label, body, scope)
                if name in names:
                    self._duplicate(label, body, name)
                if name in self._targets or (name in blocks and name != label):
                    self._fail(
                        f'target "{label}": its matrix makes target "{name}", a name another target '
                        "block has too; docgen does not merge a matrix target with another (not supported)",
                        "target",
                        label,
                        "name",
                    )
                names[name] = scope
            for name, values in names.items():
                self._targets[name] = own
                self._labels[name] = label
                self._scopes[name] = values
            if list(names) != [label] and label not in self._groups:
                self._groups[label] = {"targets": list(names)}

    def _combinations(self, label: str, matrix: object, room: int) -> list[dict[str, object]]:
        """Each combination of the values of `matrix` (`{sm = ["80", "90"]}`), key → value; more than
        `room` is an error (counted before any is made)."""
        where = ("target", label, "matrix")
        if isinstance(matrix, str) and _INTERPOLATION.search(matrix):
            self._fail(
                f'target "{label}": matrix = {matrix} is not supported (docgen reads a matrix written out)',
                *where,
            )
        if not isinstance(matrix, dict):
            self._fail(f'target "{label}": matrix must be a map', *where)  # bake's words
        axes: list[list[object]] = []
        for key, values in matrix.items():
            if isinstance(values, str):
                inner = values[2:-1].strip() if values.startswith("${") and values.endswith("}") else ""
                if _REFERENCE.fullmatch(inner):  # `sm = SM_LIST`, a variable whose default is a list
                    values = self._list_variable(inner, where)
                else:
                    self._interpolate(values, where, ())  # a function or operator is said as such
            if not isinstance(values, list):
                self._fail(f'target "{label}": matrix values must be a list ({key} is not)', *where)
            axes.append([self._matrix_value(value, where) for value in values])
        if math.prod(len(axis) for axis in axes) > room:
            self._fail(
                f'target "{label}": the matrix targets of this file number more than {MAX_MATRIX_TARGETS}, '
                "more than docgen reads",
                *where,
            )
        keys = list(matrix)
        return [dict(zip(keys, values, strict=True)) for values in itertools.product(*axes)]

    def _list_variable(self, name: str, where: tuple[str, ...]) -> object:
        """Variable `name`'s default when it is a list (a matrix's values), else its value."""
        default = self._defaults.get(name)
        return default if isinstance(default, list) else self._value(name, where, ())

    def _matrix_value(self, value: object, where: tuple[str, ...]) -> object:
        """A value of a matrix as bake holds it: a string with its `${…}` read, a number, a boolean, or
        an object (`{ cuda = "12.8", torch = "2.7" }`) or list of those."""
        if isinstance(value, str):
            return self._interpolate(value, where, ())
        if isinstance(value, dict):
            return {key: self._matrix_value(item, where) for key, item in value.items()}
        if isinstance(value, list):
            return [self._matrix_value(item, where) for item in value]
        return value

    def _matrix_name(self, label: str, body: Mapping[str, Any], scope: Mapping[str, object]) -> str:
        """The name of the target a matrix makes with the values `scope` (the block's own name when it
        has no `name`, as bake names it)."""
        if "name" not in body:
            return label
        where = ("target", label, "name")
        written = body["name"]
        if isinstance(written, bool) or not isinstance(written, (str, int, float)):
            self._fail(f'target "{label}": name must be a string', *where)
        name = self._interpolate(written, where, (), scope) if isinstance(written, str) else str(written)
        if not _TARGET_NAME.fullmatch(name):
            self._fail(
                f'target "{label}": name {name!r} is no target name bake accepts: only "[a-zA-Z0-9_-]+" '
                "are allowed",
                *where,
            )
        return name

    def _duplicate(self, label: str, body: Mapping[str, Any], name: str) -> NoReturn:
        """Two combinations of a matrix named alike: bake's `duplicate name` error, with what to do."""
        if "name" not in body:
            self._fail(
                f'target "{label}": duplicate name "{name}": a matrix target needs a name that differs '
                f'for each combination of its values (name = "{label}-${{KEY}}")',
                "target",
                label,
            )
        self._fail(
            f'target "{label}": duplicate name "{name}": name = {body["name"]!r} is the same for two '
            "combinations of the matrix",
            "target",
            label,
            "name",
        )

    @property
    def names(self) -> tuple[str, ...]:
        """Every target's name, in file order (those a `matrix` target makes in its place)."""
        return tuple(self._targets)

    @property
    def groups(self) -> tuple[str, ...]:
        """Every group's name, in file order, then each `matrix` target's (a group of the targets it
        makes, as bake names them)."""
        return tuple(self._groups)

    def default(self) -> tuple[str, ...]:
        """The targets `docker buildx bake` builds without a target named: the `default` group's, else
        the `default` target, else every target no other target inherits from."""
        if "default" in self._groups:
            return self.expand(["default"])
        if "default" in self._targets:
            return ("default",)
        inherited = self._inherited()
        return tuple(name for name in self._targets if name not in inherited)

    def images(self) -> tuple[str, ...]:
        """Every target that is an image a build can name: those a group names, and those no other
        target inherits from (a `_common` target only holds shared attributes), in file order."""
        # a matrix target's own group is no reason: its targets are images unless only inherited from
        grouped = set(self.expand(list(self._own_groups))) if self._own_groups else set()
        inherited = self._inherited()
        return tuple(name for name in self._targets if name in grouped or name not in inherited)

    def _inherited(self) -> set[str]:
        """The names some target inherits from (`inherits = ["_common"]`)."""
        return {parent for name in self._targets for parent in self._inherits(name)}

    def _inherits(self, name: str) -> tuple[str, ...]:
        """The targets target `name` inherits from, in order, `${…}` read (`base-${sm}` in a matrix)."""
        if name not in self._parents:
            inherits = self._targets[name].get("inherits") or []
            if not isinstance(inherits, list):
                message = f'target "{name}": inherits must be a list of target names'
                self._fail(message, "target", name, "inherits")
            where = ("target", name, "inherits")
            scope = self._scopes.get(name, {})
            self._parents[name] = tuple(self._string(parent, where, scope=scope) for parent in inherits)
        return self._parents[name]

    def expand(self, names: list[str]) -> tuple[str, ...]:
        """Target names with groups replaced by their targets (recursively), each once, in order; an
        unknown name raises `KeyError` with it."""
        found: list[str] = []

        def add(name: str, seen: tuple[str, ...]) -> None:
            if name in seen and name not in self._targets:
                loop = " -> ".join((*seen, name))
                self._fail(f'group "{seen[-1]}": holds itself ({loop})', "group", seen[-1], "targets")
            if name in self._groups and name not in seen:
                targets = self._groups[name].get("targets", [])
                if not isinstance(targets, list):
                    self._fail(f'group "{name}": targets must be a list of names', "group", name, "targets")
                for member in targets:
                    add(self._string(member, ("group", name, "targets")), (*seen, name))
            elif name in self._targets:
                if name not in found:
                    found.append(name)
            elif seen:
                message = f'group "{seen[-1]}": {name!r} is no target or group of this file'
                self._fail(message, "group", seen[-1], "targets")
            else:
                raise KeyError(name)

        try:
            for name in names:
                add(name, ())
        except RecursionError:  # groups of groups thousands deep
            self._fail("groups nested too deeply to read (Python's recursion limit)", "group")
        return tuple(found)

    def target(self, name: str) -> Target:
        """Target `name` resolved (it must be one of `names`)."""
        try:
            body = self._resolved(name, ())
        except RecursionError:  # `inherits` or `((((…))))` thousands deep
            self._fail("nested too deeply to read (Python's recursion limit)", "target", name)
        context = body.get("context", ".")
        dockerfile = body.get("dockerfile", "Dockerfile")
        if _NOT_LOCAL.match(context):
            self._fail(
                f'target "{name}": context = {context!r} is not a local folder; docgen reads the '
                "Dockerfiles of the project only",
                "target",
                name,
                "context",
            )
        if posixpath.isabs(dockerfile):
            path = dockerfile
        else:
            path = posixpath.normpath(posixpath.join(context, dockerfile))
        target = body.get("target")
        return Target(
            name=name,
            dockerfile=path,
            args=body.get("args", {}),
            target=target or None,
            tags=tuple(body.get("tags", ())),
            target_line=self._line("target", body["target-from"], "target") if target else None,
            own_args={arg: self._arg_line(name, arg) for arg in self._own_args(name)},
            contexts=body.get("contexts", {}),
        )

    def _own_args(self, name: str) -> tuple[str, ...]:
        """The build args target `name`'s own block sets to a value (`NAME = null` sets none)."""
        args = self._targets[name].get("args")
        if not isinstance(args, dict):
            return ()
        return tuple(arg for arg, value in args.items() if value is not None)

    def _arg_line(self, name: str, arg: str) -> int | None:
        """Best-effort line of build arg `arg` in the `args` of target `name` (the `args` line when
        it cannot be told apart)."""
        block = self._labels.get(name, name)  # the targets of one matrix share their block's lines
        if (block, arg) not in self._arg_lines:
            self._arg_lines[block, arg] = self._find_arg_line(block, arg)
        return self._arg_lines[block, arg]

    def _find_arg_line(self, block: str, arg: str) -> int | None:
        line = self._line("target", block, "args")
        if line is None:
            return None
        at = sum(len(row) for row in self._text.splitlines(keepends=True)[: line - 1])
        following = _BLOCK.search(self._text, at + 1)
        key = re.compile(rf'(?:^[ \t]*|[{{,][ \t]*|"){re.escape(arg)}"?[ \t]*[=:]', re.MULTILINE)
        found = key.search(self._text, at, following.start() if following else len(self._text))
        return self._text.count("\n", 0, found.start()) + 1 if found else line

    # ------------------------------------------------------------------------------------------
    def _resolved(self, name: str, chain: tuple[str, ...]) -> dict[str, Any]:
        """The attributes docgen reads of target `name`: its inherited ones, then its own."""
        if name in self._done:
            return self._done[name]
        if name in chain:
            loop = " -> ".join((*chain, name))
            self._fail(f'target "{name}": inherits itself ({loop})', "target", name, "inherits")
        body = self._targets[name]
        scope = self._scopes.get(name, {})
        if "dockerfile-inline" in body:
            self._fail(
                f'target "{name}": dockerfile-inline is not supported (docgen documents a Dockerfile file)',
                "target",
                name,
                "dockerfile-inline",
            )
        merged: dict[str, Any] = {}
        for parent in self._inherits(name):
            if parent not in self._targets:
                made = self._groups.get(parent, {}) if parent not in self._own_groups else {}
                what = (
                    f"a matrix target; bake inherits one of the targets it makes, by its name "
                    f"({', '.join(made['targets'][:3])}{' …' if len(made['targets']) > 3 else ''})"
                    if made
                    else "which is no target of this file"
                )
                self._fail(f'target "{name}": inherits {parent!r}, {what}', "target", name, "inherits")
            merge_attributes(merged, self._resolved(parent, (*chain, name)))
        where = ("target", name)
        own: dict[str, Any] = {}
        for key in ("context", "dockerfile", "target"):
            if key in body and body[key] is not None:
                own[key] = self._string(body[key], (*where, key), scope=scope)
        if "target" in own:
            own["target-from"] = name  # the block that writes it, for messages
        if "args" in body and body["args"] is not None:
            args = body["args"]
            if not isinstance(args, dict):
                self._fail(f'target "{name}": args must be a map of names to values', *where, "args")
            own["args"] = {
                key: self._string(value, (*where, "args"), scalar=True, scope=scope)
                for key, value in args.items()
                if value is not None  # `NAME = null`: bake leaves it to the Dockerfile's default
            }
        if "tags" in body and body["tags"] is not None:
            tags = body["tags"]
            if not isinstance(tags, list):
                self._fail(f'target "{name}": tags must be a list of image names', *where, "tags")
            own["tags"] = [self._string(tag, (*where, "tags"), scope=scope) for tag in tags]
        contexts = body.get("contexts")
        if isinstance(contexts, dict):
            try:
                own["contexts"] = {
                    str(key): self._string(value, (*where, "contexts"), scalar=True, scope=scope)
                    for key, value in contexts.items()
                    if value is not None
                }
            except (
                ConfigError
            ):  # (named contexts are read by one check only: not a reason to refuse the file)
                pass
        merge_attributes(merged, own)
        self._done[name] = merged
        return merged

    def _string(
        self,
        value: object,
        where: tuple[str, ...],
        scalar: bool = False,
        scope: Mapping[str, object] = _NO_SCOPE,
    ) -> str:
        """`value` as bake gives it to the build: a string with `${VAR}` replaced by the variable's
        default, or by the value of a matrix key in `scope` (numbers and booleans, in `args` and
        variables, written as HCL writes them)."""
        if isinstance(value, bool) and scalar:
            return "true" if value else "false"
        if isinstance(value, (int, float)) and not isinstance(value, bool) and scalar:
            return str(value)
        if not isinstance(value, str):
            what = ".".join(where[2:]) or where[0]
            self._fail(
                f'{where[0]} "{where[1]}": {what} must be a string, not {type(value).__name__}', *where
            )
        text = self._interpolate(value, where, (), scope)
        if "\0" in text:
            what = ".".join(where[2:]) or where[0]
            self._fail(
                f'{where[0]} "{where[1]}": {what} holds a NUL character (\\u0000), which no path, name or '
                "build arg can have",
                *where,
            )
        return text

    def _interpolate(
        self,
        value: str,
        where: tuple[str, ...],
        chain: tuple[str, ...],
        scope: Mapping[str, object] = _NO_SCOPE,
    ) -> str:
        """`value` with each `${…}` replaced by what it gives (see `_expression`), `$${` by `${`; the
        names of `scope` (a matrix's keys) hide the variables of those names."""
        out: list[str] = []
        size = 0  # characters substituted so far: `default = "${A}${A}"` doubles at each variable
        at = 0
        for match in _INTERPOLATION.finditer(value):
            if match.start() < at:
                continue  # inside an expression already read
            if size > MAX_VALUE:
                self._too_long(value, where)
            out.append(value[at : match.start()])
            at = match.end()
            if match.group(0) == "$${":  # HCL's escape of a literal `${`
                out.append("${")
                continue
            depth, end = 1, at
            while end < len(value) and depth:
                depth += _BRACES.get(value[end], 0)
                end += 1
            expression = value[match.start() : end]
            if match.group(0) == "%{":
                self._fail(f"{expression}: template directives are not supported", *where)
            if depth:
                self._fail(f"{expression}: no closing '}}'", *where)
            inner = value[at : end - 1].strip()
            if _REFERENCE.fullmatch(inner):
                result = self._value(inner, where, chain, scope)
            else:
                result = self._expression(inner, expression, where, chain, scope)
            if isinstance(result, (dict, list)):
                kind = "an object" if isinstance(result, dict) else "a list"
                hint = f" (write ${{{inner}.KEY}})" if isinstance(result, dict) else ""
                self._fail(f"{expression} is {kind}, which a string cannot hold{hint}", *where)
            out.append(_text(result))
            size += len(out[-1])
            at = end
        out.append(value[at:])
        if size > MAX_VALUE:
            self._too_long(value, where)
        return "".join(out)

    def _too_long(self, value: str, where: tuple[str, ...]) -> NoReturn:
        self._fail(
            f"the value grows past {MAX_VALUE // (1024 * 1024)} MiB as variables are substituted in "
            f"{value[:80]!r}",
            *where,
        )

    def _expression(
        self,
        text: str,
        shown: str,
        where: tuple[str, ...],
        chain: tuple[str, ...],
        scope: Mapping[str, object] = _NO_SCOPE,
    ) -> object:
        """The value of a bake expression of the kinds build metadata is written with: variables,
        string, number and boolean literals, `==`, `!=`, `!`, `&&`, `||`, `cond ? a : b` and
        parentheses (`COMMIT != "" ? COMMIT : "unknown"`). Functions and arithmetic are refused."""
        tokens: list[tuple[str, str]] = []
        at = 0
        while at < len(text):
            match = _TOKEN.match(text, at)
            if match is None or not match.group(0).strip():
                if text[at:].strip() == "":
                    break
                self._unsupported(shown, where)
            assert match is not None
            kind = match.lastgroup or ""
            tokens.append((kind, match.group(kind)))
            at = match.end()
        position = 0

        def peek() -> str:
            return tokens[position][1] if position < len(tokens) else ""

        def take(expected: str | None = None) -> tuple[str, str]:
            nonlocal position
            if position >= len(tokens) or (expected is not None and tokens[position][1] != expected):
                self._unsupported(shown, where)
            position += 1
            return tokens[position - 1]

        def boolean(value: object) -> bool:
            if not isinstance(value, bool):
                self._fail(f"{shown}: {value!r} is not true or false", *where)
            return value

        def conditional() -> object:
            condition = either()
            if peek() != "?":
                return condition
            take("?")
            yes = conditional()
            take(":")
            no = conditional()
            return yes if boolean(condition) else no

        def logical(operator: str, operand: Callable[[], object]) -> object:
            """`operand`s joined by `operator` (`||` or `&&`), left to right; both sides are read."""
            value = operand()
            while peek() == operator:
                take()
                right = operand()
                value = (
                    boolean(value) or boolean(right)
                    if operator == "||"
                    else boolean(value) and boolean(right)
                )
            return value

        def either() -> object:
            return logical("||", both)

        def both() -> object:
            return logical("&&", compare)

        def compare() -> object:
            value = unary()
            if peek() in ("==", "!="):
                operator = take()[1]
                right = unary()
                return (value == right) == (operator == "==")
            return value

        def unary() -> object:
            if peek() == "!":
                take()
                return not boolean(unary())
            return primary()

        def primary() -> object:
            kind, token = take()
            if token == "(":
                value = conditional()
                take(")")
                return value
            if kind == "string":
                return self._interpolate(_literal(token), where, chain, scope)
            if kind == "number":
                return float(token) if "." in token else int(token)
            if kind == "name":
                if peek() == "(":
                    self._fail(f"{shown}: functions are not supported ({token}(…))", *where)
                if token in ("true", "false"):
                    return token == "true"
                if token == "null":
                    return None
                return self._value(token, where, chain, scope)
            self._unsupported(shown, where)

        result = conditional()
        if position != len(tokens):
            self._unsupported(shown, where)
        return result

    def _unsupported(self, shown: str, where: tuple[str, ...]) -> NoReturn:
        self._fail(
            f"{shown} is not supported: docgen reads variables, literals, ==, !=, !, &&, || and "
            "`? :` in ${…}, not functions or arithmetic",
            *where,
        )

    def _value(
        self,
        name: str,
        where: tuple[str, ...],
        chain: tuple[str, ...],
        scope: Mapping[str, object] = _NO_SCOPE,
    ) -> object:
        """The value of matrix key `name` in `scope` (`item.cuda`: an attribute of its object), else
        variable `name`'s default: a string (its `${…}` read), a number, a boolean or None."""
        root, _, path = name.partition(".")
        if root in scope:
            value = scope[root]
            for key in path.split(".") if path else ():
                if not isinstance(value, dict) or key not in value:
                    has = f"its keys are {', '.join(value)}" if isinstance(value, dict) else "it is no object"
                    self._fail(f"${{{name}}}: {root} has no attribute {key!r} ({has})", *where)
                value = value[key]
            return value
        if path:
            self._fail(
                f"${{{name}}} is not supported: docgen reads the attributes of matrix values only "
                "(not of variables or other blocks)",
                *where,
            )
        if name in self._values:
            return self._values[name]
        if name in _BUILTIN_VARIABLES:
            self._fail(f"${{{name}}} is not supported (it is set by the bake command)", *where)
        if name not in self._defaults:
            self._fail(f"${{{name}}}: no variable {name!r} in this file", *where)
        if name in chain:
            loop = " -> ".join((*chain, name))
            self._fail(f"variable {name!r} refers to itself ({loop})", "variable", name)
        default = self._defaults[name]
        if isinstance(default, str):
            default = self._interpolate(default, ("variable", name, "default"), (*chain, name))
        elif not isinstance(default, (bool, int, float)) and default is not None:
            self._fail(
                f'variable "{name}": a default of type {type(default).__name__} is not supported '
                "(docgen reads strings, numbers and booleans)",
                "variable",
                name,
                "default",
            )
        self._values[name] = default
        return default

    def _fail(self, message: str, kind: str, name: str | None = None, key: str | None = None) -> NoReturn:
        raise ConfigError(message, self.display, self._line(kind, name, key))

    def _line(self, kind: str, name: str | None = None, key: str | None = None) -> int | None:
        """Best-effort line of block `kind "name"` (or its attribute `key`) in the file's text, in
        HCL (`target "cu130" {`) or JSON (`"cu130": {` after `"target"`)."""
        text = self._text
        if kind == "target" and name is not None:
            name = self._labels.get(name, name)
        if name is None:
            block = re.search(rf'^[ \t]*{re.escape(kind)}\b|"{re.escape(kind)}"[ \t]*:', text, re.MULTILINE)
        else:
            quoted = re.escape(json.dumps(name))
            block = re.search(rf"^[ \t]*{re.escape(kind)}[ \t]+{quoted}[ \t]*\{{", text, re.MULTILINE)
            if block is None:
                section = text.find(f'"{kind}"')
                block = re.compile(rf"{quoted}[ \t\r\n]*:").search(text, max(section, 0))
        if block is None:
            return None
        at = block.start()
        if key is not None:
            attribute = re.compile(rf'(?:^[ \t]*|[{{,][ \t]*|"){re.escape(key)}"?[ \t]*[=:]', re.MULTILINE)
            following = _BLOCK.search(text, block.end())  # an HCL block ends where the next begins
            found = attribute.search(text, block.end(), following.start() if following else len(text))
            if found is not None:
                at = found.start()
        return text.count("\n", 0, at) + 1


def _text(value: object) -> str:
    """A value as bake writes it into a string: `true`, `16`, `` for null."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def merge_attributes(into: dict[str, Any], attributes: Mapping[str, Any]) -> None:
    """Bake's inheritance: `args` and `contexts` merged name by name, every other attribute replaced."""
    for key, value in attributes.items():
        if key in ("args", "contexts"):
            into[key] = {**into.get(key, {}), **value}
        else:
            into[key] = value


def _blocks(data: Mapping[str, Any], kind: str, display: str) -> dict[str, dict[str, Any]]:
    """The `kind` blocks of a parsed file, name → attributes (a name given twice: the blocks merged,
    later attributes winning, as bake merges them)."""
    found: dict[str, dict[str, Any]] = {}
    value = data.get(kind, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{kind} must be a map of names to blocks", display)
    for name, body in value.items():
        if not isinstance(body, dict):
            raise ConfigError(f'{kind} "{name}" must be a block', display)
        found.setdefault(name, {}).update(body)
    return found


def parse(data: bytes, display: str) -> BakeFile:
    """The bake file whose bytes are `data` (HCL when `display` ends in `.hcl`, else JSON)."""
    try:
        return _parse(data, display)
    except RecursionError:  # `[[[[…]]]]` or `((((…))))` thousands deep
        raise ConfigError("nested too deeply to read (Python's recursion limit)", display) from None


def _parse(data: bytes, display: str) -> BakeFile:
    try:
        text = data.decode("utf-8").replace("\r\n", "\n")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ConfigError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", display, line) from None
    if display.endswith(".hcl"):
        return BakeFile(_parse_hcl(text, display), display, text)
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"invalid JSON: {exc.msg}", display, exc.lineno) from None
    if not isinstance(parsed, dict):
        raise ConfigError("a bake file in JSON is an object of variable, group and target", display, 1)
    return BakeFile(parsed, display, text)


def _parse_hcl(text: str, display: str) -> dict[str, Any]:
    """An HCL bake file as the JSON form holds it (`{"target": {"name": {…}}}`), read by python-hcl2."""
    try:
        import hcl2
    except ImportError:
        raise ConfigError(
            f"reading an HCL bake file needs the python-hcl2 package: {INSTALL_HCL} "
            "(or write the file as JSON: docker buildx bake --print)",
            display,
        ) from None
    # quotes kept: python-hcl2 writes a string literal `"x"` as '"x"', a reference `X` as 'X' and
    # any other expression as '${…}' (stripping the quotes would make the literal "X" a reference)
    options = hcl2.SerializationOptions(with_comments=False)
    try:
        tree = hcl2.loads(text, serialization_options=options)
    except Exception as exc:  # the parser's (lark's) errors share no base class worth naming
        line = getattr(exc, "line", None)
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ConfigError(f"invalid HCL: {first}", display, line if isinstance(line, int) else None) from None
    found: dict[str, Any] = {}
    for kind, blocks in tree.items():
        if not isinstance(blocks, list):  # `NAME = "value"` at the top level: bake reads it as a variable
            found.setdefault("variable", {}).setdefault(kind, {})["default"] = _from_hcl(blocks)
            continue
        table = found.setdefault(kind, {})
        for block in blocks:
            for name, body in block.items() if isinstance(block, dict) else ():
                table.setdefault(_literal(name), {}).update(_from_hcl(body) if isinstance(body, dict) else {})
    return found


def _from_hcl(value: Any) -> Any:
    """A value as python-hcl2 gives it, as the JSON form writes it: a string literal without its quotes
    and escapes, a reference `NAME` as `${NAME}`, another expression as the `${…}` it is given as."""
    if isinstance(value, dict):
        return {_literal(k): _from_hcl(v) for k, v in value.items() if not k.startswith("__")}
    if isinstance(value, list):
        return [_from_hcl(item) for item in value]
    if isinstance(value, str):
        if _NAME.fullmatch(value) and value not in ("true", "false", "null"):
            return "${" + value + "}"
        return _literal(value)
    return value


def _literal(text: str) -> str:
    """An HCL string literal (`"a\\"b"`) as its value; anything else as it is."""
    if len(text) >= 2 and text[0] == text[-1] == '"':
        try:
            value = json.loads(text)  # HCL's escapes are JSON's (`\\n`, `\\"`, `\\u00e9`)
        except json.JSONDecodeError:
            return text[1:-1]
        return value if isinstance(value, str) else text[1:-1]
    return text
