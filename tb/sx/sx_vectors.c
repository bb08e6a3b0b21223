/* Writes the cycle-by-cycle vector file of the Icarus testbench tb_sx.v: the environment model of the lockstep
 * co-simulation (sim/sx/sx_env.h: the P2G and the other N-1 GPUs under the credit protocol, reacting to the
 * PE's handshakes) drives the C cycle model (cmodel/stream/sx_hw.h), and every cycle's inputs and the model's
 * outputs are written. The testbench applies the inputs to the RTL and compares every output every cycle: values
 * and handshake timing. The environment's checks run here too, so the vectors are known-good before Icarus sees
 * them. Icarus never uses $random.
 *
 *   sx-vectors --max-gpus M --k K --depth D --gpus 1,2,3,16 --scenarios S --size P --seed X -o FILE
 *   sx-vectors --max-gpus M --k K --depth D --errors -o FILE
 *
 * --errors writes the error-path vectors instead: one directed scenario per sticky err condition of sx_pe
 * (docs/sx.md section 2): after reset and some legal traffic (a PRIM and a LAST received, a kept P2G entry), one
 * illegal flit or P2G beat is injected; then the inputs go idle. The generator holds the rule itself: err_o is 0
 * up to the cycle of the offending handshake and 1 from the next cycle on; it fails if the C cycle model
 * disagrees (so the expected err values are the documented ones, not only the model's). The reset record carries
 * the condition's name (bits [255:0], ASCII) for the testbench's failure report.
 *
 * One record per line, 388 hex digits (1552 bits); bit offsets from the LSB:
 *   [1551:1548] type: 1 reset (two cycles), 2 cycle, f end;   reset: [1547:1516] scenario index, [255:0] name
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

#include "link/flit.h"
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

/* One cycle's record: inputs and the model's outputs; returns the handshakes of the cycle. */
static uint64_t cycle_rec(FILE *f, const sx_hw_params_t *prm, const sx_hw_in_t *in, const sx_hw_out_t *m)
{
    uint64_t handshakes = 0;
    rec_t r;
    memset(&r, 0, sizeof r);
    put(&r, 1548, 4, 2);
    put(&r, 0, 7, in->cfg.n_gpus);
    put(&r, 7, 6, in->cfg.gpu_id);
    put(&r, 13, 1, in->cfg.topo);
    for (int q = 0; q < 2; q++) {
        put(&r, 14 + q, 1, (uint64_t)in->tx_ready[q]);
        put(&r, 16 + q, 1, (uint64_t)in->rx_valid[q]);
        put(&r, 944 + 64 * q, 64, in->rx_flit[q]);
        put(&r, 1088 + q, 1, (uint64_t)m->tx_valid[q]);
        put(&r, 1090 + q, 1, (uint64_t)m->rx_ready[q]);
        put(&r, 1144 + 64 * q, 64, m->tx_flit[q]);
        handshakes += (in->rx_valid[q] && m->rx_ready[q]) + (m->tx_valid[q] && in->tx_ready[q]);
    }
    put(&r, 18, 1, (uint64_t)in->out_ready);
    for (uint32_t j = 0; j < prm->k; j++) {
        put(&r, 32 + (int)j, 1, (uint64_t)in->in[j].valid);
        put(&r, 40 + (int)j, 1, (uint64_t)in->in[j].end);
        put(&r, 48 + 16 * (int)j, 16, in->in[j].tag);
        put(&r, 176 + 32 * (int)j, 32, in->in[j].id);
        put(&r, 432 + 64 * (int)j, 64, in->in[j].mask);
        put(&r, 1072 + (int)j, 1, (uint64_t)m->in_ready[j]);
        put(&r, 1080 + (int)j, 1, (uint64_t)m->out_valid[j]);
        put(&r, 1272 + 32 * (int)j, 32, m->out_id[j]);
        handshakes += in->in[j].valid && m->in_ready[j];
    }
    put(&r, 1092, 1, (uint64_t)m->out_eob);
    put(&r, 1093, 1, (uint64_t)m->rel_last);
    put(&r, 1094, 1, (uint64_t)m->busy);
    put(&r, 1095, 1, (uint64_t)m->err);
    put(&r, 1096, 6, m->rel_src);
    put(&r, 1104, 16, m->out_tag);
    put(&r, 1120, 21, m->occ);
    emit(f, &r);
    return handshakes;
}

/* ------------------------------------------------------------------ error-path vectors (--errors) */
enum { EK_RX, EK_FULL, EK_LANE0, EK_END, EK_LANE1 };
typedef struct {
    const char *name;    /* <= 32 characters (the reset record's name field) */
    uint32_t topo;
    int kind;
    int port;            /* EK_RX, EK_FULL: rx port of the injected flit */
    uint32_t type, src, dst, tag, payload;   /* EK_RX, EK_FULL: the flit; lanes: tag (and END payload) */
} err_case_t;

/* Configuration of every case: N = 3, gpu_id = 1 (line: source 0 on port 0, source 2 on port 1). Legal traffic
 * before the injection: cycle 2 PRIM(0 -> 1, tag 0, id 100) on port 0, cycle 3 LAST(2, tag 0) (source 2's next
 * tag becomes 1), cycle 4 a P2G entry (tag 0, id 7, mask {0, 1}: kept and sent to GPU 0, so 1 credit is used at
 * GPU 0); EK_FULL then fills FIFO[0] with DEPTH - 1 more PRIMs from source 0 (the output is never ready). */
static const err_case_t err_cases[] = {
    {"rx flit of type 0", SX_TOPO_LINE, EK_RX, 0, 0, 0, 1, 0, 0},
    {"rx flit of type 4", SX_TOPO_LINE, EK_RX, 0, 4, 0, 1, 0, 0},
    {"rx flit of type 7", SX_TOPO_LINE, EK_RX, 1, 7, 2, 1, 1, 0},
    {"PRIM for another GPU", SX_TOPO_LINE, EK_RX, 1, FLIT_TYPE_PRIM, 2, 0, 1, 5},
    {"PRIM to the broadcast address", SX_TOPO_LINE, EK_RX, 0, FLIT_TYPE_PRIM, 0, FLIT_DST_BCAST, 0, 5},
    {"LAST not broadcast", SX_TOPO_LINE, EK_RX, 0, FLIT_TYPE_LAST, 0, 1, 0, 0},
    {"CREDIT for another GPU", SX_TOPO_LINE, EK_RX, 0, FLIT_TYPE_CREDIT, 0, 2, 0, 1},
    {"CREDIT of 0", SX_TOPO_LINE, EK_RX, 0, FLIT_TYPE_CREDIT, 0, 1, 0, 0},
    {"CREDIT above the credits used", SX_TOPO_LINE, EK_RX, 0, FLIT_TYPE_CREDIT, 0, 1, 0, 2},
    {"CREDIT from this GPU", SX_TOPO_HUB, EK_RX, 0, FLIT_TYPE_CREDIT, 1, 1, 0, 1},
    {"PRIM from this GPU", SX_TOPO_HUB, EK_RX, 0, FLIT_TYPE_PRIM, 1, 1, 0, 5},
    {"PRIM from a source >= N", SX_TOPO_HUB, EK_RX, 0, FLIT_TYPE_PRIM, 3, 1, 0, 5},
    {"LAST from source 63 (> MAX_GPUS)", SX_TOPO_HUB, EK_RX, 0, FLIT_TYPE_LAST, 63, FLIT_DST_BCAST, 0, 0},
    {"line port 0 from a source above", SX_TOPO_LINE, EK_RX, 0, FLIT_TYPE_PRIM, 2, 1, 1, 5},
    {"line port 1 from a source below", SX_TOPO_LINE, EK_RX, 1, FLIT_TYPE_PRIM, 0, 1, 0, 5},
    {"hub: a flit on port 1", SX_TOPO_HUB, EK_RX, 1, FLIT_TYPE_PRIM, 0, 1, 0, 5},
    {"PRIM with a stale tag", SX_TOPO_LINE, EK_RX, 1, FLIT_TYPE_PRIM, 2, 1, 0, 5},
    {"PRIM with a future tag", SX_TOPO_LINE, EK_RX, 0, FLIT_TYPE_PRIM, 0, 1, 1, 5},
    {"LAST with a far tag (0x8000)", SX_TOPO_LINE, EK_RX, 0, FLIT_TYPE_LAST, 0, FLIT_DST_BCAST, 0x8000, 0},
    {"PRIM into a full FIFO", SX_TOPO_LINE, EK_FULL, 0, FLIT_TYPE_PRIM, 0, 1, 0, 200},
    {"LAST into a full FIFO", SX_TOPO_HUB, EK_FULL, 0, FLIT_TYPE_LAST, 0, FLIT_DST_BCAST, 0, 0},
    {"P2G entry with a wrong tag", SX_TOPO_LINE, EK_LANE0, 0, 0, 0, 0, 1, 0},
    {"P2G END with a wrong tag", SX_TOPO_LINE, EK_END, 0, 0, 0, 0, 0xffff, 1},
    {"P2G lane 1 with a wrong tag", SX_TOPO_HUB, EK_LANE1, 0, 0, 0, 0, 2, 0},
};

/* One error case: reset, legal traffic, the injection, idle cycles. Returns 0, or 1 (message on stderr) if the
 * C cycle model breaks the documented rule (err_o = 0 through the offending handshake, 1 from the next cycle). */
static int err_case(FILE *f, sx_hw_t *hw, const sx_hw_params_t *prm, uint32_t idx, const err_case_t *ec,
                    uint64_t *cycles, uint64_t *hs)
{
    const uint32_t g = 1;
    rec_t r;
    memset(&r, 0, sizeof r);
    put(&r, 1548, 4, 1);
    put(&r, 1516, 32, 1000 + idx);
    size_t len = strlen(ec->name);
    for (size_t i = 0; i < len && i < 32; i++) put(&r, (int)(len - 1 - i) * 8, 8, (uint8_t)ec->name[i]);
    emit(f, &r);
    sx_hw_reset(hw);
    int inj = 5 + (ec->kind == EK_FULL ? (int)prm->depth - 1 : 0);
    int lp = ec->topo == SX_TOPO_LINE ? 1 : 0;   /* port of source 2 */
    int64_t hcycle = -1;                         /* cycle of the offending handshake */
    for (int64_t c = 0; hcycle < 0 ? c < inj + 64 : c <= hcycle + 4; c++) {
        sx_hw_in_t in;
        memset(&in, 0, sizeof in);
        in.cfg = (sx_hw_cfg_t){3, g, ec->topo};
        in.tx_ready[0] = in.tx_ready[1] = 1;
        if (c == 2) { in.rx_valid[0] = 1; in.rx_flit[0] = flit_make(FLIT_TYPE_PRIM, 0, g, 0, 100); }
        if (c == 3) { in.rx_valid[lp] = 1; in.rx_flit[lp] = flit_make(FLIT_TYPE_LAST, 2, FLIT_DST_BCAST, 0, 0); }
        if (c == 4) in.in[0] = (sx_hw_beat_t){1, 0, 0, 7, 3};
        if (c >= 5 && c < inj) {
            in.rx_valid[0] = 1;
            in.rx_flit[0] = flit_make(FLIT_TYPE_PRIM, 0, g, 0, (uint32_t)(101 + c - 5));
        }
        int injecting = c >= inj && hcycle < 0;
        if (injecting) {
            if (ec->kind == EK_RX || ec->kind == EK_FULL) {
                in.rx_valid[ec->port] = 1;
                in.rx_flit[ec->port] = flit_make(ec->type, ec->src, ec->dst, ec->tag, ec->payload);
            } else {
                in.in[0] = (sx_hw_beat_t){1, ec->kind == EK_END, ec->kind == EK_LANE1 ? 0 : ec->tag,
                                          ec->kind == EK_END ? ec->payload : 8, 2};
                if (ec->kind == EK_LANE1) in.in[1] = (sx_hw_beat_t){1, 0, ec->tag, 9, 2};
            }
        }
        sx_hw_out_t m;
        sx_hw_comb(hw, &in, &m);
        int exp_err = hcycle >= 0 && c > hcycle;
        if (m.err != exp_err || (c == 4 && !m.in_ready[0])) {
            fprintf(stderr, "sx-vectors: FAIL: error case %u (%s): cycle %" PRId64 ": the C model gives err=%d in_ready=%d,"
                    " the rule err=%d (offending handshake at cycle %" PRId64 ")\n",
                    idx, ec->name, c, m.err, m.in_ready[0], exp_err, hcycle);
            return 1;
        }
        *hs += cycle_rec(f, prm, &in, &m);
        (*cycles)++;
        if (injecting) {
            if (ec->kind == EK_RX || ec->kind == EK_FULL) {
                if (m.rx_ready[ec->port]) hcycle = c;
            } else if (m.in_ready[0] && (ec->kind != EK_LANE1 || m.in_ready[1])) {
                hcycle = c;
            }
        }
        sx_hw_clock(hw, &in);
    }
    if (hcycle < 0) {
        fprintf(stderr, "sx-vectors: FAIL: error case %u (%s): the injected input was never accepted\n", idx, ec->name);
        return 1;
    }
    return 0;
}

static int err_vectors(FILE *f, const sx_hw_params_t *prm, const char *out)
{
    if (prm->max_gpus < 4) {
        fprintf(stderr, "sx-vectors: --errors needs MAX_GPUS >= 4 (N = 3 and a source >= N)\n");
        return 2;
    }
    sx_hw_t hw;
    if (sx_hw_init(&hw, *prm)) return 2;
    uint64_t cycles = 0, hs = 0;
    uint32_t ncase = 0;
    for (uint32_t i = 0; i < sizeof err_cases / sizeof err_cases[0]; i++) {
        if (err_cases[i].kind == EK_LANE1 && prm->k < 2) continue;
        if (err_case(f, &hw, prm, i, &err_cases[i], &cycles, &hs)) { sx_hw_free(&hw); return 1; }
        printf("sx-vectors: error case %u: %s\n", i, err_cases[i].name);
        ncase++;
    }
    sx_hw_free(&hw);
    rec_t r;
    memset(&r, 0, sizeof r);
    put(&r, 1548, 4, 0xf);
    emit(f, &r);
    if (fclose(f)) { perror(out); return 2; }
    printf("sx-vectors: MAX_GPUS=%u K=%u DEPTH=%u: %u error cases, %" PRIu64 " cycles, %" PRIu64 " handshakes -> %s\n",
           prm->max_gpus, prm->k, prm->depth, ncase, cycles, hs, out);
    return 0;
}

int main(int argc, char **argv)
{
    sx_hw_params_t prm = {16, 2, 8};
    uint32_t gpus[16] = {1, 2, 3, 16}, scenarios = 10, size = 200;
    int ng = 4;
    uint64_t seed = 1;
    const char *out = NULL;
    int errors = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--errors")) { errors = 1; continue; }
        if (i + 1 >= argc) { fprintf(stderr, "sx-vectors: %s needs a value\n", argv[i]); return 2; }
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
        i++;
    }
    sx_hw_t hw;
    if (!out || size < 2 || sx_hw_init(&hw, prm)) {
        fprintf(stderr, "usage: sx-vectors --max-gpus M --k K --depth D {--gpus 1,2,3,16 --scenarios S --size P --seed X | --errors} -o FILE\n");
        return 2;
    }
    FILE *f = fopen(out, "w");
    if (!f) { perror(out); return 2; }
    if (errors) {
        sx_hw_free(&hw);
        return err_vectors(f, &prm, out);
    }
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
            handshakes += cycle_rec(f, &prm, &in, &m);
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
