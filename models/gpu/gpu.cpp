#include "models/gpu/gpu.h"

#include <algorithm>
#include <set>

#include "models/gpu/gpu_block.h"
#include "models/gpu/gpu_regs.h"
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
}  // namespace

std::shared_ptr<Schema> Gpu::schema() {
  auto s = std::make_shared<Schema>();
  s->integer("gpcs", 4, "number of GPCs (each with one GPC microcontroller)").range(1, 16);
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
  for (auto& [key, b] : gpu::GpuBlockRegistry::get().entries()) {
    s->group(key, b.schema(), b.doc);
    all += (all.empty() ? "" : ",") + key;
  }
  s->string("blocks", all, "on-chip blocks to build, comma-separated GPU block types (" + all + "); empty: none");

  return s;
}

Gpu::Gpu(sc_core::sc_module_name n, const Params& p) : Component(n) {
  num_gpcs_ = p.u32("gpcs");
  build_fixed_parts(p);
  build_blocks(p);
  expose_target("pcie", hostif_->pcie);
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
  hostif_->bar1.bind(vram_bus_->in);
  mmu_->vram.bind(vram_bus_->in);
  mmu_->sysmem.bind(hostif_->dma);
  hostif_->bar0.bind(bar0_->in);
  bar0_->limit(hostif_->bar0_size(), "BAR0 of " + hex(hostif_->bar0_size()) + " (" + p.where("pcie.bar0_size") + ")");
  bar0_->map(me + ".pmc (fixed)", GPU_PMC_BASE, GPU_WINDOW_PMC, hostif_->pmc);
  bar0_->map(me + ".ptop (fixed)", GPU_PTOP_BASE, GPU_WINDOW_PTOP, hostif_->ptop);
  bar0_->map(me + ".mmu (fixed)", GPU_MMU_BASE, GPU_WINDOW_MMU, mmu_->regs);
  mmu_->intr.bind(hostif_->intr);
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
  auto selected = selected_blocks(p);
  if (p.has("copy_engines") &&
      std::none_of(selected.begin(), selected.end(), [](auto* b) { return b->name == "copy_engine"; }))
    throw ConfigError(p.where("copy_engines") + ": " + p.path() +
                      ".copy_engines is set, but the copy_engine block is not built (not in " + p.where("blocks") +
                      ")");
  for (auto* b : selected) blocks_.emplace_back(b->name, b->create(ctx, p.group(b->name)));
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
