"""hitgrid.find_pairs from Python against the C++ call, in one process, alternated.

    PYTHONPATH=build/release/python /usr/bin/python3 bench/python_find_pairs.py \
        [--family uniform] [--n 1000000] [--seed 1] [--rounds 15] [--threads 1 2] [-o FILE.md]

Per thread count and round, in an order flipped every round:
  python   hitgrid.find_pairs(*scene, threads=T): the (N, 4) float32 rows of
           hitgrid.generate, the call's whole time seen from Python (rows into the kept
           scene, the pairs, the (M, 2) arrays out);
  kept     PairFinder::find_pairs(scene, pairs) on a Scene in memory with a kept finder,
           the C++ call an engine makes frame after frame (timed in C++, after one
           untimed call);
  rows     the same with the rows copied into the kept Scene first (Scene::assign on
           the finder's threads): what a C++ program whose shapes are rows of floats
           pays, and what the module does before the same call;
  one-shot hitgrid::find_pairs(scene, options), the one-line C++ call (keeps nothing).
Medians over the rounds of the wall time and of the process's CPU time (all threads; a
shared host inflates it less than the wall time), and python over each. The host is shared and noisy: look at the ratios, which come from
interleaved runs.
"""
import argparse
import platform
import statistics
import subprocess
import time

import hitgrid


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", default="uniform")
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("-o", "--output")
    args = parser.parse_args()

    scene = hitgrid.generate(args.family, args.n, args.seed)
    rows = []
    for threads in args.threads:
        times = {"python": [], "kept": [], "rows": [], "one-shot": []}
        cpu = {"python": [], "kept": [], "rows": [], "one-shot": []}
        pairs = None

        def python():
            nonlocal pairs
            start, cpu_start = time.perf_counter(), time.process_time()
            pairs = hitgrid.find_pairs(*scene, threads=threads)
            times["python"].append((time.perf_counter() - start) * 1e3)
            cpu["python"].append((time.process_time() - cpu_start) * 1e3)

        def baseline(mode):
            def run():
                ms, cpu_ms, count = hitgrid._cpp_find_pairs_ms(*scene, threads, "auto", 1, mode)
                times[mode] += ms
                cpu[mode] += cpu_ms
                assert count == len(pairs.ids)
            return run

        python()  # the module's kept scene and finder, as a program calling it every frame has them
        times["python"].clear()
        cpu["python"].clear()
        for r in range(args.rounds):
            order = [python, baseline("kept"), baseline("rows"), baseline("one-shot")]
            for run in (order if r % 2 == 0 else order[::-1]):
                run()
        med = {k: statistics.median(v) for k, v in times.items()}
        med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
        rows.append((threads, len(pairs.ids), med, times, med_cpu))

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    lines = [f"hitgrid.find_pairs from Python against the C++ call: {args.family} n={args.n} seed={args.seed}, "
             f"{args.rounds} alternated rounds, medians (ms); commit {commit}, {platform.node()}, "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
             "",
             f"load average at the end: {open('/proc/loadavg').read().split()[:3]}",
             "",
             "| threads | time | pairs | python | C++ kept | C++ rows + kept | C++ one-shot "
             "| python / kept | python / rows + kept | python / one-shot |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for threads, count, med, _, med_cpu in rows:
        for what, m in (("wall", med), ("CPU", med_cpu)):
            lines.append(f"| {threads} | {what} | {count:,} | {m['python']:.2f} | {m['kept']:.2f} | {m['rows']:.2f} | "
                         f"{m['one-shot']:.2f} | {m['python'] / m['kept']:.3f} | {m['python'] / m['rows']:.3f} | "
                         f"{m['python'] / m['one-shot']:.3f} |")
    lines.append("")
    lines.append("Wall times of every round (ms):")
    for threads, _, _, times, _ in rows:
        for k, v in times.items():
            lines.append(f"threads {threads} {k}: " + " ".join(f"{x:.1f}" for x in v))
    text = "\n".join(lines) + "\n"
    print(text)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
