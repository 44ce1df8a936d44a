#!/usr/bin/env bash
# cmake/NouveauFirmware.cmake when the linux-source tarball is not a tarball (tar fails with a
# multi-line message): the configure succeeds with a warning, and the generated loader is valid C++
# whose "not available" reason names the tarball; with -DHETVP_REQUIRE_NOUVEAU=ON (CI) the same
# configure fails, saying why.
#   tests/firmware/nouveau_cmake.sh SOURCE_DIR CXX
set -u
src=$1 cxx=$2
t=$(mktemp -d /tmp/hetvp-nouveau-cmake.XXXXXX)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
printf 'not a tarball\n"quoted" \\ line\n' >"$t/linux-source.tar.xz"
cmake -S "$src/tests/firmware/nouveau_cmake" -B "$t/b1" -DHETVP_SOURCE="$src" \
  -DHETVP_LINUX_SOURCE_TARBALL="$t/linux-source.tar.xz" >"$t/out1" 2>&1 || fail "configure failed: $(cat "$t/out1")"
grep -q "firmware not available: could not extract" "$t/out1" || fail "no clear warning: $(cat "$t/out1")"
gen=$t/b1/generated/nouveau_fw.cpp
"$cxx" -std=c++17 -fsyntax-only -I"$src" "$gen" 2>"$t/cc" || fail "generated loader does not compile: $(cat "$t/cc"; cat "$gen")"
grep -q 'could not extract .*linux-source.tar.xz (tar exit status [1-9][0-9]*: .*)' "$gen" ||
  fail "the reason is not in the loader: $(cat "$gen")"
cmake -S "$src/tests/firmware/nouveau_cmake" -B "$t/b2" -DHETVP_SOURCE="$src" -DHETVP_REQUIRE_NOUVEAU=ON \
  -DHETVP_LINUX_SOURCE_TARBALL="$t/linux-source.tar.xz" >"$t/out2" 2>&1 && fail "HETVP_REQUIRE_NOUVEAU=ON configured anyway"
grep -q "HETVP_REQUIRE_NOUVEAU is ON" "$t/out2" || fail "no reason for the configure error: $(cat "$t/out2")"
cmake -S "$src/tests/firmware/nouveau_cmake" -B "$t/b3" -DHETVP_SOURCE="$src" -DHETVP_REQUIRE_NOUVEAU=ON \
  -DHETVP_LINUX_SOURCE_TARBALL="$t/missing.tar.xz" >"$t/out3" 2>&1 && fail "missing tarball configured with HETVP_REQUIRE_NOUVEAU=ON"
grep -q "missing.tar.xz not found" "$t/out3" || fail "no reason for the missing tarball: $(cat "$t/out3")"
echo "ok: tar failure -> valid loader + warning; HETVP_REQUIRE_NOUVEAU=ON -> configure error"
