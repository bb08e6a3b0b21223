#!/usr/bin/env bash
# The saved GTKWave view must keep working: load it headless under Xvfb on a fresh waveform, check that
# GTKWave found every signal the view names (Tcl getDisplayedSignals), and that the screenshot shows them
# (signal names in the names pane, green traces in the wave pane).
# Usage: tests/pe/test_waves.sh build/cosim/pe_64_8_8/cosim-pe tb/pe/pe.gtkw OUTDIR
set -u
BIN=${1:?cosim binary}; VIEW=${2:?gtkw}; OUT=${3:?output dir}
rm -rf "$OUT"; mkdir -p "$OUT"
"$BIN" --seed 5 --scenario 10 --gpus 1,2,3,16 --size 400 --waves "$OUT/pe.fst" --gtkw "$VIEW" >"$OUT/cosim.out" || { echo "FAIL: cosim"; exit 1; }
want=$(grep -c '^pe_exchanger\.' "$VIEW")
cat >"$OUT/list.tcl" <<'TCL'
set sigs [gtkwave::getDisplayedSignals]
puts "DISPLAYED [llength $sigs]"
foreach s $sigs { puts "SIG $s" }
flush stdout
TCL
cat >"$OUT/shot.sh" <<SH
gtkwave -a "$OUT/pe.fst.gtkw" -S "$OUT/list.tcl" "$OUT/pe.fst" >"$OUT/gtkwave.log" 2>&1 &
pid=\$!
for i in \$(seq 1 40); do grep -q DISPLAYED "$OUT/gtkwave.log" 2>/dev/null && break; sleep 0.25; done
sleep 1.5
import -window root "$OUT/screenshot.png"
kill \$pid
SH
# two xvfb-run -a at once can collide: serialise on the shared lock when there is one
lock="${TMPDIR:-/tmp}/gpupd-xvfb.lock"
timeout 180 flock "$lock" xvfb-run -a -s "-screen 0 1600x1000x24" bash "$OUT/shot.sh"
got=$(sed -n 's/^DISPLAYED //p' "$OUT/gtkwave.log")
if [ "$got" != "$want" ]; then
  echo "FAIL: the view names $want signals, GTKWave displays ${got:-none} (missing ones below; log $OUT/gtkwave.log)"
  grep '^pe_exchanger\.' "$VIEW" | sed 's/^pe_exchanger\.pe_exchanger\.//' | while read -r s; do
    grep -qF "$s" "$OUT/gtkwave.log" || echo "  missing: $s"; done
  exit 1
fi
/usr/bin/python3 - "$OUT/screenshot.png" <<'PY' || exit 1
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert("RGB"); w, h = im.size; px = im.load()
# wave pane: right 65% of the window; traces are drawn in bright green. Count 21-pixel signal slots
# (the row pitch at this font) that hold a trace, and slots of the names pane that hold dark text.
slot = 21
green = set(y // slot for y in range(h) if any(px[x, y][1] > 180 and px[x, y][0] < 100 and px[x, y][2] < 100
                                          for x in range(int(w * 0.35), w, 3)))
text = set(y // slot for y in range(h) if sum(1 for x in range(int(w * 0.14), int(w * 0.30), 2)
                                            if sum(px[x, y]) < 200) >= 2)
print(f"screenshot {w}x{h}: {len(green)} signal slots with traces, {len(text)} with signal-name text")
if len(green) < 25 or len(text) < 25:
    print("FAIL: the screenshot does not show the signals (expected >= 25 slots of each)"); sys.exit(1)
PY
echo "test_waves: $got signals displayed, screenshot $OUT/screenshot.png"
