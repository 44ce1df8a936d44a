// hetvp — the context-switch firmware behind the HUB, as the driver talks to it: hetvp's own RV32
// firmware (mcu_regs.h commands through McuDriver) or nouveau's GF100 firmware on the Falcon
// controllers (the FECS method FIFO 0x409500/0x409504 and CC_SCRATCH[0] bit 31, as nouveau's
// gf100_grctx_generate drives it). One interface, chosen once by probing the HUB's core type
// (UC_CAPS2, as falcon_boot does): the golden context and the runtime never ask which one it is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "sw/driver/gpu_driver.h"
#include "models/host/host_api.h"

namespace hetvp::sw {

class McuDriver;

class GrFirmware {
 public:
  virtual ~GrFirmware() = default;
  virtual const char* name() const = 0;  // "hetvp" or "nouveau"
  // The context image's size in bytes, as the firmware computed it.
  virtual uint32_t context_size() = 0;
  // Make the channel whose instance block is at VRAM `inst` current, without a transfer
  // (hub.fuc command 0x0001 "set channel"; FW_CMD_GR_SET_CHAN).
  virtual void set_channel(uint64_t inst) = 0;
  // Save the current channel's context into its buffer (the golden save) and leave no channel
  // current. Returns the bytes the firmware saved.
  virtual uint32_t save_and_unload() = 0;
  // The context buffer's address as the firmware reads it at instance + 0x210: hetvp's takes the
  // VRAM address, nouveau's a GPU virtual address in the channel's space (ctx_load: MEM_TARGET VM).
  virtual bool virtual_context_pointer() const = 0;
  // Bytes at the start of the image that are the channel's header, not saved state: nouveau's
  // first 256 bytes hold the per-channel mmio list count / address (hub.fuc chan_data; gf100.c
  // gf100_gr_chan_bind writes them at 0x00 / 0x04); hetvp's image has none.
  virtual uint32_t header_bytes() const = 0;
  // The golden context's register writes of the state this firmware's own lists save, while the
  // golden channel is current (before hetvp's compute defaults). nouveau's: the chip's grctx init
  // lists (gf100_grctx_generate_main: packs, icmd, mthd; gr_nouveau_init.h), whose registers are the
  // lists the boot uploaded; hetvp's firmware saves only hetvp's compute registers: nothing here.
  // Returns the BAR0 accesses made.
  virtual size_t write_list_defaults() { return 0; }
};

// Probes UC_CAPS2 of the HUB window. `mcu`: hetvp's firmware's command channel (needed for it).
std::unique_ptr<GrFirmware> make_gr_firmware(HostApi& api, GpuDriver& gpu, McuDriver* mcu);

}  // namespace hetvp::sw
