# Hardening (issue 12): sanitizer builds of the TOOLS, hostile-user tests of every tool, fuzz targets per
# input surface. See docs/cli.md (arguments, outputs, limits) and docs/fuzzing.md.

# ASan+UBSan builds of every command-line tool (same sources as build/bin, linked with build/san/libgpupd.a).
SAN_TOOLS := $(patsubst cmodel/tools/%.c,$(BUILD)/san/bin/%,$(TOOL_SRCS))
$(BUILD)/san/bin/%: cmodel/tools/%.c $(SANLIB) | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CWARN) -O1 -g $(SANFLAGS) $(CPPFLAGS_COMMON) -MMD -MP $< $(SANLIB) $(LDLIBS_COMMON) -lz -lzstd -o $@
.PHONY: san-tools
san-tools: $(SAN_TOOLS)

# Every tool with a table of bad command lines (every numeric option x malformed/negative/overflowing/out-of-
# range values, plus tests/tools/bad_args.tsv), no-data-loss outputs, corrupt traces (render/p2g-trace/dump
# reject whatever validate rejects), inputs that used to hit undefined behaviour, resource limits, fault
# injection outcomes, validate against an unrelated image. Run with the -O2 tools and again with the
# sanitizer builds (any ASan/UBSan report fails, LeakSanitizer's included: every error exit frees what it
# allocated; test_tools.py turns detect_leaks on itself).
SAN_TOOL_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
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

# ---------------------------------------------------------------------------------------------- fuzzing
# One libFuzzer target per input surface (docs/fuzzing.md), linked with a clang ASan+UBSan copy of the whole
# model library. `make test-fuzz`: every target briefly (FUZZ_SMOKE_SECONDS each, from the committed seeds);
# `make fuzz`: every target for FUZZ_LONG_SECONDS with a corpus kept under build/fuzz/corpus-long; both
# print executions and coverage (libFuzzer cov/ft) per target.
FUZZ_TARGETS       := trace_file trace_text trace scene png asm dis p2g_text
FUZZ_SMOKE_SECONDS ?= 4
FUZZ_LONG_SECONDS  ?= 300
FUZZ_MAX_LEN       ?= 65536
FUZZ_CFLAGS        := -std=c11 -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
                      -Wall -Wextra $(CPPFLAGS_COMMON) -Itests/fuzz
FUZZ_LIB_OBJS      := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(LIB_SRCS))
FUZZ_LIB           := $(BUILD)/fuzz/libgpupd-fuzz.a
FUZZ_BINS          := $(patsubst %,$(BUILD)/fuzz/fuzz_%,$(filter-out trace,$(FUZZ_TARGETS)))

$(BUILD)/fuzz/obj/%.o: %.c | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@
$(FUZZ_LIB): $(FUZZ_LIB_OBJS)
	rm -f $@ && ar rcs $@ $^
$(FUZZ_BINS): $(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h $(FUZZ_LIB) | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_LIB) -lz -lzstd -lm -o $@

.PHONY: fuzz-build test-fuzz fuzz
fuzz-build: $(FUZZ_BINS) $(BUILD)/fuzz/fuzz_trace
FUZZ_RUN = tests/fuzz/run_fuzz.sh --bin $(BUILD)/fuzz --as $(BUILD)/bin/gpupd-as --max-len $(FUZZ_MAX_LEN)
test-fuzz: fuzz-build $(BUILD)/bin/gpupd-as
	@$(FUZZ_RUN) --seconds $(FUZZ_SMOKE_SECONDS) --work $(BUILD)/fuzz/smoke $(FUZZ_TARGETS)
fuzz: fuzz-build $(BUILD)/bin/gpupd-as
	@$(FUZZ_RUN) --seconds $(FUZZ_LONG_SECONDS) --work $(BUILD)/fuzz/long --keep $(FUZZ_TARGETS)
TEST_TARGETS += test-fuzz
