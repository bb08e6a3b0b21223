/* C cycle model of the primitive exchanger (PE) RTL, rtl/pe_exchanger.v (+ rtl/pe_fifo.v, rtl/pe_lowbit.v):
 * the same registers, the same valid/ready decisions, the same queue contents, so the lockstep harness
 * (sim/pe/cosim_pe.c) can compare every output port every cycle. The functional definition of the
 * exchange is cmodel/pe/pe.c (pe_run, SPEC 4.2); docs/pe.md describes the microarchitecture.
 *
 * One instance is the PE of one GPU (gpu_id) of an N-GPU system. Ports (valid/ready, data stable until
 * accepted):
 *   in   from the P2G: per batch, the entries of this GPU's chunk in order ({tag, prim_id, mask}), then
 *        one END beat ({end=1, tag, prim_id = chunk count}); a batch with no entries is a lone END beat.
 *        Batches are numbered 0, 1, 2, ... after reset; the tag is the batch number mod 2^16.
 *   tx[p] 64-bit flits of cmodel/link/flit.h towards the link. Line topology: tx[0] = left neighbour
 *        (gpu_id-1), tx[1] = right neighbour (gpu_id+1). Hub topology: tx[0] = the hub port, tx[1] unused.
 *        PRIM(b, t) goes left if t < gpu_id else right (line), or to the hub port; LAST(b, gpu_id) is
 *        broadcast on each port that has a neighbour (line) / on the hub port (hub), none when N = 1.
 *   rx[p] flits from the link: only flits addressed to this GPU or broadcasts (through-traffic on the
 *        line is forwarded by the link model, cmodel/link/net.c, never by the PE). Both ports are accepted
 *        in the same cycle when possible; if both carry a PRIM for the same receive bank, port 0 wins.
 *   out  this GPU's primitives, in application order per batch ({tag, prim_id}), then {eob=1, tag} once
 *        CD of the batch is complete here.
 * Configuration (cfg) is static while busy is high.
 *
 * Use: pe_hw_init(); each cycle: fill pe_hw_in_t, pe_hw_comb() for the outputs of this cycle, then
 * pe_hw_clock() for the rising edge. No globals, no allocation (queues are bounded by PE_HW_MAX_DEPTH). */
#ifndef GPUPD_PE_HW_H
#define GPUPD_PE_HW_H

#include <stdint.h>

#define PE_HW_PORTS 2
#define PE_HW_MAX_DEPTH 256      /* largest LQ_DEPTH / RQ_DEPTH the model holds */
#define PE_TOPO_LINE 0
#define PE_TOPO_HUB 1

typedef struct {
    uint32_t max_gpus;   /* RTL parameter MAX_GPUS, 1..64 (mask width) */
    uint32_t lq_depth;   /* RTL parameter LQ_DEPTH: local queue of P2G beats, 2..PE_HW_MAX_DEPTH */
    uint32_t rq_depth;   /* RTL parameter RQ_DEPTH: each of the two receive/reorder banks, 2..PE_HW_MAX_DEPTH */
} pe_hw_params_t;

typedef struct {
    uint32_t n_gpus;     /* 1..max_gpus */
    uint32_t gpu_id;     /* 0..n_gpus-1 */
    uint32_t topo;       /* PE_TOPO_LINE or PE_TOPO_HUB */
    uint32_t runahead;   /* 1: accept batch b+1 from the P2G while b is exchanged (held, tagged, in the LQ) */
} pe_hw_cfg_t;

typedef struct {         /* input ports during one cycle */
    pe_hw_cfg_t cfg;
    int in_valid;
    int in_end;          /* 1: END beat of the batch */
    uint32_t in_tag;     /* 16 bits */
    uint32_t in_prim_id; /* entry: primitive id; END: chunk count (the LAST flit's payload) */
    uint64_t in_mask;    /* entry: P2G mask (bits >= n_gpus are ignored) */
    int tx_ready[PE_HW_PORTS];
    int rx_valid[PE_HW_PORTS];
    uint64_t rx_flit[PE_HW_PORTS];
    int out_ready;
} pe_hw_in_t;

typedef struct {         /* output ports during one cycle */
    int in_ready;
    int tx_valid[PE_HW_PORTS];
    uint64_t tx_flit[PE_HW_PORTS];
    int rx_ready[PE_HW_PORTS];
    int out_valid;
    int out_eob;
    uint32_t out_tag;
    uint32_t out_prim_id; /* 0 on an eob beat */
    int busy;            /* anything held or in progress (not at a batch boundary with everything drained) */
    uint32_t cur_tag;    /* batch whose CD is in progress here */
    int err;             /* sticky protocol error: input tag != expected batch; an rx flit of unknown type,
                            or with a tag other than ob / ob+1 (the batch being output and the next), or a
                            PRIM not addressed to this GPU */
} pe_hw_out_t;

typedef struct {
    uint64_t mask;
    uint32_t id;         /* prim_id or chunk count */
    uint16_t tag;
    uint8_t end;
} pe_hw_lq_entry_t;

typedef struct {         /* the RTL registers */
    pe_hw_params_t prm;
    /* local queue (LQ) */
    pe_hw_lq_entry_t lq[PE_HW_MAX_DEPTH];
    uint32_t lq_rp, lq_wp, lq_cnt;
    /* turn engine: remaining mask of the head entry, LAST flits sent per port, own turn of cur done */
    int rem_v;
    uint64_t rem;
    int last_sent[PE_HW_PORTS];
    int turn_done;
    /* LAST markers received, by batch parity */
    uint64_t lasts[2];
    /* batch counters: cur (CD in progress), ob (being output), in_b (next P2G beat's batch), 16 bits */
    uint32_t cur, ob, in_b;
    /* receive/reorder banks, by batch parity: prim ids in arrival order */
    uint32_t bank[2][PE_HW_MAX_DEPTH];
    uint32_t bk_rp[2], bk_wp[2], bk_cnt[2];
    /* TX output registers */
    int tx_v[PE_HW_PORTS];
    uint64_t tx_flit[PE_HW_PORTS];
    /* output register */
    int out_v, out_eob;
    uint32_t out_tag, out_id;
    int err;
} pe_hw_t;

/* Reset state (rst_ni low). Returns 0, or -1 if the parameters are out of range. */
int pe_hw_init(pe_hw_t *h, pe_hw_params_t prm);

/* Every combinational decision of one cycle (the RTL's `always @*` blocks), from the registers and inputs. */
typedef struct {
    uint64_t all, below, gbit, above;
    /* rx */
    int rx_is_prim[PE_HW_PORTS], rx_bank[PE_HW_PORTS], rx_ready[PE_HW_PORTS], rx_fire[PE_HW_PORTS];
    uint64_t rx_set[2];          /* LAST bits recorded this cycle, by batch parity */
    int bk_push[2];
    uint32_t bk_push_id[2];
    /* input */
    int in_ready, in_fire;
    /* turn engine */
    int turn_ok, complete, pop, keep;
    int tx_send[PE_HW_PORTS];
    uint64_t tx_new[PE_HW_PORTS];
    uint64_t rem_next;
    int last_sent_next[PE_HW_PORTS];
    /* output */
    int out_load, out_load_eob, bk_pop[2];
    int err_set;
} pe_hw_dec_t;

/* Combinational outputs for this cycle (rx_ready depends on rx_valid/rx_flit: port arbitration). */
void pe_hw_comb(const pe_hw_t *h, const pe_hw_in_t *in, pe_hw_out_t *out);

/* Rising clock edge. */
void pe_hw_clock(pe_hw_t *h, const pe_hw_in_t *in);

/* The same as pe_hw_comb() then pe_hw_clock() with deciding once: pe_hw_comb_dec() also returns the cycle's
 * decisions in *d; pe_hw_clock_dec() applies decisions that pe_hw_comb_dec() computed from the same registers
 * and the same inputs. */
void pe_hw_comb_dec(const pe_hw_t *h, const pe_hw_in_t *in, pe_hw_out_t *out, pe_hw_dec_t *d);
void pe_hw_clock_dec(pe_hw_t *h, const pe_hw_in_t *in, const pe_hw_dec_t *d);

/* 1 if a clock edge with no input beat and no rx flit offered (in_valid = rx_valid = 0, any tx_ready and
 * out_ready) leaves every register unchanged: the timing model may skip such cycles. */
int pe_hw_quiet(const pe_hw_t *h, const pe_hw_cfg_t *cfg);

#endif
