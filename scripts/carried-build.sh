#!/usr/bin/env bash
# carried-build: a build made on this machine (no GPU) and run on the GPU machine, whose tree
# arrives elsewhere and whose tools may live at other paths (docs/development.md).
#
#   scripts/carried-build.sh pack      here, after `cmake --build --preset hopper` on a clean tree:
#                                      build/hopper/built-from names HEAD, and .prebuilt/hopper.tgz
#                                      holds the build (objects and fetched peers left out)
#   scripts/carried-build.sh unpack    there (carry .prebuilt): unpacks it into build/ unless the
#                                      build there already names the same commit, then makes the
#                                      paths the build names resolve (below); prints what it did
#
# CTest's files and the build's rules name absolute paths: the source directory, cmake, ctest,
# nvcc and the Python CTest runs (CMakeCache.txt). `unpack` links the source directory to this
# checkout and cmake, ctest and Python to the ones on PATH where those paths do not exist, and
# stops with a sentence where one cannot be made (another folder at the source directory's path,
# no such tool here, or no nvcc at the build's path: the same nvcc must be on both machines).
# It touches nothing else, and nothing of the GPU's.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-}"
archive=".prebuilt/hopper.tgz"
case "$mode" in
  pack)
    [ -f build/hopper/CMakeCache.txt ] || { echo "carried-build: no build/hopper to pack" >&2; exit 1; }
    git diff --quiet HEAD -- . ':!.prebuilt' ||
      echo "carried-build: warning: the tree differs from HEAD; built-from names HEAD" >&2
    git rev-parse HEAD > build/hopper/built-from
    mkdir -p .prebuilt
    tar -C build -czf "$archive" --exclude='*.o' --exclude=peers hopper
    echo "carried-build: $archive ($(du -h "$archive" | cut -f1)) from $(cat build/hopper/built-from)"
    ;;
  unpack)
    [ -f "$archive" ] || { echo "carried-build: no $archive (carry .prebuilt)" >&2; exit 1; }
    want="$(tar -xzOf "$archive" hopper/built-from 2>/dev/null || true)"
    have="$(cat build/hopper/built-from 2>/dev/null || true)"
    if [ -n "$want" ] && [ "$want" = "$have" ]; then
      echo "carried-build: build/hopper is $have already"
    else
      rm -rf build/hopper && mkdir -p build && tar -C build -xzf "$archive"
      echo "carried-build: unpacked $archive (built from ${want:-an unnamed commit})"
    fi
    cache=build/hopper/CMakeCache.txt
    value() { sed -n "s/^$1:[A-Z]*=//p" "$cache" | head -1; }
    # link PATH TARGET: PATH -> TARGET where PATH does not exist.
    link() {
      [ -z "$1" ] || [ -e "$1" ] && return 0
      [ -n "$2" ] || { echo "carried-build: $1 is absent and there is nothing here to stand for it" >&2; exit 1; }
      mkdir -p "$(dirname "$1")" && ln -s "$2" "$1" && echo "carried-build: linked $1 -> $2"
    }
    src="$(value CMAKE_HOME_DIRECTORY)"
    if [ -n "$src" ] && [ "$(cd "$src" 2>/dev/null && pwd -P)" != "$(pwd -P)" ]; then
      [ -e "$src" ] && { echo "carried-build: $src (the build's source directory) is another folder here" >&2; exit 1; }
      link "$src" "$PWD"
    fi
    link "$(value CMAKE_COMMAND)" "$(command -v cmake || true)"
    link "$(value CMAKE_CTEST_COMMAND)" "$(command -v ctest || true)"
    py="$(value _Python3_EXECUTABLE)"
    [ -z "$py" ] || link "$py" "$(command -v python3 || true)"
    nvcc="$(value CMAKE_CUDA_COMPILER)"
    [ -x "$nvcc" ] || { echo "carried-build: no nvcc at $nvcc, the build's (the same nvcc must be here)" >&2; exit 1; }
    ;;
  *)
    echo "usage: scripts/carried-build.sh pack | unpack" >&2
    exit 2
    ;;
esac
