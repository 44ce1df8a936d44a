// gpu_run: runs one kernel of a PTX module on the GPU's compute units without writing C++ (as
// qpu_run does for the QPUs): the module (a .ptx file, e.g. built with hetvp_add_gpu_kernels), a
// kernel name, grid and block dimensions, dynamic shared memory, the kernel's arguments (numbers,
// or @BUFFER for a buffer's GPU address), buffers loaded from files or zero-filled, and outputs
// written to files after the run. The module is loaded as the driver loads one (sw/driver/gpu_module.h:
// translated on the host, its image written to VRAM through BAR1) and the kernel launched on the
// compute front end (no channel), which writes the TCC's dirty lines back when it ends. docs/gpu_kernels.md.
//
//   hetvp run configs/gk104_nouveau.yaml --workload gpu_run --set workload.args.module=k.sm_30.ptx ...
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>

#include "firmware/include/hetvp/compute.h"
#include "models/gpu/compute/ptx/limits.h"
#include "models/gpu/compute/ptx/module.h"
#include "models/host/host_api.h"
#include "platform/config.h"
#include "platform/file_input.h"
#include "platform/format.h"
#include "platform/program.h"
#include "sw/driver/gpu_driver.h"
#include "sw/driver/gpu_module.h"
#include "sw/driver/launch.h"

namespace hetvp::sw {
namespace {

namespace ptx = gpu::ptx;

// clang's PTX for a large CUDA file is a few hundred KiB.
constexpr InputKind kPtxModule{"a PTX module (.ptx text)", 16ull << 20};
// A buffer is loaded into VRAM (at most a few GiB).
constexpr InputKind kGpuBuffer{"a GPU data buffer", 1ull << 30};

struct GpuRunBuffer : ParamSet {
  Str name{this, "name", nullptr, "name used as @NAME in the arguments", Required{}};
  Str file{this, "file", "", "file loaded into the buffer before the run (raw bytes)"};
  Size size{this, "size", "0", "buffer size (0: the input file's size); the rest is zero"};
  Str output{this, "output", "", "file the buffer's contents are written to after the run"};
};

struct GpuRunArgs : ParamSet {
  Str module{this, "module", nullptr, "the PTX module (clang -S output: hetvp_add_gpu_kernels)", Required{}};
  Str kernel{this, "kernel", nullptr, "the kernel (.entry) to launch", Required{}};
  Any grid{this, "grid",
           "grid in blocks, [x, y, z] (1 to 3 numbers, the missing ones 1; at most [65535, 65535, 65535] on "
           "sm_20, x up to 2^31 - 1 on sm_30/sm_35); or grid_x / grid_y"};
  Any block{this, "block",
            "block in threads, [x, y, z] (1 to 3 numbers, the missing ones 1; at most [1024, 1024, 64] and 1024 "
            "threads); or block_x / block_y"};
  Int<uint32_t> grid_x{this, "grid_x", 1, "grid width in blocks (the 2-D form of grid)", Range{1, 65535}};
  Int<uint32_t> grid_y{this, "grid_y", 1, "grid height in blocks (the 2-D form of grid)", Range{1, 65535}};
  Int<uint32_t> block_x{this, "block_x", 32, "block width in threads (the 2-D form of block)", Range{1, 1024}};
  Int<uint32_t> block_y{this, "block_y", 1, "block height in threads (the 2-D form of block)", Range{1, 1024}};
  Size shared{this, "shared", "0", "dynamic shared memory per block (extern __shared__)", Range{0, 1 << 20}};
  Str args{this, "args", "",
           "the kernel's arguments in order, comma-separated: @BUFFER or @BUFFER+OFFSET (a buffer's GPU address), "
           "integers (decimal, 0x...), floats (1.5 or 1.5f; f32 for a 4-byte parameter, f64 for 8), file:PATH (a "
           "parameter's bytes from a file of its size: a struct or array passed by value)"};
  List<GpuRunBuffer> buffers{this, "buffers", "VRAM buffers: inputs from files, outputs to files"};
  Time poll{this, "poll", "1 us", "polling interval for kernel completion"};
  Group<DriverOptions> driver{this, "driver", "driver options"};

  // The module read (bounded) and loaded, the kernel and the arguments checked against its
  // parameters: a missing or malformed module, an unknown kernel or a wrong argument list is a
  // located configuration error (exit status 2) before anything is simulated.
  struct Loaded {
    std::string text;
    std::unique_ptr<ptx::Module> module;
    const ptx::FunctionInfo* kernel = nullptr;
  };
  Loaded read_module() const {
    Loaded l;
    try {
      l.text = read_input_text(module, kPtxModule);
      l.module = std::make_unique<ptx::Module>(ptx::load(l.text, module));
    } catch (const InputFileError& e) {
      throw ConfigError(module.where() + ": gpu_run: " + e.what());
    } catch (const ptx::LoadError& e) {
      throw ConfigError(module.where() + ": gpu_run: " + e.what());
    }
    try {
      l.kernel = &l.module->kernel(std::string(kernel));
    } catch (const ptx::LoadError& e) {
      throw ConfigError(kernel.where() + ": gpu_run: " + e.what());
    }
    const std::vector<std::string> items = split_args();
    if (items.size() != l.kernel->params.size()) {
      std::string names;
      for (const ptx::ParamInfo& p : l.kernel->params) names += (names.empty() ? "" : ", ") + p.name;
      throw ConfigError(args.where() + format(": gpu_run: kernel '%s' takes %zu parameters (%s), args gives %zu",
                                              l.kernel->name.c_str(), l.kernel->params.size(), names.c_str(),
                                              items.size()));
    }
    return l;
  }
  std::vector<std::string> split_args() const {
    std::vector<std::string> v;
    const std::string& s = args;
    size_t p = 0;
    auto trim = [](std::string x) {
      while (!x.empty() && std::isspace(static_cast<unsigned char>(x.front()))) x.erase(x.begin());
      while (!x.empty() && std::isspace(static_cast<unsigned char>(x.back()))) x.pop_back();
      return x;
    };
    if (trim(s).empty()) return v;
    while (p <= s.size()) {
      size_t q = s.find(',', p);
      if (q == std::string::npos) q = s.size();
      v.push_back(trim(s.substr(p, q - p)));
      p = q + 1;
    }
    return v;
  }
  // The grid and the block: the list keys, or the 2-D ones. Located ConfigErrors: a malformed list,
  // both forms given, or dimensions no architecture runs (ptx/limits.h; the GPU's own at run time).
  ptx::Dim3 grid_dims() const { return dims(grid, grid_x, grid_y); }
  ptx::Dim3 block_dims() const { return dims(block, block_x, block_y); }
  void validate(Diagnostics& d) const override {
    d.collect([&] { read_module(); });
    d.collect([&] {
      const std::string why = ptx::check_launch_dims(ptx::Arch::Sm35, grid_dims(), block_dims());
      if (!why.empty()) throw ConfigError((grid.given() ? grid : block).where() + ": gpu_run: " + why);
    });
  }

 private:
  ptx::Dim3 dims(const Any& list, const Int<uint32_t>& x, const Int<uint32_t>& y) const {
    if (!list.given()) return {x, y, 1};
    if (x.given() || y.given())
      throw ConfigError(list.where() + ": gpu_run: give " + list.key() + " or " + x.key() + "/" + y.key() +
                        ", not both");
    const YAML::Node& n = list.node();
    const std::string form = list.where() + ": gpu_run: " + list.key() + " is [x, y, z], 1 to 3 numbers from 1";
    if (!n.IsSequence() || n.size() < 1 || n.size() > 3) throw ConfigError(form);
    uint32_t v[3] = {1, 1, 1};
    for (size_t i = 0; i < n.size(); ++i) {
      try {
        const uint64_t e = n[i].as<uint64_t>();
        if (e < 1 || e > 0xffffffffu) throw ConfigError(form + format(" (element %zu is %llu)", i, (unsigned long long)e));
        v[i] = uint32_t(e);
      } catch (const YAML::Exception&) {
        throw ConfigError(form + format(" (element %zu is not a number)", i));
      }
    }
    return {v[0], v[1], v[2]};
  }
 public:
};

class GpuRun : public ProgramWithArgs<GpuRunArgs> {
 public:
  int run(HostApi& api, const GpuRunArgs& a) override {
    GpuRunArgs::Loaded l;
    try {
      l = a.read_module();  // validated before the run; read again in case the file changed since
    } catch (const ConfigError& e) {
      throw HostError(e.what());
    }
    GpuDriver drv(api, a.driver);
    drv.open(0);
    const std::string arch = compute_arch(drv);
    if (ptx::to_string(l.module->target()) > arch)
      throw HostError(format("gpu_run: %s targets %s, the GPU's compute units run %s (CMP_ARCH)",
                             std::string(a.module).c_str(), ptx::to_string(l.module->target()), arch.c_str()));
    const ptx::Dim3 grid = a.grid_dims(), block = a.block_dims();
    const std::string dims = ptx::check_launch_dims(
        arch == "sm_20" ? ptx::Arch::Sm20 : arch == "sm_30" ? ptx::Arch::Sm30 : ptx::Arch::Sm35, grid, block);
    if (!dims.empty()) throw HostError("gpu_run: " + dims);
    GpuModule m = load_module_bar(api, drv, l.text, a.module, drv.options().module_translate);

    struct Buffer {
      GpuBuffer buf;
      std::string output;
    };
    std::map<std::string, Buffer> buffers;
    for (const GpuRunBuffer& b : a.buffers) {
      const std::string name = b.name;
      if (buffers.count(name)) throw HostError("gpu_run: buffers: two buffers named '" + name + "'");
      std::vector<uint8_t> data;
      if (!std::string(b.file).empty()) {
        try {
          data = read_input_bytes(b.file, kGpuBuffer);
        } catch (const InputFileError& e) {
          throw HostError("gpu_run: buffer " + name + ": " + e.what());
        }
      }
      uint64_t size = b.size ? uint64_t(b.size) : data.size();
      if (!size) throw HostError("gpu_run: buffers: buffer '" + name + "' has neither a size nor a file");
      if (data.size() > size)
        throw HostError(format("gpu_run: buffers: %s: file %s has %zu bytes, more than the size %llu", name.c_str(),
                               std::string(b.file).c_str(), data.size(), static_cast<unsigned long long>(size)));
      Buffer buf{drv.alloc_vram(size), b.output};
      data.resize(size, 0);
      api.write(drv.bar1_address(buf.buf), data.data(), size, Access::WriteCombined);
      buffers[name] = buf;
    }

    // The parameter buffer, laid out as the kernel's .params say.
    std::vector<uint8_t> params(l.kernel->param_bytes, 0);
    const std::vector<std::string> items = a.split_args();
    for (size_t i = 0; i < items.size(); ++i) {
      const ptx::ParamInfo& p = l.kernel->params[i];
      if (items[i].rfind("file:", 0) == 0) {
        const std::vector<uint8_t> bytes = param_file(items[i], p, i);
        std::memcpy(params.data() + p.offset, bytes.data(), p.size);
        continue;
      }
      const uint64_t v = arg_value(items[i], p, i, buffers);
      std::memcpy(params.data() + p.offset, &v, std::min<uint32_t>(p.size, 8));
    }
    KernelLaunch k{a.kernel, grid.x, grid.y, block.x, block.y, {}};
    k.grid_z = grid.z;
    k.block_z = block.z;
    k.args.resize((params.size() + 3) / 4);
    if (!params.empty()) std::memcpy(k.args.data(), params.data(), params.size());
    k.module = m.image.va;
    k.shared = uint32_t(uint64_t(a.shared));
    k.release = true;
    ComputeFrontEnd fe(api, drv);
    const sc_core::sc_time t0 = api.now();
    fe.wait(fe.start(k), a.poll, "gpu_run: kernel '" + std::string(a.kernel) + "'");
    // 2-D launches print as before ("grid 3x1"); a third dimension is shown when it is not 1.
    const auto shape = [](const ptx::Dim3& d) {
      return d.z == 1 ? format("%ux%u", d.x, d.y) : format("%ux%ux%u", d.x, d.y, d.z);
    };
    api.log(format("gpu_run: kernel '%s' (grid %s, block %s) done in %.3f us", std::string(a.kernel).c_str(),
                   shape(grid).c_str(), shape(block).c_str(), (api.now() - t0).to_seconds() * 1e6));
    for (auto& [name, b] : buffers) {
      if (b.output.empty()) continue;
      std::vector<char> data(b.buf.size);
      api.read(drv.bar1_address(b.buf), data.data(), data.size());
      std::ofstream out(b.output, std::ios::binary);
      if (!out || !out.write(data.data(), std::streamsize(data.size())))
        throw HostError("gpu_run: buffer " + name + ": cannot write " + b.output);
      api.log(format("gpu_run: buffer %s (%llu bytes) -> %s", name.c_str(),
                     static_cast<unsigned long long>(b.buf.size), b.output.c_str()));
    }
    return 0;
  }

 private:
  // file:PATH: a by-value parameter's bytes (a struct or an array), the file exactly its size.
  static std::vector<uint8_t> param_file(const std::string& item, const ptx::ParamInfo& p, size_t i) {
    const std::string path = item.substr(5);
    const std::string where = format("gpu_run: args: argument %zu ('%s', parameter %s of %u bytes)", i, item.c_str(),
                                     p.name.c_str(), p.size);
    std::vector<uint8_t> bytes;
    try {
      bytes = read_input_bytes(path, InputKind{"a kernel parameter's bytes", CMP_PARAM_MAX});
    } catch (const InputFileError& e) {
      throw HostError(where + ": " + e.what());
    }
    if (bytes.size() != p.size)
      throw HostError(where + format(": the file has %zu bytes, the parameter %u", bytes.size(), p.size));
    return bytes;
  }
  template <class Buffers>
  static uint64_t arg_value(const std::string& item, const ptx::ParamInfo& p, size_t i, const Buffers& buffers) {
    const std::string where = format("gpu_run: args: argument %zu ('%s', parameter %s of %u bytes)", i, item.c_str(),
                                     p.name.c_str(), p.size);
    if (p.size != 1 && p.size != 2 && p.size != 4 && p.size != 8)
      throw HostError(where + ": only parameters of 1, 2, 4 or 8 bytes can be given as numbers (file:PATH gives any "
                      "parameter's bytes)");
    if (!item.empty() && item[0] == '@') {
      const size_t plus = item.find('+');
      const std::string name = item.substr(1, plus == std::string::npos ? std::string::npos : plus - 1);
      auto it = buffers.find(name);
      if (it == buffers.end()) throw HostError(where + ": no buffer named '" + name + "' (workload.args.buffers)");
      if (p.size != 8) throw HostError(where + ": a buffer's address is 8 bytes");
      uint64_t off = 0;
      if (plus != std::string::npos) {
        char* end = nullptr;
        off = std::strtoull(item.c_str() + plus + 1, &end, 0);
        if (*end || off >= it->second.buf.size) throw HostError(where + ": the offset is not a number inside the buffer");
      }
      return it->second.buf.va + off;
    }
    const bool is_float = item.find_first_of(".eE") != std::string::npos && item.rfind("0x", 0) != 0;
    char* end = nullptr;
    errno = 0;
    if (is_float) {
      std::string t = item;
      if (!t.empty() && (t.back() == 'f' || t.back() == 'F')) t.pop_back();
      const double d = std::strtod(t.c_str(), &end);
      if (t.empty() || *end || errno || (p.size != 4 && p.size != 8))
        throw HostError(where + ": not a float for a 4- or 8-byte parameter");
      uint64_t v = 0;
      if (p.size == 4) {
        const float f = float(d);
        std::memcpy(&v, &f, 4);
      } else {
        std::memcpy(&v, &d, 8);
      }
      return v;
    }
    const bool neg = !item.empty() && item[0] == '-';
    const uint64_t v = neg ? uint64_t(std::strtoll(item.c_str(), &end, 0)) : std::strtoull(item.c_str(), &end, 0);
    if (item.empty() || *end || errno) throw HostError(where + ": not a number or @BUFFER");
    if (p.size < 8 && !neg && (v >> (8 * p.size)) != 0) throw HostError(where + ": does not fit the parameter");
    return v;
  }
};

}  // namespace

HETVP_REGISTER_PROGRAM("gpu_run", GpuRun,
                       "run one kernel of a PTX module (e.g. a .cu built with hetvp_add_gpu_kernels) with arguments "
                       "and file buffers on the GPU's compute units");

}  // namespace hetvp::sw
