"""The options a package installer refuses: pip (`pip3`, `pip3.11`, `python -m pip`), `uv pip`, apt-get
and apt, conda, mamba and micromamba, read from one command's words as the program reads them.

Each program stops before it installs anything when it meets an option it does not have, so a RUN or a
README command with one fails as written. What is refused, and how sure that is:

- three dashes (`---no-cache-dir`): no version of any of them has such an option (pip: "no such option:
  ---no-cache-dir"). apt-get strips one word before a `-` (its `--no-foo` reading), so `---yes` is
  taken as `--yes` and only a three-dash word whose rest is no option is refused. Certain.
- a long option written with one dash, which the program reads as a bundle of short options and
  refuses at the first letter it lacks (`pip install -upgrade`: "no such option: -u"; `apt-get
  -no-install-recommends`: "Command line option 'n' [from …] is not known"). Certain: the letters have
  been stable for years. (pip's letters are those of pip 20 to 25; `docgen lint`'s DG006 reads them too.)
- pip: a long option another pip command has and this one lacks (`pip install --yes`: uninstall's).
  Certain.
- a long option the table lacks that is a slip from one it has (`--no-install-recomends`, `--upgade`,
  `--extra-index-urls`): `likely`, because the table is of released versions and a newer one may have
  an option of that name. pip and conda take any unambiguous start of an option (`--no-cache` is
  `--no-cache-dir`), and apt-get any option after a word and a dash (`--no-install-recommends` is
  `--install-recommends` turned off), so those are accepted.

An option the table lacks and that is no slip is left alone (newer than the table), as are words with a
`$`, a placeholder (`<opt>`, `[--user]`), a value of an option that takes one (`--global-option
--with-x`, `-o Dpkg::Options::=--force-confold`: passed through to another program), and words after
`--`. uv's own options are not read (only three dashes there), nor `conda env`, `conda run` or another
command a program runs for its words.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from docgen.shell import ShToken

# -- pip (pip 20 to 25: `pip <command> --help`, pip's cmdoptions.py) --------------------------------

PIP_GENERAL_SHORT = "hvVq"
PIP_SHORT = {
    "install": PIP_GENERAL_SHORT + "rcetUIifC",
    "wheel": PIP_GENERAL_SHORT + "wrceifC",
    "download": PIP_GENERAL_SHORT + "drceifC",
    "uninstall": PIP_GENERAL_SHORT + "ry",
}
"""pip's short options per command (`-b` went in pip 21): the general ones, then the command's own."""
PIP_VALUED = frozenset("rcetifCwd")
"""pip's short options that take the rest of the word, or the next word, as their value."""

_PIP_GENERAL_VALUED = (
    "--log --log-file --local-log --proxy --retries --timeout --default-timeout --exists-action "
    "--trusted-host --cert --client-cert --cache-dir --python --use-feature --use-deprecated "
    "--keyring-provider --resume-retries --progress-bar"
)
_PIP_GENERAL_FLAGS = (
    "--help --debug --isolated --require-virtualenv --verbose --version --quiet --no-input --no-cache-dir "
    "--disable-pip-version-check --no-color --no-python-version-warning --skip-requirements-regex"
)
_PIP_INDEX_VALUED = "--index-url --extra-index-url --find-links"
_PIP_BUILD_VALUED = (
    "--requirement --constraint --editable --src --source --source-dir --source-directory --no-binary "
    "--only-binary --config-settings --global-option --build-option --build --build-dir --group "
    "--platform --python-version --implementation --abi"
)
_PIP_BUILD_FLAGS = (
    "--no-index --no-deps --no-dependencies --pre --prefer-binary --no-build-isolation --use-pep517 "
    "--no-use-pep517 --check-build-dependencies --ignore-requires-python --require-hashes --no-clean "
    "--process-dependency-links --no-verify"
)
_PIP_OWN = {
    "install": (
        "--target --root --prefix --upgrade-strategy --install-option --root-user-action --report",
        "--dry-run --user --upgrade --force-reinstall --ignore-installed --break-system-packages --compile "
        "--no-compile --no-warn-script-location --no-warn-conflicts --egg --no-egg --all-releases "
        "--only-final --no-user",
    ),
    "wheel": ("--wheel-dir", ""),
    "download": ("--dest --destination-dir --destination-directory", ""),
    "uninstall": ("--root-user-action", "--yes --break-system-packages"),
}


def _pip_options(command: str) -> tuple[frozenset[str], frozenset[str]]:
    own_valued, own_flags = _PIP_OWN[command]
    valued = f"{_PIP_GENERAL_VALUED} {own_valued}"
    flags = f"{_PIP_GENERAL_FLAGS} {own_flags}"
    if command == "uninstall":
        valued += " --requirement"
    else:
        valued += f" {_PIP_INDEX_VALUED} {_PIP_BUILD_VALUED}"
        flags += f" {_PIP_BUILD_FLAGS}"
    return frozenset(valued.split()), frozenset(flags.split())


_PIP = {command: _pip_options(command) for command in _PIP_OWN}
"""Per pip command: its long options that take a value, and those that take none."""

# -- apt-get and apt (apt 1.x to 3.x: apt-private/private-cmndline.cc) ------------------------------

_APT_VALUED = (
    "target-release default-release config-file option solver planner host-architecture build-profiles "
    "format snapshot error-on comment"
)
_APT_FLAGS = (
    "show-progress fix-broken purge verbose-versions auto-remove autoremove reinstall new-pkgs list-cleanup "
    "compile build diff-only debian-only tar-only dsc-only release-info color simulate just-print recon "
    "dry-run no-act download-only yes assume-yes assume-no show-upgraded ignore-missing download "
    "fix-missing ignore-hold upgrade only-upgrade allow-change-held-packages allow-remove-essential "
    "allow-downgrades force-yes print-uris trivial-only remove only-source arch-only indep-only "
    "allow-unauthenticated allow-insecure-repositories allow-releaseinfo-change "
    "allow-releaseinfo-change-origin allow-releaseinfo-change-label allow-releaseinfo-change-version "
    "allow-releaseinfo-change-codename allow-releaseinfo-change-suite install-recommends install-suggests "
    "fix-policy help version quiet silent installed upgradeable upgradable manual-installed verbose "
    "all-versions names-only full with-source strict-pinning update mark-auto auto-detect"
)
_APT_LONG = frozenset(f"{_APT_VALUED} {_APT_FLAGS}".split())
_APT_LONG_VALUED = frozenset(_APT_VALUED.split())
_APT_SPELLED = frozenset(f"--{prefix}{o}" for o in _APT_LONG for prefix in ("", "no-"))
"""apt's long options as written, the `--no-` form of each too (for a slip's nearest)."""
_APT_SHORT = "hvqcoydumtsfVbPaSiU"
"""apt-get's and apt's short options, of any of their commands."""
_APT_SHORT_VALUED = frozenset("coatP")

# -- conda, mamba, micromamba (conda 4 to 25: `conda install --help`, `conda create --help`) ---------

_CONDA_VALUED = (
    "--name --prefix --channel --repodata-fn --file --solver --revision --clone --subdir --platform "
    "--channel-priority --deps-modifier --experimental-solver --experimental"
)
_CONDA_FLAGS = (
    "--help --use-local --override-channels --no-lock --repodata-use-zst "
    "--strict-channel-priority --no-channel-priority --no-deps --only-deps --no-pin --copy "
    "--use-index-cache --insecure --offline --dry-run --json --quiet --verbose --yes --download-only "
    "--show-channel-urls --force-reinstall --freeze-installed --update-deps --satisfied-skip-solve "
    "--update-all --all --update-specs --clobber --no-update-deps "
    "--update-dependencies --no-update-dependencies --mkdir --no-default-packages --dev "
    "--no-shortcuts --shortcuts-only --force --prune --keep-env --override-frozen --debug "
    "--trace --no-banner --no-rc --no-env --no-py-pin --allow-softlinks --always-copy --always-softlink"
)
_CONDA_LONG = frozenset(f"{_CONDA_VALUED} {_CONDA_FLAGS}".split())
_CONDA_LONG_VALUED = frozenset(_CONDA_VALUED.split())
_CONDA_SHORT_VALUED = frozenset("npcr")

_INSTALLS = {
    "pip": frozenset(_PIP_OWN),
    "apt-get": frozenset(
        "install remove purge upgrade dist-upgrade full-upgrade dselect-upgrade autoremove autopurge update "
        "clean autoclean build-dep source download check satisfy reinstall".split()
    ),
    "conda": frozenset("install create update upgrade remove uninstall".split()),
}
"""Per program family: the commands whose options are read."""

_PROGRAM = re.compile(
    r"(?:[\w./${}-]*/)?(?:(?P<pip>pip\d*(?:\.\d+)?)|(?P<python>python\d*(?:\.\d+)?)|(?P<apt>apt-get|apt)"
    r"|(?P<conda>conda|mamba|micromamba)|(?P<uv>uv))\Z"
)
_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*=")
_PLACEHOLDER = re.compile(r"[$<>\[\]{}`*…]|\.\.\.")


@dataclass(frozen=True)
class Refusal:
    """An option a command's program refuses."""

    program: str
    """The command as the reader knows it (`pip install`, `python3 -m pip install`, `apt-get install`)."""
    tool: str
    """The program that refuses it (`pip`, `uv`, `apt-get`, `apt`, `conda`, `mamba`, `micromamba`)."""
    word: str
    """The word as written (`---no-cache-dir`, `-upgrade`)."""
    why: str
    """Why the program has no such option (`three dashes`, `a long option written with one dash …`)."""
    said: str
    """What the program prints as it stops (`no such option: ---no-cache-dir`)."""
    certain: bool
    """False when a newer version of the program may have the option (a slip from a known one)."""


_REDIRECTS = frozenset(("<", ">", ">>", ">&", "<&", "<>", ">|"))


def refused_option(tokens: Sequence[ShToken]) -> Refusal | None:
    """The first option of the package installer commands of a shell command (a RUN's, a README's:
    `sh_tokens`) that its program refuses (`pip install`, `apt-get install`, `conda create` …), so the
    command fails there."""
    command: list[str] = []
    redirect = False
    for token in [*tokens, ShToken(";", True)]:
        if not token.operator:
            if not redirect:
                command.append(token.text)
            redirect = False
            continue
        if token.text in _REDIRECTS:
            redirect = True
            continue
        call = installer_call(command)
        command = []
        if call is not None and (found := refusal(*call)) is not None:
            return found
    return None


def installer_call(words: Sequence[str]) -> tuple[str, str, str, list[str]] | None:
    """(family, program as named, command, the words after it) of one simple command's words that run a
    package installer (`sudo -E pip3 install …`, `DEBIAN_FRONTEND=noninteractive apt-get -y install …`,
    `python3 -m pip install …`); None for any other command. The family is `pip`, `uv`, `apt-get` or
    `conda`; options before the command are kept in the words (apt-get and pip read them too)."""
    at = 0
    while at < len(words) and (_ASSIGNMENT.match(words[at]) or words[at] in ("sudo", "env", "time", "exec")):
        sudo = words[at] == "sudo"
        at += 1
        while sudo and at < len(words) and words[at].startswith("-"):
            at += 1  # sudo's own options (`sudo -E -H`)
    if at >= len(words):
        return None
    match = _PROGRAM.fullmatch(words[at])
    if match is None:
        return None
    name = words[at].rsplit("/", 1)[-1]
    rest = list(words[at + 1 :])
    if match.group("python"):
        if rest[:2] != ["-m", "pip"]:
            return None
        family, name, rest = "pip", f"{name} -m pip", rest[2:]
    elif match.group("uv"):
        if rest[:1] != ["pip"]:
            return None
        family, name, rest = "uv", "uv pip", rest[1:]
    else:
        family = next(group for group in ("pip", "apt", "conda") if match.group(group))
        family = "apt-get" if family == "apt" else family
    skip = 0
    for index, word in enumerate(rest):
        if skip:
            skip -= 1
            continue
        if word.startswith("-"):
            if family == "apt-get" and word in ("-o", "-c", "-t", "-a", "-P"):
                skip = 1
            elif family == "pip" and word.partition("=")[0] in _PIP["install"][0] and "=" not in word:
                skip = 1  # `pip --proxy URL install`
            continue
        if family == "uv" or word in _INSTALLS[family]:
            return family, name, word, [*rest[:index], *rest[index + 1 :]]
        return None
    return None


def refusal(family: str, program: str, command: str, words: Sequence[str]) -> Refusal | None:
    """The first option of `words` (a command's words, as `installer_call` gives them) that `program`
    refuses; None when it takes them all, or when they cannot be told (see the module)."""
    shown = f"{program} {command}"
    tool = "pip" if family == "pip" else program.split()[0]
    at = 0
    while at < len(words):
        raw = words[at]
        at += 1
        word = raw.strip("\"'")
        if word == "--":
            return None
        if not word.startswith("-") or word == "-" or _PLACEHOLDER.search(word):
            continue
        if word.startswith("---") and len(word) > 3 and word[3].isalpha():
            if family != "apt-get" or not _apt_long(word[2:].partition("=")[0]):
                return Refusal(shown, tool, word, "three dashes", _said(family, program, word), True)
            continue
        if word.startswith("--"):
            name, eq, _ = word.partition("=")
            if family == "pip":
                found, takes = _pip_long(command, name, shown)
            elif family == "apt-get":
                found, takes = _apt_long_refusal(name, shown), name[2:].lower() in _APT_LONG_VALUED
            elif family == "conda":
                found, takes = (
                    _slip(family, name, _CONDA_LONG, shown, prefixes=True),
                    name in _CONDA_LONG_VALUED,
                )
            else:
                found, takes = None, False
            if found is not None:
                return found
            at += 1 if takes and not eq else 0
            continue
        if family == "pip":
            letter, takes = _pip_short(command, word)
            if letter is not None:
                return Refusal(shown, tool, word, _one_dash(word, letter), f"no such option: -{letter}", True)
        elif family == "apt-get":
            letter, takes = _apt_short(word)
            if letter is not None:
                said = f"Command line option '{letter}' [from {word}] is not known."
                return Refusal(shown, tool, word, _one_dash(word, letter), said, True)
        else:
            takes = len(word) == 2 and word[1] in _CONDA_SHORT_VALUED
        at += 1 if takes else 0
    return None


def _one_dash(word: str, letter: str) -> str:
    """Why a one-dash word is refused at `letter`."""
    if len(word) > 3 and word[1:].replace("-", "").isalpha():
        said = "a long option written with one dash is read as short options"
        return f"{said}, and there is no -{letter}; did you mean -{word}?"
    return f"there is no short option -{letter}"


def _said(family: str, program: str, word: str) -> str:
    """What `program` prints as it refuses the option `word`."""
    name = word.partition("=")[0]
    if family == "pip":
        return f"no such option: {name}"
    if family == "apt-get":
        return f"Command line option {name} is not understood in combination with the other options"
    if family == "uv":
        return f"unexpected argument '{name}' found"
    if program == "conda":
        return f"unrecognized arguments: {name}"
    return f"it has no option {name}"


def pip_short_refused(command: str, word: str) -> str | None:
    """The letter pip names in `no such option: -X` for a one-dash `word` of `pip <command>`, when it
    refuses it; None otherwise (a value glued to a letter that takes one, `-rrequirements.txt`, ends the
    reading, and so does a character that is no letter: `-U${X}`)."""
    allowed = PIP_SHORT[command]
    for position, char in enumerate(word[1:], start=1):
        if not char.isalpha():
            return None
        if char not in allowed:
            return char
        if char in PIP_VALUED or position > 40:
            return None
    return None


def _pip_short(command: str, word: str) -> tuple[str | None, bool]:
    letter = pip_short_refused(command, word)
    return letter, letter is None and len(word) == 2 and word[1] in PIP_VALUED


def _pip_long(command: str, name: str, shown: str) -> tuple[Refusal | None, bool]:
    """A pip long option's refusal, and whether it takes the next word as its value."""
    valued, flags = _PIP[command]
    known = valued | flags
    matches = [option for option in known if option.startswith(name)]
    if name in known or len(matches) == 1:  # optparse takes an unambiguous start of an option
        return None, (name if name in known else matches[0]) in valued
    if matches:
        return None, False  # ambiguous: pip stops too, but a newer pip may add the other one
    owners = [other for other, (v, f) in _PIP.items() if other != command and name in v | f]
    if owners:
        why = f"it is pip {owners[0]}'s option, not pip {command}'s"
        return Refusal(shown, "pip", name, why, f"no such option: {name}", True), False
    return _slip("pip", name, known, shown, prefixes=False), False


def _apt_long(name: str) -> bool:
    """Whether apt-get takes `--name` (case aside): an option, or an option after a word and a dash
    (`no-install-recommends`, `with-new-pkgs`), as apt's command line reader does."""
    name = name.lower()
    rest = name.partition("-")[2]
    return name in _APT_LONG or rest in _APT_LONG or (len(rest) == 1 and rest in _APT_SHORT.lower())


def _apt_long_refusal(name: str, shown: str) -> Refusal | None:
    if _apt_long(name[2:]):
        return None
    return _slip("apt-get", name, _APT_SPELLED, shown, prefixes=False)


def _apt_short(word: str) -> tuple[str | None, bool]:
    for position, char in enumerate(word[1:], start=1):
        if not char.isalpha():
            return None, False
        if char not in _APT_SHORT:
            return char, False
        if char in _APT_SHORT_VALUED:
            return None, position == len(word) - 1
    return None, False


def _slip(family: str, name: str, known: frozenset[str], shown: str, prefixes: bool) -> Refusal | None:
    """A `likely` refusal of a long option the table lacks when it is a slip from one it has."""
    if prefixes and any(option.startswith(name) for option in known):
        return None
    close = difflib.get_close_matches(name.lower(), sorted(known), n=1, cutoff=0.85)
    if not close or len(name) < 6:
        return None
    tool = "pip" if family == "pip" else shown.split()[0]
    return Refusal(shown, tool, name, f"did you mean {close[0]}?", _said(family, tool, name), False)
