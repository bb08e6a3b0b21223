#include "gpu/isa_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/frag.h"
#include "isa/isa.h"

typedef struct {
    gpu_t *g;
    isa_ctx_t *vs, *fs;
    isa_warp_t *w;
    const gpu_isa_prog_t *vs_prog, *fs_prog;    /* loaded programs */
    const gpu_draw_t *vs_draw, *fs_draw;        /* whose constants are loaded */
    const gpu_draw_t *tex_draw;                 /* draw whose textures tex instructions sample */
} isa_be_t;

static void sampler(void *user, uint32_t unit, uint32_t warp, uint32_t lane, uint32_t s_bits, uint32_t t_bits,
                    uint32_t rgba[4])
{
    (void)warp;
    (void)lane;
    isa_be_t *b = user;
    float out[4] = {0, 0, 0, 1};
    if (unit < GPU_MAX_TEXTURES && b->tex_draw) gpu_tex_sample(b->g, b->tex_draw, (int)unit, isa_bits_float(s_bits), isa_bits_float(t_bits), out);
    for (int c = 0; c < 4; c++) rgba[c] = isa_float_bits(out[c]);
}

/* Fragment stage: the level of detail comes from the lane's 2x2 quad (lanes 4q..4q+3 = one quad of the
 * FS unit, helper lanes included), as in gpu_tex_quad_lod for the built-in programs. */
static void sampler_q(void *user, uint32_t unit, uint32_t warp, uint32_t exec, const uint32_t s_bits[32],
                      const uint32_t t_bits[32], uint32_t res[4][32])
{
    (void)warp;
    isa_be_t *b = user;
    for (uint32_t q = 0; q < 8; q++) {
        uint32_t qm = (exec >> (4 * q)) & 15u;
        if (!qm) continue;
        float s4[4], t4[4];
        for (int k = 0; k < 4; k++) {
            s4[k] = isa_bits_float(s_bits[4 * q + (uint32_t)k]);
            t4[k] = isa_bits_float(t_bits[4 * q + (uint32_t)k]);
        }
        if (unit == GPU_DERIV_UNIT) {
            /* quad derivatives: lane k = pixel (x + (k & 1), y + (k >> 1)); d/dx per row, d/dy per column */
            for (uint32_t k = 0; k < 4; k++) {
                if (!(qm & (1u << k))) continue;
                uint32_t row = k & 2u, col = k & 1u;
                float d[4] = {s4[row + 1] - s4[row], s4[col + 2] - s4[col], t4[row + 1] - t4[row], t4[col + 2] - t4[col]};
                for (int c = 0; c < 4; c++) res[c][4 * q + k] = isa_float_bits(d[c]);
            }
            continue;
        }
        float lod = 0.0f;
        if (unit < GPU_MAX_TEXTURES && b->tex_draw) lod = gpu_tex_quad_lod(b->g, b->tex_draw, (int)unit, s4, t4);
        for (int k = 0; k < 4; k++) {
            if (!(qm & (1u << k))) continue;
            float out[4] = {0, 0, 0, 1};
            if (unit < GPU_MAX_TEXTURES && b->tex_draw) gpu_tex_sample_lod(b->g, b->tex_draw, (int)unit, s4[k], t4[k], lod, out);
            for (int c = 0; c < 4; c++) res[c][4 * q + (uint32_t)k] = isa_float_bits(out[c]);
        }
    }
}

static int load(isa_ctx_t *ctx, const gpu_isa_prog_t **cur, const gpu_isa_prog_t *p)
{
    if (*cur == p) return 0;
    if (!p || isa_ctx_load(ctx, p->words, p->n, NULL) != ISA_OK) return -1;
    *cur = p;
    return 0;
}

static void consts(isa_ctx_t *ctx, const float (*k)[4])
{
    for (uint32_t r = 0; r < GPU_MAX_CONSTS && 4 * r + 3 < ISA_CONST_WORDS; r++)
        for (int c = 0; c < 4; c++) ctx->konst[4 * r + (uint32_t)c] = isa_float_bits(k[r][c]);
}

static int run_vs(void *ctx, const gpu_draw_t *d, uint32_t n, const float (*in)[GPU_MAX_ATTRIBS][4],
                  float (*out)[1 + GPU_MAX_VARYINGS][4])
{
    isa_be_t *b = ctx;
    if (n > ISA_WARP_SIZE || load(b->vs, &b->vs_prog, d->vs_prog)) return -1;
    if (b->vs_draw != d) {
        consts(b->vs, (const float (*)[4])d->vs_consts);
        b->vs_draw = d;
    }
    b->tex_draw = d;
    isa_warp_t *w = b->w;
    for (uint32_t t = 0; t < n; t++)
        for (uint32_t a = 0; a < gpu_attr_span(d->n_attribs) && 4 * a + 3 < ISA_ATTR_WORDS; a++)
            for (int c = 0; c < 4; c++) w->attr[4 * a + (uint32_t)c][t] = isa_float_bits(in[t][a][c]);
    for (uint32_t t = 0; t < n; t++) w->sr_vertex[t] = t;
    isa_warp_init(w, 0, n >= 32 ? 0xFFFFFFFFu : ((1u << n) - 1));
    if (isa_run(b->vs, w, 1u << 20) != ISA_DONE) return -1;
    for (uint32_t t = 0; t < n; t++)
        for (uint32_t s = 0; s < 1 + GPU_MAX_VARYINGS && 4 * s + 3 < ISA_OUT_WORDS; s++)
            for (int c = 0; c < 4; c++) out[t][s][c] = isa_bits_float(w->out[4 * s + (uint32_t)c][t]);
    return 0;
}

static int run_fs(void *ctx, const gpu_draw_t *d, uint32_t n, const float (*in)[GPU_MAX_VARYINGS][4],
                  const float (*frag_pos)[4], float (*color)[GPU_MAX_RTS][4], float *depth, uint8_t *discard)
{
    isa_be_t *b = ctx;
    if (n > ISA_WARP_SIZE || load(b->fs, &b->fs_prog, d->fs_prog)) return -1;
    if (b->fs_draw != d) {
        consts(b->fs, (const float (*)[4])d->fs_consts);
        b->fs_draw = d;
    }
    b->tex_draw = d;
    isa_warp_t *w = b->w;
    const gpu_isa_prog_t *fp = d->fs_prog;
    if (fp->compiled) {
        /* compiled-program ABI: a[4v..] varying v, a[32..35] gl_FragCoord (x, y, z, 1/w = 1: not carried),
         * a[36] gl_FrontFacing (1.0 front, 0.0 back) */
        for (uint32_t t = 0; t < n; t++) {
            for (uint32_t v = 0; v < GPU_MAX_VARYINGS; v++)
                for (int c = 0; c < 4; c++) w->attr[4 * v + (uint32_t)c][t] = isa_float_bits(in[t][v][c]);
            w->attr[32][t] = isa_float_bits(frag_pos[t][0]);
            w->attr[33][t] = isa_float_bits(frag_pos[t][1]);
            w->attr[34][t] = isa_float_bits(frag_pos[t][2]);
            w->attr[35][t] = isa_float_bits(1.0f);
            w->attr[36][t] = isa_float_bits(frag_pos[t][3]);
        }
    } else {
        for (uint32_t t = 0; t < n; t++) {
            for (uint32_t v = 0; v < 2; v++)
                for (int c = 0; c < 4; c++) w->attr[4 * v + (uint32_t)c][t] = isa_float_bits(in[t][v][c]);
            w->attr[8][t] = isa_float_bits(frag_pos[t][2]);
        }
    }
    isa_warp_init(w, 0, n >= 32 ? 0xFFFFFFFFu : ((1u << n) - 1));
    for (uint32_t t = 0; t < n; t++) w->out[4][t] = isa_float_bits(frag_pos[t][2]);
    if (isa_run(b->fs, w, 1u << 20) != ISA_DONE) return -1;
    for (uint32_t t = 0; t < n; t++) {
        float c4[4];
        for (int c = 0; c < 4; c++) c4[c] = isa_bits_float(w->out[(uint32_t)c][t]);
        for (int r = 0; r < GPU_MAX_RTS; r++) memcpy(color[t][r], c4, sizeof c4);
        depth[t] = isa_bits_float(w->out[4][t]);
        discard[t] = (uint8_t)(fp->compiled && w->out[5][t] != 0);
    }
    return 0;
}

int gpu_isa_attach(gpu_t *g)
{
    isa_be_t *b = calloc(1, sizeof *b);
    if (!b) return -1;
    b->g = g;
    b->vs = isa_ctx_new();
    b->fs = isa_ctx_new();
    b->w = isa_warp_new();
    if (!b->vs || !b->fs || !b->w) {
        isa_ctx_free(b->vs);
        isa_ctx_free(b->fs);
        isa_warp_free(b->w);
        free(b);
        return -1;
    }
    b->vs->tex = sampler;
    b->vs->tex_user = b;
    b->fs->tex = sampler;
    b->fs->texq = sampler_q;
    b->fs->tex_user = b;
    g->backend.ctx = b;
    g->backend.run_vs = run_vs;
    g->backend.run_fs = run_fs;
    return 0;
}

void gpu_isa_detach(gpu_t *g)
{
    isa_be_t *b = g->backend.ctx;
    if (!b || g->backend.run_vs != run_vs) return;
    isa_ctx_free(b->vs);
    isa_ctx_free(b->fs);
    isa_warp_free(b->w);
    free(b);
    memset(&g->backend, 0, sizeof g->backend);
}

void gpu_isa_prog_scan(gpu_isa_prog_t *p)
{
    p->compiled = (uint8_t)(!strncmp(p->name, "glsl:", 5) || !strncmp(p->name, "ff:", 3));
    uint32_t maxo = 0;
    int any = 0;
    for (uint32_t i = 0; i < p->n; i++) {
        uint64_t w = p->words[i];
        uint32_t op = (uint32_t)(w >> 57), ra = (uint32_t)(w >> 41) & 63u, ofs = (uint32_t)(w & 0xFFFFu);
        if (op == 0x44 && ra == 63u && ofs < ISA_OUT_WORDS) {   /* st.o [ofs], rb */
            if (!any || ofs > maxo) maxo = ofs;
            any = 1;
        }
    }
    uint32_t nv = any && maxo >= 4 ? (maxo - 4) / 4 + 1 : 0;
    p->n_varyings = (uint8_t)(nv > GPU_MAX_VARYINGS ? GPU_MAX_VARYINGS : nv);
}

int gpu_isa_convert_compiled(gpu_draw_t *d)
{
    int n = 0;
    const gpu_isa_prog_t *vp = d->vs_prog, *fp = d->fs_prog;
    if (vp && vp->compiled) {
        d->vs_kind = GPU_VS_ISA;
        if (vp->n_varyings > d->n_varyings) d->n_varyings = vp->n_varyings;
        n++;
    }
    if (fp && fp->compiled) {
        d->fs_kind = GPU_FS_ISA;
        n++;
    }
    return n;
}

int gpu_isa_prog_library(gpu_isa_prog_t *p, const char *name, char *err, size_t err_len)
{
    memset(p, 0, sizeof *p);
    p->words = malloc(ISA_MAX_CODE * sizeof(uint64_t));
    if (!p->words) { snprintf(err, err_len, "out of memory"); return -1; }
    isa_asm_err_t ae;
    memset(&ae, 0, sizeof ae);
    int n = isa_shader_assemble(name, p->words, ISA_MAX_CODE, &ae);
    if (n < 0) {
        snprintf(err, err_len, "shader library program '%s': line %d: %s", name, ae.line, ae.msg);
        free(p->words);
        p->words = NULL;
        return -1;
    }
    p->n = (uint32_t)n;
    snprintf(p->name, sizeof p->name, "%s", name);
    return 0;
}

void gpu_isa_prog_free(gpu_isa_prog_t *p)
{
    free(p->words);
    memset(p, 0, sizeof *p);
}

int gpu_isa_library_load(gpu_isa_library_t *lib, char *err, size_t err_len)
{
    memset(lib, 0, sizeof *lib);
    if (gpu_isa_prog_library(&lib->vs_mvp, "vs_mvp", err, err_len) || gpu_isa_prog_library(&lib->fs_color, "fs_color", err, err_len) ||
        gpu_isa_prog_library(&lib->fs_flat, "fs_flat", err, err_len) ||
        gpu_isa_prog_library(&lib->fs_tex_modulate, "fs_tex_modulate", err, err_len) ||
        gpu_isa_prog_library(&lib->fs_depth, "fs_depth", err, err_len)) {
        gpu_isa_library_free(lib);
        return -1;
    }
    lib->loaded = 1;
    return 0;
}

void gpu_isa_library_free(gpu_isa_library_t *lib)
{
    gpu_isa_prog_free(&lib->vs_mvp);
    gpu_isa_prog_free(&lib->fs_color);
    gpu_isa_prog_free(&lib->fs_flat);
    gpu_isa_prog_free(&lib->fs_tex_modulate);
    gpu_isa_prog_free(&lib->fs_depth);
    lib->loaded = 0;
}

int gpu_isa_convert_draw(gpu_draw_t *d, const gpu_isa_library_t *lib)
{
    int n = 0;
    if (!lib->loaded) return 0;
    if (d->vs_prog && ((const gpu_isa_prog_t *)d->vs_prog)->compiled) {
        n += gpu_isa_convert_compiled(d);
        return n;
    }
    if (d->vs_kind == GPU_VS_MVP && d->n_varyings <= 2) {
        d->vs_kind = GPU_VS_ISA;
        if (!d->vs_prog) d->vs_prog = &lib->vs_mvp;   /* a program the trace carries wins */
        n++;
    }
    const gpu_isa_prog_t *fp = NULL;
    if (d->fs_prog && d->fs_kind != GPU_FS_DEPTH_ONLY) {
        d->fs_kind = GPU_FS_ISA;
        return n + 1;
    }
    switch (d->fs_kind) {
    case GPU_FS_COLOR: fp = &lib->fs_color; break;
    case GPU_FS_FLAT: fp = &lib->fs_flat; break;
    case GPU_FS_TEXTURE_MODULATE: fp = &lib->fs_tex_modulate; break;
    default: break;
    }
    if (fp) {
        d->fs_kind = GPU_FS_ISA;
        d->fs_prog = fp;
        n++;
    }
    return n;
}
