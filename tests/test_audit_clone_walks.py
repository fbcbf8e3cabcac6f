"""`docgen audit`: a folder a README enters, or a script it runs, in its clone of this very repository
that the repository does not hold while it holds a path one slip away (docgen/audit/clone_walks.py):
`git clone …/ringlab.git`, `cd ringla/bench/multi-nodes`, `python allreduce-bnech.py`.

The shapes are modelled on two kinds of real README: a "run training" block typed in a container
after `docker exec -it … bash`, each command after a root prompt `# ` (clone, cd into the test folder,
run the script), and a quick start in a `$ `-prompted block (clone, cd into an example, run it).
"""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

FILES = {
    "container/Dockerfile": "FROM ubuntu:22.04\nRUN apt-get update && apt-get install -y python3\n",
    "bench/multi-node/allreduce-bench.py": "print('bench')\n",
    "examples/finetuning/train_lora.py": "print('train')\n",
    "benchmark/run.py": "print('run')\n",
    "tests/test_one.py": "",
}
ROOT_PROMPT = (
    "docker exec -it <container> /bin/bash\n\n# conda activate ring\n\n"
    "# git clone https://github.com/kessa/ringlab.git\n# cd ringla/bench/multi-nodes\n"
    "... edit the host list ...\n# python allreduce-bnech.py --nodes 2 --gpus 4\n"
)


def _audited(tmp_path: Path, block: str, lang: str = "", remote: str | None = None) -> list[str]:
    make_tree(tmp_path, FILES)
    (tmp_path / ".git").mkdir(exist_ok=True)
    if remote is not None:
        (tmp_path / ".git" / "config").write_text(f'[remote "origin"]\n\turl = {remote}\n')
    readme = f"# Ring test image\n\n## Run\n\n```{lang}\n{block}\n```\n"
    directory = tmp_path / "container"
    models = [build_model(directory / "Dockerfile", "Dockerfile")]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, directory, tmp_path)
        if "clone of this repository" in d.message
    ]


def test_root_prompt_block_enters_and_runs_slips(tmp_path: Path) -> None:
    assert _audited(tmp_path, ROOT_PROMPT) == [
        "11: README enters ringla/bench/multi-nodes, which its clone of this repository does not hold "
        "(did you mean ringlab/bench/multi-node?) (likely)",
        "13: README runs allreduce-bnech.py in ringlab/bench/multi-node, its clone of this repository, "
        "which holds no such file (did you mean allreduce-bench.py?) (likely)",
    ]


def test_dollar_prompt_quick_start_runs_a_slipped_script(tmp_path: Path) -> None:
    block = (
        "$ git clone https://github.com/kessa/ringlab.git\n$ cd ringlab/examples/finetuning\n"
        "$ python trian_lora.py --epochs 1"
    )
    assert _audited(tmp_path, block, "bash") == [
        "8: README runs trian_lora.py in ringlab/examples/finetuning, its clone of this repository, "
        "which holds no such file (did you mean train_lora.py?) (likely)"
    ]


def test_true_paths_are_silent(tmp_path: Path) -> None:
    block = ROOT_PROMPT.replace("ringla/bench/multi-nodes", "ringlab/bench/multi-node").replace(
        "bnech", "bench"
    )
    assert _audited(tmp_path, block) == []


def test_hash_lines_of_a_plain_block_are_comments(tmp_path: Path) -> None:
    block = (
        "git clone https://github.com/kessa/ringlab.git\ncd ringlab/bench/multi-node\n"
        "# cd ringla/bench/multi-nodes   (old layout)\npython allreduce-bench.py"
    )
    assert _audited(tmp_path, block, "bash") == []


def test_prose_comment_in_a_root_prompt_block_is_no_command(tmp_path: Path) -> None:
    block = ROOT_PROMPT.replace("# conda activate ring", "# install the deps first")
    assert [f.split(":")[0] for f in _audited(tmp_path, block)] == ["11", "13"]
    # a block whose `# ` lines are mostly prose keeps them all comments
    prose = "# install the deps first\n# then edit the host list\n# cd ringla/bench/multi-nodes\nmake"
    assert _audited(tmp_path, "# git clone https://github.com/kessa/ringlab.git\n" + prose) == []


def test_file_made_before_is_silent(tmp_path: Path) -> None:
    block = ROOT_PROMPT.replace("... edit the host list ...", "# wget https://example.org/allreduce-bnech.py")
    assert [f.split(":")[0] for f in _audited(tmp_path, block)] == ["11"]


def test_short_names_and_image_paths_are_silent(tmp_path: Path) -> None:
    block = (
        "# git clone https://github.com/kessa/ringlab.git\n# cd ringlab/test\n# python test_one.py\n"
        "# cd /opt/ringla/bench/multi-nodes\n# python allreduce-bnech.py"
    )
    assert _audited(tmp_path, block) == []


def test_clone_of_another_repository_is_silent(tmp_path: Path) -> None:
    block = "git clone https://github.com/vend/inferkit.git\ncd inferkit/benchmarks\npython run.py"
    assert _audited(tmp_path, block, "bash", remote="git@github.com:kessa/ringlab.git") == []
    # without a remote, a one-name path is not enough to take the clone for this repository
    assert _audited(tmp_path, block, "bash") == []


def test_other_branch_is_silent(tmp_path: Path) -> None:
    block = ROOT_PROMPT.replace("# git clone", "# git clone -b v2")
    assert _audited(tmp_path, block) == []
