#include "models/gpu/compute/compute.h"

#include <cinttypes>
#include <cstring>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/cache/cache.h"
#include "models/coherence/cache_controller.h"
#include "models/coherence/coherence_regs.h"
#include "platform/channel_tag.h"
#include "models/gpu/coalescer.h"
#include "models/gpu/compute/kernel_id.h"
#include "models/gpu/compute/ptx/limits.h"
#include "models/gpu/compute/ptx_unit.h"
#include "models/gpu/gpu_block.h"
#include "platform/access_info.h"
#include "platform/config.h"
#include "platform/payload.h"
#include "platform/peripheral.h"
#include "platform/run_context.h"
#include "platform/format.h"

namespace hetvp::gpu {

namespace {
static_assert(CMP_PARAM_MAX == ptx::kMaxParamBytes, "the launch carries what a kernel may take");
const RegSpec kComputeRegs[] = {HETVP_REG_TABLE(HETVP_COMPUTE_REGS)};
const RegSpec kComputeGpcRegs[] = {HETVP_REG_TABLE(HETVP_COMPUTE_GPC_REGS)};

// GPC n's compute state (compute.h HETVP_COMPUTE_GPC_REGS): plain registers, read by the front end
// at launch. A window per GPC, as Fermi's per-GPC registers are.
class GpcState : public Peripheral {
 public:
  explicit GpcState(sc_core::sc_module_name n) : Peripheral(n, kComputeGpcRegs) {}
  uint64_t cb() const { return uint64_t(bank_.at(CMP_GPC_CB_LO).value) | uint64_t(bank_.at(CMP_GPC_CB_HI).value) << 32; }
  uint32_t cb_size() const { return bank_.at(CMP_GPC_CB_SIZE).value; }
};

HETVP_ENUM(CoalescerMode, caching, non_caching);
HETVP_ENUM(ProbeWalk, serial, parallel);
HETVP_ENUM(ComputeArch, sm_20, sm_30, sm_35);

// The PTX architecture of a chip's SMs (CUDA compute capability): Fermi 2.0, GK104 3.0, GK110/GK208
// 3.5; hetvp's own GPU (no gpu0.chip) is GF100-class.
ptx::Arch chip_arch(const GpuChip* chip) {
  if (!chip) return ptx::Arch::Sm20;
  const std::string n = chip->name;
  if (n == "gk104") return ptx::Arch::Sm30;
  if (n == "gk110" || n == "gk208") return ptx::Arch::Sm35;
  return ptx::Arch::Sm20;
}

// The compute block's parameters (gpu.compute).
struct ComputeConfig : ParamSet {
  Int<unsigned> units{this, "units", 4, "compute units (each with its own TCP)", Range{1, 64}};
  Freq clock{this, "clock", "1 GHz", "compute unit clock"};
  // A dumped configuration must not pin Fermi's mode on a Kepler chip: only when given.
  Enum<CoalescerMode> coalescer{
      this, "coalescer", CoalescerMode::caching,
      "global-load mode (SPEC §8, docs/kepler.md): caching = through the TCP (L1) in 128 B units; non_caching = "
      "L1 bypassed, 32 B segments to the TCC (L2). Not given: the chip's (gpu0.chip: Kepler non_caching, else "
      "caching). Local-memory loads are always caching",
      OnlyWhenGiven{}};
  Int<unsigned> issue_cycles{this, "issue_cycles", 4, "cycles to issue a memory instruction", Min{0}};
  Int<unsigned> replay_cycles{this, "replay_cycles", 2, "extra issue cycles per replayed transaction", Min{0}};
  Bool tcp_invalidate_on_launch{this, "tcp_invalidate_on_launch", true,
                                "flash-invalidate every TCP when a kernel starts (agent-scope acquire, as gem5's VIPER "
                                "TCP): the TCPs of different units are not coherent with each other"};
  Time launch{this, "launch", "2 us", "kernel launch overhead (command processing to the first warp)"};
  // Not given: the chip's (a dumped configuration must not pin one chip's on another).
  Enum<ComputeArch> arch{this, "arch", ComputeArch::sm_20,
                         "PTX architecture of the compute units (issue costs, what modules they run; CMP_ARCH). Not "
                         "given: the chip's (gf100/gf117 sm_20, gk104 sm_30, gk110/gk208 sm_35; no chip: sm_20)",
                         OnlyWhenGiven{}};
  Size icache{this, "icache", "8 KiB",
              "per-unit instruction cache, 4 ways of 128-byte lines, filled from the TCC (assumption: the size of "
              "Fermi's and Kepler's per-SM instruction cache is not in SPEC §12)",
              Range{128, 1 << 20}};
  Size shared_memory{this, "shared_memory", "48 KiB",
                     "shared memory a block may use (CUDA C Programming Guide v4.2 F.1: 48 KB on 2.x and 3.x)",
                     Range{0, 1 << 20}};
  Enum<ProbeWalk> probe_walk{this, "probe_walk", ProbeWalk::serial,
                             "how the GPU cache controller checks a probed line: serial = TCP0..TCPn-1 then the TCC, "
                             "one tag access after the other (one probe port; the thesis' accounting adds every "
                             "cache's tag time); parallel = all TCPs at once, then the TCC"};
  // GPU caches: TCP write-through/no-allocate (as GCN's vector L1), TCC write-back.
  Group<cache::CacheConfig> tcp{
      this, "tcp", "per-unit L1 (gem5 APU: tag access 4 cycles at 1 GHz); non-caching global loads pass through it",
      [](cache::CacheConfig& c) { gpu_cache_defaults(c, "16 KiB", 4, 4, cache::WritePolicy::write_through, false, true); }};
  Group<cache::CacheConfig> tcc{
      this, "tcc", "shared L2 (gem5 APU: tag access 2 cycles at 1 GHz)",
      [](cache::CacheConfig& c) { gpu_cache_defaults(c, "256 KiB", 16, 2, cache::WritePolicy::write_back, true, false); }};
  Group<coherence::CacheControllerConfig> controller{
      this, "controller", "GPU cache controller (levels/side/dir_base are set by the block)"};
  Int<uint32_t> bar0{this, "bar0", GPU_COMPUTE_BASE, "BAR0 offset of the compute front end's registers (PTOP_COMPUTE_BASE)",
                     Range{GPU_WINDOW_PMC, 0xffffffffll}};
  Int<uint32_t> cc_bar0{this, "cc_bar0", GPU_CC_BASE,
                        "BAR0 offset of the GPU cache controller's registers (PTOP_CC_BASE)",
                        Range{GPU_WINDOW_PMC, 0xffffffffll}};
  Int<uint32_t> gpc_bar0{this, "gpc_bar0", GPU_COMPUTE_GPC_BASE,
                         "BAR0 offset of GPC 0's compute state (constant-buffer binding; GPC n at + n * 0x8000; "
                         "PTOP_COMPUTE_GPC_BASE)",
                         Range{GPU_WINDOW_PMC, 0xffffffffll}};

  // The windows other blocks need (gpu_block.h facts): the gr block's strands and test hooks, the
  // Falcon controllers' check of PGRAPH 0x404170.
  void publish(GpuFacts& f) const {
    f.compute = GpuFacts::ComputeWindows{bar0, bar0.given() ? bar0.where() : "", gpc_bar0};
  }

 private:
  static void gpu_cache_defaults(cache::CacheConfig& c, const char* size, unsigned ways, unsigned tag_cycles,
                                 cache::WritePolicy policy, bool allocate, bool gpu_l1) {
    c.size.set_default(size);
    c.ways.set_default(ways);
    c.tag_cycles.set_default(tag_cycles);
    c.clock.set_default("1 GHz");
    c.write_policy.set_default(policy);
    c.write_allocate.set_default(allocate);
    c.gpu_l1.set_default(gpu_l1);
  }
};

class ComputeBlock : public GpuBlock, public HasStats, public Peripheral, public RunMember, public UnitPort {
 public:
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<ComputeBlock>>> port;
  tlm_utils::simple_initiator_socket<ComputeBlock> code{"code"};  // the instruction path (UnitPort::code_read)
  IrqPort intr{"intr"};

  ComputeBlock(sc_core::sc_module_name n, GpuContext& ctx, const ComputeConfig& p) : Peripheral(n, kComputeRegs) {
    units_ = p.units;
    cycle_ = p.clock.period();
    // The chip's memory path unless the YAML says (#25: Kepler global loads bypass L1, docs/kepler.md).
    caching_ = global_load_mode(ctx.chip, p.coalescer.given() ? p.coalescer.word() : "") == AccessMode::CachingLoad;
    issue_ = cycle_ * static_cast<double>(p.issue_cycles);
    replay_ = cycle_ * static_cast<double>(p.replay_cycles);
    launch_cost_ = p.launch;
    tcp_flash_ = p.tcp_invalidate_on_launch;
    unit_timing_.arch = p.arch.given() ? ptx::Arch(int(p.arch())) : chip_arch(ctx.chip);
    unit_timing_.cycle = cycle_;
    unit_timing_.replay_cycles = double(p.replay_cycles);
    unit_timing_.icache_bytes = p.icache;
    shared_limit_ = p.shared_memory;
    bank_.at(CMP_ARCH).value = unit_timing_.arch == ptx::Arch::Sm20 ? 20 : unit_timing_.arch == ptx::Arch::Sm30 ? 30 : 35;
    // The payload owns its extension from here on, also when a configuration error below throws.
    info_->initiator = name();
    info_->side = Side::Gpu;
    gp_.set_extension(info_);
    gp_.set_extension(chan_);
    build_caches(ctx, p);
    map_windows(ctx, p);
    intr.bind(ctx.intr);

    // Reads are served as of SystemC time (no catch-up): the coherence runtime's polls keep the
    // first wave's timing.
    read_timing(ReadTiming::AsIssued);
    on_write("LAUNCH", &ComputeBlock::launch);
    declare_stats();
    SC_HAS_PROCESS(ComputeBlock);
    SC_THREAD(run);
  }

  // The BAR0 windows of the front end and the cache controller, where the group's keys put them;
  // PTOP tells software where that is.
  void map_windows(GpuContext& ctx, const ComputeConfig& p) {
    for (const Int<uint32_t>* base : {&p.bar0, &p.cc_bar0})
      if (*base % GPU_WINDOW_COMPUTE)
        throw ConfigError(base->where() + ": " + hex(*base) + " is not a multiple of the window size " +
                          hex(GPU_WINDOW_COMPUTE));
    static_assert(GPU_WINDOW_COMPUTE == GPU_WINDOW_CC, "one alignment check for both windows");
    ctx.map_window(p.bar0, "compute", p.bar0, GPU_WINDOW_COMPUTE, regs);
    ctx.map_window(p.cc_bar0, "gpu_cc", p.cc_bar0, GPU_WINDOW_CC, cc_->regs);
    ctx.topology("COMPUTE_BASE", p.bar0);
    ctx.topology("CC_BASE", p.cc_bar0);
    const uint64_t gpc_base = p.gpc_bar0;
    if (gpc_base % GPU_WINDOW_COMPUTE_GPC)
      throw ConfigError(p.gpc_bar0.where() + ": " + hex(gpc_base) + " is not a multiple of the window size " +
                        hex(GPU_WINDOW_COMPUTE_GPC));
    for (unsigned g = 0; g < ctx.num_gpcs; ++g) {
      gpc_.push_back(std::make_unique<GpcState>(("gpc_state" + std::to_string(g)).c_str()));
      ctx.map_window(p.gpc_bar0, gpc_.back()->basename(), gpc_base + uint64_t(g) * GPU_GPC_STRIDE,
                     GPU_WINDOW_COMPUTE_GPC, gpc_.back()->regs);
    }
    ctx.topology("COMPUTE_GPC_BASE", p.gpc_bar0);
  }

  // The CU -> TCP -> TCC -> GPU VA data path and the GPU cache controller that probes those caches.
  void build_caches(GpuContext& ctx, const ComputeConfig& p) {
    // Walk stage of each cache the controller probes (level i = TCP i, level units_ = TCC).
    const bool serial = p.probe_walk == ProbeWalk::serial;
    std::vector<unsigned> stages(units_, 0);
    if (serial)
      for (unsigned i = 0; i < units_; ++i) stages[i] = i;
    stages.push_back(serial ? units_ : 1);
    cc_ = std::make_unique<coherence::CacheController>("gpu_cc", p.controller, stages, Side::Gpu);
    tcc_ = std::make_unique<cache::Cache>("tcc", p.tcc);
    tcc_->out.bind(ctx.gpu_va);
    for (unsigned i = 0; i < units_; ++i) {
      tcp_.push_back(std::make_unique<cache::Cache>(("tcp" + std::to_string(i)).c_str(), p.tcp));
      port.emplace_back(new tlm_utils::simple_initiator_socket<ComputeBlock>(("cu" + std::to_string(i)).c_str()));
      port.back()->bind(cc_->in);
      cc_->out.bind(tcp_.back()->in);
      tcp_.back()->out.bind(tcc_->in);
      cc_->level[i]->bind(tcp_.back()->ctl);
      units_ptx_.push_back(std::make_unique<PtxUnit>(*this, i, unit_timing_));
    }
    cc_->level[units_]->bind(tcc_->ctl);
    cc_->dir.bind(ctx.gpu_va);
    code.bind(ctx.gpu_va);
  }

  // LAUNCH written: the kernel starts when the doorbell arrives.
  void launch(uint32_t v) {
    if (!(v & CMP_LAUNCH_GO)) return;
    if (running_) {
      run_state().fail(name(), "LAUNCH (BAR0 0x404014) while a kernel is running");
      return;
    }
    running_ = true;
    launch_flags_ = v;
    bank_.at(CMP_STATUS).value = CMP_STATUS_BUSY;
    launch_at_ = this_access().arrival();
    go_.notify(this_access().delay);
  }

  void dump_stats(JsonWriter& w) const override { stats_.dump(w); }
  StatGroup& stat_group() override { return stats_; }

  void declare_stats() {
    stats_.counter("kernels", "count", "kernels run", kernels_)
        .counter("warps", "count", "warps executed", warps_);
    stats_.group("coalescer")
        .value("mode", "", "coalescer mode (caching or non_caching)",
               [this] { return caching_ ? "caching" : "non_caching"; })
        .counter("load_instructions", "count", "warp load instructions", loads_)
        .counter("store_instructions", "count", "warp store instructions", stores_)
        .counter("load_transactions", "count", "memory transactions issued for loads", load_tx_)
        .counter("store_transactions", "count", "memory transactions issued for stores", store_tx_)
        .counter("load_replays", "count", "load instruction replays (one per extra transaction)", load_replays_)
        .counter("store_replays", "count", "store instruction replays (one per extra transaction)", store_replays_)
        .counter("local_load_instructions", "count", "warp load instructions from local memory (always via L1)",
                 local_loads_)
        .counter("local_load_transactions", "count", "memory transactions issued for local-memory loads", local_load_tx_)
        .counter("l1_bypassed_load_transactions", "count",
                 "global-load transactions sent past the TCP (L1) to the TCC (non_caching: Kepler)", bypass_tx_)
        .value("transactions", "count", "load + store transactions", [this] { return load_tx_ + store_tx_; })
        .value("replays", "count", "load + store replays", [this] { return load_replays_ + store_replays_; });
    stats_.group("ptx")
        .counter("warp_instructions", "count", "PTX warp instructions executed", ptx_warp_instr_)
        .counter("thread_instructions", "count", "PTX thread instructions executed (active lanes)", ptx_thread_instr_)
        .value("icache_hits", "count", "instruction fetches that hit the unit's instruction cache",
               [this] { return sum_units(&PtxUnit::Counters::icache_hits); })
        .value("icache_misses", "count", "instruction fetches that missed (a line from the TCC)",
               [this] { return sum_units(&PtxUnit::Counters::icache_misses); })
        .value("shared_accesses", "count", "warp shared-memory accesses",
               [this] { return sum_units(&PtxUnit::Counters::shared_accesses); })
        .value("shared_replays", "count", "shared-memory replays (bank conflicts)",
               [this] { return sum_units(&PtxUnit::Counters::shared_replays); })
        .value("atomic_lanes", "count", "lanes of global atomics (each a read and a write at the TCC)",
               [this] { return sum_units(&PtxUnit::Counters::atomic_lanes); });
    stats_.counter("uncached_accesses", "count", "uncached (system-scope) accesses", uncached_)
        .counter("tcp_lines_flash_invalidated", "lines", "TCP lines invalidated at kernel launch", tcp_flashed_)
        .time("busy_ns", "time a kernel was running", busy_time_)
        .add(cc_->stats())
        .add(tcc_->stats());
    for (auto& t : tcp_) stats_.add(t->stats());
  }

  // ---- the units' memory path ----
  bool access(unsigned cu, tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len, bool uncached,
              sc_core::sc_time& cursor) {
    set_access(gp_, cmd, addr, data, len);
    info_->uncached = uncached;
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    sc_core::sc_time d = cursor > now ? cursor - now : sc_core::SC_ZERO_TIME;
    (*port[cu])->b_transport(gp_, d);
    cursor = now + d;
    if (!gp_.is_response_ok()) {
      std::string buf = format("kernel '%s': %s %s of %u bytes at GPU VA 0x%" PRIx64 " failed: %s", kname_.c_str(),
                               uncached ? "uncached" : "cached", cmd == tlm::TLM_READ_COMMAND ? "load" : "store", len,
                               addr, gp_.get_response_string().c_str());
      kernel_error(3, buf, addr);
      return false;
    }
    return true;
  }

  // UnitPort: the PTX units' memory path.
  bool warp_mem(unsigned cu, sc_core::sc_time& cursor, bool store, bool local, const ptx::LaneArray<uint64_t>& addr,
                uint32_t mask, unsigned size, uint8_t* data) override {
    if (error_) return false;
    WarpRequest req;
    req.addr = addr;
    req.active = mask;
    req.size = size;
    // Local-memory loads are L1's (caching) on every chip; global loads follow the chip's memory path:
    // non-caching = the TCP is bypassed (Kepler), caching = through it (Fermi). Stores: the same on both.
    req.mode = store ? AccessMode::Store : (caching_ || local) ? AccessMode::CachingLoad : AccessMode::NonCachingLoad;
    const bool bypass = req.mode == AccessMode::NonCachingLoad;
    // Alignment by a mask for the power-of-two sizes (all the valid ones): a 64-bit divide per
    // lane was a third of this function's time (#31).
    const bool pow2 = size && (size & (size - 1)) == 0;
    for (unsigned l = 0; l < ptx::kWarpLanes; ++l)
      if ((mask >> l & 1) && (pow2 ? addr[l] & (size - 1) : addr[l] % size)) {
        std::string buf = format("kernel '%s': lane %u %s at misaligned address 0x%" PRIx64, kname_.c_str(), l,
                                 store ? "store" : "load", addr[l]);
        kernel_error(4, buf);
        return false;
      }
    CoalesceResult& r = coalesced_;  // reused: no allocation per instruction
    coalesce(req, r);
    (store ? stores_ : loads_) += 1;
    (store ? store_tx_ : load_tx_) += r.transactions.size();
    (store ? store_replays_ : load_replays_) += r.replays;
    if (!store && local) {
      ++local_loads_;
      local_load_tx_ += r.transactions.size();
    }
    if (bypass) bypass_tx_ += r.transactions.size();
    const sc_core::sc_time start = cursor + issue_;
    sc_core::sc_time end = start;
    uint8_t buf[128];
    // Only the coherence checker reads the consumed-bytes map (checker.h): built when it is on.
    if (!checker_) checker_ = &run_context().service<coherence::Checker>();
    const bool checked = checker_->enabled();
    for (size_t k = 0; k < r.transactions.size(); ++k) {
      const MemTransaction& t = r.transactions[k];
      sc_core::sc_time at = start + replay_ * static_cast<double>(k);
      if (!store) {
        // The bytes the transaction's lanes use (for the coherence checker: the rest of the
        // segment may be stale in this unit's TCP, legitimately, within a kernel).
        uint8_t used[128];
        if (checked) {
          std::memset(used, 0, t.bytes);
          for (unsigned l = 0; l < ptx::kWarpLanes; ++l)
            if (t.lanes >> l & 1) std::memset(used + (addr[l] - t.addr), 1, size);
        }
        sc_core::sc_time c = at;
        info_->consumed = checked ? used : nullptr;
        info_->l1_bypass = bypass;
        const bool ok = access(cu, tlm::TLM_READ_COMMAND, t.addr, buf, t.bytes, false, c);
        info_->consumed = nullptr;
        info_->l1_bypass = false;
        if (!ok) return false;
        if (c > end) end = c;
        for (unsigned l = 0; l < ptx::kWarpLanes; ++l)
          if (t.lanes >> l & 1) std::memcpy(data + l * size, buf + (addr[l] - t.addr), size);
      } else {
        // Byte mask of the transaction; later lanes win. Contiguous runs are written.
        uint8_t mask_b[128] = {};
        for (unsigned l = 0; l < ptx::kWarpLanes; ++l)
          if (t.lanes >> l & 1) {
            std::memcpy(buf + (addr[l] - t.addr), data + l * size, size);
            std::memset(mask_b + (addr[l] - t.addr), 1, size);
          }
        for (unsigned b = 0; b < t.bytes;) {
          if (!mask_b[b]) {
            ++b;
            continue;
          }
          unsigned e = b;
          while (e < t.bytes && mask_b[e]) ++e;
          sc_core::sc_time c = at;
          if (!access(cu, tlm::TLM_WRITE_COMMAND, t.addr + b, buf + b, e - b, false, c)) return false;
          if (c > end) end = c;
          b = e;
        }
      }
    }
    cursor = end;
    return true;
  }
  bool code_read(sc_core::sc_time& cursor, uint64_t va, uint8_t* data, unsigned len) override {
    if (error_) return false;
    set_access(gp_, tlm::TLM_READ_COMMAND, va, data, len);
    info_->uncached = false;
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    sc_core::sc_time d = cursor > now ? cursor - now : sc_core::SC_ZERO_TIME;
    code->b_transport(gp_, d);
    cursor = now + d;
    if (gp_.is_response_ok()) return true;
    kernel_error(CMP_ERR_MEMORY_FAULT,
                 format("kernel '%s': instruction fetch of %u bytes at GPU VA 0x%" PRIx64 " failed: %s", kname_.c_str(),
                        len, va, gp_.get_response_string().c_str()),
                 va);
    return false;
  }
  bool l2_access(unsigned cu, sc_core::sc_time& cursor, bool store, uint64_t va, uint8_t* data, unsigned len) override {
    if (error_) return false;
    info_->l1_bypass = !store;
    const bool ok = access(cu, store ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, va, data, len, false, cursor);
    info_->l1_bypass = false;
    return ok;
  }
  bool system_access(unsigned cu, sc_core::sc_time& cursor, bool store, uint64_t va, uint8_t* data,
                     unsigned len) override {
    if (error_) return false;
    ++uncached_;
    cursor += issue_;
    const bool ok = access(cu, store ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, va, data, len, true, cursor);
    sync(cursor);
    return ok;
  }
  void kernel_error(uint32_t code, const std::string& why, uint64_t va = 0) {
    if (error_) return;
    error_ = code;
    error_va_ = va;
    // Launched by the FIFO: it reports the failure with the channel, method and push-buffer address.
    if (launch_flags_ & CMP_LAUNCH_REPORTED) return;
    run_state().fail(name(), chan_->valid ? why + format(" (channel %u, instance 0x%" PRIx64 ")", chan_->chid, chan_->inst) : why);
  }
  // Keeps this thread within a quantum of SystemC time.
  void sync(const sc_core::sc_time& t) {
    const sc_core::sc_time q = tlm::tlm_global_quantum::instance().get();
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (t > now + q) sc_core::wait(t - now);
  }

 private:

  void run() {
    for (;;) {
      sc_core::wait(go_);
      const sc_core::sc_time start = sc_core::sc_time_stamp();
      error_ = 0;
      ++kernels_;
      const uint32_t id = bank_.at(CMP_KERNEL).value;
      const uint32_t gyz = bank_.at(CMP_GRID_Y).value, byz = bank_.at(CMP_BLOCK_Y).value;
      const ptx::Dim3 grid{bank_.at(CMP_GRID_X).value, CMP_DIM_Y(gyz), CMP_DIM_Z(gyz)};
      const ptx::Dim3 block{bank_.at(CMP_BLOCK_X).value, CMP_DIM_Y(byz), CMP_DIM_Z(byz)};
      uint32_t args[CMP_ARGS + 1] = {};
      for (unsigned i = 0; i < CMP_ARGS; ++i) args[i] = bank_.at(CMP_ARG + 4 * i).value;
      const uint32_t chan = bank_.at(CMP_CHAN).value;
      chan_->valid = (chan & 0x80000000u) != 0;
      chan_->inst = uint64_t(chan & 0x0fffffffu) << 12;
      chan_->chid = bank_.at(CMP_CHAN_ID).value;
      const uint64_t module = bank_.at(CMP_MODULE_LO).value | uint64_t(bank_.at(CMP_MODULE_HI).value) << 32;
      kname_ = format("0x%08x", id);
      cb_done_ = start + launch_cost_;
      // Every kernel is a function of a PTX module the driver loaded (docs/gpu_kernels.md).
      if (!module)
        kernel_error(CMP_ERR_UNKNOWN_KERNEL, format("LAUNCH of kernel id 0x%08x with no module (CMP_MODULE = 0): a "
                                                    "kernel is a function of a loaded PTX module",
                                                    id));
      else
        load_constant_buffers(cb_done_);
      if (!error_) run_ptx(module, id, grid, block, args);
      sc_core::sc_time end = sc_core::sc_time_stamp();
      for (auto& u : units_ptx_) end = std::max(end, u->cursor);
      if (end > sc_core::sc_time_stamp()) sc_core::wait(end - sc_core::sc_time_stamp());
      if (chan_->valid)
        end_of_channel_kernel();
      else if (launch_flags_ & CMP_LAUNCH_RELEASE)
        release_tcc();
      busy_time_ += sc_core::sc_time_stamp() - start;
      bank_.at(CMP_ERROR).value = error_;
      bank_.at(CMP_ERROR_ADDR_LO).value = uint32_t(error_va_);
      bank_.at(CMP_ERROR_ADDR_HI).value = uint32_t(error_va_ >> 32);
      bank_.at(CMP_STATUS).value = error_ ? 2 : 0;
      bank_.at(CMP_COMPLETED).value++;
      running_ = false;
      run_state().progress();
      if (launch_flags_ & 2) intr->raise(GPU_INTR_COMPUTE, sc_core::SC_ZERO_TIME);
    }
  }

  // A launch of kernel `id` of the module image at `va`: blocks round-robin over the units, each
  // block's warps interleaved by the executor (bar.sync), a unit's blocks one after the other; the GPC's constant buffer is the kernel's constant bank 1.
  void run_ptx(uint64_t va, uint32_t id, ptx::Dim3 grid, ptx::Dim3 block, const uint32_t* args) {
    sc_core::sc_time at = cb_done_;
    std::string why;
    const UnitModule* m = modules_.get(*this, at, chan_->valid ? chan_->inst : 0, va, &why);
    if (!m) {
      if (!why.empty()) kernel_error(CMP_ERR_KERNEL, why, va);
      return;
    }
    const ptx::Module& mod = *m->module;
    const ptx::FunctionInfo* k = nullptr;
    std::string names;
    for (const ptx::FunctionInfo& f : mod.kernels()) {
      if (kernel_id(f.name) == id) k = &f;
      names += (names.empty() ? "" : ", ") + f.name;
    }
    if (!k) {
      kernel_error(CMP_ERR_UNKNOWN_KERNEL, format("LAUNCH of kernel id 0x%08x (KERNEL): the module at GPU VA 0x%" PRIx64
                                                  " has no such kernel (kernels: %s)",
                                                  id, va, names.c_str()));
      return;
    }
    kname_ = k->name;
    const uint32_t dyn_shared = bank_.at(CMP_SHARED).value;
    const uint64_t threads = block.count();
    std::string bad = ptx::check_launch_dims(unit_timing_.arch, grid, block);
    if (bad.empty()) bad = resources_error(*m, *k, uint32_t(threads), dyn_shared);
    if (!bad.empty()) return kernel_error(CMP_ERR_BAD_DIMS, "kernel '" + kname_ + "': " + bad);
    std::vector<uint8_t> params;
    if (!read_params(*k, args, at, params)) return;

    ptx::Launch base;
    base.module = &mod;
    base.kernel = mod.kernel_index(*k);
    base.grid = grid;
    base.block = block;
    base.params = std::move(params);
    base.dynamic_shared_bytes = dyn_shared;
    base.code_base = m->code_va;
    base.variable_addresses = m->vars;
    base.const_bank0 = m->bank0;
    const size_t gpcs = std::max<size_t>(1, gpc_.size());
    std::vector<ptx::Launch> launches(gpcs, base);
    for (size_t g = 0; g < gpc_.size(); ++g)
      launches[g].const_bank1.assign(reinterpret_cast<const uint8_t*>(cb_words_[g].data()),
                                     reinterpret_cast<const uint8_t*>(cb_words_[g].data() + cb_words_[g].size()));
    flash_tcps();
    std::vector<std::unique_ptr<ptx::BlockExec>> execs(units_ * gpcs);
    for (auto& u : units_ptx_) {
      u->cursor = at;
      u->invalidate_icache();  // a new module's code may sit where the last one's was
    }
    const unsigned warps = unsigned((threads + ptx::kWarpLanes - 1) / ptx::kWarpLanes);
    uint64_t b = 0;
    try {
      for (uint32_t bz = 0; bz < grid.z && !error_; ++bz)
      for (uint32_t by = 0; by < grid.y && !error_; ++by)
        for (uint32_t bx = 0; bx < grid.x && !error_; ++bx, ++b) {
          const unsigned cu = unsigned(b % units_);
          const size_t g = b % gpcs;
          std::unique_ptr<ptx::BlockExec>& e = execs[cu * gpcs + g];
          if (!e) e = std::make_unique<ptx::BlockExec>(launches[g], *units_ptx_[cu]);
          const uint64_t local = m->lmem_slots ? m->lmem + uint64_t(cu % m->lmem_slots) * m->lmem_slot : 0;
          e->start(ptx::Dim3{bx, by, bz}, local);
          e->run();
          units_ptx_[cu]->flush();
          warps_ += warps;
          if (b % units_ == units_ - 1) {
            sc_core::sc_time lo = units_ptx_[0]->cursor;
            for (auto& u : units_ptx_) lo = std::min(lo, u->cursor);
            sync(lo);
          }
        }
    } catch (const ptx::ExecError& e) {
      kernel_error(CMP_ERR_KERNEL, e.what());
    } catch (const UnitFault&) {
      // the memory path recorded the fault
    }
    for (auto& u : units_ptx_) u->flush();
    for (auto& e : execs)
      if (e) {
        ptx_warp_instr_ += e->warp_instructions();
        ptx_thread_instr_ += e->thread_instructions();
      }
  }
  // What a launch of `k` with `threads` per block asks beyond the units (architecture, shared memory,
  // registers, parameters, local memory), or "".
  std::string resources_error(const UnitModule& m, const ptx::FunctionInfo& k, uint32_t threads,
                              uint32_t dyn_shared) const {
    const ptx::Module& mod = *m.module;
    const uint64_t regs = uint64_t(k.regs_per_thread) * threads, sm_regs = unit_timing_.arch == ptx::Arch::Sm20 ? 32768 : 65536;
    if (int(mod.target()) > int(unit_timing_.arch))
      return format("the module targets %s, the compute units run %s (gpu.compute.arch)", ptx::to_string(mod.target()),
                    ptx::to_string(unit_timing_.arch));
    if (uint64_t(k.shared_bytes) + dyn_shared > shared_limit_)
      return format("%u bytes of shared memory (%u static + %u dynamic), a block may use %" PRIu64
                    " (gpu.compute.shared_memory)",
                    k.shared_bytes + dyn_shared, k.shared_bytes, dyn_shared, shared_limit_);
    if (regs > sm_regs)
      return format("%u registers per thread x %u threads = %" PRIu64 " registers, an SM has %" PRIu64 " (%s)",
                    k.regs_per_thread, threads, regs, sm_regs, ptx::to_string(unit_timing_.arch));
    if (k.local_bytes && (!m.lmem_slots || ptx::local_block_bytes(k.local_bytes, threads) > m.lmem_slot))
      return format("%u bytes of local memory per thread x %u threads, the module's local memory slots have %u bytes",
                    k.local_bytes, threads, m.lmem_slot);
    return "";
  }
  // The kernel's parameter block (compute.h CMP_PARAM_*; the loader refused modules whose kernels
  // take more than CMP_PARAM_MAX bytes): the ARG words, or, for more than
  // CMP_ARGS words of parameters, the constant buffer the ARG words name, read through unit 0's
  // memory path from `at` (advanced), a 128-byte line at a time. False: an error was recorded.
  bool read_params(const ptx::FunctionInfo& k, const uint32_t* args, sc_core::sc_time& at, std::vector<uint8_t>& out) {
    out.assign(k.param_bytes, 0);
    if (k.param_bytes <= CMP_ARGS * 4) {
      if (k.param_bytes) std::memcpy(out.data(), args, k.param_bytes);
      return true;
    }
    const uint64_t va = args[CMP_ARG_PARAM_LO] | uint64_t(args[CMP_ARG_PARAM_HI]) << 32;
    const uint32_t bytes = args[CMP_ARG_PARAM_BYTES];
    if (bytes < k.param_bytes || bytes > CMP_PARAM_MAX || va % 4) {
      kernel_error(CMP_ERR_BAD_DIMS,
                   format("kernel '%s': %u bytes of parameters, passed in a constant buffer (CMP_ARG_PARAM_*), but "
                          "the launch names %u bytes at GPU VA 0x%" PRIx64 " (4-byte aligned, at most %u bytes)",
                          kname_.c_str(), k.param_bytes, bytes, va, unsigned(CMP_PARAM_MAX)));
      return false;
    }
    for (uint32_t o = 0; o < k.param_bytes;) {
      const uint32_t n = std::min<uint32_t>(k.param_bytes - o, uint32_t(128 - (va + o) % 128));
      if (!access(0, tlm::TLM_READ_COMMAND, va + o, out.data() + o, n, false, at)) return false;
      o += n;
    }
    return true;
  }
  uint64_t sum_units(uint64_t PtxUnit::Counters::*field) const {
    uint64_t n = 0;
    for (auto& u : units_ptx_) n += u->counters.*field;
    return n;
  }
  void flash_tcps() {
    if (!tcp_flash_) return;
    for (auto& t : tcp_) {
      cache::CacheCtl c;
      c.op = cache::CacheCtl::InvalidateAll;
      sc_core::sc_time d;
      t->control(c, d);
      tcp_flashed_ += c.invalidated;
    }
  }

  // Each GPC's constant buffer, read at launch through unit 0's path in the kernel's address
  // space (a fault is the kernel's memory fault).
  void load_constant_buffers(sc_core::sc_time at) {
    cb_words_.assign(gpc_.size(), {});
    const std::string kernel = kname_;
    for (size_t g = 0; g < gpc_.size() && !error_; ++g) {
      const uint32_t size = gpc_[g]->cb_size();
      if (!size) continue;
      if (size % 4 || size > CMP_CB_MAX) {
        kernel_error(2, format("GPC %zu constant buffer of %u bytes (CMP_GPC_CB_SIZE: a multiple of 4, at most %u)", g,
                               size, unsigned(CMP_CB_MAX)));
        return;
      }
      cb_words_[g].resize(size / 4);
      kname_ = "(constant buffer of GPC " + std::to_string(g) + ")";
      if (!access(0, tlm::TLM_READ_COMMAND, gpc_[g]->cb(), reinterpret_cast<uint8_t*>(cb_words_[g].data()), size, false,
                  at))
        return;
      kname_ = kernel;
    }
    cb_done_ = at;
  }

  // A kernel launched for a channel ends with a release to memory: the TCC (write-back) writes
  // its dirty lines back, in the channel's address space, and drops every line, so that the copy
  // engine (which does not go through the caches) reads the results and the next channel's kernel
  // never hits a line of another address space.
  void end_of_channel_kernel() {
    cache::CacheCtl c;
    c.op = cache::CacheCtl::InvalidateAll;
    sc_core::sc_time d;
    tcc_->control(c, d, &gp_);
    tcc_flush_writebacks_ += c.writebacks;
    if (d > sc_core::SC_ZERO_TIME) sc_core::wait(d);
  }

  // CMP_LAUNCH_RELEASE: the TCC writes its dirty lines back (they stay valid), so that the host
  // reads a directly launched kernel's results from VRAM.
  void release_tcc() {
    cache::CacheCtl c;
    c.op = cache::CacheCtl::FlushDirty;
    sc_core::sc_time d;
    tcc_->control(c, d, &gp_);
    tcc_flush_writebacks_ += c.writebacks;
    if (d > sc_core::SC_ZERO_TIME) sc_core::wait(d);
  }

  unsigned units_;
  std::vector<std::unique_ptr<GpcState>> gpc_;
  std::vector<std::vector<uint32_t>> cb_words_;
  ChannelTag* chan_ = new ChannelTag;  // owned by gp_: CMP_CHAN of the running kernel
  uint64_t error_va_ = 0, tcc_flush_writebacks_ = 0;
  sc_core::sc_time cb_done_;  // when the constant buffers are in (the warps start then)
  sc_core::sc_time cycle_, issue_, replay_, launch_cost_, launch_at_;
  bool caching_, tcp_flash_ = true;
  uint64_t tcp_flashed_ = 0;
  std::unique_ptr<coherence::CacheController> cc_;
  std::unique_ptr<cache::Cache> tcc_;
  std::vector<std::unique_ptr<cache::Cache>> tcp_;
  UnitTiming unit_timing_;
  std::vector<std::unique_ptr<PtxUnit>> units_ptx_;
  ModuleCache modules_;
  uint64_t shared_limit_ = 0, ptx_warp_instr_ = 0, ptx_thread_instr_ = 0;
  coherence::Checker* checker_ = nullptr;  // the run's coherence checker, on first use
  CoalesceResult coalesced_;               // mem()'s transactions (kept for its storage)
  sc_core::sc_event go_;
  bool running_ = false;
  sc_core::sc_time busy_time_;
  uint32_t launch_flags_ = 0, error_ = 0;
  std::string kname_;
  tlm::tlm_generic_payload gp_;
  AccessInfo* info_ = new AccessInfo;
  uint64_t kernels_ = 0, warps_ = 0, loads_ = 0, stores_ = 0, load_tx_ = 0, store_tx_ = 0,
           load_replays_ = 0, store_replays_ = 0, uncached_ = 0, local_loads_ = 0, local_load_tx_ = 0, bypass_tx_ = 0;
  StatGroup stats_{"compute"};
};

}  // namespace

HETVP_REGISTER_GPU_BLOCK_CONFIG("compute",
                                "compute units (SIMT warps, coalescer), TCP/TCC caches and the GPU cache controller",
                                ComputeConfig, [](GpuContext& ctx, const ComputeConfig& p) -> std::unique_ptr<GpuBlock> {
                                  return std::make_unique<ComputeBlock>("compute", ctx, p);
                                });

}  // namespace hetvp::gpu
