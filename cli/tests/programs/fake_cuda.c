/* A libcuda.so.1 for cli/tests/cuda_calls.rs whose cuGetProcAddress hands out the addresses of its
 * own functions (linked -Bsymbolic-functions: a driver whose table refers to its functions
 * internally), unlike the project's test CUDA library, whose table holds the addresses its
 * exported symbols resolve to, which are the preloaded interposer's. Only what cuda_calls.c
 * calls; every entry point refuses (CUDA_ERROR_INVALID_VALUE). */
#include <stddef.h>
#include <string.h>

typedef int CUresult;
#define REFUSE { return 1; }

CUresult cuImportExternalMemory(void *out, const void *desc) REFUSE
CUresult cuExternalMemoryGetMappedBuffer(void *ptr, void *mem, const void *desc) REFUSE
CUresult cuExternalMemoryGetMappedMipmappedArray(void *array, void *mem, const void *desc) REFUSE
CUresult cuDestroyExternalMemory(void *mem) REFUSE
CUresult cuImportExternalSemaphore(void *out, const void *desc) REFUSE
CUresult cuSignalExternalSemaphoresAsync(const void *sems, const void *params, unsigned n,
                                         void *stream) REFUSE
CUresult cuWaitExternalSemaphoresAsync(const void *sems, const void *params, unsigned n,
                                       void *stream) REFUSE
CUresult cuDestroyExternalSemaphore(void *sem) REFUSE

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version,
                             unsigned long long flags, int *status);

CUresult cuGetProcAddress(const char *symbol, void **pfn, int version, unsigned long long flags) {
    return cuGetProcAddress_v2(symbol, pfn, version, flags, NULL);
}

static const struct {
    const char *name;
    void *function;
} TABLE[] = {
    {"cuImportExternalMemory", (void *)cuImportExternalMemory},
    {"cuExternalMemoryGetMappedBuffer", (void *)cuExternalMemoryGetMappedBuffer},
    {"cuExternalMemoryGetMappedMipmappedArray", (void *)cuExternalMemoryGetMappedMipmappedArray},
    {"cuDestroyExternalMemory", (void *)cuDestroyExternalMemory},
    {"cuImportExternalSemaphore", (void *)cuImportExternalSemaphore},
    {"cuSignalExternalSemaphoresAsync", (void *)cuSignalExternalSemaphoresAsync},
    {"cuWaitExternalSemaphoresAsync", (void *)cuWaitExternalSemaphoresAsync},
    {"cuDestroyExternalSemaphore", (void *)cuDestroyExternalSemaphore},
};

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version,
                             unsigned long long flags, int *status) {
    (void)flags;
    if (!symbol || !pfn) return 1;
    void *found = NULL;
    if (strcmp(symbol, "cuGetProcAddress") == 0) {
        found = version >= 12000 ? (void *)cuGetProcAddress_v2 : (void *)cuGetProcAddress;
    }
    for (size_t i = 0; !found && i < sizeof TABLE / sizeof TABLE[0]; i++) {
        if (strcmp(symbol, TABLE[i].name) == 0) found = TABLE[i].function;
    }
    *pfn = found;
    if (status) *status = found ? 0 : 1; /* CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND */
    return found ? 0 : 500;              /* CUDA_ERROR_NOT_FOUND */
}
