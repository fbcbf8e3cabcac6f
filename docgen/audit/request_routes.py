"""A request a code block of the README sends to the project's own server (`curl
http://localhost:8000/v1/audio/transscriptions`) on a path no route of the server has, one slip away from
a route its code registers (`@app.post("/v1/audio/transcriptions")`, whisper.py:73): the command gets a
404 as written.

Routes are read from the Python files of the README's folder and below (FastAPI's and Flask's
decorators: `@app.get("/x")`, `@router.post("/x")`, `@bp.route("/x")`, and `add_url_rule("/x", …)`).
Only a request to this machine (`localhost`, `127.0.0.1`, `0.0.0.0`) is read, never an external URL,
and only on a port the project names (a `-p` or `ports:` of the README, the audited Dockerfiles, a
Compose file next to the README, or the file of the route); a path is a finding only when it is one
edit (a letter added, dropped or changed) from exactly one route written without parameters, and no
route (with its `{id}` or `<id>` parameters read as any segment, a trailing `/` aside) serves it.
Silent when the code mounts routes under a prefix (`include_router`, `register_blueprint`, `prefix=`,
`url_prefix`, `.mount(`), in the file of the routes or any other Python file read (`main.py` including
the router of `routes.py` with `prefix="/v1"`): the paths it serves are not the ones written; when a
route decorator's path is not a string written first (`path=`, a variable, an f-string: a route not
known); when the folder holds more than `_WALK_LIMIT` entries; and for a line of a block after a `docker
exec` or `ssh` (another machine's localhost).

A FastAPI router a file makes with a plain-string prefix (`router = APIRouter(prefix="/asr")`) and the app
includes as it is (`app.include_router(router)`) serves its decorators' paths under that prefix
(`_routers`); a router included under a `prefix=` of its own or into another router is still a prefix not
read. A path beside exactly one route (the same folder, the last segment other but with the same first
word: `/asr/upload_file` for `/asr/upload_folder`) is a finding too, `likely` (`_sibling`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import CERTAIN, LIKELY, dockerfile_read
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_LOCAL_URL = re.compile(
    r"\bhttps?://(?:localhost|127\.0\.0\.1|0\.0\.0\.0)(?::(\d{1,5}))?(/[\w.~%/-]*)?(?=[\s\"'`?#)\]},;]|\Z)"
)
"""A URL of this machine's server, its port and path (up to a query, a fragment or a quote)."""
_ROUTE = re.compile(
    r"^[ \t]*@[ \t]*([A-Za-z_][\w.]*)\.(?:get|post|put|patch|delete|head|options|route|api_route|websocket)"
    r"[ \t]*\([ \t]*[\"'](/[^\"'\s]*)[\"']"
    r"|\badd_url_rule[ \t]*\([ \t]*[\"'](/[^\"'\s]*)[\"']",
    re.MULTILINE,
)
"""A route a FastAPI or Flask app registers: a decorator's object and path, or `add_url_rule`'s path."""
_DECORATOR = re.compile(
    r"^[ \t]*@[ \t]*[A-Za-z_][\w.]*\.(?:get|post|put|patch|delete|head|options|route|api_route|websocket)"
    r"[ \t]*\(",
    re.MULTILINE,
)
"""Any route decorator: one whose path `_ROUTE` does not read (`path=`, a variable, an f-string) registers
a route not known."""
_PREFIXED = re.compile(r"\b(?:include_router|register_blueprint|url_prefix)\b|\bprefix[ \t]*=|\.mount\(")
"""Code serving routes under a path not written in their decorator."""
_ROUTER = re.compile(
    r"^[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*(?:fastapi\.)?APIRouter[ \t]*\(([^()]*)\)", re.MULTILINE
)
"""A FastAPI router made in a file with its arguments (`router = APIRouter(prefix="/asr", tags=[…])`)."""
_ROUTER_PREFIX = re.compile(r"\bprefix[ \t]*=[ \t]*[\"']((?:/[^\"'\s]*)?)[\"'][ \t\n]*(?:,|\Z)")
"""A router's `prefix=` written as a plain string: group 1 its path."""
_INCLUDED = re.compile(r"\b([A-Za-z_][\w.]*)\.include_router[ \t]*\(([^()]*)\)")
"""`app.include_router(router)`: group 1 what includes it, group 2 the arguments (a `prefix=` there
mounts the router under a path more)."""
_MOUNTS = re.compile(
    r"\b(?:include_router|register_blueprint|url_prefix)\b|\bAPIRouter[ \t]*\([^)]*\bprefix[ \t]*="
    r"|\.mount\([ \t]*[\"']/"
    r"|\.add_(?:api_)?route[ \t]*\(|\bRoute[ \t]*\([ \t]*[\"']/"
)
"""What mounts routes under a prefix in a file that registers none (`app.include_router(router,
prefix="/v1")` in main.py), or registers routes no decorator shows (`app.add_api_route("/x", f)`,
Starlette's `Route("/x", f)`): not a `prefix=` of anything else (`mkdtemp(prefix="run")`) nor a client's
`session.mount("https://", adapter)`."""
_ELSEWHERE = re.compile(r"\b(?:docker(?:[ \t]+compose|-compose)?[ \t]+exec|kubectl[ \t]+exec|ssh)\b")
"""A command whose next commands run on another machine or in a container."""
_PARAM = re.compile(r"\{[^/{}]*\}|<[^/<>]*>")
"""A route's parameter (`{item_id}`, `<int:item_id>`): any one segment."""
_WALK_LIMIT = 3000
"""At most this many entries of the README's folder are listed."""
_SKIPPED = frozenset({"node_modules", "site-packages", "venv", "__pycache__"})


def request_routes(
    doc: Document, directory: Path, readme: str, models: Sequence[ImageModel] = ()
) -> Iterator[Diagnostic]:
    """The requests (see the module) of the README's code blocks to a path one slip from a route of the
    project's server that no route serves; one finding a path, at its first line, naming the others."""
    requests: dict[str, tuple[list[int], set[str]]] = {}  # path → its lines, its ports ("" none)
    for fence in doc.fences:
        away = False
        for line, text in fence.lines:
            if _ELSEWHERE.search(text):
                away = True
            if away or "//" not in text:
                continue
            for match in _LOCAL_URL.finditer(text):
                path = match.group(2) or "/"
                if path.strip("/"):
                    lines, ports = requests.setdefault(path, ([], set()))
                    if line not in lines:
                        lines.append(line)
                    ports.add(match.group(1) or "")
    if not requests:
        return
    routes = _routes(directory)
    if not routes:
        return
    served = [_served(route) for route in routes]
    literal = [(route, at) for route, at in routes.items() if not _PARAM.search(route)]
    published: str | None = None  # the texts that name the project's ports: read once, when needed
    for path, (lines, ports) in requests.items():
        bare = path.rstrip("/") or "/"
        if any(pattern.fullmatch(bare) for pattern in served):
            continue
        close = [(route, at) for route, at in literal if one_edit(bare, route.rstrip("/") or "/")]
        sure = CERTAIN
        if not close:
            close = [(route, at) for route, at in literal if _sibling(bare, route.rstrip("/") or "/")]
            sure = LIKELY
        if len(close) != 1:
            continue
        route, (file, number, text) = close[0]
        if published is None:
            published = _published(doc, directory, models)
        if not all(not port or re.search(rf"(?<!\d){port}(?!\d)", published + "\n" + text) for port in ports):
            continue
        first, *more = lines
        also = f"; also at line{'s' if len(more) > 1 else ''} {', '.join(map(str, more))}" if more else ""
        yield Diagnostic(
            readme,
            first,
            f"README sends a request to {path}, which the project's server does not serve ({file}:{number} "
            f"registers {route}){also}",
            confidence=sure,
        )


def _files_below(base: Path) -> list[Path] | None:
    """The files below the folder `base`, folder by folder in sorted order, not in folders named `.…`,
    skipped (`_SKIPPED`) or linked; None when the folder holds more than `_WALK_LIMIT` entries."""
    found: list[Path] = []
    seen = 0
    for folder, subfolders, files in os.walk(base):
        subfolders[:] = sorted(
            d
            for d in subfolders
            if not d.startswith(".") and d not in _SKIPPED and not os.path.islink(os.path.join(folder, d))
        )
        seen += len(subfolders) + len(files)
        if seen > _WALK_LIMIT:
            return None
        found += [Path(folder) / name for name in sorted(files)]
    return found


def _routes(directory: Path) -> dict[str, tuple[str, int, str]]:
    """Each route the Python files below `directory` register → (file, line, the file's text), the first
    one found, under the `prefix=` of the FastAPI router it is registered on (`_routers`); none when the
    code mounts routes under a prefix not read so or the folder is too large to list."""
    base = directory.resolve()
    found: dict[str, tuple[str, int, str]] = {}
    listed = _files_below(base)
    if listed is None:
        return {}
    files: list[tuple[Path, str]] = []
    for path in listed:
        if path.suffix != ".py":
            continue
        text = text_or_none(path, MAX_PROJECT_FILE_BYTES)
        if text is not None:
            files.append((path, text))
    read = _routers(files)
    if read is None:
        return {}
    for path, text in files:
        prefixes, rest = read[path]
        if _MOUNTS.search(rest):
            return {}  # routes mounted under a prefix, from this file or another
        if "@" not in text and "add_url_rule" not in text:
            continue
        matches = list(_ROUTE.finditer(text))
        if len(_DECORATOR.findall(text)) > sum(1 for m in matches if m.group(2)):
            return {}  # a route whose path is not read: any path may be served
        if not matches:
            continue
        if _PREFIXED.search(rest):
            return {}
        relative = path.relative_to(base).as_posix()
        for match in matches:
            if match.group(2):
                owner = match.group(1).rsplit(".", 1)[-1]
                if owner not in prefixes and any(owner in other for other, _ in read.values()):
                    return {}  # a router of another file: its prefix is that file's
                route = prefixes.get(owner, "") + match.group(2)
                number = text.count("\n", 0, match.start(2)) + 1
            else:
                route = match.group(3)
                number = text.count("\n", 0, match.start(3)) + 1
            found.setdefault(route, (relative, number, text))
    return found


def _routers(files: Sequence[tuple[Path, str]]) -> dict[Path, tuple[dict[str, str], str]] | None:
    """For each file, its FastAPI routers made with a plain-string prefix or none (`router =
    APIRouter(prefix="/asr")` → {"router": "/asr"}) and its text with those and the `include_router`
    calls that add no prefix of their own blanked out (what is left is read for other mounts); None when
    a router is included under a prefix (`include_router(r, prefix=…)`), into another router (its
    routes under both prefixes), or made twice in one file."""
    made: dict[Path, dict[str, str]] = {}
    spans: dict[Path, list[tuple[int, int]]] = {}
    for path, text in files:
        routers: dict[str, str] = {}
        for match in _ROUTER.finditer(text):
            prefix = ""
            if re.search(r"\bprefix\b", match.group(2)):
                given = _ROUTER_PREFIX.search(match.group(2))
                if given is None:
                    continue  # a prefix not written as a string: left for `_MOUNTS`
                prefix = given.group(1)
            if match.group(1) in routers:
                return None
            routers[match.group(1)] = prefix
            spans.setdefault(path, []).append(match.span())
        made[path] = routers
    names = {name for routers in made.values() for name in routers}
    read: dict[Path, tuple[dict[str, str], str]] = {}
    for path, text in files:
        for match in _INCLUDED.finditer(text):
            if re.search(r"\bprefix\b", match.group(2)) or match.group(1).rsplit(".", 1)[-1] in names:
                return None
            spans.setdefault(path, []).append(match.span())
        rest = text
        for begin, end in sorted(spans.get(path, []), reverse=True):
            rest = rest[:begin] + " " * (end - begin) + rest[end:]
        read[path] = (made[path], rest)
    return read


def routes(directory: Path) -> dict[str, tuple[str, int, str]]:
    """Each route the Python files below `directory` register → (file, line, the file's text) (see
    `_routes`): for the rules that read what a route returns (`response_keys`)."""
    return _routes(directory)


def _served(route: str) -> re.Pattern[str]:
    """The paths `route` serves: its parameters any one segment, a trailing `/` or none."""
    parts = _PARAM.split(route.rstrip("/") or "/")
    return re.compile("[^/]+".join(re.escape(part) for part in parts) + "/?")


_FIRST_WORD = re.compile(r"[A-Za-z]{3,}")


def _sibling(path: str, route: str) -> bool:
    """Whether `path` names another endpoint beside `route`: the same folder (`/asr/`), the last segment
    other but starting with the same word (`upload_file` beside `upload_folder`): the README names the
    route under another name, an old one or a guess."""
    folder, _, name = path.rpartition("/")
    route_folder, _, route_name = route.rpartition("/")
    if folder != route_folder or name == route_name:
        return False
    word, route_word = _FIRST_WORD.match(name), _FIRST_WORD.match(route_name)
    return (
        word is not None
        and route_word is not None
        and word.group(0).lower() == route_word.group(0).lower()
        and name[word.end() : word.end() + 1] in "_-"
        and route_name[route_word.end() : route_word.end() + 1] in "_-"
        and bool(name[word.end() + 1 :])
        and bool(route_name[route_word.end() + 1 :])
    )


def one_edit(a: str, b: str) -> bool:
    """True when `a` and `b` differ by exactly one letter added, dropped or changed."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    if len(a) == len(b):
        return a[at + 1 :] == b[at + 1 :]
    return a[at:] == b[at + 1 :]


def _published(doc: Document, directory: Path, models: Sequence[ImageModel]) -> str:
    """The texts that name the ports of the project's image: the README's code lines publishing one
    (`-p`, `--publish`, `ports`), the audited Dockerfiles and the Compose files next to the README."""
    texts = [
        text
        for fence in doc.fences
        for _, text in fence.lines
        if re.search(r"(?<![\w-])(?:-p|--publish)\b|\bports\b", text)
    ]
    for model in models:
        read = dockerfile_read(model.file) if model.file else None
        texts.append(read[0] if read is not None else "")
    for name in compose.DEFAULT_FILES:
        if os.path.isfile(directory / name):
            texts.append(text_or_none(directory / name, MAX_PROJECT_FILE_BYTES) or "")
    return "\n".join(texts)


# --------------------------------------------------------------------------------------------------
# A WebSocket endpoint given as the server's bare root while the server serves sockets on a path

_SOCKET_URL = re.compile(
    r"\bwss?://(?:localhost|127\.0\.0\.1|0\.0\.0\.0)(?::(\d{1,5}))?(/[\w.~%/-]*)?(?=[\s\"'`?#)\]},;*]|\Z)"
)
"""A WebSocket URL of this machine's server, its port and path."""
_ANNOUNCED = re.compile(
    r"\b(?:echo|printf|print|log\w*|info|say)\b[^\n]*?\bwss?://[^\s/\"'`]*?:(\d{1,5}|\$\{?\w+\}?)"
    r"(/[\w.~%/-]+)",
    re.IGNORECASE,
)
"""A script's line telling where its server's WebSocket is (`echo "endpoint: ws://${HOST}:${PORT}/api/asr"`)."""
_SOCKET_ROUTE = re.compile(
    r"^[ \t]*@[ \t]*[A-Za-z_][\w.]*\.websocket(?:_route)?[ \t]*\([ \t]*[\"']([^\"']*)[\"']", re.MULTILINE
)
"""A FastAPI/Starlette WebSocket route (`@app.websocket("/ws")`)."""
_SOCKET_FILES = (".sh", ".bash", ".py")


def root_sockets(doc: Document, directory: Path, readme: str) -> Iterator[Diagnostic]:
    """A WebSocket URL of the README on this machine with no path (`ws://localhost:8000`), on a port
    no WebSocket URL of the README gives a path, while the project's server serves its socket only on
    a path: every WebSocket route its Python code registers (`@app.websocket("/api/asr")`) and every
    endpoint its scripts announce (`echo "ws://${HOST}:${PORT}/api/asr-streaming"`, a port written or in
    a variable) is one path, not `/`. The client connecting to the root gets a 404 (`likely`: the
    server's code may not be all in the project). Silent when the README gives a path for that port
    anywhere, when the routes or announced paths differ or one is the root, when none is found, and
    when the folder is too large to list."""
    bare: dict[str, list[int]] = {}
    pathed: set[str] = set()
    lines = [pair for para in doc.paragraphs for pair in para.lines]
    lines += [pair for fence in doc.fences for pair in fence.lines]
    lines += [(line, " | ".join(cells)) for table in doc.tables for line, cells in table.rows]
    for number, text in lines:
        if "ws" not in text:
            continue
        for match in _SOCKET_URL.finditer(text):
            port = match.group(1) or ""
            if (match.group(2) or "/").strip("/"):
                pathed.add(port)
            else:
                bare.setdefault(port, []).append(number)
    ports = {port: at for port, at in bare.items() if port and port not in pathed}
    if not ports:
        return
    served = _socket_paths(directory)
    if not served:
        return
    for port, at in sorted(ports.items()):
        paths = {path for given, path, _ in served if given == port or not given.isdigit()}
        if len(paths) != 1:
            continue
        (path,) = paths
        file, number = next(
            (f, n) for given, p, (f, n) in served if p == path and (given == port or not given.isdigit())
        )
        first, *more = sorted(set(at))
        also = f"; also at line{'s' if len(more) > 1 else ''} {', '.join(map(str, more))}" if more else ""
        yield Diagnostic(
            readme,
            first,
            f"README gives the WebSocket endpoint as ws://localhost:{port} with no path, but the server "
            f"serves its socket on {path} ({file}:{number}){also}",
            confidence=LIKELY,
        )


def _socket_paths(directory: Path) -> list[tuple[str, str, tuple[str, int]]]:
    """(port as written, "" for a route; path; (file, line)) of each WebSocket route the Python files
    below `directory` register and each WebSocket URL with a path its scripts announce; [] when one is
    the root or the folder is too large to list."""
    base = directory.resolve()
    found: list[tuple[str, str, tuple[str, int]]] = []
    listed = _files_below(base)
    if listed is None:
        return []
    for path in listed:
        if not path.name.endswith(_SOCKET_FILES):
            continue
        text = text_or_none(path, MAX_PROJECT_FILE_BYTES)
        if text is None or "ws" not in text:
            continue
        relative = path.relative_to(base).as_posix()
        for match in list(_SOCKET_ROUTE.finditer(text)) + list(_ANNOUNCED.finditer(text)):
            route = match.group(1) if match.re is _SOCKET_ROUTE else match.group(2)
            port = "" if match.re is _SOCKET_ROUTE else match.group(1)
            if not route.strip("/"):
                return []
            number = text.count("\n", 0, match.start()) + 1
            found.append((port, route.rstrip("/"), (relative, number)))
    return found
