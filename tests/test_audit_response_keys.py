"""`docgen.audit.response_keys`: a JSON response a README documents for a route of its own FastAPI app,
whose top-level keys are none of the fields of the route's `response_model`, is a `certain` finding;
a response sharing a key, an error example, a request body, a model whose keys may differ from its
fields (an alias, a parent model, a serializer), another method, a mounted router and a decorator with
more response options are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.audit.response_keys import top_keys
from docgen.pipeline import build_model

DOCKERFILE = (
    'FROM python:3.11-slim\nCOPY . /app\nWORKDIR /app\nCMD ["uvicorn", "app:app", "--port", "8000"]\n'
)

# a sentence-embedding service whose README lists its endpoints as bullets
EMBED_APP = """\
from typing import List

from fastapi import FastAPI
from pydantic import BaseModel

app = FastAPI()


class EmbedRequest(BaseModel):
    model: str
    input: List[str]


class Vector(BaseModel):
    embedding: List[float]


class EmbedReply(BaseModel):
    data: List[Vector]
    model: str


@app.post("/v1/embed", response_model=EmbedReply)
def embed(req: EmbedRequest):
    return {"data": [], "model": req.model}
"""
EMBED_README = """\
# Embedding service

## Endpoints

*   **POST `/v1/embed`**: embeds each text.
    *   **Request Body**:
        ```json
        {
          "model": "name",
          "input": ["a", "b"]
        }
        ```
    *   **Response**:
        ```json
        {
          "vectors": [
            [...vector of a...],
            [...vector of b...]
          ]
        }
        ```
"""

# an image classifier whose README gives each route a heading and an example
CLASSIFY_APP = """\
from fastapi import FastAPI, UploadFile
from pydantic import BaseModel


class Prediction(BaseModel):
    label: str
    confidence: float


app = FastAPI()


@app.post("/predict", response_model=Prediction, tags=["vision"])
async def predict(file: UploadFile) -> Prediction:
    return Prediction(label="cat", confidence=0.9)
"""
CLASSIFY_README = """\
# Classifier

### `POST /predict`

Send an image as a multipart upload.

Example response:

```json
{"class": "cat", "probability": 0.93}
```
"""


def _audit(tmp_path: Path, readme: str, app: str, more: dict[str, str] | None = None) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": DOCKERFILE, "README.md": readme, "app.py": app, **(more or {})})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", model, {}, tmp_path, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "response" in d.message]


def test_a_response_whose_keys_the_model_does_not_have(tmp_path: Path) -> None:
    assert _audit(tmp_path, EMBED_README, EMBED_APP) == [
        "15: README documents the response of POST /v1/embed with the key vectors, but app.py:23 "
        "declares response_model=EmbedReply, whose fields are data, model (app.py:18): FastAPI returns "
        "only those (certain)"
    ]


def test_a_response_under_a_heading_of_the_route(tmp_path: Path) -> None:
    assert _audit(tmp_path, CLASSIFY_README, CLASSIFY_APP) == [
        "10: README documents the response of POST /predict with the keys class, probability, but "
        "app.py:13 declares response_model=Prediction, whose fields are label, confidence (app.py:5): "
        "FastAPI returns only those (certain)"
    ]


@pytest.mark.parametrize(
    ("readme", "app", "more"),
    [
        (EMBED_README.replace('"vectors"', '"data"'), EMBED_APP, {}),  # as the model says
        (
            EMBED_README.replace('"vectors": [', '"model": "name", "vectors": ['),
            EMBED_APP,
            {},
        ),  # one key shared
        (EMBED_README.replace("**Response**", "**Error response (422)**"), EMBED_APP, {}),
        (EMBED_README.replace("**POST", "**GET"), EMBED_APP, {}),  # another method: another route
        (EMBED_README.replace("`/v1/embed`", "`/v2/embed`"), EMBED_APP, {}),  # no such route
        (EMBED_README.replace("    *   **Response**:", "## Output\n\nResponse:"), EMBED_APP, {}),
        (EMBED_README, EMBED_APP.replace(", response_model=EmbedReply", ""), {}),  # no model
        (EMBED_README, EMBED_APP.replace("EmbedReply)", "EmbedReply, response_model_exclude_none=True)"), {}),
        (
            EMBED_README,
            EMBED_APP.replace("    data: List[Vector]", "    data: List[Vector] = Field(alias='vectors')"),
            {},
        ),
        (EMBED_README, EMBED_APP.replace("class EmbedReply(BaseModel)", "class EmbedReply(Base)"), {}),
        (
            EMBED_README,
            EMBED_APP.replace(
                "    model: str\n\n\n@",
                "    model: str\n\n    @model_serializer\n    def s(self):\n        return {}\n\n\n@",
            ),
            {},
        ),
        (
            EMBED_README,
            EMBED_APP.replace(
                "    model: str\n\n\n@", "    model: str\n    model_config = {'extra': 'allow'}\n\n\n@"
            ),
            {},
        ),
        # the router is mounted under a prefix: the route is not the one written
        (
            EMBED_README,
            EMBED_APP,
            {"main.py": "from app import app as sub\nroot.include_router(sub, prefix='/api')\n"},
        ),
        (CLASSIFY_README.replace("Example response:", "Example request:"), CLASSIFY_APP, {}),
        (CLASSIFY_README.replace("```json", "```json\n[").replace("}\n```", "}]\n```"), CLASSIFY_APP, {}),
    ],
)
def test_a_response_that_may_be_what_the_route_returns(
    tmp_path: Path, readme: str, app: str, more: dict[str, str]
) -> None:
    assert readme != EMBED_README or app != EMBED_APP or more
    assert _audit(tmp_path, readme, app, more) == []


def test_the_top_level_keys_of_an_example() -> None:
    assert top_keys('{\n  "a": [1, {"b": 2}],\n  "c": "x: \\"y\\"",\n  "d": {"e": [...]}\n}') == [
        "a",
        "c",
        "d",
    ]
    assert top_keys("[1, 2]") == []
    assert top_keys('{"a": 1}\n{"b": 2}') == []
