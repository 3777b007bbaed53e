/* A CUDA program of exportcheck's tests (cli/tests/cuda_calls.rs): it calls each of the eight
 * external-resource entry points the interposer intercepts once in each of four ways apps reach
 * them, and nothing of Vulkan:
 *
 *   linked     its own references, bound at load time (linked with libcuda.so.1);
 *   dlsym      dlsym on a handle of dlopen("libcuda.so.1");
 *   procaddr   pointers cuGetProcAddress_v2 returned (the CUDA runtime's way; CUDA 13.0);
 *   procaddr2  pointers returned by the cuGetProcAddress that cuGetProcAddress_v2 returned for
 *              "cuGetProcAddress" (CUDA 13.0: its _v2).
 *
 * The calls' arguments are empty descriptors and NULL handles, which the driver refuses: the
 * interposer hands every call to the layer all the same, which counts it (process.cuda_calls).
 * Prints "ok" and exits 0 when every entry point was found each way. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef int CUresult;
typedef void *CUhandle;
typedef unsigned long long CUdeviceptr;

CUresult cuImportExternalMemory(CUhandle *out, const void *desc);
CUresult cuExternalMemoryGetMappedBuffer(CUdeviceptr *ptr, CUhandle mem, const void *desc);
CUresult cuExternalMemoryGetMappedMipmappedArray(CUhandle *array, CUhandle mem, const void *desc);
CUresult cuDestroyExternalMemory(CUhandle mem);
CUresult cuImportExternalSemaphore(CUhandle *out, const void *desc);
CUresult cuSignalExternalSemaphoresAsync(const CUhandle *sems, const void *params, unsigned n,
                                         CUhandle stream);
CUresult cuWaitExternalSemaphoresAsync(const CUhandle *sems, const void *params, unsigned n,
                                       CUhandle stream);
CUresult cuDestroyExternalSemaphore(CUhandle sem);

typedef CUresult (*GetProcAddressV2)(const char *symbol, void **pfn, int version,
                                     unsigned long long flags, int *status);

struct entry_points {
    CUresult (*import_memory)(CUhandle *, const void *);
    CUresult (*mapped_buffer)(CUdeviceptr *, CUhandle, const void *);
    CUresult (*mapped_array)(CUhandle *, CUhandle, const void *);
    CUresult (*destroy_memory)(CUhandle);
    CUresult (*import_semaphore)(CUhandle *, const void *);
    CUresult (*signal)(const CUhandle *, const void *, unsigned, CUhandle);
    CUresult (*wait)(const CUhandle *, const void *, unsigned, CUhandle);
    CUresult (*destroy_semaphore)(CUhandle);
};

/* In the order of struct entry_points. */
static const char *const NAMES[8] = {
    "cuImportExternalMemory",          "cuExternalMemoryGetMappedBuffer",
    "cuExternalMemoryGetMappedMipmappedArray", "cuDestroyExternalMemory",
    "cuImportExternalSemaphore",       "cuSignalExternalSemaphoresAsync",
    "cuWaitExternalSemaphoresAsync",   "cuDestroyExternalSemaphore",
};

static void call_all(const struct entry_points *e) {
    unsigned long long desc[32]; /* zeroed: larger than every descriptor */
    memset(desc, 0, sizeof desc);
    CUhandle handle = NULL;
    CUdeviceptr pointer = 0;
    e->import_memory(&handle, desc);
    e->mapped_buffer(&pointer, NULL, desc);
    e->mapped_array(&handle, NULL, desc);
    e->destroy_memory(NULL);
    e->import_semaphore(&handle, desc);
    CUhandle sems[1] = {NULL};
    e->signal(sems, desc, 1, NULL);
    e->wait(sems, desc, 1, NULL);
    e->destroy_semaphore(NULL);
}

/* The eight through `get_proc`; 0 (said on stdout) when one is missing. */
static int by_proc_address_of(GetProcAddressV2 get_proc, struct entry_points *e) {
    void **slots = (void **)e;
    for (int i = 0; i < 8; i++) {
        int status = -1;
        CUresult r = get_proc(NAMES[i], &slots[i], 13000, 0, &status);
        if (r != 0 || !slots[i]) {
            printf("cuGetProcAddress_v2(%s): %d\n", NAMES[i], r);
            return 0;
        }
    }
    return 1;
}

int main(void) {
    struct entry_points linked = {
        cuImportExternalMemory,        cuExternalMemoryGetMappedBuffer,
        cuExternalMemoryGetMappedMipmappedArray, cuDestroyExternalMemory,
        cuImportExternalSemaphore,     cuSignalExternalSemaphoresAsync,
        cuWaitExternalSemaphoresAsync, cuDestroyExternalSemaphore,
    };
    call_all(&linked);

    void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!driver) {
        printf("dlopen(libcuda.so.1): %s\n", dlerror());
        return 1;
    }
    struct entry_points by_dlsym, by_proc_address;
    void **slots = (void **)&by_dlsym;
    for (int i = 0; i < 8; i++) {
        slots[i] = dlsym(driver, NAMES[i]);
        if (!slots[i]) {
            printf("dlsym(%s): NULL\n", NAMES[i]);
            return 1;
        }
    }
    call_all(&by_dlsym);

    GetProcAddressV2 get_proc = (GetProcAddressV2)dlsym(driver, "cuGetProcAddress_v2");
    if (!get_proc) {
        printf("dlsym(cuGetProcAddress_v2): NULL\n");
        return 1;
    }
    if (!by_proc_address_of(get_proc, &by_proc_address)) return 1;
    call_all(&by_proc_address);

    GetProcAddressV2 get_proc_again = NULL;
    int status = -1;
    if (get_proc("cuGetProcAddress", (void **)&get_proc_again, 13000, 0, &status) != 0 ||
        !get_proc_again) {
        printf("cuGetProcAddress_v2(cuGetProcAddress): NULL\n");
        return 1;
    }
    if (!by_proc_address_of(get_proc_again, &by_proc_address)) return 1;
    call_all(&by_proc_address);
    printf("ok\n");
    return 0;
}
