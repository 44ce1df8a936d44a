#include "models/mcu/uc/gdb_stub.h"

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

#include "firmware/include/hetvp/mcu_regs.h"
#include "models/mcu/uc/microcontroller.h"
#include "platform/payload.h"
#include "platform/format.h"

namespace hetvp::mcu {

namespace {
std::string hex32le(uint32_t v) {
  std::string b = format("%02x%02x%02x%02x", v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24);
  return b;
}
uint32_t parse_hex32le(const std::string& s, size_t pos) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t(std::stoul(s.substr(pos + 2 * i, 2), nullptr, 16)) << (8 * i);
  return v;
}
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

bool GdbStub::attach(Microcontroller&) {
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
    size_t s = rx_.find('$');
    if (s != std::string::npos) {
      size_t h = rx_.find('#', s);
      if (h != std::string::npos && h + 2 < rx_.size()) {
        out = rx_.substr(s + 1, h - s - 1);
        rx_.erase(0, h + 3);
        ::send(fd_, "+", 1, MSG_NOSIGNAL);
        return true;
      }
    } else if (rx_.find('\x03') != std::string::npos) {
      rx_.clear();
      out = "\x03";
      return true;
    } else {
      rx_.clear();
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
  unsigned cs = 0;
  for (unsigned char c : p) cs += c;
  std::string tail = format("#%02x", cs & 0xff);
  std::string pkt = "$" + p + tail;
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

void GdbStub::report_stop(Microcontroller& mcu, int signal) {
  if (fd_ < 0 || !waiting_stop_) return;
  waiting_stop_ = false;
  if (mcu.state() == MCU_STATE_HALTED) {
    std::string b = format("W%02x", mcu.core().read_gpr(10) & 0xff);
    put_packet(b);
    close_conn();  // the "process" exited: GDB expects the target to go away
    return;
  }
  std::string b = format("S%02x", signal & 0xff);
  put_packet(b);
}

void GdbStub::serve(Microcontroller& mcu) {
  CoreIf& core = mcu.core();
  std::string pkt;
  while (fd_ >= 0) {
    if (!get_packet(pkt)) {
      close_conn();
      break;
    }
    if (pkt == "\x03") continue;
    const char c = pkt.empty() ? 0 : pkt[0];
    try {
      if (c == '?') {
        put_packet(mcu.state() == MCU_STATE_TRAPPED ? "S04" : "S05");
      } else if (pkt.rfind("qSupported", 0) == 0) {
        put_packet("PacketSize=4000");
      } else if (pkt == "qAttached") {
        put_packet("1");
      } else if (pkt == "qC") {
        put_packet("QC1");
      } else if (pkt == "qfThreadInfo") {
        put_packet("m1");
      } else if (pkt == "qsThreadInfo") {
        put_packet("l");
      } else if (c == 'H') {
        put_packet("OK");
      } else if (c == 'g') {
        std::string r;
        for (unsigned i = 0; i < 32; ++i) r += hex32le(core.read_gpr(i));
        r += hex32le(core.read_pc());
        put_packet(r);
      } else if (c == 'G') {
        if (pkt.size() < 1 + 33 * 8) { put_packet("E01"); continue; }
        for (unsigned i = 1; i < 32; ++i) core.write_gpr(i, parse_hex32le(pkt, 1 + 8 * i));
        core.write_pc(parse_hex32le(pkt, 1 + 8 * 32));
        put_packet("OK");
      } else if (c == 'p') {
        unsigned n = std::stoul(pkt.substr(1), nullptr, 16);
        if (n < 32) put_packet(hex32le(core.read_gpr(n)));
        else if (n == 32) put_packet(hex32le(core.read_pc()));
        else put_packet("E01");
      } else if (c == 'P') {
        size_t eq = pkt.find('=');
        unsigned n = std::stoul(pkt.substr(1, eq - 1), nullptr, 16);
        uint32_t v = parse_hex32le(pkt, eq + 1);
        if (n < 32) { core.write_gpr(n, v); put_packet("OK"); }
        else if (n == 32) { core.write_pc(v); put_packet("OK"); }
        else put_packet("E01");
      } else if (c == 'm') {
        size_t comma = pkt.find(',');
        uint32_t addr = std::stoul(pkt.substr(1, comma - 1), nullptr, 16);
        uint32_t len = std::stoul(pkt.substr(comma + 1), nullptr, 16);
        if (len > 0x1000) len = 0x1000;
        std::vector<uint8_t> buf(len);
        if (!mcu.debug_read(addr, buf.data(), len)) { put_packet("E01"); continue; }
        std::string r;
        char h[3];
        for (uint8_t b : buf) { snprintf(h, sizeof h, "%02x", b); r += h; }
        put_packet(r);
      } else if (c == 'M') {
        size_t comma = pkt.find(','), colon = pkt.find(':');
        uint32_t addr = std::stoul(pkt.substr(1, comma - 1), nullptr, 16);
        uint32_t len = std::stoul(pkt.substr(comma + 1, colon - comma - 1), nullptr, 16);
        std::vector<uint8_t> buf(len);
        for (uint32_t i = 0; i < len; ++i) buf[i] = uint8_t(std::stoul(pkt.substr(colon + 1 + 2 * i, 2), nullptr, 16));
        put_packet(mcu.debug_write(addr, buf.data(), len) ? "OK" : "E01");
      } else if (c == 'Z' || c == 'z') {
        if (pkt.size() < 4 || pkt[1] != '0') { put_packet(""); continue; }
        size_t c2 = pkt.find(',', 3);
        uint32_t addr = std::stoul(pkt.substr(3, c2 - 3), nullptr, 16);
        if (c == 'Z') core.set_breakpoint(addr);
        else core.clear_breakpoint(addr);
        put_packet("OK");
      } else if (c == 's') {
        if (pkt.size() > 1) core.write_pc(std::stoul(pkt.substr(1), nullptr, 16));
        waiting_stop_ = true;
        tlm::tlm_generic_payload gp;  // step through the model's control path (counts, trap recording)
        uint32_t v = MCU_CTRL_STEP;
        set_access(gp, tlm::TLM_WRITE_COMMAND, MCU_UC_CTRL, &v, 4);
        if (mcu.state() == MCU_STATE_STOPPED) mcu.host_access(gp);
        report_stop(mcu, mcu.state() == MCU_STATE_TRAPPED ? 4 : 5);
      } else if (c == 'c') {
        if (pkt.size() > 1) core.write_pc(std::stoul(pkt.substr(1), nullptr, 16));
        waiting_stop_ = true;
        if (mcu.state() != MCU_STATE_STOPPED) { report_stop(mcu, 4); continue; }
        resume(mcu);
        return;
      } else if (c == 'k' || c == 'D') {
        if (c == 'D') put_packet("OK");
        core.clear_breakpoints();
        close_conn();
        break;
      } else {
        put_packet("");
      }
    } catch (const std::exception&) {
      put_packet("E02");
    }
  }
  // Detached: let a held core run on.
  if (mcu.state() == MCU_STATE_STOPPED) resume(mcu);
}

// Continues a stopped core the way the host would: UC_CTRL = CONT through the register block.
void GdbStub::resume(Microcontroller& mcu) {
  uint32_t v = MCU_CTRL_CONT;
  tlm::tlm_generic_payload gp;
  set_access(gp, tlm::TLM_WRITE_COMMAND, MCU_UC_CTRL, &v, 4);
  mcu.host_access(gp);
}

}  // namespace hetvp::mcu
