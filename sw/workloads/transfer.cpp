// `transfer`: host<->device copy sweep (seed: Fujii 2014 §6.2-6.3). For every method, direction
// and size it times the copy (the API call included, averaged over `repeats`), checks every
// copied byte, and adds a row: method, direction, size, simulated time, bandwidth.
//
// Methods:
//   dma   the copy engine, programmed by the driver     hub   the HUB microcontroller
//   iorw  CPU loads/stores through the BAR1 aperture    gpc1  one GPC microcontroller
//                                                       gpc4  four GPCs, a quarter each
//   A+B   two transfers of `size` each (Fig. 12): when A is an offload method (hub, gpc1, gpc4) it
//         is started asynchronously, B runs meanwhile, one synchronisation waits for both
//         ("overlap"); otherwise A then B in sequence (e.g. dma+dma).
#include <cinttypes>
#include <cstring>
#include <optional>
#include <sstream>

#include "models/host/host_api.h"
#include "platform/config.h"
#include "platform/program.h"
#include "sw/driver/gpu_driver.h"
#include "sw/driver/offload.h"
#include "sw/driver/mcu_driver.h"
#include "sw/workloads/transfer_check.h"
#include "platform/format.h"

namespace hetvp::sw {

namespace {
constexpr uint64_t kChunk = 1ull << 20;
constexpr uint64_t kLead = 256;  // bytes before each copy's source/destination in its slot (256: aligned by default)
constexpr uint64_t kGuard = 16;  // marker bytes on each side of a destination that must survive
constexpr uint8_t kMarker = 0xA5;
// Deterministic, position- and salt-dependent bytes, so a misplaced or stale byte shows.
// `out` keeps its size when it is long enough (growing zero-fills what is then overwritten).
// The stream is made a 64-bit word at a time: byte x of the stream is byte x % 8 (little endian)
// of word(x / 8), word(k) = z ^ (z >> 29) with z = (k + 1) * K ^ salt's spread. No word repeats
// (K is odd and an xor-shift is invertible: k -> word(k) is a bijection), and a new salt changes
// every word. GCC vectorises the word loop (adds, xors and shifts of 64-bit lanes) when asked, with an
// AVX2 clone picked at load time: 0.15 ns per byte for the byte-wise stream before, which was ~3 %
// of the main job (#31).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((optimize("tree-vectorize"), target_clones("avx2", "default")))
#endif
void make_pattern(std::vector<uint8_t>& out, uint64_t first, uint64_t n, uint32_t salt) {
  if (out.size() < n) out.resize(n);
  constexpr uint64_t kK = 0x9E3779B97F4A7C15ull;
  const uint64_t s = uint64_t(salt) * 0xD1B54A32D192ED03ull;
  auto word = [s](uint64_t y) {
    const uint64_t z = y ^ s;
    return z ^ (z >> 29);
  };
  // A plain pointer: a uint8_t store may alias the vector's own pointer, which would be reloaded.
  uint8_t* p = out.data();
  uint64_t k = first / 8, i = 0;
  if (const unsigned skip = first % 8; skip != 0 && n > 0) {  // the stream starts inside a word
    const uint64_t w = word((k + 1) * kK);
    for (unsigned b = skip; b < 8 && i < n; ++b, ++i) p[i] = static_cast<uint8_t>(w >> (8 * b));
    ++k;
  }
  const uint64_t words = (n - i) / 8;
  uint64_t y = (k + 1) * kK;
  for (uint64_t j = 0; j < words; ++j, y += kK) {
    const uint64_t w = word(y);
    std::memcpy(p + i + 8 * j, &w, 8);
  }
  i += 8 * words;
  if (i < n) {  // the last, partial word
    const uint64_t w = word(y);
    for (unsigned b = 0; i < n; ++b, ++i) p[i] = static_cast<uint8_t>(w >> (8 * b));
  }
}

enum class Kind { Dma, Iorw, Hub, Gpc1, Gpc4 };

struct Method {
  std::string name;
  std::vector<Kind> parts;  // one, or two for A+B
};

Kind parse_kind(const std::string& s) {
  if (s == "dma") return Kind::Dma;
  if (s == "iorw") return Kind::Iorw;
  if (s == "hub") return Kind::Hub;
  if (s == "gpc1") return Kind::Gpc1;
  if (s == "gpc4") return Kind::Gpc4;
  throw HostError("transfer: unknown method '" + s + "' (dma, iorw, hub, gpc1, gpc4, or A+B of those)");
}
bool offloaded(Kind k) { return k == Kind::Hub || k == Kind::Gpc1 || k == Kind::Gpc4; }
std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}
std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string x; std::getline(ss, x, sep);)
    if (!x.empty()) out.push_back(x);
  return out;
}

struct TransferArgs : ParamSet {
  Size min_size{this, "min_size", "4", "smallest copy", Min{1}};
  Size max_size{this, "max_size", "64 MiB", "largest copy", Min{1}};
  Int<uint64_t> factor{this, "factor", 4, "size step: each size is the previous times this", Range{2, 1024}};
  Str methods{
      this, "methods", "dma,iorw",
      "comma-separated: dma, iorw, hub, gpc1, gpc4, and pairs A+B (two transfers; overlapped when A is offloaded)"};
  Str directions{this, "directions", "htod,dtoh", "comma-separated directions: htod, dtoh"};
  Int<unsigned> repeats{this, "repeats", 1, "copies timed per point (the mean is reported)", Range{1, 1000}};
  Bool verify{this, "verify", true, "check every copied byte, and that nothing around the destination changed"};
  Size src_offset{this, "src_offset", "0", "byte offset of every source inside its (page-aligned) buffer",
                  Range{0, 48}};
  Size dst_offset{this, "dst_offset", "0", "byte offset of every destination inside its buffer", Range{0, 48}};
  Int<unsigned> gpu{this, "gpu", 0, "which GPU", Range{0, 31}};
  Group<DriverOptions> driver{this, "driver", "driver options"};
  Group<OffloadOptions> offload{this, "offload", "how the driver commands offloaded (HUB/GPC) copies"};
  Bool microcontrollers{this, "microcontrollers", true, "boot the HUB/GPC firmware first (as a driver does at init)"};
  Group<McuBootOptions> mcu{this, "mcu", "firmware images and boot timeout"};

  std::vector<Method> parse_methods() const {
    std::vector<Method> out;
    for (auto& m : split(methods, ',')) {
      Method me{upper(m), {}};
      for (auto& p : split(m, '+')) me.parts.push_back(parse_kind(p));
      if (me.parts.empty() || me.parts.size() > 2) throw HostError("transfer: bad method '" + m + "'");
      out.push_back(me);
    }
    return out;
  }
  std::vector<Direction> parse_directions() const {
    std::vector<Direction> dirs;
    for (auto& d : split(directions, ',')) {
      if (d == "htod")
        dirs.push_back(Direction::HostToDevice);
      else if (d == "dtoh")
        dirs.push_back(Direction::DeviceToHost);
      else
        throw HostError("transfer: unknown direction '" + d + "' (htod, dtoh)");
    }
    return dirs;
  }
  // Before the simulation starts: a bad list or size range is a configuration error (exit status 2).
  void validate(Diagnostics& d) const override {
    try {
      parse_methods();
    } catch (const HostError& e) {
      d.error(methods.where() + ": " + e.what());
    }
    try {
      parse_directions();
    } catch (const HostError& e) {
      d.error(directions.where() + ": " + e.what());
    }
    if (min_size > max_size) d.error(min_size.where() + ": transfer: min_size is larger than max_size");
    mcu.validate(d);  // firmware images named: regular files, bounded
  }
};

class TransferProgram : public ProgramWithArgs<TransferArgs> {
 public:
  int run(HostApi& api, const TransferArgs& args) override {
    const std::vector<Method>& methods = methods_ = args.parse_methods();
    const std::vector<Direction>& dirs = dirs_ = args.parse_directions();
    bool any_offload = false, any_pair = false;
    for (auto& m : methods) {
      for (Kind k : m.parts) any_offload |= offloaded(k);
      any_pair |= m.parts.size() == 2;
    }
    const uint64_t lo = args.min_size, hi = args.max_size;
    const unsigned repeats = args.repeats;
    const bool verify = args.verify;
    const DriverOptions& dopt = args.driver;

    GpuDriver& drv = drv_.emplace(api, dopt);
    drv.open(args.gpu);
    McuDriver& mcu = mcu_.emplace(api, drv);
    if (args.microcontrollers)
      boot_microcontrollers(api, drv, args.mcu);
    else if (any_offload)
      throw HostError("transfer: offloaded methods need microcontrollers: true");
    for (auto& m : methods)
      for (Kind k : m.parts)
        if (k == Kind::Gpc4 && drv.num_gpcs() < 4)
          throw HostError("transfer: method " + m.name + " needs four GPC microcontrollers; GPU " +
                          std::to_string(args.gpu) + " has " + std::to_string(drv.num_gpcs()) +
                          " (set gpu.gpcs or drop gpc4)");
    OffloadCopier& offload = offload_.emplace(api, drv, mcu, dopt, args.offload);

    // Buffer layout: each transfer of a point (one, or two for a pair) has its own slot, page
    // aligned, so the two transfers of a pair never share an 8-byte word (an offloaded copy
    // writes whole 8-byte words: read-modify-write). Inside a slot the source starts at
    // kLead + src_offset and the destination at kLead + dst_offset; kGuard bytes around the
    // destination are filled with a marker and must survive the copy.
    const uint64_t src_off = args.src_offset, dst_off = args.dst_offset;
    const uint64_t max_off = std::max(src_off, dst_off);
    auto slot = [&](uint64_t size) { return (kLead + max_off + size + kGuard + 4095) & ~4095ull; };
    const uint64_t span = (any_pair ? 2 : 1) * slot(hi);
    if (span > drv.function().bar_size[1])
      throw HostError("transfer: buffers of " + std::to_string(span) + " bytes exceed the " +
                      std::to_string(drv.function().bar_size[1] >> 20) +
                      " MiB BAR1 aperture the workload fills and checks them through; lower max_size or raise "
                      "gpu.pcie.bar1_size");
    const uint64_t host_pa = api.alloc_pinned(span, 4096);
    GpuBuffer host = drv.map_host(host_pa, span);
    GpuBuffer dev = drv.alloc_vram(span);

    // One copy of `size` bytes in slot `n`, by kind `k`. Offloaded kinds return their tickets
    // instead of waiting when `async`.
    auto one = [&](Kind k, Direction d, unsigned n, uint64_t size, bool async) -> std::vector<OffloadTicket> {
      const uint64_t base = n * slot(size) + kLead;
      const uint64_t h_off = base + (d == Direction::HostToDevice ? src_off : dst_off);
      const uint64_t v_off = base + (d == Direction::HostToDevice ? dst_off : src_off);
      GpuBuffer h = host, v = dev;
      h.va += h_off;
      h.phys += h_off;
      h.size = size;
      v.va += v_off;
      v.phys += v_off;
      v.size = size;
      const uint64_t src = d == Direction::HostToDevice ? h.va : v.va;
      const uint64_t dst = d == Direction::HostToDevice ? v.va : h.va;
      switch (k) {
        case Kind::Dma:
          drv.copy(CopyMethod::Dma, d, h, v, size);
          return {};
        case Kind::Iorw:
          drv.copy(CopyMethod::Iorw, d, h, v, size);
          return {};
        default:
          break;
      }
      std::vector<McuId>& who = who_;
      if (k == Kind::Hub)
        who = {McuId::hub()};
      else if (k == Kind::Gpc1)
        who = {McuId::gpc_n(0)};
      else
        who = {McuId::gpc_n(0), McuId::gpc_n(1), McuId::gpc_n(2), McuId::gpc_n(3)};
      if (!async) {
        offload.copy(who, src, dst, size);
        return {};
      }
      api.spend(dopt.api_call);
      return offload.start_split(who, src, dst, size);
    };

    // Untimed access to either side (host memory directly, VRAM through BAR1), 1 MiB at a time.
    auto side_io = [&](bool host_side, bool write, uint64_t off, uint8_t* p, uint64_t n) {
      if (host_side)
        write ? api.poke(host.phys + off, p, n) : api.peek(host.phys + off, p, n);
      else
        write ? drv.vram_poke(dev.phys + off, p, n) : drv.vram_peek(dev.phys + off, p, n);
    };

    api.results().set_columns({"method", "direction", "size_bytes", "time_ns", "bandwidth_MBps"});
    std::vector<uint8_t>& got = got_;
    got.resize(kChunk);  // once: a chunk of the destination read back
    // The guard marker, one chunk of it, written as it is; each copy's source pattern, kept whole
    // so that the check compares against it instead of building the expected bytes again (#31).
    std::vector<uint8_t>& marker = marker_;
    marker.assign(kChunk, kMarker);
    std::vector<uint8_t>* pattern = pattern_;
    unsigned mismatches = 0, points = 0;
    uint32_t salt = 1;
    uint64_t sizes = 0;  // the points to do, for --progress's percent and ETA
    for (uint64_t size = lo; size <= hi; size = size * args.factor) ++sizes;
    const uint64_t all_points = dirs.size() * methods.size() * sizes;
    api.progress(0, all_points);
    for (auto d : dirs) {
      for (auto& m : methods) {
        const unsigned copies = static_cast<unsigned>(m.parts.size());
        for (uint64_t size = lo; size <= hi; size = size * args.factor) {
          const uint64_t moved = copies * size;
          double total_ns = 0;
          for (unsigned r = 0; r < repeats; ++r, ++salt) {
            const bool src_host = d == Direction::HostToDevice;
            // Fill the sources with fresh bytes and the destinations (with their guards) with a
            // marker (untimed), copy (timed), check both (untimed).
            for (unsigned c = 0; c < copies; ++c) {
              const uint64_t base = c * slot(size) + kLead;
              make_pattern(pattern[c], c * slot(size), size, salt);
              for (uint64_t off = 0; off < size; off += kChunk) {
                const uint64_t n = std::min(kChunk, size - off);
                side_io(src_host, true, base + src_off + off, pattern[c].data() + off, n);
              }
              for (uint64_t off = 0; off < size + 2 * kGuard; off += kChunk) {
                const uint64_t n = std::min(kChunk, size + 2 * kGuard - off);
                side_io(!src_host, true, base + dst_off - kGuard + off, marker.data(), n);
              }
            }
            const sc_core::sc_time t0 = api.now();
            if (copies == 1) {
              one(m.parts[0], d, 0, size, false);
            } else if (offloaded(m.parts[0])) {
              tickets_ = one(m.parts[0], d, 0, size, true);  // start the offload
              one(m.parts[1], d, 1, size, false);            // the other transfer meanwhile
              offload.wait(tickets_);                        // one synchronisation
            } else {
              one(m.parts[0], d, 0, size, false);
              one(m.parts[1], d, 1, size, false);
            }
            total_ns += (api.now() - t0).to_seconds() * 1e9;
            for (unsigned c = 0; verify && c < copies; ++c) {
              const uint64_t base = c * slot(size) + kLead;
              // [guard | copied bytes | guard], compared chunk by chunk.
              const uint64_t total = size + 2 * kGuard;
              for (uint64_t off = 0; off < total; off += kChunk) {
                const uint64_t n = std::min(kChunk, total - off);
                side_io(!src_host, false, base + dst_off - kGuard + off, got.data(), n);
                const WrongByte w =
                    first_wrong_byte(got.data(), n, off, kGuard, size, marker.data(), pattern[c].data());
                if (w.at == n) continue;
                const uint64_t at = w.at;
                const int64_t rel = static_cast<int64_t>(off + at) - static_cast<int64_t>(kGuard);
                const std::string line = format(
                    "transfer: %s %s of %" PRIu64 " bytes (copy %u): byte %" PRId64 " %s is 0x%02x, expected 0x%02x",
                    m.name.c_str(), to_string(d), size, c, rel,
                    rel < 0 || rel >= static_cast<int64_t>(size) ? "(outside the copy: clobbered)" : "", got[at],
                    w.want);
                api.log(line);
                ++mismatches;
                break;
              }
            }
          }
          const double ns = total_ns / repeats;
          char t[32], bw[32];
          snprintf(t, sizeof t, "%.1f", ns);
          snprintf(bw, sizeof bw, "%.3f", moved / ns * 1e3);
          api.results().add_row({m.name, to_string(d), std::to_string(size), t, bw});
          ++points;
          api.progress(points, all_points);
          if (size == hi || size * args.factor > hi) {
            std::string line = format("%-9s %s %8" PRIu64 " KiB: %12.3f us  %9.1f MB/s", m.name.c_str(), to_string(d),
                                      size >> 10, ns / 1e3, moved / ns * 1e3);
            api.log(line);
          }
        }
      }
    }
    api.stat("points", points);
    api.stat("mismatches", mismatches);
    std::string line = format("transfer: %u points, %u data mismatches", points, mismatches);
    api.log(line);
    return mismatches == 0 ? 0 : 1;
  }

 private:
  // What run() holds across simulated time belongs to this object, not to run()'s frame: a run
  // that ends while the program is still inside run() (the time limit, a failure a model
  // reports) leaves its SystemC thread suspended for good, never unwound, and whatever only that
  // frame owned was never freed (LeakSanitizer, docs/reliability.md). The host CPU owns and
  // destroys this object at the end of the simulation.
  std::vector<Method> methods_;
  std::vector<Direction> dirs_;
  std::optional<GpuDriver> drv_;
  std::optional<McuDriver> mcu_;
  std::optional<OffloadCopier> offload_;
  std::vector<McuId> who_;
  std::vector<OffloadTicket> tickets_;
  std::vector<uint8_t> got_, marker_;
  std::vector<uint8_t> pattern_[2];  // each copy's source bytes (a point has one or two copies)
};

}  // namespace

HETVP_REGISTER_PROGRAM("transfer", TransferProgram,
                       "host<->device copy sweep: dma, iorw, hub, gpc1, gpc4 and overlapped pairs, both directions");

}  // namespace hetvp::sw
