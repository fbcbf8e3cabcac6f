"""Table rows that link to the Dockerfile they are about (`docgen.audit.linked_rows`)."""

from __future__ import annotations

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

STACKS = {
    "gnu/Dockerfile": "FROM ubuntu:22.04\nRUN pip install numpy==1.26.4\n",
    "intel/Dockerfile": "FROM intel/oneapi-hpckit:2023.1-devel-ubuntu20.04\nRUN pip install numpy==1.24.0\n",
}
URL = "https://github.com/acme/stacks/blob/{ref}/{path}"
TABLE = """## Published images

| Tag | OS | Libraries | Dockerfile |
| --- | --- | --- | --- |
| `stacks:gnu-2023.05` | Ubuntu 18.04 | NumPy {numpy} | [base]({gnu_old}) |
| `stacks:gnu-2024.01` | Ubuntu 22.04 | NumPy {numpy} | [base]({gnu}) |
| `stacks:intel-2023.05` | Ubuntu 18.04 | NumPy 1.24.0 | [base]({intel_old}) |
| `stacks:intel-2024.01` | Ubuntu 20.04 | NumPy 1.24.0 | [base]({intel}) |
"""


def found(readme: str) -> list[tuple[int, str]]:
    models = [model_of(parse_dockerfile(text, path)) for path, text in STACKS.items()]
    return [(d.line, d.message) for d in audit(readme, "README.md", models)]


def table(numpy: str, old: str = "2023.05", new: str = "2024.01") -> str:
    return TABLE.format(
        numpy=numpy,
        gnu_old=URL.format(ref=old, path="gnu/Dockerfile"),
        gnu=URL.format(ref=new, path="gnu/Dockerfile"),
        intel_old=URL.format(ref=old, path="intel%2FDockerfile"),
        intel=URL.format(ref=new, path="intel/Dockerfile"),
    )


def test_a_row_is_compared_with_the_dockerfile_it_links_to() -> None:
    # NumPy 1.24.0 is intel's: true of the family, stale in the gnu row. The Ubuntu 18.04 rows link to a
    # tag and differ from the Dockerfile where their sibling rows agree with it: they describe that
    # older release and are not compared (line 5 says the same NumPy)
    assert found(table("1.24.0")) == [(6, "README says NumPy 1.24.0 but gnu/Dockerfile:2 says 1.26.4")]
    assert found(table("1.26.4")) == []


def test_rows_at_a_branch_are_builds_whose_differing_columns_are_not_compared() -> None:
    # at `main` every row is about the file now: the OS column the rows disagree on is a build's,
    # the NumPy column they agree on is compared in each row
    assert found(table("1.24.0", old="main", new="main")) == [
        (5, "README says NumPy 1.24.0 but gnu/Dockerfile:2 says 1.26.4"),
        (6, "README says NumPy 1.24.0 but gnu/Dockerfile:2 says 1.26.4"),
    ]
