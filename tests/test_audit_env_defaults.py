"""`docgen.audit.env_defaults`: defaults a README gives the environment variables of a container (a
`Default` column or `default is …` in a table of environment variables, `` `NAME=VALUE` by default ``
in a sentence) against the value the image's ENV sets. Planted drifts and the nearest true statements
as traps; the READMEs and Dockerfiles are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit


def _audit(tmp_path: Path, readme: str, dockerfile: str) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


SERVER = """\
FROM python:3.11-slim AS build
ENV PORT=5000

FROM python:3.11-slim
ARG UTIL=0.90
ENV PORT=8080 \\
    GPU_MEMORY_UTILIZATION=${UTIL} \\
    PIN_MEMORY=1 \\
    LOG_LEVEL=info
CMD ["python", "serve.py"]
"""

TABLE = """\
# Server

## Environment variables

| Variable | Default | Description |
|---|---|---|
| `PORT` | `8000` | port to serve on |
| `GPU_MEMORY_UTILIZATION` | `0.9` | fraction of memory |
| `LOG_LEVEL` | `INFO` | log level |
| `HF_TOKEN` | *(none)* | token |
| `MODEL` | `qwen` | model to serve |
"""


def test_a_default_column_against_env(tmp_path: Path) -> None:
    # PORT is 8080 in the image built (5000 is another stage's); 0.9 is 0.90, INFO is info; HF_TOKEN
    # and MODEL the image does not set
    assert _audit(tmp_path, TABLE, SERVER) == [
        "7: README says PORT defaults to 8000 but Dockerfile:6 sets ENV PORT=8080 (certain)"
    ]


DESCRIBED = """\
# Server

The following options are set with environment variables:

| Env Name | Description |
| --- | --- |
| PORT | OPTIONAL, the port to use for serving, default is 8000 |
| LOG_LEVEL | OPTIONAL, default is info |
"""


def test_a_default_in_a_description_cell(tmp_path: Path) -> None:
    assert _audit(tmp_path, DESCRIBED, SERVER) == [
        "7: README says PORT defaults to 8000 but Dockerfile:6 sets ENV PORT=8080 (certain)"
    ]


PROSE = """\
# Server

Runtime images set `PIN_MEMORY=0` by default. Pass `-e PIN_MEMORY=1` to turn it on.

The image sets `LOG_LEVEL=info` by default.

If you run it behind a proxy, `PORT=80` is the default there.
"""


def test_a_default_said_in_a_sentence(tmp_path: Path) -> None:
    # the value to pass (-e), the one that agrees and a condition are not findings
    assert _audit(tmp_path, PROSE, SERVER) == [
        "3: README says PIN_MEMORY defaults to 0 but Dockerfile:6 sets ENV PIN_MEMORY=1 (certain)"
    ]


def test_a_script_that_starts_the_container_makes_it_likely(tmp_path: Path) -> None:
    scripted = SERVER.replace('CMD ["python", "serve.py"]', 'ENTRYPOINT ["/entrypoint.sh"]')
    assert _audit(tmp_path, TABLE, scripted) == [
        "7: README says PORT defaults to 8000 but Dockerfile:6 sets ENV PORT=8080 (likely)"
    ]


def test_a_table_not_about_the_environment_is_not_read(tmp_path: Path) -> None:
    options = TABLE.replace("## Environment variables", "## Script options")
    assert _audit(tmp_path, options, SERVER) == []
