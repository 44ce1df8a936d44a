// `link_sharing`: does the PCIe link behave as a shared resource per direction? Two copy
// engines copy `size` bytes each, first alone, then at the same time in the same direction,
// then at the same time in opposite directions. Rows: scenario, engine, direction, time.
#include <cinttypes>

#include "models/host/host_api.h"
#include "platform/program.h"
#include "sw/driver/gpu_driver.h"
#include "platform/format.h"

namespace hetvp::sw {

namespace {

struct LinkSharingArgs : ParamSet {
  Size size{this, "size", "8 MiB", "bytes each engine copies", Min{4096}};
  Group<DriverOptions> driver{this, "driver", "driver options"};
};

class LinkSharingProgram : public ProgramWithArgs<LinkSharingArgs> {
 public:
  int run(HostApi& api, const LinkSharingArgs& args) override {
    GpuDriver drv(api, args.driver);
    drv.open(0);
    if (drv.copy_engines() < 2) {
      api.log("link_sharing: needs two copy engines (gpu.copy_engines: 2)");
      return 1;
    }
    const uint64_t size = args.size;
    GpuBuffer host[2], dev[2];
    for (int i = 0; i < 2; ++i) {
      host[i] = drv.map_host(api.alloc_pinned(size, 4096), size);
      dev[i] = drv.alloc_vram(size);
    }
    api.results().set_columns({"scenario", "engine", "direction", "time_ns"});
    auto dir_name = [](bool htod) { return htod ? "HtoD" : "DtoH"; };
    // Runs the given engines at once (each: direction), records each engine's own finish time.
    auto together = [&](const char* scenario, std::vector<std::pair<unsigned, bool>> jobs) {
      sc_core::sc_time t0 = api.now();
      std::vector<DmaTicket> t;
      for (auto [e, htod] : jobs)
        t.push_back(htod ? drv.start_dma(e, host[e], dev[e], size) : drv.start_dma(e, dev[e], host[e], size));
      std::vector<double> done(jobs.size(), -1);
      for (unsigned left = static_cast<unsigned>(jobs.size()); left > 0;) {
        for (size_t i = 0; i < jobs.size(); ++i) {
          if (done[i] < 0 && drv.dma_done(t[i])) {
            done[i] = (api.now() - t0).to_seconds() * 1e9;
            --left;
          }
        }
        if (left) api.sleep(sc_core::sc_time(200, sc_core::SC_NS));
      }
      for (size_t i = 0; i < jobs.size(); ++i) {
        std::string ns = format("%.1f", done[i]);
        api.results().add_row({scenario, std::to_string(jobs[i].first), dir_name(jobs[i].second), ns});
        std::string line =
            format("%-9s engine %u %s: %10.3f us", scenario, jobs[i].first, dir_name(jobs[i].second), done[i] / 1e3);
        api.log(line);
      }
    };
    together("alone", {{0, true}});
    together("alone", {{1, true}});
    together("alone", {{1, false}});
    together("same", {{0, true}, {1, true}});
    together("opposite", {{0, true}, {1, false}});
    return 0;
  }
};

}  // namespace

HETVP_REGISTER_PROGRAM("link_sharing", LinkSharingProgram,
                       "two copy engines alone, together in one direction, together in opposite directions");

}  // namespace hetvp::sw
