# An RL-training image on a CUDA devel base: vLLM, TransformerEngine, Megatron, DeepEP.
FROM nvidia/cuda:12.8.1-devel-ubuntu22.04

ARG DEBIAN_FRONTEND=noninteractive
# renovate: datasource=github-tags depName=volcengine/verl
ARG VERL_VERSION=v0.6.1
# =========================
# Install DeepEP
# =========================
ARG DEEPEP_COMMIT=b92d0d4
# hadolint ignore=DL3008
ARG NCCL_VERSION=2.27.3

RUN apt-get update && apt-get install -y --no-install-recommends \
      git=1:2.34.1-1ubuntu1.12 \
      curl \
      libnuma-dev \
      cuda-toolkit-12-8 \
    && apt-get purge -y curl \
    && apt-get autoremove -y \
    && rm -rf /var/lib/apt/lists/*

RUN pip3 install --resume-retries 999 --no-build-isolation \
      torch==2.7.1 torchvision==0.22.1 --index-url https://download.pytorch.org/whl/cu128

RUN pip3 install --progress-bar off --retries 10 --timeout 60 vllm==0.10.1.1

RUN export NVTE_FRAMEWORK=pytorch && pip3 install --resume-retries 999 --no-build-isolation \
      git+https://github.com/NVIDIA/TransformerEngine.git@release_v2.6

RUN pip3 install --no-deps git+https://github.com/NVIDIA/Megatron-LM.git@core_v0.13.0

RUN pip3 install flash_attn==2.8.1 --no-build-isolation && pip3 install flash_attn==2.8.1 --no-build-isolation

RUN pip3 install "git+https://github.com/volcengine/verl.git@${VERL_VERSION}" && \
    pip3 uninstall -y verl

WORKDIR /opt
RUN git clone https://github.com/deepseek-ai/DeepEP.git && cd DeepEP && git checkout ${DEEPEP_COMMIT} \
    && bash install_nccl.sh --NCCL_VER=${NCCL_VERSION} \
    && ./install_deepep.sh 1.2.1

RUN git clone -b core_r0.16.0 https://github.com/NVIDIA/Megatron-LM.git /opt/megatron-docs \
    && pip3 install -r /opt/megatron-docs/requirements/pytorch_lts/requirements.txt \
    && rm -rf /opt/megatron-docs
