#include "models/coherence/checker.h"

#include <cinttypes>
#include <cstring>

#include "platform/run_state.h"
#include "platform/format.h"

namespace hetvp::coherence {

Checker::Page& Checker::page(uint64_t key) {
  auto& p = pages_[key >> 12];
  if (!p) {
    p = std::make_unique<Page>();
    std::memset(p->valid, 0, sizeof p->valid);
  }
  return *p;
}

void Checker::store(uint64_t key, const uint8_t* data, unsigned len) {
  if (!enabled_) return;
  for (unsigned i = 0; i < len; ++i) {
    Page& p = page(key + i);
    p.data[(key + i) & 4095] = data[i];
    p.valid[(key + i) & 4095] = 1;
  }
}

bool Checker::load(uint64_t key, const uint8_t* data, unsigned len, const char* who, const uint8_t* consumed) {
  if (!enabled_) return true;
  ++loads_;
  for (unsigned i = 0; i < len; ++i) {
    if (consumed && !consumed[i]) continue;
    auto it = pages_.find((key + i) >> 12);
    if (it == pages_.end()) continue;
    const Page& p = *it->second;
    const unsigned o = (key + i) & 4095;
    if (!p.valid[o] || p.data[o] == data[i]) continue;
    if (violations_++) return false;  // the first violation is reported; the run is failing anyway
    const std::string buf = format("coherence violation: load by %s at address 0x%" PRIx64
                                   " returned byte 0x%02x, the latest released value is 0x%02x",
                                   who, key + i, data[i], p.data[o]);
    run_.fail("coherence checker", buf);
    return false;
  }
  return true;
}

}  // namespace hetvp::coherence
