#!/bin/bash
# A shuffle compiled for sm_20 fails with hetvp_cuda.h's message naming the architectures that have one.
# usage: shuffle_needs_sm30.sh CLANG INCLUDE_DIR SOURCE_DIR
set -u
out=$("$1" -x cuda --cuda-device-only --cuda-gpu-arch=sm_20 -nocudainc -nocudalib -Wno-unknown-cuda-version -O3 \
  -I"$2" -include hetvp_cuda.h -S "$3/sm20_shuffle.cu" -o /dev/null 2>&1) && { echo "FAIL: compiled"; exit 1; }
echo "$out" | grep -qF "warp shuffles need sm_30 or later (hetvp_add_gpu_kernels ARCH sm_30 or sm_35)" ||
  { echo "FAIL: $out"; exit 1; }
echo "ok: a shuffle on sm_20 is refused clearly"
