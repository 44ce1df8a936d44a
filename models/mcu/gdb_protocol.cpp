#include "models/mcu/gdb_protocol.h"

#include <cstdio>
#include <stdexcept>
#include <vector>

namespace hetvp::mcu::gdb {

std::string hex32le(uint32_t v) {
  char b[9];
  snprintf(b, sizeof b, "%02x%02x%02x%02x", v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24);
  return b;
}

namespace {
uint32_t parse_hex32le(const std::string& s, size_t pos) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t(std::stoul(s.substr(pos + 2 * i, 2), nullptr, 16)) << (8 * i);
  return v;
}
}  // namespace

bool extract_packet(std::string& rx, std::string& out, bool& ack) {
  ack = false;
  size_t s = rx.find('$');
  if (s != std::string::npos) {
    size_t h = rx.find('#', s);
    if (h != std::string::npos && h + 2 < rx.size()) {
      out = rx.substr(s + 1, h - s - 1);
      rx.erase(0, h + 3);
      ack = true;
      return true;
    }
  } else if (rx.find('\x03') != std::string::npos) {
    rx.clear();
    out = "\x03";
    return true;
  } else {
    rx.clear();
  }
  return false;
}

std::string frame(const std::string& p) {
  unsigned cs = 0;
  for (unsigned char c : p) cs += c;
  char tail[4];
  snprintf(tail, sizeof tail, "#%02x", cs & 0xff);
  return "$" + p + tail;
}

Outcome handle_packet(const std::string& pkt, Target& t) {
  Outcome o;
  const char c = pkt.empty() ? 0 : pkt[0];
  try {
    if (c == '?') {
      o.reply = t.trapped() ? "S04" : "S05";
    } else if (pkt.rfind("qSupported", 0) == 0) {
      o.reply = "PacketSize=4000";
    } else if (pkt == "qAttached") {
      o.reply = "1";
    } else if (pkt == "qC") {
      o.reply = "QC1";
    } else if (pkt == "qfThreadInfo") {
      o.reply = "m1";
    } else if (pkt == "qsThreadInfo") {
      o.reply = "l";
    } else if (c == 'H') {
      o.reply = "OK";
    } else if (c == 'g') {
      for (unsigned i = 0; i < 32; ++i) o.reply += hex32le(t.read_gpr(i));
      o.reply += hex32le(t.read_pc());
    } else if (c == 'G') {
      if (pkt.size() < 1 + 33 * 8) return o.reply = "E01", o;
      for (unsigned i = 1; i < 32; ++i) t.write_gpr(i, parse_hex32le(pkt, 1 + 8 * i));
      t.write_pc(parse_hex32le(pkt, 1 + 8 * 32));
      o.reply = "OK";
    } else if (c == 'p') {
      unsigned n = std::stoul(pkt.substr(1), nullptr, 16);
      if (n < 32)
        o.reply = hex32le(t.read_gpr(n));
      else if (n == 32)
        o.reply = hex32le(t.read_pc());
      else
        o.reply = "E01";
    } else if (c == 'P') {
      size_t eq = pkt.find('=');
      unsigned n = std::stoul(pkt.substr(1, eq - 1), nullptr, 16);
      uint32_t v = parse_hex32le(pkt, eq + 1);
      if (n < 32)
        t.write_gpr(n, v), o.reply = "OK";
      else if (n == 32)
        t.write_pc(v), o.reply = "OK";
      else
        o.reply = "E01";
    } else if (c == 'm') {
      size_t comma = pkt.find(',');
      uint32_t addr = std::stoul(pkt.substr(1, comma - 1), nullptr, 16);
      uint32_t len = std::stoul(pkt.substr(comma + 1), nullptr, 16);
      if (len > 0x1000) len = 0x1000;
      std::vector<uint8_t> buf(len);
      if (!t.read_mem(addr, buf.data(), len)) return o.reply = "E01", o;
      char h[3];
      for (uint8_t b : buf) {
        snprintf(h, sizeof h, "%02x", b);
        o.reply += h;
      }
    } else if (c == 'M') {
      size_t comma = pkt.find(','), colon = pkt.find(':');
      uint32_t addr = std::stoul(pkt.substr(1, comma - 1), nullptr, 16);
      uint32_t len = std::stoul(pkt.substr(comma + 1, colon - comma - 1), nullptr, 16);
      // The data must be in the packet (2 hex digits a byte): a length beyond it is malformed,
      // and must not make us allocate it (M0,ffffffff: 4 GiB).
      if (colon == std::string::npos || len > (pkt.size() - colon - 1) / 2) return o.reply = "E01", o;
      std::vector<uint8_t> buf(len);
      for (uint32_t i = 0; i < len; ++i) buf[i] = uint8_t(std::stoul(pkt.substr(colon + 1 + 2 * i, 2), nullptr, 16));
      o.reply = t.write_mem(addr, buf.data(), len) ? "OK" : "E01";
    } else if (c == 'Z' || c == 'z') {
      if (pkt.size() < 4 || pkt[1] != '0') return o.reply = "", o;
      size_t c2 = pkt.find(',', 3);
      uint32_t addr = std::stoul(pkt.substr(3, c2 - 3), nullptr, 16);
      if (c == 'Z')
        t.set_breakpoint(addr);
      else
        t.clear_breakpoint(addr);
      o.reply = "OK";
    } else if (c == 's' || c == 'c') {
      if (pkt.size() > 1) o.set_pc = true, o.pc = std::stoul(pkt.substr(1), nullptr, 16);
      o.action = c == 's' ? Outcome::step : Outcome::cont;
      o.send = false;  // the stop reply comes when the core stops
    } else if (c == 'k' || c == 'D') {
      o.action = c == 'k' ? Outcome::kill : Outcome::detach;
      o.send = c == 'D';
      o.reply = "OK";
    } else {
      o.reply = "";
    }
  } catch (const std::exception&) {
    o = Outcome{};
    o.reply = "E02";
  }
  return o;
}

}  // namespace hetvp::mcu::gdb
