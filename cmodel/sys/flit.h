/* Inter-GPU packet: one 64-bit flit (SPEC 4.2). This header is THE layout; docs/golden-model.md
 * reproduces the table and the RTL primitive exchanger must use the same fields.
 *
 *   bits   field     meaning
 *   63:61  type      1 PRIM (a primitive id for dst), 2 LAST (end of src's turn in batch tag)
 *   60:55  src       sending GPU, 0..63
 *   54:48  dst       destination GPU 0..63, or 127 = broadcast (LAST)
 *   47:32  tag       batch tag: batch number mod 65536 (>= 11 bits as the paper needs)
 *   31:0   payload   PRIM: primitive id within the batch (application order)
 *                    LAST: number of primitives in the sender's chunk of the batch
 */
#ifndef GPUPD_SYS_FLIT_H
#define GPUPD_SYS_FLIT_H

#include <stdint.h>

#define FLIT_TYPE_PRIM  1u
#define FLIT_TYPE_LAST  2u
#define FLIT_DST_BCAST  127u
#define FLIT_TAG_BITS   16u
#define FLIT_TAG_MASK   0xFFFFu

static inline uint64_t flit_make(uint32_t type, uint32_t src, uint32_t dst, uint32_t tag, uint32_t payload)
{
    return ((uint64_t)(type & 7u) << 61) | ((uint64_t)(src & 63u) << 55) | ((uint64_t)(dst & 127u) << 48) |
           ((uint64_t)(tag & FLIT_TAG_MASK) << 32) | (uint64_t)payload;
}
static inline uint32_t flit_type(uint64_t f) { return (uint32_t)(f >> 61) & 7u; }
static inline uint32_t flit_src(uint64_t f) { return (uint32_t)(f >> 55) & 63u; }
static inline uint32_t flit_dst(uint64_t f) { return (uint32_t)(f >> 48) & 127u; }
static inline uint32_t flit_tag(uint64_t f) { return (uint32_t)(f >> 32) & FLIT_TAG_MASK; }
static inline uint32_t flit_payload(uint64_t f) { return (uint32_t)f; }

#endif
