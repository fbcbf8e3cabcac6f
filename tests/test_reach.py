"""Which build args a RUN reads only in branches the default build does not take (docgen.sources.reach)."""

from __future__ import annotations

from pathlib import Path

from docgen.pipeline import build_model
from docgen.sources.reach import MAX_COMMANDS

DEAD = 'ENV EP=0\nARG DEEPEP_COMMIT=a1b2c3d\nRUN if [ "$EP" = 1 ]; then git checkout $DEEPEP_COMMIT; fi'


def unreached(tmp_path: Path, text: str) -> tuple[tuple[str, int], ...]:
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(text, encoding="utf-8")
    return build_model(dockerfile).unreached_uses


def test_a_read_only_in_a_branch_not_taken_is_unreached(tmp_path: Path) -> None:
    assert unreached(tmp_path, f"FROM ubuntu:24.04\n{DEAD}\n") == (("DEEPEP_COMMIT", 4),)


def test_a_here_document_a_running_command_reads_is_a_read(tmp_path: Path) -> None:
    text = f"FROM ubuntu:24.04\n{DEAD}; cat > /opt/ep.txt <<EOF\n${{DEEPEP_COMMIT}}\nEOF\n"
    assert unreached(tmp_path, text) == ()


def test_a_run_too_long_to_keep_counts_every_read(tmp_path: Path) -> None:
    padding = "; ".join(["true"] * MAX_COMMANDS)
    assert unreached(tmp_path, f"FROM ubuntu:24.04\n{DEAD}; {padding}\n") == ()
