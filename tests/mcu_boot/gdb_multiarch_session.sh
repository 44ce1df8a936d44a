#!/usr/bin/env bash
# A real gdb-multiarch session against the GDB stub (optional test; needs gdb-multiarch).
#   gdb_multiarch_session.sh BUILD_DIR SOURCE_DIR
# Bounded: the platform gives up waiting for GDB after 20 s, gdb and the wait are under `timeout`.
set -u
B=$1; S=$2
T=$(mktemp -d)
"$B/hetvp" run "$S/configs/default.yaml" --workload mcu_boot --set gpu0.microcontrollers.gdb.target=gpc1 \
    --set gpu0.microcontrollers.gdb.accept_timeout=20 >"$T/out" 2>"$T/err" &
pid=$!
port=""
for _ in $(seq 100); do
  port=$(grep -o '127.0.0.1:[0-9]*' "$T/err" | cut -d: -f2)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "no stub port"; kill $pid; exit 1; }
timeout 60 gdb-multiarch -batch -nx "$B/firmware/gpc.elf" -ex 'set architecture riscv:rv32' \
  -ex "target remote 127.0.0.1:$port" -ex 'break fw_main' -ex 'continue' -ex 'info registers pc' \
  -ex 'delete' -ex 'detach' >"$T/gdb" 2>&1
timeout 60 tail --pid=$pid -f /dev/null
wait $pid; rc=$?
cat "$T/gdb" "$T/out"
grep -q 'Breakpoint 1, fw_main ()' "$T/gdb" || { echo "gdb did not stop at fw_main"; exit 1; }
grep -q 'HUB + 4 GPCs booted' "$T/out" || { echo "the boot did not finish"; exit 1; }
exit $rc
