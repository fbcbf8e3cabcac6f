"""`docgen audit`: keyword arguments a README gives a function of a Python module the image ships,
against the function's signature (docgen/audit/shipped_functions.py)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = """\
FROM python:3.11
RUN pip install jupyterlab mlflow
COPY material/track_utils.py /tmp/track_utils.py
RUN mv /tmp/track_utils.py /usr/local/lib/python3.11/site-packages/
CMD ["jupyter", "lab"]
"""
MODULE = """\
from typing import Any, Dict, Optional


def log_run(name: str, label: Optional[str] = None, summary: str = "", scores: Dict[str, float] = {},
            files: Dict[str, Any] = {}, do_push: bool = True, server: str = "http://tracker:5000") -> None:
    \"\"\"Log one run.\"\"\"


def log_any(name, **options):
    pass
"""
# A nested list of the function's arguments (bold tag on the first) and a call in a Python block
# whose other lines do not parse (`{...}`), as a Japanese notebook-image README writes them.
README = """\
# Notebooks

+ The helper module `track_utils` ships in the image
    + The arguments of `track_utils`'s `log_run` function are:
        + **(required)**`name`: name of the experiment
        + `label`: name of the run
        + `sumary`: what the run did
        + `scores`: a `dict` of metric name to value
        + `do_upload`: push the notebook first (default: yes)
    + Example
        ```python
        import track_utils

        scores = {"f1": 0.8, ...}
        track_utils.log_run(name="exp", summary="first try",
                            scorse=scores,
                            files={"train.csv": "data/train.csv"})
        ```
"""


def found(
    root: Path, readme: str, module: str = MODULE, dockerfile: str = DOCKERFILE
) -> list[tuple[int, str]]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile, "material/track_utils.py": module})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message.split(", but")[0])
        for d in audit(readme, "README.md", model, {}, root, root)
        if "which the image ships" in d.message
    ]


def test_listed_and_passed_arguments_the_function_lacks(tmp_path: Path) -> None:
    assert found(tmp_path, README) == [
        (7, "README lists the argument `sumary` to track_utils.log_run"),
        (9, "README lists the argument `do_upload` to track_utils.log_run"),
        (16, "README passes `scorse` to track_utils.log_run"),
    ]


def test_the_message_names_the_parameter_one_edit_away(tmp_path: Path) -> None:
    make_tree(tmp_path, {"README.md": README, "Dockerfile": DOCKERFILE, "material/track_utils.py": MODULE})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    messages = [d.message for d in audit(README, "README.md", model, {}, tmp_path, tmp_path)]
    assert any(m.endswith("with no parameter sumary (it has summary)") for m in messages)


def test_an_english_paragraph_and_a_bare_call_imported_from_the_module(tmp_path: Path) -> None:
    readme = (
        "# Tracking\n\nThe `log_run` function of `track_utils` takes these parameters:\n\n"
        "- `name`: experiment name\n- `label`: run name\n- `scores`: metrics\n- `serve`: tracking server\n\n"
        "```python\nfrom track_utils import log_run\nlog_run(name='a', labels='b')\n```\n"
    )
    assert found(tmp_path, readme) == [
        (8, "README lists the argument `serve` to track_utils.log_run"),
        (12, "README passes `labels` to track_utils.log_run"),
    ]


def test_silent_for_a_function_taking_any_keyword(tmp_path: Path) -> None:
    module = MODULE.replace('server: str = "http://tracker:5000")', "**extra)")
    assert found(tmp_path, README, module) == []


def test_silent_for_a_name_that_is_also_a_method(tmp_path: Path) -> None:
    module = MODULE + "\n\nclass Tracker:\n    def log_run(self, **kw):\n        pass\n"
    assert found(tmp_path, README, module) == []


def test_silent_for_another_modules_function_and_an_unimported_call(tmp_path: Path) -> None:
    readme = (
        "# Tracking\n\n```python\nimport mlflow\nmlflow.log_run(name='a', run_label='b')\n"
        "log_run(name='a', nested=True)\n```\n"
    )
    assert found(tmp_path, readme) == []


def test_silent_for_a_list_of_another_functions_arguments(tmp_path: Path) -> None:
    readme = (
        "# Tracking\n\nArguments of `log_run` (it calls `mlflow.start_run` of `track_utils`' server):\n\n"
        "- `experiment_id`: id\n- `run_id`: id\n- `nested`: flag\n- `name`: name\n"
    )
    assert found(tmp_path, readme) == []


def test_silent_when_the_image_does_not_ship_the_module(tmp_path: Path) -> None:
    dockerfile = DOCKERFILE.replace("COPY material/track_utils.py /tmp/track_utils.py\n", "")
    assert found(tmp_path, README, dockerfile=dockerfile) == []


def test_silent_for_a_decorated_function(tmp_path: Path) -> None:
    module = MODULE.replace("def log_run(", "@retry\ndef log_run(")
    assert found(tmp_path, README, module) == []
