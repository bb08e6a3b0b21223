/* Fragment-side pieces shared by the EZ, FS and ROP units: texture sampling, built-in fragment
 * programs, depth compare, blending and colour conversion. */
#ifndef GPUPD_GPU_FRAG_H
#define GPUPD_GPU_FRAG_H

#include <stdint.h>

#include "gpu/gpu.h"

/* Sample texture unit `unit` of the draw at normalised (u, v); out RGBA in [0,1]. A missing texture
 * samples as (0,0,0,1). Colour surfaces return unorm8/255; depth surfaces return (d, d, d, 1). */
void gpu_tex_sample(const gpu_t *g, const gpu_draw_t *d, int unit, float u, float v, float out[4]);
/* GL texturing with a level of detail (log2 of the scale factor): lod <= 0 magnification filter at level 0;
 * else the minification filter (st.tex_min), mipmapped per st.tex_mip (nearest level: ceil(lod + 1/2) - 1,
 * linear: blend of floor(lod) and the next level), wrap per axis (st.tex_wrap / tex_wrap_t). */
void gpu_tex_sample_lod(const gpu_t *g, const gpu_draw_t *d, int unit, float u, float v, float lod, float out[4]);
/* Level of detail of a 2x2 quad (lanes 0..3: (x,y), (x+1,y), (x,y+1), (x+1,y+1)) with coordinates s[], t[]:
 * log2 of GL's scale factor max(|d(u,v)/dx|, |d(u,v)/dy|) in texels of level 0; 0 when the unit's
 * filtering does not depend on it. Used by the built-in programs and the ISA sampler alike. */
float gpu_tex_quad_lod(const gpu_t *g, const gpu_draw_t *d, int unit, const float s[4], const float t[4]);

/* Does the fragment program of this draw discard or write depth (disables early Z)? */
int gpu_fs_needs_late_z(const gpu_draw_t *d);
/* Number of colour outputs (0 for depth-only). */
int gpu_fs_writes_color(const gpu_draw_t *d);

/* Run a built-in fragment program on one fragment. color[rt][4]; *depth may be replaced (24-bit);
 * returns 1 if the fragment is discarded. */
int gpu_fs_builtin(const gpu_t *g, const gpu_draw_t *d, const float var[GPU_MAX_VARYINGS][4],
                   float color[GPU_MAX_RTS][4], uint32_t *depth);

/* The same with the quad's level of detail for texture unit 0 (gpu_tex_quad_lod of the coordinates
 * varying gpu_fs_builtin_texcoord(d), -1: the program samples no texture). */
int gpu_fs_builtin_lod(const gpu_t *g, const gpu_draw_t *d, const float var[GPU_MAX_VARYINGS][4], float lod,
                       float color[GPU_MAX_RTS][4], uint32_t *depth);
int gpu_fs_builtin_texcoord(const gpu_draw_t *d);

int gpu_depth_compare(uint8_t func, uint32_t frag, uint32_t stored);

/* Blend src (fragment colour, clamped to [0,1]) over the stored RGBA8 value dst; apply the colour
 * mask; return the new packed value. */
uint32_t gpu_blend_pixel(const gpu_blend_t *b, const float blend_color[4], uint8_t mask,
                         const float src[4], uint32_t dst);

/* Blend into a floating-point colour target (gpu_fmt_is_float): as gpu_blend_pixel but nothing is clamped
 * (GL for float buffers); the stored texel p (gpu_fmt_words words) is read, blended in binary32, rounded to
 * the format per channel (gpu_texel_encode) under the colour mask. Returns 1 if the texel changed. */
int gpu_blend_pixel_float(const gpu_blend_t *b, const float blend_color[4], uint8_t mask, const float src[4],
                          gpu_format_t fmt, uint32_t *p);
/* Texel of a floating-point format <-> RGBA floats (missing channels read 0, 0, 1 for G, B, A; binary16
 * rounded to nearest even, overflow to infinity, half denormals kept, NaN -> 0x7E00). */
void gpu_texel_decode(gpu_format_t fmt, const uint32_t *p, float out[4]);
void gpu_texel_encode(gpu_format_t fmt, const float in[4], uint32_t *p);
uint16_t gpu_f32_to_f16(float f);
float gpu_f16_to_f32(uint16_t h);

uint32_t gpu_pack_rgba8(const float c[4]);
void gpu_unpack_rgba8(uint32_t v, float c[4]);

#endif
