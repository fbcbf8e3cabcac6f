"""Versions in the file names of Python packages a README names (`torch-2.8.0+rocm6.4`,
`flash_attn-2.7.4.post1-cp312-cp312-linux_x86_64.whl`, `vllm-0.9.1.tar.gz`): each is a version claim
about that package, compared with what the Dockerfile pins (an exact pin, a wheel URL, the default of
its `<PKG>_VERSION` build arg).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor
from docgen.audit.wording import is_example
from docgen.model import Diagnostic

_WHEEL_NAME = re.compile(
    r"(?<![\w./:@=-])([A-Za-z][A-Za-z0-9_]*[A-Za-z0-9])-(\d+(?:\.\d+){1,3}(?:\.?(?:post|dev|rc|a|b)\d+)?)"
    r"(?:(\+[A-Za-z][A-Za-z0-9.]*[A-Za-z0-9])(?:-[\w.]+){0,3}?(\.whl)?"
    r"|(?:-[\w.]+){2,3}?(\.whl)|(\.tar\.gz))(?![\w+-])"
)
"""A package file name: `name-version+local` (a build for one accelerator, `torch-2.8.0+rocm6.4`), with
a wheel's tags (`…-cp312-cp312-linux_x86_64.whl`), or an sdist (`name-version.tar.gz`). The name is a
wheel's (no `-`: `flash_attn`), so `rocm-6.4` or `ubuntu-22.04` in prose is no file name."""


def wheel_name_claims(line: int, text: str, auditor: Auditor) -> Iterator[Diagnostic]:
    """The version a package file name in `text` carries, where it contradicts every pin of that
    package in the image (`likely`: the README may show the file an older release used)."""
    if "-" not in text:
        return
    for match in _WHEEL_NAME.finditer(text):
        if is_example(text, match):
            continue
        name, version = match.group(1), match.group(2)
        problem = auditor.version_claim(line, name.replace("_", "-"), "==", version, LIKELY)
        if problem is not None:
            yield problem
