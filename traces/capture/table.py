#!/usr/bin/python3
"""Rewrite the Table-2-like section of traces/README.md from `gpupd-trace table` on the bundled traces.

  table.py --tool build/bin/gpupd-trace traces/README.md traces/*.gpt
The table sits between the markers <!-- trace-table:begin --> and <!-- trace-table:end -->.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

BEGIN, END = '<!-- trace-table:begin -->', '<!-- trace-table:end -->'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tool', required=True)
    ap.add_argument('readme')
    ap.add_argument('traces', nargs='+')
    a = ap.parse_args()
    table = subprocess.run([a.tool, 'table'] + a.traces, check=True, capture_output=True, text=True).stdout
    # extra columns: converted geometry vs glretrace --ppd (gpupd-trace coverage); bytes of the trace's files
    # (NAME.gpt, its reference image(s) NAME.png / NAME.fK.png, NAME.ppd.tsv)
    rows = table.rstrip('\n').split('\n')
    rows[0] += ' ppd match | MB |'
    rows[1] += '---|---|'
    total = 0
    for i, t in enumerate(a.traces):
        cov = subprocess.run([a.tool, 'coverage', t], check=True, capture_output=True, text=True).stdout
        m = re.search(r'(\d+) draws compared .*?(\d+) within 2%', cov)
        rows[2 + i] += ' %s/%s |' % (m.group(2), m.group(1)) if m else ' - |'
        stem = t[:-len('.gpt')]
        files = [t, stem + '.png', stem + '.ppd.tsv'] + sorted(glob.glob(glob.escape(stem) + '.f*.png'))
        size = sum(os.path.getsize(f) for f in files if os.path.exists(f))
        total += size
        rows[2 + i] += ' %.2f |' % (size / 1e6)
    table = '\n'.join(rows) + '\n\nAll %d traces with their reference images and per-draw tables: %.2f MB (10^6 bytes).\n' % (
        len(a.traces), total / 1e6)
    text = open(a.readme).read()
    if BEGIN not in text or END not in text:
        sys.exit('table.py: markers not found in %s' % a.readme)
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    open(a.readme, 'w').write(head + BEGIN + '\n' + table + END + tail)
    return 0


if __name__ == '__main__':
    sys.exit(main())
