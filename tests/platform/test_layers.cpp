// The layers (docs/architecture.md "The layers"): a lower layer reaches an upper one only through
// a registry the upper one fills. Here: the invalidation engines rtl/ registers, and the one
// tlm | rtl | lockstep vocabulary of the directory's engine and of user RTL blocks.
#include <gtest/gtest.h>

#include <stdexcept>

#include "models/coherence/invalidation_engine.h"
#include "platform/implementation.h"
#include "platform/registry.h"

using namespace hetvp;

TEST(Layers, InvalidationEnginesAreRegisteredByName) {
  const auto& reg = coherence::InvalidationEngineRegistry::get();
  ASSERT_NE(reg.find("tlm"), nullptr);
  EXPECT_STREQ(coherence::make_invalidation_engine("tlm", coherence::EngineParams{})->kind(), "tlm");
#if defined(HETVP_HAVE_RTL)  // rtl/ is linked (libhetvp_rtl.so): it registered its two engines
  EXPECT_EQ(reg.names(), (std::vector<std::string>{"lockstep", "rtl", "tlm"}));
#else
  EXPECT_EQ(reg.names(), (std::vector<std::string>{"tlm"}));
  try {
    coherence::make_invalidation_engine("rtl", coherence::EngineParams{});
    FAIL() << "no rtl engine in a build without Verilator";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "invalidation engine 'rtl': hetvp was built without Verilator");
  }
#endif
}

TEST(Layers, UnknownEngineNamesTheVocabulary) {
  try {
    coherence::make_invalidation_engine("fpga", coherence::EngineParams{});
    FAIL() << "fpga is no engine";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown invalidation engine kind 'fpga' (expected tlm, rtl or lockstep)");
  }
}

TEST(Layers, EngineAndRtlBlockModeShareOneVocabulary) {
  const ComponentType* dir = ComponentRegistry::get().find("coherence_directory");
  ASSERT_NE(dir, nullptr);
  const std::shared_ptr<Schema> dir_schema = dir->schema();
  const ParamSpec* engine = dir_schema->find("engine");
  ASSERT_NE(engine, nullptr);
  EXPECT_EQ(engine->choices, implementation_names());
  EXPECT_EQ(*engine->default_text, "tlm");
#if defined(HETVP_HAVE_RTL)
  const ComponentType* crc = ComponentRegistry::get().find("rtl.crc32");
  ASSERT_NE(crc, nullptr);
  const std::shared_ptr<Schema> crc_schema = crc->schema();
  const ParamSpec* mode = crc_schema->find("mode");
  ASSERT_NE(mode, nullptr);
  EXPECT_EQ(mode->choices, implementation_names());
  EXPECT_EQ(*mode->default_text, "rtl");
#endif
}
