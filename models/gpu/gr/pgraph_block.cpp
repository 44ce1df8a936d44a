// The GPU block "pgraph": the chip's GR register space as nouveau's register lists name it (GF100,
// GF117, GK104, GK110, GK208: gf100_lists.h), stored and returned (pgraph_regfile.h). YAML group
// gpu0.pgraph; opt-in (not in the default `blocks`): the Falcon/nouveau configs list it.
// docs/falcon.md "GF100's register lists", "Kepler's register lists".
//
// Precedence: the block is built after every other block (build_order) and maps only the parts of
// its windows that no other window covers, so a model's registers (the context controllers' windows
// and their PGRAPH boot words, the compute front end and its per-GPC windows, ...) win by
// construction. A listed register that another window shadows is a warning naming both, except the
// context controllers' PGRAPH boot words (falcon_ctxctl_regs.h), which are expected there.
#include <algorithm>
#include <cctype>
#include <map>
#include <memory>

#include "firmware/include/hetvp/falcon_ctxctl_regs.h"
#include "firmware/include/hetvp/pgraph_regfile.h"
#include "models/gpu/gpu_block.h"
#include "models/gpu/gr/gf100_lists.h"
#include "models/gpu/gr/pgraph_regfile.h"
#include "platform/config.h"
#include "platform/format.h"

namespace hetvp::gpu {

namespace {

HETVP_ENUM(GrLists, chip, gf100, gf117, gk104, gk110, gk208);

// The pgraph block's parameters (gpu.pgraph).
struct PgraphConfig : ParamSet {
  Enum<GrLists> lists{this, "lists", GrLists::chip,
                      "which chip's register lists name the registers: chip = gpu0.chip's (nouveau's ctx<chip>.c "
                      "hub/gpc_0/gpc_1/zcull/tpc/ppc packs and <chip>.c's mmio pack, extracted at build time); "
                      "naming a chip is a check that it is gpu0.chip"};
};

// The BAR0 packs whose words are registers (icmd and mthd name methods, not addresses).
// GF100 has no ppc pack.
const char* const kRegisterPacks[] = {"hub", "gpc_0", "gpc_1", "zcull", "tpc", "ppc", "mmio"};

class PgraphBlock : public GpuBlock, public HasStats {
 public:
  PgraphBlock(GpuContext& ctx, const PgraphConfig& p) {
    // The chip's lists name the chip's registers (no chip: GF100, the GPU's default).
    const std::string chip = ctx.chip ? ctx.chip->name : "gf100";
    const std::string& want = p.lists.word();
    if (p.lists != GrLists::chip && want != chip)
      throw ConfigError(p.lists.where() + ": " + want + "'s register lists on chip " + chip + " (" + ctx.chip_where +
                        "): a chip's GR registers are its own lists' (lists: chip)");
    const auto& lists = gr::gr_lists(chip);
    if (!lists.available) throw ConfigError(p.lists.where() + ": " + lists.reason);
    std::vector<const gr::GrPack*> packs;
    for (const char* n : kRegisterPacks)
      if (const gr::GrPack* pk = lists.find(n)) packs.push_back(pk);
    const unsigned ppcs = ctx.chip ? ctx.chip->ppcs : 0;
    // TPCs per GPC: what the context controllers report (the microcontroller block's fact), else the
    // chip's, else GF100's 4.
    const unsigned tpcs = ctx.tpcs_per_gpc();
    const std::vector<uint32_t> extra = {PGRAPH_ICMD_METHOD, PGRAPH_STATUS};
    try {
      file_ = std::make_unique<gr::PgraphRegfile>("pgraph", ctx.num_gpcs, tpcs, packs, extra, ppcs);
    } catch (const std::invalid_argument& e) {
      throw ConfigError(p.lists.where() + ": " + e.what());
    }
    for (char c : chip) chip_upper_ += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    map_free_parts(ctx);
    warn_shadowed(ctx, packs, extra);
    stats_.counter("reads", "count", "register reads served", file_->reads)
        .counter("writes", "count", "register writes served (a broadcast write counts once)", file_->writes)
        .counter("broadcast_writes", "count", "writes to the GPC or TPC broadcast ranges", file_->broadcast_writes)
        .counter("errors", "count", "accesses refused (unmodelled register, not 32-bit)", file_->errors);
  }
  void dump_stats(JsonWriter& w) const override { stats_.dump(w); }
  StatGroup& stat_group() override { return stats_; }

 private:
  // Maps each window minus every range already in the router.
  void map_free_parts(GpuContext& ctx) {
    owners_ = ctx.bar0.ranges();
    std::sort(owners_.begin(), owners_.end(), [](auto& a, auto& b) { return a.base < b.base; });
    for (auto [b, e] : file_->windows()) {
      uint64_t at = b;
      for (const auto& r : owners_) {
        if (r.base + r.size <= at || r.base >= e) continue;
        if (r.base > at) map_part(ctx, at, r.base);
        at = std::max<uint64_t>(at, r.base + r.size);
      }
      if (at < e) map_part(ctx, at, e);
    }
  }
  void map_part(GpuContext& ctx, uint64_t b, uint64_t e) {
    ctx.bar0.map(ctx.name + ".pgraph " + format("[0x%06llx, 0x%06llx)", (unsigned long long)b, (unsigned long long)e),
                 b, e - b, file_->regs, /*absolute=*/true);
  }
  const Router::Range* owner(uint32_t a) const {
    for (const auto& r : owners_)
      if (a >= r.base && a - r.base < r.size) return &r;
    return nullptr;
  }
  // One warning per other window that hides listed registers (their count and the first).
  void warn_shadowed(GpuContext& ctx, const std::vector<const gr::GrPack*>& packs, const std::vector<uint32_t>& extra) {
    std::map<std::string, std::pair<unsigned, uint32_t>> hidden;
    auto check = [&](uint32_t a) {
      if (a == PGRAPH_HANDSHAKE_4170 || a == PGRAPH_UNK_408A14) return;  // the ctxctl's boot words: expected
      if (const Router::Range* r = owner(a)) {
        auto& h = hidden[r->label];
        if (h.first++ == 0) h.second = a;
      }
    };
    for (const auto* pk : packs) pk->for_each_word([&](uint32_t a, uint32_t) { check(a); });
    for (uint32_t a : extra) check(a);
    for (auto& [label, h] : hidden)
      SC_REPORT_WARNING("hetvp/pgraph", format("%s.pgraph: %u listed %s GR register(s) from 0x%06x on are served by "
                                               "%s, not by the register file",
                                               ctx.name.c_str(), h.first, chip_upper_.c_str(), h.second, label.c_str())
                                            .c_str());
  }

  std::string chip_upper_;  // GF100, GK104 ... for the warnings
  std::unique_ptr<gr::PgraphRegfile> file_;
  std::vector<Router::Range> owners_;
  StatGroup stats_{"pgraph"};
};

}  // namespace

// Built last (see the file comment); not in the default `blocks` list.
HETVP_REGISTER_GPU_BLOCK_CONFIG(
    "pgraph",
    "PGRAPH register file: the chip's GR registers as nouveau's register lists name them (GF100, GF117, "
    "GK104, GK110, GK208), stored and returned; other models' windows take precedence (docs/falcon.md)",
    PgraphConfig,
    [](GpuContext& c, const PgraphConfig& p) -> std::unique_ptr<GpuBlock> {
      return std::make_unique<PgraphBlock>(c, p);
    },
    100, false);

}  // namespace hetvp::gpu
