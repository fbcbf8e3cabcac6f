"""Build args documented one entry each: the entry's title is the arg's name alone (`- ### UCX_BRANCH`,
`### CUDA_VERSION`, `- **BASE_IMAGE**`, `` - `TAG` ``) and a line under it gives its default in code
(`Default: `v1.17.0``). Such an entry is as plain as a row of a build-arg table: a default that
differs from the ARG's, and an entry naming an arg no Dockerfile declares under a build-arg
introduction (`Possible `build-arg` for the Docker build command`), are `certain`.

An entry's line linking the repository its branches or tags come from (`Branch/Tag found: [OpenMM
repo](https://github.com/openmm/openmm.git)`) is compared with the repository the build checks the
arg out of (`git clone -b ${OPENMMHIP_BRANCH} https://github.com/amd/openmm-hip.git`): another one is
`likely` (the link may be to where the project is discussed).

Each paragraph is read once (its first three lines); nothing else of the README is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, dockerfile_read, some
from docgen.audit.cells import default_in_cell
from docgen.audit.commands import CLONE_STEP, clone_operands
from docgen.audit.wording import IMAGE_REF, about_build_args
from docgen.markdown import Document, Paragraph, code_spans
from docgen.model import Diagnostic

TITLE = re.compile(
    r"[ \t]*(?:[-*+][ \t]+)?(?:#{1,6}[ \t]+)?[*_]*`?([A-Z][A-Z0-9_]*[A-Z0-9])`?[*_]*[ \t]*(?::[ \t]*)?\Z"
)
"""An entry's title that is a name alone: `- ### UCX_BRANCH`, `### CUDA_VERSION`, `- **TAG**:`."""
DEFAULT_LINE = re.compile(
    r"[ \t>]*(?:[-*+][ \t]+)?[*_]*(?:default(?:[ \t]+value)?|defaults[ \t]+to)[*_]*"
    r"[ \t]*(?:[:=][*_]*[ \t]*|[*_]+[ \t]*)?(?=`)",
    re.IGNORECASE,
)
"""A line under the title giving the default in code: `Default: `v1.17.0``, `- **Default value**: `1``."""
_FORGE_REPO = re.compile(
    r"(?:github\.com|gitlab\.com|codeberg\.org|bitbucket\.org)[/:]([\w.-]{1,100})/([\w.-]{1,100}?)"
    r"(?:\.git)?(?=[\s/\"'#)>]|\Z)",
    re.IGNORECASE,
)
"""A repository on a forge: owner and name (`https://github.com/openmm/openmm.git`)."""
_REF_OPTION = frozenset(("-b", "--branch"))
_MOST_DECLARED = 2
"""How many entries of a section must be declared ARGs for its entries to be build args without an
introduction saying so."""


def _entry(para: Paragraph) -> tuple[int, str, int, str] | None:
    """(title line, name, default line, default in code) of a paragraph that is one entry: its first
    line the name alone, one of the next two its default; or, under a heading that is the name alone,
    its first line the default (the title line is then the section's)."""
    lines = para.lines
    title = TITLE.fullmatch(lines[0][1]) if lines else None
    if title is not None:
        under = lines[1:3]
        at, name = lines[0][0], title.group(1)
    elif lines and (heading := TITLE.fullmatch(para.heading)) is not None and para.section:
        under = lines[:1]
        at, name = para.section, heading.group(1)
    else:
        return None
    for line, text in under:
        lead = DEFAULT_LINE.match(text)
        if lead is None:
            continue
        spans = code_spans(text[lead.end() :], html_code=True)
        if spans and spans[0][0] == 0:
            return at, name, line, text[lead.end() :][: spans[0][1]]
    return None


def _checked_out_of(name: str, auditor: Auditor) -> tuple[str, int, str] | None:
    """(Dockerfile, line, `owner/name`) of the one repository the audited Dockerfiles clone with the
    arg `name` as the branch or tag (`git clone -b ${NAME} URL`, `--branch=$NAME`); None when none or
    several do, or the address holds a variable."""
    used = re.compile(rf"\$(?:\{{{re.escape(name)}\}}|{re.escape(name)}(?!\w))")
    found: set[tuple[str, int, str]] = set()
    for model in auditor.models:
        read = dockerfile_read(model.file) if model.file else None
        for inst in read[1].instructions if read is not None else ():
            if inst.keyword != "RUN" or not used.search(inst.args):
                continue
            for match in CLONE_STEP.finditer(inst.args):
                words = [w.strip("\"'") for w in match.group(1).split()]
                refs = [v for o, v in zip(words, words[1:], strict=False) if o in _REF_OPTION]
                refs += [w.split("=", 1)[1] for w in words if w.startswith("--branch=")]
                operands = clone_operands(words)
                if not any(used.fullmatch(r) for r in refs) or not operands:
                    continue
                repo = _FORGE_REPO.search(operands[0])
                if repo is None or "$" in operands[0]:
                    return None
                found.add((model.path, inst.start_line, f"{repo.group(1)}/{repo.group(2)}"))
    return found.pop() if len(found) == 1 else None


def ref_sources(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """Each entry (`_entry`) of a declared arg whose lines link one repository (`Branch/Tag found:
    [repo](https://github.com/openmm/openmm.git)`) while the build checks the arg out of another
    (`_checked_out_of`): `likely`."""
    for para in doc.paragraphs:
        entry = _entry(para)
        if entry is None or entry[1] not in auditor.declared:
            continue
        links = [(n, m) for n, text in para.lines[:3] for m in _FORGE_REPO.finditer(text)]
        said = {f"{m.group(1)}/{m.group(2)}".lower() for _, m in links}
        if len(said) != 1:
            continue
        source = _checked_out_of(entry[1], auditor)
        if source is None or source[2].lower() in said:
            continue
        line, link = links[0]
        yield Diagnostic(
            auditor.path,
            line,
            f"README says {entry[1]} is a branch or tag of {link.group(1)}/{link.group(2)}, but "
            f"{source[0]}:{source[1]} checks {entry[1]} out of {source[2]}",
            confidence=LIKELY,
        )


def arg_entry_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """Each entry (`_entry`) of `doc`: its default against the ARG's when an image declares the name;
    else, when the entry is about a build arg (the paragraph introducing the entries, or the heading,
    says build args, or at least two entries of the section are declared ARGs), the name documented
    but declared nowhere."""
    entries: list[tuple[Paragraph, tuple[int, str, int, str], str]] = []
    intro: dict[int, str] = {}
    for para in doc.paragraphs:
        entry = _entry(para)
        if entry is None:
            intro[para.section] = " ".join(text for _, text in para.lines)
        else:
            entries.append((para, entry, intro.get(para.section, "")))
    declared: dict[int, int] = {}
    for para, (_, name, _, _), _ in entries:
        if name in auditor.declared:
            declared[para.section] = declared.get(para.section, 0) + 1
    for para, (at, name, line, value), said in entries:
        if name in auditor.declared:
            image = IMAGE_REF.fullmatch(value.strip("` "))
            if image is not None and auditor.base_tag_claim(line, image, "says", CERTAIN) is not None:
                continue  # a base image's tag: the README's image reference is reported on its line
            claim = default_in_cell(value)
            yield from some(auditor.default_claim(at, name, claim, CERTAIN))
        elif "_" in name and (
            about_build_args(said)
            or about_build_args(para.heading)
            or declared.get(para.section, 0) >= _MOST_DECLARED
        ):
            yield from some(auditor.arg_claim(at, name, CERTAIN))
