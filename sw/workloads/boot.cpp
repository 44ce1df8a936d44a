// `boot`: enumerate PCIe, open every GPU, boot its HUB and GPC microcontrollers (firmware upload,
// start, init-done handshake) and report what the driver found, with times. The start of every
// other workload, and the smallest check that a topology is alive.
#include <cinttypes>

#include "models/host/host_api.h"
#include "platform/program.h"
#include "sw/driver/gpu_driver.h"
#include "sw/driver/falcon_boot.h"
#include "sw/driver/mcu_driver.h"
#include "platform/format.h"

namespace hetvp::sw {

namespace {

struct BootArgs : ParamSet {
  Group<DriverOptions> driver{this, "driver", "driver options"};
  Bool microcontrollers{this, "microcontrollers", true, "upload and start the HUB/GPC firmware and wait for init-done"};
  Group<McuBootOptions> mcu{this, "mcu", "firmware images and boot timeout"};
  void validate(Diagnostics& d) const override { mcu.validate(d); }
};

class BootProgram : public ProgramWithArgs<BootArgs> {
 public:
  int run(HostApi& api, const BootArgs& args) override {
    GpuDriver probe(api, args.driver);
    auto gpus = probe.enumerate();
    if (gpus.empty()) {
      api.log("boot: no GPU found on PCIe");
      return 1;
    }
    for (unsigned i = 0; i < gpus.size(); ++i) {
      GpuDriver drv(api, args.driver);
      drv.open(i);
      const std::string line =
          format("gpu%u: %04x:%04x on bus %u, BAR0 0x%" PRIx64 " (%" PRIu64 " MiB), BAR1 0x%" PRIx64 " (%" PRIu64
                 " MiB), %u GPCs, %" PRIu64 " MiB VRAM, open at %.3f us",
                 i, gpus[i].vendor, gpus[i].device_id, gpus[i].bus, drv.function().bar[0],
                 drv.function().bar_size[0] >> 20, drv.function().bar[1], drv.function().bar_size[1] >> 20,
                 drv.num_gpcs(), drv.vram_size() >> 20, api.now().to_seconds() * 1e6);
      api.log(line);
      api.stat("gpu" + std::to_string(i) + "_gpcs", drv.num_gpcs());
      if (args.microcontrollers) {
        const McuBootOptions& mo = args.mcu;
        if (falcon_microcontrollers(drv))  // Falcon context controllers: nouveau's firmware (docs/falcon.md)
          boot_nouveau_with(api, drv, mo.boot_timeout, mo.falcon_hub_image, mo.falcon_gpc_image);
        else
          boot_microcontrollers(api, drv, mo);
      }
    }
    api.stat("gpus", static_cast<double>(gpus.size()));
    return 0;
  }
};

}  // namespace

HETVP_REGISTER_PROGRAM("boot", BootProgram, "enumerate PCIe and open every GPU");

}  // namespace hetvp::sw
