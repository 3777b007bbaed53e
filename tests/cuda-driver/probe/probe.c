/* Prints what a libcuda.so.1 returns for the calls whose results the test CUDA library
 * (tests/cuda-driver) imitates and that need no exported GPU memory: run against NVIDIA's
 * driver and against the test library (LD_LIBRARY_PATH=target/debug/exportcheck-test-cuda),
 * the outputs are the same but for three lines, "import memfd" and "sem import type 1"/"9":
 * NVIDIA's driver refuses a memfd (999) as no memory or semaphore of its own, where the test
 * library imports it, as the test drivers' exports are memfds (docs/test-driver.md).
 * nvidia-580-h100.txt is NVIDIA's output (H100, CUDA 13 driver); tests/tests/test_cuda_driver.rs
 * compares the test library's with it. Left out: what crashes NVIDIA's driver
 * (cuDeviceGetName with length 0, cuGetProcAddress_v2 of a NULL name).
 * Build: cc -O1 -o probe probe.c -ldl (no cuda.h needed). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef int CUresult;
typedef void *H;
typedef struct {
    unsigned type;
    union { int fd; struct { void *handle; const void *name; } win32; const void *sci; } handle;
    unsigned long long size;
    unsigned flags;
    unsigned reserved[16];
} MemDesc;
typedef struct {
    unsigned type;
    union { int fd; struct { void *handle; const void *name; } win32; const void *sci; } handle;
    unsigned flags;
    unsigned reserved[16];
} SemDesc;
typedef struct { unsigned long long offset, size; unsigned flags, reserved[16]; } BufDesc;
typedef struct { unsigned char b[144]; } SemParams;

static void *lib;
static void *sym(const char *n) {
    void *p = dlsym(lib, n);
    if (!p) { printf("missing %s\n", n); _exit(1); }
    return p;
}
#define F(ret, name, ...) ret (*name)(__VA_ARGS__) = sym(#name)

static int memfd(void) {
    int fd = memfd_create("probe", MFD_CLOEXEC);
    if (ftruncate(fd, 65536) != 0) _exit(1);
    return fd;
}

int main(void) {
    lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) { printf("dlopen: %s\n", dlerror()); return 1; }
    F(CUresult, cuInit, unsigned);
    F(CUresult, cuDeviceGet, int *, int);
    F(CUresult, cuDriverGetVersion, int *);
    F(CUresult, cuDeviceGetName, char *, int, int);
    F(CUresult, cuCtxCreate_v2, H *, unsigned, int);
    F(CUresult, cuCtxDestroy_v2, H);
    F(CUresult, cuCtxSetCurrent, H);
    F(CUresult, cuCtxGetCurrent, H *);
    F(CUresult, cuCtxSynchronize, void);
    F(CUresult, cuCtxGetDevice, int *);
    F(CUresult, cuDevicePrimaryCtxRetain, H *, int);
    F(CUresult, cuDevicePrimaryCtxRelease_v2, int);
    F(CUresult, cuStreamCreate, H *, unsigned);
    F(CUresult, cuStreamDestroy_v2, H);
    F(CUresult, cuStreamSynchronize, H);
    F(CUresult, cuImportExternalMemory, H *, const MemDesc *);
    F(CUresult, cuDestroyExternalMemory, H);
    F(CUresult, cuMemFree_v2, unsigned long long);
    F(CUresult, cuMipmappedArrayDestroy, H);
    F(CUresult, cuImportExternalSemaphore, H *, const SemDesc *);
    F(CUresult, cuSignalExternalSemaphoresAsync, const H *, const SemParams *, unsigned, H);
    F(CUresult, cuWaitExternalSemaphoresAsync, const H *, const SemParams *, unsigned, H);
    F(CUresult, cuDestroyExternalSemaphore, H);
    F(CUresult, cuGetErrorName, CUresult, const char **);
    F(CUresult, cuGetErrorString, CUresult, const char **);
    F(CUresult, cuGetProcAddress_v2, const char *, void **, int, uint64_t, int *);
    F(CUresult, cuGetProcAddress, const char *, void **, int, uint64_t);

    int dev = -1, v = 0;
    H ctx = 0, pctx = 0, cur = (H)1, mem = 0, sem = 0, stream = 0;
    printf("before init: cuDeviceGet %d\n", cuDeviceGet(&dev, 0));
    printf("before init: cuCtxSynchronize %d\n", cuCtxSynchronize());
    printf("before init: cuDriverGetVersion %d\n", cuDriverGetVersion(&v));
    void *pfn = 0; int st = -1;
    int r = cuGetProcAddress_v2("cuInit", &pfn, 13000, 0, &st);
    printf("before init: cuGetProcAddress_v2(cuInit) %d status %d\n", r, st);
    printf("cuInit(1) %d\n", cuInit(1));
    printf("cuInit(0) %d\n", cuInit(0));
    printf("cuDeviceGet(NULL) %d\n", cuDeviceGet(NULL, 0));
    printf("cuDeviceGet(99) %d\n", cuDeviceGet(&dev, 99));
    cuDeviceGet(&dev, 0);
    char name[8];
    printf("cuDeviceGetName(len 8) %d\n", cuDeviceGetName(name, 8, dev));
    printf("no ctx: cuCtxSynchronize %d\n", cuCtxSynchronize());
    printf("no ctx: cuCtxGetDevice %d\n", cuCtxGetDevice(&v));
    r = cuCtxGetCurrent(&cur);
    printf("no ctx: cuCtxGetCurrent %d null %d\n", r, cur == 0);
    printf("no ctx: cuStreamCreate %d\n", cuStreamCreate(&stream, 0));
    int fd = memfd();
    MemDesc md = {.type = 1, .size = 65536};
    md.handle.fd = fd;
    r = cuImportExternalMemory(&mem, &md);
    printf("no ctx: cuImportExternalMemory(memfd) %d fd open %d\n", r, fcntl(fd, F_GETFD) != -1);
    SemDesc sd = {.type = 1};
    sd.handle.fd = fd;
    printf("no ctx: cuImportExternalSemaphore(memfd) %d\n", cuImportExternalSemaphore(&sem, &sd));
    printf("no ctx: cuMemFree_v2(0) %d\n", cuMemFree_v2(0));
    printf("no ctx: cuDestroyExternalMemory(NULL) %d\n", cuDestroyExternalMemory(0));

    printf("cuDevicePrimaryCtxRelease_v2 unretained %d\n", cuDevicePrimaryCtxRelease_v2(dev));
    printf("cuDevicePrimaryCtxRetain %d\n", cuDevicePrimaryCtxRetain(&pctx, dev));
    printf("no ctx still: cuCtxSynchronize %d\n", cuCtxSynchronize());
    printf("cuCtxDestroy_v2(primary) %d\n", cuCtxDestroy_v2(pctx));
    printf("cuCtxDestroy_v2(NULL) %d\n", cuCtxDestroy_v2(0));
    printf("cuCtxCreate_v2 %d\n", cuCtxCreate_v2(&ctx, 0, dev));
    cur = 0;
    r = cuCtxGetCurrent(&cur);
    printf("cuCtxGetCurrent %d is new %d\n", r, cur == ctx);
    printf("cuCtxSynchronize %d\n", cuCtxSynchronize());
    printf("cuStreamSynchronize(NULL) %d (LEGACY) %d (PER_THREAD) %d\n", cuStreamSynchronize(0),
           cuStreamSynchronize((H)1), cuStreamSynchronize((H)2));
    printf("cuStreamCreate %d\n", cuStreamCreate(&stream, 0));
    printf("cuStreamDestroy_v2 %d\n", cuStreamDestroy_v2(stream));

    printf("import NULL desc %d\n", cuImportExternalMemory(&mem, NULL));
    printf("import NULL out %d\n", cuImportExternalMemory(NULL, &md));
    md.size = 0;
    printf("import size 0 %d\n", cuImportExternalMemory(&mem, &md));
    md.size = 65536;
    md.handle.fd = -1;
    printf("import fd -1 %d\n", cuImportExternalMemory(&mem, &md));
    md.handle.fd = 1000;
    printf("import fd not open %d\n", cuImportExternalMemory(&mem, &md));
    md.handle.fd = fd;
    for (unsigned t = 0; t <= 10; t++) {
        if (t == 1) continue;
        md.type = t;
        printf("import type %u %d\n", t, cuImportExternalMemory(&mem, &md));
    }
    md.type = 1;
    r = cuImportExternalMemory(&mem, &md);
    printf("import memfd %d fd open %d\n", r, fcntl(fd, F_GETFD) != -1);
    if (r == 0) cuDestroyExternalMemory(mem);
    printf("cuDestroyExternalMemory(NULL) %d\n", cuDestroyExternalMemory(0));
    printf("cuMemFree_v2(0) %d\n", cuMemFree_v2(0));
    printf("cuMemFree_v2(unknown) %d\n", cuMemFree_v2(0x1000));
    printf("cuMipmappedArrayDestroy(NULL) %d\n", cuMipmappedArrayDestroy(0));

    fd = memfd();
    sd.handle.fd = fd;
    printf("sem import NULL desc %d\n", cuImportExternalSemaphore(&sem, NULL));
    for (unsigned t = 0; t <= 11; t++) {
        sd.type = t;
        r = cuImportExternalSemaphore(&sem, &sd);
        printf("sem import type %u %d fd open %d\n", t, r, fcntl(fd, F_GETFD) != -1);
        if (r == 0) {
            cuDestroyExternalSemaphore(sem);
            fd = memfd();
            sd.handle.fd = fd;
        }
    }
    sd.type = 1;
    sd.handle.fd = -1;
    printf("sem import fd -1 %d\n", cuImportExternalSemaphore(&sem, &sd));
    printf("signal 0 sems %d\n", cuSignalExternalSemaphoresAsync(NULL, NULL, 0, 0));
    printf("wait 0 sems %d\n", cuWaitExternalSemaphoresAsync(NULL, NULL, 0, 0));
    SemParams params = {{0}};
    printf("signal 0 of an array %d\n", cuSignalExternalSemaphoresAsync(&sem, &params, 0, 0));
    printf("wait 0 of an array %d\n", cuWaitExternalSemaphoresAsync(&sem, &params, 0, 0));
    printf("cuDestroyExternalSemaphore(NULL) %d\n", cuDestroyExternalSemaphore(0));

    const char *s = (const char *)1;
    r = cuGetErrorName(12345, &s);
    printf("cuGetErrorName(12345) %d null %d\n", r, s == 0);
    const int codes[] = {0, 1, 2, 3, 4, 100, 101, 201, 304, 400, 500, 801, 999};
    for (unsigned i = 0; i < sizeof codes / sizeof *codes; i++) {
        const char *n = 0, *d = 0;
        cuGetErrorName(codes[i], &n);
        cuGetErrorString(codes[i], &d);
        printf("error %d %s: %s\n", codes[i], n ? n : "(null)", d ? d : "(null)");
    }

    struct { const char *name; int version; const char *expect; } q[] = {
        {"cuCtxCreate", 3000, "cuCtxCreate"},     {"cuCtxCreate", 11000, "cuCtxCreate_v2"},
        {"cuCtxCreate", 12000, "cuCtxCreate_v3"},
        {"cuCtxCreate", 12050, "cuCtxCreate_v4"}, {"cuCtxCreate", 13000, "cuCtxCreate_v4"},
        {"cuCtxCreate", 13000, "cuCtxCreate_v2"}, {"cuCtxDestroy", 13000, "cuCtxDestroy_v2"},
        {"cuMemFree", 13000, "cuMemFree_v2"},     {"cuMemFree_v2", 13000, "cuMemFree_v2"},
        {"cuDeviceGetUuid", 11000, "cuDeviceGetUuid"},
        {"cuDeviceGetUuid", 13000, "cuDeviceGetUuid_v2"},
        {"cuDevicePrimaryCtxRelease", 13000, "cuDevicePrimaryCtxRelease_v2"},
        {"cuStreamDestroy", 13000, "cuStreamDestroy_v2"},
        {"cuGetProcAddress", 11030, "cuGetProcAddress"},
        {"cuGetProcAddress", 13000, "cuGetProcAddress_v2"},
        {"cuImportExternalMemory", 13000, "cuImportExternalMemory"},
        {"cuImportExternalMemory", 9000, "cuImportExternalMemory"},
        {"cuSignalExternalSemaphoresAsync", 13000, "cuSignalExternalSemaphoresAsync"},
        {"cuNoSuchThing", 13000, "cuInit"},
    };
    for (unsigned i = 0; i < sizeof q / sizeof *q; i++) {
        pfn = 0;
        st = -1;
        r = cuGetProcAddress_v2(q[i].name, &pfn, q[i].version, 0, &st);
        printf("proc %s %d: %d status %d is %s %d\n", q[i].name, q[i].version, r, st, q[i].expect,
               pfn != 0 && pfn == dlsym(lib, q[i].expect));
    }
    pfn = (void *)1;
    r = cuGetProcAddress_v2("cuNoSuchThing", &pfn, 13000, 0, NULL);
    printf("proc v2 unknown, no status: %d null %d\n", r, pfn == 0);
    pfn = (void *)1;
    r = cuGetProcAddress("cuNoSuchThing", &pfn, 13000, 0);
    printf("proc v1 unknown: %d untouched %d\n", r, pfn == (void *)1);
    pfn = 0;
    r = cuGetProcAddress("cuInit", &pfn, 13000, 0);
    printf("proc v1 cuInit: %d is cuInit %d\n", r, pfn == dlsym(lib, "cuInit"));
    printf("cuCtxDestroy_v2 %d\n", cuCtxDestroy_v2(ctx));
    printf("after destroy: cuCtxSynchronize %d\n", cuCtxSynchronize());
    cur = (H)1;
    r = cuCtxGetCurrent(&cur);
    printf("after destroy: cuCtxGetCurrent %d null %d\n", r, cur == 0);
    printf("cuCtxSetCurrent(NULL) %d\n", cuCtxSetCurrent(0));
    printf("cuDevicePrimaryCtxRelease_v2 %d\n", cuDevicePrimaryCtxRelease_v2(dev));
    return 0;
}
