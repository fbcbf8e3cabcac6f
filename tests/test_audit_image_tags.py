"""`docgen.audit.image_tags`: what the name a README's build gives the image, and the folder it builds,
say of the image (planted drifts, each next to the near misses that must stay silent)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import findings, make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

TORCH_23 = "FROM nvcr.io/nvidia/l4t-base:r36.2.0\nRUN pip3 install torch==2.3.0 torchvision==0.18.0\n"
TORCH_24 = "FROM nvcr.io/nvidia/l4t-base:r36.3.0\nRUN pip3 install torch==2.4.0 torchvision==0.19.0\n"


def test_a_jetson_tag_names_the_release_of_another_image() -> None:
    readme = (
        "# jetson-pytorch:2.4-r36.3.0\n\n"
        "```bash\n"
        "docker build -f Dockerfile.torch23 -t jetson-pytorch:2.4-r36.3.0 .\n"
        "docker run --runtime nvidia -it jetson-pytorch:2.4-r36.3.0\n"
        "```\n"
    )
    # the sibling (a trap) installs 2.4 on R36.3.0: the `-f` says which image the tag is of
    assert findings(readme, {"Dockerfile.torch23": TORCH_23, "Dockerfile.torch24": TORCH_24}) == [
        "4: README tags the image jetson-pytorch:2.4-r36.3.0 (L4T R36.3.0), but Dockerfile.torch23:1 "
        "starts FROM nvcr.io/nvidia/l4t-base:r36.2.0 (L4T R36.2.0)",
        "4: README tags the image jetson-pytorch:2.4-r36.3.0: pytorch 2.4 but Dockerfile.torch23:2 says "
        "2.3.0",
    ]


def test_a_sibling_documented_in_its_own_section_is_compared_with_its_own_dockerfile() -> None:
    readme = (
        "# Images\n\n## PyTorch 2.3\n\n```bash\n"
        "docker build -f Dockerfile.torch23 -t jetson-pytorch:2.3-r36.2.0 .\n```\n\n"
        "## PyTorch 2.4\n\n```bash\n"
        "docker build -f Dockerfile.torch24 -t jetson-pytorch:2.4-r36.3.0 .\n```\n"
    )
    assert findings(readme, {"Dockerfile.torch23": TORCH_23, "Dockerfile.torch24": TORCH_24}) == []
    # the sibling's build, when only the first image is audited, is no claim about it
    assert findings(readme, {"Dockerfile.torch23": TORCH_23}) == []


@pytest.mark.parametrize("name", ["acme/vision", "${USER}/vision"])
def test_an_l4t_release_in_a_plain_jetson_tag(name: str) -> None:
    readme = f"```\ncd docker\ndocker build -t {name}:humble-r36.3.0 .\n```\n"
    assert findings(readme, {"docker/Dockerfile": "FROM nvcr.io/nvidia/l4t-base:r36.2.0\nRUN true\n"}) == [
        f"3: README tags the image {name}:humble-r36.3.0 (L4T R36.3.0), but docker/Dockerfile:1 starts FROM "
        "nvcr.io/nvidia/l4t-base:r36.2.0 (L4T R36.2.0)"
    ]


@pytest.mark.parametrize(
    "tag",
    [
        "jetson-pytorch:2.3-r36.2.0",  # both agree
        "jetson-pytorch:2.3-r36.2",  # the L4T release to the precision written
        "jetson-pytorch:latest",
        "myimg:1.2.0",  # the project's own version
        "myimg:2.4-r36.2.0",  # a name naming no component
        "myapp-torch:1.0-r36.2.0",  # the project's own release: its name is more than the component's
        "acme/vision:${TAG}",  # a placeholder
        "jetson-pytorch",
    ],
)
def test_tags_that_say_nothing_wrong(tag: str) -> None:
    readme = f"```bash\ndocker build -t {tag} -f Dockerfile.torch23 .\n```\n"
    assert findings(readme, {"Dockerfile.torch23": TORCH_23}) == []


def test_a_version_the_base_tag_gives_is_the_components_and_a_name_it_copies_is_not() -> None:
    # `xinference:2.1-r36.2.0`: 2.1 is the PyTorch of the base, not xinference's (installed unpinned)
    dockerfile = "FROM dustynv/pytorch:2.1-r36.2.0\nRUN pip install xinference 'transformers==4.49.0'\n"
    readme = "```bash\ndocker build -t xinference:2.1-r36.2.0 .\n```\n"
    assert findings(readme, {"Dockerfile": dockerfile}) == []
    readme = "```bash\ndocker build -t jetson-pytorch:2.4-r36.2.0 .\n```\n"
    assert findings(readme, {"Dockerfile": dockerfile}) == [
        "2: README tags the image jetson-pytorch:2.4-r36.2.0: pytorch 2.4 but Dockerfile:1 says 2.1-r36.2.0"
    ]


def test_a_history_table_and_a_pull_of_the_base_are_no_build() -> None:
    readme = (
        "| Tag | L4T |\n|---|---|\n| `jetson-pytorch:2.2-r35.4.1` | R35.4.1 |\n\n"
        "First pull the base image:\n\n```bash\ndocker pull nvcr.io/nvidia/l4t-base:r36.2.0\n"
        "docker build -t jetson-pytorch:2.3-r36.2.0 -f Dockerfile.torch23 .\n```\n"
    )
    assert findings(readme, {"Dockerfile.torch23": TORCH_23}) == []


BASED = "FROM owner/opt_base0:latest\nRUN apt-get update && apt-get install -y ros-humble-desktop\n"


@pytest.mark.parametrize(
    ("command", "tag"),
    [
        ("docker build -t owner/opt_base0 .", "owner/opt_base0"),
        ("docker build --tag=owner/opt_base0:latest .", "owner/opt_base0:latest"),
        ("docker build -t docker.io/owner/opt_base0 .", "docker.io/owner/opt_base0"),
    ],
)
def test_a_build_tagged_with_the_name_of_its_own_base(command: str, tag: str) -> None:
    readme = f"# opt_base\n\nBuild the image:\n\n```bash\n{command}\n```\n"
    assert findings(readme, {"Dockerfile": BASED}) == [
        f"6: README builds Dockerfile as {tag}, but Dockerfile:1 starts FROM owner/opt_base0:latest: the "
        "image takes the name of its own base, and a later build of it starts from itself"
    ]


def test_a_build_in_the_checkout_the_readme_clones() -> None:
    # an indented block, as older READMEs write them: `cd` into the clone is the README's own folder
    readme = (
        "Build your own:\n\n    git clone https://github.com/owner/opt_base1 opt\n    cd opt\n"
        "    docker pull owner/opt_base0\n    docker build -t owner/opt_base0 .\n"
    )
    assert findings(readme, {"Dockerfile": BASED}) == [
        "6: README builds Dockerfile as owner/opt_base0, but Dockerfile:1 starts FROM "
        "owner/opt_base0:latest: the image takes the name of its own base, and a later build of it starts "
        "from itself"
    ]
    renamed = readme.replace("-t owner/opt_base0 .", "-t owner/opt_base1 .")
    assert findings(renamed, {"Dockerfile": BASED}) == []


@pytest.mark.parametrize(
    ("dockerfile", "command"),
    [
        (BASED, "docker build -t owner/opt_base0-ros ."),  # a name that merely starts like the base's
        (BASED, "docker build -t owner/opt_base0:1.1 ."),  # another tag of it: a release of its own
        (BASED, "docker build -t opt_base0 ."),  # another repository
        (
            "FROM dustynv/ros:humble-desktop-l4t-r35.2.1\nRUN true\n",
            "docker build -t ${USER}/ros:humble-desktop-l4t-r35.2.1 .",  # the base's tag, another owner
        ),
        (
            "FROM pytorch/pytorch:2.6.0-cuda12.6-cudnn9-devel\nRUN pip install timm\n",
            "docker build -t pytorch:2.6.0-cuda12.6-cudnn9-devel .",  # `pytorch` is not `pytorch/pytorch`
        ),
        (BASED, "docker pull owner/opt_base0\ndocker build -t owner/ros-app ."),  # the base pulled first
        (BASED, "docker build -t owner/opt_base0 -f Dockerfile.base ."),  # the base built by its own file
        (BASED, "cd ../base && docker build -t owner/opt_base0 ."),  # the base built in its folder
    ],
)
def test_names_that_are_not_the_base_or_builds_of_another_image(dockerfile: str, command: str) -> None:
    assert findings(f"```bash\n{command}\n```\n", {"Dockerfile": dockerfile}) == []


@pytest.mark.parametrize(
    ("base", "tag"),
    [
        ("ubuntu:22.04", "ubuntu:22.04"),
        ("python:3.12-slim", "python:3.12-slim"),
        ("debian", "docker.io/library/debian:latest"),
    ],
)
def test_an_official_image_shadowed_on_purpose_is_no_slip(base: str, tag: str) -> None:
    # a local `ubuntu:22.04` with the team's tools, built over the official image on purpose: the command
    # works and names what the README means. Only a namespaced base (the project's own) is a name carried
    # over from the base's README
    dockerfile = f"FROM {base}\nRUN apt-get update && apt-get install -y vim\n"
    readme = f"### ubuntu base image\n\n```\ndocker build -f Dockerfile -t {tag} .\n```\n"
    assert findings(readme, {"Dockerfile": dockerfile}) == []
    owned = tag.removeprefix("docker.io/library/")
    found = findings(readme.replace(f"-t {tag}", f"-t acme/{owned}"), {"Dockerfile": f"FROM acme/{base}\n"})
    assert [f.split(":", 1)[0] for f in found] == ["4"]
    assert "the image takes the name of its own base" in found[0]


def test_the_base_built_from_a_dockerfile_of_the_same_name_in_another_folder() -> None:
    readme = (
        "## Base\n\n```bash\ndocker build -f base/Dockerfile -t owner/opt_base0 .\n```\n\n"
        "## App\n\n```bash\ndocker build -f app/Dockerfile -t owner/app .\n```\n"
    )
    assert findings(readme, {"app/Dockerfile": BASED}) == []
    assert findings(readme.replace("-t owner/app", "-t owner/opt_base0"), {"app/Dockerfile": BASED}) == [
        "10: README builds app/Dockerfile as owner/opt_base0, but app/Dockerfile:1 starts FROM "
        "owner/opt_base0:latest: the image takes the name of its own base, and a later build of it starts "
        "from itself"
    ]


def _copied(tmp_path: Path, folder: str, readme: str, files: dict[str, str] | None = None) -> list[str]:
    make_tree(
        tmp_path, {f"{folder}/Dockerfile": "FROM nvidia/cuda:8.0-cudnn5-devel\nRUN true\n", **(files or {})}
    )
    here = tmp_path / folder
    model = build_model(here / "Dockerfile", "Dockerfile")
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", model, {}, here)]


def test_a_readme_copied_from_a_sibling_builds_the_siblings_folder(tmp_path: Path) -> None:
    readme = (
        "### build it from github repository\n```\nsudo nvidia-docker build -t grez/deep:tensorflow-notebook "
        "https://github.com/grez/notebooks.git#master:ubuntu14.04/gpu/cuda8-cudnn5/tensorflow-notebook\n```\n"
    )
    assert _copied(tmp_path, "gpu/tensorflow-v1.1-notebook", readme) == [
        "3: README builds https://github.com/grez/notebooks.git#master:ubuntu14.04/gpu/cuda8-cudnn5/"
        "tensorflow-notebook, the folder tensorflow-notebook/, but it sits in tensorflow-v1.1-notebook/ "
        "beside Dockerfile: the command builds another folder's image (a README copied from "
        "tensorflow-notebook/?) (certain)"
    ]


def test_a_local_context_of_a_sibling_folder(tmp_path: Path) -> None:
    readme = "```\ncd ..\ndocker build -t acme/debian debian-10\n```\n"
    assert _copied(tmp_path, "2/debian-11", readme, {"2/debian-10/Dockerfile": "FROM debian:10\n"}) == [
        "3: README builds debian-10, the folder debian-10/, but it sits in debian-11/ beside Dockerfile: the "
        "command builds another folder's image (a README copied from debian-10/?) (certain)"
    ]


@pytest.mark.parametrize(
    ("folder", "command"),
    [
        (
            "gpu/tensorflow-notebook",
            "docker build -t x https://github.com/o/r.git#master:gpu/tensorflow-notebook",
        ),
        (
            "pair07",
            "docker build -t x https://github.com/o/r.git#master:gpu/tensorflow-notebook",
        ),  # unrelated
        ("gpu/tensorflow-v1.1-notebook", "docker build -t x ../base-notebook"),  # the base, built first
        ("gpu/tensorflow-v1.1-notebook", "docker build -t x ."),
        ("gpu/tensorflow-v1.1-notebook", "docker build -t x https://github.com/o/r.git"),
        ("gpu/tensorflow-v1.1-notebook", "docker build -t x $CONTEXT"),
    ],
)
def test_contexts_that_are_the_readmes_own_or_say_nothing(tmp_path: Path, folder: str, command: str) -> None:
    assert _copied(tmp_path, folder, f"```\n{command}\n```\n") == []


OWN_APP = """\
# GPU drivers image

## Usage

Put `FROM gpu-drivers` at the top of your CUDA application Dockerfile, then build and run it:

```
docker build -t cuda-app ./cuda-app
docker run -ti cuda-app
```
"""


def test_the_readers_own_application_folder_is_no_copied_sibling(tmp_path: Path) -> None:
    # a drivers image whose README tells the reader to build their own app on it: `./cuda-app` is the
    # reader's folder, named like the tag, and the repository has none
    make_tree(tmp_path, {"docker/cuda/Dockerfile": "FROM ubuntu:22.04\nRUN true\n"})
    here = tmp_path / "docker" / "cuda"
    model = build_model(here / "Dockerfile", "Dockerfile")
    assert audit(OWN_APP, "README.md", model, {}, here, tmp_path) == []
    # without the words about the reader's own Dockerfile, or with a tag of another name, it is the
    # sibling's folder again (a README copied from it)
    for n, readme in enumerate(
        (
            OWN_APP.replace("your CUDA application Dockerfile", "the Dockerfile"),
            OWN_APP.replace("-t cuda-app", "-t acme/drivers"),
        )
    ):
        found = audit(readme, "README.md", model, {}, here, tmp_path)
        assert [d.line for d in found if "a README copied from cuda-app/?" in d.message] == [8], n
    # a cuda-app folder the repository has (a sibling image): its README was copied
    make_tree(tmp_path, {"docker/cuda-app/Dockerfile": "FROM ubuntu:22.04\n"})
    found = audit(OWN_APP, "README.md", model, {}, here, tmp_path)
    assert [d.line for d in found if "a README copied from cuda-app/?" in d.message] == [8]


def test_a_readme_away_from_its_dockerfile_names_no_folder_of_its_own(tmp_path: Path) -> None:
    # a README at the root of many version folders (`2/debian-10/`) documents them all
    make_tree(tmp_path, {"debian-11/Dockerfile": "FROM debian:11\n"})
    model = build_model(tmp_path / "debian-11" / "Dockerfile", "debian-11/Dockerfile")
    readme = "```\ndocker build -t x 'https://github.com/o/r.git#master:2/debian-10'\n```\n"
    assert audit(readme, "README.md", model, {}, tmp_path) == []


TITLED = """\
## jetson-pytorch:2.4-r36.3.0

```bash
docker pull ghcr.io/acme/jetson-pytorch:r36.3.0
docker build -f {file} -t jetson-pytorch:r36.3.0 .
```
"""


def test_a_heading_that_is_the_image_s_tag_is_read_as_its_tag() -> None:
    # the heading names PyTorch 2.4 for the image the part's only build makes, which pins 2.3.0
    readme = TITLED.format(file="Dockerfile.torch23")
    assert findings(readme, {"Dockerfile.torch23": TORCH_23, "Dockerfile.torch24": TORCH_24}) == [
        "1: README tags the image jetson-pytorch:2.4-r36.3.0 (L4T R36.3.0), but Dockerfile.torch23:1 "
        "starts FROM nvcr.io/nvidia/l4t-base:r36.2.0 (L4T R36.2.0)",
        "1: README tags the image jetson-pytorch:2.4-r36.3.0: pytorch 2.4 but Dockerfile.torch23:2 says "
        "2.3.0",
        "5: README tags the image jetson-pytorch:r36.3.0 (L4T R36.3.0), but Dockerfile.torch23:1 starts "
        "FROM nvcr.io/nvidia/l4t-base:r36.2.0 (L4T R36.2.0)",
    ]
    # the sibling the heading describes (a trap): true of it
    same = TITLED.format(file="Dockerfile.torch24")
    assert findings(same, {"Dockerfile.torch23": TORCH_23, "Dockerfile.torch24": TORCH_24}) == []


def test_a_heading_tag_over_builds_of_several_images_is_no_claim_about_one() -> None:
    readme = TITLED.format(file="Dockerfile.torch23") + (
        "\n```bash\ndocker build -f Dockerfile.torch24 -t jetson-pytorch:r36.3.0-next .\n```\n"
    )
    found = findings(readme, {"Dockerfile.torch23": TORCH_23, "Dockerfile.torch24": TORCH_24})
    assert not [f for f in found if f.startswith("1:")]
    # nor a heading over a part that builds nothing
    assert findings("## jetson-pytorch:2.4-r36.3.0\n\nPull it.\n", {"Dockerfile": TORCH_23}) == []


def test_an_image_squashed_from_scratch_holds_the_base_of_the_stage_it_copies() -> None:
    squashed = TORCH_24.replace("r36.3.0", "r36.2.0").replace("\n", " AS base\n", 1)
    squashed += "FROM scratch AS final\nCOPY --from=base / /\n"
    readme = "```bash\ndocker build -f Dockerfile.torch24 -t jetson-pytorch:2.4-r36.3.0 .\n```\n"
    assert findings(readme, {"Dockerfile.torch24": squashed}) == [
        "2: README tags the image jetson-pytorch:2.4-r36.3.0 (L4T R36.3.0), but Dockerfile.torch24:1 "
        "starts FROM nvcr.io/nvidia/l4t-base:r36.2.0 (L4T R36.2.0)"
    ]
    # a scratch image copying from two stages holds no one base
    two = squashed.replace("FROM scratch", "FROM nvcr.io/nvidia/l4t-base:r36.3.0 AS other\nFROM scratch")
    two += "COPY --from=other /opt /opt\n"
    assert findings(readme, {"Dockerfile.torch24": two}) == []


@pytest.mark.parametrize(
    "item",
    [
        '1. Build: docker build -t owner/opt_base0"',  # a stray quote, no context: a slip of the README
        "- **Build**: `docker build -t owner/opt_base0 .`",
        "2. Build image: sudo docker build --tag owner/opt_base0:latest .",
    ],
)
def test_a_build_written_inline_in_a_list_item_tagged_with_its_own_base(item: str) -> None:
    readme = f"# opt_base\n\n#Usage\n{item}\n2. Run: docker run -it --rm owner/opt_base0\n"
    [found] = findings(readme, {"Dockerfile": BASED})
    assert found.startswith("4: README builds Dockerfile as owner/opt_base0")
    assert found.endswith(
        "but Dockerfile:1 starts FROM owner/opt_base0:latest: the image takes the name of its own base, and "
        "a later build of it starts from itself"
    )


@pytest.mark.parametrize(
    "item",
    [
        "1. Build: docker build -t owner/ros-app .",  # its own name
        "1. Build the base: docker build -t owner/opt_base0 -f Dockerfile.base .",  # the base's file
        "1. Base: docker build -t owner/opt_base0 ../base",  # the base's folder
        "1. docker build -t owner/opt_base0 is how the base was made",  # no labelled command
        "Build: docker build -t owner/opt_base0 .",  # a line of prose, no list item
        "1. Build: docker build -t $IMAGE .",
    ],
)
def test_inline_builds_of_another_image_or_no_command(item: str) -> None:
    assert findings(f"# opt_base\n\n{item}\n", {"Dockerfile": BASED}) == []


ROS_36 = "FROM nvcr.io/nvidia/l4t-base:r36.2.0 AS base\nRUN apt-get install -y ros-humble-ros-base\n"
PAGE = """## jetson-robot:iron-core-{release}

### Build and run

```bash
docker build -f images/{built}.iron_core.Dockerfile -t jetson-robot:iron-core-{release} .
docker run --runtime nvidia -it jetson-robot:iron-core-{release}
```
"""


def _page(tmp_path: Path, readme: str, page: str, dockerfile: str) -> list[str]:
    """`audit` of `readme` saved as `page` against `dockerfile`, run from `tmp_path`, where the r32.7.1
    sibling the build names is too: the findings on the title's tag (that the build builds the sibling
    is `page_builds`', tests/test_audit_page_builds.py)."""
    make_tree(
        tmp_path,
        {dockerfile: ROS_36, "images/r3271.iron_core.Dockerfile": ROS_36.replace("36.2.0", "32.7.1")},
    )
    model = build_model(tmp_path / dockerfile, dockerfile)
    found = audit(readme, page, model, {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if d.message.startswith("README tags")]


def test_a_dockerfiles_own_page_titled_with_the_l4t_release_of_a_sibling(tmp_path: Path) -> None:
    # the page was copied from the r32.7.1 sibling: its title and build are still the sibling's
    readme = PAGE.format(release="r32.7.1", built="r3271")
    assert _page(tmp_path, readme, "images/r3620.iron_core.md", "images/r3620.iron_core.Dockerfile") == [
        "1: README tags the image jetson-robot:iron-core-r32.7.1 (L4T R32.7.1), but "
        "images/r3620.iron_core.Dockerfile:1 starts FROM nvcr.io/nvidia/l4t-base:r36.2.0 (L4T R36.2.0) "
        "(likely)"
    ]
    # named after a `Dockerfile.NAME` too
    found = _page(tmp_path, readme, "images/r3620.md", "images/Dockerfile.r3620")
    assert [f.split(" (L4T")[0] for f in found] == ["1: README tags the image jetson-robot:iron-core-r32.7.1"]


@pytest.mark.parametrize(
    ("release", "page", "dockerfile"),
    [
        ("r36.2.0", "images/r3620.iron_core.md", "images/r3620.iron_core.Dockerfile"),  # the title agrees
        ("r36.2", "images/r3620.iron_core.md", "images/r3620.iron_core.Dockerfile"),  # to its precision
        ("r32.7.1", "images/README.md", "images/Dockerfile"),  # a folder's README: maybe the sibling's
        ("r32.7.1", "docs/r3620.iron_core.md", "images/r3620.iron_core.Dockerfile"),  # another folder
        ("r32.7.1", "images/r3271.iron_core.md", "images/r3620.iron_core.Dockerfile"),  # another page
    ],
)
def test_titles_that_are_true_or_of_no_page_of_the_dockerfile(
    tmp_path: Path, release: str, page: str, dockerfile: str
) -> None:
    assert _page(tmp_path, PAGE.format(release=release, built="r3271"), page, dockerfile) == []


DRIVER_17 = (
    "FROM ubuntu:xenial\n"
    "RUN apt-get update && apt-get install -y curl xz-utils \\\n"
    "    && curl -L -O https://drivers.example.com/linux/amdgpu-pro-17.40.2712-510357.tar.xz \\\n"
    "    && tar -Jxvf amdgpu-pro-17.40.2712-510357.tar.xz \\\n"
    "    && ./amdgpu-pro-17.40.2712-510357/amdgpu-pro-install -y --compute\n"
)
SDK = (
    "FROM debian:bookworm\n"
    "RUN wget https://downloads.example.org/rel/vulkan-sdk-1.3.250.1.tar.gz && tar xf vulkan-sdk-*.tar.gz\n"
)


def _tree_findings(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, files)
    models = [build_model(root / name, name) for name in files if "ockerfile" in name]
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", models, {}, root)]


def test_a_build_tag_naming_another_release_than_the_driver_the_dockerfile_downloads(tmp_path: Path) -> None:
    readme = (
        "# amdgpu\n\n#### Build\n```\ndocker build -t izone/amdgpu .\n```\n"
        "```\ndocker build -t izone/amdgpu:17.40.2712 -f Dockerfile_17.40 .\n```\n"
        "```\ndocker build -t izone/amdgpu:18.30-641594 .\n```\n"  # planted: the Dockerfile holds 17.40
    )
    files = {"Dockerfile": DRIVER_17, "Dockerfile_17.40": DRIVER_17}
    assert _tree_findings(tmp_path, readme, files) == [
        "11: README tags the image izone/amdgpu:18.30-641594 (version 18.30-641594), but Dockerfile:3 "
        "downloads and installs amdgpu-pro 17.40.2712-510357 (certain)"
    ]


@pytest.mark.parametrize(
    "tag",
    [
        "izone/amdgpu:17.40",  # the driver's release, to the precision the tag writes
        "izone/amdgpu:latest",  # no version
        "izone/miner:2.0",  # a name no download holds: the project's own release
        "izone/amdgpu:${VERSION}",  # a placeholder
    ],
)
def test_build_tags_that_say_nothing_of_the_download(tmp_path: Path, tag: str) -> None:
    readme = f"# amdgpu\n\n```\ndocker build -t {tag} .\n```\n"
    assert _tree_findings(tmp_path, readme, {"Dockerfile": DRIVER_17}) == []


def test_an_unconfirmed_tag_of_another_sdk_release_is_likely(tmp_path: Path) -> None:
    readme = "# Vulkan builder\n\n```bash\ndocker build -t me/vulkan-sdk:1.3.261 .\n```\n"
    assert _tree_findings(tmp_path, readme, {"Dockerfile": SDK}) == [
        "4: README tags the image me/vulkan-sdk:1.3.261 (version 1.3.261), but Dockerfile:2 downloads and "
        "installs vulkan-sdk 1.3.250.1 (likely)"
    ]


# an organ segmentation repository: a base folder and one folder a task, each with its Dockerfile
TASK_FOLDERS = {
    "seg-base/Dockerfile": "FROM nvidia/cuda:11.8.0-runtime-ubuntu22.04\nRUN true\n",
    "seg-task-kidney/Dockerfile": "FROM seg:base\nENV TASK=Task040_Kidney\n",
    "seg-task-lung/Dockerfile": "FROM seg:base\nENV TASK=Task006_Lung\n",
}
TASK_BUILDS = """\
# Organ segmentation

```bash
docker build -t seg:base seg-base/
docker build -t registry.example.org/tools/seg-kidney-tumour:latest seg-task-kidney/
docker build -t registry.example.org/tools/seg-lung-nodule:latest seg-task-kidney/
```
"""


def _crossed(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    return [f for f in _tree_findings(root, readme, files) if "a line copied from another build" in f]


def test_an_image_named_for_one_task_built_from_another_tasks_folder(tmp_path: Path) -> None:
    assert _crossed(tmp_path, TASK_BUILDS, TASK_FOLDERS) == [
        "6: README builds seg-lung-nodule from seg-task-kidney/, but the word lung of its name names "
        "seg-task-lung/, a folder beside it with a Dockerfile of its own, and no word of it names "
        "seg-task-kidney/: the image gets seg-task-kidney/'s Dockerfile, not seg-task-lung/'s (a line "
        "copied from another build?) (likely)"
    ]


def test_a_model_server_built_from_the_folder_of_another_model(tmp_path: Path) -> None:
    # a serving repository, one folder a model, the lines written with a split tag a space broke
    files = {f"serve-{m}/Dockerfile": f"FROM python:3.11-slim\nENV MODEL={m}\n" for m in ("llama", "mistral")}
    readme = (
        "```\ndocker build -t acme/ llama-server:1.0 serve-llama\n"
        "docker build -t acme/ mistral-server:1.0 serve-llama\n```\n"
    )
    assert [f.split(":", 1)[0] for f in _crossed(tmp_path, readme, files)] == ["3"]


@pytest.mark.parametrize(
    "builds",
    [
        # one image name in two flavours of one folder
        "docker build -t seg:cpu seg-task-kidney/\ndocker build -t seg:gpu seg-task-kidney/",
        # a name with a word of the folder it builds too
        "docker build -t seg-kidney:1 seg-task-kidney/\ndocker build -t seg-kidney-lung:1 seg-task-kidney/",
        # the word is given the build as an arg or a target: one folder builds each on purpose
        "docker build -t seg-kidney:1 seg-task-kidney/\n"
        "docker build --build-arg ORGAN=lung -t seg-lung:1 seg-task-kidney/",
        "docker build -t seg-kidney:1 seg-task-kidney/\n"
        "docker build --target lung -t seg-lung:1 seg-task-kidney/",
        # a name of a task no folder has
        "docker build -t seg-kidney:1 seg-task-kidney/\ndocker build -t seg-liver:1 seg-task-kidney/",
        # one build of the folder only
        "docker build -t seg-lung:1 seg-task-kidney/",
    ],
)
def test_builds_of_one_folder_that_name_no_other(tmp_path: Path, builds: str) -> None:
    assert _crossed(tmp_path, f"```bash\n{builds}\n```\n", TASK_FOLDERS) == []


# The folder a sentence right above a build of `.` says to build from (`said_contexts`)

SAID_FROM = """\
### Build local image

* Build the image from Docker file (from within {path})

  ```bash
  docker build -t {tag} .
  ```
"""


@pytest.mark.parametrize(
    ("folder", "readme"),
    [
        # a version folder's README copied from the release before it (`3.4.0_cuda12.1` is one `-` part off)
        (
            "segm/3.4.0-1_cuda12.1",
            SAID_FROM.format(path="/path_to/segm/3.4.0_cuda12.1", tag="segm"),
        ),
        # a ROS image's README copied from the plainer variant's folder
        (
            "ros-humble-desktop",
            "## Build\n\nFrom a terminal in the `ros-humble` directory, run:\n\n"
            "```\ndocker build -t r2 .\n```\n",
        ),
    ],
)
def test_a_sentence_above_a_build_names_a_sibling_folder(tmp_path: Path, folder: str, readme: str) -> None:
    found = _copied(tmp_path, folder, readme)
    said = next(line for line in readme.splitlines() if "docker build" in line)
    at = readme.splitlines().index(said) + 1
    name = "3.4.0_cuda12.1" if folder.startswith("segm") else "ros-humble"
    own = folder.rsplit("/", 1)[-1]
    assert found == [
        f"{at}: README says to build from {name}/ (line {at - 3}), but it sits in {own}/ beside Dockerfile: "
        f"docker build . run there builds that folder's image, not this one's (a README copied from "
        f"{name}/?) (likely)"
    ]


@pytest.mark.parametrize(
    ("folder", "readme"),
    [
        # its own folder, a folder of another shape, a root directory
        ("segm/3.4.0-1_cuda12.1", SAID_FROM.format(path="/path_to/segm/3.4.0-1_cuda12.1", tag="segm")),
        ("docker", "From a terminal in the `docker` directory, run:\n\n```\ndocker build -t r2 .\n```\n"),
        ("gpu", "From a terminal in the `cpu` directory, run:\n\n```\ndocker build -t r2 .\n```\n"),
        ("app-gpu", "Run this in the project root directory:\n\n```\ndocker build -t r2 .\n```\n"),
        # the sibling's image, tagged by its name: the base built first on purpose
        (
            "ros-humble-desktop",
            "Build the base in the `ros-humble` folder:\n\n```\ndocker build -t ros-humble .\n```\n",
        ),
        # a build that names its context, and a sentence not right above the block
        (
            "ros-humble-desktop",
            "From the `ros-humble` folder:\n\n```\ndocker build -t r2 ../ros-humble-desktop\n```\n",
        ),
        (
            "ros-humble-desktop",
            "It extends the image of the `ros-humble` folder.\n\nMore text here.\n\nAnd more.\n\n"
            "```\ndocker build -t r2 .\n```\n",
        ),
    ],
)
def test_sentences_above_builds_that_name_no_sibling_folder(tmp_path: Path, folder: str, readme: str) -> None:
    assert _copied(tmp_path, folder, readme) == []
