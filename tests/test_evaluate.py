"""Input/expected pairs for the ARG/ENV and stage rules (DOCKERFILE-SEMANTICS.md rules 9–18)."""

from __future__ import annotations

import pytest

from docgen.dockerfile import parse_dockerfile
from docgen.errors import DockerfileError
from docgen.evaluate import Evaluation, env_pairs, evaluate


def args(e: Evaluation) -> list[tuple[str, str, str | None]]:
    """(name, scope, resolved default) per declaration."""
    return [(a.name, a.scope, a.default) for a in e.args]


_LINES: dict[int, list[int]] = {}


def value_at(e: Evaluation, line: int, name: str) -> object:
    """The value of `name` in scope at the instruction starting on `line`."""
    return e.scopes[_LINES[id(e)].index(line)].lookup(name)


def evl(text: str) -> Evaluation:
    parsed = parse_dockerfile(text, "Dockerfile")
    e = evaluate(parsed)
    _LINES[id(e)] = [i.start_line for i in parsed.instructions]
    return e


# 9. global ARGs are visible only in FROM until re-declared bare
def test_global_arg_not_in_stage_until_redeclared() -> None:
    e = evl(
        'ARG GPU_ARCH="gfx942;gfx950"\n'
        "FROM ubuntu:22.04 AS base\n"
        "RUN echo $GPU_ARCH\n"
        "FROM base AS kernels\n"
        "ARG GPU_ARCH\n"
        "RUN echo $GPU_ARCH\n"
    )
    assert args(e) == [("GPU_ARCH", "global", "gfx942;gfx950"), ("GPU_ARCH", "kernels", "gfx942;gfx950")]
    # line 3: not declared in the stage; ubuntu may set it, so it is unknown rather than the global value
    assert value_at(e, 3, "GPU_ARCH") != "gfx942;gfx950"
    assert value_at(e, 6, "GPU_ARCH") == "gfx942;gfx950"
    redeclared = e.args[1]
    assert redeclared.bare and redeclared.used_lines == (6,)
    assert e.args[0].stages == ("kernels",)
    assert 6 in e.args[0].used_lines and 3 not in e.args[0].used_lines


def test_global_arg_used_in_from() -> None:
    e = evl("ARG BASE=ubuntu\nARG TAG=22.04\nFROM ${BASE}:${TAG} AS base\n")
    assert e.stages[0].base == "ubuntu:22.04"
    assert e.args[0].used_lines == (3,) and e.args[1].used_lines == (3,)


# 10. a stage's own default beats the global one
def test_stage_default_beats_global() -> None:
    e = evl("ARG V=1\nFROM x\nARG V=2\nRUN echo $V\n")
    assert args(e) == [("V", "global", "1"), ("V", "#0", "2")]
    assert value_at(e, 4, "V") == "2"


# 11. scope ends at the next FROM, but FROM parent inherits ARGs and ENV
def test_scope_ends_at_from_but_child_inherits() -> None:
    e = evl(
        "ARG GPU_ARCH=gfx942\n"
        "FROM ubuntu AS torch\n"
        "ARG GPU_ARCH\n"
        "ARG LOCAL=1\n"
        "ENV PYTORCH_ROCM_ARCH=${GPU_ARCH}\n"
        "FROM torch AS fa\n"
        "RUN echo $PYTORCH_ROCM_ARCH $LOCAL\n"
        "FROM ubuntu AS other\n"
        "RUN echo $LOCAL\n"
    )
    assert value_at(e, 7, "PYTORCH_ROCM_ARCH") == "gfx942"
    assert value_at(e, 7, "LOCAL") == "1"
    assert value_at(e, 9, "LOCAL") != "1"
    env = [(v.name, v.value, v.stage, v.inherited) for v in e.env]
    assert env == [
        ("PYTORCH_ROCM_ARCH", "gfx942", "torch", False),
        ("PYTORCH_ROCM_ARCH", "gfx942", "fa", True),
    ]
    local = next(a for a in e.args if a.name == "LOCAL")
    assert local.stages == ("torch", "fa")
    assert e.stages[1].parent == 0 and e.stages[2].parent is None


def test_bare_redeclaration_keeps_inherited_value() -> None:
    e = evl("FROM x AS a\nARG PY=3.12\nFROM a AS b\nARG PY\nRUN echo $PY\n")
    assert args(e)[1] == ("PY", "b", "3.12")
    assert value_at(e, 5, "PY") == "3.12"


# 12. defaults are expanded in order; quotes removed; single quotes and \$ literal
@pytest.mark.parametrize(
    ("decls", "name", "expected"),
    [
        ("ARG DEFAULT_BASE=ubuntu\nARG BASE=${DEFAULT_BASE}", "BASE", "ubuntu"),
        ("ARG MAJOR=7\nARG MINOR=0\nARG V=${MAJOR}.${MINOR}", "V", "7.0"),
        ('ARG A="gfx942;gfx950"', "A", "gfx942;gfx950"),
        ("ARG X=1\nARG Q='$X'", "Q", "$X"),
        ("ARG X=1\nARG Q=\\$X", "Q", "$X"),
        ('ARG X=1\nARG Q="$X"', "Q", "1"),
        ("ARG X=a\nARG X=${X}-suffix", "X", "a-suffix"),
        ('ARG A="a b"', "A", "a b"),
    ],
)
def test_default_expansion(decls: str, name: str, expected: str) -> None:
    e = evl(decls + "\nFROM scratch\n")
    assert [a.default for a in e.args if a.name == name][-1] == expected


# 13. substitution forms; unset differs from empty
@pytest.mark.parametrize(
    ("decls", "expected"),
    [
        ("ARG V\nARG R=${V:-word}", "word"),
        ("ARG V=\nARG R=${V:-word}", "word"),
        ("ARG V=\nARG R=${V-word}", ""),
        ("ARG V\nARG R=${V-word}", "word"),
        ("ARG V=x\nARG R=${V:+word}", "word"),
        ("ARG V=\nARG R=${V:+word}", ""),
        ("ARG V=\nARG R=${V+word}", "word"),
        ("ARG V\nARG R=${V+word}", ""),
        ("ARG MAJOR=9\nARG R=${TAG:-${MAJOR}.0}", "9.0"),
        ("ARG V=file.tar.gz\nARG R=${V%.*}", "file.tar"),
        ("ARG V=file.tar.gz\nARG R=${V%%.*}", "file"),
        ("ARG V=a/b/c\nARG R=${V#*/}", "b/c"),
        ("ARG V=a/b/c\nARG R=${V##*/}", "c"),
        ("ARG V=a-b-c\nARG R=${V/-/_}", "a_b-c"),
        ("ARG V=a-b-c\nARG R=${V//-/_}", "a_b_c"),
        ("ARG V=1\nARG R=${V:?must_be_set}", "1"),
    ],
)
def test_substitution_forms(decls: str, expected: str) -> None:
    e = evl(decls + "\nFROM scratch\n")
    assert e.args[-1].default == expected


def test_required_but_unset_is_unknown() -> None:
    e = evl("ARG V\nARG R=${V:?set_V}\nFROM scratch\n")
    assert e.args[1].default == "${V:?set_V}"
    assert e.args[1].unknown is not None and "required" in e.args[1].unknown


def test_unset_and_empty_differ() -> None:
    e = evl("FROM scratch\nARG MAX_JOBS=\nARG OTHER\n")
    assert (e.args[0].default, e.args[0].bare) == ("", False)
    assert (e.args[1].default, e.args[1].bare) == (None, True)


# 14. several names per line
def test_several_names_per_arg_line() -> None:
    e = evl('FROM scratch\nARG PIP_INDEX_URL UV_INDEX_URL\nARG A=1 B="x y" C\nARG D E=2\n')
    assert [(a.name, a.default, a.line) for a in e.args] == [
        ("PIP_INDEX_URL", None, 2),
        ("UV_INDEX_URL", None, 2),
        ("A", "1", 3),
        ("B", "x y", 3),
        ("C", None, 3),
        ("D", None, 4),
        ("E", "2", 4),
    ]


# 15. last declaration wins; ENV from an external base image is unknown, never empty
def test_last_declaration_wins_between_arg_and_env() -> None:
    e = evl("FROM scratch\nARG V=arg\nENV V=env\nRUN echo $V\nARG V=arg2\nRUN echo $V\n")
    assert value_at(e, 4, "V") == "env"
    assert value_at(e, 6, "V") == "arg2"


def test_env_from_external_base_is_unknown() -> None:
    e = evl("FROM ubuntu:22.04\nENV PATH=/opt/rocm/bin:$PATH\n")
    path = e.env[0]
    assert path.value is None  # unknown, not "/opt/rocm/bin:"
    e2 = evl("FROM scratch\nENV PATH=/opt/rocm/bin:$PATH\n")
    assert e2.env[0].value == "/opt/rocm/bin:"


def test_env_legacy_form_and_multiple_pairs() -> None:
    e = evl('FROM scratch\nENV A 1 2\nENV B=x C="y z" D=${B}\n')
    assert [(v.name, v.value) for v in e.env] == [("A", "1 2"), ("B", "x"), ("C", "y z"), ("D", "")]


# 16. predefined args are symbolic; proxy args need no declaration
def test_predefined_args_are_symbolic() -> None:
    e = evl("FROM --platform=$BUILDPLATFORM scratch AS b\nARG TARGETARCH\nARG PLAT=linux/${TARGETARCH}\n")
    targetarch, plat = e.args
    assert targetarch.default is None and targetarch.unknown
    assert plat.default == "linux/${TARGETARCH}" and plat.unknown
    assert e.stages[0].platform == "$BUILDPLATFORM"


# 17. shell fallback gives the effective default
def test_effective_default_from_shell_fallback() -> None:
    e = evl("FROM scratch\nARG MAX_JOBS=\nRUN MAX_JOBS=${MAX_JOBS:-$(nproc)} make\n")
    decl = e.args[0]
    assert decl.default == "" and decl.effective_default == "$(nproc)"
    assert decl.used_lines == (3,)


def test_shell_text_is_not_expanded_by_buildkit() -> None:
    e = evl("FROM scratch\nARG V=1\nRUN echo ${V:-2}\n")
    assert e.args[0].effective_default == "1"


def test_exec_form_run_does_not_use_args() -> None:
    e = evl('FROM scratch\nARG V=1\nRUN ["echo", "$V"]\n')
    assert e.args[0].used_lines == ()


# 18. FROM forms, stage references
def test_from_forms() -> None:
    e = evl(
        "ARG DEFAULT_BASE=ubuntu:22.04\n"
        "ARG BASE_IMAGE\n"
        "FROM ${BASE_IMAGE:-$DEFAULT_BASE} AS Base\n"
        "FROM base As Next\n"
        "from nvcr.io/nvidia/pytorch@sha256:abc\n"
    )
    assert [(s.name, s.base, s.parent) for s in e.stages] == [
        ("base", "ubuntu:22.04", None),
        ("next", "base", 0),
        (None, "nvcr.io/nvidia/pytorch@sha256:abc", None),
    ]
    assert e.stages[2].label == "#2"


def test_copy_and_mount_dependencies() -> None:
    e = evl(
        "FROM a AS build\nFROM b AS other\n"
        "FROM c\nCOPY --from=build /x /x\nRUN --mount=type=bind,from=other,target=/o true\n"
        "COPY --from=ghcr.io/astral-sh/uv:0.11 /uv /bin/\nCOPY --from=0 /y /y\n"
    )
    assert e.stages[2].depends_on == (0, 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("FROM x AS a\nFROM a AS a\n", "used twice"),
        ("FROM b AS a\nFROM x AS b\n", "defined later"),
        ("FROM a AS a\n", "itself"),
        ("ARG A\n", "no FROM"),
        ("FROM a b\n", "FROM needs"),
        ("FROM {{ image_name }}:{{ base_tag }}\n", "is template syntax: the file is a template to render"),
        ("FROM {% if cuda %}nvidia/cuda{% endif %} AS base x\n", "is template syntax"),
        ("FROM ${EMPTY}\n", "empty image"),
        ('FROM x\nARG A="unterminated\n', "unterminated"),
        ("FROM x\nARG A=${B\n", "missing '}'"),
    ],
)
def test_stage_and_value_errors(text: str, message: str) -> None:
    with pytest.raises(DockerfileError) as info:
        evl(text)
    assert message in str(info.value)
    assert str(info.value).startswith("Dockerfile:")


def test_a_from_error_says_template_only_for_template_syntax() -> None:
    with pytest.raises(DockerfileError) as info:
        evl("FROM a b\n")
    assert "template" not in str(info.value)


def test_hash_after_arg_is_warned_not_crashed() -> None:
    e = evl('FROM x\nARG TORCH_BRANCH="8514f05" # release/2.10\n')
    assert [a.name for a in e.args] == ["TORCH_BRANCH"]
    assert e.args[0].default == "8514f05"
    assert any("'#' is not a comment" in w.message for w in e.warnings)


def test_description_from_buildkit_doc_comment() -> None:
    e = evl(
        "# GPU_ARCH GPU architectures to compile kernels for\n"
        "#   (gfx942 = MI300)\n"
        "ARG GPU_ARCH=gfx942\n"
        "FROM x\n"
        "# not a doc comment for MAX_JOBS (a blank line comes between)\n"
        "\n"
        "ARG MAX_JOBS=\n"
        "ARG GPU_ARCH\n"
    )
    assert e.args[0].description == "GPU architectures to compile kernels for (gfx942 = MI300)"
    assert e.args[1].description == ""
    assert e.args[2].description == e.args[0].description  # a bare re-declaration repeats the purpose


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # public Dockerfiles (vLLM, llama.cpp, Jupyter): a comment right above a lone ARG is its purpose
        (
            "# max jobs used by Ninja to build extensions\nARG max_jobs=2\n",
            "max jobs used by Ninja to build extensions",
        ),
        (
            "# CUDA architecture to build for (defaults to all supported archs)\n"
            "ARG CUDA_DOCKER_ARCH=default\n",
            "CUDA architecture to build for (defaults to all supported archs)",
        ),
        (
            '# Pin the Python version here,\n# or set it to "default"\nARG PYTHON_VERSION=3.12\n',
            'Pin the Python version here, or set it to "default"',
        ),
        # not a purpose
        ("# max jobs\n\nARG max_jobs=2\n", ""),  # a blank line between
        ("# sizes of the two builds\nARG A=1 B=2\n", ""),  # more than one name
        ("# ARG OLD_NAME=1\nARG NEW_NAME=2\n", ""),  # a commented-out instruction
        ("# FOO=bar\nARG NEW_NAME=2\n", ""),
        ("# TODO: drop this\nARG NEW_NAME=2\n", ""),
        ("# ----------\nARG NEW_NAME=2\n", ""),
        ("# https://example.com/docs\nARG NEW_NAME=2\n", ""),
        ("# one\n# two\n# three\n# four lines\nARG NEW_NAME=2\n", ""),
        # TensorFlow: a sentence about two args is not the purpose of the first
        (
            "# ARCH and CUDA are specified again because the FROM directive resets ARGs\nARG ARCH\n",
            "",
        ),
    ],
)
def test_description_from_a_comment_right_above(text: str, expected: str) -> None:
    e = evl("FROM x\n" + text)
    assert e.args[0].description == expected


def test_mounts_of_many_stages_are_gathered_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stage whose RUNs mount n other stages was rebuilt at each RUN, with every stage found so far:
    n² (4,000 such RUNs: 1.1 s, 7.6× the cost of 1,000). Each RUN keeps or uses up what it mounts."""
    from docgen import evaluate as module

    rebuilt = []
    real = module.replace

    def counted(obj: object, **changes: object) -> object:
        rebuilt.append(changes)
        return real(obj, **changes)  # type: ignore[type-var]

    monkeypatch.setattr(module, "replace", counted)
    n = 300
    text = "FROM ubuntu:22.04 AS base\n" + "".join(f"FROM base AS s{i}\nRUN echo {i}\n" for i in range(n))
    text += "FROM base AS final\n" + "".join(
        f"RUN --mount=type=bind,from=s{i},target=/m {'cp /m/x /y' if i % 2 else 'pip install /m/x.whl'}\n"
        for i in range(n)
    )
    text += "RUN --mount=type=bind,from=s0,target=/m cp /m/x /z\n"  # s0 kept after all
    final = evl(text).stages[-1]
    assert final.depends_on == tuple(range(1, n + 1))
    assert final.used_up == tuple(1 + i for i in range(2, n, 2))
    assert len(rebuilt) <= 1


def test_names_a_run_reads_that_no_arg_or_env_sets() -> None:
    # `${INC_VER}` next to `ARG INC_VERSION`: read, never set; a declared ARG, an ENV and a global ARG
    # re-declared in the stage are set; a FROM line's names are not a RUN's
    evaluation = evl(
        "ARG BASE=ubuntu:22.04\nFROM ${BASE}\nARG INC_VERSION\nARG JOBS=4\nENV HOME_DIR=/srv\n"
        "RUN pip install inc${INC_VER:+==${INC_VER}} && make -j${JOBS} && cd ${HOME_DIR} && echo $BASE\n"
    )
    assert evaluation.unbound_reads == (("BASE", 6), ("INC_VER", 6))


def test_each_stage_records_its_copies_of_the_build_context_arg_expanded() -> None:
    ev = evl(
        "ARG APP=server\n"
        "FROM alpine:3.20 AS build\n"
        "ARG APP\n"
        "COPY ${APP}/requirements.txt $UNSET/x.sh /src/\n"
        "COPY --from=busybox:1.36 /bin/sh /sh\n"
        'FROM alpine:3.20\nADD ["conf d/", "/etc/app/"]\n'
        "COPY <<EOF /etc/motd\nhi\nEOF\n"
    )
    assert [(c.stage, c.line, c.sources, c.dest, c.heredoc) for c in ev.context_copies] == [
        (0, 4, ("server/requirements.txt", "${UNSET}/x.sh"), "/src/", False),
        (1, 7, ("conf d/",), "/etc/app/", False),
        (1, 8, ("<<EOF",), "/etc/motd", True),
    ]


@pytest.mark.parametrize(
    ("line", "pairs"),
    [
        ('ENV A=1 B="two words" C=${A}', [("A", "1"), ("B", '"two words"'), ("C", "${A}")]),
        # the legacy form: the rest of the line is the value
        ("ENV PATH  /opt/bin:$PATH  # kept", [("PATH", "/opt/bin:$PATH  # kept")]),
        ('ENV HOME "$HOME"', [("HOME", '"$HOME"')]),
    ],
)
def test_env_pairs_as_written(line: str, pairs: list[tuple[str, str]]) -> None:
    parsed = parse_dockerfile(f"FROM scratch\n{line}\n", "Dockerfile")
    assert env_pairs(parsed.instructions[1], parsed.escape) == pairs
