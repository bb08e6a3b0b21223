#!/bin/bash
# Bounded check of rtl/simt_warp.v at TIMING_REGS=0 against GIT-REV's (its rtl/simt_warp_area.v where it has one),
# STACK_DEPTH 4, SB_WORDS 16 (the iCE40 configuration), for changes scripts/simt_warp_equiv.sh cannot relate
# (registers removed). A Yosys miter of the two warps with the same inputs under the core's contract: a warp is
# issued only when ready, fetched only on request, its instruction returns one cycle after the grant, no launch
# during reset; reset only as the start state (all registers and stack entries zero). SAT proves every output
# equal in each of the first N cycles (bounded, not a proof for all cycles). docs/simt.md section 6.
# usage: scripts/simt_warp_bmc.sh GIT-REV [N]   (N default 8; CPU ~15 s at 8)
set -euo pipefail
REV=$1
N=${2:-8}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GEN=${GEN:-$ROOT/build/gen}
[ -f "$GEN/isa_defs.vh" ] || { echo "simt_warp_bmc: $GEN/isa_defs.vh missing (make $GEN/isa_defs.vh)"; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if git -C "$ROOT" cat-file -e "$REV:rtl/simt_warp_area.v" 2>/dev/null; then
  git -C "$ROOT" show "$REV:rtl/simt_warp_area.v" | sed 's/module simt_warp_area\b/module simt_warp_old/' > "$T/old.v"
  op=""
else
  git -C "$ROOT" show "$REV:rtl/simt_warp.v" | sed 's/module simt_warp\b/module simt_warp_old/' > "$T/old.v"
  op=".TIMING_REGS(0), "
fi
sed 's/module simt_warp\b/module simt_warp_new/' "$ROOT/rtl/simt_warp.v" > "$T/new.v"
cp "$ROOT/rtl/simt_decode.v" "$T/"
ports='.clk_i(clk_i), .rst_ni(rst_ni), .prog_len_i(prog_len_i), .launch_i(launch), .launch_mask_i(launch_mask_i),
        .launch_wid_i(launch_wid_i), .issue_i(issue), .fetch_grant_i(grant), .fetch_ret_i(fret), .fetch_data_i(fetch_data_i),
        .wb_pred_we_i(wb_pred_we_i), .wb_pred_idx_i(wb_pred_idx_i), .wb_pred_mask_i(wb_pred_mask_i),
        .wb_pred_bits_i(wb_pred_bits_i), .sb_clr_i(sb_clr_i), .sb_clr_reg_i(sb_clr_reg_i), .sb_clr_pred_i(sb_clr_pred_i)'
cat > "$T/env.v" <<EOV
module simt_warp_env (
    input wire clk_i, input wire rst_ni, input wire [12:0] prog_len_i, input wire launch_i,
    input wire [31:0] launch_mask_i, input wire [31:0] launch_wid_i, input wire issue_req, input wire grant_req,
    input wire [63:0] fetch_data_i, input wire wb_pred_we_i, input wire [2:0] wb_pred_idx_i,
    input wire [31:0] wb_pred_mask_i, input wire [31:0] wb_pred_bits_i, input wire sb_clr_i,
    input wire [63:0] sb_clr_reg_i, input wire [6:0] sb_clr_pred_i);
    wire run0, err0, rdy0, freq0, run1, err1, rdy1, freq1;
    wire [15:0] pc0, pc1; wire [31:0] act0, act1, ex0, ex1, wid0, wid1; wire [63:0] ib0, ib1, sb0, sb1;
    wire [5:0] sp0, sp1; wire [223:0] pr0, pr1;
    wire launch = launch_i & rst_ni;
    wire issue = issue_req & rdy0 & ~launch;
    wire grant = grant_req & freq0 & ~launch;
    reg  fret;
    always @(posedge clk_i) fret <= grant;
    simt_warp_old #(.STACK_DEPTH(4), .SB_WORDS(16)) u0 ($ports,
        .run_o(run0), .err_o(err0), .ready_o(rdy0), .fetch_req_o(freq0), .pc_o(pc0), .active_o(act0), .ex_o(ex0),
        .ibuf_o(ib0), .sp_o(sp0), .pred_o(pr0), .wid_o(wid0), .sb_reg_o(sb0));
    simt_warp_new #(.STACK_DEPTH(4), .SB_WORDS(16), .TIMING_REGS(0)) u1 ($ports,
        .run_o(run1), .err_o(err1), .ready_o(rdy1), .fetch_req_o(freq1), .pc_o(pc1), .active_o(act1), .ex_o(ex1),
        .ibuf_o(ib1), .sp_o(sp1), .pred_o(pr1), .wid_o(wid1), .sb_reg_o(sb1));
    always @* assert ({run0, err0, rdy0, freq0, pc0, act0, ex0, ib0, sp0, pr0, wid0, sb0} ==
                      {run1, err1, rdy1, freq1, pc1, act1, ex1, ib1, sp1, pr1, wid1, sb1});
endmodule
EOV
[ -n "$op" ] && sed -i "s/simt_warp_old #(/simt_warp_old #($op/" "$T/env.v"
(cd "$T" && yosys -l "$T/bmc.log" -p "read_verilog -I$GEN old.v new.v simt_decode.v; read_verilog -formal env.v;
    hierarchy -check -top simt_warp_env; proc; flatten; opt_clean; memory -nomap; memory_map; opt_clean; async2sync;
    opt -fast; sat -verify -prove-asserts -set-init-zero -set rst_ni 1 -seq $N simt_warp_env" > /dev/null 2>&1) || true
if grep -q "no model found: SUCCESS" "$T/bmc.log"; then
  echo "simt_warp_bmc: TIMING_REGS=0 4/16: all outputs equal to $REV's in the first $N cycles from the zero state"
else
  echo "simt_warp_bmc: TIMING_REGS=0 4/16: NOT equal to $REV's within $N cycles (or error)"; grep -E "FAIL|ERROR" "$T/bmc.log" | head -3
  exit 1
fi
