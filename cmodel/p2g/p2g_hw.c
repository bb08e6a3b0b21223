/* C cycle model of rtl/p2g_mapper.v. Every block below names the RTL stage it mirrors. */
#include "p2g/p2g_hw.h"

#include <string.h>

void p2g_hw_init(p2g_hw_t *h, p2g_hw_params_t prm)
{
    memset(h, 0, sizeof *h);   /* key n = 0: the first configuration starts a table build */
    h->prm = prm;
}

static int key_change(const p2g_hw_t *h, const p2g_config_t *cf)
{
    return cf->n_gpus != h->c.n || cf->width != h->c.w || cf->tile_log2 != h->c.ts ||
           (uint32_t)(cf->mode == P2G_MODE_LINEAR) != h->c.mode;
}

static uint64_t lowmask(uint32_t bits) { return bits >= 64 ? ~0ull : ((1ull << bits) - 1); }

/* p2g_range_mask.v: {s .. s+len-1} mod n, s < n, len < n, truncated to max_gpus bits. */
/* bits a .. b-1 (b <= 64) */
static uint64_t bit_range(uint32_t a, uint32_t b) { return a >= b ? 0 : lowmask(b) & ~lowmask(a); }

/* bit i (i < min(n, max_gpus)) is set iff s <= i < s + len or i + n < s + len (the wrapped part), as the
 * RTL's per-bit comparators; computed as two bit ranges */
static uint64_t range_mask(uint32_t s, uint32_t len, uint32_t n, uint32_t max_gpus)
{
    uint32_t end = s + len, top = n < max_gpus ? n : max_gpus;
    uint64_t m = bit_range(s, end < top ? end : top);
    if (end > n) m |= bit_range(0, end - n < top ? end - n : top);
    return m;
}

static int s7_final(const p2g_hw_t *h) { return h->s7_left <= h->prm.rows; }

/* S8: the chunk's ROWS rows (those of the primitive) starting at s, OR-ed onto acc; *next_s: the start after. */
static uint64_t chunk_mask(const p2g_hw_t *h, uint32_t s, uint32_t left, uint32_t len, uint64_t acc, uint32_t *next_s)
{
    uint32_t step = h->c.mode ? h->c.tprn : 1;
    for (uint32_t r = 0; r < h->prm.rows; r++) {
        if (r < left) acc |= range_mask(s, len, h->c.n, h->prm.max_gpus);
        s += step;
        if (s >= h->c.n) s -= h->c.n;
    }
    if (next_s) *next_s = s;
    return acc;
}

/* the ready chain (combinational, from OUT back to S1) */
typedef struct {
    int o_free, s8_go, s8_free, s7_go, s7_free, s6_free, s5_free, s4_free, s3_free, s2_free, s1_free;
} chain_t;

static chain_t ready_chain(const p2g_hw_t *h, int out_ready)
{
    chain_t k;
    k.o_free = !h->o_v || out_ready;
    k.s8_go = h->s8_v && h->s8_last && k.o_free;
    k.s8_free = !h->s8_v || !h->s8_last || k.o_free;
    k.s7_go = h->s7_v && s7_final(h) && k.s8_free;
    k.s7_free = !h->s7_v || k.s7_go;
    k.s6_free = !h->s6_v || k.s7_free;
    k.s5_free = !h->s5_v || k.s6_free;
    k.s4_free = !h->s4_v || k.s5_free;
    k.s3_free = !h->s3_v || k.s4_free;
    k.s2_free = !h->s2_v || k.s3_free;
    k.s1_free = !h->s1_v || k.s2_free;
    return k;
}

void p2g_hw_comb(const p2g_hw_t *h, const p2g_hw_in_t *in, p2g_hw_out_t *out)
{
    chain_t k = ready_chain(h, in->out_ready);
    out->in_ready = k.s1_free && !h->c.bld && !key_change(h, &in->cfg);
    out->out_valid = h->o_v;
    out->out_prim_id = h->o_id;
    out->out_tag = h->o_tag;
    out->out_mask = h->o_mask;
    out->busy = h->s1_v || h->s2_v || h->s3_v || h->s4_v || h->s5_v || h->s6_v || h->s7_v || h->s8_v || h->o_v ||
                h->c.bld;
}

int p2g_hw_key_change(const p2g_hw_t *h, const p2g_config_t *cfg) { return key_change(h, cfg); }

int p2g_hw_idle(const p2g_hw_t *h, const p2g_hw_in_t *in)
{
    const p2g_config_t *cf = &in->cfg;
    if (in->in_valid || h->s1_v || h->s2_v || h->s3_v || h->s4_v || h->s5_v || h->s6_v || h->s7_v || h->s8_v || h->o_v ||
        h->c.bld || key_change(h, cf))
        return 0;
    /* the per-cycle registers as p2g_hw_clock writes them */
    return h->c.ex0 == cf->sc_x0 && h->c.ey0 == cf->sc_y0 &&
           h->c.ex1 == (cf->sc_x1 < cf->width - 1 ? cf->sc_x1 : cf->width - 1) &&
           h->c.ey1 == (cf->sc_y1 < cf->height - 1 ? cf->sc_y1 : cf->height - 1) &&
           h->c.all == lowmask(cf->n_gpus < h->prm.max_gpus ? cf->n_gpus : h->prm.max_gpus);
}

/* pixel-centre bounds of a coordinate: first centre >= v, last centre <= v */
static int32_t lo_bound(int32_t v) { return p2g_floor256((int64_t)v + 127); }
static int32_t hi_bound(int32_t v) { return p2g_floor256((int64_t)v - 128); }

void p2g_hw_clock(p2g_hw_t *h, const p2g_hw_in_t *in)
{
    /* The next state is written in place: the stages go from OUT back to S1, each reading only its own and the
     * previous stage's registers (not written yet), and the configuration registers come last (the stages read
     * this cycle's values: c, or h->c before it is written). */
    const p2g_hw_cfg_regs_t c = h->c; /* registered values seen during this cycle */
    const chain_t k = ready_chain(h, in->out_ready);
    const p2g_config_t *cf = &in->cfg;
    const int kc = key_change(h, cf);
    p2g_hw_t *const nxp = h;
#define nx (*nxp)

    /* OUT */
    if (k.s8_go) {
        nx.o_v = 1;
        nx.o_id = h->s8_id;
        nx.o_tag = h->s8_tag;
        nx.o_mask = h->s8_empty ? 0 : h->s8_full ? c.all
                                  : chunk_mask(h, h->s8_s, h->s8_left, h->s8_len, h->s8_first ? 0 : h->s8_acc, NULL);
    } else if (in->out_ready) {
        nx.o_v = 0;
    }

    /* S8: a chunk of rows; the chunks before the last one accumulate */
    if (h->s8_v && !h->s8_last)
        nx.s8_acc = chunk_mask(h, h->s8_s, h->s8_left, h->s8_len, h->s8_first ? 0 : h->s8_acc, NULL);
    if (k.s8_free) {
        nx.s8_v = h->s7_v;
        if (h->s7_v) {
            nx.s8_id = h->s7_id;
            nx.s8_tag = h->s7_tag;
            nx.s8_empty = h->s7_empty;
            nx.s8_full = h->s7_full;
            nx.s8_first = h->s7_first;
            nx.s8_last = (uint32_t)s7_final(h);
            nx.s8_s = h->s7_s;
            nx.s8_left = h->s7_left;
            nx.s8_len = h->s7_len;
        }
    }

    /* S7: row walk */
    if (k.s7_free) {
        nx.s7_v = h->s6_v;
        if (h->s6_v) {
            uint32_t n = c.n, s0 = h->s6_r8;              /* < 8n: subtract the largest k*n that fits */
            for (uint32_t q = 7; q >= 1; q--)
                if (s0 >= q * n) { s0 -= q * n; break; }
            nx.s7_id = h->s6_id;
            nx.s7_tag = h->s6_tag;
            nx.s7_empty = h->s6_empty;
            nx.s7_full = h->s6_full;
            nx.s7_first = 1;
            nx.s7_s = s0;
            nx.s7_len = h->s6_len;
            nx.s7_left = h->s6_rows;
        }
    } else if (k.s8_free) {                               /* the chunk went to S8: ROWS rows further */
        uint32_t next_s;
        (void)chunk_mask(h, h->s7_s, 0, 0, 0, &next_s);
        nx.s7_first = 0;
        nx.s7_s = next_s;
        nx.s7_left = h->s7_left - h->prm.rows;
    }

    /* S6: sum mod 8n */
    if (k.s6_free) {
        nx.s6_v = h->s5_v;
        if (h->s5_v) {
            uint32_t r = h->s5_sum;                       /* < 28n: subtract the largest of 24n, 16n, 8n */
            for (uint32_t q = 3; q >= 1; q--)
                if (r >= 8 * q * c.n) { r -= 8 * q * c.n; break; }
            nx.s6_id = h->s5_id;
            nx.s6_tag = h->s5_tag;
            nx.s6_empty = h->s5_empty;
            nx.s6_full = h->s5_full;
            nx.s6_r8 = r;
            nx.s6_len = h->s5_len;
            nx.s6_rows = h->s5_rows;
        }
    }

    /* S5: residue sum and the run's shape */
    if (k.s5_free) {
        nx.s5_v = h->s4_v;
        if (h->s4_v) {
            uint32_t n = c.n;
            uint32_t diag_len = h->s4_w + h->s4_h - 1;
            uint32_t full = c.mode ? h->s4_w >= n : diag_len >= n;
            uint32_t one = !c.mode || full || h->s4_empty;
            nx.s5_id = h->s4_id;
            nx.s5_tag = h->s4_tag;
            nx.s5_empty = h->s4_empty;
            nx.s5_full = full;
            nx.s5_sum = h->s4_part[0] + h->s4_part[1] + h->s4_part[2] + h->s4_part[3];
            nx.s5_len = (c.mode ? h->s4_w : diag_len) & 0x7f;
            nx.s5_rows = one ? 1 : (h->s4_h < n ? h->s4_h : n);
        }
    }

    /* S4: partial residue sums of terms 0..7, 8..15, 16..23, 24..27 (term t: tx0 bit t for t < 14, else ty0
     * bit t - 14) */
    if (k.s4_free) {
        nx.s4_v = h->s3_v;
        if (h->s3_v) {
            nx.s4_id = h->s3_id;
            nx.s4_tag = h->s3_tag;
            nx.s4_empty = h->s3_empty;
            for (int g = 0; g < 4; g++) {
                uint32_t sum = 0;
                for (int t = 8 * g; t < 8 * g + 8 && t < 28; t++)
                    sum += t < 14 ? ((h->s3_tx0 >> t) & 1) * c.px[t] : ((h->s3_ty0 >> (t - 14)) & 1) * c.py[t - 14];
                nx.s4_part[g] = sum;
            }
            nx.s4_w = h->s3_tx1 - h->s3_tx0 + 1;
            nx.s4_h = h->s3_ty1 - h->s3_ty0 + 1;
        }
    }

    /* S3: clamp the pixel box of the S2 primitive, tile rectangle */
    if (k.s3_free) {
        nx.s3_v = h->s2_v;
        if (h->s2_v) {
            int near = (h->s2_flags & P2G_FLAG_NEAR_CLIP) != 0;
            int32_t ex0 = (int32_t)c.ex0, ey0 = (int32_t)c.ey0, ex1 = (int32_t)c.ex1, ey1 = (int32_t)c.ey1;
            int32_t bx0 = (near || h->s2_pxlo < ex0) ? ex0 : h->s2_pxlo;
            int32_t by0 = (near || h->s2_pylo < ey0) ? ey0 : h->s2_pylo;
            int32_t bx1 = (near || h->s2_pxhi > ex1) ? ex1 : h->s2_pxhi;
            int32_t by1 = (near || h->s2_pyhi > ey1) ? ey1 : h->s2_pyhi;
            int empty = (h->s2_flags & P2G_FLAG_CULLED) || bx0 > bx1 || by0 > by1;
            nx.s3_id = h->s2_id;
            nx.s3_tag = h->s2_tag;
            nx.s3_empty = (uint32_t)empty;
            nx.s3_tx0 = empty ? 0 : (uint32_t)bx0 >> c.ts;
            nx.s3_ty0 = empty ? 0 : (uint32_t)by0 >> c.ts;
            nx.s3_tx1 = empty ? 0 : (uint32_t)bx1 >> c.ts;
            nx.s3_ty1 = empty ? 0 : (uint32_t)by1 >> c.ts;
        }
    }

    /* S2: pixel-centre bounds of the S1 primitive */
    if (k.s2_free) {
        nx.s2_v = h->s1_v;
        if (h->s1_v) {
            const p2g_prim_t *p = &h->s1;
            int32_t minx = p->x[0], maxx = p->x[0], miny = p->y[0], maxy = p->y[0];
            for (int i = 1; i < 3; i++) {
                if (p->x[i] < minx) minx = p->x[i];
                if (p->x[i] > maxx) maxx = p->x[i];
                if (p->y[i] < miny) miny = p->y[i];
                if (p->y[i] > maxy) maxy = p->y[i];
            }
            nx.s2_id = p->prim_id;
            nx.s2_tag = p->tag;
            nx.s2_flags = p->flags;
            nx.s2_pxlo = lo_bound(minx);
            nx.s2_pylo = lo_bound(miny);
            nx.s2_pxhi = hi_bound(maxx);
            nx.s2_pyhi = hi_bound(maxy);
        }
    }

    /* S1: input register (nothing enters while the tables are being built) */
    int accept = k.s1_free && !c.bld && !kc;
    if (k.s1_free) {
        nx.s1_v = in->in_valid && accept;
        if (in->in_valid && accept) {
            nx.s1 = in->in;
            nx.s1.tag &= (uint32_t)lowmask(h->prm.tag_bits);
            nx.s1.flags &= 3u;
        }
    }

    /* derived configuration: per-cycle registers */
    nx.c.ex0 = cf->sc_x0;
    nx.c.ey0 = cf->sc_y0;
    nx.c.ex1 = cf->sc_x1 < cf->width - 1 ? cf->sc_x1 : cf->width - 1;
    nx.c.ey1 = cf->sc_y1 < cf->height - 1 ? cf->sc_y1 : cf->height - 1;
    nx.c.all = lowmask(cf->n_gpus < h->prm.max_gpus ? cf->n_gpus : h->prm.max_gpus);
    /* residue-table sequencer */
    if (kc) {
        nx.c.n = cf->n_gpus;
        nx.c.w = cf->width;
        nx.c.ts = cf->tile_log2;
        nx.c.mode = cf->mode == P2G_MODE_LINEAR;
        nx.c.bld = 1;
        nx.c.step = 0;
        nx.c.rem = 0;
    } else if (c.bld) {
        nx.c.step = c.step + 1;
        if (c.step == 0) {               /* tiles per row from the registered key */
            nx.c.tpr = ((c.w + (1u << c.ts) - 1) & 0x7fff) >> c.ts;
        } else if (c.step > 29) {        /* row-step multiples mr[r], r = step - 28 (values unused here) */
            nx.c.mlast = c.mlast + c.tprn >= c.n ? c.mlast + c.tprn - c.n : c.mlast + c.tprn;
        } else if (c.step < 16) {
            uint32_t r = (c.rem << 1) | ((c.tpr >> (15 - c.step)) & 1);
            nx.c.rem = r >= c.n ? r - c.n : r;
        } else {
            uint32_t kk = c.step - 16, p2, pt;
            if (kk == 0) {
                p2 = c.n == 1 ? 0 : 1;
                pt = c.rem;
                nx.c.tprn = c.rem;
                nx.c.mlast = c.rem;
            } else {
                p2 = 2 * c.p2 >= c.n ? 2 * c.p2 - c.n : 2 * c.p2;
                pt = 2 * c.pt >= c.n ? 2 * c.pt - c.n : 2 * c.pt;
            }
            nx.c.p2 = p2;
            nx.c.pt = pt;
            nx.c.px[kk] = p2;
            nx.c.py[kk] = c.mode ? pt : p2;
        }
        if (c.step == p2g_hw_build_cycles(h->prm.rows) - 1) nx.c.bld = 0;
    }
#undef nx
}
