`timescale 1ns/1ps
`default_nettype none
// sx_pe_cap: simulation only, bound into rtl/sx_pe.v by the Verilator lockstep builds (mk/sx.mk). It holds every
// output port of sx_pe as it was just before the last rising clock edge, so that the lockstep shim
// (sim/sx/sx_dut.cpp) can drive a cycle's inputs and clock the edge in ONE evaluation of the verilated model and
// still compare that cycle's outputs (docs/sx.md section 6). Not synthesized, not part of the unit.
module sx_pe_cap #(
  parameter integer K = 2
) (
  input wire          clk_i,
  input wire [K-1:0]  in_ready_o,
  input wire          tx0_valid_o,
  input wire [63:0]   tx0_flit_o,
  input wire          tx1_valid_o,
  input wire [63:0]   tx1_flit_o,
  input wire          rx0_ready_o,
  input wire          rx1_ready_o,
  input wire [K-1:0]  out_valid_o,
  input wire [K*32-1:0] out_id_o,
  input wire [15:0]   out_tag_o,
  input wire          out_eob_o,
  input wire          rel_last_o,
  input wire [5:0]    rel_src_o,
  input wire [20:0]   occ_o,
  input wire          busy_o,
  input wire          err_o
);
  reg [K-1:0]    in_ready_q  /*verilator public_flat_rd*/;
  reg            tx0_valid_q /*verilator public_flat_rd*/;
  reg [63:0]     tx0_flit_q  /*verilator public_flat_rd*/;
  reg            tx1_valid_q /*verilator public_flat_rd*/;
  reg [63:0]     tx1_flit_q  /*verilator public_flat_rd*/;
  reg            rx0_ready_q /*verilator public_flat_rd*/;
  reg            rx1_ready_q /*verilator public_flat_rd*/;
  reg [K-1:0]    out_valid_q /*verilator public_flat_rd*/;
  reg [K*32-1:0] out_id_q    /*verilator public_flat_rd*/;
  reg [15:0]     out_tag_q   /*verilator public_flat_rd*/;
  reg            out_eob_q   /*verilator public_flat_rd*/;
  reg            rel_last_q  /*verilator public_flat_rd*/;
  reg [5:0]      rel_src_q   /*verilator public_flat_rd*/;
  reg [20:0]     occ_q       /*verilator public_flat_rd*/;
  reg            busy_q      /*verilator public_flat_rd*/;
  reg            err_q       /*verilator public_flat_rd*/;
  always @(posedge clk_i) begin
    in_ready_q <= in_ready_o; tx0_valid_q <= tx0_valid_o; tx0_flit_q <= tx0_flit_o; tx1_valid_q <= tx1_valid_o;
    tx1_flit_q <= tx1_flit_o; rx0_ready_q <= rx0_ready_o; rx1_ready_q <= rx1_ready_o; out_valid_q <= out_valid_o;
    out_id_q <= out_id_o; out_tag_q <= out_tag_o; out_eob_q <= out_eob_o; rel_last_q <= rel_last_o;
    rel_src_q <= rel_src_o; occ_q <= occ_o; busy_q <= busy_o; err_q <= err_o;
  end
endmodule

bind sx_pe sx_pe_cap #(.K(K)) u_cap (
  .clk_i(clk_i), .in_ready_o(in_ready_o), .tx0_valid_o(tx0_valid_o), .tx0_flit_o(tx0_flit_o),
  .tx1_valid_o(tx1_valid_o), .tx1_flit_o(tx1_flit_o), .rx0_ready_o(rx0_ready_o), .rx1_ready_o(rx1_ready_o),
  .out_valid_o(out_valid_o), .out_id_o(out_id_o), .out_tag_o(out_tag_o), .out_eob_o(out_eob_o),
  .rel_last_o(rel_last_o), .rel_src_o(rel_src_o), .occ_o(occ_o), .busy_o(busy_o), .err_o(err_o)
);
`default_nettype wire
