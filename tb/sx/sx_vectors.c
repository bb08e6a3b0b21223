/* Writes the cycle-by-cycle vector file of the Icarus testbench tb_sx.v: the environment model of the lockstep
 * co-simulation (sim/sx/sx_env.h: the P2G and the other N-1 GPUs under the credit protocol, reacting to the
 * PE's handshakes) drives the C cycle model (cmodel/stream/sx_hw.h), and every cycle's inputs and the model's
 * outputs are written. The testbench applies the inputs to the RTL and compares every output every cycle: values
 * and handshake timing. The environment's checks run here too, so the vectors are known-good before Icarus sees
 * them. Icarus never uses $random.
 *
 *   sx-vectors --max-gpus M --k K --depth D --gpus 1,2,3,16 --scenarios S --size P --seed X -o FILE
 *
 * One record per line, 388 hex digits (1552 bits); bit offsets from the LSB:
 *   [1551:1548] type: 1 reset (two cycles), 2 cycle, f end;   reset: [1547:1516] scenario index
 *   inputs:  @0 cfg_n_gpus(7) @7 cfg_gpu_id(6) @13 cfg_topo @14 tx_ready[1:0] @16 rx_valid[1:0] @18 out_ready
 *            @32 in_valid[7:0] @40 in_end[7:0] @48+16j in_tag lane j @176+32j in_id lane j @432+64j in_mask lane j
 *            @944 rx0_flit(64) @1008 rx1_flit(64)
 *   outputs: @1072 in_ready[7:0] @1080 out_valid[7:0] @1088 tx_valid[1:0] @1090 rx_ready[1:0] @1092 out_eob
 *            @1093 rel_last @1094 busy @1095 err @1096 rel_src(6) @1104 out_tag(16) @1120 occ(21)
 *            @1144 tx0_flit(64) @1208 tx1_flit(64) @1272+32j out_id lane j */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/sx_hw.h"
#include "sx_env.h"

#define REC_BITS 1552
#define REC_WORDS (REC_BITS / 16)
typedef struct { uint16_t w[REC_WORDS]; } rec_t;   /* w[0] = bits 15..0 */

static void put(rec_t *r, int lsb, int width, uint64_t v)
{
    for (int i = 0; i < width; i++)
        if ((v >> i) & 1) r->w[(lsb + i) / 16] |= (uint16_t)(1u << ((lsb + i) % 16));
}

static void emit(FILE *f, const rec_t *r)
{
    for (int i = REC_WORDS - 1; i >= 0; i--) fprintf(f, "%04x", r->w[i]);
    fputc('\n', f);
}

int main(int argc, char **argv)
{
    sx_hw_params_t prm = {16, 2, 8};
    uint32_t gpus[16] = {1, 2, 3, 16}, scenarios = 10, size = 200;
    int ng = 4;
    uint64_t seed = 1;
    const char *out = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--max-gpus")) prm.max_gpus = (uint32_t)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--k")) prm.k = (uint32_t)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--depth")) prm.depth = (uint32_t)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--scenarios")) scenarios = (uint32_t)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--size")) size = (uint32_t)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "-o")) out = argv[i + 1];
        else if (!strcmp(argv[i], "--gpus")) {
            ng = 0;
            char buf[256];
            snprintf(buf, sizeof buf, "%s", argv[i + 1]);
            for (char *s = NULL, *t = strtok_r(buf, ",", &s); t && ng < 16; t = strtok_r(NULL, ",", &s))
                gpus[ng++] = (uint32_t)strtoul(t, NULL, 10);
        } else {
            fprintf(stderr, "sx-vectors: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    sx_hw_t hw;
    if (!out || size < 2 || sx_hw_init(&hw, prm)) {
        fprintf(stderr, "usage: sx-vectors --max-gpus M --k K --depth D --gpus 1,2,3,16 --scenarios S --size P --seed X -o FILE\n");
        return 2;
    }
    FILE *f = fopen(out, "w");
    if (!f) { perror(out); return 2; }
    uint64_t cycles = 0, handshakes = 0;
    for (uint32_t idx = 0; idx < scenarios; idx++) {
        sx_scen_t s;
        sx_scen_make(seed, idx, gpus, ng, &prm, size, &s);
        sx_env_t env;
        sx_env_init(&env, &s, &prm, seed, idx, 0);
        sx_hw_reset(&hw);
        rec_t r;
        memset(&r, 0, sizeof r);
        put(&r, 1548, 4, 1);
        put(&r, 1516, 32, idx);
        emit(f, &r);
        char why[512];
        for (uint64_t cycle = 0;; cycle++) {
            sx_hw_in_t in;
            sx_hw_out_t m;
            sx_env_drive(&env, cycle, &in);
            sx_hw_comb(&hw, &in, &m);
            memset(&r, 0, sizeof r);
            put(&r, 1548, 4, 2);
            put(&r, 0, 7, in.cfg.n_gpus);
            put(&r, 7, 6, in.cfg.gpu_id);
            put(&r, 13, 1, in.cfg.topo);
            for (int q = 0; q < 2; q++) {
                put(&r, 14 + q, 1, (uint64_t)in.tx_ready[q]);
                put(&r, 16 + q, 1, (uint64_t)in.rx_valid[q]);
                put(&r, 944 + 64 * q, 64, in.rx_flit[q]);
                put(&r, 1088 + q, 1, (uint64_t)m.tx_valid[q]);
                put(&r, 1090 + q, 1, (uint64_t)m.rx_ready[q]);
                put(&r, 1144 + 64 * q, 64, m.tx_flit[q]);
                handshakes += (in.rx_valid[q] && m.rx_ready[q]) + (m.tx_valid[q] && in.tx_ready[q]);
            }
            put(&r, 18, 1, (uint64_t)in.out_ready);
            for (uint32_t j = 0; j < prm.k; j++) {
                put(&r, 32 + (int)j, 1, (uint64_t)in.in[j].valid);
                put(&r, 40 + (int)j, 1, (uint64_t)in.in[j].end);
                put(&r, 48 + 16 * (int)j, 16, in.in[j].tag);
                put(&r, 176 + 32 * (int)j, 32, in.in[j].id);
                put(&r, 432 + 64 * (int)j, 64, in.in[j].mask);
                put(&r, 1072 + (int)j, 1, (uint64_t)m.in_ready[j]);
                put(&r, 1080 + (int)j, 1, (uint64_t)m.out_valid[j]);
                put(&r, 1272 + 32 * (int)j, 32, m.out_id[j]);
                handshakes += in.in[j].valid && m.in_ready[j];
            }
            put(&r, 1092, 1, (uint64_t)m.out_eob);
            put(&r, 1093, 1, (uint64_t)m.rel_last);
            put(&r, 1094, 1, (uint64_t)m.busy);
            put(&r, 1095, 1, (uint64_t)m.err);
            put(&r, 1096, 6, m.rel_src);
            put(&r, 1104, 16, m.out_tag);
            put(&r, 1120, 21, m.occ);
            emit(f, &r);
            cycles++;
            if (sx_env_observe(&env, cycle, &in, &m, why, sizeof why)) {
                fprintf(stderr, "sx-vectors: FAIL: scenario %u cycle %" PRIu64 ": %s\n", idx, cycle, why);
                return 1;
            }
            int done = sx_env_finished(&env, &m);
            sx_hw_clock(&hw, &in);
            if (done) break;
            if (cycle > 2000000) { fprintf(stderr, "sx-vectors: FAIL: scenario %u does not finish\n", idx); return 1; }
        }
        sx_env_free(&env);
        sx_scen_free(&s);
    }
    rec_t r;
    memset(&r, 0, sizeof r);
    put(&r, 1548, 4, 0xf);
    emit(f, &r);
    if (fclose(f)) { perror(out); return 2; }
    sx_hw_free(&hw);
    printf("sx-vectors: MAX_GPUS=%u K=%u DEPTH=%u seed=0x%" PRIx64 ": %u scenarios, %" PRIu64 " cycles, %" PRIu64
           " handshakes -> %s\n", prm.max_gpus, prm.k, prm.depth, seed, scenarios, cycles, handshakes, out);
    return cycles && handshakes ? 0 : 1;
}
