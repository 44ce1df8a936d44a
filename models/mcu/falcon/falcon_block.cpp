// hetvp — Falcon context controllers as the GPU's "microcontrollers" block (docs/falcon.md).
#include "models/mcu/falcon/falcon_block.h"

#include "firmware/include/hetvp/falcon_ctxctl_regs.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "models/mcu/broadcast.h"
#include "models/mcu/falcon/ctxctl.h"
#include "platform/config.h"
#include "platform/peripheral.h"

namespace hetvp::mcu::falcon {

namespace {

// The PGRAPH words outside the ctxctl windows that the HUB firmware uses during boot. The table
// (falcon_ctxctl_regs.h) holds BAR0 addresses, so each word's window passes the full address on;
// one instance per word, because a target socket takes one binding.
const RegSpec kPgraphBoot[] = {HETVP_REG_TABLE(HETVP_PGRAPH_BOOT_REGS)};

class PgraphBootRegs : public Peripheral {
 public:
  explicit PgraphBootRegs(sc_core::sc_module_name n) : Peripheral(n, kPgraphBoot) {
    read_timing(ReadTiming::AsIssued);  // plain storage: nothing to catch up with
    on_write("HANDSHAKE_4170", &PgraphBootRegs::handshake);
  }

 private:
  // 0x404170: bit 4 is the request; the unit behind it is always ready, so it reads back clear.
  void handshake(uint32_t v) { reg("HANDSHAKE_4170").value = v & ~0x10u; }
};

CtxctlConfig config_from(const Params& block, const Params& p, bool hub, unsigned index, unsigned gpcs,
                         const std::string& path, uint32_t base) {
  CtxctlConfig c;
  c.hub = hub;
  c.index = index;
  c.path = path;
  c.clock_hz = p.freq("clock");
  c.code_size = static_cast<uint32_t>(p.size("code_size"));
  c.data_size = static_cast<uint32_t>(p.size("data_size"));
  if (c.data_size & (c.data_size - 1))
    throw ConfigError(p.where("data_size") + ": the Falcon core needs a power-of-two data_size");
  c.gpcs = gpcs;
  c.rops = block.u32("rops");
  c.tpcs = block.u32("tpcs");
  c.strands = block.u32("strands");
  c.strand_words = block.u32("strand_words");
  c.poll_watchdog = block.u32("poll_watchdog");
  c.trace = block.boolean("trace");
  c.bar0_base = base;
  return c;
}

class FalconBlock : public gpu::GpuBlock, public HasStats {
 public:
  FalconBlock(gpu::GpuContext& ctx, const Params& p) {
    const std::string blocks = ctx.gpu_params.string("blocks");
    if (blocks.find("compute") != std::string::npos)
      throw ConfigError(ctx.gpu_params.where("blocks") +
                        ": the Falcon microcontrollers serve PGRAPH 0x404170, inside the compute block's window; "
                        "build without it (blocks: microcontrollers), as configs/gf100_nouveau.yaml does");
    hub_ = std::make_unique<Ctxctl>(
        "hub", config_from(p, p.group("hub"), true, 0, ctx.num_gpcs, ctx.name + ".hub", GPU_HUB_BASE));
    wire(ctx, *hub_, GPU_HUB_BASE);
    std::vector<Ctxctl*> raw;
    for (unsigned i = 0; i < ctx.num_gpcs; ++i) {
      const std::string n = "gpc" + std::to_string(i);
      const uint32_t base = GPU_GPC_BASE + i * GPU_GPC_STRIDE;
      gpcs_.push_back(std::make_unique<Ctxctl>(
          n.c_str(), config_from(p, p.group("gpc"), false, i, ctx.num_gpcs, ctx.name + "." + n, base)));
      wire(ctx, *gpcs_.back(), base);
      raw.push_back(gpcs_.back().get());
    }
    bcast_ = std::make_unique<Broadcast<Ctxctl>>("gpc_broadcast", raw);
    ctx.bar0.map(ctx.name + ".gpc_broadcast", GPU_GPC_BCAST_BASE, GPU_MCU_WINDOW, bcast_->in);
    r4170_ = std::make_unique<PgraphBootRegs>("pgraph_404170");
    ctx.bar0.map(ctx.name + ".pgraph_404170", PGRAPH_HANDSHAKE_4170, 4, r4170_->regs, /*absolute=*/true);
    r8a14_ = std::make_unique<PgraphBootRegs>("pgraph_408a14");
    ctx.bar0.map(ctx.name + ".pgraph_408a14", PGRAPH_UNK_408A14, 4, r8a14_->regs, /*absolute=*/true);
    stats_.add("hub", hub_->stats());
    for (auto& g : gpcs_) stats_.add(g->stats());
    stats_.counter("broadcast_writes", "count", "writes to the GPC broadcast window", bcast_->writes)
        .counter("broadcast_reads", "count", "reads from the GPC broadcast window (GPC 0)", bcast_->reads);
  }
  void dump_stats(JsonWriter& w) const override { stats_.dump(w); }
  StatGroup& stat_group() override { return stats_; }

 private:
  static void wire(gpu::GpuContext& ctx, Ctxctl& m, uint32_t base) {
    ctx.bar0.map(ctx.name + "." + m.basename(), base, GPU_MCU_WINDOW, m.regs);
    m.bar0.bind(ctx.bar0.in);
  }
  std::unique_ptr<Ctxctl> hub_;
  std::vector<std::unique_ptr<Ctxctl>> gpcs_;
  std::unique_ptr<Broadcast<Ctxctl>> bcast_;
  std::unique_ptr<PgraphBootRegs> r4170_, r8a14_;
  StatGroup stats_{"microcontrollers"};
};

}  // namespace

void add_falcon_schema(Schema& s) {
  s.integer("poll_watchdog", 100000,
            "Falcon core: stop the run when the firmware reads one register this many times in a row with the "
            "same value and no write in between (docs/falcon.md); 0 = off")
      .range(0, 0xffffffffLL);
  s.integer("rops", 6, "Falcon/nouveau: ROP count the HUB reads at 0x409604 bits 16-20 (GTX 480: 6)").range(0, 31);
  s.integer("tpcs", 4, "Falcon/nouveau: TPCs per GPC, read by the GPC firmware at UNITS 0x608").range(1, 31);
  s.integer("strands", 1, "Falcon/nouveau: STRANDS_CNT 0x880 (context strands per controller)").range(1, 63);
  s.integer("strand_words", 0x40, "Falcon/nouveau: each strand's STRAND_SIZE 0x910 (context words)").range(0, 0xffffff);
  s.boolean("trace", false, "Falcon core: print every instruction, disassembled, on stderr (slow)");
}

std::unique_ptr<gpu::GpuBlock> make_falcon_block(gpu::GpuContext& ctx, const Params& p) {
  return std::make_unique<FalconBlock>(ctx, p);
}

}  // namespace hetvp::mcu::falcon
