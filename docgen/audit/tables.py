"""Claims read from tables: a build-argument table's names and defaults, and the build args it leaves
out (unless it says it shows some of them: `### Useful build arguments`); a version table's rows; a
table with a column per component; the text of any other table.
"""

from __future__ import annotations

from collections.abc import Iterator

from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, some
from docgen.audit.cells import (
    REQUIRED_CELL,
    arg_names_in_cell,
    default_column,
    default_in_cell,
    is_build_arg_table,
    is_variable_table,
    name_in_cell,
    plain_cell,
    url_description,
    version_columns,
    version_in_cell,
)
from docgen.audit.coverage import family_pattern
from docgen.audit.keyed import row_folders
from docgen.audit.linked_rows import named_rows
from docgen.audit.prose import audit_text, passed_image
from docgen.audit.references import set_for_scripts
from docgen.audit.wording import (
    ARG_NAME,
    BUILD_ARG_FLAG,
    IMAGE_REF,
    LISTS_ALL,
    UPPER_WORD,
    about_build_args,
    about_project_setup,
    chosen_args,
    owes_every_arg,
)
from docgen.markdown import Document, Table, code_spans, headings_over, lists
from docgen.model import Diagnostic


def audit_tables(
    doc: Document,
    auditor: Auditor,
    shared: bool = False,
    elsewhere: frozenset[str] = frozenset(),
    whole: Document | None = None,
    scripted: frozenset[str] | None = None,
) -> Iterator[Diagnostic]:
    """Build-argument tables (names, defaults, rows missing), version tables, and the text of others.
    `shared`: the tables are introduced as about all of `auditor`'s images (`Dockerfile` and
    `Dockerfile.standalone` support …): a default must be each one's, and no row is missing.
    `elsewhere`: build args the README documents outside its tables (`documented_outside_tables`),
    never missing from them. `whole`: the README `doc` is a part of, whose headings hold the part's.
    `scripted`: `set_for_scripts` of `whole`, which `audit` reads once for all its parts (read here when
    not given)."""
    documented: set[str] = set()
    first_table: int | None = None
    owing = CERTAIN  # how sure the first table's omissions are (`wording.owes_every_arg`)
    said_all = False  # whether the sentence introducing it says it holds them all
    if scripted is None:
        scripted = set_for_scripts(whole or doc)
    for table in doc.tables:
        titles = headings_over(whole or doc, table.line)
        over = " ".join(titles)
        column = is_build_arg_table(table, auditor.declared, auditor.passed, over)
        # A table that is one only by the names a compose (or bake) file passes (`| Environment Variable
        # Name |`) lists what that file reads from the environment: its other names (`REGISTRY` for
        # `image: ${REGISTRY}/app`) are the file's variables (unless one is a slip away from a declared
        # build arg: `INC_VERSION` for `ARG INC_VER`), and an ARG it cannot set is not missing. So does a
        # table of the variables the README sets in front of the script that builds (`_script_table`).
        loose = column is not None and (
            is_build_arg_table(table, auditor.declared, over=over) is None
            or _script_table(table, column, scripted, auditor)
        )
        if column is None and (variables := is_variable_table(table, auditor.declared)) is not None:
            # So does a table of variables most of whose names are declared build args, with no build
            # file passing them: its names are checked; its values are read as any table's are.
            rows = _loose_rows(table, variables, auditor)
            yield from _audit_build_arg_rows(table, rows, auditor, loose=True, defaults=False)
        versions = version_columns(table)
        if column is not None and versions is not None and column != 0:
            # `| Component | Version | Build arg |`: a version table that names the arg setting each.
            for line, cells in table.rows:
                for name in arg_names_in_cell(cells[column]) if column < len(cells) else []:
                    if UPPER_WORD.match(name):
                        yield from some(auditor.arg_claim(line, name, CERTAIN))
            column = None
        if column is None:
            rows = []
        else:
            rows = _loose_rows(table, column, auditor) if loose else _rows(table, column, auditor)
        if column is not None and rows:
            # (A table of a program's command-line arguments names no build arg: it is not one.)
            # (A table most of whose names another image below the README declares is that image's.)
            if (
                not loose
                and not auditor.of_another_image([n for _, _, names in rows for n in names])
                and not _chosen_rows(table, titles)
            ):
                if first_table is None:
                    first_table = table.line
                    heading, intro = _heading_and_intro(table, titles)
                    owing = CERTAIN if owes_every_arg(heading, intro) else LIKELY
                    said_all = bool(LISTS_ALL.search(intro))
            documented.update(name for _, _, names in rows for name in names)
            documented.update(_family_rows(table, column))
            yield from _audit_build_arg_rows(table, rows, auditor, shared, loose)
        elif own := _row_images(table, auditor):
            yield from _audit_image_rows(table, own)
        elif versions is not None:
            name_col, version_col = versions
            judge = auditor.without_defaults if about_project_setup(table.context) else auditor
            for line, cells in table.rows:
                if max(versions) < len(cells):
                    name, version = name_in_cell(cells[name_col]), version_in_cell(cells[version_col])
                    if name and version:
                        yield from some(judge.version_claim(line, name, "==", version, CERTAIN))
                    elif version is None:  # in words: `Inherited from the CANN 9.0.0 base image`
                        yield from audit_text(line, cells[version_col], judge, prose=True)
        else:
            judge = auditor.without_defaults if about_project_setup(table.context) else auditor
            yield from _audit_other_table(table, judge)
    # (Of a family's table, docgen cannot tell which image's args it must list.)
    if first_table is not None and not shared:
        yield from auditor.missing_args(
            first_table,
            documented | elsewhere,
            "build-argument table",
            owing,
            stamps=False,
            said_all=said_all,
        )


def _chosen_rows(table: Table, titles: list[str]) -> bool:
    """True when `table`'s heading or the sentence introducing it says it shows some of the build args
    (`wording.chosen_args`: `### Useful build arguments`, `Key build arguments:`): its rows are checked,
    but it owes no row to an arg it leaves out."""
    return chosen_args(*_heading_and_intro(table, titles))


def _heading_and_intro(table: Table, titles: list[str]) -> tuple[str, str]:
    """The heading over `table` (its nearest) and the text introducing it below that heading."""
    heading = titles[0] if titles else ""
    intro = table.context[len(heading) :] if table.context.startswith(heading) else table.context
    return heading, intro.strip()


def _script_table(table: Table, column: int, scripted: frozenset[str], auditor: Auditor) -> bool:
    """True when the names of a build-argument table's `column` are the variables of the script the
    README builds with (`DEPLOY_MODE=chat TAG=trt-x bash docker/build.sh` over `## Build Variables`): at
    least two of them are set in front of a script (`scripted`), and one of those is no build arg of the
    Dockerfile nor a slip away from one (`DOCKER_USERNAME`, `TAG`: the script's own). The script decides
    which it passes to `docker build`: a row no ARG declares is its variable, an ARG it leaves out is
    not missing."""
    names = {plain_cell(cells[column]).strip("*_` ") for _, cells in table.rows if column < len(cells)}
    given = names & scripted
    own = [n for n in given if n not in auditor.declared and not auditor.near_args(n)]
    return len(given) >= 2 and bool(own)


_Row = tuple[int, list[str], list[str]]
"""A row of a build-argument table: its line, its cells, the build args it names."""


def _rows(table: Table, column: int, auditor: Auditor) -> list[_Row]:
    """The rows of a build-argument table whose name cell (`column`) names build args."""
    return [
        (line, cells, names)
        for line, cells in table.rows
        if column < len(cells)
        for names in [_row_names(cells[column], auditor, False)]
        if names and all(n in auditor.declared or UPPER_WORD.match(n) or auditor.near_args(n) for n in names)
    ]


def _family_rows(table: Table, column: int) -> list[str]:
    """The family names of a build-argument table's name column (`SPACKPACKAGES_*`, `*_VERSION`,
    `FOO_{A,B}`): a row that documents every build arg it matches (`coverage.covered`)."""
    found = []
    for _, cells in table.rows:
        name = cells[column].replace("`", "").strip() if column < len(cells) else ""
        name = name.removeprefix("**").removesuffix("**").strip()
        if family_pattern(name) is not None:
            found.append(name)
    return found


def _loose_rows(table: Table, column: int, auditor: Auditor) -> list[_Row]:
    """The rows of a table of variables (`| Environment Variable Name |`) naming build args
    (`_read_in_loose_table`), a name in words too (`MKL Version` for `ARG MKL_VER`)."""
    return [
        (line, cells, names)
        for line, cells in table.rows
        if column < len(cells)
        for names in [_row_names(cells[column], auditor, True)]
        if names and all(_read_in_loose_table(n, auditor) for n in names)
    ]


def _row_names(cell: str, auditor: Auditor, loose: bool) -> list[str]:
    """The build args a name cell names (`arg_names_in_cell`, `_declared_in_cell`), and in a table of
    variables (`loose`) a name in words a slip away from a declared one (`MKL Version` for `MKL_VER`)."""
    names = arg_names_in_cell(cell) or _declared_in_cell(cell, auditor)
    if not names and loose:
        name = plain_cell(cell).strip("*_` ")
        names = [name] if auditor.near_args(name) else []
    return names


def _read_in_loose_table(name: str, auditor: Auditor) -> bool:
    """True when a name of a table of variables (`| Environment Variable Name |`) is read as a build
    arg: declared, a slip away from one (`INC_VERSION` for `ARG INC_VER`), or passed by a build file
    that no image declares it for (its default is compared with the value the file passes)."""
    return name in auditor.declared or bool(auditor.near_args(name)) or name in auditor.passed_undeclared


def _declared_in_cell(cell: str, auditor: Auditor) -> list[str]:
    """The build arg a name cell names in plain words when no rule of `arg_names_in_cell` reads it: a
    declared ARG however short (`| OS | ubuntu22.04 |` for `ARG OS`)."""
    name = plain_cell(cell).strip("*_ ")
    return [name] if name in auditor.declared else []


def documented_outside_tables(doc: Document) -> frozenset[str]:
    """Build args the README documents outside its tables: after `--build-arg` (in prose, inline code or
    a command block), and in code in a paragraph or a list about build args (`` - `PYPI_INDEX_URL`: … ``
    under `Build arguments:`). A table that leaves them out does not hide them from its reader."""
    found: set[str] = set()
    # The heading and the paragraph before are asked apart: the heading's answer is cached, and each
    # paragraph joined to its heading read (and held) the heading once a paragraph.
    texts = [((p.heading, p.before), [t for _, t in p.lines]) for p in doc.paragraphs]
    texts += [(("", ""), [t for _, t in f.lines]) for f in doc.fences]
    for intro, lines in texts:
        joined = " ".join(lines)
        found.update(m.group(1) for m in BUILD_ARG_FLAG.finditer(joined))
        if any(about_build_args(text) for text in (*intro, joined)):
            for _, _, content in code_spans(joined, html_code=True):
                name = content.strip().split("=", 1)[0].strip()
                if ARG_NAME.match(name):
                    found.add(name)
    for block in lists(doc):  # a list about build args whose items blank lines set apart
        if about_build_args(block.intro or block.heading):
            for _, text in block.items:
                spans = code_spans(text, html_code=True)
                name = spans[0][2].strip().split("=", 1)[0].strip() if spans else ""
                if ARG_NAME.match(name):
                    found.add(name)
    return frozenset(found)


def _audit_other_table(table: Table, auditor: Auditor) -> Iterator[Diagnostic]:
    """A table whose header names components (`| Container | PyTorch | NCCL |`, a release per row) is
    checked column by column: a column is stale when none of its rows agrees with the Dockerfile (the
    newest row comes first); in a build matrix, not with a build arg's default. A table none of whose
    cells agrees is not about this image (benchmark
    numbers, a compatibility matrix): it is read as text, like any other table."""
    names = [name_in_cell(cell) for cell in table.header]
    columns: dict[int, list[tuple[int, str, bool | None]]] = {}
    for line, cells in table.rows:  # row by row, each cell once (a wide header over short rows)
        for index, cell in enumerate(cells[: len(names)]):
            version = version_in_cell(cell) if names[index] else None
            if version:
                verdict = auditor.verdict(names[index], "==", version)[0]
                columns.setdefault(index, []).append((line, version, verdict))
    columns = dict(sorted(columns.items()))  # in the header's order
    if any(agrees for column in columns.values() for _, _, agrees in column):
        # A build matrix (no column tells the rows apart: `| PyTorch | CUDA | Python | Tag |` with PyTorch
        # 2.3.0 for Python 3.11 and 3.10): each row is an image built with its own --build-arg values, so
        # a column is not compared with an ARG's default, only with a version the Dockerfile hard-codes.
        matrix = len(table.rows) >= 3 and all(len({v for _, v, _ in c}) < len(c) for c in columns.values())
        arg_lines = {(m.path, d.line) for m in auditor.models for d in m.args}
        for index, column in columns.items():
            stale = [(line, version) for line, version, agrees in column if agrees is False]
            if stale and not any(agrees for _, _, agrees in column):
                fact = auditor.verdict(names[index], "==", stale[0][1])[1]
                if matrix and fact is not None and (fact.path, fact.line) in arg_lines:
                    continue
                yield from some(auditor.version_claim(stale[0][0], names[index], "==", stale[0][1], LIKELY))
        return
    own = named_rows(table, auditor)  # a row naming one Dockerfile of the family is about it alone
    for line, cells in table.rows:
        judge = own.get(line, auditor)
        if judge is None:
            continue  # a row about a Dockerfile none of the audited is: another image's
        variable = UPPER_WORD.fullmatch(plain_cell(cells[0]).strip("*_` ")) if cells else None
        for cell in cells:
            reference = IMAGE_REF.fullmatch(plain_cell(cell).strip("*_` "))
            if variable and reference and passed_image(variable.group(), reference.group(1), judge):
                continue  # `| CANN_IMAGE | quay.io/ascend/cann:…-py3.11 |`: another image, passed to a script
            yield from audit_text(line, cell, judge, prose=True)


def _audit_build_arg_rows(
    table: Table,
    rows: list[_Row],
    auditor: Auditor,
    shared: bool = False,
    loose: bool = False,
    defaults: bool = True,
) -> Iterator[Diagnostic]:
    """Names the Dockerfile does not declare, and defaults that differ from the effective default. A
    row naming several args (`VLLM_TAG` / `AITER_TAG`) has each name checked, its default none. A
    default in words is no value, but a version in it is a claim (`A2 Ubuntu CANN 9.0.0 image`).
    A value for a build arg no instruction reads while a RUN reads a name a slip away from it has no
    effect (`unused_claim`); one for a name a build file passes but no image declares is compared with
    the file's (`passed_claim`). `loose`: a table of variables (`| Environment Variable Name |`), whose
    names no ARG declares are variables unless a slip away from one, and whose defaults may be a build
    file's: none is compared with an ARG without a value, and (`defaults` False, no build file passes
    them) none at all."""
    header = [plain_cell(h).strip("*_` ").lower() for h in table.header]
    default_col = default_column(header, table.context)
    for line, cells, names in rows:
        judge = auditor.scoped(" ".join(cells))  # `(ROCm only)`: that image's row
        if judge is None:
            continue
        named = [n for n in names if not loose or n in judge.declared or judge.near_args(n)]
        problems = [p for p in (judge.arg_claim(line, name, CERTAIN) for name in named) if p]
        yield from problems
        given = (
            default_in_cell(cells[default_col])
            if default_col is not None and default_col < len(cells)
            else None
        )
        if len(names) == 1 and given:
            yield from some(judge.passed_claim(line, names[0], given, CERTAIN))
            yield from some(judge.unused_claim(line, names[0], given, CERTAIN))
        if problems or not defaults or (loose and any(n not in judge.declared for n in names)):
            continue
        if loose and not all(judge.valued(name) for name in names):
            continue  # `| PYTHON_VERSION | 3.10 |` for a bare `ARG PYTHON_VERSION`: the build file's default
        if default_col is None:  # a header docgen cannot read: what its cells say in words
            for cell in cells:
                if arg_names_in_cell(cell) != names:
                    yield from audit_text(line, cell, judge, prose=True)
            continue
        if default_col >= len(cells):
            continue
        if len(names) == 1 and REQUIRED_CELL.fullmatch(plain_cell(cells[default_col]).strip("*_ ").lower()):
            yield from some(auditor.default_claim(line, names[0], "", CERTAIN, required=True))
            continue
        default = default_in_cell(cells[default_col])
        described = _url_cell(line, names[0], cells[default_col], judge) if len(names) == 1 else None
        if described is not None:
            yield from described
            continue
        if default is None:
            yield from audit_text(line, cells[default_col], judge, prose=True)
        elif len(names) == 1:
            claims = (each.default_claim(line, names[0], default, CERTAIN) for each in judge.each)
            claim = next(filter(None, claims), None) if shared else None
            yield from some(claim or judge.default_claim(line, names[0], default, CERTAIN))


def _url_cell(line: int, name: str, cell: str, judge: Auditor) -> list[Diagnostic] | None:
    """`[]` when the default `cell` of build arg `name` describes its URL default by its file name and
    owner (`` froggeric's `chat_template.jinja` ``, `cells.url_description`): it agrees; `[finding]`
    (`likely`) when its owner words name no part of that URL; None when the cell is no description of
    a URL default (compared as written)."""
    decls = [d for m in judge.declared_as for d in m.args if d.name == name and not d.unknown]
    verdicts = [(url_description(cell, d.effective_default or d.default or ""), d) for d in decls]
    if not verdicts or any(v is None for v, _ in verdicts):
        return None
    if any(v for v, _ in verdicts):
        return []
    decl = verdicts[0][1]
    model = next(m for m in judge.declared_as if decl in m.args)
    said = plain_cell(cell).strip("*_ ").replace("`", "")
    message = f"README says {name} defaults to {said} but {model.path}:{decl.line} says {decl.default}"
    return [Diagnostic(judge.path, line, message, confidence=LIKELY)]


def _audit_image_rows(table: Table, own: dict[int, Auditor]) -> Iterator[Diagnostic]:
    """A table whose rows are images by their own names (`| cu128-py312 * | 12.8.1 | 2.10.0 | - |`, a
    bake target's): each version cell compared with the image of its row alone (`CERTAIN`), and a dash
    in a column other rows give versions in (not installed) with what that image pins (`LIKELY`)."""
    names = [name_in_cell(cell) for cell in table.header]
    listed = {  # the columns some row gives a version in: a dash there says "not installed"
        index
        for _, cells in table.rows
        for index, cell in enumerate(cells[1 : len(names)], start=1)
        if names[index] and version_in_cell(cell)
    }
    for line, cells in table.rows:
        judge = own.get(line)
        for index, cell in enumerate(cells[1 : len(names)], start=1):
            name = names[index]
            if judge is None or not name:
                continue
            version = version_in_cell(cell)
            if version:
                yield from some(judge.version_claim(line, name, "==", version, CERTAIN))
            elif index in listed and plain_cell(cell).strip("*_ ") in _NONE_CELLS:
                yield from some(judge.absent_claim(line, name, judge.models[0].image_name))


_NONE_CELLS = frozenset({"-", "–", "—", "none", "None", "n/a", "N/A", "✗", "❌"})
"""A cell of a version column saying the image has no version of the component: it is not installed."""


def _row_images(table: Table, auditor: Auditor) -> dict[int, Auditor]:
    """The rows (their lines) whose first cell names one of `auditor`'s images by its own name (a bake
    target's, `cu128-py312 *` with the mark of the default) → the auditor of that image alone."""
    named = {m.image_name.lower(): m for m in auditor.models if m.image_name}
    rows: dict[int, Auditor] = {}
    for line, cells in table.rows if named else ():
        model = named.get(plain_cell(cells[0]).strip("*`_ \t").lower()) if cells else None
        if model is not None:
            rows[line] = auditor._with((model,))
    return rows or row_folders(table, auditor)
