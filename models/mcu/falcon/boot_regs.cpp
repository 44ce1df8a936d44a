// hetvp — what a Falcon cluster adds around its context controllers for nouveau's boot (docs/falcon.md).
#include "models/mcu/falcon/boot_regs.h"

#include "firmware/include/hetvp/falcon_ctxctl_regs.h"
#include "firmware/include/hetvp/gpu_chips.h"
#include "firmware/include/hetvp/gpu_map.h"
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
struct ImageJob {
  uint32_t base;
  FalconImageFile file;
};

class ImageLoader : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<ImageLoader> out{"out"};
  using Job = ImageJob;
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

// The HUB image's own list words (HETVP_HUB_IMAGE_LIST_REGS), stored.
const RegSpec kHubImageList[] = {HETVP_REG_TABLE(HETVP_HUB_IMAGE_LIST_REGS)};
class HubImageListRegs : public Peripheral {
 public:
  explicit HubImageListRegs(sc_core::sc_module_name n) : Peripheral(n, kHubImageList) {
    read_timing(ReadTiming::AsIssued);
  }
};

namespace {
// The image a controller group's `image` key names, checked against the controller's UC_CAPS sizes.
bool read_image(const McuSideConfig& g, const CtxctlSetup& c, const char* who, FalconImageFile& out) {
  const std::string& spec = g.image;
  if (spec.empty()) return false;
  try {
    out = read_falcon_image(spec);
  } catch (const FalconImageError& e) {
    throw ConfigError(g.image.where() + ": " + e.what());
  }
  if (out.code.size() * 4 > c.code_size || out.data.size() * 4 > c.data_size)
    throw ConfigError(g.image.where() + ": " + who + " image " + spec + " (code " + hex(out.code.size() * 4) +
                      ", data " + hex(out.data.size() * 4) + " bytes) does not fit the Falcon (UC_CAPS: code " +
                      hex(c.code_size) + ", data " + hex(c.data_size) + " bytes)");
  return true;
}

// The compute front end's window must not cover PGRAPH 0x404160/0x404170 (its default 0x404000 does):
// the Falcon configs move it to the agreed hole 0x440000 (docs/kepler.md, configs/gf100_nouveau.yaml).
void check_compute_window(const gpu::GpuContext& ctx) {
  if (!ctx.compute) return;  // no compute block
  const uint64_t at = ctx.compute->bar0;
  if (at <= PGRAPH_HANDSHAKE_4170 && PGRAPH_HANDSHAKE_4170 < at + GPU_WINDOW_COMPUTE)
    throw ConfigError((!ctx.compute->bar0_where.empty() ? ctx.compute->bar0_where : ctx.blocks_where) +
                      ": the Falcon microcontrollers serve PGRAPH 0x404170, inside the compute block's window "
                      "at " +
                      hex(at) +
                      "; move it (compute: {bar0: 0x440000, cc_bar0: 0x441000}, as "
                      "configs/gk104_nouveau.yaml does) or build without it (blocks: microcontrollers)");
}
}  // namespace

FalconBoot::FalconBoot(gpu::GpuContext& ctx, const McuBlockConfig& c) {
  check_compute_window(ctx);
  CoreSlot hub{true, 0, ctx.name + ".hub", GPU_HUB_BASE, ctx.num_gpcs, ctx.chip};
  CoreSlot gpc{false, 0, ctx.name + ".gpc0", GPU_GPC_BASE, ctx.num_gpcs, ctx.chip};
  const CtxctlSetup hub_setup = Ctxctl::resolve(c, hub), gpc_setup = Ctxctl::resolve(c, gpc);
  uint32_t resident = 0;
  FalconImageFile f;
  if (read_image(c.hub, hub_setup, "HUB", f)) {
    jobs_.push_back({GPU_HUB_BASE, std::move(f)});
    resident |= PTOP_MCU_IMAGES_HUB;
  }
  if (read_image(c.gpc, gpc_setup, "GPC", f)) {
    jobs_.push_back({GPU_GPC_BCAST_BASE, std::move(f)});
    resident |= PTOP_MCU_IMAGES_GPC;
  }
  if (c.firmware == McuFirmware::hetvp) resident |= PTOP_MCU_IMAGES_HETVP;
  ctx.topology("MCU_IMAGES", resident);
}

FalconBoot::~FalconBoot() = default;

void FalconBoot::add_gpc(gpu::GpuContext& ctx, const McuBlockConfig& c, unsigned n) {
  if (!ctx.chip || !ctx.chip->ppcs) return;
  const std::string name = "gpc" + std::to_string(n) + "_ppc";
  ppcs_.push_back(std::make_unique<GpcPpcRegs>(name.c_str(), ctx.chip->ppcs, c.tpcs_per_gpc(ctx.chip)));
  const uint32_t at = HETVP_PPC_TPC_MASK_BASE + n * HETVP_PPC_TPC_MASK_STRIDE;
  ctx.bar0.map(ctx.name + "." + name, at, 16, ppcs_.back()->regs);
}

void FalconBoot::finish(gpu::GpuContext& ctx) {
  r4170_ = std::make_unique<PgraphBootRegs>("pgraph_404170");
  ctx.bar0.map(ctx.name + ".pgraph_404170", PGRAPH_HANDSHAKE_4170, 4, r4170_->regs, /*absolute=*/true);
  if (!jobs_.empty()) {
    loader_ = std::make_unique<ImageLoader>("image_loader", std::move(jobs_));
    loader_->out.bind(ctx.bar0.in);
  }
  r8a14_ = std::make_unique<PgraphBootRegs>("pgraph_408a14");
  ctx.bar0.map(ctx.name + ".pgraph_408a14", PGRAPH_UNK_408A14, 4, r8a14_->regs, /*absolute=*/true);
  list17e91c_ = std::make_unique<HubImageListRegs>("pfb_17e91c");
  ctx.bar0.map(ctx.name + ".pfb_17e91c", PFB_UNK_17E91C, 8, list17e91c_->regs, /*absolute=*/true);
  r4160_ = std::make_unique<PgraphBootRegs>("pgraph_404160");
  ctx.bar0.map(ctx.name + ".pgraph_404160", PGRAPH_HANDSHAKE_4160, 4, r4160_->regs, /*absolute=*/true);
}

}  // namespace hetvp::mcu::falcon
