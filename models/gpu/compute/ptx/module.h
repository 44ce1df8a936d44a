// PTX modules for hetvp's compute units: load (parse + check) the text clang emits for CUDA device
// code, list what the runtime needs to place a module in VRAM, and encode the code for upload.
//
//   hetvp::gpu::ptx::Module m = hetvp::gpu::ptx::load(text, "k.ptx");   // throws LoadError
//   const auto& k = m.kernel("square");                                 // throws LoadError if absent
//   std::vector<uint8_t> code = hetvp::gpu::ptx::encode(m);             // upload at some VA `code_base`
//   // instruction i of k is fetched from code_base + k.code_offset + i * kBytesPerInstr
//
// Everything a module does is checked here, at load time: an instruction, directive, type or state
// space the executor does not run is a LoadError located at its line (`k.ptx:57: unsupported
// instruction 'tex.2d'`), never a wrong result halfway through a kernel. docs/ptx.md lists what is
// supported. This library has no SystemC dependency (tests, the bench and the fuzz harness run it
// on plain host memory).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace hetvp::gpu::ptx {

// Bytes one instruction occupies in the encoding encode() produces (docs/ptx.md, "Encoding").
constexpr unsigned kBytesPerInstr = 16;

// The GPU architectures a module may target (`.target sm_20` …) and hetvp's issue-cost tables exist for.
enum class Arch : uint8_t { Sm20, Sm30, Sm35 };
// A kernel's parameters are at most 4 KB on sm_20 to sm_35 (NVIDIA, CUDA C Programming Guide v4.2,
// 2012, B.1.4: passed to the device through constant memory); the loader refuses more.
constexpr uint32_t kMaxParamBytes = 4096;
const char* to_string(Arch a);  // "sm_20"

// A module that does not load: `what()` is "<file>:<line>: <why>" (line 0: the module as a whole).
class LoadError : public std::runtime_error {
 public:
  LoadError(const std::string& file, unsigned line, const std::string& why);
  const std::string& file() const { return file_; }
  unsigned line() const { return line_; }
  const std::string& why() const { return why_; }

 private:
  std::string file_, why_;
  unsigned line_;
};

// One `.param` of a kernel: where its bytes go in the parameter buffer given at launch.
struct ParamInfo {
  std::string name;
  uint32_t offset = 0, size = 0, align = 1;
};

// A `.entry` (kernel) or `.func` (device function).
struct FunctionInfo {
  std::string name;
  unsigned line = 0;               // of its `.entry`/`.func` directive
  bool is_kernel = false;
  std::vector<ParamInfo> params;   // kernels: the launch's parameter layout
  uint32_t param_bytes = 0;        // kernels: size of the parameter buffer (last offset + size, aligned)
  uint32_t shared_bytes = 0;       // kernels: static `.shared` bytes (its own + module scope + callees')
  uint32_t local_bytes = 0;        // `.local` bytes per thread, callees' frames included (no recursion)
  uint32_t regs_per_thread = 0;    // 32-bit registers per thread: the most live at once (liveness over
                                   // the control-flow graph, 64-bit values count 2), callees included
  uint32_t code_offset = 0;        // byte offset of its first instruction in encode()'s output
  uint32_t instr_count = 0;        // instructions (kBytesPerInstr each) from code_offset
};

enum class VarSpace : uint8_t { Global, Const, Shared };

// A module-scope variable. Global ones are placed by the runtime (VRAM; addresses given at launch,
// Launch::variable_addresses), const ones live in constant bank 0 at `bank_offset` (const_bank0()),
// shared ones in every kernel's shared window at `bank_offset`.
// Constant bank 1 is the context's: module `.const` variables whose name starts with
// kContextBankPrefix are placed there instead (in declaration order, each aligned), so a kernel reads a
// per-context value the runtime gives at launch (Launch::const_bank1) rather than the module's image.
struct VariableInfo {
  std::string name;
  unsigned line = 0;
  VarSpace space = VarSpace::Global;
  bool is_extern = false;         // `.extern`: declared, defined elsewhere (only bank-1 constants may be)
  uint64_t size = 0;
  uint32_t align = 1;
  std::vector<uint8_t> init;      // initial bytes (size of them), empty = zero-filled
  unsigned bank = 0;              // Const: 0 (module image) or 1 (context bank)
  uint64_t bank_offset = 0;       // Const: offset in its bank; Shared: offset in the shared window
};
inline constexpr std::string_view kContextBankPrefix = "hetvp_context";

namespace detail {
struct ModuleImpl;
}

class Module {
 public:
  const std::string& file_name() const;
  Arch target() const;                    // from `.target`
  unsigned ptx_version() const;           // `.version 3.2` -> 32
  const std::vector<FunctionInfo>& kernels() const;
  const std::vector<FunctionInfo>& functions() const;  // device functions (`.func`)
  const std::vector<VariableInfo>& variables() const;
  // The kernel named `name`, or nullptr.
  const FunctionInfo* find_kernel(std::string_view name) const;
  // The kernel named `name`; LoadError "<file>: no kernel 'x' in the module (kernels: a, b)" if absent.
  const FunctionInfo& kernel(std::string_view name) const;
  // Index of a kernel in kernels() (as find_kernel), for Launch.
  unsigned kernel_index(const FunctionInfo& k) const;
  // Constant bank 0's initial image (every non-context `.const` variable at its bank_offset).
  const std::vector<uint8_t>& const_bank0() const;
  uint32_t const_bank1_bytes() const;     // bytes of the context bank's variables
  uint32_t code_bytes() const;            // size of encode()'s output
  uint32_t instr_count() const;

  const detail::ModuleImpl& impl() const { return *impl_; }
  explicit Module(std::shared_ptr<const detail::ModuleImpl> impl) : impl_(std::move(impl)) {}

 private:
  std::shared_ptr<const detail::ModuleImpl> impl_;
};

// Parse and check a module. `file_name` is only used in messages. Throws LoadError.
Module load(std::string_view text, const std::string& file_name);

// The code of every function of the module, kBytesPerInstr bytes per instruction, in the order and at
// the offsets FunctionInfo::code_offset give (docs/ptx.md, "Encoding"). Deterministic.
std::vector<uint8_t> encode(const Module& m);

}  // namespace hetvp::gpu::ptx
