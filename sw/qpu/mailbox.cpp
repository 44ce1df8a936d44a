// The Pi-shaped mailbox API (mailbox.h).
#include "sw/qpu/mailbox.h"

#include <cstring>
#include <vector>

#include "models/host/direct_memory.h"
#include "platform/format.h"

namespace hetvp::pi {

namespace {
// The Pi's mailbox: the alias of the property buffer's bus address, how often the driver polls,
// and how long it waits for one message (execute_qpu waits inside).
constexpr uint32_t kBufferAlias = VC_BUS_UNCACHED;
// (Functions: an sc_time made while the library loads would fix SystemC's time resolution.)
sc_core::sc_time poll_interval() { return sc_core::sc_time(1, sc_core::SC_US); }
sc_core::sc_time timeout() { return sc_core::sc_time(30, sc_core::SC_SEC); }

struct Pointer {  // a mapping converted to a native pointer (MappedMem::pointer)
  const uint8_t* p;
  uint64_t phys;
  size_t size;
};
struct Binding {
  HostApi* api = nullptr;
  uint64_t mailbox_base = kPiMailboxBase;
  uint64_t buffer = 0;  // the property buffer in SDRAM (16-byte aligned), allocated at mbox_open
  bool open = false;
  std::vector<Pointer> pointers;
};
Binding g;  // one host program at a time (ApiScope)
constexpr unsigned kBufferBytes = 4096;

HostApi& api() {
  if (!g.api) throw HostError("Pi mailbox API: no host program bound (hetvp::pi::ApiScope)");
  return *g.api;
}
// A pointer the program holds whose DMI grant was revoked stops it here (the CPU warned when it
// happened): writes through it would no longer reach the platform's view of the memory.
void check_pointers() {
  DirectMemory* dm = g.api ? direct_memory(*g.api) : nullptr;
  if (!dm) return;
  for (const Pointer& p : g.pointers)
    if (std::string why = dm->direct_stale(p.p); !why.empty())
      throw HostError(format("Pi mailbox API: the pointer mapmem(0x%08llx, %zu) gave is stale: ",
                             static_cast<unsigned long long>(p.phys), p.size) +
                      why + "; unmapmem it and map the memory again");
}
void need_open(int fd) {
  if (fd != 1 || !g.open) throw HostError(format("Pi mailbox API: file descriptor %d is not an open mailbox", fd));
}
}  // namespace

ApiScope::ApiScope(HostApi& a, uint64_t mailbox_base) {
  g = Binding{};
  g.api = &a;
  g.mailbox_base = mailbox_base;
}
ApiScope::~ApiScope() {
  if (g.open && g.buffer) g.api->free_pinned(g.buffer);
  if (DirectMemory* dm = direct_memory(*g.api))
    for (const Pointer& p : g.pointers) dm->unmap_direct(p.p);
  g = Binding{};
}

uint8_t* MappedMem::pointer() const {
  if (!api_) throw HostError("Pi mailbox API: a pointer from an empty mapping");
  const std::string what = format("Pi mailbox API: mapmem(0x%08llx, %zu) as a pointer: ",
                                  static_cast<unsigned long long>(phys_), size_);
  DirectMemory* dm = direct_memory(*api_);
  if (!dm) throw HostError(what + api_->name() + " hands out no native pointers; index the MappedMem instead");
  uint8_t* p = nullptr;
  try {
    p = dm->map_direct(phys_, size_);
  } catch (const HostError& e) {
    throw HostError(what + e.what() + "; keep this mapping a MappedMem and index it (p[i] = x)");
  }
  if (g.api == api_) {
    bool known = false;
    for (const Pointer& k : g.pointers) known = known || k.p == p;
    if (!known) g.pointers.push_back({p, phys_, size_});
  }
  return p;
}

uint64_t MappedMem::at(size_t off, size_t len) const {
  if (!api_) throw HostError("Pi mailbox API: access through an empty mapping");
  if (off + len > size_)
    throw HostError(format("Pi mailbox API: access at byte %zu (%zu bytes) of a %zu-byte mapping of 0x%08llx", off, len,
                           size_, static_cast<unsigned long long>(phys_)));
  return phys_ + off;
}
void MappedMem::copy_in(size_t off, const void* src, size_t bytes) const {
  api_->write(at(off, bytes), src, bytes, Access::Uncached);
}
void MappedMem::copy_out(size_t off, void* dst, size_t bytes) const {
  api_->read(at(off, bytes), dst, bytes, Access::Uncached);
}

int mbox_open() {
  HostApi& a = api();
  if (g.open) throw HostError("Pi mailbox API: mbox_open while the mailbox is open");
  g.buffer = a.alloc_pinned(kBufferBytes, 16);
  if (g.buffer + kBufferBytes > 0x40000000ull)
    throw HostError("Pi mailbox API: the property buffer is beyond the 1 GiB the VideoCore bus reaches");
  g.open = true;
  return 1;
}

void mbox_close(int fd) {
  need_open(fd);
  api().free_pinned(g.buffer);
  g.buffer = 0;
  g.open = false;
}

int mbox_property(int fd, void* buf) {
  need_open(fd);
  check_pointers();
  HostApi& a = api();
  uint32_t size;
  std::memcpy(&size, buf, 4);
  if (size < 12 || size > kBufferBytes)
    throw HostError(format("mbox_property: buffer size %u (word 0) is outside 12..%u bytes", size, kBufferBytes));
  a.write(g.buffer, buf, size, Access::Uncached);
  const uint32_t msg = (uint32_t(g.buffer) | kBufferAlias) | MBOX_CHAN_PROPERTY;
  const sc_core::sc_time deadline = a.now() + timeout();
  while (a.mmio_read32(g.mailbox_base + MBOX_MAIL1_STA) & MBOX_STA_FULL) a.sleep(poll_interval());
  a.mmio_write32(g.mailbox_base + MBOX_MAIL1_WRT, msg);
  for (;;) {
    while (a.mmio_read32(g.mailbox_base + MBOX_MAIL0_STA) & MBOX_STA_EMPTY) {
      if (a.now() >= deadline)
        throw HostError(
            format("mbox_property: no answer to message 0x%08x within %s", msg, timeout().to_string().c_str()));
      a.sleep(poll_interval());
    }
    if (a.mmio_read32(g.mailbox_base + MBOX_MAIL0_RD) == msg) break;  // another's answer: not ours
  }
  a.read(g.buffer, buf, size, Access::Uncached);
  uint32_t code;
  std::memcpy(&code, static_cast<uint8_t*>(buf) + 4, 4);
  return code == MBOX_RESPONSE_OK ? 0 : -1;
}

namespace {
// One tag with `in` request words and a one-word answer, as mailbox.c builds them.
unsigned one_tag(int fd, uint32_t tag, std::vector<uint32_t> in, unsigned value_words) {
  std::vector<uint32_t> p;
  p.push_back(0);
  p.push_back(MBOX_REQUEST);
  p.push_back(tag);
  p.push_back(value_words * 4);  // value buffer size
  p.push_back(uint32_t(in.size() * 4));
  for (unsigned k = 0; k < value_words; ++k) p.push_back(k < in.size() ? in[k] : 0);
  p.push_back(MBOX_TAG_END);
  p[0] = uint32_t(p.size() * 4);
  mbox_property(fd, p.data());
  return p[5];
}
}  // namespace

unsigned get_version(int fd) { return one_tag(fd, MBOX_TAG_GET_FIRMWARE_REVISION, {}, 1); }
unsigned mem_alloc(int fd, unsigned size, unsigned align, unsigned flags) {
  return one_tag(fd, MBOX_TAG_ALLOCATE_MEMORY, {size, align, flags}, 3);
}
unsigned mem_free(int fd, unsigned handle) { return one_tag(fd, MBOX_TAG_RELEASE_MEMORY, {handle}, 1); }
unsigned mem_lock(int fd, unsigned handle) { return one_tag(fd, MBOX_TAG_LOCK_MEMORY, {handle}, 1); }
unsigned mem_unlock(int fd, unsigned handle) { return one_tag(fd, MBOX_TAG_UNLOCK_MEMORY, {handle}, 1); }
unsigned execute_qpu(int fd, unsigned num_qpus, unsigned control, unsigned noflush, unsigned timeout) {
  return one_tag(fd, MBOX_TAG_EXECUTE_QPU, {num_qpus, control, noflush, timeout}, 4);
}
unsigned qpu_enable(int fd, unsigned enable) { return one_tag(fd, MBOX_TAG_ENABLE_QPU, {enable}, 1); }

MappedMem mapmem(unsigned base, unsigned size) {
  check_pointers();
  const uint32_t phys = VC_BUS_TO_PHYS(base);
  return MappedMem(&api(), phys, size);
}
void unmapmem(MappedMem, unsigned) {}
void unmapmem(const volatile void* p, unsigned) {
  for (auto it = g.pointers.begin(); it != g.pointers.end(); ++it) {
    if (static_cast<const volatile void*>(it->p) != p) continue;
    DirectMemory* dm = direct_memory(api());
    const std::string why = dm->direct_stale(p);
    const Pointer gone = *it;
    dm->unmap_direct(p);
    g.pointers.erase(it);
    if (!why.empty())  // released, and said: what was written through it since bypassed the platform
      throw HostError(format("Pi mailbox API: unmapmem of the pointer mapmem(0x%08llx, %zu) gave, which was stale: ",
                             static_cast<unsigned long long>(gone.phys), gone.size) +
                      why);
    return;
  }
  throw HostError(format("Pi mailbox API: unmapmem(%p): not a pointer a mapmem mapping gave (or unmapped already)",
                         const_cast<const void*>(p)));
}

}  // namespace hetvp::pi
