/* Writes the cycle-by-cycle vector file of the Icarus testbench tb_pe.v: the environment model of the
 * lockstep co-simulation (sim/pe/pe_env.h: the P2G and the other N-1 GPUs, reacting to the PE's handshakes)
 * drives the C cycle model (cmodel/pe/pe_hw.h), and every cycle's inputs and the model's outputs are written.
 * The testbench applies the inputs to the RTL and compares every output every cycle: values AND handshake
 * timing (valid/ready of every port in every cycle). The environment's SPEC 4.2 checkers run here too, so the
 * vectors are known-good before Icarus sees them. Icarus never uses $random.
 *
 *   pe-vectors --max-gpus M --lq L --rq R --gpus 1,2,3,16 --scenarios K --size P --seed S -o FILE [--inject KIND]
 *
 * --inject KIND (issue 25, error paths as tests): in every scenario that offers one, the (1 + scenario % 3)-th
 * handshake of the kind's port is made illegal, and the scenario ends 6 cycles later. The kinds, one per
 * condition of err_o (docs/pe.md section 2):
 *   in-stale, in-future        a P2G beat whose tag is the expected batch - 1 / + 1
 *   rxP-type                   an rx flit on port P (0, 1) of an unknown type (0, 3 or 7)
 *   rxP-stale, rxP-future      an rx flit whose tag is 2 below / above its legal one (not ob or ob+1)
 *   rxP-dst                    a PRIM addressed to another GPU (dst ^ 1)
 * This program checks that the C cycle model raises err in the cycle after the handshake (c+1) and not
 * before, and that it stays raised (sticky); the vectors carry that expectation, so tb_pe.v checks the RTL's
 * err_o at the same cycles. Zero injections fail. One kind is the legal edge of the tag window instead:
 *   rxP-next                   an rx PRIM whose tag is ob + 1 (the next batch, the upper legal tag; on port 1
 *                              of a line the environment never sends one): err must stay low over c+1 .. c+6
 *
 * One record per line, 128 hex digits (512 bits), fields from the MSB:
 *   [511:508] type: 1 reset (two cycles), 2 cycle, f end
 *   reset:  [507:476] scenario index
 *   cycle, inputs:  [507:501] cfg_n_gpus [500:495] cfg_gpu_id [494] cfg_topo [493] cfg_runahead
 *                   [492] in_valid [491] in_end [490:475] in_tag [474:443] in_prim_id [442:379] in_mask
 *                   [378] tx0_ready [377] tx1_ready [376] rx0_valid [375] rx1_valid [374:311] rx0_flit
 *                   [310:247] rx1_flit [246] out_ready
 *          expected outputs: [245] in_ready [244] tx0_valid [243] tx1_valid [242:179] tx0_flit
 *                   [178:115] tx1_flit [114] rx0_ready [113] rx1_ready [112] out_valid [111] out_eob
 *                   [110:95] out_tag [94:63] out_prim_id [62] busy [61:46] cur_tag [45] err */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link/flit.h"
#include "pe/pe_hw.h"
#include "pe_env.h"

typedef struct { uint32_t w[16]; } rec_t; /* w[0] = bits 511..480 */

static void put(rec_t *r, int lsb, int width, uint64_t v)
{
    for (int i = 0; i < width; i++) {
        int bit = lsb + i, word = 15 - bit / 32;
        if ((v >> i) & 1) r->w[word] |= 1u << (bit % 32);
    }
}

static void emit(FILE *f, const rec_t *r)
{
    for (int i = 0; i < 16; i++) fprintf(f, "%08" PRIx32, r->w[i]);
    fputc('\n', f);
}

int main(int argc, char **argv)
{
    pe_hw_params_t prm = {16, 8, 8};
    uint32_t gpus[16] = {1, 2, 3, 16}, scenarios = 10, size = 300;
    int ng = 4;
    uint64_t seed = 1;
    const char *out = NULL, *inject = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--max-gpus")) prm.max_gpus = (uint32_t)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--lq")) prm.lq_depth = (uint32_t)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--rq")) prm.rq_depth = (uint32_t)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--scenarios")) scenarios = (uint32_t)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--size")) size = (uint32_t)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "-o")) out = argv[i + 1];
        else if (!strcmp(argv[i], "--inject")) inject = argv[i + 1];
        else if (!strcmp(argv[i], "--gpus")) {
            ng = 0;
            char buf[256];
            snprintf(buf, sizeof buf, "%s", argv[i + 1]);
            for (char *s = NULL, *t = strtok_r(buf, ",", &s); t && ng < 16; t = strtok_r(NULL, ",", &s))
                gpus[ng++] = (uint32_t)strtoul(t, NULL, 10);
        } else {
            fprintf(stderr, "pe-vectors: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    /* injection kind: inj_port -1 = the P2G input, else the rx port; inj_what 0 stale, 1 future, 2 type, 3 dst,
     * 4 next (legal: err stays low) */
    int inj_port = -2, inj_what = -1;
    if (inject) {
        static const char *const what[5] = {"stale", "future", "type", "dst", "next"};
        for (int w = 0; w < 5; w++) {
            char n[16];
            if (w < 2) { snprintf(n, sizeof n, "in-%s", what[w]); if (!strcmp(inject, n)) inj_port = -1, inj_what = w; }
            for (int q = 0; q < 2; q++) {
                snprintf(n, sizeof n, "rx%d-%s", q, what[w]);
                if (!strcmp(inject, n)) inj_port = q, inj_what = w;
            }
        }
        if (inj_what < 0) {
            fprintf(stderr, "pe-vectors: --inject %s: unknown kind (in-stale, in-future, rxP-type, rxP-stale, rxP-future, "
                            "rxP-dst, rxP-next with P 0 or 1)\n", inject);
            return 2;
        }
    }
    uint32_t injected = 0;
    pe_hw_t hw;
    if (!out || pe_hw_init(&hw, prm) || size < 2) {
        fprintf(stderr, "usage: pe-vectors --max-gpus M --lq L --rq R --gpus 1,2,3,16 --scenarios K --size P --seed S -o FILE\n");
        return 2;
    }
    FILE *f = fopen(out, "w");
    if (!f) { perror(out); return 2; }
    uint64_t cycles = 0, handshakes = 0;
    for (uint32_t idx = 0; idx < scenarios; idx++) {
        pe_scen_t s;
        pe_scen_make(seed, idx, gpus, ng, prm.max_gpus, size, &s);
        pe_env_t env;
        pe_env_init(&env, &s, seed, idx, 0);
        pe_hw_init(&hw, prm);
        rec_t r;
        memset(&r, 0, sizeof r);
        put(&r, 508, 4, 1);
        put(&r, 476, 32, idx);
        emit(f, &r);
        pe_hw_in_t in;
        memset(&in, 0, sizeof in);
        char why[512];
        uint32_t cand = 0, nth = 1 + idx % 3;
        uint64_t inj_cycle = UINT64_MAX;
        for (uint64_t cycle = 0;; cycle++) {
            pe_env_drive(&env, cycle, &in);
            pe_hw_out_t m;
            pe_hw_comb(&hw, &in, &m);
            if (inj_what >= 0 && inj_cycle == UINT64_MAX) {
                int fires = inj_port < 0 ? in.in_valid && m.in_ready : in.rx_valid[inj_port] && m.rx_ready[inj_port];
                if (fires && inj_what >= 3 && flit_type(in.rx_flit[inj_port]) != FLIT_TYPE_PRIM) fires = 0;
                uint64_t orig = inj_port >= 0 ? in.rx_flit[inj_port] : 0;
                if (fires && ++cand >= nth) {
                    if (inj_port < 0) {
                        in.in_tag = (in.in_tag + (inj_what ? 1u : 0xffffu)) & 0xffff;
                    } else {
                        uint64_t f = in.rx_flit[inj_port];
                        uint32_t t = flit_type(f), src = flit_src(f), dst = flit_dst(f), tag = flit_tag(f);
                        static const uint32_t bad_type[3] = {0, 3, 7};
                        if (inj_what == 0) tag = (tag - 2) & 0xffff;
                        if (inj_what == 1) tag = (tag + 2) & 0xffff;
                        if (inj_what == 2) t = bad_type[idx % 3];
                        if (inj_what == 3) dst ^= 1;
                        if (inj_what == 4) tag = (hw.ob + 1) & 0xffff;
                        in.rx_flit[inj_port] = flit_make(t, src, dst, tag, flit_payload(f));
                    }
                    pe_hw_comb(&hw, &in, &m);
                    int still = inj_port < 0 ? in.in_valid && m.in_ready : in.rx_valid[inj_port] && m.rx_ready[inj_port];
                    if (!still && inj_what == 4) {   /* the next batch's bank is full: keep the flit, try a later one */
                        in.rx_flit[inj_port] = orig;
                        pe_hw_comb(&hw, &in, &m);
                    } else if (!still) {
                        fprintf(stderr, "pe-vectors: FAIL: --inject %s, scenario %u cycle %" PRIu64 ": the illegal beat is "
                                        "not accepted (ready fell)\n", inject, idx, cycle);
                        return 1;
                    }
                    if (still || inj_what != 4) {
                        inj_cycle = cycle;
                        injected++;
                    }
                }
            }
            if (inj_what >= 0 && (int)m.err != (inj_what != 4 && cycle > inj_cycle)) {
                fprintf(stderr, "pe-vectors: FAIL: --inject %s, scenario %u (%s): the C cycle model's err is %d in cycle %"
                                PRIu64 ", expected %d (the illegal handshake is in cycle %s; err rises in the cycle after it "
                                "and stays; a legal `next` tag keeps it low)\n  reproduce:", inject, idx, s.desc, m.err, cycle,
                        inj_what != 4 && cycle > inj_cycle,
                        inj_cycle == UINT64_MAX ? "(none yet)" : "below");
                for (int i = 0; i < argc; i++) fprintf(stderr, " %s", argv[i]);
                fprintf(stderr, "\n");
                if (inj_cycle != UINT64_MAX) fprintf(stderr, "  illegal handshake in cycle %" PRIu64 "\n", inj_cycle);
                return 1;
            }
            memset(&r, 0, sizeof r);
            put(&r, 508, 4, 2);
            put(&r, 501, 7, in.cfg.n_gpus);
            put(&r, 495, 6, in.cfg.gpu_id);
            put(&r, 494, 1, in.cfg.topo);
            put(&r, 493, 1, in.cfg.runahead);
            put(&r, 492, 1, (uint64_t)in.in_valid);
            put(&r, 491, 1, (uint64_t)in.in_end);
            put(&r, 475, 16, in.in_tag);
            put(&r, 443, 32, in.in_prim_id);
            put(&r, 379, 64, in.in_mask);
            put(&r, 378, 1, (uint64_t)in.tx_ready[0]);
            put(&r, 377, 1, (uint64_t)in.tx_ready[1]);
            put(&r, 376, 1, (uint64_t)in.rx_valid[0]);
            put(&r, 375, 1, (uint64_t)in.rx_valid[1]);
            put(&r, 311, 64, in.rx_flit[0]);
            put(&r, 247, 64, in.rx_flit[1]);
            put(&r, 246, 1, (uint64_t)in.out_ready);
            put(&r, 245, 1, (uint64_t)m.in_ready);
            put(&r, 244, 1, (uint64_t)m.tx_valid[0]);
            put(&r, 243, 1, (uint64_t)m.tx_valid[1]);
            put(&r, 179, 64, m.tx_flit[0]);
            put(&r, 115, 64, m.tx_flit[1]);
            put(&r, 114, 1, (uint64_t)m.rx_ready[0]);
            put(&r, 113, 1, (uint64_t)m.rx_ready[1]);
            put(&r, 112, 1, (uint64_t)m.out_valid);
            put(&r, 111, 1, (uint64_t)m.out_eob);
            put(&r, 95, 16, m.out_tag);
            put(&r, 63, 32, m.out_prim_id);
            put(&r, 62, 1, (uint64_t)m.busy);
            put(&r, 46, 16, m.cur_tag);
            put(&r, 45, 1, (uint64_t)m.err);
            emit(f, &r);
            cycles++;
            handshakes += (in.in_valid && m.in_ready) + (m.out_valid && in.out_ready);
            for (int p = 0; p < 2; p++) handshakes += (m.tx_valid[p] && in.tx_ready[p]) + (in.rx_valid[p] && m.rx_ready[p]);
            if (inj_cycle == UINT64_MAX && pe_env_observe(&env, &in, &m, why, sizeof why)) {
                fprintf(stderr, "pe-vectors: scenario %u (%s) cycle %" PRIu64 ": the C cycle model fails a check: %s\n", idx,
                        s.desc, cycle, why);
                return 1;
            }
            pe_hw_clock(&hw, &in);
            if (inj_cycle != UINT64_MAX && cycle >= inj_cycle + 6) break;   /* err checked in c+1 .. c+6 */
            if (pe_env_finished(&env, &m)) break;
            if (cycle > 10000000) { fprintf(stderr, "pe-vectors: scenario %u does not finish\n", idx); return 1; }
        }
        if (inj_cycle == UINT64_MAX && pe_env_final_check(&env, why, sizeof why)) { fprintf(stderr, "pe-vectors: scenario %u: %s\n", idx, why); return 1; }
        pe_env_free(&env);
        pe_scen_free(&s);
    }
    rec_t end;
    memset(&end, 0, sizeof end);
    put(&end, 508, 4, 0xf);
    emit(f, &end);
    if (fclose(f)) { perror(out); return 2; }
    if (inj_what >= 0) {
        if (!injected) {
            fprintf(stderr, "pe-vectors: FAIL: --inject %s: no scenario offered such a handshake (nothing was tested)\n", inject);
            return 1;
        }
        if (inj_what == 4)
            printf("pe-vectors: --inject %s: %u scenarios with a flit of tag ob+1 (legal), the C model's err stayed low "
                   "(checked over 6 cycles)\n", inject, injected);
        else
            printf("pe-vectors: --inject %s: %u scenarios with the illegal handshake, the C model's err rose in the cycle "
                   "after each (checked over 6 cycles)\n", inject, injected);
    }
    printf("pe-vectors: %u scenarios, %" PRIu64 " cycles, %" PRIu64 " handshakes, MAX_GPUS=%u LQ_DEPTH=%u RQ_DEPTH=%u, "
           "seed 0x%" PRIx64 " -> %s\n", scenarios, cycles, handshakes, prm.max_gpus, prm.lq_depth, prm.rq_depth, seed, out);
    return 0;
}
