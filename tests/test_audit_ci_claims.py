"""`docgen.audit.ci_claims`: what a README says the GitHub Actions workflow building its image does (its
triggers, the registries it pushes to, the secrets it reads) against the workflow files. A claimed
trigger no builder has, a registry none logs in to and a secret no workflow names are findings; a
trigger a caller of a reusable workflow gives, a registry an env value or expression names, a secret
read through `vars`, an environment, `secrets[…]` or a remote workflow, and CI of other things are not."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.errors import MAX_FILE_BYTES
from docgen.pipeline import model_of

DOCKERFILE = "FROM python:3.12-slim\nRUN pip install --no-cache-dir tilemaker==0.4.1\nEXPOSE 7070\n"

BUILD = """\
name: image
on:
  push:
    branches: [trunk]
  workflow_dispatch:
jobs:
  image:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: docker/login-action@v3
        with:
          registry: ghcr.io
          username: ${{ github.actor }}
          password: ${{ secrets.PACKAGES_PAT }}
      - uses: docker/build-push-action@v6
        with:
          context: .
          push: true
          tags: ghcr.io/${{ github.repository_owner }}/tilemaker:edge
"""

CI_SECTION = """\
# Tile server

## Automated builds

The repository has a GitHub Actions workflow that:

- Builds the container image on every push or pull request
- Pushes the image to Docker Hub or GHCR

To publish from your fork, add these repository secrets:

- `HUB_LOGIN`
- `PACKAGES_PAT`
"""


def found(tmp_path: Path, readme: str, **files: str) -> list[str]:
    """The findings of this module for `readme` next to a Dockerfile and `files` (`__` is `/`)."""
    (tmp_path / "Dockerfile").write_text(DOCKERFILE)
    for name, body in files.items():
        target = tmp_path / name.replace("__", "/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body)
    (tmp_path / "README.md").write_text(readme)
    model = model_of(parse_dockerfile(DOCKERFILE, "Dockerfile"))
    diagnostics = audit(readme, "README.md", model, directory=tmp_path)
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in diagnostics
        if "CI workflow" in d.message and "README" in d.message
    ]


WORKFLOW = ".github__workflows__image.yml"


def test_a_trigger_a_registry_and_a_secret_the_workflow_does_not_have(tmp_path: Path) -> None:
    assert found(tmp_path, CI_SECTION, **{WORKFLOW: BUILD}) == [
        "7: README says the CI workflow builds the image on pull requests, but the workflows that build it "
        "(.github/workflows/image.yml:2) run on push, workflow_dispatch only (likely)",
        "8: README says the CI workflow pushes the image to Docker Hub, but the workflows that build it "
        "(.github/workflows/image.yml) log in to GHCR only (likely)",
        "12: README names the secret HUB_LOGIN for the CI workflow, but no workflow of the repository "
        "(.github/workflows/image.yml) reads it (they read PACKAGES_PAT) (likely)",
    ]


def test_the_workflow_agrees(tmp_path: Path) -> None:
    agreeing = (
        BUILD.replace("  workflow_dispatch:\n", "  pull_request:\n")
        .replace(
            "      - uses: docker/build-push-action", HUB_LOGIN + "      - uses: docker/build-push-action"
        )
        .replace("secrets.PACKAGES_PAT }}", "secrets.PACKAGES_PAT }}\n          # HUB_LOGIN")
    )
    assert found(tmp_path, CI_SECTION, **{WORKFLOW: agreeing}) == []


HUB_LOGIN = """\
      - uses: docker/login-action@v3
        with:
          username: ${{ vars.HUB_USER }}
          password: ${{ secrets.HUB_PASSWORD }}
"""


def test_schedules_and_tags_claimed(tmp_path: Path) -> None:
    readme = (
        "# Tile server\n\n## CI\n\n"
        "A nightly build of the image is published by the workflow.\n\n"
        "The workflow also builds the image on every release tag.\n"
    )
    assert found(tmp_path, readme, **{WORKFLOW: BUILD}) == [
        "5: README says the CI workflow builds the image on a schedule, but the workflows that build it "
        "(.github/workflows/image.yml:2) run on push, workflow_dispatch only (likely)",
        "7: README says the CI workflow builds the image on tags or releases, but the workflows that "
        "build it (.github/workflows/image.yml:2) run on push, workflow_dispatch only (likely)",
    ]


def test_tags_a_push_without_branch_filter_or_a_release_starts(tmp_path: Path) -> None:
    readme = "# Tile server\n\n## CI\n\nThe workflow builds the image on every release tag.\n"
    unfiltered = BUILD.replace("  push:\n    branches: [trunk]\n", "  push:\n")
    assert found(tmp_path, readme, **{WORKFLOW: unfiltered}) == []
    released = BUILD.replace("  workflow_dispatch:\n", "  release:\n    types: [published]\n")
    (tmp_path / "released").mkdir()
    assert found(tmp_path / "released", readme, **{WORKFLOW: released}) == []


def test_a_tag_name_in_code_is_no_schedule(tmp_path: Path) -> None:
    readme = "# Tile server\n\n## CI\n\nCI builds the image, pushing the `nightly` tag on every push.\n"
    assert found(tmp_path, readme, **{WORKFLOW: BUILD}) == []


def test_pull_request_target_is_a_pull_request_trigger(tmp_path: Path) -> None:
    readme = "# Tile server\n\n## CI\n\nThe workflow builds the image for every PR.\n"
    workflow = BUILD.replace("  workflow_dispatch:\n", "  pull_request_target:\n")
    assert found(tmp_path, readme, **{WORKFLOW: workflow}) == []


def test_the_ci_of_other_things(tmp_path: Path) -> None:
    tests_only = (
        "on:\n  push:\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: pytest -q\n        env:\n          TOKEN: ${{ secrets.CODECOV_TOKEN }}\n"
    )
    readme = (
        "# Tile server\n\n## CI\n\n"
        "The workflow builds the image on every pull request and pushes it to Quay.\n\n"
        "Set the repository secret `QUAY_ROBOT`.\n"
    )
    # no trigger, registry or secret is compared with a workflow that builds nothing; that it builds
    # nothing is the finding (`unbuilt_ci_claims`)
    assert found(tmp_path, readme, **{WORKFLOW: tests_only}) == [
        "5: README says the CI workflow builds and pushes the image to Quay, but no step of the workflows "
        "(.github/workflows/image.yml) builds or pushes an image (likely)",
    ]


def test_a_workflow_building_another_dockerfile(tmp_path: Path) -> None:
    other = BUILD.replace("          context: .\n", "          context: docs\n")
    readme = "# Tile server\n\n## CI\n\nThe workflow builds the image on every pull request.\n"
    assert found(tmp_path, readme, **{WORKFLOW: other, "docs__Dockerfile": "FROM nginx:1.27\n"}) == []


CALLED = BUILD.replace(
    "on:\n  push:\n    branches: [trunk]\n  workflow_dispatch:\n", "on:\n  workflow_call:\n"
).replace("secrets.PACKAGES_PAT", "secrets.HUB_TOKEN")
CALLER = """\
on:
  schedule:
    - cron: "0 3 * * *"
jobs:
  nightly:
    uses: ./.github/workflows/build.yml
    secrets: inherit
"""


def test_a_reusable_workflow_started_by_a_local_caller(tmp_path: Path) -> None:
    readme = (
        "# Tile server\n\n## CI\n\nThe image is built nightly by GitHub Actions.\n\n"
        "In your fork, create the repository secret `HUB_TOKEN`.\n"
    )
    files = {".github__workflows__build.yml": CALLED, ".github__workflows__nightly.yml": CALLER}
    assert found(tmp_path, readme, **files) == []


def test_a_builder_no_local_workflow_calls(tmp_path: Path) -> None:
    readme = "# Tile server\n\n## CI\n\nThe workflow builds the image on every pull request.\n"
    assert found(tmp_path, readme, **{".github__workflows__build.yml": CALLED}) == []


def test_a_remote_reusable_workflow_is_not_read(tmp_path: Path) -> None:
    remote = (
        BUILD + "  shared:\n    uses: tile-org/ci/.github/workflows/publish.yml@v2\n    secrets: inherit\n"
    )
    assert found(tmp_path, CI_SECTION, **{WORKFLOW: remote}) == []


def test_secrets_read_by_an_expression(tmp_path: Path) -> None:
    dynamic = BUILD.replace("secrets.PACKAGES_PAT", "secrets[format('{0}_PAT', matrix.registry)]")
    readme = "# Tile server\n\n## CI\n\nThe workflow needs the repository secret `HUB_LOGIN`.\n"
    assert found(tmp_path, readme, **{WORKFLOW: dynamic}) == []


def test_secrets_an_environment_or_vars_hold(tmp_path: Path) -> None:
    environment = BUILD.replace(
        "    runs-on: ubuntu-latest\n", "    runs-on: ubuntu-latest\n    environment: prod\n"
    )
    environment = environment.replace("github.actor", "vars.REGISTRY_USER")
    readme = (
        "# Tile server\n\n## CI\n\nAdd the environment secret `PACKAGES_PAT` and the secret "
        "`REGISTRY_USER` for the workflow; `GITHUB_TOKEN` is given by GitHub.\n"
    )
    assert found(tmp_path, readme, **{WORKFLOW: environment}) == []


def test_an_example_secret_name(tmp_path: Path) -> None:
    readme = (
        "# Tile server\n\n## CI\n\nTo push from elsewhere, store a token in a secret "
        "(e.g. `GHCR_WRITE_TOKEN`) and update the workflow to use it.\n"
    )
    assert found(tmp_path, readme, **{WORKFLOW: BUILD}) == []


def test_secrets_in_a_table_and_a_command_are_certain(tmp_path: Path) -> None:
    readme = (
        "# Tile server\n\n## GitHub Actions\n\n| Secret | Meaning |\n|---|---|\n"
        "| `HUB_LOGIN` | Docker Hub user |\n| `PACKAGES_PAT` | token |\n\n"
        "```bash\ngh secret set HUB_PASSWORD\n```\n"
    )
    assert found(tmp_path, readme, **{WORKFLOW: BUILD}) == [
        "7: README names the secret HUB_LOGIN for the CI workflow, but no workflow of the repository "
        "(.github/workflows/image.yml) reads it (they read PACKAGES_PAT) (certain)",
        "11: README names the secret HUB_PASSWORD for the CI workflow, but no workflow of the repository "
        "(.github/workflows/image.yml) reads it (they read PACKAGES_PAT) (certain)",
    ]


def test_registries_an_env_value_or_a_plain_login_give(tmp_path: Path) -> None:
    readme = "# Tile server\n\n## CI\n\nThe workflow pushes the image to GHCR and Docker Hub.\n"
    through_env = BUILD.replace("registry: ghcr.io", "registry: ${{ env.REGISTRY }}").replace(
        "jobs:\n", "env:\n  REGISTRY: ghcr.io\njobs:\n"
    )
    scripted = through_env.replace(
        "      - uses: docker/build-push-action",
        '      - run: echo "$PW" | docker login -u tiles --password-stdin\n'
        "      - uses: docker/build-push-action",
    )
    assert found(tmp_path, readme, **{WORKFLOW: scripted}) == []


def test_a_registry_an_env_value_gives_is_read(tmp_path: Path) -> None:
    readme = "# Tile server\n\n## CI\n\nThe workflow pushes the image to Docker Hub.\n"
    through_env = BUILD.replace("registry: ghcr.io", "registry: ${{ env.REGISTRY }}").replace(
        "jobs:\n", "env:\n  REGISTRY: ghcr.io\njobs:\n"
    )
    assert found(tmp_path, readme, **{WORKFLOW: through_env}) == [
        "5: README says the CI workflow pushes the image to Docker Hub, but the workflows that build it "
        "(.github/workflows/image.yml) log in to GHCR only (likely)"
    ]


def test_a_registry_an_expression_gives(tmp_path: Path) -> None:
    readme = "# Tile server\n\n## CI\n\nThe workflow pushes the image to Docker Hub.\n"
    unknown = BUILD.replace("registry: ghcr.io", "registry: ${{ vars.REGISTRY }}").replace("ghcr.io/", "")
    assert found(tmp_path, readme, **{WORKFLOW: unknown}) == []


def test_another_ci_system_or_no_ci_words(tmp_path: Path) -> None:
    readme = (
        "# Tile server\n\n## Releases\n\nReleases are published to Docker Hub.\n\n"
        "## Pipelines\n\nGitLab CI builds the image on every pull request; set the secret `HUB_LOGIN`.\n"
    )
    assert found(tmp_path, readme, **{WORKFLOW: BUILD}) == []


def test_a_secrets_table_a_github_secrets_item_introduces(tmp_path: Path) -> None:
    readme = (
        "# Tile server\n\n## Requirements\n\n"
        "1. **GitHub Secrets**: add the registry login to the repository:\n\n"
        "   | Secret Name | Value |\n   |---|---|\n"
        "   | `PACKAGES_PAT` | a token |\n   | `HUB_LOGIN` | a user |\n"
    )
    assert found(tmp_path, readme, **{WORKFLOW: BUILD}) == [
        "10: README names the secret HUB_LOGIN for the CI workflow, but no workflow of the repository "
        "(.github/workflows/image.yml) reads it (they read PACKAGES_PAT) (certain)"
    ]


def test_registries_when_no_login_is_seen_or_the_build_action_logs_in(tmp_path: Path) -> None:
    readme = "# Tile server\n\n## CI\n\nThe workflow pushes the image to Docker Hub.\n"
    unseen = BUILD.replace("docker/login-action@v3", "tile-org/registry-login@v1")
    assert found(tmp_path, readme, **{WORKFLOW: unseen}) == []
    (tmp_path / "v1").mkdir()
    itself = BUILD.replace(
        "docker/build-push-action@v6\n        with:\n",
        ("docker/build-push-action@v1\n        with:\n          username: ${{ secrets.HUB_USER }}\n"),
    )
    assert found(tmp_path / "v1", readme, **{WORKFLOW: itself}) == []


def test_daily_use_and_commits_a_pull_request_builds(tmp_path: Path) -> None:
    readme = (
        "# Tile server\n\n## CI\n\nThe workflow builds an image for daily development.\n\n"
        "The workflow builds the image on each commit of a pull request.\n"
    )
    on_pulls = BUILD.replace("on:\n  push:\n    branches: [trunk]\n", "on:\n  pull_request:\n")
    assert found(tmp_path, readme, **{WORKFLOW: on_pulls}) == []


@pytest.mark.parametrize("kind", ["link", "large"])
def test_a_workflow_docgen_does_not_read_leaves_the_ci_unknown(tmp_path: Path, kind: str) -> None:
    """A second workflow that is a link to a file outside the project, or larger than
    `errors.MAX_FILE_BYTES` (`files.bytes_or_none` gives none, as for every file read beside the
    README): it may hold the trigger, registry or secret the README names, so nothing is claimed of the
    CI. The same project with that workflow readable, and agreeing with nothing said, has the findings."""
    project = tmp_path / "proj"
    project.mkdir()
    nightly = project / ".github/workflows/nightly.yml"
    readable = found(
        project, CI_SECTION, **{WORKFLOW: BUILD, WORKFLOW.replace("image", "nightly"): "on: push\n"}
    )
    assert len(readable) == 3
    if kind == "link":
        (tmp_path / "elsewhere.yml").write_text(BUILD.replace("push:", "pull_request:"))
        nightly.unlink()
        nightly.symlink_to(tmp_path / "elsewhere.yml")
    else:
        with nightly.open("ab") as handle:
            handle.truncate(MAX_FILE_BYTES + 1)  # a sparse file: its size is all that is read
    assert found(project, CI_SECTION, **{WORKFLOW: BUILD}) == []


# --- a CI said to build or push the image while no workflow step does (`unbuilt_ci_claims`) ---

COMMENTED_OUT = """\
name: cluster smoke test
on:
  push:
    branches: [trunk]
env:
  IMAGE: ghcr.io/quill/gpu-smoke
jobs:
  build:
    runs-on: [self-hosted, gpu-box]
    steps:
      - uses: actions/checkout@v4
      - run: echo "TAG=v0.2.0" >> "$GITHUB_ENV"
      # - uses: docker/setup-buildx-action@v3
      # - name: Build
      #   uses: docker/build-push-action@v6
      #   with:
      #     context: .
      #     tags: ${{ env.IMAGE }}:${{ env.TAG }}
  smoke:
    needs: build
    runs-on: [self-hosted, gpu-box]
    steps:
      - uses: appleboy/ssh-action@v1
        with:
          host: ${{ secrets.CLUSTER_HOST }}
          script: |
            sbatch --wait smoke.sbatch
  publish:
    needs: smoke
    runs-on: [self-hosted, gpu-box]
    steps:
      - run: |
          echo "${{ secrets.GITHUB_TOKEN }}" | docker login ghcr.io -u x --password-stdin
          docker image inspect "$IMAGE:$TAG"
          # docker push "$IMAGE:$TAG"
"""

LISTED = """\
# gpu-smoke

A small image for cluster acceptance tests.

Files:
- Dockerfile: the image.
- .github/workflows/smoke.yml: CI: build → cluster smoke test → push to GHCR.
"""


def test_a_ci_said_to_build_and_push_whose_steps_are_commented_out(tmp_path: Path) -> None:
    assert found(tmp_path, LISTED, **{".github__workflows__smoke.yml": COMMENTED_OUT}) == [
        "7: README says the CI workflow builds and pushes the image to GHCR, but no step of the workflows "
        "(.github/workflows/smoke.yml) builds or pushes an image: docker/build-push-action at "
        ".github/workflows/smoke.yml:15, `docker push` at .github/workflows/smoke.yml:35 commented out "
        "(likely)",
    ]


DISABLED_JOB = """\
name: ci
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
      - run: pytest -q
  image:
    if: false
    runs-on: ubuntu-latest
    steps:
      - uses: docker/login-action@v3
        with:
          username: ${{ secrets.HUB_USER }}
          password: ${{ secrets.HUB_TOKEN }}
      - uses: docker/build-push-action@v6
        with:
          push: true
          tags: ferncast/tiles:latest
"""

SECTION = """\
# Tiles

## Continuous integration

GitHub Actions builds the image and publishes it to Docker Hub on every push.
Images are automatically pushed on every push to the main branch.
"""


def test_a_ci_said_to_publish_whose_image_job_is_disabled(tmp_path: Path) -> None:
    assert found(tmp_path, SECTION, **{".github__workflows__ci.yml": DISABLED_JOB}) == [
        "5: README says the CI workflow builds and pushes the image to Docker Hub, but no step of the "
        "workflows (.github/workflows/ci.yml) builds or pushes an image (likely)",
        "6: README says the CI workflow pushes the image, but no step of the workflows "
        "(.github/workflows/ci.yml) builds or pushes an image (likely)",
    ]
    enabled = DISABLED_JOB.replace("    if: false\n", "")
    (tmp_path / "enabled").mkdir()
    assert found(tmp_path / "enabled", SECTION, **{".github__workflows__ci.yml": enabled}) == []


@pytest.mark.parametrize(
    "step",
    [
        "      - run: make image push\n",
        "      - run: ./scripts/publish.sh\n",
        "      - run: bash ci/release.sh\n",
        "      - uses: ./.github/actions/image\n",
        "      - uses: elgohr/Publish-Docker-Github-Action@v5\n",
        "      - uses: redhat-actions/buildah-build@v2\n",
        "      - run: docker compose build && docker compose push\n",
        "      - run: podman build -t ferncast/tiles .\n",
        "      - run: ${{ matrix.command }}\n",
    ],
)
def test_a_step_that_may_build_through_what_docgen_does_not_read(tmp_path: Path, step: str) -> None:
    workflow = DISABLED_JOB.replace("      - run: pytest -q\n", "      - run: pytest -q\n" + step)
    assert found(tmp_path, SECTION, **{".github__workflows__ci.yml": workflow}) == []


def test_a_reusable_workflow_of_another_repository_may_build(tmp_path: Path) -> None:
    workflow = DISABLED_JOB + "  release:\n    uses: ferncast/ci/.github/workflows/image.yml@v1\n"
    assert found(tmp_path, SECTION, **{".github__workflows__ci.yml": workflow}) == []


@pytest.mark.parametrize(
    "readme",
    [
        # the CI of another repository builds the image
        "# Tiles\n\nGitHub Actions in the <https://github.com/ferncast/images> project builds and pushes "
        "this image to the registry.\n",
        "# Tiles\n\nThe image is built by the CI of a separate repository and pushed to Docker Hub.\n",
        "# Tiles\n\nThe images are built and pushed to GHCR by the workflows of the main repo.\n",
        # a plan, a negation, a build by hand
        "# Tiles\n\n1. Build the image\n2. Push to Docker Hub (TODO: set up CI/CD for this)\n",
        "# Tiles\n\nThe CI does not build the image yet; push it to Docker Hub by hand.\n",
        "# Tiles\n\nCI runs the tests. Build the image locally and push it to Docker Hub.\n",
        "# Tiles\n\nYou could set up a GitHub Actions workflow to build and push the image.\n",
        # an exercise: what the reader is to make
        "# Tiles\n\nImplement a GitHub Actions workflow to:\n\n"
        "- Automatically build your Docker image on push.\n- Push the built image to GHCR.\n",
        "# Tiles\n\nThe workflow optionally pushes the image to GHCR.\n",
    ],
)
def test_no_claim_that_this_repositorys_ci_builds(tmp_path: Path, readme: str) -> None:
    assert found(tmp_path, readme, **{".github__workflows__ci.yml": DISABLED_JOB}) == []


def test_another_ci_system_may_build(tmp_path: Path) -> None:
    assert (
        found(
            tmp_path,
            SECTION,
            **{
                ".github__workflows__ci.yml": DISABLED_JOB,
                ".gitlab-ci.yml": "image:\n  script: [docker build .]\n",
            },
        )
        == []
    )


def test_a_disabled_build_job_still_has_its_secrets_compared(tmp_path: Path) -> None:
    readme = SECTION + "\nSet the repository secrets `HUB_USER` and `HUB_PASSWORD`.\n"
    assert found(tmp_path, readme, **{".github__workflows__ci.yml": DISABLED_JOB})[2:] == [
        "8: README names the secret HUB_PASSWORD for the CI workflow, but no workflow of the repository "
        "(.github/workflows/ci.yml) reads it (they read HUB_TOKEN, HUB_USER) (likely)",
    ]
