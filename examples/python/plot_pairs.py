"""Plots a scene and its colliding pairs with matplotlib: every shape in grey, the shapes
that collide with something in colour, and a line between the centres of each colliding
pair.

    PYTHONPATH=build/release/python /usr/bin/python3 examples/python/plot_pairs.py \
        [--family mixed] [--n 400] [--seed 1] [-o pairs.png]
"""
import argparse

import matplotlib

matplotlib.use("Agg")  # a file, no display needed
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import LineCollection, PatchCollection  # noqa: E402
from matplotlib.patches import Circle, Rectangle  # noqa: E402

import hitgrid  # noqa: E402


def centres(scene):
    """The centre of every shape, per kind: segments' midpoints, circles' centres, boxes'."""
    s, c, b = scene
    return [(s[:, 0:2] + s[:, 2:4]) / 2, c[:, 0:2], (b[:, 0:2] + b[:, 2:4]) / 2]


def draw(ax, scene, hit, colours):
    s, c, b = scene
    for kind, colour in enumerate(colours):
        mask = hit[kind]
        for selected, style in ((~mask, dict(color="0.75", lw=0.8)), (mask, dict(color=colour, lw=1.4))):
            if kind == hitgrid.SEGMENT:
                ax.add_collection(LineCollection(s[selected].reshape(-1, 2, 2), **style))
            elif kind == hitgrid.CIRCLE:
                patches = [Circle((x, y), r) for x, y, r in c[selected]]
                ax.add_collection(PatchCollection(patches, facecolor="none", edgecolor=style["color"], lw=style["lw"]))
            else:
                patches = [Rectangle((x0, y0), x1 - x0, y1 - y0) for x0, y0, x1, y1 in b[selected]]
                ax.add_collection(PatchCollection(patches, facecolor="none", edgecolor=style["color"], lw=style["lw"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", default="mixed")
    parser.add_argument("--n", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--output", default="pairs.png")
    args = parser.parse_args()

    scene = hitgrid.generate(args.family, args.n, args.seed)
    pairs = hitgrid.find_pairs(*scene)
    hit = [np.zeros(len(a), dtype=bool) for a in scene]
    for column in (0, 1):
        for kind in range(3):
            hit[kind][pairs.ids[pairs.kinds[:, column] == kind, column]] = True

    fig, ax = plt.subplots(figsize=(9, 9))
    draw(ax, scene, hit, ["tab:blue", "tab:orange", "tab:green"])
    middle = centres(scene)
    links = np.stack([np.array([middle[k][i] for k, i in zip(pairs.kinds[:, col], pairs.ids[:, col])]).reshape(-1, 2)
                      for col in (0, 1)], axis=1)
    ax.add_collection(LineCollection(links, color="tab:red", lw=0.8, alpha=0.8))
    ax.autoscale()
    ax.set_aspect("equal")
    ax.set_title(f"{args.family}, n = {args.n}, seed {args.seed}: {len(pairs.ids)} colliding pairs "
                 "(segments blue, circles orange, boxes green; red: pair links)")
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    print(f"{args.output}: {sum(len(a) for a in scene)} shapes, {len(pairs.ids)} pairs")


if __name__ == "__main__":
    main()
