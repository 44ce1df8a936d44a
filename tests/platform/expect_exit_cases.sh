#!/usr/bin/env bash
# tests/common/expect_exit.sh passes only when the status, the message and the absence of any
# sanitizer report all hold; and layers.sh skips (77), never passes, when the libraries are not built.
# usage: expect_exit_cases.sh SOURCE_DIR
set -uo pipefail
src=$1
x="bash $src/tests/common/expect_exit.sh"
fail=0
case_() {  # case_ WANT_STATUS DESCRIPTION -- expect_exit arguments...
  local want=$1 what=$2
  shift 3
  $x "$@" >/dev/null 2>&1
  local got=$?
  if [[ $got -ne $want ]]; then
    echo "FAIL: $what: expect_exit.sh gave $got, expected $want"
    fail=1
  else
    echo "ok: $what"
  fi
}
case_ 0 "right status and message" -- 3 "^boom at 7$" -- bash -c 'echo "boom at 7"; exit 3'
case_ 0 "message on stderr" -- 1 "located" -- bash -c 'echo "a.yaml:1:2: located" >&2; exit 1'
case_ 1 "right message, wrong status" -- 1 "boom" -- bash -c 'echo boom; exit 2'
case_ 1 "sanitizer exit status with the message" -- 1 "boom" -- bash -c 'echo boom; exit 121'
case_ 1 "right status, no message" -- 1 "boom" -- bash -c 'echo bang; exit 1'
case_ 1 "right status and message, a sanitizer report" -- 1 "boom" \
  -- bash -c 'echo boom; echo "==1==ERROR: LeakSanitizer: detected memory leaks" >&2; exit 1'
case_ 1 "right status and message, a UBSan report" -- 0 "boom" \
  -- bash -c 'echo "x.cpp:3:5: runtime error: signed integer overflow"; echo boom'
case_ 1 "a bad expression is a failure, not a match" -- 0 "a(" -- bash -c 'echo "a("'
case_ 2 "a bad call" -- x "boom" -- true
case_ 2 "no -- before the command" -- 0 "boom" true

# layers.sh on a folder without the libraries: skipped with the reason, status 77.
empty=$(mktemp -d)
trap 'rmdir "$empty"' EXIT
case_ 0 "layers.sh skips when nothing is built" -- 77 "SKIP: not built: libhetvp_platform" \
  -- bash "$src/tests/platform/layers.sh" "$empty"
exit $fail
