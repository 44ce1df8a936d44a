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
#include <algorithm>
#include <cinttypes>
#include <cstring>

#include <tlm_utils/simple_initiator_socket.h>

#include "firmware/include/hetvp/compute.h"
#include "firmware/include/hetvp/copy_engine.h"
#include "firmware/include/hetvp/fifo.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "firmware/include/hetvp/pmc.h"
#include "models/gpu/channel_tag.h"
#include "models/gpu/gpu_block.h"
#include "models/gpu/gr/chsw_if.h"
#include "platform/access_info.h"
#include "platform/config.h"
#include "platform/format.h"
#include "platform/irq.h"
#include "platform/payload.h"
#include "platform/peripheral.h"
#include "platform/run_context.h"
#include "platform/run_state.h"
#include "platform/stats.h"
#include "platform/trace.h"

namespace hetvp::gpu {
namespace {

const RegSpec kFifoRegs[] = {HETVP_REG_TABLE(HETVP_FIFO_REGS)};

std::shared_ptr<Schema> fifo_schema() {
  auto s = std::make_shared<Schema>();
  s->integer("channels", 32, "channels (GF100 has 128; nouveau gf100.c); default 32").range(1, FIFO_MAX_CHANNELS);
  s->time("timeslice", std::string("100 us"),
          "longest time a channel runs while another has work (assumption: the order of nouveau gk104's "
          "default timeslice; GF100's is not documented)");
  s->time("chsw_timeout", std::string("10 ms"),
          "a requested GR context switch not acknowledged within this is an error (assumption: generous "
          "against the microseconds a switch takes)");
  s->time("method_cost", std::string("2 ns"), "decode time of one push-buffer word (assumption: 1 cycle at 500 MHz)");
  s->size("fetch_chunk", std::string("256"), "push-buffer bytes fetched by one read (assumption)").range(8, 4096);
  s->time("engine_poll", std::string("100 ns"),
          "how often the FIFO samples an engine's STATUS while it waits for a launch or a copy (assumption)");
  s->time("acquire_poll", std::string("1 us"),
          "how often a channel blocked on a semaphore acquire re-reads the semaphore when no channel can run "
          "(assumption)");
  s->time("deadlock_timeout", std::string("10 ms"),
          "every channel with work blocked on an acquire for this long: a deadlock error (assumption)");
  s->integer("copy_engine", 0, "copy engine the copy class's LAUNCH_DMA uses").range(0, GPU_MAX_COPY_ENGINES - 1);
  s->integer("bar0", GPU_FIFO_BASE, "BAR0 offset of the FIFO's registers (PTOP_FIFO_BASE)")
      .range(GPU_WINDOW_PMC, 0xffffffffll);
  return s;
}

const char* class_name(uint32_t c) {
  return c == FIFO_CLASS_COMPUTE ? "compute" : c == FIFO_CLASS_COPY ? "copy" : "none";
}

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

struct Channel {
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

  Fifo(sc_core::sc_module_name n, GpuContext& ctx, const Params& p) : Peripheral(n, kFifoRegs) {
    nchan_ = p.u32("channels");
    timeslice_ = p.time("timeslice");
    chsw_timeout_ = p.time("chsw_timeout");
    method_cost_ = p.time("method_cost");
    fetch_chunk_ = unsigned(p.size("fetch_chunk")) & ~7u;
    engine_poll_ = p.time("engine_poll");
    acquire_poll_ = p.time("acquire_poll");
    deadlock_timeout_ = p.time("deadlock_timeout");
    copy_engine_ = p.u32("copy_engine");
    num_gpcs_ = ctx.num_gpcs;
    chans_.resize(nchan_);
    for (unsigned i = 0; i < nchan_; ++i) chans_[i].id = i;
    bank_.set_reset("CHANNELS", nchan_);
    for (unsigned i = 0; i < FIFO_MAX_CHANNELS; ++i) {
      const std::string s = std::to_string(i);
      bank_.named("CHAN_CTRL" + s).write([this, i](Register&, uint32_t v) { ctrl_written(i, v); });
      bank_.named("GP_PUT" + s).write([this, i](Register&, uint32_t v) { gp_put_written(i, v); });
      bank_.named("CHAN_STATUS" + s).read([this, i](const Register&) { return chan_status(i); });
    }
    for (auto* gp : {&mem_gp_, &inst_gp_, &bar0_gp_}) {
      auto* info = new AccessInfo;
      info->initiator = name();
      info->side = Side::Gpu;
      gp->set_extension(info);
    }
    mem_gp_.set_extension(tag_);
    mem.bind(ctx.gpu_va);
    inst.bind(ctx.vram);
    bar0.bind(ctx.bar0.in);
    intr.bind(ctx.intr);
    const uint64_t base = p.u64("bar0");
    if (base % GPU_WINDOW_FIFO)
      throw ConfigError(p.where("bar0") + ": " + hex(base) + " is not a multiple of the window size " +
                        hex(GPU_WINDOW_FIFO));
    ctx.map_window(p, "bar0", "fifo", base, GPU_WINDOW_FIFO, regs);
    ctx.topology("FIFO_BASE", uint32_t(base));
    declare_stats();
    SC_HAS_PROCESS(Fifo);
    SC_THREAD(run);
  }

  void bind(GpuContext& ctx) override {
    if (ctx.chsw) {
      chsw.bind(*ctx.chsw);
      has_chsw_ = true;
    }
  }

  StatGroup& stat_group() override { return stats_; }
  void dump_stats(JsonWriter& w) const override { stats_.dump(w); }

 private:
  // ---- registers (host side) ----
  void ctrl_written(unsigned i, uint32_t v) {
    if (i >= nchan_) return;
    Channel& c = chans_[i];
    const uint32_t iw = bank_.at(FIFO_CHAN_INST_N(i)).value;
    if (v & FIFO_CHAN_CTRL_ENABLE) {
      if (c.enabled) return;
      const unsigned id = c.id;
      c = Channel{};
      c.id = id;
      c.enabled = true;
      c.need_ramfc = true;
      c.inst = chan_inst(iw);
      if (!(iw & kChanValid)) {
        c.enabled = false;
        bank_.at(FIFO_CHAN_CTRL_N(i)).value = 0;
        run_state().fail(name(), format("channel %u enabled without a valid instance (CHAN_INST%u = 0x%08x)", i, i, iw));
        return;
      }
      bank_.at(FIFO_GP_GET_N(i)).value = 0;
      bank_.at(FIFO_GP_PUT_N(i)).value = 0;
    } else {
      c.enabled = false;
    }
  }
  void gp_put_written(unsigned i, uint32_t v) {
    if (i >= nchan_) return;
    Channel& c = chans_[i];
    const sc_core::sc_time at = this_access().arrival();
    c.put_pending.emplace_back(at, v);
    HETVP_DEBUG(Fifo, "doorbell: channel %u GP_PUT %u (arrives at %s)", i, v, at.to_string().c_str());
    doorbell_.notify(this_access().delay);  // the FIFO sees the doorbell when the write arrives
  }
  uint32_t chan_status(unsigned i) const {
    if (i >= nchan_) return 0;
    const Channel& c = chans_[i];
    return (c.has_words() ? FIFO_CHAN_PENDING : 0u) | (c.blocked ? FIFO_CHAN_BLOCKED : 0u) |
           (c.failed ? FIFO_CHAN_FAILED : 0u);
  }

  // ---- time ----
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

  // ---- bus accesses (at the local time cursor_) ----
  bool access(tlm_utils::simple_initiator_socket<Fifo>& s, tlm::tlm_generic_payload& gp, tlm::tlm_command cmd,
              uint64_t addr, void* data, unsigned len) {
    set_access(gp, cmd, addr, data, len);
    sc_core::sc_time d = local();
    s->b_transport(gp, d);
    cursor_ = sc_core::sc_time_stamp() + d;
    return gp.is_response_ok();
  }
  bool mem_access(Channel& c, tlm::tlm_command cmd, uint64_t va, void* data, unsigned len) {
    tag_->valid = true;
    tag_->chid = c.id;
    tag_->inst = c.inst;
    return access(mem, mem_gp_, cmd, va, data, len);
  }
  bool reg_write(uint32_t off, uint32_t v) { return access(bar0, bar0_gp_, tlm::TLM_WRITE_COMMAND, off, &v, 4); }
  bool reg_read(uint32_t off, uint32_t& v) { return access(bar0, bar0_gp_, tlm::TLM_READ_COMMAND, off, &v, 4); }
  // A block's BAR0 position, from PTOP (read once, untimed: configuration, as the driver's).
  uint32_t ptop(uint32_t reg) {
    uint32_t v = 0;
    set_access(bar0_gp_, tlm::TLM_READ_COMMAND, GPU_PTOP_BASE + reg, &v, 4);
    bar0->transport_dbg(bar0_gp_);
    return v;
  }

  // ---- errors ----
  void fail(Channel& c, uint32_t code, uint64_t addr, const std::string& why) {
    c.failed = true;
    ++errors_;
    if (!bank_.at(FIFO_ERROR).value) {
      bank_.at(FIFO_ERROR).value = code;
      bank_.at(FIFO_ERROR_CHAN).value = c.id;
      bank_.at(FIFO_ERROR_METHOD).value = (c.subch << 13) | cur_method_;
      bank_.at(FIFO_ERROR_ADDR_LO).value = uint32_t(addr);
      bank_.at(FIFO_ERROR_ADDR_HI).value = uint32_t(addr >> 32);
    }
    intr->raise(GPU_INTR_FIFO, local());
    run_state().fail(name(), format("channel %u (instance 0x%" PRIx64 "): ", c.id, c.inst) + why);
  }
  std::string method_text(const Channel& c, uint32_t m) const {
    return format("method 0x%04x on subchannel %u (%s)", m, c.subch, class_name(c.cls[c.subch]));
  }

  // ---- fetch ----
  bool read_ramfc(Channel& c) {
    uint32_t w[2] = {};
    if (c.inst + INST_BYTES > vram_limit() ||
        !access(inst, inst_gp_, tlm::TLM_READ_COMMAND, c.inst + INST_RAMFC_GP_BASE_LO, w, 8)) {
      fail(c, FIFO_ERR_BAD_CHANNEL, 0, format("instance block at VRAM 0x%" PRIx64 " cannot be read", c.inst));
      return false;
    }
    c.gp_base = w[0] | uint64_t(w[1] & 0xff) << 32;
    const unsigned log2 = (w[1] >> 16) & 0x1f;
    c.gp_entries = 1u << log2;
    c.need_ramfc = false;
    return true;
  }
  uint64_t vram_limit() const { return ~0ull; }  // VRAM reads outside VRAM fail on the bus

  // Next push-buffer word of the channel (false: none fetched; `failed` may be set).
  bool next_word(Channel& c, uint32_t& w, uint64_t& va) {
    while (c.buf_pos == c.buf.size()) {
      if (c.seg_words == 0) {
        if (c.gp_get == c.gp_put) arrive_puts();
        if (c.gp_get == c.gp_put) return false;
        if (c.gp_put >= c.gp_entries) {
          fail(c, FIFO_ERR_BAD_CHANNEL, 0,
               format("GP_PUT %u is outside its GPFIFO of %u entries (instance +0x4c)", c.gp_put, c.gp_entries));
          return false;
        }
        uint32_t e[2] = {};
        const uint64_t at = c.gp_base + uint64_t(c.gp_get) * GP_ENTRY_BYTES;
        ++gp_entries_;
        fetch_bytes_ += 8;
        if (!mem_access(c, tlm::TLM_READ_COMMAND, at, e, 8)) {
          fail(c, FIFO_ERR_FETCH_FAULT, at,
               format("GP entry %u at GPU VA 0x%" PRIx64 " is outside the channel's address space (%s)", c.gp_get, at,
                      mem_gp_.get_response_string().c_str()));
          return false;
        }
        c.gp_get = (c.gp_get + 1) % c.gp_entries;
        bank_.at(FIFO_GP_GET_N(c.id)).value = c.gp_get;
        c.seg_va = (e[0] & ~3u) | uint64_t(e[1] & 0xff) << 32;
        c.seg_words = (e[1] >> GP_ENTRY1_LENGTH_SHIFT) & GP_ENTRY1_LENGTH_MASK;
        HETVP_DEBUG(Fifo, "channel %u: GP entry at VA 0x%" PRIx64 " fetched: %u push-buffer words at VA 0x%" PRIx64,
                    c.id, at, c.seg_words, c.seg_va);
        continue;
      }
      const uint64_t page_left = 4096 - (c.seg_va & 4095);
      const unsigned n = unsigned(std::min<uint64_t>({uint64_t(c.seg_words) * 4, fetch_chunk_, page_left}));
      c.buf.resize(n / 4);
      ++fetches_;
      fetch_bytes_ += n;
      if (!mem_access(c, tlm::TLM_READ_COMMAND, c.seg_va, c.buf.data(), n)) {
        c.buf.clear();
        fail(c, FIFO_ERR_FETCH_FAULT, c.seg_va,
             format("push-buffer segment at GPU VA 0x%" PRIx64 " is outside the channel's address space (%s)",
                    c.seg_va, mem_gp_.get_response_string().c_str()));
        return false;
      }
      c.buf_va = c.seg_va;
      c.buf_pos = 0;
      c.seg_va += n;
      c.seg_words -= n / 4;
    }
    va = c.buf_va + 4 * c.buf_pos;
    w = c.buf[c.buf_pos++];
    cursor_ += method_cost_;
    return true;
  }

  // One word of the channel: a header, or the data of the current method.
  void step(Channel& c) {
    uint32_t w = 0;
    uint64_t va = 0;
    if (c.count == 0) {
      if (!next_word(c, w, va)) return;
      const uint32_t op = w >> FIFO_HDR_SEC_OP_SHIFT;
      c.subch = (w >> 13) & 7;
      c.mthd = (w & 0xfff) << 2;
      c.hdr_va = va;
      if (op == FIFO_SEC_OP_IMMD) {
        ++methods_;
        execute(c, c.mthd, (w >> 16) & 0x1fff);
        return;
      }
      if (op != FIFO_SEC_OP_INC && op != FIFO_SEC_OP_NON_INC && op != FIFO_SEC_OP_ONE_INC) {
        fail(c, FIFO_ERR_UNKNOWN_METHOD, va,
             format("push-buffer word 0x%08x at GPU VA 0x%" PRIx64 " is not a method header (SEC_OP %u)", w, va, op));
        return;
      }
      c.op = op;
      c.count = (w >> 16) & 0x1fff;
      return;
    }
    if (!next_word(c, w, va)) return;
    ++methods_;
    const uint32_t m = c.mthd;
    --c.count;
    if (c.op == FIFO_SEC_OP_INC) c.mthd += 4;
    if (c.op == FIFO_SEC_OP_ONE_INC) {
      c.mthd += 4;
      c.op = FIFO_SEC_OP_NON_INC;
    }
    execute(c, m, w);
  }

  void unknown(Channel& c, uint32_t m, uint32_t data) {
    fail(c, FIFO_ERR_UNKNOWN_METHOD, c.hdr_va,
         format("unknown %s (data 0x%08x) at push-buffer address 0x%" PRIx64, method_text(c, m).c_str(), data,
                c.hdr_va));
  }

  void execute(Channel& c, uint32_t m, uint32_t data) {
    cur_method_ = m;
    HETVP_DEBUG(Fifo, "channel %u: method 0x%04x = 0x%08x on subchannel %u (%s) at VA 0x%" PRIx64, c.id, m, data,
                c.subch, m < 0x100 ? "fifo" : class_name(c.cls[c.subch]), c.hdr_va);
    if (m < 0x100) return fifo_method(c, m, data);
    const uint32_t cls = c.cls[c.subch];
    if (!cls) {
      fail(c, FIFO_ERR_UNBOUND_SUBCHANNEL, c.hdr_va,
           format("method 0x%04x (data 0x%08x) on subchannel %u, which no SET_OBJECT bound, at push-buffer address "
                  "0x%" PRIx64,
                  m, data, c.subch, c.hdr_va));
      return;
    }
    if (cls == FIFO_CLASS_COMPUTE) return compute_method(c, m, data);
    return copy_method(c, m, data);
  }

  void fifo_method(Channel& c, uint32_t m, uint32_t data) {
    switch (m) {
      case FIFO_M_SET_OBJECT:
        if (data != FIFO_CLASS_COMPUTE && data != FIFO_CLASS_COPY) {
          fail(c, FIFO_ERR_UNKNOWN_METHOD, c.hdr_va,
               format("SET_OBJECT (method 0x0000) on subchannel %u of unknown class 0x%04x at push-buffer address "
                      "0x%" PRIx64,
                      c.subch, data, c.hdr_va));
          return;
        }
        c.cls[c.subch] = data;
        if (data == FIFO_CLASS_COMPUTE) {
          // The compute object of this channel: GR's address-space selection becomes the channel's.
          if (!ensure_gr(c)) return;
          compute_write(c, CMP_CHAN, chan_word(c.inst));
          compute_write(c, CMP_CHAN_ID, c.id);
        }
        return;
      case FIFO_M_SEMAPHOREA:
        c.sem_addr = (c.sem_addr & 0xffffffffull) | uint64_t(data & 0xff) << 32;
        return;
      case FIFO_M_SEMAPHOREB:
        c.sem_addr = (c.sem_addr & ~0xffffffffull) | (data & ~3u);
        return;
      case FIFO_M_SEMAPHOREC:
        c.sem_payload = data;
        return;
      case FIFO_M_SEMAPHORED: {
        const uint32_t op = data & 0xf;
        if (op == FIFO_SEM_ACQUIRE || op == FIFO_SEM_ACQ_GEQ) {
          ++acquires_;
          c.acq_op = op;
          c.acq_hdr_va = c.hdr_va;
          if (!acquire_satisfied(c)) {
            ++sem_waits_;
            c.blocked = true;
            c.blocked_since = sc_core::sc_time_stamp() + local();
            HETVP_DEBUG(Fifo, "channel %u: semaphore acquire at VA 0x%" PRIx64 " (%s 0x%08x) blocks the channel", c.id,
                        c.sem_addr, op == FIFO_SEM_ACQUIRE ? "==" : ">=", c.sem_payload);
          } else {
            HETVP_DEBUG(Fifo, "channel %u: semaphore acquire at VA 0x%" PRIx64 " (%s 0x%08x) satisfied", c.id,
                        c.sem_addr, op == FIFO_SEM_ACQUIRE ? "==" : ">=", c.sem_payload);
          }
          return;
        }
        if (op == FIFO_SEM_RELEASE) {
          ++releases_;
          // Every earlier method of the channel is complete (engines are waited for): the release
          // is ordered after them, as RELEASE_WFI asks.
          uint32_t v[4] = {c.sem_payload, 0, 0, 0};
          const uint64_t ts = uint64_t((sc_core::sc_time_stamp() + local()).to_seconds() * 1e9 + 0.5);
          v[2] = uint32_t(ts);
          v[3] = uint32_t(ts >> 32);
          const unsigned len = (data & FIFO_SEM_RELEASE_4BYTE) ? 4 : 16;
          HETVP_DEBUG(Fifo, "channel %u: semaphore release 0x%08x to VA 0x%" PRIx64 " (%u B)", c.id, c.sem_payload,
                      c.sem_addr, len);
          // Written at the FIFO's own time, not ahead of it: the host polls the value, and must not
          // see it before its time whatever the quantum.
          sync_all();
          if (!mem_access(c, tlm::TLM_WRITE_COMMAND, c.sem_addr, v, len))
            fail(c, FIFO_ERR_SEMAPHORE_FAULT, c.hdr_va,
                 format("semaphore release to GPU VA 0x%" PRIx64
                        " outside the channel's address space (SEMAPHORED at push-buffer address 0x%" PRIx64 ")",
                        c.sem_addr, c.hdr_va));
          return;
        }
        return unknown(c, m, data);
      }
      default:
        return unknown(c, m, data);
    }
  }

  // Reads the semaphore; true when the acquire may go on.
  bool acquire_satisfied(Channel& c) {
    uint32_t v = 0;
    if (!mem_access(c, tlm::TLM_READ_COMMAND, c.sem_addr, &v, 4)) {
      c.blocked = false;
      fail(c, FIFO_ERR_SEMAPHORE_FAULT, c.acq_hdr_va,
           format("semaphore acquire at GPU VA 0x%" PRIx64
                  " outside the channel's address space (SEMAPHORED at push-buffer address 0x%" PRIx64 ")",
                  c.sem_addr, c.acq_hdr_va));
      return false;
    }
    return c.acq_op == FIFO_SEM_ACQUIRE ? v == c.sem_payload : int32_t(v - c.sem_payload) >= 0;
  }

  // ---- GR ownership and the context switch ----
  bool ensure_gr(Channel& c) {
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
    bank_.at(FIFO_SWITCHES).value++;
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    HETVP_DEBUG(Fifo, "GR switch requested: from %s to channel %u (instance 0x%" PRIx64 ") for method 0x%04x",
                gr_valid_ ? format("channel %u", gr_chid_).c_str() : "no channel", c.id, c.inst, cur_method_);
    chsw->request_switch(c.id, c.inst, sc_core::SC_ZERO_TIME);
    if (chsw->switch_pending()) sc_core::wait(chsw_timeout_, chsw->switch_acked());
    if (chsw->switch_pending()) {
      fail(c, FIFO_ERR_CHSW_TIMEOUT, c.hdr_va,
           format("context switch not acknowledged within chsw_timeout (%s): pending switch of GR from %s to channel "
                  "%u (instance 0x%" PRIx64 ", CHAN_NEXT 0x%08x), requested at %s for %s at push-buffer address 0x%" PRIx64,
                  chsw_timeout_.to_string().c_str(),
                  gr_valid_ ? format("channel %u (instance 0x%" PRIx64 ")", gr_chid_, gr_inst_).c_str() : "no channel",
                  c.id, c.inst, chan_word(c.inst), start.to_string().c_str(), method_text(c, cur_method_).c_str(),
                  c.hdr_va));
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
      const std::string what = gr_valid_ ? format("GR ch%u -> ch%u", gr_chid_, c.id) : format("GR -> ch%u", c.id);
      tracer().span(std::string(name()) + ".gr", what, start, took,
                    TraceArgs().add("chid", c.id).add("inst", c.inst));
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
  bool compute_write(Channel& c, uint32_t r, uint32_t v) {
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

  void compute_method(Channel& c, uint32_t m, uint32_t data) {
    if (m >= CMPM_REG(0) && m < CMPM_LAUNCH && compute_method_reg(m - CMPM_REG(0))) {
      if (ensure_gr(c)) compute_write(c, m - CMPM_REG(0), data);
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
    if (!compute_write(c, CMP_LAUNCH, CMP_LAUNCH_GO | CMP_LAUNCH_REPORTED)) return;
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
  bool wait_idle(uint32_t status_reg, uint32_t busy, uint32_t& st) {
    for (;;) {
      sync_all();
      if (!reg_read(status_reg, st)) return false;
      if (!(st & busy)) return true;
      cursor_ += engine_poll_;
    }
  }

  // ---- copy ----
  void copy_method(Channel& c, uint32_t m, uint32_t data) {
    switch (m) {
      case COPYM_OFFSET_IN_UPPER: c.copy_src = (c.copy_src & 0xffffffffull) | uint64_t(data & 0xff) << 32; return;
      case COPYM_OFFSET_IN_LOWER: c.copy_src = (c.copy_src & ~0xffffffffull) | data; return;
      case COPYM_OFFSET_OUT_UPPER: c.copy_dst = (c.copy_dst & 0xffffffffull) | uint64_t(data & 0xff) << 32; return;
      case COPYM_OFFSET_OUT_LOWER: c.copy_dst = (c.copy_dst & ~0xffffffffull) | data; return;
      case COPYM_LINE_LENGTH_IN: c.copy_len = data; return;
      case COPYM_LAUNCH_DMA: break;
      default: return unknown(c, m, data);
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
    const uint32_t w[][2] = {{COPY_CHAN, chan_word(c.inst)},
                             {COPY_CHAN_ID, c.id},
                             {COPY_SRC_LO, uint32_t(c.copy_src)},
                             {COPY_SRC_HI, uint32_t(c.copy_src >> 32)},
                             {COPY_DST_LO, uint32_t(c.copy_dst)},
                             {COPY_DST_HI, uint32_t(c.copy_dst >> 32)},
                             {COPY_LENGTH, c.copy_len},
                             {COPY_LAUNCH, COPY_LAUNCH_GO}};
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

  // ---- the runlist ----
  // Applies the GP_PUT writes that have arrived by the FIFO's local time.
  void arrive_puts() {
    const sc_core::sc_time at = sc_core::sc_time_stamp() + local();
    for (auto& c : chans_) {
      size_t k = 0;
      while (k < c.put_pending.size() && c.put_pending[k].first <= at) c.gp_put = c.put_pending[k++].second;
      c.put_pending.erase(c.put_pending.begin(), c.put_pending.begin() + long(k));
    }
  }

  int pick() {
    arrive_puts();
    for (unsigned k = 1; k <= nchan_; ++k) {
      const unsigned i = (last_ + k) % nchan_;
      if (chans_[i].has_work() && !chans_[i].blocked) return int(i);
    }
    return -1;
  }

  void run() {
    for (;;) {
      int i = pick();
      if (i < 0) {
        // Nothing runnable: re-check blocked acquires (the host or another channel may release).
        bool any_blocked = false, released = false;
        sc_core::sc_time oldest = sc_core::sc_time_stamp();
        for (auto& c : chans_) {
          if (!c.has_work() || !c.blocked) continue;
          if (acquire_satisfied(c)) {
            c.blocked = false;
            released = true;
            const sc_core::sc_time waited = now() - c.blocked_since;
            HETVP_DEBUG(Fifo, "channel %u: semaphore acquire at VA 0x%" PRIx64 " satisfied after %s", c.id, c.sem_addr,
                        waited.to_string().c_str());
            if (in_run() && tracer().enabled())
              tracer().span(track(c), "semaphore wait", c.blocked_since, waited,
                            TraceArgs().add("addr", c.sem_addr).add("payload", c.sem_payload));
          } else if (!c.failed) {
            any_blocked = true;
            oldest = std::min(oldest, c.blocked_since);
          }
        }
        sync_all();
        if (released) continue;
        if (any_blocked && sc_core::sc_time_stamp() - oldest >= deadlock_timeout_) {
          report_deadlock();
          sc_core::wait(doorbell_);
          continue;
        }
        sc_core::sc_time next_put = sc_core::SC_ZERO_TIME;
        for (auto& c : chans_)
          if (!c.put_pending.empty() && (next_put == sc_core::SC_ZERO_TIME || c.put_pending.front().first < next_put))
            next_put = c.put_pending.front().first;
        const sc_core::sc_time now = sc_core::sc_time_stamp();
        if (next_put != sc_core::SC_ZERO_TIME && next_put > now)
          sc_core::wait(any_blocked ? std::min(acquire_poll_, next_put - now) : next_put - now, doorbell_);
        else if (next_put != sc_core::SC_ZERO_TIME)
          sc_core::wait(sc_core::SC_ZERO_TIME);
        else if (any_blocked)
          sc_core::wait(acquire_poll_, doorbell_);
        else
          sc_core::wait(doorbell_);
        cursor_ = sc_core::sc_time_stamp();
        continue;
      }
      run_channel(chans_[i]);
      last_ = unsigned(i);
      run_state().progress();
    }
  }

  void report_deadlock() {
    std::string who;
    Channel* first = nullptr;
    for (auto& c : chans_) {
      if (!c.has_work() || !c.blocked || c.failed) continue;
      if (!first) first = &c;
      who += format("%schannel %u (instance 0x%" PRIx64 ") waits at SEMAPHORED (method 0x001c, subchannel %u) at "
                    "push-buffer address 0x%" PRIx64 " for %s 0x%08x at GPU VA 0x%" PRIx64,
                    who.empty() ? "" : "; ", c.id, c.inst, c.subch, c.acq_hdr_va,
                    c.acq_op == FIFO_SEM_ACQUIRE ? "value ==" : "value >=", c.sem_payload, c.sem_addr);
    }
    if (!first) return;
    cur_method_ = FIFO_M_SEMAPHORED;
    fail(*first, FIFO_ERR_DEADLOCK, first->acq_hdr_va,
         format("deadlock: every channel with work has been blocked on a semaphore acquire for %s (deadlock_timeout): ",
                deadlock_timeout_.to_string().c_str()) +
             who);
    for (auto& c : chans_)
      if (c.blocked) c.failed = true;
  }

  void run_channel(Channel& c) {
    ++timeslices_;
    HETVP_DEBUG(Fifo, "runlist: channel %u gets the engines (after channel %d)", c.id,
                last_ran_ == ~0u ? -1 : int(last_ran_));
    if (c.id != last_ran_) ++channel_changes_;
    last_ran_ = c.id;
    const sc_core::sc_time start = now(), end = start + timeslice_;
    const uint64_t methods = methods_, entries = gp_entries_;
    tracing_ = in_run() && tracer().enabled();
    inner_.clear();
    if (!c.need_ramfc || read_ramfc(c)) {
      while (c.enabled && !c.failed && !c.blocked && c.has_words()) {
        step(c);
        if (sc_core::sc_time_stamp() + local() >= end && others_have_work(c)) break;
        sync_quantum();
      }
      sync_all();
    }
    if (!tracing_) return;
    // The timeslice first, then what happened in it (reported in start order, so they nest).
    const sc_core::sc_time stop = std::max(now(), start);
    tracer().span(track(c), "timeslice", start, stop - start,
                  TraceArgs()
                      .add("methods", methods_ - methods)
                      .add("gp_entries", gp_entries_ - entries)
                      .add("blocked", c.blocked ? 1u : 0u));
    for (const InnerSpan& s : inner_) tracer().span(track(c), s.what, s.start, s.duration, s.args);
    inner_.clear();
    tracing_ = false;
  }

  // ---- tracing (one track per channel: "gpu0.fifo.ch3") ----
  sc_core::sc_time now() { return sc_core::sc_time_stamp() + local(); }
  std::string track(const Channel& c) const { return std::string(name()) + ".ch" + std::to_string(c.id); }
  // A span inside the current timeslice, written after it (so it nests as a complete event).
  void inner_span(const char* what, const sc_core::sc_time& start, const std::string& args) {
    inner_span(std::string(what), start, args);
  }
  void inner_span(std::string what, const sc_core::sc_time& start, const std::string& args) {
    if (tracing_) inner_.push_back({std::move(what), start, now() - start, args});
  }
  bool others_have_work(const Channel& me) {
    arrive_puts();
    for (auto& c : chans_)
      if (&c != &me && c.has_work()) return true;
    return false;
  }

  void declare_stats() {
    stats_.set_name("fifo");
    stats_.counter("methods", "count", "methods executed", methods_)
        .counter("gp_entries", "count", "GP entries fetched", gp_entries_)
        .counter("fetches", "count", "push-buffer reads", fetches_)
        .counter("fetch_bytes", "bytes", "GP entry and push-buffer bytes fetched", fetch_bytes_)
        .counter("timeslices", "count", "times the runlist gave a channel the engines", timeslices_)
        .counter("channel_changes", "count", "timeslices given to a different channel than the previous one",
                 channel_changes_)
        .counter("switches_requested", "count", "GR context switches requested (CHSW)", switches_)
        .time("switch_wait_ns", "time from CHSW request to ACK, summed", switch_wait_)
        .time("switch_wait_max_ns", "longest time from CHSW request to ACK", switch_max_)
        .counter("launches", "count", "compute LAUNCH methods", launches_)
        .counter("copies", "count", "copy LAUNCH_DMA methods", copies_)
        .counter("semaphore_acquires", "count", "semaphore acquires", acquires_)
        .counter("semaphore_waits", "count", "acquires that blocked their channel", sem_waits_)
        .counter("semaphore_releases", "count", "semaphore releases", releases_)
        .counter("errors", "count", "channel errors", errors_);
  }

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
           switches_ = 0, launches_ = 0, copies_ = 0, acquires_ = 0, sem_waits_ = 0, releases_ = 0, errors_ = 0;
  sc_core::sc_time switch_wait_, switch_max_;
  struct InnerSpan {
    std::string what;
    sc_core::sc_time start, duration;
    std::string args;
  };
  bool tracing_ = false;           // the current timeslice is traced
  std::vector<InnerSpan> inner_;  // its launches, copies and switches, written when it ends
  StatGroup stats_;
};

}  // namespace

HETVP_REGISTER_GPU_BLOCK("fifo", "FIFO engine: channels, GPFIFO/push-buffer methods, semaphores, runlist (docs/contexts.md)",
                         fifo_schema, [](GpuContext& ctx, const Params& p) -> std::unique_ptr<GpuBlock> {
                           return std::make_unique<Fifo>("fifo", ctx, p);
                         });

}  // namespace hetvp::gpu
