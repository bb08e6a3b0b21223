#!/usr/bin/python3
"""Rewrite the Table-2-like section of traces/README.md from `gpupd-trace table` on the bundled traces.

  table.py --tool build/bin/gpupd-trace traces/README.md traces/*.gpt
The table sits between the markers <!-- trace-table:begin --> and <!-- trace-table:end -->.
"""
import argparse
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
    # extra column: converted geometry vs glretrace --ppd (gpupd-trace coverage)
    rows = table.rstrip('\n').split('\n')
    rows[0] += ' ppd match |'
    rows[1] += '---|'
    for i, t in enumerate(a.traces):
        cov = subprocess.run([a.tool, 'coverage', t], check=True, capture_output=True, text=True).stdout
        m = re.search(r'(\d+) draws compared .*?(\d+) within 2%', cov)
        rows[2 + i] += ' %s/%s |' % (m.group(2), m.group(1)) if m else ' - |'
    table = '\n'.join(rows) + '\n'
    text = open(a.readme).read()
    if BEGIN not in text or END not in text:
        sys.exit('table.py: markers not found in %s' % a.readme)
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    open(a.readme, 'w').write(head + BEGIN + '\n' + table + END + tail)
    return 0


if __name__ == '__main__':
    sys.exit(main())
