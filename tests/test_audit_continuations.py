"""`docgen.audit.continuations`: a command of a shell block continued with `\\` into a comment line ends
there (`certain`); a comment after a finished command, a heredoc's body, a Dockerfile block, a PowerShell
block and a `#` inside a quoted string that a continued line opened are not findings."""

from __future__ import annotations

import pytest

from docgen.audit import audit
from docgen.audit.continuations import broken_continuations, shell_commands
from docgen.dockerfile import parse_dockerfile
from docgen.markdown import read_document
from docgen.pipeline import model_of

MODEL = model_of(parse_dockerfile('FROM debian:12-slim\nENTRYPOINT ["/usr/bin/kiln"]\n', "Dockerfile"))


def found(readme: str) -> list[str]:
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", MODEL)
        if "comment line" in d.message
    ]


def test_a_run_continued_into_a_comment() -> None:
    readme = """\
# Kiln

```
sudo docker run --rm -it --gpus all \\
    -e KILN_MODE=fast \\
    --volume $PWD:/data \\
    # on the GPU
    kiln --device 0 --input in.raw out.raw
```
"""
    assert found(readme) == [
        "7: README continues a command with `\\` into the comment line `# on the GPU`: the shell ends the "
        "command there, so `kiln --device 0 --input in.raw out.raw` after it is never passed to it (the "
        "command cannot run as written) (certain)"
    ]


@pytest.mark.parametrize(
    "lang", ["bash", "sh", "shell", "zsh", "console", "shell-session", "terminal", "none", "", "Bash"]
)
def test_every_shell_language(lang: str) -> None:
    readme = f"```{lang}\ndocker run -it \\\n  # -e DEBUG=1 \\\n  kiln:2 serve\n```\n"
    assert [f.split(":", 1)[0] for f in found(readme)] == ["3"]


@pytest.mark.parametrize("lang", ["yaml", "python", "text", "makefile"])
def test_no_shell_language(lang: str) -> None:
    readme = f"```{lang}\ndocker run -it \\\n  # -e DEBUG=1 \\\n  kiln:2 serve\n```\n"
    assert found(readme) == []


def test_an_option_cut_off_at_the_first_depth() -> None:
    readme = "```bash\ndocker run -it \\\n# the data\n-v /data:/data kiln:2\n```\n"
    assert [f.split(":", 1)[0] for f in found(readme)] == ["3"]


@pytest.mark.parametrize(
    "block",
    [
        # a comment after a command that is finished
        "```bash\ndocker run -it kiln:2\n# on the GPU\ndocker run --gpus all kiln:2\n```\n",
        # a stray `\\` on the last line: the comment and a blank line after it lose nothing
        "```bash\ndocker run -it kiln:2 \\\n# next, the GPU\n\ndocker run --gpus all kiln:2\n```\n",
        "```bash\ndocker run -it kiln:2 \\\n# the end\n```\n",
        # a stray `\\` on a finished command, the next command at its depth
        "```bash\ndocker build -t kiln:2 . \\\n# then run it\ndocker run kiln:2\n```\n",
        # a `\\` inside a heredoc's body
        "```bash\ncat > run.sh <<'EOF'\nkiln --fast \\\n# tuned\n  --out x\nEOF\ndocker build .\n```\n",
        "```bash\ncat <<-EOF > run.sh\n\tkiln \\\n\t# note\n\t--out x\n\tEOF\n```\n",
        # a Dockerfile: BuildKit drops comment lines inside a continued RUN
        "```dockerfile\nRUN apt-get update \\\n    # the compiler\n    && apt-get install -y gcc\n```\n",
        "```\n# syntax=docker/dockerfile:1\nRUN apt-get update \\\n  # gcc\n"
        "  && apt-get install -y gcc\n```\n",
        "```\nFROM debian:12\nRUN make \\\n  # all of it\n  && make install\n```\n",
        # PowerShell continues with a backtick
        "```powershell\ndocker run -it `\n  # gpu\n  kiln:2\n```\n",
        "```\ndocker run -it `\n  -v C:\\data\\:/data `\n  # gpu\n  kiln:2\n```\n",
        # a `#` inside a string a continued line opened
        '```bash\ndocker run kiln:2 sh -c "apt-get update && \\\n# then\napt-get install -y x"\n```\n',
        "```bash\ndocker run kiln:2 bash -c 'make && \\\n# then\nmake install'\n```\n",
        # after `&&`, a pipe or `do` the shell reads on past the comment line
        "```bash\nmake && \\\n  # then\n  make install\n```\n",
        "```bash\ncat list.txt | \\\n  # only kilns\n  grep kiln\n```\n",
        "```bash\nfor f in *.raw; do \\\n  # each\n  kiln $f\ndone\n```\n",
        # a `\\` inside a comment joins nothing
        "```bash\n# build it \\\n# then run it\ndocker build -t kiln .\n```\n",
        # a language that is no shell
        "```python\nx = 1 + \\\n    # two\n    2\n```\n",
    ],
)
def test_traps(block: str) -> None:
    assert found("# Kiln\n\n" + block) == []


def test_odd_bytes_and_a_line_of_a_megabyte() -> None:
    readme = "# Kiln\n\n```\ndocker run -it \\\n  # -e DEBUG=1 \\\n  kiln:2 serve\n```\n"
    assert len(found(readme.replace("\n", "\r\n"))) == 1  # CRLF line ends
    assert len(found(readme.replace("serve", "serve\0"))) == 1

    def told(text: str) -> int:  # the rule alone: the whole audit of a megabyte takes long
        return len(list(broken_continuations(read_document(text, "README.md"), "README.md")))

    wide = (
        "```\ndocker run " + "-e 'A=\\\\ # b' " * 70_000 + "\\\n  # note\n  kiln\n```\n\n" + "x" * 1_000_000
    )
    assert told(wide) == 1
    assert told("```\n" + "\\\n" * 20_000 + "#\n" * 20_000 + "```\n") == 0


def missing(readme: str) -> list[str]:
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", MODEL)
        if "on the next line is not passed to it" in d.message
    ]


def test_an_image_cut_off_a_run_by_a_missing_continuation() -> None:
    readme = """\
# Kiln

```bash
docker run --rm --gpus all \\
    -v $PWD/data:/data \\
    -p 7000:7000 \\
    --shm-size 8g
ghcr.io/acme/kiln:0.4
```
"""
    assert missing(readme) == [
        "8: README's docker run (line 4) ends at line 7 without a `\\`, so the image ghcr.io/acme/kiln:0.4 "
        "on the next line is not passed to it: the run ends before it and the shell runs "
        "ghcr.io/acme/kiln:0.4 as a command of its own (the command cannot run as written) (certain)"
    ]


@pytest.mark.parametrize(
    "block",
    [
        # the continuation is there
        "docker run --rm \\\n    -p 7000:7000 \\\n    acme/kiln:0.4\n",
        # a run on one line, then a list of images
        "docker run --rm acme/kiln:0.4\nacme/kiln:0.3\n",
        # after a prompt, a line without one is the run's output
        "$ docker run --rm \\\n    acme/kiln:0.4 kiln --version\nacme/kiln:0.4\n",
        # a bare name may be a command, a path is a program
        "docker run -d --name kiln \\\n    acme/kiln:0.4\nkiln\n",
        "docker run -d --name kiln \\\n    acme/kiln:0.4\n./kiln:0.4\n",
        # a command of its own after the run, and another command's lines
        "docker run -d \\\n    acme/kiln:0.4\ndocker logs -f kiln\n",
        "docker pull \\\n    acme/kiln:0.4\nacme/kiln:0.3\n",
        # an address to open after it
        "docker run -d \\\n    -p 7000:7000 acme/kiln:0.4\nlocalhost:7000\n",
        "docker run -d \\\n    -p 7000:7000 acme/kiln:0.4\n127.0.0.1:7000\n",
        # a placeholder line
        "docker run --rm \\\n    -p 7000:7000\n<image>:<tag>\n",
        # a sketch line standing for options left out, then the image
        "docker run -d \\\n    --gpus all \\\n    ... (other options) ...\n    acme/kiln:0.4\n",
        "docker run \\\n    --cpus=4 \\\n    <other options>\n    ghcr.io/acme/kiln:0.4\n",
        "docker run --rm \\\n    -v a:/a \\\n    ...\n    acme/kiln:0.4\n",
    ],
)
def test_no_missing_continuation(block: str) -> None:
    assert missing(f"# Kiln\n\n```bash\n{block}```\n") == []


def test_a_dockerfile_block_is_no_shell() -> None:
    block = "RUN docker run --rm \\\n    -p 7000:7000\nacme/kiln:0.4\n"
    assert missing(f"# Kiln\n\n```dockerfile\nFROM docker:27\n{block}```\n") == []


def test_a_namespaced_image_cut_off_a_run_that_names_none() -> None:
    # a README whose run is indented with tabs: the workdir line lost its `\`, the image below it
    readme = """\
# Folding demo

```bash
docker run \\
\t-v results:/work/results \\
\t-w /home/fold-demo
\tacme/fold-demo-v3
```
"""
    assert missing(readme) == [
        "7: README's docker run (line 4) ends at line 6 without a `\\`, so the image acme/fold-demo-v3 on "
        "the next line is not passed to it: the run ends before it and the shell runs acme/fold-demo-v3 as "
        "a command of its own (the command cannot run as written) (certain)"
    ]


def test_an_option_cut_off_a_run() -> None:
    # a scheduler's `docker run` (a CLI that wraps it): its input line lost its `\`
    readme = """\
# Folding demo

```bash
grid docker run \\
\t-v bafyexamplecid:/work/input
\t-o results:/work/results \\
\tacme/fold-demo
```
"""
    # a broken continuation is the README's own bug whatever the tool and the image (its next line runs
    # as a command of its own): told `certain`, and named as that tool's command, not as docker's
    assert missing(readme) == [
        "6: README's grid docker run (line 4) ends at line 5 without a `\\`, so the option -o on the next "
        "line is not passed to it: the run ends before it and the shell runs -o as a command of its own (the "
        "command cannot run as written) (certain)"
    ]


@pytest.mark.parametrize(
    ("lead", "named"),
    [
        # another tool's job with docker's grammar (a scheduler of a compute network)
        ("swarmctl docker run", "swarmctl docker run"),
        # words that run docker's own command: still `docker run`
        ("sudo docker run", "docker run"),
        ("time docker run", "docker run"),
        ("HTTP_PROXY=x docker run", "docker run"),
    ],
)
def test_the_command_a_missing_continuation_cuts_is_named_as_written(lead: str, named: str) -> None:
    readme = f"# Job\n\n```bash\n{lead} \\\n    -v data:/in\n    -o out:/out \\\n    acme/job\n```\n"
    told = missing(readme)
    assert len(told) == 1 and told[0].startswith(f"6: README's {named} (line 4) ends at line 5"), told


@pytest.mark.parametrize(
    "block",
    [
        # a node's quick start: every line continued, the image indented deeper
        "docker run -d \\\n    --restart always \\\n    -v node_data:/data \\\n    -p 4001:4001 \\\n"
        "        acme/node:${NODE_VERSION}\n",
        "docker run \\\n    -dit \\\n    --name node \\\n    --volume node-data:/data \\\n"
        "        acme/node\n",
        # a script's run: the image is a variable on the last line
        " docker run -d --mount type=bind,source=$HOME/data,target=/app/data \\\n\t\t--restart always \\\n"
        "\t\t$IMAGE\n",
        # the run names its image already: the line below is something else
        "docker run -d \\\n    -p 8080:80 acme/web\n    acme/worker\n",
        # an option docgen does not know: the image word cannot be told
        "docker run \\\n    --future-flag x\n    acme/web\n",
        # at the run's own depth: a command of its own after a finished run
        "docker run --rm \\\n    -v a:/a acme/web\n-o\n",
        "docker run --rm \\\n    -v a:/a\nacme/web\n",
        # a script or path, and a list item, indented below a run
        "docker run --rm \\\n    -v a:/a\n    bin/run.sh\n",
        "docker run --rm \\\n    -v a:/a acme/web\n    - then open the page\n",
        # after a prompt, lines without one are the run's output
        "$ docker run --rm \\\n    acme/web --help\n    -h, --help   show this help\n",
    ],
)
def test_no_cut_off_below_a_run(block: str) -> None:
    assert missing(f"# Node\n\n```bash\n{block}```\n") == []


def test_a_comment_after_the_continuation() -> None:
    # a README that notes each mount at the end of its line: `\  # …` escapes a blank, the line ends there
    readme = """\
# Tuner

```bash
docker run -it --gpus all \\
  -v $HOME/.cache/models:/root/.cache/models \\  # the weights
  -v $HOME/.cache/data:/root/.cache/data \\  # the data sets
  acme/tuner-dev
```
"""
    assert missing(readme) == [
        "6: README's docker run (line 4) ends at line 5 with a comment after its `\\` (which escapes a "
        "blank, not the newline), so the option -v on the next line is not passed to it: the run ends "
        "before it and the shell runs -v as a command of its own (the command cannot run as written) "
        "(certain)"
    ]


def joined(readme: str) -> list[str]:
    return [
        f"{d.line}: {d.confidence}" for d in audit(readme, "README.md", MODEL) if "which joins" in d.message
    ]


def test_a_clone_joined_to_the_cd_after_it() -> None:
    # Modelled on a README that clones its own repository, then enters it, with a stray `\`.
    readme = (
        "Get the code:\n```\ngit clone https://github.com/acme/kiln-docker-gpu \\\ncd kiln-docker-gpu\n```\n"
    )
    assert [d.message for d in audit(readme, "README.md", MODEL) if "which joins" in d.message] == [
        "README's `git clone` ends with `\\`, which joins the next line `cd kiln-docker-gpu` to it: git "
        "clone gets `cd` and the words after it as more operands than a repository and a folder, so it "
        'stops ("Too many arguments") and `cd` never runs (the command cannot run as written)'
    ]
    assert joined(readme) == ["3: certain"]


def test_a_clone_chain_is_told_once() -> None:
    # Modelled on an install section: `git clone ….git \`, `cd Repo \`, `pip install .`.
    readme = "```shell\ngit clone https://github.com/acme/kiln.git \\\ncd kiln \\\npip install .\n```\n"
    assert joined(readme) == ["2: certain"]


def test_a_clone_with_its_folder_and_options() -> None:
    readme = "```bash\n$ git clone --depth 1 -b main https://example.org/kiln.git src \\\n$ cd src\n```\n"
    assert joined(readme) == []  # (a prompt'd next line: `$` is no command word)
    readme = "```bash\n$ git clone --depth 1 -b main https://example.org/kiln.git src \\\ncd src\n```\n"
    assert joined(readme) == ["2: certain"]


def test_a_build_joined_to_the_run_after_it() -> None:
    # Modelled on READMEs that write `docker build -t name . \` then `docker run … name`.
    readme = "```sh\ndocker build -t kiln:1.0 . \\\ndocker run --rm -p 80:80 kiln:1.0\n```\n"
    assert joined(readme) == ["2: likely"]
    readme = (
        "```sh\ncd kiln \\\ndocker compose up\n```\n"
        "```sh\ndocker pull acme/kiln:2 \\\ndocker run acme/kiln:2\n```\n"
    )
    assert joined(readme) == ["2: likely", "6: likely"]


@pytest.mark.parametrize(
    "block",
    [
        # a run goes on with options, and a command run in the container
        "```sh\ndocker run --rm -it \\\n  --gpus all \\\n  acme/kiln:2 \\\n  python serve.py\n```\n",
        "```sh\ndocker run --rm acme/kiln:2 \\\npython serve.py --port 80\n```\n",
        # the shell reads on after `&&`, `|`, `;`-less lists
        "```sh\ngit clone https://github.com/acme/kiln && \\\ncd kiln\n```\n",
        "```sh\ncat kiln.tar | \\\ndocker load\n```\n",
        # a heredoc's body, a comment line, cmd's `^`, PowerShell's backtick
        "```sh\ncat <<EOF > setup.sh\ngit clone https://github.com/acme/kiln \\\ncd kiln\nEOF\n```\n",
        "```sh\ngit clone https://github.com/acme/kiln \\\n# then\ncd kiln\n```\n",
        "```bat\ngit clone https://github.com/acme/kiln ^\ncd kiln\n```\n",
        "```powershell\ngit clone https://github.com/acme/kiln `\ncd kiln\n```\n",
        "```\nPS C:\\> git clone https://github.com/acme/kiln `\ncd kiln\n```\n",
        # a clone with its address on the next line, an option, a package named like a command
        "```sh\ngit clone \\\n  https://github.com/acme/kiln\n```\n",
        "```sh\ngit clone https://github.com/acme/kiln \\\n  --depth 1\n```\n",
        "```sh\npip install \\\n  python-dotenv\n```\n",
        # commands that take any words: pip, export, sudo
        "```sh\npip install -r requirements.txt \\\npython serve.py\n```\n",
        "```sh\nexport KILN_HOME=/opt/kiln \\\npython serve.py\n```\n",
        "```sh\nsudo -i \\\ngit clone https://github.com/acme/kiln\n```\n",
        # a build with no context yet, a Dockerfile block, a quoted string continued
        "```sh\ndocker build -t kiln \\\ndocker/\n```\n",
        "```dockerfile\nRUN git clone https://github.com/acme/kiln \\\ncd kiln\n```\n",
        '```sh\necho "git clone https://github.com/acme/kiln \\\ncd kiln"\n```\n',
        # prose: a Markdown line break, not a shell line
        "Run it: \\\ngit clone https://github.com/acme/kiln \\\ncd kiln\n",
        "```yaml\nrun: git clone https://github.com/acme/kiln \\\ncd kiln\n```\n",
    ],
)
def test_joined_traps(block: str) -> None:
    assert joined(block) == []


# --------------------------------------------------------------------------------------------------
# PowerShell's backtick in a block labelled a POSIX shell (`powershell_continuations`)


def backticks(readme: str) -> list[str]:
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", MODEL)
        if "PowerShell's backtick" in d.message
    ]


# modelled on a ComfyUI-on-Arc README: the Linux run written with PowerShell's continuations
ARC_README = """\
# Arc image

Build it with `docker build -t arc-comfy:latest .`.

Once the build is done, run the following on Linux:
```sh
docker run -it `
--device /dev/dri `
-e APP_ARGS="--listen" `
--name arc-server`  
-v models:/models `
arc-comfy:latest
```

For Windows, run the following in a terminal.
```sh
docker run -it `
--device /dev/dxg `
-v /usr/lib/wsl:/usr/lib/wsl `
arc-comfy:latest
```
"""


def test_a_linux_block_continued_with_backticks_is_found_once_per_command() -> None:
    assert backticks(ARC_README) == [
        "7: README's shell block continues `docker run -it` with PowerShell's backtick (5 of its lines end "
        "in `` ` ``): sh reads a backtick as the start of a command substitution, not as a line "
        "continuation, so the command cannot run as written in sh (end the lines with `\\` instead) (certain)"
    ]


# modelled on an LLM server's quick start: two commands in one bash block, each continued so
def test_each_command_of_a_block_is_its_own_finding() -> None:
    readme = """\
# Server

## Quick start

```bash
docker pull org/server:1.4
docker run --gpus all `
  -p 8000:8000 `
  org/server:1.4
echo `date`
docker logs `
  server
```
"""
    assert [line.split(":")[0] for line in backticks(readme)] == ["7", "11"]
    assert "(2 of its lines end" in backticks(readme)[0]
    assert "(its line ends" in backticks(readme)[1]


@pytest.mark.parametrize(
    "fence",
    [
        "```powershell\ndocker run -it `\n  org/server:1.4\n```",  # the right shell
        "```\ndocker run -it `\n  org/server:1.4\n```",  # no language: may be PowerShell
        "```console\nPS C:\\> docker run -it `\n  org/server:1.4\n```",  # PowerShell's prompt
        "```bash\nPS> docker run -it `\n  org/server:1.4\n```",  # its prompt in a bash block
        "```bash\nexport NOW=`date`\necho `hostname`\n```",  # backticks closed on their line
        "```bash\ndocker run -it \\\n  org/server:1.4\n```",  # sh's own continuation
    ],
)
def test_blocks_a_backtick_continues_rightly_are_no_finding(fence: str) -> None:
    assert backticks(f"# Server\n\nRun it:\n\n{fence}\n") == []


@pytest.mark.parametrize(
    "above", ["On Windows (PowerShell):", "Run this in PowerShell.", "Under WSL, use:", "## Windows"]
)
def test_a_block_put_on_windows_by_the_line_above_or_its_heading_is_no_finding(above: str) -> None:
    readme = f"# Server\n\n{above}\n\n```sh\ndocker run -it `\n  org/server:1.4\n```\n"
    assert backticks(readme) == []


# A run written at a `$ ` prompt whose second line lost its `\`: in a paragraph of prose (the shape of a
# materials-science notebook image's README), in an indented block and in a fenced one. The traps: the
# run's output after it, a prompt'd run whose next line is an option of its help text.
_PROMPTED_RUN = (
    "$ docker run --init --rm -itd -v $(pwd):/data \\\n"
    "      -p 8888:8888\n"
    "      --gpus all \\\n"
    "      acme/grains\n"
)
_CUT = (
    "README's docker run (line {0}) ends at line {1} without a `\\`, so the option --gpus on the next line "
    "is not passed to it: the run ends before it and the shell runs --gpus as a command of its own (the "
    "command cannot run as written) (certain)"
)


def test_an_option_cut_off_a_prompted_run_in_prose() -> None:
    readme = f"# Grains\n\nTo run a notebook server in docker:\n{_PROMPTED_RUN}\nThen open the page.\n"
    assert missing(readme) == ["6: " + _CUT.format(4, 5)]


def test_an_option_cut_off_a_prompted_run_in_a_block() -> None:
    indented = "".join("    " + line + "\n" for line in _PROMPTED_RUN.splitlines())
    assert missing(f"# Grains\n\nRun it:\n\n{indented}\nThen open the page.\n") == ["7: " + _CUT.format(5, 6)]
    assert missing(f"# Grains\n\n```\n{_PROMPTED_RUN}```\n") == ["6: " + _CUT.format(4, 5)]


@pytest.mark.parametrize(
    "text",
    [
        # the `\` is there
        "To run it:\n$ docker run --rm \\\n    -p 8888:8888 \\\n    --gpus all \\\n    acme/grains\n",
        # after a prompt, the help text's options are output (no `\` ends them)
        "To see its options:\n$ docker run --rm \\\n    acme/grains --help\n    --port PORT   the port\n",
        "    $ docker run --rm \\\n        acme/grains --help\n        --port PORT   the port\n",
        # prose that names an option below a prompt'd run
        "Run\n$ docker run --rm \\\n    acme/grains\nand add --gpus all for a GPU.\n",
    ],
)
def test_no_cut_off_below_a_prompted_run(text: str) -> None:
    assert missing(f"# Grains\n\n{text}") == []


def test_a_build_and_an_exec_cut_off_by_a_missing_continuation() -> None:
    # a README building from the repository's root: the Dockerfile's line lost its `\`
    readme = """\
# Ledger

```bash
docker build \\
  --build-arg PYTHON=3.12 \\
  -f docker/Dockerfile
  .
docker exec -it \\
  -e LEDGER_ENV=dev
  -w /srv ledger bash
```
"""
    assert missing(readme) == [
        "7: README's docker build (line 4) ends at line 6 without a `\\`, so the context . on the next line "
        "is not passed to it: the build ends before it and the shell runs . as a command of its own (the "
        "command cannot run as written) (certain)",
        "10: README's docker exec (line 8) ends at line 9 without a `\\`, so the option -w on the next line "
        "is not passed to it: the exec ends before it and the shell runs -w as a command of its own (the "
        "command cannot run as written) (certain)",
    ]


def test_a_one_line_run_before_options_a_continuation_carries_on() -> None:
    readme = "# Ledger\n\n```sh\ndocker run -d --name ledger\n    -p 8080:8080 \\\n    acme/ledger:2\n```\n"
    assert [line.split(":")[0] for line in missing(readme)] == ["5"]
    # the option alone, not carried on, below a run that names its image: a usage line, not told
    usage = "# Ledger\n\n```sh\ndocker run -d --name ledger acme/ledger\n    -p 8080:8080\n```\n"
    assert missing(usage) == []


def test_options_and_image_below_a_one_line_run_that_names_no_image() -> None:
    # a pose demo's run: no line continued, the run alone names no image (`docker run` refuses it)
    readme = (
        "# Pose\n\n```bash\nnvidia-docker run -it --rm\n"
        "    -v /data/clip.mp4:/video.mp4\n    acme-pose\n```\n"
    )
    assert [line.split(":")[0] for line in missing(readme)] == ["5"]
    # the same lines below a run that names its image, or at the run's own depth: not told
    assert missing(readme.replace("--rm\n", "--rm acme-pose\n")) == []
    assert missing("# Pose\n\n```bash\ndocker run -it --rm\n-v /data/clip.mp4:/video.mp4\n```\n") == []


@pytest.mark.parametrize(
    "block",
    [
        # a build that names its context, then a folder of its own
        "docker build \\\n  -t acme/ledger .\n  docs/\n",
        # a build whose options docgen does not know all of: its context cannot be told
        "docker build \\\n  --future x\n  .\n",
        # a line ending in `&&`: the shell reads the next line on
        "docker build -t a \\\n  . &&\n  -v\n",
    ],
)
def test_no_cut_off_below_a_build(block: str) -> None:
    assert missing(f"# Ledger\n\n```bash\n{block}```\n") == []


def test_shell_commands_of_a_script() -> None:
    script = 'a \\\n  b\nc <<EOF\nd \\\nEOF\ne "f\ng"\n# h \\\ni\n'
    lines = list(enumerate(script.splitlines(), start=1))
    assert [[n for n, _ in command] for command in shell_commands(lines)] == [[1, 2], [3], [6, 7], [8], [9]]


def test_a_sketch_line_does_not_hide_a_cut_off_run() -> None:
    readme = """\
# Kiln

```bash
docker run -d \\
    ... (other options) ... \\
    -v /tmp:/tmp
acme/kiln:0.4
```
"""
    assert [m.split(":")[0] for m in missing(readme)] == ["7"]


def blanks(readme: str) -> list[str]:
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", MODEL)
        if "followed by blanks" in d.message
    ]


def test_blanks_after_the_continuation() -> None:
    # a docking GUI's run (the shape of one whose editor left blanks after a `\`): the `\` escapes a blank
    readme = (
        "# Docking\n\n```\ndocker run --rm --user=$(id -u) \\\n           --env=DISPLAY \\      \n"
        "           --volume=/tmp/.X11-unix:/tmp/.X11-unix:rw \\\n           lab/docking:mesa adt\n```\n"
    )
    assert blanks(readme) == [
        "5: README continues docker run --rm --user=$(id -u) (line 4) with a `\\` followed by blanks at line "
        "5: the `\\` escapes a blank, not the newline, so the shell ends the command there and runs "
        "--volume=/tmp/.X11-unix:/tmp/.X11-unix:rw \\ as a command of its own (the command cannot run as "
        "written; delete the blanks after the `\\`) (certain)"
    ]
    assert blanks(readme.replace("\\      \n", "\\\n")) == []


def test_blanks_after_the_continuation_of_an_install() -> None:
    # a training image's setup step (the shape of a pip install listing a package a line)
    readme = "# Trainer\n\n```bash\npip install \\ \n    torch==2.3.1 \\\n    numpy\n```\n"
    assert [f.split(":", 1)[0] for f in blanks(readme)] == ["4"]


@pytest.mark.parametrize(
    "block",
    [
        "docker run --rm lab/app \\   ",  # the block's last line
        "docker run --rm \\   \n\ndocker ps",  # a blank line after it
        "docker run --rm lab/app \\  \ndocker ps",  # a command of its own at the first line's depth
        "RUN apt-get update && \\  \n    apt-get install -y curl",  # a Dockerfile: BuildKit allows it
        "echo 'a \\  \n  b'",  # inside single quotes
        "make # run \\  \n  -j4",  # in a comment
        "cat <<EOF > run.sh\nexec app \\  \n  --flag\nEOF",  # a heredoc's body
        "echo a\\\\  \n  -n",  # an escaped backslash
    ],
)
def test_no_blanks_after_a_continuation(block: str) -> None:
    assert blanks(f"# App\n\n```bash\n{block}\n```\n") == []


def test_a_build_context_cut_off_is_told_once_with_its_cause() -> None:
    # the build then names no context: one slip, told by the finding that says why
    readme = "# Kiln\n\n```bash\ndocker build \\\n    -t kiln:1 \\\n    -f /path/to/Dockerfile\n    .\n```\n"
    said = [
        f"{d.line}: {d.message.split(',')[0]}"
        for d in audit(readme, "README.md", MODEL)
        if "build" in d.message
    ]
    assert said == ["7: README's docker build (line 4) ends at line 6 without a `\\`"]
