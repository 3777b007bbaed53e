/* liblocal_user.so (cli/tests/cuda_shim.rs), dlopen'ed RTLD_LOCAL: RTLD_DEFAULT from here also
 * searches its own dependencies (liblocal_dep.so), which are not in the global scope. */
#define _GNU_SOURCE
#include <dlfcn.h>

void *ec_find_local(void) { return dlsym(RTLD_DEFAULT, "ec_local"); }
