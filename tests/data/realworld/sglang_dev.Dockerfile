ARG CUDA_VERSION=12.9.1
FROM nvidia/cuda:${CUDA_VERSION}-cudnn-devel-ubuntu22.04 AS base
ARG GDRCOPY_VERSION=2.5.1
ARG SGL_VERSION=0.5.5
ARG DEEPEP_COMMIT=9af0e0d0e74f3577af1979c9b9e1ac2cad0104ee
ARG GITHUB_ARTIFACTORY=github.com

RUN apt-get update && apt-get install -y --no-install-recommends \
      tzdata curl wget git-lfs ccache libnuma-dev rdma-core ibverbs-providers \
    && rm -rf /var/lib/apt/lists/*

RUN mkdir -p /tmp/gdrcopy && cd /tmp \
 && wget -q https://${GITHUB_ARTIFACTORY}/NVIDIA/gdrcopy/archive/refs/tags/v${GDRCOPY_VERSION}.tar.gz \
 && tar -xzf v${GDRCOPY_VERSION}.tar.gz && cd gdrcopy-${GDRCOPY_VERSION}/packages \
 && CUDA=/usr/local/cuda ./build-deb-packages.sh && dpkg -i gdrdrv-dkms_*.deb libgdrapi_*.deb \
 && cd / && rm -rf /tmp/gdrcopy

FROM base AS dev
WORKDIR /sgl-workspace
RUN git clone --depth=1 --branch v${SGL_VERSION} https://github.com/sgl-project/sglang.git /sgl-workspace/sglang
RUN cd sglang && python3 -m pip install -e "python[all]" --extra-index-url https://download.pytorch.org/whl/cu129 \
 && if [ "${CUDA_VERSION%%.*}" = "12" ]; then \
      python3 -m pip install nvidia-nccl-cu12==2.28.3 --force-reinstall --no-deps ; \
    elif [ "${CUDA_VERSION%%.*}" = "13" ]; then \
      python3 -m pip uninstall -y torch torchaudio torchvision ; \
      python3 -m pip install torch==2.9.0 torchaudio==2.9.0 --extra-index-url https://download.pytorch.org/whl/cu130 ; \
    fi
RUN wget -q https://${GITHUB_ARTIFACTORY}/deepseek-ai/DeepEP/archive/${DEEPEP_COMMIT}.zip \
 && unzip ${DEEPEP_COMMIT}.zip && rm ${DEEPEP_COMMIT}.zip
RUN python3 -m pip install --upgrade --pre "nvidia-cutlass-dsl==4.3.0.dev0" --extra-index-url https://pypi.org/simple/
RUN CMAKE_VERSION=3.31.1 && ARCH=$(uname -m) && CMAKE_INSTALLER="cmake-${CMAKE_VERSION}-linux-${ARCH}" \
 && wget -q "https://${GITHUB_ARTIFACTORY}/Kitware/CMake/releases/download/v${CMAKE_VERSION}/${CMAKE_INSTALLER}.tar.gz" \
 && tar -xzf "${CMAKE_INSTALLER}.tar.gz" && cp -r "${CMAKE_INSTALLER}/bin/"* /usr/local/bin/ \
 && rm -rf "${CMAKE_INSTALLER}" "${CMAKE_INSTALLER}.tar.gz"
RUN python3 -m pip install --break-system-packages pytest black isort uv pre-commit \
 && python3 -m pip install --break-system-packages pytest
RUN curl -L https://${GITHUB_ARTIFACTORY}/clangd/clangd/releases/download/18.1.3/clangd-linux-18.1.3.zip -o clangd.zip \
 && unzip clangd.zip && cp -r clangd_18.1.3/bin/* /usr/local/bin/ && rm -rf clangd_18.1.3 clangd.zip
