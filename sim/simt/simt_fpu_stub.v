// Placeholder for rtl/simt_fpu.v / rtl/simt_sfu.v (helper simtfpu) used ONLY by the interim build while
// those files are not on main: correct ports and latency, result 0. Programs with FP/SFU ops are not run
// against it (cosim --no-fp). Not part of the product.
`timescale 1ns / 1ps
`default_nettype none
// verilator lint_off UNUSEDPARAM
module simt_fpu #(parameter integer LAT = 7, parameter integer AREA = 0, parameter integer PASSES = 1) (   // AREA, PASSES: as rtl/simt_fpu.v (unused here)
// verilator lint_on UNUSEDPARAM
    input  wire clk_i, input wire rst_ni, input wire valid_i, input wire [6:0] op_i, input wire [3:0] cc_i,
    input  wire na_i, input wire aa_i, input wire nb_i, input wire nc_i,
    input  wire [31:0] a_i, input wire [31:0] b_i, input wire [31:0] c_i, input wire [1:0] pass_i,
    output wire valid_o, output wire [31:0] res_o, output wire pred_o);
    reg [LAT-1:0] v_q;
    always @(posedge clk_i or negedge rst_ni) if (!rst_ni) v_q <= 0; else v_q <= {v_q[LAT-2:0], valid_i};
    assign valid_o = v_q[LAT-1];
    assign res_o = 32'd0;
    assign pred_o = 1'b0;
    // verilator lint_off UNUSEDSIGNAL
    wire u = &{op_i, cc_i, na_i, aa_i, nb_i, nc_i, a_i, b_i, c_i, pass_i};
    // verilator lint_on UNUSEDSIGNAL
endmodule
// verilator lint_off UNUSEDPARAM
module simt_sfu #(parameter integer LAT = 7, parameter TABLE_DIR = "defs") (
// verilator lint_on UNUSEDPARAM
    input  wire clk_i, input wire rst_ni, input wire valid_i, input wire [6:0] op_i,
    input  wire na_i, input wire aa_i, input wire [31:0] a_i, output wire valid_o, output wire [31:0] res_o);
    reg [LAT-1:0] v_q;
    always @(posedge clk_i or negedge rst_ni) if (!rst_ni) v_q <= 0; else v_q <= {v_q[LAT-2:0], valid_i};
    assign valid_o = v_q[LAT-1];
    assign res_o = 32'd0;
    // verilator lint_off UNUSEDSIGNAL
    wire u = &{op_i, na_i, aa_i, a_i};
    // verilator lint_on UNUSEDSIGNAL
endmodule
`default_nettype wire
