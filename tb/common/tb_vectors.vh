// Shared part of the vector-driven self-checking Icarus testbenches (tb/pe/tb_pe.v, tb/sx/tb_sx.v,
// tb/cd/tb_cd_adapter.v): the output check, loading the vector file, and the guard against a run that checked
// nothing. Included inside the testbench module, after it declares
//   localparam integer MAXREC, RW;           records the bench holds, bits per record (record type in the top 4)
//   reg [RW-1:0] mem [0:MAXREC-1];
//   reg [1023:0] vectors, vcd, vseed;  reg [8*400-1:0] repro;
//   integer nrec, k, cycle, scen, checks, cycles, hs, nerr;
// Plusargs: +vectors=FILE +nrec=N [+vcd=FILE] [+vseed=S] [+repro=COMMAND] (+repro: printed on a failure).

  // compare one output; the first difference names the record, the scenario and the cycle
  task automatic chk(input [255:0] name, input [63:0] got, input [63:0] exp);
    begin
      if (got !== exp) begin
        if (nerr == 0)
          $display("FAIL at vector record %0d (line %0d of %0s): scenario %0d cycle %0d", k, k + 1, vectors, scen, cycle);
        $display("  %0s DUT %h expected %h", name, got, exp);
        nerr = nerr + 1;
      end
      checks = checks + 1;
    end
  endtask

  // read the plusargs and the vector file into mem (records past nrec are end records, type f)
  task vec_load;
    begin
      if (!$value$plusargs("vectors=%s", vectors)) begin
        $display("FAIL: give +vectors=FILE"); $fatal(1);
      end
      if (!$value$plusargs("vseed=%s", vseed)) vseed = "?";
      if (!$value$plusargs("repro=%s", repro)) repro = "";
      if (!$value$plusargs("nrec=%d", nrec)) nrec = MAXREC;
      if (nrec > MAXREC) begin
        $display("FAIL: %0d vector records, the testbench holds %0d (raise MAXREC or use fewer scenarios)", nrec, MAXREC);
        $fatal(1);
      end
      if ($value$plusargs("vcd=%s", vcd)) begin
        $dumpfile(vcd); $dumpvars;
      end
      for (k = 0; k < MAXREC; k = k + 1) mem[k] = {4'hf, {(RW-4){1'b0}}};
      $readmemh(vectors, mem, 0, nrec - 1);
      checks = 0; cycles = 0; hs = 0; nerr = 0; scen = -1; cycle = 0;
      k = 0;
    end
  endtask

  // a run that compared nothing fails
  task vec_checked_something;
    begin
      if (cycles == 0 || hs == 0) begin
        $display("FAIL: nothing was checked (%0d cycles, %0d handshakes)", cycles, hs);
        $fatal(1);
      end
    end
  endtask
