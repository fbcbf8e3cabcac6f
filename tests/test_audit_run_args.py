"""`docgen.audit.run_args`: a `docker run` of the README's own image whose words after the image start
with an option while the image has no ENTRYPOINT is a finding (`certain` on a plain OS or CUDA base,
`likely` on another base); an ENTRYPOINT (exec or shell form, in the built stage or one it is built
on), `--entrypoint`, a program after the image, or an image the README does not build is not."""

from __future__ import annotations

import pytest

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

PLAIN = 'FROM ubuntu:22.04\nCOPY draw.sh /draw.sh\nCMD ["/draw.sh"]\n'


def found(readme: str, dockerfile: str = PLAIN) -> list[str]:
    model = model_of(parse_dockerfile(dockerfile, "Dockerfile"))
    diagnostics = audit(readme, "README.md", model)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in diagnostics if "replace CMD" in d.message]


README = """\
# Sketch

```bash
docker build -t acme/sketch .
docker run --rm \\
    -v "$PWD/in:/in" \\
    acme/sketch:latest --frames 12 --scale 2
```
"""


def test_an_option_after_the_image_replaces_cmd() -> None:
    assert found(README) == [
        "7: README runs acme/sketch:latest --frames …, but Dockerfile has no ENTRYPOINT: words after the "
        "image replace CMD, so docker executes --frames as the container's program and it fails (put the "
        "program first, or use --entrypoint) (certain)"
    ]


def test_an_unknown_base_may_set_an_entrypoint() -> None:
    dockerfile = 'FROM acme/toolbox:3\nCMD ["/draw.sh"]\n'
    assert found(README, dockerfile) == [
        "7: README runs acme/sketch:latest --frames …, but Dockerfile sets no ENTRYPOINT (unless "
        "acme/toolbox:3 does): words after the image replace CMD, so docker executes --frames as the "
        "container's program and it fails (put the program first, or use --entrypoint) (likely)"
    ]


def test_an_entrypoint_cleared_in_the_built_stage() -> None:
    dockerfile = 'FROM ubuntu:22.04 AS base\nENTRYPOINT ["/draw.sh"]\nFROM base\nENTRYPOINT []\nCMD ["x"]\n'
    assert len(found(README, dockerfile)) == 1


@pytest.mark.parametrize(
    "dockerfile",
    [
        'FROM ubuntu:22.04\nENTRYPOINT ["/draw.sh"]\n',  # exec form
        "FROM ubuntu:22.04\nENTRYPOINT /draw.sh\n",  # shell form
        'FROM ubuntu:22.04 AS base\nENTRYPOINT ["/draw.sh"]\nFROM base\nCMD ["--help"]\n',  # inherited
    ],
)
def test_an_entrypoint_takes_the_options(dockerfile: str) -> None:
    assert found(README, dockerfile) == []


@pytest.mark.parametrize(
    "command",
    [
        "docker run --entrypoint /draw.sh acme/sketch:latest --frames 12",  # entrypoint given
        "docker run acme/sketch:latest /draw.sh --frames 12",  # a program first
        "docker run acme/other:latest --frames 12",  # not the image the README builds
        "docker run acme/sketch:latest",  # nothing after the image
        "docker run acme/sketch -e MODE=fast",  # a misplaced docker option (reported by grammar)
    ],
)
def test_shapes_that_stay_silent(command: str) -> None:
    readme = f"```bash\ndocker build -t acme/sketch .\n{command}\n```\n"
    assert found(readme) == []


def test_an_image_the_readme_does_not_build_is_not_judged() -> None:
    assert found("```bash\ndocker run acme/sketch:latest --frames 12\n```\n") == []


def dropped(readme: str) -> list[str]:
    model = model_of(parse_dockerfile(PLAIN, "Dockerfile"))
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model)
        if "library/" in d.message
    ]


def test_a_run_image_that_lost_its_namespace() -> None:
    readme = """\
# Sketch

```
$ docker pull acme/sketch-lab:2
$ docker run --rm -p 9000:9000 sketch-lab:2
```
"""
    assert dropped(readme) == [
        "5: README runs image sketch-lab:2, which nothing it builds, tags or pulls is named so: docker "
        "looks for docker.io/library/sketch-lab (did you mean acme/sketch-lab?) (likely)"
    ]


@pytest.mark.parametrize(
    "commands",
    [
        "docker pull acme/sketch-lab:2\ndocker build -t sketch-lab:2 .\ndocker run sketch-lab:2",  # built
        "docker pull acme/sketch-lab:2\ndocker tag acme/sketch-lab:2 sketch-lab:2\ndocker run sketch-lab:2",
        "docker load -i sketch.tar\ndocker pull acme/sketch-lab:2\ndocker run sketch-lab:2",  # loaded
        "docker pull acme/ubuntu:2\ndocker run ubuntu:22.04 bash",  # an official image
        "docker pull acme/sketch-lab:2\ndocker run acme/sketch-lab:2",  # the same name
        "docker run sketch-lab:2",  # nothing under a namespace
        "dokcer build -t sketch-lab:2 .\ndocker pull acme/sketch-lab:2\ndocker run sketch-lab:2",  # tagged
        "docker build -t acme/sketch-lab:2 .\ndocker run sketch-lab:2",  # built: `names` tells it
    ],
)
def test_run_images_that_stay_silent(commands: str) -> None:
    assert dropped(f"```bash\n{commands}\n```\n") == []


def test_a_compose_image_names_it() -> None:
    readme = (
        "```yaml\nservices:\n  lab:\n    image: sketch-lab:2\n```\n\n"
        "```bash\ndocker pull acme/sketch-lab:2\ndocker run sketch-lab:2\n```\n"
    )
    assert dropped(readme) == []
