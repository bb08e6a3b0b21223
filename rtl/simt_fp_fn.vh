// simt_fp_fn.vh: the carry-save multiplier half, the prefix adder and the leading-zero count of the SIMT lane
// datapaths as function-declaring macros, for pipeline stages whose logic is written inside the valid-enabled
// register's always block (docs/simt-fpu.md, "Valid-enabled stages"): a cycle-based simulator (Verilator)
// then computes a stage only in the cycles in which it carries a valid operation. Each macro declares one
// function of fixed widths in the module that expands it; the gates are those of the cell it mirrors:
//   `SIMT_FN_CSA(name, WA, WB, W, XS)  name(x, y) = {carry, sum}: simt_fp_mul_csa #(WA, WB, W, XS) (the same
//                                      Wallace tree, level by level, row by row)
//   `SIMT_FN_KADD(name, W)             name(a, b, cin) = {cout, sum}: simt_fp_kadd #(W) (the Kogge-Stone
//                                      prefix of g_prefix; g_chunks is the same network, scripts/simt_speed_equiv.sh)
//   `SIMT_FN_RADD(name, W)             the same sum as `+`: simt_fp_kadd #(W, RIPPLE = 1) (carry chain)
//   `SIMT_STAGE(gn, EN, V, lhs, rhs)   a stage's boundary: register loaded when V (EN != 0) or always @* (EN = 0)
//   `SIMT_FN_LZC(name, W, CW)          name(x) = leading zeros (W if x = 0): simt_fp_lzc #(W, CW)
// Every loop has constant bounds, so that simulators and synthesis unroll them into straight-line logic.
`ifndef SIMT_FP_FN_VH
`define SIMT_FP_FN_VH

`define SIMT_FN_CSA(NAME, FWA, FWB, FW, FXS) \
  function automatic [2*(FW)-1:0] NAME(input [(FWA)-1:0] fx, input [(FWB)-1:0] fy); \
    reg [(FW)-1:0] fr [0:(FWB)-1]; \
    reg [(FW)-1:0] fxe, fa, fb, fc; \
    integer fj, fnp; \
    begin \
      fxe = {{((FW) - (FWA)){(FXS) != 0 && fx[(FWA)-1]}}, fx}; \
      for (fj = 0; fj < (FWB); fj = fj + 1) fr[fj] = fy[fj] ? (fxe << fj) : {(FW){1'b0}}; \
      for (fnp = (FWB); fnp > 2; fnp = fnp - fnp / 3) begin \
        for (fj = 0; fj < fnp / 3; fj = fj + 1) begin \
          fa = fr[3*fj]; fb = fr[3*fj+1]; fc = fr[3*fj+2]; \
          fr[2*fj]   = fa ^ fb ^ fc; \
          fr[2*fj+1] = ((fa & fb) | (fa & fc) | (fb & fc)) << 1; \
        end \
        for (fj = 0; fj < fnp % 3; fj = fj + 1) fr[2*(fnp/3) + fj] = fr[3*(fnp/3) + fj]; \
      end \
      NAME = {fr[1], fr[0]}; \
    end \
  endfunction

`define SIMT_FN_KADD(NAME, FW) \
  function automatic [(FW):0] NAME(input [(FW)-1:0] fa_i, input [(FW)-1:0] fb_i, input fci_i); \
    reg [(FW):0] fa, fb, fg, fp, fx; \
    integer fd; \
    begin \
      fa = {fa_i, fci_i}; \
      fb = {fb_i, fci_i}; \
      fx = fa ^ fb; \
      fg = fa & fb; \
      fp = fx; \
      for (fd = 1; fd <= (FW); fd = fd * 2) begin \
        fg = fg | (fp & (fg << fd)); \
        fp = fp & (fp << fd); \
      end \
      NAME = {fg[(FW)], fx[(FW):1] ^ fg[(FW)-1:0]}; \
    end \
  endfunction

// the same sum written as `+` (simt_fp_kadd #(W, RIPPLE = 1): FPGA flows map it to their carry chain); a module
// with an AREA parameter declares both and selects with a constant `?:` (no branch, so no coverage point), the
// ripple one between verilator coverage_off/on (its body is a line point that the AREA = 0 build never runs)
`define SIMT_FN_RADD(NAME, FW) \
  function automatic [(FW):0] NAME(input [(FW)-1:0] fa_i, input [(FW)-1:0] fb_i, input fci_i); \
    NAME = {1'b0, fa_i} + {1'b0, fb_i} + {{(FW){1'b0}}, fci_i}; \
  endfunction

`define SIMT_FN_LZC(NAME, FW, FCW) \
  function automatic [(FCW)-1:0] NAME(input [(FW)-1:0] fx); \
    reg ffound; \
    reg [31:0] fcnt; \
    integer fi; \
    begin \
      fcnt = (FW); \
      ffound = 1'b0; \
      for (fi = (FW) - 1; fi >= 0; fi = fi - 1) begin \
        if (!ffound && fx[fi]) begin \
          fcnt = (FW) - 1 - fi; \
          ffound = 1'b1; \
        end \
      end \
      NAME = fcnt[(FCW)-1:0]; \
    end \
  endfunction

// The same two functions for 64 < W <= 128 (W + 1 <= 128 for the adder), with every row (CSA) or g/p term
// (adder) kept as a low 64-bit and a high chunk, the shifts crossing the chunk boundary explicitly, so that a
// simulator keeps them in machine words (as the g_c chunks of simt_fp_mul_csa and the g_chunks of
// simt_fp_kadd do): the same gates as `SIMT_FN_CSA / `SIMT_FN_KADD.
`define SIMT_FN_CSA2(NAME, FWA, FWB, FW, FXS) \
  function automatic [2*(FW)-1:0] NAME(input [(FWA)-1:0] fx, input [(FWB)-1:0] fy); \
    reg [63:0] frl [0:(FWB)-1]; \
    reg [(FW)-65:0] frh [0:(FWB)-1]; \
    reg [(FW)-1:0] fxe; \
    reg [63:0] fxl, fal, fbl, fcl, fml; \
    reg [(FW)-65:0] fxh, fah, fbh, fch, fmh; \
    reg [63:0] fxs; \
    integer fj, fnp; \
    begin \
      fxe = {{((FW) - (FWA)){(FXS) != 0 && fx[(FWA)-1]}}, fx}; \
      fxl = fxe[63:0]; \
      fxh = fxe[(FW)-1:64]; \
      for (fj = 0; fj < (FWB); fj = fj + 1) begin \
        frl[fj] = fy[fj] ? (fxl << fj) : 64'd0; \
        fxs = fxl >> (64 - fj); \
        frh[fj] = fy[fj] ? ((fxh << fj) | fxs[(FW)-65:0]) : {((FW)-64){1'b0}}; \
      end \
      for (fnp = (FWB); fnp > 2; fnp = fnp - fnp / 3) begin \
        for (fj = 0; fj < fnp / 3; fj = fj + 1) begin \
          fal = frl[3*fj]; fbl = frl[3*fj+1]; fcl = frl[3*fj+2]; \
          fah = frh[3*fj]; fbh = frh[3*fj+1]; fch = frh[3*fj+2]; \
          fml = (fal & fbl) | (fal & fcl) | (fbl & fcl); \
          fmh = (fah & fbh) | (fah & fch) | (fbh & fch); \
          frl[2*fj]   = fal ^ fbl ^ fcl; \
          frh[2*fj]   = fah ^ fbh ^ fch; \
          frl[2*fj+1] = fml << 1; \
          frh[2*fj+1] = (fmh << 1) | {{((FW)-65){1'b0}}, fml[63]}; \
        end \
        for (fj = 0; fj < fnp % 3; fj = fj + 1) begin \
          frl[2*(fnp/3) + fj] = frl[3*(fnp/3) + fj]; \
          frh[2*(fnp/3) + fj] = frh[3*(fnp/3) + fj]; \
        end \
      end \
      NAME = {frh[1], frl[1], frh[0], frl[0]}; \
    end \
  endfunction

`define SIMT_FN_KADD2(NAME, FW) \
  function automatic [(FW):0] NAME(input [(FW)-1:0] fa_i, input [(FW)-1:0] fb_i, input fci_i); \
    reg [63:0] fal, fbl, fgl, fpl, fxl, fgsl, fpsl; \
    reg [(FW)-64:0] fah, fbh, fgh, fph, fxh, fgsh, fpsh; \
    reg [63:0] fgt, fpt; \
    integer fd; \
    begin \
      fal = {fa_i[62:0], fci_i}; \
      fbl = {fb_i[62:0], fci_i}; \
      fah = fa_i[(FW)-1:63]; \
      fbh = fb_i[(FW)-1:63]; \
      fxl = fal ^ fbl; \
      fxh = fah ^ fbh; \
      fgl = fal & fbl; \
      fgh = fah & fbh; \
      fpl = fxl; \
      fph = fxh; \
      for (fd = 1; fd <= (FW); fd = fd * 2) begin \
        if (fd < 64) begin \
          fgsl = fgl << fd; \
          fpsl = fpl << fd; \
          fgt = fgl >> (64 - fd); \
          fpt = fpl >> (64 - fd); \
          fgsh = (fgh << fd) | fgt[(FW)-64:0]; \
          fpsh = (fph << fd) | fpt[(FW)-64:0]; \
        end else begin \
          fgsl = 64'd0; \
          fpsl = 64'd0; \
          fgt = fgl << (fd - 64); \
          fpt = fpl << (fd - 64); \
          fgsh = fgt[(FW)-64:0]; \
          fpsh = fpt[(FW)-64:0]; \
        end \
        fgl = fgl | (fpl & fgsl); \
        fgh = fgh | (fph & fgsh); \
        fpl = fpl & fpsl; \
        fph = fph & fpsh; \
      end \
      NAME = {fgh[(FW)-64], (fxh[(FW)-64:1] ^ fgh[(FW)-65:0]), ((fxl >> 1) | {fxh[0], 63'd0}) ^ fgl}; \
    end \
  endfunction

// `SIMT_STAGE(GN, EN, V, LHS, RHS): the boundary at the end of a valid-enabled stage (docs/simt-fpu.md,
// "Valid-enabled stages"). EN != 0: LHS (a reg, or a concatenation of regs) is a register that loads RHS (the
// call of the stage's function) at a rising edge of clk_i in a cycle in which V is set and holds otherwise;
// EN = 0: the boundary is merged into the next stage (LHS = RHS in an always @* block). GN names the generate
// block. The stage's logic sits inside the always block, so a cycle-based simulator computes it only when V.
`define SIMT_STAGE(GN, EN, V, LHS, RHS) \
  generate \
    if ((EN) != 0) begin : GN \
      always @(posedge clk_i) if (V) LHS <= RHS; \
    end else begin : GN \
      always @* LHS = RHS; \
      wire unused_ok = &{1'b0, V}; \
    end \
  endgenerate

`endif
