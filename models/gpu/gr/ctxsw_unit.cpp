#include "models/gpu/gr/ctxsw_unit.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>

#include "firmware/include/hetvp/gr_ctxsw.h"
#include "firmware/include/hetvp/mcu_regs.h"
#include "platform/channel_tag.h"
#include "models/gpu/gr/io_index.h"
#include "platform/format.h"
#include "platform/payload.h"
#include "platform/register_table.h"
#include "platform/run_state.h"
#include "platform/trace.h"

namespace hetvp::gpu {

namespace {
const RegSpec kCommon[] = {HETVP_REG_TABLE(HETVP_GR_CTXSW_REGS)};
const RegSpec kHubOnly[] = {HETVP_REG_TABLE(HETVP_GR_HUB_REGS)};
}  // namespace

CtxswUnit::CtxswUnit(sc_core::sc_module_name n, const CtxswConfig& cfg) : Peripheral(n, kCommon), cfg_(cfg) {
  if (cfg_.hub) add_table(bank_, kHubOnly);
  strand_save_.assign(cfg_.strands.size(), 0);
  strand_load_.assign(cfg_.strands.size(), 0);
  bank_.set_reset("STRANDS_CNT", uint32_t(cfg_.strands.size()));
  using U = CtxswUnit;
  on_read("SIGNAL", &U::signal);
  on_read("MMCTX_CTRL", &U::mmctx_ctrl);
  on_write("MMCTX_CTRL", &U::mmctx_ctrl_written);
  on_write("MMCTX_QUEUE", &U::mmctx_queue);
  on_read("STRAND_SAVE_SWBASE", &U::strand_save_swbase);
  on_read("STRAND_LOAD_SWBASE", &U::strand_load_swbase);
  on_write("STRAND_SAVE_SWBASE", &U::strand_save_swbase_written);
  on_write("STRAND_LOAD_SWBASE", &U::strand_load_swbase_written);
  on_write("STRAND_CMD", &U::strand_cmd);
  if (cfg_.hub) {
    on_write("MEM_CMD", &U::mem_cmd);
    on_write("CHSW", &U::chsw_written);
    on_write("CHSW_FW_CYCLES", &U::fw_cycles_written);
  }
  on_port("falcon_index", GRC_STRAND_SAVE_SWBASE, 12, &U::falcon_index_port);
  xfer.register_b_transport(this, &U::xfer_transport);
  for (auto [gp, info, uncached] : {std::tuple{&bar0_gp_, bar0_info_, true}, std::tuple{&vram_gp_, vram_info_, false},
                                    std::tuple{&mem_gp_, mem_info_, false}, std::tuple{&hubreg_gp_, hubreg_info_, true}}) {
    info->initiator = name();
    info->side = Side::Gpu;
    info->uncached = uncached;
    gp->set_extension(info);
  }
  mem_info_->may_wait = false;  // LOAD_CHAN is served inside the (possibly in-burst) register write
  hubreg_info_->may_wait = false;  // read inside a register write, too
  chsw.bind(*this);
  SC_HAS_PROCESS(CtxswUnit);
  SC_THREAD(run);
  declare_stats();
}

// ---- registers -------------------------------------------------------------------------------
uint32_t CtxswUnit::signal() const {
  return (mmctx_pending_ ? GRC_SIGNAL_MMCTX : 0u) | (strand_pending_ ? GRC_SIGNAL_STRAND : 0u);
}
uint32_t CtxswUnit::mmctx_ctrl() const {
  const uint32_t free_slots = GRC_MMCTX_QUEUE_LEN - std::min(mmctx_pending_, GRC_MMCTX_QUEUE_LEN);
  return mmctx_dir_ | GRC_MMCTX_CTRL_QLIMIT | free_slots | (mmctx_pending_ ? GRC_MMCTX_CTRL_STOP : 0u);
}
void CtxswUnit::mmctx_ctrl_written(uint32_t v) {
  if (v & GRC_MMCTX_CTRL_START) {
    mmctx_dir_ = v & GRC_MMCTX_CTRL_DIR_LOAD;
    mmctx_offset_ = 0;
    reg("MMCTX_WORDS").value = 0;
    HETVP_DEBUG(Gr, "MMCTX start (%s)", mmctx_dir_ ? "load" : "save");
  }
  // STOP: the queue drains on its own; CTRL bit 18 reads 1 until it has (com.fuc mmctx_stop_wait).
}

// MEM_TARGET 2: VRAM; 1: the virtual address space of the channel MEM_CHAN names (nouveau's ctx_load
// selects it for the context buffer, hub.fuc:495). A GPC unit under nouveau's firmware has neither
// (gpc.fuc writes only MEM_BASE): with MEM_TARGET 0 it reads the HUB unit's, across BAR0.
bool CtxswUnit::target_space(bool& vm, uint64_t& inst, bool strand) {
  uint32_t target = reg("MEM_TARGET").value & GRC_MEM_TARGET_AS_MASK;
  uint32_t chan = cfg_.hub ? reg("MEM_CHAN").value : 0;
  if (!cfg_.hub && cfg_.falcon && target == 0) {
    sc_core::sc_time d = this_access().delay;
    uint32_t t = 0;
    set_access(hubreg_gp_, tlm::TLM_READ_COMMAND, cfg_.hub_regs + GRC_MEM_TARGET, &t, 4);
    bar0->b_transport(hubreg_gp_, d);
    bool ok = hubreg_gp_.is_response_ok();
    set_access(hubreg_gp_, tlm::TLM_READ_COMMAND, cfg_.hub_regs + GRH_MEM_CHAN, &chan, 4);
    if (ok) bar0->b_transport(hubreg_gp_, d);
    if (!ok || !hubreg_gp_.is_response_ok()) {
      set_error(GRC_ERR_TARGET, 0, strand, "MEM_TARGET 0: the HUB unit's MEM_TARGET / MEM_CHAN did not answer");
      return false;
    }
    target = t & GRC_MEM_TARGET_AS_MASK;
  }
  if (target == GRC_MEM_TARGET_AS_VRAM) {
    vm = false;
    return true;
  }
  if (target == GRC_MEM_TARGET_AS_VM && (chan & kChanValid)) {
    vm = true;
    inst = chan_inst(chan);
    return true;
  }
  set_error(GRC_ERR_TARGET, target, strand,
            target == GRC_MEM_TARGET_AS_VM
                ? format("MEM_TARGET VM (1) with no channel (MEM_CHAN 0x%08x): no address space to move in", chan)
                : format("MEM_TARGET address space %u: the engines move VRAM (2) or a channel's VM (1)", target));
  return false;
}

bool CtxswUnit::buffer_base(uint32_t swbase, uint64_t& addr, bool strand) {
  (void)strand;
  addr = (uint64_t(reg("MEM_BASE").value) + swbase) << 8;
  return true;
}

// One access of context memory: VRAM, or the channel's VM (tagged with its instance block, so the
// GPU MMU walks that channel's page directory and names it in a fault).
bool CtxswUnit::mem(tlm::tlm_command cmd, uint64_t addr, void* data, unsigned len, bool vm, uint64_t inst,
                    sc_core::sc_time& d) {
  if (!vm) return bus(vram_gp_, vram, cmd, addr, data, len, d);
  tlm::tlm_generic_payload gp;
  AccessInfo info;
  info.initiator = name();
  info.side = Side::Gpu;
  info.may_wait = false;
  ChannelTag tag;
  tag.valid = true;
  tag.chid = pending_ ? pending_chid_ : 0;
  tag.inst = inst;
  gp.set_extension(&info);
  gp.set_extension(&tag);
  set_access(gp, cmd, addr, data, len);
  va->b_transport(gp, d);
  const bool ok = gp.is_response_ok();
  gp.clear_extension(&info);
  gp.clear_extension(&tag);
  return ok;
}

// The Falcon controller's xfer port (FECS port 0): its address is an offset from MEM_BASE << 8.
void CtxswUnit::xfer_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& d) {
  bool vm = false;
  uint64_t inst = 0;
  gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  if (!target_space(vm, inst, false)) return;
  const uint64_t addr = (uint64_t(reg("MEM_BASE").value) << 8) + gp.get_address();
  const unsigned len = gp.get_data_length();
  if (!vm && addr + len > cfg_.vram_size) {
    set_error(GRC_ERR_BUFFER, uint32_t(addr >> 8), false,
              format("xfer of %u bytes at VRAM 0x%" PRIx64 " (MEM_BASE 0x%x + 0x%" PRIx64 "): outside VRAM (0x%" PRIx64
                     " bytes)",
                     len, addr, reg("MEM_BASE").value, uint64_t(gp.get_address()), cfg_.vram_size));
    return;
  }
  if (!mem(gp.get_command(), addr, gp.get_data_ptr(), len, vm, inst, d)) {
    set_error(GRC_ERR_BUFFER, uint32_t(addr >> 8), false,
              vm ? format("xfer of %u bytes at virtual address 0x%" PRIx64 " in the space of the channel at instance "
                          "block 0x%" PRIx64 " failed (unmapped: MMU fault)",
                          len, addr, inst)
                 : format("xfer of %u bytes at VRAM 0x%" PRIx64 " refused", len, addr));
    return;
  }
  ++xfers_;
  xfer_bytes_ += len;
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

// nouveau's firmware reaches strand i's SWBASEs and size at I/O index i (io_index.h); an access
// without the index (host, RV32 firmware) acts on STRAND_SELECT's strand through the table.
bool CtxswUnit::falcon_index_port(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  const IoIndex* ix = gp.get_extension<IoIndex>();
  if (!ix || gp.get_data_length() != 4) return false;
  const uint32_t off = uint32_t(gp.get_address());
  const unsigned s = ix->index;
  uint32_t v = 0;
  if (gp.is_write()) std::memcpy(&v, gp.get_data_ptr(), 4);
  if (off == GRC_STRAND_SAVE_SWBASE || off == GRC_STRAND_LOAD_SWBASE) {
    std::vector<uint32_t>& cells = off == GRC_STRAND_SAVE_SWBASE ? strand_save_ : strand_load_;
    if (gp.is_write()) {
      if (s < cells.size()) cells[s] = v;
    } else {
      v = s < cells.size() ? cells[s] : 0;
    }
  } else if (off == GRC_STRAND_WORDS) {
    if (gp.is_write()) return false;
    v = s < cfg_.strands.size() ? uint32_t(cfg_.strands[s].size()) : 0u;
  } else {
    return false;
  }
  if (gp.is_read()) std::memcpy(gp.get_data_ptr(), &v, 4);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void CtxswUnit::mmctx_queue(uint32_t v) {
  if (mmctx_pending_ >= GRC_MMCTX_QUEUE_LEN) {
    set_error(GRC_ERR_QUEUE, v, false, format("MMCTX_QUEUE 0x%08x written while the queue was full", v));
    return;
  }
  Job j;
  j.load = mmctx_dir_ != 0;
  j.entry = v;
  j.base = reg("MMCTX_BASE").value;
  j.stride = reg("MMCTX_MULTI_STRIDE").value;
  j.mask = reg("MMCTX_MULTI_MASK").value;
  const uint32_t swbase = reg(j.load ? "MMCTX_LOAD_SWBASE" : "MMCTX_SAVE_SWBASE").value;
  uint64_t area = 0;
  if (!target_space(j.vm, j.inst, false) || !buffer_base(swbase, area, false)) return;
  j.buf = area + mmctx_offset_;
  const uint32_t count = (v >> GRC_MMCTX_ENTRY_COUNT_SHIFT) + 1;
  const uint32_t units = (v & GRC_MMCTX_ENTRY_MULTI_EN) ? uint32_t(__builtin_popcount(j.mask)) : 1u;
  mmctx_offset_ += 4ull * count * units;
  j.at = sc_core::sc_time_stamp() + this_access().delay;
  ++mmctx_pending_;
  jobs_.push_back(std::move(j));
  work_.notify(this_access().delay);
}

uint32_t CtxswUnit::strand_save_swbase() const {
  const uint32_t s = bank_.at(GRC_STRAND_SELECT).value;
  return s < strand_save_.size() ? strand_save_[s] : 0;
}
uint32_t CtxswUnit::strand_load_swbase() const {
  const uint32_t s = bank_.at(GRC_STRAND_SELECT).value;
  return s < strand_load_.size() ? strand_load_[s] : 0;
}
void CtxswUnit::strand_save_swbase_written(uint32_t v) {
  const uint32_t s = reg("STRAND_SELECT").value;
  if (s < strand_save_.size()) strand_save_[s] = v;
}
void CtxswUnit::strand_load_swbase_written(uint32_t v) {
  const uint32_t s = reg("STRAND_SELECT").value;
  if (s < strand_load_.size()) strand_load_[s] = v;
}

void CtxswUnit::strand_cmd(uint32_t v) {
  const uint32_t sel = reg("STRAND_SELECT").value;
  switch (v) {
    case GRC_STRAND_CMD_GET_INFO:
      reg("STRAND_WORDS").value = sel < cfg_.strands.size() ? uint32_t(cfg_.strands[sel].size()) : 0u;
      return;
    case GRC_STRAND_CMD_SAVE:
    case GRC_STRAND_CMD_LOAD: {
      Job j;
      j.strand = true;
      j.load = v == GRC_STRAND_CMD_LOAD;
      if (!target_space(j.vm, j.inst, true)) return;
      if (cfg_.stuck) {  // the test-only fault: the command is taken and never finishes
        ++strand_pending_;
        ++strand_cmds_;
        return;
      }
      for (unsigned s = sel; s < cfg_.strands.size(); ++s) {
        uint64_t addr = 0;
        if (!buffer_base(j.load ? strand_load_[s] : strand_save_[s], addr, true)) return;
        j.strands.emplace_back(s, addr);
      }
      j.at = sc_core::sc_time_stamp() + this_access().delay;
      ++strand_pending_;
      ++strand_cmds_;
      jobs_.push_back(std::move(j));
      work_.notify(this_access().delay);
      return;
    }
    default:  // SEEK, filters, ENABLE/DISABLE: accepted (nouveau issues them), nothing to do here
      return;
  }
}

// MEM_CMD LOAD_CHAN: fetch the context pointer of MEM_CHAN's instance block (inst + 0x210),
// validate it and latch it in MEM_CTX. Served inside the write (one VRAM read; its time is added
// to the writer's), so MEM_CMD reads 0 when the firmware looks.
void CtxswUnit::mem_cmd(uint32_t v) {
  reg("MEM_CMD").value = 0;
  if (v != GRH_MEM_CMD_LOAD_CHAN) return;  // nouveau's MEM_CMD 5 etc.: nothing to do in hetvp
  ++chan_loads_;
  Register& status = reg("MEM_CTX_STATUS");
  Register& ctx = reg("MEM_CTX");
  ctx.value = 0;
  const uint32_t chan = reg("MEM_CHAN").value;
  const uint64_t inst = chan_inst(chan);
  if (!(chan & kChanValid) || inst + GR_INST_CTX_PTR + 8 > cfg_.vram_size) {
    status.value = GRC_ERR_BAD_INST;
    return;
  }
  uint64_t ptr = 0;
  sc_core::sc_time d = this_access().delay;
  const sc_core::sc_time before = d;
  set_access(mem_gp_, tlm::TLM_READ_COMMAND, inst + GR_INST_CTX_PTR, &ptr, 8);
  vram->b_transport(mem_gp_, d);
  if (d > before) this_access().delay = d;
  if (!mem_gp_.is_response_ok()) {
    status.value = GRC_ERR_BAD_INST;
    return;
  }
  const uint64_t addr = ptr & ~uint64_t(0xff);
  HETVP_DEBUG(Gr, "LOAD_CHAN: instance block 0x%" PRIx64 " names context 0x%" PRIx64, inst, ptr);
  if (ptr == 0)
    status.value = GRC_ERR_NO_CTX;
  else if (!(ptr & GR_INST_CTX_VRAM) || (ptr & 0xff & ~uint64_t(GR_INST_CTX_VRAM)) || addr >= cfg_.vram_size ||
           (addr >> 8) > 0xffffffffull)
    status.value = GRC_ERR_BAD_CTX;
  else {
    status.value = GRC_ERR_NONE;
    ctx.value = uint32_t(addr >> 8);
  }
}

// ---- the engines -----------------------------------------------------------------------------
void CtxswUnit::run() {
  for (;;) {
    while (jobs_.empty()) sc_core::wait(work_);
    const Job j = jobs_.front();
    if (j.at > sc_core::sc_time_stamp()) sc_core::wait(j.at - sc_core::sc_time_stamp());
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    sc_core::sc_time d = cfg_.command_cost;
    const uint64_t words = mmctx_saved_ + mmctx_loaded_ + strand_saved_ + strand_loaded_;
    if (j.strand)
      do_strands(j, d);
    else
      do_mmctx(j, d);
    sc_core::wait(d);
    busy_time_ += sc_core::sc_time_stamp() - start;
    const uint64_t moved = mmctx_saved_ + mmctx_loaded_ + strand_saved_ + strand_loaded_ - words;
    if (track_.on(tracer())) {  // one span per command on the unit's track; they run one at a time
      static const std::string kWhat[2][2] = {{"MMCTX save", "MMCTX load"}, {"strand save", "strand load"}};
      tracer().span(track_.name(), kWhat[j.strand][j.load], start, sc_core::sc_time_stamp() - start,
                    TraceArgs().add("words", moved).add("entry", uint64_t(j.entry)).add("vram", j.buf));
    }
    jobs_.pop_front();
    if (j.strand)
      --strand_pending_;
    else
      --mmctx_pending_;
    run_state().progress();
    if (jobs_.empty()) {
      if (j.strand)
        HETVP_DEBUG(Gr, "engines idle: strand command done");
      else
        HETVP_DEBUG(Gr, "engines idle: MMCTX done, %u words since START", reg("MMCTX_WORDS").value);
      raise(MCU_IRQ_CTXSW_BIT, sc_core::SC_ZERO_TIME);
    }
  }
}

void CtxswUnit::do_mmctx(const Job& j, sc_core::sc_time& d) {
  ++entries_;
  const uint32_t count = (j.entry >> GRC_MMCTX_ENTRY_COUNT_SHIFT) + 1;
  uint64_t first = j.entry & GRC_MMCTX_ENTRY_ADDR_MASK;
  if (j.entry & GRC_MMCTX_ENTRY_BASE_EN) first += j.base;
  std::vector<uint32_t> regs;
  for (unsigned u = 0; u < 32; ++u) {
    const bool multi = (j.entry & GRC_MMCTX_ENTRY_MULTI_EN) != 0;
    if (multi && !(j.mask >> u & 1)) continue;
    const uint64_t a = first + (multi ? uint64_t(u) * j.stride : 0);
    for (uint32_t k = 0; k < count; ++k) {
      const uint64_t r = a + 4ull * k;
      if (r + 4 > cfg_.bar0_size) {
        set_error(GRC_ERR_REG, uint32_t(r), false,
                  format("MMCTX list entry 0x%08x: register 0x%" PRIx64 " is outside BAR0 (0x%" PRIx64 " bytes)",
                         j.entry, r, cfg_.bar0_size));
        return;
      }
      regs.push_back(uint32_t(r));
    }
    if (!multi) break;
  }
  uint64_t moved = 0;
  move(regs, j.buf, j.load, false, j.entry, d, moved, j.vm, j.inst);
  reg("MMCTX_WORDS").value += uint32_t(moved);
  HETVP_DEBUG(Gr, "MMCTX %s entry 0x%08x: %" PRIu64 " words at VRAM 0x%" PRIx64, j.load ? "load" : "save", j.entry, moved,
              j.buf);
}

void CtxswUnit::do_strands(const Job& j, sc_core::sc_time& d) {
  for (auto& [s, buf] : j.strands) {
    uint64_t moved = 0;
    d += cfg_.command_cost;
    if (!move(cfg_.strands[s], buf, j.load, true, s, d, moved, j.vm, j.inst)) return;
    HETVP_DEBUG(Gr, "strand %u %s: %" PRIu64 " words at VRAM 0x%" PRIx64, s, j.load ? "load" : "save", moved, buf);
  }
}

bool CtxswUnit::bus(tlm::tlm_generic_payload& gp, tlm_utils::simple_initiator_socket<CtxswUnit>& s,
                    tlm::tlm_command cmd, uint64_t addr, void* data, unsigned len, sc_core::sc_time& d) {
  set_access(gp, cmd, addr, data, len);
  s->b_transport(gp, d);
  return gp.is_response_ok();
}

bool CtxswUnit::move(const std::vector<uint32_t>& regs, uint64_t buf, bool load, bool strand, uint32_t entry,
                     sc_core::sc_time& d, uint64_t& moved, bool vm, uint64_t inst) {
  if (regs.empty()) return true;
  const uint64_t bytes = 4ull * regs.size();
  if (!vm && (buf + bytes > cfg_.vram_size || buf + bytes < buf)) {
    set_error(GRC_ERR_BUFFER, uint32_t(buf >> 8), strand,
              format("%s %u: context area [0x%" PRIx64 ", +0x%" PRIx64 ") is outside VRAM (0x%" PRIx64 " bytes)",
                     strand ? "strand" : "MMCTX list entry", entry, buf, bytes, cfg_.vram_size));
    return false;
  }
  std::vector<uint32_t> words(regs.size(), 0);
  if (load && !mem(tlm::TLM_READ_COMMAND, buf, words.data(), unsigned(bytes), vm, inst, d)) {
    set_error(GRC_ERR_BUFFER, uint32_t(buf >> 8), strand,
              format("%s read at 0x%" PRIx64 " refused", vm ? "context (VM)" : "VRAM", buf));
    return false;
  }
  for (size_t i = 0; i < regs.size(); ++i) {
    d += cfg_.word_cost;
    if (load && cfg_.has_skip && regs[i] == cfg_.skip_restore) {  // the test-only fault
      ++skipped_;
      continue;
    }
    if (!bus(bar0_gp_, bar0, load ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, regs[i], &words[i], 4, d)) {
      set_error(GRC_ERR_REG, regs[i], strand,
                format("%s %s 0x%08x: register 0x%x %s: no register answers there in BAR0",
                       strand ? "strand" : "MMCTX list entry", load ? "load" : "save", entry, regs[i],
                       load ? "not written" : "not read"));
      return false;
    }
    ++moved;
  }
  if (!load && !mem(tlm::TLM_WRITE_COMMAND, buf, words.data(), unsigned(bytes), vm, inst, d)) {
    set_error(GRC_ERR_BUFFER, uint32_t(buf >> 8), strand,
              format("%s write at 0x%" PRIx64 " refused", vm ? "context (VM)" : "VRAM", buf));
    return false;
  }
  uint64_t& total = strand ? (load ? strand_loaded_ : strand_saved_) : (load ? mmctx_loaded_ : mmctx_saved_);
  total += moved;
  if (load) reg("MMCTX_LOAD_COUNT").value += uint32_t(moved);
  return true;
}

void CtxswUnit::set_error(uint32_t code, uint32_t addr, bool strand, const std::string& what) {
  ++errors_;
  Register& e = reg("ERROR");
  if (e.value == 0) {
    e.value = code | (strand ? GRC_ERR_STRAND_ENGINE : 0u);
    reg("ERROR_ADDR").value = addr;
  }
  last_error_ = std::string(name()) + ": " + what;
  SC_REPORT_WARNING("hetvp/gr", last_error_.c_str());
}

void CtxswUnit::raise(unsigned bit, const sc_core::sc_time& delay) {
  if (mcu_irq.size() > 0) mcu_irq->raise(bit, delay);
}

// ---- channel switch (the HUB's unit) ------------------------------------------------------------
void CtxswUnit::request_switch(uint32_t chid, uint64_t inst, const sc_core::sc_time& delay) {
  if (!cfg_.hub) {
    SC_REPORT_ERROR("hetvp/gr", (std::string(name()) + ": request_switch on a GPC unit").c_str());
    return;
  }
  if (pending_) {
    SC_REPORT_ERROR("hetvp/gr", format("%s: switch to channel %u requested while the switch to channel %u is pending",
                                       name(), chid, pending_chid_)
                                    .c_str());
    return;
  }
  pending_ = true;
  pending_chid_ = chid;
  pending_inst_ = inst;
  reg("CHAN_NEXT").value = chan_word(inst);
  pulse_at_ = sc_core::sc_time_stamp() + delay;
  HETVP_DEBUG(Gr, "CHSW raised: switch to channel %u (CHAN_NEXT 0x%08x)", chid, chan_word(inst));
  raise(MCU_IRQ_CHSW_BIT, delay);
}

bool CtxswUnit::current_channel(uint64_t& inst) const {
  const uint32_t a = bank_.at(GRH_CHAN_ADDR).value;
  if (!(a & kChanValid)) return false;
  inst = chan_inst(a);
  return true;
}

void CtxswUnit::chsw_written(uint32_t v) {
  if (!pending_ && !(bank_.at(GRH_CHAN_NEXT).value & kChanValid)) {
    // The host cleared CHAN_NEXT's valid bit and raised CHSW itself: nouveau unloads the golden
    // context that way (ctxgf100.c:1548-1549); the firmware saved and acknowledges.
    ++host_unloads_;
    acked_.notify(this_access().delay);
    return;
  }
  if (!pending_) {
    ++stray_acks_;
    SC_REPORT_WARNING("hetvp/gr", format("%s: CHSW 0x%x written with no switch pending", name(), v).c_str());
    return;
  }
  if (v & GRH_CHSW_ERROR) {
    ++switch_errors_;
    const uint32_t code = (v >> GRH_CHSW_CODE_SHIFT) & 0xff;
    std::string msg = format("context switch to channel %u (instance block at VRAM 0x%" PRIx64
                             ", CHAN_NEXT 0x%08x) failed: the HUB firmware reports %s (code %u)",
                             pending_chid_, pending_inst_, chan_word(pending_inst_), grc_err_name(code), code);
    if (!last_error_.empty() && (code == GRC_ERR_REG || code == GRC_ERR_BUFFER || code == GRC_ERR_TARGET ||
                                 code == GRC_ERR_QUEUE || code == GRC_ERR_GPC || code == GRC_ERR_HALTED))
      msg += "; last engine error: " + last_error_;
    SC_REPORT_WARNING("hetvp/gr", (std::string(name()) + ": " + msg).c_str());
    HETVP_DEBUG(Gr, "CHSW ERROR: switch to channel %u failed (code %u)", pending_chid_, code);
    run_state().fail(name(), msg);
    return;
  }
  if (!(v & GRH_CHSW_ACK)) return;
  pending_ = false;
  ++switches_;
  const sc_core::sc_time at = sc_core::sc_time_stamp() + this_access().delay;
  const double ns = (at - pulse_at_).to_seconds() * 1e9;
  p2a_min_ = switches_ == 1 ? ns : std::min(p2a_min_, ns);
  p2a_max_ = std::max(p2a_max_, ns);
  p2a_sum_ += ns;
  // The firmware wrote CHSW_FW_CYCLES and CHSW_BYTES for this switch just before the ACK.
  const uint32_t bytes = bank_.at(GRH_CHSW_BYTES).value;
  switch_bytes_ += bytes;
  HETVP_DEBUG(Gr, "CHSW ACK: channel %u after %.0f ns (%u B moved, %u firmware cycles)", pending_chid_, ns, bytes,
              bank_.at(GRH_CHSW_FW_CYCLES).value);
  switch_log_.push_back(
      {pending_chid_, pending_inst_, pulse_at_.to_seconds() * 1e9, ns, bank_.at(GRH_CHSW_FW_CYCLES).value, bytes});
  if (chsw_track_.on(tracer()))
    tracer().span(chsw_track_.name(), "switch to channel " + std::to_string(pending_chid_), pulse_at_,
                  at - pulse_at_,
                  TraceArgs().add("chid", pending_chid_).add("bytes", bytes).add("fw_cycles",
                                                                                 bank_.at(GRH_CHSW_FW_CYCLES).value));
  acked_.notify(this_access().delay);
}

void CtxswUnit::fw_cycles_written(uint32_t v) {
  ++fw_cycle_reports_;
  fw_cycles_sum_ += v;
  fw_cycles_max_ = std::max<uint64_t>(fw_cycles_max_, v);
  fw_cycles_min_ = fw_cycle_reports_ == 1 ? v : std::min<uint64_t>(fw_cycles_min_, v);
}

void CtxswUnit::declare_stats() {
  stats_.set_name(cfg_.hub ? "hub_ctxsw" : "gpc" + std::to_string(cfg_.index) + "_ctxsw");
  stats_.counter("mmctx_entries", "count", "MMCTX list entries executed", entries_)
      .value("mmctx_save_bytes", "bytes", "bytes the MMCTX engine saved (registers to VRAM)",
             [this] { return 4 * mmctx_saved_; })
      .value("mmctx_load_bytes", "bytes", "bytes the MMCTX engine restored (VRAM to registers)",
             [this] { return 4 * mmctx_loaded_; })
      .counter("strand_commands", "count", "strand SAVE / LOAD commands", strand_cmds_)
      .value("strand_save_bytes", "bytes", "bytes the strand engine saved", [this] { return 4 * strand_saved_; })
      .value("strand_load_bytes", "bytes", "bytes the strand engine restored", [this] { return 4 * strand_loaded_; })
      .time("busy_ns", "time the engines were busy", busy_time_)
      .counter("errors", "count", "engine errors (ERROR register)", errors_)
      .counter("xfers", "count", "Falcon controller xfers served (xdld / xdst / xcld through MEM_BASE)", xfers_)
      .counter("xfer_bytes", "bytes", "bytes those xfers moved", xfer_bytes_)
      .counter("skipped_restores", "count", "test-only fault: register loads skipped (test_skip_restore)", skipped_)
      .when([this] { return cfg_.has_skip; });
  if (!cfg_.hub) return;
  stats_.counter("switches", "count", "channel switches acknowledged (CHSW ACK)", switches_)
      .counter("switch_errors", "count", "switches the firmware failed (CHSW ERROR)", switch_errors_)
      .counter("stray_acks", "count", "CHSW writes with no switch pending", stray_acks_)
      .counter("chan_loads", "count", "MEM_CMD LOAD_CHAN instance-block fetches", chan_loads_)
      .counter("forced_unloads", "count", "CHSW ACKs of a host-raised unload (CHAN_NEXT invalid: the golden save)",
               host_unloads_)
      .value("pulse_to_ack_ns_min", "ns", "CHSW interrupt to ACK, shortest", [this] { return p2a_min_; })
      .value("pulse_to_ack_ns_mean", "ns", "CHSW interrupt to ACK, mean",
             [this] { return switches_ ? p2a_sum_ / double(switches_) : 0.0; })
      .value("pulse_to_ack_ns_max", "ns", "CHSW interrupt to ACK, longest", [this] { return p2a_max_; })
      .counter("fw_cycles_total", "cycles", "HUB firmware cycles in switches (CHSW_FW_CYCLES reports)", fw_cycles_sum_)
      .value("fw_cycles_mean", "cycles", "HUB firmware cycles per switch, mean",
             [this] { return fw_cycle_reports_ ? double(fw_cycles_sum_) / double(fw_cycle_reports_) : 0.0; })
      .counter("fw_cycles_min", "cycles", "HUB firmware cycles per switch, fewest", fw_cycles_min_)
      .counter("fw_cycles_max", "cycles", "HUB firmware cycles per switch, most", fw_cycles_max_)
      .counter("switch_bytes", "bytes", "context bytes the firmware reported moving in switches (CHSW_BYTES)",
               switch_bytes_)
      .record("switch_log", "",
              "one object per acknowledged switch, in order: chid, inst (VRAM, hex), pulse_ns, pulse_to_ack_ns, "
              "fw_cycles, bytes",
              [this](JsonWriter& w, const std::string& key) {
                w.begin_array(key);
                for (const SwitchRecord& r : switch_log_) {
                  w.begin_object();
                  w.value("chid", uint64_t(r.chid));
                  w.value("inst", format("0x%" PRIx64, r.inst));
                  w.value("pulse_ns", r.pulse_ns);
                  w.value("pulse_to_ack_ns", r.pulse_to_ack_ns);
                  w.value("fw_cycles", uint64_t(r.fw_cycles));
                  w.value("bytes", uint64_t(r.bytes));
                  w.end_object();
                }
                w.end_array();
              })
      .value("golden_generation_ns", "ns", "golden context generation time the driver reported (GOLDEN_NS)",
             [this] { return uint64_t(bank_.at(GRH_GOLDEN_NS).value); });
}

}  // namespace hetvp::gpu
