#!/usr/bin/env bash
# README command 1: install what is missing, build, and run hitgrid's main job on the
# built-in default scene (uniform, N = 1,000,000, seed 1). Extra arguments go to hitgrid.
#
# Then, when the build has the peer libraries (build/release/bench/compare_peers exists),
# one line comparing hitgrid with them (CGAL, Bullet, Box2D) on the same family, seed and
# --threads at min(N, 100,000) shapes: the peers take seconds to minutes at a million.
# Each runs once and must find hitgrid's pairs. It is a separate program
# (bench/peers/compare_peers.cpp) so that the hitgrid command never needs the peer
# libraries. Not run after the gen and pairs verbs, --help or --n 0.
#
# Environment: HITGRID_NO_PEERS=1 skips the comparison line.
# Exit status: hitgrid's when it fails, else the comparison's (1: a peer found other pairs).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh release
build/release/apps/hitgrid "$@"  # not exec'd: the comparison runs after it (set -e stops on failure)

compare=build/release/bench/compare_peers
case "${HITGRID_NO_PEERS:-}" in "" | 0) ;; *) exit 0 ;; esac
[ -x "$compare" ] || exit 0

# The main job's scene, from the arguments hitgrid has just accepted (so each option has
# its value), in either spelling: --n 5000 or --n=5000. Defaults: hitgrid's.
family=uniform seed=1 n=1000000 threads=0
while [ $# -gt 0 ]; do
  case "$1" in
    gen | pairs | -h | --help) exit 0 ;;  # not the main job
    --family) family=$2; shift ;;
    --seed) seed=$2; shift ;;
    --n) n=$2; shift ;;
    --threads) threads=$2; shift ;;
    --family=*) family=${1#*=} ;;
    --seed=*) seed=${1#*=} ;;
    --n=*) n=${1#*=} ;;
    --threads=*) threads=${1#*=} ;;
  esac
  shift
done
# hitgrid reads integers as C does (strtoull, base 0: 0x10 and 010 too), as shell
# arithmetic does; any other spelling it accepted goes to compare_peers, which reads it
# the same way, as it is.
if [[ $n =~ ^(0[xX][0-9a-fA-F]+|[0-9]+)$ ]]; then
  n=$((n))
  if [ "$n" -eq 0 ]; then exit 0; fi  # an empty scene: nothing to compare
  if [ "$n" -gt 100000 ]; then n=100000; fi
fi
exec "$compare" --family "$family" --n "$n" --seed "$seed" --threads "$threads"
