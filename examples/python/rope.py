"""A rope among posts through the Python module; examples/c_rope/rope.c does the same
through the C API, and a test checks that both print the same lines.

    PYTHONPATH=build/release/python /usr/bin/python3 examples/python/rope.py

A node prints as its peg and side (L: the rope turns left there, R: right), with its half
turns after a '+' when it is wound half a turn or more.
"""
import numpy as np

import hitgrid


def g(v):
    return f"{float(v):g}"


def print_rope(rope, what):
    n = rope.nodes
    nodes = "".join(f" {int(p)}{'L' if s > 0 else 'R'}" + (f"+{int(k)}" if k > 0 else "")
                    for p, s, k in zip(n.pegs[1:], n.sides[1:], n.half_turns[1:]))
    x, y = rope.end
    print(f"{what:<14} end ({g(x)}, {g(y)}) nodes:{nodes} length {rope.length:.6f}")


# Two rows of posts: pegs 0, 1, 2 at y = 0 and 3, 4, 5 at y = 4.
pegs = np.array([[0, 0], [4, 0], [8, 0], [0, 4], [4, 4], [8, 4]], dtype=np.float32)
# The end swings down under the lower row, round its left end and over the upper row; then
# the start moves below the lower row, and the end comes back the way it went.
path = [(12, 2), (12, -4), (2, -6), (-6, -2), (-6, 8), (6, 8), (12, 6), (10, 2)]
back = np.array([[12, 6], [6, 8], [-6, 8], [-6, -2], [2, -6], [12, -4], [12, 2]], dtype=np.float32)

rope = hitgrid.Rope((-4, 2), pegs)
for i, (x, y) in enumerate(path):
    rope.move_end(x, y)
    print_rope(rope, f"move {i + 1}")
rope.move_start(-4, -2)
print_rope(rope, "start (-4, -2)")
rope.move_path(back)                      # the whole path in one call, without the GIL
print_rope(rope, "back")
