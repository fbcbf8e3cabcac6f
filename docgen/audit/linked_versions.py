"""A link into a component's repository at a release (`[here](https://github.com/open-mmlab/
mmsegmentation/tree/v1.0.0/configs)`) that a README gives as where to read what the image holds (`You can
browse the config files here`), while the image installs another release of that repository (`git
checkout tags/v1.2.2`): the files behind the link are not the ones in the container.

Read: a link of a prose line to `github.com` or `gitlab.com` whose path is `OWNER/REPO/tree/REF/…` or
`OWNER/REPO/blob/REF/…`, REF a release (`v1.0.0`, `2.18.1`) and something after it (a folder or a file:
the link points into the release's content), REPO a component the image pins (`auditor.facts`, by the
names `versions` matches: `mmsegmentation`, `mmdet` is not `mmdetection`). A line saying the link is
about another release, the past or a change (`older`, `previous`, `changelog`, `release notes`,
`migrat…`, `upgrade`, `since`, `introduced`, `was`) is no claim. `likely`: the README may link the
release whose files it was written for on purpose.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor
from docgen.markdown import Document, links
from docgen.model import Diagnostic

_RELEASE_LINK = re.compile(
    r"https?://(?:www\.)?(?:github|gitlab)\.com/[\w.-]+/(?P<repo>[\w.-]+?)(?:\.git)?/(?:-/)?(?:tree|blob)/"
    r"(?P<ref>v?\d+(?:\.\d+){1,3})/(?P<rest>[^\s?#)]+)"
)
"""A link into a repository's content at a release (`…/mmsegmentation/tree/v1.0.0/configs`)."""
_NOT_OF_IMAGE = re.compile(
    r"\b(?:older|previous(?:ly)?|legacy|deprecated|changelog|change[ \t]+log|release[ \t]+notes"
    r"|migrat\w*|upgrad\w*|since|introduced|was|were|used[ \t]+to|originally|upstream[ \t]+issue)\b",
    re.IGNORECASE,
)
"""Words making a linked release another one than the image's on purpose."""


def linked_release_claims(part: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """The links of `part`'s prose into a component's repository at a release other than the one the
    image installs (see the module's docstring)."""
    for para in part.paragraphs:
        for line, text in para.lines:
            if "/tree/" not in text and "/blob/" not in text:
                continue  # (nearly every line: no link into a release)
            if _NOT_OF_IMAGE.search(text):
                continue
            for link in links(text):
                match = _RELEASE_LINK.match(link.target or "")
                if match is None:
                    continue
                found = _claim(line, match, auditor)
                if found is not None:
                    yield found


def _claim(line: int, match: re.Match[str], auditor: Auditor) -> Diagnostic | None:
    """The finding when the release `match` links to contradicts every pin of its repository."""
    repo, ref = match.group("repo"), match.group("ref")
    agrees, fact = auditor.verdict(repo, "==", ref)
    if agrees is not False or fact is None or fact.default or fact.unpinned:
        return None
    target = match.group(0)
    message = (
        f"README links to {repo} at {ref} ({target}) as what the image holds, but "
        f"{auditor.where(fact)} installs {fact.shown}: the linked files are another release's"
    )
    return Diagnostic(auditor.path, line, message, confidence=LIKELY)
