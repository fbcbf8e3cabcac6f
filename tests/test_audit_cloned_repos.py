"""`docgen audit`: repositories a README lists as in the image that the image never clones
(docgen/audit/cloned_repos.py): a list of repository links most of which the Dockerfile, or a script it
copies, clones by their address.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

DOCKERFILE = """\
FROM python:3.12-slim
RUN apt-get update && apt-get install -y --no-install-recommends git
RUN git clone https://github.com/acme/studio.git /opt/studio
WORKDIR /opt/studio/plugins
RUN git clone https://github.com/ann/studio-tiles.git \\
 && git clone https://github.com/bob/studio-grid \\
 && git clone https://github.com/cat/studio-export.git
CMD ["python", "/opt/studio/main.py"]
"""
LISTED = """\
# Studio image

## Bundled plug-ins

- [studio-tiles](https://github.com/ann/studio-tiles)
- [studio-grid](https://github.com/bob/studio-grid)
- [studio-export](https://github.com/cat/studio-export)
- [studio-charts](https://github.com/dan/studio-charts)
"""
MISSING = (
    "README lists studio-charts (github.com/dan/studio-charts) as in the image but Dockerfile and the "
    "files it copies never clone it (they clone 3 of the 4 repositories listed)"
)


def _audited(tmp_path: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(tmp_path, files)
    paths = [path for path in files if path.rsplit("/", 1)[-1].startswith("Dockerfile")]
    models = [build_model(tmp_path / path, path) for path in paths]
    return [
        f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", models, {}, tmp_path)
    ]


def test_a_listed_repository_the_image_never_clones(tmp_path: Path) -> None:
    assert _audited(tmp_path, LISTED, {"Dockerfile": DOCKERFILE}) == [f"8: {MISSING} (certain)"]


def test_one_link_a_line_and_clones_in_a_copied_script(tmp_path: Path) -> None:
    script = "".join(
        f"git clone --depth 1 https://github.com/{repo}\n"
        for repo in ("ann/studio-tiles", "bob/studio-grid", "cat/studio-export")
    )
    dockerfile = 'FROM python:3.12-slim\nCOPY plugins.sh /plugins.sh\nRUN bash /plugins.sh\nCMD ["studio"]\n'
    readme = (
        "# Studio\n\n## STUDIO PLUG-INS\n\n"
        "[Tiles](https://github.com/ann/studio-tiles)  \n"
        "[Grid](https://github.com/bob/studio-grid)  \n"
        "[Charts (nightly)](https://github.com/dan/studio-charts)  \n"
        "[Export](https://github.com/cat/studio-export)  \n"
    )
    files = {"Dockerfile": dockerfile, "plugins.sh": script}
    assert _audited(tmp_path, readme, files) == [
        "7: README lists Charts (nightly) (github.com/dan/studio-charts) as in the image but Dockerfile "
        "and the files it copies never clone it (they clone 3 of the 4 repositories listed) (certain)"
    ]


def test_a_generic_link_text_gives_the_repository_name(tmp_path: Path) -> None:
    readme = LISTED.replace(
        "- [studio-charts](https://github.com/dan/studio-charts)",
        "- `studio-charts` - [Link](https://github.com/dan/studio-charts)",
    )
    assert _audited(tmp_path, readme, {"Dockerfile": DOCKERFILE}) == [f"8: {MISSING} (certain)"]


@pytest.mark.parametrize(
    "heading",
    ["## Credits", "## Related projects", "## Plug-ins you may want to add", "## Optional plug-ins"],
)
def test_a_list_of_thanks_or_of_what_the_reader_may_add_is_not_read(tmp_path: Path, heading: str) -> None:
    readme = LISTED.replace("## Bundled plug-ins", heading)
    assert _audited(tmp_path, readme, {"Dockerfile": DOCKERFILE}) == []


def test_an_item_saying_it_is_optional_is_no_claim(tmp_path: Path) -> None:
    readme = LISTED.replace(
        "(https://github.com/dan/studio-charts)", "(https://github.com/dan/studio-charts) (optional)"
    )
    assert _audited(tmp_path, readme, {"Dockerfile": DOCKERFILE}) == []


def test_a_list_the_image_mostly_does_not_clone_is_not_its_own(tmp_path: Path) -> None:
    # the plug-ins come from a list the image does not hold (installed at start, say): one clone of four
    dockerfile = DOCKERFILE.replace(
        " \\\n && git clone https://github.com/bob/studio-grid \\\n && git clone https://github.com/cat/studio-export.git",
        "",
    )
    assert _audited(tmp_path, LISTED, {"Dockerfile": dockerfile}) == []


def test_a_repository_cloned_from_a_fork_is_held(tmp_path: Path) -> None:
    dockerfile = DOCKERFILE.replace(
        "cat/studio-export.git",
        "cat/studio-export.git \\\n && git clone https://github.com/eve/studio-charts",
    )
    assert _audited(tmp_path, LISTED, {"Dockerfile": dockerfile}) == []


def test_an_image_running_a_script_docgen_cannot_read_may_clone_it(tmp_path: Path) -> None:
    piped = 'RUN curl -fsSL https://example.com/more.sh | bash\nCMD ["python"'
    dockerfile = DOCKERFILE.replace('CMD ["python"', piped)
    assert _audited(tmp_path, LISTED, {"Dockerfile": dockerfile}) == []


def test_a_sibling_image_that_clones_it_holds_it(tmp_path: Path) -> None:
    full = DOCKERFILE.replace(
        "cat/studio-export.git",
        "cat/studio-export.git \\\n && git clone https://github.com/dan/studio-charts",
    )
    files = {"slim/Dockerfile": DOCKERFILE, "full/Dockerfile": full}
    assert _audited(tmp_path, LISTED, files) == []


def test_a_list_of_links_into_repositories_is_not_read(tmp_path: Path) -> None:
    readme = LISTED.replace(
        "(https://github.com/dan/studio-charts)", "(https://github.com/dan/studio-charts/blob/main/README.md)"
    )
    assert _audited(tmp_path, readme, {"Dockerfile": DOCKERFILE}) == []


def test_three_links_two_of_which_the_image_clones_are_not_enough(tmp_path: Path) -> None:
    # the third may be the project itself, which the reader clones on the host
    readme = LISTED.replace("- [studio-export](https://github.com/cat/studio-export)\n", "")
    dockerfile = DOCKERFILE.replace(" \\\n && git clone https://github.com/cat/studio-export.git", "")
    assert _audited(tmp_path, readme, {"Dockerfile": dockerfile}) == []
