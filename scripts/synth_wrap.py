#!/usr/bin/python3
"""Generate a synthesis-only I/O wrapper for a unit, so a design with hundreds of ports fits an FPGA package.

Usage: synth_wrap.py --ports PORTS.json --top TOP [--param NAME=VALUE ...] [--clock clk_i]
                     [--drop-output PATTERN ...] [--share-inputs PORT,PORT,... ...] --out WRAP.v

PORTS.json is Yosys `write_json` output of the elaborated design (it gives each port's direction and width
for the chosen parameters). The wrapper <TOP>_synthwrap has four pins: clk, sin, load, sout.
  * Every input port of TOP except the clock (reset included) is driven from one shift register fed by `sin`
    (one bit per cycle), so every input bit is an independent, live register output.
  * Every output port is captured in parallel into a second shift register when `load` is high and shifted
    out on `sout` otherwise, so no output bit (and no logic behind it) can be optimised away.
The wrapper adds IN_BITS + OUT_BITS flip-flops and one 2:1 mux per output bit; FPGA numbers that use it say
so (docs/synthesis.md). It is never simulated and never used by the ASIC (OSU 0.18 um) flow.
--drop-output PATTERN (fnmatch, repeatable) leaves the matching output ports unconnected: synthesis then removes
the logic that drives only them. For a debug/verification port that an FPGA build does not bring out (the SIMT
core's retire and issue ports, docs/simt.md section 6); the wrapper's header names every dropped port.
--share-inputs P1,P2,... (repeatable) drives the listed input ports from ONE field of the input shift register
(as wide as the widest of them, each port from its low bits), as a host data bus would: for data inputs that only
meet in storage (RAM write data, registers loaded by the host), never in logic that could use their equality.
Fewer wrapper flip-flops; every bit is still live. The header names every group.
"""
import argparse
import fnmatch
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ports", required=True)
    ap.add_argument("--top", required=True)
    ap.add_argument("--param", action="append", default=[], help="NAME=VALUE passed to the instance")
    ap.add_argument("--clock", default="clk_i")
    ap.add_argument("--drop-output", action="append", default=[], metavar="PATTERN",
                    help="leave output ports matching this fnmatch pattern unconnected (repeatable)")
    ap.add_argument("--share-inputs", action="append", default=[], metavar="PORT,PORT,...",
                    help="drive these input ports from one shared field (repeatable)")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    with open(a.ports) as f:
        mods = json.load(f)["modules"]
    if a.top not in mods:
        sys.exit(f"synth_wrap: module '{a.top}' not in {a.ports} (have: {', '.join(sorted(mods))})")
    ports = mods[a.top]["ports"]
    if a.clock not in ports or ports[a.clock]["direction"] != "input" or len(ports[a.clock]["bits"]) != 1:
        sys.exit(f"synth_wrap: clock '{a.clock}' is not a 1-bit input of {a.top}")

    ins, outs, dropped = [], [], []
    used_pat = set()
    for name, p in ports.items():  # Yosys keeps declaration order
        d, w = p["direction"], len(p["bits"])
        if d == "inout":
            sys.exit(f"synth_wrap: inout port '{name}' is not supported")
        if name == a.clock:
            continue
        if d == "output":
            hit = [pat for pat in a.drop_output if fnmatch.fnmatchcase(name, pat)]
            if hit:
                used_pat.update(hit)
                dropped.append((name, w))
                continue
        (ins if d == "input" else outs).append((name, w))
    for pat in a.drop_output:
        if pat not in used_pat:
            sys.exit(f"synth_wrap: --drop-output '{pat}' matches no output port of {a.top}")
    # shared input groups: port -> group index; each group is one field of max(width) bits
    width = dict(ins)
    group_of = {}
    groups = []
    for spec in a.share_inputs:
        names = [n for n in spec.split(",") if n]
        if len(names) < 2:
            sys.exit(f"synth_wrap: --share-inputs '{spec}' needs at least two ports")
        for n in names:
            if n not in width:
                sys.exit(f"synth_wrap: --share-inputs: '{n}' is not an input port of {a.top} (or is the clock)")
            if n in group_of:
                sys.exit(f"synth_wrap: --share-inputs: '{n}' is in two groups")
            group_of[n] = len(groups)
        groups.append(names)
    fields = []   # (key, width): a port name, or a group index
    seen = set()
    for name, w in ins:
        if name in group_of:
            g = group_of[name]
            if g not in seen:
                seen.add(g)
                fields.append((g, max(width[n] for n in groups[g])))
        else:
            fields.append((name, w))
    in_bits = sum(w for _, w in fields)
    out_bits = sum(w for _, w in outs)
    if in_bits < 2 or out_bits < 2:
        sys.exit("synth_wrap: need at least 2 input and 2 output bits besides the clock")

    params = []
    for kv in a.param:
        if "=" not in kv:
            sys.exit(f"synth_wrap: bad --param '{kv}' (want NAME=VALUE)")
        k, v = kv.split("=", 1)
        params.append(f".{k}({v})")

    conns = [f"    .{a.clock}(clk)"]
    lo = 0
    field_lo = {}
    for key, w in fields:
        field_lo[key] = lo
        lo += w
    for name, w in ins:
        flo = field_lo[group_of[name] if name in group_of else name]
        conns.append(f"    .{name}(ish[{flo + w - 1}:{flo}])")
    lo = 0
    for name, w in outs:
        conns.append(f"    .{name}(o[{lo + w - 1}:{lo}])")
        lo += w

    for name, _ in dropped:
        conns.append(f"    .{name}()")
    conn_text = ",\n".join(conns)
    share_text = "".join(f"// Shared input field (--share-inputs): {', '.join(f'{n}[{width[n]}]' for n in g)}\n"
                         for g in groups)
    drop_text = share_text
    if dropped:
        drop_text += (f"// Unconnected (--drop-output; their logic is removed): {sum(w for _, w in dropped)} bits: "
                     + ", ".join(f"{n}[{w}]" for n, w in dropped) + "\n")
    inst_params = f" #({', '.join(params)})" if params else ""
    text = f"""// GENERATED by scripts/synth_wrap.py for {a.top}{inst_params}: synthesis only, do not edit.
// {in_bits} input bits (all inputs but {a.clock}) come from a shift register fed by sin; {out_bits} output bits
// are loaded in parallel into a shift register read out on sout. See docs/synthesis.md.
{drop_text}`default_nettype none
module {a.top}_synthwrap (
  input  wire clk,
  input  wire sin,
  input  wire load,
  output wire sout
);
  reg  [{in_bits - 1}:0] ish;
  reg  [{out_bits - 1}:0] osh;
  wire [{out_bits - 1}:0] o;
  always @(posedge clk) ish <= {{ish[{in_bits - 2}:0], sin}};
  always @(posedge clk) osh <= load ? o : {{osh[{out_bits - 2}:0], 1'b0}};
  assign sout = osh[{out_bits - 1}];
  {a.top}{inst_params} u_dut (
{conn_text}
  );
endmodule
`default_nettype wire
"""
    with open(a.out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
