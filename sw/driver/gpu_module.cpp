#include "sw/driver/gpu_module.h"

#include <algorithm>
#include <cstring>

#include "firmware/include/hetvp/compute.h"
#include "firmware/include/hetvp/pmc.h"
#include "models/gpu/compute/ptx/exec.h"

namespace hetvp::sw {

namespace ptx = gpu::ptx;

namespace {
uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
uint64_t fnv1a64(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}
// One local-memory slot per compute unit (a unit runs one block at a time): 64 slots, the most
// units gpu.compute allows.
constexpr uint32_t kLocalSlots = 64;
constexpr uint32_t kMaxThreads = 1024;
}  // namespace

const ptx::FunctionInfo& GpuModule::kernel(const std::string& name) const {
  try {
    return ptx->kernel(name);
  } catch (const ptx::LoadError& e) {
    throw HostError(e.what());
  }
}

uint64_t GpuModule::variable(const std::string& name) const {
  const auto& vars = ptx->variables();
  for (size_t i = 0; i < vars.size(); ++i)
    if (vars[i].name == name && vars[i].space == ptx::VarSpace::Global) return var_va[i];
  throw HostError(ptx->file_name() + ": no .global variable '" + name + "' in the module");
}

GpuModule place_module(HostApi& api, GpuDriver& gpu, const std::string& text, const std::string& file,
                       unsigned space, const sc_core::sc_time& translate_per_instruction,
                       std::vector<uint8_t>* image) {
  GpuModule m;
  try {
    m.ptx = std::make_shared<const ptx::Module>(ptx::load(text, file));
  } catch (const ptx::LoadError& e) {
    throw HostError(std::string("module load: ") + e.what());
  }
  const ptx::Module& p = *m.ptx;
  api.spend(translate_per_instruction * double(p.instr_count()));
  const std::vector<uint8_t> code = ptx::encode(p);

  // Layout: header, text, code, bank 0, variable table, .global variables.
  uint32_t h[CMP_IMG_WORDS] = {};
  uint64_t off = CMP_IMG_WORDS * 4;
  h[CMP_IMG_TEXT_OFF] = uint32_t(off);
  h[CMP_IMG_TEXT_BYTES] = uint32_t(text.size());
  off = align_up(off + text.size(), 16);
  h[CMP_IMG_CODE_OFF] = uint32_t(off);
  h[CMP_IMG_CODE_BYTES] = uint32_t(code.size());
  off = align_up(off + code.size(), 16);
  const std::vector<uint8_t>& bank0 = p.const_bank0();
  h[CMP_IMG_BANK0_OFF] = uint32_t(off);
  h[CMP_IMG_BANK0_BYTES] = uint32_t(bank0.size());
  off = align_up(off + bank0.size(), 16);
  const auto& vars = p.variables();
  h[CMP_IMG_VARS_OFF] = uint32_t(off);
  h[CMP_IMG_VARS] = uint32_t(vars.size());
  off += 8 * vars.size();
  std::vector<uint64_t> var_off(vars.size(), 0);
  for (size_t i = 0; i < vars.size(); ++i) {
    if (vars[i].space != ptx::VarSpace::Global) continue;
    off = align_up(off, std::max<uint64_t>(16, vars[i].align));
    var_off[i] = off;
    off += vars[i].size;
  }
  m.image = gpu.alloc_vram(align_up(std::max<uint64_t>(off, 1), 256), space);
  m.var_va.assign(vars.size(), 0);
  for (size_t i = 0; i < vars.size(); ++i)
    if (vars[i].space == ptx::VarSpace::Global) m.var_va[i] = m.image.va + var_off[i];

  uint32_t local = 0;
  for (const ptx::FunctionInfo& k : p.kernels()) local = std::max(local, k.local_bytes);
  if (local) {
    // A slot holds the largest block's local memory, word-interleaved across each warp's lanes.
    const uint64_t slot = align_up(ptx::local_block_bytes(local, kMaxThreads), 256);
    m.lmem = gpu.alloc_vram(slot * kLocalSlots, space);
    h[CMP_IMG_LMEM_LO] = uint32_t(m.lmem.va);
    h[CMP_IMG_LMEM_HI] = uint32_t(m.lmem.va >> 32);
    h[CMP_IMG_LMEM_SLOT] = uint32_t(slot);
    h[CMP_IMG_LMEM_SLOTS] = kLocalSlots;
  }
  h[CMP_IMG_MAGIC_W] = CMP_IMG_MAGIC;
  h[CMP_IMG_VERSION_W] = CMP_IMG_VERSION;
  const uint64_t hash = fnv1a64(text);
  h[CMP_IMG_HASH_LO] = uint32_t(hash);
  h[CMP_IMG_HASH_HI] = uint32_t(hash >> 32);

  image->assign(off, 0);
  std::memcpy(image->data(), h, sizeof h);
  std::memcpy(image->data() + h[CMP_IMG_TEXT_OFF], text.data(), text.size());
  if (!code.empty()) std::memcpy(image->data() + h[CMP_IMG_CODE_OFF], code.data(), code.size());
  if (!bank0.empty()) std::memcpy(image->data() + h[CMP_IMG_BANK0_OFF], bank0.data(), bank0.size());
  if (!vars.empty()) std::memcpy(image->data() + h[CMP_IMG_VARS_OFF], m.var_va.data(), 8 * vars.size());
  for (size_t i = 0; i < vars.size(); ++i)
    if (vars[i].space == ptx::VarSpace::Global && !vars[i].init.empty())
      std::memcpy(image->data() + var_off[i], vars[i].init.data(), std::min<uint64_t>(vars[i].init.size(), vars[i].size));
  return m;
}

GpuModule load_module_bar(HostApi& api, GpuDriver& gpu, const std::string& text, const std::string& file,
                          const sc_core::sc_time& translate_per_instruction, unsigned space) {
  std::vector<uint8_t> image;
  GpuModule m = place_module(api, gpu, text, file, space, translate_per_instruction, &image);
  api.write(gpu.bar1_address(m.image), image.data(), image.size(), Access::WriteCombined);
  return m;
}

void check_params(const GpuModule& m, const std::string& kernel, const std::vector<uint32_t>& args, const char* what) {
  const ptx::FunctionInfo& k = m.kernel(kernel);
  uint32_t need = 0;  // the parameters' bytes (param_bytes rounds up to the largest alignment)
  for (const ptx::ParamInfo& p : k.params) need = std::max(need, p.offset + p.size);
  if (args.size() * 4 >= need) return;
  std::string names;
  for (const ptx::ParamInfo& p : k.params) names += (names.empty() ? "" : ", ") + p.name;
  throw HostError(std::string(what) + ": kernel '" + kernel + "' takes " + std::to_string(need) +
                  " bytes of parameters (" + names + "), the launch gives " + std::to_string(args.size() * 4));
}

std::vector<uint32_t> pack_params(const GpuModule& m, const std::string& kernel, const std::vector<uint64_t>& values) {
  const ptx::FunctionInfo& k = m.kernel(kernel);
  if (values.size() != k.params.size())
    throw HostError("kernel '" + kernel + "' takes " + std::to_string(k.params.size()) + " parameters, " +
                    std::to_string(values.size()) + " given");
  std::vector<uint8_t> bytes((k.param_bytes + 3) / 4 * 4, 0);
  for (size_t i = 0; i < values.size(); ++i)
    std::memcpy(bytes.data() + k.params[i].offset, &values[i], std::min<uint32_t>(k.params[i].size, 8));
  std::vector<uint32_t> words(bytes.size() / 4);
  if (!words.empty()) std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

std::string compute_arch(GpuDriver& gpu) {
  const uint32_t base = gpu.block_base(PTOP_COMPUTE_BASE, "compute front end");
  const uint32_t a = gpu.reg_read(base + CMP_ARCH);
  if (a != 20 && a != 30 && a != 35) throw HostError("compute front end: unexpected ARCH " + std::to_string(a));
  return "sm_" + std::to_string(a);
}

}  // namespace hetvp::sw
