#!/usr/bin/env bash
# README command 2: install what is missing, build, and run every test, in the Release
# build and again under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
for config in release asan; do
  scripts/build.sh "$config"
  echo "== tests: $config"
  ctest --test-dir "build/$config" --output-on-failure --parallel "$(nproc)"
done
