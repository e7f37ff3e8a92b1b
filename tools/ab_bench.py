#!/usr/bin/env python3
"""Two builds of one Google Benchmark binary, alternated: the ratio of their medians.

    tools/ab_bench.py OLD_BINARY NEW_BINARY ROUNDS FILTER [--min-time S]

Each round runs both binaries once on the benchmarks FILTER matches, in a random order
(so that neither always runs on the warmer or the quieter machine), with
--benchmark_min_time=S (0.5 by default). It prints, per benchmark, the median real time of
each binary over the rounds and new / old; items per second where the benchmark counts
items (casts per second), compared the same way. The machines are shared and noisy: a
ratio within a few percent of 1 over a handful of rounds is noise, not a change.
"""

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile


def run(binary, bench_filter, min_time):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run(
            [binary, f"--benchmark_filter={bench_filter}", f"--benchmark_min_time={min_time}",
             "--benchmark_out_format=json", f"--benchmark_out={out.name}"],
            check=True, stdout=subprocess.DEVNULL)
        with open(out.name) as f:
            report = json.load(f)
    return {b["name"]: b for b in report["benchmarks"] if b.get("run_type", "iteration") == "iteration"}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("rounds", type=int)
    parser.add_argument("filter")
    parser.add_argument("--min-time", default="0.5")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.rounds < 1:
        sys.exit("ab_bench: rounds must be at least 1")
    order = random.Random(args.seed)
    times = {"old": {}, "new": {}}
    rates = {"old": {}, "new": {}}
    names = []
    for r in range(args.rounds):
        sides = ["old", "new"]
        order.shuffle(sides)
        for side in sides:
            for name, b in run(getattr(args, side), args.filter, args.min_time).items():
                if name not in names:
                    names.append(name)
                times[side].setdefault(name, []).append(b["real_time"])
                if "items_per_second" in b:
                    rates[side].setdefault(name, []).append(b["items_per_second"])
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    print(f"| benchmark | old | new | new / old | medians of {args.rounds} rounds |")
    print("| --- | ---: | ---: | ---: | --- |")
    for name in names:
        if name not in times["old"] or name not in times["new"]:
            print(f"| {name} | only in one binary | | | |")
            continue
        old, new = statistics.median(times["old"][name]), statistics.median(times["new"][name])
        line = f"| {name} | {old:.4g} | {new:.4g} | {new / old:.3f} |"
        if name in rates["old"] and name in rates["new"]:
            ro, rn = statistics.median(rates["old"][name]), statistics.median(rates["new"][name])
            line += f" items/s {ro:,.0f} -> {rn:,.0f} ({rn / ro:.3f}x) |"
        else:
            line += " |"
        print(line)


if __name__ == "__main__":
    main()
