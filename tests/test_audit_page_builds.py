"""`docgen audit`: a Dockerfile's own page whose build commands build another Dockerfile of the project
(docgen/audit/page_builds.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

NEW = "FROM nvcr.io/nvidia/l4t-base:r36.4.0\nRUN apt-get update && apt-get install -y ros-jazzy-ros-base\n"
OLD = "FROM nvcr.io/nvidia/l4t-base:r35.4.1\nRUN apt-get update && apt-get install -y ros-iron-ros-base\n"
PAGE = """## robot-stack:jazzy-base

### Build

```bash
docker buildx build --load --platform linux/arm64 -f {first} -t robot-stack:jazzy-base .
```

Or with a registry cache:

```bash
docker buildx build --push \\
    --cache-from=type=registry,ref=ghcr.io/acme/robot-stack:cache \\
    -f {second} \\
    -t ghcr.io/acme/robot-stack:jazzy-base .
```
"""


def found(
    root: Path,
    readme: str,
    page: str = "stacks/r3640.jazzy_base.md",
    dockerfile: str = "stacks/r3640.jazzy_base.Dockerfile",
    extra: dict[str, str] | None = None,
) -> list[tuple[int, str, str]]:
    """The findings of this rule on `readme` saved as `page`, about `dockerfile`, in a project at `root`
    that holds the older sibling `stacks/r3541.iron_base.Dockerfile` too."""
    files = {dockerfile: NEW, "stacks/r3541.iron_base.Dockerfile": OLD, page: readme, **(extra or {})}
    make_tree(root, files)
    model = build_model(root / dockerfile, dockerfile)
    directory = (root / page).parent
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, page, model, {}, directory, root)
        if "README is the page of" in d.message
    ]


def test_a_page_whose_builds_build_the_sibling_it_was_copied_from(tmp_path: Path) -> None:
    old = "stacks/r3541.iron_base.Dockerfile"
    assert found(tmp_path, PAGE.format(first=old, second=old)) == [
        (
            6,
            "README is the page of stacks/r3640.jazzy_base.Dockerfile (by its name), but its build command "
            "builds -f stacks/r3541.iron_base.Dockerfile, another Dockerfile, and none builds "
            "stacks/r3640.jazzy_base.Dockerfile (also line 12)",
            "certain",
        )
    ]


def test_a_page_named_after_a_dockerfile_dot_name_building_from_its_folder(tmp_path: Path) -> None:
    readme = "# Jazzy\n\n```bash\ncd stacks\ndocker build -f r3541.iron_base.Dockerfile -t stack .\n```\n"
    [(line, message, _)] = found(tmp_path, readme, "stacks/jazzy.md", "stacks/Dockerfile.jazzy")
    assert (line, message.split(", another")[0]) == (
        5,
        "README is the page of stacks/Dockerfile.jazzy (by its name), but its build command builds "
        "-f r3541.iron_base.Dockerfile",
    )


OWN = "stacks/r3640.jazzy_base.Dockerfile"
OLD_FILE = "stacks/r3541.iron_base.Dockerfile"


@pytest.mark.parametrize(
    ("readme", "page"),
    [
        # builds its own Dockerfile, in both blocks or in one of them
        (PAGE.format(first=OWN, second=OWN), "stacks/r3640.jazzy_base.md"),
        (PAGE.format(first=OLD_FILE, second=OWN), "stacks/r3640.jazzy_base.md"),
        # a base first, then its own image
        (
            "# Jazzy\n\n```bash\ndocker build -f stacks/r3541.iron_base.Dockerfile -t base .\n"
            "docker build -f stacks/r3640.jazzy_base.Dockerfile --build-arg BASE=base -t app .\n```\n",
            "stacks/r3640.jazzy_base.md",
        ),
        # a page about several Dockerfiles: a folder's README
        (PAGE.format(first=OLD_FILE, second=OLD_FILE), "stacks/README.md"),
        # a page of another folder, or named after the sibling
        (PAGE.format(first=OLD_FILE, second=OLD_FILE), "docs/r3640.jazzy_base.md"),
        (PAGE.format(first=OLD_FILE, second=OLD_FILE), "stacks/r3541.iron_base.md"),
        # a build whose file cannot be read: stdin, a variable, a placeholder, none given, one not found
        ("# Jazzy\n\n```bash\ndocker build -f - -t stack . < stacks/r3541.iron_base.Dockerfile\n```\n", None),
        ("# Jazzy\n\n```bash\ndocker build -f $DOCKERFILE -t stack .\n```\n", None),
        ("# Jazzy\n\n```bash\ndocker build -f stacks/<release>.Dockerfile -t stack .\n```\n", None),
        ("# Jazzy\n\n```bash\ndocker build -t stack stacks\n```\n", None),
        ("# Jazzy\n\n```bash\ndocker build -f stacks/r3541.humble.Dockerfile -t stack .\n```\n", None),
        # one build of the sibling and one whose file is not said
        (
            "# Jazzy\n\n```bash\ndocker build -f stacks/r3541.iron_base.Dockerfile -t old .\n"
            "docker build -t stack -f $FILE .\n```\n",
            None,
        ),
        # no build command at all
        ("# Jazzy\n\n```bash\ndocker pull ghcr.io/acme/robot-stack:jazzy-base\n```\n", None),
    ],
)
def test_pages_left_alone(tmp_path: Path, readme: str, page: str | None) -> None:
    assert found(tmp_path, readme, page or "stacks/r3640.jazzy_base.md") == []


# a simulation recipe repository: two Dockerfiles described, the build names a third (modelled on an MD
# code built with MPI or with CUDA); and a web service with a CPU and a GPU recipe
MD_README = """\
# md-engine containers

Recipes to build the engine with the **mpi** option (Dockerfile_MPI) and with the
**multicore-cuda** option (Dockerfile_cuda).

Put the source tarball in the same folder as the Dockerfile of your choice.

```
docker build -t mdengine -f {built} .
```
"""
MD_FILES = {
    "Dockerfile": "FROM ubuntu:22.04\nRUN ./build mpi\n",
    "Dockerfile_MPI": "FROM ubuntu:22.04\nRUN ./build mpi\n",
    "Dockerfile_cuda": "FROM nvidia/cuda:12.1.0-devel-ubuntu22.04\nRUN ./build multicore-cuda\n",
}


def described(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {**files, "README.md": readme})
    models = [build_model(root / name, name) for name in files if "ockerfile" in name]
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", models, {}, root, root)
        if "never describes" in d.message
    ]


def test_a_build_of_a_dockerfile_the_readme_does_not_describe(tmp_path: Path) -> None:
    assert described(tmp_path, MD_README.format(built="Dockerfile"), MD_FILES) == [
        (
            9,
            "README describes Dockerfile_MPI and Dockerfile_cuda (line 3), but its build command builds -f "
            "Dockerfile, which it never describes, and none builds Dockerfile_MPI or Dockerfile_cuda",
            "likely",
        )
    ]


def test_a_service_page_naming_its_recipes_in_code_and_building_another(tmp_path: Path) -> None:
    readme = (
        "# Vision API\n\nTwo recipes: `cpu.Dockerfile` for laptops, `gpu.Dockerfile` for servers.\n\n"
        "```\ndocker build -f legacy.Dockerfile -t vision-api .\n```\n"
    )
    files = {
        name: "FROM python:3.11-slim\n" for name in ("cpu.Dockerfile", "gpu.Dockerfile", "legacy.Dockerfile")
    }
    assert [line for line, _, _ in described(tmp_path, readme, files)] == [6]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # a build of a described recipe
        (MD_README.format(built="Dockerfile_cuda"), MD_FILES),
        # the built file named in code too
        (
            MD_README.format(built="Dockerfile").replace("the Dockerfile of", "`Dockerfile` or the one of"),
            MD_FILES,
        ),
        # a build with no -f: the default file, the variants another use
        (MD_README.format(built="Dockerfile").replace("-f Dockerfile ", ""), MD_FILES),
        # one recipe described only
        (
            MD_README.format(built="Dockerfile").replace(
                " and with the\n**multicore-cuda** option (Dockerfile_cuda)", ""
            ),
            MD_FILES,
        ),
        # the recipe chosen is moved to the name built
        (
            MD_README.format(built="Dockerfile").replace(
                "docker build", "cp Dockerfile_cuda Dockerfile\ndocker build"
            ),
            MD_FILES,
        ),
        # the described names are no files here
        (MD_README.format(built="Dockerfile"), {"Dockerfile": "FROM ubuntu:22.04\n"}),
    ],
)
def test_builds_of_a_described_recipe_or_of_no_choice(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    assert described(tmp_path, readme, files) == []
