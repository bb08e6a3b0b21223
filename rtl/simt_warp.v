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
// stack in the same cycle, so ready_o is kept short. TIMING_REGS (docs/simt.md sections 1 and 6) selects the
// timing structures for 200 MHz OSU, each cycle-neutral: 1 (default): the registers/predicates an instruction
// reads and writes are decoded into masks when it arrives (fetch return, chk_*_q), the top stack entry is also
// held in registers (top_*_q, a copy of entry sp-1, reloaded from the array on a pop), the stack-array writes and
// the scoreboard set of an issue are applied one cycle after it (pw_*, ps_*), and the active mask and the guard
// value are held in registers (active_q, gval_q); 0 (simt_core INT_AREA = 1, the small-FPGA form): the masks are
// decoded from the buffered instruction, the top entry is read from the array, an issue writes the stack and sets
// the scoreboard at its own edge, the active mask and the guard value are combinational. Same ports, values and
// cycles at both settings.
`timescale 1ns / 1ps
`default_nettype none
`include "isa_defs.vh"

module simt_warp #(
    parameter integer STACK_DEPTH = 32,    // reconvergence stack entries: 4, 8, 16 or 32 (the ISA's is 32)
    // scoreboard entries (reduced configurations: the core's RF_WORDS, 2..64, power of 2): register r is
    // tracked by entry r mod SB_WORDS, as the register bank stores it (rz never pending); 64 = one per register
    parameter integer SB_WORDS = 64,
    // 1: the 200 MHz timing structures (registered hazard masks and top-of-stack copy, pending stack writes,
    // delayed scoreboard set, registered active mask and guard value); 0: without them (less area, same cycles;
    // simt_core INT_AREA = 1)
    parameter integer TIMING_REGS = 1
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
    wire [SBW-1:0] chk_reg;                // registers the buffered instruction reads or writes
    wire [6:0]  chk_pred;                  // predicates it reads or writes
    wire [15:0] top_pc;                    // the top entry, stack[sp-1]
    wire [31:0] top_mask;
    wire [16:0] top_rpc;

    // ---------------------------------------------------------------- top of stack, guard
    localparam [SW-1:0] S1 = 1, S2 = 2;
    wire [SW-1:0] top = sp_q[SW-1:0] - S1;
    // The active mask (top_mask & ~exited_q) and the guard predicate's value (all ones for pt); with
    // TIMING_REGS the registers active_q and gval_q below hold them (the issue loop: guard -> ex -> split/overflow
    // -> ready -> the core's select -> issue), else they are computed from the registers they depend on.
    wire [31:0] active, gval;

    wire [2:0]  gp = ibuf_q[`ISA_F_GP_HI:`ISA_F_GP_LO];
    wire        gn = ibuf_q[`ISA_F_GN_HI];
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
    // the registers and predicates an instruction reads or writes, as masks: with TIMING_REGS those of the arriving
    // instruction (fetch_data_i), registered with it (chk_*_q: hazard is then one AND-OR), else of the buffered one
    wire [63:0] f_insn = (TIMING_REGS != 0) ? fetch_data_i : ibuf_q;
    wire [2:0] f_cls, f_kind, f_pa, f_pb;
    wire f_use_ra, f_use_rb, f_use_rc, f_use_ra1, f_use_pa, f_use_pb, f_dst_reg, f_dst_pred, f_ndst4;
    simt_decode u_fdec (
        .insn_i(f_insn), .cls_o(f_cls), .kind_o(f_kind), .use_ra_o(f_use_ra), .use_rb_o(f_use_rb),
        .use_rc_o(f_use_rc), .use_ra1_o(f_use_ra1), .use_pa_o(f_use_pa), .use_pb_o(f_use_pb), .pa_o(f_pa),
        .pb_o(f_pb), .dst_reg_o(f_dst_reg), .dst_pred_o(f_dst_pred), .ndst4_o(f_ndst4));
    wire [5:0] f_ra = f_insn[`ISA_F_RA_HI:`ISA_F_RA_LO];
    wire [5:0] f_rb = f_insn[`ISA_F_RB_HI:`ISA_F_RB_LO];
    wire [5:0] f_rc = f_insn[`ISA_F_RC_HI:`ISA_F_RC_LO];
    wire [5:0] f_rd = f_insn[`ISA_F_RD_HI:`ISA_F_RD_LO];
    wire [2:0] f_gp = f_insn[`ISA_F_GP_HI:`ISA_F_GP_LO];
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
    wire hazard = (chk_reg & sb_reg_q) != {SBW{1'b0}} || (chk_pred & sb_pred_q) != 7'd0;

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
    // The stack-array write of an issue (pw_*): PW_A: pc of top = npc (no branch or no lane taken); PW_B: pc of
    // top = tgt (uniform jump); PW_C: same-rpc split (top {tgt, ex}, top+1 {npc, fall, rpc}); PW_D: split (top
    // pc = rpc, top+1 {tgt, ex, rpc}, top+2 {npc, fall, rpc}). The scoreboard set of an issue: ps_*.
    // (TIMING_REGS) The pop's read (rd_*): entry `below` as the array holds it after the issue's write.
    localparam [1:0] PW_A = 2'd0, PW_B = 2'd1, PW_C = 2'd2, PW_D = 2'd3;
    wire [1:0]    wcase = (!is_bra || ex == 32'd0) ? PW_A : (fall == 32'd0) ? PW_B : same_rpc ? PW_C : PW_D;
    wire          pw_v;
    wire [1:0]    pw_case;
    wire [SW-1:0] pw_top;
    wire [15:0]   pw_npc, pw_tgt, pw_rpc;
    wire [31:0]   pw_ex, pw_fall;
    wire          ps_v;
    wire [SBW-1:0] ps_reg;
    wire [6:0]    ps_pred;
    wire [SW-1:0] pw_top1 = pw_top + S1;
    wire [SW-1:0] pw_top2 = pw_top + S2;
    wire [15:0]   pw_pc0 = (pw_case == PW_A) ? pw_npc : (pw_case == PW_D) ? pw_rpc : pw_tgt;
    wire          pw_push = pw_case == PW_C || pw_case == PW_D;
    wire [15:0]   pw_pc1 = (pw_case == PW_C) ? pw_npc : pw_tgt;
    generate
        if (TIMING_REGS != 0) begin : g_tr
            // ---- hazard masks of the arriving instruction, registered with it; the top-of-stack copy
            reg [SBW-1:0] chk_reg_q;
            reg [6:0]     chk_pred_q;
            reg [15:0]    top_pc_q;
            reg [31:0]    top_mask_q;
            reg [16:0]    top_rpc_q;
            wire [SW-1:0] below = sp_q[SW-1:0] - S2;   // the entry that becomes the top on a pop
            reg [15:0]    rd_pc;                  // the pop's read (below)
            reg [31:0]    rd_mask;
            reg [16:0]    rd_rpc;
            always @(posedge clk_i) begin
                if (fetch_ret_i) begin
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
                    top_pc_q <= rd_pc;
                    top_mask_q <= rd_mask;
                    top_rpc_q <= rd_rpc;
                end
            end
            assign chk_reg = chk_reg_q;
            assign chk_pred = chk_pred_q;
            assign top_pc = top_pc_q;
            assign top_mask = top_mask_q;
            assign top_rpc = top_rpc_q;

            // ---- active mask and guard value in registers, updated from the next values of what they copy
            wire [2:0]  gp_n = fetch_ret_i ? fetch_data_i[`ISA_F_GP_HI:`ISA_F_GP_LO] : gp;
            wire [31:0] pred_n [0:6];
            for (gi = 0; gi < 7; gi = gi + 1) begin : g_pred_n
                assign pred_n[gi] = launch_i ? 32'd0 :
                                    (wb_pred_we_i && wb_pred_idx_i == gi[2:0]) ?
                                    ((pred_q[gi] & ~wb_pred_mask_i) | (wb_pred_bits_i & wb_pred_mask_i)) : pred_q[gi];
            end
            reg  [31:0] active_q, gval_q;
            assign active = active_q;
            assign gval = gval_q;
            always @(posedge clk_i) begin
                gval_q <= (gp_n == 3'd7) ? 32'hffffffff : pred_n[gp_n];
                if (launch_i)
                    active_q <= launch_mask_i;
                else if (issue_i)
                    active_q <= ((is_bra && ex != 32'd0 && fall != 32'd0) ? fall : top_mask) & ~(is_exit ? exited_q | ex : exited_q);
                else if (run_o && !settled_q && sp_q != 6'd0 && top_dead)
                    active_q <= rd_mask & ~exited_q;
            end

            // ---- stack-array writes of an issue applied one cycle later (for timing: the issue select no longer
            // drives the write enables of the 32-entry arrays). The issue's write is kept in pw_*_q (captured every
            // cycle, valid when pw_v_q); a pop in the cycle after the issue reads the entry through the forwarding
            // below. The warp cannot issue again in that cycle (it is unsettled and its instruction buffer empty),
            // so one pending write is enough.
            reg           pw_v_q;
            reg  [1:0]    pw_case_q;
            reg  [SW-1:0] pw_top_q;
            reg  [15:0]   pw_npc_q, pw_tgt_q, pw_rpc_q;
            reg  [31:0]   pw_ex_q, pw_fall_q;
            always @(posedge clk_i or negedge rst_ni) begin
                if (!rst_ni) pw_v_q <= 1'b0;
                else pw_v_q <= issue_i && !launch_i;
            end
            always @(posedge clk_i) begin
                pw_case_q <= wcase;
                pw_top_q <= top;
                pw_npc_q <= npc;
                pw_tgt_q <= tgt;
                pw_rpc_q <= rpc;
                pw_ex_q <= ex;
                pw_fall_q <= fall;
            end
            assign pw_v = pw_v_q;
            assign pw_case = pw_case_q;
            assign pw_top = pw_top_q;
            assign pw_npc = pw_npc_q;
            assign pw_tgt = pw_tgt_q;
            assign pw_rpc = pw_rpc_q;
            assign pw_ex = pw_ex_q;
            assign pw_fall = pw_fall_q;
            // With pw_v_q the issue was in the previous cycle and sp_q is the issue's sp plus the entries it pushed
            // (PW_A/PW_B 0, PW_C 1, PW_D 2), so below = sp_q - 2 is pw_top_q after a PW_C issue (the entry
            // rewritten to {tgt, ex}), pw_top1 after a PW_D issue (the pushed {tgt, ex, rpc}) and never pw_top2
            // or, after PW_A/PW_B, any written entry (docs/simt.md section 7: the two forwarding cases that remain
            // are the reachable ones; tests/simt/split_pop.s reaches both).
            always @(*) begin
                rd_pc = spc_q[below];
                rd_mask = smask_q[below];
                rd_rpc = srpc_q[below];
                if (pw_v_q && below == pw_top_q) begin            // after PW_C only
                    rd_pc = pw_pc0;
                    rd_mask = pw_ex_q;
                end else if (pw_v_q && below == pw_top1) begin    // after PW_D only
                    rd_pc = pw_pc1;
                    rd_mask = pw_ex_q;
                    rd_rpc = {1'b0, pw_rpc_q};
                end
            end

            // ---- the scoreboard bits of an issued instruction are set one cycle after the issue (for timing, like
            // the stack writes): nothing reads them earlier, as the warp's next instruction is fetched and checked
            // at the earliest three cycles after the issue, and a write-back cannot clear them before (the
            // destinations were not pending).
            reg           ps_v_q;
            reg [SBW-1:0] ps_reg_q;
            reg [6:0]     ps_pred_q;
            always @(posedge clk_i or negedge rst_ni) begin
                if (!rst_ni) ps_v_q <= 1'b0;
                else ps_v_q <= issue_i && !launch_i;
            end
            always @(posedge clk_i) begin
                ps_reg_q <= dregs;
                ps_pred_q <= dpred;
            end
            assign ps_v = ps_v_q;
            assign ps_reg = ps_reg_q;
            assign ps_pred = ps_pred_q;
        end else begin : g_notr
            // the same values without the registers: the issue writes the stack and sets the scoreboard at its own
            // edge, so the array holds the top entry and a pop (never in an issue cycle) reads the array as it is
            assign chk_reg = f_chk_reg;
            assign chk_pred = f_chk_pred[6:0];
            assign top_pc = spc_q[top];
            assign top_mask = smask_q[top];
            assign top_rpc = srpc_q[top];
            assign active = top_mask & ~exited_q;
            assign gval = (gp == 3'd7) ? 32'hffffffff : pred_q[gp];
            assign pw_v = issue_i && !launch_i;
            assign pw_case = wcase;
            assign pw_top = top;
            assign pw_npc = npc;
            assign pw_tgt = tgt;
            assign pw_rpc = rpc;
            assign pw_ex = ex;
            assign pw_fall = fall;
            assign ps_v = issue_i && !launch_i;
            assign ps_reg = dregs;
            assign ps_pred = dpred;
        end
    endgenerate
    integer k;
    always @(posedge clk_i) begin
        if (fetch_ret_i) ibuf_q <= fetch_data_i;
        if (pw_v) begin
            spc_q[pw_top] <= pw_pc0;
            if (pw_case == PW_C) smask_q[pw_top] <= pw_ex;
            if (pw_push) begin
                spc_q[pw_top1] <= pw_pc1;
                smask_q[pw_top1] <= (pw_case == PW_C) ? pw_fall : pw_ex;
                srpc_q[pw_top1] <= {1'b0, pw_rpc};
            end
            if (pw_case == PW_D) begin
                spc_q[pw_top2] <= pw_npc;
                smask_q[pw_top2] <= pw_fall;
                srpc_q[pw_top2] <= {1'b0, pw_rpc};
            end
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
            sb_reg_q <= (sb_reg_q & ~(sb_clr_i ? sb_clr_reg_i[SBW-1:0] : {SBW{1'b0}})) | (ps_v ? ps_reg : {SBW{1'b0}});
            sb_pred_q <= (sb_pred_q & ~(sb_clr_i ? sb_clr_pred_i : 7'd0)) | (ps_v ? ps_pred : 7'd0);
            if (wb_pred_we_i && wb_pred_idx_i != 3'd7)
                pred_q[wb_pred_idx_i] <= (pred_q[wb_pred_idx_i] & ~wb_pred_mask_i) | (wb_pred_bits_i & wb_pred_mask_i);
            if (issue_i) begin
                if (is_exit) exited_q <= exited_q | ex;
            end
        end
    end

    // verilator lint_off UNUSEDSIGNAL
    wire unused_ok = &{1'b0, cls, kind, use_ra, use_rb, use_rc, use_ra1, use_pa, use_pb, pa, pb, f_cls, f_kind};
    // verilator lint_on UNUSEDSIGNAL
endmodule

`default_nettype wire
