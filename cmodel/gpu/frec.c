/* Functional record of a frame: storage, file format, the program-uniformity check (frec.h). */
#include "gpu/frec.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "isa/isa.h"

frec_t *frec_new(uint32_t frame, const uint32_t *n_prims, uint32_t n_cmds)
{
    frec_t *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->frame = frame;
    r->n_draws = n_cmds;
    r->draws = calloc(n_cmds ? n_cmds : 1, sizeof *r->draws);
    size_t np = 0;
    for (uint32_t i = 0; i < n_cmds; i++) np += n_prims[i];
    r->prims = calloc(np ? np : 1, sizeof *r->prims);
    if (!r->draws || !r->prims) { frec_free(r); return NULL; }
    r->n_prims = np;
    np = 0;
    for (uint32_t i = 0; i < n_cmds; i++) {
        r->draws[i].prim = (uint32_t)np;
        r->draws[i].n_prims = n_prims[i];
        np += n_prims[i];
    }
    return r;
}

void frec_free(frec_t *r)
{
    if (!r) return;
    free(r->draws);
    free(r->prims);
    free(r->tris);
    free(r->spans);
    free(r->quads);
    free(r->ins);
    free(r->in_count);
    free(r);
}

void frec_bind(frec_t *r, const void *base, size_t stride)
{
    r->bind_base = base;
    r->bind_stride = stride;
}

const frec_draw_t *frec_draw_of(const frec_t *r, const void *d)
{
    if (!r || !r->bind_base || !r->bind_stride) return NULL;
    const char *p = d;
    for (uint32_t lo = 0, hi = r->n_draws; lo < hi;) {   /* commands are in one array: ascending addresses */
        uint32_t mid = lo + (hi - lo) / 2;
        const char *m = r->bind_base + (size_t)mid * r->bind_stride;
        if (m == p) return &r->draws[mid];
        if (m < p) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

static int grow(void **p, size_t *cap, size_t need, size_t item)
{
    if (need <= *cap) return 0;
    size_t nc = *cap ? *cap * 2 : 4096;
    while (nc < need) nc *= 2;
    void *np = realloc(*p, nc * item);
    if (!np) return -1;
    *p = np;
    *cap = nc;
    return 0;
}

uint32_t frec_add_tri(frec_t *r)
{
    if (r->oom || r->n_tris >= UINT32_MAX - 1 || grow((void **)&r->tris, &r->cap_tris, r->n_tris + 1, sizeof *r->tris)) {
        r->oom = 1;
        return UINT32_MAX;
    }
    memset(&r->tris[r->n_tris], 0, sizeof r->tris[0]);
    return (uint32_t)r->n_tris++;
}

void frec_add_span(frec_t *r, int32_t x0, int32_t x1)
{
    if (r->oom || r->n_spans >= UINT32_MAX - 1 || grow((void **)&r->spans, &r->cap_spans, r->n_spans + 1, sizeof *r->spans)) {
        r->oom = 1;
        return;
    }
    r->spans[r->n_spans][0] = x0;
    r->spans[r->n_spans][1] = x1;
    r->n_spans++;
}

uint32_t frec_add_quad(frec_t *r, int32_t x, int32_t y, uint8_t cover)
{
    if (x < 0 || y < 0 || x > 0xFFFF || y > 0xFFFF) r->oom = 1;     /* outside the 16-bit positions */
    if (r->oom || r->n_quads >= UINT32_MAX - 1 || grow((void **)&r->quads, &r->cap_quads, r->n_quads + 1, sizeof *r->quads)) {
        r->oom = 1;
        return UINT32_MAX;
    }
    uint32_t c = cover & 0xFu;
    r->quads[r->n_quads] = (frec_quad_t){(uint16_t)x, (uint16_t)y, c | c << 4 | c << 8 | c << 12};
    return (uint32_t)r->n_quads++;
}

void frec_add_in(frec_t *r, uint32_t quad, const float (*var)[2][4], const float *z)
{
    if (r->oom || grow((void **)&r->ins, &r->cap_ins, r->n_ins + 1, sizeof *r->ins)) {
        r->oom = 1;
        return;
    }
    frec_in_t *e = &r->ins[r->n_ins++];
    e->quad = quad;
    memcpy(e->var, var, sizeof e->var);
    memcpy(e->z, z, sizeof e->z);
}

const frec_in_t *frec_in_of(const frec_t *r, uint32_t quad)
{
    for (size_t lo = 0, hi = r->n_ins; lo < hi;) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->ins[mid].quad == quad) return &r->ins[mid];
        if (r->ins[mid].quad < quad) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

const char *frec_check_complete(const frec_t *r)
{
    if (r->oom == 2) return "a primitive was rendered twice in the frame";
    if (r->oom == 3) return "a triangle's quad walk does not start at its raster rectangle";
    if (r->oom) return "out of memory or a surface beyond 65536 pixels while recording";
    for (size_t i = 0; i < r->n_prims; i++)
        if (!r->prims[i].done) return "a primitive of the frame was not rendered";
    return NULL;
}

/* ---- files ---- */

#define FREC_MAGIC "GPUPDFR5"

/* FNV-1a 64 over 8-byte words (then the remaining bytes): a content hash for keys and checksums */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
    }
    for (; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

uint64_t frec_hash_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    uint64_t h = 0xcbf29ce484222325ull;
    uint8_t buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) h = fnv(h, buf, n);
    int bad = ferror(f);
    fclose(f);
    if (bad) { errno = EIO; return 0; }
    return h ? h : 1;
}

static uint64_t key_hash(const frec_key_t *k)
{
    uint64_t h = 0xcbf29ce484222325ull;
    h = fnv(h, FREC_MAGIC, 8);
    h = fnv(h, &k->trace_hash, sizeof k->trace_hash);
    h = fnv(h, &k->model_hash, sizeof k->model_hash);
    h = fnv(h, &k->frame, sizeof k->frame);
    h = fnv(h, &k->shading, sizeof k->shading);
    return h;
}

void frec_path(char *buf, size_t len, const char *dir, const char *name, const frec_key_t *k)
{
    snprintf(buf, len, "%s/%s.f%u.%016" PRIx64 ".frec", dir, name, k->frame, key_hash(k));
}

typedef struct {
    char magic[8];
    frec_key_t key;
    uint64_t frame_hash;
    uint32_t frame_w, frame_h, n_draws, pad;
    uint64_t n_prims, n_tris, n_spans, n_quads, n_ins;
    uint64_t raw_bytes, packed_bytes;
    uint64_t body_hash;             /* FNV-1a 64 chained over the body's arrays in order: a damaged file is rejected */
} frec_hdr_t;

static size_t body_size(const frec_hdr_t *h)
{
    return (size_t)h->n_draws * sizeof(frec_draw_t) + (size_t)h->n_prims * sizeof(frec_prim_t) +
           (size_t)h->n_tris * sizeof(frec_tri_t) + (size_t)h->n_spans * 2 * sizeof(int32_t) +
           (size_t)h->n_quads * sizeof(frec_quad_t) + (size_t)h->n_ins * sizeof(frec_in_t);
}

int frec_save(const frec_t *r, const frec_key_t *k, const char *path, char *err, size_t errlen)
{
    frec_hdr_t h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, FREC_MAGIC, 8);
    h.key = *k;
    h.frame_hash = r->frame_hash;
    h.frame_w = r->frame_w;
    h.frame_h = r->frame_h;
    h.n_draws = r->n_draws;
    h.n_prims = r->n_prims;
    h.n_tris = r->n_tris;
    h.n_spans = r->n_spans;
    h.n_quads = r->n_quads;
    h.n_ins = r->n_ins;
    size_t raw = body_size(&h);
    uint8_t *buf = malloc(raw ? raw : 1);
    size_t bound = ZSTD_compressBound(raw);
    uint8_t *pk = malloc(bound ? bound : 1);
    if (!buf || !pk) {
        free(buf);
        free(pk);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    size_t o = 0;
#define PUT(p, n) do { size_t n_ = (n); if (n_ != 0) memcpy(buf + o, (p), n_); o += n_; } while (0)
    PUT(r->draws, (size_t)h.n_draws * sizeof(frec_draw_t));
    PUT(r->prims, (size_t)h.n_prims * sizeof(frec_prim_t));
    PUT(r->tris, (size_t)h.n_tris * sizeof(frec_tri_t));
    PUT(r->spans, (size_t)h.n_spans * 2 * sizeof(int32_t));
    PUT(r->quads, (size_t)h.n_quads * sizeof(frec_quad_t));
    PUT(r->ins, (size_t)h.n_ins * sizeof(frec_in_t));
#undef PUT
    h.body_hash = 0xcbf29ce484222325ull;
    h.body_hash = fnv(h.body_hash, r->draws, (size_t)h.n_draws * sizeof(frec_draw_t));
    h.body_hash = fnv(h.body_hash, r->prims, (size_t)h.n_prims * sizeof(frec_prim_t));
    h.body_hash = fnv(h.body_hash, r->tris, (size_t)h.n_tris * sizeof(frec_tri_t));
    h.body_hash = fnv(h.body_hash, r->spans, (size_t)h.n_spans * 2 * sizeof(int32_t));
    h.body_hash = fnv(h.body_hash, r->quads, (size_t)h.n_quads * sizeof(frec_quad_t));
    h.body_hash = fnv(h.body_hash, r->ins, (size_t)h.n_ins * sizeof(frec_in_t));
    size_t n = ZSTD_compress(pk, bound, buf, raw, 3);
    free(buf);
    if (ZSTD_isError(n)) {
        free(pk);
        snprintf(err, errlen, "zstd: %s", ZSTD_getErrorName(n));
        return -1;
    }
    h.raw_bytes = raw;
    h.packed_bytes = n;
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    int bad = !f || fwrite(&h, sizeof h, 1, f) != 1 || (n && fwrite(pk, n, 1, f) != 1);
    if (f && fclose(f)) bad = 1;
    free(pk);
    if (bad || rename(tmp, path)) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

frec_t *frec_load(const frec_key_t *k, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    frec_hdr_t h;
    frec_t *r = NULL;
    uint8_t *pk = NULL;
    ZSTD_DCtx *dc = NULL;
    if (fread(&h, sizeof h, 1, f) != 1 || memcmp(h.magic, FREC_MAGIC, 8)) {
        snprintf(err, errlen, "%s: not a frame record", path);
        goto out;
    }
    if (h.key.trace_hash != k->trace_hash || h.key.model_hash != k->model_hash || h.key.frame != k->frame ||
        h.key.shading != k->shading) {
        snprintf(err, errlen, "%s: recorded for another trace, model, frame or shading path", path);
        goto out;
    }
    if (h.n_draws > (1u << 24) || h.n_prims > (1ull << 32) || h.n_tris > (1ull << 32) || h.n_spans > (1ull << 32) ||
        h.n_quads > (1ull << 32) || h.n_ins > (1ull << 32) || h.raw_bytes != body_size(&h) || h.packed_bytes > (1ull << 34)) {
        snprintf(err, errlen, "%s: corrupt header", path);
        goto out;
    }
    /* the body is decompressed straight into the arrays (no intermediate copy of it) */
    pk = malloc(h.packed_bytes ? h.packed_bytes : 1);
    r = calloc(1, sizeof *r);
    dc = ZSTD_createDCtx();
    if (!pk || !r || !dc) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    if (h.packed_bytes && fread(pk, h.packed_bytes, 1, f) != 1) {
        snprintf(err, errlen, "%s: truncated", path);
        goto fail;
    }
    r->frame = h.key.frame;
    r->frame_hash = h.frame_hash;
    r->frame_w = h.frame_w;
    r->frame_h = h.frame_h;
    r->n_draws = h.n_draws;
    r->n_prims = h.n_prims;
    r->n_tris = r->cap_tris = h.n_tris;
    r->n_spans = r->cap_spans = h.n_spans;
    r->n_quads = r->cap_quads = h.n_quads;
    r->n_ins = r->cap_ins = h.n_ins;
    r->draws = malloc((size_t)h.n_draws * sizeof *r->draws + 1);
    r->prims = malloc((size_t)h.n_prims * sizeof *r->prims + 1);
    r->tris = malloc((size_t)h.n_tris * sizeof *r->tris + 1);
    r->spans = malloc((size_t)h.n_spans * sizeof *r->spans + 1);
    r->quads = malloc((size_t)h.n_quads * sizeof *r->quads + 1);
    r->ins = malloc((size_t)h.n_ins * sizeof *r->ins + 1);
    if (!r->draws || !r->prims || !r->tris || !r->spans || !r->quads || !r->ins) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    {
        void *dst[6] = {r->draws, r->prims, r->tris, r->spans, r->quads, r->ins};
        size_t len[6] = {(size_t)h.n_draws * sizeof *r->draws, (size_t)h.n_prims * sizeof *r->prims,
                         (size_t)h.n_tris * sizeof *r->tris, (size_t)h.n_spans * sizeof *r->spans,
                         (size_t)h.n_quads * sizeof *r->quads, (size_t)h.n_ins * sizeof *r->ins};
        ZSTD_inBuffer ib = {pk, h.packed_bytes, 0};
        uint64_t sum = 0xcbf29ce484222325ull;
        size_t zr = 1;
        int bad = 0;
        for (int a = 0; a < 6 && !bad; a++) {
            ZSTD_outBuffer ob = {dst[a], len[a], 0};
            while (ob.pos < ob.size && !bad) {
                size_t pos0 = ob.pos, in0 = ib.pos;
                zr = ZSTD_decompressStream(dc, &ob, &ib);
                bad = ZSTD_isError(zr) || (zr == 0 && ob.pos < ob.size) || (ob.pos == pos0 && ib.pos == in0);
            }
            sum = fnv(sum, dst[a], len[a]);
        }
        if (!bad && zr != 0) {      /* the frame must end exactly here: nothing more to come out */
            uint8_t extra;
            ZSTD_outBuffer ob = {&extra, 1, 0};
            zr = ZSTD_decompressStream(dc, &ob, &ib);
            bad = ZSTD_isError(zr) || zr != 0 || ob.pos != 0;
        }
        if (bad || ib.pos != ib.size || sum != h.body_hash) {
            snprintf(err, errlen, "%s: corrupt data", path);
            goto fail;
        }
    }
    /* every index the replay follows stays inside the arrays */
    for (uint32_t i = 0; i < r->n_draws; i++)
        if ((uint64_t)r->draws[i].prim + r->draws[i].n_prims > r->n_prims) goto corrupt;
    for (size_t i = 0; i < r->n_prims; i++)
        if ((uint64_t)r->prims[i].tri + r->prims[i].n_tri > r->n_tris) goto corrupt;
    for (size_t i = 0; i < r->n_ins; i++)
        if (r->ins[i].quad >= r->n_quads || (i && r->ins[i].quad <= r->ins[i - 1].quad)) goto corrupt;
    for (size_t i = 0; i < r->n_tris; i++) {
        const frec_tri_t *t = &r->tris[i];
        if ((uint64_t)t->quad + t->n_quad > r->n_quads) goto corrupt;
        if (!t->empty && (t->ry1 < t->ry0 || t->rx1 < t->rx0 ||
                          (uint64_t)t->span + (uint64_t)(((int64_t)t->ry1 - (t->ry0 & ~1)) / 2 + 1) > r->n_spans))
            goto corrupt;
    }
    free(pk);
    ZSTD_freeDCtx(dc);
    fclose(f);
    return r;
corrupt:
    snprintf(err, errlen, "%s: inconsistent indices", path);
fail:
    frec_free(r);
    r = NULL;
out:
    free(pk);
    ZSTD_freeDCtx(dc);
    fclose(f);
    return r;
}

/* ---- uniform control flow of a program ---- */

int frec_flow_uniform(const uint64_t *code, uint32_t n)
{
    uint8_t reg[ISA_NUM_REGS], pred[ISA_NUM_PREDS];     /* 1: may differ between threads or inputs */
    memset(reg, 0, sizeof reg);
    memset(pred, 0, sizeof pred);
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t pc = 0; pc < n; pc++) {
            uint64_t w = code[pc];
            uint32_t op = ISA_GET(w, OP), gp = ISA_GET(w, GP), ra = ISA_GET(w, RA), rb = ISA_GET(w, RB);
            uint32_t rc = ISA_GET(w, RC), rd = ISA_GET(w, RD), bi = ISA_GET(w, BI);
            uint8_t g = gp != ISA_PRED_TRUE && pred[gp];
            uint8_t a = reg[ra], b = bi ? 0 : reg[rb], c = reg[rc];
            uint8_t t = g;
            switch (op) {
            case ISA_OP_NOP: continue;
            case ISA_OP_EXIT: case ISA_OP_BRA:
                if (g) return 0;
                continue;
            case ISA_OP_S2R: t = 1; break;
            case ISA_OP_SEL: t |= a | b | ((rc & 7) != ISA_PRED_TRUE && pred[rc & 7]); break;
            case ISA_OP_PAND: case ISA_OP_POR: case ISA_OP_PXOR:
                t |= ((ra & 7) != ISA_PRED_TRUE && pred[ra & 7]) | ((rb & 7) != ISA_PRED_TRUE && pred[rb & 7]);
                break;
            case ISA_OP_LD_A: case ISA_OP_LD_L:
                if (a) return 0;
                t = 1;
                break;
            case ISA_OP_LD_C:
                if (a) return 0;
                break;
            case ISA_OP_ST_L:       /* local memory is read back as varying (ld.l above) */
                if (a) return 0;
                continue;
            case ISA_OP_ST_O:
                if (a) return 0;
                continue;
            case ISA_OP_TEX: t = 1; break;
            default: t |= a | b | c; break;     /* ALU and SFU: A, B (or the immediate), C */
            }
            switch (op) {
            case ISA_OP_FSETP: case ISA_OP_ISETP: case ISA_OP_USETP:
            case ISA_OP_PAND: case ISA_OP_POR: case ISA_OP_PXOR:
                if ((rd & 7) != ISA_PRED_TRUE && t && !pred[rd & 7]) { pred[rd & 7] = 1; changed = 1; }
                break;
            case ISA_OP_TEX:
                for (uint32_t k = 0; k < 4 && rd + k < ISA_NUM_REGS; k++)
                    if (!reg[rd + k]) { reg[rd + k] = 1; changed = 1; }
                break;
            default:
                if (rd != ISA_REG_ZERO && t && !reg[rd]) { reg[rd] = 1; changed = 1; }
                break;
            }
        }
    }
    return 1;
}
