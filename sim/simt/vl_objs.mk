# Run by mk/simt.mk inside a Verilator -Mdir: compiles the verilated model, the Verilator runtime and the shim
# (simt_dut.cpp) WITHOUT linking, and lists what the link needs (link.objs; link.libs). The link with the C
# harness and libgpupd.a is a separate make rule, so a change of the C library relinks in a second instead
# of re-verilating and recompiling the model (docs/simt.md section 6). link.objs is rewritten only when an
# object changed, so the link rule sees an up-to-date model as unchanged.
# usage: make -C MDIR -f sim/simt/vl_objs.mk VM_MK=Vsimt_core.mk [OPT_FAST=..] link.objs
include $(VM_MK)

link.objs: $(VK_USER_OBJS) $(VK_GLOBAL_OBJS) $(VM_PREFIX)__ALL.a
	@echo $(LDFLAGS) $(LDLIBS) > link.libs
	@echo $(VK_USER_OBJS) $(VK_GLOBAL_OBJS) $(VM_PREFIX)__ALL.a > link.objs.tmp && mv link.objs.tmp link.objs
