"""The caches of what one audit reads from the project's files: a compose file's services, a Makefile's
rules, a Dockerfile's stages, a folder's texts.

An audit reads the same file for many checks, so each reader keeps what it read (`per_audit`, an
`functools.lru_cache`). Those caches are keyed by the path as the audit wrote it, often relative to the
working folder, and hold the file as it was read. `audit` empties them all when it starts (`forget`), so
a process that audits twice (a test run, a program calling `docgen.audit.audit`) never reads a file as
it was before an edit, nor `compose.yaml` of one folder as that of another. Readers of text alone (no
file) keep a plain `functools.lru_cache`: their answer never changes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

_R = TypeVar("_R")

_CACHES: list[functools._lru_cache_wrapper[Any]] = []


def per_audit(maxsize: int) -> Callable[[Callable[..., _R]], functools._lru_cache_wrapper[_R]]:
    """`functools.lru_cache(maxsize)` for a function that reads the project's files: emptied by
    `forget` when an audit starts."""

    def cached(func: Callable[..., _R]) -> functools._lru_cache_wrapper[_R]:
        wrapper = functools.lru_cache(maxsize=maxsize)(func)
        _CACHES.append(wrapper)
        return wrapper

    return cached


def forget() -> None:
    """Empty every `per_audit` cache: what the next audit reads, it reads from the files as they are."""
    for cache in _CACHES:
        cache.cache_clear()
