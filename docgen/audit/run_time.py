"""Claims about what a container of the image does at run time that the image cannot honour:

- an environment variable the README documents as a setting of the container (a row of a table, or an
  item of a list, under an environment-variables heading; `-e NAME=…` in a `docker run` of an image
  the README builds) that no ENV of the image's stages sets while its Dockerfile declares it as a build
  arg a build step reads (`git checkout v${WEBUI_VERSION}`, `if [ "$CPU_ONLY" = true ]` writing start
  flags) — an ENV that only carries that arg into the build (`ENV CPU_ONLY=${CPU_ONLY}`) counting as
  none —, or that the entrypoint script the image copies in and starts gives a value of its own before
  reading it (`ROCM_VERSION="6.4"` on its second line), or that the script never reads while it passes
  its program the option of that name with a value of its own and a stage takes the name as a build arg
  (`ARG MODEL`, `--model ./model`: `likely`): a value passed with `-e` changes nothing;
- a variable a sentence tells the user to set (`` Edit the `PYTORCH_INDEX` environment variable ``), or
  one of those entries, that a RUN reads while no ARG or ENV of the image declares it (`pip install
  torch --index-url $PYTORCH_INDEX`): the build sees it empty whatever the user sets, for the build
  (`export`, `--build-arg` with no ARG) or for the container (`-e`, compose `environment:`), which comes
  after the build;
- a user a `docker run --user NAME` of the image names that the image has not: no `useradd` or
  `adduser` of its RUNs and no USER makes it, and its base is an OS or CUDA image known to bring no
  login user but its own (`ubuntu` from 24.04 on);
- the path of the script the README says the container starts (`` `/var/entrypoint.sh` is executed
  when the container starts ``) when the image's ENTRYPOINT or CMD starts a script of that name that a
  COPY puts elsewhere (`COPY entrypoint.sh /usr/local/bin/`).

Left alone, as the image may honour them after all: a variable the application or a library reads itself
(`HF_TOKEN`, `CUDA_VISIBLE_DEVICES`, `VLLM_*`, `PYTORCH_*`, `MAX_JOBS` …: docgen cannot see the
application), one the ENTRYPOINT, CMD or a file the image copies in names, one an ENV of any image
compared sets, a build arg named like a variable a GPU base image sets (`CUDA_*`, `ROCM_*`) or one that
only picks the base (a global ARG), a table or list about a build (its headings or its row say so); a
base image that may bring users (NGC, Jupyter, node, an image a sibling Dockerfile builds), users made
by other means (`/etc/passwd`, a script of the build context); an entrypoint the base sets. Each finding
is read from a table, a list under an environment-variables heading, a command or a file path, and is
`certain`.
"""

from __future__ import annotations

import functools
import itertools
import os
import posixpath
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, dockerfile_read
from docgen.audit.commands import (
    fence_commands,
    image_repository,
    joined,
    joined_line,
    joined_starts,
    last_name,
)
from docgen.audit.names import docker_run, image_at
from docgen.audit.settings import Image
from docgen.audit.wording import (
    BUILD_ARG_WORDS,
    CODE_NAME,
    LIST_ITEM,
    about_env,
    heading_of,
    line_at,
    sentences,
)
from docgen.base_contents import is_plain
from docgen.copied import (
    FILE_LIMIT,
    CopiedFile,
    context_path,
    copied_files,
    dockerignore,
    glob_matches,
    placed,
)
from docgen.errors import MAX_FILE_BYTES
from docgen.files import text_or_none
from docgen.markdown import Document, code_spans, headings_over
from docgen.model import Diagnostic, ImageModel, Instruction, Setting
from docgen.script_env import Override, overrides

# --------------------------------------------------------------------------------------------------
# what the image does at run time

APP_READ = re.compile(
    r"\A(?:HF|HUGGING\w*|TRANSFORMERS|TOKENIZERS|VLLM|SGLANG|PYTORCH|TORCH(?!_VERSION\Z)|OMP|MKL|KMP|NCCL"
    r"|NVIDIA|CUDA_VISIBLE|HIP|ROCR|HSA|GPU_DEVICE|ZE|ONEAPI|SYCL|XLA|TF|JAX|LD|PIP|UV|CONDA|GRADIO|STREAMLIT"
    r"|OPENAI|ANTHROPIC|AWS|AZURE|GOOGLE|GCP|WANDB|MLFLOW|PYTHON|NODE|NPM|JAVA|LC|DEBIAN|TERM)(?:_|\Z)"
    r"|\A(?:PATH|HOME|USER|TZ|LANG|SHELL|PWD|HOSTNAME|PORT|HOST|MAX_JOBS|NVCC_THREADS|CC|CXX|MAKEFLAGS)\Z"
    r"|\A(?:CMAKE|CCACHE)_"
    r"|(?:TOKEN|KEY|SECRET|PASSWORD|PASS|URL|URI|HOST|PORT|PROXY|DIR|PATH|HOME)\Z",
    re.IGNORECASE,
)
"""Names the application, a library or the shell reads itself: a value passed with `-e` may reach it
whatever the Dockerfile does (`HF_TOKEN`, `CUDA_VISIBLE_DEVICES`, `VLLM_*`, `TORCH_HOME`, `MODEL_DIR`; not
`TORCH_VERSION`, which PyTorch does not read)."""
_LIBRARY_READ = re.compile(
    APP_READ.pattern.split("|(?:TOKEN|KEY")[0] + r"|(?:TOKEN|KEY|SECRET|PASSWORD|PROXY)\Z", re.IGNORECASE
)
"""`APP_READ` but for the names ending like a program's setting (`_DIR`, `_PATH`, `_URL`): the names a
library, a tool or the shell reads, whatever starts them."""
LIBRARY_READ = _LIBRARY_READ
_BASE_SET = re.compile(r"\A(?:CUDA|ROCM|CUDNN|NV|CANN|ASCEND|OPENVINO|INTEL|ONEAPI|MAGMA)_", re.IGNORECASE)
"""Names a GPU base image may set with ENV itself (`CUDA_VERSION` in nvidia/cuda): no claim unless the
image starts from a plain OS or language image."""

_NO_USERS = re.compile(
    r"\A(?:(?:docker\.io/)?(?:library/)?(?:ubuntu|debian|alpine|centos|rockylinux|almalinux|fedora"
    r"|amazonlinux|python|buildpack-deps)"
    r"|(?:docker\.io/|nvcr\.io/)?nvidia/(?:cuda|cudagl)|(?:docker\.io/)?rocm/dev-(?:ubuntu|centos|almalinux)[\w.-]*)\Z"
)
"""Base images (repositories) that bring no login user of their own but `ubuntu` from Ubuntu 24.04."""
_NEW_UBUNTU = re.compile(r"ubuntu[-:]?(?:2[4-9]|[3-9]\d)\.\d\d|\b(?:noble|oracular|plucky)\b")
_SYSTEM_USERS = frozenset(
    "root nobody daemon bin sys sync games man lp mail news uucp proxy www-data backup list irc gnats "
    "_apt messagebus systemd-network systemd-resolve systemd-timesync sshd syslog".split()
)
_MAKES_USER = re.compile(r"\b(?:useradd|adduser|usermod[ \t]+-l)\b((?:[^;&|\n\\]|\\[\s\S])*)")
"""A command making a user and its words, up to the end of its line (a here-document's line continued
with a backslash goes on)."""
_WRITES_USERS = re.compile(r"/etc/passwd|\bnewusers\b|\bvipw\b|\bsssd\b")
"""A RUN making users by other means than `useradd` and `adduser`."""
_DOCUMENTS = frozenset({".md", ".markdown", ".rst"})
"""Documents a COPY brings in with the code (`COPY . .`): what they name, no program reads."""
_EXPAND = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")
_MAY_SET = re.compile(r"(?:^|[;&|(]|\bthen\b|\bdo\b)[ \t\\\n]*(?:source|\.|eval)[ \t]", re.M)
"""A shell command that may set variables the Dockerfile does not show (`. /etc/os-release`, `eval`)."""
_ACTIVATE = re.compile(r"(?:source|\.)[ \t]+\S*bin/activate\b[^;&|\n]*")
"""Entering a Python virtual environment (`source venv/bin/activate`): it sets no variable of the README's."""
_INSTALL_SOURCE = (
    r"(?:--(?:extra-)?index-url|--find-links|--branch|--tag|--version|\bcheckout|\bclone|==|@)"
    r"[ \t=]*[\"']?\$\{{?{name}\b"
)
"""A read of a variable that picks what the build installs (`--index-url $PYTORCH_INDEX`, `==${VER}`)."""


class RunImage(Image):
    """What one model's image does when a container starts: besides its stages and settings
    (`settings.Image`), its ENV names, the build args its steps read, the users it makes, its
    ENTRYPOINT and CMD and the files it copies in."""

    def __init__(self, model: ImageModel) -> None:
        super().__init__(model)
        self.env = {e.name for e in model.env if e.stage in self.labels}
        self.values = {a.name: a.default or "" for a in model.args if a.default}
        self.values.update({e.name: e.value or "" for e in model.env if e.stage in self.labels})

    def commands(self) -> list[Setting]:
        """The last ENTRYPOINT and the last CMD of the image's stages (those a container starts)."""
        return [s for s in (self.last("ENTRYPOINT"), self.last("CMD")) if s is not None]

    def _from_workdir(self, dest: str, line: int) -> str | None:
        """A COPY's destination `dest` (at Dockerfile line `line`) as an absolute path: a relative one
        (`./`, `app/`) joined to the absolute WORKDIR of the image's stages last set before the COPY;
        None when that WORKDIR is not one (relative, a variable) or none is set."""
        if dest.startswith("/"):
            return dest
        workdir = next(
            (
                s.value
                for s in reversed(self.model.settings)
                if s.keyword == "WORKDIR" and s.stage in self.labels and s.line < line
            ),
            None,
        )
        if workdir is None or not workdir.startswith("/") or "$" in workdir:
            return None
        joined = posixpath.normpath(posixpath.join(workdir, dest))
        return joined.rstrip("/") + "/" if dest.endswith("/") or dest in (".", "./") else joined

    def copied_to(self, name: str) -> tuple[str, int] | None:
        """(path in the image, Dockerfile line) of the file of the build context named `name` (a
        file name) that the image's stages copy in; None when none does or its place is not told."""
        for copy in reversed(self.model.context_copies):
            if copy.stage not in self.indexes or copy.heredoc:
                continue
            if not any(_copies(src, name) for src in copy.sources):
                continue
            dest = self._from_workdir(copy.dest.strip("\"'"), copy.line)
            if dest is None or not dest.startswith("/") or "$" in dest:
                return None
            if (
                dest.endswith("/")
                or len(copy.sources) > 1
                or any(_GLOB.search(src) or _whole(src) for src in copy.sources)
            ):
                return posixpath.join(dest, name), copy.line
            return dest, copy.line
        return None

    def script(self) -> tuple[str, Path, int] | None:
        """(name, file in the build context, COPY line) of the shell script the image's ENTRYPOINT (or
        CMD) starts, when a COPY of the image puts it there and it is beside the Dockerfile (not
        through `..` or a link leading out of the Dockerfile's folder). Found once: asked for each
        variable a README sets, a CMD of thousands of words was read again for each."""
        return self._script

    @functools.cached_property
    def _script(self) -> tuple[str, Path, int] | None:
        if not self.model.file:
            return None
        for setting in self.commands():
            for word in SCRIPT_WORD.findall(setting.value):
                name = posixpath.basename(word)
                copied = self.copied_to(name)
                if copied is None and word.startswith("/"):
                    found = self._placed_at(posixpath.normpath(word))
                    if found is not None:
                        return (name, *found)
                if copied is None or (word.startswith("/") and copied[0] != word):
                    continue
                path = self.context_file(name)
                if path is not None:
                    return name, path, copied[1]
        return None

    def _placed_at(self, where: str) -> tuple[Path, int] | None:
        """(file of the build context, COPY line) of the file the image's stages put at the absolute
        path `where` by copying a folder to an absolute place (`COPY scripts/ /scripts/` puts
        scripts/start.sh at /scripts/start.sh), as `docgen.copied.placed` reads a copy; None when no
        such copy puts a file there (the last copy that does wins)."""
        if not self.model.file:
            return None
        try:
            folder = Path(self.model.file).parent.resolve()
            rules = dockerignore(folder, self.model.file)
        except (OSError, RuntimeError):
            return None
        for copy in reversed(self.model.context_copies):
            dest = copy.dest.strip("\"'")
            if copy.stage not in self.indexes or copy.heredoc or not dest.startswith("/") or "$" in dest:
                continue
            try:
                found = placed(folder, copy, where, "/", rules)
            except (OSError, ValueError, NotImplementedError):
                continue
            if found is not None:
                return (found, copy.line) if os.path.isfile(found) else None
        return None

    def context_file(self, name: str, line: int | None = None) -> Path | None:
        """The file named `name` of the build context (the Dockerfile's folder) that a COPY of the
        image (at Dockerfile line `line`, when given) whose source names it (`_copies`) puts in the
        image, as `docgen.copied` reads a copy (no link out of the context, the `.dockerignore`
        applied); None when none does."""
        if not self.model.file:
            return None
        try:
            folder = Path(self.model.file).parent.resolve()
        except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
            return None
        copies = [c for c in self.model.context_copies if c.stage in self.indexes]
        copies = [c for c in copies if line is None or c.line == line]
        for copied in copied_files(folder, copies, self.model.file):
            if copied.path is None or copied.name != name or not _copies(copied.source, name):
                continue
            if not _whole(copied.source) or copied.path.parent == folder:
                return copied.path
        return None

    def env_fact(self, name: str) -> str | None | bool:
        """Why `name` set at run time does not reach a container of the image (the Dockerfile line or
        script that shows it); None when it may reach it; False when the Dockerfile says nothing of it."""
        if name in self.env:
            return self._carried_fact(name) or self.flag_fact(name)
        if (fact := self.script_fact(name)) is not None:
            return fact
        # (a global arg picks the base image, which may set a variable of that name: `CUDA_VERSION`)
        decls = [a for a in self.model.args if a.name == name and a.used_lines and a.scope != "global"]
        if not decls:
            return self.undeclared_fact(name) if not any(a.name == name for a in self.model.args) else None
        if name in self._read_at_run_time:
            return None  # what the container starts, or a file the image copies in, names it: it may read it
        if _BASE_SET.match(name) and not (self.root is not None and is_plain(self.root.base)):
            return None  # a GPU base image may set it itself
        line = decls[0].line
        return (
            f"{self.model.path}:{line} declares it only as a build arg (ARG {name}, read at build time "
            f"on line {decls[0].used_lines[0]}); no ENV sets it in the image"
        )

    def script_fact(self, name: str) -> str | None:
        """Where the script the image starts (`script`) gives `name` a value of its own before reading
        it, in a part every run goes through (`docgen.script_env.overrides`, no file test decided, an
        `exec` ending it): a value passed with `-e` is overwritten. None when it does not."""
        script = self.script()
        if script is None:
            return None
        found = _script_overrides(script[1])
        if name not in found:
            return None
        over = found[name]
        return f"{script[0]}:{over.line}, which the image starts, sets {name}={over.value}"

    def unread_fact(self, name: str) -> str | None:
        """Why `name`, passed with `-e` to a run of the image, is read by nothing: the image's ENTRYPOINT
        is a script a RUN of the Dockerfile writes (`echo '…' > /usr/bin/entry.sh`), which reads variables
        the Dockerfile's ENV sets, some of the same first word (`MODEL_BASE_PATH` for `MODEL_DIR`), and
        neither the Dockerfile nor a file the image copies in names `name`; None otherwise (the
        application may read it)."""
        entry = self.last("ENTRYPOINT")
        read = dockerfile_read(self.model.file) if self.model.file else None
        if entry is None or read is None or not entry.exec_form or not entry.exec_form[0].startswith("/"):
            return None
        if name in self._read_at_run_time or re.search(rf"\b{name}\b", read[0]):
            return None
        start = entry.exec_form[0]
        writes = [r for r in self._runs if re.search(rf">[ \t]*[\"']?{re.escape(start)}(?![\w./-])", r.body)]
        if len(writes) != 1:
            return None
        reads = dict.fromkeys(re.findall(r"\$\{?([A-Z][A-Z0-9_]*)", writes[0].body))
        word = name.split("_")[0]
        own = {e.name: e.line for e in self.model.env if e.stage in self.labels and not e.inherited}
        near = [n for n in reads if n in own and n != name and n.split("_")[0] == word]
        if len(word) < 3 or not near:
            return None
        shown = ", ".join(f"{n} (ENV line {own[n]})" for n in near)
        return f"{self.model.path}:{writes[0].start_line} writes the ENTRYPOINT {start}, which reads {shown}"

    def flag_fact(self, name: str) -> str | None:
        """Why `name`, an ENV of the image that a stage also takes as a build arg (`ARG MODEL`, the model
        baked in at build time), set at run time changes nothing: the script the image starts
        (`script`) never names it and gives the program it starts the option named like it with a value
        of its own (`--model ./model` for `MODEL`, `--max-len 4096` for `MAX_LEN`), which wins over any
        environment. None otherwise, and for a name a library reads itself (`APP_READ`), when the
        ENTRYPOINT or CMD names it, or when a file copied into the image that the container may run
        names it or cannot be read: the script runs a file of the build context (its imports are not
        known), or a copied file no RUN of the build runs (a file a RUN runs and the script does not,
        `RUN python3 load.py`, is the build's)."""
        script = self.script()
        if script is None or APP_READ.search(name) or not self.model.file:
            return None
        decls = [a for a in self.model.args if a.name == name and a.scope != "global"]
        text = text_or_none(script[1], MAX_FILE_BYTES) if decls else None
        if text is None:
            return None
        word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")
        if word.search(text) or any(word.search(s.value) for s in self.commands()):
            return None
        flag = re.escape(name.lower()).replace("_", "[-_]")
        given = re.compile(rf"(?<![\w-])(--{flag})(?:[ \t]+|=)([^\s;&|]+)")
        # (a comment's `--model ./model` runs nothing: its lines are blanked, the numbering kept)
        code = re.sub(r"(?m)^[ \t]*#.*$", "", text)
        values = [(code.count("\n", 0, m.start()) + 1, m.group(1), m.group(2)) for m in given.finditer(code)]
        if not values or any(re.search(r"[$`\\]|\A-", v) for _, _, v in values):
            return None
        try:
            folder = Path(self.model.file).parent.resolve()
        except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
            return None
        copies = [c for c in self.model.context_copies if c.stage in self.indexes]
        copied = list(itertools.islice(copied_files(folder, copies, self.model.file), _MAX_FILES))
        if len(copied) >= _MAX_FILES:
            return None  # (the files past the limit are not read)
        names = {c.path.name if c.path is not None else posixpath.basename(c.source) for c in copied}
        names -= {n for n in names if _MANIFEST.fullmatch(n)}
        built = " ".join(r.original or r.args for r in self._runs)
        runs = {posixpath.basename(w) for w in _PROGRAM_FILE.findall(text)} - {script[0]}
        if runs - names:
            return None  # a program file the build context does not give: what it reads is not known
        starts_own = any(
            n != script[0] and re.search(rf"(?<![\w.-]){re.escape(posixpath.splitext(n)[0])}\b", text)
            for n in names
        )
        for found in copied:
            named = found.path.name if found.path is not None else posixpath.basename(found.source)
            if named == script[0]:
                continue
            if not starts_own and re.search(rf"(?<![\w.-]){re.escape(named)}(?![\w-])", built):
                continue  # run by a build step only
            body = text_or_none(found.path, MAX_FILE_BYTES) if found.path is not None else None
            if body is None and _MANIFEST.fullmatch(named):
                continue  # a package list a saved copy left out: it runs nothing
            if body is None or word.search(body):
                return None
        line, option, value = values[0]
        shown = value.strip("\"'")
        return (
            f"{script[0]}:{line}, which the image starts, {_PASSES} {option} {shown} "
            f"and never reads {name} ({self.model.path}:{decls[0].line} takes it as a build arg, ARG {name})"
        )

    def _carried_fact(self, name: str) -> str | None:
        """Why `name`, an ENV of the image, set at run time changes nothing: every ENV of that name the
        image's stages write only carries a build arg of the same name into the build
        (`ENV WEBUI_VERSION=${WEBUI_VERSION}`, the arg read nowhere else), a RUN reads it to pick what
        it builds (`git checkout v${WEBUI_VERSION}`, `if [ "$CPU_ONLY" = true ]`) and nothing the
        container starts or copies in names it. None otherwise: the application may read the ENV."""
        read = dockerfile_read(self.model.file) if self.model.file else None
        if read is None or APP_READ.search(name) or name in self._read_at_run_time:
            return None
        own = [e for e in self.model.env if e.name == name and e.stage in self.labels and not e.inherited]
        decls = [a for a in self.model.args if a.name == name and a.scope != "global"]
        envs = {i.start_line: i for i in read[1].instructions if i.keyword == "ENV"}
        carried = re.compile(rf"(?<![\w$]){name}=[\"']?\$(?:{name}\b|\{{{name}\}})[\"']?(?!\S)")
        if (
            not own
            or not decls
            or any(e.line not in envs or not carried.search(envs[e.line].args) for e in own)
        ):
            return None
        if any(set(a.used_lines) - {e.line for e in own} for a in decls):
            return None  # the arg is read elsewhere too
        quoted = re.compile(rf"'[^']*\$\{{?{name}\b[^']*'")
        picks = re.compile(
            _INSTALL_SOURCE.format(name=re.escape(name))
            + rf"|\b(?:checkout|--branch|-b)[ \t]+[\w./-]*\$\{{?{name}\b"
            + rf"|\b(?:if|elif)[ \t]+\[\[?[ \t]+[\"']?\$\{{?{name}\b|\bcase[ \t]+[\"']?\$\{{?{name}\b"
        )
        choice = None
        for inst in self._runs:
            if inst.heredocs and re.search(rf"\$\{{?{name}\b", inst.body) or quoted.search(inst.original):
                return None  # a script the build writes may read it when the container runs
            if choice is None and picks.search(inst.original or inst.args):
                choice = inst.start_line
        if choice is None:
            return None
        return (
            f"{self.model.path}:{decls[0].line} declares it as a build arg (ARG {name}), which ENV {name} "
            f"on line {own[0].line} only carries into the build step that reads it on line {choice}; "
            "nothing the container starts reads it"
        )

    def undeclared_read(self, name: str) -> int | None:
        """The Dockerfile line of a RUN of the image's stages that reads `name` to pick what it installs
        (`--index-url $PYTORCH_INDEX`, `git checkout ${WEBUI_REF}`) while no ARG or ENV declares it;
        None when none does, or the RUN may set it itself (it sources a file, exports or assigns it, a
        BuildKit secret of that name). A RUN reading it otherwise (`download.py --model $MODEL_ID`) is
        no fact: the application may read the same name when the container runs."""
        if not self.model.file or any(a.name == name for a in self.model.args) or name in self.env:
            return None
        lines = {at for read, at in self.model.unbound_reads if read == name}
        for inst in self._runs:
            if inst.start_line not in lines:
                continue
            text = inst.original or inst.args
            if _MAY_SET.search(_ACTIVATE.sub(" ", text)) or re.search(
                rf"\bexport[ \t]+{name}\b|(?<![\w$]){name}=|\bid={name}\b|\benv={name}\b", text
            ):
                return None
            if re.search(_INSTALL_SOURCE.format(name=re.escape(name)), text):
                return inst.start_line
        return None

    def undeclared_fact(self, name: str) -> str | None | bool:
        """Why setting `name` cannot change a RUN that reads it undeclared (`undeclared_read`); False when
        no RUN does, None when something in the container may read it (what it starts or copies in) or
        a GPU base image may set it."""
        read = self.undeclared_read(name)
        if read is None:
            return False
        if name in self._read_at_run_time:
            return None
        if _BASE_SET.match(name) and not (self.root is not None and is_plain(self.root.base)):
            return None
        return (
            f"{self.model.path}:{read} reads it in a RUN while no ARG or ENV declares it: the build "
            "sees it empty"
        )

    @functools.cached_property
    def _runs(self) -> list[Instruction]:
        """The RUN instructions of the model's Dockerfile (none when it cannot be read)."""
        read = dockerfile_read(self.model.file)
        if read is None:
            return []
        return [i for i in read[1].instructions if i.keyword == "RUN"]

    @functools.cached_property
    def _read_at_run_time(self) -> frozenset[str]:
        """The UPPER_SNAKE words of the image's ENTRYPOINT and CMD and of the files of the build context
        its COPY instructions copy in (a bounded number of text files, folders walked): the variables
        something in the container may read."""
        words: set[str] = set()
        for setting in self.commands():
            words.update(_UPPER_WORD.findall(setting.value))
        if not self.model.file:
            return frozenset(words)
        try:
            folder = Path(self.model.file).parent.resolve()
        except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
            return frozenset(words)
        budget = _MAX_FILES
        for seen, copied in enumerate(copied_files(folder, self.model.context_copies, self.model.file)):
            if budget <= 0 or seen >= FILE_LIMIT:
                break  # (files passed over count too: a large hidden folder is not walked to its end)
            path = copied.path
            if path is None or path.suffix.lower() in _BINARY or _hidden_below(copied, folder):
                continue
            if path.suffix.lower() in _DOCUMENTS:
                continue  # (a README copied in with the rest: no program reads the variables it names)
            try:
                if path.stat().st_size > MAX_FILE_BYTES:
                    continue
                budget -= 1
                words.update(_UPPER_WORD.findall(path.read_text(encoding="utf-8", errors="replace")))
            except OSError:
                continue
        return frozenset(words)

    def users(self) -> set[str] | None:
        """The users a container of the image may run as, by name; None when that cannot be told (a base
        image that may bring its own, a user made from a value docgen cannot expand)."""
        if self.root is None or not self.model.file:
            return None
        base = self.root.base
        if any(base == s.label for s in self.model.stages) or _NO_USERS.match(image_repository(base)) is None:
            return None
        users = set(_SYSTEM_USERS)
        if _NEW_UBUNTU.search(base.lower()):
            users.add("ubuntu")
        read = dockerfile_read(self.model.file)
        if read is None:
            return None
        # a file of the build context a RUN runs (`RUN ./setup-user.sh`) may make users docgen cannot see
        copied = {posixpath.basename(src) for copy in self.model.context_copies for src in copy.sources}
        for inst in read[1].instructions:
            if inst.keyword == "USER":
                users.add(inst.args.split(":", 1)[0].strip())
            if inst.keyword != "RUN":
                continue
            text = inst.body  # the RUN's line and each here-document's body, a newline between
            if _WRITES_USERS.search(text) or any(w in copied for w in re.findall(r"[\w.+-]+", text)):
                return None
            for made in _MAKES_USER.finditer(text):
                for word in made.group(1).replace("\\\n", " ").split():
                    if word.startswith("-"):
                        continue
                    value = _EXPAND.sub(lambda m: self.values.get(m.group(1), "\0"), word).strip("\"'")
                    if "\0" in value or "$" in value or "`" in value:
                        return None
                    users.add(value)
        return {_EXPAND.sub(lambda m: self.values.get(m.group(1), m.group(0)), u) for u in users}


_UPPER_WORD = re.compile(r"\b[A-Z][A-Z0-9_]{2,}\b")
_MAX_FILES = 400
"""How many files of the build context the image copies in are read for the variables they name."""
_BINARY = frozenset({".png", ".jpg", ".jpeg", ".gif", ".whl", ".tar", ".gz", ".zip", ".bin", ".so", ".pt"})


_GLOB = re.compile(r"[*?\[]")


SCRIPT_WORD = re.compile(r"(?<![\w./-])[\w./-]+\.sh\b")
"""A shell script an ENTRYPOINT or CMD names (`/usr/local/bin/start.sh`), read from the start of its
word (a long word is gone over once, not from each letter)."""


def _whole(src: str) -> bool:
    """True when the COPY source `src` is the whole build context (`COPY . .`, `COPY ./ /app/`)."""
    return posixpath.normpath(src) == "."


def _copies(src: str, name: str) -> bool:
    """True when the COPY source `src` copies a file named `name`: its own name, a pattern of its last
    part that the name matches (`ADD root/* /` copies `start.sh`), or the whole build context (`COPY .
    .`: a file of that name at its top, which `RunImage.context_file` checks)."""
    last = posixpath.basename(src.rstrip("/"))
    return last == name or (_GLOB.search(last) is not None and glob_matches(last, name)) or _whole(src)


def _hidden_below(copied: CopiedFile, folder: Path) -> bool:
    """True when the file `copied` (of the build context `folder`) is a hidden one (`.env`), or in a
    hidden folder, below the folder its COPY source names: a folder's dot files are no script's
    configuration a README sets (a file named itself is read)."""
    if copied.path is None:
        return False
    source = context_path(copied.source) or "."
    parts = copied.path.relative_to(folder).parts
    named = 0 if source == "." else len(source.split("/"))
    return any(part.startswith(".") for part in parts[named:])


def _script_overrides(path: Path) -> dict[str, Override]:
    """What the script at `path` sets before reading it, run in the image (no file of the checkout)."""
    text = text_or_none(path)
    if text is None:
        return {}
    return dict(overrides(text, None, lambda _: None))


# --------------------------------------------------------------------------------------------------
# the README's claims

_ABOUT_BUILD = re.compile(r"\bbuild(?:s|ing)?\b|\bcompil|--build-arg|构建|编译", re.IGNORECASE)
"""Words making a table or list of variables one of a build's (`Build-time environment variables`)."""
_ENV_HEADING = re.compile(
    r"[\W_]*(?:(?:runtime|run-time|container)[ \t]+)?environment[\W_]*\Z", re.IGNORECASE
)
"""A heading that is the word `Environment` alone (`### Environment`, `Runtime environment`)."""
_SUB_HEADING = re.compile(
    r"\A[\W_]*(?:for|with|on|in)\b|\b(?:tags?|images?|variants?|flavou?rs?|optional|required|mandatory)\b",
    re.IGNORECASE,
)
"""A heading below one about environment variables that says which image or which of them it lists
(`### For `base` tag`, `### Optional`): its list is of the same variables."""
PREFIXED_RUN = re.compile(r"(?:^|[\s;&|])[A-Za-z_][A-Za-z0-9_]*=\S*[ \t]+(?:\./|bash |sh |make\b)")


def runtime_claims(part: Document, whole: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """The findings of the part's environment-variable entries, `docker run` users and entrypoint paths
    that every image compared contradicts (see the module docstring)."""
    images = [RunImage(model) for model in auditor.models]
    if not images:
        return
    entries = list(env_entries(part, whole))
    rows = {line for table in part.tables for line, _ in table.rows}
    # a README that starts the container past its entrypoint (`--entrypoint`) may skip the script
    entered = any("--entrypoint" in text for fence in whole.fences for _, text in fence.lines)
    for line, name in entries:
        yield from _env_finding(
            auditor, images, line, name, "documents", listed=line not in rows, entered=entered
        )
    listed = set(entries)
    for line, name in told_to_set(part):
        if (line, name) not in listed:
            yield from _env_finding(auditor, images, line, name, "tells to set", told=True)
    told: set[str] = set()  # (a user is told once: the block's other commands name it again)
    ours = runs_ours(auditor)
    for line, name, user, image in run_options(part):
        if image and not ours(image):
            if name and _built_beside(auditor, _assigned(part, image)):
                yield from _unread_finding(auditor, images, line, name, image)
            continue  # a run of the base image, or of an image the README does not build
        if name:
            passes = f"passes (`docker run … {image}`)"
            found = list(_env_finding(auditor, images, line, name, passes, entered=entered))
            yield from found or _unread_finding(auditor, images, line, name, image)
        if user and user not in told:
            told.add(user)
            yield from _user_finding(auditor, images, line, user)
    yield from _entrypoint_paths(part, auditor, images)


def runs_ours(auditor: Auditor) -> Callable[[str], bool]:
    """Whether a `docker run` of an image reference runs one of the images audited: one the README
    builds or configures (`_own_names`), not a base image of theirs."""
    models = auditor.models
    bases = {image_repository(stage.base) for model in models for stage in model.stages}
    names = _own_names(auditor)
    return lambda image: image_repository(image) not in bases and last_name(image) in names


def _own_names(auditor: Auditor) -> frozenset[str]:
    """The names the images audited go by (`last_name`): the tags of the README's `docker build`s
    (`AuditFacts.tagged`, read once an audit), the images' configured names and the folders of their
    Dockerfiles."""
    names = {last_name(m.image_name) for m in auditor.models if m.image_name}
    names.update(Path(m.file).parent.name.lower() for m in auditor.models if m.file)
    return frozenset(names | auditor.shared.tagged)


def env_entries(part: Document, whole: Document) -> Iterator[tuple[int, str]]:
    """(line, NAME) of each variable a table or list under an environment-variables heading documents,
    unless it is about a build."""
    for table in part.tables:
        if not table.header or BUILD_ARG_WORDS.search(table.header[0]):
            continue
        heading = heading_of(whole, table.line)
        # (a column headed `Environment Variable Name` under no such heading often lists the variables a
        # compose build passes on as build args: intel/ai-containers-style READMEs)
        if not (about_env(heading) or _ENV_HEADING.match(heading)):
            continue
        if _ABOUT_BUILD.search(
            f"{' '.join(headings_over(whole, table.line))} {table.context} {table.header[0]}"
        ):
            continue
        for line, cells in table.rows:
            if cells and (name := CODE_NAME.match(cells[0])) is not None:
                if not _ABOUT_BUILD.search(" ".join(cells[1:])):
                    yield line, name.group(1)
    for para in part.paragraphs:
        over = headings_over(whole, para.lines[0][0] if para.lines else 0)
        if not (
            about_env(para.heading)
            or _ENV_HEADING.match(para.heading)
            or (
                len(over) > 1
                and over[0] == para.heading
                and _SUB_HEADING.search(over[0])
                and about_env(over[1])
            )
        ) or _ABOUT_BUILD.search(f"{' '.join(over)} {para.before}"):
            continue
        for line, text in para.lines:
            item = LIST_ITEM.match(text)
            spans = code_spans(text[item.end() :]) if item else []
            if item and spans and spans[0][0] == 0 and (name := CODE_NAME.match(spans[0][2])) is not None:
                if not _ABOUT_BUILD.search(text[item.end() + spans[0][1] :]):
                    yield line, name.group(1)


_VARIABLE_COLUMN = re.compile(
    r"[\W_]*(?:(?:env(?:ironment)?[ \t]*)?(?:variables?|vars?|settings?)|env(?:ironment)?)[\W_]*",
    re.IGNORECASE,
)
"""A first column headed `Variable`, `Env var`, `Setting`, `Env`: what a table of the container's
variables may call its names under a heading that does not say so (`## Configuration`)."""


def variable_rows(part: Document, whole: Document) -> Iterator[tuple[int, str]]:
    """(line, NAME) of each row of a table whose first column is headed `Variable` (`_VARIABLE_COLUMN`)
    under a heading that does not call them environment variables (`## Configuration`), unless it is
    about a build: the rows `env_entries` leaves out. Whose variables they are the table does not say;
    a rule reading them asks the image (its start reads the others)."""
    for table in part.tables:
        header = table.header[0] if table.header else ""
        if not _VARIABLE_COLUMN.fullmatch(header) or BUILD_ARG_WORDS.search(header):
            continue
        heading = heading_of(whole, table.line)
        if about_env(heading) or _ENV_HEADING.match(heading):
            continue  # (`env_entries` reads it)
        if _ABOUT_BUILD.search(f"{' '.join(headings_over(whole, table.line))} {table.context}"):
            continue
        for line, cells in table.rows:
            if cells and (name := CODE_NAME.match(cells[0])) is not None:
                if not _ABOUT_BUILD.search(" ".join(cells[1:])):
                    yield line, name.group(1)


ENV_OPTION = re.compile(r"(?:^|[\s\[(])(?:-e|--env)(?:[ \t]+|=)[\"']?([A-Za-z_][A-Za-z0-9_]*)=")
_USER_OPTION = re.compile(
    r"(?:^|[\s\[(])(?:-u|--user)(?:[ \t]+|=)[\"']?([a-z_][a-z0-9_.-]{0,31})(?=[\"':\s\]]|\Z)"
)
_USER_NAME = re.compile(r"[a-z_][a-z0-9_.-]{0,31}")


def run_options(part: Document) -> Iterator[tuple[int, str, str, str]]:
    """(line, NAME or '', user or '', image) of each `-e NAME=…` and `--user NAME` among the options of a
    `docker run` of a command block (what follows the image is the container's command)."""
    for fence in part.fences:
        for command in fence_commands(fence):
            # (`docker run [-ti --rm --user torch] IMAGE`: options in brackets are options)
            text = joined(command).replace("[", " ").replace("]", " ")
            if PREFIXED_RUN.search(text) or (run := docker_run(text)) is None:
                continue
            start, image = run
            end = image_at(text, start, image)
            options = text[start : end if end >= 0 else len(text)]
            starts = joined_starts(command)
            for match in ENV_OPTION.finditer(options):
                yield joined_line(command, starts, start + match.start(1)), match.group(1), "", image
            for match in _USER_OPTION.finditer(options):
                yield joined_line(command, starts, start + match.start(1)), "", match.group(1), image


def _env_finding(
    auditor: Auditor,
    images: list[RunImage],
    line: int,
    name: str,
    how: str,
    told: bool = False,
    listed: bool = False,
    entered: bool = False,
) -> Iterator[Diagnostic]:
    """A finding when `name`, set at run time, reaches no image compared and one of them shows why. With
    `told` (a sentence telling to set it, for the build or the container), and for a name the
    application may read itself (`APP_READ`), only a RUN reading it undeclared to pick what it installs
    tells why (`--index-url $PYTORCH_INDEX`), or the script the image starts setting it before it reads
    it (what that script starts sees the script's value). A script's value is `likely` for an item of
    a list (`listed`): a list is read from prose. Not with `entered` (the README passes `--entrypoint`
    somewhere: a run may skip the script)."""
    scripted = [image.script_fact(name) if name not in image.env else None for image in images]
    if not told and not entered and all(scripted):
        said = (
            f"README {how} {name} as an environment variable of the container, but {scripted[0]}: "
            "a value given at run time changes nothing"
        )
        yield Diagnostic(auditor.path, line, said, confidence=LIKELY if listed else CERTAIN)
        return
    if told or APP_READ.search(name) is not None:
        if any(image.undeclared_read(name) is None for image in images):
            return
        facts = [image.undeclared_fact(name) for image in images]
    else:
        facts = [image.env_fact(name) for image in images]
    if any(fact is None for fact in facts):
        return
    shown = [fact for fact in facts if isinstance(fact, str)]
    if not shown:
        return
    if _UNDECLARED in shown[0]:
        said = f"README {how} {name}, but {shown[0]}, whatever is set for the build or the container"
    else:
        said = (
            f"README {how} {name} as an environment variable of the container, but {shown[0]}: "
            "a value given at run time changes nothing"
        )
    yield Diagnostic(auditor.path, line, said, confidence=LIKELY if _PASSES in shown[0] else CERTAIN)


_VARIABLE_IMAGE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")


def _assigned(part: Document, image: str) -> str | None:
    """The value a command block of the README gives the variable `image` names (`$IMAGE_NAME` after
    `IMAGE_NAME=tool:serving-gpu`), when it names one and one value is given; None otherwise."""
    match = _VARIABLE_IMAGE.fullmatch(image)
    if match is None:
        return None
    given = re.compile(rf"[ \t]*(?:export[ \t]+)?{match.group(1)}=[\"']?([^\s\"'$;&|]+)[\"']?[ \t]*$")
    values = {m.group(1) for fence in part.fences for _, text in fence.lines if (m := given.match(text))}
    return values.pop() if len(values) == 1 else None


def _built_beside(auditor: Auditor, image: str | None) -> bool:
    """True when a shell script beside every Dockerfile compared builds and tags the repository of
    `image` (`docker build -t tool:serving-$TYPE` in `build.sh`): the image is the one audited."""
    if image is None or not auditor.models:
        return False
    repository = image_repository(image)
    if len(repository) < 4:
        return False
    for model in auditor.models:
        if not model.file:
            return False
        folder = Path(model.file).parent
        texts = [text_or_none(f) or "" for f in sorted(folder.glob("*.sh"))[:20]]
        if not any("docker build" in t and f"{repository}:" in t for t in texts):
            return False
    return True


def _unread_finding(
    auditor: Auditor, images: list[RunImage], line: int, name: str, image: str
) -> Iterator[Diagnostic]:
    """A `-e NAME=…` of a run of an image the README builds that no image compared reads
    (`RunImage.unread_fact`), while the script each starts reads variables of the same first word
    (`likely`: the program the script starts may read it after all). A name ending like a setting of
    any program (`MODEL_DIR`, `APP_READ`) is read here too: the script hands the program its settings
    as flags, from variables of that first word; not a name a library or the shell reads
    (`_LIBRARY_READ`)."""
    if _LIBRARY_READ.search(name) is not None:
        return
    facts = [image_.unread_fact(name) for image_ in images]
    if not facts or any(fact is None for fact in facts):
        return
    yield Diagnostic(
        auditor.path,
        line,
        f"README passes {name} (`docker run … {image}`) as an environment variable of the container, but "
        f"nothing in the image reads it: {facts[0]}",
        confidence=LIKELY,
    )


_UNDECLARED = "reads it in a RUN while no ARG or ENV declares it"
_PROGRAM_FILE = re.compile(r"(?<![\w.-])[\w./-]+\.(?:py|sh|bash|js|mjs|rb|pl|php|lua|R)\b")
"""A program file a script runs or names (`python3 serve.py`, `/opt/warm.sh`)."""
_MANIFEST = re.compile(
    r"pyproject\.toml|poetry\.lock|uv\.lock|Pipfile(?:\.lock)?|requirements[\w.-]*\.txt|setup\.cfg"
    r"|package(?:-lock)?\.json|yarn\.lock|pnpm-lock\.yaml|environment\.ya?ml"
)
"""Files listing packages to install, which start no program of their own."""
_PASSES = "passes its program"
"""Words of `RunImage.flag_fact`: read from a script's options, such a finding is `likely`."""
_TOLD_TO_SET = re.compile(
    r"\b(?:edit|set|change|modify|adjust|update|override|replace|configure)\b(?:[ \t]+(?:the|your|its))?"
    r"[ \t]+`((?-i:[A-Z][A-Z0-9_]{2,}))`[ \t]+"
    r"(?:environment[ \t]+variable|env(?:ironment)?[ \t]+var\b|variable\b)",
    re.IGNORECASE,
)
"""A sentence telling the user to set a variable named in code (`` Edit the `PYTORCH_INDEX` environment
variable ``, `` set the `MODEL_REPO` variable ``). The words around it are read in any case; the name
only as written, an upper-case identifier (`(?-i:…)`): `` set the `port` variable `` names none."""


def told_to_set(part: Document) -> Iterator[tuple[int, str]]:
    """(line, NAME) of each variable a line of the part's prose or lists tells the user to set."""
    for para in part.paragraphs:
        for line, text in para.lines:
            for found in _TOLD_TO_SET.finditer(text):
                yield line, found.group(1)


def _user_finding(auditor: Auditor, images: list[RunImage], line: int, user: str) -> Iterator[Diagnostic]:
    """A finding when no image compared has the user a `--user` names, and each can tell its users."""
    if user in _SYSTEM_USERS:
        return
    known = [image.users() for image in images]
    if any(users is None or user in users for users in known):
        return
    made = sorted(u for u in (known[0] or set()) - _SYSTEM_USERS if _USER_NAME.fullmatch(u) and u != "ubuntu")
    has = f"makes user {', '.join(made)}" if made else "makes no user"
    yield Diagnostic(
        auditor.path,
        line,
        f"README runs the container as user {user}, but {images[0].model.path} {has} and its base "
        f"{images[0].root.base if images[0].root else ''} brings none of that name",
        confidence=CERTAIN,
    )


_SCRIPT_PATH = re.compile(r"/(?:[\w.+-]+/)*([\w.+-]+\.(?:sh|py|bash))")
_STARTS = re.compile(
    r"\bentry[ \t-]?points?\b"
    r"|(?:executed|run|started|launched|invoked)[ \t]+(?:\w+[ \t]+)?(?:when|as|on)[ \t]+"
    r"(?:the[ \t]+)?(?:container|image)[ \t]+(?:starts|is[ \t]+started|launches|start(?:up)?)",
    re.IGNORECASE,
)
_NOT_SAID = re.compile(
    r"\bnot\b|n't\b|\bif\b|\bunless\b|\boverrid|--entrypoint\b|\byou[ \t]+(?:can|may|could)\b|\binstead\b",
    re.IGNORECASE,
)


def _entrypoint_paths(part: Document, auditor: Auditor, images: list[RunImage]) -> Iterator[Diagnostic]:
    """A finding for each path of a script the README says the container starts that every image starts
    from another path (`RunImage.copied_to`)."""
    for para in part.paragraphs:
        headed = bool(_STARTS.search(para.heading))
        for start, _end, sentence in sentences(para.lines):
            if not (headed or _STARTS.search(sentence)) or _NOT_SAID.search(sentence):
                continue
            for _, _, code in code_spans(sentence):
                said = _SCRIPT_PATH.fullmatch(code.strip())
                if said is None:
                    continue
                facts = [_started_from(image, said.group(0), said.group(1)) for image in images]
                if any(fact is None for fact in facts):
                    continue
                line = line_at(para.lines, start)
                yield Diagnostic(
                    auditor.path,
                    line,
                    f"README says the container starts {said.group(0)}, but {facts[0]}",
                    confidence=CERTAIN,
                )


def _started_from(image: RunImage, path: str, name: str) -> str | None:
    """Why the image does not start the script at `path` (file name `name`): its ENTRYPOINT or CMD starts
    one of that name from elsewhere; None when it may start it there or does not say."""
    for setting in image.commands():
        words = re.findall(r"[\w./+-]+", setting.value)
        named = [w for w in words if posixpath.basename(w) == name]
        if not named:
            continue
        word = named[0]
        if word.startswith("/"):
            where, told = word, f"{image.model.path}:{setting.line} says {setting.keyword} {setting.value}"
        else:
            copied = image.copied_to(name)
            if copied is None:
                return None
            where = copied[0]
            told = (
                f"{image.model.path}:{copied[1]} copies it to {where} "
                f"({setting.keyword} {setting.value} on line {setting.line})"
            )
        return None if os.path.normpath(where) == os.path.normpath(path) else told
    return None
