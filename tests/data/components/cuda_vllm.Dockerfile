# syntax=docker/dockerfile:1.7
# A CUDA image for an inference engine built from a pinned commit.
ARG CUDA_VERSION=12.4.1
ARG PYTHON_VERSION=3.12
ARG BASE_IMAGE=nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04

FROM ${BASE_IMAGE} AS base
ARG CUDA_VERSION
ARG PYTHON_VERSION
ENV DEBIAN_FRONTEND=noninteractive

RUN echo 'tzdata tzdata/Areas select Etc' | debconf-set-selections \
    && apt-get update -y \
    && apt-get install -y sudo curl git ccache software-properties-common \
    && add-apt-repository ppa:deadsnakes/ppa \
    && apt-get update -y \
    && apt-get install -y python${PYTHON_VERSION}-dev python${PYTHON_VERSION}-venv python${PYTHON_VERSION} \
    && update-alternatives --install /usr/bin/python3 python3 /usr/bin/python${PYTHON_VERSION} 50 \
    && curl -fsS https://bootstrap.pypa.io/get-pip.py | python${PYTHON_VERSION}

COPY --from=ghcr.io/astral-sh/uv:0.5.11 /uv /uvx /bin/

# cuDNN and NCCL pinned from NVIDIA's repository
RUN apt-get install -y --no-install-recommends --allow-change-held-packages \
        libcudnn9-cuda-12=9.1.0.70-1 libnccl2=2.21.5-1+cuda12.4 libnccl-dev=2.21.5-1+cuda12.4

ARG TORCH_CUDA_ARCH_LIST="7.0 7.5 8.0 8.6 8.9 9.0+PTX"
ENV TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST}
ARG TORCH_VERSION=2.5.1
RUN --mount=type=cache,target=/root/.cache/uv \
    uv pip install --system torch==${TORCH_VERSION} torchvision==0.20.1 \
        --index-url https://download.pytorch.org/whl/cu124

FROM base AS build
ARG VLLM_COMMIT=ed6e9075d31e32c8548b480a47d1ffb77da1f54c
RUN git clone https://github.com/vllm-project/vllm.git /workspace/vllm
WORKDIR /workspace/vllm
RUN git checkout ${VLLM_COMMIT} \
    && python3 use_existing_torch.py \
    && uv pip install --system -r requirements-build.txt \
    && MAX_JOBS=${MAX_JOBS:-$(nproc)} python3 setup.py bdist_wheel --dist-dir=dist

FROM base AS flash
ARG FLASH_ATTN_VERSION=2.6.3
RUN pip install "flash-attn==${FLASH_ATTN_VERSION}" --no-build-isolation \
    && pip install "a==1" 'b>=2' c \
    && pip install "xformers>=0.0.28,<0.1" 'numpy<2'

FROM base AS final
RUN --mount=type=bind,from=build,src=/workspace/vllm/dist,target=/dist \
    uv pip install --system /dist/*.whl
RUN --mount=type=bind,from=nvcr.io/nvidia/pytorch:24.05-py3,source=/opt,target=/mnt/ngc \
    cp -r /mnt/ngc/hpcx /opt/
RUN pip install https://github.com/flashinfer-ai/flashinfer/releases/download/v0.1.6/flashinfer-0.1.6+cu124torch2.4-cp312-cp312-linux_x86_64.whl#sha256=0123456789abcdef \
    && pip install "https://download.pytorch.org/whl/cu124/torchaudio-2.5.1%2Bcu124-cp312-cp312-linux_x86_64.whl" \
    && pip install bitsandbytes==0.44.1 "transformers[torch]==4.46.3" accelerate
RUN pip install "git+https://github.com/huggingface/peft.git@v0.13.2#egg=peft" \
    && pip install "deepspeed @ git+https://github.com/microsoft/DeepSpeed.git@0c6c981" \
    && pip install git+https://github.com/Dao-AILab/causal-conv1d.git
