// Bit packing between the C models' plain integers and Verilator's port types, shared by the shims
// (sim/*/*_dut.cpp). A verilated port is CData (<= 8 bits), SData (<= 16), IData (<= 32), QData (<= 64) or
// VlWide<N> (N 32-bit words, least significant word first); the same function works on all of them, so a shim does
// not change when a parameter moves a port across a width class. Word arrays (uint32_t *) hold a flat bit vector
// least significant word first, as VlWide does. C++ (included by the shims only).
#ifndef GPUPD_SIM_VL_PORTS_H
#define GPUPD_SIM_VL_PORTS_H

#include <cstddef>
#include <cstdint>

#include "verilated.h"

// Bits [lsb, lsb + width) of a narrow port (width <= 32, lsb + width <= 64) set to v; the other bits kept.
template <class T> static inline void vl_port_set_bits(T &p, unsigned lsb, unsigned width, uint32_t v)
{
    uint64_t m = (width >= 64 ? ~0ull : ((1ull << width) - 1)) << lsb;
    p = (T)(((uint64_t)p & ~m) | (((uint64_t)v << lsb) & m));
}
template <std::size_t N> static inline void vl_port_set_bits(VlWide<N> &p, unsigned lsb, unsigned width, uint32_t v)
{
    for (unsigned b = 0; b < width; b++) {
        unsigned i = lsb + b;
        uint32_t bit = (v >> b) & 1u;
        p[i / 32] = (p[i / 32] & ~(1u << (i % 32))) | (bit << (i % 32));
    }
}

// Bits [lsb, lsb + 32) of a port (bits beyond the port's width read as 0).
template <class T> static inline uint32_t vl_port_get32(const T &p, unsigned lsb)
{
    return lsb >= 64 ? 0u : (uint32_t)((uint64_t)p >> lsb);
}
template <std::size_t N> static inline uint32_t vl_port_get32(const VlWide<N> &p, unsigned lsb)
{
    unsigned i = lsb / 32, sh = lsb % 32;
    if (i >= N) return 0;
    uint32_t lo = p[i] >> sh;
    return sh && i + 1 < N ? lo | (p[i + 1] << (32 - sh)) : lo;
}

// Whole port from / to a word array (as many words as the port has: 1 for <= 32 bits, 2 for QData, N for
// VlWide<N>).
static inline void vl_port_from_words(CData &p, const uint32_t *w) { p = (CData)w[0]; }
static inline void vl_port_from_words(SData &p, const uint32_t *w) { p = (SData)w[0]; }
static inline void vl_port_from_words(IData &p, const uint32_t *w) { p = w[0]; }
static inline void vl_port_from_words(QData &p, const uint32_t *w) { p = (QData)w[0] | ((QData)w[1] << 32); }
template <std::size_t N> static inline void vl_port_from_words(VlWide<N> &p, const uint32_t *w)
{
    for (std::size_t i = 0; i < N; i++) p[i] = w[i];
}
static inline void vl_port_to_words(const CData &p, uint32_t *w) { w[0] = p; }
static inline void vl_port_to_words(const SData &p, uint32_t *w) { w[0] = p; }
static inline void vl_port_to_words(const IData &p, uint32_t *w) { w[0] = p; }
static inline void vl_port_to_words(const QData &p, uint32_t *w) { w[0] = (uint32_t)p; w[1] = (uint32_t)(p >> 32); }
template <std::size_t N> static inline void vl_port_to_words(const VlWide<N> &p, uint32_t *w)
{
    for (std::size_t i = 0; i < N; i++) w[i] = p[i];
}

// A field of a word array: OR v (width <= 64 bits) in at lsb (the array is zeroed before the first put; a field
// may straddle two or three words), and read one back.
static inline void vl_words_put(uint32_t *w, unsigned lsb, unsigned width, uint64_t v)
{
    if (width < 64) v &= (1ull << width) - 1;
    unsigned i = lsb >> 5, sh = lsb & 31;
    w[i] |= (uint32_t)(v << sh);
    if (sh + width > 32) w[i + 1] |= (uint32_t)(v >> (32 - sh));
    if (sh + width > 64) w[i + 2] |= (uint32_t)(v >> (64 - sh));
}
static inline uint64_t vl_words_get(const uint32_t *w, unsigned lsb, unsigned width)
{
    if ((lsb & 31) == 0 && width == 32) return w[lsb >> 5];
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++) v |= (uint64_t)((w[(lsb + i) >> 5] >> ((lsb + i) & 31)) & 1u) << i;
    return v;
}

// The ports every exchange unit (pe_exchanger, sx_pe) has in common: the two links (TX/RX port 0 and 1, each a
// valid/ready pair and a flit), the release handshake's ready, and the GPU count and id. M is the verilated model,
// In/Out the unit's C-model port structs (fields tx_ready[2], rx_valid[2], rx_flit[2], out_ready, cfg.n_gpus,
// cfg.gpu_id, cfg.topo; tx_valid[2], tx_flit[2], rx_ready[2]).
template <class M> static inline void vl_exchange_reset_inputs(M *t)
{
    t->in_valid_i = 0;
    t->rx0_valid_i = 0;
    t->rx1_valid_i = 0;
    t->tx0_ready_i = 0;
    t->tx1_ready_i = 0;
    t->out_ready_i = 0;
    t->cfg_n_gpus_i = 1;
}
template <class M, class In> static inline void vl_exchange_inputs(M *t, const In *in)
{
    t->cfg_n_gpus_i = in->cfg.n_gpus & 0x7f;
    t->cfg_gpu_id_i = in->cfg.gpu_id & 0x3f;
    t->cfg_topo_i = in->cfg.topo ? 1 : 0;
    t->tx0_ready_i = in->tx_ready[0] ? 1 : 0;
    t->tx1_ready_i = in->tx_ready[1] ? 1 : 0;
    t->rx0_valid_i = in->rx_valid[0] ? 1 : 0;
    t->rx1_valid_i = in->rx_valid[1] ? 1 : 0;
    t->rx0_flit_i = in->rx_flit[0];
    t->rx1_flit_i = in->rx_flit[1];
    t->out_ready_i = in->out_ready ? 1 : 0;
}
template <class M, class Out> static inline void vl_exchange_outputs(const M *t, Out *out)
{
    out->tx_valid[0] = t->tx0_valid_o;
    out->tx_valid[1] = t->tx1_valid_o;
    out->tx_flit[0] = t->tx0_flit_o;
    out->tx_flit[1] = t->tx1_flit_o;
    out->rx_ready[0] = t->rx0_ready_o;
    out->rx_ready[1] = t->rx1_ready_o;
}

#endif
