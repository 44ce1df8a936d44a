// hetvp example plugin — host program "mul32": the template of a program that drives a register
// block. It runs on the simulated CPU and reaches the block only through the bus (uncached MMIO at
// `base`, where the YAML's router maps the block's `regs` port):
//   1. check the block is there (ID),
//   2. per job: write the operands, START, poll STATUS until DONE, read the result,
//   3. check the result against a software model, and report: a CSV row per job (--csv), numbers
//      for the stats JSON (api.stat), a line for the run summary (api.log),
//   4. return 0 (pass) or 1 (the run fails with exit status 1).
// The operands come from api.rng() (seeded from simulation.seed): a run is deterministic for a seed.
// The number of STATUS polls each job took depends on the cycle every access reaches the block, so
// equal CSV files in `mode: rtl`, `tlm` and `lockstep` show the reference model is cycle-exact.
#include <string>

#include "models/host/host_api.h"
#include "mul32_regs.h"
#include "platform/param_set.h"
#include "platform/plugin.h"
#include "platform/program.h"

namespace example {

// The program's arguments (YAML `workload.args`), each declared once: name, type, default, doc,
// range (platform/param_set.h). The program reads the members, so a misspelt name does not compile.
struct Mul32Args : hetvp::ParamSet {
  hetvp::Int<uint64_t> base{this, "base", 0x40000000, "host physical address of the block's registers", hetvp::Min{0}};
  hetvp::Int<uint32_t> jobs{this, "jobs", 8, "multiplications to run (random operands from simulation.seed)",
                            hetvp::Range{1, 100000}};
  hetvp::Int<uint32_t> max_polls{this, "max_polls", 1000, "STATUS reads before a job counts as hung",
                                 hetvp::Range{1, 1000000}};
};

class Mul32Program : public hetvp::ProgramWithArgs<Mul32Args> {
 public:
  int run(hetvp::HostApi& api, const Mul32Args& a) override {
    const uint64_t base = a.base;
    const uint32_t jobs = a.jobs, max_polls = a.max_polls;
    const uint32_t id = api.mmio_read32(base + MUL_ID);
    if (id != MUL_ID_VALUE) {
      api.log("mul32: no block at " + hex(base) + " (ID " + hex(id) + ", expected " + hex(MUL_ID_VALUE) + ")");
      return 1;
    }
    api.results().set_columns({"job", "a", "b", "product", "polls", "ns"});
    uint32_t wrong = 0;
    uint64_t total_polls = 0;
    const sc_core::sc_time t_all = api.now();
    for (uint32_t j = 0; j < jobs; ++j) {
      const uint32_t x = uint32_t(api.rng()()), y = uint32_t(api.rng()());
      const sc_core::sc_time t0 = api.now();
      api.mmio_write32(base + MUL_OPA, x);
      api.mmio_write32(base + MUL_OPB, y);
      api.mmio_write32(base + MUL_CTRL, MUL_CTRL_START);
      uint32_t polls = 0, status = 0;
      do {
        status = api.mmio_read32(base + MUL_STATUS);
        ++polls;
      } while (!(status & MUL_STATUS_DONE) && polls < max_polls);
      if (!(status & MUL_STATUS_DONE)) {
        api.log("mul32: job " + std::to_string(j) + " not DONE after " + std::to_string(polls) + " polls");
        return 1;
      }
      const uint64_t p = api.mmio_read32(base + MUL_RES_LO) | uint64_t(api.mmio_read32(base + MUL_RES_HI)) << 32;
      const double ns = (api.now() - t0).to_seconds() * 1e9;
      if (p != uint64_t(x) * y) ++wrong;
      total_polls += polls;
      api.results().add_row({std::to_string(j), std::to_string(x), std::to_string(y), std::to_string(p),
                             std::to_string(polls), std::to_string(ns)});
    }
    const double ns_per_job = (api.now() - t_all).to_seconds() * 1e9 / jobs;
    api.stat("jobs", jobs);
    api.stat("wrong", wrong);
    api.stat("polls", double(total_polls));
    api.log("mul32: " + std::to_string(jobs) + " jobs, " + std::to_string(wrong) + " wrong, " +
            std::to_string(total_polls) + " STATUS polls, " + std::to_string(int64_t(ns_per_job + 0.5)) + " ns per job");
    return wrong == 0 ? 0 : 1;
  }

 private:
  static std::string hex(uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
  }
};

}  // namespace example

HETVP_REGISTER_PROGRAM("mul32", example::Mul32Program, "example plugin: multiplications on rtl.mul32, checked");
// The plugin's declaration (platform/plugin.h): once per library.
HETVP_PLUGIN("mul32_rtl_example");
