// The VideoCore IV V3D block as a second GPU topology (configs/videocore4.yaml): `qpus` QPU
// cores (qpu_core.h) in slices of four, each slice with two TMUs; the VPM (192 rows x 16 x 32
// bits, per the guide's errata) with the QPUs' generic read/write access and its VCD (load) and
// VDW (store) DMA between VPM and SDRAM; 16 global semaphores and the mutex; the host interface
// (firmware/include/hetvp/v3d_regs.h): the user-program request queue and the QPU interrupts.
//
// Timing: every QPU issues one instruction per 4 clocks of `gpu_freq` (the guide: 4 physical
// lanes x 4 cycles for 16 elements); TMU, VPM and DMA costs come from YAML (`tmu`, `vpm`); a QPU
// waiting for data stalls until it is there. Each QPU keeps its own cycle count; the model runs
// the QPU furthest behind first (so semaphores, the mutex and shared engines see requests in
// time order) at most one quantum ahead of SystemC time. Completions, interrupts and register
// effects happen at their simulated time (ArrivalQueue).
//
// Ports: target `regs` (host interface), initiator `mem` (SDRAM, GPU bus addresses), interrupt
// `irq` (optional). Errors (illegal instructions, a read-after-write violation, a program running
// off its code, a DMA outside SDRAM, all running QPUs blocked on semaphores) stop the run naming
// the QPU, its pc, the instruction and the cause.
#pragma once

#include <array>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include "models/qpu/qpu_core.h"
#include "models/qpu/v3d_hostif.h"
#include "platform/arrival_queue.h"
#include "platform/calendar.h"
#include "platform/component.h"
#include "platform/irq.h"
#include "platform/param_set.h"
#include "platform/peripheral.h"
#include "platform/trace_track.h"

namespace hetvp::qpu {

// The parameters of the V3D (YAML type `v3d`).
struct V3dTmuConfig : ParamSet {
  Int<unsigned> latency{this, "latency", 40, "clocks from a TMU request to its data in the FIFO", Range{1, 100000}};
  Int<unsigned> interval{this, "interval", 4, "clocks a slice's TMU is busy per 16-element request", Range{1, 100000}};
  Int<unsigned> queue{this, "queue", 8, "TMU requests a QPU may have outstanding per TMU (the article: 8)",
                      Range{1, 64}};
};
struct V3dVpmConfig : ParamSet {
  Int<unsigned> dma_setup{this, "dma_setup", 50, "clocks from a VCD/VDW address write to the first data",
                          Range{0, 1000000}};
  Real dma_bytes_per_cycle{this, "dma_bytes_per_cycle", 4.0, "VCD/VDW transfer rate in bytes per clock", Min{0.001}};
};
struct V3dConfig : ParamSet {
  Freq gpu_freq{this, "gpu_freq", "250 MHz", "V3D clock (config.txt gpu_freq: 250 MHz Pi 1/2, 400 MHz Pi 3)"};
  Int<unsigned> qpus{this, "qpus", 12, "QPUs (the guide: 3 slices x 4 = 12 on BCM2835)", Range{1, 16}};
  Int<unsigned> qpus_per_slice{this, "qpus_per_slice", 4, "QPUs per slice (each slice has two TMUs)", Range{1, 4}};
  Size sdram_size{this,       "sdram_size",
                  nullptr,    "SDRAM the V3D may address from GPU bus address 0 (DMA beyond is an error)",
                  Required{}, Range{4096, 4294967296.0}};
  Int<unsigned> irq_vector{this, "irq_vector", 0, "interrupt vector raised on the irq port", Range{0, 255}};
  Group<V3dTmuConfig> tmu{this, "tmu", "texture and memory lookup unit costs"};
  Group<V3dVpmConfig> vpm{this, "vpm", "VPM DMA (VCD loads, VDW stores) costs"};
  Time deadlock_grace{
      this, "deadlock_grace", "100 us",
      "how long every running QPU may stay blocked on semaphores/the mutex before the run stops (deadlock)"};
  Int<unsigned> trace_instructions{this, "trace_instructions", 0,
                                   "with --trace: the first N instructions of each QPU as trace spans", Min{0}};
  void validate(Diagnostics& d) const override;
};

class V3d : public Component, public QpuIo {
 public:
  tlm_utils::simple_initiator_socket<V3d> mem{"mem"};
  IrqPort irq{"irq"};

  using Config = V3dConfig;
  V3d(sc_core::sc_module_name name, const V3dConfig& c);
  ~V3d() override;
  void end_of_run() override;

  // --- host interface (V3dHostIf) -----------------------------------------------------------
  void request(uint32_t pc, uint32_t unif, uint32_t unif_len, const sc_core::sc_time& delay);
  void clear_instruction_cache();
  uint32_t completed() const { return completed_; }
  // The running total of performance-counter source `src` (V3D_PCTR_SRC_*) at `now` (cycles).
  uint64_t perf_source(uint32_t src, uint64_t now) const;

  // --- QpuIo ----------------------------------------------------------------------------------
  const Instr& fetch(QpuCore& q, uint32_t pc) override;
  uint32_t uniform(QpuCore& q) override;
  void uniforms_address(QpuCore& q, uint32_t addr) override;
  void tmu_request(QpuCore& q, unsigned tmu, const Vec& addr, const uint8_t* mask) override;
  void tmu_load(QpuCore& q, unsigned tmu, Vec& out) override;
  void vpm_read(QpuCore& q, Vec& out) override;
  void vpm_write(QpuCore& q, const Vec& in, const uint8_t* mask) override;
  void vpm_setup(QpuCore& q, bool store, uint32_t value) override;
  void vpm_dma(QpuCore& q, bool store, uint32_t addr) override;
  void vpm_wait(QpuCore& q, bool store) override;
  uint32_t vpm_busy(QpuCore& q, bool store) override;
  bool mutex_acquire(QpuCore& q) override;
  void mutex_release(QpuCore& q) override;
  bool semaphore(QpuCore& q, unsigned n, bool down) override;
  void host_interrupt(QpuCore& q) override;

  static constexpr unsigned kVpmRows = 192;
  static constexpr uint32_t kBusAliasMask = 0x3fffffffu;  // bits 31:30 of a bus address: the cache alias

 private:
  struct Tmu {
    struct Req {
      uint64_t ready;
      Vec data;
    };
    // The outstanding requests, oldest first: a fixed ring (the queue holds at most 64, the
    // schema's limit) instead of a std::deque that allocated per request (#31).
    static constexpr unsigned kRing = 64;
    std::array<Req, kRing> ring;
    unsigned head = 0, count = 0;
    void push(const Req& r) { ring[(head + count++) % kRing] = r; }
    const Req& front() const { return ring[head]; }
    void pop() {
      head = (head + 1) % kRing;
      --count;
    }
  };
  struct GenericSetup {  // a QPU's VPM generic read or write setup
    unsigned addr = 0, stride = 1, num = 0;
    bool horiz = true, set = false;
  };
  struct Slot {
    std::unique_ptr<QpuCore> core;
    StatGroup stats{"qpu"};
    bool busy = false, blocked = false;
    std::string blocked_on;
    uint32_t unif = 0;
    Tmu tmu[2];
    GenericSetup rd, wr;
    std::deque<Vec> rd_queue;  // the VPM read FIFO (2 entries)
    unsigned rd_left = 0;
    // VCD / VDW setups and the completion cycle of the last DMA each way.
    uint32_t vcd_setup = 0, vcd_pitchb = 0, vdw_setup = 0, vdw_stride = 0;
    uint64_t ld_done = 0, st_done = 0;
    uint64_t start_cycle = 0, programs = 0, busy_cycles = 0, tmu_requests = 0, vpm_dmas = 0, sem_blocks = 0;
    uint64_t sem_wait_cycles = 0;  // clocks blocked on a semaphore or the mutex
    uint64_t blocked_at = 0;
    uint32_t program_pc = 0;
    const std::vector<Instr>* page = nullptr;  // decode cache page of the last fetch
    uint32_t page_base = 0xffffffffu;
    unsigned traced = 0;
    TraceTrack track;  // "v3d.qpu3": its programs, VPM DMAs and traced instructions
  };
  struct Request {
    uint32_t pc, unif, unif_len;
  };
  struct PendingLoad {  // a VCD load, applied to the VPM when it completes
    uint64_t done;
    std::vector<std::pair<unsigned, uint32_t>> words;  // VPM word index -> value
  };

  void run();
  void dispatch();
  void run_until(uint64_t horizon);
  void ended(Slot& s);
  bool next_shared(Slot& s, QpuCore& q);  // the next instruction touches shared state
  void fault(Slot& s, const std::string& why);
  void wake_blocked(const std::string& on, uint64_t cycle);
  void settle_loads(uint64_t cycle);
  void fill_read_queue(Slot& s);
  unsigned vpm_index(const GenericSetup& g, unsigned lane, const char* what);
  // GPU bus addresses: the two top bits select the VideoCore cache alias of the same SDRAM
  // (docs/qpu.md, "Bus addresses"); `decode` strips them and checks the range.
  uint32_t decode_bus(uint32_t bus, unsigned len, const char* what, const char* verb) const;
  void mem_read(uint32_t addr, void* dst, unsigned len, const char* what);
  void mem_write(uint32_t addr, const void* src, unsigned len, const char* what);
  void mem_access(tlm::tlm_command cmd, uint32_t bus, void* data, unsigned len, const char* what);
  uint8_t* dmi_ptr(uint32_t addr, unsigned len);
  // The DMI region (index into dmi_) holding [addr, addr + len), asking the memory for it the
  // first time; -1 when the memory grants none.
  int dmi_region(uint32_t addr, unsigned len);
  Slot& slot(QpuCore& q) { return slots_[q.index()]; }
  sc_core::sc_time at_cycle(uint64_t c) const { return period_ * double(c); }
  uint64_t cycle_at(const sc_core::sc_time& t) const;
  sc_core::sc_time delay_to(uint64_t c) const;
  void declare_stats();

  V3dHostIf hostif_;
  ArrivalQueue arrivals_;
  sc_core::sc_event wake_;
  sc_core::sc_time period_;
  unsigned nqpus_, qpus_per_slice_;
  uint64_t sdram_size_;
  unsigned tmu_latency_, tmu_interval_, tmu_queue_;
  unsigned vpm_read_latency_, dma_setup_;
  double dma_bytes_per_cycle_;
  unsigned irq_vector_;
  sc_core::sc_time deadlock_grace_;
  unsigned trace_instructions_;
  std::vector<Slot*> order_;  // the slots, for the scheduler's scan
  std::deque<Slot> slots_;    // (a deque: a Slot holds a StatGroup, which does not move)
  std::deque<Request> queue_;
  // Shared engines as reservations in simulated time (platform/calendar.h), so that the order in
  // which QPUs running ahead call them does not matter: per slice and TMU, the VCD and the VDW.
  std::vector<Calendar> tmu_busy_;
  Calendar vcd_busy_, vdw_busy_;
  uint64_t reserve(Calendar& c, uint64_t at, uint64_t len);
  std::vector<uint32_t> vpm_;
  std::vector<PendingLoad> loads_;
  uint8_t sem_[16] = {};
  int mutex_owner_ = -1;
  uint32_t made_ = 0, completed_ = 0;
  bool queue_error_ = false;
  std::unordered_map<uint32_t, std::vector<Instr>> code_;  // decoded 4 KiB pages
  std::vector<tlm::tlm_dmi> dmi_;
  bool failed_ = false;
  uint64_t changes_ = 0;  // dispatches, completions, wake-ups: what can end a deadlock
  // Stats.
  uint64_t requests_ = 0, programs_ = 0, instructions_ = 0, flops_ = 0, tmu_total_ = 0, vcd_ = 0, vdw_ = 0,
           vcd_bytes_ = 0, vdw_bytes_ = 0, sem_ops_ = 0, interrupts_ = 0;
  uint64_t first_start_ = UINT64_MAX, last_end_ = 0;
  friend class V3dHostIf;
};

}  // namespace hetvp::qpu
