#include "models/gpu/compute/ptx_unit.h"

#include <cinttypes>
#include <cstring>

#include "firmware/include/hetvp/compute.h"
#include "platform/format.h"

namespace hetvp::gpu {

using ptx::InstrClass;

PtxUnit::PtxUnit(UnitPort& port, unsigned cu, const UnitTiming& t)
    : port_(port), cu_(cu), t_(t), icache_(t.icache_bytes, t.icache_ways, t.icache_line) {
  for (size_t c = 0; c < cost_.size(); ++c) cost_[c] = ptx::issue_cycles(t.arch, InstrClass(c));
  // Global and local memory instructions and atomics cost what the memory path returns (its issue
  // and replay cycles included).
  for (InstrClass c : {InstrClass::LdGlobal, InstrClass::StGlobal, InstrClass::LdLocal, InstrClass::StLocal,
                       InstrClass::AtomGlobal})
    cost_[size_t(c)] = 0;
  if (t.icache_line > 1 && (t.icache_line & (t.icache_line - 1)) == 0)
    line_shift_ = unsigned(__builtin_ctz(t.icache_line));
}

void PtxUnit::flush() {
  if (pending_ > 0) cursor += t_.cycle * pending_;
  pending_ = 0;
}

void PtxUnit::fetch(uint64_t address) {
  const uint64_t line = line_of(address);
  if (line == last_line_) {
    ++counters.icache_hits;
    return;
  }
  fetch_miss(line);
}

// Per warp instruction (the executor's hot path): fetch() and issue() in one call.
void PtxUnit::fetch_issue(uint64_t address, InstrClass c, unsigned) {
  const uint64_t line = line_of(address);
  if (line == last_line_) ++counters.icache_hits;
  else fetch_miss(line);
  ++counters.by_class[size_t(c)];
  pending_ += cost_[size_t(c)];
}

void PtxUnit::fetch_issue_run(uint64_t address, const InstrClass* cls, unsigned n, unsigned, unsigned& done) {
  for (unsigned i = 0; i < n; ++i, ++done, address += ptx::kBytesPerInstr) {
    const uint64_t line = line_of(address);
    if (line == last_line_) ++counters.icache_hits;
    else fetch_miss(line);
    ++counters.by_class[size_t(cls[i])];
    pending_ += cost_[size_t(cls[i])];
  }
}

// A fetch from another line than the last one: the instruction cache's lookup (and fill).
void PtxUnit::fetch_miss(uint64_t line) {
  last_line_ = line;
  cache::CacheArray::Line* fill = nullptr;
  if (icache_.find_or_victim(line, &fill)) {
    ++counters.icache_hits;
    return;
  }
  // A miss: the warp waits for the line from memory (hits are pipelined with the issue).
  ++counters.icache_misses;
  flush();
  uint8_t buf[512];
  const unsigned len = t_.icache_line <= sizeof buf ? t_.icache_line : unsigned(sizeof buf);
  if (!port_.code_read(cursor, line * t_.icache_line, buf, len)) throw UnitFault{};
  icache_.fill(fill, line, buf);
}

void PtxUnit::issue(InstrClass c, unsigned) {
  ++counters.by_class[size_t(c)];
  pending_ += cost_[size_t(c)];
}

void PtxUnit::mem(bool store, ptx::EnvSpace space, const ptx::LaneArray<uint64_t>& addr, uint32_t mask,
                  unsigned size, uint8_t* data) {
  flush();
  if (!mask) return;
  if (space == ptx::EnvSpace::System) {  // lane by lane, uncached (the coherence protocol's registers)
    for (unsigned l = 0; l < ptx::kWarpLanes; ++l)
      if ((mask >> l & 1) && !port_.system_access(cu_, cursor, store, addr[l], data + l * size, size))
        throw UnitFault{};
    return;
  }
  if (!port_.warp_mem(cu_, cursor, store, space == ptx::EnvSpace::Local, addr, mask, size, data)) throw UnitFault{};
}

// Atomics execute at the TCC (L2), one lane after the other in lane order: read, apply, write.
void PtxUnit::atom(ptx::AtomOp op, ptx::AtomType type, const ptx::LaneArray<uint64_t>& addr, uint32_t mask,
                   unsigned size, const ptx::LaneArray<uint64_t>& b, const ptx::LaneArray<uint64_t>& c,
                   ptx::LaneArray<uint64_t>& old, bool) {
  flush();
  for (unsigned l = 0; l < ptx::kWarpLanes; ++l) {
    if (!(mask >> l & 1)) continue;
    ++counters.atomic_lanes;
    uint64_t v = 0;
    if (!port_.l2_access(cu_, cursor, false, addr[l], reinterpret_cast<uint8_t*>(&v), size)) throw UnitFault{};
    old[l] = v;
    uint64_t n = ptx::atom_apply(op, type, v, b[l], c[l]);
    if (!port_.l2_access(cu_, cursor, true, addr[l], reinterpret_cast<uint8_t*>(&n), size)) throw UnitFault{};
  }
}

void PtxUnit::shared_access(bool, unsigned conflict_degree) {
  ++counters.shared_accesses;
  if (conflict_degree > 1) {
    counters.shared_replays += conflict_degree - 1;
    pending_ += t_.replay_cycles * (conflict_degree - 1);
  }
}

uint64_t PtxUnit::clock() {
  flush();
  return uint64_t(cursor / t_.cycle);
}

// ---------------------------------------------------------------- module images
namespace {
uint64_t fnv1a64(const uint8_t* p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

// `n` bytes at `va` on the instruction path, line by line.
bool read_bytes(UnitPort& port, sc_core::sc_time& cursor, uint64_t va, uint8_t* out, uint64_t n) {
  while (n) {
    const unsigned len = unsigned(std::min<uint64_t>(n, 128 - va % 128));
    if (!port.code_read(cursor, va, out, len)) return false;
    va += len;
    out += len;
    n -= len;
  }
  return true;
}
}  // namespace

const UnitModule* ModuleCache::get(UnitPort& port, sc_core::sc_time& cursor, uint64_t space, uint64_t va,
                                   std::string* error) {
  uint32_t h[CMP_IMG_WORDS];
  if (!read_bytes(port, cursor, va, reinterpret_cast<uint8_t*>(h), sizeof h)) return nullptr;
  const std::string where = format("the module image at GPU VA 0x%" PRIx64, va);
  if (h[CMP_IMG_MAGIC_W] != CMP_IMG_MAGIC || h[CMP_IMG_VERSION_W] != CMP_IMG_VERSION) {
    *error = where + format(" is no module image (magic 0x%08x, version %u; CMP_MODULE)", h[CMP_IMG_MAGIC_W],
                            h[CMP_IMG_VERSION_W]);
    return nullptr;
  }
  const uint64_t hash = h[CMP_IMG_HASH_LO] | uint64_t(h[CMP_IMG_HASH_HI]) << 32;
  auto key = std::make_tuple(space, va, hash);
  auto it = modules_.find(key);
  if (it != modules_.end()) return it->second.get();

  auto m = std::make_unique<UnitModule>();
  std::vector<uint8_t> text(h[CMP_IMG_TEXT_BYTES]);
  m->bank0.resize(h[CMP_IMG_BANK0_BYTES]);
  m->vars.resize(h[CMP_IMG_VARS]);
  if (!read_bytes(port, cursor, va + h[CMP_IMG_TEXT_OFF], text.data(), text.size()) ||
      !read_bytes(port, cursor, va + h[CMP_IMG_BANK0_OFF], m->bank0.data(), m->bank0.size()) ||
      !read_bytes(port, cursor, va + h[CMP_IMG_VARS_OFF], reinterpret_cast<uint8_t*>(m->vars.data()),
                  m->vars.size() * 8))
    return nullptr;
  if (fnv1a64(text.data(), text.size()) != hash) {
    *error = where + ": its PTX does not match the image's hash (overwritten after the module load?)";
    return nullptr;
  }
  // The units decode the module from its PTX (a simulator shortcut: the hardware decodes the binary
  // code; the encoded code is what the instruction fetches read, for their timing).
  try {
    m->module = std::make_unique<ptx::Module>(
        ptx::load(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()),
                  format("module@0x%" PRIx64, va)));
  } catch (const ptx::LoadError& e) {
    *error = where + ": " + e.what();
    return nullptr;
  }
  if (m->vars.size() != m->module->variables().size()) {
    *error = where + format(": %zu variable addresses for %zu module variables", m->vars.size(),
                            m->module->variables().size());
    return nullptr;
  }
  m->va = va;
  m->code_va = va + h[CMP_IMG_CODE_OFF];
  m->lmem = h[CMP_IMG_LMEM_LO] | uint64_t(h[CMP_IMG_LMEM_HI]) << 32;
  m->lmem_slot = h[CMP_IMG_LMEM_SLOT];
  m->lmem_slots = h[CMP_IMG_LMEM_SLOTS];
  return modules_.emplace(key, std::move(m)).first->second.get();
}

}  // namespace hetvp::gpu
