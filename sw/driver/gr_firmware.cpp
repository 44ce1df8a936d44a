#include "sw/driver/gr_firmware.h"

#include "firmware/include/hetvp/falcon_ctxctl_regs.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "firmware/include/hetvp/gr_ctxsw.h"
#include "models/gpu/gr/gf100_lists.h"
#include "platform/format.h"
#include "sw/driver/gr_nouveau_init.h"
#include "sw/driver/falcon_boot.h"
#include "sw/driver/mcu_driver.h"

namespace hetvp::sw {

namespace {

// The grctx init lists of the chip whose register lists falcon_boot uploaded (nouveau's
// gf100_grctx_generate_main: packs, icmd, mthd), written while the golden channel is current.
size_t chip_list_defaults(GpuDriver& gpu) {
  const GpuChip& chip = falcon_chip(gpu);
  const auto& lists = gpu::gr::gr_lists(chip.name);
  if (!lists.available) throw McuError("golden context: " + std::string(chip.name) + "'s GR lists: " + lists.reason);
  return gf100_grctx_generate_writes(gpu, lists).bar0_accesses;
}

// hetvp's firmware: its mcu_regs.h commands (firmware/hub/hub.c), on RV32 or on the Falcon.
class HetvpGrFirmware : public GrFirmware {
 public:
  explicit HetvpGrFirmware(McuDriver& mcu) : mcu_(mcu) {}
  const char* name() const override { return "hetvp"; }
  uint32_t context_size() override { return checked(FW_CMD_GR_INFO, 0, "golden context size").result; }
  void set_channel(uint64_t inst) override {
    checked(FW_CMD_GR_SET_CHAN, GRH_CHAN_VALID | uint32_t(inst >> 12), "golden context: set channel");
  }
  uint32_t save_and_unload() override {
    const uint32_t saved = checked(FW_CMD_GR_SAVE, 0, "golden context: save").result;
    // The golden channel must not stay current: the first switch would save into the golden image.
    mcu_.write(McuId::hub(), GRH_CHAN_ADDR, 0);
    return saved;
  }
  bool virtual_context_pointer() const override { return false; }
  uint32_t header_bytes() const override { return 0; }

 private:
  McuResult checked(uint32_t cmd, uint32_t data, const char* what) {
    McuResult r = mcu_.command(McuId::hub(), cmd, data);
    if (r.error == FW_ERR_GR)
      throw McuError(std::string(what) + ": the HUB firmware reports " + grc_err_name(r.result) + " (code " +
                     std::to_string(r.result) + ")");
    if (r.error != FW_ERR_OK)
      throw McuError(std::string(what) + ": the HUB firmware answered error " + std::to_string(r.error));
    return r;
  }
  McuDriver& mcu_;
};

// nouveau's GF100 firmware on the Falcon HUB, driven as ctxgf100.c's gf100_grctx_generate does
// (the `!gr->firmware` path, lines 1534-1552): a command is CC_SCRATCH_CLR(0) bit 31 (0x409840),
// MTHD_DATA (0x409500), MTHD_PUSH (0x409504), then poll CC_SCRATCH[0] (0x409800) bit 31, which
// hub.fuc's main_done sets; the golden save is an unload the host fakes: CHAN_NEXT (0x409b04) bit
// 31 cleared, CHSW raised through INTR_SET (0x409000 = 0x100), then CHAN_ADDR (0x409b00) bit 31
// polled clear.
class NouveauGrFirmware : public GrFirmware {
 public:
  NouveauGrFirmware(HostApi& api, GpuDriver& gpu) : api_(api), gpu_(gpu) {}
  const char* name() const override { return "nouveau"; }
  // CC_SCRATCH[1], as gf100.c:1825 reads it after the firmware's init.
  uint32_t context_size() override { return gpu_.reg_read(GPU_HUB_BASE + FCTX_CC_SCRATCH + 4); }
  void set_channel(uint64_t inst) override {
    gpu_.reg_write(GPU_HUB_BASE + FCTX_CC_SCRATCH_CLR, FCTX_CC_SCRATCH0_INIT_DONE);
    gpu_.reg_write(GPU_HUB_BASE + FCTX_MTHD_DATA, GRH_CHAN_VALID | uint32_t(inst >> 12));
    gpu_.reg_write(GPU_HUB_BASE + FCTX_MTHD_PUSH, 0x1);  // hub.fuc main: command 0x0001, ctx_chan
    wait("set channel (command 0x0001)", [&] {
      return (gpu_.reg_read(GPU_HUB_BASE + FCTX_CC_SCRATCH) & FCTX_CC_SCRATCH0_INIT_DONE) != 0;
    });
  }
  uint32_t save_and_unload() override {
    const uint32_t next = gpu_.reg_read(GPU_HUB_BASE + GRH_CHAN_NEXT);
    gpu_.reg_write(GPU_HUB_BASE + GRH_CHAN_NEXT, next & ~GRH_CHAN_VALID);
    gpu_.reg_write(GPU_HUB_BASE + FCTX_INTR_SET, FCTX_INTR_CHSW);
    wait("save (a CHSW with no next channel)",
         [&] { return !(gpu_.reg_read(GPU_HUB_BASE + GRH_CHAN_ADDR) & GRH_CHAN_VALID); });
    return context_size();
  }
  bool virtual_context_pointer() const override { return true; }
  uint32_t header_bytes() const override { return GR_CTX_UNIT; }
  size_t write_list_defaults() override { return chip_list_defaults(gpu_); }

 private:
  // Polls every microsecond, checking every 16th poll that the HUB still runs; a bounded wait
  // (nouveau: 2 s; here 10 ms of simulated time, far beyond any switch) ends with a named error.
  template <class F>
  void wait(const char* what, F done) {
    const sc_core::sc_time start = api_.now(), limit(10, sc_core::SC_MS);
    for (unsigned n = 0;; ++n) {
      if (done()) return;
      if ((n & 15) == 15 && (gpu_.reg_read(GPU_HUB_BASE + FCTX_UC_CTRL) & FCTX_UC_CTRL_STOPPED))
        throw McuError(std::string("nouveau firmware: ") + what +
                       ": the HUB Falcon stopped (the simulator's warning says why)");
      if (api_.now() - start > limit)
        throw McuError(std::string("nouveau firmware: ") + what + ": no answer at 0x409800 / 0x409b00 within " +
                       limit.to_string());
      api_.sleep(sc_core::sc_time(1, sc_core::SC_US));
    }
  }
  HostApi& api_;
  GpuDriver& gpu_;
};

// hetvp's firmware on GF100's Falcon controllers (gpu.microcontrollers.firmware: hetvp): hetvp's
// commands, and GF100's context — the firmware runs the lists falcon_boot uploaded (as nouveau's
// does), so the golden context holds the chip's grctx values as under nouveau's firmware.
class HetvpFalconGrFirmware : public HetvpGrFirmware {
 public:
  HetvpFalconGrFirmware(McuDriver& mcu, GpuDriver& gpu) : HetvpGrFirmware(mcu), gpu_(gpu) {}
  size_t write_list_defaults() override { return chip_list_defaults(gpu_); }

 private:
  GpuDriver& gpu_;
};

}  // namespace

std::unique_ptr<GrFirmware> make_gr_firmware(HostApi& api, GpuDriver& gpu, McuDriver* mcu) {
  const bool falcon = falcon_microcontrollers(gpu);
  // hetvp's own firmware signs CC_SCRATCH[7] at init (firmware/hub/hub.c); nouveau's never writes it
  const bool own = falcon && gpu.reg_read(GPU_HUB_BASE + FCTX_HETVP_FW_ID_REG) == FCTX_HETVP_FW_ID;
  if (falcon && !own) return std::make_unique<NouveauGrFirmware>(api, gpu);
  if (!mcu) throw McuError("GR context: hetvp's firmware needs the microcontroller driver");
  if (own) return std::make_unique<HetvpFalconGrFirmware>(*mcu, gpu);
  return std::make_unique<HetvpGrFirmware>(*mcu);
}

}  // namespace hetvp::sw
