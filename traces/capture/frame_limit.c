/* LD_PRELOAD shim for captures that must stop after a fixed number of frames: after GPUPD_MAX_FRAMES
 * buffer swaps (SDL_GL_SwapWindow, what ioquake3 and darkplaces call), the process exits normally, so the
 * tracer (apitrace) flushes a trace that ends exactly there. A frame count rather than a timeout keeps
 * the capture the same on every run, however fast the machine renders. Unset: no limit. Built by
 * capture.sh. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

void SDL_GL_SwapWindow(void *window);

void SDL_GL_SwapWindow(void *window)
{
    static unsigned long swaps;    /* the process's own frame counter: one process, one counter */
    void (*real)(void *) = (void (*)(void *))dlsym(RTLD_NEXT, "SDL_GL_SwapWindow");
    const char *s = getenv("GPUPD_MAX_FRAMES");
    if (real) real(window);
    swaps++;
    if (s && *s && swaps >= strtoul(s, NULL, 0)) {
        fprintf(stderr, "frame_limit: %lu frames swapped, exiting\n", swaps);
        exit(0);
    }
}
