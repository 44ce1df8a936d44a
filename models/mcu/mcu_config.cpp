// hetvp — the rules between the microcontroller block's parameters (mcu_config.h).
#include "models/mcu/mcu_config.h"

#include "platform/format.h"

namespace hetvp::mcu {

std::map<std::string, uint64_t> McuSideConfig::cycle_cost_map() const {
  std::map<std::string, uint64_t> costs;
  const YAML::Node& n = cycle_costs.node();
  if (n && n.IsMap())
    for (auto it = n.begin(); it != n.end(); ++it) costs[it->first.as<std::string>()] = it->second.as<uint64_t>();
  return costs;
}

unsigned McuBlockConfig::tpcs_per_gpc(const GpuChip* chip) const { return chip && !tpcs.given() ? chip->tpcs : tpcs; }

void McuBlockConfig::publish(gpu::GpuFacts& f) const {
  f.mcu_core = core;
  f.tpcs = tpcs_per_gpc(f.chip);
}

void McuBlockConfig::validate(Diagnostics& d) const {
  if (core == McuCore::rv32 && firmware != McuFirmware::hetvp)
    d.error(firmware.where() + ": nouveau's firmware is Falcon code; set core: falcon to run it");
  // The GDB stub speaks RV32's register layout; gdb has no Falcon architecture at all.
  if (const McuGdbConfig& g = gdb; core == McuCore::falcon && !g.target.empty())
    d.error(g.target.where() + ": gdb has no Falcon architecture (the GDB stub serves RV32 cores); use hetvp debug "
            "CONFIG for the Falcon controllers (breakpoints, registers, disassembly: docs/falcon.md)");
  if (core == McuCore::rv32)
    for (const McuSideConfig* s : {&side(true), &side(false)})
      if (!s->image.empty())
        d.error(s->image.where() +
                ": a resident image is for core: falcon (RV32 firmware is an ELF the boot uploads: "
                "workload.args.mcu." +
                (s->hub() ? "hub" : "gpc") + "_firmware)");
  // Each window a multiple of the window size; with core falcon at Fermi's positions.
  const Int<uint32_t>* moved = nullptr;  // the first window given away from Fermi's position
  for (const Int<uint32_t>* w : {&bar0, &gpc_bar0, &gpc_stride, &broadcast_bar0}) {
    if (*w % GPU_MCU_WINDOW)
      d.error(w->where() + ": " + hex(*w) + " is not a multiple of the window size " + hex(GPU_MCU_WINDOW));
    if (!moved && w->given()) moved = w;
  }
  const bool fermi = bar0 == GPU_HUB_BASE && gpc_bar0 == GPU_GPC_BASE && gpc_stride == GPU_GPC_STRIDE &&
                     broadcast_bar0 == GPU_GPC_BCAST_BASE;
  if (core == McuCore::falcon && !fermi)
    d.error((moved ? moved : &broadcast_bar0)->where() +
            ": nouveau's Falcon firmware addresses the HUB, GPC and broadcast windows at Fermi's positions "
            "(0x409000, 0x502000 + n * 0x8000, 0x41a000); leave them at their defaults with core: falcon");
  // hetvp's register block reports the sizes in 256-byte units (UC_CAPS).
  if (core == McuCore::rv32)
    for (const McuSideConfig* s : {&side(true), &side(false)})
      if ((s->code_size & 255) || (s->data_size & 255))
        d.error(s->code_size.where() + ": code_size and data_size must be multiples of 256 bytes");
}

}  // namespace hetvp::mcu
