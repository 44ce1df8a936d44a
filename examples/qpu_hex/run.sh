#!/usr/bin/env bash
# A QPU program as a Raspberry Pi project ships it (`prog.hex`: comma-separated 32-bit words, low word
# of each instruction first, as hello_fft's shader_*.hex), run unchanged by `qpu_run` on two QPUs of
# configs/videocore4.yaml. Each QPU computes y = x < 0 ? x + 2 : 2x over 16 floats of in.bin; the run
# writes out.bin, compared with expected.bin. prog.hex, in.bin and expected.bin were written by
# tests/qpu/make_hex_program.py (every instruction encoded by hand from the VideoCore IV 3D
# Architecture Reference Guide, no hetvp assembler). docs/qpu.md, "Running a program unchanged".
#
#   examples/qpu_hex/run.sh [HETVP] [OUT_DIR]     defaults: build/hetvp, a temporary folder
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/../.." && pwd)"
hetvp="${1:-$src/build/hetvp}"
out="${2:-$(mktemp -d)}"
"$hetvp" run "$src/configs/videocore4.yaml" --workload qpu_run \
  --set workload.args.program="$here/prog.hex" --set workload.args.qpus=2 \
  --set 'workload.args.uniforms="@in,@out,0x1a00,0x80904000;@in+64,@out+64,0x1a01,0x80904080"' \
  --set "workload.args.buffers=[{name: in, file: $here/in.bin}, {name: out, size: 128, output: $out/out.bin}]"
cmp "$out/out.bin" "$here/expected.bin"
echo "qpu_hex: out.bin matches expected.bin (32 values, 2 QPUs)"
