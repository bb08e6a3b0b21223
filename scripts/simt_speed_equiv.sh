#!/bin/bash
# Gate-level equivalence of the simulation-speed rewrite of rtl/simt_fp_kadd.v (the prefix adder with g and p kept
# in 64-bit chunks when W + 1 > 64: the SFU's 88-bit adder; docs/simt.md section 6, "Lockstep speed") against an
# earlier version of the file, at W = 88 (the width in use), 64 and 130 (one and two chunk boundaries).
# The method is scripts/rtl_equiv_lib.sh's (Yosys miter + SAT; "identical gates" when the miter collapses to one cell).
# usage: scripts/simt_speed_equiv.sh [GIT-REV]   (default 1ec6346: before the rewrite)
set -euo pipefail
REV=${1:-1ec6346}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
rc=0
. "$ROOT/scripts/rtl_equiv_lib.sh"
equiv_fetch simt_fp_kadd rtl/simt_fp_kadd.v
for W in 88 64 130; do
  equiv_prove simt_speed_equiv "simt_fp_kadd W=$W" simt_fp_kadd \
    "input wire [$W-1:0] a, input wire [$W-1:0] b, input wire c, output wire [$W-1:0] s, output wire co" \
    "#(.W($W)) u (.a_i(a), .b_i(b), .ci_i(c), .s_o(s), .co_o(co));"
done
exit $rc
