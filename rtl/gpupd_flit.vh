// Generated from cmodel/link/flit.h by mk/model.mk: do not edit.
`define FLIT_TYPE_LSB 61
`define FLIT_TYPE_BITS 3
`define FLIT_SRC_LSB 55
`define FLIT_SRC_BITS 6
`define FLIT_DST_LSB 48
`define FLIT_DST_BITS 7
`define FLIT_TAG_LSB 32
`define FLIT_TAG_BITS 16
`define FLIT_PAYLOAD_LSB 0
`define FLIT_PAYLOAD_BITS 32
`define FLIT_TYPE_PRIM 1
`define FLIT_TYPE_LAST 2
`define FLIT_TYPE_CREDIT 3
`define FLIT_DST_BCAST 127
`define FLIT_TAG_MASK 'hFFFF
