#!/usr/bin/env bash
# Bad sweep files and options: each gets a located error (sweep file:line:column) and exit 2
# before any point runs (the output directory is not even created).
#   tests/sweep/bad_input.sh HETVP
set -u
HETVP=${1:?usage: bad_input.sh HETVP}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d /tmp/hetvp-sweep-bad.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
fails=0
n=0
# case NAME EXPECTED-MESSAGE (grep -F) LINES-OF-THE-SWEEP-FILE...
case_() {
  local name=$1 want=$2
  shift 2
  n=$((n + 1))
  printf '%s\n' "$@" > "$T/$name.yaml"
  timeout 30 "$HETVP" sweep "$T/$name.yaml" --out "$T/out-$name" > "$T/$name.log" 2>&1
  local rc=$?
  if [ $rc != 2 ]; then
    echo "FAIL $name: exit $rc, not 2"
    fails=$((fails + 1))
  elif ! grep -qF -- "$want" "$T/$name.log"; then
    echo "FAIL $name: want '$want', got: $(cat "$T/$name.log")"
    fails=$((fails + 1))
  elif [ -e "$T/out-$name" ]; then
    echo "FAIL $name: the output directory was created"
    fails=$((fails + 1))
  fi
}
B="base: $SRC/configs/default.yaml"
case_ no_such_key "$T/no_such_key.yaml:5:17: pcie0.lanez[0]: " "$B" "workload: boot" "axes:" "  pcie0.generation: [1, 2]" \
  "  pcie0.lanez: [1, 2]"
grep -qF "unknown key 'lanez' (did you mean 'lanes'?)" "$T/no_such_key.log" || { echo "FAIL no_such_key: no suggestion"; fails=$((fails + 1)); }
case_ no_such_instance "$T/no_such_instance.yaml:4:17: pciex.lanes[0]: --set pciex.lanes=1: no instance or section named 'pciex' (did you mean 'pcie0'?)" \
  "$B" "axes:" "  pcie0.generation: [1, 2]" "  pciex.lanes: [1]"
case_ wrong_type "$T/wrong_type.yaml:3:33: pcie0.latency[2]: " "$B" "axes:" "  pcie0.latency: [250 ns, 1 us, fast]"
grep -qF "pcie0.latency: expected a time" "$T/wrong_type.log" || { echo "FAIL wrong_type: $(cat "$T/wrong_type.log")"; fails=$((fails + 1)); }
case_ wrong_type_int "$T/wrong_type_int.yaml:4:20: pcie0.lanes[1]: " "$B" "axes:" "  pcie0.generation: [1, 2, 3]" "  pcie0.lanes: [8, eight]"
case_ out_of_range "$T/out_of_range.yaml:3:25: pcie0.generation[1]: " "$B" "axes:" "  pcie0.generation: [1, 9]"
case_ empty_axis "$T/empty_axis.yaml:4:16: axes.pcie0.lanes: the axis is empty" "$B" "axes:" "  pcie0.generation: [1]" "  pcie0.lanes: []"
case_ scalar_axis "$T/scalar_axis.yaml:3:16: axes.pcie0.lanes: an axis is a list of values" "$B" "axes:" "  pcie0.lanes: 8"
case_ unknown_key "$T/unknown_key.yaml:2:1: unknown key 'axis' (did you mean 'axes'?)" "$B" "axis:" "  pcie0.lanes: [1]"
case_ zip_length "$T/zip_length.yaml:4:21: zip.pcie0.generation: has 2 values but 'pcie0.lanes' has 3" "$B" "zip:" \
  "  pcie0.lanes: [1, 4, 8]" "  pcie0.generation: [1, 2]"
case_ bad_seed "$T/bad_seed.yaml:2:12: seeds[1]: a seed is an integer" "$B" "seeds: [1, -3]"
case_ no_base "$T/no_base.yaml:1:7: base: cannot read 'nowhere.yaml'" "base: nowhere.yaml" "axes: {pcie0.lanes: [1]}"
case_ missing_base "missing required key 'base'" "axes: {pcie0.lanes: [1]}"
case_ bad_set "$T/bad_set.yaml:2:26: set.pcie0.max_payload: " "$B" "set: {pcie0.max_payload: huge}" "axes: {pcie0.lanes: [1]}"
case_ bad_output "$T/bad_output.yaml:3:18: outputs[1]: 'csvs' is not one of: stats, csv (did you mean 'csv'?)" "$B" \
  "axes: {pcie0.lanes: [1]}" "outputs: [stats, csvs]"
case_ bad_slurm "$T/bad_slurm.yaml:3:9: slurm.partiton: unknown key 'partiton' (did you mean 'partition'?)" "$B" \
  "axes: {pcie0.lanes: [1]}" "slurm: {partiton: gpu}"
case_ twice "'pcie0.lanes' is swept twice" "$B" "axes: {pcie0.lanes: [1]}" "zip: {pcie0.lanes: [2]}"
case_ syntax "$T/syntax.yaml:2:" "$B" "axes: {pcie0.lanes: [1, 2}"
# A value only the 7th of 9 points has: still nothing runs.
case_ later_point "$T/later_point.yaml:3:28: pcie0.generation[2]: " "$B" "axes:" "  pcie0.generation: [1, 2, 9]" \
  "  pcie0.lanes: [1, 4, 8]"
grep -qF "(point 6: pcie0.generation=9, pcie0.lanes=1)" "$T/later_point.log" || { echo "FAIL later_point: $(cat "$T/later_point.log")"; fails=$((fails + 1)); }
# An argument the workload does not take.
case_ workload_arg "$T/workload_arg.yaml:4:21: workload.args.n[0]: " "$B" "workload: boot" "axes:" "  workload.args.n: [1, 2]"
# Every mistake of a file at once, each at its own line (#42: one error per invocation before).
case_ four_mistakes "$T/four_mistakes.yaml:3:27: axes.gpu0.copy_engine.setup: an axis is a list" "$B" "axes:" \
  "  gpu0.copy_engine.setup: 10us" "outputs: [stats, cvs]" "timeout: soon" "slurm: {partiton: gpu}"
for want in "four_mistakes.yaml:4:18: outputs[1]: 'cvs'" "four_mistakes.yaml:5:10: timeout: expected a time" \
  "four_mistakes.yaml:6:9: slurm.partiton: unknown key"; do
  grep -qF "$want" "$T/four_mistakes.log" || { echo "FAIL four_mistakes: want '$want': $(cat "$T/four_mistakes.log")"; fails=$((fails + 1)); }
done
# A set: value and an axis value wrong in the same file: each blamed on its own line, both reported.
case_ set_and_axis "$T/set_and_axis.yaml:2:20: set.pcie0.lanes: " "$B" "set: {pcie0.lanes: 7}" "axes:" \
  "  pcie0.generation: [2, 9]"
grep -qF "set_and_axis.yaml:4:25: pcie0.generation[1]: " "$T/set_and_axis.log" || { echo "FAIL set_and_axis: $(cat "$T/set_and_axis.log")"; fails=$((fails + 1)); }
# A shipped config by name, as `hetvp run default` takes it: the error is the axis', not the base's.
case_ base_by_name "$T/base_by_name.yaml:2:27: pcie0.generation[0]: " "base: default" "axes: {pcie0.generation: [9]}"
# Options.
printf '%s\n' "$B" "axes: {pcie0.lanes: [1]}" > "$T/ok.yaml"
for o in "--backend pbs" "-j 0" "--timeout soon" "--bogus"; do
  # shellcheck disable=SC2086
  if "$HETVP" sweep "$T/ok.yaml" --out "$T/out-opt" $o > "$T/opt.log" 2>&1; then
    echo "FAIL option '$o' accepted"
    fails=$((fails + 1))
  elif ! grep -q "^error: " "$T/opt.log" || [ -e "$T/out-opt" ]; then
    echo "FAIL option '$o': $(cat "$T/opt.log")"
    fails=$((fails + 1))
  fi
done
"$HETVP" sweep "$T/ok.yaml" > "$T/opt.log" 2>&1 && { echo "FAIL no --out accepted"; fails=$((fails + 1)); }
grep -q "error: --out DIR is required" "$T/opt.log" || { echo "FAIL no --out: $(cat "$T/opt.log")"; fails=$((fails + 1)); }
[ $fails = 0 ] || exit 1
echo "PASS: $n bad sweep files (every mistake of a file at once) and 5 bad command lines rejected with located errors before any point ran"
