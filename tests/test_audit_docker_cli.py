"""`docgen.audit.docker_cli`: a docker command the CLI refuses before doing anything — a subcommand
docker lacks, a slip from one it has (`docker exect`, in a command block or in inline code), and an
image to run or create with upper-case letters in its repository (`docker run … ImageName`) — is a
finding (`certain`); a newer plugin, a noun in prose, a placeholder or a registry host in upper case is
not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

MODEL = model_of(parse_dockerfile("FROM debian:12-slim\nRUN apt-get update\n", "Dockerfile"))


def found(readme: str) -> list[str]:
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", MODEL)]


def test_a_subcommand_docker_does_not_have() -> None:
    readme = """\
# Relay

```sh
host$ docker biuld -t relay .
docker run -d --name relay relay
sudo docker -H ssh://box exce -it relay sh && docker logs relay
```

To debug, enter it with `docker attatch relay` and look around.
"""
    assert found(readme) == [
        "4: README runs docker biuld, which is no docker command: it cannot run (did you mean build?) "
        "(certain)",
        "6: README runs docker exce, which is no docker command: it cannot run (did you mean exec?) "
        "(certain)",
        "9: README runs docker attatch, which is no docker command: it cannot run (did you mean attach?) "
        "(certain)",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "```bash\ndocker compose up -d\ndocker buildx bake\ndocker scout cves relay\n```\n",
        "```bash\ndocker model pull x\ndocker init\n```\n",
        "```bash\ndocker container ls && docker image prune -f\ndocker --context prod ps\n```\n",
        "```bash\ndocker relayctl start\n```\n",  # a plugin docgen does not know: no slip of a command
        "Keep data in `docker volumes` across runs.\n",  # a noun in prose
        "```bash\n# docker exect is a typo people make\necho docker exect\n```\n",  # no command
        "```dockerfile\nFROM docker:27\nRUN docker biuld .\n```\n",  # not a command block
    ],
)
def test_known_subcommands_and_words_that_are_no_command(text: str) -> None:
    assert found(text) == []


def test_an_image_with_upper_case_letters_cannot_run() -> None:
    readme = """\
# Vision

```bash
docker build -t deepvision:2.1 docker/
```

```bash
docker run --gpus all -v $PWD/data:/DeepVision/data -it DeepVision
docker create --name scratch DeepVision:2.1 bash
```
"""
    assert found(readme) == [
        "8: README runs image DeepVision, which docker refuses: a repository name must be lowercase; the "
        "README's build tags deepvision:2.1 (certain)",
        "9: README creates a container of image DeepVision:2.1, which docker refuses: a repository name "
        "must be lowercase; the README's build tags deepvision:2.1 (certain)",
    ]


@pytest.mark.parametrize(
    "command",
    [
        "docker run -it deepvision:2.1",
        "docker run -it deepvision:RC1",  # a tag may have upper case
        "docker run -it Registry.Example.com:5000/team/deepvision",  # so may a registry host
        "docker run -it IMAGE",  # placeholders
        "docker run -it <ImageName>",
        "docker run -it YourImage:latest",
        "docker run -it $IMAGE",
        "docker run -it deepvision:2.1 RunServer --Port 80",  # the container's command
    ],
)
def test_images_that_can_run_or_are_placeholders(command: str) -> None:
    assert found(f"```bash\n{command}\n```\n") == []


def test_a_hash_in_a_quoted_value_does_not_end_the_command() -> None:
    # The shell starts a comment only at a `#` that begins a word outside quotes: the command goes on
    # after `-e NOTE="rev #4"` and `--label url=…#frag`, and its image is read.
    readme = """\
```bash
docker run -e NOTE="rev #4" --label url=https://x.example/doc#frag -it DeepVision
```
"""
    assert found(readme) == [
        "2: README runs image DeepVision, which docker refuses: a repository name must be lowercase "
        "(certain)",
    ]


@pytest.mark.parametrize(
    "command",
    [
        "docker run -it deepvision:2.1 # or DeepVision on older hosts",
        "docker run -it deepvision:2.1\t#DeepVision",
        'docker run -e NOTE="rev #4" -it deepvision:2.1 # then DeepVision',
        "docker # biuld it first",
    ],
)
def test_words_after_a_comment_are_not_read(command: str) -> None:
    assert found(f"```bash\n{command}\n```\n") == []


def test_push_pull_and_tag_given_another_number_of_images() -> None:
    readme = """\
# Kestrel

```sh
docker login
docker push kestrel/trainer .   # publish it
$ docker image pull kestrel/trainer:2.1 kestrel/trainer:2.0
docker tag kestrel/trainer:2.1
```

Or publish every tag at once: `docker push -a kestrel/trainer latest`.
"""
    assert found(readme) == [
        "5: README's docker push is given kestrel/trainer ., but docker push takes one image: it cannot run "
        "(certain)",
        "6: README's docker pull is given kestrel/trainer:2.1 kestrel/trainer:2.0, but docker pull takes one "
        "image: it cannot run (certain)",
        "7: README's docker tag is given kestrel/trainer:2.1, but docker tag takes two images (a source "
        "and a target): it cannot run (certain)",
        "10: README's docker push is given kestrel/trainer latest, but docker push takes one image: it "
        "cannot run (certain)",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "```sh\ndocker push -a kestrel/trainer\ndocker push --all-tags kestrel/trainer\n```\n",
        "```sh\ndocker pull --platform linux/arm64 kestrel/trainer:2.1\n```\n",
        "```sh\ndocker pull -q kestrel/trainer\n```\n",
        "```sh\ndocker image push kestrel/trainer:2.1 # . is not an argument here\n```\n",
        "```sh\n$ docker tag kestrel/trainer:2.1 registry.local:5000/kestrel/trainer:2.1\n```\n",
        "```sh\ndocker push [OPTIONS] NAME[:TAG]\ndocker tag SOURCE_IMAGE TARGET_IMAGE\n```\n",
        "```sh\ndocker pull <image> <tag>\ndocker push $IMAGE $EXTRA\n```\n",
        "```sh\ndocker pull kestrel/trainer > pull.log 2>&1\n```\n",
        "```cmd\ndocker push ^\n  kestrel/trainer\n```\n",
        "```sh\ndocker push --new-option x kestrel/trainer\n```\n",  # an option the table lacks
        "```sh\ndocker login\ndocker push\n```\n",  # a step named, no image: not read
        "Then `docker push` it, or `docker tag` it first.\n",
    ],
)
def test_push_pull_and_tag_with_their_images(text: str) -> None:
    assert found(text) == []


OLLAMA = (
    "services:\n  ollama:\n    image: ollama/ollama\n  webui:\n    image: ghcr.io/open-webui/open-webui\n"
)


def composed(root: Path, text: str) -> list[str]:
    make_tree(root, {"docker-compose.yml": OLLAMA, "README.md": text})
    found = audit(text, "README.md", MODEL, {}, root, root)
    return [
        f"{d.line}: {d.message} ({d.confidence})" for d in found if "no docker compose command" in d.message
    ]


def test_a_service_where_the_compose_command_goes(tmp_path: Path) -> None:
    text = """\
# Models

List them:

```bash
docker compose ollama ollama list
sudo docker-compose --env-file .env webui ls /app
```

Or `docker compose upp -d` to start them.
"""
    assert composed(tmp_path, text) == [
        "6: README runs docker compose ollama ollama list, but ollama is no docker compose command (compose "
        "refuses it: unknown command) but a service of docker-compose.yml:2: to run a command in it, use "
        "docker compose exec ollama ollama list (or run) (certain)",
        "7: README runs docker compose --env-file .env webui ls /app, but webui is no docker compose command "
        "(compose refuses it: unknown command) but a service of docker-compose.yml:4: to run a command in "
        "it, use docker compose exec webui ls /app (or run) (certain)",
        "10: README runs docker compose upp -d, but upp is no docker compose command: it cannot run (did "
        "you mean up?) (certain)",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "```bash\ndocker compose exec ollama ollama list\ndocker-compose -p llm up -d\n```\n",
        "```bash\ndocker compose alpha watch\ndocker compose ls && docker compose version\n```\n",
        "```bash\nsudo apt-get install -y docker-compose jq\n```\n",  # not a compose command
        "```bash\ndocker compose <command>\ndocker compose COMMAND [ARGS]\n```\n",  # placeholders
        "```bash\ndocker compose relayctl x\n```\n",  # neither a service nor a slip: a plugin perhaps
        "Install `docker-compose` first, then `docker compose --help`.\n",
    ],
)
def test_compose_commands_that_stay_silent(tmp_path: Path, text: str) -> None:
    assert composed(tmp_path, text) == []


def _named(root: Path, readme: str, script: str) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": "FROM debian:12-slim\n", "make_image.sh": script})
    found = audit(readme, "README.md", MODEL, {}, root, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "refuses" in d.message]


SCRIPTED = """\
## Docker

1. Build the container with `make_image.sh`. The image is called `pose_image`.
2. Start it:
   ```
   docker run --runtime nvidia pose_image sleep infinity
   ```
"""


def test_a_script_the_readme_names_tags_an_image_docker_refuses(tmp_path: Path) -> None:
    script = "cp /etc/apt/sources.list .\n\nsudo docker build . -t Pose_image\n"
    assert _named(tmp_path, SCRIPTED, script) == [
        "3: README runs make_image.sh, whose docker command (make_image.sh:3) names image Pose_image, "
        "which docker refuses: a repository name must be lowercase (certain)"
    ]


@pytest.mark.parametrize(
    "script",
    [
        "docker build . -t pose_image\n",
        "docker build . -t pose_image:V1\n",  # upper case in the tag is valid
        "docker build . -t ${IMAGE_NAME}\n",  # a variable
        "docker build . -t IMAGE\n",  # a placeholder in capitals
        "# docker build . -t Pose_image\n",  # a comment
        "docker build . -t registry.Example.com/pose_image\n",  # a registry host in upper case
    ],
)
def test_script_names_docker_takes(tmp_path: Path, script: str) -> None:
    assert _named(tmp_path, SCRIPTED, script) == []


@pytest.mark.parametrize(
    ("command", "problem"),
    [
        ("docker build -t Seg/Net:2.0 .", "a repository name must be lowercase"),
        ("docker build -t .segnet:2.0 .", "it is an invalid reference format"),
        ("docker build -t :2.0 .", "an image name with no repository is an invalid reference"),
        ("docker tag segnet:2.0 Acme/segnet:2.0", "a repository name must be lowercase"),
    ],
)
def test_a_readme_build_or_tag_of_a_name_docker_refuses(tmp_path: Path, command: str, problem: str) -> None:
    readme = f"# Seg\n\n```bash\n{command}\n```\n"
    found = _named(tmp_path, readme, "")
    assert len(found) == 1 and found[0].startswith("4: README names image ") and problem in found[0]


@pytest.mark.parametrize(
    "command",
    [
        "docker build -t segnet:V2 .",
        "docker build -t <Your-Image> .",
        "docker build -t $IMAGE:2.0 .",
        "docker build -t gcr.io/PROJECT/seg/train:0.0.1 .",  # a placeholder in capitals
        'echo \\"Building\\" && docker build -f \\"${DF}\\" -t \\"${IMG}\\" .',  # escaped quotes
    ],
)
def test_readme_builds_of_names_docker_takes_or_the_reader_fills_in(tmp_path: Path, command: str) -> None:
    assert _named(tmp_path, f"# Seg\n\n```bash\n{command}\n```\n", "") == []


def glued(word: str, program: str, verb: str) -> str:
    return (
        f"README runs {word}, which is no program: it runs {program} {verb} without the blank between them, "
        f"so the shell answers command not found (did you mean {program} {verb}?)"
    )


def test_a_command_run_together_with_its_subcommand(tmp_path: Path) -> None:
    readme = """\
# Pose

The image is built with:

    sudo dockerbuild -t pose:gpu .h

```bash
dockerrun --rm -it pose:gpu
docker-composeup -d
```
"""
    make_tree(tmp_path, {"README.md": readme, "Dockerfile": "FROM debian:12-slim\n"})
    told = [
        f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", MODEL, {}, tmp_path)
    ]
    assert told == [
        f"5: {glued('dockerbuild', 'docker', 'build')}; its build context .h does not exist either (certain)",
        f"8: {glued('dockerrun', 'docker', 'run')} (certain)",
        f"9: {glued('docker-composeup', 'docker-compose', 'up')} (certain)",
    ]


@pytest.mark.parametrize(
    "block",
    [
        "docker build -t pose .",
        "alias dockerbuild='docker build'\ndockerbuild -t pose .",  # the README defines it
        "dockerd --debug",  # docker's daemon
        "docker-compose up -d",
        "./dockerbuild.sh",
        "echo dockerbuild",  # a word, not the program
    ],
)
def test_commands_that_are_programs(block: str) -> None:
    assert [f for f in found(f"# Pose\n\n```bash\n{block}\n```\n") if "no program" in f] == []


def test_run_options_docker_refuses_together() -> None:
    # a training container capped on one host (a reservation above the cap) and a service README
    # asking both for removal on exit and for restarts
    readme = """\
# Forecast trainer

```bash
docker build -t forecast -f Dockerfile .
docker run -it --rm --cpus="1.5" -m 3g --memory-reservation=6g forecast python train.py
```

Serve it with `docker run -d --rm --restart unless-stopped -p 80:8080 forecast serve`.

```bash
docker run --cpus 2 --cpu-quota 50000 forecast
docker run -m 2g --memory-swap 1g forecast
docker run -d -a stdout forecast
docker create --memory-swappiness=150 forecast
```
"""
    assert found(readme) == [
        "5: README's docker run: --memory-reservation 6g asks a memory reservation above the memory limit "
        "-m 3g, which docker refuses (minimum memory limit can not be less than memory reservation limit): "
        "it cannot run (certain)",
        "8: README's docker run: --rm and --restart unless-stopped cannot both be set (docker: conflicting "
        "options): it cannot run (certain)",
        "11: README's docker run: --cpus 2 and --cpu-quota 50000 cannot both be set (docker: conflicting "
        "options): it cannot run (certain)",
        "12: README's docker run: --memory-swap 1g is below the memory limit -m 2g, which docker refuses "
        "(the swap limit counts memory and swap together): it cannot run (certain)",
        "13: README's docker run: -a stdout and -d/--detach cannot both be set (docker: conflicting "
        "options): it cannot run (certain)",
        "14: README's docker create: --memory-swappiness 150 is out of the range docker takes (0 to 100): "
        "it cannot run (certain)",
    ]


def test_run_options_docker_refuses_with_a_shared_network_or_no_health_check() -> None:
    # a sidecar sharing a VPN container's network (the shape of a torrent client behind a VPN image) that
    # publishes its port itself, a health check turned off and set, a restart policy with a retry count
    readme = """\
# Downloader

```bash
docker run -d --network container:vpn -p 8080:8080 acme/downloader
docker run -d --no-healthcheck --health-cmd "curl -f localhost" acme/downloader
docker run -d --restart always:5 acme/downloader
docker run -d --restart unless_stopped acme/downloader
```
"""
    assert found(readme) == [
        "4: README's docker run: -p 8080:8080 cannot be set with --network container:vpn, which shares "
        "another container's network (docker: conflicting options): it cannot run (certain)",
        "5: README's docker run: --no-healthcheck and --health-cmd curl -f localhost cannot both be set "
        "(docker: conflicting options): it cannot run (certain)",
        "6: README's docker run: --restart always:5 gives a retry count to a policy that takes none "
        "(docker: maximum retry count can only be used with 'on-failure'): it cannot run (certain)",
        "7: README's docker run: --restart unless_stopped is no restart policy (docker takes no, always, "
        "unless-stopped, on-failure[:N]): it cannot run (certain)",
    ]


@pytest.mark.parametrize(
    "command",
    [
        "docker run --network host -p 8080:8080 acme/downloader",  # only a warning: the ports are dropped
        "docker run --net=container:vpn -e PORT=8080 acme/downloader",
        "docker run --network vpn -p 8080:8080 acme/downloader",  # a network of that name
        "docker run --restart on-failure:5 acme/downloader",
        "docker run --restart $POLICY acme/downloader",
        "docker run --health-cmd true --health-interval 5s acme/downloader",
    ],
)
def test_network_health_and_restart_options_docker_takes(command: str) -> None:
    assert found(f"```bash\n{command}\n```\n") == []


@pytest.mark.parametrize(
    "command",
    [
        "docker run -it --rm -m 4g --memory-reservation 2g forecast",  # below the cap
        "docker run -it --rm --memory=4096m --memory-reservation=4g forecast",  # the same size
        "docker run -d --rm forecast",  # detached and removed: fine since docker 1.13
        "docker run --rm --restart no forecast",  # no restart policy
        "docker run --rm=false --restart always forecast",
        "docker run -m 2g --memory-swap -1 forecast",  # unlimited swap
        "docker run -m 2g --memory-swap 4g forecast",
        "docker run --cpus 2 --cpu-shares 512 forecast",
        "docker run -m $LIMIT --memory-reservation 4g forecast",  # a variable
        "docker run -m <limit> --memory-reservation 4g forecast",  # a placeholder
        "docker run forecast -m 2g --memory-reservation 4g",  # the container's own options
        "docker run --memory-swappiness -1 --oom-score-adj -500 --blkio-weight 0 forecast",
        "docker run -it -a stdin forecast",  # attached, not detached
        "docker run --fancy-new-flag x -m 1g --memory-reservation 2g forecast",  # an option docgen lacks
    ],
)
def test_run_options_docker_takes(command: str) -> None:
    assert found(f"```bash\n{command}\n```\n") == []


# -- docker buildx without its build subcommand -------------------------------------------------------


def test_buildx_given_build_options_lacks_the_build_subcommand() -> None:
    # modelled on a CPU image's README whose one-line example drops `build` after buildx
    readme = """\
# torch-cpu

Example build: ```docker buildx --platform=linux/arm64 -t test --pull .```

```sh
docker buildx --builder ci -t kiln:dev --push .
```
"""
    got = found(readme)
    assert len(got) == 2
    assert got[0].startswith(
        "3: README runs docker buildx --platform=linux/arm64 -t test --pull ., but "
        "--platform is no option of docker buildx itself (buildx refuses it: unknown flag): the build "
        "subcommand is missing (did you mean docker buildx build --platform …?)"
    )
    assert got[1].startswith("6: README runs docker buildx --builder ci -t kiln:dev --push ., but -t is no")


def test_a_slip_of_a_buildx_command() -> None:
    readme = "# Kiln\n\n```sh\ndocker buildx biuld -t kiln .\n```\n"
    assert found(readme) == [
        "4: README runs docker buildx biuld, which is no docker buildx command: it cannot run (did you mean "
        "build?) (certain)"
    ]


@pytest.mark.parametrize(
    "command",
    [
        "docker buildx build --platform linux/amd64,linux/arm64 -t kiln .",
        "docker buildx b -t kiln .",
        "docker buildx --builder ci build -t kiln .",
        "docker buildx create --platform linux/arm64 --use",
        "docker buildx --help",
        "docker buildx imagetools inspect kiln:dev",
        "docker buildx history ls",
        "docker buildx --newflag x build .",
        "docker buildx mycommand",
    ],
)
def test_buildx_commands_that_can_run_or_are_not_known(command: str) -> None:
    # a newer root option of buildx, or a word near no command, is left alone
    assert found(f"# Kiln\n\n```sh\n{command}\n```\n") == []


@pytest.mark.parametrize(
    ("command", "named"),
    [
        # an HPC app's build: `mycontainer` is the reader's to replace, `OpenMM` is typed as written
        ("docker build -t mycontainer/OpenMM -f /path/to/Dockerfile .", "mycontainer/OpenMM"),
        ("docker build --tag=yourorg/GromacsGPU:2024 .", "yourorg/GromacsGPU:2024"),
        # a push and a pull of a name in capitals: docker refuses both before any network call
        ("docker push labteam/SegNet:1.0", "labteam/SegNet:1.0"),
        ("docker pull --platform=linux/amd64 Labteam/segnet", "Labteam/segnet"),
    ],
)
def test_a_name_docker_refuses_beside_a_placeholder_part_or_pushed(
    tmp_path: Path, command: str, named: str
) -> None:
    found = _named(tmp_path, f"# Seg\n\n```bash\n{command}\n```\n", "")
    assert found == [
        f"4: README names image {named}, which docker refuses: a repository name must be lowercase (certain)"
    ]


@pytest.mark.parametrize(
    "command",
    [
        "docker build -t mycontainer/openmm .",
        "docker build -t MyOrg/app .",  # the part in capitals is the placeholder itself
        "docker build -t YourUser/MyImage .",
        "docker push ${REGISTRY}/SegNet:1.0",  # the shell fills it in
        "docker pull <Org>/<Image>",
        "docker push labteam/segnet:RC1",  # upper case in a tag is valid
    ],
)
def test_names_with_placeholders_or_that_docker_takes(tmp_path: Path, command: str) -> None:
    assert _named(tmp_path, f"# Seg\n\n```bash\n{command}\n```\n", "") == []


def test_a_run_of_an_image_whose_typed_part_has_capitals() -> None:
    assert found("```bash\ndocker run -it mycontainer/OpenMM bash\n```\n") == [
        "2: README runs image mycontainer/OpenMM, which docker refuses: a repository name must be lowercase "
        "(certain)"
    ]
    assert found("```bash\ndocker run -it MyContainer/openmm bash\n```\n") == []
