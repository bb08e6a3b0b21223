# ISA concern (issue 4): generated ISA headers, SFU tables, assembler/disassembler, interpreter tests.
ISA_TBL      := defs/isa.tbl
ISA_SFU_HEX  := $(sort $(wildcard defs/sfu_*.hex))
ISA_GEN      := scripts/gen_isa.py

$(BUILD)/gen/isa_defs.h: $(ISA_TBL) $(ISA_GEN)
	@mkdir -p $(@D)
	$(PYTHON) $(ISA_GEN) c $(ISA_TBL) $@

$(BUILD)/gen/isa_defs.vh: $(ISA_TBL) $(ISA_GEN)
	@mkdir -p $(@D)
	$(PYTHON) $(ISA_GEN) vh $(ISA_TBL) $@

$(BUILD)/gen/isa_sfu_tab.h: $(ISA_SFU_HEX) $(ISA_GEN)
	@mkdir -p $(@D)
	$(PYTHON) $(ISA_GEN) sfuh $@ $(ISA_SFU_HEX)

GEN_HDRS += $(BUILD)/gen/isa_defs.h $(BUILD)/gen/isa_defs.vh $(BUILD)/gen/isa_sfu_tab.h

# Re-fit the SFU coefficient tables (rarely; the .hex files are committed).
.PHONY: isa-sfu-fit
isa-sfu-fit:
	$(PYTHON) $(ISA_GEN) fit defs

ISA_SHADERS  := $(sort $(wildcard cmodel/shaders/*.s))
$(BUILD)/gen/isa_shaders_src.h: $(ISA_SHADERS) $(ISA_GEN)
	@mkdir -p $(@D)
	$(PYTHON) $(ISA_GEN) shaders $@ $(ISA_SHADERS)

GEN_HDRS += $(BUILD)/gen/isa_shaders_src.h

# ---------------------------------------------------------------------------------------------------
# End-to-end tool test: every library shader through gpupd-as -> gpupd-dis -> gpupd-as (identical bytes),
# an assembly error reported as file:line:col with a nonzero exit, and the generated Verilog include
# compiled by Icarus (values checked against the C header) and read by Yosys, and the committed SFU tables
# equal what the documented fitting procedure computes.
ISA_T := $(BUILD)/test-isa
.PHONY: test-isa-tools
test-isa-tools: $(BUILD)/bin/gpupd-as $(BUILD)/bin/gpupd-dis $(BUILD)/gen/isa_defs.vh $(BUILD)/gen/isa_defs.h
	@set -e; mkdir -p $(ISA_T); n=0; \
	for s in $(ISA_SHADERS); do b=$(ISA_T)/$$(basename $$s .s); \
	  $(BUILD)/bin/gpupd-as $$s -o $$b.bin; \
	  $(BUILD)/bin/gpupd-dis $$b.bin > $$b.dis.s; \
	  $(BUILD)/bin/gpupd-as $$b.dis.s -o $$b.dis.bin; \
	  if ! cmp -s $$b.bin $$b.dis.bin; then echo "test-isa-tools: $$s: disassembly does not re-assemble to the same bytes"; \
	    echo "  reproduce: $(BUILD)/bin/gpupd-as $$s -o x.bin && $(BUILD)/bin/gpupd-dis x.bin"; exit 1; fi; n=$$((n+1)); done; \
	printf 'nop\n  fadd r1, r2, r99\n' > $(ISA_T)/bad.s; \
	if $(BUILD)/bin/gpupd-as $(ISA_T)/bad.s -o $(ISA_T)/bad.bin 2> $(ISA_T)/bad.err; then \
	  echo "test-isa-tools: gpupd-as accepted a bad register"; exit 1; fi; \
	if ! grep -q "bad.s:2:16: error: expected a register" $(ISA_T)/bad.err; then \
	  echo "test-isa-tools: wrong error message:"; cat $(ISA_T)/bad.err; exit 1; fi; \
	head -c 12 $(ISA_T)/vs_mvp.bin > $(ISA_T)/trunc.bin; \
	if $(BUILD)/bin/gpupd-dis $(ISA_T)/trunc.bin > /dev/null 2> $(ISA_T)/trunc.err; then \
	  echo "test-isa-tools: gpupd-dis accepted a truncated file"; exit 1; fi; \
	grep -q "not a multiple of 8" $(ISA_T)/trunc.err || { echo "test-isa-tools: gpupd-dis gave the wrong error for a truncated file:"; cat $(ISA_T)/trunc.err; exit 1; }; \
	want=$$(printf '%d %d %d %d' $$(sed -n 's/^#define ISA_OP_FADD \(0x[0-9a-f]*\).*/\1/p; s/^#define ISA_OP_TEX \(0x[0-9a-f]*\).*/\1/p' $(BUILD)/gen/isa_defs.h) \
	  $$(sed -n 's/^#define ISA_F_OP_LO \([0-9]*\).*/\1/p; s/^#define ISA_STACK_DEPTH \([0-9]*\).*/\1/p' $(BUILD)/gen/isa_defs.h)); \
	printf '`include "isa_defs.vh"\nmodule isa_vh_check;\n  initial $$display("%%0d %%0d %%0d %%0d", `ISA_OP_FADD, `ISA_OP_TEX, `ISA_F_OP_LO, `ISA_STACK_DEPTH);\nendmodule\n' > $(ISA_T)/vh_check.v; \
	iverilog -g2012 -I $(BUILD)/gen -o $(ISA_T)/vh_check.vvp $(ISA_T)/vh_check.v; \
	got=$$(vvp -n $(ISA_T)/vh_check.vvp | head -1); \
	if [ "$$got" != "$$want" ]; then echo "test-isa-tools: Verilog include gives '$$got', C header '$$want'"; exit 1; fi; \
	yosys -q -p "read_verilog -I$(BUILD)/gen $(ISA_T)/vh_check.v" > /dev/null; \
	rm -rf $(ISA_T)/fit; mkdir -p $(ISA_T)/fit; $(PYTHON) $(ISA_GEN) fit $(ISA_T)/fit; \
	for h in $(ISA_SFU_HEX); do if ! cmp -s $$h $(ISA_T)/fit/$$(basename $$h); then \
	  echo "test-isa-tools: $$h differs from what 'scripts/gen_isa.py fit' computes (make isa-sfu-fit)"; exit 1; fi; done; \
	echo "test-isa-tools: $$n shaders round-trip through gpupd-as/gpupd-dis; errors, Verilog include and SFU tables OK"
TEST_TARGETS += test-isa-tools

# ---------------------------------------------------------------------------------------------------
# Benchmarks: SFU accuracy over every binary32 input of each reduced range (about 3.3e9 evaluations, a few
# minutes), interpreter speed in thread-instructions per second.
.PHONY: bench-isa-sfu bench-isa-interp
bench-isa-sfu: $(BUILD)/bin/gpupd-isa-bench
	nice $(BUILD)/bin/gpupd-isa-bench sfu
bench-isa-interp: $(BUILD)/bin/gpupd-isa-bench
	nice $(BUILD)/bin/gpupd-isa-bench interp
BENCH_TARGETS += bench-isa-interp bench-isa-sfu
