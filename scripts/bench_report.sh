#!/usr/bin/env bash
# The benchmark report (README's third command) in one command: install what is missing, build Release, run
# hitgrid against its peers (bench/peers_bench), the SIMD kernels
# (bench/simd_kernels_bench), the grid's build (bench/grid_build_bench) and the engine world
# (bench/world_bench: frames, statics, casts), 3 repetitions
# each, and write
#   bench/results/<machine>-<isa>-<YYYY-MM-DD>/
#     report.md, time_vs_n.png, kernels.png, the raw JSON
# (tools/bench_report.py makes the report from the JSON).
#
#   scripts/bench_report.sh [--quick] [--with-slow]
#     (default)    every family at N = 10k, 100k, 1M, except Box2D on long_tail at 1M
#                  (by far the slowest run, left out so that the report stays short)
#     --quick      N <= 100,000 only: a few minutes
#     --with-slow  Box2D on long_tail at 1M too (3 more runs, longer than all the rest)
set -euo pipefail
cd "$(dirname "$0")/.."

mode=full
for arg in "$@"; do
  case "$arg" in
    --quick) mode=quick ;;
    --with-slow) mode=full+slow ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "usage: scripts/bench_report.sh [--quick] [--with-slow]" >&2; exit 2 ;;
  esac
done
build_filter=.
case "$mode" in
  quick) build_filter='/n:(10000|100000)/'
         filter='^[a-z_]+/n:(10000|100000)/'
         skip_reason="Quick mode (--quick): N <= 100,000 only." ;;
  full) filter='-^long_tail/n:1000000/box2d/'  # Google Benchmark: a leading '-' negates
        skip_reason="Box2D on long_tail at N = 1M takes 6-10 minutes a run; scripts/bench_report.sh --with-slow runs it." ;;
  full+slow) filter='.' ; skip_reason="" ;;
esac

scripts/setup.sh
scripts/build.sh release
bin=build/release/bench
[ -x "$bin/peers_bench" ] || { echo "bench_report: no peer library was found, so no peers_bench" >&2; exit 1; }

# <machine>: the CPU model and core count ("amd-epyc-2c"); <isa>: hitgrid's automatic choice.
cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | tr 'A-Z' 'a-z' |
      sed -E 's/\((r|tm)\)//g; s/@.*//; s/ (processor|cpu)( |$)/ /g; s/[^a-z0-9]+/-/g; s/^-+|-+$//g')
isa=$(build/release/apps/hitgrid --n 1000 --repeat 1 --stats 2>&1 >/dev/null |
      sed -nE 's/.*"isa": "([a-z0-9]+)".*/\1/p')
out="bench/results/${cpu:-cpu}-$(nproc)c-${isa}-$(date -u +%F)$([ "$mode" = quick ] && echo -quick || true)"
mkdir -p "$out"

{
  echo "date=$(date -u +%F)"
  echo "started=$(date -u +%H:%M)"
  echo "load_start=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "mode=$mode"
  echo "command=scripts/bench_report.sh${*:+ $*}"
  echo "skip_reason=$skip_reason"
  echo "isa=$isa"
  echo "compiler=$("$(sed -nE 's/^CMAKE_CXX_COMPILER:[A-Z]+=(.*)/\1/p' build/release/CMakeCache.txt)" --version | head -1)"
  echo "commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench/results' || echo ' + uncommitted changes')"
} > "$out/run_info.txt"

"$bin/peers_bench" --benchmark_list_tests=true > "$out/peers_benchmarks.txt"
# JSON into the files for the report, the console table on the terminal (and a log) to
# follow the run.
# Repetitions interleaved at random through each run: a busy stretch of a shared host then
# hits single repetitions of many rows, not all three of one row, whose median it would
# otherwise inflate.
common=(--benchmark_repetitions=3 --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true
        --benchmark_out_format=json)
echo "== peers_bench ($mode) -> $out/peers_bench.json"
"$bin/peers_bench" "${common[@]}" --benchmark_filter="$filter" --benchmark_out="$out/peers_bench.json" |
  tee "$out/peers_bench.log"
echo "== simd_kernels_bench -> $out/simd_kernels_bench.json"
"$bin/simd_kernels_bench" "${common[@]}" --benchmark_out="$out/simd_kernels_bench.json" |
  tee "$out/simd_kernels_bench.log"
echo "== grid_build_bench -> $out/grid_build_bench.json"
"$bin/grid_build_bench" "${common[@]}" --benchmark_filter="$build_filter" --benchmark_out="$out/grid_build_bench.json" |
  tee "$out/grid_build_bench.log"
if [ -x "$bin/world_bench" ]; then
  echo "== world_bench -> $out/world_bench.json"
  "$bin/world_bench" "${common[@]}" --benchmark_out="$out/world_bench.json" | tee "$out/world_bench.log"
fi

{
  echo "finished=$(date -u +%H:%M)"
  echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)"
} >> "$out/run_info.txt"
# Debian's interpreter, the one python3-matplotlib is installed for (a python3 earlier on
# PATH, e.g. pyenv's, would not see it).
/usr/bin/python3 tools/bench_report.py "$out"
