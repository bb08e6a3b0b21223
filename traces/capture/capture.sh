#!/usr/bin/env bash
# Regenerate the bundled GPUpd traces (traces/*.gpt, *.png, *.ppd.tsv) from Debian packages only:
# apitrace captures of glmark2 scenes (deterministic clock with faketime), OpenArena timedemo frames
# (the demo file recorded once is kept in traces/capture/demos/), a real-mesh scene and 1920x1080 Nexuiz frames
# (darkplaces, the demo the package ships), all on Mesa llvmpipe under Xvfb; reference images with `glretrace -s`,
# per-draw pixel counts with `glretrace --ppd`.
#
#   traces/capture/capture.sh [all|glmark2|ideas|oa|oa-hd|mesh|nexuiz] (default all)   -- or: make traces
#   traces/capture/capture.sh capture-oa2|capture-nexuiz   1920x1080 captures only (OpenArena opengl2, Nexuiz)
#   traces/capture/capture.sh record-oa-demo      re-record the OpenArena demo (not deterministic: bots)
#   traces/capture/capture.sh test OUTDIR          tiny capture + conversion used by make test-trace-convert
#
# Environment: WORK (scratch, default build/capture), OUT (default traces), TOOL (gpupd-trace binary).
set -euo pipefail
CALLER_PWD=$PWD
cd "$(dirname "$0")/../.."
ROOT=$PWD
WORK=${WORK:-$ROOT/build/capture}
OUT=${OUT:-$ROOT/traces}
TOOL=${TOOL:-$ROOT/build/bin/gpupd-trace}
CONV="/usr/bin/python3 $ROOT/traces/capture/apitrace2gpupd.py --assembler $ROOT/build/bin/gpupd-as --shaders $ROOT/cmodel/shaders"
W=640; H=480
export LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe MESA_LOADER_DRIVER_OVERRIDE=swrast
export vblank_mode=0
# llvmpipe without rasterizer threads: no clock reads from other threads, so faketime's per-read steps
# below see the same sequence of reads on every run.
export LP_NUM_THREADS=0
# Every user of a display in this project takes one lock first: two `xvfb-run -a` started at once (make -j)
# can pick the same display number.
XVFB=(flock "${TMPDIR:-/tmp}/gpupd-xvfb.lock" xvfb-run -a -s "-screen 0 1280x1024x24")
# A frozen start date that advances by a fixed step at every clock read: the animation depends only on the
# number of clock reads, not on how fast llvmpipe renders.
FAKETIME_SPEC=${FAKETIME_SPEC:-"@2020-01-01 00:00:00 i0.004"}
mkdir -p "$WORK" "$OUT"

log() { echo "capture: $*" >&2; }

# png_store IN OUT: the reference image glretrace wrote, re-encoded losslessly with Pillow's optimize (zlib
# level 9): the same pixels in about 14 % fewer bytes (docs/traces.md, "Compression"). Written to a temporary
# file and renamed, so OUT is never half-written.
png_store() {
  /usr/bin/python3 -c 'import sys; from PIL import Image; Image.open(sys.argv[1]).save(sys.argv[2], "PNG", optimize=True)' \
    "$1" "$2.tmp" && mv "$2.tmp" "$2"
}

# finish NAME RAW FRAMESPEC: convert RAW (frames FRAMESPEC of it) into OUT/NAME.gpt with reference image
# and per-draw pixel counts.
finish() {
  local name=$1 raw=$2 frames=$3
  local d="$WORK/$name"
  mkdir -p "$d"
  log "$name: per-draw pixel counts (glretrace --ppd)"
  "${XVFB[@]}" glretrace --ppd "$raw" > "$d/ppd.txt" 2> "$d/ppd.err" || { tail "$d/ppd.err"; return 1; }
  log "$name: converting frames $frames"
  $CONV "$raw" --frames "$frames" ${W:+--width $W} ${H:+--height $H} --name "$name" --ppd "$d/ppd.txt" --max-tex-dim "${MAXTEX:-0}" \
    --source "${SOURCE_DESC:-$name}" --tool "$TOOL" --meta "$d/meta.json" --out "$OUT/$name.gpt"
  local swaps
  swaps=$(/usr/bin/python3 -c "import json,sys; print(','.join(map(str, json.load(open(sys.argv[1]))['swap_calls'])))" "$d/meta.json")
  log "$name: reference image(s) at call(s) $swaps (glretrace -s)"
  rm -f "$d"/snap-*.png
  "${XVFB[@]}" glretrace -s "$d/snap-" -S "$swaps" "$raw" > "$d/snap.log" 2>&1 || { tail "$d/snap.log"; return 1; }
  local pngs=("$d"/snap-*.png)
  [ -e "${pngs[0]}" ] || { log "$name: no snapshot written"; return 1; }
  if [ ${#pngs[@]} -eq 1 ]; then png_store "${pngs[0]}" "$OUT/$name.png"
  else local i=0; for p in "${pngs[@]}"; do png_store "$p" "$OUT/$name.f$i.png"; i=$((i + 1)); done; fi
  "$TOOL" draws "$OUT/$name.gpt" | awk -F'\t' 'NR==1{print "frame\tdraw\tcall\tprims\tref_pixels"; next} {print $1"\t"$2"\t"$3"\t"$4"\t"$12}' \
    > "$OUT/$name.ppd.tsv"
  "$TOOL" validate "$OUT/$name.gpt"
}

# glmark2 SCENE-SPEC NAME FRAME [extra glmark2 args]
glmark2_scene() {
  local spec=$1 name=$2 frame=$3; shift 3
  local d="$WORK/$name"
  mkdir -p "$d"
  log "$name: capturing glmark2 -b $spec"
  rm -f "$d/raw.trace"
  HOME="$d" "${XVFB[@]}" faketime -f "$FAKETIME_SPEC" apitrace trace -o "$d/raw.trace" \
    glmark2 -s ${W}x${H} -b "$spec" "$@" > "$d/capture.log" 2>&1 || { tail "$d/capture.log"; return 1; }
  SOURCE_DESC="glmark2 -s ${W}x${H} -b $spec (faketime '$FAKETIME_SPEC'), apitrace frame $frame" \
    finish "$name" "$d/raw.trace" "$frame"
}

do_glmark2() {
  glmark2_scene "shadow:duration=0.6" glmark2-shadow 40
  glmark2_scene "refract:duration=0.6" glmark2-refract 40
  glmark2_scene "desktop:effect=blur:windows=4:passes=1:duration=0.6" glmark2-desktop-blur 40
  glmark2_scene "terrain:duration=0.6" glmark2-terrain 10
  glmark2_scene "build:model=bunny:use-vbo=true:duration=0.6" glmark2-build-bunny 40
  do_ideas
}

# glmark2 `ideas`: line strips (the desk lamp's cord and the paper's scribbles) among triangle strips and fans:
# the bundled trace with lines (format 1.2; docs/golden-model.md section 1.1)
do_ideas() {
  glmark2_scene "ideas:duration=0.6" glmark2-ideas 40
}

# ---------------------------------------------------------------- OpenArena
OA_DEMO=traces/capture/demos/gpupd-oa_dm4.dm_71
# r_ext_multitexture 0: lightmaps are drawn as a second, blended pass (multipass blending) instead of a
# second texture unit, so every pass is one texture modulated by the vertex colour (exact in the format).
OA_ARGS=(+set com_protocol 71 +set cl_renderer opengl1 +set r_mode -1 +set r_customwidth $W +set r_customheight $H
         +set r_fullscreen 0 +set s_initsound 0 +set com_introplayed 1 +set sv_pure 0 +set com_maxfps 0
         +set r_swapInterval 0 +set cg_drawFPS 0 +set r_ext_multitexture 0)
OA_NFRAMES=${OA_NFRAMES:-4}
# The bundled frames (other parts of the project refer to them by name). They are what the automatic rule
# below picked on the first capture; OA_FRAMES= (empty) applies the rule again.
OA_FRAMES=${OA_FRAMES-"109 159 215 248"}

oa_home() {
  local h=$1
  mkdir -p "$h/.openarena/baseoa/demos"
  cp "$ROOT/$OA_DEMO" "$h/.openarena/baseoa/demos/gpupd.dm_71"
}

record_oa_demo() {
  local h="$WORK/oa-record"
  rm -rf "$h"; mkdir -p "$h/.openarena/baseoa"
  cp traces/capture/oa-record.cfg "$h/.openarena/baseoa/gpupdrec.cfg"
  HOME="$h" timeout 300 "${XVFB[@]}" /usr/games/openarena "${OA_ARGS[@]}" +map oa_dm4 +exec gpupdrec.cfg \
    > "$h/record.log" 2>&1 || true
  mkdir -p traces/capture/demos
  cp "$h/.openarena/baseoa/demos/gpupd.dm_71" "$OA_DEMO"
  log "recorded $OA_DEMO ($(stat -c %s "$OA_DEMO") bytes)"
}

do_oa() {
  local d="$WORK/oa"
  mkdir -p "$d"
  oa_home "$d/home"
  # The engine seeds rand() from /dev/urandom (particles, smoke, gibs): fix the seed with an LD_PRELOAD shim.
  gcc -shared -fPIC -O2 -o "$d/libfixseed.so" traces/capture/fixed_seed.c -ldl
  log "openarena: timedemo capture of $OA_DEMO"
  rm -f "$d/raw.trace"
  # Played as a timedemo: every snapshot of the demo is rendered, whatever the speed, so frame N of the
  # capture is the same on every run; the game quits at the end of the demo (nextdemo quit).
  HOME="$d/home" LD_PRELOAD="$d/libfixseed.so" timeout 900 "${XVFB[@]}" faketime -f "$FAKETIME_SPEC" apitrace trace -o "$d/raw.trace" \
    /usr/games/openarena "${OA_ARGS[@]}" +set timedemo 1 +set nextdemo quit +demo gpupd \
    > "$d/capture.log" 2>&1 || true
  [ -s "$d/raw.trace" ] || { log "openarena capture failed"; tail "$d/capture.log"; return 1; }
  grep -a 'frames.*seconds' "$d/capture.log" >&2 || true
  $CONV "$d/raw.trace" --stats > "$d/frames.txt"
  # Busy frames: OA_NFRAMES frames evenly spread over those with 300..800 draw calls and >= 5000 triangles
  # (in-game, not the loading screen), or OA_FRAMES="a b ...".
  local frames=${OA_FRAMES:-$(awk '$2 >= 300 && $2 <= 800 && $3 >= 5000 {print $1}' "$d/frames.txt" |
      awk -v n="$OA_NFRAMES" '{f[NR]=$1} END {for (i = 0; i < n && NR; i++) printf "%s ", f[1 + int(i * (NR - 1) / (n > 1 ? n - 1 : 1))]}')}
  [ -n "$frames" ] || { log "openarena: no frame with 300..800 draws"; return 1; }
  for f in $frames; do
    local name=oa-dm4-f$f
    log "$name: trimming frame $f ($(awk -v f=$f '$1==f{print $2}' "$d/frames.txt") draw calls)"
    gltrim --frames=$f -o "$d/$name.trace" "$d/raw.trace" > "$d/$name.trim.log" 2>&1
    # Full-resolution textures (format 1.2 compresses them with zstd; OA_MAXTEX=64 gives the old 64x64
    # downscaled textures, flagged TEX_APPROX, for a smaller repository).
    MAXTEX=${OA_MAXTEX:-0} SOURCE_DESC="openarena timedemo of $OA_DEMO (map oa_dm4, opengl1 renderer), apitrace frame $f, cut with gltrim" \
      finish "$name" "$d/$name.trace" last
  done
  # One multi-frame trace (4 consecutive frames, for alternate-frame rendering): from the second chosen frame.
  local f0
  f0=$(echo $frames | awk '{print ($2 != "" ? $2 : $1)}')
  local name=oa-dm4-f${f0}x4
  log "$name: trimming frames $f0-$((f0 + 3))"
  gltrim --frames=$f0-$((f0 + 3)) -o "$d/$name.trace" "$d/raw.trace" > "$d/$name.trim.log" 2>&1
  MAXTEX=${OA_MAXTEX:-0} SOURCE_DESC="openarena timedemo of $OA_DEMO (map oa_dm4, opengl1 renderer), apitrace frames $f0-$((f0 + 3)), cut with gltrim" \
    finish "$name" "$d/$name.trace" last4
}

# ---------------------------------------------------------------- real-mesh scene (>= 500k triangles)
do_mesh() {
  local name=mesh-bunnies d="$WORK/mesh-bunnies"
  mkdir -p "$d"
  log "$name: capturing meshscene.py (glmark2-data bunny + assimp-testmodels meshes)"
  rm -f "$d/raw.trace"
  "${XVFB[@]}" apitrace trace -o "$d/raw.trace" /usr/bin/python3 traces/capture/meshscene.py --width $W --height $H \
    > "$d/capture.log" 2>&1 || { tail "$d/capture.log"; return 1; }
  SOURCE_DESC="traces/capture/meshscene.py: 8 x glmark2-data bunny.obj + assimp-testmodels, VBO + GLSL MVP" \
    finish "$name" "$d/raw.trace" last
}

# OpenArena as a player runs it: 1280x1024 (the paper's most common resolution), default renderer settings
# (opengl1 with multitexturing: lightmaps on texture unit 1, generated fixed-function programs), full-resolution
# textures. One trace with two consecutive busy frames (they share the textures: half the size of two traces).
OA_HD_W=1280; OA_HD_H=1024
OA_HD_FRAME=${OA_HD_FRAME:-159}
oa_hd_capture() {
  local d="$WORK/oa-hd"
  mkdir -p "$d"
  oa_home "$d/home"
  gcc -shared -fPIC -O2 -o "$d/libfixseed.so" traces/capture/fixed_seed.c -ldl
  log "openarena ${OA_HD_W}x${OA_HD_H}: timedemo capture of $OA_DEMO (default renderer settings)"
  rm -f "$d/raw.trace"
  HOME="$d/home" LD_PRELOAD="$d/libfixseed.so" timeout 1800 xvfb-run -a -s "-screen 0 ${OA_HD_W}x${OA_HD_H}x24" \
    faketime -f "$FAKETIME_SPEC" apitrace trace -o "$d/raw.trace" \
    /usr/games/openarena +set com_protocol 71 +set cl_renderer opengl1 +set r_mode -1 +set r_customwidth $OA_HD_W \
    +set r_customheight $OA_HD_H +set r_fullscreen 0 +set s_initsound 0 +set com_introplayed 1 +set sv_pure 0 \
    +set com_maxfps 0 +set r_swapInterval 0 +set cg_drawFPS 0 +set timedemo 1 +set nextdemo quit +demo gpupd \
    > "$d/capture.log" 2>&1 || true
  [ -s "$d/raw.trace" ] || { log "openarena ${OA_HD_W}x${OA_HD_H} capture failed"; tail "$d/capture.log"; return 1; }
}
do_oa_hd() {
  local d="$WORK/oa-hd" f=$OA_HD_FRAME
  [ -s "$d/raw.trace" ] && [ -z "${OA_HD_RECAPTURE:-}" ] || oa_hd_capture
  local name=oa-dm4-hd
  log "$name: trimming frames $f-$((f + 1))"
  gltrim --frames=$f-$((f + 1)) -o "$d/$name.trace" "$d/raw.trace" > "$d/$name.trim.log" 2>&1
  W="" H="" MAXTEX=0 SOURCE_DESC="openarena ${OA_HD_W}x${OA_HD_H} timedemo of $OA_DEMO (map oa_dm4, default opengl1 renderer settings: multitexture), apitrace frames $f-$((f + 1)), cut with gltrim" \
    finish "$name" "$d/$name.trace" last2
}

# ---------------------------------------------------------------- paper-sized frames (1920x1080, issue 22)
# Two engines with render-to-texture passes, captured at 1920x1080 on llvmpipe; docs/traces.md, "Paper-sized
# frames". Both stop after a fixed number of buffer swaps (traces/capture/frame_limit.c: the process exits
# after GPUPD_MAX_FRAMES swaps, so the capture ends at the same frame on every run), and run under the same
# clock (faketime) and rand() seed shim as the OpenArena frames above. Outputs: WORK/NAME/raw.trace and
# WORK/NAME/frames.txt (frame, draw calls, triangles: apitrace2gpupd.py --stats).
BIG_W=1920; BIG_H=1080
# Separate X display numbers: these captures run for minutes and must not hold the shared xvfb lock.
BIG_XVFB_OA2=${BIG_XVFB_OA2:-71}; BIG_XVFB_NEX=${BIG_XVFB_NEX:-72}
# OpenArena on ioquake3's opengl2 renderer with its render-to-texture features: sun shadow maps (r_sunShadows,
# r_forceSun: three cascades into depth textures sampled by sampler2DShadow), HDR rendering into RGBA16F
# with tone mapping and auto exposure (r_hdr, r_toneMap; auto exposure is on by default: a chain of linear blits down to
# 1x1), SSAO (r_ssao), depth pre-pass (r_depthPrepass), post-processing (r_postProcess). The demo and the
# timedemo play as for the opengl1 frames; frame numbers are those of the same demo.
OA2_ARGS=(+set com_protocol 71 +set cl_renderer opengl2 +set r_mode -1 +set r_customwidth $BIG_W +set r_customheight $BIG_H
          +set r_fullscreen 0 +set s_initsound 0 +set com_introplayed 1 +set sv_pure 0 +set com_maxfps 0
          +set r_swapInterval 0 +set cg_drawFPS 0
          +set r_sunShadows 1 +set r_forceSun 1 +set r_hdr 1 +set r_toneMap 1 +set r_ssao 1
          +set r_depthPrepass 1 +set r_postProcess 1)
OA2_MAX_FRAMES=${OA2_MAX_FRAMES:-200}
# Nexuiz 2.5.2 on darkplaces: the demo the package ships (demos/demo1, map warfare) as a benchmark
# (-benchmark: timedemo, every demo frame rendered whatever the speed) with real-time world and dynamic
# lights casting shadow maps, bloom, water reflection/refraction (r_water), deluxe mapping.
# Textures uncompressed (gl_texturecompression*, r_texture_dds_load 0): by default the sky is uploaded as
# RGBA for the driver to compress to DXT1, and llvmpipe's encoder is not something the converter reproduces.
# Three settings keep the programs inside the shader compiler's subset (docs/shader-compiler.md): offset
# mapping off (its dFdx), shadow-map lookups without the direction cube (r_shadow_shadowmapping_vsdct 0: a
# cube sampler), without PCF (filterquality 0: textureGatherOffset) and compared in the shader rather than
# by a sampler2DShadow (useshadowsampler 0: the format has no compare mode); the shadow maps themselves stay.
# The shadow-map atlas is 2048x2048 (r_shadow_shadowmapping_texturesize; darkplaces' default 8192x8192 is 256 MB
# of depth surface that every simulated GPU holds its own copy of: 16 GPUs would need 4 GB, 64 GPUs 16 GB); each
# light's shadow map is then at most 2048/8 = 256 pixels a side (r_shadow_shadowmapping_maxsize is bounded by it).
NEX_ARGS=(-benchmark demos/demo1 -nosound +vid_width $BIG_W +vid_height $BIG_H +vid_fullscreen 0 +vid_vsync 0
          +r_shadow_realtime_world 1 +r_shadow_realtime_world_shadows 1 +r_shadow_realtime_dlight 1
          +r_shadow_realtime_dlight_shadows 1 +r_shadow_shadowmapping 1 +r_bloom 1 +r_water 1
          +r_glsl_deluxemapping 1 +r_glsl_offsetmapping 0 +r_coronas 1 +cl_decals 1 +showfps 0
          +gl_texturecompression 0 +gl_texturecompression_sky 0 +r_texture_dds_load 0
          +r_shadow_shadowmapping_vsdct 0 +r_shadow_shadowmapping_filterquality 0
          +r_shadow_shadowmapping_useshadowsampler 0 +r_shadow_shadowmapping_texturesize 2048)
NEX_MAX_FRAMES=${NEX_MAX_FRAMES:-120}

big_shims() {
  local d=$1
  gcc -shared -fPIC -O2 -o "$d/libfixseed.so" traces/capture/fixed_seed.c -ldl
  gcc -shared -fPIC -O2 -o "$d/libframelimit.so" traces/capture/frame_limit.c -ldl
}

# big_capture NAME DISPLAY MAXFRAMES HOME-SETUP-FUNCTION COMMAND...
big_capture() {
  local name=$1 disp=$2 nmax=$3 setup=$4; shift 4
  local d="$WORK/$name"
  rm -rf "$d"; mkdir -p "$d/home"
  "$setup" "$d/home"
  big_shims "$d"
  log "$name: capturing ${BIG_W}x${BIG_H}, $nmax frames: $*"
  # LP_NUM_THREADS=0 as everywhere (deterministic clock reads). llvmpipe at 1920x1080 is CPU-heavy: run the
  # script under nice (make traces does).
  HOME="$d/home" GPUPD_MAX_FRAMES=$nmax LD_PRELOAD="$d/libfixseed.so:$d/libframelimit.so" timeout 7200 \
    xvfb-run -n "$disp" -s "-screen 0 ${BIG_W}x${BIG_H}x24" faketime -f "$FAKETIME_SPEC" \
    apitrace trace -o "$d/raw.trace" "$@" > "$d/capture.log" 2>&1 || true
  grep -q "frame_limit: $nmax frames" "$d/capture.log" || { log "$name: capture did not reach $nmax frames"; tail "$d/capture.log"; return 1; }
  $CONV "$d/raw.trace" --stats > "$d/frames.txt"
  log "$name: $(wc -l < "$d/frames.txt") frames, busiest: $(sort -k2,2nr "$d/frames.txt" | head -1)"
}
nex_home() { mkdir -p "$1"; }
do_oa2_capture() { big_capture oa2 "$BIG_XVFB_OA2" "$OA2_MAX_FRAMES" oa_home /usr/games/openarena "${OA2_ARGS[@]}" +set timedemo 1 +demo gpupd; }
do_nex_capture() { big_capture nexuiz "$BIG_XVFB_NEX" "$NEX_MAX_FRAMES" nex_home /usr/games/nexuiz "${NEX_ARGS[@]}"; }

# Bundled Nexuiz frames: NEX_NFRAMES frames evenly spread over the frames with >= NEX_MIN_DRAWS draw calls
# (first and last included; frames.txt of the capture), or NEX_FRAMES="a b ..."; each cut out with gltrim and
# converted at full texture resolution into traces/nexuiz-fN. The capture is reused if WORK/nexuiz/raw.trace
# exists (NEX_RECAPTURE=1 captures again).
NEX_NFRAMES=${NEX_NFRAMES:-3}; NEX_MIN_DRAWS=${NEX_MIN_DRAWS:-1000}
nex_pick_frames() {
  awk -v m="$NEX_MIN_DRAWS" '$2 >= m {print $1}' "$1" |
    awk -v n="$NEX_NFRAMES" '{f[NR]=$1} END {for (i = 0; i < n && NR; i++) printf "%s ", f[1 + int(i * (NR - 1) / (n > 1 ? n - 1 : 1))]}'
}
do_nexuiz() {
  local d="$WORK/nexuiz"
  if [ ! -s "$d/raw.trace" ] || [ ! -s "$d/frames.txt" ] || [ -n "${NEX_RECAPTURE:-}" ]; then do_nex_capture; fi
  local frames=${NEX_FRAMES:-$(nex_pick_frames "$d/frames.txt")}
  [ -n "$frames" ] || { log "nexuiz: no frame with >= $NEX_MIN_DRAWS draw calls"; return 1; }
  log "nexuiz: frames $frames (of $(awk -v m="$NEX_MIN_DRAWS" '$2 >= m' "$d/frames.txt" | wc -l) with >= $NEX_MIN_DRAWS draw calls)"
  for f in $frames; do
    local name=nexuiz-f$f
    log "$name: trimming frame $f ($(awk -v f=$f '$1==f{print $2}' "$d/frames.txt") draw calls)"
    gltrim --frames=$f -o "$d/$name.trace" "$d/raw.trace" > "$d/$name.trim.log" 2>&1
    W=$BIG_W H=$BIG_H MAXTEX=0 SOURCE_DESC="nexuiz 2.5.2 on darkplaces: -benchmark demos/demo1 (map warfare) at ${BIG_W}x${BIG_H}, real-time lights with shadow maps (2048x2048 atlas), bloom, r_water (capture.sh NEX_ARGS), apitrace frame $f, cut with gltrim" \
      finish "$name" "$d/$name.trace" last
    rm -f "$d/$name.trace"
  done
}

# OpenArena opengl2 frames: OA2_FRAMES (default 109) of the capture WORK/oa2/raw.trace (captured first if
# missing, or with OA2_RECAPTURE=1), each cut out with gltrim and converted at full texture resolution into
# OUT/oa2-dm4-fN (.gpt, .png reference, .ppd.tsv), then validated against llvmpipe (OUT/../work: validate.json).
# Not part of `all` until a frame meets issue 22's targets (docs/traces.md, "OpenArena opengl2 frames").
OA2_FRAMES=${OA2_FRAMES:-109}
do_oa2() {
  local d="$WORK/oa2"
  if [ ! -s "$d/raw.trace" ] || [ -n "${OA2_RECAPTURE:-}" ]; then do_oa2_capture; fi
  for f in $OA2_FRAMES; do
    local name=oa2-dm4-f$f
    log "$name: trimming frame $f"
    gltrim --frames=$f -o "$d/$name.trace" "$d/raw.trace" > "$d/$name.trim.log" 2>&1
    W=$BIG_W H=$BIG_H MAXTEX=0 SOURCE_DESC="openarena 0.8.8 on ioquake3 opengl2: timedemo of the gpupd demo (oa_dm4) at ${BIG_W}x${BIG_H}, sun shadows, HDR and tone mapping, SSAO, depth pre-pass (capture.sh OA2_ARGS), apitrace frame $f, cut with gltrim" \
      finish "$name" "$d/$name.trace" last
    "$ROOT/build/bin/gpupd-sim" validate --trace "$OUT/$name.gpt" --ref "$OUT/$name.png" --diff "$WORK/$name/diff.png" \
      --json "$WORK/$name/validate.json" --min-image-close 0 --min-draws-1pct 0
    rm -f "$d/$name.trace"
  done
}

case "${1:-all}" in
  all) do_glmark2; do_oa; do_oa_hd; do_mesh; do_nexuiz ;;
  oa-hd) do_oa_hd ;;
  glmark2) do_glmark2 ;;
  ideas) do_ideas ;;
  oa) do_oa ;;
  mesh) do_mesh ;;
  capture-oa2) do_oa2_capture ;;
  oa2) do_oa2 ;;
  capture-nexuiz) do_nex_capture ;;
  nexuiz) do_nexuiz ;;
  record-oa-demo) record_oa_demo ;;
  test)
    # Small end-to-end capture for the test suite: a short glmark2 shadow run, 1 frame converted.
    OUT=${2:?usage: capture.sh test OUTDIR}; WORK=$OUT/work; mkdir -p "$WORK"
    FAKETIME_SPEC="@2020-01-01 00:00:00 i0.01"
    glmark2_scene "shadow:duration=0.2" test-shadow 3
    # fixed-function path: traces/capture/ffscene.py (matrix stacks, immediate mode, client arrays)
    d="$WORK/test-ff"; mkdir -p "$d"
    "${XVFB[@]}" apitrace trace -o "$d/raw.trace" /usr/bin/python3 traces/capture/ffscene.py --width 320 --height 240 \
      > "$d/capture.log" 2>&1 || { tail "$d/capture.log"; exit 1; }
    W=320 H=240 SOURCE_DESC="traces/capture/ffscene.py" finish test-ff "$d/raw.trace" last ;;
  convert)
    # One command from a capture to a validated trace: traces/capture/capture.sh convert RAW.trace NAME [FRAMES]
    # (FRAMES as apitrace2gpupd.py --frames, default last; frames numbered from 0). Writes OUT/NAME.gpt,
    # OUT/NAME.png (reference at the frame's SwapBuffers), OUT/NAME.ppd.tsv, then validates the model.
    raw=${2:?usage: capture.sh convert RAW.trace NAME [FRAMES]}; name=${3:?usage: capture.sh convert RAW.trace NAME [FRAMES]}
    case $raw in /*) ;; *) raw=$CALLER_PWD/$raw ;; esac
    case $OUT in /*) ;; *) OUT=$CALLER_PWD/$OUT ;; esac
    [ -f "$raw" ] || { echo "capture.sh convert: no such capture: $raw" >&2; exit 2; }
    W="" H="" MAXTEX=${MAXTEX:-0} SOURCE_DESC=${SOURCE_DESC:-$(basename "$raw")} finish "$name" "$raw" "${4:-last}"
    ref=$OUT/$name.png; [ -f "$ref" ] || ref=$(ls "$OUT/$name".f*.png | tail -1)
    "$ROOT/build/bin/gpupd-sim" validate --trace "$OUT/$name.gpt" --ref "$ref" --diff "$WORK/$name/diff.png" \
      --json "$WORK/$name/validate.json" ;;
  *) echo "usage: $0 [all|glmark2|ideas|oa|oa-hd|mesh|nexuiz|oa2|capture-oa2|capture-nexuiz|record-oa-demo|test OUTDIR|convert RAW.trace NAME [FRAMES]]" >&2; exit 2 ;;
esac
