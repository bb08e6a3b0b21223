/* Vectors for the Icarus testbench tb/simt/tb_simt_core.v: the C cycle model (cmodel/simt/simt_hw.h) run
 * on a job (a random program of the ISA generator, or a library shader), driven through the host ports
 * exactly as the Verilator harness does; one line per cycle with the inputs and the expected outputs.
 * Every retired instruction of the model is also checked here against the ISA interpreter, so a vector
 * file is only written if the expectations agree with the ISA definition. The testbench applies the inputs
 * and compares every expected output field (never $random: all stimulus comes from this file).
 * Usage: simt-vectors --lanes L --warps W --fpu-lat N --sfu-lat N --tex-lat N
 *                     (--seed S [--no-fp] | --shader NAME [--seed S] | --program FILE.bin [--seed S]) -o FILE
 * --program: instruction words as they are (little-endian; e.g. tests/simt/gen_hazard.py's), the inputs of
 * the generator's warps for the seed. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "isa/isa.h"
#include "isa/isa_gen.h"
#include "simt/simt_hw.h"
#include "simt_sampler.h"

/* the texture sampler of the lockstep: sim/simt/simt_sampler.h */

static void strip_fp(uint64_t *code, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t op = (uint32_t)ISA_GET(code[i], OP), nop = op;
        if (op >= ISA_OP_FADD && op <= ISA_OP_FRND)
            nop = op == ISA_OP_FSETP ? ISA_OP_ISETP : ISA_OP_XOR;
        else if ((op >= ISA_OP_F2I && op <= ISA_OP_U2F) || (op >= ISA_OP_RCP && op <= ISA_OP_COS))
            nop = ISA_OP_AND;
        if (nop != op)
            code[i] = (code[i] & ~(0x7full << ISA_F_OP_LO)) | ((uint64_t)nop << ISA_F_OP_LO);
    }
}

static void hexw(FILE *f, const uint32_t *v, uint32_t n)   /* n words, most significant first */
{
    fputc(' ', f);
    for (uint32_t i = n; i-- > 0;)
        fprintf(f, "%08x", v[i]);
}

int main(int argc, char **argv)
{
    simt_hw_params_t p = {8, 4, 8, 8, 4, 1, 1};
    uint64_t seed = 1;
    int no_fp = 0;
    const char *shader = NULL, *outp = NULL, *program = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(a, "--lanes")) p.lanes = (uint32_t)strtoul(v, NULL, 0), i++;
        else if (!strcmp(a, "--warps")) p.warps = (uint32_t)strtoul(v, NULL, 0), i++;
        else if (!strcmp(a, "--fpu-lat")) p.fpu_lat = (uint32_t)strtoul(v, NULL, 0), i++;
        else if (!strcmp(a, "--sfu-lat")) p.sfu_lat = (uint32_t)strtoul(v, NULL, 0), i++;
        else if (!strcmp(a, "--tex-lat")) p.tex_lat = (uint32_t)strtoul(v, NULL, 0), i++;
        else if (!strcmp(a, "--seed")) seed = strtoull(v, NULL, 0), i++;
        else if (!strcmp(a, "--shader")) shader = v, i++;
        else if (!strcmp(a, "--program")) program = v, i++;
        else if (!strcmp(a, "-o")) outp = v, i++;
        else if (!strcmp(a, "--no-fp")) no_fp = 1;
        else { fprintf(stderr, "simt-vectors: unknown argument %s\n", a); return 2; }
    }
    if (!outp || !simt_hw_params_ok(p)) {
        fprintf(stderr, "simt-vectors: need -o FILE and legal parameters\n");
        return 2;
    }
    const uint32_t L = p.lanes, W = p.warps;
    simt_hw_derived_t g = simt_hw_derive(p);
    isa_ctx_t *ctx = isa_ctx_new();
    isa_warp_t *iw[SIMT_HW_MAX_WARPS];
    uint64_t code[ISA_MAX_CODE];
    uint32_t len;
    for (uint32_t w = 0; w < W; w++)
        iw[w] = isa_warp_new();
    if (shader) {
        isa_asm_err_t err;
        int n = isa_shader_assemble(shader, code, ISA_MAX_CODE, &err);
        if (n < 0) { fprintf(stderr, "simt-vectors: shader %s: %s\n", shader, err.msg); return 2; }
        len = (uint32_t)n;
        rng_t r;
        rng_seed(&r, seed);
        for (uint32_t i = 0; i < ISA_CONST_WORDS; i++)
            ctx->konst[i] = isa_float_bits((float)((int32_t)rng_below(&r, 1u << 16) - (1 << 15)) / 16384.0f);
        for (uint32_t w = 0; w < W; w++) {
            isa_warp_init(iw[w], w, 0xffffffffu);
            for (uint32_t a = 0; a < ISA_ATTR_WORDS; a++)
                for (uint32_t l = 0; l < 32; l++)
                    iw[w]->attr[a][l] = isa_float_bits((float)((int32_t)rng_below(&r, 1u << 20) - (1 << 19)) / 65536.0f);
            for (uint32_t l = 0; l < 32; l++) {
                iw[w]->sr_vertex[l] = w * 32u + l;
                iw[w]->sr_prim[l] = (w * 32u + l) / 3u;
            }
        }
    } else {
        isa_gen_params_t gp = isa_gen_params_default();
        gp.max_static = 200;
        gp.max_depth = 3;
        if (program) {
            FILE *pf = fopen(program, "rb");
            unsigned char b[8];
            len = 0;
            while (pf && len < ISA_MAX_CODE && fread(b, 1, 8, pf) == 8) {
                code[len] = 0;
                for (int k = 0; k < 8; k++) code[len] |= (uint64_t)b[k] << (8 * k);
                len++;
            }
            if (!pf || !len) { fprintf(stderr, "simt-vectors: cannot read a program from %s\n", program); return 2; }
            fclose(pf);
        } else {
            isa_gen_prog_t prog;
            if (isa_gen_program(&gp, seed, &prog) != 0) { fprintf(stderr, "simt-vectors: generator failed\n"); return 2; }
            memcpy(code, prog.code, prog.len * sizeof code[0]);
            len = prog.len;
            isa_gen_free(&prog);
        }
        if (no_fp)
            strip_fp(code, len);
        for (uint32_t w = 0; w < W; w++)
            isa_gen_init_warp(&gp, seed * 64u + w + 1u, ctx, iw[w]);
    }
    if (isa_ctx_load(ctx, code, len, NULL) != ISA_OK) { fprintf(stderr, "simt-vectors: program does not load\n"); return 2; }
    ctx->tex = sampler;

    simt_hw_t *h = calloc(1, sizeof *h);
    if (!h || simt_hw_init(h, p) != 0) return 2;
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s.tmp", outp);
    FILE *f = fopen(tmp, "w");
    if (!f) { perror(tmp); return 2; }
    uint32_t texq[64][SIMT_HW_MAX_LANES];
    int texv[64] = {0};
    int phase = 0, cur = 0, rb_prev = 0;
    uint32_t i = 0, w = 0, row = 0, word = 0, n_instr = 0;
    uint32_t cval[4][32] = {{0}}, cpc = 0, cwarp = 0;
    uint64_t cycle = 0, run_start = 0;
    while (phase != 6) {
        simt_hw_in_t in;
        simt_hw_out_t o;
        memset(&in, 0, sizeof in);
        in.prog_len = len;
        if (phase == 0) { in.imem_we = 1; in.imem_addr = i; in.imem_data = code[i]; }
        else if (phase == 1) { in.const_we = 1; in.const_addr = i; in.const_data = ctx->konst[i]; }
        else if (phase == 2) {
            in.attr_we = 1; in.attr_warp = w; in.attr_row = row; in.attr_word = word;
            for (uint32_t l = 0; l < L; l++) {
                uint32_t t = row * L + l;
                in.attr_data[l] = word < 64 ? iw[w]->attr[word][t] : word == 64 ? iw[w]->sr_vertex[t] : iw[w]->sr_prim[t];
            }
        } else if (phase == 3) {
            in.launch = 1; in.launch_warp = w; in.launch_mask = iw[w]->launch_mask; in.launch_wid = iw[w]->warp_id;
        } else if (phase == 5) { in.out_warp = w; in.out_row = row; in.out_word = word; }
        uint32_t slot = (uint32_t)(cycle % 64);
        if (texv[slot]) { memcpy(in.tex_rsp, texq[slot], sizeof in.tex_rsp); texv[slot] = 0; }
        simt_hw_comb(h, &in, &o);
        /* inputs */
        fprintf(f, "%x %03x %016" PRIx64 " %x %02x %08x %x %02x %02x %02x", in.imem_we, in.imem_addr, in.imem_data,
                in.const_we, in.const_addr, in.const_data, in.attr_we, in.attr_warp, in.attr_row, in.attr_word);
        hexw(f, in.attr_data, L);
        fprintf(f, " %x %02x %08x %08x %02x %02x %02x %04x", in.launch, in.launch_warp, in.launch_mask, in.launch_wid,
                in.out_warp, in.out_row, in.out_word, in.prog_len);
        hexw(f, in.tex_rsp, L);
        /* expected outputs */
        fprintf(f, " %x %08x %08x %x %x %x %02x %04x %08x %08x %02x %x %08x %x %02x", o.idle, o.run_mask, o.err_mask,
                o.rt_valid, o.rt_first, o.rt_last, o.rt_warp, o.rt_pc, o.rt_active, o.rt_wmask, o.rt_row, o.rt_minor,
                o.rt_lane_en, o.rt_kind, o.rt_dst);
        hexw(f, o.rt_val, L);
        fprintf(f, " %x %08x %x %02x %04x", o.tex_valid, o.tex_mask, o.issue_valid, o.issue_warp, o.issue_pc);
        hexw(f, o.out_rdata, L);
        fprintf(f, " %x\n", rb_prev);   /* out_rdata is meaningful: the previous cycle read the output memory */
        rb_prev = phase == 5;
        /* texture answers */
        if (o.tex_valid) {
            uint32_t due = (uint32_t)((cycle + p.tex_lat) % 64);
            texv[due] = 1;
            memset(texq[due], 0, sizeof texq[due]);
            for (uint32_t l = 0; l < L; l++)
                if ((o.tex_mask >> l) & 1u) {
                    uint32_t rgba[4];
                    sampler(NULL, o.tex_unit, iw[o.tex_warp]->warp_id, o.tex_row * L + l, o.tex_s[l], o.tex_t[l], rgba);
                    texq[due][l] = rgba[o.tex_comp & 3u];
                }
        }
        /* the model's retired instructions against the interpreter */
        if (o.rt_valid) {
            if (o.rt_first) { cur = 1; cpc = o.rt_pc; cwarp = o.rt_warp; memset(cval, 0, sizeof cval); }
            uint32_t comp = ISA_GET(code[cpc], OP) == ISA_OP_TEX ? o.rt_minor : 0;
            for (uint32_t l = 0; l < L; l++)
                if ((o.rt_lane_en >> l) & 1u)
                    cval[comp][o.rt_row * L + l] = o.rt_val[l];
            if (o.rt_last && cur) {
                isa_retire_t rec;
                if (isa_step(ctx, iw[cwarp], &rec) != ISA_OK || rec.pc != cpc || rec.wmask != o.rt_wmask ||
                    memcmp(rec.val, cval, sizeof cval) != 0) {
                    fprintf(stderr, "simt-vectors: the cycle model disagrees with the interpreter at warp %u pc %u\n", cwarp, cpc);
                    return 1;
                }
                n_instr++;
                cur = 0;
            }
        }
        /* host sequencing */
        switch (phase) {
        case 0: if (++i >= len) { phase = 1; i = 0; } break;
        case 1: if (++i >= ISA_CONST_WORDS) { phase = 2; w = row = word = 0; } break;
        case 2:
            if (++word >= 66) { word = 0; if (++row >= g.q) { row = 0; if (++w >= W) { phase = 3; w = 0; } } }
            break;
        case 3: if (++w >= W) { phase = 4; run_start = cycle + 1; } break;
        case 4: if (o.idle && cycle > run_start) { phase = 5; w = row = word = 0; } break;
        case 5:
            if (++word >= 64) { word = 0; if (++row >= g.q) { row = 0; if (++w >= W) phase = 6; } }
            break;
        }
        simt_hw_clock(h, &in);
        cycle++;
        if (cycle > 3000000) { fprintf(stderr, "simt-vectors: watchdog\n"); return 1; }
    }
    /* two more cycles so the last read-back word is compared */
    fclose(f);
    if (rename(tmp, outp) != 0) { perror(outp); return 2; }
    printf("simt-vectors: %s: %" PRIu64 " cycles, %u instructions (checked against the interpreter)\n", outp, cycle, n_instr);
    simt_hw_free(h);
    free(h);
    for (uint32_t k = 0; k < W; k++)
        isa_warp_free(iw[k]);
    isa_ctx_free(ctx);
    return 0;
}
