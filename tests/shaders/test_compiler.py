#!/usr/bin/python3
"""Unit tests of the GLSL -> ISA compiler (traces/capture/glsl2isa.py), one per construct.

Each test compiles a small GLSL program with the real front end (glslang + spirv-opt), assembles it with
gpupd-as and runs it on the ISA interpreter (gpupd-isa-run) with several lanes of inputs; the outputs are
compared with values computed here in Python (independently of the compiler). Tolerances: exact for
arithmetic whose rounding is defined, 2e-6 relative + 1e-6 absolute where the SFU approximates
(docs/isa-measurements.md: ~24 good bits). Constructs outside the subset must raise Unsupported.
Prints 'test-shader-compiler: N passed, M failed'; a failure prints the program's assembly path and the
command to rerun it.
"""
import argparse
import math
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, 'traces', 'capture'))
import glsl2isa  # noqa: E402
import ffgen  # noqa: E402

sys.path.insert(0, HERE)
from checks import Checks  # noqa: E402

check = Checks('test-shader-compiler')
VS_PASS = 'attribute vec4 p; varying vec4 v; void main() { v = p; gl_Position = p; }'
FS_PASS = 'varying vec4 v; void main() { gl_FragColor = v; }'
ARGS = None


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def run(asm, records, lanes, outs, name):
    d = ARGS.work
    s = os.path.join(d, name + '.s')
    b = os.path.join(d, name + '.bin')
    with open(s, 'w') as f:
        f.write(asm)
    subprocess.run([ARGS.asm, s, '-o', b], check=True)
    inp = 'lanes %d\n' % lanes + '\n'.join(records) + '\n'
    r = subprocess.run([ARGS.run, b, '--outs', str(outs)], input=inp, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError('%s: %s (reproduce: %s %s --outs %d < inputs)' % (name, r.stderr.strip(), ARGS.run, b, outs))
    res = []
    for line in r.stdout.splitlines():
        if line.startswith('lane'):
            parts = line.split()
            vals = [float(x) for x in parts[2:2 + outs]]
            bits = [int(x, 16) for x in parts[3 + outs:3 + 2 * outs]]
            res.append((vals, bits, int(parts[-1])))
    return res


def close(a, b, rel=2e-6, ab=1e-6):
    if math.isnan(b):
        return math.isnan(a)
    return abs(a - b) <= ab + rel * abs(b)


def frag_test(name, fs, inputs, expect, uniforms=None, tol=(2e-6, 1e-6), vs=VS_PASS, kill=None):
    """run fs on one lane per input vec4 v; expect(v, lane) -> 4 floats (or None: discarded)."""
    try:
        r = glsl2isa.compile_program(vs, fs, 'p')
        recs = []
        for lane, v in enumerate(inputs):
            slot = r['bindings']['varyings'].get('v', 0)
            for k in range(4):
                recs.append('a %d %d %r' % (lane, 4 * slot + k, v[k]))
        for uname, vals in (uniforms or {}).items():
            u = r['bindings']['uniforms'][uname]
            for j, off in enumerate(u['layout']):
                recs.append('c %d %r' % (u['base'] + off, float(vals[j])))
        res = run(r['fs_asm'], recs, len(inputs), 6, name)
    except (glsl2isa.Unsupported, RuntimeError, subprocess.CalledProcessError) as e:
        check(False, name, str(e))
        return
    ok = True
    for lane, v in enumerate(inputs):
        want = expect(v, lane)
        vals, bits, exited = res[lane]
        if want is None:
            if not (bits[5] != 0):
                ok = False
                print('  %s lane %d: expected a discard, o[5] = %08x' % (name, lane, bits[5]))
            continue
        if bits[5] != 0 and r['bindings']['has_kill']:
            ok = False
            print('  %s lane %d: unexpected discard' % (name, lane))
            continue
        for k in range(4):
            if not close(vals[k], want[k], *tol):
                ok = False
                print('  %s lane %d component %d: got %r want %r (input %r)' % (name, lane, k, vals[k], want[k], v))
    check(ok, name, '(assembly in %s/%s.s)' % (ARGS.work, name))


def vert_test(name, vs, attribs, expect_pos, uniforms=None, tol=(2e-6, 1e-6)):
    try:
        r = glsl2isa.compile_program(vs, FS_PASS if 'varying vec4 v' in vs else
                                     'void main() { gl_FragColor = vec4(1.0); }', 'p')
        b = r['bindings']
        recs = []
        for lane, at in enumerate(attribs):
            for nm, val in at.items():
                if nm not in b['attribs']:
                    continue
                for k, x in enumerate(val):
                    recs.append('a %d %d %r' % (lane, 4 * b['attribs'][nm] + k, x))
        for uname, vals in (uniforms or {}).items():
            u = b['uniforms'][uname]
            for j, off in enumerate(u['layout']):
                recs.append('c %d %r' % (u['base'] + off, float(vals[j])))
        res = run(r['vs_asm'], recs, len(attribs), 8, name)
    except (glsl2isa.Unsupported, RuntimeError, subprocess.CalledProcessError) as e:
        check(False, name, str(e))
        return
    ok = True
    for lane, at in enumerate(attribs):
        want = expect_pos(at, lane)
        vals = res[lane][0]
        for k in range(len(want)):
            if not close(vals[k], want[k], *tol):
                ok = False
                print('  %s lane %d o[%d]: got %r want %r' % (name, lane, k, vals[k], want[k]))
    check(ok, name, '(assembly in %s/%s.s)' % (ARGS.work, name))


def unsupported_test(name, vs, fs, needle):
    try:
        glsl2isa.compile_program(vs, fs, 'p')
        check(False, name, 'compiled, but must be rejected (%s)' % needle)
    except glsl2isa.Unsupported as e:
        check(needle in str(e), name, 'wrong reason: %s' % e)


INPUTS = [(0.25, 0.5, 0.75, 1.0), (-1.5, 2.0, 0.125, -0.5), (3.0, -0.25, -2.0, 0.5), (0.0, 1.0, 4.0, 2.0)]


# ---- fixed-function GL_COMBINE (traces/capture/ffgen.py), one test per construct. The statement ffgen
# generates for unit 0 runs in a harness where the texel t0 is the lane's input, t1 / envcolor0 / the primary
# colour / the previous colour are uniforms; the expected values follow GL 1.5 tables 3.19-3.21, written here
# independently of ffgen.
COMBINE_U = {'t1u': (0.9, 0.1, 0.6, 0.35), 'envcolor0': (0.2, 0.4, 0.6, 0.3), 'prim': (0.8, 0.25, 0.5, 0.7),
             'prev': (0.3, 0.9, 0.45, 0.55)}
COMBINE_IN = [(0.0, 0.5, 1.0, 0.25), (0.2, 0.7, 0.4, 1.0), (1.0, 0.0, 0.75, 0.6), (0.55, 0.33, 0.1, 0.0)]


def combine_ref(st, t0):
    src = {'GL_TEXTURE': t0, 'GL_TEXTURE1': COMBINE_U['t1u'], 'GL_CONSTANT': COMBINE_U['envcolor0'],
           'GL_PRIMARY_COLOR': COMBINE_U['prim'], 'GL_PREVIOUS': COMBINE_U['prev']}

    def arg_rgb(n):
        s, op = src[st.get('GL_SRC%d_RGB' % n, ('GL_TEXTURE', 'GL_PREVIOUS', 'GL_CONSTANT')[n])], \
            st.get('GL_OPERAND%d_RGB' % n, ('GL_SRC_COLOR', 'GL_SRC_COLOR', 'GL_SRC_ALPHA')[n])
        return {'GL_SRC_COLOR': list(s[:3]), 'GL_ONE_MINUS_SRC_COLOR': [1 - x for x in s[:3]],
                'GL_SRC_ALPHA': [s[3]] * 3, 'GL_ONE_MINUS_SRC_ALPHA': [1 - s[3]] * 3}[op]

    def arg_a(n):
        s, op = src[st.get('GL_SRC%d_ALPHA' % n, ('GL_TEXTURE', 'GL_PREVIOUS', 'GL_CONSTANT')[n])], \
            st.get('GL_OPERAND%d_ALPHA' % n, 'GL_SRC_ALPHA')
        return s[3] if op == 'GL_SRC_ALPHA' else 1 - s[3]

    def f(fn, a):
        return {'GL_REPLACE': lambda: a[0], 'GL_MODULATE': lambda: a[0] * a[1], 'GL_ADD': lambda: a[0] + a[1],
                'GL_ADD_SIGNED': lambda: a[0] + a[1] - 0.5, 'GL_SUBTRACT': lambda: a[0] - a[1],
                'GL_INTERPOLATE': lambda: a[0] * a[2] + a[1] * (1 - a[2])}[fn]()
    frgb, fa = st.get('GL_COMBINE_RGB', 'GL_MODULATE'), st.get('GL_COMBINE_ALPHA', 'GL_MODULATE')
    sr, sa = st.get('GL_RGB_SCALE', 1.0), st.get('GL_ALPHA_SCALE', 1.0)
    clamp = lambda x: min(max(x, 0.0), 1.0)
    if frgb.startswith('GL_DOT3'):
        a0, a1 = arg_rgb(0), arg_rgb(1)
        d = 4 * sum((a0[k] - 0.5) * (a1[k] - 0.5) for k in range(3))
        rgb = [d] * 3
        al = d if frgb == 'GL_DOT3_RGBA' else f(fa, [arg_a(n) for n in range(3)])
    else:
        ar = [arg_rgb(n) for n in range(3)]
        rgb = [f(frgb, [ar[n][k] for n in range(3)]) for k in range(3)]
        al = f(fa, [arg_a(n) for n in range(3)])
    if frgb == 'GL_DOT3_RGBA':
        sa = sr
    return tuple(clamp(x * sr) for x in rgb) + (clamp(al * sa),)


def combine_test(name, st):
    code = ffgen.combine_code(0, ffgen.combine(st))
    fs = ('varying vec4 v; uniform vec4 t1u; uniform vec4 envcolor0; uniform vec4 prim; uniform vec4 prev; '
          'void main() { vec4 v_color = prim; vec4 t0 = v; vec4 t1 = t1u; vec4 c = prev; %s gl_FragColor = c; }' % code)
    try:    # the compiler drops uniforms a program does not read: set only those it kept
        used = glsl2isa.compile_program(VS_PASS, fs, 'p')['bindings']['uniforms']
    except glsl2isa.Unsupported as e:
        check(False, name, str(e))
        return
    frag_test(name, fs, COMBINE_IN, lambda v, l: combine_ref(st, v),
              uniforms={k: u for k, u in COMBINE_U.items() if k in used}, tol=(1e-6, 1e-6))


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument('--asm', default=os.path.join(ROOT, 'build/bin/gpupd-as'))
    ap.add_argument('--run', default=os.path.join(ROOT, 'build/bin/gpupd-isa-run'))
    ap.add_argument('--work', default=None)
    ARGS = ap.parse_args()
    if ARGS.work is None:
        ARGS.work = tempfile.mkdtemp(prefix='shader-compiler-')
    os.makedirs(ARGS.work, exist_ok=True)

    # arithmetic, swizzles, constructors, negation, division
    frag_test('arith', 'varying vec4 v; void main() { vec2 s = v.yx * 2.0; '
              'gl_FragColor = vec4(v.x * 2.0 + v.y, v.z - v.w, s.x / (abs(v.w) + 1.0), -v.z); }', INPUTS,
              lambda v, l: (v[0] * 2 + v[1], v[2] - v[3], (v[1] * 2) / (abs(v[3]) + 1), -v[2]))
    # built-in functions
    def bi(v, l):
        x, y, z, w = v
        n = math.sqrt(x * x + y * y + z * z)
        return (max(min(x, 1.0), -1.0) + math.floor(y) + (z - math.floor(z)),
                (x * (1 - 0.25) + y * 0.25) + (0.0 if z < 0.5 else 1.0),
                math.pow(abs(w) + 1.0, 1.5) + math.exp2(x) + math.log2(abs(y) + 1.0),
                math.sqrt(abs(z)) + 1.0 / math.sqrt(abs(w) + 1.0) + (x / n if n else 0))
    frag_test('builtins', 'varying vec4 v; void main() { gl_FragColor = vec4('
              'clamp(v.x, -1.0, 1.0) + floor(v.y) + fract(v.z), mix(v.x, v.y, 0.25) + step(0.5, v.z), '
              'pow(abs(v.w) + 1.0, 1.5) + exp2(v.x) + log2(abs(v.y) + 1.0), '
              'sqrt(abs(v.z)) + inversesqrt(abs(v.w) + 1.0) + normalize(v.xyz).x); }',
              [i for i in INPUTS if i[0] or i[1] or i[2]], bi, tol=(2e-5, 2e-5))

    def geo(v, l):
        a, b = v[:3], (v[3], 1.0, -0.5)
        c = (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
        d = sum(p * q for p, q in zip(a, b))
        nn = (0.0, 1.0, 0.0)
        dn = sum(p * q for p, q in zip(nn, a))
        refl = [a[i] - 2 * dn * nn[i] for i in range(3)]
        length = math.sqrt(sum(x * x for x in a))
        return (c[0] + c[1] + c[2], d, refl[1] + length, math.sin(v[0]) + math.cos(v[1]))
    frag_test('geometric', 'varying vec4 v; void main() { vec3 b = vec3(v.w, 1.0, -0.5); vec3 c = cross(v.xyz, b); '
              'vec3 r = reflect(v.xyz, vec3(0.0, 1.0, 0.0)); '
              'gl_FragColor = vec4(c.x + c.y + c.z, dot(v.xyz, b), r.y + length(v.xyz), sin(v.x) + cos(v.y)); }',
              INPUTS, geo, tol=(1e-5, 1e-5))
    # matrices: mat4 * vec4, mat3 constructed from vectors, vector * matrix, matrix * matrix
    M = [float(i + 1) / 8.0 for i in range(16)]       # column-major as GL uploads it

    def mat(v, l):
        col = lambda c: M[4 * c:4 * c + 4]            # noqa: E731
        mv = [sum(col(c)[r] * v[c] for c in range(4)) for r in range(4)]
        vm = [sum(v[r] * col(c)[r] for r in range(4)) for c in range(4)]
        return (mv[0] + vm[1], mv[1], mv[2] - vm[3], mv[3])
    frag_test('matrices', 'uniform mat4 M; varying vec4 v; void main() { vec4 a = M * v; vec4 b = v * M; '
              'gl_FragColor = vec4(a.x + b.y, a.y, a.z - b.w, a.w); }', INPUTS, mat, uniforms={'M': M},
              tol=(1e-6, 1e-6))
    frag_test('mat3-tbn', 'varying vec4 v; void main() { mat3 t = mat3(v.xyz, v.yzx, vec3(1.0, 2.0, 3.0)); '
              'vec3 r = t * vec3(1.0, 0.5, 0.25); gl_FragColor = vec4(r, 1.0); }', INPUTS,
              lambda v, l: (v[0] + 0.5 * v[1] + 0.25, v[1] + 0.5 * v[2] + 0.5, v[2] + 0.5 * v[0] + 0.75, 1.0))
    # divergent if / else on per-lane data, nested
    frag_test('if-else', 'varying vec4 v; void main() { vec4 c; if (v.x > 0.0) { if (v.y > 1.0) c = vec4(1.0); '
              'else c = vec4(2.0); } else { c = vec4(v.z); } gl_FragColor = c + v.w; }', INPUTS,
              lambda v, l: tuple([(1.0 if v[1] > 1 else 2.0) + v[3] if v[0] > 0 else v[2] + v[3]] * 4))
    # loops: constant trip count (unrolled) and a per-lane trip count with a break in the body
    frag_test('loop-const', 'varying vec4 v; void main() { vec4 s = vec4(0.0); for (int i = 0; i < 5; i++) '
              '{ s += v * float(i); } gl_FragColor = s; }', INPUTS, lambda v, l: tuple(x * 10.0 for x in v))

    def dyn(v, l):
        s, n = 0.0, int(abs(v[2]) * 2.0)
        for i in range(64):
            if i >= n:
                break
            s += 1.5
            if s > 4.0:
                break
        return (s, float(n), 0.0, 1.0)
    frag_test('loop-dynamic', 'varying vec4 v; void main() { float s = 0.0; int n = int(abs(v.z) * 2.0); '
              'for (int i = 0; i < 64; i++) { if (i >= n) break; s += 1.5; if (s > 4.0) break; } '
              'gl_FragColor = vec4(s, float(n), 0.0, 1.0); }', INPUTS, dyn)
    # functions (inlined), called several times
    frag_test('functions', 'varying vec4 v; float sq(float x) { return x * x; } '
              'vec2 f(vec2 a, float k) { return a * k + vec2(sq(k)); } '
              'void main() { gl_FragColor = vec4(f(v.xy, 2.0), f(v.zw, sq(v.x))); }', INPUTS,
              lambda v, l: (v[0] * 2 + 4, v[1] * 2 + 4, v[2] * v[0] ** 2 + v[0] ** 4, v[3] * v[0] ** 2 + v[0] ** 4),
              tol=(1e-6, 1e-6))
    # discard (per lane)
    frag_test('discard', 'varying vec4 v; void main() { if (v.x < 0.1) discard; gl_FragColor = v * 2.0; }', INPUTS,
              lambda v, l: None if v[0] < 0.1 else tuple(x * 2 for x in v))
    # uniform array with a per-lane (dynamic) index; uniform vec3 array layout (vec4-aligned elements)
    U = [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5]
    frag_test('uniform-array', 'uniform vec3 k[3]; varying vec4 v; void main() { int i = int(v.w * 2.0); '
              'i = clamp(i, 0, 2); gl_FragColor = vec4(k[i], k[1].z); }', INPUTS,
              lambda v, l: tuple(U[3 * max(0, min(2, int(v[3] * 2))) + j] for j in range(3)) + (U[5],),
              uniforms={'k': U})
    # vertex shader: MVP transform, texture fetch in the vertex stage (no sampler attached: tex = (s, t, 0, 1))
    vert_test('vs-mvp-vtf', 'attribute vec3 p; attribute vec2 uv; uniform mat4 mvp; uniform sampler2D h; '
              'void main() { float d = texture2D(h, uv).x; gl_Position = mvp * vec4(p + vec3(0.0, d, 0.0), 1.0); }',
              [{'p': (1.0, 2.0, 3.0), 'uv': (0.5, 0.25)}, {'p': (-1.0, 0.0, 0.5), 'uv': (2.0, 1.0)}],
              lambda at, l: tuple(sum(M[4 * c + r] * (list(at['p']) + [1.0])[c] + (M[4 + r] * at['uv'][0] if c == 1 else 0)
                                      for c in range(4)) for r in range(4)), uniforms={'mvp': M}, tol=(2e-6, 2e-6))
    # 16 attributes (a[0..63]): each one weighted differently, so a missing or misplaced one shows
    names = ['p'] + ['x%d' % k for k in range(15)]
    vs16 = ''.join('attribute vec4 %s; ' % n for n in names) + 'void main() { gl_Position = p' + \
        ''.join(' + %d.0 * %s' % (k + 2, n) for k, n in enumerate(names[1:])) + '; }'
    ats = [{n: (0.5 * k + lane, -0.25 * k, 1.0 / (k + 1), 2.0 + lane) for k, n in enumerate(names)} for lane in range(3)]
    vert_test('vs-16-attributes', vs16, ats,
              lambda at, l: tuple(at['p'][c] + sum((k + 2) * at[n][c] for k, n in enumerate(names[1:])) for c in range(4)),
              tol=(1e-5, 1e-5))
    unsupported_test('reject-17-attributes', vs16.replace('attribute vec4 p;', 'attribute vec4 p; attribute vec4 y;')
                     .replace('gl_Position = p', 'gl_Position = p + y'), FS_PASS, 'more than 16 attributes')
    # many live values: forces spilling to local memory
    body = ' '.join('float t%d = v.x * %d.0 + v.y / %d.0;' % (i, i + 1, i + 2) for i in range(80))
    tot = ' + '.join('t%d * t%d' % (i, 79 - i) for i in range(80))

    def spill(v, l):
        t = [v[0] * (i + 1) + v[1] / (i + 2) for i in range(80)]
        return (sum(t[i] * t[79 - i] for i in range(80)), 0.0, 0.0, 1.0)
    frag_test('register-pressure', 'varying vec4 v; void main() { %s gl_FragColor = vec4(%s, 0.0, 0.0, 1.0); }' %
              (body, tot), INPUTS, spill, tol=(1e-5, 1e-4))
    # early returns from a function (spirv-opt's merge-return makes them breaks out of a `switch` with only a
    # default; glmark2 ideas' unitvec()): lanes take different returns, the values join after the call
    def early(v, l):
        if v[0] > 0.5:
            r = (v[1], 1.0, 2.0)
        elif v[1] < 0.0:
            r = (-v[2], v[0], 3.0)
        else:
            r = (v[2] * 2.0, v[1] * 2.0, v[0] * 2.0)
        return (r[0], r[1], r[2], r[0] + r[1])
    frag_test('early-return', 'varying vec4 v; vec3 pick(vec4 a) { if (a.x > 0.5) return vec3(a.y, 1.0, 2.0); '
              'if (a.y < 0.0) return vec3(-a.z, a.x, 3.0); return a.zyx * 2.0; } '
              'void main() { vec3 r = pick(v); gl_FragColor = vec4(r, r.x + r.y); }',
              [(0.75, 0.25, -1.5, 0.0), (0.25, -0.5, 1.25, 0.0), (-1.0, 0.5, 0.125, 0.0), (0.5, -2.0, 4.0, 0.0),
               (2.0, -1.0, 8.0, 1.0)], early)
    # GLSL 1.30-1.50 / 3.30 sources as core-profile engines write them: ioquake3 opengl2's header defines
    # texture2D and gl_FragColor itself (the compiler must not redefine them), 1.30 keeps gl_FragColor and
    # varying, 3.30 uses layout locations
    frag_test('glsl150-engine-header', '#version 150\n#define varying in\nout vec4 out_Color;\n'
              '#define gl_FragColor out_Color\n#define texture2D texture\nvarying vec4 v;\n'
              'void main() { gl_FragColor = v.wzyx * 2.0 - v; }', INPUTS,
              lambda v, l: tuple(2.0 * v[3 - k] - v[k] for k in range(4)),
              vs='#version 150\nin vec4 p; out vec4 v; void main() { v = p; gl_Position = p; }')
    frag_test('glsl130-fragcolor', '#version 130\nvarying vec4 v; void main() { gl_FragColor = clamp(v, 0.0, 1.0); }',
              INPUTS, lambda v, l: tuple(min(max(x, 0.0), 1.0) for x in v))
    frag_test('glsl330-layout', '#version 330 core\nin vec4 v; layout(location = 0) out vec4 c; '
              'void main() { c = vec4(v.x + v.y, v.z * v.w, -v.x, 1.0); }', INPUTS,
              lambda v, l: (v[0] + v[1], v[2] * v[3], -v[0], 1.0))
    unsupported_test('reject-switch', VS_PASS, 'varying vec4 v; void main() { vec4 c = vec4(0.0); '
                     'switch (int(v.x)) { case 0: c = v; break; case 1: c = v.yxzw; break; default: c = -v; } '
                     'gl_FragColor = c; }', 'switch')
    # fixed-function GL_COMBINE texture environments (ffgen), one per function / operand / source / scale
    combine_test('ff-combine-replace-defaults', {'GL_COMBINE_RGB': 'GL_REPLACE'})
    combine_test('ff-combine-modulate-operands', {'GL_OPERAND0_RGB': 'GL_ONE_MINUS_SRC_COLOR',
                                                  'GL_OPERAND1_RGB': 'GL_SRC_ALPHA',
                                                  'GL_OPERAND1_ALPHA': 'GL_ONE_MINUS_SRC_ALPHA'})
    combine_test('ff-combine-add-scale', {'GL_COMBINE_RGB': 'GL_ADD', 'GL_COMBINE_ALPHA': 'GL_ADD',
                                          'GL_SRC1_RGB': 'GL_PRIMARY_COLOR', 'GL_RGB_SCALE': 2.0,
                                          'GL_ALPHA_SCALE': 4.0})
    combine_test('ff-combine-add-signed', {'GL_COMBINE_RGB': 'GL_ADD_SIGNED', 'GL_COMBINE_ALPHA': 'GL_ADD_SIGNED',
                                           'GL_OPERAND1_RGB': 'GL_ONE_MINUS_SRC_ALPHA', 'GL_RGB_SCALE': 4.0})
    combine_test('ff-combine-interpolate-constant', {'GL_COMBINE_RGB': 'GL_INTERPOLATE',
                                                     'GL_COMBINE_ALPHA': 'GL_INTERPOLATE',
                                                     'GL_SRC1_RGB': 'GL_PRIMARY_COLOR',
                                                     'GL_OPERAND2_ALPHA': 'GL_ONE_MINUS_SRC_ALPHA'})
    combine_test('ff-combine-subtract-crossbar', {'GL_COMBINE_RGB': 'GL_SUBTRACT', 'GL_COMBINE_ALPHA': 'GL_SUBTRACT',
                                                  'GL_SRC0_RGB': 'GL_TEXTURE1', 'GL_SRC1_RGB': 'GL_TEXTURE',
                                                  'GL_OPERAND1_RGB': 'GL_SRC_ALPHA', 'GL_SRC0_ALPHA': 'GL_TEXTURE1'})
    combine_test('ff-combine-dot3-rgb', {'GL_COMBINE_RGB': 'GL_DOT3_RGB', 'GL_SRC1_RGB': 'GL_PRIMARY_COLOR'})
    combine_test('ff-combine-dot3-rgba', {'GL_COMBINE_RGB': 'GL_DOT3_RGBA', 'GL_SRC1_RGB': 'GL_CONSTANT',
                                          'GL_RGB_SCALE': 2.0})
    try:
        ffgen.generate([(0, 'GL_COMBINE', 'rgba', False, {'GL_SRC0_RGB': 'GL_TEXTURE3'})])
        check(False, 'ff-combine-reject-disabled-unit', 'generated, but unit 3 is not enabled')
    except ffgen.Unsupported as e:
        check('not enabled' in str(e), 'ff-combine-reject-disabled-unit', str(e))
    # outside the subset: a clear error, never a silent stand-in
    # derivatives: through the quad derivative unit (tex unit 15: ddx s, ddy s, ddx t, ddy t; the values are
    # the model's, checked against llvmpipe by test-shader-diff --hdr); dFdx reads r58, dFdy r59, fwidth both
    try:
        r = glsl2isa.compile_program(VS_PASS, 'varying vec4 v; void main() { gl_FragColor = vec4(dFdx(v.x), dFdy(v.y), '
                                     'fwidth(v.z), 1.0); }', 'p')
        asm = r['fs_asm']
        check(asm.count('tex r58, r56, 15') == 3 and 'mov r57, 0x00000000' in asm and '|' in asm,
              'derivatives-quad-unit', asm)
    except glsl2isa.Unsupported as e:
        check(False, 'derivatives-quad-unit', str(e))
    # sampler2DShadow: 2x2 percentage-closer filter, four fetches at texel centres (the gpupd-isa-run sampler
    # returns (s, t, 0, 1): texel value = s), @texsize (w, h, 1/w, 1/h, off, lin) = (4, 4, 0.25, 0.25, 0.5, 1)
    def pcf(v, l):
        s, t, ref = v[0], v[1], min(max(v[2], 0.0), 1.0)
        u, w = s * 4 - 0.5, t * 4 - 0.5
        u0, w0 = math.floor(u), math.floor(w)
        fu, fw = u - u0, w - w0
        x0, x1 = (u0 + 0.5) * 0.25, (u0 + 1.5) * 0.25
        c = [1.0 if ref <= f32(x) else 0.0 for x in (x0, x1, x0, x1)]
        lo, hi = c[0] + fu * (c[1] - c[0]), c[2] + fu * (c[3] - c[2])
        r = lo + fw * (hi - lo)
        return (r, r, r, 1.0)
    frag_test('shadow2D-pcf', 'uniform sampler2DShadow sm; varying vec4 v; void main() { gl_FragColor = shadow2D(sm, v.xyz); }',
              [(0.3, 0.4, 0.2, 0), (0.3, 0.4, 0.3, 0), (0.55, 0.1, 0.4, 0), (0.9, 0.9, 2.0, 0), (0.45, 0.6, -1.0, 0)], pcf,
              uniforms={'@texsize:sm': (4.0, 4.0, 0.25, 0.25, 0.5, 1.0)}, tol=(1e-6, 1e-6))
    # GL_NEAREST: off = 0, lin = 0: the one texel holding (s, t), centre (floor(4 s) + 0.5) / 4
    frag_test('shadow2D-nearest', 'uniform sampler2DShadow sm; varying vec4 v; void main() { gl_FragColor = shadow2D(sm, v.xyz); }',
              [(0.3, 0.4, 0.2, 0), (0.3, 0.4, 0.4, 0), (0.55, 0.1, 0.62, 0), (0.55, 0.1, 0.63, 0)],
              lambda v, l: (lambda r: (r, r, r, 1.0))(1.0 if min(max(v[2], 0.0), 1.0) <= (math.floor(v[0] * 4) + 0.5) / 4 else 0.0),
              uniforms={'@texsize:sm': (4.0, 4.0, 0.25, 0.25, 0.0, 0.0)})
    unsupported_test('reject-16-samplers', VS_PASS, ''.join('uniform sampler2D s%d; ' % k for k in range(16)) +
                     'varying vec4 v; void main() { vec4 c = vec4(0.0); ' +
                     ''.join('c += texture2D(s%d, v.xy); ' % k for k in range(16)) + 'gl_FragColor = c; }',
                     'more than 15 samplers')
    unsupported_test('reject-cube', VS_PASS, 'uniform samplerCube c; varying vec4 v; void main() '
                     '{ gl_FragColor = textureCube(c, v.xyz); }', 'sampler')
    unsupported_test('reject-syntax', VS_PASS, 'void main() { gl_FragColor = vec4(1.0) }', 'glslang rejects')
    # the reason names the shader, not the run's temporary file (trace notes are the same on every run)
    unsupported_test('reject-syntax-stable-reason', VS_PASS, 'void main() { gl_FragColor = vec4(1.0) }',
                     'ERROR: shader.frag:')
    unsupported_test('reject-glsl-es3', '#version 300 es\nin vec4 p; void main() { gl_Position = p; }', FS_PASS,
                     'GLSL 300 es')
    unsupported_test('reject-glsl4', '#version 400\nin vec4 p; void main() { gl_Position = p; }', FS_PASS, 'GLSL 400')
    frag_test('glsl140-unused-second-output', '#version 140\nin vec4 v; out vec4 c; out vec4 unused; '
              'void main() { c = v * 0.5; }', INPUTS, lambda v, l: tuple(0.5 * x for x in v))
    frag_test('glsl140-fragdata-in-inactive-branch', '#version 140\nin vec4 v; out vec4 c;\n#ifdef DEFERRED\n'
              'void main() { gl_FragData[0] = v; gl_FragData[1] = -v; }\n#else\nvoid main() { c = v.yxwz; }\n#endif\n',
              INPUTS, lambda v, l: (v[1], v[0], v[3], v[2]))
    unsupported_test('reject-gather', VS_PASS, '#version 330\nuniform sampler2D s; in vec4 v; out vec4 c; '
                     'void main() { c = textureGather(s, v.xy); }', 'textureGather')
    unsupported_test('reject-mrt-outputs', VS_PASS, '#version 150\nin vec4 v; out vec4 a; out vec4 b; '
                     'void main() { a = v; b = -v; }', 'several fragment outputs')
    return check.summary()


if __name__ == '__main__':
    sys.exit(main())
