#!/usr/bin/env bash
# The failure path of an exchange unit's co-simulation (pe: the paper's PE; sx: the stream PE) must work, or a
# real mismatch would go unnoticed or undebuggable:
#  1. an injected RTL-vs-model difference gives exit 1, a report naming the differing field, the last
#     transactions and a reproduce command that starts at the failing scenario; that command reproduces the
#     same failure; an FST window and a matching .gtkw (widths of this build) are written;
#  2. a data flit lost by the environment (RTL and model agree) is caught by the checks outside the lockstep
#     alone (pe: the SPEC 4.2 checker; sx: the environment's delivery checks);
#  3. a run with zero comparisons fails, and so does a run whose only GPU count does not fit MAX_GPUS;
#  4. bad numbers are refused with exit 2 and a message naming the option (common/args.h), never read as 0.
# Usage: tests/common/exchange_cosim_failure.sh pe build/cosim/pe_16_2_2/cosim-pe OUTDIR
#        tests/common/exchange_cosim_failure.sh sx build/cosim/sx_4_1_2/cosim-sx OUTDIR
set -u
UNIT=${1:?unit (pe|sx)}; BIN=${2:?cosim binary}; OUT=${3:?output dir}
case $UNIT in
  pe) MODULE=pe_exchanger; WIDTHS="in_mask_i[15:0] lq_cnt[1:0]"; BUILD_DESC="MAX_GPUS=16 / LQ_DEPTH=2"
      LOST_RE="SPEC 4.2|end-of-batch"; LONG_OPT=--flits ;;
  sx) MODULE=sx_pe; WIDTHS="in_mask_i[3:0] cnt_q[19:0]"; BUILD_DESC="MAX_GPUS=4 / K=1 / DEPTH=2"
      LOST_RE="expected|err_o raised|deadlock"; LONG_OPT=--cycles ;;
  *) echo "usage: $0 pe|sx BIN OUTDIR" >&2; exit 2 ;;
esac
rm -rf "$OUT"; mkdir -p "$OUT"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }

"$BIN" --seed 0x77 --scenarios 6 --gpus 3 --inject-fault 150 --out-dir "$OUT" >"$OUT/run1.out" 2>"$OUT/run1.err"
rc=$?
[ $rc -eq 1 ] || fail "injected fault: exit status $rc, expected 1"
for frag in "COSIM MISMATCH unit=$MODULE" "seed=0x77 scenario=" "cycle=150" "busy" "<-- differs" \
            "last " "transactions" "reproduce: " "--scenario " "waveform: " "view:     gtkwave"; do
  grep -qF -- "$frag" "$OUT/run1.err" || fail "report lacks '$frag'"
done
scen=$(sed -n 's/.*seed=0x77 scenario=\([0-9]*\) cycle=150.*/\1/p' "$OUT/run1.err")
fst=$(ls "$OUT"/fail-seed77-scen${scen}-cycle150.fst 2>/dev/null)
gtkw=$(ls "$OUT"/fail-seed77-scen${scen}-cycle150.gtkw 2>/dev/null)
[ -n "$fst" ] && [ -s "$fst" ] || fail "no FST window written"
[ -n "$gtkw" ] && grep -qF "[dumpfile] \"$fst\"" "$gtkw" || fail "no .gtkw pointing at the FST"
for w in $WIDTHS; do
  grep -qF "$w" "$gtkw" || fail ".gtkw widths do not match $BUILD_DESC (no $w)"
done
cmd=$(sed -n 's/^  reproduce: //p' "$OUT/run1.err")
[ -n "$cmd" ] || fail "no reproduce command"
eval "$cmd --out-dir $OUT/repro" >/dev/null 2>"$OUT/run2.err"; rc=$?
[ $rc -eq 1 ] && grep -qF "seed=0x77 scenario=$scen cycle=150" "$OUT/run2.err" || fail "reproduce command did not reproduce (exit $rc)"

# a lost data flit: RTL and cycle model agree, only the checks outside the lockstep see it
"$BIN" --seed 0x77 --scenarios 6 --gpus 3 --inject-drop 20 --out-dir "$OUT/drop" >"$OUT/drop.out" 2>"$OUT/drop.err"; rc=$?
[ $rc -eq 1 ] && grep -qE "$LOST_RE" "$OUT/drop.err" || fail "a lost flit was not caught (exit $rc)"

"$BIN" --seed 1 --scenarios 0 --gpus 3 >"$OUT/zero.out" 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q "zero output comparisons" "$OUT/zero.out" || fail "a run with zero comparisons passed (exit $rc)"
"$BIN" --seed 1 --scenarios 2 --gpus 17 >"$OUT/skip.out" 2>&1; rc=$?
[ $rc -ne 0 ] || fail "a run whose only GPU count was skipped passed"
for bad in "--size 1" "--scenarios 12x" "--seed 0x" "--window -3" "$LONG_OPT 99999999999999999999" "--gpus 1,,2"; do
  "$BIN" $bad >"$OUT/badarg.out" 2>&1; rc=$?
  [ $rc -eq 2 ] && grep -qF -- "${bad%% *}" "$OUT/badarg.out" || fail "bad argument '$bad' not refused with exit 2 (exit $rc)"
done
if [ $fails -ne 0 ]; then echo "test_cosim_failure ($UNIT): $fails FAILED (logs in $OUT)"; exit 1; fi
echo "test_cosim_failure ($UNIT): all passed (report, reproduce, FST window, .gtkw, lost flit caught, zero-comparison guards)"
