"""`docgen.audit.spelled_folders`: a file the README places in a folder whose contents the build spells
out (named COPYs, through a `COPY --from` of a stage) that the build does not put there, and a script the
README runs by its bare name next to one copied into the WORKDIR; silent for a folder copied whole from the
context (read), a path a RUN makes (mkdir, `wget -O`, clone), a folder a RUN works in, a base given by a
variable or not known, a path the README mounts or makes, and a name no file there is near."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

SERVE = """\
FROM intel/oneapi-basekit:2025.0.1-devel AS build
COPY ./bench_online.py ./offline_infer.py ./start-main-service.sh ./start-pipe-service.sh /srv2/
RUN mkdir -p /work && cd /work && git clone https://example.org/acme/kit.git

FROM intel/oneapi-basekit:2025.0.1-devel
COPY --from=build /srv2/ /srv2/
RUN apt-get update && apt-get install -y wrk && \\
    mkdir -p /srv2/light && \\
    wget https://example.org/demo.lua -O /srv2/load-512.lua && \\
    git clone -b v1 https://example.org/acme/engine /srv2/engine && \\
    pip install /srv2/engine
WORKDIR /srv2/
ENTRYPOINT ["bash", "/srv2/start-main-service.sh"]
"""


def _findings(
    root: Path, readme: str, dockerfile: str = SERVE, files: dict[str, str] | None = None
) -> list[str]:
    make_tree(root, {"Dockerfile": dockerfile, **(files or {})})
    found = audit(readme, "README.md", [build_model(root / "Dockerfile", "Dockerfile")], {}, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "puts no" in d.message]


PLANTED = (
    "# Serving image\n\n"
    "We ship a script `/srv2/start-light-service` in the image for the light engine.\n\n"  # planted
    "The pipeline script `/srv2/start-pipe-service.sh` is in the image too.\n\n"
    "```bash\n"
    "python bench_online.py $model 8\n"
    "python bench_online_vision.py --model $model\n"  # planted: run where bench_online.py is
    "bash /srv2/start-main-service.sh\n"
    "ls /srv2/light /srv2/engine/docs\n"  # made by mkdir and a clone
    "wrk -s /srv2/load-512.lua http://localhost:8000\n"  # made by wget -O
    "```\n"
)


def test_files_the_build_does_not_put_in_a_folder_it_spells_out(tmp_path: Path) -> None:
    names = (
        "bench_online.py, engine, light, load-512.lua, offline_infer.py, start-main-service.sh, "
        "start-pipe-service.sh"
    )
    assert _findings(tmp_path, PLANTED) == [
        "3: README places /srv2/start-light-service in the image, but Dockerfile puts no start-light-service "
        f"there: it puts only {names} in /srv2 (did you mean /srv2/start-main-service.sh?) (likely)",
        "9: README runs bench_online_vision.py where it runs bench_online.py, in /srv2 (the WORKDIR), but "
        f"Dockerfile puts no bench_online_vision.py there: it puts only {names} in /srv2 (did you mean "
        "/srv2/bench_online.py?) (likely)",
    ]


def test_a_folder_copied_whole_is_read_from_the_context(tmp_path: Path) -> None:
    dockerfile = "FROM ubuntu:22.04\nCOPY scripts/ /srv2/\nWORKDIR /srv2\n"
    files = {"scripts/start-main-service.sh": "", "scripts/start-light-service": "", "scripts/bench.py": ""}
    readme = "# X\n\nThe image includes `/srv2/start-light-service`.\n\n```bash\npython bench.py\n```\n"
    assert _findings(tmp_path, readme, dockerfile, files) == []
    # the folder not in the context: what it copies is not known
    (tmp_path / "scripts" / "start-light-service").unlink()
    assert len(_findings(tmp_path, readme, dockerfile)) == 1
    dockerfile = "FROM ubuntu:22.04\nCOPY tools/ /srv2/\nCOPY start-main-service.sh /srv2/\n"
    assert _findings(tmp_path / "b", readme, dockerfile) == []


def test_a_folder_a_run_works_in_or_writes_to_is_not_spelled_out(tmp_path: Path) -> None:
    readme = "# X\n\nThe image includes `/srv2/start-light-service`.\n"
    for n, run in enumerate(
        [
            "RUN cd /srv2 && wget https://example.org/start-light-service",
            "WORKDIR /srv2\nRUN tar xf /tmp/bundle.tar",
            "RUN cp -r /tmp/extra/ /srv2/",
            "RUN tar -C /srv2 -xf /tmp/bundle.tar",
            "RUN cd $APP_HOME && make install",
            "RUN curl -fsSL https://example.org/setup.sh | bash",
            "COPY --from=python:3.12 /usr/local/share/tools /srv2/",
            "COPY ${EXTRA} /srv2/",
            "VOLUME /srv2",
            "RUN printf 'x' > /srv2/start-light-service",
            "RUN mkdir -p /srv2/start-light-service",
            "COPY . /srv2/",
            "ADD bundle.tar.gz /srv2/",
        ]
    ):
        dockerfile = f"FROM ubuntu:22.04\nCOPY start-main-service.sh /srv2/\n{run}\n"
        assert _findings(tmp_path / str(n), readme, dockerfile) == [], run
    # the same without the RUN: a finding
    assert (
        len(_findings(tmp_path / "x", readme, "FROM ubuntu:22.04\nCOPY start-main-service.sh /srv2/\n")) == 1
    )


def test_a_base_not_known_may_hold_the_folder(tmp_path: Path) -> None:
    readme = "# X\n\nThe image includes `/srv2/start-light-service`.\n"
    for n, base in enumerate(["acme/serving-base:1.0", "${BASE_IMAGE}", "app-base"]):
        dockerfile = f"ARG BASE_IMAGE=ubuntu:22.04\nFROM {base}\nCOPY start-main-service.sh /srv2/\n"
        assert _findings(tmp_path / str(n), readme, dockerfile) == [], base
    # a folder a vendor's base fills, or a system one; on a plain OS image only the system's
    for n, folder in enumerate(["/opt/app", "/workspace", "/usr/local/bin", "/app", "/opt"]):
        text = f"# X\n\nThe image includes `{folder}/start-light-service`.\n"
        for base in ("intel/oneapi-basekit:2025.0.1-devel", "ubuntu:22.04"):
            dockerfile = f"FROM {base}\nCOPY start-main-service.sh {folder}/\n"
            found = _findings(tmp_path / f"f{n}{base[:5]}", text, dockerfile)
            plain_app = base.startswith("ubuntu") and folder in ("/opt/app", "/workspace", "/app")
            assert len(found) == (1 if plain_app else 0), (folder, base)


def test_paths_the_readme_mounts_makes_or_gives_are_no_claim(tmp_path: Path) -> None:
    readme = (
        "# X\n\n"
        "```bash\n"
        "docker run -v $PWD/extra:/srv2/extra serving python /srv2/extra/bench_vision.py\n"
        "docker exec serving cp /tmp/start-light-service.sh /srv2/start-light-service.sh\n"
        "docker exec serving bash /srv2/start-light-service.sh\n"
        "```\n\n"
        "Mount your own script at `/srv2/start-own-service.sh` if you need another engine.\n\n"
        "The image path may be a local one (e.g. `/srv2/xxx.jpg`).\n\n"
        "The image includes `/srv2/config.yaml`.\n"  # no name there is near it
    )
    assert _findings(tmp_path, readme) == []


def test_a_script_run_by_a_bare_name_that_is_a_file_of_the_host(tmp_path: Path) -> None:
    readme = "# X\n\n```bash\npython bench_online.py m 8\npython bench_online_vision.py m\n```\n"
    assert _findings(tmp_path, readme, files={"bench_online_vision.py": ""}) == []
    # no script the README runs alike is in the WORKDIR: where it runs is not known
    readme = "# X\n\n```bash\npython bench_online_vision.py m\n```\n"
    assert _findings(tmp_path / "b", readme) == []


def test_a_script_the_readme_fetches_or_runs_after_a_cd(tmp_path: Path) -> None:
    readme = (
        "# X\n\n```bash\npython bench_online.py m 8\n"
        "wget https://example.org/bench_online_vision.py\npython bench_online_vision.py m\n```\n\n"
        "```bash\ncd /tmp/extra\npython bench_online_extra.py m\n```\n"
    )
    assert _findings(tmp_path, readme) == []
    # the script next to the README in a folder below it: it may run on the host
    readme = "# X\n\n```bash\npython bench_online.py m 8\npython bench_online_vision.py m\n```\n"
    assert _findings(tmp_path / "b", readme, files={"tools/bench_online_vision.py": ""}) == []


def test_a_context_folder_that_is_a_link_out_of_the_project_is_not_listed(tmp_path: Path) -> None:
    dockerfile = "FROM ubuntu:22.04\nCOPY scripts/ /srv2/\n"
    readme = "# X\n\nThe image includes `/srv2/start-light-service`.\n"
    # a folder of the context: its names are read, and the near one is told
    assert len(_findings(tmp_path / "a", readme, dockerfile, {"scripts/start-main-service.sh": ""})) == 1
    # the same folder through a link leading out: not listed, so what the COPY puts there is not known
    make_tree(tmp_path / "elsewhere", {"start-main-service.sh": ""})
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "scripts").symlink_to(tmp_path / "elsewhere")
    assert _findings(tmp_path / "b", readme, dockerfile) == []


def test_a_word_of_two_slashes_is_the_root_and_the_audit_ends(tmp_path: Path) -> None:
    # a sed expression quoted across a space (`'/deb-src/s/^# //'`) leaves a word `//`, and a path may
    # start with two slashes: Linux reads both from the root; `//` kept as a folder was its own parent
    dockerfile = SERVE.replace(
        "WORKDIR /srv2/",
        "RUN sed -i '/deb-src/s/^# //' /etc/apt/sources.list && apt update\n"
        "RUN mkdir -p //srv2/extra && touch //srv2//extra/notes.txt\n"
        "WORKDIR /srv2/",
    )
    found = _findings(tmp_path, PLANTED, dockerfile)
    assert [f.split(":")[0] for f in found] == ["3", "9"]  # the planted drifts, still found
    assert "extra" in found[0]  # `//srv2/extra` is read as /srv2/extra
    trap = PLANTED.replace("/srv2/start-light-service", "/srv2/extra/notes.txt")
    assert [f.split(":")[0] for f in _findings(tmp_path, trap, dockerfile)] == ["9"]
