// `mem_path`: one kernel (sw/kernels/mem_path.cu) launched straight on the compute front end (no
// channel, no context switch: sw/driver/launch.h's ComputeFrontEnd), whose warps load the Kepler
// seed's access patterns from global memory `repeats` times and, optionally, round-trip their
// values through local memory. It shows the GPU generation's memory path in the stats (issue #25,
// docs/kepler.md): on Kepler (gpu0.chip: gk104 / gk110) the global loads bypass the TCP
// (compute.tcpN.l1_bypassed, no read hits from them) and reach the TCC in 32 B segments
// (compute.tcc.read_request_bytes / read_requests); on Fermi they are cached in the TCP (read hits
// from the second repeat on). The host checks every value the kernel stored.
//
//   hetvp run configs/gk104_nouveau.yaml --workload mem_path --set workload.args.pattern=scattered
#include <cinttypes>

#include "firmware/include/hetvp/gpu_chips.h"
#include "models/gpu/gpu_regs.h"
#include "models/host/host_api.h"
#include "platform/format.h"
#include "platform/program.h"
#include "sw/driver/gpu_driver.h"
#include "sw/driver/gpu_module.h"
#include "sw/driver/launch.h"
#include "sw/kernels/shipped.h"

namespace hetvp::sw {
namespace {

// The seed's patterns (seeds/kepler-memory-coalescing), lane l of a warp, 4-byte words, as byte
// offsets from the warp's 16 KiB region (the same as tests/gpu/test_coalescer_kepler.cpp): the
// host's copy of mem_path.cu's pattern_offset, for the check.
HETVP_ENUM(Pattern, contiguous, two_segments, three_segments, permuted, scattered);
constexpr uint64_t kWarpRegion = 16384;
constexpr unsigned kLanes = 32;

uint64_t pattern_offset(unsigned pattern, unsigned l) {
  switch (pattern) {
    case 0: return 4 * l;                         // one 128 B-aligned block, in lane order
    case 1: return 0x40 + 2 * (l & ~1u) % 64;     // inside two segments (64 B-aligned): pairs of lanes share a word
    case 2: return 64 * (l % 3);                  // segments 0, 2 and 4: three, not contiguous
    case 3: return 4 * ((l * 7) % 32);            // one 128 B block, lanes out of order
    default: return 256 * l;                      // 32 different 128 B blocks
  }
}

// The value the host puts in the global buffer's word at byte offset `off`.
uint32_t word_at(uint64_t off) { return static_cast<uint32_t>(off / 4) * 2654435761u + 12345u; }

struct MemPathArgs : ParamSet {
  Enum<Pattern> pattern{this, "pattern", Pattern::contiguous, "the seed's access pattern of each warp's global load"};
  Int<uint32_t> warps{this, "warps", 1, "warps (one block of 32 threads each)", Range{1, 256}};
  Int<uint32_t> repeats{this, "repeats", 2, "times each warp loads its pattern (and its local word)", Range{1, 64}};
  Bool local{this, "local", true, "also store each value to local memory and load it back `repeats` times"};
  Time poll{this, "poll", "1 us", "polling interval for kernel completion"};
  Group<DriverOptions> driver{this, "driver", "driver options"};
};

class MemPath : public ProgramWithArgs<MemPathArgs> {
 public:
  int run(HostApi& api, const MemPathArgs& a) override {
    GpuDriver drv(api, a.driver);
    drv.open(0);
    const unsigned pattern = static_cast<unsigned>(a.pattern());
    const uint32_t warps = a.warps, repeats = a.repeats;
    const bool local = a.local;
    const GpuBuffer global = drv.alloc_vram(uint64_t(warps) * kWarpRegion);
    const GpuBuffer out = drv.alloc_vram(uint64_t(warps) * kLanes * 4);
    std::vector<uint32_t> words(global.size / 4);
    for (size_t i = 0; i < words.size(); ++i) words[i] = word_at(i * 4 % kWarpRegion);
    drv.vram_poke(global.phys, words.data(), words.size() * 4);
    const ShippedPtx& ptx = shipped_ptx("mem_path", compute_arch(drv));
    const GpuModule m = load_module_bar(api, drv, ptx.text, ptx.file_name(), drv.options().module_translate);

    ComputeFrontEnd compute(api, drv);
    KernelLaunch k{"mem_path", warps, 1, kLanes, 1, {}};
    k.args = pack_params(m, "mem_path", {global.va, pattern, repeats, local ? 1u : 0u, out.va});
    k.module = m.image.va;
    k.release = true;  // the results are read from VRAM: the TCC writes them back when the kernel ends
    const sc_core::sc_time t0 = api.now();
    const LaunchTicket t = compute.start(k);
    while (!compute.done(t)) api.sleep(a.poll);
    const sc_core::sc_time kernel_time = api.now() - t0;
    compute.check(t, "mem_path: the kernel");

    // Every lane's sum: its global word `repeats` times, and as often again through local memory.
    std::vector<uint32_t> got(size_t(warps) * kLanes);
    drv.vram_peek(out.phys, got.data(), got.size() * 4);
    for (uint32_t wi = 0; wi < warps; ++wi)
      for (unsigned l = 0; l < kLanes; ++l) {
        const uint32_t want = word_at(pattern_offset(pattern, l)) * repeats * (local ? 2 : 1);
        if (got[wi * kLanes + l] != want)
          throw HostError(format("mem_path: warp %u lane %u stored 0x%08x, expected 0x%08x", wi, l,
                                 got[wi * kLanes + l], want));
      }
    // What differs between the chips, in the summary (not only in --stats): the chip the driver
    // found (PMC_BOOT_0), its default global-load path (gpu_chips.h L1_GLOBAL) and the kernel's time.
    const GpuChip* chip = find_gpu_chip_by_boot0(drv.reg_read(GPU_PMC_BASE + PMC_BOOT_0));
    const std::string path = !chip ? std::string("unknown chip")
                                   : format("%s, %s: global loads %s", chip->name, compute_arch(drv).c_str(),
                                            chip->l1_caches_global_loads
                                                ? "cached in L1 (128 B lines) by default"
                                                : "bypass L1 by default (L2 only, 32 B segments), L1 serves local memory");
    api.log(format("mem_path: %u warps x %u loads of pattern '%s'%s: all %u results correct; %s; kernel %.3f us",
                   warps, repeats, a.pattern.word().c_str(), local ? " + local memory" : "", warps * kLanes,
                   path.c_str(), kernel_time.to_seconds() * 1e6));
    return 0;
  }
};

}  // namespace

HETVP_REGISTER_PROGRAM("mem_path", MemPath,
                       "the GPU's memory path: the Kepler seed's load patterns (+ local memory) in one directly "
                       "launched kernel (docs/kepler.md)");

}  // namespace hetvp::sw
