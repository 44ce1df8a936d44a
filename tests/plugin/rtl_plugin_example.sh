#!/bin/bash
# Installs hetvp from BUILD into a scratch prefix, builds examples/rtl_plugin (an APB-only RTL
# block, its TLM reference and its host program) OUT OF TREE against the installed package
# (find_package(hetvp) + hetvp_add_rtl_block), and runs it with the installed `hetvp` in rtl, tlm
# and lockstep modes: each passes, and the CSV (values and STATUS polls per job) and the
# components' stats are identical in the three modes (the reference is cycle-exact).
# usage: rtl_plugin_example.sh BUILD SOURCE
set -eu
build=$1 src=$2
tmp=$(mktemp -d /tmp/hetvp-rtl-plugin-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
# A copy of the example outside both trees: nothing may come from hetvp's source folder.
cp -r "$src/examples/rtl_plugin" "$tmp/example"
cmake -S "$tmp/example" -B "$tmp/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_BUILD_TYPE=Release \
  ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER} >"$tmp/configure.txt" ||
  { cat "$tmp/configure.txt"; exit 1; }
cmake --build "$tmp/build" >"$tmp/build.txt" 2>&1 || { cat "$tmp/build.txt"; exit 1; }
lib=$tmp/build/libhetvp_mul32.so
hetvp=$tmp/prefix/bin/hetvp
cfg=$tmp/example/mul32.yaml
"$hetvp" list --plugin "$lib" | grep -F "rtl.mul32 — Verilated RTL block mul32 (top mul32; modes rtl, tlm, lockstep); ports: regs (target, APB slave)"
# Without the plugin: a configuration error that hints at it.
set +e
"$hetvp" check "$cfg" >"$tmp/noplugin.txt" 2>&1
rc=$?
set -e
[[ $rc == 2 ]] || { echo "FAIL: check without the plugin: exit $rc"; cat "$tmp/noplugin.txt"; exit 1; }
grep -q "rtl.mul32" "$tmp/noplugin.txt" && grep -qi "plugin" "$tmp/noplugin.txt" ||
  { echo "FAIL: no plugin hint:"; cat "$tmp/noplugin.txt"; exit 1; }
for mode in rtl tlm lockstep; do
  "$hetvp" run "$cfg" --plugin "$lib" --set mul0.mode=$mode --set workload.args.jobs=20 \
    --stats "$tmp/$mode.json" --csv "$tmp/$mode.csv" --no-progress | tee "$tmp/$mode.txt"
  grep -q "mul32: 20 jobs, 0 wrong" "$tmp/$mode.txt"
  grep -q "result: PASS" "$tmp/$mode.txt"
done
grep -q "mul0: RTL clock ran" "$tmp/rtl.txt"
cmp "$tmp/rtl.csv" "$tmp/tlm.csv"
cmp "$tmp/rtl.csv" "$tmp/lockstep.csv"
python3 - "$tmp" <<'PY'
import json, sys, csv
d = sys.argv[1]
comps = {m: json.load(open(f"{d}/{m}.json"))["components"] for m in ("rtl", "tlm", "lockstep")}
for c in comps["lockstep"].values():  # lockstep's own counters (what it compared) exist only there
    for k in [k for k in c if k.startswith("lockstep_")]:
        del c[k]
assert comps["rtl"] == comps["tlm"] == comps["lockstep"], "stats differ between modes"
rows = list(csv.DictReader(open(f"{d}/rtl.csv")))
assert len(rows) == 20 and all(int(r["product"]) == int(r["a"]) * int(r["b"]) for r in rows), rows[:2]
assert all(int(r["polls"]) >= 2 for r in rows), "a job finished before its first STATUS poll?"
print("rtl.mul32 out of tree: rtl, tlm and lockstep agree on", len(rows), "jobs")
PY
echo "RTL plugin example against the installed package: ok"
