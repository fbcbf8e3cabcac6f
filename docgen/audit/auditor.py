"""What the Dockerfiles a part of the README is about say, and how one claim becomes a finding.

`Facts` holds their pins by normalised name; `Auditor` compares a claim (a version, a default, a build
arg's name) with them and words the finding (`README says X but Dockerfile:N says Y`) with its confidence,
`CERTAIN` or `LIKELY`. A scope note of one list item or table row (`(ROCm only)`) narrows the auditor to
the image it names.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from packaging.version import InvalidVersion, Version

from docgen.audit.audit_facts import AuditFacts
from docgen.audit.coverage import (
    composed_args,
    covered,
    internal_args,
    scopeless_args,
    stamped_args,
    unreached_args,
    unread_args,
)
from docgen.audit.own_repo import owner_name, remote_names, repository_root
from docgen.audit.paths import VAGUE_PARTS, tag_names, variant
from docgen.audit.unread_args import base_releases, read_over_base
from docgen.audit.version_facts import (
    built_for,
    default_branches,
    distribution_versions,
    env_versions,
    labels_only,
    may_hold,
    newest_installs,
    overriding_manifest_pins,
    overriding_pins,
)
from docgen.audit.versions import (
    ALIASES,
    RELEASE,
    TAG_VERSION,
    finer_than,
    is_commit,
    name_keys,
    near_args,
    norm,
    one_slip,
    pre_release_apart,
    raw_name,
    release_tuple,
    same_default,
    same_version,
    satisfies,
    shown_default,
    shown_version,
    skeleton,
    strip_v,
    tag_named,
    tag_versions,
)
from docgen.base_contents import jetpack, l4t_cuda
from docgen.baseimage import floating_distributions, floating_releases, split_reference
from docgen.dockerfile import decode_dockerfile, parse_dockerfile, read_dockerfile_bytes
from docgen.errors import DocgenError
from docgen.evaluate import PREDEFINED_ARGS, PROXY_ARGS
from docgen.manifests import manifest_pins
from docgen.model import (
    Component,
    Diagnostic,
    ImageModel,
    ManifestPin,
    ParsedDockerfile,
    StatedVersion,
    short_commit,
)
from docgen.rows import VERSION_ARG as _VERSION_ARG
from docgen.rows import build_arg_rows, renamed, version_rows
from docgen.sources.pip import wheel_python

CERTAIN = "certain"
"""A finding's confidence when the claim is read from a table cell next to a name, a pin (`pkg==1.2`), a
build command or a file reference: it can only mean what docgen read."""
LIKELY = "likely"
"""A finding's confidence when the claim is read from prose, a list item, a heading, a badge or an image
tag: the words around it could make it something else (a host requirement, another image)."""


_FROM_REFERENCE = frozenset({"tag", "name", "release-notes"})
"""Origins of rows read from a base image reference: the build arg that sets the reference is theirs."""
_FROM_TAG = frozenset({"tag", "release-notes"})
"""Origins of rows whose version the base image's tag gives: a later pin of the image replaces it."""


_DOTTED = re.compile(r"\d+(?:\.\d+)+(?:[.+-]?[A-Za-z0-9]+)*")
"""A release as a README writes one (`2.0`, `4.0.0`, `0.7.9`, `1.2.0rc1`): a dot at least. A claim of no
such release (`5-10`, a number of minutes in a table of build steps) is not set against an unpinned fact."""


@dataclass(frozen=True)
class Fact:
    """One version a Dockerfile pins, under the names it is known by."""

    value: str
    shown: str
    line: int
    path: str
    """The Dockerfile, as shown."""
    exact: bool = False
    """A pin that says all of the version (`==2.7.1`, an ARG's default), not one read off an image tag."""
    stated: bool = False
    """Stated in words (a label's description, a comment about the base), not pinned: a claim it
    contradicts is `LIKELY` at most."""
    tag: bool = False
    """Read off a base image's reference (its tag, the release notes of the NGC release it names): a
    later pin of the image built replaces it (`version_facts.overriding_pins`)."""
    unpinned: bool = False
    """A version a build arg only labels the image with while the component is cloned at its default
    branch (`version_facts.labels_only`): no version said agrees with it."""
    laid_out: bool = False
    """A release read off how a vendor lays out its repository (`repo.radeon.com/rocm/apt/5.2/` serves
    5.2.0), not written in the Dockerfile: a claim of another point release of it (`5.2.3`) that it
    contradicts is `LIKELY` at most."""
    default: bool = False
    """What the distribution's default package installs (`python3` on Ubuntu 22.04 is 3.10,
    `version_facts.distribution_versions`): a version said exactly disagrees with it, a minimum or a
    range (what the project supports) is no claim about it."""
    newest: bool = False
    """An install with no version or a floating tag (`conda install pytorch`, `FROM rocm/pytorch:latest`):
    a build takes the newest release of the day, which a minimum said (`>=2.0`, `2.0+`) may well be, and
    no exact release said is sure to be (`_read_newest_installs`, `_read_floating_bases`). Like `default`,
    not compared in text about the project's own installation (`## Requirements`: the reader's setup)."""
    floating: str = ""
    """The repository of a floating base (`nvidia/cuda` of `FROM nvidia/cuda:latest`) that pins no release
    of the distribution (`_read_floating_bases`): a paragraph naming it knows the base floats."""


def clipped(text: str, most: int = 60) -> str:
    """`text` as a finding quotes it: whole up to `most` characters, else its start and `…`."""
    return text if len(text) <= most else text[: most - 3] + "…"


def own_base(model: ImageModel, family: Sequence[ImageModel]) -> ImageModel | None:
    """The Dockerfile of `family` that builds the image `model` is built on: the one its FROM tag names
    (`verlai/verl:base-v2-cu126-…-fi0.2.6` names `Dockerfile.base.fi0.2.6`, `tag_names`), the most
    specific when several are; None when the base is no image of the family."""
    return OwnBases(family)(model)


class OwnBases:
    """`own_base` of any image in one `family`, the family's paths read once and each FROM tag matched
    against them once: asked of every image of a family (a compose file of thousands of services
    building one Dockerfile), one at a time would read the whole family again for each image."""

    def __init__(self, family: Sequence[ImageModel]) -> None:
        self.family = family
        self._paths = tuple(other.path for other in family)
        self._found: dict[tuple[str, str], int | None] = {}

    def __call__(self, model: ImageModel) -> ImageModel | None:
        stage = model.target
        seen = 0
        while stage is not None and stage.parent is not None and seen < len(model.stages):
            stage, seen = model.stages[stage.parent], seen + 1
        reference = stage.base.split("@", 1)[0] if stage is not None else ""
        if ":" not in reference.rsplit("/", 1)[-1]:
            return None  # no tag: `ubuntu`, `image@sha256:…`, a stage
        key = (reference, model.path)
        if key not in self._found:
            self._found[key] = self._named(reference, model.path)
        index = self._found[key]
        return None if index is None else self.family[index]

    def _named(self, reference: str, own: str) -> int | None:
        """The index of the one path of the family the tag of `reference` names best, `own` (the image's
        own Dockerfile) aside; None when none or several do."""
        scores = [
            0 if path == own else score
            for path, score in zip(self._paths, _tag_scores(reference, self._paths), strict=True)
        ]
        best = max(scores, default=0)
        named = [i for i, score in enumerate(scores) if score == best]
        return named[0] if best and len(named) == 1 else None

    def chain(self, models: Sequence[ImageModel]) -> tuple[ImageModel, ...]:
        """`models` and the Dockerfiles of the family they are built on, theirs too, each once."""
        chain: list[ImageModel] = list(models)
        held = {id(model) for model in chain}
        for model in chain:  # grows while read
            base = self(model)
            if base is not None and id(base) not in held:
                chain.append(base)
                held.add(id(base))
        return tuple(chain)


@functools.lru_cache(maxsize=1024)
def _tag_scores(reference: str, paths: tuple[str, ...]) -> tuple[int, ...]:
    """How closely the tag of the image `reference` names each Dockerfile of `paths` (`tag_names`)."""
    tag = reference.rsplit(":", 1)[1]
    return tuple(tag_names(tag, path, norm) for path in paths)


def with_bases(models: Sequence[ImageModel], family: Sequence[ImageModel]) -> tuple[ImageModel, ...]:
    """`models` and the Dockerfiles of `family` they are built on (`own_base`), theirs too, each once."""
    return OwnBases(family).chain(models)


_COMPILER_METAPACKAGES = frozenset({"gcc", "g++", "gfortran", "cpp", "gobjc", "gobjc++", "gccgo", "gdc"})
"""Debian's packages that depend on the distribution's default compiler (`gfortran` on `gfortran-5`)."""
_EPOCH_PIN = re.compile(r"\d+:")


def _metapackage_fact(comp: Component, line: int, path: str) -> Fact | None:
    """The compiler's major version an apt pin of a compiler metapackage with an epoch says
    (`gfortran=4:5.3.1-1ubuntu1`): the package's own version, at best the compiler's major.minor
    (xenial's 4:5.3.1 installs gfortran 5.4.0), compared no finer than the major; None for another pin."""
    if (
        comp.kind != "apt"
        or comp.name.lower() not in _COMPILER_METAPACKAGES
        or not comp.version
        or not _EPOCH_PIN.match(comp.ref or "")
    ):
        return None
    major = comp.version.split(".", 1)[0]
    shown = f"{comp.name}={comp.ref}, a metapackage of the {major}.x compiler"
    return Fact(major, shown, line, path)


def _stated_fact(said: StatedVersion, path: str) -> Fact:
    """The fact of a version the Dockerfile states in words (`docgen.stated`); a label that names the
    version (`com.nvidia.cuda.version`) states it as plainly as a pin."""
    if said.where == "version-label":
        return Fact(said.version, f"{said.version} (LABEL {said.key})", said.line, path)
    where = {"label": "its LABEL description", "stack-comment": "a comment listing the image's stack"}.get(
        said.where, "a comment about the base"
    )
    return Fact(said.version, f"{said.name} {said.version} ({where})", said.line, path, stated=True)


_RADEON_REPO = re.compile(r"https?://repo\.radeon\.com/rocm/apt/(\d+\.\d+)/?\Z")
"""AMD's ROCm apt repository of a release named by its major and minor (`…/rocm/apt/5.2/`): it serves
that minor's first release, 5.2.0; each later point release has its own path (`…/rocm/apt/5.2.3/`)."""


def _radeon_release(comp: Component) -> str | None:
    """The release (`5.2.0`) AMD's ROCm apt repository `comp` serves when its path names only a major
    and minor (`repo.radeon.com/rocm/apt/5.2/`); None for another component."""
    if comp.kind != "apt-repo" or (match := _RADEON_REPO.match(comp.source or "")) is None:
        return None
    return f"{match.group(1)}.0" if match.group(1) == comp.version else None


_SLIP_LETTERS = 7
"""Letters a component's name has at least for a word a slip off it to be read as it (`Tensoflow`,
`Jetpact`: seven, as `jetpack` and `pytorch`; a shorter name has too many words a letter off it)."""
_SLIP_LETTERS_MAX = 40
"""Letters of the longest word read as a slip off a name (a name has fewer)."""


class Facts:
    """The pins of one or more Dockerfiles (the images a part of the README may be about), looked up by
    normalised name. With the `family`, an image built on a Dockerfile of it (`own_base`) has what that
    Dockerfile installs: its FROM tag's versions count only for what neither pins (`…-torch2.7.1` is
    the base Dockerfile's `torch==2.7.1`; `…-cu126` counts, the base's own base giving CUDA)."""

    def __init__(
        self, models: Sequence[ImageModel], names: Mapping[str, str], family: Sequence[ImageModel] = ()
    ) -> None:
        bases = OwnBases(family)
        chains = {id(m): frozenset(b.path for b in bases.chain((m,))) for m in models if bases(m) is not None}
        alone = len(models) == 1  # a family's Python claim may be about an image whose wheels say nothing
        models = bases.chain(models)
        self._deferred: list[tuple[set[str], Fact, frozenset[str]]] = []
        self.by_key: dict[str, list[Fact]] = {}
        self._in_key: dict[str, set[Fact]] = {}  # by_key's facts as sets: 4,000 Dockerfiles pin torch
        self._seen: dict[str, list[Fact]] = {}
        self.images: dict[str, list[Fact]] = {}
        """Each base image's repository → its tags (`rocm/dev-ubuntu-22.04` → `6.4.1-complete`)."""
        self.family_defaults: dict[str, list[Fact]] = {}
        """Of a family (several Dockerfiles), each key → what a Dockerfile of it takes from its
        distribution (`_read_family_distribution`), kept apart from `by_key`: a claim agreeing with one is
        that image's (`Auditor.verdict`), a claim disagreeing may be about another, so no rule reads them
        as what the images pin."""
        self.published: dict[str, list[str]] = {}
        """Each key of a version build arg → the values a CI workflow building its Dockerfile passes it
        (`ImageModel.published_args`): a claim agreeing with one is the published image's, no finding.
        Kept apart from `by_key`: no rule reads them as what the Dockerfile pins."""
        self.arg_defaults = [
            (decl.name, decl.effective_default, decl.line, model.path)
            for model in models
            for decl in model.args
            if not decl.bare and decl.effective_default
        ]
        manifests: dict[int, tuple[ManifestPin, ...]] = {}
        for model in models:
            self._read(model, names, chains.get(id(model)))
            manifests[id(model)] = self._read_manifests(model, names)
            if alone:
                self._read_wheel_python(model, names)
                self._read_named_python(model, names)
        for keys, fact, chain in self._deferred:  # a FROM tag's version of what its base does not pin
            if not any(f.path in chain for key in keys for f in self.by_key.get(key, ())):
                self._add(keys, fact)
        for model in models:  # the last word: a later pin replaces what the base image's tag says
            self._supersede(model, manifests.get(id(model), ()))
        # what the labels and the comments about the base state, for what nothing pins or tags
        stated = [
            (name_keys(said.name, names), _stated_fact(said, model.path))
            for model in models
            for said in model.stated
        ]
        for keys, fact in stated:
            facts = [f for key in keys for f in self.by_key.get(key, ())]
            if not any(f.unpinned for f in facts) and not any(
                self.by_key.get(key) and not self.by_key[key][0].stated for key in keys
            ):
                self._add(keys, fact)  # (a label of a version a build arg only labels with says no more)
        self._read_default_branches(models, names)
        self._read_floating_bases(models, names)
        self._read_newest_installs(models, names)
        for model in models:
            if alone:
                self._read_distribution(model, names)
            else:
                self._read_family_distribution(model, names)
        # The spellings (lower case, `_NON_ALNUM` removed, before `ALIASES`) a name can have for
        # `lookup` to find anything: most words of a README have none, and are passed over at once.
        self.findable = {raw_name(k) for k in renamed(names)} | set(self.by_key)
        self.findable |= {alias for alias, key in ALIASES.items() if key in self.by_key}

    def _read(self, model: ImageModel, names: Mapping[str, str], chain: frozenset[str] | None = None) -> None:
        """`chain`: the image is built on Dockerfiles read too (their paths and its own), whose pins
        outrank what its FROM tag says."""
        path = model.path
        own = model.target.base if chain is not None and model.target is not None else None
        passed = dict(model.build_args)  # the values the build gives (a bake target's args) win
        origins = {arg: (shown, at) for arg, shown, at in model.arg_origins if at is not None}
        # Build args first: when a README is stale, the ARG line is where the version is changed.
        labelled: set[str] = set()  # version args that only label the image (`labels_only`)
        for decl in model.args:
            match = _VERSION_ARG.search(decl.name)
            if not match or (decl.bare and decl.name not in passed) or not decl.effective_default:
                continue
            stem = decl.name[: match.start()] or decl.name
            keys = name_keys(decl.name, names) | name_keys(stem, names)
            if decl.name in names:
                keys |= name_keys(names[decl.name], names)
            default = decl.effective_default
            where, line = origins.get(decl.name, (path, decl.line))
            read = dockerfile_read(model.file) if model.file else None
            label = None
            if read is not None:
                label = labels_only(decl, model, read[1], keys, lambda name: name_keys(name, names))
            if label is not None:
                self._add(keys, Fact(default, label, line, where, exact=True, stated=True, unpinned=True))
                labelled.add(decl.name)
                continue
            self._add(keys, Fact(default, short_commit(default), line, where, exact=True))
            self._publish(keys, decl.name, model)
        # where a version is changed: the ARG that sets it (`ARG BASE_IMAGE=…:6.4`), else its line
        arg_lines: dict[str, int] = {}
        for decl in model.args:
            if not decl.bare and decl.default is not None:
                arg_lines.setdefault(decl.name, decl.line)
        # an ARG line a build file passes a value for: that file's line is where the value is changed
        passed_at: dict[int, tuple[str, int]] = {}
        for decl in model.args:
            if decl.name in origins:
                passed_at[decl.line] = origins[decl.name] if decl.line not in passed_at else (path, decl.line)
        metapackages = {
            (comp.name.lower(), comp.line): fact
            for comp in model.components
            if (fact := _metapackage_fact(comp, comp.cited_line, path)) is not None
        }
        parsed = dockerfile_read(model.file) if model.file else None
        replaced = read_over_base(model, *parsed) if parsed is not None else frozenset()
        for row in version_rows(model, names, None):
            if row.origin in _FROM_TAG and (row.name.lower(), row.line) in replaced:
                continue  # `FROM …:6.3.2-complete`, a RUN downloading `${ROCM_VERSION}` 6.2.1: the arg wins
            if row.arg in labelled and row.source is None:
                continue  # the arg's version, read above as what it is: a label
            if (row.name.lower(), row.line) in metapackages:
                continue  # read below, as the compiler's major version
            if row.source and row.source.endswith(":" + row.version) and not TAG_VERSION.match(row.version):
                continue  # an image's tag that is a name (`base-v2-cu126-…`), not a version
            keys = name_keys(row.name, names) | (name_keys(row.arg, names) if row.arg else set())
            if row.source and row.source.endswith(":" + row.version):
                keys -= tag_named(row.version, names)  # `1.3.1-…-torch260-…`: not torch 1.3.1
            line = (
                arg_lines.get(row.arg, row.line)
                if row.arg and row.origin in _FROM_REFERENCE
                else row.cited_line
            )
            where = path
            if row.arg in origins and row.origin in _FROM_REFERENCE:  # a base a build file passes
                where, line = origins[row.arg]
            elif row.origin is None:
                where, line = passed_at.get(line, (path, line))
            fact = Fact(
                row.version, row.version, line, where, exact=row.origin is None, tag=row.origin in _FROM_TAG
            )
            if row.arg:  # `pip install graphkit==${GRAPH_VERSION}`: graphkit is what CI passes it too
                self._publish(keys, row.arg, model)
            if chain is not None and row.origin in ("tag", "release-notes") and row.source == own:
                self._deferred.append((keys, fact, chain))  # the base Dockerfile's pins first
            else:
                self._add(keys, fact)
        if parsed is not None:
            # `ARG ROCM_VERSION='6.0.2'` nothing reads, on `rocm/dev-…:6.1.1`: the base's ROCm is the image's
            for decl, reading, from_line in base_releases(model, *parsed):
                keys = name_keys(reading.name, names) | name_keys(decl.name, names)
                self._add(
                    keys, Fact(reading.version, f"{reading.version} (its base image's)", from_line, path)
                )
        for comp in model.components:
            value = comp.version or comp.ref
            if not comp.pinned or not value:
                continue
            where, line = passed_at.get(comp.cited_line, (path, comp.cited_line))
            keys = name_keys(comp.name, names)
            if (meta := metapackages.get((comp.name.lower(), comp.line))) is not None:
                self._add(keys, meta)
                continue
            if comp.kind == "image":
                self.images.setdefault(comp.name.lower(), []).append(Fact(value, value, line, where))
                if not _installed_over(model, comp):
                    keys |= name_keys(comp.name.rsplit("/", 1)[-1], names)
                if (release := jetpack(f"{comp.name}:{value}")) is not None:  # `l4t-cuda:11.4.19`: JetPack 5
                    shown = f"{release} ({comp.name}:{value} is of JetPack {release})"
                    self._add(name_keys("JetPack", names), Fact(release, shown, line, where, tag=True))
                if (cuda := l4t_cuda(f"{comp.name}:{value}")) is not None:  # `l4t-base:r32.6.1`: CUDA 10.2
                    of = jetpack(f"{comp.name}:{value}")
                    shown = f"{cuda} ({comp.name}:{value} is of JetPack {of}, which has CUDA {cuda})"
                    if of is None:  # `dustynv/python:r35.2.1`: its family is not read as a Jetson one
                        shown = f"{cuda} ({comp.name}:{value} is of an L4T release with CUDA {cuda})"
                    self._add(name_keys("CUDA", names), Fact(cuda, shown, line, where, stated=True, tag=True))
                for name, version in tag_versions(value):
                    fact = Fact(version, version, line, where, tag=True)
                    if chain is not None and f"{comp.name}:{value}" == own:
                        self._deferred.append((name_keys(name, names), fact, chain))
                    else:
                        self._add(name_keys(name, names), fact)
                if not TAG_VERSION.match(value):
                    continue  # `verlai/verl:base-v2-cu126-…` is a name, not verl 2
                keys -= tag_named(value, names)
            elif comp.kind in ("pip", "wheel"):
                # `flashinfer-python` is FlashInfer, `pytorch-triton-rocm` is Triton.
                keys |= {k.removesuffix("python") for k in keys if len(k) > len("python") + 3}
            shown = shown_version(comp.version, comp.display_version)
            if (release := _radeon_release(comp)) is not None:
                shown = f"{release} (the ROCm apt repository {comp.source} serves {release})"
                self._add(keys, Fact(release, shown, line, where, exact=True, laid_out=True))
                continue
            self._add(keys, Fact(value, shown, line, where, exact=True, tag=comp.kind == "image"))
        self._read_stated_versions(model, names)

    def _publish(self, keys: set[str], arg: str, model: ImageModel) -> None:
        """The values CI workflows building `model` pass its build arg `arg`, under `keys` (`published`)."""
        for name, value in model.published_args:
            if name == arg and value:
                for key in keys:
                    held = self.published.setdefault(key, [])
                    if value not in held:
                        held.append(value)

    def _read_default_branches(self, models: Sequence[ImageModel], names: Mapping[str, str]) -> None:
        """A repository cloned and built at its default branch (`version_facts.default_branches`) that
        nothing else of the images installs, pins or states: no version said agrees with it. A clone of
        the checkout's own repository (a remote of it) is left alone: its README's release number is
        the project's own, the one the default branch is being made into."""
        keyed = [
            (name_keys(comp.name, names), comp, model.path)
            for model in models
            if model.file and (read := dockerfile_read(model.file)) is not None
            for comp in default_branches(model, read[0])
            if owner_name(comp.source or "") not in remotes(model.file)
        ]
        if not keyed:
            return
        others = {
            key
            for model in models
            for comp in model.components
            if not any(comp is c for _, c, _ in keyed)
            for key in name_keys(comp.name, names)
        }
        for keys, comp, path in keyed:
            if keys & others or any(self.by_key.get(key) for key in keys):
                continue
            shown = f"a clone of {comp.source} with no ref (its default branch, no release)"
            self._add(keys, Fact("", shown, comp.line, path, stated=True, unpinned=True))

    def _read_stated_versions(self, model: ImageModel, names: Mapping[str, str]) -> None:
        """The versions the image built states without pinning them (`version_facts`): an ENV naming
        one (`ENV CUDA_VERSION=12.4.1`), the CUDA or ROCm release a package is built for
        (`torch==2.5.1+cu124`, `--index-url …/whl/cu121`, `cuda-toolkit-12-4`)."""
        for name, env, version, line in env_versions(model):
            self._add(name_keys(name, names), Fact(version, f"{version} (ENV {env})", line, model.path))
        for comp in model.components:
            target = built_for(comp)
            if target is None:
                continue
            line = comp.cited_line
            what = comp.name
            if comp.kind == "apt" and comp.ref:
                what = f"{comp.name}={comp.ref}"
            elif comp.version and "+" in comp.version:
                what = f"{comp.name}=={comp.version}"
            elif comp.source:
                what = f"{comp.name} from {comp.source}"
            self._add(name_keys(target[0], names), Fact(target[1], f"{target[1]} ({what})", line, model.path))

    def _supersede(self, model: ImageModel, manifests: Sequence[ManifestPin] = ()) -> None:
        """Drops the versions the base image's tag gives of what a later RUN of the image built pins
        (`version_facts.overriding_pins`), on its command line or in a requirements file it installs
        (`manifests`, `version_facts.overriding_manifest_pins`): `pip install torch==2.5.1` on
        `…_pytorch_release_2.3.0`, or `pip install -r requirements.txt` holding `torch==1.10.1` on
        `pytorch/pytorch:1.10.0-…`, leaves the pinned release in the image, not the tag's."""
        later = [(comp.name, comp.line) for comp in overriding_pins(model)]
        later += [(pin.name, pin.installed) for pin in overriding_manifest_pins(model, manifests)]
        for name, installed in later:
            # the package itself (`torch` is PyTorch), not what it is shown as: `nvidia-cudnn-cu12`
            # is cuDNN for PyTorch, while the base image's own libcudnn stays in the image
            keys = {norm(name)}
            keys |= {k.removesuffix("python") for k in keys if len(k) > len("python") + 3}
            for key in keys:
                held = self.by_key.get(key, [])
                stale = [f for f in held if f.tag and f.path == model.path and f.line < installed]
                if stale and len(stale) < len(held):
                    self.by_key[key] = [f for f in held if f not in stale]
                    self._in_key[key].difference_update(stale)

    def _read_manifests(self, model: ImageModel, names: Mapping[str, str]) -> tuple[ManifestPin, ...]:
        """The exact pins of the requirements files and local projects the Dockerfile installs from its
        build context (`manifest_pins`), each at the manifest's line: what `pip install -r
        requirements.txt` or `uv pip install .` puts in the image. Returns them (`_supersede` reads
        them too)."""
        if not model.file:
            return ()
        pins = manifest_pins(model.file, model.path, model.installs, model.context_copies)
        for pin in pins:
            keys = name_keys(pin.name, names)
            keys |= {k.removesuffix("python") for k in keys if len(k) > len("python") + 3}
            shown = f"{pin.name}=={pin.version}"
            self._add(keys, Fact(pin.version, shown, pin.line, pin.file, exact=True))
        return pins

    def _read_wheel_python(self, model: ImageModel, names: Mapping[str, str]) -> None:
        """The Python release the wheels pip installs fix (`…-cp312-cp312-linux_x86_64.whl` loads only
        in Python 3.12, `wheel_python`), when every such wheel names the same one: a Python fact. Read
        for a part of the README about one Dockerfile only: in a family, a Python claim may be about
        another image, whose wheels say nothing."""
        found = [
            (release, comp)
            for comp in model.components
            if comp.kind == "wheel" and comp.source
            and (release := wheel_python(comp.source.rsplit("/", 1)[-1])) is not None
        ]  # fmt: skip
        if not found or len({release for release, _ in found}) > 1:
            return
        release, first = found[0]
        shown = f"{release} (cp{release.replace('.', '')} wheels)"
        self._add(name_keys("python", names), Fact(release, shown, first.line, model.path))

    def _read_named_python(self, model: ImageModel, names: Mapping[str, str]) -> None:
        """The Python release the Dockerfile's RUNs name by path (`ln -s /usr/bin/python3.10
        /usr/bin/python`, `python3.11 -m pip`: `ImageModel.named_python`), when they name one and nothing else
        (a build arg, a pin, a base image's tag, wheels) fixes the image's Python: a Python fact. A
        `PYTHON_VERSION` a build file passes that the Dockerfile does not declare is said next to it
        (BuildKit leaves it unused)."""
        keys = name_keys("python", names)
        if any(self.by_key.get(key) for key in keys) or model.named_python is None:
            return
        release, line = model.named_python
        shown = f"{release} (python{release} named)"
        declared = {decl.name for decl in model.args}
        passed = dict(model.build_args)
        for arg, where, at in model.arg_origins:
            if (
                arg not in declared
                and arg in passed
                and at is not None
                and raw_name(arg).startswith("python")
            ):
                shown += f"; {where}:{at} passes {arg}={passed[arg]}, which {model.path} does not declare"
                break
        self._add(keys, Fact(release, shown, line, model.path))

    def _read_floating_bases(self, models: Sequence[ImageModel], names: Mapping[str, str]) -> None:
        """The distributions an image may be whose first stage starts from a floating tag of a
        repository of several (`FROM nvidia/cuda:latest`, `baseimage.floating_distributions`): no
        release of one said (`Ubuntu 18.04`) agrees with it, as nothing pins one. So for the stack of an
        image whose tags name its releases, at a floating tag (`FROM rocm/pytorch:latest`: ROCm and
        PyTorch, `baseimage.floating_releases`). Read when nothing else (a pin, a tag, a label, a
        comment) says the release."""
        found: list[tuple[str, Fact]] = []
        for model in models:
            root, seen = model.target, 0
            while root is not None and root.parent is not None and seen < len(model.stages):
                root, seen = model.stages[root.parent], seen + 1
            if root is None:
                continue
            floating = split_reference(root.base_raw)[0]
            for name in floating_distributions(root.base_raw):
                shown = f"FROM {root.base_raw}, a floating tag that pins no {name} release"
                fact = Fact("", shown, root.line, model.path, stated=True, unpinned=True, floating=floating)
                found.append((name, fact))
            for name in floating_releases(root.base_raw):
                shown = (
                    f"FROM {root.base_raw}, a floating tag: a build takes the {name} release it points to "
                    "that day"
                )
                fact = Fact(
                    "",
                    shown,
                    root.line,
                    model.path,
                    stated=True,
                    unpinned=True,
                    newest=True,
                    floating=floating,
                )
                found.append((name, fact))
        for name, fact in found:
            keys = name_keys(name, names)
            if not any(f for key in keys for f in self.by_key.get(key, ()) if not f.unpinned):
                self._add(keys, fact)

    def _read_newest_installs(self, models: Sequence[ImageModel], names: Mapping[str, str]) -> None:
        """The Python packages the images install with no version (`version_facts.newest_installs`:
        `conda install pytorch torchvision cuda80`), nothing of the image holding them: a build takes the
        newest release of the day, and no exact release said (`PyTorch 0.4.1`) is sure to be the image's.
        Read for a name nothing else of the images pins, tags or states, that every component of the
        images going by it is such an install (an apt package or a clone of it may be another release),
        and that no other image of the part may hold at a version docgen does not read (`may_hold`: its
        base, a requirements file): of a README about several images, the version may be that one's."""
        found: list[tuple[set[str], Component, str, str]] = []
        parsed: dict[int, ParsedDockerfile | None] = {}
        for model in models:
            read = dockerfile_read(model.file) if model.file else None
            parsed[id(model)] = read[1] if read is not None else None
            if read is None:
                continue
            for comp, shown in newest_installs(model, read[1]):
                found.append((name_keys(comp.name, names), comp, shown, model.path))
        if not found:
            return

        def held_elsewhere(comp: Component, path: str) -> bool:
            """Another image of the part may hold the package at a version docgen does not read."""
            return any(
                (tree := parsed[id(model)]) is None or may_hold(model, tree, comp.name)
                for model in models
                if model.path != path
            )

        newest = {id(comp) for _, comp, _, _ in found}
        others = {
            key
            for model in models
            for comp in model.components
            if id(comp) not in newest
            for key in name_keys(comp.name, names)
        }
        for keys, comp, shown, path in found:
            if keys & others or any(self.by_key.get(key) for key in keys) or held_elsewhere(comp, path):
                continue
            self._add(keys, Fact("", shown, comp.line, path, stated=True, unpinned=True, newest=True))

    def _read_distribution(self, model: ImageModel, names: Mapping[str, str]) -> None:
        """The Python release and the compiler the image takes from its distribution
        (`version_facts.distribution_versions`: `apt-get install python3-pip` on Ubuntu 20.04 is Python
        3.8), when nothing else (a pin, a tag, a named release, a comment) says the image's. Read for a
        part of the README about one Dockerfile only, like the named Python."""
        for what, version, shown, line in distribution_versions(model):
            keys = name_keys(what, names) | (name_keys("g++", names) if what == "gcc" else set())
            if not any(self.by_key.get(key) for key in keys):
                self._add(keys, Fact(version, shown, line, model.path, default=True))

    def _read_family_distribution(self, model: ImageModel, names: Mapping[str, str]) -> None:
        """`_read_distribution` of one Dockerfile of a family, when nothing of its own (a pin, a tag, a
        name) says its Python or compiler, into `family_defaults`: `Python 3.12` of a README about an
        `ubuntu:24.04` image installing `python3` and an arm image on a `…-py3.13` base is the first's."""
        for what, version, shown, line in distribution_versions(model):
            keys = name_keys(what, names) | (name_keys("g++", names) if what == "gcc" else set())
            if not any(f.path == model.path for key in keys for f in self.by_key.get(key, ())):
                fact = Fact(version, shown, line, model.path, default=True)
                for key in keys:
                    self.family_defaults.setdefault(key, []).append(fact)

    def family_default(self, name: str, names: Mapping[str, str]) -> list[Fact]:
        """The `family_defaults` of everything `name` may mean."""
        if not self.family_defaults:
            return []
        return [f for key in sorted(name_keys(name, names)) for f in self.family_defaults.get(key, ())]

    def _add(self, keys: set[str], fact: Fact) -> None:
        for key in keys:
            held = self._in_key.setdefault(key, set())
            if fact not in held:
                held.add(fact)
                self.by_key.setdefault(key, []).append(fact)

    @functools.cached_property
    def _slip_index(self) -> dict[str, set[str]]:
        """Each spelling of `findable` of `_SLIP_LETTERS` letters or more, and each of it with one letter
        dropped → those spellings: the names a word may be a slip of (`respelt`)."""
        index: dict[str, set[str]] = {}
        for key in self.findable:
            if _SLIP_LETTERS <= len(key) < _SLIP_LETTERS_MAX and key.isalpha():
                for each in {key, *(key[:i] + key[i + 1 :] for i in range(len(key)))}:
                    index.setdefault(each, set()).add(key)
        return index

    def respelt(self, word: str) -> str | None:
        """The one spelling of `findable` the word `word` (lower case, as `raw_name` spells it) is a slip of
        (`tensoflow` for `tensorflow`: a letter added, dropped, changed or two swapped), both of
        `_SLIP_LETTERS` letters or more; not a plural or a singular of it (`transformer`), nor when two
        are. None when it is none, or is `findable` itself."""
        if not _SLIP_LETTERS <= len(word) <= _SLIP_LETTERS_MAX or not word.isalpha() or word in self.findable:
            return None  # (a word longer than any name is none: its variants would cost n²)
        index = self._slip_index
        near = set(index.get(word, ()))
        for i in range(len(word)):
            near |= index.get(word[:i] + word[i + 1 :], set())
        near = {key for key in near if one_slip(word, key) and key.rstrip("s") != word.rstrip("s")}
        return next(iter(near)) if len(near) == 1 else None

    def published_values(self, name: str, names: Mapping[str, str]) -> list[str]:
        """The values CI workflows pass to the version build args `name` may mean (`published`)."""
        if not self.published:
            return []
        return [value for key in sorted(name_keys(name, names)) for value in self.published.get(key, ())]

    def lookup(self, name: str, names: Mapping[str, str]) -> list[Fact]:
        """The pins of everything `name` may mean (`PyTorch`: torch, TORCH_VERSION …), best first."""
        if name not in self._seen:
            found: dict[Fact, None] = {}  # in order, each once
            for key in sorted(name_keys(name, names)):
                found.update(dict.fromkeys(self.by_key.get(key, ())))
            self._seen[name] = list(found)
        return self._seen[name]


_BASE_RELEASES = frozenset({"rocm", "cuda"})
"""Platforms a base image's tag gives the release of (`rocm/dev-ubuntu-24.04:6.4.3-complete`,
`nvidia/cuda:12.4.1-…`), which a README may say of the base while wheels installed over it name another."""
_SAID_OF_BASE = re.compile(r"\bbase[ \t]+image\b|\bbased[ \t]+on\b", re.IGNORECASE)
"""Words saying a line is about the base image."""


def _names_repository(text: str, repository: str) -> bool:
    """True when the lower-case `text` names the image `repository` (lower case, a registry and
    `library/` aside): as `owner/name`, or by a name of its own (`dev-ubuntu-24.04`, with a `-` and a
    digit), not a word any README uses (`cuda`, `pytorch`)."""
    parts = repository.split("/")
    if len(parts) > 1 and ("." in parts[0] or ":" in parts[0] or parts[0] == "localhost"):
        parts = parts[1:]
    if parts and parts[0] == "library":
        parts = parts[1:]
    spellings = ["/".join(parts)] if len(parts) > 1 else []
    if parts and "-" in parts[-1] and any(c.isdigit() for c in parts[-1]):
        spellings.append(parts[-1])
    return any(re.search(rf"(?<![\w.-]){re.escape(s)}(?![\w-])", text) for s in spellings)


@dataclass(frozen=True)
class Auditor:
    """What the Dockerfiles a part of the README is about say, and how to turn one claim into a finding.
    With several Dockerfiles (a README about a family of images), a claim agreeing with any one of them
    is true of the family."""

    path: str
    models: tuple[ImageModel, ...]
    names: Mapping[str, str]
    facts: Facts
    declared: frozenset[str]
    env: frozenset[str]
    shared: AuditFacts
    """What the whole README and the project's files say, read once for every part of the audit."""
    family: tuple[ImageModel, ...] = ()
    """Every Dockerfile audited (`models` is the part of them a section is about)."""
    siblings: tuple[str, ...] = ()
    """The Dockerfiles next to the README that are not audited (a scope note may name one)."""
    elsewhere: frozenset[str] = frozenset()
    """The build args the Dockerfiles below the README's folder that are not audited declare: a README
    about several images documents theirs too (`--build-arg TV_VERSION` of the `aarch` build)."""
    runtime: frozenset[str] = frozenset()
    """Names the README passes at run time (`docker run -e NAME=…`, compose `environment:`) and never
    with `--build-arg`: build args only where the text says build args."""
    defaults: bool = True
    """Whether a claim is compared with what the distribution gives (`Fact.default`); not in text
    about the project's own installation (`wording.about_project_setup`)."""

    @classmethod
    def of(
        cls,
        path: str,
        models: tuple[ImageModel, ...],
        names: Mapping[str, str],
        shared: AuditFacts,
        family: tuple[ImageModel, ...] = (),
        siblings: tuple[str, ...] = (),
        runtime: frozenset[str] = frozenset(),
        elsewhere: frozenset[str] = frozenset(),
    ) -> Auditor:
        return cls(
            path=path,
            models=models,
            names=names,
            facts=Facts(models, names, family or models),
            declared=frozenset(a.name for m in models for a in m.args),
            env=frozenset(e.name for m in models for e in m.env),
            shared=shared,
            family=family or models,
            siblings=siblings,
            elsewhere=elsewhere,
            runtime=runtime - _passed(models),
        )

    def _with(self, models: tuple[ImageModel, ...]) -> Auditor:
        if models == self.models:
            return self
        found = Auditor.of(
            self.path,
            models,
            self.names,
            self.shared,
            self.family,
            self.siblings,
            self.runtime,
            self.elsewhere,
        )
        return found if self.defaults else found.without_defaults

    @functools.cached_property
    def without_defaults(self) -> Auditor:
        """This auditor comparing nothing with what the distribution gives (`Fact.default`)."""
        return replace(self, defaults=False) if self.defaults else self

    @functools.cached_property
    def passed(self) -> frozenset[str]:
        """The declared build args a build file (a compose service's `build.args`, a bake target's
        `args`) passes: build args wherever the README lists them, under `Environment Variable Name` too."""
        return _passed(self.models)

    @functools.cached_property
    def each(self) -> tuple[Auditor, ...]:
        """One auditor a Dockerfile (this one, when it has one)."""
        if len(self.models) == 1:
            return (self,)
        return tuple(self._with((model,)) for model in self.models)

    @functools.cached_property
    def declared_as(self) -> tuple[ImageModel, ...]:
        """`models` as audited, before a section's build command passed its `--build-arg` values, each
        once: the default a README states is the ARG's, whatever a build next to it passes, and the args
        and stages a Dockerfile declares are the same however it is built."""
        declared: list[ImageModel] = []
        family = {id(f) for f in self.family}
        held: set[int] = set()
        for model in self.models:
            if id(model) not in family:
                same = (f for f in self.family if f.path == model.path and f.image_name == model.image_name)
                model = next(same, model)
            if id(model) not in held:
                declared.append(model)
                held.add(id(model))
        return tuple(declared)

    @functools.cached_property
    def as_declared(self) -> Auditor:
        """The auditor of `declared_as`: what a line about the defaults (`defaults to`) is compared with."""
        return self._with(self.declared_as)

    @functools.cached_property
    def own_base_chain(self) -> tuple[ImageModel, ...]:
        """The images of the part and the base Dockerfiles of the family they are built on, when every
        image of the part is built FROM an image a Dockerfile of the family builds (`own_base`) or is one
        of those base Dockerfiles, at least one image being built on one, and none installs what docgen
        did not read (a requirements file, a script); else none. Read once for every block of the part
        (`fences.listed_not_installed`)."""
        for model in self.models:
            unread = any(c.method in ("requirements", "script") for c in model.components)
            if unread or any("pins live in" in d.message for d in model.skipped):
                return ()  # a requirements file or an installer: may install anything
        own_base = OwnBases(self.family)
        chain = own_base.chain(self.models)
        bases = {id(b) for m in chain if (b := own_base(m)) is not None}
        built_on = [m for m in self.models if own_base(m) is not None]
        if not built_on or any(own_base(m) is None and id(m) not in bases for m in chain):
            return ()
        return chain

    @functools.cached_property
    def named_models(self) -> Mapping[str, tuple[int, ...]]:
        """Each name an image of `models` goes by in its README (`image_names`), with the indices in
        `models` of the images going by it: read once for every sentence of the part."""
        named: dict[str, list[int]] = {}
        for index, model in enumerate(self.models):
            for name in image_names(model.path):
                named.setdefault(name, []).append(index)
        return {name: tuple(indices) for name, indices in named.items()}

    @functools.cached_property
    def stages(self) -> frozenset[str]:
        """The names of the stages of `models` (`FROM … AS NAME`)."""
        return frozenset(s.name for m in self.models for s in m.stages if s.name)

    @functools.cached_property
    def whole(self) -> Auditor:
        """The auditor of every Dockerfile audited: a `--build-arg NAME=…` of a command naming no `-f`
        is about whichever of them declares NAME."""
        return self._with(self.family)

    def scoped(self, text: str) -> Auditor | None:
        """The auditor of the image a scope note in `text` (one list item or table row) names: `(only
        for `horovod-ray` image)`, `(ROCm only)`, `for the cuda image`. The note outranks the section:
        the item is about that image of the family, or (None) about a sibling not audited. Without a
        note naming an image docgen knows, this auditor."""
        named = _scope_names(text)
        if not named:
            return self
        family = tuple(m for m in self.family if named & image_names(m.path))
        if family:
            return self._with(family)
        if any(named & image_names(p) for p in self.siblings):
            return None
        return self

    @staticmethod
    def where(fact: Fact) -> str:
        return f"{fact.path}:{fact.line}"

    def verdict(self, name: str, operator: str, version: str) -> tuple[bool | None, Fact | None]:
        """(True, pin) when a pin of `name` satisfies `operator version`, (False, first pin that does
        not) when none does but one can be compared, (None, None) when none can. `3.10+` is `>=3.10`."""
        if operator == "==" and version.endswith("+"):
            operator, version = ">=", version.rstrip("+")
        if operator == "==" and (span := _RANGE.fullmatch(version)):
            return self._range_verdict(name, span.group(1), span.group(2))
        wrong = None
        # `CUDA 11.8.0` beside a wheel index's `cu118` (11.8) and a base tag's 11.8.8: the index agrees
        # only to the minor it tells; the tag, as precise as the claim, decides for its own image
        coarse: dict[str, Fact] = {}
        precise_wrong: dict[str, Fact] = {}
        claimed = _precision(version) if operator in ("==", "===") else 0
        for fact in self.facts.lookup(name, self.names):
            if fact.default and (not self.defaults or operator not in ("==", "===")):
                continue  # `Python 3.8+`: what the project supports, not what the distribution gives
            if fact.default and name.lower().startswith("python") and _major(version) != _major(fact.value):
                continue  # `Python 2.7` beside Ubuntu's `python3` 3.6: another package, maybe there too
            if fact.unpinned and not _DOTTED.fullmatch(strip_v(version)):
                continue  # `5-10` (minutes, in a table of build steps): no release to set against none
            if fact.newest and (operator not in ("==", "===") or not self.defaults):
                continue  # `torch>=1.8`: the newest release may be one; `## Requirements`: the reader's
            agrees = False if fact.unpinned else satisfies(operator, version, fact.value, fact.exact)
            if agrees and (
                _precision(fact.value) < claimed
                or (
                    claimed
                    and fact.tag
                    and not fact.exact
                    and _unparsed(version)
                    and finer_than(version, fact.value)
                )
            ):
                coarse.setdefault(fact.path, fact)
                continue
            if agrees:
                return True, fact
            if agrees is False and not fact.unpinned and _precision(fact.value) >= claimed:
                precise_wrong.setdefault(fact.path, fact)
            wrong = fact if agrees is False and wrong is None else wrong
        kept = [fact for path, fact in coarse.items() if path not in precise_wrong]
        apart = [
            fact for fact in precise_wrong.values() if fact.exact and pre_release_apart(version, fact.value)
        ]
        if kept and apart:
            # `CANN 7.0.RC1.3.beta1` where two images install `…toolkit_7.0.RC1.3…` and a third's base
            # tag says `cann7.0rc1`: the claim names the release those install, a pre-release of it
            return False, apart[0]
        if kept:
            return True, kept[0]
        if (wrong or coarse) and operator in ("==", "==="):
            # of a family, an image whose Python its distribution gives (no pin says it) may be the one meant
            for fact in self.facts.family_default(name, self.names):
                if satisfies(operator, version, fact.value, fact.exact):
                    return True, fact
        if coarse:
            return False, precise_wrong[next(iter(coarse))]
        return (False, wrong) if wrong else (None, None)

    def _range_verdict(self, name: str, low: str, high: str) -> tuple[bool | None, Fact | None]:
        """`verdict` of a range a README gives (`Python 3.8-3.11`): a pin agrees when it is within it,
        both ends included, each compared to the precision the README writes (`3.11.9` is in it)."""
        wrong = None
        first, last = release_tuple(low), release_tuple(high)
        for fact in self.facts.lookup(name, self.names):
            if fact.default:
                continue  # `Python 3.8-3.11`: the releases the project supports
            release = RELEASE.match(strip_v(fact.value))
            if release is None or is_commit(fact.value):
                continue
            have = release_tuple(release.group())
            if have[: len(first)] >= first and have[: len(last)] <= last:
                return True, fact
            if len(have) < max(len(first), len(last)) and first[: len(have)] <= have <= last[: len(have)]:
                continue  # `python3` against `3.10-3.13`: the pin does not tell the minor
            wrong = fact if wrong is None else wrong
        return (False, wrong) if wrong else (None, None)

    def version_claim(
        self, line: int, name: str, operator: str, version: str, confidence: str, said: str = ""
    ) -> Diagnostic | None:
        """A diagnostic, showing the claim as the README wrote it, when it contradicts every pin.
        `said`: the name as the README writes it, when that is not `name` (a slip off it)."""
        agrees, fact = self.verdict(name, operator, version)
        if agrees is not False or fact is None:
            return None
        if any(
            satisfies(operator, version, value, True)
            for value in self.facts.published_values(name, self.names)
        ):
            return None  # `onnx 1.15.0` where a workflow building the Dockerfile passes ONNX_VERSION=1.15.0
        if self.shared.example_passes(line, version):
            return None  # `The example below builds Python 3.12 container`, then `--py_version 3.12`
        if fact.floating and self._names_base(line, fact.floating):
            return None  # `FROM nvidia/cuda:latest (Ubuntu 18.04 when written)`: it knows the tag floats
        if fact.newest and self._written_as_pin(line, version):
            return None  # `torch==1.8.0`, a code block: `floating_pins` reads pins, with what may hold them
        said = said or name
        shown = f"{said} {version}" if operator == "==" else f"{said}{operator}{version}"
        if norm(name) in _BASE_RELEASES and (based := self._base_tag_fact(line, name, operator, version)):
            # `Ubuntu 24.04 with ROCm 6.5.3 (base image from rocm/dev-ubuntu-24.04)`: the FROM's tag says
            # the base's release, whatever release the wheels installed over it are built for
            fact, reference, named = based
            message = (
                f"README says {shown} of the base image but {self.where(fact)} says {reference} "
                f"({said} {fact.value})"
            )
            return Diagnostic(self.path, line, message, confidence=CERTAIN if named else confidence)
        message = f"README says {shown} but {self.where(fact)} says {fact.shown}"
        # a point release the repository of its minor does not serve: only the layout tells
        inferred = fact.stated or (
            fact.laid_out and bool(same_version(version, fact.value.rsplit(".", 1)[0]))
        )
        return Diagnostic(self.path, line, message, confidence=LIKELY if inferred else confidence)

    def _written_as_pin(self, line: int, version: str) -> bool:
        """True when README `line` gives `version` as a package manager writes a pin (`torch==1.8.0`,
        `pytorch=0.4.1`, `torch>=1.8`) or is no line of prose, a table or a heading (a code block)."""
        text = self.shared.line_text(line)
        if text is None:
            return True
        return re.search(r"[=<>~]=?[ \t]*v?" + re.escape(version) + r"(?![\w.])", text) is not None

    def _base_tag_fact(
        self, line: int, name: str, operator: str, version: str
    ) -> tuple[Fact, str, bool] | None:
        """(the fact, the image reference, whether README `line` names its repository) of the base image
        tag a ROCm or CUDA claim that no pin agrees with is about: README `line` names the repository of
        a FROM whose tag gives a release of `name` (`… (base image from rocm/dev-ubuntu-24.04)`), or says
        `base image` (`based on`) of images one of whose FROM tags gives one; the claim contradicts that
        tag. None otherwise: the claim is compared as any other, with the first pin it contradicts."""
        tagged = [
            f
            for f in self.facts.lookup(name, self.names)
            if f.tag and not f.stated and satisfies(operator, version, f.value, f.exact) is False
        ]
        if not tagged:
            return None
        text = self.shared.line_text(line)
        if text is None:
            return None
        lowered = text.lower()
        froms = {
            (fact.path, fact.line): f"{repository}:{fact.value}"
            for repository, facts in self.facts.images.items()
            for fact in facts
        }
        named = {
            (fact.path, fact.line)
            for repository, facts in self.facts.images.items()
            if _names_repository(lowered, repository)
            for fact in facts
        }
        if named:
            chosen = [f for f in tagged if (f.path, f.line) in named]
        elif _SAID_OF_BASE.search(text):
            chosen = tagged
        else:
            return None
        chosen = [f for f in chosen if (f.path, f.line) in froms]
        if not chosen:
            return None
        return chosen[0], froms[(chosen[0].path, chosen[0].line)], bool(named)

    def _names_base(self, line: int, repository: str) -> bool:
        """True when the paragraph or table of README `line` names the image `repository` (its last part
        after a registry: `nvcr.io/nvidia/cuda` is named by `nvidia/cuda`)."""
        doc = self.shared.doc
        wanted = repository.split("/", 1)[1] if repository.count("/") > 1 else repository
        blocks = [para.lines for para in doc.paragraphs] + [
            [(row_line, " ".join(cells)) for row_line, cells in table.rows] for table in doc.tables
        ]
        for lines in blocks:
            if any(at == line for at, _ in lines):
                return any(wanted in text.lower() for _, text in lines)
        return False

    def absent_claim(self, line: int, name: str, image: str) -> Diagnostic | None:
        """A diagnostic when the README says `image` has no `name` (a dash in its row of a version
        column) while the build pins one exactly (`LIKELY`: a dash may mean "not applicable")."""
        fact = next((f for f in self.facts.lookup(name, self.names) if f.exact), None)
        if fact is None:
            return None
        whose = image or self.models[0].path
        message = f"README says {whose} has no {name} but {self.where(fact)} says {fact.shown}"
        return Diagnostic(self.path, line, message, confidence=LIKELY)

    def base_tag_claim(
        self, line: int, reference: re.Match[str], said: str, confidence: str
    ) -> Diagnostic | None:
        """A diagnostic when the image `reference` (an `_IMAGE_REF` match: repository, tag) is of the
        repository of a base image, with a tag of the same shape (versions aside) that is none of its
        tags: `rocm/dev-ubuntu-22.04:6.4.0-complete` for the base `…:6.4.1-complete`. `said`: what the
        README does with it (`says`, `runs`). Not a repository a README that makes no image runs by name
        (`AuditFacts.published_runs`): its tag there is the upstream release the README uses."""
        repo, tag = reference.group(1), reference.group(2)
        if repo.lower() in self.shared.published_runs:
            return None  # the published image a README that builds none runs as it is: its own tag
        bases = self.facts.images.get(repo.lower(), [])
        shape = skeleton(tag)
        alike = [fact for fact in bases if skeleton(fact.value) == shape]
        if not alike or any(fact.value == tag for fact in alike):
            return None
        # a family where another image bases on the repository by digest alone (`nvidia/cuda@sha256:…`):
        # which tag that digest is of the Dockerfile does not say, so the tag may be that image's
        if {f.path for f in bases if f.value.startswith("sha256:")} - {f.path for f in alike}:
            return None
        message = f"README {said} {reference.group()} but {self.where(alike[0])} says {repo}:{alike[0].value}"
        return Diagnostic(self.path, line, message, confidence=confidence)

    def default_claim(
        self, line: int, name: str, claim: str | None, confidence: str, required: bool = False
    ) -> Diagnostic | None:
        """A diagnostic when the default a README gives the build arg `name` (normalised by
        `_default_in_cell`, None when it is in words) differs from the Dockerfiles', and from the value
        the Makefile beside the README passes their build (`AuditFacts.make_passed`: the default of the
        README's `make build`). `required`: the README says the arg has no default and must be passed
        (claim '')."""
        # a value only CI passes (`called_args`) is no default: the Dockerfile's declaration is the claim's
        decls = [
            (
                m,
                replace(d, default=None, raw_default=None, effective_default=None)
                if name in m.called_args
                else d,
            )
            for m in self.declared_as
            for d in m.args
            if d.name == name and not d.unknown
        ]
        if claim is None or not decls or same_default(claim, [d for _, d in decls]):
            return None
        # the value the Makefile beside the README passes that Dockerfile's build (`make build`)
        passed = self.shared.make_passed.get(name, frozenset())
        as_made = [
            replace(d, default=value, raw_default=value, effective_default=value)
            for m, d in decls
            for value, dockerfile in passed
            if dockerfile == os.path.basename(m.path)
        ]
        if as_made and same_default(claim, as_made):
            return None
        model, first = next(((m, d) for m, d in decls if not d.bare), decls[0])
        # a value a build file passes is set on its line there (`docker-compose.yml:7`)
        where = next(
            (
                f"{shown}:{at}"
                for arg, shown, at in model.arg_origins
                if arg == name and at is not None and arg not in model.called_args
            ),
            f"{model.path}:{first.line}",
        )
        said = "has no default (must be passed)" if required else f"defaults to {claim or chr(34) * 2}"
        return Diagnostic(
            self.path,
            line,
            f"README says {name} {said} but {where} says {shown_default(first)}",
            confidence=confidence,
        )

    @functools.cached_property
    def scopeless(self) -> dict[str, str]:
        """The build args every image declaring them declares only before the first FROM and reads in a
        stage out of scope (`coverage.scopeless_args`) → where the first such read is (`path:line`)."""
        per_model = [(model, scopeless_args(model, self.shared.lint)) for model in self.declared_as]
        found: dict[str, str] = {}
        for name in {name for _, lines in per_model for name in lines}:
            declaring = [(m, lines) for m, lines in per_model if any(d.name == name for d in m.args)]
            if all(name in lines for _, lines in declaring):
                found[name] = f"{declaring[0][0].path}:{declaring[0][1][name]}"
        return found

    def arg_claim(self, line: int, name: str, confidence: str, passed: bool = False) -> Diagnostic | None:
        """A diagnostic when the README documents a build arg no Dockerfile declares, neither one
        audited nor one below the README's folder (`elsewhere`: the arg of another image); or one
        declared only before the first FROM and read only out of scope (`scopeless`), which a
        `--build-arg` cannot change. `passed`: the README's build command passes it (`--build-arg
        NAME=…`); a name only an ENV of the images sets (`ENV AITER_ROCM_ARCH=gfx942`) is then a
        finding too: no ARG takes the value, the ENV's is the image's (`_env_only`)."""
        if passed and (found := self._env_only(line, name, confidence)) is not None:
            return found
        if name in self.declared and name in self.scopeless:
            return Diagnostic(
                self.path,
                line,
                f"README documents build arg {name}, but {self.scopeless[name]} reads it in a stage that "
                f"does not declare it again (declared only before the first FROM, it is seen by FROM "
                f"lines only): --build-arg {name} changes nothing",
                confidence=confidence,
            )
        if (
            name in self.declared
            or name in self.elsewhere
            or name in self.env
            or name in PREDEFINED_ARGS
            or name in PROXY_ARGS
            or name in NOT_BUILD_ARGS
            or name.startswith(("BUILDKIT_", "BUILDX_", "COMPOSE_"))
        ):
            return None
        near = self.near_args(name)
        if near:
            # `INC_VERSION` for `ARG INC_VER`: the name the README gives has no effect on the build
            whom = " and ".join(f"{where} declares {other}" for other, where in near)
            if len(near) > 1:
                confidence = LIKELY
        elif len(self.declared_as) == 1:
            whom = f"{self.declared_as[0].path} does not declare it"
        else:
            whom = f"none of {', '.join(dict.fromkeys(m.path for m in self.declared_as))} declares it"
        return Diagnostic(
            self.path, line, f"README documents build arg {name} but {whom}", confidence=confidence
        )

    def _env_only(self, line: int, name: str, confidence: str) -> Diagnostic | None:
        """`--build-arg NAME` for a name no ARG of the images (nor of another image below the README's
        folder) declares while an ENV of them sets it with a value of its own: BuildKit leaves the value
        passed unused (`One or more build-args were not consumed`) and the image keeps the ENV's."""
        if name not in self.env or name in self.declared or name in self.elsewhere:
            return None
        if name in PREDEFINED_ARGS or name in PROXY_ARGS or name in NOT_BUILD_ARGS:
            return None
        sets = sorted(
            {
                (m.path, e.line, e.value)
                for m in self.models
                for e in m.env
                if e.name == name and not e.inherited
            },
            key=lambda each: (each[0], each[1]),
        )
        if not sets or any(value is None for _, _, value in sets):
            return None  # a value docgen cannot know: nothing to show
        path, at, value = sets[0]
        return Diagnostic(
            self.path,
            line,
            f"README passes --build-arg {name}, but {path} declares no ARG {name}: {path}:{at} sets "
            f"ENV {name}={clipped(value or '')} itself, so the value passed is unused",
            confidence=confidence,
        )

    @functools.cached_property
    def passed_undeclared(self) -> dict[str, tuple[str, str, str]]:
        """The build args a build file (a compose service's `build.args`, a bake target's `args`) passes
        that no image declares → (the value, where the file sets it, the Dockerfile): BuildKit leaves
        such a value unused."""
        found: dict[str, tuple[str, str, str]] = {}
        for model in self.models:
            values = dict(model.build_args)
            for arg, shown, at in model.arg_origins:
                if arg not in self.declared and arg in values and at is not None:
                    found.setdefault(arg, (values[arg], f"{shown}:{at}", model.path))
        return found

    def valued(self, name: str) -> bool:
        """True when an ARG `name` of the images has a value: a default, or one the build passes."""
        return any(d.name == name and d.effective_default is not None for m in self.models for d in m.args)

    def passed_claim(self, line: int, name: str, claim: str, confidence: str) -> Diagnostic | None:
        """A diagnostic when the default a README gives `name` differs from the value a build file
        passes under that name, which no image declares: said so, not compared as if it set the ARG."""
        passed = self.passed_undeclared.get(name)
        if passed is None or strip_v(claim) == strip_v(passed[0]):
            return None
        value, where, dockerfile = passed
        message = (
            f"README says {name} defaults to {claim} but {where} passes {value}, "
            f"under a name {dockerfile} does not declare"
        )
        return Diagnostic(self.path, line, message, confidence=confidence)

    def unused_claim(self, line: int, name: str, claim: str, confidence: str) -> Diagnostic | None:
        """A diagnostic when the README gives the build arg `name` a value, no instruction reads its
        ARG, and a RUN reads instead a name a slip away from it that nothing sets (`ARG INC_VERSION`,
        `neural-compressor${INC_VER:+==${INC_VER}}`): the value has no effect."""
        for model in self.declared_as:
            decls = [d for d in model.args if d.name == name]
            if not decls or any(d.used_lines for d in decls):
                continue
            read = next(((n, at) for n, at in model.unbound_reads if near_args(n, (name,))), None)
            if read is None:
                continue
            message = (
                f"README gives {name} {claim} but {model.path}:{decls[0].line} declares {name} and nothing "
                f"reads it; the RUN at {model.path}:{read[1]} reads {read[0]}, which no ARG declares: "
                "the value has no effect"
            )
            return Diagnostic(self.path, line, message, confidence=confidence)
        return None

    def near_args(self, name: str) -> list[tuple[str, str]]:
        """The build args the images declare that a README naming `name` (no ARG's name) may mean
        (`near_args`: `INC_VER` for `INC_VERSION`, `MKL_VER` for `MKL Version`), each with where its
        first ARG is (`Dockerfile:148`)."""
        found = []
        for other in near_args(name, self.declared):
            model, decl = next((m, d) for m in self.models for d in m.args if d.name == other)
            found.append((other, f"{model.path}:{decl.line}"))
        return found

    def of_another_image(self, listed: Collection[str]) -> bool:
        """True when most of the build args a README's table names (`listed`) are declared only by a
        Dockerfile below the README's folder that is not audited (`elsewhere`): it is that image's
        table, which owes the images audited no row."""
        names = set(listed)
        return 2 * sum(1 for n in names if n in self.elsewhere and n not in self.declared) > len(names)

    def missing_args(
        self,
        line: int,
        documented: Collection[str],
        where: str,
        confidence: str,
        *,
        stamps: bool = True,
        said_all: bool = True,
    ) -> Iterator[Diagnostic]:
        """A diagnostic for each build arg a user can pass (a row of the generated `build-args` block)
        that a README's list of them (`where`: its build-argument table, list) leaves out, when it is
        about one image: of a family's, docgen cannot tell which image's args it must list. An arg a
        family name covers (`SPACKPACKAGES_*`) is listed; one no instruction reads, one declared only
        in stages the build skips (`coverage.unreached_args`), or one whose default joins listed ones
        (`coverage.composed_args`) or one its comment says is for internal use (`coverage.internal_args`)
        is owed no row; nor, unless `stamps` (a list that says it is all the args), is one that only
        stamps a LABEL (`coverage.stamped_args`). Unless `said_all` (its heading or introduction says it
        holds every build arg), a list that leaves out more of the args owed a row than it names is a
        selection (the args that matter most, two of twenty), which owes the others none."""
        if len(self.declared_as) != 1:
            return
        model = self.declared_as[0]
        rows = build_arg_rows(model)
        missing = [row for row in rows if not covered(row.name, documented)]
        unread = (
            unread_args(model, self.shared.lint) | unreached_args(model) | composed_args(model, documented)
            if missing
            else frozenset()
        )
        read = dockerfile_read(model.file) if missing else None
        if read is not None:
            unread |= internal_args(model, read[1].instructions)
            if not stamps:
                unread |= stamped_args(model, read[1].instructions)
        owed = [row for row in missing if row.name not in unread and row.name not in _HOUSEKEEPING]
        if not said_all and len(owed) > len(rows) - len(missing):
            return
        for row in owed:
            yield Diagnostic(
                self.path,
                line,
                f"build arg {row.name} ({model.path}:{row.line}) is missing from the README's {where}",
                confidence=confidence,
            )


_HOUSEKEEPING = frozenset({"DEBIAN_FRONTEND"})
"""Build args a Dockerfile sets for its own tools, which no one passes (`ARG DEBIAN_FRONTEND=noninteractive`
quiets apt): a table of build args owes them no row."""
_RANGE = re.compile(r"v?(\d+\.\d+(?:\.\d+)?)[-–]v?(\d+\.\d+(?:\.\d+)?)")
"""A range of releases written as one word (`3.8-3.11`); `12.4.1-1` (a Debian revision) is none."""


_SCOPE_NOTE = re.compile(
    r"\([ \t]*(?:only[ \t]+)?(?:for|in)[ \t]+(?:the[ \t]+)?([\w.+-]+)"
    r"(?:[ \t]+images?)?(?:[ \t]+only)?[ \t]*\)"
    r"|\([ \t]*([\w.+-]+?)(?:[ \t]+images?)?(?:[ \t]+|-)only[ \t]*\)"
    r"|\bonly[ \t]+(?:for|in)[ \t]+(?:the[ \t]+)?([\w.+-]+)[ \t]+images?\b"
    r"|\bfor[ \t]+(?:the[ \t]+)?([\w.+-]+)[ \t]+images?\b",
    re.IGNORECASE,
)
"""A note binding one item of a build-arg list or table to an image: `(only for `horovod` image)`,
`(ROCm only)`, `(rocm-only)`, `only for the cuda image`, `for the horovod-ray image`."""


def _scope_names(text: str) -> set[str]:
    """The image names (lower case) the scope notes of `text` name."""
    plain = text.replace("`", "").replace("*", "")
    return {name.lower() for m in _SCOPE_NOTE.finditer(plain) for name in m.groups() if name}


def _passed(models: tuple[ImageModel, ...]) -> frozenset[str]:
    """The build args a build file passes to one of `models` that its Dockerfile declares."""
    return frozenset(arg for m in models for arg, _, _ in m.arg_origins if any(a.name == arg for a in m.args))


def image_names(path: str) -> set[str]:
    """The names an image of a family goes by in its README: the variant of its Dockerfile's name
    (`rocm` for `rocm.Dockerfile`), and the folder of a plain `Dockerfile` (`horovod-ray` for
    `docker/horovod-ray/Dockerfile`). Of a variant of several words, the words that end it too
    (`mofed`, `rdma-core` for `UCXPy-rdma-core.dockerfile`), but no vague word (`latest`)."""
    found = {v} if (v := variant(path)) else set()
    pieces = re.split(r"([._-]+)", v or "")
    for start in range(2, len(pieces), 2):  # the words after each separator, to the end
        if "".join(pieces[start:]) not in VAGUE_PARTS:
            found.add("".join(pieces[start:]))
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".", "..")]
    if len(parts) >= 2 and parts[-1] in ("Dockerfile", "Containerfile"):
        found.add(parts[-2].lower())
    return found


NOT_BUILD_ARGS = frozenset(
    {
        # placeholders people write in examples
        "NAME",
        "KEY",
        "VALUE",
        "VAR",
        "VARIABLE",
        "ARG",
        "ARG_NAME",
        "BUILD_ARG",
        "FOO",
        "BAR",
        "BAZ",
        # variables of the docker client, not of the build
        "DOCKER_BUILDKIT",
        "DOCKER_HOST",
        "DOCKER_CONFIG",
        "DOCKER_DEFAULT_PLATFORM",
        "DOCKER_CLI_EXPERIMENTAL",
        "SOURCE_DATE_EPOCH",
    }
)


def _installed_over(model: ImageModel, image: Component) -> bool:
    """Whether a later step of `model` installs the project the base `image`'s repository is named
    after (`FROM mosaicml/llm-foundry:2.6.0_cu124-latest`, then `git clone …/llm-foundry.git`): the
    tag then gives the versions of the base's stack, not that project's, which is the clone's or
    the install's, pinned or not."""
    project = raw_name(image.name.rsplit("/", 1)[-1])
    return any(
        comp.kind != "image" and comp.line > image.line and raw_name(comp.name) == project
        for comp in model.components
    )


def also_at(lines: Sequence[int]) -> str:
    """The tail of a finding told once for a claim the README makes on several lines (`lines`, the
    first the one it is told at): `; also at lines 12, 30`, or '' when it makes it once."""
    also = sorted(set(lines[1:]) - {lines[0]})
    named = ", ".join(map(str, also[:_ALSO_NAMED])) + (
        f" and {len(also) - _ALSO_NAMED} more" if len(also) > _ALSO_NAMED else ""
    )
    return f"; also at line{'s' if len(also) > 1 else ''} {named}" if also else ""


_ALSO_NAMED = 10
"""Lines `also_at` names at most; the others it counts (`… and 389 more`)."""


def some(diagnostic: Diagnostic | None) -> Iterator[Diagnostic]:
    if diagnostic is not None:
        yield diagnostic


def remotes(dockerfile: str) -> frozenset[str]:
    """The `owner/name` of each remote of the checkout `dockerfile` is in (`own_repo.remote_names`)."""
    return frozenset(remote_names(repository_root(Path(dockerfile).parent)))


def dockerfile_read(file: str) -> tuple[str, ParsedDockerfile] | None:
    """The text and the parse of the Dockerfile at `file` (an audited model's `file`), read once for
    the rules that need its instructions as written (the model keeps what they install, not their
    text); None when it cannot be read. Read again when the file has changed since (its size or
    modification time), so a process that audits, edits and audits again sees the edit."""
    try:
        stat = os.stat(file)
    except OSError:
        return None
    return _dockerfile_read_at(file, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=64)
def _dockerfile_read_at(file: str, mtime_ns: int, size: int) -> tuple[str, ParsedDockerfile] | None:
    """`dockerfile_read` of the file as it was at that modification time and size (the cache key)."""
    try:
        text = decode_dockerfile(read_dockerfile_bytes(Path(file), file), file)
        return text, parse_dockerfile(text, file)
    except DocgenError:
        return None


def _major(version: str) -> str:
    """The first number of a version (`3` of `3.10.4`, of `v3.6`)."""
    return strip_v(version).split(".", 1)[0]


def _unparsed(version: str) -> bool:
    """True when `packaging.version` does not read a version (Huawei's `7.0.RC1.3.beta1`)."""
    try:
        Version(strip_v(version))
    except InvalidVersion:
        return True
    return False


def _precision(version: str) -> int:
    """How many numbers of a release a version gives: 3 of `11.8.0` and of the tag
    `11.8.8-cudnn8-devel-ubuntu20.04`, 2 of `11.8` (a wheel's `cu118`); 0 of a commit or a word."""
    value = strip_v(version)
    if is_commit(value):
        return 0
    release = RELEASE.match(value)
    return release.group().count(".") + 1 if release else 0
