"""Two frames of a small world through the Python module; examples/c_frame/frame.c does
the same through the C API, and a test checks that both print the same lines.

    PYTHONPATH=build/release/python /usr/bin/python3 examples/python/frame.py
"""
import numpy as np

import hitgrid


def name(h):
    return f"{int(h) >> 32}.{int(h) & 0xffffffff}"


def print_frame(world, frame):
    print(f"frame {frame}")
    for what, pairs in (("pairs", world.pairs()), ("begin", world.begin_events()), ("end", world.end_events())):
        print(f"  {what}:" + "".join(f" ({name(a)} {name(b)})" for a, b in pairs))
    for i in world.impacts():
        print(f"  impact: {name(i['moving'])} hits {name(i['other'])} at t = {i['t']:.6f}")


world = hitgrid.World()
walls = np.array([[0, 0, 10, 0], [10, 0, 10, 10], [10, 10, 0, 10], [0, 10, 0, 0]], dtype=np.float32)
world.create_many("segment", walls, body="static")
ball = world.create("circle", (1, 5, 1))          # touches the left wall
crate = world.create("box", (4, 4, 6, 6))
stick = world.create("segment", (6, 6, 8, 8))    # shares a corner with the crate
world.step()
print_frame(world, 1)

world.move(ball, "circle", (2, 5, 0.5))           # leaves the wall and, fast,
world.set_displacement(ball, 6, 0)                # crosses the crate within the frame
world.step()
print_frame(world, 2)

hits = world.cast((-1, 5, 11, 5))
print("cast (-1, 5) -> (11, 5):" + "".join(
    f" {name(h['handle'])} at t = {h['t']:.6f} ({h['x']:.3f}, {h['y']:.3f}) normal ({h['nx']:g}, {h['ny']:g});"
    for h in hits))
print("query box (5, 5, 9, 9):" + "".join(f" {name(h)}" for h in world.query("box", (5, 5, 9, 9))))
