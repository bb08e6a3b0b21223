#!/usr/bin/env python3
"""Hardware configurations of the units from one table per unit (defs/cfg_<unit>.tbl).

Each table names the unit's RTL top and parameters (with their legal values and the RTL default) and lists
its configurations, one row each. From the tables this script generates
  mk   a make fragment: per unit the functions that turn a positional configuration string (the make strings
       like 16_2 or LANES_WARPS_FPULAT_SFULAT_TEXLAT, with an optional _name suffix for a named set) into
       Verilator -G flags (<unit>_cfg_vflags), Icarus -P flags (<unit>_cfg_pflags, the testbench's top as the
       second argument) and the C shim's -D flags (<unit>_cfg_dflags); the configuration lists per use
       (<UNIT>_CFG_USE_<use>); per named configuration its values away from the positional ones
       (<UNIT>_CFG_XKV_/XG_/XD_<name>) and all its NAME=value pairs (<UNIT>_CFG_KV_<name>). A string that is
       not in the table works too (its positional fields; a make file may set XKV/XG/XD for it)
  h    a C header per unit: legal ranges, RTL defaults, and the values of every named configuration
  vh   a Verilog include per unit: the same as `defines
  check  the agreement test (make test-cfg): see check() below
  list   the tables as JSON (one object per unit: params with ranges, configurations with values and uses),
         the input of coverage reports

Table format (whitespace-separated columns, `#` starts a comment):
  unit   <name>                      make prefix <name>_cfg_*, C/Verilog prefix <NAME>_CFG_*
  top    <module> <file.v>           the RTL top the parameters belong to
  shim   <file> ...                  the C/C++ sources that read the -D defines (checked to use each)
  param  <NAME> <pos> <define> <legal> <default>
         pos:    1, 2, ...: its field in the positional string; - : not positional (a named set gives it)
         define: the C macro the shim reads, or - (the shim does not take it)
         legal:  lo..hi, or v1,v2,... (the values the RTL accepts)
         default: the RTL's default value
  config <name> <value per param, in param order> <uses>
         name: the positional fields joined by _ (plus _<suffix> for a set with non-positional values);
         uses: comma-separated (cosim, tb, lint, synth, ...): which make lists it is in
"""
import json
import os
import re
import subprocess
import sys


class Table:
    def __init__(self, path):
        self.path = path
        self.unit = self.top = self.top_file = None
        self.shims = []
        self.params = []      # dicts: name pos define legal default
        self.configs = []     # dicts: name values{} uses[]
        for ln, line in enumerate(open(path), 1):
            line = line.split('#', 1)[0].split()
            if not line:
                continue
            k, a = line[0], line[1:]
            where = '%s:%d' % (path, ln)
            if k == 'unit' and len(a) == 1:
                self.unit = a[0]
            elif k == 'top' and len(a) == 2:
                self.top, self.top_file = a
            elif k == 'shim' and a:
                self.shims += a
            elif k == 'param' and len(a) == 5:
                name, pos, define, legal, default = a
                self.params.append({'name': name, 'pos': None if pos == '-' else int(pos),
                                    'define': None if define == '-' else define, 'legal': legal,
                                    'default': int(default), 'where': where})
            elif k == 'config' and len(a) == len(self.params) + 2:
                vals = dict(zip([p['name'] for p in self.params], [int(v) for v in a[1:-1]]))
                self.configs.append({'name': a[0], 'values': vals, 'uses': a[-1].split(','), 'where': where})
            else:
                raise SystemExit('%s: cannot read: %s' % (where, ' '.join(line)))
        if not self.unit or not self.top:
            raise SystemExit('%s: needs unit and top lines' % path)
        self.U = self.unit.upper()
        self.positional = sorted([p for p in self.params if p['pos']], key=lambda p: p['pos'])
        if [p['pos'] for p in self.positional] != list(range(1, len(self.positional) + 1)):
            raise SystemExit('%s: positional fields must be 1..n' % path)

    def legal_values(self, p):
        m = re.fullmatch(r'(-?\d+)\.\.(-?\d+)', p['legal'])
        if m:
            return range(int(m.group(1)), int(m.group(2)) + 1)
        return [int(v) for v in p['legal'].split(',')]

    def legal_range(self, p):
        v = list(self.legal_values(p))
        return min(v), max(v)

    def extras(self, c):
        """non-positional parameters a configuration sets away from the RTL default, in table order"""
        return [p for p in self.params if not p['pos'] and c['values'][p['name']] != p['default']]


def gen_mk(tables):
    out = ['# Generated from defs/cfg_*.tbl by scripts/gen_cfg.py: do not edit (make test-cfg checks it).', '']
    for t in tables:
        u, U = t.unit, t.U
        out.append('# %s: %s (%s)' % (t.path, t.top, t.top_file))
        out.append('%s_CFG_PARAMS := %s' % (U, ' '.join(p['name'] for p in t.params)))
        out.append('%s_CFG_FIELDS := %s' % (U, '_'.join(p['name'] for p in t.positional)))
        out.append('%s_CFG_ALL := %s' % (U, ' '.join(c['name'] for c in t.configs)))
        uses = []
        for c in t.configs:
            for s in c['uses']:
                if s not in uses:
                    uses.append(s)
        for s in uses:
            out.append('%s_CFG_USE_%s := %s' % (U, s, ' '.join(c['name'] for c in t.configs if s in c['uses'])))
        for p in t.positional:
            out.append('%s_cfg_%s = $(word %d,$(subst _, ,$1))' % (u, p['name'], p['pos']))
        g = ' '.join('-G%s=$(call %s_cfg_%s,$1)' % (p['name'], u, p['name']) for p in t.positional)
        out.append('%s_cfg_vflags = $(strip %s $(%s_CFG_XG_$1))' % (u, g, U))
        pp = ' '.join('-P$2.%s=$(call %s_cfg_%s,$1)' % (p['name'], u, p['name']) for p in t.positional)
        out.append('%s_cfg_pflags = $(strip %s $(foreach kv,$(%s_CFG_XKV_$1),-P$2.$(kv)))' % (u, pp, U))
        d = ' '.join('-D%s=$(call %s_cfg_%s,$1)' % (p['define'], u, p['name']) for p in t.positional if p['define'])
        out.append('%s_cfg_dflags = $(strip %s $(%s_CFG_XD_$1))' % (u, d, U))
        for c in t.configs:
            x = t.extras(c)
            out.append('%s_CFG_KV_%s := %s' % (U, c['name'], ' '.join('%s=%d' % (p['name'], c['values'][p['name']])
                                                                   for p in t.params if p['pos'] or p in x)))
            if not x:
                continue
            out.append('%s_CFG_XKV_%s := %s' % (U, c['name'], ' '.join('%s=%d' % (p['name'], c['values'][p['name']]) for p in x)))
            out.append('%s_CFG_XG_%s := %s' % (U, c['name'], ' '.join('-G%s=%d' % (p['name'], c['values'][p['name']]) for p in x)))
            xd = ' '.join('-D%s=%d' % (p['define'], c['values'][p['name']]) for p in x if p['define'])
            if xd:
                out.append('%s_CFG_XD_%s := %s' % (U, c['name'], xd))
        out.append('')
    return '\n'.join(out)


def gen_h(t):
    U = t.U
    o = ['/* Generated from %s by scripts/gen_cfg.py: do not edit. Hardware configurations of %s. */' % (t.path, t.top),
         '#ifndef GPUPD_CFG_%s_H' % U, '#define GPUPD_CFG_%s_H' % U, '']
    for p in t.params:
        lo, hi = t.legal_range(p)
        o.append('#define %s_CFG_%s_MIN %d' % (U, p['name'], lo))
        o.append('#define %s_CFG_%s_MAX %d' % (U, p['name'], hi))
        o.append('#define %s_CFG_%s_DEFAULT %d' % (U, p['name'], p['default']))
    o.append('')
    for c in t.configs:
        for p in t.params:
            o.append('#define %s_CFG_%s__%s %d' % (U, c['name'].upper(), p['name'], c['values'][p['name']]))
    o += ['', '#endif', '']
    return '\n'.join(o)


def gen_vh(t):
    U = t.U
    o = ['// Generated from %s by scripts/gen_cfg.py: do not edit. Hardware configurations of %s.' % (t.path, t.top)]
    for p in t.params:
        lo, hi = t.legal_range(p)
        o.append('`define %s_CFG_%s_MIN %d' % (U, p['name'], lo))
        o.append('`define %s_CFG_%s_MAX %d' % (U, p['name'], hi))
        o.append('`define %s_CFG_%s_DEFAULT %d' % (U, p['name'], p['default']))
    for c in t.configs:
        for p in t.params:
            o.append('`define %s_CFG_%s__%s %d' % (U, c['name'].upper(), p['name'], c['values'][p['name']]))
    return '\n'.join(o) + '\n'


def load(paths):
    tables = [Table(p) for p in paths]
    if len({t.unit for t in tables}) != len(tables):
        raise SystemExit('gen_cfg: two tables with the same unit')
    return tables


def check(tables, mkfile, gendir, make, cc, iverilog, vvp):
    """The agreement test. For every unit and configuration:
      - the table: each value legal, the name equal to its positional fields (+ _suffix iff it sets
        non-positional values), the RTL default legal and equal to the top's `parameter` declaration;
        every define is read by one of the shims
      - make: the generated functions, evaluated by make, give -G / -P / -D flags with exactly the table's values
      - C: a program compiled with those -D flags and the generated header checks the values against the
        header's named configuration and its legal range (compile-time)
      - Verilog: a module elaborated by Icarus with those -P flags and the generated include prints its
        parameters; they must equal the table's values and lie inside the include's range
    Prints every disagreement with the command to reproduce it; returns the number of failures."""
    fails = []

    def fail(msg):
        fails.append(msg)
        print('FAIL: ' + msg)

    tmp = os.path.join(os.path.dirname(os.path.abspath(gendir)), 'cfg-check')   # build/cfg-check
    os.makedirs(tmp, exist_ok=True)
    n_checked = 0
    for t in tables:
        src = open(t.top_file).read()
        for p in t.params:
            m = re.search(r'parameter\s+(?:integer\s+)?%s\s*=\s*(\d+)' % p['name'], src)
            if not m:
                fail('%s: %s declares no parameter %s (%s)' % (p['where'], t.top_file, p['name'], t.top))
            elif int(m.group(1)) != p['default']:
                fail('%s: %s default is %s in %s, %d in the table' % (p['where'], p['name'], m.group(1), t.top_file, p['default']))
            if p['default'] not in t.legal_values(p):
                fail('%s: default %d of %s is not legal (%s)' % (p['where'], p['default'], p['name'], p['legal']))
            if p['define']:
                if not any(re.search(r'\b%s\b' % p['define'], open(s).read()) for s in t.shims):
                    fail('%s: no shim (%s) reads %s' % (p['where'], ' '.join(t.shims), p['define']))
        for c in t.configs:
            v = c['values']
            for p in t.params:
                if v[p['name']] not in t.legal_values(p):
                    fail('%s: %s=%d is not legal (%s)' % (c['where'], p['name'], v[p['name']], p['legal']))
            want = '_'.join(str(v[p['name']]) for p in t.positional)
            if t.extras(c):
                if not c['name'].startswith(want + '_') or not re.fullmatch(r'[a-z][a-z0-9]*', c['name'][len(want) + 1:]):
                    fail('%s: config %s sets non-positional values: its name must be %s_<name>' % (c['where'], c['name'], want))
            elif c['name'] != want:
                fail('%s: config name %s does not match its positional values (%s)' % (c['where'], c['name'], want))
        # make: evaluate the generated functions
        probe = os.path.join(tmp, 'probe_%s.mk' % t.unit)
        with open(probe, 'w') as f:
            f.write('include %s\n' % os.path.abspath(mkfile))
            for c in t.configs:
                f.write('$(info %s V $(call %s_cfg_vflags,%s))\n' % (c['name'], t.unit, c['name']))
                f.write('$(info %s P $(call %s_cfg_pflags,%s,top))\n' % (c['name'], t.unit, c['name']))
                f.write('$(info %s D $(call %s_cfg_dflags,%s))\n' % (c['name'], t.unit, c['name']))
            f.write('all: ;\n')
        r = subprocess.run([make, '-s', '--no-print-directory', '-f', probe], capture_output=True, text=True)
        if r.returncode:
            fail('%s: make cannot evaluate the generated fragment: %s (reproduce: %s -f %s)' % (t.path, r.stderr.strip(), make, probe))
            continue
        flags = {}
        for line in r.stdout.splitlines():
            name, kind, rest = (line.split(' ', 2) + [''])[:3]
            flags[(name, kind)] = rest.split()
        for c in t.configs:
            v = c['values']
            n_checked += 1
            wantg = {p['name']: v[p['name']] for p in t.params if p['pos'] or v[p['name']] != p['default']}
            wantd = {p['define']: v[p['name']] for p in t.params if p['define'] and (p['pos'] or v[p['name']] != p['default'])}
            got = {}
            for fl in flags.get((c['name'], 'V'), []):
                m = re.fullmatch(r'-G(\w+)=(-?\d+)', fl)
                got[m.group(1) if m else fl] = int(m.group(2)) if m else None
            if got != wantg:
                fail('%s %s: make %s_cfg_vflags gives %s, the table %s (reproduce: make -f %s)' % (t.unit, c['name'], t.unit, got, wantg, probe))
            gotp = {}
            for fl in flags.get((c['name'], 'P'), []):
                m = re.fullmatch(r'-Ptop\.(\w+)=(-?\d+)', fl)
                gotp[m.group(1) if m else fl] = int(m.group(2)) if m else None
            if gotp != wantg:
                fail('%s %s: make %s_cfg_pflags gives %s, the table %s (reproduce: make -f %s)' % (t.unit, c['name'], t.unit, gotp, wantg, probe))
            gotd = {}
            for fl in flags.get((c['name'], 'D'), []):
                m = re.fullmatch(r'-D(\w+)=(-?\d+)', fl)
                gotd[m.group(1) if m else fl] = int(m.group(2)) if m else None
            if gotd != wantd:
                fail('%s %s: make %s_cfg_dflags gives %s, the table %s (reproduce: make -f %s)' % (t.unit, c['name'], t.unit, gotd, wantd, probe))
            # C: the -D flags against the generated header
            cs = os.path.join(tmp, 'c_%s_%s.c' % (t.unit, c['name']))
            with open(cs, 'w') as f:
                f.write('#include "cfg_%s.h"\n' % t.unit)
                for p in t.params:
                    if not p['define']:
                        continue
                    d, key = p['define'], '%s_CFG_%s__%s' % (t.U, c['name'].upper(), p['name'])
                    f.write('#ifndef %s\n#define %s %s_CFG_%s_DEFAULT\n#endif\n' % (d, d, t.U, p['name']))
                    f.write('_Static_assert(%s == %s, "%s: the -D value differs from the header");\n' % (d, key, d))
                    f.write('_Static_assert(%s >= %s_CFG_%s_MIN && %s <= %s_CFG_%s_MAX, "%s out of range");\n'
                            % (d, t.U, p['name'], d, t.U, p['name'], d))
                f.write('int main(void) { return 0; }\n')
            cmd = [cc, '-std=c11', '-Wall', '-Werror', '-I' + gendir, '-fsyntax-only'] + flags.get((c['name'], 'D'), []) + [cs]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode:
                fail('%s %s: C flags disagree with cfg_%s.h: %s (reproduce: %s)' % (t.unit, c['name'], t.unit,
                     r.stderr.strip().splitlines()[0] if r.stderr.strip() else '', ' '.join(cmd)))
            # Verilog: a module with the unit's parameters at their RTL defaults, elaborated with the -P flags
            vs = os.path.join(tmp, 'v_%s_%s.v' % (t.unit, c['name']))
            with open(vs, 'w') as f:
                f.write('`include "cfg_%s.vh"\nmodule top;\n' % t.unit)
                for p in t.params:
                    f.write('  parameter integer %s = `%s_CFG_%s_DEFAULT;\n' % (p['name'], t.U, p['name']))
                f.write('  initial begin\n')
                for p in t.params:
                    f.write('    if (%s < `%s_CFG_%s_MIN || %s > `%s_CFG_%s_MAX) $display("RANGE %s %%0d", %s);\n'
                            % (p['name'], t.U, p['name'], p['name'], t.U, p['name'], p['name'], p['name']))
                    f.write('    $display("%s %%0d %%0d", %s, `%s_CFG_%s__%s);\n' % (p['name'], p['name'], t.U, c['name'].upper(), p['name']))
                f.write('  end\nendmodule\n')
            vvpf = vs + 'vp'
            cmd = [iverilog, '-g2012', '-I', gendir, '-o', vvpf, '-s', 'top'] + flags.get((c['name'], 'P'), []) + [vs]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode:
                fail('%s %s: Icarus cannot elaborate with the -P flags: %s (reproduce: %s)' % (t.unit, c['name'], r.stderr.strip(), ' '.join(cmd)))
                continue
            r = subprocess.run([vvp, '-n', vvpf], capture_output=True, text=True)
            seen = set()
            for line in r.stdout.splitlines():
                w = line.split()
                if w and w[0] == 'RANGE':
                    fail('%s %s: %s=%s outside the range of cfg_%s.vh' % (t.unit, c['name'], w[1], w[2], t.unit))
                elif len(w) == 3 and w[0] in v:
                    seen.add(w[0])
                    if int(w[1]) != v[w[0]] or int(w[2]) != v[w[0]]:
                        fail('%s %s: Verilog %s = %s (elaborated with the -P flags), include %s, table %d (reproduce: %s; vvp -n %s)'
                             % (t.unit, c['name'], w[0], w[1], w[2], v[w[0]], ' '.join(cmd), vvpf))
            if seen != set(v):
                fail('%s %s: the Verilog check printed %d of %d parameters (reproduce: vvp -n %s)' % (t.unit, c['name'], len(seen), len(v), vvpf))
    if n_checked == 0:
        fail('no configuration checked (no tables?)')
    if not fails:
        print('test-cfg: %d tables, %d configurations: make flags (-G, -P, -D), C header and Verilog include agree with '
              'the tables; defaults equal the RTL tops\'; every define is read by a shim' % (len(tables), n_checked))
    return len(fails)


def write(path, text):
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv):
    if len(argv) < 3:
        raise SystemExit('usage: gen_cfg.py mk OUT TABLE... | h OUTDIR TABLE... | vh OUTDIR TABLE... | list TABLE... | '
                         'check MKFILE GENDIR TABLE...')
    cmd = argv[1]
    if cmd == 'mk':
        write(argv[2], gen_mk(load(argv[3:])))
    elif cmd in ('h', 'vh'):
        for t in load(argv[3:]):
            write(os.path.join(argv[2], 'cfg_%s.%s' % (t.unit, cmd)), gen_h(t) if cmd == 'h' else gen_vh(t))
    elif cmd == 'list':
        out = []
        for t in load(argv[2:]):
            out.append({'unit': t.unit, 'top': t.top, 'file': t.top_file, 'table': t.path,
                        'params': [{'name': p['name'], 'pos': p['pos'], 'define': p['define'], 'legal': p['legal'],
                                    'min': t.legal_range(p)[0], 'max': t.legal_range(p)[1],
                                    'values': list(t.legal_values(p)) if ',' in p['legal'] else None,
                                    'default': p['default']} for p in t.params],
                        'configs': [{'name': c['name'], 'values': c['values'], 'uses': c['uses']} for c in t.configs]})
        print(json.dumps(out, indent=1))
    elif cmd == 'check':
        env = os.environ
        sys.exit(1 if check(load(argv[4:]), argv[2], argv[3], env.get('MAKE', 'make'), env.get('CC', 'cc'),
                            'iverilog', 'vvp') else 0)
    else:
        raise SystemExit('gen_cfg.py: unknown command ' + cmd)


if __name__ == '__main__':
    main(sys.argv)
