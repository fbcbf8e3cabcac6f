"""The GitHub Actions workflow reader (`docgen.workflows`): the builds a workflow runs, the build args it
passes with the line giving each value, and `docgen audit` using them for ARGs with no default."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import audit_tree

from docgen import workflows
from docgen.errors import ConfigError


def parse(text: str) -> list[tuple[str, str, dict[str, str], dict[str, int | None]]]:
    return [
        (t.name, t.dockerfile, dict(t.args), dict(t.own_args))
        for t in workflows.parse(text.encode(), ".github/workflows/ci.yml")
    ]


ACTION = """\
name: images
on:
  push:
  workflow_dispatch:
    inputs:
      base:
        description: the image to start from
        default: "nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04"
env:
  SOLVER_VERSION: "3.1.4"
jobs:
  publish:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: docker/build-push-action@v6
        with:
          context: .
          file: serve/Dockerfile
          push: true
          build-args: |
            BASE_IMAGE=${{ inputs.base }}
            SOLVER_VERSION=${{ env.SOLVER_VERSION }}
            TOKEN=${{ secrets.TOKEN }}
            RELEASE=$SOLVER_VERSION
            LEVEL=2
"""


def test_a_build_push_action_step_passes_its_build_args_with_the_line_giving_each() -> None:
    # An input's default and an env value are cited where they are written; a secret is unknown
    # (not passed), so is `$NAME` (no shell expands an action's build-args); a literal is cited on its
    # build-args line.
    assert parse(ACTION) == [
        (
            "ci.yml:publish",
            "../../serve/Dockerfile",
            {
                "BASE_IMAGE": "nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04",
                "SOLVER_VERSION": "3.1.4",
                "LEVEL": "2",
            },
            {"BASE_IMAGE": 8, "SOLVER_VERSION": 10, "LEVEL": 26},
        )
    ]


RUN = """\
on:
  workflow_dispatch:
    inputs:
      BASE:
        default: "rocm/dev-ubuntu-24.04:6.3"
jobs:
  build:
    runs-on: ubuntu-latest
    defaults:
      run:
        working-directory: images
    env:
      KERNEL_TAG: v0.9.2
    steps:
      - name: build
        run: |
          STAMP=$(date +%s)
          docker build \\
            --build-arg BASE_IMAGE=${{ github.event.inputs.BASE }} \\
            --build-arg KERNEL_TAG=$KERNEL_TAG \\
            --build-arg STAMP=$STAMP \\
            -f Dockerfile.rocm -t example/app:${{ github.sha }} .
      - name: test
        run: docker run --rm example/app pytest -q
"""


def test_a_docker_build_in_a_run_script_is_read_with_its_folder_and_env() -> None:
    # `$KERNEL_TAG` is the job's env; `$STAMP` the script sets itself: unknown, not passed.
    assert parse(RUN) == [
        (
            "ci.yml:build",
            "../../images/Dockerfile.rocm",
            {"BASE_IMAGE": "rocm/dev-ubuntu-24.04:6.3", "KERNEL_TAG": "v0.9.2"},
            {"BASE_IMAGE": 5, "KERNEL_TAG": 13},
        )
    ]


MATRIX = """\
on: push
jobs:
  images:
    strategy:
      matrix:
        flavour: [runtime, devel]
        os: [ubuntu20.04, ubuntu22.04]
        exclude:
          - flavour: devel
            os: ubuntu20.04
        include:
          - os: ubuntu22.04
            suffix: jammy
          - flavour: slim
            os: ubuntu24.04
    runs-on: ubuntu-latest
    steps:
      - uses: docker/build-push-action@v5
        with:
          build-args: |
            BASE_IMAGE=nvidia/cuda:12.6.3-${{ matrix.flavour }}-${{ matrix.os }}
            OS_NAME=${{ matrix.os }}
"""


def test_a_matrix_makes_one_build_per_combination() -> None:
    found = parse(MATRIX)
    assert [(name, args["OS_NAME"]) for name, _, args, _ in found] == [
        ("ci.yml:images runtime ubuntu20.04", "ubuntu20.04"),
        ("ci.yml:images runtime ubuntu22.04 jammy", "ubuntu22.04"),
        ("ci.yml:images devel ubuntu22.04 jammy", "ubuntu22.04"),
        ("ci.yml:images slim ubuntu24.04", "ubuntu24.04"),
    ]
    assert found[0][2]["BASE_IMAGE"] == "nvidia/cuda:12.6.3-runtime-ubuntu20.04"
    assert found[0][1] == "../../Dockerfile"
    assert found[0][3] == {"BASE_IMAGE": 21, "OS_NAME": 7}  # a value made of several: its build-args line


def test_what_is_not_plain_builds_nothing_or_passes_nothing() -> None:
    unread_matrix = MATRIX.replace(
        "os: [ubuntu20.04, ubuntu22.04]", "os: ${{ fromJSON(needs.plan.outputs.os) }}"
    )
    assert parse(unread_matrix) == []
    remote = ACTION.replace("context: .", "context: https://example.com/app.git")
    assert parse(remote) == []
    tests_only = "on: push\njobs:\n  test:\n    steps:\n      - run: python -m pytest -q\n"
    assert parse(tests_only) == []
    assert parse("") == [] and parse("- a list\n") == []


# `docgen audit`: a Dockerfile whose base only CI gives
DOCKERFILE = """\
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
ARG SOLVER_VERSION
RUN pip install solver==${SOLVER_VERSION}
"""


def audit_cli(root: Path, files: dict[str, str]) -> tuple[int, str, str]:
    result = audit_tree(root, files)
    return result.code, result.out, result.err


README = """\
# Solver image

## Contents

- **OS**: Ubuntu 24.04
- **Solver**: 3.1.4
"""


def test_the_base_ci_passes_is_the_image_audited_and_the_workflow_line_is_cited(tmp_path: Path) -> None:
    files = {
        "Dockerfile": DOCKERFILE,
        ".github/workflows/ci.yml": ACTION.replace("serve/Dockerfile", "Dockerfile"),
        "README.md": README,
    }
    code, out, _ = audit_cli(tmp_path, files)
    assert code == 1
    assert out.splitlines()[0] == (
        "README.md:5: error: README says Ubuntu 24.04 but .github/workflows/ci.yml:8 says 22.04 [DG101] "
        "(likely)"
    )
    assert len(out.splitlines()) == 2  # Solver 3.1.4 is what the workflow passes: true


def test_a_solver_version_ci_passes_is_compared(tmp_path: Path) -> None:
    files = {
        "Dockerfile": DOCKERFILE,
        ".github/workflows/ci.yml": ACTION.replace("serve/Dockerfile", "Dockerfile"),
        "README.md": README.replace("Ubuntu 24.04", "Ubuntu 22.04").replace("3.1.4", "3.0.0"),
    }
    code, out, _ = audit_cli(tmp_path, files)
    assert "README says Solver 3.0.0 but .github/workflows/ci.yml:10 says 3.1.4" in out
    assert code == 1


def test_traps_stay_silent(tmp_path: Path) -> None:
    cases = {
        # CI builds another Dockerfile (its `file:`): this one's base stays unknown
        "other-file": {".github/workflows/ci.yml": ACTION},
        # a matrix: the README's release is one of the builds
        "matrix": {".github/workflows/ci.yml": MATRIX},
        # the ARG has a default: the README documents it, CI's override is CI's
        "default": {
            "Dockerfile": DOCKERFILE.replace("ARG BASE_IMAGE\n", "ARG BASE_IMAGE=ubuntu:24.04\n"),
            ".github/workflows/ci.yml": ACTION.replace("serve/Dockerfile", "Dockerfile"),
        },
        # a workflow that only runs the tests
        "tests": {".github/workflows/ci.yml": "on: push\njobs:\n  t:\n    steps:\n      - run: make test\n"},
        # a value docgen cannot read (a step's output)
        "unknown": {
            ".github/workflows/ci.yml": ACTION.replace("serve/Dockerfile", "Dockerfile").replace(
                "${{ inputs.base }}", "${{ steps.plan.outputs.base }}"
            )
        },
    }
    for name, extra in cases.items():
        root = tmp_path / name
        root.mkdir()
        files = {"Dockerfile": DOCKERFILE, "README.md": README, **extra}
        if name == "matrix":
            files["README.md"] = README.replace("24.04", "22.04")
        code, out, _ = audit_cli(root, files)
        assert code == 0, (name, out)


INCLUDED = """\
on: push
env:
  MIRROR: ${{ vars.MIRROR || 'docker.io' }}
  FLAVOUR: ${{ inputs.flavour || 'runtime' }}
jobs:
  image:
    strategy:
      matrix:
        include:
          - base: nvidia/cuda:12.8.1-devel-ubuntu22.04
          - base: nvidia/cuda:12.6.3-devel-ubuntu20.04
    steps:
      - uses: docker/build-push-action@v6
        with:
          build-args: BASE_IMAGE=${{ matrix.base }}
      - run: >
          docker buildx build --platform linux/amd64
          --build-arg MIRROR=${{ env.MIRROR }} --build-arg FLAVOUR=${{ env.FLAVOUR }}
          -f ./docker/Dockerfile.extra ./docker
"""


def test_a_matrix_of_includes_alone_and_the_fallbacks_read() -> None:
    # Each `include` is its own combination; `inputs.X || 'x'` is `x` when the input has no default,
    # while `vars.X || 'x'` is unknown (the repository may set the variable).
    found = parse(INCLUDED)
    assert [(d, a) for _, d, a, _ in found] == [
        ("../../Dockerfile", {"BASE_IMAGE": "nvidia/cuda:12.8.1-devel-ubuntu22.04"}),
        ("../../docker/Dockerfile.extra", {"FLAVOUR": "runtime"}),
        ("../../Dockerfile", {"BASE_IMAGE": "nvidia/cuda:12.6.3-devel-ubuntu20.04"}),
        ("../../docker/Dockerfile.extra", {"FLAVOUR": "runtime"}),
    ]
    assert found[0][3] == {"BASE_IMAGE": 10} and found[1][3] == {"FLAVOUR": 4}


REQUIRED = """\
# Solver

| Argument | Default | Description |
|---|---|---|
| `BASE_IMAGE` | (required) | The image to start from |
| `SOLVER_VERSION` | (required) | The solver release |

`BASE_IMAGE` has no default and must be explicitly specified.
"""


def test_a_value_ci_passes_is_no_default_of_the_dockerfile(tmp_path: Path) -> None:
    # The README documents the Dockerfile's build args: BASE_IMAGE has no default there, whatever
    # CI passes; the base CI builds on is still the image's (Ubuntu 22.04, true here).
    files = {
        "Dockerfile": DOCKERFILE,
        ".github/workflows/ci.yml": ACTION.replace("serve/Dockerfile", "Dockerfile"),
        "README.md": REQUIRED + "\nBuilt on Ubuntu 22.04.\n",
    }
    code, out, _ = audit_cli(tmp_path, files)
    assert (code, out.splitlines()[0]) == (
        0,
        "README.md: no claim outside the docgen blocks contradicts Dockerfile (ci.yml:publish)",
    )


# Hostile workflows: each took minutes (or a traceback) before, and is read in linear time now.


def test_a_long_chain_of_fallbacks_is_no_recursion() -> None:
    # `${{ a || a || … }}`: each `||` was a level of recursion (RecursionError at a thousand)
    chain = " || ".join(["inputs.none"] * 3000)
    text = f"jobs:\n  b:\n    steps:\n      - run: docker build --build-arg A=${{{{ {chain} }}}} .\n"
    assert [t[2] for t in parse(text)] == [{}]


def test_many_expressions_unclosed_ones_and_build_args_on_one_command_are_read_once() -> None:
    # each word was searched for each expression held, each `${{` left open searched to the line's
    # end, each build arg searched for on every line of its command, and each continuation line copied
    # the command joined so far: 12 s to 45 s each at these sizes
    labels = " ".join(f"--label l{i}=${{{{ env.X{i} }}}}" for i in range(8000))
    unclosed = "${{ x" * 20000
    many = "".join(f"            --build-arg A{i}=v{i} \\\n" for i in range(12000))
    text = (
        "jobs:\n  b:\n    steps:\n"
        f"      - run: docker build {labels} .\n"
        f"      - run: docker build --build-arg B={unclosed} .\n"
        f"      - run: |\n          docker build \\\n{many}            .\n"
    )
    found = workflows.parse(text.encode(), ".github/workflows/ci.yml")
    assert [len(t.args) for t in found] == [0, 0, 12000]
    assert found[2].args["A11999"] == "v11999"
    assert found[2].own_args["A0"] == 8 and found[2].own_args["A11999"] == 12007


def test_a_held_expression_name_of_the_scripts_own_is_text() -> None:
    text = "jobs:\n  b:\n    steps:\n      - run: docker build --build-arg A=__docgen7__ .\n"
    assert [t[2] for t in parse(text)] == [{"A": "__docgen7__"}]


def test_steps_a_matrix_and_aliases_repeat_are_read_within_a_budget() -> None:
    # 30 aliases of one step in each of 256 combinations: 7,680 readings of a 3 kB script (minutes)
    run = "docker build " + " ".join(f"--build-arg A{i}=v" for i in range(200)) + " ."
    values = ",".join(str(i) for i in range(256))
    text = (
        f"x: &s {{run: '{run}'}}\njobs:\n  b:\n    strategy:\n      matrix:\n        v: [{values}]\n"
        f"    steps: [{','.join(['*s'] * 30)}]\n"
    )
    with pytest.raises(ConfigError, match="more than 1,048,576 characters of scripts"):
        workflows.parse(text.encode(), ".github/workflows/ci.yml")
    # the same step once in each of the 256: read
    few = text.replace(",".join(["*s"] * 30), "*s")
    assert len(workflows.parse(few.encode(), ".github/workflows/ci.yml")) == 256


def test_a_workflow_linked_from_outside_the_project_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside.yml"
    outside.write_text(
        "jobs:\n  b:\n    steps:\n      - run: docker build --build-arg BASE_IMAGE=ubuntu:20.04 .\n"
    )
    project = tmp_path / "project"
    (project / workflows.FOLDER).mkdir(parents=True)
    (project / workflows.FOLDER / "ci.yml").symlink_to(outside)
    files = {
        "Dockerfile": "ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\n",
        "README.md": "# x\n\nBuilt on Ubuntu 22.04.\n",
    }
    code, out, err = audit_cli(project, files)
    assert (code, out.count("20.04"), err) == (0, 0, "")


def test_a_hash_inside_a_word_or_a_quoted_value_is_no_comment() -> None:
    # The shell starts a comment only at a `#` that begins a word outside quotes: the command was cut at
    # the first `#` anywhere once a ` #` stood on its line, losing the context and the args after it.
    text = (
        "jobs:\n  b:\n    steps:\n      - run: |\n"
        '          docker build --build-arg NOTE="rev #4" --build-arg URL=https://x.example/a#b'
        " -f ci/Dockerfile ci  # nightly --build-arg LATE=1\n"
        "          docker build --build-arg TAG='v1 # rc' . # --build-arg GONE=1\n"
        "          docker build --build-arg A=1 \\#literal .\n"
    )
    assert parse(text) == [
        (
            "ci.yml:b",
            "../../ci/Dockerfile",
            {"NOTE": "rev #4", "URL": "https://x.example/a#b"},
            {"NOTE": 5, "URL": 5},
        ),
        ("ci.yml:b", "../../Dockerfile", {"TAG": "v1 # rc"}, {"TAG": 6}),
        # `\#` is an escaped `#`, a word of its own: the context is the last word, `.`. Each command of a
        # script is cited on its own line (all were cited on the script's first).
        ("ci.yml:b", "../../Dockerfile", {"A": "1"}, {"A": 7}),
    ]


def test_a_command_with_a_huge_word_is_not_read_and_long_words_cost_linear() -> None:
    # shlex grows a word a character at a time, copying it: a 400,000-character word took 4 s; and
    # `NAME=` was looked for from each letter of a long word (7 s for 200,000 characters in words of
    # 4,095 letters)
    huge = "docker build --build-arg A=" + "x" * 200_000 + " ."
    quoted = 'docker build --build-arg A="' + "x " * 100_000 + '" .'
    long_words = "docker build " + ("y" * (workflows.MAX_WORD - 1) + " ") * 100 + "."
    text = "jobs:\n  b:\n    steps:\n" + "".join(f"      - run: {c}\n" for c in (huge, quoted, long_words))
    assert [(t.dockerfile, dict(t.args)) for t in workflows.parse(text.encode(), "ci.yml")] == [
        ("../../Dockerfile", {})
    ]


SCRIPT_PUSHES = b"""\
on: push
env:
  HOST: ghcr.io
jobs:
  images:
    runs-on: ubuntu-latest
    steps:
      - run: echo "OWNER_REPO=${GITHUB_REPOSITORY,,}" >> $GITHUB_ENV
      - run: |
          NAME=$HOST/${OWNER_REPO}/api
          docker push $NAME:1.0
          sudo docker push "$NAME:$(date +%F)"
"""


def test_script_pushes_read_assignments_and_the_github_env() -> None:
    assert workflows.script_pushes(SCRIPT_PUSHES, "w.yml", "Acme/Depot") == (
        "ghcr.io/acme/depot/api:1.0",
        "ghcr.io/acme/depot/api:$(date +%F)",
    )
    assert workflows.script_pushes(SCRIPT_PUSHES, "w.yml", None) is None  # the repository is not known
    chained = SCRIPT_PUSHES.replace(b"docker push $NAME:1.0", b"make && docker push $NAME:1.0")
    assert workflows.script_pushes(chained, "w.yml", "Acme/Depot") is None  # a push not read


def test_build_push_action_tags_read_what_earlier_steps_wrote_to_the_github_env() -> None:
    data = b"""\
on: push
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - uses: docker/build-push-action@v6
        with: {push: true, tags: "ghcr.io/${{ env.REPO }}:early"}
      - run: echo "REPO=${GITHUB_REPOSITORY,,}" >> "$GITHUB_ENV"
      - uses: docker/build-push-action@v6
        with: {push: true, tags: "ghcr.io/${{ env.REPO }}:late"}
"""
    read = workflows.pushes(data, "w.yml", "Acme/Depot")
    assert read is not None
    assert [p.tags for p in read] == [
        (workflows.UNKNOWN.join(["ghcr.io/", ":early"]),),
        ("ghcr.io/acme/depot:late",),
    ]
    read = workflows.pushes(data, "w.yml")
    assert read is not None and workflows.UNKNOWN in read[1].tags[0]


METADATA = """\
on:
  push:
    branches: [main, 'release/*']
    tags: ['v*']
jobs:
  image:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        flavour: [cpu, rocm]
    steps:
      - id: meta
        uses: docker/metadata-action@v5
        with:
          images: |
            name=ghcr.io/acme/solver
            name=acme/solver,enable=${{ github.event_name != 'pull_request' }}
          flavor: |
            suffix=-${{ matrix.flavour }}
          tags: |
            type=ref,event=branch
            type=semver,pattern={{major}}.{{minor}}
            type=sha,prefix=git-
            type=raw,value=nightly,enable=false
      - uses: docker/build-push-action@v6
        with:
          context: ./docker
          push: true
          tags: ${{ steps.meta.outputs.tags }}
"""


def test_metadata_action_tags_read_as_patterns_per_matrix_combination() -> None:
    found = workflows.pushes(METADATA.encode(), "m.yml")
    assert found is not None and [p.dockerfile for p in found] == ["docker/Dockerfile"] * 2
    first = found[0]
    assert first.tags == ()
    assert {image for image, _, _ in first.rules} == {"ghcr.io/acme/solver", "acme/solver"}
    shown = [s for image, _, s in first.rules if image == "acme/solver"]
    assert shown == ["<branch>-cpu", "{{major}}.{{minor}}-cpu", "git-<commit>-cpu", "latest"]

    def gives(tag: str, push: workflows.Push = first) -> bool:
        return any(re.fullmatch(p, tag) for image, p, _ in push.rules if image == "acme/solver")

    assert gives("main-cpu") and gives("release-2-cpu") and gives("1.4-cpu") and gives("git-3f2a9c1-cpu")
    assert gives("latest") and not gives("nightly-cpu") and not gives("dev-cpu") and not gives("main-rocm")
    assert gives("main-rocm", found[1])


def test_metadata_branch_tags_of_a_workflow_run_by_hand_are_any() -> None:
    flow = METADATA.replace("on:\n", "on:\n  workflow_dispatch:\n")
    found = workflows.pushes(flow.encode(), "m.yml")
    assert found is not None
    assert any(re.fullmatch(p, "dev-cpu") for _, p, _ in found[0].rules)


def test_script_pushes_give_the_images_docker_tag_names() -> None:
    flow = """\
env:
  IMAGE: ghcr.io/acme/solver
jobs:
  latest:
    steps:
      - run: |
          docker tag $IMAGE:cu-12.4 $IMAGE:latest
          docker push ${{ env.IMAGE }}:latest
"""
    retags: dict[str, str] = {}
    assert workflows.script_pushes(flow.encode(), "l.yml", None, retags) == ("ghcr.io/acme/solver:latest",)
    assert retags == {"ghcr.io/acme/solver:latest": "ghcr.io/acme/solver:cu-12.4"}
