#!/usr/bin/env bash
# Installs every Debian package hitgrid needs to build, test and benchmark.
# Safe to run again: apt-get skips what is already installed.
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config
  libtbb-dev libxsimd-dev            # library: threads, SIMD
  libcli11-dev libfmt-dev            # the hitgrid command and compare_peers
  catch2 libgmp-dev                  # tests (GMP: exact reference, test-only)
  clang libclang-rt-14-dev llvm      # the libFuzzer build (scripts/build.sh fuzz)
  curl ca-certificates xz-utils patch  # oneTBB's source from Debian's archive for the TSan build (scripts/tbb_tsan.sh)
  libbenchmark-dev                   # benchmarks
  libbox2d-dev libcgal-dev libbullet-dev  # peer libraries: benchmarks and compare_peers (bench/peers)
  python3 python3-matplotlib         # report plots (scripts/bench_report.sh, tools/bench_report.py)
  librsvg2-bin                       # rsvg-convert: SVG pictures (hitgrid draw / rope) to PNG
  pybind11-dev python3-dev python3-numpy python3-pytest  # the Python module (python/) and its tests
)

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -ne 0 ]; then
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${packages[@]}"
fi
