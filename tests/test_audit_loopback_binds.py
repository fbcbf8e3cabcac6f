"""`docgen.audit.loopback_binds`: a server a README starts in a container on the container's loopback
address while its `docker run` publishes the server's port. Planted drifts and traps (a server on
0.0.0.0, a run on the host's network, a command the README runs on the host, a port the run does not
publish), in READMEs written for these tests after the shape of a research image's Jupyter notes and
of a web API's deployment page."""

from __future__ import annotations

from docgen.audit.loopback_binds import loopback_binds
from docgen.markdown import read_document


def found(readme: str) -> list[str]:
    doc = read_document(readme, "README.md")
    return [f"{d.line}: {d.message} ({d.confidence})" for d in loopback_binds(doc, "README.md")]


NOTEBOOK = """\
# Segmentation toolkit image

To work in notebooks, start a container:

```bash
docker run --rm -it -v "$PWD":/work -p 8888:8888 \\
    --gpus all acme/segtool bash
```

Inside the container, start JupyterLab:

```bash
jupyter lab --no-browser --ip=localhost --port 8888 --allow-root
```

Then open http://localhost:8888 in your browser.
"""


def test_jupyter_started_inside_the_container_on_loopback() -> None:
    # the research image's notes: the prose says the block runs in the container (likely)
    assert found(NOTEBOOK) == [
        "13: README starts a server in the container on its loopback address (--ip=localhost, port 8888), "
        "but the docker run of line 6 publishes that port (-p 8888:8888): a published port reaches the "
        "container's network address, not 127.0.0.1, so nothing answers on the host (listen on 0.0.0.0) "
        "(likely)"
    ]


def test_notebook_traps() -> None:
    assert found(NOTEBOOK.replace("--ip=localhost", "--ip=0.0.0.0")) == []  # every address
    assert found(NOTEBOOK.replace("-p 8888:8888", "--network host")) == []  # the host's network
    assert found(NOTEBOOK.replace("-p 8888:8888", "-p 8890:8890")) == []  # another port published
    # a command run on the host, not in the container
    on_host = NOTEBOOK.replace("Inside the container, start JupyterLab:", "On your host, start JupyterLab:")
    assert found(on_host) == []
    # no word of where it runs: not read
    assert found(NOTEBOOK.replace("Inside the container, start JupyterLab:", "Start JupyterLab:")) == []
    # Jupyter's own port when none is given
    assert len(found(NOTEBOOK.replace(" --port 8888", ""))) == 1


API = """\
# Orders API

## Deploy

```bash
docker build -t orders-api .
docker run -d --name orders -p 8000:8000 orders-api \\
    uvicorn orders.main:app --host 127.0.0.1 --port 8000
```

For a debugging server in the running container:

```bash
docker exec -it orders gunicorn -b 127.0.0.1:8000 orders.wsgi
```

Or run it on your machine during development:

```bash
uvicorn orders.main:app --host 127.0.0.1 --port 8000 --reload
```
"""


def test_a_run_and_an_exec_starting_the_server_on_loopback() -> None:
    # the run's own command and the exec both go into the container (certain); the last block runs on
    # the host, where loopback is right
    assert found(API) == [
        "8: README starts a server in the container on its loopback address (--host 127.0.0.1, port 8000), "
        "but the docker run of line 7 publishes that port (-p 8000:8000): a published port reaches the "
        "container's network address, not 127.0.0.1, so nothing answers on the host (listen on 0.0.0.0) "
        "(certain)",
        "14: README starts a server in the container on its loopback address (-b 127.0.0.1:8000, port 8000), "
        "but the docker run of line 7 publishes that port (-p 8000:8000): a published port reaches the "
        "container's network address, not 127.0.0.1, so nothing answers on the host (listen on 0.0.0.0) "
        "(certain)",
    ]


def test_api_traps() -> None:
    everywhere = API.replace(
        "--host 127.0.0.1 --port 8000\n```\n\nFor", "--host 0.0.0.0 --port 8000\n```\n\nFor"
    )
    everywhere = everywhere.replace("-b 127.0.0.1:8000", "-b 0.0.0.0:8000")
    assert found(everywhere) == []
    host_network = API.replace("-p 8000:8000", "--network=host")
    assert found(host_network) == []
    # a client inside the container talking to the server there is no server
    client = API.replace(
        "gunicorn -b 127.0.0.1:8000 orders.wsgi", "python client.py --host 127.0.0.1 --port 8000"
    )
    assert len(found(client)) == 1


AMPIS_LIKE = """\
Image for a consistent environment to run the toolkit in.

To run a notebook in docker:
```bash
$ docker run --init --rm -itd -v $(pwd):/path/in/container \\
             -p 8888:8888
             --gpus all \\
             acme/toolkit
```

Inside the container: run
```bash
$ python -m jupyterlab `# start jupyter` \\
        --no-browser \\
        --ip localhost `#host ip` \\
        --port 8888 \\
        --allow-root
```
"""


def test_a_run_whose_line_ends_before_the_image_still_publishes() -> None:
    # the run breaks after `-p 8888:8888` (no `\\`): it still names the port the notes publish
    assert [f.split(" README")[0] for f in found(AMPIS_LIKE)] == ["15:"]
