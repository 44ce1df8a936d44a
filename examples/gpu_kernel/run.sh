#!/bin/bash
# Runs tile_sum.cu on a Kepler GK104 (sm_30) with gpu_run and compares its outputs with the host
# reference's. From the example's build folder (docs/gpu_kernels.md):
#   ../examples/gpu_kernel/run.sh hetvp /where/hetvp/is/installed/share/hetvp/configs
# usage: run.sh HETVP CONFIGS_DIR [N] [BLOCK]
set -eu
hetvp=$1 configs=$2 n=${3:-1000} block=${4:-128}
./tile_sum_reference "$n" "$block"
"$hetvp" run "$configs/gk104_nouveau.yaml" --workload gpu_run \
  --set workload.args.module=tile_sum.sm_30.ptx --set workload.args.kernel=tile_sum \
  --set workload.args.grid_x=$(((n + block - 1) / block)) --set workload.args.block_x="$block" \
  --set "workload.args.args='@in, @out, @total, $n'" \
  --set "workload.args.buffers=[{name: in, file: in.bin}, {name: out, size: $((4 * n)), output: out.bin}, {name: total, size: 4, output: total.bin}]"
cmp out.bin out.expected
cmp total.bin total.expected
echo "tile_sum: outputs equal to the host reference's"
