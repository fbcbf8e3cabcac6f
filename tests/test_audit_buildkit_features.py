"""`docgen.audit.buildkit_features`: a BuildKit feature a sentence says the Dockerfile uses (cache, secret
or SSH mounts, heredocs, `COPY --link`, `COPY --chmod`, `# syntax=`, the platform args) that no stage of
any Dockerfile audited writes is a finding, `certain` when the README writes the flag in code; BuildKit
said to be required for another reason, a condition, advice, a negation, a feature some stage uses (or
an ARG spells), and a loose `RUN --mount` answered by a mount of another type are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

PLAIN = """\
FROM python:3.12-slim AS build
WORKDIR /src
COPY requirements.txt .
RUN pip wheel -r requirements.txt -w /wheels

FROM python:3.12-slim
COPY --from=build /wheels /wheels
RUN pip install /wheels/*.whl
CMD ["python", "-m", "app"]
"""

MOUNTED = PLAIN.replace(
    "RUN pip wheel", "RUN --mount=type=cache,target=/root/.cache/pip pip wheel"
)  # (the builder stage only)
BIND = PLAIN.replace(
    "RUN pip install /wheels", "RUN --mount=type=bind,from=build,source=/wheels,target=/w pip install /w"
)
ARG_BUILT = PLAIN.replace(
    "WORKDIR /src", 'ARG PIP_CACHE="--mount=type=cache,target=/root/.cache/pip"\nWORKDIR /src'
)
HEREDOC = PLAIN.replace('CMD ["python"', 'RUN <<EOT\necho ready > /etc/app.ready\nEOT\nCMD ["python"')
SYNTAX = "# syntax=docker/dockerfile:1.7\n" + PLAIN
COMMENTED = PLAIN.replace(
    "RUN pip wheel", "# RUN --mount=type=cache,target=/root/.cache/pip pip wheel\nRUN pip wheel"
)
SECRET = PLAIN.replace("RUN pip wheel", "RUN --mount=type=secret,id=netrc pip wheel")

README = """\
# App image

## Building

{sentence}

```sh
DOCKER_BUILDKIT=1 docker build -t app .
```
"""


def found(root: Path, sentence: str, dockerfile: str = PLAIN) -> list[str]:
    make_tree(
        root,
        {"README.md": README.format(sentence=sentence), "Dockerfile": dockerfile, "requirements.txt": "x\n"},
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [model], {}, root)
        if "BuildKit" in d.message
    ]


def claim(said: str, spelled: str, confidence: str, line: int = 5) -> str:
    return (
        f"{line}: README says the Dockerfile uses BuildKit {said}, but Dockerfile has no {spelled} in any "
        f"stage ({confidence})"
    )


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "The Dockerfile uses BuildKit cache mounts (`RUN --mount=...`), so **BuildKit is\nrequired**.",
            [claim("cache mounts", "--mount=type=cache", "certain")],
        ),
        (
            "This Dockerfile relies on heredocs to write its settings file.",
            [claim("heredocs", "<<EOF", "likely")],
        ),
        (
            "Our Dockerfile now uses `COPY --link`, so a new base does not rebuild every layer.",
            [claim("COPY --link", "--link", "certain")],
        ),
        (
            "The image build makes use of secret mounts for the package index password.",
            [claim("secret mounts", "--mount=type=secret", "likely")],
        ),
        (
            "The Dockerfile in this folder uses `TARGETARCH` to pick the right wheel.",
            [claim("platform args", "TARGETARCH or --platform", "certain")],
        ),
    ],
)
def test_a_feature_no_stage_uses_is_a_finding(tmp_path: Path, sentence: str, expected: list[str]) -> None:
    assert found(tmp_path, sentence) == expected


def test_a_commented_out_mount_is_no_use(tmp_path: Path) -> None:
    assert found(tmp_path, "The Dockerfile uses cache mounts to keep pip downloads.", COMMENTED) == [
        claim("cache mounts", "--mount=type=cache", "likely")
    ]


@pytest.mark.parametrize(
    ("sentence", "dockerfile"),
    [
        # the feature is used, in some stage, or an ARG spells it
        ("The Dockerfile uses BuildKit cache mounts (`RUN --mount=...`).", MOUNTED),
        ("The Dockerfile uses BuildKit cache mounts, so BuildKit is required.", ARG_BUILT),
        ("The Dockerfile uses heredocs (`RUN <<EOT`).", HEREDOC),
        ("The Dockerfile uses the `# syntax=docker/dockerfile:1.7` directive.", SYNTAX),
        ("The Dockerfile uses `--mount=type=secret` for the index password.", SECRET),
        # loose wording: a cache mount named next to `RUN --mount`, answered by a bind mount
        ("The Dockerfile uses BuildKit cache mounts (`RUN --mount=...`).", BIND),
        # BuildKit required for another reason, or no feature named
        ("BuildKit is required because the build uses `docker buildx bake`.", PLAIN),
        ("The Dockerfile starts with a `# syntax=` line, so BuildKit is required.", SYNTAX),
        ("The Dockerfile uses BuildKit features, so enable BuildKit first.", PLAIN),
        # conditions, advice, negations
        ("If you use cache mounts, prune them with `docker builder prune`.", PLAIN),
        ("If the Dockerfile uses cache mounts, prune them with `docker builder prune`.", PLAIN),
        ("You can make the Dockerfile use cache mounts to speed up rebuilds.", PLAIN),
        ("The Dockerfile no longer uses cache mounts.", PLAIN),
        ("The Dockerfile does not use `RUN --mount`, so the classic builder works.", PLAIN),
        ("The Dockerfile uses Python 3.12, but cache mounts would make rebuilds faster.", PLAIN),
    ],
)
def test_traps_are_silent(tmp_path: Path, sentence: str, dockerfile: str) -> None:
    assert found(tmp_path, sentence, dockerfile) == []


def test_plural_subject_reads_the_dockerfiles_beside_the_readme(tmp_path: Path) -> None:
    make_tree(tmp_path, {"Dockerfile.cache": MOUNTED})
    assert found(tmp_path, "All our Dockerfiles use BuildKit cache mounts.") == []
    assert found(tmp_path, "The Dockerfile uses BuildKit cache mounts.") == [
        claim("cache mounts", "--mount=type=cache", "likely")
    ]


def test_a_long_paragraph_of_claims_is_read_sentence_by_sentence(tmp_path: Path) -> None:
    # (benchmarks/bench_shapes.py `buildkit-claims`: the code spans and the sentence start of the whole
    # paragraph were read again for each claim)
    sentences = [
        "The Dockerfile uses BuildKit cache mounts (`RUN --mount=type=cache`) for step {k}.",
        "If the Dockerfile uses heredocs, step {k} is shorter.",
        "This Dockerfile relies on heredocs for step {k}; see `make {k}`.",
    ]
    paragraph = "\n".join(sentences[k % 3].format(k=k) for k in range(30))
    also = "; also at lines {}"
    assert found(tmp_path, paragraph) == [
        claim("cache mounts", "--mount=type=cache", "certain").replace(
            " (", also.format("8, 11, 14, 17, 20, 23, 26, 29, 32") + " ("
        ),
        claim("heredocs", "<<EOF", "likely", 7).replace(
            " (", also.format("10, 13, 16, 19, 22, 25, 28, 31, 34") + " ("
        ),
    ]
