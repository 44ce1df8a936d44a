// Configuration errors: every bad input names file:line:column and the YAML path, before any
// simulation. (The exit status 2 of `hetvp` for these is checked in tests/integration.)
#include <gtest/gtest.h>

#include <climits>

#include "platform/builder.h"
#include "platform/config.h"
#include "platform/registry.h"

using namespace hetvp;

namespace {

// A small valid platform: CPU, bus, memory. Tests break one thing at a time.
const char* kValid = R"(simulation:
  seed: 7
workload:
  name: boot
cpu:
  type: host_cpu
  connect: {mem: bus}
bus:
  type: router
  map:
    - {to: ram, base: 0x0, size: 64 MiB}
ram:
  type: memory
  size: 64 MiB
)";

std::string error_of(const std::string& yaml, const std::vector<std::string>& overrides = {}, bool build = false) {
  try {
    Config c = Config::load_string(yaml, "test.yaml");
    for (auto& o : overrides) c.apply_override(o);
    c.validate();
    if (build) {
      RunContext run;
      Builder b(c, run);
      b.build();
    }
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  auto p = s.find(from);
  EXPECT_NE(p, std::string::npos) << from;
  return s.replace(p, from.size(), to);
}

}  // namespace

TEST(Config, ValidConfigPasses) { EXPECT_EQ(error_of(kValid), ""); }

TEST(Config, UnknownKeySuggestsNearest) {
  std::string e = error_of(replace(kValid, "  size: 64 MiB\n", "  size: 64 MiB\n  latncy: 5 ns\n"));
  EXPECT_NE(e.find("test.yaml:15:3"), std::string::npos) << e;
  EXPECT_NE(e.find("ram.latncy"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'latency'"), std::string::npos) << e;
}

TEST(Config, WrongTypeNamesTheValue) {
  std::string e = error_of(replace(kValid, "  size: 64 MiB\n", "  size: lots\n"));
  EXPECT_NE(e.find("test.yaml:14:9"), std::string::npos) << e;
  EXPECT_NE(e.find("ram.size"), std::string::npos) << e;
  EXPECT_NE(e.find("'lots' is not a number"), std::string::npos) << e;
}

TEST(Config, ValueOutOfRange) {
  std::string e = error_of(replace(kValid, "  connect: {mem: bus}\n", "  connect: {mem: bus}\n  mmio_width: 16\n"));
  EXPECT_NE(e.find("cpu.mmio_width"), std::string::npos) << e;
  EXPECT_NE(e.find("out of range [1, 8]"), std::string::npos) << e;
}

TEST(Config, ValuesBelowTheMinimumAreOutOfRange) {
  std::string width = error_of(replace(kValid, "  connect: {mem: bus}\n", "  connect: {mem: bus}\n  mmio_width: 0\n"));
  EXPECT_NE(width.find("cpu.mmio_width"), std::string::npos) << width;
  EXPECT_NE(width.find("out of range [1, 8]"), std::string::npos) << width;
  std::string size = error_of(replace(kValid, "  size: 64 MiB\n", "  size: 0\n"));  // a size of nothing
  EXPECT_NE(size.find("ram.size"), std::string::npos) << size;
  EXPECT_NE(size.find("out of range [1, 1.09951e+12]"), std::string::npos) << size;  // 1 TiB at most
  std::string repeat = error_of(replace(kValid, "size: 64 MiB}", "size: 64 MiB, repeat: 0}"));
  EXPECT_NE(repeat.find("repeat"), std::string::npos) << repeat;
  EXPECT_NE(repeat.find("out of range [1, 4096]"), std::string::npos) << repeat;
}

TEST(Config, MissingRequiredValue) {
  std::string e = error_of(replace(kValid, "  size: 64 MiB\n", ""));
  EXPECT_NE(e.find("test.yaml:13:3"), std::string::npos) << e;
  EXPECT_NE(e.find("missing required key 'size'"), std::string::npos) << e;
}

TEST(Config, DuplicateInstanceName) {
  std::string e = error_of(std::string(kValid) + "ram:\n  type: memory\n  size: 1 MiB\n");
  EXPECT_NE(e.find("test.yaml:15:1"), std::string::npos) << e;
  EXPECT_NE(e.find("duplicate key 'ram'"), std::string::npos) << e;
}

TEST(Config, UnknownTypeSuggestsNearest) {
  std::string e = error_of(replace(kValid, "type: memory", "type: memroy"));
  EXPECT_NE(e.find("ram.type"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'memory'"), std::string::npos) << e;
}

TEST(Config, YamlSyntaxErrorHasLineAndColumn) {
  std::string e = error_of("cpu:\n  type: [host_cpu\n");
  EXPECT_NE(e.find("test.yaml:"), std::string::npos) << e;
  EXPECT_NE(e.find("YAML syntax error"), std::string::npos) << e;
}

TEST(Config, EnumValueChecked) {
  std::string e = error_of(std::string(kValid) + "link:\n  type: pcie_link\n  lanes: 12\n");
  EXPECT_NE(e.find("link.lanes"), std::string::npos) << e;
  EXPECT_NE(e.find("'12' is not one of: 1, 2, 4, 8, 16, 32"), std::string::npos) << e;
}

// A choice of numbers is an integer with allowed values: any spelling of an allowed number is
// accepted, a word is not a number, and the component reads it as an integer.
TEST(Config, IntegerWithAllowedValues) {
  EXPECT_EQ(error_of(std::string(kValid) + "link:\n  type: pcie_link\n  lanes: 0x8\n"), "");
  std::string e = error_of(std::string(kValid) + "link:\n  type: pcie_link\n  lanes: eight\n");
  EXPECT_NE(e.find("link.lanes"), std::string::npos) << e;
  EXPECT_NE(e.find("expected a integer"), std::string::npos) << e;
  const std::shared_ptr<Schema> link = ComponentRegistry::get().find("pcie_link")->schema();
  const ParamSpec* lanes = link->find("lanes");
  ASSERT_NE(lanes, nullptr);
  EXPECT_EQ(lanes->kind, ParamKind::Int);
  EXPECT_EQ(lanes->choices, (std::vector<std::string>{"1", "2", "4", "8", "16", "32"}));
}

TEST(Config, OverrideChangesAValue) {
  Config c = Config::load_string(kValid, "test.yaml");
  c.apply_override("ram.size=128 MiB");
  c.apply_override("simulation.seed=9");
  EXPECT_EQ(c.root["ram"]["size"].Scalar(), "128 MiB");
  EXPECT_EQ(c.simulation().seed(), 9u);
}

TEST(Config, OverrideAddressesAListEntryByIndex) {  // #42: --set host_bus.map[0].size
  Config c = Config::load_string(kValid, "test.yaml");
  c.apply_override("bus.map[0].size=32 MiB");
  EXPECT_EQ(c.root["bus"]["map"][0]["size"].Scalar(), "32 MiB");
  EXPECT_EQ(c.root["bus"]["map"][0]["to"].Scalar(), "ram");  // the entry's other keys stay
  c.apply_override("bus.map[0]={to: ram, base: 0x0, size: 16 MiB}");
  EXPECT_EQ(c.root["bus"]["map"][0]["size"].Scalar(), "16 MiB");
  EXPECT_EQ(error_of(kValid, {"bus.map[0].size=32 MiB"}), "");
  // A wrong index, a non-list, a malformed index: each named.
  std::string e = error_of(kValid, {"bus.map[3].size=1 MiB"});
  EXPECT_NE(e.find("--set bus.map[3].size=1 MiB: 'bus.map' has 1 entries (0..0)"), std::string::npos) << e;
  e = error_of(kValid, {"ram[0]=1"});
  EXPECT_NE(e.find("'ram' is not a list"), std::string::npos) << e;
  e = error_of(kValid, {"bus.map[x].size=1"});
  EXPECT_NE(e.find("a list index is written [N], N a number"), std::string::npos) << e;
  // A value given through an index is located on the command line.
  e = error_of(kValid, {"bus.map[0].size=huge"});
  EXPECT_NE(e.find("(--set bus.map[0].size)"), std::string::npos) << e;
}

TEST(Config, OverrideOfUnknownInstanceSuggests) {
  std::string e = error_of(kValid, {"rma.size=1 MiB"});
  EXPECT_NE(e.find("no instance or section named 'rma'"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'ram'"), std::string::npos) << e;
  EXPECT_NE(error_of(kValid, {"no-equals-sign"}).find("expected PATH=VALUE"), std::string::npos);
}

TEST(Config, OverriddenBadValueIsReportedAsFromTheCommandLine) {
  std::string e = error_of(kValid, {"ram.size=huge"});
  EXPECT_NE(e.find("--set"), std::string::npos) << e;
  EXPECT_NE(e.find("ram.size"), std::string::npos) << e;
}

TEST(Config, UnknownWorkload) {
  std::string e = error_of(replace(kValid, "name: boot", "name: bot"));
  EXPECT_NE(e.find("unknown workload 'bot'"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'boot'"), std::string::npos) << e;
}

TEST(Config, WorkloadArgumentsValidatedAgainstTheProgram) {
  std::string e = error_of(replace(kValid, "name: boot", "name: transfer\n  args: {max_sise: 1 MiB}"));
  EXPECT_NE(e.find("workload.args.max_sise"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'max_size'"), std::string::npos) << e;
}

// Found by tests/integration/test_fuzz_inputs.cpp: inputs that used to give an unclear message,
// none, or a configuration error only once the simulation ran.
TEST(Config, NonFiniteAndHugeValuesAreRefusedNamingThem) {
  std::string nan = error_of(replace(kValid, "  size: 64 MiB\n", "  size: 64 MiB\n  bandwidth: nan\n"));
  EXPECT_NE(nan.find("test.yaml:15:14: ram.bandwidth"), std::string::npos) << nan;
  EXPECT_NE(nan.find("'nan' is not a finite number"), std::string::npos) << nan;      // was "stoll"
  std::string big = error_of(replace(kValid, "  size: 64 MiB\n", "  size: 1e19\n"));  // was std::bad_alloc
  EXPECT_NE(big.find("ram.size: value 1e19 is out of range"), std::string::npos) << big;
  std::string slow = error_of(replace(kValid, "  size: 64 MiB\n", "  size: 64 MiB\n  latency: 1e30 s\n"));
  EXPECT_NE(slow.find("time '1e30 s' is too large"), std::string::npos) << slow;  // was accepted (overflow)
}

TEST(Config, TextAfterADedentIsNotDropped) {
  // yaml-cpp ends the document at a line indented less than the first key: the rest is a second
  // document, which used to be ignored silently.
  std::string e = error_of(" " + std::string(kValid));
  EXPECT_NE(e.find("test.yaml:3:1: a second YAML document starts here"), std::string::npos) << e;
  EXPECT_NE(error_of(std::string(kValid) + "---\nextra: {type: memory, size: 1 MiB}\n").find("test.yaml:16:1"),
            std::string::npos);
}

TEST(Config, EmptyInstanceName) {
  std::string e = error_of(std::string(kValid) + "'': {type: memory, size: 1 MiB}\n");
  EXPECT_NE(e.find("test.yaml:15:1: an instance needs a name"), std::string::npos) << e;
  EXPECT_EQ(e.find("did you mean"), std::string::npos) << e;
}

TEST(Config, ProgramArgumentListsAreCheckedBeforeTheSimulation) {
  std::string e = error_of(replace(kValid, "name: boot", "name: transfer\n  args: {directions: \"htod,sideways\"}"));
  EXPECT_NE(e.find("test.yaml:5:22 (workload.args.directions): transfer: unknown direction 'sideways'"),
            std::string::npos)
      << e;
  std::string set = error_of(replace(kValid, "name: boot", "name: transfer"), {"workload.args.methods=dma,dam"});
  EXPECT_NE(set.find("test.yaml (--set workload.args.methods): transfer: unknown method 'dam'"), std::string::npos)
      << set;
}

TEST(Config, OverrideCreatesAnAbsentReservedSection) {
  std::string no_sim = replace(kValid, "simulation:\n  seed: 7\n", "");
  EXPECT_EQ(error_of(no_sim, {"simulation.time_limit=1 ms"}), "");
}

// Found by fuzzing (tests/fuzz/fuzz_yaml.cpp): yaml-cpp 0.7's LoadAll never returned (and grew
// without bound) for a document starting with a stray ','. Now a syntax error naming the place.
TEST(Config, StrayCommaWhereADocumentStartsIsASyntaxErrorNotAHang) {
  for (const char* text : {",\n", ", a\n", "# comment\n,# more\nb: 1\n", "a: 1\n---\n,\n"}) {
    try {
      hetvp::Config::load_string(text, "c.yaml");
      FAIL() << "no error for '" << text << "'";
    } catch (const hetvp::ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("c.yaml:"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("YAML syntax error"), std::string::npos) << e.what();
    }
  }
}

// A location comes from the configuration the node belongs to (Config::source), not from the
// file loaded last: two configurations read side by side each name their own file and --set paths.
TEST(Config, LocationsComeFromTheConfigurationBeingRead) {
  Config a = Config::load_string(kValid, "a.yaml");
  a.apply_override("simulation.seed=9");
  a.validate();
  Config b = Config::load_string(replace(kValid, "  size: 64 MiB\n", "  size: 64 MiB\n  bogus: 1\n"), "b.yaml");
  EXPECT_EQ(a.simulation().seed.where(), "a.yaml (--set simulation.seed)");
  EXPECT_EQ(a.workload().name.where(), "a.yaml:4:9 (workload.name)");
  try {
    b.validate();
    FAIL() << "b.yaml has an unknown key";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("b.yaml:", 0), 0u) << e.what();
  }
  EXPECT_EQ(a.simulation().seed.where(), "a.yaml (--set simulation.seed)") << "reading b changed nothing of a";
  EXPECT_EQ(a.workload().name.where(), "a.yaml:4:9 (workload.name)");
}

// The location at the start of a configuration error, split for the Python package's ConfigError.
TEST(ConfigDiagnose, SplitsEveryLocationForm) {
  auto d = hetvp::diagnose("configs/x.yaml:12:5: gpu0.gpcz: unknown key 'gpcz'");
  EXPECT_EQ(d.file, "configs/x.yaml");
  EXPECT_EQ(d.line, 12);
  EXPECT_EQ(d.col, 5);
  EXPECT_EQ(d.message, "configs/x.yaml:12:5: gpu0.gpcz: unknown key 'gpcz'");
  d = hetvp::diagnose("configs/x.yaml (--set pcie0.lanes): pcie0.lanes: '3' is not one of: 1, 2, 4, 8, 16");
  EXPECT_EQ(d.file, "configs/x.yaml");
  EXPECT_EQ(d.line, 0);
  d = hetvp::diagnose("/tmp/nope.yaml: cannot open the file");
  EXPECT_EQ(d.file, "/tmp/nope.yaml");
  EXPECT_EQ(d.line, 0);
  d = hetvp::diagnose("a:b:99999999999999999999:1: huge");  // clamped, never an exception
  EXPECT_EQ(d.file, "a:b");
  EXPECT_EQ(d.line, INT_MAX);
  EXPECT_EQ(d.col, 1);
  d = hetvp::diagnose("no location at all");
  EXPECT_EQ(d.file, "");
  EXPECT_EQ(d.line, 0);
  // Several errors at once: what() has one "error: " line each after the first; messages() each.
  const hetvp::ConfigError e(std::vector<std::string>{"f:1:1: a", "f:2:1: b"});
  EXPECT_STREQ(e.what(), "f:1:1: a\nerror: f:2:1: b");
  EXPECT_EQ(e.messages().size(), 2u);
  EXPECT_EQ(hetvp::ConfigError("one").messages(), std::vector<std::string>{"one"});
}
