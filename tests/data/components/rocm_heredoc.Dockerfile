# syntax=docker/dockerfile:1
# ROCm image with heredoc scripts, a clone and a checkout in separate RUNs, and exec-form RUN.
ARG BASE_IMAGE=rocm/dev-ubuntu-22.04:6.2.4-complete
FROM ${BASE_IMAGE} AS base
ARG ROCM_VERSION=6.2.4
ARG AMDGPU_VERSION=6.2.4
ARG CMAKE_VERSION=3.27.9

RUN <<EOF
set -eux
mkdir -p /etc/apt/keyrings
curl -fsSL https://repo.radeon.com/rocm/rocm.gpg.key | gpg --dearmor -o /etc/apt/keyrings/rocm.gpg
cat > /etc/apt/sources.list.d/rocm.list <<EOT
deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/rocm/apt/${ROCM_VERSION} jammy main
EOT
echo "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/amdgpu/${AMDGPU_VERSION}/ubuntu jammy main" | tee /etc/apt/sources.list.d/amdgpu.list
apt-get update
apt-get install -y rocm-dev rccl=2.20.5.60204-139~22.04 hipblaslt
EOF

RUN <<-'EOF' bash
	V=${CMAKE_VERSION}
	wget -q https://github.com/Kitware/CMake/releases/download/v${V}/cmake-${V}-linux-x86_64.tar.gz
	tar xf cmake-${V}-linux-x86_64.tar.gz -C /usr/local --strip-components=1
EOF

FROM base AS torch
ARG PYTORCH_ROCM_WHEELS=https://repo.radeon.com/rocm/manylinux/rocm-rel-6.2.4
RUN pip install ${PYTORCH_ROCM_WHEELS}/torch-2.3.0%2Brocm6.2.4-cp310-cp310-linux_x86_64.whl \
        ${PYTORCH_ROCM_WHEELS}/pytorch_triton_rocm-2.3.0%2Brocm6.2.4.7de3bbf6cd-cp310-cp310-linux_x86_64.whl
RUN ["pip", "install", "--no-cache-dir", "ninja==1.11.1.1", "packaging"]
RUN ["/bin/bash", "-c", "pip install einops==0.8.0 && pip install pybind11"]

FROM torch AS te
ARG TE_REPO=https://github.com/ROCm/TransformerEngine.git
ARG TE_BRANCH=release_v1.9_rocm
RUN git clone --recursive ${TE_REPO} /src/te
RUN cd /src/te && git checkout ${TE_BRANCH} && pip install .

FROM torch AS fa
ARG FA_COMMIT=3cea2fb6ee3cc8d4c6e9f6b8de4b5cfd03f2ec18
RUN git clone https://github.com/ROCm/flash-attention.git \
    && git -C flash-attention checkout ${FA_COMMIT} \
    && cd flash-attention \
    && GPU_ARCHS=gfx942 python setup.py install

FROM torch AS ck
RUN mkdir -p /src/ck && cd /src/ck \
    && git init \
    && git remote add origin https://github.com/ROCm/composable_kernel.git \
    && git fetch --depth 1 origin 8ee36118cfd6a5f5e7a3a0e4e6f8a5a3c4f0b1d2 \
    && git checkout FETCH_HEAD \
    && cmake -B build . && make -C build -j

FROM torch AS final
ARG TRITON_BRANCH=main
RUN git clone -b ${TRITON_BRANCH} --depth 1 https://github.com/triton-lang/triton.git /opt/triton \
    && cd /opt/triton/python && pip install -e .
ADD --checksum=sha256:24454f5e3d04db4b8d3fc69d5f3f5a3fbe3dc4d5b4e3c0d1a2b3c4d5e6f7a8b9 \
    https://github.com/NVIDIA/nccl-tests/archive/refs/tags/v2.13.9.tar.gz /tmp/nccl-tests.tar.gz
ADD https://github.com/ROCm/rocm_smi_lib.git#rocm-6.2.4 /src/rocm_smi_lib
COPY --from=base /usr/local/bin/cmake /usr/local/bin/cmake
RUN conda install -y -c conda-forge openmpi=4.1.6
