"""Which command blocks a README runs inside the container (`docgen.audit.container_blocks`)."""

from __future__ import annotations

import re

from docgen.audit.container_blocks import (
    IN_CONTAINER,
    IN_IMAGE,
    IN_MACHINE,
    SAID_INSIDE,
    SECTION,
    carried_intros,
    container_blocks,
    container_lines,
)
from docgen.audit.wording import COMMAND_LANGS
from docgen.markdown import read_document


def line_of(text: str, command: str) -> int:
    """The README line (from 1) of the line `command` starts."""
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(command))


# A 3D reconstruction project's README: one introduction over two captioned blocks, then the host.
RECON = """# Recon

## Usage

Start the container first:

```bash
docker compose run --rm recon bash
```

Inside the container:

**Run the reconstruction:**

```bash
python run_chunks.py --scene kitchen
```

**Run the demo:**

```bash
python demo_gradio.py
```

On the host:

```bash
xdg-open output/index.html
```

## Evaluation

```bash
python eval.py
```
"""

# A Jetson detection image's README: the words sit in headings and in prose a few paragraphs up.
JETSON = """# Detect

## Inside the docker container

```sh
python3 detect.py --source ./data/images
```

## Benchmarks

Once the image is built, open a shell inside the running container. The weights are already there.

Pick a model size from the table.

```sh
python3 benchmark.py --size s
exit
```

```python
import torch
```
"""


def test_an_introduction_holds_over_the_captioned_blocks_after_it() -> None:
    doc = read_document(RECON, "README.md")
    found = container_blocks(doc)
    assert line_of(RECON, "python run_chunks.py") in found
    assert line_of(RECON, "python demo_gradio.py") in found
    assert line_of(RECON, "python demo_gradio.py") in carried_intros(doc, IN_CONTAINER)
    assert line_of(RECON, "python demo_gradio.py") not in carried_intros(doc, re.compile("gradio"))


def test_the_host_a_heading_and_other_prose_end_an_introduction() -> None:
    doc = read_document(RECON, "README.md")
    found = container_blocks(doc)
    assert line_of(RECON, "xdg-open") not in found  # `On the host:`
    assert line_of(RECON, "python eval.py") not in found  # another section
    # the `docker compose run` block itself is the host's: its introduction says nothing of the container
    assert line_of(RECON, "docker compose run") not in found


def test_a_paragraph_just_above_in_another_section_does_not_hold() -> None:
    text = "# App\n\nThen open a shell inside the container:\n\n## Serve\n\n```bash\n./serve.sh\n```\n"
    assert container_blocks(read_document(text, "README.md")) == set()
    said = "# App\n\n## Serve\n\nThen open a shell inside the container:\n\n```bash\n./serve.sh\n```\n"
    assert container_blocks(read_document(said, "README.md")) == {line_of(said, "./serve.sh")}


def test_an_exit_line_ends_an_introduction() -> None:
    text = (
        "# App\n\n## Run\n\nInside the container:\n\n```bash\n./check.sh\nexit\n```\n\n"
        "**Then clean up:**\n\n```bash\n./clean.sh\n```\n"
    )
    found = container_blocks(read_document(text, "README.md"))
    assert line_of(text, "./check.sh") in found
    assert line_of(text, "./clean.sh") not in found


def test_a_heading_says_so() -> None:
    doc = read_document(JETSON, "README.md")
    assert line_of(JETSON, "python3 detect.py") in container_blocks(doc, words=SAID_INSIDE)


def test_reach_section_holds_past_other_prose_and_gives_every_line() -> None:
    doc = read_document(JETSON, "README.md")
    first, last = line_of(JETSON, "python3 benchmark.py"), line_of(JETSON, "exit")
    # `Pick a model size` comes between: the prose just above says nothing of the container
    assert first not in container_blocks(doc, words=SAID_INSIDE)
    lines = container_lines(doc, words=SAID_INSIDE, reach=SECTION)
    assert {first, last} <= lines
    assert line_of(JETSON, "python3 detect.py") in lines
    assert container_blocks(doc, words=SAID_INSIDE, reach=SECTION) >= {first}


def test_langs_leave_out_blocks_of_code() -> None:
    doc = read_document(JETSON, "README.md")
    torch = line_of(JETSON, "import torch")
    assert torch in container_lines(doc, words=SAID_INSIDE)
    assert torch not in container_lines(doc, words=SAID_INSIDE, langs=COMMAND_LANGS)


def test_the_words_differ_by_what_they_name() -> None:
    assert IN_CONTAINER.search("Run it from the image:")
    assert not SAID_INSIDE.search("Run it from the image:")
    assert IN_CONTAINER.search("docker exec -it app bash")
    # another runtime moves a block's commands off the host, but a prose line naming it still runs the
    # repository's script (`To run R studio with singularity, use the helper `launch.sh``)
    assert IN_CONTAINER.search("To run it with singularity on a slurm server, use `launch.sh`")
    assert not IN_IMAGE.search("To run it with singularity on a slurm server, use `launch.sh`")
    assert IN_IMAGE.search("then run `tools/serve.sh` inside the container")
    assert SAID_INSIDE.search("Once inside of the running docker container, run")
    assert SAID_INSIDE.search("# 3. Inside container, verify the NPU")
    assert IN_MACHINE.search("This drops you into a shell")
    assert IN_MACHINE.search("# run in app_dev container:")
    assert not IN_MACHINE.search("Build the image on your machine")
    assert not SAID_INSIDE.search("The container listens on port 8080")


def test_a_reader_of_every_word_or_none() -> None:
    text = "# App\n\n## Run the app inside the container\n\nText.\n\n```bash\n./run.sh\n```\n"
    doc = read_document(text, "README.md")
    assert container_blocks(doc) == {line_of(text, "./run.sh")}
    assert container_blocks(read_document("# App\n\nNo blocks.\n", "README.md")) == set()
