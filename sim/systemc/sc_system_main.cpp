// SystemC N-GPU system (make systemc): every GPU is the verilated rtl/cd_unit.v (P2G mapper -> adapter -> PE RTL)
// as an sc_module (verilator --sc), wrapped in a gpu_node module that feeds it the golden model's real CP-phase
// output of a trace (primitives, and a chunk descriptor when a chunk's CP starts) and routes the PE's link ports;
// GPUs are
// joined by sc_fifo links (line: one fifo per direction between neighbours, forwarding in the nodes; hub: a
// hub module with one fifo per direction per GPU), each flit carrying its arrival time (link latency).
// Every GPU's output is checked against the golden model's receive lists (pe/pe.c) on the fly and against the
// SPEC 4.2 invariant at the end. C++ only because SystemC demands it: workload, golden lists and flit layout
// come from the C library (cmodel/sys/cdsys.h, flit.h). docs/system-cosim.md.
#include <systemc.h>

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "Vcd_unit.h"

extern "C" {
#include "common/args.h"
#include "sys/cdsys.h"
#include "link/flit.h"
#include "sys/sys.h"
}

#ifndef SC_MAX_GPUS
#define SC_MAX_GPUS 16
#endif
using mask_t = std::conditional<(SC_MAX_GPUS > 32), uint64_t, uint32_t>::type;

struct link_flit_t {
    uint64_t flit = 0, arrive = 0;
    bool operator==(const link_flit_t &o) const { return flit == o.flit && arrive == o.arrive; }
};
inline std::ostream &operator<<(std::ostream &os, const link_flit_t &f) { return os << std::hex << f.flit << std::dec; }

struct sys_ctx_t {                // shared, read-only during the run except the counters
    const cdsys_work_t *w;
    uint32_t n, latency;
    bool hub, runahead;
    uint64_t cycle = 0, compared = 0, errors = 0, masks = 0;
    uint64_t drop = 0;            // fault injection (test of the checks): GPU 1 loses its drop-th received PRIM
    uint32_t stall_pm = 0;        // tx/rx/out stalls and P2G input gaps, per mille, a hash of (seed, kind, GPU, cycle)
    uint64_t seed = 1;
    uint32_t done_gpus = 0;
};

static void report(sys_ctx_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(sys_ctx_t *c, const char *fmt, ...)
{
    if (c->errors++ < 10) {
        va_list ap;
        va_start(ap, fmt);
        std::printf("sc_system: MISMATCH at cycle %" PRIu64 ": ", c->cycle);
        std::vprintf(fmt, ap);
        std::printf("\n");
        va_end(ap);
    }
}

static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static bool stalled(const sys_ctx_t *c, uint32_t kind, uint32_t unit)
{
    return c->stall_pm && mix64(c->seed ^ mix64(((uint64_t)kind << 56) ^ ((uint64_t)unit << 40) ^ c->cycle)) % 1000 < c->stall_pm;
}

SC_MODULE(gpu_node) {
    sc_in<bool> clk;
    // link fifos (sc_fifo channels, accessed directly): port 0 = left neighbour or hub, 1 = right neighbour
    sc_fifo<link_flit_t> *tx_link[2] = {nullptr, nullptr};
    sc_fifo<link_flit_t> *rx_link[2] = {nullptr, nullptr};

    // the verilated GPU and the signals to it
    Vcd_unit dut;
    sc_signal<bool> rst_n;
    sc_signal<uint32_t> p_n, p_w, p_h, p_ts, p_sx0, p_sy0, p_sx1, p_sy1, p_id, p_tag, p_x0, p_y0, p_x1, p_y1, p_x2, p_y2, p_flags;
    sc_signal<bool> p_mode, p_in_valid, p_in_ready, p_out_valid, p_out_ready, p_busy;
    sc_signal<uint32_t> p_out_id, p_out_tag;
    sc_signal<mask_t> p_out_mask, e_in_mask;
    sc_signal<uint32_t> e_n, e_gid, e_in_tag, e_in_id, e_out_tag, e_out_id, e_cur_tag, d_tag, d_count;
    sc_signal<bool> d_valid, d_ready, busy, ad_busy;
    sc_signal<bool> e_topo, e_ra, e_in_valid, e_in_ready, e_in_end, e_tx0_ready, e_tx1_ready, e_rx0_valid, e_rx1_valid, e_out_ready;
    sc_signal<bool> e_tx0_valid, e_tx1_valid, e_rx0_ready, e_rx1_ready, e_out_valid, e_out_eob, e_busy, e_err;
    sc_signal<uint64_t> e_tx0_flit, e_tx1_flit, e_rx0_flit, e_rx1_flit;

    sys_ctx_t *c = nullptr;
    uint32_t g = 0;

    void run() {
        const cdsys_work_t *w = c->w;
        uint32_t N = c->n, B = w->n_batches;
        auto slot = [&](uint32_t b) { return (size_t)b * N + g; };
        // feeder, P2G output check, RX buffers, collector (the same roles as in cmodel/sys/cdsys.c)
        uint32_t fb = 0, fi = 0, cur_cfg = UINT32_MAX, ab = 0, a_cnt = 0, ob = 0, opos = 0;
        bool f_started = false;
        uint64_t f_start = 0;
        std::deque<uint64_t> rxq[2];
        std::deque<link_flit_t> inl[2];
        std::vector<std::vector<uint32_t>> recv(B);
        bool done = false;
        uint64_t drop_seen = 0;
        rst_n.write(false);
        e_n.write(N); e_gid.write(g); e_topo.write(c->hub); e_ra.write(c->runahead);
        e_tx0_ready.write(true); e_tx1_ready.write(true); e_out_ready.write(true);
        p_n.write(N); p_w.write(1); p_h.write(1);
        wait(3);
        rst_n.write(true);
        for (;;) {
            wait();
            // 1. handshakes of the cycle that just ended (pre-edge outputs with the inputs we drove)
            if (p_in_valid.read() && p_in_ready.read()) fi++;
            // a descriptor is given for one cycle: the CP gating keeps at most 2 chunks without END, which the
            // adapter always takes (docs/cd-unit.md); a refusal would lose a chunk
            if (d_valid.read() && !d_ready.read()) report(c, "GPU %u: the adapter refused a chunk descriptor", g);
            if (p_out_valid.read() && p_out_ready.read()) {   // inside the unit (obs_* outputs)
                while (ab < B && ab < fb && a_cnt >= w->counts[slot(ab)]) {
                    ab++;
                    a_cnt = 0;
                }
                if (ab >= B || a_cnt >= w->counts[slot(ab)]) report(c, "GPU %u: P2G output with no primitive outstanding", g);
                else {
                    const cdsys_prim_t *pr = &w->prims[slot(ab)][a_cnt];
                    if (p_out_id.read() != pr->p.prim_id || (uint64_t)p_out_mask.read() != pr->mask)
                        report(c, "GPU %u batch %u: P2G output primitive %u mask 0x%" PRIx64 ", golden primitive %u mask 0x%" PRIx64,
                               g, ab, (uint32_t)p_out_id.read(), (uint64_t)p_out_mask.read(), pr->p.prim_id, pr->mask);
                    c->masks++;
                    a_cnt++;
                }
            }
            const bool txv[2] = {e_tx0_valid.read() && e_tx0_ready.read(), e_tx1_valid.read() && e_tx1_ready.read()};
            const uint64_t txf[2] = {e_tx0_flit.read(), e_tx1_flit.read()};
            for (int k = 0; k < 2; k++)
                if (txv[k]) {
                    if (!tx_link[k]) report(c, "GPU %u: PE sends on port %d, which has no link", g, k);
                    else if (!tx_link[k]->nb_write({txf[k], c->cycle + c->latency})) report(c, "GPU %u: link fifo full", g);
                }
            if (e_rx0_valid.read() && e_rx0_ready.read()) rxq[0].pop_front();
            if (e_rx1_valid.read() && e_rx1_ready.read()) rxq[1].pop_front();
            if (e_out_valid.read() && e_out_ready.read()) {
                if (ob >= B) report(c, "GPU %u: output after the last batch", g);
                else if (e_out_eob.read()) {
                    size_t s = slot(ob);
                    if (opos != w->golden_n[s]) report(c, "GPU %u batch %u: end of batch after %u primitives, golden %u", g, ob, opos, w->golden_n[s]);
                    ob++;
                    opos = 0;
                } else {
                    size_t s = slot(ob);
                    uint32_t p = e_out_id.read();
                    if (opos >= w->golden_n[s] || w->golden[s][opos] != p)
                        report(c, "GPU %u batch %u position %u: primitive %u, golden %d", g, ob, opos, p,
                               opos < w->golden_n[s] ? (int)w->golden[s][opos] : -1);
                    recv[ob].push_back(p);
                    c->compared++;
                    opos++;
                }
            }
            // 2. links: collect arrivals; deliver (addressed here / broadcast) or forward (line through-traffic)
            for (int k = 0; k < 2; k++) {
                if (!rx_link[k]) continue;
                link_flit_t lf;
                while (rx_link[k]->nb_read(lf)) inl[k].push_back(lf);
                while (!inl[k].empty() && inl[k].front().arrive <= c->cycle) {
                    uint64_t f = inl[k].front().flit;
                    inl[k].pop_front();
                    uint32_t dst = flit_dst(f);
                    bool mine = dst == g || dst == FLIT_DST_BCAST;
                    if (mine && g == 1 && flit_type(f) == FLIT_TYPE_PRIM && c->drop && ++drop_seen == c->drop) mine = false;
                    if (mine) rxq[k].push_back(f);
                    if (!c->hub && (dst == FLIT_DST_BCAST ? tx_link[1 - k] != nullptr : dst != g)) {
                        // keep travelling away from where it came
                        if (!tx_link[1 - k] || !tx_link[1 - k]->nb_write({f, c->cycle + c->latency}))
                            report(c, "GPU %u: cannot forward flit %016" PRIx64, g, f);
                    }
                }
            }
            // 3. inputs of the next cycle: feeder (CP gating as in cdsys; at most one chunk starts per cycle, its
            //    descriptor to the unit's adapter), RX
            bool desc = false;
            for (;;) {
                if (fb >= B) break;
                if (!f_started) {
                    bool bar = w->barrier && w->barrier[fb];
                    int64_t need = (int64_t)fb - (c->runahead && !bar ? 2 : 1);
                    if (desc || !(need < 0 || (int64_t)ob > need)) break;
                    f_started = true;
                    f_start = c->cycle;
                    desc = true;
                    d_tag.write(fb & 0xffffu);
                    d_count.write(w->counts[slot(fb)]);
                }
                if (fi < w->counts[slot(fb)]) break;
                fb++; fi = 0; f_started = false;
            }
            d_valid.write(desc);
            bool valid = false;
            if (fb < B && f_started) {
                const cdsys_prim_t *pr = &w->prims[slot(fb)][fi];
                if (pr->cfg != cur_cfg) {
                    if (!p_busy.read() && !p_out_valid.read() && !p_in_valid.read()) {   // P2G empty: switch
                        const p2g_config_t &k = w->cfgs[pr->cfg];
                        p_w.write(k.width); p_h.write(k.height); p_ts.write(k.tile_log2); p_mode.write(k.mode == P2G_MODE_LINEAR);
                        p_sx0.write(k.sc_x0); p_sy0.write(k.sc_y0); p_sx1.write(k.sc_x1); p_sy1.write(k.sc_y1);
                        cur_cfg = pr->cfg;
                    }
                } else if (c->cycle >= f_start + pr->ready && !stalled(c, 1, g)) {
                    valid = true;
                    p_id.write(pr->p.prim_id); p_tag.write(fb & 0xffff); p_flags.write(pr->p.flags);
                    p_x0.write((uint32_t)pr->p.x[0] & 0xffffff); p_y0.write((uint32_t)pr->p.y[0] & 0xffffff);
                    p_x1.write((uint32_t)pr->p.x[1] & 0xffffff); p_y1.write((uint32_t)pr->p.y[1] & 0xffffff);
                    p_x2.write((uint32_t)pr->p.x[2] & 0xffffff); p_y2.write((uint32_t)pr->p.y[2] & 0xffffff);
                }
            }
            p_in_valid.write(valid);
            e_rx0_valid.write(!rxq[0].empty() && !stalled(c, 3, 2 * g));
            if (!rxq[0].empty()) e_rx0_flit.write(rxq[0].front());
            e_rx1_valid.write(!rxq[1].empty() && !stalled(c, 3, 2 * g + 1));
            if (!rxq[1].empty()) e_rx1_flit.write(rxq[1].front());
            e_tx0_ready.write(!stalled(c, 2, 2 * g));
            e_tx1_ready.write(!stalled(c, 2, 2 * g + 1));
            e_out_ready.write(!stalled(c, 4, g));
            if (!done && ob >= B && !ad_busy.read() && rxq[0].empty() && rxq[1].empty() && inl[0].empty() && inl[1].empty() &&
                !e_busy.read() && !e_tx0_valid.read() && !e_tx1_valid.read()) {
                done = true;
                // SPEC 4.2 invariant from the masks, independent of the golden lists
                for (uint32_t b = 0; b < B; b++) {
                    size_t pos = 0;
                    for (uint32_t j = 0; j < N; j++)
                        for (uint32_t i = 0; i < w->counts[(size_t)b * N + j]; i++) {
                            const cdsys_prim_t *e = &w->prims[(size_t)b * N + j][i];
                            if (!(e->mask >> g & 1)) continue;
                            if (pos >= recv[b].size() || recv[b][pos] != e->p.prim_id)
                                report(c, "GPU %u batch %u: SPEC 4.2 invariant violated at position %zu", g, b, pos);
                            pos++;
                        }
                    if (pos != recv[b].size()) report(c, "GPU %u batch %u: %zu primitives, invariant says %zu", g, b, recv[b].size(), pos);
                }
                c->done_gpus++;
            }
        }
    }

    SC_HAS_PROCESS(gpu_node);
    gpu_node(sc_module_name nm) : sc_module(nm), dut("dut") {
        dut.clk_i(clk); dut.rst_ni(rst_n);
        dut.p2g_cfg_n_gpus_i(p_n); dut.p2g_cfg_width_i(p_w); dut.p2g_cfg_height_i(p_h); dut.p2g_cfg_tile_log2_i(p_ts);
        dut.p2g_cfg_mode_i(p_mode); dut.p2g_cfg_sc_x0_i(p_sx0); dut.p2g_cfg_sc_y0_i(p_sy0); dut.p2g_cfg_sc_x1_i(p_sx1);
        dut.p2g_cfg_sc_y1_i(p_sy1); dut.in_valid_i(p_in_valid); dut.in_prim_id_i(p_id); dut.in_tag_i(p_tag);
        dut.in_x0_i(p_x0); dut.in_y0_i(p_y0); dut.in_x1_i(p_x1); dut.in_y1_i(p_y1); dut.in_x2_i(p_x2);
        dut.in_y2_i(p_y2); dut.in_flags_i(p_flags); dut.in_ready_o(p_in_ready); dut.p2g_busy_o(p_busy);
        dut.desc_valid_i(d_valid); dut.desc_ready_o(d_ready); dut.desc_tag_i(d_tag); dut.desc_count_i(d_count);
        dut.pe_cfg_n_gpus_i(e_n); dut.pe_cfg_gpu_id_i(e_gid); dut.pe_cfg_topo_i(e_topo); dut.pe_cfg_runahead_i(e_ra);
        dut.tx0_ready_i(e_tx0_ready); dut.tx1_ready_i(e_tx1_ready);
        dut.rx0_valid_i(e_rx0_valid); dut.rx0_flit_i(e_rx0_flit); dut.rx1_valid_i(e_rx1_valid);
        dut.rx1_flit_i(e_rx1_flit); dut.out_ready_i(e_out_ready);
        dut.tx0_valid_o(e_tx0_valid); dut.tx0_flit_o(e_tx0_flit); dut.tx1_valid_o(e_tx1_valid);
        dut.tx1_flit_o(e_tx1_flit); dut.rx0_ready_o(e_rx0_ready); dut.rx1_ready_o(e_rx1_ready);
        dut.out_valid_o(e_out_valid); dut.out_eob_o(e_out_eob); dut.out_tag_o(e_out_tag);
        dut.out_prim_id_o(e_out_id); dut.busy_o(busy); dut.cur_tag_o(e_cur_tag); dut.err_o(e_err);
        // observation: the P2G's output and the PE's input handshakes inside the unit
        dut.obs_p2g_out_valid_o(p_out_valid); dut.obs_p2g_out_ready_o(p_out_ready); dut.obs_p2g_out_prim_id_o(p_out_id);
        dut.obs_p2g_out_tag_o(p_out_tag); dut.obs_p2g_out_mask_o(p_out_mask);
        dut.obs_pe_in_valid_o(e_in_valid); dut.obs_pe_in_ready_o(e_in_ready); dut.obs_pe_in_end_o(e_in_end);
        dut.obs_pe_in_tag_o(e_in_tag); dut.obs_pe_in_prim_id_o(e_in_id); dut.obs_pe_in_mask_o(e_in_mask);
        dut.obs_ad_busy_o(ad_busy); dut.obs_pe_busy_o(e_busy);
        SC_THREAD(run);
        sensitive << clk.pos();
    }
};

// The hub of the hub topology: one fifo from and one to every GPU; moves at most `rate` flits per cycle,
// oldest arrival first, ties by input port; a broadcast goes to every GPU but its source.
SC_MODULE(hub_node) {
    sc_in<bool> clk;
    std::vector<sc_fifo<link_flit_t> *> in, out;
    sys_ctx_t *c = nullptr;
    uint32_t rate = 2;
    void run() {
        std::vector<std::deque<link_flit_t>> q(in.size());
        for (;;) {
            wait();
            for (size_t i = 0; i < in.size(); i++) {
                link_flit_t lf;
                while (in[i]->nb_read(lf)) q[i].push_back(lf);
            }
            for (uint32_t k = 0; k < rate; k++) {
                int best = -1;
                for (size_t i = 0; i < q.size(); i++)
                    if (!q[i].empty() && q[i].front().arrive <= c->cycle && (best < 0 || q[i].front().arrive < q[best].front().arrive))
                        best = (int)i;
                if (best < 0) break;
                uint64_t f = q[best].front().flit;
                q[best].pop_front();
                uint32_t dst = flit_dst(f);
                for (size_t t = 0; t < out.size(); t++)
                    if ((dst == FLIT_DST_BCAST && (int)t != best) || dst == t)
                        if (!out[t]->nb_write({f, c->cycle + c->latency})) report(c, "hub: fifo to GPU %zu full", t);
            }
        }
    }
    SC_HAS_PROCESS(hub_node);
    hub_node(sc_module_name nm) : sc_module(nm) {
        SC_THREAD(run);
        sensitive << clk.pos();
    }
};

SC_MODULE(cycle_counter) {
    sc_in<bool> clk;
    sys_ctx_t *c = nullptr;
    void run() {
        for (;;) {
            wait();
            c->cycle++;
            if (c->done_gpus == c->n) sc_stop();
        }
    }
    SC_HAS_PROCESS(cycle_counter);
    cycle_counter(sc_module_name nm) : sc_module(nm) {
        SC_THREAD(run);
        sensitive << clk.neg();   // between two rising edges: every node sees the same cycle number
    }
};

int sc_main(int argc, char **argv)
{
    const char *trace = argc > 1 ? argv[1] : "traces/glmark2-shadow.gpt";
    uint32_t n = 3, latency = 4, stall_pm = 0;
    uint64_t drop = 0, seed = 1;
    bool hub = false;
    /* positional numbers through common/args.h: whole string, range checked, overflow rejected */
    const char *T = "sc-system";
    if ((argc > 2 && arg_u32(T, "N", argv[2], 1, SC_MAX_GPUS, &n)) ||
        (argc > 3 && std::strcmp(argv[3], "line") && std::strcmp(argv[3], "hub") &&
         arg_fail(T, "topology", argv[3], "unknown topology", "line or hub")) ||
        (argc > 4 && arg_u32(T, "latency", argv[4], 1, 1000000, &latency)) ||
        (argc > 5 && arg_u64(T, "drop-K", argv[5], 0, UINT64_MAX, &drop)) ||
        (argc > 6 && arg_u32(T, "stall", argv[6], 0, 900, &stall_pm)) ||
        (argc > 7 && arg_u64x(T, "seed", argv[7], 0, UINT64_MAX, 1, &seed)) || argc > 8) {
        std::fprintf(stderr, "usage: sc-system TRACE.gpt [N(1..%d)] [line|hub] [latency] [drop-K: GPU 1 loses its K-th PRIM, 0 none]\n"
                             "                 [stall per mille 0..900: P2G input gaps, PE tx/rx/out stalls] [seed]\n", SC_MAX_GPUS);
        return 2;
    }
    hub = argc > 3 && !std::strcmp(argv[3], "hub");
    static cdsys_work_t w;
    char err[1024];
    if (cdsys_work_from_trace(trace, 0, n, SYS_SCHEME_GPUPD_RA, 0, P2G_MODE_DIAG, 1, &w, err, sizeof err)) {
        std::fprintf(stderr, "sc_system: %s\n", err);
        return 2;
    }
    sys_ctx_t ctx;
    ctx.w = &w;
    ctx.n = n;
    ctx.latency = latency;
    ctx.hub = hub;
    ctx.runahead = true;
    ctx.drop = drop;
    ctx.stall_pm = stall_pm;
    ctx.seed = seed;
    sc_clock clk("clk", 10, SC_NS);
    std::vector<std::unique_ptr<gpu_node>> nodes;
    std::vector<std::unique_ptr<sc_fifo<link_flit_t>>> fifos;
    auto fifo = [&]() {
        fifos.emplace_back(new sc_fifo<link_flit_t>(1 << 16));
        return fifos.back().get();
    };
    for (uint32_t g = 0; g < n; g++) {
        nodes.emplace_back(new gpu_node(("gpu" + std::to_string(g)).c_str()));
        nodes[g]->clk(clk);
        nodes[g]->c = &ctx;
        nodes[g]->g = g;
    }
    std::unique_ptr<hub_node> hubn;
    if (hub && n > 1) {
        hubn.reset(new hub_node("hub"));
        hubn->clk(clk);
        hubn->c = &ctx;
        for (uint32_t g = 0; g < n; g++) {
            sc_fifo<link_flit_t> *up = fifo(), *down = fifo();     // GPU g -> hub, hub -> GPU g
            nodes[g]->tx_link[0] = up;
            nodes[g]->rx_link[0] = down;
            hubn->in.push_back(up);
            hubn->out.push_back(down);
        }
    } else if (!hub) {
        for (uint32_t g = 0; g + 1 < n; g++) {
            sc_fifo<link_flit_t> *right = fifo(), *left = fifo();   // g -> g+1, g+1 -> g
            nodes[g]->tx_link[1] = right;
            nodes[g + 1]->rx_link[0] = right;
            nodes[g + 1]->tx_link[0] = left;
            nodes[g]->rx_link[1] = left;
        }
    }
    cycle_counter cc("cycles");
    cc.clk(clk);
    cc.c = &ctx;
    uint64_t prims = 0;
    for (size_t i = 0; i < (size_t)w.n_batches * n; i++) prims += w.counts[i];
    sc_start(sc_time(20, SC_MS));   // watchdog: 2 M cycles
    std::printf("sc_system: %s N=%u %s latency %u stalls %u/1000 seed %" PRIu64 ": %u batches, %" PRIu64 " CP primitives, %" PRIu64 " P2G masks and %" PRIu64
                " received primitives checked against the golden model, %" PRIu64 " cycles, %" PRIu64 " errors\n",
                trace, n, hub ? "hub" : "line", latency, stall_pm, seed, w.n_batches, prims, ctx.masks, ctx.compared, ctx.cycle, ctx.errors);
    int ok = ctx.done_gpus == n && !ctx.errors && ctx.compared > 0;
    if (ctx.done_gpus != n) std::printf("sc_system: FAIL: watchdog, %u of %u GPUs finished\n", ctx.done_gpus, n);
    std::printf("sc_system: %s\n", ok ? "PASS" : "FAIL");
    cdsys_work_free(&w);
    return ok ? 0 : 1;
}
