// The global directory controller (YAML type `coherence_directory`): home of the shared
// (host-mapped) memory and the register protocol of SPEC §7 / Misaki 2026 ch. 3 at host physical
// 0x40000000 (offsets in coherence_regs.h).
//
//   host_bus ──> dir.regs          dir.cpu_cc ──> cpu cache controller regs (on-chip hop, `cpu_hop`)
//                                  dir.host   ──> host_bus ──> rc ──> PCIe ──> GPU BAR0 + 0x405000
//                                                 (the GPU cache controller; address set by the
//                                                  runtime in GPU_CC_LO/HI)
//
// * LOCK (0x0): write 1 takes the lock for the writing side (AccessInfo.side), 0 releases it.
//   hetvp's lock FAILS VISIBLY instead of waiting: a write of 1 while held (by either side), a
//   0 without holding it, any other value — each ends the run with exit 1 and a message naming
//   the register. (Algorithm 2 programs are sequential hand-overs: contention is a bug.)
// * HISTORY (0x6000): 1 = receive the CPU's history, 2 = the GPU's. The directory acks the
//   side's cache controller (HIST_REQ), which flushes its dirty lines and sends its history in
//   chunks to HIST_DATA, then HIST_END = total; the directory checks the total and confirms
//   (HIST_CONFIRM), the controller clears. HIST_STATUS reads 1 once complete (at read time).
// * INVALIDATE (0x5000): 1 = invalidate the GPU caches with the CPU's history, 2 = the CPU
//   caches with the GPU's. The invalidation engine (`engine: tlm|rtl|lockstep`) turns the history
//   into requests — `mode: per_line`: max_range 1 (one probe per line), `mode: range`: up to
//   `max_range` lines per probe. How long the probes take is `probe_timing`: `per_side` (each
//   target side's gem5 chain, probe_chain.h: groups `to_cpu`, `to_gpu`), `serial_ack` (one chain
//   for both: group `serial_ack`), or `pipelined`: probes are issued `issue_cycles` apart
//   (posted), the target controller walks its tags; the directory then reads PROBE_DONE (returns
//   when the walks are done). Invalidation time = from the INVALIDATE write's arrival to PROBE_DONE's return, in
//   ps (= gem5 ticks at 1 THz). INVAL_STATUS reads 1 once done. Requires the lock and a
//   complete history of the source side.
// * TRACK forwarding: 0x8000 -> CPU controller TRACK, 0x10000 -> GPU controller TRACK.
//
// Ports: target `regs` (Peripheral); initiators `cpu_cc`, `host`.
#pragma once

#include <memory>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/coherence/invalidation_engine.h"
#include "models/coherence/probe_chain.h"
#include "platform/access_info.h"
#include "platform/component.h"
#include "platform/implementation.h"
#include "platform/param_set.h"
#include "platform/peripheral.h"
#include "platform/trace_track.h"

namespace hetvp::coherence {

HETVP_ENUM(InvalidationMode, per_line, range);
HETVP_ENUM(ProbeTiming, pipelined, serial_ack, per_side);

// probe_timing: serial_ack: one gem5 APU chain for the probes to either side (`directory.serial_ack`).
struct SerialAckConfig : ParamSet {
  Int<uint64_t> response_cycles{this, "response_cycles", 30,
                                "directory cycles before each probe leaves (gem5 configs/ruby/GPU_VIPER.py "
                                "response_latency, src/mem/ruby/protocol/MOESI_AMD_Base-dir.sm)",
                                Min{0}};
  Time hop_latency{this, "hop_latency", "0.5 ns",
                   "one router or link (gem5 src/mem/ruby/network/simple/: 1 cycle at 2 GHz)"};
  Int<uint64_t> hops{this, "hops", 4,
                     "routers + links one way (gem5 configs/ruby/GPU_VIPER.py: main router + sub-router, 2 links)",
                     Min{0}};
  Time cpu_ack{this, "cpu_ack", "0.5 ns",
               "CPU core pair's ack delay after its walk (gem5 src/mem/ruby/protocol/MOESI_AMD_Base-CorePair.sm "
               "issue_latency)"};
  Time gpu_ack{this, "gpu_ack", "1.5 ns",
               "TCC's ack delay after its walk, 1 GPU cycle + clock-edge alignment (gem5 "
               "src/mem/ruby/protocol/GPU_VIPER-TCC.sm)"};
};

// The parameters of the directory (YAML type `coherence_directory`), its invalidation engine's
// included (EngineParams is built from them).
struct DirectoryConfig : ParamSet {
  Enum<InvalidationMode> mode{
      this, "mode", InvalidationMode::range,
      "per_line: one probe per line per target (the thesis' default); range: one probe per range"};
  Enum<Implementation> engine{this, "engine", Implementation::tlm, "invalidation engine implementation"};
  Enum<LockstepTiming> lockstep_timing{
      this, "lockstep_timing", LockstepTiming::error,
      "lockstep engine: a history whose RTL cycle count differs from the TLM's cycle model stops the run "
      "(error) or is reported as a warning (warning); ignored by the tlm and rtl engines"};
  Int<unsigned> line{this, "line", 64, "line size of histories and probes (bytes)", Range{16, 4096}};
  Int<unsigned> max_range{this, "max_range", 256, "range mode: max lines per probe", Range{1, 1 << 24}};
  Int<unsigned> open_runs{this, "open_runs", 4, "invalidation engine run slots", Range{1, 64}};
  Freq engine_clock{this, "engine_clock", "1 GHz", "invalidation engine clock"};
  Freq clock{this, "clock", "2 GHz", "directory clock (gem5 APU: ruby clock 500 ticks = 2 GHz)"};
  Int<uint64_t> issue_cycles{this, "issue_cycles", 30,
                             "directory cycles between two probes it issues (gem5 directory response 30)", Min{0}};
  Enum<ProbeTiming> probe_timing{
      this, "probe_timing", ProbeTiming::pipelined,
      "pipelined: probes issued issue_cycles apart, receivers walk concurrently (hetvp's model); serial_ack: "
      "gem5 APU chain, the directory waits for each ack: response + hops + receiver ack + walk + hops, then "
      "completion (its keys: serial_ack); per_side: each target side's own chain (to_cpu / to_gpu: its latencies "
      "and whether the directory waits for each ack), then completion"};
  // per_side: the defaults are gem5 GPU_VIPER's (configs/coherence.yaml cites them line by line);
  // to_gpu's occupancy is an assumption derived from the thesis' Table 4.6 (docs/coherence.md).
  Group<ProbeChainConfig> to_cpu{
      this, "to_cpu", "per_side: probes to the CPU caches (gem5 CorePair: ack after cpu-to-dir-latency 120 cycles)"};
  Group<ProbeChainConfig> to_gpu{this, "to_gpu", "per_side: probes to the GPU caches (gem5 TCC: ack after 1 GPU cycle)",
                                 [](ProbeChainConfig& c) {
                                   c.wait.set_default(ProbeWait::receiver);
                                   c.ack.set_default("1 ns");
                                   c.occupancy.set_default("2.5 ns");
                                 }};
  Group<SerialAckConfig> serial_ack{
      this, "serial_ack",
      "serial_ack: the chain's latencies (one chain for probes to either side; the directory waits for each ack)"};
  // serial_ack's keys were flat directory keys until issue #38: giving one names its new place.
#define SERIAL_ACK_GROUP " (probe_timing: serial_ack's keys are one group, as per_side's are to_cpu / to_gpu)"
  Moved response_cycles{this, "response_cycles", "it is serial_ack.response_cycles now" SERIAL_ACK_GROUP};
  Moved hop_latency{this, "hop_latency", "it is serial_ack.hop_latency now" SERIAL_ACK_GROUP};
  Moved hops{this, "hops", "it is serial_ack.hops now" SERIAL_ACK_GROUP};
  Moved cpu_ack{this, "cpu_ack", "it is serial_ack.cpu_ack now" SERIAL_ACK_GROUP};
  Moved gpu_ack{this, "gpu_ack", "it is serial_ack.gpu_ack now" SERIAL_ACK_GROUP};
#undef SERIAL_ACK_GROUP
  Time completion{
      this, "completion", "0.5 ns",
      "serial_ack / per_side: completion posted after the last ack (gem5 src/mem/ruby/protocol/MOESI_AMD_Base-dir.sm, "
      "1 cycle); per_side with wait: ack pays it after every probe"};
  Time cpu_hop{this, "cpu_hop", "60 ns",
               "one-way latency directory <-> CPU cache controller (gem5: 120 cycles at 2 GHz)"};
  Int<int64_t> test_skip_probe{this, "test_skip_probe", -1,
                               "TEST ONLY: drop probe number N (0-based over the run) — breaks coherence", Min{-1}};
  Int<int64_t> test_fault_index{this, "test_fault_index", -1,
                                "TEST ONLY: perturb engine output number N (see EngineParams)", Min{-1}};
  Str vcd{this, "vcd", "", "rtl/lockstep engine: VCD file name without .vcd (SystemC appends it; empty = none)"};

  // The engine's parameters checked as its constructor will (line size a power of two, ...), at
  // the `engine` key.
  void validate(Diagnostics& d) const override;
};

class Directory : public PeripheralOf<Component> {
 public:
  tlm_utils::simple_initiator_socket<Directory> cpu_cc{"cpu_cc"};
  tlm_utils::simple_initiator_socket<Directory> host{"host"};

  using Config = DirectoryConfig;
  Directory(sc_core::sc_module_name name, const DirectoryConfig& c);

  struct Sync {
    unsigned target = 0;  // 1 = GPU caches invalidated (CPU history), 2 = CPU caches
    uint64_t history = 0, probes = 0, invalidated = 0, tags = 0, ticks = 0, digest = 0;
  };
  const std::vector<Sync>& syncs() const { return syncs_; }

 private:
  void declare_stats();  // this component's statistics, declared once (platform/stats.h)
  void bind_registers();  // behaviour bound to the names of coherence_regs.h's table
  bool hist_data(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);  // the history window
  void bad_access(const tlm::tlm_generic_payload& gp) override;           // ends the run
  uint32_t lock_owner() const { return lock_owner_; }
  void lock_written(uint32_t v);
  void invalidate_written(uint32_t v);
  uint32_t inval_status() const;
  void history_written(uint32_t v);
  uint32_t hist_status() const;
  void hist_end(uint32_t v);
  void cpu_track(uint32_t v);
  void gpu_track(uint32_t v);
  uint32_t stat_syncs() const { return uint32_t(syncs_.size()); }
  void fail(const std::string& reg, uint64_t off, const std::string& why);
  // An access to a cache controller's register block: side 1 = CPU, 2 = GPU.
  bool cc_access(unsigned side, tlm::tlm_command cmd, uint32_t off, void* data, unsigned len, sc_core::sc_time& delay);
  void history_request(unsigned side, sc_core::sc_time& delay);
  void invalidate(unsigned source, sc_core::sc_time& delay);
  bool invalidate_serial_ack(unsigned target, const std::vector<LineRange>& ranges, sc_core::sc_time& d, Sync& s);
  bool invalidate_per_side(unsigned target, const std::vector<LineRange>& ranges, sc_core::sc_time& d, Sync& s);
  // A 24-byte probe to `target` arriving after `arrive`; the walk time its controller reports.
  bool send_timed_probe(unsigned target, const LineRange& r, sc_core::sc_time arrive, sc_core::sc_time& walk);
  // A probe to `target` as an instant on the probes track (the caller asks probes_track_ first).
  void trace_probe(unsigned target, const LineRange& r, const sc_core::sc_time& at);
  // The engine runs in the directory's own thread (an RTL engine's signals have one writer).
  void engine_thread();
  std::vector<LineRange> run_engine(const std::vector<uint64_t>& lines, sc_core::sc_time& delay);
  sc_core::sc_event engine_req_, engine_done_;
  const std::vector<uint64_t>* engine_in_ = nullptr;
  std::vector<LineRange> engine_out_;
  sc_core::sc_time engine_delay_;
  std::string engine_error_;
  bool engine_busy_ = false;

  InvalidationMode mode_;
  std::unique_ptr<InvalidationEngine> engine_;
  sc_core::sc_time issue_, cpu_hop_;
  ProbeTiming probe_timing_;  // per_side: each target side's chain_; serial_ack: response_, net_, ack_
  sc_core::sc_time response_, net_, ack_[3], completion_;
  ProbeChain chain_[3];  // per_side: index 1 = towards the CPU caches, 2 = towards the GPU caches
  long long skip_probe_;
  uint64_t probe_counter_ = 0;
  unsigned lock_owner_ = 0;  // 0 free, 1 CPU, 2 GPU
  // history being received / received, per side (index 1 CPU, 2 GPU)
  unsigned receiving_ = 0;
  std::vector<uint64_t> hist_[3];
  bool hist_ready_[3] = {false, false, false};
  sc_core::sc_time hist_done_at_, inval_done_at_;
  bool inval_requested_ = false, hist_requested_ = false;
  std::vector<Sync> syncs_;
  uint64_t errors_ = 0;
  // Its tracks on the timeline: invalidations, histories, probes, the invalidation engine.
  TraceTrack track_{name()}, history_track_{std::string(name()) + ".history"},
      probes_track_{std::string(name()) + ".probes"}, engine_track_{std::string(name()) + ".engine"};
};

}  // namespace hetvp::coherence
