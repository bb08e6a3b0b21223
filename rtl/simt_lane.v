// SIMT core: one lane (SP). Holds the lane's register-file bank (three synchronous read ports as three
// copies, one write port), its slices of the attribute, special-register, local and output memories and a
// copy of the constant bank, the integer ALU, the two-stage integer multiplier and one simt_fpu.
// Thread t of warp w lives in lane t % LANES, row t / LANES; every per-thread memory is indexed
// {w, row, word} (docs/simt.md).
//   S0: register-file and special-register read addresses (from the core)   -> data in S1
//   S1: operands from the register bank; memory addresses (ld data in P[1], merged into P[2]); stores write
//       at the end of S1; simt_fpu starts (result FPU_LAT later); the operands of the integer ALU/multiplier
//       (B already selected for mov/s2r/sel/predicate ops) and the lane's own decoded ALU control are registered
//   P[1]: integer ALU on the registered operands (int_o, merged into P[2]); multiplier carry-save tree
//   P[2]: multiplier carry-propagate add (imul_o, merged into P[3], or written back when D = 2)
// The operand registers give the register-bank read (an SRAM macro) most of the S1 cycle: from the bank's
// outputs only the rz/immediate/select multiplexers stand before a register, the FPU's input register or the
// memories (docs/simt.md sections 1 and 6). No cycle of the core changes: the integer result is written back
// at P[D] (D >= 2) as before.
`timescale 1ns / 1ps
`default_nettype none
`include "isa_defs.vh"
`include "simt_fp_fn.vh"

module simt_lane #(
    parameter integer LANE = 0,
    parameter integer LANES = 8,
    parameter integer RAW = 7,        // row-address width: {warp, row}
    parameter integer RDEPTH = 128,   // rows: WARPS * 32 / LANES
    parameter integer FPU_LAT = 4,
    // reduced configurations (synthesis for small FPGAs, docs/simt.md): per-thread words actually stored; an
    // address is taken modulo the size, so programs must stay below it (the ISA has 64 / 64 / 256)
    parameter integer RF_WORDS = 64,     // registers per thread (r63 = rz is never stored): 2..64, power of 2
    parameter integer MEM_WORDS = 64,    // attribute, local and output words per thread: 2..64, power of 2
    parameter integer CONST_WORDS = 256, // constant bank words: 2..256, power of 2
    parameter integer FPU_AREA = 0,      // simt_fpu AREA: 1 = area-reduced FPU (small FPGAs), same results
    parameter integer SR_MERGE = 0,      // 1: %vertex and %prim in one RAM of 2 x RDEPTH words (one block RAM
                                         // pair fewer on an FPGA), read at {sr_sel_i, row}; same values
    parameter integer IMUL_PASSES = 1,   // 4, 8, 16: imul as P passes (beats of minor 0..P-1) through a
                                         // 32 x (32/P) array
    parameter integer FPU_PASSES = 1,    // 4: the FPU's significand product in 4 passes (simt_fpu PASSES)
    parameter integer MINW = 2,          // width of the beat's minor (the core's: 2, or log2(IMUL_PASSES) > 2)
    parameter integer INT_AREA = 0,      // 1: integer ALU for small FPGAs: ripple adder (carry chain), one shared
                                         // shifter for shl/shr/sra, equality from the difference; same results
    parameter integer RAM_RW_ANY = 0     // simt_ram RW_ANY of every memory but the output memory (its host read
                                         // port may read a word a store writes): no FPGA collision logic
) (
    input  wire            clk_i,
    input  wire            rst_ni,
    // host side (only while the core is idle)
    input  wire            host_attr_we_i,   // attribute word (also zeroes registers/local/output word)
    input  wire            host_sr_we_i,     // special register word (vertex, prim)
    input  wire            host_sr_sel_i,    // 0 vertex, 1 prim
    input  wire [RAW-1:0]  host_row_i,
    input  wire [5:0]      host_word_i,
    input  wire [31:0]     host_data_i,
    input  wire            const_we_i,
    input  wire [7:0]      const_addr_i,
    input  wire [31:0]     const_data_i,
    input  wire [RAW+5:0]  out_raddr_i,
    output wire [31:0]     out_rdata_o,
    // S0: read addresses
    input  wire [RAW+5:0]  rf_raddr_a_i,
    input  wire [RAW+5:0]  rf_raddr_b_i,
    input  wire [RAW+5:0]  rf_raddr_c_i,
    input  wire [RAW-1:0]  sr_raddr_i,
    // verilator lint_off UNUSEDSIGNAL
    input  wire            sr_sel_i,         // S0: the beat's s2r reads %prim (used with SR_MERGE only)
    // verilator lint_on UNUSEDSIGNAL
    // S1: the beat
    // verilator lint_off UNUSEDSIGNAL
    input  wire [63:0]     s1_insn_i,
    // verilator lint_on UNUSEDSIGNAL
    input  wire [RAW-1:0]  s1_rowaddr_i,     // {warp, row} of the beat
    input  wire [4:0]      s1_row_i,
    // verilator lint_off UNUSEDSIGNAL
    input  wire [MINW-1:0] s1_minor_i,       // the beat's minor (imul/FPU pass with IMUL_/FPU_PASSES > 1)
    // verilator lint_on UNUSEDSIGNAL
    input  wire [31:0]     s1_wid_i,
    input  wire            s1_fpu_i,         // FPU class beat (valid into simt_fpu)
    input  wire            s1_ex_i,          // this lane executes (guard passed, enabled)
    input  wire            s1_pa_i,          // predicate source bits (pt already 1)
    input  wire            s1_pb_i,
    output wire [31:0]     opa_o,            // S1 operand A (rz = 0)
    output wire [31:0]     opb_o,            // S1 register operand B / tex T (rz = 0)
    output reg  [31:0]     int_o,            // P[1] integer ALU / s2r / predicate result
    output wire [5:0]      st_addr_o,        // S1 store word address
    // P[1]
    output reg  [31:0]     ld_o,
    // P[2]
    output wire [31:0]     imul_o,
    // FPU (FPU_LAT after S1)
    output wire [31:0]     fpu_res_o,
    output wire            fpu_pred_o,
    // write-back
    input  wire            rf_we_i,
    input  wire [RAW+5:0]  rf_waddr_i,
    input  wire [31:0]     rf_wdata_i
);
    localparam integer RB = $clog2(RF_WORDS);
    localparam integer MB = $clog2(MEM_WORDS);
    localparam integer CB = $clog2(CONST_WORDS);
    localparam integer RFAW = RAW + RB;          // register bank address {row, register}
    localparam integer AW = RAW + MB;            // attribute/local/output address {row, word}
    localparam integer RFDEPTH = RDEPTH * RF_WORDS;
    localparam integer DEPTH = RDEPTH * MEM_WORDS;
    // verilator lint_off UNUSEDSIGNAL
    function [RFAW-1:0] rf_addr(input [RAW+5:0] x);   // {row, 6-bit register} -> bank address
        rf_addr = {x[RAW+5:6], x[RB-1:0]};
    endfunction
    function [AW-1:0] mwa(input [RAW+5:0] x);     // {row, 6-bit word} -> memory address
        mwa = {x[RAW+5:6], x[MB-1:0]};
    endfunction
    // verilator lint_on UNUSEDSIGNAL

    // ---------------------------------------------------------------- instruction fields
    wire [6:0]  op  = s1_insn_i[`ISA_F_OP_HI:`ISA_F_OP_LO];
    wire [5:0]  ra  = s1_insn_i[`ISA_F_RA_HI:`ISA_F_RA_LO];
    wire [5:0]  rb  = s1_insn_i[`ISA_F_RB_HI:`ISA_F_RB_LO];
    wire [5:0]  rc  = s1_insn_i[`ISA_F_RC_HI:`ISA_F_RC_LO];
    wire        bi  = s1_insn_i[`ISA_F_BI_HI];
    wire [3:0]  cc  = s1_insn_i[`ISA_F_CC_HI:`ISA_F_CC_LO];
    wire [31:0] imm = s1_insn_i[`ISA_F_IMM_HI:`ISA_F_IMM_LO];
    wire [15:0] ofs = s1_insn_i[`ISA_F_OFS_HI:`ISA_F_OFS_LO];
    wire        na  = s1_insn_i[`ISA_F_NA_HI];
    wire        aa  = s1_insn_i[`ISA_F_AA_HI];
    wire        nb  = s1_insn_i[`ISA_F_NB_HI];
    wire        nc  = s1_insn_i[`ISA_F_NC_HI];
    wire        is_tex = op == `ISA_OP_TEX;

    // ---------------------------------------------------------------- register-file bank (3R1W)
    wire [31:0] rfa_d, rfb, rfc;
    simt_ram #(.DW(32), .DEPTH(RFDEPTH), .AW(RFAW), .RW_ANY(RAM_RW_ANY)) u_rf_a (.clk_i(clk_i), .we_i(rf_we_i),
        .waddr_i(rf_addr(rf_waddr_i)), .wdata_i(rf_wdata_i), .raddr_i(rf_addr(rf_raddr_a_i)), .rdata_o(rfa_d));
    simt_ram #(.DW(32), .DEPTH(RFDEPTH), .AW(RFAW), .RW_ANY(RAM_RW_ANY)) u_rf_b (.clk_i(clk_i), .we_i(rf_we_i),
        .waddr_i(rf_addr(rf_waddr_i)), .wdata_i(rf_wdata_i), .raddr_i(rf_addr(rf_raddr_b_i)), .rdata_o(rfb));
    simt_ram #(.DW(32), .DEPTH(RFDEPTH), .AW(RFAW), .RW_ANY(RAM_RW_ANY)) u_rf_c (.clk_i(clk_i), .we_i(rf_we_i),
        .waddr_i(rf_addr(rf_waddr_i)), .wdata_i(rf_wdata_i), .raddr_i(rf_addr(rf_raddr_c_i)), .rdata_o(rfc));

    wire [5:0]  rbp = is_tex ? ra + 6'd1 : rb;
    wire [31:0] a   = (ra == 6'd63) ? 32'd0 : rfa_d;
    wire [31:0] rbv = (rbp == 6'd63) ? 32'd0 : rfb;
    wire [31:0] c   = (rc == 6'd63) ? 32'd0 : rfc;
    wire [31:0] b   = bi ? imm : rbv;
    assign opa_o = a;
    assign opb_o = rbv;

    // ---------------------------------------------------------------- special registers (vertex, prim)
    wire [63:0] srd;
    generate
        if (SR_MERGE == 0) begin : g_sr2
            simt_ram #(.DW(32), .DEPTH(RDEPTH), .AW(RAW), .RW_ANY(RAM_RW_ANY)) u_srv (.clk_i(clk_i), .we_i(host_sr_we_i && !host_sr_sel_i),
                .waddr_i(host_row_i), .wdata_i(host_data_i), .raddr_i(sr_raddr_i), .rdata_o(srd[31:0]));
            simt_ram #(.DW(32), .DEPTH(RDEPTH), .AW(RAW), .RW_ANY(RAM_RW_ANY)) u_srp (.clk_i(clk_i), .we_i(host_sr_we_i && host_sr_sel_i),
                .waddr_i(host_row_i), .wdata_i(host_data_i), .raddr_i(sr_raddr_i), .rdata_o(srd[63:32]));
        end else begin : g_sr1   // one RAM {%prim?, row}: the word the S1 beat's s2r selects is the one read
            wire [31:0] sr1;
            simt_ram #(.DW(32), .DEPTH(2 * RDEPTH), .AW(RAW + 1), .RW_ANY(RAM_RW_ANY)) u_sr (.clk_i(clk_i), .we_i(host_sr_we_i),
                .waddr_i({host_sr_sel_i, host_row_i}), .wdata_i(host_data_i), .raddr_i({sr_sel_i, sr_raddr_i}),
                .rdata_o(sr1));
            assign srd = {sr1, sr1};
        end
    endgenerate

    // ---------------------------------------------------------------- memories addressed in S1
    wire [31:0] ea = a + {16'd0, ofs};
    wire [AW-1:0] maddr = {s1_rowaddr_i, ea[MB-1:0]};
    wire [AW-1:0] haddr = mwa({host_row_i, host_word_i});
    assign st_addr_o = ea[5:0];
    wire st_l = op == `ISA_OP_ST_L && s1_ex_i;
    wire st_o = op == `ISA_OP_ST_O && s1_ex_i;
    wire [31:0] attr_rd, local_rd, const_rd;
    simt_ram #(.DW(32), .DEPTH(DEPTH), .AW(AW), .RW_ANY(RAM_RW_ANY)) u_attr (.clk_i(clk_i), .we_i(host_attr_we_i),
        .waddr_i(haddr), .wdata_i(host_data_i), .raddr_i(maddr), .rdata_o(attr_rd));
    simt_ram #(.DW(32), .DEPTH(DEPTH), .AW(AW), .RW_ANY(RAM_RW_ANY)) u_local (.clk_i(clk_i), .we_i(host_attr_we_i || st_l),
        .waddr_i(host_attr_we_i ? haddr : maddr), .wdata_i(host_attr_we_i ? 32'd0 : rbv), .raddr_i(maddr),
        .rdata_o(local_rd));
    simt_ram #(.DW(32), .DEPTH(DEPTH), .AW(AW)) u_out (.clk_i(clk_i), .we_i(host_attr_we_i || st_o),
        .waddr_i(host_attr_we_i ? haddr : maddr), .wdata_i(host_attr_we_i ? 32'd0 : rbv),
        .raddr_i(mwa(out_raddr_i)), .rdata_o(out_rdata_o));
    simt_ram #(.DW(32), .DEPTH(CONST_WORDS), .AW(CB), .RW_ANY(RAM_RW_ANY)) u_const (.clk_i(clk_i), .we_i(const_we_i),
        .waddr_i(const_addr_i[CB-1:0]), .wdata_i(const_data_i), .raddr_i(ea[CB-1:0]), .rdata_o(const_rd));

    reg [1:0] ld_sel_q;   // P[1]: which memory the load read
    always @(posedge clk_i) ld_sel_q <= op[1:0];   // ld.a 0x40, ld.c 0x41, ld.l 0x42
    always @(*) begin
        case (ld_sel_q)
            2'd0: ld_o = attr_rd;
            2'd1: ld_o = const_rd;
            default: ld_o = local_rd;
        endcase
    end

    // ---------------------------------------------------------------- integer ALU: operand registers (S1)
    // B of the ALU: the operand for arithmetic, logic, shifts, compares and imul; the result itself for the
    // pass-through ops (mov, s2r, sel, pand/por/pxor), so that P[1] only muxes it through.
    wire [4:0]  lane_no = s1_row_i * LANES[4:0] + LANE[4:0];
    wire        pa = s1_pa_i ^ na;
    wire        pb = s1_pb_i ^ nb;
    reg  [31:0] s2r_v, xb_d;
    always @(*) begin
        case (ofs)
            16'd`ISA_SR_LANE:   s2r_v = {27'd0, lane_no};
            16'd`ISA_SR_WARP:   s2r_v = s1_wid_i;
            16'd`ISA_SR_TID:    s2r_v = {s1_wid_i[26:0], lane_no};
            16'd`ISA_SR_VERTEX: s2r_v = srd[31:0];
            16'd`ISA_SR_PRIM:   s2r_v = srd[63:32];
            default:           s2r_v = 32'd0;
        endcase
        case (op)
            `ISA_OP_S2R:  xb_d = s2r_v;
            `ISA_OP_SEL:  xb_d = (s1_pa_i ^ nc) ? a : b;
            `ISA_OP_PAND: xb_d = {31'd0, pa & pb};
            `ISA_OP_POR:  xb_d = {31'd0, pa | pb};
            `ISA_OP_PXOR: xb_d = {31'd0, pa ^ pb};
            default:      xb_d = b;
        endcase
    end
    // the lane's own copy of the ALU control (one-hot function, decoded from s1_insn_i in S1)
    localparam integer F_PASS = 0, F_ADD = 1, F_AND = 2, F_OR = 3, F_XOR = 4, F_SHL = 5, F_SHR = 6, F_SRA = 7,
                       F_MIN = 8, F_MAX = 9, F_SETP = 10, NF = 11;
    reg  [NF-1:0] fn_d;
    always @(*) begin
        fn_d = {NF{1'b0}};
        case (op)
            `ISA_OP_MOV, `ISA_OP_S2R, `ISA_OP_SEL, `ISA_OP_PAND, `ISA_OP_POR, `ISA_OP_PXOR: fn_d[F_PASS] = 1'b1;
            `ISA_OP_IADD, `ISA_OP_ISUB: fn_d[F_ADD] = 1'b1;
            `ISA_OP_AND:  fn_d[F_AND] = 1'b1;
            `ISA_OP_OR:   fn_d[F_OR] = 1'b1;
            `ISA_OP_XOR:  fn_d[F_XOR] = 1'b1;
            `ISA_OP_SHL:  fn_d[F_SHL] = 1'b1;
            `ISA_OP_SHR:  fn_d[F_SHR] = 1'b1;
            `ISA_OP_SRA:  fn_d[F_SRA] = 1'b1;
            `ISA_OP_IMIN: fn_d[F_MIN] = 1'b1;
            `ISA_OP_IMAX: fn_d[F_MAX] = 1'b1;
            `ISA_OP_ISETP, `ISA_OP_USETP: fn_d[F_SETP] = 1'b1;
            default: ;
        endcase
    end
    reg  [31:0]   xa_q, xb_q;
    reg  [NF-1:0] fn_q;
    reg  [3:0]    cc_q;
    reg           sub_q, uns_q;
    always @(posedge clk_i) begin
        xa_q <= a;
        xb_q <= xb_d;
        fn_q <= fn_d;
        cc_q <= cc;
        sub_q <= op != `ISA_OP_IADD;   // a - b: isub and the compares (min, max, setp)
        uns_q <= op == `ISA_OP_USETP;
    end

    // ---------------------------------------------------------------- integer ALU (P[1])
    // one prefix adder for add, sub and the magnitude compares: a + ~b + 1 = a - b, carry out = (a >= b unsigned)
    wire [31:0] sum;
    wire        co;
    simt_fp_kadd #(.W(32), .RIPPLE(INT_AREA)) u_add (.a_i(xa_q), .b_i(sub_q ? ~xb_q : xb_q), .ci_i(sub_q), .s_o(sum),
        .co_o(co));
    // shl, shr, sra: three shifters (default), or one right shifter with the operand and the result bit-reversed
    // for shl and the sign as the fill bit for sra (INT_AREA)
    wire [31:0] shl_v, shr_v, sra_v;
    wire        eq;
    generate
      if (INT_AREA == 0) begin : g_sh3
        assign eq = xa_q == xb_q;
        assign shl_v = xa_q << xb_q[4:0];
        assign shr_v = xa_q >> xb_q[4:0];
        assign sra_v = $unsigned($signed(xa_q) >>> xb_q[4:0]);
      end else begin : g_sh1
        assign eq = sum == 32'd0;   // the compares (imin, imax, isetp, usetp) subtract: a - b = 0 iff a = b
        wire [31:0] xa_rev, sh_rev;
        wire [32:0] sh_r;
        genvar gi;
        for (gi = 0; gi < 32; gi = gi + 1) begin : g_rev
            assign xa_rev[gi] = xa_q[31 - gi];
            assign sh_rev[gi] = sh_r[31 - gi];
        end
        wire [31:0] sh_in = fn_q[F_SHL] ? xa_rev : xa_q;
        wire [32:0] sh_x = {fn_q[F_SRA] & xa_q[31], sh_in};
        assign sh_r = $unsigned($signed(sh_x) >>> xb_q[4:0]);
        assign shr_v = sh_r[31:0];
        assign sra_v = sh_r[31:0];
        assign shl_v = sh_rev;
        // verilator lint_off UNUSEDSIGNAL
        wire unused_sh = sh_r[32];
        // verilator lint_on UNUSEDSIGNAL
      end
    endgenerate
    wire        lt_u = !co;
    wire        lt_s = (xa_q[31] ^ xb_q[31]) ? xa_q[31] : sum[31];
    wire        lt = uns_q ? lt_u : lt_s;
    wire [3:0]  rel = lt ? `ISA_CC_L : eq ? `ISA_CC_E : `ISA_CC_G;
    wire [31:0] sel_a = {32{(fn_q[F_MIN] && lt_s) || (fn_q[F_MAX] && !lt_s && !eq)}};
    always @(*) begin
        int_o = ({32{fn_q[F_PASS]}} & xb_q)
              | ({32{fn_q[F_ADD]}} & sum)
              | ({32{fn_q[F_AND]}} & (xa_q & xb_q))
              | ({32{fn_q[F_OR]}} & (xa_q | xb_q))
              | ({32{fn_q[F_XOR]}} & (xa_q ^ xb_q))
              | ({32{fn_q[F_SHL]}} & shl_v)
              | ({32{fn_q[F_SHR]}} & shr_v)
              | ({32{fn_q[F_SRA]}} & sra_v)
              | ({32{fn_q[F_MIN] || fn_q[F_MAX]}} & ((sel_a & xa_q) | (~sel_a & xb_q)))
              | {31'd0, fn_q[F_SETP] && (cc_q & rel) != 4'd0};
    end

    // ---------------------------------------------------------------- multiplier (low 32 bits of a * b)
    generate
      if (IMUL_PASSES == 1) begin : g_imul1
    // P[1]: carry-save trees of the registered operands, a * b[15:0] (16 rows) and a[15:0] * b[31:16] mod 2^16
    // (16 rows, weight 2^16); P[2]: the four rows summed (two 3:2 levels and a prefix adder).
    // Valid-enabled stage (docs/simt-fpu.md, "Valid-enabled stages"; docs/simt.md section 6): the P[1] -> P[2]
    // register loads only when P[1] carries an imul beat (mul_v_q: the S1 op was imul), and the two trees are
    // functions called inside its always block (simt_fp_fn.vh: the gates of simt_fp_mul_csa #(32,16,33) and
    // #(16,16,17)), so that a cycle-based simulator computes them only in those cycles. imul_o is read only at
    // P[2] of an imul beat (simt_core's merge), where the register holds exactly that beat's rows.
    // the functions' locals include bits the stage drops (bit 32/16 of the rows: taken mod 2^33 / 2^17,
    // simt_fp_mul_csa needs x narrower than the rows)
    // verilator lint_off UNUSEDSIGNAL
    `SIMT_FN_CSA(mul_lo, 32, 16, 33, 0)
    `SIMT_FN_CSA(mul_hi, 16, 16, 17, 0)
    function automatic [95:0] stage_m1(input [31:0] x, input [31:0] y);
        reg [65:0] lo;
        reg [33:0] hi;
        begin
            lo = mul_lo(x, y[15:0]);
            hi = mul_hi(x[15:0], y[31:16]);
            stage_m1 = {lo[33 +: 32], lo[31:0], hi[17 +: 16], hi[15:0]};   // {ml_c, ml_s, mh_c, mh_s}
        end
    endfunction
    // verilator lint_on UNUSEDSIGNAL
    reg         mul_v_q;   // P[1] carries an imul beat (no reset: it only enables data registers)
    always @(posedge clk_i) mul_v_q <= op == `ISA_OP_IMUL;
    reg  [31:0] ml_s_q, ml_c_q;
    reg  [15:0] mh_s_q, mh_c_q;
    always @(posedge clk_i) if (mul_v_q) {ml_c_q, ml_s_q, mh_c_q, mh_s_q} <= stage_m1(xa_q, xb_q);
    wire [31:0] m1_s = ml_s_q ^ ml_c_q ^ {mh_s_q, 16'd0};
    wire [31:0] m1_c = {((ml_s_q[30:0] & ml_c_q[30:0]) | ((ml_s_q[30:0] | ml_c_q[30:0]) & {mh_s_q[14:0], 16'd0})), 1'b0};
    wire [31:0] m2_s = m1_s ^ m1_c ^ {mh_c_q, 16'd0};
    wire [31:0] m2_c = {((m1_s[30:0] & m1_c[30:0]) | ((m1_s[30:0] | m1_c[30:0]) & {mh_c_q[14:0], 16'd0})), 1'b0};
    wire        m_co;
    simt_fp_kadd #(.W(32)) u_madd (.a_i(m2_s), .b_i(m2_c), .ci_i(1'b0), .s_o(imul_o), .co_o(m_co));
    // verilator lint_off UNUSEDSIGNAL
    wire unused_m = &{1'b0, m_co};
    // verilator lint_on UNUSEDSIGNAL
      end else begin : g_imul4
    // P = IMUL_PASSES passes (small FPGAs): the core repeats every imul beat P times (minor 0..P-1, consecutive
    // cycles, the same operands); pass m, at P[1], adds a * b[31-CW*m:32-CW*(m+1)] (CW = 32/P bits) to the partial
    // product shifted left by CW (Horner order, most significant chunk first: no variable shifter on the sum), so
    // that after the last pass the register holds a * b mod 2^32. Only the last pass's beat is enabled (writes);
    // its P[2] reads the register.
    localparam integer CW = 32 / IMUL_PASSES;
    reg  [MINW-1:0] mn_q;
    reg  [31:0] macc_q;
    always @(posedge clk_i) mn_q <= s1_minor_i;
    reg  [CW-1:0] mby;   // the pass's chunk of b, most significant first
    integer mi;
    always @(*) begin
        mby = {CW{1'b0}};
        for (mi = 0; mi < IMUL_PASSES; mi = mi + 1)
            if ({{(32-MINW){1'b0}}, mn_q} == mi) mby = xb_q[32 - CW * (mi + 1) +: CW];
    end
    wire [31:0] mpp = xa_q * {{(32-CW){1'b0}}, mby};
    always @(posedge clk_i) macc_q <= ((mn_q == {MINW{1'b0}}) ? 32'd0 : {macc_q[31-CW:0], {CW{1'b0}}}) + mpp;
    assign imul_o = macc_q;
      end
    endgenerate

    // ---------------------------------------------------------------- FP unit (simtfpu: rtl/simt_fpu.v)
    wire is_int_src = op == `ISA_OP_I2F || op == `ISA_OP_U2F;   // modifiers do not apply to integer sources
    wire fpu_valid_o;
    simt_fpu #(.LAT(FPU_LAT), .AREA(FPU_AREA), .PASSES(FPU_PASSES)) u_fpu (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(s1_fpu_i), .op_i(op), .cc_i(cc),
        .na_i(na && !is_int_src), .aa_i(aa && !is_int_src), .nb_i(nb), .nc_i(nc),
        .a_i(a), .b_i(b), .c_i(c), .pass_i(s1_minor_i[1:0]), .valid_o(fpu_valid_o), .res_o(fpu_res_o),
        .pred_o(fpu_pred_o));

    // verilator lint_off UNUSEDSIGNAL
    wire unused_ok = &{1'b0, fpu_valid_o, ea[31:6], s1_wid_i[31:27], const_addr_i};
    // verilator lint_on UNUSEDSIGNAL
endmodule

`default_nettype wire
