"""Keyword arguments a README gives a function of a Python module the image ships, against the
function's signature.

```
COPY material/helpers.py /tmp/helpers.py        # helpers.py: def upload(name, note="", tags=None): …
```

A README that documents the arguments of `upload` (a list of `` `name`: text `` items under a line
naming the module and the function and speaking of its arguments, or a call `helpers.upload(nte="x")`
in a Python code block) names a parameter the function does not have: calling it so raises `TypeError`
(`unexpected keyword argument`). Reported `likely`, at the README line, with the parameter one edit
away when there is one.

The modules are the `.py` files the images copy from the build context, named as the image names them,
read with `ast` (never run or imported); only undecorated functions defined at a module's top level are
compared (a decorator may change what a function takes). Silent for: a function with
`**kwargs` (it takes any keyword); a name defined in two of the shipped modules or also as a method of
a class there; a call through another name than the module's (`other.upload(…)`, a package's function
of the same name) or a bare call the block does not import from the module; a code block that does not
parse as Python; a list whose items are mostly not parameters of the function (another function's);
an item that is not one word in backticks.
"""

from __future__ import annotations

import ast
import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from docgen.audit.auditor import LIKELY
from docgen.copied import copied_texts
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_ITEM = re.compile(
    r"([ \t]*)[-*+][ \t]+(?:\*\*[^*\n]{0,40}\*\*[ \t]*)?`([A-Za-z_]\w*)`[ \t]*(?:\*\*)?[ \t]*[:：]"
)
"""A list item `` `name`: text `` (maybe after a bold tag: `**(required)**`)."""
_ANY_ITEM = re.compile(r"([ \t]*)(?:[-*+]|\d{1,9}[.)])[ \t]+")
_ARGUMENT_WORDS = re.compile(r"\barg(?:ument)?s?\b|\bparam(?:eter)?s?\b|\bkwargs?\b|引数|参数", re.IGNORECASE)
_PYTHON_FENCES = frozenset({"python", "py", "python3", "ipython", ""})


@dataclass(frozen=True)
class _Function:
    module: str
    """The module's name (the file's stem: `helpers`)."""
    file: str
    """The file's name (`helpers.py`)."""
    line: int
    params: tuple[str, ...]
    any_keyword: bool
    """True for `**kwargs`."""


def _functions(texts: dict[str, str]) -> dict[str, _Function]:
    """Name → the top-level function of that name in the modules `texts` (file name → source), for a
    name defined once across them and as no method."""
    found: dict[str, list[_Function]] = {}
    methods: set[str] = set()
    for file, text in texts.items():
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, MemoryError, RecursionError):  # too deep for the parser
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                methods.update(
                    n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                )
        for node in tree.body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if node.decorator_list:
                methods.add(node.name)  # a decorator may change what it takes
                continue
            args = node.args
            params = tuple(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))
            found.setdefault(node.name, []).append(
                _Function(file[: -len(".py")], file, node.lineno, params, args.kwarg is not None)
            )
    return {name: fns[0] for name, fns in found.items() if len(fns) == 1 and name not in methods}


def _shipped(models: Sequence[ImageModel]) -> dict[str, str]:
    """File name → text of the `.py` files the images copy (one text per name; a name with two texts is
    left out)."""
    texts: dict[str, str] = {}
    clashing: set[str] = set()
    for model in models:
        if not model.file:
            continue
        read = copied_texts(model.file, tuple(model.context_copies))
        if read is None:
            continue
        for copied, text in read[0]:
            name = posixpath.basename(copied.dest)
            if not name.endswith(".py") or not name[:-3].isidentifier():
                continue
            if texts.setdefault(name, text) != text:
                clashing.add(name)
    return {name: text for name, text in texts.items() if name not in clashing}


def _slip(name: str, params: Sequence[str]) -> str | None:
    """The parameter one edit (a letter added, dropped, changed, or two swapped) from `name`, if one."""
    near = [p for p in params if _one_edit(name, p)]
    return near[0] if len(near) == 1 else None


def _one_edit(a: str, b: str) -> bool:
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _message(said: str, how: str, name: str, fn: _Function) -> str:
    shown = ", ".join(fn.params[:6]) + (", …" if len(fn.params) > 6 else "")
    slip = _slip(said, fn.params)
    hint = f" (it has {slip})" if slip else ""
    return (
        f"README {how} `{said}` to {fn.module}.{name}, but {fn.file}:{fn.line}, which the image ships, "
        f"defines {name}({shown}) with no parameter {said}{hint}"
    )


def shipped_functions(
    doc: Document, text: str, readme: str, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    if "`" not in text:
        return
    functions = _functions(_shipped(models))
    if not functions:
        return
    named = [n for n in functions if n in text]
    if not named:
        return
    yield from _listed(text, readme, functions)
    yield from _called(doc, readme, functions)


def _listed(text: str, readme: str, functions: dict[str, _Function]) -> Iterator[Diagnostic]:
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if "`" not in line or not _ARGUMENT_WORDS.search(line):
            continue
        spans = set(re.findall(r"`([A-Za-z_][\w.]*)`", line))
        names = [
            n
            for n in functions
            if (n in spans or f"{functions[n].module}.{n}" in spans)
            and (
                functions[n].module in line
                or functions[n].module in "\n".join(lines[max(0, index - 3) : index])
            )
        ]
        if len(names) != 1:
            continue
        name = names[0]
        fn = functions[name]
        head = _ANY_ITEM.match(line)
        top = len(head.group(1).expandtabs(4)) if head else -1
        items: list[tuple[int, str]] = []
        depth: int | None = None
        for at in range(index + 1, len(lines)):
            below = lines[at]
            if not below.strip():
                continue
            indent = len(below) - len(below.lstrip())
            item = _ANY_ITEM.match(below)
            if (head and indent <= top) or (not head and item is None and indent == 0):
                break
            if item is None:
                continue
            width = len(item.group(1).expandtabs(4))
            depth = width if depth is None else depth
            if width < depth:
                break
            if width == depth:
                entry = _ITEM.match(below)
                items.append((at, entry.group(2) if entry else ""))
        given = [n for _, n in items if n]
        if len(given) < 2 or 2 * sum(1 for n in given if n in fn.params) <= len(items):
            continue
        if fn.any_keyword:
            continue
        for at, said in items:
            if said and said not in fn.params:
                yield Diagnostic(
                    readme, at + 1, _message(said, "lists the argument", name, fn), confidence=LIKELY
                )


def _called(doc: Document, readme: str, functions: dict[str, _Function]) -> Iterator[Diagnostic]:
    for fence in doc.fences:
        if fence.lang.lower() not in _PYTHON_FENCES or not fence.lines:
            continue
        first = fence.lines[0][0]
        body = "\n".join(line for _, line in fence.lines)
        if not any(name in body for name in functions):
            continue
        trees = _statements(_dedent(body).splitlines())
        imported: set[str] = set()
        defined: set[str] = set()
        nodes = [(offset, node) for offset, tree in trees for node in ast.walk(tree)]
        for _, node in nodes:
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.update(
                    alias.name
                    for alias in node.names
                    if alias.asname is None
                    and alias.name in functions
                    and node.module.split(".")[-1] == functions[alias.name].module
                )
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defined.add(node.name)
        for offset, node in nodes:
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                name = func.attr
                if name not in functions or func.value.id != functions[name].module:
                    continue
            elif isinstance(func, ast.Name):
                name = func.id
                if name not in imported or name in defined:
                    continue
            else:
                continue
            fn = functions[name]
            if fn.any_keyword:
                continue
            for keyword in node.keywords:
                if keyword.arg is not None and keyword.arg not in fn.params:
                    line = first + offset + keyword.value.lineno - 1
                    yield Diagnostic(
                        readme, line, _message(keyword.arg, "passes", name, fn), confidence=LIKELY
                    )


_CHUNK = 30
"""The most lines one statement of a code block is read over."""


def _statements(lines: list[str]) -> list[tuple[int, ast.Module]]:
    """(offset of its first line, tree) of each run of lines of a code block that parses as Python, read
    from the top, the shortest run from each line; a line no run parses from is skipped (`{"a": 1, ...}`
    or an elided call)."""
    found: list[tuple[int, ast.Module]] = []
    index = 0
    while index < len(lines) and len(lines) <= 20 * _CHUNK:
        if not lines[index].strip() or lines[index][0] in " \t":
            index += 1
            continue
        for end in range(index + 1, min(index + _CHUNK, len(lines)) + 1):
            try:
                tree = ast.parse("\n".join(lines[index:end]))
            except (SyntaxError, ValueError, MemoryError, RecursionError):  # too deep for the parser
                continue
            found.append((index, tree))
            index = end
            break
        else:
            index += 1
    return found


def _dedent(body: str) -> str:
    """The block's text with the indentation common to its lines taken off."""
    lines = body.splitlines()
    widths = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(widths, default=0)
    return "\n".join(line[cut:] for line in lines)
