// Extension point of the GPU composite: on-chip blocks (the copy engines, the HUB/GPC
// microcontrollers, the compute units and their caches) register here; a `gpu` instance builds
// those its `blocks` key names (default: every registered block). The GPU core (PMC, PTOP, MMU,
// host interface, VRAM) is always there.
//
// A block type declares a YAML group (its parameters under the gpu instance, e.g.
// `gpu0.microcontrollers`) and a factory. The factory receives a GpuContext: the GPU's
// internal buses, to which it maps its registers (BAR0 router), binds its bus masters (GPU
// virtual addresses through the MMU) and connects its interrupts (PMC_INTR bits). A block
// never reaches into another block: it only uses these sockets and ports, and the typed facts
// (GpuFacts) the gpu and the other blocks publish.
//
// BAR0 windows are configuration: a block reads its position from its group (`bar0`, default
// the gpu_map.h position), maps it with map_window() (which names the YAML key in any overlap or
// out-of-BAR0 error) and reports it in PTOP (topology()) when software must find it there.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
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

// The core of the HUB and GPC microcontrollers (the microcontroller block's `core`).
HETVP_ENUM(McuCore, rv32, falcon);

// Facts: what one block needs to know of the gpu or of another block. A block never reads
// another block's YAML (nor the gpu's): the owner publishes the value here, typed.
//   - The gpu sets its own (num_gpcs ... copy_engines, chip_where, blocks_where).
//   - Each selected block publishes what its configuration fixes, BEFORE any block is built
//     (GpuBlockType::publish; a ParamSet block defines `void publish(GpuFacts&) const` in its
//     Config), so a block built early sees a fact of one built later (gr is built before the
//     microcontrollers, yet needs their core). publish() sees the gpu's facts already set.
// A fact whose block is not selected keeps its default below.
struct GpuFacts {
  // ---- the gpu
  unsigned num_gpcs = 0;          // gpu.gpcs (with a chip and not given: the chip's)
  const GpuChip* chip = nullptr;  // gpu.chip: what differs between generations (gpu_chips.h); nullptr: hetvp's
                                  // generic Fermi-class GPU (GF100's id and layout, 1-16 GPCs)
  uint64_t vram_size = 0;         // gpu.vram.size
  uint64_t bar0_size = 0;         // gpu.pcie.bar0_size: BAR0's size (a window must lie inside it)
  unsigned copy_engines = 0;      // gpu.copy_engines: engines the copy_engine block builds
  std::string chip_where;         // where gpu.chip is ("file:line:col (gpu0.chip)"), for located messages
  std::string blocks_where;       // where gpu.blocks is, likewise
  // ---- the compute block (models/gpu/compute): its BAR0 windows; unset: no compute block
  struct ComputeWindows {
    uint32_t bar0;           // the front end's registers (compute.bar0, PTOP_COMPUTE_BASE)
    std::string bar0_where;  // where compute.bar0 was given; "" : its default
    uint32_t gpc_bar0;       // GPC 0's compute state (compute.gpc_bar0); GPC n at + n * GPU_GPC_STRIDE
  };
  std::optional<ComputeWindows> compute;
  // ---- the microcontroller block (models/mcu)
  McuCore mcu_core = McuCore::rv32;  // microcontrollers.core
  unsigned tpcs = 0;  // TPCs per GPC the context controllers report (microcontrollers.tpcs, default the chip's);
                      // 0: not published (tpcs_per_gpc() falls back to the chip's, else GF100's 4)
  unsigned tpcs_per_gpc() const { return tpcs ? tpcs : chip ? chip->tpcs : 4; }
};

// A per-microcontroller connection in named slots: the HUB's and one per GPC (gpc[n] = GPC n).
// empty(): not published (every GPU has at least one GPC).
template <class T>
struct McuSlots {
  T hub{};
  std::vector<T> gpc;
  bool empty() const { return gpc.empty(); }
};

// One context-switch unit's ports (gr/ctxsw_unit.h), which share its microcontroller's window.
struct CtxswPorts {
  // Its registers: the microcontroller forwards the offsets its own table lacks here.
  TargetSocketBase* regs = nullptr;
  // Its memory port: a Falcon context controller's xfers (xdld/xdst/xcld) reach memory through it,
  // relative to the unit's MEM_BASE in MEM_TARGET's address space (FECS's port 0).
  TargetSocketBase* xfer = nullptr;
};

// What a block's factory gets: the facts above, the GPU's internal buses and the connections
// blocks offer each other.
struct GpuContext : GpuFacts {
  GpuContext(GpuFacts facts, std::string name, Router& bar0, TargetSocketBase& gpu_va, TargetSocketBase& vram,
             IrqExport& intr, std::function<void(const std::string&, uint32_t)> topology)
      : GpuFacts(std::move(facts)),
        name(std::move(name)),
        bar0(bar0),
        gpu_va(gpu_va),
        vram(vram),
        intr(intr),
        topology(std::move(topology)) {}

  std::string name;          // the gpu instance's hierarchical name (for messages)
  Router& bar0;              // map(label, offset, size, socket): registers the host (and HUB) reach
  TargetSocketBase& gpu_va;  // bind a bus master's initiator socket here: GPU virtual addresses
  TargetSocketBase& vram;    // physical VRAM (for blocks that must bypass the MMU)
  IrqExport& intr;           // bind an IrqPort here; raise(bit) sets PMC_INTR bit `bit`
  // Sets a PTOP register (pmc.h, by name without the PTOP_ prefix): what software reads to find
  // the block (e.g. "COPY_BASE").
  std::function<void(const std::string& ptop_reg, uint32_t value)> topology;

  // ---- connections: set while the blocks are built, used in GpuBlock::bind() (after all are built)
  // The graphics engine's context-switch unit sets `chsw` (gr/chsw_if.h); the FIFO binds its
  // ChswPort to it. nullptr: no block offers it.
  sc_core::sc_export<ChswIf>* chsw = nullptr;
  // The graphics engine's context-switch units, one per microcontroller (set by the gr block); the
  // microcontroller block attaches each to its microcontroller. Empty: no gr block.
  McuSlots<CtxswPorts> ctxsw;
  // The microcontrollers' interrupt inputs (raise(bit) sets IRQSTAT bit `bit`), which the
  // context-switch units raise (CHSW, engine done). Set by the microcontroller block; empty with a
  // core that has none.
  McuSlots<IrqExport*> mcu_irqs;

  // Maps `target` at BAR0 [base, base + size); `placed_by` is the parameter that placed it (its
  // origin() names the YAML key or its default) and `label` the block (e.g. "copy0"): an overlap or
  // a window outside BAR0 is a ConfigError that says both, with the ranges.
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
  // Publishes the facts the block's configuration fixes (GpuFacts), before any block is built;
  // nullptr: none.
  std::function<void(const Params& group, GpuFacts&)> publish = nullptr;
  // The block's cross-field rules (its ParamSet's validate()), run by the gpu's validate() when
  // the block is selected; nullptr: none.
  std::function<void(const Params& group, Diagnostics&)> validate = nullptr;
};

// Iterated in name order (not registration order, which depends on link order).
using GpuBlockRegistry = Registry<GpuBlockType>;

namespace detail {
template <class C, class = void>
struct HasPublish : std::false_type {};
template <class C>
struct HasPublish<C, std::void_t<decltype(std::declval<const C&>().publish(std::declval<GpuFacts&>()))>>
    : std::true_type {};

// The entry of a block whose parameters are the ParamSet CONFIG: schema, factory and, when
// CONFIG has `void publish(GpuFacts&) const`, the facts it publishes; its validate() runs at check time.
template <class CONFIG>
GpuBlockType block_type(const char* key, const char* doc,
                        std::function<std::unique_ptr<GpuBlock>(GpuContext&, const CONFIG&)> create,
                        int build_order = 0, bool in_default = true) {
  GpuBlockType t;
  t.name = key;
  t.doc = doc;
  t.schema = [] { return CONFIG{}.schema(); };
  t.create = [create](GpuContext& ctx, const Params& p) { return create(ctx, load<CONFIG>(p)); };
  t.build_order = build_order;
  t.in_default = in_default;
  if constexpr (HasPublish<CONFIG>::value) t.publish = [](const Params& p, GpuFacts& f) { load<CONFIG>(p).publish(f); };
  t.validate = [](const Params& p, Diagnostics& d) { d.collect([&] { load<CONFIG>(p).validate(d); }); };
  return t;
}
}  // namespace detail

}  // namespace hetvp::gpu

// A block whose parameters are the ParamSet CONFIG (platform/param_set.h); CREATE_FN is
// `std::unique_ptr<GpuBlock>(GpuContext&, const CONFIG&)`; then, optionally, the build order and
// whether the default `blocks` lists it (GpuBlockType).
#define HETVP_REGISTER_GPU_BLOCK_CONFIG(KEY, DOC, CONFIG, ...) \
  HETVP_REGISTER_ENTRY(::hetvp::gpu::GpuBlockType, ::hetvp::gpu::detail::block_type<CONFIG>(KEY, DOC, __VA_ARGS__))
