"""`docgen audit`: a README running the image with its default command and no mount while that command
reads its files from a folder nothing in the image fills (docgen/audit/cmd_files.py,
`unfilled_cmd_paths`)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

SPEECH = """\
FROM nvidia/cuda:12.2.0-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip && rm -rf /var/lib/apt/lists/*
RUN pip install voicebox-server
WORKDIR /srv
EXPOSE 7000
ENTRYPOINT ["python3", "-m", "voicebox.serve"]
CMD ["--weights", "/weights/voice.pt", "--config", "/weights/voice.yaml", "--port", "7000"]
"""
SPEECH_README = """\
# Speech server

docker run --gpus all -p 7000:7000 ghcr.io/someone/voicebox:latest

Then fetch audio from http://localhost:7000/say.
"""
DETECT = """\
FROM python:3.11-slim
RUN pip install --no-cache-dir detectlib
COPY serve.py /app/serve.py
WORKDIR /app
CMD python serve.py --model=/models/detector.onnx --labels=/models/labels.txt --out /results/out.json
"""
DETECT_README = """\
# Detector

```sh
docker build -t detector .
docker run --rm -p 9000:9000 detector
```
"""


def found(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "mounts nothing at" in d.message
    ]


def test_a_published_image_run_from_a_prose_line_with_no_mount(tmp_path: Path) -> None:
    assert found(tmp_path, SPEECH_README, {"Dockerfile": SPEECH}) == [
        (
            3,
            "README runs ghcr.io/someone/voicebox:latest with its default command and mounts nothing at "
            "/weights, but Dockerfile:7 has it read /weights/voice.pt (--weights) and nothing in the image "
            "puts files in /weights: the command cannot find them (mount a folder holding them: -v "
            "DIR:/weights)",
            "likely",
        )
    ]


def test_a_built_image_run_in_a_block_with_a_shell_cmd(tmp_path: Path) -> None:
    [(line, message, _)] = found(tmp_path, DETECT_README, {"Dockerfile": DETECT, "serve.py": "print()\n"})
    assert line == 5
    assert "/models/detector.onnx (--model)" in message


def test_a_mount_of_the_folder_anywhere_in_the_readme_is_silent(tmp_path: Path) -> None:
    mounted = SPEECH_README.replace("-p 7000:7000", "-p 7000:7000 -v $PWD/weights:/weights")
    assert found(tmp_path / "a", mounted, {"Dockerfile": SPEECH}) == []
    told = SPEECH_README + "\nFor your own voice: `docker run -v ./w:/weights ghcr.io/someone/voicebox`.\n"
    assert found(tmp_path / "b", told, {"Dockerfile": SPEECH}) == []
    other = SPEECH_README.replace("-p 7000:7000", "-p 7000:7000 --mount type=bind,src=./w,dst=/srv/w")
    assert found(tmp_path / "c", other, {"Dockerfile": SPEECH}) == []


def test_a_folder_the_image_fills_or_the_system_holds_is_silent(tmp_path: Path) -> None:
    filled = SPEECH.replace("WORKDIR /srv", "RUN voicebox-fetch --to /weights\nWORKDIR /srv")
    assert found(tmp_path / "a", SPEECH_README, {"Dockerfile": filled}) == []
    volume = SPEECH.replace("WORKDIR /srv", "VOLUME /weights")
    assert found(tmp_path / "b", SPEECH_README, {"Dockerfile": volume}) == []
    system = SPEECH.replace("/weights/", "/opt/weights/")
    assert found(tmp_path / "c", SPEECH_README, {"Dockerfile": system}) == []


def test_a_run_with_a_command_or_another_entrypoint_is_silent(tmp_path: Path) -> None:
    command = SPEECH_README.replace("voicebox:latest", "voicebox:latest --help")
    assert found(tmp_path / "a", command, {"Dockerfile": SPEECH}) == []
    entry = SPEECH_README.replace("docker run --gpus all", "docker run --entrypoint bash --gpus all")
    assert found(tmp_path / "b", entry, {"Dockerfile": SPEECH}) == []


def test_an_output_path_or_a_start_script_is_silent(tmp_path: Path) -> None:
    only_out = DETECT.replace("--model=/models/detector.onnx --labels=/models/labels.txt ", "")
    assert found(tmp_path / "a", DETECT_README, {"Dockerfile": only_out, "serve.py": ""}) == []
    script = SPEECH.replace('ENTRYPOINT ["python3", "-m", "voicebox.serve"]', 'ENTRYPOINT ["/start.sh"]')
    assert found(tmp_path / "b", SPEECH_README, {"Dockerfile": script}) == []
