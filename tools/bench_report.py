#!/usr/bin/env python3
"""Benchmark report: hitgrid against its peers, and the SIMD kernels, from one run.

    bench_report.py RESULT_DIR

RESULT_DIR holds what scripts/bench_report.sh wrote there:
    peers_bench.json          Google Benchmark JSON, aggregates (median, mean, ...) of
                              bench/peers_bench: names FAMILY/n:N/WHO, labels
                              "pairs=P hash=H"
    simd_kernels_bench.json   the same for bench/simd_kernels_bench: KIND/INPUT/ISA
    peers_benchmarks.txt      every peers_bench benchmark (--benchmark_list_tests), so
                              that the rows the run left out can be named
    run_info.txt              key=value lines: date, times, load, mode, command, ISA, ...
and writes report.md, time_vs_n.png and kernels.png beside them.

Exits with status 1, before writing anything, when a benchmark failed or when a peer's
pair count or pair-list hash differs from hitgrid's on the same scene: a fast wrong
answer is not a result. Python 3 standard library and matplotlib only.
"""
import json
import os
import platform
import re
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

FAMILIES = ["uniform", "clustered", "long_tail", "mixed", "lattice"]
# Peers by benchmark suffix ({threads}: the row's thread count; a peer without that
# benchmark shows a dash there).
PEERS = [("cgal", "CGAL"), ("cgal_parallel/threads:{threads}", "CGAL Parallel_tag"), ("bullet", "Bullet"),
         ("box2d", "Box2D"), ("brute_force", "brute force")]
# The floors on the row's thread count (two threads stream faster than one).
FLOORS = [("floor_read/threads:{threads}", "floor: read"), ("floor_copy/threads:{threads}", "floor: copy")]
# Plot lines: benchmark suffix, legend, colour, line style.
METHODS = [
    ("hitgrid/threads:1", "hitgrid 1 thread", "tab:blue", "-"),
    ("hitgrid/threads:2", "hitgrid 2 threads", "navy", "-"),
    ("cgal", "CGAL", "tab:orange", "-"),
    ("cgal_parallel/threads:2", "CGAL Parallel_tag, 2 threads", "tab:orange", "--"),
    ("bullet", "Bullet", "tab:green", "-"),
    ("box2d", "Box2D", "tab:red", "-"),
    ("brute_force", "brute force", "tab:purple", ":"),
    ("floor_read/threads:1", "floor: read scene, 1 thread", "grey", "--"),
    ("floor_read/threads:2", "floor: read scene, 2 threads", "grey", ":"),
    ("floor_copy/threads:1", "floor: copy scene, 1 thread", "black", "--"),
    ("floor_copy/threads:2", "floor: copy scene, 2 threads", "black", ":"),
]
ISAS = ["scalar", "sse2", "avx2", "avx512"]
KERNEL_KINDS = ["segment_segment", "segment_circle", "segment_box", "circle_circle", "circle_box", "box_box"]
CPU_FLAGS = ["sse2", "sse4_2", "avx", "avx2", "fma", "bmi2", "avx512f", "avx512dq", "avx512bw", "avx512vl"]
# The speed targets the report checks, on uniform N = 1,000,000 seed 1: hitgrid at least
# SPEEDUP_TARGETS times faster than each peer, and within FLOOR_TARGET of the memory floors.
TARGET_N = 1_000_000
SPEEDUP_TARGETS = [("cgal", "CGAL", 50.0), ("bullet", "Bullet", 100.0)]
FLOOR_TARGET = 20.0


def fail(message):
    sys.exit(f"bench_report.py: error: {message}")


def short_name(name):
    """FAMILY/n:N/WHO without the suffixes Google Benchmark adds (/iterations:1, /real_time)."""
    return re.sub(r"(/iterations:\d+)?(/real_time)?$", "", name)


def load_medians(path):
    """{name: median entry}; fails on any benchmark that reported an error."""
    with open(path) as f:
        doc = json.load(f)
    medians = {}
    for b in doc["benchmarks"]:
        if b.get("error_occurred"):
            fail(f"{os.path.basename(path)}: {b['name']}: {b.get('error_message', 'failed')}")
        name = short_name(b["run_name"])
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median":
            medians[name] = b
        elif b.get("run_type") == "iteration" and name not in medians:
            medians[name] = b  # a run without repetitions: its only result
    return doc["context"], medians


def max_cv(path, prefix_filter):
    """The largest coefficient of variation among the repeated runs (noise), and its name."""
    with open(path) as f:
        doc = json.load(f)
    worst = (0.0, "")
    for b in doc["benchmarks"]:
        if b.get("aggregate_name") == "cv" and prefix_filter(b["run_name"]):
            worst = max(worst, (b["real_time"], short_name(b["run_name"])))
    return worst


def to_ms(entry):
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[entry["time_unit"]]
    return entry["real_time"] * scale


def parse_label(entry):
    m = re.fullmatch(r"pairs=(\d+) hash=([0-9a-f]{16})", entry.get("label", ""))
    if not m:
        fail(f"{entry['run_name']}: no pair count and hash in its label ({entry.get('label')!r})")
    return int(m.group(1)), m.group(2)


def read_run_info(path):
    info = {}
    with open(path) as f:
        for line in f:
            key, sep, value = line.rstrip("\n").partition("=")
            if sep:
                info[key] = value
    return info


def machine_info():
    model, flags = "unknown", set()
    with open("/proc/cpuinfo") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key.strip() == "model name" and model == "unknown":
                model = value.strip()
            elif key.strip() == "flags" and not flags:
                flags = set(value.split())
    os_name = platform.system()
    try:
        with open("/etc/os-release") as f:
            os_name = dict(line.rstrip().split("=", 1) for line in f if "=" in line)["PRETTY_NAME"].strip('"')
    except (OSError, KeyError):
        pass
    return model, os.cpu_count(), [f for f in CPU_FLAGS if f in flags], f"{os_name}, Linux {platform.release()}"


def ratio(x):
    return f"{x:,.0f}x" if x >= 100 else f"{x:.1f}x"


def ms(x):
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.2f}" if x >= 0.1 else f"{x:.3f}"


def check_answers(peers):
    """Every benchmark of one scene must give hitgrid's pair count and hash."""
    answers = {}
    for name, entry in peers.items():
        family, n, who = name.split("/", 2)
        if who.startswith("floor"):
            continue  # reads memory, finds no pairs
        answers.setdefault((family, n), {})[who] = parse_label(entry)
    for (family, n), by_who in sorted(answers.items()):
        want = by_who.get("hitgrid/threads:1") or by_who.get("hitgrid/threads:2")
        for who, got in by_who.items():
            if want is None or got != want:
                fail(f"{family}/{n}: {who} gives pairs={got[0]} hash={got[1]}, hitgrid gives {want}")
    return answers


def peer_tables(peers, answers):
    lines = []
    for family in FAMILIES:
        ns = sorted({int(k.split("/")[1][2:]) for k in peers if k.startswith(family + "/")})
        if not ns:
            continue
        lines += [
            f"### {family}",
            "",
            "| N | threads | hitgrid ms | " + " | ".join(f"{t} ms (vs hitgrid)" for _, t in PEERS) +
            " | " + " | ".join(f"{t} ms (hitgrid / floor)" for _, t in FLOORS) + " | pairs | pair-list hash |",
            "| ---: | ---: | ---: | " + " | ".join("---:" for _ in PEERS + FLOORS) + " | ---: | --- |",
        ]
        for n in ns:
            for threads in (1, 2):
                key = f"{family}/n:{n}/"
                hit = peers.get(key + f"hitgrid/threads:{threads}")
                if hit is None:
                    continue
                t = to_ms(hit)
                cells = [f"{n:,}", str(threads), f"**{ms(t)}**"]
                for who, _ in PEERS:
                    e = peers.get(key + who.format(threads=threads))
                    cells.append(f"{ms(to_ms(e))} ({ratio(to_ms(e) / t)})" if e else "—")
                for who, _ in FLOORS:
                    e = peers.get(key + who.format(threads=threads))
                    cells.append(f"{ms(to_ms(e))} ({ratio(t / to_ms(e))})" if e else "—")
                pairs, h = answers[(family, f"n:{n}")][f"hitgrid/threads:{threads}"]
                cells += [f"{pairs:,}", f"`{h}`"]
                lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return lines


def contention_note(peers):
    """A warning when two threads were not clearly faster than one at the largest N: the
    second core was busy (a shared machine), so the 2-thread rows understate hitgrid."""
    slow = []
    for family in FAMILIES:
        one, two = (peers.get(f"{family}/n:{TARGET_N}/hitgrid/threads:{t}") for t in (1, 2))
        if one and two and to_ms(two) > 0.8 * to_ms(one):
            slow.append(f"{family} {to_ms(one) / to_ms(two):.2f}x")
    if not slow:
        return []
    return [
        "**Warning:** at N = 1,000,000 two threads were not clearly faster than one (speed-up of 2 threads "
        "over 1: " + ", ".join(slow) + "). The second core was busy with other work during this run (see "
        "the load average above), so the 2-thread rows and the 2-thread targets understate hitgrid on an idle "
        "machine; the 1-thread rows are the comparable ones.",
        "",
    ]


def target_lines(peers):
    key = f"uniform/n:{TARGET_N}/"
    lines = [
        "## Targets (uniform, N = 1,000,000, seed 1): "
        + ", ".join(f"{target:.0f}x {title}" for _, title, target in SPEEDUP_TARGETS)
        + f", {FLOOR_TARGET:.0f}x the memory floor",
        "",
        "| target | 2 threads | met? | 1 thread | met? |",
        "| --- | ---: | --- | ---: | --- |",
    ]

    def verdict(value, target, higher_is_better):
        factor = value / target if higher_is_better else target / value
        return f"yes, by {factor:.2f}x" if factor >= 1 else f"**no**, missed by {1 / factor:.2f}x"

    rows = []
    for who, title, target in SPEEDUP_TARGETS:
        rows.append((f"at least {target:.0f}x faster than {title}", who, target, True))
    for who, title in FLOORS:
        rows.append((f"within {FLOOR_TARGET:.0f}x of the memory {title}", who, FLOOR_TARGET, False))
    for text, who, target, speedup in rows:
        cells = [text]
        for threads in (2, 1):
            hit, other = peers.get(key + f"hitgrid/threads:{threads}"), peers.get(key + who.format(threads=threads))
            if hit is None or other is None:
                cells += ["not run", "—"]
                continue
            value = to_ms(other) / to_ms(hit) if speedup else to_ms(hit) / to_ms(other)
            cells += [ratio(value), verdict(value, target, speedup)]
        lines.append("| " + " | ".join(cells) + " |")
    lines += [
        "",
        "Speed-ups are the peer's median time over hitgrid's; floor ratios are hitgrid's median time over "
        "the floor's on the same number of threads (reading, or copying, the scene's floats once from DRAM: "
        "16 MB at N = 1M).",
        "",
    ]
    sequential, parallel = peers.get(key + "cgal"), peers.get(key + "cgal_parallel/threads:2")
    hit = peers.get(key + "hitgrid/threads:2")
    if sequential and parallel and hit:
        parallel_slower = to_ms(parallel) > to_ms(sequential)
        lines += [
            f"CGAL's own parallel version (`Parallel_tag`) on the same two threads took {ms(to_ms(parallel))} ms, "
            f"{'slower' if parallel_slower else 'faster'} than its sequential version ({ms(to_ms(sequential))} ms); hitgrid on two threads is "
            f"{ratio(to_ms(parallel) / to_ms(hit))} faster than it. The CGAL target is measured against the "
            + ("sequential version, CGAL's fastest here." if parallel_slower else
               "sequential version, as the target is stated; against the parallel one it is the ratio above."),
            "",
        ]
    return lines


def kernel_table(kernels):
    found = defaultdict(dict)  # (kind, input) -> isa -> pairs/s
    for name, e in kernels.items():
        kind, data, isa = name.split("/")
        found[(kind, data)][isa] = e["items_per_second"]
    # In pair-kind order, random input before lattice (the JSON's order is the run's, which
    # random interleaving shuffles).
    def order(key):
        kind, data = key
        return (KERNEL_KINDS.index(kind) if kind in KERNEL_KINDS else len(KERNEL_KINDS), kind, data != "random", data)
    rows = {key: found[key] for key in sorted(found, key=order)}
    isas = [i for i in ISAS if any(i in r for r in rows.values())]
    lines = [
        "## SIMD narrow-phase kernels (bench/simd_kernels_bench)",
        "",
        "Exact pair tests per CPU second (one thread), median of 3 runs, 16,384 pairs a batch; in brackets the "
        "ratio to scalar.",
        "",
        "| kernel | input | " + " | ".join(isas) + " |",
        "| --- | --- | " + " | ".join("---:" for _ in isas) + " |",
    ]
    for (kind, data), by_isa in rows.items():
        base = by_isa.get("scalar")
        cells = [kind, data]
        for isa in isas:
            v = by_isa.get(isa)
            cells.append("—" if v is None else f"{v / 1e6:,.0f} M" + (f" ({v / base:.1f}x)" if base else ""))
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    return lines, rows, isas


def grid_build_table(builds):
    lines = [
        "## Grid build (bench/grid_build_bench)",
        "",
        "Every small shape into its home cell and the shapes sorted by cell, row-major (the counting sort by row, "
        "then each row's sort by column), without the pair search that find_pairs runs fused with the second "
        "half; the large shapes only set aside. Milliseconds, median of 3; in brackets million shapes per second. "
        "The hash is of the shapes' indices in the grid's order, the same on one and two threads (checked).",
        "",
        "| family | N | 1 thread | 2 threads | grid order hash |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    for family in FAMILIES:
        prefix = f"BM_grid_build_{family}/"
        for n in sorted({int(k.split("/")[1][2:]) for k in builds if k.startswith(prefix)}):
            cells = [family, f"{n:,}"]
            orders = set()
            for threads in (1, 2):
                e = builds.get(f"{prefix}n:{n}/threads:{threads}")
                cells.append(f"{ms(to_ms(e))} ({n / to_ms(e) / 1e3:,.0f} M/s)" if e else "—")
                if e:
                    orders.add(e.get("label", ""))
            # The grid's order must not depend on the thread count.
            if len(orders) > 1:
                fail(f"grid build {family} n={n}: the order differs between thread counts ({sorted(orders)})")
            cells.append(f"`{orders.pop().removeprefix('order=')}`" if orders else "—")
            lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    return lines


def world_table(world):
    """The engine world's rows (bench/world_bench), each beside its baseline from the same run."""
    def get(name):
        return world.get(name)

    lines = [
        "## The engine world (bench/world_bench)",
        "",
        "Median of 3, wall time. A frame: every shape moved (up to a tenth of its size) + step + events, the mixed "
        "family's 100,000 shapes; Box2D 2.4's b2BroadPhase does the same moves (MoveProxy for every shape, "
        "UpdatePairs: its broad phase only, fat boxes, one thread).",
        "",
        "| row | 1 thread | 2 threads | baseline | ratio |",
        "| --- | ---: | ---: | --- | ---: |",
    ]
    f1, f2, box2d = get("frame/100000/1"), get("frame/100000/2"), get("box2d_frame/100000")
    if f1:
        best = min(to_ms(e) for e in (f1, f2) if e)
        lines.append(
            f"| frame, 100,000 moving shapes (goal: 2 ms on 2 threads) | {ms(to_ms(f1))} | "
            f"{ms(to_ms(f2)) if f2 else '—'} | Box2D b2BroadPhase {ms(to_ms(box2d)) + ' ms' if box2d else '— (not built)'} | "
            f"{ratio(to_ms(box2d) / best) + ' faster' if box2d else '—'} |")
    c1, c2 = get("frame_churn/100000/1/10"), get("frame_churn/100000/2/10")
    if c1 and f1:
        lines.append(
            f"| the same frame with 10 shapes destroyed and 10 created before it (a step of the full form: "
            f"the grid broad phase) | {ms(to_ms(c1))} | {ms(to_ms(c2)) if c2 else '—'} | the frame without: "
            f"{ms(to_ms(f1))} / {ms(to_ms(f2)) if f2 else '—'} ms | {to_ms(c1) / to_ms(f1):.2f}x / "
            f"{(to_ms(c2) / to_ms(f2)) if c2 and f2 else float('nan'):.2f}x |")
    for motion, label in ((0, "each a step and back"), (1, "each drifting on"),
                          (2, "each wandering, a random step up to")):
        s1, s2 = get(f"static_plus/1000000/10000/1/{motion}"), get(f"static_plus/1000000/10000/2/{motion}")
        c1, c2 = get(f"circles_alone/0/10000/1/{motion}"), get(f"circles_alone/0/10000/2/{motion}")
        if s1 and c1:
            lines.append(
                f"| 1M static segments + 10,000 moving circles, {label} a tenth of their radius per frame "
                f"(goal: within 2x of the circles alone) | {ms(to_ms(s1))} | "
                f"{ms(to_ms(s2)) if s2 else '—'} | the 10,000 circles alone: {ms(to_ms(c1))} / "
                f"{ms(to_ms(c2)) if c2 else '—'} ms | {to_ms(s1) / to_ms(c1):.2f}x / "
                f"{(to_ms(s2) / to_ms(c2)) if s2 and c2 else float('nan'):.2f}x |")
    lines += [
        "",
        "Casts into 1,000,000 static uniform segments (world side 1,000): casts per second (in brackets "
        "microseconds per cast). Segments of length 10 from a random point in a random direction; rays across "
        "the whole world, from just left of it towards a random point on its right side (about a thousand hits "
        "each). One at a time on the calling thread, or in batches on the world's threads: 4,096 casts, 256 "
        "rays when each lists all its hits.",
        "",
        "| cast | hits | one at a time | batch, 1 thread | batch, 2 threads |",
        "| --- | --- | ---: | ---: | ---: |",
    ]

    def rate(name):
        e = get(name)
        if not e:
            return "—"
        per_s = e.get("items_per_second", 0.0)
        return f"{per_s:,.0f} ({1e6 / per_s:.1f} us)" if per_s else "—"

    for length, label in ((10, "segment, length 10"), (0, "ray across the world")):
        for nearest, hits in ((0, "all"), (1, "nearest")):
            base = f"cast/length:{length}/threads:%d/nearest:{nearest}/batch:%d"
            batch = 256 if length == 0 and nearest == 0 else 4096
            lines.append(f"| {label} | {hits} | {rate(base % (1, 1))} | {rate(base % (1, batch))} | "
                         f"{rate(base % (2, batch))} |")
    lines.append("")
    return lines


def plot_times(peers, path):
    fig, axes = plt.subplots(2, 3, figsize=(15, 9))
    for ax, family in zip(axes.flat, FAMILIES):
        for suffix, legend, colour, style in METHODS:
            points = sorted((int(k.split("/")[1][2:]), to_ms(e)) for k, e in peers.items()
                            if k.startswith(family + "/") and k.split("/", 2)[2] == suffix)
            if points:
                ax.plot(*zip(*points), style, color=colour, marker="o", label=legend)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"{family} (seed 1)")
        ax.set_xlabel("shapes N")
        ax.set_ylabel("wall time, ms (median)")
        ax.grid(True, which="both", alpha=0.3)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    axes.flat[5].axis("off")
    axes.flat[5].legend(handles, labels, loc="center")
    fig.suptitle("Time to the sorted exact pair list, against N (peers on one thread unless marked)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def plot_kernels(rows, isas, path):
    fig, axes = plt.subplots(1, 2, figsize=(14, 5), sharey=True)
    for ax, data in zip(axes, ["random", "lattice"]):
        kinds = [k for (k, d) in rows if d == data]
        width = 0.8 / max(len(isas), 1)
        for i, isa in enumerate(isas):
            xs = [j + (i - (len(isas) - 1) / 2) * width for j in range(len(kinds))]
            ax.bar(xs, [rows[(k, data)].get(isa, 0) for k in kinds], width, label=isa)
        ax.set_xticks(range(len(kinds)))
        ax.set_xticklabels(kinds, rotation=20)
        ax.set_yscale("log")
        ax.set_title(f"{data} input")
        ax.set_ylabel("exact pair tests per second")
        ax.grid(True, axis="y", which="both", alpha=0.3)
        ax.legend()
    # Log bars start at the axis floor: put it below the slowest kernel so that none is cut off.
    lowest = min(v for by_isa in rows.values() for v in by_isa.values())
    axes[0].set_ylim(bottom=lowest / 2)
    fig.suptitle("SIMD narrow-phase kernel throughput per ISA (median of 3)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def skipped_rows(listed_path, peers):
    """The benchmarks listed but not run, as "FAMILY N=n: all" or "FAMILY N=n: who, who"."""
    with open(listed_path) as f:
        listed = [short_name(line.strip()) for line in f if line.strip()]
    by_scene = defaultdict(lambda: ([], []))  # (family, n) -> (listed, skipped)
    for name in listed:
        family, n, who = name.split("/", 2)
        by_scene[(family, n)][0].append(who)
        if name not in peers:
            by_scene[(family, n)][1].append(who)
    return [f"{family} N={int(n[2:]):,}: " + ("all" if len(skipped) == len(all_who) else ", ".join(skipped))
            for (family, n), (all_who, skipped) in by_scene.items() if skipped]


def header(info, context, out_dir):
    model, cores, flags, os_name = machine_info()
    return [
        f"# hitgrid benchmark report: {os.path.basename(os.path.normpath(out_dir))}",
        "",
        f"- date: {info.get('date')}, {info.get('started')} to {info.get('finished')} (UTC)",
        f"- machine: {model}, {cores} cores; CPU flags: {' '.join(flags)}; L3 "
        + ", ".join(f"{c['size'] >> 20} MiB" for c in context.get("caches", []) if c.get("level") == 3),
        f"- load average (1, 5, 15 min) at start: {info.get('load_start')}; at end: {info.get('load_end')}",
        f"- OS: {os_name}",
        f"- compiler: {info.get('compiler')}, Release (`scripts/build.sh release`)",
        f"- hitgrid commit: {info.get('commit')}",
        f"- narrow-phase ISA: {info.get('isa')} (hitgrid's automatic choice on this machine)",
        f"- command: `{info.get('command')}` ({info.get('mode')})",
        "- every time is the median of 3 repetitions (`--benchmark_repetitions=3`), interleaved at random "
        "through the run (`--benchmark_enable_random_interleaving=true`), wall clock; the peers "
        "(each its own broad phase + hitgrid's exact test + a sort) and the brute force run on one thread, "
        "except CGAL Parallel_tag (CGAL's TBB version, on two threads)",
        "",
    ]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    info = read_run_info(os.path.join(out, "run_info.txt"))
    context, peers = load_medians(os.path.join(out, "peers_bench.json"))
    _, kernels = load_medians(os.path.join(out, "simd_kernels_bench.json"))
    answers = check_answers(peers)
    skipped = skipped_rows(os.path.join(out, "peers_benchmarks.txt"), peers)

    lines = header(info, context, out)
    lines += contention_note(peers)
    lines += target_lines(peers)
    lines += [
        "## hitgrid against its peers",
        "",
        "Milliseconds. Peers: in brackets, the peer's time over hitgrid's on that row's thread count "
        "(how many times faster hitgrid is). Floors (on the row's thread count): hitgrid's time over the "
        "floor's. Every peer and the "
        "brute force gave the same pair count and pair-list hash as hitgrid (checked).",
        "",
    ]
    lines += peer_tables(peers, answers)
    cv, cv_name = max_cv(os.path.join(out, "peers_bench.json"), lambda name: "/hitgrid/" in name)
    lines += [f"Noise: the largest coefficient of variation among hitgrid's rows is {cv:.1%} ({cv_name}).", ""]
    lines += ["Rows not run: " + ("; ".join(skipped) if skipped else "none") + ".", ""]
    if info.get("skip_reason") and skipped:
        lines += [info["skip_reason"], ""]
    table, rows, isas = kernel_table(kernels)
    lines += table
    builds_path = os.path.join(out, "grid_build_bench.json")
    if os.path.exists(builds_path):  # (reports from before the grid build had its benchmark)
        lines += grid_build_table(load_medians(builds_path)[1])
    world_path = os.path.join(out, "world_bench.json")
    if os.path.exists(world_path):
        lines += world_table(load_medians(world_path)[1])
    lines += [
        "## Files",
        "",
        "- `time_vs_n.png`: time against N, log-log, one panel per family",
        "- `kernels.png`: kernel throughput per ISA",
        "- `peers_bench.json`, `simd_kernels_bench.json`, `grid_build_bench.json`, `world_bench.json`: Google "
        "Benchmark's raw output "
        "(aggregates)",
        "- `peers_benchmarks.txt`, `run_info.txt`: every peer benchmark, and how this run was made",
        "",
    ]
    plot_times(peers, os.path.join(out, "time_vs_n.png"))
    plot_kernels(rows, isas, os.path.join(out, "kernels.png"))
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(lines))
    print(f"bench_report.py: wrote {os.path.join(out, 'report.md')}")


if __name__ == "__main__":
    main()
