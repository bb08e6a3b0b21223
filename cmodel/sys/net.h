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
 * The step is the unit the timing model (a later issue) maps to cycles: latency and rate are parameters. */
#ifndef GPUPD_SYS_NET_H
#define GPUPD_SYS_NET_H

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
    size_t outq_high;
} net_link_t;

typedef void (*net_deliver_fn)(void *user, uint32_t gpu, uint64_t flit);

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
} net_t;

int net_init(net_t *n, net_topo_t topo, uint32_t n_gpus, uint32_t latency, net_deliver_fn deliver, void *user);
void net_free(net_t *n);
const char *net_topo_name(net_topo_t t);
int net_topo_parse(const char *s, net_topo_t *t);

/* Inject a flit at GPU src's output port(s). Returns 0, or -1 on a bad destination. */
int net_inject(net_t *n, uint32_t src, uint64_t flit);
/* Advance one step. */
void net_step(net_t *n);
static inline int net_idle(const net_t *n) { return n->in_flight == 0; }

/* Account `bytes` of framebuffer data broadcast from GPU src to every other GPU (per link traversed). */
void net_account_broadcast(net_t *n, uint32_t src, uint64_t bytes);
/* Account `bytes` sent from src to dst (unicast route). */
void net_account_unicast(net_t *n, uint32_t src, uint32_t dst, uint64_t bytes);

#endif
