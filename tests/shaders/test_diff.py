#!/usr/bin/python3
"""Differential test of compiled shaders against llvmpipe: tests/shaders/glslscene.py (GLSL lighting with a
loop and a function, discard, vertex texture fetch, fixed-function multitexture, DECAL, mirrored repeat,
mipmaps) is drawn by Mesa llvmpipe under Xvfb and captured with apitrace; the converter compiles its
programs to the ISA; the golden model renders the converted frame on the ISA interpreter.

Checks: every draw carries compiled or generated programs (no library stand-in, no approximation flag);
every draw's pixel count equals glretrace --ppd exactly (discard reproduced); >= 99 % of the pixels within
8/255 of the llvmpipe frame (SHADER_DIFF_MIN). The converter's errors are checked on the same capture:
a window size other than the capture's, a frame the capture does not complete.
Prints 'test-shader-diff: N passed, M failed' and the commands to reproduce a failure.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
passed, failed = 0, 0


def check(cond, what, detail=''):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print('FAIL: %s %s' % (what, detail))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--work', required=True)
    ap.add_argument('--min-within', type=float, default=float(os.environ.get('SHADER_DIFF_MIN', '99.0')))
    a = ap.parse_args()
    w = os.path.abspath(a.work)
    os.makedirs(w, exist_ok=True)
    env = dict(os.environ, LIBGL_ALWAYS_SOFTWARE='1', GALLIUM_DRIVER='llvmpipe', LP_NUM_THREADS='0')
    xvfb = ['xvfb-run', '-a', '-s', '-screen 0 1024x768x24']
    # two xvfb-run -a at once can collide: serialise on one lock per machine
    lock = ['flock', os.path.join(os.environ.get('TMPDIR', '/tmp'), 'gpupd-xvfb.lock')]
    raw = os.path.join(w, 'raw.trace')
    if os.path.exists(raw):
        os.remove(raw)
    r = subprocess.run(lock + xvfb + ['apitrace', 'trace', '-o', raw, sys.executable, os.path.join(HERE, 'glslscene.py')],
                       env=env, capture_output=True, text=True)
    if r.returncode or not os.path.exists(raw):
        print('FAIL: capture: %s' % r.stderr[-500:])
        return 1
    # one command from the capture to the validated trace (reference image, per-draw counts)
    out = os.path.join(w, 'out')
    r = subprocess.run([os.path.join(ROOT, 'traces/capture/capture.sh'), 'convert', raw, 'scene', 'last'],
                       env=dict(env, OUT=out, WORK=os.path.join(w, 'work')), capture_output=True, text=True)
    check(r.returncode == 0, 'capture.sh convert', r.stderr[-800:])
    vj = os.path.join(w, 'work', 'scene', 'validate.json')
    if not os.path.exists(vj):
        print('test-shader-diff: %d passed, %d failed' % (passed, failed + 1))
        return 1
    j = json.load(open(vj))
    gpt = os.path.join(out, 'scene.gpt')
    draws = subprocess.run([os.path.join(ROOT, 'build/bin/gpupd-trace'), 'draws', gpt], capture_output=True,
                           text=True).stdout.strip().split('\n')[1:]
    check(len(draws) == 5, 'five draws converted', '(got %d)' % len(draws))
    for line in draws:
        f = line.split('\t')
        check(f[5].split(':')[0] in ('glsl', 'ff') and f[6].split(':')[0] in ('glsl', 'ff') and f[-1] == '0',
              'draw %s: compiled programs, not approximated' % f[1], line)
    repro = '(reproduce: traces/capture/capture.sh convert %s scene; gpupd-sim validate --trace %s --ref %s/scene.png ' \
            '--diff diff.png)' % (raw, gpt, out)
    check(j['draws_with_ref'] == 5 and j['draws_exact'] == 5, 'per-draw pixel counts exact',
          '%d of %d %s' % (j['draws_exact'], j['draws_with_ref'], repro))
    within = 100.0 * j['image_close8']
    check(within >= a.min_within, 'image within 8/255 >= %.1f %%' % a.min_within, '(%.2f %%) %s' % (within, repro))
    print('test-shader-diff: image within 8/255 %.2f %%, PSNR %.1f dB, draws exact %d/%d' % (
        within, j['psnr_db'], j['draws_exact'], j['draws_with_ref']))
    # the converter's errors, as a user meets them
    conv = [sys.executable, os.path.join(ROOT, 'traces/capture/apitrace2gpupd.py'), raw, '--out', os.path.join(w, 'x.gpt')]
    r = subprocess.run(conv + ['--width', '640', '--height', '480'], capture_output=True, text=True, cwd='/')
    check(r.returncode != 0 and '160x120 window' in r.stderr, 'a window size other than the capture\'s is an error',
          r.stderr[-300:])
    r = subprocess.run(conv + ['--frames', '7'], capture_output=True, text=True, cwd='/')
    check(r.returncode != 0 and 'completes only 2 frame' in r.stderr, 'a frame beyond the last SwapBuffers is an error',
          r.stderr[-300:])
    r = subprocess.run(conv + ['--frames', 'last'], capture_output=True, text=True, cwd='/')
    check(r.returncode == 0, 'the converter runs from another directory', r.stderr[-300:])
    print('test-shader-diff: %d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
