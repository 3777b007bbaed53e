/* LD_PRELOADed into the test processes by scripts/sanitize.sh (asan, tsan, valgrind): dlclose
 * keeps every library loaded.
 *
 * The Vulkan loader dlcloses the layer, the driver (lavapipe or the test ICD) and itself when an
 * instance is destroyed. A leak checker that runs at exit then sees (1) the memory those
 * libraries' globals still point to as leaked, since the globals went away with the library, and
 * (2) stacks through an unmapped library as "<unknown module>", which no suppression can name.
 * With the libraries kept loaded, what is reachable at exit is not reported (as in any process
 * that does not unload its libraries) and every reported stack is symbolized. A real leak, memory
 * nothing points to, is reported either way. */
int dlclose(void *handle) {
    (void)handle;
    return 0;
}
