"""What the docgen MkDocs plugin adds to a build of this site.

Three builds of the pages of `mkdocs.yml`, in one process, interleaved so that all see the same machine
state, after one warm-up build of each:

- **with docgen**: the site as configured; the plugin fills the blocks while building;
- **plain, same pages**: the plugin switched off (MkDocs' `enabled: false`) and docs_dir replaced by a
  copy whose blocks were filled beforehand by the same pipeline, so MkDocs renders exactly the same
  Markdown — the difference is the plugin's own cost;
- **plain, empty blocks**: the plugin switched off on the pages as they are in the repository (their
  blocks empty), so the difference also includes rendering the generated tables.

Prints the median of each and the ratios; the budget is 1.10 for "with docgen / plain, same pages"
(the plugin adds at most 10 %). Exits 1 when that ratio is over budget.

    python benchmarks/bench_mkdocs.py [--repeat N] [--config mkdocs.yml]
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.utils.yaml import yaml_load

from docgen.config import find_pyproject
from docgen.config import load_config as load_docgen_config
from docgen.pipeline import build_model, fill, render_options

ROOT = Path(__file__).resolve().parent.parent
BUDGET = 1.10


def plugins_with_docgen(config_file: Path, enabled: bool) -> list[Any]:
    """The `plugins` list of `config_file`, with docgen's `enabled` option set."""
    with open(config_file, encoding="utf-8") as handle:
        raw = yaml_load(handle).get("plugins", [])
    entries = (
        raw.items()
        if isinstance(raw, dict)
        else [(p, {}) if isinstance(p, str) else next(iter(p.items())) for p in raw]
    )
    plugins: list[Any] = []
    found = False
    for name, options in entries:
        if name == "docgen":
            found = True
            options = {**(options or {}), "enabled": enabled}
        plugins.append({name: options or {}})
    if not found:
        raise SystemExit(f"{config_file}: the docgen plugin is not enabled")
    return plugins


def prefilled_docs(config_file: Path, target: Path) -> Path:
    """A copy of the site's docs_dir with every configured page's blocks filled (no line links)."""
    mkdocs_config = load_config(str(config_file))
    shutil.copytree(mkdocs_config.docs_dir, target)
    site_root = config_file.resolve().parent
    docgen = load_docgen_config(find_pyproject(site_root), cwd=site_root)
    for image in docgen.images:
        model = build_model(image.dockerfile, image.display)
        for page in image.pages:
            path = target / page
            path.write_text(
                fill(path.read_text(encoding="utf-8"), page, model, render_options(image, docgen, None))
            )
    return target


def build_once(config_file: Path, site_dir: str, enabled: bool, docs_dir: Path | None = None) -> float:
    overrides: dict[str, Any] = {"site_dir": site_dir, "plugins": plugins_with_docgen(config_file, enabled)}
    if docs_dir is not None:
        overrides["docs_dir"] = str(docs_dir)
    config = load_config(str(config_file), **overrides)
    start = time.perf_counter()
    build(config)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=7, help="builds of each kind (default: 7)")
    parser.add_argument(
        "--config", type=Path, default=ROOT / "mkdocs.yml", help="mkdocs.yml (default: the repo's)"
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    logging.getLogger("mkdocs").setLevel(logging.WARNING)
    kinds = {
        "with docgen": (True, None),
        "plain, same pages": (False, "prefilled"),
        "plain, empty blocks": (False, None),
    }
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    with tempfile.TemporaryDirectory(prefix="docgen-bench-") as tmp:
        prefilled = prefilled_docs(args.config, Path(tmp) / "docs")
        site = str(Path(tmp) / "site")
        for round_ in range(args.repeat + 1):  # round 0 warms up imports, theme and Jinja templates
            for kind, (enabled, docs) in kinds.items():
                elapsed = build_once(args.config, site, enabled, prefilled if docs else None)
                if round_:
                    times[kind].append(elapsed)
    medians = {kind: statistics.median(values) for kind, values in times.items()}
    print(f"site: {args.config}   builds of each kind: {args.repeat}")
    for kind, values in times.items():
        print(f"  {kind:<20} median {medians[kind] * 1000:7.1f} ms   min {min(values) * 1000:7.1f} ms")
    ratio = medians["with docgen"] / medians["plain, same pages"]
    print(f"with docgen / plain, same pages:   {ratio:.3f}  (budget {BUDGET:.2f})")
    print(f"with docgen / plain, empty blocks: {medians['with docgen'] / medians['plain, empty blocks']:.3f}")
    return 0 if ratio <= BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
