"""How `docgen audit`'s cost grows with READMEs of odd shapes: each shape at n and 4n characters.

Every shape is a README made of one kind of text repeated (deep indents, long lines, many list items,
long and wide tables, many fences, an unclosed fence, huge single words, backtick runs, long link texts,
unclosed brackets, nested quotes, HTML, long commands in fences, ...), audited at `--confidence likely`
in-process against a small Dockerfile that pins, copies files in and has an instruction commented out.
Each shape is timed at two sizes, best of several rounds, and the ratio printed. Budget: 4× the text
costs at most 5× (linear, with room for the noise of short runs); a cost that grows with the square
of the input shows as about 16×.

Shapes that were superlinear when this benchmark was written, and what made them so:

- `title-words`: a title of many distinct words, each looked for in the Dockerfile's lines and in every
  file it copies, read again for each word (`audit/dropped`): the cost was the title's words times the
  Dockerfile and its files (4.4× this one's cost now here; with a 400-line Dockerfile 5,000 links in the
  title took 20 s);
- `underscore-item`, `underscore-label`: a list item whose name runs into a long run of `_` and no
  version, split between the name and the marks after it every way (`audit/wording`);
- `asterisk-run`: a run of `*` in prose and in a `docker run` line, read from each `*` to the end of the
  run by the pinned-dependencies claim (`audit/pinned_claims`) and the installed-from-a-link sentence
  (`audit/methods`): 8,000 took 8 s, 20,000 35 s.
- `blanks-in-item`: a name, a long run of blanks, then a version, split between `[ \\t]*` and
  `[ \\t]+` (`audit/contents`).
- `blanks-after-version`: a `Name version` and a long run of blanks before anything else, split
  between the `[ \\t]*` on either side of a joiner (`audit/wording`'s stack line; 8,000 blanks took 5 s).
- `file-references`: one line of prose holding thousands of script paths in code, the text before
  each cut from the line's start and split at every separator again (`audit/prose_scripts`; 3,000
  paths took 8 s).
- `launch-commands`, `launch-spans`: thousands of `roslaunch PKG FILE` of a package the repository has,
  each missing file's name looked for in the whole README and in every file of its package again
  (`audit/launch_files`; 2,000 commands took 4.6 s, 8,000 took 42 s: 9.1×, spans 11.5×).
- `continued-lines` (a project shape): one `docker run` continued over thousands of lines of `-e`, the
  line of each option found by looking through the command's lines again (`audit/run_time`, read by
  `audit/port_vars` too; 7.7× at 20,000 characters, 79 s at 80,000 under a profiler);
- `spelled-both`: README paths against as many folders of the Dockerfile, each path compared with every
  folder made, filled or mounted (`audit/image_paths`, `audit/spelled_folders`; 5.2×).

- `stage-chain` (a project shape): a chain of stages, each `FROM` the one before, each running `pip
  install -r reqN.txt` before its `COPY reqN.txt .`: every copy a stage inherits asked for each install
  (`manifests`), each stage's early read checked against every step below it though the build stops at
  the first (`audit/early_reads`, `audit/broken_runs`), each requirements file matched with every copy
  (`audit/default_bounds`), each stage's lines found by looking through the others (`audit/
  server_modules`, `lint.dash_runs`): 14.7×, 40 s at 80,000 characters; 4.1×, 1.1 s since.
- `owner-images` (a project shape): thousands of images in code spans against a build script naming
  them under another owner, each image looking through every build file again, and the README (`audit/
  owner_images`; 11.4×, 2.8 s at 80,000 characters; 3.4× since);
- `buildkit-claims`: a paragraph of thousands of `The Dockerfile uses … cache mounts` sentences, the
  code spans and sentence start of the whole paragraph read again for each (`audit/buildkit_features`;
  9.7×; 3.0× since);
- `member-sentences`: thousands of sentences naming one image of two, each README line blanked span by
  span over every span (`audit/members`; 5.8×; 3.8× since);
- `pulled-runs`: thousands of `make serveN` after a `docker pull`, each command reading every command
  before it, the Makefile again for each target and the script again for each (`audit/pulled_runs`,
  `makefile.target_recipe`, read by `audit/make_env` too; 33 s at 20,000 characters under a profiler,
  80,000 not done in 4 minutes; then 22.7× with the commands read once, 2.3–5.0× with the scripts too);
- `copied-packages`: a README copy of a Dockerfile installing thousands of apt packages, a pattern
  compiled and run over the whole RUN text for each package (`audit/copies`; 4.2 s at 20,000
  characters, 28 s at 80,000: 6.7×; 3.5–5.4× since).
- `container-name-runs` (a project shape): a compose file of thousands of services building one
  Dockerfile, each image told the Dockerfile of the family it is built on (`audit/auditor.own_base`)
  by scoring the whole family's paths again, five times an image (`_Facts`, `audit/fences`): 13.8× under
  a profiler (0.02 s to 0.27 s); `auditor.OwnBases` scores them once a FROM tag. Measured 6.1–6.5× on
  a machine at load 5–6; at load about 1 it was 3.9–4.1× before that (4.3× at 80,000 characters) and
  4.0–4.1× after (4.2× at 80,000 characters, 4n 6.9 s to 6.2 s); at load 5.6–5.9, 4.0× before and 3.8×
  after (4n 4.6 s to 4.3 s): the rest grows with the input.
- `file-references`: one line of thousands of `scripts/runN.sh` spans, each read as an image
  `scripts/runN.sh` and the whole line searched again for words of provenance (`based on`, `fork`)
  for each (`audit/owner_images`; 3.3 s at 20,000 characters, 44 s at 80,000: 13.6×); the line is
  searched once since.
- `image-references`: one line of thousands of `rocm/pytorch:…` images, the words saying the image is
  the base (`comes from`, `(from`) looked for from the sentence's start up to each image
  (`audit/prose._stated_bases`; 10.3–11.1×, 3.5 s at 80,000 characters); read just before the image
  since (3.8×, 0.6 s).
- `unclosed-fence`, `fenced-runs`: thousands of `docker build` lines, the README's index of lines
  that make files (`references.MadeFiles`) made again for each build (`audit/globbed_scripts`; 2.9 s
  at 20,000 characters, 39.9 s at 80,000: 13.5×; 0.8 s and 4.1 s since); and each command split by
  `shlex` once per rule that reads it, about ten times (`shell.shell_split`, `sh_code`: 10,000 `docker
  run` lines took 21 s, 5.2 s of it in shlex; `fenced-runs` 0.56 s and 2.42 s before the splits were
  kept, 0.29 s and 1.23 s after). Later, the runs of one repository under thousands of tags were each
  looked for again among all the runs (`audit/entry_modes.own_runs`, read by `audit/cpu_only`; 0.41 s
  and 2.51 s, 6.1×; 9.6 s at 80,000 characters under a profiler): 0.34 s and 1.34 s since (3.9×).
- The shapes of the rules added after 337aa61 (project shapes, each rule at its most work):
  `copied-script-options` (a README copy of a launcher's `docker run` and the script, thousands of `-e`
  each: `audit/script_copies`), `blocks-after-script` (thousands of blocks after one that runs the
  script), `quoted-cmd-vars` (a shell-form CMD of thousands of `'$VAR'` under a table of them:
  `audit/exec_vars`), `mpirun-lines` (thousands of `mpirun` after an interactive run: `audit/mpi_root`),
  `volume-clauses` (thousands of `mounted at `/wN`` clauses over as many VOLUMEs:
  `rehomed_mounts.volume_elsewhere`), `rehomed-mounts` (a launcher of thousands of `-v`), `cd-after-clones`
  (thousands of `git clone`, `cd` and compose lines: `audit/entered_compose`), `shell-entrypoint-runs`
  (thousands of runs of an image whose ENTRYPOINT is `bash -c`: `audit/run_args`), `copy-exposes`
  (a pasted copy of thousands of EXPOSE far below the words about the reader's own Dockerfile:
  `audit/copies`). First measured at load 3.5–4.5: 3.3×, 5.3×, 13.5×, 7.4×, 7.6×, 2.9×, 3.4×, 5.3×, 4.1×.
  `quoted-cmd-vars`: the script the image starts looked for in every word of the CMD again for each
  variable (`audit/run_time`: 14.8× under a profiler); `volume-clauses`: each clause looked for its
  VOLUME among all and its name in the whole README and build context (19.7×); `cd-after-clones`: each
  compose command walked every `cd` before it (12.7× under a profiler, 8.6× at load 14). After the
  fixes, at load 12–15: 3.7×, 4.1×, 3.9×, 3.5×, 3.8×, 3.1× (`mpirun-lines`, `blocks-after-script` and
  `shell-entrypoint-runs` were 4.2–4.3× under a profiler: noise, no rule grows faster);
  `cd-after-clones` 4.4×, `shell-entrypoint-runs` 4.1×. `copy-exposes` measured 12.5× at load 15
  (4.1× at load 4): `copies._changed_defaults` made the shape of every file instruction again for each
  instruction of the copy; made once (looked up by keyword and shape), 3.7× at load 10.

- the rules of the default-branch round (`hostile7`, a shared machine at load 12.5–13.4, best of 3):
  `moved-clones` (thousands of `cd` and paths after a `docker run -ti`, thousands of clones) 4.5×,
  `entered-flags` (thousands of `docker run -dd…i` lines, `audit/moved_scripts`) 3.9×,
  `default-branches` (thousands of clones at no ref, each said at a version) 4.1×, `left-out-flavours`
  (thousands of unflavoured `nvidia/cuda` tags in prose) 4.2×; `clone-scripts` (thousands of blocks and
  quoted runs after a script name, hundreds of clones) was 10.5×, a pattern compiled and run for each
  clone and each run (`audit/clone_scripts`), now 4.2×; `script-mounts` (thousands of mount clauses
  against a script of thousands of `--volume`s) was 7.0×, each claim compared with every mount and the
  script searched again (`audit/script_mounts`), now 4.7×; `disabled-ppas` (thousands of PPAs named
  against a Dockerfile of thousands of commented-out `add-apt-repository`) was 9.5×, the Dockerfile's
  lines walked again for each PPA (`audit/disabled`), now 3.9×.

- the rules of the hostile8 round (best of 3, a shared machine): `env-slips` (thousands of `` `NAME` ``
  one slip from as many names of a script beside the README: `audit/env_slips`) 3.8× at load 12;
  `owner-slips` (thousands of images one slip from as many a workflow pushes: `audit/owner_images`)
  was 5.4× at load 12, each image compared with every name the build and workflows name and each
  workflow searched again for it (2,000 images 11.3 s, 8,000 119.9 s), now 3.6× at load 9;
  `fetched-copies` (a Dockerfile of thousands of `COPY ./${Mk}` of ARG defaults naming weights:
  `audit/fetched_copies`) 4.2× at load 12, 3.7× at load 5; `prose-builds` (thousands of build lines
  in prose: `references._bare_builds`, `_context_misses`) was 6.1–6.3× at load 9–12, every README
  line read again for each build (`fetched_copies.told`), now 3.2× at load 5. All four after the
  fixes, at load 4: 3.3×, 2.0×, 3.4×, 4.1× (4n 1.2 s, 1.2 s, 0.3 s, 1.4 s).

- the rules of the December rounds: `file-references` was 12.1× (one line of thousands of script
  spans, each span's whole line searched again for words of editing: `audit/script_names.named_runs`),
  now 3.8×; `prose-builds` and `fetched-copies` 6.0× and 7.3× (each missing COPY source looked for in
  every later README line for a step that makes it: `references.MadeFiles.later`; the steps are now
  indexed by the name they write, once), now 4.0× and within budget when not swamped by start-up;
  `inline-commands` 6.1× (a line of thousands of `docker build` read from each `docker` for a later
  `run`, and each module started looked for in the whole README: `audit/server_modules`), now 4.2×.
  After the second round: `one-deep-line` 15.1× (a line of 20,000 blanks is now an indented code block,
  and `audit/edited_configs`' pattern for `app init` tried `\s+` from each blank), now 3.8×;
  `cd-after-clones` 22.2× (each compose command looked at every `cd` before it and each `cd` at every
  clone: `audit/compose_builds`), now 4.8×.

- `built-names` 9.4× (thousands of `Build the … image:` paragraphs, each over its block, in one
  section): `wording.carried_intros` joined every introduction still holding into one string per block,
  searched by `references.about_container` and `audit/setup_files` (the square of the README), and
  `built_names` and `clone_scripts` read every paragraph again for each block; now 3.1–4.2×.
  `cd-after-clones` 5.0–5.2× again: `steps.built_clones` looked for each clone's block among all and
  split the rest of the block for each clone; now 2.9–4.3×. `unbuilt-links` 3.8× at load 2.

- the rules of the session of 7 December: `unclosed-brackets` 20.4× (a line of thousands of `[`:
  `page_builds._described` found link texts with `\[([^\]]+)\]\(`, which runs from each `[` to the
  line's end; it now takes them from `markdown.links`), now 4.0×; `inline-commands` 10.9× (a line of
  thousands of `docker build`: `run_args._SPLIT_TAG` read `[^\n]*?` from each build to the line's end
  looking for `-t`; it now stops at the command's end and after 1,000 characters), now 4.1×;
  `rehomed-mounts` 13.4× (a script's `docker run` continued over thousands of lines:
  `script_mounts.container_runs` joined each line onto the command and read the whole command's quotes
  again; it now joins once and reads each line's quotes), now 3.4× (4n 4.7 s before, 0.28 s after).
  The other 131 shapes were within budget (three over it on a first run at load 3, beside CI, were
  3.8–4.0× when run again alone).
  The second round of that day added six project shapes, each making one new rule do its most work
  (`listed-versions`, `installer-options`, `support-claims`, `makefile-separators`,
  `script-arguments`, `self-copies`): 2.6–4.7× at the default size beside a loaded machine;
  `installer-options` was 5.5× there at 0.05 s (start-up), 3.4× at `--size 80000`.
  The full run after that round: `one-deep-line` 14.4× (a line of blanks in an indented block:
  `fences._LISTING_HEADER` had a `[ \t]*` before `#?[ \t]*`, which tried every split of the blanks;
  now read on the stripped line), 43.6 s at 4n, now 4.3× and 2.0 s; `container-name-runs` 13.6× (a
  compose file of thousands of services, parsed again for each service's build args:
  `compose_builds._given_args`; now parsed once, `_every_service`), 37.6 s at 4n, now 3.1× and 4.1 s.
  The other 138 shapes were within budget.
  The third round of that day added eleven project shapes, each making one new rule do its most work
  (`hidden-paths`, `applied-images`, `shallow-checkouts`, `slipped-programs`, `moved-folders`,
  `top-mount-paths`, `unbuilt-ci-claims`, `compose-names`, `program-slips`, `near-variants`,
  `unjoined-runs`), at load 2.5–3.5. Over budget at first: `hidden-paths` (thousands of `docker run -v
  $(pwd):/srv` of an image of thousands of virtual environments: each run's bind compared with every
  one, the folders it may run from and the README's `cd`s read again for each: `audit/hidden_paths`;
  0.7 s at 5,000 characters, 10 s at 10,000 under a profiler, the default size not done in 4 minutes),
  now 3.8× (0.45 s, 1.71 s); `slipped-programs` 8.1× (0.56 s, 4.53 s: the ENTRYPOINT and the programs
  RUNs install read again for each run, `run_args.other_programs` and `doubled_programs`, and the model
  hashed for each run by `hidden_paths`' cached `image_made`), now 4.0× (0.34 s, 1.35 s);
  `moved-folders` 9.7× (0.91 s, 8.84 s: the image's paths and every RUN read again for each script,
  `unshipped_cmd._moved_folder`, and every README line for each), now 3.8× (0.38 s, 1.45 s);
  `top-mount-paths` 17.5× (0.87 s, 15.3 s: each path compared with every mount of its run and of the
  README, `mounts.top_mount_paths`, and every line naming a script read again for each run of it,
  `audit/moved_scripts`), now 4.5× (0.50 s, 2.26 s); `unbuilt-ci-claims` 7.4× (0.26 s, 1.91 s: the
  commented-out steps read again for each claim), now 4.0× (0.17 s, 0.68 s); `applied-images` 5.0×
  (one manifest read again for each `kubectl apply` of it), now 3.6×; `program-slips` 8.3× (1.04 s,
  8.66 s: the README searched for an alias of the slip again for each step, `shell_words`), now 4.0×
  (0.51 s, 2.04 s); `compose-names` 9.8× (1.96 s, 19.1 s: the compose file parsed again for each
  `docker compose up --build NAME`, `broken_runs._compose_built`, its services read again for each,
  `compose_paths.unbuilt_extensions`, and the README's lines making files for each,
  `compose_builds._check`), now 6.3× (1.43 s, 8.97 s): still over, each paragraph read against the
  whole README by older rules (`case_slips`, `members._named`, `set_aside._about_other_files`), left
  for the next round. The others: `shallow-checkouts` 4.2×, `near-variants` 2.8×, `unjoined-runs` 2.1×.
  The next session read every image once for those rules and for `fences.listed_not_installed`,
  `references.run_folders` and `hidden_paths._compose_binds` (a compose file of thousands of services
  gives thousands of images of one Dockerfile), and `compose.load` parses the same bytes once (the
  rules read the compose file up to eleven times): `compose-names` is now 4.0× (1.10 s, 4.34 s). Its
  full run, on a machine loaded by other jobs, showed twelve shapes over budget; measured again at a
  load under 1, eleven are at 1.7–4.7×, and `continued-lines` (one command continued over thousands of
  lines) is at 3.9–5.6× over four runs, 3.5× under the profiler, with no part of it growing faster than
  the input.

The project shapes (`PROJECTS`) are whole projects, README and the files the round-19 rules read (a
script with a usage line, a compose file, Dockerfiles with thousands of COPY or RUN lines), and the
files the rules added after 15d2315 read: pins against unpinned installs, workflow files (docgen reads
50 at most) with many steps or `on:` events, Makefiles of thousands of targets or recipe lines, scripts
of thousands of assignments, `${N:-d}` defaults and `source` lines, compose files of many services, a
checkout's remote for links to its own files.

    python benchmarks/bench_shapes.py [--rounds N] [--size CHARS] [--only NAME ...]

Prints a table of results; exits 1 when a budget is exceeded.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from docgen.cli import main

DOCKERFILE = """\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
ARG TORCH_VERSION=2.3.1
ENV PYTORCH_CUDA_ARCH_LIST="8.0;9.0" HF_HOME=/opt/hf
COPY scripts/start.sh requirements.txt /opt/
# RUN pip install gamess==1.0
RUN pip install torch==${TORCH_VERSION} numpy==1.26.4
EXPOSE 8000
ENTRYPOINT ["/opt/start.sh"]
"""
FILES = {
    "scripts/start.sh": "#!/bin/sh\nexec python3 -m server --port 8000\n",
    "requirements.txt": "vllm==0.5.1\n",
    "ros/rover_nav/package.xml": "<package><name>rover_nav</name></package>\n",
    "ros/rover_nav/launch/nav.launch": "<launch/>\n",
}
CLAIM = "torch 2.3.1 with CUDA 12.4 and `PYTORCH_CUDA_ARCH_LIST` set"


def repeat(unit: str, size: int) -> str:
    """`unit` repeated to about `size` characters."""
    return unit * max(1, size // len(unit))


def lines(make: Callable[[int], str], size: int) -> str:
    """Lines `make(0)`, `make(1)` … up to about `size` characters."""
    out: list[str] = []
    total = k = 0
    while total < size:
        line = make(k)
        out.append(line)
        total += len(line)
        k += 1
    return "".join(out)


def deep(indent: str, text: str, lines_: int = 50) -> Callable[[int], str]:
    """A README of `lines_` lines `text`, each indented by a run of `indent` as long as the size allows."""
    return lambda size: "".join(repeat(indent, size // lines_) + text.format(k=k) for k in range(lines_))


SHAPES: dict[str, Callable[[int], str]] = {
    "deep-indent-items": deep(" ", f"- item {{k}} {CLAIM}\n"),
    "deep-indent-tabs": deep("\t", f"- item {{k}} {CLAIM}\n"),
    "deep-indent-prose": deep(" ", f"word {{k}} {CLAIM}\n"),
    "deep-indent-table-rows": lambda size: (
        "| a | b |\n|---|---|\n" + deep(" ", "| `torch` | 2.{k} |\n")(size)
    ),
    "deep-indent-fences": deep(" ", "```\ndocker build --build-arg A={k} .\n```\n"),
    "deep-indent-headings": deep(" ", f"# H {{k}} {CLAIM}\n\ntext\n"),
    "deep-indent-quotes": deep(" ", f"> {CLAIM}\n"),
    "one-deep-line": lambda size: repeat(" ", size) + f"- {CLAIM}\n",
    "long-prose-line": lambda size: repeat(CLAIM + " ", size) + "\n",
    "blanks-in-item": lambda size: "- torch" + repeat(" ", size) + "2.3.1\n",
    "blanks-after-version": lambda size: "- torch 2.3 CUDA 12.1" + repeat(" ", size) + "x\n",
    "trailing-blanks": lambda size: "".join(f"- {CLAIM}" + repeat(" ", size // 50) + "\n" for _ in range(50)),
    "underscore-item": lambda size: "- torch" + repeat("_", size) + "!\n",
    "underscore-label": lambda size: "- Software stack" + repeat("_", size) + ": x\n",
    "many-list-items": lambda size: lines(lambda k: f"- item {k}: {CLAIM}\n", size),
    "nested-list-items": lambda size: lines(lambda k: "  " * (k % 30) + f"- item {k}: {CLAIM}\n", size),
    "long-table": lambda size: (
        "| Package | Version |\n|---|---|\n" + lines(lambda k: f"| `pkg{k}` | 1.{k}.0 |\n", size)
    ),
    "wide-table": lambda size: (
        lambda n: "|" + " a |" * n + "\n|" + "---|" * n + "\n" + ("|" + " `torch` 2.3 |" * n + "\n") * 10
    )(max(1, size // 160)),
    "long-table-cell": lambda size: "| a | b |\n|---|---|\n| torch | " + repeat("2.3 ", size) + "|\n",
    "many-fences": lambda size: lines(
        lambda k: f"```bash\ndocker run -p {8000 + k % 1000}:8000 img{k}\n```\n\n", size
    ),
    "unclosed-fence": lambda size: "```bash\n" + lines(lambda k: f"docker build --build-arg A={k} .\n", size),
    "long-command-line": lambda size: (
        "```bash\ndocker build " + lines(lambda k: f"--build-arg A{k}=1 ", size) + ".\n```\n"
    ),
    "long-continued-command": lambda size: (
        "```bash\ndocker build \\\n" + lines(lambda k: f"  --build-arg A{k}=1 \\\n", size) + "  .\n```\n"
    ),
    "long-docker-run": lambda size: (
        "```bash\ndocker run " + lines(lambda k: f"-p {k}:{k} -e V{k}=1 ", size) + "img\n```\n"
    ),
    "fenced-runs": lambda size: (
        "```bash\n" + lines(lambda k: f"docker run -e V{k}=1 -p 80{k % 10}:80 img:{k}\n", size) + "```\n"
    ),
    "inline-commands": lambda size: (
        lines(lambda k: f"Run `docker build --build-arg A{k}=1 .` then. ", size) + "\n"
    ),
    "long-paragraph": lambda size: lines(lambda k: f"line {k} of {CLAIM}\n", size),
    "huge-word": lambda size: repeat("a", size) + "\n",
    "huge-word-dots": lambda size: repeat("1.", size) + "\n",
    "huge-word-path": lambda size: repeat("/a", size) + "\n",
    "huge-word-underscores": lambda size: repeat("A_", size) + "\n",
    "huge-word-dashes": lambda size: repeat("-", size) + "\n",
    "backtick-pairs": lambda size: repeat("`a` ", size) + "\n",
    "backticks-unbalanced": lambda size: repeat("`a ", size) + "\n",
    "backtick-run": lambda size: repeat("`", size) + " x\n",
    "asterisk-run": lambda size: (
        "Text " + repeat("*", size) + " end.\n\n```bash\ndocker run " + repeat("*", size) + " app\n```\n"
    ),
    "long-link-text": lambda size: "[" + repeat(CLAIM, size) + "](https://example.com)\n",
    "title-words": lambda size: "# Gamess " + lines(lambda k: f"[torch {k}](https://x/a{k}) ", size) + "\n",
    "unclosed-brackets": lambda size: repeat("[", size) + "x\n",
    "unclosed-link-targets": lambda size: repeat("[a](", size) + "x\n",
    "nested-quotes": lambda size: repeat("> ", size) + CLAIM + "\n",
    "many-headings": lambda size: lines(lambda k: f"## Section {k} torch 2.{k}\n\ntext {CLAIM}\n\n", size),
    "long-heading": lambda size: "# " + repeat(CLAIM, size) + "\n",
    "unclosed-html-comment": lambda size: "<!--\n" + lines(lambda k: f"{CLAIM}\n", size),
    "html-tags": lambda size: repeat("<b>a</b> ", size) + "\n",
    "open-angles": lambda size: repeat("<", size) + "\n",
    "html-table": lambda size: (
        "<table>\n" + lines(lambda k: f"<tr><td>torch</td><td>2.{k}</td></tr>\n", size) + "</table>\n"
    ),
    "pipes-in-prose": lambda size: repeat("a |", size) + "\n",
    "setext-underline": lambda size: "Title torch 2.3\n" + repeat("=", size) + "\n",
    "emphasis": lambda size: repeat("*a* _b_ ", size) + "\n",
    "long-url": lambda size: "https://example.com/" + repeat("a/", size) + "\n",
    "many-versions": lambda size: repeat("torch 2.3.1 ", size) + "\n",
    "unclosed-substitution": lambda size: "```bash\necho " + repeat("$(", size) + "\n```\n",
    "unclosed-quotes": lambda size: "```bash\necho " + repeat("'a ", size) + "\n```\n",
    "image-references": lambda size: lines(lambda k: f"rocm/pytorch:rocm6.{k}_ubuntu22.04 ", size) + "\n",
    "file-references": lambda size: lines(lambda k: f"`scripts/run{k}.sh` ", size) + "\n",
    "build-arg-list": lambda size: "Build args: " + lines(lambda k: f"`ARG_{k}`, ", size) + "\n",
    "badges": lambda size: (
        lines(lambda k: f"![torch](https://img.shields.io/badge/torch-2.{k}-red) ", size) + "\n"
    ),
    "blank-lines": lambda size: "# T\n" + repeat("\n", size) + "torch 2.3\n",
    # The rules of the last session: long tables, long lists, many commands, deep nesting.
    "jetpack-table": lambda size: (
        "| L4T | JetPack |\n|---|---|\n"
        + lines(lambda k: f"| 35.{k % 5}.{k % 3} | {5 + k % 2}.{k % 2} DP |\n", size)
    ),
    "jetpack-table-quoted": lambda size: (
        "> " * 20
        + "| L4T | JetPack |\n"
        + "> " * 20
        + "|---|---|\n"
        + lines(lambda k: "> " * 20 + f"| R36.{k % 4}.0 | 5.1 |\n", size)
    ),
    "left-over-items": lambda size: (
        "# Docker image for Lyrebird\n\n## Installs\n\n"
        + lines(lambda k: f"* [Lyrebird{k}](https://github.com/acme/lyrebird{k})\n", size)
    ),
    "left-over-nested": lambda size: (
        "# Docker image for Lyrebird\n\n## Installs\n\n"
        + lines(lambda k: "  " * (k % 40) + f"* [Lyrebird](https://github.com/acme/lyrebird) {k}\n", size)
    ),
    "moved-data-runs": lambda size: (
        "```bash\ndocker build -t app .\n"
        + lines(lambda k: f"docker run -v hf{k}:/root/.cache/huggingface -e N={k} app\n", size)
        + "```\n"
    ),
    "moved-data-spans": lambda size: (
        "Build with `docker build -t app .`.\n\n"
        + lines(
            lambda k: f"Run `docker run -v ~/.cache/huggingface:/root/.cache/huggingface app` {k},\n", size
        )
    ),
    "launch-commands": lambda size: (
        "```bash\n" + lines(lambda k: f"roslaunch rover_nav n{k}.launch\n", size) + "```\n"
    ),
    "launch-spans": lambda size: (
        lines(lambda k: f"then `ros2 launch rover_nav n{k}.launch.py` and ", size) + "\n"
    ),
    "left-over-long-title": lambda size: (
        "# Docker image for "
        + repeat("Lyrebird ", size // 2)
        + "\n\n## Installs\n\n"
        + lines(lambda k: f"* [Bird{k}](https://github.com/acme/bird{k})\n", size // 2)
    ),
    "release-sentences": lambda size: lines(
        lambda k: f"For a new release, update `SIM{k}_VERSION` and `SIM{k}_SHA256` in the image.\n", size
    ),
    "release-one-sentence": lambda size: (
        "For a release " + lines(lambda k: f"update `SIM{k}_VERSION`, ", size) + "\n"
    ),
    "release-and-fences": lambda size: (
        lines(lambda k: f"For a release, update `SIM{k}_VERSION`.\n", size // 2)
        + "\n```bash\n"
        + lines(lambda k: f"echo step {k} of the build\n", size // 2)
        + "```\n"
    ),
}


PLAIN_DOCKERFILE = "FROM ubuntu:22.04\nCOPY run.sh bench.py /llm/\nRUN pip install torch==2.1.0+cu117\n"
USAGE_SCRIPT = 'echo "Usage: run.sh [version] [gpu]"\nV=$1\nG=$2\n'


CI_WORKFLOW = """\
name: image{k}
on:
  push:
    branches: [trunk]
jobs:
  image:
    runs-on: ubuntu-latest
    steps:
      - uses: docker/login-action@v3
        with:
          registry: ghcr.io
          password: ${{{{ secrets.PACKAGES_PAT }}}}
      - uses: docker/build-push-action@v6
        with:
          push: true
          tags: ghcr.io/acme/tilemaker{k}:edge
"""


def project(readme: str, **files: str) -> dict[str, str]:
    """A project: `readme` as README.md, the plain Dockerfile, the usage script, and `files`."""
    return {
        "Dockerfile": PLAIN_DOCKERFILE,
        "run.sh": USAGE_SCRIPT,
        "bench.py": "",
        **files,
        "README.md": readme,
    }


def fence(body: str) -> str:
    return "```bash\n" + body + "```\n"


# The rules of round 19 (script_usage, cuda_wheels, mount_claims, spelled_folders, continuations,
# swapped_headings, unentered_mounts): each shape is a whole project, README and the files it reads.
PROJECTS: dict[str, Callable[[int], dict[str, str]]] = {
    "usage-lines": lambda size: project(fence(lines(lambda k: f"sh run.sh <v{k}> <g> <d> <o>\n", size))),
    "usage-placeholders": lambda size: project(
        fence("sh run.sh " + lines(lambda k: f"<x{k}> ", size) + "\n")
    ),
    "usage-long-script": lambda size: project(
        fence("sh run.sh <a> <b> <c>\n"),
        **{"run.sh": USAGE_SCRIPT + lines(lambda k: f'echo "$1 $2 step {k}" # $3\n', size)},
    ),
    "cuda-builds": lambda size: project(
        fence(lines(lambda k: f"docker build --build-arg CUDA_VERSION=11.8 -t a{k} -f Dockerfile .\n", size))
    ),
    "cuda-wheel-lines": lambda size: project(
        fence("docker build --build-arg CUDA_VERSION=11.8 -f Dockerfile .\n"),
        Dockerfile=PLAIN_DOCKERFILE + lines(lambda k: f"RUN pip install torch==2.{k}.0+cu117\n", size),
    ),
    "mount-claims": lambda size: project(
        "```bash\ndocker run -v /srv:/data app\n```\n\n"
        + lines(lambda k: f"Mount the folder into the container at `/mnt/m{k}`.\n", size)
    ),
    "mount-compose-volumes": lambda size: project(
        "Mount the repository into the container at `/mnt/x`.\n",
        **{
            "docker-compose.yml": "services:\n  a:\n    image: x\n    volumes:\n"
            + lines(lambda k: f"      - ./d{k}:/data/d{k}\n", size)
        },
    ),
    "mount-run-options": lambda size: project(
        fence("docker run " + lines(lambda k: f"-v /s{k}:/t{k} ", size) + "app\n")
        + "\nMount the folder into the container at `/mnt/x`.\n"
    ),
    "spelled-copies": lambda size: project(
        "We include `/llm/start-lightweight.sh` in the image.\n",
        Dockerfile=PLAIN_DOCKERFILE + lines(lambda k: f"COPY s{k}.sh /llm/d{k % 97}/\n", size),
    ),
    "spelled-runs": lambda size: project(
        "We include `/llm/start-lightweight.sh` in the image.\n",
        Dockerfile=PLAIN_DOCKERFILE
        + lines(lambda k: f"RUN mkdir -p /llm/d{k} && echo {k} > /llm/d{k}/f\n", size),
    ),
    "spelled-paths": lambda size: project(
        lines(lambda k: f"Run `/llm/d{k}/bench.sh` or `/llm/benc{k}.py`.\n", size)
    ),
    "spelled-bare-runs": lambda size: project(
        "```bash\npython bench.py\n" + lines(lambda k: f"python bench{k}.py\n", size) + "```\n",
        Dockerfile="FROM ubuntu:22.04\nWORKDIR /llm\nCOPY bench.py run.sh ./\n",
    ),
    "spelled-copies-from": lambda size: project(
        "We include `/llm/start-lightweight.sh` in the image.\n",
        Dockerfile="FROM ubuntu:22.04 AS b\n"
        + lines(lambda k: f"RUN mkdir -p /b/d{k}\n", size // 2)
        + PLAIN_DOCKERFILE
        + lines(lambda k: f"COPY --from=b /b/d{k} /llm/d{k}\n", size // 2),
    ),
    "spelled-both": lambda size: project(
        lines(lambda k: f"Run `/llm/d{k}/bench.sh`.\n", size // 2),
        Dockerfile=PLAIN_DOCKERFILE + lines(lambda k: f"COPY s{k}.sh /llm/d{k}/\n", size // 2),
    ),
    "continued-lines": lambda size: project(
        fence("docker run \\\n" + lines(lambda k: f"  -e V{k}=1 \\\n", size) + "  app\n")
    ),
    "continued-comments": lambda size: project(
        fence("docker run \\\n" + lines(lambda k: f"  # note {k}\n", size) + "  app\n")
    ),
    "continued-blank-runs": lambda size: project(
        fence(lines(lambda k: "docker run \\\n" + "\n" * 20, size) + "app\n")
    ),
    "continued-unclosed-quote": lambda size: project(
        fence('sh -c "echo \\\n' + lines(lambda k: f"# in the string {k} \\\n", size) + "\n")
    ),
    "continued-long-line": lambda size: project(
        fence("docker run " + repeat("-e 'a b' \\\\ ", size) + "\\\n  # c\n  app\n")
    ),
    "continued-heredocs": lambda size: project(
        fence(lines(lambda k: f"cat <<EOF{k} \\\n# x\nEOF{k}\n", size))
    ),
    "swapped-sections": lambda size: project(
        lines(
            lambda k: f"## Build\n\n{fence('docker run app')}\n## Run\n\n{fence('docker build -t app .')}\n",
            size,
        )
    ),
    "swapped-one-section": lambda size: project(
        "## Build\n\n"
        + lines(lambda k: f"text {k}\n\n{fence(f'docker run app{k}')}\n", size)
        + "## Run\n\n"
        + fence("docker build -t app .")
    ),
    "unentered-installs": lambda size: project(
        fence(
            "docker build -t kiln .\ndocker run -it -v $PWD:/src kiln\n# inside the container\n"
            + lines(lambda k: f"echo {k}\n", size)
            + "pip install -e .\n"
        ),
        Dockerfile="FROM ubuntu:22.04\nRUN echo\n",
    ),
    "unentered-runs": lambda size: project(
        fence(
            "docker build -t kiln .\n"
            + lines(lambda k: f"docker run -it -v $PWD:/s{k} kiln\n# inside the container\nls\n", size)
        ),
        Dockerfile="FROM ubuntu:22.04\nRUN echo\n",
    ),
    # The rules of the session after 15d2315: each shape makes one new rule do its most work.
    "floating-pins": lambda size: project(
        "## Python packages\n\n" + lines(lambda k: f"- `lumenpkg{k}==0.{k}.2`\n", size // 2),
        Dockerfile="FROM python:3.12-slim\n"
        + lines(lambda k: f"RUN pip install --no-cache-dir lumenpkg{k} tool{k}\n", size // 2),
    ),
    "built-names": lambda size: project(
        lines(
            lambda k: (
                f"Build the `lumen-gen{k}` image:\n\n"
                + fence(f"docker build -t acme/eval-kit{k}:latest -f Dockerfile .\n")
                + "\n"
            ),
            size,
        )
    ),
    "member-sentences": lambda size: project(
        "# Speech server\n\n## Notes\n\n"
        + lines(
            lambda k: f"- Jetson images were built with CUDA 10.{k}. The PC image ships Python 3.{k}.\n", size
        ),
        **{
            "pc/Dockerfile": "ARG T=11.8.0-devel-ubuntu22.04\nFROM nvidia/cuda:$T\nRUN apt-get update\n",
            "jetson/Dockerfile": "ARG L4T=r35.4.1\nFROM nvcr.io/nvidia/l4t-base:$L4T\nRUN apt-get update\n",
        },
    ),
    "reinstalled-torch": lambda size: project(
        "# Pose lab\n\n- torch: 2.0.1\n\n## Setup\n\n"
        + lines(
            lambda k: fence(f"pip install torch==1.13.{k}+cu117 torchvision==0.14.1+cu117\n") + "\n", size
        ),
        Dockerfile="FROM pytorch/pytorch:2.0.1-cuda11.7-cudnn8-devel\nRUN pip install einops==0.6.1\n",
    ),
    "ci-workflows": lambda size: project(
        "## Automated builds\n\nThe repository has a GitHub Actions workflow that builds the container image "
        "on every push or pull request and pushes the image to Docker Hub.\n\n"
        "Add these repository secrets: `HUB_LOGIN`, `HUB_TOKEN`.\n",
        **{  # (docgen reads 50 workflow files at most: 40 of them, each with many steps)
            f".github/workflows/w{k}.yml": CI_WORKFLOW.format(k=k)
            + lines(lambda j: f"      - run: echo step {j} ${{{{ secrets.S{j} }}}}\n", size // 40)
            for k in range(40)
        },
    ),
    "ci-events": lambda size: project(
        "## Automated builds\n\nThe GitHub Actions workflow builds the container image on every pull request "
        "and nightly, and pushes the image to Docker Hub.\n",
        **{
            ".github/workflows/image.yml": "on:\n"
            + lines(lambda k: f"  event_{k}:\n    types: [t{k}]\n", size)
            + CI_WORKFLOW.split("jobs:", 1)[1].join(["jobs:", ""]).format(k=0)
        },
    ),
    "ci-sentences": lambda size: project(
        "## Automated builds\n\n"
        + lines(
            lambda k: (
                f"The GitHub Actions workflow builds the container image on every pull request and "
                f"pushes the image to Docker Hub with secret `HUB_TOKEN_{k}`.\n"
            ),
            size,
        ),
        **{".github/workflows/image.yml": CI_WORKFLOW.format(k=0)},
    ),
    "own-links": lambda size: project(
        lines(lambda k: f"* [tool {k}](https://github.com/acme/app/blob/main/tools/run{k}.sh)\n", size),
        **{
            ".git/config": '[remote "origin"]\n\turl = https://github.com/acme/app.git\n',
            ".git/HEAD": "ref: refs/heads/main\n",
        },
    ),
    "unbuilt-links": lambda size: project(
        "### Docker image\n\nWe provide a [Dockerfile](docker/Dockerfile) to build an image.\n\n"
        + lines(lambda k: fence(f"docker build -t vision:{k} .\n") + f"\nThen run number {k}.\n\n", size),
        **{
            "docker/Dockerfile": "FROM pytorch/pytorch:2.1-cuda12.1-cudnn8-devel\nRUN echo a\n",
            ".git/config": '[remote "origin"]\n\turl = https://github.com/acme/vision.git\n',
        },
    ),
    "owner-images": lambda size: project(
        lines(lambda k: f"Recommend use `docker.io/ann/gpu-base:6.{k}-full` for run {k}.\n", size // 2),
        Dockerfile='ARG BASE="docker.io/bob/gpu-base:6.1-full"\nFROM ${BASE}\nRUN apt-get update\n',
        **{"build.sh": lines(lambda k: f"OUT_IMAGE{k}=docker.io/bob/gpu-base:6.{k}-full\n", size // 2)},
    ),
    "buildkit-claims": lambda size: project(
        lines(
            lambda k: (
                f"The Dockerfile uses BuildKit cache mounts (`RUN --mount=type=cache`) and heredocs "
                f"for step {k}.\n"
            ),
            size // 2,
        ),
        Dockerfile="FROM python:3.12-slim\n" + lines(lambda k: f"RUN pip install pkg{k}\n", size // 2),
    ),
    "builder-paths": lambda size: project(
        fence(lines(lambda k: f"docker run app /src/out/tool{k} --in /src/out/d{k}\n", size // 2))
        + lines(lambda k: f"The binaries are in `/src/out/b{k}`.\n", size // 2),
        Dockerfile="FROM debian:bookworm AS compile\nWORKDIR /src\nRUN make && mkdir -p /src/out\n\n"
        'FROM debian:bookworm-slim\nCOPY --from=compile /src/out /opt/quill/bin/\nCMD ["quill"]\n',
    ),
    "make-targets": lambda size: project(
        fence("export CUDA_ARCH=9.0\nmake image\n"),
        Dockerfile="FROM python:3.11-slim\nARG CUDA_ARCH=8.6\nRUN echo ${CUDA_ARCH}\n",
        Makefile="CUDA_ARCH ?= 8.6\n"
        + lines(
            lambda k: f"t{k}: t{k + 1}\n\t@echo step {k}\n\tdocker build --build-arg P{k}=1 -t a{k} .\n", size
        )
        + "image: t0\n\tdocker build -t trainer .\n",
    ),
    "make-exports": lambda size: project(
        fence(lines(lambda k: f"export CUDA_ARCH{k}=9.{k}\n", size // 2) + "make image CUDA_ARCH=9.0\n")
        + fence(lines(lambda k: f"CUDA_ARCH=9.{k} make image\n", size // 2)),
        Dockerfile="FROM python:3.11-slim\nARG CUDA_ARCH=8.6\nRUN echo ${CUDA_ARCH}\n",
        Makefile="CUDA_ARCH ?= 8.6\nimage:\n\tdocker build -t trainer .\n",
    ),
    "make-recipe-lines": lambda size: project(
        fence("export CUDA_ARCH=9.0\nmake image\n"),
        Dockerfile="FROM python:3.11-slim\nARG CUDA_ARCH=8.6\nRUN echo ${CUDA_ARCH}\n",
        Makefile="CUDA_ARCH ?= 8.6\nimage:\n"
        + lines(lambda k: f"\tdocker build --build-arg P{k}=$(P{k}) -t a{k} . && echo {k}\n", size),
    ),
    "pulled-runs": lambda size: (
        lambda n: project(
            fence("docker pull acme/llm-server:latest\n")
            + "\n"
            + fence("".join(f"make serve{k}\n" for k in range(n))),
            Dockerfile="FROM ubuntu:24.04\nRUN echo serve\n",
            Makefile="".join(f"serve{k}:\n\tPORT=9000 ./serve.sh {k}\n" for k in range(n)),
            **{
                "serve.sh": "#!/usr/bin/env bash\nARGS=(docker run --rm)\n"
                + "".join(f'IMAGE="llm-server-gfx{k}"\nARGS+=( -p {k}:{k} )\n' for k in range(n))
                + 'ARGS+=( "$IMAGE" )\n"${ARGS[@]}"\n'
            },
        )
    )(max(1, size // 120)),
    "sourced-defaults": lambda size: project(
        "## Configuration\n\nAll build settings live in `env.sh`:\n"
        + lines(lambda k: f"- `SET_{k}`: setting {k} (default: `v{k}.1`)\n", size // 2)
        + "\n## Build\n\n"
        + fence("./lib/build.sh\n"),
        **{
            "lib/Dockerfile": "ARG BASE=6.1\nFROM rocm/dev:${BASE}\nARG LIB_REF=v3\nRUN echo\n",
            "lib/build.sh": '#!/bin/bash\ncd "$(dirname "$0")/.."\nsource ./env.sh\n'
            + lines(lambda k: f'X{k}="${{{k % 9 + 1}:-d{k}}}"\nsource ./more{k % 5}.sh\n', size // 4)
            + 'podman build --build-arg LIB_REF="${SET_0}" -f lib/Dockerfile lib\n',
            **{f"more{k}.sh": f'export M{k}="${{M{k}:-{k}}}"\n' for k in range(5)},
            "env.sh": lines(lambda k: f'export SET_{k}="${{SET_{k}:-v{k}.2}}"\n', size // 4),
        },
    ),
    "copied-packages": lambda size: project(
        "# Speech\n\nWrite this `Dockerfile`:\n\n```dockerfile\nFROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
        "ENV DEBIAN_FRONTEND=noninteractive\nRUN apt-get update && apt-get install -y \\\n"
        + lines(lambda k: f"        lib{k}c \\\n", size // 2)
        + "    && rm -rf /var/lib/apt/lists/*\nRUN pip install speechkit tqdm\n```\n",
        Dockerfile="FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nENV DEBIAN_FRONTEND=noninteractive\n"
        "RUN apt-get update && apt-get install -y \\\n"
        + lines(lambda k: f"        lib{k}d \\\n", size // 2)
        + "    && rm -rf /var/lib/apt/lists/*\nRUN pip install speechkit gradio\n",
    ),
    "model-downloads": lambda size: project(
        lines(lambda k: f"The image includes a pre-downloaded model {k}, ready to go.\n", size // 2),
        Dockerfile="FROM nvidia/cuda:12.6.3-devel-ubuntu22.04\nRUN pip install clipgen\n"
        + lines(lambda k: f"# RUN huggingface-cli download acme/model{k} --local-dir /w{k}\n", size // 2),
    ),
    # The rules added after 337aa61, each made to do its most work.
    "copied-script-options": lambda size: project(
        "# Rover\n\n```bash:launch.sh\ndocker run --rm -it \\\n"
        + lines(lambda k: f"    -e V{k}=a{k} \\\n", size // 2)
        + "    rover:1\n```\n",
        **{
            "launch.sh": "docker run --rm -it --net=host \\\n"
            + lines(lambda k: f"    -e V{k}=b{k} \\\n", size // 2)
            + "    rover:1\n"
        },
    ),
    "blocks-after-script": lambda size: project(
        "# Rover\n\n"
        + lines(
            lambda k: f"```bash\nbash launch.sh\n```\n\n```bash\ndocker run -v /d{k}:/d rover:1\n```\n\n",
            size,
        ),
        **{"launch.sh": "docker run --rm -it --net=host rover:1\n"},
    ),
    "quoted-cmd-vars": lambda size: project(
        "# Lab\n\n## Environment variables\n\n| Variable | Meaning |\n|---|---|\n"
        + lines(lambda k: f"| `LAB_V{k}` | value {k} |\n", size // 2),
        Dockerfile="FROM ubuntu:22.04\nCMD lab serve "
        + lines(lambda k: f"--o{k}='$LAB_V{k}' ", size // 2)
        + "\n",
    ),
    "mpirun-lines": lambda size: project(
        "# Solver\n\n```shell\ndocker build -t acme/solver:1 .\n```\n\n```shell\n"
        "docker run -it acme/solver:1\n"
        + lines(lambda k: f"mpirun -np {k % 64 + 1} solver -in /d/in{k}\n", size)
        + "```\n",
        Dockerfile="FROM ubuntu:22.04\nRUN apt-get update && apt-get install -y openmpi-bin libopenmpi-dev\n",
    ),
    "volume-clauses": lambda size: project(
        "# Studio\n\n"
        + lines(lambda k: f"Weights {k} are mounted at `/w{k}`, and `-v ./x:/o{k}` too.\n", size // 2),
        Dockerfile="FROM ubuntu:24.04\nWORKDIR /srv/studio\n"
        + lines(lambda k: f"VOLUME /srv/studio/w{k} /srv/studio/o{k}\n", size // 2),
    ),
    "rehomed-mounts": lambda size: project(
        "# Kestrel\n\n```sh\n./launch.sh\n```\n",
        Dockerfile="FROM ubuntu:22.04\nRUN git clone https://example.com/lab/KestrelML /home/dev/KestrelML\n"
        "WORKDIR /home/dev/KestrelML\n",
        **{
            "launch.sh": "docker run --rm -it \\\n"
            + lines(lambda k: f'    -v "$PWD/c{k}":"/KestrelML/data/c{k}" \\\n', size)
            + "    lab/kestrel\n"
        },
    ),
    "cd-after-clones": lambda size: project(
        fence(
            lines(
                lambda k: (
                    f"git clone https://github.com/acme/tools{k % 3 or ''}.git\ncd tools{k % 3 or ''}\n"
                    "docker compose build\ncd deploy/cuda\ndocker compose build\ncd ../../..\n"
                ),
                size,
            )
        ),
        **{
            ".git/config": '[remote "origin"]\n\turl = https://github.com/acme/tools.git\n',
            ".git/HEAD": "",
            "deploy/cuda/Dockerfile.cuda": "FROM python:3.12-slim\n",
            "deploy/cuda/docker-compose.mac.yml": "services:\n  web:\n    build: .\n",
        },
    ),
    "shell-entrypoint-runs": lambda size: project(
        "# Clip\n\n```bash\ndocker build -t clip-worker .\n```\n\n"
        + fence(lines(lambda k: f"docker run --gpus all -e K={k} clip-worker\n", size)),
        Dockerfile='FROM ubuntu:22.04\nWORKDIR /srv\nENTRYPOINT ["/bin/bash", "-c"]\n',
    ),
    "copy-exposes": lambda size: project(
        "# Server\n\nChange your own Dockerfile to taste.\n\n"
        + lines(lambda k: f"Step {k} of the guide.\n\n", size // 4)
        + "Create `Dockerfile` and paste the following content:\n\n"
        + "```dockerfile\nFROM ubuntu:22.04\nCOPY run.sh bench.py /llm/\n"
        + lines(lambda k: f"EXPOSE {1000 + k}\n", size // 4)
        + "EXPOSE 99\n```\n",
        Dockerfile="FROM ubuntu:22.04\nCOPY run.sh bench.py /llm/\n"
        + lines(lambda k: f"EXPOSE {1000 + k}\n", size // 4),
    ),
    "moved-clones": lambda size: project(
        fence(
            "docker run --gpus all -ti -v $(pwd):/srv/input solver:gpu\n"
            + lines(
                lambda k: f"cd /srv/flowsolve{k % 40}/run{k} && fs -in /srv/flowsolve{k % 40}/b/in{k}\n",
                size // 2,
            )
        ),
        Dockerfile="FROM nvidia/cuda:12.2.0-devel-ubuntu22.04\n"
        + lines(
            lambda k: (
                f"RUN git clone https://github.com/acme/flowsolve{k}.git /flowsolve{k} && cd /flowsolve{k}\n"
            ),
            size // 2,
        ),
    ),
    "clone-scripts": lambda size: project(
        lines(
            lambda k: (
                f"## Run TrackFormerX {k}\n\n```bash\ndocker run --gpus all -it --rm tracker\n"
                f"python tools/track{k}.py --video demo{k}.mp4\n```\n\n"
                f'Inside of the docker container, try TrackFormerX with "python3 infer{k}.py".\n\n'
            ),
            size,
        ),
        Dockerfile="FROM nvidia/cuda:12.1.0-cudnn8-devel-ubuntu22.04\nWORKDIR /workspace\n"
        "RUN git clone --depth 1 https://github.com/acme/TrackFormerX.git\n"
        + lines(lambda k: f"RUN git clone https://github.com/acme/tracker{k}\n", size // 4),
    ),
    "script-mounts": lambda size: project(
        "# Lab\n\nRun [start-lab.sh](start-lab.sh) with your notes folder.\n\n"
        + lines(lambda k: f"1. In the container `notes{k}` mounts as `/lab/n{k}`.\n", size // 2),
        **{
            "start-lab.sh": "#!/usr/bin/env bash\ndocker run -d --rm -P \\\n"
            + lines(lambda k: f'      "--volume=$NOTES{k}:/home/dana/notes{k}" \\\n', min(size // 2, 60_000))
            + "      dana/notelab\n"
        },
    ),
    "entered-flags": lambda size: project(
        fence(
            lines(lambda k: f"docker run -{'d' * (k % 30)}i --rm -p {k}:80 app{k}\n./nodes/run{k}.sh\n", size)
        )
    ),
    "default-branches": lambda size: project(
        "## Applications\n\n" + lines(lambda k: f"- `solver{k}` 3.{k} built with MPICH\n", size // 2),
        Dockerfile="FROM sci-python-base\n"
        + lines(
            lambda k: f"RUN git clone https://github.com/example/solver{k} s{k} && cd s{k} && make install\n",
            size // 2,
        ),
    ),
    "left-out-flavours": lambda size: project(
        lines(lambda k: f"Image {k} is based on `nvidia/cuda:9.0-ubuntu16.04`, step {k}.\n", size),
        Dockerfile="FROM nvidia/cuda:9.0-devel-ubuntu16.04\nRUN apt-get update\n",
    ),
    "disabled-ppas": lambda size: project(
        "## What the image holds\n\n" + lines(lambda k: f"- Python 3.{k} (from owner{k}/ppa)\n", size // 2),
        Dockerfile="FROM ubuntu:24.04\n"
        "RUN apt-get update && apt-get install -y software-properties-common \\\n"
        + lines(lambda k: f"#    && add-apt-repository -y ppa:owner{k}/ppa \\\n", size // 2)
        + "    && apt-get install -y python3\n",
    ),
    "container-name-runs": lambda size: project(
        fence(
            "docker compose up -d --build\n"
            + lines(lambda k: f"docker run -it --rm lab_env{k % 50}\n", size // 2)
        ),
        **{
            "docker-compose.yml": "services:\n"
            + lines(
                lambda k: (
                    f"  lab{k}:\n    build:\n      context: .\n      dockerfile: Dockerfile\n"
                    f"    container_name: lab_env{k}\n"
                ),
                size // 2,
            )
        },
    ),
    # the rules of this session checked for cost (hostile8): each at its most work
    "env-slips": lambda size: project(
        lines(lambda k: f"- `SETTING_{k:05d}_VALEU` sets the value {k}\n", size // 2),
        **{"settings.sh": lines(lambda k: f"SETTING_{k:05d}_VALUE=1\n", size // 2)},
    ),
    "owner-slips": lambda size: project(
        lines(lambda k: f"Pull `majestic/app{k}-wroker:1` for run {k}.\n", size // 2),
        **{
            ".github/workflows/ci.yml": "on: push\n"
            + lines(lambda k: f"# tags: majestic/app{k}-worker:1\n", size // 2)
        },
    ),
    "fetched-copies": lambda size: project(
        fence("docker build -t app .\n"),
        Dockerfile="FROM python:3.12-slim\n"
        + lines(lambda k: f"ARG M{k}=m{k}.pth\nCOPY ./${{M{k}}} /m/\n", size // 4),
    ),
    "prose-builds": lambda size: project(
        lines(lambda k: f"docker build -t app{k} .\n\n", size // 4),
        Dockerfile="FROM python:3.12-slim\nARG M=model.safetensors\nCOPY ./${M} /m/\n",
    ),
    # The rules of the session of 7 December (second round): installed-version listings, installer
    # options, card support claims, Makefile separators, script arguments, copies onto themselves.
    "listed-versions": lambda size: project(
        "## Installed versions\n\n" + fence(lines(lambda k: f"pkg{k}:{' ' * 20}1.{k}.0\n", size // 2)),
        Dockerfile="FROM python:3.12-slim\nRUN pip install "
        + lines(lambda k: f"pkg{k}==1.{k}.1 ", size // 2)
        + "\n",
    ),
    "installer-options": lambda size: project(
        fence("docker build -t app .\n"),
        Dockerfile="FROM python:3.12-slim\nRUN pip install "
        + repeat("--no-cache-dri -upgrade ", size)
        + "x\n",
    ),
    "support-claims": lambda size: project(
        repeat("The image supports A100, H100 and RTX 4090 cards. ", size) + "\n",
        Dockerfile='FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="8.6"\n'
        "RUN python setup.py install\n",
    ),
    "makefile-separators": lambda size: project(
        fence("make build\n"),
        Makefile="build:\n\tdocker build -t app .\n"
        + lines(lambda k: f"t{k}:\n        echo {k}\n" if k % 2 else f"t{k}:\n\techo {k}\n", size),
    ),
    "script-arguments": lambda size: project(
        "# Tool\n\n```bash\ndocker build -t tool .\n```\n\n"
        + fence(lines(lambda k: f"docker run tool --cpu{k} -i in{k}.tif\n", size)),
        Dockerfile='FROM python:3.12-slim\nCOPY main.py /app/\nENTRYPOINT ["python", "/app/main.py"]\n',
        **{
            "main.py": "import argparse\np = argparse.ArgumentParser()\n"
            "p.add_argument('-d', '--device', required=True)\np.add_argument('-i', '--input')\n"
            "p.parse_args()\n"
        },
    ),
    "self-copies": lambda size: project(fence(lines(lambda k: f"cp conf{k}.yaml conf{k}.yaml\n", size))),
    # The rules of the session of 7 December (third round): binds hiding what a RUN made, applied
    # manifests, checkouts in shallow clones, start programs a letter off, folders the image puts
    # elsewhere, paths at the top missing a mount, CI said to build, compose names, program slips, gone
    # Dockerfiles beside a variant, runs cut off above a deeper option.
    "hidden-paths": lambda size: project(
        "# Trainer\n\n```bash\ndocker build -t lab/trainer .\n```\n\n"
        + fence(lines(lambda k: f"docker run --rm -e K={k} -v $(pwd):/srv lab/trainer\n", size // 2)),
        Dockerfile="FROM python:3.12-slim\nWORKDIR /srv\nCOPY . .\n"
        + lines(lambda k: f"RUN python3 -m venv env{k} && env{k}/bin/pip install pkg{k}\n", size // 2)
        + 'CMD ["/bin/bash", "-c", "source env0/bin/activate && python fit.py"]\n',
        **{"fit.py": "print(1)\n"},
    ),
    "applied-images": lambda size: project(
        "# Jobs\n\n"
        + fence(
            lines(lambda k: f"docker build -t acme/job{k}:2.0 .\nkubectl apply -f k8s/jobs.yaml\n", size // 2)
        ),
        **{
            "k8s/jobs.yaml": lines(
                lambda k: (
                    f"---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: job{k}\nspec:\n  containers:\n"
                    f"    - name: job{k}\n      image: acme/job{k}:1.0\n"
                ),
                size // 2,
            )
        },
    ),
    "shallow-checkouts": lambda size: project(
        fence("docker build -t lathe:dev .\n"),
        Dockerfile="FROM python:3.11-slim\nWORKDIR /workspace\n"
        + lines(
            lambda k: (
                f"RUN git clone --depth 1 https://example.org/forge/t{k}.git /w/t{k} && cd /w/t{k} "
                f"&& git checkout v0.{k}.0\n"
            ),
            size,
        ),
    ),
    "slipped-programs": lambda size: project(
        "# Tuner\n\n```bash\ndocker build -t tuner .\n```\n\n"
        + fence(lines(lambda k: f"docker run --rm -e K={k} tuner launch run{k}.py\n", size // 2)),
        Dockerfile="FROM python:3.11-slim\nWORKDIR /workspace\n"
        + lines(lambda k: f"RUN pip install --no-cache-dir pkg{k} accelerate\n", size // 2)
        + 'ENTRYPOINT ["accelrate", "launch", "finetune.py"]\n',
    ),
    "moved-folders": lambda size: project(
        "# Segmenter\n\n```bash\ndocker build -t seg .\n```\n\n"
        + fence(lines(lambda k: f"docker run --rm seg python seg{k}/tests/t{k}.py\n", size // 2)),
        Dockerfile="FROM python:3.11-slim\nWORKDIR /root\n"
        + lines(lambda k: f"RUN git clone https://example.org/acme/seg{k}.git /seg{k}\n", size // 2),
    ),
    "top-mount-paths": lambda size: project(
        "# Pose\n\n```\ndocker build -t posekit-demo .\n```\n\n```\ndocker run --rm -it \\\n"
        + lines(lambda k: f"    -v $(pwd)/w{k}:/srv/posekit/w{k} \\\n", size // 2)
        + "    -w /srv/posekit \\\n    posekit-demo /bin/bash\n```\n\n```\n"
        + lines(lambda k: f"python tools/demo.py --weights /w{k}/coco/w32.pth\n", size // 2)
        + "```\n",
        Dockerfile="FROM python:3.11-slim\nWORKDIR /srv/posekit\nCOPY . .\n",
    ),
    "unbuilt-ci-claims": lambda size: project(
        "# gpu-smoke\n\n"
        + lines(lambda k: f"- step {k}: the CI workflow builds and pushes the image to GHCR.\n", size // 2),
        **{
            ".github/workflows/smoke.yml": "name: smoke\non:\n  push:\n    branches: [trunk]\njobs:\n"
            "  build:\n    runs-on: ubuntu-latest\n    steps:\n"
            + lines(
                lambda k: (
                    f"      - run: echo {k}\n      # - uses: docker/build-push-action@v6\n"
                    f"      #   with:\n      #     tags: ghcr.io/quill/smoke{k}\n"
                ),
                size // 2,
            )
        },
    ),
    "compose-names": lambda size: project(
        lines(
            lambda k: (
                f"Build the image (tag: `nb-lab{k}`):\n\n"
                + fence(f"docker compose up --build nb-lab{k}\n")
                + "\n"
            ),
            size // 2,
        ),
        **{
            "docker-compose.yml": "services:\n"
            + lines(lambda k: f"  nb-lab{k}:\n    build: .\n    container_name: nb-lab{k}\n", size // 2)
        },
    ),
    "program-slips": lambda size: project(
        fence(lines(lambda k: f"kubectl create -f w{k}.yaml\nkubect create -f l{k}.yaml\n", size))
    ),
    "near-variants": lambda size: project(
        lines(lambda k: f"Build `docker/carla{k % 40}.Dockerfile` for run {k}.\n", size),
        **{f"docker/carla{k}15.Dockerfile": "FROM ubuntu:22.04\n" for k in range(40)},
    ),
    "stage-chain": lambda size: project(
        fence("docker build -t app .\n"),
        Dockerfile="FROM python:3.11 AS s0\nWORKDIR /app\n"
        + "".join(
            f"FROM s{k} AS s{k + 1}\nRUN pip install -r req{k + 1}.txt\nCOPY req{k + 1}.txt .\n"
            for k in range(size // 60)
        ),
        **{f"req{k + 1}.txt": "requests==2.31.0\n" for k in range(size // 60)},
    ),
    "unjoined-runs": lambda size: project(
        fence(lines(lambda k: f"docker run -it --rm\n    -v /d{k}:/d{k} \\\n    acme/app:{k}\n", size))
    ),
}


def timed_project(folder: Path, files: dict[str, str], rounds: int) -> float:
    """Best seconds of `docgen audit README.md --confidence likely` in a fresh folder holding `files`."""
    folder.mkdir()
    for rel, content in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(content)
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            main(["audit", "README.md", "--confidence", "likely"], stdout=io.StringIO(), stderr=io.StringIO())
            times.append(time.perf_counter() - start)
    finally:
        os.chdir(cwd)
    return min(times)


def timed(folder: Path, text: str, rounds: int) -> float:
    """Best seconds of `docgen audit README.md --confidence likely` with `text` as the README."""
    (folder / "README.md").write_text(text)
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        main(["audit", "README.md", "--confidence", "likely"], stdout=io.StringIO(), stderr=io.StringIO())
        times.append(time.perf_counter() - start)
    return min(times)


def main_bench() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds per measurement (best is kept)")
    parser.add_argument("--size", type=int, default=20_000, help="characters of the smaller README")
    parser.add_argument("--only", nargs="*", default=[], help="shapes to measure (default: all)")
    args = parser.parse_args()
    unknown = [name for name in args.only if name not in SHAPES and name not in PROJECTS]
    if unknown:
        parser.error(f"unknown shapes: {', '.join(unknown)}")
    failures = []
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, best of {args.rounds} rounds\n")
    print("| Shape | n | 4n | Ratio | Budget |")
    print("|---|---|---|---|---|")
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "Dockerfile").write_text(DOCKERFILE)
        for rel, content in FILES.items():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_text(content)
        os.chdir(folder)
        try:
            timed(folder, "# Empty\n", 1)  # the first audit of a process reads what later ones reuse
            empty = timed(folder, "# Empty\n", args.rounds)
            for name, make in SHAPES.items():
                if args.only and name not in args.only:
                    continue
                small = timed(folder, make(args.size), args.rounds) - empty
                large = timed(folder, make(4 * args.size), args.rounds) - empty
                ratio = large / max(small, 1e-3)
                print(f"| {name} | {small:.3f} s | {large:.3f} s | {ratio:.1f}× | ≤ 5× |", flush=True)
                if ratio > 5:
                    failures.append(name)
            empty_project = timed_project(folder / "empty", project("# Empty\n"), args.rounds)
            for name, build in PROJECTS.items():
                if args.only and name not in args.only:
                    continue
                small = timed_project(folder / f"{name}-n", build(args.size), args.rounds) - empty_project
                large = (
                    timed_project(folder / f"{name}-4n", build(4 * args.size), args.rounds) - empty_project
                )
                ratio = large / max(small, 1e-3)
                print(f"| {name} | {small:.3f} s | {large:.3f} s | {ratio:.1f}× | ≤ 5× |", flush=True)
                if ratio > 5:
                    failures.append(name)
        finally:
            os.chdir(cwd)
    print(f"\n(an empty README: {empty:.3f} s, taken off each time)")
    if failures:
        print(f"\nover budget: {', '.join(failures)}")
        return 1
    print("\nall within budget")
    return 0


if __name__ == "__main__":
    sys.exit(main_bench())
