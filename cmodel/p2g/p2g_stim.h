/* Constrained-random P2G stimulus, shared by the lockstep co-simulation, the Icarus vector generator and the
 * unit tests. Deterministic for a given seed; no global state. */
#ifndef GPUPD_P2G_STIM_H
#define GPUPD_P2G_STIM_H

#include "common/rng.h"
#include "p2g/p2g.h"

typedef enum {
    P2G_STIM_TINY, P2G_STIM_SCREEN, P2G_STIM_SLIVER, P2G_STIM_OFFSCREEN, P2G_STIM_TILE_EDGE,
    P2G_STIM_PIXEL_EDGE, P2G_STIM_EXTREME, P2G_STIM_CULLED, P2G_STIM_NEAR_CLIP, P2G_STIM_MEDIUM,
    P2G_STIM_N_KINDS
} p2g_stim_kind_t;

extern const char *const p2g_stim_kind_name[P2G_STIM_N_KINDS];

/* A random primitive of the given kind for configuration cfg (prim_id and tag are left to the caller). */
void p2g_stim_prim(rng_t *r, const p2g_config_t *cfg, p2g_stim_kind_t kind, p2g_prim_t *p);

/* A random primitive of a random kind. Returns the kind. */
p2g_stim_kind_t p2g_stim_any(rng_t *r, const p2g_config_t *cfg, p2g_prim_t *p);

/* A random valid configuration with n_gpus GPUs: screen sizes from 1x1 to 16384x16384 (biased to real
 * resolutions), tile sizes 1..16384 (biased to 32), both modes, full/partial/empty/oversized scissors. */
void p2g_stim_config(rng_t *r, uint32_t n_gpus, p2g_config_t *cfg);

#endif
