#include "models/mcu/gdb_stub.h"

#include "models/mcu/gdb_protocol.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <iostream>
#include <vector>

#include <systemc>

#include "models/mcu/core_host.h"
#include "platform/format.h"

namespace hetvp::mcu {

namespace {
// The debugger's view of a microcontroller: its core and its host's debug memory path.
class HostTarget : public gdb::Target {
 public:
  explicit HostTarget(CoreHost& host) : mcu_(host), core_(host.core()) {}
  uint32_t read_gpr(unsigned i) override { return core_.read_gpr(i); }
  void write_gpr(unsigned i, uint32_t v) override { core_.write_gpr(i, v); }
  uint32_t read_pc() override { return core_.read_pc(); }
  void write_pc(uint32_t pc) override { core_.write_pc(pc); }
  bool read_mem(uint32_t a, uint8_t* d, uint32_t n) override { return mcu_.debug_read(a, d, n); }
  bool write_mem(uint32_t a, const uint8_t* s, uint32_t n) override { return mcu_.debug_write(a, s, n); }
  void set_breakpoint(uint32_t a) override { core_.set_breakpoint(a); }
  void clear_breakpoint(uint32_t a) override { core_.clear_breakpoint(a); }
  bool trapped() override { return mcu_.mode() == RunMode::trapped; }

 private:
  CoreHost& mcu_;
  CoreIf& core_;
};
}  // namespace

GdbStub::GdbStub(const std::string& target, int port, double accept_timeout_s, double idle_timeout_s)
    : target_(target), accept_timeout_(accept_timeout_s), idle_timeout_(idle_timeout_s) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (listen_fd_ < 0) throw std::runtime_error("gdb stub: socket() failed: " + std::string(strerror(errno)));
  int one = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) < 0 || ::listen(listen_fd_, 1) < 0) {
    std::string e = strerror(errno);
    ::close(listen_fd_);
    throw std::runtime_error("gdb stub: cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + e);
  }
  socklen_t len = sizeof a;
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&a), &len);
  port_ = ntohs(a.sin_port);
  std::cerr << "hetvp: gdb stub for " << target_ << " listening on 127.0.0.1:" << port_ << std::endl;
}

GdbStub::~GdbStub() {
  close_conn();
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

void GdbStub::close_conn() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  waiting_stop_ = false;
  rx_.clear();
}

bool GdbStub::attach(CoreHost&) {
  tried_attach_ = true;
  pollfd p{listen_fd_, POLLIN, 0};
  int r = ::poll(&p, 1, static_cast<int>(accept_timeout_ * 1000));
  if (r <= 0) {
    std::cerr << "hetvp: gdb stub for " << target_ << ": no debugger connected within " << accept_timeout_
              << " s; running without it" << std::endl;
    return false;
  }
  fd_ = ::accept(listen_fd_, nullptr, nullptr);
  if (fd_ < 0) return false;
  int one = 1;
  setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  std::cerr << "hetvp: gdb stub for " << target_ << ": debugger connected, core held at its entry" << std::endl;
  return true;
}

bool GdbStub::get_packet(std::string& out) {
  for (;;) {
    // Parse what we have: skip acks and stray bytes up to '$'.
    bool ack = false;
    if (gdb::extract_packet(rx_, out, ack)) {
      if (ack) ::send(fd_, "+", 1, MSG_NOSIGNAL);
      return true;
    }
    pollfd p{fd_, POLLIN, 0};
    int r = ::poll(&p, 1, static_cast<int>(idle_timeout_ * 1000));
    if (r <= 0) {
      std::cerr << "hetvp: gdb stub for " << target_ << ": debugger silent for " << idle_timeout_ << " s; detaching"
                << std::endl;
      return false;
    }
    char buf[4096];
    ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n <= 0) return false;
    rx_.append(buf, static_cast<size_t>(n));
  }
}

void GdbStub::put_packet(const std::string& p) {
  const std::string pkt = gdb::frame(p);
  ::send(fd_, pkt.data(), pkt.size(), MSG_NOSIGNAL);
}

bool GdbStub::poll_break() {
  if (fd_ < 0) return false;
  char c;
  ssize_t n = ::recv(fd_, &c, 1, MSG_DONTWAIT);
  if (n == 1 && c == '\x03') return true;
  if (n == 1) rx_.push_back(c);
  if (n == 0) close_conn();
  return false;
}

void GdbStub::report_stop(CoreHost& mcu, int signal) {
  if (fd_ < 0 || !waiting_stop_) return;
  waiting_stop_ = false;
  if (mcu.mode() == RunMode::halted) {
    std::string b = format("W%02x", mcu.core().read_gpr(10) & 0xff);
    put_packet(b);
    close_conn();  // the "process" exited: GDB expects the target to go away
    return;
  }
  std::string b = format("S%02x", signal & 0xff);
  put_packet(b);
}

void GdbStub::serve(CoreHost& mcu) {
  CoreIf& core = mcu.core();
  HostTarget target(mcu);
  std::string pkt;
  while (fd_ >= 0) {
    if (!get_packet(pkt)) {
      close_conn();
      break;
    }
    if (pkt == "\x03") continue;
    const gdb::Outcome o = gdb::handle_packet(pkt, target);
    if (o.send) put_packet(o.reply);
    if (o.set_pc) core.write_pc(o.pc);
    if (o.action == gdb::Outcome::step) {
      waiting_stop_ = true;
      mcu.step_once();  // the host's step (counts, trap recording), as UC_CTRL STEP does
      report_stop(mcu, mcu.mode() == RunMode::trapped ? 4 : 5);
    } else if (o.action == gdb::Outcome::cont) {
      waiting_stop_ = true;
      if (mcu.mode() != RunMode::stopped) {
        report_stop(mcu, 4);
        continue;
      }
      resume(mcu);
      return;
    } else if (o.action == gdb::Outcome::kill || o.action == gdb::Outcome::detach) {
      core.clear_breakpoints();
      close_conn();
      break;
    }
  }
  // Detached: let a held core run on.
  if (mcu.mode() == RunMode::stopped) resume(mcu);
}

// Continues a stopped core the way the host's control register does (UC_CTRL CONT), now.
void GdbStub::resume(CoreHost& mcu) { mcu.resume_run(sc_core::SC_ZERO_TIME); }

}  // namespace hetvp::mcu
