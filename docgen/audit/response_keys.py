"""A JSON response a README documents for a route of the project's own FastAPI app (`**Response**:` under
`POST /v1/embeddings`) whose top-level keys are none of the fields of the model the route declares as
its `response_model` (`@app.post("/v1/embeddings", response_model=EmbeddingResponse)`, `class
EmbeddingResponse(BaseModel): data: List[EmbeddingData]`): FastAPI returns the model's fields and only
them, so a client written from the README reads keys the server never sends.

Read: each JSON block of the README (`json` or unlabelled, an object) whose label, the nearest line of
text above it (two lines at most), names a response (`Response:`, `**Response**`, `Example response`)
and no error (`Error`, `4xx`, `5xx`); the route it documents is the nearest `METHOD /path` written above
it (`POST /v1/embeddings`, within `_LOOK_BACK` lines, under the same heading). The route is one the
Python files of the README's folder register (`request_routes.routes`, which reads none when the code
mounts routes under a prefix), with that method, and its decorator names a model by a plain name; the
model is a class of the same file that subclasses `BaseModel` itself, each of its fields an annotated
name, and nothing that changes what it returns (no alias, no `model_config` or `Config`, no decorator
such as `@model_serializer` or `@computed_field`, no extra fields allowed). Told (`certain`) when no
top-level key of the block is a field. Silent when the decorator also sets `response_model_*` options
or `response_class`.

Each block looks back a bounded number of lines; each file is read once (`request_routes`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import CERTAIN
from docgen.audit.request_routes import routes
from docgen.markdown import Document
from docgen.model import Diagnostic

_LOOK_BACK = 30
"""How many lines above a response block the route it documents may be named."""
_RESPONSE = re.compile(r"\bresponses?\b", re.IGNORECASE)
_ERROR = re.compile(r"\berrors?\b|\bfail\w*|\b[45]\d\d\b|\binvalid\b", re.IGNORECASE)
_NAMED_ROUTE = re.compile(r"\b(GET|POST|PUT|PATCH|DELETE)\b[\s`*:]*(/[\w.~/{}-]*)")
"""A route a line of the README names: `POST /v1/embeddings`, `**POST `/v1/embeddings`**`."""
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]")
_MODEL = re.compile(r"\bresponse_model[ \t]*=[ \t]*([A-Za-z_]\w*)[ \t]*[,)]")
_OPTIONS = re.compile(r"\bresponse_model_\w+|\bresponse_class\b")
_FIELD = re.compile(r"^([ \t]+)([A-Za-z_]\w*)[ \t]*:[^=\n]")
_CHANGES = re.compile(r"\balias\b|\bmodel_config\b|\bclass[ \t]+Config\b|\bextra\b|^[ \t]*@", re.MULTILINE)
"""What in a model's body changes the keys it returns: an alias, its configuration, a decorator."""


def response_keys(doc: Document, text: str, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """The README's response examples whose keys are none of the route's response model's fields (see
    the module's docstring): `README documents the response of POST /v1/embeddings with the key
    embeddings, but app.py:23 declares response_model=EmbeddingResponse, whose fields are data
    (app.py:20): FastAPI returns only those`."""
    blocks = [f for f in doc.fences if f.lang.lower() in ("json", "") and f.lines and not f.inline]
    blocks = [f for f in blocks if f.lines[0][1].lstrip().startswith("{")]
    if not blocks:
        return
    raw = text.splitlines()
    served: dict[str, tuple[str, int, str]] | None = None
    for block in blocks:
        opening = block.lines[0][0] - 1  # the README line of the fence's opening
        label = _label(raw, opening)
        if label is None or not _RESPONSE.search(label) or _ERROR.search(label):
            continue
        named = _route_above(raw, opening)
        if named is None:
            continue
        method, path = named
        if served is None:
            served = routes(directory)
        if path not in served:
            continue
        file, line, code = served[path]
        model = _response_model(code, line, method)
        if model is None:
            continue
        fields = _fields(code, model)
        keys = top_keys("\n".join(t for _, t in block.lines))
        if fields is None or not keys or set(keys) & set(fields[1]):
            continue
        plural = "s" if len(keys) > 1 else ""
        yield Diagnostic(
            readme,
            block.lines[0][0],
            f"README documents the response of {method} {path} with the key{plural} {', '.join(keys)}, "
            f"but {file}:{line} declares response_model={model}, whose fields are "
            f"{', '.join(fields[1])} ({file}:{fields[0]}): FastAPI returns only those",
            confidence=CERTAIN,
        )


def _label(raw: list[str], opening: int) -> str | None:
    """The nearest line of text above the README line `opening` (two lines up at most)."""
    for number in range(opening - 1, max(0, opening - 3), -1):
        line = raw[number - 1].strip() if number - 1 < len(raw) else ""
        if line:
            return line
    return None


def _route_above(raw: list[str], opening: int) -> tuple[str, str] | None:
    """(method, path) of the nearest route named above the README line `opening`, not past a heading."""
    for number in range(opening - 1, max(0, opening - 1 - _LOOK_BACK), -1):
        line = raw[number - 1] if number - 1 < len(raw) else ""
        match = _NAMED_ROUTE.search(line)
        if match is not None:
            return match.group(1), match.group(2)
        if _HEADING.match(line):
            return None
    return None


def _response_model(code: str, line: int, method: str) -> str | None:
    """The model the route decorator at `line` of `code` names as its `response_model`, when the
    decorator is of `method` and sets no other response option; None otherwise."""
    lines = code.splitlines()
    start = next(
        (n for n in range(line, max(0, line - 3), -1) if lines[n - 1].lstrip().startswith("@")), line
    )
    decorator = "\n".join(lines[start - 1 : line + 5])
    end = decorator.find("\n@")
    decorator = decorator if end < 0 else decorator[:end]  # (the next route's decorator)
    if f".{method.lower()}" not in decorator.split("(", 1)[0] or _OPTIONS.search(decorator):
        return None
    match = _MODEL.search(decorator.split("\ndef ", 1)[0].split("\nasync def ", 1)[0])
    return match.group(1) if match is not None else None


def _fields(code: str, model: str) -> tuple[int, list[str]] | None:
    """(line, field names) of the class `model` of `code`, when it is the one class of that name,
    subclasses `BaseModel` itself and declares nothing that changes its keys (`_CHANGES`)."""
    classes = list(re.finditer(rf"^class[ \t]+{re.escape(model)}\b(.*)$", code, re.MULTILINE))
    if len(classes) != 1 or not re.fullmatch(
        r"[ \t]*\([ \t]*BaseModel[ \t]*\)[ \t]*:[ \t]*", classes[0].group(1)
    ):
        return None
    start = classes[0].end() + 1
    body: list[str] = []
    for line in code[start:].splitlines():
        if line.strip() and not line[0].isspace():
            break
        body.append(line)
    text = "\n".join(body)
    if _CHANGES.search(text):
        return None
    fields = [m.group(2) for line in body if (m := _FIELD.match(line))]
    indent = {m.group(1) for line in body if (m := _FIELD.match(line))}
    if not fields or len(indent) != 1:
        return None
    return code.count("\n", 0, classes[0].start()) + 1, fields


def top_keys(block: str) -> list[str]:
    """The keys of the top-level object of a JSON example (its `...` placeholders allowed), in order;
    none when the block is not one object."""
    keys: list[str] = []
    depth = 0
    index = 0
    while index < len(block):
        char = block[index]
        if char == '"':
            end = block.find('"', index + 1)
            while end > 0 and block[end - 1] == "\\":
                end = block.find('"', end + 1)
            if end < 0:
                return []
            if depth == 1 and re.match(r"[ \t]*:", block[end + 1 :]):
                keys.append(block[index + 1 : end])
            index = end + 1
            continue
        if char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0 and block[index + 1 :].strip():
                return []  # more than one value
        index += 1
    return list(dict.fromkeys(keys)) if depth == 0 else []
