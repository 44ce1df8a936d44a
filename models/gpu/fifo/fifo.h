// The FIFO engine (GPU block `fifo`, Fermi's PFIFO): channels, their GPFIFO rings and push
// buffers, method routing to the engines, semaphores and the runlist that time-slices the GR
// engine between channels. Registers and formats: firmware/include/hetvp/fifo.h; docs/contexts.md.
//
//   host ──BAR0 GP_PUT (doorbell)──> FIFO ──mem (GPU VA, tagged with the channel)──> MMU ──> VRAM / PCIe
//                                     ├──inst (VRAM physical)──> instance blocks (RAMFC +0x48/+0x4c)
//                                     ├──bar0──> compute front end (methods → registers, LAUNCH, STATUS)
//                                     │        └> copy engine 0 (COPY_CHAN, SRC/DST/LENGTH, LAUNCH, STATUS)
//                                     └──chsw (ChswPort, gr/chsw_if.h)──> GR context-switch unit
//
// One scheduler thread. It picks the next channel with work round-robin (a channel blocked on a
// semaphore acquire is re-checked, and yields again if still blocked) and runs it for at most
// `timeslice`: it fetches GP entries and push-buffer words through the MMU in the channel's
// address space (`fetch_chunk` bytes per read: the cost is what the memory path returns, PCIe
// when the buffer is in host memory), decodes methods (`method_cost` each) and executes them.
// Engine work is synchronous: a LAUNCH or a copy is waited for (its STATUS sampled every
// `engine_poll`) before the next method, so GR is idle whenever the FIFO leaves a channel.
//
// GR ownership: the first GR method of a channel (SET_OBJECT of the compute class, a compute
// register method, LAUNCH) when GR holds another channel requests a switch (ChswIf::
// request_switch) and waits for switch_acked(); `chsw_timeout` without it is an error naming the
// pending switch. Without a context-switch unit (no block exports one), one channel may own GR;
// another channel's GR method is refused ("no context-switch unit: ...") unless the owner was
// disabled first (its state is then not needed by anyone).
//
// SET_OBJECT of the compute class writes the channel's instance word into CMP_CHAN (the compute
// front end's address-space selection, GR context state): from then on only a context switch
// moves it. A channel cannot write CMP_CHAN itself (method refused).
//
// Errors (unbound subchannel, unknown method or class, fetch fault, engine error, deadlock, CHSW
// timeout) latch ERROR/ERROR_CHAN/ERROR_METHOD/ERROR_ADDR, raise PMC_INTR bit GPU_INTR_FIFO and
// fail the run with the channel, the method and its push-buffer address.
//
// The class is one module in three files: fifo.cpp (registers, bus accesses, errors, the runlist,
// statistics), pushbuf.cpp (GP entry and push-buffer fetch, method decoding, the FIFO class's own
// methods: objects and semaphores) and engines.cpp (GR ownership and the context switch, the
// compute and copy classes' methods).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include "firmware/include/hetvp/fifo.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "platform/channel_tag.h"
#include "models/gpu/gpu_block.h"
#include "models/gpu/gr/chsw_if.h"
#include "platform/irq.h"
#include "platform/param_set.h"
#include "platform/peripheral.h"
#include "platform/run_context.h"
#include "platform/stats.h"
#include "platform/trace_track.h"

namespace hetvp::gpu {

// The FIFO block's parameters (gpu.fifo).
struct FifoConfig : ParamSet {
  Int<unsigned> channels{this, "channels", 32, "channels (GF100 has 128; nouveau gf100.c); default 32",
                         Range{1, FIFO_MAX_CHANNELS}};
  Time timeslice{this, "timeslice", "100 us",
                 "longest time a channel runs while another has work (assumption: the order of nouveau gk104's "
                 "default timeslice; GF100's is not documented)"};
  Time chsw_timeout{this, "chsw_timeout", "10 ms",
                    "a requested GR context switch not acknowledged within this is an error (assumption: generous "
                    "against the microseconds a switch takes)"};
  Time method_cost{this, "method_cost", "2 ns", "decode time of one push-buffer word (assumption: 1 cycle at 500 MHz)"};
  Size fetch_chunk{this, "fetch_chunk", "256", "push-buffer bytes fetched by one read (assumption)", Range{8, 4096}};
  Time engine_poll{this, "engine_poll", "100 ns",
                   "how often the FIFO samples an engine's STATUS while it waits for a launch or a copy (assumption)"};
  Time acquire_poll{this, "acquire_poll", "1 us",
                    "how often a channel blocked on a semaphore acquire re-reads the semaphore when no channel can run "
                    "(assumption)"};
  Time deadlock_timeout{this, "deadlock_timeout", "10 ms",
                        "every channel with work blocked on an acquire for this long: a deadlock error (assumption)"};
  Int<unsigned> copy_engine{this, "copy_engine", 0, "copy engine the copy class's LAUNCH_DMA uses",
                            Range{0, GPU_MAX_COPY_ENGINES - 1}};
  Int<uint32_t> bar0{this, "bar0", GPU_FIFO_BASE, "BAR0 offset of the FIFO's registers (PTOP_FIFO_BASE)",
                     Range{GPU_WINDOW_PMC, 0xffffffffll}};
};

// One channel's state: its ring, the push-buffer segment being decoded, its objects and semaphore.
struct FifoChannel {
  unsigned id = 0;
  bool enabled = false, failed = false, blocked = false, need_ramfc = false;
  uint64_t inst = 0;
  uint64_t gp_base = 0;
  uint32_t gp_entries = 0, gp_get = 0, gp_put = 0;
  // GP_PUT writes not yet arrived (the host runs ahead of SystemC time by up to a quantum): the
  // FIFO sees a doorbell at its arrival time, whatever the quantum.
  std::vector<std::pair<sc_core::sc_time, uint32_t>> put_pending;
  // Current push-buffer segment: words still to fetch, and the fetched words not yet decoded.
  uint64_t seg_va = 0;
  uint32_t seg_words = 0;
  std::vector<uint32_t> buf;
  uint64_t buf_va = 0;
  size_t buf_pos = 0;
  // Method decoding: the current header.
  uint32_t mthd = 0, subch = 0, count = 0, op = 0;
  uint64_t hdr_va = 0;
  uint32_t cls[FIFO_SUBCHANNELS] = {};
  // Semaphore state and a blocked acquire.
  uint64_t sem_addr = 0;
  uint32_t sem_payload = 0, acq_op = 0;
  uint64_t acq_hdr_va = 0;
  sc_core::sc_time blocked_since;
  // Copy class state.
  uint64_t copy_src = 0, copy_dst = 0;
  // The compute methods' module binding (CMP_MODULE_LO/HI, CMP_SHARED: no GR context state): kept per
  // channel and written to the compute front end right before the channel's LAUNCH.
  uint32_t module_lo = 0, module_hi = 0, shared = 0;
  uint32_t copy_len = 0;

  bool has_words() const { return buf_pos < buf.size() || seg_words > 0 || gp_get != gp_put; }
  bool has_work() const { return enabled && !failed && (has_words() || blocked); }
};

class Fifo : public GpuBlock, public HasStats, public Peripheral, public RunMember {
 public:
  tlm_utils::simple_initiator_socket<Fifo> mem{"mem"};    // GPU VA, through the MMU (tagged)
  tlm_utils::simple_initiator_socket<Fifo> inst{"inst"};  // VRAM physical: instance blocks
  tlm_utils::simple_initiator_socket<Fifo> bar0{"bar0"};  // the engines' registers
  ChswPort chsw{"chsw"};
  IrqPort intr{"intr"};

  Fifo(sc_core::sc_module_name n, GpuContext& ctx, const FifoConfig& p);
  void bind(GpuContext& ctx) override;
  StatGroup& stat_group() override { return stats_; }
  void dump_stats(JsonWriter& w) const override { stats_.dump(w); }

 private:
  using Channel = FifoChannel;

  // ---- registers (host side; fifo.cpp) ----
  void ctrl_written(unsigned i, uint32_t v);
  void gp_put_written(unsigned i, uint32_t v);
  uint32_t chan_status(unsigned i) const;

  // ---- time: the thread runs ahead of SystemC time by its local offset ----
  sc_core::sc_time local() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (cursor_ < now) cursor_ = now;
    return cursor_ - now;
  }
  void sync_all() {
    const sc_core::sc_time d = local();
    if (d > sc_core::SC_ZERO_TIME) sc_core::wait(d);
  }
  void sync_quantum() {
    const sc_core::sc_time d = local();
    if (d >= tlm::tlm_global_quantum::instance().get()) sc_core::wait(d);
  }
  sc_core::sc_time now() { return sc_core::sc_time_stamp() + local(); }

  // ---- bus accesses, at the local time cursor_ (fifo.cpp) ----
  bool access(tlm_utils::simple_initiator_socket<Fifo>& s, tlm::tlm_generic_payload& gp, tlm::tlm_command cmd,
              uint64_t addr, void* data, unsigned len);
  bool mem_access(Channel& c, tlm::tlm_command cmd, uint64_t va, void* data, unsigned len);
  bool reg_write(uint32_t off, uint32_t v) { return access(bar0, bar0_gp_, tlm::TLM_WRITE_COMMAND, off, &v, 4); }
  bool reg_read(uint32_t off, uint32_t& v) { return access(bar0, bar0_gp_, tlm::TLM_READ_COMMAND, off, &v, 4); }
  uint32_t ptop(uint32_t reg);

  // ---- errors (fifo.cpp) ----
  void fail(Channel& c, uint32_t code, uint64_t addr, const std::string& why);
  std::string method_text(const Channel& c, uint32_t m) const;
  static const char* class_name(uint32_t c) {
    return c == FIFO_CLASS_COMPUTE ? "compute" : c == FIFO_CLASS_COPY ? "copy" : "none";
  }

  // ---- fetch and decode (pushbuf.cpp) ----
  bool read_ramfc(Channel& c);
  uint64_t vram_limit() const { return ~0ull; }  // VRAM reads outside VRAM fail on the bus
  bool next_word(Channel& c, uint32_t& w, uint64_t& va);
  void step(Channel& c);
  void unknown(Channel& c, uint32_t m, uint32_t data);
  void execute(Channel& c, uint32_t m, uint32_t data);
  void fifo_method(Channel& c, uint32_t m, uint32_t data);
  bool acquire_satisfied(Channel& c);

  // ---- the engines (engines.cpp) ----
  bool ensure_gr(Channel& c);
  bool compute_write(Channel& c, uint32_t r, uint32_t v);
  void compute_method(Channel& c, uint32_t m, uint32_t data);
  bool wait_idle(uint32_t status_reg, uint32_t busy, uint32_t& st);
  void copy_method(Channel& c, uint32_t m, uint32_t data);

  // ---- the runlist (fifo.cpp) ----
  void arrive_puts();
  int pick();
  void run();
  void report_deadlock();
  void run_channel(Channel& c);
  bool others_have_work(const Channel& me);

  // ---- tracing: one track per channel, "gpu0.fifo.ch3" (fifo.cpp), and the GR owner's, "gpu0.fifo.gr" ----
  TraceTrack& track(const Channel& c) { return tracks_[c.id]; }
  std::vector<TraceTrack> tracks_;
  TraceTrack gr_track_{std::string(name()) + ".gr"};
  void inner_span(const char* what, const sc_core::sc_time& start, const std::string& args);
  void inner_span(std::string what, const sc_core::sc_time& start, const std::string& args);

  void declare_stats();

  unsigned nchan_, num_gpcs_, copy_engine_, fetch_chunk_;
  sc_core::sc_time timeslice_, chsw_timeout_, method_cost_, engine_poll_, acquire_poll_, deadlock_timeout_;
  std::vector<Channel> chans_;
  bool has_chsw_ = false;
  bool gr_valid_ = false;
  unsigned gr_chid_ = 0;
  uint64_t gr_inst_ = 0;
  unsigned last_ = FIFO_MAX_CHANNELS - 1, last_ran_ = ~0u;
  uint32_t cur_method_ = 0;  // the method being executed (ERROR_METHOD)
  uint32_t compute_base_ = 0, gpc_base_ = 0, copy_base_ = 0;
  sc_core::sc_time cursor_;
  sc_core::sc_event doorbell_;
  tlm::tlm_generic_payload mem_gp_, inst_gp_, bar0_gp_;
  ChannelTag* tag_ = new ChannelTag;  // owned by mem_gp_
  uint64_t methods_ = 0, gp_entries_ = 0, fetches_ = 0, fetch_bytes_ = 0, timeslices_ = 0, channel_changes_ = 0,
           switches_ = 0, switches_between_open_ = 0, launches_ = 0, copies_ = 0, acquires_ = 0, sem_waits_ = 0, releases_ = 0, errors_ = 0;
  sc_core::sc_time switch_wait_, switch_max_;
  struct InnerSpan {
    std::string what;
    sc_core::sc_time start, duration;
    std::string args;
  };
  bool tracing_ = false;          // the current timeslice is traced
  bool tracing_gr_ = false;       // and its GR switches on the GR owner's track
  std::vector<InnerSpan> inner_;  // its launches, copies and switches, written when it ends
  StatGroup stats_;
};

}  // namespace hetvp::gpu
