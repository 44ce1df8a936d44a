// hetvp — GDB remote serial protocol stub for one microcontroller core host (like a JTAG port on the
// chip); CoreHost::attach_gdb takes it for a core with a GDB register layout.
// Listens on 127.0.0.1:port (0 = any free port, printed on stderr). When the target is started
// (UC_CTRL = START) the stub waits up to `accept_timeout` seconds of wall time for GDB to connect
// and holds the core at its entry; while the debugger holds the core the whole simulation waits.
// Packets: ?, g, G, p, P, m, M, c, s, Z0/z0, k, D, qSupported, qAttached, H, qC, q*ThreadInfo.
// Register numbers: GdbLayout::riscv32 (x0..x31 = 0..31, pc = 32). docs/mcu.md "GDB stub".
#pragma once

#include <string>

namespace hetvp::mcu {

class CoreHost;

class GdbStub {
 public:
  GdbStub(const std::string& target, int port, double accept_timeout_s, double idle_timeout_s);
  ~GdbStub();
  int port() const { return port_; }
  bool want_attach_on_start() const { return !tried_attach_; }
  bool attach(CoreHost& host);  // waits for a connection; true = connected (core held)
  bool connected() const { return fd_ >= 0; }
  void serve(CoreHost& host);                    // process packets until continue/step-off/detach
  bool poll_break();                                   // Ctrl-C arrived while running?
  void report_stop(CoreHost& host, int signal);  // the core stopped while GDB waited for it

 private:
  void resume(CoreHost& host);
  bool get_packet(std::string& out);
  void put_packet(const std::string& p);
  void close_conn();
  std::string target_;
  int listen_fd_ = -1, fd_ = -1, port_ = 0;
  double accept_timeout_, idle_timeout_;
  bool tried_attach_ = false;
  bool waiting_stop_ = false;  // GDB sent c and waits for a stop reply
  std::string rx_;
};

}  // namespace hetvp::mcu
