#!/usr/bin/env bash
# hetvp — microcontroller benchmarks (docs/benchmarks.md, section "Microcontrollers").
#   bench/mcu/run_mcu_bench.sh [BUILD_DIR]      (default: build)
# 1. ISS speed inside the SystemC model: the CPU-bound firmware mcu_spin (CRC-32 loop) on the HUB
#    alone and on HUB + 4 GPCs, DMI on/off, quantum 10 ns / 1 us / 100 us (workload mcu_bench;
#    MIPS = instructions retired / wall time of the run phase).
# 2. Wall time of a full boot (hetvp run --workload mcu_boot, whole process).
# 3. Host CPU per simulated second of an idle platform (every microcontroller asleep in wfi).
set -euo pipefail
B=${1:-build}
H="$B/hetvp"
C="$(dirname "$0")/../../configs/default.yaml"
printf '%-10s %-5s %-8s %12s\n' targets dmi quantum MIPS
for targets in hub all; do
  for dmi in true false; do
    for q in "100 us" "1 us" "10 ns"; do
      it=3000000
      [ "$q" = "10 ns" ] && it=300000
      line=$("$H" run "$C" --workload mcu_bench --set "simulation.quantum=$q" --set workload.args.targets=$targets \
             --set workload.args.iterations=$it --set gpu0.microcontrollers.hub.dmi=$dmi \
             --set gpu0.microcontrollers.gpc.dmi=$dmi | grep 'mcu_bench:')
      printf '%-10s %-5s %-8s %12s\n' "$targets" "$dmi" "$q" "$(sed -E 's/.* ([0-9.]+) MIPS/\1/' <<<"$line")"
    done
  done
done
echo
for i in 1 2 3; do
  s=$(date +%s.%N)
  "$H" run "$C" --workload mcu_boot -q
  e=$(date +%s.%N)
  echo "full boot (mcu_boot, whole process) wall: $(echo "$e - $s" | bc) s"
done
echo
"$H" run "$C" --workload mcu_boot --set workload.args.idle=1s | grep -E 'idle|wall'
"$H" run "$C" --workload mcu_boot --set workload.args.idle=10s | grep -E 'idle'
