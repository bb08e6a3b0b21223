/* Inter-GPU network of the functional model (SPEC 3, 4.2): FIFO links carrying 64-bit flits.
 *
 * Topologies: `line` (GPU i -- GPU i+1, a chain like NVLink) and `hub` (every GPU -- one switch).
 * Every link is a FIFO (no overtaking) with a latency of `latency` steps and one flit per step per
 * direction; every sending port has an unbounded output FIFO in front of its link. Each step:
 *   1. every node, in node order, takes the flits that arrived on its input links, in a fixed port order
 *      (line: from the left neighbour, then from the right; hub switch: from GPU 0, 1, ...); it delivers
 *      them locally (callback) and/or forwards them (appending to an output FIFO);
 *   2. every link moves the head of its output FIFO onto the wire.
 * The hub switch moves at most hub_rate flits per step (SPEC 3: an 80 GB/s hub between 40 GB/s links ->
 * 2), taking them in arrival order, ties broken by input port; the others wait on their wire (FIFO).
 * A broadcast (dst 127) on a line goes both ways and is forwarded by every node in the direction it was
 * travelling; on a hub the switch copies it to every GPU but its source.
 * Timed use (issue 9, docs/timing.md): one step = one cycle of the 1 GHz GPU clock. net_set_timing() sets the
 * link latency in cycles (ns at 1 GHz) and the bandwidths in milli-bytes per cycle (40 GB/s = 40 B/cycle =
 * 40000; a 64-bit flit = 8 bytes = 8000): every link and the hub switch hold a byte credit that grows by
 * their bandwidth each cycle (capped at max(bandwidth, one flit): no bursts after idle time) and pay 8000
 * per flit. Defaults after net_init are the untimed model's: 1 flit per step per link (8000) and hub_rate
 * flits per step through the switch (hub_bw = 0 means hub_rate * 8000), so existing callers are unchanged.
 * Idle skipping: net_next_event() is the next step at which anything can happen (an output FIFO not empty:
 * the next step; else the earliest arrival on a wire); net_skip_to() jumps there with every credit updated
 * exactly as stepping would have (tests/unit/test_net_timed.c checks skipping == stepping).
 * Bulk flits (timed model only, never on the RTL's links): a flit of type NET_FLIT_TYPE_BULK stands for a packet
 * of `payload` bytes (chopin's composition data, up to net_set_bulk's maximum). It travels like any flit (same
 * routes, FIFOs, latency) but a link or the switch sends it only once its credit holds all its bytes and pays
 * them all: a link moves bulk data at exactly its bandwidth. The credit cap becomes the largest bulk flit plus
 * one cycle's bandwidth (one packet can go, the remainder after it is kept); nets without bulk flits keep
 * their cap. */
#ifndef GPUPD_LINK_NET_H
#define GPUPD_LINK_NET_H

#include <stddef.h>
#include <stdint.h>

typedef enum { NET_LINE = 0, NET_HUB = 1 } net_topo_t;

typedef struct {
    uint64_t *buf;
    size_t head, count, cap;
} net_fifo_t;

typedef struct {
    uint32_t from, to;          /* node ids; the hub switch is node n_gpus */
    net_fifo_t outq;            /* output FIFO at the sender */
    net_fifo_t wire;            /* flits in flight, in order */
    net_fifo_t wire_t;          /* their arrival steps */
    uint64_t flits_prim, flits_last;
    uint64_t sync_bytes;        /* framebuffer synchronisation data (accounted, not simulated) */
    uint64_t comp_bytes;        /* chopin: sub-image composition data (accounted per group) */
    uint64_t bulk_bytes;        /* bytes of bulk flits this link put on its wire */
    size_t outq_high;
    uint64_t credit;            /* timed: milli-bytes this link may still send this step */
    uint64_t busy_steps;        /* steps in which the link put at least one flit on the wire */
} net_link_t;

typedef void (*net_deliver_fn)(void *user, uint32_t gpu, uint64_t flit);
/* Delivery with the input port the flit arrived on at GPU `gpu` (line: 0 = from the left neighbour, 1 = from
 * the right one; hub: 0). The RTL PE has one RX port per link (docs/system-cosim.md). */
typedef void (*net_deliver_port_fn)(void *user, uint32_t gpu, uint32_t port, uint64_t flit);

typedef struct {
    net_topo_t topo;
    uint32_t n_gpus, n_nodes;
    uint32_t latency;           /* steps on a link, >= 1 */
    uint32_t hub_rate;          /* flits the hub switch moves per step (default 2: 80 GB/s vs 40 GB/s links) */
    net_link_t *links;
    uint32_t n_links;
    int32_t *out_link;          /* [node * n_nodes + neighbour]: link id or -1 */
    uint64_t step;
    net_deliver_fn deliver;
    void *user;
    uint64_t in_flight;         /* flits in output FIFOs and wires */
    /* timing (net_set_timing; defaults reproduce the untimed model) */
    uint64_t link_bw;           /* milli-bytes per step per link (8000 = one flit) */
    uint64_t hub_bw;            /* milli-bytes per step through the switch; 0: hub_rate flits */
    uint64_t hub_credit;
    uint64_t hub_busy_steps;    /* steps in which the switch moved at least one flit */
    uint64_t hub_flits;         /* flits the switch moved */
    uint64_t flit_max_mb;       /* the largest flit, milli-bytes (NET_FLIT_MB; net_set_bulk raises it) */
    /* Optional (NULL: unused). deliver_port, when set, is called instead of deliver. The link hooks inject
     * stalls and jitter (system co-simulation, seeded and replayable): link_stall nonzero -> link `link` puts
     * no flit on its wire in step `step`; link_jitter -> extra steps of latency for the flit it puts on the
     * wire in that step (FIFO order is kept: a flit never overtakes the one ahead of it). Both are called
     * only for links with a flit waiting in their output FIFO. */
    net_deliver_port_fn deliver_port;
    int (*link_stall)(void *user, uint32_t link, uint64_t step);
    uint32_t (*link_jitter)(void *user, uint32_t link, uint64_t step);
    void *hook_user;
} net_t;

#define NET_FLIT_MB 8000u       /* one 64-bit flit in milli-bytes */
#define NET_FLIT_TYPE_BULK 7u   /* flit type of a bulk packet: model only, never on the RTL links (flit.h: 1..3) */
#define NET_BULK_MAX_BYTES 65536u

int net_init(net_t *n, net_topo_t topo, uint32_t n_gpus, uint32_t latency, net_deliver_fn deliver, void *user);
void net_free(net_t *n);
const char *net_topo_name(net_topo_t t);
int net_topo_parse(const char *s, net_topo_t *t);

/* Inject a flit at GPU src's output port(s). Returns 0, or -1 on a bad destination. */
int net_inject(net_t *n, uint32_t src, uint64_t flit);
/* Inject a flit on one output port of GPU src (line: 0 = towards GPU src-1, 1 = towards GPU src+1; hub: 0).
 * A broadcast goes out on that port only (a PE that drives its ports itself sends LAST on each port). The
 * flit is routed onwards as net_inject would. Returns 0, or -1 if the port does not exist or the
 * destination is not reachable through it. */
int net_inject_port(net_t *n, uint32_t src, uint32_t port, uint64_t flit);
/* 1 if GPU gpu has output/input port `port` (line: 0 needs a left neighbour, 1 a right one; hub: port 0). */
int net_port_exists(const net_t *n, uint32_t gpu, uint32_t port);
/* Advance one step. */
void net_step(net_t *n);
static inline int net_idle(const net_t *n) { return n->in_flight == 0; }
/* Timed model: latency in cycles (>= 1), link and hub bandwidth in milli-bytes per cycle (>= 1; a GB/s at
 * 1 GHz is a byte per cycle: 40 GB/s -> 40000). Call while idle. 0 or -1 (bad value). */
int net_set_timing(net_t *n, uint32_t latency, uint64_t link_mbpc, uint64_t hub_mbpc);
/* Allow bulk flits of up to max_bytes (8..NET_BULK_MAX_BYTES). Call while idle. 0 or -1. */
int net_set_bulk(net_t *n, uint32_t max_bytes);
/* Inject a bulk flit of `bytes` (1..the maximum) from GPU src to GPU dst. 0, or -1 on bad input. */
int net_inject_bulk(net_t *n, uint32_t src, uint32_t dst, uint32_t bytes);
/* The next step at which net_step can change anything (UINT64_MAX: idle). */
uint64_t net_next_event(const net_t *n);
/* Advance the clock so that the next net_step is step `target` (> n->step), as if the skipped steps had
 * been stepped: only legal when net_next_event(n) >= target. */
void net_skip_to(net_t *n, uint64_t target);

/* Account `bytes` of framebuffer data broadcast from GPU src to every other GPU (per link traversed). */
void net_account_broadcast(net_t *n, uint32_t src, uint64_t bytes);
/* Account `bytes` sent from src to dst (unicast route). */
void net_account_unicast(net_t *n, uint32_t src, uint32_t dst, uint64_t bytes);
/* Account `bytes` of composition data (chopin) sent from src to dst (unicast route, comp_bytes). */
void net_account_comp(net_t *n, uint32_t src, uint32_t dst, uint64_t bytes);

#endif
