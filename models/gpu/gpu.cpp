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
// A Params view of a sub-group validated against a sub-component's own schema.
Params sub(const Params& p, const std::string& key) { return p.group(key); }
Params empty_router_params(const std::string& path) {
  YAML::Node n(YAML::NodeType::Map);
  return Params(n, Router::schema(), path);
}
// The GPU block types named by `blocks`, in registry (name) order so that statistics do not
// depend on how the list is written. Unknown or repeated names are located config errors.
std::vector<const gpu::GpuBlockType*> selected_blocks(const Params& p) {
  std::set<std::string> want;
  std::string text = p.string("blocks");
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
      throw ConfigError(p.where("blocks") + ": unknown GPU block '" + n + "' (GPU blocks: " + known + ")");
    }
    if (!want.insert(n).second) throw ConfigError(p.where("blocks") + ": GPU block '" + n + "' listed twice");
  }
  std::vector<const gpu::GpuBlockType*> v;
  for (auto& [key, b] : gpu::GpuBlockRegistry::get().entries())
    if (want.count(key)) v.push_back(&b);
  std::stable_sort(v.begin(), v.end(), [](auto* a, auto* b) { return a->build_order < b->build_order; });
  return v;
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

std::shared_ptr<Schema> Gpu::schema() {
  auto s = std::make_shared<Schema>();
  s->integer("gpcs", 4,
             "number of GPCs (each with one GPC microcontroller); with a chip: 1 to the chip's GPCs, default all of "
             "them")
      .range(1, 16)
      .only_when_given();  // with a chip, absent means the chip's count: the resolved config must not pin 4
  std::vector<std::string> chips = {"hetvp"};
  std::string chip_doc;
  for (unsigned i = 0; i < gpu_chip_count(); ++i) {
    chips.push_back(gpu_chips_begin()[i].name);
    chip_doc += std::string(", ") + gpu_chips_begin()[i].name + " = " + gpu_chips_begin()[i].description;
  }
  s->choice("chip", chips, std::string("hetvp"),
            "GPU generation (firmware/include/hetvp/gpu_chips.h, docs/kepler.md): hetvp = a Fermi-class GPU with "
            "GF100's id and 1-16 GPCs" +
                chip_doc);
  auto vram = Memory::schema();
  // VRAM defaults of a GTX 480: 1.5 GiB GDDR5, 177.4 GB/s.
  for (auto& spec : vram->specs) {
    if (spec.name == "size") {
      spec.required = false;
      spec.default_text = "1536 MiB";
    }
    if (spec.name == "latency") spec.default_text = "100 ns";
    if (spec.name == "bandwidth") spec.default_text = "177.4e9";
  }
  s->group("vram", vram, "the frame buffer (a memory: size, latency, write_latency, bandwidth)");
  s->group("pcie", gpu::HostInterface::schema(), "PCIe endpoint and host interface");
  s->group("mmu", gpu::GpuMmu::schema(), "GPU MMU");
  s->integer("copy_engines", 2,
             "number of copy engines when the copy_engine block is built (registers at copy_engine.bar0 + n * "
             "0x1000)")
      .range(1, GPU_MAX_COPY_ENGINES)
      .only_when_given();  // checked against `blocks` only when given (the resolved config leaves it out)
  std::string all;
  std::string optional;
  for (auto& [key, b] : gpu::GpuBlockRegistry::get().entries()) {
    s->group(key, b.schema(), b.doc);
    if (b.in_default)
      all += (all.empty() ? "" : ",") + key;
    else
      optional += (optional.empty() ? "" : ", ") + key;
  }
  s->string("blocks", all,
            "on-chip blocks to build, comma-separated GPU block types (default " + all +
                (optional.empty() ? "" : "; built only when listed: " + optional) + "); empty: none");
  auto port = std::make_shared<Schema>();
  port->string("name", std::nullopt, "the gpu's initiator port for this window (connect it: connect: {NAME: blk.regs})")
      .required();
  port->integer("base", std::nullopt, "BAR0 offset of the window").required().min(0);
  port->size("size", std::nullopt, "size of the window").required();
  s->list("bar0_ports", port,
          "external blocks in BAR0 (at most 4): each {name, base, size} maps that BAR0 window to the gpu's "
          "initiator port `name`; PTOP EXT_COUNT/EXT_BASE/EXT_SIZE report them (docs/rtl_blocks.md)");

  return s;
}

Gpu::Gpu(sc_core::sc_module_name n, const Params& p) : Component(n) {
  chip_ = find_gpu_chip(p.string("chip"));
  num_gpcs_ = p.u32("gpcs");
  if (chip_ && !p.has("gpcs")) num_gpcs_ = chip_->gpcs;
  if (chip_ && num_gpcs_ > chip_->gpcs)
    throw ConfigError(p.where("gpcs") + ": " + std::to_string(num_gpcs_) + " GPCs, but chip " + chip_->name +
                      " has " + std::to_string(chip_->gpcs) + " (legal: 1.." + std::to_string(chip_->gpcs) +
                      "; the chip at " + p.where("chip") + ")");
  build_fixed_parts(p);
  build_blocks(p);
  build_bar0_ports(p);
  expose_target("pcie", hostif_->pcie);
  // GPU virtual addresses for an external block's bus master (optional: costs nothing unbound).
  expose_target("gpu_va", mmu_->in, true);
  expose_initiator("upstream", hostif_->upstream);
  declare_stats();
}

// VRAM, the host interface (PMC, PTOP), the MMU and the two routers: what every GPU has.
void Gpu::build_fixed_parts(const Params& p) {
  vram_ = std::make_unique<Memory>("vram", sub(p, "vram"));
  vram_bus_ = std::make_unique<Router>("vram_bus", empty_router_params(std::string(name()) + ".vram_bus"));
  bar0_ = std::make_unique<Router>("bar0", empty_router_params(std::string(name()) + ".bar0"));
  hostif_ = std::make_unique<gpu::HostInterface>("hostif", sub(p, "pcie"), num_gpcs_, vram_->size());
  mmu_ = std::make_unique<gpu::GpuMmu>("mmu", sub(p, "mmu"), vram_->size());

  const std::string me = name();
  vram_bus_->map(me + ".vram", 0, vram_->size(), vram_->in);
  // BAR1 reaches VRAM directly (one hop less per uncached read, #31): the VRAM bus routes the GPU's
  // own bus masters, which add nothing to a BAR1 access (no latency, VRAM at offset 0).
  hostif_->bar1.bind(vram_->in);
  mmu_->vram.bind(vram_bus_->in);
  mmu_->sysmem.bind(hostif_->dma);
  hostif_->bar0.bind(bar0_->in);
  bar0_->limit(hostif_->bar0_size(), "BAR0 of " + hex(hostif_->bar0_size()) + " (" + p.where("pcie.bar0_size") + ")");
  bar0_->map(me + ".pmc (fixed)", GPU_PMC_BASE, GPU_WINDOW_PMC, hostif_->pmc);
  bar0_->map(me + ".ptop (fixed)", GPU_PTOP_BASE, GPU_WINDOW_PTOP, hostif_->ptop);
  bar0_->map(me + ".mmu (fixed)", GPU_MMU_BASE, GPU_WINDOW_MMU, mmu_->regs);
  mmu_->intr.bind(hostif_->intr);
  if (chip_) hostif_->set_boot0(chip_->boot0());
}

// On-chip blocks (copy engines, microcontrollers, compute units), as `blocks` lists them.
void Gpu::build_blocks(const Params& p) {
  gpu::GpuContext ctx{name(),
                      num_gpcs_,
                      vram_->size(),
                      *bar0_,
                      mmu_->in,
                      vram_bus_->in,
                      hostif_->intr,
                      p,
                      [this](const std::string& reg, uint32_t v) { hostif_->set_topology(reg, v); }};
  ctx.chip = chip_;
  auto selected = selected_blocks(p);
  if (p.has("copy_engines") &&
      std::none_of(selected.begin(), selected.end(), [](auto* b) { return b->name == "copy_engine"; }))
    throw ConfigError(p.where("copy_engines") + ": " + p.path() +
                      ".copy_engines is set, but the copy_engine block is not built (not in " + p.where("blocks") +
                      ")");
  for (auto* b : selected) blocks_.emplace_back(b->name, b->create(ctx, p.group(b->name)));
  for (auto& [key, b] : blocks_) b->bind(ctx);
}

// External blocks' windows, after the GPU's own blocks so that an overlap names both. Each is a
// required initiator port: a window nobody connected is the builder's located "not connected" error.
void Gpu::build_bar0_ports(const Params& p) {
  const auto list = p.list("bar0_ports");
  if (list.size() > PTOP_EXT_MAX)
    throw ConfigError(p.where("bar0_ports") + ": " + std::to_string(list.size()) + " bar0_ports, PTOP describes at most " +
                      std::to_string(PTOP_EXT_MAX));
  std::set<std::string> names;
  for (size_t i = 0; i < list.size(); ++i) {
    const Params& e = list[i];
    const std::string n = e.string("name");
    const bool ident = !n.empty() && std::all_of(n.begin(), n.end(), [](char c) { return std::isalnum(uint8_t(c)) || c == '_'; });
    if (!ident) throw ConfigError(e.where("name") + ": port name '" + n + "' must be letters, digits and '_'");
    if (kFixedPorts.count(n)) throw ConfigError(e.where("name") + ": '" + n + "' is a port of the gpu itself");
    if (!names.insert(n).second) throw ConfigError(e.where("name") + ": port '" + n + "' named twice in bar0_ports");
    const uint64_t base = uint64_t(e.integer("base")), size = e.size("size");
    if (base % 4 || size % 4 || size == 0)
      throw ConfigError(e.where("base") + ": window [" + hex(base) + ", +" + hex(size) +
                        ") must be 4-byte aligned and not empty (BAR0 registers are 32 bit)");
    auto port = std::make_unique<Bar0Port>(("bar0_port_" + n).c_str());
    bar0_->map(e.where("base") + ", bar0_ports '" + n + "' of " + std::string(name()), base, size, port->in);
    expose_initiator(n, port->out);
    hostif_->set_topology("EXT_BASE" + std::to_string(i), uint32_t(base));
    hostif_->set_topology("EXT_SIZE" + std::to_string(i), uint32_t(size));
    bar0_ports_.push_back(std::move(port));
  }
  hostif_->set_topology("EXT_COUNT", uint32_t(list.size()));
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
