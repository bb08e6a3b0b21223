// SIMT core: control state of one warp, the small-FPGA form (simt_core INT_AREA = 1; docs/simt.md section 6).
// This is rtl/simt_warp.v as of a673237 (session 4), before two timing changes for 200 MHz OSU that only move
// work between cycles: the stack-array writes of an issue applied one cycle later with forwarding to a pop
// (pw_*, 9014045) and the scoreboard set one cycle after the issue (ps_*, ae88835); and without the registered
// copies of the active mask and the guard value (active_q, gval_q of b486d1c). Same ports, same behaviour and
// cycles (all three are "no cycle changes"); the lockstep of the iCE40 configuration checks this file against
// the same C cycle model every cycle. The description of simt_warp.v below applies.
// SIMT core: control state of one warp (one instance per warp slot). Mirrors simt_hw_warp_t and the
// per-warp parts of simt_hw_clock() in cmodel/simt/simt_hw.c.
//   - reconvergence stack {pc, mask, rpc} x 32 (docs/isa.md section 4), exited mask
//   - settle: after every issue the top entry is re-checked, one pop per cycle, until it is live
//   - instruction buffer (one instruction, filled by the core's fetch arbiter)
//   - scoreboard: one pending bit per register and predicate with a write in flight
//   - predicate registers p0..p6 (32-bit lane masks; p7 = pt reads all ones)
// Issue readiness: running, settled, instruction buffered, no scoreboard hazard on its sources,
// destinations and guard, and (bra) no stack overflow. A bra that would overflow stops the warp (err_o).
// Timing (docs/simt.md, synthesis): ready_o feeds the core's issue select, whose grant (issue_i) updates the
// stack in the same cycle, so ready_o is kept short: the registers/predicates an instruction reads and writes
// are decoded into masks when it arrives (fetch return, chk_*_q), and the top stack entry is also held in
// registers (top_*_q, a copy of entry sp-1, reloaded from the array on a pop). Neither changes any cycle.
`timescale 1ns / 1ps
`default_nettype none
`include "isa_defs.vh"

module simt_warp_area #(
    parameter integer STACK_DEPTH = 32,    // reconvergence stack entries: 4, 8, 16 or 32 (the ISA's is 32)
    // scoreboard entries (reduced configurations: the core's RF_WORDS, 2..64, power of 2): register r is
    // tracked by entry r mod SB_WORDS, as the register bank stores it (rz never pending); 64 = one per register
    parameter integer SB_WORDS = 64
) (
    input  wire          clk_i,
    input  wire          rst_ni,
    input  wire [12:0]   prog_len_i,
    input  wire          launch_i,
    input  wire [31:0]   launch_mask_i,
    input  wire [31:0]   launch_wid_i,
    input  wire          issue_i,          // the core issues this warp's buffered instruction this cycle
    input  wire          fetch_grant_i,    // the core fetches for this warp this cycle
    input  wire          fetch_ret_i,      // fetched instruction arrives
    input  wire [63:0]   fetch_data_i,
    input  wire          wb_pred_we_i,
    input  wire [2:0]    wb_pred_idx_i,
    input  wire [31:0]   wb_pred_mask_i,
    input  wire [31:0]   wb_pred_bits_i,
    input  wire          sb_clr_i,
    // verilator lint_off UNUSEDSIGNAL
    input  wire [63:0]   sb_clr_reg_i,     // (bits SB_WORDS..63 unused when SB_WORDS < 64)
    // verilator lint_on UNUSEDSIGNAL
    input  wire [6:0]    sb_clr_pred_i,
    output reg           run_o,
    output reg           err_o,
    output wire          ready_o,          // may issue this cycle
    output wire          fetch_req_o,      // wants an instruction fetched
    output wire [15:0]   pc_o,             // top-of-stack pc
    output wire [31:0]   active_o,         // top-of-stack mask minus exited lanes
    output wire [31:0]   ex_o,             // active lanes whose guard passes (buffered instruction)
    output wire [63:0]   ibuf_o,
    output wire [5:0]    sp_o,
    output wire [7*32-1:0] pred_o,         // p0..p6
    output wire [31:0]   wid_o,
    output wire [63:0]   sb_reg_o
);
    localparam [16:0] RPC_NONE = 17'h10000;

    reg         settled_q, ibuf_v_q;
    reg [63:0]  ibuf_q;
    reg [31:0]  wid_q, exited_q;
    reg [5:0]   sp_q;
    localparam integer SW = $clog2(STACK_DEPTH);   // stack index width
    generate
        if (STACK_DEPTH != 4 && STACK_DEPTH != 8 && STACK_DEPTH != 16 && STACK_DEPTH != 32) begin : g_bad_depth
            simt_warp_STACK_DEPTH_must_be_4_8_16_or_32 u_bad ();   // elaboration error on purpose
        end
    endgenerate
    reg [15:0]  spc_q [0:STACK_DEPTH-1];
    reg [31:0]  smask_q [0:STACK_DEPTH-1];
    reg [16:0]  srpc_q [0:STACK_DEPTH-1];
    localparam integer SBW = SB_WORDS;
    localparam integer SBB = (SBW > 1) ? $clog2(SBW) : 1;
    reg [SBW-1:0] sb_reg_q;
    reg [6:0]   sb_pred_q;
    reg [31:0]  pred_q [0:6];
    reg [SBW-1:0] chk_reg_q;               // registers the buffered instruction reads or writes
    reg [6:0]   chk_pred_q;                // predicates it reads or writes
    reg [15:0]  top_pc_q;                  // copy of the top entry, stack[sp-1]
    reg [31:0]  top_mask_q;
    reg [16:0]  top_rpc_q;

    // ---------------------------------------------------------------- top of stack, guard
    localparam [SW-1:0] S1 = 1, S2 = 2;
    wire [SW-1:0] top = sp_q[SW-1:0] - S1;
    wire [SW-1:0] below = sp_q[SW-1:0] - S2;   // the entry that becomes the top on a pop
    wire [SW-1:0] top1 = top + S1;
    wire [SW-1:0] top2 = top + S2;
    wire [15:0] top_pc = top_pc_q;
    wire [16:0] top_rpc = top_rpc_q;
    // The active mask and the guard predicate's value are computed from the registers they depend on (simt_warp.v
    // keeps copies in registers, active_q and gval_q, for timing since b486d1c: the same values every cycle).
    wire [31:0] active = top_mask_q & ~exited_q;

    wire [2:0]  gp = ibuf_q[`ISA_F_GP_HI:`ISA_F_GP_LO];
    wire        gn = ibuf_q[`ISA_F_GN_HI];
    wire [31:0] gval = (gp == 3'd7) ? 32'hffffffff : pred_q[gp];
    wire [31:0] ex = active & (gn ? ~gval : gval);

    wire [2:0] cls, kind, pa, pb;
    wire use_ra, use_rb, use_rc, use_ra1, use_pa, use_pb, dst_reg, dst_pred, ndst4;
    simt_decode u_dec (
        .insn_i(ibuf_q), .cls_o(cls), .kind_o(kind), .use_ra_o(use_ra), .use_rb_o(use_rb), .use_rc_o(use_rc),
        .use_ra1_o(use_ra1), .use_pa_o(use_pa), .use_pb_o(use_pb), .pa_o(pa), .pb_o(pb),
        .dst_reg_o(dst_reg), .dst_pred_o(dst_pred), .ndst4_o(ndst4));

    // ---------------------------------------------------------------- scoreboard check
    wire [5:0] rd = ibuf_q[`ISA_F_RD_HI:`ISA_F_RD_LO];
    wire [SBW-1:0] dregs, f_chk_reg;
    wire [6:0] dpred = dst_pred ? (7'd1 << rd[2:0]) : 7'd0;   // rd[2:0] = 7 (pt) shifts out
    // the same masks of the arriving instruction (fetch_data_i), registered with it: hazard is then one AND-OR
    wire [2:0] f_cls, f_kind, f_pa, f_pb;
    wire f_use_ra, f_use_rb, f_use_rc, f_use_ra1, f_use_pa, f_use_pb, f_dst_reg, f_dst_pred, f_ndst4;
    simt_decode u_fdec (
        .insn_i(fetch_data_i), .cls_o(f_cls), .kind_o(f_kind), .use_ra_o(f_use_ra), .use_rb_o(f_use_rb),
        .use_rc_o(f_use_rc), .use_ra1_o(f_use_ra1), .use_pa_o(f_use_pa), .use_pb_o(f_use_pb), .pa_o(f_pa),
        .pb_o(f_pb), .dst_reg_o(f_dst_reg), .dst_pred_o(f_dst_pred), .ndst4_o(f_ndst4));
    wire [5:0] f_ra = fetch_data_i[`ISA_F_RA_HI:`ISA_F_RA_LO];
    wire [5:0] f_rb = fetch_data_i[`ISA_F_RB_HI:`ISA_F_RB_LO];
    wire [5:0] f_rc = fetch_data_i[`ISA_F_RC_HI:`ISA_F_RC_LO];
    wire [5:0] f_rd = fetch_data_i[`ISA_F_RD_HI:`ISA_F_RD_LO];
    wire [2:0] f_gp = fetch_data_i[`ISA_F_GP_HI:`ISA_F_GP_LO];
    generate
        if (SBW == 64) begin : g_sb64
            assign dregs = (({63'd0, dst_reg} << rd) | ({63'd0, ndst4} << (rd + 6'd1)) |
                            ({63'd0, ndst4} << (rd + 6'd2)) | ({63'd0, ndst4} << (rd + 6'd3))) &
                           ~64'h8000000000000000;
            assign f_chk_reg = (({63'd0, f_use_ra} << f_ra) | ({63'd0, f_use_rb} << f_rb) |
                                ({63'd0, f_use_rc} << f_rc) | ({63'd0, f_use_ra1} << (f_ra + 6'd1)) |
                                ({63'd0, f_dst_reg} << f_rd) | ({63'd0, f_ndst4} << (f_rd + 6'd1)) |
                                ({63'd0, f_ndst4} << (f_rd + 6'd2)) | ({63'd0, f_ndst4} << (f_rd + 6'd3))) &
                               ~64'h8000000000000000;   // rz is never pending
        end else begin : g_sbn
            // entry of register r (6-bit, wrapped as the ISA does) if en: r mod SB_WORDS; rz never pending
            // verilator lint_off UNUSEDSIGNAL
            function [SBW-1:0] rb(input en, input [5:0] r);
                rb = (en && r != 6'd63) ? ({{(SBW-1){1'b0}}, 1'b1} << r[SBB-1:0]) : {SBW{1'b0}};
            endfunction
            // verilator lint_on UNUSEDSIGNAL
            assign dregs = rb(dst_reg, rd) | rb(ndst4, rd + 6'd1) | rb(ndst4, rd + 6'd2) | rb(ndst4, rd + 6'd3);
            assign f_chk_reg = rb(f_use_ra, f_ra) | rb(f_use_rb, f_rb) | rb(f_use_rc, f_rc) | rb(f_use_ra1, f_ra + 6'd1) |
                               rb(f_dst_reg, f_rd) | rb(f_ndst4, f_rd + 6'd1) | rb(f_ndst4, f_rd + 6'd2) |
                               rb(f_ndst4, f_rd + 6'd3);
        end
    endgenerate
    // verilator lint_off UNUSEDSIGNAL
    wire [7:0] f_chk_pred = (8'd1 << f_gp) | ({7'd0, f_use_pa} << f_pa) | ({7'd0, f_use_pb} << f_pb) |
                            ({7'd0, f_dst_pred} << f_rd[2:0]);
    // verilator lint_on UNUSEDSIGNAL
    wire hazard = (chk_reg_q & sb_reg_q) != {SBW{1'b0}} || (chk_pred_q & sb_pred_q) != 7'd0;

    // ---------------------------------------------------------------- branch
    wire        is_bra = ibuf_q[`ISA_F_OP_HI:`ISA_F_OP_LO] == `ISA_OP_BRA;
    wire        is_exit = ibuf_q[`ISA_F_OP_HI:`ISA_F_OP_LO] == `ISA_OP_EXIT;
    wire [15:0] tgt = ibuf_q[`ISA_F_TGT_HI:`ISA_F_TGT_LO];
    wire [15:0] rpc = ibuf_q[`ISA_F_RPC_HI:`ISA_F_RPC_LO];
    wire [31:0] fall = active & ~ex;
    wire        split = is_bra && ex != 32'd0 && fall != 32'd0;
    wire        same_rpc = top_rpc == {1'b0, rpc};
    wire [6:0]  need = same_rpc ? 7'd1 : 7'd2;
    wire        ovf = split && ({1'b0, sp_q} + need) > STACK_DEPTH[6:0];
    wire [15:0] npc = top_pc + 16'd1;

    wire        top_dead = (active == 32'd0) || ({1'b0, top_pc} == top_rpc);

    assign ready_o = run_o && settled_q && ibuf_v_q && !hazard && !ovf;
    assign fetch_req_o = run_o && settled_q && !ibuf_v_q;
    assign pc_o = top_pc;
    assign active_o = active;
    assign ex_o = ex;
    assign ibuf_o = ibuf_q;
    assign sp_o = sp_q;
    assign wid_o = wid_q;
    generate
        if (SBW == 64) begin : g_sbo64
            assign sb_reg_o = sb_reg_q;
        end else begin : g_sbon
            assign sb_reg_o = {{(64 - SBW){1'b0}}, sb_reg_q};
        end
    endgenerate
    genvar gi;
    generate
        for (gi = 0; gi < 7; gi = gi + 1) begin : g_pred_o
            assign pred_o[gi*32 +: 32] = pred_q[gi];
        end
    endgenerate

    // ---------------------------------------------------------------- control registers
    always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
            run_o <= 1'b0;
            err_o <= 1'b0;
            settled_q <= 1'b0;
            ibuf_v_q <= 1'b0;
            sp_q <= 6'd0;
        end else if (launch_i) begin
            run_o <= 1'b1;
            err_o <= 1'b0;
            settled_q <= 1'b0;
            ibuf_v_q <= 1'b0;
            sp_q <= 6'd1;
        end else begin
            if (issue_i) begin
                ibuf_v_q <= 1'b0;
                settled_q <= 1'b0;
                if (split) sp_q <= sp_q + (same_rpc ? 6'd1 : 6'd2);
            end else begin
                if (run_o && !settled_q) begin
                    if (sp_q == 6'd0) run_o <= 1'b0;
                    else if (top_dead) sp_q <= sp_q - 6'd1;
                    else settled_q <= 1'b1;
                end else if (run_o && settled_q && ibuf_v_q && !hazard && ovf) begin
                    run_o <= 1'b0;
                    err_o <= 1'b1;
                end
                if (fetch_grant_i && {1'b0, top_pc} >= {4'd0, prog_len_i}) begin
                    run_o <= 1'b0;
                    err_o <= 1'b1;
                end
            end
            if (fetch_ret_i) ibuf_v_q <= 1'b1;
        end
    end

    // ---------------------------------------------------------------- data registers (no reset needed)

    integer k;
    always @(posedge clk_i) begin
        if (fetch_ret_i) begin
            ibuf_q <= fetch_data_i;
            chk_reg_q <= f_chk_reg;
            chk_pred_q <= f_chk_pred[6:0];
        end
        // top-of-stack copy: what stack[sp-1] holds after this edge (the array below is written alike)
        if (launch_i) begin
            top_pc_q <= 16'd0;
            top_mask_q <= launch_mask_i;
            top_rpc_q <= RPC_NONE;
        end else if (issue_i) begin
            if (!is_bra || ex == 32'd0) begin
                top_pc_q <= npc;
            end else if (fall == 32'd0) begin
                top_pc_q <= tgt;
            end else begin   // split: the fall-through entry is pushed last
                top_pc_q <= npc;
                top_mask_q <= fall;
                top_rpc_q <= {1'b0, rpc};
            end
        end else if (run_o && !settled_q && sp_q != 6'd0 && top_dead) begin
            top_pc_q <= spc_q[below];
            top_mask_q <= smask_q[below];
            top_rpc_q <= srpc_q[below];
        end
        if (launch_i) begin
            wid_q <= launch_wid_i;
            exited_q <= 32'd0;
            spc_q[0] <= 16'd0;
            smask_q[0] <= launch_mask_i;
            srpc_q[0] <= RPC_NONE;
            sb_reg_q <= {SBW{1'b0}};
            sb_pred_q <= 7'd0;
            for (k = 0; k < 7; k = k + 1) pred_q[k] <= 32'd0;
        end else begin
            sb_reg_q <= (sb_reg_q & ~(sb_clr_i ? sb_clr_reg_i[SBW-1:0] : {SBW{1'b0}})) | (issue_i ? dregs : {SBW{1'b0}});
            sb_pred_q <= (sb_pred_q & ~(sb_clr_i ? sb_clr_pred_i : 7'd0)) | (issue_i ? dpred : 7'd0);
            if (wb_pred_we_i && wb_pred_idx_i != 3'd7)
                pred_q[wb_pred_idx_i] <= (pred_q[wb_pred_idx_i] & ~wb_pred_mask_i) | (wb_pred_bits_i & wb_pred_mask_i);
            if (issue_i) begin
                if (is_exit) exited_q <= exited_q | ex;
                if (!is_bra || ex == 32'd0) begin
                    spc_q[top] <= npc;
                end else if (fall == 32'd0) begin
                    spc_q[top] <= tgt;
                end else if (same_rpc) begin
                    spc_q[top] <= tgt;
                    smask_q[top] <= ex;
                    spc_q[top1] <= npc;
                    smask_q[top1] <= fall;
                    srpc_q[top1] <= {1'b0, rpc};
                end else begin
                    spc_q[top] <= rpc;
                    spc_q[top1] <= tgt;
                    smask_q[top1] <= ex;
                    srpc_q[top1] <= {1'b0, rpc};
                    spc_q[top2] <= npc;
                    smask_q[top2] <= fall;
                    srpc_q[top2] <= {1'b0, rpc};
                end
            end
        end
    end

    // verilator lint_off UNUSEDSIGNAL
    wire unused_ok = &{1'b0, cls, kind, use_ra, use_rb, use_rc, use_ra1, use_pa, use_pb, pa, pb, f_cls, f_kind};
    // verilator lint_on UNUSEDSIGNAL
endmodule

`default_nettype wire
