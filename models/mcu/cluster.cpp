// The GPU block "microcontrollers", one cluster for both cores: a HUB and one microcontroller per
// GPC on the core the YAML chooses (core: rv32, rv32/microcontroller.h; core: falcon, the GF100
// context controllers of falcon/ctxctl.h), their BAR0 windows, the GPC broadcast window, the
// context-switch units and interrupt inputs of each slot, the optional GDB stub and the statistics.
// YAML group gpu0.microcontrollers, declared once in mcu_config.h.
#include <memory>
#include <vector>

#include "firmware/include/hetvp/pmc.h"
#include "models/gpu/gpu_block.h"
#include "models/mcu/broadcast.h"
#include "models/mcu/falcon/boot_regs.h"
#include "models/mcu/falcon/ctxctl.h"
#include "models/mcu/gdb_stub.h"
#include "models/mcu/mcu_config.h"
#include "models/mcu/rv32/microcontroller.h"
#include "platform/config.h"

namespace hetvp::mcu {

namespace {

class ClusterBlock : public gpu::GpuBlock, public HasStats {
 public:
  ClusterBlock(gpu::GpuContext& ctx, const McuBlockConfig& c) : falcon_(c.core == McuCore::falcon) {
    // Software (the driver, hetvp's HUB firmware) finds the windows and the core in PTOP.
    ctx.topology("HUB_BASE", c.bar0);
    ctx.topology("GPC_BASE", c.gpc_bar0);
    ctx.topology("GPC_STRIDE", c.gpc_stride);
    ctx.topology("GPC_BCAST_BASE", c.broadcast_bar0);
    ctx.topology("MCU_CORE", falcon_ ? PTOP_MCU_CORE_FALCON : PTOP_MCU_CORE_RV32);
    if (falcon_) boot_ = std::make_unique<falcon::FalconBoot>(ctx, c);
    hub_ = make(ctx, c, CoreSlot{true, 0, ctx.name + ".hub", c.bar0, ctx.num_gpcs, ctx.chip});
    map(ctx, c.bar0, *hub_, c.bar0);
    std::vector<CoreHost*> gpcs;
    for (unsigned i = 0; i < ctx.num_gpcs; ++i) {
      const std::string n = "gpc" + std::to_string(i);
      gpcs_.push_back(make(ctx, c, CoreSlot{false, i, ctx.name + "." + n, c.gpc_window(i), ctx.num_gpcs, ctx.chip}));
      map(ctx, c.gpc_bar0, *gpcs_.back(), c.gpc_window(i));
      gpcs.push_back(gpcs_.back().get());
      if (boot_) boot_->add_gpc(ctx, c, i);
    }
    bcast_ = std::make_unique<Broadcast<CoreHost>>("gpc_broadcast", gpcs);
    if (falcon_)
      ctx.bar0.map(ctx.name + ".gpc_broadcast", c.broadcast_bar0, GPU_MCU_WINDOW, bcast_->in);
    else
      ctx.map_window(c.broadcast_bar0, "gpc_broadcast", c.broadcast_bar0, GPU_MCU_WINDOW, bcast_->in);
    if (boot_) boot_->finish(ctx);
    if (!falcon_) attach_gdb(ctx, c.gdb);  // a Falcon target is refused by McuBlockConfig::validate
    // The gr block's units raise their interrupts (CHSW, engines idle) here (bound in its bind()).
    ctx.mcu_irqs.hub = &hub_->irq_in;
    for (auto& m : gpcs_) ctx.mcu_irqs.gpc.push_back(&m->irq_in);
    stats_.add("hub", hub_->stats());
    for (auto& m : gpcs_) stats_.add(m->stats());
    stats_
        .counter("broadcast_writes", "count",
                 falcon_ ? "writes to the GPC broadcast window"
                         : "writes to the GPC broadcast window (each goes to every GPC)",
                 bcast_->writes)
        .counter("broadcast_reads", "count",
                 falcon_ ? "reads from the GPC broadcast window (GPC 0)"
                         : "reads from the GPC broadcast window (served by GPC 0)",
                 bcast_->reads);
  }
  void dump_stats(JsonWriter& w) const override { stats_.dump(w); }
  StatGroup& stat_group() override { return stats_; }
  // The gr block's context-switch units share our windows, one per slot (gpu_block.h ctxsw).
  void bind(gpu::GpuContext& ctx) override {
    if (ctx.ctxsw.empty()) return;  // no gr block: the controllers' boot-only copies
    hub_->attach_ctxsw(*ctx.ctxsw.hub.regs, *ctx.ctxsw.hub.xfer);
    for (size_t i = 0; i < gpcs_.size(); ++i)
      gpcs_[i]->attach_ctxsw(*ctx.ctxsw.gpc.at(i).regs, *ctx.ctxsw.gpc.at(i).xfer);
  }

 private:
  // One microcontroller of the chosen core, its bus masters bound to the GPU.
  std::unique_ptr<CoreHost> make(gpu::GpuContext& ctx, const McuBlockConfig& c, const CoreSlot& slot) const {
    const std::string n = slot.hub ? std::string("hub") : "gpc" + std::to_string(slot.index);
    const char* name = n.c_str();
    if (falcon_) {
      auto m = std::make_unique<falcon::Ctxctl>(name, c, slot);
      m->bar0.bind(ctx.bar0.in);  // the MMIO bridge
      return m;
    }
    auto m = std::make_unique<Microcontroller>(name, c, slot);
    m->xfer.bind(ctx.gpu_va);
    m->bar0.bind(ctx.bar0.in);
    m->intr.bind(ctx.intr);
    return m;
  }
  // A window: RV32 windows are named by the key that placed them; a Falcon cluster's sit at Fermi's
  // positions and keep their block names (pgraph's shadow warnings and the trace print them).
  void map(gpu::GpuContext& ctx, const Int<uint32_t>& key, CoreHost& m, uint32_t base) const {
    if (falcon_)
      ctx.bar0.map(ctx.name + "." + m.basename(), base, GPU_MCU_WINDOW, m.regs);
    else
      ctx.map_window(key, m.basename(), base, GPU_MCU_WINDOW, m.regs);
  }
  void attach_gdb(const gpu::GpuContext& ctx, const McuGdbConfig& g) {
    const std::string& target = g.target;
    if (target.empty()) return;
    CoreHost* m = nullptr;
    if (target == "hub") m = hub_.get();
    for (unsigned i = 0; i < gpcs_.size(); ++i)
      if (target == "gpc" + std::to_string(i)) m = gpcs_[i].get();
    if (!m)
      throw std::invalid_argument(g.target.where() + ": no microcontroller '" + target + "' (hub, gpc0..gpc" +
                                  std::to_string(gpcs_.size() - 1) + ")");
    m->attach_gdb(std::make_unique<GdbStub>(ctx.name + "." + target, g.port, g.accept_timeout, g.idle_timeout));
  }

  const bool falcon_;
  std::unique_ptr<falcon::FalconBoot> boot_;  // core falcon: the PGRAPH words, PPCs, resident images
  std::unique_ptr<CoreHost> hub_;
  std::vector<std::unique_ptr<CoreHost>> gpcs_;
  std::unique_ptr<Broadcast<CoreHost>> bcast_;
  StatGroup stats_{"microcontrollers"};
};

// The rules between the keys (McuBlockConfig::validate) ran with the gpu's (check time); what needs
// the GPU (its chip, its GPCs, the other blocks' windows) is checked here, located at its key.
std::unique_ptr<gpu::GpuBlock> create_block(gpu::GpuContext& ctx, const McuBlockConfig& c) {
  return std::make_unique<ClusterBlock>(ctx, c);
}

}  // namespace

HETVP_REGISTER_GPU_BLOCK_CONFIG("microcontrollers",
                                "HUB and GPC microcontrollers (RV32 core, register block, xfer DMA)", McuBlockConfig,
                                create_block);

}  // namespace hetvp::mcu
