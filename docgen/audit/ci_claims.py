"""What a README says the GitHub Actions workflow that builds its image does, against the workflow files.

A README's CI section is written once and the workflow moves on (or was never what the section says):
`Builds the image on every push or PR` over a workflow that runs on `push` to `main` only, `push the
image to Docker Hub` over one that logs in to `ghcr.io` alone, `configure the repository secrets
DOCKER_USERNAME and DOCKER_TOKEN` over one that reads `secrets.CR_PAT`. Three claims are read:

- **triggers**: `on every push`, `on pull requests` / `on PR`, `on tags` / `on release`, `nightly` /
  `daily` / `on a schedule`, in a sentence about building or publishing the image, against the `on:`
  events of the workflows that build an image (and of the local workflows calling them);
- **registries**: Docker Hub, GHCR, Quay or nvcr.io, in a sentence that pushes or publishes, against
  the registries those workflows log in to (`docker/login-action` `registry:`, none is Docker Hub;
  `docker login HOST`) or name (`ghcr.io/…`);
- **secrets**: backticked `UPPER_SNAKE` names in a sentence about secrets (or a list it introduces, a
  table whose header or introduction says secrets, `gh secret set NAME` in a command block) that no
  workflow or local action of the repository names at all (`secrets.NAME`, `env: NAME:`, anything).

The sentence must be about CI (its words, the paragraph introducing it, or a heading over it name
GitHub Actions, a workflow or CI), and at least one workflow must build a Dockerfile the README
documents (`docker/build-push-action`, `docker build`, `docker buildx build`): a README about the CI
of other things stays silent. Silent too when docgen cannot know: a workflow calling a reusable
workflow of another repository, reading `secrets[…]` by expression or all of them (`toJSON(secrets)`),
a builder started by `workflow_run`, `repository_dispatch` or a `workflow_call` no local workflow
makes, a registry given by an expression docgen cannot read, another CI system named, PyYAML missing.
`GITHUB_TOKEN` is never reported (GitHub makes it). A prose claim is `likely`; a secret name in a
table or a command is `certain`.

A fourth claim is read when no workflow builds anything (`unbuilt_ci_claims`): a sentence about CI saying
it builds, pushes or publishes the image (`CI: build → test → push to GHCR`, `GitHub Actions builds
the image and pushes it to Docker Hub`) while no step of the repository's workflows builds or pushes
an image: the build steps are commented out, or their job or step is `if: false`. Silent when a step
may build through what docgen does not read (a local script, `make`, a local or third-party action
named for building or publishing, a reusable workflow of another repository), when the project has
another CI system's file, when the sentence links another repository (`GitHub Actions in the
<https://github.com/org/images> project builds this image`), plans, hedges or negates (`TODO`,
`optionally`, `not`), builds by hand (`locally`, `manually`), or is what the reader is to make (`your
own image`, under `Implement a GitHub Actions workflow to:`). `likely`. Such workflows' triggers and
registries are not compared (they build nothing); their secrets are.

Each README line is read once; every regular expression runs on one line.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docgen import workflows
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.compose import KEY_LINES, line_of, load
from docgen.errors import MAX_PROJECT_FILE_BYTES, DocgenError
from docgen.files import built_dockerfile, bytes_or_none, real_path, text_or_none
from docgen.markdown import Document, code_spans, headings_over, plain
from docgen.model import Diagnostic, ImageModel

_CI = re.compile(r"\bgithub[ \t]+actions?\b|\bworkflows?\b|\.github/workflows\b|\bCI\b|\bCI/CD\b", re.I)
"""Words saying a text is about the repository's GitHub Actions CI."""
_OTHER_CI = re.compile(
    r"\b(?:gitlab|travis|circleci|circle[ \t]+ci|jenkins|azure[ \t]+pipelines|bitbucket|drone|woodpecker"
    r"|buildkite|teamcity|cloud[ \t]+build|codebuild)\b",
    re.I,
)
"""Other CI systems: a README naming one may describe its CI, not the GitHub workflow."""
_BUILDS = re.compile(r"\b(?:build|builds|built|building|publish|publishes|published|publishing)\b", re.I)
_PUSHES = re.compile(
    r"\b(?:push|pushes|pushed|pushing|publish|publishes|published|publishing|upload|uploads|uploaded"
    r"|deploy|deploys|deployed)\b",
    re.I,
)
_IMAGE = re.compile(r"\b(?:image|images|docker|container|containers)\b", re.I)

_TRIGGERS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "pull_request",
        re.compile(
            r"\b(?:on|for|every|each|any|or|and)[ \t]+(?:(?:every|each|any|new|opened|open)[ \t]+)?"
            r"(?:pull[ \t-]requests?|PRs?)\b",
            re.I,
        ),
    ),
    (
        "push",
        re.compile(
            r"\b(?:on|every|each|any)[ \t]+(?:(?:every|each|any|new|git)[ \t]+)?"
            r"(?:push|pushes|commit|commits)\b",
            re.I,
        ),
    ),
    (
        "tag",
        re.compile(
            r"\b(?:on|every|each|for|when)[ \t]+(?:(?:every|each|any|a|new|git|version|release)[ \t]+)*"
            r"(?:tags?|tag[ \t]+push(?:es)?|releases?)\b(?![ \t]*[`'\"])",
            re.I,
        ),
    ),
    (
        "schedule",
        re.compile(
            r"\b(?:nightly|daily|weekly)[ \t]+(?:docker[ \t]+|container[ \t]+)?"
            r"(?:builds?|images?|releases?|runs?|jobs?)\b"
            r"|\b(?:built|rebuilt|builds|published|publishes|pushed|runs|released|updated)[ \t]+"
            r"(?:(?:and|pushed|published|automatically|again)[ \t]+)*(?:nightly|daily|weekly)\b"
            r"|\bevery[ \t]+(?:night|day|week)\b|\bon[ \t]+a[ \t]+schedule\b"
            r"|\bscheduled[ \t]+(?:builds?|runs?)\b",
            re.I,
        ),
    ),
)
"""The triggers a sentence claims, each named for the event (or kind of event) it needs."""
_WANTS = {
    "pull_request": "pull requests",
    "push": "every push",
    "tag": "tags or releases",
    "schedule": "a schedule",
}

_REGISTRIES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Docker Hub", re.compile(r"\bdocker[ \t]*hub\b|\bhub\.docker\.com\b|\bdocker\.io\b", re.I)),
    (
        "GHCR",
        re.compile(
            r"\bghcr(?:\.io)?\b|\bgithub[ \t]+container[ \t]+registry\b|\bgithub[ \t]+packages\b", re.I
        ),
    ),
    ("Quay", re.compile(r"\bquay(?:\.io)?\b", re.I)),
    ("nvcr.io", re.compile(r"\bnvcr\.io\b|\bNGC\b")),
)
"""The registries a sentence names."""
_HOSTS = {
    "docker.io": "Docker Hub",
    "index.docker.io": "Docker Hub",
    "registry-1.docker.io": "Docker Hub",
    "ghcr.io": "GHCR",
    "quay.io": "Quay",
    "nvcr.io": "nvcr.io",
}
_HOST_WORD = re.compile(
    r"(?<![\w.-])(docker\.io|index\.docker\.io|registry-1\.docker\.io|ghcr\.io|quay\.io|nvcr\.io)\b"
)
"""A registry's host written in a workflow (`ghcr.io/${{ github.repository }}`, `registry: quay.io`)."""
_DOCKER_LOGIN = re.compile(r"\bdocker[ \t]+login\b([^\n;&|]*)")
_ENV_REF = re.compile(r"\$\{\{[ \t]*env\.([A-Za-z_][A-Za-z0-9_]*)[ \t]*\}\}")
_OTHER_LOGIN = re.compile(r"login|publish|push|registry|ecr", re.I)
"""Another action that logs in or pushes (`aws-actions/amazon-ecr-login`, `redhat-actions/push-to-registry`):
its registry is not read."""
_LOGIN_VALUED = frozenset({"-u", "--username", "-p", "--password"})

_SECRET = re.compile(r"\bsecrets?\b", re.I)
_GITHUB_SECRETS = re.compile(
    r"\b(?:repository|repo|github|actions?|environment)[ \t]+secrets?\b|\bsecrets[ \t]+and[ \t]+variables\b",
    re.I,
)
"""Secrets of GitHub Actions by their own name (a sentence saying them is about the workflow)."""
_NAME = re.compile(r"(?:secrets\.)?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)")
"""A secret's name as a README writes it in a code span (`DOCKERHUB_TOKEN`, `secrets.CR_PAT`)."""
_GH_SECRET = re.compile(r"\bgh[ \t]+secret[ \t]+set[ \t]+([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b")
_HYPOTHETICAL = re.compile(
    r"\b(?:e\.g\.|for[ \t]+example|such[ \t]+as|(?:update|change|edit|modify|adapt)[ \t]+the[ \t]+workflow)",
    re.I,
)
"""A sentence naming a secret as an example or for a workflow the reader is to change."""
_DYNAMIC_SECRETS = re.compile(r"\bsecrets[ \t]*\[|toJSON\([ \t]*secrets[ \t]*\)")
"""Secrets read by a name docgen cannot see (`secrets[format(…)]`, all of them passed on)."""
_BUILT_IN = frozenset({"GITHUB_TOKEN"})
_READ_SECRET = re.compile(r"\bsecrets\.([A-Za-z_][A-Za-z0-9_]*)")
_LOCAL_CALL = re.compile(r"^\./\.github/workflows/([^@\s]+)$")
_BUILD_TEXT = re.compile(
    r"docker/build-push-action|docker/bake-action|\bdocker[ \t]+(?:buildx[ \t]+)?(?:build|bake)\b"
    r"|\b(?:buildah|kaniko|podman[ \t]+build)\b"
)
"""A workflow that builds an image (any image: counted with the README's for triggers and registries)."""
_PULL_EVENTS = frozenset({"pull_request", "pull_request_target", "merge_group"})
_UNKNOWN_EVENTS = frozenset({"workflow_run", "repository_dispatch"})


@dataclass
class _Workflow:
    path: Path
    shown: str
    text: str
    document: Mapping[str, Any]
    events: dict[str, Any] = field(default_factory=dict)
    builds_readme: bool = False
    builds: bool = False
    calls: list[str] = field(default_factory=list)
    remote: bool = False


@dataclass
class _Facts:
    builders: list[_Workflow]
    everything: list[_Workflow]
    triggers_known: bool
    registries: set[str] | None
    """The registries the builders use, None when one cannot be told."""
    secrets_known: bool


def _events(value: object) -> dict[str, Any]:
    """The events of a workflow's `on:` (a name, a list of names or a mapping) → their settings."""
    if isinstance(value, str):
        return {value: None}
    if isinstance(value, list):
        return {v: None for v in value if isinstance(v, str)}
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if k != KEY_LINES and isinstance(k, str)}
    return {}


def read_workflows(directory: Path, project: Path | None, audited: set[Path]) -> list[_Workflow] | None:
    """The repository's workflows, None when one cannot be read (not YAML, PyYAML missing, or
    `files.bytes_or_none` gives none: a link out of the project, larger than
    `errors.MAX_PROJECT_FILE_BYTES`, unreadable), for what it
    holds may be the trigger or the secret a claim names."""
    top = project if project is not None else directory
    found: list[_Workflow] = []
    for path in workflows.files(directory, top):
        # (a workflow past a megabyte is refused: PyYAML reads ten megabytes in minutes)
        # (`top` too: a `.github` linked out of a project with no `.git` is read by no rule; such a
        # workflow is a CI docgen cannot read, and the claims about it are not told)
        data = bytes_or_none(path, MAX_PROJECT_FILE_BYTES, top)
        if data is None:
            return None
        try:
            shown = Path(os.path.relpath(path, directory)).as_posix()
            document = load(data, shown, "a GitHub Actions workflow")
            targets = workflows.parse(data, shown)
        except (OSError, DocgenError):
            return None
        if not isinstance(document, dict):
            continue
        text = data.decode("utf-8", errors="replace")
        flow = _Workflow(path, shown, text, document, _events(document.get("on")))
        flow.builds_readme = any(
            real_path(built_dockerfile(path.parent / t.dockerfile)) in audited for t in targets
        )
        flow.builds = flow.builds_readme or bool(_BUILD_TEXT.search(text))
        jobs = document.get("jobs")
        for job in jobs.values() if isinstance(jobs, dict) else ():
            if not isinstance(job, dict):
                continue
            uses = job.get("uses")
            if isinstance(uses, str):
                local = _LOCAL_CALL.match(uses.strip())
                if local:
                    flow.calls.append(local.group(1))
                else:
                    flow.remote = True
            for step in job.get("steps") or ():
                if isinstance(step, dict) and isinstance(step.get("uses"), str):
                    if step["uses"].strip().startswith("./"):
                        flow.builds = True  # a local action may build and push (not read)
        found.append(flow)
    return found


def _login_hosts(flow: _Workflow) -> set[str] | None:
    """The registries a workflow logs in to, with those whose host it writes; None when it logs in
    nowhere docgen sees (a runner may hold the login), through another action, or to a registry an
    unread expression gives."""
    logins: set[str] = set()
    for job in _jobs(flow.document):
        for step in job.get("steps") or ():
            uses = step.get("uses") if isinstance(step, dict) else None
            if not isinstance(uses, str):
                continue
            given = step.get("with")
            given = given if isinstance(given, dict) else {}
            if uses.strip().startswith("docker/login-action") or (
                uses.strip().startswith("docker/build-push-action") and "username" in given
            ):  # (build-push-action v1 logs in itself)
                registry = _env_value(str(given.get("registry") or "").strip(), flow.document, job)
                host = registry.split("/")[0].lower() or "docker.io"
                if "$" in host:
                    return None
                logins.add(_HOSTS.get(host, host))
            elif not uses.strip().startswith(("docker/", "actions/")) and _OTHER_LOGIN.search(uses):
                return None
    for login in _DOCKER_LOGIN.finditer(flow.text):
        logged = _login_host(login.group(1).split())
        if logged is None:
            return None
        logins.add(_HOSTS.get(logged.lower(), logged.lower()))
    if not logins:
        return None
    return logins | {_HOSTS[h] for h in _HOST_WORD.findall(flow.text)}


def _env_value(value: str, document: Mapping[str, Any], job: Mapping[str, Any]) -> str:
    """`value`, or the job's or workflow's `env:` value it is when it is `${{ env.NAME }}` alone."""
    named = _ENV_REF.fullmatch(value)
    if named is None:
        return value
    for scope in (job.get("env"), document.get("env")):
        if isinstance(scope, dict) and isinstance(scope.get(named.group(1)), str):
            return str(scope[named.group(1)]).strip()
    return value


def _login_host(words: list[str]) -> str | None:
    """The registry a `docker login` logs in to (its words after `login`): the first word that is no
    flag or a flag's value, `docker.io` when there is none; None when it is a variable (unread)."""
    index = 0
    while index < len(words):
        word = words[index]
        if word in _LOGIN_VALUED:
            index += 2
            continue
        if word.startswith("-") or word in ("<", "<<<"):
            index += 1
            continue
        if word.startswith(("|", ">", "2>")):
            break
        return None if "$" in word else word.strip("\"'")
    return "docker.io"


def _jobs(document: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The jobs of a workflow."""
    jobs = document.get("jobs")
    return (
        [j for k, j in jobs.items() if k != KEY_LINES and isinstance(j, dict)]
        if isinstance(jobs, dict)
        else []
    )


def _facts(flows: list[_Workflow]) -> _Facts | None:
    """What the workflows tell, None when none builds an image the README documents."""
    if not any(f.builds_readme for f in flows):
        return None
    by_name = {f.path.name: f for f in flows}
    builders = [f for f in flows if f.builds]
    # a workflow calling a builder starts it: its triggers are the builder's
    changed = True
    while changed:
        changed = False
        for flow in flows:
            if flow not in builders and any(by_name.get(c) in builders for c in flow.calls):
                builders.append(flow)
                changed = True
    remote = any(f.remote for f in flows)
    triggers_known = not remote
    for flow in builders:
        if _UNKNOWN_EVENTS & flow.events.keys():
            triggers_known = False
        if "workflow_call" in flow.events and not any(flow.path.name in f.calls for f in flows):
            triggers_known = False
    registries: set[str] | None = None if remote else set()
    for flow in builders:
        hosts = _login_hosts(flow)
        if hosts is None or registries is None:
            registries = None
            break
        registries |= hosts
    secrets_known = not remote and not any(_DYNAMIC_SECRETS.search(f.text) for f in flows)
    return _Facts(builders, flows, triggers_known, registries, secrets_known)


def _has(flows: Sequence[_Workflow], wanted: str) -> bool:
    """True when one of `flows` runs on the kind of event `wanted` names."""
    for flow in flows:
        events = flow.events
        if wanted == "pull_request" and _PULL_EVENTS & events.keys():
            return True
        if wanted == "push" and ("push" in events or _PULL_EVENTS & events.keys()):  # (a PR's pushes)
            return True
        if wanted == "schedule" and "schedule" in events:
            return True
        if wanted == "tag":
            if {"release", "create"} & events.keys():
                return True
            push = events.get("push")
            if "push" in events and (
                not isinstance(push, dict)
                or "tags" in push
                or "tags-ignore" in push
                or not ({"branches", "branches-ignore"} & push.keys())
            ):
                return True
    return False


def _on_text(flows: Sequence[_Workflow]) -> str:
    """The events `flows` run on, for a message."""
    names = sorted({e for f in flows for e in f.events})
    return ", ".join(names) if names else "no event"


def _cited(flows: Sequence[_Workflow]) -> str:
    """The builders' files, each at its `on:` line."""
    return ", ".join(
        f"{f.shown}:{line}" if (line := line_of(f.document, "on")) is not None else f.shown for f in flows[:3]
    )


def _sentences(text: str) -> list[str]:
    """The sentences of a README line."""
    return [s for s in re.split(r"(?<=[.!?])[ \t]+(?=[A-Z`*])", text) if s.strip()]


def _about_ci(doc: Document, line: int, text: str, before: str) -> bool:
    """True when README `line` (its `text`, after the paragraph `before`) is about CI."""
    return bool(
        _CI.search(text) or _CI.search(before) or any(_CI.search(h) for h in headings_over(doc, line))
    )


def _unspanned(text: str) -> str:
    """`text` with its code spans blanked (a `nightly` tag is a name, not a schedule)."""
    out = list(text)
    for start, end, _ in code_spans(text):
        out[start:end] = " " * (end - start)
    return "".join(out)


def ci_claims(
    doc: Document, path: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    audited = {(Path(m.file) if m.file else directory / m.path).resolve() for m in models}
    flows = read_workflows(directory, project, audited) if audited else None
    unbuilt = bool(flows) and not any(_may_build(f) for f in flows or ())
    if unbuilt and flows:
        yield from unbuilt_ci_claims(doc, path, flows, project if project is not None else directory)
    facts = _facts(flows) if flows else None
    if facts is None:
        return
    words = _workflow_words(facts.everything)
    for para in doc.paragraphs:
        if _OTHER_CI.search(para.before):
            continue
        introduced = bool(_SECRET.search(para.before) and para.before.rstrip().endswith(":"))
        for line, raw in para.lines:
            if _OTHER_CI.search(raw):
                continue
            about = _about_ci(doc, line, raw, para.before)
            github = about or bool(_GITHUB_SECRETS.search(raw) or _GITHUB_SECRETS.search(para.before))
            if github and facts.secrets_known and (introduced or _SECRET.search(raw)):
                if not _HYPOTHETICAL.search(raw):
                    unread = [n for n in _secret_names(raw) if n not in words]
                    if unread:
                        yield _secret_finding(path, line, unread, facts, LIKELY)
            introduced = introduced or bool(_SECRET.search(raw) and raw.rstrip().endswith(":"))
            if about and not unbuilt:  # (no trigger nor registry of a CI that builds nothing)
                for sentence in _sentences(plain(_unspanned(raw))):
                    yield from _trigger_claims(path, line, sentence, para.before, facts)
                    yield from _registry_claims(path, line, sentence, facts)
    if facts.secrets_known:
        yield from _coded_secrets(doc, path, words, facts)


def _trigger_claims(path: str, line: int, sentence: str, before: str, facts: _Facts) -> Iterator[Diagnostic]:
    """The triggers a sentence about building the image claims that no builder has."""
    if not facts.triggers_known or not _BUILDS.search(sentence) or not _IMAGE.search(f"{sentence} {before}"):
        return
    for kind, pattern in _TRIGGERS:
        if pattern.search(sentence) and not _has(facts.builders, kind):
            yield Diagnostic(
                path,
                line,
                f"README says the CI workflow builds the image on {_WANTS[kind]}, but the workflows that "
                f"build it ({_cited(facts.builders)}) run on {_on_text(facts.builders)} only",
                confidence=LIKELY,
            )


def _registry_claims(path: str, line: int, sentence: str, facts: _Facts) -> Iterator[Diagnostic]:
    """The registries a sentence about pushing the image names that no builder logs in to."""
    if facts.registries is None or not _PUSHES.search(sentence):
        return
    for registry, pattern in _REGISTRIES:
        if pattern.search(sentence) and registry not in facts.registries:
            used = " and ".join(sorted(facts.registries)) or "no registry"
            shown = ", ".join(f.shown for f in facts.builders[:3])
            yield Diagnostic(
                path,
                line,
                f"README says the CI workflow pushes the image to {registry}, but the workflows that "
                f"build it ({shown}) log in to {used} only",
                confidence=LIKELY,
            )


def _secret_names(raw: str) -> list[str]:
    """The secret names a line writes in code spans."""
    found = []
    for _, _, span in code_spans(raw):
        match = _NAME.fullmatch(span.strip())
        if match and match.group(1) not in _BUILT_IN:
            found.append(match.group(1))
    return found


def _coded_secrets(doc: Document, path: str, words: frozenset[str], facts: _Facts) -> Iterator[Diagnostic]:
    """Secret names in the first column of a table about secrets (its header or introduction says so)
    under CI words, or set by `gh secret set NAME` in a command block."""
    for table in doc.tables:
        header = " ".join(table.header)
        if not (_SECRET.search(header) or _SECRET.search(table.context)) or _OTHER_CI.search(table.context):
            continue
        if not (_about_ci(doc, table.line, header, table.context) or _GITHUB_SECRETS.search(table.context)):
            continue
        for line, cells in table.rows:
            unread = [n for n in _secret_names(cells[0] if cells else "") if n not in words]
            if unread:
                yield _secret_finding(path, line, unread, facts, CERTAIN)
    for fence in doc.fences:
        for line, raw in fence.lines:
            unread = [m.group(1) for m in _GH_SECRET.finditer(raw) if m.group(1) not in words]
            unread = [n for n in unread if n not in _BUILT_IN]
            if unread:
                yield _secret_finding(path, line, unread, facts, CERTAIN)


def _secret_finding(path: str, line: int, names: list[str], facts: _Facts, confidence: str) -> Diagnostic:
    """One finding for the unread secrets a README line names."""
    shown = ", ".join(f.shown for f in facts.everything[:3])
    more = f" and {len(facts.everything) - 3} more" if len(facts.everything) > 3 else ""
    read = sorted({m for f in facts.everything for m in _READ_SECRET.findall(f.text)} - _BUILT_IN)
    reads = f" (they read {', '.join(read)})" if read else ""
    which = f"the secret {names[0]}" if len(names) == 1 else "the secrets " + ", ".join(names)
    return Diagnostic(
        path,
        line,
        f"README names {which} for the CI workflow, but no workflow of the repository ({shown}{more}) "
        f"reads {'it' if len(names) == 1 else 'them'}{reads}",
        confidence=confidence,
    )


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _workflow_words(flows: Sequence[_Workflow]) -> frozenset[str]:
    """Every word of the workflows and of the repository's local actions (`.github/actions/*/action.yml`):
    a secret named anywhere in them may be read."""
    words: set[str] = set()
    for flow in flows:
        words.update(_WORD.findall(flow.text))
    for root in sorted({f.path.parent.parent for f in flows}):
        for action in sorted(root.glob("actions/*/action.y*ml"))[:50]:
            if (text := text_or_none(action)) is not None:
                words.update(_WORD.findall(text))
    return frozenset(words)


_BUILD_RUN = re.compile(
    r"\b(?:docker|podman|nerdctl|buildah)[ \t]+(?:image[ \t]+)?(?:buildx[ \t]+)?(?:build|bake|push)\b"
    r"|\b(?:docker|podman)[ \t-]+compose\b[^\n]*\b(?:build|push)\b|\bdocker-compose\b[^\n]*\b(?:build|push)\b"
    r"|\b(?:kaniko|executor|skopeo[ \t]+copy|crane[ \t]+(?:push|copy|append)|ko[ \t]+(?:build|publish|apply)"
    r"|jib|pack[ \t]+build|earthly|depot[ \t]+build|nix[ \t]+build|img[ \t]+build|enroot[ \t]+import)\b"
)
"""A `run:` script line that builds or pushes an image."""
_UNREAD_RUN = re.compile(
    r"(?:^[ \t]*|[;&|(`][ \t]*"
    r"|\b(?:bash|sh|zsh|source|exec|sudo|time|python3?|node|ruby|perl|pwsh|run)[ \t]+)"
    r"[\w./-]*\.(?:sh|bash|py|ps1)\b"
    r"|(?:^[ \t]*|[;&|(][ \t]*)\.{1,2}/[\w./-]+"
    r"|\b(?:make|just|task|npm[ \t]+run|yarn|pnpm|tox|nox|invoke|mage|bazel|gradle|gradlew|mvn|goreleaser)\b"
    r"|(?:^[ \t]*|[;&|][ \t]*)\.[ \t]+\S"
    r"|(?:^[ \t]*|[;&|][ \t]*)(?:\$\{\{|\$\w|\$\{)",
    re.M,
)
"""A `run:` script line that runs what docgen does not read: a script, a make-like tool, a sourced file, a
command given by an expression or a variable (`${{ matrix.command }}`, `$BUILD`)."""
_BUILDER_ACTION = re.compile(
    r"docker|build|push|publish|image|container|registry|buildah|kaniko|podman|\bko\b|jib|pack|nix|earthly"
    r"|depot|skopeo|crane|deploy|release|ship|oci",
    re.I,
)
"""A third-party action's name that may build or push an image."""
_NO_BUILD_ACTIONS = re.compile(
    r"^(?:docker/(?:login|metadata|setup-buildx|setup-qemu|setup-docker)-action"
    r"|actions/(?:checkout|cache|setup-[\w-]+|upload-artifact|download-artifact|github-script|labeler|stale))@"
)
"""Actions that build and push nothing themselves."""
_SCRIPT_KEY = re.compile(r"script|run|command|cmd|exec", re.I)
"""An action's input that holds a script (`appleboy/ssh-action`'s `script:`)."""
_DISABLED = re.compile(r"^[ \t]*(?:\$\{\{[ \t]*)?false[ \t]*(?:\}\})?[ \t]*$", re.I)
_SHELL_COMMENT = re.compile(r"(?:^|[ \t])#.*")
_COMMENTED_BUILD = re.compile(
    r"^[ \t]*#[ \t#]*(?:-[ \t]+)?(?:(?:uses:[ \t]*(?P<action>docker/(?:build-push|bake)-action)\S*)"
    r"|.*?(?P<command>\b(?:docker|podman)[ \t]+(?:buildx[ \t]+)?(?:build|push)\b))"
)
"""A workflow line that builds or pushes, commented out."""
_OTHER_CI_FILES = (
    ".gitlab-ci.yml",
    ".travis.yml",
    "Jenkinsfile",
    ".circleci",
    "azure-pipelines.yml",
    "cloudbuild.yaml",
    "cloudbuild.yml",
    ".drone.yml",
    "bitbucket-pipelines.yml",
    ".buildkite",
    ".woodpecker.yml",
    ".woodpecker",
)
_CLAIM_BUILD = re.compile(
    r"\b(?:build|builds|built|building|rebuild|rebuilds|rebuilt)\b|→[ \t]*build\b|\bbuild[ \t]*→", re.I
)
_NOT_BUILT = re.compile(
    r"\b(?:not|no|never|without|todo|planned|plans?|future|roadmap|coming[ \t]+soon|would|could|should"
    r"|might|disabled|commented|locally|manually|yourself|by[ \t]+hand|set[ \t]+up|setup|configure"
    r"|enable|optional|optionally|implement)\b|n't\b"
    r"|\byour[ \t]+(?:own[ \t]+)?(?:docker[ \t]+)?(?:images?|containers?|workflows?|ci|pipelines?)\b",
    re.I,
)
"""Words of a negation, a plan, a build by hand, or a CI (an image) that is the reader's to set up."""
_TASK = re.compile(r"^[ \t]*(?:implement|create|write|add|set[ \t]+up|build[ \t]+a|make)\b", re.I)
"""A paragraph introducing what the reader is to make (`Implement a GitHub Actions workflow to:`)."""
_AUTOMATIC = re.compile(
    r"\bautomatic(?:ally)?\b|\b(?:is|are|gets?|get)[ \t]+(?:\w+[ \t]+)?(?:built|pushed|published|uploaded)\b",
    re.I,
)
"""A sentence saying something is built or pushed for the reader: under a CI heading, about CI."""
_INTEGRATION = re.compile(r"\bcontinuous[ \t]+(?:integration|delivery|deployment)\b", re.I)
"""A heading naming CI in words."""
_OTHER_REPOSITORY = re.compile(
    r"https?://github\.com/[\w.-]+/[\w.-]+(?![\w.-])"
    r"(?!/(?:actions|blob/[^/\s]+/\.github|tree/[^/\s]+/\.github|settings))(?:[/#?][^\s)>]*)?"
    r"|\b(?:another|separate|other|upstream|different|main|parent|central)[ \t]+"
    r"(?:repository|repo|project)\b",
    re.I,
)
"""A link to a GitHub repository (not to its Actions, workflows or settings), or words naming another
repository: the CI may be there."""


def _disabled(value: object) -> bool:
    """True for an `if:` that never holds (`false`, `${{ false }}`)."""
    return isinstance(value, str) and bool(_DISABLED.match(value))


def _script_text(value: str) -> str:
    """A shell script with its comments taken out."""
    return "\n".join(_SHELL_COMMENT.sub("", line) for line in value.splitlines())


def _may_build(flow: _Workflow) -> bool:
    """True when a step of `flow` that can run builds or pushes an image, or may through what docgen
    does not read (a script, `make`, a builder's action, a reusable workflow of another repository)."""
    for job in _jobs(flow.document):
        if _disabled(job.get("if")):
            continue
        uses = job.get("uses")
        if isinstance(uses, str) and not _LOCAL_CALL.match(uses.strip()):
            return True
        for step in job.get("steps") or ():
            if not isinstance(step, dict) or _disabled(step.get("if")):
                continue
            action = step.get("uses")
            if isinstance(action, str):
                action = action.strip()
                if action.startswith("./") or (
                    not _NO_BUILD_ACTIONS.match(action) and _BUILDER_ACTION.search(action)
                ):
                    return True
            given = step.get("with")
            texts = [step.get("run")] + (
                [v for k, v in given.items() if isinstance(k, str) and _SCRIPT_KEY.search(k)]
                if isinstance(given, dict)
                else []
            )
            for text in texts:
                if isinstance(text, str):
                    script = _script_text(text)
                    if _BUILD_RUN.search(script) or _UNREAD_RUN.search(script):
                        return True
    return False


def _commented_builds(flows: Sequence[_Workflow]) -> list[str]:
    """The build and push lines of `flows` that are commented out, each as `file:line (what)`."""
    found: list[str] = []
    for flow in flows:
        for number, text in enumerate(flow.text.splitlines(), 1):
            match = _COMMENTED_BUILD.match(text)
            if match is not None:
                what = match.group("action") or f"`{match.group('command')}`"
                found.append(f"{what} at {flow.shown}:{number}")
    return found


def unbuilt_ci_claims(
    doc: Document, path: str, flows: Sequence[_Workflow], top: Path
) -> Iterator[Diagnostic]:
    """Sentences saying the CI workflow builds, pushes or publishes the image while no workflow of
    `flows` (none of which `_may_build`) does (see the module's docstring)."""
    if any(os.path.lexists(top / name) for name in _OTHER_CI_FILES):
        return
    commented = _commented_builds(flows)  # (read once: thousands of claims)
    for para in doc.paragraphs:
        if _OTHER_CI.search(para.before) or _TASK.search(para.before) or _NOT_BUILT.search(para.before):
            continue
        for line, raw in para.lines:
            if _OTHER_CI.search(raw) or _OTHER_REPOSITORY.search(raw):
                continue
            if not (
                _about_ci(doc, line, raw, para.before)
                or any(_INTEGRATION.search(h) for h in headings_over(doc, line))
            ):
                continue
            for sentence in _sentences(plain(raw)):
                finding = _unbuilt_claim(path, line, sentence, flows, commented)
                if finding is not None:
                    yield finding
                    break


def _unbuilt_claim(
    path: str, line: int, sentence: str, flows: Sequence[_Workflow], commented: Sequence[str]
) -> Diagnostic | None:
    """The finding on one sentence saying CI builds or pushes the image, None when it says neither;
    `commented`: `_commented_builds(flows)`."""
    if not (_CI.search(sentence) or _AUTOMATIC.search(sentence)) or _NOT_BUILT.search(sentence):
        return None
    registry = next((name for name, pattern in _REGISTRIES if pattern.search(sentence)), None)
    if not (_IMAGE.search(sentence) or registry):
        return None
    builds = bool(_CLAIM_BUILD.search(sentence))
    pushes = bool(_PUSHES.search(sentence))
    if not (builds or pushes):
        return None
    said = " and ".join(w for w, on in (("builds", builds), ("pushes", pushes)) if on)
    said += " the image" + (f" to {registry}" if pushes and registry else "")
    shown = ", ".join(f.shown for f in flows[:3]) + (f" and {len(flows) - 3} more" if len(flows) > 3 else "")
    why = f": {', '.join(commented[:3])} commented out" if commented else ""
    return Diagnostic(
        path,
        line,
        f"README says the CI workflow {said}, but no step of the workflows ({shown}) builds or pushes an "
        f"image{why}",
        confidence=LIKELY,
    )
