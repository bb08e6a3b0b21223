# Shader concern (issue 11): the application's GLSL compiled to the SIMT ISA (traces/capture/glsl2isa.py),
# fixed-function state as generated programs (traces/capture/ffgen.py). See docs/shader-compiler.md.

# Unit tests per construct: compile with glslang + spirv-opt + our translator, run on the ISA interpreter.
.PHONY: test-shader-compiler
test-shader-compiler: $(BUILD)/bin/gpupd-as $(BUILD)/bin/gpupd-isa-run
	@$(PYTHON) tests/shaders/test_compiler.py --work $(BUILD)/shader-compiler
TEST_TARGETS += test-shader-compiler

# Differential test against llvmpipe under Xvfb (tests/shaders/glslscene.py captured, converted with one
# command, rendered by the model on the interpreter) + the converter's errors.
.PHONY: test-shader-diff
test-shader-diff: $(BUILD)/bin/gpupd-as $(BUILD)/bin/gpupd-trace $(BUILD)/bin/gpupd-sim
	@rm -rf $(BUILD)/shader-diff
	@$(PYTHON) tests/shaders/test_diff.py --work $(BUILD)/shader-diff
TEST_TARGETS += test-shader-diff

# Image agreement with llvmpipe on every bundled frame (floors: tests/shaders/agreement.tsv) and the fast
# built-in path against the interpreter (per-draw pixel counts) on the traces with compiled programs but the
# 1920x1080 Nexuiz frames (TRACES_BIG): their programs discard (darkplaces' alpha kill), which the built-in
# stand-in does not, so counts differ there by design (nexuiz-f107: draws 1021, 1022 and, behind them, 1028).
.PHONY: test-shader-agreement shader-agreement-measure
test-shader-agreement: $(BUILD)/bin/gpupd-sim $(BUILD)/bin/gpupd-trace
	@$(PYTHON) tests/shaders/test_agreement.py --work $(BUILD)/shader-agreement --builtin-traces "$(filter-out $(TRACES_BIG),$(TRACES_ALL))"
TEST_TARGETS += test-shader-agreement
shader-agreement-measure: $(BUILD)/bin/gpupd-sim $(BUILD)/bin/gpupd-trace
	@$(PYTHON) tests/shaders/test_agreement.py --work $(BUILD)/shader-agreement --measure

# The texture unit's llvmpipe filtering (gpupd-sim --tex-filter llvmpipe) against llvmpipe itself under Xvfb:
# random RGBA8 textures, their generated levels and draws with random scale, skew and offset, pixel by pixel
# (tests/shaders/texfilt_llvmpipe.c; docs/golden-model.md section 1, "Texture filtering"). About 3 CPU s.
$(BUILD)/bin/texfilt-llvmpipe: tests/shaders/texfilt_llvmpipe.c $(LIB) | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CWARN) $(COPT) $(CPPFLAGS_COMMON) $< $(LIB) $(LDLIBS_COMMON) -lz -lzstd -lGL -lX11 -o $@
.PHONY: test-texfilt-llvmpipe
test-texfilt-llvmpipe: $(BUILD)/bin/texfilt-llvmpipe
	@LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe flock $${TMPDIR:-/tmp}/gpupd-xvfb.lock \
	  xvfb-run -a -s "-screen 0 1024x768x24" $(BUILD)/bin/texfilt-llvmpipe
test-long: test-texfilt-llvmpipe
