#!/usr/bin/env bash
# Shared check of a saved GTKWave view (used by tests/{p2g,pe,simt,system}/test_waves.sh): load the view
# headless under Xvfb on a fresh waveform, check that GTKWave found every signal the view names (Tcl
# getDisplayedSignals), and that the screenshot shows them (signal names in the names pane, green traces in
# the wave pane).
# Usage: tests/common/check_gtkw_view.sh OUTDIR WAVES.fst VIEW.gtkw SAVED_VIEW.gtkw SIGNAL_RE NAMES_X0 NAMES_X1 MIN_SLOTS
#   WAVES.fst / VIEW.gtkw: the waveform and the view the harness wrote for it (pointing at WAVES.fst)
#   SAVED_VIEW.gtkw: the committed view (counts the signals that must be displayed)
#   SIGNAL_RE: extended regex of the view's signal lines (e.g. '^p2g_mapper\.', '^gpu[0-9]*\.')
#   NAMES_X0/X1: the names pane as fractions of the screenshot width (where signal-name text is looked for)
#   MIN_SLOTS: how many 21-pixel signal rows must show a trace and a name
set -u
OUT=${1:?out dir}; FST=${2:?fst}; VIEW=${3:?view for the fst}; SAVED=${4:?saved view}; RE=${5:?signal regex}
X0=${6:-0.14}; X1=${7:-0.30}; MIN=${8:-25}
[ -s "$FST" ] || { echo "FAIL: no waveform $FST"; exit 1; }
want=$(grep -cE "$RE" "$SAVED")
[ "$want" -gt 0 ] || { echo "FAIL: the saved view $SAVED names no signal matching $RE"; exit 1; }
cat >"$OUT/list.tcl" <<'TCL'
set sigs [gtkwave::getDisplayedSignals]
puts "DISPLAYED [llength $sigs]"
foreach s $sigs { puts "SIG $s" }
flush stdout
TCL
cat >"$OUT/shot.sh" <<SH
gtkwave -a "$VIEW" -S "$OUT/list.tcl" "$FST" >"$OUT/gtkwave.log" 2>&1 &
pid=\$!
for i in \$(seq 1 40); do grep -q DISPLAYED "$OUT/gtkwave.log" 2>/dev/null && break; sleep 0.25; done
sleep 1.5
import -window root "$OUT/screenshot.png"
kill \$pid
SH
# two `xvfb-run -a` started at once (make -j) can pick the same display: serialise on a lock, and try again
# once if GTKWave did not start
lock="${TMPDIR:-/tmp}/gpupd-xvfb.lock"
for attempt in 1 2; do
  rm -f "$OUT/gtkwave.log"
  flock "$lock" timeout 180 xvfb-run -a -s "-screen 0 1600x1000x24" bash "$OUT/shot.sh"
  grep -q DISPLAYED "$OUT/gtkwave.log" 2>/dev/null && break
  sleep 3
done
got=$(sed -n 's/^DISPLAYED //p' "$OUT/gtkwave.log" 2>/dev/null)
if [ "$got" != "$want" ]; then
  echo "FAIL: the view names $want signals, GTKWave displays ${got:-none} (missing ones below; log $OUT/gtkwave.log)"
  grep -E "$RE" "$SAVED" | sed -E 's/^[A-Za-z0-9_]+\.//; s/^[A-Za-z0-9_]+\.//' | while read -r s; do
    grep -qF "$s" "$OUT/gtkwave.log" || echo "  missing: $s"; done
  exit 1
fi
/usr/bin/python3 - "$OUT/screenshot.png" "$X0" "$X1" "$MIN" <<'PY' || exit 1
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert("RGB"); w, h = im.size; px = im.load()
x0, x1, need = float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
# wave pane: right 65% of the window; traces are drawn in bright green. Count 21-pixel signal slots
# (the row pitch at this font) that hold a trace, and slots of the names pane that hold dark text.
slot = 21
green = set(y // slot for y in range(h) if any(px[x, y][1] > 180 and px[x, y][0] < 100 and px[x, y][2] < 100
                                          for x in range(int(w * 0.35), w, 3)))
text = set(y // slot for y in range(h) if sum(1 for x in range(int(w * x0), int(w * x1), 2)
                                            if sum(px[x, y]) < 200) >= 2)
print(f"screenshot {w}x{h}: {len(green)} signal slots with traces, {len(text)} with signal-name text")
if len(green) < need or len(text) < need:
    print(f"FAIL: the screenshot does not show the signals (expected >= {need} slots of each)"); sys.exit(1)
PY
echo "test_waves: $got signals displayed, screenshot $OUT/screenshot.png"
