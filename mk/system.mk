# N-GPU system: the CD system of cycle models (cmodel/sys/cdsys.h, gpupd-cdsys) and the system co-simulation
# of N x (P2G RTL -> PE RTL) over the C link model (sim/system). See docs/system-cosim.md.

$(BUILD)/bin/gpupd-cdsys: LDLIBS_COMMON += -lz
$(BUILD)/tests/test_cdsys: LDLIBS_COMMON += -lz
