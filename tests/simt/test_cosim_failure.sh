#!/usr/bin/env bash
# The SIMT co-simulation's failure path must work, or a real mismatch would go unnoticed or undebuggable:
# an injected fault gives exit 1, a report with the differing field, the last transactions and a reproduce
# command; that command reproduces the same failure; an FST window and a matching .gtkw are written; a run
# that compares nothing fails; a wrong retired value (a corrupted program given only to the interpreter is
# not possible from outside, so the injected fault flips a retired value bit of the DUT) is named.
# Usage: tests/simt/test_cosim_failure.sh build/cosim/simt_8_4_8_8_4/cosim-simt OUTDIR [extra cosim args]
set -u
BIN=${1:?cosim binary}; OUT=${2:?output dir}; shift 2; EXTRA="$*"
rm -rf "$OUT"; mkdir -p "$OUT"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }

# cycle 3000 of seed 0x77 is inside the execution phase (a retire beat or an idle cycle: either is caught)
"$BIN" --seed 0x77 --programs 1 $EXTRA --inject-fault 3000 --out-dir "$OUT" >"$OUT/run1.out" 2>"$OUT/run1.err"
rc=$?
[ $rc -eq 1 ] || fail "injected fault: exit status $rc, expected 1"
for frag in "COSIM MISMATCH unit=simt_core" "seed=0x77 cycle=3000" "<-- differs" "last " "transactions" \
            "reproduce: " "waveform: " "view:     gtkwave"; do
  grep -qF -- "$frag" "$OUT/run1.err" || fail "report lacks '$frag'"
done
fst="$OUT/fail-seed77-cycle3000.fst"; gtkw="$OUT/fail-seed77-cycle3000.gtkw"
[ -s "$fst" ] || fail "no FST window written"
[ -f "$gtkw" ] && grep -qF "[dumpfile] \"$fst\"" "$gtkw" || fail "no .gtkw pointing at the FST"
cmd=$(sed -n 's/^  reproduce: //p' "$OUT/run1.err")
[ -n "$cmd" ] || fail "no reproduce command"
eval "$cmd --out-dir $OUT/repro" >/dev/null 2>"$OUT/run2.err"; rc=$?
[ $rc -eq 1 ] && grep -qF "seed=0x77 cycle=3000" "$OUT/run2.err" || fail "reproduce command did not reproduce (exit $rc)"
# a failure in a job that was first reset in the middle of execution (--abort-every): the reproduce command
# carries the option, reproduces the failure, and the FST window is written for the run that failed
"$BIN" --seed 0x77 --programs 1 --abort-every 1 $EXTRA --inject-fault 3000 --out-dir "$OUT/abort" >"$OUT/abort.out" 2>"$OUT/abort.err"
rc=$?
[ $rc -eq 1 ] && grep -qF "seed=0x77 cycle=3000" "$OUT/abort.err" || fail "injected fault after a reset in the middle: exit $rc"
grep -qF -- "RESET in the middle" "$OUT/abort.err" || fail "the report does not name the reset in the middle"
cmd=$(sed -n 's/^  reproduce: //p' "$OUT/abort.err")
case "$cmd" in *"--abort-every 1"*) ;; *) fail "reproduce command lacks --abort-every: $cmd";; esac
eval "$cmd --out-dir $OUT/abort-repro" >/dev/null 2>"$OUT/abort2.err"; rc=$?
[ $rc -eq 1 ] && grep -qF "seed=0x77 cycle=3000" "$OUT/abort2.err" || fail "reproduce command (reset in the middle) did not reproduce (exit $rc)"
[ -s "$OUT/abort/fail-seed77-cycle3000.fst" ] || fail "no FST window written for the failure after a reset in the middle"
# zero comparisons is a failure
"$BIN" --seed 1 --programs 0 >"$OUT/zero.out" 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q "zero retired instructions" "$OUT/zero.out" || fail "a run with zero comparisons passed (exit $rc)"
# an assembly error in --program is reported with file:line:col and a non-zero exit
printf 'mov r1, 1\n  iadd r2, r99, 1\nexit\n' > "$OUT/bad.s"
"$BIN" --program "$OUT/bad.s" --programs 0 >"$OUT/bad.out" 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q "bad.s:2:" "$OUT/bad.out" || fail "an assembly error was not reported (exit $rc)"
if [ $fails -ne 0 ]; then echo "test_cosim_failure (simt): $fails FAILED (logs in $OUT)"; exit 1; fi
echo "test_cosim_failure (simt): all passed (report, reproduce, FST window, .gtkw, reset in the middle, zero-comparison guard, asm error)"
