"""`docgen.audit.run_args.doubled_programs`: a `docker run` of the README's own image that names again,
right after the image, the program the image's exec-form ENTRYPOINT starts (`ENTRYPOINT ["ffmpeg"]` and
`docker run … IMAGE ffmpeg -i …`) is a finding; a run passing only the program's arguments, an
`--entrypoint` override, a wrapper (`tini --`), an entrypoint script, the shell form and an image the
README does not build are not."""

from __future__ import annotations

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

TRANSCODER = """\
FROM nvidia/cuda:12.2.0-devel-ubuntu22.04
RUN apt-get update && apt-get install -y build-essential yasm
RUN git clone https://git.ffmpeg.org/ffmpeg.git && cd ffmpeg && ./configure --enable-nvenc && make install
WORKDIR /data
ENTRYPOINT ["/usr/local/bin/ffmpeg"]
CMD ["-version"]
"""

TRANSCODER_README = """\
# nvenc-transcoder

Build it:

```sh
docker build -t nvenc-transcoder .
```

Transcode a file (the image runs ffmpeg, so give only its options):

```sh
docker run --rm --gpus all -v "$PWD:/data" nvenc-transcoder \\
    -hwaccel cuda -i in.mkv -c:v h264_nvenc out.mp4
```

Scale on the GPU:

```sh
docker run --rm --gpus all -v "$PWD:/data" nvenc-transcoder \\
    ffmpeg -hwaccel cuda -i in.mkv -vf scale_cuda=1280:720 -c:v hevc_nvenc small.mp4
```

Probe a file with another program of the image:

```sh
docker run --rm -v "$PWD:/data" --entrypoint ffprobe nvenc-transcoder in.mkv
docker run --rm -v "$PWD:/data" --entrypoint ffmpeg nvenc-transcoder ffmpeg -i in.mkv
docker run --rm -v "$PWD:/data" jrottenberg/ffmpeg ffmpeg -i in.mkv out.webm
```
"""


def found(readme: str, dockerfile: str) -> list[str]:
    model = model_of(parse_dockerfile(dockerfile, "Dockerfile"))
    diagnostics = audit(readme, "README.md", model)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in diagnostics if "appends the" in d.message]


def test_the_entrypoint_program_named_again_after_the_image() -> None:
    assert found(TRANSCODER_README, TRANSCODER) == [
        "20: README runs nvenc-transcoder ffmpeg …, but Dockerfile:5 already sets ENTRYPOINT "
        '["/usr/local/bin/ffmpeg"]: docker appends the words after the image to it, so the container runs '
        "/usr/local/bin/ffmpeg ffmpeg …, giving ffmpeg to ffmpeg as its first argument (drop ffmpeg after "
        "the image, or use --entrypoint) (certain)"
    ]


def test_the_program_by_its_path() -> None:
    readme = TRANSCODER_README.replace("\n    ffmpeg -hwaccel", "\n    /usr/local/bin/ffmpeg -hwaccel")
    assert [f[:61] for f in found(readme, TRANSCODER)] == [
        "20: README runs nvenc-transcoder /usr/local/bin/ffmpeg …, but"
    ]


def test_wrappers_scripts_and_shell_form_are_left_alone() -> None:
    for entry in (
        'ENTRYPOINT ["/usr/bin/tini", "--", "ffmpeg"]',
        'ENTRYPOINT ["/docker-entrypoint.sh"]',
        'ENTRYPOINT ["ffmpeg-wrapper"]',
        "ENTRYPOINT /usr/local/bin/ffmpeg",
        'ENTRYPOINT ["/bin/bash", "-c"]',
    ):
        dockerfile = TRANSCODER.replace('ENTRYPOINT ["/usr/local/bin/ffmpeg"]', entry)
        assert found(TRANSCODER_README, dockerfile) == [], entry


def test_a_copied_program_of_the_project_may_execute_its_arguments() -> None:
    dockerfile = TRANSCODER.replace(
        'ENTRYPOINT ["/usr/local/bin/ffmpeg"]', 'COPY ffmpeg /usr/local/bin/ffmpeg\nENTRYPOINT ["ffmpeg"]'
    )
    assert found(TRANSCODER_README, dockerfile) == []


CLI = """\
FROM python:3.11-slim
WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY transcribe.py .
ENTRYPOINT ["python3", "-u"]
CMD ["transcribe.py", "--help"]
"""

CLI_README = """\
# whisper-batch

## Docker

```bash
docker build -t whisper-batch:latest .
# Transcribe every file of ./audio
docker run --rm -v $(pwd)/audio:/app/audio whisper-batch:latest transcribe.py --model small audio/
# The same with the interpreter spelled out
docker run --rm -v $(pwd)/audio:/app/audio whisper-batch:latest python transcribe.py --model small audio/
```

An older image, `whisper-batch-legacy`, ran `docker run whisper-batch-legacy python3 transcribe.py`.
"""


def test_python_given_python_again() -> None:
    assert found(CLI_README, CLI) == [
        "10: README runs whisper-batch:latest python …, but Dockerfile:6 already sets ENTRYPOINT "
        '["python3", "-u"]: docker appends the words after the image to it, so the container runs python3 '
        "-u python …, giving python to python3 as its first argument (drop python after the image, or use "
        "--entrypoint) (certain)"
    ]


def test_an_entrypoint_running_a_script_is_read_only_when_the_run_repeats_it() -> None:
    dockerfile = CLI.replace('ENTRYPOINT ["python3", "-u"]', 'ENTRYPOINT ["python3", "transcribe.py"]')
    assert [f[:92] for f in found(CLI_README, dockerfile)] == [
        "10: README runs whisper-batch:latest python transcribe.py …, but Dockerfile:6 already sets E"
    ]
    readme = CLI_README.replace("latest python transcribe.py", "latest python evaluate.py")
    assert found(readme, dockerfile) == []  # the words go to transcribe.py


def test_an_image_the_readme_does_not_build() -> None:
    readme = CLI_README.replace("docker build -t whisper-batch:latest .", "docker build -t whisper-cli .")
    assert found(readme, CLI) == []


def test_an_image_named_as_its_program() -> None:
    readme = (
        "# ffmpeg-gpu\n\n```\ndocker build -t ffmpeg .\n"
        "docker run --rm --gpus all -v $PWD:/data ffmpeg -hwaccel cuda -i in.mp4 out.mp4\n"
        "docker run --rm --gpus all -v $PWD:/data ffmpeg ffmpeg -i in.mp4 out.mp4\n```\n"
    )
    assert [f[:40] for f in found(readme, TRANSCODER)] == ["6: README runs ffmpeg ffmpeg …, but Dock"]
