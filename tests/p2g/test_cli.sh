#!/usr/bin/env bash
# gpupd-p2g command-line interface: hand-computed answers and error handling (messages name the line,
# exit status 2). Usage: tests/p2g/test_cli.sh build/bin/gpupd-p2g
set -u
BIN=${1:?path to gpupd-p2g}
fails=0
check() { # name, expected, actual
  if [ "$2" != "$3" ]; then
    printf 'FAIL %s\n  expected: %q\n  got:      %q\n' "$1" "$2" "$3"; fails=$((fails+1))
  else echo "ok   $1"; fi
}
# 200x100 screen, 32x32 tiles (7x4 tiles), 4 GPUs, diag owners (tx+ty) mod 4 -- answers worked out by hand
out=$(printf '%s\n' "10 0 0 8191 0 0 8191 0" "11 0 0 8320 0 0 8191 0" "12 128 128 128 128 128 128 0" \
  "13 127 127 127 127 127 127 0" "# comment" "" "14 -5000 0 -200 500 -300 900 2" "15 0 0 8191 0 0 8191 3" \
  "4294967295 8192 8192 10240 8192 8192 10240 0" | "$BIN" --gpus 4 --width 200 --height 100)
check "diag answers" $'10 1\n11 3\n12 1\n13 0\n14 f\n15 0\n4294967295 4' "$out"
# linear, 128 px wide = 4 tiles per row, N=4: vertical stripes owner = tx
out=$(echo "1 10240 0 12800 0 10240 32768 0" | "$BIN" --gpus 4 --width 128 --height 128 --mode linear)
check "linear stripes" "1 2" "$out"
# scissor limited to tile (2,0): a screen-sized triangle only reaches GPU 2
out=$(echo "1 0 0 51200 0 0 25600 0" | "$BIN" --gpus 4 --width 200 --height 100 --scissor 64,0,95,31)
check "scissor" "1 4" "$out"
# 64 GPUs, tile 1 px: a 70-pixel-wide row covers every GPU: full 64-bit mask
out=$(echo "1 0 0 17920 0 0 255 0" | "$BIN" --gpus 64 --width 100 --height 100 --tile-log2 0)
check "64 GPUs full mask" "1 ffffffffffffffff" "$out"

err() { # name, expected exit, expected stderr fragment, stdin, args...
  local name=$1 want_rc=$2 frag=$3 input=$4; shift 4
  local e rc
  e=$(printf '%s' "$input" | "$BIN" "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" != "$want_rc" ] || [[ "$e" != *"$frag"* ]]; then
    printf 'FAIL %s\n  expected exit %s and stderr containing %q\n  got exit %s: %q\n' "$name" "$want_rc" "$frag" "$rc" "$e"
    fails=$((fails+1))
  else echo "ok   $name"; fi
}
A=(--gpus 4 --width 200 --height 100)
err "missing field"   2 "line 2: missing field 'flags'" $'1 0 0 0 0 0 0 0\n2 0 0 0 0 0 0\n' "${A[@]}"
err "not a number"    2 "line 1: field 'y1' is not a decimal integer" $'1 0 0 0 zz 0 0 0\n' "${A[@]}"
err "coord range"     2 "line 3: field 'x2' out of range" $'1 0 0 0 0 0 0 0\n\n3 0 0 0 0 8388608 0 0\n' "${A[@]}"
err "flags range"     2 "line 1: field 'flags' out of range [0, 3]" $'1 0 0 0 0 0 0 4\n' "${A[@]}"
err "prim_id range"   2 "line 1: field 'prim_id' out of range" $'4294967296 0 0 0 0 0 0 0\n' "${A[@]}"
err "extra text"      2 "line 1: extra text" $'1 0 0 0 0 0 0 0 9\n' "${A[@]}"
err "gpus 0"          2 "--gpus" "" --gpus 0 --width 200 --height 100
err "gpus 65"         2 "--gpus" "" --gpus 65 --width 200 --height 100
err "width too big"   2 "--width" "" --gpus 4 --width 16385 --height 100
err "bad mode"        2 "--mode" "" --gpus 4 --width 200 --height 100 --mode zigzag
err "bad scissor"     2 "--scissor" "" --gpus 4 --width 200 --height 100 --scissor 1,2,3
err "missing args"    2 "required" "" --gpus 4
err "unknown arg"     2 "unknown argument" "" --gpus 4 --width 200 --height 100 --frobnicate 1
if [ $fails -ne 0 ]; then echo "test_cli: $fails FAILED (reproduce: $0 $BIN)"; exit 1; fi
echo "test_cli: all passed"
