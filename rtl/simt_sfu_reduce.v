`timescale 1ns/1ps
`default_nettype none
`include "simt_fp_fn.vh"
// simt_sfu_reduce: special cases and argument reduction of the SFU (docs/isa.md section 6), bit-exact to
// cmodel/isa/isa_sfu.c. Input: a binary32 operand (modifiers already applied, NOT flushed) and the function.
// Flush to zero: a zero exponent is a special case of every function (spec_o), so the flushed operand only
// appears in the special result (sin of a tiny value returns the flushed operand); the reduction datapaths take
// the significand as it is (its value does not matter when spec_o), which keeps the flush's exponent test and
// multiplexer out of the K * m multiplier's input (the SFU's longest stage).
// Output: either a final special result (spec_o/sres_o), or a "direct" exact result rdir_o * 2^E, or a table
// look-up (ROM address, d) whose value Y is scaled by 2^E (lg2: V = u*2^30 + max(Y, 0), scaled 2^-30).
// Two stages, each ending in an optional register (E1, E2) that loads only when its enable is set (v1_i, v2_i:
// the stage carries a valid operation; the data is held otherwise). Each stage's logic is a function called
// inside the register's always block, so that a cycle-based simulator computes it only in those cycles
// (docs/simt-fpu.md, "Valid-enabled stages"; the multiplier and adder are simt_fp_fn.vh's functions):
//   R1  classify; special results; ex2: X = a*2^30 truncated toward zero (shift; negation as ~|X| + 1);
//       sin/cos: P = M * K, K = round(2^65/pi) (CSA tree of 24 partial products of K: sum and carry rows)
//   R2  the carry-propagate add of R1's two rows (P, or X with the + 1); then sin/cos: U = (P >> (57-u)) mod 2^32 (one right shift of P*2^70 by 254-e), quadrant, table;
//       ex2: n = floor(X / 2^30), t = X mod 2^30; every function: ROM address, d, exponent, sign
module simt_sfu_reduce #(
  parameter integer E1 = 1,
  parameter integer E2 = 1
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        v1_i,      // load the R1 register (a valid operation at the input)
  input  wire        v2_i,      // load the R2 register (a valid operation in R1)
  input  wire [2:0]  fn_i,      // 0 rcp, 1 rsq, 2 ex2, 3 lg2, 4 sin, 5 cos (others: result 0)
  input  wire [31:0] a_i,
  output wire        spec_o,    // sres_o is the result
  output wire [31:0] sres_o,
  output wire        direct_o,  // the result is rdir_o * 2^e_o with sign_o (exact)
  output wire [7:0]  rdir_o,
  output wire        sign_o,
  output wire signed [9:0] e_o, // exponent of the lsb of the magnitude (direct or table value)
  output wire        lg2_o,     // table value V = u*2^30 + max(Y,0) (lg2), sign from V
  output wire signed [8:0] u_o, // lg2: unbiased exponent
  output wire [9:0]  addr_o,
  output wire [22:0] d_o
);
  localparam [2:0] F_RCP = 3'd0, F_RSQ = 3'd1, F_EX2 = 3'd2, F_LG2 = 3'd3, F_SIN = 3'd4, F_COS = 3'd5;
  localparam [63:0] K = 64'ha2f9836e4e44152a;
  // the functions' locals include bits a stage drops (carry-outs, low product bits, the shifted-out part of P):
  // the same bits the former cells' unused_ok lists named
  // verilator lint_off UNUSEDSIGNAL
  `SIMT_FN_CSA2(csa_k, 64, 24, 88, 0)  // P = K * m in carry-save form (simt_fp_mul_csa #(64, 24, 88))
  `SIMT_FN_KADD2(add88, 88)            // R2's carry-propagate add (simt_fp_kadd #(88))
  localparam integer W1 = 3 + 1 + 32 + 1 + 8 + 23 + 1 + 88 + 88;
  localparam integer W2 = 1 + 32 + 1 + 8 + 1 + 10 + 1 + 9 + 10 + 23;

  // ---------------------------------------------------------------- R1
  // {fn, spec, sres, s, e, f, X's + 1 (ex2 & s), the two addends of P or X}
  function automatic [W1-1:0] stage_r1(input [2:0] fnc, input [31:0] a);
    reg        s, zero, inf, nan, spec1, ex2;
    reg [7:0]  e, xsh;
    reg [31:0] sres1;
    reg [23:0] m;
    reg [36:0] xmag;
    reg [175:0] p;
    reg [87:0] pa1, pb1;
    begin
      s    = a[31];
      e    = a[30:23];
      zero = (e == 8'd0);
      inf  = (e == 8'hff) && (a[22:0] == 23'd0);
      nan  = (e == 8'hff) && (a[22:0] != 23'd0);
      spec1 = 1'b1;
      sres1 = 32'd0;
      case (fnc)
        F_RCP: if (nan) sres1 = 32'h7fc00000;
               else if (zero) sres1 = {s, 31'h7f800000};
               else if (inf) sres1 = {s, 31'd0};
               else spec1 = 1'b0;
        F_RSQ: if (nan) sres1 = 32'h7fc00000;
               else if (zero) sres1 = {s, 31'h7f800000};
               else if (s) sres1 = 32'h7fc00000;
               else if (inf) sres1 = 32'd0;
               else spec1 = 1'b0;
        F_EX2: if (nan) sres1 = 32'h7fc00000;
               else if (inf) sres1 = s ? 32'd0 : 32'h7f800000;
               else if (zero) sres1 = 32'h3f800000;
               else if (e >= 8'd134) sres1 = s ? 32'd0 : 32'h7f800000;
               else spec1 = 1'b0;
        F_LG2: if (nan) sres1 = 32'h7fc00000;
               else if (zero) sres1 = 32'hff800000;
               else if (s) sres1 = 32'h7fc00000;
               else if (inf) sres1 = 32'h7f800000;
               else spec1 = 1'b0;
        // F_SIN, F_COS, the only other codes a valid operation carries (simt_sfu's code 7, "not an SFU op",
        // also lands here: its result is forced to 0 by simt_sfu_pack's zero_i); a default of its own could
        // never be reached (docs/simt.md section 7)
        default:
               if (nan || inf) sres1 = 32'h7fc00000;
               else if (e < 8'd115) sres1 = (fnc == F_COS) ? 32'h3f800000 : zero ? {s, 31'd0} : a;
               else spec1 = 1'b0;
      endcase
      m = {1'b1, a[22:0]};
      // ex2: |X| = m * 2^(e - 150 + 30) truncated = {m, 13 zeros} >> (133 - e), e <= 133 here
      xsh  = 8'd133 - e;
      xmag = {m, 13'd0} >> xsh;
      // sin/cos: P = m * K (88 bits), in carry-save form here
      p = csa_k(K, m);
      // R1 -> R2: the two addends of P (sin/cos) or of X = (s ? ~|X| : |X|) + s (ex2) share one pair of
      // fields; their carry-propagate add is R2's first step (R1, the K * m tree, is the longer stage)
      ex2 = (fnc == F_EX2);
      pa1 = ex2 ? {50'd0, s ? ~{1'b0, xmag} : {1'b0, xmag}} : p[87:0];
      pb1 = ex2 ? 88'd0 : p[175:88];
      stage_r1 = {fnc, spec1, sres1, s, e, a[22:0], ex2 & s, pa1, pb1};
    end
  endfunction

  reg [2:0]  r1_fn;
  reg        r1_spec, r1_s, r1_pci;
  reg [31:0] r1_sres;
  reg [7:0]  r1_e;
  reg [22:0] r1_f;
  reg [87:0] r1_pa, r1_pb;
  generate
    if (E1 != 0) begin : g_r1
      always @(posedge clk_i) if (v1_i) {r1_fn, r1_spec, r1_sres, r1_s, r1_e, r1_f, r1_pci, r1_pa, r1_pb} <= stage_r1(fn_i, a_i);
    end else begin : g_w1
      always @* {r1_fn, r1_spec, r1_sres, r1_s, r1_e, r1_f, r1_pci, r1_pa, r1_pb} = stage_r1(fn_i, a_i);
      wire unused_ok = &{1'b0, v1_i};
    end
  endgenerate

  // ---------------------------------------------------------------- R2
  function automatic [W2-1:0] stage_r2(input [2:0] fnc, input spec, input [31:0] sres, input sa, input [7:0] ea,
                                        input [22:0] f, input pci, input [87:0] pa, input [87:0] pb);
    reg [88:0]  pv;          // {carry out, P (sin/cos) or X (ex2, the low 38 bits: mod 2^38)}
    reg signed [8:0] u, half;
    reg         odd;
    reg [37:0]  x2;
    reg signed [7:0] n;
    reg [29:0]  t, v;
    reg [157:0] psh;
    reg [7:0]   ush;
    reg [31:0]  uu;
    reg [1:0]   q;
    reg [8:0]   uabs;
    reg         dir, sgn2, lg2v;
    reg [7:0]   rdir;
    reg signed [9:0] ex;
    reg [9:0]   addr;
    reg [22:0]  dv;
    begin
      pv   = add88(pa, pb, pci);
      u    = $signed({1'b0, ea}) - 9'sd127;
      odd  = u[0];
      half = u >>> 1;   // floor(u/2) = (u - odd)/2
      // ex2
      x2 = pv[37:0];
      n  = $signed(x2[37:30]);
      t  = x2[29:0];
      // sin/cos: U = ({P, 70 zeros} >> (254 - e)) mod 2^32; e in 115..254
      ush  = 8'd254 - ea;
      psh  = {pv[87:0], 70'd0} >> ush;
      uu   = psh[31:0];
      q    = uu[31:30] + {1'b0, fnc == F_COS};
      v    = uu[29:0];
      uabs = u[8] ? (~u + 9'd1) : u;
      dir = 1'b0;
      rdir = 8'd1;
      sgn2 = 1'b0;
      lg2v = 1'b0;
      ex = 10'sd0;
      addr = 10'd0;
      dv = {f[15:0], 7'd0};
      case (fnc)
        F_RCP: begin
          sgn2 = sa;
          addr = {3'd0, f[22:16]};
          if (f == 23'd0) begin
            dir = 1'b1;
            ex = -{u[8], u};
          end else begin
            ex = -{u[8], u} - 10'sd30;
          end
        end
        F_RSQ: begin
          addr = 10'd128 + {2'd0, odd, f[22:16]};
          if (f == 23'd0 && !odd) begin
            dir = 1'b1;
            ex = -{half[8], half};
          end else begin
            ex = -{half[8], half} - 10'sd30;
          end
        end
        F_EX2: begin
          addr = 10'd384 + {3'd0, t[29:23]};
          dv = t[22:0];
          if (t == 30'd0) begin
            dir = 1'b1;
            ex = {{2{n[7]}}, n};
          end else begin
            ex = {{2{n[7]}}, n} - 10'sd30;
          end
        end
        F_LG2: begin
          addr = 10'd512 + {3'd0, f[22:16]};
          if (f == 23'd0) begin
            dir = 1'b1;
            rdir = uabs[7:0];
            sgn2 = u[8];
            ex = 10'sd0;
          end else begin
            lg2v = 1'b1;
            ex = -10'sd30;
          end
        end
        default: begin   // F_SIN, F_COS (and code 7, whose result is forced to 0; see R1)
          addr = (q[0] ? 10'd768 : 10'd640) + {3'd0, v[29:23]};
          dv = v[22:0];
          sgn2 = q[1] ^ ((fnc == F_SIN) & sa);
          ex = -10'sd30;
        end
      endcase
      stage_r2 = {spec, sres, dir, rdir, sgn2, ex, lg2v, u, addr, dv};
    end
  endfunction
  // verilator lint_on UNUSEDSIGNAL

  reg         spec_q, dir_q, sign_q, lg2_q;
  reg [31:0]  sres_q;
  reg [7:0]   rdir_q;
  reg [9:0]   e_q;
  reg [8:0]   u_q;
  reg [9:0]   addr_q;
  reg [22:0]  d_q;
  generate
    if (E2 != 0) begin : g_r2
      always @(posedge clk_i)
        if (v2_i) {spec_q, sres_q, dir_q, rdir_q, sign_q, e_q, lg2_q, u_q, addr_q, d_q} <=
                  stage_r2(r1_fn, r1_spec, r1_sres, r1_s, r1_e, r1_f, r1_pci, r1_pa, r1_pb);
    end else begin : g_w2
      always @* {spec_q, sres_q, dir_q, rdir_q, sign_q, e_q, lg2_q, u_q, addr_q, d_q} =
                stage_r2(r1_fn, r1_spec, r1_sres, r1_s, r1_e, r1_f, r1_pci, r1_pa, r1_pb);
      wire unused_ok = &{1'b0, v2_i};
    end
  endgenerate
  assign spec_o = spec_q;
  assign sres_o = sres_q;
  assign direct_o = dir_q;
  assign rdir_o = rdir_q;
  assign sign_o = sign_q;
  assign e_o = $signed(e_q);
  assign lg2_o = lg2_q;
  assign u_o = $signed(u_q);
  assign addr_o = addr_q;
  assign d_o = d_q;
  wire unused_ok = &{1'b0, clk_i, rst_ni};
endmodule
`default_nettype wire
