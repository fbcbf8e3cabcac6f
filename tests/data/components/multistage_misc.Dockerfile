# Downloads of all kinds, shell variables, ${VAR:-default} in URLs and a few constructs docgen skips.
ARG UBUNTU=22.04
FROM ubuntu:${UBUNTU} AS tools
ARG GO_VERSION
ARG NODE_MAJOR=20
RUN GOV=${GO_VERSION:-1.22.5} \
    && curl -fsSL "https://go.dev/dl/go${GOV}.linux-amd64.tar.gz" | tar -C /usr/local -xz \
    && export PROTOC=25.1 \
    && curl -fsSLo /tmp/protoc.zip https://github.com/protocolbuffers/protobuf/releases/download/v${PROTOC}/protoc-${PROTOC}-linux-x86_64.zip \
    && curl -fsSL https://deb.nodesource.com/setup_${NODE_MAJOR}.x | bash - \
    && wget -q https://github.com/openucx/ucx/releases/download/v1.16.0/ucx-1.16.0.tar.gz \
    && wget -qO- https://astral.sh/uv/0.4.30/install.sh | sh \
    && curl -LsSf https://astral.sh/uv/install.sh | sh \
    && curl -fsSL -o /tmp/nccl.deb https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2204/x86_64/cuda-keyring_1.1-1_all.deb \
    && dpkg -i /tmp/nccl.deb

FROM tools AS mpi
RUN set -e; \
    for v in 4.1.6; do echo $v; done; \
    OMPI=4.1.6; \
    wget https://download.open-mpi.org/release/open-mpi/v4.1/openmpi-${OMPI}.tar.bz2 && \
    tar xf openmpi-${OMPI}.tar.bz2 && cd openmpi-${OMPI} && ./configure && make -j install
RUN wget https://boostorg.jfrog.io/artifactory/main/release/1.82.0/source/boost_1_82_0.tar.gz
RUN echo "deb [signed-by=/usr/share/keyrings/llvm.gpg] http://apt.llvm.org/jammy/ llvm-toolchain-jammy-17 main" > /etc/apt/sources.list.d/llvm.list \
    && apt-get update && apt-get install -y clang-17
RUN yum install -y epel-release || true
RUN pip install ${UNKNOWN_PKG}==1.0 'weird[' ./local/pkg
FROM --platform=$BUILDPLATFORM python:3.11-slim@sha256:8b5b1fe3c2f1f4f1c2b2a7a1f2c0e5b3b9a8e1f3c5d7e9f0a1b2c3d4e5f6a7b8 AS py
FROM mpi
COPY --from=py /usr/local/bin/python3 /usr/local/bin/
COPY --from=busybox /bin/busybox /bin/busybox
