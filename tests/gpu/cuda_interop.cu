// The CUDA side of a real interop program, for tests/tests/real_driver_cuda.rs on the NVIDIA
// machine (scripts/gpu-run.sh compiles it there with nvcc): a CUDA *runtime* program, so its
// external-memory calls reach the driver the way real apps' do, through the runtime's
// cuGetProcAddress. It imports a Vulkan allocation's OPAQUE_FD, which it inherited from the
// Vulkan process that started it, maps it as a buffer, and a kernel writes a known pattern over
// it, which the Vulkan process reads back. Under `exportcheck run`, once correct and once with
// each mistake the layer reports (docs/cuda.md).
//
//   cuda_interop FD SIZE DEDICATED MODE UUID
//
// FD: the inherited fd; SIZE: the Vulkan allocation's allocationSize; DEDICATED: 1 if it is a
// dedicated allocation, else 0; UUID: the exporting physical device's deviceUUID, 32 hex
// digits (the CUDA device with that UUID is used); MODE:
//   correct             declares SIZE, sets cudaExternalMemoryDedicated exactly when DEDICATED;
//   size-twice          declares 2 * SIZE;
//   dedicated-wrong     sets the flag opposite to DEDICATED;
//   close-after-import  close(FD) after the import succeeded (CUDA took the fd), then destroys;
//   import-twice        imports FD a second time after the first import succeeded.
// CUDA errors are printed on stderr; the exit status is non-zero only when the correct mode
// fails (or the arguments are wrong): a mistake may make CUDA fail, which is not this
// program's verdict to give (the layer's findings are).

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

// The pattern's word i; tests/tests/real_driver_cuda.rs checks the same.
__host__ __device__ inline unsigned int pattern(unsigned int i) {
    return i * 2654435761u + 0x12345678u;
}

__global__ void write_pattern(unsigned int *words, size_t count) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < count) {
        words[i] = pattern((unsigned int)i);
    }
}

static bool failed = false;

// Prints a failed call on stderr; true when it succeeded. The runtime's record of the error is
// cleared (cudaGetLastError), so that the launch check below reports only the launch's own.
static bool ok(cudaError_t err, const char *what) {
    if (err == cudaSuccess) {
        return true;
    }
    fprintf(stderr, "cuda_interop: %s: %s (%s, %d)\n", what, cudaGetErrorString(err),
            cudaGetErrorName(err), (int)err);
    (void)cudaGetLastError();
    failed = true;
    return false;
}

// 32 hex digits into 16 bytes.
static bool parse_uuid(const char *hex, unsigned char out[16]) {
    if (strlen(hex) != 32) {
        return false;
    }
    for (int i = 0; i < 16; i++) {
        unsigned int byte;
        if (sscanf(hex + 2 * i, "%2x", &byte) != 1) {
            return false;
        }
        out[i] = (unsigned char)byte;
    }
    return true;
}

// The CUDA device whose UUID is `uuid`, or -1.
static int device_with_uuid(const unsigned char uuid[16]) {
    int count = 0;
    if (!ok(cudaGetDeviceCount(&count), "cudaGetDeviceCount")) {
        return -1;
    }
    for (int d = 0; d < count; d++) {
        cudaDeviceProp prop;
        if (ok(cudaGetDeviceProperties(&prop, d), "cudaGetDeviceProperties") &&
            memcmp(prop.uuid.bytes, uuid, 16) == 0) {
            printf("cuda_interop: CUDA device %d (%s) has the Vulkan device's UUID\n", d,
                   prop.name);
            return d;
        }
    }
    fprintf(stderr, "cuda_interop: no CUDA device of %d has the Vulkan device's UUID\n", count);
    return -1;
}

static bool import_memory(int fd, unsigned long long size, bool dedicated,
                          cudaExternalMemory_t *memory) {
    cudaExternalMemoryHandleDesc desc;
    memset(&desc, 0, sizeof desc);
    desc.type = cudaExternalMemoryHandleTypeOpaqueFd;
    desc.handle.fd = fd;
    desc.size = size;
    desc.flags = dedicated ? cudaExternalMemoryDedicated : 0;
    printf("cuda_interop: cudaImportExternalMemory(fd %d, size %llu, flags %s)\n", fd, size,
           dedicated ? "cudaExternalMemoryDedicated" : "0");
    return ok(cudaImportExternalMemory(memory, &desc), "cudaImportExternalMemory");
}

// Maps `size` bytes of `memory` and writes the pattern over them.
static void write_through(cudaExternalMemory_t memory, unsigned long long size) {
    cudaExternalMemoryBufferDesc desc;
    memset(&desc, 0, sizeof desc);
    desc.offset = 0;
    desc.size = size;
    desc.flags = 0;
    void *buffer = nullptr;
    if (!ok(cudaExternalMemoryGetMappedBuffer(&buffer, memory, &desc),
            "cudaExternalMemoryGetMappedBuffer")) {
        return;
    }
    size_t count = size / sizeof(unsigned int);
    unsigned int threads = 256;
    unsigned int blocks = (unsigned int)((count + threads - 1) / threads);
    write_pattern<<<blocks, threads>>>(static_cast<unsigned int *>(buffer), count);
    if (ok(cudaGetLastError(), "write_pattern launch") &&
        ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize")) {
        printf("cuda_interop: the kernel wrote %zu words\n", count);
    }
    ok(cudaFree(buffer), "cudaFree");
}

int main(int argc, char **argv) {
    unsigned char uuid[16];
    if (argc != 6 || !parse_uuid(argv[5], uuid)) {
        fprintf(stderr, "usage: %s FD SIZE DEDICATED MODE UUID (32 hex digits)\n", argv[0]);
        return 2;
    }
    int fd = atoi(argv[1]);
    unsigned long long size = strtoull(argv[2], nullptr, 10);
    bool dedicated = atoi(argv[3]) != 0;
    const char *mode = argv[4];
    bool correct = strcmp(mode, "correct") == 0;
    bool size_twice = strcmp(mode, "size-twice") == 0;
    bool dedicated_wrong = strcmp(mode, "dedicated-wrong") == 0;
    bool close_after = strcmp(mode, "close-after-import") == 0;
    bool import_twice = strcmp(mode, "import-twice") == 0;
    if (!(correct || size_twice || dedicated_wrong || close_after || import_twice)) {
        fprintf(stderr, "cuda_interop: unknown mode %s\n", mode);
        return 2;
    }
    int device = device_with_uuid(uuid);
    if (device < 0) {
        return 1;
    }
    // The device's primary context, current on this thread before the import.
    if (!ok(cudaSetDevice(device), "cudaSetDevice") || !ok(cudaFree(nullptr), "cudaFree(0)")) {
        return 1;
    }
    unsigned long long declared = size_twice ? 2 * size : size;
    bool flag = dedicated_wrong ? !dedicated : dedicated;
    cudaExternalMemory_t memory = nullptr;
    if (import_memory(fd, declared, flag, &memory)) {
        if (import_twice) {
            cudaExternalMemory_t again = nullptr;
            if (import_memory(fd, declared, flag, &again)) {
                ok(cudaDestroyExternalMemory(again), "cudaDestroyExternalMemory (second)");
            }
        }
        // The allocation's own size, whatever was declared: the kernel writes only memory
        // that exists.
        write_through(memory, size);
        if (close_after) {
            int r = close(fd);
            printf("cuda_interop: close(%d) after the import returned %d\n", fd, r);
        }
        ok(cudaDestroyExternalMemory(memory), "cudaDestroyExternalMemory");
    }
    if (correct && failed) {
        fprintf(stderr, "cuda_interop: the correct mode failed\n");
        return 1;
    }
    printf("cuda_interop: %s done%s\n", mode, failed ? " (with CUDA errors)" : "");
    return 0;
}
