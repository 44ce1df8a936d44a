#!/usr/bin/env bash
# Runs a command that a test expects to end with a given exit status and message, and checks all
# three: the status, the message, and that no sanitizer reported anything. ctest's
# PASS_REGULAR_EXPRESSION alone ignores the status, so a run ended by AddressSanitizer, LeakSanitizer
# or UBSan (status 121 in the sanitizer build, bench/sanitize/run.sh) whose output still held the
# message would pass (docs/reliability.md, "Sanitizers").
#
#   tests/common/expect_exit.sh STATUS REGEX -- COMMAND [ARGS...]
#
# STATUS: the exit status expected (0 for a run that must succeed). REGEX: an extended regular
# expression (grep -E) that must match a line of the command's output (stdout and stderr together).
# The output is echoed whole, so ctest's log keeps it. Exit status 0 when all hold, 1 otherwise
# (each failed check named), 2 for a bad call of this script.
set -uo pipefail

if [[ $# -lt 4 || $3 != "--" || ! $1 =~ ^[0-9]+$ ]]; then
  echo "usage: expect_exit.sh STATUS REGEX -- COMMAND [ARGS...]" >&2
  exit 2
fi
want=$1
regex=$2
shift 3

out=$(mktemp "${TMPDIR:-/tmp}/expect_exit.XXXXXX") || exit 2
trap 'rm -f "$out"' EXIT
"$@" >"$out" 2>&1
got=$?
cat "$out"

fail=0
if [[ $got -ne $want ]]; then
  echo "expect_exit: exit status $got, expected $want: $*" >&2
  fail=1
fi
# grep: 0 found, 1 not found, 2 an error (a bad expression, an unreadable file): only 0 passes.
grep -qE -e "$regex" "$out"
case $? in
  0) ;;
  1) echo "expect_exit: no line of the output matches: $regex" >&2; fail=1 ;;
  *) echo "expect_exit: grep failed on the expression: $regex" >&2; fail=1 ;;
esac
grep -nE 'Sanitizer|runtime error:' "$out" >/dev/null
case $? in
  0) echo "expect_exit: a sanitizer report is in the output" >&2; fail=1 ;;
  1) ;;
  *) echo "expect_exit: could not search the output for sanitizer reports" >&2; fail=1 ;;
esac
exit $fail
