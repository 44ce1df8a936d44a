#!/bin/bash
# Every way a plugin can be wrong gives exit status 2 and one clear line naming the file.
# usage: plugin_errors.sh HETVP PLUGIN_DIR SOURCE_DIR
set -u
hetvp=$1 dir=$2 src=$3
cfg=$src/configs/default.yaml
fails=0
expect() {  # expect NAME REGEX COMMAND...
  local name=$1 re=$2
  shift 2
  local out rc
  out=$("$@" 2>&1 >/dev/null)
  rc=$?
  # A sanitizer report (-DHETVP_SANITIZE=ON build) fails the case even with the expected status.
  if [[ $rc -ne 2 ]] || ! grep -Eq -- "$re" <<<"$out" || grep -Eq 'Sanitizer|runtime error:' <<<"$out"; then
    echo "FAIL $name: exit $rc, stderr: $out (wanted exit 2 and /$re/)"
    fails=$((fails + 1))
  else
    echo "ok   $name: $out"
  fi
}
expect missing_file "error: --plugin: plugin '/nonexistent/libx.so': no such file" \
  "$hetvp" check "$cfg" --plugin /nonexistent/libx.so
expect not_a_library "plugin '$cfg': cannot load: .*(invalid ELF|file too short)" \
  "$hetvp" check "$cfg" --plugin "$cfg"
expect no_info "libhetvp_test_plugin_no_info.so': not a hetvp plugin \(no symbol hetvp_plugin_info" \
  "$hetvp" check "$cfg" --plugin "$dir/libhetvp_test_plugin_no_info.so"
expect unresolved "libhetvp_test_plugin_unresolved.so': cannot load: .*undefined symbol: hetvp_test_symbol_defined_nowhere" \
  "$hetvp" run "$cfg" --plugin "$dir/libhetvp_test_plugin_unresolved.so"
expect old_abi "built against plugin ABI [0-9]+, this hetvp has ABI [0-9]+: rebuild it" \
  "$hetvp" check "$cfg" --plugin "$dir/libhetvp_test_plugin_old_abi.so"
expect duplicate_type "libhetvp_test_plugin_dup_type.so': component type 'memory' is already registered \(built in\)" \
  "$hetvp" list --plugin "$dir/libhetvp_test_plugin_dup_type.so"
expect list_needs_arg "error: --plugin: 1 required LIB.so missing" "$hetvp" list --plugin
# In YAML: located at the list item, paths relative to the config file.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{ cat "$cfg"; printf '\nplugins:\n  - libmissing.so\n'; } >"$tmp/p.yaml"
line=$(($(wc -l <"$tmp/p.yaml")))
expect yaml_missing "$tmp/p.yaml:$line:5: plugins\[0\]: plugin '$tmp/libmissing.so': no such file" \
  "$hetvp" check "$tmp/p.yaml"
{ cat "$cfg"; printf '\nplugins: libx.so\n'; } >"$tmp/q.yaml"
expect yaml_not_list "q.yaml:[0-9]+:10: plugins: expected a list of plugin libraries" "$hetvp" check "$tmp/q.yaml"
exit $((fails > 0))
