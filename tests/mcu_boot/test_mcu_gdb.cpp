// The GDB remote stub, exercised over a loopback socket with the RSP protocol directly.
// Bounded everywhere: socket timeouts, a deadline on the child process (killed if it hangs).
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <thread>

#include "common/run_hetvp.h"
#include "platform/elf_image.h"

using namespace hetvp::test;

namespace {

class Child {
 public:
  explicit Child(const std::vector<std::string>& args) {
    int errp[2], outp[2];
    if (pipe(errp) != 0 || pipe(outp) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(errp[1], 2);
      dup2(outp[1], 1);
      close(errp[0]);
      close(outp[0]);
      std::vector<char*> av;
      for (auto& a : args) av.push_back(const_cast<char*>(a.c_str()));
      av.push_back(nullptr);
      execv(av[0], av.data());
      _exit(127);
    }
    close(errp[1]);
    close(outp[1]);
    err_ = errp[0];
    out_ = outp[0];
  }
  ~Child() {
    if (pid_ > 0 && !reaped_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (err_ >= 0) close(err_);
    if (out_ >= 0) close(out_);
  }
  // Reads stderr until `re` matches or the timeout passes.
  bool wait_err(const std::regex& re, std::smatch& m, int timeout_ms) {
    auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (std::chrono::steady_clock::now() < end) {
      if (std::regex_search(err_text_, m, re)) return true;
      pollfd p{err_, POLLIN, 0};
      if (poll(&p, 1, 100) > 0) {
        char b[512];
        ssize_t n = read(err_, b, sizeof b);
        if (n <= 0) break;
        err_text_.append(b, size_t(n));
      }
    }
    return std::regex_search(err_text_, m, re);
  }
  // Waits for exit (bounded); returns the status or -1 on timeout (then kills).
  int wait_exit(int timeout_ms, std::string& out) {
    auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    int st = 0;
    fcntl(out_, F_SETFL, O_NONBLOCK);
    fcntl(err_, F_SETFL, O_NONBLOCK);
    while (std::chrono::steady_clock::now() < end) {
      char b[4096];
      ssize_t n;
      while ((n = read(out_, b, sizeof b)) > 0) out.append(b, size_t(n));
      while ((n = read(err_, b, sizeof b)) > 0) err_text_.append(b, size_t(n));
      if (waitpid(pid_, &st, WNOHANG) == pid_) {
        reaped_ = true;
        while ((n = read(out_, b, sizeof b)) > 0) out.append(b, size_t(n));
        while ((n = read(err_, b, sizeof b)) > 0) err_text_.append(b, size_t(n));
        expect_no_sanitizer_report("hetvp (gdb stub session)", err_text_);
        return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return -1;
  }
  const std::string& err_text() const { return err_text_; }

 private:
  pid_t pid_ = -1;
  int err_ = -1, out_ = -1;
  bool reaped_ = false;
  std::string err_text_;
};

class Rsp {
 public:
  explicit Rsp(int port) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(uint16_t(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ok_ = connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  }
  ~Rsp() { close(fd_); }
  bool ok() const { return ok_; }
  void send_raw(const std::string& s) { (void)::send(fd_, s.data(), s.size(), MSG_NOSIGNAL); }
  std::string cmd(const std::string& c, int timeout_ms = 10000) {
    unsigned cs = 0;
    for (unsigned char ch : c) cs += ch;
    char tail[4];
    snprintf(tail, sizeof tail, "#%02x", cs & 0xff);
    send_raw("$" + c + tail);
    return reply(timeout_ms);
  }
  std::string reply(int timeout_ms = 10000) {
    auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    std::smatch m;
    static const std::regex pkt(R"(\$([^#]*)#[0-9a-f]{2})");
    while (std::chrono::steady_clock::now() < end) {
      if (std::regex_search(buf_, m, pkt)) {
        std::string r = m[1];
        buf_ = m.suffix();
        return r;
      }
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 100) > 0) {
        char b[4096];
        ssize_t n = recv(fd_, b, sizeof b, 0);
        if (n <= 0) break;
        buf_.append(b, size_t(n));
      }
    }
    return "<timeout>";
  }

 private:
  int fd_ = -1;
  bool ok_ = false;
  std::string buf_;
};

uint32_t le32(const std::string& hex8) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t(std::stoul(hex8.substr(2 * i, 2), nullptr, 16)) << (8 * i);
  return v;
}
std::string hexaddr(uint32_t a) {
  char b[16];
  snprintf(b, sizeof b, "%x", a);
  return b;
}

}  // namespace

TEST(McuGdbStub, RspSessionOnGpc1) {
  const std::string gpc = binary_dir() + "/firmware/gpc.elf";
  auto img = hetvp::ElfImage::from_file(gpc);
  auto fw_main = img.symbol("fw_main");
  ASSERT_TRUE(fw_main);
  Child c({binary_dir() + "/hetvp", "run", config("default.yaml"), "--workload", "mcu_boot", "--set",
           "gpu0.microcontrollers.gdb.target=gpc1", "--set", "gpu0.microcontrollers.gdb.accept_timeout=20"});
  std::smatch m;
  ASSERT_TRUE(c.wait_err(std::regex(R"(gdb stub for gpu0\.gpc1 listening on 127\.0\.0\.1:(\d+))"), m, 20000))
      << c.err_text();
  Rsp g(std::stoi(m[1]));
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g.cmd("qSupported:swbreak+"), "PacketSize=4000");
  EXPECT_EQ(g.cmd("?"), "S05");
  std::string regs = g.cmd("g");
  ASSERT_EQ(regs.size(), 33u * 8) << regs;
  EXPECT_EQ(le32(regs.substr(32 * 8)), img.entry());  // held at the entry
  // Code memory as uploaded: the first instruction word equals the ELF's.
  std::string mem = g.cmd("m0,4");
  ASSERT_EQ(mem.size(), 8u);
  const auto& code = img.segments()[0].data;
  EXPECT_EQ(le32(mem), uint32_t(code[0]) | uint32_t(code[1]) << 8 | uint32_t(code[2]) << 16 | uint32_t(code[3]) << 24);
  // Breakpoint at fw_main, continue, stop there.
  EXPECT_EQ(g.cmd("Z0," + hexaddr(*fw_main) + ",2"), "OK");
  EXPECT_EQ(g.cmd("c"), "S05");
  EXPECT_EQ(le32(g.cmd("p20")), *fw_main);
  EXPECT_EQ(g.cmd("z0," + hexaddr(*fw_main) + ",2"), "OK");
  // Single step moves the pc; registers are writable.
  EXPECT_EQ(g.cmd("s"), "S05");
  EXPECT_NE(le32(g.cmd("p20")), *fw_main);
  EXPECT_EQ(g.cmd("P5=78563412"), "OK");
  EXPECT_EQ(g.cmd("p5"), "78563412");
  // Data memory write/read through M/m.
  EXPECT_EQ(g.cmd("M10700,4:efbeadde"), "OK");
  EXPECT_EQ(g.cmd("m10700,4"), "efbeadde");
  EXPECT_EQ(g.cmd("m5000000,4"), "E01");  // not memory of this microcontroller
  // Kill = detach: the platform boots on and the workload passes.
  g.send_raw("$k#6b");
  std::string out;
  const int st = c.wait_exit(60000, out);
  EXPECT_EQ(st, 0) << out << c.err_text();
  EXPECT_NE(out.find("HUB + 4 GPCs booted"), std::string::npos) << out;
}

TEST(McuGdbStub, NoDebuggerMeansTheRunGoesOnAfterTheTimeout) {
  Child c({binary_dir() + "/hetvp", "run", config("default.yaml"), "--workload", "mcu_boot", "--set",
           "gpu0.microcontrollers.gdb.target=hub", "--set", "gpu0.microcontrollers.gdb.accept_timeout=0.2"});
  std::string out;
  EXPECT_EQ(c.wait_exit(60000, out), 0) << out << c.err_text();
  EXPECT_NE(c.err_text().find("no debugger connected within 0.2 s; running without it"), std::string::npos)
      << c.err_text();
}

TEST(McuGdbStub, BadTargetIsAConfigError) {
  auto r = run_hetvp("check " + config("default.yaml") + " --set gpu0.microcontrollers.gdb.target=gpc7");
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("no microcontroller 'gpc7'"), std::string::npos) << r.out << r.err;
}
