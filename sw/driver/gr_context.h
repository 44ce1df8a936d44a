// hetvp — GR contexts on the host side, like a real driver's context creation
// (docs/contexts.md "Golden context"): the first context of a GPU is generated once (every
// GR context register set to its default through BAR0, then the HUB firmware sets a channel and
// saves the current context into a buffer, hub.fuc commands 0x0001 / 0x0002 = FW_CMD_GR_SET_CHAN /
// FW_CMD_GR_SAVE); every new channel's context buffer is a copy of that image.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "sw/driver/gpu_driver.h"
#include "sw/driver/gr_firmware.h"
#include "sw/driver/mcu_driver.h"

namespace hetvp::sw {

struct GoldenContext {
  uint64_t vram = 0;            // VRAM byte address of the golden image (256-byte aligned)
  uint32_t bytes = 0;           // its size (FW_CMD_GR_INFO)
  sc_core::sc_time generation;  // host time generation took (also stat gr_golden_generation_ns)
  // The image, read back once at generation: every channel's buffer is written from this host
  // copy (posted writes), not read again from VRAM through BAR1 (a PCIe round trip per read),
  // as nouveau keeps its golden image in system memory.
  std::vector<uint8_t> image;
  // The firmware that made it (and switches the channels made from it): gr_firmware.h.
  std::shared_ptr<GrFirmware> fw;
};

// Once per GPU, after the microcontrollers booted, with whichever firmware runs there
// (make_gr_firmware probes the core type). Throws McuError naming the firmware's error.
GoldenContext gr_golden_generate(HostApi& api, GpuDriver& gpu, McuDriver& mcu);
GoldenContext gr_golden_generate(HostApi& api, GpuDriver& gpu, std::shared_ptr<GrFirmware> fw);

// A channel's context: writes the golden image (its host copy) to VRAM ctx_vram (256-byte aligned, golden.bytes
// long) and points the channel's instance block at it: inst + 0x210 = ctx_vram | GR_INST_CTX_VRAM
// (64 bit, gr_ctxsw.h). hetvp has no per-channel GR entries yet (nouveau's per-channel MMIO list
// patches buffer addresses; hetvp's compute registers carry none): gr_context_write() patches one.
void gr_context_create(HostApi& api, GpuDriver& gpu, const GoldenContext& golden, uint64_t inst_vram,
                       uint64_t ctx_vram);
// The same for either firmware: `ctx` is mapped in the channel's address space (alloc_vram(bytes,
// space)); the instance block gets ctx.va (nouveau's firmware) or ctx.phys (hetvp's), | 4, and
// with nouveau's the header (gf100_gr_chan_bind: mmio list count 0 at 0x00, its address at 0x04):
// hetvp's channels carry no per-channel mmio entries.
// `mmio_va` / `mmio_entries`: the channel's mmio list ((BAR0 address, value) pairs at that virtual
// address in its space), which nouveau's firmware writes at the channel's first load, then disables
// (hub.fuc ctx_mmio_exec); hetvp's firmware has none (entries must be 0).
void gr_context_create(HostApi& api, GpuDriver& gpu, const GoldenContext& golden, uint64_t inst_vram,
                       const GpuBuffer& ctx, uint64_t mmio_va = 0, uint32_t mmio_entries = 0);

// The offset in a context image of compute front-end register `cmp_offset` (compute.h), -1 when it
// is not context state; and a write of one value into a channel's context buffer.
int64_t gr_context_offset(uint32_t cmp_offset);
void gr_context_write(HostApi& api, GpuDriver& gpu, uint64_t ctx_vram, uint32_t cmp_offset, uint32_t value);

}  // namespace hetvp::sw
