# Generated Verilog includes, also kept in rtl/ so that every RTL file lints on its own with
# `verilator --lint-only -Wall -Irtl rtl/FILE.v` (no build step needed). The single sources stay
# defs/isa.tbl (isa_defs.vh) and cmodel/link/flit.h (gpupd_flit.vh); the build generates them into
# build/gen/ and test-rtl-headers fails if the copies in rtl/ differ. Refresh with `make rtl-headers`.

RTL_HDRS := isa_defs.vh gpupd_flit.vh

.PHONY: rtl-headers test-rtl-headers
rtl-headers: $(addprefix $(BUILD)/gen/,$(RTL_HDRS))
	@for h in $(RTL_HDRS); do cmp -s $(BUILD)/gen/$$h rtl/$$h || { cp $(BUILD)/gen/$$h rtl/$$h.tmp && mv rtl/$$h.tmp rtl/$$h && echo "rtl-headers: rtl/$$h refreshed"; }; done

test-rtl-headers: $(addprefix $(BUILD)/gen/,$(RTL_HDRS))
	@for h in $(RTL_HDRS); do cmp -s $(BUILD)/gen/$$h rtl/$$h || { \
	  echo "FAIL: rtl/$$h differs from $(BUILD)/gen/$$h (generated from its single source); run: make rtl-headers"; \
	  diff $(BUILD)/gen/$$h rtl/$$h | head -10; exit 1; }; done
	@for f in rtl/*.v; do verilator --lint-only -Wall -Irtl $$f || { echo "FAIL: $$f does not lint on its own (verilator --lint-only -Wall -Irtl $$f)"; exit 1; }; done
	@echo "test-rtl-headers: rtl/{$(subst $(space),$(comma),$(RTL_HDRS))} match their sources; every rtl/*.v lints on its own"

TEST_TARGETS += test-rtl-headers
LINT_TARGETS += test-rtl-headers
