# Megatron training image on an NGC PyTorch release
ARG FROM_IMAGE=nvcr.io/nvidia/pytorch:25.04-py3
FROM ${FROM_IMAGE}

# renovate: datasource=github-tags depName=NVIDIA/TransformerEngine
ARG TE_TAG=v2.4
# =====================
# Megatron-LM
# =====================
ARG MCORE_BRANCH=core_r0.12.0
ARG APEX_COMMIT=0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c

RUN pip uninstall -y transformer-engine && \
    NVTE_FRAMEWORK=pytorch pip install --no-build-isolation --resume-retries 999 \
      git+https://github.com/NVIDIA/TransformerEngine.git@${TE_TAG}

RUN git clone -b ${MCORE_BRANCH} https://github.com/NVIDIA/Megatron-LM.git /opt/megatron-lm \
    && pip install --no-deps -e /opt/megatron-lm

RUN git clone https://github.com/NVIDIA/apex.git /tmp/apex && cd /tmp/apex && git checkout ${APEX_COMMIT} \
    && pip install -v --no-build-isolation --config-settings "--build-option=--cpp_ext" . \
    && cd / && rm -rf /tmp/apex

RUN pip install --no-cache-dir --progress-bar off --retries 10 \
      "transformers>=4.51,<4.53" accelerate==1.7.0 datasets==3.6.0 \
    && pip install --upgrade accelerate

RUN apt-get update && apt-get install -y --no-install-recommends \
      git=1:2.43.0-1ubuntu7.3 openssh-client=1:9.6p1-3ubuntu13.12 \
    && apt-get purge -y --auto-remove openssh-client && rm -rf /var/lib/apt/lists/*

RUN uv pip install --system --exclude-newer 2025-06-01 --python-platform x86_64-manylinux_2_28 nvidia-resiliency-ext==0.4.1
