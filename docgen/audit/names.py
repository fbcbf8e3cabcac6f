"""Names a README's commands and examples share with the files beside it: the container a `docker exec`
or `docker logs` enters (a compose file's `container_name:`), the image a `docker run` starts (the tag
a `docker build -t` of the same section makes, or of another section at the very tag), the image a
build arg or a built Dockerfile's FROM names as a base (a tag another build command of the README
makes), and a service of a compose example copied from the compose file next to it (`dockerfile:`,
`args:`, `image:`).

Each rule is conservative: the name must be none of those the files give while one of them is a slip
away (a renamed container or image), and a name a placeholder, a registry path or a public image holds
is no claim.
"""

from __future__ import annotations

import bisect
import difflib
import os
import posixpath
import re
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen import build_scripts, compose
from docgen.audit.aside import offered_text
from docgen.audit.auditor import CERTAIN, LIKELY, also_at, clipped
from docgen.audit.commands import (
    FILE_FLAG,
    OFFICIAL,
    TAG_FLAG,
    fence_commands,
    image_repository,
    joined,
    without_prompt,
)
from docgen.audit.memo import per_audit
from docgen.audit.missing import one_edit
from docgen.audit.own_repo import repository_root
from docgen.audit.paths import resolves_inside
from docgen.audit.wording import COMMAND_LANGS
from docgen.build_scripts import container_command, tag_targets
from docgen.errors import MAX_FILE_BYTES, MAX_PROJECT_FILE_BYTES, DocgenError
from docgen.files import bytes_or_none, real_path, text_or_none
from docgen.markdown import Document, Fence, code_spans, headings_over, plain, read_document
from docgen.model import Diagnostic, ImageModel
from docgen.script_env import logical_lines
from docgen.shell import shell_split
from docgen.workflows import files as workflow_files

CLOSE = 0.6
"""How alike two names must be (`difflib` ratio) for one to be a slip of the other."""


@dataclass(frozen=True)
class Composed:
    """A compose file beside the README or an audited Dockerfile: its path as the README's reader finds
    it, and its services."""

    shown: str
    services: tuple[compose.Service, ...]
    folder: str = ""
    """The name of the folder it is in: Compose's default project name."""


def compose_files(directory: Path, models: Sequence[ImageModel], project: Path | None) -> list[Composed]:
    """The compose files in the README's folder and in the folders of the audited Dockerfiles (within
    `project`), each read once; one that cannot be read (no YAML reader, not a compose file) is none, and
    so is one whose links lead out of `project`."""
    folders = [directory, *(Path(m.file).parent for m in models if m.file)]
    top = project.resolve() if project is not None else None
    found: list[Composed] = []
    seen: set[Path] = set()
    for folder in dict.fromkeys(real_path(f) for f in folders):
        if top is not None and not folder.is_relative_to(top):
            continue
        try:
            names = sorted(entry.name for entry in os.scandir(folder) if os.path.isfile(entry))
        except OSError:
            continue
        for name in names:
            path = folder / name
            if not compose.FILE_NAME.fullmatch(name) or path in seen:
                continue
            if top is not None and not resolves_inside(path, top):
                continue
            seen.add(path)
            read = compose_file(path)
            if read is None:
                continue
            shown = Path(os.path.relpath(path, directory.resolve())).as_posix()
            found.append(Composed(shown, read[0], folder.name))
    return found


def compose_file(path: Path) -> tuple[tuple[compose.Service, ...], bool] | None:
    """(services, True when it includes other compose files: `include:`) of the compose file at `path`,
    read once for every rule that reads it; None when it is not a file, is larger than docgen reads,
    cannot be read or is not a compose file (no YAML reader)."""
    # (kept by its absolute path: a relative `docker-compose.yml` is another file after a `chdir`, in
    # one process auditing several projects: the MkDocs plugin, tests)
    return _compose_file(path.absolute())


@per_audit(maxsize=32)
def _compose_file(path: Path) -> tuple[tuple[compose.Service, ...], bool] | None:
    data = bytes_or_none(path)
    if data is None:
        return None
    try:
        return compose.services(data, path.name), compose.includes_others(data)
    except DocgenError:
        return None


# --------------------------------------------------------------------------------------------------
# docker exec / docker logs NAME

_ENTERS = re.compile(r"\b(?:docker|podman)[ \t]+(?:container[ \t]+)?(exec|logs)\b(?P<rest>[^\n;&|#]*)")
_EXEC_VALUES = frozenset("-u --user -w --workdir -e --env --env-file --detach-keys".split())
_LOGS_VALUES = frozenset("-n --tail --since --until".split())
_NAMED = re.compile(r"--name(?:[ \t]+|=)[\"']?([\w.-]+)|\bcontainer_name:[ \t]*[\"']?([\w.-]+)")
"""A container the README names itself: `docker run --name NAME`, a compose example's `container_name:`."""
_PLACEHOLDER = re.compile(r"[<>${}\[\]]|\A(?:container|name|id|ctr)(?:[_-]?(?:name|id))?\Z", re.IGNORECASE)
_COMPOSE = re.compile(r"\b(?:docker[ \t-]+compose|docker-compose)\b")
_STARTS = frozenset({"up", "run", "start", "create"})


def _entered(text: str) -> str | None:
    """The container a `docker exec` / `docker logs` command on `text` names, None for none."""
    match = _ENTERS.search(text)
    if match is None:
        return None
    values = _EXEC_VALUES if match.group(1) == "exec" else _LOGS_VALUES
    return _first_operand(match.group("rest").replace("\\", " ").split(), values)


def _container_misses(doc: Document, readme: str, files: Sequence[Composed]) -> Iterator[Diagnostic]:
    """`docker exec -it NAME` (or `docker logs NAME`) in a command block or inline code, when the compose
    files beside the README name their containers (`container_name:`) and NAME is none of them, nor one
    the README names itself (`docker run --name NAME`), while one of them is a slip away: the container
    was renamed. `certain` when the block started that service just before (`docker compose up -d
    SERVICE`), else `likely`."""
    named = {s.container_name: (f, s) for f in files for s in f.services if s.container_name}
    if not named:
        return
    unnamed = any(s.container_name is None for f in files for s in f.services)
    texts = [(f.lines, f.lang in COMMAND_LANGS) for f in doc.fences]
    texts += [
        ([(line, code) for line, text in p.lines for _, _, code in code_spans(text)], False)
        for p in doc.paragraphs
    ]
    own = {m.group(1) or m.group(2) for lines, _ in texts for _, text in lines for m in _NAMED.finditer(text)}
    for lines, commands in texts:
        started: set[str] = set()
        for line, text in lines:
            if commands and (up := _COMPOSE.search(text)):
                words = text[up.end() :].split("#", 1)[0].split()
                verb = next((i for i, word in enumerate(words) if word in _STARTS), None)
                started.update(words[verb + 1 :] if verb is not None else ())
            name = _entered(text)
            if not name or name in named or name in own or _PLACEHOLDER.search(name):
                continue
            if unnamed and re.search(r"[-_]\d+\Z", name):
                continue  # `app-web-1`: the name Compose gives a service without container_name
            close = difflib.get_close_matches(name, list(named), n=1, cutoff=CLOSE)
            if not close:
                continue
            where, service = named[close[0]]
            sure = CERTAIN if service.name in started else LIKELY
            yield Diagnostic(
                readme,
                line,
                f"README enters container {name}, which no compose file names: {where.shown}:"
                f"{service.line} names service {service.name}'s container {close[0]}",
                confidence=sure,
            )


# --------------------------------------------------------------------------------------------------
# docker run IMAGE next to docker build -t IMAGE

_RUN = re.compile(container_command("run|create"))
"""A command that makes a container of an image: `docker run`, and `docker create`, which takes the same
options and image."""
_RUN_VALUES = frozenset(
    "-v --volume -p --publish -e --env --env-file --name -w --workdir -u --user --gpus --device --network "
    "--net --ipc --pid --uts --shm-size --entrypoint --runtime --mount --cpus -m --memory --memory-swap "
    "--ulimit --cap-add --cap-drop --security-opt --group-add -h --hostname -l --label --platform "
    "--restart --add-host --dns --device-cgroup-rule --log-driver --log-opt --tmpfs --volumes-from "
    "--link --expose --cidfile --cgroupns --userns --cpuset-cpus --cpu-shares --storage-opt --sysctl "
    "--pull -a --attach --stop-signal --health-cmd --oom-score-adj --label-file --mac-address --ip "
    "--cgroup-parent --init-path --isolation --blkio-weight --memory-reservation --pids-limit".split()
)
_SHORT_CLUSTER = re.compile(r"-[ditP]+[A-Za-z]")
"""Short options of `docker run` written as one word (`-dit`, `-dp`): switches (`-d`, `-i`, `-t`, `-P`)
and a last letter; `-rm`, `-name` (old Docker's one-dash long options) are none."""
_PULLED = re.compile(r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?pull[ \t]+(?:-\S+[ \t]+)*([^\s`]+)")
_PUBLIC = frozenset(
    "ubuntu debian alpine busybox python node nginx redis postgres mysql hello-world centos fedora "
    "golang rust openjdk registry traefik httpd rockylinux almalinux amazonlinux".split()
)
"""Images of Docker Hub's library a README runs to check something, not an image it builds."""
_SCRIPT_NAMES = re.compile(r".+\.(?:sh|bash)\Z")


def docker_run(command: str) -> tuple[int, str] | None:
    """(where its options start, the image) of a command that runs a container (`docker run`,
    `podman container run`); None for another command or an image that cannot be told."""
    run = _RUN.search(command)
    image = (
        run_image(words_of(_SUBSTITUTION.sub(_one_word, command[run.end() :]))) if run is not None else None
    )
    if image:
        image = image.replace(_JOINED, " ")  # (a placeholder's spaces, as the README writes them)
    return (run.end(), image) if run is not None and image else None


_SUBSTITUTION = re.compile(r"`[^`\n]*`|\$\([^()\n]*\)|<[A-Za-z][^<>|;&\n]*[ \t][^<>|;&\n]*>")
"""A command substitution (`` `echo ~/.cache` ``, `$(id -u)`): one word to the shell, spaces and all, in
an option's value (`--mount src=`echo ~/.cache`,dst=…`); and a placeholder of words in angle brackets
(`-v <path to project>:/app`, `<image id>`), one value the reader fills in, not three words (`to` is no
image)."""
_JOINED = "\u00a0"
"""What joins the words of a placeholder (`_one_word`): no blank to the shell, put back in the image."""


def _one_word(match: re.Match[str]) -> str:
    text = match.group(0)
    return re.sub(r"\s", _JOINED if text.startswith("<") else "_", text)


_WORD = re.compile(r"(?:\"[^\"]*\"|'[^']*'|[^\s\"']|[\"'])+")
"""A word of a command as the shell splits it, a quoted value with its spaces one word."""


def image_at(command: str, start: int, image: str) -> int:
    """Where the image of a `docker run` whose options start at `start` (`docker_run`) is in `command`,
    -1 when it cannot be found. The first match of its name is not always it: a container named after
    its image (`--name webui … webui`) names it first."""
    skip = False
    for word in _WORD.finditer(command, start):
        text = word.group(0)
        if skip:
            skip = False
        elif text.startswith("-"):
            skip = "=" not in text and takes_value(text)
        else:
            return word.start() + text.find(image) if image in text else -1
    return -1


def words_of(command: str) -> list[str]:
    """The words of a command as the shell splits them, a quoted value one word (`--device-cgroup-rule
    "c 81:* rmw"`); split at spaces when its quotes do not pair or a word is too long for `shell_split`."""
    try:
        return shell_split(command)
    except ValueError:
        return command.split()


def takes_value(option: str) -> bool:
    """True when a `docker run` option is followed by its value: a long or short option of
    `_RUN_VALUES`, or a cluster of short ones that ends in one (`-dp 8080:80`, `-itv`), as Docker's own
    parser reads `-dp` as `-d -p`. A long option written with one dash (`-name web`, `-volume x:/y`: old
    Docker's spelling, which Docker now refuses, a finding of its own) is read as the author meant it,
    with its value: the word after it names the container or the mount, not the image."""
    if option in _RUN_VALUES or (option[1:2] != "-" and len(option) > 2 and f"-{option}" in _RUN_VALUES):
        return True
    if not _SHORT_CLUSTER.fullmatch(option):
        return False
    return f"-{option[-1]}" in _RUN_VALUES


def run_image(words: list[str]) -> str | None:
    """The image of a `docker run` command's words (after `run`), None when it cannot be told."""
    index = 0
    while index < len(words):
        word = words[index]
        if word.startswith("-"):
            if "=" in word or not takes_value(word):
                index += 1
            else:
                index += 2
            continue
        return word.strip("\"'`")
    return None


def _scripts(folders: Sequence[Path], run: Sequence[Path] = ()) -> list[Path]:
    """The shell scripts in `folders`, and the scripts of `run` (those the README runs) that exist; none
    whose links lead out of the repository."""
    found: list[Path] = []
    for folder in dict.fromkeys(folders):
        try:
            found += sorted(
                Path(e.path)
                for e in os.scandir(folder)
                if os.path.isfile(e) and _SCRIPT_NAMES.fullmatch(e.name)
            )
        except OSError:
            continue
    found += [p for p in run if os.path.isfile(p)]
    return [p for p in dict.fromkeys(found) if resolves_inside(p, _top(p.parent))]


@per_audit(maxsize=64)
def _top(folder: Path) -> Path:
    """The repository `folder` is in (`own_repo.repository_root`), else `folder` itself: a script reached
    through a link out of it is not read."""
    return repository_root(folder) or real_path(folder)


def _script_tags(scripts: Sequence[Path]) -> dict[str, Path]:
    """The image references the `scripts` tag (`build_scripts.built_tags`) → the script that tags each."""
    found: dict[str, Path] = {}
    for script in scripts:
        text = text_or_none(script)
        if text is None:
            continue
        for tag in build_scripts.built_tags(text):
            found.setdefault(tag, script)
    return found


def _built_by_scripts(folders: Sequence[Path]) -> set[str]:
    """The repositories the `docker build -t` (and `docker tag`) lines of the shell scripts in `folders`
    tag."""
    return {image_repository(tag) for tag in _script_tags(_scripts(folders))}


def _section_of(doc: Document) -> dict[int, int]:
    """README line of each heading → the line of the section (`##` or higher) it belongs to."""
    top = min(doc.levels.values(), default=1)
    limit = max(2, top)
    sections: dict[int, int] = {}
    current = 0
    for line in sorted(doc.levels):
        if doc.levels[line] <= limit:
            current = line
        sections[line] = current
    return sections


@dataclass(frozen=True)
class _Command:
    """A command of a command block (its continued lines joined), and the images it names."""

    section: int
    """The README line of the heading of its block."""
    lines: list[tuple[int, str]]
    text: str
    built: set[str] | None
    """The repositories it tags when it builds an image (`docker build -t`), None when it builds none."""
    named: set[str]
    """The repositories it tags (`docker tag SRC DEST`), pulls or makes of a container or an archive
    (`docker commit`, `docker import`); `_LOADED` when it loads an archive of names not shown."""
    run: tuple[int, str] | None
    """(README line, image) of the container it runs (`docker run`), if it runs one."""


_LOADED = "<loaded>"
"""What `_Command.named` holds for a `docker load`: any image may be there after it."""


def _commands(doc: Document) -> list[_Command]:
    """The commands of the command blocks of `doc`, in order, with the images each builds, tags, pulls
    and runs: read once for the rules that compare them (`_run_misses`, `_unqualified_runs`)."""
    found: list[_Command] = []
    for fence in doc.fences:
        for lines in fence_commands(fence):
            command = joined(lines)
            built = None
            if build_scripts.BUILD.search(command):
                built = {image_repository(m.group(1)) for m in TAG_FLAG.finditer(command)}
            named = {image_repository(t) for t in tag_targets(command)}
            named.update(image_repository(m.group(1)) for m in _PULLED.finditer(command))
            made = _made_images(command)
            named.update(made if made is not None else {_LOADED})
            run = None
            if ran := docker_run(command):
                run = (next((n for n, text in lines if ran[1] in text), lines[0][0]), ran[1])
            found.append(_Command(fence.section, lines, command, built, named, run))
    return found


def _run_misses(
    doc: Document,
    readme: str,
    commands: Sequence[_Command],
    files: Sequence[Composed],
    folders: Sequence[Path],
) -> Iterator[Diagnostic]:
    """`docker run … IMAGE` (or `docker create`) in a section whose command blocks also `docker build -t
    REPO:TAG`, when IMAGE's repository is none the README or the scripts beside it build, tag, pull,
    commit or import (nor a compose file's `image:`; none after a `docker load`) while one they build
    is a slip away (`mindspore:tag` after `-t mindformers:1.8.0`) or written alike but for one word
    (`pagerank_image` after `-t lammps_image`): the image was renamed. Its tag is not compared (`tag`,
    `<tag>`); a registry path, a public image, a placeholder is no claim (`likely`)."""
    section = _section_of(doc)
    built: dict[int, set[str]] = {}  # section → repositories built there
    known: set[str] = {image_repository(s.image) for f in files for s in f.services if s.image}
    runs: list[tuple[int, int, str]] = []
    for command in commands:
        where = section.get(command.section, 0)
        if command.built is not None:
            built.setdefault(where, set()).update(command.built)
            known |= command.built
        known |= command.named
        if command.run:
            runs.append((command.run[0], where, command.run[1]))
    if not built or _LOADED in known:
        return
    known |= _built_by_scripts(folders)
    tagged = _built_tags(commands)
    told: set[int] = set()
    for line, where, image in runs:
        repo = image_repository(image)
        first = repo.split("/", 1)[0]
        same_tag = _same_tag_builds(image, tagged)
        if (
            (where not in built and not same_tag)
            or repo in known
            or re.search(r"[<>${}]", image)
            or ("/" in repo and ("." in first or ":" in first or first == "localhost"))
            or repo in _PUBLIC
            or repo != repo.lower()  # (upper case: `docker_cli` tells that docker refuses it)
        ):
            continue
        there = built.get(where, set()) if where in built else set()
        if where not in built or not _near_repository(repo, there):
            there = same_tag  # a build of another section, of the very tag the run names
        if "/" in repo and not any(b.split("/", 1)[0] == first for b in there if "/" in b):
            continue  # `nvidia/cuda`: another project's image
        close = difflib.get_close_matches(repo, sorted(there), n=1, cutoff=CLOSE) or _one_word_off(
            repo, there
        )
        if close and close[0].rsplit("/", 1)[-1] != repo:  # `org/app` for `app`: `_unqualified_runs`'s
            told.add(line)
            sure = there is same_tag and "/" not in repo  # (no registry holds a local name: it cannot start)
            where_built = "its section" if there is not same_tag else "the README"
            yield Diagnostic(
                readme,
                line,
                f"README runs image {image}, but the build command of {where_built} tags {close[0]}"
                f"{':' + _tag(image) if there is same_tag else ''} (no command of the README builds {repo})",
                confidence=CERTAIN if sure else LIKELY,
            )
    yield from _lone_build_runs(doc, readme, commands, known, told)


def _built_tags(commands: Sequence[_Command]) -> dict[str, set[str]]:
    """Tag → the repositories the README's build commands tag with it (`-t cuda_default:v1.0`)."""
    tagged: dict[str, set[str]] = {}
    for command in commands:
        if command.built is not None:
            for match in TAG_FLAG.finditer(command.text):
                tagged.setdefault(_tag(match.group(1)), set()).add(image_repository(match.group(1)))
    return tagged


def _same_tag_builds(image: str, tagged: dict[str, set[str]]) -> set[str]:
    """The repositories the README builds with the tag `image` names, when it writes one that is neither
    `latest` nor a placeholder (`v1.0`): a run of `cuda_docker:v1.0` in another section than the build of
    `cuda_default:v1.0` names the very image it built, renamed on one side."""
    tail = image.rsplit("/", 1)[-1]
    if ":" not in tail:
        return set()
    tag = _tag(image)
    if not tag or tag == "latest" or re.search(r"[<>${}*\[\]]", tag):
        return set()
    return tagged.get(tag, set())


def _near_repository(repo: str, built: set[str]) -> bool:
    """Whether a repository of `built` is a slip or a word away from `repo`."""
    return bool(
        difflib.get_close_matches(repo, sorted(built), n=1, cutoff=CLOSE) or _one_word_off(repo, built)
    )


def _named_elsewhere(doc: Document, commands: Sequence[_Command], repo: str) -> bool:
    """True when the README names `repo` (as a word of its own) outside its `docker run` commands: in a
    paragraph, a table, a heading or a command block's other lines (an image made or described
    elsewhere: `the my_image image from the base repository`)."""
    word = re.compile(rf"(?<![\w./-]){re.escape(repo)}(?![\w/-])")
    runs = {n for c in commands if c.run is not None for n, _ in c.lines}
    prose = [text for p in doc.paragraphs for _, text in p.lines]
    prose += [cell for t in doc.tables for _, cells in t.rows for cell in cells]
    prose += [title for _, title in doc.headings]
    if any(word.search(text) for f in doc.fences for n, text in f.lines if n not in runs):
        return True
    if not _PLAIN_WORD.fullmatch(repo):
        return any(word.search(text) for text in prose)
    return any(_as_image(text, match) for text in prose for match in word.finditer(text))


_PLAIN_WORD = re.compile(r"[a-z]+")
"""A name that is also a word of prose (`coral`, `demo`): written plainly, it may be the word's."""
_IMAGE_WORDS = re.compile(
    r"\b(?:images?|containers?|tag(?:s|ged)?|repository|docker|podman)\b|:[\w.-]+", re.IGNORECASE
)
"""Words next to a name that make it an image's (`the coral image`, `tagged coral`, `coral:latest`)."""


def _as_image(text: str, match: re.Match[str]) -> bool:
    """True when the mention `match` of a plain-word name in a line of prose names an image: it is in a
    code span, or a word of `_IMAGE_WORDS` is within two words of it; `your coral device` is the word."""
    if any(start <= match.start() and match.end() <= end for start, end, _ in code_spans(text)):
        return True
    before = text[: match.start()].split()[-2:]
    after = text[match.end() :]
    return bool(_IMAGE_WORDS.search(" ".join(before))) or bool(
        re.match(r"(?::[\w.-]+|\W*(?:\S+\s+)?(?:images?|containers?)\b)", after, re.IGNORECASE)
    )


_ANOTHER_IMAGE = re.compile(
    r"\b(?:other|more|additional|extra|pre-?built|published|official|hub|registry|pull(?:ing)?|download\w*)\b",
    re.IGNORECASE,
)
"""Words of a heading over runs of images other than the one built (`## Other images`)."""
_RUN_HEADING = re.compile(r"\b(?:run\w*|start\w*|launch\w*|usage|use|using)\b", re.IGNORECASE)
"""Words of the heading of a section about running the image built (`## Running the Docker Image`)."""
_YOURS = re.compile(r"(?:\A|[._-])(?:your|some|any|example)(?:[._-]|\Z)")
"""A name the reader chooses (`your-image-name`): another name in a run may be the one they chose."""
_LOCAL_NAME = re.compile(r"[a-z0-9]+(?:[._-][a-z0-9]+)*")
"""A repository with no owner and no registry: `image_name`, `app-gpu`."""
_OTHER_BUILDER = re.compile(
    r"\b(?:compose|make|bake|buildah|nix|bazel|earthly|jib)\b|\b(?:pack|s2i|ko)[ \t]+build\b"
    r"|(?:^|[\s\"'=(])(?!/)[\w.~-][\w./:~-]*\.(?:sh|py)\b"
)
"""A command that may make an image under a name the README does not show: a builder, or a script of
the checkout (`./build.sh`, `python tools/build.py`); not one by an absolute path (`python3
/usr/share/edgetpu/examples/classify_image.py`: a file of the image or the system, run in the container)."""


def _lone_build_runs(
    doc: Document,
    readme: str,
    commands: Sequence[_Command],
    known: set[str],
    said: set[int],
) -> Iterator[Diagnostic]:
    """`docker run … IMAGE` after the README's only build, when every `docker build` of the README tags
    one repository, a local one (`-t image_name:latest`: no owner, no registry), and IMAGE is another
    local name (`my_image:latest`) that nothing makes: no command of the README (or a script beside it)
    builds, tags, pulls, commits or imports it, no compose file names it, no command runs compose,
    make, a script or another builder, and the README names it nowhere but in its runs. A local name
    that is no Docker official image (`ubuntu`, `python`, `mongo`) is no image docker can pull: the run
    fails (`likely`). Lines `_run_misses` told of (`said`) are not told again."""
    builds = [c for c in commands if c.built is not None]
    built = {repo for c in builds for repo in c.built or ()}
    if len(built) != 1 or any(not c.built for c in builds) or _LOADED in known:
        return
    (only,) = built
    if (
        _YOURS.search(only)
        or not _LOCAL_NAME.fullmatch(only)
        or any(_OTHER_BUILDER.search(c.text) for c in commands)
    ):
        return
    first = min(c.lines[0][0] for c in builds)
    refs = [m.group(1) for c in builds for m in TAG_FLAG.finditer(c.text)]
    shown = refs[0] if len(set(refs)) == 1 else only  # (`isaac-sim:2023.1.0-ubuntu22.04`: its tag too)
    section = _section_of(doc)
    building = {section.get(c.section, 0) for c in builds}
    heading = dict(doc.headings)
    titles = {title for at, title in doc.headings if doc.levels.get(at) == 1}  # (the README's title)
    for command in commands:
        if command.run is None or command.run[0] <= first or command.run[0] in said:
            continue
        line, image = command.run
        repo = image_repository(image)
        over = [title for title in headings_over(doc, line) if title not in titles]
        if any(_ANOTHER_IMAGE.search(title) for title in over):
            continue  # `## Other images`, `### Use the prebuilt image`
        where = section.get(command.section, 0)
        if where not in building and not _RUN_HEADING.search(heading.get(where, "")):
            continue  # a later section: only one about running it (`## Running the Docker Image`)
        if (
            repo in known
            or not _LOCAL_NAME.fullmatch(repo)
            or repo in OFFICIAL
            or repo in _PUBLIC
            or _YOURS.search(repo)
            or image != image.strip("`'\"")
            or _named_elsewhere(doc, commands, repo)
        ):
            continue
        yield Diagnostic(
            readme,
            line,
            f"README runs image {image}, but the only image the README builds is {shown} "
            f"(no command of the README builds, tags or pulls {repo})",
            confidence=LIKELY,
        )


_RAN_SCRIPT = re.compile(r"(?:(?:ba|z)?sh[ \t]+)?(\.{0,2}/?[\w./-]+\.(?:sh|bash))(?=[ \t]|\Z)")
"""A script a README command runs, as the whole command or with its arguments: `./run_gpu.bash`, `bash
tools/start.sh`."""
_GIVES_IMAGE = re.compile(
    r"\b(?:docker|podman|nerdctl)[ \t]+(?:image[ \t]+|container[ \t]+)?(?:pull|tag|load|import|commit)\b"
    r"|\bcompose\b|\bmake\b|" + build_scripts.BUILD_COMMAND
)
"""What in a script may give an image or make containers otherwise: a pull, tag, load, import, commit,
a build, compose or make."""
_MANAGES = re.compile(
    r"(?:\A|[;&|(])[ \t]*(?:\$[ \t]+)?(?:sudo[ \t]+)?(?:docker|podman)[ \t]+(?:container[ \t]+)?"
    r"(start|stop|restart|kill|exec|logs|attach|rm)(?=[ \t])(?P<rest>[^;&|#]*)"
)
"""A command of a container by its name: `docker start -ai NAME`, `docker exec -it NAME bash`."""
_MANAGE_VALUES = {
    "exec": _EXEC_VALUES,
    "logs": _LOGS_VALUES,
    "start": frozenset({"--detach-keys"}),
    "attach": frozenset({"--detach-keys"}),
    "stop": frozenset({"-t", "--time", "-s", "--signal", "--timeout"}),
    "restart": frozenset({"-t", "--time", "-s", "--signal", "--timeout"}),
    "kill": frozenset({"-s", "--signal"}),
    "rm": frozenset(),
}
"""The options of each such command that take the next word as their value."""
_LITERAL = re.compile(r"[\w./:@-]+")


@dataclass(frozen=True)
class _ScriptRun:
    """The one `docker run` of a script the README runs: its image, the container name it gives."""

    script: Path
    line: int
    image: str
    name: str | None


def _script_run(script: Path) -> _ScriptRun | None:
    """The one `docker run` (or `docker create`) of `script`, when it has exactly one, runs a literal image
    (no variable, argument or substitution) and gives a literal `--name` or none, and the script
    builds, pulls, tags, loads, imports nothing and runs no compose or make; None otherwise."""
    text = text_or_none(script)
    if text is None or _GIVES_IMAGE.search(text):
        return None
    found: list[_ScriptRun] = []
    for number, line in logical_lines(text):
        code = line.strip()
        run = _RUN.search(code)
        if run is None or code.startswith("#"):
            continue
        rest = re.split(r"&&|\|\||;|\|", code[run.end() :].replace("\\", " "), maxsplit=1)[0]
        words = words_of(rest)
        image = run_image(words)
        names = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "--name"]
        names += [w.split("=", 1)[1] for w in words if w.startswith("--name=")]
        if image is None or not _LITERAL.fullmatch(image) or len(names) > 1:
            return None
        if names and not _LITERAL.fullmatch(names[0]):
            return None
        found.append(_ScriptRun(script, number, image, names[0] if names else None))
    return found[0] if len(found) == 1 else None


def _ran_script(commands: Sequence[_Command], folders: Sequence[Path]) -> tuple[int, str, Path] | None:
    """(README line, path as written, file) of the one script of the repository the README's commands
    run, found in the first of `folders` that holds it; None when they run none or several. A script
    no folder holds is not the repository's (`cd /isaac-sim && ./runapp.sh`: one in the container)."""
    ran: dict[str, tuple[int, Path]] = {}
    for command in commands:
        for part in re.split(r"&&|\|\||;", command.text):
            part = part.strip().removeprefix("$ ").strip().removeprefix("sudo ").strip()
            match = _RAN_SCRIPT.match(part)
            if match is not None and match.group(1) not in ran:
                path = match.group(1)
                place = next((f / path for f in dict.fromkeys(folders) if os.path.isfile(f / path)), None)
                if place is not None:
                    ran[path] = (command.lines[0][0], place)
    if len(ran) != 1:
        return None
    ((path, (line, place)),) = ran.items()
    if not resolves_inside(place, _top(place.parent)):
        return None
    return line, path, place


def _ran_script_misses(
    doc: Document,
    readme: str,
    commands: Sequence[_Command],
    files: Sequence[Composed],
    folders: Sequence[Path],
) -> Iterator[Diagnostic]:
    """The names the README gives an image and a container against the one script it runs (found in its
    folder or an audited Dockerfile's: `./run_gpu.bash`), whose one `docker run` runs a literal image
    and gives a literal `--name` (`_script_run`):

    - the README builds one local repository (`docker build -t app_gpu .`: every build tags it, no
      owner, no registry) and then runs the script, whose image is another local name that nothing
      makes: no command of the README, script beside it or compose file builds, tags or pulls it, the
      README names it nowhere, and it is no official image: the script's run fails (`likely`);
    - the README then starts, stops, enters or removes a container (`docker start -ai app_box`, `docker
      exec -it app_box bash`) of another name than the one the script gives, while the README runs no
      container itself, gives no `--name`, and runs no compose: that container does not exist
      (`likely`, told once at its first line).

    Silent when the README runs no script or several, when the script builds, pulls or tags an image
    itself, runs compose or make, or takes the image or the name from a variable or an argument."""
    found = _ran_script(commands, folders)
    known: set[str] = {image_repository(s.image) for f in files for s in f.services if s.image}
    for command in commands:
        known |= command.named | (command.built or set())
    if found is None or _LOADED in known:
        return
    line, path, place = found
    run = _script_run(place)
    if run is None:
        return
    shown = f"{path} ({os.path.relpath(place, folders[0])}:{run.line})"
    builds = [c for c in commands if c.built is not None]
    built = {repo for c in builds for repo in c.built or ()}
    repo = image_repository(run.image)
    others = [c for c in commands if c.lines[0][0] != line]
    slipped = _slipped_build(doc, commands, builds, line, repo, [*folders, place.parent], place)
    if slipped is not None and repo not in known:
        meant, at = slipped
        where = f"{os.path.relpath(place, folders[0])}:{_image_line(place, run)}"
        yield Diagnostic(
            readme,
            line,
            f"README builds image {meant} (line {at}) and then runs {path} ({where}), whose docker run "
            f"runs image {run.image}, a slip of {meant}: nothing of the README or the repository builds, "
            f"tags or pulls {repo}",
            confidence=CERTAIN,
        )
    elif (
        len(built) == 1
        and all(c.built for c in builds)
        and min(c.lines[0][0] for c in builds) < line
        and not any(_OTHER_BUILDER.search(c.text) for c in others)
    ):
        (only,) = built
        if (
            repo != only
            and _LOCAL_NAME.fullmatch(only)
            and not _YOURS.search(only)
            and _LOCAL_NAME.fullmatch(repo)
            and not _YOURS.search(repo)
            and repo not in known
            and repo not in OFFICIAL
            and repo not in _PUBLIC
            and repo not in _built_by_scripts([*folders, place.parent])
            and not _named_elsewhere(doc, commands, repo)
        ):
            yield Diagnostic(
                readme,
                line,
                f"README builds image {only} and then runs {shown}, whose docker run runs image "
                f"{run.image}, which nothing of the README or the repository builds, tags or pulls",
                confidence=LIKELY,
            )
    if (
        slipped is None
        and built == {repo}
        and all(c.built for c in builds)
        and min(c.lines[0][0] for c in builds) < line
        and not any(_MADE_OTHERWISE.search(c.text) for c in commands)
        and (other := _other_script_tag(doc, commands, builds, run, place, folders))
    ):
        yield Diagnostic(
            readme,
            line,
            f"README builds image {other} and then runs {path} "
            f"({os.path.relpath(place, folders[0])}:{_image_line(place, run)}), whose docker run runs image "
            f"{run.image}: the same repository with a tag nothing of the README or the repository "
            "builds, tags or pulls",
            confidence=LIKELY,
        )
    if run.name is None or files or any(c.run is not None or _COMPOSE.search(c.text) for c in commands):
        return
    own = {m.group(1) or m.group(2) for f in doc.fences for _, text in f.lines for m in _NAMED.finditer(text)}
    managed: dict[str, list[int]] = {}
    for command in commands:
        at = command.lines[0][0]
        if at <= line:
            continue
        for match in _MANAGES.finditer(without_prompt(command.text.strip())):
            name = _first_operand(match.group("rest").split(), _MANAGE_VALUES[match.group(1)])
            if name and name != run.name and name not in own and not _PLACEHOLDER.search(name):
                managed.setdefault(name, []).append(at)
    for name, lines in managed.items():
        word = re.compile(rf"(?<![\w./-]){re.escape(name)}(?![\w/-])")
        texts = [text for p in doc.paragraphs for _, text in p.lines]
        texts += [cell for t in doc.tables for _, cells in t.rows for cell in cells]
        texts += [title for _, title in doc.headings]
        texts += [text for f in doc.fences for n, text in f.lines if n not in lines]
        if any(word.search(text) for text in texts):
            continue  # `the dev container app_box`: made another way the README tells of
        yield Diagnostic(
            readme,
            lines[0],
            f"README names container {name}, but the only container made is the one {shown} runs, "
            f"--name {run.name}{also_at(lines)}",
            confidence=LIKELY,
        )


def _other_script_tag(
    doc: Document,
    commands: Sequence[_Command],
    builds: Sequence[_Command],
    run: _ScriptRun,
    place: Path,
    folders: Sequence[Path],
) -> str | None:
    """The image the README builds (`isaac-sim:2023.1.1-humble`, its first build's `-t`) when the one
    script it runs (`place`) runs the same repository with another literal tag
    (`isaac-sim:2023.1.0-ubuntu22.04`; no tag is `latest`), and nothing else makes that tag: no build,
    `docker tag` or pull of the README, no script beside it or the script's own folder, and the README
    writes that reference nowhere but in its commands. None when a build's tag or the script's is a
    variable or a placeholder."""
    refs = [m.group(1) for c in builds for m in TAG_FLAG.finditer(c.text)]
    tag = _tag(run.image)
    if not refs or not tag or any(re.search(r"[<>${}*\[\]]", r) for r in [*refs, run.image]):
        return None
    if tag in {_tag(r) for r in refs}:
        return None
    made = {
        r for c in commands for r in (*tag_targets(c.text), *(m.group(1) for m in _PULLED.finditer(c.text)))
    }
    ran = [folders[0] / m.group(1) for c in commands for m in _RUNS_SCRIPT.finditer(c.text)]
    others = [p for p in _scripts([*folders, place.parent], ran) if real_path(p) != real_path(place)]
    made |= set(_script_tags(others))
    if any(image_repository(r) == image_repository(run.image) and _tag(r) == tag for r in made):
        return None
    word = re.compile(rf"(?<![\w./:-]){re.escape(run.image)}(?![\w.:-])")
    texts = [text for p in doc.paragraphs for _, text in p.lines]
    texts += [cell for t in doc.tables for _, cells in t.rows for cell in cells]
    texts += [title for _, title in doc.headings]
    if any(word.search(text) for text in texts):
        return None  # `the isaac-sim:2023.1.0 image of the other guide`: made another way it tells of
    return refs[0]


_NAME_PARTS = re.compile(r"[/._-]")
_REGISTRY = re.compile(r"[^/]*[.:][^/]*/|localhost/")
"""A registry host first in an image's repository (`ghcr.io/`, `host:5000/`, `localhost/`)."""


def name_slip(written: str, built: str) -> bool:
    """True when the repository `written` is `built` with one slip in one of its words (between `/`,
    `.`, `_`, `-`): one letter added, dropped or changed in a word of five letters or more, or two
    letters swapped in one of four or more (`vllm-inference-aqlm` for `vllm-inference-aqml`); not a
    plural, not a digit (`py310`, `arm64`: another variant), not a word of three letters (`cpu`,
    `gpu`)."""
    parts, others = _NAME_PARTS.split(written), _NAME_PARTS.split(built)
    if len(parts) != len(others) or _NAME_PARTS.sub("", written) == _NAME_PARTS.sub("", built):
        return False
    if [m.group(0) for m in _NAME_PARTS.finditer(written)] != [
        m.group(0) for m in _NAME_PARTS.finditer(built)
    ]:
        return False
    differ = [(a, b) for a, b in zip(parts, others, strict=True) if a != b]
    if len(differ) != 1:
        return False
    part, known = differ[0]
    if not (part.isalpha() and known.isalpha()) or min(len(part), len(known)) < 4:
        return False
    if not one_edit(part, known):
        return False
    swapped = len(part) == len(known) and sorted(part) == sorted(known)
    plural = part + "s" == known or known + "s" == part
    return (swapped or min(len(part), len(known)) >= 5) and not plural


def _image_line(script: Path, run: _ScriptRun) -> int:
    """The line of `script` that holds the image of its `docker run` (`run`), a continued command's
    later line (`  app:1.0 \\`); the command's first line when it is not found."""
    lines = (text_or_none(script) or "").splitlines()[run.line - 1 : run.line + 99]
    word = re.compile(rf"(?<![\w./:-]){re.escape(run.image)}(?![\w./:-])")
    return run.line + next((n for n, text in enumerate(lines) if word.search(text)), 0)


def _slipped_build(
    doc: Document,
    commands: Sequence[_Command],
    builds: Sequence[_Command],
    line: int,
    repo: str,
    folders: Sequence[Path],
    script: Path,
) -> tuple[str, int] | None:
    """(the repository, the README line of its first build) of the one build before the README's run of
    `script` at `line` whose tag `repo` (the image the script runs) is a slip of (`name_slip`), when
    nothing makes `repo`: every build of the README tags its image, no command before the run runs
    another builder (make, compose, a script), no official or public image, registry path or name the
    reader chooses, the README names it nowhere but in its runs, and no file of the repository but the
    script holds it (no script, compose file, manifest or workflow builds, tags, pulls or pushes it)."""
    if not builds or any(not c.built or any(_WILD.search(r) for r in c.built) for c in builds):
        return None
    if (
        not _LITERAL.fullmatch(repo)
        or repo in OFFICIAL
        or repo in _PUBLIC
        or _YOURS.search(repo)
        or _REGISTRY.match(repo)
        or repo != repo.lower()
    ):
        return None
    first: dict[str, int] = {}
    for command in builds:
        for name in command.built or ():
            first.setdefault(name, command.lines[0][0])
    near = [(name, at) for name, at in first.items() if at < line and name_slip(repo, name)]
    if len(near) != 1:
        return None
    if any(_OTHER_BUILDER.search(c.text) for c in commands if c.lines[0][0] < line):
        return None
    if _named_elsewhere(doc, commands, repo):
        return None
    word = re.compile(rf"(?<![\w./-]){re.escape(repo)}(?![\w/-])")
    if _repository_names(word, folders, {}, script):
        return None
    return near[0]


# --------------------------------------------------------------------------------------------------
# docker run OWNER/NAME next to a build script that tags OWNER/NAME-SUFFIX

_CHOSEN = re.compile(
    r"\b(?:replace|your|choose|chosen|pick|desired|any|e\.g\.|example|for[ \t]+instance|such[ \t]+as)\b",
    re.IGNORECASE,
)
"""Words of a sentence telling the reader to pick the image or its name (`replace the tag with yours`)."""
_REPO_FILE = re.compile(r".+\.(?:sh|bash|ya?ml|hcl|json|toml|env|mk|txt)|Makefile|makefile|justfile|\.env")
"""The files of a folder read for the names of images a build may make, push or pull."""


def _span_commands(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, command) of each code span of the prose (```` ```docker run … ``` ````, `bash
    build.sh`), without a prompt or `sudo`: a README without command blocks writes its commands so."""
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "`" not in text:
                continue
            for _, _, code in code_spans(text):
                yield line, without_prompt(code.strip()).removeprefix("sudo ").strip()


def _near_name(name: str, other: str) -> bool:
    """True when `other` is `name` with one word (between `-`, `_`, `.`) added or dropped
    (`sc-env` for `sc-env-gpu`, `gpu-app` for `app`), or one word changed (`_one_word_off`)."""
    long, short = (other, name) if len(other) > len(name) else (name, other)
    parts = re.split(r"([-_.])", long)  # words at even places, separators between
    for index in range(0, len(parts), 2):
        if index:
            dropped = parts[: index - 1] + parts[index + 1 :]  # the word and the separator before it
        else:
            dropped = parts[2:]
        if len(parts) > 1 and "".join(dropped) == short:
            return True
    return bool(_one_word_off(name, {other}))


def _script_build_runs(
    doc: Document,
    readme: str,
    commands: Sequence[_Command],
    files: Sequence[Composed],
    folders: Sequence[Path],
    text: str | None,
) -> Iterator[Diagnostic]:
    """`docker run … OWNER/NAME` (in a command block or a code span of the prose) when the README builds
    its image by running a script (`bash build.sh`, found beside it) whose builds tag, under the same
    owner, a name one word off (`OWNER/NAME-gpu`: the run lost the suffix), and nothing makes
    OWNER/NAME: no command of the README or script beside it builds, tags or pulls it, no compose,
    script, manifest or workflow of the repository names it, and the README names it nowhere but in
    its runs. Silent when the README builds with `docker build` itself (`_run_misses` reads those),
    when the script's tags cannot all be told, when a heading over the run or the sentences before it
    in its section tell of another image (`pull`, `prebuilt`, `Docker Hub`) or of one to choose
    (`replace`, `your`), and for a registry other than the build's, a placeholder, an official image
    (`likely`: the image may be published under that name by other means)."""
    spans = list(_span_commands(doc))
    if (
        text is None
        or any(c.built is not None for c in commands)
        or any(_LOADED in c.named for c in commands)
    ):
        return
    scripts: dict[Path, tuple[int, str]] = {}
    for line, said in [(c.lines[0][0], c.text) for c in commands] + spans:
        for part in re.split(r"&&|\|\||;", said):
            part = without_prompt(part.strip()).removeprefix("sudo ").strip()
            match = _RAN_SCRIPT.match(part)
            if match is None or ".." in match.group(1).split("/"):
                continue
            place = next(
                (f / match.group(1) for f in dict.fromkeys(folders) if os.path.isfile(f / match.group(1))),
                None,
            )
            if place is not None and resolves_inside(place, _top(place.parent)):
                scripts.setdefault(place, (line, match.group(1)))
    if not scripts:
        return
    built: dict[str, Path] = {}
    for script in scripts:
        content = text_or_none(script)
        if content is None:
            return
        tags = build_scripts.built_tag_lines(content)
        told = {number: sum(n == number for n, _ in tags) for number, _ in tags}
        if build_scripts.called_scripts(content) or any(
            len(TAG_FLAG.findall(line)) > told.get(number, 0)
            for number, line in enumerate(content.splitlines(), 1)
            if build_scripts.BUILD.search(line)
        ):
            return  # a tag the script reads from an argument, or builds of another script
        for _, tag in tags:
            if build_scripts.UNKNOWN in image_repository(tag):
                return  # a name the script reads from a variable: any name may be made
            built.setdefault(image_repository(tag), script)
    if not built:
        return
    known: set[str] = {image_repository(s.image) for f in files for s in f.services if s.image} | set(built)
    for command in commands:
        known |= command.named
    for _, code in spans:
        known.update(image_repository(t) for t in tag_targets(code))
        known.update(image_repository(m.group(1)) for m in _PULLED.finditer(code))
    runs = [c.run for c in commands if c.run is not None]
    runs += [(line, ran[1]) for line, code in spans if (ran := docker_run(code)) is not None]
    run_lines = {line for line, _ in runs}
    heading_lines = sorted(doc.levels)
    raw = text.splitlines()
    fenced = {n for f in doc.fences for n, _ in f.lines}
    read: dict[Path, str] = {}
    for line, image in runs:
        repo = image_repository(image)
        if repo in known or "/" not in repo or re.search(r"[<>${}*]", image) or repo != repo.lower():
            continue
        owner, _, name = repo.rpartition("/")
        near = [b for b in built if b.rpartition("/")[0] == owner and _near_name(name, b.rpartition("/")[2])]
        if len(near) != 1 or name in OFFICIAL:
            continue
        if any(_ANOTHER_IMAGE.search(t) or _CHOSEN.search(t) for t in headings_over(doc, line)):
            continue
        start = max((h for h in heading_lines if h < line), default=0)
        before = [raw[n - 1] for n in range(start + 1, line + 1) if n - 1 < len(raw) and n not in fenced]
        if any(_ANOTHER_IMAGE.search(plain(t)) or _CHOSEN.search(plain(t)) for t in before):
            continue
        word = re.compile(rf"(?<![\w./-]){re.escape(repo)}(?![\w/-])")
        if any(word.search(t) for n, t in enumerate(raw, 1) if n not in run_lines):
            continue  # named elsewhere (a comment, a sentence a rule set aside too): made another way
        if _repository_names(word, [*folders, *(s.parent for s in scripts)], read):
            continue
        at, written = scripts[built[near[0]]]
        yield Diagnostic(
            readme,
            line,
            f"README runs image {image}, but {written} (run at line {at}) builds {near[0]}; nothing of "
            f"the README or the repository builds, tags, pulls or pushes {repo}",
            confidence=LIKELY,
        )


def _repository_names(
    word: re.Pattern[str], folders: Sequence[Path], read: dict[Path, str], skip: Path | None = None
) -> bool:
    """True when a script, compose, manifest, environment or workflow file of `folders` (their top
    level) or of the repository's `.github/workflows` holds `word` (`read`: the texts read so far), but
    for the file `skip`."""
    paths: list[Path] = []
    for folder in dict.fromkeys(folders):
        try:
            paths += sorted(
                Path(e.path) for e in os.scandir(folder) if e.is_file() and _REPO_FILE.fullmatch(e.name)
            )
        except OSError:
            continue
        paths += workflow_files(folder, _top(folder))
    skipped = real_path(skip) if skip is not None else None
    for path in dict.fromkeys(paths):
        if skipped is not None and real_path(path) == skipped:
            continue
        if path not in read:
            read[path] = text_or_none(path, MAX_PROJECT_FILE_BYTES) or ""
        if word.search(read[path]):
            return True
    return False


def _first_operand(words: list[str], values: frozenset[str]) -> str | None:
    """The first word of `words` that is no option (nor an option's value, `values` taking one)."""
    index = 0
    while index < len(words):
        word = words[index]
        if word.startswith("-"):
            index += 2 if word in values else 1
            continue
        return word.strip("\"'`")
    return None


_MAKES = re.compile(r"\b(?:docker|podman)[ \t]+(?:container[ \t]+|image[ \t]+)?(commit|import|load)\b")
"""A command that makes an image without a build: `docker commit CONTAINER REPO` (of a container),
`docker import FILE REPO` (of a file system's archive), `docker load` (of a saved image, under the
names the archive holds)."""
_VALUED = frozenset({"-a", "--author", "-c", "--change", "-m", "--message", "--platform", "-i", "--input"})
"""The options of `docker commit`, `import` and `load` that take a value (`-m "message"`)."""


def _made_images(command: str) -> set[str] | None:
    """The repositories `command` makes without a build: the name a `docker commit CONTAINER REPO` or a
    `docker import FILE REPO` gives; None when it loads an image archive (`docker load`), whose names
    the README does not show."""
    made: set[str] = set()
    for found in _MAKES.finditer(command):
        if found.group(1) == "load":
            return None
        try:
            words = shell_split(command[found.end() :])
        except ValueError:
            words = command[found.end() :].split()
        operands: list[str] = []
        skip = False
        for word in words:
            if word in ("&&", "||", ";", "|") or word.endswith(";"):
                break
            if skip:
                skip = False
            elif word.startswith("-") and word != "-":
                skip = word in _VALUED
            else:
                operands.append(word)
        if len(operands) > 1:
            made.add(image_repository(operands[1].strip("`")))
    return made


_COMMAND_LINE = re.compile(r"\A(?:\$[ \t]+)?(?:sudo[ \t]+)?(?:docker|podman)[ \t]")
"""A paragraph line that is a command written without a code block (`docker run -it app`)."""


def _command_texts(doc: Document, commands: Sequence[_Command]) -> list[tuple[int, str]]:
    """(README line, text) of every command of the README: those of its command blocks (`_commands`),
    its inline code, and the lines of its paragraphs that are a command written without a block (a
    README of bare lines: `docker run -it --rm app`)."""
    found = [(c.lines[0][0], c.text) for c in commands]
    for paragraph in doc.paragraphs:
        for line, text in paragraph.lines:
            spans = code_spans(text)
            found += [(line, code) for _, _, code in spans]
            if not spans and _COMMAND_LINE.match(text.strip()):
                found.append((line, text.strip()))
    return found


_COMPOSE_WORD = re.compile(r"\bdocker(?:-compose\b|[ \t]+compose\b)")


def _builds_with_compose(text: str) -> bool:
    """`text` holds a compose command that builds a service's image when it has none (`docker compose
    build`, `up`, `run`, `create`): a word after `docker compose` in one of its commands (each read once,
    split at `|`, `;`, `&` and line ends)."""
    for command in re.split(r"[|;&\n]", text):
        found = _COMPOSE_WORD.search(command)
        if found and {"build", "up", "run", "create"} & set(command[found.end() :].split()):
            return True
    return False


def _container_runs(
    doc: Document,
    readme: str,
    commands: Sequence[_Command],
    files: Sequence[Composed],
    folders: Sequence[Path],
) -> Iterator[Diagnostic]:
    """`docker run … NAME` (or `docker create`) where NAME is the `container_name:` a compose file
    beside the README gives a service that builds its image, while nothing makes an image of that name:
    no compose service's `image:`, no build, tag, pull or commit of the README, no script beside it.
    Compose tags the image it builds with the service's `image:`, or `<project>-<service>` when it has
    none; the container's name is no image, nor is the service's own name (`docker run web` after
    `docker compose build` of service `web`), and `docker run` of it fails (`pull access denied`).
    `certain`: the name is the file's, written out. `docker compose run web` runs the right image. A
    service's own name is told only at or after a compose command of the README that builds (`build`,
    `up`, `run`, `create`). `docker exec`, `logs`, `start` of the name are right (`_container_misses`
    reads those)."""
    containers = {
        s.container_name: (f, s) for f in files for s in f.services if s.container_name and s.builds
    }
    # a service's own name: the image Compose builds for it is not called so either (one its `image:`
    # names under an owner, `labs/ros-dev` for `ros-dev`, is `_unqualified_runs`')
    services = {
        s.name: (f, s)
        for f in files
        for s in f.services
        if s.builds
        and s.name not in containers
        and (not s.image or image_repository(s.image).rsplit("/", 1)[-1] != s.name)
    }
    if not containers and not services:
        return
    texts = _command_texts(doc, commands)
    known = {image_repository(s.image) for f in files for s in f.services if s.image}
    for _, text in texts:
        if build_scripts.BUILD.search(text):
            known.update(image_repository(m.group(1)) for m in TAG_FLAG.finditer(text))
        known.update(image_repository(t) for t in tag_targets(text))
        known.update(image_repository(m.group(1)) for m in _PULLED.finditer(text))
        known.update(_made_images(text) or ())
    # a service's own name is told only after a compose command of the README that builds it: a run of
    # the name alone, in a README that never starts Compose, may be of an image made otherwise
    composed = min((n for n, text in texts if _builds_with_compose(text)), default=None)
    scripted: set[str] | None = None
    seen: set[str] = set()
    for line, text in texts:
        ran = docker_run(text)
        image = ran[1] if ran is not None else ""
        name = image_repository(image)
        if (name not in containers and name not in services) or name in known or name in seen:
            continue
        if name not in containers and (composed is None or composed > line):
            continue
        if scripted is None:
            scripted = _built_by_scripts(folders)
        if name in scripted:
            continue
        where, service = containers[name] if name in containers else services[name]
        project = compose.project_name(where.folder) or "project"
        if not service.image and name in (f"{project}-{service.name}", f"{project}_{service.name}"):
            continue  # the name Compose tags the image with anyway
        seen.add(name)
        at = f"{where.shown}:{service.line}" if service.line else where.shown
        # a service's `image:` is the name Compose gives the image it builds; without one, the project's
        tagged = compose.built_image(None, service.name, project)
        if service.image:
            shown = f" ({where.shown}:{service.image_line})" if service.image_line else ""
            tagged = f"{service.image}{shown}"
        what = (
            f"the container name {at} gives service {service.name}"
            if name in containers
            else f"the name of a service of {at}"
        )
        yield Diagnostic(
            readme,
            line,
            f"README runs image {image}, but {name} is {what}, not an image: Compose tags the image it "
            f"builds {tagged}, and nothing of the README builds, tags or pulls {name}",
            confidence=CERTAIN,
        )


def _one_word_off(repo: str, built: set[str]) -> list[str]:
    """The one name of `built` written like `repo` but for one of its words (`lammps_image` for
    `pagerank_image`, `app-gpu` for `app-cpu`): another section's name pasted in."""
    words = re.split(r"[-_.]", repo)
    found = [
        name
        for name in sorted(built)
        if len(other := re.split(r"[-_.]", name)) == len(words) > 1
        and sum(a != b for a, b in zip(words, other, strict=True)) == 1
        and re.sub(r"[^-_.]", "", name) == re.sub(r"[^-_.]", "", repo)
    ]
    return found if len(found) == 1 else []


# --------------------------------------------------------------------------------------------------
# --build-arg BASE_IMAGE=NAME:TAG naming an image of the README's own at a tag no build of it gives

_VALUE = r"(?:\$\{[^}\n]*\}|<[^>\n]*>|\$(?!\{)|[^\s\"'`;|&<$])+"
"""A word of a command, a placeholder with blanks in it kept whole (`…-commit-${commit id}`)."""
_TAG_VALUE = re.compile(r"(?:^|[ \t])(?:-t|--tag)(?:[ \t]+|=)[\"']?(" + _VALUE + ")")
_IMAGE_ARG = re.compile(r"--build-arg(?:[ \t]+|=)[\"']?([A-Za-z_][A-Za-z0-9_]*)=[\"']?(" + _VALUE + ")")
_WILD = re.compile(r"\$\{[^}\n]*\}|\$[A-Za-z_][A-Za-z0-9_]*|<[^>\n]*>|\{[^}\n]*\}|\[[^\]\n]*\]")
"""A placeholder of a tag (`${commit id}`, `$TAG`, `<tag>`, `{version}`): it may stand for anything."""
_BAKE = re.compile(r"docker-bake[\w.-]*\.(?:hcl|json)\Z")
_BUILD_FILES = ("GNUmakefile", "makefile", "Makefile", "justfile", "Justfile")
"""Files beside the README whose recipes may build and tag an image (`make base`)."""


def _pattern(tag: str) -> str:
    """`tag` with each placeholder one `\0`, which matches any text (`_may_match`)."""
    return _WILD.sub("\0", tag)[:256]


def _may_match(a: str, b: str) -> bool:
    """True when some tag fits both the patterns `a` and `b` (`_pattern`: `\0` is any text)."""
    seen: dict[tuple[int, int], bool] = {}
    stack = [(0, 0)]
    while stack:
        i, j = stack.pop()
        if (i, j) in seen:
            continue
        seen[i, j] = True
        if i == len(a) and j == len(b):
            return True
        if i < len(a) and a[i] == "\0":
            stack.append((i + 1, j))
            if j < len(b):
                stack.append((i, j + 1))
        if j < len(b) and b[j] == "\0":
            stack.append((i, j + 1))
            if i < len(a):
                stack.append((i + 1, j))
        if i < len(a) and j < len(b) and a[i] == b[j] and a[i] != "\0":
            stack.append((i + 1, j + 1))
    return False


def _split_tag(reference: str) -> tuple[str, str]:
    """(repository, tag) of an image reference whose tag may hold placeholders with blanks or
    slashes; `latest` when it has none."""
    reference = reference.strip("\"'")
    head = _WILD.sub(lambda m: "\0" * len(m.group()), reference)  # (a `:` or `/` in a placeholder)
    slash = head.rfind("/")
    colon = head.find(":", slash + 1)
    if colon < 0:
        return reference, "latest"
    return reference[:colon], reference[colon + 1 :]


def _unbuilt_bases(
    readme: str, commands: Sequence[_Command], files: Sequence[Composed], folders: Sequence[Path]
) -> Iterator[Diagnostic]:
    """A build arg of a build command naming an image (`--build-arg BASE_IMAGE=app:cuda-12.4-…`) of a
    repository another build command of the README tags, at a tag none of them gives (its placeholders
    match anything): the first step makes `app:cuda-12.4-py3.12-…`, the second starts from
    `app:cuda-12.4-cudnn-9-py3.12-…`, which nothing made. `certain` for a name with no namespace (no
    registry publishes it: only a local build or `docker tag` makes it), `likely` for `org/name`. Not
    told: a repository the README pulls, a registry path, a public image, a name a `docker tag`, a
    compose file's `image:` gives that tag, nor one a build script, a Makefile, a justfile or a bake
    file beside the README names (it may tag it)."""
    made: dict[str, list[tuple[int, str]]] = {}  # repository → (command index, tag) of what tags it
    pulled: set[str] = set()
    for index, command in enumerate(commands):
        pulled |= {image_repository(m.group(1)) for m in _PULLED.finditer(command.text)}
        for target in tag_targets(command.text):
            repo, tag = _split_tag(target)
            made.setdefault(repo, []).append((-1, tag))
        if command.built is None:
            continue
        for match in _TAG_VALUE.finditer(command.text):
            repo, tag = _split_tag(match.group(1))
            made.setdefault(repo, []).append((index, tag))
    claims = [
        (index, command, match)
        for index, command in enumerate(commands)
        if command.built is not None
        for match in _IMAGE_ARG.finditer(command.text)
    ]
    if not claims:
        return
    elsewhere: list[str] = [s.image for f in files for s in f.services if s.image]
    scripts = _scripts(folders)
    scripts += [
        folder / name
        for folder in dict.fromkeys(folders)
        for name in _BUILD_FILES
        if os.path.isfile(folder / name)
    ]
    bakes = _bake_texts(folders)
    for index, command, match in claims:
        repo, tag = _split_tag(match.group(2))
        first = repo.split("/", 1)[0]
        if (
            repo not in made
            or repo in pulled
            or _WILD.search(repo)
            or ("/" in repo and ("." in first or ":" in first or first == "localhost"))
            or repo in _PUBLIC
            or repo != repo.lower()
        ):
            continue
        others = [(at, t) for at, t in made[repo] if at != index]
        builds = [(at, t) for at, t in others if at >= 0]
        if not builds or any(_may_match(_pattern(tag), _pattern(t)) for _, t in others):
            continue
        if any(
            image_repository(e) == repo and _may_match(_pattern(tag), _pattern(_split_tag(e)[1]))
            for e in elsewhere
        ):
            continue
        if any(repo in text for text in bakes) or any(_names(script, repo) for script in scripts):
            continue  # a bake file, build script or Makefile may tag it (`-t trainer:…-$1`)
        at, built = builds[0]
        line = next((n for n, text in command.lines if match.group(2) in text), command.lines[0][0])
        yield Diagnostic(
            readme,
            line,
            f"README builds with --build-arg {match.group(1)}={match.group(2)}, an image no command of the "
            f"README makes: line {commands[at].lines[0][0]} builds {repo}:{built}",
            confidence=LIKELY if "/" in repo else CERTAIN,
        )


def _readme_builds(doc: Document, commands: Sequence[_Command]) -> list[tuple[int, str]]:
    """(README line, command) of each `docker build` of the README: its command blocks' and those a
    sentence writes in a code span (`To build that image execute `docker build -t org/base -f base.df .``)."""
    found = [(c.lines[0][0], c.text) for c in commands if c.built is not None]
    found += [(line, code) for line, code in _span_commands(doc) if build_scripts.BUILD.search(code)]
    return found


def _from_tag_misses(
    doc: Document,
    readme: str,
    commands: Sequence[_Command],
    models: Sequence[ImageModel],
    folders: Sequence[Path],
) -> Iterator[Diagnostic]:
    """A Dockerfile the README builds (`docker build -t org/app -f app.dockerfile .`) whose stage starts
    `FROM org/base_image:0.2` while another build of the README makes that base from another Dockerfile
    under other tags only (`docker build -t org/base_image -f base_image.dockerfile .`: `latest`): the
    build of the app does not start from the base the reader has just built; it pulls the tag (a registry
    may hold it) or fails. Not told: a base the README pulls or `docker tag`s, one a command may make
    unseen (`docker load`, compose, make), a tag or name with placeholders or variables, a base built from
    the same Dockerfile, nor one a build script, Makefile or bake file beside the README names with that
    tag. `certain` for a name with no namespace (no registry publishes it), else `likely`."""
    builds = _readme_builds(doc, commands)
    if not builds or any(_MADE_OTHERWISE.search(c.text) for c in commands):
        return
    made: dict[str, dict[str, tuple[int, str]]] = {}  # repository → tag → (README line, its -f)
    others: set[str] = set()  # repositories a `docker tag` or pull names
    for command in commands:
        others |= {image_repository(t) for t in tag_targets(command.text)}
        others |= {image_repository(m.group(1)) for m in _PULLED.finditer(command.text)}
    others |= {image_repository(t) for _, code in _span_commands(doc) for t in tag_targets(code)}
    others |= {
        image_repository(m.group(1)) for _, code in _span_commands(doc) for m in _PULLED.finditer(code)
    }
    built_files: dict[str, int] = {}  # base name of a Dockerfile a build names → README line
    for line, text in builds:
        file = FILE_FLAG.search(text)
        named = posixpath.basename(file.group(1)) if file else "Dockerfile"
        built_files.setdefault(named, line)
        for match in TAG_FLAG.finditer(text):
            if _WILD.search(match.group(1)):
                continue
            repo, tag = _split_tag(match.group(1))
            made.setdefault(repo, {}).setdefault(tag, (line, named))
    scripts = [
        *_scripts(folders),
        *(f / n for f in dict.fromkeys(folders) for n in _BUILD_FILES if os.path.isfile(f / n)),
    ]
    bakes = _bake_texts(folders)
    for model in models:
        own = os.path.basename(model.file) if model.file else ""
        if not own or own not in built_files:
            continue
        stages = {s.name for s in model.stages if s.name}
        for stage in model.stages:
            base = stage.base_raw
            if "$" in base or base in stages or _WILD.search(base):
                continue
            repo, tag = _split_tag(base)
            tags = made.get(repo)
            first = repo.split("/", 1)[0]
            if (
                not tags
                or tag in tags
                or "@" in base
                or repo in others
                or repo in _PUBLIC
                or any(named == own for _, named in tags.values())
            ):
                continue
            ref = f"{repo}:{tag}"
            if any(ref in text for text in bakes) or any(_names(script, ref) for script in scripts):
                continue
            built_tag, (at, named) = next(iter(tags.items()))
            shown = Path(os.path.relpath(model.file, folders[0])).as_posix() if folders else own
            registry = "/" in repo and ("." in first or ":" in first or first == "localhost")
            yield Diagnostic(
                readme,
                built_files[own],
                f"README builds {own}, which starts FROM {base} ({shown}:{stage.line}), but the README "
                f"builds that base as {repo}:{built_tag} (line {at}, -f {named}): no command of the README "
                f"makes {ref}",
                confidence=LIKELY if "/" in repo or registry else CERTAIN,
            )


def _bake_texts(folders: Sequence[Path]) -> list[str]:
    """The texts of the bake files in `folders` (`docker-bake.hcl`), which may tag anything."""
    found: list[str] = []
    for folder in dict.fromkeys(folders):
        try:
            paths = [Path(e.path) for e in os.scandir(folder) if os.path.isfile(e) and _BAKE.match(e.name)]
        except OSError:
            continue
        found += [text for path in paths if (text := text_or_none(path)) is not None]
    return found


# --------------------------------------------------------------------------------------------------
# docker run NAMESPACE/IMAGE the README sends a local build to, when the build tags IMAGE

_BACK_TO_RUNS = re.compile(
    r"\b(?:run|runs|running|start|starting|launch|launching)\b[^.\n]{0,80}?"
    r"\b(?:above|earlier|previous(?:ly)?|as[ \t]+before)\b",
    re.IGNORECASE,
)
"""A sentence that sends the reader back to the run commands: `running the container is done as
described above`."""


def _runs_elsewhere(
    doc: Document,
    readme: str,
    commands: Sequence[_Command],
    folders: Sequence[Path],
    directory: Path,
) -> Iterator[Diagnostic]:
    """A block that builds the image (`docker build -t IMAGE`, or a script beside the README that tags
    IMAGE) followed by a paragraph sending the reader back to the run commands (`running the container
    is done as described above`), while those run NAMESPACE/IMAGE, which neither the README nor a script
    beside it builds or tags (a pull is no build): the runs start the published image, not the one just
    built (`likely`)."""
    runs = [command.run for command in commands if command.run and "/" in command.run[1]]
    if not runs:
        return
    made: set[str] = set()
    for command in commands:
        made |= command.built or set()
        made.update(image_repository(t) for t in tag_targets(command.text))
    made.update(image_repository(tag) for tag in _script_tags(_scripts(folders)))
    starts = sorted(fence.lines[0][0] for fence in doc.fences if fence.lines)
    firsts = [para.lines[0][0] if para.lines else 0 for para in doc.paragraphs]
    for fence in doc.fences:
        if not fence.lines:
            continue
        tags: list[tuple[str, str]] = []  # (what tags it, the repository)
        for lines in fence_commands(fence):
            said = joined(lines)
            if build_scripts.BUILD.search(said):
                tags += [("the build command", image_repository(m.group(1))) for m in TAG_FLAG.finditer(said)]
            for match in _RUNS_SCRIPT.finditer(said):
                script = directory / match.group(1)
                text = text_or_none(script) if os.path.isfile(script) else None
                for number, tag in build_scripts.built_tag_lines(text or ""):
                    tags.append((f"{os.path.relpath(script, directory)}:{number}", image_repository(tag)))
        if not tags:
            continue
        end = fence.lines[-1][0]
        following = starts[bisect.bisect_right(starts, end)] if starts[-1] > end else None
        at = bisect.bisect_right(firsts, end)
        after = doc.paragraphs[at] if at < len(firsts) else None
        if after is None or (following is not None and firsts[at] > following):
            continue
        if not _BACK_TO_RUNS.search(plain(" ".join(t for _, t in after.lines))):
            continue
        built = {repo for _, repo in tags}
        if any(re.search(r"[$*/<>{}]", repo) for repo in built):
            continue
        for line, image in runs:
            repo = image_repository(image)
            last = repo.rsplit("/", 1)[-1]
            if repo in made or last not in built or re.search(r"[<>${}*\[\]]", image):
                continue
            where = next(w for w, r in tags if r == last)
            yield Diagnostic(
                readme,
                line,
                f"README runs image {image} for the image built at line {fence.lines[0][0]}, but "
                f"{where} tags it {last}: the run starts the published image, not the one built",
                confidence=LIKELY,
            )


# --------------------------------------------------------------------------------------------------
# docker run IMAGE when what builds it tags NAMESPACE/IMAGE

_RUNS_SCRIPT = re.compile(
    r"(?:^|[\s;&|(])(?:(?:ba|z)?sh[ \t]+)?((?:\./)?[\w.-]+(?:/[\w.-]+)*\.(?:sh|bash))\b"
)
"""A shell script a command runs (`./scripts/build.sh`, `bash build.sh`)."""


def _unqualified_runs(
    readme: str,
    commands: Sequence[_Command],
    files: Sequence[Composed],
    folders: Sequence[Path],
    directory: Path,
) -> Iterator[Diagnostic]:
    """`docker run … IMAGE` where IMAGE has no namespace (`rocm-pytorch:latest`) while what builds it
    names it with one: a `docker build -t` of the README, a compose file's `image:` or a build script
    beside the README or that it runs (`REGISTRY=${REGISTRY:-rocm-docker}` … `-t
    "${REGISTRY}/${name}:${TAG}"`), and nothing the README or those scripts build, tag or pull is
    IMAGE itself: `docker run` would look for IMAGE in Docker Hub's library (`likely`; a script may be
    run with another namespace). A script's tag whose name the script does not give (`${name}`) counts
    when the script names IMAGE (a list of the images it builds)."""
    readme_built: set[str] = set()
    known: set[str] = set()
    runs: list[tuple[int, str]] = []
    scripts: list[Path] = []
    for command in commands:
        readme_built |= command.built or set()
        known |= command.named
        scripts += [directory / m.group(1) for m in _RUNS_SCRIPT.finditer(command.text)]
        if command.run and "/" not in command.run[1]:
            runs.append(command.run)
    if not runs:
        return
    tagged = _script_tags(_scripts(folders, scripts))
    composed = {image_repository(s.image): f for f in files for s in f.services if s.image}
    known |= readme_built | {image_repository(t) for t in tagged} | set(composed)
    for line, image in runs:
        repo = image_repository(image)
        if repo in known or repo in _PUBLIC or repo != repo.lower() or re.search(r"[<>${}*\[\]]", image):
            continue
        where = _qualified(repo, readme_built, tagged, composed, directory)
        if where is None:
            continue
        yield Diagnostic(
            readme,
            line,
            f"README runs image {image}, but {where}: without the namespace, docker looks for another image",
            confidence=LIKELY,
        )


def _qualified(
    repo: str,
    readme_built: set[str],
    tagged: dict[str, Path],
    composed: dict[str, Composed],
    directory: Path,
) -> str | None:
    """What names the image `repo` with a namespace (`a build command of the README tags org/app`,
    `scripts/build.sh tags org/app`, `compose.yaml names image org/app`), None for nothing."""

    def last(name: str) -> bool:
        return "/" in name and not re.search(r"[$*]", name) and name.rsplit("/", 1)[-1] == repo

    for built in sorted(readme_built):
        if last(built):
            return f"a build command of the README tags {built}"
    for tag, script in tagged.items():
        if last(image_repository(tag)):
            return f"{os.path.relpath(script, directory)} tags {image_repository(tag)}"
    for tag, script in tagged.items():  # `${REGISTRY}/${name}`: a script that names the image
        if image_repository(tag).endswith("/" + build_scripts.UNKNOWN) and _names(script, repo):
            full = image_repository(tag).replace(build_scripts.UNKNOWN, repo)
            return f"{os.path.relpath(script, directory)} tags {full}"
    for name, file in composed.items():
        if last(name):
            return f"{file.shown} names image {name}"
    return None


def _names(script: Path, word: str) -> bool:
    """True when the text of `script` holds `word` as a whole word (`"rocm-pytorch"` in a list)."""
    text = text_or_none(script)
    if text is None:
        return False
    return re.search(rf"(?<![\w./-]){re.escape(word)}(?![\w./-])", text) is not None


# --------------------------------------------------------------------------------------------------
# docker run REPO:TAG when the README builds REPO under other tags only

_MADE_OTHERWISE = re.compile(
    r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?(?:load|import|commit)\b|(?:^|[$;&|(])[ \t]*make\b"
    r"|\bdocker[ \t]+compose\b|\bdocker-compose\b"
)
"""A command that may make an image whose tag the README does not show: `docker load`, `docker import`,
`docker commit`, a `make` target, a compose build."""
_TAG_FILES = re.compile(r"(?:.+\.(?:sh|bash|mk|hcl|ya?ml)|Makefile|makefile|GNUmakefile|justfile)\Z")
"""The files beside the README that may tag an image (`docker-bake.hcl`, a Makefile, a CI workflow)."""


def _tag(image: str) -> str:
    """The tag of an image reference: `latest` when none is written, '' for a digest."""
    if "@" in image:
        return ""
    last = image.rsplit("/", 1)[-1]
    return last.split(":", 1)[1] if ":" in last else "latest"


def _run_tag_misses(
    doc: Document,
    readme: str,
    commands: Sequence[_Command],
    files: Sequence[Composed],
    folders: Sequence[Path],
    directory: Path,
    text: str | None,
    variants: frozenset[str] = frozenset(),
) -> Iterator[Diagnostic]:
    """`docker run … REPO:TAG` (or `docker create`) when the README's build commands tag REPO, each with
    a tag written out, and none of them, nor a `docker tag` or pull of the README, a compose file's
    `image:` or a script beside it, makes REPO:TAG, while a tag they make is a slip away
    (`ros2:cuda12.5.1-ubuntu22.04` run after `-t ros2:cuda12.5.1-cudnn-ubuntu22.04`), or both are
    versions (`md-tools:v1` after `-t md-tools:v4`, the one tag built: `_other_version`): the tag was
    renamed on one side. Not when the README writes REPO:TAG anywhere else than a `docker run` (a
    sentence naming the image published), nor when one of its commands may make an image it does not
    show (`docker load`, `make`, compose), nor when a file beside it that may tag images names TAG.
    `certain` for a name without a namespace (no registry holds it: the run cannot start), else
    `likely` (the tag may be published). Not when each word TAG has and the close tag lacks is one of
    `variants`, the words of the audited Dockerfiles' paths (`gpu` of gpu/Dockerfile): the README shows
    one variant's build and runs the other's. `text`: the README's whole text (else the blocks and
    paragraphs of `doc`). Not for a namespaced REPO run above every build of it: the README runs the
    published image first and shows how to build one of one's own after."""
    built: dict[str, dict[str, int]] = {}  # repository → tag → README line of its build
    known: set[str] = set()
    runs: list[tuple[int, str]] = []
    scripts: list[Path] = []
    for command in commands:
        if _MADE_OTHERWISE.search(command.text):
            return
        scripts += [directory / m.group(1) for m in _RUNS_SCRIPT.finditer(command.text)]
        if command.built is not None:
            for match in TAG_FLAG.finditer(command.text):
                ref = match.group(1)
                line = next((n for n, text in command.lines if ref in text), command.lines[0][0])
                built.setdefault(image_repository(ref), {}).setdefault(_tag(ref), line)
        known.update(tag_targets(command.text))
        known.update(m.group(1) for m in _PULLED.finditer(command.text))
        if command.run:
            runs.append((command.run[0], command.run[1].rstrip(")\"';")))
    if not runs or not built:
        return
    known.update(s.image for f in files for s in f.services if s.image)
    known.update(_script_tags(_scripts(folders, scripts)))
    by_repo: dict[str, set[str]] = {}
    for ref in known:
        by_repo.setdefault(image_repository(ref), set()).add(_tag(ref))
    run_lines = {n for command in commands if command.run for n, _ in command.lines}
    if text is None:
        lines = [*(x for f in doc.fences for x in f.lines), *(x for p in doc.paragraphs for x in p.lines)]
    else:
        lines = list(enumerate(text.splitlines(), 1))
    elsewhere = "\n".join(said for n, said in lines if n not in run_lines)
    offered: str | None = None
    for line, image in runs:
        repo, tag = image_repository(image), _tag(image)
        tags = built.get(repo, {})
        if (
            not tags
            or ":" not in image.rsplit("/", 1)[-1]
            or not tag
            or tag in tags
            or re.search(r"[<>${}*\[\]]", image)
            or repo in _PUBLIC
            or repo != repo.lower()
            or any(not t or re.search(r"[<>${}*\[\]]", t) for t in tags)
        ):
            continue
        made = by_repo.get(repo, set()) | by_repo.get(build_scripts.UNKNOWN, set())
        if tag in made or any(build_scripts.UNKNOWN in t for t in made):
            continue
        if re.search(rf"(?<![\w./-]){re.escape(image)}(?![\w.-])", elsewhere) or _named_beside(tag, folders):
            continue
        if "/" in repo and line < min(tags.values()):
            continue  # run before the README builds it: the published image is pulled
        if offered is None:
            offered = offered_text(doc, lines)
        if re.search(rf"(?<![\w.-]){re.escape(tag)}(?![\w-]|\.\w)", offered):
            continue  # a version a section offering pre-built images lists: the run takes that one
        close = difflib.get_close_matches(tag, sorted(tags), n=1, cutoff=CLOSE) or _other_version(tag, tags)
        if not close or _variant_of(tag, close[0], variants):
            continue  # (`app:gpu` run after `-t app:cpu` beside gpu/Dockerfile: the other variant's build)
        yield Diagnostic(
            readme,
            line,
            f"README runs image {image}, but no command of it builds that tag: its build command "
            f"(line {tags[close[0]]}) tags {repo}:{close[0]}",
            confidence=CERTAIN if "/" not in repo else LIKELY,
        )


_VERSION_TAG = re.compile(r"v?\d+(?:[.-]\d+)*", re.IGNORECASE)
"""A tag that is a version and nothing else: `v4`, `1.2`, `2024-05`."""


def _other_version(tag: str, built: Collection[str]) -> list[str]:
    """[the one tag the README builds] when it and `tag` are both versions and differ (`md-tools:v1` run
    after `-t md-tools:v4`: too short for `difflib` to call them a slip, yet the same image numbered
    on one side only), else []."""
    if len(built) != 1 or not _VERSION_TAG.fullmatch(tag):
        return []
    (only,) = built
    return [only] if only != tag and _VERSION_TAG.fullmatch(only) else []


def _words(name: str) -> frozenset[str]:
    """The lower-case words of a tag or path (`cuda12-gpu` → cuda12, gpu)."""
    return frozenset(w for w in re.split(r"[^a-z0-9]+", name.lower()) if w)


def _variant_of(tag: str, built: str, variants: frozenset[str]) -> bool:
    """True when the words `tag` has and `built` lacks are some, each one of `variants`."""
    extra = _words(tag) - _words(built)
    return bool(extra) and extra <= variants


def _variant_words(models: Sequence[ImageModel], directory: Path) -> frozenset[str]:
    """The words of the audited Dockerfiles' paths below the README's folder (`gpu` of
    gpu/Dockerfile, of Dockerfile.gpu), `dockerfile` aside."""
    words: set[str] = set()
    for model in models:
        if model.file:
            shown = os.path.relpath(model.file, directory)
            if not shown.startswith(".."):
                words |= _words(shown)
    return frozenset(words - {"dockerfile"})


def _named_beside(tag: str, folders: Sequence[Path]) -> bool:
    """True when a file of `folders` that may tag images (`_TAG_FILES`) holds `tag` as a whole word."""
    pattern = re.compile(rf"(?<![\w.-]){re.escape(tag)}(?![\w.-])")
    for folder in dict.fromkeys(folders):
        try:
            entries = [e for e in os.scandir(folder) if os.path.isfile(e) and _TAG_FILES.fullmatch(e.name)]
        except OSError:
            continue
        for entry in entries:
            text = text_or_none(Path(entry.path))
            if text is not None and pattern.search(text):
                return True
    return False


# --------------------------------------------------------------------------------------------------
# A compose example copied from the compose file beside the README

_YAML_LANGS = frozenset({"yaml", "yml", "compose", ""})
_COPY = 2
"""Settings (`ports`, `container_name` …) an example must share with a service to be a copy of it."""


def _example_misses(doc: Document, readme: str, files: Sequence[Composed]) -> Iterator[Diagnostic]:
    """A fenced compose example in the README (```` ```yaml ```` with `services:`) whose service has the
    name of a service of a compose file beside it, and whose `dockerfile:`, a value of its `args:` or its
    `image:` is none of that service's (in every such file): the file changed, the example did not. Not
    the `image:` of an example that adds a `build:` to a service the files only pull: that names the
    image the reader builds.
    `certain` when the example is a copy of the service (`_COPY` other settings the same), else
    `likely`."""
    by_name: dict[str, list[tuple[Composed, compose.Service]]] = {}
    for file in files:
        for service in file.services:
            by_name.setdefault(service.name, []).append((file, service))
    if not by_name:
        return
    for fence in doc.fences:
        if fence.lang not in _YAML_LANGS or not any(t.startswith("services:") for _, t in fence.lines):
            continue
        text = "\n".join(t for _, t in fence.lines)
        try:
            example = compose.services(text.encode("utf-8"), readme)
        except DocgenError:
            continue
        first = fence.lines[0][0]
        for shown in example:
            theirs = by_name.get(shown.name, [])
            if not theirs:
                continue
            yield from _compare_service(fence, first, shown, theirs, readme)


def _compare_service(
    fence: Fence,
    first: int,
    shown: compose.Service,
    theirs: list[tuple[Composed, compose.Service]],
    readme: str,
) -> Iterator[Diagnostic]:
    """The keys of the README's example service `shown` that no service of its name (`theirs`) has."""
    claims: list[tuple[str, str, list[str]]] = []  # (key to find, the example's value, the files' values)
    if shown.dockerfile is not None:
        values = [s.dockerfile for _, s in theirs if s.dockerfile is not None]
        if values and all(posixpath.normpath(v) != posixpath.normpath(shown.dockerfile) for v in values):
            claims.append(("dockerfile", shown.dockerfile, values))
    if shown.image is not None and not (shown.builds and not any(s.builds for _, s in theirs)):
        # (an example that builds a service the file only pulls names its own build: any name will do)
        values = [s.image for _, s in theirs if s.image is not None]
        if values and shown.image not in values:
            claims.append(("image", shown.image, values))
    for arg, value in shown.args:
        values = [v for _, s in theirs for a, v in s.args if a == arg]
        if values and value not in values:
            claims.append((arg, value, values))
    if not claims:
        return
    file, service = next(
        ((f, s) for f, s in theirs if (shown.dockerfile is None or s.dockerfile is not None)), theirs[0]
    )
    same = sum(1 for setting in shown.settings if setting in service.settings)
    sure = CERTAIN if same >= _COPY else LIKELY
    start = (shown.line or 1) - 1 + first
    for key, value, values in claims:
        line = next(
            (
                n
                for n, text in fence.lines
                if n >= start and re.match(rf"[ \t-]*{re.escape(key)}[ \t]*[:=]", text)
            ),
            start,
        )
        yield Diagnostic(
            readme,
            line,
            f"README's compose example gives service {shown.name} {key} {value} but "
            f"{file.shown}:{service.line} says {values[0]}",
            confidence=sure,
        )


# --------------------------------------------------------------------------------------------------
# docker tag SERVICE after docker compose build SERVICE

_COMPOSE_BUILD = re.compile(
    r"\b(?:docker[ \t]+compose|docker-compose)\b(?P<rest>[^;&|]*?)[ \t]build\b(?P<args>[^;&|]*)"
)
_BUILD_VALUES = frozenset("--build-arg --progress --ssh --builder -m --memory".split())
_USES_IMAGE = re.compile(
    r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?(?P<verb>tag|push)[ \t]+(?:-\S+[ \t]+)*"
    r"[\"']?(?P<image>[^\s\"'`;&|]+)"
)


def _built_services(args: str) -> list[str]:
    """The services a `docker compose build` command's words after `build` name."""
    words = args.split()
    found: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word.startswith("-"):
            index += 2 if word in _BUILD_VALUES and "=" not in word else 1
            continue
        found.append(word.strip("\"'`"))
        index += 1
    return found


def _tag_misses(doc: Document, readme: str, files: Sequence[Composed]) -> Iterator[Diagnostic]:
    """`docker compose build SERVICE` then, in the same command block, `docker tag SERVICE[:TAG] …` or
    `docker push SERVICE…`, when the compose file's service SERVICE has an `image:` of another
    repository: Compose tags what it builds with that name, so no image SERVICE exists to tag
    (`certain`)."""
    by_name = {s.name: (f, s) for f in files for s in f.services if s.image}
    if not by_name:
        return
    for fence in doc.fences:
        built: set[str] = set()
        for lines in fence_commands(fence):
            command = joined(lines)
            for part in re.split(r"&&|;|\|\|", command):
                if (build := _COMPOSE_BUILD.search(part)) is not None and "-f" not in build.group(
                    "rest"
                ).split():
                    built.update(_built_services(build.group("args")))
                    continue
                use = _USES_IMAGE.search(part)
                if use is None:
                    continue
                repo = image_repository(use.group("image"))
                if repo not in built or repo not in by_name:
                    continue
                where, service = by_name[repo]
                if service.image is None or image_repository(service.image) == repo:
                    continue
                line = next((n for n, text in lines if use.group("image") in text), lines[0][0])
                yield Diagnostic(
                    readme,
                    line,
                    f"README {use.group('verb')}s image {use.group('image')} after building service {repo}, "
                    f"but {where.shown}:{service.image_line or service.line} names that image "
                    f"{service.image} (Compose builds no image {repo})",
                    confidence=CERTAIN,
                )


# --------------------------------------------------------------------------------------------------
# NAME=VALUE settings a compose service's environment: overrides

_ASSIGNMENT = re.compile(r"[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)=(\S*)[ \t]*\Z")
_INTERPOLATED = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")


def _overridden_settings(
    doc: Document, readme: str, files: Sequence[Composed], text: str | None = None
) -> Iterator[Diagnostic]:
    """A block of `NAME=VALUE` lines (an `.env` file to write) that names variables a compose service
    reads (`${NAME}` in its settings), when that service reads an env file and its `environment:`
    gives one of the block's names a value that does not take it from there (`MODEL_PATH=/app/models/
    ${MODEL_FILENAME}` for `MODEL_PATH=/models/x.gguf`): `environment:` wins over the env file, so the
    README's value has no effect (`certain`). With `text`, the blocks of the whole README are read
    (a prerequisites section, set aside as about the host, holds them)."""
    services = [(f, s) for f in files for s in f.services if s.env_file and s.environment]
    if not services:
        return
    if text is not None:
        doc = read_document(text, readme)
    for fence in doc.fences:
        if fence.lang not in ("", "env", "dotenv", "ini", "properties", "text", "txt"):
            continue
        pairs = [
            (n, m)
            for n, t in fence.lines
            if t.strip() and not t.lstrip().startswith("#")
            for m in [_ASSIGNMENT.match(t)]
        ]
        if not pairs or any(m is None for _, m in pairs):
            continue
        given = {m.group(1): (n, m.group(2).strip("\"'")) for n, m in pairs if m is not None}
        for where, service in services:
            read = {name for _, text in service.settings for name in _INTERPOLATED.findall(text)}
            for name, value, at in service.environment:
                if name not in given or name in _INTERPOLATED.findall(value):
                    continue
                if not (read - {name}) & set(given):
                    continue  # a block about something else
                line, said = given[name]
                if said == value:
                    continue
                yield Diagnostic(
                    readme,
                    line,
                    f"README sets {name}={said}, but {where.shown}:{at or service.line} sets {name}={value} "
                    f"in service {service.name}'s environment, which overrides the env file: "
                    "the value has no effect",
                    confidence=CERTAIN,
                )


# --------------------------------------------------------------------------------------------------
# What a compose file's container launches

COMPOSE_NAMED = re.compile(r"(?<![\w.-])((?:docker-)?compose[\w.-]*\.ya?ml)\b")
_LAUNCHES = re.compile(
    r"\b(?:container|service)[ \t]+(?:now[ \t]+|then[ \t]+)?"
    r"(?:launches|starts|runs|is[ \t]+(?:launched|started))[ \t]+(?:via|with|using|through|by)[ \t]+"
    r"`([^`\s]+)[^`]*`",
    re.IGNORECASE,
)
"""`The container now launches via `scripts/launch.py``: the program a compose file's container runs."""


def _launch_misses(
    doc: Document, readme: str, files: Sequence[Composed], models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """A paragraph naming one compose file beside the README that says its container launches via a
    script (`scripts/launch_with_all_cores.py`), when the file's services set their `command:` or
    `entrypoint:` and none of those, nor the audited Dockerfiles, names that script (`likely`)."""
    by_name = {posixpath.basename(f.shown): f for f in files}
    for para in doc.paragraphs:
        text = " ".join(t for _, t in para.lines)
        named = {m.group(1) for m in COMPOSE_NAMED.finditer(text)}
        if len(named) != 1 or (file := by_name.get(next(iter(named)))) is None:
            continue
        for match in _LAUNCHES.finditer(text):
            program = posixpath.basename(match.group(1).strip("./"))
            if "." not in program and "/" not in match.group(1):
                continue  # `python`, `bash`: no script named
            runs = [(s, v) for s in file.services for k, v in s.settings if k in ("command", "entrypoint")]
            if not runs or any(program in v for _, v in runs) or _in_dockerfiles(program, models):
                continue
            service, command = runs[0]
            line = next((n for n, t in para.lines if match.group(1) in t), para.lines[0][0])
            if command.startswith("[") and command.endswith("]"):  # exec form, as `_text` writes it
                command = " ".join(part for part in command[1:-1].split(", ") if part)
            flat = " ".join(command.split())
            shown = clipped(flat)
            yield Diagnostic(
                readme,
                line,
                f"README says the container launches via {match.group(1)}, but {file.shown}:{service.line} "
                f"runs service {service.name} with {shown} and no command of it names {program}",
                confidence=LIKELY,
            )


def _in_dockerfiles(word: str, models: Sequence[ImageModel]) -> bool:
    """True when the text of an audited Dockerfile holds `word` (one that cannot be read: True)."""
    for model in models:
        if not model.file:
            return True
        try:
            path = Path(model.file)
            if path.stat().st_size > MAX_FILE_BYTES or word in path.read_text("utf-8", errors="replace"):
                return True
        except OSError:
            return True
    return False


def name_misses(
    doc: Document,
    readme: str,
    directory: Path,
    models: Sequence[ImageModel],
    project: Path | None,
    text: str | None = None,
) -> Iterator[Diagnostic]:
    """The findings of this module for a README in `directory` about `models`; `text`, the README's
    whole text, for the `.env` blocks a section set aside (`## Prerequisites`) holds."""
    files = compose_files(directory, models, project)
    folders = [directory, *(Path(m.file).parent for m in models if m.file)]
    yield from _container_misses(doc, readme, files)
    commands = _commands(doc)
    yield from _run_misses(doc, readme, commands, files, folders)
    yield from _ran_script_misses(doc, readme, commands, files, folders)
    yield from _container_runs(doc, readme, commands, files, folders)
    yield from _script_build_runs(doc, readme, commands, files, folders, text)
    yield from _unqualified_runs(readme, commands, files, folders, directory)
    yield from _unbuilt_bases(readme, commands, files, folders)
    yield from _from_tag_misses(doc, readme, commands, models, folders)
    yield from _runs_elsewhere(doc, readme, commands, folders, directory)
    variants = _variant_words(models, directory)
    yield from _run_tag_misses(doc, readme, commands, files, folders, directory, text, variants)
    yield from _example_misses(doc, readme, files)
    yield from _tag_misses(doc, readme, files)
    yield from _overridden_settings(doc, readme, files, text)
    yield from _launch_misses(doc, readme, files, models)
