"""`docgen.audit.ports`: the container port a README's `docker run -p HOST:CONTAINER` publishes for
the image the README builds, against the image's EXPOSE and the ports its ENV, ENTRYPOINT and CMD
name. A planted drift and, next to it, the nearest true commands as traps. The READMEs and Dockerfiles
are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit


def _audit(tmp_path: Path, readme: str, dockerfile: str) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


WEBUI = """\
FROM python:3.11-slim
RUN pip install --no-cache-dir gradio==4.44.0
ENV GRADIO_SERVER_PORT=7860
EXPOSE 7860
CMD ["python", "app.py"]
"""

RUNS = """\
# Web UI

```bash
docker build -t acme/webui .
docker run --gpus all -p 8188:8188 acme/webui
docker run --gpus all -p 127.0.0.1:8080:7860/tcp acme/webui:latest
docker run -p 9000:9000 -e GRADIO_SERVER_PORT=9000 acme/webui
docker run -p 9001:9001 acme/webui python app.py --port 9001
docker run --network host -p 9002:9002 acme/webui
docker run -p 8000:8000 nvcr.io/nvidia/tritonserver:24.01-py3
```
"""


def test_a_published_port_the_image_does_not_serve_on(tmp_path: Path) -> None:
    # line 5 publishes 8188, which the image neither exposes nor names; the host side of line 6 is the
    # user's; lines 7-8 set the port themselves; line 9 ignores -p (host network); line 10 runs an image
    # the README does not build
    assert _audit(tmp_path, RUNS, WEBUI) == [
        "5: README publishes container port 8188 of acme/webui, but Dockerfile:4 exposes 7860 and names "
        "8188 nowhere in its ENV, ENTRYPOINT or CMD (likely)"
    ]


def test_a_port_the_command_gives_is_no_finding(tmp_path: Path) -> None:
    # nothing exposed, and the port line 5 publishes is the one the command gives; line 6 publishes 7860,
    # which the program started on fixed port 8188 does not listen on
    served = 'FROM python:3.11-slim\nCMD ["python", "app.py", "--port", "8188"]\n'
    # line 9 (`--network host`: docker ignores -p, and the server takes host port 8188 itself)
    assert _audit(tmp_path, RUNS, served) == [
        "6: README publishes container port 7860 of acme/webui:latest, but Dockerfile:2 (CMD) starts the "
        "server on fixed port 8188, and the image names 7860 nowhere (likely)",
        "9: README publishes container port 9002 of acme/webui with --network host (docker ignores -p there: "
        "the server listens on the host's port itself), but Dockerfile:2 (CMD) starts the server on fixed "
        "port 8188, and the image names 9002 nowhere (likely)",
    ]


def test_a_host_network_run_against_a_fixed_port(tmp_path: Path) -> None:
    # a code-server image whose CMD moved to 8081 while the README still opens 8080 on the host network
    ide = 'FROM ubuntu:22.04\nEXPOSE 8080\nENTRYPOINT ["code-server"]\nCMD ["--bind-addr", "0.0.0.0:8081"]\n'
    readme = "```bash\ndocker build -t lab/ide .\ndocker run --rm --network host -p 8080:8080 lab/ide\n```\n"
    assert [f.split(":")[0] for f in _audit(tmp_path, readme, ide)] == ["3"]
    # the right port; a host port mapped elsewhere (no claim of the host's 8081); a loopback bind (the
    # host reaches it on its own network)
    assert _audit(tmp_path, readme.replace("8080:8080", "8081:8081"), ide) == []
    assert _audit(tmp_path, readme.replace("8080:8080", "9000:8080"), ide) == []
    loop = ide.replace("0.0.0.0:8081", "127.0.0.1:8080")
    assert _audit(tmp_path, readme, loop) == []


FIXED = """\
FROM python:3.11-slim
COPY . /app
EXPOSE 8000
CMD ["uvicorn", "app.main:app", "--host", "0.0.0.0", "--port", "8020"]
"""

FIXED_RUNS = """\
# Speech API

```bash
docker build -t speech-api .
docker run -d --name speech-api --gpus all -p 8000:8000 speech-api
docker run -d -p 8020:8020 speech-api
docker run -d -p 8000:8000 speech-api uvicorn app.main:app --port 8000
docker run -d -p 8000:8000 speech-api python other.py
docker run -d --entrypoint python -p 8000:8000 speech-api serve.py
```
"""


def test_a_published_port_the_fixed_port_of_the_command_is_not(tmp_path: Path) -> None:
    # line 5 publishes 8000 (a container named after its image: the image is the last word), but uvicorn
    # is started on 8020 whatever EXPOSE says; line 6 publishes 8020; lines 7-9 start another command
    assert _audit(tmp_path, FIXED_RUNS, FIXED) == [
        "5: README publishes container port 8000 of speech-api, but Dockerfile:4 (CMD) starts the server on "
        "fixed port 8020, which EXPOSE 8000 does not change (certain)"
    ]


def test_a_program_not_known_as_a_server_on_a_fixed_port_is_likely(tmp_path: Path) -> None:
    python = FIXED.replace('"uvicorn", "app.main:app", "--host", "0.0.0.0"', '"python", "server.py"')
    assert _audit(tmp_path, FIXED_RUNS, python) == [
        "5: README publishes container port 8000 of speech-api, but Dockerfile:4 (CMD) starts the server on "
        "fixed port 8020, which EXPOSE 8000 does not change (likely)"
    ]


def test_a_second_published_port_beside_the_servers_is_no_claim(tmp_path: Path) -> None:
    # a course image: the notebook on 8888, and 6006 kept for the TensorBoard a student starts in it
    notebook = 'FROM python:3.11-slim\nCMD ["jupyter", "notebook", "--ip=0.0.0.0", "--port=8888"]\n'
    runs = "```bash\ndocker build -t teach:v0 .\ndocker run --rm -p 8888:8888 -p 6006:6006 teach:v0\n```\n"
    assert _audit(tmp_path, runs, notebook) == []
    # the speech API's fixed port published beside the stale one
    both = FIXED_RUNS.replace("-p 8000:8000 speech-api\n", "-p 8000:8000 -p 8020:8020 speech-api\n", 1)
    assert _audit(tmp_path, both, FIXED) == []
    # the stale port alone is still told
    alone = runs.replace("-p 8888:8888 ", "")
    assert [f.split(":")[0] for f in _audit(tmp_path, alone, notebook)] == ["3"]


LLAMA_ENV = """\
FROM ghcr.io/acme/cuda-runtime:12.4
COPY --from=ghcr.io/acme/llama-build:b5000 /out/llama-server /app/llama-server
ENV LLAMA_ARG_HOST=0.0.0.0
ENV LLAMA_ARG_PORT=9090
EXPOSE 8080
ENTRYPOINT ["/app/llama-server"]
"""
LLAMA_RUNS = """\
# llama box

```bash
docker build -t llama-box .
docker run --gpus all -p 8080:8080 -v ./m:/models llama-box -m /models/q4.gguf
docker run --gpus all -p 8080:8080 -e LLAMA_ARG_PORT=8080 llama-box -m /models/q4.gguf
docker run --gpus all -p 8080:8080 llama-box -m /models/q4.gguf --port 8080
docker run --gpus all -p 9090:9090 llama-box -m /models/q4.gguf
```
"""


def test_a_published_port_an_env_variable_the_server_reads_moved_it_from(tmp_path: Path) -> None:
    # llama-server reads LLAMA_ARG_PORT: it listens on 9090 whatever EXPOSE says; lines 6-7 move it back
    assert [f for f in _audit(tmp_path, LLAMA_RUNS, LLAMA_ENV) if "fixed port" in f] == [
        "5: README publishes container port 8080 of llama-box, but Dockerfile:6 (ENTRYPOINT) starts the "
        "server on fixed port 9090 (Dockerfile:4 ENV LLAMA_ARG_PORT=9090), which EXPOSE 8080 does not "
        "change (likely)"
    ]
    # another program's port variable, or a start script that gets the command, says nothing
    for dockerfile in (
        LLAMA_ENV.replace("LLAMA_ARG_PORT", "REDIS_PORT"),
        LLAMA_ENV.replace('ENTRYPOINT ["/app/llama-server"]', 'ENTRYPOINT ["/app/start.sh"]'),
    ):
        assert [f for f in _audit(tmp_path, LLAMA_RUNS, dockerfile) if "fixed port" in f] == [], dockerfile


def test_what_may_serve_on_the_published_port_keeps_it_silent(tmp_path: Path) -> None:
    shapes = [
        # two programs: the other may serve on it
        FIXED.replace(
            'CMD ["uvicorn", "app.main:app", "--host", "0.0.0.0", "--port", "8020"]',
            'CMD ["bash", "-c", "redis-server & exec uvicorn app.main:app --port 8020"]',
        ),
        # an ENV value names the port
        FIXED.replace("EXPOSE 8000", "ENV METRICS_PORT=8000\nEXPOSE 8000"),
        # the image says it serves on both
        FIXED.replace("EXPOSE 8000", "EXPOSE 8000 8020"),
        # an entrypoint script runs the command its own way
        FIXED.replace("EXPOSE 8000", 'EXPOSE 8000\nENTRYPOINT ["/app/start.sh"]'),
        # two ports given: the published one may be the second program's
        FIXED.replace('"8020"]', '"8020", "--metrics-port", "9100"]'),
        # a port read from a variable: not fixed
        FIXED.replace(
            'CMD ["uvicorn", "app.main:app", "--host", "0.0.0.0", "--port", "8020"]',
            "CMD uvicorn app.main:app --port ${PORT:-8000}",
        ),
    ]
    for dockerfile in shapes:  # (line 6 publishing 8020 is the older rule's when 8020 is named nowhere)
        assert [f for f in _audit(tmp_path, FIXED_RUNS, dockerfile) if "fixed port" in f] == [], dockerfile
    unexposed = 'FROM python:3.11-slim\nCMD ["python", "app.py"]\n'
    assert _audit(tmp_path, RUNS, unexposed) == []


def test_a_run_of_an_image_the_readme_does_not_build_is_not_read(tmp_path: Path) -> None:
    pulled = "# Web UI\n\n```bash\ndocker pull acme/webui\ndocker run -p 8188:8188 acme/webui\n```\n"
    assert _audit(tmp_path, pulled, WEBUI) == []


def test_a_flag_of_the_program_after_the_image_is_not_a_published_port(tmp_path: Path) -> None:
    flagged = "# Web UI\n\n```bash\ndocker build -t webui .\ndocker run webui serve -p 8188\n```\n"
    assert _audit(tmp_path, flagged, WEBUI) == []


SERVER = """\
FROM vllm/vllm-openai:v0.2.2 AS server
EXPOSE 8000
"""
APP = """\
FROM server AS app
COPY ready.py ready.py
COPY app.sh app.sh
EXPOSE 3000
ENTRYPOINT ["tini", "--", "bash", "-c", "./app.sh"]
"""
TWO_BUILDS = """\
# vLLM server wrapper

```
docker build -f Dockerfile/server.Dockerfile -t server .
```

```
docker build -f Dockerfile/app.Dockerfile -t acme/vllm:chat .
```

## Running

```
docker run --rm --gpus all -p 3000:3000 -p {port}:{port} acme/vllm:chat
```
"""


def _two(tmp_path: Path, readme: str, ready: str) -> list[str]:
    files = {
        "Dockerfile/server.Dockerfile": SERVER,
        "Dockerfile/app.Dockerfile": APP,
        "app.sh": "python3 -m vllm.entrypoints.openai.api_server &\npython3 ready.py &\nwait -n\n",
        "ready.py": ready,
        "README.md": readme,
    }
    make_tree(tmp_path, files)
    models = [
        build_model(tmp_path / p, p) for p in ("Dockerfile/server.Dockerfile", "Dockerfile/app.Dockerfile")
    ]
    return [
        f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", models, {}, tmp_path)
    ]


def test_a_run_is_compared_with_the_dockerfile_its_tag_is_built_from(tmp_path: Path) -> None:
    # acme/vllm:chat is built with `-f Dockerfile/app.Dockerfile`: 3001 is the port of the readiness
    # script its entrypoint starts (app.sh runs ready.py), not the server image's
    ready = 'import os\nflask_port = int(os.getenv("READINESS_PORT", "3001"))\n'
    assert _two(tmp_path, TWO_BUILDS.format(port=3001), ready) == []
    # a port neither the app image exposes nor a script it starts names is still found, against it
    assert _two(tmp_path, TWO_BUILDS.format(port=3002), ready) == [
        "14: README publishes container port 3002 of acme/vllm:chat, but Dockerfile/app.Dockerfile:4 "
        "exposes 3000 and names 3002 nowhere in its ENV, ENTRYPOINT or CMD (likely)"
    ]
    # a number of the script that is no port (a retry count) names no port
    assert _two(tmp_path, TWO_BUILDS.format(port=3001), "RETRIES = 3001\n") == [
        "14: README publishes container port 3001 of acme/vllm:chat, but Dockerfile/app.Dockerfile:4 "
        "exposes 3000 and names 3001 nowhere in its ENV, ENTRYPOINT or CMD (likely)"
    ]


@pytest.mark.parametrize(
    ("copy", "ignore", "read"),
    [
        ("COPY tools/ready.py ready.py", "", True),  # a source in a folder: the file there is the one
        ("COPY tools/*.py ./", "", True),  # a glob
        ("COPY tools/ready.py ready.py", "tools/ready.py\n", False),  # the `.dockerignore` leaves it out
        ("COPY tools/ready.py ready.py", "**/*.py\n", False),
        ("COPY tools/ready.py ready.py", "*.py\n", True),  # BuildKit: the context's top only
    ],
)
def test_the_scripts_a_port_is_looked_for_in_are_read_as_the_build_copies_them(
    tmp_path: Path, copy: str, ignore: str, read: bool
) -> None:
    """`settings._context_script` reads the scripts the image starts through `docgen.copied`."""
    ready = 'import os\nflask_port = int(os.getenv("READINESS_PORT", "3001"))\n'
    files = {
        "Dockerfile/server.Dockerfile": SERVER,
        "Dockerfile/app.Dockerfile": APP.replace("COPY ready.py ready.py", copy),
        "app.sh": "python3 -m vllm.entrypoints.openai.api_server &\npython3 ready.py &\nwait -n\n",
        "tools/ready.py": ready,
        "README.md": TWO_BUILDS.format(port=3001),
        **({".dockerignore": ignore} if ignore else {}),
    }
    make_tree(tmp_path, files)
    models = [
        build_model(tmp_path / p, p) for p in ("Dockerfile/server.Dockerfile", "Dockerfile/app.Dockerfile")
    ]
    found = audit(files["README.md"], "README.md", models, {}, tmp_path)
    assert [d.line for d in found if "container port" in d.message] == ([] if read else [14])


def test_the_scripts_a_port_is_looked_for_in_stay_inside_the_audited_folder(tmp_path: Path) -> None:
    """The build context is looked for up to two folders above the Dockerfile, but never above the
    folder the Dockerfile was named from, nor through a link that leads out of it: a script of the same
    name outside is not the image's, and docgen reads no file outside the project."""
    readme = TWO_BUILDS.replace("Dockerfile/", "").format(port=3001)
    ready = 'import os\nflask_port = int(os.getenv("READINESS_PORT", "3001"))\n'
    script = "python3 ready.py &\nwait -n\n"
    project = tmp_path / "project"

    def audited() -> list[str]:
        models = [build_model(project / p, p) for p in ("server.Dockerfile", "app.Dockerfile")]
        found = audit(readme, "README.md", models, {}, project)
        return [f"{d.line}: {d.message}" for d in found if "container port" in d.message]

    drift = [
        "14: README publishes container port 3001 of acme/vllm:chat, but app.Dockerfile:4 exposes 3000 "
        "and names 3001 nowhere in its ENV, ENTRYPOINT or CMD"
    ]
    # the scripts sit one folder above the project: not read
    make_tree(tmp_path, {"app.sh": script, "ready.py": ready})
    make_tree(project, {"server.Dockerfile": SERVER, "app.Dockerfile": APP, "README.md": readme})
    assert audited() == drift
    # links in the project that lead to them: not read either
    (project / "app.sh").symlink_to(tmp_path / "app.sh")
    (project / "ready.py").symlink_to(tmp_path / "ready.py")
    assert audited() == drift
    # the same scripts in the project are read: 3001 is the readiness script's port
    (project / "app.sh").unlink()
    (project / "ready.py").unlink()
    make_tree(project, {"app.sh": script, "ready.py": ready})
    assert audited() == []


# A RunPod-style template: nginx in front of the application, its ports in a table.

TEMPLATE = """\
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
RUN /install.sh
COPY nginx/nginx.conf /etc/nginx/nginx.conf
WORKDIR /
COPY --chmod=755 scripts/* ./
CMD [ "/start.sh" ]
"""

PORT_TABLE = """\
# Docker image for Llama Chat

## Ports

| Connect Port | Internal Port | Description   |
|--------------|---------------|---------------|
| 3000         | 3001          | Llama Chat    |
| 7777         | 7777          | Code Server   |
| 8888         | 8888          | Jupyter Lab   |
"""

NGINX = """\
events { worker_connections 1024; }
http {
    server {
        listen %s;
        location / {
            proxy_pass http://localhost:%s;
        }
    }
}
"""

START = """\
#!/usr/bin/env bash
# the UI used to be on --port 3001
cd /workspace/llama-chat
nohup python3 -m llama_chat.server \\
    --host 0.0.0.0 \\
    --port %s > /workspace/logs/llama-chat.log 2>&1 &
"""


def _template(
    tmp_path: Path, files: dict[str, str], readme: str = PORT_TABLE, dockerfile: str = TEMPLATE
) -> list[str]:
    make_tree(tmp_path, files)
    return _audit(tmp_path, readme, dockerfile)


def test_a_port_table_row_the_service_is_no_longer_served_on(tmp_path: Path) -> None:
    # the start script named after the row's service gives it 5001, nginx fronts it on 5000: 3001 is
    # served nowhere (the comment of the script is no port given); Code Server and Jupyter have no script
    files = {"nginx/nginx.conf": NGINX % (5000, 5001), "scripts/start_llama_chat.sh": START % 5001}
    assert _template(tmp_path, files) == [
        "7: README's port table gives Llama Chat container port 3001, but "
        "scripts/start_llama_chat.sh:6 starts it on port 5001 and nginx/nginx.conf:4 listens on 5000 "
        "for it, and the image serves it on 3001 nowhere (likely)"
    ]


def test_a_port_table_row_the_image_serves(tmp_path: Path) -> None:
    # the script gives the row's port (`start_llama_chat_server.sh` still names the service)
    files = {"nginx/nginx.conf": NGINX % (3000, 3001), "scripts/start_llama_chat_server.sh": START % 3001}
    assert _template(tmp_path, files) == []


def test_a_port_table_row_nginx_listens_on(tmp_path: Path) -> None:
    # the row gives nginx's port for the service, not the application's: it is served there
    readme = PORT_TABLE.replace("| 3000         | 3001 ", "| 3000         | 5000 ")
    files = {"nginx/nginx.conf": NGINX % (5000, 5001), "scripts/start_llama_chat.sh": START % 5001}
    assert _template(tmp_path, files, readme) == []


def test_a_port_table_row_docgen_cannot_tie_to_a_port_is_no_finding(tmp_path: Path) -> None:
    # no script named after the service; a script that sets only `PORT=` (another program's, maybe);
    # nginx not copied over the base's (its proxy may serve the row's port); a config that includes
    # more servers; a port the Dockerfile exposes; another script giving the row's port to a program
    nginx = NGINX % (5000, 5001)
    env_only = "#!/usr/bin/env bash\nexport PORT=5001\npython3 server.py --docker\n"
    cases = [
        {"nginx/nginx.conf": nginx, "scripts/start_chat_ui.sh": START % 5001},
        {"nginx/nginx.conf": nginx, "scripts/start_llama_chat.sh": env_only},
        {
            "nginx/nginx.conf": nginx.replace("http {", "http {\n    include /etc/nginx/conf.d/*.conf;"),
            "scripts/start_llama_chat.sh": START % 5001,
        },
        {
            "nginx/nginx.conf": nginx,
            "scripts/start_llama_chat.sh": START % 5001,
            "scripts/start_proxy.sh": "#!/bin/bash\nsocat --listen-port 3001 --to 5001\n",
        },
    ]
    for number, files in enumerate(cases):
        assert _template(tmp_path / str(number), files) == [], files
    no_nginx = TEMPLATE.replace("COPY nginx/nginx.conf /etc/nginx/nginx.conf\n", "")
    script = {"scripts/start_llama_chat.sh": START % 5001}
    assert _template(tmp_path / "base", script, dockerfile=no_nginx) == []
    # on a plain base, a server of conf.d listening on the row's port serves it
    plain = TEMPLATE.replace("${BASE_IMAGE}", "ubuntu:22.04").replace(
        "COPY nginx/nginx.conf /etc/nginx/nginx.conf", "COPY nginx/chat.conf /etc/nginx/conf.d/chat.conf"
    )
    files = {"nginx/chat.conf": (NGINX % (3001, 5001)).split("http {")[1], **script}
    assert _template(tmp_path / "confd", files, dockerfile=plain) == []
    exposed = TEMPLATE.replace("CMD", "EXPOSE 3001\nCMD")
    files = {"nginx/nginx.conf": nginx, "scripts/start_llama_chat.sh": START % 5001}
    assert _template(tmp_path / "exposed", files, dockerfile=exposed) == []


def test_a_table_of_other_numbers_is_no_port_table(tmp_path: Path) -> None:
    # a table without a port column (a log table, versions) is not read, whatever its numbers
    readme = "# Llama Chat\n\n| Application | Version |\n|---|---|\n| Llama Chat | 3001 |\n"
    files = {"nginx/nginx.conf": NGINX % (5000, 5001), "scripts/start_llama_chat.sh": START % 5001}
    assert _template(tmp_path, files, readme) == []


def test_a_copied_script_that_is_a_symlink_loop_is_passed_over(tmp_path: Path) -> None:
    # `scripts/start_llama_chat.sh -> start_llama_chat.sh`: Path.resolve() raises RuntimeError on a loop
    # (Python < 3.13), which stopped the whole audit (`Symlink loop from …`, exit 2); the file says nothing
    make_tree(tmp_path, {"nginx/nginx.conf": NGINX % (5000, 5001), "scripts/start_other.sh": START % 5001})
    (tmp_path / "scripts" / "start_llama_chat.sh").symlink_to("start_llama_chat.sh")
    assert _audit(tmp_path, PORT_TABLE, TEMPLATE) == []


def test_an_nginx_file_with_no_server_block_is_read_without_error(tmp_path: Path) -> None:
    # a file copied into /etc/nginx/ that holds no `server {` (`proxy_params`, a one-line `http { server {`)
    # ended the audit in a traceback (`zip() argument 2 is longer than argument 1`); the row is still read
    dockerfile = TEMPLATE.replace("WORKDIR /", "COPY nginx/proxy_params /etc/nginx/proxy_params\nWORKDIR /")
    files = {
        "nginx/nginx.conf": NGINX % (5000, 5001),
        "nginx/proxy_params": "proxy_set_header Host $http_host;\nproxy_set_header X-Real-IP $remote_addr;\n",
        "scripts/start_llama_chat.sh": START % 5001,
    }
    assert _template(tmp_path, files, dockerfile=dockerfile) == [
        "7: README's port table gives Llama Chat container port 3001, but "
        "scripts/start_llama_chat.sh:6 starts it on port 5001 and nginx/nginx.conf:4 listens on 5000 "
        "for it, and the image serves it on 3001 nowhere (likely)"
    ]


TWO_VARIANTS = """\
# OCR service

Go to the folder of the variant you want (`cpu` here; for `gpu` change the word):

```
cd deploy/cpu
docker build -t ocrsvc:cpu .
```

```
sudo docker run -dp 9955:9955 --name ocr ocrsvc:cpu
sudo nvidia-docker run -dp 9955:9955 --name ocr ocrsvc:gpu
docker run -dp 9960:9960 --gpus all --name ocr ocrsvc:gpu
docker run -itp 9960:9960 --name ocr ocrsvc:cpu
docker run -d -p 9960:9960 --device-cgroup-rule "c 81:* rmw" ocrsvc:cpu
docker run -dit -p 9961:9960 ocrsvc:cpu
```
"""

OCR = """\
FROM python:3.10-slim
RUN pip install --no-cache-dir paddlehub==2.1.0
EXPOSE 9960
CMD ["/bin/bash", "-c", "hub serving start -m ocr_system"]
"""


def test_published_ports_of_combined_short_options_and_two_variants(tmp_path: Path) -> None:
    # `-dp` is `-d -p` (Docker's reading): lines 11-12 publish 9955, which neither variant serves on; the
    # gpu run of line 12 is of the other variant's build (gpu/Dockerfile beside cpu/), not a renamed tag;
    # lines 13-16 publish 9960 (`-itp`, a quoted option value with spaces before the image, `-dit -p`)
    gpu = OCR.replace("3.10-slim", "3.10")
    make_tree(tmp_path, {"cpu/Dockerfile": OCR, "gpu/Dockerfile": gpu, "README.md": TWO_VARIANTS})
    models = [build_model(tmp_path / f"{v}/Dockerfile", f"{v}/Dockerfile") for v in ("cpu", "gpu")]
    found = audit(TWO_VARIANTS, "README.md", models, {}, tmp_path)
    assert [f"{d.line}: {d.message} ({d.confidence})" for d in found] == [
        "11: README publishes container port 9955 of ocrsvc:cpu, but cpu/Dockerfile:3 exposes 9960 and "
        "names 9955 nowhere in its ENV, ENTRYPOINT or CMD (likely)",
        "12: README publishes container port 9955 of ocrsvc:gpu, but cpu/Dockerfile:3 exposes 9960 and "
        "names 9955 nowhere in its ENV, ENTRYPOINT or CMD (likely)",
    ]


def test_a_start_script_in_a_copied_folder_is_read(tmp_path: Path) -> None:
    # `COPY scripts/ /opt/scripts/` puts the folder's files in the image (`copied.copied_files`): the
    # start script there gives the service its port, as one copied by name does
    dockerfile = TEMPLATE.replace("COPY --chmod=755 scripts/* ./", "COPY scripts/ /opt/scripts/")
    files = {"nginx/nginx.conf": NGINX % (5000, 5001), "scripts/start_llama_chat.sh": START % 5001}
    assert _template(tmp_path / "folder", files, dockerfile=dockerfile) == [
        "7: README's port table gives Llama Chat container port 3001, but "
        "scripts/start_llama_chat.sh:6 starts it on port 5001 and nginx/nginx.conf:4 listens on 5000 "
        "for it, and the image serves it on 3001 nowhere (likely)"
    ]
    # the `.dockerignore` leaves the script out of the build context: no script, no finding
    ignored = {**files, ".dockerignore": "scripts/start_*.sh\n"}
    assert _template(tmp_path / "ignored", ignored, dockerfile=dockerfile) == []


SPEECH = """\
FROM python:3.11-slim
COPY server /app/server
EXPOSE 8000
ENTRYPOINT ["python", "/app/server/main.py"]
"""


def _scripted(tmp_path: Path, readme: str, script: str) -> list[str]:
    make_tree(tmp_path, {"docker/Dockerfile": SPEECH, "docker/build.sh": script, "README.md": readme})
    model = build_model(tmp_path / "docker/Dockerfile", "docker/Dockerfile")
    found = audit(readme, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "publishes" in d.message]


SCRIPTED_RUNS = """\
# Streaming speech

```bash
bash docker/build.sh
```

Example override:

```bash
docker run --rm --gpus all -p 8080:8080 -e ASR_BATCH=96 speech-stream:latest
docker run --rm -p 9000:8000 speech-stream:latest
```
"""


def test_a_published_port_of_an_image_a_build_script_the_readme_runs_tags(tmp_path: Path) -> None:
    # the image is tagged by docker/build.sh, not by a build line of the README; 9000:8000 is right
    script = "#!/usr/bin/env bash\nset -e\ndocker build -t speech-stream:latest -f docker/Dockerfile .\n"
    assert _scripted(tmp_path, SCRIPTED_RUNS, script) == [
        "10: README publishes container port 8080 of speech-stream:latest, but docker/Dockerfile:3 exposes "
        "8000 and names 8080 nowhere in its ENV, ENTRYPOINT or CMD (likely)"
    ]


def test_a_build_script_tagging_another_image_or_through_a_variable(tmp_path: Path) -> None:
    # traps: the script builds another name, or one read from a variable: the run's image is unknown
    other = "#!/bin/sh\ndocker build -t speech-batch:latest -f docker/Dockerfile .\n"
    assert _scripted(tmp_path, SCRIPTED_RUNS, other) == []
    varied = '#!/bin/sh\nIMAGE=speech-stream\ndocker build -t "$IMAGE:latest" -f docker/Dockerfile .\n'
    assert _scripted(tmp_path, SCRIPTED_RUNS, varied) == []


LOOPBACK = """\
FROM python:3.12-slim
WORKDIR /srv
COPY . .
EXPOSE 8000
CMD ["gunicorn", "-w", "2", "-b", "127.0.0.1:8000", "notes.wsgi:application"]
"""
LOOPBACK_RUNS = """\
# Notes service

```bash
docker build -t notes-web .
docker run -d -p 8000:8000 notes-web
docker run -d --network host notes-web
docker run -d -p 8000:8000 notes-web gunicorn -b 0.0.0.0:8000 notes.wsgi:application
```

Then open http://localhost:8000.
"""


def test_an_image_whose_server_listens_on_loopback(tmp_path: Path) -> None:
    # a Django notes app: line 5 publishes the port the CMD's gunicorn binds on the container's
    # loopback; line 6 is on the host's network; line 7 gives its own command on 0.0.0.0
    found = [f for f in _audit(tmp_path, LOOPBACK_RUNS, LOOPBACK) if "loopback" in f]
    assert found == [
        "5: README publishes container port 8000 of notes-web, but Dockerfile:5 (CMD) starts the server on "
        "the container's loopback address (-b 127.0.0.1:8000): a published port reaches the container's "
        "network address, not 127.0.0.1, so nothing answers on the host (certain)"
    ]
    everywhere = LOOPBACK.replace("127.0.0.1:8000", "0.0.0.0:8000")
    assert [f for f in _audit(tmp_path, LOOPBACK_RUNS, everywhere) if "loopback" in f] == []


def test_a_start_script_that_serves_on_loopback(tmp_path: Path) -> None:
    # a Streamlit dashboard started by a script the image copies in; the same script on 0.0.0.0 is silent
    dockerfile = (
        "FROM python:3.11-slim\nWORKDIR /app\nCOPY start.sh app.py ./\nEXPOSE 8501\n"
        'ENTRYPOINT ["bash", "start.sh"]\n'
    )
    readme = "# Dashboard\n\n```sh\ndocker build -t dash .\ndocker run -p 8501:8501 dash\n```\n"
    script = (
        "#!/bin/bash\n# serve the UI\nstreamlit run app.py \\\n"
        "  --server.address localhost --server.port 8501\n"
    )
    make_tree(tmp_path, {"start.sh": script, "app.py": ""})
    assert [f for f in _audit(tmp_path, readme, dockerfile) if "loopback" in f] == [
        "5: README publishes container port 8501 of dash, but start.sh (Dockerfile:5 ENTRYPOINT runs it) "
        "starts the server on the container's loopback address (--server.address localhost): a published "
        "port reaches the container's network address, not 127.0.0.1, so nothing answers on the host "
        "(certain)"
    ]
    make_tree(tmp_path, {"start.sh": script.replace("localhost", "0.0.0.0")})
    assert [f for f in _audit(tmp_path, readme, dockerfile) if "loopback" in f] == []


def test_a_loopback_command_handed_to_an_entrypoint_script(tmp_path: Path) -> None:
    # the entrypoint script may put a proxy in front, or rewrite the command: not told
    dockerfile = LOOPBACK.replace("CMD [", 'ENTRYPOINT ["/srv/entrypoint.sh"]\nCMD [')
    assert [f for f in _audit(tmp_path, LOOPBACK_RUNS, dockerfile) if "loopback" in f] == []


SSH_BOX = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y --no-install-recommends openssh-server python3-pip \\
 && pip3 install notebook
RUN echo 'root:devpass' | chpasswd \\
 && sed -i 's/#PermitRootLogin prohibit-password/PermitRootLogin yes/' /etc/ssh/sshd_config \\
 && mkdir -p /var/run/sshd
RUN printf '#!/bin/sh\\nservice ssh start\\nexec sleep infinity\\n' > /start.sh && chmod +x /start.sh
ENTRYPOINT ["/start.sh"]
"""

SSH_README = """\
# Dev box

```bash
docker build -t devbox .
docker run -d -p 2200:2200 -p 8888:8888 devbox
```

Log in with the password:

```bash
ssh -p 2200 root@localhost
```
"""


def test_a_published_port_stock_sshd_does_not_listen_on(tmp_path: Path) -> None:
    # sshd starts with its stock configuration (only PermitRootLogin edited): it listens on 22, so the
    # ssh client of line 10 reaches nothing through 2200:2200; 8888 is not sshd's and reaches no client
    assert _audit(tmp_path, SSH_README, SSH_BOX) == [
        "5: README publishes container port 2200 of devbox for ssh (line 11: ssh -p 2200), but "
        "Dockerfile:8 (ENTRYPOINT, `service ssh start`) starts sshd with no port of its own: it listens on "
        "its default 22, and the image names 2200 nowhere, so the published port reaches nothing (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        # the image moves sshd's port to the one published
        (
            SSH_README,
            SSH_BOX.replace("&& mkdir -p", "&& echo 'Port 2200' >> /etc/ssh/sshd_config && mkdir -p"),
        ),
        # the mapping reaches sshd's own port
        (SSH_README.replace("-p 2200:2200", "-p 2200:22"), SSH_BOX),
        # sshd is started with a port of its own
        (SSH_README, SSH_BOX.replace("service ssh start", "/usr/sbin/sshd -p 2200")),
        # host network: -p is ignored
        (SSH_README.replace("docker run -d", "docker run -d --network host"), SSH_BOX),
        # no ssh client reaches the published port
        (SSH_README.replace("ssh -p 2200", "ssh -p 2201"), SSH_BOX),
        # the image's base is an ssh server's own image, which may listen elsewhere
        (SSH_README, SSH_BOX.replace("FROM ubuntu:22.04", "FROM lscr.io/linuxserver/openssh-server:9.7")),
        # the run gives its own command, which replaces the CMD that would start sshd
        (SSH_README, SSH_BOX.replace('ENTRYPOINT ["/start.sh"]', 'CMD ["/start.sh"]')),
    ],
)
def test_sshd_traps(tmp_path: Path, readme: str, dockerfile: str) -> None:
    if 'CMD ["/start.sh"]' in dockerfile:
        readme = readme.replace("devbox\n```", "devbox bash\n```", 1)
    assert [f for f in _audit(tmp_path, readme, dockerfile) if "sshd" in f] == []


LAB = """\
FROM python:3.11-slim
RUN pip install --no-cache-dir jupyterlab==4.2.5
WORKDIR /work
CMD ["jupyter", "lab", "--ip=0.0.0.0", "--allow-root", "--no-browser"]
"""

LAB_README = """\
# Notebook image

```bash
docker build -t acme/lab .
docker run --rm -p 8080:8080 acme/lab
```

Then open http://localhost:8080 and paste the token.
"""


def test_a_published_port_stock_jupyter_does_not_listen_on(tmp_path: Path) -> None:
    assert _audit(tmp_path, LAB_README, LAB) == [
        "5: README publishes container port 8080 of acme/lab (line 8 opens localhost:8080), but "
        "Dockerfile:4 (CMD, `jupyter lab`) starts Jupyter with no port of its own: it listens on its "
        "default 8888, and the image names 8080 nowhere, so the published port reaches nothing (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile", "files"),
    [
        (LAB_README.replace("8080:8080", "8080:8888"), LAB, {}),
        (LAB_README, LAB.replace('"--no-browser"', '"--no-browser", "--port=8080"'), {}),
        (LAB_README.replace("acme/lab\n```", "acme/lab jupyter lab --port 8080\n```"), LAB, {}),
        (
            LAB_README,
            LAB.replace("WORKDIR /work", "COPY jupyter_server_config.py /etc/jupyter/\nWORKDIR /work"),
            {"jupyter_server_config.py": "c.ServerApp.port = 8080\n"},
        ),
        (LAB_README, LAB.replace("WORKDIR /work", "ENV JUPYTER_PORT=8080\nWORKDIR /work"), {}),
        (
            LAB_README,
            LAB.replace("FROM python:3.11-slim", "FROM quay.io/jupyter/base-notebook:2024-10-07"),
            {},
        ),
    ],
)
def test_stock_jupyter_traps(tmp_path: Path, readme: str, dockerfile: str, files: dict[str, str]) -> None:
    make_tree(tmp_path, files)
    assert [f for f in _audit(tmp_path, readme, dockerfile) if "default" in f] == []


def _audit_tree(tmp_path: Path, files: dict[str, str]) -> list[str]:
    make_tree(tmp_path, files)
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(files["README.md"], "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


# A model server whose configuration file, copied in and given on its command line, moves its listeners:
# the README still publishes the stock management port.
SERVE = """\
FROM example/modelserve:0.9-gpu
COPY conf /opt/serve/conf/
CMD ["torchserve", "--start", "--ts-config", "/opt/serve/conf/serve.properties"]
"""
SERVE_CONF = """\
inference_address=http://0.0.0.0:9085
management_address=http://0.0.0.0:9085
metrics_address=http://0.0.0.0:9082
grpc_inference_port=7070
job_queue_size=10
"""
SERVE_README = """\
# Sentiment

```bash
docker build -t sentiment .
docker run -dp 9085:9085 -p 8081:8081 --name sentiment sentiment
```
"""


def test_a_published_port_the_copied_server_config_moves_away(tmp_path: Path) -> None:
    files = {"Dockerfile": SERVE, "conf/serve.properties": SERVE_CONF, "README.md": SERVE_README}
    assert _audit_tree(tmp_path, files) == [
        "5: README publishes container port 8081 of sentiment, but the configuration the image's CMD "
        "gives its server (conf/serve.properties, copied to /opt/serve/conf/serve.properties by "
        "Dockerfile:2) sets its listeners on 9085, 9082, 7070 (conf/serve.properties:1-4) and moves "
        "management_address off its stock 8081 to 9085, and the image names 8081 nowhere: nothing listens "
        "there (likely)"
    ]


# A WSGI app of another shape: gunicorn reads its bind address from the config file `-c` names.
WSGI = """\
FROM python:3.12-slim
RUN pip install gunicorn==22.0.0
COPY app.py gunicorn.conf.py /srv/
WORKDIR /srv
CMD ["gunicorn", "-c", "/srv/gunicorn.conf.py", "app:app"]
"""
WSGI_CONF = 'bind = "0.0.0.0:5005"\nworkers = 2\n'
WSGI_README = "# Notes\n\n```bash\ndocker build -t notes .\ndocker run -p 8000:8000 notes\n```\n"


def test_a_published_port_a_bind_address_in_the_config_does_not_serve(tmp_path: Path) -> None:
    files = {
        "Dockerfile": WSGI,
        "app.py": "app = None\n",
        "gunicorn.conf.py": WSGI_CONF,
        "README.md": WSGI_README,
    }
    found = _audit_tree(tmp_path, files)
    assert [f.split(", but")[0] for f in found] == ["5: README publishes container port 8000 of notes"]
    assert "sets its listeners on 5005 (gunicorn.conf.py:1)" in found[0]


@pytest.mark.parametrize(
    "files",
    [
        # the README publishes the config's ports
        {"README.md": SERVE_README.replace("-p 8081:8081", "-p 9082:9082")},
        # the config names the published port (a listener the reader does not see as one)
        {"conf/serve.properties": SERVE_CONF + "admin_url=http://0.0.0.0:8081\n"},
        # a config the image copies but its command does not give the server
        {"Dockerfile": SERVE.replace(', "--ts-config", "/opt/serve/conf/serve.properties"', "")},
        # a config file the image does not copy in (only one beside the Dockerfile)
        {"Dockerfile": SERVE.replace("COPY conf /opt/serve/conf/\n", "")},
        # the run gives its own command
        {"README.md": SERVE_README.replace("sentiment sentiment", "sentiment sentiment torchserve --start")},
        # the host's network: -p is ignored
        {"README.md": SERVE_README.replace("-dp 9085", "--network host -dp 9085")},
        # one listener set in the config of a server with several: the others keep their defaults
        {"conf/serve.properties": "inference_address=http://0.0.0.0:9085\njob_queue_size=10\n"},
        # a stock listener the file does not set keeps its port (gRPC's 7070 here)
        {
            "conf/serve.properties": SERVE_CONF.replace("grpc_inference_port=7070\n", ""),
            "README.md": SERVE_README.replace("-p 8081:8081", "-p 7070:7070"),
        },
        # a server whose stock listeners docgen does not know
        {"Dockerfile": SERVE.replace('"torchserve"', '"modelserve"')},
        # ports of other services the server connects to are not its listeners
        {
            "conf/serve.properties": "database_port=9085\nredis_address=redis:9082\n",
            "README.md": SERVE_README.replace("-dp 9085:9085 ", "-d "),
        },
    ],
)
def test_server_configs_that_stay_silent(tmp_path: Path, files: dict[str, str]) -> None:
    tree = {"Dockerfile": SERVE, "conf/serve.properties": SERVE_CONF, "README.md": SERVE_README, **files}
    assert [f for f in _audit_tree(tmp_path, tree) if "configuration" in f] == []


def test_a_nested_port_of_another_service_is_no_listener(tmp_path: Path) -> None:
    from docgen.audit.ports import config_listeners

    yaml = "server:\n  port: 8080\nredis:\n  host: cache\n  port: 6379\n[database]\nport = 5432\n"
    assert config_listeners(yaml) == (("port", "8080", 2),)
