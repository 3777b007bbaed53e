/* A program of cli/tests/cuda_shim.rs whose dlsym answers depend on who asks (glibc resolves
 * RTLD_NEXT and RTLD_DEFAULT relative to the caller's object): linked with libprobe_first.so
 * then libprobe_second.so, it dlopens liblocal_user.so RTLD_LOCAL. Prints what it found and
 * exits 0 when every answer is glibc's, 1 otherwise; the same with the CUDA interposer
 * preloaded. `dlsym_semantics DIR` (DIR holds liblocal_user.so). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

int ec_probe(void);
void *ec_next_probe(void);

static int check(const char *what, int got, int want) {
    printf("%s: %d (want %d)\n", what, got, want);
    return got == want;
}

int main(int argc, char **argv) {
    int ok = 1;
    if (argc != 2) return 2;
    int (*next)(void) = (int (*)(void))ec_next_probe();
    ok &= check("RTLD_NEXT from libprobe_first", next ? next() : 0, 2);
    int (*first)(void) = (int (*)(void))dlsym(RTLD_NEXT, "ec_probe");
    ok &= check("RTLD_NEXT from the program", first ? first() : 0, 1);
    int (*global)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "ec_probe");
    ok &= check("RTLD_DEFAULT from the program", global ? global() : 0, 1);
    ok &= check("RTLD_DEFAULT for a local object's symbol, from the program",
                dlsym(RTLD_DEFAULT, "ec_local") != NULL, 0);

    char path[4096];
    snprintf(path, sizeof path, "%s/liblocal_user.so", argv[1]);
    void *user = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!user) {
        printf("dlopen %s: %s\n", path, dlerror());
        return 1;
    }
    void *(*find_local)(void) = (void *(*)(void))dlsym(user, "ec_find_local");
    int (*local)(void) = find_local ? (int (*)(void))find_local() : NULL;
    ok &= check("RTLD_DEFAULT from a local object", local ? local() : 0, 3);
    ok &= check("a missing name", dlsym(RTLD_DEFAULT, "ec_missing") == NULL && dlerror() != NULL, 1);
    return ok ? 0 : 1;
}
