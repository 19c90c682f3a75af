#!/usr/bin/env bash
# Builds a release's two files from this source tree, on Debian 12 with the packages of
# .ci/packages:
#
#   tools/release/build-release.sh [OUT_DIR]        # default: out/
#
#   OUT_DIR/perfduel-<version>-linux-x86_64.tar.gz  the portable archive: the driver (libstdc++,
#                                                   libgcc, yaml-cpp, fmt, Boost, SQLite, ... linked
#                                                   in; glibc >= 2.31), the CMake package, the
#                                                   templates and the docs (cmake/Portable.cmake)
#   OUT_DIR/perfduel_<version>_amd64.deb            the Debian package for Debian 12 (cmake/Package.cmake)
#
# Two builds, in OUT_DIR/build-archive and OUT_DIR/build-deb: the package links Debian's shared
# libraries (dpkg-shlibdeps lists them), the archive carries its own. The version is project()'s
# in CMakeLists.txt; the commit `perfduel --version` names is this checkout's HEAD.
set -euo pipefail
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=$(mkdir -p "${1:-out}" && cd "${1:-out}" && pwd)
jobs=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi

build() {  # build DIR CMAKE_ARGS...: a Release build of the driver without the test suite
  local dir=$1
  shift
  cmake -S "$source_dir" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPERFDUEL_BUILD_TESTS=OFF \
    "${launcher[@]}" "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
}

build "$out/build-archive" -DPERFDUEL_PORTABLE=ON
cpack -G TGZ -B "$out" --config "$out/build-archive/CPackConfig.cmake" >/dev/null
build "$out/build-deb"
cpack -G DEB -B "$out" --config "$out/build-deb/CPackConfig.cmake" >/dev/null
rm -rf "$out/_CPack_Packages"
cd "$out"
ls perfduel-*-linux-x86_64.tar.gz perfduel_*.deb
