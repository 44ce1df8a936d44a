// Cache model unit tests: tag array (hit/miss, LRU eviction), the SystemC cache in front of a
// memory (write-back, write-through, uncached pass-through, DMI denied, debug sees cached data),
// range invalidation counting tag accesses and time.
#include <gtest/gtest.h>

#include <array>
#include <functional>
#include <map>

#include "common/test_run.h"
#include "common/tlm_harness.h"
#include "models/cache/cache.h"
#include "models/memory/memory.h"
#include "platform/config.h"
#include "platform/host_memory.h"
#include "platform/run_state.h"

using namespace hetvp;
using namespace hetvp::cache;
using namespace hetvp::test;

TEST(CacheArray, HitMissAndLruEviction) {
  CacheArray a(4 * 64, 2, 64);  // 2 sets x 2 ways
  EXPECT_EQ(a.sets(), 2u);
  uint8_t line[64] = {};
  EXPECT_EQ(a.find(0), nullptr);
  a.fill(a.victim(0), 0, line);       // set 0
  a.fill(a.victim(2), 2, line);       // set 0
  ASSERT_NE(a.find(0), nullptr);      // 0 is now most recent
  CacheArray::Line* v = a.victim(4);  // set 0 full: LRU is line 2
  EXPECT_EQ(v->tag, 2u);
  a.fill(v, 4, line);
  EXPECT_EQ(a.probe(2), nullptr);
  EXPECT_NE(a.probe(0), nullptr);
  EXPECT_NE(a.probe(4), nullptr);
  EXPECT_EQ(a.valid_count(), 2u);
}

// The cache's one-walk lookup (#31) against find() then victim() on a twin array: same hits,
// same way chosen on a miss, same LRU state, over random accesses with invalidations between.
TEST(CacheArray, FindOrVictimMatchesFindThenVictim) {
  CacheArray a(8 * 4 * 64, 4, 64), b(8 * 4 * 64, 4, 64);  // 8 sets x 4 ways
  uint8_t line[64] = {};
  uint64_t seed = 99;
  auto rnd = [&](uint64_t n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (seed >> 33) % n;
  };
  for (int i = 0; i < 20000; ++i) {
    const uint64_t la = rnd(96);
    CacheArray::Line* fill = nullptr;
    CacheArray::Line* hit = a.find_or_victim(la, &fill);
    CacheArray::Line* ref = b.find(la);
    ASSERT_EQ(hit != nullptr, ref != nullptr) << "access " << i;
    if (!hit) {
      CacheArray::Line* v = b.victim(la);
      ASSERT_EQ(fill->valid, v->valid);
      ASSERT_EQ(fill->tag, v->tag);
      a.fill(fill, la, line);
      b.fill(v, la, line);
    }
    if (rnd(8) == 0) {  // drop a line, as an invalidation does
      const uint64_t x = rnd(96);
      if (auto* l = a.probe(x)) l->valid = false;
      if (auto* l = b.probe(x)) l->valid = false;
    }
  }
  EXPECT_EQ(a.valid_count(), b.valid_count());
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
    mem = std::make_unique<Memory>("mem", config_from<MemoryConfig>("size: 1 MiB\nlatency: 50 ns"));
    cache = std::make_unique<Cache>("l1", config_from<CacheConfig>(cache_yaml));
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

// A GPU L1 (gpu_l1: true, the compute block's TCP) passes loads marked l1_bypass (Kepler's global
// loads) through without a lookup or a fill, and serves stale data for none of them; unmarked loads
// are cached as before. A cache that is not a GPU L1 ignores the mark (the TCC caches those loads).
namespace {
// One process per test: one simulation each (SystemC cannot elaborate twice).
void l1_bypass_case(bool gpu_l1) {
  bool ran = false;
  Bench b(std::string("size: 1 KiB\nways: 2\nwrite_policy: write_through\nwrite_allocate: false\ngpu_l1: ") +
              (gpu_l1 ? "true" : "false"),
          [&](TestInitiator& t, Bench& b) {
            sc_core::sc_time d;
            ASSERT_EQ(t.write32(0x80, 5, d), tlm::TLM_OK_RESPONSE);
            uint32_t v = 0;
            t.info->l1_bypass = true;
            ASSERT_EQ(t.read32(0x80, v, d), tlm::TLM_OK_RESPONSE);
            EXPECT_EQ(v, 5u);
            EXPECT_EQ(b.cache->array().valid_count(), gpu_l1 ? 0u : 1u) << "gpu_l1 " << gpu_l1;
            t.info->l1_bypass = false;
            ASSERT_EQ(t.read32(0x80, v, d), tlm::TLM_OK_RESPONSE);  // an unmarked load fills the line
            EXPECT_EQ(b.cache->array().valid_count(), 1u);
            ran = true;
          });
  hetvp::test::start();
  EXPECT_TRUE(ran);
}
}  // namespace

TEST(Cache, GpuL1PassesL1BypassingLoadsThrough) { l1_bypass_case(true); }
TEST(Cache, ACacheThatIsNoGpuL1CachesL1BypassingLoads) { l1_bypass_case(false); }

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
  hetvp::test::start();
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
  hetvp::test::start();
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
    const uint64_t cid = b.cache->id();
    EXPECT_EQ(c.digest, line_digest(cid, 0x1000) + line_digest(cid, 0x1040) + line_digest(cid, 0x1100))
        << "the digest names the invalidated lines by address";
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
  hetvp::test::start();
  EXPECT_TRUE(ran);
}

// range_walk: per_line walks every line of the range; bounded walks at most the cache's own 64 tag
// entries (4 KiB / 64 B) when the range is longer. Both drop the same lines (digest, write-back).
void range_walk_case(const char* walk, uint64_t long_tags) {
  bool ran = false;
  Bench b(std::string("size: 4 KiB\nways: 4\nclock: 1 GHz\ntag_cycles: 4\nrange_walk: ") + walk,
          [&](TestInitiator& t, Bench& b) {
            sc_core::sc_time d;
            uint32_t v;
            // inside the 200-line range 0x1000..0x4200: 0x1000, 0x1040, 0x3000, 0x41c0; outside: 0x0, 0x4200
            for (uint64_t a : {0x1000ull, 0x1040ull, 0x3000ull, 0x41c0ull, 0x0ull, 0x4200ull})
              ASSERT_EQ(t.read32(a, v, d), tlm::TLM_OK_RESPONSE);
            ASSERT_EQ(t.write32(0x3000, 7, d), tlm::TLM_OK_RESPONSE);
            CacheCtl shortr;  // 8 lines < 64: both walk the range
            shortr.first_line = 0x8000 / 64;
            shortr.count = 8;
            sc_core::sc_time sd;
            b.cache->control(shortr, sd);
            EXPECT_EQ(shortr.tag_accesses, 8u);
            EXPECT_EQ(sd, sc_core::sc_time(32, sc_core::SC_NS));
            CacheCtl c;
            c.first_line = 0x1000 / 64;
            c.count = 200;
            sc_core::sc_time id;
            b.cache->control(c, id);
            EXPECT_EQ(c.tag_accesses, long_tags);
            EXPECT_EQ(c.invalidated, 4u);
            EXPECT_EQ(c.writebacks, 1u);
            const uint64_t cid = b.cache->id();
            EXPECT_EQ(c.digest, line_digest(cid, 0x1000) + line_digest(cid, 0x1040) + line_digest(cid, 0x3000) +
                                    line_digest(cid, 0x41c0));
            EXPECT_GE(id, sc_core::sc_time(4.0 * double(long_tags), sc_core::SC_NS));
            EXPECT_EQ(b.mem_word(0x3000), 7u);
            EXPECT_EQ(b.cache->array().valid_count(), 2u) << "0x0 and 0x4200 stay";
            ran = true;
          });
  hetvp::test::start();
  EXPECT_TRUE(ran);
}
TEST(Cache, RangeWalkPerLineChecksEveryLineOfTheRange) { range_walk_case("per_line", 200); }
TEST(Cache, RangeWalkBoundedChecksAtMostTheCachesLines) { range_walk_case("bounded", 64); }

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
  hetvp::test::start();
  EXPECT_TRUE(ran);
}

// ---- a failed write-back is a failure of the run, and the line stays dirty ----------------------
// The next level refuses writes while `refuse_writes` is set (reads always succeed), so a line
// can be filled and dirtied first and its write-back then fails.
#include <tlm_utils/simple_target_socket.h>
namespace {
struct RefusingMemory : sc_core::sc_module {
  tlm_utils::simple_target_socket<RefusingMemory> in{"in"};
  bool refuse_writes = false;
  std::map<uint64_t, uint8_t> bytes;
  unsigned refused = 0;
  explicit RefusingMemory(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    in.register_b_transport(this, &RefusingMemory::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
    if (gp.is_write() && refuse_writes) {
      ++refused;
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    for (unsigned i = 0; i < gp.get_data_length(); ++i) {
      if (gp.is_write())
        bytes[gp.get_address() + i] = gp.get_data_ptr()[i];
      else
        gp.get_data_ptr()[i] = bytes.count(gp.get_address() + i) ? bytes[gp.get_address() + i] : 0;
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  uint32_t word(uint64_t a) {
    uint32_t v = 0;
    for (unsigned i = 0; i < 4; ++i) v |= uint32_t(bytes.count(a + i) ? bytes[a + i] : 0) << (8 * i);
    return v;
  }
};

// (dirty_lines() is not const; the test only counts)
size_t dirty_count(Cache& c) { return const_cast<CacheArray&>(c.array()).dirty_lines().size(); }

// Runs `body` in a thread with a cache in front of a RefusingMemory; returns whether it ran.
void with_refusing_memory(std::function<void(TestInitiator&, Cache&, RefusingMemory&)> body) {
  RefusingMemory mem("mem");
  Cache cache("l1", config_from<CacheConfig>("size: 1 KiB\nways: 2"));
  TestInitiator cpu("cpu", [&](TestInitiator& t) { body(t, cache, mem); });
  cpu.socket.bind(cache.in);
  cache.out.bind(mem.in);
  hetvp::test::start();
}
}  // namespace

TEST(CacheWriteBackFailure, FlushFailsTheRunNamingLineAndTargetAndKeepsTheLineDirty) {
  bool ran = false;
  with_refusing_memory([&](TestInitiator& t, Cache& c, RefusingMemory& m) {
    sc_core::sc_time d;
    ASSERT_EQ(t.write32(0x140, 0x5a5a, d), tlm::TLM_OK_RESPONSE);
    ASSERT_EQ(dirty_count(c), 1u);
    m.refuse_writes = true;
    CacheCtl f;
    f.op = CacheCtl::FlushDirty;
    c.control(f, d);
    EXPECT_EQ(m.refused, 1u);
    EXPECT_EQ(f.writebacks, 0u) << "a refused write-back is not counted as done";
    EXPECT_EQ(dirty_count(c), 1u) << "the line whose write-back failed must stay dirty";
    ASSERT_TRUE(hetvp::test::run_state().failed());
    const std::string why = hetvp::test::run_state().failures()[0];
    EXPECT_NE(why.find("l1"), std::string::npos) << why;
    EXPECT_NE(why.find("0x140"), std::string::npos) << "names the line address: " << why;
    EXPECT_NE(why.find("l1.out"), std::string::npos) << "names the target it was written to: " << why;
    EXPECT_NE(why.find("TLM_ADDRESS_ERROR_RESPONSE"), std::string::npos) << why;
    // The data is still there: once the next level accepts writes, a flush writes it back.
    m.refuse_writes = false;
    CacheCtl g;
    g.op = CacheCtl::FlushDirty;
    c.control(g, d);
    EXPECT_EQ(g.writebacks, 1u);
    EXPECT_EQ(m.word(0x140), 0x5a5au);
    EXPECT_EQ(dirty_count(c), 0u);
    ran = true;
  });
  EXPECT_TRUE(ran);
}

TEST(CacheWriteBackFailure, ProbeDoesNotDropADirtyLineWhoseWriteBackFailed) {
  bool ran = false;
  with_refusing_memory([&](TestInitiator& t, Cache& c, RefusingMemory& m) {
    sc_core::sc_time d;
    ASSERT_EQ(t.write32(0x200, 0x1234, d), tlm::TLM_OK_RESPONSE);
    m.refuse_writes = true;
    CacheCtl inv;  // range invalidation (a probe) over the dirty line
    inv.first_line = 0x200 / 64;
    inv.count = 1;
    c.control(inv, d);
    EXPECT_EQ(inv.writebacks, 0u);
    EXPECT_EQ(inv.invalidated, 0u) << "not invalidated: its only copy of the data would be lost";
    EXPECT_EQ(dirty_count(c), 1u);
    EXPECT_EQ(c.array().valid_count(), 1u);
    ASSERT_TRUE(hetvp::test::run_state().failed());
    EXPECT_NE(hetvp::test::run_state().failures()[0].find("0x200"), std::string::npos) << hetvp::test::run_state().failures()[0];
    m.refuse_writes = false;
    uint32_t v = 0;
    ASSERT_EQ(t.read32(0x200, v, d), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v, 0x1234u) << "the cached data survived";
    ran = true;
  });
  EXPECT_TRUE(ran);
}

TEST(CacheWriteBackFailure, EvictionWhoseWriteBackFailsFailsTheAccessAndKeepsTheLine) {
  bool ran = false;
  with_refusing_memory([&](TestInitiator& t, Cache& c, RefusingMemory& m) {
    sc_core::sc_time d;
    // 1 KiB, 2 ways, 64 B lines: 8 sets; 0x000, 0x200 and 0x400 share set 0.
    ASSERT_EQ(t.write32(0x000, 0x11, d), tlm::TLM_OK_RESPONSE);
    ASSERT_EQ(t.write32(0x200, 0x22, d), tlm::TLM_OK_RESPONSE);
    m.refuse_writes = true;
    uint32_t v = 0;
    EXPECT_EQ(t.read32(0x400, v, d), tlm::TLM_ADDRESS_ERROR_RESPONSE) << "the eviction's write-back failed";
    EXPECT_EQ(dirty_count(c), 2u) << "the victim stays dirty and valid";
    ASSERT_TRUE(hetvp::test::run_state().failed());
    EXPECT_NE(hetvp::test::run_state().failures()[0].find("0x0 "), std::string::npos) << hetvp::test::run_state().failures()[0];
    m.refuse_writes = false;
    ASSERT_EQ(t.read32(0x000, v, d), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v, 0x11u);
    ran = true;
  });
  EXPECT_TRUE(ran);
}

// ---- the cache controller: write tracking, history in chunks, confirm, probes --------------------
#include <tlm_utils/simple_target_socket.h>

#include "models/coherence/cache_controller.h"
#include "models/coherence/coherence_regs.h"

namespace {
struct FakeDirectory : sc_core::sc_module {
  tlm_utils::simple_target_socket<FakeDirectory> in{"in"};
  std::vector<uint64_t> lines;
  std::vector<uint32_t> ends;
  unsigned chunks = 0;
  explicit FakeDirectory(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    in.register_b_transport(this, &FakeDirectory::b);
  }
  void b(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
    using namespace hetvp::coherence;
    const uint64_t off = gp.get_address() - DIR_BASE;
    if (off == DIR_HIST_DATA) {
      ++chunks;
      const size_t n = gp.get_data_length() / 8, k = lines.size();
      lines.resize(k + n);
      std::memcpy(&lines[k], gp.get_data_ptr(), n * 8);
    } else if (off == DIR_HIST_END) {
      uint32_t v;
      std::memcpy(&v, gp.get_data_ptr(), 4);
      ends.push_back(v);
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// PROBE (first line, count), then PROBE_DONE: {invalidated, tag accesses, digest, probes}.
std::array<uint64_t, 4> probe_and_wait(TestInitiator& ctl, uint64_t first, uint32_t count, sc_core::sc_time& d) {
  using namespace hetvp::coherence;
  uint8_t msg[16] = {};
  std::memcpy(msg, &first, 8);
  std::memcpy(msg + 8, &count, 4);
  std::array<uint64_t, 4> done{};
  EXPECT_EQ(ctl.access(tlm::TLM_WRITE_COMMAND, CC_PROBE, msg, 16, d), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(ctl.access(tlm::TLM_READ_COMMAND, CC_PROBE_DONE, done.data(), 32, d), tlm::TLM_OK_RESPONSE);
  return done;
}

// data: `cpu` -> cc -> l1 -> mem; cc.level0 -> l1.ctl; history -> `dir`; registers <- `ctl`.
void wire_one_level(TestInitiator& cpu, hetvp::coherence::CacheController& cc, Cache& l1, Memory& mem,
                    FakeDirectory& dir, TestInitiator& ctl) {
  cpu.socket.bind(cc.in);
  cc.out.bind(l1.in);
  l1.out.bind(mem.in);
  cc.level[0]->bind(l1.ctl);
  cc.dir.bind(dir.in);
  ctl.socket.bind(cc.regs);
}
}  // namespace

// history_order: store_order (the default) sends lines in the order first written, address_order
// sorted; both send each line once.
class CacheControllerHistory : public ::testing::TestWithParam<std::string> {};
INSTANTIATE_TEST_SUITE_P(Order, CacheControllerHistory, ::testing::Values("default", "address_order"));

TEST_P(CacheControllerHistory, TracksWritesSendsHistoryInChunksAndServesProbes) {
  using namespace hetvp::coherence;
  bool ran = false;
  const bool sorted = GetParam() == "address_order";
  auto mem = std::make_unique<Memory>("mem", config_from<MemoryConfig>("size: 1 MiB\nlatency: 50 ns"));
  auto l1 =
      std::make_unique<Cache>("l1", config_from<CacheConfig>("size: 4 KiB\nways: 4\nclock: 2 GHz\ntag_cycles: 1"));
  auto cc = std::make_unique<CacheController>(
      "cc", config_from<CacheControllerConfig>(std::string("levels: 1\nchunk_lines: 2") + (sorted ? "\nhistory_order: address_order" : "")));
  auto dirm = std::make_unique<FakeDirectory>("dir");
  auto ctl = std::make_unique<TestInitiator>("ctl", [](TestInitiator&) {});
  auto cpu = std::make_unique<TestInitiator>("cpu", [&](TestInitiator& t) {
    sc_core::sc_time d;
    auto reg = [&](uint32_t off, uint32_t v) { ASSERT_EQ(ctl->write32(off, v, d), tlm::TLM_OK_RESPONSE); };
    reg(CC_TRACK, 1);
    for (uint64_t a : {0x2000ull, 0x1040ull, 0x1000ull, 0x1044ull, 0x2010ull})
      ASSERT_EQ(t.write32(a, 0x55, d), tlm::TLM_OK_RESPONSE);
    uint32_t count = 0;
    ASSERT_EQ(ctl->read32(CC_HIST_COUNT, count, d), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(count, 3u) << "each line once";
    reg(CC_TRACK, 0);
    ASSERT_EQ(t.write32(0x3000, 1, d), tlm::TLM_OK_RESPONSE);  // not tracked
    reg(CC_HIST_REQ, 1);
    if (sorted)
      EXPECT_EQ(dirm->lines, (std::vector<uint64_t>{0x1000 / 64, 0x1040 / 64, 0x2000 / 64})) << "address order";
    else
      EXPECT_EQ(dirm->lines, (std::vector<uint64_t>{0x2000 / 64, 0x1040 / 64, 0x1000 / 64})) << "first-write order";
    EXPECT_EQ(dirm->chunks, 2u) << "2 lines per chunk";
    EXPECT_EQ(dirm->ends, std::vector<uint32_t>{3});
    uint32_t v = 0;
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(0x1040);
    gp.set_data_ptr(reinterpret_cast<uint8_t*>(&v));
    gp.set_data_length(4);
    gp.set_streaming_width(4);
    mem->in.get_base_export()->transport_dbg(gp);
    EXPECT_EQ(v, 0x55u) << "release flushed the dirty line home";
    ASSERT_EQ(ctl->read32(CC_HIST_COUNT, count, d), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(count, 3u) << "kept until the directory confirms";
    reg(CC_HIST_CONFIRM, 1);
    ASSERT_EQ(ctl->read32(CC_HIST_COUNT, count, d), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(count, 0u);
    // One probe over lines 0x40..0x47: 8 tag accesses, 2 lines present (0x1000, 0x1040).
    sc_core::sc_time before = d;
    const auto done = probe_and_wait(*ctl, 0x1000 / 64, 8, d);
    EXPECT_EQ(done[0], 2u);
    EXPECT_EQ(done[1], 8u);
    EXPECT_EQ(done[3], 1u);
    EXPECT_GE(d - before, sc_core::sc_time(4, sc_core::SC_NS)) << "8 tag accesses at 2 GHz";
    ran = true;
  });
  wire_one_level(*cpu, *cc, *l1, *mem, *dirm, *ctl);
  hetvp::test::start();
  EXPECT_TRUE(ran);
}

TEST(CacheController, HistoryWhileTrackingFailsTheRun) {
  using namespace hetvp::coherence;
  auto mem = std::make_unique<Memory>("mem", config_from<MemoryConfig>("size: 1 MiB"));
  auto cc = std::make_unique<CacheController>("cc", config_from<CacheControllerConfig>("levels: 0"));
  auto dirm = std::make_unique<FakeDirectory>("dir");
  auto ctl = std::make_unique<TestInitiator>("ctl", [](TestInitiator& t) {
    sc_core::sc_time d;
    t.write32(CC_TRACK, 1, d);
    t.write32(CC_HIST_REQ, 1, d);
  });
  auto data = std::make_unique<TestInitiator>("cpu", [](TestInitiator&) {});
  data->socket.bind(cc->in);
  cc->out.bind(mem->in);
  cc->dir.bind(dirm->in);
  ctl->socket.bind(cc->regs);
  hetvp::test::start();
  ASSERT_TRUE(hetvp::test::run_state().failed());
  EXPECT_NE(hetvp::test::run_state().failures()[0].find("tracking is still on"), std::string::npos);
}

// A store records every line it touches, and only those: a 64 B store on a line boundary is one
// line, 4 B straddling a boundary are two.
TEST(CacheController, StoreRecordsExactlyTheLinesItTouches) {
  using namespace hetvp::coherence;
  bool ran = false;
  auto mem = std::make_unique<Memory>("mem", config_from<MemoryConfig>("size: 1 MiB"));
  auto cc = std::make_unique<CacheController>("cc", config_from<CacheControllerConfig>("levels: 0"));
  auto dirm = std::make_unique<FakeDirectory>("dir");
  auto ctl = std::make_unique<TestInitiator>("ctl", [](TestInitiator&) {});
  auto cpu = std::make_unique<TestInitiator>("cpu", [&](TestInitiator& t) {
    sc_core::sc_time d;
    ASSERT_EQ(ctl->write32(CC_TRACK, 1, d), tlm::TLM_OK_RESPONSE);
    uint8_t line[64] = {};
    ASSERT_EQ(t.access(tlm::TLM_WRITE_COMMAND, 0x1000, line, 64, d), tlm::TLM_OK_RESPONSE);
    uint32_t count = 0;
    ASSERT_EQ(ctl->read32(CC_HIST_COUNT, count, d), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(count, 1u) << "64 B at 0x1000 is line 0x40 only";
    ASSERT_EQ(t.access(tlm::TLM_WRITE_COMMAND, 0x207e, line, 4, d), tlm::TLM_OK_RESPONSE);
    ASSERT_EQ(ctl->read32(CC_HIST_COUNT, count, d), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(count, 3u) << "4 B at 0x207e touch lines 0x81 and 0x82";
    ran = true;
  });
  cpu->socket.bind(cc->in);
  cc->out.bind(mem->in);
  cc->dir.bind(dirm->in);
  ctl->socket.bind(cc->regs);
  hetvp::test::start();
  EXPECT_TRUE(ran);
}

// The GPU controller's caches are tagged by GPU VA; probes name physical lines. Only the part of
// a probed range inside the shared window (WIN_PA .. + WIN_SIZE) is translated and walked.
TEST(CacheController, ProbeIsClippedToTheSharedWindow) {
  using namespace hetvp::coherence;
  bool ran = false;
  auto mem = std::make_unique<Memory>("mem", config_from<MemoryConfig>("size: 1 MiB"));
  auto l1 =
      std::make_unique<Cache>("l1", config_from<CacheConfig>("size: 4 KiB\nways: 4\nclock: 1 GHz\ntag_cycles: 4"));
  auto cc = std::make_unique<CacheController>("cc", config_from<CacheControllerConfig>(""),
                                              std::vector<unsigned>{0}, hetvp::Side::Gpu);
  auto dirm = std::make_unique<FakeDirectory>("dir");
  auto ctl = std::make_unique<TestInitiator>("ctl", [](TestInitiator&) {});
  auto gpu = std::make_unique<TestInitiator>("gpu", [&](TestInitiator& t) {
    sc_core::sc_time d;
    const uint64_t va = 0x8000, pa = 0x40000;  // 64 lines of shared memory: VA 0x8000 = PA 0x40000
    auto reg = [&](uint32_t off, uint32_t v) { ASSERT_EQ(ctl->write32(off, v, d), tlm::TLM_OK_RESPONSE); };
    reg(CC_WIN_VA_LO, va);
    reg(CC_WIN_PA_LO, pa);
    reg(CC_WIN_SIZE_LO, 0x1000);
    uint32_t v;
    ASSERT_EQ(t.read32(va + 0xfc0, v, d), tlm::TLM_OK_RESPONSE);  // the window's last line, cached by VA
    // 4 lines from the window's last one: 3 lie outside.
    const auto done = probe_and_wait(*ctl, (pa + 0xfc0) / 64, 4, d);
    EXPECT_EQ(done[0], 1u) << "the line held under its VA is invalidated";
    EXPECT_EQ(done[1], 1u) << "one tag access: the three lines past the window are not walked";
    ran = true;
  });
  wire_one_level(*gpu, *cc, *l1, *mem, *dirm, *ctl);
  hetvp::test::start();
  EXPECT_TRUE(ran);
}

// ---- the coherence checker's shadow memory --------------------------------------------------------
#include "models/coherence/checker.h"

TEST(CoherenceCheckerUnit, EveryConsumedByteIsCheckedOthersAreNot) {
  using hetvp::coherence::Checker;
  Checker& c = hetvp::test::run().service<Checker>();
  c.enable();
  const uint8_t stored[4] = {1, 2, 3, 4};
  c.store(0x100, stored, 4);
  const uint8_t same[4] = {1, 2, 3, 4}, last_differs[4] = {1, 2, 3, 9};
  EXPECT_TRUE(c.load(0x100, same, 4, "t"));
  EXPECT_TRUE(c.load(0x0fe, same, 2, "t")) << "bytes never stored are not checked";
  const uint8_t only_first_three[4] = {1, 1, 1, 0};
  EXPECT_TRUE(c.load(0x100, last_differs, 4, "t", only_first_three)) << "a byte nobody uses may be stale";
  EXPECT_EQ(c.violations(), 0u);
  EXPECT_FALSE(c.load(0x100, last_differs, 4, "t")) << "the last byte is checked too";
  EXPECT_EQ(c.violations(), 1u);
  EXPECT_TRUE(hetvp::test::run_state().failed());
}

// A cache takes its arrays when the simulation starts, not when it is built (`hetvp check` builds
// and stops): its claim on host memory is known before (platform/host_memory.h, issue #43 item 3).
TEST(CacheStorage, NothingIsAllocatedUntilTheSimulationStarts) {
  Cache big("big", config_from<CacheConfig>("size: 1 GiB\nways: 16"));
  EXPECT_FALSE(big.array().allocated());
  EXPECT_EQ(big.up_front_host_bytes(), (1ull << 30) + (1ull << 30) / 64 * sizeof(CacheArray::Line));
  const std::vector<HostMemoryShare> shares = host_memory_shares({&big});
  ASSERT_EQ(shares.size(), 1u);
  EXPECT_EQ(shares[0].modules, std::vector<std::string>{"big"});
  EXPECT_EQ(shares[0].bytes, big.up_front_host_bytes());
}

TEST(CacheStorage, TheArraysAreTakenWhenTheSimulationStarts) {
  bool ran = false;
  Bench b("size: 1 KiB\nways: 2", [&](TestInitiator&, Bench& b) {
    EXPECT_TRUE(b.cache->array().allocated()) << "allocated at the start of the simulation";
    ran = true;
  });
  EXPECT_FALSE(b.cache->array().allocated());
  hetvp::test::start();
  EXPECT_TRUE(ran);
}

TEST(CacheStorage, BudgetErrorIsLocatedAtTheLargestShareAndNamesTheLargest) {
  const std::vector<HostMemoryShare> shares = {{"a.yaml:3:9 (l2.size)", {"l2"}, 3ull << 30},
                                               {"a.yaml:7:9 (gpu.tcp.size)", {"gpu.tcp0", "gpu.tcp1"}, 1ull << 29},
                                               {"a.yaml:9:9 (ram.size)", {"ram"}, 4096},
                                               {"a.yaml:11:9 (l1.size)", {"l1"}, 1024}};
  EXPECT_NO_THROW(check_host_memory_budget(shares, (3ull << 30) + (1ull << 29) + 4096 + 1024, "the default"));
  try {
    check_host_memory_budget(shares, 2ull << 30, "the default");
    FAIL() << "no error over the budget";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "a.yaml:3:9 (l2.size): the platform would allocate 3.5 GiB of host memory before simulating, more than "
              "simulation.memory_budget (2 GiB, the default); largest: 3 GiB for l2, sized by a.yaml:3:9 (l2.size); "
              "512 MiB for 2 modules (gpu.tcp0, ...), sized by a.yaml:7:9 (gpu.tcp.size); 4 KiB for ram, sized by "
              "a.yaml:9:9 (ram.size). Make them smaller, or raise simulation.memory_budget if the host has the memory");
  }
}
