// SIMT core: control state of one warp (one instance per warp slot). Mirrors simt_hw_warp_t and the
// per-warp parts of simt_hw_clock() in cmodel/simt/simt_hw.c.
//   - reconvergence stack {pc, mask, rpc} x 32 (docs/isa.md section 4), exited mask
//   - settle: after every issue the top entry is re-checked, one pop per cycle, until it is live
//   - instruction buffer (one instruction, filled by the core's fetch arbiter)
//   - scoreboard: one pending bit per register and predicate with a write in flight
//   - predicate registers p0..p6 (32-bit lane masks; p7 = pt reads all ones)
// Issue readiness: running, settled, instruction buffered, no scoreboard hazard on its sources,
// destinations and guard, and (bra) no stack overflow. A bra that would overflow stops the warp (err_o).
`timescale 1ns / 1ps
`default_nettype none
`include "isa_defs.vh"

module simt_warp (
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
    input  wire [63:0]   sb_clr_reg_i,
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
    reg [15:0]  spc_q [0:31];
    reg [31:0]  smask_q [0:31];
    reg [16:0]  srpc_q [0:31];
    reg [63:0]  sb_reg_q;
    reg [6:0]   sb_pred_q;
    reg [31:0]  pred_q [0:6];

    // ---------------------------------------------------------------- top of stack, guard
    wire [4:0]  top = sp_q[4:0] - 5'd1;
    wire [15:0] top_pc = spc_q[top];
    wire [31:0] top_mask = smask_q[top];
    wire [16:0] top_rpc = srpc_q[top];
    wire [31:0] active = top_mask & ~exited_q;

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
    wire [5:0] ra = ibuf_q[`ISA_F_RA_HI:`ISA_F_RA_LO];
    wire [5:0] rb = ibuf_q[`ISA_F_RB_HI:`ISA_F_RB_LO];
    wire [5:0] rc = ibuf_q[`ISA_F_RC_HI:`ISA_F_RC_LO];
    wire [5:0] rd = ibuf_q[`ISA_F_RD_HI:`ISA_F_RD_LO];
    wire [63:0] src_regs = ({63'd0, use_ra} << ra) | ({63'd0, use_rb} << rb) | ({63'd0, use_rc} << rc) |
                           ({63'd0, use_ra1} << (ra + 6'd1));
    wire [63:0] dregs = (({63'd0, dst_reg} << rd) | ({63'd0, ndst4} << (rd + 6'd1)) |
                         ({63'd0, ndst4} << (rd + 6'd2)) | ({63'd0, ndst4} << (rd + 6'd3))) &
                        ~64'h8000000000000000;
    // verilator lint_off UNUSEDSIGNAL
    wire [7:0] src_preds = (8'd1 << gp) | ({7'd0, use_pa} << pa) | ({7'd0, use_pb} << pb) |
                           ({7'd0, dst_pred} << rd[2:0]);
    // verilator lint_on UNUSEDSIGNAL
    wire [6:0] dpred = dst_pred ? (7'd1 << rd[2:0]) : 7'd0;   // rd[2:0] = 7 (pt) shifts out
    wire hazard = ((src_regs | dregs) & sb_reg_q) != 64'd0 || (src_preds[6:0] & sb_pred_q) != 7'd0;

    // ---------------------------------------------------------------- branch
    wire        is_bra = ibuf_q[`ISA_F_OP_HI:`ISA_F_OP_LO] == `ISA_OP_BRA;
    wire        is_exit = ibuf_q[`ISA_F_OP_HI:`ISA_F_OP_LO] == `ISA_OP_EXIT;
    wire [15:0] tgt = ibuf_q[`ISA_F_TGT_HI:`ISA_F_TGT_LO];
    wire [15:0] rpc = ibuf_q[`ISA_F_RPC_HI:`ISA_F_RPC_LO];
    wire [31:0] fall = active & ~ex;
    wire        split = is_bra && ex != 32'd0 && fall != 32'd0;
    wire        same_rpc = top_rpc == {1'b0, rpc};
    wire [6:0]  need = same_rpc ? 7'd1 : 7'd2;
    wire        ovf = split && ({1'b0, sp_q} + need) > 7'd32;
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
    assign sb_reg_o = sb_reg_q;
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
        if (fetch_ret_i) ibuf_q <= fetch_data_i;
        if (launch_i) begin
            wid_q <= launch_wid_i;
            exited_q <= 32'd0;
            spc_q[0] <= 16'd0;
            smask_q[0] <= launch_mask_i;
            srpc_q[0] <= RPC_NONE;
            sb_reg_q <= 64'd0;
            sb_pred_q <= 7'd0;
            for (k = 0; k < 7; k = k + 1) pred_q[k] <= 32'd0;
        end else begin
            sb_reg_q <= (sb_reg_q & ~(sb_clr_i ? sb_clr_reg_i : 64'd0)) | (issue_i ? dregs : 64'd0);
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
                    spc_q[top + 5'd1] <= npc;
                    smask_q[top + 5'd1] <= fall;
                    srpc_q[top + 5'd1] <= {1'b0, rpc};
                end else begin
                    spc_q[top] <= rpc;
                    spc_q[top + 5'd1] <= tgt;
                    smask_q[top + 5'd1] <= ex;
                    srpc_q[top + 5'd1] <= {1'b0, rpc};
                    spc_q[top + 5'd2] <= npc;
                    smask_q[top + 5'd2] <= fall;
                    srpc_q[top + 5'd2] <= {1'b0, rpc};
                end
            end
        end
    end

    // verilator lint_off UNUSEDSIGNAL
    wire unused_ok = &{1'b0, cls, kind};
    // verilator lint_on UNUSEDSIGNAL
endmodule

`default_nettype wire
