/* Writes the stimulus + expected-mask vector file for the Icarus testbench tb_p2g_mapper.v, from the shared
 * constrained-random generator (cmodel/p2g/p2g_stim.c) and the functional definition p2g_mask(). Icarus
 * never uses $random for stimulus, so Icarus and Verilator see the same primitives for the same seed.
 *
 *   p2g-vectors --max-gpus M --gpus 1,3,16 --configs K --prims P --seed S [--sweep-n] -o FILE
 *
 * Every second configuration changes exactly one field of the previous one (n, W, H, tile size, mode, each
 * scissor bound, in turn); --sweep-n writes one configuration per GPU count 1..M instead, each changing only n.
 *
 * One record per line, 72 hex digits (288 bits), fields from the MSB:
 *   [287:284] type: 1 config, 2 primitive, f end
 *   config:    [283:277] n  [276:262] W  [261:247] H  [246:243] tile_log2  [242] mode (1 linear)
 *              [241:228] sc_x0  [227:214] sc_y0  [213:200] sc_x1  [199:186] sc_y1
 *   primitive: [283:252] prim_id  [251:236] tag  [235:212] x0  [211:188] y0  [187:164] x1  [163:140] y1
 *              [139:116] x2  [115:92] y2  [91:90] flags  [63:0] expected mask (p2g_mask) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/outfile.h"
#include "common/rng.h"
#include "p2g/p2g.h"
#include "p2g/p2g_stim.h"

typedef struct { uint32_t w[9]; } rec_t; /* w[0] = bits 287..256 */

static void put(rec_t *r, int lsb, int width, uint64_t v)
{
    for (int i = 0; i < width; i++) {
        int bit = lsb + i, word = 8 - bit / 32;
        if ((v >> i) & 1) r->w[word] |= 1u << (bit % 32);
    }
}

static void emit(FILE *f, const rec_t *r)
{
    for (int i = 0; i < 9; i++) fprintf(f, "%08" PRIx32, r->w[i]);
    fputc('\n', f);
}

int main(int argc, char **argv)
{
    uint32_t max_gpus = 16, configs = 8, gpus[64] = {1, 3, 16}, ng = 3;
    uint64_t prims = 2000, seed = 1;
    const char *out = NULL;
    int sweep_n = 0;
    const char *T = "p2g-vectors";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (!strcmp(a, "--sweep-n")) { sweep_n = 1; continue; }
        if (!strcmp(a, "--max-gpus")) bad = arg_u32(T, a, v, 1, 64, &max_gpus);
        else if (!strcmp(a, "--configs")) bad = arg_u32(T, a, v, 1, 100000, &configs);
        else if (!strcmp(a, "--prims")) bad = arg_u64(T, a, v, 1, 100000000, &prims);
        else if (!strcmp(a, "--seed")) bad = arg_u64x(T, a, v, 0, UINT64_MAX, 1, &seed);
        else if (!strcmp(a, "-o")) { if (!v) bad = arg_need(T, a); out = v; }
        else if (!strcmp(a, "--gpus")) bad = arg_u32_list(T, a, v, 1, 64, gpus, 64, &ng);
        else {
            fprintf(stderr, "p2g-vectors: unknown argument %s\n", a);
            return 2;
        }
        if (bad) return 2;
        i++;
    }
    if (!out) {
        fprintf(stderr, "usage: p2g-vectors --max-gpus M --gpus 1,3,16 --configs K --prims P --seed S [--sweep-n] -o FILE\n");
        return 2;
    }
    for (uint32_t g = 0; g < ng; g++)
        if (gpus[g] > max_gpus) { fprintf(stderr, "p2g-vectors: --gpus: %u is more than --max-gpus %u\n", gpus[g], max_gpus); return 2; }
    outf_t of;
    char oerr[600];
    if (outf_open(&of, out, 0, oerr, sizeof oerr)) { fprintf(stderr, "p2g-vectors: %s\n", oerr); return 2; }
    FILE *f = of.f;
    rng_t r;
    rng_seed(&r, seed);
    uint64_t id = 0, nprims = 0, changed[P2G_N_FIELDS] = {0};
    if (sweep_n) { ng = 1; gpus[0] = 1; configs = max_gpus; }   /* n = 1..MAX_GPUS, each changing only n */
    p2g_config_t prev = p2g_config_default(1, 1920, 1080);
    for (uint32_t g = 0; g < ng; g++) {
        for (uint32_t c = 0; c < configs; c++) {
            p2g_config_t cfg;
            if (sweep_n) {
                if (c == 0) p2g_stim_config(&r, 1, &cfg);
                else { cfg = prev; changed[P2G_FIELD_N]++; }
                cfg.n_gpus = c + 1;
            } else if (c == 0) cfg = p2g_config_default(gpus[g], 1920, 1080);
            else if (c % 2 == 0) {
                /* exactly one field changed from the previous configuration, every field in turn */
                p2g_field_t fld = (p2g_field_t)((c / 2 - 1) % P2G_N_FIELDS);
                if (p2g_stim_change_one(&r, &prev, fld, max_gpus, &cfg)) changed[fld]++;
                else p2g_stim_config(&r, gpus[g], &cfg);
            } else p2g_stim_config(&r, gpus[g], &cfg);
            prev = cfg;
            rec_t rc;
            memset(&rc, 0, sizeof rc);
            put(&rc, 284, 4, 1);
            put(&rc, 277, 7, cfg.n_gpus);
            put(&rc, 262, 15, cfg.width);
            put(&rc, 247, 15, cfg.height);
            put(&rc, 243, 4, cfg.tile_log2);
            put(&rc, 242, 1, cfg.mode == P2G_MODE_LINEAR);
            put(&rc, 228, 14, cfg.sc_x0);
            put(&rc, 214, 14, cfg.sc_y0);
            put(&rc, 200, 14, cfg.sc_x1);
            put(&rc, 186, 14, cfg.sc_y1);
            emit(f, &rc);
            for (uint64_t k = 0; k < prims / configs; k++) {
                p2g_prim_t p;
                p2g_stim_any(&r, &cfg, &p);
                p.prim_id = (uint32_t)(id * 2654435761u);
                p.tag = (uint32_t)(id & 0xffff);
                id++;
                memset(&rc, 0, sizeof rc);
                put(&rc, 284, 4, 2);
                put(&rc, 252, 32, p.prim_id);
                put(&rc, 236, 16, p.tag);
                for (int v = 0; v < 3; v++) {
                    put(&rc, 212 - 48 * v, 24, (uint32_t)p.x[v] & 0xffffff);
                    put(&rc, 188 - 48 * v, 24, (uint32_t)p.y[v] & 0xffffff);
                }
                put(&rc, 90, 2, p.flags);
                put(&rc, 0, 64, p2g_mask(&cfg, &p));
                emit(f, &rc);
                nprims++;
            }
        }
    }
    rec_t end;
    memset(&end, 0, sizeof end);
    put(&end, 284, 4, 0xf);
    emit(f, &end);
    if (outf_commit(&of, oerr, sizeof oerr)) { fprintf(stderr, "p2g-vectors: %s\n", oerr); return 2; }
    printf("p2g-vectors: %" PRIu64 " primitives for MAX_GPUS=%u, seed 0x%" PRIx64 " -> %s; configurations changing one field only:",
           nprims, max_gpus, seed, out);
    for (int k = 0; k < P2G_N_FIELDS; k++) printf(" %s=%" PRIu64, p2g_field_name[k], changed[k]);
    printf("\n");
    return 0;
}
