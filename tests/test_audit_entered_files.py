"""`docgen audit`: files a README's commands name by a relative path after its steps moved the reader
into a folder of the project that does not hold them (docgen/audit/entered_files.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.audit.entered_files import entered_files, named_files
from docgen.markdown import read_document, source_lines
from docgen.pipeline import build_model

APP = "FROM python:3.12-slim\nCOPY . /app\n"
SERVICE = "services:\n  chat:\n    build: ./vision-chat/Vision-Chat\n"


def found(
    root: Path, readme: str, files: dict[str, str], page: str = "README.md"
) -> list[tuple[int, str, str]]:
    make_tree(root, {page: readme, **files})
    path = root / page
    text = path.read_text(encoding="utf-8")
    doc = read_document(text, page)
    return [
        (d.line, d.message, d.confidence)
        for d in entered_files(doc, text, source_lines(text), page, path.parent, root)
    ]


def lines(root: Path, readme: str, files: dict[str, str], page: str = "README.md") -> list[tuple[int, str]]:
    return [(line, confidence) for line, _, confidence in found(root, readme, files, page)]


# planted drifts


def test_a_compose_file_at_the_root_named_after_a_cd_into_a_folder(tmp_path: Path) -> None:
    # an indented block: enter the folder, clone another project into it, then run the root's compose file
    readme = (
        "# Vision tests\n\n## Vision chat\n\n"
        "    cd vision-chat\n"
        "    git clone git@github.com:someorg/Vision-Chat.git\n\n"
        "    docker-compose -f docker-compose.vision-chat.yaml up\n"
    )
    files = {
        "docker-compose.vision-chat.yaml": SERVICE,
        "vision-chat/fetch-upstream.sh": "git clone x\n",
        "Dockerfile.chat": APP,
    }
    result = found(tmp_path, readme, files)
    assert result == [
        (
            8,
            "README reads the compose file docker-compose.vision-chat.yaml in vision-chat/ (where the cd at "
            "line 5 leads), but vision-chat/ holds no docker-compose.vision-chat.yaml: the project's is at "
            "the project's root, so compose stops: the file is not found (name it "
            "../docker-compose.vision-chat.yaml, or run the command before the cd)",
            "certain",
        )
    ]


def test_a_script_path_written_from_the_root_after_a_cd_on_the_same_line(tmp_path: Path) -> None:
    readme = "# Tool\n\n```bash\ncd scripts && bash scripts/prepare_data.sh --fast\n```\n"
    result = found(tmp_path, readme, {"scripts/prepare_data.sh": "echo\n"})
    assert [(line, conf) for line, _, conf in result] == [(4, "certain")]
    assert "the project's is scripts/prepare_data.sh from the project's root" in result[0][1]
    assert "(name it prepare_data.sh," in result[0][1]


@pytest.mark.parametrize(
    ("command", "files"),
    [
        ("cp .env.example .env", {".env.example": "A=1\n"}),
        ("docker build -f Dockerfile.gpu -t shop-gpu .", {"Dockerfile.gpu": APP}),
        ("python3 tools/render.py --out k8s.yaml", {"tools/render.py": "print()\n"}),
        ("./start-all.sh", {"start-all.sh": "echo\n"}),
        ("docker run --rm -v ./config:/etc/shop shop", {"config/app.toml": "a = 1\n"}),
        ("docker run --rm -v $(pwd)/models:/models shop", {"models/README": "x\n"}),
        ("docker compose --env-file prod.env up -d", {"prod.env": "A=1\n"}),
        ("chmod +x start-all.sh", {"start-all.sh": "echo\n"}),
        ("python3 -m pip install -r requirements.txt", {"requirements.txt": "flask\n"}),
        ("conda env create -f environment.yml", {"environment.yml": "name: shop\n"}),
        ("kubectl apply -f k8s/shop.yaml", {"k8s/shop.yaml": "kind: Pod\n"}),
    ],
)
def test_each_kind_of_file_read_from_the_entered_folder(
    tmp_path: Path, command: str, files: dict[str, str]
) -> None:
    readme = f"# Shop\n\n## Deploy\n\n```sh\ncd deploy\n{command}\n```\n"
    assert lines(tmp_path, readme, {"deploy/notes.txt": "x\n", **files}) == [(7, "certain")]


def test_a_file_beside_a_readme_of_a_subfolder(tmp_path: Path) -> None:
    readme = "# Ops\n\n```sh\ncd charts\npython render.py\n```\n"
    files = {"ops/render.py": "print()\n", "ops/charts/values.yaml": "a: 1\n"}
    result = found(tmp_path, readme, files, page="ops/README.md")
    assert [(line, conf) for line, _, conf in result] == [(5, "certain")]
    assert "in charts/" in result[0][1] and "ops/render.py from the project's root" in result[0][1]


def test_a_readme_below_the_root_whose_cd_is_written_from_the_root(tmp_path: Path) -> None:
    # docker/README.md: `cd docker` only works from the root, and then the path repeats the folder
    readme = "# Images\n\n```sh\ncd docker\ndocker compose -f docker/compose.cuda.yml up\n```\n"
    files = {"docker/compose.cuda.yml": "services: {}\n", "docker/Dockerfile": APP}
    result = found(tmp_path, readme, files, page="docker/README.md")
    assert [(line, conf) for line, _, conf in result] == [(5, "certain")]
    assert "in docker/ (where the cd at line 4 leads)" in result[0][1]
    clean = "# Images\n\n```sh\ncd docker\ndocker compose -f compose.cuda.yml up\n./build.sh\n```\n"
    assert found(tmp_path, clean, {**files, "docker/build.sh": "echo\n"}, page="docker/README.md") == []


def test_a_cd_of_an_earlier_block_of_the_section_is_likely(tmp_path: Path) -> None:
    readme = "# Web\n\n## Run\n\n```sh\ncd web\n```\n\nThen:\n\n```sh\npython manage.py migrate\n```\n"
    files = {"manage.py": "print()\n", "web/static/app.css": "a{}\n"}
    assert lines(tmp_path, readme, files) == [(12, "likely")]


def test_a_clone_said_to_be_this_repository_is_likely(tmp_path: Path) -> None:
    readme = (
        "# Shop\n\nClone the repository:\n\n```sh\ngit clone https://example.com/acme/shop-app.git\n"
        "cd shop-app/deploy\nbash install.sh\n```\n"
    )
    files = {"install.sh": "echo\n", "deploy/notes.txt": "x\n"}
    result = found(tmp_path, readme, files)
    assert [(line, conf) for line, _, conf in result] == [(8, "likely")]
    assert "in shop-app/deploy/" in result[0][1]


# planted traps


def test_sections_apart_are_not_followed(tmp_path: Path) -> None:
    readme = "# Box\n\n## Build\n```bash\ncd build\n./build.sh\n```\n## Run\n```bash\n./run_box.sh\n```\n"
    files = {"build/build.sh": "docker build .\n", "run_box.sh": "docker run box\n"}
    assert found(tmp_path, readme, files) == []


@pytest.mark.parametrize(
    "block",
    [
        "cd deploy\ndocker compose -f compose.gpu.yml up",  # the entered folder holds it
        "cd deploy && cd ..\ndocker compose -f compose.cpu.yml up",  # back up: not followed
        "cd deploy\ncd -\ndocker compose -f compose.cpu.yml up",
        "pushd deploy && docker compose -f compose.gpu.yml up && popd\nbash run.sh",
        "pushd deploy\nls\npopd\nbash run.sh",
        "cd deploy\ncp ../.env.example .env\ndocker compose --env-file .env up",  # made before
        "cd deploy\nmkdir -p data\ndocker run -v ./data:/data app",
        "cd deploy\ngit clone https://github.com/other/tools.git\nbash tools/setup.sh",  # the clone's folder
        "cd deploy && make && ./bin/serve",  # a build makes files
        "cd deploy\ncmake ..\n./bin/serve",
        "cd /opt/deploy\ndocker compose -f compose.cpu.yml up",  # a folder docgen cannot see
        "cd ~/src/shop/deploy\ndocker compose -f compose.cpu.yml up",
        "cd $SHOP_HOME\ndocker compose -f compose.cpu.yml up",
        "cd <your-folder>\ndocker compose -f compose.cpu.yml up",
        "cd deploy\nbash <script>.sh",  # a placeholder
        "cd deploy\ndocker compose -f $COMPOSE up",
        "cd deploy\ndocker run -it shop bash\ncd src\npython manage.py",  # in the container
        "cd missing\ndocker compose -f compose.cpu.yml up",  # no such folder: `steps.missing_folders`'
        "docker compose -f compose.cpu.yml up",  # no cd at all
        "cd deploy\ndocker compose logs -f compose.cpu.yml",  # `-f` of logs follows
        "cd deploy\ndocker build -f deploy/Dockerfile.api ..",  # from the context: `entered_builds`'
        "cd deploy\ndocker run -v data:/data app",  # a named volume
        "cd deploy\npip install -r requirements.txt",  # found there
    ],
)
def test_traps_are_silent(tmp_path: Path, block: str) -> None:
    files = {
        "compose.cpu.yml": "services: {}\n",
        "deploy/compose.gpu.yml": "services: {}\n",
        "compose.gpu.yml": "services: {}\n",
        ".env.example": "A=1\n",
        ".env": "A=1\n",
        "data/keep": "",
        "tools/setup.sh": "echo\n",
        "bin/serve": "echo\n",
        "manage.py": "print()\n",
        "src/manage.py": "print()\n",
        "run.sh": "echo\n",
        "other/manage.py": "print()\n",
        "deploy/Dockerfile.api": APP,
        "deploy/requirements.txt": "flask\n",
        "requirements.txt": "flask\n",
    }
    assert found(tmp_path, f"# Shop\n\n```sh\n{block}\n```\n", files) == []


def test_a_clone_of_another_project_entered_is_not_read(tmp_path: Path) -> None:
    clone = "git clone https://github.com/other/libfoo.git"
    readme = f"# Kit\n\n```sh\n{clone}\ncd libfoo\npython setup.py install\n```\n"
    assert found(tmp_path, readme, {"setup.py": "print()\n", "libfoo/notes.txt": "x\n"}) == []


def test_named_files() -> None:
    assert list(named_files("docker-compose -f a.yml -f b/c.yml up")) == [
        ("compose", "a.yml"),
        ("compose", "b/c.yml"),
    ]
    assert list(named_files("sudo docker build --file=docker/x.Dockerfile .")) == [
        ("build", "docker/x.Dockerfile")
    ]
    assert list(named_files("GPU=1 bash run.sh")) == [("script", "run.sh")]
    assert list(named_files("docker run -v $PWD/cfg:/cfg -v /abs:/abs -v vol:/v img")) == [("mount", "cfg")]
    assert list(named_files("cp a.txt b.txt dest/")) == [("copy", "a.txt"), ("copy", "b.txt")]
    assert list(named_files("python -m http.server")) == []
    assert list(named_files("sudo pip3 install -r req.txt")) == [("pip", "req.txt")]
    assert list(named_files("helm install shop ./chart --values prod.yaml")) == [("kube", "prod.yaml")]


def test_the_audit_reports_it(tmp_path: Path) -> None:
    readme = "# Chat\n\n```sh\ncd chat\ndocker compose -f compose.chat.yaml up\n```\n"
    make_tree(
        tmp_path,
        {"README.md": readme, "Dockerfile": APP, "compose.chat.yaml": "services: {}\n", "chat/x.txt": "x"},
    )
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    result = audit(readme, "README.md", model, {}, tmp_path, tmp_path)
    assert [(d.line, d.rule, d.confidence) for d in result if "holds no compose.chat.yaml" in d.message] == [
        (5, "DG103", "certain")
    ]


def test_moves_are_read_once_for_all_the_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a README of many `cd` and command lines: each move is applied once, not again for each command
    from docgen.audit.placement import Placement

    applied: list[str] = []
    apply = Placement._apply

    def counted(self: Placement, *args: object) -> None:
        applied.append(str(args[2]))
        apply(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Placement, "_apply", counted)
    blocks = "".join("```sh\ncd deploy\ndocker compose -f compose.yml up\ncd -\n```\n\n" for _ in range(300))
    assert found(tmp_path, f"# Many\n\n{blocks}", {"deploy/compose.yml": "services: {}\n"}) == []
    assert len(applied) <= 2 * 300 + 2 * 300  # (the block's moves, and those of each command's own steps)
