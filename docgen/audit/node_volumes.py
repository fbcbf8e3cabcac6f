"""A README saying its Kubernetes deployment keeps data on persistent volume claims (`by leveraging
persistent volume claims`, `the models live on a PVC`) while the manifests it applies (`kubectl apply -f
deployment.yaml`) mount no claim: their pods' volumes are a `hostPath` or an `emptyDir`, and no manifest
defines a `PersistentVolumeClaim` or a StatefulSet's `volumeClaimTemplates`. The data then lives on
the node (or dies with the pod), not on the storage the README promises.

Read only when every file the README applies is in the project, readable, and plain YAML (a Helm or
Jinja template, `{{ … }}`, may add a claim the audit cannot see), a `kubectl apply -k` (kustomize) or a
`helm install` is not among its commands, and some applied manifest has a workload whose volumes are
read. A sentence that negates, suggests or plans (`not`, `instead`, `could`, `consider`, `TODO`,
`roadmap`, `future`, `optionally`) or conditions (`if`) is no claim; neither is a section headed as a
roadmap or to-do list. `likely`: the claim is prose.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import LIKELY, also_at
from docgen.audit.references import inside
from docgen.audit.wording import line_at, sentences
from docgen.files import text_or_none
from docgen.markdown import Document, headings_over
from docgen.model import Diagnostic

_CLAIM = re.compile(r"\bpersistent[ \t-]*volume[ \t-]*claims?\b|(?-i:\bPVCs?\b)", re.IGNORECASE)
"""Words naming a persistent volume claim (`persistent volume claims`, `PersistentVolumeClaim`, `PVC`)."""
_NOT_A_CLAIM = re.compile(
    r"\b(?:not|no|never|instead|could|should|would|consider|todo|roadmap|future|planned|plans?|optional"
    r"|optionally|if|unless|e\.g\.|example|replace|swap)\b|n't\b",
    re.IGNORECASE,
)
"""Words of a negation, a suggestion, a plan, a condition or an example."""
_PLANS = re.compile(r"\b(?:roadmap|todo|to[ \t-]do|future|planned|next[ \t]+steps|ideas)\b", re.IGNORECASE)
"""A heading over plans rather than what the manifests do."""
_APPLY = re.compile(r"\bkubectl[ \t]+(?:apply|create)\b(?P<rest>[^\n;&|]*)")
_FILE_FLAG = re.compile(r"(?:^|[ \t])(?:-f|--filename)(?:[ \t]+|=)[\"']?(?P<path>[^\s\"']+)")
_KUSTOMIZE = re.compile(
    r"\bkubectl[ \t]+(?:apply|create)\b[^\n]*(?:[ \t]-k\b|--kustomize\b)|\bhelm[ \t]+(?:install|upgrade)\b"
)
_WORKLOAD = re.compile(
    r"^[ \t]*kind:[ \t]*[\"']?(?:Deployment|StatefulSet|DaemonSet|Pod|Job|CronJob|ReplicaSet)\b", re.M
)
_CLAIMED = re.compile(
    r"^[ \t-]*(?:persistentVolumeClaim|volumeClaimTemplates|ephemeral)[ \t]*:"
    r"|^[ \t]*kind:[ \t]*[\"']?PersistentVolumeClaim\b",
    re.MULTILINE,
)
"""What makes a manifest use a claim: a pod volume of a claim, a StatefulSet's claim templates, a
generic ephemeral volume (a claim per pod), or a claim defined."""
_NODE_VOLUME = re.compile(r"^[ \t-]*(?P<kind>hostPath|emptyDir)[ \t]*:", re.MULTILINE)
"""A pod volume on the node: a `hostPath` folder or an `emptyDir`."""
_YAML = (".yaml", ".yml")
_MANIFEST_LIMIT = 50


def unclaimed_volumes(
    doc: Document, readme: str, directory: Path | None, project: Path | None
) -> Iterator[Diagnostic]:
    """Sentences of `doc` saying the deployment uses persistent volume claims while the manifests its
    `kubectl apply -f` commands apply mount none (see the module's docstring)."""
    said: list[int] = []
    for para in doc.paragraphs:
        if not any(_CLAIM.search(text) for _, text in para.lines):
            continue
        if any(_PLANS.search(h) for h in headings_over(doc, para.lines[0][0])):
            continue
        for start, _end, sentence in sentences(para.lines):
            if _CLAIM.search(sentence) and not _NOT_A_CLAIM.search(sentence):
                said.append(line_at(para.lines, start))
    if not said or directory is None:
        return
    commands = [text for fence in doc.fences for _, text in fence.lines]
    if any(_KUSTOMIZE.search(text) for text in commands):
        return
    directory = Path(os.path.abspath(directory))
    top = Path(os.path.realpath(project or directory))
    files = _applied(commands, directory, top)
    if not files:
        return
    node: tuple[str, int, str] | None = None
    workloads = False
    for file in files:
        text = text_or_none(file)
        if text is None or "{{" in text or "{%" in text:
            return
        if _CLAIMED.search(text):
            return
        workloads = workloads or bool(_WORKLOAD.search(text))
        found = _NODE_VOLUME.search(text)
        if found is not None and node is None:
            where = os.path.relpath(file, directory).replace(os.sep, "/")
            node = (where, text.count("\n", 0, found.start()) + 1, found.group("kind"))
    if not workloads or node is None:
        return
    names = ", ".join(os.path.relpath(f, directory).replace(os.sep, "/") for f in files)
    where, line, kind = node
    article = "an" if kind == "emptyDir" else "a"
    yield Diagnostic(
        readme,
        said[0],
        f"README says the deployment uses persistent volume claims, but no manifest it applies ({names}) "
        f"mounts or defines one: {where}:{line} mounts {article} {kind} volume on the node"
        f"{also_at(said)}",
        confidence=LIKELY,
    )


def _applied(commands: list[str], directory: Path, top: Path) -> list[Path]:
    """The manifest files the `kubectl apply -f` / `kubectl create -f` commands of `commands` name (a
    folder: its YAML files), in the project; [] when one is a URL, a variable, stdin, missing, or more
    than the audit reads."""
    found: list[Path] = []
    for text in commands:
        for apply in _APPLY.finditer(text):
            for flag in _FILE_FLAG.finditer(apply.group("rest")):
                name = flag.group("path")
                if "://" in name or "$" in name or name == "-" or "\0" in name or len(name) > 400:
                    return []
                place = inside(directory / name, top)
                if place is None:
                    return []
                if os.path.isdir(place):
                    try:
                        listed = sorted(
                            p for p in place.iterdir() if p.name.endswith(_YAML) and os.path.isfile(p)
                        )
                    except OSError:
                        return []
                    found.extend(listed)
                elif os.path.isfile(place) and place.name.endswith(_YAML):
                    found.append(place)
                else:
                    return []
                if len(found) > _MANIFEST_LIMIT:
                    return []
    return list(dict.fromkeys(found))
