// The GPU block "gr": the graphics engine's context-switch units — the HUB's (FECS-like: MMCTX,
// strands, the CHSW interface the FIFO binds) and one per GPC (GPCCS-like: MMCTX, strands). Their
// registers share the microcontroller windows (gpu_block.h ctxsw). YAML group gpu0.gr.
#include <memory>
#include <vector>

#include "firmware/include/hetvp/compute.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "models/gpu/gpu_block.h"
#include "models/gpu/gr/ctxsw_unit.h"
#include "platform/config.h"
#include "platform/format.h"
#include "platform/register_table.h"

namespace hetvp::gpu {

namespace {

// The gr block's parameters (gpu.gr).
struct GrConfig : ParamSet {
  Time word_cost{this, "word_cost", "2 ns",
                 "engine time per context word moved, beside the register and VRAM accesses' own time (assumption: "
                 "no source gives GF100's MMCTX rate)"};
  Time command_cost{this, "command_cost", "20 ns", "engine time per MMCTX list entry or strand command (assumption)"};
  Any test_gpc_strand{this, "test_gpc_strand",
                      "TEST ONLY: list of offsets in each GPC's compute window (gpu.compute.gpc_bar0 + n * 0x8000) "
                      "that form an extra strand, to exercise the strand path with registers of a test's choosing"};
  Int<unsigned> test_stuck_gpc{this, "test_stuck_gpc", 0,
                               "TEST ONLY fault: this GPC's strand engine takes SAVE/LOAD and never finishes (SIGNAL "
                               "bit 2 stays set), to show the HUB's wait for it ends with a named error",
                               Range{0, 63}, OnlyWhenGiven{}};
  Any test_skip_restore{this, "test_skip_restore",
                        "TEST ONLY fault: a BAR0 address, or a compute register name (e.g. ARG3, CMP_GRID_X), whose "
                        "restore every context load skips; shows that the save/restore is what keeps a channel's "
                        "state (docs/contexts.md)"};
};

// test_skip_restore as a BAR0 address: an integer, or a compute front-end register by name (in
// the compute block's window; no compute block: its default position).
uint32_t skip_address(const GrConfig& p, const GpuFacts& facts) {
  const YAML::Node& n = p.test_skip_restore.node();
  if (n.IsScalar()) {
    uint32_t address = 0;
    if (YAML::convert<uint32_t>::decode(n, address)) return address;  // else a register name
    std::string name = n.as<std::string>();
    if (name.rfind("CMP_", 0) == 0) name = name.substr(4);
    static const RegSpec kCompute[] = {HETVP_REG_TABLE(HETVP_COMPUTE_REGS)};
    const uint64_t base = facts.compute ? facts.compute->bar0 : GPU_COMPUTE_BASE;
    for (const RegSpec& r : kCompute) {
      if (name == r.name) return uint32_t(base + r.offset);
      for (unsigned i = 0; r.count > 1 && i < r.count; ++i)
        if (name == std::string(r.name) + std::to_string(i)) return uint32_t(base + r.offset + 4 * i);
    }
  }
  throw ConfigError(p.test_skip_restore.where() +
                    ": not a BAR0 address nor a compute register name (KERNEL, GRID_X, ..., ARG0..ARG15)");
}

class GrBlock : public GpuBlock, public HasStats {
 public:
  GrBlock(GpuContext& ctx, const GrConfig& p) {
    CtxswConfig base;
    base.vram_size = ctx.vram_size;
    base.bar0_size = ctx.bar0_size;
    base.word_cost = p.word_cost;
    base.falcon = ctx.mcu_core == McuCore::falcon;
    base.hub_regs = GPU_HUB_BASE;
    base.command_cost = p.command_cost;
    if (p.test_skip_restore) {
      base.has_skip = true;
      base.skip_restore = skip_address(p, ctx);
    }
    std::vector<uint32_t> test_strand;
    if (p.test_gpc_strand) {
      const YAML::Node& n = p.test_gpc_strand.node();
      if (!n.IsSequence()) throw ConfigError(p.test_gpc_strand.where() + ": a list of offsets");
      for (const auto& e : n) {
        const uint32_t off = e.as<uint32_t>();
        if (off & 3) throw ConfigError(p.test_gpc_strand.where() + ": offset " + hex(off) + " is not 4-byte aligned");
        test_strand.push_back(off);
      }
    }
    CtxswConfig hub = base;
    hub.hub = true;
    // nouveau's strand_ctx_init runs its loop STRANDS_CNT times and at least once: the HUB, which
    // has no strand state in hetvp, gets one empty strand under the Falcon firmware.
    if (base.falcon) hub.strands.push_back({});
    hub_ = std::make_unique<CtxswUnit>("gr_hub", hub);
    wire(ctx, *hub_);
    // The GPCs' compute windows: where the compute block put them (its published fact, also in
    // PTOP_COMPUTE_GPC_BASE; no compute block: the default position), GPC n at + n * GPU_GPC_STRIDE.
    const uint64_t state0 = ctx.compute ? ctx.compute->gpc_bar0 : GPU_COMPUTE_GPC_BASE;
    const uint64_t stride = GPU_GPC_STRIDE;
    for (unsigned i = 0; i < ctx.num_gpcs; ++i) {
      CtxswConfig g = base;
      g.index = i;
      g.stuck = p.test_stuck_gpc.given() && p.test_stuck_gpc == i;
      const uint32_t window = uint32_t(state0 + i * stride);
      // Strand 0: the compute front end's per-GPC state (compute.h); strand 1: the test's, if any.
      std::vector<uint32_t> compute;
#define HETVP_GR_GPC_WORDS(off, count) \
  for (unsigned k = 0; k < (count); ++k) compute.push_back(window + (off) + 4 * k);
      HETVP_COMPUTE_GPC_CTX_REGS(HETVP_GR_GPC_WORDS)
#undef HETVP_GR_GPC_WORDS
      g.strands.push_back(compute);
      if (!test_strand.empty()) {
        std::vector<uint32_t> t;
        for (uint32_t off : test_strand) t.push_back(window + off);
        g.strands.push_back(t);
      }
      gpcs_.push_back(std::make_unique<CtxswUnit>(("gr_gpc" + std::to_string(i)).c_str(), g));
      wire(ctx, *gpcs_.back());
    }
    ctx.chsw = &hub_->chsw;
    ctx.ctxsw.hub = {&hub_->regs, &hub_->xfer};
    for (auto& g : gpcs_) ctx.ctxsw.gpc.push_back({&g->regs, &g->xfer});
    stats_.add(hub_->stats());
    for (auto& g : gpcs_) stats_.add(g->stats());
    stats_.value("switches", "count", "channel switches acknowledged", [this] { return hub_switches(); })
        .value("save_bytes", "bytes", "context bytes saved by every unit (MMCTX and strands)",
               [this] { return total(true); })
        .value("load_bytes", "bytes", "context bytes restored by every unit", [this] { return total(false); });
  }
  void bind(GpuContext& ctx) override {
    if (ctx.mcu_irqs.empty()) return;  // no microcontroller block: nothing raised
    hub_->mcu_irq.bind(*ctx.mcu_irqs.hub);
    for (size_t i = 0; i < gpcs_.size() && i < ctx.mcu_irqs.gpc.size(); ++i)
      gpcs_[i]->mcu_irq.bind(*ctx.mcu_irqs.gpc[i]);
  }
  StatGroup& stat_group() override { return stats_; }
  void dump_stats(JsonWriter& w) const override { stats_.dump(w); }

 private:
  static void wire(GpuContext& ctx, CtxswUnit& u) {
    u.bar0.bind(ctx.bar0.in);
    u.vram.bind(ctx.vram);
    u.va.bind(ctx.gpu_va);
  }
  uint64_t hub_switches() const { return hub_->switches(); }
  uint64_t total(bool save) const {
    uint64_t t = save ? hub_->save_bytes() : hub_->load_bytes();
    for (auto& g : gpcs_) t += save ? g->save_bytes() : g->load_bytes();
    return t;
  }
  std::unique_ptr<CtxswUnit> hub_;
  std::vector<std::unique_ptr<CtxswUnit>> gpcs_;
  StatGroup stats_{"gr"};
};

}  // namespace

HETVP_REGISTER_GPU_BLOCK_CONFIG("gr",
                                "graphics engine context switch: the HUB's and every GPC's MMCTX / strand engines and "
                                "the CHSW interface (docs/contexts.md)",
                                GrConfig, [](GpuContext& ctx, const GrConfig& p) -> std::unique_ptr<GpuBlock> {
                                  return std::make_unique<GrBlock>(ctx, p);
                                });

}  // namespace hetvp::gpu
