// A processor side's cache controller (YAML type `cache_controller`; the GPU's is built inside
// the GPU compute block). It sits in front of the side's cache hierarchy:
//
//   cpu ──mem──> cc.in ──cc.out──> l1 ──> l2 ──> host_bus        cc.level0 ──> l1.ctl
//                                                                cc.level1 ──> l2.ctl
//   cc.regs <── directory (probes, history ack/confirm, tracking)  cc.dir ──> directory window
//
// * Tracking (register TRACK = 1): every cached store passing `in` records its 64 B line
//   numbers (physical; the GPU's controller translates through its UVA window), each line once.
// * History order (`history_order`): `store_order` (default) sends lines in the order they were
//   first written (a FIFO, as the thesis' controller stores each written line's address);
//   `address_order` in ascending line order, as a written-line bitmap over the shared window
//   scanned at release would.
// * History: when the directory acks a HISTORY request (HIST_REQ = 1) the controller first
//   writes back every dirty line of its caches (release = flush: eager RC, the data must be home
//   before the other side is told), then sends the history in chunks of `chunk_lines` line
//   numbers to the directory's HIST_DATA window, then HIST_END = total. It clears the history
//   when the directory confirms (HIST_CONFIRM = 1). Asking for the history while tracking is
//   still on fails the run (clear error naming the register).
// * Probes (a 16 B write to PROBE: first line, count): every line of the range is checked
//   against the tags of every cache (one tag access per line per cache), present lines are
//   invalidated. Caches of one `stage` are walked in parallel, stages one after the other (L1
//   then L2; the GPU's TCPs are one stage with `probe_walk: parallel`, one stage each with
//   `serial`). Probes are accepted at once (posted) and processed in order;
//   PROBE_DONE (a 32 B read) returns when all received probes are processed, with the counts.
// * Checker (`checker: true`): stores feed the shadow memory, loads are checked against it.
//
// Ports: target `in`, initiator `out` (data path, in[i] -> out[i]); initiators `level0`..;
// target `regs`; initiator `dir`; optional target `snoop_in` / initiator `snoop_out` (I/O snoop).
#pragma once

#include <memory>
#include <unordered_set>
#include <vector>

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "platform/access_info.h"
#include "platform/component.h"
#include "platform/param_set.h"
#include "platform/peripheral.h"
#include "firmware/include/hetvp/coherence.h"
#include "models/coherence/checker.h"

namespace hetvp::coherence {

HETVP_ENUM(ControllerSide, host, gpu);
HETVP_ENUM(HistoryOrder, store_order, address_order);

// The parameters of a cache controller (YAML type `cache_controller`, and the compute block's
// `controller` group).
struct CacheControllerConfig : ParamSet {
  Int<unsigned> levels{this, "levels", 2, "cache levels controlled (ports level0..levelN-1, one stage each)",
                       Range{0, 16}};
  Enum<ControllerSide> side{this, "side", ControllerSide::host, "which processor this controller serves"};
  Int<unsigned> line{this, "line", 64, "line size of the write history and probes (bytes)", Range{16, 4096}};
  Int<unsigned> chunk_lines{this, "chunk_lines", 16, "line numbers per history chunk sent to the directory (8 B each)",
                            Range{1, 256}};
  Int<uint64_t> dir_base{this, "dir_base", DIR_BASE, "address of the directory window on `dir` (CPU: physical)",
                         Min{0}};
  Enum<HistoryOrder> history_order{
      this, "history_order", HistoryOrder::store_order,
      "order the history is sent in: store_order = a FIFO of first writes (the thesis' controller "
      "keeps each written line's address as it is written); address_order = ascending line "
      "addresses (a written-line bitmap over the shared window, scanned at release)"};
  Bool checker{this, "checker", false, "feed/check the coherence checker's shadow memory (tests; any run)"};
};

class CacheController : public PeripheralOf<Component> {
 public:
  tlm_utils::multi_passthrough_target_socket<CacheController> in{"in"};
  tlm_utils::multi_passthrough_initiator_socket<CacheController> out{"out"};
  tlm_utils::simple_initiator_socket<CacheController> dir{"dir"};
  // Optional I/O snoop: put it between the root complex and the host bus (rc.host -> snoop_in,
  // snoop_out -> host_bus) and device DMA stays coherent with this side's caches (lines a DMA
  // touches are written back if dirty and invalidated first). Leave it out to model a
  // non-coherent GPU (configs/coherence.yaml: the directory's invalidations do that job).
  tlm_utils::multi_passthrough_target_socket<CacheController, 32, tlm::tlm_base_protocol_types, 1,
                                             sc_core::SC_ZERO_OR_MORE_BOUND>
      snoop_in{"snoop_in"};
  tlm_utils::multi_passthrough_initiator_socket<CacheController, 32, tlm::tlm_base_protocol_types, 1,
                                                sc_core::SC_ZERO_OR_MORE_BOUND>
      snoop_out{"snoop_out"};
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<CacheController>>> level;

  using Config = CacheControllerConfig;
  // YAML: levels N, each its own stage (level0 = stage 0, ...).
  CacheController(sc_core::sc_module_name name, const CacheControllerConfig& c);
  // Inside a composite: `stages[i]` = stage of level i.
  CacheController(sc_core::sc_module_name name, const CacheControllerConfig& c, std::vector<unsigned> stages,
                  Side side);

  bool tracking() const { return tracking_; }
  size_t history_size() const { return history_.size(); }

 private:
  void declare_stats();  // this component's statistics, declared once (platform/stats.h)
  // `checker: true` turns on the run's checker before any controller stores (models/coherence/checker.h).
  void end_of_elaboration() override {
    if (checker_on_) checker().enable();
  }
  coherence::Checker& checker() {
    if (!checker_) checker_ = &run_context().service<coherence::Checker>();
    return *checker_;
  }
  void init(const CacheControllerConfig& c);
  void b_data(int id, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned dbg_data(int id, tlm::tlm_generic_payload& gp);
  bool dmi_data(int, tlm::tlm_generic_payload& gp, tlm::tlm_dmi&) {
    gp.set_dmi_allowed(false);
    return false;
  }
  bool probe_port(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);       // PROBE: 16/24-byte writes
  bool probe_done_port(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);  // PROBE_DONE: 32-byte reads
  void track_written(uint32_t v);
  void hist_req(uint32_t v);
  void hist_confirm(uint32_t v);
  uint32_t hist_count() const { return static_cast<uint32_t>(history_.size()); }
  void b_snoop(int, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned dbg_snoop(int, tlm::tlm_generic_payload& gp) { return snoop_out->transport_dbg(gp); }
  void snoop_inval_dmi(int, sc_dt::uint64, sc_dt::uint64) {}
  void inval_dmi(int, sc_dt::uint64, sc_dt::uint64) {}

  bool to_pa(uint64_t addr, uint64_t& pa) const;  // false: not shared memory
  uint64_t key_of(uint64_t addr) const;           // checker key
  void probe(uint64_t first_pa_line, uint64_t count, sc_core::sc_time& delay);
  void send_history(sc_core::sc_time& delay);
  bool dir_write(uint64_t offset, const void* data, unsigned len, sc_core::sc_time& delay);
  void fail(const std::string& why);
  uint64_t reg64(uint32_t lo) const { return (uint64_t(bank_.at(lo + 4).value) << 32) | bank_.at(lo).value; }

  std::vector<unsigned> stages_;
  unsigned num_stages_ = 1;
  Side side_ = Side::Host;
  unsigned line_ = 64, chunk_lines_ = 16;
  bool address_order_ = true;
  bool window_ = false;  // translate through the UVA window (GPU)
  bool tracking_ = false;
  bool checker_on_ = false;
  coherence::Checker* checker_ = nullptr;  // the run's, on first use
  std::vector<uint64_t> history_;
  std::unordered_set<uint64_t> recorded_;
  sc_core::sc_time busy_until_;
  // probe accumulators since the last PROBE_DONE
  uint64_t acc_invalidated_ = 0, acc_tags_ = 0, acc_digest_ = 0, acc_probes_ = 0;
  AccessInfo* dir_info_ = new AccessInfo;
  tlm::tlm_generic_payload dir_gp_;
  uint64_t tracked_stores_ = 0, history_sent_ = 0, histories_ = 0, probes_ = 0, tag_accesses_ = 0, invalidated_ = 0,
           release_writebacks_ = 0, snoops_ = 0, snoop_invalidated_ = 0;
};

}  // namespace hetvp::coherence
