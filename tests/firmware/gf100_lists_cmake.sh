#!/usr/bin/env bash
# cmake/Gf100Lists.cmake and cmake/gf100_lists.py on bad input: a missing tarball and a tarball whose
# pinned files (ctxgf100.c, gf100.c, ctx<chip>.c ...) are other bytes each configure with a warning
# naming the reason (the file and its SHA-256 for changed bytes), and the generated table is valid C++
# holding that reason; with
# -DHETVP_REQUIRE_NOUVEAU=ON the same configure fails. The parser refuses a list entry that is not
# four numbers, naming the file and the list; an array defined twice with other contents, and a chip's
# pack missing from the files, naming them.
#   tests/firmware/gf100_lists_cmake.sh SOURCE_DIR CXX
set -u
src=$1 cxx=$2
t=$(mktemp -d /tmp/hetvp-gf100-lists.XXXXXX)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# CMake wraps a warning's lines: compare on one line with single spaces.
flat() { tr '\n' ' ' <"$1" | tr -s ' '; }
proj=$src/tests/firmware/gf100_lists_cmake

# 1. no tarball
cmake -S "$proj" -B "$t/b1" -DHETVP_SOURCE="$src" -DHETVP_LINUX_SOURCE_TARBALL="$t/missing.tar.xz" >"$t/out1" 2>&1 ||
  fail "configure failed: $(cat "$t/out1")"
flat "$t/out1" | grep -q "GF100 GR register lists not available: .*missing.tar.xz not found" || fail "no warning: $(cat "$t/out1")"
gen=$t/b1/generated/gf100_lists.cpp
"$cxx" -std=c++17 -fsyntax-only -I"$src" "$gen" 2>"$t/cc" || fail "generated table does not compile: $(cat "$t/cc" "$gen")"
grep -q 'missing.tar.xz not found' "$gen" || fail "the reason is not in the table: $(cat "$gen")"

# 2. a tarball with other bytes in every pinned file (ctxgf100.c is the first the check names)
d=$t/tree/linux-source-6.1/drivers/gpu/drm/nouveau/nvkm/engine/gr
mkdir -p "$d"
files=$(grep -o '"[a-z0-9]*\.c=' "$src/cmake/Gf100Lists.cmake" | tr -d '"=')
[ "$(echo "$files" | wc -l)" -ge 2 ] || fail "no pinned files found in cmake/Gf100Lists.cmake"
for f in $files; do echo "/* not nouveau's */" >"$d/$f"; done
tar -cJf "$t/other.tar.xz" -C "$t/tree" linux-source-6.1 || fail "cannot build the test tarball"
cmake -S "$proj" -B "$t/b2" -DHETVP_SOURCE="$src" -DHETVP_LINUX_SOURCE_TARBALL="$t/other.tar.xz" >"$t/out2" 2>&1 ||
  fail "configure failed: $(cat "$t/out2")"
sum=$(sha256sum "$d/ctxgf100.c" | cut -d' ' -f1)
flat "$t/out2" | grep -q "ctxgf100.c has SHA-256 $sum, hetvp pins" || fail "no warning naming the file and SHA: $(cat "$t/out2")"
"$cxx" -std=c++17 -fsyntax-only -I"$src" "$t/b2/generated/gf100_lists.cpp" 2>"$t/cc" || fail "table does not compile: $(cat "$t/cc")"
cmake -S "$proj" -B "$t/b3" -DHETVP_SOURCE="$src" -DHETVP_REQUIRE_NOUVEAU=ON \
  -DHETVP_LINUX_SOURCE_TARBALL="$t/other.tar.xz" >"$t/out3" 2>&1 && fail "HETVP_REQUIRE_NOUVEAU=ON configured anyway"
flat "$t/out3" | grep -q "HETVP_REQUIRE_NOUVEAU is ON" || fail "no reason for the configure error: $(cat "$t/out3")"

# 3. the parser on an entry of three numbers
cat >"$t/ctx.c" <<'C'
static const struct gf100_gr_init
gf100_grctx_init_main_0[] = {
	{ 0x400204,   2, 0x04 },
	{}
};
C
python3 "$src/cmake/gf100_lists.py" "$t/out.cpp" "$t/ctx.c" 2>"$t/err3" && fail "the parser accepted a 3-field entry"
grep -q "ctx.c: gf100_grctx_init_main_0: entry '{0x400204,   2, 0x04}' is not {addr, count, pitch, data}" "$t/err3" ||
  fail "no clear parser error: $(cat "$t/err3")"
# 4. an array defined twice with other contents (two files): named, with both files
cat >"$t/a.c" <<'C'
const struct gf100_gr_init
gf100_grctx_init_main_0[] = {
	{ 0x400204,   2, 0x04, 0x00000000 },
	{}
};
C
sed 's/0x00000000/0x00000001/' "$t/a.c" >"$t/b.c"
python3 "$src/cmake/gf100_lists.py" "$t/out4.cpp" "$t/a.c" "$t/b.c" 2>"$t/err4" && fail "the parser accepted two different gf100_grctx_init_main_0"
grep -q "b.c: gf100_grctx_init_main_0 is also defined, with other contents, in $t/a.c" "$t/err4" ||
  fail "no clear duplicate error: $(cat "$t/err4")"
# 5. a chip's pack missing from the files: named with the chip
python3 "$src/cmake/gf100_lists.py" "$t/out5.cpp" "$t/a.c" 2>"$t/err5" && fail "the parser accepted files without the packs"
grep -q "gf100: pack gf100_grctx_pack_hub not found in a.c" "$t/err5" || fail "no clear missing-pack error: $(cat "$t/err5")"
echo "ok: missing tarball and other bytes -> warning + valid table; REQUIRE -> configure error; bad entry -> named"
