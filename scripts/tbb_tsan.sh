#!/usr/bin/env bash
# Builds oneTBB with ThreadSanitizer into build/tbb-tsan (scripts/build.sh tsan calls it;
# docs/testing.md says why): the source of the libtbb-dev Debian 12 installs
# (2021.8.0-2+deb12u1), downloaded from Debian's archive and checked against pinned
# SHA-256 sums, Debian's patches applied, built with GCC and TBB_SANITIZE=thread, without
# oneTBB's tests, tbbmalloc and hwloc binding (hitgrid uses neither). Nothing of oneTBB is
# kept in the repository. Skipped when build/tbb-tsan already holds this version.
#   scripts/tbb_tsan.sh
set -euo pipefail
cd "$(dirname "$0")/.."

version=2021.8.0
debian_version=2021.8.0-2+deb12u1
pool=https://deb.debian.org/debian/pool/main/o/onetbb
orig="onetbb_${version}.orig.tar.xz"
orig_sha256=7e9111b8bb59c8800bf6d0b06afe7b0891937443d2dae1ee1101c8e2ede6a7ef
deb="onetbb_${debian_version}.debian.tar.xz"
deb_sha256=b83a270205b38cdf66972fa1467c3e29493b88b92ecacf4f3672e87d67199df5

prefix="$PWD/build/tbb-tsan"
stamp="$prefix/.built-$debian_version"
if [ -f "$stamp" ]; then
  echo "tbb_tsan: $prefix holds oneTBB $debian_version built with TSan"
  exit 0
fi

work="$PWD/build/tbb-tsan-src"
rm -rf "$work" "$prefix"
mkdir -p "$work"
for f in "$orig" "$deb"; do
  echo "tbb_tsan: downloading $pool/$f"
  curl -fsSL --retry 3 -o "$work/$f" "$pool/$f"
done
(cd "$work" && sha256sum -c - <<EOF
$orig_sha256  $orig
$deb_sha256  $deb
EOF
)
tar -C "$work" -xf "$work/$orig"
src="$work/oneTBB-$version"
tar -C "$src" -xf "$work/$deb"
# Debian's patches (a 3.0 (quilt) source package: debian/patches/series, -p1).
while read -r p; do
  case "$p" in ''|'#'*) continue ;; esac
  patch -d "$src" -p1 --quiet < "$src/debian/patches/$p"
done < "$src/debian/patches/series"

# -O1 -g as the tsan build of hitgrid (scripts/build.sh); TBB_SANITIZE adds
# -fsanitize=thread to every compile and link of oneTBB. The install's CMake package
# (lib/cmake/TBB) is what the tsan build finds, and its rpath points at lib/.
cmake -S "$src" -B "$work/build" -G Ninja \
  -DCMAKE_CXX_COMPILER=g++ -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" \
  -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib \
  -DTBB_SANITIZE=thread -DTBB_TEST=OFF -DTBB_EXAMPLES=OFF -DTBB_STRICT=OFF \
  -DTBBMALLOC_BUILD=OFF -DTBBMALLOC_PROXY_BUILD=OFF -DTBB_DISABLE_HWLOC_AUTOMATIC_SEARCH=ON \
  -DTBB4PY_BUILD=OFF
cmake --build "$work/build" --parallel "$(nproc)"
cmake --install "$work/build"
rm -rf "$work"
touch "$stamp"
echo "tbb_tsan: oneTBB $debian_version with TSan in $prefix"
