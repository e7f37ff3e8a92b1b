#!/usr/bin/env bash
# README command 1: install what is missing, build, and run hitgrid's main job on the
# built-in default scene (uniform, N = 1,000,000, seed 1). Extra arguments go to hitgrid.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh release
exec build/release/apps/hitgrid "$@"
