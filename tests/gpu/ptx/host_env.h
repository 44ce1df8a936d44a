// A PTX executor environment on plain host memory (tests and bench/ptx): one flat global memory
// from kGlobalBase, local memory per thread slot, counters of what the executor reported.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "models/gpu/compute/ptx/exec.h"

namespace hetvp::gpu::ptx::test {

class HostEnv : public Env {
 public:
  static constexpr uint64_t kGlobalBase = 0x10000000;
  static constexpr uint64_t kLocalBase = 0x80000000;

  explicit HostEnv(size_t global_bytes = 1 << 20, size_t local_bytes = 1 << 20)
      : global_(global_bytes, 0), local_(local_bytes, 0) {}

  // Bump allocation in global memory (256-byte aligned); returns the address.
  uint64_t alloc(size_t bytes) {
    uint64_t a = kGlobalBase + top_;
    top_ = (top_ + bytes + 255) / 256 * 256;
    if (top_ > global_.size()) global_.resize(top_);
    return a;
  }
  template <class T>
  T* ptr(uint64_t addr) {
    return reinterpret_cast<T*>(global_.data() + (addr - kGlobalBase));
  }
  template <class T>
  uint64_t upload(const std::vector<T>& v) {
    uint64_t a = alloc(v.size() * sizeof(T));
    std::memcpy(ptr<uint8_t>(a), v.data(), v.size() * sizeof(T));
    return a;
  }
  template <class T>
  std::vector<T> download(uint64_t a, size_t n) {
    std::vector<T> v(n);
    std::memcpy(v.data(), ptr<uint8_t>(a), n * sizeof(T));
    return v;
  }

  void fetch(uint64_t address) override {
    ++fetches;
    last_fetch = address;
  }
  void issue(InstrClass c, unsigned active_lanes) override {
    ++issued[static_cast<size_t>(c)];
    lanes += active_lanes;
  }
  void mem(bool store, EnvSpace space, const LaneArray<uint64_t>& addr, uint32_t mask, unsigned size,
           uint8_t* data) override {
    ++(space == EnvSpace::Global ? global_accesses : space == EnvSpace::Local ? local_accesses : system_accesses);
    for (unsigned l = 0; l < kWarpLanes; ++l) {
      if (!(mask >> l & 1)) continue;
      uint8_t* p = at(space, addr[l], size);
      if (store) std::memcpy(p, data + l * size, size);
      else std::memcpy(data + l * size, p, size);
    }
  }
  void atom(AtomOp op, AtomType type, const LaneArray<uint64_t>& addr, uint32_t mask, unsigned size,
            const LaneArray<uint64_t>& b, const LaneArray<uint64_t>& c, LaneArray<uint64_t>& old,
            bool) override {
    ++atomics;
    for (unsigned l = 0; l < kWarpLanes; ++l) {
      if (!(mask >> l & 1)) continue;
      uint8_t* p = at(EnvSpace::Global, addr[l], size);
      uint64_t v = 0;
      std::memcpy(&v, p, size);
      old[l] = v;
      v = atom_apply(op, type, v, b[l], c[l]);
      std::memcpy(p, &v, size);
    }
  }
  void shared_access(bool, unsigned degree) override {
    ++shared_accesses;
    shared_replays += degree - 1;
    max_degree = degree > max_degree ? degree : max_degree;
  }

  // system_accesses: ld.cv / st.wt warp instructions (EnvSpace::System: global memory, uncached)
  uint64_t fetches = 0, last_fetch = 0, lanes = 0, global_accesses = 0, local_accesses = 0, system_accesses = 0,
           atomics = 0;
  uint64_t shared_accesses = 0, shared_replays = 0;
  unsigned max_degree = 0;
  uint64_t issued[static_cast<size_t>(InstrClass::kCount)] = {};

 private:
  uint8_t* at(EnvSpace space, uint64_t a, unsigned size) {
    const bool global = space != EnvSpace::Local;  // System: global memory, uncached
    std::vector<uint8_t>& m = global ? global_ : local_;
    uint64_t base = global ? kGlobalBase : kLocalBase;
    if (a < base || a - base + size > m.size())
      throw ExecError(std::string(global ? "global" : "local") + " address 0x" + hex(a) +
                      " outside the test's memory");
    return m.data() + (a - base);
  }
  static std::string hex(uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(v));
    return b;
  }
  std::vector<uint8_t> global_, local_;
  size_t top_ = 0;
};

// Runs every block of a launch on `env`, one after another. Returns the thread instructions executed.
inline uint64_t run_grid(const Launch& l, HostEnv& env) {
  BlockExec b(l, env);
  const uint64_t local_per_block = uint64_t(l.module->kernels()[l.kernel].local_bytes) * l.block.count();
  for (uint32_t z = 0; z < l.grid.z; ++z)
    for (uint32_t y = 0; y < l.grid.y; ++y)
      for (uint32_t x = 0; x < l.grid.x; ++x) {
        b.start({x, y, z}, HostEnv::kLocalBase);
        (void)local_per_block;
        b.run();
      }
  return b.thread_instructions();
}

// Packs kernel arguments at the offsets the kernel's parameter layout gives.
class Params {
 public:
  explicit Params(const FunctionInfo& k) : k_(k), bytes_(k.param_bytes, 0) {}
  template <class T>
  Params& set(unsigned i, T v) {
    if (i >= k_.params.size() || k_.params[i].size != sizeof(T)) throw std::runtime_error("bad parameter " + std::to_string(i));
    std::memcpy(bytes_.data() + k_.params[i].offset, &v, sizeof(T));
    return *this;
  }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  const FunctionInfo& k_;
  std::vector<uint8_t> bytes_;
};

}  // namespace hetvp::gpu::ptx::test
