/* Writes the cycle-by-cycle vector file of the Icarus testbench tb/cd/tb_cd_adapter.v: an environment (a CP
 * that gives chunk descriptors, a P2G mapper that outputs the chunks' primitives, a PE that takes beats, each
 * with valid/ready and random delays from a seeded generator) drives the C cycle model cmodel/cd/cd_adapter_hw.c,
 * and every cycle's inputs and the model's outputs are written. The testbench applies the inputs to the RTL and
 * compares every output every cycle (valid/ready always, payload while valid). The generator also checks the
 * model against the definition: the PE sees, per chunk in order, its primitives then END {tag, count}; so the
 * vectors are known-good before Icarus sees them. Icarus never uses $random.
 *
 *   cd-adapter-vectors --max-gpus M --aq A --dq D --scenarios K --cycles C --seed S -o FILE
 *
 * One record per line, 80 hex digits (320 bits), fields from the MSB:
 *   [319:316] type: 1 reset (two cycles), 2 cycle, f end
 *   reset:  [315:284] scenario index
 *   cycle, inputs: [315] desc_valid [314:299] desc_tag [298:267] desc_count [266] p2g_valid [265:250] p2g_tag
 *                  [249:218] p2g_prim_id [217:154] p2g_mask [153] pe_ready
 *          expected outputs: [152] desc_ready [151] p2g_ready [150] pe_valid [149] pe_end [148:133] pe_tag
 *                  [132:101] pe_prim_id [100:37] pe_mask [36] busy */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cd/cd_adapter_hw.h"
#include "common/rng.h"

typedef struct { uint32_t w[10]; } rec_t; /* w[0] = bits 319..288 */

static void put(rec_t *r, int lsb, int width, uint64_t v)
{
    for (int i = 0; i < width; i++) {
        int bit = lsb + i, word = 9 - bit / 32;
        if ((v >> i) & 1) r->w[word] |= 1u << (bit % 32);
    }
}

static void emit(FILE *f, const rec_t *r)
{
    for (int i = 0; i < 10; i++) fprintf(f, "%08" PRIx32, r->w[i]);
    fputc('\n', f);
}

#define MAXC 4096   /* chunks per scenario */

typedef struct {
    uint32_t tag, count, first;   /* first: prim_id of its first primitive */
} chunk_t;

int main(int argc, char **argv)
{
    cd_adapter_hw_params_t prm = cd_adapter_hw_params_default();
    uint32_t max_gpus = 16, scenarios = 20, cycles = 3000;
    uint64_t seed = 1;
    const char *out = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--max-gpus")) max_gpus = (uint32_t)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--aq")) prm.aq_depth = (uint32_t)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--dq")) prm.dq_depth = (uint32_t)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--scenarios")) scenarios = (uint32_t)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--cycles")) cycles = (uint32_t)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "-o")) out = argv[i + 1];
        else { fprintf(stderr, "cd-adapter-vectors: unknown option %s\n", argv[i]); return 2; }
    }
    if (!out || max_gpus < 1 || max_gpus > 64 || cycles < 1) {
        fprintf(stderr, "usage: cd-adapter-vectors --max-gpus M --aq A --dq D --scenarios K --cycles C --seed S -o FILE\n");
        return 2;
    }
    FILE *f = fopen(out, "w");
    if (!f) { perror(out); return 1; }
    static chunk_t ch[MAXC];
    uint64_t mmask = max_gpus >= 64 ? ~0ull : (1ull << max_gpus) - 1;
    uint64_t beats = 0, ends = 0, empty_ends = 0, fallthrough = 0, multi = 0;
    rng_t r;
    rng_seed(&r, seed);
    for (uint32_t sc = 0; sc < scenarios; sc++) {
        rec_t rr;
        memset(&rr, 0, sizeof rr);
        put(&rr, 316, 4, 1);
        put(&rr, 284, 32, sc);
        emit(f, &rr);
        cd_adapter_hw_t h;
        if (cd_adapter_hw_init(&h, prm)) { fprintf(stderr, "cd-adapter-vectors: bad parameters\n"); return 2; }
        /* scenario knobs (per mille): descriptor, P2G and PE rates; empty chunks; chunk size */
        uint32_t p_desc = 100 + rng_below(&r, 901), p_p2g = 100 + rng_below(&r, 901), p_pe = 100 + rng_below(&r, 901);
        uint32_t p_empty = rng_below(&r, 3) == 0 ? 700 : rng_below(&r, 400), maxc = 1 + rng_below(&r, sc % 3 == 0 ? 3 : 12);
        uint32_t id = 0;
        for (uint32_t c = 0; c < MAXC; c++) {
            ch[c].tag = (0xfff0u + c) & 0xffff;   /* the tag wraps */
            ch[c].count = rng_below(&r, 1000) < p_empty ? 0 : 1 + rng_below(&r, maxc);
            ch[c].first = id;
            id += ch[c].count;
        }
        if (sc == 0) ch[0].count = 0;   /* an empty chunk right after reset */
        uint32_t dc = 0;                /* next descriptor to give */
        uint32_t pc = 0, pi = 0;        /* next P2G primitive: chunk, index (only of chunks given) */
        uint32_t ec = 0, ei = 0;        /* expected at the PE: chunk, index (index == count: its END) */
        int dv = 0, pv = 0;             /* valid held until the handshake */
        for (uint32_t cy = 0; cy < cycles; cy++) {
            cd_adapter_hw_in_t in;
            cd_adapter_hw_out_t o;
            memset(&in, 0, sizeof in);
            if (!dv && dc < MAXC && rng_below(&r, 1000) < p_desc) dv = 1;
            in.desc_valid = dv;
            if (dv) { in.desc_tag = ch[dc].tag; in.desc_count = ch[dc].count; }
            else { in.desc_tag = rng_u32(&r) & 0xffff; in.desc_count = rng_below(&r, 3); }   /* don't-care values */
            while (pc < dc && pi == ch[pc].count) { pc++; pi = 0; }
            if (!pv && pc < dc && rng_below(&r, 1000) < p_p2g) pv = 1;
            in.p2g_valid = pv;
            if (pv) {
                in.p2g_tag = ch[pc].tag;
                in.p2g_prim_id = ch[pc].first + pi;
                in.p2g_mask = rng_u64(&r) & mmask;
            } else {
                in.p2g_tag = rng_u32(&r) & 0xffff;
                in.p2g_prim_id = rng_u32(&r);
                in.p2g_mask = rng_u64(&r) & mmask;
            }
            in.pe_ready = rng_below(&r, 1000) < p_pe;
            cd_adapter_hw_comb(&h, &in, &o);
            rec_t rc;
            memset(&rc, 0, sizeof rc);
            put(&rc, 316, 4, 2);
            put(&rc, 315, 1, (uint64_t)in.desc_valid);
            put(&rc, 299, 16, in.desc_tag);
            put(&rc, 267, 32, in.desc_count);
            put(&rc, 266, 1, (uint64_t)in.p2g_valid);
            put(&rc, 250, 16, in.p2g_tag);
            put(&rc, 218, 32, in.p2g_prim_id);
            put(&rc, 154, 64, in.p2g_mask);
            put(&rc, 153, 1, (uint64_t)in.pe_ready);
            put(&rc, 152, 1, (uint64_t)o.desc_ready);
            put(&rc, 151, 1, (uint64_t)o.p2g_ready);
            put(&rc, 150, 1, (uint64_t)o.pe_valid);
            put(&rc, 149, 1, (uint64_t)o.pe_end);
            put(&rc, 133, 16, o.pe_tag);
            put(&rc, 101, 32, o.pe_prim_id);
            put(&rc, 37, 64, o.pe_mask);
            put(&rc, 36, 1, (uint64_t)o.busy);
            emit(f, &rc);
            /* the definition: per chunk in order, its primitives then END {tag, count} */
            if (o.pe_valid && in.pe_ready) {
                while (ec < MAXC && ei > ch[ec].count) { ec++; ei = 0; }
                int want_end = ei == ch[ec].count;
                if (ec >= dc + (uint32_t)(dv && o.desc_ready) || o.pe_end != want_end || o.pe_tag != ch[ec].tag ||
                    o.pe_prim_id != (want_end ? ch[ec].count : ch[ec].first + ei)) {
                    fprintf(stderr, "cd-adapter-vectors: scenario %u cycle %u: the model gives the PE %s tag %u prim %u; the "
                            "definition wants %s tag %u prim %u (chunk %u)\n", sc, cy, o.pe_end ? "END" : "beat", o.pe_tag,
                            o.pe_prim_id, want_end ? "END" : "beat", ch[ec].tag, want_end ? ch[ec].count : ch[ec].first + ei, ec);
                    return 1;
                }
                beats++;
                if (want_end) { ends++; empty_ends += ch[ec].count == 0; fallthrough += h.n == 0; }
                ei++;
            }
            uint32_t n0 = h.n;
            if (dv && o.desc_ready) { dv = 0; dc++; }
            if (pv && o.p2g_ready) { pv = 0; pi++; }
            cd_adapter_hw_clock(&h, &in);
            if (h.n > n0 + 1) multi++;
        }
    }
    rec_t e;
    memset(&e, 0, sizeof e);
    put(&e, 316, 4, 0xf);
    emit(f, &e);
    fclose(f);
    printf("cd-adapter-vectors: %u scenarios, %" PRIu64 " beats to the PE checked against the definition (%" PRIu64 " ENDs, %"
           PRIu64 " of empty chunks, %" PRIu64 " fell through; %" PRIu64 " edges wrote 2+ beats)\n", scenarios, beats, ends,
           empty_ends, fallthrough, multi);
    if (!ends || !fallthrough || !multi) { fprintf(stderr, "cd-adapter-vectors: a corner was not reached\n"); return 1; }
    return 0;
}
