#!/usr/bin/env bash
# ctest fujii2014_bench_quick: bench/fujii2014/run.sh with one run after the first on
# configs/default.yaml makes both tables; an unknown option is a usage error (2); a config whose
# runs fail makes the bench exit 1 with "failed" in its table.
#   bench/fujii2014/quick_test.sh HETVP
set -euo pipefail
HETVP=${1:?usage: quick_test.sh HETVP}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "fujii2014 quick: $*" >&2; exit 1; }
BUILD=$(dirname "$HETVP")
"$SRC/bench/fujii2014/run.sh" "$BUILD" "$T/ok" --runs 1 --configs "$SRC/configs/default.yaml" > "$T/ok.log" 2>&1 ||
  fail "run.sh failed: $(cat "$T/ok.log")"
for want in "| madd 256 | total | " "| loop 1000 | exec | " "Fig. 10 (two madd 256 applications at once" "| default | "; do
  grep -qF "$want" "$T/ok/table.md" || fail "table.md lacks '$want': $(cat "$T/ok/table.md")"
done
[ -s "$T/ok/fig9.csv" ] && [ -s "$T/ok/fig10.csv" ] || fail "fig9.csv / fig10.csv missing"
set +e
"$SRC/bench/fujii2014/run.sh" "$BUILD" "$T/bad" --bogus > "$T/bad.log" 2>&1
[ $? -eq 2 ] || fail "an unknown option should exit 2: $(cat "$T/bad.log")"
grep -q "run.sh: unknown option '--bogus'" "$T/bad.log" || fail "message: $(cat "$T/bad.log")"
# A configuration that does not exist: every run of it fails.
"$SRC/bench/fujii2014/run.sh" "$BUILD" "$T/fail" --runs 1 --configs "$T/nonexistent.yaml" > "$T/fail.log" 2>&1
[ $? -eq 1 ] || fail "failing runs should exit 1: $(cat "$T/fail.log")"
grep -q "| nonexistent | failed | failed |" "$T/fail/table.md" || fail "table: $(cat "$T/fail/table.md")"
exit 0
