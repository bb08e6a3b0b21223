#!/usr/bin/env bash
# The system co-simulation must fail, loudly and usefully, on a broken run:
#  1. drop:K  the link model loses one PRIM flit: the golden comparison / invariant must name GPU, batch,
#             primitive and cycle;
#  2. model:C the C cycle model's PE in_ready is flipped at cycle C: the lockstep comparison must stop at that
#             cycle with the fields DUT vs model;
#  3. adapter:C the adapter cycle model's p2g_ready is flipped at cycle C: likewise (the adapter inside cd_unit
#             is compared through its obs_* outputs);
# both exit 1, print the reproduce command (which must reproduce the same failure), and leave an FST window and
# a .gtkw view. Usage: tests/system/test_cosim_failure.sh build/cosim/system_16_2_8_8/cosim-system OUTDIR
set -u
BIN=${1:?cosim-system binary}; OUT=${2:?output dir}
rm -rf "$OUT"; mkdir -p "$OUT"
fail() { echo "test_cosim_failure: FAIL: $*"; exit 1; }
check_case() {   # name, expected text, args...
  local name=$1 want=$2; shift 2
  "$BIN" --trace traces/glmark2-shadow.gpt --gpus 3 --out-dir "$OUT" --quiet "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
  local rc=$?
  [ $rc -eq 1 ] || fail "$name: exit status $rc, expected 1 (log $OUT/$name.err)"
  grep -q '^COSIM MISMATCH unit=cd_unit ' "$OUT/$name.err" || fail "$name: no mismatch report"
  grep -q "$want" "$OUT/$name.err" || fail "$name: report does not say '$want'"
  grep -q 'where: GPU [0-9]' "$OUT/$name.err" || fail "$name: report does not name the GPU"
  grep -q 'PASS' "$OUT/$name.out" && fail "$name: printed PASS"
  local cyc; cyc=$(sed -n 's/.* cycle=\([0-9]*\)$/\1/p' "$OUT/$name.err" | head -1)
  local cmd; cmd=$(sed -n 's/^  reproduce: //p' "$OUT/$name.err")
  [ -n "$cmd" ] || fail "$name: no reproduce command"
  local fst; fst=$(sed -n 's/^  waveform: \([^ ]*\) .*/\1/p' "$OUT/$name.err")
  [ -s "$fst" ] || fail "$name: no FST window ($fst)"
  [ -s "${fst%.fst}.gtkw" ] || fail "$name: no .gtkw view"
  grep -q "^\[dumpfile\] \"$fst\"" "${fst%.fst}.gtkw" || fail "$name: the view does not point at the FST"
  $cmd --out-dir "$OUT/re" --quiet >/dev/null 2>"$OUT/$name.re.err"
  [ $? -eq 1 ] || fail "$name: the reproduce command did not fail"
  grep -q " cycle=$cyc\$" "$OUT/$name.re.err" || fail "$name: the reproduce command failed elsewhere (want cycle $cyc)"
  echo "test_cosim_failure: $name caught at cycle $cyc: $(grep -m1 'what:' "$OUT/$name.err" | cut -c1-150)"
}
check_case drop 'golden model\|invariant' --inject-fault drop:500
check_case model 'RTL and C cycle model disagree' --inject-fault model:3000
grep -q 'pe.in_ready .*<-- differs' "$OUT/model.err" || fail "model: the differing field is not marked"
check_case adapter 'RTL and C cycle model disagree' --inject-fault adapter:3000
grep -q 'ad.p2g_ready .*<-- differs' "$OUT/adapter.err" || fail "adapter: the differing field is not marked"
echo "test_cosim_failure: PASS"
