/* Synthetic scenes for tests and benchmarks (deterministic from a seed).
 *
 *   tris   one frame: random perspective triangles (lists, strips, fans, indexed), depth test, back-face
 *          culling on some draws, blending on some, triangles crossing the near plane and behind the eye
 *   rtt    two frames: render-to-texture (an offscreen 128x128 target drawn, then sampled on screen),
 *          MRT, alpha discard, fragment depth write, scissor, colour masks, an accumulation target that is
 *          never cleared (inter-frame dependency for AFR), a depth surface sampled as a texture
 *   big    one frame: `prims` small triangles in few big draws (batching, speed)
 */
#ifndef GPUPD_SYS_SCENE_GEN_H
#define GPUPD_SYS_SCENE_GEN_H

#include <stdint.h>

#include "sys/sys.h"

/* Build scene `name` of w x h pixels. prims: approximate primitive count (0: the scene's default).
 * Returns 0, or -1 (unknown name, bad size, out of memory). */
int sys_scene_synth(sys_scene_t *s, const char *name, uint32_t w, uint32_t h, uint32_t prims, uint64_t seed);

#endif
