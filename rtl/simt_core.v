// SIMT shader core (issue 10; docs/simt.md). Warps of 32 threads on LANES lanes: a warp instruction is
// executed in 32/LANES beats of LANES threads (LANES = 8: one warp instruction every 4 cycles, as Tesla's
// SM). WARPS warp slots, each with its own reconvergence stack, predicates and scoreboard (simt_warp).
//
//   fetch (round-robin over warps with an empty instruction buffer) -> imem (synchronous) -> ibuf
//   issue (loose round-robin over ready warps, when the beat sequencer takes a new instruction):
//         guard -> ex mask, reconvergence-stack update, scoreboard set
//   S0    beat sequencer: row (and tex component / SFU sub-beat); register-file read addresses
//   S1    operands; memory addresses, stores; FPU/SFU start; texture request; ALU operands registered per lane
//   P[1..D] result pipeline (D = max(2, FPU_LAT, SFU_LAT, TEX_LAT)): each unit's result merges in when it
//         is ready (ALU and loads at P[2], imul at P[3], FPU at P[FPU_LAT+1], ...; a unit ready at P[D]
//         writes back directly, e.g. imul with D = 2); P[D] writes back and drives the
//         retire port; the last beat of an instruction clears its scoreboard bits.
//
// Host ports (used while idle_o): instruction memory, constant bank, attribute rows (a write of attribute
// word k < 64 of a row also zeroes word k of its registers, local and output memory: uploading the 64
// attribute words of every row is the warp's initialisation), special registers (words 64/65), launch,
// output-memory read. Texture: request in S1, the response must be on tex_rsp_data_i TEX_LAT cycles later.
// The C cycle model cmodel/simt/simt_hw.c is this design; the lockstep co-simulation compares every port.
`timescale 1ns / 1ps
`default_nettype none
`include "isa_defs.vh"

module simt_core #(
    parameter integer LANES = 8,     // 1, 2, 4, 8, 16, 32
    parameter integer WARPS = 4,     // 1..32
    parameter integer FPU_LAT = 8,   // simt_fpu latency (8: the 200 MHz pipeline, docs/simt-fpu.md)
    parameter integer SFU_LAT = 8,   // simt_sfu latency (8: the 200 MHz pipeline)
    parameter integer TEX_LAT = 4,   // texture port latency (>= 1)
    parameter TABLE_DIR = "defs",    // SFU tables (defs/sfu_*.hex)
    // Reduced configurations (small FPGAs; docs/simt.md, synthesis). The defaults are the ISA's sizes; smaller
    // values store fewer words and take every address modulo the size, so only programs that stay below the
    // sizes run as the ISA defines (the lockstep tests use the defaults).
    parameter integer RF_WORDS = 64,      // registers stored per thread (2..64, power of 2)
    parameter integer MEM_WORDS = 64,     // attribute/local/output words per thread (2..64, power of 2)
    parameter integer CONST_WORDS = 256,  // constant bank words (2..256, power of 2)
    parameter integer IMEM_DEPTH = 4096,  // instruction memory words (2..4096, power of 2)
    parameter integer STACK_DEPTH = 32,   // reconvergence stack entries per warp (4, 8, 16, 32)
    parameter integer HAS_SFU = 1,        // 0: no SFU pipes (rcp rsq ex2 lg2 sin cos write 0)
    parameter integer FPU_AREA = 0,       // 1: area-reduced simt_fpu (ripple adders, `*` product; same results)
    parameter integer SR_MERGE = 0,       // 1: %vertex/%prim of a lane in one RAM (one block RAM pair fewer)
    parameter integer IMUL_PASSES = 1,    // 1, 4, 8 or 16: imul in P passes of a 32 x (32/P) array, each beat
                                          // repeated P times (minor 0..P-1; only the last writes): P x the imul
                                          // beats
    parameter integer FPU_PASSES = 1,     // 1, or 4 (with FPU_AREA): the same for every FPU-class beat (the
                                          // FPU's significand product in 4 passes of 24 x 6)
    parameter integer INT_AREA = 0,       // 1: the lanes' integer ALU (simt_lane), the predicate-source read and
                                          // the warps (simt_warp TIMING_REGS = 0) in their small-FPGA form (same
                                          // results, same cycles)
    parameter integer RAM_RW_ANY = 0      // 1: the storage arrays but the output memory need no read-during-write
                                          // rule (simt_ram RW_ANY: no FPGA collision logic; the core never uses
                                          // such a read, the lockstep checks it with a poisoned simulation value)
) (
    input  wire                  clk_i,
    input  wire                  rst_ni,
    // host: program, constants
    input  wire [12:0]           prog_len_i,
    input  wire                  imem_we_i,
    input  wire [11:0]           imem_addr_i,
    input  wire [63:0]           imem_data_i,
    input  wire                  const_we_i,
    input  wire [7:0]            const_addr_i,
    input  wire [31:0]           const_data_i,
    // host: attribute rows (word 0..63), special registers (64 vertex, 65 prim)
    input  wire                  attr_we_i,
    input  wire [4:0]            attr_warp_i,
    input  wire [4:0]            attr_row_i,
    input  wire [6:0]            attr_word_i,
    input  wire [LANES*32-1:0]   attr_data_i,
    // host: launch a warp slot
    input  wire                  launch_i,
    input  wire [4:0]            launch_warp_i,
    input  wire [31:0]           launch_mask_i,
    input  wire [31:0]           launch_wid_i,
    // host: output memory read (data the next cycle)
    input  wire [4:0]            out_warp_i,
    input  wire [4:0]            out_row_i,
    input  wire [5:0]            out_word_i,
    output wire [LANES*32-1:0]   out_rdata_o,
    // status
    output wire                  idle_o,
    output wire [WARPS-1:0]      run_o,
    output wire [WARPS-1:0]      err_o,
    // texture port
    output wire                  tex_req_valid_o,
    output wire [4:0]            tex_req_warp_o,
    output wire [4:0]            tex_req_row_o,
    output wire [1:0]            tex_req_comp_o,
    output wire [3:0]            tex_req_unit_o,
    output wire [LANES-1:0]      tex_req_mask_o,
    output wire [LANES*32-1:0]   tex_req_s_o,
    output wire [LANES*32-1:0]   tex_req_t_o,
    input  wire [LANES*32-1:0]   tex_rsp_data_i,
    // issue (debug)
    output wire                  issue_valid_o,
    output wire [4:0]            issue_warp_o,
    output wire [15:0]           issue_pc_o,
    // retire port: one beat per cycle
    output wire                  rt_valid_o,
    output wire                  rt_first_o,
    output wire                  rt_last_o,
    output wire [4:0]            rt_warp_o,
    output wire [15:0]           rt_pc_o,
    output wire [31:0]           rt_active_o,
    output wire [31:0]           rt_wmask_o,
    output wire [4:0]            rt_row_o,
    output wire [1:0]            rt_minor_o,
    output wire [LANES-1:0]      rt_lane_en_o,
    output wire [2:0]            rt_kind_o,
    output wire [5:0]            rt_dst_o,
    output wire [LANES*32-1:0]   rt_val_o,
    output wire [LANES*6-1:0]    rt_addr_o
);
    localparam integer Q = 32 / LANES;
    localparam integer NSFU = (LANES >= 4) ? LANES / 4 : 1;
    localparam integer SFU_SUB = LANES / NSFU;
    localparam integer D0 = (FPU_LAT > SFU_LAT) ? FPU_LAT : SFU_LAT;
    localparam integer D1 = (D0 > TEX_LAT) ? D0 : TEX_LAT;
    localparam integer D = (D1 > 2) ? D1 : 2;
    localparam integer RDEPTH = (WARPS * Q > 1) ? WARPS * Q : 2;   // rows {warp, row} (2: one warp of one row)
    localparam integer RAW = (RDEPTH > 1) ? $clog2(RDEPTH) : 1;
    localparam integer MINW = (IMUL_PASSES > 4) ? $clog2(IMUL_PASSES) : 2;   // S0/S1 minor width (2: 0..3)
    localparam [2:0] C_CTRL = 3'd0, C_IMUL = 3'd2, C_FPU = 3'd3, C_SFU = 3'd4, C_LD = 3'd5,
                     C_ST = 3'd6, C_TEX = 3'd7;
    localparam [2:0] K_REG = 3'd1, K_PRED = 3'd2;
    localparam [LANES-1:0] LALL = {LANES{1'b1}};

    localparam [LANES-1:0] SFU_M = {LANES{1'b1}} >> (LANES - NSFU);
    // verilator lint_off UNUSEDSIGNAL
    function [RAW-1:0] rowaddr(input [4:0] w, input [4:0] r);
        reg [31:0] t;
        begin
            t = {27'd0, w} * Q + {27'd0, r};
            rowaddr = t[RAW-1:0];
        end
    endfunction
    // verilator lint_on UNUSEDSIGNAL

    // ================================================================ warps
    wire [31:0]          w_ready, w_freq;   // bits >= WARPS are 0
    wire [WARPS*16-1:0]  w_pc;
    wire [WARPS*32-1:0]  w_active, w_ex, w_wid;
    wire [WARPS*64-1:0]  w_ibuf, w_sb;
    wire [WARPS*6-1:0]   w_sp;
    wire [WARPS*224-1:0] w_pred;

    reg              fetch_v_q;
    reg  [4:0]       fetch_w_q, fptr_q, iptr_q;
    wire [63:0]      imem_rdata;
    reg              fsel_v, isel_v;
    reg  [4:0]       fsel, isel;
    wire             can_issue;

    // write-back (P[D]) signals to the warps
    wire             wb_pred_we, sb_clr;
    wire [4:0]       wb_warp;
    wire [2:0]       wb_pred_idx;
    wire [31:0]      wb_pred_mask, wb_pred_bits;
    wire [63:0]      sb_clr_reg;
    wire [6:0]       sb_clr_pred;

    genvar gw;
    generate
        for (gw = WARPS; gw < 32; gw = gw + 1) begin : g_nowarp
            assign w_ready[gw] = 1'b0;
            assign w_freq[gw] = 1'b0;
        end
        // INT_AREA = 1: the warp without the 200 MHz timing structures (TIMING_REGS = 0; same ports and cycles)
        for (gw = 0; gw < WARPS; gw = gw + 1) begin : g_warp
            simt_warp #(.STACK_DEPTH(STACK_DEPTH), .SB_WORDS(RF_WORDS), .TIMING_REGS((INT_AREA != 0) ? 0 : 1)) u_warp (
                .clk_i(clk_i), .rst_ni(rst_ni), .prog_len_i(prog_len_i),
                .launch_i(launch_i && launch_warp_i == gw[4:0]), .launch_mask_i(launch_mask_i),
                .launch_wid_i(launch_wid_i),
                .issue_i(can_issue && isel_v && isel == gw[4:0]),
                .fetch_grant_i(fsel_v && fsel == gw[4:0]),
                .fetch_ret_i(fetch_v_q && fetch_w_q == gw[4:0]), .fetch_data_i(imem_rdata),
                .wb_pred_we_i(wb_pred_we && wb_warp == gw[4:0]), .wb_pred_idx_i(wb_pred_idx),
                .wb_pred_mask_i(wb_pred_mask), .wb_pred_bits_i(wb_pred_bits),
                .sb_clr_i(sb_clr && wb_warp == gw[4:0]), .sb_clr_reg_i(sb_clr_reg), .sb_clr_pred_i(sb_clr_pred),
                .run_o(run_o[gw]), .err_o(err_o[gw]), .ready_o(w_ready[gw]), .fetch_req_o(w_freq[gw]),
                .pc_o(w_pc[gw*16 +: 16]), .active_o(w_active[gw*32 +: 32]), .ex_o(w_ex[gw*32 +: 32]),
                .ibuf_o(w_ibuf[gw*64 +: 64]), .sp_o(w_sp[gw*6 +: 6]), .pred_o(w_pred[gw*224 +: 224]),
                .wid_o(w_wid[gw*32 +: 32]), .sb_reg_o(w_sb[gw*64 +: 64]));
        end
    endgenerate

    // ================================================================ fetch: round-robin from fptr
    // (the wrap-around is a conditional expression, not an if: Verilator 5.006 places the line-coverage counter
    // of an if that re-assigns its own condition's variable after the assignment, so it could never count)
    function [5:0] wrapw(input [5:0] x);
        wrapw = (x >= WARPS[5:0]) ? x - WARPS[5:0] : x;
    endfunction
    function [5:0] wdist(input [4:0] p, input [5:0] x);   // position of warp x in the order from p
        wdist = (x >= {1'b0, p}) ? x - {1'b0, p} : x + WARPS[5:0] - {1'b0, p};
    endfunction
    integer k, m;
    reg blk;
    reg [WARPS-1:0] igrant;
    // verilator lint_off UNUSEDSIGNAL
    reg [5:0] cand;   // < WARPS after the wrap: bit 5 is always 0
    // verilator lint_on UNUSEDSIGNAL
    always @(*) begin
        fsel_v = 1'b0;
        fsel = 5'd0;
        isel_v = 1'b0;
        isel = 5'd0;
        for (k = 0; k < WARPS; k = k + 1) begin
            cand = wrapw({1'b0, fptr_q} + k[5:0]);
            if (!fsel_v && w_freq[cand[4:0]] && !(fetch_v_q && fetch_w_q == cand[4:0])) begin
                fsel_v = 1'b1;
                fsel = cand[4:0];
            end
        end
        // issue: the first ready warp from iptr_q on, as a one-hot grant (a warp is granted if it is ready and no
        // ready warp comes before it in the order iptr_q, iptr_q+1, ...; the order depends on iptr_q only), so
        // that the ready bits pass through two gate levels instead of a chain of WARPS multiplexers (timing)
        for (k = 0; k < WARPS; k = k + 1) begin
            blk = 1'b0;
            for (m = 0; m < WARPS; m = m + 1)
                if (m != k && wdist(iptr_q, m[5:0]) < wdist(iptr_q, k[5:0])) blk = blk | w_ready[m];
            igrant[k] = w_ready[k] && !blk;
            if (igrant[k]) begin
                isel_v = 1'b1;
                isel = isel | k[4:0];   // one-hot: at most one k
            end
        end
    end
    wire [15:0] fsel_pc = w_pc[fsel*16 +: 16];
    wire fetch_ok = fsel_v && {1'b0, fsel_pc} < {4'd0, prog_len_i};

    localparam integer IAW = $clog2(IMEM_DEPTH);
    simt_ram #(.DW(64), .DEPTH(IMEM_DEPTH), .AW(IAW), .RW_ANY(RAM_RW_ANY)) u_imem (.clk_i(clk_i), .we_i(imem_we_i),
        .waddr_i(imem_addr_i[IAW-1:0]), .wdata_i(imem_data_i), .raddr_i(fsel_pc[IAW-1:0]), .rdata_o(imem_rdata));

    always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
            fetch_v_q <= 1'b0;
            fetch_w_q <= 5'd0;
            fptr_q <= 5'd0;
            iptr_q <= 5'd0;
        end else begin
            fetch_v_q <= fetch_ok;
            if (fsel_v) begin
                fetch_w_q <= fsel;
                fptr_q <= (fsel == WARPS[4:0] - 5'd1) ? 5'd0 : fsel + 5'd1;
            end
            if (can_issue && isel_v) iptr_q <= (isel == WARPS[4:0] - 5'd1) ? 5'd0 : isel + 5'd1;
        end
    end

    // ================================================================ S0: beat sequencer
    reg         s0_v_q;
    reg  [4:0]  s0_warp_q, s0_row_q;
    reg  [MINW-1:0] s0_minor_q;
    reg  [15:0] s0_pc_q;
    reg  [31:0] s0_active_q, s0_ex_q;
    reg  [63:0] s0_insn_q;
    wire [2:0]  s0_cls, s0_kind;
    wire        s0_nu0, s0_nu1, s0_nu2, s0_nu3, s0_nu4, s0_nu5, s0_nu6, s0_nu7, s0_nu8;
    wire [2:0]  s0_nu9, s0_nu10;
    simt_decode u_dec_s0 (.insn_i(s0_insn_q), .cls_o(s0_cls), .kind_o(s0_kind), .use_ra_o(s0_nu0),
        .use_rb_o(s0_nu1), .use_rc_o(s0_nu2), .use_ra1_o(s0_nu3), .use_pa_o(s0_nu4), .use_pb_o(s0_nu5),
        .pa_o(s0_nu9), .pb_o(s0_nu10), .dst_reg_o(s0_nu6), .dst_pred_o(s0_nu7), .ndst4_o(s0_nu8));
    localparam [MINW-1:0] MONE = {{(MINW-1){1'b0}}, 1'b1};
    localparam [MINW-1:0] IMUL_MM = IMUL_PASSES[MINW-1:0] - MONE;   // last imul pass (0 with one pass)
    localparam [MINW-1:0] FPU_MM = FPU_PASSES[MINW-1:0] - MONE;     // last FPU pass
    localparam [MINW-1:0] TEX_MM = 3;                                // last texture component
    localparam [MINW-1:0] SFU_MM = SFU_SUB[MINW-1:0] - MONE;        // last SFU sub-beat
    wire [MINW-1:0] s0_mm = (s0_cls == C_TEX) ? TEX_MM : (s0_cls == C_SFU) ? SFU_MM :
                            (s0_cls == C_IMUL) ? IMUL_MM : (s0_cls == C_FPU) ? FPU_MM : {MINW{1'b0}};
    wire        s0_ctrl = s0_cls == C_CTRL;
    wire        s0_last = s0_ctrl || (s0_row_q == Q[4:0] - 5'd1 && s0_minor_q == s0_mm);
    wire [4:0]  s0_row = s0_ctrl ? 5'd0 : s0_row_q;
    assign can_issue = !s0_v_q || s0_last;

    wire [5:0]  s0_ra = s0_insn_q[`ISA_F_RA_HI:`ISA_F_RA_LO];
    wire [5:0]  s0_rbp = (s0_cls == C_TEX) ? s0_ra + 6'd1 : s0_insn_q[`ISA_F_RB_HI:`ISA_F_RB_LO];
    wire [5:0]  s0_rc = s0_insn_q[`ISA_F_RC_HI:`ISA_F_RC_LO];
    wire [RAW-1:0] s0_rowaddr = rowaddr(s0_warp_q, s0_row);
    wire [LANES-1:0] s0_lane_en = s0_ctrl ? {LANES{1'b0}} :
                                  (s0_cls == C_SFU) ? (SFU_M << ({{(32-MINW){1'b0}}, s0_minor_q} * NSFU)) :
                                  (IMUL_PASSES > 1 && s0_cls == C_IMUL && s0_minor_q != IMUL_MM) ? {LANES{1'b0}} :
                                  (FPU_PASSES > 1 && s0_cls == C_FPU && s0_minor_q != FPU_MM) ? {LANES{1'b0}} : LALL;
    // verilator lint_off UNUSEDSIGNAL
    wire [31:0] s0_ex_sh = s0_ex_q >> (s0_row * LANES[5:0]);
    // verilator lint_on UNUSEDSIGNAL
    wire [LANES-1:0] s0_exl = s0_ex_sh[LANES-1:0] & s0_lane_en;

    wire [31:0] isel_ex = w_ex[isel*32 +: 32];
    always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) s0_v_q <= 1'b0;
        else if (can_issue) s0_v_q <= isel_v;
    end
    always @(posedge clk_i) begin
        if (can_issue && isel_v) begin
            s0_warp_q <= isel;
            s0_pc_q <= w_pc[isel*16 +: 16];
            s0_active_q <= w_active[isel*32 +: 32];
            s0_ex_q <= isel_ex;
            s0_insn_q <= w_ibuf[isel*64 +: 64];
            s0_row_q <= 5'd0;
            s0_minor_q <= {MINW{1'b0}};
        end else if (s0_v_q && !s0_last) begin
            if (s0_minor_q == s0_mm) begin
                s0_minor_q <= {MINW{1'b0}};
                s0_row_q <= s0_row_q + 5'd1;
            end else begin
                s0_minor_q <= s0_minor_q + MONE;
            end
        end
    end

    // ================================================================ S1
    reg         s1_v_q, s1_first_q, s1_last_q;
    reg  [4:0]  s1_warp_q, s1_row_q;
    reg  [MINW-1:0] s1_minor_q;
    reg  [2:0]  s1_cls_q, s1_kind_q;
    reg  [15:0] s1_pc_q;
    reg  [31:0] s1_active_q, s1_ex_q;
    reg  [63:0] s1_insn_q;
    reg  [LANES-1:0] s1_lane_en_q, s1_exl_q;
    always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) s1_v_q <= 1'b0;
        else s1_v_q <= s0_v_q;
    end
    always @(posedge clk_i) begin
        s1_warp_q <= s0_warp_q;
        s1_row_q <= s0_row;
        s1_minor_q <= s0_minor_q;
        s1_first_q <= s0_row == 5'd0 && s0_minor_q == {MINW{1'b0}};
        s1_last_q <= s0_last;
        s1_cls_q <= s0_cls;
        s1_kind_q <= s0_kind;
        s1_pc_q <= s0_pc_q;
        s1_active_q <= s0_active_q;
        s1_ex_q <= s0_ex_q;
        s1_insn_q <= s0_insn_q;
        s1_lane_en_q <= s0_lane_en;
        s1_exl_q <= s0_exl;
    end
    wire [2:0] s1_pa, s1_pb;
    wire s1_nu0, s1_nu1, s1_nu2, s1_nu3, s1_nu4, s1_nu5, s1_nu6, s1_nu7, s1_nu8;
    wire [2:0] s1_nu9, s1_nu10;
    simt_decode u_dec_s1 (.insn_i(s1_insn_q), .cls_o(s1_nu9), .kind_o(s1_nu10), .use_ra_o(s1_nu0),
        .use_rb_o(s1_nu1), .use_rc_o(s1_nu2), .use_ra1_o(s1_nu3), .use_pa_o(s1_nu4), .use_pb_o(s1_nu5),
        .pa_o(s1_pa), .pb_o(s1_pb), .dst_reg_o(s1_nu6), .dst_pred_o(s1_nu7), .ndst4_o(s1_nu8));
    wire [223:0] s1_preds = w_pred[s1_warp_q*224 +: 224];
    wire [LANES-1:0] s1_pa_l, s1_pb_l;   // the beat's lanes' bits of the predicate sources (pt: ones)
    generate
        if (INT_AREA == 0) begin : g_pread
            wire [31:0]  s1_pa_w = (s1_pa == 3'd7) ? 32'hffffffff : s1_preds[s1_pa*32 +: 32];
            wire [31:0]  s1_pb_w = (s1_pb == 3'd7) ? 32'hffffffff : s1_preds[s1_pb*32 +: 32];
            // verilator lint_off UNUSEDSIGNAL
            wire [31:0]  s1_pa_sh = s1_pa_w >> (s1_row_q * LANES[5:0]);
            wire [31:0]  s1_pb_sh = s1_pb_w >> (s1_row_q * LANES[5:0]);
            // verilator lint_on UNUSEDSIGNAL
            assign s1_pa_l = s1_pa_sh[LANES-1:0];
            assign s1_pb_l = s1_pb_sh[LANES-1:0];
        end else begin : g_pread_a   // the row's bits of each predicate first, then the source select (small FPGAs)
            wire [8*LANES-1:0] prow;
            genvar gp;
            for (gp = 0; gp < 7; gp = gp + 1) begin : g_prow
                // verilator lint_off UNUSEDSIGNAL
                wire [31:0] sh = s1_preds[gp*32 +: 32] >> (s1_row_q * LANES[5:0]);
                // verilator lint_on UNUSEDSIGNAL
                assign prow[gp*LANES +: LANES] = sh[LANES-1:0];
            end
            assign prow[7*LANES +: LANES] = {LANES{1'b1}};   // pt
            assign s1_pa_l = prow[s1_pa*LANES +: LANES];
            assign s1_pb_l = prow[s1_pb*LANES +: LANES];
        end
    endgenerate
    wire [RAW-1:0] s1_rowaddr = rowaddr(s1_warp_q, s1_row_q);
    wire [31:0]  s1_wid = w_wid[s1_warp_q*32 +: 32];

    // ================================================================ lanes
    wire [LANES*32-1:0] opa, opb, int_res, imul_res, ld_res, fpu_res;
    wire [LANES-1:0]    fpu_pred;
    wire [LANES*6-1:0]  st_addr;
    wire [LANES-1:0]    rf_we;
    wire [RAW+5:0]      rf_waddr;
    wire [LANES*32-1:0] rf_wdata;
    wire host_attr = attr_we_i && !attr_word_i[6];
    wire host_sr = attr_we_i && attr_word_i[6:1] == 6'd32;
    wire [RAW-1:0] host_row = rowaddr(attr_warp_i, attr_row_i);
    wire [RAW+5:0] out_raddr = {rowaddr(out_warp_i, out_row_i), out_word_i};
    genvar gl;
    generate
        for (gl = 0; gl < LANES; gl = gl + 1) begin : g_lane
            simt_lane #(.LANE(gl), .LANES(LANES), .RAW(RAW), .RDEPTH(RDEPTH), .FPU_LAT(FPU_LAT),
                        .RF_WORDS(RF_WORDS), .MEM_WORDS(MEM_WORDS), .CONST_WORDS(CONST_WORDS),
                        .FPU_AREA(FPU_AREA), .SR_MERGE(SR_MERGE), .IMUL_PASSES(IMUL_PASSES),
                        .FPU_PASSES(FPU_PASSES), .MINW(MINW), .INT_AREA(INT_AREA), .RAM_RW_ANY(RAM_RW_ANY)) u_lane (
                .clk_i(clk_i), .rst_ni(rst_ni),
                .host_attr_we_i(host_attr), .host_sr_we_i(host_sr), .host_sr_sel_i(attr_word_i[0]),
                .host_row_i(host_row), .host_word_i(attr_word_i[5:0]), .host_data_i(attr_data_i[gl*32 +: 32]),
                .const_we_i(const_we_i), .const_addr_i(const_addr_i), .const_data_i(const_data_i),
                .out_raddr_i(out_raddr), .out_rdata_o(out_rdata_o[gl*32 +: 32]),
                .rf_raddr_a_i({s0_rowaddr, s0_ra}), .rf_raddr_b_i({s0_rowaddr, s0_rbp}),
                .rf_raddr_c_i({s0_rowaddr, s0_rc}), .sr_raddr_i(s0_rowaddr),
                .sr_sel_i(s0_insn_q[`ISA_F_OFS_HI:`ISA_F_OFS_LO] == 16'd`ISA_SR_PRIM),
                .s1_insn_i(s1_insn_q), .s1_rowaddr_i(s1_rowaddr), .s1_row_i(s1_row_q), .s1_minor_i(s1_minor_q),
                .s1_wid_i(s1_wid),
                .s1_fpu_i(s1_v_q && s1_cls_q == C_FPU && s1_lane_en_q[gl]),
                .s1_ex_i(s1_v_q && s1_exl_q[gl]), .s1_pa_i(s1_pa_l[gl]), .s1_pb_i(s1_pb_l[gl]),
                .opa_o(opa[gl*32 +: 32]), .opb_o(opb[gl*32 +: 32]), .int_o(int_res[gl*32 +: 32]),
                .st_addr_o(st_addr[gl*6 +: 6]), .imul_o(imul_res[gl*32 +: 32]), .ld_o(ld_res[gl*32 +: 32]),
                .fpu_res_o(fpu_res[gl*32 +: 32]), .fpu_pred_o(fpu_pred[gl]),
                .rf_we_i(rf_we[gl]), .rf_waddr_i(rf_waddr), .rf_wdata_i(rf_wdata[gl*32 +: 32]));
        end
    endgenerate

    // ================================================================ SFU pipes (NSFU, quarter rate)
    wire [NSFU*32-1:0] sfu_res;
    genvar gs;
    generate
        for (gs = 0; gs < NSFU; gs = gs + 1) begin : g_sfu
          if (HAS_SFU != 0) begin : g_on
            wire [31:0] sfu_a = opa[(s1_minor_q * NSFU + gs) * 32 +: 32];
            wire        sfu_vo;
            simt_sfu #(.LAT(SFU_LAT), .TABLE_DIR(TABLE_DIR)) u_sfu (
                .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(s1_v_q && s1_cls_q == C_SFU),
                .op_i(s1_insn_q[`ISA_F_OP_HI:`ISA_F_OP_LO]), .na_i(s1_insn_q[`ISA_F_NA_HI]),
                .aa_i(s1_insn_q[`ISA_F_AA_HI]), .a_i(sfu_a), .valid_o(sfu_vo), .res_o(sfu_res[gs*32 +: 32]));
            // verilator lint_off UNUSEDSIGNAL
            wire unused_sfu = sfu_vo;
            // verilator lint_on UNUSEDSIGNAL
          end else begin : g_off
            assign sfu_res[gs*32 +: 32] = 32'd0;
          end
        end
    endgenerate
    wire [LANES*32-1:0] sfu_spread;
    generate
        for (gl = 0; gl < LANES; gl = gl + 1) begin : g_spread
            assign sfu_spread[gl*32 +: 32] = sfu_res[(gl % NSFU)*32 +: 32];
        end
    endgenerate

    // ================================================================ texture request (S1)
    wire tex_v = s1_v_q && s1_cls_q == C_TEX;
    assign tex_req_valid_o = tex_v;
    assign tex_req_warp_o = tex_v ? s1_warp_q : 5'd0;
    assign tex_req_row_o = tex_v ? s1_row_q : 5'd0;
    assign tex_req_comp_o = tex_v ? s1_minor_q[1:0] : 2'd0;
    assign tex_req_unit_o = tex_v ? s1_insn_q[`ISA_F_OFS_LO+3:`ISA_F_OFS_LO] : 4'd0;
    assign tex_req_mask_o = tex_v ? s1_exl_q : {LANES{1'b0}};
    assign tex_req_s_o = tex_v ? opa : {(LANES*32){1'b0}};
    assign tex_req_t_o = tex_v ? opb : {(LANES*32){1'b0}};

    // ================================================================ result pipeline P[1..D]
    reg              p_v_q     [1:D];
    reg              p_first_q [1:D];
    reg              p_last_q  [1:D];
    reg  [4:0]       p_warp_q  [1:D];
    reg  [4:0]       p_row_q   [1:D];
    reg  [1:0]       p_minor_q [1:D];   // the minor mod 4 (MINW > 2: only imul passes go beyond 3)
    reg  [2:0]       p_cls_q   [1:D];
    reg  [2:0]       p_kind_q  [1:D];
    reg  [15:0]      p_pc_q    [1:D];
    reg  [31:0]      p_active_q[1:D];
    reg  [31:0]      p_ex_q    [1:D];
    reg  [63:0]      p_insn_q  [1:D];
    reg  [LANES-1:0] p_lane_en_q[1:D];
    reg  [LANES-1:0] p_exl_q   [1:D];
    reg  [LANES*32-1:0] p_val_q [1:D];
    reg  [LANES*6-1:0]  p_addr_q[1:D];
    wire [LANES*32-1:0] p_mval [1:D];   // value after merging the unit that finishes at this stage

    genvar gk;
    generate
        for (gk = 1; gk <= D; gk = gk + 1) begin : g_merge
            wire is_fsetp = p_kind_q[gk] == K_PRED;
            wire [LANES*32-1:0] fpu_v;
            for (gl = 0; gl < LANES; gl = gl + 1) begin : g_fl
                assign fpu_v[gl*32 +: 32] = is_fsetp ? {31'd0, fpu_pred[gl]} : fpu_res[gl*32 +: 32];
            end
            // P[1]: the integer ALU (lanes' int_o, from their operand registers) for every class but loads and
            // stores (the others are replaced by their unit's result later); imul at P[2]
            assign p_mval[gk] =
                (gk == 1 && p_cls_q[gk] == C_LD) ? ld_res :
                (gk == 2 && p_cls_q[gk] == C_IMUL) ? imul_res :
                (gk == FPU_LAT && p_cls_q[gk] == C_FPU) ? fpu_v :
                (gk == SFU_LAT && p_cls_q[gk] == C_SFU) ? sfu_spread :
                (gk == TEX_LAT && p_cls_q[gk] == C_TEX) ? tex_rsp_data_i :
                (gk == 1 && p_cls_q[gk] != C_ST) ? int_res : p_val_q[gk];
        end
    endgenerate

    integer j;
    always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
            for (j = 1; j <= D; j = j + 1) p_v_q[j] <= 1'b0;
        end else begin
            p_v_q[1] <= s1_v_q;
            for (j = 2; j <= D; j = j + 1) p_v_q[j] <= p_v_q[j-1];
        end
    end
    always @(posedge clk_i) begin
        p_first_q[1] <= s1_first_q;
        p_last_q[1] <= s1_last_q;
        p_warp_q[1] <= s1_warp_q;
        p_row_q[1] <= s1_row_q;
        p_minor_q[1] <= s1_minor_q[1:0];
        p_cls_q[1] <= s1_cls_q;
        p_kind_q[1] <= s1_kind_q;
        p_pc_q[1] <= s1_pc_q;
        p_active_q[1] <= s1_active_q;
        p_ex_q[1] <= s1_ex_q;
        p_insn_q[1] <= s1_insn_q;
        p_lane_en_q[1] <= s1_lane_en_q;
        p_exl_q[1] <= s1_exl_q;
        p_val_q[1] <= opb;   // the store value (every other class takes its value at P[1] or later)
        p_addr_q[1] <= st_addr;
        for (j = 2; j <= D; j = j + 1) begin
            p_first_q[j] <= p_first_q[j-1];
            p_last_q[j] <= p_last_q[j-1];
            p_warp_q[j] <= p_warp_q[j-1];
            p_row_q[j] <= p_row_q[j-1];
            p_minor_q[j] <= p_minor_q[j-1];
            p_cls_q[j] <= p_cls_q[j-1];
            p_kind_q[j] <= p_kind_q[j-1];
            p_pc_q[j] <= p_pc_q[j-1];
            p_active_q[j] <= p_active_q[j-1];
            p_ex_q[j] <= p_ex_q[j-1];
            p_insn_q[j] <= p_insn_q[j-1];
            p_lane_en_q[j] <= p_lane_en_q[j-1];
            p_exl_q[j] <= p_exl_q[j-1];
            p_val_q[j] <= p_mval[j-1];
            p_addr_q[j] <= p_addr_q[j-1];
        end
    end

    // ================================================================ write-back (P[D]) and retire port
    // verilator lint_off UNUSEDSIGNAL
    wire [63:0] wb_insn = p_insn_q[D];
    // verilator lint_on UNUSEDSIGNAL
    wire [5:0]  wb_rd = wb_insn[`ISA_F_RD_HI:`ISA_F_RD_LO];
    wire [5:0]  wb_reg = wb_rd + ((p_cls_q[D] == C_TEX) ? {4'd0, p_minor_q[D]} : 6'd0);
    wire [LANES*32-1:0] wb_val = p_mval[D];
    wire        wb_v = p_v_q[D];
    wire [LANES-1:0] wb_exl = p_exl_q[D];
    wire [RAW-1:0] wb_rowaddr = rowaddr(p_warp_q[D], p_row_q[D]);
    wire        wb_rf = wb_v && p_kind_q[D] == K_REG && wb_reg != 6'd63;
    assign rf_we = host_attr ? LALL : (wb_rf ? wb_exl : {LANES{1'b0}});
    assign rf_waddr = host_attr ? {host_row, attr_word_i[5:0]} : {wb_rowaddr, wb_reg};
    assign rf_wdata = host_attr ? {(LANES*32){1'b0}} : wb_val;

    wire [31:0] wb_bits_l, wb_mask_l;
    generate
        for (gl = 0; gl < 32; gl = gl + 1) begin : g_pbits
            if (gl < LANES) begin : g_in
                assign wb_bits_l[gl] = wb_val[gl*32];
                assign wb_mask_l[gl] = wb_exl[gl];
            end else begin : g_out
                assign wb_bits_l[gl] = 1'b0;
                assign wb_mask_l[gl] = 1'b0;
            end
        end
    endgenerate
    assign wb_warp = p_warp_q[D];
    assign wb_pred_we = wb_v && p_kind_q[D] == K_PRED;
    assign wb_pred_idx = wb_rd[2:0];
    assign wb_pred_mask = wb_mask_l << (p_row_q[D] * LANES[5:0]);
    assign wb_pred_bits = wb_bits_l << (p_row_q[D] * LANES[5:0]);
    assign sb_clr = wb_v && p_last_q[D];
    wire wb_tex = p_cls_q[D] == C_TEX;
    generate
        if (RF_WORDS == 64) begin : g_sbc64
            assign sb_clr_reg = (p_kind_q[D] != K_REG) ? 64'd0 :
                                ((64'd1 << wb_rd) | ({63'd0, wb_tex} << (wb_rd + 6'd1)) | ({63'd0, wb_tex} << (wb_rd + 6'd2)) |
                                 ({63'd0, wb_tex} << (wb_rd + 6'd3))) & ~64'h8000000000000000;
        end else begin : g_sbcn   // scoreboard of RF_WORDS entries (simt_warp SB_WORDS): register r -> r mod RF_WORDS
            localparam integer RFB = (RF_WORDS > 1) ? $clog2(RF_WORDS) : 1;
            // verilator lint_off UNUSEDSIGNAL
            function [RF_WORDS-1:0] rb(input en, input [5:0] r);
                rb = (en && r != 6'd63) ? ({{(RF_WORDS-1){1'b0}}, 1'b1} << r[RFB-1:0]) : {RF_WORDS{1'b0}};
            endfunction
            // verilator lint_on UNUSEDSIGNAL
            assign sb_clr_reg = (p_kind_q[D] != K_REG) ? 64'd0 :
                                {{(64 - RF_WORDS){1'b0}}, rb(1'b1, wb_rd) | rb(wb_tex, wb_rd + 6'd1) |
                                 rb(wb_tex, wb_rd + 6'd2) | rb(wb_tex, wb_rd + 6'd3)};
        end
    endgenerate
    assign sb_clr_pred = (p_kind_q[D] == K_PRED) ? (7'd1 << wb_rd[2:0]) : 7'd0;

    assign rt_valid_o = wb_v;
    assign rt_first_o = wb_v && p_first_q[D];
    assign rt_last_o = wb_v && p_last_q[D];
    assign rt_warp_o = wb_v ? p_warp_q[D] : 5'd0;
    assign rt_pc_o = wb_v ? p_pc_q[D] : 16'd0;
    assign rt_active_o = wb_v ? p_active_q[D] : 32'd0;
    assign rt_wmask_o = wb_v ? p_ex_q[D] : 32'd0;
    assign rt_row_o = wb_v ? p_row_q[D] : 5'd0;
    assign rt_minor_o = wb_v ? p_minor_q[D] : 2'd0;
    assign rt_lane_en_o = wb_v ? p_lane_en_q[D] : {LANES{1'b0}};
    assign rt_kind_o = wb_v ? p_kind_q[D] : 3'd0;
    assign rt_dst_o = !wb_v ? 6'd0 : (p_kind_q[D] == K_PRED) ? {3'd0, wb_rd[2:0]} : (p_kind_q[D] == K_REG) ? wb_rd : 6'd0;
    generate
        for (gl = 0; gl < LANES; gl = gl + 1) begin : g_rt
            wire on = wb_v && wb_exl[gl];
            assign rt_val_o[gl*32 +: 32] = on ? wb_val[gl*32 +: 32] : 32'd0;
            assign rt_addr_o[gl*6 +: 6] = (on && p_cls_q[D] == C_ST) ? p_addr_q[D][gl*6 +: 6] : 6'd0;
        end
    endgenerate

    // ================================================================ status, issue (debug)
    reg p_any;
    always @(*) begin
        p_any = 1'b0;
        for (j = 1; j <= D; j = j + 1) p_any = p_any | p_v_q[j];
    end
    assign idle_o = !(|run_o) && !s0_v_q && !s1_v_q && !p_any && !fetch_v_q;
    assign issue_valid_o = can_issue && isel_v;
    assign issue_warp_o = issue_valid_o ? isel : 5'd0;
    assign issue_pc_o = issue_valid_o ? w_pc[isel*16 +: 16] : 16'd0;

    // verilator lint_off UNUSEDSIGNAL
    wire unused_ok = &{1'b0, s0_nu0, s0_nu1, s0_nu2, s0_nu3, s0_nu4, s0_nu5, s0_nu6, s0_nu7, s0_nu8, s0_nu9,
                       s0_nu10, s1_nu0, s1_nu1, s1_nu2, s1_nu3, s1_nu4, s1_nu5, s1_nu6, s1_nu7, s1_nu8, s1_nu9,
                       s1_nu10, w_sb, w_sp, imem_addr_i, fsel_pc};
    // verilator lint_on UNUSEDSIGNAL
endmodule

`default_nettype wire
