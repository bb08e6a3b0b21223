/* The scene container (frames of commands, surfaces, owned blobs) and the run configuration (scheme
 * names, defaults, frame hash). */
#include "sys/sys.h"

#include "sys/chopin.h"

#include <stdlib.h>
#include <string.h>

void sys_scene_init(sys_scene_t *s)
{
    memset(s, 0, sizeof *s);
    s->display = -1;
}

void sys_scene_free(sys_scene_t *s)
{
    for (size_t i = 0; i < s->n_blobs; i++) free(s->blobs[i]);
    free(s->blobs);
    for (uint32_t f = 0; f < s->n_frames; f++) free(s->frames[f].cmds);
    free(s->frames);
    memset(s, 0, sizeof *s);
    s->display = -1;
}

void *sys_scene_own(sys_scene_t *s, void *p)
{
    if (!p) return NULL;
    if (s->n_blobs == s->cap_blobs) {
        size_t nc = s->cap_blobs ? s->cap_blobs * 2 : 64;
        void **nb = realloc(s->blobs, nc * sizeof *nb);
        if (!nb) { free(p); return NULL; }
        s->blobs = nb;
        s->cap_blobs = nc;
    }
    s->blobs[s->n_blobs++] = p;
    return p;
}

sys_cmd_t *sys_scene_add_cmd(sys_scene_t *s, uint32_t frame)
{
    if (frame >= s->n_frames) {
        sys_frame_t *nf = realloc(s->frames, (size_t)(frame + 1) * sizeof *nf);
        if (!nf) return NULL;
        memset(nf + s->n_frames, 0, (size_t)(frame + 1 - s->n_frames) * sizeof *nf);
        s->frames = nf;
        s->n_frames = frame + 1;
    }
    sys_frame_t *f = &s->frames[frame];
    if (f->n == f->cap) {
        size_t nc = f->cap ? f->cap * 2 : 16;
        sys_cmd_t *nb = realloc(f->cmds, nc * sizeof *nb);
        if (!nb) return NULL;
        f->cmds = nb;
        f->cap = nc;
    }
    sys_cmd_t *c = &f->cmds[f->n++];
    memset(c, 0, sizeof *c);
    c->ref_pixels = -1;
    return c;
}

int sys_scene_add_surface(sys_scene_t *s, uint32_t w, uint32_t h, gpu_format_t fmt, const uint32_t *init)
{
    if (s->n_surf >= GPU_MAX_SURFACES) return -1;
    s->surf[s->n_surf].w = w;
    s->surf[s->n_surf].h = h;
    s->surf[s->n_surf].fmt = fmt;
    s->surf[s->n_surf].init = init;
    return (int)s->n_surf++;
}

static const char *const scheme_names[SYS_SCHEME_COUNT] = {"single", "dup", "gpupd", "gpupd-batch", "gpupd-ra", "afr", "chopin",
                                                                "gpupd-stream"};

const char *sys_scheme_name(sys_scheme_t s) { return (unsigned)s < SYS_SCHEME_COUNT ? scheme_names[s] : "?"; }

int sys_scheme_parse(const char *name, sys_scheme_t *s)
{
    for (int i = 0; i < SYS_SCHEME_COUNT; i++)
        if (!strcmp(name, scheme_names[i])) { *s = (sys_scheme_t)i; return 0; }
    return -1;
}

const char *sys_sx_front_name(sys_sx_front_t f)
{
    static const char *const n[] = {"split", "in-order", "free", "ahead"};
    return (unsigned)f < sizeof n / sizeof n[0] ? n[f] : "?";
}

sys_config_t sys_config_default(void)
{
    sys_config_t c;
    memset(&c, 0, sizeof c);
    c.scheme = SYS_SCHEME_SINGLE;
    c.n_gpus = 1;
    c.topo = NET_LINE;
    c.batch = 4096;
    c.tile_log2 = 5;
    c.own_mode = P2G_MODE_DIAG;
    c.link_latency = 4;
    c.hub_rate = 2;
    c.send_rate = 1;
    c.cp_cost = 1;
    c.mem_limit_mb = SYS_MEM_LIMIT_MB_DEFAULT;
    c.timing = 1;
    c.tcfg = gpu_tcfg_default();
    c.link_latency_ns = 400.0;
    c.link_gbps = 40.0;
    c.hub_gbps = 80.0;
    c.p2g_rows = 2;
    c.chopin_min_tris = CHOPIN_MIN_TRIS_DEFAULT;
    c.chopin_max_draw_tris = CHOPIN_MAX_DRAW_TRIS_DEFAULT;
    return c;
}

uint64_t sys_frame_hash(const uint32_t *pixels, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 4; b++) {
            h ^= (pixels[i] >> (8 * b)) & 0xFFu;
            h *= 0x100000001b3ull;
        }
    return h;
}
