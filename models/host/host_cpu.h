// The host CPU: runs one host program (sw/) as native C++ in an SC_THREAD, behind HostApi.
//
// Loads/stores leave through the initiator port `mem` (to the CPU caches or the host bus).
// Cached accesses use DMI when the memory grants it; uncached accesses (MMIO) never do and
// are split into `mmio_width`-byte transactions, each costing the CPU `uncached_store` /
// `uncached_load` on top of what the path beyond returns; write-combined stores leave as one
// 64-byte posted write per line, costing `write_combine_line`. Interrupts arrive on `irq`.
// Temporal decoupling: the CPU runs ahead of SystemC time up to the global quantum, and past it
// while no other process has anything to do before the CPU's local time (RunAheadKeeper,
// platform/run_ahead.h): a loop of uncached reads does not wait per read.
//
// Ports: initiator `mem`; interrupt input `irq`.
#pragma once

#include <map>
#include <memory>
#include <random>

#include <tlm_utils/simple_initiator_socket.h>

#include "models/host/direct_memory.h"
#include "models/host/host_api.h"
#include "platform/access_info.h"
#include "platform/component.h"
#include "platform/direct_target_socket.h"
#include "platform/param_set.h"
#include "platform/program.h"
#include "platform/run_ahead.h"
#include "platform/trace_track.h"

namespace hetvp {

// The parameters of a host CPU (YAML type `host_cpu`).
struct HostCpuConfig : ParamSet {
  Freq clock{this, "clock", "3 GHz", "core clock (informational for programs)"};
  Time cached_access{this, "cached_access", "1 ns", "CPU cost of one cache-line-sized cached access served by DMI"};
  Time uncached_store{this, "uncached_store", "25 ns", "CPU cost of issuing one uncached (MMIO) store"};
  Time uncached_load{this, "uncached_load", "10 ns",
                     "CPU cost of issuing one uncached (MMIO) load, on top of the round trip"};
  Int<unsigned> mmio_width{this, "mmio_width", 4, "bytes per uncached access (4 = 32-bit MMIO)", Range{1, 8}};
  Time write_combine_line{this, "write_combine_line", "20 ns",
                          "CPU cost to fill and evict one 64-byte write-combining line (WriteCombined stores)"};
  Int<unsigned> line_bytes{this, "line_bytes", 64, "cache line size cached accesses are split into", Range{8, 4096}};
  Bool dmi{this, "dmi", true, "use direct memory access for cached accesses where granted"};
  Int<uint64_t> ecam_base{this, "ecam_base", 0xE0000000, "PCIe ECAM configuration window (firmware tables)", Min{0}};
  Size ecam_size{this, "ecam_size", "256 MiB", "size of the ECAM window"};
  Int<uint64_t> mmio_base{this, "mmio_base", 0x80000000, "PCIe memory window the root complex forwards", Min{0}};
  Size mmio_size{this, "mmio_size", "1536 MiB", "size of the PCIe memory window"};
  Int<uint64_t> msi_address{this, "msi_address", 0xFEE00000, "address MSI writes target", Min{0}};
  Int<uint64_t> pinned_base{this, "pinned_base", 0x10000000, "start of host DRAM handed out as pinned memory", Min{0}};
  Size pinned_size{this, "pinned_size", "768 MiB", "size of the pinned-memory pool"};
};

class HostCpu : public Component, public HostApi, public DirectMemory, public IrqIf, public ProgramHost {
 public:
  DirectInitiator<tlm_utils::simple_initiator_socket<HostCpu>> mem{"mem"};
  IrqExport irq{"irq"};

  using Config = HostCpuConfig;
  HostCpu(sc_core::sc_module_name name, const HostCpuConfig& c);

  // Set by the simulation before sc_start: which program to run and its arguments.
  void load_program(const std::string& program, const Params& args, uint64_t seed) override;

  // HostApi
  void read(uint64_t addr, void* dst, size_t len, Access a) override;
  void write(uint64_t addr, const void* src, size_t len, Access a) override;
  void mmio_write_strobed(uint64_t addr, const void* src, size_t len, uint32_t strobe) override;
  void peek(uint64_t addr, void* dst, size_t len) override;
  void poke(uint64_t addr, const void* src, size_t len) override;
  sc_core::sc_time now() override;
  void spend(const sc_core::sc_time& t) override;
  void sleep(const sc_core::sc_time& t) override;
  bool wait_interrupt(unsigned vector, const sc_core::sc_time& timeout) override;
  uint64_t alloc_pinned(uint64_t size, uint64_t align) override;
  void free_pinned(uint64_t addr) override;
  const PlatformInfo& platform() const override { return info_; }
  std::mt19937_64& rng() override { return rng_; }
  ResultTable& results() override { return results_; }
  void log(const std::string& line) override;
  void stat(const std::string& key, double value) override { program_stats_[key] = value; }
  const std::string& name() const override { return name_; }
  void progress(uint64_t done, uint64_t total) override;

  // DirectMemory (host_cpu_direct.cpp)
  uint8_t* map_direct(uint64_t addr, uint64_t len) override;
  void unmap_direct(const volatile void* p) override;
  std::string direct_stale(const volatile void* p) const override;

  // IrqIf
  void raise(unsigned vector, const sc_core::sc_time& delay) override;

  const ResultTable& result_table() const override { return results_; }

 private:
  void trace_call(const char* what, uint64_t addr, size_t len, Access a, const sc_core::sc_time& t0);
  void declare_stats();  // this component's statistics, declared once (platform/stats.h)
  void run_program();
  // `be`: byte enables (TLM_BYTE_ENABLED per byte, `len` of them), or none.
  void transport(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len, Access a, uint8_t* be = nullptr);
  bool try_dmi(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len);
  void invalidate_dmi(sc_dt::uint64 start, sc_dt::uint64 end);
  void revoke_direct(uint64_t start, uint64_t end);
  void debug(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, size_t len);
  // SystemC time catches up with the CPU's local time when another process has activity pending
  // before it (the test of platform/run_ahead.h); else the CPU goes on ahead.
  void catch_up_if_observed();
  bool on_pcie(uint64_t addr) const;  // in the window the root complex forwards, or ECAM

  std::string name_;
  TraceTrack track_{basename()};  // a span per HostApi call, sleep and interrupt wait
  PlatformInfo info_;
  sc_core::sc_time cached_access_, uncached_store_, uncached_load_, wc_line_;
  unsigned mmio_width_, line_bytes_;
  bool use_dmi_;
  RunAheadKeeper qk_;  // local time; syncs only where another process could see it
  // The end of the last sleep passed in local time (absolute): a failing program still ends there
  // at least, as it did when every sleep waited (run_program).
  sc_core::sc_time slept_until_;
  tlm::tlm_generic_payload gp_;
  AccessInfo* info_ext_ = new AccessInfo;  // owned by the payload it is attached to
  std::vector<tlm::tlm_dmi> dmi_;          // granted regions
  struct DirectMap {                       // a pointer handed to the program (map_direct)
    uint64_t addr, len;
    uint8_t* ptr;
    std::string stale;  // why it is no longer valid ("" while it is)
  };
  std::vector<DirectMap> direct_maps_;
  std::mt19937_64 rng_;
  ResultTable results_;
  std::map<std::string, double> program_stats_;

  std::string program_name_;
  std::unique_ptr<HostProgram> program_;
  Params program_args_;

  // pinned allocator: first fit over [pinned_base, pinned_base + pinned_size)
  std::map<uint64_t, uint64_t> allocations_;  // base -> size

  // interrupts: count of pending deliveries per vector, with the time they become visible
  std::map<unsigned, std::vector<sc_core::sc_time>> pending_irq_;
  sc_core::sc_event irq_event_;
  sc_core::sc_event watchdog_{"watchdog"};  // wait_interrupt's deadline, armed at watchdog_at_
  sc_core::sc_time watchdog_at_ = sc_core::SC_ZERO_TIME;

  uint64_t loads_ = 0, stores_ = 0, uncached_loads_ = 0, uncached_stores_ = 0, wc_lines_ = 0, dmi_accesses_ = 0,
           irqs_ = 0;
  sc_core::sc_time busy_;
};

}  // namespace hetvp
