#!/usr/bin/env bash
# The co-simulation's failure path must work, or a real mismatch would go unnoticed or undebuggable:
# an injected fault gives exit 1, a report with the differing field, the last transactions and a reproduce
# command; that command reproduces the same failure; an FST window and a matching .gtkw are written; a run
# with zero comparisons fails. Usage: tests/p2g/test_cosim_failure.sh build/cosim/p2g_16_2/cosim-p2g OUTDIR
set -u
BIN=${1:?cosim binary}; OUT=${2:?output dir}
rm -rf "$OUT"; mkdir -p "$OUT"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }

"$BIN" --seed 0x77 --prims 3000 --configs 3 --gpus 3 --inject-fault 500 --out-dir "$OUT" >"$OUT/run1.out" 2>"$OUT/run1.err"
rc=$?
[ $rc -eq 1 ] || fail "injected fault: exit status $rc, expected 1"
for frag in "COSIM MISMATCH unit=p2g_mapper" "seed=0x77 cycle=500" "out_mask" "<-- differs" "last " "transactions" \
            "reproduce: " "waveform: " "view:     gtkwave"; do
  grep -qF -- "$frag" "$OUT/run1.err" || fail "report lacks '$frag'"
done
fst=$(ls "$OUT"/fail-seed77-cycle500.fst 2>/dev/null)
gtkw=$(ls "$OUT"/fail-seed77-cycle500.gtkw 2>/dev/null)
[ -n "$fst" ] && [ -s "$fst" ] || fail "no FST window written"
[ -n "$gtkw" ] && grep -qF "[dumpfile] \"$fst\"" "$gtkw" || fail "no .gtkw pointing at the FST"
grep -qF "out_mask_o[15:0]" "$gtkw" || fail ".gtkw mask width does not match MAX_GPUS=16"
# the printed command reproduces the same failure
cmd=$(sed -n 's/^  reproduce: //p' "$OUT/run1.err")
[ -n "$cmd" ] || fail "no reproduce command"
eval "$cmd --out-dir $OUT/repro" >/dev/null 2>"$OUT/run2.err"; rc=$?
[ $rc -eq 1 ] && grep -qF "seed=0x77 cycle=500" "$OUT/run2.err" || fail "reproduce command did not reproduce (exit $rc)"
# the report names the primitive and what the definition expects, and a command that starts at the failing
# configuration reproduces the same failure (same cycle number) without replaying the whole run
for frag in "oldest outstanding primitive: prim_id=" "x=(" "expected mask (p2g_mask): 0x" "reproduce near the failure: "; do
  grep -qF -- "$frag" "$OUT/run1.err" || fail "report lacks '$frag'"
done
# a failure in a later configuration (cycle 12000 of 13845 is in the last of three): the near command starts there
"$BIN" --seed 0x77 --prims 3000 --configs 3 --gpus 3 --inject-fault 12000 --out-dir "$OUT" >/dev/null 2>"$OUT/run4.err"
near=$(sed -n 's/^  reproduce near the failure: //p' "$OUT/run4.err")
case "$near" in *--start-config\ [1-9]*) ;; *) fail "near-failure command does not start near the failure: $near";; esac
eval "$near --out-dir $OUT/near" >/dev/null 2>"$OUT/run3.err"; rc=$?
[ $rc -eq 1 ] && grep -qF "seed=0x77 cycle=12000" "$OUT/run3.err" || fail "near-failure command did not reproduce (exit $rc): $near"
# the window's waveform (replayed from the failing configuration after uncounted warm-up cycles) keeps the full
# run's time base: its last sample is the failing cycle's input evaluation, 20 ns reset + 10 ns per cycle + 1 ns
w=$OUT/fail-seed77-cycle12000.fst
last=$(fst2vcd "$w" 2>/dev/null | sed -n 's/^#\([0-9]*\)$/\1/p' | tail -1)
[ "$last" = $((20000 + 10000 * 12000 + 1000)) ] || fail "window $w ends at time ${last:-?} ps, not at cycle 12000 ($((20000 + 10000 * 12000 + 1000)) ps): its .gtkw opens at the wrong cycle"
# zero comparisons is a failure
"$BIN" --seed 1 --prims 0 --gpus 3 >"$OUT/zero.out" 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q "zero mask comparisons" "$OUT/zero.out" || fail "a run with zero comparisons passed (exit $rc)"
# GPU counts above MAX_GPUS are skipped; if that leaves nothing, it fails too
"$BIN" --seed 1 --prims 100 --gpus 17 >"$OUT/skip.out" 2>&1; rc=$?
[ $rc -ne 0 ] || fail "a run whose only GPU count was skipped passed"
if [ $fails -ne 0 ]; then echo "test_cosim_failure: $fails FAILED (logs in $OUT)"; exit 1; fi
echo "test_cosim_failure: all passed (report, reproduce, FST window, .gtkw, zero-comparison guard)"
