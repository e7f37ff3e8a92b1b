#!/usr/bin/env bash
# README command 2: install what is missing, build, and run every test: the Release build,
# then again under AddressSanitizer + UndefinedBehaviorSanitizer; the tests of the parallel
# parts under ThreadSanitizer (against oneTBB built with TSan: scripts/tbb_tsan.sh); the
# fuzz targets' corpus and a short run of each (docs/testing.md says what each part costs).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
part() {  # part NAME COMMAND...: runs it and says how long it took
  local name="$1" start=$SECONDS
  shift
  "$@"
  echo "== time: $name $((SECONDS - start)) s"
}
for config in release asan tsan; do
  part "build $config" scripts/build.sh "$config"
  echo "== tests: $config"
  part "tests $config" ctest --test-dir "build/$config" --output-on-failure --parallel "$(nproc)"
done
part "build fuzz" scripts/build.sh fuzz
echo "== tests: fuzz corpus"
part "tests fuzz corpus" ctest --test-dir build/fuzz --output-on-failure --parallel "$(nproc)"
# 30 s per target, two at a time (CI's two cores): 2 minutes for the eight, within CI's
# 45-minute budget (docs/testing.md gives every part's cost).
part "fuzz" scripts/fuzz.sh 30 2
