"""`docgen.audit.run_args.other_programs`: a `docker run` (or `podman run`) of the README's own image meant
for another program the image copies into a folder of the PATH than the one its exec-form ENTRYPOINT
starts — by naming it right after the image (`IMAGE ogr2ogr …`: `certain`) or by a comment above a run
passing options (`# Quantize model` over `IMAGE -q …`: `likely`) — is a finding; `--entrypoint`, a
comment naming the ENTRYPOINT's own task or several programs, a wrapper or script ENTRYPOINT, and an
image the README does not build are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

LLAMA = """\
FROM rocm/dev-ubuntu-24.04 AS builder
RUN git clone https://github.com/ggml-org/llama.cpp /src && cmake -S /src -B /b && cmake --build /b
RUN cp /b/bin/llama-* /usr/local/bin/

FROM rocm/dev-ubuntu-24.04
COPY --from=builder /usr/local/bin/llama-server /usr/local/bin/
COPY --from=builder /usr/local/bin/llama-quantize /usr/local/bin/
COPY --from=builder /usr/local/bin/llama-bench /usr/local/bin/
COPY --from=builder /usr/local/bin/llama-convert-pth /usr/local/bin/
COPY --from=builder /usr/local/bin/llama-convert-hf /usr/local/bin/
WORKDIR /models
ENTRYPOINT ["llama-server"]
CMD []
"""
LLAMA_README = """\
# llama on ROCm

```bash
podman build -t llama-rocm:latest .
```

## Examples

```bash
# Start the server
podman run -p 8080:8080 localhost/llama-rocm:latest -m /models/m.gguf --port 8080

# Quantize a model
podman run -v /models:/models:Z \\
  localhost/llama-rocm:latest \\
  -q /models/m-f16.gguf /models/m-q4.gguf 4

# Benchmark
podman run -v /models:/models:Z localhost/llama-rocm:latest llama-bench -m /models/m.gguf

# Quantize with the right program
podman run --entrypoint llama-quantize -v /models:/models localhost/llama-rocm:latest m.gguf q.gguf 4

# Convert a model
podman run -v /models:/models localhost/llama-rocm:latest --in /models/m.pth

# Serve with a bigger batch (the server's own option)
podman run localhost/llama-rocm:latest -b 512 -m /models/m.gguf
```
"""
GDAL = """\
FROM ubuntu:24.04 AS build
RUN apt-get update && apt-get install -y build-essential cmake
RUN cmake -S /src -B /out && cmake --build /out
FROM ubuntu:24.04
COPY --from=build /out/apps/gdalinfo /usr/local/bin/gdalinfo
COPY --from=build /out/apps/ogr2ogr /usr/local/bin/ogr2ogr
ENTRYPOINT ["gdalinfo"]
"""
GDAL_README = """\
# geo-tools

```sh
docker build -t org/geo-tools .
```

Inspect a raster:

```sh
docker run --rm -v "$PWD:/d" org/geo-tools /d/dem.tif
```

Convert a shapefile:

```sh
docker run --rm -v "$PWD:/d" org/geo-tools ogr2ogr -f GeoJSON /d/out.json /d/in.shp
docker run --rm -v "$PWD:/d" osgeo/gdal ogr2ogr -f GeoJSON /d/out.json /d/in.shp
```
"""


def found(root: Path, readme: str, dockerfile: str, extra: dict[str, str] | None = None) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile, **(extra or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, root, root)
        if "never starts" in d.message
    ]


def test_llama_runs_meant_for_other_programs(tmp_path: Path) -> None:
    got = found(tmp_path, LLAMA_README, LLAMA)
    assert len(got) == 2, got
    assert got[0].startswith(
        '15: README runs localhost/llama-rocm:latest -q /models/m-f16.gguf … under "# Quantize'
    )
    assert "meaning llama-quantize" in got[0] and 'ENTRYPOINT ["llama-server"]' in got[0]
    assert "Dockerfile:7" in got[0] and got[0].endswith("(likely)")
    assert got[1].startswith("19: README runs localhost/llama-rocm:latest llama-bench …")
    assert got[1].endswith("(certain)")


def test_other_program_named_after_the_image(tmp_path: Path) -> None:
    got = found(tmp_path, GDAL_README, GDAL)
    assert len(got) == 1, got
    assert got[0].startswith("16: README runs org/geo-tools ogr2ogr …, meaning ogr2ogr")
    assert "Dockerfile:6" in got[0] and got[0].endswith("(certain)")


@pytest.mark.parametrize(
    "entrypoint",
    [
        'ENTRYPOINT ["tini", "--"]',  # a wrapper runs its arguments as a command
        'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]',  # a script may `exec "$@"`
        "ENTRYPOINT gdalinfo",  # the shell form
        "",  # no ENTRYPOINT: the words replace CMD
    ],
)
def test_entrypoints_that_run_the_words(tmp_path: Path, entrypoint: str) -> None:
    dockerfile = GDAL.replace('ENTRYPOINT ["gdalinfo"]', entrypoint)
    assert found(tmp_path, GDAL_README, dockerfile) == []


def test_image_the_readme_does_not_build(tmp_path: Path) -> None:
    readme = LLAMA_README.replace("podman build -t llama-rocm:latest .", "podman pull ghcr.io/x/llama-rocm")
    assert found(tmp_path, readme, LLAMA) == []


def test_comment_naming_no_program_of_the_image(tmp_path: Path) -> None:
    readme = LLAMA_README.replace("# Quantize a model", "# Load a model from the volume")
    got = found(tmp_path, readme, LLAMA)
    assert [g[:3] for g in got] == ["19:"], got
