#!/bin/bash
# Installs hetvp from BUILD into a scratch prefix, builds examples/plugin against the installed
# package (find_package(hetvp), hetvp::models) and lists and runs its component and host program
# with the installed `hetvp`, by --plugin and by the config's `plugins:` list.
# usage: plugin_example.sh BUILD SOURCE
set -eu
build=$1 src=$2
tmp=$(mktemp -d /tmp/hetvp-plugin-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cmake -S "$src/examples/plugin" -B "$tmp/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_BUILD_TYPE=Release \
  ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER} >/dev/null
cmake --build "$tmp/build" >/dev/null
lib=$tmp/build/libhetvp_accumulator.so
hetvp=$tmp/prefix/bin/hetvp
# The installed program must not reach back into the build or source tree (Verilator keeps the
# .sv file names for its own messages: names, not paths anything is read from).
baked=$(strings "$hetvp" "$tmp/prefix"/lib*/libhetvp*.so* | grep -e "$build" -e "$src" | grep -v '^'"$src"'/rtl/\([a-z0-9_]*/\)*[a-z0-9_]*\.sv$' || true)
if [[ -n $baked ]]; then
  echo "FAIL: an installed binary names the build or source tree: $baked"; exit 1
fi
"$hetvp" list --plugin "$lib" | tee "$tmp/list.txt" | grep -E "accumulator|accumulate"
grep -qxF "  accumulator — example plugin: a register that adds what is stored [plugin $lib]" "$tmp/list.txt"
grep -q "^  accumulate — example plugin" "$tmp/list.txt"
"$hetvp" list accumulator --plugin "$lib" | grep -qF "latency (time (e.g. 250 ns)) default 20 ns — cost of one register access"
cp "$src/examples/plugin/accumulator.yaml" "$tmp/acc.yaml"
"$hetvp" run "$tmp/acc.yaml" --plugin "$lib" --stats "$tmp/s.json" --csv "$tmp/r.csv" --trace "$tmp/t.json" \
  --set workload.args.n=50 | tee "$tmp/run.txt"
grep -q "accumulate: 50 stores, SUM = 1275 (correct)" "$tmp/run.txt"
python3 - "$tmp" <<'PY'
import json, sys, csv
d = sys.argv[1]
s = json.load(open(d + "/s.json"))
acc = s["components"]["acc"]
assert acc["adds"] == 50 and acc["reads"] == 1 and acc["sum"] == 1275, acc
rows = list(csv.DictReader(open(d + "/r.csv")))
assert rows[0]["sum"] == "1275", rows
t = json.load(open(d + "/t.json"))
names = {e["args"]["name"] for e in t["traceEvents"] if e.get("ph") == "M"}
assert any(n.endswith("acc") for n in names), names
print("stats, CSV and trace of the plugin component: ok")
PY
# The JSON Schema knows the plugin's type.
"$hetvp" schema --plugin "$lib" | python3 -c "import json, sys; assert 'accumulator' in json.load(sys.stdin)['definitions']"
# The installed Python module runs it too (when the build has the module).
py=python3
[[ -x /usr/bin/python3 ]] && py=/usr/bin/python3
if ls "$tmp/prefix"/lib*/python3/dist-packages/hetvp/_hetvp*.so >/dev/null 2>&1; then
  PYTHONPATH=$(echo "$tmp/prefix"/lib*/python3/dist-packages) "$py" - "$tmp/acc.yaml" "$lib" <<'PY'
import sys
import hetvp
r = hetvp.run(sys.argv[1], plugins=[sys.argv[2]], overrides={"workload.args.n": 10})
assert r["run"]["status"] == "pass" and r["components"]["acc"]["sum"] == 55, r["run"]
assert r["csv"] == [{"n": 10, "sum": 55, "ns_per_store": r["csv"][0]["ns_per_store"]}], r["csv"]
assert isinstance(r["csv"][0]["ns_per_store"], float), r["csv"]
assert "accumulator" in hetvp.list_types()["components"]
print("installed Python module with the plugin: ok")
PY
fi
# The same through the config's plugins: list (path relative to the YAML file), from the
# installed configs folder's neighbour.
cp "$lib" "$tmp/libacc.so"
printf '\nplugins: [libacc.so]\n' >>"$tmp/acc.yaml"
"$hetvp" run "$tmp/acc.yaml" --quiet
# Firmware comes from the installed prefix: boot the default platform from share/hetvp/configs.
"$hetvp" run "$tmp/prefix/share/hetvp/configs/default.yaml" --workload boot | grep -q "result: PASS"
# A shipped config by name: the installed share folder's (run from elsewhere, no configs/ here).
(cd "$tmp" && "$hetvp" check default | grep -qF "$tmp/prefix/share/hetvp/configs/default.yaml: OK") ||
  { echo "FAIL: the installed hetvp does not find its shipped config 'default' by name"; exit 1; }
echo "plugin example against the installed package: ok"
