/* libprobe_first.so (cli/tests/cuda_shim.rs): an interposing library that looks up the next
 * definition of its own symbol, as malloc wrappers do with dlsym(RTLD_NEXT, "malloc"). */
#define _GNU_SOURCE
#include <dlfcn.h>

int ec_probe(void) { return 1; }

/* The ec_probe after this library: libprobe_second.so's, which returns 2. */
void *ec_next_probe(void) { return dlsym(RTLD_NEXT, "ec_probe"); }
