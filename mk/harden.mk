# Hardening (issue 12): sanitizer builds of the TOOLS, hostile-user tests of every tool, fuzz targets per
# input surface. See docs/cli.md (arguments, outputs, limits) and docs/fuzzing.md.

# ASan+UBSan builds of every command-line tool (same sources as build/bin, linked with build/san/libgpupd.a).
SAN_TOOLS := $(patsubst cmodel/tools/%.c,$(BUILD)/san/bin/%,$(TOOL_SRCS))
$(BUILD)/san/bin/%: cmodel/tools/%.c $(SANLIB) | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CWARN) -O1 -g $(SANFLAGS) $(CPPFLAGS_COMMON) -MMD -MP $< $(SANLIB) $(LDLIBS_COMMON) -lz -o $@
.PHONY: san-tools
san-tools: $(SAN_TOOLS)

# Every tool with a table of bad command lines (every numeric option x malformed/negative/overflowing/out-of-
# range values, plus tests/tools/bad_args.tsv), no-data-loss outputs, corrupt traces (render/p2g-trace/dump
# reject whatever validate rejects), inputs that used to hit undefined behaviour, resource limits, fault
# injection outcomes, validate against an unrelated image. Run with the -O2 tools and again with the
# sanitizer builds (any ASan/UBSan report fails). Leak reports are off: tools exit without freeing on errors.
SAN_TOOL_ENV := ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
.PHONY: test-tools-cli
test-tools-cli: $(TOOLS) $(SAN_TOOLS)
	@$(PYTHON) tests/tools/test_tools.py --bin $(BUILD)/bin --work $(BUILD)/test-tools
	@$(SAN_TOOL_ENV) $(PYTHON) tests/tools/test_tools.py --bin $(BUILD)/san/bin --work $(BUILD)/test-tools-san
TEST_TARGETS += test-tools-cli

# Longer: the same on bundled traces too (corrupted copies of real traces), with the sanitized tools.
.PHONY: test-tools-long
test-tools-long: $(SAN_TOOLS)
	@$(SAN_TOOL_ENV) $(PYTHON) tests/tools/test_tools.py --bin $(BUILD)/san/bin --work $(BUILD)/test-tools-long \
	  --sections traces --random-flips 200 --real-traces traces/glmark2-refract.gpt,traces/mesh-bunnies.gpt
