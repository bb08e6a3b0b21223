// SIMT core: instruction decode (opcode -> class, operand use, destination). Mirrors simt_hw_decode() in
// cmodel/simt/simt_hw.c. Opcodes and field positions come from defs/isa.tbl (build/gen/isa_defs.vh).
`timescale 1ns / 1ps
`default_nettype none
`include "isa_defs.vh"

module simt_decode (
    // verilator lint_off UNUSEDSIGNAL
    input  wire [63:0] insn_i,
    // verilator lint_on UNUSEDSIGNAL
    output reg  [2:0]  cls_o,      // 0 ctrl, 1 int, 2 imul, 3 fpu, 4 sfu, 5 ld, 6 st, 7 tex
    output reg  [2:0]  kind_o,     // ISA_DST_*: 0 none, 1 reg, 2 pred, 3 local, 4 out
    output reg         use_ra_o,
    output reg         use_rb_o,
    output reg         use_rc_o,
    output reg         use_ra1_o,
    output reg         use_pa_o,
    output reg         use_pb_o,
    output reg  [2:0]  pa_o,
    output reg  [2:0]  pb_o,
    output reg         dst_reg_o,
    output reg         dst_pred_o,
    output reg         ndst4_o     // tex: four destination registers
);
    wire [6:0] op = insn_i[`ISA_F_OP_HI:`ISA_F_OP_LO];
    wire       bi = insn_i[`ISA_F_BI_HI];
    wire [2:0] ra3 = insn_i[`ISA_F_RA_LO+2:`ISA_F_RA_LO];
    wire [2:0] rb3 = insn_i[`ISA_F_RB_LO+2:`ISA_F_RB_LO];
    wire [2:0] rc3 = insn_i[`ISA_F_RC_LO+2:`ISA_F_RC_LO];

    always @(*) begin
        cls_o = 3'd0;
        kind_o = 3'd0;
        use_ra_o = 1'b0;
        use_rb_o = 1'b0;
        use_rc_o = 1'b0;
        use_ra1_o = 1'b0;
        use_pa_o = 1'b0;
        use_pb_o = 1'b0;
        pa_o = 3'd0;
        pb_o = 3'd0;
        dst_reg_o = 1'b0;
        dst_pred_o = 1'b0;
        ndst4_o = 1'b0;
        case (op)
            `ISA_OP_MOV: begin
                cls_o = 3'd1;
                use_rb_o = !bi;
                dst_reg_o = 1'b1;
            end
            `ISA_OP_S2R: begin
                cls_o = 3'd1;
                dst_reg_o = 1'b1;
            end
            `ISA_OP_SEL: begin
                cls_o = 3'd1;
                use_ra_o = 1'b1;
                use_rb_o = !bi;
                dst_reg_o = 1'b1;
                use_pa_o = 1'b1;
                pa_o = rc3;
            end
            `ISA_OP_PAND, `ISA_OP_POR, `ISA_OP_PXOR: begin
                cls_o = 3'd1;
                dst_pred_o = 1'b1;
                use_pa_o = 1'b1;
                pa_o = ra3;
                use_pb_o = 1'b1;
                pb_o = rb3;
            end
            `ISA_OP_FADD, `ISA_OP_FMUL, `ISA_OP_FMIN, `ISA_OP_FMAX: begin
                cls_o = 3'd3;
                use_ra_o = 1'b1;
                use_rb_o = !bi;
                dst_reg_o = 1'b1;
            end
            `ISA_OP_FMAD: begin
                cls_o = 3'd3;
                use_ra_o = 1'b1;
                use_rb_o = !bi;
                use_rc_o = 1'b1;
                dst_reg_o = 1'b1;
            end
            `ISA_OP_FSETP: begin
                cls_o = 3'd3;
                use_ra_o = 1'b1;
                use_rb_o = !bi;
                dst_pred_o = 1'b1;
            end
            `ISA_OP_FRND, `ISA_OP_F2I, `ISA_OP_F2U, `ISA_OP_I2F, `ISA_OP_U2F: begin
                cls_o = 3'd3;
                use_ra_o = 1'b1;
                dst_reg_o = 1'b1;
            end
            `ISA_OP_IADD, `ISA_OP_ISUB, `ISA_OP_AND, `ISA_OP_OR, `ISA_OP_XOR, `ISA_OP_SHL, `ISA_OP_SHR,
            `ISA_OP_SRA, `ISA_OP_IMIN, `ISA_OP_IMAX: begin
                cls_o = 3'd1;
                use_ra_o = 1'b1;
                use_rb_o = !bi;
                dst_reg_o = 1'b1;
            end
            `ISA_OP_IMUL: begin
                cls_o = 3'd2;
                use_ra_o = 1'b1;
                use_rb_o = !bi;
                dst_reg_o = 1'b1;
            end
            `ISA_OP_ISETP, `ISA_OP_USETP: begin
                cls_o = 3'd1;
                use_ra_o = 1'b1;
                use_rb_o = !bi;
                dst_pred_o = 1'b1;
            end
            `ISA_OP_RCP, `ISA_OP_RSQ, `ISA_OP_EX2, `ISA_OP_LG2, `ISA_OP_SIN, `ISA_OP_COS: begin
                cls_o = 3'd4;
                use_ra_o = 1'b1;
                dst_reg_o = 1'b1;
            end
            `ISA_OP_LD_A, `ISA_OP_LD_C, `ISA_OP_LD_L: begin
                cls_o = 3'd5;
                use_ra_o = 1'b1;
                dst_reg_o = 1'b1;
            end
            `ISA_OP_ST_L: begin
                cls_o = 3'd6;
                use_ra_o = 1'b1;
                use_rb_o = 1'b1;
                kind_o = 3'd3;
            end
            `ISA_OP_ST_O: begin
                cls_o = 3'd6;
                use_ra_o = 1'b1;
                use_rb_o = 1'b1;
                kind_o = 3'd4;
            end
            `ISA_OP_TEX: begin
                cls_o = 3'd7;
                use_ra_o = 1'b1;
                use_ra1_o = 1'b1;
                dst_reg_o = 1'b1;
                ndst4_o = 1'b1;
            end
            default: ;   // nop, exit, bra (and undefined opcodes): control, one beat, no result
        endcase
        if (dst_reg_o) kind_o = 3'd1;
        if (dst_pred_o) kind_o = 3'd2;
    end
endmodule

`default_nettype wire
