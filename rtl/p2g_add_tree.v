`timescale 1ns/1ps
`default_nettype none
// p2g_add_tree: combinational sum of N_IN unsigned terms of IN_W bits, as a balanced binary tree of depth
// ceil(log2 N_IN) over the terms padded with zeros to a power of two. Level l of the tree (l = 0: the terms)
// has nodes of IN_W + l bits, exactly as wide as their sums can get; the result is OUT_W bits (the caller
// guarantees OUT_W >= IN_W + ceil(log2 N_IN)).
module p2g_add_tree #(
  parameter integer N_IN  = 8,
  parameter integer IN_W  = 6,
  parameter integer OUT_W = 9
) (
  input  wire [N_IN*IN_W-1:0] terms_i,   // term k at [k*IN_W +: IN_W]
  output wire [OUT_W-1:0]     sum_o
);
  localparam integer D = (N_IN <= 1) ? 0 : $clog2(N_IN);
  localparam integer P = 1 << D;
  // bit offset of level l in the flat node vector: levels 0..l-1 hold P >> k nodes of IN_W + k bits each
  // (a constant function, evaluated at elaboration only: no coverage points)
  // verilator coverage_off
  function automatic integer lvl_off(input integer l);
    integer lv;
    begin
      lvl_off = 0;
      for (lv = 0; lv < l; lv = lv + 1) lvl_off = lvl_off + (P >> lv) * (IN_W + lv);
    end
  endfunction
  // verilator coverage_on
  localparam integer TOP_W = IN_W + D;
  localparam integer OFF_TOP = lvl_off(D);
  wire [lvl_off(D+1)-1:0] node /* verilator split_var */;
  genvar l, i;
  generate
    for (i = 0; i < P; i = i + 1) begin : g_leaf
      if (i < N_IN) begin : g_term
        assign node[i*IN_W +: IN_W] = terms_i[i*IN_W +: IN_W];
      end else begin : g_pad
        assign node[i*IN_W +: IN_W] = {IN_W{1'b0}};
      end
    end
    for (l = 1; l <= D; l = l + 1) begin : g_lvl
      localparam integer W = IN_W + l;
      localparam integer OFF_IN = lvl_off(l-1);
      localparam integer OFF_OUT = lvl_off(l);
      for (i = 0; i < (P >> l); i = i + 1) begin : g_add
        // an always block per adder node: a line-coverage point per node (each adder exercised), same logic
        wire [W-2:0] lhs = node[OFF_IN + (2*i)*(W-1) +: W-1];
        wire [W-2:0] rhs = node[OFF_IN + (2*i+1)*(W-1) +: W-1];
        reg  [W-1:0] sum_d;
        always @* begin
          sum_d = {1'b0, lhs} + {1'b0, rhs};
        end
        assign node[OFF_OUT + i*W +: W] = sum_d;
      end
    end
    if (OUT_W > TOP_W) begin : g_ext
      assign sum_o = {{(OUT_W-TOP_W){1'b0}}, node[OFF_TOP +: TOP_W]};
    end else begin : g_top
      assign sum_o = node[OFF_TOP +: OUT_W];
    end
  endgenerate
endmodule
`default_nettype wire
