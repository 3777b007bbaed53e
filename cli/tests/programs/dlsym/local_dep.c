/* liblocal_dep.so (cli/tests/cuda_shim.rs): a dependency of liblocal_user.so only. */
int ec_local(void) { return 3; }
