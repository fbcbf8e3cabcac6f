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


# -- a program run to look at the container, or one the image holds, after a program ENTRYPOINT

# a ROCm llama.cpp server published under the name its OCI labels give; the README pulls, never builds
GFX = """\
ARG ROCM_VERSION=7.0-complete
FROM rocm/dev-ubuntu-24.04:${ROCM_VERSION}
LABEL org.opencontainers.image.title="llama-server-gfx" \\
      org.opencontainers.image.source="https://github.com/rdna-lab/gfx-llama-box"
RUN git clone https://github.com/ggml-org/llama.cpp /w/llama.cpp && cd /w/llama.cpp && \\
    cmake -B build -DGGML_HIP=ON && cmake --build build -j && \\
    cp build/bin/llama-* /usr/local/bin/ && rm -rf /w
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/llama-server"]
CMD ["--help"]
"""
GFX_README = """\
# llama.cpp for Radeon

```bash
docker pull rdna-lab/gfx-llama-box:latest
docker run -d --device=/dev/kfd --device=/dev/dri -p 8080:8080 rdna-lab/gfx-llama-box:latest \\
  --model /data/m.gguf --host 0.0.0.0 --port 8080
docker run -it --device=/dev/kfd --entrypoint llama-cli rdna-lab/gfx-llama-box:latest -m /data/m.gguf
```

## Troubleshooting

```bash
# Is the GPU visible?
docker run --rm --device=/dev/kfd --device=/dev/dri rdna-lab/gfx-llama-box:latest rocminfo
docker run --rm --device=/dev/kfd --device=/dev/dri rocm/dev-ubuntu-24.04:7.0-complete rocminfo
docker run --rm --device=/dev/kfd --entrypoint rocm-smi rdna-lab/gfx-llama-box:latest
# Benchmark
docker run --rm --device=/dev/kfd rdna-lab/gfx-llama-box:latest llama-bench -m /data/m.gguf
```
"""
# a CUDA command-line tool whose ENTRYPOINT is its Python CLI, built by the README
CLI = """\
FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y python3 python3-pip
COPY cli.py /app/cli.py
ENTRYPOINT ["python3", "/app/cli.py"]
"""
CLI_README = """\
# Transcriber

```bash
docker build -t acme/transcriber .
docker run --gpus all -v "$PWD:/data" acme/transcriber transcribe /data/talk.wav
docker run --gpus all -v "$PWD:/data" acme/transcriber /data/talk.wav
docker run --gpus all acme/transcriber nvidia-smi
docker run -it --gpus all acme/transcriber /bin/bash
```
"""


def meant(root: Path, readme: str, dockerfile: str) -> list[str]:
    return [f for f in found(root, readme, dockerfile) if "--entrypoint" in f.rsplit("(use ", 1)[-1]]


def test_a_published_image_named_by_its_labels_given_a_program(tmp_path: Path) -> None:
    got = meant(tmp_path, GFX_README, GFX)
    assert len(got) == 2, got
    assert got[0] == (
        "14: README runs rdna-lab/gfx-llama-box:latest rocminfo …, meaning rocminfo, but Dockerfile:9 sets "
        'ENTRYPOINT ["/usr/local/bin/llama-server"]: docker appends the words after the image to it, so the '
        "container runs /usr/local/bin/llama-server rocminfo … and rocminfo never starts (use --entrypoint "
        "rocminfo) (likely)"
    )
    # a program the RUN copies onto the PATH (`cp build/bin/llama-* /usr/local/bin/`)
    assert got[1].startswith(
        "18: README runs rdna-lab/gfx-llama-box:latest llama-bench …, meaning llama-bench"
    )
    assert "and llama-bench (Dockerfile:5) never starts" in got[1] and got[1].endswith("(likely)")


def test_the_readmes_own_image_given_a_program_to_look_at_it(tmp_path: Path) -> None:
    got = meant(tmp_path, CLI_README, CLI)
    assert [g.split(",", 1)[0] for g in got] == [
        "7: README runs acme/transcriber nvidia-smi …",
        "8: README runs acme/transcriber /bin/bash …",
    ]
    assert all(g.endswith("(likely)") for g in got)


def test_a_program_the_readme_runs_with_entrypoint_elsewhere(tmp_path: Path) -> None:
    readme = GFX_README.replace("latest llama-bench -m", "latest llama-cli -m")
    dockerfile = GFX.replace(
        "cp build/bin/llama-* /usr/local/bin/", "cp build/bin/llama-server /usr/local/bin/"
    )
    got = meant(tmp_path, readme, dockerfile)
    assert any("and llama-cli (line 7 runs it with --entrypoint) never starts" in g for g in got), got


@pytest.mark.parametrize(
    "entrypoint",
    [
        'ENTRYPOINT ["/usr/bin/tini", "--", "llama-server"]',  # a wrapper runs its arguments
        'ENTRYPOINT ["/opt/nvidia/nvidia_entrypoint.sh"]',  # a script may `exec "$@"`
        'ENTRYPOINT ["mpirun", "--allow-run-as-root", "-np", "2"]',  # runs the command it is given
        'ENTRYPOINT ["/usr/local/bin/llama-launcher"]',  # a wrapper by its name
        'ENTRYPOINT ["/bin/bash", "-c"]',
        "ENTRYPOINT /usr/local/bin/llama-server",  # the shell form: the words are dropped, not passed
        'ENTRYPOINT ["python3", "-m"]',  # the next word is the option's value (a module)
    ],
)
def test_entrypoints_that_run_the_program_or_take_the_word(tmp_path: Path, entrypoint: str) -> None:
    dockerfile = GFX.replace('ENTRYPOINT ["/usr/local/bin/llama-server"]', entrypoint)
    assert meant(tmp_path, GFX_README, dockerfile) == []


def test_a_program_a_run_writes_may_run_its_arguments(tmp_path: Path) -> None:
    dockerfile = GFX.replace(
        'ENTRYPOINT ["/usr/local/bin/llama-server"]',
        "RUN printf '#!/bin/sh\\nexec \"$@\"\\n' > /usr/local/bin/gpu-env"
        " && chmod +x /usr/local/bin/gpu-env\n"
        'ENTRYPOINT ["/usr/local/bin/gpu-env"]',
    )
    assert meant(tmp_path, GFX_README, dockerfile) == []


# an Ollama-like program whose words are its subcommands
SUBCOMMANDS = """\
FROM ubuntu:24.04
COPY --from=build /out/llmd /usr/bin/llmd
ENTRYPOINT ["/usr/bin/llmd"]
CMD ["serve"]
"""


@pytest.mark.parametrize(
    "run",
    [
        "docker run -d acme/llmd serve",  # a subcommand
        "docker run --rm acme/llmd pull tiny-model",
        "docker run --rm -v $PWD:/d acme/llmd /d/model.bin",  # a file, not a program of the PATH
        "docker run --rm --entrypoint nvidia-smi acme/llmd",  # the program run as the entrypoint
        "docker run --rm acme/llmd --version",
    ],
)
def test_words_the_entrypoint_program_takes(tmp_path: Path, run: str) -> None:
    readme = f"# llmd\n\n```bash\ndocker build -t acme/llmd .\n{run}\n```\n"
    assert meant(tmp_path, readme, SUBCOMMANDS) == []


def test_an_image_no_name_ties_to_the_dockerfile(tmp_path: Path) -> None:
    dockerfile = GFX.replace("gfx-llama-box", "other-box").replace("llama-server-gfx", "other")
    assert meant(tmp_path, GFX_README, dockerfile) == []
