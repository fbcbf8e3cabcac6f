"""`docgen audit`: a pin the README tells a maintainer to update for a release that nothing of the
project names (docgen/audit/release_vars.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = (
    "FROM debian:bookworm AS sim\n"
    "COPY --from=example/simkit-builds:sim-2024.2-cpu /simkit /simkit\n"
    "FROM debian:bookworm-slim\n"
    "COPY --from=sim /simkit /simkit\n"
)
RELEASE = "To ship a new release, open a pull request updating `SIMKIT_VERSION` and `SIMKIT_SHA256`."


def _findings(
    root: Path, readme: str, files: dict[str, str] | None = None, dockerfile: str = DOCKERFILE
) -> list[str]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model, {}, root, project=root)
    ]


def test_pins_a_release_is_said_to_update_that_nothing_names(tmp_path: Path) -> None:
    assert _findings(tmp_path, f"# Simkit\n\n{RELEASE}\n") == [
        "3: README documents build arg SIMKIT_VERSION but Dockerfile does not declare it (likely)",
        "3: README documents build arg SIMKIT_SHA256 but Dockerfile does not declare it (likely)",
    ]


def test_a_name_inside_a_longer_word_of_a_command_is_not_named(tmp_path: Path) -> None:
    readme = "# Simkit\n\nFor a new release, update `SIMKIT_TAG`.\n\n```bash\nexport SIMKIT_TAGS=a,b\n```\n"
    assert _findings(tmp_path, readme) == [
        "3: README documents build arg SIMKIT_TAG but Dockerfile does not declare it (likely)"
    ]


def test_instructions_of_a_long_paragraph_at_their_lines(tmp_path: Path) -> None:
    # Sentence ends and lines are found once a paragraph (each instruction looked back and forward
    # over the whole paragraph and counted its lines: n² on a paragraph of thousands of them).
    lines = [f"then update `SIM{k}_TAG` in your profile, for a release" for k in range(300)]
    found = _findings(tmp_path, "# Simkit\n\n" + "\n".join(lines) + "\n")
    assert len(found) == 300
    assert found[0].startswith("3: README documents build arg SIM0_TAG ")
    assert found[-1].startswith("302: README documents build arg SIM299_TAG ")


def test_a_sentence_over_two_lines(tmp_path: Path) -> None:
    readme = "# Simkit\n\nTo build a newer version,\nbump the value of `SIMKIT_TAG` in the build.\n"
    assert _findings(tmp_path, readme) == [
        "4: README documents build arg SIMKIT_TAG but Dockerfile does not declare it (likely)"
    ]


@pytest.mark.parametrize(
    ("where", "text"),
    [
        ("build.sh", "#!/bin/sh\ndocker build --build-arg SIMKIT_VERSION=$1 .\n"),  # a script reads them
        (".github/workflows/release.yml", "env:\n  SIMKIT_VERSION: 2024.2\n"),  # the CI passes them
        ("docker-compose.yml", "services:\n  sim:\n    build:\n      args:\n        - SIMKIT_VERSION\n"),
        ("versions.env", "SIMKIT_VERSION=2024.2\n"),
    ],
)
def test_a_file_of_the_project_names_it(tmp_path: Path, where: str, text: str) -> None:
    found = _findings(
        tmp_path, f"# Simkit\n\n{RELEASE}\n", {where: text.replace("SIMKIT_VERSION", "SIMKIT_SHA256") + text}
    )
    assert found == []


def test_the_dockerfile_names_it(tmp_path: Path) -> None:
    dockerfile = "ARG SIMKIT_VERSION=2024.2\nARG SIMKIT_SHA256=abc\n" + DOCKERFILE
    assert _findings(tmp_path, f"# Simkit\n\n{RELEASE}\n", dockerfile=dockerfile) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Set `CUDA_VISIBLE_DEVICES` to pick a GPU for the image.",  # no pin name
        "Update `SIMKIT_VERSION` in your shell profile.",  # no word about a release, a build or an image
        "We updated the image; `SIMKIT_VERSION` holds the release.",  # no instruction to update the name
        "Set `SIMKIT_VERSION` before you build the image:\n\n```bash\nexport SIMKIT_VERSION=2024.2\n```",
        "Run `docker run -e SIMKIT_TAG=x simkit`. Set `SIMKIT_TAG` to the image's release.",  # run time
        "Set `SIMKIT_VERSION` for a release:\n\n```bash\n./ship --tag=${SIMKIT_VERSION}\n```",  # a word of it
        # The sentence of the instruction has no word of a release; the ones around it have.
        "A release is tagged by hand. Update `SIMKIT_VERSION` in your shell profile. Then build it.",
        "The image: update `SIMKIT_VERSION` in your profile. Then a release.",
    ],
)
def test_sentences_that_are_no_claim(tmp_path: Path, sentence: str) -> None:
    assert _findings(tmp_path, f"# Simkit\n\n{sentence}\n") == []


def test_a_file_linked_from_outside_the_project_names_nothing(tmp_path: Path) -> None:
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside/versions.env").write_text("SIMKIT_VERSION=2024.2\nSIMKIT_SHA256=abc\n")
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "versions.env").symlink_to(tmp_path / "outside/versions.env")
    (proj / "blob.bin").write_bytes(b"\x00\xff\xfe\x00")
    (proj / "empty.env").write_bytes(b"")
    assert len(_findings(proj, f"# Simkit\n\n{RELEASE}\n")) == 2
    # a link inside the project is read
    (proj / "versions.env").unlink()
    (proj / "real.env").write_text("SIMKIT_VERSION=2024.2\nSIMKIT_SHA256=abc\n")
    (proj / "versions.env").symlink_to(proj / "real.env")
    assert _findings(proj, f"# Simkit\n\n{RELEASE}\n") == []
