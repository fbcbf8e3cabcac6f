# syntax=docker/dockerfile:1
# RL training image on CUDA 12.6: PyTorch, vLLM, Flash Attention, TransformerEngine, Megatron-core and
# verl. Written for docgen's tests in the style of public training images; not a copy of any of them.
ARG CUDA_VERSION=12.6.3
FROM nvidia/cuda:${CUDA_VERSION}-cudnn-devel-ubuntu22.04 AS base
# PYTHON_VERSION Python from the deadsnakes PPA.
ARG PYTHON_VERSION=3.11
ENV DEBIAN_FRONTEND=noninteractive \
    TORCH_CUDA_ARCH_LIST="8.0;9.0" \
    CMAKE_CUDA_ARCHITECTURES="80;90;100"

RUN apt-get update \
    && apt-get install -y --no-install-recommends software-properties-common \
    && add-apt-repository -y ppa:deadsnakes/ppa \
    && apt-get update \
    && apt-get install -y --no-install-recommends \
        git curl wget vim ca-certificates build-essential ninja-build \
        libibverbs-dev rdma-core numactl libnuma-dev \
        python3.11 python3.11-dev python3.11-venv \
    && rm -rf /var/lib/apt/lists/*

RUN update-alternatives --install /usr/bin/python3 python3 /usr/bin/python3.11 1 \
    && curl -sS https://bootstrap.pypa.io/get-pip.py | python3.11 \
    && python3.11 -m pip install --upgrade pip setuptools wheel packaging ninja cmake

# MINIFORGE_VERSION Miniforge installer release (conda tools for the data scripts).
ARG MINIFORGE_VERSION=24.11.3-0
RUN ARCH=$(uname -m) \
    && curl -fsSL -o /tmp/miniforge.sh \
        "https://github.com/conda-forge/miniforge/releases/download/${MINIFORGE_VERSION}/Miniforge3-${MINIFORGE_VERSION}-Linux-${ARCH}.sh" \
    && bash /tmp/miniforge.sh -b -p /opt/conda \
    && rm /tmp/miniforge.sh
ENV PATH=/opt/conda/bin:${PATH} \
    LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH}

FROM base AS frameworks
# TORCH_VERSION PyTorch release (CUDA 12.6 wheels).
ARG TORCH_VERSION=2.7.1
# VLLM_VERSION vLLM release.
ARG VLLM_VERSION=0.10.1
RUN python3.11 -m pip install torch==${TORCH_VERSION} torchvision torchaudio \
        --index-url https://download.pytorch.org/whl/cu126 \
    && python3.11 -m pip install vllm==${VLLM_VERSION} \
    && python3.11 -m pip install "transformers>=4.55" accelerate datasets peft hydra-core "ray[default]" wandb

# FA_VERSION Flash Attention release tag.
ARG FA_VERSION=v2.8.1
RUN git clone --depth 1 -b ${FA_VERSION} https://github.com/Dao-AILab/flash-attention.git /tmp/fa \
    && cd /tmp/fa \
    && MAX_JOBS=16 python3.11 -m pip install -v -no-build-isolation . \
    && rm -rf /tmp/fa

# TE_TAG TransformerEngine release tag.
ARG TE_TAG=v2.6
RUN NVTE_FRAMEWORK=pytorch python3.11 -m pip install --no-build-isolation \
        "git+https://github.com/NVIDIA/TransformerEngine.git@${TE_TAG}"

COPY requirements.txt /tmp/requirements.txt
RUN python3.11 -m pip install megatron-core==0.13.0 \
    && python3.11 -m pip install -r /tmp/requirements.txt

FROM frameworks AS app
# VERL_COMMIT verl commit to install.
ARG VERL_COMMIT=3c7b5e1f0a9d
RUN git clone https://github.com/verl-project/verl.git /opt/verl \
    && cd /opt/verl \
    && git checkout ${VERL_COMMIT} \
    && python3.11 -m pip install --no-deps -e .
RUN ln -sf /usr/bin/python3.11 /usr/local/bin/python
