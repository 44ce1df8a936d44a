// The only door between a host program (sw/) and the simulated system.
//
// Everything a program does costs simulated time on its CPU: loads and stores cross the CPU's
// memory port (caches, host bus, PCIe root complex, link, device), `spend` models time the CPU
// computes. Uncached accesses are what a driver uses for MMIO. `peek`/`poke` are untimed
// debug accesses, for checking results only. A failed access throws HostError; the CPU model
// turns it into a failure of the run naming the program, the address and the reason.
#pragma once

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>

#include <systemc>

#include "platform/results.h"

namespace hetvp {

class HostError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Cached: through the CPU caches (DMI where memory grants it). Uncached: one transaction per
// `mmio_width` bytes (MMIO registers). WriteCombined: uncached, but stores are gathered into
// whole 64-byte lines and leave as one posted write each (x86 WC mapping of a BAR); loads
// behave as uncached.
enum class Access { Cached, Uncached, WriteCombined };

// What firmware tables (ACPI/device tree) would tell an OS about the machine.
struct PlatformInfo {
  uint64_t ecam_base = 0, ecam_size = 0;      // PCIe configuration space (ECAM)
  uint64_t mmio_base = 0, mmio_size = 0;      // window the root complex forwards to PCIe
  uint64_t msi_address = 0;                   // where MSI writes land
  uint64_t pinned_base = 0, pinned_size = 0;  // host DRAM the pinned allocator hands out
  double cpu_hz = 0;
};

class HostApi {
 public:
  virtual ~HostApi() = default;

  // --- loads and stores (timed) --------------------------------------------------------
  virtual void read(uint64_t addr, void* dst, size_t len, Access a = Access::Cached) = 0;
  virtual void write(uint64_t addr, const void* src, size_t len, Access a = Access::Cached) = 0;
  uint32_t read32(uint64_t addr, Access a = Access::Cached) {
    uint32_t v;
    read(addr, &v, 4, a);
    return v;
  }
  void write32(uint64_t addr, uint32_t v, Access a = Access::Cached) { write(addr, &v, 4, a); }
  uint64_t read64(uint64_t addr, Access a = Access::Cached) {
    uint64_t v;
    read(addr, &v, 8, a);
    return v;
  }
  void write64(uint64_t addr, uint64_t v, Access a = Access::Cached) { write(addr, &v, 8, a); }
  uint32_t mmio_read32(uint64_t addr) { return read32(addr, Access::Uncached); }
  void mmio_write32(uint64_t addr, uint32_t v) { write32(addr, v, Access::Uncached); }
  // One uncached store of `len` (1..8) bytes within one naturally aligned 8-byte unit, with a
  // byte strobe: byte i of `src` is written only if bit i of `strobe` is set — any pattern,
  // non-contiguous too (AXI WSTRB; the transaction carries TLM byte enables). A register block
  // behind the RTL bridges sees it as WSTRB/PSTRB (docs/rtl_blocks.md).
  virtual void mmio_write_strobed(uint64_t addr, const void* src, size_t len, uint32_t strobe) {
    (void)addr, (void)src, (void)len, (void)strobe;
    throw HostError(name() + ": this CPU model has no byte-strobed stores");
  }
  void mmio_write32_strobed(uint64_t addr, uint32_t v, uint32_t strobe) { mmio_write_strobed(addr, &v, 4, strobe); }

  // --- untimed debug access (result checking only) -------------------------------------
  virtual void peek(uint64_t addr, void* dst, size_t len) = 0;
  virtual void poke(uint64_t addr, const void* src, size_t len) = 0;

  // --- time ----------------------------------------------------------------------------
  virtual sc_core::sc_time now() = 0;                 // this CPU's local time
  virtual void spend(const sc_core::sc_time& t) = 0;  // the CPU is busy computing
  virtual void sleep(const sc_core::sc_time& t) = 0;  // the CPU idles (others run)
  // Waits for interrupt `vector`; false on timeout.
  virtual bool wait_interrupt(unsigned vector, const sc_core::sc_time& timeout) = 0;
  // Polls a 32-bit word until (value & mask) == expect, sleeping `interval` between polls.
  // Returns false on timeout. Each poll is a real, timed load.
  bool poll32(uint64_t addr, uint32_t mask, uint32_t expect, const sc_core::sc_time& interval,
              const sc_core::sc_time& timeout, Access a = Access::Cached);

  // --- pinned host memory ----------------------------------------------------------------
  virtual uint64_t alloc_pinned(uint64_t size, uint64_t align = 4096) = 0;
  virtual void free_pinned(uint64_t addr) = 0;

  // --- environment -----------------------------------------------------------------------
  virtual const PlatformInfo& platform() const = 0;
  virtual std::mt19937_64& rng() = 0;                           // seeded from simulation.seed
  virtual ResultTable& results() = 0;                           // rows for --csv
  virtual void log(const std::string& line) = 0;                // a line of the run's human summary
  virtual void stat(const std::string& key, double value) = 0;  // a number for the stats JSON
  // How much of the work it knows of the program has done (transfer points, benchmark runs):
  // `hetvp run --progress` shows the percent and an ETA from it (platform/work_progress.h). A
  // program that cannot count its work does not call it. Untimed.
  virtual void progress(uint64_t done, uint64_t total) { (void)done, (void)total; }
  virtual const std::string& name() const = 0;
};

}  // namespace hetvp
