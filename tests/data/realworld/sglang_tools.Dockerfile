FROM lmsysorg/sglang:v0.5.2-cu126 AS build
ARG NSYS_DATE=2025.6.1
ARG MOONCAKE_VERSION=0.3.6
RUN NSYS_VER=${NSYS_DATE}_2025.6.1.190-1 && \
    wget -q https://developer.nvidia.com/downloads/assets/tools/secure/nsight-systems/2025_6/nsight-systems-${NSYS_VER}_amd64.deb \
    && apt-get install -y ./nsight-systems-${NSYS_VER}_amd64.deb \
    && rm nsight-systems-${NSYS_VER}_amd64.deb

RUN uv pip install --system --index-strategy unsafe-best-match --prerelease allow sgl-kernel==0.3.9.post2 \
    && uv pip install --system --link-mode copy --compile-bytecode --refresh-package 3 flashinfer-python==0.3.1

RUN pip install --no-cache-dir --root-user-action ignore --use-feature fast-deps --exists-action w \
      --report /tmp/report.json \
      deepspeed==0.17.5

RUN uv tool install --with-executables-from 2 ruff==0.6.9

RUN mamba install -y -c nvidia cuda-nvcc=12.6.85 && mamba remove -y cuda-nvcc

RUN bash scripts/install_mooncake.sh ${MOONCAKE_VERSION} && bash ./install_ucx.sh 1.19.0
