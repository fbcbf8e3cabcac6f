ARG BASE_IMAGE=rocm/dev-ubuntu-22.04:7.0.2-complete
ARG TRITON_REF="c0ffee12"
ARG TRITON_URL="https://github.com/ROCm/triton.git"
ARG TORCH_REF="a1b2c3d4" # release/2.9 as of last month
ARG TORCH_URL="https://github.com/ROCm/pytorch.git"
ARG VISION_REF="v0.24.0"
ARG FA_REF="5e6f7a8b"
ARG AITER_REF="v0.1.9.post1"

FROM ${BASE_IMAGE} AS base
ARG PYTHON_VERSION=3.12
RUN apt-get update -y && apt-get install -y software-properties-common git curl \
    && for i in 1 2 3; do add-apt-repository -y ppa:deadsnakes/ppa && break || sleep 5; done \
    && apt-get update -y && apt-get install -y python${PYTHON_VERSION} python${PYTHON_VERSION}-dev
RUN pip install -U packaging 'cmake<4' ninja 'setuptools<80'

FROM base AS build_triton
ARG TRITON_REF
ARG TRITON_URL
RUN git clone ${TRITON_URL}
RUN cd triton && git checkout ${TRITON_REF} && git cherry-pick 1234abc \
    && cd python && python3 setup.py bdist_wheel --dist-dir=dist && mkdir -p /app/install && cp dist/*.whl /app/install

FROM base AS build_torch
ARG TORCH_REF
ARG TORCH_URL
ARG VISION_REF
RUN git clone ${TORCH_URL} pytorch
RUN cd pytorch && git checkout ${TORCH_REF} && pip install -r requirements.txt
RUN cd pytorch/third_party/kineto && git remote add rocm https://github.com/ROCm/kineto && git fetch rocm && git checkout 9f8e7d6
RUN cd pytorch && python3 setup.py bdist_wheel --dist-dir=dist && pip install dist/*.whl
RUN git clone https://github.com/pytorch/vision.git vision && cd vision && git checkout ${VISION_REF} \
    && python3 setup.py bdist_wheel --dist-dir=dist
RUN mkdir -p /app/install && cp pytorch/dist/*.whl vision/dist/*.whl /app/install

FROM base AS build_fa
ARG FA_REF
RUN git clone https://github.com/Dao-AILab/flash-attention.git && cd flash-attention && git checkout ${FA_REF} \
    && python3 setup.py bdist_wheel --dist-dir=dist && cp dist/*.whl /app/ && cd .. && rm -rf flash-attention

FROM base AS build_aiter
ARG AITER_REF
RUN git clone --recursive https://github.com/ROCm/aiter.git
RUN cd aiter && git checkout ${AITER_REF} && pip install -r requirements.txt \
    && PREBUILD_KERNELS=1 python3 setup.py bdist_wheel --dist-dir=dist

FROM base AS final
RUN --mount=type=bind,from=build_torch,src=/app/install,target=/install pip install /install/*.whl
RUN pip uninstall -y pytorch-triton-rocm && pip install --resume-retries 3 amdsmi==7.0.2
