#include "sw/driver/mcu_driver.h"
#include "sw/driver/falcon_image.h"

#include <cinttypes>
#include <cstdio>
#include <sys/stat.h>

#include "firmware/include/hetvp/falcon_ctxctl_regs.h"
#include "firmware/include/hetvp/gr_ctxsw.h"
#include "firmware/include/hetvp/mcu_map.h"
#include "models/gpu/gpu_regs.h"
#include "platform/config.h"
#include "platform/file_input.h"
#include "platform/format.h"

#include "platform/paths.h"

namespace hetvp::sw {

namespace {
double us(const sc_core::sc_time& t) { return t.to_seconds() * 1e6; }
struct Cmd {
  const char* name;
  uint32_t num;
};
const Cmd kCommands[] = {{"echo", FW_CMD_ECHO},
                         {"ping", FW_CMD_ECHO},
                         {"reg_read", FW_CMD_REG_READ},
                         {"reg_write", FW_CMD_REG_WRITE},
                         {"ctx_save", FW_CMD_CTX_SAVE},
                         {"ctx_load", FW_CMD_CTX_LOAD},
                         {"ctx_fill", FW_CMD_CTX_FILL},
                         {"ctx_hash", FW_CMD_CTX_HASH},
                         {"xfer", FW_CMD_XFER},
                         {"trap", FW_CMD_TRAP},
                         {"info", FW_CMD_INFO},
                         {"copy", FW_CMD_COPY},
                         {"coh_acquire", FW_CMD_COH_ACQUIRE},
                         {"coh_release", FW_CMD_COH_RELEASE},
                         {"rtl_crc32", FW_CMD_RTL_CRC32},
                         {"gr_set_chan", FW_CMD_GR_SET_CHAN},
                         {"gr_save", FW_CMD_GR_SAVE},
                         {"gr_info", FW_CMD_GR_INFO},
                         {"gr_gpc_xfer", FW_CMD_GR_GPC_XFER},
                         {"exit", FW_CMD_EXIT}};
}  // namespace

std::string firmware_dir_default() { return hetvp::firmware_dir(); }

const char* fw_command_name(uint32_t cmd) {
  for (auto& c : kCommands)
    if (c.num == (cmd & FW_CMD_MASK) && std::string(c.name) != "ping") return c.name;
  return "?";
}

uint32_t fw_command_number(const std::string& name) {
  for (auto& c : kCommands)
    if (name == c.name) return c.num;
  try {
    size_t pos = 0;
    unsigned long v = std::stoul(name, &pos, 0);
    if (pos == name.size()) return static_cast<uint32_t>(v);
  } catch (const std::exception&) {
  }
  std::string valid;
  for (auto& c : kCommands) valid += std::string(valid.empty() ? "" : ", ") + c.name;
  throw McuError("unknown firmware command '" + name + "' (valid: " + valid + ", or a number)");
}

McuId McuId::parse(const std::string& s, unsigned num_gpcs) {
  if (s == "hub") return hub();
  if (s == "gpcs" || s == "gpc*" || s == "broadcast") return all_gpcs();
  if (s.rfind("gpc", 0) == 0 && s.size() > 3) {
    try {
      size_t pos = 0;
      unsigned long n = std::stoul(s.substr(3), &pos, 10);
      if (pos == s.size() - 3 && n < num_gpcs) return gpc_n(static_cast<unsigned>(n));
    } catch (const std::exception&) {
    }
  }
  throw McuError("no microcontroller '" + s + "' (valid: hub, gpc0..gpc" + std::to_string(num_gpcs ? num_gpcs - 1 : 0) +
                 ", gpcs = every GPC through the broadcast window)");
}

std::string McuId::name() const {
  if (kind == Hub) return "hub";
  if (kind == AllGpcs) return "gpcs";
  return "gpc" + std::to_string(gpc);
}

// BAR0 offset of a microcontroller's register window, as PTOP says. The four window registers are
// read together on first use (GpuDriver::block_base keeps them), so that no later, measured
// access (a command's round trip) pays for a PTOP read.
uint32_t McuDriver::base(const McuId& m) {
  const char* what = "microcontrollers";
  const uint32_t hub = gpu_.block_base(PTOP_HUB_BASE, what), bcast = gpu_.block_base(PTOP_GPC_BCAST_BASE, what);
  const uint32_t gpc = gpu_.block_base(PTOP_GPC_BASE, what), stride = gpu_.block_base(PTOP_GPC_STRIDE, what);
  if (m.kind == McuId::Hub) return hub;
  if (m.kind == McuId::AllGpcs) return bcast;
  return gpc + m.gpc * stride;
}

void McuBootOptions::validate(Diagnostics& d) const {
  auto check = [&](const Str& key, const std::string& path) {
    try {
      check_input_file(path, input_kind::kElf);
    } catch (const InputFileError& e) {
      d.error(key.where() + ": " + e.what());
    }
  };
  for (const Str* key : {&hub_firmware, &gpc_firmware})
    if (!key->empty()) check(*key, *key);
  // A firmware_dir given must be a folder, and the GPC image it implies must be there (the HUB's
  // default name depends on the workload, so only its folder is checked): a wrong folder is a
  // configuration error before anything runs, as a wrong hub_firmware is.
  if (!firmware_dir.empty()) {
    struct stat st {};
    const bool exists = ::stat(firmware_dir().c_str(), &st) == 0;
    if (!exists || !S_ISDIR(st.st_mode))
      d.error(firmware_dir.where() + ": '" + firmware_dir() + "' " +
              (exists ? "is not a folder" : "does not exist") + " (the folder of the microcontroller images)");
    else if (gpc_firmware.empty())
      check(firmware_dir, gpc_path());
  }
  const std::string& o = gpc_override;
  if (o.find(':') != std::string::npos) check(gpc_override, o.substr(o.find(':') + 1));
  // Falcon images: read and parsed now, so a bad one is a located error before anything runs.
  for (const Str* key : {&falcon_hub_image, &falcon_gpc_image}) {
    if (key->empty()) continue;
    try {
      read_falcon_image(*key);
    } catch (const FalconImageError& e) {
      d.error(key->where() + ": " + e.what());
    }
  }
}

std::string McuBootOptions::hub_path(const char* hub_default) const {
  if (!hub_firmware.empty()) return hub_firmware;
  return (firmware_dir.empty() ? firmware_dir_default() : firmware_dir()) + "/" + hub_default;
}
std::string McuBootOptions::gpc_path() const {
  if (!gpc_firmware.empty()) return gpc_firmware;
  return (firmware_dir.empty() ? firmware_dir_default() : firmware_dir()) + "/gpc.elf";
}

std::string McuBootReport::summary() const {
  const std::string b = format(
      "microcontrollers: HUB + %u GPCs booted: upload %.3f us (HUB %u+%u B, GPC %u+%u B via broadcast), "
      "start at %.3f us, init-done at %.3f us (%.3f us after start)",
      gpcs, us(uploaded - begin), code_bytes_hub, data_bytes_hub, code_bytes_gpc, data_bytes_gpc, us(started),
      us(init_done), us(init_done - started));
  return b;
}

McuDriver::McuDriver(HostApi& api, GpuDriver& gpu) : api_(api), gpu_(gpu) {}

uint32_t McuDriver::read(const McuId& m, uint32_t off) { return gpu_.reg_read(base(m) + off); }
void McuDriver::write(const McuId& m, uint32_t off, uint32_t v) { gpu_.reg_write(base(m) + off, v); }

void McuDriver::upload(const McuId& m, uint32_t index_reg, uint32_t port, uint32_t addr,
                       const std::vector<uint8_t>& bytes) {
  write(m, index_reg, addr | MCU_INDEX_AINCW);
  for (size_t i = 0; i < bytes.size(); i += 4) {
    uint32_t w = 0;
    for (size_t k = 0; k < 4 && i + k < bytes.size(); ++k) w |= uint32_t(bytes[i + k]) << (8 * k);
    write(m, port, w);
  }
}

void McuDriver::load(const McuId& m, const ElfImage& img) {
  const uint32_t caps = read(m, MCU_UC_CAPS);  // broadcast: GPC 0's
  const uint32_t code_size = (caps & 0x1ff) << 8, data_size = ((caps >> 9) & 0xff) << 8;
  const std::string who = m.kind == McuId::Hub ? "the HUB's" : m.kind == McuId::AllGpcs ? "the GPCs'" : m.name() + "'s";
  const ElfSegment *code = nullptr, *data = nullptr;
  for (auto& s : img.segments()) {
    if (s.executable()) {
      if (code) throw McuError(img.name() + ": more than one executable segment");
      code = &s;
    } else {
      if (data) throw McuError(img.name() + ": more than one data segment");
      data = &s;
    }
  }
  if (!code) throw McuError(img.name() + ": no executable segment (not a firmware image)");
  if (code->vaddr != MCU_IMEM_BASE || code->memsz > code_size)
    throw McuError(format("%s: code segment at 0x%x of %u bytes does not fit %s code memory (IMEM, %u bytes at 0x0)",
                          img.name().c_str(), code->vaddr, code->memsz, who.c_str(), code_size));
  if (data && (data->vaddr < MCU_DMEM_BASE || data->vaddr - MCU_DMEM_BASE + uint64_t(data->memsz) > data_size))
    throw McuError(
        format("%s: data segment at 0x%x of %u bytes (data + bss) does not fit %s data memory (DMEM, %u bytes at 0x%x)",
               img.name().c_str(), data->vaddr, data->memsz, who.c_str(), data_size, MCU_DMEM_BASE));
  if (img.entry() >= code_size)
    throw McuError(img.name() + ": entry point " + hex(img.entry(), 8) + " outside the code memory");
  const uint32_t st = read(m, MCU_UC_CTRL) & MCU_STATE_MASK;
  if (st == MCU_STATE_RUNNING || st == MCU_STATE_SLEEPING)
    throw McuError("cannot load " + img.name() + " into " + m.name() + ": its core is " + mcu_state_name(st) +
                   " (reset it first: UC_CTRL = 1)");
  upload(m, MCU_CODE_INDEX, MCU_CODE, code->vaddr - MCU_IMEM_BASE, code->data);
  if (data) upload(m, MCU_DATA_INDEX, MCU_DATA, data->vaddr - MCU_DMEM_BASE, data->data);
  write(m, MCU_UC_ENTRY, img.entry());
  if (m.kind == McuId::AllGpcs)  // the broadcast replaces every GPC's image
    for (auto it = images_.begin(); it != images_.end();) it = it->first == "hub" ? std::next(it) : images_.erase(it);
  images_[m.name()] = img.name();
}

std::string McuDriver::image_note(const McuId& m) const {
  auto it = images_.find(m.name());
  if (it == images_.end() && m.kind == McuId::Gpc) it = images_.find("gpcs");
  return it == images_.end() ? "" : " (image " + it->second + ")";
}

void McuDriver::load_file(const McuId& m, const std::string& path) {
  ElfImage img;
  try {
    img = ElfImage::from_file(path);
  } catch (const ElfError& e) {
    throw McuError(std::string("firmware image rejected: ") + e.what());
  }
  load(m, img);
}

void McuDriver::start(const McuId& m) { write(m, MCU_UC_CTRL, MCU_CTRL_START); }

McuBootReport McuDriver::boot(const McuBootOptions& opt, const char* hub_default) {
  McuBootReport r;
  r.begin = api_.now();
  r.gpcs = gpu_.num_gpcs();
  ElfImage hub, gpc;
  try {
    hub = ElfImage::from_file(opt.hub_path(hub_default));
    gpc = ElfImage::from_file(opt.gpc_path());
  } catch (const ElfError& e) {
    throw McuError(std::string("firmware image rejected: ") + e.what());
  }
  // hetvp's images are RV32 code: refuse a GPU whose microcontrollers are Falcon cores at once,
  // instead of writing RV32 code into Falcon registers and waiting for an init that never comes.
  const uint32_t core = gpu_.block_base(PTOP_MCU_CORE, "microcontrollers");
  if (core != PTOP_MCU_CORE_RV32)
    throw McuError("microcontroller boot: the GPU's microcontrollers are " +
                   std::string(core == PTOP_MCU_CORE_FALCON ? "Falcon cores" : "of unknown core " + hex(core)) +
                   " (PTOP_MCU_CORE), and hetvp's firmware images are RV32 code; a Falcon GPU runs nouveau's "
                   "firmware with the `boot` workload (configs/gf100_nouveau.yaml)");
  for (auto& s : hub.segments()) (s.executable() ? r.code_bytes_hub : r.data_bytes_hub) += uint32_t(s.data.size());
  for (auto& s : gpc.segments()) (s.executable() ? r.code_bytes_gpc : r.data_bytes_gpc) += uint32_t(s.data.size());
  // Clean slate (a re-boot): reset every core, clear the status scratch.
  write(McuId::all_gpcs(), MCU_UC_CTRL, MCU_CTRL_RESET);
  write(McuId::hub(), MCU_UC_CTRL, MCU_CTRL_RESET);
  write(McuId::all_gpcs(), MCU_STATUS0, 0);
  write(McuId::hub(), MCU_STATUS0, 0);
  load(McuId::all_gpcs(), gpc);
  if (const std::string& ov = opt.gpc_override; !ov.empty()) {
    const size_t colon = ov.find(':');
    if (colon == std::string::npos) throw McuError("gpc_override '" + ov + "': expected N:path");
    load_file(McuId::parse("gpc" + ov.substr(0, colon), r.gpcs), ov.substr(colon + 1));
  }
  load(McuId::hub(), hub);
  r.uploaded = api_.now();
  start(McuId::all_gpcs());
  start(McuId::hub());
  r.started = api_.now();
  const uint64_t status0 = gpu_.function().bar[0] + base(McuId::hub()) + MCU_STATUS0;
  bool ok = api_.poll32(status0, MCU_STATUS0_INIT_DONE, MCU_STATUS0_INIT_DONE, opt.boot_poll, opt.boot_timeout,
                        Access::Uncached);
  if (!ok) {
    std::string missing, traps;
    for (unsigned i = 0; i < r.gpcs; ++i) {
      const McuId g = McuId::gpc_n(i);
      uint32_t s0 = read(g, MCU_STATUS0);
      if (!(s0 & MCU_STATUS0_INIT_DONE))
        missing += (missing.empty() ? "" : ", ") + g.name() + " (" + state(g) + ")" + image_note(g);
    }
    std::string msg = "microcontroller boot: the HUB did not report init-done within " +
                      opt.boot_timeout().to_string() + " after start; ";
    msg += missing.empty() ? "every GPC reported init" : "GPC(s) that never reported init: " + missing;
    msg += "; HUB " + state(McuId::hub()) + image_note(McuId::hub());
    throw McuError(msg);
  }
  r.init_done = api_.now();
  return r;
}

McuResult McuDriver::command(const McuId& m, uint32_t cmd, uint32_t data, const std::vector<uint32_t>& args,
                             sc_core::sc_time timeout) {
  if (m.kind == McuId::AllGpcs) throw McuError("commands go to one microcontroller, not the broadcast window");
  if (args.size() > 6) throw McuError("at most 6 command arguments (mailboxes 2..7)");
  // hetvp's firmware on a Falcon core (docs/firmware_falcon.md) takes its arguments in CC_SCRATCH[2..4]:
  // GF100's controller has no mailboxes 2..7. (PTOP_MCU_CORE is cached by the boot's check.)
  const bool falcon =
      !args.empty() && gpu_.block_base(PTOP_MCU_CORE, "microcontrollers") == PTOP_MCU_CORE_FALCON;
  if (falcon && args.size() > FCTX_HETVP_ARGS)
    throw McuError("at most 3 command arguments on a Falcon controller (CC_SCRATCH[2..4], docs/firmware_falcon.md)");
  McuResult r;
  const sc_core::sc_time t0 = api_.now();
  const uint32_t seq = read(m, MCU_STATUS1);
  for (size_t i = 0; i < args.size(); ++i)
    write(m, falcon ? FCTX_HETVP_ARG(uint32_t(i)) : MCU_MAILBOX_N(2 + i), args[i]);
  write(m, MCU_METHOD_DATA, data);
  write(m, MCU_METHOD_CMD, cmd);
  const uint64_t s1 = gpu_.function().bar[0] + base(m) + MCU_STATUS1;
  // Wait for STATUS1 to change (poll32 compares a masked value: poll for seq + 1).
  bool ok = api_.poll32(s1, 0xffffffffu, seq + 1, sc_core::sc_time(200, sc_core::SC_NS), timeout, Access::Uncached);
  if (!ok) {
    throw McuError(m.name() + ": firmware command " + std::string(fw_command_name(cmd)) + " (" +
                   std::to_string(cmd & 0xff) + ") not completed within " + timeout.to_string() + "; core " + state(m) +
                   image_note(m));
  }
  r.result = read(m, FW_RESULT);
  r.error = read(m, FW_ERROR);
  r.latency = api_.now() - t0;
  return r;
}

std::string McuDriver::state(const McuId& m) {
  const uint32_t c = read(m, MCU_UC_CTRL);
  std::string s = mcu_state_name(c);
  if ((c & MCU_STATE_MASK) == MCU_STATE_TRAPPED) {
    std::string b = format(" (mcause %u at pc 0x%08x, mtval 0x%08x)", read(m, MCU_UC_TRAP_CAUSE),
                           read(m, MCU_UC_TRAP_PC), read(m, MCU_UC_TRAP_VAL));
    s += b;
  } else if ((c & MCU_STATE_MASK) == MCU_STATE_HALTED) {
    s += " (exit code " + std::to_string(read(m, MCU_UC_EXIT)) + ")";
  }
  return s;
}

uint32_t McuDriver::gpr(const McuId& m, unsigned n) {
  write(m, MCU_DBG_INDEX, n);
  return read(m, MCU_DBG_DATA);
}

void McuDriver::stop(const McuId& m) { write(m, MCU_UC_CTRL, MCU_CTRL_STOP); }
void McuDriver::cont(const McuId& m) { write(m, MCU_UC_CTRL, MCU_CTRL_CONT); }

std::vector<uint8_t> McuDriver::read_dmem(const McuId& m, uint32_t off, uint32_t len) {
  const uint32_t st = read(m, MCU_UC_CTRL) & MCU_STATE_MASK;
  const bool live = st == MCU_STATE_RUNNING || st == MCU_STATE_SLEEPING;
  if (live) stop(m);
  std::vector<uint8_t> out;
  write(m, MCU_DATA_INDEX, (off & ~3u) | MCU_INDEX_AINCR);
  for (uint32_t i = 0; i < len + (off & 3); i += 4) {
    uint32_t w = read(m, MCU_DATA);
    for (int k = 0; k < 4; ++k) out.push_back(uint8_t(w >> (8 * k)));
  }
  if (live) cont(m);
  out.erase(out.begin(), out.begin() + (off & 3));
  out.resize(len);
  return out;
}

McuBootReport boot_microcontrollers(HostApi& api, GpuDriver& gpu, const McuBootOptions& opt) {
  McuBootReport r = McuDriver(api, gpu).boot(opt);
  api.log(r.summary());
  api.stat("mcu_init_done_us", us(r.init_done));
  api.stat("mcu_handshake_us", us(r.init_done - r.started));
  return r;
}

}  // namespace hetvp::sw
