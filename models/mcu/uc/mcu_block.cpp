// The GPU block "microcontrollers": one HUB and one GPC microcontroller per GPC, their BAR0
// windows, the GPC broadcast window and the optional GDB stub. YAML group gpu0.microcontrollers.
#include <memory>
#include <vector>


#include "models/gpu/gpu_block.h"
#include "firmware/include/hetvp/mcu_regs.h"
#include "models/gpu/gpu_regs.h"
#include "models/mcu/falcon/falcon_block.h"
#include "models/mcu/broadcast.h"
#include "models/mcu/gdb_stub.h"
#include "models/mcu/uc/microcontroller.h"
#include "platform/config.h"
#include "platform/format.h"

namespace hetvp::mcu {

namespace {

std::shared_ptr<Schema> mcu_schema(bool hub) {
  auto s = std::make_shared<Schema>();
  // Clocks: a GF100 GPC runs in the graphics-core clock domain (GTX 480: 700 MHz); the HUB is put
  // in the faster hub/shader domain (GTX 480 shader clock 1401 MHz). SPEC §5 only says "HUB higher
  // than GPC"; the calibration issue may refine both (docs/mcu.md).
  s->freq("clock", std::string(hub ? "1.4 GHz" : "700 MHz"), "microcontroller core clock");
  s->size("code_size", std::string(hub ? "16 KiB" : "8 KiB"),
          "code memory (IMEM) bytes (SPEC §5: HUB 16,384, GPC 8,192)")
      .range(256, 64 * 1024);  // IMEM ends where DMEM starts (0x10000)
  // UC_CAPS reports data size >> 8 in 8 bits (SPEC §5): at most 255 x 256 B.
  s->size("data_size", std::string(hub ? "4 KiB" : "2 KiB"), "data memory (DMEM) bytes (SPEC §5: HUB 4,096, GPC 2,048)")
      .range(256, 255 * 256);
  s->string("core", std::string("rv32imc"), "core ISA (make_core): rv32imc or rv32im");
  s->any("cycle_costs", "per-class cycle costs, e.g. {div: 20, load: 3} (docs/iss.md)");
  s->boolean("dmi", true,
             "direct memory access for the core's loads/stores (false: every access through the bus path)");
  s->integer("reg_cycles", 2, "core cycles of one access to its own register block").range(0, 1000);
  s->boolean("strict_traps", false,
             "debugging aid: a synchronous exception inside a trap handler (before mret) stops the core as a fatal "
             "trap; false (default) = nested traps as in the RISC-V privileged spec (docs/iss.md)");
  s->integer("trap_watchdog", 1000,
             "stop the core when the same trap (mcause, mepc) is taken this many times in a row with no progress "
             "(docs/iss.md); 0 = off")
      .range(0, 0xffffffffLL);
  s->boolean("local_time_bursts", true,
             "RV32 cores (a Falcon context controller ignores it): the burst goes on in local time through a "
             "quantum boundary, a wfi and the core's own xfer end when no other process has anything to do before "
             "(no SystemC round trip nobody can observe; results are the same); false = a round trip each time, "
             "for comparison (docs/benchmarks.md, issue #31)");
  return s;
}

std::shared_ptr<Schema> block_schema() {
  auto s = std::make_shared<Schema>();
  s->group("hub", mcu_schema(true), "the HUB microcontroller");
  s->group("gpc", mcu_schema(false), "every GPC microcontroller");
  auto g = std::make_shared<Schema>();
  g->string("target", std::string(""), "microcontroller to debug: hub, gpc0, gpc1, ... (empty: no stub)");
  g->integer("port", 0, "TCP port on 127.0.0.1 (0: any free port, printed on stderr)").range(0, 65535);
  g->real("accept_timeout", 30.0, "seconds of wall time to wait for GDB when the target starts").range(0, 3600);
  g->real("idle_timeout", 60.0, "seconds of wall time a silent debugger may hold the core").range(0.1, 36000);
  s->group("gdb", g, "GDB remote stub (docs/mcu.md)");
  // Windows: Fermi's positions by default (gpu_map.h); software finds them in PTOP.
  s->integer("bar0", GPU_HUB_BASE, "BAR0 offset of the HUB's register window (PTOP_HUB_BASE)")
      .range(GPU_WINDOW_PMC, 0xffffffffll);
  s->integer("gpc_bar0", GPU_GPC_BASE, "BAR0 offset of GPC 0's register window (PTOP_GPC_BASE)")
      .range(GPU_WINDOW_PMC, 0xffffffffll);
  s->integer("gpc_stride", GPU_GPC_STRIDE, "distance between two GPC windows (PTOP_GPC_STRIDE)")
      .range(GPU_MCU_WINDOW, 0x1000000ll);
  s->integer("broadcast_bar0", GPU_GPC_BCAST_BASE,
             "BAR0 offset of the GPC broadcast window: a write reaches every GPC (PTOP_GPC_BCAST_BASE)")
      .range(GPU_WINDOW_PMC, 0xffffffffll);
  s->choice("core", {"rv32", "falcon"}, std::string("rv32"),
            "core of the HUB and GPC microcontrollers: rv32 (hetvp's register block, docs/mcu.md) or falcon "
            "(GF100 context controllers, docs/falcon.md)");
  s->choice("firmware", {"hetvp", "nouveau"}, std::string("hetvp"),
            "firmware the boot uploads: hetvp (RV32 ELF, core rv32) or nouveau (GF100 fuc3, core falcon)");
  falcon::add_falcon_schema(*s);
  return s;
}

// Where the block's windows sit in BAR0 (YAML keys above; each a multiple of the window size).
struct Windows {
  uint32_t hub, gpc, stride, bcast;
  uint32_t gpc_n(unsigned i) const { return gpc + i * stride; }
  bool fermi() const {
    return hub == GPU_HUB_BASE && gpc == GPU_GPC_BASE && stride == GPU_GPC_STRIDE && bcast == GPU_GPC_BCAST_BASE;
  }
};
Windows windows_from(const Params& p) {
  for (const char* key : {"bar0", "gpc_bar0", "gpc_stride", "broadcast_bar0"})
    if (p.u64(key) % GPU_MCU_WINDOW)
      throw ConfigError(p.where(key) + ": " + hex(p.u64(key)) + " is not a multiple of the window size " +
                        hex(GPU_MCU_WINDOW));
  return {p.u32("bar0"), p.u32("gpc_bar0"), p.u32("gpc_stride"), p.u32("broadcast_bar0")};
}

McuConfig config_from(const Params& p, bool hub, unsigned index, const Windows& w) {
  McuConfig c;
  c.hub = hub;
  c.index = index;
  c.host_intr_bit = hub ? GPU_INTR_HUB : GPU_INTR_GPC(index);
  c.clock_hz = p.freq("clock");
  c.code_size = static_cast<uint32_t>(p.size("code_size"));
  c.data_size = static_cast<uint32_t>(p.size("data_size"));
  if ((c.code_size & 255) || (c.data_size & 255))
    throw std::invalid_argument(p.where("code_size") + ": code_size and data_size must be multiples of 256 bytes");
  c.core = p.string("core");
  c.dmi = p.boolean("dmi");
  c.reg_cycles = p.u32("reg_cycles");
  c.strict_traps = p.boolean("strict_traps");
  c.trap_watchdog = p.u32("trap_watchdog");
  c.local_time_bursts = p.boolean("local_time_bursts");
  YAML::Node cc = p.node("cycle_costs");
  if (cc && cc.IsMap())
    for (auto it = cc.begin(); it != cc.end(); ++it)
      c.cycle_costs[it->first.as<std::string>()] = it->second.as<uint64_t>();
  if (!hub) {
    // A GPC reaches the topology registers and every GPC block (its own and its peers'), not
    // the host-facing units (PMC, MMU, copy engines) nor the HUB.
    c.bar0_allow = {{GPU_PTOP_BASE, GPU_PTOP_BASE + GPU_WINDOW_PTOP}, {w.gpc, w.gpc_n(16)}};
    // ... except the HUB's IRQSSET: a GPC answering the HUB wakes it (FW_CMD_NOTIFY_HUB).
    c.bar0_allow.push_back({w.hub + MCU_IRQSSET, w.hub + MCU_IRQSSET + 4});
  }
  return c;
}

class McuBlock : public gpu::GpuBlock, public HasStats {
 public:
  McuBlock(gpu::GpuContext& ctx, const Params& p, const Windows& w) {
    hub_ = std::make_unique<Microcontroller>("hub", config_from(p.group("hub"), true, 0, w));
    wire(ctx, p, "bar0", *hub_, w.hub);
    std::vector<Microcontroller*> raw;
    for (unsigned i = 0; i < ctx.num_gpcs; ++i) {
      gpcs_.push_back(std::make_unique<Microcontroller>(("gpc" + std::to_string(i)).c_str(),
                                                        config_from(p.group("gpc"), false, i, w)));
      wire(ctx, p, "gpc_bar0", *gpcs_.back(), w.gpc_n(i));
      raw.push_back(gpcs_.back().get());
    }
    bcast_ = std::make_unique<Broadcast<Microcontroller>>("gpc_broadcast", raw);
    ctx.map_window(p, "broadcast_bar0", "gpc_broadcast", w.bcast, GPU_MCU_WINDOW, bcast_->in);
    Params g = p.group("gdb");
    const std::string target = g.string("target");
    if (!target.empty()) {
      Microcontroller* m = nullptr;
      if (target == "hub") m = hub_.get();
      for (unsigned i = 0; i < gpcs_.size(); ++i)
        if (target == "gpc" + std::to_string(i)) m = gpcs_[i].get();
      if (!m)
        throw std::invalid_argument(g.where("target") + ": no microcontroller '" + target + "' (hub, gpc0..gpc" +
                                    std::to_string(gpcs_.size() - 1) + ")");
      m->attach_gdb(std::make_unique<GdbStub>(ctx.name + "." + target, static_cast<int>(g.integer("port")),
                                              g.real("accept_timeout"), g.real("idle_timeout")));
    }
    ctx.mcu_irq.push_back(&hub_->irq_in);
    for (auto& m : gpcs_) ctx.mcu_irq.push_back(&m->irq_in);
    stats_.add("hub", hub_->stats());
    for (auto& m : gpcs_) stats_.add(m->stats());
    stats_
        .counter("broadcast_writes", "count", "writes to the GPC broadcast window (each goes to every GPC)",
                 bcast_->writes)
        .counter("broadcast_reads", "count", "reads from the GPC broadcast window (served by GPC 0)", bcast_->reads);
  }
  void dump_stats(JsonWriter& w) const override { stats_.dump(w); }
  StatGroup& stat_group() override { return stats_; }
  // The gr block's context-switch registers share our windows (gpu_block.h ctxsw_regs).
  void bind(gpu::GpuContext& ctx) override {
    if (ctx.ctxsw_regs.empty()) return;
    hub_->attach_ctxsw(*ctx.ctxsw_regs.at(0));
    for (size_t i = 0; i < gpcs_.size(); ++i) gpcs_[i]->attach_ctxsw(*ctx.ctxsw_regs.at(1 + i));
  }

 private:
  static void wire(gpu::GpuContext& ctx, const Params& p, const char* key, Microcontroller& m, uint32_t base) {
    ctx.map_window(p, key, m.basename(), base, GPU_MCU_WINDOW, m.regs);
    m.xfer.bind(ctx.gpu_va);
    m.bar0.bind(ctx.bar0.in);
    m.intr.bind(ctx.intr);
  }
  std::unique_ptr<Microcontroller> hub_;
  std::vector<std::unique_ptr<Microcontroller>> gpcs_;
  std::unique_ptr<Broadcast<Microcontroller>> bcast_;
  StatGroup stats_{"microcontrollers"};
};

}  // namespace

std::unique_ptr<gpu::GpuBlock> create_block(gpu::GpuContext& ctx, const Params& p) {
  const std::string core = p.string("core");
  const std::string fw = p.string("firmware");
  if (core == "falcon" && fw != "nouveau")
    throw ConfigError(
        p.where("firmware") +
        ": core falcon runs nouveau's fuc3 firmware; set firmware: nouveau (hetvp's firmware is RV32 code)");
  if (core == "rv32" && fw != "hetvp")
    throw ConfigError(p.where("firmware") + ": nouveau's firmware is Falcon code; set core: falcon to run it");
  for (const char* g : {"hub", "gpc"})
    if (core == "rv32" && !p.group(g).string("image").empty())
      throw ConfigError(p.group(g).where("image") + ": a resident image is for core: falcon (RV32 firmware is an ELF "
                        "the boot uploads: workload.args.mcu." + g + "_firmware)");
  const Windows w = windows_from(p);
  if (core == "falcon" && !w.fermi())
    throw ConfigError(p.where(p.has("bar0") ? "bar0" : p.has("gpc_bar0") ? "gpc_bar0" : p.has("gpc_stride") ? "gpc_stride" : "broadcast_bar0") +
                      ": nouveau's Falcon firmware addresses the HUB, GPC and broadcast windows at Fermi's positions "
                      "(0x409000, 0x502000 + n * 0x8000, 0x41a000); leave them at their defaults with core: falcon");
  // Software (the driver, hetvp's HUB firmware) finds the windows in PTOP.
  ctx.topology("HUB_BASE", w.hub);
  ctx.topology("GPC_BASE", w.gpc);
  ctx.topology("GPC_STRIDE", w.stride);
  ctx.topology("GPC_BCAST_BASE", w.bcast);
  ctx.topology("MCU_CORE", core == "falcon" ? PTOP_MCU_CORE_FALCON : PTOP_MCU_CORE_RV32);
  if (core == "falcon") return falcon::make_falcon_block(ctx, p);
  return std::make_unique<McuBlock>(ctx, p, w);
}

// MIGRATION (helper B, #38): the facts this block publishes (gpu_block.h), until its typed config
// does (helper C): the core, and the TPCs per GPC the context controllers report.
void publish_facts(const Params& p, gpu::GpuFacts& f) {
  f.mcu_core = p.string("core") == "falcon" ? gpu::McuCore::falcon : gpu::McuCore::rv32;
  f.tpcs = f.chip && !p.has("tpcs") ? f.chip->tpcs : p.u32("tpcs");
}

HETVP_REGISTER_ENTRY(gpu::GpuBlockType, "microcontrollers",
                     "HUB and GPC microcontrollers (RV32 core, register block, xfer DMA)", block_schema, create_block, 0,
                     true, publish_facts);

}  // namespace hetvp::mcu
