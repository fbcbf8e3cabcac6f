"""`docgen.audit.wording`: the fence languages read as shell, one home for the rules that read shell
blocks. A labelled shell is shell for every rule; a session or an unlabelled block only for the rules
that read commands to run; a Dockerfile, YAML, Python or PowerShell block for none of them."""

from __future__ import annotations

import pytest

from docgen.audit.wording import COMMAND_LANGS, SHELL_LANGS, chosen_args, is_shell_fence
from docgen.markdown import Fence, read_document


def fence(lang: str) -> Fence:
    (only,) = read_document(f"# Kiln\n\n```{lang}\nkiln --serve\n```\n", "README.md").fences
    return only


@pytest.mark.parametrize("lang", ["bash", "sh", "shell", "zsh", "Bash", "SH"])
def test_a_labelled_shell_is_shell_for_every_rule(lang: str) -> None:
    assert is_shell_fence(fence(lang))
    assert is_shell_fence(fence(lang), SHELL_LANGS)


@pytest.mark.parametrize("lang", ["", "none", "console", "shell-session", "terminal", "Console"])
def test_a_session_or_an_unlabelled_block_holds_commands_but_is_no_labelled_shell(lang: str) -> None:
    assert is_shell_fence(fence(lang))
    assert not is_shell_fence(fence(lang), SHELL_LANGS)


@pytest.mark.parametrize(
    "lang", ["dockerfile", "Dockerfile", "yaml", "python", "powershell", "ps1", "text", "json", "bashrc"]
)
def test_other_blocks_are_no_shell(lang: str) -> None:
    assert not is_shell_fence(fence(lang))
    assert not is_shell_fence(fence(lang), SHELL_LANGS)


def test_command_blocks_are_the_shell_blocks_and_windows_shells_and_plain_text() -> None:
    assert {"bash", "zsh", "console", "", "none", "powershell", "cmd", "docker", "text"} <= COMMAND_LANGS
    assert not {"dockerfile", "containerfile", "yaml", "python"} & COMMAND_LANGS


@pytest.mark.parametrize(
    ("heading", "intro", "chosen"),
    [
        ("Useful build arguments", "", True),
        ("Key Build Arguments", "", True),
        ("Build", "The image builds from source. The most useful build args:", True),
        ("Build", "Key build arguments for `Dockerfile.cuda`:", True),
        ("Build", "Some of the build arguments:", True),
        ("Build arguments", "", False),
        ("Build args (useful defaults)", "", False),
        ("Build", "All build arguments:", False),
        ("Build", "Some build args are set by CI.", False),
        ("Build", "Some build args are set by CI. The table lists them:", False),
    ],
)
def test_a_title_or_introduction_of_some_build_args(heading: str, intro: str, chosen: bool) -> None:
    assert chosen_args(heading, intro) is chosen


def test_the_items_a_lead_in_offers_as_values_to_pass() -> None:
    from docgen.audit.wording import offered_items

    lines = [
        (1, "Notes:"),
        (2, "- By default it uses `cu124`. If your base image differs, override via `--index`:"),
        (3, "  - CUDA 12.1: `--index …/cu121`"),
        (4, "  - CUDA 11.8: `--index …/cu118`"),
        (5, "- The image ships CUDA 12.4."),
    ]
    # the nested items of the item ending in the lead-in; not the lead-in, not the next sibling
    assert offered_items(lines) == {3, 4}
    listed = [(7, "- CUDA 11.8: `--build-arg X=cu118`"), (8, "- CUDA 12.6 (default): none to pass")]
    # a list the paragraph before introduces; an item saying it is the default is no offer
    assert offered_items(listed, "Other CUDA versions:") == {7}
    assert offered_items(listed, "The image has:") == frozenset()
