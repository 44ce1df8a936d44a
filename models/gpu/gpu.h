// A Fermi-class GPU as one YAML instance (`type: gpu`). Its blocks and their wiring:
//
//   link ──pcie──> HostInterface ──bar0──> bar0 router ──> PMC, PTOP, MMU regs, and the
//                        │                                 blocks' windows (copy engines, ...)
//                        └──bar1──> vram bus ──> VRAM
//   CopyEngine[n] ──mem──> MMU ──vram──> vram bus
//                          └─sysmem─> HostInterface.dma ──upstream──> link (to the host)
//
// The on-chip blocks (copy engines, microcontrollers, compute) plug in through gpu_block.h and
// are built as `blocks` lists them, each at the BAR0 position its group's `bar0` says.
// YAML groups configure each part: `vram` (a memory: size, latency, bandwidth), `pcie`
// (BAR sizes, latencies), `mmu`, and one group per block (`copy_engine`, `compute`,
// `microcontrollers`); `gpcs` is the GPC count, `copy_engines` how many copy engines (Fermi has two).
//
// Ports: target `pcie` (from the link's down_out), initiator `upstream` (to the link's up_in).
// External blocks (`bar0_ports`: a list of {name, base, size}): each entry maps BAR0
// [base, base + size) to an initiator port `name`, connected in YAML to a block's register target
// (e.g. an RTL block's `regs`); the host (through PCIe BAR0) and the HUB reach it like any GPU
// register block, and PTOP EXT_COUNT/EXT_BASE/EXT_SIZE say where. The optional target `gpu_va` lets
// such a block's bus master enter the GPU MMU (GPU virtual addresses, as the GPU's own engines do).
#pragma once

#include <memory>
#include <vector>

#include "models/gpu/gpu_block.h"
#include "models/gpu/gpu_mmu.h"
#include "models/gpu/host_interface.h"
#include "models/memory/memory.h"
#include "firmware/include/hetvp/gpu_chips.h"
#include "platform/component.h"
#include "platform/router.h"

namespace hetvp {

class Gpu : public Component {
 public:
  Gpu(sc_core::sc_module_name name, const Params& p);
  static std::shared_ptr<Schema> schema();
  void end_of_run() override;

  unsigned num_gpcs() const { return num_gpcs_; }
  const GpuChip* chip() const { return chip_; }  // gpu0.chip; nullptr: hetvp's generic Fermi-class GPU

 private:
  void build_fixed_parts(const Params& p);  // VRAM, host interface, MMU, routers
  void build_blocks(const Params& p);       // the `blocks` list
  void build_bar0_ports(const Params& p);   // the `bar0_ports` list (external blocks)
  void declare_stats();
  unsigned num_gpcs_;
  const GpuChip* chip_ = nullptr;
  std::unique_ptr<Memory> vram_;
  std::unique_ptr<Router> vram_bus_, bar0_;
  std::unique_ptr<gpu::HostInterface> hostif_;
  std::unique_ptr<gpu::GpuMmu> mmu_;
  std::vector<std::pair<std::string, std::unique_ptr<gpu::GpuBlock>>> blocks_;  // see gpu_block.h
  std::vector<std::unique_ptr<sc_core::sc_module>> bar0_ports_;                  // gpu.cpp Bar0Port
};

}  // namespace hetvp
