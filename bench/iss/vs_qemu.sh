#!/usr/bin/env bash
# bench/iss/vs_qemu.sh — RV32 ISS speed against QEMU (issue #31).
#
# Builds two CPU-bound, self-checking RV32IM C programs (bench/iss/programs/: a CRC-32 + quicksort
# mix and a bitwise CRC-32 loop) with riscv64-unknown-elf-gcc + picolibc's rv32im multilib, runs
# each on `hetvp iss` (fast path = pre-decoded blocks, and --no-jit = the per-instruction
# interpreter) and, when `qemu-system-riscv32` is on PATH, on QEMU's `virt` machine (TCG,
# `-bios none`). The ELF is the same for both (code at 0x8000_0000, data at 0x8020_0000; exit via
# `tohost` on hetvp, via the SiFive test device on QEMU). Nothing is installed.
#
# Metric: guest instructions per second of CPU time (user + sys of the whole process, start-up
# included), best of --repeat runs. The instruction count is hetvp's (`exit code 0 after N
# instructions`); the program is deterministic, so QEMU executes the same N.
#
# usage: bench/iss/vs_qemu.sh [--hetvp PATH] [--repeat R] [--scale S] [--qemu PATH]
#   --hetvp   the hetvp binary (default: build/hetvp of this checkout)
#   --repeat  runs per measurement, the best (least CPU) is kept (default 3)
#   --scale   multiplies both programs' round counts (default 1: ~0.5 G and ~0.4 G instructions)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
hetvp="$root/build/hetvp"
qemu=$(command -v qemu-system-riscv32 || true)
repeat=3
scale=1
while [ $# -gt 0 ]; do
  case "$1" in
    --hetvp) hetvp=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --scale) scale=$2; shift 2 ;;
    --qemu) qemu=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "vs_qemu.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ -x "$hetvp" ] || { echo "vs_qemu.sh: no hetvp binary at $hetvp (build first or pass --hetvp)" >&2; exit 2; }
gcc=riscv64-unknown-elf-gcc
command -v $gcc >/dev/null || { echo "vs_qemu.sh: $gcc not found" >&2; exit 2; }

work=$(mktemp -d /tmp/vs_qemu.XXXXXX)
trap 'rm -rf "$work"' EXIT

# program -> rounds at scale 1
declare -A rounds=([crc_qsort]=1000 [crc_loop]=2000)
for p in crc_qsort crc_loop; do
  $gcc -march=rv32im -mabi=ilp32 -O2 --specs=picolibc.specs -nostartfiles -DROUNDS=$((rounds[$p] * scale)) \
    -T "$here/programs/vs_qemu.ld" "$here/programs/start.S" "$here/programs/$p.c" -o "$work/$p.elf"
done

# cpu_time CMD... : runs CMD (stdout+stderr to $work/out), prints user+sys seconds; fails if CMD fails
cpu_time() {
  local t
  TIMEFORMAT='%3U %3S'
  t=$( { time "$@" >"$work/out" 2>&1; } 2>&1 ) || { echo "vs_qemu.sh: failed: $*" >&2; cat "$work/out" >&2; return 1; }
  awk '{printf "%.3f\n", $1 + $2}' <<<"$t"
}
best_of() {
  local best="" t
  for _ in $(seq "$repeat"); do
    t=$(cpu_time "$@")
    if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$t; fi
  done
  echo "$best"
}

printf '%-10s %-22s %14s %9s %9s %10s\n' program run instructions cpu_s MIPS vs_qemu
for p in crc_qsort crc_loop; do
  elf="$work/$p.elf"
  "$hetvp" iss "$elf" >"$work/log" 2>&1 || { echo "vs_qemu.sh: $p failed on hetvp:" >&2; cat "$work/log" >&2; exit 1; }
  n=$(sed -n 's/.*exit code 0 after \([0-9]*\) instructions.*/\1/p' "$work/log")
  declare -A cpu=()
  cpu[hetvp]=$(best_of "$hetvp" iss "$elf")
  cpu[hetvp_nojit]=$(best_of "$hetvp" iss "$elf" --no-jit)
  if [ -n "$qemu" ]; then
    cpu[qemu]=$(best_of "$qemu" -M virt -display none -monitor none -serial none -bios none -kernel "$elf")
  fi
  for run in hetvp hetvp_nojit qemu; do
    [ -n "${cpu[$run]:-}" ] || continue
    label=$run
    case $run in hetvp) label="hetvp iss" ;; hetvp_nojit) label="hetvp iss --no-jit" ;; qemu) label="qemu-system-riscv32" ;; esac
    ratio="-"
    [ -n "${cpu[qemu]:-}" ] && ratio=$(awk -v q="${cpu[qemu]}" -v h="${cpu[$run]}" 'BEGIN{printf "%.2fx", q / h}')
    printf '%-10s %-22s %14s %9s %9.0f %10s\n' "$p" "$label" "$n" "${cpu[$run]}" \
      "$(awk -v n="$n" -v t="${cpu[$run]}" 'BEGIN{print n / t / 1e6}')" "$ratio"
  done
  awk -v a="${cpu[hetvp_nojit]}" -v b="${cpu[hetvp]}" -v p="$p" 'BEGIN{printf "%-10s fast path vs --no-jit: %.2fx\n", p, a / b}'
  unset cpu
done
[ -n "$qemu" ] || echo "(qemu-system-riscv32 not found: only hetvp measured; Debian: apt-get install qemu-system-misc)"
