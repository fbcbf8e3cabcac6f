"""`docgen audit`: paths in the image a README tells the user to use that the image does not have, next
to a path of a near name the Dockerfile makes (docgen/audit/image_paths.py)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

ENVS = (
    "FROM ghcr.io/example/spack-base:1.0\n"
    "WORKDIR /src\n"
    "RUN git clone --depth=1 https://example.org/solver.git\n"
    "RUN mkdir -p /opt/env-main /opt/env-lite\n"
    "COPY env.yaml /opt/env-main/spack.yaml\n"
    "RUN cd /opt/env-main && spack install\n"
    "WORKDIR /opt/store\n"
)


def _findings(root: Path, files: dict[str, str], readme: str, directory: bool = True) -> list[str]:
    make_tree(root, files)
    models = [build_model(root / name, name) for name in files if "Dockerfile" in name]
    found = audit(readme, "README.md", models, {}, root if directory else None)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


def test_a_path_the_image_does_not_have_next_to_one_it_makes(tmp_path: Path) -> None:
    readme = (
        "# Solver image\n\n"
        "Rebuild inside the container:\n\n"
        "```bash\n"
        "cd /opt/main-env\n"  # planted: the environment is /opt/env-main
        "spack install --force solver\n"
        "ls /opt/env-main/.spack-env/view/bin\n"  # the path as it is: no finding
        "```\n\n"
        "Or activate it by its path: `spack env activate /opt/main-env`.\n\n"
        "```bash\ndocker run --rm solver /opt/main-env/bin/solve\n"  # a path in the image, too
        "docker build -f /opt/main-env/Dockerfile .\n```\n"  # on the host: no claim
    )
    files = {"Dockerfile": ENVS, "env.yaml": "spack:\n  view: /opt/views/solver\n"}
    assert _findings(tmp_path, files, readme) == [
        "6: README uses /opt/main-env in the image, which Dockerfile does not make: it makes "
        "/opt/env-lite, /opt/env-main, /opt/store there (did you mean /opt/env-main?); also at lines 11, 14 "
        "(likely)"
    ]


def test_paths_the_dockerfile_its_context_or_a_mount_names_are_no_claim(tmp_path: Path) -> None:
    readme = (
        "```bash\n"
        "docker run -v $PWD/data:/opt/env-data solver\n"
        "ls /opt/env-data/input\n"  # mounted by the README's own command
        "ls /opt/views/solver/bin\n"  # named by the file the Dockerfile copies
        "cd /src/solver/build\n"  # below a WORKDIR: the clone is there
        ". /opt/spack/share/spack/setup-env.sh\n"  # a folder a RUN enters: the base image's
        "cat /opt/env-main/spack.lock\n"  # below a folder the Dockerfile makes
        "mkdir -p /opt/main-cache && cp out.bin /opt/main-cache/\n"  # the README makes it
        "ls /opt/main-cache\n"
        "```\n"
    )
    files = {"Dockerfile": ENVS, "env.yaml": "spack:\n  view: /opt/views/solver\n"}
    assert _findings(tmp_path, files, readme) == []


def test_a_path_with_no_near_name_or_in_a_system_folder_is_no_claim(tmp_path: Path) -> None:
    dockerfile = (
        "FROM python:3.12-slim\n"
        "COPY serve.py /opt/app/serve.py\n"
        "COPY tool /usr/local/bin/tool-a\n"
        "ENV APP_HOME=/opt/app CUDA_LIBS=/opt/cuda/lib\n"
    )
    readme = (
        "```bash\n"
        "ls /opt/cuda/lib64\n"  # an ENV value names the base image's folders, it fills none
        "/opt/conda/bin/python -V\n"  # the base image's, maybe: nothing near it is made
        "tool-b --help && ls /usr/local/bin/tool-b\n"  # every base image fills /usr/local/bin
        "```\n"
    )
    assert _findings(tmp_path, {"Dockerfile": dockerfile, "serve.py": "", "tool": ""}, readme) == []


def test_the_rule_needs_the_build_context(tmp_path: Path) -> None:
    readme = "```bash\ncd /opt/main-env\n```\n"
    files = {"Dockerfile": ENVS, "env.yaml": ""}
    assert _findings(tmp_path, files, readme, directory=False) == []
    assert len(_findings(tmp_path, files, readme)) == 1


def test_a_readme_next_to_the_dockerfile_does_not_vouch_for_its_own_slip(tmp_path: Path) -> None:
    readme = "Activate it:\n\n```bash\nspack env activate /opt/main-env\n```\n"
    files = {"Dockerfile": ENVS, "env.yaml": "", "NOTES.md": "use /opt/main-env\n"}
    assert [f.split(":")[0] for f in _findings(tmp_path, files, readme)] == ["4"]
    files["setup.sh"] = "spack env activate /opt/main-env\n"  # a script of the context names it
    assert _findings(tmp_path, files, readme) == []


def test_a_whole_context_copy_or_a_piped_installer_may_make_the_path(tmp_path: Path) -> None:
    readme = "```bash\nspack env activate /opt/main-env\n```\n"
    whole = ENVS + "COPY . /opt/app\n"
    files = {"Dockerfile": whole, "env.yaml": "", "README.md": readme}
    assert len(_findings(tmp_path / "a", files, readme)) == 1  # the README copied along is no proof
    files["tools/make_env.py"] = "ENV = '/opt/main-env'\n"  # a file the whole-context COPY brings
    assert _findings(tmp_path / "b", files, readme) == []
    piped = ENVS + "RUN curl -fsSL https://example.org/install.sh | bash\n"
    assert _findings(tmp_path / "c", {"Dockerfile": piped, "env.yaml": ""}, readme) == []


UNPACKED = (
    "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
    "RUN mkdir -p /srv/runs /srv/cache\n"
    "RUN cd /srv && curl -LO https://example.org/archive/main.tar.gz && tar xzf main.tar.gz\n"
    "RUN cd /srv/mdsim-main/build && cmake .. && make -j8\n"
)


def test_a_path_a_slip_from_the_folder_an_archive_unpacked(tmp_path: Path) -> None:
    # the archive unpacks to /srv/mdsim-main, a name the Dockerfile writes only when it goes in
    readme = "```bash\nmdsim -in /srv/mdsim/examples/water.in\n```\n"
    assert _findings(tmp_path, {"Dockerfile": UNPACKED}, readme) == [
        "2: README uses /srv/mdsim in the image, which Dockerfile does not make: its RUNs work in "
        "/srv/mdsim-main there (did you mean /srv/mdsim-main?) (likely)"
    ]
    # the folder as the Dockerfile goes into it, and a name near nothing there: no claim
    right = "```bash\nmdsim -in /srv/mdsim-main/examples/water.in\nls /srv/results/out\n```\n"
    assert _findings(tmp_path / "right", {"Dockerfile": UNPACKED}, right) == []


def test_a_folder_a_run_works_in_but_puts_nothing_in_may_hold_anything(tmp_path: Path) -> None:
    # no RUN makes anything in /opt itself: what is there may be the base image's
    dockerfile = UNPACKED.replace("/srv", "/opt").replace("mkdir -p /opt/runs /opt/cache", "mkdir -p /data")
    readme = "```bash\nmdsim -in /opt/mdsim/examples/water.in\n```\n"
    assert _findings(tmp_path, {"Dockerfile": dockerfile}, readme) == []


MOVED = (
    "FROM ghcr.io/example/ros-base:humble\n"
    "ARG USERNAME=rover\n"
    "RUN mkdir -p /root/.ssh && chmod 700 /root/.ssh\n"
    "WORKDIR /opt/deps_ws/src\n"
    "RUN wget -qO- https://example.org/msgs.tar.gz | tar -xz\n"
    "WORKDIR /opt/deps_ws\n"
    "RUN colcon build\n"
    "RUN useradd -m $USERNAME\n"
    "USER $USERNAME\n"
    "WORKDIR /home/${USERNAME}/rover-2030\n"
    'RUN echo "source /opt/deps_ws/install/setup.bash" >> ~/.bashrc\n'
)


def test_a_folder_the_dockerfile_moved_elsewhere(tmp_path: Path) -> None:
    readme = (
        "# Rover image\n\n"
        "Each shell sources these for you:\n\n"
        "```bash\n"
        "source /opt/ros/humble/setup.bash\n"  # the base image's: no claim
        "source /root/deps_ws/install/setup.bash\n"  # planted: the workspace is /opt/deps_ws
        "source /root/rover-2030/ws/install/setup.bash\n"  # planted: the repo is /home/rover/rover-2030
        "ls /root/deps_ws/src\n"
        "```\n"
    )
    assert _findings(tmp_path, {"Dockerfile": MOVED}, readme) == [
        "7: README uses /root/deps_ws in the image, which Dockerfile does not make: Dockerfile:6 makes "
        "/opt/deps_ws (did you mean /opt/deps_ws?); also at line 9 (likely)",
        "8: README uses /root/rover-2030 in the image, which Dockerfile does not make: Dockerfile:10 makes "
        "/home/rover/rover-2030 (did you mean /home/rover/rover-2030?) (likely)",
    ]


def test_a_folder_of_that_name_the_build_or_the_reader_may_make_is_no_claim(tmp_path: Path) -> None:
    readme = (
        "```bash\n"
        "docker run -v $PWD:/root/rover-2030 rover\n"  # mounted there by the README's own command
        "cd /root/rover-2030/ws\n"
        "cd /path/to/deps_ws\n"  # a folder the image is not known to have: the reader's
        "ls /root/models/weights\n"  # a name any tree has (`models`)
        "```\n"
    )
    models = MOVED + "RUN mkdir -p /opt/models\n"
    assert _findings(tmp_path, {"Dockerfile": models}, readme) == []
    # the compose file next to the README names the path: it mounts the repository there
    compose = "services:\n  rover:\n    volumes:\n      - ../:/root/rover-2030\n"
    used = "```bash\ncd /root/rover-2030\n```\n"
    files = {"Dockerfile": MOVED, "docker-compose.yml": compose}
    assert _findings(tmp_path / "compose", files, used) == []
    # a relative clone of that name may put it in /root, the folder the build works in
    cloned = MOVED + "WORKDIR /root\nRUN git clone https://example.org/deps_ws.git\n"
    assert _findings(tmp_path / "clone", {"Dockerfile": cloned}, "```bash\nls /root/deps_ws/src\n```\n") == []
    # the image makes it there too, by a relative WORKDIR
    here = MOVED + "WORKDIR /root\nWORKDIR deps_ws\n"
    assert _findings(tmp_path / "here", {"Dockerfile": here}, "```bash\nls /root/deps_ws/src\n```\n") == []
    # two folders of that name: which one was meant is not known
    twice = MOVED + "RUN mkdir -p /srv/deps_ws\n"
    assert _findings(tmp_path / "twice", {"Dockerfile": twice}, "```bash\nls /root/deps_ws/src\n```\n") == []


def test_a_url_probe_is_no_download_that_may_make_a_path(tmp_path: Path) -> None:
    probe = MOVED + (
        'RUN if [ "$(curl -L -I "$SDK_URL" -o /dev/null -s -w \'%{http_code}\')" = "200" ]; '
        "then echo ok; fi\n"
    )
    readme = "```bash\nls /root/deps_ws/src\n```\n"
    assert len(_findings(tmp_path, {"Dockerfile": probe}, readme)) == 1
    # a script fetched and run in a shell may make any path
    piped = MOVED + "RUN curl -fsSL https://example.org/setup.sh | bash\n"
    assert _findings(tmp_path / "piped", {"Dockerfile": piped}, readme) == []


def test_a_path_of_two_leading_slashes_is_read_from_the_root() -> None:
    from docgen.audit.image_paths import clean_path

    assert clean_path("//") == "/"
    assert clean_path("//srv//app/") == "/srv/app"
    assert clean_path("/opt/x/") == "/opt/x"  # unchanged
    assert clean_path("relative/x") is None


def test_the_files_beside_a_dockerfile_linked_out_of_the_repository_are_not_read(tmp_path: Path) -> None:
    """A Dockerfile given as a link leading out of the README's repository is read (the user named it);
    the files beside its target are not, as a build context: they are outside the project."""
    from docgen.audit.image_paths import context_text

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "Dockerfile").write_text("FROM ubuntu:22.04\nCOPY . /srv/app\n")
    (outside / "secret.sh").write_text("cd /srv/secret-path\n")
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "run.sh").write_text("cd /srv/app\n")
    (project / "Dockerfile").symlink_to(outside / "Dockerfile")
    text = context_text(str((project / "Dockerfile").resolve()), (), str(project))
    assert text is not None
    assert "/srv/app" in text and "cd /srv/app" in text  # the Dockerfile and the README's folder
    assert "secret" not in text
