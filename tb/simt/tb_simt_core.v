// Self-checking Icarus testbench of the SIMT core: every cycle applies the inputs of one line of a vector
// file written by tb/simt/simt_vectors.c (the C cycle model, itself checked against the ISA interpreter)
// and compares every expected output field (status, retire port, texture request, issue, output-memory
// read port). No $random: all stimulus comes from the file. Prints PASS or FAIL with the line, the field,
// DUT and expected values. Plusargs: +vectors=FILE [+vcd=FILE]
`timescale 1ns / 1ps
`default_nettype none

module tb_simt_core;
    parameter integer LANES = 8;
    parameter integer WARPS = 4;
    parameter integer FPU_LAT = 8;
    parameter integer SFU_LAT = 8;
    parameter integer TEX_LAT = 4;
    localparam integer LW = LANES * 32;

    reg clk = 1'b0, rst_n = 1'b0;
    always #5 clk = ~clk;

    // inputs
    reg          imem_we, const_we, attr_we, launch;
    reg [11:0]   imem_addr;
    reg [63:0]   imem_data;
    reg [7:0]    const_addr;
    reg [31:0]   const_data, launch_mask, launch_wid;
    reg [4:0]    attr_warp, attr_row, launch_warp, out_warp, out_row;
    reg [6:0]    attr_word;
    reg [5:0]    out_word;
    reg [12:0]   prog_len;
    reg [LW-1:0] attr_data, tex_rsp;
    // outputs
    wire [LW-1:0] out_rdata, tex_s, tex_t, rt_val;
    wire          idle, tex_valid, issue_valid, rt_valid, rt_first, rt_last;
    wire [WARPS-1:0] run, err;
    wire [4:0]    tex_warp, tex_row, issue_warp, rt_warp, rt_row;
    wire [1:0]    tex_comp, rt_minor;
    wire [3:0]    tex_unit;
    wire [LANES-1:0] tex_mask, rt_lane_en;
    wire [15:0]   issue_pc, rt_pc;
    wire [31:0]   rt_active, rt_wmask;
    wire [2:0]    rt_kind;
    wire [5:0]    rt_dst;
    wire [LANES*6-1:0] rt_addr;

    simt_core #(.LANES(LANES), .WARPS(WARPS), .FPU_LAT(FPU_LAT), .SFU_LAT(SFU_LAT), .TEX_LAT(TEX_LAT)) dut (
        .clk_i(clk), .rst_ni(rst_n), .prog_len_i(prog_len), .imem_we_i(imem_we), .imem_addr_i(imem_addr),
        .imem_data_i(imem_data), .const_we_i(const_we), .const_addr_i(const_addr), .const_data_i(const_data),
        .attr_we_i(attr_we), .attr_warp_i(attr_warp), .attr_row_i(attr_row), .attr_word_i(attr_word),
        .attr_data_i(attr_data), .launch_i(launch), .launch_warp_i(launch_warp), .launch_mask_i(launch_mask),
        .launch_wid_i(launch_wid), .out_warp_i(out_warp), .out_row_i(out_row), .out_word_i(out_word),
        .out_rdata_o(out_rdata), .idle_o(idle), .run_o(run), .err_o(err), .tex_req_valid_o(tex_valid),
        .tex_req_warp_o(tex_warp), .tex_req_row_o(tex_row), .tex_req_comp_o(tex_comp), .tex_req_unit_o(tex_unit),
        .tex_req_mask_o(tex_mask), .tex_req_s_o(tex_s), .tex_req_t_o(tex_t), .tex_rsp_data_i(tex_rsp),
        .issue_valid_o(issue_valid), .issue_warp_o(issue_warp), .issue_pc_o(issue_pc), .rt_valid_o(rt_valid),
        .rt_first_o(rt_first), .rt_last_o(rt_last), .rt_warp_o(rt_warp), .rt_pc_o(rt_pc), .rt_active_o(rt_active),
        .rt_wmask_o(rt_wmask), .rt_row_o(rt_row), .rt_minor_o(rt_minor), .rt_lane_en_o(rt_lane_en),
        .rt_kind_o(rt_kind), .rt_dst_o(rt_dst), .rt_val_o(rt_val), .rt_addr_o(rt_addr));

    // expected
    reg          e_idle, e_rt_valid, e_rt_first, e_rt_last, e_tex_valid, e_issue_valid;
    reg [31:0]   e_run, e_err, e_rt_active, e_rt_wmask, e_rt_lane_en, e_tex_mask;
    reg [7:0]    e_rt_warp, e_rt_row, e_issue_warp, e_rt_dst;
    reg [15:0]   e_rt_pc, e_issue_pc;
    reg [3:0]    e_rt_minor, e_rt_kind;
    reg [LW-1:0] e_rt_val, e_out_rdata;
    reg [3:0]    i_imem_we, i_const_we, i_attr_we, i_launch;
    reg [15:0]   i_prog_len;
    reg [3:0]    e_rb;

    integer fd, n, line, errors, prev_rb;
    reg [8*256-1:0] path;
    task check(input [8*16-1:0] name, input [LW-1:0] got, input [LW-1:0] want);
        if (got !== want) begin
            if (errors < 10)
                $display("FAIL line %0d (cycle %0d): %0s DUT %h expected %h (vectors %0s)", line, line - 1, name, got, want, path);
            errors = errors + 1;
        end
    endtask

    initial begin
        errors = 0; line = 0; prev_rb = 0;
        if (!$value$plusargs("vectors=%s", path)) begin $display("FAIL: no +vectors=FILE"); $finish; end
        if ($test$plusargs("vcd")) begin $dumpfile("tb_simt_core.vcd"); $dumpvars(0, tb_simt_core); end
        fd = $fopen(path, "r");
        if (fd == 0) begin $display("FAIL: cannot open %0s", path); $finish; end
        {imem_we, const_we, attr_we, launch} = 4'd0;
        repeat (2) @(negedge clk);
        rst_n = 1'b1;
        forever begin
            n = $fscanf(fd, "%h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h",
                        i_imem_we, imem_addr, imem_data, i_const_we, const_addr, const_data, i_attr_we, attr_warp,
                        attr_row, attr_word, attr_data, i_launch, launch_warp, launch_mask, launch_wid, out_warp,
                        out_row, out_word, i_prog_len, tex_rsp);
            if (n != 20) begin
                if (line == 0 || errors != 0) $display("FAIL: %0d errors, %0d lines read from %0s", errors, line, path);
                else $display("PASS: %0d cycles of %0s matched (LANES=%0d WARPS=%0d)", line, path, LANES, WARPS);
                $finish;
            end
            n = $fscanf(fd, "%h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h",
                        e_idle, e_run, e_err, e_rt_valid, e_rt_first, e_rt_last, e_rt_warp, e_rt_pc, e_rt_active,
                        e_rt_wmask, e_rt_row, e_rt_minor, e_rt_lane_en, e_rt_kind, e_rt_dst, e_rt_val, e_tex_valid,
                        e_tex_mask, e_issue_valid, e_issue_warp, e_issue_pc);
            n = n + $fscanf(fd, "%h %h", e_out_rdata, e_rb);
            if (n != 23) begin $display("FAIL: malformed line %0d of %0s", line + 1, path); $finish; end
            line = line + 1;
            imem_we = i_imem_we[0]; const_we = i_const_we[0]; attr_we = i_attr_we[0]; launch = i_launch[0];
            prog_len = i_prog_len[12:0];
            #4;
            check("idle", {{(LW-1){1'b0}}, idle}, {{(LW-1){1'b0}}, e_idle});
            check("run", {{(LW-WARPS){1'b0}}, run}, {{(LW-32){1'b0}}, e_run});
            check("err", {{(LW-WARPS){1'b0}}, err}, {{(LW-32){1'b0}}, e_err});
            check("rt_valid", {{(LW-1){1'b0}}, rt_valid}, {{(LW-1){1'b0}}, e_rt_valid});
            check("rt_first", {{(LW-1){1'b0}}, rt_first}, {{(LW-1){1'b0}}, e_rt_first});
            check("rt_last", {{(LW-1){1'b0}}, rt_last}, {{(LW-1){1'b0}}, e_rt_last});
            check("rt_warp", {{(LW-5){1'b0}}, rt_warp}, {{(LW-8){1'b0}}, e_rt_warp});
            check("rt_pc", {{(LW-16){1'b0}}, rt_pc}, {{(LW-16){1'b0}}, e_rt_pc});
            check("rt_active", {{(LW-32){1'b0}}, rt_active}, {{(LW-32){1'b0}}, e_rt_active});
            check("rt_wmask", {{(LW-32){1'b0}}, rt_wmask}, {{(LW-32){1'b0}}, e_rt_wmask});
            check("rt_row", {{(LW-5){1'b0}}, rt_row}, {{(LW-8){1'b0}}, e_rt_row});
            check("rt_minor", {{(LW-2){1'b0}}, rt_minor}, {{(LW-4){1'b0}}, e_rt_minor});
            check("rt_lane_en", {{(LW-LANES){1'b0}}, rt_lane_en}, {{(LW-32){1'b0}}, e_rt_lane_en});
            check("rt_kind", {{(LW-3){1'b0}}, rt_kind}, {{(LW-4){1'b0}}, e_rt_kind});
            check("rt_dst", {{(LW-6){1'b0}}, rt_dst}, {{(LW-8){1'b0}}, e_rt_dst});
            check("rt_val", rt_val, e_rt_val);
            check("tex_valid", {{(LW-1){1'b0}}, tex_valid}, {{(LW-1){1'b0}}, e_tex_valid});
            check("tex_mask", {{(LW-LANES){1'b0}}, tex_mask}, {{(LW-32){1'b0}}, e_tex_mask});
            check("issue_valid", {{(LW-1){1'b0}}, issue_valid}, {{(LW-1){1'b0}}, e_issue_valid});
            check("issue_warp", {{(LW-5){1'b0}}, issue_warp}, {{(LW-8){1'b0}}, e_issue_warp});
            check("issue_pc", {{(LW-16){1'b0}}, issue_pc}, {{(LW-16){1'b0}}, e_issue_pc});
            if (e_rb[0]) check("out_rdata", out_rdata, e_out_rdata);
            @(negedge clk);
        end
    end

    // verilator lint_off UNUSEDSIGNAL
    wire unused_ok = &{1'b0, tex_s, tex_t, tex_warp, tex_row, tex_comp, tex_unit, rt_addr, prev_rb};
    // verilator lint_on UNUSEDSIGNAL
endmodule

`default_nettype wire
