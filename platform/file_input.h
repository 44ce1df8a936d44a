// The one way hetvp reads a file a user names (an ELF for `hetvp iss` or a microcontroller, a
// firmware image, a QPU program, a debug script, a sweep specification, a plugin library): regular
// files only, and never more than a limit per kind of input. A directory, a FIFO or a device
// (/dev/zero) is refused with the file's name before anything is read, so no input can hang the
// program or make it grow without bound (docs/reliability.md, "File inputs").
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace hetvp {

// What is being read, for the error messages and the size limit.
struct InputKind {
  const char* what;    // "an ELF executable", ...: messages end "(an ELF executable expected)"
  uint64_t max_bytes;  // larger files are refused
};

// The limits. Each is far above any real input of its kind and far below what could exhaust
// memory. assumption: chosen by the sizes of the shipped inputs times a wide margin, see each.
namespace input_kind {
// Firmware ELFs are 10-60 KiB, the conformance programs ~10 KiB; an RV32 core's memory is at most
// a few MiB: 64 MiB leaves room for debug information.
inline constexpr InputKind kElf{"an ELF executable", 64ull << 20};
// The shipped .qasm programs are 1-5 KiB; the QPU's instruction memory is 4 KiB per QPU.
inline constexpr InputKind kQpuProgram{"a QPU program (.qasm, .hex or .bin)", 4ull << 20};
// A qpu_run data buffer is loaded into the V3D's SDRAM, which is at most 1 GiB on a Pi.
inline constexpr InputKind kQpuBuffer{"a QPU data buffer", 1ull << 30};
// Debug scripts are a few dozen lines.
inline constexpr InputKind kDebugScript{"a debug script", 1ull << 20};
// A sweep specification is a configuration file: the configuration limit (ConfigLimits::kMaxBytes).
inline constexpr InputKind kSweepSpec{"a sweep specification", 1ull << 20};
// Plugin libraries are opened by dlopen, which maps rather than reads them; the limit only keeps
// a wrong file from being mapped (the example plugin is ~200 KiB, ~2 MiB with debug information).
inline constexpr InputKind kPlugin{"a plugin library", 1ull << 30};
// A Falcon image in nouveau's .fuc3.h/.fuc5.h text format (models/mcu/falcon/image_file.h): nouveau's largest
// is ~30 KiB of text for 3.3 KiB of code; a Falcon segment is at most 64 KiB (~6 bytes of text per
// byte): 1 MiB.
inline constexpr InputKind kFalconImage{"a Falcon image (C arrays <name>_code[] and <name>_data[], nouveau's .fuc3.h format)",
                                        1ull << 20};
// A raw Falcon segment (models/mcu/falcon/image_file.h, code=FILE / data=FILE): the largest segment UC_CAPS can
// describe is 0x1ff00 bytes of code: 1 MiB is far above it (UC_CAPS refuses what does not fit).
inline constexpr InputKind kFalconRawSegment{"a raw Falcon code or data segment (little-endian 32-bit words)",
                                             1ull << 20};
}  // namespace input_kind

class InputFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws InputFileError "PATH: ..." unless PATH is a regular file of at most kind.max_bytes.
// Opens nothing that could block (a FIFO is recognised by stat, not opened).
void check_input_file(const std::string& path, const InputKind& kind);
// The whole file, after the same checks; at most kind.max_bytes are read even if the file grows.
std::vector<uint8_t> read_input_bytes(const std::string& path, const InputKind& kind);
std::string read_input_text(const std::string& path, const InputKind& kind);

}  // namespace hetvp
