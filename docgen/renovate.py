"""Renovate's annotation of a build arg: `# renovate: datasource=github-releases depName=vllm-project/vllm`
right above an `ARG` says what the arg's value is a version of. That is the component's identity: its
name and its source. (The annotation is never the arg's purpose: see `docgen.evaluate.describe`.)

A component already set from the arg (`git checkout ${VLLM_TAG}`) takes the annotation's name and
source; an arg no component reads (a version passed to a script) becomes a component of its own, so the
Key versions table shows it under the name Renovate updates it by.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import replace

from docgen.evaluate import Evaluation
from docgen.model import Component, ParsedDockerfile

_ANNOTATION = re.compile(r"^\s*renovate\s*:(.*)$", re.IGNORECASE)
_PAIR = re.compile(r"([A-Za-z]+)=(\S+)")
_HEX = re.compile(r"[0-9a-f]{7,40}\Z")

_DATASOURCES = {
    "github-releases": ("git", "https://github.com/{}"),
    "github-tags": ("git", "https://github.com/{}"),
    "git-tags": ("git", "{}"),
    "git-refs": ("git", "{}"),
    "gitlab-releases": ("git", "https://gitlab.com/{}"),
    "gitlab-tags": ("git", "https://gitlab.com/{}"),
    "pypi": ("pip", "https://pypi.org/project/{}/"),
    "npm": ("npm", "https://www.npmjs.com/package/{}"),
    "docker": ("image", "{}"),
}
"""Renovate datasource → (the component's kind, the source URL of a package name, `depName`). Another
datasource gives a download whose source is the name itself (shown as code, never as a link: only an
http(s) source becomes one)."""
_OTHER = ("download", "{}")


def find_annotations(parsed: ParsedDockerfile) -> dict[str, dict[str, str]]:
    """Build arg name → the key=value pairs of the `renovate:` comment right above its first ARG line."""
    found: dict[str, dict[str, str]] = {}
    for inst in parsed.instructions:
        if inst.keyword != "ARG" or not inst.comment:
            continue
        tail = inst.comment[len(inst.comment) - inst.comment_tail :] if inst.comment_tail else ()
        for line in reversed(tail):
            match = _ANNOTATION.match(line)
            if match:
                pairs = dict(_PAIR.findall(match.group(1)))
                name = inst.args.split("=", 1)[0].split()  # [] for `ARG =1.0`, which declares nothing
                if pairs.get("depName") and name:
                    found.setdefault(name[0], pairs)
                break
    return found


def identify(
    parsed: ParsedDockerfile,
    evaluation: Evaluation,
    components: Sequence[Component],
    removed: Collection[str | None] = (),
) -> tuple[Component, ...]:
    """`components` with the identity the Renovate annotations give (see the module docstring).
    `removed` names the args of components the image installed and removed again: those stay out."""
    marked = find_annotations(parsed)
    if not marked:
        return tuple(components)
    result = []
    covered = set()
    for comp in components:
        pairs = marked.get(comp.arg or "")
        if pairs is not None:
            covered.add(comp.arg)
            comp = replace(comp, name=_name(pairs), source=_source(pairs))
        result.append(comp)
    labels = {stage.index: stage.label for stage in evaluation.stages}
    for decl in evaluation.args:
        pairs = marked.get(decl.name)
        if pairs is None or decl.name in covered or decl.name in removed or not decl.effective_default:
            continue
        covered.add(decl.name)
        value = decl.effective_default
        commit = bool(_HEX.match(value))
        result.append(
            Component(
                name=_name(pairs),
                kind=_DATASOURCES.get(pairs.get("datasource", ""), _OTHER)[0],
                version=None if commit else value,
                ref=value if commit else None,
                source=_source(pairs),
                method="prebuilt",
                stage=labels.get(decl.stage, "") if decl.stage is not None else "",
                line=decl.line,
                pinned=True,
                arg=decl.name,
                ref_kind="commit" if commit and len(value) == 40 else "short-commit" if commit else None,
            )
        )
    return tuple(sorted(result, key=lambda c: c.line))


def _name(pairs: dict[str, str]) -> str:
    dep = pairs["depName"]
    if pairs.get("datasource", "").startswith(("github", "gitlab")):
        return dep.rstrip("/").rsplit("/", 1)[-1]
    return dep


def _source(pairs: dict[str, str]) -> str:
    dep = pairs.get("packageName") or pairs["depName"]
    return _DATASOURCES.get(pairs.get("datasource", ""), _OTHER)[1].format(dep)
