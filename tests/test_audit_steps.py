"""`docgen audit`: what the steps of a README's commands name that is not there: the folder a `cd`
enters, the file a copy copies, a path in a clone of this very repository (docgen/audit/steps.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM python:3.12-slim\nCOPY . /app\n"


def found(root: Path, files: dict[str, str], readme: str = "README.md") -> list[tuple[int, str, str]]:
    """(line, message, confidence) of `audit` of root/`readme` against root/Dockerfile, with its folder
    and `root` as the project."""
    make_tree(root, {"Dockerfile": APP, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / readme).read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, readme, model, {}, (root / readme).parent, root)
    ]


# --------------------------------------------------------------------------------------------------
# A `cd` into a folder that does not exist

GROMACS = {"gromacs5.1/Dockerfile": APP, "gromacs-5.1-cuda/Dockerfile": APP}


def test_a_cd_into_a_folder_a_slip_away_from_one_that_exists(tmp_path: Path) -> None:
    readme = "## Build\n\n```sh\ncd gromacs-5.1\ndocker build . -t gromacs:5.1\n```\n"
    assert found(tmp_path, {**GROMACS, "README.md": readme}) == [
        (4, "README cds into gromacs-5.1, which does not exist (did you mean gromacs5.1?)", "certain")
    ]


def test_a_cd_a_slip_away_with_nothing_run_after_it_is_likely(tmp_path: Path) -> None:
    readme = "```sh\ncd gromacs-5.1\nls\n```\n"
    assert found(tmp_path, {**GROMACS, "README.md": readme}) == [
        (2, "README cds into gromacs-5.1, which does not exist (did you mean gromacs5.1?)", "likely")
    ]


def test_a_cd_in_other_letter_case_with_nothing_run_after_it_is_certain(tmp_path: Path) -> None:
    # case alone: the one folder meant, and the cd fails on Linux whatever follows it
    readme = "```sh\ncd Gromacs5.1\nls\n```\n"
    assert found(tmp_path, {**GROMACS, "README.md": readme}) == [
        (2, "README cds into Gromacs5.1, which does not exist (did you mean gromacs5.1?)", "certain")
    ]


@pytest.mark.parametrize(
    "commands",
    [
        "cd gromacs5.1\ndocker build . -t g",  # the folder is there: the true statement
        "cd gromacs-5.1-cuda && docker build . -t g",
        "mkdir -p gromacs-5.1 && cd gromacs-5.1 && docker build . -t g",  # made first
        "git clone https://example.com/gromacs-5.1.git\ncd gromacs-5.1\ndocker build . -t g",  # a checkout
        "tar xf gromacs.tgz\ncd gromacs-5.1\ndocker build . -t g",  # unpacked
        "cd $GROMACS\ndocker build . -t g",  # a variable
        "cd ~/gromacs-5.1\ndocker build . -t g",
        "cd <gromacs-folder>\ndocker build . -t g",  # a placeholder
        "cd /opt/gromacs-5.1\ndocker build . -t g",  # absolute
        "docker run -it gromacs bash\ncd gromacs-5.1\nmake",  # in the container
        "cd build\ncmake ..",  # a folder a build makes
        "FROM ubuntu:22.04\nRUN mkdir /src && cd gromacs-5.1 && make",  # a Dockerfile's lines
    ],
)
def test_a_cd_that_may_well_work(tmp_path: Path, commands: str) -> None:
    assert found(tmp_path, {**GROMACS, "README.md": f"```bash\n{commands}\n```\n"}) == []


def test_a_cd_leaving_the_files_its_next_commands_use_behind(tmp_path: Path) -> None:
    files = {"scripts/embed.py": "", "src/app.py": ""}
    readme = (
        "```bash\n# from the service\ncd services/face_api\nsource .venv/bin/activate\n"
        "uv run scripts/embed.py\n```\n"
    )
    assert found(tmp_path, {**files, "README.md": readme}) == [
        (
            3,
            "README cds into services/face_api, which does not exist; scripts/embed.py, which the commands "
            "after it use, is where the block starts",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    ("readme", "extra"),
    [
        # a file of the folder that is not here: the checkout may lack the folder
        ("```bash\ncd services/face_api\nuv run scripts/other.py\n```\n", {}),
        # the folder is there
        (
            "```bash\ncd services/face_api\nuv run scripts/embed.py\n```\n",
            {"services/face_api/scripts/embed.py": ""},
        ),
        # one folder: the repository's own, cloned as the prose tells
        ("Clone the repository, then:\n\n```bash\ncd face-api\npython scripts/embed.py\n```\n", {}),
        ("```bash\ncd myapp\npython scripts/embed.py\n```\n", {}),
        # the repository's own name, a slip away from a folder of it
        ("See https://github.com/acme/script.\n\n```bash\ncd script\npython scripts/embed.py\n```\n", {}),
        ("See https://github.com/acme/face-api.\n\n```bash\ncd face-api\npython scripts/embed.py\n```\n", {}),
    ],
)
def test_a_missing_folder_without_evidence_is_no_finding(
    tmp_path: Path, readme: str, extra: dict[str, str]
) -> None:
    assert found(tmp_path, {"scripts/embed.py": "", **extra, "README.md": readme}) == []


HOME_CD = "```bash\n# get into the checkout\ncd work/src/mine/{name}\nchmod +x *.sh\n./start.sh\n```\n"


@pytest.mark.parametrize(
    ("folder", "readme"),
    [
        ("sky-lab", HOME_CD),  # the checkout folder's name
        ("checkout", "# sky-lab\n\n" + HOME_CD),  # the README's title
        ("checkout", "From https://github.com/acme/sky-lab.git:\n\n" + HOME_CD),  # a clone address
    ],
)
def test_a_cd_into_the_readers_own_checkout_is_no_finding(tmp_path: Path, folder: str, readme: str) -> None:
    files = {"start.sh": "", "README.md": readme.format(name="sky-lab")}
    assert found(tmp_path / folder, files) == []


def test_a_cd_into_a_path_ending_in_another_name_is_still_a_finding(tmp_path: Path) -> None:
    files = {"start.sh": "", "README.md": HOME_CD.format(name="sky-lab-tools")}
    assert found(tmp_path / "sky-lab", files) == [
        (
            3,
            "README cds into work/src/mine/sky-lab-tools, which does not exist; start.sh, which the commands "
            "after it use, is where the block starts",
            "certain",
        )
    ]


# --------------------------------------------------------------------------------------------------
# The source of a copy that does not exist


def test_a_copy_of_a_file_that_is_not_there_next_to_its_twin(tmp_path: Path) -> None:
    readme = "1. Make a copy: `cp .env.sample .env` (Linux) or `copy example.env .env` (Windows).\n"
    assert found(tmp_path, {".env.sample": "", "README.md": readme}) == [
        (1, "README copies example.env, which does not exist (did you mean .env.sample?)", "certain")
    ]


@pytest.mark.parametrize(
    "commands",
    [
        "cp config_example.yaml config.yaml",
        "Copy-Item -Path config_example.yaml -Destination config.yaml",
        "cd deploy\ncp ../README.md . && cd ..\ncp config_example.yaml config.yaml",
    ],
)
def test_a_copy_a_slip_away_from_a_file(tmp_path: Path, commands: str) -> None:
    files = {"config.example.yaml": "", "deploy/x": "", "README.md": f"```bash\n{commands}\n```\n"}
    assert [message for _, message, _ in found(tmp_path, files)] == [
        "README copies config_example.yaml, which does not exist (did you mean config.example.yaml?)"
    ]


@pytest.mark.parametrize(
    "readme",
    [
        "Run `cp .env.sample .env`.\n",  # there: the true statement
        "Run `cp .env.example .env`.\n",  # nothing near it: a checkout that lacks it
        "```bash\nwget https://example.com/example.env\ncp example.env .env\n```\n",  # fetched first
        # a variable, a glob, an absolute path
        "```bash\ncp $ENV_FILE .env\ncp *.sample /tmp/\ncp /etc/app.env .env\n```\n",
        "```bash\ngit clone https://example.com/app.git\ncp app/example.env .env\n```\n",  # in a checkout
        "```\nFROM python:3.12\nRUN cp .env.sample .env && cp example.env .env\n```\n",  # in the image
    ],
)
def test_copies_that_are_no_finding(tmp_path: Path, readme: str) -> None:
    assert found(tmp_path, {".env.sample": "", "README.md": readme}) == []


# --------------------------------------------------------------------------------------------------
# A path in a clone of this very repository

CLONE = "```bash\ngit clone https://github.com/acme/{name}.git\npython3 {name}/build-docker.py --tag x\n```\n"


def test_a_path_in_a_clone_of_this_repository(tmp_path: Path) -> None:
    root = tmp_path / "cuda-runtime"
    readme = CLONE.format(name="cuda-runtime")
    assert found(root, {"build_docker.py": "", "README.md": readme}) == [
        (
            3,
            "README names cuda-runtime/build-docker.py, a path in this repository's clone, which does not "
            "exist (did you mean cuda-runtime/build_docker.py?)",
            "certain",
        )
    ]
    # the true statement
    (root / "README.md").write_text(readme.replace("build-docker", "build_docker"), encoding="utf-8")
    assert found(root, {}) == []


def test_this_repository_is_told_by_its_remote(tmp_path: Path) -> None:
    root = tmp_path / "checkout"
    files = {".git/config": '[remote "origin"]\n\turl = git@github.com:acme/cuda-runtime.git\n'}
    readme = CLONE.format(name="cuda-runtime")
    result = found(root, {**files, "build_docker.py": "", "README.md": readme})
    assert [line for line, _, _ in result] == [3]
    # another repository's clone: its files are not this folder's
    (root / "README.md").write_text(CLONE.format(name="other-tool"), encoding="utf-8")
    assert found(root, {}) == []


# modelled on a Jetson project README whose clone's later blocks run its scripts, in a folder with no .git
JETSON = """\
# Smoker detection

Clone this repository:
```
git clone https://github.com/team/jetson_app/
```

Start Docker:
```
chmod 744 jetson_app/run_docker.sh
jetson_app/runproject.sh
```
"""


def test_a_clone_told_by_the_files_its_steps_name(tmp_path: Path) -> None:
    root = tmp_path / "archive"
    assert found(root, {"run_docker.sh": "", "README.md": JETSON}) == [
        (
            11,
            "README runs jetson_app/runproject.sh, a script in this repository's clone, which does not "
            "exist (no runproject.sh at the repository's root)",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    "readme",
    [
        # the script is there
        JETSON.replace("runproject.sh", "run_docker.sh"),
        # another repository: nothing of it is here but a file every repository has
        "```\ngit clone https://github.com/up/yolov5\npip install -r yolov5/requirements.txt\n"
        "python3 yolov5/detect.py\n```\n",
        # another repository: more of its files are missing than found
        "```\ngit clone https://github.com/up/tools\ntools/setup.sh\ntools/fetch.sh\n"
        "cp tools/run_docker.sh .\n```\n",
    ],
)
def test_clones_not_told_as_this_repository(tmp_path: Path, readme: str) -> None:
    root = tmp_path / "archive"
    assert found(root, {"run_docker.sh": "", "requirements.txt": "", "README.md": readme}) == []


# modelled on a PyTorch runtime image README whose Docker Hub badge names the image after the repository
BADGED = (
    "[![v](https://img.shields.io/docker/v/hubuser/cuda-runtime)](https://hub.docker.com/r/hubuser/cuda-runtime)"
    "\n\n# Runtime\n\n" + CLONE.format(name="cuda-runtime")
)


def test_a_clone_told_by_the_image_badge(tmp_path: Path) -> None:
    root = tmp_path / "download"
    result = found(root, {"build_docker.py": "", "README.md": BADGED})
    assert [(line, confidence) for line, _, confidence in result] == [(7, "certain")]
    assert "did you mean cuda-runtime/build_docker.py?" in result[0][1]
    # a badge of another image (the upstream one): the clone is not told as this repository
    other = BADGED.replace("hubuser/cuda-runtime", "hubuser/pytorch")
    (root / "README.md").write_text(other, encoding="utf-8")
    assert found(root, {}) == []


def test_a_clone_told_by_a_github_badge(tmp_path: Path) -> None:
    root = tmp_path / "download"
    badge = "![ci](https://github.com/acme/cuda-runtime/actions/workflows/ci.yml/badge.svg)\n\n"
    result = found(root, {"build_docker.py": "", "README.md": badge + CLONE.format(name="cuda-runtime")})
    assert [line for line, _, _ in result] == [5]
    fork = badge.replace("acme/", "someone/")
    (root / "README.md").write_text(fork + CLONE.format(name="cuda-runtime"), encoding="utf-8")
    assert found(root, {}) == []


def test_the_prose_name_of_a_file_in_a_clone_is_checked(tmp_path: Path) -> None:
    readme = "Build it with the `build-docker.py` script.\n\n" + CLONE.format(name="other-tool")
    assert found(tmp_path, {"build_docker.py": "", "README.md": readme}) == [
        (1, "README names build-docker.py, which does not exist (did you mean build_docker.py?)", "certain")
    ]


# --------------------------------------------------------------------------------------------------
# After a clone of this very repository, the reader is at its root: reading goes on

CLONED = {"deploy.sh": "#!/bin/sh\n", "web_ui/Dockerfile": APP, "web_ui/client/Dockerfile": APP}
CLONE_HERE = (
    "```\ngit clone https://example.com/acme/shop-stack/\ncd $PWD/shop-stack\nchmod +x deploy.sh\n```\n"
)


def test_a_cd_after_a_clone_of_this_repository_is_read(tmp_path: Path) -> None:
    readme = CLONE_HERE + "\n```\ncd web-ui\ngcloud builds submit .\n```\n\n```\ncd web-ui/client\nls\n```\n"
    assert found(tmp_path, {**CLONED, "README.md": readme}) == [
        (8, "README cds into web-ui, which does not exist (did you mean web_ui?)", "likely"),
        (13, "README cds into web-ui/client, which does not exist (did you mean web_ui/client?)", "likely"),
    ]


def test_a_folder_differing_only_in_case_is_missing(tmp_path: Path) -> None:
    readme = CLONE_HERE + "\n```\ncd WEB_UI/client\ndocker build -t c .\n```\n"
    assert found(tmp_path, {**CLONED, "README.md": readme}) == [
        (8, "README cds into WEB_UI/client, which does not exist (did you mean web_ui/client?)", "certain")
    ]


@pytest.mark.parametrize(
    "readme",
    [
        CLONE_HERE + "\n```\ncd web_ui\ngcloud builds submit .\n```\n",  # the folder is there
        # another repository's clone: its next commands use files this checkout does not hold
        "```\ngit clone https://example.com/acme/tools/\ncd tools\nchmod +x setup.sh\ncd web-ui\n```\n",
        "```\ngit clone https://example.com/acme/tools/\ncd elsewhere\nchmod +x deploy.sh\ncd web-ui\n```\n",
    ],
)
def test_cds_after_a_clone_that_are_no_finding(tmp_path: Path, readme: str) -> None:
    assert found(tmp_path, {**CLONED, "README.md": readme}) == []


def test_a_cloud_storage_copy_of_a_file_a_slip_away(tmp_path: Path) -> None:
    files = {"models/llamav2/config.pbtxt": "x\n"}
    wrong = "```\ngsutil cp -r models/llama2 gs://bucket/models/llama2\n```\n"
    right = "```\ngsutil -m cp -r models/llamav2 gs://bucket/models/llamav2\n```\n"
    assert found(tmp_path, {**files, "README.md": wrong}) == [
        (2, "README copies models/llama2, which does not exist (did you mean models/llamav2?)", "certain")
    ]
    assert found(tmp_path / "b", {**files, "README.md": right}) == []


def test_many_clones_each_ending_its_block_are_followed_in_one_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # each clone that ended its block read every block below it, for each rule that asks: n² blocks
    from docgen.audit import steps

    read = [0]
    block_steps = steps.block_steps

    def counted(*args: object) -> list[str]:
        read[0] += 1
        return block_steps(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(steps, "block_steps", counted)
    n = 300
    readme = "# App\n\n" + "".join(
        f"```\ngit clone https://github.com/acme/app{i}\n```\n\n```\ncd app{i}\n./build.sh\n```\n\n"
        for i in range(n)
    )
    make_tree(tmp_path, {"Dockerfile": "FROM alpine:3.20\n", "build.sh": "#!/bin/sh\ndocker build .\n"})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    assert [d.message for d in audit(readme, "README.md", model, {}, tmp_path) if "clone" in d.message] == []
    assert read[0] <= 20 * n


_TUNER_DOCKERFILE = (
    "FROM python:3.11-slim\nWORKDIR /app\nCOPY requirements.txt .\nRUN pip install -r requirements.txt\n"
)
_TUNER_COMPOSE = "services:\n  tuner:\n    build: .\n    image: tuner:universal\n"


def _clone_build(tmp_path: Path, after: str) -> list[str]:
    make_tree(tmp_path, {"docker/Dockerfile": _TUNER_DOCKERFILE, "docker-compose.yml": _TUNER_COMPOSE})
    readme = (
        "# Tuner in Docker\n\n## Build from source\n\n```bash\n"
        "git clone https://github.com/example/tuner.git\ncd tuner\n"
        f"docker build -t tuner:local .\n{after}```\n"
    )
    model = build_model(tmp_path / "docker" / "Dockerfile", "docker/Dockerfile")
    found = audit(readme, "docker/README.md", [model], {}, tmp_path / "docker")
    return [f"{d.line}: {d.message}" for d in found if "does not hold" in d.message]


def test_a_clone_whose_compose_file_the_readmes_folder_lacks_is_not_that_folder(tmp_path: Path) -> None:
    # a README in docker/ of a repository whose compose file (and Dockerfile) sit at its root: the
    # clone's `docker build .` reads the root's Dockerfile, not docker/Dockerfile beside the README
    assert _clone_build(tmp_path, "docker-compose up -d\n") == []


def test_a_clone_built_as_the_readmes_folder_still_reads_its_dockerfile(tmp_path: Path) -> None:
    # planted: no compose command says otherwise, so the clone is the README's folder, which lacks
    # requirements.txt; with `-f` the compose file is named, and says nothing of the clone's root
    missing = "does not hold requirements.txt (line 3) that it copies"
    assert any(missing in f for f in _clone_build(tmp_path, ""))
    assert any(missing in f for f in _clone_build(tmp_path, "docker compose -f ../docker-compose.yml up\n"))
