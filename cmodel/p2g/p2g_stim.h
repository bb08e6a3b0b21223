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

/* Configuration fields, for changes of ONE field at a time (issue 12: a unit that forgets to rebuild
 * its tables when only the tile size changes must be caught). */
typedef enum {
    P2G_FIELD_N, P2G_FIELD_W, P2G_FIELD_H, P2G_FIELD_TILE, P2G_FIELD_MODE, P2G_FIELD_SC_X0, P2G_FIELD_SC_Y0,
    P2G_FIELD_SC_X1, P2G_FIELD_SC_Y1, P2G_N_FIELDS
} p2g_field_t;
extern const char *const p2g_field_name[P2G_N_FIELDS];

/* *out = *prev with exactly field f changed to another valid value (n within 1..max_gpus; when max_gpus
 * is 1 the field cannot change: then n is left as it is and 0 is returned, else 1). */
int p2g_stim_change_one(rng_t *r, const p2g_config_t *prev, p2g_field_t f, uint32_t max_gpus, p2g_config_t *out);

#endif
