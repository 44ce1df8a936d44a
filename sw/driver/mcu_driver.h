// hetvp — the host driver's microcontroller part: firmware upload through the MMIO upload ports,
// start, the boot handshake (HUB init-done implies every GPC's), and the command interface of
// the basic firmware (docs/firmware.md). Runs on the host CPU model; touches the GPU only
// through GpuDriver::reg_read/reg_write (BAR0 MMIO).
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "firmware/include/hetvp/mcu_regs.h"
#include "platform/elf_image.h"
#include "platform/param_set.h"
#include "sw/driver/gpu_driver.h"

namespace hetvp::sw {

// Every refusal of the microcontroller driver (bad image, image too large, timeout, trap).
class McuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A microcontroller, or all GPCs at once through the broadcast window.
struct McuId {
  enum Kind { Hub, Gpc, AllGpcs } kind = Hub;
  unsigned gpc = 0;
  static McuId hub() { return {Hub, 0}; }
  static McuId gpc_n(unsigned n) { return {Gpc, n}; }
  static McuId all_gpcs() { return {AllGpcs, 0}; }
  // "hub", "gpc3", "gpcs" (broadcast); throws McuError naming the valid names.
  static McuId parse(const std::string& s, unsigned num_gpcs);
  std::string name() const;
};

// Where the firmware comes from and how long to wait: the workload args of the boot (a group
// `mcu` of most workloads; the microcontroller workloads have these keys at their top level).
struct McuBootOptions : ParamSet {
  Str firmware_dir{this, "firmware_dir", "",
                   "folder with hub.elf and gpc.elf (default: $HETVP_FIRMWARE_DIR, the build tree's firmware/ or "
                   "<prefix>/share/hetvp/firmware)"};
  Str hub_firmware{this, "hub_firmware", "", "HUB image (default: firmware_dir/hub.elf)"};
  Str gpc_firmware{this, "gpc_firmware", "", "GPC image for every GPC (default: firmware_dir/gpc.elf)"};
  // "N:path": after the broadcast upload, GPC N gets this image instead.
  Str gpc_override{this, "gpc_override", "", "'N:path': GPC N gets another image (e.g. a test variant)"};
  // Falcon controllers: image files (falcon_image.h).
  Str falcon_hub_image{this, "falcon_hub_image", "",
                       "Falcon context controllers (core: falcon): HUB image file in nouveau's .fuc3.h array format "
                       "(<name>_code[], <name>_data[]) or raw binaries code=CODE.bin[,data=DATA.bin] "
                       "(docs/falcon.md); default: gpu0.microcontrollers.hub.image, else nouveau's image for the chip"};
  Str falcon_gpc_image{this, "falcon_gpc_image", "",
                       "Falcon context controllers: GPC image, same forms; default: gpu0.microcontrollers.gpc.image, "
                       "else nouveau's image for the chip"};
  Time boot_timeout{this, "boot_timeout", "10 ms", "how long the driver waits for the HUB's init-done"};
  Time boot_poll{this, "boot_poll", "1 us", "init-done polling period"};

  // With the configuration's validation: an image named explicitly (hub_firmware, gpc_firmware,
  // gpc_override's path) must be a regular file within the ELF size limit (platform/file_input.h),
  // and a Falcon image file must parse, else a located error, before anything is simulated.
  void validate(Diagnostics& d) const override;
  // The images booted: the one named, else firmware_dir's `hub_default` / gpc.elf.
  std::string hub_path(const char* hub_default = "hub.elf") const;
  std::string gpc_path() const;
};

struct McuBootReport {
  unsigned gpcs = 0;
  sc_core::sc_time begin, uploaded, started, init_done;  // host CPU times
  uint32_t code_bytes_hub = 0, code_bytes_gpc = 0, data_bytes_hub = 0, data_bytes_gpc = 0;
  std::string summary() const;
};

struct McuResult {
  uint32_t result = 0, error = 0;
  sc_core::sc_time latency;
};

const char* fw_command_name(uint32_t cmd);
uint32_t fw_command_number(const std::string& name);  // name or number; throws McuError

std::string firmware_dir_default();

class McuDriver {
 public:
  McuDriver(HostApi& api, GpuDriver& gpu);

  uint32_t base(const McuId& m);  // BAR0 offset of its register window (from PTOP)
  uint32_t read(const McuId& m, uint32_t off);
  void write(const McuId& m, uint32_t off, uint32_t v);

  // Uploads an image: the executable segment through CODE_INDEX/CODE, the data segment's file
  // bytes through DATA_INDEX/DATA (auto-increment), UC_ENTRY = the ELF entry. Refuses (McuError,
  // naming the memory and both sizes) an image that does not fit the target's UC_CAPS.
  void load(const McuId& m, const ElfImage& img);
  void load_file(const McuId& m, const std::string& path);  // + ELF errors as McuError
  void start(const McuId& m);
  // The whole boot: HUB and GPC images (GPCs through the broadcast window), start GPCs then the
  // HUB, wait for the HUB's init-done. A timeout names every GPC that never reported.
  // `hub_default`: the HUB image in firmware_dir when the options name none.
  McuBootReport boot(const McuBootOptions& opt, const char* hub_default = "hub.elf");

  // One command of the basic firmware (protocol in docs/firmware.md). Not for AllGpcs.
  McuResult command(const McuId& m, uint32_t cmd, uint32_t data, const std::vector<uint32_t>& args = {},
                    sc_core::sc_time timeout = sc_core::sc_time(10, sc_core::SC_MS));

  // Debug access.
  std::string state(const McuId& m);         // "running", "trapped (mcause 2 at pc 0x...)", ...
  uint32_t gpr(const McuId& m, unsigned n);  // n 0..31, 32 = pc
  std::vector<uint8_t> read_dmem(const McuId& m, uint32_t off, uint32_t len);  // stops/continues a running core
  void stop(const McuId& m);
  void cont(const McuId& m);
  std::string image_note(const McuId& m) const;  // " (image FILE)" when this driver loaded it, else ""

 private:
  void upload(const McuId& m, uint32_t index_reg, uint32_t port, uint32_t addr, const std::vector<uint8_t>& bytes);
  HostApi& api_;
  GpuDriver& gpu_;
  std::map<std::string, std::string> images_;  // McuId::name() -> the file loaded ("gpcs": broadcast)
};

// The one call for other workloads (boot, transfer, ...): boots HUB + GPCs of an opened GPU,
// logs the summary line with times and records stats mcu_init_done_us / mcu_handshake_us.
// Throws McuError (the workload then fails with that message). Options default to the built images.
McuBootReport boot_microcontrollers(HostApi& api, GpuDriver& gpu, const McuBootOptions& opt = McuBootOptions{});

}  // namespace hetvp::sw
