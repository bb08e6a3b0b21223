#!/usr/bin/env python3
"""GLSL -> SPIR-V (glslang, Debian glslang-tools) -> GPUpd SIMT ISA (our translator).

    glsl2isa.py --vs shader.vert --fs shader.frag [--asm-out DIR] [--json]

Front end: the application's GLSL source (GLSL 1.10/1.20 or ES 1.00 style: attribute/varying, gl_FragColor,
texture2D) is compiled by `glslangValidator -G` (OpenGL SPIR-V) after a textual prelude maps the old
keywords onto GLSL 3.30 (`#define attribute in` ...; no GLSL is parsed here), then optimised by
`spirv-opt -O` (inlining, constant folding, SSA) with every loop marked for full unrolling
(`--loop-unroll`: loops with a constant trip count disappear). This file translates the SPIR-V module:
every value is scalarised, booleans live in registers as 0/1, structured control flow becomes the ISA's
reconvergence branches (if/else, loops with breaks in the loop body), `discard` becomes `exit`, phis become
copies at the end of the predecessors, and a linear-scan allocator maps the virtual registers onto r0..r55
(spilling to local memory when more are live). docs/shader-compiler.md is the reference: the program ABI
(where attributes, varyings, uniforms, samplers, gl_FragCoord and outputs live), the supported subset and
what a shader outside it gets.

Errors: a construct outside the subset raises Unsupported with a one-line reason; the converter then flags
the draw (TRACE_DRAW_F_FS_APPROX / VS_APPROX) and names the reason in the trace notes.
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

# ---------------------------------------------------------------------------------------------- ABI
VS_A_BASE = 0          # attribute slot i -> a[4i .. 4i+3]
VS_O_POS = 0           # o[0..3] clip position
VS_O_VAR = 4           # varying v -> o[4+4v ..]
FS_A_VAR = 0           # varying v -> a[4v ..]
FS_A_FRAGCOORD = 32    # gl_FragCoord -> a[32..35] (x+0.5, y+0.5, window z, 1/w)
FS_A_FACING = 36       # gl_FrontFacing -> a[36] (1.0 front, 0.0 back)
FS_O_COLOR = 0         # o[0..3] colour (every render target)
FS_O_DEPTH = 4         # o[4] depth (preset to the interpolated window z)
FS_O_KILL = 5          # o[5] != 0: the fragment was discarded
CONST_BASE = 16        # uniforms start at c[16] (c[0..15] = the trace's MVP rows, kept for other tools)
MAX_VARYINGS = 8
MAX_ATTRIBS = 16     # the ISA's 64 attribute words (trace format 1.3; 8 before)
N_ALLOC = 56           # r0..r55 allocatable; r56..r62 staging/scratch; rz
TEXC, TEXR = 56, 58    # tex coordinates r56,r57; results r58..r61
DERIV_UNIT = 15        # tex unit 15: the quad derivative unit (ddx s, ddy s, ddx t, ddy t) of the fragment stage
SCR_SRC = (59, 60, 61)  # spill reload scratch (instruction-local)
SCR_DST = 62


class Unsupported(Exception):
    pass


def fbits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


ONE = fbits(1.0)

# ---------------------------------------------------------------------------------------------- front end
PRELUDE_COMMON = '#version 330\n#define texture2D texture\n#define texture2DLod textureLod\n' \
    '#define texture2DProj textureProj\n#define texture2DProjLod textureProjLod\n#define textureCube texture\n' \
    '#define lowp\n#define mediump\n#define highp\n' + \
    '#define shadow2D(s, c) vec4(vec3(texture(s, c)), 1.0)\n#define shadow2DProj(s, c) vec4(vec3(textureProj(s, c)), 1.0)\n'
PRELUDE = {
    'vert': PRELUDE_COMMON + '#define attribute in\n#define varying out\n',
    'frag': PRELUDE_COMMON + '#define varying in\n#define gl_FragColor gpupd_FragColor\n'
                             'layout(location = 0) out vec4 gpupd_FragColor;\n',
}


def tool(name):
    p = shutil.which(name)
    if not p:
        raise Unsupported('%s not found (Debian package %s)' % (
            name, 'glslang-tools' if name.startswith('glslang') else 'spirv-tools'))
    return p


LEGACY_DEFINES = {
    'vert': [('attribute', 'in'), ('varying', 'out')],
    'frag': [('varying', 'in')],
}


def prepare_source(src, stage):
    """The source glslang compiles: GLSL 1.10/1.20 and ES 1.00 under the legacy prelude; GLSL 1.30-1.50 and
    3.30 (core or compatibility) as written, compiled as 3.30 with only the legacy names the source still
    uses and does not define itself (an engine's own `#define texture2D texture` header stays valid)."""
    lines = src.replace('\r\n', '\n').split('\n')
    out = []
    version = 110
    for ln in lines:
        s = ln.strip()
        if s.startswith('#version'):
            v = s.split()
            if len(v) > 1 and v[1].isdigit():
                version = int(v[1])
                if version not in (100, 110, 120, 130, 140, 150, 330) or ('es' in v[2:] and version != 100):
                    raise Unsupported('GLSL %s shaders are not supported (GLSL 1.10-1.50, 3.30 and ES 1.00 only)'
                                      % ' '.join(v[1:]))
            out.append('')
            continue
        if s.startswith('#extension'):
            out.append('')
            continue
        if re.match(r'precision\s+\w+\s+\w+\s*;', s):
            out.append('')
            continue
        out.append(ln)
    body = '\n'.join(out)
    if version < 130:
        if stage == 'frag' and re.search(r'\bgl_FragData\b', body):
            raise Unsupported('gl_FragData (multiple render targets) is not supported')
        return PRELUDE[stage] + '#line 1\n' + body
    # GLSL >= 1.30: an engine's source may name gl_FragData in a branch its #defines leave out (darkplaces'
    # deferred-geometry mode); glslang preprocesses, and a gl_FragData still in use is an error under 3.30
    # core (reported as glslang's reason)
    defined = set(re.findall(r'^\s*#\s*define\s+(\w+)', body, re.M))
    pre = '#version 330\n'
    for name, rep in [('texture2D', 'texture'), ('texture2DLod', 'textureLod'), ('texture2DProj', 'textureProj'),
                      ('texture2DProjLod', 'textureProjLod'), ('textureCube', 'texture'), ('lowp', ''),
                      ('mediump', ''), ('highp', '')] + LEGACY_DEFINES[stage]:
        if name not in defined and re.search(r'\b%s\b' % name, body):
            pre += '#define %s %s\n' % (name, rep)
    for name, rep in (('shadow2D', 'texture'), ('shadow2DProj', 'textureProj')):
        if name not in defined and re.search(r'\b%s\b' % name, body):
            pre += '#define %s(s, c) vec4(vec3(%s(s, c)), 1.0)\n' % (name, rep)
    if stage == 'frag' and 'gl_FragColor' not in defined and re.search(r'\bgl_FragColor\b', body):
        pre += '#define gl_FragColor gpupd_FragColor\nlayout(location = 0) out vec4 gpupd_FragColor;\n'
    return pre + '#line 1\n' + body


def glsl_to_spirv(src, stage, td):
    path = os.path.join(td, 'shader.' + stage)
    with open(path, 'w') as f:
        f.write(prepare_source(src, stage))
    spv = os.path.join(td, stage + '.spv')
    r = subprocess.run([tool('glslangValidator'), '-G', '--aml', '--amb', '-o', spv, path],
                       capture_output=True, text=True)
    if r.returncode:
        msg = [l for l in (r.stdout + r.stderr).split('\n') if 'ERROR' in l][:2]
        # the temporary file's path is not part of the reason: notes must not depend on the run
        raise Unsupported('glslang rejects the %s shader: %s' % (
            stage, (' | '.join(msg) or r.stdout[-200:]).replace(path, 'shader.' + stage)))
    data = bytearray(open(spv, 'rb').read())
    mark_unroll(data)
    with open(spv, 'wb') as f:
        f.write(data)
    opt = os.path.join(td, stage + '.opt.spv')
    r = subprocess.run([tool('spirv-opt'), '--loop-unroll', '-O', '--loop-unroll', '-O', spv, '-o', opt],
                       capture_output=True, text=True)
    if r.returncode:
        raise Unsupported('spirv-opt failed: %s' % r.stderr.strip()[:200])
    return open(opt, 'rb').read()


def mark_unroll(data):
    """Set LoopControl = Unroll on every OpLoopMerge (spirv-opt --loop-unroll unrolls marked loops)."""
    n = len(data) // 4
    i = 5
    while i < n:
        w = struct.unpack_from('<I', data, 4 * i)[0]
        op, wc = w & 0xffff, w >> 16
        if wc == 0:
            break
        if op == 246 and wc >= 4:   # OpLoopMerge merge continue control
            struct.pack_into('<I', data, 4 * (i + 3), 1)
        i += wc


# ---------------------------------------------------------------------------------------------- SPIR-V reader
_GRAMMAR = None


def grammar():
    global _GRAMMAR
    if _GRAMMAR is None:
        base = '/usr/include/spirv/unified1/'
        g = json.load(open(base + 'spirv.core.grammar.json'))
        e = json.load(open(base + 'extinst.glsl.std.450.grammar.json'))
        _GRAMMAR = ({i['opcode']: i['opname'] for i in g['instructions']},
                    {i['opcode']: i['opname'] for i in e['instructions']})
    return _GRAMMAR


def lit_string(words):
    b = b''.join(struct.pack('<I', w) for w in words)
    return b.split(b'\0', 1)[0].decode('utf-8', 'replace')


class Module:
    def __init__(self, data):
        ops, self.ext_names = grammar()
        words = struct.unpack('<%dI' % (len(data) // 4), data)
        if words[0] != 0x07230203:
            raise Unsupported('not a SPIR-V module')
        self.insts = []
        i = 5
        while i < len(words):
            op, wc = words[i] & 0xffff, words[i] >> 16
            self.insts.append((ops.get(op, 'Op%d' % op), list(words[i + 1:i + wc])))
            i += wc
        self.names, self.decor, self.types, self.consts, self.globals = {}, {}, {}, {}, {}
        self.member_builtin = {}
        self.functions = {}
        self.entry = None
        self.ext_glsl = None
        cur = None
        for name, a in self.insts:
            if name == 'OpName':
                self.names[a[0]] = lit_string(a[1:])
            elif name == 'OpDecorate':
                self.decor.setdefault(a[0], {})[a[1]] = a[2:]
            elif name == 'OpMemberDecorate':
                if a[2] == 11:
                    self.member_builtin[(a[0], a[1])] = a[3]
            elif name == 'OpExtInstImport':
                if lit_string(a[1:]) == 'GLSL.std.450':
                    self.ext_glsl = a[0]
            elif name == 'OpEntryPoint':
                self.entry = a[1]
            elif name.startswith('OpType'):
                self.types[a[0]] = (name, a[1:])
            elif name in ('OpConstant', 'OpConstantTrue', 'OpConstantFalse', 'OpConstantComposite',
                          'OpConstantNull', 'OpUndef', 'OpSpecConstant', 'OpSpecConstantTrue',
                          'OpSpecConstantFalse', 'OpSpecConstantComposite') and cur is None:
                self.consts[a[1]] = (name, a[0], a[2:])
            elif name == 'OpVariable' and cur is None:
                self.globals[a[1]] = (a[0], a[2])
            elif name == 'OpFunction':
                cur = {'id': a[1], 'blocks': [], 'order': []}
                self.functions[a[1]] = cur
            elif name == 'OpFunctionEnd':
                cur = None
            elif cur is not None:
                if name == 'OpLabel':
                    blk = {'id': a[0], 'insts': []}
                    cur['blocks'].append(blk)
                elif name == 'OpFunctionParameter':
                    raise Unsupported('function calls left after inlining')
                elif cur['blocks']:
                    cur['blocks'][-1]['insts'].append((name, a))
                elif name == 'OpUndef':
                    self.consts[a[1]] = (name, a[0], [])

    # type helpers
    def tinfo(self, t):
        return self.types[t]

    def size(self, t):
        """number of scalar slots of a value of type t (registers)."""
        k, a = self.types[t]
        if k in ('OpTypeFloat', 'OpTypeInt', 'OpTypeBool'):
            return 1
        if k in ('OpTypeVector', 'OpTypeMatrix'):
            return a[1] * self.size(a[0])
        if k == 'OpTypeArray':
            return self.const_int(a[1]) * self.size(a[0])
        if k == 'OpTypeStruct':
            return sum(self.size(m) for m in a)
        if k in ('OpTypeSampledImage', 'OpTypeImage', 'OpTypeSampler'):
            return 1
        raise Unsupported('type %s' % k)

    def scalar_kind(self, t):
        k, a = self.types[t]
        if k == 'OpTypeFloat':
            return 'f'
        if k == 'OpTypeInt':
            return 'u' if a[1] == 0 else 'i'
        if k == 'OpTypeBool':
            return 'b'
        if k in ('OpTypeVector', 'OpTypeMatrix', 'OpTypeArray'):
            return self.scalar_kind(a[0])
        raise Unsupported('type %s' % k)

    def const_int(self, cid):
        c = self.consts.get(cid)
        if not c or c[0] != 'OpConstant':
            raise Unsupported('non-constant array size or index')
        return c[2][0]

    def children(self, t):
        """(offset, type) of each member / component / column / element."""
        k, a = self.types[t]
        if k in ('OpTypeVector', 'OpTypeMatrix'):
            s = self.size(a[0])
            return [(i * s, a[0]) for i in range(a[1])]
        if k == 'OpTypeArray':
            s = self.size(a[0])
            return [(i * s, a[0]) for i in range(self.const_int(a[1]))]
        if k == 'OpTypeStruct':
            out, o = [], 0
            for m in a:
                out.append((o, m))
                o += self.size(m)
            return out
        raise Unsupported('indexing into %s' % k)


# ---------------------------------------------------------------------------------------------- code generation
class Imm:
    __slots__ = ('bits',)

    def __init__(self, bits):
        self.bits = bits & 0xffffffff

    def __repr__(self):
        return '0x%08x' % self.bits


class Ins:
    """One ISA instruction over virtual registers. fmt uses {d0} {s0} {s1} ... placeholders."""
    __slots__ = ('fmt', 'dst', 'src', 'label', 'kind')

    def __init__(self, fmt, dst=(), src=(), kind='op', label=None):
        self.fmt, self.dst, self.src, self.kind, self.label = fmt, list(dst), list(src), kind, label


class Compiler:
    def __init__(self, mod, stage, bindings):
        self.m = mod
        self.stage = stage            # 'vert' | 'frag'
        self.b = bindings             # shared dict: uniforms, samplers, varyings (filled / read)
        self.code = []
        self.nv = 0
        self.vals = {}                # SPIR-V id -> list of scalars (vreg int or Imm)
        self.ptrs = {}                # pointer id -> (var key, offset, type)
        self.vars = {}                # var key -> dict(kind, regs/ offsets...)
        self.labels = {}
        self.loops = []
        self.has_kill = False
        self.phis = {}                # block id -> list of (result id, type, [(value, pred)])
        self.max_local = 0
        self.n_tex = 0

    # -- vregs
    def new(self, n=1):
        r = list(range(self.nv, self.nv + n))
        self.nv += n
        return r

    def emit(self, fmt, dst=(), src=()):
        self.code.append(Ins(fmt, dst, src))

    def reg(self, x):
        """a register operand for x (materialise immediates)."""
        if isinstance(x, Imm):
            r = self.new()[0]
            self.emit('mov {d0}, %r' % x, [r])
            return r
        return x

    def label(self, bid):
        if bid not in self.labels:
            self.labels[bid] = 'L%d' % bid
        return self.labels[bid]

    def put_label(self, name):
        self.code.append(Ins('', kind='label', label=name))

    # -- values
    def val(self, vid):
        if vid in self.vals:
            return self.vals[vid]
        c = self.m.consts.get(vid)
        if c is None:
            raise Unsupported('value %%%d used before definition' % vid)
        self.vals[vid] = self.const_val(vid)
        return self.vals[vid]

    def const_val(self, vid):
        k, t, a = self.m.consts[vid]
        if k in ('OpConstant', 'OpSpecConstant'):
            return [Imm(a[0])]
        if k in ('OpConstantTrue', 'OpSpecConstantTrue'):
            return [Imm(1)]
        if k in ('OpConstantFalse', 'OpSpecConstantFalse'):
            return [Imm(0)]
        if k in ('OpConstantNull', 'OpUndef'):
            return [Imm(0)] * self.m.size(t)
        out = []
        for c in a:
            out += self.val(c)
        return out

    def kind_of(self, vid_or_type, is_type=False):
        return self.m.scalar_kind(vid_or_type)

    # -- top level
    def compile(self):
        m = self.m
        fn = m.functions.get(m.entry)
        if fn is None:
            raise Unsupported('no entry point')
        if len(m.functions) > 1:
            raise Unsupported('function calls left after inlining (recursion?)')
        self.setup_globals()
        blocks = {b['id']: b for b in fn['blocks']}
        self.blocks = blocks
        self.preds = {}
        for b in fn['blocks']:
            for succ in self.succs(b):
                self.preds.setdefault(succ, []).append(b['id'])
            for name, a in b['insts']:
                if name == 'OpPhi':
                    pass
        # phi destinations are allocated up front (non-SSA vregs written in predecessors)
        for b in fn['blocks']:
            for name, a in b['insts']:
                if name == 'OpPhi':
                    self.vals[a[1]] = self.new(m.size(a[0]))
        self.prologue()
        end = self.emit_range(fn['blocks'][0]['id'], None, {'loop': None, 'cont': None, 'nest': 0})
        self.put_label('Lend')
        self.epilogue()
        return self.finish()

    def succs(self, b):
        if not b['insts']:
            return []
        name, a = b['insts'][-1]
        if name == 'OpBranch':
            return [a[0]]
        if name == 'OpBranchConditional':
            return [a[1], a[2]]
        if name == 'OpSwitch':
            return [a[1]] + a[3::2]
        return []

    # -- globals: inputs, outputs, uniforms, samplers
    def setup_globals(self):
        m = self.m
        for vid, (ptype, sc) in m.globals.items():
            pk, pa = m.types[ptype]
            t = pa[1]
            name = m.names.get(vid, '')
            dec = m.decor.get(vid, {})
            if sc == 1:     # Input
                self.vars[vid] = {'kind': 'in', 'type': t, 'name': name, 'builtin': dec.get(11, [None])[0]}
            elif sc == 3:   # Output
                n = m.size(t)
                self.vars[vid] = {'kind': 'out', 'type': t, 'name': name, 'regs': self.new(n),
                                  'written': [False] * n, 'builtin': dec.get(11, [None])[0]}
            elif sc == 0:   # UniformConstant: default-block uniforms and samplers
                tk = m.types[t][0]
                base_t = t
                while m.types[base_t][0] == 'OpTypeArray':
                    base_t = m.types[base_t][1][0]
                if m.types[base_t][0] in ('OpTypeSampledImage', 'OpTypeImage', 'OpTypeSampler'):
                    if tk == 'OpTypeArray':
                        raise Unsupported('sampler arrays')
                    img = m.types[base_t][1][0] if m.types[base_t][0] == 'OpTypeSampledImage' else base_t
                    ik, ia = m.types[img]
                    if ia[1] != 1:      # Dim 2D
                        raise Unsupported('%s sampler (only sampler2D)' % {0: '1D', 1: '2D', 2: '3D', 3: 'cube'}.get(ia[1], '?'))
                    slot = self.b['samplers'].setdefault(name, len(self.b['samplers']))
                    if ia[2] == 1:      # sampler2DShadow: expanded in sample_dref; the texture size is a uniform
                        self.b['shadow'][name] = slot
                        key = '@texsize:' + name
                        if key not in self.b['uniforms']:
                            base = self.b['next_const']
                            self.b['next_const'] = base + 8
                            if self.b['next_const'] > 256:
                                raise Unsupported('uniforms need more than the 256-word constant bank')
                            self.b['uniforms'][key] = {'base': base, 'words': 8, 'layout': list(range(6)), 'kind': 'f',
                                                       'type': 'vec4[2]'}
                    if slot >= DERIV_UNIT:
                        raise Unsupported('more than %d samplers (unit %d is the quad derivative unit)' % (DERIV_UNIT, DERIV_UNIT))
                    self.vars[vid] = {'kind': 'sampler', 'slot': slot, 'shadow': name if ia[2] == 1 else None}
                else:
                    self.vars[vid] = {'kind': 'uniform', 'type': t, 'name': name,
                                      'base': self.uniform_base(name, t)}
            elif sc in (6,):  # Private
                n = m.size(t)
                self.vars[vid] = {'kind': 'func', 'type': t, 'regs': self.new(n)}
            else:
                raise Unsupported('storage class %d' % sc)

    def uniform_layout(self, t):
        """word offsets (relative) of each scalar of a uniform of type t: vec4-aligned columns/elements."""
        m = self.m
        k, a = m.types[t]
        if k in ('OpTypeFloat', 'OpTypeInt', 'OpTypeBool'):
            return [0], 4
        if k == 'OpTypeVector':
            return list(range(a[1])), 4
        if k == 'OpTypeMatrix':
            cols, rows = a[1], m.types[a[0]][1][1]
            return [c * 4 + r for c in range(cols) for r in range(rows)], 4 * cols
        if k == 'OpTypeArray':
            sub, stride = self.uniform_layout(a[0])
            n = m.const_int(a[1])
            return [e * stride + o for e in range(n) for o in sub], stride * n
        if k == 'OpTypeStruct':
            out, base = [], 0
            for mt in a:
                sub, st = self.uniform_layout(mt)
                out += [base + o for o in sub]
                base += st
            return out, base
        raise Unsupported('uniform of type %s' % k)

    def uniform_base(self, name, t):
        u = self.b['uniforms']
        lay, words = self.uniform_layout(t)
        if name in u:
            return u[name]['base']
        base = self.b['next_const']
        self.b['next_const'] = base + words
        if self.b['next_const'] > 256:
            raise Unsupported('uniforms need more than the 256-word constant bank')
        kind = self.m.scalar_kind(t)
        u[name] = {'base': base, 'words': words, 'layout': lay, 'kind': kind, 'type': self.type_name(t)}
        return base

    def type_name(self, t):
        k, a = self.m.types[t]
        if k == 'OpTypeFloat':
            return 'float'
        if k == 'OpTypeInt':
            return 'int'
        if k == 'OpTypeBool':
            return 'bool'
        if k == 'OpTypeVector':
            return {'float': 'vec', 'int': 'ivec', 'bool': 'bvec'}[self.type_name(a[0])] + str(a[1])
        if k == 'OpTypeMatrix':
            cols, rows = a[1], self.m.types[a[0]][1][1]
            return 'mat%d' % cols if cols == rows else 'mat%dx%d' % (cols, rows)
        if k == 'OpTypeArray':
            return '%s[%d]' % (self.type_name(a[0]), self.m.const_int(a[1]))
        return 'struct'

    def prologue(self):
        # preload nothing: inputs are read lazily with ld.a at their loads
        if self.stage == 'frag' and self.any_kill():
            self.has_kill = True
            one = self.reg(Imm(ONE))
            self.emit('st.o [%d], {s0}' % FS_O_KILL, [], [one])

    def any_kill(self):
        return any(name == 'OpKill' for b in self.m.functions[self.m.entry]['blocks'] for name, _ in b['insts'])

    def epilogue(self):
        m = self.m
        for vid, v in self.vars.items():
            if v['kind'] != 'out':
                continue
            bi = v['builtin']
            t = v['type']
            if self.stage == 'vert':
                if m.types[t][0] == 'OpTypeStruct':      # gl_PerVertex
                    for idx, (off, mt) in enumerate(m.children(t)):
                        if m.member_builtin.get((t, idx)) == 0:      # Position
                            self.store_out(v, off, 4, VS_O_POS)
                    continue
                if bi == 0:
                    self.store_out(v, 0, 4, VS_O_POS)
                    continue
                if bi is not None:
                    continue
                slot = self.b['varyings'].get(v['name'])
                if slot is None:
                    continue        # not read by the fragment shader
                self.store_out(v, 0, min(m.size(t), 4), VS_O_VAR + 4 * slot)
            else:
                if bi == 22:     # FragDepth
                    self.store_out(v, 0, 1, FS_O_DEPTH)
                elif bi is None:
                    if m.size(t) > 4:
                        raise Unsupported('fragment output larger than vec4')
                    if sum(1 for w in self.vars.values()
                           if w['kind'] == 'out' and w['builtin'] is None and any(w['written'])) > 1:
                        raise Unsupported('several fragment outputs (multiple render targets)')
                    if not any(v['written']):
                        continue        # declared, never written (an engine's unused MRT output)
                    self.store_out(v, 0, m.size(t), FS_O_COLOR)
        if self.has_kill:
            self.emit('st.o [%d], rz' % FS_O_KILL)
        self.emit('exit')

    def store_out(self, v, off, n, base):
        for i in range(n):
            if v['written'][off + i]:
                self.emit('st.o [%d], {s0}' % (base + i), [], [v['regs'][off + i]])

    # -- structured control flow
    def emit_range(self, bid, stop, ctx):
        while bid is not None and bid != stop:
            bid = self.emit_block(bid, stop, ctx)
        return bid

    def block_body(self, b):
        insts = b['insts']
        merge = None
        for i, (name, a) in enumerate(insts[:-1]):
            if name in ('OpSelectionMerge', 'OpLoopMerge'):
                merge = (name, a)
                continue
            if name == 'OpPhi':
                continue
            self.inst(name, a)
        return merge, insts[-1]

    def phi_copies(self, frm, to):
        b = self.blocks.get(to)
        if b is None:
            return
        moves = []
        for name, a in b['insts']:
            if name != 'OpPhi':
                continue
            dst = self.vals[a[1]]
            pairs = a[2:]
            for k in range(0, len(pairs), 2):
                if pairs[k + 1] == frm:
                    moves.append((dst, self.val(pairs[k])))
        if not moves:
            return
        phi_regs = set(r for d, _ in moves for r in d)
        staged = any(isinstance(s, int) and s in phi_regs for _, src in moves for s in src)
        if staged:
            tmp = []
            for d, src in moves:
                t = self.new(len(src))
                for x, y in zip(t, src):
                    self.mov(x, y)
                tmp.append((d, t))
            moves = tmp
        for d, src in moves:
            for x, y in zip(d, src):
                self.mov(x, y)

    def mov(self, d, s):
        if isinstance(s, Imm):
            self.emit('mov {d0}, %r' % s, [d])
        else:
            self.emit('mov {d0}, {s0}', [d], [s])

    def pred_of(self, cond, neg=False):
        """p0 = (cond != 0); returns the guard text."""
        c = self.val(cond)[0]
        self.set_p0(c)
        return '@!p0' if neg else '@p0'

    def set_p0(self, c):
        """p0 = (c != 0), reusing p0 when c was just computed by a compare (the 0/1 register then dies)."""
        if getattr(self, 'last_pred', None) == (c, len(self.code)):
            return
        if isinstance(c, Imm):
            c = self.reg(c)
        self.emit('isetp.ne p0, {s0}, 0', [], [c])

    def emit_block(self, bid, stop, ctx):
        b = self.blocks[bid]
        is_loop = any(n == 'OpLoopMerge' for n, _ in b['insts'])
        if is_loop:
            return self.emit_loop(b, stop, ctx)
        merge, (tname, ta) = self.block_body(b)
        if tname == 'OpBranch':
            return self.branch_to(bid, ta[0], stop, ctx)
        if tname == 'OpBranchConditional':
            cond, t, f = ta[0], ta[1], ta[2]
            if merge is not None and merge[0] == 'OpSelectionMerge':
                mb = merge[1][0]
                # an early exit directly in a breakable switch body (spirv-opt's merge-return turns
                # `if (c) return x;` into `if (c) { x; break; }`): `if (c) { arm; break; } rest` is emitted
                # as `if (c) { arm } else { rest }`, both arms joining at the switch merge
                sw = ctx.get('sw')
                if sw is not None and ctx['nest'] == ctx.get('sw_nest'):
                    for arm, other, neg in ((t, f, False), (f, t, True)):
                        ab = self.blocks.get(arm)
                        if (other == mb and ab is not None and ab['insts'] and ab['insts'][-1][0] == 'OpBranch'
                                and ab['insts'][-1][1][0] == sw
                                and not any(n in ('OpSelectionMerge', 'OpLoopMerge') for n, _ in ab['insts'])):
                            lj = self.label(sw)
                            le = 'E%d' % bid
                            g = self.pred_of(cond, neg=not neg)
                            self.emit('%s bra %s, %s' % (g, le, lj))
                            self.emit_range(arm, sw, dict(ctx, nest=ctx['nest'] + 1, sw=None))
                            self.emit('bra %s' % lj)
                            self.put_label(le)
                            self.emit_range(mb, sw, ctx)
                            return sw
                # `if (c) break;` / `if (c) continue;` directly in a loop body: a guarded branch out
                for arm, other, neg in ((t, f, False), (f, t, True)):
                    jb = self.blocks.get(arm)
                    if (ctx['loop'] is not None and other == mb and ctx['nest'] == 0 and jb is not None
                            and len(jb['insts']) == 1 and jb['insts'][0][0] == 'OpBranch'
                            and jb['insts'][0][1][0] in (ctx['loop'], ctx['cont'])):
                        tgt = jb['insts'][0][1][0]
                        self.phi_copies(arm, tgt)
                        self.phi_copies(bid, mb)
                        lab = self.label(tgt)
                        g = self.pred_of(cond, neg=neg)
                        self.emit('%s bra %s, %s' % (g, lab, lab))
                        return mb
                self.phi_copies(bid, mb) if (t == mb or f == mb) else None
                sub = dict(ctx, nest=ctx['nest'] + 1)
                lm = self.label(mb)
                if t == f:
                    self.emit_range(t, mb, sub)
                elif f == mb:
                    g = self.pred_of(cond, neg=True)
                    self.emit('%s bra %s, %s' % (g, lm, lm))
                    self.emit_range(t, mb, sub)
                elif t == mb:
                    g = self.pred_of(cond)
                    self.emit('%s bra %s, %s' % (g, lm, lm))
                    self.emit_range(f, mb, sub)
                else:
                    lf = 'F%d' % f
                    g = self.pred_of(cond, neg=True)
                    self.emit('%s bra %s, %s' % (g, lf, lm))
                    self.emit_range(t, mb, sub)
                    self.emit('bra %s' % lm)
                    self.put_label(lf)
                    self.emit_range(f, mb, sub)
                self.put_label(lm)
                return mb
            # a conditional break / continue directly in a loop body
            for tgt, other, neg in ((t, f, False), (f, t, True)):
                if ctx['loop'] is not None and tgt in (ctx['loop'], ctx['cont']):
                    if ctx['nest'] > 0:
                        raise Unsupported('break/continue inside an if nested in a loop')
                    self.phi_copies(bid, tgt)
                    lab = self.label(tgt)
                    g = self.pred_of(cond, neg=neg)
                    self.emit('%s bra %s, %s' % (g, lab, lab))
                    return self.branch_to(bid, other, stop, ctx)
            raise Unsupported('unstructured conditional branch')
        if tname == 'OpReturn':
            if ctx['nest'] > 0 or ctx['loop'] is not None:
                raise Unsupported('return from inside control flow')
            return None
        if tname == 'OpKill':
            self.emit('exit')
            return None
        if tname == 'OpUnreachable':
            return None
        if tname == 'OpSwitch':
            # `switch (x) { default: ... }` with no case: a breakable block, what spirv-opt's merge-return makes
            # of a function with early returns; branches to its merge are the early exits (handled above)
            if merge is not None and merge[0] == 'OpSelectionMerge' and len(ta) == 2:
                mb = merge[1][0]
                self.emit_range(ta[1], mb, dict(ctx, sw=mb, sw_nest=ctx['nest']))
                self.put_label(self.label(mb))
                return mb
            raise Unsupported('switch statements')
        if tname == 'OpReturnValue':
            raise Unsupported('function calls left after inlining')
        raise Unsupported('terminator %s' % tname)

    def branch_to(self, frm, tgt, stop, ctx):
        self.phi_copies(frm, tgt)
        if tgt == stop:
            return tgt
        if ctx['loop'] is not None and tgt in (ctx['loop'], ctx['cont']):
            if ctx['nest'] > 0:
                raise Unsupported('break/continue inside an if nested in a loop')
            self.emit('bra %s' % self.label(tgt))
            return None
        return tgt

    def emit_loop(self, b, stop, ctx):
        bid = b['id']
        lh = 'H%d' % bid
        self.put_label(lh)
        start = len(self.code)
        merge, (tname, ta) = self.block_body(b)
        mb, cb = merge[1][0], merge[1][1]
        lm = self.label(mb)
        sub = {'loop': mb, 'cont': cb, 'nest': 0}
        if tname == 'OpBranchConditional':
            cond, t, f = ta
            if f == mb:
                body, neg = t, True
            elif t == mb:
                body, neg = f, False
            else:
                raise Unsupported('loop header branching elsewhere than into the body or out')
            self.phi_copies(bid, mb)
            g = self.pred_of(cond, neg=neg)
            self.emit('%s bra %s, %s' % (g, lm, lm))
            self.phi_copies(bid, body)
        elif tname == 'OpBranch':
            body = ta[0]
            self.phi_copies(bid, body)
        else:
            raise Unsupported('loop header terminator %s' % tname)
        if body != cb:
            self.emit_range(body, cb, sub)
        self.put_label(self.label(cb))
        if cb == bid:
            raise Unsupported('single-block loop')
        c = self.blocks[cb]
        _, (cn, ca) = self.block_body(c)
        if cn == 'OpBranch' and ca[0] == bid:
            self.phi_copies(cb, bid)
            self.emit('bra %s' % lh)
        elif cn == 'OpBranchConditional' and bid in ca[1:] and mb in ca[1:]:
            self.phi_copies(cb, bid)
            self.phi_copies(cb, mb)
            g = self.pred_of(ca[0], neg=(ca[1] != bid))
            self.emit('%s bra %s, %s' % (g, lh, lm))
        else:
            raise Unsupported('loop continue block shape')
        self.put_label(lm)
        self.loops.append((lh, lm))
        return mb

    # -- pointers and memory
    def ptr(self, pid):
        if pid in self.ptrs:
            return self.ptrs[pid]
        if pid in self.vars:
            v = self.vars[pid]
            return (pid, 0, v.get('type'), None)
        raise Unsupported('pointer %%%d' % pid)

    def access_chain(self, res, base, idxs):
        key, off, t, dyn = self.ptr(base)
        v = self.vars[key]
        for ix in idxs:
            k, a = self.m.types[t]
            if ix in self.m.consts and self.m.consts[ix][0] == 'OpConstant':
                i = self.m.consts[ix][2][0]
                ch = self.m.children(t)
                if i >= len(ch):
                    raise Unsupported('constant index out of range')
                if v['kind'] == 'uniform':
                    lay_off = self.uniform_child_offset(t, i)
                    off += lay_off
                else:
                    off += ch[i][0]
                t = ch[i][1]
            else:
                if v['kind'] != 'uniform' or k != 'OpTypeArray':
                    raise Unsupported('dynamic indexing (only uniform arrays)')
                if dyn is not None:
                    raise Unsupported('two dynamic indices')
                _, stride = self.uniform_layout(a[0])
                ir = self.reg(self.val(ix)[0])
                sc = self.new()[0]
                self.emit('imul {d0}, {s0}, %d' % stride, [sc], [ir])
                dyn = sc
                t = a[0]
        self.ptrs[res] = (key, off, t, dyn)

    def uniform_child_offset(self, t, i):
        k, a = self.m.types[t]
        if k == 'OpTypeVector':
            return i
        if k == 'OpTypeMatrix':
            return 4 * i
        if k == 'OpTypeArray':
            return i * self.uniform_layout(a[0])[1]
        if k == 'OpTypeStruct':
            o = 0
            for mt in a[:i]:
                o += self.uniform_layout(mt)[1]
            return o
        raise Unsupported('uniform index')

    def load(self, res, rtype, pid):
        key, off, t, dyn = self.ptr(pid)
        v = self.vars[key]
        n = self.m.size(rtype)
        k = v['kind']
        if k == 'sampler':
            self.vals[res] = [('sampler', v['slot'], v.get('shadow'))]
            return
        if k == 'uniform':
            lay, _ = self.uniform_layout(t)
            out = self.new(n)
            for j in range(n):
                w = v['base'] + off + lay[j]
                if dyn is None:
                    self.emit('ld.c {d0}, [%d]' % w, [out[j]])
                else:
                    self.emit('ld.c {d0}, [{s0}+%d]' % w, [out[j]], [dyn])
            if self.m.scalar_kind(rtype) == 'b':
                for j in range(n):
                    self.emit('isetp.ne p0, {s0}, 0', [], [out[j]])
                    o2 = self.new()[0]
                    self.emit('mov {d0}, 0', [o2])
                    self.emit('@p0 mov {d0}, 1', [o2], [o2])
                    out[j] = o2
            self.vals[res] = out
            return
        if k == 'in':
            self.vals[res] = self.load_input(v, off, n)
            return
        # func / out / private: registers
        regs = v['regs'][off:off + n]
        out = self.new(n)
        for x, y in zip(out, regs):
            self.emit('mov {d0}, {s0}', [x], [y])
        self.vals[res] = out

    def load_input(self, v, off, n):
        m = self.m
        bi = v['builtin']
        out = self.new(n)
        if self.stage == 'vert':
            if bi is not None:
                raise Unsupported('vertex built-in input %d (gl_VertexID etc.)' % bi)
            slot = self.b['attribs'].setdefault(v['name'], len(self.b['attribs']))
            if slot >= MAX_ATTRIBS:
                raise Unsupported('more than %d attributes' % MAX_ATTRIBS)
            if m.size(v['type']) > 4:
                raise Unsupported('matrix attributes')
            self.b['attrib_comps'][v['name']] = m.size(v['type'])
            base = VS_A_BASE + 4 * slot
        else:
            if bi == 15:        # FragCoord
                base = FS_A_FRAGCOORD
            elif bi == 17:      # FrontFacing
                base = FS_A_FACING
                self.b['uses_facing'] = True
            elif bi is not None:
                raise Unsupported('fragment built-in input %d (gl_PointCoord etc.)' % bi)
            else:
                if m.size(v['type']) > 4:
                    raise Unsupported('varying larger than vec4 (matrices/arrays)')
                slot = self.b['varyings'].setdefault(v['name'], len(self.b['varyings']))
                if slot >= MAX_VARYINGS:
                    raise Unsupported('more than %d varyings' % MAX_VARYINGS)
                base = FS_A_VAR + 4 * slot
        for j in range(n):
            self.emit('ld.a {d0}, [%d]' % (base + off + j), [out[j]])
        if bi == 17:
            self.emit('isetp.ne p0, {s0}, 0', [], [out[0]])     # float 1.0 bits != 0
            o2 = self.new()[0]
            self.emit('mov {d0}, 0', [o2])
            self.emit('@p0 mov {d0}, 1', [o2], [o2])
            out = [o2]
        return out

    def store(self, pid, vid):
        key, off, t, dyn = self.ptr(pid)
        v = self.vars[key]
        if v['kind'] not in ('func', 'out'):
            raise Unsupported('store to %s' % v['kind'])
        src = self.val(vid)
        for j, s in enumerate(src):
            self.mov(v['regs'][off + j], s)
            if v['kind'] == 'out':
                v['written'][off + j] = True

    # -- instructions
    def inst(self, name, a):
        m = self.m
        if name in ('OpNop', 'OpLine', 'OpNoLine'):
            return
        if name == 'OpVariable':
            t = m.types[a[0]][1][1]
            n = m.size(t)
            self.vars[a[1]] = {'kind': 'func', 'type': t, 'regs': self.new(n)}
            if len(a) > 3:
                for r, s in zip(self.vars[a[1]]['regs'], self.val(a[3])):
                    self.mov(r, s)
            return
        if name == 'OpLoad':
            return self.load(a[1], a[0], a[2])
        if name == 'OpStore':
            return self.store(a[0], a[1])
        if name in ('OpAccessChain', 'OpInBoundsAccessChain'):
            return self.access_chain(a[1], a[2], a[3:])
        if name == 'OpCopyObject':
            self.vals[a[1]] = self.val(a[2])
            return
        if name == 'OpUndef':
            self.vals[a[1]] = [Imm(0)] * m.size(a[0])
            return
        res, rt = a[1], a[0]
        if name == 'OpCompositeExtract':
            src = self.val(a[2])
            t = self.type_of_value(a[2])
            off = 0
            for i in a[3:]:
                ch = m.children(t)
                off += ch[i][0]
                t = ch[i][1]
            self.vals[res] = src[off:off + m.size(rt)]
            return
        if name == 'OpCompositeConstruct':
            out = []
            for c in a[2:]:
                out += self.val(c)
            self.vals[res] = out
            return
        if name == 'OpCompositeInsert':
            obj, comp = self.val(a[2]), list(self.val(a[3]))
            t = rt
            off = 0
            for i in a[4:]:
                ch = m.children(t)
                off += ch[i][0]
                t = ch[i][1]
            comp[off:off + len(obj)] = obj
            self.vals[res] = comp
            return
        if name == 'OpVectorShuffle':
            v1, v2 = self.val(a[2]), self.val(a[3])
            both = v1 + v2
            out = []
            for i in a[4:]:
                out.append(Imm(0) if i == 0xffffffff else both[i])
            self.vals[res] = out
            return
        if name == 'OpSampledImage':
            self.vals[res] = self.val(a[2])
            return
        if name in ('OpImageGather', 'OpImageDrefGather'):
            raise Unsupported('textureGather')
        if name.startswith('OpImageSample') or name == 'OpImageFetch':
            return self.sample(name, a)
        if name == 'OpExtInst':
            if a[2] != m.ext_glsl:
                raise Unsupported('extended instruction set')
            return self.ext(m.ext_names.get(a[3], str(a[3])), rt, res, a[4:])
        self.alu(name, rt, res, a[2:])

    def type_of_value(self, vid):
        """result type of a value id (searching definitions)."""
        if vid in self.m.consts:
            return self.m.consts[vid][1]
        t = self._vtypes.get(vid) if hasattr(self, '_vtypes') else None
        if t is None:
            self._vtypes = {}
            for fn in self.m.functions.values():
                for b in fn['blocks']:
                    for name, a in b['insts']:
                        if name not in ('OpStore', 'OpSelectionMerge', 'OpLoopMerge', 'OpBranch',
                                        'OpBranchConditional', 'OpReturn', 'OpKill') and len(a) >= 2:
                            self._vtypes[a[1]] = a[0]
            t = self._vtypes.get(vid)
        if t is None:
            raise Unsupported('type of %%%d' % vid)
        return t

    # scalar op helpers (x, y: vreg or Imm) -> new vreg
    def f2(self, op, x, y, mods=('', '')):
        d = self.new()[0]
        x = self.reg(x)
        a = self.amod('{s0}', mods[0])
        if isinstance(y, Imm):
            yb = Imm(y.bits ^ 0x80000000) if mods[1] == '-' else y
            self.emit('%s {d0}, %s, %r' % (op, a, yb), [d], [x])
        else:
            self.emit('%s {d0}, %s, %s{s1}' % (op, a, mods[1]), [d], [x, y])
        return d

    def amod(self, s, mod):
        if mod == '|':
            return '|%s|' % s
        if mod == '-|':
            return '-|%s|' % s
        return mod + s

    def fadd(self, x, y):
        return self.f2('fadd', x, y)

    def fsub(self, x, y):
        if isinstance(y, Imm):
            return self.f2('fadd', x, Imm(y.bits ^ 0x80000000))
        return self.f2('fadd', x, y, ('', '-'))

    def fmul(self, x, y):
        if isinstance(x, Imm) and not isinstance(y, Imm):
            x, y = y, x
        return self.f2('fmul', x, y)

    def fmad(self, x, y, z):
        d = self.new()[0]
        self.emit('fmad {d0}, {s0}, {s1}, {s2}', [d], [self.reg(x), self.reg(y), self.reg(z)])
        return d

    def funary(self, op, x, mod=''):
        d = self.new()[0]
        self.emit('%s {d0}, %s' % (op, self.amod('{s0}', mod)), [d], [self.reg(x)])
        return d

    def fneg(self, x):
        if isinstance(x, Imm):
            return Imm(x.bits ^ 0x80000000)
        return self.f2('fmul', x, Imm(fbits(-1.0)))

    def fabs(self, x):
        return self.f2('fmul', x, Imm(ONE), ('|', ''))

    def fdiv(self, x, y):
        if isinstance(y, Imm):      # division by a constant: multiply by its (correctly rounded) reciprocal
            v = struct.unpack('<f', struct.pack('<I', y.bits))[0]
            if v != 0.0 and v == v and abs(v) != float('inf'):
                r = 1.0 / v
                if 1e-37 < abs(r) < 1e37:
                    return self.fmul(x, Imm(fbits(r)))
        r = self.funary('rcp', y)
        return self.fmul(x, r)

    def setp_bool(self, cc, op, x, y):
        """0/1 register = x cc y."""
        x = self.reg(x)
        if isinstance(y, Imm):
            self.emit('%s.%s p0, {s0}, %r' % (op, cc, y), [], [x])
        else:
            self.emit('%s.%s p0, {s0}, {s1}' % (op, cc), [], [x, y])
        d = self.new()[0]
        self.emit('mov {d0}, 0', [d])
        self.emit('@p0 mov {d0}, 1', [d], [d])
        self.last_pred = (d, len(self.code))
        return d

    def select(self, c, x, y):
        """c (0/1 reg) ? x : y."""
        x, y = self.reg(x), self.reg(y)
        self.set_p0(c)
        d = self.new()[0]
        self.emit('sel {d0}, {s0}, {s1}, p0', [d], [x, y])
        return d

    def dot(self, u, v):
        acc = self.fmul(u[0], v[0])
        for i in range(1, len(u)):
            acc = self.fmad(u[i], v[i], acc)
        return acc

    def floor(self, x):
        return self.funary('frnd.rm', x)

    def sqrt(self, x):
        return self.funary('rcp', self.funary('rsq', x))

    FCMP = {'OpFOrdEqual': 'eq', 'OpFOrdNotEqual': 'ne', 'OpFOrdLessThan': 'lt', 'OpFOrdGreaterThan': 'gt',
            'OpFOrdLessThanEqual': 'le', 'OpFOrdGreaterThanEqual': 'ge', 'OpFUnordEqual': 'equ',
            'OpFUnordNotEqual': 'neu', 'OpFUnordLessThan': 'ltu', 'OpFUnordGreaterThan': 'gtu',
            'OpFUnordLessThanEqual': 'leu', 'OpFUnordGreaterThanEqual': 'geu'}
    ICMP = {'OpIEqual': ('isetp', 'eq'), 'OpINotEqual': ('isetp', 'ne'), 'OpSLessThan': ('isetp', 'lt'),
            'OpSGreaterThan': ('isetp', 'gt'), 'OpSLessThanEqual': ('isetp', 'le'),
            'OpSGreaterThanEqual': ('isetp', 'ge'), 'OpULessThan': ('usetp', 'lt'),
            'OpUGreaterThan': ('usetp', 'gt'), 'OpULessThanEqual': ('usetp', 'le'),
            'OpUGreaterThanEqual': ('usetp', 'ge'), 'OpLogicalEqual': ('isetp', 'eq'),
            'OpLogicalNotEqual': ('isetp', 'ne')}
    IBIN = {'OpIAdd': 'iadd', 'OpISub': 'isub', 'OpIMul': 'imul', 'OpBitwiseAnd': 'and', 'OpBitwiseOr': 'or',
            'OpBitwiseXor': 'xor', 'OpLogicalAnd': 'and', 'OpLogicalOr': 'or', 'OpShiftLeftLogical': 'shl',
            'OpShiftRightLogical': 'shr', 'OpShiftRightArithmetic': 'sra'}

    def alu(self, name, rt, res, ops):
        m = self.m
        n = m.size(rt)
        V = [self.val(o) for o in ops]
        if name in ('OpFAdd', 'OpFSub', 'OpFMul', 'OpFDiv', 'OpFMod'):
            f = {'OpFAdd': self.fadd, 'OpFSub': self.fsub, 'OpFMul': self.fmul, 'OpFDiv': self.fdiv,
                 'OpFMod': self.fmod}[name]
            self.vals[res] = [f(x, y) for x, y in zip(V[0], V[1])]
        elif name == 'OpFNegate':
            self.vals[res] = [self.fneg(x) for x in V[0]]
        elif name == 'OpVectorTimesScalar':
            self.vals[res] = [self.fmul(x, V[1][0]) for x in V[0]]
        elif name == 'OpMatrixTimesScalar':
            self.vals[res] = [self.fmul(x, V[1][0]) for x in V[0]]
        elif name == 'OpMatrixTimesVector':
            mt = self.type_of_value(ops[0])
            cols = m.types[mt][1][1]
            rows = n
            M, v = V[0], V[1]
            self.vals[res] = [self.dot([M[c * rows + r] for c in range(cols)], v) for r in range(rows)]
        elif name == 'OpVectorTimesMatrix':
            mt = self.type_of_value(ops[1])
            cols = m.types[mt][1][1]
            rows = len(V[0])
            self.vals[res] = [self.dot(V[0], V[1][c * rows:(c + 1) * rows]) for c in range(cols)]
        elif name == 'OpMatrixTimesMatrix':
            at, bt = self.type_of_value(ops[0]), self.type_of_value(ops[1])
            acols = m.types[at][1][1]
            arows = m.size(at) // acols
            bcols = m.types[bt][1][1]
            A, B = V[0], V[1]
            out = []
            for c in range(bcols):
                for r in range(arows):
                    out.append(self.dot([A[k * arows + r] for k in range(acols)], B[c * acols:(c + 1) * acols]))
            self.vals[res] = out
        elif name == 'OpTranspose':
            at = self.type_of_value(ops[0])
            cols = m.types[at][1][1]
            rows = m.size(at) // cols
            A = V[0]
            self.vals[res] = [A[c * rows + r] for r in range(rows) for c in range(cols)]
        elif name == 'OpDot':
            self.vals[res] = [self.dot(V[0], V[1])]
        elif name in self.FCMP:
            self.vals[res] = [self.setp_bool(self.FCMP[name], 'fsetp', x, y) for x, y in zip(V[0], V[1])]
        elif name in self.ICMP:
            op, cc = self.ICMP[name]
            self.vals[res] = [self.setp_bool(cc, op, x, y) for x, y in zip(V[0], V[1])]
        elif name in self.IBIN:
            op = self.IBIN[name]
            out = []
            for x, y in zip(V[0], V[1]):
                d = self.new()[0]
                if isinstance(y, Imm):
                    self.emit('%s {d0}, {s0}, %r' % (op, y), [d], [self.reg(x)])
                else:
                    self.emit('%s {d0}, {s0}, {s1}' % op, [d], [self.reg(x), y])
                out.append(d)
            self.vals[res] = out
        elif name == 'OpLogicalNot':
            out = []
            for x in V[0]:
                d = self.new()[0]
                self.emit('xor {d0}, {s0}, 1', [d], [self.reg(x)])
                out.append(d)
            self.vals[res] = out
        elif name == 'OpSNegate':
            out = []
            for x in V[0]:
                d = self.new()[0]
                self.emit('isub {d0}, rz, {s0}', [d], [self.reg(x)])
                out.append(d)
            self.vals[res] = out
        elif name == 'OpSelect':
            c = V[0] if len(V[0]) == n else V[0] * n
            self.vals[res] = [self.select(cc, x, y) for cc, x, y in zip(c, V[1], V[2])]
        elif name in ('OpAny', 'OpAll'):
            acc = V[0][0]
            for x in V[0][1:]:
                d = self.new()[0]
                self.emit('%s {d0}, {s0}, {s1}' % ('or' if name == 'OpAny' else 'and'), [d],
                          [self.reg(acc), self.reg(x)])
                acc = d
            self.vals[res] = [acc]
        elif name in ('OpConvertFToS', 'OpConvertFToU'):
            op = 'f2i.rz' if name == 'OpConvertFToS' else 'f2u.rz'
            self.vals[res] = [self.funary(op, x) for x in V[0]]
        elif name in ('OpConvertSToF', 'OpConvertUToF'):
            op = 'i2f' if name == 'OpConvertSToF' else 'u2f'
            out = []
            for x in V[0]:
                d = self.new()[0]
                self.emit('%s {d0}, {s0}' % op, [d], [self.reg(x)])
                out.append(d)
            self.vals[res] = out
        elif name == 'OpBitcast':
            self.vals[res] = V[0]
        elif name == 'OpIsNan':
            self.vals[res] = [self.setp_bool('nan', 'fsetp', x, x) for x in V[0]]
        elif name == 'OpIsInf':
            self.vals[res] = [self.setp_bool('eq', 'fsetp', self.fabs(x), Imm(0x7f800000)) for x in V[0]]
        elif name in ('OpDPdx', 'OpDPdy', 'OpFwidth', 'OpDPdxFine', 'OpDPdyFine', 'OpDPdxCoarse',
                      'OpDPdyCoarse', 'OpFwidthFine', 'OpFwidthCoarse'):
            # the quad derivative unit (tex unit DERIV_UNIT): differences across the lane's 2x2 quad, per row
            # (x) and per column (y), as llvmpipe computes them; fwidth = |ddx| + |ddy|
            if self.stage != 'frag':
                raise Unsupported('derivatives in the vertex stage')
            out = []
            for x in V[0]:
                self.mov('r%d' % TEXC, self.reg(x))
                self.mov('r%d' % (TEXC + 1), Imm(0))
                self.emit('tex r%d, r%d, %d' % (TEXR, TEXC, DERIV_UNIT))
                dx, dy = self.new(2)
                self.emit('mov {d0}, r%d' % TEXR, [dx])
                self.emit('mov {d0}, r%d' % (TEXR + 1), [dy])
                out.append(dx if 'DPdx' in name else dy if 'DPdy' in name else self.fadd(self.fabs(dx), self.fabs(dy)))
            self.vals[res] = out
        else:
            raise Unsupported('SPIR-V instruction %s' % name)

    def fmod(self, x, y):
        q = self.floor(self.fdiv(x, y))
        return self.fsub(x, self.fmul(y, q))

    def sample_dref(self, name, s, res, c, dref):
        """shadow2D / texture(sampler2DShadow, ...) with GL_LEQUAL (the converter flags any other state): the four
        texels around (s w - off, t h - off) fetched at their centres, each compared with the reference clamped to
        [0, 1] (1.0 if ref <= texel), weighted bilinearly by lin x the fractions. The uniform @texsize:NAME holds
        (w, h, 1/w, 1/h, off, lin): off = 0.5, lin = 1 for GL_LINEAR (GL's 2x2 percentage-closer filter), off = 0,
        lin = 0 for GL_NEAREST (the one texel holding (s, t))."""
        if s[2] is None:
            raise Unsupported('depth-compare lookup on a sampler that is not sampler2DShadow')
        base = self.b['uniforms']['@texsize:' + s[2]]['base']
        size = self.new(6)
        for j in range(6):
            self.emit('ld.c {d0}, [%d]' % (base + j), [size[j]])
        if 'Proj' in name:
            q = self.funary('rcp', c[-1])
            st, ref = [self.fmul(c[0], q), self.fmul(c[1], q)], self.fmul(dref, q)
        else:
            st, ref = c[:2], dref
        ref = self.f2('fmin', self.f2('fmax', ref, Imm(0)), Imm(ONE))
        half = Imm(fbits(0.5))
        u = self.fsub(self.fmul(st[0], size[0]), size[4])
        v = self.fsub(self.fmul(st[1], size[1]), size[4])
        u0, v0 = self.floor(u), self.floor(v)
        fu, fv = self.fmul(self.fsub(u, u0), size[5]), self.fmul(self.fsub(v, v0), size[5])
        x0 = self.fmul(self.fadd(u0, half), size[2])
        y0 = self.fmul(self.fadd(v0, half), size[3])
        x1, y1 = self.fadd(x0, size[2]), self.fadd(y0, size[3])
        cmp = []
        for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
            self.mov('r%d' % TEXC, x)
            self.mov('r%d' % (TEXC + 1), y)
            self.emit('tex r%d, r%d, %d' % (TEXR, TEXC, s[1]))
            self.n_tex += 1
            d = self.new()[0]
            self.emit('mov {d0}, r%d' % TEXR, [d])
            cmp.append(self.select(self.setp_bool('le', 'fsetp', ref, d), Imm(ONE), Imm(0)))
        lo = self.fadd(cmp[0], self.fmul(fu, self.fsub(cmp[1], cmp[0])))
        hi = self.fadd(cmp[2], self.fmul(fu, self.fsub(cmp[3], cmp[2])))
        self.vals[res] = [self.fadd(lo, self.fmul(fv, self.fsub(hi, lo)))]

    def sample(self, name, a):
        rt, res, si, coord = a[0], a[1], a[2], a[3]
        s = self.val(si)[0]
        if not (isinstance(s, tuple) and s[0] == 'sampler'):
            raise Unsupported('sampler is not a uniform')
        if name in ('OpImageSampleDrefImplicitLod', 'OpImageSampleDrefExplicitLod', 'OpImageSampleProjDrefImplicitLod',
                    'OpImageSampleProjDrefExplicitLod'):
            if len(a) > 5 and a[5] & ~(1 | 2):
                raise Unsupported('texture gradients / offsets')
            return self.sample_dref(name, s, res, self.val(coord), self.val(a[4])[0])
        if len(s) > 2 and s[2] is not None:
            raise Unsupported('sampler2DShadow sampled without a depth reference')
        if name not in ('OpImageSampleImplicitLod', 'OpImageSampleExplicitLod', 'OpImageSampleProjImplicitLod',
                        'OpImageSampleProjExplicitLod'):
            raise Unsupported('%s' % name)
        c = self.val(coord)
        if len(a) > 4 and a[4] & ~(1 | 2):
            raise Unsupported('texture gradients / offsets')
        if 'Proj' in name:
            q = self.funary('rcp', c[-1])
            st = [self.fmul(c[0], q), self.fmul(c[1], q)]
        else:
            st = c[:2]
        self.mov('r%d' % TEXC, st[0])
        self.mov('r%d' % (TEXC + 1), st[1])
        self.emit('tex r%d, r%d, %d' % (TEXR, TEXC, s[1]))
        self.n_tex += 1
        out = self.new(4)
        for i in range(4):
            self.emit('mov {d0}, r%d' % (TEXR + i), [out[i]])
        self.vals[res] = out

    def ext(self, fn, rt, res, ops):
        V = [self.val(o) for o in ops]
        n = self.m.size(rt)
        per = lambda f: [f(*xs) for xs in zip(*V)]      # noqa: E731
        if fn == 'FAbs':
            r = per(self.fabs)
        elif fn == 'FSign':
            def sign(x):
                pos = self.setp_bool('gt', 'fsetp', x, Imm(0))
                neg = self.setp_bool('lt', 'fsetp', x, Imm(0))
                d = self.new()[0]
                self.emit('i2f {d0}, {s0}', [d], [self.reg(self.isub(pos, neg))])
                return d
            r = per(sign)
        elif fn in ('Floor', 'Ceil', 'Trunc', 'Round', 'RoundEven'):
            mode = {'Floor': 'rm', 'Ceil': 'rp', 'Trunc': 'rz', 'Round': 'rn', 'RoundEven': 'rn'}[fn]
            r = per(lambda x: self.funary('frnd.' + mode, x))
        elif fn == 'Fract':
            r = per(lambda x: self.fsub(x, self.floor(x)))
        elif fn == 'Sqrt':
            r = per(self.sqrt)
        elif fn == 'InverseSqrt':
            r = per(lambda x: self.funary('rsq', x))
        elif fn == 'Exp2':
            r = per(lambda x: self.funary('ex2', x))
        elif fn == 'Log2':
            r = per(lambda x: self.funary('lg2', x))
        elif fn == 'Exp':
            r = per(lambda x: self.funary('ex2', self.fmul(x, Imm(fbits(1.4426950408889634)))))
        elif fn == 'Log':
            r = per(lambda x: self.fmul(self.funary('lg2', x), Imm(fbits(0.6931471805599453))))
        elif fn == 'Pow':
            r = per(lambda x, y: self.funary('ex2', self.fmul(self.funary('lg2', x), y)))
        elif fn == 'Sin':
            r = per(lambda x: self.funary('sin', x))
        elif fn == 'Cos':
            r = per(lambda x: self.funary('cos', x))
        elif fn == 'Tan':
            r = per(lambda x: self.fdiv(self.funary('sin', x), self.funary('cos', x)))
        elif fn in ('FMin', 'NMin'):
            r = per(lambda x, y: self.f2('fmin', x, y))
        elif fn in ('FMax', 'NMax'):
            r = per(lambda x, y: self.f2('fmax', x, y))
        elif fn in ('FClamp', 'NClamp'):
            r = per(lambda x, lo, hi: self.f2('fmin', self.f2('fmax', x, lo), hi))
        elif fn in ('SMin', 'SMax', 'UMin', 'UMax'):
            op = {'SMin': 'imin', 'SMax': 'imax'}.get(fn)
            if op is None:
                raise Unsupported('unsigned min/max')
            def im(x, y):
                d = self.new()[0]
                if isinstance(y, Imm):
                    self.emit('%s {d0}, {s0}, %r' % (op, y), [d], [self.reg(x)])
                else:
                    self.emit('%s {d0}, {s0}, {s1}' % op, [d], [self.reg(x), y])
                return d
            r = per(im)
        elif fn == 'SClamp':
            def icl(x, lo, hi):
                d = self.new()[0]
                self.emit('imax {d0}, {s0}, {s1}', [d], [self.reg(x), self.reg(lo)])
                e = self.new()[0]
                self.emit('imin {d0}, {s0}, {s1}', [e], [d, self.reg(hi)])
                return e
            r = per(icl)
        elif fn == 'SAbs':
            def iabs(x):
                ng = self.isub(Imm(0), x)
                d = self.new()[0]
                self.emit('imax {d0}, {s0}, {s1}', [d], [self.reg(x), ng])
                return d
            r = per(iabs)
        elif fn == 'FMix':
            r = per(lambda x, y, t: self.fmad(t, self.fsub(y, x), x))
        elif fn == 'Step':
            def step(e, x):
                x = self.reg(x)
                if isinstance(e, Imm):
                    self.emit('fsetp.lt p0, {s0}, %r' % e, [], [x])
                else:
                    self.emit('fsetp.lt p0, {s0}, {s1}', [], [x, e])
                d = self.new()[0]
                self.emit('mov {d0}, %r' % Imm(ONE), [d])
                self.emit('@p0 mov {d0}, 0', [d], [d])
                return d
            r = per(step)
        elif fn == 'SmoothStep':
            def ss(e0, e1, x):
                t = self.fdiv(self.fsub(x, e0), self.fsub(e1, e0))
                t = self.f2('fmin', self.f2('fmax', t, Imm(0)), Imm(ONE))
                k = self.fmad(t, Imm(fbits(-2.0)), Imm(fbits(3.0)))
                return self.fmul(self.fmul(t, t), k)
            r = per(ss)
        elif fn == 'Fma':
            r = per(self.fmad)
        elif fn == 'Length':
            r = [self.sqrt(self.dot(V[0], V[0]))]
        elif fn == 'Distance':
            dlt = [self.fsub(x, y) for x, y in zip(V[0], V[1])]
            r = [self.sqrt(self.dot(dlt, dlt))]
        elif fn == 'Normalize':
            k = self.funary('rsq', self.dot(V[0], V[0]))
            r = [self.fmul(x, k) for x in V[0]]
        elif fn == 'Cross':
            a, b = V[0], V[1]
            r = [self.fsub(self.fmul(a[1], b[2]), self.fmul(a[2], b[1])),
                 self.fsub(self.fmul(a[2], b[0]), self.fmul(a[0], b[2])),
                 self.fsub(self.fmul(a[0], b[1]), self.fmul(a[1], b[0]))]
        elif fn == 'Reflect':
            i, nn = V[0], V[1]
            d2 = self.fmul(self.dot(nn, i), Imm(fbits(2.0)))
            r = [self.fsub(x, self.fmul(d2, y)) for x, y in zip(i, nn)]
        elif fn == 'Refract':
            i, nn, eta = V[0], V[1], V[2][0]
            d = self.dot(nn, i)
            k = self.fsub(Imm(ONE), self.fmul(self.fmul(eta, eta), self.fsub(Imm(ONE), self.fmul(d, d))))
            neg = self.setp_bool('lt', 'fsetp', k, Imm(0))
            coef = self.fmad(eta, d, self.sqrt(self.f2('fmax', k, Imm(0))))
            r = []
            for x, y in zip(i, nn):
                v = self.fsub(self.fmul(eta, x), self.fmul(coef, y))
                r.append(self.select(neg, Imm(0), v))
        elif fn == 'FaceForward':
            nn, i, nref = V
            neg = self.setp_bool('lt', 'fsetp', self.dot(nref, i), Imm(0))
            r = [self.select(neg, x, self.fneg(x)) for x in nn]
        else:
            raise Unsupported('GLSL built-in %s' % fn)
        assert len(r) == n, (fn, len(r), n)
        self.vals[res] = r

    def isub(self, x, y):
        d = self.new()[0]
        if isinstance(y, Imm):
            self.emit('isub {d0}, {s0}, %r' % y, [d], [self.reg(x)])
        else:
            self.emit('isub {d0}, {s0}, {s1}', [d], [self.reg(x), y])
        return d

    # ------------------------------------------------------------------------------------------ allocation
    SIDE = ('st.', 'exit', 'bra', 'tex', 'isetp', 'fsetp', 'usetp', 'ld.l')

    def fuse_mad(self):
        """fmul t, a, b + fadd d, t, c (t used once) -> fmad d, a, b, c: bit-identical (the ISA's fmad rounds
        the product first), one instruction less."""
        code = self.code
        defs, uses = {}, {}
        for i, ins in enumerate(code):
            for r in ins.dst:
                if isinstance(r, int):
                    defs[r] = -1 if r in defs else i
            for r in ins.src:
                if isinstance(r, int):
                    uses[r] = uses.get(r, 0) + 1
        for i, ins in enumerate(code):
            if ins.fmt not in ('fadd {d0}, {s0}, {s1}', 'fadd {d0}, {s0}, -{s1}'):
                continue
            neg = '-' in ins.fmt
            for k in (0, 1):
                t = ins.src[k]
                if k == 1 and neg:
                    continue
                j = defs.get(t, -1) if isinstance(t, int) else -1
                if j < 0 or j >= i or uses.get(t) != 1 or code[j].fmt != 'fmul {d0}, {s0}, {s1}':
                    continue
                a, b = code[j].src
                c = ins.src[1 - k]
                if not all(isinstance(x, int) or isinstance(x, str) for x in (a, b, c)):
                    continue
                # the operands must still hold their values at i: SSA vregs (single definition) only
                if any(isinstance(x, int) and defs.get(x, -1) < 0 for x in (a, b, c)):
                    continue
                cneg = '-' if (neg and k == 0) else ''
                code[i] = Ins('fmad {d0}, {s0}, {s1}, %s{s2}' % cneg, ins.dst, [a, b, c])
                break

    def dce_loops(self):
        self.fuse_mad()
        self.dce()
        pos = {ins.label: i for i, ins in enumerate(self.code) if ins.kind == 'label'}
        self.loops = [(pos[h], pos[m]) for h, m in self.loops]

    def dce(self):
        """drop instructions whose register results are never read (guarded self-reads do not count)."""
        code = self.code
        while True:
            uses = {}
            for ins in code:
                for r in ins.src:
                    if isinstance(r, int) and r not in ins.dst:
                        uses[r] = uses.get(r, 0) + 1
            keep = []
            for ins in code:
                body = ins.fmt.split(' ', 1)[1] if ins.fmt.startswith('@') else ins.fmt
                if (ins.kind == 'op' and ins.dst and all(isinstance(r, int) and r not in uses for r in ins.dst)
                        and not body.startswith(self.SIDE)):
                    continue
                keep.append(ins)
            if len(keep) == len(code):
                break
            code = keep
        # loop bounds are code indices: recompute them from the labels
        self.code = code

    def finish(self):
        self.dce_loops()
        code = self.code
        n = len(code)
        start, end, multi = {}, {}, set()
        defs = {}
        for i, ins in enumerate(code):
            for r in ins.src:
                if isinstance(r, int):
                    start.setdefault(r, i)
                    end[r] = i
            for r in ins.dst:
                if isinstance(r, int):
                    defs[r] = defs.get(r, 0) + 1
                    if r in start:
                        start[r] = min(start[r], i)
                    else:
                        start[r] = i
                    end[r] = max(end.get(r, i), i)
        multi = {r for r, c in defs.items() if c > 1}
        # loops: values live across the back edge
        changed = True
        while changed:
            changed = False
            for h, e in self.loops:
                for r in list(start):
                    s, t = start[r], end[r]
                    if t < h or s > e:
                        continue
                    if r in multi or s < h:
                        ns, ne = min(s, h), max(t, e)
                        if (ns, ne) != (s, t):
                            start[r], end[r] = ns, ne
                            changed = True
        # linear scan
        order = sorted(start, key=lambda r: (start[r], end[r]))
        free = list(range(N_ALLOC - 1, -1, -1))
        active = []
        loc = {}
        spill = {}
        nslot = [self.max_local]
        for r in order:
            s = start[r]
            for a in list(active):
                if end[a] < s:
                    active.remove(a)
                    free.append(loc[a])
            if free:
                free.sort(reverse=True)
                loc[r] = free.pop()
                active.append(r)
            else:
                victim = max(active, key=lambda a: end[a])
                if end[victim] > end[r]:
                    loc[r] = loc.pop(victim)
                    active.remove(victim)
                    active.append(r)
                    spill[victim] = nslot[0]
                else:
                    spill[r] = nslot[0]
                nslot[0] += 1
                if nslot[0] > 64:
                    raise Unsupported('register pressure: more than %d live values' % (N_ALLOC + 64))
        out = []
        for ins in code:
            if ins.kind == 'label':
                out.append(ins.label + ':')
                continue
            sub = {}
            pre, post = [], []
            k = 0
            for i, r in enumerate(ins.src):
                if isinstance(r, str):
                    sub['s%d' % i] = r
                elif r in spill:
                    scr = 'r%d' % SCR_SRC[k]
                    k += 1
                    pre.append('ld.l %s, [%d]' % (scr, spill[r]))
                    sub['s%d' % i] = scr
                else:
                    sub['s%d' % i] = 'r%d' % loc[r]
            for i, r in enumerate(ins.dst):
                if isinstance(r, str):
                    sub['d%d' % i] = r
                elif r in spill:
                    sub['d%d' % i] = 'r%d' % SCR_DST
                    if ins.fmt.startswith('@'):     # guarded write: keep the old value in the scratch
                        pre.append('ld.l r%d, [%d]' % (SCR_DST, spill[r]))
                    post.append('st.l [%d], r%d' % (spill[r], SCR_DST))
                else:
                    sub['d%d' % i] = 'r%d' % loc[r]
            text = ins.fmt.format(**sub)
            if text.startswith('mov ') and ',' in text:
                dd, ss = [x.strip() for x in text[4:].split(',', 1)]
                if dd == ss:
                    continue
            out += ['    ' + x for x in pre] + ['    ' + text] + ['    ' + x for x in post]
        self.stats = {'vregs': self.nv, 'spilled': len(spill), 'tex': self.n_tex}
        return '\n'.join(out) + '\n'


# ---------------------------------------------------------------------------------------------- driver
def compile_program(vs_src, fs_src, first_attrib=None):
    """Compile a GLSL program. Returns dict with 'vs_asm', 'fs_asm' (assembly text) and the bindings:
    attribs {name: slot}, attrib_comps, varyings {name: slot}, uniforms {name: {base, words, layout, kind}},
    samplers {name: slot}, has_kill, uses_fragcoord. Raises Unsupported."""
    b = {'attribs': {}, 'attrib_comps': {}, 'varyings': {}, 'uniforms': {}, 'samplers': {},
         'next_const': CONST_BASE, 'uses_facing': False, 'shadow': {}}
    if first_attrib:
        b['attribs'][first_attrib] = 0
    with tempfile.TemporaryDirectory() as td:
        vspv = glsl_to_spirv(vs_src, 'vert', td)
        fspv = glsl_to_spirv(fs_src, 'frag', td)
    # fragment first: it decides which varyings exist (the vertex shader writes only those)
    fc = Compiler(Module(fspv), 'frag', b)
    fs_asm = fc.compile()
    vc = Compiler(Module(vspv), 'vert', b)
    vs_asm = vc.compile()
    # varyings the fragment shader reads but the vertex shader never writes keep 0 (GL: undefined)
    b['has_kill'] = fc.has_kill
    b['vs_stats'], b['fs_stats'] = vc.stats, fc.stats
    b.pop('next_const')
    return {'vs_asm': vs_asm, 'fs_asm': fs_asm, 'bindings': b}


def assemble(asm, assembler):
    """assembly text -> list of u32 words (low, high per instruction) via gpupd-as."""
    with tempfile.TemporaryDirectory() as td:
        src = os.path.join(td, 'p.s')
        out = os.path.join(td, 'p.bin')
        with open(src, 'w') as f:
            f.write(asm)
        r = subprocess.run([assembler, src, '-o', out], capture_output=True, text=True)
        if r.returncode:
            raise Unsupported('internal error: generated assembly rejected: %s' % r.stderr.strip()[:300])
        data = open(out, 'rb').read()
    return list(struct.unpack('<%dI' % (len(data) // 4), data))


def main():
    import argparse
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--vs', required=True)
    ap.add_argument('--fs', required=True)
    ap.add_argument('--position', help='name of the position attribute (slot 0)')
    ap.add_argument('--asm-out', help='write vs.s / fs.s / bindings.json into this directory')
    a = ap.parse_args()
    try:
        r = compile_program(open(a.vs).read(), open(a.fs).read(), a.position)
    except Unsupported as e:
        sys.stderr.write('glsl2isa: unsupported: %s\n' % e)
        return 3
    if a.asm_out:
        os.makedirs(a.asm_out, exist_ok=True)
        open(os.path.join(a.asm_out, 'vs.s'), 'w').write(r['vs_asm'])
        open(os.path.join(a.asm_out, 'fs.s'), 'w').write(r['fs_asm'])
        json.dump(r['bindings'], open(os.path.join(a.asm_out, 'bindings.json'), 'w'), indent=1, sort_keys=True)
    else:
        print('; vertex\n' + r['vs_asm'] + '; fragment\n' + r['fs_asm'])
        print(json.dumps(r['bindings'], indent=1, sort_keys=True))
    return 0


if __name__ == '__main__':
    sys.exit(main())
