/* LD_PRELOAD shim for deterministic OpenArena captures: the engine seeds rand() from /dev/urandom at start
 * (Com_InitRand), which makes particles, smoke and gibs differ between runs. Every srand() call is replaced
 * by srand(GPUPD_SEED) so a timedemo renders the same frames on every run. Built by capture.sh. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>

void srand(unsigned int seed)
{
    void (*real)(unsigned int) = (void (*)(unsigned int))dlsym(RTLD_NEXT, "srand");
    const char *s = getenv("GPUPD_SEED");
    (void)seed;
    if (real) real(s ? (unsigned int)strtoul(s, NULL, 0) : 12345u);
}
