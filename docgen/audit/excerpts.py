"""A Dockerfile shown piecewise: fences of one to three instructions (```` ```dockerfile ````, untagged,
or indented code blocks) between the sentences explaining each step (`FROM
nvcr.io/nvidia/pytorch:24.01-py3`, then `ARG CUDA_VERSION=12.1`, then `RUN pip install vllm==0.4.0`),
one of which the Dockerfile has changed since.

An excerpt is tied to the instruction of the audited Dockerfile of the same kind and the same name: a
`FROM` to the stage starting from the same repository (by the stage name its `AS` gives, else by a tag
of the same shape, versions aside: `24.01-py3` for `24.05-py3`, not `24.05-py3-igpu`), an `ARG` or `ENV`
to the declaration of that name, a `pip install pkg==1.2` pin to the file's pin of that package. A
name declared several times is taken in the order of the excerpts: the first declaration at or after
the one the previous excerpt was tied to. An excerpt agreeing with any declaration of its name is no
claim.

Not an excerpt: a block the words above or its own comments present as the reader's or an example
(`To add your own package`, `Extend this image`, `for example`, `change it to`, `try`, `書き換えが必要`,
`修改为`); an `ENV` or `ARG` line whose comment names the value the file has (`# (現状 9.0.6)`: the line
as the reader would change it, the file's value said beside it); a block with a
placeholder (`<version>`, `X.Y.Z`, `...` inside an instruction) or a variable in the compared value; a
`FROM` of a repository no stage starts from (another image, the README's own image built on); a name
the Dockerfile does not declare (another image's); a block of four instructions or more, or one the
pasted-copy rules already read as a copy (`copies`). A block of `ARG` lines alone is an excerpt however
long (the versions section showing the file's build args with their defaults), when the file declares
most of its names; `${NAME}` and `$NAME` are one expansion, and a default written with a variable
(`${TORCH_VERSION}.post8`) is compared as written with one written so. `certain` in a ```` ```dockerfile
```` block, `likely` in an untagged one or one tagged as shell (it may be a line of a shell session).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, dockerfile_read
from docgen.audit.commands import image_repository
from docgen.audit.copies import DOCKERFILE_LANGS, PLAIN_LANGS, copied_model, env_values, intro_words
from docgen.audit.versions import norm, skeleton
from docgen.audit.wording import SHELL_LANGS
from docgen.markdown import Document, Fence
from docgen.model import Diagnostic, ImageModel

_MOST = 3
"""Instructions an excerpt has at most (a longer block is a copy, `copies`)."""
"""Languages of a block that holds instructions only when every line of it is one (a README tagging its
Dockerfile lines as shell)."""
_KEYWORD = re.compile(
    r"(FROM|RUN|ENV|ARG|COPY|ADD|WORKDIR|CMD|ENTRYPOINT|EXPOSE|USER|LABEL|VOLUME|SHELL|HEALTHCHECK)"
    r"(?:[ \t]|\Z)"
)
"""An instruction, upper case as Dockerfiles write them (`from` in a sentence is no instruction)."""
_ELLIPSIS = re.compile(r"[ \t]*(?:\.\.\.|…)[ \t]*\Z")
"""A line standing for the instructions left out (`...`)."""
PLACEHOLDER = re.compile(r"<[^<>\n]+>|\b[Xx]\.[Yy](?:\.[Zz])?\b|\.\.\.|…")
"""A value the reader fills in (`<version>`, `vX.Y.Z`, `...`)."""
EXAMPLE = re.compile(
    r"\b(?:your|yours|example|examples|e\.g\.|for[ \t]+instance|extend\w*|custom\w*|derived?|own|template"
    r"|change[sd]?|changing|modif\w*|replac\w*|instead|switch\w*|different|alternative\w*|try|could|might"
    r"|add|adding|append|insert|remove|delete|comment|suppose|older|previous|earlier|was|were|used[ \t]+to"
    r"|wrong|fake|broke\w*|break\w*)\b"
    r"|変更|書き換|書換|置き換|置換|差分|試す|試し|例えば|修改|更改|替换|改为|改成|尝试|例如|比如",
    re.IGNORECASE,
)
"""Words presenting a block as one the reader writes, an example or a past state, not the file's lines
(`change it to`, `try`; `書き換えが必要` and `差分` (what to rewrite, the diff to apply), `修改为`)."""
_ARG = re.compile(r"ARG[ \t]+([A-Za-z_][A-Za-z0-9_]*)=(\S+)[ \t]*\Z")
_ARG_NAME = re.compile(r"ARG[ \t]+([A-Za-z_][A-Za-z0-9_]*)")
_ENV_PAIR = re.compile(r"(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|'[^']*'|\S+)")
_FROM = re.compile(r"FROM[ \t]+(?:--platform=\S+[ \t]+)?(\S+)(?:[ \t]+(?:AS|as)[ \t]+(\S+))?[ \t]*\Z")
_PIP = re.compile(r"\b(?:pip3?(?:\.\d+)?|uv[ \t]+pip|python3?(?:\.\d+)?[ \t]+-m[ \t]+pip)[ \t]+install\b")
_PIN = re.compile(r"(?<![\w.+/@=-])([A-Za-z][A-Za-z0-9._-]*[A-Za-z0-9])(?:\[[\w,.-]*\])?==([0-9][\w.+!-]*)")
"""A `pkg==version` pin of a pip command (`vllm==0.4.0`)."""

_Instruction = tuple[str, str, int]
"""(keyword, its words joined, README line)."""


def _instructions(fence: Fence) -> list[_Instruction] | None:
    """The instructions of a block holding only Dockerfile instructions (continued lines joined), comments,
    blank lines and `...`; None when a line is something else or there are more than `_MOST`."""
    found: list[_Instruction] = []
    continued = False
    for line, text in fence.lines:
        stripped = text.strip()
        if continued:
            keyword, words, at = found[-1]
            found[-1] = (keyword, f"{words} {stripped.removesuffix(chr(92)).strip()}", at)
        elif not stripped or stripped.startswith("#") or _ELLIPSIS.match(stripped):
            continue
        elif (m := _KEYWORD.match(stripped)) is not None:
            found.append((m.group(1), stripped.removesuffix("\\").strip(), line))
        else:
            return None
        continued = stripped.endswith("\\")
    if found and all(keyword == "ARG" for keyword, _, _ in found):
        return found  # the Dockerfile's build args shown with their defaults: an excerpt however many
    return found if 0 < len(found) <= _MOST else None


def indented_blocks(part: Document) -> list[Fence]:
    """The indented code blocks of `part` (paragraphs whose every line is indented four spaces or a
    tab, as Markdown's indented code is: `    ARG DEVICE_WHERE=remote`), each as an untagged block;
    `_instructions` then keeps those holding only Dockerfile instructions."""
    return [
        Fence("", list(para.lines), para.section)
        for para in part.paragraphs
        if para.lines and all(text.startswith(("    ", "\t")) for _, text in para.lines)
    ]


def excerpts(doc: Document, fences: list[Fence], auditor: Auditor) -> Iterator[Diagnostic]:
    """The instructions of the README's small Dockerfile blocks (`fences`, in README order) that differ
    from the audited Dockerfile's of the same kind and name (see the module docstring)."""
    if len(auditor.models) != 1:
        return  # of a family, which image a block is about is not known
    model = auditor.models[0]
    if not model.file or dockerfile_read(model.file) is None:
        return
    cursor = 0  # the file's line the previous excerpt was tied to
    for fence in fences:
        lang = fence.lang.lower()
        if lang not in DOCKERFILE_LANGS and lang not in PLAIN_LANGS and lang not in SHELL_LANGS:
            continue
        block = _instructions(fence)
        if block is None or EXAMPLE.search(intro_words(doc, fence)):
            continue
        if len(block) > _MOST and 2 * sum(_declared(said, model) for _, said, _ in block) < len(block):
            continue  # a block of ARGs most of which the file does not declare: another image's
        if copied_model(doc, fence, auditor) is not None:
            continue  # a copy of the file: `copies` compares it
        confidence = CERTAIN if lang in DOCKERFILE_LANGS else LIKELY
        for keyword, said, line in block:
            words, note = _split_note(keyword, said)
            if PLACEHOLDER.search(words.split(None, 1)[1] if " " in words else ""):
                continue
            found = _compare(keyword, words, model, cursor)
            if found is None:
                continue
            tied, message = found
            cursor = max(cursor, tied)
            if message and not _names_fact(note, message):
                yield Diagnostic(auditor.path, line, message, confidence=confidence)


def _split_note(keyword: str, words: str) -> tuple[str, str]:
    """(the instruction, its trailing comment or ''): a `#` after a space ends an `ENV` or `ARG` line
    as the README writes it (`ENV X=9.0.0   # gfx900 (currently 9.0.6)`); of other instructions a `#`
    may be the shell's, kept."""
    if keyword not in ("ENV", "ARG"):
        return words, ""
    m = re.search(r"[ \t]#", words)
    return (words[: m.start()].rstrip(), words[m.end() :]) if m else (words, "")


def _names_fact(note: str, message: str) -> bool:
    """True when the comment after an excerpt's instruction names the value the file has (`# (現状
    9.0.6)`, `# currently gfx906`): the README shows the line as it would be changed, and says what it
    is now, so it claims no other value. The file's value is the message's last `NAME=value`."""
    if not note:
        return False
    fact = message.rsplit("=", 1)[-1]
    return bool(fact) and re.search(r"(?<![\w.])" + re.escape(fact) + r"(?![\w]|\.\w)", note) is not None


def _compare(keyword: str, words: str, model: ImageModel, cursor: int) -> tuple[int, str] | None:
    """(the file's line the instruction is tied to, the finding or '' when they agree), or None when it
    is tied to none."""
    if keyword == "FROM":
        return _compare_from(words, model)
    if keyword == "ARG":
        return _compare_arg(words, model, cursor)
    if keyword == "ENV":
        return _compare_env(words, model, cursor)
    if keyword == "RUN":
        return _compare_pins(words, model, cursor)
    return None


def _after(lines: list[int], cursor: int) -> int:
    """The first of `lines` (sorted) at or after `cursor`, else the first."""
    return next((at for at in lines if at >= cursor), lines[0])


def _compare_from(words: str, model: ImageModel) -> tuple[int, str] | None:
    m = _FROM.match(words)
    if m is None or "$" in m.group(1):
        return None
    said, alias = m.group(1), (m.group(2) or "").lower()
    repo = image_repository(said.lower())
    stages = [s for s in model.stages if s.parent is None and "$" not in s.base_raw]
    named = model.stage_named(alias) if alias else None
    if named is not None:
        stages = [s for s in stages if s is named]
    same = [s for s in stages if image_repository(s.base.lower()) == repo]
    if not same:
        return None  # another image (or the README's own, built on)
    if any(said.lower() in {s.base.lower(), s.base_raw.lower()} for s in same):
        return same[0].line, ""
    tag = reference_tag(said)
    alike = [s for s in same if skeleton(reference_tag(s.base)) == skeleton(tag)] if tag else []
    if len({s.base for s in alike}) != 1:
        return None  # no tag, or another variant of the repository: which stage is meant is not known
    stage = alike[0]
    message = (
        f"README's excerpt of {model.path} says FROM {said} but {model.path}:{stage.line} says FROM "
        f"{stage.base_raw}"
    )
    return stage.line, message


def reference_tag(reference: str) -> str:
    """The tag of an image reference ('' when it has none): `24.01-py3` of `nvcr.io/nvidia/pytorch:24.01-py3`,
    '' of `ubuntu@sha256:…`."""
    name = reference.split("@", 1)[0]
    return name.rpartition(":")[2] if ":" in name.rsplit("/", 1)[-1] else ""


def _declared(words: str, model: ImageModel) -> bool:
    """True when the `ARG` instruction `words` names an arg `model` declares."""
    m = _ARG_NAME.match(words)
    return m is not None and any(d.name == m.group(1) for d in model.args)


def _braced(value: str) -> str:
    """`value` with each `$NAME` written `${NAME}` (the same expansion, as the shell reads the name)."""
    return re.sub(r"\$([A-Za-z_][A-Za-z0-9_]*)", r"${\1}", value)


def _compare_arg(words: str, model: ImageModel, cursor: int) -> tuple[int, str] | None:
    m = _ARG.match(words)
    if m is None:
        return None
    name, said = m.group(1), m.group(2).strip("\"'")
    decls = sorted(
        (d for d in model.args if d.name == name and d.raw_default is not None), key=lambda d: d.line
    )
    if not decls or ":-" in said or ":+" in said:
        return None
    values = {_braced((d.raw_default or "").strip("\"'")) for d in decls}
    at = _after([d.line for d in decls], cursor)
    if _braced(said) in values:
        return at, ""
    decl = next(d for d in decls if d.line == at)
    fact = (decl.raw_default or "").strip("\"'")
    if ("$" in fact) != ("$" in said):
        return None  # one side written with a variable, the other as a value: not compared by spelling
    message = (
        f"README's excerpt of {model.path} says ARG {name}={said} but {model.path}:{decl.line} says "
        f"{name}={fact}"
    )
    return decl.line, message


def _compare_env(words: str, model: ImageModel, cursor: int) -> tuple[int, str] | None:
    body = words.split(None, 1)[1] if " " in words else ""
    pairs = [(n, v.strip("\"'")) for n, v in _ENV_PAIR.findall(body)]
    if not pairs and len(parts := body.split(None, 1)) == 2:
        pairs = [(parts[0], parts[1].strip().strip("\"'"))]  # `ENV NAME value`
    env = env_values(model)
    tied: tuple[int, str] | None = None
    for name, said in pairs:
        values = env.get(name)
        if not values or "$" in said:
            continue
        at = _after(sorted(line for _, line in values), cursor)
        if said in {v for v, _ in values}:
            tied = tied or (at, "")
            continue
        fact = next(v for v, line in values if line == at)
        if "$" in fact:
            continue
        message = (
            f"README's excerpt of {model.path} sets ENV {name}={said} but {model.path}:{at} sets "
            f"{name}={fact}"
        )
        return at, message
    return tied


def _compare_pins(words: str, model: ImageModel, cursor: int) -> tuple[int, str] | None:
    command = _PIP.search(words)
    if command is None:
        return None
    pins: dict[str, list[tuple[str, int]]] = {}
    for comp in model.components:
        if comp.kind in ("pip", "wheel") and comp.version:
            pins.setdefault(norm(comp.name), []).append((comp.version, comp.line))
    tied: tuple[int, str] | None = None
    for m in _PIN.finditer(words, command.end()):
        name, said = m.group(1), m.group(2).rstrip(".,;")
        held = pins.get(norm(name))
        if not held:
            continue
        at = _after(sorted(line for _, line in held), cursor)
        if said in {v for v, _ in held}:
            tied = tied or (at, "")
            continue
        fact = next(v for v, line in held if line == at)
        message = (
            f"README's excerpt of {model.path} installs {name}=={said} but {model.path}:{at} pins "
            f"{name}=={fact}"
        )
        return at, message
    return tied
