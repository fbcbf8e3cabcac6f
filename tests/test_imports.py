"""How docgen's modules import each other, and what each command loads.

Imports flow one way (the console script on top, the Dockerfile reader at the bottom): no module
imports one that imports it back, even inside a function. And a command loads only what it uses:
`docgen --version`, `--help` and an up-to-date `docgen check` never load Jinja2, `packaging`, the
TOML parser or the parser of Dockerfiles.
"""

from __future__ import annotations

import ast
import functools
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "docgen"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Every module of docgen/ and the docgen modules it imports anywhere in its code (functions and
    `if TYPE_CHECKING:` blocks included: a cycle there is still a cycle to read)."""
    modules = {module_name(path, package.parent): path for path in sorted(package.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: `from . import x`, `from .x import y`
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                for alias in node.names:  # `from docgen import fingerprint` imports a module
                    full = f"{base}.{alias.name}"
                    targets.add(full if full in modules else base)
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of `graph` (its modules in import order, the first repeated at the end), else None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (cycle := visit(target)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_import_graph_of_docgen_has_no_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_a_cycle_through_an_import_inside_a_function_is_found(tmp_path: Path) -> None:
    """The shape docgen had: the entry module imports the CLI inside a function, the CLI imports it."""
    make = {
        "__init__.py": "",
        "entry.py": "def main():\n    from pkg.cli import run\n",
        "cli.py": "from pkg import entry\n",
    }
    for name, text in make.items():
        (tmp_path / "pkg").mkdir(exist_ok=True)
        (tmp_path / "pkg" / name).write_text(text)
    assert find_cycle(import_graph(tmp_path / "pkg")) == ["pkg.cli", "pkg.entry", "pkg.cli"]
    (tmp_path / "pkg" / "cli.py").write_text("import os\n")
    assert find_cycle(import_graph(tmp_path / "pkg")) is None


def test_the_import_graph_sees_function_level_and_package_imports() -> None:
    graph = import_graph()
    assert "docgen.cli" in graph["docgen.__main__"]  # imported inside main()
    assert "docgen.fingerprint" in graph["docgen.fastcheck"]  # `from docgen import fingerprint`
    assert "docgen.sources.context" in graph["docgen.sources.pip"]  # a module of a subpackage


def private_imports(package: Path = PACKAGE) -> list[str]:
    """`file:line name` of each import, in a module of `package`, of an underscore name (a dunder
    aside) from another module of the package: what one module keeps to itself, another may not use."""
    modules = {module_name(path, package.parent): path for path in sorted(package.rglob("*.py"))}
    found = []
    for name, path in modules.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = node.module or ""
            if node.level:  # relative: `from ._x import _y`
                anchor = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if base.split(".")[0] != package.name:
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.endswith("__"):
                    where = path.relative_to(package.parent).as_posix()
                    found.append(f"{where}:{node.lineno} {alias.name} (from {base})")
    return found


def test_no_module_imports_another_modules_private_names() -> None:
    """A name another module imports is public (no leading underscore): `_raw` of `audit/versions.py`
    used by the modules beside it is `raw_name`."""
    found = private_imports()
    assert found == [], "imports of another module's private names:\n" + "\n".join(found)


def test_an_import_of_a_private_name_is_found(tmp_path: Path) -> None:
    """The shapes docgen had: one name, one among public ones, a multi-line import, a relative one."""
    make = {
        "__init__.py": "__version__ = '1'\n",
        "words.py": "CREATES = 1\n_made = 2\n_raw = 3\n",
        "one.py": "from pkg.words import _raw\n",
        "two.py": "from pkg.words import CREATES, _made\n",
        "three.py": "from pkg.words import (\n    CREATES,\n    _raw,\n)\n",
        "four.py": "from .words import _made\n",
        "fine.py": "from pkg import __version__\nfrom pkg.words import CREATES\nfrom os import _exit\n",
    }
    (tmp_path / "pkg").mkdir()
    for name, text in make.items():
        (tmp_path / "pkg" / name).write_text(text)
    assert sorted(private_imports(tmp_path / "pkg")) == [
        "pkg/four.py:1 _made (from pkg.words)",
        "pkg/one.py:1 _raw (from pkg.words)",
        "pkg/three.py:1 _raw (from pkg.words)",
        "pkg/two.py:1 _made (from pkg.words)",
    ]


def test_the_console_script_is_the_trivial_entry_module() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'docgen = "docgen.__main__:main"' in pyproject
    assert len((PACKAGE / "__main__.py").read_text(encoding="utf-8").splitlines()) <= 40


NEVER_FOR_HELP = (
    "jinja2",
    "markupsafe",
    "packaging",
    "tomllib",
    "tomli",
    "hcl2",
    "yaml",
    "docgen.bake",
    "docgen.compose",
    "docgen.workflows",
    "docgen.config",
    "docgen.dockerfile",
    "docgen.evaluate",
    "docgen.components",
    "docgen.sources",
    "docgen.pipeline",
    "docgen.render",
    "docgen.rows",
    "docgen.lint",
    "docgen.audit",
    "docgen.init",
    "docgen.drift",
)
"""What `docgen --version` and `docgen --help` must not load: the libraries and the pipeline."""

NEVER_FOR_CHECK = (*NEVER_FOR_HELP, "docgen.cli", "argparse", "json", "re", "typing", "dataclasses")
"""What an up-to-date `docgen check` (the fast path) must not load either."""


def modules_loaded(argv: list[str], cwd: Path) -> tuple[int, str, set[str]]:
    """The exit code and output of `docgen ARGV` run in a new process from `cwd`, and the modules it
    loaded (beyond those Python loads at start-up)."""
    code = (
        "import sys, atexit\n"
        "atexit.register(lambda: sys.__stderr__.write('\\nMODULES ' + ' '.join(sorted(sys.modules))))\n"
        f"sys.argv = ['docgen', *{argv!r}]\n"
        "from docgen.__main__ import main\n"
        "main()\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True)
    output, _, line = result.stderr.rpartition("\nMODULES ")
    return result.returncode, result.stdout + output, set(line.split()) - python_start_up()


@functools.cache
def python_start_up() -> frozenset[str]:
    """The modules Python itself has loaded before running anything (`site` and what it imports: an
    editable install's import hook loads `re`, for one), which are no command's doing."""
    code = "import sys; print(' '.join(sys.modules))"
    return frozenset(
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.split()
    )


def loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    """The modules of `names` (or inside those packages) found in `modules`."""
    return sorted(m for m in modules if m in names or m.startswith(tuple(n + "." for n in names)))


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["check", "--help"]])
def test_version_and_help_load_neither_the_libraries_nor_the_pipeline(
    tmp_path: Path, argv: list[str]
) -> None:
    code, output, modules = modules_loaded(argv, tmp_path)
    assert code == 0 and "docgen" in output
    assert "docgen.arguments" in modules  # the command line answered
    assert loaded(modules, NEVER_FOR_HELP) == []


def test_an_up_to_date_check_loads_only_the_fast_path(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "docker", tmp_path / "docker")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    subprocess.run([sys.executable, "-m", "docgen", "sync"], cwd=tmp_path, check=True, capture_output=True)
    code, output, modules = modules_loaded(["check"], tmp_path)
    assert code == 0 and "docker/rocm/README.md is up to date" in output
    assert "docgen.fastcheck" in modules
    assert loaded(modules, NEVER_FOR_CHECK) == []


@pytest.mark.parametrize("value", ["true", "1", "TRUE"])
def test_in_ci_check_is_always_the_full_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    """A pull request can force-add a settings record or write fingerprints into a README's markers:
    what the fast path trusts. In CI (`CI=true`, set by GitHub Actions, GitLab CI and most others) the
    same up-to-date check takes the full path, which renders the blocks anew."""
    shutil.copytree(ROOT / "docker", tmp_path / "docker")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    subprocess.run([sys.executable, "-m", "docgen", "sync"], cwd=tmp_path, check=True, capture_output=True)
    monkeypatch.setenv("CI", value)
    code, output, modules = modules_loaded(["check"], tmp_path)
    assert code == 0 and "docker/rocm/README.md is up to date" in output
    assert "jinja2" in modules and "docgen.pipeline" in modules  # the blocks were rendered anew


@pytest.mark.parametrize(
    ("argv", "unused"),
    [
        (["show"], ("docgen.audit", "docgen.init", "docgen.drift")),
        (["sync"], ("docgen.audit", "docgen.init", "docgen.drift")),
        (["lint"], ("docgen.audit", "docgen.init", "docgen.drift")),
        (["check"], ("docgen.audit", "docgen.init")),  # the full check: no record in the cache yet
    ],
)
def test_a_command_loads_no_other_commands_code(
    tmp_path: Path, argv: list[str], unused: tuple[str, ...]
) -> None:
    shutil.copytree(ROOT / "docker", tmp_path / "docker")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    code, output, modules = modules_loaded(argv, tmp_path)
    assert code in (0, 1), output
    assert "docgen.analysis" in modules  # the command ran
    assert loaded(modules, unused) == []


NEVER_WITHOUT_RENDERING = ("jinja2", "markupsafe", "docgen.render")
"""What a command that renders no block must not load: the template engine (`docgen.rows` gives the
rows without it)."""


@pytest.mark.parametrize(
    "argv",
    [
        ["show", "docker/rocm/Dockerfile.rocm"],
        ["show", "--format", "json", "--verbose", "docker/rocm/Dockerfile.rocm"],
        ["lint", "docker/rocm/Dockerfile.rocm"],
    ],
)
def test_a_command_that_renders_nothing_loads_no_jinja2(tmp_path: Path, argv: list[str]) -> None:
    shutil.copytree(ROOT / "docker", tmp_path / "docker")
    code, output, modules = modules_loaded(argv, tmp_path)
    assert code in (0, 1), output
    assert "Dockerfile.rocm" in output or "stages" in output  # the command ran on the file
    assert "docgen.analysis" in modules
    assert loaded(modules, NEVER_WITHOUT_RENDERING) == []


def test_the_console_script_parses_the_command_line_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The front door parses it (to answer help and usage errors alone) and hands it to the CLI,
    which does not build the parser again (a few milliseconds of `docgen show`)."""
    import docgen.__main__
    from docgen import arguments

    built = []
    real = arguments.parser

    def counted() -> object:
        built.append(1)
        return real()

    shutil.copytree(ROOT / "docker", tmp_path / "docker")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(arguments, "parser", counted)
    monkeypatch.setattr(sys, "argv", ["docgen", "show", "docker/rocm/Dockerfile.rocm"])
    with pytest.raises(SystemExit) as exit_code:
        docgen.__main__.main()
    assert exit_code.value.code == 0
    assert "components:" in capsys.readouterr().out
    assert len(built) == 1


def test_sync_loads_jinja2_to_render(tmp_path: Path) -> None:
    """The counterpart: rendering a block does load the template engine (the test above can fail)."""
    shutil.copytree(ROOT / "docker", tmp_path / "docker")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    code, output, modules = modules_loaded(["sync"], tmp_path)
    assert code == 0, output
    assert {"jinja2", "docgen.render"} <= modules


LEAVES = (
    "docgen",
    "docgen.errors",
    "docgen.model",
    "docgen.shell",
    "docgen.patterns",
    "docgen.files",
    "docgen.markers",
    "docgen.markdown",
    "docgen.fingerprint",
    "docgen.findings",
    "docgen.console",
)
"""The modules every stage may import (docs/architecture.md): they import no stage themselves."""

STAGES = (
    ("docgen.dockerfile",),
    ("docgen.evaluate",),
    (
        "docgen.components",
        "docgen.value_lines",
        "docgen.sources",
        "docgen.renovate",
        "docgen.hardcoded",
        "docgen.arg_reads",
        "docgen.manifests",
        "docgen.copied",
        "docgen.stated",
        "docgen.baseimage",
        "docgen.base_contents",
        "docgen.hardware",
        "docgen.installer_options",
        "docgen.lint",
    ),
    ("docgen.rows", "docgen.stages"),
    ("docgen.render", "docgen.site"),
    (
        "docgen.bake",
        "docgen.compose",
        "docgen.helm",
        "docgen.makefile",
        "docgen.build_scripts",
        "docgen.workflows",
        "docgen.script_env",
        "docgen.config",
        "docgen.cache",
        "docgen.analysis",
        "docgen.family",
        "docgen.pipeline",
        "docgen.parallel",
    ),
    ("docgen.fastcheck", "docgen.drift", "docgen.changes"),
    ("docgen.audit", "docgen.init", "docgen.mkdocs_plugin"),
    ("docgen.arguments", "docgen.cli", "docgen.__main__"),
)
"""The pipeline's stages in the order data flows through them (read, evaluate, extract, rows, render,
markers/inject, check/drift), then the commands and the front door: docs/architecture.md."""


AUDIT_LAYERS = (
    (
        "memo",
        "aside",
        "versions",
        "paths",
        "coverage",
        "root_vars",
        "own_repo",
        "fetched_copies",
        "container_blocks",
    ),
    ("version_facts",),
    ("unread_args",),
    ("wording",),
    ("commands",),
    ("plain_bases",),
    ("shallow_checkouts", "early_reads"),
    ("audit_facts",),
    ("auditor",),
    ("cells", "contents", "distro_args"),
    ("missing", "own_image"),
    ("piped_scripts",),
    (
        "references",
        "log_paths",
        "cloned_repos",
        "listed_python",
        "listed_components",
        "arg_entries",
        "arg_lists",
        "targets",
        "settings",
        "names",
        "idle",
        "provides",
        "keyed",
        "bakes",
        "latest",
        "grammar",
        "config_keys",
        "swapped_headings",
        "platforms",
        "architectures",
        "left_over",
        "builder_installs",
        "jetpack_rows",
        "buildkit_features",
    ),
    (
        "continuations",
        "built_names",  # (names.compose_file, grammar.read_compose: the layer above)
        "home_checkouts",
        "described_copies",
        "bind_devices",
        "every_image",
        "python_paths",
        "pinned_installs",
        "content_rows",
        "dependency_rows",
        "stage_count",
        "promised",
        "wheel_names",
        "linked_versions",
        "make_targets",
        "disabled",
        "commented_lines",
        "switches",
        "dropped",
        "prose_scripts",
        "curl_uploads",
        "request_routes",
        "downloaded_copies",
        "fresh_contexts",
        "fixed_defaults",
        "copies",
        "docker_cli",
        "image_tags",
        "conda_python",
        "page_builds",
        "last_words",
        "badged_images",
    ),
    (
        "methods",
        "response_keys",
        "floating_pins",
        "line_refs",
        "compose_claims",
        "tag_args",
        "variant_tags",
        "compose_services",
        "compose_urls",
        "compose_paths",
        "compose_builds",
        "file_lists",
        "lost_folders",
        "sh_scripts",
        "unpublished_ports",
        "case_slips",
        "script_args",
        "removal_order",
        "script_builds",
        "make_args",
        "make_vars",
        "ports",
        "env_defaults",
        "env_blocks",
        "install_dirs",
        "base_claims",
        "gpu_models",
        "drivers",
        "plain_cuda",
        "runtime_bases",
        "cuda_flavours",
        "gpu_compose",
        "devcontainers",
        "shm_sizes",
        "recipe_bases",
        "script_versions",
        "reinstalled_torch",
        "version_lists",
        "restated",
        "commits",
        "preset_env",
        "run_time",
        "excerpts",
        "containers",
        "shell_words",
        "launch_files",
        "server_modules",
        "served_apps",
        "routed_ports",
        "release_vars",
    ),
    (
        "prose",
        "script_usage",
        "command_slips",
        "recipe_cds",
        "make_builds",
        "help_copies",
        "cuda_wheels",
        "mount_claims",
        "held_tools",
        "profile_entries",
        "overrides",
        "port_vars",
        "compose_ports",
        "command_values",
        "loopback_binds",
        "sections",
        "builds",
        "steps",
        "image_paths",
        "placeholders",
        "compose_variables",
        "exported",
        "example_copies",
        "build_flags",
        "ros_variants",
        "codenames",
        "default_bounds",
        "run_args",
        "run_urls",
        "said_values",
        "script_compose",
        "env_slips",
        "unread_env",
    ),
    ("members", "linked_rows", "placement"),
    (
        "tables",
        "edited_configs",
        "clone_folders",
        "clone_walks",
        "clone_builds",
        "broken_runs",
        "exec_vars",
        "stage_programs",
        "mpi_root",
        "mount_targets",
        "mounts",  # (image_paths.read_image: the layer below)
        "entered_compose",
        "entered_files",
        "entered_builds",
        "saved_images",
        "sif_files",
        "script_copies",
        "paragraphs",
        "base_labels",
        "fences",
        "set_aside",
        "setup_files",
        "environments",
        "env_prefixes",
        "owner_images",
        "script_vars",
        "chart_values",
        "work_dirs",
        "env_homes",
        "included_paths",
        "moved_data",
        "unread_files",
        "script_artefacts",
        "unentered_mounts",
        "container_scripts",
        "moved_clones",
        "script_mounts",
        "builder_paths",
        "make_env",
        "arg_kinds",
        "pulled_runs",
        "globbed_scripts",
        "entry_modes",
        "jupyter_tokens",
        "mesh_hosts",
    ),
    (
        "family_defaults",
        "compose_loads",
        "rehomed_mounts",
        "ssh_access",
        "spelled_folders",
        "unbuilt_bases",
        "near_images",
        "unshipped_cmd",
        "ci_claims",
        "ci_args",
        "variant_lists",  # (owner_images.build_texts: the layer above)
        "pinned_claims",
        "unbuilt_link",
        "clone_scripts",
        "clone_misses",
        "unmounted_scripts",
        "start_dirs",
        "node_volumes",
        "applied_images",
        "unset_stops",
        "health_ports",
        "local_bases",
        "cpu_only",
        "user_names",
        "branch_refs",
        "entry_options",
        "shipped_functions",
        "script_names",  # (pulled_runs.named_beside, owner_images.build_files: the layer above)
        "script_images",
        "gpu_scripts",  # (script_mounts.container_runs: the layer above)
    ),
    (
        "imageless_runs",
        "listed_env",
        "main_env",
        "cmd_files",
        "hidden_paths",
        "ignored_places",
        "moved_scripts",
        "published_tags",  # (cpu_only.cpu_builds: the layer above)
    ),
    ("container_args",),
    ("docgen.audit",),
)
"""The modules of `docgen/audit/` in the order they build on each other (docs/architecture.md): the
words and names read, the comparison, then the claim readers, and `audit()` on top."""


def audit_layer(module: str) -> int:
    """The position of a module of `docgen.audit` in `AUDIT_LAYERS`."""
    name = module if module == "docgen.audit" else module.removeprefix("docgen.audit.")
    return next(i for i, layer in enumerate(AUDIT_LAYERS) if name in layer)


def test_the_audit_modules_import_only_the_layers_below() -> None:
    graph = import_graph()
    inside = [m for m in graph if m == "docgen.audit" or m.startswith("docgen.audit.")]
    assert {audit_layer(m) for m in inside} == set(range(len(AUDIT_LAYERS)))
    breaches = [
        f"{module} -> {target}"
        for module in inside
        for target in graph[module]
        if target in inside and audit_layer(target) >= audit_layer(module)
    ]
    assert breaches == []


def stage_of(module: str) -> int:
    """The position of `module` in `STAGES` (a subpackage's module: its package's), -1 for a leaf."""
    if module in LEAVES:
        return -1
    for index, modules in enumerate(STAGES):
        if any(module == m or module.startswith(m + ".") for m in modules):
            return index
    raise KeyError(module)


def upstream_breaches(graph: dict[str, set[str]]) -> list[str]:
    """Every import of `graph` that points downstream: a leaf importing a stage, or a stage importing
    a later one."""
    return sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        for target in targets
        if stage_of(target) > stage_of(module) or (module in LEAVES and target not in LEAVES)
    )


def test_every_module_has_a_stage() -> None:
    unplaced = []
    for module in import_graph():
        try:
            stage_of(module)
        except KeyError:
            unplaced.append(module)
    assert unplaced == [], "add them to STAGES or LEAVES here and to docs/architecture.md"


def test_imports_point_upstream() -> None:
    assert upstream_breaches(import_graph()) == []


def test_an_import_downstream_is_a_breach() -> None:
    graph = {"docgen.rows": {"docgen.render", "docgen.model"}, "docgen.model": {"docgen.evaluate"}}
    assert upstream_breaches(graph) == ["docgen.model -> docgen.evaluate", "docgen.rows -> docgen.render"]


def test_the_architecture_page_lists_every_module() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    modules = [m for m in import_graph() if m.count(".") == 1]  # docgen.sources.*: the `sources/` row
    packages = [m for m in modules if (PACKAGE / m.split(".")[1]).is_dir()]  # and their modules
    shown = {m: f"`{m.split('.')[1]}{'/' if m in packages else '.py'}`" for m in modules}
    shown |= {m: f"`audit/{m.split('.')[2]}.py`" for m in import_graph() if m.startswith("docgen.audit.")}
    missing = [m for m in shown if shown[m] not in page]
    assert missing == []
