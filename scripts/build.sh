#!/usr/bin/env bash
# Configures and builds one configuration: scripts/build.sh release|asan|tsan|fuzz
#   release: Release, warnings as errors, everything (library, command, tests, benchmarks)
#   asan:    AddressSanitizer + UndefinedBehaviorSanitizer, -O2 with asserts on (the command's
#            and the tests' own code -O1), no benchmarks or peer libraries
#   tsan:    ThreadSanitizer (GCC) against oneTBB built with TSan (scripts/tbb_tsan.sh), the tests of the parallel parts only
#   fuzz:    the libFuzzer targets of fuzz/ with ASan + UBSan (clang), no tests or benchmarks
set -euo pipefail
cd "$(dirname "$0")/.."
config="${1:-release}"
case "$config" in
  release) args=(-DCMAKE_BUILD_TYPE=Release) ;;
  # -g1: file and line in the sanitizers' reports, without the variable locations of -g
  # (a quarter of the compile time of the files that format with fmt).
  asan) args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1"
              -DHITGRID_SANITIZE=ON -DHITGRID_BUILD_BENCH=OFF) ;;
  # ThreadSanitizer: the tests that run parallel code (the grid's build, passes and merges,
  # find_pairs, GridIndex, the world's step), not the whole suite: the rest is serial and
  # costs minutes under TSan (docs/testing.md gives the numbers).
  # GCC's TSan (clang 14 cannot compile the tests: they capture structured bindings in
  # lambdas, which clang supports from version 16), against oneTBB built with TSan
  # (scripts/tbb_tsan.sh: Debian's libtbb is not instrumented, so TSan would not see its
  # task hand-offs); the test binaries' rpath points at build/tbb-tsan/lib.
  tsan) scripts/tbb_tsan.sh
        args=("-DTBB_DIR=$PWD/build/tbb-tsan/lib/cmake/TBB" -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ -DCMAKE_BUILD_TYPE=RelWithDebInfo
              "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" -DHITGRID_SANITIZE_THREAD=ON -DHITGRID_BUILD_BENCH=OFF
              -DHITGRID_BUILD_CAPI=OFF -DHITGRID_BUILD_PYTHON=OFF
              "-DHITGRID_TEST_ONLY=broadphase/test_(find_pairs|parallel|grid|grid_index|home_grid|home_grid_pairs|assign_rows|cell_size|crowded_sweep|tiled_grid|large_spans|block_cache|key_chunk_pool|pair_keys|brute_force|sweep_and_prune|counting_sort|radix_sort|sorted_pairs)\\.cpp|world/") ;;
  fuzz) args=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo
              "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" -DHITGRID_FUZZ=ON -DHITGRID_BUILD_TESTS=OFF
              -DHITGRID_BUILD_BENCH=OFF -DHITGRID_BUILD_APPS=OFF -DHITGRID_BUILD_CAPI=OFF -DHITGRID_BUILD_PYTHON=OFF) ;;
  *) echo "usage: scripts/build.sh release|asan|tsan|fuzz" >&2; exit 2 ;;
esac
cmake -S . -B "build/$config" -G Ninja "${args[@]}"
cmake --build "build/$config" --parallel "$(nproc)"
