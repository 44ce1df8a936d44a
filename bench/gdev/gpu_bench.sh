#!/bin/sh
# Wall time per simulated gpu_bench run (docs/benchmarks.md, "gpu_bench"): each program, 10 runs of
# CONTEXTS contexts (default 1; 4: the FIFO switches GR between them through the HUB/GPC firmware)
# on configs/default.yaml (or CONFIG: configs/gf100_nouveau.yaml switches with nouveau's firmware);
# prints program, size, simulated first/median run, wall seconds.
# Usage: bench/gdev/gpu_bench.sh [CONTEXTS [CONFIG]]
set -e
cd "$(dirname "$0")/../.."
ctx=${1:-1}
cfg=${2:-configs/default.yaml}
for spec in madd:64 madd:256 fmadd:256 mmul:64 memcpy:1048576 loop:100000 idle:100000; do
  p=${spec%%:*}; n=${spec#*:}
  start=$(date +%s.%N)
  ./build/hetvp run "$cfg" --workload gpu_bench --set workload.args.program=$p \
    --set workload.args.size=$n --set workload.args.runs=10 --set workload.args.contexts=$ctx \
    --quiet --stats /tmp/gpu_bench_$p.json
  end=$(date +%s.%N)
  python3 - "$p" "$n" "$start" "$end" "$ctx" <<'PY'
import json, sys
p, n, s, e, ctx = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
st = json.load(open(f"/tmp/gpu_bench_{p}.json"))["components"]["cpu"]["program"]
print(f"{p:7s} {n:>8s} x{ctx}  first {st['first_run_ns']/1e3:10.1f} us  median {st['median_run_ns']/1e3:10.1f} us  "
      f"switches {st['switches']:5.0f}  golden {st['golden_ns']/1e3:5.1f} us  wall {e - s:6.2f} s  ({(e - s) / 10 * 1e3:7.1f} ms wall per simulated run)")
PY
done
