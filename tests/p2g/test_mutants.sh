#!/usr/bin/env bash
# Mutation check of the P2G verification (issue 12): each mutant is the RTL with one deliberate bug; the
# Icarus testbench (tb/p2g/tb_p2g_mapper.v, handshake timing checked every cycle) with vectors that change
# one configuration field at a time must FAIL on every mutant, with the expected kind of report, and PASS
# on the real RTL. Usage: tests/p2g/test_mutants.sh VECTORS_BIN OUTDIR   (run by make test-p2g-mutants)
set -u
VEC=${1:?p2g-vectors binary}; OUT=${2:?output dir}
rm -rf "$OUT"; mkdir -p "$OUT"
RTL="rtl/p2g_range_mask.v rtl/p2g_add_tree.v"
"$VEC" --max-gpus 16 --gpus 3,16 --configs 20 --prims 2400 --seed 0x3a7 -o "$OUT/v.hex" >/dev/null || exit 1
nrec=$(wc -l < "$OUT/v.hex")
fails=0
# name # sed expression applied to rtl/p2g_mapper.v # fragment the FAIL report must contain
while IFS='#' read -r name expr frag; do
  [ -z "$name" ] && continue
  d="$OUT/$name"; mkdir -p "$d"
  sed "$expr" rtl/p2g_mapper.v > "$d/p2g_mapper.v"
  if cmp -s rtl/p2g_mapper.v "$d/p2g_mapper.v"; then echo "FAIL: mutant $name: the sed expression changed nothing (RTL edited?)"; fails=$((fails+1)); continue; fi
  iverilog -g2012 -Wno-timescale -o "$d/tb.vvp" -s tb_p2g_mapper -P tb_p2g_mapper.MAX_GPUS=16 -P tb_p2g_mapper.ROWS=2 \
    tb/p2g/tb_p2g_mapper.v $RTL "$d/p2g_mapper.v" 2>"$d/build.log" || { echo "FAIL: mutant $name does not compile"; fails=$((fails+1)); continue; }
  timeout 300 vvp -n "$d/tb.vvp" +vectors="$OUT/v.hex" +nrec=$nrec +seed=7 +vseed=0x3a7 > "$d/run.log" 2>&1
  if grep -q '^PASS' "$d/run.log"; then
    echo "FAIL: mutant $name survived (the testbench passed it): $d/run.log"; fails=$((fails+1))
  elif ! grep -q -- "$frag" "$d/run.log"; then
    echo "FAIL: mutant $name caught, but not by the expected check ('$frag'):"; grep -m2 FAIL "$d/run.log"; fails=$((fails+1))
  else
    echo "ok   mutant $name caught: $(grep -m1 '^FAIL' "$d/run.log" | cut -c1-150)"
  fi
done <<'MUTANTS'
tile-size-not-in-rebuild-key#s/(cfg_width_i != c_w) || (cfg_tile_log2_i != c_ts) ||/(cfg_width_i != c_w) ||/#FAIL
mode-not-in-rebuild-key#s/(cfg_mode_i != c_mode);/1'b0;/#FAIL
phantom-output-after-reset#s/s7_v <= 1'b0; s8_v <= 1'b0; o_v <= 1'b0;/s7_v <= 1'b0; s8_v <= 1'b0; o_v <= 1'b1;/#FAIL: handshake: out_valid high during reset
phantom-output-first-cycle#s/assign out_valid_o   = o_v;/reg ph_a, ph_b; always @(posedge clk_i or negedge rst_ni) if (!rst_ni) begin ph_a <= 1'b0; ph_b <= 1'b0; end else begin ph_a <= 1'b1; ph_b <= ph_a; end assign out_valid_o = o_v | (ph_a \& ~ph_b);/#FAIL: handshake: phantom output
output-overwritten-under-stall#s/wire o_free  = !o_v || out_ready_i;/wire o_free  = 1'b1;/#FAIL
MUTANTS
if [ $fails -ne 0 ]; then echo "test_mutants: $fails FAILED (logs in $OUT)"; exit 1; fi
echo "test_mutants: every mutant caught by the Icarus testbench"
