/* Vector file for the Icarus testbench tb/simt_fpu/tb_simt_fpu.v: stimulus of the unit lockstep phases
 * (sim/simt_fpu/simt_fpu_stim.h), a stride-sample of every directed phase plus random vectors, with the
 * expected results from the ISA definition (cmodel/isa/isa_fp.c, isa_sfu.c). Never $random: the testbench
 * only reads this file.
 *   simt-fpu-vectors [--seed S] [--per-phase N] -o FILE
 * One line per vector, hex fields: unit(0 FPU, 1 SFU) op cc mods a b c res pred. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt_fpu_stim.h"

int main(int argc, char **argv)
{
    uint64_t seed = 0x5eed, per = 3000;
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--per-phase") && i + 1 < argc) per = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--seed S] [--per-phase N] -o FILE\n", argv[0]);
            return 2;
        }
    }
    if (!out || per == 0) {
        fprintf(stderr, "simt-fpu-vectors: -o FILE and --per-phase N >= 1 needed\n");
        return 2;
    }
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        perror(tmp);
        return 1;
    }
    simt_stim_cfg_t cfg = {per, per, per, 1, 32};
    rng_t gf, gs;
    rng_seed(&gf, seed);
    rng_seed(&gs, seed ^ 0x5f5f5f5full);
    uint64_t nf = 0, ns = 0;
    for (int ph = 0; ph < SIMT_N_FPH; ph++) {
        uint64_t n = simt_fph_count(&cfg, ph), take = n < per ? n : per;
        for (uint64_t k = 0; k < take; k++) {
            simt_fvec_t v;
            uint32_t res;
            int pred;
            simt_fph_vec(&gf, &cfg, ph, k * n / take, &v);
            simt_ref_fpu(&v, &res, &pred);
            fprintf(f, "0 %02x %x %x %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %x\n", v.op, v.cc, v.mods,
                    v.a, v.b, v.c, res, pred);
            nf++;
        }
    }
    for (int ph = 0; ph < SIMT_N_SPH; ph++) {
        uint64_t n = simt_sph_count(&cfg, ph), take = n < per ? n : per;
        for (uint64_t k = 0; k < take; k++) {
            simt_svec_t v;
            simt_sph_vec(&gs, &cfg, ph, k * n / take, &v);
            fprintf(f, "1 %02x 0 %x %08" PRIx32 " 00000000 00000000 %08" PRIx32 " 0\n", v.op, v.mods, v.a,
                    simt_ref_sfu(&v));
            ns++;
        }
    }
    if (fclose(f) != 0 || rename(tmp, out) != 0) {
        perror(out);
        return 1;
    }
    printf("simt-fpu-vectors: %" PRIu64 " FPU and %" PRIu64 " SFU vectors (seed 0x%" PRIx64 ") -> %s\n", nf, ns, seed,
           out);
    return 0;
}
