# CUDA serving image in the style of SGLang's: ENV that holds versions, python -m pip, extra indexes.
ARG CUDA_VERSION=12.1.1
FROM nvidia/cuda:${CUDA_VERSION}-cudnn8-devel-ubuntu22.04@sha256:0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9 AS base
ARG CUDA_VERSION
ARG BUILD_TYPE=all
ENV SGL_VERSION=0.4.0.post1 \
    FLASHINFER_VERSION=0.1.6 \
    PATH=/opt/conda/bin:$PATH
ARG TORCH_REF=v2.5.1
ENV TORCH_REF_ENV=${TORCH_REF}

RUN apt-get update -y && apt-get install -y --no-install-recommends \
        python3 python3-pip python3-dev libibverbs-dev=39.0-1 \
    && rm -rf /var/lib/apt/lists/*

RUN python3 -m pip install --upgrade pip setuptools==69.5.1 \
    && python3 -m pip install "sglang[${BUILD_TYPE}]==${SGL_VERSION}" \
        --extra-index-url https://download.pytorch.org/whl/cu121 \
    && python3 -m pip install flashinfer==${FLASHINFER_VERSION} -i https://flashinfer.ai/whl/cu121/torch2.4/ \
    && python3 -m pip install -r /tmp/requirements.txt -c /tmp/constraints.txt \
    && python3 -m pip install https://files.pythonhosted.org/packages/source/t/triton/triton-3.1.0.tar.gz \
    && uv pip install --system "vllm==0.6.4.post1" "outlines>=0.0.44,<0.1"

FROM base AS kernels
WORKDIR /build
RUN git clone --depth 1 --branch ${TORCH_REF_ENV} https://github.com/pytorch/pytorch.git \
    && cd pytorch && git submodule update --init --recursive \
    && USE_CUDA=1 python3 setup.py develop
RUN git clone https://github.com/NVIDIA/apex /build/apex
RUN cd /build/apex && git reset --hard 24.04.01 && pip install -v --no-build-isolation --config-settings "--build-option=--cpp_ext" ./
RUN git clone --recurse-submodules https://github.com/Dao-AILab/flash-attention.git --branch=v2.6.3 fa2 \
    && cd fa2/hopper && python setup.py install
ADD https://github.com/NVIDIA/cutlass/archive/refs/tags/v3.5.1.tar.gz /build/
ADD https://github.com/facebookresearch/xformers/archive/6e10bd21ac6fc878657b24684723ccd05e41d385.zip /build/
RUN wget -O /tmp/mft.deb "https://www.mellanox.com/downloads/MFT/mft-4.28.0-92-x86_64-deb.tgz" \
    && curl -L -o /tmp/nsight.run https://developer.nvidia.com/downloads/assets/tools/secure/nsight-systems/2024_4/NsightSystems-linux-public-2024.4.1.61-3431596.run \
    && bash -c "pip install 'huggingface_hub==0.26.2' && pip3 install --no-deps  sentencepiece==0.2.0"

FROM base AS final
COPY --from=kernels /build/fa2 /opt/fa2
COPY --from=0 /usr/lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu
RUN --mount=type=cache,target=/root/.cache/pip pip3 install \
    "torchao==0.6.1" \
    'jsonschema>=4' \
    pydantic \
    "xgrammar===0.1.4"
