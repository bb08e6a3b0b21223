# Every RTL file lints on its own: `verilator --lint-only -Wall -Irtl -I$(BUILD)/gen rtl/FILE.v`. The generated
# Verilog includes exist only in $(BUILD)/gen/ (every tool reads them there): isa_defs.vh from defs/isa.tbl and
# gpupd_flit.vh from cmodel/link/flit.h. That the generated C and Verilog sides agree is checked by
# test-isa-tools (isa_defs.vh values compiled by Icarus against isa_defs.h) and test-model-cli (a flit built by
# Icarus from gpupd_flit.vh compared with its value under the layout of flit.h).

.PHONY: test-rtl-headers
test-rtl-headers: $(BUILD)/gen/isa_defs.vh $(BUILD)/gen/gpupd_flit.vh
	@for f in rtl/*.v; do verilator --lint-only -Wall -Irtl -I$(BUILD)/gen $$f || { echo "FAIL: $$f does not lint on its own (verilator --lint-only -Wall -Irtl -I$(BUILD)/gen $$f)"; exit 1; }; done
	@echo "test-rtl-headers: every rtl/*.v lints on its own (with the generated includes of $(BUILD)/gen)"

TEST_TARGETS += test-rtl-headers
LINT_TARGETS += test-rtl-headers
