// Where a host program's simulated time goes, by what each HostApi call touched (issue #24,
// bench/fujii2013: the first run against later runs, broken down). A HostApi that forwards every
// call to the real one and adds the call's duration (the CPU's local time after minus before) to a
// bucket chosen by its address: BAR0 registers, the microcontrollers' BAR0 windows, BAR1 (VRAM:
// instance blocks, page tables, context buffers, the golden image's read-back), other memory
// (pinned host buffers: push buffers, GPFIFO), CPU time (`spend`, the API calls' cost). A sleep is
// a poll's wait: it goes to `mcu_wait` after a read of a microcontroller window (the host waiting
// for the firmware to answer a command) and to `wait` otherwise (fences: GPU work). Only the bus
// is used: the buckets are the host's own view, nothing is read from a model's object.
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "models/host/host_api.h"

namespace hetvp::sw {

class HostTime : public HostApi {
 public:
  enum Bucket { Reg, Mcu, McuWait, Vram, Wait, Cpu, Mem, kBuckets };
  static const char* name(Bucket b) {
    static const char* const n[kBuckets] = {"reg", "mcu", "mcu_wait", "vram", "wait", "cpu", "mem"};
    return n[b];
  }

  explicit HostTime(HostApi& api) : api_(api) {}
  // The GPU's BAR0 and BAR1 and the microcontrollers' windows (BAR0 offsets); until set every
  // access counts as `mem`.
  void set_bars(uint64_t bar0, uint64_t bar0_size, uint64_t bar1, uint64_t bar1_size) {
    bar0_ = bar0;
    bar0_size_ = bar0_size;
    bar1_ = bar1;
    bar1_size_ = bar1_size;
  }
  void add_mcu_window(uint32_t offset, uint32_t size) { windows_.push_back({offset, size}); }
  // Nanoseconds per bucket so far.
  const std::array<double, kBuckets>& ns() const { return ns_; }

  void read(uint64_t addr, void* dst, size_t len, Access a) override {
    const Bucket b = classify(addr);
    const sc_core::sc_time t0 = api_.now();
    api_.read(addr, dst, len, a);
    add(b, t0);
    last_read_mcu_ = b == Mcu;
  }
  void write(uint64_t addr, const void* src, size_t len, Access a) override {
    const Bucket b = classify(addr);
    const sc_core::sc_time t0 = api_.now();
    api_.write(addr, src, len, a);
    add(b, t0);
  }
  // A byte-strobed store is a store: timed into its address's bucket like write().
  void mmio_write_strobed(uint64_t addr, const void* src, size_t len, uint32_t strobe) override {
    const Bucket b = classify(addr);
    const sc_core::sc_time t0 = api_.now();
    api_.mmio_write_strobed(addr, src, len, strobe);
    add(b, t0);
  }
  void peek(uint64_t addr, void* dst, size_t len) override { api_.peek(addr, dst, len); }
  void poke(uint64_t addr, const void* src, size_t len) override { api_.poke(addr, src, len); }
  sc_core::sc_time now() override { return api_.now(); }
  void spend(const sc_core::sc_time& t) override {
    const sc_core::sc_time t0 = api_.now();
    api_.spend(t);
    add(Cpu, t0);
  }
  void sleep(const sc_core::sc_time& t) override {
    const sc_core::sc_time t0 = api_.now();
    api_.sleep(t);
    add(last_read_mcu_ ? McuWait : Wait, t0);
  }
  bool wait_interrupt(unsigned vector, const sc_core::sc_time& timeout) override {
    const sc_core::sc_time t0 = api_.now();
    const bool ok = api_.wait_interrupt(vector, timeout);
    add(Wait, t0);
    return ok;
  }
  uint64_t alloc_pinned(uint64_t size, uint64_t align) override { return api_.alloc_pinned(size, align); }
  void free_pinned(uint64_t addr) override { api_.free_pinned(addr); }
  const PlatformInfo& platform() const override { return api_.platform(); }
  std::mt19937_64& rng() override { return api_.rng(); }
  ResultTable& results() override { return api_.results(); }
  void log(const std::string& line) override { api_.log(line); }
  void stat(const std::string& key, double value) override { api_.stat(key, value); }
  void progress(uint64_t done, uint64_t total) override { api_.progress(done, total); }
  const std::string& name() const override { return api_.name(); }

 private:
  Bucket classify(uint64_t addr) const {
    if (bar0_ && addr >= bar0_ && addr < bar0_ + bar0_size_) {
      const uint64_t off = addr - bar0_;
      for (const auto& w : windows_)
        if (off >= w.first && off < uint64_t(w.first) + w.second) return Mcu;
      return Reg;
    }
    if (bar1_ && addr >= bar1_ && addr < bar1_ + bar1_size_) return Vram;
    return Mem;
  }
  void add(Bucket b, const sc_core::sc_time& t0) { ns_[b] += (api_.now() - t0).to_seconds() * 1e9; }

  HostApi& api_;
  uint64_t bar0_ = 0, bar0_size_ = 0, bar1_ = 0, bar1_size_ = 0;
  std::vector<std::pair<uint32_t, uint32_t>> windows_;
  std::array<double, kBuckets> ns_{};
  bool last_read_mcu_ = false;
};

}  // namespace hetvp::sw
