"""`docgen.audit.shell_words`: a command of a command block whose program is a letter off `docker`,
`docker-compose` or `nvidia-docker` (two letters swapped in `git`, `pip`) cannot run, and a fetch over
GitHub's `git://` protocol fails (both `certain`); real programs near them (`dockerd`, `dockle`,
`docker-credential-…`, `gitk`, `zip`), placeholders, output lines of a prompted block and other hosts'
`git://` are not findings."""

from __future__ import annotations

import pytest

from docgen.audit import audit
from docgen.audit.shell_words import slip_of
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

MODEL = model_of(parse_dockerfile("FROM debian:12-slim\nRUN apt-get update\n", "Dockerfile"))


def found(readme: str) -> list[str]:
    diagnostics = audit(readme, "README.md", MODEL)
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in diagnostics
        if "cannot run" in d.message or "git://" in d.message
    ]


def test_a_misspelt_program() -> None:
    readme = """\
# Kiln

```shell
dokcer build -t kiln:2 .
sudo docker-compse up -d && gti pull
```
"""
    assert found(readme) == [
        "4: README runs dokcer build, but there is no program dokcer: the command cannot run (did you mean "
        "docker?) (certain)",
        "5: README runs docker-compse up, but there is no program docker-compse: the command cannot run "
        "(did you mean docker-compose?) (certain)",
        "5: README runs gti pull, but there is no program gti: the command cannot run (did you mean git?) "
        "(certain)",
    ]


@pytest.mark.parametrize(
    "word",
    ["dockerd", "dockle", "docker-credential-pass", "gitk", "zip", "ip", "pip3", "pipx", "gif", "podman"],
)
def test_real_programs_are_no_slips(word: str) -> None:
    assert slip_of(word) is None


@pytest.mark.parametrize(
    "text",
    [
        "```bash\ndockerd --debug\ndockle kiln:2\nzip -r out.zip out\n```\n",
        "```bash\n<dokcer> build .\n```\n",  # a placeholder
        "```console\n$ docker build -t kiln .\ndokcer build output line\n```\n",  # output of a prompted block
        "```bash\n# dokcer build is a typo people make\n```\n",  # a comment
        "```python\ndokcer build\n```\n",  # not a command block
        "```bash\ngit clone git://git.kernel.org/pub/scm/git/git.git\n```\n",  # another host serves git://
        "```bash\ngit clone https://github.com/acme/kiln.git\n```\n",
    ],
)
def test_shapes_that_stay_silent(text: str) -> None:
    assert found(text) == []


def test_a_clone_over_githubs_git_protocol() -> None:
    readme = """\
# Kiln

```bash
git clone git://github.com/acme/kiln.git && cd kiln
```

Or add it with `pip install git+git://github.com/acme/kiln.git`.
"""
    assert found(readme) == [
        "4: README fetches git://github.com/acme/kiln.git, but GitHub turned off the unauthenticated git:// "
        "protocol in March 2022: the command fails (use https://github.com/acme/kiln.git); also at line 7 "
        "(certain)",
    ]


def slipped(readme: str) -> list[str]:
    diagnostics = audit(readme, "README.md", MODEL)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in diagnostics if "case-sensitive" in d.message]


def test_a_variable_a_case_off_one_the_shell_sets() -> None:
    readme = """\
# Kiln

```bash
docker run --rm \\
    -v $pwd/glaze:/glaze \\
    -v ${Home}/.kiln:/root/.kiln kiln:2
```
"""
    assert slipped(readme) == [
        "5: README's command reads $pwd, which no shell sets (variables are case-sensitive; did you mean "
        "$PWD?): it expands to nothing (likely)",
        "6: README's command reads $Home, which no shell sets (variables are case-sensitive; did you mean "
        "$HOME?): it expands to nothing (likely)",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "```bash\nuser=kiln\ndocker run -u $user kiln:2\n```\n",  # the README sets it
        "```bash\nexport path=/srv/kiln\ncp out $path/\n```\n",
        "Set `pwd=/data` first.\n\n```bash\ndocker run -v $pwd:/data kiln:2\n```\n",
        "```bash\ndocker run -v $PWD:/data -v ${HOME}/x:/x -v $(pwd)/y:/y kiln:2\n```\n",  # right spellings
        "```powershell\ndocker run -v ${pwd}:/data kiln:2\n```\n",  # PowerShell's $pwd
        "```\nPS C:\\kiln> docker run -v $pwd:/data kiln:2\n```\n",  # a PowerShell prompt
        "```cmd\ndocker run -v %cd%:/data kiln:2\n```\n",
        "```makefile\nrun:\n\tdocker run -v $(pwd):/data kiln:2\n```\n",
        "```bash\ndocker run -v $kiln_dir:/data kiln:2\n```\n",  # a variable of the README's own
    ],
)
def test_variables_that_stay_silent(text: str) -> None:
    assert slipped(text) == []


def lone(readme: str) -> list[str]:
    return [f"{d.line}: {d.message}" for d in audit(readme, "README.md", MODEL) if "one operand" in d.message]


def test_a_copy_or_move_with_one_operand() -> None:
    readme = """\
# Street camera

```
git clone https://github.com/example/street_cam/

cp street_cam/
```

```bash
$ sudo mv -v weights.pt
```
"""
    assert lone(readme) == [
        "6: README runs cp street_cam/ with one operand: cp takes a source and a destination, so it fails "
        "(missing destination file operand) (did you mean cd street_cam/?)",
        "10: README runs mv weights.pt with one operand: mv takes a source and a destination, so it fails "
        "(missing destination file operand)",
    ]


def test_copies_that_have_their_operands() -> None:
    readme = """\
# Ledger

```bash
cp -r config/ /etc/ledger
cp a.yaml b.yaml conf/
cp -t conf/ a.yaml
cp --target-directory=conf a.yaml
mv -S .bak \\
  old.env .env
cp *.example
cp $SOURCES
cp "$(ls -t *.db | head -1)" backup/
cp {a,b}.yaml
cp <file>
cp SOURCE
ln -s /opt/ledger/bin/ledger
# cp config.yaml
```

```powershell
cp .env.example
```
"""
    assert lone(readme) == []


# --------------------------------------------------------------------------------------------------
# The cluster's, the interpreter's and the GPU's programs misspelt (an MPI launcher on Kubernetes, a
# training image run with python3)


def test_a_misspelt_cluster_interpreter_or_gpu_program() -> None:
    readme = """\
# Relay workers

* Launch the workers:
```bash
kubectl create -f workers.yaml
```
* Run the launcher:
```bash
kubect create -f launcher.yaml
```

```bash
pyhton3 train.py --epochs 3 && nvidia-sim -L
sudo hlem install relay ./charts/relay
```
"""
    assert found(readme) == [
        "9: README runs kubect create, but there is no program kubect: the command cannot run (did you mean "
        "kubectl?) (certain)",
        "13: README runs pyhton3 train.py, but there is no program pyhton3: the command cannot run (did you "
        "mean python3?) (certain)",
        "13: README runs nvidia-sim -L, but there is no program nvidia-sim: the command cannot run (did you "
        "mean nvidia-smi?) (certain)",
        "14: README runs hlem install, but there is no program hlem: the command cannot run (did you mean "
        "helm?) (certain)",
    ]


@pytest.mark.parametrize(
    "word",
    ["kubectx", "python2", "python3", "python3m", "ipython", "ipython3", "cython", "jython", "pythonw"]
    + ["bpython", "help", "make", "curl", "wget", "pytorch", "condor", "python4"],
)
def test_real_programs_near_the_new_ones_are_no_slips(word: str) -> None:
    assert slip_of(word) is None


@pytest.mark.parametrize(
    "text",
    [
        # the README makes the word a command of its own: an alias, a function, a link
        "```bash\nalias kubect=kubectl\nkubect get pods\n```\n",
        '```bash\nkubect() { kubectl --context gpu "$@"; }\nkubect get pods\n```\n',
        "```bash\nln -s $(which kubectl) ~/bin/kubect\nkubect get pods\n```\n",
        # another interpreter or version, a context switcher
        "```bash\npython2 legacy.py\npython3.11 train.py\nkubectx gpu-cluster\n```\n",
        # a word with no arguments: a name in a list, not a run
        "```text\npyhton3\n```\n",
    ],
)
def test_new_program_shapes_that_stay_silent(text: str) -> None:
    assert found(text) == []


def test_a_commandline_block_is_read_as_commands() -> None:
    # JetBrains IDEs label a pasted terminal command ```commandline
    readme = "# Sim\n\n```commandline\nsudo dokcer build -t sim:1 .\n```\n"
    assert found(readme) == [
        "4: README runs dokcer build, but there is no program dokcer: the command cannot run (did you mean "
        "docker?) (certain)"
    ]
