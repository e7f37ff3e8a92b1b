#!/usr/bin/env bash
# Runs every fuzz target of build/fuzz (scripts/build.sh fuzz) for a while:
#   scripts/fuzz.sh [SECONDS_PER_TARGET [PARALLEL]]   (default 20 s, one target at a time;
#   CI: scripts/test.sh says how long and how many at once)
# PARALLEL targets run at the same time (one process, one core each), so the run takes
# about SECONDS_PER_TARGET * 8 / PARALLEL.
# Each starts from its committed corpus (fuzz/corpus/<target>/), copied to a scratch folder
# so the repository is not written. A crash, leak, timeout or sanitizer report stops the
# run with status 1 and leaves the input in build/fuzz/artifacts/ (add it to the corpus
# once fixed: fuzz/README.md). New inputs worth keeping: scripts/fuzz.sh N, then
# build/fuzz/fuzz/fuzz_<target> -merge=1 fuzz/corpus/<target> build/fuzz/work/<target>.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"
parallel="${2:-1}"
targets=(scene_text scene_binary pairs_text pairs_binary pair_kernels find_pairs rope world)
mkdir -p build/fuzz/artifacts
# One target: a single libFuzzer process on one core. -rss_limit_mb guards the readers'
# allocation checks (a header must never make them reserve more than the file holds).
# -timeout: a tiny requested cell with shapes up to 1e38 costs find_pairs a few seconds
# under the sanitizers (bounded: the grid clamps its cell count), a hang far more.
# LSAN_OPTIONS: oneTBB's lazily freed observer proxies are not leaks (fuzz/lsan.supp).
run_target() {
  local t="$1" work="build/fuzz/work/$1"
  rm -rf "$work" && mkdir -p "$work"
  cp fuzz/corpus/"$t"/* "$work"/
  LSAN_OPTIONS="suppressions=$PWD/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
    build/fuzz/fuzz/fuzz_"$t" "$work" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 \
    -artifact_prefix="build/fuzz/artifacts/$t-" -print_final_stats=1 > "build/fuzz/$t.log" 2>&1
}
failed=0
for ((i = 0; i < ${#targets[@]}; i += parallel)); do
  batch=("${targets[@]:i:parallel}")
  pids=()
  for t in "${batch[@]}"; do
    echo "== fuzz: $t for ${seconds} s"
    run_target "$t" &
    pids+=($!)
  done
  for k in "${!batch[@]}"; do
    t="${batch[$k]}"
    if wait "${pids[$k]}"; then
      echo "$t: $(grep -E "^stat::number_of_executed_units|^stat::new_units_added" "build/fuzz/$t.log" | tr '\n' ' ')"
    else
      tail -n 60 "build/fuzz/$t.log"
      echo "fuzz: $t failed; its input is in build/fuzz/artifacts/" >&2
      failed=1
    fi
  done
  if [ "$failed" -ne 0 ]; then exit 1; fi
done
