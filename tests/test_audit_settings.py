"""`docgen.audit.settings`: what a README says of how a container of the image runs (a built-in health
check, the ports it exposes, the user it runs as) against HEALTHCHECK, EXPOSE and USER in the image
built. Each rule has a planted drift and, next to it, the nearest true statement as a trap. The
READMEs and Dockerfiles are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit
from docgen.audit.audit_facts import AuditFacts
from docgen.audit.auditor import Auditor
from docgen.audit.settings import setting_claims
from docgen.markdown import read_document


def _audit(tmp_path: Path, readme: str, files: dict[str, str]) -> list[str]:
    """`audit` of `readme` against the Dockerfile written with `files` into `tmp_path`: each finding as
    `line: message (confidence)`."""
    make_tree(tmp_path, {**files, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


SERVICE = """\
FROM python:3.12-slim AS build
RUN pip install --no-cache-dir uvicorn==0.30.1
EXPOSE 5000
USER root

FROM ubuntu:24.04
RUN apt-get update && apt-get install -y --no-install-recommends curl
COPY --from=build /usr/local /usr/local
EXPOSE 8080
CMD ["uvicorn", "app:main", "--port", "9000"]
"""

HEALTH = """\
# Inference server

## Features

- Small runtime image, with a built-in container health check.
- The API includes a health check endpoint at `/healthz`.

You can add a `HEALTHCHECK` to your Dockerfile if your orchestrator needs one.
"""


def test_a_health_check_the_image_does_not_have(tmp_path: Path) -> None:
    # the final stage is plain Ubuntu and sets none: the feature list promises one (line 5); an endpoint
    # the application serves and advice to add one are not claims about the image
    assert _audit(tmp_path, HEALTH, {"Dockerfile": SERVICE}) == [
        "5: README says the image has a health check but Dockerfile has no HEALTHCHECK (likely)"
    ]


def test_a_health_check_the_image_may_have_is_no_finding(tmp_path: Path) -> None:
    checked = SERVICE + "HEALTHCHECK CMD curl -fsS http://localhost:8080/healthz || exit 1\n"
    assert _audit(tmp_path / "set", HEALTH, {"Dockerfile": checked}) == []
    # a base image that is no plain OS may set one; a Compose file beside the Dockerfile may define it
    vendor = SERVICE.replace("FROM ubuntu:24.04", "FROM nvcr.io/nvidia/tritonserver:24.08-py3")
    assert _audit(tmp_path / "base", HEALTH, {"Dockerfile": vendor}) == []
    compose = "services:\n  api:\n    build: .\n    healthcheck:\n      test: [CMD, curl, -f, http://localhost:8080/]\n"
    assert _audit(tmp_path / "compose", HEALTH, {"Dockerfile": SERVICE, "compose.yaml": compose}) == []


def test_a_health_check_turned_off_is_certain(tmp_path: Path) -> None:
    off = SERVICE + "HEALTHCHECK NONE\n"
    assert _audit(tmp_path, HEALTH, {"Dockerfile": off}) == [
        "5: README says the image has a health check but Dockerfile:11 turns it off"
        " (HEALTHCHECK NONE) (certain)"
    ]


def test_a_health_check_promised_in_chinese(tmp_path: Path) -> None:
    readme = "# 服务\n\n- 多阶段构建，内置容器健康检查。\n- 服务提供健康检查接口 `/healthz`。\n"
    assert _audit(tmp_path, readme, {"Dockerfile": SERVICE}) == [
        "3: README says the image has a health check but Dockerfile has no HEALTHCHECK (likely)"
    ]


PORTS = """\
# Inference server

The image exposes port `5000` for the API.

The container listens on port 9000, and the image exposes port 8080 too.

Run it with `docker run -p 5000:8080 server` to reach it on port 5000 of your machine.

The frontend container exposes port 3000 to the proxy.
"""


def test_a_port_the_image_does_not_expose(tmp_path: Path) -> None:
    # 5000 is exposed by the build stage only, not by the image built (line 3); the command serves on
    # 9000 and 8080 is exposed (line 5); a run-time mapping is the host's (line 7); another container
    # of the project is not this image (line 9)
    assert _audit(tmp_path, PORTS, {"Dockerfile": SERVICE}) == [
        "3: README says the image exposes port 5000 but Dockerfile:9 exposes 8080 (certain)"
    ]


def test_ports_the_dockerfile_leaves_to_its_base(tmp_path: Path) -> None:
    # no EXPOSE on a base that is no plain OS: the base may expose it
    vendor = "FROM vllm/vllm-openai:v0.6.3\nRUN pip install --no-cache-dir fastapi==0.115.0\n"
    assert _audit(tmp_path / "vendor", PORTS, {"Dockerfile": vendor}) == []
    # no EXPOSE on plain Ubuntu: the image exposes nothing, and the port is nowhere in the Dockerfile
    plain = "FROM ubuntu:24.04\nRUN apt-get update && apt-get install -y nginx\n"
    assert _audit(tmp_path / "plain", PORTS, {"Dockerfile": plain}) == [
        "3: README says the image exposes port 5000 but Dockerfile exposes no port (likely)",
        "5: README says the image exposes port 8080 but Dockerfile exposes no port (likely)",
    ]
    # ports given as build args are compared with the value the build expands
    expanded = "FROM ubuntu:24.04\nARG API_PORT=5000\nARG WEB_PORT=8080\nEXPOSE ${API_PORT} ${WEB_PORT}/tcp\n"
    assert _audit(tmp_path / "args", PORTS, {"Dockerfile": expanded}) == [
        "5: README says the container listens on port 9000 but Dockerfile:4 exposes 5000, 8080 (likely)"
    ]


USERS = """\
# Worker image

## Security

- Runs as the non-root user `worker` (UID 1001).
- The container runs as a non-root user; pass `--user 0` to debug as root.
"""


def test_a_user_the_image_does_not_run_as(tmp_path: Path) -> None:
    other = 'FROM debian:12-slim\nRUN useradd -u 1001 -m app\nUSER app\nCMD ["worker"]\n'
    assert _audit(tmp_path / "other", USERS, {"Dockerfile": other}) == [
        "5: README says the image runs as user worker but Dockerfile:3 says USER app (certain)"
    ]
    same = other.replace("app", "worker")
    assert _audit(tmp_path / "same", USERS, {"Dockerfile": same}) == []
    # a user id for the name the README gives
    by_id = other.replace("USER app", "USER 1001")
    assert _audit(tmp_path / "id", USERS, {"Dockerfile": by_id}) == []


def test_root_and_no_user(tmp_path: Path) -> None:
    readme = "# Worker image\n\nThe container runs as a non-root user.\n"
    # USER root in the final stage
    rooted = "FROM debian:12-slim\nRUN useradd -m app\nUSER app\nRUN make\nUSER root\n"
    assert _audit(tmp_path / "root", readme, {"Dockerfile": rooted}) == [
        "3: README says the image runs as a non-root user but Dockerfile:5 says USER root (certain)"
    ]
    # no USER on plain Debian: root
    plain = "FROM debian:12-slim\nRUN apt-get update && apt-get install -y tini\n"
    assert _audit(tmp_path / "plain", readme, {"Dockerfile": plain}) == [
        "3: README says the image runs as a non-root user but Dockerfile sets no USER (root) (likely)"
    ]
    # an entrypoint script may switch user; a base that is no plain OS may set USER
    script = plain + 'COPY entrypoint.sh /entrypoint.sh\nENTRYPOINT ["/entrypoint.sh"]\n'
    assert (
        _audit(tmp_path / "script", readme, {"Dockerfile": script, "entrypoint.sh": 'exec gosu app "$@"\n'})
        == []
    )
    vendor = "FROM jupyter/base-notebook:2024-04-01\nRUN pip install --no-cache-dir polars==1.2.0\n"
    assert _audit(tmp_path / "vendor", readme, {"Dockerfile": vendor}) == []


LABELLED = """\
# Model server

## Features

- **Base**: CUDA 12.6 runtime.
- **Security**: Runs as a non-root user to limit what a break-in can do.
"""


def test_a_labelled_item_on_a_cuda_base_with_no_user(tmp_path: Path) -> None:
    # `nvidia/cuda` sets no USER: with none in the Dockerfile the container runs as root; the start
    # script the Dockerfile writes itself (`echo … > start.sh`) is read, and switches no user
    written = (
        "FROM nvidia/cuda:12.6.3-runtime-ubuntu24.04\n"
        "RUN useradd -r -m svc\n"
        'RUN echo "#!/bin/sh\\nexec /usr/bin/server --port 9000" > /usr/local/bin/start.sh '
        "&& chmod +x /usr/local/bin/start.sh\n"
        'CMD ["/bin/sh", "-c", "/usr/local/bin/start.sh"]\n'
    )
    assert _audit(tmp_path / "written", LABELLED, {"Dockerfile": written}) == [
        "6: README says the image runs as a non-root user but Dockerfile sets no USER (root) (likely)"
    ]
    # traps: a USER in the image; a copied start script that drops to another user; one docgen
    # cannot read; a base docgen does not know to run as root
    assert _audit(tmp_path / "user", LABELLED, {"Dockerfile": written + "USER svc\n"}) == []
    copied = (
        'FROM nvidia/cuda:12.6.3-runtime-ubuntu24.04\nCOPY start.sh /start.sh\nENTRYPOINT ["/start.sh"]\n'
    )
    dropping = {"Dockerfile": copied, "start.sh": 'exec setpriv --reuid=svc server "$@"\n'}
    assert _audit(tmp_path / "drops", LABELLED, dropping) == []
    assert _audit(tmp_path / "unread", LABELLED, {"Dockerfile": copied}) == []
    calls = {"Dockerfile": copied, "start.sh": "exec /opt/app/entrypoint.sh\n"}
    assert _audit(tmp_path / "calls", LABELLED, calls) == []
    vendor = "FROM ghcr.io/acme/server:2.1\nRUN pip install --no-cache-dir polars==1.2.0\n"
    assert _audit(tmp_path / "vendor", LABELLED, {"Dockerfile": vendor}) == []


ENDED = """\
# Inference server

The image exposes port 8443.

The image runs `uvicorn` on port 7000 by default.

The container serves the API on port 9000, and the image runs a proxy on port 8080.

The image exposes port 8080.5 of the old scheme.
"""


def test_a_port_at_the_end_of_a_sentence_and_a_program_said_to_run_on_a_port(tmp_path: Path) -> None:
    # a full stop after the port ends the sentence (line 3); `runs … on port` says where the container
    # listens (line 5); 9000 is in the command and 8080 exposed (line 7); `8080.5` is no port (line 9)
    assert _audit(tmp_path, ENDED, {"Dockerfile": SERVICE}) == [
        "3: README says the image exposes port 8443 but Dockerfile:9 exposes 8080 (certain)",
        "5: README says the container listens on port 7000 but Dockerfile:9 exposes 8080 (likely)",
    ]


def test_the_working_directory_inside_the_container(tmp_path: Path) -> None:
    said = "# App\n\nThe default working directory inside the container is `/app`.\n"
    assert _audit(tmp_path, said, {"Dockerfile": "FROM python:3.12-slim\nWORKDIR /workspace\n"}) == [
        "3: README says the working directory is /app but Dockerfile:2 says WORKDIR /workspace (certain)"
    ]
    assert _audit(tmp_path / "same", said, {"Dockerfile": "FROM python:3.12-slim\nWORKDIR /app\n"}) == []


STARTS = """\
# Inference server

The default working directory is `/srv/app`, and the entrypoint is `uvicorn app:main`.

- The image's default command is `python3 serve.py`.
- The `CMD` is `python serve.py --port 9000`.

To debug, override the entrypoint is `bash` with `--entrypoint bash`, or start in `/tmp` with `-w /tmp`.
"""


def test_a_working_directory_and_an_entrypoint_the_image_does_not_set(tmp_path: Path) -> None:
    server = """\
FROM python:3.12-slim AS build
WORKDIR /build
ENTRYPOINT ["make"]

FROM python:3.12-slim
WORKDIR /srv
WORKDIR app
COPY --from=build /build/serve.py .
ENTRYPOINT ["gunicorn", "app:main"]
CMD ["python3.12", "serve.py"]
"""
    # the relative WORKDIR makes /srv/app (true); gunicorn, not uvicorn, is the entrypoint (line 3,
    # although it serves the same `app:main`); the command runs serve.py with another Python (true); the
    # build stage's settings do not count; options given at run time are not claims (line 8)
    assert _audit(tmp_path, STARTS, {"Dockerfile": server}) == [
        "3: README says the entrypoint is uvicorn app:main but Dockerfile:10 says ENTRYPOINT"
        ' ["gunicorn", "app:main"]; CMD ["python3.12", "serve.py"] (certain)'
    ]
    moved = server.replace("WORKDIR app", "WORKDIR /opt/app")
    assert _audit(tmp_path / "moved", STARTS, {"Dockerfile": moved})[0] == (
        "3: README says the working directory is /srv/app but Dockerfile:7 says WORKDIR /opt/app (certain)"
    )


GROUPS = """\
FROM ghcr.io/example/ros-base:humble
RUN useradd -m rover
COPY scripts/entry.sh /usr/local/bin/entry.sh
COPY scripts/fix_gids.sh /usr/local/bin/fix_gids.sh
USER rover
ENTRYPOINT ["entry.sh"]
CMD ["bash"]
"""


def test_an_entrypoint_named_by_a_link_to_its_script(tmp_path: Path) -> None:
    readme = (
        "# Rover image\n\n"
        "To reach the GPU, the entrypoint to the Dockerfile is set to [fix_gids](scripts/fix_gids.sh), "
        "which aligns the render group.\n"
    )
    files = {
        "Dockerfile": GROUPS,
        "scripts/entry.sh": 'exec "$@"\n',
        "scripts/fix_gids.sh": "true\n",
        "docs/entrypoint.md": "# Entrypoint\n",
        "ros_entry.sh": "true\n",
    }
    # planted: the image starts entry.sh; a script may start another one, so `likely`
    assert _audit(tmp_path, readme, files) == [
        '3: README says the entrypoint is fix_gids.sh but Dockerfile:7 says ENTRYPOINT ["entry.sh"]; '
        'CMD ["bash"] (likely)'
    ]
    # traps: the link to the script it does start, a link to a document, a base image's entrypoint and a
    # sentence telling how to change it
    for number, text in enumerate(
        (
            "The entrypoint of the image is set to [entry](./scripts/entry.sh).",
            "The entrypoint is set to [the notes](docs/entrypoint.md).",
            "The entrypoint of the base image is [ros_entry](ros_entry.sh).",
            "If you need GPU groups, the entrypoint is set to [fix](scripts/fix_gids.sh) with --entrypoint.",
        )
    ):
        assert _audit(tmp_path / str(number), f"# Rover\n\n{text}\n", files) == [], text


# --------------------------------------------------------------------------------------------------
# ENV names cited in prose

VENV = """\
FROM ubuntu:24.04
ARG PY_VERSION=3.11
ENV VENVDir=/deps/venv
ENV HF_HOME=/cache/hf
RUN python${PY_VERSION} -m venv "$VENVDir"
"""


def test_an_env_name_cited_that_the_dockerfile_spells_otherwise(tmp_path: Path) -> None:
    readme = """\
# Running

/deps is the virtual environment root (see Dockerfile: ENV venv_dir).
The image sets `VENV_DIR` for you; models are cached under `HF_HOME` (ENV HF_HOME).
Pass `-e LOG_LEVEL=debug`; the environment variable `LOG_LEVEL` is read at start. ENV PY_VERSION too.
"""
    # HF_HOME is set as written; LOG_LEVEL has no near name; PY_VERSION is a build arg (traps)
    assert _audit(tmp_path, readme, {"Dockerfile": VENV}) == [
        "3: README names ENV venv_dir, which Dockerfile does not set; Dockerfile:3 sets VENVDir (certain)",
        "4: README names ENV VENV_DIR, which Dockerfile does not set; Dockerfile:3 sets VENVDir (likely)",
    ]


STAGED = """\
FROM debian:12-slim AS base
RUN useradd -m svc

FROM base AS serve
USER svc
WORKDIR /srv

FROM serve AS devel
USER root
WORKDIR /work
"""


def test_a_claim_under_a_stage_name_is_read_against_that_stage(tmp_path: Path) -> None:
    readme = """\
# Tool

## Targets

- `serve` -- the small image. Runs as non-root `svc`.
- **devel**: builds on serve with test tools. Runs as root.

Build the `serve` stage: it runs as user `svc`.

### Devel target

The container runs as user `svc`.

With `--target serve` the container runs as root.
"""
    assert _audit(tmp_path, readme, {"Dockerfile": STAGED}) == [
        "12: README says the image runs as user svc but Dockerfile:9 says USER root (certain)",
        "14: README says the image runs as root but Dockerfile:5 says USER svc (certain)",
    ]


def test_a_compose_file_linked_out_of_the_dockerfiles_folder_is_not_read(tmp_path: Path) -> None:
    # a health check defined only in a file outside the folder, reached through a link, is none of
    # this image's: the link is not followed (as a missing Compose file, the promise is a finding)
    compose = "services:\n  api:\n    build: .\n    healthcheck:\n      test: [CMD, curl, -f, http://localhost:8080/]\n"
    make_tree(tmp_path / "outside", {"compose.yaml": compose})
    (tmp_path / "linked").mkdir()
    (tmp_path / "linked" / "compose.yaml").symlink_to(tmp_path / "outside" / "compose.yaml")
    assert _audit(tmp_path / "linked", HEALTH, {"Dockerfile": SERVICE}) == [
        "5: README says the image has a health check but Dockerfile has no HEALTHCHECK (likely)"
    ]


def test_a_long_word_or_run_of_blanks_is_read_once(tmp_path: Path) -> None:
    """Hostile shapes of the user rule, each of which cost n² (n = 20,000: 2 to 10 s; the 60,000 here
    would take minutes): blanks after a bold label with no claim after them (`[ \\t]*` on both sides of
    an optional colon), a long word in the command (the scripts it starts: `[\\w./-]*entrypoint`
    tried from every letter) and a run of `>` in a RUN (the script a RUN writes: `>\\S*/` from each).
    The claim on the next item is still read."""
    dockerfile = (
        "FROM debian:12-slim\n"
        'RUN echo "' + ">" * 60_000 + '" && echo "exec server" > /usr/local/bin/start.sh\n'
        'CMD ["/usr/local/bin/start.sh", "' + "a" * 60_000 + '"]\n'
    )
    readme = (
        "# Worker\n\n**Security** " + " " * 60_000 + "note\n\n- **Security**: Runs as a non-root user.\n\n"
        "The container listens on port 7000.\n"
    )
    found = [f for f in _audit(tmp_path, readme, {"Dockerfile": dockerfile}) if "non-root" in f]
    assert found == [
        "5: README says the image runs as a non-root user but Dockerfile sets no USER (root) (likely)"
    ]


NOTEBOOK = """\
FROM nvidia/cuda:12.6.3-base-ubuntu24.04
RUN apt-get update && apt-get install -y --no-install-recommends python3-pip
RUN pip install --break-system-packages ipython==8.31.0 polars==1.19.0
WORKDIR /home/lab
CMD ["bash"]
"""

LANDS = """\
# Lab image

## Try it

Build it with `docker build -t lab .`, then:

```bash
docker run --gpus all -it lab
```

This command starts your container and drops you straight into an interactive `ipython` session.
"""


def test_a_container_said_to_start_into_a_program_its_cmd_does_not_start(tmp_path: Path) -> None:
    # CMD starts bash: the sentence after the run command (line 11) says the container lands in ipython
    # (`drops you` is no removal: the sentence is read)
    assert _audit(tmp_path, LANDS, {"Dockerfile": NOTEBOOK}) == [
        '11: README says a container of the image starts into ipython but Dockerfile:5 says CMD ["bash"]'
        " (likely)"
    ]


def test_a_start_into_claim_the_image_or_the_run_line_honours_is_no_finding(tmp_path: Path) -> None:
    # the program CMD starts; a run line that names the program itself; a script that may start it;
    # the base image's shell and another image's; no CMD at all (the base's may start it)
    started = NOTEBOOK.replace('CMD ["bash"]', 'CMD ["ipython"]')
    assert _audit(tmp_path / "a", LANDS, {"Dockerfile": started}) == []
    named = LANDS.replace("docker run --gpus all -it lab", "docker run --gpus all -it lab ipython")
    assert _audit(tmp_path / "b", named, {"Dockerfile": NOTEBOOK}) == []
    scripted = NOTEBOOK.replace('CMD ["bash"]', 'ENTRYPOINT ["/usr/local/bin/start.sh"]')
    assert _audit(tmp_path / "c", LANDS, {"Dockerfile": scripted}) == []
    other = LANDS.replace(
        "This command starts your container and drops",
        "The base image launches into a `bash` shell; the jupyter container drops",
    )
    assert _audit(tmp_path / "d", other, {"Dockerfile": NOTEBOOK}) == []
    unset = NOTEBOOK.replace('CMD ["bash"]\n', "")
    assert _audit(tmp_path / "e", LANDS, {"Dockerfile": unset}) == []
    advice = LANDS.replace("This command starts", "If you override CMD, this command starts")
    assert _audit(tmp_path / "f", advice, {"Dockerfile": NOTEBOOK}) == []


def test_a_start_script_copied_by_a_pattern_is_matched_as_buildkit_matches_it(tmp_path: Path) -> None:
    # `docgen.copied.glob_matches`, not fnmatch: Go's `[^d]` leaves `d` out and copies start.sh, which
    # is read (it drops to no other user); `[!d]` is a class of `!` and `d` and copies nothing, so the
    # script that starts the container is unread and may switch user
    files = {"scripts/start.sh": "exec /usr/bin/server --port 9000\n"}

    def audit(folder: str, copy: str) -> list[str]:
        dockerfile = f'FROM nvidia/cuda:12.6.3-runtime-ubuntu24.04\n{copy}\nENTRYPOINT ["/start.sh"]\n'
        return _audit(tmp_path / folder, LABELLED, {"Dockerfile": dockerfile, **files})

    assert audit("negated", "COPY scripts/[^d]tart.sh /") == [
        "6: README says the image runs as a non-root user but Dockerfile sets no USER (root) (likely)"
    ]
    assert audit("bang", "COPY scripts/[!d]tart.sh /") == []
    assert audit("escaped", "COPY scripts/\\*.sh /") == []


def test_the_lines_of_the_user_claims_reported(tmp_path: Path) -> None:
    # `told_users` gets the line of a user claim reported (`user_names` then tells no user twice), not
    # that of one the image honours nor that of another setting
    readme = (
        "# Worker\n\nThe container runs as user `worker`.\n\nThe container runs as user `app`.\n\n"
        "The image exposes port 9999.\n"
    )
    dockerfile = 'FROM debian:12-slim\nRUN useradd -u 1001 -m app\nUSER app\nCMD ["worker"]\n'
    make_tree(tmp_path, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    doc = read_document(readme, "README.md")
    facts = AuditFacts(doc)
    facts.settle()
    told: set[int] = set()
    lines = [d.line for d in setting_claims(doc, Auditor.of("README.md", (model,), {}, facts), told)]
    assert (lines, told) == ([3, 7], {3})


# --------------------------------------------------------------------------------------------------
# The port a README says one variant of the family listens on

CPU_IMAGE = """\
FROM python:3.11-slim
RUN pip install --no-cache-dir uvicorn==0.30.1 faster-whisper==1.0.3
EXPOSE 8000
CMD ["uvicorn", "main:app", "--host", "0.0.0.0", "--port", "8000"]
"""
CUDA_IMAGE = """\
FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04
RUN pip install --no-cache-dir uvicorn==0.30.1 faster-whisper==1.0.3
EXPOSE 8000
CMD ["uvicorn", "main:app", "--host", "0.0.0.0", "--port", "8000"]
"""


def _audit_family(tmp_path: Path, readme: str, files: dict[str, str]) -> list[str]:
    """`audit` of `readme` against `Dockerfile.cpu` and `Dockerfile.cuda` of `files`, both compared."""
    make_tree(tmp_path, {**files, "README.md": readme})
    models = [build_model(tmp_path / name, name) for name in ("Dockerfile.cpu", "Dockerfile.cuda")]
    found = audit(readme, "README.md", models, {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


FAMILY = {"Dockerfile.cpu": CPU_IMAGE, "Dockerfile.cuda": CUDA_IMAGE}


def test_a_port_a_variant_is_said_to_listen_on(tmp_path: Path) -> None:
    # a ports section of a speech server's README, in Chinese: the CPU line is true, the GPU one not
    readme = "# 服务\n\n## 端口说明\n\n- CPU 版本默认运行在端口 8000\n- GPU 版本默认运行在端口 8001\n"
    assert _audit_family(tmp_path, readme, FAMILY) == [
        "6: README says the GPU image listens on port 8001 but Dockerfile.cuda:3 exposes 8000 (likely)"
    ]


def test_a_port_a_variant_is_said_to_listen_on_in_english(tmp_path: Path) -> None:
    # two images of one app (modelled on a note of a text-analysis service: `the base version runs on
    # port 8000, while the spaCy version runs on port 8001`), the second named by its Dockerfile
    readme = "# Service\n\nThe CPU version runs on port 8000, while the CUDA version runs on port 8001.\n"
    assert _audit_family(tmp_path, readme, FAMILY) == [
        "3: README says the CUDA image listens on port 8001 but Dockerfile.cuda:3 exposes 8000 (likely)"
    ]


def test_variant_port_traps(tmp_path: Path) -> None:
    said = "# Service\n\nThe CUDA version runs on port 8001.\n"
    # a host port: the README's run command, or a Compose file beside the Dockerfiles, maps it
    mapped = said + "\n```\ndocker run -p 8001:8000 app:cuda\n```\n"
    assert _audit_family(tmp_path / "run", mapped, FAMILY) == []
    compose = (
        'services:\n  cuda:\n    build:\n      dockerfile: Dockerfile.cuda\n    ports:\n      - "8001:8000"\n'
    )
    assert _audit_family(tmp_path / "compose", said, {**FAMILY, "docker-compose.yml": compose}) == []
    # a port of another service, a word that names no variant, the variant's own port, a condition
    for sentence in (
        "The Redis container listens on port 6379.",
        "The Workbench version runs on port 5500.",
        "The CUDA version runs on port 8000 by default.",
        "If you change it, the CUDA version runs on port 8001.",
    ):
        assert _audit_family(tmp_path / "other", f"# Service\n\n{sentence}\n", FAMILY) == []
    # the port the variant's server is given on its command line
    served = {**FAMILY, "Dockerfile.cuda": CUDA_IMAGE.replace('"--port", "8000"', '"--port", "8001"')}
    assert _audit_family(tmp_path / "served", said, served) == []


LISTED_USER = """\
# RL sandbox

## Security
- Non-root user (`trainer`)
- Workspace: `/workspace`

## Notes
- Run with `--user trainer` if your host needs it.
"""

LISTED_LABEL = """\
# Notebook image

## Features

- **Non-root user**: `analyst`, with passwordless sudo.
- CUDA 12.4 runtime.
"""


def test_a_user_named_in_a_list_item_with_no_verb(tmp_path: Path) -> None:
    made = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nRUN useradd -m -u 1000 sandbox\nUSER sandbox\n"
    assert _audit(tmp_path / "paren", LISTED_USER, {"Dockerfile": made}) == [
        "4: README says the image runs as user trainer but Dockerfile:3 says USER sandbox (certain)"
    ]
    assert _audit(tmp_path / "label", LISTED_LABEL, {"Dockerfile": made.replace("sandbox", "ops")}) == [
        "5: README says the image runs as user analyst but Dockerfile:3 says USER ops (certain)"
    ]
    # traps: the user said is the one set, or set by its id, or by a variable; no USER on a vendor base
    assert _audit(tmp_path / "same", LISTED_USER, {"Dockerfile": made.replace("sandbox", "trainer")}) == []
    assert (
        _audit(tmp_path / "id", LISTED_LABEL, {"Dockerfile": made.replace("USER sandbox", "USER 1000")}) == []
    )
    variable = "FROM python:3.12-slim\nARG NAME\nRUN useradd -m $NAME\nUSER ${NAME}\n"
    assert _audit(tmp_path / "var", LISTED_USER, {"Dockerfile": variable}) == []
    vendor = "FROM jupyter/base-notebook:2024-04-01\nRUN pip install --no-cache-dir polars==1.2.0\n"
    assert _audit(tmp_path / "vendor", LISTED_LABEL, {"Dockerfile": vendor}) == []


# A page about one image published as several tags, each built by its own Dockerfile (modelled on a
# whisper CLI's Docker Hub overview: `cpu-v1.0.0` and `cuda-v1.0.0` tags, one features list; and on a
# speech server's GPU/CPU Dockerfile pair): an unqualified `Runs as non-root user` is said of each tag.
TAGS_PAGE = """\
# whisper-cli

Minimal image for transcription, in a CPU and a GPU (CUDA) tag.

## Features
- Models cached in `/models`
- {user}
"""
CPU_ROOT = 'FROM python:3.10-slim\nENV WHISPER_CACHE=/models\nENTRYPOINT ["python3", "/app/cli.py"]\n'
CUDA_USER = (
    "FROM nvidia/cuda:12.4.1-base-ubuntu22.04\nENV WHISPER_CACHE=/models\n"
    "RUN adduser --disabled-password --gecos '' appuser\nUSER appuser\n"
    'ENTRYPOINT ["python3", "/app/cli.py"]\n'
)


def _family(tmp_path: Path, readme: str, dockerfiles: dict[str, str]) -> list[str]:
    make_tree(tmp_path, {**dockerfiles, "docs/overview.md": readme})
    models = [build_model(tmp_path / name, name) for name in dockerfiles]
    found = audit(readme, "docs/overview.md", models, {}, tmp_path / "docs", tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "USER" in d.message]


def test_a_non_root_user_said_of_every_tag_while_one_runs_as_root(tmp_path: Path) -> None:
    pair = {"docker/Dockerfile.cpu": CPU_ROOT, "docker/Dockerfile.cuda": CUDA_USER}
    assert _family(tmp_path, TAGS_PAGE.format(user="Runs as non-root user"), pair) == [
        "7: README says the image runs as a non-root user, of every image it documents here (no words "
        "name one), but docker/Dockerfile.cpu sets no USER (root), while docker/Dockerfile.cuda:4 sets "
        "USER appuser (likely)"
    ]
    # traps: the sentence names the tag it is about
    named = TAGS_PAGE.format(user="The CUDA image runs as a non-root user")
    assert _family(tmp_path / "named", named, pair) == []
    # both set a user
    both = {**pair, "docker/Dockerfile.cpu": CPU_ROOT.replace("ENTRYPOINT", "USER nobody\nENTRYPOINT")}
    assert _family(tmp_path / "both", TAGS_PAGE.format(user="Runs as non-root user"), both) == []
    # one image is the other's base: the child sets the user, its base need not
    chain = {
        "docker/Dockerfile.base": CPU_ROOT,
        "docker/Dockerfile.app": "FROM acme/whisper:base\nUSER appuser\n",
    }
    assert _family(tmp_path / "chain", TAGS_PAGE.format(user="Runs as non-root user"), chain) == []
