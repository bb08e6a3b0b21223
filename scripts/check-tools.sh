#!/usr/bin/env bash
# Loud version check of every tool the product calls. Exits nonzero if one is missing or too old.
set -u
fail=0
ok()   { printf '  %-22s %s\n' "$1" "$2"; }
bad()  { printf '  %-22s MISSING/BAD: %s\n' "$1" "$2"; fail=1; }
ver()  { # name, command..., prints first line of its version output
  local n=$1; shift
  if out=$("$@" 2>&1 | grep -m1 -E '[0-9]' ); then ok "$n" "$out"; else bad "$n" "$*"; fi
}
file_there() { if [ -e "$2" ]; then ok "$1" "$2"; else bad "$1" "$2 not found"; fi; }

echo "== tool versions =="
ver gcc            gcc --version
ver clang          clang --version
ver make           make --version
ver verilator      verilator --version
ver iverilog       iverilog -V
ver yosys          yosys -V
ver yosys-smtbmc   bash -c 'command -v yosys-smtbmc >/dev/null && dpkg-query -W -f="yosys \${Version}\n" yosys'
ver z3             z3 --version
ver boolector      bash -c 'command -v boolector >/dev/null && dpkg-query -W -f="boolector \${Version}\n" boolector'
ver sta            bash -c 'command -v sta >/dev/null && dpkg-query -W -f="opensta \${Version}\n" opensta'
ver nextpnr-ice40  nextpnr-ice40 --version
ver icepack        bash -c 'command -v icepack >/dev/null && dpkg-query -W -f="fpga-icestorm \${Version}\n" fpga-icestorm'
ver gtkwave        bash -c 'gtkwave --help 2>&1 | grep -m1 -i "gtkwave" >/dev/null && dpkg-query -W -f="gtkwave \${Version}\n" gtkwave'
ver xvfb-run       bash -c 'command -v xvfb-run >/dev/null && dpkg-query -W -f="xvfb \${Version}\n" xvfb'
ver imagemagick    convert -version
ver python3-apt    /usr/bin/python3 -c 'import matplotlib,PIL,sys; print("python", sys.version.split()[0], "matplotlib", matplotlib.__version__, "PIL", PIL.__version__)'
ver apitrace       bash -c 'command -v apitrace >/dev/null && dpkg-query -W -f="apitrace \${Version}\n" apitrace'
ver glmark2        bash -c 'command -v glmark2 >/dev/null && dpkg-query -W -f="glmark2-x11 \${Version}\n" glmark2-x11'
ver parallel       bash -c 'parallel --version 2>/dev/null | head -1'
ver faketime       bash -c 'command -v faketime >/dev/null && dpkg-query -W -f="faketime \${Version}\n" faketime'
ver glslang        bash -c 'command -v glslangValidator >/dev/null && dpkg-query -W -f="glslang-tools \${Version}\n" glslang-tools'
ver spirv-opt      bash -c 'command -v spirv-opt >/dev/null && dpkg-query -W -f="spirv-tools \${Version}\n" spirv-tools'
file_there spirv-grammar   /usr/include/spirv/unified1/spirv.core.grammar.json
file_there cmocka.h        /usr/include/cmocka.h
ver libzstd-dev    bash -c 'test -f /usr/include/zstd.h && dpkg-query -W -f="libzstd-dev \${Version}\n" libzstd-dev'
file_there systemc.h       /usr/include/systemc.h
file_there osu018-liberty  /usr/share/qflow/tech/osu018/osu018_stdcells.lib
file_there ice40-chipdb    /usr/share/fpga-icestorm/chipdb/chipdb-8k.txt
file_there openarena       /usr/games/openarena
ver ioquake3       bash -c 'test -f /usr/lib/ioquake3/renderer_opengl2_x86_64.so && dpkg-query -W -f="ioquake3 \${Version} (renderer_opengl2)\n" ioquake3'
ver darkplaces     bash -c 'test -x /usr/games/darkplaces && dpkg-query -W -f="darkplaces \${Version}\n" darkplaces'
ver nexuiz         bash -c 'test -x /usr/games/nexuiz && dpkg-query -W -f="nexuiz \${Version}\n" nexuiz'
ver nexuiz-data    bash -c 'test -f /usr/share/games/nexuiz/data/data.pk3 && dpkg-query -W -f="nexuiz-data \${Version}\n" nexuiz-data'
ver mesa-llvmpipe  bash -c 'dpkg-query -W -f="libgl1-mesa-dri \${Version}\n" libgl1-mesa-dri'
file_there glmark2-data    /usr/share/glmark2

# Minimum versions the flows were written against
vv=$(verilator --version 2>/dev/null | awk '{print $2}')
case "$vv" in 5.*) ;; *) bad verilator-version "need Verilator 5.x, have '$vv'";; esac
yv=$(yosys -V 2>/dev/null | awk '{print $2}')
case "$yv" in 0.2[3-9]*|0.[3-9]*) ;; *) bad yosys-version "need Yosys >= 0.23, have '$yv'";; esac

# The bundled traces are byte-identical only with the renderers and games they were captured with
# (docs/traces.md, "Determinism"); another version still captures and converts, with other bytes.
pin() { local p=$1 want=$2 have; have=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null);
  if [ "$have" != "$want" ]; then printf '  %-22s note: %s, the bundled traces were made with %s\n' "$p" "${have:-absent}" "$want"; fi; }
pin libgl1-mesa-dri 22.3.6-1+deb12u1
pin ioquake3 1.36+u20221123.70d07d9+dfsg-1
pin darkplaces 0~20180908~beta1-5
pin nexuiz-data 2.5.2-12

if [ $fail -ne 0 ]; then echo "check-tools: SOME TOOLS ARE MISSING (see above)"; exit 1; fi
echo "check-tools: all tools present"
