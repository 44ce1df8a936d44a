// C++ kernels for hetvp's compute units: functions executed per warp (SIMT, 32 lanes with a
// per-lane active mask), launched with CMP_MODULE = 0. Every other kernel hetvp ships is compiled
// PTX (sw/kernels/*.cu, docs/gpu_kernels.md); what is left here are the coherence protocol's
// __coh_gpu_acquire/_release (uncached register accesses, which the PTX environment has no form
// for). A kernel is registered by name and launched by id (FNV-1a of the name) through the compute
// front end's registers:
//
//   static void square(hetvp::gpu::Warp& w) {
//     auto i = w.global_x();                          // per-lane global thread index
//     uint32_t m = w.active() & w.lt(i, w.arg(4));   // lanes with i < N
//     auto a = w.load<float>(w.addr(w.arg64(0), i, 4), m);
//     w.store<float>(w.addr(w.arg64(2), i, 4), w.map(a, [](float x) { return x * x; }), m);
//   }
//   HETVP_REGISTER_KERNEL("square", square);
//
// Every load/store is one warp memory instruction: it goes through the coalescer, then the compute
// unit's TCP (L1), the shared TCC (L2) and the GPU MMU. Values are functional; time is a cost per
// instruction class plus what the memory path returns. Two spaces (docs/kepler.md):
//   load/store             global memory: loads are caching (L1, 128 B units) or non-caching (L1
//                          bypassed, 32 B segments to L2) as the chip / YAML says (Fermi / Kepler)
//   load_local/store_local local memory (register spills, per-thread arrays): always cached in L1,
//                          on Kepler the only loads L1 serves. hetvp has no per-thread local window:
//                          the kernel addresses the backing buffer by GPU VA.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <string>

#include "platform/registry.h"

namespace hetvp::gpu {

constexpr unsigned kLanes = 32;
template <class T>
using Lanes = std::array<T, kLanes>;

// What executes a warp's instructions (the compute unit). Kernels only see Warp.
enum class MemSpace : uint8_t { Global, Local };

class WarpExec {
 public:
  virtual ~WarpExec() = default;
  // A warp memory instruction: addresses per lane, `size` bytes per lane, lanes in `mask`.
  virtual void mem(bool store, MemSpace space, const Lanes<uint64_t>& addr, uint32_t mask, unsigned size,
                   uint8_t* data /*32*size*/) = 0;
  virtual void alu(unsigned n) = 0;
  virtual void uncached(bool store, uint64_t va, uint32_t& value) = 0;
  virtual void idle_cycles(unsigned n) = 0;
  virtual void error(const std::string& why) = 0;
};

struct Dim2 {
  uint32_t x = 1, y = 1;
};

class Warp {
 public:
  Warp(WarpExec& x, const uint32_t* args, Dim2 grid, Dim2 block, Dim2 block_idx, unsigned warp_in_block)
      : x_(x), args_(args), grid_(grid), block_(block), bidx_(block_idx), warp_(warp_in_block) {
    const unsigned threads = block.x * block.y;
    for (unsigned l = 0; l < kLanes; ++l) {
      unsigned t = warp_in_block * kLanes + l;
      if (t < threads) active_ |= 1u << l;
      tx_[l] = t % block.x;
      ty_[l] = t / block.x;
    }
  }
  uint32_t active() const { return active_; }
  // The constant buffer of the GPC this warp's block runs on (compute.h CMP_GPC_CB_*): word i.
  // Reading past its end is a kernel error.
  void set_cb(const uint32_t* words, unsigned n) {
    cb_ = words;
    cb_words_ = n;
  }
  uint32_t cb(unsigned i) {
    if (i < cb_words_) return cb_[i];
    x_.error("constant buffer word " + std::to_string(i) + " read, the GPC's constant buffer has " +
             std::to_string(cb_words_) + " words (CMP_GPC_CB_SIZE)");
    return 0;
  }
  uint32_t arg(unsigned i) const { return args_[i]; }
  uint64_t arg64(unsigned i) const { return args_[i] | (uint64_t(args_[i + 1]) << 32); }
  Dim2 grid() const { return grid_; }
  Dim2 block() const { return block_; }
  Dim2 block_idx() const { return bidx_; }
  Lanes<uint32_t> global_x() const {
    Lanes<uint32_t> r;
    for (unsigned l = 0; l < kLanes; ++l) r[l] = bidx_.x * block_.x + tx_[l];
    return r;
  }
  Lanes<uint32_t> global_y() const {
    Lanes<uint32_t> r;
    for (unsigned l = 0; l < kLanes; ++l) r[l] = bidx_.y * block_.y + ty_[l];
    return r;
  }
  Lanes<uint32_t> lane_id() const {
    Lanes<uint32_t> r;
    for (unsigned l = 0; l < kLanes; ++l) r[l] = l;
    return r;
  }
  // Mask of lanes where a[l] < bound.
  uint32_t lt(const Lanes<uint32_t>& a, uint32_t bound) {
    x_.alu(1);
    uint32_t m = 0;
    for (unsigned l = 0; l < kLanes; ++l) m |= uint32_t(a[l] < bound) << l;
    return m;
  }
  // base + index * scale, per lane.
  Lanes<uint64_t> addr(uint64_t base, const Lanes<uint32_t>& index, unsigned scale) {
    x_.alu(1);
    Lanes<uint64_t> r;
    for (unsigned l = 0; l < kLanes; ++l) r[l] = base + uint64_t(index[l]) * scale;
    return r;
  }
  template <class T, class F>
  auto map(const Lanes<T>& a, F f) {
    x_.alu(1);
    Lanes<decltype(f(a[0]))> r;
    for (unsigned l = 0; l < kLanes; ++l) r[l] = f(a[l]);
    return r;
  }
  template <class T>
  Lanes<T> load(const Lanes<uint64_t>& a, uint32_t mask, MemSpace space = MemSpace::Global) {
    Lanes<T> r{};
    x_.mem(false, space, a, mask & active_, sizeof(T), reinterpret_cast<uint8_t*>(r.data()));
    return r;
  }
  template <class T>
  void store(const Lanes<uint64_t>& a, const Lanes<T>& v, uint32_t mask, MemSpace space = MemSpace::Global) {
    Lanes<T> c = v;
    x_.mem(true, space, a, mask & active_, sizeof(T), reinterpret_cast<uint8_t*>(c.data()));
  }
  template <class T>
  Lanes<T> load_local(const Lanes<uint64_t>& a, uint32_t mask) {
    return load<T>(a, mask, MemSpace::Local);
  }
  template <class T>
  void store_local(const Lanes<uint64_t>& a, const Lanes<T>& v, uint32_t mask) {
    store<T>(a, v, mask, MemSpace::Local);
  }
  // Register shuffle (__shfl): lane l receives v[src[l]] (its own value if src is not active).
  template <class T>
  Lanes<T> shfl(const Lanes<T>& v, const Lanes<uint32_t>& src, uint32_t mask) {
    x_.alu(1);
    Lanes<T> r = v;
    for (unsigned l = 0; l < kLanes; ++l)
      if ((mask >> l & 1) && src[l] < kLanes && (mask >> src[l] & 1)) r[l] = v[src[l]];
    return r;
  }
  // Scalar uncached access (lane 0): MMIO, the directory's registers.
  void mmio_write32(uint64_t va, uint32_t v) { x_.uncached(true, va, v); }
  uint32_t mmio_read32(uint64_t va) {
    uint32_t v = 0;
    x_.uncached(false, va, v);
    return v;
  }
  void idle(unsigned cycles) { x_.idle_cycles(cycles); }
  void alu(unsigned n) { x_.alu(n); }  // n ALU instructions (cost only)
  void fail(const std::string& why) { x_.error(why); }

 private:
  WarpExec& x_;
  const uint32_t* args_;
  Dim2 grid_, block_, bidx_;
  unsigned warp_;
  uint32_t active_ = 0;
  Lanes<uint32_t> tx_{}, ty_{};
  const uint32_t* cb_ = nullptr;
  unsigned cb_words_ = 0;
};

using KernelFn = std::function<void(Warp&)>;

uint32_t kernel_id(const std::string& name);  // FNV-1a 32 of the name

struct KernelType {
  static constexpr const char* kKind = "kernel";
  std::string name;
  KernelFn fn;
};
using KernelRegistry = Registry<KernelType>;

// The kernel whose kernel_id() is `id` (nullptr if none); its name in *name. Two registered
// names with the same id are a logic error (reported here, at the first launch).
const KernelFn* find_kernel(uint32_t id, std::string* name = nullptr);

}  // namespace hetvp::gpu

#define HETVP_REGISTER_KERNEL(NAME, FN) HETVP_REGISTER_ENTRY(::hetvp::gpu::KernelType, NAME, FN)
