/* gpupd-isa-gen: constrained-random shader programs for co-simulation (cmodel/isa/isa_gen.h).
 *   gpupd-isa-gen SEED [--depth D] [--len N] [-o out.bin] [--trace]
 * Prints the program's assembly to standard output (and writes the binary with -o). Same seed, same
 * program. Also runs it once on the interpreter with the generator's warp inputs and prints a summary
 * line as a comment (instructions retired, stack depth, status); --trace prints every retire record
 * (the stream a lockstep co-simulation compares) as comment lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/outfile.h"
#include "isa/isa.h"
#include "isa/isa_gen.h"

int main(int argc, char **argv)
{
    const char *out = NULL;
    uint64_t seed = 0;
    int have_seed = 0, trace = 0;
    isa_gen_params_t p = isa_gen_params_default();
    const char *T = "gpupd-isa-gen";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-o")) {
            char oerr[600];
            if (!v) return arg_need(T, a), 2;
            if (outf_check(v, oerr, sizeof oerr)) { fprintf(stderr, "%s: -o: %s\n", T, oerr); return 2; }
            out = v;
            i++;
        } else if (!strcmp(a, "--trace"))
            trace = 1;
        else if (!strcmp(a, "--depth")) {
            if (arg_u32(T, a, v, 0, 6, &p.max_depth)) return 2;
            i++;
        } else if (!strcmp(a, "--len")) {
            if (arg_u32(T, a, v, 64, ISA_MAX_CODE - 8, &p.max_static)) return 2;
            i++;
        } else if (!have_seed && a[0] != '-') {
            if (arg_u64x(T, "SEED", a, 0, UINT64_MAX, 1, &seed)) return 2;
            have_seed = 1;
        } else {
            fprintf(stderr, "%s: unexpected argument '%s'\n", T, a);
            have_seed = 0;
            break;
        }
    }
    if (!have_seed) {
        fprintf(stderr, "usage: gpupd-isa-gen SEED [--depth 0..6] [--len N>=64] [-o out.bin] [--trace]\n");
        return 2;
    }
    isa_gen_prog_t *g = calloc(1, sizeof *g);
    isa_ctx_t *ctx = isa_ctx_new();
    isa_warp_t *w = isa_warp_new();
    int rc = 1, gen = 0;   /* every exit below goes through done: (no allocation outlives an error) */
    if (!g || !ctx || !w || (gen = 1, isa_gen_program(&p, seed, g) != 0)) {
        fprintf(stderr, "gpupd-isa-gen: generation failed for seed %llu\n", (unsigned long long)seed);
        goto done;
    }
    fputs(g->text, stdout);
    if (isa_ctx_load(ctx, g->code, g->len, NULL) != ISA_OK)
        goto done;
    isa_gen_init_warp(&p, seed, ctx, w);
    int st;
    if (trace) {
        isa_retire_t rec;
        uint64_t k = 0;
        while ((st = isa_step(ctx, w, &rec)) == ISA_OK && ++k < 10000000) {
            char d[160];
            isa_disasm_insn(rec.insn, d, sizeof d);
            printf("; retire warp %u pc %4u active %08x wmask %08x next %4d  %-40s", rec.warp, rec.pc, rec.active,
                   rec.wmask, (int)rec.next_pc, d);
            static const char *const kinds[] = {"", "r", "p", "l", "o"};
            for (uint32_t j = 0; j < rec.ndst; j++) {
                uint32_t first = rec.wmask ? (uint32_t)__builtin_ctz(rec.wmask) : 0;
                printf(" %s%u[lane%u]=%08x", kinds[rec.dst_kind], rec.dst_kind >= 3 ? rec.addr[first] : rec.dst + j,
                       first, rec.val[j][first]);
            }
            printf("\n");
        }
        if (st == ISA_OK)
            st = ISA_ERR_LIMIT;
    } else {
        st = isa_run(ctx, w, 10000000);
    }
    printf("; %u instructions, launch mask 0x%08x, %s after %llu warp instructions (%llu thread-instructions), "
           "max stack %u\n",
           g->len, w->launch_mask, isa_status_str(st), (unsigned long long)w->n_instrs,
           (unsigned long long)w->n_thread_instrs, w->max_sp);
    if (out) {
        outf_t of;
        char oerr[600];
        if (outf_open(&of, out, 1, oerr, sizeof oerr)) {
            fprintf(stderr, "gpupd-isa-gen: %s\n", oerr);
            goto done;
        }
        FILE *f = of.f;
        for (uint32_t i = 0; i < g->len; i++) {
            unsigned char b[8];
            for (int k = 0; k < 8; k++)
                b[k] = (unsigned char)(g->code[i] >> (8 * k));
            fwrite(b, 1, 8, f);
        }
        if (outf_commit(&of, oerr, sizeof oerr)) {
            fprintf(stderr, "gpupd-isa-gen: %s\n", oerr);
            goto done;
        }
    }
    rc = st == ISA_DONE ? 0 : 1;
done:
    if (gen)
        isa_gen_free(g);
    free(g);
    isa_ctx_free(ctx);
    isa_warp_free(w);
    return rc;
}
