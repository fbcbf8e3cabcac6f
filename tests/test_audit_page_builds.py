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
