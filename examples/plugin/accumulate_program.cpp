// Host program "accumulate": stores 1..n to the accumulator's ADD register (uncached MMIO) and
// checks that SUM reads back n(n+1)/2. One CSV row: n, sum, time per store.
#include "accumulator.h"

#include "models/host/host_api.h"
#include "platform/program.h"

namespace example {

// The program's arguments, declared once (platform/param_set.h): name, type, default, range, doc.
struct AccumulateArgs : hetvp::ParamSet {
  hetvp::Int<uint64_t> base{this, "base", 0x40000000, "host physical address of the accumulator", hetvp::Min{0}};
  hetvp::Int<uint32_t> n{this, "n", 100, "values to add", hetvp::Range{1, 65535}};
};

class Accumulate : public hetvp::ProgramWithArgs<AccumulateArgs> {
 public:
  int run(hetvp::HostApi& api, const AccumulateArgs& a) override {
    const uint64_t base = a.base;
    const uint32_t n = a.n;
    api.mmio_write32(base + ACC_CLEAR, 0);
    const sc_core::sc_time t0 = api.now();
    for (uint32_t i = 1; i <= n; ++i) api.mmio_write32(base + ACC_ADD, i);
    const double per_store_ns = (api.now() - t0).to_seconds() * 1e9 / n;
    const uint32_t sum = api.mmio_read32(base + ACC_SUM);
    const uint32_t expect = n * (n + 1) / 2;
    api.results().set_columns({"n", "sum", "ns_per_store"});
    api.results().add_row({std::to_string(n), std::to_string(sum), std::to_string(per_store_ns)});
    api.stat("sum", sum);
    api.log("accumulate: " + std::to_string(n) + " stores, SUM = " + std::to_string(sum) +
            (sum == expect ? " (correct)" : " (expected " + std::to_string(expect) + ")"));
    return sum == expect ? 0 : 1;
  }
};

}  // namespace example

HETVP_REGISTER_PROGRAM("accumulate", example::Accumulate, "example plugin: sums 1..n on the accumulator");
