#!/usr/bin/env bash
# The stream PE co-simulation's failure path must work, or a real mismatch would go unnoticed or undebuggable:
#  1. an injected RTL-vs-model difference gives exit 1, a report naming the differing field, the last
#     transactions and a reproduce command that starts at the failing scenario; that command reproduces the
#     same failure; an FST window and a matching .gtkw (widths of this build) are written;
#  2. a data flit lost by the environment (RTL and model agree) is caught by the environment's checks alone;
#  3. a run with zero comparisons fails, and so does a run whose only GPU count does not fit MAX_GPUS.
# Usage: tests/stream/test_cosim_failure.sh build/cosim/sx_4_1_2/cosim-sx OUTDIR
set -u
BIN=${1:?cosim binary}; OUT=${2:?output dir}
rm -rf "$OUT"; mkdir -p "$OUT"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }

"$BIN" --seed 0x77 --scenarios 6 --gpus 3 --inject-fault 150 --out-dir "$OUT" >"$OUT/run1.out" 2>"$OUT/run1.err"
rc=$?
[ $rc -eq 1 ] || fail "injected fault: exit status $rc, expected 1"
for frag in "COSIM MISMATCH unit=sx_pe" "seed=0x77 scenario=" "cycle=150" "busy" "<-- differs" \
            "last " "transactions" "reproduce: " "--scenario " "waveform: " "view:     gtkwave"; do
  grep -qF -- "$frag" "$OUT/run1.err" || fail "report lacks '$frag'"
done
scen=$(sed -n 's/.*seed=0x77 scenario=\([0-9]*\) cycle=150.*/\1/p' "$OUT/run1.err")
fst=$(ls "$OUT"/fail-seed77-scen${scen}-cycle150.fst 2>/dev/null)
gtkw=$(ls "$OUT"/fail-seed77-scen${scen}-cycle150.gtkw 2>/dev/null)
[ -n "$fst" ] && [ -s "$fst" ] || fail "no FST window written"
[ -n "$gtkw" ] && grep -qF "[dumpfile] \"$fst\"" "$gtkw" || fail "no .gtkw pointing at the FST"
grep -qF "in_mask_i[3:0]" "$gtkw" && grep -qF "cnt_q[19:0]" "$gtkw" || fail ".gtkw widths do not match MAX_GPUS=4 / K=1 / DEPTH=2"
cmd=$(sed -n 's/^  reproduce: //p' "$OUT/run1.err")
[ -n "$cmd" ] || fail "no reproduce command"
eval "$cmd --out-dir $OUT/repro" >/dev/null 2>"$OUT/run2.err"; rc=$?
[ $rc -eq 1 ] && grep -qF "seed=0x77 scenario=$scen cycle=150" "$OUT/run2.err" || fail "reproduce command did not reproduce (exit $rc)"

# a lost data flit: RTL and cycle model agree, only the environment's checks see it
"$BIN" --seed 0x77 --scenarios 6 --gpus 3 --inject-drop 20 --out-dir "$OUT/drop" >"$OUT/drop.out" 2>"$OUT/drop.err"; rc=$?
[ $rc -eq 1 ] && grep -qE "expected|err_o raised|deadlock" "$OUT/drop.err" || fail "a lost flit was not caught (exit $rc)"

"$BIN" --seed 1 --scenarios 0 --gpus 3 >"$OUT/zero.out" 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q "zero output comparisons" "$OUT/zero.out" || fail "a run with zero comparisons passed (exit $rc)"
"$BIN" --seed 1 --scenarios 2 --gpus 17 >"$OUT/skip.out" 2>&1; rc=$?
[ $rc -ne 0 ] || fail "a run whose only GPU count was skipped passed"
for bad in "--size 1" "--scenarios 12x" "--seed 0x" "--window -3" "--cycles 99999999999999999999" "--gpus 1,,2"; do
  "$BIN" $bad >"$OUT/badarg.out" 2>&1; rc=$?
  [ $rc -eq 2 ] && grep -qF -- "${bad%% *}" "$OUT/badarg.out" || fail "bad argument '$bad' not refused with exit 2 (exit $rc)"
done
if [ $fails -ne 0 ]; then echo "test_cosim_failure (stream): $fails FAILED (logs in $OUT)"; exit 1; fi
echo "test_cosim_failure (stream): all passed (report, reproduce, FST window, .gtkw, lost flit caught, zero-comparison guards)"
