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
#include <string>
#include <vector>

#include "models/gpu/gpu_block.h"
#include "models/gpu/gpu_mmu.h"
#include "models/gpu/host_interface.h"
#include "models/memory/memory.h"
#include "firmware/include/hetvp/gpu_chips.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "platform/component.h"
#include "platform/param_set.h"
#include "platform/router.h"

namespace hetvp {

// gpu.chip: a word of the chip table (firmware/include/hetvp/gpu_chips.h), read as that chip;
// "hetvp" (the default) reads as nullptr. Its words and doc come from the table.
class GpuChipParam : public ParamBase {
 public:
  explicit GpuChipParam(ParamSet* owner);
  operator const GpuChip*() const { return chip_; }
  const GpuChip* operator()() const { return chip_; }

 private:
  void read(const Params& p) override;
  const GpuChip* chip_ = nullptr;
};

// One group per registered GPU block type (gpu_block.h), each under its registry name. The keys
// are dynamic on purpose: a block registers itself (a plugin may add one), and the gpu hands each
// block its own group without knowing its parameters.
class GpuBlockGroups : public ParamBase {
 public:
  explicit GpuBlockGroups(ParamSet* owner) : ParamBase(owner, "", ParamKind::Group, "") {}
  // The YAML group of block type `block` (validated against that type's schema).
  Params of(const gpu::GpuBlockType& block) const {
    const YAML::Node& gpu = gpu_.node();  // const: looking does not insert the key
    const YAML::Node group = gpu[block.name] ? gpu[block.name] : YAML::Node(YAML::NodeType::Map);
    return Params(group, block.schema(), gpu_.path() + "." + block.name, gpu_.source());
  }

 private:
  void declare(Schema& s) const override;
  void read(const Params& p) override { gpu_ = p; }
  Params gpu_;
};

// One `bar0_ports` entry: an external block's BAR0 window.
struct Bar0PortConfig : ParamSet {
  Str name{this, "name", nullptr, "the gpu's initiator port for this window (connect it: connect: {NAME: blk.regs})",
           Required{}};
  Int<uint64_t> base{this, "base", 0, "BAR0 offset of the window", Required{}, Min{0}};
  Size size{this, "size", nullptr, "size of the window", Required{}};
};

// The gpu's parameters (YAML type `gpu`).
struct GpuConfig : ParamSet {
  // With a chip, absent means the chip's count: the resolved config must not pin 4.
  Int<unsigned> gpcs{this, "gpcs", 4,
                     "number of GPCs (each with one GPC microcontroller); with a chip: 1 to the chip's GPCs, default "
                     "all of them",
                     Range{1, 16}, OnlyWhenGiven{}};
  GpuChipParam chip{this};
  // VRAM defaults of a GTX 480: 1.5 GiB GDDR5, 177.4 GB/s.
  Group<MemoryConfig> vram{this, "vram", "the frame buffer (a memory: size, latency, write_latency, bandwidth)",
                           [](MemoryConfig& m) {
                             m.size.set_default("1536 MiB");
                             m.latency.set_default("100 ns");
                             m.bandwidth.set_default_text("177.4e9");
                           }};
  Group<gpu::HostInterfaceConfig> pcie{this, "pcie", "PCIe endpoint and host interface"};
  Group<gpu::GpuMmuConfig> mmu{this, "mmu", "GPU MMU"};
  // Checked against `blocks` only when given (the resolved config leaves it out).
  Int<unsigned> copy_engines{this, "copy_engines", 2,
                             "number of copy engines when the copy_engine block is built (registers at "
                             "copy_engine.bar0 + n * 0x1000)",
                             Range{1, GPU_MAX_COPY_ENGINES}, OnlyWhenGiven{}};
  GpuBlockGroups block_groups{this};
  // Default: every block type in the default set; the words are the registry's (gpu_block.h).
  Str blocks{this, "blocks", default_blocks().c_str(), blocks_doc().c_str()};
  List<Bar0PortConfig> bar0_ports{this, "bar0_ports",
                                  "external blocks in BAR0 (at most 4): each {name, base, size} maps that BAR0 window "
                                  "to the gpu's initiator port `name`; PTOP EXT_COUNT/EXT_BASE/EXT_SIZE report them "
                                  "(docs/rtl_blocks.md)"};

  // The GPCs built: gpcs, or with a chip and gpcs not given, the chip's.
  unsigned num_gpcs() const { return chip() && !gpcs.given() ? chip()->gpcs : gpcs(); }
  // The block types `blocks` names, in build order; an unknown or repeated name is a ConfigError.
  std::vector<const gpu::GpuBlockType*> selected_blocks() const;
  void validate(Diagnostics& d) const override;

 private:
  static std::string default_blocks();
  static std::string blocks_doc();
};

class Gpu : public Component {
 public:
  using Config = GpuConfig;
  Gpu(sc_core::sc_module_name name, const GpuConfig& c);
  void end_of_run() override;

  unsigned num_gpcs() const { return num_gpcs_; }
  const GpuChip* chip() const { return chip_; }  // gpu0.chip; nullptr: hetvp's generic Fermi-class GPU

 private:
  void build_fixed_parts(const GpuConfig& c);  // VRAM, host interface, MMU, routers
  void build_blocks(const GpuConfig& c);       // the `blocks` list
  void build_bar0_ports(const GpuConfig& c);   // the `bar0_ports` list (external blocks)
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
