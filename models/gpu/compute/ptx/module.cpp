// ptx::load, the Module accessors and ptx::encode (the code's byte encoding for upload to VRAM).
#include <cstring>

#include "models/gpu/compute/ptx/parse.h"

namespace hetvp::gpu::ptx {

LoadError::LoadError(const std::string& file, unsigned line, const std::string& why)
    : std::runtime_error(line ? file + ":" + std::to_string(line) + ": " + why : file + ": " + why),
      file_(file), why_(why), line_(line) {}

const char* to_string(Arch a) {
  switch (a) {
    case Arch::Sm20: return "sm_20";
    case Arch::Sm30: return "sm_30";
    case Arch::Sm35: return "sm_35";
  }
  return "?";
}

Module load(std::string_view text, const std::string& file_name) {
  auto m = std::make_shared<detail::ModuleImpl>();
  m->file = file_name;
  detail::Parser p(text, file_name, *m);
  p.parse_module();
  detail::link_module(*m);
  return Module(std::move(m));
}

const std::string& Module::file_name() const { return impl_->file; }
Arch Module::target() const { return impl_->target; }
unsigned Module::ptx_version() const { return impl_->version; }
const std::vector<FunctionInfo>& Module::kernels() const { return impl_->kernels; }
const std::vector<FunctionInfo>& Module::functions() const { return impl_->functions; }
const std::vector<VariableInfo>& Module::variables() const { return impl_->variables; }
const std::vector<uint8_t>& Module::const_bank0() const { return impl_->const_bank0; }
uint32_t Module::const_bank1_bytes() const { return impl_->const_bank1_bytes; }
uint32_t Module::instr_count() const { return uint32_t(impl_->code.size()); }

const FunctionInfo* Module::find_kernel(std::string_view name) const {
  for (auto& k : impl_->kernels)
    if (k.name == name) return &k;
  return nullptr;
}

const FunctionInfo& Module::kernel(std::string_view name) const {
  if (const FunctionInfo* k = find_kernel(name)) return *k;
  std::string list;
  for (auto& k : impl_->kernels) list += (list.empty() ? "" : ", ") + k.name;
  throw LoadError(impl_->file, 0, "no kernel '" + std::string(name) + "' in the module (kernels: " +
                                      (list.empty() ? "none" : list) + ")");
}

unsigned Module::kernel_index(const FunctionInfo& k) const {
  for (unsigned i = 0; i < impl_->kernels.size(); ++i)
    if (&impl_->kernels[i] == &k || impl_->kernels[i].name == k.name) return i;
  throw LoadError(impl_->file, 0, "kernel '" + k.name + "' is not one of the module's");
}

// Encoding (docs/ptx.md): instruction i at 16 * i. Bytes 0-7: opcode, type, second type, state space |
// vector width << 4, comparison | rounding << 5 (low 3 bits), mode, atomic type, flags (ftz, sat,
// approx, uni, guard negated, rounding bit 3, system scope). Bytes 8-15: four 16-bit operand
// references (guard, d, a, b): 0xffff none; bit 15 clear: a register slot; set: an index into the
// operand table. The operand table follows the code, 16 bytes per entry: kind, symbol kind, flags, 0, 32-bit register/index,
// 64-bit immediate/offset; instructions with more operands (c, a second destination, a branch target
// and reconvergence point, call arguments) have an extension entry referenced from b's slot's table row.
uint32_t Module::code_bytes() const { return uint32_t(encode(*this).size()); }

std::vector<uint8_t> encode(const Module& mod) {
  const auto& m = mod.impl();
  std::vector<uint8_t> code(m.code.size() * kBytesPerInstr, 0);
  std::vector<uint8_t> table;
  auto entry = [&](uint8_t kind, uint8_t sym, uint8_t flags, uint32_t reg, int64_t imm) -> uint16_t {
    uint8_t e[16] = {kind, sym, flags, 0};
    std::memcpy(e + 4, &reg, 4);
    std::memcpy(e + 8, &imm, 8);
    size_t idx = table.size() / 16;
    table.insert(table.end(), e, e + 16);
    return uint16_t(0x8000 | (idx & 0x7fff));
  };
  auto ref = [&](const detail::Operand& o) -> uint16_t {
    if (o.kind == detail::Operand::None) return 0xffff;
    if (o.kind == detail::Operand::Reg && !o.neg && o.reg < 0x8000) return uint16_t(o.reg);
    return entry(uint8_t(o.kind), uint8_t(o.sym), o.neg, o.reg, o.imm);
  };
  for (size_t i = 0; i < m.code.size(); ++i) {
    const detail::Instr& in = m.code[i];
    uint8_t* p = &code[i * kBytesPerInstr];
    p[0] = uint8_t(in.op);
    p[1] = uint8_t(in.type);
    p[2] = uint8_t(in.type2);
    p[3] = uint8_t(uint8_t(in.space) | (in.vec << 4));
    p[4] = uint8_t(uint8_t(in.cmp) | (uint8_t(in.rnd) & 7) << 5);
    p[5] = in.mode;
    p[6] = in.atype;
    p[7] = uint8_t(in.ftz | in.sat << 1 | in.approx << 2 | in.uni << 3 | in.pred_neg << 4 | (uint8_t(in.rnd) >> 3) << 5 |
                   in.sys << 6);
    uint16_t refs[4] = {uint16_t(in.pred == detail::kNoReg ? 0xffff : in.pred & 0x7fff), ref(in.d), ref(in.a),
                        ref(in.b)};
    if (in.c.kind != detail::Operand::None || in.d2.kind != detail::Operand::None || in.target != detail::kNoPc) {
      uint16_t ext = entry(0xff, 0, 0, in.target, int64_t(uint64_t(in.rpc) | uint64_t(in.extra) << 32));
      ref(in.c), ref(in.d2);  // follow the extension entry
      refs[3] = refs[3] == 0xffff ? ext : refs[3];
    }
    std::memcpy(p + 8, refs, 8);
  }
  code.insert(code.end(), table.begin(), table.end());
  return code;
}

}  // namespace hetvp::gpu::ptx
