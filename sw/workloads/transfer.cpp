// `transfer`: host<->device copy sweep (seed: Fujii 2014). For every method, direction and size
// it times one synchronous copy (the API call included, averaged over `repeats`), checks the
// copied bytes, and adds a row: method, direction, size, simulated time, bandwidth.
#include <cinttypes>
#include <cstring>
#include <sstream>

#include "models/host/host_api.h"
#include "platform/program.h"
#include "sw/driver/gpu_driver.h"
#include "sw/mcu/mcu_driver.h"

namespace hetvp::sw {

namespace {
// Deterministic, size- and position-dependent bytes, so a misplaced or stale byte shows.
constexpr uint64_t kChunk = 1ull << 20;
void make_pattern(std::vector<uint8_t>& out, uint64_t first, uint64_t n, uint32_t salt) {
  out.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t x = (first + i + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t(salt) << 32);
    out[i] = static_cast<uint8_t>(x >> 29);
  }
}
}  // namespace

class TransferProgram : public HostProgram {
 public:
  static std::shared_ptr<Schema> schema() {
    auto s = std::make_shared<Schema>();
    s->size("min_size", std::string("4"), "smallest copy").min(1);
    s->size("max_size", std::string("64 MiB"), "largest copy").min(1);
    s->integer("factor", 4, "size step: each size is the previous times this").range(2, 1024);
    s->string("methods", std::string("dma,iorw"), "comma-separated copy methods: dma, iorw");
    s->string("directions", std::string("htod,dtoh"), "comma-separated directions: htod, dtoh");
    s->integer("repeats", 1, "copies timed per point (the mean is reported)").range(1, 1000);
    s->boolean("verify", true, "check every copied byte");
    s->integer("gpu", 0, "which GPU").range(0, 31);
    s->group("driver", DriverOptions::schema(), "driver options");
    s->boolean("microcontrollers", true, "boot the HUB/GPC firmware first (as a driver does at init)");
    s->group("mcu", McuBootOptions::schema(), "firmware images and boot timeout");
    return s;
  }

  int run(HostApi& api, const Params& args) override {
    std::vector<CopyMethod> methods;
    std::vector<Direction> dirs;
    for (auto& m : split(args.string("methods"))) {
      if (m == "dma") methods.push_back(CopyMethod::Dma);
      else if (m == "iorw") methods.push_back(CopyMethod::Iorw);
      else throw HostError("transfer: unknown method '" + m + "' (dma, iorw)");
    }
    for (auto& d : split(args.string("directions"))) {
      if (d == "htod") dirs.push_back(Direction::HostToDevice);
      else if (d == "dtoh") dirs.push_back(Direction::DeviceToHost);
      else throw HostError("transfer: unknown direction '" + d + "' (htod, dtoh)");
    }
    const uint64_t lo = args.size("min_size"), hi = args.size("max_size");
    if (lo > hi) throw HostError("transfer: min_size is larger than max_size");
    const unsigned repeats = args.u32("repeats");
    const bool verify = args.boolean("verify");

    GpuDriver drv(api, DriverOptions::from(args.group("driver")));
    drv.open(args.u32("gpu"));
    if (args.boolean("microcontrollers")) boot_microcontrollers(api, drv, McuBootOptions::from(args.group("mcu")));
    const uint64_t host_pa = api.alloc_pinned(hi, 4096);
    GpuBuffer host = drv.map_host(host_pa, hi);
    GpuBuffer dev = drv.alloc_vram(hi);

    api.results().set_columns({"method", "direction", "size_bytes", "time_ns", "bandwidth_MBps"});
    std::vector<uint8_t> buf(kChunk), got;
    unsigned mismatches = 0, points = 0;
    uint32_t salt = 1;
    for (auto d : dirs) {
      for (auto m : methods) {
        for (uint64_t size = lo; size <= hi; size = size * args.u64("factor")) {
          double total_ns = 0;
          for (unsigned r = 0; r < repeats; ++r, ++salt) {
            // Fill the source with fresh bytes (untimed), copy (timed), check (untimed).
            // Done in 1 MiB chunks so a 64 MiB point costs no 64 MiB of host memory.
            for (uint64_t off = 0; off < size; off += kChunk) {
              uint64_t n = std::min(kChunk, size - off);
              make_pattern(buf, off, n, salt);
              if (d == Direction::HostToDevice) api.poke(host.phys + off, buf.data(), n);
              else drv.vram_poke(dev.phys + off, buf.data(), n);
            }
            sc_core::sc_time t0 = api.now();
            drv.copy(m, d, host, dev, size);
            total_ns += (api.now() - t0).to_seconds() * 1e9;
            for (uint64_t off = 0; verify && off < size; off += kChunk) {
              uint64_t n = std::min(kChunk, size - off);
              make_pattern(buf, off, n, salt);
              got.resize(n);
              if (d == Direction::HostToDevice) drv.vram_peek(dev.phys + off, got.data(), n);
              else api.peek(host.phys + off, got.data(), n);
              if (std::memcmp(got.data(), buf.data(), n) != 0) {
                uint64_t at = 0;
                while (got[at] == buf[at]) ++at;
                char line[200];
                snprintf(line, sizeof line, "transfer: %s %s of %" PRIu64 " bytes: byte %" PRIu64 " is 0x%02x, expected 0x%02x",
                         to_string(m), to_string(d), size, off + at, got[at], buf[at]);
                api.log(line);
                ++mismatches;
                break;
              }
            }
          }
          double ns = total_ns / repeats;
          char t[32], bw[32];
          snprintf(t, sizeof t, "%.1f", ns);
          snprintf(bw, sizeof bw, "%.3f", size / ns * 1e3);
          api.results().add_row({to_string(m), to_string(d), std::to_string(size), t, bw});
          ++points;
          if (size == hi || size * args.u64("factor") > hi) {
            char line[160];
            snprintf(line, sizeof line, "%-4s %s %8" PRIu64 " KiB: %12.3f us  %9.1f MB/s", to_string(m), to_string(d),
                     size >> 10, ns / 1e3, size / ns * 1e3);
            api.log(line);
          }
        }
      }
    }
    api.stat("points", points);
    api.stat("mismatches", mismatches);
    char line[96];
    snprintf(line, sizeof line, "transfer: %u points, %u data mismatches", points, mismatches);
    api.log(line);
    return mismatches == 0 ? 0 : 1;
  }

 private:
  static std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string x; std::getline(ss, x, ',');)
      if (!x.empty()) out.push_back(x);
    return out;
  }
};

HETVP_REGISTER_PROGRAM("transfer", TransferProgram, "host<->device copy sweep: methods x directions x sizes");

}  // namespace hetvp::sw
