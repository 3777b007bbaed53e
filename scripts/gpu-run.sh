#!/usr/bin/env bash
# Runs on a GPU machine what scripts/gpu-bundle.sh bundled: the real-driver end-to-end tests
# (fd leaks and same-process imports: real_driver; shared semaphores and fences:
# real_driver_sync; cross-process pairs: cross_process and cross_process_semaphores
# on_a_real_driver_*) and `exportcheck run` over a program whose forked-and-exec'd importer gets
# the exporter's fd over a socket, with the right size and with twice it; then, where nvcc is
# (CUDA's toolkit: $NVCC, else on PATH, else /usr/local/cuda/bin/nvcc), the real CUDA interop
# program: tests/gpu/cuda_interop.cu compiled here, run by real_driver_cuda under `exportcheck run`
# (a CUDA kernel writes Vulkan-exported memory, Vulkan reads it back), correct and with each
# mistake. The driver manifest: $EXPORTCHECK_TEST_REAL_ICD, else NVIDIA's where the device
# machines have it.
set -uo pipefail
cd "$(dirname "$0")/.."
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export EXPORTCHECK_TEST_REAL_ICD=${EXPORTCHECK_TEST_REAL_ICD:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
export VK_DRIVER_FILES=$EXPORTCHECK_TEST_REAL_ICD EXPORTCHECK_TEST_PREBUILT=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
status=0
echo "== real_driver"
.gpu/release/deps/real_driver --ignored --test-threads=1 --nocapture || status=1
echo "== real_driver_sync (semaphores and fences)"
.gpu/release/deps/real_driver_sync --ignored --test-threads=1 --nocapture || status=1
echo "== cross_process on_a_real_driver"
.gpu/release/deps/cross_process --ignored on_a_real_driver --test-threads=1 || status=1
echo "== cross_process_semaphores on_a_real_driver"
.gpu/release/deps/cross_process_semaphores --ignored on_a_real_driver --test-threads=1 --nocapture || status=1
echo "== exportcheck run: the importer gives the exporter's size (expect exit 0)"
.gpu/release/exportcheck run -- .gpu/release/processes share 65536
code=$?; echo "exit $code"; [ "$code" = 0 ] || status=1
echo "== exportcheck run: the importer gives twice the size (expect exit 86, 01742)"
.gpu/release/exportcheck run -- .gpu/release/processes share 131072
code=$?; echo "exit $code"; [ "$code" = 86 ] || status=1
echo "== real_driver_cuda: a CUDA kernel writes Vulkan-exported memory, under exportcheck run"
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ -x "$nvcc" ]; then
    # For the GPU here (sm_90 on an H100); the toolkit's default targets where -arch=native fails.
    if "$nvcc" -O2 -arch=native -o .gpu/release/cuda_interop tests/gpu/cuda_interop.cu ||
        "$nvcc" -O2 -o .gpu/release/cuda_interop tests/gpu/cuda_interop.cu; then
        EXPORTCHECK_TEST_CUDA_PROGRAM=$PWD/.gpu/release/cuda_interop \
            .gpu/release/deps/real_driver_cuda --include-ignored --test-threads=1 --nocapture ||
            status=1
    else
        echo "nvcc could not compile tests/gpu/cuda_interop.cu"; status=1
    fi
else
    echo "no nvcc here: the CUDA interop program is not run"
fi
exit $status
