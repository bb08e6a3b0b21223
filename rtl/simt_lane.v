// SIMT core: one lane (SP). Holds the lane's register-file bank (three synchronous read ports as three
// copies, one write port), its slices of the attribute, special-register, local and output memories and a
// copy of the constant bank, the integer ALU, the two-stage integer multiplier and one simt_fpu.
// Thread t of warp w lives in lane t % LANES, row t / LANES; every per-thread memory is indexed
// {w, row, word} (docs/simt.md).
//   S0: register-file and special-register read addresses (from the core)   -> data in S1
//   S1: operands; integer ALU (result to P[1]); multiplier partial products; memory addresses (ld data in
//       P[1], merged into P[2]); stores write at the end of S1; simt_fpu starts (result FPU_LAT later)
`timescale 1ns / 1ps
`default_nettype none
`include "isa_defs.vh"

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
    parameter integer CONST_WORDS = 256  // constant bank words: 2..256, power of 2
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
    // S1: the beat
    // verilator lint_off UNUSEDSIGNAL
    input  wire [63:0]     s1_insn_i,
    // verilator lint_on UNUSEDSIGNAL
    input  wire [RAW-1:0]  s1_rowaddr_i,     // {warp, row} of the beat
    input  wire [4:0]      s1_row_i,
    input  wire [31:0]     s1_wid_i,
    input  wire            s1_fpu_i,         // FPU class beat (valid into simt_fpu)
    input  wire            s1_ex_i,          // this lane executes (guard passed, enabled)
    input  wire            s1_pa_i,          // predicate source bits (pt already 1)
    input  wire            s1_pb_i,
    output wire [31:0]     opa_o,            // S1 operand A (rz = 0)
    output wire [31:0]     opb_o,            // S1 register operand B / tex T (rz = 0)
    output reg  [31:0]     int_o,            // S1 integer ALU / s2r / predicate result
    output wire [5:0]      st_addr_o,        // S1 store word address
    // P[1]
    output wire [31:0]     imul_o,
    output reg  [31:0]     ld_o,
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
    simt_ram #(.DW(32), .DEPTH(RFDEPTH), .AW(RFAW)) u_rf_a (.clk_i(clk_i), .we_i(rf_we_i),
        .waddr_i(rf_addr(rf_waddr_i)), .wdata_i(rf_wdata_i), .raddr_i(rf_addr(rf_raddr_a_i)), .rdata_o(rfa_d));
    simt_ram #(.DW(32), .DEPTH(RFDEPTH), .AW(RFAW)) u_rf_b (.clk_i(clk_i), .we_i(rf_we_i),
        .waddr_i(rf_addr(rf_waddr_i)), .wdata_i(rf_wdata_i), .raddr_i(rf_addr(rf_raddr_b_i)), .rdata_o(rfb));
    simt_ram #(.DW(32), .DEPTH(RFDEPTH), .AW(RFAW)) u_rf_c (.clk_i(clk_i), .we_i(rf_we_i),
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
    simt_ram #(.DW(32), .DEPTH(RDEPTH), .AW(RAW)) u_srv (.clk_i(clk_i), .we_i(host_sr_we_i && !host_sr_sel_i),
        .waddr_i(host_row_i), .wdata_i(host_data_i), .raddr_i(sr_raddr_i), .rdata_o(srd[31:0]));
    simt_ram #(.DW(32), .DEPTH(RDEPTH), .AW(RAW)) u_srp (.clk_i(clk_i), .we_i(host_sr_we_i && host_sr_sel_i),
        .waddr_i(host_row_i), .wdata_i(host_data_i), .raddr_i(sr_raddr_i), .rdata_o(srd[63:32]));

    // ---------------------------------------------------------------- memories addressed in S1
    wire [31:0] ea = a + {16'd0, ofs};
    wire [AW-1:0] maddr = {s1_rowaddr_i, ea[MB-1:0]};
    wire [AW-1:0] haddr = mwa({host_row_i, host_word_i});
    assign st_addr_o = ea[5:0];
    wire st_l = op == `ISA_OP_ST_L && s1_ex_i;
    wire st_o = op == `ISA_OP_ST_O && s1_ex_i;
    wire [31:0] attr_rd, local_rd, const_rd;
    simt_ram #(.DW(32), .DEPTH(DEPTH), .AW(AW)) u_attr (.clk_i(clk_i), .we_i(host_attr_we_i),
        .waddr_i(haddr), .wdata_i(host_data_i), .raddr_i(maddr), .rdata_o(attr_rd));
    simt_ram #(.DW(32), .DEPTH(DEPTH), .AW(AW)) u_local (.clk_i(clk_i), .we_i(host_attr_we_i || st_l),
        .waddr_i(host_attr_we_i ? haddr : maddr), .wdata_i(host_attr_we_i ? 32'd0 : rbv), .raddr_i(maddr),
        .rdata_o(local_rd));
    simt_ram #(.DW(32), .DEPTH(DEPTH), .AW(AW)) u_out (.clk_i(clk_i), .we_i(host_attr_we_i || st_o),
        .waddr_i(host_attr_we_i ? haddr : maddr), .wdata_i(host_attr_we_i ? 32'd0 : rbv),
        .raddr_i(mwa(out_raddr_i)), .rdata_o(out_rdata_o));
    simt_ram #(.DW(32), .DEPTH(CONST_WORDS), .AW(CB)) u_const (.clk_i(clk_i), .we_i(const_we_i),
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

    // ---------------------------------------------------------------- integer ALU (S1)
    wire [4:0]  lane_no = s1_row_i * LANES[4:0] + LANE[4:0];
    wire        lt_s = $signed(a) < $signed(b);
    wire        lt_u = a < b;
    wire        eq = a == b;
    wire [3:0]  rel_s = lt_s ? `ISA_CC_L : eq ? `ISA_CC_E : `ISA_CC_G;
    wire [3:0]  rel_u = lt_u ? `ISA_CC_L : eq ? `ISA_CC_E : `ISA_CC_G;
    wire        pa = s1_pa_i ^ na;
    wire        pb = s1_pb_i ^ nb;
    wire [31:0] sra_v = $unsigned($signed(a) >>> b[4:0]);
    always @(*) begin
        case (op)
            `ISA_OP_MOV:  int_o = b;
            `ISA_OP_S2R:
                case (ofs)
                    16'd`ISA_SR_LANE:   int_o = {27'd0, lane_no};
                    16'd`ISA_SR_WARP:   int_o = s1_wid_i;
                    16'd`ISA_SR_TID:    int_o = {s1_wid_i[26:0], lane_no};
                    16'd`ISA_SR_VERTEX: int_o = srd[31:0];
                    16'd`ISA_SR_PRIM:   int_o = srd[63:32];
                    default:           int_o = 32'd0;
                endcase
            `ISA_OP_SEL:  int_o = (s1_pa_i ^ nc) ? a : b;
            `ISA_OP_PAND: int_o = {31'd0, pa & pb};
            `ISA_OP_POR:  int_o = {31'd0, pa | pb};
            `ISA_OP_PXOR: int_o = {31'd0, pa ^ pb};
            `ISA_OP_IADD: int_o = a + b;
            `ISA_OP_ISUB: int_o = a - b;
            `ISA_OP_AND:  int_o = a & b;
            `ISA_OP_OR:   int_o = a | b;
            `ISA_OP_XOR:  int_o = a ^ b;
            `ISA_OP_SHL:  int_o = a << b[4:0];
            `ISA_OP_SHR:  int_o = a >> b[4:0];
            `ISA_OP_SRA:  int_o = sra_v;
            `ISA_OP_IMIN: int_o = lt_s ? a : b;
            `ISA_OP_IMAX: int_o = (!lt_s && !eq) ? a : b;
            `ISA_OP_ISETP: int_o = {31'd0, (cc & rel_s) != 4'd0};
            `ISA_OP_USETP: int_o = {31'd0, (cc & rel_u) != 4'd0};
            default:      int_o = 32'd0;
        endcase
    end

    // ---------------------------------------------------------------- multiplier: 16x16 partial products in
    // S1, low 32 bits summed in P[1]
    // verilator lint_off UNUSEDSIGNAL
    reg [31:0] pp_ll_q, pp_lh_q, pp_hl_q;   // only the low halves of the cross products are used
    // verilator lint_on UNUSEDSIGNAL
    always @(posedge clk_i) begin
        pp_ll_q <= a[15:0] * b[15:0];
        pp_lh_q <= a[15:0] * b[31:16];
        pp_hl_q <= a[31:16] * b[15:0];
    end
    assign imul_o = pp_ll_q + {pp_lh_q[15:0] + pp_hl_q[15:0], 16'd0};

    // ---------------------------------------------------------------- FP unit (simtfpu: rtl/simt_fpu.v)
    wire is_int_src = op == `ISA_OP_I2F || op == `ISA_OP_U2F;   // modifiers do not apply to integer sources
    wire fpu_valid_o;
    simt_fpu #(.LAT(FPU_LAT)) u_fpu (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(s1_fpu_i), .op_i(op), .cc_i(cc),
        .na_i(na && !is_int_src), .aa_i(aa && !is_int_src), .nb_i(nb), .nc_i(nc),
        .a_i(a), .b_i(b), .c_i(c), .valid_o(fpu_valid_o), .res_o(fpu_res_o), .pred_o(fpu_pred_o));

    // verilator lint_off UNUSEDSIGNAL
    wire unused_ok = &{1'b0, fpu_valid_o, ea[31:6], s1_wid_i[31:27], const_addr_i};
    // verilator lint_on UNUSEDSIGNAL
endmodule

`default_nettype wire
