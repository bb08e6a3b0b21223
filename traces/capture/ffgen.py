"""OpenGL 1.x fixed-function state -> an equivalent GLSL program, compiled to the ISA by glsl2isa.

The converter uses it for fixed-function draws the shader library cannot express exactly: several texture
units (multitexture lightmaps), texture environments other than MODULATE, texture matrices, linear/exp
fog. The generated source is plain GLSL 1.10 that follows the GL 1.5 specification's equations (section
3.8.13 texture environments, 3.10 fog), so it goes through the same front end as the application's own
shaders (docs/shader-compiler.md); programs are named `ff:<key>`.

Per unit: (env, base, texmat[, combine]) with env one of GL_MODULATE, GL_REPLACE, GL_DECAL, GL_ADD, GL_BLEND,
GL_COMBINE and base 'rgba' | 'rgb' | 'alpha' | 'luminance' | 'luminance_alpha' | 'intensity' (the texture's base
internal format: GL uses it to pick the equations; the trace stores every texture as RGBA8, expanded as GL
expands it, so GL_COMBINE's texture sources are the stored texel). For GL_COMBINE, `combine` is a dict of the
unit's GL 1.5 section 3.8.13 state (combine(), below, fills GL's defaults): functions GL_COMBINE_RGB /
GL_COMBINE_ALPHA (REPLACE, MODULATE, ADD, ADD_SIGNED, INTERPOLATE, SUBTRACT, DOT3_RGB, DOT3_RGBA), sources
GL_SRCn_RGB / GL_SRCn_ALPHA (TEXTURE, TEXTUREk of another enabled unit, CONSTANT, PRIMARY_COLOR, PREVIOUS),
operands GL_OPERANDn_RGB / GL_OPERANDn_ALPHA and the scales GL_RGB_SCALE / GL_ALPHA_SCALE (1, 2, 4).
"""

ENVS = ('GL_MODULATE', 'GL_REPLACE', 'GL_DECAL', 'GL_ADD', 'GL_BLEND', 'GL_COMBINE')

COMBINE_DEFAULTS = {
    'GL_COMBINE_RGB': 'GL_MODULATE', 'GL_COMBINE_ALPHA': 'GL_MODULATE',
    'GL_SRC0_RGB': 'GL_TEXTURE', 'GL_SRC1_RGB': 'GL_PREVIOUS', 'GL_SRC2_RGB': 'GL_CONSTANT',
    'GL_SRC0_ALPHA': 'GL_TEXTURE', 'GL_SRC1_ALPHA': 'GL_PREVIOUS', 'GL_SRC2_ALPHA': 'GL_CONSTANT',
    'GL_OPERAND0_RGB': 'GL_SRC_COLOR', 'GL_OPERAND1_RGB': 'GL_SRC_COLOR', 'GL_OPERAND2_RGB': 'GL_SRC_ALPHA',
    'GL_OPERAND0_ALPHA': 'GL_SRC_ALPHA', 'GL_OPERAND1_ALPHA': 'GL_SRC_ALPHA', 'GL_OPERAND2_ALPHA': 'GL_SRC_ALPHA',
    'GL_RGB_SCALE': 1.0, 'GL_ALPHA_SCALE': 1.0,
}
# arguments each combine function reads
COMBINE_ARGS = {'GL_REPLACE': 1, 'GL_MODULATE': 2, 'GL_ADD': 2, 'GL_ADD_SIGNED': 2, 'GL_SUBTRACT': 2,
                'GL_INTERPOLATE': 3, 'GL_DOT3_RGB': 2, 'GL_DOT3_RGBA': 2}


class Unsupported(ValueError):
    pass


def combine(state):
    """GL texture-environment parameters of one unit (pname -> value; GL_SOURCEn_* spelled as GL_SRCn_*)
    -> the complete combine state with GL's defaults."""
    c = dict(COMBINE_DEFAULTS)
    for k, v in state.items():
        k = k.replace('GL_SOURCE', 'GL_SRC')
        if k in c:
            c[k] = float(v) if k.endswith('_SCALE') else str(v)
    return c


def combine_sources(cb):
    """GL units whose texture a combine state reads through GL_TEXTUREk (the crossbar)."""
    out = set()
    for k, v in cb.items():
        if k.startswith('GL_SRC') and isinstance(v, str) and v.startswith('GL_TEXTURE') and v != 'GL_TEXTURE':
            out.add(int(v[len('GL_TEXTURE'):]))
    return out


def combine_code(i, cb):
    """GLSL block applying GL_COMBINE (GL 1.5 tables 3.19-3.21) of unit i to `c`: sources are t<i> (this unit's
    texel), t<k> (GL_TEXTUREk), envcolor<i>, v_color (primary colour) and c (previous)."""
    def src(name):
        if name == 'GL_TEXTURE':
            return 't%d' % i
        if name.startswith('GL_TEXTURE') and name[10:].isdigit():
            return 't%d' % int(name[10:])
        return {'GL_CONSTANT': 'envcolor%d' % i, 'GL_PRIMARY_COLOR': 'v_color', 'GL_PREVIOUS': 'c'}[name]

    def op_rgb(s, op):
        return {'GL_SRC_COLOR': '%s.rgb' % s, 'GL_ONE_MINUS_SRC_COLOR': '(vec3(1.0) - %s.rgb)' % s,
                'GL_SRC_ALPHA': 'vec3(%s.a)' % s, 'GL_ONE_MINUS_SRC_ALPHA': 'vec3(1.0 - %s.a)' % s}[op]

    def op_a(s, op):
        return {'GL_SRC_ALPHA': '%s.a' % s, 'GL_ONE_MINUS_SRC_ALPHA': '(1.0 - %s.a)' % s}[op]

    def fn(f, a, one):
        if f == 'GL_REPLACE':
            return a[0]
        if f == 'GL_MODULATE':
            return '%s * %s' % (a[0], a[1])
        if f == 'GL_ADD':
            return '%s + %s' % (a[0], a[1])
        if f == 'GL_ADD_SIGNED':
            return '%s + %s - %s' % (a[0], a[1], one % 0.5)
        if f == 'GL_SUBTRACT':
            return '%s - %s' % (a[0], a[1])
        if f == 'GL_INTERPOLATE':
            return '%s * %s + %s * (%s - %s)' % (a[0], a[2], a[1], one % 1.0, a[2])
        raise Unsupported('texture combine function %s' % f)

    frgb, fa = cb['GL_COMBINE_RGB'], cb['GL_COMBINE_ALPHA']
    for f in (frgb, fa):
        if f not in COMBINE_ARGS or (f is fa and f.startswith('GL_DOT3')):
            raise Unsupported('texture combine function %s' % f)
    for k in ('GL_RGB_SCALE', 'GL_ALPHA_SCALE'):
        if cb[k] not in (1.0, 2.0, 4.0):
            raise Unsupported('%s %r' % (k, cb[k]))
    try:
        ar = [op_rgb(src(cb['GL_SRC%d_RGB' % n]), cb['GL_OPERAND%d_RGB' % n]) for n in range(COMBINE_ARGS[frgb])]
        aa = [op_a(src(cb['GL_SRC%d_ALPHA' % n]), cb['GL_OPERAND%d_ALPHA' % n]) for n in range(COMBINE_ARGS[fa])]
    except KeyError as e:
        raise Unsupported('texture combine source/operand %s' % e)
    if frgb.startswith('GL_DOT3'):
        d = '4.0 * dot(%s - vec3(0.5), %s - vec3(0.5))' % (ar[0], ar[1])
        rgb = 'vec3(%s)' % d
        alpha = d if frgb == 'GL_DOT3_RGBA' else fn(fa, aa, 'float(%r)')
    else:
        rgb = fn(frgb, ar, 'vec3(%r)')
        alpha = fn(fa, aa, 'float(%r)')
    # DOT3_RGBA scales its alpha by RGB_SCALE too (the dot product is one result; Mesa does the same)
    ascale = cb['GL_RGB_SCALE'] if frgb == 'GL_DOT3_RGBA' else cb['GL_ALPHA_SCALE']
    # all arguments are read before `c` (GL_PREVIOUS) is replaced
    return ('{ vec3 cr%d = (%s) * %r; float ca%d = (%s) * %r; c = clamp(vec4(cr%d, ca%d), 0.0, 1.0); }'
            % (i, rgb, cb['GL_RGB_SCALE'], i, alpha, ascale, i, i))


def combine_key(cb):
    """short stable text of a combine state for program names"""
    ab = {'GL_REPLACE': 'r', 'GL_MODULATE': 'm', 'GL_ADD': 'a', 'GL_ADD_SIGNED': 's', 'GL_SUBTRACT': 'u',
          'GL_INTERPOLATE': 'i', 'GL_DOT3_RGB': 'd', 'GL_DOT3_RGBA': 'D', 'GL_TEXTURE': 'T', 'GL_CONSTANT': 'K',
          'GL_PRIMARY_COLOR': 'P', 'GL_PREVIOUS': 'V', 'GL_SRC_COLOR': 'c', 'GL_ONE_MINUS_SRC_COLOR': 'C',
          'GL_SRC_ALPHA': 'a', 'GL_ONE_MINUS_SRC_ALPHA': 'A'}

    def a(v):
        return ab.get(v, v.replace('GL_TEXTURE', 'T') if isinstance(v, str) else v)
    s = a(cb['GL_COMBINE_RGB']) + a(cb['GL_COMBINE_ALPHA'])
    for n in range(3):
        s += a(cb['GL_SRC%d_RGB' % n]) + a(cb['GL_OPERAND%d_RGB' % n]) + a(cb['GL_SRC%d_ALPHA' % n]) + \
            a(cb['GL_OPERAND%d_ALPHA' % n])
    return s + '%d%d' % (int(cb['GL_RGB_SCALE']), int(cb['GL_ALPHA_SCALE']))


def texenv(i, env, base, cb=None):
    """GLSL statement(s) applying texture environment i to `c` with texel `t{i}`."""
    if env == 'GL_COMBINE':
        return combine_code(i, combine(cb or {}))
    t = 't%d' % i
    rgb_only = base in ('rgb', 'luminance')
    alpha_only = base == 'alpha'
    if env == 'GL_REPLACE':
        if rgb_only:
            return 'c.rgb = %s.rgb;' % t
        if alpha_only:
            return 'c.a = %s.a;' % t
        return 'c = %s;' % t
    if env == 'GL_MODULATE':
        if rgb_only:
            return 'c.rgb = c.rgb * %s.rgb;' % t
        if alpha_only:
            return 'c.a = c.a * %s.a;' % t
        return 'c = c * %s;' % t
    if env == 'GL_DECAL':
        if rgb_only:
            return 'c.rgb = %s.rgb;' % t
        return 'c.rgb = mix(c.rgb, %s.rgb, %s.a);' % (t, t)
    if env == 'GL_ADD':
        if rgb_only:
            return 'c.rgb = min(c.rgb + %s.rgb, vec3(1.0));' % t
        if alpha_only:
            return 'c.a = c.a * %s.a;' % t
        return 'c.rgb = min(c.rgb + %s.rgb, vec3(1.0)); c.a = c.a * %s.a;' % (t, t)
    if env == 'GL_BLEND':
        s = 'c.rgb = mix(c.rgb, envcolor%d.rgb, %s.rgb);' % (i, t)
        if not rgb_only:
            s += ' c.a = c.a * %s.a;' % t
        return s
    raise ValueError(env)


def generate(units, fog=None):
    """units: list of (unit, env, base, texmat[, combine state]); fog: None | 'GL_LINEAR' | 'GL_EXP' | 'GL_EXP2'.
    Returns (vs, fs, key). Attributes: position, color, tc<unit>; uniforms mvp, mv (fog), texmat<unit>,
    envcolor<unit>, fogcolor/fogparams; samplers s<unit>. Raises Unsupported for a combine state outside
    GL 1.5 (or reading the texture of a unit that is not enabled)."""
    units = [tuple(x) + (None,) * (5 - len(x)) for x in units]
    enabled = {u for u, _, _, _, _ in units}
    vs = ['attribute vec4 position;', 'attribute vec4 color;', 'uniform mat4 mvp;', 'varying vec4 v_color;']
    fs = ['varying vec4 v_color;']
    body_v = ['gl_Position = mvp * position;', 'v_color = color;']
    body_f = ['vec4 c = v_color;']
    has_combine = any(env == 'GL_COMBINE' for _, env, _, _, _ in units)
    later = []
    for u, env, base, texmat, cb in units:
        vs += ['attribute vec4 tc%d;' % u, 'varying vec4 v_tc%d;' % u]
        fs += ['varying vec4 v_tc%d;' % u, 'uniform sampler2D s%d;' % u]
        if texmat:
            vs.append('uniform mat4 texmat%d;' % u)
            body_v.append('v_tc%d = texmat%d * tc%d;' % (u, u, u))
        else:
            body_v.append('v_tc%d = tc%d;' % (u, u))
        if env in ('GL_BLEND', 'GL_COMBINE'):
            fs.append('uniform vec4 envcolor%d;' % u)
        if env == 'GL_COMBINE':
            missing = combine_sources(combine(cb or {})) - enabled
            if missing:
                raise Unsupported('texture combine reads unit(s) %s, not enabled' % sorted(missing))
        if texmat:
            body_f.append('vec4 t%d = texture2DProj(s%d, v_tc%d.xyw);' % (u, u, u))
        else:
            body_f.append('vec4 t%d = texture2D(s%d, v_tc%d.xy);' % (u, u, u))
        # with GL_COMBINE every texel is fetched first (GL_TEXTUREk may name a later unit)
        env_code = [texenv(u, env, base, cb), 'c = clamp(c, 0.0, 1.0);']
        if has_combine:
            later += env_code
        else:
            body_f += env_code
    body_f += later
    if fog:
        vs += ['uniform mat4 mv;', 'varying float v_fogz;']
        body_v.append('v_fogz = abs((mv * position).z);')
        fs += ['varying float v_fogz;', 'uniform vec4 fogcolor;', 'uniform vec4 fogparams;']   # start end density
        if fog == 'GL_LINEAR':
            body_f.append('float f = (fogparams.y - v_fogz) / (fogparams.y - fogparams.x);')
        elif fog == 'GL_EXP':
            body_f.append('float f = exp(-fogparams.z * v_fogz);')
        else:
            body_f.append('float f = exp(-(fogparams.z * v_fogz) * (fogparams.z * v_fogz));')
        body_f.append('c.rgb = mix(fogcolor.rgb, c.rgb, clamp(f, 0.0, 1.0));')
    body_f.append('gl_FragColor = c;')
    v = '\n'.join(vs) + '\nvoid main()\n{\n    ' + '\n    '.join(body_v) + '\n}\n'
    f = '\n'.join(fs) + '\nvoid main()\n{\n    ' + '\n    '.join(body_f) + '\n}\n'
    key = 'ff:' + '+'.join('%d%s%s%s%s' % (u, env[3:6].lower(), base[:3], 'm' if tm else '',
                                           combine_key(combine(cb or {})) if env == 'GL_COMBINE' else '')
                           for u, env, base, tm, cb in units) + ('+fog' + fog[3:6].lower() if fog else '')
    return v, f, key
