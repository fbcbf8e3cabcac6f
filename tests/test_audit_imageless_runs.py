"""`docgen.audit.imageless_runs`: a `docker run` whose image word is a program the README starts in an
image on another run line (or the CMD of the audited image), followed by that program's arguments, has
left out its image: docker reads the program as the image (`likely`). Modelled on a Jetson Nano notebook
README (`docker run -d --gpus all -p <local port>:<container port> … jupyter notebook --ip …` next to
`… torch_jupyter/jetson-nano jupyter notebook …`) and on a data-science README whose Dockerfile ends in
`CMD ["jupyter", "lab", …]` and whose run line starts `lab`.

Traps: an image really named so (a build `-t jupyter`, a pull), `jupyter/base-notebook`, an official
image (`python`), a placeholder image, a line whose next word is no argument of the program, an image
with an ENTRYPOINT, a README that loads images."""

from __future__ import annotations

import pytest

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

NOTEBOOK = "FROM nvcr.io/nvidia/l4t-pytorch:r32.7.1-pth1.10-py3\nRUN pip3 install jupyter\n"
LAB = 'FROM python:3.11-slim\nRUN pip install jupyterlab\nCMD ["jupyter", "lab", "--ip=0.0.0.0"]\n'
MISSING = (
    "README runs {0} {1} … as a container, but no image is named: docker reads {0}, the program to start, "
    "as the image and looks for docker.io/library/{0}{2} (put the image before the program)"
)


def found(readme: str, dockerfile: str = NOTEBOOK) -> list[str]:
    model = model_of(parse_dockerfile(dockerfile, "Dockerfile"))
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model)
        if "no image is named" in d.message
    ]


def _notes(template: str, build: str = "sudo docker build -t orin-torch/lab .") -> str:
    return (
        f"## Notebook image\n\n```bash\n{build}\n```\n\n- Run\n\n```\n{template}\n"
        "# Example\nsudo docker run -d --gpus all -p 8890:8890 -v ~/work:/work orin-torch/lab "
        "jupyter notebook --ip 0.0.0.0 --port 8890 --allow-root\n```\n"
    )


TEMPLATE = (
    "sudo docker run -d --gpus all -p <host port>:<container port> -v <host dir>:<container dir> "
    "jupyter notebook --ip 0.0.0.0 --port <container port>"
)


def test_a_template_run_without_its_image() -> None:
    assert found(_notes(TEMPLATE)) == [
        f"10: {MISSING.format('jupyter', 'notebook', '; line 12 runs orin-torch/lab jupyter …')} (likely)"
    ]


def test_the_program_of_the_images_cmd() -> None:
    readme = "# Lab\n\n```\ndocker run --rm -p 8888:8888 -v $PWD:/home/work jupyter lab --no-browser\n```\n"
    assert found(readme, LAB) == [f"4: {MISSING.format('jupyter', 'lab', '')} (likely)"]


@pytest.mark.parametrize(
    "readme",
    [
        _notes(TEMPLATE, "sudo docker build -t jupyter ."),  # an image really named so
        _notes(TEMPLATE.replace("jupyter notebook", "jupyter/base-notebook start-notebook.sh")),
        _notes(TEMPLATE.replace("jupyter notebook", "<image> jupyter notebook")),
        _notes(TEMPLATE.replace("jupyter notebook --ip", "jupyter console --ip")),  # not its argument
        _notes(TEMPLATE + "\ndocker pull jupyter"),
        _notes(TEMPLATE + "\ndocker load -i images.tar"),
        _notes("sudo docker run -d -p 8890:8890 jupyter"),  # nothing after it
    ],
)
def test_traps_stay_silent(readme: str) -> None:
    assert found(readme) == []


def test_an_official_image_named_as_the_program() -> None:
    first = "docker run --rm acme/tool python train.py"
    readme = f"```\n{first}\ndocker run --rm -v $PWD:/src python -c 'print(1)'\n```\n"
    assert found(readme) == []


def test_cmd_under_an_entrypoint_names_no_program() -> None:
    dockerfile = LAB.replace("CMD", 'ENTRYPOINT ["tini", "--"]\nCMD')
    readme = "# Lab\n\n```\ndocker run --rm -p 8888:8888 jupyter lab --no-browser\n```\n"
    assert found(readme, dockerfile) == []


def test_a_word_after_an_image_given_an_entrypoint_is_no_program() -> None:
    readme = (
        "```\ndocker run --entrypoint jupyter -p 8890:8890 orin-torch/lab notebook --ip 0.0.0.0\n"
        "docker run --rm -p 8890:8890 notebook --ip 0.0.0.0\n```\n"
    )
    assert found(readme) == []


def no_image(readme: str) -> list[str]:
    model = model_of(parse_dockerfile(NOTEBOOK, "Dockerfile"))
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model)
        if "names no image" in d.message
    ]


SLAM_RUN = (
    "# SLAM\n\n```bash\ndocker build -t slam3 .\n```\n\n# Run docker\n\n```bash\ncd slam3-install\n"
    'docker run -td --privileged --net=host --name="slam_test" --gpus=all -e "DISPLAY=$DISPLAY" '
    "-v /tmp/.X11-unix:/tmp/.X11-unix:rw --cap-add=SYS_PTRACE -v `pwd`/Datasets:/Datasets\n```\n"
)
"""A SLAM image's run step (the shape of one whose image fell off the end of a long line)."""


def test_a_run_of_options_alone() -> None:
    assert no_image(SLAM_RUN) == [
        "11: README's docker run gives only options (the last: -v `pwd`/Datasets:/Datasets) and names no "
        'image: docker refuses it ("docker run" requires at least 1 argument), so no container starts (the '
        "image goes after the options) (certain)"
    ]
    assert no_image(SLAM_RUN.replace("/Datasets:/Datasets\n", "/Datasets:/Datasets slam3\n")) == []


def test_a_multi_line_run_that_ends_on_an_option() -> None:
    # a notebook image's run (the shape of one whose last line is a mount)
    readme = (
        "# Notebook\n\n```sh\ndocker run -it --rm \\\n  --gpus all \\\n  -p 8888:8888 \\\n"
        "  -v $HOME/notebooks:/home/jovyan/work\n```\n"
    )
    assert [f.split(" (the last")[0] for f in no_image(readme)] == [
        "4: README's docker run gives only options"
    ]


@pytest.mark.parametrize(
    "block",
    [
        "docker run --gpus all",  # an option shown alone: a fragment
        "docker run -it --rm ...",  # an elision
        "docker run --help",
        "docker run -it --rm -p 8888:8888 <image>",
        "docker run -it --rm -p 8888:8888 $IMAGE",
        # the next line carries the image on without the `\\`: continuations' finding
        "docker run -it --rm \\\n  -p 8888:8888 \\\n  -v $PWD:/w\n  lab/notebook:latest",
        "docker run -it --rm -p 8888:8888 --future-flag x",  # an option docker may have now
        "docker run -it --rm -p 8888:8888 ^\n  lab/notebook",  # cmd's continuation
    ],
)
def test_runs_naming_an_image_or_no_run(block: str) -> None:
    assert no_image(f"# Notebook\n\n```bash\n{block}\n```\n") == []


def test_a_prose_line_is_no_run() -> None:
    assert no_image("# Notebook\n\nRun it with `docker run -it --rm -p 8888:8888` and your image.\n") == []
