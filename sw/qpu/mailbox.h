// A host-side C API shaped like the Raspberry Pi's mailbox.c (hello_fft, GPU_FFT, py-videocore's
// C helpers): mbox_open, mem_alloc/mem_lock/mem_unlock/mem_free, mapmem/unmapmem, execute_qpu,
// qpu_enable, get_version, mbox_property — so Pi host code ports by recompiling it as a hetvp host
// program (docs/qpu.md "Porting Pi host code"). Underneath, mbox_property does what the Pi's
// /dev/vcio driver does: it copies the property buffer to SDRAM, writes its bus address | 8 to
// MAIL1_WRT of the vc_mailbox device, waits for MAIL0 and copies the answer back. Every step is
// a timed load or store of the simulated host CPU.
//
// mapmem returns a MappedMem, which serves the Pi's two uses of the mapping:
//   - memory (mem_alloc'd GPU memory, any SDRAM): it converts to a native pointer, as the Pi's
//     `void *` does (`volatile unsigned *p = (volatile unsigned *) mapmem(...)`, `void *v =
//     mapmem(...)`), granted by TLM DMI like the host CPU's cached accesses and, like DMI, untimed
//     and unseen by the platform (models/host/direct_memory.h);
//   - a peripheral's registers (the V3D's): indexing it (`p[i] = x`, `x = p[i]`) is a timed
//     uncached access of that word. A peripheral has no pointer: converting its mapping is an error
//     saying to index the MappedMem (`MappedMem v3d = mapmem(...)` or `auto`).
// A pointer whose DMI grant the memory revokes is stale: the CPU warns, and the next mailbox call
// (or unmapmem) stops the program naming it, instead of letting it write around the platform.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <systemc>

#include "firmware/include/hetvp/vc_mailbox.h"
#include "models/host/host_api.h"

namespace hetvp::pi {

// Where a Raspberry Pi 1's mailbox registers are: peripheral base 0x20000000 + MBOX_BASE_OFFSET.
constexpr uint64_t kPiMailboxBase = 0x2000b880;

// Binds the API to the calling host program for the scope's lifetime (mbox_open and mapmem act
// for it; one host program at a time). `mailbox_base`: the vc_mailbox device's registers (the
// host programs' `mailbox_base` key); the rest of the Pi's mailbox is fixed (mailbox.cpp).
class ApiScope {
 public:
  explicit ApiScope(HostApi& api, uint64_t mailbox_base = kPiMailboxBase);
  ~ApiScope();
  ApiScope(const ApiScope&) = delete;
  ApiScope& operator=(const ApiScope&) = delete;
};

// Physical memory seen as 32-bit words (what mapmem returns).
class MappedMem {
 public:
  class Word {
   public:
    Word(HostApi* api, uint64_t addr) : api_(api), addr_(addr) {}
    operator uint32_t() const { return api_->mmio_read32(addr_); }
    Word& operator=(uint32_t v) {
      api_->mmio_write32(addr_, v);
      return *this;
    }
    Word& operator=(const Word& o) { return *this = uint32_t(o); }

   private:
    HostApi* api_;
    uint64_t addr_;
  };
  MappedMem() = default;
  MappedMem(HostApi* api, uint64_t phys, size_t size) : api_(api), phys_(phys), size_(size) {}
  // (templates: an exact match for any integer index, so the pointer conversion below is not a
  // second candidate for p[i] and p + n)
  template <class I, class = std::enable_if_t<std::is_integral<I>::value>>
  Word operator[](I i) const {
    return Word(api_, at(size_t(i) * 4, 4));
  }
  template <class I, class = std::enable_if_t<std::is_integral<I>::value>>
  MappedMem operator+(I words) const {
    return MappedMem(api_, phys_ + uint64_t(words) * 4, size_ - size_t(words) * 4);
  }
  explicit operator bool() const { return api_ != nullptr; }
  uint64_t phys() const { return phys_; }
  size_t size() const { return size_; }
  // The mapping as a native pointer (memory only; see the top of this file): HostError for a
  // peripheral's registers, a range the memory does not grant as one DMI region, or a CPU model
  // without DMI pointers.
  uint8_t* pointer() const;
  template <class T>
  operator T*() const {
    return static_cast<T*>(static_cast<void*>(pointer()));
  }
  // Bulk copies (a Pi program's memcpy into or out of the mapping), also timed.
  void copy_in(size_t byte_offset, const void* src, size_t bytes) const;
  void copy_out(size_t byte_offset, void* dst, size_t bytes) const;

 private:
  uint64_t at(size_t off, size_t len) const;
  HostApi* api_ = nullptr;
  uint64_t phys_ = 0;
  size_t size_ = 0;
};

int mbox_open();
void mbox_close(int file_desc);
// Sends the property buffer `buf` (u32 words, buf[0] = its size in bytes); 0 on a successful
// response (MBOX_RESPONSE_OK), -1 otherwise; the answer is copied back into `buf` either way.
int mbox_property(int file_desc, void* buf);
unsigned get_version(int file_desc);
unsigned mem_alloc(int file_desc, unsigned size, unsigned align, unsigned flags);
unsigned mem_free(int file_desc, unsigned handle);
unsigned mem_lock(int file_desc, unsigned handle);
unsigned mem_unlock(int file_desc, unsigned handle);
// Maps `size` bytes of physical memory at `base`. A VideoCore bus address works too: the host's
// view decodes the alias bits (VC_BUS_TO_PHYS), as hello_fft's BUS_TO_PHYS does before calling it.
MappedMem mapmem(unsigned base, unsigned size);
void unmapmem(MappedMem mem, unsigned size);
// Releases a pointer a mapping converted to (the Pi's `unmapmem((void *) p, size)`); HostError for
// a pointer mapmem did not give.
void unmapmem(const volatile void* p, unsigned size);
unsigned execute_qpu(int file_desc, unsigned num_qpus, unsigned control, unsigned noflush, unsigned timeout);
unsigned qpu_enable(int file_desc, unsigned enable);

}  // namespace hetvp::pi
