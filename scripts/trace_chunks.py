#!/usr/bin/env python3
"""Where the bytes of GPUpd trace files go: per file, the stored (in the file) and raw (decoded) bytes of its
chunks by tag, and how many chunks use each codec and transform (docs/trace-format.md, "Chunk header").
Reads only the 32-byte file header and the 20-byte chunk headers, so it is fast on any trace; it checks
nothing (`gpupd-trace validate` does).

    scripts/trace_chunks.py traces/nexuiz-f107.gpt [more.gpt ...]
"""
import collections
import struct
import sys

CODECS = {0: 'stored', 1: 'zlib', 2: 'zstd', 3: 'zstd-stream'}
XFORMS = {0: '', 1: '+SHUF4', 2: '+SHUF4_DELTA', 3: '+TEX_MED'}


def describe(path):
    with open(path, 'rb') as f:
        b = f.read()
    if len(b) < 32 or b[:8] != b'GPUPDTRC':
        sys.exit('%s: not a GPUpd trace' % path)
    minor = struct.unpack_from('<H', b, 10)[0]
    per_tag = collections.defaultdict(lambda: [0, 0, 0])
    per_flags = collections.Counter()
    pos = 32
    while pos + 20 <= len(b):
        tag, flags, stored, raw, _crc = struct.unpack_from('<4sIIII', b, pos)
        t = per_tag[tag.decode('ascii', 'replace')]
        t[0] += 1
        t[1] += stored
        t[2] += raw
        per_flags[CODECS.get(flags & 3, '?') + XFORMS.get((flags >> 2) & 3, '?')] += 1
        pos += 20 + stored
    print('%s: %d bytes, format 1.%d' % (path, len(b), minor))
    print('  %-5s %7s %14s %14s' % ('chunk', 'count', 'stored bytes', 'raw bytes'))
    for tag, (n, stored, raw) in sorted(per_tag.items(), key=lambda x: -x[1][1]):
        print('  %-5s %7d %14s %14s' % (tag, n, '{:,}'.format(stored), '{:,}'.format(raw)))
    print('  chunks by codec: ' + ', '.join('%s %d' % kv for kv in sorted(per_flags.items())))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().split('\n\n')[-1].strip())
    for p in sys.argv[1:]:
        describe(p)


if __name__ == '__main__':
    main()
