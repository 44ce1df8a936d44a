#!/usr/bin/env bash
# firmware/falcon/rv2fuc.py (RV32E assembly -> Falcon assembly) on bad input: each is refused with exit
# status 1, one "rv2fuc: error: FILE:LINE: ..." message naming what cannot be translated, and no output
# file. Then a good input translates (the checks are not "always fail").
#   tests/firmware/rv2fuc_errors.sh SOURCE_DIR PYTHON
set -u
src=$1 py=$2
t=$(mktemp -d /tmp/hetvp-rv2fuc.XXXXXX)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
start=$src/firmware/falcon/start_standalone.fuc
printf '\t.text\n\t.globl main\n\t.type main, @function\nmain:\n' >"$t/head.s"

# expect NAME BODY REGEX: main's body BODY must be refused with a message matching REGEX
expect() {
  { cat "$t/head.s"; printf '%b' "$2"; } >"$t/$1.s"
  "$py" "$src/firmware/falcon/rv2fuc.py" --start "$start" --stack-top 0x800 --name t -o "$t/$1.fuc" "$t/$1.s" \
    >"$t/$1.out" 2>&1
  rc=$?
  [ $rc -eq 1 ] || fail "$1: exit status $rc, not 1: $(cat "$t/$1.out")"
  grep -Eq "$3" "$t/$1.out" || fail "$1: message '$(cat "$t/$1.out")' does not match '$3'"
  [ "$(wc -l <"$t/$1.out")" -eq 1 ] || fail "$1: more than one line: $(cat "$t/$1.out")"
  [ ! -e "$t/$1.fuc" ] || fail "$1: an output file was written"
}
# M extension (the build compiles for rv32e without M: a hand-written .s could still use it)
expect mul '\tmul a0,a0,a1\n\tret\n' "^rv2fuc: error: $t/mul.s:5: instruction \"mul\" has no Falcon translation"
# RV32E's gp/tp have no Falcon register
expect gp '\tmv a0,gp\n\tret\n' "^rv2fuc: error: $t/gp.s:5: register gp \\(gp/tp\\) has no Falcon mapping"
# a call to a function nobody defines
expect undef '\tcall missing_fn\n\tret\n' "^rv2fuc: error: undefined symbol missing_fn \\(referenced from $t/undef.s\\)"
# a section that is neither code nor data
expect section '\tret\n\t.section .init_array,"aw"\n\t.word main\n' "^rv2fuc: error: $t/section.s:6: unsupported section .init_array"
# a symbol defined twice across units
printf '\t.text\n\t.globl main\n\t.type main, @function\nmain:\n\tret\n' >"$t/dup2.s"
{ cat "$t/head.s"; printf '\tret\n'; } >"$t/dup1.s"
"$py" "$src/firmware/falcon/rv2fuc.py" --start "$start" --stack-top 0x800 --name t -o "$t/dup.fuc" "$t/dup1.s" "$t/dup2.s" \
  >"$t/dup.out" 2>&1 && fail "dup: accepted"
grep -q "^rv2fuc: error: symbol main defined twice ($t/dup1.s and $t/dup2.s)" "$t/dup.out" || fail "dup: $(cat "$t/dup.out")"

# two objects asking for data address 0 (section .data.hetvp_at0: the context lists' bounds)
printf '\t.section .data.hetvp_at0,"aw"\n\t.globl b\nb:\n\t.word 2\n' >"$t/at0b.s"
{ cat "$t/head.s"; printf '\tlui a0,%%hi(a)\n\tlui a1,%%hi(b)\n\tret\n\t.section .data.hetvp_at0,"aw"\na:\n\t.word 1\n'; } >"$t/at0a.s"
"$py" "$src/firmware/falcon/rv2fuc.py" --start "$start" --stack-top 0x800 --name t -o "$t/at0.fuc" "$t/at0a.s" "$t/at0b.s" \
  >"$t/at0.out" 2>&1 && fail "at0: accepted"
grep -q "^rv2fuc: error: section .data.hetvp_at0 is defined twice ($t/at0a.s and $t/at0b.s)" "$t/at0.out" ||
  fail "at0: $(cat "$t/at0.out")"
[ ! -e "$t/at0.fuc" ] || fail "at0: an output file was written"

# a good one
{ cat "$t/head.s"; printf '\tli a0,0x12345\n\tret\n'; } >"$t/ok.s"
"$py" "$src/firmware/falcon/rv2fuc.py" --start "$start" --stack-top 0x800 --name t -o "$t/ok.fuc" "$t/ok.s" >"$t/ok.out" 2>&1 ||
  fail "ok: $(cat "$t/ok.out")"
grep -q 'sethi \$r10 0x10000' "$t/ok.fuc" || fail "ok: no sethi in $(cat "$t/ok.fuc")"
# the .data.hetvp_at0 section goes first in the data segment, whatever the input order
{ cat "$t/head.s"; printf '\tlui a0,%%hi(x)\n\tlui a1,%%hi(a)\n\tret\n\t.data\nx:\n\t.word 7\n\t.section .data.hetvp_at0,"aw"\na:\n\t.word 1\n'; } >"$t/first.s"
"$py" "$src/firmware/falcon/rv2fuc.py" --start "$start" --stack-top 0x800 --name t -o "$t/first.fuc" "$t/first.s" >"$t/first.out" 2>&1 ||
  fail "first: $(cat "$t/first.out")"
[ "$(grep -A1 '^.section #t_data' "$t/first.fuc" | tail -1)" = "f0_a:" ] || fail "first: $(cat "$t/first.fuc")"
echo PASS
