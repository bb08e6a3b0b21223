#!/usr/bin/python3
"""Image agreement of the golden model with llvmpipe on every bundled frame, kept from regressing.

For every bundled trace and every frame with a reference image (traces/NAME.png or NAME.fK.png), runs
`gpupd-sim validate` (default shading: the trace's compiled programs on the ISA interpreter, library
programs built in) and compares the share of pixels within 8/255 and the PSNR with the floors in
tests/shaders/agreement.tsv (the numbers measured when the traces were bundled, docs/validation.md, minus
a margin of 0.5 percentage points / 0.5 dB). Also prints the goal of issue 11 (>= 99 % of pixels within
8/255, >= 99 % of draws with exact pixel counts) per frame, as information; where agreement.tsv gives a goal
column (the 1920x1080 frames of issue 22: 99), both shares must reach it, without margin. An optional sixth
column names the texture filtering the frame is validated with (gpupd-sim --tex-filter; default float).

Second check (item 7): on traces carrying compiled programs, the fast built-in path (--shaders builtin)
must produce the same per-draw pixel counts as the interpreter for every draw whose position the MVP rows
describe and whose program does not discard (it is a documented approximation of the colours only).
Prints 'test-shader-agreement: N passed, M failed'.
"""
import argparse
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from checks import Checks  # noqa: E402

check = Checks('test-shader-agreement')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--sim', default=os.path.join(ROOT, 'build/bin/gpupd-sim'))
    ap.add_argument('--tool', default=os.path.join(ROOT, 'build/bin/gpupd-trace'))
    ap.add_argument('--floors', default=os.path.join(HERE, 'agreement.tsv'))
    ap.add_argument('--work', required=True)
    ap.add_argument('--measure', action='store_true', help='print a new floors table instead of checking')
    ap.add_argument('--builtin-traces', default=None,
                    help='space-separated .gpt files for the second check (default: every bundled trace)')
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    floors = {}
    if os.path.exists(a.floors):
        for line in open(a.floors):
            if line.startswith('#') or not line.strip():
                continue
            f = line.split()
            name, frame, close8, psnr = f[:4]
            goal = float(f[4]) if len(f) > 4 and f[4] != '-' else None
            texf = f[5] if len(f) > 5 else 'float'
            if texf not in ('float', 'llvmpipe'):
                sys.exit('test-shader-agreement: %s: %s frame %s: tex_filter %r (expected float or llvmpipe)' % (
                    a.floors, name, frame, texf))
            floors[(name, int(frame))] = (float(close8), float(psnr), goal, texf)
    rows = []
    for t in sorted(glob.glob(os.path.join(ROOT, 'traces', '*.gpt'))):
        name = os.path.basename(t)[:-4]
        refs = [(0, os.path.join(ROOT, 'traces', name + '.png'))] if os.path.exists(
            os.path.join(ROOT, 'traces', name + '.png')) else \
            sorted((int(p.rsplit('.f', 1)[1][:-4]), p) for p in glob.glob(os.path.join(ROOT, 'traces', name + '.f*.png')))
        for frame, ref in refs:
            js = os.path.join(a.work, '%s.f%d.json' % (name, frame))
            texf = floors[(name, frame)][3] if (name, frame) in floors else 'float'
            cmd = [a.sim, 'validate', '--trace', t, '--frame', str(frame), '--tex-filter', texf, '--ref', ref,
                   '--json', js, '-q']
            r = subprocess.run(cmd, capture_output=True, text=True)
            if not os.path.exists(js):
                check(False, '%s frame %d: validate ran' % (name, frame), r.stderr[-300:])
                continue
            j = json.load(open(js))
            close8, psnr = 100.0 * j['image_close8'], j['psnr_db']
            exact = 100.0 * j['draws_exact'] / max(1, j['draws_with_ref'])
            rows.append((name, frame, close8, psnr, exact, texf))
            goal = 'goal met' if close8 >= 99.0 and exact >= 99.0 else 'goal not met'
            print('%-22s frame %d: within 8/255 %6.2f %%, PSNR %5.1f dB, draws exact %6.2f %% (%s)%s' % (
                name, frame, close8, psnr, exact, goal, '' if texf == 'float' else ', --tex-filter ' + texf))
            if a.measure:
                continue
            fl = floors.get((name, frame))
            check(fl is not None, '%s frame %d has a floor in %s' % (name, frame, a.floors))
            if fl:
                check(close8 >= fl[0] - 0.5 and psnr >= fl[1] - 0.5, '%s frame %d agreement' % (name, frame),
                      'within 8/255 %.2f %% (floor %.2f), PSNR %.1f dB (floor %.1f); reproduce: %s --diff diff.png'
                      % (close8, fl[0], psnr, fl[1], ' '.join(cmd[:-3])))
                if fl[2] is not None:   # a goal: both shares at least this, without margin (issue 22's frames: 99)
                    check(close8 >= fl[2] and exact >= fl[2], '%s frame %d goal %.0f %%' % (name, frame, fl[2]),
                          'within 8/255 %.2f %%, draws with exact pixel counts %.2f %% (%d of %d); goal %.1f %% each; '
                          'reproduce: %s --diff diff.png' % (close8, exact, j['draws_exact'], j['draws_with_ref'], fl[2],
                                                             ' '.join(cmd[:-3])))
        # item 7: built-in fast path vs interpreter on compiled-program traces (per-draw pixel counts)
        draws = subprocess.run([a.tool, 'draws', t], capture_output=True, text=True).stdout.split('\n')[1:]
        comp = [d.split('\t') for d in draws if d.strip() and ('glsl:' in d or 'ff:' in d)]
        sample = a.builtin_traces is None or os.path.abspath(t) in {os.path.abspath(x) for x in a.builtin_traces.split()}
        if comp and not a.measure and sample:
            stats = {}
            for mode in ('auto', 'builtin'):
                sj = os.path.join(a.work, '%s.%s.stats.json' % (name, mode))
                subprocess.run([a.sim, 'render', '--trace', t, '--shaders', mode, '--stats', sj, '-q'],
                               capture_output=True, text=True)
                stats[mode] = json.load(open(sj)) if os.path.exists(sj) else {}
            # draw_pixels: [model, reference] per command of the frame; clears are [0, -1]
            pa, pb = stats['auto'].get('draw_pixels'), stats['builtin'].get('draw_pixels')
            if pa is not None and pb is not None:
                pa = [e for e in pa if e != [0, -1]]
                pb = [e for e in pb if e != [0, -1]]
            if pa is None or pb is None or len(pa) != len(pb):
                check(False, '%s: per-draw pixel counts of both paths' % name)
                continue
            same = [int(d[1]) for d in comp if d[0] == '0' and '+nomvp' not in d[5] and int(d[1]) < len(pa)]
            bad = [i for i in same if pa[i] != pb[i]]
            check(not bad, '%s: built-in path = interpreter pixel counts on %d MVP draws' % (name, len(same)),
                  'draws %s differ' % bad[:10])
    if a.measure:
        print('# trace frame within8_pct psnr_db [goal_pct|-] [tex_filter] (measured; docs/validation.md)')
        for name, frame, close8, psnr, _, texf in rows:
            fl = floors.get((name, frame))
            extra = '' if texf == 'float' else ' %s %s' % ('-' if not fl or fl[2] is None else '%g' % fl[2], texf)
            if not extra and fl and fl[2] is not None:
                extra = ' %g' % fl[2]
            print('%s %d %.2f %.1f%s' % (name, frame, close8, psnr, extra))
        return 0
    return check.summary()


if __name__ == '__main__':
    sys.exit(main())
