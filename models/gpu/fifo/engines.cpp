// The FIFO block's engines (fifo.h): who owns GR and the context switch that hands it to another
// channel, and the compute and copy classes' methods, each run to completion (the engine's STATUS
// is polled) before the channel's next method.
#include <cinttypes>

#include "firmware/include/hetvp/compute.h"
#include "firmware/include/hetvp/copy_engine.h"
#include "firmware/include/hetvp/pmc.h"
#include "models/gpu/fifo/fifo.h"
#include "platform/format.h"
#include "platform/trace.h"

namespace hetvp::gpu {

namespace {
// The compute registers a channel may set by method: the context registers but the address-space
// selection (CMP_CHAN, CMP_CHAN_ID), which only SET_OBJECT writes.
bool compute_method_reg(uint32_t r) {
  if (r == CMP_CHAN || r == CMP_CHAN_ID) return false;
  bool ok = false;
#define HETVP_FIFO_CTX_REG(off, n) ok |= r >= (off) && r < (off) + 4u * (n);
  HETVP_COMPUTE_CTX_REGS(HETVP_FIFO_CTX_REG)
#undef HETVP_FIFO_CTX_REG
  return ok;
}
bool compute_gpc_reg(uint32_t r) {
  bool ok = false;
#define HETVP_FIFO_GPC_REG(off, n) ok |= r >= (off) && r < (off) + 4u * (n);
  HETVP_COMPUTE_GPC_CTX_REGS(HETVP_FIFO_GPC_REG)
#undef HETVP_FIFO_GPC_REG
  return ok;
}
}  // namespace

// ---- GR ownership and the context switch ----
bool Fifo::ensure_gr(Channel& c) {
  if (gr_valid_ && gr_chid_ == c.id && gr_inst_ == c.inst) return true;
  if (!has_chsw_) {
    const bool owner_gone = !gr_valid_ || !chans_[gr_chid_].enabled || chans_[gr_chid_].inst != gr_inst_;
    if (!owner_gone) {
      fail(c, FIFO_ERR_NO_CHSW, c.hdr_va,
           format("no context-switch unit: GR holds channel %u (instance 0x%" PRIx64
                  ") and this GPU cannot switch it (no block exports a CHSW interface: build the GR "
                  "context-switch block), so %s at push-buffer address 0x%" PRIx64 " cannot run",
                  gr_chid_, gr_inst_, method_text(c, cur_method_).c_str(), c.hdr_va));
      return false;
    }
    gr_valid_ = true;
    gr_chid_ = c.id;
    gr_inst_ = c.inst;
    bank_.at(FIFO_GR_CHAN).value = c.id + 1;
    return true;
  }
  // GR is idle: every launch was waited for. Request the switch at the FIFO's local time.
  sync_all();
  if (chsw->switch_pending()) {
    fail(c, FIFO_ERR_CHSW_TIMEOUT, c.hdr_va, "a context switch is already pending at the context-switch unit");
    return false;
  }
  ++switches_;
  // From a channel still enabled at the instance GR holds: both contexts live (not GR re-taken
  // after its owner closed). With one context per process these are the switches between two
  // processes' channels (gpu_bench's processes, docs/contexts.md).
  if (gr_valid_ && chans_[gr_chid_].enabled && chans_[gr_chid_].inst == gr_inst_) ++switches_between_open_;
  bank_.at(FIFO_SWITCHES).value++;
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  HETVP_DEBUG(Fifo, "GR switch requested: from %s to channel %u (instance 0x%" PRIx64 ") for method 0x%04x",
              gr_valid_ ? format("channel %u", gr_chid_).c_str() : "no channel", c.id, c.inst, cur_method_);
  chsw->request_switch(c.id, c.inst, sc_core::SC_ZERO_TIME);
  if (chsw->switch_pending()) sc_core::wait(chsw_timeout_, chsw->switch_acked());
  if (chsw->switch_pending()) {
    fail(c, FIFO_ERR_CHSW_TIMEOUT, c.hdr_va,
         format(
             "context switch not acknowledged within chsw_timeout (%s): pending switch of GR from %s to channel "
             "%u (instance 0x%" PRIx64 ", CHAN_NEXT 0x%08x), requested at %s for %s at push-buffer address 0x%" PRIx64,
             chsw_timeout_.to_string().c_str(),
             gr_valid_ ? format("channel %u (instance 0x%" PRIx64 ")", gr_chid_, gr_inst_).c_str() : "no channel", c.id,
             c.inst, chan_word(c.inst), start.to_string().c_str(), method_text(c, cur_method_).c_str(), c.hdr_va));
    return false;
  }
  const sc_core::sc_time took = sc_core::sc_time_stamp() - start;
  switch_wait_ += took;
  const uint64_t ns = uint64_t(switch_wait_.to_seconds() * 1e9 + 0.5);
  bank_.at(FIFO_SWITCH_NS_LO).value = uint32_t(ns);
  bank_.at(FIFO_SWITCH_NS_HI).value = uint32_t(ns >> 32);
  if (took > switch_max_) switch_max_ = took;
  HETVP_DEBUG(Fifo, "GR switch to channel %u acknowledged after %s", c.id, took.to_string().c_str());
  if (tracing_) {
    // The GR owner's track: one span per switch, request to ACK (they never overlap); the
    // channel's timeslice gets it too, as a nested span.
    if (tracing_gr_) {
      const std::string what = gr_valid_ ? format("GR ch%u -> ch%u", gr_chid_, c.id) : format("GR -> ch%u", c.id);
      tracer().span(gr_track_.name(), what, start, took, TraceArgs().add("chid", c.id).add("inst", c.inst));
    }
    inner_.push_back({"GR switch", start, took, ""});
  }
  cursor_ = sc_core::sc_time_stamp();
  gr_valid_ = true;
  gr_chid_ = c.id;
  gr_inst_ = c.inst;
  bank_.at(FIFO_GR_CHAN).value = c.id + 1;
  return true;
}

// ---- compute ----
bool Fifo::compute_write(Channel& c, uint32_t r, uint32_t v) {
  if (!compute_base_) compute_base_ = ptop(PTOP_COMPUTE_BASE);
  if (!compute_base_) {
    fail(c, FIFO_ERR_ENGINE, c.hdr_va, "compute method, but the GPU has no compute block");
    return false;
  }
  if (!reg_write(compute_base_ + r, v)) {
    fail(c, FIFO_ERR_ENGINE, c.hdr_va, format("compute register write at BAR0 0x%x failed", compute_base_ + r));
    return false;
  }
  return true;
}

void Fifo::compute_method(Channel& c, uint32_t m, uint32_t data) {
  const uint32_t r = m - CMPM_REG(0);
  if (m >= CMPM_REG(0) && (r == CMP_MODULE_LO || r == CMP_MODULE_HI || r == CMP_SHARED)) {
    (r == CMP_MODULE_LO ? c.module_lo : r == CMP_MODULE_HI ? c.module_hi : c.shared) = data;
    return;
  }
  if (m >= CMPM_REG(0) && m < CMPM_LAUNCH && compute_method_reg(r)) {
    if (ensure_gr(c)) compute_write(c, r, data);
    return;
  }
  if (m >= CMPM_GPC_CB(0) && m < CMPM_GPC_CB(GPU_WINDOW_COMPUTE_GPC) && compute_gpc_reg(m - CMPM_GPC_CB(0))) {
    if (!ensure_gr(c)) return;
    if (!gpc_base_) gpc_base_ = ptop(PTOP_COMPUTE_GPC_BASE);
    for (unsigned g = 0; g < num_gpcs_ && gpc_base_; ++g)
      if (!reg_write(gpc_base_ + g * GPU_GPC_STRIDE + (m - CMPM_GPC_CB(0)), data)) {
        fail(c, FIFO_ERR_ENGINE, c.hdr_va, format("GPC %u compute register write failed", g));
        return;
      }
    return;
  }
  if (m != CMPM_LAUNCH) return unknown(c, m, data);
  if (!ensure_gr(c)) return;
  ++launches_;
  const sc_core::sc_time t0 = now();
  HETVP_DEBUG(Fifo, "channel %u: LAUNCH", c.id);
  if (!compute_write(c, CMP_MODULE_LO, c.module_lo) || !compute_write(c, CMP_MODULE_HI, c.module_hi) ||
      !compute_write(c, CMP_SHARED, c.shared) || !compute_write(c, CMP_LAUNCH, CMP_LAUNCH_GO | CMP_LAUNCH_REPORTED))
    return;
  uint32_t st = CMP_STATUS_BUSY;
  if (!wait_idle(compute_base_ + CMP_STATUS, CMP_STATUS_BUSY, st)) return;
  inner_span("launch", t0, "");
  if (st & CMP_STATUS_ERROR) {
    uint32_t err = 0, id = 0, lo = 0, hi = 0;
    reg_read(compute_base_ + CMP_ERROR, err);
    reg_read(compute_base_ + CMP_KERNEL, id);
    reg_read(compute_base_ + CMP_ERROR_ADDR_LO, lo);
    reg_read(compute_base_ + CMP_ERROR_ADDR_HI, hi);
    static const char* what[] = {"none", "unknown code id", "bad grid/block dimensions", "memory fault",
                                 "kernel error"};
    std::string detail = err == CMP_ERR_UNKNOWN_KERNEL ? format(" 0x%08x: no kernel has this id", id)
                         : err == CMP_ERR_MEMORY_FAULT ? format(" at GPU VA 0x%" PRIx64, lo | uint64_t(hi) << 32)
                                                       : std::string();
    fail(c, FIFO_ERR_ENGINE, c.hdr_va,
         format("LAUNCH (method 0x%04x, subchannel %u) at push-buffer address 0x%" PRIx64 " failed: %s%s", m, c.subch,
                c.hdr_va, err < 5 ? what[err] : "error", detail.c_str()));
  }
}

// Samples STATUS every engine_poll until (STATUS & busy) == 0.
bool Fifo::wait_idle(uint32_t status_reg, uint32_t busy, uint32_t& st) {
  for (;;) {
    sync_all();
    if (!reg_read(status_reg, st)) return false;
    if (!(st & busy)) return true;
    cursor_ += engine_poll_;
  }
}

// ---- copy ----
void Fifo::copy_method(Channel& c, uint32_t m, uint32_t data) {
  switch (m) {
    case COPYM_OFFSET_IN_UPPER:
      c.copy_src = (c.copy_src & 0xffffffffull) | uint64_t(data & 0xff) << 32;
      return;
    case COPYM_OFFSET_IN_LOWER:
      c.copy_src = (c.copy_src & ~0xffffffffull) | data;
      return;
    case COPYM_OFFSET_OUT_UPPER:
      c.copy_dst = (c.copy_dst & 0xffffffffull) | uint64_t(data & 0xff) << 32;
      return;
    case COPYM_OFFSET_OUT_LOWER:
      c.copy_dst = (c.copy_dst & ~0xffffffffull) | data;
      return;
    case COPYM_LINE_LENGTH_IN:
      c.copy_len = data;
      return;
    case COPYM_LAUNCH_DMA:
      break;
    default:
      return unknown(c, m, data);
  }
  if (!copy_base_) copy_base_ = ptop(PTOP_COPY_BASE);
  if (!copy_base_) {
    fail(c, FIFO_ERR_ENGINE, c.hdr_va, "LAUNCH_DMA, but the GPU has no copy engine");
    return;
  }
  ++copies_;
  const sc_core::sc_time t0 = now();
  HETVP_DEBUG(Fifo, "channel %u: LAUNCH_DMA %u B 0x%" PRIx64 " -> 0x%" PRIx64 " on copy engine %u", c.id, c.copy_len,
              c.copy_src, c.copy_dst, copy_engine_);
  const uint32_t b = copy_base_ + copy_engine_ * GPU_COPY_STRIDE;
  const uint32_t w[][2] = {{COPY_CHAN, chan_word(c.inst)},      {COPY_CHAN_ID, c.id},
                           {COPY_SRC_LO, uint32_t(c.copy_src)}, {COPY_SRC_HI, uint32_t(c.copy_src >> 32)},
                           {COPY_DST_LO, uint32_t(c.copy_dst)}, {COPY_DST_HI, uint32_t(c.copy_dst >> 32)},
                           {COPY_LENGTH, c.copy_len},           {COPY_LAUNCH, COPY_LAUNCH_GO}};
  for (auto& r : w)
    if (!reg_write(b + r[0], r[1])) {
      fail(c, FIFO_ERR_ENGINE, c.hdr_va, "copy engine register write failed");
      return;
    }
  uint32_t st = 0;
  if (!wait_idle(b + COPY_STATUS, COPY_STATUS_BUSY, st)) return;
  if (tracing_)
    inner_span("copy " + std::to_string(c.copy_len) + " B", t0,
               TraceArgs().add("src", c.copy_src).add("dst", c.copy_dst).add("bytes", c.copy_len).str());
  if (st & COPY_STATUS_ERROR) {
    uint32_t lo = 0, hi = 0;
    reg_read(b + COPY_ERROR_LO, lo);
    reg_read(b + COPY_ERROR_HI, hi);
    fail(c, FIFO_ERR_ENGINE, c.hdr_va,
         format("LAUNCH_DMA (method 0x%04x, subchannel %u) at push-buffer address 0x%" PRIx64
                ": copy of %u bytes 0x%" PRIx64 " -> 0x%" PRIx64 " failed, error %u at GPU VA 0x%" PRIx64,
                m, c.subch, c.hdr_va, c.copy_len, c.copy_src, c.copy_dst, COPY_STATUS_CODE(st),
                lo | uint64_t(hi) << 32));
  }
}

}  // namespace hetvp::gpu
