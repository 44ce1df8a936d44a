// The PTX loader: what a module lists (kernels' parameter layout, shared/local bytes, registers,
// variables and constant banks, code offsets) and every load error, located and worded.
#include <gtest/gtest.h>

#include "models/gpu/compute/ptx/exec.h"
#include "tests/gpu/ptx/ptx_files.h"

namespace hetvp::gpu::ptx::test {
namespace {

const char* kHeader = ".version 3.2\n.target sm_30\n.address_size 64\n";

std::string load_error(const std::string& body, const std::string& header = kHeader) {
  try {
    load(header + body, "k.ptx");
  } catch (const LoadError& e) {
    return e.what();
  }
  return "loaded";
}

TEST(PtxLoader, KernelLayoutVariablesAndBanks) {
  Module m = load(std::string(kHeader) + R"(
.visible .global .align 4 .u32 counter = 7;
.visible .global .align 8 .b8 table[16] = {1, 2, 3, 4};
.visible .const .align 4 .b8 coef[8] = {0, 0, 128, 63, 0, 0, 0, 64};
.visible .const .align 4 .u32 hetvp_context_value;
.visible .entry k(
	.param .u64 k_param_0,
	.param .u32 k_param_1,
	.param .align 8 .b8 k_param_2[24]
)
{
	.local .align 4 .b8 __local_depot0[40];
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	.shared .align 4 .b8 tile[512];
	ld.param.u32 %r1, [k_param_1];
	mov.u64 %rd1, counter;
	ld.global.u32 %r2, [%rd1];
	add.s32 %r3, %r1, %r2;
	st.global.u32 [%rd1], %r3;
	ret;
}
)",
                  "k.ptx");
  EXPECT_EQ(m.target(), Arch::Sm30);
  EXPECT_EQ(m.ptx_version(), 32u);
  ASSERT_EQ(m.kernels().size(), 1u);
  const FunctionInfo& k = m.kernel("k");
  ASSERT_EQ(k.params.size(), 3u);
  EXPECT_EQ(k.params[0].offset, 0u);
  EXPECT_EQ(k.params[0].size, 8u);
  EXPECT_EQ(k.params[1].offset, 8u);
  EXPECT_EQ(k.params[1].size, 4u);
  EXPECT_EQ(k.params[2].offset, 16u);
  EXPECT_EQ(k.params[2].size, 24u);
  EXPECT_EQ(k.params[2].align, 8u);
  EXPECT_EQ(k.param_bytes, 40u);
  EXPECT_EQ(k.shared_bytes, 512u);
  EXPECT_EQ(k.local_bytes, 40u);
  EXPECT_GE(k.regs_per_thread, 2u);
  EXPECT_EQ(k.instr_count, 7u);  // 6 and the end of the function
  EXPECT_EQ(k.code_offset, 0u);
  ASSERT_EQ(m.variables().size(), 4u);
  EXPECT_EQ(m.variables()[0].name, "counter");
  EXPECT_EQ(m.variables()[0].space, VarSpace::Global);
  EXPECT_EQ(m.variables()[0].init, (std::vector<uint8_t>{7, 0, 0, 0}));
  EXPECT_EQ(m.variables()[1].size, 16u);
  EXPECT_EQ(m.variables()[1].align, 8u);
  EXPECT_EQ(m.variables()[2].bank, 0u);
  EXPECT_EQ(m.variables()[3].bank, 1u);
  EXPECT_EQ(m.const_bank0().size(), 8u);
  EXPECT_EQ(m.const_bank0()[2], 128);
  EXPECT_EQ(m.const_bank1_bytes(), 4u);
  std::vector<uint8_t> code = encode(m);
  EXPECT_GE(code.size(), m.instr_count() * kBytesPerInstr);
  EXPECT_EQ(code.size(), m.code_bytes());
  EXPECT_EQ(encode(m), code) << "deterministic";
}

TEST(PtxLoader, GlobalVariableAddressesComeFromTheLaunch) {
  Module m = load(std::string(kHeader) + R"(
.visible .global .align 4 .u32 counter;
.visible .const .align 4 .u32 hetvp_context_value;
.visible .entry k()
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<2>;
	mov.u64 %rd1, counter;
	ld.const.u32 %r1, [hetvp_context_value];
	atom.global.add.u32 %r2, [%rd1], %r1;
	ret;
}
)",
                  "k.ptx");
  HostEnv env;
  uint64_t v = env.upload(std::vector<uint32_t>{5});
  Launch l;
  l.module = &m;
  l.grid = {2, 1, 1};
  l.block = {8, 1, 1};
  l.variable_addresses = {v, 0};
  l.const_bank1 = {3, 0, 0, 0};
  run_grid(l, env);
  EXPECT_EQ(env.download<uint32_t>(v, 1)[0], 5u + 16 * 3);
}

TEST(PtxLoader, UnsupportedInstructionIsLocated) {
  EXPECT_EQ(load_error(".visible .entry k()\n{\n.reg .b32 %r<5>;\n.reg .b64 %rd<2>;\n"
                       "tex.2d.v4.f32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%r1, %r2}];\nret;\n}\n"),
            "k.ptx:8: unsupported instruction 'tex.2d.v4.f32.f32'");
  EXPECT_EQ(load_error(".visible .entry k()\n{\n.reg .b32 %r<5>;\nadd.cc.u32 %r1, %r2, %r3;\nret;\n}\n"),
            "k.ptx:7: unsupported instruction 'add.cc.u32'");
}

TEST(PtxLoader, DevicePrintfIsRefused) {
  EXPECT_EQ(load_error(".extern .func (.param .b32 func_retval0) vprintf\n(\n.param .b64 vprintf_param_0,\n"
                       ".param .b64 vprintf_param_1\n)\n;\n.visible .entry k()\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r<2>;\n"
                       "{\n.param .b64 param0;\nst.param.b64 [param0+0], %rd1;\n.param .b64 param1;\n"
                       "st.param.b64 [param1+0], %rd2;\n.param .b32 retval0;\n"
                       "call.uni (retval0), vprintf, (param0, param1);\nld.param.b32 %r1, [retval0+0];\n}\nret;\n}\n"),
            "k.ptx:20: call to 'vprintf', which the module does not define (device printf is not supported)");
}

TEST(PtxLoader, UnknownKernelNameListsTheKernels) {
  Module m = load(std::string(kHeader) + ".visible .entry a()\n{\nret;\n}\n.visible .entry b()\n{\nret;\n}\n", "k.ptx");
  try {
    m.kernel("c");
    ADD_FAILURE();
  } catch (const LoadError& e) {
    EXPECT_STREQ(e.what(), "k.ptx: no kernel 'c' in the module (kernels: a, b)");
  }
  EXPECT_EQ(m.find_kernel("c"), nullptr);
}

TEST(PtxLoader, MalformedModules) {
  EXPECT_EQ(load_error("", ""), "k.ptx:1: a module must start with .version and .target");
  EXPECT_EQ(load_error(".visible .entry k(\n{\n"), "k.ptx:5: expected a name, found '{'");
  EXPECT_EQ(load_error(".visible .entry k()\n{\n.reg .b32 %r<2>;\nadd.s32 %r1, %r9, 1;\nret;\n}\n"),
            "k.ptx:7: undeclared register '%r9'");
  EXPECT_EQ(load_error(".visible .entry k()\n{\nbra.uni L1;\n}\n"), "k.ptx:6: branch to an undefined label 'L1'");
  EXPECT_EQ(load_error(".visible .entry k()\n{\nret;\n"), "k.ptx:7: unexpected end of the module in 'k' (missing '}')");
  EXPECT_EQ(load_error(".visible .entry k()\n{\n.reg .b32 %r<2>;\nmov.u32 %r1, 1\nret;\n}\n"),
            "k.ptx:8: expected ';', found 'ret'");
  EXPECT_EQ(load_error("# \n"), "k.ptx:4: unexpected character '#'");
  EXPECT_EQ(load_error("", ".version 3.2\n.target sm_50\n"), "k.ptx:2: unsupported target 'sm_50' (hetvp runs sm_20, sm_30 and sm_35)");
  EXPECT_EQ(load_error(".visible .entry k()\n{\n.reg .b32 %r<2>;\nshfl.down.b32 %r1, %r1, 1, 31;\nret;\n}\n",
                       ".version 3.2\n.target sm_20\n.address_size 64\n"),
            "k.ptx:7: shfl needs sm_30 or later (the module targets sm_20)");
  EXPECT_EQ(load_error(".visible .func f()\n{\ncall.uni f, ();\nret;\n}\n.visible .entry k()\n{\ncall.uni f, ();\nret;\n}\n"),
            "k.ptx:6: recursion ('f' calls 'f', which is on its call path) is not supported");
  EXPECT_EQ(load_error(".visible .entry k()\n{\nbar.sync 1;\nret;\n}\n"),
            "k.ptx:6: only barrier 0 is supported (named barriers are not)");
}

TEST(PtxLoader, CompiledModulesLoadForEveryArch) {
  for (const char* arch : {"sm_20", "sm_30", "sm_35"}) {
    Module d = load_file(std::string("diff_kernels.") + arch + ".ptx");
    EXPECT_EQ(d.kernels().size(), 7u);
    EXPECT_EQ(d.target(), arch == std::string("sm_20") ? Arch::Sm20 : arch == std::string("sm_30") ? Arch::Sm30 : Arch::Sm35);
    // kernels' code follows each other in the encoding
    for (const auto& k : d.kernels()) EXPECT_EQ(k.code_offset % kBytesPerInstr, 0u);
    EXPECT_GE(d.functions().size(), 2u);  // mix, scale
  }
}

}  // namespace
}  // namespace hetvp::gpu::ptx::test
