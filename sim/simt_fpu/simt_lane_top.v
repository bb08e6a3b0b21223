`timescale 1ns/1ps
`default_nettype none
// simt_lane_top: co-simulation top of the SIMT lane datapaths: one simt_fpu and one simt_sfu side by side
// with independent inputs, so one verilated model (one C harness, sim/simt_fpu/cosim_simt_fpu.c) drives
// both. Not part of the core: the core instantiates the units itself (rtl/simt_fpu.v, rtl/simt_sfu.v).
module simt_lane_top #(
  parameter integer LAT_FPU = 8,
  parameter integer LAT_SFU = 8,
  parameter integer AREA_FPU = 0,   // simt_fpu AREA (1: the area-reduced FPU of the iCE40 configuration)
  parameter TABLE_DIR = "defs"
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        f_valid_i,
  input  wire [6:0]  f_op_i,
  input  wire [3:0]  f_cc_i,
  input  wire        f_na_i,
  input  wire        f_aa_i,
  input  wire        f_nb_i,
  input  wire        f_nc_i,
  input  wire [31:0] f_a_i,
  input  wire [31:0] f_b_i,
  input  wire [31:0] f_c_i,
  output wire        f_valid_o,
  output wire [31:0] f_res_o,
  output wire        f_pred_o,
  input  wire        s_valid_i,
  input  wire [6:0]  s_op_i,
  input  wire        s_na_i,
  input  wire        s_aa_i,
  input  wire [31:0] s_a_i,
  output wire        s_valid_o,
  output wire [31:0] s_res_o
);
  simt_fpu #(.LAT(LAT_FPU), .AREA(AREA_FPU)) u_fpu (.clk_i(clk_i), .rst_ni(rst_ni), .valid_i(f_valid_i), .op_i(f_op_i),
    .cc_i(f_cc_i), .na_i(f_na_i), .aa_i(f_aa_i), .nb_i(f_nb_i), .nc_i(f_nc_i), .a_i(f_a_i), .b_i(f_b_i),
    .c_i(f_c_i), .pass_i(2'd0), .valid_o(f_valid_o), .res_o(f_res_o), .pred_o(f_pred_o));
  simt_sfu #(.LAT(LAT_SFU), .TABLE_DIR(TABLE_DIR)) u_sfu (.clk_i(clk_i), .rst_ni(rst_ni),
    .valid_i(s_valid_i), .op_i(s_op_i), .na_i(s_na_i), .aa_i(s_aa_i), .a_i(s_a_i), .valid_o(s_valid_o),
    .res_o(s_res_o));
endmodule
`default_nettype wire
