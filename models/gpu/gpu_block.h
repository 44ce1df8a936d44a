// Extension point of the GPU composite: on-chip blocks (the copy engines, the HUB/GPC
// microcontrollers, the compute units and their caches) register here; a `gpu` instance builds
// those its `blocks` key names (default: every registered block). The GPU core (PMC, PTOP, MMU,
// host interface, VRAM) is always there.
//
// A block type declares a YAML group (its parameters under the gpu instance, e.g.
// `gpu0.microcontrollers`) and a factory. The factory receives a GpuContext: the GPU's
// internal buses, to which it maps its registers (BAR0 router), binds its bus masters (GPU
// virtual addresses through the MMU) and connects its interrupts (PMC_INTR bits). A block
// never reaches into another block: it only uses these sockets and ports.
//
// BAR0 windows are configuration: a block reads its position from its group (`bar0`, default
// the gpu_map.h position), maps it with map_window() (which names the YAML key in any overlap or
// out-of-BAR0 error) and reports it in PTOP (topology()) when software must find it there.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/multi_passthrough_target_socket.h>

#include "firmware/include/hetvp/gpu_chips.h"
#include "platform/irq.h"
#include "platform/json.h"
#include "platform/param_set.h"
#include "platform/params.h"
#include "platform/registry.h"
#include "platform/router.h"
#include "platform/stats.h"

namespace hetvp::gpu {

class GpuMmu;
class ChswIf;

struct GpuContext {
  std::string name;       // the gpu instance's hierarchical name (for messages)
  unsigned num_gpcs = 0;  // gpu.gpcs
  uint64_t vram_size = 0;
  Router& bar0;              // map(label, offset, size, socket): registers the host (and HUB) reach
  TargetSocketBase& gpu_va;  // bind a bus master's initiator socket here: GPU virtual addresses
  TargetSocketBase& vram;    // physical VRAM (for blocks that must bypass the MMU)
  IrqExport& intr;           // bind an IrqPort here; raise(bit) sets PMC_INTR bit `bit`
  const Params& gpu_params;  // the whole gpu instance's YAML (read-only)
  // Sets a PTOP register (pmc.h, by name without the PTOP_ prefix): what software reads to find
  // the block (e.g. "COPY_BASE").
  std::function<void(const std::string& ptop_reg, uint32_t value)> topology;
  // Interfaces one block offers another, bound after every block is built (GpuBlock::bind):
  // the graphics engine's context-switch unit sets `chsw` (gr/chsw_if.h); the FIFO binds its
  // ChswPort to it. nullptr: no block offers it.
  sc_core::sc_export<ChswIf>* chsw = nullptr;
  // gpu0.chip: what differs between GPU generations (firmware/include/hetvp/gpu_chips.h); nullptr:
  // hetvp's generic Fermi-class GPU (GF100's id and layout, 1-16 GPCs).
  const GpuChip* chip = nullptr;
  // The graphics engine's context-switch register blocks (gr/ctxsw_unit.h), which share the
  // microcontroller windows: [0] the HUB's, [1 + n] GPC n's. The gr block sets them; the
  // microcontroller block forwards the offsets its own table lacks to them. Empty: no gr block.
  std::vector<TargetSocketBase*> ctxsw_regs{};
  // The same units' memory ports, in the same order: a Falcon context controller's xfers
  // (xdld/xdst/xcld) reach memory through them, relative to the unit's MEM_BASE in MEM_TARGET's
  // address space (FECS's port 0). Set by the gr block; the Falcon block binds to them.
  std::vector<TargetSocketBase*> ctxsw_xfer{};
  // The microcontrollers' interrupt inputs ([0] HUB, [1 + n] GPC n; raise(bit) sets IRQSTAT bit
  // `bit`), which the context-switch units raise (CHSW, engine done). Set by the microcontroller
  // block; empty with a core that has none (falcon).
  std::vector<IrqExport*> mcu_irq{};

  // Maps `target` at BAR0 [base, base + size); `group`.`key` is the YAML key that placed it and
  // `label` the block (e.g. "copy0"): an overlap or a window outside BAR0 is a ConfigError that
  // says both, with the ranges.
  void map_window(const Params& group, const std::string& key, const std::string& label, uint64_t base, uint64_t size,
                  TargetSocketBase& target) const {
    const std::string where = group.has(key) ? group.where(key) : group.path() + "." + key + " (default)";
    bar0.map(where + ", block " + name + "." + label, base, size, target);
  }
  // The same for a window placed by the parameter `placed_by` (its origin() names it).
  void map_window(const ParamBase& placed_by, const std::string& label, uint64_t base, uint64_t size,
                  TargetSocketBase& target) const {
    bar0.map(placed_by.origin() + ", block " + name + "." + label, base, size, target);
  }
};

// A built block: keeps its modules alive and reports its statistics.
class GpuBlock {
 public:
  virtual ~GpuBlock() = default;
  // Nests the block's statistics into the GPU's group; false: the GPU nests them under the
  // block's key (its HasStats group, or dump_stats()).
  virtual bool add_stats(StatGroup& /*gpu*/) { return false; }
  virtual void dump_stats(JsonWriter&) const {}
  virtual void end_of_run() {}
  // Called once every selected block is built: bind ports to what other blocks offer in the
  // context (e.g. the FIFO's ChswPort to ctx.chsw). A missing required peer is a ConfigError.
  virtual void bind(GpuContext& /*ctx*/) {}
};

struct GpuBlockType {
  static constexpr const char* kKind = "GPU block";
  std::string name;  // YAML group name under the gpu instance
  std::string doc;
  std::function<std::shared_ptr<Schema>()> schema;
  // Builds the block inside the GPU module (called from the Gpu constructor, so new
  // sc_modules become children of the gpu instance).
  std::function<std::unique_ptr<GpuBlock>(GpuContext&, const Params& group)> create;
  // Blocks are built in (build_order, name) order; the copy engines (-1) come first, as when the
  // GPU built them itself, so that module and process order did not change.
  int build_order = 0;
  // false: built only when `blocks` names it (the default `blocks` lists the others); for a block
  // that only makes sense in some configurations (pgraph: GF100's register lists).
  bool in_default = true;
};

// Iterated in name order (not registration order, which depends on link order).
using GpuBlockRegistry = Registry<GpuBlockType>;

}  // namespace hetvp::gpu

// HETVP_REGISTER_GPU_BLOCK("microcontrollers", "HUB and GPC microcontrollers", schema_fn, create_fn);
#define HETVP_REGISTER_GPU_BLOCK(KEY, DOC, SCHEMA_FN, CREATE_FN) \
  HETVP_REGISTER_ENTRY(::hetvp::gpu::GpuBlockType, KEY, DOC, SCHEMA_FN, CREATE_FN)

// A block whose parameters are the ParamSet CONFIG (platform/param_set.h); CREATE_FN is
// `std::unique_ptr<GpuBlock>(GpuContext&, const CONFIG&)`.
#define HETVP_REGISTER_GPU_BLOCK_CONFIG(KEY, DOC, CONFIG, CREATE_FN)                                         \
  HETVP_REGISTER_ENTRY(                                                                                      \
      ::hetvp::gpu::GpuBlockType, KEY, DOC, [] { return CONFIG{}.schema(); },                                \
      [](::hetvp::gpu::GpuContext& ctx, const ::hetvp::Params& p) -> std::unique_ptr<::hetvp::gpu::GpuBlock> { \
        return CREATE_FN(ctx, ::hetvp::load<CONFIG>(p));                                                     \
      })
