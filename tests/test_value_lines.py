"""`docgen.value_lines`: a finding about a version cites the line that writes the version.

A version a RUN reads from a variable is changed where the variable gets its value: the ENV or ARG
line (followed through `ENV A=${B}`), or the RUN's own assignment on a continuation line. The version
spelled out where it is used, a build arg's version and a value a caller passes keep their lines.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import findings, make_tree, run

from docgen.components import extract
from docgen.dockerfile import parse_dockerfile
from docgen.evaluate import evaluate

README = "# Toolbox image\n\n| Item | Version |\n|---|---|\n| Lua | {version} |\n"
STALE = README.format(version="5.3.6")
TRUE = README.format(version="5.4.7")
URL = "https://www.example.org/ftp/lua-{v}.tar.gz"


def _cited(dockerfile: str) -> list[str]:
    got = findings(STALE, {"Dockerfile": dockerfile})
    assert findings(TRUE, {"Dockerfile": dockerfile}) == []  # the trap: the true version stays silent
    return got


def _said(line: int) -> list[str]:
    return [f"5: README says Lua 5.3.6 but Dockerfile:{line} says 5.4.7"]


def test_an_env_value_is_cited_at_the_env_line() -> None:
    dockerfile = f"FROM ubuntu:22.04\nENV LUAVER=5.4.7\nRUN true\nRUN wget {URL.format(v='${LUAVER}')}\n"
    assert _cited(dockerfile) == _said(2)


def test_an_arg_default_is_cited_at_the_arg_line() -> None:
    dockerfile = (
        f"FROM ubuntu:22.04\nARG LUA_VERSION=5.4.7\nRUN true\nRUN wget {URL.format(v='$LUA_VERSION')}\n"
    )
    assert _cited(dockerfile) == _said(2)


def test_an_arg_not_named_like_a_version_is_cited_at_its_line_too() -> None:
    dockerfile = f"FROM ubuntu:22.04\nARG LUA=5.4.7\nRUN true\nRUN wget {URL.format(v='$LUA')}\n"
    assert _cited(dockerfile) == _said(2)


def test_an_env_set_from_an_arg_is_cited_at_the_arg_line() -> None:
    dockerfile = (
        "FROM ubuntu:22.04\nARG LUA_VERSION=5.4.7\nENV LUAVER=${LUA_VERSION}\n"
        f"RUN wget {URL.format(v='${LUAVER}')}\n"
    )
    assert _cited(dockerfile) == _said(2)


def test_a_chain_of_two_is_followed_to_the_line_with_the_value() -> None:
    dockerfile = (
        "FROM ubuntu:22.04\nARG LUA=5.4.7\nENV LUA_FULL=${LUA}\nENV LUAVER=${LUA_FULL}\n"
        f"RUN wget {URL.format(v='${LUAVER}')}\n"
    )
    assert _cited(dockerfile) == _said(2)
    plain = (
        "FROM ubuntu:22.04\nENV LUA=5.4.7\nENV LUA_FULL=$LUA\nENV LUAVER=$LUA_FULL\n"
        f"RUN wget {URL.format(v='$LUAVER')}\n"
    )
    assert _cited(plain) == _said(2)


def test_a_run_s_own_assignment_is_cited_at_its_line() -> None:
    dockerfile = f"FROM ubuntu:22.04\nRUN V=5.4.7 && \\\n    cd /tmp && \\\n    wget {URL.format(v='$V')}\n"
    assert _cited(dockerfile) == _said(2)
    below = f"FROM ubuntu:22.04\nRUN set -e; \\\n    V=5.4.7; \\\n    wget {URL.format(v='${V}')}\n"
    assert _cited(below) == _said(3)


def test_a_version_written_where_it_is_used_keeps_its_line() -> None:
    dockerfile = f"FROM ubuntu:22.04\nENV LUAVER=5.4.7\nRUN true\nRUN wget {URL.format(v='5.4.7')}\n"
    assert _cited(dockerfile) == _said(4)
    # spelled out in the command as well as in the assignment: the command's line stays
    both = f"FROM ubuntu:22.04\nRUN V=5.4.7 && \\\n    wget {URL.format(v='$V')} -O lua-5.4.7.tgz\n"
    assert _cited(both) == _said(3)


def test_a_shell_variable_set_from_an_env_is_cited_at_the_env_line() -> None:
    dockerfile = f"FROM ubuntu:22.04\nENV OTHER=5.4.7\nRUN V=$OTHER; \\\n    wget {URL.format(v='$V')}\n"
    assert [c.cited_line for c in _components(dockerfile) if c.version == "5.4.7"] == [2]


def test_two_lines_that_could_write_the_version_leave_the_run_line() -> None:
    dockerfile = (
        "FROM ubuntu:22.04\nENV LUA_A=5.4.7\nENV LUA_B=5.4.7\n"
        f"RUN echo $LUA_B && wget {URL.format(v='$LUA_A')}\n"
    )
    assert [c.cited_line for c in _components(dockerfile) if c.version == "5.4.7"] == [4]


def test_only_a_component_whose_value_comes_from_elsewhere_gets_a_value_line() -> None:
    dockerfile = (
        "FROM ubuntu:22.04\nENV LUAVER=5.4.7\n"
        f"RUN wget {URL.format(v='$LUAVER')} && pip install flask==3.0.3\n"
    )
    lines = {c.version: c.value_line for c in _components(dockerfile)}
    assert lines["5.4.7"] == 2
    assert lines["3.0.3"] is None


def test_an_env_set_in_another_stage_is_not_the_writer() -> None:
    dockerfile = (
        "FROM ubuntu:22.04 AS one\nENV LUAVER=5.4.7\n"
        f"FROM ubuntu:22.04\nARG LUAVER=5.4.7\nRUN wget {URL.format(v='$LUAVER')}\n"
    )
    assert [c.cited_line for c in _components(dockerfile) if c.version == "5.4.7"] == [4]


def _components(dockerfile: str) -> list:  # type: ignore[type-arg]
    parsed = parse_dockerfile(dockerfile, "Dockerfile")
    return list(extract(parsed, evaluate(parsed))[0])


BAKE = 'target "default" {\n  dockerfile = "Dockerfile"\n  args = {\n    LUA = "5.4.7"\n  }\n}\n'


@pytest.mark.parametrize("declared", ["ARG LUA=5.4.0", "ARG LUA"])
def test_a_value_a_bake_file_passes_is_cited_at_the_bake_file_s_line(
    declared: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dockerfile = f"FROM ubuntu:22.04\n{declared}\nENV LUAVER=${{LUA}}\nRUN wget {URL.format(v='${LUAVER}')}\n"
    make_tree(tmp_path, {"Dockerfile": dockerfile, "docker-bake.hcl": BAKE, "README.md": STALE})
    monkeypatch.chdir(tmp_path)
    result = run("audit", "README.md")
    assert "README says Lua 5.3.6 but docker-bake.hcl:4 says 5.4.7" in result.out
    (tmp_path / "README.md").write_text(TRUE, encoding="utf-8")
    assert run("audit", "README.md").code == 0
