// hetvp — Falcon context controllers as the GPU's "microcontrollers" block (docs/falcon.md).
#include "models/mcu/falcon/falcon_block.h"

#include "firmware/include/hetvp/falcon_ctxctl_regs.h"
#include "firmware/include/hetvp/gpu_chips.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "models/mcu/broadcast.h"
#include "models/mcu/falcon/ctxctl.h"
#include "models/mcu/falcon/image_file.h"
#include "firmware/include/hetvp/pmc.h"
#include "platform/access_info.h"
#include "platform/payload.h"
#include "platform/config.h"
#include "platform/format.h"
#include "platform/peripheral.h"

#include <algorithm>

#include <tlm_utils/simple_initiator_socket.h>

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
    on_write("HANDSHAKE_4160", &PgraphBootRegs::handshake_4160);
  }

 private:
  // 0x404170: bit 4 is the request; the unit behind it is always ready, so it reads back clear.
  void handshake(uint32_t v) { reg("HANDSHAKE_4170").value = v & ~0x10u; }
  // 0x404160: ctx_4160s writes 1 and waits for bit 4 (hub.fuc); hetvp's GR is ready at once.
  void handshake_4160(uint32_t v) { reg("HANDSHAKE_4160").value = v ? (v | 0x10u) : 0u; }
};

// A GPC's PPC units (gpu_chips.h PPCS): PPC_TPC_MASK[j], the TPCs PPC j serves. How a GPC's TPCs are
// split between its PPCs is an assumption (in order, as evenly as possible: GK110's 3 TPCs as 2 + 1);
// nouveau only counts them (gf100_gr_oneinit). PPCs beyond the chip's read 0 (absent).
const RegSpec kGpcPpc[] = {HETVP_REG_TABLE(HETVP_GPC_PPC_REGS)};

class GpcPpcRegs : public Peripheral {
 public:
  GpcPpcRegs(sc_core::sc_module_name n, unsigned ppcs, unsigned tpcs) : Peripheral(n, kGpcPpc) {
    read_timing(ReadTiming::AsIssued);
    const unsigned per = (tpcs + ppcs - 1) / ppcs;
    for (unsigned j = 0; j < ppcs && j < 4; ++j) {
      const unsigned first = j * per, end = std::min(tpcs, first + per);
      const uint32_t mask = end > first ? ((1u << end) - 1) & ~((1u << first) - 1) : 0;
      bank_.set_reset("PPC_TPC_MASK" + std::to_string(j), mask);
    }
  }
};

// gpu0.microcontrollers.hub.image / gpc.image: the controllers' code and data memories hold these
// images at power-on, written at time 0 through the same ports the driver's upload uses (DATA_INDEX /
// DATA, CODE_INDEX / CODE_VIRT_ADDR / CODE; the GPC image through the broadcast window, so every GPC
// holds it). PTOP MCU_IMAGES tells the driver which are resident, so it does not upload over them.
// The writes take no simulated time: they are the state the run starts in.
class ImageLoader : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<ImageLoader> out{"out"};
  struct Job {
    uint32_t base;
    FalconImageFile file;
  };
  ImageLoader(sc_core::sc_module_name n, std::vector<Job> jobs) : sc_core::sc_module(n), jobs_(std::move(jobs)) {
    info_->initiator = name();
    info_->may_wait = false;
    gp_.set_extension(info_);
    SC_HAS_PROCESS(ImageLoader);
    SC_THREAD(load);
  }

 private:
  void write(uint32_t addr, uint32_t v) {
    set_access(gp_, tlm::TLM_WRITE_COMMAND, addr, reinterpret_cast<uint8_t*>(&v), 4);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    out->b_transport(gp_, d);
    if (!gp_.is_response_ok())
      SC_REPORT_FATAL(name(), ("image write to BAR0 " + hex(addr) + " failed: " + gp_.get_response_string()).c_str());
  }
  void load() {
    for (const Job& j : jobs_) {
      write(j.base + FCTX_DATA_INDEX, 0x01000000);  // address 0, auto-increment on write
      for (uint32_t w : j.file.data) write(j.base + FCTX_DATA, w);
      write(j.base + FCTX_CODE_INDEX, 0x01000000);
      for (size_t i = 0; i < j.file.code.size(); ++i) {
        if ((i & 0x3f) == 0) write(j.base + FCTX_CODE_VIRT_ADDR, static_cast<uint32_t>(i >> 6));
        write(j.base + FCTX_CODE, j.file.code[i]);
      }
    }
  }
  std::vector<Job> jobs_;
  tlm::tlm_generic_payload gp_;
  AccessInfo* info_ = new AccessInfo;  // owned by gp_
};

// The image a controller group's `image` key names, checked against the controller's UC_CAPS sizes.
bool read_image(const Params& g, const CtxctlConfig& c, const char* who, FalconImageFile& out) {
  const std::string spec = g.string("image");
  if (spec.empty()) return false;
  try {
    out = read_falcon_image(spec);
  } catch (const FalconImageError& e) {
    throw ConfigError(g.where("image") + ": " + e.what());
  }
  if (out.code.size() * 4 > c.code_size || out.data.size() * 4 > c.data_size)
    throw ConfigError(g.where("image") + ": " + who + " image " + spec + " (code " + hex(out.code.size() * 4) +
                      ", data " + hex(out.data.size() * 4) + " bytes) does not fit the Falcon (UC_CAPS: code " +
                      hex(c.code_size) + ", data " + hex(c.data_size) + " bytes)");
  return true;
}

// The HUB image's own list words (HETVP_HUB_IMAGE_LIST_REGS), stored.
const RegSpec kHubImageList[] = {HETVP_REG_TABLE(HETVP_HUB_IMAGE_LIST_REGS)};
class HubImageListRegs : public Peripheral {
 public:
  explicit HubImageListRegs(sc_core::sc_module_name n) : Peripheral(n, kHubImageList) {
    read_timing(ReadTiming::AsIssued);
  }
};

CtxctlConfig config_from(const Params& block, const Params& p, const GpuChip* chip, bool hub, unsigned index,
                         unsigned gpcs, const std::string& path, uint32_t base) {
  CtxctlConfig c;
  c.hub = hub;
  c.index = index;
  c.path = path;
  c.clock_hz = p.freq("clock");
  c.code_size = static_cast<uint32_t>(p.size("code_size"));
  c.data_size = static_cast<uint32_t>(p.size("data_size"));
  // A chip's segment sizes (UC_CAPS), its ROP partitions and TPCs, unless the YAML gives them.
  if (chip) {
    if (!p.has("code_size")) c.code_size = hub ? chip->hub_code : chip->gpc_code;
    if (!p.has("data_size")) c.data_size = hub ? chip->hub_data : chip->gpc_data;
    c.fuc = chip->fuc;
    c.cc_scratch_set = chip->cc_scratch_set;
    c.unk86c = chip->unk86c;
  }
  if (c.data_size & (c.data_size - 1))
    throw ConfigError(p.where("data_size") + ": the Falcon core needs a power-of-two data_size");
  c.gpcs = gpcs;
  c.rops = chip && !block.has("rops") ? chip->parts : block.u32("rops");
  c.tpcs = chip && !block.has("tpcs") ? chip->tpcs : block.u32("tpcs");
  if (chip && c.tpcs > chip->tpcs)
    throw ConfigError(block.where("tpcs") + ": " + std::to_string(c.tpcs) + " TPCs per GPC, but " + chip->name +
                      " has " + std::to_string(chip->tpcs));
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
    // The compute front end's window must not cover PGRAPH 0x404160/0x404170 (its default 0x404000 does):
    // the Falcon configs move it to the agreed hole 0x440000 (docs/kepler.md, configs/gf100_nouveau.yaml).
    const std::string blocks = ctx.gpu_params.string("blocks");
    if (blocks.find("compute") != std::string::npos) {
      const Params compute = ctx.gpu_params.group("compute");
      const uint64_t at = compute.u64("bar0");
      if (at <= PGRAPH_HANDSHAKE_4170 && PGRAPH_HANDSHAKE_4170 < at + GPU_WINDOW_COMPUTE)
        throw ConfigError((compute.has("bar0") ? compute.where("bar0") : ctx.gpu_params.where("blocks")) +
                          ": the Falcon microcontrollers serve PGRAPH 0x404170, inside the compute block's window "
                          "at " + hex(at) + "; move it (compute: {bar0: 0x440000, cc_bar0: 0x441000}, as "
                          "configs/gk104_nouveau.yaml does) or build without it (blocks: microcontrollers)");
    }
    const CtxctlConfig hub_cfg =
        config_from(p, p.group("hub"), ctx.chip, true, 0, ctx.num_gpcs, ctx.name + ".hub", GPU_HUB_BASE);
    const CtxctlConfig gpc_cfg = config_from(p, p.group("gpc"), ctx.chip, false, 0, ctx.num_gpcs, ctx.name + ".gpc0",
                                             GPU_GPC_BASE);
    std::vector<ImageLoader::Job> jobs;
    uint32_t resident = 0;
    FalconImageFile f;
    if (read_image(p.group("hub"), hub_cfg, "HUB", f)) {
      jobs.push_back({GPU_HUB_BASE, std::move(f)});
      resident |= PTOP_MCU_IMAGES_HUB;
    }
    if (read_image(p.group("gpc"), gpc_cfg, "GPC", f)) {
      jobs.push_back({GPU_GPC_BCAST_BASE, std::move(f)});
      resident |= PTOP_MCU_IMAGES_GPC;
    }
    ctx.topology("MCU_IMAGES", resident);
    hub_ = std::make_unique<Ctxctl>("hub", hub_cfg);
    wire(ctx, *hub_, GPU_HUB_BASE);
    std::vector<Ctxctl*> raw;
    for (unsigned i = 0; i < ctx.num_gpcs; ++i) {
      const std::string n = "gpc" + std::to_string(i);
      const uint32_t base = GPU_GPC_BASE + i * GPU_GPC_STRIDE;
      gpcs_.push_back(std::make_unique<Ctxctl>(
          n.c_str(), config_from(p, p.group("gpc"), ctx.chip, false, i, ctx.num_gpcs, ctx.name + "." + n, base)));
      wire(ctx, *gpcs_.back(), base);
      raw.push_back(gpcs_.back().get());
      if (ctx.chip && ctx.chip->ppcs) {
        const unsigned tpcs = ctx.chip && !p.has("tpcs") ? ctx.chip->tpcs : p.u32("tpcs");
        ppcs_.push_back(std::make_unique<GpcPpcRegs>((n + "_ppc").c_str(), ctx.chip->ppcs, tpcs));
        const uint32_t at = HETVP_PPC_TPC_MASK_BASE + i * HETVP_PPC_TPC_MASK_STRIDE;
        ctx.bar0.map(ctx.name + "." + n + "_ppc", at, 16, ppcs_.back()->regs);
      }
    }
    bcast_ = std::make_unique<Broadcast<Ctxctl>>("gpc_broadcast", raw);
    ctx.bar0.map(ctx.name + ".gpc_broadcast", GPU_GPC_BCAST_BASE, GPU_MCU_WINDOW, bcast_->in);
    r4170_ = std::make_unique<PgraphBootRegs>("pgraph_404170");
    ctx.bar0.map(ctx.name + ".pgraph_404170", PGRAPH_HANDSHAKE_4170, 4, r4170_->regs, /*absolute=*/true);
    if (!jobs.empty()) {
      loader_ = std::make_unique<ImageLoader>("image_loader", std::move(jobs));
      loader_->out.bind(ctx.bar0.in);
    }
    r8a14_ = std::make_unique<PgraphBootRegs>("pgraph_408a14");
    ctx.bar0.map(ctx.name + ".pgraph_408a14", PGRAPH_UNK_408A14, 4, r8a14_->regs, /*absolute=*/true);
    list17e91c_ = std::make_unique<HubImageListRegs>("pfb_17e91c");
    ctx.bar0.map(ctx.name + ".pfb_17e91c", PFB_UNK_17E91C, 8, list17e91c_->regs, /*absolute=*/true);
    r4160_ = std::make_unique<PgraphBootRegs>("pgraph_404160");
    ctx.bar0.map(ctx.name + ".pgraph_404160", PGRAPH_HANDSHAKE_4160, 4, r4160_->regs, /*absolute=*/true);
    // The gr block's units raise CHSW here (bound in its bind()).
    ctx.mcu_irq.push_back(&hub_->irq_in);
    for (auto& g : gpcs_) ctx.mcu_irq.push_back(&g->irq_in);
    stats_.add("hub", hub_->stats());
    for (auto& g : gpcs_) stats_.add(g->stats());
    stats_.counter("broadcast_writes", "count", "writes to the GPC broadcast window", bcast_->writes)
        .counter("broadcast_reads", "count", "reads from the GPC broadcast window (GPC 0)", bcast_->reads);
  }
  void dump_stats(JsonWriter& w) const override { stats_.dump(w); }
  // The gr block's context-switch units share the windows (gpu_block.h ctxsw_regs / ctxsw_xfer).
  void bind(gpu::GpuContext& ctx) override {
    if (ctx.ctxsw_regs.empty()) return;  // no gr block: boot only, the controllers' own copies
    hub_->attach_ctxsw(*ctx.ctxsw_regs.at(0), *ctx.ctxsw_xfer.at(0));
    for (size_t i = 0; i < gpcs_.size(); ++i) gpcs_[i]->attach_ctxsw(*ctx.ctxsw_regs.at(1 + i), *ctx.ctxsw_xfer.at(1 + i));
  }
  StatGroup& stat_group() override { return stats_; }

 private:
  static void wire(gpu::GpuContext& ctx, Ctxctl& m, uint32_t base) {
    ctx.bar0.map(ctx.name + "." + m.basename(), base, GPU_MCU_WINDOW, m.regs);
    m.bar0.bind(ctx.bar0.in);
  }
  std::unique_ptr<Ctxctl> hub_;
  std::vector<std::unique_ptr<Ctxctl>> gpcs_;
  std::unique_ptr<Broadcast<Ctxctl>> bcast_;
  std::unique_ptr<PgraphBootRegs> r4170_, r8a14_, r4160_;
  std::vector<std::unique_ptr<GpcPpcRegs>> ppcs_;
  std::unique_ptr<ImageLoader> loader_;
  std::unique_ptr<HubImageListRegs> list17e91c_;
  StatGroup stats_{"microcontrollers"};
};

}  // namespace

void add_falcon_schema(Schema& s) {
  s.integer("poll_watchdog", 100000,
            "Falcon core: stop the run when the firmware reads one register this many times in a row with the "
            "same value and no write in between (docs/falcon.md); 0 = off")
      .range(0, 0xffffffffLL);
  // With gpu0.chip these default to the chip's (gpu_chips.h), so the resolved configuration
  // (--dump-config) leaves them out when they were not given, or a dumped GK104 would pin GF100's.
  s.integer("rops", 6,
            "Falcon/nouveau: ROP count the HUB reads at 0x409604 bits 16-20 (GTX 480: 6; default with gpu0.chip: "
            "the chip's memory partitions)")
      .range(0, 31)
      .only_when_given();
  s.integer("tpcs", 4,
            "Falcon/nouveau: TPCs per GPC, read by the GPC firmware at UNITS 0x608 (default with gpu0.chip: the "
            "chip's)")
      .range(1, 31)
      .only_when_given();
  // The same for the segment sizes of the HUB and GPC groups (declared by the microcontroller block,
  // models/mcu/uc/mcu_block.cpp): a chip's UC_CAPS sizes apply when they are not given.
  for (const char* group : {"hub", "gpc"}) {
    for (auto& g : s.specs) {
      if (g.name != group || !g.children) continue;
      for (auto& c : g.children->specs)
        if (c.name == "code_size" || c.name == "data_size") c.resolve_default = false;
    }
  }
  // The images resident at power-on (ImageLoader above; docs/falcon.md "Image files").
  for (auto& g : s.specs) {
    if ((g.name != "hub" && g.name != "gpc") || !g.children) continue;
    g.children->string("image", std::string(""),
                       std::string("core falcon: the ") + (g.name == "hub" ? "HUB's" : "GPCs' (every GPC's)") +
                           " code and data memories hold this image at power-on and the boot does not upload one "
                           "(a .fuc3.h/.fuc5.h array file or code=CODE.bin[,data=DATA.bin]; docs/falcon.md). "
                           "workload.args.mcu.falcon_" + g.name + "_image, when given, is uploaded over it")
        .only_when_given();
  }
  s.integer("strands", 1, "Falcon/nouveau: STRANDS_CNT 0x880 (context strands per controller)").range(1, 63);
  s.integer("strand_words", 0x40, "Falcon/nouveau: each strand's STRAND_SIZE 0x910 (context words)").range(0, 0xffffff);
  s.boolean("trace", false, "Falcon core: print every instruction, disassembled, on stderr (slow)");
}

std::unique_ptr<gpu::GpuBlock> make_falcon_block(gpu::GpuContext& ctx, const Params& p) {
  return std::make_unique<FalconBlock>(ctx, p);
}

}  // namespace hetvp::mcu::falcon
