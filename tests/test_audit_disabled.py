"""`docgen audit`: a component a README lists as in the image whose only install in the Dockerfile is
commented out (docgen/audit/disabled.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

CODES = """\
FROM debian:12
#ENV SIESTA_VERSION=5.2.0
RUN apt-get update && apt-get install -y gfortran libopenmpi-dev
RUN pip install phonopy ase
# Siesta (fails to build, see issue 12)
# RUN wget -qO- https://example.org/siesta-${SIESTA_VERSION}.tar.gz | tar xz \\
#     && cmake -S siesta-${SIESTA_VERSION} -B build && cmake --build build
#RUN git clone https://example.org/octopus.git && make -C octopus install
"""


def found(root: Path, readme: str, dockerfile: str = CODES) -> list[str]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [f"{d.line}: {d.message}" for d in audit(readme, "README.md", model, {}, root, root)]


def disabled(line: int, name: str, where: int) -> str:
    return (
        f"{line}: README lists {name} as in the image, but its install is commented out "
        f"(Dockerfile:{where}) and nothing else installs it"
    )


@pytest.mark.parametrize(
    "readme",
    [
        "Codes for materials science:\n\n- Phonopy\n- [SIESTA](https://siesta-project.org/)\n- ASE\n",
        "## Software\n\n* `phonopy`\n* `ase`\n* `siesta`: DFT with localised orbitals\n",
        "1. phonopy\n2. Siesta\n3. ase\n",
    ],
)
def test_a_listed_component_whose_install_is_commented_out(tmp_path: Path, readme: str) -> None:
    line = next(n for n, t in enumerate(readme.splitlines(), 1) if "iesta" in t)
    name = next(w for w in ("SIESTA", "siesta", "Siesta") if w in readme.splitlines()[line - 1])
    assert found(tmp_path, readme) == [disabled(line, name, 6)]


def test_every_commented_out_install_of_a_list(tmp_path: Path) -> None:
    readme = "Installed codes:\n\n- phonopy\n- ase\n- Siesta\n- Octopus\n"
    assert found(tmp_path, readme) == [disabled(5, "Siesta", 6), disabled(6, "Octopus", 8)]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        # the true statement: the install is live
        (
            "- phonopy\n- ase\n- Siesta\n",
            CODES.replace("# RUN wget", "RUN wget").replace("#     &&", "    &&"),
        ),
        # installed another way too
        ("- phonopy\n- ase\n- Siesta\n", CODES + "RUN pip install siesta-tools\n"),
        # what the reader needs, optional, or a version said
        ("Requirements on your machine:\n\n- phonopy\n- ase\n- Siesta\n", CODES),
        ("- phonopy\n- ase\n- Siesta (optional)\n", CODES),
        ("- phonopy\n- ase\n- Siesta 5.2\n", CODES),
        # a list mostly of what the image does not install: not the image's
        ("- Siesta\n- VASP\n- CP2K\n- phonopy\n", CODES),
        # a script docgen cannot read may install it
        ("- phonopy\n- ase\n- Siesta\n", CODES + "COPY install.sh /\nRUN bash /install.sh\n"),
        # the base image holds it
        ("- phonopy\n- ase\n- Siesta\n", CODES.replace("debian:12", "example/siesta:5.2")),
    ],
)
def test_lists_that_are_no_finding(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert found(tmp_path, readme, dockerfile) == []


NGC = """\
FROM nvcr.io/nvidia/pytorch:24.05-py3
RUN pip install --no-cache-dir transformers==4.44.0 peft==0.12.0
# RUN pip install deepspeed==0.14.0
# RUN git clone https://github.com/NVIDIA/apex && pip install ./apex
"""


def test_a_commented_out_install_on_a_framework_base(tmp_path: Path) -> None:
    # DeepSpeed: disabled, and NGC's PyTorch image has none; Apex: disabled too, but the base carries it
    readme = "# Trainer\n\n## Libraries\n\n- transformers\n- peft\n- DeepSpeed\n- Apex\n"
    assert found(tmp_path, readme, NGC) == [disabled(7, "DeepSpeed", 3)]


TENSORFLOW = """\
FROM myorg/gpu-base:cuda10-py3
WORKDIR /opt
RUN git clone https://github.com/tensorflow/tensorflow && cd tensorflow && git checkout r1.4
#RUN cd tensorflow && ./configure
#RUN bazel build --config=opt --config=cuda //tensorflow/tools/pip_package:build_pip_package
#RUN pip install /tmp/tensorflow_pkg/*
#RUN pip install keras
# RUN pip install tflearn
RUN pip install numpy scipy jupyter
"""

CODE_SERVER = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y curl python3
# RUN curl -fsSL https://code-server.dev/install.sh | sh
EXPOSE 8080
"""


def promised(line: int, name: str, where: int) -> str:
    return (
        f"{line}: README says the image has {name}, but Dockerfile installs no {name}: its install is "
        f"commented out (Dockerfile:{where})"
    )


def test_a_promise_of_a_sentence_whose_installs_are_commented_out(tmp_path: Path) -> None:
    readme = (
        "# tf\n\nDockerfile for building an image with Tensorflow, with the option to use Keras or TFLearn.\n"
    )
    # the base is the project's own, which docgen cannot read: the commented-out install is the evidence
    assert found(tmp_path, readme, TENSORFLOW) == [
        promised(3, "Tensorflow", 5),
        promised(3, "Keras", 7),
        promised(3, "TFLearn", 8),
    ]


def test_what_a_dockerfile_is_said_to_build_is_promised(tmp_path: Path) -> None:
    readme = "# tf\n\nDockerfile for building for building the framework [Tensorflow](https://x.org) (GPU).\n"
    assert found(tmp_path, readme, TENSORFLOW) == [promised(3, "Tensorflow", 5)]
    # built live: the promise holds
    live = TENSORFLOW.replace(
        "#RUN pip install /tmp/tensorflow_pkg/*", "RUN pip install /tmp/tensorflow_pkg/*"
    )
    assert [f for f in found(tmp_path / "live", readme, live) if "commented out" in f] == []


def test_a_badge_of_a_tool_whose_install_is_commented_out(tmp_path: Path) -> None:
    readme = (
        "# devbox\n\n[![code-server](https://img.shields.io/badge/code--server-VS%20Code-blue)](https://coder.com)\n"
        "[![Docker](https://img.shields.io/badge/Docker-ready-blue)](https://docker.com)\n"
    )
    assert found(tmp_path, readme, CODE_SERVER) == [promised(3, "code-server", 3)]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        # the README gives it to the base image
        ("An image with Tensorflow and Keras (both come from the base image).\n", TENSORFLOW),
        # a Dockerfile comment gives it to the base image
        (
            "An image with Keras.\n",
            TENSORFLOW.replace(
                "#RUN pip install keras\n", "# keras is in the base image\n#RUN pip install keras\n"
            ),
        ),
        # installed live elsewhere: another RUN, a requirements file copied in
        ("An image with Keras.\n", TENSORFLOW + "RUN pip install keras==2.1\n"),
        (
            "An image with Keras.\n",
            TENSORFLOW + "COPY requirements.txt .\nRUN pip install -r requirements.txt\n",
        ),
        # a name past the words the promise is about: where the reader uses it, not what the image has
        ("An image with Jupyter, so that you can open notebooks in Keras.\n", TENSORFLOW),
        # optional, or for the reader to switch on
        ("An image with Keras if you uncomment its line.\n", TENSORFLOW),
        ("Keras is not installed; the image with Jupyter is enough.\n", TENSORFLOW),
        # history
        ("# tf\n\nThe image with Jupyter.\n\n## Changelog\n\n- 0.1: an image with Keras\n", TENSORFLOW),
        # a versioned badge is a version claim, read elsewhere
        (
            "[![code-server](https://img.shields.io/badge/code--server-4.2.0-blue)](https://x.org)\n",
            CODE_SERVER,
        ),
        # a base known to carry it
        (
            "An image with Keras.\n",
            TENSORFLOW.replace("myorg/gpu-base:cuda10-py3", "tensorflow/tensorflow:1.4.0-gpu"),
        ),
    ],
)
def test_what_a_promise_leaves_alone(tmp_path: Path, readme: str, dockerfile: str) -> None:
    files = {"requirements.txt": "keras==2.1\n"} if "requirements" in dockerfile else {}
    make_tree(tmp_path, files)
    assert [f for f in found(tmp_path, readme, dockerfile) if "commented out" in f] == []


NOTEBOOK = """\
FROM ubuntu:20.04
ENV CUDA_VERSION 11.8.0
RUN apt-get update && apt-get install -y cuda-toolkit-11-8=${CUDA_VERSION}-1
ENV CUDNN_VERSION 8.9.2
RUN apt-get install -y libcudnn8=${CUDNN_VERSION}-1+cuda11.8
# RUN conda install -y opencv
"""


def test_a_list_made_the_images_by_its_versions(tmp_path: Path) -> None:
    """No unversioned item is installed, so only the versions (`Ubuntu 20.04`, `CUDA 11.8`, `cuDNN
    v8.9`, as the Dockerfile says them) make the list the image's; OpenCV's install is commented out."""
    readme = "## Base Notebook\n* Ubuntu 20.04\n* CUDA 11.8\n* cuDNN v8.9\n* [OpenCV](https://opencv.org/)\n"
    assert found(tmp_path, readme, NOTEBOOK) == [disabled(5, "OpenCV", 6)]


@pytest.mark.parametrize(
    "readme",
    [
        # CUDA 12.1 is not the image's: the list is another image's
        "## Base Notebook\n* Ubuntu 20.04\n* CUDA 12.1\n* cuDNN v8.9\n* OpenCV\n",
        # the machine it was tried on
        "## Base Notebook\n* Ubuntu 20.04\n* CUDA 11.8 (driver 520, tested)\n* cuDNN v8.9\n* OpenCV\n",
    ],
)
def test_lists_whose_versions_are_not_the_images(tmp_path: Path, readme: str) -> None:
    assert [f for f in found(tmp_path, readme, NOTEBOOK) if "OpenCV" in f] == []


def test_the_names_after_each_of_many_promises_in_one_sentence(tmp_path: Path) -> None:
    # one sentence, three promises: each name read once, the one after an example still read by the
    # promise before it, a name between two promises kept
    readme = (
        "# tf\n\nThe image with Keras and the environment with TFLearn, e.g. a container with "
        "Tensorflow, and more\n"
    )
    assert found(tmp_path, readme, TENSORFLOW) == [
        promised(3, "Keras", 7),
        promised(3, "TFLearn", 8),
        promised(3, "Tensorflow", 5),
    ]
    # a clause end stops it: nothing after `so`
    assert found(tmp_path / "so", "An image with Jupyter, so Keras works.\n", TENSORFLOW) == []


# --------------------------------------------------------------------------------------------------
# A model the README says the image holds, whose only download is commented out

VIDEO = """\
FROM nvidia/cuda:12.6.3-devel-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip git
WORKDIR /srv
RUN git clone https://example.org/clipgen.git && pip install -r clipgen/requirements.txt
# # Fetch the weights into the image
# RUN pip install "huggingface_hub[cli]" && \\
#     huggingface-cli download acme/clipgen-small --local-dir /srv/weights
VOLUME ["/srv/weights"]
CMD ["bash"]
"""

HOLDS = """\
# Clipgen

The image ships with everything needed and includes a pre-downloaded small model, ready to go.

- **Dockerfile**: installs the dependencies and pre-downloads the clipgen-small model.
"""


def test_a_model_said_to_be_in_the_image_whose_download_is_commented_out(tmp_path: Path) -> None:
    assert found(tmp_path, HOLDS, VIDEO) == [
        "3: README says the image holds a model already, but Dockerfile downloads none: its model download "
        "is commented out (Dockerfile:7); also at line 5"
    ]


@pytest.mark.parametrize(
    "name, readme, dockerfile",
    [
        # a live download next to the commented-out one
        (
            "live",
            HOLDS,
            VIDEO.replace("CMD", "RUN huggingface-cli download acme/clipgen-tiny --local-dir /w\nCMD"),
        ),
        # the model copied in from the build context
        ("copied", HOLDS, VIDEO.replace("CMD", "COPY weights/ /srv/weights/\nCMD")),
        # the entrypoint fetching it when the container starts, and a README saying so
        (
            "entrypoint",
            HOLDS,
            VIDEO.replace(
                'CMD ["bash"]',
                'CMD ["python3", "-c", "from huggingface_hub '
                "import snapshot_download; snapshot_download('acme/clipgen-small')\"]",
            ),
        ),
        (
            "at start",
            "The container downloads the model on first start; nothing is pre-downloaded at build "
            "time, the weights are mounted from the host.\n",
            VIDEO,
        ),
        # no claim that the image holds it: optional, to uncomment
        ("optional", "Optionally, uncomment the lines to pre-download the model into the image.\n", VIDEO),
        # a claim about something else
        ("other", "The container includes CUDA 12.6 and git.\n", VIDEO),
    ],
)
def test_models_the_image_may_get_otherwise_are_no_claim(
    tmp_path: Path, name: str, readme: str, dockerfile: str
) -> None:
    assert [f for f in found(tmp_path, readme, dockerfile) if "model" in f] == [], name


# A PPA the README names as where something comes from, added only in a commented-out line

PPA_SET_ASIDE = """\
FROM ubuntu:24.04
ARG PY=python3.12
RUN apt-get update && apt-get install -y --no-install-recommends software-properties-common \\
#    && add-apt-repository -y ppa:deadsnakes/ppa && apt-get update \\
    && apt-get install -y --no-install-recommends ${PY} ${PY}-venv ${PY}-dev \\
    && rm -rf /var/lib/apt/lists/*
RUN curl -sSf https://sh.rustup.rs | sh -s -- -y
RUN git clone https://example.org/kernels.git /opt/kernels && cd /opt/kernels && python tools/gen.py
"""


def ppa_finding(line: int, said: str, at: int = 4, dockerfile: str = "Dockerfile") -> str:
    return (
        f"{line}: README says `{said}` but {dockerfile}:{at} adds the deadsnakes PPA only in a comment "
        f"(`add-apt-repository -y ppa:deadsnakes/ppa`) and no live line uses it: what the image installs "
        f"comes from the distribution's own archive"
    )


@pytest.mark.parametrize(
    ("readme", "line", "said"),
    [
        # a list of what the image holds, each item with where it comes from
        (
            "# gpu-box\n\nAn image on Ubuntu 24.04 with\n- ROCm from AMD's apt repository\n"
            "- Python 3.12 (from deadsnakes/ppa)\n- PyTorch built from source\n",
            5,
            "from deadsnakes/ppa",
        ),
        # a "what gets installed" list naming the PPA by its owner
        (
            "## What the image holds\n\n- Python 3.12 (from the deadsnakes PPA)\n"
            "- Node.js 22 (from NodeSource)\n",
            3,
            "from the deadsnakes PPA",
        ),
        # a versions table with the source in the cell
        (
            "| Component | Version |\n|---|---|\n| Python interpreter | 3.12 (via ppa:deadsnakes/ppa) |\n",
            3,
            "via ppa:deadsnakes/ppa",
        ),
    ],
)
def test_a_ppa_named_as_a_source_that_is_added_only_in_a_comment(
    tmp_path: Path, readme: str, line: int, said: str
) -> None:
    assert ppa_finding(line, said) in found(tmp_path, readme, PPA_SET_ASIDE)


@pytest.mark.parametrize(
    "readme",
    [
        "- Python 3.12 (from deadsnakes PPA if needed)\n",  # a condition
        "- Python 3.12 (from deadsnakes PPA if not in the default archive)\n",
        "You can install another Python from the deadsnakes PPA.\n",  # a choice for the reader
        "Python used to come from deadsnakes/ppa; Ubuntu 24.04 ships 3.12.\n",  # the past
        "- Python 3.12 (from Ubuntu's own archive)\n",  # no PPA
        "```\nsudo add-apt-repository ppa:deadsnakes/ppa\n```\n",  # a command in a fence
    ],
)
def test_no_finding_for_a_ppa_the_readme_does_not_name_as_the_image_s_source(
    tmp_path: Path, readme: str
) -> None:
    assert not [f for f in found(tmp_path, readme, PPA_SET_ASIDE) if "PPA only in a comment" in f]


@pytest.mark.parametrize(
    "dockerfile",
    [
        # the PPA is also added by a live line
        PPA_SET_ASIDE + "RUN add-apt-repository -y ppa:deadsnakes/ppa && apt-get install -y python3.11\n",
        # only a note names it, no command set aside
        "FROM ubuntu:24.04\n# deadsnakes is not needed on 24.04: python3.12 is in the archive\n"
        "RUN apt-get update && apt-get install -y python3.12 python3.12-venv\n",
        # a note that names the PPA without adding it
        "FROM ubuntu:24.04\n# we dropped ppa:deadsnakes/ppa here\n"
        "RUN apt-get update && apt-get install -y python3.12\n",
        # a base image of the project's that may carry the PPA already
        "FROM ghcr.io/example/dev-u24:1.2\n#RUN add-apt-repository -y ppa:deadsnakes/ppa\n"
        "RUN apt-get update && apt-get install -y python3.12\n",
        # a shell script of the build context that is not in the checkout may add it
        "FROM ubuntu:24.04\nCOPY setup_python.sh /tmp/\n#RUN add-apt-repository -y ppa:deadsnakes/ppa\n"
        "RUN bash /tmp/setup_python.sh && apt-get install -y python3.12\n",
        # a sources list line for it, live
        "FROM ubuntu:24.04\n#RUN add-apt-repository -y ppa:deadsnakes/ppa\n"
        "RUN echo 'deb http://ppa.launchpad.net/deadsnakes/ppa/ubuntu noble main' \\\n"
        "    > /etc/apt/sources.list.d/py.list\n",
    ],
)
def test_no_finding_when_the_ppa_may_be_in_use(tmp_path: Path, dockerfile: str) -> None:
    readme = "- Python 3.12 (from deadsnakes/ppa)\n"
    assert not [f for f in found(tmp_path, readme, dockerfile) if "PPA only in a comment" in f]


def test_a_ppa_set_aside_in_a_commented_out_run(tmp_path: Path) -> None:
    dockerfile = (
        "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
        "#RUN apt-get update && add-apt-repository -y ppa:deadsnakes/ppa \\\n"
        "#    && apt-get install -y python3.11\n"
        "RUN apt-get update && apt-get install -y python3 python3-pip\n"
    )
    readme = "Image contents:\n\n* CUDA 12.4\n* Python 3.11, installed from the deadsnakes PPA\n"
    assert found(tmp_path, readme, dockerfile) == [
        "4: README says Python 3.11 but Dockerfile:4 says 3.10 (python3 of Ubuntu 22.04)",
        ppa_finding(4, "from the deadsnakes PPA", at=2),
    ]


def test_a_missing_apt_pin_or_key_hides_no_source_but_a_missing_sources_list_may(tmp_path: Path) -> None:
    readme = "- Python 3.12 (from deadsnakes/ppa)\n"
    # the checkout lacks the files the Dockerfile copies: a pin and a key set how apt picks and trusts
    # packages, they add no source (their copies are not in the tree `found` makes)
    for number, dest in enumerate(
        ["/etc/apt/preferences.d/rocm-pin-600", "/usr/share/keyrings/", "/etc/apt/apt.conf.d/99retries"]
    ):
        pinned = PPA_SET_ASIDE.replace("ARG PY=python3.12\n", f"ARG PY=python3.12\nCOPY 90-pin {dest}\n")
        assert ppa_finding(1, "from deadsnakes/ppa", at=5) in found(tmp_path / str(number), readme, pinned)
    # a sources list docgen has no copy of may add the PPA itself
    listed = PPA_SET_ASIDE.replace(
        "ARG PY=python3.12\n", "ARG PY=python3.12\nCOPY py /etc/apt/sources.list.d/py.list\n"
    )
    assert not [f for f in found(tmp_path / "s", readme, listed) if "PPA only in a comment" in f]
