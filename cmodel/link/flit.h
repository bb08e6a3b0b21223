/* Inter-GPU packet: one 64-bit flit (SPEC 4.2). This header is THE layout; docs/golden-model.md
 * reproduces the table and the RTL primitive exchanger must use the same fields.
 *
 *   bits   field     meaning
 *   63:61  type      1 PRIM (a primitive id for dst), 2 LAST (end of src's turn in batch tag),
 *                    3 CREDIT (gpupd-stream: dst may send `payload` more PRIM/LAST flits to src;
 *                    docs/sx.md)
 *   60:55  src       sending GPU, 0..63
 *   54:48  dst       destination GPU 0..63, or 127 = broadcast (LAST)
 *   47:32  tag       batch tag: batch number mod 65536 (>= 11 bits as the paper needs); 0 on CREDIT
 *   31:0   payload   PRIM: primitive id within the batch (application order)
 *                    LAST: number of primitives in the sender's chunk of the batch
 *                    CREDIT: number of receive-buffer slots returned (>= 1)
 */
#ifndef GPUPD_LINK_FLIT_H
#define GPUPD_LINK_FLIT_H

#include <stdint.h>

/* Field positions (the RTL gets these as `define macros in build/gen/gpupd_flit.vh, generated from the
 * #define lines of this file by mk/model.mk: plain decimal/hex values only). */
#define FLIT_TYPE_LSB   61
#define FLIT_TYPE_BITS  3
#define FLIT_SRC_LSB    55
#define FLIT_SRC_BITS   6
#define FLIT_DST_LSB    48
#define FLIT_DST_BITS   7
#define FLIT_TAG_LSB    32
#define FLIT_TAG_BITS   16
#define FLIT_PAYLOAD_LSB 0
#define FLIT_PAYLOAD_BITS 32
#define FLIT_TYPE_PRIM  1
#define FLIT_TYPE_LAST  2
#define FLIT_TYPE_CREDIT 3
#define FLIT_DST_BCAST  127
#define FLIT_TAG_MASK   0xFFFF

#define FLIT_FIELD_(v, bits) ((uint64_t)(v) & ((1ull << (bits)) - 1))
static inline uint64_t flit_make(uint32_t type, uint32_t src, uint32_t dst, uint32_t tag, uint32_t payload)
{
    return (FLIT_FIELD_(type, FLIT_TYPE_BITS) << FLIT_TYPE_LSB) | (FLIT_FIELD_(src, FLIT_SRC_BITS) << FLIT_SRC_LSB) |
           (FLIT_FIELD_(dst, FLIT_DST_BITS) << FLIT_DST_LSB) | (FLIT_FIELD_(tag, FLIT_TAG_BITS) << FLIT_TAG_LSB) |
           (FLIT_FIELD_(payload, FLIT_PAYLOAD_BITS) << FLIT_PAYLOAD_LSB);
}
static inline uint32_t flit_type(uint64_t f) { return (uint32_t)FLIT_FIELD_(f >> FLIT_TYPE_LSB, FLIT_TYPE_BITS); }
static inline uint32_t flit_src(uint64_t f) { return (uint32_t)FLIT_FIELD_(f >> FLIT_SRC_LSB, FLIT_SRC_BITS); }
static inline uint32_t flit_dst(uint64_t f) { return (uint32_t)FLIT_FIELD_(f >> FLIT_DST_LSB, FLIT_DST_BITS); }
static inline uint32_t flit_tag(uint64_t f) { return (uint32_t)FLIT_FIELD_(f >> FLIT_TAG_LSB, FLIT_TAG_BITS); }
static inline uint32_t flit_payload(uint64_t f) { return (uint32_t)FLIT_FIELD_(f >> FLIT_PAYLOAD_LSB, FLIT_PAYLOAD_BITS); }

#endif
