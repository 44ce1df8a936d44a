// RegisterBank's indexed registers (an access carries an index besides its offset, as a Falcon
// core's I/O address does), peek (a read without side effects or errors) and remove (a table
// register this instance does not have). No simulation time: accesses are served as issued.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/warnings.h"
#include "platform/payload.h"
#include "platform/register_bank.h"

using namespace hetvp;
using hetvp::test::Warnings;

namespace {

struct Access {
  tlm::tlm_response_status status;
  uint32_t value;
};

Access access(RegisterBank& bank, tlm::tlm_command cmd, uint32_t off, uint32_t v = 0, unsigned index = 0) {
  tlm::tlm_generic_payload gp;
  set_access(gp, cmd, off, &v, 4);
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  bank.transport(gp, d, ReadTiming::AsIssued, index);
  return {gp.get_response_status(), v};
}

// PLAIN at 0x0, SLOTS at 0x4 (4 indices, one value each), WO at 0x8.
struct IndexedBank {
  RegisterBank bank{"tb"};
  std::vector<uint32_t> slots = std::vector<uint32_t>(4);
  std::vector<unsigned> write_index;
  IndexedBank() {
    bank.add("PLAIN", 0x0, RegAccess::RW);
    bank.add("SLOTS", 0x4, RegAccess::RW)
        .indexed(4)
        .read([this](const Register&) { return slots[bank.context().index]; })
        .write([this](Register&, uint32_t v) {
          write_index.push_back(bank.context().index);
          slots[bank.context().index] = v;
        });
    bank.add("WO", 0x8, RegAccess::WO);
  }
};

}  // namespace

TEST(RegisterBank, IndexedRegisterCallbacksSeeTheAccessIndex) {
  IndexedBank b;
  EXPECT_EQ(access(b.bank, tlm::TLM_WRITE_COMMAND, 0x4, 0x11, 1).status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(access(b.bank, tlm::TLM_WRITE_COMMAND, 0x4, 0x33, 3).status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(b.write_index, (std::vector<unsigned>{1, 3}));
  EXPECT_EQ(b.slots, (std::vector<uint32_t>{0, 0x11, 0, 0x33}));
  EXPECT_EQ(access(b.bank, tlm::TLM_READ_COMMAND, 0x4, 0, 3).value, 0x33u);
  EXPECT_EQ(access(b.bank, tlm::TLM_READ_COMMAND, 0x4, 0, 0).value, 0u);
  EXPECT_EQ(b.bank.errors(), 0u);
}

TEST(RegisterBank, IndexOutOfRangeIsRefusedWithTheRegisterNamed) {
  IndexedBank b;
  Warnings w;
  EXPECT_EQ(access(b.bank, tlm::TLM_WRITE_COMMAND, 0x4, 0x55, 4).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  ASSERT_EQ(w.messages().size(), 1u);
  EXPECT_EQ(w.messages()[0], "tb: index 4 of indexed register SLOTS (0..3) (offset 0x4, 4 bytes, by unknown initiator)");
  EXPECT_EQ(access(b.bank, tlm::TLM_READ_COMMAND, 0x4, 0, 63).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_TRUE(b.write_index.empty()) << "a refused write runs no callback";
  EXPECT_EQ(b.bank.errors(), 2u);
}

TEST(RegisterBank, PlainRegisterIgnoresTheIndex) {
  IndexedBank b;
  EXPECT_EQ(access(b.bank, tlm::TLM_WRITE_COMMAND, 0x0, 0x77, 9).status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(access(b.bank, tlm::TLM_READ_COMMAND, 0x0, 0, 5).value, 0x77u);
  EXPECT_EQ(b.bank.errors(), 0u);
}

TEST(RegisterBank, PeekReadsWithTheIndexAndRefusesHolesWriteOnlyAndRangeQuietly) {
  IndexedBank b;
  Warnings w;
  b.slots[2] = 0x22;
  b.bank.named("PLAIN").value = 0x5;
  uint32_t v = 0;
  EXPECT_TRUE(b.bank.peek(0x4, v, 2));
  EXPECT_EQ(v, 0x22u);
  EXPECT_TRUE(b.bank.peek(0x0, v, 7));
  EXPECT_EQ(v, 0x5u);
  v = 0xdead;
  EXPECT_FALSE(b.bank.peek(0x4, v, 4)) << "index out of range";
  EXPECT_FALSE(b.bank.peek(0x8, v)) << "write-only";
  EXPECT_FALSE(b.bank.peek(0xc, v)) << "hole";
  EXPECT_EQ(v, 0xdeadu) << "a refused peek leaves the value alone";
  EXPECT_EQ(b.bank.errors(), 0u) << "a peek is no access: no error counted";
  EXPECT_TRUE(w.messages().empty());
}

TEST(RegisterBank, RemovedRegisterIsAHole) {
  IndexedBank b;
  Warnings w;
  b.bank.remove("PLAIN");
  EXPECT_FALSE(b.bank.has(0x0));
  EXPECT_EQ(access(b.bank, tlm::TLM_READ_COMMAND, 0x0).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(b.bank.errors(), 1u);
  EXPECT_THROW(b.bank.named("PLAIN"), std::logic_error);
  EXPECT_THROW(b.bank.remove("NOPE"), std::logic_error) << "removing a name the table lacks is a model bug";
}
