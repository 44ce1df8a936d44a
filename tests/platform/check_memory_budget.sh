#!/usr/bin/env bash
# `hetvp check` allocates no model storage, and a configuration whose storage would exceed
# simulation.memory_budget (or a cache size above its bound) ends with a located error, all under an
# address-space limit of 512 MiB (issue #43 item 3; platform/host_memory.h). The sanitizer build
# reserves terabytes of shadow address space, so there the limit is left out (the checks stay).
# usage: check_memory_budget.sh HETVP SOURCE_DIR SANITIZED(ON|OFF)
set -uo pipefail
hetvp=$1
src=$2
sanitized=$3
x="bash $src/tests/common/expect_exit.sh"
limit_kib=$((512 * 1024))
fail=0
run() {  # run DESCRIPTION STATUS REGEX -- hetvp check arguments...
  local what=$1 status=$2 regex=$3
  shift 4
  echo "== $what"
  if (if [[ $sanitized != ON ]]; then ulimit -v $limit_kib; fi; $x "$status" "$regex" -- "$hetvp" check "$@"); then
    echo "ok: $what"
  else
    echo "FAIL: $what"
    fail=1
  fi
}
d=$src/configs/default.yaml
c=$src/configs/coherence.yaml
run "a plain check fits the limit" 0 "OK \(" -- "$d"
run "1 GiB TCPs: over the budget, located at the --set" 2 \
  "^error: .*default\.yaml \(--set gpu0\.compute\.tcp\.size\): the platform would allocate [0-9.]+ GiB of host memory before simulating, more than simulation\.memory_budget \(2 GiB, the default\); largest: [0-9.]+ GiB for [0-9]+ modules \(.*tcp0" \
  -- "$d" --set gpu0.compute.tcp.size=1GiB
run "1 GiB TCPs with a budget that allows them: check passes, allocating none of it" 0 "OK \(" \
  -- "$d" --set gpu0.compute.tcp.size=1GiB --set simulation.memory_budget=64GiB
run "a 10 GB TCP: above the bound of a cache size" 2 \
  "^error: .*default\.yaml \(--set gpu0\.compute\.tcp\.size\): .*(at most|maximum|out of range|above|<=)" \
  -- "$d" --set gpu0.compute.tcp.size=10000000000
run "an 8 GiB L2 on coherence.yaml: above the bound" 2 "^error: .*coherence\.yaml \(--set l2\.size\): " \
  -- "$c" --set l2.size=8GiB
run "a budget too small for the shipped config: the largest contributors are named" 2 \
  "more than simulation\.memory_budget \(1 MiB, set at .*coherence\.yaml \(--set simulation\.memory_budget\)\); largest: .* sized by .*; .* sized by " \
  -- "$c" --set simulation.memory_budget=1MiB
exit $fail
