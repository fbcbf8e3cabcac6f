"""The name of the image's user, given with its user id (`` Non-root user `codefreedom` (uid 1000) with
passwordless sudo ``), while every Dockerfile audited makes the user of that id under another name
(`ARG USERNAME=vscode`, `ARG USER_UID=1000`, `useradd --uid "${USER_UID}" … "${USERNAME}"`): no user of
the name said exists in the image, so `sudo -u`, `docker exec -u`, a home under `/home/<name>` or a
`chown` by that name fail (`likely`: read from prose).

The id ties the sentence to the user the Dockerfile makes; the names are read from each `useradd` or
`adduser` of a RUN, their `${VAR}` expanded from the ARG and ENV defaults. Silent when a Dockerfile names
the user said anywhere (a USER, a `chown`, a path), makes no user of that id or one whose name or id it
cannot expand, when the README passes the name as a value (`--build-arg USERNAME=codefreedom`, `--user
codefreedom`), when the sentence is about the host or a run-time choice (`host`, `--user`, `if`, `your`),
and when the name is one a base image brings (`ubuntu`, `node`, `jovyan`, …) or is part of the base's
name. A name in a label or a tag (the project's) is not a user. A line on which `settings` already
reported the image's user (the lines `setting_claims` gives back in `told_users`) is not told again:
`audit` leaves those out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from docgen.audit.auditor import LIKELY, dockerfile_read
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel, Instruction

_CLAIM = re.compile(
    r"(?:(?:\buser|\bnon-?root|\bruns[ \t]+as)(?:\*\*|__)?:?[ \t]+`([a-z_][\w.-]{0,31})`"
    r"|`([a-z_][\w.-]{0,31})`[ \t]+user\b)[ \t]*"
    r"\((?:uid|user[ \t]+id)[ \t]*[=:]?[ \t]*(\d{1,6})\)",
    re.IGNORECASE,
)
"""`` user `app` (uid 1000) ``, `` `app` user (UID: 1000) ``, `` Non-root `app` (UID 1000) ``, `` **Non-root
User**: `app` (UID 1000) ``, `` runs as `app` (uid 1000) ``: a user's name with its id."""
_NOT_SAID = re.compile(
    r"\bhost\b|--user\b|(?:^|[ \t])-u[ \t]|--run-as|\bif\b|\bunless\b|\bnot\b|n't\b|\byour\b|\byou[ \t]+can\b"
    r"|\binstead\b|\boverrid|\bssh\b",
    re.IGNORECASE,
)
"""Words making the sentence about the host, a run-time choice or an option, not about the image."""
_MAKES = re.compile(r"\b(useradd|adduser)\b((?:[^;&|\n\\]|\\\n)*)")
"""A command making a user, and its words up to the end of its step."""
_VALUED = frozenset(
    "-u --uid -g --gid -G --groups -s --shell -d --home-dir --home -c --comment --gecos -k --skel -K --key "
    "-e --expiredate -f --inactive -p --password -b --base-dir -R --root -P --prefix -Z --selinux-user "
    "--ingroup --firstuid --lastuid --add_extra_groups --conf -h".split()
)
"""Options of `useradd` and `adduser` (Debian's, busybox's) that take a value."""
_BUSYBOX_VALUED = frozenset({"-g", "-h", "-s", "-G", "-u"})
_UID_OPTIONS = frozenset({"-u", "--uid"})
_VAR = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")
_BASE_USERS = frozenset(
    "ubuntu debian node jovyan vscode coder user app ec2-user centos fedora admin nonroot nobody".split()
)
"""Users a base image may bring (Ubuntu from 24.04, node, Jupyter, devcontainer, code-server images)."""


def _made(model: ImageModel) -> list[tuple[str, str]] | None:
    """(name, uid) of each user a RUN of the Dockerfile makes with an id; None when the Dockerfile cannot
    be read or a name or id does not expand."""
    if not model.file:
        return None
    read = dockerfile_read(model.file)
    if read is None:
        return None
    values = {a.name: a.default for a in model.args if a.default}
    values.update({e.name: e.value for e in model.env if e.value})
    made: list[tuple[str, str]] = []
    for inst in read[1].instructions:
        if inst.keyword.upper() != "RUN":
            continue
        for match in _MAKES.finditer(inst.body):
            busybox = match.group(1) == "adduser" and re.search(r"(?:^|\s)-D\b", match.group(2)) is not None
            valued = _BUSYBOX_VALUED if busybox else _VALUED
            words = match.group(2).replace("\\\n", " ").split()
            positional: list[str] = []
            uid = ""
            at = 0
            while at < len(words):
                word = words[at]
                at += 1
                name, eq, value = word.partition("=")
                if name in valued:
                    if not eq:
                        value = words[at] if at < len(words) else ""
                        at += 1
                    if name in _UID_OPTIONS or (busybox and name == "-u"):
                        uid = value
                elif not word.startswith("-"):
                    positional.append(word)
            if len(positional) != 1 or not uid:
                continue
            expanded = []
            for word in (positional[0], uid):
                word = _VAR.sub(lambda m: values.get(m.group(1), "\0"), word).strip("\"'")
                if "\0" in word or "$" in word or "`" in word:
                    return None
                expanded.append(word)
            made.append((expanded[0], expanded[1]))
    return made


def user_names(doc: Document, text: str, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    if not models or "uid" not in text.lower() and "user id" not in text.lower():
        return
    for para in doc.paragraphs:
        for line, sentence in para.lines:
            for claim in _CLAIM.finditer(sentence):
                if _NOT_SAID.search(sentence):
                    break
                name = (claim.group(1) or claim.group(2)).lower()
                uid = claim.group(3)
                finding = _judge(name, uid, text, models)
                if finding is not None:
                    yield Diagnostic(readme, line, f"README says {finding}", confidence=LIKELY)


def _names_user(text: str, name: str) -> bool:
    """Whether the Dockerfile `text` names `name` as a user (`USER app`, `/home/app`, `chown app:app`,
    `--chown=app`, `su app`, `gosu app`, `-u app`): the project's name in a label or a tag is not one."""
    said = re.escape(name)
    return (
        re.search(
            rf"(?:/home/|\bUSER[ \t]+|--chown=|\bchown[ \t]+(?:-\w+[ \t]+)*"
            rf"|\b(?:su|gosu|su-exec|runuser)[ \t]+(?:-\w*[ \t]+)*|(?:^|[ \t])-u[ \t]+|--user[ \t=]+"
            rf"|\b(?:useradd|adduser|groupadd)\b[^\n;&|]*?[ \t])"
            rf"[\"']?{said}(?![\w-])",
            text,
            re.IGNORECASE,
        )
        is not None
    )


def _user_by_id(instructions: Sequence[Instruction]) -> bool:
    """Whether the last stage switches to a user by its id (`USER 1001`, `USER 1000:1000`): the id is what
    runs, and what name the README gives it is no drift (`settings` compares the id)."""
    last = None
    for instruction in instructions:
        if instruction.keyword == "FROM":
            last = None
        elif instruction.keyword == "USER":
            last = instruction.args.strip()
    return last is not None and last.split(":", 1)[0].isdigit()


def _judge(name: str, uid: str, text: str, models: Sequence[ImageModel]) -> str | None:
    """What each Dockerfile makes instead of user `name` of id `uid`; None when one may have it."""
    if name in _BASE_USERS or re.search(rf"(?:=|--user[ \t]+|-u[ \t]+){re.escape(name)}\b", text, re.I):
        return None
    facts: list[tuple[str, str]] = []
    for model in models:
        made = _made(model)
        read = dockerfile_read(model.file) if model.file else None
        if made is None or read is None or _names_user(read[0], name) or _user_by_id(read[1].instructions):
            return None
        if any(name in base.base.lower() for base in model.chain()):
            return None
        others = sorted({n for n, u in made if u == uid})
        if not others or name in others:
            return None
        facts.append((model.path, ", ".join(others)))
    users = {made for _, made in facts}
    if len(users) == 1:
        paths = " and ".join(path for path, _ in facts)
        said = f"{paths} {'make' if len(facts) > 1 else 'makes'} uid {uid} as user {users.pop()}"
    else:
        said = "; ".join(f"{path} makes uid {uid} as user {made}" for path, made in facts)
    return f"the image's user {name} has uid {uid}, but {said}: no user {name} exists in the image"


# --------------------------------------------------------------------------------------------------
# A home of a user the image does not have

_HOME_PATH = re.compile(
    r"(?<![\w.~$}{/:@%-])(/home/([a-z_][a-z0-9_-]{0,31})(?:/[\w.+@-]+)*)/?(?![\w$/{(*:-])"
)
"""A path under a user's home, `/home/admin/agent/log`, and the user's name."""
_IN_IMAGE = re.compile(r"\b(?:container|image|volume|mount(?:ed)?)\b", re.IGNORECASE)
"""Words saying a sentence is about the container's files: `Add a volume at that path`."""
_NOT_IMAGE = re.compile(
    r"\bhost\b|\blocal(?:ly)?\b|--user\b|(?:^|[ \t])-u[ \t]|\bif\b|\byour\b|\bssh\b|\bclone\b|\bexample\b"
    r"|\be\.g\.|\bsuch[ \t]+as\b|\bchange\b|\breplace\b",
    re.IGNORECASE,
)
"""Words making a sentence about the host, a choice or an example, not about the image as built."""
_PLAIN_BASES = re.compile(
    r"(?:docker\.io/)?(?:library/)?(?:ubuntu|debian|alpine|centos|fedora|rockylinux|almalinux|archlinux"
    r"|python|nvidia/cuda|nvcr\.io/nvidia/[\w/-]+|pytorch/pytorch|rocm/[\w-]+|tensorflow/tensorflow"
    r"|continuumio/miniconda3|condaforge/miniforge3|mambaorg/micromamba|buildpack-deps)(?::|@|\Z)"
)
"""Base images that make no user under /home (`mambaorg/micromamba` makes `mambauser`, named by no path
here): a home the Dockerfile does not make is not in the image. Ubuntu's `ubuntu` user is in
`_HOME_USERS`."""
_HOME_USERS = frozenset({"ubuntu", "node", "jovyan", "vscode", "coder", "mambauser"})


def _root_home(model: ImageModel, name: str) -> str | None:
    """Where the image built by `model` runs when it has no user `name`: `WORKDIR /root at Dockerfile:74`
    (or `as root`); None when it may have that user: the Dockerfile names it, makes a user, switches to
    one, sets HOME, its base is none of `_PLAIN_BASES` (one given by a build arg with no default counts
    when the last WORKDIR is under /root: the image works in root's home), or the base's name has it."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return None
    text, parsed = read
    if _names_user(text, name) or _MAKES.search(text) or re.search(r"\bHOME\b", text):
        return None
    chain = model.chain()
    base = chain[-1].base.lower() if chain else ""
    if not base or name in base:
        return None
    last_user = None
    workdir = None
    for instruction in parsed.instructions:
        if instruction.keyword == "FROM":
            last_user, workdir = None, None
        elif instruction.keyword == "USER":
            last_user = instruction.args.strip().split(":", 1)[0]
        elif instruction.keyword == "WORKDIR":
            workdir = instruction
    if last_user not in (None, "root", "0"):
        return None
    rooted = workdir is not None and re.match(r"/root(?:/|\Z)", workdir.args.strip()) is not None
    if not _PLAIN_BASES.match(base) and not ("$" in base and rooted):
        return (
            None  # a base of the project's may make the user (an unknown one may, unless root's home is used)
        )
    if workdir is not None:
        return f"it runs as root in WORKDIR {workdir.args.strip()} ({model.path}:{workdir.start_line})"
    return "it runs as root"


def missing_homes(doc: Document, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """A path under `/home/<name>` that a sentence about the container gives (`Log files are stored in
    `/home/admin/agent/log`. Add a volume at that path …`) while no Dockerfile audited makes that user
    or names it, none sets HOME, the image runs as root and its base is a plain one that has no such user
    (`_PLAIN_BASES`): the path is not in the image (`likely`, from prose). Silent for a sentence about
    the host, an example or a choice (`_NOT_IMAGE`), for a user base images bring (`ubuntu`, `node`,
    `jovyan` …) and when the README passes a user (`--user`, `-u`, a build arg)."""
    if not models:
        return
    told: set[int] = set()
    for para in doc.paragraphs:
        joined = " ".join(t for _, t in para.lines)
        if "/home/" not in joined or not _IN_IMAGE.search(joined) or _NOT_IMAGE.search(joined):
            continue
        for line, sentence in para.lines:
            for match in _HOME_PATH.finditer(sentence):
                name = match.group(2)
                if line in told or name in _HOME_USERS or "`" + match.group(1) not in sentence:
                    continue
                where = [_root_home(model, name) for model in models]
                if any(w is None for w in where):
                    continue
                told.add(line)
                yield Diagnostic(
                    readme,
                    line,
                    f"README says {match.group(1)} is in the container, but no Dockerfile makes a user "
                    f"{name} or /home/{name}: {where[0]}",
                    confidence=LIKELY,
                )
