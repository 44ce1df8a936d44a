#!/usr/bin/env bash
# The local-time shortcut (issue #31, models/mcu/core_host.cpp run_on) must actually fire: the same
# GPC1-only transfer with gpu0.microcontrollers.*.local_time_bursts on and off, under the counting
# hook of bench/mcu (LD_PRELOAD, counts SystemC coroutine switches), must give identical component
# statistics and far fewer switches with the shortcut on. (McuLocalTime.BurstsInLocalTimeChangeNoResult
# proves the results do not move; this proves the shortcut is taken.)
#   tests/mcu_boot/local_time_switches.sh HETVP HOOK CONFIG
set -euo pipefail
hetvp=$1 hook=$2 cfg=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
job=(run "$cfg" --set workload.args.methods=gpc1 --set workload.args.max_size=256KiB -q)
off=(--set gpu0.microcontrollers.hub.local_time_bursts=false --set gpu0.microcontrollers.gpc.local_time_bursts=false)
LD_PRELOAD=$hook "$hetvp" "${job[@]}" --stats "$out/on.json" 2>"$out/on.err"
LD_PRELOAD=$hook "$hetvp" "${job[@]}" "${off[@]}" --stats "$out/off.json" 2>"$out/off.err"
count() { sed -n 's/^count_switches: \([0-9]*\) coroutine switches$/\1/p' "$1"; }
on=$(count "$out/on.err") off_n=$(count "$out/off.err")
[ -n "$on" ] && [ -n "$off_n" ] || { echo "no count_switches line (hook not loaded?)"; cat "$out"/*.err; exit 1; }
components() { python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["components"], sort_keys=True))' "$1"; }
[ "$(components "$out/on.json")" = "$(components "$out/off.json")" ] || { echo "component statistics differ"; exit 1; }
# every microcontroller's xfers (the "gpc1" method is one GPC's offload: GPC 0's core)
xfers=$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["components"]["gpu0"]["microcontrollers"]; print(sum(v.get("xfers", 0) for v in m.values() if isinstance(v, dict)))' "$out/on.json")
echo "switches: shortcut on $on, off $off_n, for $xfers microcontroller xfers"
[ "$xfers" -gt 100 ] || { echo "too few xfers ($xfers) to tell"; exit 1; }
# Off: ~9 switches per xfer (docs/benchmarks.md); on: well under one. Ask for a factor of 5.
[ $((on * 5)) -lt "$off_n" ] || { echo "the shortcut did not fire: $on switches with it, $off_n without"; exit 1; }
