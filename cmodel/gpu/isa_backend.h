/* Vertex and fragment shading on the ISA interpreter (cmodel/isa): a gpu_shader_backend_t per GPU.
 *
 * Programs follow the shader-library conventions of cmodel/isa/isa.h (ISA_VS_* / ISA_FS_*):
 *   VS  in  a[4*i .. 4*i+3] = attribute i (0 position, 1 colour, 2 texcoord)
 *       out o[0..3] clip position, o[4+4*v .. 7+4*v] = varying v; constants c[0..15] = MVP rows
 *       (the draw's vs_consts[0..3]), further vs_consts rows follow from c[16]
 *   FS  in  a[4*v .. 4*v+3] = varying v (0 colour, 1 texcoord), a[8] = window z
 *       out o[0..3] colour (every render target), o[4] depth (preset to the interpolated window z, so a
 *       program that does not write it keeps the rasterizer's depth); constants c = fs_consts
 *       tex instructions sample through the GPU's own texture units (gpu_tex_sample); in the fragment
 *       stage, unit GPU_DERIV_UNIT is the quad derivative unit: rd..rd+3 = (ddx s, ddy s, ddx t, ddy t),
 *       differences across the lane's 2x2 quad (lane k = pixel (x + (k & 1), y + (k >> 1))): d/dx within
 *       its row, d/dy within its column (GLSL dFdx/dFdy/fwidth; docs/shader-compiler.md).
 * Helper lanes of a quad run like the others (their results are dropped). Every GPU gets its own
 * interpreter context and warp (no shared mutable state). */
#ifndef GPUPD_GPU_ISA_BACKEND_H
#define GPUPD_GPU_ISA_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/gpu.h"

#define GPU_DERIV_UNIT 15u      /* tex unit of the fragment stage's quad derivative unit (compiled programs
                                 * use sampler slots 0..14) */

typedef struct {
    char name[48];
    uint32_t n;                 /* instructions */
    uint64_t *words;            /* n words (malloc'd) */
    /* Programs compiled from the application's shaders (trace PROG names "glsl:..." for GLSL,
     * "ff:..." for generated fixed-function programs; docs/shader-compiler.md) follow the compiled-program
     * ABI: VS a[4i..] = DRAW attribute i, o[0..3] clip position, o[4+4v..] varying v; FS a[4v..] = varying v,
     * a[32..35] gl_FragCoord, o[0..3] colour, o[4] depth, o[5] != 0: discarded; uniforms from c[16]. */
    uint8_t compiled;
    uint8_t n_varyings;         /* VS: varyings written (from its st.o offsets) */
} gpu_isa_prog_t;

/* Fill p->compiled / p->n_varyings from p->name and p->words. */
void gpu_isa_prog_scan(gpu_isa_prog_t *p);

/* Assemble a library shader (cmodel/shaders/NAME.s). 0, or -1 with err. Free with gpu_isa_prog_free. */
int gpu_isa_prog_library(gpu_isa_prog_t *p, const char *name, char *err, size_t err_len);
void gpu_isa_prog_free(gpu_isa_prog_t *p);

/* Attach an interpreter backend to g (g->backend). 0 or -1. gpu_isa_detach frees it. */
int gpu_isa_attach(gpu_t *g);
void gpu_isa_detach(gpu_t *g);

/* Library programs used to run built-in program kinds on the interpreter. */
typedef struct {
    gpu_isa_prog_t vs_mvp, fs_color, fs_flat, fs_tex_modulate, fs_depth;
    int loaded;
} gpu_isa_library_t;

int gpu_isa_library_load(gpu_isa_library_t *lib, char *err, size_t err_len);
void gpu_isa_library_free(gpu_isa_library_t *lib);

/* Switch a draw from built-in programs to their library ISA equivalents where one exists
 * (GPU_VS_MVP -> vs_mvp; GPU_FS_COLOR/FLAT/TEXTURE_MODULATE -> fs_color/fs_flat/fs_tex_modulate;
 * depth-only draws keep the built-in program: the pipeline knows from it that no colour is written).
 * A program already set in d->vs_prog / d->fs_prog (the trace's own ISA words, set by the trace adapter
 * and ignored by the built-in kinds) is used instead of the library one.
 * Returns the number of programs switched (0..2). */
int gpu_isa_convert_draw(gpu_draw_t *d, const gpu_isa_library_t *lib);

/* Switch only the draws whose trace programs are compiled (gpu_isa_prog_t.compiled) to the interpreter:
 * they have no built-in C equivalent. Returns the number of programs switched (0..2). */
int gpu_isa_convert_compiled(gpu_draw_t *d);

#endif
