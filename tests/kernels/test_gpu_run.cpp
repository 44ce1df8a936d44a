// gpu_run (sw/workloads/gpu_run.cpp, docs/gpu_kernels.md): a kernel of a PTX module file run with
// arguments and file buffers; every bad input a user can give is a clear, located error and nothing
// else fails. The kernels: gpu_run_kernels.cu, compiled at build time for sm_20 and sm_30.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "common/run_hetvp.h"
#include "common/text_match.h"

using namespace hetvp::test;

namespace {

std::string ptx(const std::string& arch) { return binary_dir() + "/tests/kernels/gpu_run_kernels." + arch + ".ptx"; }
using hetvp::test::count;
using hetvp::test::has;

void write_bytes(const std::string& path, const void* data, size_t n) {
  std::ofstream(path, std::ios::binary).write(static_cast<const char*>(data), std::streamsize(n));
}
template <class T>
std::vector<T> read_values(const std::string& path) {
  const std::string s = read_file(path);
  std::vector<T> v(s.size() / sizeof(T));
  std::memcpy(v.data(), s.data(), v.size() * sizeof(T));
  return v;
}

// gpu_run on the default platform (Fermi-class, sm_20) unless `config` says otherwise.
RunResult gpu_run(const std::string& args, const std::string& config_name = "default.yaml") {
  return run_hetvp("run " + config(config_name) + " --workload gpu_run " + args, 120);
}

TEST(GpuRun, SaxpyFromFilesEqualsTheHostUnderTheSameContraction) {
  const unsigned n = 300;
  std::vector<float> x(n), y(n);
  for (unsigned i = 0; i < n; ++i) {
    x[i] = 0.25f * float(i) + 1.f / 3.f;
    y[i] = 1000.f - 0.5f * float(i);
  }
  const std::string dir = scratch();
  write_bytes(dir + "/x.bin", x.data(), n * 4);
  write_bytes(dir + "/y.bin", y.data(), n * 4);
  RunResult r = gpu_run("--set workload.args.module=" + ptx("sm_20") +
                        " --set workload.args.kernel=saxpy --set workload.args.grid_x=3 --set workload.args.block_x=128"
                        " --set 'workload.args.args=\"@x, @y, 300, 1.7f\"'"
                        " --set 'workload.args.buffers=[{name: x, file: " + dir + "/x.bin}, {name: y, file: " + dir +
                        "/y.bin, output: " + dir + "/y_out.bin}]'");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "gpu_run: kernel 'saxpy' (grid 3x1, block 128x1) done in")) << r.out;
  const std::vector<float> got = read_values<float>(dir + "/y_out.bin");
  ASSERT_EQ(got.size(), n);
  for (unsigned i = 0; i < n; ++i) EXPECT_EQ(got[i], std::fma(1.7f, x[i], y[i])) << i;  // fma.rn, bit-exact
}

TEST(GpuRun, DynamicSharedMemoryComesFromTheShareKey) {
  const unsigned n = 100;
  std::vector<uint32_t> in(n);
  for (unsigned i = 0; i < n; ++i) in[i] = i * 7u + 3u;
  const std::string dir = scratch();
  write_bytes(dir + "/rin.bin", in.data(), n * 4);
  RunResult r = gpu_run("--set workload.args.module=" + ptx("sm_20") +
                        " --set workload.args.kernel=reverse --set workload.args.block_x=128 --set workload.args.shared=512"
                        " --set 'workload.args.args=\"@in, @out, 100\"'"
                        " --set 'workload.args.buffers=[{name: in, file: " + dir + "/rin.bin}, {name: out, size: 400, "
                        "output: " + dir + "/rout.bin}]'");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const std::vector<uint32_t> got = read_values<uint32_t>(dir + "/rout.bin");
  ASSERT_EQ(got.size(), n);
  for (unsigned i = 0; i < n; ++i) EXPECT_EQ(got[i], in[n - 1 - i]) << i;
}

// Before anything is simulated (exit status 2, located at the key).
TEST(GpuRun, AMissingModuleIsALocatedConfigurationError) {
  RunResult r = gpu_run("--set workload.args.module=/nonexistent/k.ptx --set workload.args.kernel=saxpy");
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_TRUE(has(r.err, "workload.args.module")) << r.err;
  EXPECT_TRUE(has(r.err, "/nonexistent/k.ptx")) << r.err;
  EXPECT_FALSE(has(r.out, "done in")) << r.out;
}

TEST(GpuRun, AnUnknownKernelNamesTheModulesKernels) {
  RunResult r = gpu_run("--set workload.args.module=" + ptx("sm_20") + " --set workload.args.kernel=saxpi");
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_TRUE(has(r.err, "workload.args.kernel")) << r.err;
  EXPECT_TRUE(has(r.err, "saxpi")) << r.err;
  EXPECT_TRUE(has(r.err, "saxpy")) << r.err;  // the kernels it has
}

TEST(GpuRun, TooFewArgumentsNameTheKernelsParameters) {
  RunResult r = gpu_run("--set workload.args.module=" + ptx("sm_20") +
                        " --set workload.args.kernel=saxpy --set 'workload.args.args=\"@x, @y, 3\"'");
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_TRUE(has(r.err, "workload.args.args")) << r.err;
  EXPECT_TRUE(has(r.err, "kernel 'saxpy' takes 4 parameters")) << r.err;
  EXPECT_TRUE(has(r.err, "args gives 3")) << r.err;
}

TEST(GpuRun, AnUnsupportedInstructionIsRefusedAtItsLine) {
  const std::string bad = write_file("tex.ptx", ".version 3.2\n.target sm_20\n.address_size 64\n\n"
                                                ".visible .entry k(.param .u64 p)\n{\n.reg .f32 %f<5>;\n.reg .b64 %rd<2>;\n"
                                                "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2}];\nret;\n}\n");
  RunResult r = gpu_run("--set workload.args.module=" + bad + " --set workload.args.kernel=k --set 'workload.args.args=\"0\"'");
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_TRUE(has(r.err, "tex.ptx:9:")) << r.err;
  EXPECT_TRUE(has(r.err, "tex")) << r.err;
}

TEST(GpuRun, AnUnknownBufferAndAFloatForAPointerAreClearErrors) {
  RunResult r = gpu_run("--set workload.args.module=" + ptx("sm_20") +
                        " --set workload.args.kernel=saxpy --set 'workload.args.args=\"@nope, @y, 3, 1.0\"'"
                        " --set 'workload.args.buffers=[{name: y, size: 64}]'");
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_TRUE(has(r.err, "gpu_run: args: argument 0 ('@nope', parameter saxpy_param_0 of 8 bytes): no buffer named "
                         "'nope'")) << r.err;
  EXPECT_EQ(count(r.err, "FAILED"), 1u) << r.err;
}

TEST(GpuRun, MoreSharedMemoryThanABlockMayUseFailsTheKernel) {
  RunResult r = gpu_run("--set workload.args.module=" + ptx("sm_20") +
                        " --set workload.args.kernel=big_shared --set 'workload.args.args=\"@o\"'"
                        " --set 'workload.args.buffers=[{name: o, size: 4096}]'");
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_TRUE(has(r.err, "kernel 'big_shared': 65536 bytes of shared memory (65536 static + 0 dynamic), a block may use "
                         "49152 (gpu.compute.shared_memory)")) << r.err;
  EXPECT_EQ(count(r.err, "FAILED"), 1u) << r.err;
}

TEST(GpuRun, MoreRegistersThanAFermiSmHasFailsTheKernel) {
  RunResult r = gpu_run("--set workload.args.module=" + ptx("sm_20") +
                        " --set workload.args.kernel=many_registers --set workload.args.block_x=1024"
                        " --set 'workload.args.args=\"@i, @o\"'"
                        " --set 'workload.args.buffers=[{name: i, size: 196608}, {name: o, size: 4096}]'");
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_TRUE(has(r.err, "kernel 'many_registers': ")) << r.err;
  EXPECT_TRUE(has(r.err, "registers per thread x 1024 threads = ")) << r.err;
  EXPECT_TRUE(has(r.err, "an SM has 32768 (sm_20)")) << r.err;
  EXPECT_EQ(count(r.err, "FAILED"), 1u) << r.err;
}

TEST(GpuRun, AModuleForANewerArchitectureIsRefused) {
  RunResult r = gpu_run("--set workload.args.module=" + ptx("sm_30") +
                        " --set workload.args.kernel=saxpy --set 'workload.args.args=\"@x, @x, 1, 1.0\"'"
                        " --set 'workload.args.buffers=[{name: x, size: 64}]'");
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_TRUE(has(r.err, "targets sm_30, the GPU's compute units run sm_20 (CMP_ARCH)")) << r.err;
  EXPECT_EQ(count(r.err, "FAILED"), 1u) << r.err;
}

}  // namespace

namespace {

// More than 64 bytes of parameters (a struct of 40 floats by value, two pointers, a count): the
// driver writes the block to a constant buffer in VRAM, the launch names it (compute.h CMP_PARAM_*).
TEST(GpuRun, ParametersBeyond64BytesTravelInAConstantBuffer) {
  const unsigned n = 200;
  std::vector<float> c(40), x(n);
  for (unsigned j = 0; j < 40; ++j) c[j] = 0.5f + 0.25f * float(j) - (j % 3 ? 0.f : 1.f / 3.f);
  for (unsigned i = 0; i < n; ++i) x[i] = 1.f / float(i + 1) - 0.125f * float(i);
  const std::string dir = scratch();
  write_bytes(dir + "/c40.bin", c.data(), 160);
  write_bytes(dir + "/x40.bin", x.data(), n * 4);
  RunResult r = gpu_run("--set workload.args.module=" + ptx("sm_20") +
                        " --set workload.args.kernel=coeffs40 --set 'workload.args.grid=[2]' --set "
                        "'workload.args.block=[128]' --set 'workload.args.args=\"file:" + dir +
                        "/c40.bin, @x, @y, 200\"' --set 'workload.args.buffers=[{name: x, file: " + dir +
                        "/x40.bin}, {name: y, size: 800, output: " + dir + "/y40.bin}]'");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "gpu_run: kernel 'coeffs40' (grid 2x1, block 128x1) done in")) << r.out;
  const std::vector<float> got = read_values<float>(dir + "/y40.bin");
  ASSERT_EQ(got.size(), n);
  for (unsigned i = 0; i < n; ++i) EXPECT_EQ(got[i], std::fma(c[i % 40], x[i], c[39 - i % 40])) << i;
}

TEST(GpuRun, ParametersBeyond4KiBAreRefusedWhenTheModuleLoads) {
  const std::string module = binary_dir() + "/tests/kernels/too_many_params.sm_20.ptx";
  RunResult r = gpu_run("--set workload.args.module=" + module +
                        " --set workload.args.kernel=too_many_params --set 'workload.args.args=\"file:x, @o\"'");
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_TRUE(has(r.err, "workload.args.module")) << r.err;
  EXPECT_TRUE(has(r.err, "too_many_params.sm_20.ptx:")) << r.err;
  EXPECT_TRUE(has(r.err, ": kernel parameters of 4160 bytes or more, more than 4096 (CUDA's limit for sm_20 to "
                         "sm_35)")) << r.err;
  EXPECT_FALSE(has(r.out, "done in")) << r.out;
}

TEST(GpuRun, AParameterFileOfTheWrongSizeIsAClearError) {
  const std::string f = write_file("c39.bin", std::string(156, '\0'));
  RunResult r = gpu_run("--set workload.args.module=" + ptx("sm_20") +
                        " --set workload.args.kernel=coeffs40 --set 'workload.args.args=\"file:" + f +
                        ", @x, @x, 1\"' --set 'workload.args.buffers=[{name: x, size: 64}]'");
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_TRUE(has(r.err, "gpu_run: args: argument 0 ('file:" + f + "', parameter coeffs40_param_0 of 160 bytes): the "
                         "file has 156 bytes, the parameter 160")) << r.err;
  EXPECT_EQ(count(r.err, "FAILED"), 1u) << r.err;
}

// A 3-D grid of 3-D blocks (two warps a block, the second partial): every thread's %tid, %ctaid,
// %ntid and %nctaid against the host's enumeration.
void expect_index3d(const std::string& config, const std::string& arch) {
  const unsigned gx = 3, gy = 2, gz = 2, bx = 4, by = 3, bz = 5, threads = bx * by * bz, n = gx * gy * gz * threads;
  const std::string out = scratch() + "/index3d." + arch + ".bin";
  RunResult r = gpu_run("--set workload.args.module=" + ptx(arch) +
                            " --set workload.args.kernel=index3d --set 'workload.args.grid=[3, 2, 2]' --set "
                            "'workload.args.block=[4, 3, 5]' --set 'workload.args.args=\"@o\"' --set "
                            "'workload.args.buffers=[{name: o, size: " + std::to_string(16 * n) + ", output: " + out +
                            "}]'",
                        config);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "gpu_run: kernel 'index3d' (grid 3x2x2, block 4x3x5) done in")) << r.out;
  const std::vector<uint32_t> got = read_values<uint32_t>(out);
  ASSERT_EQ(got.size(), 4u * n);
  size_t i = 0;
  for (unsigned z = 0; z < gz; ++z)
    for (unsigned y = 0; y < gy; ++y)
      for (unsigned x = 0; x < gx; ++x)
        for (unsigned tz = 0; tz < bz; ++tz)
          for (unsigned ty = 0; ty < by; ++ty)
            for (unsigned tx = 0; tx < bx; ++tx, i += 4) {
              EXPECT_EQ(got[i], tx | ty << 10 | tz << 20) << i;
              EXPECT_EQ(got[i + 1], x | y << 10 | z << 20) << i;
              EXPECT_EQ(got[i + 2], bx | by << 10 | bz << 20) << i;
              EXPECT_EQ(got[i + 3], gx | gy << 10 | gz << 20) << i;
            }
}
TEST(GpuRun, ThreeDimensionalGridsAndBlocksOnFermi) { expect_index3d("default.yaml", "sm_20"); }
TEST(GpuRun, ThreeDimensionalGridsAndBlocksOnKepler) { expect_index3d("gk104_nouveau.yaml", "sm_30"); }

// Dimensions no architecture runs: located configuration errors (exit status 2) before anything runs.
TEST(GpuRun, BlockDepthBeyond64IsALocatedConfigurationError) {
  RunResult r = gpu_run("--set workload.args.module=" + ptx("sm_20") +
                        " --set workload.args.kernel=index3d --set 'workload.args.block=[4, 1, 65]' --set "
                        "'workload.args.args=\"@o\"'");
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_TRUE(has(r.err, "workload.args.block")) << r.err;
  EXPECT_TRUE(has(r.err, "gpu_run: block (4,1,65): block z is at most 64")) << r.err;
}

TEST(GpuRun, MoreThan1024ThreadsABlockIsALocatedConfigurationError) {
  RunResult r = gpu_run("--set workload.args.module=" + ptx("sm_20") +
                        " --set workload.args.kernel=index3d --set 'workload.args.block=[32, 16, 4]' --set "
                        "'workload.args.args=\"@o\"'");
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_TRUE(has(r.err, "gpu_run: block (32,16,4): 2048 threads, a block has at most 1024")) << r.err;
}

TEST(GpuRun, AMalformedGridListAndBothFormsAreLocatedConfigurationErrors) {
  RunResult r = gpu_run("--set workload.args.module=" + ptx("sm_20") +
                        " --set workload.args.kernel=index3d --set 'workload.args.grid=[1, 2, 3, 4]' --set "
                        "'workload.args.args=\"@o\"'");
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_TRUE(has(r.err, "workload.args.grid")) << r.err;
  EXPECT_TRUE(has(r.err, "gpu_run: grid is [x, y, z], 1 to 3 numbers from 1")) << r.err;
  r = gpu_run("--set workload.args.module=" + ptx("sm_20") +
              " --set workload.args.kernel=index3d --set 'workload.args.grid=[2, 0]' --set 'workload.args.args=\"@o\"'");
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_TRUE(has(r.err, "gpu_run: grid is [x, y, z], 1 to 3 numbers from 1 (element 1 is 0)")) << r.err;
  r = gpu_run("--set workload.args.module=" + ptx("sm_20") +
              " --set workload.args.kernel=index3d --set 'workload.args.grid=[2]' --set workload.args.grid_x=2"
              " --set 'workload.args.args=\"@o\"'");
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_TRUE(has(r.err, "gpu_run: give grid or grid_x/grid_y, not both")) << r.err;
}

// A grid wider than Fermi's 65535 blocks is Kepler's to run (2^31 - 1): checked against the GPU's
// architecture when the run starts.
TEST(GpuRun, AGridWiderThanFermisIsRefusedOnFermi) {
  RunResult r = gpu_run("--set workload.args.module=" + ptx("sm_20") +
                        " --set workload.args.kernel=index3d --set 'workload.args.grid=[70000]' --set "
                        "'workload.args.args=\"@o\"' --set 'workload.args.buffers=[{name: o, size: 64}]'");
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_TRUE(has(r.err, "gpu_run: grid (70000,1,1): grid x is at most 65535 on sm_20")) << r.err;
  EXPECT_EQ(count(r.err, "FAILED"), 1u) << r.err;
}

// A kernel that executes trap: the run fails with the kernel, block and thread named, and nothing else.
TEST(GpuRun, ATrapNamesTheKernelBlockAndThread) {
  RunResult r = gpu_run("--set workload.args.module=" + ptx("sm_20") +
                        " --set workload.args.kernel=trap_in_block1 --set workload.args.grid_x=2"
                        " --set 'workload.args.args=\"@o\"' --set 'workload.args.buffers=[{name: o, size: 256}]'");
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_TRUE(has(r.err, "kernel 'trap_in_block1' block (1,0,0) thread (5,0,0): trap executed")) << r.err;
  EXPECT_EQ(count(r.err, "FAILED"), 1u) << r.err;
  EXPECT_FALSE(has(r.out, "done in")) << r.out;
}

}  // namespace
