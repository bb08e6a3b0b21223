// Thin extern "C" shim around the verilated sx_pe. No logic here: port copies (packing the K lanes into the
// RTL's flat vectors) and clocking only.
#include "sx_dut.h"

#include <cstdint>
#include <cstring>

#include "Vsx_pe.h"
#include "vl_dut.h"

#ifndef SX_DUT_MAX_GPUS
#error "build with -DSX_DUT_MAX_GPUS=<MAX_GPUS> -DSX_DUT_K=<K> -DSX_DUT_DEPTH=<DEPTH> matching the -G parameters"
#endif

struct sx_dut : vl_dut_one<Vsx_pe> {};

// flat bit vectors as 32-bit words; copied to/from a port of any Verilator width
enum { SX_WORDS = (SX_HW_MAX_K * 64 + 31) / 32 + 2 };
typedef uint32_t words_t[SX_WORDS];
// w is zeroed before the first put of a cycle: OR the value in (it may straddle two 32-bit words, or three)
static inline void put(words_t w, unsigned lsb, unsigned width, uint64_t v)
{
    if (width < 64) v &= (1ull << width) - 1;
    unsigned i = lsb >> 5, sh = lsb & 31;
    w[i] |= (uint32_t)(v << sh);
    if (sh + width > 32) w[i + 1] |= (uint32_t)(v >> (32 - sh));
    if (sh + width > 64) w[i + 2] |= (uint32_t)(v >> (64 - sh));
}
static inline uint64_t get(const words_t w, unsigned lsb, unsigned width)
{
    if ((lsb & 31) == 0 && width == 32) return w[lsb >> 5];
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++) v |= (uint64_t)((w[(lsb + i) >> 5] >> ((lsb + i) & 31)) & 1u) << i;
    return v;
}
static inline void to_port(CData &p, const words_t w) { p = (CData)w[0]; }
static inline void to_port(SData &p, const words_t w) { p = (SData)w[0]; }
static inline void to_port(IData &p, const words_t w) { p = w[0]; }
static inline void to_port(QData &p, const words_t w) { p = (QData)w[0] | ((QData)w[1] << 32); }
template <std::size_t N> static inline void to_port(VlWide<N> &p, const words_t w)
{
    for (std::size_t i = 0; i < N; i++) p[i] = w[i];
}
static inline void from_port(words_t w, CData p) { w[0] = p; }
static inline void from_port(words_t w, SData p) { w[0] = p; }
static inline void from_port(words_t w, IData p) { w[0] = p; }
static inline void from_port(words_t w, QData p) { w[0] = (uint32_t)p; w[1] = (uint32_t)(p >> 32); }
template <std::size_t N> static inline void from_port(words_t w, const VlWide<N> &p)
{
    for (std::size_t i = 0; i < N; i++) w[i] = p[i];
}

extern "C" sx_hw_params_t sx_dut_params(void)
{
    sx_hw_params_t p;
    p.max_gpus = SX_DUT_MAX_GPUS;
    p.k = SX_DUT_K;
    p.depth = SX_DUT_DEPTH;
    return p;
}

extern "C" void sx_dut_reset(sx_dut_t *d)
{
    Vsx_pe *t = d->top;
    t->in_valid_i = 0;
    t->rx0_valid_i = 0;
    t->rx1_valid_i = 0;
    t->tx0_ready_i = 0;
    t->tx1_ready_i = 0;
    t->out_ready_i = 0;
    t->cfg_n_gpus_i = 1;
    vl_dut_reset(&d->vl, t);
}

extern "C" sx_dut_t *sx_dut_new(const char *fst_path)
{
    sx_dut_t *d = vl_dut_one_new<sx_dut, Vsx_pe>(fst_path, "sx_pe");
    sx_dut_reset(d);
    return d;
}

extern "C" void sx_dut_eval(sx_dut_t *d, const sx_hw_in_t *in, sx_hw_out_t *out)
{
    Vsx_pe *t = d->top;
    const unsigned K = SX_DUT_K, M = SX_DUT_MAX_GPUS;
    const uint64_t mm = M >= 64 ? ~0ull : ((1ull << M) - 1);
    t->cfg_n_gpus_i = in->cfg.n_gpus & 0x7f;
    t->cfg_gpu_id_i = in->cfg.gpu_id & 0x3f;
    t->cfg_topo_i = in->cfg.topo ? 1 : 0;
    unsigned v = 0, e = 0;
    words_t tag, id, mask;
    std::memset(tag, 0, sizeof tag);
    std::memset(id, 0, sizeof id);
    std::memset(mask, 0, sizeof mask);
    for (unsigned j = 0; j < K; j++) {
        v |= (in->in[j].valid ? 1u : 0u) << j;
        e |= (in->in[j].end ? 1u : 0u) << j;
        put(tag, j * 16, 16, in->in[j].tag & 0xffff);
        put(id, j * 32, 32, in->in[j].id);
        put(mask, j * M, M, in->in[j].mask & mm);
    }
    t->in_valid_i = v;
    t->in_end_i = e;
    to_port(t->in_tag_i, tag);
    to_port(t->in_id_i, id);
    to_port(t->in_mask_i, mask);
    t->tx0_ready_i = in->tx_ready[0] ? 1 : 0;
    t->tx1_ready_i = in->tx_ready[1] ? 1 : 0;
    t->rx0_valid_i = in->rx_valid[0] ? 1 : 0;
    t->rx1_valid_i = in->rx_valid[1] ? 1 : 0;
    t->rx0_flit_i = in->rx_flit[0];
    t->rx1_flit_i = in->rx_flit[1];
    t->out_ready_i = in->out_ready ? 1 : 0;
    vl_dut_eval_inputs(&d->vl, t);
    std::memset(out, 0, sizeof *out);
    words_t oid;
    std::memset(oid, 0, sizeof oid);
    from_port(oid, t->out_id_o);
    for (unsigned j = 0; j < K; j++) {
        out->in_ready[j] = (t->in_ready_o >> j) & 1;
        out->out_valid[j] = (t->out_valid_o >> j) & 1;
        out->out_id[j] = (uint32_t)get(oid, j * 32, 32);
    }
    out->tx_valid[0] = t->tx0_valid_o;
    out->tx_valid[1] = t->tx1_valid_o;
    out->tx_flit[0] = t->tx0_flit_o;
    out->tx_flit[1] = t->tx1_flit_o;
    out->rx_ready[0] = t->rx0_ready_o;
    out->rx_ready[1] = t->rx1_ready_o;
    out->out_tag = t->out_tag_o;
    out->out_eob = t->out_eob_o;
    out->rel_last = t->rel_last_o;
    out->rel_src = t->rel_src_o;
    out->occ = t->occ_o;
    out->busy = t->busy_o;
    out->err = t->err_o;
}

VL_DUT_ONE_API(sx_dut, vl_dut_cycle_folded)
