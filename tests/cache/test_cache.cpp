// Cache model unit tests: tag array (hit/miss, LRU eviction), the SystemC cache in front of a
// memory (write-back, write-through, uncached pass-through, DMI denied, debug sees cached data),
// range invalidation counting tag accesses and time.
#include <gtest/gtest.h>

#include "common/tlm_harness.h"
#include "models/cache/cache.h"
#include "models/memory/memory.h"

using namespace hetvp;
using namespace hetvp::cache;
using namespace hetvp::test;

TEST(CacheArray, HitMissAndLruEviction) {
  CacheArray a(4 * 64, 2, 64);  // 2 sets x 2 ways
  EXPECT_EQ(a.sets(), 2u);
  uint8_t line[64] = {};
  EXPECT_EQ(a.find(0), nullptr);
  a.fill(a.victim(0), 0, line);   // set 0
  a.fill(a.victim(2), 2, line);   // set 0
  ASSERT_NE(a.find(0), nullptr);  // 0 is now most recent
  CacheArray::Line* v = a.victim(4);  // set 0 full: LRU is line 2
  EXPECT_EQ(v->tag, 2u);
  a.fill(v, 4, line);
  EXPECT_EQ(a.probe(2), nullptr);
  EXPECT_NE(a.probe(0), nullptr);
  EXPECT_NE(a.probe(4), nullptr);
  EXPECT_EQ(a.valid_count(), 2u);
}

TEST(CacheArray, RejectsBadGeometry) {
  EXPECT_THROW(CacheArray(1000, 2, 64), std::invalid_argument);
  EXPECT_THROW(CacheArray(4096, 2, 48), std::invalid_argument);
}

namespace {
struct Bench {
  std::unique_ptr<Memory> mem;
  std::unique_ptr<Cache> cache;
  std::unique_ptr<TestInitiator> cpu;
  Bench(const std::string& cache_yaml, std::function<void(TestInitiator&, Bench&)> body) {
    mem = std::make_unique<Memory>("mem", params_from("size: 1 MiB\nlatency: 50 ns", Memory::schema()));
    cache = std::make_unique<Cache>("l1", params_from(cache_yaml, Cache::schema()));
    cpu = std::make_unique<TestInitiator>("cpu", [this, body](TestInitiator& t) { body(t, *this); });
    cpu->socket.bind(cache->in);
    cache->out.bind(mem->in);
  }
  uint32_t mem_word(uint64_t addr) {
    uint32_t v = 0;
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(addr);
    gp.set_data_ptr(reinterpret_cast<uint8_t*>(&v));
    gp.set_data_length(4);
    gp.set_streaming_width(4);
    mem->in.get_base_export()->transport_dbg(gp);
    return v;
  }
};
}  // namespace

TEST(Cache, WriteBackKeepsDataUntilFlushThenMissHitTiming) {
  bool ran = false;
  Bench b("size: 1 KiB\nways: 2\nclock: 1 GHz\ntag_cycles: 2\ndata_cycles: 1", [&](TestInitiator& t, Bench& b) {
    sc_core::sc_time d;
    ASSERT_EQ(t.write32(0x100, 0xabcd, d), tlm::TLM_OK_RESPONSE);  // miss: allocate (fetch the line)
    EXPECT_GE(d, sc_core::sc_time(50, sc_core::SC_NS));
    EXPECT_EQ(b.mem_word(0x100), 0u) << "write-back: memory not yet written";
    sc_core::sc_time h;
    uint32_t v = 0;
    ASSERT_EQ(t.read32(0x100, v, h), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v, 0xabcdu);
    EXPECT_EQ(h, sc_core::sc_time(3, sc_core::SC_NS)) << "hit = tag 2 cycles + data 1 cycle";
    CacheCtl c;
    c.op = CacheCtl::FlushDirty;
    sc_core::sc_time fd;
    b.cache->control(c, fd);
    EXPECT_EQ(c.writebacks, 1u);
    EXPECT_EQ(b.mem_word(0x100), 0xabcdu);
    ran = true;
  });
  sc_core::sc_start();
  EXPECT_TRUE(ran);
}

TEST(Cache, WriteThroughNoAllocateAndUncachedPassThrough) {
  bool ran = false;
  Bench b("size: 1 KiB\nways: 2\nwrite_policy: write_through\nwrite_allocate: false", [&](TestInitiator& t, Bench& b) {
    sc_core::sc_time d;
    ASSERT_EQ(t.write32(0x40, 7, d), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(b.mem_word(0x40), 7u);
    EXPECT_EQ(b.cache->array().valid_count(), 0u) << "no allocation on a write miss";
    t.info->uncached = true;
    uint32_t v = 0;
    ASSERT_EQ(t.read32(0x40, v, d), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v, 7u);
    EXPECT_EQ(b.cache->array().valid_count(), 0u) << "uncached access passes through";
    t.info->uncached = false;
    tlm::tlm_generic_payload gp;
    tlm::tlm_dmi dmi;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(0);
    EXPECT_FALSE(t.socket->get_direct_mem_ptr(gp, dmi)) << "no DMI through a cache";
    ran = true;
  });
  sc_core::sc_start();
  EXPECT_TRUE(ran);
}

TEST(Cache, RangeInvalidateCountsOneTagAccessPerLine) {
  bool ran = false;
  Bench b("size: 4 KiB\nways: 4\nclock: 1 GHz\ntag_cycles: 4", [&](TestInitiator& t, Bench& b) {
    sc_core::sc_time d;
    uint32_t v;
    for (uint64_t a : {0x1000ull, 0x1040ull, 0x1100ull}) ASSERT_EQ(t.read32(a, v, d), tlm::TLM_OK_RESPONSE);
    ASSERT_EQ(t.write32(0x1040, 5, d), tlm::TLM_OK_RESPONSE);  // dirty: written back when invalidated
    CacheCtl c;
    c.first_line = 0x1000 / 64;
    c.count = 8;  // 0x1000..0x11ff: holds 0x1000, 0x1040, 0x1100
    sc_core::sc_time id;
    b.cache->control(c, id);
    EXPECT_EQ(c.tag_accesses, 8u);
    EXPECT_EQ(c.invalidated, 3u);
    EXPECT_EQ(c.writebacks, 1u);
    EXPECT_GE(id, sc_core::sc_time(32, sc_core::SC_NS)) << "8 tag accesses x 4 cycles at 1 GHz (+ the write-back)";
    EXPECT_EQ(b.mem_word(0x1040), 5u);
    EXPECT_EQ(b.cache->array().valid_count(), 0u);
    CacheCtl again;
    again.first_line = 0x1000 / 64;
    again.count = 8;
    sc_core::sc_time d2;
    b.cache->control(again, d2);
    EXPECT_EQ(again.invalidated, 0u);
    EXPECT_EQ(again.tag_accesses, 8u);
    EXPECT_EQ(d2, sc_core::sc_time(32, sc_core::SC_NS));
    EXPECT_EQ(again.digest, 0u);
    ran = true;
  });
  sc_core::sc_start();
  EXPECT_TRUE(ran);
}

TEST(Cache, DebugAccessSeesCachedData) {
  bool ran = false;
  Bench b("size: 1 KiB\nways: 2", [&](TestInitiator& t, Bench&) {
    sc_core::sc_time d;
    ASSERT_EQ(t.write32(0x80, 0x1234, d), tlm::TLM_OK_RESPONSE);
    uint32_t v = 0;
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(0x80);
    gp.set_data_ptr(reinterpret_cast<uint8_t*>(&v));
    gp.set_data_length(4);
    gp.set_streaming_width(4);
    t.socket->transport_dbg(gp);
    EXPECT_EQ(v, 0x1234u);
    ran = true;
  });
  sc_core::sc_start();
  EXPECT_TRUE(ran);
}
