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
//   target side's gem5 chain, probe_chain.h: `to_cpu`, `to_gpu`), `serial_ack` (one chain for
//   both), or `pipelined`: probes are issued `issue_cycles` apart (posted), the target
//   controller walks its tags; the directory then reads PROBE_DONE (returns when the walks are
//   done). Invalidation time = from the INVALIDATE write's arrival to PROBE_DONE's return, in
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
#include "platform/peripheral.h"

namespace hetvp::coherence {

class Directory : public PeripheralOf<Component> {
 public:
  tlm_utils::simple_initiator_socket<Directory> cpu_cc{"cpu_cc"};
  tlm_utils::simple_initiator_socket<Directory> host{"host"};

  Directory(sc_core::sc_module_name name, const Params& p);
  static std::shared_ptr<Schema> schema();

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
  // The engine runs in the directory's own thread (an RTL engine's signals have one writer).
  void engine_thread();
  std::vector<LineRange> run_engine(const std::vector<uint64_t>& lines, sc_core::sc_time& delay);
  sc_core::sc_event engine_req_, engine_done_;
  const std::vector<uint64_t>* engine_in_ = nullptr;
  std::vector<LineRange> engine_out_;
  sc_core::sc_time engine_delay_;
  std::string engine_error_;
  bool engine_busy_ = false;

  std::string mode_;
  std::unique_ptr<InvalidationEngine> engine_;
  sc_core::sc_time issue_, cpu_hop_;
  // probe_timing: pipelined (neither), serial_ack, or per_side (each target side's chain_)
  bool serial_ack_ = false, per_side_ = false;
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
};

}  // namespace hetvp::coherence
