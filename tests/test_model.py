"""The model's frozen dataclasses: those made by the thousand get an `__init__` that stores their fields
in one step (`docgen.model.store_fields_at_once`); they must behave as the dataclasses they are."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path

import pytest

from docgen.dockerfile import parse_dockerfile
from docgen.evaluate import Scope
from docgen.model import (
    ArgDecl,
    Component,
    Diagnostic,
    EnvVar,
    Flag,
    Instruction,
    Stage,
    store_fields_at_once,
)
from docgen.pipeline import build_model


def component(**changes: object) -> Component:
    fields: dict[str, object] = {
        "name": "torch",
        "kind": "pip",
        "version": "2.5.1",
        "ref": None,
        "source": "https://pypi.org/project/torch/",
        "method": "prebuilt",
        "stage": "base",
        "line": 3,
        "pinned": True,
    }
    return Component(**{**fields, **changes})  # type: ignore[arg-type]


@pytest.mark.parametrize("cls", [Diagnostic, Flag, Instruction, Stage, ArgDecl, EnvVar, Component, Scope])
def test_the_one_step_init_takes_the_dataclass_fields_in_order_with_their_defaults(cls: type) -> None:
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = dataclasses.fields(cls)
    assert [p.name for p in parameters] == [f.name for f in fields]
    assert [p.default for p in parameters] == [
        inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default for f in fields
    ]


def test_a_component_made_in_one_step_is_a_frozen_dataclass() -> None:
    made = component()
    assert made.arg is None and made.condition is None  # defaults
    assert made == component() and hash(made) == hash(component())
    assert made != component(version="2.6.0")
    assert dataclasses.replace(made, version="2.6.0") == component(version="2.6.0")
    assert dataclasses.asdict(made)["line"] == 3
    assert repr(made).startswith("Component(name='torch', kind='pip', version='2.5.1'")
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.version = "2.6.0"  # type: ignore[misc]
    with pytest.raises(TypeError, match="missing"):
        Component(name="torch")  # type: ignore[call-arg]
    positional = Component(
        "torch", "pip", "2.5.1", None, "https://pypi.org/project/torch/", "prebuilt", "base", 3, True
    )
    assert positional == made


def test_only_plain_fields_are_stored_in_one_step() -> None:
    @dataclasses.dataclass(frozen=True)
    class Listed:
        items: list[str] = dataclasses.field(default_factory=list)

    with pytest.raises(TypeError, match="Listed.items"):
        store_fields_at_once(Listed)


def test_an_instruction_s_body_is_its_args_then_each_here_document_on_a_line_of_its_own() -> None:
    text = "FROM scratch\nRUN <<A bash && cat <<B > /etc/x.conf\nset -e\nA\nkey=1\nB\nRUN echo plain\n"
    run, plain = parse_dockerfile(text, "Dockerfile").instructions[1:]
    assert run.body == "<<A bash && cat <<B > /etc/x.conf\nset -e\n\nkey=1\n"
    assert plain.body == plain.args == "echo plain"


def test_a_stage_s_chain_is_it_and_the_stages_it_is_built_from_down_to_the_base_image(tmp_path: Path) -> None:
    path = tmp_path / "Dockerfile"
    path.write_text(
        "FROM ubuntu:22.04 AS base\nFROM base AS dev\nFROM ubuntu:24.04 AS other\n"
        "COPY --from=dev /x /x\nFROM dev AS final\n"
    )
    model = build_model(path)
    assert [s.name for s in model.chain()] == ["final", "dev", "base"]  # not `other`, built FROM ubuntu:24.04
    other = model.stage_named("other")
    assert other is not None and model.chain(other) == [other]


def test_a_stage_is_found_by_its_name_in_any_case_and_by_a_from_reference(tmp_path: Path) -> None:
    path = tmp_path / "Dockerfile"
    path.write_text("FROM ubuntu:22.04 AS Builder\nRUN make\nFROM ubuntu:22.04\nCOPY --from=builder /x /x\n")
    model = build_model(path)
    builder, final = model.stages
    assert model.stage_named("builder") is model.stage_named("BUILDER") is builder
    assert model.stage_named("final") is None and model.stage_named("1") is None  # (an index is no name)
    assert model.stage_from("Builder") is builder and model.stage_from("1") is final
    assert model.stage_from("2") is None and model.stage_from("ubuntu:22.04") is None  # (an image)


def test_a_stage_s_lines_run_from_its_from_to_the_next_and_each_line_has_its_stage(tmp_path: Path) -> None:
    path = tmp_path / "Dockerfile"
    path.write_text("ARG BASE=ubuntu:22.04\nFROM ${BASE} AS one\nRUN a\n\nFROM one AS two\nRUN b\n")
    model = build_model(path)
    one, two = model.stages
    assert model.stage_lines(one) == (2, 4)
    assert model.stage_lines(two) == (5, 1 << 30)  # (the last runs on to the end of the file)
    assert [model.stage_at(line) for line in range(1, 8)] == [None, one, one, one, two, two, two]
