"""Which base images are plain: an OS or a language image whose folders are the system's own, so a
path elsewhere is in the image only when the Dockerfile puts it there (`included_paths`,
`spelled_folders`, `rehomed_mounts`, `ssh_access`, `early_reads`)."""

from __future__ import annotations

from docgen.audit.commands import image_repository
from docgen.model import ImageModel

_PLAIN_BASES = frozenset(
    "ubuntu debian alpine centos rockylinux almalinux fedora amazonlinux oraclelinux opensuse/leap"
    " archlinux busybox python nvidia/cuda redhat/ubi8 redhat/ubi9 registry.access.redhat.com/ubi8"
    " registry.access.redhat.com/ubi9 library/ubuntu library/debian library/python".split()
)
"""Images whose folders are the system's and a language's own (`/usr/local/lib/python3.12`): a path
elsewhere is there only when the Dockerfile puts it there. The manylinux images count too (their
`/opt/python`, `/opt/_internal` and `/opt/rh` are in `included_paths._SYSTEM_TOPS`)."""


def root_base(model: ImageModel) -> str | None:
    """The image the last stage of `model` starts from, through the stages it builds on; None when not
    known."""
    stage = model.target
    seen = 0
    while stage is not None and stage.parent is not None and seen < len(model.stages):
        stage, seen = model.stages[stage.parent], seen + 1
    return stage.base if stage is not None and stage.parent is None and "$" not in stage.base else None


def plain_base(base: str) -> bool:
    """True when the base image `base` is a plain one (`_PLAIN_BASES`, a manylinux image)."""
    repo = image_repository(base.lower())
    return (
        repo in _PLAIN_BASES
        or repo.removeprefix("docker.io/") in _PLAIN_BASES
        or repo.startswith("quay.io/pypa/manylinux")  # AlmaLinux and the Pythons of /opt/python
    )
