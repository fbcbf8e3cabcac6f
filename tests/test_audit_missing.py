"""`docgen audit`: links to files of the repository that do not exist, and paths in code in the prose
a slip away from a file that does (docgen/audit/missing.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import findings, make_tree, run

from docgen.audit import audit
from docgen.audit.missing import PLACEHOLDER
from docgen.dockerfile import parse_dockerfile
from docgen.markdown import destinations
from docgen.pipeline import model_of

DOCKERFILE = {"Dockerfile": "FROM ubuntu:22.04\nRUN true\n"}


def _repo(root: Path, files: dict[str, str]) -> Path:
    """A repository (a `.git` folder at `root`) holding `files`."""
    (root / ".git").mkdir()
    make_tree(root, files)
    return root


def test_a_relative_link_to_a_file_that_is_not_there(tmp_path: Path) -> None:
    _repo(tmp_path, {"build.sh": "", "tools/l4t-base/Dockerfile": "FROM x\n", "tools/app/Dockerfile": ""})
    readme = (
        "# App\n\n"
        "Built from [`l4t-base`](l4t-base), see the [build script](build.sh).\n\n"
        "Licensed under the terms in [COPYING](COPYING).\n"
    )
    assert findings(readme, DOCKERFILE, tmp_path / "tools" / "app") == [
        "3: README links to l4t-base, which does not exist (did you mean ../l4t-base?)",
        "3: README links to build.sh, which does not exist (did you mean ../../build.sh?)",
        "5: README links to COPYING, which does not exist",
    ]


def test_a_missing_link_is_certain_and_a_slip_is_named(tmp_path: Path) -> None:
    _repo(tmp_path, {"scripts/run_server.sh": ""})
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "Dockerfile"))
    found = audit("Start it with [run-server](scripts/run-server.sh).\n", "README.md", model, {}, tmp_path)
    assert [(d.message, d.confidence) for d in found] == [
        (
            "README links to scripts/run-server.sh, which does not exist "
            "(did you mean scripts/run_server.sh?)",
            "certain",
        )
    ]


def test_every_form_of_link_is_checked(tmp_path: Path) -> None:
    _repo(tmp_path, {})
    readme = (
        "![diagram](img/arch.png)\n\n"
        '<img src="img/logo.svg" width="100"> and <a href="docs/setup.md#gpu">setup</a>\n\n'
        "See the [guide][g].\n\n"
        "[g]: docs/guide.md\n\n"
        "| Step | Script |\n|---|---|\n| 1 | [prepare](prepare.sh) |\n\n"
        "<table>\n<tr><td>Arch</td></tr>\n<tr><td><img src='img/gpu.png'></td></tr>\n</table>\n"
    )
    assert findings(readme, DOCKERFILE, tmp_path) == [
        "1: README links to img/arch.png, which does not exist",
        "3: README links to img/logo.svg, which does not exist",
        "3: README links to docs/setup.md, which does not exist",
        "7: README links to docs/guide.md, which does not exist",
        "11: README links to prepare.sh, which does not exist",
        "15: README links to img/gpu.png, which does not exist",
    ]


def test_links_that_resolve_or_are_not_files_of_the_repository(tmp_path: Path) -> None:
    _repo(
        tmp_path,
        {
            "docs/guide.md": "",
            "docs/my file.md": "",
            "app/run.py": "",
            "app/scripts/x.sh": "",
            ".gitignore": "results/\n*.log\n",
            ".gitmodules": '[submodule "lib"]\n\tpath = third_party/lib\n\turl = https://example.com/lib.git\n',
        },
    )
    readme = (
        "[line](run.py#L10) [raw](run.py?raw=true) [space](../docs/my%20file.md) [root](/docs/guide.md)\n"
        "[folder](scripts/) [up](../docs/guide.md) [anchor](#usage) [web](https://example.com/x.md)\n"
        "[mail](mailto:a@b.c) [issues](../../issues) [blob](../../blob/main/LICENSE)\n"
        "[plot](results/plot.png) [log](train.log) [site](site/index.html) [built](build/html/index.html)\n"
        "[tpl]({{ site.baseurl }}/x.md) [var]($DOCS/x.md) [outside](../../other-repo/README.md)\n"
        "[model](weights/model.bin) [Dockerfile](Dockerfile.gone) [vendored](../third_party/lib/README.md)\n"
        "[mail](maintainers@example.com) [site](www.example.com/docs)\n\n"
        "```bash\nwget https://example.com/model.bin -O weights/model.bin\n[fenced](missing.md)\n```\n\n"
        "<!-- [commented](missing.md) -->\n"
    )
    found = findings(readme, DOCKERFILE, tmp_path / "app")
    # Only the Dockerfile link is reported, by the rule for Dockerfiles that are gone.
    assert found == [
        "6: README links to Dockerfile.gone, which does not exist (the Dockerfile is gone or moved; "
        "compared with Dockerfile, which it most likely means now)"
    ]


def test_without_the_readmes_folder_nothing_is_looked_up() -> None:
    assert findings("See [COPYING](COPYING) and run `build.docker.sh`.\n", DOCKERFILE) == []


def test_pages_of_a_mkdocs_site(tmp_path: Path) -> None:
    _repo(tmp_path, {"mkdocs.yml": "site_name: x\n", "docs/index.md": "", "docs/img/a.png": ""})
    readme = "[usage](usage/) [api](reference/api) [page](cli.html) [img](img/a.png) [gone](install.md)\n"
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "Dockerfile"))
    found = audit(readme, "docs/index.md", model, {}, tmp_path / "docs")
    assert [(d.message, d.confidence) for d in found] == [
        ("README links to install.md, which does not exist", "likely")
    ]


@pytest.mark.parametrize(
    "marker",
    ["(setup-guide)=\n\n# Setup\n", "# Setup\n\n```{note}\nRead the data page first.\n```\n"],
)
def test_a_label_link_of_a_myst_page_is_no_file(tmp_path: Path, marker: str) -> None:
    _repo(tmp_path, {"docs/guide.md": ""})
    readme = (
        marker + "\nSee [Data](training-data) and [the guide](guide.md); [gone](usage.md), [sub](cli/run).\n"
    )
    found = findings(readme, DOCKERFILE, tmp_path / "docs")
    # a bare name is a Sphinx label there; a file name or a path is still a file (traps)
    assert [f.split(":", 1)[1].strip() for f in found] == [
        "README links to usage.md, which does not exist",
        "README links to cli/run, which does not exist",
    ]


def test_a_bare_name_in_a_plain_page_is_still_a_file(tmp_path: Path) -> None:
    _repo(tmp_path, {"docs/guide.md": ""})
    readme = "# Setup\n\n(see below)=\n\nSee [Data](training-data) and the [license](LICENSE).\n"
    found = findings(readme, DOCKERFILE, tmp_path / "docs")
    assert [f.split(":", 1)[1].strip() for f in found] == [
        "README links to training-data, which does not exist",
        "README links to LICENSE, which does not exist",
    ]


def test_a_path_in_code_a_slip_away_from_a_file(tmp_path: Path) -> None:
    _repo(tmp_path, {"build_docker.sh": "", ".github/workflows/main.yml": ""})
    readme = (
        "## Build\n\n"
        "- Run `build.docker.sh`\n\n"
        "Change the image name in the workflow file: `.github/workflow/main.yml`\n"
    )
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "Dockerfile"))
    found = audit(readme, "README.md", model, {}, tmp_path)
    assert [(d.line, d.message, d.confidence) for d in found] == [
        (3, "README names build.docker.sh, which does not exist (did you mean build_docker.sh?)", "certain"),
        (
            5,
            "README names .github/workflow/main.yml, which does not exist "
            "(did you mean .github/workflows/main.yml?)",
            "likely",
        ),
    ]


@pytest.mark.parametrize(
    ("said", "files", "expected"),
    [
        # the suffix written the other way: the same file
        ("docker-compose.yml", {"docker-compose.yaml": ""}, ("docker-compose.yaml", "certain")),
        ("deploy/values.yaml", {"deploy/values.yml": ""}, ("deploy/values.yml", "certain")),
        ("Build-Docker.sh", {"build_docker.sh": ""}, ("build_docker.sh", "certain")),
        # one letter more or less in a name: most likely the file, maybe another one, but a compose
        # file's slip is certain by its record
        ("docker-compose.gpu.yml", {"docker-compose.gpus.yml": ""}, ("docker-compose.gpus.yml", "certain")),
        ("scripts/setup-gpu.sh", {"scripts/setup-gpus.sh": ""}, ("scripts/setup-gpus.sh", "likely")),
        ("config/setting.yaml", {"config/settings.yml": ""}, None),  # two slips: no single correction
        # another name, not a slip of one: not this rule's
        ("compose.yml", {"docker-compose.yaml": ""}, None),
        # both files are there
        ("docker-compose.yml", {"docker-compose.yml": "", "docker-compose.yaml": ""}, None),
        # a case of a file that is no script: prose writes names in any case
        ("Docker-Compose.yaml", {"docker-compose.yaml": ""}, None),
    ],
)
def test_a_path_in_code_spelt_as_a_file_there(
    tmp_path: Path, said: str, files: dict[str, str], expected: tuple[str, str] | None
) -> None:
    _repo(tmp_path, files)
    readme = f"## Run\n\nStart the stack defined in `{said}` with docker compose.\n"
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "Dockerfile"))
    found = [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, tmp_path)]
    # (the checkout holds no file of the name at all: `setup_files.named_nowhere` says so, not this rule)
    found = [f for f in found if "anywhere in the checkout" not in f[1]]
    meant = (
        []
        if expected is None
        else [(3, f"README names {said}, which does not exist (did you mean {expected[0]}?)", expected[1])]
    )
    assert found == meant


def test_a_path_a_command_of_the_readme_makes_is_no_slip(tmp_path: Path) -> None:
    _repo(tmp_path, {"docker-compose.yaml": "", "config.example.yaml": ""})
    readme = (
        "## Run\n\n```bash\ncp config.example.yaml config.yml\n```\n\n"
        "Edit `config.yml`, then start `docker-compose.yaml`.\n"
    )
    assert findings(readme, DOCKERFILE, tmp_path) == []


def test_a_compose_file_a_slip_away_is_shown_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # certain for a compose file, the one that runs the image: shown without --confidence likely
    _repo(tmp_path, {**DOCKERFILE, "docker-compose.yaml": "services: {}\n"})
    (tmp_path / "README.md").write_text(
        "# App\n\n## Troubleshooting\n\nMake sure `shm_size: 8gb` is set in `docker-compose.yml`.\n"
    )
    monkeypatch.chdir(tmp_path)
    result = run("audit", "README.md")
    assert result.code == 1
    assert (
        "README.md:5: error: README names docker-compose.yml, which does not exist "
        "(did you mean docker-compose.yaml?) [DG102] (certain)"
    ) in result.out


@pytest.mark.parametrize(
    "line",
    [
        "Copy `docker-compose.yaml` to `docker-compose.yml` and set your paths there.",
        "Create a `docker-compose.yml` of your own next to it.",
        "Rename `config.yaml` to `config.yml`, or save it as `configs/local.yaml`.",
    ],
)
def test_a_file_the_reader_makes_a_slip_away_is_no_slip(tmp_path: Path, line: str) -> None:
    _repo(tmp_path, {"docker-compose.yaml": "", "config.yaml": "", "configs/local.yml": ""})
    assert findings(f"## Setup\n\n{line}\n", DOCKERFILE, tmp_path) == []


def test_a_file_the_reader_made_earlier_is_theirs_further_down(tmp_path: Path) -> None:
    # the README has the reader create `docker-compose.yml` (the repository's is `.yaml`): a later
    # `your `docker-compose.yml`` is that file; a name only copied from is not made
    _repo(tmp_path, {"docker-compose.yaml": "", "settings.example.yaml": ""})
    readme = (
        "## Run\n\nCreate a `docker-compose.yml` file with the services below.\n\n"
        "Copy `settings.example.yml` to `settings.local.yaml`.\n\n"
        "## Models\n\nSet `MODEL_ID` in your `docker-compose.yml` for each service.\n\n"
        "The defaults are in `settings.example.yml`.\n"
    )
    assert findings(readme, DOCKERFILE, tmp_path) == [
        "11: README names settings.example.yml, which does not exist (did you mean settings.example.yaml?)"
    ]


def test_a_link_to_the_source_of_a_copy_is_checked(tmp_path: Path) -> None:
    # a copy makes its destination, not its source: a link to the file it copies from must exist;
    # a destination folder (`.`) makes the copied file's name there
    _repo(tmp_path, {"settings.yml.sample": "", "tools/extra.yml": ""})
    readme = (
        "## Setup\n\nThe image ships a sample, [`settings_sample.yml`](./settings_sample.yml):\n\n"
        "```bash\ncp /opt/app/settings_sample.yml /data/settings.yml && ls /data\n"
        "cp /opt/app/notes.md .\n```\n\n"
        "Then edit [settings.yml](settings.yml); see [notes](notes.md) and [extra](extra.yml).\n"
    )
    assert findings(readme, DOCKERFILE, tmp_path) == [
        "3: README links to ./settings_sample.yml, which does not exist",
        "10: README links to extra.yml, which does not exist",
    ]


def test_paths_in_code_that_are_no_slip(tmp_path: Path) -> None:
    _repo(
        tmp_path,
        {
            "build_docker.sh": "",
            "train_v1.py": "",
            "configs/base.yaml": "",
            "nvidia/README.md": "",
            "run.sh": "",
            "README.md": "",
            "tools/build_docker.sh": "",
        },
    )
    readme = (
        "Run `build_docker.sh`, then `start.sh` (no file near it).\n"
        "Inside the container the entrypoint is `/opt/app/build.docker.sh` and `~/build.docker.sh`.\n"
        "Copy `path/to/build.docker.sh`, `<name>.sh`, `$HOME/run.sh` or `your_build.docker.sh`.\n"
        "The next release is `train_v2.py`; the image is `nvidia/cuda`; `torch.nn` is a module.\n"
        "Generated: `output/config.yaml`; the README of [`build.docker.sh`](build_docker.sh) links it.\n\n"
        "```bash\nmkdir -p output && cp configs/base.yaml output/config.yaml\n```\n\n"
        "The image pulls `github.com/build.docker.sh`. Read `readme.md` first.\n"
        "Then run `tools/build.docker.sh`:\n\n```bash\n./tools/build.docker.sh\n```\n"
    )
    # no slip; but the checkout holds no start.sh at all, which `setup_files.named_nowhere` tells (and
    # nothing of the next release's `train_v2.py`)
    assert findings(readme, DOCKERFILE, tmp_path) == [
        "1: README names start.sh, which the repository does not hold: no file start.sh is anywhere in the "
        "checkout"
    ]


def test_destinations_of_every_link_form() -> None:
    assert destinations('[a](a.md) ![b](b.png "t") <a href="c.html#x">c</a> <img src=d.png>') == [
        "a.md",
        "b.png",
        "c.html#x",
        "d.png",
    ]
    assert destinations("[docs]: <docs/my page.md> 'title'") == ["docs/my page.md"]
    # A footnote, a sentence that looks like a definition, and HTML in code are no links.
    assert destinations("[^1]: see below") == []
    assert destinations("[Optional]: set FOO to 1") == []
    assert destinations('Use `<a href="x.md">` here') == []


def test_pages_a_mkdocs_plugin_may_add(tmp_path: Path) -> None:
    _repo(
        tmp_path,
        {"mkdocs.yml": "site_name: x\nplugins:\n  - search\n  - gen-files:\n      scripts: [a.py]\n"},
    )
    readme = "[ref](reference/api.md) [img](img/gone.png)\n"
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "Dockerfile"))
    found = audit(readme, "docs/index.md", model, {}, tmp_path / "docs")
    assert [(d.message, d.confidence) for d in found] == [
        ("README links to img/gone.png, which does not exist", "likely")
    ]


def test_a_link_from_the_repository_root(tmp_path: Path) -> None:
    _repo(tmp_path, {"docs/guide.md": "", "app/x": ""})
    readme = "[guide](/docs/guide.md) [typo](/docs/guid.md) [gone](/docs/faq.md)\n"
    assert findings(readme, DOCKERFILE, tmp_path / "app") == [
        "1: README links to /docs/guid.md, which does not exist (did you mean /docs/guide.md?)",
        "1: README links to /docs/faq.md, which does not exist",
    ]


def test_a_link_from_the_root_of_a_checkout_without_git(tmp_path: Path) -> None:
    # no `.git` nor `pyproject.toml`: the root is one of the folders from the README's up to the project
    make_tree(tmp_path, {"ubuntu-18.04/Dockerfile": DOCKERFILE["Dockerfile"], "docs/guide.md": ""})
    readme = "[compose](/ubuntu-18.04/docker-compose.yml) [guide](/docs/guide.md) [here](/README.md)\n"
    (tmp_path / "README.md").write_text(readme)
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "ubuntu-18.04/Dockerfile"))
    found = audit(readme, "README.md", model, {}, tmp_path, tmp_path)
    assert [(d.message, d.confidence) for d in found] == [
        ("README links to /ubuntu-18.04/docker-compose.yml, which does not exist", "certain")
    ]
    # from a folder above the checkout (`docgen audit` run there): the README's folder is still a root
    assert [d.message for d in audit(readme, "README.md", model, {}, tmp_path, tmp_path.parent)] == [
        "README links to /ubuntu-18.04/docker-compose.yml, which does not exist"
    ]
    # nothing is read outside the project: a README outside it has no root, as before
    assert audit(readme, "README.md", model, {}, tmp_path, tmp_path / "docs") == []
    assert audit(readme, "README.md", model, {}, tmp_path) == []


def test_the_command_line_reports_a_missing_file(chdir_tmp: Path) -> None:
    _repo(
        chdir_tmp,
        {"img/Dockerfile": DOCKERFILE["Dockerfile"], "img/build_image.sh": "", "img/README.md": ""},
    )
    (chdir_tmp / "img/README.md").write_text("Run `build_imge.sh`, then see [NOTES](NOTES.md).\n")
    result = run("audit", "img/README.md", "--confidence", "certain")
    assert result.code == 1
    assert result.out == (
        "img/README.md:1: error: README links to NOTES.md, which does not exist [DG102] (certain)\n"
        "1 claim in img/README.md contradicts the repository: a file it names or needs is missing "
        "(1 likely one not shown: --confidence likely shows them)\n"
    )
    # the nearest truth: a claim about the image beside it is said to contradict the Dockerfile too
    (chdir_tmp / "img/README.md").write_text("Built on Ubuntu 20.04. See [NOTES](NOTES.md).\n")
    result = run("audit", "--confidence", "likely", "img/README.md")
    assert result.out.splitlines()[-1] == (
        "2 claims in img/README.md contradict img/Dockerfile or the repository (1 of a missing file)"
    )


def test_ignore_files_are_read_alike_for_links_and_copy_sources(tmp_path: Path) -> None:
    from docgen.audit.paths import ignore_patterns, ignores

    (tmp_path / ".gitignore").write_text("# build output\n/dist/\n!keep.log\n\n*.log\ndocs/*.html\n")
    patterns = ignore_patterns(tmp_path / ".gitignore")
    assert patterns == ["dist", "*.log", "docs/*.html"]
    assert [p for p in patterns if ignores(p, ("out", "run.log"))] == ["*.log"]
    assert [p for p in patterns if ignores(p, ("dist", "app.whl"))] == ["dist"]
    assert [p for p in patterns if ignores(p, ("docs", "api", "x.html"))] == ["docs/*.html"]
    assert not ignores("out*log", ("out", "log"))  # a `*` does not cross folders
    assert ignore_patterns(tmp_path / "missing") == []
    (tmp_path / ".dockerignore").write_text("x\n" * 2000 + "late\n")  # read up to a bound
    assert "late" not in ignore_patterns(tmp_path / ".dockerignore")


def test_a_link_whose_address_is_wrapped_in_parentheses(tmp_path: Path) -> None:
    _repo(tmp_path, {})
    readme = (
        "Powered by [Dev Containers]((https://containers.dev/overview)).\n"
        "See [the spec](https://containers.dev/(spec)) and [home](<https://containers.dev>).\n"
    )
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "Dockerfile"))
    found = audit(readme, "README.md", model, {}, tmp_path)
    assert [(d.line, d.message, d.confidence) for d in found] == [
        (
            1,
            "README links to (https://containers.dev/overview), a malformed link: the address "
            "https://containers.dev/overview is wrapped in parentheses",
            "certain",
        )
    ]


def test_a_link_to_the_running_apps_address_is_no_file(tmp_path: Path) -> None:
    # A Gradio demo's steps link to where the app answers, written without `http://`; a Flask API's
    # README links its docs page on the loopback address and an IPv6 one. None is a file; the one
    # link to a file of the repository that is not there is still reported.
    _repo(tmp_path, {"app.py": ""})
    readme = (
        "# Demo\n\n"
        "1. Run `docker run -p 127.0.0.1:8000:8000 demo`\n"
        "2. Go to [127.0.0.1:8000](127.0.0.1:8000) and use the example app\n\n"
        "The API docs are at [0.0.0.0:5000/docs](0.0.0.0:5000/docs), [here](localhost:5000/apidocs#top),\n"
        "[v6]([::1]:5000), [lan](192.168.1.20) and [host](my-server:8080/ui).\n\n"
        "See [the app](app.py) and [the notebook](demo.ipynb).\n"
    )
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "Dockerfile"))
    found = audit(readme, "README.md", model, {}, tmp_path)
    assert [(d.line, d.message) for d in found] == [(9, "README links to demo.ipynb, which does not exist")]


def test_a_script_named_in_another_case(tmp_path: Path) -> None:
    _repo(tmp_path, {"build.sh": "", "run-orin.sh": "", "README.md": ""})
    readme = (
        "## Files\n"
        "- Dockerfile : sets up the environment\n"
        "- Build.sh : script to build the Dockerfile\n"
        "- run-orin.sh : runs the image built by `Build.sh`\n"
        "- Readme.md : this file\n"
    )
    assert findings(readme, DOCKERFILE, tmp_path) == [
        "3: README lists Build.sh, which does not exist (did you mean build.sh?)",
        "4: README names Build.sh, which does not exist (did you mean build.sh?)",
    ]


def test_a_listed_script_in_another_case_is_certain(tmp_path: Path) -> None:
    # letter case alone: the one file meant, and Linux tells the two apart; another separator is a
    # guess at the file meant (modelled on a Jetson kit's file list and a notebook image's)
    _repo(tmp_path, {"build.sh": "", "run-orin.sh": "", "start_lab.sh": "", "README.md": ""})
    readme = (
        "## Files\n"
        "- Build.sh : script to build the Dockerfile\n"
        "- run-orin.sh : runs the image\n"
        "- start-lab.sh : starts JupyterLab\n"
    )
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "Dockerfile"))
    found = audit(readme, "README.md", model, {}, tmp_path)
    assert [(d.line, d.message, d.confidence) for d in found] == [
        (2, "README lists Build.sh, which does not exist (did you mean build.sh?)", "certain"),
        (4, "README lists start-lab.sh, which does not exist (did you mean start_lab.sh?)", "likely"),
    ]


@pytest.mark.parametrize(
    "items",
    [
        "- build.sh : script to build\n- run-orin.sh : runs it\n",  # the true statement
        "- Build.sh : script to build\n- start.sh : runs it\n",  # no item names a file here: another layout
        "- Build.sh: the build script, see `build.sh --help`\n",  # alone, no other file listed
        "- README.MD : this file\n- run-orin.sh : runs it\n",  # another case of a page is the same page
        "- Setup.bat : builds on Windows\n- run-orin.sh : runs it\n",  # Windows reads any case
    ],
)
def test_file_lists_that_are_no_finding(tmp_path: Path, items: str) -> None:
    _repo(tmp_path, {"build.sh": "", "run-orin.sh": "", "README.md": "", "setup.bat": ""})
    assert findings("## Files\n" + items, DOCKERFILE, tmp_path) == []


# A licence file named in prose, with no link (`See LICENSE file for details`)

LICENSED = "# App\n\nRuns the app.\n\n## License\n\n{}\n"


def _licence_findings(root: Path, sentence: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {**DOCKERFILE, **files})
    return [f for f in findings(LICENSED.format(sentence), DOCKERFILE, root) if "licence" in f]


@pytest.mark.parametrize(
    "sentence",
    [
        "MIT License - See LICENSE file for details.",
        "Apache-2.0, see `LICENSE`.",
        "Released under the terms in the LICENSE file.",
        # a verb that says it is there, or an add that is about something else
        "We have added a LICENSE file; see LICENSE file for details.",
        "To add a model, read the guide. MIT, see the LICENSE file.",
    ],
)
def test_a_licence_file_named_in_prose_that_the_repository_lacks(tmp_path: Path, sentence: str) -> None:
    name = "LICENSE"
    assert _licence_findings(tmp_path, sentence, {"NOTICE": "x\n"}) == [
        f"7: README names {name} as the repository's licence file, which does not exist"
    ]


@pytest.mark.parametrize(
    ("sentence", "files"),
    [
        # the file is there, under one of the names a licence goes by
        ("MIT License - See LICENSE file for details.", {"LICENSE.md": "MIT\n"}),
        ("MIT License - See LICENSE file for details.", {"COPYING": "GPL\n"}),
        # another project's licence, or the licence in words rather than a file
        ("See main project LICENSE file.", {}),
        ("Each model keeps its upstream LICENSE file.", {}),
        ("See llama.cpp's LICENSE file.", {}),
        ("MIT, see the license for details.", {}),
        # a link to it is `_missing_links`' to tell, once
        ("See [LICENSE](LICENSE) file for details.", {}),
        # a file the README says to add, or that is still to come: no claim that it is there
        ("Consider adding a `LICENSE` file (e.g., MIT) to clarify how others can use your work.", {}),
        ("TODO: create a LICENSE file before the first release.", {}),
        ("There is no LICENSE file yet; ask the authors.", {}),
        ("A LICENSE file will be added with the paper.", {}),
        ("`LICENSE` file: TBD", {}),
    ],
)
def test_a_licence_sentence_that_is_no_missing_file(
    tmp_path: Path, sentence: str, files: dict[str, str]
) -> None:
    assert _licence_findings(tmp_path, sentence, files) == []


def test_a_licence_file_at_the_repository_root_serves_a_readme_below_it(tmp_path: Path) -> None:
    _repo(tmp_path, {"LICENSE": "MIT\n", "docker/Dockerfile": "FROM x\n"})
    readme = LICENSED.format("MIT License - See LICENSE file for details.")
    assert findings(readme, DOCKERFILE, tmp_path / "docker") == []
    (tmp_path / "LICENSE").unlink()  # the nearest drift: the root has none either
    assert findings(readme, DOCKERFILE, tmp_path / "docker") == [
        "7: README names LICENSE as the repository's licence file, which does not exist"
    ]


def test_a_relative_link_out_of_a_checkout_without_git_is_not_checked(tmp_path: Path) -> None:
    # A README kept in its own folder (no `.git` nor `pyproject.toml`, `docgen audit` run there): a link
    # above that folder leads into what docgen cannot see; one inside it is still checked.
    project = tmp_path / "engine"
    make_tree(project, {"Dockerfile": DOCKERFILE["Dockerfile"], "notes.md": ""})
    readme = "[build](../../docs/BUILD.md) [notes](notes.md) [gone](notes/old.md) [up](../x.md)\n"
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "Dockerfile"))
    found = audit(readme, "README.md", model, {}, project, project)
    assert [d.message for d in found] == ["README links to notes/old.md, which does not exist"]
    # in a repository, a link leading out of it is not checked either, and one inside it is
    _repo(tmp_path, {"docs/BUILD.md": ""})
    found = audit(readme.replace("../x.md", "../../../x.md"), "README.md", model, {}, project, project)
    assert [d.message for d in found] == ["README links to notes/old.md, which does not exist"]


def test_a_compose_file_named_in_plain_prose_a_slip_away(tmp_path: Path) -> None:
    _repo(tmp_path, {"docker-compose.yml": "services:\n  web:\n    build: .\n"})
    readme = (
        "# App\n\nA docker-compose.yaml file has been provided, with a .env file.\n\n"
        "Edit docker-compose.yml as you need.\n\n"  # the file's own name: true
        "Create a compose.prod.yaml file for your servers.\n\n"  # the reader's own file
        "See [the compose docs](https://docs.docker.com/compose/compose-file/).\n"
    )
    assert findings(readme, DOCKERFILE, tmp_path) == [
        "3: README names docker-compose.yaml, which does not exist (did you mean docker-compose.yml?)"
    ]


@pytest.mark.parametrize(
    ("said", "files", "expected"),
    [
        # the compose file renamed for its flavour: the only compose file, with a part more
        ("docker-compose.yml", {"docker-compose.cuda.yml": ""}, "docker-compose.cuda.yml"),
        ("docker-compose.yml", {"docker-compose-cuda.yaml": ""}, "docker-compose-cuda.yaml"),
        # a part less: the flavoured name may be a file of the reader's, or of another project
        ("compose.rocm.yaml", {"compose.yaml": ""}, None),
        # two flavours, or another compose file besides: which one the README means is not clear
        ("docker-compose.yml", {"docker-compose.cpu.yml": "", "docker-compose.cuda.yml": ""}, None),
        ("docker-compose.yml", {"docker-compose.cuda.yml": "", "compose.serve.yaml": ""}, None),
        # an override file is the reader's to write, and no twin of the base file
        ("docker-compose.yml", {"docker-compose.override.yml": ""}, None),
        ("docker-compose.override.yml", {"docker-compose.yml": ""}, None),
        # two parts more, or another stem: another file
        ("docker-compose.yml", {"docker-compose.cuda.dev.yml": ""}, None),
        ("compose.yml", {"docker-compose.cuda.yml": ""}, None),
        # the file is there
        ("docker-compose.yml", {"docker-compose.yml": "", "docker-compose.cuda.yml": ""}, None),
    ],
)
def test_a_compose_file_renamed_for_its_flavour(
    tmp_path: Path, said: str, files: dict[str, str], expected: str | None
) -> None:
    # `likely`: the name is read from prose, and the twin is a guess at the file meant
    _repo(tmp_path, files)
    readme = f"## Options\n\nThe options are set as variables in the `{said}` file.\n"
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "Dockerfile"))
    found = [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, tmp_path)]
    meant = (
        []
        if expected is None
        else [(3, f"README names {said}, which does not exist (did you mean {expected}?)", "likely")]
    )
    assert found == meant


@pytest.mark.parametrize(
    "line",
    [
        "Add the service below to your `docker-compose.yml`.",
        "Here is an example `docker-compose.yml` for a two-GPU host:",
        "Put the following in a `docker-compose.yml` next to your models.",
    ],
)
def test_a_compose_file_of_the_readers_is_no_renamed_twin(tmp_path: Path, line: str) -> None:
    _repo(tmp_path, {"docker-compose.cuda.yml": ""})
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "Dockerfile"))
    assert audit(f"## Compose\n\n{line}\n", "README.md", model, {}, tmp_path) == []


@pytest.mark.parametrize(
    ("said", "files", "meant"),
    [
        # a letter dropped and a separator changed: the one Dockerfile of that name
        ("Dockerfil.rocm.serve", {"Dockerfile.rocm-serve": "", "Dockerfile": ""}, "Dockerfile.rocm-serve"),
        ("Dockerfil_rocm", {"Dockerfile_rocm": ""}, "Dockerfile_rocm"),
        ("docker/Dockerfle.cuda", {"docker/Dockerfile.cuda": ""}, "docker/Dockerfile.cuda"),
        ("cuda.dockerfle", {"cuda.dockerfile": ""}, "cuda.dockerfile"),
        # traps: another version is another file, two Dockerfiles a slip away, the file is there,
        # the plural (a folder's name), a name that is no Dockerfile's
        ("Dockerfil.cu11", {"Dockerfile.cu12": ""}, None),
        ("Dockerfil.gpu", {"Dockerfile.gpus": "", "Dockerfile.cpu": ""}, None),
        ("Dockerfil.rocm", {"Dockerfil.rocm": ""}, None),
        ("dockerfiles", {"dockerfile": ""}, None),
        ("Dockerfil.rocm", {"Dockerfile.rocm-serve": ""}, None),
    ],
)
def test_a_dockerfile_name_a_slip_away(
    tmp_path: Path, said: str, files: dict[str, str], meant: str | None
) -> None:
    _repo(tmp_path, files)
    readme = f"## Build\n\nThe compose file builds the service with the local `{said}`.\n"
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "Dockerfile"))
    found = [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, tmp_path)]
    expected = (
        []
        if meant is None
        else [(3, f"README names {said}, which does not exist (did you mean {meant}?)", "certain")]
    )
    assert found == expected


def test_a_dockerfile_the_reader_makes_is_no_slip(tmp_path: Path) -> None:
    _repo(tmp_path, {"Dockerfile.rocm-serve": ""})
    readme = "## Build\n\nCopy it to `Dockerfil.rocm.serve` and edit that file.\n"
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "Dockerfile"))
    assert audit(readme, "README.md", model, {}, tmp_path) == []


def test_a_file_in_a_mermaid_diagram_a_slip_away(tmp_path: Path) -> None:
    _repo(tmp_path, {"hosts.conf": "", "Dockerfile": "", "scripts/start.sh": ""})
    readme = (
        "## Layout\n\n"
        "```mermaid\n"
        "graph TD;\n"
        "    repo--> host.conf;\n"
        "    repo--> Dockerfile;\n"
        "    B[scripts/start.sh] --> C(/etc/host.conf)\n"
        "    D{build image} --> E[run.container]\n"
        "```\n"
    )
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "Dockerfile"))
    found = [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, tmp_path)]
    assert found == [(5, "README names host.conf, which does not exist (did you mean hosts.conf?)", "likely")]


def test_a_link_to_a_docs_page_by_its_name_without_suffix(tmp_path: Path) -> None:
    # a docs site (doc-builder, Docusaurus) serves `guides/querying.md` at `guides/querying`; the
    # traps: no page of that name (nor one of another suffix) is still a missing file
    _repo(tmp_path, {"docs/guides/querying.md": "", "docs/guides/serving.mdx": "", "docs/notes.txt": ""})
    readme = (
        "# Serving\n\n"
        "Query it as the [querying guide](./guides/querying) says; see [serving](guides/serving).\n\n"
        "Also [batching](./guides/batching) and the [notes](notes).\n"
    )
    found = findings(readme, DOCKERFILE, tmp_path / "docs")
    assert [f.split(":", 1)[1].strip() for f in found] == [
        "README links to ./guides/batching, which does not exist",
        "README links to notes, which does not exist",
    ]


# Links to files of the README's own repository by their GitHub address (missing.missing_own_files).

_OWN = "https://github.com/acme/app"
_RAW = "https://raw.githubusercontent.com/acme/app"


def _checkout(root: Path, files: dict[str, str], remote: str | None, head: str | None) -> Path:
    """A checkout at `root` holding `files`, with `remote` as its origin and `head` in `.git/HEAD`."""
    _repo(root, files)
    if remote is not None:
        (root / ".git/config").write_text(f'[remote "origin"]\n\turl = {remote}\n')
    if head is not None:
        (root / ".git/HEAD").write_text(head + "\n")
    return root


def _own(root: Path, readme: str) -> list[tuple[int, str, str]]:
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "Dockerfile"))
    found = audit(readme, "README.md", model, {}, root, root)
    return [(d.line, d.message, d.confidence) for d in found]


def test_a_link_to_a_file_of_the_repository_itself_that_is_gone(tmp_path: Path) -> None:
    _checkout(tmp_path, {"tools/serve.sh": "", "docs/x.md": ""}, f"{_OWN}.git", "ref: refs/heads/main")
    readme = (
        f"* [`serve`]({_RAW}/main/tools/serve.sh) starts the server\n"
        f"* [`train`]({_RAW}/main/tools/train.sh) trains\n"
        f"* [GPU notes]({_OWN}/blob/main/docs/gpu.md#setup) and [tools]({_OWN}/tree/main/tools)\n"
        f"* ![arch]({_OWN}/raw/refs/heads/main/img/arch.png?raw=true)\n"
        f"* [serve]({_OWN}/blob/main/tools/serve_.sh)\n"
    )
    assert _own(tmp_path, readme) == [
        (
            2,
            f"README links to tools/train.sh of its own repository ({_RAW}/main/tools/train.sh), which does "
            "not exist",
            "certain",
        ),
        (
            3,
            f"README links to docs/gpu.md of its own repository ({_OWN}/blob/main/docs/gpu.md#setup), which "
            "does not exist",
            "certain",
        ),
        (
            4,
            "README links to img/arch.png of its own repository "
            f"({_OWN}/raw/refs/heads/main/img/arch.png?raw=true), which does not exist",
            "certain",
        ),
        (
            5,
            f"README links to tools/serve_.sh of its own repository ({_OWN}/blob/main/tools/serve_.sh), "
            "which does not exist (did you mean tools/serve.sh?)",
            "certain",
        ),
    ]


@pytest.mark.parametrize(
    "link",
    [
        "https://raw.githubusercontent.com/acme/other/main/tools/train.sh",  # another repository's
        f"{_RAW}/dev/tools/train.sh",  # another branch: it may hold the file
        f"{_RAW}/v1.4.0/tools/train.sh",  # a release
        f"{_OWN}/blob/3f2a9c1d0b7e/tools/train.sh",  # a commit
        f"{_OWN}/issues/12",  # a page of the repository, no file
        f"{_RAW}/main/tools/model.bin",  # a file the README's commands fetch
        f"{_RAW}/main/cache/ckpt/last.pt",  # in a folder they make
        f"{_RAW}/main/build/app.whl",  # a generated folder
        f"{_RAW}/main/secrets.env",  # a file git ignores
        f"{_RAW}/main/<your-file>",  # a placeholder
    ],
)
def test_own_repository_links_that_are_not_checked(tmp_path: Path, link: str) -> None:
    files = {"tools/serve.sh": "", ".gitignore": "*.env\n"}
    _checkout(tmp_path, files, "git@github.com:acme/app.git", "ref: refs/heads/main")
    fetch = f"{_OWN}/releases/download/v1.4.0/model.bin"  # a release's file, not one of the tree
    readme = f"See [this]({link}).\n\n```bash\nwget {fetch}\nmkdir -p cache/ckpt\n```\n"
    assert _own(tmp_path, readme) == []


def test_own_links_of_a_checkout_that_does_not_name_its_repository(tmp_path: Path) -> None:
    # no remote (a copy of the files): which repository is its own is not known. A project that copied
    # the upstream's `docker/` folder holds the paths of the upstream's links too, so a link to the
    # upstream's missing workflow is not its own missing file
    _checkout(tmp_path, {"docker/Dockerfile.stable": "", "tools/serve.sh": ""}, None, None)
    there = f"* [`Dockerfile.stable`]({_RAW}/main/docker/Dockerfile.stable)\n"
    gone = f"* [`vllm.yml`]({_RAW}/main/.github/workflows/vllm.yml)\n"
    assert _own(tmp_path, there + gone) == []
    # with the remote that names it, the same link is its own and the file is missing
    (tmp_path / ".git/config").write_text(f'[remote "origin"]\n\turl = {_OWN}.git\n')
    (tmp_path / ".git/HEAD").write_text("ref: refs/heads/main\n")
    assert [(line, confidence) for line, _, confidence in _own(tmp_path, there + gone)] == [(2, "certain")]


def test_own_links_of_a_detached_checkout_are_read_at_the_default_branch(tmp_path: Path) -> None:
    # a detached HEAD (a CI checkout) does not say the branch: `main` or `master` is the files as they
    # are now, less surely; another branch is not read
    _checkout(tmp_path, {"tools/serve.sh": ""}, f"{_OWN}.git", "3f2a9c1d0b7e55aa00112233445566778899aabb")
    assert [(line, confidence) for line, _, confidence in _own(tmp_path, f"[x]({_RAW}/master/x.sh)\n")] == [
        (1, "likely")
    ]
    assert _own(tmp_path, f"[x]({_RAW}/release/x.sh)\n") == []
    # on a branch, another branch's link is not read (`main` may hold what `feature` dropped)
    (tmp_path / ".git/HEAD").write_text("ref: refs/heads/feature\n")
    assert _own(tmp_path, f"[x]({_RAW}/main/x.sh)\n") == []
    assert [line for line, _, _ in _own(tmp_path, f"[x]({_RAW}/feature/x.sh)\n")] == [1]


def _fetched(directory: Path, readme: str) -> list[tuple[int, str, str]]:
    """`audit` of `readme` in `directory`, itself the project (a README audited with no configuration)."""
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "Dockerfile"))
    found = audit(readme, "README.md", model, {}, directory, directory)
    return [(d.line, d.message, d.confidence) for d in found if "own repository" in d.message]


_LAB = "https://raw.githubusercontent.com/acme/labs/main/Lab02"
LAB_README = f"""# Lab 02

## Download the Dockerfile and build the image

```shell
wget {_LAB}/Dockerfile
wget {_LAB}/lab_build.sh
bash ./lab_build.sh
```

## Running on CPU

```shell
wget {_LAB}/lab_run_cpu.sh
bash ./lab_run_cpu.sh
```
"""


def test_a_copy_of_a_folder_whose_readme_fetches_a_neighbour_that_is_gone(tmp_path: Path) -> None:
    # no `.git`: the README's folder `Lab02` is the one its addresses fetch from (its Dockerfile and
    # build script are there), so the run script it fetches is its neighbour, renamed
    lab = tmp_path / "Lab02"
    make_tree(lab, {"Dockerfile": "FROM x\n", "lab_build.sh": "docker build .\n", "run_cpu.sh": ""})
    assert _fetched(lab, LAB_README) == [
        (
            14,
            f"README fetches Lab02/lab_run_cpu.sh of its own repository ({_LAB}/lab_run_cpu.sh), which does "
            "not exist (did you mean Lab02/run_cpu.sh?)",
            "certain",
        )
    ]
    # the neighbour there: nothing to tell
    make_tree(lab, {"lab_run_cpu.sh": ""})
    assert _fetched(lab, LAB_README) == []


def test_a_fetched_file_of_a_repository_its_checkout_names(tmp_path: Path) -> None:
    _checkout(tmp_path, {"scripts/setup.sh": ""}, f"{_OWN}.git", "ref: refs/heads/main")
    readme = (
        "# App\n\n```bash\n"
        f"curl -fsSL {_RAW}/main/scripts/setup.sh | bash\n"
        f"curl -O {_RAW}/main/scripts/configure.sh  # then edit it\n"
        "```\n"
    )
    assert _fetched(tmp_path, readme) == [
        (
            5,
            f"README fetches scripts/configure.sh of its own repository ({_RAW}/main/scripts/configure.sh), "
            "which does not exist",
            "certain",
        )
    ]


def test_a_fetched_file_of_a_repository_a_badge_names(tmp_path: Path) -> None:
    # a downloaded archive (no `.git`) of the repository its badge names and the README clones
    make_tree(tmp_path, {"install.sh": "", "README.md": ""})
    badge = "[![stars](https://img.shields.io/github/stars/acme/app)](https://github.com/acme/app)\n\n"
    readme = badge + (
        f"```bash\ngit clone {_OWN}.git\n"
        f"wget {_RAW}/master/tools/install.sh\nwget {_RAW}/master/install.sh\n```\n"
    )
    assert [(line, confidence) for line, _, confidence in _fetched(tmp_path, readme)] == [(5, "certain")]


@pytest.mark.parametrize(
    "address",
    [
        "https://raw.githubusercontent.com/acme/other/main/Lab02/lab_run_cpu.sh",  # another repository
        f"{_RAW}/main/Lab02/lab_run_cpu.sh",  # another repository than the one fetched from above
        "https://raw.githubusercontent.com/acme/labs/v1.0/Lab02/lab_run_cpu.sh",  # a release
        "https://raw.githubusercontent.com/acme/labs/main/Lab03/lab_run_cpu.sh",  # a folder with no evidence
        "https://raw.githubusercontent.com/acme/labs/main/Lab02/<your-script>.sh",  # a placeholder
    ],
)
def test_fetched_files_that_are_not_told(tmp_path: Path, address: str) -> None:
    lab = tmp_path / "Lab02"
    make_tree(lab, {"Dockerfile": "FROM x\n", "lab_build.sh": "", "run_cpu.sh": ""})
    readme = LAB_README.replace(f"{_LAB}/lab_run_cpu.sh", address)
    assert _fetched(lab, readme) == []


def test_a_fetched_file_outside_the_readmes_folder_is_likely(tmp_path: Path) -> None:
    # README at the root of a copy: `tools/` holds a file another address names, not the README's folder
    make_tree(tmp_path, {"tools/build.sh": "", "app.py": ""})
    readme = f"```bash\nwget {_RAW}/main/tools/build.sh\nwget {_RAW}/main/tools/push.sh\n```\n"
    assert [(line, confidence) for line, _, confidence in _fetched(tmp_path, readme)] == [(3, "likely")]


# --------------------------------------------------------------------------------------------------
# A folder a sentence sends the reader to that the repository does not have

# modelled on a README of per-image folders for reinforcement learning research
POINTED = """\
## Dockerfiles for RL research

- See the directory `{name}` for more details.

| Image | CUDA |
|---|---|
| dmc-torch1.7-cu110 | 11.0 |
"""


def _pointed(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {**DOCKERFILE, **files})
    return [f for f in findings(readme, DOCKERFILE, root) if "points to" in f]


def test_a_folder_the_prose_points_to_that_is_not_there(tmp_path: Path) -> None:
    files = {"dmc-torch1.7-cu110/Dockerfile": "FROM x\n", "dmc-torch1.4-cu100/Dockerfile": "FROM x\n"}
    assert _pointed(tmp_path / "repo", POINTED.format(name="Dockerfiles"), files) == [
        "3: README points to the directory Dockerfiles, which does not exist (folders there: "
        "dmc-torch1.4-cu100, dmc-torch1.7-cu110)"
    ]


@pytest.mark.parametrize(
    ("name", "readme"),
    [
        # the folder is there, below the README
        ("images", POINTED.format(name="images")),
        # the checkout itself has that name
        ("work", POINTED.format(name="Dockerfiles")),
        # a folder the README makes
        ("work", "# App\n\n```bash\nmkdir output\n```\n\nThen look in the `output` folder for results.\n"),
        # a folder the reader is told to put something in, not pointed to
        ("work", "# App\n\nPut your models in the `weights` folder.\n"),
    ],
)
def test_folders_pointed_to_that_are_no_finding(tmp_path: Path, name: str, readme: str) -> None:
    root = tmp_path / ("Dockerfiles" if readme.startswith("## Dockerfiles") and name == "work" else "repo")
    assert _pointed(root, readme, {"deep/er/images/Dockerfile": "FROM x\n"}) == []


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # a folder named in plain prose by its name and a trailing slash
        ("We query the endpoint with the scripts in test_scripts/", ("test_scripts/", "test_scipts/")),
        ("- Sample clients live under `clinets/` and `configs/`.", ("clinets/", "clients/")),
        (
            "Models are read from model_configs/local/ at start.",
            ("model_configs/local/", "model_config/local/"),
        ),
    ],
)
def test_a_folder_named_in_prose_a_slip_away_from_one(
    tmp_path: Path, line: str, expected: tuple[str, str]
) -> None:
    _repo(
        tmp_path,
        {
            "test_scipts/query_endpoint.py": "",
            "clients/stream.py": "",
            "configs/base.yaml": "",
            "model_config/local/a.yaml": "",
        },
    )
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "Dockerfile"))
    found = audit(f"# Llama server\n\n{line}\n", "README.md", model, {}, tmp_path)
    said, meant = expected
    assert [(d.line, d.message, d.confidence) for d in found] == [
        (3, f"README names {said}, which does not exist (did you mean {meant}?)", "likely")
    ]


@pytest.mark.parametrize(
    "line",
    [
        "See https://github.com/acme/tools/tree/main/test_scripts/ for the upstream ones.",  # an address
        "Results land in /data/test_scripts/ inside the container, or ~/test_scripts/.",  # not relative
        "Use CPU and/or GPU; the I/O path is test_scipts/ (there).",  # `and/or`; the folder is there
        "The output goes to test_script/ once you run `mkdir test_script` first.",  # made by a command
        "Put the weights in `model/` (a file `modle` sits beside it).",  # a file a slip away, no folder
        "Read [the helpers](test_scripts/) too.",  # a link: the rule on links tells it
    ],
)
def test_folders_in_prose_that_are_no_slip(tmp_path: Path, line: str) -> None:
    _repo(tmp_path, {"test_scipts/query_endpoint.py": "", "modle": ""})
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "Dockerfile"))
    found = audit(f"# Llama server\n\n{line}\n", "README.md", model, {}, tmp_path)
    assert [d.message for d in found if "README names" in d.message] == []


# A research project's README (clone with --recursive, a submodule holding a benchmark's tools) and a
# robot stack's (`git submodule update --init`, drivers in a submodule): the checkout given is the
# repository's files without its submodules, as a clone without `--recursive` leaves them.
RECURSIVE = (
    "# Splats\n\n"
    "```bash\ngit clone --recursive https://example.org/lab/splats.git\ncd splats\n```\n\n"
    "Follow the readme of the bench360 submodule [here](bench360/README.md), and the one in the Track "
    "folder [here](Track/masking_README.md).\n\n"
    "See the [figure](assets/teaser.png), [notes](docs/notes.md) and [howto](guides/howto.md).\n"
)
DRIVERS = (
    "# Robot stack\n\n"
    "```bash\ngit submodule update --init\n```\n\n"
    "The `vendor_drivers` submodule holds the arm's drivers: see [its guide](vendor_drivers/docs/setup.md).\n"
)


def test_links_into_submodules_the_readme_fetches_are_not_missing(tmp_path: Path) -> None:
    make_tree(tmp_path / "a", {"assets/logo.png": "", "docs/index.md": ""})
    assert findings(RECURSIVE, DOCKERFILE, tmp_path / "a") == [
        # a folder that is there lacks the file; a folder the README names nowhere else is not there
        "10: README links to assets/teaser.png, which does not exist",
        "10: README links to docs/notes.md, which does not exist",
        "10: README links to guides/howto.md, which does not exist",
    ]
    make_tree(tmp_path / "b", {"src/arm.py": ""})
    assert findings(DRIVERS, DOCKERFILE, tmp_path / "b") == []


def test_links_into_folders_that_are_missing_without_a_submodule_fetch(tmp_path: Path) -> None:
    # no command fetches submodules: a folder that is not there is a dead link
    make_tree(tmp_path / "a", {"src/arm.py": ""})
    plain = DRIVERS.replace("git submodule update --init", "git pull")
    assert findings(plain, DOCKERFILE, tmp_path / "a") == [
        "7: README links to vendor_drivers/docs/setup.md, which does not exist"
    ]
    # a .gitmodules says which folders are submodules: another folder that is not there is dead
    (tmp_path / "b").mkdir()
    _repo(
        tmp_path / "b",
        {
            ".gitmodules": '[submodule "x"]\n\tpath = bench360\n\turl = https://example.org/x.git\n',
            "x.py": "",
        },
    )
    assert findings(RECURSIVE, DOCKERFILE, tmp_path / "b") == [
        "8: README links to Track/masking_README.md, which does not exist",
        "10: README links to assets/teaser.png, which does not exist",
        "10: README links to docs/notes.md, which does not exist",
        "10: README links to guides/howto.md, which does not exist",
    ]


def test_an_empty_folder_is_a_submodule_not_fetched(tmp_path: Path) -> None:
    # git keeps no empty folder: a clone without --recursive leaves one for each submodule
    make_tree(tmp_path, {"src/arm.py": ""})
    (tmp_path / "vendor_drivers").mkdir()
    plain = DRIVERS.replace("git submodule update --init", "git pull")
    assert findings(plain, DOCKERFILE, tmp_path) == []
    (tmp_path / "vendor_drivers" / "README.md").write_text("")
    assert findings(plain, DOCKERFILE, tmp_path) == [
        "7: README links to vendor_drivers/docs/setup.md, which does not exist"
    ]


ROBOT = (
    "# Robot stack\n\n"
    "```bash\ngit clone https://example.org/lab/robot.git\ncd robot\n./scripts/build.sh\n"
    "./vendor_drivers/install.sh\n```\n"
)


def test_a_script_under_an_empty_folder_is_a_submodule_not_fetched(tmp_path: Path) -> None:
    # a robot stack whose README runs its drivers' installer from a submodule: a clone without
    # --recursive holds the folder, empty
    _repo(tmp_path, {"scripts/build.sh": "#!/bin/sh\n", "Dockerfile": DOCKERFILE["Dockerfile"]})
    (tmp_path / "vendor_drivers").mkdir()
    model = model_of(parse_dockerfile(DOCKERFILE["Dockerfile"], "Dockerfile"))

    def told() -> list[str]:
        found = audit(ROBOT, "README.md", [model], {}, tmp_path, tmp_path)
        return [f"{d.line}: {d.message}" for d in found]

    assert told() == []
    # the folder holds files: the installer is missing from it
    (tmp_path / "vendor_drivers" / "setup.sh").write_text("")
    assert told() == [
        "7: README runs ./vendor_drivers/install.sh, which does not exist next to it or in a folder above it "
        "(the scripts there: setup.sh)"
    ]


@pytest.mark.parametrize("name", ["hoge.py", "src/fuga.sh", "piyo/", "baz.yaml"])
def test_japanese_and_english_stand_in_names_are_placeholders(name: str) -> None:
    assert PLACEHOLDER.search(name)


@pytest.mark.parametrize("name", ["hogehoge_train.py", "bazel.sh", "fugaku/run.sh"])
def test_names_that_only_start_like_a_stand_in_are_real(name: str) -> None:
    assert not PLACEHOLDER.search(name)
