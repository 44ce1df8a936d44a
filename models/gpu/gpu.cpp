#include "models/gpu/gpu.h"

#include <algorithm>
#include <cctype>
#include <set>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/gpu/gpu_block.h"
#include "models/gpu/gpu_regs.h"
#include "platform/access_info.h"
#include "platform/config.h"
#include "platform/format.h"
#include "platform/registry.h"

namespace hetvp {

HETVP_REGISTER_COMPONENT("gpu", Gpu, "Fermi-class GPU: PCIe endpoint, BAR0 registers, VRAM, MMU, copy engine");

namespace {
// An internal router: no map of its own (the gpu maps into it), no latency; `path` names it in messages.
RouterConfig internal_router(const std::string& path) {
  return load<RouterConfig>(Params(YAML::Node(YAML::NodeType::Map), RouterConfig{}.schema(), path));
}

// One `bar0_ports` window: the BAR0 router sends accesses in [base, base + size) here (address =
// offset in the window), and they leave unchanged through `out`, the gpu's initiator port of the
// same name, to whatever the YAML connected it to. It adds no time: the BAR0 path's latencies
// (PCIe, host interface) are already counted before it.
//
// An external block may synchronise (an RTL block's register bridge waits until the access's
// arrival, then for the block's answer). A microcontroller core calls from inside its burst
// (AccessInfo::may_wait false) with its local time offset as the delay, and counts that offset
// again when the burst ends: waiting it here too would count it twice. Its accesses are presented
// at the current SystemC time instead (the block's own answer time still passes), and the core's
// offset comes back unchanged, plus whatever the block annotates.
class Bar0Port : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Bar0Port> in{"in"};
  tlm_utils::simple_initiator_socket<Bar0Port> out{"out"};
  explicit Bar0Port(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    in.register_b_transport(this, &Bar0Port::b_transport);
    in.register_transport_dbg(this, &Bar0Port::transport_dbg);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    const AccessInfo* info = gp.get_extension<AccessInfo>();
    if (info && !info->may_wait) {
      sc_core::sc_time added = sc_core::SC_ZERO_TIME;
      out->b_transport(gp, added);
      delay += added;
      return;
    }
    out->b_transport(gp, delay);
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) { return out->transport_dbg(gp); }
};

// The gpu's own port names: a bar0_ports entry may not take one.
const std::set<std::string> kFixedPorts = {"pcie", "upstream", "gpu_va"};
}  // namespace

// ---- the parameters -----------------------------------------------------------------------------
GpuChipParam::GpuChipParam(ParamSet* owner) : ParamBase(owner, "chip", ParamKind::Enum, "") {
  std::string doc =
      "GPU generation (firmware/include/hetvp/gpu_chips.h, docs/kepler.md): hetvp = a Fermi-class GPU with "
      "GF100's id and 1-16 GPCs";
  spec_.choices = {"hetvp"};
  for (unsigned i = 0; i < gpu_chip_count(); ++i) {
    spec_.choices.push_back(gpu_chips_begin()[i].name);
    doc += std::string(", ") + gpu_chips_begin()[i].name + " = " + gpu_chips_begin()[i].description;
  }
  spec_.doc = doc;
  spec_.default_text = "hetvp";
}
void GpuChipParam::read(const Params& p) {
  const YAML::Node& gpu = p.node();  // const: looking does not insert the key
  chip_ = find_gpu_chip(given() ? gpu[key()].Scalar() : *spec_.default_text);
}

void GpuBlockGroups::declare(Schema& s) const {
  for (auto& [key, b] : gpu::GpuBlockRegistry::get().entries()) s.group(key, b.schema(), b.doc);
}

std::string GpuConfig::default_blocks() {
  std::string all;
  for (auto& [key, b] : gpu::GpuBlockRegistry::get().entries())
    if (b.in_default) all += (all.empty() ? "" : ",") + key;
  return all;
}
std::string GpuConfig::blocks_doc() {
  std::string optional;
  for (auto& [key, b] : gpu::GpuBlockRegistry::get().entries())
    if (!b.in_default) optional += (optional.empty() ? "" : ", ") + key;
  return "on-chip blocks to build, comma-separated GPU block types (default " + default_blocks() +
         (optional.empty() ? "" : "; built only when listed: " + optional) + "); empty: none";
}

// The GPU block types named by `blocks`, in registry (name) order so that statistics do not
// depend on how the list is written, then by build order.
std::vector<const gpu::GpuBlockType*> GpuConfig::selected_blocks() const {
  std::set<std::string> want;
  const std::string& text = blocks;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string n = text.substr(start, end - start);
    n.erase(0, n.find_first_not_of(" \t"));
    n.erase(n.find_last_not_of(" \t") + 1);
    start = end + 1;
    if (n.empty()) continue;
    if (!gpu::GpuBlockRegistry::get().find(n)) {
      std::string known;
      for (auto& k : gpu::GpuBlockRegistry::get().names()) known += (known.empty() ? "" : ", ") + k;
      throw ConfigError(blocks.where() + ": unknown GPU block '" + n + "' (GPU blocks: " + known + ")");
    }
    if (!want.insert(n).second) throw ConfigError(blocks.where() + ": GPU block '" + n + "' listed twice");
  }
  std::vector<const gpu::GpuBlockType*> v;
  for (auto& [key, b] : gpu::GpuBlockRegistry::get().entries())
    if (want.count(key)) v.push_back(&b);
  std::stable_sort(v.begin(), v.end(), [](auto* a, auto* b) { return a->build_order < b->build_order; });
  return v;
}

// The gpu's cross-field rules, checked before anything is built.
void GpuConfig::validate(Diagnostics& d) const {
  const GpuChip* c = chip;
  if (c && num_gpcs() > c->gpcs)
    d.error(gpcs.where() + ": " + std::to_string(num_gpcs()) + " GPCs, but chip " + c->name + " has " +
            std::to_string(c->gpcs) + " (legal: 1.." + std::to_string(c->gpcs) + "; the chip at " + chip.where() + ")");
  d.collect([&] {
    const auto selected = selected_blocks();
    for (auto* b : selected)
      if (b->validate) b->validate(block_groups.of(*b), d);
    if (copy_engines.given() &&
        std::none_of(selected.begin(), selected.end(), [](auto* b) { return b->name == "copy_engine"; }))
      d.error(copy_engines.where() + ": " + yaml_path() +
              ".copy_engines is set, but the copy_engine block is not built (not in " + blocks.where() + ")");
  });
  if (bar0_ports.size() > PTOP_EXT_MAX)
    d.error(bar0_ports.where() + ": " + std::to_string(bar0_ports.size()) + " bar0_ports, PTOP describes at most " +
            std::to_string(PTOP_EXT_MAX));
  std::set<std::string> names;
  for (const Bar0PortConfig& e : bar0_ports) {
    const std::string& n = e.name;
    const bool ident =
        !n.empty() && std::all_of(n.begin(), n.end(), [](char ch) { return std::isalnum(uint8_t(ch)) || ch == '_'; });
    if (!ident)
      d.error(e.name.where() + ": port name '" + n + "' must be letters, digits and '_'");
    else if (kFixedPorts.count(n))
      d.error(e.name.where() + ": '" + n + "' is a port of the gpu itself");
    else if (!names.insert(n).second)
      d.error(e.name.where() + ": port '" + n + "' named twice in bar0_ports");
    if (e.base % 4 || e.size % 4 || e.size == 0)
      d.error(e.base.where() + ": window [" + hex(e.base) + ", +" + hex(e.size) +
              ") must be 4-byte aligned and not empty (BAR0 registers are 32 bit)");
  }
}

// ---- the model -------------------------------------------------------------------------------------
Gpu::Gpu(sc_core::sc_module_name n, const GpuConfig& c) : Component(n) {
  chip_ = c.chip;
  num_gpcs_ = c.num_gpcs();
  build_fixed_parts(c);
  build_blocks(c);
  build_bar0_ports(c);
  expose_target("pcie", hostif_->pcie);
  // GPU virtual addresses for an external block's bus master (optional: costs nothing unbound).
  expose_target("gpu_va", mmu_->in, true);
  expose_initiator("upstream", hostif_->upstream);
  declare_stats();
}

// VRAM, the host interface (PMC, PTOP), the MMU and the two routers: what every GPU has.
void Gpu::build_fixed_parts(const GpuConfig& c) {
  vram_ = std::make_unique<Memory>("vram", c.vram);
  vram_bus_ = std::make_unique<Router>("vram_bus", internal_router(std::string(name()) + ".vram_bus"));
  bar0_ = std::make_unique<Router>("bar0", internal_router(std::string(name()) + ".bar0"));
  // hetvp's own Fermi-class GPU (no gpu0.chip) answers as the GTX 480 it is modelled on.
  const GpuChip* pci_chip = chip_ ? chip_ : find_gpu_chip("gf100");
  hostif_ = std::make_unique<gpu::HostInterface>("hostif", c.pcie, num_gpcs_, vram_->size(), pci_chip->pci_device);
  mmu_ = std::make_unique<gpu::GpuMmu>("mmu", c.mmu, vram_->size());

  const std::string me = name();
  vram_bus_->map(me + ".vram", 0, vram_->size(), vram_->in);
  // BAR1 reaches VRAM directly (one hop less per uncached read, #31): the VRAM bus routes the GPU's
  // own bus masters, which add nothing to a BAR1 access (no latency, VRAM at offset 0).
  hostif_->bar1.bind(vram_->in);
  mmu_->vram.bind(vram_bus_->in);
  mmu_->sysmem.bind(hostif_->dma);
  hostif_->bar0.bind(bar0_->in);
  bar0_->limit(hostif_->bar0_size(), "BAR0 of " + hex(hostif_->bar0_size()) + " (" + c.pcie.bar0_size.where() + ")");
  bar0_->map(me + ".pmc (fixed)", GPU_PMC_BASE, GPU_WINDOW_PMC, hostif_->pmc);
  bar0_->map(me + ".ptop (fixed)", GPU_PTOP_BASE, GPU_WINDOW_PTOP, hostif_->ptop);
  bar0_->map(me + ".mmu (fixed)", GPU_MMU_BASE, GPU_WINDOW_MMU, mmu_->regs);
  mmu_->intr.bind(hostif_->intr);
  if (chip_) hostif_->set_boot0(chip_->boot0());
}

// On-chip blocks (copy engines, microcontrollers, compute units), as `blocks` lists them: the
// gpu's facts first, then every selected block's (gpu_block.h), then the blocks, then their binds.
void Gpu::build_blocks(const GpuConfig& c) {
  gpu::GpuFacts facts;
  facts.num_gpcs = num_gpcs_;
  facts.chip = chip_;
  facts.vram_size = vram_->size();
  facts.bar0_size = hostif_->bar0_size();
  facts.copy_engines = c.copy_engines;
  facts.chip_where = c.chip.where();
  facts.blocks_where = c.blocks.where();
  const auto selected = c.selected_blocks();
  for (auto* b : selected)
    if (b->publish) b->publish(c.block_groups.of(*b), facts);
  gpu::GpuContext ctx(std::move(facts), name(), *bar0_, mmu_->in, vram_bus_->in, hostif_->intr,
                      [this](const std::string& reg, uint32_t v) { hostif_->set_topology(reg, v); });
  for (auto* b : selected) blocks_.emplace_back(b->name, b->create(ctx, c.block_groups.of(*b)));
  for (auto& [key, b] : blocks_) b->bind(ctx);
}

// External blocks' windows, after the GPU's own blocks so that an overlap names both. Each is a
// required initiator port: a window nobody connected is the builder's located "not connected" error.
// The entries were checked by GpuConfig::validate.
void Gpu::build_bar0_ports(const GpuConfig& c) {
  for (size_t i = 0; i < c.bar0_ports.size(); ++i) {
    const Bar0PortConfig& e = c.bar0_ports[i];
    const std::string& n = e.name;
    const uint64_t base = e.base, size = e.size;
    auto port = std::make_unique<Bar0Port>(("bar0_port_" + n).c_str());
    bar0_->map(e.base.where() + ", bar0_ports '" + n + "' of " + std::string(name()), base, size, port->in);
    expose_initiator(n, port->out);
    hostif_->set_topology("EXT_BASE" + std::to_string(i), uint32_t(base));
    hostif_->set_topology("EXT_SIZE" + std::to_string(i), uint32_t(size));
    bar0_ports_.push_back(std::move(port));
  }
  hostif_->set_topology("EXT_COUNT", uint32_t(c.bar0_ports.size()));
}

// Statistics: the sub-blocks' declared groups, nested in this order.
void Gpu::declare_stats() {
  stats().add("hostif", hostif_->stats()).add("vram", vram_->stats()).add("mmu", mmu_->stats());
  for (auto& [key, b] : blocks_) {
    if (b->add_stats(stats())) continue;
    if (auto* h = dynamic_cast<HasStats*>(b.get())) {
      stats().add(key, h->stat_group());
    } else {
      const gpu::GpuBlock* blk = b.get();
      stats().add_undeclared(key, [blk](JsonWriter& w) { blk->dump_stats(w); });
    }
  }
  stats().add("bar0", bar0_->stats());
}

}  // namespace hetvp

void hetvp::Gpu::end_of_run() {
  for (auto& [key, b] : blocks_) b->end_of_run();
}
