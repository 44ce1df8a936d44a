#!/bin/bash
# The layer rule of docs/architecture.md "The layers", checked on the built libraries: each one
# needs only the hetvp libraries below it (readelf NEEDED), and every symbol it uses is found in
# what it needs (ldd -r reports none undefined): a platform file that called into a model would
# leave an undefined symbol in libhetvp_platform.so. The build links them with -Wl,--no-undefined,
# so such a file already fails to link; this keeps the rule visible in ctest.
# A library that is not built cannot be checked: the test is then skipped (exit 77, ctest
# SKIP_RETURN_CODE) naming it, never passed.
# usage: layers.sh BUILD_DIR
set -euo pipefail
build=$1
fail=0
missing=""
needed() { readelf -d "$1" | sed -n 's/.*Shared library: \[\(libhetvp[a-z_]*\)\.so.*/\1/p' | sort | tr '\n' ' '; }
check() {  # check LIB "allowed hetvp libraries"
  local lib=$build/$1.so
  [[ -e $lib ]] || { echo "not checked: $lib is not built"; missing="$missing $1"; return; }
  for n in $(needed "$lib"); do
    if [[ " $2 " != *" $n "* ]]; then
      echo "FAIL: $1 needs $n, a layer above it (allowed: ${2:-none})"
      fail=1
    fi
  done
  # sc_main is libsystemc's own reference to the program's entry point.
  undefined=$(ldd -r "$lib" 2>&1 | grep 'undefined symbol' | grep -v 'undefined symbol: sc_main' || true)
  if [[ -n $undefined ]]; then
    echo "FAIL: $1 uses symbols of no library it links:"
    echo "$undefined" | head -5
    fail=1
  fi
  echo "$1: needs [$(needed "$lib")] ok"
}
check libhetvp_platform ""
check libhetvp "libhetvp_platform"
check libhetvp_rtl "libhetvp_platform libhetvp"
check libhetvp_sw "libhetvp_platform libhetvp libhetvp_rtl"
# The tool layer (argv parsing, fork/exec, sbatch, gnuplot) is in no library.
for lib in "$build"/libhetvp*.so; do
  [[ -e $lib ]] || continue
  if nm -D --defined-only "$lib" | grep -q -e 'hetvp5sweep' -e 'hetvp3cli'; then
    echo "FAIL: $(basename "$lib") holds tool-layer code (sweep or cli)"
    fail=1
  fi
done
if ((fail == 0)) && [[ -n $missing ]]; then
  echo "SKIP: not built:$missing (build them first: cmake --build BUILD_DIR --target hetvp)"
  exit 77
fi
exit $fail
