// hetvp — the parameters of the GPU block "microcontrollers" (gpu0.microcontrollers), declared once
// for both cores: the HUB and GPC groups, the GDB stub, the BAR0 windows, the core choice
// (`core: rv32 | falcon`) and the keys only a Falcon cluster reads. The cluster block
// (models/mcu/cluster.cpp) and the core models (rv32/microcontroller.h, falcon/ctxctl.h) read these
// members; no model reads a key by name.
#pragma once

#include <map>
#include <string>

#include "firmware/include/hetvp/gpu_chips.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "models/gpu/gpu_block.h"
#include "platform/param_set.h"

namespace hetvp::mcu {

// The core of every microcontroller of the cluster (PTOP_MCU_CORE tells software; the gr block
// reads it from the GPU's facts).
using McuCore = gpu::McuCore;
// The firmware the boot uploads: hetvp's (RV32 ELF images, or on core falcon the same C translated:
// firmware/falcon) or nouveau's Falcon fuc3/fuc5 code.
HETVP_ENUM(McuFirmware, hetvp, nouveau);
// RV32 cores: misaligned loads/stores trap or are done in hardware (docs/iss.md).
HETVP_ENUM(McuMisaligned, trap, emulate);
// RV32 cores: how instructions run (docs/iss.md "How it is fast"; the results are the same).
HETVP_ENUM(McuExecution, translated, threaded, interpreted);

// One microcontroller's own parameters: the HUB's group or the GPCs' (every GPC's) group. The two
// differ in their defaults and in the doc of `image`, hence the `hub` flag the derived
// McuSideConfigFor<HUB> passes (the members' initialisers read it).
struct McuSideConfig : ParamSet {
 protected:
  explicit McuSideConfig(bool hub) : hub_(hub) {}
  McuSideConfig(const McuSideConfig&) = default;
  McuSideConfig& operator=(const McuSideConfig&) = default;

 private:
  bool hub_;  // declared first: the members below take their defaults from it

 public:
  // Clocks: a GF100 GPC runs in the graphics-core clock domain (GTX 480: 700 MHz); the HUB is put
  // in the faster hub/shader domain (GTX 480 shader clock 1401 MHz). SPEC §5 only says "HUB higher
  // than GPC"; the calibration issue may refine both (docs/mcu.md).
  Freq clock{this, "clock", hub_ ? "1.4 GHz" : "700 MHz", "microcontroller core clock"};
  // With gpu0.chip a Falcon cluster takes the chip's UC_CAPS sizes when these are not given, so the
  // resolved configuration (--dump-config) leaves them out unless given.
  Size code_size{this,
                 "code_size",
                 hub_ ? "16 KiB" : "8 KiB",
                 "code memory (IMEM) bytes (SPEC §5: HUB 16,384, GPC 8,192)",
                 Range{256, 64 * 1024},  // IMEM ends where DMEM starts (0x10000)
                 OnlyWhenGiven{}};
  // UC_CAPS reports data size >> 8 in 8 bits (SPEC §5): at most 255 x 256 B.
  Size data_size{this,
                 "data_size",
                 hub_ ? "4 KiB" : "2 KiB",
                 "data memory (DMEM) bytes (SPEC §5: HUB 4,096, GPC 2,048)",
                 Range{256, 255 * 256},
                 OnlyWhenGiven{}};
  Str core{this, "core", "rv32imc", "core ISA (make_core): rv32imc or rv32im"};
  Any cycle_costs{this, "cycle_costs", "per-class cycle costs, e.g. {div: 20, load: 3} (docs/iss.md)"};
  Bool dmi{this, "dmi", true,
           "direct memory access for the core's loads/stores (false: every access through the bus path)"};
  Int<unsigned> reg_cycles{this, "reg_cycles", 2, "core cycles of one access to its own register block",
                           Range{0, 1000}};
  Bool strict_traps{this, "strict_traps", false,
                    "debugging aid: a synchronous exception inside a trap handler (before mret) stops the core as a "
                    "fatal trap; false (default) = nested traps as in the RISC-V privileged spec (docs/iss.md)"};
  Int<uint32_t> trap_watchdog{this, "trap_watchdog", 1000,
                              "stop the core when the same trap (mcause, mepc) is taken this many times in a row with "
                              "no progress (docs/iss.md); 0 = off",
                              Range{0, 0xffffffffLL}};
  Enum<McuMisaligned> misaligned{this, "misaligned", McuMisaligned::trap,
                                 "RV32 cores: misaligned loads/stores trap (mcause 4/6) or are emulated in hardware at "
                                 "twice the class's cycles (docs/iss.md)"};
  Enum<McuExecution> execution{
      this, "execution", McuExecution::translated,
      "RV32 cores: translated = pre-decoded blocks run as x86-64 code where supported, threaded = the blocks "
      "without translation, interpreted = one instruction at a time; the same results (docs/iss.md)"};
  Bool local_time_bursts{
      this, "local_time_bursts", true,
      "RV32 cores (a Falcon context controller ignores it): the burst goes on in local time through a quantum "
      "boundary, a wfi and the core's own xfer end when no other process has anything to do before (no SystemC round "
      "trip nobody can observe; results are the same); false = a round trip each time, for comparison "
      "(docs/benchmarks.md, issue #31)"};
  // The images resident at power-on (falcon/boot_regs.h ImageLoader; docs/falcon.md "Image files").
  Str image{this, "image", "",
            hub_ ? "core falcon: the HUB's code and data memories hold this image at power-on and the boot does not "
                   "upload one (a .fuc3.h/.fuc5.h array file or code=CODE.bin[,data=DATA.bin]; docs/falcon.md). "
                   "workload.args.mcu.falcon_hub_image, when given, is uploaded over it"
                 : "core falcon: the GPCs' (every GPC's) code and data memories hold this image at power-on and the "
                   "boot does not upload one (a .fuc3.h/.fuc5.h array file or code=CODE.bin[,data=DATA.bin]; "
                   "docs/falcon.md). workload.args.mcu.falcon_gpc_image, when given, is uploaded over it",
            OnlyWhenGiven{}};

  bool hub() const { return hub_; }
  // cycle_costs as {class: cycles}; the class names are the core's, checked by CoreIf::set_cycle_costs
  // (a map of the user's words: its keys are data, not parameters).
  std::map<std::string, uint64_t> cycle_cost_map() const;
};

template <bool HUB>
struct McuSideConfigFor : McuSideConfig {
  McuSideConfigFor() : McuSideConfig(HUB) {}
};

struct McuGdbConfig : ParamSet {
  Str target{this, "target", "", "microcontroller to debug: hub, gpc0, gpc1, ... (empty: no stub)"};
  Int<int> port{this, "port", 0, "TCP port on 127.0.0.1 (0: any free port, printed on stderr)", Range{0, 65535}};
  Real accept_timeout{this, "accept_timeout", 30.0, "seconds of wall time to wait for GDB when the target starts",
                      Range{0, 3600}};
  Real idle_timeout{this, "idle_timeout", 60.0, "seconds of wall time a silent debugger may hold the core",
                    Range{0.1, 36000}};
};

// gpu0.microcontrollers
struct McuBlockConfig : ParamSet {
  Group<McuSideConfigFor<true>> hub{this, "hub", "the HUB microcontroller"};
  Group<McuSideConfigFor<false>> gpc{this, "gpc", "every GPC microcontroller"};
  Group<McuGdbConfig> gdb{this, "gdb", "GDB remote stub (docs/mcu.md)"};
  // Windows: Fermi's positions by default (gpu_map.h); software finds them in PTOP.
  Int<uint32_t> bar0{this, "bar0", GPU_HUB_BASE, "BAR0 offset of the HUB's register window (PTOP_HUB_BASE)",
                     Range{GPU_WINDOW_PMC, 0xffffffffll}};
  Int<uint32_t> gpc_bar0{this, "gpc_bar0", GPU_GPC_BASE, "BAR0 offset of GPC 0's register window (PTOP_GPC_BASE)",
                         Range{GPU_WINDOW_PMC, 0xffffffffll}};
  Int<uint32_t> gpc_stride{this, "gpc_stride", GPU_GPC_STRIDE, "distance between two GPC windows (PTOP_GPC_STRIDE)",
                           Range{GPU_MCU_WINDOW, 0x1000000ll}};
  Int<uint32_t> broadcast_bar0{
      this, "broadcast_bar0", GPU_GPC_BCAST_BASE,
      "BAR0 offset of the GPC broadcast window: a write reaches every GPC (PTOP_GPC_BCAST_BASE)",
      Range{GPU_WINDOW_PMC, 0xffffffffll}};
  Enum<McuCore> core{this, "core", McuCore::rv32,
                     "core of the HUB and GPC microcontrollers: rv32 (hetvp's register block, docs/mcu.md) or falcon "
                     "(GF100 context controllers, docs/falcon.md)"};
  Enum<McuFirmware> firmware{
      this, "firmware", McuFirmware::hetvp,
      "firmware the boot uploads: hetvp (core rv32: RV32 ELF; core falcon: the same C translated, firmware/falcon) or "
      "nouveau (GF100 fuc3, core falcon)"};
  // --- read by a Falcon cluster only ---
  Int<uint32_t> poll_watchdog{this, "poll_watchdog", 100000,
                              "Falcon core: stop the run when the firmware reads one register this many times in a "
                              "row with the same value and no write in between (docs/falcon.md); 0 = off",
                              Range{0, 0xffffffffLL}};
  // With gpu0.chip these default to the chip's (gpu_chips.h), so the resolved configuration
  // (--dump-config) leaves them out when they were not given, or a dumped GK104 would pin GF100's.
  Int<unsigned> rops{this,
                     "rops",
                     6,
                     "Falcon/nouveau: ROP count the HUB reads at 0x409604 bits 16-20 (GTX 480: 6; default with "
                     "gpu0.chip: the chip's memory partitions)",
                     Range{0, 31},
                     OnlyWhenGiven{}};
  Int<unsigned> tpcs{this,
                     "tpcs",
                     4,
                     "Falcon/nouveau: TPCs per GPC, read by the GPC firmware at UNITS 0x608 (default with gpu0.chip: "
                     "the chip's)",
                     Range{1, 31},
                     OnlyWhenGiven{}};
  Int<unsigned> strands{this, "strands", 1, "Falcon/nouveau: STRANDS_CNT 0x880 (context strands per controller)",
                        Range{1, 63}};
  Int<uint32_t> strand_words{this, "strand_words", 0x40,
                             "Falcon/nouveau: each strand's STRAND_SIZE 0x910 (context words)", Range{0, 0xffffff}};
  Bool trace{this, "trace", false, "Falcon core: print every instruction, disassembled, on stderr (slow)"};

  const McuSideConfig& side(bool is_hub) const {
    return is_hub ? static_cast<const McuSideConfig&>(hub) : static_cast<const McuSideConfig&>(gpc);
  }
  // BAR0 offset of GPC n's window.
  uint32_t gpc_window(unsigned n) const { return gpc_bar0 + n * gpc_stride; }
  // TPCs per GPC: the chip's unless the YAML gives them (`chip`: nullptr = none).
  unsigned tpcs_per_gpc(const GpuChip* chip) const;
  // What the other blocks read of this one (gpu_block.h GpuFacts): the core, the TPCs per GPC.
  void publish(gpu::GpuFacts& f) const;
  // Rules between the keys (core and firmware, resident images, the windows): each broken one is
  // reported at its key.
  void validate(Diagnostics& d) const override;
};

}  // namespace hetvp::mcu
