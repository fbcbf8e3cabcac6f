ARG BASE_IMAGE=rocm/dev-ubuntu-22.04:6.4.1-complete
FROM ${BASE_IMAGE} AS base

ARG ROCM_VERSION=6.4.1
ARG PYTORCH_BRANCH=release/2.7
ARG TRITON_BRANCH=r3.3

RUN mkdir -p /etc/apt/keyrings \
    && echo "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/rocm/apt/6.4.1 jammy main" \
       > /etc/apt/sources.list.d/rocm.list \
    && echo "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/amdgpu/6.4.1/ubuntu jammy main" \
       > /etc/apt/sources.list.d/amdgpu.list \
    && apt-get update && apt-get install -y rocm-dev hipblaslt

RUN git clone --depth 1 -b ${PYTORCH_BRANCH} https://github.com/ROCm/pytorch.git /src/pytorch \
    && cd /src/pytorch && python3 setup.py install

RUN git clone -b ${TRITON_BRANCH} https://github.com/triton-lang/triton.git /src/triton \
    && cd /src/triton/python && pip install . \
    && cd / && rm -rf /src/triton

RUN git clone https://github.com/ROCm/rocm-docs.git /src/docs && rm -rf /src/docs

FROM base AS final
RUN pip uninstall -y triton && pip install triton==3.3.1
RUN conda install -y -c conda-forge numactl=2.0.18 && conda remove -y numactl
RUN pip install --upgrade pip setuptools wheel && pip install -e . --no-deps
