ARG UBUNTU_VERSION=24.04
# Keep in step with the driver of the machines that run the image.
ARG CUDA_VERSION=12.6.2
# compiler image
ARG BUILDER_IMAGE=nvidia/cuda:${CUDA_VERSION}-devel-ubuntu${UBUNTU_VERSION}
# slim image the binaries run in
ARG RUNTIME_IMAGE=nvidia/cuda:${CUDA_VERSION}-runtime-ubuntu${UBUNTU_VERSION}

FROM ${BUILDER_IMAGE} AS build

# GPU architectures; "default" lets CMake pick every supported one
ARG CUDA_DOCKER_ARCH=default

RUN apt-get update && \
    apt-get install -y git cmake build-essential libcurl4-openssl-dev libgomp1 python3

WORKDIR /src

COPY . .

RUN ARCHS="" && if [ "${CUDA_DOCKER_ARCH}" != "default" ]; then \
    ARCHS="-DCMAKE_CUDA_ARCHITECTURES=${CUDA_DOCKER_ARCH}"; \
    fi && \
    cmake -S . -B out -DTINY_CUDA=ON -DTINY_NATIVE=OFF -DTINY_TESTS=OFF $ARCHS && \
    cmake --build out --config Release --parallel $(nproc)

RUN mkdir -p /src/libs && \
    find out -name "*.so" -exec cp {} /src/libs \;

## shared runtime layer
FROM ${RUNTIME_IMAGE} AS base

RUN apt-get update \
    && apt-get install -y curl libgomp1 \
    && apt-get clean \
    && rm -rf /var/lib/apt/lists/* /tmp/*

COPY --from=build /src/libs/ /app

## every tool
FROM base AS full

COPY --from=build /src/out/bin/ /app

## command line only
FROM base AS light

COPY --from=build /src/out/bin/tinyllm-cli /app

### HTTP server only
FROM base AS server

ENV TINYLLM_HOST=0.0.0.0

COPY --from=build /src/out/bin/tinyllm-server /app

WORKDIR /app

HEALTHCHECK CMD curl -fsS http://127.0.0.1:8080/health || exit 1

ENTRYPOINT [ "/app/tinyllm-server" ]
