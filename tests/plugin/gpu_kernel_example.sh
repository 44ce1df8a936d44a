#!/bin/bash
# Installs hetvp from BUILD into a scratch prefix, builds examples/gpu_kernel against the installed
# package (find_package(hetvp), hetvp_add_gpu_kernels with the installed device header) and runs its
# kernel with the installed `hetvp` (gpu_run on the installed gk104_nouveau.yaml): the outputs must
# equal the host reference's.
# usage: gpu_kernel_example.sh BUILD SOURCE
set -eu
build=$1 src=$2
tmp=$(mktemp -d /tmp/hetvp-gpu-kernel-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cmake -S "$src/examples/gpu_kernel" -B "$tmp/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_BUILD_TYPE=Release \
  ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER} >/dev/null
cmake --build "$tmp/build" >/dev/null
test -s "$tmp/build/tile_sum.sm_30.ptx"
# The PTX was compiled with the installed device header, not the source tree's.
grep -rqF -- "-I$tmp/prefix/include/hetvp/sw/kernels" "$tmp/build/CMakeFiles" ||
  { echo "FAIL: the kernel was not compiled with the installed hetvp_cuda.h"; exit 1; }
cd "$tmp/build"
"$src/examples/gpu_kernel/run.sh" "$tmp/prefix/bin/hetvp" "$tmp/prefix/share/hetvp/configs" 1000 128 | tee run.txt
grep -q "gpu_run: kernel 'tile_sum' (grid 8x1, block 128x1) done in" run.txt
grep -q "tile_sum: outputs equal to the host reference's" run.txt
echo "gpu kernel example against the installed package: ok"
