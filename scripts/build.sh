#!/usr/bin/env bash
# Configures and builds one configuration: scripts/build.sh release|asan
#   release: Release, warnings as errors, everything (library, command, tests, benchmarks)
#   asan:    AddressSanitizer + UndefinedBehaviorSanitizer, -O2 with asserts on, no benchmarks
set -euo pipefail
cd "$(dirname "$0")/.."
config="${1:-release}"
case "$config" in
  release) args=(-DCMAKE_BUILD_TYPE=Release) ;;
  asan) args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g"
              -DHITGRID_SANITIZE=ON -DHITGRID_BUILD_BENCH=OFF) ;;
  *) echo "usage: scripts/build.sh release|asan" >&2; exit 2 ;;
esac
cmake -S . -B "build/$config" -G Ninja "${args[@]}"
cmake --build "build/$config" --parallel "$(nproc)"
