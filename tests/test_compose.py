"""The compose file reader (`docgen.compose`): services that build, their args, and its errors."""

from __future__ import annotations

import sys

import pytest

from docgen import compose
from docgen.errors import ConfigError


def parse(text: str | bytes) -> dict[str, tuple[str, dict[str, str], str | None, dict[str, int | None]]]:
    data = text.encode() if isinstance(text, str) else text
    return {
        t.name: (t.dockerfile, dict(t.args), t.target, dict(t.own_args))
        for t in compose.parse(data, "compose.yaml")
    }


def error(text: str | bytes) -> str:
    with pytest.raises(ConfigError) as caught:
        parse(text)
    return str(caught.value)


def test_services_that_build_with_their_args_target_and_lines() -> None:
    text = """\
x-common: &common
  context: ../app
services:
  db:
    image: postgres:16
  api:
    build:
      <<: *common
      dockerfile: docker/Dockerfile.api
      target: runtime
      args:
        PY: 3.10
        TAG: "${TAG:-v1.2}"
        NESTED: ${A:-${B:-deep}}
        ALT: x${SET:+yes}y
        FROM_ENV: ${FROM_ENV}
        REQUIRED: ${REQUIRED:?set it}
        EMPTY:
        COST: $$5
  web:
    build: ./web
"""
    assert parse(text) == {
        "api": (
            "../app/docker/Dockerfile.api",
            {"PY": "3.10", "TAG": "v1.2", "NESTED": "deep", "ALT": "xy", "COST": "$5"},
            "runtime",
            {"PY": 12, "TAG": 13, "NESTED": 14, "ALT": 15, "COST": 19},
        ),
        "web": ("web/Dockerfile", {}, None, {}),
    }


def test_a_remote_or_inline_build_and_an_empty_file_build_nothing() -> None:
    text = (
        "services:\n  a:\n    build: https://github.com/example/app.git#main\n"
        "  b:\n    build:\n      dockerfile_inline: 'FROM alpine'\n"
    )
    assert parse(text) == {}
    assert parse("") == {}
    assert parse("# only a comment\n") == {}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("services:\n  a:\n    build: [\n", "compose.yaml:4: invalid YAML: "),
        ("services:\n  - a\n", "compose.yaml:1: services must be a mapping of names to services"),
        ("- a\n", "compose.yaml:1: a compose file is a mapping (services: …)"),
        ("services:\n  a: x\n", "compose.yaml:2: service 'a' must be a mapping"),
        ("services:\n  a:\n    build: 3\n", ""),
        (
            "services:\n  a:\n    build: [x]\n",
            "compose.yaml:3: service 'a': build must be a path or a mapping",
        ),
        (
            "services:\n  a:\n    build:\n      args: x\n",
            "compose.yaml:4: service 'a': build.args must be a mapping or a list",
        ),
        (
            "services:\n  a:\n    build:\n      args:\n        - {A: 1}\n",
            "compose.yaml:4: service 'a': build.args items must be NAME=value strings",
        ),
        (
            "services:\n  a:\n    build:\n      args:\n        A: [1]\n",
            "compose.yaml:5: service 'a': build arg A must be a single value",
        ),
        (
            "services:\n  a:\n    build:\n      context: [x]\n",
            "compose.yaml:4: service 'a': build.context must be a string",
        ),
        (b"services:\n  a: \xff\n", "compose.yaml:2: not UTF-8 text (invalid start byte at byte 15)"),
    ],
)
def test_a_file_compose_would_refuse_is_an_error_with_its_line(text: str | bytes, message: str) -> None:
    if not message:  # a number is a path written as a number: `3`
        assert parse(text) == {"a": ("3/Dockerfile", {}, None, {})}
        return
    assert error(text).startswith(message)


def test_without_pyyaml_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "yaml", None)
    assert error("services: {}\n") == (
        "compose.yaml: reading a compose file needs the PyYAML package: pip install 'dockerdocgen[compose]'"
    )


def test_defaults_nested_too_deep_are_an_error_not_a_traceback() -> None:
    deep = "${A:-" * 5000 + "x" + "}" * 5000
    text = f"services:\n  a:\n    build:\n      args:\n        V: '{deep}'\n"
    assert error(text) == "compose.yaml:2: service 'a': nested too deeply to read"


def test_variables_are_read_where_the_file_reads_them() -> None:
    text = (
        "x-common: &common\n"
        "  image: ${REGISTRY:-ghcr.io}/app  # ${NOT_READ}\n"
        "services:\n"
        "  api:\n"
        "    command: run --port ${PORT-8080} --host $HOST --price $$5\n"
        "    environment:\n"
        "      TOKEN: ${TOKEN:?missing}\n"
        "      MODE: ${MODE:+fast}\n"
        "  web:\n"
        "    image: ${WEB:-${REGISTRY:-ghcr.io}/web}\n"
        "volumes:\n"
        "  data: {name: '${DATA:-}'}\n"
    )
    assert [(v.name, v.default, v.line, v.service) for v in compose.variables(text.encode())] == [
        ("REGISTRY", "ghcr.io", 2, None),
        ("PORT", "8080", 5, "api"),
        ("HOST", None, 5, "api"),
        ("TOKEN", None, 7, "api"),
        ("MODE", None, 8, "api"),
        ("WEB", "${REGISTRY:-ghcr.io}/web", 10, "web"),
        ("REGISTRY", "ghcr.io", 10, "web"),
        ("DATA", "", 12, None),
    ]


def test_an_env_file_gives_each_name_its_last_value() -> None:
    text = b"# settings\nexport A=1\nB='two words'\nC=3 # note\nA=4\nnot a setting\n"
    assert compose.dotenv(text) == {"A": ("4", 5), "B": ("two words", 3), "C": ("3", 4)}


def test_a_services_ports_as_written_or_none_when_unreadable() -> None:
    text = (
        "services:\n"
        "  web:\n    image: a\n    ports:\n      - 127.0.0.1:8080:80\n      - 9000\n"
        "      - target: 443\n        published: 8443\n      - target: 53\n"
        "  quiet:\n    image: b\n"
        "  odd:\n    image: c\n    ports: 8080:80\n"
    )
    ports = {s.name: s.ports for s in compose.services(text.encode(), "compose.yaml")}
    assert ports == {"web": ("127.0.0.1:8080:80", "9000", "8443:443", "53"), "quiet": (), "odd": None}
