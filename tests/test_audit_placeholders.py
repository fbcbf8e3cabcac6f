"""`docgen audit`: build commands whose folder is a version placeholder (`cd gpu/x.y.z && docker build .`)
read against the release folders there (docgen/audit/placeholders.py)."""

from __future__ import annotations

from pathlib import Path

from helpers import findings, make_tree

from docgen.audit.placeholders import version_key

DOCKERFILE = {"Dockerfile": "FROM ubuntu:22.04\nRUN true\n"}
TREE = {
    "cpu/1.4.0/Dockerfile": "FROM ubuntu:20.04\n",
    "cpu/1.10.0/Dockerfile": "FROM ubuntu:22.04\n",
    "cpu/devel/Dockerfile": "FROM ubuntu:22.04\n",
    "gpu/1.4.0/Dockerfile": "FROM nvidia/cuda:11.8.0-runtime-ubuntu20.04\n",
    "gpu/1.10.0/cuda11/Dockerfile": "FROM nvidia/cuda:11.8.0-runtime-ubuntu22.04\n",
    "gpu/1.10.0/cuda12/Dockerfile": "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n",
    "gpu/devel/Dockerfile": "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n",
}


def test_a_version_folder_whose_newest_release_keeps_its_dockerfile_deeper(tmp_path: Path) -> None:
    make_tree(tmp_path, TREE)
    readme = (
        "| Platform | Version | Command |\n"
        "|---|---|---|\n"
        "| CPU | `x.y.z` | cd cpu/x.y.z && docker build . -t app-cpu:x.y.z |\n"  # true: 1.10.0 has one
        "|  | `devel` | cd cpu/devel && docker build . -t app-cpu:devel |\n"
        "| GPU | `x.y.z` | cd gpu/x.y.z && docker build . -t app-gpu:x.y.z |\n"  # planted
        "|  | `devel` | cd gpu/devel && docker build . -t app-gpu:devel |\n"
    )
    assert findings(readme, DOCKERFILE, tmp_path) == [
        "5: README builds gpu/x.y.z/Dockerfile, but the newest release folder gpu/1.10.0/ has no "
        "Dockerfile there (its Dockerfiles: gpu/1.10.0/cuda11/Dockerfile, gpu/1.10.0/cuda12/Dockerfile); "
        "of the 2 release folders only 1.4.0 holds one there"
    ]


def test_a_file_flag_with_a_version_placeholder(tmp_path: Path) -> None:
    make_tree(tmp_path, TREE)
    readme = (
        "```bash\n"
        "docker build -f gpu/<version>/cuda12/Dockerfile -t app:gpu .\n"  # true
        "cd gpu\n"
        "docker build -f ${VERSION}/Dockerfile -t app:gpu .\n"  # planted, after the cd
        "```\n"
    )
    assert [f.split(",")[0] for f in findings(readme, DOCKERFILE, tmp_path)] == [
        "4: README builds gpu/${VERSION}/Dockerfile"
    ]


def test_a_pushd_moves_the_build_as_a_cd_does(tmp_path: Path) -> None:
    make_tree(tmp_path, TREE)
    readme = "```bash\npushd gpu\ndocker build -f ${VERSION}/Dockerfile -t app:gpu .\n```\n"
    assert [f.split(",")[0] for f in findings(readme, DOCKERFILE, tmp_path)] == [
        "3: README builds gpu/${VERSION}/Dockerfile"
    ]


def test_what_is_no_claim(tmp_path: Path) -> None:
    make_tree(
        tmp_path,
        {
            **TREE,
            "gpu/2.0.0/README.md": "",  # the newest release folder holds no Dockerfile at all
            "arch/x86/Dockerfile": "FROM ubuntu:22.04\n",
        },
    )
    readme = (
        "```bash\n"
        "cd gpu/x.y.z && docker build .\n"  # the newest is a partial copy: nothing says where it went
        "cd ../../cpu/x.y.z && docker build .\n"  # the newest holds one, an older may not
        "cd ../../arch/{arch} && docker build .\n"  # not a version
        "docker build -f other/x.y.z/Dockerfile .\n"  # no release folder there
        "```\n"
    )
    assert findings(readme, DOCKERFILE, tmp_path) == []


def test_release_folders_in_release_order() -> None:
    names = ["2.0.0", "1.10.0", "2.0.0rc1", "1.9.3", "v0.7.0-beta", "2.0.0"]
    assert sorted(dict.fromkeys(names), key=version_key) == [
        "v0.7.0-beta",
        "1.9.3",
        "1.10.0",
        "2.0.0rc1",
        "2.0.0",
    ]
