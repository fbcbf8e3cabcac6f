"""A `docker run` of the README's own image whose words after the image start with an option while the
image has no ENTRYPOINT (`docker run … app:latest --frames 1` under `CMD ["./render.sh"]`), or with a
setting of the program's configuration (`mode=train train.max_steps=10` under `CMD ["train-llm"]`,
Hydra's overrides): the words replace CMD, so docker tries to execute `--frames` or `mode=train` and
the container fails at once. The same, `likely`, for a placeholder standing for the program's arguments
(`docker run … vllm <args...>` when the image has no ENTRYPOINT: they replace CMD too).

The image is the README's own when a build command of it tags that repository (`-t org/app`), the
Dockerfile being the one the build names with `-f` or the only one audited. Its ENTRYPOINT is looked for
in the built stage and the stages of the file it is built on; `ENTRYPOINT []` clears it. When none of
them sets one, the base image decides: a plain OS image (`ubuntu`, `debian`, `alpine`, …) has none, and
`nvidia/cuda` images either have none or `nvidia_entrypoint.sh`, which executes its arguments as a
command (`exec "$@"`): either way the option is executed, so the finding is `certain`. Any other base
may set an ENTRYPOINT that takes options (official server images prepend their program to a leading
option), so the finding is `likely`. The same, `likely`, for an image the README runs but does not
build whose last name is the README's title or the Dockerfile's folder (`titled_image`: `docker run
ghcr.io/lab/ocrx21-p4:main --skip-models …` under `# OCRX21P4 - …`), one finding an image.

And a `docker run` or `docker create` of an image with no namespace (`app:latest`) that nothing of the
README builds, tags, pulls or names in compose, while the README pulls or builds the same name under a
namespace (`docker pull org/app:latest`): docker looks for `docker.io/library/app`, which is not the
image meant (`likely`, "did you mean org/app?"). An official image (`ubuntu`, `python`), a README that
loads or imports images, and a name a script or compose file of the repository uses are not read. The
namespaced name may be one a build tag split at a space after its `/` meant (`-t reg/team/ app:1 ctx`),
or a pull in the run's block one slip from the run's name (`org/app-segnet` pulled, `app-segnt` run):
the finding then names the pull.
The same for a run of a local name only a build of the README tags, after a pull of that name under
a namespace the text offers instead of the build (`If you don't want to build the image, pull …`,
`alternative_pulls`): the run serves the build's way only.

And a `docker run` of the README's own image whose first word after the image names a program while the
image's ENTRYPOINT is a shell given no command (`ENTRYPOINT ["/bin/bash"]`, `["sh", "-l"]`): docker
starts `/bin/bash ffmpeg -i in.mp4 …`, and bash reads `ffmpeg` as the file of a script to run, which a
program is not, so the container fails at once. The image is the README's own when a build command of
it tags that repository (`certain`) or, with no build command and one Dockerfile audited, when its name
is the README's title or the Dockerfile's folder (`docker run org/ffmpeg-nvenc:latest …` under `#
FFmpeg-NVENC`: `likely`, the name may mean an image built elsewhere). Left alone: an ENTRYPOINT running
a command or a script (`["/bin/bash", "-c"]`, `["bash", "/start.sh"]`), the shell form, `--entrypoint`,
a first word that is an option (`-c "…"`), a path, a variable, a `.sh`/`.bash` name, or a name the image
or the repository may hold as a script (a file of that name beside the README or the Dockerfile, a COPY
of it, a path of the Dockerfile ending in it, `/usr/local/bin/start`).

And a `docker run` of the README's own image (a build command of it tags that repository) with no words
after the image while the image's ENTRYPOINT is, in exec form, a shell whose last word asks for a command
(`["/bin/bash", "-c"]`, `["sh", "-lc"]`) and no stage of the image sets a CMD: the shell gets `-c` and
no command string and exits at once (`bash: -c: option requires an argument`), so the run starts
nothing (`certain`). An ENTRYPOINT in exec form resets the CMD of the base image, so an unknown base
does not save it. Left alone: any CMD in the stages of the image, words after the image, `--entrypoint`,
an ENTRYPOINT that carries its own command (`["bash", "-c", "python3 serve.py"]`) or is not a shell, the
shell form, and an image the README does not build or whose Dockerfile is unclear.

And a `docker run` / `docker create` whose first words after the image are `docker run` options of
their own shape (`-e THREADS=10`, `-v ./models:/app/models`, `-p 8080:80`, `--gpus all`,
`--name app`): docker gives them to the container as its command, so no variable is set, no folder
mounted, no port published (`misplaced_options`). Read in every README, with or without a Dockerfile.
Left alone: an image whose ENTRYPOINT is a program that takes such options itself (`ansible-playbook
-e k=v`, `docker`, `node -e`, `mysql -e`: by the Dockerfile's ENTRYPOINT when the README builds the
image, by the image's name otherwise), and an ENTRYPOINT script beside the Dockerfile that reads the
option (`-e)` in a `case`, `"-e"`, a `getopts` letter), and an option a usage listing of the README's
blocks gives (the program's `--help` output: `  -e, --extra-vars …`) (`certain`).

And an interactive `docker run -it` of the README's own image with no words after the image, after which
the README says the reader is inside the container or tells them to type a command there (`idle_shells`:
`run `jupyter lab` inside the container`), while the image has no ENTRYPOINT and its CMD runs a program
that is no shell (`sleep infinity`, `tail -f /dev/null`, `python3 serve.py`): `likely`. The run is a
command block's, or a code span's in a list of steps whose build is written so too.
"""

from __future__ import annotations

import bisect
import difflib
import fnmatch
import json
import os
import posixpath
import re
import shlex
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

from docgen.audit.aside import offered_text
from docgen.audit.auditor import CERTAIN, LIKELY, dockerfile_read
from docgen.audit.commands import (
    FILE_FLAG,
    TAG_FLAG,
    built_repositories,
    fence_commands,
    image_repository,
    image_tag,
    joined,
    last_name,
    shell_steps,
    tagged_builds,
    tagged_names,
)
from docgen.audit.containers import text_files
from docgen.audit.docker_cli import docker_verb, docker_words
from docgen.audit.grammar import IMAGE_WORD, RUN, Read, env_takes_image, misplaced, read_words
from docgen.audit.memo import per_audit
from docgen.audit.missing import one_slip
from docgen.audit.names import CLOSE
from docgen.build_scripts import BUILD
from docgen.files import text_or_none
from docgen.markdown import Document, Fence, code_spans
from docgen.model import Diagnostic, ImageModel, Setting
from docgen.shell import sh_code, shell_split

PLAIN_BASES = frozenset(
    "ubuntu debian alpine centos fedora rockylinux almalinux amazonlinux archlinux opensuse/leap "
    "oraclelinux busybox redhat/ubi8 redhat/ubi9 nvidia/cuda nvidia/cudagl nvidia/opengl".split()
)
"""Base images that set no ENTRYPOINT, or (`nvidia/cuda`'s newer tags) one that executes its arguments:
an option given to a container of them is run as a program."""


def _own_entrypoint(model: ImageModel) -> Setting | None:
    """The last ENTRYPOINT of the stages the image `model` builds is made of (its Dockerfile's, not a
    base image's); None when they set none."""
    labels = {stage.label for stage in model.chain()}
    return next(
        (s for s in reversed(model.settings) if s.keyword == "ENTRYPOINT" and s.stage in labels), None
    )


def entrypoint(model: ImageModel) -> bool | None:
    """True when the image `model` builds has an ENTRYPOINT, False when it has none, None when its base
    image may set one (`PLAIN_BASES`)."""
    setting = _own_entrypoint(model)
    if setting is not None:
        return setting.exec_form != ()
    chain = model.chain()
    base = chain[-1].base if chain else ""
    repository = image_repository(base).removeprefix("docker.io/").removeprefix("library/")
    return False if repository in PLAIN_BASES or repository in _NO_ENTRYPOINT else None


_TAKERS = frozenset(
    "ansible ansible-playbook ansible-pull ansible-galaxy ansible-runner docker podman nerdctl buildah "
    "node nodejs perl ruby sed gsed awk gawk php mysql mariadb psql clickhouse-client skopeo".split()
)
"""Programs that take `-e`/`-v`/`-p`-shaped options of their own (`ansible-playbook -e k=v`, `docker run
-e`, `node -e`, `mysql -e`): a container whose ENTRYPOINT is one reads them."""
_TAKER_IMAGE = re.compile(
    r"(?i)(?:^|[/_.-])(?:ansible|docker|dind|podman|nerdctl|buildah|skopeo)(?:$|[/_.:-])"
)
"""An image named for such a program (`docker:cli`, `willhallonline/ansible`, `quay.io/podman/stable`)."""
_MISPLACED_NAMES = {"--name": re.compile(r"[A-Za-z0-9][\w.-]*")}
"""`docker run` options read here beyond `grammar.misplaced`'s shapes (a container's name)."""


_LOST = {
    "-e": "no variable is set",
    "--env": "no variable is set",
    "--env-file": "no variable is set",
    "-v": "no volume is mounted",
    "--volume": "no volume is mounted",
    "-p": "no port is published",
    "--publish": "no port is published",
    "--gpus": "no GPU is given",
    "--device": "no device is given",
    "--shm-size": "the shared memory keeps its size",
    "--ipc": "the IPC mode is not set",
    "--name": "the container is not named",
}
"""What a run loses for each option written after its image."""


def _misplaced(after: list[str]) -> list[str]:
    """The `docker run` options of their own shape that open `after` (the words after the image), one
    after the other: `-e X=1 -v ./m:/m` gives both; none when a program or another word comes first."""
    found: list[str] = []
    at = 0
    while at < len(after):
        option = misplaced(after[at:])
        if option is None:
            name = after[at]
            shape = _MISPLACED_NAMES.get(name)
            if shape is None or at + 1 >= len(after) or not shape.fullmatch(after[at + 1]) or not found:
                break
            option = f"{name} {after[at + 1]}"
        found.append(option)
        at += 1 if "=" in option.split(" ", 1)[0] and " " not in option else 2
    return found


def _reads_option(model: ImageModel, directory: Path | None, option: str) -> bool:
    """True when the image's ENTRYPOINT (exec form) runs a program that takes `option` (`_TAKERS`) or a
    script beside the Dockerfile that reads it; False otherwise (none, the shell form, a base's: the
    words become the program's, or the program itself)."""
    setting = _own_entrypoint(model)
    if setting is None or setting.exec_form is None:
        return False
    name = option.split("=", 1)[0].split(" ", 1)[0]
    letter = rf"|getopts\s+['\"]?[\w:]*{name[1]}" if len(name) == 2 else ""
    reads = re.compile(rf"(?m)['\"]{re.escape(name)}['\"]|^\s*{re.escape(name)}\s*[|)]{letter}")
    if model.file:
        folder = Path(model.file).parent
    else:
        folder = (directory or Path(".")) / posixpath.dirname(model.path)
    for word in setting.exec_form:
        base = posixpath.basename(word)
        if base in _TAKERS or re.sub(r"[\d.]+$", "", base) in _TAKERS:
            return True
        if "/" in word or "." in base:
            path = folder / base
            if os.path.isfile(path) and (body := text_or_none(path)) is not None and reads.search(body):
                return True
    return False


_LISTED_OPTION = re.compile(r"^\s*(-[A-Za-z]|--[a-z][\w-]+)(?:,|=\S*\s{2,}|\s+[A-Z_<\[]\S*\s{2,}|\s{2,})")
"""An option opening a line of a program's usage listing (`  -e, --extra-vars`, `  -v VOLUME  mount …`)."""


def _documented(doc: Document) -> set[str]:
    """The options a usage listing of the README's blocks gives (a program's `--help` output, on lines
    that name no docker command): the image's program takes them as its own."""
    found: set[str] = set()
    for fence in doc.fences:
        for _, text in fence.lines:
            if "docker" not in text and (match := _LISTED_OPTION.match(text)) is not None:
                found.add(match.group(1))
    return found


def misplaced_options(
    doc: Document, readme: str, models: Sequence[ImageModel], directory: Path | None = None
) -> Iterator[Diagnostic]:
    """`docker run` options written after the image (see the module's docstring)."""
    built = built_repositories(doc) if models else {}
    documented: set[str] | None = None
    for line, image, read, after in docker_runs(doc):
        if any(n == "--entrypoint" for n, _ in read.values) or env_takes_image(read, after):
            continue  # (an `-e NAME value` that made its value the image: `grammar._env_image`)
        options = _misplaced(after)
        if not options:
            continue
        documented = _documented(doc) if documented is None else documented
        if options[0].split("=", 1)[0].split(" ", 1)[0] in documented:
            continue  # (the README tells the option as its program's own)
        model = own_model(image, built, models) if built else None
        if (
            model is None
            and len(models) == 1
            and not built
            and image_repository(image) in title_names(doc, models[0])
        ):
            model = models[0]
        if model is not None and _reads_option(model, directory, options[0]):
            continue
        if model is None and _TAKER_IMAGE.search(image_repository(image)):
            continue
        shown = ", ".join(options[:4]) + (" …" if len(options) > 4 else "")
        lost = list(dict.fromkeys(_LOST[o.split("=", 1)[0].split(" ", 1)[0]] for o in options))
        many = len(options) > 1
        said = (
            f"README's docker run passes {shown} after the image {image}: docker run gives the words after "
            f"the image to the container as its command, so {'they are' if many else 'it is'} not "
            f"docker's option{'s' if many else ''} ({', '.join(lost)}: put {'them' if many else 'it'} "
            "before the image)"
        )
        yield Diagnostic(readme, line, said, confidence=CERTAIN)


def own_model(
    image: str, built: dict[str, set[str | None]], models: Sequence[ImageModel]
) -> ImageModel | None:
    """The model of the Dockerfile the README's build of `image` uses: the one its `-f` names, the only
    one audited when it names none; None when the README does not build it or the file is unclear.
    `localhost/app` is the name podman gives a local build of `app`."""
    repository = image_repository(image)
    files = built.get(repository) or built.get(repository.removeprefix("localhost/"))
    if not files or len(files) != 1:
        return None
    (file,) = files
    if file is None:
        return models[0] if len(models) == 1 else None
    named = [m for m in models if m.path == file or m.path.endswith("/" + file.removeprefix("./"))]
    return named[0] if len(named) == 1 else None


def _squeezed(name: str) -> str:
    """`name` lower case with only its letters and digits (`IW276WS21-P19` → `iw276ws21p19`)."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def titled_image(doc: Document, image: str, model: ImageModel) -> bool:
    """Whether `image`, which the README does not build, is by its name the image of the one Dockerfile
    audited: its last name, letters and digits alone, is the README's title (whole, its first word or the
    part before ` - `/`:`) or the Dockerfile's folder (`ghcr.io/iw276/iw276ws21-p19` under `#
    IW276WS21P19 - OCR …`), and no stage of the Dockerfile starts FROM it."""
    name = _squeezed(last_name(image))
    if len(name) < 4 or image_repository(image) in {image_repository(s.base) for s in model.stages}:
        return False
    names = {_squeezed(n) for n in _title_names(doc, model)}
    if doc.headings and doc.levels.get(doc.headings[0][0]) == 1:
        title = doc.headings[0][1].strip().strip("`")
        names.add(_squeezed(re.split(r"\s+[-–—:|]\s+|:\s", title, maxsplit=1)[0]))
        names.add(_squeezed(title.split(maxsplit=1)[0]) if title.split() else "")
    return name in names


TAGGING = re.compile(
    r"(?:(?:^|[ \t])(?:-t|--tag)(?:[ \t]+|=)|^[ \t]*image:[ \t]*|\b(?:docker|podman)[ \t]+(?:image[ \t]+)?"
    r"(?:tag|push)[ \t]+)[\"']?(\S+)"
)
"""A name a build file gives an image: a build's `-t`, a compose `image:`, a `docker tag` or `push`."""
_DOCKERFILE_NAME = re.compile(r"(?:Dockerfile[\w.-]*|[\w.-]*\.[Dd]ockerfile)\Z")


def published_model(
    image: str, models: Sequence[ImageModel], texts: Sequence[tuple[Path, str]]
) -> tuple[ImageModel, Path, int] | None:
    """(model, build file, line) when a build file of the project (`texts`: scripts, Makefiles,
    workflows; not a Dockerfile, whose FROM names a base, nor a compose `image:`, which may be pulled)
    tags or pushes the repository of `image` under any registry (`-t org/app:$VERSION` for
    `ghcr.io/org/app:latest`), and the one audited Dockerfile, or the one beside that file, is the image
    it builds."""
    repository = image_repository(image)
    parts = repository.split("/")
    if len(parts) < 2:
        return None
    named = re.compile(
        r"(?:[\w.-]+(?::\d+)?/)?" + re.escape("/".join(parts[-2:])) + r"(?:[:@]\S*)?", re.IGNORECASE
    )
    for file, body in texts:
        if _DOCKERFILE_NAME.match(file.name) or "/".join(parts[-2:]).lower() not in body.lower():
            continue
        for number, text in enumerate(body.splitlines(), start=1):
            tags = [m for m in TAGGING.finditer(text) if not m.group(0).lstrip().startswith("image:")]
            if not any(named.fullmatch(m.group(1).strip("\"'")) for m in tags):
                continue  # (a compose `image:` may be one it pulls)
            beside = [m for m in models if m.file and Path(m.file).resolve().parent == file.resolve().parent]
            chosen = models if len(models) == 1 else beside
            if len(chosen) == 1:
                return chosen[0], file, number
    return None


def run_args(
    doc: Document,
    readme: str,
    models: Sequence[ImageModel],
    texts: Callable[[], Sequence[tuple[Path, str]]] = tuple,
) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring); `texts()`, the project's build files, tell an
    image the README runs but does not build that one of them tags (`published_model`)."""
    built = built_repositories(doc)
    if not models:
        return
    told: set[str] = set()
    for line, image, read, after in docker_runs(doc):
        if any(n == "--entrypoint" for n, _ in read.values) or not after:
            continue
        stands_for = _ARGS_PLACEHOLDER.fullmatch(" ".join(after)) is not None
        if not after[0].startswith("-") and not _OVERRIDE.fullmatch(after[0]) and not stands_for:
            continue
        if after[0] in ("-", "--") or misplaced(after) is not None:
            continue
        model = own_model(image, built, models) if built else None
        if stands_for:
            if model is not None and entrypoint(model) is False:
                yield Diagnostic(
                    readme,
                    line,
                    f"README runs {image} {after[0]}, but {model.path} has no ENTRYPOINT: the arguments "
                    f"{after[0]} stands for replace CMD, so docker executes the first of them as the "
                    "container's program (put the program first, or set an ENTRYPOINT)",
                    confidence=LIKELY,
                )
            continue
        if model is None and not built and len(models) == 1 and titled_image(doc, image, models[0]):
            if image_repository(image) in told:
                continue  # (one finding an image named so)
            told.add(image_repository(image))
            yield from _named_run(readme, line, image, after[0], models[0])
            continue
        if model is None and image_repository(image) not in built:
            published = published_model(image, models, texts())
            if published is not None and entrypoint(published[0]) is False:
                if image_repository(image) in told:
                    continue
                told.add(image_repository(image))
                shown = f"the image {published[1].name}:{published[2]} tags"
                yield from _named_run(readme, line, image, after[0], published[0], shown)
                continue
        if not built:
            continue
        has = entrypoint(model) if model is not None else True
        if has:
            continue
        base = model.chain()[-1].base if model is not None and model.chain() else "its base"
        why = "has no ENTRYPOINT" if has is False else f"sets no ENTRYPOINT (unless {base} does)"
        yield Diagnostic(
            readme,
            line,
            f"README runs {image} {shlex.join(after[:1])} …, but {model.path if model else ''} "
            f"{why}: words after the image replace CMD, so docker executes {after[0]} as the "
            "container's program and it fails (put the program first, or use --entrypoint)",
            confidence=CERTAIN if has is False else LIKELY,
        )


_ARGS_PLACEHOLDER = re.compile(
    r"<(?:(?:server|program|extra|model)[ _-])?(?:args?|arguments?|options?|flags?|params?|parameters?)"
    r"(?:\.\.\.|…)?>(?:\.\.\.|…)?",
    re.IGNORECASE,
)
"""The words after the image written as a placeholder for arguments (`<args...>`, `<options>`): what
the reader puts there are the program's options, not a program."""
_OVERRIDE = re.compile(r"\+{0,2}[A-Za-z_][\w.-]*=\S*")
"""A word setting a key of a program's configuration (`mode=train`, `train.max_steps=10`, Hydra's
`+trainer.devices=2`): no program's name, though a program may read it as its argument."""


def _named_run(
    readme: str, line: int, image: str, option: str, model: ImageModel, shown: str = ""
) -> Iterator[Diagnostic]:
    """The run of an image the README does not build but names as the Dockerfile's (`titled_image`) whose
    first word after the image is `option`, when the image has no ENTRYPOINT: `likely` (the name may mean
    an image published from another Dockerfile, or the base's ENTRYPOINT may take options)."""
    has = entrypoint(model)
    if has:
        return
    cmd = next(
        (
            s
            for s in reversed(model.settings)
            if s.keyword == "CMD" and s.stage in {t.label for t in model.chain()}
        ),
        None,
    )
    base = model.chain()[-1].base if model.chain() else "its base"
    why = "has no ENTRYPOINT" if has is False else f"sets no ENTRYPOINT (unless {base} does)"
    held = f", only CMD {cmd.value} ({model.path}:{cmd.line})" if cmd is not None else ""
    yield Diagnostic(
        readme,
        line,
        f"README runs {image} {option} …, {shown or f'the image of {model.path} by its name'}, but "
        f"{model.path} {why}"
        f"{held}: words after the image replace CMD, so docker executes {option} as the container's "
        "program and it fails (put the program first, or set an ENTRYPOINT)",
        confidence=LIKELY,
    )


_SHELLS = frozenset("sh bash dash ash zsh ksh mksh".split())


def bare_shell(model: ImageModel) -> Setting | None:
    """`_bare_shell`: the image's exec-form ENTRYPOINT when it is a shell given no command."""
    return _bare_shell(model)


"""Shells that, given a word and no `-c`, read that word as the file of a script to run."""
_PROGRAM = re.compile(r"[A-Za-z][\w.+-]*")
"""A program named as a plain word (`ffmpeg`, `python3`): no path, variable, quote or placeholder."""
_SCRIPT_SUFFIX = re.compile(r".+\.(?:sh|bash)\Z")


def _bare_shell(model: ImageModel) -> Setting | None:
    """The ENTRYPOINT of the image `model` builds when it is, in exec form, a shell given no command
    (`["/bin/bash"]`, `["bash", "-l", "--norc"]`); None for any other or none."""
    labels = {stage.label for stage in model.chain()}
    for setting in reversed(model.settings):
        if setting.keyword != "ENTRYPOINT" or setting.stage not in labels:
            continue
        words = setting.exec_form
        if not words or posixpath.basename(words[0]) not in _SHELLS:
            return None
        for word in words[1:]:
            if not word.startswith("-") or (not word.startswith("--") and "c" in word):
                return None  # a script, an option's value (`-o pipefail`) or a command (`-c`, `-lc`)
        return setting
    return None


def _shell_wanting_command(model: ImageModel) -> Setting | None:
    """The ENTRYPOINT of the image `model` builds when it is, in exec form, a shell whose last word is
    `-c` or a short option bundle ending in it (`-lc`), and no stage of the image sets a CMD; None
    otherwise."""
    labels = {stage.label for stage in model.chain()}
    if any(s.keyword == "CMD" and s.stage in labels for s in model.settings):
        return None
    for setting in reversed(model.settings):
        if setting.keyword != "ENTRYPOINT" or setting.stage not in labels:
            continue
        words = setting.exec_form
        if not words or len(words) < 2 or posixpath.basename(words[0]) not in _SHELLS:
            return None
        if not re.fullmatch(r"-[a-z]*c", words[-1]):
            return None
        if any(not w.startswith("-") or (not w.startswith("--") and "c" in w) for w in words[1:-1]):
            return None  # an option's value or an earlier command
        return setting
    return None


def empty_commands(doc: Document, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """A run with no command of an image whose ENTRYPOINT is a shell waiting for `-c`'s command and
    which has no CMD (see the module docstring): `certain`."""
    built = built_repositories(doc)
    if not built or not models:
        return
    for line, image, read, after in docker_runs(doc):
        if after or any(n == "--entrypoint" for n, _ in read.values):
            continue
        model = own_model(image, built, models)
        shell = _shell_wanting_command(model) if model is not None else None
        if model is None or shell is None or shell.exec_form is None:
            continue
        yield Diagnostic(
            readme,
            line,
            f"README runs {image} with no command, but {model.path}:{shell.line} sets ENTRYPOINT "
            f"{json.dumps(list(shell.exec_form))} and the image has no CMD: "
            f"{shell.exec_form[0]} {shell.exec_form[-1]} gets no command string and exits at once "
            f"(pass the command after the image, or add a CMD)",
            confidence=CERTAIN,
        )


def _title_names(doc: Document, model: ImageModel) -> set[str]:
    """The names the README's title, the Dockerfile's folder and its OCI labels (`_label_names`) give the
    image, lower case with `-` for blanks (`# FFmpeg NVENC` → `ffmpeg-nvenc`)."""
    names: set[str] = set()
    if doc.headings and doc.levels.get(doc.headings[0][0]) == 1:
        names.add(re.sub(r"\s+", "-", doc.headings[0][1].strip().strip("`").strip().lower()))
    if model.file:
        names.add(Path(model.file).resolve().parent.name.lower())
        names |= _label_names(model.file)
    names.discard("")
    return names


_LABEL = re.compile(
    r"\b(?:org\.opencontainers\.image|org\.label-schema)\.(title|name|source|url|vcs-url)[ \t]*=[ \t]*"
    r"[\"']?([^\"'\s\\]+)"
)
"""A label naming the image (`org.opencontainers.image.title="llama-box"`) or the repository it is built
from (`org.opencontainers.image.source="https://github.com/acme/llama-box"`)."""


@per_audit(maxsize=32)
def _label_names(file: str) -> frozenset[str]:
    """The names the OCI (or label-schema) labels of the Dockerfile at `file` give its image, lower case:
    its title, and the last part of the repository address it is built from (`llama-box` of
    `https://github.com/acme/llama-box.git`). The published image is most often named so."""
    read = dockerfile_read(file)
    if read is None:
        return frozenset()
    names: set[str] = set()
    for instruction in read[1].instructions:
        if instruction.keyword != "LABEL":
            continue
        for kind, value in _LABEL.findall(instruction.args):
            if "$" in value:
                continue
            if kind in ("title", "name"):
                names.add(value.lower())
            elif re.match(r"https?://[^/]+/[^/]+/[^/]+", value):
                names.add(value.rstrip("/").rsplit("/", 1)[1].lower().removesuffix(".git"))
    return frozenset(names)


def _may_be_script(word: str, model: ImageModel, directory: Path | None) -> bool:
    """Whether the image or the repository may hold a script named `word`: a file of that name beside
    the README or the Dockerfile, a COPY of it or into it, a path of the Dockerfile ending in it."""
    for copy in model.context_copies:
        named = [*copy.sources, copy.dest]
        if any(posixpath.basename(n.strip("\"'").rstrip("/")) == word for n in named):
            return True
    folders = [directory] if directory is not None else []
    if model.file:
        folders.append(Path(model.file).parent)
        text = text_or_none(Path(model.file)) or ""
        if re.search(rf"/{re.escape(word)}(?![\w.+-])", text):
            return True
    return any(os.path.exists(folder / word) for folder in folders)


def shell_programs(
    doc: Document, readme: str, models: Sequence[ImageModel], directory: Path | None
) -> Iterator[Diagnostic]:
    """A program run after the image of an image whose ENTRYPOINT is a bare shell (see the module
    docstring)."""
    if not models:
        return
    built = built_repositories(doc)
    for line, image, read, after in docker_runs(doc):
        if not after or any(n == "--entrypoint" for n, _ in read.values):
            continue
        word = after[0]
        if not _PROGRAM.fullmatch(word) or _SCRIPT_SUFFIX.fullmatch(word):
            continue
        model = own_model(image, built, models)
        sure = model is not None
        if model is None and not built and len(models) == 1:
            bases = {image_repository(stage.base) for stage in models[0].stages}
            if image_repository(image) not in bases and last_name(image) in _title_names(doc, models[0]):
                model = models[0]
        shell = _bare_shell(model) if model is not None else None
        if model is None or shell is None or _may_be_script(word, model, directory):
            continue
        yield Diagnostic(
            readme,
            line,
            f"README runs {image} {word} …, but {model.path}:{shell.line} sets ENTRYPOINT "
            f"{json.dumps(list(shell.exec_form or ()))}, a shell given no command: docker starts "
            f"{shell.exec_form[0] if shell.exec_form else 'it'} {word} …, which reads {word} as a script "
            f'file, and {word} is a program (pass -c "{word} …", or use --entrypoint {word})',
            confidence=CERTAIN if sure else LIKELY,
        )


_WRAPPERS = frozenset(
    "tini tini-static dumb-init gosu su-exec env sudo catatonit nice nohup time timeout xvfb-run runuser "
    "setpriv chroot docker-init busybox s6-svscan supervisord conda mamba micromamba uv poetry pipenv npx "
    "npm yarn pnpm bundle pixi pdm rye hatch direnv dotenv with-contenv fixuid chpst s6-setuidgid "
    "setuidgid capsh unshare nsenter prlimit ionice chrt taskset numactl stdbuf unbuffer script setsid "
    "flock watch entr watchexec nodemon parallel xargs mpirun mpiexec srun horovodrun vglrun prime-run "
    "optirun primusrun firejail bwrap proot box64 faketime dbus-run-session dbus-launch ssh-agent valgrind "
    "strace ltrace gdb perf nsys ncu nvprof rocprof rocprofv2 rocprofv3 ddtrace-run "
    "opentelemetry-instrument envconsul chamber doppler op aws-vault apptainer singularity".split()
)
"""Programs an ENTRYPOINT starts to run another program given after them (`tini --`, `gosu user`,
`conda run`, `busybox` applets): their own name after the image may be the program they start."""
_PYTHON = re.compile(r"python(?:\d(?:\.\d+)?)?\Z")


def _same_program(word: str, program: str) -> bool:
    """Whether a run's word names the program an ENTRYPOINT starts: the same name, by its path or not
    (`ffmpeg`, `/usr/local/bin/ffmpeg`), or two names of Python (`python`, `python3.11`)."""
    name, started = posixpath.basename(word), posixpath.basename(program)
    return name == started or bool(_PYTHON.match(name) and _PYTHON.match(started))


_SCRIPT_NAME = re.compile(
    r"\.(?:sh|bash|py|pl|rb|js)\Z|entrypoint|start|run|init|wrap|launch|exec|shim", re.IGNORECASE
)
"""A program name that says it is a script or a wrapper (`start-server`, `ffmpeg-wrapper`)."""


_T = TypeVar("_T")


def _per_model(read: Callable[[ImageModel], _T]) -> Callable[[ImageModel], _T]:
    """`read` kept for each model by identity, for one rule's pass over a README's runs (thousands of runs
    of one image read it once; hashing a model, as `per_audit` does, reads the whole Dockerfile's)."""
    kept: dict[int, _T] = {}

    def cached(model: ImageModel) -> _T:
        if id(model) not in kept:
            kept[id(model)] = read(model)
        return kept[id(model)]

    return cached


def _program_entrypoint(model: ImageModel, directory: Path | None) -> Setting | None:
    """The ENTRYPOINT of the image `model` builds when it is, in exec form, a program that takes the run's
    words as its arguments: not a shell (`shell_programs`), a wrapper running its arguments as a command
    (`_WRAPPERS`) or a script that may (`.sh`, a file the image copies or the repository holds)."""
    setting = _own_entrypoint(model)
    words = setting.exec_form if setting is not None else None
    if setting is None or not words:
        return None
    program = posixpath.basename(words[0])
    if not _PROGRAM.fullmatch(program) or program in _SHELLS or program in _WRAPPERS:
        return None
    if "--" in words[1:] or words[-1] in ("run", "exec"):
        return None  # a command follows (`launcher --`, `pdm run`): the run's words may be that command
    if _SCRIPT_NAME.search(program):
        return None  # a script of the project's, or a wrapper by its name: it may run its arguments
    for copy in model.context_copies:
        named = [*copy.sources, copy.dest]
        if any(posixpath.basename(n.strip("\"'").rstrip("/")) == program for n in named):
            return None
    folders = [directory] if directory is not None else []
    if model.file:
        folders.append(Path(model.file).parent)
    if any(os.path.exists(folder / program) for folder in folders):
        return None
    text = text_or_none(Path(model.file)) if model.file else None
    if text is not None and re.search(
        rf"(?:>>?|\btee\b[^\n]*?)[ \t]*['\"]?(?:\S*/)?{re.escape(program)}(?![\w.+-])", text
    ):
        return None  # a RUN writes it: a script, which may run its arguments
    return setting


def doubled_programs(
    doc: Document, readme: str, models: Sequence[ImageModel], directory: Path | None
) -> Iterator[Diagnostic]:
    """A `docker run` of the README's own image whose words after the image name again the program its
    exec-form ENTRYPOINT starts (`ENTRYPOINT ["/usr/local/bin/ffmpeg"]`, `docker run … IMAGE ffmpeg -i
    in.mp4 …`): docker appends the words to the ENTRYPOINT, so the program gets its own name as its first
    argument (`ffmpeg ffmpeg -i …`: an output file named `ffmpeg`; `python python app.py`: no file
    `python`). Read when the ENTRYPOINT's other words are options (`["ffmpeg", "-hide_banner"]`) or the
    run repeats them all (`["python", "app.py"]` and `IMAGE python app.py`). `certain` for an image a
    build of the README tags, `likely` for one its title names. Left alone: `--entrypoint`, a shell, a
    wrapper (`tini --`, `gosu`, `env`), a script (it may `exec "$@"`), the shell form, an image the README
    does not build."""
    if not models:
        return
    built = built_repositories(doc)
    entrypoint = _per_model(lambda model: _program_entrypoint(model, directory))
    for line, image, read, after, _, fence in _fenced_runs(doc):
        if not after or any(n == "--entrypoint" for n, _ in read.values):
            continue
        model = own_model(image, built, models)
        sure = model is not None
        if model is None and not built and len(models) == 1:
            bases = {image_repository(stage.base) for stage in models[0].stages}
            if image_repository(image) not in bases and last_name(image) in _title_names(doc, models[0]):
                model = models[0]
        setting = entrypoint(model) if model is not None else None
        if model is None or setting is None or not setting.exec_form:
            continue
        words = list(setting.exec_form)
        if not _same_program(after[0], words[0]):
            continue
        rest = words[1:]
        repeated = after[1 : len(words)] == rest
        if any(not w.startswith("-") for w in rest) and not repeated:
            continue  # the ENTRYPOINT runs a script or subcommand the run's words go to
        shown = shlex.join(after[: len(words)] if repeated else after[:1])
        first = re.compile(rf"(?<!\S){re.escape(after[0])}(?!\S)")
        at = next((n for n, t in fence.lines if n >= line and first.search(t.replace(image, "", 1))), line)
        yield Diagnostic(
            readme,
            at,
            f"README runs {image} {shown} …, but {model.path}:{setting.line} already sets ENTRYPOINT "
            f"{json.dumps(words)}: docker appends the words after the image to it, so the container runs "
            f"{shlex.join(words)} {shown} …, giving {after[0]} to {posixpath.basename(words[0])} as its "
            f"first argument (drop {shown} after the image, or use --entrypoint)",
            confidence=CERTAIN if sure else LIKELY,
        )


OFFICIAL = frozenset(
    "ubuntu debian alpine busybox centos fedora python node golang rust nginx httpd postgres mysql mariadb "
    "redis mongo memcached rabbitmq hello-world traefik registry docker openjdk eclipse-temurin".split()
)
"""Official images a README may run by their short name whatever it pulls besides."""
GOT = re.compile(
    r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?(?:pull|tag)[ \t]+(?:-\S+[ \t]+)*"
    r"([^\s\\]+)(?:[ \t]+([^\s\\]+))?"
)
"""`docker pull X` and `docker tag A B`: images the README has by these names."""
COMPOSE_IMAGE = re.compile(r"^[ \t]*image:[ \t]*[\"']?([^\s\"']+)", re.MULTILINE)
LOADS = re.compile(r"\bdocker[ \t]+(?:image[ \t]+)?(?:load|import)\b|\b(?:podman|nerdctl)[ \t]+load\b")


def docker_runs(doc: Document, last: bool = False) -> Iterator[tuple[int, str, Read, list[str]]]:
    """(README line, image, its options as read, the words after the image) of each `docker run` /
    `docker create` of a command block whose options are all known and whose image is an image name;
    with `last`, also of one with an option docgen does not know whose image is its last word."""
    for line, image, read, after, _, _ in _fenced_runs(doc, last):
        yield line, image, read, after


_PODMAN = re.compile(r"^([ \t]*(?:\$[ \t]+)?(?:sudo[ \t]+)?)podman(?=[ \t])")
"""`podman` first in a step: read as `docker`, whose `run` takes the same options."""


def _fenced_runs(
    doc: Document, last: bool = False, podman: bool = False
) -> Iterator[tuple[int, str, Read, list[str], list[str], Fence]]:
    """What `docker_runs` gives, with the words between the verb and the image (the options as written) and
    the block the run is in; with `podman`, `podman run` too."""
    for fence in doc.fences:
        for lines in fence_commands(fence):
            text = joined([(n, sh_code(t)) for n, t in lines])
            for step in shell_steps(text):
                words = docker_words(_PODMAN.sub(r"\1docker", step, count=1) if podman else step)
                found = docker_verb(words) if words else None
                if words is None or found is None or found[0] not in ("run", "create"):
                    continue
                read = read_words(words[found[1] :], RUN)
                whole = read.complete or (last and read.positional == words[-1:])
                if whole and read.positional and IMAGE_WORD.fullmatch(read.positional[0]):
                    image = read.positional[0]
                    line = next((n for n, t in lines if image in t), lines[0][0])
                    start = found[1] + read.after
                    options = words[found[1] : start - 1] if read.after else []
                    yield line, image, read, words[start:], options, fence


def offered_runs(doc: Document, text: str) -> set[int]:
    """The README lines of each `docker run` (`docker create`) of an image whose repository the
    README's builds tag, each with a tag written out, under other tags only, when a section offering
    pre-built images lists the run's tag (`aside.offered_text`: `-t nav_sim:2.5.0` under `### Option 1:
    Build`, a table of container versions holding `2.1.0` under `### Option 2: Download Pre-built
    Container`, then a run of `nav_sim:2.1.0`): the run starts that pre-built release, not the image the
    Dockerfile builds, and its folders and user are that release's. A run of another tag the README
    offers nowhere is a stale name (`names` tells of it), and still the Dockerfile's image."""
    built: dict[str, set[str]] = {}
    for image, _, _ in tagged_builds(doc):
        last = image.rsplit("/", 1)[-1]
        built.setdefault(image_repository(image), set()).add(last.split(":", 1)[1] if ":" in last else "")
    if not built:
        return set()
    offered: str | None = None
    found: set[int] = set()
    for line, image, _, _, _, fence in _fenced_runs(doc):
        last = image.rsplit("/", 1)[-1]
        tags = built.get(image_repository(image))
        if not tags or ":" not in last or "@" in image or re.search(r"[<>${}*]", image):
            continue
        tag = last.split(":", 1)[1]
        if "" in tags or any(re.search(r"[<>${}*]", t) for t in tags) or tag in tags:
            continue  # (a build with no tag, or one a variable gives, may make it)
        if offered is None:
            offered = offered_text(doc, list(enumerate(text.splitlines(), 1)))
        if not re.search(rf"(?<![\w.-]){re.escape(tag)}(?![\w-]|\.\w)", offered):
            continue
        for lines in fence_commands(fence):
            if any(n == line for n, _ in lines):
                found.update(n for n, _ in lines)
    return found


def foreign_runs(doc: Document) -> set[int]:
    """The README lines of each `docker run` (`docker create`) of an image far from every one the
    README's builds tag, when it builds some (`docker build -t lab/guidance:sitl …`, then `docker run …
    px4io/px4-dev-ros-noetic bash`): another project's image, with its own folders and users, not the
    Dockerfile's. A name a slip away from a built one (`difflib`, `names.CLOSE`) is a stale name of
    the same image, and still the Dockerfile's; a name written with a variable or a placeholder is not
    read."""
    built = built_repositories(doc)
    if not built:
        return set()
    found: set[int] = set()
    for line, image, _, _, _, fence in _fenced_runs(doc, last=True):
        repo = image_repository(image)
        if repo in built or re.search(r"[<>${}*]", image):
            continue
        if difflib.get_close_matches(repo, sorted(built), n=1, cutoff=CLOSE):
            continue
        for lines in fence_commands(fence):
            if any(n == line for n, _ in lines):
                found.update(n for n, _ in lines)
    return found


def image_runs(doc: Document, last: bool = False) -> Iterator[tuple[int, str, Read, list[str]]]:
    """(README line, image, its options as read, the words after the image) of each `docker run` /
    `docker create` of a command block whose options are all known and whose image is an image name;
    with `last`, also of one with an unknown option (`-e X=--a --b`) whose image is its last word (an
    unknown option taking it as a value would leave the command no image)."""
    return docker_runs(doc, last)


def title_names(doc: Document, model: ImageModel) -> set[str]:
    """The names the README's title and the Dockerfile's folder give the image (`_title_names`)."""
    return _title_names(doc, model)


def dropped_namespaces(doc: Document, text: str, readme: str, directory: Path | None) -> Iterator[Diagnostic]:
    """A run image with no namespace that the README has only under a namespace (see the module
    docstring): `likely`."""
    if LOADS.search(text):
        return
    have: set[str] = set(built_repositories(doc))
    for match in GOT.finditer(text):
        have.update(image_repository(g) for g in match.groups() if g)
    have.update(image_repository(m.group(1)) for m in COMPOSE_IMAGE.finditer(text))
    # `-t registry/team/ app:1.0`: a tag split at a space, which docker refuses; the name meant is whole
    have.update(image_repository(m.group(1) + m.group(2)) for m in _SPLIT_TAG.finditer(text))
    runs = list(docker_runs(doc))
    have.update(image_repository(image) for _, image, _, _ in runs if "/" in image_repository(image))
    tagged = tagged_names(doc)  # a build tags it (`names` tells a namespace its build lacks)
    spaced = {
        r.rsplit("/", 1)[1]: r
        for r in sorted(have)
        if "/" in r and not re.search(r"[<>${}]", r) and r.rsplit("/", 1)[1] not in tagged
    }
    seen: set[str] = set()
    files: list[Path] | None = None
    pulls: list[tuple[int, int, list[tuple[int, str]]]] | None = None  # the fences' pulls, on first use
    for line, image, _, _ in runs:
        name = image_repository(image)
        if "/" in name or name in have or name in OFFICIAL or name in seen:
            continue
        meant = f"did you mean {spaced[name]}?" if name in spaced else None
        if meant is None:
            if pulls is None:
                pulls = _fence_pulls(doc)
            near = _slipped_pull(name, line, pulls)
            if near is None or near[1].rsplit("/", 1)[1] in tagged:
                continue
            meant = f"line {near[0]} pulls {near[1]}"
        seen.add(name)
        if directory is not None:
            if files is None:
                top = directory.resolve()
                files = text_files(top, (directory / Path(readme).name).resolve()) or []
            word = re.compile(rf"(?<![\w./-]){re.escape(name)}(?![\w/-])")
            if any(word.search(text_or_none(f) or "") for f in files):
                continue  # a script or compose file of the repository may make it
        yield Diagnostic(
            readme,
            line,
            f"README runs image {image}, which nothing it builds, tags or pulls is named so: docker looks "
            f"for docker.io/library/{name} ({meant})",
            confidence=LIKELY,
        )


_SPLIT_TAG = re.compile(
    r"\b(?:docker|podman)[ \t]+(?:buildx[ \t]+)?build\b[^\n;&|`]{0,1000}?[ \t](?:-t|--tag)[ \t]+[\"']?"
    r"([a-z0-9][\w.:-]*(?:/[\w.-]+)*/)[ \t]+([a-z0-9][\w.-]*)(?::[\w.-]+)?(?=[ \t])"
)
"""A build tag split at a space after its namespace (`-t harbor.acme.eu/tools/ seg-liver:latest ctx/`):
the namespace (group 1) and the name the build was meant to give it (group 2)."""


def _fence_pulls(doc: Document) -> list[tuple[int, int, list[tuple[int, str]]]]:
    """(first line, last line, (README line, image) of each `docker pull` of it) of each fence that
    pulls."""
    found = []
    for fence in doc.fences:
        pulled = [
            (number, image_repository(match.group(1)))
            for number, line in fence.lines
            for match in GOT.finditer(line)
            if re.search(r"\bpull\b", match.group(0))
        ]
        if pulled:
            found.append((fence.lines[0][0], fence.lines[-1][0], pulled))
    return found


def _slipped_pull(
    name: str, line: int, pulls: list[tuple[int, int, list[tuple[int, str]]]]
) -> tuple[int, str] | None:
    """The pull of a namespaced image, in the fence of the run at README `line` and before it, whose last
    name is the run's `name` with one slip (`brainstem-mdgrut` pulled, `brainstem-mdgru` run), when
    exactly one is."""
    parts = re.split(r"[-_.]", name)
    near = {
        (number, pulled)
        for first, last, pulled_here in pulls
        if first <= line <= last
        for number, pulled in pulled_here
        if number < line
        and "/" in pulled
        and not re.search(r"[<>${}]", pulled)
        and one_slip(parts, re.split(r"[-_.]", pulled.rsplit("/", 1)[1]))
    }
    return next(iter(near)) if len(near) == 1 else None


_ALTERNATIVE = re.compile(
    r"(?:^|[.!?:;][ \t]+)or\b|\balternative(?:ly)?\b|\binstead\b|\brather[ \t]+than\b"
    r"|\b(?:don'?t|do[ \t]+not|doesn'?t)[ \t]+(?:want|need|wish|have)[ \t]+to[ \t]+build\b"
    r"|\bwithout[ \t]+building\b|\bskip\w*[ \t]+(?:the[ \t]+)?build\w*|\bpre-?built\b|\bready-?made\b"
    r"|\bprebuilt\b|\boption[ \t]+\d\b",
    re.IGNORECASE,
)
"""Words offering a pull as the other way to building (`If you don't want to build the image, pull …`,
`Or build one yourself:`, `Alternatively`, `### Option 2: …`)."""
_PULL_COMMAND = re.compile(r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?pull[ \t]+(?:-\S+[ \t]+)*([^\s\\;&|]+)")


def alternative_pulls(doc: Document, text: str, readme: str) -> Iterator[Diagnostic]:
    """A `docker run` of a local name (`deformgs`, no namespace) that a build of the README tags
    (`docker build -t deformgs .`) while the text between that build and a pull of the same repository
    name under a namespace (`docker pull bartduis/deformgs:latest`) offers the pull as the other way
    (`If you don't want to build the docker image, you can pull …`): the run comes after both and
    serves both, and after the pull there is no `deformgs` (docker looks for
    `docker.io/library/deformgs`) (`likely`). Silent when each way is whole: the README runs the pulled
    name too, or tags it to the local name (`docker tag bartduis/deformgs deformgs`), and when it loads
    or imports images, or the name is an official image's."""
    if LOADS.search(text):
        return
    builds: list[tuple[int, str]] = []  # (README line, local repository a build tags)
    pulls: list[tuple[int, str]] = []  # (README line, namespaced image pulled)
    tag_targets: set[str] = set()
    for fence in doc.fences:
        for lines in fence_commands(fence):
            command = joined(lines)
            line = lines[0][0]
            if BUILD.search(command):
                builds += [
                    (line, image_repository(m.group(1)).lower())
                    for m in TAG_FLAG.finditer(command)
                    if "/" not in m.group(1) and not re.search(r"[<>${}]", m.group(1))
                ]
            for match in GOT.finditer(command):
                if re.search(r"\btag\b", match.group(0)) and match.group(2):
                    tag_targets.add(image_repository(match.group(2)).lower())
            pulls += [
                (next((n for n, t in lines if m.group(1) in t), line), m.group(1))
                for m in _PULL_COMMAND.finditer(command)
                if "/" in image_repository(m.group(1)) and not re.search(r"[<>${}]", m.group(1))
            ]
    if not builds or not pulls:
        return
    runs = list(docker_runs(doc))
    run_repositories = {image_repository(image).lower() for _, image, _, _ in runs}
    prose = sorted(
        [(n, t) for para in doc.paragraphs for n, t in para.lines] + [(n, t) for n, t in doc.headings]
    )
    starts = [n for n, _ in prose]
    told: set[str] = set()
    for pull_line, pulled in pulls:
        pulled_repository = image_repository(pulled).lower()
        name = pulled_repository.rsplit("/", 1)[-1]
        if pulled_repository in run_repositories or name in tag_targets or name in OFFICIAL or name in told:
            continue
        built = next((b for b in builds if b[1] == name), None)
        if built is None:
            continue
        low, high = sorted((built[0], pull_line))
        between = prose[bisect.bisect_right(starts, low) : bisect.bisect_left(starts, high)]
        if not any(_ALTERNATIVE.search(t) for _, t in between):
            continue
        run = next(
            ((n, image) for n, image, _, _ in runs if n > high and image_repository(image).lower() == name),
            None,
        )
        if run is None:
            continue
        told.add(name)
        yield Diagnostic(
            readme,
            run[0],
            f"README runs image {run[1]}, which only its build (line {built[0]}) tags, while line "
            f"{pull_line} offers to pull {pulled} instead of building: after the pull docker looks for "
            f"docker.io/library/{name} (did you mean {pulled}?)",
            confidence=LIKELY,
        )


def _docker_commands(doc: Document) -> list[tuple[int, str]]:
    """(README line, command) of each command of a command block and of each code span of the prose that
    is a docker command (`` `docker pull acme/app:1.0` ``), in README order."""
    found = [(lines[0][0], joined(lines)) for fence in doc.fences for lines in fence_commands(fence)]
    for para in doc.paragraphs:
        for number, text in para.lines:
            found += [
                (number, code.strip())
                for _, _, code in code_spans(text)
                if re.match(r"(?:sudo[ \t]+)?(?:docker|podman)[ \t]+\w", code.strip())
            ]
    return sorted(set(found))


def _run_image(command: str) -> str | None:
    """The image of a `docker run` / `docker create` command whose options docgen reads."""
    for step in shell_steps(sh_code(command)):
        words = docker_words(step)
        found = docker_verb(words) if words else None
        if words is None or found is None or found[0] not in ("run", "create"):
            continue
        read = read_words(words[found[1] :], RUN)
        if read.complete and read.positional and IMAGE_WORD.fullmatch(read.positional[0]):
            return read.positional[0]
    return None


def renamed_pulls(doc: Document, text: str, readme: str) -> Iterator[Diagnostic]:
    """A pull the README offers as the other way to its build (`docker pull woodenheart777/gqcnn:cuda12.2`
    … `or you can build on your own`) of an image no command of it runs, while its runs use the name the
    build tags, another owner's of the same last name and tag (`woodenheart/gqcnn:cuda12.2`): after the
    pull there is no image of the name the runs use (`likely`). Silent when the README runs the pulled
    name, tags an image (`docker tag`), loads or imports one, and for a run of a local name (`deformgs`,
    no owner: `alternative_pulls` tells it)."""
    if LOADS.search(text) or re.search(r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?tag\b", text):
        return
    if not re.search(r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?pull\b", text):
        return  # (no pull: the commands are not read at all)
    commands = _docker_commands(doc)
    pulls = [
        (n, m.group(1))
        for n, c in commands
        for m in _PULL_COMMAND.finditer(c)
        if "/" in image_repository(m.group(1)) and not re.search(r"[<>${}]", m.group(1))
    ]
    if not pulls:
        return
    builds = [(n, t) for n, c in commands if BUILD.search(c) for t in TAG_FLAG.findall(c)]
    runs = [(n, image) for n, c in commands if (image := _run_image(c)) is not None]
    ran = {image_repository(image).lower() for _, image in runs}
    prose = sorted(
        [(n, t) for para in doc.paragraphs for n, t in para.lines] + [(n, t) for n, t in doc.headings]
    )
    starts = [n for n, _ in prose]
    told: set[str] = set()
    for pull_line, pulled in pulls:
        repository = image_repository(pulled).lower()
        if repository in ran or repository in told:
            continue
        near = [
            (n, image)
            for n, image in runs
            if last_name(image) == last_name(pulled)
            and image_tag(image) == image_tag(pulled)
            and image_repository(image).lower() != repository
            and "/" in image_repository(image)  # (a local name is `alternative_pulls`'s)
        ]
        if not near:
            continue
        name = image_repository(near[0][1]).lower()
        built = next((b for b, tag in builds if image_repository(tag).lower() == name), None)
        if built is None:
            continue
        low, high = sorted((built, pull_line))
        between = prose[bisect.bisect_right(starts, low) : bisect.bisect_left(starts, high)]
        if not any(_ALTERNATIVE.search(t) for _, t in between):
            continue
        told.add(repository)
        lines = ", ".join(str(n) for n in dict.fromkeys(n for n, _ in near))
        yield Diagnostic(
            readme,
            pull_line,
            f"README pulls {pulled} instead of building, but its runs (line {lines}) use {near[0][1]}, "
            f"the name its build (line {built}) tags: after the pull there is no {near[0][1]}",
            confidence=LIKELY,
        )


# --------------------------------------------------------------------------------------------------
# An interactive run with no command, after which the README is inside the container, of an image whose
# command is no shell

_INSIDE_SAID = re.compile(
    r"\b(?:once|when|after|now|while)\b[^.!?]{0,30}?\b(?:inside|in|within)[ \t]+(?:the|your)[ \t]+container\b"
    r"|(?:^[ \t]*(?:[-*+][ \t]+|\d+[.)][ \t]+)?|[.!?;][ \t]+)(?:then[ \t]+)?(?:inside|within)[ \t]+the[ \t]+"
    r"container[ \t]*[,:]"
    r"|^[ \t]*#+[ \t]*(?:inside|in)[ \t]+(?:the[ \t]+)?container\b"
    r"|^[ \t]*#+[ \t]*(?:在[ \t]*)?容器(?:内|中|里)"
    r"|\b(?:drops?|dropped|puts?|places?|placed|lands?|logs?|logged)[ \t]+(?:you[ \t]+)?(?:in|into)[ \t]+"
    r"(?:a|an|the)[ \t]+(?:interactive[ \t]+)?(?:bash[ \t]+|root[ \t]+)?(?:shell|terminal|prompt|session)\b"
    r"|\b(?:opens?|gives?|starts?|get)[ \t]+(?:you[ \t]+)?(?:a|an)[ \t]+(?:interactive[ \t]+)?"
    r"(?:bash[ \t]+)?(?:shell|terminal)\b",
    re.IGNORECASE,
)
"""Words saying the reader is in the container's shell after the run (`Once inside the container, …`,
`This drops you into a shell`, `opens an interactive shell`). A bare `inside the container,` counts only
at the start of a line, item or sentence (`Inside the container, run:`): after a noun it places a
setting, not the reader (`To change the port inside the container, set PORT`)."""
_TYPED_INSIDE = re.compile(
    r"\b(?:run|execute|type|launch|start|enter)[ \t]+`[^`]+`[ \t]+(?:inside|within|in)[ \t]+"
    r"(?:the|your)[ \t]+(?:running[ \t]+)?container\b",
    re.IGNORECASE,
)
"""Words telling the reader to type a command in the container after the run (`run `jupyter lab` inside
the container`): a command in a code span, then where it is typed."""


def _says_inside(text: str) -> bool:
    """Whether a line says the reader is in the container's shell, or tells them to type a command there."""
    return _INSIDE_SAID.search(text) is not None or _TYPED_INSIDE.search(text) is not None


_OTHER_WAY_IN = re.compile(r"\bdocker(?:[ \t]+container)?[ \t]+(?:exec|attach|run)\b|\bdocker[ \t-]compose\b")
"""A line that gets into a container another way (`docker exec -it … bash`) or starts another."""
_IDLE = frozenset({"sleep", "tail", "true", "infinity"})
"""Programs that only keep a container alive (`sleep infinity`, `tail -f /dev/null`)."""
_NOT_SHELL = _IDLE | frozenset(
    "python python3 node java uvicorn gunicorn jupyter jupyter-lab jupyter-notebook nginx httpd "
    "streamlit gradio flask fastapi tensorboard ollama vllm redis-server supervisord".split()
)
"""Programs a CMD runs that are no shell and take no typed shell commands."""


_NO_ENTRYPOINT = frozenset({"python", "pypy"})
"""Official images besides `PLAIN_BASES` that set no ENTRYPOINT (only a CMD)."""


def _base_repository(model: ImageModel) -> str:
    chain = model.chain()
    base = chain[-1].base if chain else ""
    return image_repository(base).removeprefix("docker.io/").removeprefix("library/")


def _start_program(model: ImageModel) -> tuple[Setting, list[str]] | None:
    """The CMD of the image `model` builds (its stages, none with an ENTRYPOINT) and the words of the
    command it ends up running (`["bash", "-c", "sleep infinity"]`: `sleep infinity`; `CMD python3
    serve.py`: `python3 serve.py`; the last command of a list), when that command's program is one of
    `_NOT_SHELL`; None otherwise (a shell, a script, an ENTRYPOINT, no CMD of its own)."""
    if entrypoint(model) is not False and _base_repository(model) not in _NO_ENTRYPOINT:
        return None
    labels = {stage.label for stage in model.chain()}
    cmd = next((s for s in reversed(model.settings) if s.keyword == "CMD" and s.stage in labels), None)
    if cmd is None:
        return None
    words = list(cmd.exec_form) if cmd.exec_form is not None else None
    script = cmd.value if words is None else None
    shell = words is not None and len(words) >= 3 and posixpath.basename(words[0]) in _SHELLS
    if words is not None and shell and re.fullmatch(r"-[a-z]*c", words[1]):
        script = words[2]
    if script is not None:
        last = re.split(r"&&|\|\||;|\n", script)[-1]
        try:
            words = shell_split(last)
        except ValueError:
            return None
        if words[:1] == ["exec"]:
            words = words[1:]
    if not words:
        return None
    program = posixpath.basename(words[0])
    if program in _SHELLS or (program not in _NOT_SHELL and not re.fullmatch(r"python\d(?:\.\d+)?", program)):
        return None
    if program.startswith("python") and len(words) == 1:
        return None  # a Python prompt: the reader is in the interpreter
    return cmd, words


def _said_inside(doc: Document, fence: Fence, line: int, starts: list[int], firsts: list[int]) -> int | None:
    """The README line after the run at `line` saying the reader is in the container: a comment of the
    same block after the run, else the first paragraph after the block when no other block comes first
    (`starts`: the first line of each block, in order; `firsts`: of each paragraph)."""
    for number, text in fence.lines:
        if number > line and text.lstrip().startswith("#") and _says_inside(text):
            return number
    end = fence.lines[-1][0] if fence.lines else line
    later = bisect.bisect_right(starts, end)
    limit = starts[later] if later < len(starts) else None
    at = bisect.bisect_right(firsts, end)
    if at == len(firsts) or (limit is not None and firsts[at] > limit):
        return None
    return next((n for n, t in doc.paragraphs[at].lines if _says_inside(t)), None)


_SPAN_LINES = 3
"""How many lines after a run in a code span are read for words saying the reader is then inside."""


def _span_said_inside(doc: Document, para: int, index: int, starts: list[int]) -> int | None:
    """The README line after a run in a code span of prose (line `index` of paragraph `para`) saying the
    reader is in the container (`_says_inside`): one of the next `_SPAN_LINES` lines of its paragraph (a
    list of steps), else the first line of the next paragraph when no block comes between; None when
    none does, or a line before it gets in another way (`docker exec`) or starts another container."""
    lines = list(doc.paragraphs[para].lines[index + 1 : index + 1 + _SPAN_LINES])
    end = doc.paragraphs[para].lines[-1][0]
    if index + 1 + _SPAN_LINES >= len(doc.paragraphs[para].lines) and para + 1 < len(doc.paragraphs):
        following = doc.paragraphs[para + 1].lines[:1]
        block = bisect.bisect_right(starts, end)
        if following and (block == len(starts) or starts[block] > following[0][0]):
            lines += following
    for number, text in lines:
        if _OTHER_WAY_IN.search(text):
            return None
        if _says_inside(text):
            return number
    return None


def _span_builds(doc: Document) -> dict[str, set[str | None]]:
    """`built_repositories` of the `docker build` commands written in code spans of prose (`Build the image
    by running `docker build -t app .``)."""
    built: dict[str, set[str | None]] = {}
    for para in doc.paragraphs:
        for _, text in para.lines:
            if "build" not in text:
                continue
            for _, _, code in code_spans(text):
                if not BUILD.search(code):
                    continue
                flag = FILE_FLAG.search(code)
                file = (
                    flag.group(1) if flag is not None and not re.search(r"[<>${}]", flag.group(1)) else None
                )
                for tag in TAG_FLAG.findall(code):
                    if not re.search(r"[<>${}]", tag):
                        built.setdefault(image_repository(tag), set()).add(file)
    return built


def _span_runs(doc: Document) -> Iterator[tuple[int, str, Read, list[str], list[str], int, int]]:
    """(README line, image, its options as read, the words after the image, the options as written, the
    paragraph, the line's place in it) of each `docker run` / `create` written in a code span of prose
    whose options are all known."""
    for at, para in enumerate(doc.paragraphs):
        for index, (line, text) in enumerate(para.lines):
            if "docker" not in text:
                continue
            for _, _, code in code_spans(text):
                words = docker_words(code.strip())
                found = docker_verb(words) if words else None
                if words is None or found is None or found[0] not in ("run", "create"):
                    continue
                read = read_words(words[found[1] :], RUN)
                if read.complete and read.positional and IMAGE_WORD.fullmatch(read.positional[0]):
                    start = found[1] + read.after
                    options = words[found[1] : start - 1]
                    yield line, read.positional[0], read, words[start:], options, at, index


def shell_lines(doc: Document) -> Iterator[tuple[int, str, Read, bool, int, list[str]]]:
    """The commands a README types into the shell of a container it starts: an interactive `docker run`
    (`-it`, no `-d`, no `--entrypoint`) with no command after the image or a shell alone (`bash`,
    `/bin/bash`), followed in the same block by a comment saying the lines after it run inside the
    container (`# inside the container`, `# 容器内下载模型`): each command line after that comment up to
    the next docker command or `exit`, as (the run's README line, image, its options as read, whether
    the run names the shell, the line of the command, its words with leading `NAME=value` assignments
    dropped)."""
    commands: dict[int, tuple[list[list[tuple[int, str]]], list[int]]] = {}
    for line, image, read, after, options, fence in _fenced_runs(doc):
        if any(n == "--entrypoint" for n, _ in read.values):
            continue
        if after and not (len(after) == 1 and posixpath.basename(after[0]) in _SHELLS):
            continue
        flags = {c for w in options if re.fullmatch(r"-[A-Za-z]+", w) for c in w[1:]}
        flags |= {"i" for w in options if w == "--interactive"} | {"t" for w in options if w == "--tty"}
        if not {"i", "t"} <= flags or "d" in flags or "--detach" in options:
            continue
        if id(fence) not in commands:
            listed = list(fence_commands(fence))
            commands[id(fence)] = (listed, [lines[-1][0] for lines in listed])
        listed, ends = commands[id(fence)]
        inside = False
        for lines in listed[bisect.bisect_left(ends, line) + 1 :]:
            number = lines[0][0]
            text = joined(lines).strip()
            if text.startswith("#"):
                inside = inside or _INSIDE_SAID.search(text) is not None
                continue
            if not text:
                continue
            if text == "exit" or docker_words(text) is not None:
                break
            if not inside:
                continue
            try:
                words = shell_split(sh_code(text))
            except ValueError:
                continue
            while words and re.fullmatch(r"[A-Za-z_]\w*=\S*", words[0]):
                words = words[1:]
            if words:
                yield line, image, read, bool(after), number, words


def _interactive(read: Read, options: Sequence[str]) -> bool:
    """Whether a run's options (`options` as written, `read`) make it interactive (`-it`) and attached
    (no `-d`), with no `--entrypoint`."""
    if any(n == "--entrypoint" for n, _ in read.values):
        return False
    flags = {c for w in options if re.fullmatch(r"-[A-Za-z]+", w) for c in w[1:]}
    flags |= {"i" for w in options if w == "--interactive"} | {"t" for w in options if w == "--tty"}
    return {"i", "t"} <= flags and "d" not in flags and "--detach" not in options


def idle_shells(doc: Document, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """An interactive `docker run` (`-it`, no `-d`, no `--entrypoint`) of the README's own image with no
    command after the image, followed by words saying the reader is then inside the container (`Once
    inside the container, …`, `run `jupyter lab` inside the container`), while the image has no
    ENTRYPOINT and its CMD runs a program that is no shell (`sleep infinity`, `tail -f /dev/null`,
    `python3 serve.py`): the run starts that program, not a shell, and nothing typed reaches a shell
    (`likely`: the words are prose). The run is a command block's or, with the build naming the image,
    a code span's of a list of steps (`2. Run the container using `docker run -it app`.`)."""
    built = built_repositories(doc)
    for repository, files in _span_builds(doc).items():
        built.setdefault(repository, set()).update(files)
    if not built or not models:
        return
    starts = sorted(f.lines[0][0] for f in doc.fences if f.lines)
    firsts = [p.lines[0][0] if p.lines else 0 for p in doc.paragraphs]
    blocks = sorted(f.lines[0][0] for f in doc.fences if f.lines and not f.inline)
    runs: list[tuple[int, str, int | None]] = []
    for line, image, read, after, options, fence in _fenced_runs(doc):
        if not after and _interactive(read, options):
            runs.append((line, image, _said_inside(doc, fence, line, starts, firsts)))
    for line, image, read, after, options, para, index in _span_runs(doc):
        if not after and _interactive(read, options):
            runs.append((line, image, _span_said_inside(doc, para, index, blocks)))
    told: set[int] = set()
    for line, image, said in sorted(runs, key=lambda run: run[0]):
        model = own_model(image, built, models)
        started = _start_program(model) if model is not None else None
        if model is None or started is None or said is None or said in told:
            continue
        told.add(said)
        cmd, words = started
        written = json.dumps(list(cmd.exec_form)) if cmd.exec_form is not None else cmd.value
        yield Diagnostic(
            readme,
            line,
            f"README runs {image} with no command and then says you are inside the container (line "
            f"{said}), but {model.path}:{cmd.line} sets CMD {written}: the container runs "
            f"`{shlex.join(words)}`, not a shell (append bash to the run, or docker exec into it)",
            confidence=LIKELY,
        )


_BIN = re.compile(r"/(?:usr/(?:local/)?)?s?bin/?\Z|/opt/[\w.-]+/bin/?\Z")
"""A folder of the PATH a COPY puts programs in: `/usr/local/bin/`, `/usr/bin`, `/opt/app/bin/`."""
_COPY_LINE = re.compile(r"^[ \t]*(?:COPY|ADD)[ \t]+(.+?)[ \t]*$", re.IGNORECASE)


def _put_names(sources: Sequence[str], dest: str) -> list[str]:
    """The names of the programs a copy, move or link of `sources` to `dest` puts in a folder of the PATH:
    the sources' names when `dest` is that folder, the name `dest` gives one source there, else none."""
    if _BIN.search(dest):  # into the folder: the sources' names
        return [posixpath.basename(source.rstrip("/")) for source in sources]
    if _BIN.search(posixpath.dirname(dest)) and len(sources) == 1:  # to a path of it
        return [posixpath.basename(dest)]
    return []


def _copied_programs(model: ImageModel) -> dict[str, int]:
    """Name → Dockerfile line of each program a COPY (of the build context or of another stage) of the
    image's stages puts in a folder of the PATH (`COPY --from=builder /usr/local/bin/llama-quantize
    /usr/local/bin/`): a program the image holds besides the one its ENTRYPOINT starts."""
    text = text_or_none(Path(model.file)) if model.file else None
    if text is None:
        return {}
    chain = model.chain()
    found: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        copy = _COPY_LINE.match(line)
        if copy is None or line.rstrip().endswith("\\") or "$" in line or "[" in line:
            continue
        if model.stage_at(number) not in chain:
            continue  # a COPY of a stage the image is not built from
        words = [w for w in copy.group(1).split() if not w.startswith("--")]
        if len(words) < 2:
            continue
        *sources, dest = words
        for name in _put_names(sources, dest):
            if _PROGRAM.fullmatch(name) and "*" not in name:
                found.setdefault(name, number)
    return found


_PUTS = re.compile(r"(?:^|[;&|(]|\bthen|\bdo)[ \t]*(?:sudo[ \t]+)?(cp|install|ln|mv)[ \t]+([^;&|\n]+)")
"""A shell command that puts files somewhere (`cp build/bin/llama-* /usr/local/bin/`, `install -m 755 x
/usr/bin/x`, `ln -s /opt/app/run /usr/local/bin/app`): its words after the program."""
_VALUED = {"install": {"-m", "--mode", "-o", "--owner", "-g", "--group", "-t", "-S"}, "ln": {"-t", "-S"}}
"""Options of these commands that take the next word as their value."""
_NAME_PATTERN = re.compile(r"[A-Za-z*][\w.+*-]*")


def _installed_programs(model: ImageModel) -> list[tuple[str, int]]:
    """(name or glob pattern, Dockerfile line) of each program a RUN of the image's stages copies, moves,
    installs or links into a folder of the PATH (`cp build/bin/llama-* /usr/local/bin/` gives
    `llama-*`): programs the image holds besides the one its ENTRYPOINT starts."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return []
    chain = model.chain()
    found: list[tuple[str, int]] = []
    for instruction in read[1].instructions:
        if instruction.keyword != "RUN" or model.stage_at(instruction.start_line) not in chain:
            continue
        for match in _PUTS.finditer(instruction.args):
            valued = _VALUED.get(match.group(1), set())
            words: list[str] = []
            skip = False
            for word in match.group(2).split():
                if skip:
                    skip = False
                elif word.startswith("-"):
                    skip = word in valued
                else:
                    words.append(word.strip("\"'"))
            if len(words) < 2 or any("$" in w for w in words):
                continue
            *sources, dest = words
            found += [
                (name, instruction.start_line)
                for name in _put_names(sources, dest)
                if _NAME_PATTERN.fullmatch(name)
            ]
    return found


_TASK_WORD = re.compile(r"[A-Za-z]{4,}")


def _task_program(comment: str, programs: Sequence[str], started: str) -> str | None:
    """The one program of `programs` a command's comment names by its task (`# Quantize model` for
    `llama-quantize`, `# Benchmark` for `llama-bench`): a word of the comment starting with a part of
    the program's name (split at `-`, `_`) that the started program's name and the other programs'
    names lack, or with that part starting it; None when it names none, several, or the started one."""
    own = set(re.split(r"[-_.]", started.lower()))
    words = [w.lower() for w in _TASK_WORD.findall(comment)]
    parts: dict[str, list[str]] = {}
    for program in programs:
        for part in set(re.split(r"[-_.]", program.lower())):
            parts.setdefault(part, []).append(program)

    def names(word: str, part: str) -> bool:
        return len(part) >= 4 and (word.startswith(part) or part.startswith(word))

    if any(names(w, p) for w in words for p in own):
        return None  # the comment names the started program's task (`# Run server`)
    named = {parts[p][0] for w in words for p in parts if p not in own and len(parts[p]) == 1 and names(w, p)}
    return named.pop() if len(named) == 1 else None


def _comment_before(fence: Fence, line: int) -> str:
    """The comment lines of `fence` just above the command starting at or before README line `line`
    (`# Quantize model`), with no command between."""
    said: list[str] = []
    for number, text in fence.lines:
        if number >= line:
            break
        stripped = text.strip()
        if stripped.startswith("#"):
            said.append(stripped.lstrip("#"))
        elif stripped:
            said = []  # a command ends what the comments before it said
    return " ".join(said)


_STANDALONE = frozenset(
    "bash sh zsh dash ash fish python python3 ipython nvidia-smi nvcc rocminfo rocm-smi amd-smi "
    "rocm_agent_enumerator hipconfig hipcc clinfo vulkaninfo nvtop radeontop intel_gpu_top xpu-smi sycl-ls "
    "lspci lscpu lsusb nproc uname whoami hostname printenv ldd".split()
)
"""Programs a README runs in a container of an image to look at it (a shell, Python, the GPU's tools):
no program takes one of them as its subcommand or argument, so after an ENTRYPOINT program it is meant
to run, and does not."""


def _entered(doc: Document) -> dict[str, tuple[int, set[str]]]:
    """Each image repository the README's runs give `--entrypoint` → (the line of the first, the programs
    they name): the README knows those run only so."""
    found: dict[str, tuple[int, set[str]]] = {}
    for line, image, read, _, _, _ in _fenced_runs(doc, podman=True):
        for name, value in read.values:
            if name == "--entrypoint" and value:
                at, names = found.setdefault(image_repository(image), (line, set()))
                names.add(posixpath.basename(value))
    return found


def _meant_program(
    word: str,
    model: ImageModel,
    entered: set[str],
    copied: dict[str, int],
    installed: Sequence[tuple[str, int]],
) -> tuple[str, int | None, bool] | None:
    """(the program, the Dockerfile line putting it in the image, whether the run surely means it) when the
    first word after the image names a program other than the ENTRYPOINT's: one a COPY or a RUN puts in a
    folder of the PATH (sure), one the README runs with `--entrypoint` elsewhere, or a program run to look
    at a container (`_STANDALONE`: `rocminfo`, `bash`); None for any other word (a subcommand, a file).
    `copied`, `installed`: `_copied_programs(model)`, `_installed_programs(model)`."""
    name = posixpath.basename(word)
    if word.startswith("/") and (not _BIN.search(posixpath.dirname(word)) or not _PROGRAM.fullmatch(name)):
        return None  # a path that is no program of the PATH: a file argument
    if not word.startswith("/") and not _PROGRAM.fullmatch(word):
        return None
    if name in copied:
        return name, copied[name], True
    for pattern, line in installed:
        if fnmatch.fnmatchcase(name, pattern):
            return name, line, True
    if name in entered or name in _STANDALONE:
        return name, None, False
    return None


def other_programs(
    doc: Document, readme: str, models: Sequence[ImageModel], directory: Path | None
) -> Iterator[Diagnostic]:
    """A `docker run` (or `podman run`) of the README's own image, with no `--entrypoint`, meant for another
    program than the one its exec-form ENTRYPOINT starts (`ENTRYPOINT ["llama-server"]`): docker appends
    the words after the image to the ENTRYPOINT, so that program never runs. Either the first word after
    the image names it (`IMAGE llama-quantize m.gguf …`, `IMAGE rocminfo`: `llama-server rocminfo`), a
    program a COPY or RUN puts in a folder of the PATH, one the README runs with `--entrypoint` elsewhere,
    or one run to look at a container (`_STANDALONE`: a shell, Python, the GPU's tools); or the words start
    with an option and the comment above the command names the task of a program the image copies in
    (`# Quantize model` over `IMAGE -q m.gguf …`). `certain` for a program the image puts on the PATH,
    run in an image a build of the README tags; `likely` otherwise, and for an image the README does not
    build that its title, the Dockerfile's folder or its OCI labels name (`titled_image`), one Dockerfile
    audited. Left alone as `doubled_programs`: a shell, a wrapper or a script ENTRYPOINT (it may `exec
    "$@"`), one followed by `--` or `run`, the shell form, a word that is no program (a subcommand: `ollama
    serve`; a file: `python3 generate.py`), and a comment naming the ENTRYPOINT's own task or several
    programs."""
    if not models:
        return
    built = built_repositories(doc)
    entered: dict[str, tuple[int, set[str]]] | None = None
    entrypoint = _per_model(lambda model: _program_entrypoint(model, directory))
    copied = _per_model(_copied_programs)
    installed = _per_model(_installed_programs)
    for line, image, read, after, _, fence in _fenced_runs(doc, podman=True):
        if not after or any(n == "--entrypoint" for n, _ in read.values):
            continue
        model = own_model(image, built, models)
        own = model is not None
        if model is None and not built and len(models) == 1 and titled_image(doc, image, models[0]):
            model = models[0]
        setting = entrypoint(model) if model is not None else None
        if model is None or setting is None or not setting.exec_form:
            continue
        words = list(setting.exec_form)
        started = posixpath.basename(words[0])
        head = f"{model.path}:{setting.line} sets ENTRYPOINT {json.dumps(words)}"
        if not after[0].startswith("-"):
            if _same_program(after[0], words[0]) or words[-1].startswith("-"):
                continue  # the program again (`doubled_programs`), or the value of its last option
            entered = _entered(doc) if entered is None else entered
            given = entered.get(image_repository(image), (0, set()))[1]
            meant = _meant_program(after[0], model, given, copied(model), installed(model))
            if meant is None:
                continue
            program, at, sure = meant
            confidence = CERTAIN if sure and own else LIKELY
            said = f"README runs {image} {after[0]} …, meaning {program}"
            if at is not None:
                held = f" ({model.path}:{at})"
            elif program in entered.get(image_repository(image), (0, set()))[1]:
                held = f" (line {entered[image_repository(image)][0]} runs it with --entrypoint)"
            else:
                held = ""
            fix = after[0]
        else:
            programs = {n: at for n, at in copied(model).items() if n != started}
            comment = _comment_before(fence, _start_of(fence, line)).strip()
            task = _task_program(comment, sorted(programs), started) if programs and own else None
            if task is None:
                continue
            program, confidence = task, LIKELY
            said = f'README runs {image} {shlex.join(after[:2])} … under "# {comment}", meaning {program}'
            held, fix = f" ({model.path}:{programs[program]})", program
        yield Diagnostic(
            readme,
            line,
            f"{said}, but {head}: docker appends the words after the image to it, so the container runs "
            f"{shlex.join(words)} {shlex.join(after[:2])} … and {program}{held} never starts (use "
            f"--entrypoint {fix})",
            confidence=confidence,
        )


def _start_of(fence: Fence, line: int) -> int:
    """The README line where the command holding README line `line` starts: after the last line above
    it that does not end with `\\`."""
    first = line
    numbers = [n for n, _ in fence.lines]
    texts = dict(fence.lines)
    at = bisect.bisect_left(numbers, line)
    while at > 0 and texts[numbers[at - 1]].rstrip().endswith("\\"):
        at -= 1
        first = numbers[at]
    return first
