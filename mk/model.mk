# Functional golden model (issue 5): per-GPU pipeline (cmodel/gpu), N-GPU system, network, primitive
# exchanger and schemes (cmodel/sys), PNG (cmodel/img), gpupd-sim. See docs/golden-model.md.

SIM_TOOL := $(BUILD)/bin/gpupd-sim
# PNG writing uses zlib
$(SIM_TOOL): LDLIBS_COMMON += -lz -lzstd
$(BUILD)/tests/test_gpu_%: LDLIBS_COMMON += -lz -lzstd
$(BUILD)/tests/test_sys_%: LDLIBS_COMMON += -lz -lzstd

MODEL_OUT  := $(BUILD)/model

# The packet layout for the RTL: every `#define FLIT_<NAME> <number>` of cmodel/link/flit.h becomes
# `define FLIT_<NAME> <number> (one definition shared by C and Verilog, SPEC 4.2).
$(BUILD)/gen/gpupd_flit.vh: cmodel/link/flit.h
	@mkdir -p $(@D)
	@{ echo "// Generated from cmodel/link/flit.h by mk/model.mk: do not edit."; \
	  awk '$$1 == "#define" && $$2 ~ /^FLIT_[A-Z_]+$$/ && $$3 ~ /^(0x[0-9A-Fa-f]+|[0-9]+)$$/ { \
	    v = $$3; if (v ~ /^0x/) v = "'"'"'h" substr(v, 3); print "`define " $$2 " " v }' $<; } > $@
GEN_HDRS += $(BUILD)/gen/gpupd_flit.vh
MODEL_GPUS ?= 2,3,4,8,16
MODEL_BENCH_TRACES := $(sort $(wildcard traces/*.gpt))

# Every scheme and N in {2,3,4,8,16}, both topologies, bit-identical to `single` on the synthetic scenes;
# chopin with a group threshold low enough (--chopin-min-tris; on traces also no draw cap, --chopin-max-draw-tris 0)
# that its groups compose instead of falling back;
# on every bundled trace: every scheme x N on `line`, and the batching schemes on `hub` for N = 3, 16
# (the full cross product on both topologies is `make bench-model-verify`). --check-masks (synthetic scenes,
# hub runs on traces): every primitive a GPU was left out of is rasterized there too and must cover none of
# its pixels (P2G soundness, even where later draws would hide the damage). On a mismatch gpupd-sim writes
# expected/got/diff PNGs under $(MODEL_OUT)/diff and prints the command to reproduce.
.PHONY: test-model-identical
# Bundled traces with the fast built-in shading (scheme identity does not depend on the shading path; the
# compiled programs on the interpreter are up to 13x slower, docs/shader-compiler.md), plus one trace with
# compiled programs on the interpreter (default --shaders auto).
# The check is split into one make target per scene and per trace so that `make -j` spreads it over the
# cores; `test-model-identical` is all of them. MODEL_TEST_TRACES is the sample `make test` verifies (the
# traces bundled with the product's small frames); `make test-long` verifies every trace under traces/.
MODEL_TEST_TRACES ?= $(filter $(addprefix traces/,glmark2-build-bunny.gpt glmark2-desktop-blur.gpt \
  glmark2-ideas.gpt glmark2-refract.gpt glmark2-shadow.gpt glmark2-terrain.gpt mesh-bunnies.gpt \
  oa-dm4-f109.gpt oa-dm4-f159.gpt oa-dm4-f159x4.gpt oa-dm4-f215.gpt oa-dm4-f248.gpt oa-dm4-hd.gpt),$(MODEL_BENCH_TRACES))
MODEL_ID_SCENES := tris rtt big lines synthetic chopin shaders
MODEL_ID_VERIFY := mkdir -p $(MODEL_OUT)/diff && $(SIM_TOOL) verify --diff-dir $(MODEL_OUT)/diff
MODEL_ID_TRACE_T := $(foreach t,$(MODEL_TEST_TRACES),test-model-identical-trace-$(basename $(notdir $t)))
MODEL_ID_TRACE_ALL := $(foreach t,$(MODEL_BENCH_TRACES),test-model-identical-trace-$(basename $(notdir $t)))
.PHONY: $(addprefix test-model-identical-,$(MODEL_ID_SCENES)) $(sort $(MODEL_ID_TRACE_ALL))
test-model-identical: $(addprefix test-model-identical-,$(MODEL_ID_SCENES)) $(MODEL_ID_TRACE_T)
$(addprefix test-model-identical-,$(MODEL_ID_SCENES)) $(sort $(MODEL_ID_TRACE_ALL)): $(SIM_TOOL)
test-model-identical-tris:
	@$(MODEL_ID_VERIFY) --scene tris --size 200x136 --prims 900 --gpus $(MODEL_GPUS) --topology both --check-masks --chopin-min-tris 16
test-model-identical-rtt:
	@$(MODEL_ID_VERIFY) --scene rtt --size 160x120 --frame 1 --gpus $(MODEL_GPUS) --topology both --check-masks --chopin-min-tris 16
test-model-identical-big:
	@$(MODEL_ID_VERIFY) --scene big --size 192x128 --prims 9000 --batch 1000 --gpus $(MODEL_GPUS) --schemes gpupd-batch,gpupd-ra,gpupd-stream --topology both --check-masks
test-model-identical-lines:
	@$(MODEL_ID_VERIFY) --scene lines --size 200x136 --gpus $(MODEL_GPUS) --topology both --check-masks --chopin-min-tris 16
test-model-identical-synthetic: $(BUILD)/bin/gpupd-trace  # literal path: trace.mk (TRACE_TOOL) is included after this file
	@$(BUILD)/bin/gpupd-trace synth $(MODEL_OUT)/synthetic.gpt
	@$(MODEL_ID_VERIFY) --trace $(MODEL_OUT)/synthetic.gpt --frame 1 --gpus $(MODEL_GPUS) --topology both -q
# chopin must compose at its default threshold somewhere, or the check would test only its dup fallback.
test-model-identical-chopin:
	@set -e; $(MODEL_ID_VERIFY) --trace traces/mesh-bunnies.gpt --gpus 2,5 --schemes chopin --topology line --shaders builtin -q \
	  | tee $(MODEL_OUT)/chopin.txt; grep -q "chopin composed [1-9]" $(MODEL_OUT)/chopin.txt || \
	  { echo "FAIL: chopin composed no group of mesh-bunnies at the default threshold (the check would test only dup)"; exit 1; }
test-model-identical-shaders:
	@$(MODEL_ID_VERIFY) --trace traces/glmark2-shadow.gpt --gpus 2,5,16 --topology line -q
# gpupd-stream timed: the frame rendered piece by piece as the stream PE's cycle model releases (batch, source)
# (cdsys stream mode, checked there against the SPEC 4.2 lists) equals single's; a render-to-texture trace (several
# segments), a game frame and the geometry-bound trace, N = 3, 16 (make test-long: also 64), both topologies, with
# the default front end (projection slots); the single in-order front end and projection first once each.
MODEL_STREAM_TIMED_GPUS ?= 3,16
test-long-model-identical: MODEL_STREAM_TIMED_GPUS = 3,16,64
.PHONY: test-model-identical-stream-timed
test-model-identical-stream-timed: $(SIM_TOOL)
	@set -e; for t in glmark2-shadow oa-dm4-f109 mesh-bunnies; do \
	  $(MODEL_ID_VERIFY) --trace traces/$$t.gpt --gpus $(MODEL_STREAM_TIMED_GPUS) --schemes gpupd-stream --topology both --timing on --shaders builtin -q; done; \
	$(MODEL_ID_VERIFY) --trace traces/oa-dm4-f109.gpt --gpus 16 --schemes gpupd-stream --topology hub --timing on --sx-front in-order --shaders builtin -q; \
	$(MODEL_ID_VERIFY) --trace traces/oa-dm4-f109.gpt --gpus 16 --schemes gpupd-stream --topology line --timing on --sx-front ahead --shaders builtin -q
test-model-identical: test-model-identical-stream-timed
test-long-model-identical: test-model-identical-stream-timed
# One bundled trace: every scheme x N on `line` (gpupd-stream included), and the batching schemes on `hub` for N = 3, 16. `make test`
# samples N = 2, 3, 16 on the traces (the synthetic scenes above run every N in MODEL_GPUS);
# `make test-long` runs every trace at every N in MODEL_GPUS.
MODEL_TRACE_GPUS ?= 2,3,16
test-long-model-identical: MODEL_TRACE_GPUS = $(MODEL_GPUS)
$(sort $(MODEL_ID_TRACE_ALL)): test-model-identical-trace-%:
	@set -e; $(MODEL_ID_VERIFY) --trace traces/$*.gpt --gpus $(MODEL_TRACE_GPUS) --topology line --shaders builtin --chopin-min-tris 1 --chopin-max-draw-tris 0 -q; \
	$(MODEL_ID_VERIFY) --trace traces/$*.gpt --gpus 3,16 --schemes gpupd-batch,gpupd-ra,gpupd-stream,chopin --topology hub --check-masks --shaders builtin --chopin-min-tris 1 --chopin-max-draw-tris 0 -q
TEST_TARGETS += test-model-identical
.PHONY: test-long-model-identical
test-long-model-identical: $(MODEL_ID_TRACE_ALL)
test-long: test-long-model-identical

# Command-line interface: bad arguments and bad traces give a clear error and exit status 2.
.PHONY: test-model-cli
test-model-cli: $(SIM_TOOL) $(BUILD)/gen/gpupd_flit.vh
	@set -e; d=$(MODEL_OUT)/cli; mkdir -p $$d; n=0; \
	expect() { want=$$1; shift; set +e; "$$@" >$$d/out.txt 2>&1; got=$$?; set -e; \
	  if [ $$got -ne $$want ]; then echo "FAIL: exit $$got (want $$want): $$*"; cat $$d/out.txt; exit 1; fi; n=$$((n+1)); }; \
	expect 2 $(SIM_TOOL) render --scene tris --scheme nope -o $$d/x.png; \
	expect 2 $(SIM_TOOL) render --scene tris --gpus 0; \
	expect 2 $(SIM_TOOL) render --scene tris --topology ring; \
	expect 2 $(SIM_TOOL) render --scene tris --tile-log2 0; \
	expect 2 $(SIM_TOOL) render --scene tris --batch 0; \
	expect 2 $(SIM_TOOL) render --scene tris --scheme gpupd-stream --gpus 4 --sx-front nope; \
	expect 2 $(SIM_TOOL) render --scene tris --scheme gpupd-stream --gpus 4 --sx-depth 1; \
	expect 2 $(SIM_TOOL) render --trace /nonexistent.gpt; \
	head -c 100 /dev/urandom > $$d/bad.gpt; expect 2 $(SIM_TOOL) render --trace $$d/bad.gpt; \
	expect 2 $(SIM_TOOL) render --scene tris --frame 5; \
	expect 1 $(SIM_TOOL) render --scene tris --scheme gpupd-ra --gpus 4 --inject-fault dup:3; \
	grep -q "ordering invariant violated" $$d/out.txt || { echo "FAIL: no invariant report"; cat $$d/out.txt; exit 1; }; \
	expect 1 $(SIM_TOOL) render --scene tris --scheme gpupd --gpus 3 --topology hub --inject-fault drop:2; \
	grep -q "packet accounting" $$d/out.txt || { echo "FAIL: no accounting report"; cat $$d/out.txt; exit 1; }; \
	expect 1 $(SIM_TOOL) render --scene tris --scheme gpupd --gpus 4 --check-masks --inject-fault clear-mask:5; \
	grep -q "P2G mask check failed" $$d/out.txt || { echo "FAIL: no mask-check report"; cat $$d/out.txt; exit 1; }; \
	expect 0 $(SIM_TOOL) render --scene rtt --frame 1 --scheme gpupd-ra --gpus 4 --topology hub -o $$d/rtt.png --stats $$d/rtt.json; \
	$(PYTHON) -c "import json,sys; j=json.load(open('$$d/rtt.json')); assert j['gpus']==4 and len(j['per_gpu'])==4 and len(j['links'])==8, j; assert sum(g['prims_received'] for g in j['per_gpu'])==sum(l['prim_packets'] for l in j['links'] if l['to']!='hub0'), 'received != delivered'"; \
	n=$$((n+1)); \
	printf '%s\n' '`include "gpupd_flit.vh"' 'module flit_tb;' '  reg [63:0] f;' '  initial begin' \
	  '    f = (64'"'"'d`FLIT_TYPE_PRIM << `FLIT_TYPE_LSB) | (64'"'"'d63 << `FLIT_SRC_LSB) | (64'"'"'d5 << `FLIT_DST_LSB) |' \
	  '        (64'"'"'h1234 << `FLIT_TAG_LSB) | (64'"'"'hDEADBEEF << `FLIT_PAYLOAD_LSB);' \
	  '    if (f !== 64'"'"'h3F851234DEADBEEF || `FLIT_DST_BCAST != 127 || `FLIT_TAG_BITS < 11) begin $$display("FAIL flit %h", f); $$finish(1); end' \
	  '    $$display("flit layout ok"); $$finish(0);' '  end' 'endmodule' > $$d/flit_tb.v; \
	iverilog -g2012 -I $(BUILD)/gen -o $$d/flit_tb.vvp $$d/flit_tb.v && vvp -n $$d/flit_tb.vvp | grep -q "flit layout ok" || \
	  { echo "FAIL: build/gen/gpupd_flit.vh does not give the C packet layout (iverilog $$d/flit_tb.v)"; exit 1; }; \
	n=$$((n+1)); echo "test-model-cli: $$n passed, 0 failed"
TEST_TARGETS += test-model-cli

# The full cross product on every bundled trace (both topologies): slower, so a benchmark target.
.PHONY: bench-model-verify
bench-model-verify: $(SIM_TOOL)
	@set -e; mkdir -p $(MODEL_OUT)/diff; for t in $(MODEL_BENCH_TRACES); do \
	  /usr/bin/time -f "  %es" $(SIM_TOOL) verify --trace $$t --gpus $(MODEL_GPUS) --topology both --diff-dir $(MODEL_OUT)/diff 2>&1 | grep -v note; done
BENCH_TARGETS += bench-model-verify

# Speed of the functional model: primitives, fragments and frames per second.
.PHONY: bench-model
bench-model: $(SIM_TOOL)
	@set -e; for s in single dup gpupd gpupd-batch gpupd-ra; do \
	  $(SIM_TOOL) bench --scene big --size 640x480 --prims 60000 --scheme $$s --gpus 4; done; \
	$(SIM_TOOL) bench --scene big --size 640x480 --prims 60000 --scheme gpupd-ra --gpus 16; \
	for t in $(MODEL_BENCH_TRACES); do for s in single gpupd-ra; do \
	  $(SIM_TOOL) bench --trace $$t --scheme $$s --gpus 4 --repeat 1; done; done
BENCH_TARGETS += bench-model

# Shading on the ISA interpreter (library programs vs_mvp, fs_color, fs_flat, fs_tex_modulate) gives the
# same frame, bit for bit, as the built-in C programs, on the synthetic scenes and on every bundled trace;
# and every scheme stays identical with it. Default shading (--shaders auto: the trace's compiled programs on
# the interpreter, library kinds built in) against everything on the interpreter; the fast --shaders builtin
# approximation of compiled programs is checked by test-shader-agreement (docs/shader-compiler.md).
# make test: TRACES_TEST (Makefile: the 1920x1080 frames sampled); make test-long: every bundled trace.
.PHONY: test-model-isa test-long-model-isa
test-model-isa: MODEL_ISA_SET = $(TRACES_TEST)
test-long-model-isa: MODEL_ISA_SET = $(MODEL_BENCH_TRACES)
test-model-isa test-long-model-isa: $(SIM_TOOL)
	@set -e; mkdir -p $(MODEL_OUT)/diff; n=0; for args in "--scene tris --size 200x136 --prims 900" "--scene rtt --size 160x120 --frame 1" "--scene lines --size 200x136" \
	    $(foreach t,$(MODEL_ISA_SET),"--trace $(t)"); do \
	  a=$$($(SIM_TOOL) render $$args --shaders auto -q | sed -n 's/.* hash \([0-9a-f]*\)$$/\1/p'); \
	  b=$$($(SIM_TOOL) render $$args --shaders isa -q | sed -n 's/.* hash \([0-9a-f]*\)$$/\1/p'); \
	  if [ -z "$$a" ] || [ -z "$$b" ]; then echo "FAIL: no frame hash in the render output ($$args)"; exit 1; fi; \
	  if [ "$$a" != "$$b" ]; then echo "FAIL: built-in shaders hash $$a != ISA interpreter hash $$b"; \
	    echo "  reproduce: $(SIM_TOOL) render $$args -o a.png; $(SIM_TOOL) render $$args --shaders isa -o b.png"; exit 1; fi; \
	  n=$$((n+1)); done; \
	$(SIM_TOOL) verify --scene rtt --size 160x120 --frame 1 --shaders isa --gpus 2,5,16 --diff-dir $(MODEL_OUT)/diff -q; \
	echo "$@: $$n passed, 0 failed"
TEST_TARGETS += test-model-isa
test-long: test-long-model-isa

# The texture filtering a trace is validated with (gpupd-sim --tex-filter): the sixth column of
# tests/shaders/agreement.tsv for the trace's frame 0, else float. $(call VALIDATE_TEXF,NAME) in a recipe.
VALIDATE_TEXF = $$(awk -v n=$(1) '!/^\#/ && $$1 == n && $$2 == 0 && NF >= 6 {print $$6}' tests/shaders/agreement.tsv | grep . || echo float)

# Validation against real OpenGL (Mesa llvmpipe): every bundled trace that ships a reference image
# traces/NAME.png is rendered on one GPU and compared (image agreement, per-draw pixel counts against the
# glretrace --ppd counts stored in the trace), with the texture filtering of VALIDATE_TEXF. Results:
# out/validation/{NAME.json,NAME-diff.png,NAME.png} and a table in out/validation/summary.txt
# (docs/validation.md quotes it).
.PHONY: validate-model
validate-model: $(SIM_TOOL)
	@set -e; d=out/validation; mkdir -p $$d; : > $$d/summary.txt; \
	for t in $(MODEL_BENCH_TRACES); do n=$$(basename $$t .gpt); tf=$(call VALIDATE_TEXF,$$n); \
	  if [ -f traces/$$n.png ]; then \
	    { $(SIM_TOOL) validate --trace $$t --tex-filter $$tf --ref traces/$$n.png --diff $$d/$$n-diff.png -o $$d/$$n.png --json $$d/$$n.json -q 2>&1 || \
	      echo "validate-model: $$n is BELOW the stated agreement (docs/validation.md)"; } | tee -a $$d/summary.txt; \
	  elif ls traces/$$n.f*.png >/dev/null 2>&1; then for r in traces/$$n.f*.png; do k=$${r##*.f}; k=$${k%.png}; \
	    { $(SIM_TOOL) validate --trace $$t --tex-filter $$tf --frame $$k --ref $$r --diff $$d/$$n.f$$k-diff.png -o $$d/$$n.f$$k.png --json $$d/$$n.f$$k.json -q 2>&1 || \
	      echo "validate-model: $$n frame $$k is BELOW the stated agreement (docs/validation.md)"; } | tee -a $$d/summary.txt; done; \
	  else echo "validate-model: $$t has no reference image traces/$$n.png, skipped" | tee -a $$d/summary.txt; fi; \
	done; echo "validate-model: summary in $$d/summary.txt"
RUN_TARGETS += validate-model

# Agreement with real OpenGL must not regress: at least 95 % of the draws must write within 1 % of llvmpipe's
# pixel count, and the summed |difference| must stay under 0.5 % of the reference pixels (the measured shares:
# make test-long-model-validate; docs/validation.md), each trace with the texture filtering of VALIDATE_TEXF.
# make test: TRACES_TEST (Makefile: the 1920x1080 frames sampled; test-shader-agreement holds each of them to
# 99 % of draws with exact counts) but glmark2-terrain (its vertex shader displaces by a texture, so its
# counts need --tex-filter llvmpipe; left to test-long for time); make test-long: every bundled trace.
.PHONY: test-model-validate test-long-model-validate
test-model-validate: MODEL_VALIDATE_TRACES = $(filter-out traces/glmark2-terrain.gpt,$(TRACES_TEST))
test-long-model-validate: MODEL_VALIDATE_TRACES = $(MODEL_BENCH_TRACES)
test-model-validate test-long-model-validate: $(SIM_TOOL)
	@set -e; d=$(MODEL_OUT)/validate; mkdir -p $$d; n=0; \
	for t in $(MODEL_VALIDATE_TRACES); do b=$$(basename $$t .gpt); ref=traces/$$b.png; fr=""; tf=$(call VALIDATE_TEXF,$$b); \
	  if [ ! -f $$ref ]; then ref=$$(ls traces/$$b.f*.png 2>/dev/null | tail -1); \
	    [ -n "$$ref" ] || { echo "FAIL: $$t has no reference image traces/$$b.png (or .fK.png)"; exit 1; }; \
	    fr=$${ref##*.f}; fr="--frame $${fr%.png}"; fi; \
	  $(SIM_TOOL) validate --trace $$t $$fr --tex-filter $$tf --ref $$ref --json $$d/$$b.json -q >/dev/null; \
	  $(PYTHON) -c "import json,sys; j=json.load(open('$$d/$$b.json')); n=j['draws_with_ref']; \
	ok1 = n > 0 and j['draws_within_1pct'] >= 0.95 * n; ok2 = j['pixels_abs_diff'] <= 0.005 * max(1, j['pixels_ref']); \
	sys.exit(0) if ok1 and ok2 else sys.exit('FAIL: $$b: %d of %d draws within 1%% of llvmpipe, |diff| %d of %d pixels; reproduce: $(SIM_TOOL) validate --trace $$t $$fr --tex-filter $$tf --ref $$ref --diff diff.png' % (j['draws_within_1pct'], n, j['pixels_abs_diff'], j['pixels_ref']))"; \
	  n=$$((n+1)); done; [ $$n -eq $(words $(MODEL_VALIDATE_TRACES)) ] && [ $$n -gt 0 ] || { echo "FAIL: $$n traces validated"; exit 1; }; \
	echo "$@: $$n passed, 0 failed"
TEST_TARGETS += test-model-validate
test-long: test-long-model-validate

# Randomised configurations (printed, replayable): scene seed, GPU counts, tile size, ownership function,
# batching threshold, link latency, PE send rate, hub rate; every scheme must still match `single`.
MODEL_RANDOM_RUNS ?= 8
MODEL_RANDOM_SEED ?= 1
.PHONY: test-model-random
test-model-random: $(SIM_TOOL)
	@set -e; mkdir -p $(MODEL_OUT)/diff; n=0; r=$(MODEL_RANDOM_SEED); \
	for i in $$(seq 1 $(MODEL_RANDOM_RUNS)); do \
	  r=$$(( (r * 1103515245 + 12345) % 2147483648 )); s=$$(( r % 1000 + 1 )); \
	  g1=$$(( r / 7 % 15 + 2 )); g2=$$(( r / 131 % 63 + 2 )); t=$$(( r / 11 % 5 + 2 )); \
	  own=$$( [ $$(( r / 13 % 2 )) -eq 0 ] && echo diag || echo linear ); b=$$(( r / 17 % 300 + 1 )); \
	  lat=$$(( r / 19 % 12 + 1 )); sr=$$(( r / 23 % 4 + 1 )); hr=$$(( r / 29 % 3 + 1 )); \
	  sc=$$( [ $$(( r / 31 % 2 )) -eq 0 ] && echo tris || echo rtt ); fr=$$( [ $$sc = rtt ] && echo 1 || echo 0 ); \
	  args="--scene $$sc --frame $$fr --size 144x104 --seed $$s --gpus $$g1,$$g2 --tile-log2 $$t --own $$own --batch $$b --latency $$lat --send-rate $$sr --hub-rate $$hr --topology both --check-masks"; \
	  echo "  random run $$i: gpupd-sim verify $$args"; \
	  $(SIM_TOOL) verify $$args --diff-dir $(MODEL_OUT)/diff | sed 's/^/    /'; n=$$((n+1)); \
	done; echo "test-model-random: $$n passed, 0 failed (MODEL_RANDOM_SEED=$(MODEL_RANDOM_SEED) MODEL_RANDOM_RUNS=$(MODEL_RANDOM_RUNS))"
TEST_TARGETS += test-model-random
