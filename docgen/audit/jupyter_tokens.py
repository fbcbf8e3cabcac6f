"""A README that shows a Jupyter address with a token (`http://127.0.0.1:8888/lab?token=3f9c…`) or tells
the user to copy the token from the logs, while every Jupyter the images start has the token turned
off: their CMD or ENTRYPOINT (or the compose `command:` beside the README) passes an empty
`--ServerApp.token=` / `--NotebookApp.token=''`, or the config file the image copies sets
`c.ServerApp.token = ''`. Jupyter then prints an address without a token and asks for none.

And a README saying the token appears when the container starts (`docker logs`) while the one image
audited starts a bare shell and nothing starts Jupyter (`unstarted_jupyter`).

The README's lines are read once; each audited Dockerfile's settings, copies and compose files once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.commands import image_repository
from docgen.audit.mount_claims import folder_composes
from docgen.audit.references import project_top
from docgen.audit.run_args import PLAIN_BASES, bare_shell, entrypoint
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel, Setting

_URL = re.compile(r"\bhttps?://[\w.\[\]-]+(?::(\d+))?/[^\s`'\")<>]*[?&]token=[\w-]+", re.IGNORECASE)
"""An address with a token: `http://127.0.0.1:8888/lab?token=3f9c…`."""
_LONG = 4000
"""Lines at least this long are not searched for an address (no address is that long)."""
_COPY_TOKEN = re.compile(
    r"\b(?:copy|paste|grab|find|look[ \t]+for)\b[^.;:]{0,40}\btoken\b"
    r"[^.;]{0,40}\b(?:logs?|printed|output|terminal|console)\b"
    r"|\btoken\b[^.;]{0,30}\b(?:printed|shown|displayed)\b[^.;]{0,20}\b(?:logs?|output|terminal|console)\b",
    re.IGNORECASE,
)
"""Prose telling the user to take the token from what Jupyter prints (`copy the token from the logs`)."""
_OTHER_TOKEN = re.compile(
    r"\b(?:no|without|disabled?|empty|hugging[ \t]*face|hf|github|api|access|openai|wandb|kaggle"
    r"|ngrok|bearer)\b",
    re.IGNORECASE,
)
"""Words that make a token line another one's or a token-less one (`no token is needed`, `HF token`)."""
_OFF = re.compile(
    r"--(?:ServerApp|NotebookApp|LabApp|IdentityProvider)\.token="
    r"(?:''|\"\"|\\'\\'|\\\"\\\")?(?=[ \t,\]]|$)",
    re.IGNORECASE,
)
"""An option turning the token off: `--ServerApp.token=`, `--NotebookApp.token=''`."""
_SET = re.compile(
    r"\.token[ \t]*=|JUPYTER_TOKEN|--(?:ServerApp|NotebookApp|LabApp|IdentityProvider)\.token\b",
    re.IGNORECASE,
)
"""A token set or chosen anywhere: an option, a config line or the `JUPYTER_TOKEN` variable."""
_CONFIG_OFF = re.compile(
    r"^[ \t]*c\.(?:ServerApp|NotebookApp|LabApp|IdentityProvider)\.token[ \t]*="
    r"[ \t]*(?:''|\"\")[ \t]*(?:#.*)?$",
    re.MULTILINE,
)
_CONFIG_COPY = re.compile(r"^[ \t]*(?:COPY|ADD)[ \t]+(?:--\S+[ \t]+)*(.*)$", re.IGNORECASE | re.MULTILINE)
_CONFIG_NAME = re.compile(r"(?:^|/)(jupyter_\w*config\.py)$")
_PORT = re.compile(r"--(?:ServerApp\.|NotebookApp\.)?port[ =](\d+)")
_PUBLISHED = re.compile(r"(?<![\w.])(\d{2,5}):(\d{2,5})\b")


def _starts(model: ImageModel) -> list[tuple[int, str]]:
    """(line, text) of the CMD and ENTRYPOINT the image `model` builds runs with (its last ones)."""
    labels = {stage.label for stage in model.chain()}
    found: dict[str, tuple[int, str]] = {}
    for setting in model.settings:
        if setting.keyword in ("CMD", "ENTRYPOINT") and setting.stage in labels:
            words = setting.exec_form
            found[setting.keyword] = (setting.line, " ".join(words) if words is not None else setting.value)
    return list(found.values())


def _config_off(model: ImageModel, text: str) -> tuple[str, int] | None:
    """(file, line) of a copied `jupyter_*_config.py` of the build context that turns the token off."""
    base = Path(model.file).parent
    for match in _CONFIG_COPY.finditer(text):
        for word in match.group(1).split()[:-1]:
            name = _CONFIG_NAME.search(word.strip("\"',[]"))
            if name is None:
                continue
            copied = text_or_none(base / word.strip("\"',[]"), MAX_PROJECT_FILE_BYTES)
            off = _CONFIG_OFF.search(copied or "")
            if off is not None and len(_SET.findall(copied or "")) == 1:
                return word.strip("\"',[]"), (copied or "").count("\n", 0, off.start()) + 1
    return None


def _compose_commands(directory: Path) -> tuple[list[str], str] | None:
    """(the `command:` texts of the services of the compose files in `directory`, those files' text);
    None when one cannot be read (`mount_claims.folder_composes`)."""
    composes = folder_composes(directory, project_top(directory, None))
    if composes is None:
        return None
    commands: list[str] = []
    for _, _, services in composes:
        for service in services:
            command = service.get("command") if isinstance(service, dict) else None
            if isinstance(command, list):
                commands.append(" ".join(str(w) for w in command))
            elif isinstance(command, str):
                commands.append(command)
    return commands, "\n".join(text for _, text, _ in composes)


def jupyter_tokens(
    doc: Document, text: str, readme: str, directory: Path, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring) (`likely`): `README shows a Jupyter address with
    a token (?token=…), but Dockerfile line 49 starts Jupyter with the token turned off
    (--ServerApp.token=)`. Silent when one audited image starts no Jupyter the Dockerfile shows or
    starts it with a token left on or set (`--NotebookApp.token=$TOKEN`, `ENV JUPYTER_TOKEN`), when
    the README or a compose file sets a token (`JUPYTER_TOKEN`, `.token=` in a command), and for an
    address on a port no Jupyter of the images listens on or is published to."""
    if (
        "token" not in text.lower()
        or not models
        or re.search(r"JUPYTER_TOKEN|\.token[ \t]*=", text, re.IGNORECASE)
    ):
        return
    claims: list[tuple[int, int | None]] = []
    for para in doc.paragraphs:
        for line, said in para.lines:
            for url in _URL.finditer(said) if "token=" in said and len(said) < _LONG else ():
                claims.append((line, int(url.group(1)) if url.group(1) else None))
            if _COPY_TOKEN.search(said) and not _OTHER_TOKEN.search(said):
                claims.append((line, None))
    for fence in doc.fences:
        for line, said in fence.lines:
            if "token=" in said and len(said) < _LONG:
                claims.extend((line, int(u.group(1)) if u.group(1) else None) for u in _URL.finditer(said))
    if not claims:
        return
    read = _compose_commands(directory)
    if read is None:
        return
    commands, compose_text = read
    if re.search(r"JUPYTER_TOKEN", compose_text) or any(
        _SET.search(c) and not _OFF.search(c) for c in commands
    ):
        return
    facts: list[str] = []
    ports = {8888}
    for model in models:
        dockerfile = text_or_none(Path(model.file), MAX_PROJECT_FILE_BYTES) if model.file else None
        if dockerfile is None or "JUPYTER_TOKEN" in dockerfile:
            return
        starts = [(n, s) for n, s in _starts(model) if "jupyter" in s.lower() or "notebook" in s.lower()]
        starts += [(0, c) for c in commands if "jupyter" in c.lower()]
        if any(_SET.search(s) and not _OFF.search(s) for _, s in starts):
            return
        off = [(n, s) for n, s in starts if _OFF.search(s)]
        ports.update(int(p) for _, s in starts for p in _PORT.findall(s))
        if off:
            line, start = off[0]
            option = _OFF.search(start)
            said = option.group(0).rstrip() if option else "--ServerApp.token="
            if line:
                lines = dockerfile.splitlines()
                line = next(
                    (n for n in range(line, len(lines) + 1) if said.split("=")[0] in lines[n - 1]), line
                )
                facts.append(f"{model.path} line {line} starts Jupyter with the token turned off ({said})")
            else:
                facts.append(f"the compose command starts Jupyter with the token turned off ({said})")
            continue
        config = _config_off(model, dockerfile)
        if config is None or not starts:
            return
        facts.append(f"{model.path} copies {config[0]}, whose line {config[1]} turns the token off")
    if not facts:
        return
    published = compose_text + "\n" + "\n".join(t for f in doc.fences for _, t in f.lines)
    ports.update(int(h) for h, c in _PUBLISHED.findall(published) if int(c) in ports)
    told: set[int] = set()
    for line, port in claims:
        if (port is not None and port not in ports) or line in told:
            continue
        told.add(line)
        yield Diagnostic(
            readme,
            line,
            f"README says Jupyter asks for a token (?token=…), but {facts[0]}: "
            "no token is printed or asked for",
            confidence=LIKELY,
        )


_STARTUP_TOKEN = re.compile(
    r"\btoken\b[^.;]{0,60}\b(?:generated|printed|shown|displayed|appears?|created|written|logged)\b"
    r"[^.;]{0,40}\b(?:start(?:up|s|ing)?|launch(?:es|ed)?|boot|logs?|output|console|terminal)\b",
    re.IGNORECASE,
)
"""Prose saying Jupyter's token shows when the container starts (`This token is generated automatically on
the container startup`)."""
_STARTS_JUPYTER = re.compile(
    r"(?<![\w/.-])(?:jupyter(?:-|[ \t]+)?(?:lab|notebook|server)|start-notebook(?:\.sh)?|voila|jupyterhub)"
    r"(?![\w/-])",
    re.IGNORECASE,
)
"""A command starting a Jupyter server."""
_COMMENTED_START = re.compile(r"^[ \t]*#[ \t]*(?:RUN|CMD|ENTRYPOINT)\b[^\n]*", re.IGNORECASE | re.MULTILINE)


def _shell_start(model: ImageModel) -> Setting | None:
    """The setting that makes the image `model` builds start a bare shell: an exec-form ENTRYPOINT that is
    a shell given no command (`["/bin/bash"]`), or, with no ENTRYPOINT in the image or its known base, a
    CMD that is one; None otherwise."""
    shell = bare_shell(model)
    if shell is not None:
        return shell
    if entrypoint(model) is not False:
        return None
    labels = {stage.label for stage in model.chain()}
    cmd = next((s for s in reversed(model.settings) if s.keyword == "CMD" and s.stage in labels), None)
    words = cmd.exec_form if cmd is not None and cmd.exec_form is not None else None
    if cmd is None:
        return None
    if words is None:
        words = tuple(cmd.value.split())
    if len(words) == 1 and words[0].rsplit("/", 1)[-1] in ("bash", "sh", "zsh", "dash", "ash"):
        return cmd
    return None


def unstarted_jupyter(
    doc: Document, text: str, readme: str, directory: Path, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """A README saying Jupyter's token appears when the container starts (in `docker logs`, `copy the token
    from the logs`) while the one image audited starts a bare shell (`ENTRYPOINT ["/bin/bash"]`) and
    nothing starts Jupyter: no CMD, ENTRYPOINT or compose `command:` runs it, no script does, and the
    README's commands start none themselves (`docker exec … jupyter lab`). The Dockerfile's launch is
    commented out (`#RUN nohup jupyter-lab … &`) or missing: no server runs, no token is printed
    (`likely`)."""
    if "token" not in text.lower() or len(models) != 1 or not models[0].file:
        return
    model = models[0]
    fenced = "\n".join([*(t for f in doc.fences for _, t in f.lines), *re.findall(r"`([^`\n]+)`", text)])
    if _STARTS_JUPYTER.search(fenced) or re.search(
        r"\b(?:jupyter|notebook)\b", model.chain()[-1].base if model.chain() else "", re.IGNORECASE
    ):
        return
    claim = next(
        (
            line
            for para in doc.paragraphs
            for line, said in para.lines
            if (_STARTUP_TOKEN.search(said) or _COPY_TOKEN.search(said)) and not _OTHER_TOKEN.search(said)
        ),
        None,
    )
    if claim is None or re.search(r"\bdocker[ \t]+(?:compose|-compose)\b", text):
        return
    shell = _shell_start(model)
    dockerfile = text_or_none(Path(model.file), MAX_PROJECT_FILE_BYTES)
    if shell is None or dockerfile is None:
        return
    if not re.search(r"jupyter|notebook", dockerfile, re.IGNORECASE):
        return  # (an image with no Jupyter at all: the README speaks of another)
    code = _COMMENTED_START.sub("", dockerfile)
    if re.search(r"\b(?:start|run|launch)\w*\.sh\b|supervisor|\.bashrc|/etc/profile", code, re.IGNORECASE):
        return  # (a script or the shell's start files may start it)
    commented = next(
        (
            dockerfile.count("\n", 0, m.start()) + 1
            for m in _COMMENTED_START.finditer(dockerfile)
            if _STARTS_JUPYTER.search(m.group(0))
        ),
        None,
    )
    where = f"; its Jupyter launch at line {commented} is commented out" if commented else ""
    yield Diagnostic(
        readme,
        claim,
        f"README says Jupyter's token appears when the container starts, but {model.path}:{shell.line} "
        f"starts {shell.keyword} {json.dumps(list(shell.exec_form or shell.value.split()))}, a shell, and "
        f"nothing in the image starts Jupyter{where}: no server runs and no token is printed",
        confidence=LIKELY,
    )


_SAID_JUPYTER = re.compile(r"\bjupyter(?:[ \t-]*(lab|notebook|server))?\b", re.IGNORECASE)
"""Jupyter named in a heading or prose (`Jupyter Lab GPU in Docker`), its kind caught."""
_OWN_START = re.compile(
    r"\b(?:then|inside|within|exec|attach|manually|yourself|you[ \t]+(?:can|may|must|need[ \t]+to))\b"
    r"[^.;]{0,50}\b(?:start|launch|run|open)\b[^.;]{0,30}\bjupyter\b"
    r"|\bdoes[ \t]+not[ \t]+start\b|\bnot[ \t]+started\b|\bno[ \t]+jupyter\b",
    re.IGNORECASE,
)
"""Prose telling the user to start Jupyter themselves, or saying it is not started."""
_RUNS_CONTAINER = re.compile(
    r"\bdocker(?:[ \t]+compose|-compose)[ \t]+up\b|\bdocker[ \t]+(?:container[ \t]+)?run\b"
)
_COMPOSE_START = re.compile(r"^[ \t]+(?:command|entrypoint)[ \t]*:", re.MULTILINE)
_BASE_NO_JUPYTER = frozenset({"python", "pypy"})
"""Official images besides `PLAIN_BASES` whose default command (a Python prompt) starts no Jupyter."""


def unlaunched_jupyter(
    doc: Document, text: str, readme: str, directory: Path, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """A README naming Jupyter as what its container offers (a title `Jupyter Lab GPU in Docker`, prose
    `the container starts Jupyter Lab`) and running that container (`docker run`, `docker compose up`)
    with no Jupyter command, while the one image audited installs Jupyter but sets no CMD or ENTRYPOINT
    in any of its stages, builds on a base whose default command is a shell or a Python prompt (plain OS
    and CUDA images, `python`) and no compose file beside the README gives a `command:` or
    `entrypoint:`: nothing starts Jupyter (`likely`). Silent: a Jupyter launch in the README's commands or
    code spans, prose telling the user to start it (`then run Jupyter inside`), a Jupyter or unknown base
    image (`jupyter/*-notebook` starts it), a start script, supervisor or shell start file in the
    Dockerfile, and a Dockerfile naming no Jupyter or notebook."""
    if "jupyter" not in text.lower() or len(models) != 1 or not models[0].file:
        return
    model = models[0]
    chain = model.chain()
    labels = {stage.label for stage in chain}
    if not chain or any(s.keyword in ("CMD", "ENTRYPOINT") and s.stage in labels for s in model.settings):
        return
    base = chain[-1].base
    repository = image_repository(base).removeprefix("docker.io/").removeprefix("library/")
    if repository not in PLAIN_BASES and repository not in _BASE_NO_JUPYTER:
        return
    fenced = "\n".join([*(t for f in doc.fences for _, t in f.lines), *re.findall(r"`([^`\n]+)`", text)])
    if _STARTS_JUPYTER.search(fenced) or not _RUNS_CONTAINER.search(fenced) or _OWN_START.search(text):
        return
    claims = [(line, title) for line, title in doc.headings if _SAID_JUPYTER.search(title)]
    claims += [
        (line, said) for para in doc.paragraphs for line, said in para.lines if _SAID_JUPYTER.search(said)
    ]
    if not claims:
        return
    line, said = min(claims)
    dockerfile = text_or_none(Path(model.file), MAX_PROJECT_FILE_BYTES)
    if dockerfile is None or not re.search(r"jupyter|notebook", dockerfile, re.IGNORECASE):
        return
    code = _COMMENTED_START.sub("", dockerfile)
    if re.search(
        r"\b(?:start|run|launch|entry)\w*\.sh\b|supervisor|\.bashrc|/etc/profile", code, re.IGNORECASE
    ):
        return
    composes = folder_composes(directory, project_top(directory, None))
    if composes is None or any(_COMPOSE_START.search(body) for _, body, _ in composes):
        return
    kind = _SAID_JUPYTER.search(said)
    named = f"Jupyter {kind.group(1).capitalize()}" if kind and kind.group(1) else "Jupyter"
    compose = "; no compose file beside it gives a command" if composes else ""
    yield Diagnostic(
        readme,
        line,
        f"README says the container serves {named}, but {model.path} sets no CMD or ENTRYPOINT{compose}: "
        f"the container runs the default command of its base {base} (a shell or a Python prompt) "
        "and nothing starts Jupyter",
        confidence=LIKELY,
    )
