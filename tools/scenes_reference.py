#!/usr/bin/env python3
"""Independent reference for docs/scenes.md and docs/formats.md, in plain Python.

Written from the two documents only (not from the C++), so that it can cross-check the
library: Python floats are IEEE doubles with separately rounded operations, and
struct.pack('<f') rounds a double to float32 to nearest. Slow (about 1 us per draw), so
use it on scenes of up to ~100,000 shapes.

    scenes_reference.py splitmix SEED [COUNT]       first outputs of SplitMix64
    scenes_reference.py hash FAMILY N [SEED [L [DENSITY [PER_CLUSTER]]]]
                                                     counts and scene_hash of a scene
    scenes_reference.py head FAMILY N [SEED]         the first shapes, as float bits
    scenes_reference.py golden DIR                   (re)writes the binary golden files
                                                     of tests/data from their text twins
"""
import math
import struct
import sys

MASK = (1 << 64) - 1
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def u(self):
        return (self.next() >> 11) * 2.0 ** -53


def f32(x):
    """x rounded to float32 (to nearest), back as a Python float."""
    return struct.unpack('<f', struct.pack('<f', x))[0]


def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def generate(family, n, seed=1, length=1.0, density=1.0, per_cluster=1000):
    """Returns (segments, circles, boxes) as lists of tuples of doubles, before rounding."""
    r = SplitMix64(seed)
    s = math.sqrt(n / density)
    seg, cir, box = [], [], []

    def uniform_segment(l):
        ax = r.u() * s
        ay = r.u() * s
        dx = (2 * r.u() - 1) * l
        dy = (2 * r.u() - 1) * l
        seg.append((ax, ay, ax + dx, ay + dy))

    if family == 'uniform':
        for _ in range(n):
            uniform_segment(length)
    elif family == 'long_tail':
        for _ in range(n):
            p = r.u()
            uniform_segment(s / 4 if p < 0.01 else length)
    elif family == 'clustered':
        k_count = max(1, n // per_cluster)
        centres = [(r.u() * s, r.u() * s) for _ in range(k_count)]
        sigma = s / (4 * math.sqrt(k_count))
        for _ in range(n):
            k = min(k_count - 1, math.floor(r.u() * k_count))
            mx = centres[k][0] + (r.u() + r.u() + r.u() - 1.5) * sigma
            my = centres[k][1] + (r.u() + r.u() + r.u() - 1.5) * sigma
            dx = (2 * r.u() - 1) * length
            dy = (2 * r.u() - 1) * length
            seg.append((mx, my, mx + dx, my + dy))
    elif family == 'mixed':
        for _ in range(n):
            k = r.u()
            if k < 0.5:
                uniform_segment(length)
            elif k < 0.75:
                cx = r.u() * s
                cy = r.u() * s
                cir.append((cx, cy, 0.1 + 0.9 * r.u() * length))
            else:
                x = r.u() * s
                y = r.u() * s
                hx = 0.1 + 0.9 * r.u() * length
                hy = 0.1 + 0.9 * r.u() * length
                box.append((x - hx, y - hy, x + hx, y + hy))
    elif family == 'lattice':
        g = max(4, math.floor(math.sqrt(n)))
        for _ in range(n):
            ax = math.floor(r.u() * g)
            ay = math.floor(r.u() * g)
            bx = ax + math.floor(r.u() * 5) - 2
            by = ay + math.floor(r.u() * 5) - 2
            seg.append((float(ax), float(ay), float(bx), float(by)))
    else:
        raise SystemExit('unknown family ' + family)
    return seg, cir, box


def fnv1a_bytes(data, h=FNV_OFFSET):
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & MASK
    return h


def columns_bytes(scene):
    out = bytearray()
    for shapes, width in zip(scene, (4, 3, 4)):
        for j in range(width):
            out += b''.join(struct.pack('<f', t[j]) for t in shapes)
    return bytes(out)


def scene_hash(scene):
    counts = b''.join(struct.pack('<Q', len(x)) for x in scene)
    return fnv1a_bytes(counts + columns_bytes(scene))


def word_checksum(data):
    """docs/formats.md: FNV-1a over little-endian 64-bit words, last word zero-padded."""
    h = FNV_OFFSET
    data = bytes(data) + b'\0' * (-len(data) % 8)
    for i in range(0, len(data), 8):
        h = ((h ^ struct.unpack_from('<Q', data, i)[0]) * FNV_PRIME) & MASK
    return h


def scene_binary(scene):
    head = b'\x89HGS\r\n\x1a\n' + struct.pack('<IIQQQ', 1, 0, *(len(x) for x in scene))
    body = head + columns_bytes(scene)
    return body + struct.pack('<Q', word_checksum(body))


def read_scene_text_simple(text):
    """Enough of the text format for the golden files (values exact in double)."""
    scene = ([], [], [])
    for line in text.splitlines():
        fields = line.split('#')[0].split()
        if fields:
            scene['scb'.index(fields[0])].append(tuple(float(v) for v in fields[1:]))
    return scene


KIND = {'s': 0, 'c': 1, 'b': 2}


def pair_keys_from_text(text):
    keys = []
    for line in text.splitlines():
        f = line.split('#')[0].split()
        if f:
            a = (KIND[f[0]] << 30) | int(f[1])
            b = (KIND[f[2]] << 30) | int(f[3])
            keys.append((a << 32) | b)
    return keys


def pairs_binary(keys):
    body = b'\x89HGP\r\n\x1a\n' + struct.pack('<IIQ', 1, 0, len(keys)) + b''.join(struct.pack('<Q', k) for k in keys)
    return body + struct.pack('<Q', word_checksum(body))


def pair_list_hash(keys):
    return fnv1a_bytes(struct.pack('<Q', len(keys)) + b''.join(struct.pack('<Q', k) for k in keys))


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__)
    cmd = argv[1]
    if cmd == 'splitmix':
        r = SplitMix64(int(argv[2], 0))
        for _ in range(int(argv[3]) if len(argv) > 3 else 4):
            print('0x%016x' % r.next())
    elif cmd == 'hash':
        args = [argv[2], int(argv[3])]
        if len(argv) > 4: args.append(int(argv[4]))
        if len(argv) > 5: args.append(float(argv[5]))
        if len(argv) > 6: args.append(float(argv[6]))
        if len(argv) > 7: args.append(int(argv[7]))
        scene = generate(*args)
        print(len(scene[0]), len(scene[1]), len(scene[2]), '0x%016x' % scene_hash(scene))
    elif cmd == 'head':
        scene = generate(argv[2], int(argv[3]), int(argv[4]) if len(argv) > 4 else 1)
        for letter, shapes in zip('scb', scene):
            for t in shapes[:3]:
                print(letter, ' '.join('0x%08x' % f32_bits(v) for v in t), ' '.join(repr(f32(v)) for v in t))
    elif cmd == 'golden':
        d = argv[2]
        with open(d + '/scene_small.txt') as f:
            scene = read_scene_text_simple(f.read())
        with open(d + '/scene_small.hgs', 'wb') as f:
            f.write(scene_binary(scene))
        print('scene_small: counts', [len(x) for x in scene], 'scene_hash 0x%016x' % scene_hash(scene))
        with open(d + '/pairs_small.txt') as f:
            keys = pair_keys_from_text(f.read())
        with open(d + '/pairs_small.hgp', 'wb') as f:
            f.write(pairs_binary(keys))
        print('pairs_small: count', len(keys), 'pair_list_hash 0x%016x' % pair_list_hash(keys))
    else:
        raise SystemExit(__doc__)


if __name__ == '__main__':
    main(sys.argv)
