#include "models/gpu/copy_engine.h"

#include <cinttypes>
#include <cstring>

#include "models/gpu/gpu_block.h"
#include "models/gpu/gpu_regs.h"
#include "platform/config.h"
#include "platform/format.h"
#include "platform/run_ahead.h"
#include "platform/run_state.h"
#include "platform/trace.h"
#include "platform/payload.h"
#include "platform/sim_time.h"

namespace hetvp::gpu {

namespace {
const RegSpec kCopyRegs[] = {HETVP_REG_TABLE(HETVP_COPY_REGS)};
}  // namespace

CopyEngine::CopyEngine(sc_core::sc_module_name n, const CopyEngineConfig& c, unsigned index)
    : Peripheral(n, kCopyRegs),
      src_lo_(reg("SRC_LO")),
      src_hi_(reg("SRC_HI")),
      dst_lo_(reg("DST_LO")),
      dst_hi_(reg("DST_HI")),
      length_(reg("LENGTH")),
      fence_lo_(reg("FENCE_LO")),
      fence_hi_(reg("FENCE_HI")),
      fence_value_(reg("FENCE_VALUE")),
      status_(reg("STATUS")),
      error_lo_(reg("ERROR_LO")),
      error_hi_(reg("ERROR_HI")),
      completed_(reg("COMPLETED")),
      intr_bit_(GPU_INTR_COPY(index)) {
  setup_ = c.setup;
  issue_cost_ = c.issue_cost;
  to_host_completion_ = c.to_host_completion;
  booking_window_ = c.booking_window;
  burst_ = static_cast<unsigned>(c.burst);
  outstanding_ = c.outstanding;
  on_write("LAUNCH", &CopyEngine::launch);
  info_->initiator = name();
  info_->side = Side::Gpu;
  gp_.set_extension(info_);
  gp_.set_extension(target_);
  gp_.set_extension(chan_);
  buffer_.resize(static_cast<size_t>(burst_) * outstanding_);
  SC_HAS_PROCESS(CopyEngine);
  SC_THREAD(run);
  declare_stats();
}

void CopyEngine::launch(uint32_t v) {
  if (!(v & COPY_LAUNCH_GO)) return;
  if (busy_) {  // one copy at a time: the second launch is refused, visibly
    HETVP_DEBUG(Dma, "launch refused: a copy is in progress");
    status_.value |= COPY_STATUS_FAILED(COPY_ERR_BUSY);
    ++errors_;
    return;
  }
  if (length_.value == 0) {  // nothing to copy: refused at once
    status_.value = COPY_STATUS_FAILED(COPY_ERR_ZERO_LENGTH);
    ++errors_;
    return;
  }
  busy_ = true;
  launch_flags_ = v;
  status_.value = COPY_STATUS_BUSY;
  launch_.notify(this_access().delay);  // the copy starts when the doorbell arrives
}

bool CopyEngine::access(tlm::tlm_command cmd, uint64_t va, uint8_t* data, unsigned len, sc_core::sc_time at,
                        sc_core::sc_time& done) {
  set_access(gp_, cmd, va, data, len);
  const sc_core::sc_time now = hetvp::sim_now();
  sc_core::sc_time d = at > now ? at - now : sc_core::SC_ZERO_TIME;
  mem.b_transport(gp_, d);
  done = now + d;
  return gp_.is_response_ok();
}

void CopyEngine::run() {
  const sc_core::sc_time max_lag(100, sc_core::SC_US);  // RunAheadKeeper's bound on running ahead unseen
  for (;;) {
    sc_core::wait(launch_);
    const sc_core::sc_time start = hetvp::sim_now();
    const uint64_t src = reg64(src_lo_, src_hi_), dst = reg64(dst_lo_, dst_hi_);
    const uint64_t len = length_.value;
    const uint32_t chan = bank_.named("CHAN").value;
    chan_->valid = (chan & 0x80000000u) != 0;
    chan_->inst = uint64_t(chan & 0x0fffffffu) << 12;
    chan_->chid = bank_.named("CHAN_ID").value;
    uint32_t error = COPY_OK;
    uint64_t error_va = 0;
    bool to_host = false;  // some piece was written to host memory
    HETVP_DEBUG(Dma, "copy %" PRIu64 " B from 0x%" PRIx64 " to 0x%" PRIx64 " starts (flags 0x%x)", len, src, dst,
                launch_flags_);

    // Up to `outstanding` pieces are in flight: a piece's buffer slot (and its PCIe tag) is free
    // again once the piece has been written out. Reads issue back to back while slots are free;
    // each piece is written, in order, once its data is in.
    std::vector<sc_core::sc_time> slot_free(outstanding_, start);
    const sc_core::sc_time first_issue = start + setup_;
    sc_core::sc_time issue = first_issue, write_cursor = issue, finish = issue;
    uint64_t off = 0;
    for (uint64_t k = 0; off < len && error == COPY_OK; ++k) {
      const uint64_t s = src + off, d = dst + off;
      // A piece ends at the burst size, at the end, and at a page boundary of either side.
      uint64_t n = std::min<uint64_t>(burst_, len - off);
      n = std::min<uint64_t>(n, 4096 - (s & 4095));
      n = std::min<uint64_t>(n, 4096 - (d & 4095));
      uint8_t* buf = &buffer_[(k % outstanding_) * burst_];
      sc_core::sc_time& slot = slot_free[k % outstanding_];
      sc_core::sc_time at = issue > slot ? issue : slot;
      // The piece's read and write are booked on shared links (PCIe) whose slots go in call order
      // (platform/calendar.h). The engine books the pieces it issues in a `booking_window` (from the
      // copy's first request) when SystemC time has reached the window's start, so every other
      // initiator's request before the window comes first and every one inside it after; when no
      // other process has anything to do before the window, nobody can tell, and it goes on ahead
      // (#43: with a quantum-sized lead the order, and times by up to 1.5 %, moved with the quantum).
      // Completions further ahead are in flight, not the engine running ahead: syncing to them
      // (say the write cursor) would stall the read pipeline.
      const sc_core::sc_time now = hetvp::sim_now();
      const sc_core::sc_time window =
          booking_window_ == sc_core::SC_ZERO_TIME ? at : at - (at - first_issue) % booking_window_;
      if (window > now && (window - now > max_lag || !unobserved_for(window - now))) sc_core::wait(window - now);
      sc_core::sc_time read_done, write_done;
      if (!access(tlm::TLM_READ_COMMAND, s, buf, static_cast<unsigned>(n), at, read_done)) {
        error = COPY_ERR_SRC_FAULT;
        error_va = s;
        break;
      }
      issue = at + issue_cost_;
      sc_core::sc_time wat = write_cursor > read_done ? write_cursor : read_done;
      if (!access(tlm::TLM_WRITE_COMMAND, d, buf, static_cast<unsigned>(n), wat, write_done)) {
        error = COPY_ERR_DST_FAULT;
        error_va = d;
        break;
      }
      to_host |= target_->sysmem;
      write_cursor = write_done;
      slot = write_done;
      if (write_done > finish) finish = write_done;
      ++pieces_;
      off += n;
    }
    if (issue > finish) finish = issue;  // the last request's issue slot ends the copy too
    if (finish > hetvp::sim_now()) sc_core::wait(finish - hetvp::sim_now());
    if (to_host && error == COPY_OK && to_host_completion_ > sc_core::SC_ZERO_TIME) sc_core::wait(to_host_completion_);
    if (error != COPY_OK) {
      ++errors_;
      status_.value = COPY_STATUS_FAILED(error);
      error_lo_.value = static_cast<uint32_t>(error_va);
      error_hi_.value = static_cast<uint32_t>(error_va >> 32);
    } else {
      status_.value = 0;
      bytes_ += len;
      ++copies_;
      completed_.value++;
    }
    // The fence says "this request is over"; bit 31 set means it failed (see STATUS).
    if (launch_flags_ & COPY_LAUNCH_FENCE) {
      uint32_t v = fence_value_.value | (error != COPY_OK ? COPY_FENCE_ERROR : 0u);
      sc_core::sc_time done;
      if (!access(tlm::TLM_WRITE_COMMAND, reg64(fence_lo_, fence_hi_), reinterpret_cast<uint8_t*>(&v), 4,
                  hetvp::sim_now(), done)) {
        ++errors_;
        status_.value = COPY_STATUS_FAILED(COPY_ERR_DST_FAULT);
      }
    }
    busy_ = false;
    busy_time_ += hetvp::sim_now() - start;
    HETVP_DEBUG(Dma, "copy %" PRIu64 " B %s after %s%s", len, error ? "failed" : "done",
                (hetvp::sim_now() - start).to_string().c_str(),
                error ? format(" (error %u at 0x%" PRIx64 ")", error, error_va).c_str() : "");
    if (track_.on(tracer()))
      tracer().span(track_.name(), (error ? "copy (failed) " : "copy ") + std::to_string(len) + " B", start,
                    hetvp::sim_now() - start);
    run_state().progress();
    if (launch_flags_ & COPY_LAUNCH_INTR) intr->raise(intr_bit_, sc_core::SC_ZERO_TIME);
  }
}

void CopyEngine::declare_stats() {
  stats_.set_name(basename());
  stats_.counter("copies", "count", "copies launched", copies_)
      .counter("bytes", "bytes", "bytes copied", bytes_)
      .counter("pieces", "count", "bursts the copies were split into", pieces_)
      .counter("errors", "count", "launches refused (busy, zero length) and copies that failed (access or fence write)",
               errors_)
      .time("busy_ns", "time spent copying", busy_time_)
      .value("register_errors", "count", "illegal register accesses", [this] { return bank_.errors(); });
}

// ---- the copy engines as a GPU block (gpu_block.h) ----------------------------------------------
namespace {

// The block's group: the engines' shared parameters, then where they sit.
struct CopyBlockConfig : CopyEngineConfig {
  Int<uint32_t> bar0{this, "bar0", GPU_COPY_BASE,
                     "BAR0 offset of engine 0's registers (engine n at + n * 0x1000; software reads it in "
                     "PTOP_COPY_BASE)",
                     Range{GPU_WINDOW_PMC, 0xffffffffll}};
};

// gpu.copy_engines engines sharing the group's parameters, at bar0 + n * GPU_COPY_STRIDE.
class CopyEngineBlock : public GpuBlock {
 public:
  CopyEngineBlock(GpuContext& ctx, const CopyBlockConfig& p) {
    const unsigned n = ctx.copy_engines;
    const uint64_t base = p.bar0;
    if (base % GPU_COPY_STRIDE)
      throw ConfigError(p.bar0.where() + ": " + hex(base) + " is not a multiple of the window size " +
                        hex(GPU_COPY_STRIDE));
    for (unsigned i = 0; i < n; ++i) {
      engines_.push_back(std::make_unique<CopyEngine>(("copy" + std::to_string(i)).c_str(), p, i));
      CopyEngine& e = *engines_.back();
      e.mem.bind(ctx.gpu_va);
      e.intr.bind(ctx.intr);
      ctx.map_window(p.bar0, e.basename(), base + i * GPU_COPY_STRIDE, GPU_WINDOW_COPY, e.regs);
    }
    ctx.topology("NUM_COPY", n);
    ctx.topology("COPY_BASE", static_cast<uint32_t>(base));
  }
  // copy0, copy1, ... directly under the GPU, as before the engines were a block.
  bool add_stats(StatGroup& gpu) override {
    for (auto& e : engines_) gpu.add(e->stats());
    return true;
  }

 private:
  std::vector<std::unique_ptr<CopyEngine>> engines_;
};

}  // namespace

HETVP_REGISTER_GPU_BLOCK_CONFIG(
    "copy_engine", "copy engines (host<->device DMA; gpu.copy_engines of them, parameters shared)", CopyBlockConfig,
    [](GpuContext& ctx, const CopyBlockConfig& p) -> std::unique_ptr<GpuBlock> {
      return std::make_unique<CopyEngineBlock>(ctx, p);
    },
    -1);

}  // namespace hetvp::gpu
