# syntax=docker/dockerfile:1
# SGLang serving image for AMD Instinct GPUs. Written for docgen's tests in the style of public ROCm
# serving images; not a copy of any of them.
ARG BASE_IMAGE=rocm/dev-ubuntu-22.04:6.4.1-complete
FROM ${BASE_IMAGE} AS base
# GPU_ARCH GPU architectures the kernels are compiled for.
ARG GPU_ARCH="gfx942;gfx950"
ENV PYTORCH_ROCM_ARCH=${GPU_ARCH} \
    GPU_TARGETS="gfx942" \
    HIP_ARCHITECTURES="gfx942;gfx950" \
    ROCM_PATH=/opt/rocm \
    PATH=/opt/rocm/bin:${PATH}

RUN apt-get update && apt-get install -y --no-install-recommends \
        git curl vim cmake ninja-build libopenmpi-dev rocm-dev hipblaslt-dev \
    && rm -rf /var/lib/apt/lists/*

RUN pip install --upgrade pip setuptools wheel \
    && pip install --pre torch torchvision --index-url https://download.pytorch.org/whl/nightly/rocm6.4

# AITER_COMMIT aiter commit to build.
ARG AITER_COMMIT=9a1b2c3d4e5f
RUN git clone https://github.com/ROCm/aiter.git /opt/aiter \
    && cd /opt/aiter && git checkout ${AITER_COMMIT} \
    && git submodule update --init \
    && GPU_ARCHS=${GPU_ARCH} python setup.py develop

# TRITON_COMMIT Triton (ROCm fork) commit with the ROCm kernels.
ARG TRITON_COMMIT=8f3e1a2b
RUN git clone https://github.com/ROCm/triton.git /opt/triton \
    && cd /opt/triton && git checkout ${TRITON_COMMIT} \
    && cd python && pip install -v .

# SGLANG_VERSION SGLang release tag.
ARG SGLANG_VERSION=v0.5.2
RUN git clone -b ${SGLANG_VERSION} https://github.com/sgl-project/sglang.git /sgl-workspace/sglang \
    && cd /sgl-workspace/sglang \
    && pip install -e "python[all_hip]" \
    && pip install -U -q "outlines==0.1.11" xgrammar orjson uvloop pybase64

ARG MOONCAKE_ARCH=x86_64
RUN curl -fsSLO "https://github.com/kvcache-ai/Mooncake/releases/download/v0.3.5/mooncake_transfer_engine-0.3.5-cp310-cp310-manylinux_2_35_${MOONCAKE_ARCH}.whl"
