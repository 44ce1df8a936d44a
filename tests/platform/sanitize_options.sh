#!/usr/bin/env bash
# bench/sanitize/run.sh: options a caller set are kept (ours appended, the exit code always ours:
# 121, which no hetvp command returns), and a log that cannot be searched fails the pass (status 4)
# rather than counting as "no reports".
# usage: sanitize_options.sh SOURCE_DIR
set -uo pipefail
run="bash $1/bench/sanitize/run.sh"
fail=0
check() {  # check DESCRIPTION COMMAND...: fails the test unless COMMAND succeeds
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
opts=$(ASAN_OPTIONS=verbosity=1:exitcode=23 UBSAN_OPTIONS= LSAN_OPTIONS=suppressions=x.supp $run --print-options)
echo "$opts"
check "a pre-set ASAN_OPTIONS is kept" grep -q '^ASAN_OPTIONS=verbosity=1:exitcode=23:detect_leaks=1:.*:exitcode=121$' <<<"$opts"
check "a pre-set LSAN_OPTIONS is kept" grep -q '^LSAN_OPTIONS=suppressions=x.supp:exitcode=121$' <<<"$opts"
check "an empty UBSAN_OPTIONS gets ours alone" grep -q '^UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=121$' <<<"$opts"
opts=$(env -u ASAN_OPTIONS -u LSAN_OPTIONS -u UBSAN_OPTIONS $run --print-options)
check "unset: ours alone" grep -q '^ASAN_OPTIONS=detect_leaks=1:' <<<"$opts"

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/Testing/Temporary"
echo "100% tests passed" >"$d/ctest-sanitize.log"
echo "all output" >"$d/Testing/Temporary/LastTest.log"
$run --scan-logs "$d" 2>/dev/null
check "clean logs: 0" test $? -eq 0
# A test named after the sanitizers is not a report (tests/platform/test_sanitizer_exit.cpp).
echo '"SanitizerExit.NoProgramExitCodeMapsToIt" start time' >>"$d/Testing/Temporary/LastTest.log"
$run --scan-logs "$d" 2>/dev/null
check "a test named SanitizerExit.*: still 0" test $? -eq 0
echo "==7==ERROR: LeakSanitizer: detected memory leaks" >>"$d/Testing/Temporary/LastTest.log"
$run --scan-logs "$d" 2>/dev/null
check "a report: 3" test $? -eq 3
rm "$d/Testing/Temporary/LastTest.log"
$run --scan-logs "$d" 2>/dev/null
check "a log missing (grep status 2): 4, not 'no reports'" test $? -eq 4
exit $fail
