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
