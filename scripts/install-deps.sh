#!/usr/bin/env bash
# Install every Debian 12 package the product needs, then check each tool's version loudly.
# Idempotent: packages already present are left alone. Run as root (or with sudo available).
# Recommends are NOT installed, so every package that matters is named here explicitly.
set -euo pipefail

PKGS=(
  # build and C test framework
  build-essential make gcc g++ pkg-config libcmocka-dev zlib1g-dev libpng-dev
  libzstd-dev                              # trace format 1.2: zstd-compressed chunks (docs/traces.md)
  clang llvm libclang-rt-14-dev            # libFuzzer + sanitizers for the trace reader fuzz target
  # HDL simulation and lint
  verilator iverilog libsystemc-dev
  # synthesis and timing
  yosys opensta qflow-tech-osu018 nextpnr-ice40 fpga-icestorm fpga-icestorm-chipdb
  # bounded proofs (yosys-smtbmc ships with yosys; the SMT solver does not)
  z3 boolector
  # waves, headless X, screenshots, plots
  gtkwave xvfb xauth x11-utils imagemagick python3 python3-matplotlib python3-numpy python3-pil
  # real workloads (capture and reference images)
  apitrace apitrace-tracers glmark2-x11 glmark2-data openarena openarena-data faketime libfaketime
  mesa-utils libgl1-mesa-dri libglx-mesa0
  # paper-sized game frames (issue 22): ioquake3's opengl2 renderer (shadow maps, HDR, SSAO) for OpenArena,
  # and Nexuiz on the darkplaces engine (real-time shadow maps, bloom, water)
  ioquake3 nexuiz nexuiz-data darkplaces
  # real meshes
  assimp-testmodels
  # evaluation sweep: the same job list runs under make -j or GNU parallel (docs/evaluation.md)
  parallel
  # GLSL front end for the shader compiler (traces/capture/glsl2isa.py): GLSL -> SPIR-V, optimiser, grammar
  glslang-tools spirv-tools spirv-headers
)

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${#missing[@]} missing package(s): ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all ${#PKGS[@]} packages already installed"
fi

exec "$(dirname "$0")/check-tools.sh"
