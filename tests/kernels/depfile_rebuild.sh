#!/bin/bash
# hetvp_add_gpu_kernels recompiles a kernel when a header it includes changes, for any header and
# out of hetvp's tree: clang writes a depfile (-MD -MF) that add_custom_command's DEPFILE reads. A
# project of its own includes cmake/HetvpGpuKernels.cmake and compiles k.cu, which includes a header
# of that project; the header changes; the next build must compile k.cu again.
# usage: depfile_rebuild.sh SOURCE CLANG
set -eu
src=$1 clang=$2
tmp=$(mktemp -d /tmp/hetvp-depfile-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/proj/inc"
cat > "$tmp/proj/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(depfile_check LANGUAGES NONE)
set(HETVP_CLANG "$clang" CACHE FILEPATH "")
include("$src/cmake/HetvpGpuKernels.cmake")
hetvp_add_gpu_kernels(TARGET k_ptx SOURCES k.cu ARCH sm_20 OPTIONS -I\${CMAKE_CURRENT_SOURCE_DIR}/inc)
CMAKE
echo '#define K_VALUE 1234567' > "$tmp/proj/inc/value.h"
printf '#include "value.h"\nextern "C" __global__ void k(unsigned* out) { *out = K_VALUE; }\n' > "$tmp/proj/k.cu"
cmake -S "$tmp/proj" -B "$tmp/build" >/dev/null
cmake --build "$tmp/build" >/dev/null
grep -q 1234567 "$tmp/build/k.sm_20.ptx" || { echo "FAIL: the first build did not compile the header's value"; exit 1; }
sleep 1  # a newer modification time than the .ptx's on any file system
echo '#define K_VALUE 7654321' > "$tmp/proj/inc/value.h"
cmake --build "$tmp/build" >/dev/null
grep -q 7654321 "$tmp/build/k.sm_20.ptx" || { echo "FAIL: k.cu was not recompiled after value.h changed"; exit 1; }
echo "hetvp_add_gpu_kernels: a changed header recompiles its kernel: ok"
