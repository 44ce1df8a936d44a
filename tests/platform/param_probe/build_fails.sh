#!/usr/bin/env bash
# build_fails.sh BUILD_DIR TARGET PATTERN: building TARGET must fail, and its compiler output must
# match PATTERN (so that the failure is the one meant, not a missing include).
set -u
out=$(cmake --build "$1" --target "$2" 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
  echo "FAIL: $2 compiled, but it should not"
  exit 1
fi
if ! grep -qE "$3" <<<"$out"; then
  echo "FAIL: $2 failed for another reason than /$3/:"
  echo "$out" | tail -20
  exit 1
fi
echo "ok: $2 does not compile: $(grep -E "$3" <<<"$out" | head -1)"
