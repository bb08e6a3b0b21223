`timescale 1ns/1ps
`default_nettype none
// simt_sfu_reduce: special cases and argument reduction of the SFU (docs/isa.md section 6), bit-exact to
// cmodel/isa/isa_sfu.c. Input: a binary32 operand (modifiers already applied, NOT flushed) and the function.
// Flush to zero: a zero exponent is a special case of every function (spec_o), so the flushed operand only
// appears in the special result (sin of a tiny value returns the flushed operand); the reduction datapaths take
// the significand as it is (its value does not matter when spec_o), which keeps the flush's exponent test and
// multiplexer out of the K * m multiplier's input (the SFU's longest stage).
// Output: either a final special result (spec_o/sres_o), or a "direct" exact result rdir_o * 2^E, or a table
// look-up (ROM address, d) whose value Y is scaled by 2^E (lg2: V = u*2^30 + max(Y, 0), scaled 2^-30).
// Two stages, each ending in an optional register (E1, E2):
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
  // ---------------------------------------------------------------- R1
  wire        s    = a_i[31];
  wire [7:0]  e    = a_i[30:23];
  wire        zero = (e == 8'd0);
  wire        inf  = (e == 8'hff) && (a_i[22:0] == 23'd0);
  wire        nan  = (e == 8'hff) && (a_i[22:0] != 23'd0);
  reg         spec1;
  reg  [31:0] sres1;
  always @* begin
    spec1 = 1'b1;
    sres1 = 32'd0;
    case (fn_i)
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
      F_SIN, F_COS:
             if (nan || inf) sres1 = 32'h7fc00000;
             else if (e < 8'd115) sres1 = (fn_i == F_COS) ? 32'h3f800000 : zero ? {s, 31'd0} : a_i;
             else spec1 = 1'b0;
      default: sres1 = 32'd0;
    endcase
  end
  wire [23:0] m = {1'b1, a_i[22:0]};
  // ex2: |X| = m * 2^(e - 150 + 30) truncated = {m, 13 zeros} >> (133 - e), e <= 133 here
  wire [7:0]  xsh  = 8'd133 - e;
  wire [36:0] xmag = {m, 13'd0} >> xsh;
  // sin/cos: P = m * K (88 bits), in carry-save form here
  wire [87:0] p_s, p_c;   // K * m: 24 partial products of the constant K
  simt_fp_mul_csa #(.WA(64), .WB(24), .W(88)) u_k (.x_i(K), .y_i(m), .sum_o(p_s), .carry_o(p_c));
  // R1 -> R2: the two addends of P (sin/cos) or of X = (s ? ~|X| : |X|) + s (ex2) share one pair of fields;
  // their carry-propagate add is R2's first step (R1, the K * m tree, is the longer stage)
  wire        ex2  = (fn_i == F_EX2);
  wire [87:0] pa1 = ex2 ? {50'd0, s ? ~{1'b0, xmag} : {1'b0, xmag}} : p_s;
  wire [87:0] pb1 = ex2 ? 88'd0 : p_c;

  wire [2:0]  r1_fn;
  wire        r1_spec, r1_s, r1_pci;
  wire [31:0] r1_sres;
  wire [7:0]  r1_e;
  wire [22:0] r1_f;
  wire [87:0] r1_pa, r1_pb;
  simt_fp_pipe #(.W(3 + 1 + 32 + 1 + 8 + 23 + 1 + 88 + 88), .EN(E1)) u_r1 (.clk_i(clk_i), .rst_ni(rst_ni),
    .d_i({fn_i, spec1, sres1, s, e, a_i[22:0], ex2 & s, pa1, pb1}),
    .q_o({r1_fn, r1_spec, r1_sres, r1_s, r1_e, r1_f, r1_pci, r1_pa, r1_pb}));

  // ---------------------------------------------------------------- R2
  // P (sin/cos) or X (ex2, the low 38 bits: mod 2^38 as before)
  wire [87:0] r1_pv;
  wire        pv_co;
  simt_fp_kadd #(.W(88)) u_kcpa (.a_i(r1_pa), .b_i(r1_pb), .ci_i(r1_pci), .s_o(r1_pv), .co_o(pv_co));
  wire signed [8:0] u = $signed({1'b0, r1_e}) - 9'sd127;
  wire        odd  = u[0];
  wire signed [8:0] half = u >>> 1;   // floor(u/2) = (u - odd)/2
  // ex2
  wire [37:0] x2 = r1_pv[37:0];
  wire signed [7:0] n = $signed(x2[37:30]);
  wire [29:0] t = x2[29:0];
  // sin/cos: U = ({P, 70 zeros} >> (254 - e)) mod 2^32; e in 115..254
  wire [157:0] pext = {r1_pv, 70'd0};
  wire [7:0]  ush  = 8'd254 - r1_e;
  wire [157:0] psh = pext >> ush;
  wire [31:0] uu   = psh[31:0];
  wire [1:0]  q    = uu[31:30] + {1'b0, r1_fn == F_COS};
  wire [29:0] v    = uu[29:0];
  wire [8:0]  uabs = u[8] ? (~u + 9'd1) : u;

  reg         dir2, sgn2, lg2_2;
  reg [7:0]   rdir2;
  reg signed [9:0] e2;
  reg [9:0]   addr2;
  reg [22:0]  d2;
  always @* begin
    dir2 = 1'b0;
    rdir2 = 8'd1;
    sgn2 = 1'b0;
    lg2_2 = 1'b0;
    e2 = 10'sd0;
    addr2 = 10'd0;
    d2 = {r1_f[15:0], 7'd0};
    case (r1_fn)
      F_RCP: begin
        sgn2 = r1_s;
        addr2 = {3'd0, r1_f[22:16]};
        if (r1_f == 23'd0) begin dir2 = 1'b1; e2 = -{u[8], u}; end
        else e2 = -{u[8], u} - 10'sd30;
      end
      F_RSQ: begin
        addr2 = 10'd128 + {2'd0, odd, r1_f[22:16]};
        if (r1_f == 23'd0 && !odd) begin dir2 = 1'b1; e2 = -{half[8], half}; end
        else e2 = -{half[8], half} - 10'sd30;
      end
      F_EX2: begin
        addr2 = 10'd384 + {3'd0, t[29:23]};
        d2 = t[22:0];
        if (t == 30'd0) begin dir2 = 1'b1; e2 = {{2{n[7]}}, n}; end
        else e2 = {{2{n[7]}}, n} - 10'sd30;
      end
      F_LG2: begin
        addr2 = 10'd512 + {3'd0, r1_f[22:16]};
        if (r1_f == 23'd0) begin dir2 = 1'b1; rdir2 = uabs[7:0]; sgn2 = u[8]; e2 = 10'sd0; end
        else begin lg2_2 = 1'b1; e2 = -10'sd30; end
      end
      F_SIN, F_COS: begin
        addr2 = (q[0] ? 10'd768 : 10'd640) + {3'd0, v[29:23]};
        d2 = v[22:0];
        sgn2 = q[1] ^ ((r1_fn == F_SIN) & r1_s);
        e2 = -10'sd30;
      end
      default: ;
    endcase
  end
  simt_fp_pipe #(.W(1 + 32 + 1 + 8 + 1 + 10 + 1 + 9 + 10 + 23), .EN(E2)) u_r2 (.clk_i(clk_i), .rst_ni(rst_ni),
    .d_i({r1_spec, r1_sres, dir2, rdir2, sgn2, e2, lg2_2, u, addr2, d2}),
    .q_o({spec_o, sres_o, direct_o, rdir_o, sign_o, e_o, lg2_o, u_o, addr_o, d_o}));
  wire unused_ok = &{1'b0, psh[157:32], uabs[8], r1_pv[87:38], pv_co};
endmodule
`default_nettype wire
