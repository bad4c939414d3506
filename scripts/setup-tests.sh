#!/usr/bin/env bash
# setup-tests: install what the tests need on a fresh Debian/Ubuntu machine with the CUDA
# toolkit, then return; the README's test command runs it before the tests:
#
#   bash scripts/setup-tests.sh && bash scripts/run-tests.sh cpu
#
# What it installs, and only when missing:
#   doctest-dev, ninja-build, clang-format,  Debian packages (apt-get; sudo when not root)
#   doxygen
#   cuobjdump, nvdisasm                      NVIDIA's PyPI wheels, into
#                                            ~/.cache/cuprobe-ci/wheels (the SASS tier finds them
#                                            there by itself) when the toolkit has none
#   matplotlib, scipy                        PyPI, into ~/.cache/cuprobe-ci/python (the plot
#                                            and compare tests find them there by themselves)
#                                            when python3 lacks them
set -euo pipefail
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
apt_install() {
  as_root apt-get install -y -qq "$@" >/dev/null 2>&1 ||
    { as_root apt-get update -qq >/dev/null && as_root apt-get install -y -qq "$@" >/dev/null; }
}
cache="${XDG_CACHE_HOME:-$HOME/.cache}/cuprobe-ci"

if [ ! -f /usr/include/doctest/doctest.h ] && [ ! -f /usr/local/include/doctest/doctest.h ]; then
  echo "setup-tests: installing doctest-dev"
  apt_install doctest-dev
fi
command -v ninja >/dev/null || { echo "setup-tests: installing ninja-build"; apt_install ninja-build; }
command -v clang-format >/dev/null || { echo "setup-tests: installing clang-format"; apt_install clang-format; }
command -v doxygen >/dev/null || { echo "setup-tests: installing doxygen"; apt_install doxygen; }

nvcc_bin="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
cuda_bin="$(dirname "$nvcc_bin")"
if ! { [ -x "$cuda_bin/cuobjdump" ] && [ -x "$cuda_bin/nvdisasm" ]; } &&
   ! { command -v cuobjdump >/dev/null && command -v nvdisasm >/dev/null; } &&
   ! [ -x "$cache/wheels/nvidia/cu13/bin/nvdisasm" ]; then
  echo "setup-tests: installing cuobjdump and nvdisasm from PyPI (nvidia-cuda-cuobjdump, nvidia-cuda-nvdisasm)"
  python3 -m pip install -q --upgrade --disable-pip-version-check --target "$cache/wheels" \
    nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm 2>&1 | grep -v "Running pip as the 'root' user" || true
fi
if ! python3 -c "import matplotlib" 2>/dev/null && ! [ -d "$cache/python/matplotlib" ]; then
  echo "setup-tests: installing matplotlib from PyPI"
  python3 -m pip install -q --upgrade --disable-pip-version-check --target "$cache/python" matplotlib 2>&1 |
    grep -v "Running pip as the 'root' user" || true
fi
if ! python3 -c "import scipy" 2>/dev/null && ! [ -d "$cache/python/scipy" ]; then
  echo "setup-tests: installing scipy from PyPI"
  python3 -m pip install -q --upgrade --disable-pip-version-check --target "$cache/python" scipy 2>&1 |
    grep -v "Running pip as the 'root' user" || true
fi
echo "setup-tests: nvcc $("$nvcc_bin" --version | tail -1); clang-format $(clang-format --version | sed 's/.*version //')"
