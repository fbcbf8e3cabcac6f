"""`docgen audit`: commands that cannot run as written by their own grammar — a `docker build` with no
build context, an option `docker build`/`run`/`compose` does not have (docgen/audit/grammar.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM python:3.12-slim\nCOPY . /app\n"


COMPOSE_FILE = "services:\n  app:\n    build: .\n  db:\n    image: postgres:16\n    profiles: [gpu]\n"
"""The compose file the blocks' `docker compose` commands find (one with none is another finding)."""


def found(root: Path, block: str) -> list[tuple[int, str, str]]:
    make_tree(
        root,
        {"Dockerfile": APP, "compose.yaml": COMPOSE_FILE, "README.md": f"# App\n\n```bash\n{block}\n```\n"},
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [(d.line, d.message, d.confidence) for d in audit(text, "README.md", model, {}, root, root)]


NO_CONTEXT = "README's docker build names no build context (a folder, a URL or -): it cannot run"


@pytest.mark.parametrize(
    "block",
    [
        "docker build -f Dockerfile -t app:cpu",
        "docker buildx build \\\n  --platform linux/amd64 \\\n  -t app:cpu --push",
        "sudo docker image build --no-cache -t app",
    ],
)
def test_a_build_with_no_context(tmp_path: Path, block: str) -> None:
    assert found(tmp_path, block) == [(4, NO_CONTEXT, "certain")]


@pytest.mark.parametrize(
    "block",
    [
        "docker build -f Dockerfile -t app:cpu .",  # the context
        "docker build -t app:cpu \\\n  -f Dockerfile \\\n  .",  # on a continued line
        "docker build -t app - < Dockerfile",  # from standard input
        "docker build -t <image name>:<tag> .",  # a placeholder the reader fills in
        "docker build -t app https://github.com/org/app.git#main",  # a URL
        "docker build . -t app --pull",  # options after it
        "podman build -t app -f Dockerfile",  # podman builds the current folder
        "# docker build -t app",  # a comment
        "docker build --help",
        "docker build --frobnicate x .",  # an option docgen does not know may take a value
        "docker build -t app `\n  .",  # a PowerShell continuation
        "$ docker build -t app \\\n> .",  # a console's prompt on the continued line
    ],
)
def test_a_build_with_a_context_or_unknowable(tmp_path: Path, block: str) -> None:
    # (PowerShell's backtick in a bash block is a finding of its own, `continuations`: not the grammar's)
    assert [f for f in found(tmp_path, block) if "PowerShell's backtick" not in f[1]] == []


@pytest.mark.parametrize(
    ("block", "said"),
    [
        (
            "docker build . --build-args VERSION=5.6 -t app",
            "README passes --build-args to docker build, which has no such option "
            "(did you mean --build-arg?)",
        ),
        (
            "docker run --rm --gpu all -it app:latest",
            "README passes --gpu to docker run, which has no such option (did you mean --gpus?)",
        ),
        (
            "docker compose -f compose.yaml up -d --remove-orphan",
            "README passes --remove-orphan to docker compose up, which has no such option "
            "(did you mean --remove-orphans?)",
        ),
        (
            "podman build --build-args V=1 -t app .",
            "README passes --build-args to podman build, which has no such option "
            "(did you mean --build-arg?)",
        ),
    ],
)
def test_an_option_the_command_lacks(tmp_path: Path, block: str, said: str) -> None:
    assert found(tmp_path, block) == [(4, said, "certain")]


@pytest.mark.parametrize(
    "block",
    [
        "docker run --rm -it app:latest python serve.py --gpu all",  # the container's own option
        "docker run -it --gpus all --shm-size=8g --ipc=host -p 8080:80 app",
        "docker compose run --rm app pytest --build-args",  # the service's command's
        "docker compose exec app bash -c 'ls --colour'",
        "docker compose up -d --build --wait",
        "docker compose --profile gpu up --no-attach db",
        "docker scout cves --only-fixed app",  # a plugin docgen does not know
        "docker build --ssh default --secret id=tok,src=tok.txt -t app .",
        "docker run --frobnicate x --gpu all app",  # after an unknown option `x` may be the image
    ],
)
def test_options_the_command_has_or_not_its_own(tmp_path: Path, block: str) -> None:
    assert found(tmp_path, block) == []


def glued(name: str, command: str, option: str, value: str) -> str:
    return (
        f"README passes {name} to {command}, which has no such option: {command} refuses the command "
        f"(unknown flag: {name}); {option} takes its value after `=` or a blank, not `:` "
        f"({option}={value} or {option} {value})"
    )


@pytest.mark.parametrize(
    ("block", "said"),
    [
        (
            "docker run -it --rm --gpus all --network:container:<container_id> vendor/demo:tag bash",
            glued(
                "--network:container:<container_id>", "docker run", "--network", "container:<container_id>"
            ),
        ),
        (
            "sudo docker run -d --shm-size:16g -p 7860:7860 trainer:latest",
            glued("--shm-size:16g", "docker run", "--shm-size", "16g"),
        ),
        (
            "docker build --platform:linux/arm64 -t edge-app .",
            glued("--platform:linux/arm64", "docker build", "--platform", "linux/arm64"),
        ),
        (
            "docker exec -it --user:root web bash",
            glued("--user:root", "docker exec", "--user", "root"),
        ),
    ],
)
def test_an_option_glued_to_its_value_with_a_colon(tmp_path: Path, block: str, said: str) -> None:
    assert found(tmp_path, block) == [(4, said, "certain")]


@pytest.mark.parametrize(
    "block",
    [
        "docker run --network=container:db --rm probe:1",  # `=` and a blank: both docker's
        "docker run --network container:db -v ./data:/data probe:1",
        "docker run --rm -it probe:1 serve --listen:0.0.0.0:80",  # the container's own option
        "docker run --rm --privileged: probe:1",  # no value: not a glued option
        "docker run --rm --gpus all --frobnicate:x probe:1",  # an option docker run lacks anyway
    ],
)
def test_options_with_a_colon_that_are_not_glued(tmp_path: Path, block: str) -> None:
    assert [f for f in found(tmp_path, block) if "not `:`" in f[1]] == []


def misplaced(option: str, lost: str, image: str = "app:cpu", many: bool = False) -> str:
    return (
        f"README's docker run passes {option} after the image {image}: docker run gives the words after "
        f"the image to the container as its command, so {'they are' if many else 'it is'} not docker's "
        f"option{'s' if many else ''} ({lost}: put {'them' if many else 'it'} before the image)"
    )


@pytest.mark.parametrize(
    ("block", "said"),
    [
        (
            'docker run -d --name app -p 8091:8091 app:cpu -e THREADS="10" -v ./models:/app/models',
            misplaced(
                "-e THREADS=10, -v ./models:/app/models",
                "no variable is set, no volume is mounted",
                many=True,
            ),
        ),
        (
            "docker run --rm app:cpu \\\n  -v $PWD/data:/data \\\n  --gpus all",
            misplaced("-v $PWD/data:/data, --gpus all", "no volume is mounted, no GPU is given", many=True),
        ),
        ("docker run -it app:cpu --gpus=all", misplaced("--gpus=all", "no GPU is given")),
        ("sudo docker run app:cpu -p 8080:80", misplaced("-p 8080:80", "no port is published")),
        (
            "docker run app:cpu --device /dev/kfd --device /dev/dri",
            misplaced("--device /dev/kfd, --device /dev/dri", "no device is given", many=True),
        ),
    ],
)
def test_a_run_option_after_the_image(tmp_path: Path, block: str, said: str) -> None:
    assert found(tmp_path, block) == [(4, said, "certain")]


@pytest.mark.parametrize(
    "block",
    [
        "docker run --rm -e THREADS=10 -v ./models:/app/models app:cpu",  # before the image
        "docker run --rm app:cpu -v",  # the program's verbose flag
        "docker run --rm app:cpu -p 8080",  # the program's port
        "docker run --rm app:cpu serve -e prod -v ./m:/m",  # a command comes first
        "docker run --rm app:cpu bash -c 'docker run -e X=1 other'",
        "docker run --rm app:cpu -e production",  # the program's own `-e` (no NAME=value)
        "docker run ... -e HSA_OVERRIDE_GFX_VERSION=10.3.0 ...",  # the image left out
        "docker run --rm <image> -v ./m:/m",
    ],
)
def test_options_after_the_image_that_are_the_containers(tmp_path: Path, block: str) -> None:
    assert found(tmp_path, block) == []


def split(value: str, option: str, taken: str) -> str:
    return (
        f"README's docker run gives --entrypoint {value} {taken}: --entrypoint takes one word, so docker "
        f"reads {taken} as its own {option} and refuses it (give the program's arguments after the image)"
    )


@pytest.mark.parametrize(
    ("block", "said"),
    [
        (
            "docker run --gpus all -p 9000:9000 \\\n  --entrypoint python3 -m relay.api.server \\\n"
            "  --port 9000 \\\n  app:cpu",
            split("python3", "--memory", "-m relay.api.server"),
        ),
        (
            "docker run --rm --entrypoint=/bin/bash -c 'relay serve --port 9000' app:cpu",
            split("/bin/bash", "--cpu-shares", "-c relay serve --port 9000"),
        ),
        (
            'docker run --rm --entrypoint "python -m relay.api" app:cpu',
            'README\'s docker run gives --entrypoint "python -m relay.api": --entrypoint takes one program, '
            'so docker looks for a program named "python -m relay.api" and cannot start it (give the '
            "program's arguments after the image)",
        ),
    ],
)
def test_an_entrypoint_of_several_words(tmp_path: Path, block: str, said: str) -> None:
    assert found(tmp_path, block) == [(4, said, "certain")]


@pytest.mark.parametrize(
    "block",
    [
        "docker run --rm --entrypoint python3 app:cpu -m relay.api.server --port 9000",
        "docker run --rm -it --entrypoint sh app:cpu -c 'relay serve'",
        "docker run --rm --entrypoint=/bin/bash -it app:cpu",
        "docker run --rm --entrypoint python -m 4g app:cpu serve.py",  # docker's own --memory 4g
        "docker run --rm --entrypoint '' app:cpu relay serve",  # clears the ENTRYPOINT
        "docker run --rm app:cpu --entrypoint python -m relay.api",  # after the image: the program's
        "docker run --rm --entrypoint /opt/relay/start app:cpu -c 4",
    ],
)
def test_an_entrypoint_of_one_word(tmp_path: Path, block: str) -> None:
    assert found(tmp_path, block) == []


ARGS = (
    "FROM python:3.12-slim\nARG GPU_ARCH=sm_80\nARG TORCH_VERSION\n"
    "RUN pip install torch==$TORCH_VERSION && echo $GPU_ARCH\n"
)


def found_with_args(root: Path, block: str) -> list[tuple[int, str, str]]:
    make_tree(
        root,
        {"Dockerfile": ARGS, "compose.yaml": COMPOSE_FILE, "README.md": f"# App\n\n```bash\n{block}\n```\n"},
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [(d.line, d.message, d.confidence) for d in audit(text, "README.md", model, {}, root, root)]


def refused(option: str, tail: str) -> str:
    return f"README passes {option} to docker build, which has no such option{tail}"


@pytest.mark.parametrize(
    ("block", "said"),
    [
        (
            "% docker image build -e GPU_ARCH=sm_90 -t solver:0.2 .",
            refused(
                "-e",
                " (it is docker run's): GPU_ARCH is a build arg (Dockerfile:2), did you mean "
                "--build-arg GPU_ARCH=sm_90?",
            ),
        ),
        (
            "docker buildx build --env TORCH_VERSION=2.5.1 -t solver .",
            refused(
                "--env",
                " (it is docker run's): TORCH_VERSION is a build arg (Dockerfile:3), did you "
                "mean --build-arg TORCH_VERSION=2.5.1?",
            ),
        ),
        (
            "docker builder build --env=GPU_ARCH=sm_86 .",
            refused(
                "--env",
                " (it is docker run's): GPU_ARCH is a build arg (Dockerfile:2), did you mean "
                "--build-arg GPU_ARCH=sm_86?",
            ),
        ),
        (
            "docker build -v ./data:/data -t solver .",
            refused("-v", " (it is docker run's): docker refuses the build"),
        ),
        (
            "docker build --gpus all -t solver .",
            refused("--gpus", " (it is docker run's): docker refuses the build"),
        ),
        ("docker build -it solver .", refused("-i", " (it is docker run's): docker refuses the build")),
        ("docker build -x -t solver .", refused("-x", ": docker refuses the build")),
    ],
)
def test_an_option_docker_build_does_not_have(tmp_path: Path, block: str, said: str) -> None:
    assert found_with_args(tmp_path, block) == [(4, said, "certain")]


@pytest.mark.parametrize(
    "block",
    [
        "docker build --build-arg GPU_ARCH=sm_90 -t solver:0.2 .",
        "docker build -qt solver -f Dockerfile .",  # bundled short options it has
        "docker build -o type=local,dest=out -c 512 -m 4g .",  # the legacy builder's -c and -m
        "docker buildx build -D --load -t solver .",
        "docker build -h",  # help
        "docker run -e GPU_ARCH=sm_90 -v ./data:/data solver",  # run has them
        "podman build -v ./cache:/cache -t solver .",  # podman build has -v
        "docker build --device nvidia.com/gpu=all -t solver .",  # buildx may have it
        "docker compose build --build-arg GPU_ARCH=sm_90",
        "docker build -t solver . && docker run -e DEBUG=1 solver",
    ],
)
def test_options_docker_build_has_or_another_command(tmp_path: Path, block: str) -> None:
    assert found_with_args(tmp_path, block) == []


def unquoted(command: str, name: str, value: str, word: str) -> str:
    return (
        f"README's {command} passes {name} {value} {word}: the value is not quoted, so {command} reads "
        f"{word} as an option of its own, which it does not have, and refuses to run (quote the value: "
        f'{name} "{value} {word}")'
    )


@pytest.mark.parametrize(
    ("block", "at", "said"),
    [
        (  # an image's extra launch flags, split at the blank
            "docker run -d \\\n  --gpus all \\\n  -p 8190:8190 \\\n"
            "  -e LAUNCH_FLAGS=--lowmem --no-attention-slicing \\\n  shop/painter:latest",
            7,
            unquoted("docker run", "-e", "LAUNCH_FLAGS=--lowmem", "--no-attention-slicing"),
        ),
        (  # a web UI's server flags, as a compose file sets them, moved into a run
            "docker run --rm --env WEBUI_FLAGS=--listen --listen-port 7861 -p 7861:7861 shop/webui",
            4,
            unquoted("docker run", "--env", "WEBUI_FLAGS=--listen", "--listen-port"),
        ),
        (
            "podman create --name ui -e SERVER_OPTS=--api --cors-allow-all shop/webui",
            4,
            unquoted("podman create", "-e", "SERVER_OPTS=--api", "--cors-allow-all"),
        ),
    ],
)
def test_an_env_value_split_by_a_blank(tmp_path: Path, block: str, at: int, said: str) -> None:
    assert found(tmp_path, block) == [(at, said, "certain")]


@pytest.mark.parametrize(
    "block",
    [
        "docker run -e LAUNCH_FLAGS=--lowmem --gpus all -p 8190:8190 shop/painter",  # a real option
        "docker run -e LAUNCH_FLAGS=--lowmem -it --rm shop/painter",
        'docker run -e "LAUNCH_FLAGS=--lowmem --no-attention-slicing" shop/painter',  # quoted whole
        "docker run -e LAUNCH_FLAGS='--lowmem --no-attention-slicing' shop/painter",  # the value quoted
        "docker run -d -e CLI_FLAGS=--no-xformers -p 8188:8188 shop/painter",  # one flag alone
        "docker run -e LAUNCH_FLAGS=--lowmem shop/painter --no-attention-slicing",  # the program's
        "docker run -e MODE=cpu shop/painter --threads 4",
        "podman run -e LAUNCH_FLAGS=--lowmem --pod painters shop/painter",  # podman's own option
        "docker run -e PORT=8190 --no-such-option shop/painter",  # a value that is no option list
    ],
)
def test_env_values_whole_or_the_next_word_an_option(tmp_path: Path, block: str) -> None:
    assert found(tmp_path, block) == []


def _file_context(context: str) -> str:
    return (
        f"README's docker build gives the file {context} as its build context: docker build takes a folder "
        "(or a URL, or -), so it cannot run (name the Dockerfile with -f and give its folder)"
    )


@pytest.mark.parametrize(
    ("block", "context"),
    [
        ('docker build -t "acme/solver" /path/to/Dockerfile', "/path/to/Dockerfile"),  # a path of the file
        ("sudo docker buildx build --load -t solver docker/gpu.Dockerfile", "docker/gpu.Dockerfile"),
        ("docker image build -t solver ./Containerfile", "./Containerfile"),
        ("docker build -t solver notes.txt", "notes.txt"),  # a file beside the README, of any name
    ],
)
def test_a_build_whose_context_is_a_file(tmp_path: Path, block: str, context: str) -> None:
    (tmp_path / "notes.txt").write_text("x\n", encoding="utf-8")
    assert found(tmp_path, block) == [(4, _file_context(context), "certain")]


def test_a_file_context_in_a_code_span_of_prose(tmp_path: Path) -> None:
    readme = (
        '# Solver\n\n* To build the image run `docker build -t "acme/solver" /path/to/Dockerfile`\n'
        "* Or `docker build -t acme/solver -f /path/to/Dockerfile /path/to` from anywhere\n"
    )
    make_tree(tmp_path, {"Dockerfile": APP, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    said = [(d.line, d.message) for d in audit(readme, "README.md", model, {}, tmp_path, tmp_path)]
    assert said == [(3, _file_context("/path/to/Dockerfile"))]


@pytest.mark.parametrize(
    "block",
    [
        "docker build -f docker/Dockerfile -t solver .",  # -f names the file, the context is a folder
        'docker build -f ./Dockerfile -t "solver:v0.1.0" ../../.',
        "docker build -t solver - < Dockerfile",  # the Dockerfile from standard input
        "docker build -t solver https://example.com/acme/solver/raw/main/Dockerfile",  # a URL
        "docker build -t solver git@example.com:acme/solver.git#main:Dockerfile",
        "sudo docker build -t acme/solver /tmp/build/",  # a folder
        "docker build -t solver dockerfile",  # a folder named so beside the README
        "docker build -t solver Dockerfile.d/",
        "podman build -t solver Containerfile",  # podman is not read for it
        "docker build --frobnicate x Dockerfile",  # an option docgen does not know
    ],
)
def test_a_build_whose_context_is_a_folder_or_unknowable(tmp_path: Path, block: str) -> None:
    (tmp_path / "dockerfile").mkdir()  # (holding a Dockerfile: one without is entered_builds' finding)
    (tmp_path / "dockerfile" / "Dockerfile").write_text(APP, encoding="utf-8")
    assert found(tmp_path, block) == []


# A `docker build` given two positional words: docker refuses it ("docker build requires exactly 1
# argument"). Modelled on an R analysis image's README (`docker build r_image:v1 ./`, the tag with no
# -t) and on a solver's (`docker build -t solver Dockerfile .`, the file given as well as the context).
def _two(words: str, image: str = "") -> str:
    said = (
        f"README's docker build passes 2 positional words ({words}): docker build takes exactly one, "
        "the build context, so it cannot run"
    )
    return said + (f" (did you mean -t {image}?)" if image else "")


@pytest.mark.parametrize(
    ("block", "said"),
    [
        ("docker build r_docker_dropt:v1 ./", _two("r_docker_dropt:v1, ./", "r_docker_dropt:v1")),
        (
            "sudo docker build --no-cache ghcr.io/acme/r:1.0 .",
            _two("ghcr.io/acme/r:1.0, .", "ghcr.io/acme/r:1.0"),
        ),
        ("docker build -t solver Dockerfile .", _two("Dockerfile, .")),
    ],
)
def test_a_build_given_two_positional_words(tmp_path: Path, block: str, said: str) -> None:
    assert found(tmp_path, block) == [(4, said, "certain")]


@pytest.mark.parametrize(
    "block",
    [
        "docker build -t r_docker_dropt:v1 ./",  # the tag given with -t
        "docker build [OPTIONS] PATH | URL | -",  # a synopsis
        "docker build -t app PATH",
        "docker build $BUILD_FLAGS .",  # a variable: it may hold options
        "docker build --squash-all app:v1 .",  # an option docgen does not know may take the value
        "docker build -t app . && docker run app:v1 ./serve",  # the second word is another command's
        "docker build -t app .  # then: docker push app",
    ],
)
def test_builds_with_one_context_or_that_cannot_be_told(tmp_path: Path, block: str) -> None:
    assert [f for f in found(tmp_path, block) if "positional" in f[1]] == []


def after(option: str, value: str, verb: str, base: str = "docker compose") -> str:
    return (
        f"README passes {option} {value} after {verb} in {base} {verb}, but {option} is an option of {base} "
        f"itself, not of its {verb} command: compose refuses it there (unknown flag), so the command cannot "
        f"run (put it before {verb}: {base} {option} {value} {verb})"
    )


@pytest.mark.parametrize(
    ("block", "said"),
    [
        (  # a llama/diffusion server pair's AMD line, after the NVIDIA line had it right
            "docker-compose -f docker-compose.amd.yml up --profile llama --profile sd -d --remove-orphans",
            after("--profile", "llama", "up", "docker-compose"),
        ),
        ("docker compose up -d -f compose.gpu.yaml", after("-f", "compose.gpu.yaml", "up")),
        (
            "sudo docker compose build --env-file .env.prod \\\n  web worker",
            after("--env-file", ".env.prod", "build"),
        ),
        ("docker compose down -p stack --volumes", after("-p", "stack", "down")),
    ],
)
def test_a_compose_option_after_the_command(tmp_path: Path, block: str, said: str) -> None:
    # (the compose file of the block is not planted: what other checks say of it is theirs)
    assert [f for f in found(tmp_path, block) if "is an option of" in f[1]] == [(4, said, "certain")]


@pytest.mark.parametrize(
    "block",
    [
        "docker compose -f compose.gpu.yaml --profile gpu up -d",  # before the command
        "docker-compose -f docker-compose.yml -p stack up --build --force-recreate",
        "docker compose up --build --force-recreate -d",
        "docker compose logs -f api",  # logs' own -f (--follow)
        "docker compose run -p 8080:80 --rm app",  # run's own -p (--publish)
        "docker compose build --progress plain --parallel",  # build's own
        "docker compose --dry-run up -d",
        "docker compose run --rm app train.py --profile fast -f cfg.yml",  # the service's command's
        "docker compose config --profiles",  # a command docgen has no table for
    ],
)
def test_compose_options_in_their_place(tmp_path: Path, block: str) -> None:
    assert [f for f in found(tmp_path, block) if "is an option of" in f[1]] == []


# --------------------------------------------------------------------------------------------------
# A short option docker run does not have


@pytest.mark.parametrize(
    ("block", "letter"),
    [
        ("docker run -it -b ./audio/:/data scribe:1 --diarize example.wav", "b"),
        ("docker run --rm \\\n  -g all \\\n  -p 8888:8888 lab:cuda", "g"),
        ("sudo docker run -itx --name lab lab:cuda", "x"),
    ],
)
def test_a_short_option_docker_run_lacks(tmp_path: Path, block: str, letter: str) -> None:
    said = [(line, m) for line, m, c in found(tmp_path, block) if "unknown shorthand" in m and c == "certain"]
    assert len(said) == 1
    assert said[0][0] == 4
    assert f"README passes -{letter} to docker run" in said[0][1]


@pytest.mark.parametrize(
    "block",
    [
        "docker run -it --rm -v ./audio:/data scribe:1 -b 16 example.wav",
        "docker run -dit -p 8888:8888 -e TOKEN=x -u 1000 -w /work -h lab lab:cuda",
        "docker run -ti -P -q -a stdout -m 4g -c 512 -l team=ml lab:cuda bash",
        "docker run --help",
        "docker run -<flag> lab:cuda",
        "podman run -it --pod ml -b x lab:cuda",
    ],
)
def test_short_options_docker_run_has(tmp_path: Path, block: str) -> None:
    assert [m for _, m, _ in found(tmp_path, block) if "unknown shorthand" in m] == []


def doubled(option: str, command: str = "docker run") -> str:
    return (
        f"README passes {option} to {command}, which has no such option: {command} refuses the command "
        f"(unknown flag: {option}); a bundle of short options takes one dash (did you mean -{option[2:]}?)"
    )


@pytest.mark.parametrize(
    ("block", "said"),
    [
        ("docker run --it --gpus all {image-name}", doubled("--it")),
        ("sudo docker run --rm --itd -p 8888:8888 app:gpu", doubled("--itd")),
        ("docker exec --it trainer bash", doubled("--it", "docker exec")),
        (
            "sudo docker run -dit --name lab --p hostport:8888 lab",
            "README passes --p to docker run, which has no such option: docker run refuses the command "
            "(unknown flag: --p); a short option takes one dash (did you mean -p?)",
        ),
    ],
)
def test_a_short_option_bundle_with_two_dashes(tmp_path: Path, block: str, said: str) -> None:
    assert found(tmp_path, block) == [(4, said, "certain")]


@pytest.mark.parametrize(
    "block",
    [
        "docker run -it --gpus all app",
        "docker run --interactive --tty --rm app",
        "docker exec -it trainer bash",
        "docker run --rm -it app python train.py --it 5",  # the container's own option
        "docker run --ip 10.0.0.5 app",  # a long option docker run has
        "docker exec --privileged -it app bash",
    ],
)
def test_short_option_bundles_and_long_options_it_has(tmp_path: Path, block: str) -> None:
    assert found(tmp_path, block) == []


def env_image(name: str, value: str, after: str) -> str:
    return (
        f"README's docker run passes -e {name} {value} with a blank for the `=`: -e {name} passes the "
        f"host's {name} through, so docker takes {value} as the image and runs it, and the options after "
        f"it ({after} …) as its command (write -e {name}={value})"
    )


@pytest.mark.parametrize(
    ("block", "at", "said"),
    [
        (
            "docker run -d --name trainer \\\n  -e MODE=train \\\n  -e CORPUS librispeech \\\n"
            "  -e DATA_DIR=/data \\\n  org/trainer",
            6,
            env_image("CORPUS", "librispeech", "-e"),
        ),
        (
            "docker run --rm -e PORT 8080 --gpus all -p 8080:8080 ghcr.io/org/server:1.2",
            4,
            env_image("PORT", "8080", "--gpus"),
        ),
    ],
)
def test_an_env_value_after_a_blank_taken_as_the_image(
    tmp_path: Path, block: str, at: int, said: str
) -> None:
    assert found(tmp_path, block) == [(at, said, "certain")]


@pytest.mark.parametrize(
    "block",
    [
        "docker run --rm -e HF_TOKEN --gpus all org/app:1",  # a pass-through before another option
        "docker run --rm -e DISPLAY app",  # a pass-through, then the image and nothing after
        "docker run --rm -e DISPLAY app python run.py -e 3",  # the container's own -e
        "docker run --rm -e MODE=train app",
    ],
)
def test_env_pass_throughs(tmp_path: Path, block: str) -> None:
    assert found(tmp_path, block) == []


MISSING = (
    "README's docker build gives {} as its build context, which does not exist: docker cannot find the "
    "context (path not found), so the build cannot run"
)


@pytest.mark.parametrize(
    ("block", "context"),
    [("docker build -t app:gpu .h", ".h"), ("docker build -t app -f Dockerfile docker/gpu", "docker/gpu")],
)
def test_a_build_context_that_does_not_exist(tmp_path: Path, block: str, context: str) -> None:
    (tmp_path / "docker").mkdir()
    assert found(tmp_path, block) == [(4, MISSING.format(context), "certain")]


@pytest.mark.parametrize(
    "block",
    [
        "docker build -t cuda-app ./cuda-app",  # the reader's own application's folder
        "docker buildx build --file docker/Dockerfile -t app .",
        "docker build -t app https://github.com/org/app.git",
        "docker build -t app - < Dockerfile",
        "docker build -t app -f Dockerfile docker/",  # a folder that is there
        "git clone https://github.com/org/app.git\ncd app\ndocker build -t app sub/gpu",  # made first
        "docker build -t app ...",  # a synopsis
    ],
)
def test_build_contexts_there_or_not_ours(tmp_path: Path, block: str) -> None:
    (tmp_path / "docker").mkdir()
    assert found(tmp_path, block) == []


def test_the_flags_a_run_sets_are_read() -> None:
    from docgen.audit.grammar import RUN, read_words

    read = read_words(["-it", "--rm", "--init=false", "-d", "--name", "x", "img", "--rm"], RUN)
    assert read.flags == ["-i", "-t", "--rm", "-d"]
    assert read.values == [("--name", "x")]
    assert read.positional == ["img"]


# -- an option mangled by a stray character -----------------------------------------------------------


@pytest.mark.parametrize(
    ("block", "option", "meant"),
    [
        # modelled on a Jetson README whose run lost `ru` to a Ctrl-C echoed as ^C
        ("docker run --rm --^Cntime nvidia --network host -it app", "--^Cntime", "--runtime"),
        ("docker run -it --n^Cwork host app", "--n^Cwork", "--network"),
        ("docker build --bu^C-arg X=1 -t app .", "--bu^C-arg", "--build-arg"),
        ("docker compose up --re^Cphans", "--re^Cphans", "--remove-orphans"),
    ],
)
def test_an_option_holding_a_character_no_option_has(
    tmp_path: Path, block: str, option: str, meant: str
) -> None:
    got = [m for _, m, _ in found(tmp_path, block) if option in m]
    assert len(got) == 1
    assert got[0].startswith(f"README passes {option} to ")
    assert "(unknown flag: " in got[0]
    assert got[0].endswith(f"the option holds characters no option has (did you mean {meant}?)")


def test_a_slip_with_a_stray_character_is_told_once(tmp_path: Path) -> None:
    got = [m for _, m, _ in found(tmp_path, "docker run -it --netw@ork host app") if "--netw@ork" in m]
    assert got == [
        "README passes --netw@ork to docker run, which has no such option (did you mean --network?)"
    ]


@pytest.mark.parametrize(
    "block",
    [
        "docker run --runtime nvidia --rm app",
        "docker run --<option> app",
        "docker run --${FLAG} app",
        "docker run --^Cqqqqqqqq app",  # near no option: a word of its own
        "docker run --xyz@abc app",
        "docker run --gpus all app --^Cntime",  # after the image: the container's own words
    ],
)
def test_options_that_are_known_placeholders_or_near_none(tmp_path: Path, block: str) -> None:
    assert [m for _, m, _ in found(tmp_path, block) if "characters no option has" in m] == []


# -- a long option written with one dash (`-env=X`: docker reads `-e nv=X`) -------------------------


def one_dash(word: str, command: str, reading: str, meant: str) -> str:
    return (
        f"README passes {word} to {command}: a long option takes two dashes, and with one {command} reads "
        f"it as short options ({reading}), not as --{meant.lstrip('-').partition('=')[0]} "
        f"(did you mean {meant}?)"
    )


def one_dash_refused(word: str, command: str, letter: str, meant: str) -> str:
    return (
        f"README passes {word} to {command}: a long option takes two dashes, and with one {command} reads "
        f"it as short options and refuses the command (unknown shorthand flag: '{letter}' in {word}), so it "
        f"cannot run (did you mean {meant}?)"
    )


@pytest.mark.parametrize(
    ("block", "said"),
    [
        # modelled on a ROS desktop image's GUI run: `-env="DISPLAY"` sets a variable `nv`
        (
            'docker run -it --privileged -env="DISPLAY" --env="QT_X11_NO_MITSHM=1" \\\n'
            "  -v /tmp/.X11-unix:/tmp/.X11-unix viewer",
            one_dash("-env=DISPLAY", "docker run", "-e nv=DISPLAY", "--env=DISPLAY"),
        ),
        # modelled on a web image's quick start: `-name` is `-n`, which docker run does not have
        ("docker run -d -name web -p 8080:80 site", one_dash_refused("-name", "docker run", "n", "--name")),
        ("sudo docker run -rm -it app", one_dash_refused("-rm", "docker run", "r", "--rm")),
        ("docker run -detach app", one_dash("-detach", "docker run", "-d -e tach", "--detach")),
        ("docker build -tag app:1 .", one_dash("-tag", "docker build", "-t ag", "--tag")),
        ("docker exec -it -user root lab bash", one_dash("-user", "docker exec", "-u ser", "--user")),
    ],
)
def test_a_long_option_with_one_dash(tmp_path: Path, block: str, said: str) -> None:
    assert found(tmp_path, block) == [(4, said, "certain")]


@pytest.mark.parametrize(
    "block",
    [
        "docker run -it --rm -e DISPLAY app",
        "docker run -dit --name web app",
        "docker run -itd app",
        "docker run -ip 8080:80 app",  # `-i -p 8080:80`: a bundle docker reads as meant (`--ip` is another)
        "docker run -eDISPLAY=:0 -p8080:80 app",  # short options holding their values
        "docker run app -name web --rm",  # after the image: the container's own
        "docker run --env=DISPLAY -v $PWD:/w app",
        "docker build -t app -f Dockerfile .",
        "docker exec -it -u root lab bash",
    ],
)
def test_short_options_and_long_ones_with_two_dashes(tmp_path: Path, block: str) -> None:
    assert found(tmp_path, block) == []


# -- a `docker exec` given options it lacks, or options after its container ------------------------


def after_container(
    words: str, container: str, program: str, tail: str, command: str = "docker exec", what: str = "container"
) -> str:
    return (
        f"README's {command} gives {words} after the {what} {container}: {command} runs the words after "
        f"the {what} as its command, so it runs a program named {program}, which the container does not "
        f"have (executable file not found), and the command cannot run; {tail}"
    )


@pytest.mark.parametrize(
    ("block", "said"),
    [
        # modelled on a training README that asks for GPUs when it enters a compose service's container
        (
            "sudo docker exec -it trainer-app-1 --runtime=nvidia --gpus all bash",
            after_container(
                "--runtime=nvidia --gpus all",
                "trainer-app-1",
                "--runtime=nvidia",
                "--runtime and --gpus are options of docker run, not of docker exec: they are set when the "
                "container is made",
            ),
        ),
        (
            "docker exec lab -e HF_TOKEN=x python fetch.py",
            after_container(
                "-e HF_TOKEN=x",
                "lab",
                "-e",
                "-e is an option of docker exec: put it before the container",
            ),
        ),
        (
            "docker compose exec app --user root bash",
            after_container(
                "--user root",
                "app",
                "--user",
                "--user is an option of docker compose exec: put it before the service",
                command="docker compose exec",
                what="service",
            ),
        ),
        (
            "docker exec --gpus all -it lab bash",
            "README passes --gpus to docker exec, which has no such option: docker exec refuses the command "
            "(unknown flag: --gpus), so it cannot run (--gpus is docker run's: it is set when the container "
            "is made)",
        ),
        (
            "docker exec -T lab pytest",
            "README passes -T to docker exec, which has no such option: docker exec refuses the command "
            "(unknown shorthand flag: 'T' in -T), so it cannot run (-T is docker compose exec's)",
        ),
    ],
)
def test_a_docker_exec_given_options_it_lacks(tmp_path: Path, block: str, said: str) -> None:
    assert found(tmp_path, block) == [(4, said, "certain")]


@pytest.mark.parametrize(
    "block",
    [
        "docker exec -it lab bash -c 'nvidia-smi --query-gpu=name --format=csv'",
        "docker exec -it lab python train.py --gpus all",  # the program's own option
        "docker compose exec -T app pytest",  # compose exec's own `-T`
        "docker compose exec --index 2 app bash",
        "docker compose exec app python -m app --env prod",
        "docker run --gpus all --runtime nvidia -it lab bash",  # docker run has them
        "docker exec -it -e TOKEN=1 --env MODE=x -w /srv lab bash",
        "docker exec -it $(docker ps -q -f name=lab) bash",
        "docker exec --frobnicate lab -x",  # an option docgen does not know: the container is not known
    ],
)
def test_docker_execs_it_leaves_alone(tmp_path: Path, block: str) -> None:
    assert found(tmp_path, block) == []


# -- an option a package installer refuses, in the README's own commands ------------------------------


def refused(program: str, word: str, why: str, said: str) -> str:
    tool = program.split()[0]
    return (
        f"README's {program} passes {word}, an option {tool} does not take ({why}): it stops with "
        f'"{said}", so the command cannot run'
    )


@pytest.mark.parametrize(
    ("block", "line", "said", "sure"),
    [
        (  # modelled on a bot's setup notes
            "python3 -m venv .venv\n. .venv/bin/activate\npip install -upgrade pip\npip install -e .",
            6,
            refused(
                "pip install",
                "-upgrade",
                "a long option written with one dash is read as short options, and there is no -u; did you "
                "mean --upgrade?",
                "no such option: -u",
            ),
            "certain",
        ),
        (  # modelled on a C++ project's build notes
            "$ sudo apt update\n$ sudo apt-get install -y \\\n    --no-install-recomends gcc g++ make",
            6,
            refused(
                "apt-get install",
                "--no-install-recomends",
                "did you mean --no-install-recommends?",
                "Command line option --no-install-recomends is not understood in combination with the "
                "other options",
            ),
            "likely",
        ),
        (
            "micromamba install -y -n base ---file env.yml",
            4,
            refused("micromamba install", "---file", "three dashes", "it has no option ---file"),
            "certain",
        ),
        (
            "conda create -n app python=3.11 ---yes",
            4,
            refused("conda create", "---yes", "three dashes", "unrecognized arguments: ---yes"),
            "certain",
        ),
    ],
)
def test_an_installer_option_the_program_refuses(
    tmp_path: Path, block: str, line: int, said: str, sure: str
) -> None:
    assert found(tmp_path, block) == [(line, said, sure)]


@pytest.mark.parametrize(
    "block",
    [
        "pip install --no-cache -U ferry  # an unambiguous start of --no-cache-dir",
        "sudo apt-get install -yqq --no-install-recommends --with-new-pkgs git",
        "pip install [--user] <package> --<option>",
        "pip install --a-newer-switch ferry",
        "uv pip install -n ferry",
        "# pip install ---old\necho done",
    ],
)
def test_installer_options_taken_or_not_read(tmp_path: Path, block: str) -> None:
    assert found(tmp_path, block) == []


TUNED = (
    "ARG CUDA_TAG=12.4.1\nFROM nvidia/cuda:${CUDA_TAG}-devel-ubuntu22.04\nARG TOOLKIT_VERSION=2.1\n"
    "RUN pip install toolkit==${TOOLKIT_VERSION}\n"
)


def found_tuned(root: Path, block: str) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": TUNED, "README.md": f"# App\n\n```bash\n{block}\n```\n"})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [(d.line, d.message, d.confidence) for d in audit(text, "README.md", model, {}, root, root)]


@pytest.mark.parametrize(
    ("block", "said"),
    [
        (  # a declared arg written as an option of its own
            "docker build --TOOLKIT_VERSION=2.3 -t app .",
            "README passes --TOOLKIT_VERSION to docker build, which has no such option: docker refuses the "
            "build; TOOLKIT_VERSION is a build arg (Dockerfile:3), did you mean --build-arg "
            "TOOLKIT_VERSION=2.3?",
        ),
        (  # an arg no Dockerfile declares, its value after a blank
            "docker build -t app --BASE_IMG 23.10-py3 .",
            "README passes --BASE_IMG to docker build, which has no such option: docker refuses the build; "
            "it reads as build arg BASE_IMG, which Dockerfile does not declare either, so --build-arg "
            "BASE_IMG=23.10-py3 would change nothing",
        ),
    ],
)
def test_a_build_arg_passed_as_an_option(tmp_path: Path, block: str, said: str) -> None:
    assert found_tuned(tmp_path, block) == [(4, said, "certain")]


@pytest.mark.parametrize(
    "block",
    [
        "docker build --build-arg TOOLKIT_VERSION=2.3 -t app .",
        "docker build --build-arg=CUDA_TAG=12.6.0 -t app .",
        "docker run --rm app train.py --EPOCHS=3",  # the container's program's option
        "docker build -t app . && ./configure --PREFIX=/opt",  # another command's
    ],
)
def test_build_args_passed_as_build_args(tmp_path: Path, block: str) -> None:
    assert found_tuned(tmp_path, block) == []
