"""`docgen audit`: a README giving a Tailscale address under a machine name the project's start scripts do
not register (docgen/audit/mesh_hosts.py)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = """\
FROM ubuntu:24.04
RUN curl -fsSL https://tailscale.com/install.sh | sh
COPY launch.sh /usr/local/bin/launch.sh
EXPOSE 80
ENTRYPOINT ["/usr/local/bin/launch.sh"]
"""
LAUNCH = """\
#!/bin/bash
set -e
tailscaled --tun=userspace-networking &
sleep 3
# join the tailnet
tailscale up \\
  --hostname="{name}" \\
  --accept-dns=false \\
  ${{TS_KEY:+--auth-key=${{TS_KEY}}}}
exec caddy run
"""
GPU_README = """\
# Inference box

Run it on a rented GPU:

```bash
docker run -e TS_KEY=tskey-... myuser/inference-box:latest
```

Once running:
- **Local**: `http://localhost:80`
- **Tailnet**: `http://{address}` (via Tailscale)
"""
COMPOSE = """\
services:
  tailscale:
    image: tailscale/tailscale:latest
    environment:
      - TS_AUTHKEY=${{TS_AUTHKEY}}
      - TS_HOSTNAME={name}
  app:
    build: .
    network_mode: service:tailscale
"""
HOME_README = """\
# Home dashboard

Start it with `docker compose up -d`, then open https://{address}/ from any device on your tailnet.
"""
APP_DOCKERFILE = 'FROM node:20-alpine\nCOPY . /app\nCMD ["node", "/app/server.js"]\n'


def found(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "Tailscale" in d.message
    ]


def test_an_address_under_another_name_than_the_start_script_registers(tmp_path: Path) -> None:
    readme = GPU_README.format(address="gpu-box.tail1234.ts.net")
    files = {"Dockerfile": DOCKERFILE, "launch.sh": LAUNCH.format(name="infer-node")}
    assert found(tmp_path, readme, files) == [
        (
            11,
            "README gives the Tailscale address gpu-box.tail1234.ts.net, but launch.sh:7 registers the "
            "machine as infer-node (--hostname): the container joins the tailnet as "
            "infer-node.<tailnet>.ts.net, and no machine is named gpu-box",
            "likely",
        )
    ]


def test_the_name_the_script_registers_is_silent_whatever_its_case(tmp_path: Path) -> None:
    readme = GPU_README.format(address="Infer-Node.tail1234.ts.net")
    files = {"Dockerfile": DOCKERFILE, "launch.sh": LAUNCH.format(name="infer-node")}
    assert found(tmp_path, readme, files) == []


def test_a_compose_ts_hostname_under_another_name(tmp_path: Path) -> None:
    readme = HOME_README.format(address="dash.my-tailnet.ts.net")
    files = {"Dockerfile": APP_DOCKERFILE, "compose.yaml": COMPOSE.format(name="homepanel")}
    [(line, message, confidence)] = found(tmp_path, readme, files)
    assert (line, confidence) == (3, "likely")
    assert "compose.yaml:6 registers the machine as homepanel" in message


def test_a_name_set_by_a_variable_is_the_users_choice(tmp_path: Path) -> None:
    readme = HOME_README.format(address="dash.my-tailnet.ts.net")
    files = {"Dockerfile": APP_DOCKERFILE, "compose.yaml": COMPOSE.format(name="${TS_NAME:-homepanel}")}
    assert found(tmp_path, readme, files) == []
    launch = LAUNCH.format(name="${BOX_NAME}")
    readme = GPU_README.format(address="gpu-box.tail1234.ts.net")
    assert found(tmp_path / "b", readme, {"Dockerfile": DOCKERFILE, "launch.sh": launch}) == []


def test_a_readme_that_sets_the_name_itself_is_silent(tmp_path: Path) -> None:
    readme = GPU_README.format(address="gpu-box.tail1234.ts.net").replace(
        "-e TS_KEY", "-e TS_HOSTNAME=gpu-box -e TS_KEY"
    )
    files = {"Dockerfile": DOCKERFILE, "launch.sh": LAUNCH.format(name="infer-node")}
    assert found(tmp_path, readme, files) == []


def test_placeholder_addresses_and_unregistered_names_are_silent(tmp_path: Path) -> None:
    files = {"Dockerfile": DOCKERFILE, "launch.sh": LAUNCH.format(name="infer-node")}
    for number, address in enumerate(
        ("<machine>.<tailnet>.ts.net", "your-host.tail1234.ts.net", "{hostname}.tailnet.ts.net")
    ):
        assert found(tmp_path / str(number), GPU_README.format(address=address), files) == []
    no_name = LAUNCH.format(name="x").replace('  --hostname="x" \\\n', "")
    readme = GPU_README.format(address="gpu-box.tail1234.ts.net")
    assert found(tmp_path / "n", readme, {"Dockerfile": DOCKERFILE, "launch.sh": no_name}) == []


def test_a_commented_registration_names_nothing(tmp_path: Path) -> None:
    launch = "#!/bin/sh\n# tailscale up --hostname=old-box\ntailscale up --authkey=$KEY\n"
    readme = GPU_README.format(address="gpu-box.tail1234.ts.net")
    assert found(tmp_path, readme, {"Dockerfile": DOCKERFILE, "launch.sh": launch}) == []
