`default_nettype none
// Proofs of one warp's control (rtl/simt_warp.v): the scoreboard and the reconvergence stack (docs/simt.md
// section 3, tests/formal/simt_warp_formal.sh). This wrapper is not part of the synthesized RTL: it instantiates
// the unchanged warp, constrains its inputs as simt_core drives them (assume) and checks properties (assert).
// Internal signals are read through probe wires connected after `flatten` (Yosys 0.23 has no `bind`).
//
// Environment (the core's contract, as in scripts/simt_warp_bmc.sh): reset in the first cycle; a launch only
// outside reset and only into a stopped warp; issue only when ready_o; a fetch only on fetch_req_o and not while
// one is in flight, its instruction returns in the next cycle (any 64-bit word); a write-back clears only entries that are pending in
// the shadow scoreboard below (a destination of an issued instruction); predicate write data free.
//
// Shadow scoreboard: pend_r / pend_p are the registers and predicates written by issued instructions whose
// write-back has not cleared them yet (set at the issue, cleared by sb_clr_*). Properties:
//   W1 no issue while a source, a destination or the guard of the instruction is pending in the shadow;
//   W2 no extra stall: a running, settled warp with its instruction buffered and no overflow is ready exactly
//      when none of the instruction's operands is pending in the shadow (hazard_rtl == hazard_spec);
//   W3 a pending write retires: the unit's scoreboard is the shadow (after the delayed set of TIMING_REGS), so
//      the write-back that clears an entry frees it in the next cycle and nothing else does;
//   S1 stack bounds: 0 <= sp <= STACK_DEPTH; a running settled warp has sp >= 1; a bra that would overflow is
//      never issued (err_o instead);
//   S2 push/pop discipline: every live entry's mask is within the launch mask; at a split the taken and the
//      fall-through lanes partition the active lanes; a split pushes one entry (same reconvergence pc) or two;
//      the warp's next pc after an issue is the top entry's (npc, tgt or the fall-through entry);
//   S3 (TIMING_REGS = 1) the registered copies are what they copy: top-of-stack registers = stack[sp-1]
//      outside the cycle after an issue, active = top mask minus exited lanes, the registered guard value =
//      the guard predicate, the registered hazard masks = the decode of the buffered instruction.
module simt_warp_formal #(
    parameter integer STACK_DEPTH = 4,
    parameter integer TIMING_REGS = 1
) (
    input wire        clk_i,
    input wire [12:0] prog_len_i,
    input wire        launch_req,
    input wire [31:0] launch_mask_i,
    input wire [31:0] launch_wid_i,
    input wire        issue_req,
    input wire        grant_req,
    input wire [63:0] fetch_data_i,
    input wire        wb_pred_we_i,
    input wire [2:0]  wb_pred_idx_i,
    input wire [31:0] wb_pred_mask_i,
    input wire [31:0] wb_pred_bits_i,
    input wire        sb_clr_i,
    input wire [63:0] sb_clr_reg_i,
    input wire [6:0]  sb_clr_pred_i
);
    localparam integer SW = $clog2(STACK_DEPTH);
    reg init = 1'b1;
    always @(posedge clk_i) init <= 1'b0;
    wire rst_ni = !init;

    wire run, err, rdy, freq;
    wire [15:0] pc;
    wire [31:0] act, ex, wid;
    wire [63:0] ib, sb;
    wire [5:0] sp;
    wire [223:0] pr;
    wire launch = launch_req && !init && !run;
    wire issue = issue_req && rdy && !launch;
    reg  fret = 1'b0;                          // the fetch granted in the previous cycle returns
    // (simt_core grants a fetch only to a warp without one in flight)
    wire grant = grant_req && freq && !launch && !fret;
    always @(posedge clk_i) fret <= grant;
    simt_warp #(.STACK_DEPTH(STACK_DEPTH), .SB_WORDS(64), .TIMING_REGS(TIMING_REGS)) dut (
        .clk_i(clk_i), .rst_ni(rst_ni), .prog_len_i(prog_len_i), .launch_i(launch), .launch_mask_i(launch_mask_i),
        .launch_wid_i(launch_wid_i), .issue_i(issue), .fetch_grant_i(grant), .fetch_ret_i(fret),
        .fetch_data_i(fetch_data_i), .wb_pred_we_i(wb_pred_we_i), .wb_pred_idx_i(wb_pred_idx_i),
        .wb_pred_mask_i(wb_pred_mask_i), .wb_pred_bits_i(wb_pred_bits_i), .sb_clr_i(sb_clr_i),
        .sb_clr_reg_i(sb_clr_reg_i), .sb_clr_pred_i(sb_clr_pred_i),
        .run_o(run), .err_o(err), .ready_o(rdy), .fetch_req_o(freq), .pc_o(pc), .active_o(act), .ex_o(ex),
        .ibuf_o(ib), .sp_o(sp), .pred_o(pr), .wid_o(wid), .sb_reg_o(sb));

    // ---------------------------------------------------------------- probes (connected by the flow script)
    (* keep *) wire        p_settled, p_ibuf_v, p_hazard, p_split, p_ovf, p_same_rpc, p_pw_v, p_ps_v;
    (* keep *) wire [31:0] p_exited, p_top_mask, p_fall, p_gval;
    (* keep *) wire [15:0] p_top_pc;
    (* keep *) wire [16:0] p_top_rpc;
    (* keep *) wire [63:0] p_chk_reg, p_ps_reg;
    (* keep *) wire [6:0]  p_chk_pred, p_ps_pred, p_sb_pred;
    (* keep *) wire [1:0]  p_pw_case;                // the stack write of an issue (TIMING_REGS: pending a cycle)
    (* keep *) wire [SW-1:0] p_pw_top;
    (* keep *) wire [15:0] p_pw_pc0, p_pw_pc1, p_pw_npc, p_pw_rpc;
    (* keep *) wire [31:0] p_pw_ex, p_pw_fall;
    (* keep *) wire [STACK_DEPTH*32-1:0] p_smask;   // stack masks, entry i at [32i +: 32]
    (* keep *) wire [STACK_DEPTH*16-1:0] p_spc;
    (* keep *) wire [STACK_DEPTH*17-1:0] p_srpc;

    // ---------------------------------------------------------------- the specification's decode of the buffer
    wire [2:0] cls, kind, pa, pb;
    wire use_ra, use_rb, use_rc, use_ra1, use_pa, use_pb, dst_reg, dst_pred, ndst4;
    simt_decode u_spec_dec (
        .insn_i(ib), .cls_o(cls), .kind_o(kind), .use_ra_o(use_ra), .use_rb_o(use_rb), .use_rc_o(use_rc),
        .use_ra1_o(use_ra1), .use_pa_o(use_pa), .use_pb_o(use_pb), .pa_o(pa), .pb_o(pb),
        .dst_reg_o(dst_reg), .dst_pred_o(dst_pred), .ndst4_o(ndst4));
    wire [5:0] ra = ib[`ISA_F_RA_HI:`ISA_F_RA_LO];
    wire [5:0] rb = ib[`ISA_F_RB_HI:`ISA_F_RB_LO];
    wire [5:0] rc = ib[`ISA_F_RC_HI:`ISA_F_RC_LO];
    wire [5:0] rd = ib[`ISA_F_RD_HI:`ISA_F_RD_LO];
    wire [2:0] gp = ib[`ISA_F_GP_HI:`ISA_F_GP_LO];
    function [63:0] rbit(input en, input [5:0] r);   // register r as a mask bit (rz = r63 never pending)
        rbit = (en && r != 6'd63) ? (64'd1 << r) : 64'd0;
    endfunction
    wire [63:0] src_r = rbit(use_ra, ra) | rbit(use_rb, rb) | rbit(use_rc, rc) | rbit(use_ra1, ra + 6'd1);
    wire [63:0] dst_r = rbit(dst_reg, rd) | rbit(ndst4, rd + 6'd1) | rbit(ndst4, rd + 6'd2) | rbit(ndst4, rd + 6'd3);
    wire [7:0]  src_p8 = (8'd1 << gp) | ({7'd0, use_pa} << pa) | ({7'd0, use_pb} << pb);
    wire [7:0]  dst_p8 = {7'd0, dst_pred} << rd[2:0];
    wire [6:0]  src_p = src_p8[6:0], dst_p = dst_p8[6:0];   // p7 (pt) is never pending

    // ---------------------------------------------------------------- shadow scoreboard
    reg [63:0] pend_r = 64'd0;
    reg [6:0]  pend_p = 7'd0;
    always @(posedge clk_i) begin
        if (init || launch) begin
            pend_r <= 64'd0;
            pend_p <= 7'd0;
        end else begin
            pend_r <= (pend_r & ~(sb_clr_i ? sb_clr_reg_i : 64'd0)) | (issue ? dst_r : 64'd0);
            pend_p <= (pend_p & ~(sb_clr_i ? sb_clr_pred_i : 7'd0)) | (issue ? dst_p : 7'd0);
        end
    end
    wire hazard_spec = ((src_r | dst_r) & pend_r) != 64'd0 || ((src_p | dst_p) & pend_p) != 7'd0;

    // ---------------------------------------------------------------- assumptions
    // the destinations of an issue in the previous cycle: the core writes back at the earliest D + 1 >= 3 cycles
    // after the issue (S0, S1, P[1..D]), never in the next cycle
    reg [63:0] dst_q = 64'd0;
    reg [6:0]  dstp_q = 7'd0;
    always @(posedge clk_i) begin
        dst_q <= (issue && !init) ? dst_r : 64'd0;
        dstp_q <= (issue && !init) ? dst_p : 7'd0;
    end
    always @* begin
        // a write-back clears only what is pending (the core retires issued writes, rz never), and not the
        // destinations of the issue one cycle before
        if (sb_clr_i) assume ((sb_clr_reg_i & ~pend_r) == 64'd0 && (sb_clr_pred_i & ~pend_p) == 7'd0);
        if (sb_clr_i) assume ((sb_clr_reg_i & dst_q) == 64'd0 && (sb_clr_pred_i & dstp_q) == 7'd0);
    end
    reg [31:0] lmask = 32'd0;                 // launch mask of the running warp
    reg        lv = 1'b0;                     // launched since reset (the scoreboard is cleared at a launch)
    always @(posedge clk_i) if (launch) lmask <= launch_mask_i;
    always @(posedge clk_i) lv <= !init && (lv || launch);
    reg        issued_q = 1'b0;               // an issue in the previous cycle (S2 next-pc check)
    reg [15:0] exp_pc = 16'd0;
    reg        exp_v = 1'b0;
    always @(posedge clk_i) begin
        issued_q <= issue && !init;
        // the top entry's pc after the issue: npc (no lane jumps), tgt (all jump), or npc of the pushed
        // fall-through entry (split)
        exp_pc <= (ib[`ISA_F_OP_HI:`ISA_F_OP_LO] == `ISA_OP_BRA && ex != 32'd0 && (act & ~ex) == 32'd0) ?
                  ib[`ISA_F_TGT_HI:`ISA_F_TGT_LO] : pc + 16'd1;
        exp_v <= issue && !init;
    end

    // ---------------------------------------------------------------- the stack as it is after a pending write
    // With TIMING_REGS the stack-array write of an issue lands one cycle later (pw_v): entry i of the effective
    // stack is the array's, or what the pending write puts there (rtl/simt_warp.v PW_A..PW_D).
    integer i;
    localparam [1:0] PW_C = 2'd2, PW_D = 2'd3;
    wire pw_pend = (TIMING_REGS != 0) && p_pw_v;
    wire [SW-1:0] pw_t1 = p_pw_top + 1'b1, pw_t2 = p_pw_top + 2'd2;
    reg [STACK_DEPTH*32-1:0] e_mask;
    reg [STACK_DEPTH*16-1:0] e_pc;
    reg [STACK_DEPTH*17-1:0] e_rpc;
    always @* begin
        e_mask = p_smask; e_pc = p_spc; e_rpc = p_srpc;
        for (i = 0; i < STACK_DEPTH; i = i + 1) if (pw_pend) begin
            if (p_pw_top == i) begin
                e_pc[16*i +: 16] = p_pw_pc0;
                if (p_pw_case == PW_C) e_mask[32*i +: 32] = p_pw_ex;
            end
            if ((p_pw_case == PW_C || p_pw_case == PW_D) && pw_t1 == i) begin
                e_pc[16*i +: 16] = p_pw_pc1;
                e_mask[32*i +: 32] = (p_pw_case == PW_C) ? p_pw_fall : p_pw_ex;
                e_rpc[17*i +: 17] = {1'b0, p_pw_rpc};
            end
            if (p_pw_case == PW_D && pw_t2 == i) begin
                e_pc[16*i +: 16] = p_pw_npc;
                e_mask[32*i +: 32] = p_pw_fall;
                e_rpc[17*i +: 17] = {1'b0, p_pw_rpc};
            end
        end
    end
    wire [5:0] pw_sp = {{(6-SW){1'b0}}, p_pw_top} + 6'd1 + ((p_pw_case == PW_C) ? 6'd1 : (p_pw_case == PW_D) ? 6'd2 : 6'd0);

    // ---------------------------------------------------------------- properties
    reg masks_ok;
    always @* begin
        masks_ok = 1'b1;
        for (i = 0; i < STACK_DEPTH; i = i + 1)
            if (i < sp && (e_mask[32*i +: 32] & ~lmask) != 32'd0) masks_ok = 1'b0;
    end
    reg [SW-1:0] topi;
    reg [31:0] arr_mask;
    reg [15:0] arr_pc;
    reg [16:0] arr_rpc;
    always @* begin
        topi = sp[SW-1:0] - 1'b1;
        arr_mask = 32'd0; arr_pc = 16'd0; arr_rpc = 17'd0;
        for (i = 0; i < STACK_DEPTH; i = i + 1)
            if (topi == i) begin
                arr_mask = e_mask[32*i +: 32]; arr_pc = e_pc[16*i +: 16]; arr_rpc = e_rpc[17*i +: 17];
            end
    end
    always @* begin
        if (!init) begin
            // W1
            if (issue) assert (!hazard_spec);
            // W2
            if (run && p_settled && p_ibuf_v && !p_ovf) assert (rdy == !hazard_spec);
            // W3 (the issue's set lands one cycle late with TIMING_REGS; nothing reads it earlier, W2)
            if (lv) assert ((sb | (pw_pend ? p_ps_reg : 64'd0)) == pend_r);
            if (lv) assert ((p_sb_pred | (pw_pend ? p_ps_pred : 7'd0)) == pend_p);
            // (a running warp was launched since reset: the shadow scoreboard is live)
            if (run) assert (lv);
            // S1
            assert (sp <= STACK_DEPTH);
            if (run && p_settled) assert (sp >= 6'd1);
            if (issue) assert (!p_ovf);
            // S2
            assert (masks_ok);
            if (issue && p_split) assert ((ex & (act & ~ex)) == 32'd0 && (ex | (act & ~ex)) == act && ex != 32'd0);
            if (exp_v && run) assert (pc == exp_pc);
            // (with sp = 0 the warp stops in this cycle: the pop read the entry below the stack, not a live one)
            if (run && sp != 6'd0) assert ((act & ~lmask) == 32'd0);
            // S3
            if (run && sp != 6'd0) assert (p_top_mask == arr_mask && p_top_pc == arr_pc && p_top_rpc == arr_rpc);
            if (run) assert (act == (p_top_mask & ~p_exited));
            if (run && p_ibuf_v) assert (p_chk_reg == (src_r | dst_r) && p_chk_pred == (src_p | dst_p));
            if (run && p_ibuf_v) assert (p_gval == ((gp == 3'd7) ? 32'hffffffff : pr[32*gp +: 32]));
        end
    end
    // ---------------------------------------------------------------- invariants of the induction (I1..I4)
    always @* begin
        if (!init) begin
            // I1 a fetch in flight: the buffer is empty, the warp settled (or stopped by the fetch)
            if (fret) assert (!p_ibuf_v);
            if (fret && run) assert (p_settled);
            // I2 the cycle after an issue (TIMING_REGS): the pending stack write and scoreboard set are the
            // issue's; the warp runs, unsettled, its buffer empty and no fetch in flight; the stack pointer is the
            // issue's plus the entries it pushed
            if (TIMING_REGS != 0) begin
                assert (p_ps_v == p_pw_v);
                if (p_pw_v) assert (run && !p_settled && !p_ibuf_v && !fret && sp == pw_sp);
                if (p_pw_v) assert (p_ps_reg == dst_q && p_ps_pred == dstp_q);
                // I3 the registered guard value is always the guard predicate of the buffer's instruction
                assert (p_gval == ((gp == 3'd7) ? 32'hffffffff : pr[32*gp +: 32]));
            end
            // I4 the destinations of the previous cycle's issue are recorded only after an issue
            if (!exp_v) assert (dst_q == 64'd0 && dstp_q == 7'd0);
        end
    end
    // covers: a split with two pushes and one with one push, a full stack, a hazard stall, a reconvergence pop
    always @* begin
        if (!init) begin
            cover (issue && p_split && !p_same_rpc);
            cover (issue && p_split && p_same_rpc);
            cover (sp == STACK_DEPTH && run);
            cover (run && p_settled && p_ibuf_v && p_hazard);
            cover (err);
        end
    end
endmodule
`default_nettype wire
