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
static uint64_t range_mask(uint32_t s, uint32_t len, uint32_t n, uint32_t max_gpus)
{
    uint64_t m = 0;
    uint32_t end = s + len;
    for (uint32_t i = 0; i < max_gpus; i++)
        if (i < n && ((i >= s && i < end) || i + n < end)) m |= 1ull << i;
    return m;
}

static int s4_final(const p2g_hw_t *h) { return h->s4_left <= h->prm.rows; }

/* S4 row walk: the accumulated mask after this cycle's ROWS rows, and the next start. */
static uint64_t s4_walk(const p2g_hw_t *h, uint32_t *next_s)
{
    uint32_t step = h->c.mode ? h->c.tprn : 1, s = h->s4_s;
    uint64_t acc = h->s4_acc;
    for (uint32_t r = 0; r < h->prm.rows; r++) {
        if (r < h->s4_left) acc |= range_mask(s, h->s4_len, h->c.n, h->prm.max_gpus);
        s += step;
        if (s >= h->c.n) s -= h->c.n;
    }
    *next_s = s;
    return acc;
}

void p2g_hw_comb(const p2g_hw_t *h, const p2g_hw_in_t *in, p2g_hw_out_t *out)
{
    int o_free = !h->o_v || in->out_ready;
    int s4_go = h->s4_v && s4_final(h) && o_free;
    int s4_free = !h->s4_v || s4_go;
    int s3_free = !h->s3_v || s4_free;
    int s2_free = !h->s2_v || s3_free;
    int s1_free = !h->s1_v || s2_free;
    out->in_ready = s1_free && !h->c.bld && !key_change(h, &in->cfg);
    out->out_valid = h->o_v;
    out->out_prim_id = h->o_id;
    out->out_tag = h->o_tag;
    out->out_mask = h->o_mask;
    out->busy = h->s1_v || h->s2_v || h->s3_v || h->s4_v || h->o_v || h->c.bld;
}

void p2g_hw_clock(p2g_hw_t *h, const p2g_hw_in_t *in)
{
    const p2g_hw_cfg_regs_t c = h->c; /* registered values seen during this cycle */
    int o_free = !h->o_v || in->out_ready;
    int final = s4_final(h);
    int s4_go = h->s4_v && final && o_free;
    int s4_free = !h->s4_v || s4_go;
    int s3_free = !h->s3_v || s4_free;
    int s2_free = !h->s2_v || s3_free;
    int s1_free = !h->s1_v || s2_free;
    p2g_hw_t nx = *h;

    /* derived configuration: per-cycle registers */
    const p2g_config_t *cf = &in->cfg;
    nx.c.ex0 = cf->sc_x0;
    nx.c.ey0 = cf->sc_y0;
    nx.c.ex1 = cf->sc_x1 < cf->width - 1 ? cf->sc_x1 : cf->width - 1;
    nx.c.ey1 = cf->sc_y1 < cf->height - 1 ? cf->sc_y1 : cf->height - 1;
    nx.c.all = lowmask(cf->n_gpus < h->prm.max_gpus ? cf->n_gpus : h->prm.max_gpus);
    /* residue-table sequencer */
    if (key_change(h, cf)) {
        nx.c.n = cf->n_gpus;
        nx.c.w = cf->width;
        nx.c.ts = cf->tile_log2;
        nx.c.mode = cf->mode == P2G_MODE_LINEAR;
        nx.c.tpr = ((cf->width + (1u << cf->tile_log2) - 1) & 0x7fff) >> cf->tile_log2;
        nx.c.bld = 1;
        nx.c.step = 0;
        nx.c.rem = 0;
    } else if (c.bld) {
        nx.c.step = c.step + 1;
        if (c.step > 28) {               /* row-step multiples mr[r], r = step - 27 (values unused here) */
            nx.c.mlast = c.mlast + c.tprn >= c.n ? c.mlast + c.tprn - c.n : c.mlast + c.tprn;
            if (c.step == p2g_hw_build_cycles(h->prm.rows) - 1) nx.c.bld = 0;
        } else if (c.step < 15) {
            uint32_t r = (c.rem << 1) | ((c.tpr >> (14 - c.step)) & 1);
            nx.c.rem = r >= c.n ? r - c.n : r;
        } else {
            uint32_t k = c.step - 15, p2, pt;
            if (k == 0) {
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
            nx.c.px[k] = p2;
            nx.c.py[k] = c.mode ? pt : p2;
            if (c.step == p2g_hw_build_cycles(h->prm.rows) - 1) nx.c.bld = 0;
        }
    }

    /* OUT */
    if (s4_go) {
        nx.o_v = 1;
        nx.o_id = h->s4_id;
        nx.o_tag = h->s4_tag;
        uint32_t dummy;
        nx.o_mask = h->s4_empty ? 0 : h->s4_full ? c.all : s4_walk(h, &dummy);
    } else if (in->out_ready) {
        nx.o_v = 0;
    }

    /* S4 */
    if (s4_free) {
        nx.s4_v = h->s3_v;
        if (h->s3_v) {
            uint32_t n = c.n;
            uint32_t s0 = h->s3_sum;                      /* < 28n: subtract 16n, 8n, 4n, 2n, n */
            for (int k = 4; k >= 0; k--)
                if (s0 >= (n << k)) s0 -= n << k;
            uint32_t diag_len = h->s3_w + h->s3_h - 1;
            uint32_t full = c.mode ? h->s3_w >= n : diag_len >= n;
            uint32_t one = !c.mode || full || h->s3_empty;
            nx.s4_id = h->s3_id;
            nx.s4_tag = h->s3_tag;
            nx.s4_empty = h->s3_empty;
            nx.s4_full = full;
            nx.s4_s = s0;
            nx.s4_len = (c.mode ? h->s3_w : diag_len) & 0x7f;
            nx.s4_left = one ? 1 : (h->s3_h < n ? h->s3_h : n);
            nx.s4_acc = 0;
        }
    } else if (!final) {
        uint32_t next_s;
        nx.s4_acc = s4_walk(h, &next_s);
        nx.s4_s = next_s;
        nx.s4_left = h->s4_left - h->prm.rows;
    }

    /* S3 */
    if (s3_free) {
        nx.s3_v = h->s2_v;
        if (h->s2_v) {
            nx.s3_id = h->s2_id;
            nx.s3_tag = h->s2_tag;
            nx.s3_empty = h->s2_empty;
            uint32_t sum = 0;                             /* residue sum (adder tree u_res_sum) */
            for (int k = 0; k < 14; k++)
                sum += ((h->s2_tx0 >> k) & 1) * c.px[k] + ((h->s2_ty0 >> k) & 1) * c.py[k];
            nx.s3_sum = sum;
            nx.s3_w = h->s2_tx1 - h->s2_tx0 + 1;
            nx.s3_h = h->s2_ty1 - h->s2_ty0 + 1;
        }
    }

    /* S2: bbox of the S1 primitive */
    if (s2_free) {
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
            int near = (p->flags & P2G_FLAG_NEAR_CLIP) != 0;
            int32_t ex0 = (int32_t)c.ex0, ey0 = (int32_t)c.ey0, ex1 = (int32_t)c.ex1, ey1 = (int32_t)c.ey1;
            int32_t pxlo = p2g_floor256((int64_t)minx + 127), pylo = p2g_floor256((int64_t)miny + 127);
            int32_t pxhi = p2g_floor256((int64_t)maxx - 128), pyhi = p2g_floor256((int64_t)maxy - 128);
            int32_t bx0 = (near || pxlo < ex0) ? ex0 : pxlo;
            int32_t by0 = (near || pylo < ey0) ? ey0 : pylo;
            int32_t bx1 = (near || pxhi > ex1) ? ex1 : pxhi;
            int32_t by1 = (near || pyhi > ey1) ? ey1 : pyhi;
            int empty = (p->flags & P2G_FLAG_CULLED) || bx0 > bx1 || by0 > by1;
            nx.s2_id = p->prim_id;
            nx.s2_tag = p->tag;
            nx.s2_empty = (uint32_t)empty;
            nx.s2_tx0 = empty ? 0 : (uint32_t)bx0 >> c.ts;
            nx.s2_ty0 = empty ? 0 : (uint32_t)by0 >> c.ts;
            nx.s2_tx1 = empty ? 0 : (uint32_t)bx1 >> c.ts;
            nx.s2_ty1 = empty ? 0 : (uint32_t)by1 >> c.ts;
        }
    }

    /* S1: input register (nothing enters while the tables are being built) */
    int accept = s1_free && !c.bld && !key_change(h, cf);
    if (s1_free) {
        nx.s1_v = in->in_valid && accept;
        if (in->in_valid && accept) {
            nx.s1 = in->in;
            nx.s1.tag &= (uint32_t)lowmask(h->prm.tag_bits);
            nx.s1.flags &= 3u;
        }
    }
    *h = nx;
}
