#!/usr/bin/python3
"""Convert an apitrace capture (OpenGL) into a GPUpd trace (docs/trace-format.md, docs/traces.md).

Reads `apitrace pickle --symbolic` output, emulates the OpenGL state that matters (matrix stacks, immediate
mode, client arrays, VBOs, GLSL programs and uniforms, textures, framebuffer objects, render state) and
writes the lossless text form of the trace, which `gpupd-trace undump` validates and turns into the binary.

  apitrace2gpupd.py RAW.trace --out OUT.gpt --name NAME [--frames all|last|lastK|N,M,...] [--ppd PPD.txt]
  apitrace2gpupd.py RAW.trace --stats            draws per frame (to pick busy frames)

Everything it could not reproduce exactly is counted and written into the trace's INFO notes, and the
affected draws carry TRACE_DRAW_F_* flags (gpupd-trace draws shows them).
"""
import argparse
import collections
import functools
import math
import os
import pickle
import re
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import glsl2isa  # noqa: E402  (the GLSL -> SPIR-V -> ISA compiler next to this file)
import ffgen  # noqa: E402  (fixed-function state -> GLSL)

NONE = 0xFFFFFFFF
SEM_POSITION, SEM_COLOR, SEM_TEXCOORD0, SEM_TEXCOORD1, SEM_NORMAL, SEM_GENERIC = range(6)
F_FS_APPROX, F_VS_APPROX, F_STATE_APPROX, F_TEX_APPROX, F_PRIM_APPROX = 1, 2, 4, 8, 16
# DRAW prim (format 1.2) and the primitive-list modes the format keeps as they are
PRIM_TRIANGLES, PRIM_LINES, PRIM_LINE_STRIP, PRIM_LINE_LOOP, PRIM_POINTS = 0, 1, 2, 3, 4
LINE_POINT_MODES = {'GL_LINES': PRIM_LINES, 'GL_LINE_STRIP': PRIM_LINE_STRIP, 'GL_LINE_LOOP': PRIM_LINE_LOOP,
                    'GL_POINTS': PRIM_POINTS}
# prim_flags: GL line/point state the model does not render (the draw is flagged F_PRIM_APPROX)
PRIMF_LINE_SMOOTH, PRIMF_POINT_SMOOTH, PRIMF_LINE_STIPPLE, PRIMF_PROGRAM_POINT_SIZE, PRIMF_POINT_SPRITE = 1, 2, 4, 8, 16
# state_flags (format 1.4): render state the model renders beyond the 1.0 state block
STATEF_DEPTH_CLAMP = 1

CMP = {'GL_NEVER': 0, 'GL_LESS': 1, 'GL_EQUAL': 2, 'GL_LEQUAL': 3, 'GL_GREATER': 4, 'GL_NOTEQUAL': 5,
       'GL_GEQUAL': 6, 'GL_ALWAYS': 7}
BF = {'GL_ZERO': 0, 'GL_ONE': 1, 'GL_SRC_COLOR': 2, 'GL_ONE_MINUS_SRC_COLOR': 3, 'GL_DST_COLOR': 4,
      'GL_ONE_MINUS_DST_COLOR': 5, 'GL_SRC_ALPHA': 6, 'GL_ONE_MINUS_SRC_ALPHA': 7, 'GL_DST_ALPHA': 8,
      'GL_ONE_MINUS_DST_ALPHA': 9, 'GL_CONSTANT_COLOR': 10, 'GL_ONE_MINUS_CONSTANT_COLOR': 11,
      'GL_CONSTANT_ALPHA': 12, 'GL_ONE_MINUS_CONSTANT_ALPHA': 13, 'GL_SRC_ALPHA_SATURATE': 14}
BEQ = {'GL_FUNC_ADD': 0, 'GL_FUNC_SUBTRACT': 1, 'GL_FUNC_REVERSE_SUBTRACT': 2, 'GL_MIN': 3, 'GL_MAX': 4}
CULL = {'GL_BACK': 1, 'GL_FRONT': 2, 'GL_FRONT_AND_BACK': 3}
WRAP = {'GL_REPEAT': 0, 'GL_CLAMP': 1, 'GL_CLAMP_TO_EDGE': 1, 'GL_CLAMP_TO_BORDER': 1, 'GL_MIRRORED_REPEAT': 2}
TYPES = {'GL_FLOAT': ('f', 4, False), 'GL_UNSIGNED_BYTE': ('B', 1, True), 'GL_BYTE': ('b', 1, True),
         'GL_UNSIGNED_SHORT': ('H', 2, True), 'GL_SHORT': ('h', 2, True), 'GL_UNSIGNED_INT': ('I', 4, True),
         'GL_INT': ('i', 4, True), 'GL_DOUBLE': ('d', 8, False), 'GL_HALF_FLOAT': ('e', 2, False)}
INT_MAX = {'B': 255.0, 'b': 127.0, 'H': 65535.0, 'h': 32767.0, 'I': 4294967295.0, 'i': 2147483647.0}
SWAPS = ('glXSwapBuffers', 'eglSwapBuffers', 'wglSwapBuffers', 'CGLFlushDrawable', 'glFrameTerminatorGREMEDY')


class Pointer(int):
    """apitrace pickles pointers as unpickle.Pointer (an int)."""


class TraceUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if module == 'unpickle':
            return Pointer
        return super().find_class(module, name)


def calls(stream):
    u = TraceUnpickler(stream)
    while True:
        try:
            yield u.load()
        except EOFError:
            return


def f32(x):
    """Exact float32 value of x, formatted so that strtof gives the same float32."""
    v = struct.unpack('<f', struct.pack('<f', x))[0]
    if math.isinf(v) or math.isnan(v):
        return '#%08x' % struct.unpack('<I', struct.pack('<f', v))[0]
    return '%.9g' % v


def qstr(s):
    out = []
    for ch in s.encode('utf-8', 'replace'):
        c = chr(ch)
        if c in '"\\':
            out.append('\\' + c)
        elif c == '\n':
            out.append('\\n')
        elif ch < 32 or ch >= 127:
            out.append('\\x%02x' % ch)
        else:
            out.append(c)
    return '"' + ''.join(out) + '"'


def base_format(internal, fmt):
    """GL base internal format of a texture upload (GL 1.x: also 1..4 = number of components)."""
    i = str(internal)
    if i in ('1', '2', '3', '4'):
        return {'1': 'luminance', '2': 'luminance_alpha', '3': 'rgb', '4': 'rgba'}[i]
    for pre, b in (('GL_LUMINANCE_ALPHA', 'luminance_alpha'), ('GL_LUMINANCE', 'luminance'), ('GL_INTENSITY', 'intensity'),
                   ('GL_ALPHA', 'alpha'), ('GL_RGBA', 'rgba'), ('GL_RGB', 'rgb'), ('GL_COMPRESSED_RGBA', 'rgba'),
                   ('GL_COMPRESSED_RGB', 'rgb'), ('GL_BGRA', 'rgba')):
        if i.startswith(pre):
            return b
    return 'rgba'


def main_body(src):
    """The body of the last `void main() { ... }` of a shader source that ends with its closing brace, else the
    whole source: what re.sub(r'(?s).*void\\s+main\\s*\\(\\s*(void)?\\s*\\)\\s*\\{(.*)\\}\\s*$', r'\\2', src) gives, in
    linear time (that expression backtracks for minutes on a 100 KB uber-shader, once per draw)."""
    end = len(src.rstrip())
    if not end or src[end - 1] != '}':
        return src
    last = None
    for m in re.finditer(r'void\s+main\s*\(\s*(void)?\s*\)\s*\{', src):
        if m.end() <= end - 1:
            last = m
    return src[last.end():end - 1] if last else src


# Floating-point colour formats the trace format (1.3) and the model hold as GL stores them: GL internal
# format -> SURF format code (docs/trace-format.md).
FLOAT_FORMATS = {'GL_RGBA16F': 4, 'GL_RGBA32F': 5, 'GL_R16F': 6, 'GL_R32F': 7, 'GL_RG16F': 8, 'GL_RG32F': 9}


def float_format(internal):
    """SURF format code of a floating-point colour internal format the model holds exactly, else None."""
    return FLOAT_FORMATS.get(re.sub(r'_(ARB|EXT)$', '', str(internal)))


def float_texels(rgba, ffmt):
    """RGBA8 bytes -> texel data of SURF float format ffmt (docs/trace-format.md: binary16 channels two to a
    little-endian word, binary32 one to a word), each channel byte / 255."""
    chans = {4: 4, 5: 4, 6: 1, 7: 1, 8: 2, 9: 2}[ffmt]
    half = ffmt in (4, 6, 8)
    out = bytearray()
    for i in range(0, len(rgba), 4):
        v = [rgba[i + c] / 255.0 for c in range(chans)]
        if half:
            hv = [struct.unpack('<H', struct.pack('<e', x))[0] for x in v] + [0] * (len(v) % 2)
            out += struct.pack('<%dI' % (len(hv) // 2), *[hv[k] | hv[k + 1] << 16 for k in range(0, len(hv), 2)])
        else:
            out += struct.pack('<%df' % chans, *v)
    return bytes(out)


def float_texels_exact(rgbaf, ffmt):
    """float32 RGBA texels (little-endian, 16 bytes each, as a reference state dump gives them) -> texel data
    of SURF float format ffmt. A value read back from a binary16 texture is a binary16 value, so the
    conversion back to binary16 is exact; binary32 formats copy the words."""
    chans = {4: 4, 5: 4, 6: 1, 7: 1, 8: 2, 9: 2}[ffmt]
    vals = struct.unpack('<%df' % (len(rgbaf) // 4), rgbaf)
    out = bytearray()
    for i in range(0, len(vals), 4):
        v = vals[i:i + chans]
        if ffmt in (4, 6, 8):
            hv = [struct.unpack('<H', struct.pack('<e', x))[0] for x in v] + [0] * (len(v) % 2)
            out += struct.pack('<%dI' % (len(hv) // 2), *[hv[k] | hv[k + 1] << 16 for k in range(0, len(hv), 2)])
        else:
            out += struct.pack('<%df' % chans, *v)
    return bytes(out)


def inexact_format(internal):
    """The internal format if RGBA8 surfaces cannot hold it (floating point: HDR targets, values outside
    [0, 1] and more than 8 bits; sRGB: GL converts to linear when sampling and back when blending), else None."""
    i = str(internal)
    if re.search(r'(16F|32F|R11F_G11F_B10F|RGB9_E5|_FLOAT)', i) and 'DEPTH' not in i:
        return i
    if 'SRGB' in i or 'SLUMINANCE' in i:
        return i
    return None


def mat_mul(a, b):
    """Column-major 4x4: a*b."""
    r = [0.0] * 16
    for c in range(4):
        for rr in range(4):
            r[c * 4 + rr] = sum(a[k * 4 + rr] * b[c * 4 + k] for k in range(4))
    return r


IDENT = [1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0]


def m_translate(x, y, z):
    m = list(IDENT)
    m[12], m[13], m[14] = x, y, z
    return m


def m_scale(x, y, z):
    m = list(IDENT)
    m[0], m[5], m[10] = x, y, z
    return m


def m_rotate(a, x, y, z):
    n = math.sqrt(x * x + y * y + z * z) or 1.0
    x, y, z = x / n, y / n, z / n
    c, s = math.cos(math.radians(a)), math.sin(math.radians(a))
    return [x * x * (1 - c) + c, y * x * (1 - c) + z * s, x * z * (1 - c) - y * s, 0,
            x * y * (1 - c) - z * s, y * y * (1 - c) + c, y * z * (1 - c) + x * s, 0,
            x * z * (1 - c) + y * s, y * z * (1 - c) - x * s, z * z * (1 - c) + c, 0, 0, 0, 0, 1]


def m_ortho(l, r, b, t, n, f):
    m = list(IDENT)
    m[0], m[5], m[10] = 2 / (r - l), 2 / (t - b), -2 / (f - n)
    m[12], m[13], m[14] = -(r + l) / (r - l), -(t + b) / (t - b), -(f + n) / (f - n)
    return m


def m_frustum(l, r, b, t, n, f):
    m = [0.0] * 16
    m[0], m[5] = 2 * n / (r - l), 2 * n / (t - b)
    m[8], m[9], m[10], m[11] = (r + l) / (r - l), (t + b) / (t - b), -(f + n) / (f - n), -1
    m[14] = -2 * f * n / (f - n)
    return m


def mvp_rows(m):
    """Column-major 4x4 -> the 4 rows, flattened (vertex constants c0..c3: clip.x = dot(c0, pos))."""
    return [m[c * 4 + r] for r in range(4) for c in range(4)]


def decode_array(blob, size, gltype, stride, offset, first, count, normalized):
    """Read `count` vertices starting at `first` from an attribute array -> list of tuples of floats."""
    fmt, sz, is_int = TYPES.get(gltype, ('f', 4, False))
    stride = stride or size * sz
    out = []
    st = struct.Struct('<' + fmt * size)
    for i in range(first, first + count):
        p = offset + i * stride
        if p + st.size > len(blob):
            raise ValueError('attribute read past its buffer (vertex %d)' % i)
        v = st.unpack_from(blob, p)
        if is_int and normalized:
            v = tuple(max(x / INT_MAX[fmt], -1.0) for x in v)
        else:
            v = tuple(float(x) for x in v)
        out.append(v)
    return out


def prim_indices(mode, idx):
    """Primitive list -> (DRAW prim, index list): triangle modes become triangle lists; lines, line strips,
    line loops and points keep their topology (format 1.2); (None, None) for an unknown mode."""
    if mode in LINE_POINT_MODES:
        prim = LINE_POINT_MODES[mode]
        n = len(idx)
        if prim == PRIM_LINES:
            return prim, list(idx[:n - n % 2])
        if prim in (PRIM_LINE_STRIP, PRIM_LINE_LOOP):
            return prim, list(idx) if n >= 2 else []
        return prim, list(idx)
    t = tri_indices(mode, idx)
    return (None, None) if t is None else (PRIM_TRIANGLES, t)


def prim_count(prim, n):
    """Primitives of an index list of n entries (trace_draw_prims)."""
    return {PRIM_TRIANGLES: n // 3, PRIM_LINES: n // 2, PRIM_LINE_STRIP: max(n - 1, 0),
            PRIM_LINE_LOOP: n if n >= 2 else 0, PRIM_POINTS: n}[prim]


def tri_indices(mode, idx):
    """Primitive list -> triangle list indices, or None if the mode has no triangles."""
    n = len(idx)
    t = []
    if mode == 'GL_TRIANGLES':
        t = idx[:n - n % 3]
    elif mode == 'GL_TRIANGLE_STRIP':
        for i in range(n - 2):
            t += [idx[i], idx[i + 1], idx[i + 2]] if i % 2 == 0 else [idx[i + 1], idx[i], idx[i + 2]]
    elif mode in ('GL_TRIANGLE_FAN', 'GL_POLYGON'):
        for i in range(1, n - 1):
            t += [idx[0], idx[i], idx[i + 1]]
    elif mode == 'GL_QUADS':
        for q in range(0, n - 3, 4):
            t += [idx[q], idx[q + 1], idx[q + 2], idx[q], idx[q + 2], idx[q + 3]]
    elif mode == 'GL_QUAD_STRIP':
        for q in range(0, n - 3, 2):
            t += [idx[q], idx[q + 1], idx[q + 3], idx[q], idx[q + 3], idx[q + 2]]
    else:
        return None
    return t


@functools.lru_cache(maxsize=256)
def glsl_cost(src):
    """Rough instruction and texture-fetch count of a GLSL shader's main body (documented estimate)."""
    body = re.sub(r'//[^\n]*|/\*.*?\*/', '', src or '', flags=re.S)
    tex = len(re.findall(r'\btexture(?:2D|Cube|2DProj)?\s*\(', body))
    ops = len(re.findall(r'[-+*/](?!=)', body))
    calls = len(re.findall(r'\b(?:dot|normalize|max|min|pow|clamp|mix|reflect|length|sqrt|exp|log|sin|cos|abs|'
                           r'inversesqrt|smoothstep|step|fract|floor|cross)\s*\(', body))
    mats = len(re.findall(r'\bmat[34]\b', body))
    return ops + 3 * calls + 4 * mats + tex, tex


class Texture:
    def __init__(self):
        self.w = self.h = 0
        self.rgba = None          # bytes, bottom row first, w*h*4
        self.min_filter = 'GL_NEAREST_MIPMAP_LINEAR'
        self.mag_filter = 'GL_LINEAR'
        self.wrap_s = self.wrap_t = 'GL_REPEAT'
        self.version = 0          # bumped on every content change
        self.depth = False
        self.base = 'rgba'        # base internal format (texture environments depend on it)
        self.levels = set()       # mip levels > 0 the application uploaded
        self.gen_mipmap = False   # glGenerateMipmap / GL_GENERATE_MIPMAP
        self.levels_differ = False   # an uploaded level is not the model's 2x2 box chain of level 0
        self.inexact = None       # internal format the format's RGBA8 does not hold (float, sRGB), or None
        self.ffmt = None          # SURF format code of a floating-point format the model holds (FLOAT_FORMATS)
        self.compare = False      # GL_TEXTURE_COMPARE_MODE = GL_COMPARE_REF_TO_TEXTURE (shadow sampler)
        self.compare_func = 'GL_LEQUAL'
        self.rgbaf = None         # exact content as float32 RGBA (16 bytes a texel, bottom row first), or None
        self.stale = False        # rendered by calls the converter did not emit (earlier frames): content unknown
        self.asked = False        # the reference's content was requested for the current content (prior_need)


class Program:
    def __init__(self):
        self.shaders = []
        self.attribs = {}         # name -> location
        self.uniforms = {}        # location -> name
        self.values = {}          # location -> list of floats/ints
        self.linked_attribs = {}


class Converter:
    def __init__(self, args):
        self.a = args
        # window size: from the capture (the glViewport apitrace records right after MakeCurrent, marked
        # "fake"); --width/--height only check it (or supply it for captures without one)
        self.W, self.H = args.width or 640, args.height or 480
        self.win = None                     # window size last recorded by the capture
        self.mc_no = -2
        self.frame_wins = []                # window size at each emitted frame
        self.out = []
        self.notes = collections.Counter()
        self.frame = 0
        self.emit_frames = None
        self.in_emit = False
        self.frame_index = 0
        self.draw_index = 0
        self.src_frames = []
        self.swap_calls = []
        self.stats = collections.Counter()
        self.tex_float_data = set()         # float surfaces whose content the trace does not carry
        self.shadow_ok = set()
        # content of textures the converter cannot know (rendered before the converted frames, float content
        # uploaded as bytes): (texture, call) -> (what, slot, w, h), the reference state after `call` (the call
        # before the draw that needs it) holding it in texture unit `slot` ('tex') or colour attachment `slot`
        # of the draw framebuffer ('fb'); filled on the first pass, read back by prior_content()
        self.prior_need = {}
        self.prior_tex = {}                 # (texture, call) -> (w, h, rgba bytes, float32 RGBA bytes or None)
        self.prior_used = set()
        self.prev_call = 0                  # number of the call before the one being handled
        # GL state
        self.mode = 'GL_MODELVIEW'
        self.stacks = {'GL_MODELVIEW': [list(IDENT)], 'GL_PROJECTION': [list(IDENT)], 'GL_TEXTURE': [list(IDENT)]}
        self.caps = set(['GL_DITHER', 'GL_MULTISAMPLE'])
        self.line_width = 1.0               # glLineWidth / glPointSize (format 1.2)
        self.point_size = 1.0
        self.tex_enabled = set()            # units with GL_TEXTURE_2D enabled (fixed function)
        self.viewport = [0, 0, self.W, self.H]
        self.scissor = [0, 0, self.W, self.H]
        self.depth_range = [0.0, 1.0]
        self.depth_func, self.depth_mask = 'GL_LESS', True
        self.blend = ['GL_ONE', 'GL_ZERO', 'GL_ONE', 'GL_ZERO']
        self.blend_eq = ['GL_FUNC_ADD', 'GL_FUNC_ADD']
        self.blend_color = [0.0] * 4
        self.color_mask = 15
        self.alpha_func, self.alpha_ref = 'GL_ALWAYS', 0.0
        self.poly_offset = [0.0, 0.0]
        self.cull_face, self.front_face = 'GL_BACK', 'GL_CCW'
        self.clear_color, self.clear_depth, self.clear_stencil = [0.0] * 4, 1.0, 0
        self.active_unit = 0
        self.client_unit = 0
        self.bound_tex = collections.defaultdict(int)   # unit -> texture name
        self.tex_env = collections.defaultdict(lambda: 'GL_MODULATE')
        self.env_color = collections.defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
        self.combine_state = collections.defaultdict(dict)   # unit -> GL_COMBINE parameters set (ffgen.combine)
        self.fog = {'mode': 'GL_EXP', 'start': 0.0, 'end': 1.0, 'density': 1.0, 'color': [0.0, 0.0, 0.0, 0.0]}
        self.textures = collections.defaultdict(Texture)
        self.client_arrays = {}            # 'vertex'/'color'/'normal'/('tex',u) -> (size,type,stride,blob_or_off,buf)
        self.client_enabled = set()
        self.cur_color = (1.0, 1.0, 1.0, 1.0)
        self.cur_tex = collections.defaultdict(lambda: (0.0, 0.0, 0.0, 1.0))
        self.immediate = None
        # buffers / programs / framebuffers
        self.buffers = collections.defaultdict(bytearray)
        self.bound_buf = {'GL_ARRAY_BUFFER': 0, 'GL_ELEMENT_ARRAY_BUFFER': 0}
        self.vao = 0
        self.vao_state = collections.defaultdict(lambda: {'attribs': {}, 'enabled': set(), 'ebo': 0})
        self.shaders = {}                  # id -> (type, source)
        self.programs = collections.defaultdict(Program)
        self.cur_prog = 0
        self.fbo = 0
        self.read_fbo = 0
        self.draw_bufs = {}                         # fbo -> glDrawBuffer(s) list (GL default: COLOR_ATTACHMENT0)
        self.fbos = collections.defaultdict(dict)   # fbo -> attachment -> ('tex', n) | ('rb', n)
        self.rbs = {}                               # rb -> (w, h, is_depth)
        self.bound_rb = 0
        # output surfaces / programs
        self.surf_ids = {('default', 'color'): 0, ('default', 'depth'): 1}
        self.next_surf = 2
        self.surf_emitted = {}                      # key -> version emitted
        self.written = set()
        self.prog_ids = {}
        self.ppd = {}
        self.isa = {}
        self.compiled = {}                  # (vs, fs, position name) -> compiled program or reason
        self.generic_attr = {}              # location -> current generic attribute value (glVertexAttrib*)
        self.cur_rt_size = (self.W, self.H)
        self.empty_frames = 0
        self.frame_draws = 0

    # ------------------------------------------------------------------ output helpers
    def note(self, what):
        self.notes[what] += 1

    def w(self, line):
        self.out.append(line)

    def surface_key_id(self, key):
        if key not in self.surf_ids:
            self.surf_ids[key] = self.next_surf
            self.next_surf += 1
        return self.surf_ids[key]

    def define_default(self):
        # the size is filled in at the end (the window size of the emitted frames, see main)
        self.w('SURF z auto id 0 kind 0 format 1 w @W@ h @H@ flags 1 label "default colour"\n data 0')
        self.w('SURF z auto id 1 kind 1 format 3 w @W@ h @H@ flags 1 label "default depth"\n data 0')
        self.surf_emitted[('default', 'color')] = 0
        self.surf_emitted[('default', 'depth')] = 0

    def ensure_tex_surface(self, name, as_target=False, glsl=False):
        """Surface id for GL texture `name`, (re)defining it in the output when new or changed. Texels are
        stored as fixed-function texture environments see them (an ALPHA texture as (1, 1, 1, A), exact for
        MODULATE/REPLACE on the library programs); a GLSL program's texture2D() returns GL's (0, 0, 0, A)
        for an ALPHA base format, so GLSL draws (glsl=True) get their own copy of such a texture."""
        t = self.textures[name]
        alpha_glsl = (glsl and t.base == 'alpha' and t.rgba is not None and not t.depth
                      and self.surf_ids.get(('tex', name)) not in self.written)   # never a stale copy of a render target
        key = ('tex-alpha', name) if alpha_glsl else ('tex', name)
        sid = self.surface_key_id(key)
        if self.surf_emitted.get(key) == t.version:
            return sid
        self.surf_emitted[key] = t.version
        self.written.discard(sid)
        w, h, data = t.w or 1, t.h or 1, None
        flags = 0
        exact = t.ffmt is not None and t.rgbaf is not None    # float content known at full precision
        if t.rgba is not None and not t.depth:
            w, h, data = t.w, t.h, (t.rgbaf if exact else t.rgba)
            bpt = 16 if exact else 4                            # bytes per texel of data
            if alpha_glsl:
                z = bytearray(data)
                z[0::4] = z[1::4] = z[2::4] = bytes(len(z) // 4)
                data = bytes(z)
            md = self.a.max_tex_dim
            if md and (w > md or h > md):
                sx, sy = max(1, w // md) if w > md else 1, max(1, h // md) if h > md else 1
                nw, nh = w // sx, h // sy
                rows = []
                for y in range(nh):
                    row = data[(y * sy) * w * bpt:(y * sy + 1) * w * bpt]
                    rows.append(b''.join(row[x * sx * bpt:x * sx * bpt + bpt] for x in range(nw)))
                data, w, h = b''.join(rows), nw, nh
                self.tex_scaled.add(sid)
            flags = 2
        elif t.depth and t.rgbaf is not None:
            # depth texture with content from before the converted frames (the reference's float32 read-back,
            # the model's DEPTH32F surface): the first channel of each texel
            data, flags = b''.join(t.rgbaf[i:i + 4] for i in range(0, len(t.rgbaf), 16)), 2
        kind, fmt = (1, 3) if t.depth else (0, t.ffmt or 1)
        if t.ffmt and not t.depth:
            # floating-point colour surface: render targets start as zeros; content taken from the reference's
            # state (glretrace -D: float32 per channel) is exact; texel data known only as 8-bit RGBA (an upload
            # without a reference dump) is carried as those values / 255, and the draws sampling it are flagged
            self.stats['float_surfaces'] += 1
            if data is not None and exact:
                self.tex_float_data.discard(sid)
                data, flags = float_texels_exact(data, t.ffmt), 2
            elif data is not None:
                self.tex_float_data.add(sid)
                data, flags = float_texels(data, t.ffmt), 2
            else:
                self.tex_float_data.discard(sid)
        self.w('SURF z auto id %d kind %d format %d w %d h %d flags %d label %s' %
               (sid, kind, fmt, w, h, flags, qstr('gl texture %d' % name)))
        if data is None:
            self.w(' data 0')
        else:
            self.w(' data %d' % len(data))
            hx = data.hex()
            self.w('\n'.join('  x ' + hx[i:i + 128] for i in range(0, len(hx), 128)))
        return sid

    def ensure_rb_surface(self, rb):
        key = ('rb', rb)
        sid = self.surface_key_id(key)
        w, h, depth = self.rbs.get(rb, (self.W, self.H, True))
        ver = (w, h, depth)
        if self.surf_emitted.get(key) != ver:
            self.surf_emitted[key] = ver
            self.written.discard(sid)
            self.w('SURF z auto id %d kind %d format %d w %d h %d flags 0 label %s\n data 0' %
                   (sid, 1 if depth else 0, 3 if depth else 1, w, h, qstr('gl renderbuffer %d' % rb)))
        return sid

    def targets(self):
        """(colour surface ids, depth surface id or NONE, (w, h)) of the current draw framebuffer."""
        if self.fbo == 0:
            return [0], 1, (self.W, self.H)
        att = self.fbos[self.fbo]
        col, dep, size = [], NONE, None
        bufs = self.draw_bufs.get(self.fbo, ['GL_COLOR_ATTACHMENT0'])
        for a in sorted(att):
            if 'COLOR' in a and a not in bufs:
                continue            # an attachment glDrawBuffers does not select is not written
            kind, n = att[a]
            if kind == 'tex':
                sid = self.ensure_tex_surface(n, True)
                t = self.textures[n]
                size = (t.w, t.h)
                is_depth = t.depth
            else:
                sid = self.ensure_rb_surface(n)
                w, h, is_depth = self.rbs.get(n, (self.W, self.H, True))
                size = (w, h)
            if 'DEPTH' in a:
                dep = sid
            elif 'COLOR' in a:
                col.append(sid)
        return col, dep, size or (self.W, self.H)

    def target_formats(self):
        """Internal formats of the current draw framebuffer's colour textures that RGBA8 does not hold."""
        if self.fbo == 0:
            return []
        bufs = self.draw_bufs.get(self.fbo, ['GL_COLOR_ATTACHMENT0'])
        return sorted(set(self.textures[n].inexact for a, (kind, n) in self.fbos[self.fbo].items()
                          if kind == 'tex' and a in bufs and self.textures[n].inexact))

    def blit(self, call_no, src, dst, mask, filt):
        """glBlitFramebuffer as a draw: a quad over the destination rectangle (the viewport) sampling the read
        framebuffer's colour texture with the blit's filter, clamped, no blending/depth/cull/alpha test, the
        scissor as set (blits obey it). Pixel centre x+0.5 of the destination maps to
        src0 + (x+0.5) * (src1-src0)/(dst1-dst0) of the source, GL's blit mapping, so a 1:1 or 2:1 blit is exact.
        A source GL cannot sample here (the window, a renderbuffer) or a depth/stencil blit is noted, not drawn."""
        if not self.emitting():
            if 'GL_COLOR_BUFFER_BIT' in str(mask):
                self.mark_rendered()
            return
        if 'GL_COLOR_BUFFER_BIT' not in mask:
            self.note('glBlitFramebuffer of depth/stencil only not converted (%s)' % mask)
            return
        if mask != 'GL_COLOR_BUFFER_BIT':
            self.note('glBlitFramebuffer: depth/stencil part not converted (%s)' % mask)
        att = self.fbos[self.read_fbo].get('GL_COLOR_ATTACHMENT0') if self.read_fbo else None
        if not att or att[0] != 'tex':
            self.note('glBlitFramebuffer from the window or a renderbuffer not converted')
            return
        name = att[1]
        t = self.textures[name]
        if not t.w or not t.h or dst[0] == dst[2] or dst[1] == dst[3] or src[0] == src[2] or src[1] == src[3]:
            self.note('glBlitFramebuffer with an empty rectangle skipped')
            return
        # the destination rectangle as viewport (mirroring: texture coordinates swapped)
        sx0, sy0, sx1, sy1 = src
        dx0, dy0, dx1, dy1 = dst
        if dx1 < dx0:
            dx0, dx1, sx0, sx1 = dx1, dx0, sx1, sx0
        if dy1 < dy0:
            dy0, dy1, sy0, sy1 = dy1, dy0, sy1, sy0
        s0, s1, t0, t1 = sx0 / t.w, sx1 / t.w, sy0 / t.h, sy1 / t.h
        quad = [((-1.0, -1.0, 0.0, 1.0), (s0, t0)), ((1.0, -1.0, 0.0, 1.0), (s1, t0)),
                ((1.0, 1.0, 0.0, 1.0), (s1, t1)), ((-1.0, 1.0, 0.0, 1.0), (s0, t1))]
        saved = (list(self.viewport), set(self.caps), self.color_mask, self.depth_mask, self.cur_prog,
                 t.min_filter, t.mag_filter, t.wrap_s, t.wrap_t, t.compare)
        self.viewport = [dx0, dy0, dx1 - dx0, dy1 - dy0]
        self.caps -= {'GL_DEPTH_TEST', 'GL_BLEND', 'GL_CULL_FACE', 'GL_ALPHA_TEST', 'GL_POLYGON_OFFSET_FILL',
                      'GL_STENCIL_TEST', 'GL_FOG', 'GL_CLIP_DISTANCE0', 'GL_CLIP_PLANE0', 'GL_DEPTH_CLAMP'}
        self.color_mask, self.depth_mask, self.cur_prog = 15, False, 0
        t.min_filter = t.mag_filter = str(filt) if str(filt) == 'GL_LINEAR' else 'GL_NEAREST'
        t.wrap_s = t.wrap_t = 'GL_CLAMP_TO_EDGE'
        t.compare = False

        def fetch(used):
            attrs = [(SEM_POSITION, 4, [quad[i][0] for i in used]), (SEM_COLOR, 4, [(1.0, 1.0, 1.0, 1.0)] * len(used)),
                     (SEM_TEXCOORD0, 2, [quad[i][1] for i in used])]
            return (attrs, 'vs_mvp', 'fs_tex_modulate', 'glBlitFramebuffer (destination rectangle)',
                    'glBlitFramebuffer %s filter' % filt, list(mvp_rows(IDENT)), (4, 1, 1), [(0, name)], 0)
        try:
            self.stats['blits'] += 1
            self.emit_draw(call_no, 'GL_TRIANGLES', [0, 1, 2, 0, 2, 3], fetch)
        finally:
            (self.viewport, self.caps, self.color_mask, self.depth_mask, self.cur_prog,
             t.min_filter, t.mag_filter, t.wrap_s, t.wrap_t, t.compare) = saved

    def program_id(self, stage, name, origin):
        key = (stage, name)
        if key not in self.prog_ids:
            pid = len(self.prog_ids)
            self.prog_ids[key] = pid
            words = self.isa.get(name, [])
            self.w('PROG z auto id %d stage %d name %s\n origin %s\n words %d' %
                   (pid, stage, qstr(name), qstr(origin), len(words)))
            for i in range(0, len(words), 8):
                self.w('  w ' + ' '.join('0x%08x' % x for x in words[i:i + 8]))
        return self.prog_ids[key]

    # ------------------------------------------------------------------ frame control
    def emitting(self):
        return self.in_emit

    def start_frame(self):
        if self.emit_frames is None or self.frame in self.emit_frames:
            if not self.out:
                self.define_default()
            self.frame_mark = len(self.out)
            self.in_emit = True
            self.draw_index = 0
            self.src_frames.append(self.frame)
            self.frame_wins.append(self.win)
            self.frame_draws = self.stats['emitted']
            self.w('FRMB z auto index %d src_frame %d' % (self.frame_index, self.frame))

    def end_frame(self, call_no):
        if self.in_emit:
            self.swap_calls.append(call_no)
            self.empty_frames += self.stats['emitted'] == self.frame_draws
            self.w('FRME z auto index %d src_frame %d' % (self.frame_index, self.frame))
            self.frame_index += 1
            self.in_emit = False
        self.frame += 1
        self.start_frame()

    # ------------------------------------------------------------------ state snapshot
    def state_text(self, rt_size):
        c = self.caps
        vp, sc = self.viewport, self.scissor
        s = ['  viewport x %d y %d w %d h %d near %s far %s' % (vp[0], vp[1], min(vp[2], 16384), min(vp[3], 16384),
                                                                f32(self.depth_range[0]), f32(self.depth_range[1]))]
        cull = CULL.get(self.cull_face, 1) if 'GL_CULL_FACE' in c else 0
        s.append('  scissor en %d x %d y %d w %d h %d cull %d front_ccw %d' %
                 (int('GL_SCISSOR_TEST' in c), sc[0], sc[1], min(sc[2], 16384), min(sc[3], 16384), cull,
                  int(self.front_face == 'GL_CCW')))
        s.append('  depth test %d func %d write %d color_mask %d' %
                 (int('GL_DEPTH_TEST' in c), CMP[self.depth_func], int(self.depth_mask), self.color_mask))
        b = self.blend
        s.append('  blend en %d src_rgb %d dst_rgb %d src_a %d dst_a %d eq_rgb %d eq_a %d color %s' %
                 (int('GL_BLEND' in c), BF.get(b[0], 1), BF.get(b[1], 0), BF.get(b[2], 1), BF.get(b[3], 0),
                  BEQ.get(self.blend_eq[0], 0), BEQ.get(self.blend_eq[1], 0),
                  ' '.join(f32(min(max(x, 0.0), 1.0)) for x in self.blend_color)))
        s.append('  alpha test %d func %d ref %s polygon_offset en %d factor %s units %s' %
                 (int('GL_ALPHA_TEST' in c), CMP[self.alpha_func], f32(min(max(self.alpha_ref, 0.0), 1.0)),
                  int('GL_POLYGON_OFFSET_FILL' in c), f32(self.poly_offset[0]), f32(self.poly_offset[1])))
        return s

    def unsupported_state(self):
        """Render state the format cannot express -> flag + note."""
        flags = 0
        fog_ok = self.cur_prog == 0 and self.fog['mode'] in ('GL_LINEAR', 'GL_EXP', 'GL_EXP2')
        for cap, what in (('GL_STENCIL_TEST', 'stencil test'), ('GL_FOG' if not fog_ok else '-', 'fog'),
                          ('GL_LIGHTING', 'lighting'),
                          ('GL_CLIP_PLANE0', 'user clip plane'), ('GL_CLIP_DISTANCE0', 'user clip plane'),
                          ('GL_TEXTURE_GEN_S', 'texgen')):
            if cap in self.caps:
                self.note('draws with %s (ignored)' % what)
                flags |= F_STATE_APPROX if what not in ('lighting', 'texgen') else F_VS_APPROX
        return flags

    def prim_state(self, prim, vs_src):
        """GL line/point state of a line or point draw that the model does not render (prim_flags):
        each one is flagged (F_PRIM_APPROX) and noted, never silently dropped."""
        if prim == PRIM_TRIANGLES:
            return 0
        c, f = self.caps, 0
        if prim == PRIM_POINTS:
            if 'GL_POINT_SMOOTH' in c:
                f |= PRIMF_POINT_SMOOTH
                self.note('points with GL_POINT_SMOOTH (drawn aliased)')
            if 'GL_POINT_SPRITE' in c:
                f |= PRIMF_POINT_SPRITE
                self.note('point sprites (drawn as aliased points, no gl_PointCoord)')
            if re.search(r'\bgl_PointSize\b', vs_src or '') and ('GL_PROGRAM_POINT_SIZE' in c or 'GL_VERTEX_PROGRAM_POINT_SIZE' in c):
                f |= PRIMF_PROGRAM_POINT_SIZE
                self.note('points sized by the vertex program (gl_PointSize ignored: glPointSize used)')
        else:
            if 'GL_LINE_SMOOTH' in c:
                f |= PRIMF_LINE_SMOOTH
                self.note('lines with GL_LINE_SMOOTH (drawn aliased)')
            if 'GL_LINE_STIPPLE' in c:
                f |= PRIMF_LINE_STIPPLE
                self.note('stippled lines (drawn solid)')
        return f

    # ------------------------------------------------------------------ draws
    def empty_rect(self, with_viewport):
        """An enabled scissor (or, for draws, the viewport) with no area: GL renders nothing there."""
        if 'GL_SCISSOR_TEST' in self.caps and (self.scissor[2] <= 0 or self.scissor[3] <= 0):
            return True
        return with_viewport and (self.viewport[2] <= 0 or self.viewport[3] <= 0)

    def draw_colour_textures(self):
        """[(attachment, texture)] of the colour textures the current draw framebuffer writes."""
        if self.fbo == 0:
            return []
        bufs = self.draw_bufs.get(self.fbo, ['GL_COLOR_ATTACHMENT0'])
        return [(a, n) for a, (kind, n) in sorted(self.fbos[self.fbo].items())
                if kind == 'tex' and 'COLOR' in a and a in bufs and not self.textures[n].depth]

    def mark_rendered(self):
        """A draw, clear or blit the converter does not emit (a frame outside the converted ones) changes the
        colour textures it renders into: their content is no longer what the converter knows."""
        if not self.color_mask:
            return
        for a, n in self.draw_colour_textures():
            t = self.textures[n]
            t.stale, t.asked, t.rgbaf = True, False, None
            sid = self.surf_ids.get(('tex', n))
            if sid is not None:
                self.written.discard(sid)   # what the model rendered there earlier is stale too

    def content_unknown(self, t):
        """True if texture t holds content the converter cannot write exactly: rendered by calls it did not
        emit, or floating-point content uploaded as bytes (GL's conversion is not reproduced here)."""
        return t.stale or bool(t.ffmt and t.rgba is not None and t.rgbaf is None)

    def take_prior(self, name, call_no, what, slot):
        """Content of texture `name` from the reference implementation's state just before call_no (second
        pass: prior_tex, read by prior_content()); on the first pass, records the need. True if taken."""
        t = self.textures[name]
        before = self.prev_call if call_no > self.prev_call else self.begin_prev   # immediate mode: before glBegin
        key = (name, before)
        t.asked = True
        self.prior_need.setdefault(key, (what, slot, t.w, t.h))
        pre = self.prior_tex.get(key)
        if pre is None or pre[0] != t.w or pre[1] != t.h:
            return False
        if t.depth and pre[3] is None:
            return False        # a depth texture needs the float read-back
        t.rgba, t.rgbaf = pre[2], (pre[3] if t.ffmt or t.depth else None)
        t.stale = False
        t.version += 1
        self.prior_used.add(name)
        return True

    def target_prior(self, call_no, clear=False):
        """Before a draw, clear or blit into colour textures whose content the converter does not know: their
        content from the reference (take_prior) when the operation reads it, i.e. a draw that blends or masks
        colour channels, or a clear that leaves texels outside its scissor. A colour clear of every texel or a
        draw that replaces what it covers does not read it: nothing is asked (texels no draw of the frame
        covers keep the surface's earlier data). Returns draw flags
        (F_STATE_APPROX when content that is read stays unknown)."""
        flags = 0
        if not self.color_mask:
            return 0            # writes no colour: the content is needed later, if at all
        reads = clear or 'GL_BLEND' in self.caps or self.color_mask != 15
        sc, scissor = self.scissor, 'GL_SCISSOR_TEST' in self.caps
        for a, n in self.draw_colour_textures():
            t = self.textures[n]
            sid = self.surf_ids.get(('tex', n))
            if (sid is not None and sid in self.written) or not self.content_unknown(t):
                continue
            if clear and self.color_mask == 15 and (not scissor or (
                    sc[0] <= 0 and sc[1] <= 0 and sc[0] + sc[2] >= t.w and sc[1] + sc[3] >= t.h)):
                t.stale, t.asked = False, True     # every texel replaced: the old content is not needed
                t.rgba, t.rgbaf = None, None
                t.version += 1
                continue
            if not reads:
                # not noted: the bundled frames' full-screen passes do this, and their traces stay as they were
                t.stale, t.asked = False, True
                continue
            if not t.asked and self.take_prior(n, call_no, 'fb', a):
                continue
            self.note('render target drawn into whose earlier content is unknown (rendered before the converted '
                      'frames, or float content uploaded as bytes)')
            flags |= F_STATE_APPROX
        return flags

    def emit_draw(self, call_no, mode, idx_list, fetch):
        """fetch(sem) -> list of per-vertex tuples for the vertices idx_list refers to (None if absent)."""
        if not self.emitting():
            self.mark_rendered()
            return
        prim, tris = prim_indices(mode, idx_list)
        if tris is None:
            self.note('%s draws skipped (unknown primitive mode)' % mode)
            return
        self.stats['draws'] += 1
        if not tris:
            self.note('draws with no complete primitive skipped')
            return
        if self.empty_rect(True):
            self.note('draws with an empty viewport or enabled scissor skipped (GL draws nothing; the trace format '
                      'rejects empty rectangles)')
            return
        used = sorted(set(tris))
        remap = {v: i for i, v in enumerate(used)}
        self.shadow_ok = set()      # textures a compiled sampler2DShadow reads exactly (program_draw)
        draw = fetch(used)
        if draw is None:
            return
        attrs, vs_name, fs_name, vs_origin, fs_origin, vconsts, cost, texunits, flags = draw[:9]
        fconsts = draw[9] if len(draw) > 9 else []
        flags |= self.unsupported_state()
        flags |= self.target_prior(call_no)
        pflags = self.prim_state(prim, vs_origin if prim == PRIM_POINTS else '')
        if pflags:
            flags |= F_PRIM_APPROX
        sflags = STATEF_DEPTH_CLAMP if 'GL_DEPTH_CLAMP' in self.caps else 0
        if sflags:
            self.stats['depth_clamp_draws'] += 1     # format 1.4
        col, dep, rt_size = self.targets()
        for f in self.target_formats():
            self.note('draws into a %s target (stored as RGBA8: clamped to [0, 1], 8 bits, no sRGB encoding)' % f)
            flags |= F_STATE_APPROX
        # textures (resolved to surfaces before targets so SURFs precede the DRAW)
        tex_lines = []
        deps = []
        for unit, name in texunits:
            t = self.textures[name]
            psid = self.surface_key_id(('tex', name))
            if (psid not in self.written and not t.asked and
                    (t.rgba is None or self.content_unknown(t))):
                # content rendered before the converted frame(s), or float content uploaded as bytes: taken from
                # the reference implementation's state before this draw (second pass, main(): glretrace -D),
                # float textures at full precision; else left as it is and flagged below
                # the state dump names textures by GL texture unit (a compiled program's slot is another number);
                # a texture bound to no unit (a blit's source) is not in it: it stays as it is, flagged below
                gl_unit = min((u for u, n in self.bound_tex.items() if n == name), default=None)
                if gl_unit is not None:
                    self.take_prior(name, call_no, 'tex', gl_unit)
            sid = self.ensure_tex_surface(name, glsl=str(fs_name).startswith('glsl:') or str(vs_name).startswith('glsl:'))
            if sid in self.tex_scaled:
                flags |= F_TEX_APPROX
            if sid in self.tex_float_data:
                self.note('floating-point texture with uploaded or earlier content sampled (content known as 8-bit RGBA only)')
                flags |= F_TEX_APPROX
            if t.inexact:
                self.note('texture of format %s sampled (stored as RGBA8)' % t.inexact)
                flags |= F_TEX_APPROX
            if t.compare and name not in self.shadow_ok:
                self.note('depth texture sampled with GL_TEXTURE_COMPARE_MODE (compare not in the format)')
                flags |= F_TEX_APPROX
            mn = 1 if 'LINEAR' in t.min_filter.split('_MIPMAP_')[0] else 0
            if '_MIPMAP_' in t.min_filter:
                complete = t.gen_mipmap or (t.w and t.h and all(
                    l in t.levels for l in range(1, max(t.w, t.h).bit_length())))
                if not complete:
                    # GL: a mipmapped filter on a texture without its levels is incomplete (samples black)
                    self.note('mipmapped filter on a texture without mip levels (sampled as level 0 only)')
                    flags |= F_TEX_APPROX
                else:
                    mn += 2 if t.min_filter.endswith('_MIPMAP_NEAREST') else 4
                    if t.levels_differ:
                        flags |= F_TEX_APPROX
            mg = 1 if t.mag_filter == 'GL_LINEAR' else 0
            tex_lines.append('   tex unit %d surface %d min %d mag %d wrap_s %d wrap_t %d' %
                             (unit, sid, mn, mg, WRAP.get(t.wrap_s, 0), WRAP.get(t.wrap_t, 0)))
            if sid in self.written and sid not in deps:
                deps.append(sid)
            if t.rgba is None and sid not in self.written:
                # rendered (or copied) before the converted frames: its content is not in the capture's stream
                flags |= F_TEX_APPROX
                self.note('texture sampled whose content was rendered before the converted frame(s) (blank)')
            elif t.stale and sid not in self.written:
                flags |= F_TEX_APPROX
                self.note('texture sampled whose content was rendered before the converted frame(s) (stale)')
        vs = self.program_id(0, vs_name, vs_origin)
        fs = self.program_id(1, fs_name, fs_origin)
        ref = self.ppd.get(call_no, -1)
        lines = ['DRAW z auto index %d call %d prim %d flags %d ref_pixels %d line_width %s point_size %s prim_flags %d '
                 'state_flags %d' % (self.draw_index, call_no, prim, flags, ref, f32(self.line_width),
                                     f32(self.point_size), pflags, sflags)]
        lines.append('  attribs %d ' % len(attrs) + ' '.join('sem %d comps %d' % (s, n) for s, n, _ in attrs))
        lines.append('  verts %d' % len(used))
        for i in range(len(used)):
            vals = []
            for s, n, data in attrs:
                v = data[i]
                vals.extend(v[:n] + (0.0, 0.0, 0.0, 1.0)[len(v):n] if len(v) < n else v[:n])
            lines.append('  v ' + ' '.join(f32(x) for x in vals))
        lines.append('  indices %d' % len(tris))
        rt = [remap[v] for v in tris]
        for i in range(0, len(rt), 24):
            lines.append('  i ' + ' '.join(str(x) for x in rt[i:i + 24]))
        lines.append('  programs vs %d fs %d cost vs_instr %d vs_tex 0 fs_instr %d fs_tex %d' %
                     (vs, fs, cost[0], cost[1], cost[2]))
        lines.append('  vs_consts %d' % (len(vconsts) // 4))
        for i in range(0, len(vconsts), 4):
            lines.append('  c ' + ' '.join(f32(x) for x in vconsts[i:i + 4]))
        lines.append('  fs_consts %d' % (len(fconsts) // 4))
        for i in range(0, len(fconsts), 4):
            lines.append('  c ' + ' '.join(f32(x) for x in fconsts[i:i + 4]))
        lines += self.state_text(rt_size)
        lines.append('  targets color %d %s depth %s' % (len(col), ' '.join(str(x) for x in col),
                                                        'none' if dep == NONE else dep))
        lines.append('  textures %d' % len(tex_lines))
        lines += tex_lines
        lines.append('  deps %d %s' % (len(deps), ' '.join(str(x) for x in deps)))
        self.w('\n'.join(lines))
        self.draw_index += 1
        self.stats['emitted'] += 1
        self.stats['prims'] += prim_count(prim, len(tris))
        if prim != PRIM_TRIANGLES:
            self.stats['line_point_draws'] += 1
        if self.color_mask:
            self.written.update(col)
        if dep != NONE and 'GL_DEPTH_TEST' in self.caps and self.depth_mask:
            self.written.add(dep)

    def mvp_rows(self, m):
        return mvp_rows(m)

    # fixed-function path ------------------------------------------------
    def ff_fetch(self, arrays, cur_first=0):
        """Builder for fixed-function draws. arrays: sem -> callable(used) -> list of tuples."""
        def fetch(used):
            try:
                pos = arrays['vertex'](used)
            except (ValueError, KeyError) as e:
                self.note('draws skipped: %s' % e)
                return None
            attrs = [(SEM_POSITION, 4 if any(len(p) > 3 for p in pos) else 3, pos)]
            colors = arrays['color'](used) if 'color' in arrays else [self.cur_color] * len(used)
            attrs.append((SEM_COLOR, 4, [tuple(c) + (1.0,) * (4 - len(c)) for c in colors]))
            units = sorted(u for u in self.tex_enabled if self.bound_tex[u])
            texunits = [(u, self.bound_tex[u]) for u in units]
            flags = 0
            if units:
                u0 = units[0]
                tc = arrays[('tex', u0)](used) if ('tex', u0) in arrays else [self.cur_tex[u0]] * len(used)
                attrs.append((SEM_TEXCOORD0, 2, [tuple(t[:2]) + (0.0,) * (2 - len(t[:2])) for t in tc]))
                if self.stacks['GL_TEXTURE'][-1] != IDENT:
                    self.note('texture matrix ignored')
                    flags |= F_VS_APPROX
            if len(units) > 1:
                u1 = units[1]
                tc = arrays[('tex', u1)](used) if ('tex', u1) in arrays else [self.cur_tex[u1]] * len(used)
                attrs.append((SEM_TEXCOORD1, 2, [tuple(t[:2]) + (0.0,) * (2 - len(t[:2])) for t in tc]))
            envs = [self.tex_env[u] for u in units]
            texmat = self.stacks['GL_TEXTURE'][-1] != IDENT
            fog = self.fog['mode'] if 'GL_FOG' in self.caps else None
            if (len(units) > 1 or (units and envs[0] != 'GL_MODULATE') or (units and texmat) or fog) and \
                    all(e in ffgen.ENVS for e in envs):
                gen = self.ff_generated(arrays, used, pos, colors, units, envs, texmat, fog)
                if gen is not None:
                    return gen
            if not units:
                fs = 'fs_color'
            else:
                fs = 'fs_tex_modulate'
                if envs[0] != 'GL_MODULATE' or len(units) > 1:
                    flags |= F_FS_APPROX
                    self.note('fragment: texenv %s approximated by fs_tex_modulate' % '+'.join(envs))
            if self.color_mask == 0:
                fs = 'fs_depth'
            mvp = mat_mul(self.stacks['GL_PROJECTION'][-1], self.stacks['GL_MODELVIEW'][-1])
            vs_cost = 4 + 1 + (2 * len(units))
            fs_cost = 1 + len(units)
            origin = 'fixed-function: %s' % (', '.join('unit%d %s' % (u, e) for u, e in zip(units, envs)) or 'colour')
            return (attrs, 'vs_mvp', fs, 'fixed-function transform (projection * modelview)', origin,
                    self.mvp_rows(mvp), (vs_cost, fs_cost, len(units)), texunits, flags)
        return fetch

    def ff_generated(self, arrays, used, pos, colors, units, envs, texmat, fog):
        """fixed-function state as a generated ISA program (multitexture, texture environments, texture
        matrix, fog): exact, unlike the library stand-in."""
        spec = [(u, e, self.textures[self.bound_tex[u]].base, texmat and i == 0,
                 dict(self.combine_state[u]) if e == 'GL_COMBINE' else None) for i, (u, e) in enumerate(zip(units, envs))]
        comp = self.ff_program(spec, fog)
        if not isinstance(comp, dict):
            self.note('fixed-function program not generated (%s)' % comp)
            return None
        mvp = mat_mul(self.stacks['GL_PROJECTION'][-1], self.stacks['GL_MODELVIEW'][-1])

        def attr(name):
            if name == 'color':
                return [tuple(c) + (1.0,) * (4 - len(c)) for c in colors]
            u = int(name[2:])
            tc = arrays[('tex', u)](used) if ('tex', u) in arrays else [self.cur_tex[u]] * len(used)
            return [tuple(t) + (0.0, 0.0, 0.0, 1.0)[len(t):] for t in tc]
        fp = self.fog
        uv = {'mvp': mvp, 'mv': self.stacks['GL_MODELVIEW'][-1], 'fogcolor': fp['color'],
              'fogparams': [fp['start'], fp['end'], fp['density'], 0.0]}
        for u in units:
            uv['texmat%d' % u] = self.stacks['GL_TEXTURE'][-1]
            uv['envcolor%d' % u] = self.env_color[u]
        origin = 'fixed-function: %s%s' % (', '.join('unit%d %s (%s)' % (u, e, b) for u, e, b, _, _ in spec),
                                           ', fog %s' % fog if fog else '')
        cost = (4 + 1 + 2 * len(units) + (4 if fog else 0), 1 + len(units) + (3 if fog else 0), len(units))
        return self.program_draw(comp, 'ff', attr, 'position', pos, lambda n: uv.get(n, []),
                                 lambda n: int(n[1:]), mvp, False, cost, 'fixed-function transform (generated)',
                                 origin)

    def client_getter(self, key, first):
        size, gltype, stride, ptr, buf, norm = self.client_arrays[key]
        if buf:
            blob, off = bytes(self.buffers[buf]), ptr
        else:
            blob, off = ptr, 0
            if not isinstance(blob, (bytes, bytearray)):
                raise ValueError('client array %s has no data' % (key,))
        return lambda used: [decode_array(blob, size, gltype, stride, off, first + u, 1, norm)[0] for u in used]

    def ff_arrays(self, first=0):
        arrays = {}
        names = {'GL_VERTEX_ARRAY': 'vertex', 'GL_COLOR_ARRAY': 'color', 'GL_NORMAL_ARRAY': 'normal'}
        for cap, key in names.items():
            if cap in self.client_enabled and key in self.client_arrays:
                arrays[key] = self.client_getter(key, first)
        for u in range(8):
            k = ('tex', u)
            if ('GL_TEXTURE_COORD_ARRAY', u) in self.client_enabled and k in self.client_arrays:
                arrays[k] = self.client_getter(k, first)
        return arrays

    # programmable path --------------------------------------------------
    def glsl_fetch(self, first=0):
        prog = self.programs[self.cur_prog]
        vs_src = fs_src = ''
        for sh in prog.shaders:
            typ, src = self.shaders.get(sh, ('', ''))
            if 'VERTEX' in typ:
                vs_src = src
            elif 'FRAGMENT' in typ:
                fs_src = src
        st = self.vao_state[self.vao]

        def attr_getter(loc):
            if loc not in st['attribs'] or loc not in st['enabled']:
                return None
            size, gltype, norm, stride, ptr, buf = st['attribs'][loc]
            if buf:
                blob, off = bytes(self.buffers[buf]), ptr
            else:
                blob, off = ptr, 0
                if not isinstance(blob, (bytes, bytearray)):
                    return None
            return lambda used: [decode_array(blob, size, gltype, stride, off, first + u, 1, norm)[0] for u in used]

        def fetch(used):
            flags = 0
            names = prog.attribs
            pos_name = next((n for n in names if re.search(r'pos|vertex', n, re.I)), None)
            if pos_name is None and names:
                pos_name = min(names, key=lambda n: names[n])
            if pos_name is None:
                self.note('GLSL draws skipped: no position attribute')
                return None
            g = attr_getter(names[pos_name])
            if g is None:
                self.note('GLSL draws skipped: position attribute not an array')
                return None
            try:
                pos = g(used)
            except ValueError as e:
                self.note('draws skipped: %s' % e)
                return None
            attrs = [(SEM_POSITION, 4 if any(len(p) > 3 for p in pos) else 3, pos)]
            comp = self.compile_glsl(vs_src, fs_src, pos_name)
            compiled = isinstance(comp, dict)
            # MVP: a mat4 uniform named like ModelViewProjection / MVP, else projection * modelview
            unames = {v: k for k, v in prog.uniforms.items()}
            mvp = None
            for n, loc in unames.items():
                if re.search(r'modelviewprojection|mvp', n, re.I) and len(prog.values.get(loc, [])) == 16:
                    mvp = prog.values[loc]
            direct = re.search(r'gl_Position\s*=\s*vec4\s*\(\s*\w+', vs_src)
            if mvp is None and direct:
                mvp = list(IDENT)       # position already in clip space (full-screen passes): exact
            if mvp is None:
                pm = next((prog.values.get(l) for n, l in unames.items() if re.search(r'proj', n, re.I)), None)
                mv = next((prog.values.get(l) for n, l in unames.items() if re.search(r'modelview|mv\b', n, re.I)), None)
                if pm and mv and len(pm) == 16 and len(mv) == 16:
                    mvp = mat_mul(pm, mv)
                else:
                    mvp = list(IDENT)
                    flags |= F_VS_APPROX
                    if not compiled:
                        self.note('GLSL: no MVP uniform found (identity used)')
            gp = re.search(r'gl_Position\s*=\s*(?:\w+\s*\*\s*)?(?:vec4\s*\(\s*)?(\w+)', vs_src)
            alias = gp.group(1) if gp else None
            if alias and alias != pos_name:
                # `vec4 p = vec4(position, ...); gl_Position = M * p;` with p never modified: still exact
                decl = re.search(r'\bvec4\s+%s\s*=\s*vec4\s*\(\s*%s\b' % (alias, re.escape(pos_name)), vs_src)
                writes = re.findall(r'\b%s\b(?:\.\w+)?\s*[-+*/]?=(?!=)' % alias, vs_src)
                if decl and len(writes) == 1:
                    alias = pos_name
            if compiled:
                vi, _ = glsl_cost(vs_src)
                fi, ft = glsl_cost(fs_src)
                return self.compiled_draw(comp, prog, unames, attr_getter, used, pos, pos_name, mvp,
                                          alias != pos_name or (flags & F_VS_APPROX) != 0,
                                          (max(vi, 4), max(fi, 1), ft), vs_src, fs_src)
            if alias != pos_name:
                flags |= F_VS_APPROX
                self.note('GLSL: gl_Position is not MVP * position attribute (e.g. displaced; approximated)')
            tex_name = next((n for n in names if re.search(r'tex|uv', n, re.I)), None)
            col_name = next((n for n in names if re.search(r'colou?r', n, re.I)), None)
            fs_main = main_body(fs_src)
            ucol = re.fullmatch(r'\s*gl_FragColor\s*=\s*(\w+)\s*;\s*', fs_main)
            uval = prog.values.get(unames.get(ucol.group(1))) if ucol else None
            if col_name and attr_getter(names[col_name]):
                attrs.append((SEM_COLOR, 4, [tuple(c) + (1.0,) * (4 - len(c)) for c in attr_getter(names[col_name])(used)]))
            elif uval and len(uval) == 4:      # gl_FragColor = <uniform vec4>: a constant colour, exact
                attrs.append((SEM_COLOR, 4, [tuple(uval)] * len(used)))
            else:
                attrs.append((SEM_COLOR, 4, [(1.0, 1.0, 1.0, 1.0)] * len(used)))
                if re.search(r'gl_FragColor\s*=\s*(?!texture)', fs_src):
                    flags |= F_FS_APPROX
            # samplers -> units
            texunits = []
            for m in re.finditer(r'uniform\s+sampler2D\s+(\w+)', fs_src + vs_src):
                loc = unames.get(m.group(1))
                unit = int(prog.values.get(loc, [0])[0]) if loc is not None else 0
                if self.bound_tex[unit] and (unit, self.bound_tex[unit]) not in texunits:
                    texunits.append((unit, self.bound_tex[unit]))
            texunits.sort()
            if texunits:
                g = attr_getter(names[tex_name]) if tex_name else None
                tc = g(used) if g else [(0.0, 0.0)] * len(used)
                if g is None:
                    flags |= F_FS_APPROX
                attrs.append((SEM_TEXCOORD0, 2, [tuple(t[:2]) + (0.0,) * (2 - len(t[:2])) for t in tc]))
                fs = 'fs_tex_modulate'
            else:
                fs = 'fs_color'
            if self.color_mask == 0:
                fs = 'fs_depth'
            fs_simple = (uval and len(uval) == 4) or re.fullmatch(
                r'\s*gl_FragColor\s*=\s*(v_?colou?r|texture2D\s*\([^;]*\)(\s*\*\s*\w+)?)\s*;\s*', fs_main)
            if not fs_simple:
                flags |= F_FS_APPROX
                self.note('GLSL fragment shader approximated by %s' % fs)
            vi, _ = glsl_cost(vs_src)
            fi, ft = glsl_cost(fs_src)
            self.note('GLSL program not compiled (%s): library stand-in, flagged' % comp)
            flags |= F_FS_APPROX | F_VS_APPROX
            return (attrs, 'vs_mvp', fs, 'GLSL vertex shader crc32 %08x' % zlib.crc32(vs_src.encode()),
                    'GLSL fragment shader crc32 %08x' % zlib.crc32(fs_src.encode()), self.mvp_rows(mvp),
                    (max(vi, 4), max(fi, 1), ft), texunits, flags)
        return fetch

    def compile_glsl(self, vs_src, fs_src, pos_name):
        """compile a GLSL program once (cached by source); a dict, or the reason it is outside the subset."""
        key = (vs_src, fs_src, pos_name)
        if key not in self.compiled:
            try:
                r = glsl2isa.compile_program(vs_src, fs_src, pos_name)
                crc = zlib.crc32((vs_src + '\0' + fs_src).encode())
                r['crc'] = crc
                r['vs_words'] = glsl2isa.assemble(r['vs_asm'], self.a.assembler)
                r['fs_words'] = glsl2isa.assemble(r['fs_asm'], self.a.assembler)
                self.compiled[key] = r
            except glsl2isa.Unsupported as e:
                self.compiled[key] = str(e)
        return self.compiled[key]

    def compiled_draw(self, comp, prog, unames, attr_getter, used, pos, pos_name, mvp, nomvp, cost, vs_src, fs_src):
        """a draw with the application's own GLSL program compiled to the ISA (docs/shader-compiler.md)."""
        b = comp['bindings']

        def attr(name):
            g = attr_getter(prog.attribs[name]) if name in prog.attribs else None
            if g is not None:
                return g(used)
            # not an enabled array: the current generic attribute value (GL default 0,0,0,1)
            return [tuple(self.generic_attr.get(prog.attribs.get(name, -1), (0.0, 0.0, 0.0, 1.0)))] * len(used)

        def uniform(name):
            loc = next((l for n, l in unames.items() if n == name or n == name + '[0]'), None)
            return prog.values.get(loc, []) if loc is not None else []

        def sampler_unit(name):
            loc = unames.get(name)
            return int(prog.values.get(loc, [0])[0]) if loc is not None else 0
        return self.program_draw(comp, 'glsl', attr, pos_name, pos, uniform, sampler_unit, mvp, nomvp, cost,
                                 'GLSL vertex shader crc32 %08x' % zlib.crc32(vs_src.encode()),
                                 'GLSL fragment shader crc32 %08x' % zlib.crc32(fs_src.encode()))

    def program_draw(self, comp, kind, attr, pos_name, pos, uniform, sampler_unit, mvp, nomvp, cost, vs_origin,
                     fs_origin):
        """the DRAW tuple for a compiled program: attributes in the program's slot order, the constant bank
        (c0..c3 = MVP rows for the tools that use the convention, uniforms from c[16]), program unit k = the
        texture bound to the GL unit sampler k names."""
        b = comp['bindings']
        flags = 0
        attrs = []
        for name, slot in sorted(b['attribs'].items(), key=lambda kv: kv[1]):
            n = max(3 if slot == 0 else 1, min(4, b['attrib_comps'].get(name, 4)))
            data = pos if name == pos_name else attr(name)
            data = [tuple(v[:n]) + (0.0, 0.0, 0.0, 1.0)[len(v[:n]):n] for v in data]
            sem = SEM_POSITION if slot == 0 else SEM_COLOR if re.search(r'colou?r', name, re.I) else \
                SEM_TEXCOORD0 if re.search(r'tex|uv|tc', name, re.I) else SEM_NORMAL if re.search(r'normal', name, re.I) \
                else SEM_GENERIC
            attrs.append((sem, n, data))
        if len(attrs) > 16:
            self.note('draws skipped: more than 16 attributes')
            return None
        if len(attrs) > 8:
            self.stats['attribs_over_8'] += 1     # format 1.3
        consts = [0.0] * 256
        consts[0:16] = self.mvp_rows(mvp)
        top = 16
        for name, u in b['uniforms'].items():
            if name.startswith('@texsize:'):    # a sampler2DShadow's texture size (glsl2isa sample_dref)
                tx = self.textures.get(self.bound_tex[sampler_unit(name[9:])])
                lin = tx is not None and tx.min_filter == 'GL_LINEAR'
                vals = ([float(tx.w), float(tx.h), 1.0 / tx.w, 1.0 / tx.h] if tx and tx.w and tx.h else [1.0] * 4) + \
                    ([0.5, 1.0] if lin else [0.0, 0.0])
            else:
                vals = uniform(name)
            if not vals:
                self.note('%s uniform %s never set (0 used, as GL initialises it)' % (kind, name))
            for j, off in enumerate(u['layout']):
                v = vals[j] if j < len(vals) else 0.0
                if u['kind'] in ('i', 'b', 'u'):
                    v = struct.unpack('<f', struct.pack('<i', int(v)))[0]
                consts[u['base'] + off] = v
            top = max(top, u['base'] + u['words'])
        consts = consts[:(top + 3) // 4 * 4]
        texunits = []
        for name, slot in sorted(b['samplers'].items(), key=lambda kv: kv[1]):
            unit = sampler_unit(name)
            if self.bound_tex[unit]:
                texunits.append((slot, self.bound_tex[unit]))
            else:
                self.note('%s sampler %s with no texture bound (samples black)' % (kind, name))
        for name in b.get('shadow', {}):
            # the compiled percentage-closer filter is GL's for a depth texture with GL_LEQUAL and LINEAR filters
            tn = self.bound_tex[sampler_unit(name)]
            tx = self.textures.get(tn) if tn else None
            if tx and tx.depth and tx.compare and tx.compare_func == 'GL_LEQUAL' and \
                    tx.min_filter in ('GL_LINEAR', 'GL_NEAREST') and tx.mag_filter == tx.min_filter:
                self.shadow_ok.add(tn)
            else:
                self.note('sampler2DShadow on a texture other than a LINEAR or NEAREST depth texture with GL_LEQUAL')
                flags |= F_TEX_APPROX
        tag = comp['key'] if kind == 'ff' else '%08x' % comp['crc']
        vs_name = '%s:vs:%s%s' % (kind, tag, '+nomvp' if nomvp else '')
        fs_name = '%s:fs:%s' % (kind, tag)
        self.isa[vs_name] = comp['vs_words']
        self.isa[fs_name] = comp['fs_words']
        return (attrs, vs_name, fs_name, vs_origin, fs_origin, consts, cost, texunits, flags, consts)

    def ff_program(self, units, fog):
        """generated program for fixed-function state (traces/capture/ffgen.py), compiled once per state."""
        try:
            vs, fs, key = ffgen.generate(units, fog)
        except ffgen.Unsupported as e:
            return str(e)
        comp = self.compile_glsl(vs, fs, 'position')
        if isinstance(comp, dict):
            comp['key'] = key[3:]
        return comp

    def draw_arrays(self, call, mode, first, count):
        if self.cur_prog:
            self.emit_draw(call, mode, list(range(count)), self.glsl_fetch(first))
        else:
            self.emit_draw(call, mode, list(range(count)), self.ff_fetch(self.ff_arrays(first)))

    def draw_elements(self, call, mode, count, gltype, indices, basevertex=0):
        ebo = self.vao_state[self.vao]['ebo'] if self.cur_prog or self.vao else self.bound_buf['GL_ELEMENT_ARRAY_BUFFER']
        fmt = {'GL_UNSIGNED_INT': 'I', 'GL_UNSIGNED_SHORT': 'H', 'GL_UNSIGNED_BYTE': 'B'}[gltype]
        if ebo:
            blob, off = bytes(self.buffers[ebo]), int(indices or 0)
        else:
            blob, off = indices, 0
        if not isinstance(blob, (bytes, bytearray)):
            self.note('glDrawElements without index data skipped')
            return
        idx = list(struct.unpack_from('<%d%s' % (count, fmt), blob, off))
        idx = [i + basevertex for i in idx]
        if self.cur_prog:
            self.emit_draw(call, mode, idx, self.glsl_fetch(0))
        else:
            self.emit_draw(call, mode, idx, self.ff_fetch(self.ff_arrays(0)))

    def draw_immediate(self, call):
        mode, verts = self.immediate
        self.immediate = None
        if not verts:
            return
        pos = [v[0] for v in verts]
        arrays = {'vertex': lambda used: [pos[u] for u in used],
                  'color': lambda used: [verts[u][1] for u in used]}
        for u in range(2):
            arrays[('tex', u)] = (lambda uu: lambda used: [verts[x][2][uu] for x in used])(u)
        self.emit_draw(call, mode, list(range(len(verts))), self.ff_fetch(arrays))

    def clear(self, call, mask):
        if not self.emitting():
            if 'GL_COLOR_BUFFER_BIT' in str(mask) or (isinstance(mask, int) and mask & 0x4000):
                self.mark_rendered()
            return
        bits = 0
        m = str(mask)
        if 'GL_COLOR_BUFFER_BIT' in m:
            bits |= 1
        if 'GL_DEPTH_BUFFER_BIT' in m:
            bits |= 2
        if 'GL_STENCIL_BUFFER_BIT' in m:
            bits |= 4
        if isinstance(mask, int):
            bits = (1 if mask & 0x4000 else 0) | (2 if mask & 0x100 else 0) | (4 if mask & 0x400 else 0)
        if not bits:
            return
        if self.empty_rect(False):
            self.note('clears with an empty enabled scissor skipped (GL clears nothing; the trace format rejects '
                      'empty rectangles)')
            return
        if bits & 1:
            self.target_prior(call, clear=True)
        col, dep, size = self.targets()
        sc = self.scissor
        # GL clamps the clear colour for fixed-point buffers only: a floating-point target takes it as it is
        # (an RGBA8 target of the same clear still clamps: the model packs it to unorm8)
        floats = self.fbo and any(self.textures[n].ffmt for a, (kind, n) in self.fbos[self.fbo].items()
                                  if kind == 'tex' and 'COLOR' in a)
        ccol = self.clear_color if floats else [min(max(x, 0.0), 1.0) for x in self.clear_color]
        self.w('CLER z auto call %d color %d %s depth %s mask %d\n  value %s depth_value %s stencil %d\n'
               '  scissor %d x %d y %d w %d h %d color_mask %d depth_write %d' %
               (call, len(col), ' '.join(str(x) for x in col), 'none' if dep == NONE else dep, bits,
                ' '.join(f32(x) for x in ccol), f32(min(max(self.clear_depth, 0.0), 1.0)),
                self.clear_stencil & 0xffffffff, int('GL_SCISSOR_TEST' in self.caps), sc[0], sc[1], min(sc[2], 16384),
                min(sc[3], 16384), self.color_mask, int(self.depth_mask)))
        self.stats['clears'] += 1
        if bits & 1 and self.color_mask:
            self.written.update(col)
        if bits & 2 and dep != NONE and self.depth_mask:
            self.written.add(dep)

    # ------------------------------------------------------------------ texture upload
    def tex_image(self, name, level, w, h, fmt, typ, pixels, internal):
        t = self.textures[name]
        if level != 0:
            t.levels.add(level)
            self.check_level(t, level, w, h, fmt, typ, pixels)
            return
        t.levels = set()
        t.levels_differ = False
        t.w, t.h = w, h
        t.depth = 'DEPTH' in str(internal) or 'DEPTH' in str(fmt)
        t.base = base_format(internal, fmt)
        t.ffmt = float_format(internal)
        t.inexact = None if t.ffmt else inexact_format(internal)
        t.rgba = self.to_rgba(w, h, fmt, typ, pixels) if isinstance(pixels, (bytes, bytearray)) else None
        t.rgbaf, t.stale, t.asked = None, False, False
        t.version += 1

    def check_level(self, t, level, w, h, fmt, typ, pixels):
        """the model builds levels > 0 from level 0 with a truncating 2x2 box filter; an application that
        uploads other levels (its own filter) gets TEX_APPROX on the draws that minify with them."""
        if t.levels_differ or t.rgba is None or not isinstance(pixels, (bytes, bytearray)):
            return
        try:
            import numpy as np
        except ImportError:
            t.levels_differ = True
            return
        want = np.frombuffer(t.rgba, dtype=np.uint8).reshape(t.h, t.w, 4).astype(np.uint32)
        for _ in range(level):
            hh, ww = want.shape[0], want.shape[1]
            if ww > 1:
                want = want[:, 0:ww // 2 * 2:2] + want[:, 1:ww // 2 * 2:2]
            else:
                want = want * 2
            if hh > 1:
                want = (want[0:hh // 2 * 2:2] + want[1:hh // 2 * 2:2]) // 4
            else:
                want = want * 2 // 4
        got = self.to_rgba(w, h, fmt, typ, pixels)
        if got is None or want.shape[:2] != (h, w) or bytes(want.astype(np.uint8).tobytes()) != got:
            t.levels_differ = True
            self.note('application mip levels differ from the 2x2 box chain the model builds')

    def to_rgba(self, w, h, fmt, typ, pixels):
        if typ != 'GL_UNSIGNED_BYTE':
            self.note('texture type %s not converted (left blank)' % typ)
            return None
        comps = {'GL_RGBA': 4, 'GL_BGRA': 4, 'GL_RGB': 3, 'GL_BGR': 3, 'GL_LUMINANCE': 1, 'GL_ALPHA': 1,
                 'GL_LUMINANCE_ALPHA': 2, 'GL_RED': 1, 'GL_RG': 2}.get(fmt)
        if comps is None:
            self.note('texture format %s not converted' % fmt)
            return None
        align = self.unpack_align
        row = (w * comps + align - 1) // align * align
        out = bytearray(w * h * 4)
        for y in range(h):
            src = pixels[y * row:y * row + w * comps]
            if len(src) < w * comps:
                self.note('short texture data')
                return None
            if comps == 4:
                px = bytearray(src)
                if fmt == 'GL_BGRA':
                    px[0::4], px[2::4] = src[2::4], src[0::4]
            else:
                px = bytearray(w * 4)
                if comps == 3:
                    px[0::4], px[1::4], px[2::4] = src[0::3], src[1::3], src[2::3]
                    px[3::4] = b'\xff' * w
                    if fmt == 'GL_BGR':
                        px[0::4], px[2::4] = src[2::3], src[0::3]
                elif fmt in ('GL_LUMINANCE', 'GL_RED'):
                    px[0::4] = px[1::4] = px[2::4] = src
                    px[3::4] = b'\xff' * w
                elif fmt == 'GL_ALPHA':
                    px[0::4] = px[1::4] = px[2::4] = b'\xff' * w
                    px[3::4] = src
                else:
                    px[0::4] = px[1::4] = px[2::4] = src[0::2]
                    px[3::4] = src[1::2]
            out[y * w * 4:(y + 1) * w * 4] = px
        return bytes(out)

    def tex_sub_image(self, name, level, x, y, w, h, fmt, typ, pixels):
        t = self.textures[name]
        if level != 0 or not isinstance(pixels, (bytes, bytearray)):
            return
        if t.rgba is None:
            sid = self.surf_ids.get(('tex', name))
            if t.depth or not t.w or not t.h or (sid is not None and sid in self.written):
                self.note('glTexSubImage2D into a depth texture or a rendered texture not converted')
                return
            # storage allocated without data (engines upload with glTexImage2D(NULL) + glTexSubImage2D):
            # texels not covered by a sub-image are undefined in GL; zero here
            t.rgba = bytes(t.w * t.h * 4)
        sub = self.to_rgba(w, h, fmt, typ, pixels)
        if sub is None:
            return
        buf = bytearray(t.rgba)
        for r in range(h):
            if 0 <= y + r < t.h:
                x0, x1 = max(x, 0), min(x + w, t.w)
                buf[((y + r) * t.w + x0) * 4:((y + r) * t.w + x1) * 4] = sub[(r * w + x0 - x) * 4:(r * w + x1 - x) * 4]
        t.rgba = bytes(buf)
        t.rgbaf, t.asked = None, False
        t.version += 1

    # ------------------------------------------------------------------ call dispatch
    def handle(self, no, name, args, ret):
        try:
            self.handle_call(no, name, args, ret)
        finally:
            self.prev_call = no

    def handle_call(self, no, name, args, ret):
        a = dict(args)
        g = lambda k, d=None: a.get(k, d)
        n = name
        if n.endswith('ARB') or n.endswith('EXT'):
            n = n[:-3]
        if n in SWAPS:
            self.end_frame(no)
            return
        if n in ('glXMakeCurrent', 'glXMakeContextCurrent', 'eglMakeCurrent', 'wglMakeCurrent'):
            self.mc_no = no
        elif n == 'glViewport' and no == self.mc_no + 1:      # apitrace's fake viewport = drawable size
            self.win = (g('width'), g('height'))
            self.W, self.H = self.win
            if self.in_emit and self.frame_wins and self.frame_wins[-1] is None:
                self.frame_wins[-1] = self.win
        if n == 'glMatrixMode':
            self.mode = g('mode')
        elif n in ('glLoadMatrixf', 'glLoadMatrixd'):
            self.stacks.setdefault(self.mode, [list(IDENT)])[-1] = [float(x) for x in g('m')]
        elif n in ('glMultMatrixf', 'glMultMatrixd'):
            st = self.stacks.setdefault(self.mode, [list(IDENT)])
            st[-1] = mat_mul(st[-1], [float(x) for x in g('m')])
        elif n == 'glLoadIdentity':
            self.stacks.setdefault(self.mode, [list(IDENT)])[-1] = list(IDENT)
        elif n == 'glPushMatrix':
            st = self.stacks.setdefault(self.mode, [list(IDENT)])
            st.append(list(st[-1]))
        elif n == 'glPopMatrix':
            st = self.stacks.setdefault(self.mode, [list(IDENT)])
            if len(st) > 1:
                st.pop()
        elif n in ('glTranslatef', 'glTranslated', 'glScalef', 'glScaled', 'glRotatef', 'glRotated', 'glOrtho',
                   'glFrustum'):
            if n.startswith('glTranslate'):
                m = m_translate(g('x'), g('y'), g('z'))
            elif n.startswith('glScale'):
                m = m_scale(g('x'), g('y'), g('z'))
            elif n.startswith('glRotate'):
                m = m_rotate(g('angle'), g('x'), g('y'), g('z'))
            elif n == 'glOrtho':
                m = m_ortho(g('left'), g('right'), g('bottom'), g('top'), g('zNear'), g('zFar'))
            else:
                m = m_frustum(g('left'), g('right'), g('bottom'), g('top'), g('zNear'), g('zFar'))
            st = self.stacks.setdefault(self.mode, [list(IDENT)])
            st[-1] = mat_mul(st[-1], m)
        elif n in ('glEnable', 'glDisable'):
            cap = g('cap')
            if cap == 'GL_TEXTURE_2D':
                (self.tex_enabled.add if n == 'glEnable' else self.tex_enabled.discard)(self.active_unit)
            else:
                (self.caps.add if n == 'glEnable' else self.caps.discard)(cap)
        elif n in ('glEnableClientState', 'glDisableClientState'):
            arr = g('array')
            key = (arr, self.client_unit) if arr == 'GL_TEXTURE_COORD_ARRAY' else arr
            (self.client_enabled.add if n == 'glEnableClientState' else self.client_enabled.discard)(key)
        elif n in ('glVertexPointer', 'glColorPointer', 'glTexCoordPointer', 'glNormalPointer'):
            key = {'glVertexPointer': 'vertex', 'glColorPointer': 'color', 'glNormalPointer': 'normal'}.get(n)
            if key is None:
                key = ('tex', self.client_unit)
            size = g('size', 3)
            norm = key == 'color'
            self.client_arrays[key] = (size, g('type'), g('stride', 0), g('pointer'), self.bound_buf['GL_ARRAY_BUFFER'], norm)
        elif n == 'glActiveTexture':
            self.active_unit = int(str(g('texture')).replace('GL_TEXTURE', '') or 0)
        elif n == 'glClientActiveTexture':
            self.client_unit = int(str(g('texture')).replace('GL_TEXTURE', '') or 0)
        elif n == 'glBindTexture':
            self.bound_tex[self.active_unit] = g('texture')
        elif n == 'glTexImage2D':
            self.tex_image(self.bound_tex[self.active_unit], g('level'), g('width'), g('height'), g('format'),
                           g('type'), g('pixels'), g('internalformat'))
        elif n == 'glTexSubImage2D':
            self.tex_sub_image(self.bound_tex[self.active_unit], g('level'), g('xoffset'), g('yoffset'), g('width'),
                               g('height'), g('format'), g('type'), g('pixels'))
        elif n in ('glCopyTexImage2D', 'glCopyTexSubImage2D'):
            self.note('%s (copy from framebuffer) not converted' % n)
        elif n in ('glTexParameteri', 'glTexParameterf'):
            t = self.textures[self.bound_tex[self.active_unit]]
            p, v = g('pname'), g('param')
            if p == 'GL_TEXTURE_MIN_FILTER':
                t.min_filter = str(v)
            elif p == 'GL_TEXTURE_MAG_FILTER':
                t.mag_filter = str(v)
            elif p == 'GL_TEXTURE_WRAP_S':
                t.wrap_s = str(v)
            elif p == 'GL_TEXTURE_WRAP_T':
                t.wrap_t = str(v)
            elif p == 'GL_GENERATE_MIPMAP':
                t.gen_mipmap = v not in (0, 'GL_FALSE', False)
            elif p == 'GL_TEXTURE_COMPARE_MODE':
                t.compare = str(v) in ('GL_COMPARE_REF_TO_TEXTURE', 'GL_COMPARE_R_TO_TEXTURE')
            elif p == 'GL_TEXTURE_COMPARE_FUNC':
                t.compare_func = str(v)
        elif n in ('glGenerateMipmap', 'glGenerateMipmapEXT'):
            self.textures[self.bound_tex[self.active_unit]].gen_mipmap = True
        elif n in ('glFogi', 'glFogf', 'glFogfv', 'glFogiv'):
            p, v = g('pname'), g('param', g('params'))
            if p == 'GL_FOG_MODE':
                self.fog['mode'] = str(v)
            elif p in ('GL_FOG_START', 'GL_FOG_END', 'GL_FOG_DENSITY'):
                self.fog[p[7:].lower()] = float(v[0] if isinstance(v, (list, tuple)) else v)
            elif p == 'GL_FOG_COLOR' and isinstance(v, (list, tuple)):
                self.fog['color'] = [float(x) for x in v][:4]
        elif n in ('glTexEnvfv', 'glTexEnviv') and g('pname') == 'GL_TEXTURE_ENV_COLOR':
            self.env_color[self.active_unit] = [float(x) for x in g('params')][:4]
        elif n in ('glTexEnvi', 'glTexEnvf', 'glTexEnvfv', 'glTexEnviv'):
            pn = str(g('pname'))
            v = g('param', g('params'))
            if isinstance(v, (list, tuple)):
                v = v[0] if len(v) == 1 else v
            if pn == 'GL_TEXTURE_ENV_MODE':
                self.tex_env[self.active_unit] = env_enum(v)
            elif pn.replace('GL_SOURCE', 'GL_SRC') in ffgen.COMBINE_DEFAULTS:
                k = pn.replace('GL_SOURCE', 'GL_SRC')
                self.combine_state[self.active_unit][k] = float(v) if k.endswith('_SCALE') else env_enum(v)
        elif n == 'glPixelStorei':
            if g('pname') == 'GL_UNPACK_ALIGNMENT':
                self.unpack_align = g('param')
        elif n == 'glViewport':
            self.viewport = [g('x'), g('y'), g('width'), g('height')]
        elif n == 'glScissor':
            self.scissor = [g('x'), g('y'), g('width'), g('height')]
        elif n in ('glDepthRange', 'glDepthRangef'):
            self.depth_range = [float(g('zNear', g('n', 0.0))), float(g('zFar', g('f', 1.0)))]
        elif n == 'glDepthFunc':
            self.depth_func = g('func')
        elif n == 'glDepthMask':
            self.depth_mask = g('flag') in (True, 1, 'GL_TRUE')
        elif n == 'glColorMask':
            self.color_mask = sum((1 << i) for i, k in enumerate(('red', 'green', 'blue', 'alpha'))
                                  if g(k) in (True, 1, 'GL_TRUE'))
        elif n == 'glBlendFunc':
            self.blend = [g('sfactor'), g('dfactor'), g('sfactor'), g('dfactor')]
        elif n == 'glBlendFuncSeparate':
            self.blend = [g('sfactorRGB'), g('dfactorRGB'), g('sfactorAlpha'), g('dfactorAlpha')]
        elif n == 'glBlendEquation':
            self.blend_eq = [g('mode'), g('mode')]
        elif n == 'glBlendEquationSeparate':
            self.blend_eq = [g('modeRGB'), g('modeAlpha')]
        elif n == 'glBlendColor':
            self.blend_color = [g('red'), g('green'), g('blue'), g('alpha')]
        elif n == 'glAlphaFunc':
            self.alpha_func, self.alpha_ref = g('func'), float(g('ref'))
        elif n == 'glPolygonOffset':
            self.poly_offset = [float(g('factor')), float(g('units'))]
        elif n == 'glCullFace':
            self.cull_face = g('mode')
        elif n == 'glFrontFace':
            self.front_face = g('mode')
        elif n == 'glClearColor':
            self.clear_color = [g('red'), g('green'), g('blue'), g('alpha')]
        elif n in ('glClearDepth', 'glClearDepthf'):
            self.clear_depth = float(g('depth', g('d', 1.0)))
        elif n == 'glClearStencil':
            self.clear_stencil = g('s')
        elif n == 'glClear':
            self.clear(no, g('mask'))
        elif n in ('glColor4f', 'glColor3f', 'glColor4ub', 'glColor3ub', 'glColor4fv', 'glColor3fv', 'glColor4ubv'):
            if 'v' in a:
                vals = list(g('v'))
            else:
                vals = [g('red'), g('green'), g('blue')] + ([g('alpha')] if 'alpha' in a else [])
            if 'ub' in n:
                vals = [x / 255.0 for x in vals]
            self.cur_color = tuple(vals) + (1.0,) * (4 - len(vals))
        elif n.startswith('glTexCoord2f') or n.startswith('glMultiTexCoord2f'):
            if 'v' in a:
                s, t = g('v')[:2]
            else:
                s, t = g('s'), g('t')
            unit = int(str(g('target', 'GL_TEXTURE0')).replace('GL_TEXTURE', '') or 0)
            self.cur_tex[unit] = (s, t, 0.0, 1.0)
        elif n == 'glBegin':
            self.immediate = (g('mode'), [])
            self.begin_call = no
            self.begin_prev = self.prev_call
        elif n == 'glEnd':
            if self.immediate:   # glretrace --ppd reports an immediate-mode draw at its glBegin call
                self.draw_immediate(self.begin_call)
        elif n.startswith('glVertex2') or n.startswith('glVertex3') or n.startswith('glVertex4'):
            if self.immediate is not None:
                v = list(g('v')) if 'v' in a else [g(k) for k in ('x', 'y', 'z', 'w') if k in a]
                self.immediate[1].append((tuple(float(x) for x in v) + ((0.0,) if len(v) == 2 else ()),
                                          self.cur_color, (self.cur_tex[0], self.cur_tex[1])))
        elif n in ('glDrawArrays',):
            self.draw_arrays(no, g('mode'), g('first'), g('count'))
        elif n in ('glDrawElements', 'glDrawRangeElements', 'glDrawElementsBaseVertex'):
            self.draw_elements(no, g('mode'), g('count'), g('type'), g('indices'), g('basevertex', 0))
        elif n in ('glDrawArraysInstanced', 'glDrawElementsInstanced', 'glMultiDrawArrays', 'glMultiDrawElements'):
            self.note('%s not converted' % n)
        # buffers
        elif n == 'glBindBuffer':
            self.bound_buf[g('target')] = g('buffer')
            if g('target') == 'GL_ELEMENT_ARRAY_BUFFER':
                self.vao_state[self.vao]['ebo'] = g('buffer')
        elif n == 'glBufferData':
            b = self.bound_buf.get(g('target'), 0)
            d = g('data')
            self.buffers[b] = bytearray(d) if isinstance(d, (bytes, bytearray)) else bytearray(g('size') or 0)
        elif n == 'glBufferSubData':
            b = self.bound_buf.get(g('target'), 0)
            d, off = g('data'), g('offset')
            if isinstance(d, (bytes, bytearray)):
                buf = self.buffers[b]
                if len(buf) < off + len(d):
                    buf.extend(b'\0' * (off + len(d) - len(buf)))
                buf[off:off + len(d)] = d
        elif n in ('glMapBuffer', 'glMapBufferRange'):
            self.note('%s: mapped-buffer writes may be missing' % n)
        elif n == 'glBindVertexArray':
            self.vao = g('array')
        elif n == 'glVertexAttribPointer':
            self.vao_state[self.vao]['attribs'][g('index')] = (g('size'), g('type'), g('normalized') in (True, 1, 'GL_TRUE'),
                                                                g('stride'), g('pointer'), self.bound_buf['GL_ARRAY_BUFFER'])
        elif n == 'glEnableVertexAttribArray':
            self.vao_state[self.vao]['enabled'].add(g('index'))
        elif re.match(r'glVertexAttrib[1-4]f', n):
            v = [float(a[k]) for k in ('x', 'y', 'z', 'w') if k in a]
            if 'v' in a and isinstance(a['v'], (list, tuple)):
                v = [float(x) for x in a['v']]
            self.generic_attr[g('index')] = tuple(v) + (0.0, 0.0, 0.0, 1.0)[len(v):]
        elif n == 'glDisableVertexAttribArray':
            self.vao_state[self.vao]['enabled'].discard(g('index'))
        # shaders and programs
        elif n in ('glCreateShader', 'glCreateShaderObject'):
            self.shaders[ret] = (str(g('type', g('shaderType'))), '')
        elif n == 'glShaderSource':
            sh = g('shader', g('shaderObj'))
            strs = g('string')
            src = ''.join(strs) if isinstance(strs, (list, tuple)) else str(strs)
            self.shaders[sh] = (self.shaders.get(sh, ('', ''))[0], src)
        elif n in ('glCreateProgram', 'glCreateProgramObject'):
            self.programs[ret] = Program()
        elif n in ('glAttachShader', 'glAttachObject'):
            self.programs[g('program', g('containerObj'))].shaders.append(g('shader', g('obj')))
        elif n == 'glBindAttribLocation':
            self.programs[g('program')].attribs[g('name')] = g('index')
        elif n == 'glGetAttribLocation':
            if ret is not None and ret >= 0:
                self.programs[g('program')].attribs[g('name')] = ret
        elif n == 'glGetUniformLocation':
            if ret is not None and ret >= 0:
                self.programs[g('program')].uniforms[ret] = g('name')
        elif n in ('glUseProgram', 'glUseProgramObject'):
            self.cur_prog = g('program', g('programObj'))
        elif n.startswith('glUniform'):
            loc = g('location')
            prog = self.programs[self.cur_prog]
            if 'value' in a:
                vals = g('value')
                vals = list(vals) if isinstance(vals, (list, tuple)) else [vals]
                flat = []
                for v in vals:
                    flat.extend(v if isinstance(v, (list, tuple)) else [v])
                if 'Matrix4' in n and g('transpose') in (True, 1, 'GL_TRUE'):
                    flat = [flat[c * 4 + r] for r in range(4) for c in range(4)]
                prog.values[loc] = [float(x) for x in flat]
            else:
                prog.values[loc] = [float(a[k]) for k in ('v0', 'v1', 'v2', 'v3', 'x', 'y', 'z', 'w') if k in a]
        # framebuffers
        elif n in ('glBindFramebuffer',):
            if g('target') in ('GL_FRAMEBUFFER', 'GL_DRAW_FRAMEBUFFER'):
                self.fbo = g('framebuffer')
            if g('target') in ('GL_FRAMEBUFFER', 'GL_READ_FRAMEBUFFER'):
                self.read_fbo = g('framebuffer')
        elif n in ('glDrawBuffer', 'glDrawBuffers'):
            if self.fbo:
                bufs = g('bufs') if n == 'glDrawBuffers' else [g('mode')]
                self.draw_bufs[self.fbo] = [str(b) for b in (bufs if isinstance(bufs, (list, tuple)) else [bufs])]
        elif n == 'glBlitFramebuffer':
            self.blit(no, [g('srcX0'), g('srcY0'), g('srcX1'), g('srcY1')], [g('dstX0'), g('dstY0'), g('dstX1'), g('dstY1')],
                      str(g('mask')), g('filter'))
        elif n == 'glFramebufferTexture2D':
            self.fbos[self.fbo][g('attachment')] = ('tex', g('texture'))
        elif n == 'glFramebufferRenderbuffer':
            self.fbos[self.fbo][g('attachment')] = ('rb', g('renderbuffer'))
        elif n == 'glBindRenderbuffer':
            self.bound_rb = g('renderbuffer')
        elif n == 'glRenderbufferStorage':
            self.rbs[self.bound_rb] = (g('width'), g('height'), 'DEPTH' in str(g('internalformat')))
        elif n in ('glStencilFunc', 'glStencilOp'):
            pass
        elif n == 'glShadeModel':
            if g('mode') == 'GL_FLAT':
                self.note('flat shading requested (interpolated)')
        elif n == 'glLineWidth':
            self.line_width = min(max(float(g('width')), 1.0 / 256), 1024.0)
        elif n == 'glPointSize':
            self.point_size = min(max(float(g('size')), 1.0 / 256), 1024.0)
        elif n == 'glPolygonMode':
            if 'FILL' not in str(g('mode')):
                self.note('glPolygonMode %s ignored' % g('mode'))

    def run(self, stream):
        self.unpack_align = 4
        self.tex_scaled = set()
        self.tex_float_data = set()
        self.start_frame()
        for no, name, args, ret, flags in calls(stream):
            try:
                self.handle(no, name, args, ret)
            except (KeyError, ValueError, TypeError, struct.error, IndexError, ZeroDivisionError) as e:
                self.note('call %s failed to convert (%s: %s)' % (name, type(e).__name__, str(e)[:60]))
        if self.in_emit:      # trailing calls after the last swap: not a complete frame
            self.out = self.out[:self.frame_mark]
            self.in_emit = False


def count_frames(path):
    """Draw calls per frame (from apitrace dump-like pickle) for picking frames."""
    p = subprocess.Popen(['apitrace', 'pickle', '--symbolic', path], stdout=subprocess.PIPE)
    counts, tris = [0], [0]
    draws = ('glDrawElements', 'glDrawArrays', 'glDrawRangeElements', 'glEnd', 'glDrawElementsBaseVertex')
    for no, name, args, ret, flags in calls(p.stdout):
        if name in SWAPS:
            counts.append(0)
            tris.append(0)
        elif name in draws:
            counts[-1] += 1
            a = dict(args)
            if str(a.get('mode', '')).startswith('GL_TRIANGLE') or a.get('mode') in ('GL_QUADS', 'GL_POLYGON'):
                tris[-1] += max(int(a.get('count', 0) or 0) - (0 if a.get('mode') == 'GL_TRIANGLES' else 2), 0) // (
                    3 if a.get('mode') == 'GL_TRIANGLES' else 1)
    p.wait()
    count_frames.tris = tris
    return counts


def load_ppd(path):
    """glretrace --ppd output -> {call number: pixels drawn}."""
    ppd = {}
    if not path:
        return ppd
    with open(path) as f:
        header = None
        for line in f:
            cols = line.split()
            if not cols:
                continue
            if cols[0] == '#':
                header = cols[1:]
                continue
            if cols[0] == 'call' and header and 'pixels' in header and len(cols) > 1:
                try:
                    # rows: call <no> ... columns named by the header
                    vals = dict(zip(header, cols))
                    ppd[int(vals.get('no', cols[1]))] = int(vals['pixels'])
                except (ValueError, KeyError):
                    pass
    return ppd


def assemble_library(assembler, shader_dir):
    """name -> ISA program as u32 words (each 64-bit instruction = low word, high word), from the shader
    library cmodel/shaders/NAME.s, when the assembler exists (else programs carry names only)."""
    import tempfile
    words = {}
    if not assembler or not os.access(assembler, os.X_OK) or not os.path.isdir(shader_dir):
        return words
    with tempfile.TemporaryDirectory() as td:
        for fn in sorted(os.listdir(shader_dir)):
            if not fn.endswith('.s'):
                continue
            out = os.path.join(td, fn + '.bin')
            try:
                r = subprocess.run([assembler, os.path.join(shader_dir, fn), '-o', out], capture_output=True,
                                   timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                continue
            if r.returncode == 0 and os.path.exists(out):
                data = open(out, 'rb').read()
                if data and len(data) % 8 == 0:
                    words[fn[:-2]] = list(struct.unpack('<%dI' % (len(data) // 4), data))
    return words


def fail(msg):
    sys.stderr.write('apitrace2gpupd: error: %s\n' % msg)
    return 1


ENV_ENUMS = {0x1E01: 'GL_REPLACE', 0x2100: 'GL_MODULATE', 0x0104: 'GL_ADD', 0x2101: 'GL_DECAL', 0x0BE2: 'GL_BLEND',
             0x8570: 'GL_COMBINE', 0x8574: 'GL_ADD_SIGNED', 0x8575: 'GL_INTERPOLATE', 0x84E7: 'GL_SUBTRACT',
             0x86AE: 'GL_DOT3_RGB', 0x86AF: 'GL_DOT3_RGBA', 0x1702: 'GL_TEXTURE', 0x8576: 'GL_CONSTANT',
             0x8577: 'GL_PRIMARY_COLOR', 0x8578: 'GL_PREVIOUS', 0x0300: 'GL_SRC_COLOR',
             0x0301: 'GL_ONE_MINUS_SRC_COLOR', 0x0302: 'GL_SRC_ALPHA', 0x0303: 'GL_ONE_MINUS_SRC_ALPHA'}
ENV_ENUMS.update({0x84C0 + k: 'GL_TEXTURE%d' % k for k in range(32)})


def env_enum(v):
    """a texture-environment enum as apitrace shows it: a name, or a number when passed through glTexEnvf"""
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return ENV_ENUMS.get(int(v), str(v))
    return str(v)


def decode_state_image(img):
    """An image of apitrace's JSON state dump -> (w, h, RGBA8 bytes, float32 RGBA bytes or None), rows bottom
    first (apitrace writes top row first; traces store bottom row first). apitrace writes 8-bit images as PNG
    and every other channel type as float32 in its PNM variant (retrace/state_writer.cpp, lib/image/image_pnm.cpp):
    'Pf' one channel, 'PF' three, 'PX' four, header "ID\\nW H\\n1\\n" then host-order (little-endian) floats, which
    carry a binary16 or binary32 texture exactly. A one- or three-channel image gets alpha 1 (GL reads R and RG
    textures back as RGB with zeros)."""
    import base64
    import io
    raw = base64.b64decode(img['__data__'])
    if raw[:2] in (b'Pf', b'PF', b'PX'):
        chans = {b'Pf': 1, b'PF': 3, b'PX': 4}[raw[:2]]
        m = re.match(rb'P[fFX]\s+(?:#[^\n]*\n\s*)*(\d+)\s+(\d+)\s+(-?[\d.]+)\s', raw)
        if not m:
            raise ValueError('bad float image header')
        w, h = int(m.group(1)), int(m.group(2))
        vals = struct.unpack('<%df' % (w * h * chans), raw[m.end():m.end() + w * h * chans * 4])
        rows = []
        for y in range(h - 1, -1, -1):
            row = vals[y * w * chans:(y + 1) * w * chans]
            for x in range(w):
                px = row[x * chans:(x + 1) * chans]
                rows.append(tuple(px) + (0.0, 0.0, 1.0)[chans - 1:] if chans < 4 else tuple(px))
        f32 = struct.pack('<%df' % (4 * len(rows)), *[v for px in rows for v in px])
        rgba = bytes(min(max(int(round(v * 255.0)), 0), 255) if v == v else 0 for px in rows for v in px)
        return w, h, rgba, f32
    from PIL import Image
    im = Image.open(io.BytesIO(raw)).convert('RGBA')
    return im.size[0], im.size[1], im.transpose(Image.FLIP_TOP_BOTTOM).tobytes(), None


def state_images(st, needs):
    """The images `needs` [(key, what, slot, w, h)] names in one parsed state dump: {key: decode_state_image()}.
    what 'tex': the 2D texture bound to unit `slot`; 'fb': colour attachment `slot` of the draw framebuffer."""
    out = {}
    for key, what, slot, w, h in needs:
        try:
            if what == 'tex':
                img = st['textures']['GL_TEXTURE%d, GL_TEXTURE_2D, level = 0' % slot]
            else:
                img = st['framebuffer'][slot]
            got = decode_state_image(img)
        except (ValueError, KeyError, OSError, struct.error, ImportError) as e:
            sys.stderr.write('apitrace2gpupd: state dump: %s %s of texture %s not read (%s)\n' % (what, slot, key[0], e))
            continue
        if got[:2] != (w, h):
            sys.stderr.write('apitrace2gpupd: state dump: texture %s is %dx%d, expected %dx%d\n' % (
                key[0], got[0], got[1], w, h))
            continue
        out[key] = got
    return out


def prior_content(trace, need):
    """{(texture, call): (what, slot, w, h)} -> {(texture, call): (w, h, rgba, float32 rgba or None)} from
    `glretrace -D call` (the GL state after `call`, the call before the draw that needs the texture), one replay
    per call. Runs llvmpipe like the reference images (under xvfb-run when there is no X display). Textures it
    cannot read are left out (their draws stay flagged)."""
    import json
    env = dict(os.environ, LIBGL_ALWAYS_SOFTWARE='1', GALLIUM_DRIVER='llvmpipe', LP_NUM_THREADS='0')
    by_call = collections.defaultdict(list)
    for key, (what, slot, w, h) in need.items():
        by_call[key[1]].append((key, what, slot, w, h))
    out = {}
    for call in sorted(by_call):
        cmd = ['glretrace', '-D', str(call), trace]
        if not os.environ.get('DISPLAY'):
            # one lock per machine for every xvfb-run -a (two at once can pick the same display)
            cmd = ['flock', os.path.join(os.environ.get('TMPDIR', '/tmp'), 'gpupd-xvfb.lock'),
                   'xvfb-run', '-a', '-s', '-screen 0 1280x1024x24'] + cmd
        r = subprocess.run(cmd, capture_output=True, env=env)
        try:
            st = json.loads(r.stdout.decode('utf-8', 'replace'), strict=False)
        except ValueError as e:
            sys.stderr.write('apitrace2gpupd: glretrace -D %d: no state dump (%s)\n' % (call, e))
            continue
        out.update(state_images(st, sorted(by_call[call])))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('trace')
    ap.add_argument('--out', help='output .gpt (binary, via gpupd-trace undump)')
    ap.add_argument('--text', help='also keep the text form here')
    ap.add_argument('--name', default=None)
    ap.add_argument('--source', default='')
    ap.add_argument('--frames', default='all',
                    help='all | last | lastK | comma-separated frame numbers of the capture. Frames are numbered '
                         'from 0: frame N is the calls between the N-th and the (N+1)-th SwapBuffers (frame 0 ends '
                         'at the first SwapBuffers); only frames that end with a SwapBuffers exist')
    ap.add_argument('--width', type=int, default=None,
                    help='expected window width (default: the size the capture recorded; a mismatch is an error)')
    ap.add_argument('--height', type=int, default=None, help='expected window height (as --width)')
    ap.add_argument('--ppd', help='glretrace --ppd output for this capture (per-draw pixel counts)')
    ap.add_argument('--max-tex-dim', type=int, default=128, help='downscale larger textures (0: keep)')
    ap.add_argument('--zstd-level', type=int, default=19, choices=range(0, 20), metavar='0..19',
                    help='zstd level of the trace (format 1.5; default 19; 0 = chunks stored uncompressed)')
    ap.add_argument('--zlib', action='store_true', help='write zlib level 9 instead of zstd (format 1.1, or 1.2 if the trace has line/point draws)')
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # the repository
    ap.add_argument('--tool', default=os.path.join(root, 'build/bin/gpupd-trace'))
    ap.add_argument('--assembler', default=os.path.join(root, 'build/bin/gpupd-as'))
    ap.add_argument('--shaders', default=os.path.join(root, 'cmodel/shaders'))
    ap.add_argument('--stats', action='store_true', help='print draws per frame and exit')
    ap.add_argument('--meta', help='write a JSON summary (frames, swap call numbers, counts, notes)')
    ap.add_argument('--no-prior-content', action='store_true',
                    help='do not take the content of textures rendered before the converted frame(s), or float '
                         'content uploaded as bytes, from glretrace -D (their draws are then flagged)')
    a = ap.parse_args()
    if a.stats:
        counts = count_frames(a.trace)
        for i, c in enumerate(counts):      # frame, draw calls, approximate triangles
            print(i, c, count_frames.tris[i])
        return 0
    cv = Converter(a)
    cv.ppd = load_ppd(a.ppd)
    cv.isa = assemble_library(a.assembler, a.shaders)
    if a.frames.startswith('last'):
        k = int(a.frames[4:] or 1)             # 'last' or 'lastK': the last K complete frames
        n = len(count_frames(a.trace)) - 1     # frames completed by a swap
        cv.emit_frames = set(range(max(n - k, 0), n))
    elif a.frames != 'all':
        cv.emit_frames = {int(x) for x in a.frames.split(',')}
    p = subprocess.Popen(['apitrace', 'pickle', '--symbolic', a.trace], stdout=subprocess.PIPE)
    cv.run(p.stdout)
    if p.wait():
        return fail('apitrace pickle %s failed (not an apitrace capture?)' % a.trace)
    if cv.prior_need and not a.no_prior_content:
        # Textures sampled in the converted frame(s) whose content was rendered by earlier frames (e.g. glmark2
        # desktop's window textures): take it from the reference implementation's state at the first draw that
        # samples each one (glretrace -D on llvmpipe, the reference of the validation) and convert again with
        # it as the texture's data. That content becomes initial data of the trace (not work of the frame).
        prior = prior_content(a.trace, cv.prior_need)
        if prior:
            emit_frames = cv.emit_frames
            cv = Converter(a)
            cv.ppd = load_ppd(a.ppd)
            cv.isa = assemble_library(a.assembler, a.shaders)
            cv.emit_frames = emit_frames
            cv.prior_tex = prior
            p = subprocess.Popen(['apitrace', 'pickle', '--symbolic', a.trace], stdout=subprocess.PIPE)
            cv.run(p.stdout)
            if p.wait():
                return fail('apitrace pickle %s failed on the second pass' % a.trace)
    # loud failures instead of an empty or wrong trace
    if cv.emit_frames is not None:
        missing = sorted(set(cv.emit_frames) - set(cv.src_frames))
        if missing:
            return fail('frame(s) %s requested but the capture completes only %d frame(s) (0..%d, numbered from 0; '
                        'a frame exists only if a SwapBuffers ends it: a trimmed capture needs its final SwapBuffers)'
                        % (','.join(map(str, missing)), cv.frame, cv.frame - 1))
    if cv.frame_index == 0:
        return fail('no complete frame in the capture (no SwapBuffers call: trimmed without the final swap?)')
    if cv.empty_frames:
        return fail('%d of the converted frame(s) have no draw call (frames %s): pick frames with draws '
                    '(apitrace2gpupd.py CAPTURE --stats lists draws per frame)' % (cv.empty_frames, a.frames))
    wins = {w for w in cv.frame_wins if w is not None}
    if len(wins) > 1:
        return fail('the window size changes between the converted frames (%s)' % sorted(wins))
    if wins:
        W, H = wins.pop()
        if (a.width is not None and a.width != W) or (a.height is not None and a.height != H):
            return fail('the capture was made with a %dx%d window but --width/--height ask for %sx%s: drop the '
                        'options (the size is taken from the capture) or capture at the size you want'
                        % (W, H, a.width, a.height))
    elif a.width is None or a.height is None:
        return fail('the capture does not record the window size (no viewport after MakeCurrent): '
                    'give --width and --height')
    else:
        W, H = a.width, a.height
    cv.out = [x.replace('@W@', str(W)).replace('@H@', str(H)) if x.startswith('SURF z auto id ') else x
              for x in cv.out]
    if not cv.isa:
        cv.note('shader library not assembled yet: PROG chunks carry names only')
    if not cv.ppd:
        cv.note('no per-draw reference pixel counts')
    notes = '; '.join('%s x%d' % (k, v) for k, v in sorted(cv.notes.items()))
    name = a.name or os.path.splitext(os.path.basename(a.trace))[0]
    # format 1.5, zstd at --zstd-level (default 19; 0 = uncompressed): surfaces per chunk with the byte
    # transform the writer picks, the other chunks in the zstd stream (docs/trace-format.md); --zlib writes
    # format 1.1 with zlib level 9 as before, unless the trace has line or point draws (DRAW prim 1..4 exist
    # from 1.2 on): then format 1.2 with zlib level 9.
    lines_points = cv.stats['line_point_draws'] > 0
    # floating-point colour surfaces and more than 8 attributes exist from format 1.3 on, DRAW state_flags
    # (GL_DEPTH_CLAMP) from 1.4; zstd traces are format 1.5, whose zstd stream (chunk codec 3) compresses the
    # draws together and whose TEX_MED transform the textures (docs/trace-format.md); --zlib traces stay at
    # the lowest version that holds them
    minor = 4 if cv.stats['depth_clamp_draws'] else 3 if cv.stats['float_surfaces'] or cv.stats['attribs_over_8'] else 2
    if not a.zlib:
        minor = 5
    if minor < 4:
        cv.out = [re.sub(r' state_flags 0$', '', x, count=1, flags=re.M) if x.startswith('DRAW ') else x
                  for x in cv.out]
    if a.zlib and not lines_points:
        cv.out = [re.sub(r' line_width \S+ point_size \S+ prim_flags \d+$', '', x, count=1, flags=re.M)
                  if x.startswith('DRAW ') else x
                  for x in cv.out]
    if a.zlib and minor > 2:
        sys.exit('apitrace2gpupd: --zlib writes format 1.1/1.2, but this capture needs format 1.%d '
                 '(floating-point targets, more than 8 attributes or GL_DEPTH_CLAMP)' % minor)
    head = [('GPUPD-TRACE-TEXT version 1 2 zlevel 9 codec zlib' if lines_points else
             'GPUPD-TRACE-TEXT version 1 1 zlevel 9') if a.zlib else
            'GPUPD-TRACE-TEXT version 1 %d zlevel %d codec zstd' % (minor, a.zstd_level),
            'INFO w %d h %d frames %d' % (W, H, cv.frame_index),
            ' name %s' % qstr(name), ' source %s' % qstr(a.source or 'apitrace2gpupd.py %s frames %s' % (
                os.path.basename(a.trace), ','.join(str(f) for f in cv.src_frames))), ' notes %s' % qstr(notes)]
    text = '\n'.join(head + cv.out + ['END', ''])
    if a.text:
        with open(a.text, 'w') as f:
            f.write(text)
    sys.stderr.write('%s: %d frames, %d draws (%d emitted), %d primitives, %d clears\n' % (
        name, cv.frame_index, cv.stats['draws'], cv.stats['emitted'], cv.stats['prims'], cv.stats['clears']))
    for k, v in sorted(cv.notes.items()):
        sys.stderr.write('  not reproduced: %s x%d\n' % (k, v))
    if cv.prior_used:
        sys.stderr.write('  %d texture(s) with content from before the converted frame(s) or float content uploaded as '
                         'bytes: taken from glretrace -D (the reference implementation\'s state before the first draw '
                         'reading each)\n' % len(cv.prior_used))
    if a.meta:
        import json
        with open(a.meta, 'w') as f:
            json.dump({'name': name, 'frames': cv.src_frames, 'swap_calls': cv.swap_calls,
                       'draws': cv.stats['emitted'], 'triangles': cv.stats['prims'], 'clears': cv.stats['clears'],
                       'notes': dict(cv.notes), 'prior_content': len(cv.prior_used)}, f, indent=1, sort_keys=True)
    if a.out:
        r = subprocess.run([a.tool, 'undump', '-', a.out], input=text.encode())
        if r.returncode:
            sys.stderr.write('apitrace2gpupd: gpupd-trace undump rejected the converted trace\n')
            return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
