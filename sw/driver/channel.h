// hetvp — GPU channels as the driver runs them on the FIFO engine (firmware/include/hetvp/fifo.h,
// docs/contexts.md). A channel has its own GPU address space (page directory), instance block,
// GPFIFO ring and push buffer (pinned host memory or VRAM, mapped in its space), a GR context
// buffer (gr_context_create: a copy of the golden context), a fence semaphore and a GPC constant
// buffer. Work is pushed as methods (copies, kernel launches: launch.h) and kicked by writing
// GP_PUT; synchronize pushes a semaphore release and polls its value in host memory. Several
// channels at once: the FIFO time-slices them and switches GR between them.
//
// The one channel API of the driver: the Gdev-style runtime (sw/gdev/runtime.h) is a CUDA-shaped
// layer over it; a runtime without channels launches through launch.h's ComputeFrontEnd.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "models/host/host_api.h"
#include "platform/param_set.h"
#include "sw/driver/gpu_driver.h"
#include "sw/driver/launch.h"

namespace hetvp::sw {

class McuDriver;

// Where a channel's GPFIFO ring and push buffer live (ChannelOptions::pushbuf_in).
HETVP_ENUM(PushbufIn, host, vram);

// The channels' options (the Gdev runtime's workload args group `gdev`).
struct ChannelOptions : ParamSet {
  Time api_call{this, "api_call", "5 us", "host software cost of one runtime API call (as the driver's api_call)"};
  Time poll{this, "poll", "1 us", "polling period of a synchronize fence"};
  Time sync_timeout{this, "sync_timeout", "1 s", "a synchronize not complete after this long fails the run"};
  Int<uint32_t> gpfifo_entries{this, "gpfifo_entries", 256, "GP entries of each channel's GPFIFO ring (a power of two)",
                               Range{2, 65536}};
  Size pushbuf{this, "pushbuf", "64 KiB", "push-buffer bytes of each context", Range{4096, 64ll << 20}};
  // Only on a GPU without the context-switch firmware: else the golden image says how large.
  Size gr_context_bytes{this, "gr_context_bytes", "64 KiB", "VRAM reserved for each channel's GR context buffer",
                        Range{4096, 64ll << 20}};
  Enum<PushbufIn> pushbuf_in{this, "pushbuf_in", PushbufIn::host,
                             "where the GPFIFO ring and push buffer live: pinned host memory (the FIFO fetches across "
                             "PCIe) or VRAM (the host writes them through BAR1)"};
  // Per-channel GR register overrides (BAR0 address, value) the context-switch firmware applies at a
  // channel's first load: nouveau's per-channel mmio list (hub.fuc ctx_mmio_exec; gf100_gr_chan_bind
  // writes its count / address into the context header). hetvp's firmware has none: refused there.
  // Free-form YAML: gr_mmio_pairs() reads and checks it.
  Any gr_mmio{this, "gr_mmio",
              "per-channel GR register overrides, a list of [BAR0 address, value] pairs, that the context-switch "
              "firmware writes at each channel's first load (nouveau's per-channel mmio list, docs/contexts.md; "
              "hetvp's firmware has none: refused)"};
  // TEST ONLY fault: the second and later channels' instance blocks name a context buffer at a GPU
  // virtual address no space maps (the firmware cannot reach it: a named error, docs/contexts.md).
  Bool test_unmapped_context{this, "test_unmapped_context", false,
                             "TEST ONLY fault: every context after the first points its instance block (+0x210) at a "
                             "GPU virtual address no space maps, so the first switch to it fails with a named error"};

  // gpfifo_entries a power of two, gr_mmio a list of aligned [address, value] pairs that fits one page.
  void validate(Diagnostics& d) const override;
  uint64_t pushbuf_bytes() const { return pushbuf & ~uint64_t(4095); }
  bool pushbuf_in_vram() const { return pushbuf_in == PushbufIn::vram; }
  // gr_mmio's pairs (none when not given); each rule validate() checks is reported into `d`.
  std::vector<std::pair<uint32_t, uint32_t>> gr_mmio_pairs(Diagnostics& d) const;
};

class Fifo;

// One channel (Fifo::open). Pushing does not kick: a caller kicks when its work is complete.
class Channel {
 public:
  // Subchannels the channel binds at open: compute (launches) and copy.
  static constexpr unsigned kSubCompute = 0, kSubCopy = 1;

  unsigned chid() const { return chid_; }
  unsigned space() const { return space_; }  // its GPU address space (GpuDriver)
  uint64_t inst() const { return inst_; }    // VRAM address of its instance block
  // Method words into the push buffer (when it or the GP ring is full: kick and synchronize first).
  void push(const std::vector<uint32_t>& words);
  // One GP entry for `words` words at `va` (any VA), and the doorbell.
  void push_segment(uint64_t va, uint32_t words);
  // The words pushed since the last kick, as one GP entry.
  void kick();
  // Costs one API call, releases the fence semaphore after everything pushed and waits for it;
  // a fence not written within sync_timeout is a HostError naming the FIFO's error.
  void synchronize();
  // A copy-engine copy between two GPU VAs of the channel's space (in pieces of 2 GiB).
  void copy(uint64_t src_va, uint64_t dst_va, uint64_t bytes);
  // Host memory to free when the channel closes (after its own).
  void adopt_pinned(uint64_t phys) { pinned_.push_back(phys); }

 private:
  friend class Fifo;
  Channel(HostApi& api, GpuDriver& gpu, const ChannelOptions& opt) : api_(api), gpu_(gpu), opt_(opt) {}
  HostApi& api_;
  GpuDriver& gpu_;
  const ChannelOptions& opt_;  // the Fifo's
  uint32_t fifo_base_ = 0;
  unsigned chid_ = 0, space_ = 0;
  uint64_t inst_ = 0, ctx_buf_ = 0;
  // GPFIFO ring and push buffer: GPU VAs and how the host writes them.
  GpuBuffer gpfifo_, pushbuf_;
  uint64_t gpfifo_host_ = 0, pushbuf_host_ = 0;  // host physical (pinned) or 0 (VRAM)
  uint32_t gp_put_ = 0, gp_since_sync_ = 0;
  uint64_t pb_pos_ = 0, seg_start_ = 0;
  // Fence semaphore (pinned host memory, 16 bytes: payload, 0, timestamp).
  uint64_t fence_host_ = 0;
  GpuBuffer fence_;
  uint32_t seq_ = 0;
  GpuBuffer cb_;                  // the GPCs' constant buffer (module constants)
  std::vector<uint64_t> pinned_;  // host memory to free at close
  // Its VRAM (instance block, context buffer, constant buffer, ...), released after it closes.
  std::vector<GpuBuffer> vram_;
  std::vector<uint64_t> vram_phys_;
  uint64_t opened_ = 0;  // Fifo's open count when it opened
};

// The FIFO engine's channels of one GPU: channel ids, the golden GR context every channel's
// context buffer is a copy of (made when the first channel opens, by whichever firmware the HUB
// runs), opening and closing.
class Fifo {
 public:
  // `mcu`: the HUB/GPC driver, for the golden context (nullptr: the GPU has no context-switch
  // firmware; each channel gets an empty context buffer). Reads where the FIFO is (PTOP) and its
  // channel count.
  Fifo(HostApi& api, GpuDriver& gpu, McuDriver* mcu, const ChannelOptions& opt);
  ~Fifo();
  // A new channel, enabled, with the compute and copy classes bound and its constant buffer set
  // (pushed and kicked). HostError when every channel id is in use.
  Channel& open();
  // Disables the channel and frees its host memory (synchronize first). Its VRAM and its address
  // space are released when a channel opened after it closes: until another channel has owned GR,
  // the context-switch firmware may still save this one's context into its buffer — through the
  // channel's VM with nouveau's firmware, whose page tables a new space must not have recycled —
  // and a new channel at the same instance address would look like this one to the FIFO.
  void close(Channel& c);
  uint32_t base() const { return base_; }
  sc_core::sc_time golden_time() const { return golden_time_; }
  const ChannelOptions& options() const { return opt_; }

 private:
  void ensure_golden();
  HostApi& api_;
  GpuDriver& gpu_;
  McuDriver* mcu_;
  ChannelOptions opt_;
  std::vector<std::pair<uint32_t, uint32_t>> gr_mmio_;  // opt_.gr_mmio's pairs
  uint32_t base_ = 0;
  unsigned channels_ = 0;
  std::vector<bool> chid_used_;
  bool golden_ready_ = false;
  struct Golden;
  std::unique_ptr<Golden> golden_;
  sc_core::sc_time golden_time_;
  std::vector<std::unique_ptr<Channel>> live_;
  uint64_t opens_ = 0;
  struct Retired {  // a closed channel's VRAM and address space, held until a later channel closes
    uint64_t closed_after_opens = 0;
    unsigned space = 0;
    std::vector<GpuBuffer> vram;
    std::vector<uint64_t> vram_phys;
  };
  std::vector<Retired> retired_;
};

}  // namespace hetvp::sw
