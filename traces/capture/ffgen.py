"""OpenGL 1.x fixed-function state -> an equivalent GLSL program, compiled to the ISA by glsl2isa.

The converter uses it for fixed-function draws the shader library cannot express exactly: several texture
units (multitexture lightmaps), texture environments other than MODULATE, texture matrices, linear/exp
fog. The generated source is plain GLSL 1.10 that follows the GL 1.5 specification's equations (section
3.8.13 texture environments, 3.10 fog), so it goes through the same front end as the application's own
shaders (docs/shader-compiler.md); programs are named `ff:<key>`.

Per unit: (env, base, texmat) with env one of GL_MODULATE, GL_REPLACE, GL_DECAL, GL_ADD, GL_BLEND and base
'rgba' | 'rgb' | 'alpha' | 'luminance' | 'luminance_alpha' | 'intensity' (the texture's base internal format:
GL uses it to pick the equations; the trace stores every texture as RGBA8).
"""

ENVS = ('GL_MODULATE', 'GL_REPLACE', 'GL_DECAL', 'GL_ADD', 'GL_BLEND')


def texenv(i, env, base):
    """GLSL statement(s) applying texture environment i to `c` with texel `t{i}`."""
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
    """units: list of (unit, env, base, texmat); fog: None | 'GL_LINEAR' | 'GL_EXP' | 'GL_EXP2'.
    Returns (vs, fs, key). Attributes: position, color, tc<unit>; uniforms mvp, mv (fog), texmat<unit>,
    envcolor<unit>, fogcolor/fogparams; samplers s<unit>."""
    vs = ['attribute vec4 position;', 'attribute vec4 color;', 'uniform mat4 mvp;', 'varying vec4 v_color;']
    fs = ['varying vec4 v_color;']
    body_v = ['gl_Position = mvp * position;', 'v_color = color;']
    body_f = ['vec4 c = v_color;']
    for i, (u, env, base, texmat) in enumerate(units):
        vs += ['attribute vec4 tc%d;' % u, 'varying vec4 v_tc%d;' % u]
        fs += ['varying vec4 v_tc%d;' % u, 'uniform sampler2D s%d;' % u]
        if texmat:
            vs.append('uniform mat4 texmat%d;' % u)
            body_v.append('v_tc%d = texmat%d * tc%d;' % (u, u, u))
        else:
            body_v.append('v_tc%d = tc%d;' % (u, u))
        if env == 'GL_BLEND':
            fs.append('uniform vec4 envcolor%d;' % u)
        if texmat:
            body_f.append('vec4 t%d = texture2DProj(s%d, v_tc%d.xyw);' % (u, u, u))
        else:
            body_f.append('vec4 t%d = texture2D(s%d, v_tc%d.xy);' % (u, u, u))
        body_f.append(texenv(u, env, base))
        body_f.append('c = clamp(c, 0.0, 1.0);')
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
    key = 'ff:' + '+'.join('%d%s%s%s' % (u, env[3:6].lower(), base[:3], 'm' if tm else '') for u, env, base, tm in units) \
        + ('+fog' + fog[3:6].lower() if fog else '')
    return v, f, key
