"""`docgen audit`: repositories a README lists as in the image that the image never clones
(docgen/audit/cloned_repos.py): a list of repository links most of which the Dockerfile, or a script it
copies, clones by their address.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

DOCKERFILE = """\
FROM python:3.12-slim
RUN apt-get update && apt-get install -y --no-install-recommends git
RUN git clone https://github.com/acme/studio.git /opt/studio
WORKDIR /opt/studio/plugins
RUN git clone https://github.com/ann/studio-tiles.git \\
 && git clone https://github.com/bob/studio-grid \\
 && git clone https://github.com/cat/studio-export.git
CMD ["python", "/opt/studio/main.py"]
"""
LISTED = """\
# Studio image

## Bundled plug-ins

- [studio-tiles](https://github.com/ann/studio-tiles)
- [studio-grid](https://github.com/bob/studio-grid)
- [studio-export](https://github.com/cat/studio-export)
- [studio-charts](https://github.com/dan/studio-charts)
"""
MISSING = (
    "README lists studio-charts (github.com/dan/studio-charts) as in the image but Dockerfile and the "
    "files it copies never clone it (they clone 3 of the 4 repositories listed)"
)


def _audited(tmp_path: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(tmp_path, files)
    paths = [path for path in files if path.rsplit("/", 1)[-1].startswith("Dockerfile")]
    models = [build_model(tmp_path / path, path) for path in paths]
    return [
        f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", models, {}, tmp_path)
    ]


def test_a_listed_repository_the_image_never_clones(tmp_path: Path) -> None:
    assert _audited(tmp_path, LISTED, {"Dockerfile": DOCKERFILE}) == [f"8: {MISSING} (certain)"]


def test_one_link_a_line_and_clones_in_a_copied_script(tmp_path: Path) -> None:
    script = "".join(
        f"git clone --depth 1 https://github.com/{repo}\n"
        for repo in ("ann/studio-tiles", "bob/studio-grid", "cat/studio-export")
    )
    dockerfile = 'FROM python:3.12-slim\nCOPY plugins.sh /plugins.sh\nRUN bash /plugins.sh\nCMD ["studio"]\n'
    readme = (
        "# Studio\n\n## STUDIO PLUG-INS\n\n"
        "[Tiles](https://github.com/ann/studio-tiles)  \n"
        "[Grid](https://github.com/bob/studio-grid)  \n"
        "[Charts (nightly)](https://github.com/dan/studio-charts)  \n"
        "[Export](https://github.com/cat/studio-export)  \n"
    )
    files = {"Dockerfile": dockerfile, "plugins.sh": script}
    assert _audited(tmp_path, readme, files) == [
        "7: README lists Charts (nightly) (github.com/dan/studio-charts) as in the image but Dockerfile "
        "and the files it copies never clone it (they clone 3 of the 4 repositories listed) (certain)"
    ]


def test_a_generic_link_text_gives_the_repository_name(tmp_path: Path) -> None:
    readme = LISTED.replace(
        "- [studio-charts](https://github.com/dan/studio-charts)",
        "- `studio-charts` - [Link](https://github.com/dan/studio-charts)",
    )
    assert _audited(tmp_path, readme, {"Dockerfile": DOCKERFILE}) == [f"8: {MISSING} (certain)"]


@pytest.mark.parametrize(
    "heading",
    ["## Credits", "## Related projects", "## Plug-ins you may want to add", "## Optional plug-ins"],
)
def test_a_list_of_thanks_or_of_what_the_reader_may_add_is_not_read(tmp_path: Path, heading: str) -> None:
    readme = LISTED.replace("## Bundled plug-ins", heading)
    assert _audited(tmp_path, readme, {"Dockerfile": DOCKERFILE}) == []


def test_an_item_saying_it_is_optional_is_no_claim(tmp_path: Path) -> None:
    readme = LISTED.replace(
        "(https://github.com/dan/studio-charts)", "(https://github.com/dan/studio-charts) (optional)"
    )
    assert _audited(tmp_path, readme, {"Dockerfile": DOCKERFILE}) == []


def test_a_list_the_image_mostly_does_not_clone_is_not_its_own(tmp_path: Path) -> None:
    # the plug-ins come from a list the image does not hold (installed at start, say): one clone of four
    dockerfile = DOCKERFILE.replace(
        " \\\n && git clone https://github.com/bob/studio-grid \\\n && git clone https://github.com/cat/studio-export.git",
        "",
    )
    assert _audited(tmp_path, LISTED, {"Dockerfile": dockerfile}) == []


def test_a_repository_cloned_from_a_fork_is_held(tmp_path: Path) -> None:
    dockerfile = DOCKERFILE.replace(
        "cat/studio-export.git",
        "cat/studio-export.git \\\n && git clone https://github.com/eve/studio-charts",
    )
    assert _audited(tmp_path, LISTED, {"Dockerfile": dockerfile}) == []


def test_an_image_running_a_script_docgen_cannot_read_may_clone_it(tmp_path: Path) -> None:
    # it clones its plug-ins one by one: the script may add one, so the finding is only likely
    piped = 'RUN curl -fsSL https://example.com/more.sh | bash\nCMD ["python"'
    dockerfile = DOCKERFILE.replace('CMD ["python"', piped)
    assert _audited(tmp_path, LISTED, {"Dockerfile": dockerfile}) == [f"8: {MISSING} (likely)"]


MIXED = """\
# Studio image

## Installs

* Ubuntu 24.04
* Python 3.12
* [Studio](
  https://github.com/acme/studio) 2.1
* [studio-tiles](https://github.com/ann/studio-tiles)
* [studio-grid](https://github.com/bob/studio-grid)
* [studio-export](https://github.com/cat/studio-export)
* [studio-charts](https://github.com/dan/studio-charts)
* [studio-maps](https://github.com/eve/studio-maps)
"""


def test_a_list_of_what_the_image_installs_mixing_links_and_names(tmp_path: Path) -> None:
    # a copied script the checkout lacks runs in the build: the finding is likely
    dockerfile = DOCKERFILE.replace(
        'CMD ["python"', 'COPY extra.py /opt/\nRUN python /opt/extra.py\nCMD ["python"'
    )
    found = _audited(tmp_path, MIXED, {"Dockerfile": dockerfile})
    assert found == [
        f"{n}: README lists {name} (github.com/{repo}) as in the image but Dockerfile and the files it "
        "copies never clone it (they clone 4 of the 6 repositories listed) (likely)"
        for n, name, repo in (
            (12, "studio-charts", "dan/studio-charts"),
            (13, "studio-maps", "eve/studio-maps"),
        )
    ]


def test_a_mixed_list_most_of_whose_links_the_image_does_not_clone(tmp_path: Path) -> None:
    dockerfile = DOCKERFILE.replace(" \\\n && git clone https://github.com/cat/studio-export.git", "")
    readme = MIXED.replace("* Ubuntu", "* [studio-pdf](https://github.com/fay/pdf)\n* Ubuntu")
    assert [f for f in _audited(tmp_path, readme, {"Dockerfile": dockerfile}) if "never clone" in f] == []


def test_a_sibling_image_that_clones_it_holds_it(tmp_path: Path) -> None:
    full = DOCKERFILE.replace(
        "cat/studio-export.git",
        "cat/studio-export.git \\\n && git clone https://github.com/dan/studio-charts",
    )
    files = {"slim/Dockerfile": DOCKERFILE, "full/Dockerfile": full}
    assert _audited(tmp_path, LISTED, files) == []


def test_a_list_of_links_into_repositories_is_not_read(tmp_path: Path) -> None:
    readme = LISTED.replace(
        "(https://github.com/dan/studio-charts)", "(https://github.com/dan/studio-charts/blob/main/README.md)"
    )
    assert _audited(tmp_path, readme, {"Dockerfile": DOCKERFILE}) == []


def test_three_links_two_of_which_the_image_clones_are_not_enough(tmp_path: Path) -> None:
    # the third may be the project itself, which the reader clones on the host
    readme = LISTED.replace("- [studio-export](https://github.com/cat/studio-export)\n", "")
    dockerfile = DOCKERFILE.replace(" \\\n && git clone https://github.com/cat/studio-export.git", "")
    assert _audited(tmp_path, readme, {"Dockerfile": dockerfile}) == []


# a README naming the project its image is for while the image clones a fork of it (forked_upstream)

FORK_DOCKERFILE = """\
FROM python:3.12-slim
RUN apt-get update && apt-get install -y --no-install-recommends git curl
RUN curl -sL https://deb.example.org/setup_22.x -o node_setup.sh && bash node_setup.sh
RUN git clone --depth 1 https://github.com/quillworks/paint-trainer.git /opt/paint-trainer && \\
    cd /opt/paint-trainer && git checkout ${TRAINER_REF}
CMD ["python", "/opt/paint-trainer/run.py"]
"""
FORKED = (
    "README says the image is built from brushlab/paint-trainer but Dockerfile:4 clones "
    "quillworks/paint-trainer (another owner's repository of that name)"
)


def forked(root: Path, readme: str, dockerfile: str = FORK_DOCKERFILE) -> list[tuple[int, str, str]]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", [model], {}, root)
        if "is built from" in d.message
    ]


@pytest.mark.parametrize(
    ("intro", "expected"),
    [
        # modelled on a ROCm training-UI image: a link, then the fork cloned
        (
            "Docker image for [brushlab/paint-trainer](https://github.com/brushlab/paint-trainer) on ROCm, "
            "based on the official pytorch image. Built with the latest paint-trainer.",
            [(3, FORKED, "likely")],
        ),
        ("Container for `brushlab/paint-trainer` with CUDA.", [(3, FORKED, "likely")]),
        ("A Dockerfile for https://github.com/brushlab/paint-trainer with CUDA.", [(3, FORKED, "likely")]),
        # the README tells of the fork, or names the project for another reason
        (
            "Docker image for [brushlab/paint-trainer](https://github.com/brushlab/paint-trainer), "
            "built from the quillworks fork.",
            [],
        ),
        ("Based on [brushlab/paint-trainer](https://github.com/brushlab/paint-trainer).", []),
        ("Inspired by https://github.com/brushlab/paint-trainer, thanks to its authors.", []),
        ("A fork of `brushlab/paint-trainer` with CUDA.", []),
        # modelled on an official image's repository: the image is named by a registry page, no forge
        ("The Docker image for [Paint Trainer](https://hub.docker.com/_/paint-trainer/) lives here.", []),
        # the project the image clones under its own owner, or a repository of another name
        ("Docker image for [quillworks/paint-trainer](https://github.com/quillworks/paint-trainer).", []),
        ("Docker image for [brushlab/paint-trainer-ui](https://github.com/brushlab/paint-trainer-ui).", []),
    ],
)
def test_an_image_for_a_project_that_clones_a_fork(
    tmp_path: Path, intro: str, expected: list[tuple[int, str, str]]
) -> None:
    assert forked(tmp_path, f"# Trainer\n\n{intro}\n") == expected


def test_an_image_that_also_fetches_the_project_or_an_address_a_variable_gives(tmp_path: Path) -> None:
    readme = (
        "# Trainer\n\nDocker image for [brushlab/paint-trainer](https://github.com/brushlab/paint-trainer).\n"
    )
    both = FORK_DOCKERFILE.replace(
        "CMD", "RUN pip install git+https://github.com/brushlab/paint-trainer@v2\nCMD"
    )
    assert forked(tmp_path / "a", readme, both) == []
    variable = FORK_DOCKERFILE.replace("CMD", "ARG REPO\nRUN git clone ${REPO} /opt/other\nCMD")
    assert forked(tmp_path / "b", readme, variable) == []
    assert forked(tmp_path / "c", readme) == [(3, FORKED, "likely")]


def test_the_project_named_is_this_repository(tmp_path: Path) -> None:
    readme = (
        "# Trainer\n\nDocker image for [brushlab/paint-trainer](https://github.com/brushlab/paint-trainer).\n"
    )
    (tmp_path / ".git").mkdir(parents=True)
    (tmp_path / ".git" / "config").write_text(
        '[remote "origin"]\n\turl = https://github.com/brushlab/paint-trainer.git\n'
    )
    assert forked(tmp_path, readme) == []


# a list of what the image installs linking a project while the image clones another owner's repository
# of that name (forked_upstream, `_installed_links`)

LISTED_FORK = (
    "README lists Paint Trainer (brushlab/paint-trainer) as installed but Dockerfile:4 clones "
    "quillworks/paint-trainer (another owner's repository of that name)"
)


def listed_fork(root: Path, readme: str, dockerfile: str = FORK_DOCKERFILE) -> list[tuple[int, str, str]]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", [model], {}, root)
        if "as installed but" in d.message
    ]


@pytest.mark.parametrize(
    ("readme", "expected"),
    [
        # modelled on a GPU-cloud app image: an `Installs` list, the link broken after its `(`
        (
            "# Trainer image\n\n## Installs\n\n* Ubuntu 22.04 LTS\n* [Paint Trainer](\n"
            "  https://github.com/brushlab/paint-trainer) v1.2\n* Torch 2.1\n",
            [(6, LISTED_FORK, "likely")],
        ),
        # modelled on a research demo image: a list introduced by what the image includes
        (
            "# Demo\n\nThe image includes:\n\n- [Paint Trainer](https://github.com/brushlab/paint-trainer)\n"
            "- Node 22\n\nSee https://github.com/quillworks/paint-trainer-docker for the build.\n",
            [(5, LISTED_FORK, "likely")],
        ),
        # a reference into the fork's tree says nothing of what the image runs
        (
            "# Trainer\n\n## Installs\n\n* [Paint Trainer](https://github.com/brushlab/paint-trainer)\n\n"
            "reference: https://github.com/quillworks/paint-trainer/tree/feat/api\n",
            [(5, LISTED_FORK, "likely")],
        ),
        # the README names the fork itself, or the item tells the project from what is built
        (
            "# Trainer\n\n## Installs\n\n* [Paint Trainer](https://github.com/brushlab/paint-trainer)\n\n"
            "The image builds [quillworks/paint-trainer](https://github.com/quillworks/paint-trainer).\n",
            [],
        ),
        ("# T\n\n## Installs\n\n* [Paint Trainer](https://github.com/brushlab/paint-trainer) (a fork)\n", []),
        (
            "# T\n\n## Installs\n\n* Trainer, based on [upstream](https://github.com/brushlab/paint-trainer)\n",
            [],
        ),
        # a list of thanks, of what comes later, or a plug-in of another name
        ("# T\n\n## Credits\n\n* [Paint Trainer](https://github.com/brushlab/paint-trainer)\n", []),
        (
            "# T\n\n## Installs\n\n* [Paint Trainer](https://github.com/brushlab/paint-trainer) at runtime\n",
            [],
        ),
        ("# T\n\n## Installs\n\n* [Trainer UI](https://github.com/brushlab/paint-trainer-ui)\n", []),
        # the fork's own owner linked
        ("# T\n\n## Installs\n\n* [Paint Trainer](https://github.com/quillworks/paint-trainer)\n", []),
    ],
)
def test_an_installs_list_linking_a_project_whose_fork_is_cloned(
    tmp_path: Path, readme: str, expected: list[tuple[int, str, str]]
) -> None:
    assert listed_fork(tmp_path, readme) == expected


def test_a_hugging_face_space_of_that_name_is_another_owners(tmp_path: Path) -> None:
    space = FORK_DOCKERFILE.replace(
        "https://github.com/quillworks/paint-trainer.git",
        "https://huggingface.co/spaces/quill-ai/Paint-Trainer",
    )
    readme = "# T\n\n## Installs\n\n* [Paint Trainer](https://github.com/brushlab/paint-trainer/)\n"
    assert listed_fork(tmp_path / "a", readme, space) == [
        (
            5,
            "README lists Paint Trainer (brushlab/paint-trainer) as installed but Dockerfile:4 clones "
            "huggingface.co/spaces/quill-ai/Paint-Trainer (another owner's repository of that name)",
            "likely",
        )
    ]
    # the project's own address fetched too: it is held
    both = space.replace("CMD", "RUN pip install git+https://github.com/brushlab/paint-trainer\nCMD")
    assert listed_fork(tmp_path / "b", readme, both) == []


# a repository a README states as what the image is built from, while the image clones another one
# (stated_sources)

ROCM_CLONE = """\
FROM alpine/git:2.49.1 AS src
ARG QS_VERSION=v2.3
RUN git clone --depth 1 --branch ${QS_VERSION} \\
    https://github.com/tallow/quillserve.git /opt/quillserve
FROM ubuntu:24.04
COPY --from=src /opt/quillserve /opt/quillserve
CMD ["/opt/quillserve/serve"]
"""
VULKAN_CLONE = ROCM_CLONE.replace("ubuntu:24.04", "ubuntu:22.04")
VARIANTS = """\
# QuillServe

### Variants

- `rocm`: AMD GPUs with ROCm\\
  URI: `ghcr.io/kiln/apps/quillserve:rocm`

  Base Repository: https://github.com/ember-labs/quillserve-rocm/

- `vulkan`: any Vulkan GPU\\
  URI: `ghcr.io/kiln/apps/quillserve:vulkan`

  Base Repository: https://github.com/tallow/quillserve/

### Compared with the official image

1. Ships the model files in the image.
2. Provides the rocm variant from the ROCm fork ([ember-labs/quillserve-rocm](https://github.com/ember-labs/quillserve-rocm/)).
"""
STATED = (
    "README says the image is built from ember-labs/quillserve-rocm but rocm/Dockerfile:3 clones "
    "tallow/quillserve, and nothing the image runs or copies names ember-labs/quillserve-rocm"
)


def stated(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {"README.md": readme, **files})
    paths = [path for path in files if path.rsplit("/", 1)[-1].startswith("Dockerfile")]
    models = [build_model(root / path, path) for path in paths]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, root)
        if "is built from" in d.message
    ]


def test_a_base_repository_the_variant_no_longer_clones(tmp_path: Path) -> None:
    # modelled on a GPU app family: one variant said to come from a fork, both Dockerfiles clone upstream
    files = {"rocm/Dockerfile": ROCM_CLONE, "vulkan/Dockerfile": VULKAN_CLONE}
    assert stated(tmp_path, VARIANTS, files) == [f"8: {STATED}; also at line 18 (likely)"]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # modelled on a photogrammetry image: the fork named by `owner/name` and the word fork
        (
            "Dockerfile for a meshkit instance using fenwick/meshkit fork.",
            "README says the image is built from fenwick/meshkit but Dockerfile:2 clones orchard/meshkit, "
            "and nothing the image runs or copies names fenwick/meshkit",
        ),
        (
            "- Built from the [fenwick fork](https://github.com/fenwick/meshkit) of meshkit",
            "README says the image is built from fenwick/meshkit but Dockerfile:2 clones orchard/meshkit, "
            "and nothing the image runs or copies names fenwick/meshkit",
        ),
    ],
)
def test_a_fork_of_the_same_name_the_image_does_not_clone(tmp_path: Path, line: str, expected: str) -> None:
    dockerfile = "FROM ubuntu:22.04\nRUN git clone https://github.com/orchard/meshkit.git /opt/meshkit\n"
    readme = f"# Meshkit\n\n{line}\n"
    assert stated(tmp_path, readme, {"Dockerfile": dockerfile}) == [f"3: {expected} (likely)"]


@pytest.mark.parametrize(
    ("line", "cloned"),
    [
        # the README credits the project the image builds a fork of (a shorter name): no claim of the fork
        ("Based on [quillserve](https://github.com/tallow/quillserve).", "ember-labs/quillserve-rocm"),
        ("- Built from [QuillServe](https://github.com/tallow/quillserve)", "ember-labs/quillserve-rocm"),
        ("A fork of `tallow/quillserve` with ROCm.", "ember-labs/quillserve"),
        # the same name under another owner with no word of a fork: a maintainer's fork of it
        ("Built from https://github.com/ember-labs/quillserve and more.", "tallow/quillserve"),
        # credits, pages and the past
        ("Upstream repository: https://github.com/ember-labs/quillserve-rocm", "tallow/quillserve"),
        (
            "Thanks to the ROCm fork ([ember-labs/quillserve-rocm](https://github.com/ember-labs/quillserve-rocm)).",
            "tallow/quillserve",
        ),
        ("Base repository was https://github.com/ember-labs/quillserve-rocm before v2.", "tallow/quillserve"),
        # the image's own recipe repository
        ("Source: https://github.com/kiln/quillserve-docker", "tallow/quillserve"),
        # what the image clones
        ("Built from official quillserve repository (tallow/quillserve)", "tallow/quillserve"),
        ("Base Repository: https://github.com/ember-labs/quillserve-rocm/", "ember-labs/quillserve-rocm"),
    ],
)
def test_source_claims_that_are_no_drift(tmp_path: Path, line: str, cloned: str) -> None:
    dockerfile = ROCM_CLONE.replace("tallow/quillserve.git", f"{cloned}.git")
    assert stated(tmp_path, f"# QuillServe\n\n{line}\n", {"Dockerfile": dockerfile}) == []


def test_a_plug_in_cloned_from_another_owner_beside_the_project_it_extends(tmp_path: Path) -> None:
    # `quillserve-manager` derives from `quillserve`, but the image clones a repository of its own name
    dockerfile = ROCM_CLONE.replace(
        "CMD", "RUN git clone https://github.com/dale/quillserve-manager /opt/quillserve/manager\nCMD"
    )
    readme = "# Q\n\n- Built from https://github.com/ember-labs/quillserve-manager\n"
    assert stated(tmp_path, readme, {"Dockerfile": dockerfile}) == []


def test_a_clone_of_an_address_a_variable_gives_is_silent(tmp_path: Path) -> None:
    dockerfile = (
        'FROM ubuntu:22.04\nARG REPO=https://github.com/tallow/quillserve\nRUN git clone "$REPO" /q\n'
    )
    readme = "# Q\n\nBase Repository: https://github.com/ember-labs/quillserve-rocm/\n"
    assert stated(tmp_path, readme, {"Dockerfile": dockerfile}) == []


def test_the_stated_repository_is_this_one(tmp_path: Path) -> None:
    # the README's own repository (its git remote) builds the upstream project: no claim about a fork
    config = '[remote "origin"]\n\turl = https://github.com/ember-labs/quillserve-rocm.git\n'
    readme = "# Q\n\nSource repository: https://github.com/ember-labs/quillserve-rocm\n"
    files = {"Dockerfile": ROCM_CLONE, ".git/config": config, ".git/HEAD": "ref: refs/heads/main\n"}
    assert stated(tmp_path, readme, files) == []
