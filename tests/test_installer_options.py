"""The options a package installer refuses (docgen/installer_options.py): pip, `uv pip`, apt-get and apt,
conda, mamba and micromamba, read from one shell command as the program reads them.

Planted drifts modelled on a notebook image (`pip install ---no-cache-dir -upgrade torch`), a Rails image
(`apt-get install -y --no-install-recomends sqlite3`), a bot's setup notes (`pip install -upgrade pip`)
and a conda recipe; traps are what each program takes although it looks odd."""

from __future__ import annotations

import pytest

from docgen.installer_options import refused_option
from docgen.shell import sh_tokens


def refused(command: str) -> tuple[str, str, bool] | None:
    found = refused_option(sh_tokens(command))
    return None if found is None else (found.word, found.said, found.certain)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # three dashes: no version of any of them has such an option
        (
            "pip install ---no-cache-dir -upgrade torch torchvision",
            ("---no-cache-dir", "no such option: ---no-cache-dir", True),
        ),
        (
            "apt-get update && apt-get install -y ---no-install-recommends curl",
            (
                "---no-install-recommends",
                "Command line option ---no-install-recommends is not understood in combination with the "
                "other options",
                True,
            ),
        ),
        ("conda install -c conda-forge ---yes numpy", ("---yes", "unrecognized arguments: ---yes", True)),
        ("uv pip install ---system ferry", ("---system", "unexpected argument '---system' found", True)),
        # a long option written with one dash: read as letters, refused at the first one it lacks
        ("python3 -m pip install -upgrade pip", ("-upgrade", "no such option: -u", True)),
        ("sudo -E -H pip3 install -q -no-deps ferry", ("-no-deps", "no such option: -n", True)),
        (
            "DEBIAN_FRONTEND=noninteractive apt-get install -yes git",
            ("-yes", "Command line option 'e' [from -yes] is not known.", True),
        ),
        # another pip command's option
        ("pip install --yes ferry", ("--yes", "no such option: --yes", True)),
        ("pip uninstall -y --upgrade ferry", ("--upgrade", "no such option: --upgrade", True)),
        # a slip from a known option: a newer release may have the name, so likely
        (
            "apt-get install -y --no-install-recomends sqlite3",
            (
                "--no-install-recomends",
                "Command line option --no-install-recomends is not understood in combination with the "
                "other options",
                False,
            ),
        ),
        ("pip3 install --upgarde ferry", ("--upgarde", "no such option: --upgarde", False)),
        (
            "pip install --extra-index-urls https://x/simple ferry",
            ("--extra-index-urls", "no such option: --extra-index-urls", False),
        ),
        ("mamba install --no-deeps numpy", ("--no-deeps", "it has no option --no-deeps", False)),
        # the first refused option of a later command of the line
        (
            "apt-get update -qq; apt install -y --fix-missng git > /dev/null",
            (
                "--fix-missng",
                "Command line option --fix-missng is not understood in combination with the other options",
                False,
            ),
        ),
    ],
)
def test_an_option_the_program_refuses(command: str, expected: tuple[str, str, bool]) -> None:
    assert refused(command) == expected


@pytest.mark.parametrize(
    "command",
    [
        "pip install --no-cache -U --upgrade-strat eager ferry",  # an unambiguous start of an option
        "pip --no-cache-dir --proxy http://p:3128 install -r requirements.txt",  # general options first
        "pip install --global-option --with-cuda --config-settings=--build-option=--x ferry",  # passed on
        "pip install ferry -- -not-an-option",
        "pip install --brand-new-switch ferry",  # newer than the table: not a slip of a known one
        "pip install --break-system-packages --root-user-action=ignore --group dev .",
        "pip install -e .[dev] -Uqq -rrequirements.txt -C editable_mode=compat",
        "pip install ${PIP_FLAGS} --<option> [--user] ferry",  # a variable, placeholders
        "apt-get -o Dpkg::Options::=--force-confold -qqy --no-install-recommends install git",
        "apt-get install -y --with-new-pkgs --no-install-suggests -t bookworm-backports git",
        "apt-get ---yes install git",  # apt reads the word after the first dash: --yes
        "apt-get update --allow-releaseinfo-change && apt-get dist-upgrade -yq",
        "APT_OPTS=-q apt install --NO-INSTALL-RECOMMENDS git",  # apt's names are any case
        "conda install -y -n base -c conda-forge --override-channels --no-dep numpy",
        "conda env create -f environment.yml --yes-please",  # conda env: not read
        "conda run -n tune pip install ferry",
        "uv pip install -n --system ferry",  # uv's own options are not pip's
        "pipx install --include-deps ferry && pipenv install --deploy",
        "echo pip install -nothing && apt-cache policy --whatever",
        "python3 -m venv /v && python -m pipx install ---x",
    ],
)
def test_options_the_program_takes_or_that_are_not_read(command: str) -> None:
    assert refused(command) is None
