// Self-test of the synthesis flow's no-latch assertion (mk/synth.mk, test-synth-p2g): this holds a latch,
// so `scripts/synth_flow.sh generic` must fail on it.
module synth_latch (input wire en_i, input wire d_i, output reg q_o);
  always @* if (en_i) q_o = d_i;
endmodule
