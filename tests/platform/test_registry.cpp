// The one registry template: every kind of entry (component types, programs, GPU blocks) is a
// Registry<Entry>, filled by HETVP_REGISTER_ENTRY. (GPU kernels are PTX modules, not registered.)
#include <gtest/gtest.h>

#include "models/gpu/gpu_block.h"
#include "platform/program.h"
#include "platform/registry.h"

using namespace hetvp;

namespace {
struct Fruit {
  static constexpr const char* kKind = "fruit";
  std::string name;
  int weight = 0;
};
HETVP_REGISTER_ENTRY(Fruit, "pear", 3);
HETVP_REGISTER_ENTRY(Fruit, "apple", 2);
HETVP_REGISTER_ENTRY(Fruit, "fig", 1);  // two on one line
}  // namespace

TEST(Registry, EntriesInNameOrderAndFound) {
  EXPECT_EQ(Registry<Fruit>::get().names(), (std::vector<std::string>{"apple", "fig", "pear"}));
  ASSERT_NE(Registry<Fruit>::get().find("pear"), nullptr);
  EXPECT_EQ(Registry<Fruit>::get().find("pear")->weight, 3);
  EXPECT_EQ(Registry<Fruit>::get().find("plum"), nullptr);
}

TEST(Registry, TwiceIsALogicErrorNamingTheKind) {
  try {
    Registry<Fruit>::get().add(Fruit{"fig", 9});
    FAIL() << "no error";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "hetvp: fruit 'fig' is already registered (built in)");
  }
}

// The three registries of the platform are instances of the template and are filled.
TEST(Registry, PlatformRegistriesAreFilled) {
  EXPECT_NE(ComponentRegistry::get().find("gpu"), nullptr);
  EXPECT_NE(ProgramRegistry::get().find("transfer"), nullptr);
  EXPECT_NE(gpu::GpuBlockRegistry::get().find("microcontrollers"), nullptr);
  EXPECT_NE(gpu::GpuBlockRegistry::get().find("compute"), nullptr);
}
