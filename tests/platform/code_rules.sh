#!/bin/bash
# Rules of the code that issue #38 set and that a compiler does not check, over the source tree:
# - no thread_local in platform/, models/, rtl/, sw/ (errors go into an explicit Diagnostics);
# - no cast to a concrete microcontroller core (Rv32Core, FalconCore): the capability interface
#   (models/mcu/core_if.h) is how a host reaches a core;
# - no hand-kept copy of the GR context-switch ranges (FCTX_FORWARDED) and no schema rewritten from
#   another file (add_falcon_schema);
# - no file in those folders over 800 lines, except the instruction-set interpreters, each of
#   which says why in its first lines ("longer than 800 lines").
# (String-key parameter reads need no rule here: Params' readers are private to the parameter
# layer, platform/params.h, so such a read does not compile.)
# usage: code_rules.sh SOURCE_DIR
set -uo pipefail
cd "$1" || exit 2
fail=0
bad() {
  echo "FAIL: $1"
  echo "$2" | head -10
  fail=1
}
dirs=(platform models rtl sw)
out=$(grep -rn --include='*.cpp' --include='*.h' 'thread_local' "${dirs[@]}")
[[ -z $out ]] || bad "thread_local (pass the state explicitly)" "$out"
out=$(grep -rnE --include='*.cpp' --include='*.h' '(dynamic|static|reinterpret)_cast<[^>]*\b(Rv32Core|FalconCore)\b' "${dirs[@]}")
[[ -z $out ]] || bad "a cast to a concrete core (use the capabilities of models/mcu/core_if.h)" "$out"
out=$(grep -rnE --include='*.cpp' --include='*.h' 'FCTX_FORWARDED|add_falcon_schema' "${dirs[@]}")
[[ -z $out ]] || bad "a hand-kept copy of another file's facts" "$out"
interpreters=(models/mcu/rv32/core.cpp models/mcu/falcon/core.cpp models/qpu/qpu_core.cpp)
while read -r n f; do
  [[ $f == total ]] && continue
  if ((n > 800)); then
    if [[ " ${interpreters[*]} " == *" $f "* ]]; then
      head -15 "$f" | grep -q 'longer than 800 lines' || bad "$f: $n lines, and its first lines do not say why" ""
    else
      bad "$f: $n lines (at most 800: split it by concern)" ""
    fi
  fi
done < <(find "${dirs[@]}" \( -name '*.cpp' -o -name '*.h' \) -print0 | xargs -0 wc -l)
((fail)) && exit 1
echo "ok: no thread_local, no cast to a concrete core, no hand-kept copies, no file over 800 lines but the interpreters"
