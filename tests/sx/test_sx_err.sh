#!/usr/bin/env bash
# Error-path vectors of the stream PE on Icarus (docs/sx.md 4.4): for each parameter set, tb/sx/sx_vectors.c
# --errors writes one directed scenario per sticky err condition of sx_pe (unknown flit type, PRIM/LAST/CREDIT
# addressed wrongly, source = this GPU, >= N, > MAX_GPUS or on the wrong port, stale/future/far tag, a data flit
# into a full FIFO, CREDIT 0 or above the credits used, P2G beats with a wrong tag on lane 0, END and lane 1),
# with err_o expected 0 through the offending handshake and 1 from the next cycle on (the generator checks the C
# model against that rule); tb/sx/tb_sx.v compares every output of the RTL every cycle. Then the bench must catch
# (a) a corrupted expected err bit and (b) an RTL copy that accepts a stale tag, each with the condition's name
# and the reproduce command in its report.
# Usage: tests/sx/test_sx_err.sh BUILD OUTDIR SET... (SET = MAX_GPUS_K_DEPTH with a built BUILD/tb/tb_sx_SET.vvp)
set -euo pipefail
B=${1:?build dir}; OUT=${2:?output dir}; shift 2
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$OUT"
for v in "$@"; do
  mg=${v%%_*}; r=${v#*_}; k=${r%%_*}; d=${r#*_}
  hex=$OUT/sx_err_$v.hex
  "$B/tb/sx-vectors" --max-gpus "$mg" --k "$k" --depth "$d" --errors -o "$hex" > "$OUT/gen_$v.log"
  tail -1 "$OUT/gen_$v.log"
  repro="make test-sx-err SX_TB_SETS=$v   (vectors: $B/tb/sx-vectors --max-gpus $mg --k $k --depth $d --errors -o $hex)"
  vvp -n "$B/tb/tb_sx_$v.vvp" +vectors="$hex" +nrec="$(wc -l < "$hex")" +repro="$repro" | tee "$OUT/tb_$v.log"
  grep -q '^PASS' "$OUT/tb_$v.log" || { echo "test-sx-err: FAIL: error-path vectors ($v), reproduce: $repro"; exit 1; }
done
# (a) one expected err bit flipped (the first cycle with err = 1 of the last scenario): the bench must fail
v=$1; hex=$OUT/sx_err_$v.hex
python3 - "$hex" <<'PY'
import sys
L = open(sys.argv[1]).read().split()
i = max(j for j, l in enumerate(L) if l[0] == '1')          # last reset record
i = next(j for j in range(i, len(L)) if L[j][0] == '2' and (int(L[j], 16) >> 1095) & 1)
L[i] = '%0388x' % (int(L[i], 16) ^ (1 << 1095))
open(sys.argv[1] + '.bad', 'w').write('\n'.join(L) + '\n')
PY
vvp -n "$B/tb/tb_sx_$v.vvp" +vectors="$hex.bad" +nrec="$(wc -l < "$hex.bad")" +repro="test" > "$OUT/bad.log" 2>&1 || true
if grep -q '^FAIL' "$OUT/bad.log" && grep -q 'err DUT' "$OUT/bad.log" && grep -q 'injected condition' "$OUT/bad.log" &&
   grep -q 'reproduce:' "$OUT/bad.log"; then
  echo "test-sx-err: corrupted expected err caught: $(grep -m1 'injected condition' "$OUT/bad.log" | sed 's/^ *//')"
else
  echo "test-sx-err: FAIL: the testbench accepted a corrupted expected err ($OUT/bad.log)"; exit 1
fi
# (b) an RTL copy whose rx decode ignores the tag: the stale/future/far tag cases must fail
sed -e 's/ f\[`FLIT_TAG_LSB +: `FLIT_TAG_BITS\] != rx_b_q\[ix(s) \* 16 +: 16\] ||//' \
    -e 's/\(wire *tok[01] *=\) rx_tag[01] == rx_b_q\[gx\*16 +: 16\];/\1 1'"'"'b1;/' "$ROOT/rtl/sx_pe.v" > "$OUT/sx_pe_notag.v"
! cmp -s "$OUT/sx_pe_notag.v" "$ROOT/rtl/sx_pe.v" || { echo "test-sx-err: FAIL: the tag mutation was not applied"; exit 1; }
iverilog -g2012 -Wno-timescale -I"$ROOT/rtl" -o "$OUT/tb_notag.vvp" -s tb_sx -P tb_sx.MAX_GPUS="${v%%_*}" \
  -P tb_sx.K="$(r=${v#*_}; echo "${r%%_*}")" -P tb_sx.DEPTH="${v##*_}" "$ROOT/tb/sx/tb_sx.v" "$OUT/sx_pe_notag.v" "$ROOT/rtl/sx_fifo_ram.v"
vvp -n "$OUT/tb_notag.vvp" +vectors="$hex" +nrec="$(wc -l < "$hex")" +repro="test" > "$OUT/notag.log" 2>&1 || true
if grep -q '^FAIL' "$OUT/notag.log" && grep -q 'injected condition "PRIM with a stale tag"' "$OUT/notag.log"; then
  echo "test-sx-err: RTL without the tag check caught: $(grep -m1 'injected condition' "$OUT/notag.log" | sed 's/^ *//')"
else
  echo "test-sx-err: FAIL: an RTL that accepts a stale tag passed the error-path vectors ($OUT/notag.log)"; exit 1
fi
