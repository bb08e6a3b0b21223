`timescale 1ns/1ps
`default_nettype none
// tb_simt_fpu: Icarus self-checking testbench of the SIMT lane datapaths (rtl/simt_fpu.v, rtl/simt_sfu.v;
// docs/simt-fpu.md). Vectors and expected results come from C (tb/simt_fpu/simt_fpu_vectors.c, the ISA
// definition); no $random. Both units are driven from their own queues, with an idle cycle every GAP-th cycle
// (+gap=K, 0: none); every result is checked in order, with its latency (exactly LAT cycles).
//   vvp tb.vvp +vectors=FILE +nrec=N [+gap=K]
// Prints "PASS ..." or "FAIL ..." (the first mismatch: vector line, op, operands, DUT vs expected, and how to
// reproduce it); $finish either way.
module tb_simt_fpu;
  parameter integer LAT_FPU = 8;
  parameter integer LAT_SFU = 8;
  localparam integer MAXREC = 200000;

  reg clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;

  // vector storage
  reg [3:0]  v_unit [0:MAXREC-1];
  reg [6:0]  v_op   [0:MAXREC-1];
  reg [3:0]  v_cc   [0:MAXREC-1];
  reg [3:0]  v_mods [0:MAXREC-1];
  reg [31:0] v_a [0:MAXREC-1], v_b [0:MAXREC-1], v_c [0:MAXREC-1], v_res [0:MAXREC-1];
  reg        v_pred [0:MAXREC-1];
  integer fq [0:MAXREC-1];   // FPU vector line numbers in order
  integer sq [0:MAXREC-1];
  integer nf, ns, nrec, gap, fd, i, r, fail;
  reg [1023:0] vfile;
  integer t_unit, t_op, t_cc, t_mods, t_a, t_b, t_c, t_res, t_pred;

  // DUT ports
  reg        f_valid, s_valid;
  reg [6:0]  f_op, s_op;
  reg [3:0]  f_cc, f_mods, s_mods;
  reg [31:0] f_a, f_b, f_c, s_a;
  wire       f_valid_o, f_pred_o, s_valid_o;
  wire [31:0] f_res_o, s_res_o;
  simt_fpu #(.LAT(LAT_FPU)) dut_fpu (.clk_i(clk), .rst_ni(rst_n), .valid_i(f_valid), .op_i(f_op), .cc_i(f_cc),
    .na_i(f_mods[0]), .aa_i(f_mods[1]), .nb_i(f_mods[2]), .nc_i(f_mods[3]), .a_i(f_a), .b_i(f_b), .c_i(f_c),
    .pass_i(2'd0), .valid_o(f_valid_o), .res_o(f_res_o), .pred_o(f_pred_o));
  simt_sfu #(.LAT(LAT_SFU)) dut_sfu (.clk_i(clk), .rst_ni(rst_n), .valid_i(s_valid), .op_i(s_op),
    .na_i(s_mods[0]), .aa_i(s_mods[1]), .a_i(s_a), .valid_o(s_valid_o), .res_o(s_res_o));

  integer cycle, fi, si, fo, so;
  integer f_issue [0:MAXREC-1];
  integer s_issue [0:MAXREC-1];

  task report_f(input integer k);
    begin
      $display("FAIL simt_fpu (LAT %0d): vector line %0d op=%02h cc=%h na=%0d aa=%0d nb=%0d nc=%0d a=%08h b=%08h c=%08h",
               LAT_FPU, fq[k] + 1, v_op[fq[k]], v_cc[fq[k]], v_mods[fq[k]][0], v_mods[fq[k]][1], v_mods[fq[k]][2],
               v_mods[fq[k]][3], v_a[fq[k]], v_b[fq[k]], v_c[fq[k]]);
      $display("  DUT res=%08h pred=%0d after %0d cycles; expected res=%08h pred=%0d after %0d", f_res_o, f_pred_o,
               cycle - f_issue[k], v_res[fq[k]], v_pred[fq[k]], LAT_FPU);
      $display("  reproduce: build/cosim/simt_fpu_8_8/cosim-simt-fpu --vec 0x%02h,%0d,0x%h,0x%08h,0x%08h,0x%08h (Verilator), or rerun this vvp with +vectors=%0s",
               v_op[fq[k]], v_cc[fq[k]], v_mods[fq[k]], v_a[fq[k]], v_b[fq[k]], v_c[fq[k]], vfile);
    end
  endtask

  initial begin
    if (!$value$plusargs("vectors=%s", vfile)) begin $display("FAIL: +vectors=FILE missing"); $finish; end
    if (!$value$plusargs("nrec=%d", nrec)) begin $display("FAIL: +nrec=N missing"); $finish; end
    if (!$value$plusargs("gap=%d", gap)) gap = 7;
    if (nrec > MAXREC || nrec < 1) begin $display("FAIL: +nrec=%0d outside 1..%0d", nrec, MAXREC); $finish; end
    fd = $fopen(vfile, "r");
    if (fd == 0) begin $display("FAIL: cannot open %0s", vfile); $finish; end
    nf = 0; ns = 0;
    for (i = 0; i < nrec; i = i + 1) begin
      r = $fscanf(fd, "%h %h %h %h %h %h %h %h %h\n", t_unit, t_op, t_cc, t_mods, t_a, t_b, t_c, t_res, t_pred);
      if (r != 9) begin $display("FAIL: %0s line %0d: expected 9 fields, got %0d", vfile, i + 1, r); $finish; end
      v_unit[i] = t_unit[3:0]; v_op[i] = t_op[6:0]; v_cc[i] = t_cc[3:0]; v_mods[i] = t_mods[3:0];
      v_a[i] = t_a; v_b[i] = t_b; v_c[i] = t_c; v_res[i] = t_res; v_pred[i] = t_pred[0];
      if (t_unit == 0) begin fq[nf] = i; nf = nf + 1; end
      else begin sq[ns] = i; ns = ns + 1; end
    end
    $fclose(fd);
    fail = 0; cycle = 0; fi = 0; si = 0; fo = 0; so = 0;
    f_valid = 0; s_valid = 0; f_op = 0; s_op = 0; f_cc = 0; f_mods = 0; s_mods = 0;
    f_a = 0; f_b = 0; f_c = 0; s_a = 0;
    repeat (2) @(posedge clk);
    #1 rst_n = 1'b1;
    while (!fail && (fo < nf || so < ns) && cycle < 4 * nrec + 1000) begin
      // drive this cycle's inputs (1 ns after the falling edge)
      @(negedge clk); #1;
      f_valid = 0; s_valid = 0;
      if (!(gap > 0 && (cycle % gap) == gap - 1)) begin
        if (fi < nf) begin
          f_valid = 1; f_op = v_op[fq[fi]]; f_cc = v_cc[fq[fi]]; f_mods = v_mods[fq[fi]];
          f_a = v_a[fq[fi]]; f_b = v_b[fq[fi]]; f_c = v_c[fq[fi]]; f_issue[fi] = cycle; fi = fi + 1;
        end
        if (si < ns) begin
          s_valid = 1; s_op = v_op[sq[si]]; s_mods = v_mods[sq[si]]; s_a = v_a[sq[si]]; s_issue[si] = cycle;
          si = si + 1;
        end
      end
      if (!f_valid) begin f_op = cycle[6:0]; f_a = cycle * 32'h9e3779b9; end   // idle: data must not matter
      if (!s_valid) begin s_op = cycle[6:0]; s_a = cycle * 32'h7f4a7c15; end
      // outputs of this cycle (registered: stable since the last rising edge)
      if (f_valid_o) begin
        if (fo >= nf || cycle - f_issue[fo] != LAT_FPU || f_res_o !== v_res[fq[fo]] || f_pred_o !== v_pred[fq[fo]]) begin
          if (fo >= nf) $display("FAIL simt_fpu: valid_o without an issued operation at cycle %0d", cycle);
          else report_f(fo);
          fail = 1;
        end
        fo = fo + 1;
      end
      if (s_valid_o) begin
        if (so >= ns || cycle - s_issue[so] != LAT_SFU || s_res_o !== v_res[sq[so]]) begin
          if (so >= ns) $display("FAIL simt_sfu: valid_o without an issued operation at cycle %0d", cycle);
          else begin
            $display("FAIL simt_sfu (LAT %0d): vector line %0d op=%02h na=%0d aa=%0d a=%08h", LAT_SFU, sq[so] + 1,
                     v_op[sq[so]], v_mods[sq[so]][0], v_mods[sq[so]][1], v_a[sq[so]]);
            $display("  DUT res=%08h after %0d cycles; expected res=%08h after %0d", s_res_o, cycle - s_issue[so],
                     v_res[sq[so]], LAT_SFU);
            $display("  reproduce: build/cosim/simt_fpu_8_8/cosim-simt-fpu --svec 0x%02h,0x%h,0x%08h (Verilator), or rerun this vvp with +vectors=%0s",
                     v_op[sq[so]], v_mods[sq[so]], v_a[sq[so]], vfile);
          end
          fail = 1;
        end
        so = so + 1;
      end
      cycle = cycle + 1;
    end
    if (!fail && (fo != nf || so != ns)) begin
      $display("FAIL: %0d/%0d FPU and %0d/%0d SFU results seen (timeout at cycle %0d)", fo, nf, so, ns, cycle);
      fail = 1;
    end
    if (!fail && nf + ns == 0) begin $display("FAIL: no vectors"); fail = 1; end
    if (!fail) $display("PASS tb_simt_fpu LAT %0d/%0d: %0d FPU and %0d SFU results checked in %0d cycles", LAT_FPU,
                        LAT_SFU, nf, ns, cycle);
    $finish;
  end
endmodule
`default_nettype wire
