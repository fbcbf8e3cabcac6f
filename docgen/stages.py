"""A Dockerfile's stages as the documents show them: which of them the target builds
(`built_stages`), and the stage diagram, a Mermaid flowchart (the `stages` section).

Each stage is a box; the image a stage starts from is a rounded box with an arrow to it; a stage built
`FROM` another stage gets a thick arrow from it (`==>`), and a stage that takes files from an earlier
one (`COPY --from=…`, `RUN --mount=…,from=…`) a dotted arrow labelled "files". The default target (the
last stage) is drawn bold. GitHub and MkDocs Material both draw a ```` ```mermaid ```` fence. No line
holds `-->` (Mermaid's plain arrow), which would end an HTML comment: generated blocks never do.
"""

from __future__ import annotations

from docgen.model import ImageModel

_MERMAID_ENTITIES = {'"': "#quot;", "<": "#lt;", ">": "#gt;", "&": "#amp;", "`": "#96;", "|": "#124;"}
_MERMAID_TABLE = str.maketrans(_MERMAID_ENTITIES)


def label(text: str) -> str:
    """`text` as a quoted Mermaid label: characters Mermaid or Markdown would read written as
    Mermaid's entity codes (`#quot;`), newlines as spaces."""
    return '"' + " ".join(text.split()).translate(_MERMAID_TABLE) + '"'


def mermaid(model: ImageModel) -> str:
    """The flowchart of `model`'s stages, as Mermaid source ('' for a Dockerfile without stages)."""
    if not model.stages:
        return ""
    lines = ["flowchart TD"]
    images: dict[str, str] = {}
    for stage in model.stages:
        node = f"s{stage.index}"
        lines.append(f"  {node}[{label(stage.label)}]")
        if stage.parent is None:
            image = images.get(stage.base)
            if image is None:
                image = images[stage.base] = f"i{len(images)}"
                lines.append(f"  {image}([{label(stage.base or 'scratch')}])")
            lines.append(f"  {image} ==> {node}")
        else:
            lines.append(f"  s{stage.parent} ==> {node}")
        for dependency in stage.depends_on:
            lines.append(f"  s{dependency} -. files .-> {node}")
    lines.append(f"  style s{model.stages[model.target_index].index} stroke-width:3px")
    return "\n".join(lines)


def built_stages(model: ImageModel) -> set[str]:
    """Labels of the stages the default target needs: its chain of parents and every stage it (or one
    of them) copies or mounts from, transitively. A stage outside this set is not built by default
    (`FROM fetch_${REMOTE}` picks one of two; a test stage nothing uses)."""
    target = model.target
    todo = [target.index] if target is not None else []
    seen: set[int] = set()
    while todo:
        index = todo.pop()
        if index in seen:
            continue
        seen.add(index)
        stage = model.stages[index]
        todo.extend(stage.depends_on)
        if stage.parent is not None:
            todo.append(stage.parent)
    return {model.stages[i].label for i in seen}
