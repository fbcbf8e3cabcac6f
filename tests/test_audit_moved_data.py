"""`docgen.audit.moved_data`: a README mount at the folder where a well-known program keeps its data by
default (`/root/.ollama`, `/root/.cache/huggingface`) while the image's ENV moves the data elsewhere. A
planted drift and the nearest mounts that must stay silent. The READMEs and Dockerfiles are small models
written for these tests.
"""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

LLM = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y curl
ENV LLM_HOST=0.0.0.0 \\
    OLLAMA_MODELS=/srv/models/llm \\
    HF_HOME=/srv/cache/hf
CMD ["/bin/serve"]
"""

RUN_SPAN = """\
# llm

Run the server in the background
`docker run -d --gpus=all -v llm:/root/.ollama -p 11434:11434 --name llm team/llm`

```bash
docker run -it -v ~/.cache/huggingface:/root/.cache/huggingface team/llm
docker run -it -v ~/.cache/huggingface:/root/.cache/huggingface other/tool
```
"""


def _audit(tmp_path: Path, readme: str, dockerfile: str = LLM, folder: str = "llm") -> list[str]:
    make_tree(tmp_path, {f"{folder}/Dockerfile": dockerfile, f"{folder}/README.md": readme})
    model = build_model(tmp_path / folder / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", model, {}, tmp_path / folder, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


def test_a_mount_where_the_image_no_longer_keeps_the_data(tmp_path: Path) -> None:
    # line 4 (a code span) and line 7 (a block) run the image of the Dockerfile's folder (`team/llm`);
    # line 8 runs another image, whose data is where its mount says
    assert _audit(tmp_path, RUN_SPAN) == [
        "4: README mounts /root/.ollama for Ollama's models, but Dockerfile:3 sets "
        "OLLAMA_MODELS=/srv/models/llm: the image keeps them there, not in the mounted folder (likely)",
        "7: README mounts /root/.cache/huggingface for Hugging Face's cache, but Dockerfile:3 sets "
        "HF_HOME=/srv/cache/hf: the image keeps them there, not in the mounted folder (likely)",
    ]
    # the image the README builds, whatever its name
    built = RUN_SPAN.replace("# llm\n", "# llm\n\n```bash\ndocker build -t chat-srv .\n```\n").replace(
        "team/llm", "chat-srv"
    )
    assert len(_audit(tmp_path, built)) == 2


def test_mounts_that_still_reach_the_data(tmp_path: Path) -> None:
    # the ENV keeps the data at or below the mounted folder
    kept = LLM.replace("/srv/models/llm", "/root/.ollama/models").replace(
        "/srv/cache/hf", "/root/.cache/huggingface"
    )
    assert _audit(tmp_path, RUN_SPAN, kept) == []
    # the README names the variable (`-e OLLAMA_MODELS=…`, a note) or the new folder
    told = RUN_SPAN.replace("--name llm", "-e OLLAMA_MODELS=/root/.ollama --name llm").replace(
        "```bash\n", "Models go to `/srv/cache/hf`.\n\n```bash\n"
    )
    assert _audit(tmp_path, told) == []
    # an image that runs as another user, a value with a variable, no ENV at all
    assert _audit(tmp_path, RUN_SPAN, LLM.replace('CMD ["/bin/serve"]', 'USER app\nCMD ["/bin/serve"]')) == []
    assert (
        _audit(
            tmp_path,
            RUN_SPAN,
            LLM.replace("/srv/models/llm", "$DATA/llm").replace("/srv/cache/hf", "${DATA}/hf"),
        )
        == []
    )
    assert _audit(tmp_path, RUN_SPAN, 'FROM ubuntu:22.04\nCMD ["/bin/serve"]\n') == []
    # a run of an image neither built by the README nor named after the Dockerfile's folder
    assert _audit(tmp_path, RUN_SPAN, folder="server") == []


def test_many_mounts_each_told_and_a_named_folder_silences_them_all(tmp_path: Path) -> None:
    # Whether the README names the variable or its folder is asked once, not once a mount (n² on a
    # README of thousands of runs).
    runs = "".join(f"docker run -v hf{k}:/root/.cache/huggingface team/llm\n" for k in range(200))
    readme = f"# llm\n\n```bash\n{runs}```\n"
    found = _audit(tmp_path / "a", readme)
    # one claim, 200 times: one finding at the first mount, the others counted
    assert len(found) == 1 and found[0].startswith("4: README mounts /root/.cache/huggingface")
    assert "also at lines 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 and 189 more" in found[0]
    assert _audit(tmp_path / "b", readme + "\nThe cache is `/srv/cache/hf/`.\n") == []
