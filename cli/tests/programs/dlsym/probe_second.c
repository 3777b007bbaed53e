/* libprobe_second.so (cli/tests/cuda_shim.rs): the definition after libprobe_first.so's. */
int ec_probe(void) { return 2; }
