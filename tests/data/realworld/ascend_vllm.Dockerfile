FROM quay.io/ascend/cann:8.1.rc1-910b-ubuntu22.04-py3.10
ARG VLLM_TAG=v0.9.1
ARG VLLM_ASCEND_TAG=v0.9.1rc1
ARG PIP_INDEX_URL=https://mirrors.example.org/pypi/simple

RUN pip config set global.index-url ${PIP_INDEX_URL}
RUN pip install torch==2.5.1 torch-npu==2.5.1.post1 torchvision==0.20.1 --extra-index-url https://download.pytorch.org/whl/cpu/
WORKDIR /workspace
RUN git clone --depth 1 -b ${VLLM_TAG} https://github.com/vllm-project/vllm.git \
    && cd vllm && VLLM_TARGET_DEVICE=empty pip install -v -e . && cd .. \
    && python3 -m pip uninstall -y triton
RUN git clone --depth 1 -b ${VLLM_ASCEND_TAG} https://github.com/vllm-project/vllm-ascend.git \
    && cd vllm-ascend && export COMPILE_CUSTOM_KERNELS=1 && pip install -v -e .
RUN pip install --root-user-action ignore --exists-action i mbridge==0.13.0 \
    && pip install git+https://github.com/volcengine/verl.git@v0.5.0 && pip uninstall -y verl
