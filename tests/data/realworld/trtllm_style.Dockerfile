# syntax=docker/dockerfile:1.7
# check=skip=InvalidDefaultArgInFrom
ARG BASE_IMAGE=nvcr.io/nvidia/pytorch
ARG BASE_TAG=25.06-py3
FROM ${BASE_IMAGE}:${BASE_TAG} AS base

# hadolint ignore=DL3008
ARG TRT_VER=10.11.0.33
ARG CUDA_VER=12.9
ARG NCCL_VER=2.27.5-1+cuda12.9
ARG GDRCOPY_TAG=v2.5
ARG PYTORCH_REPO_BRANCH=release/2.8

COPY docker/common/ /opt/docker/common/
RUN bash /opt/docker/common/install_tensorrt.sh --TRT_VER=${TRT_VER} --CUDA_VER=${CUDA_VER} --NCCL_VER=${NCCL_VER}
RUN bash /opt/docker/common/install_base.sh && bash /opt/docker/common/install_cmake.sh

RUN apt-get update && apt-get install -y --no-install-recommends \
      libibverbs-dev=39.0-1 rdma-core ccache=4.5.1-1 \
    && apt-get remove -y rdma-core && rm -rf /var/lib/apt/lists/*

RUN git clone --depth 1 -b ${GDRCOPY_TAG} https://github.com/NVIDIA/gdrcopy.git /tmp/gdrcopy \
    && make -C /tmp/gdrcopy prefix=/usr/local lib_install && rm -rf /tmp/gdrcopy

RUN pip3 uninstall -y torch-tensorrt && pip3 install --no-cache-dir --progress-bar off \
      --extra-index-url https://pypi.nvidia.com "nvidia-modelopt[torch]==0.33.0" cuda-python==12.9.0 \
    && pip3 install --resume-retries 5 --root-user-action ignore mpi4py==4.0.3

FROM base AS wheel
RUN git clone -b ${PYTORCH_REPO_BRANCH} https://github.com/pytorch/pytorch.git /src/pytorch-ref \
    && python3 /src/pytorch-ref/tools/print_version.py && rm -rf /src/pytorch-ref
RUN uv pip install --system --index-strategy unsafe-best-match --torch-backend cu129 \
      --upgrade-package tensorrt_llm tensorrt_llm==1.0.0 && uv pip install --system tensorrt_llm==1.0.0

FROM base AS release
COPY --from=wheel /usr/local/lib/python3.12/dist-packages /usr/local/lib/python3.12/dist-packages
RUN pip3 install --upgrade-strategy only-if-needed flashinfer-python==0.2.8 && pip3 install flashinfer-python==0.2.9
