// Test helpers: read back the trace's compressed formats (platform/trace.h) with zlib — a
// .json.gz's text, and a .pftrace's packets (each TracePacket.compressed_packets inflated) — so a
// test can check that a file is whole: every gzip member ends, every packet's length fits.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/run_hetvp.h"

namespace hetvp::test {

// The text of a gzip file; `ok` false when it is not a whole gzip stream (cut short, say).
inline std::string gunzip(const std::string& path, bool& ok) {
  std::string out;
  ok = false;
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) return out;
  char buf[1 << 16];
  int n = 0;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  int err = Z_OK;
  gzerror(f, &err);
  ok = n == 0 && err == Z_OK;
  gzclose(f);
  return out;
}

// A protobuf varint at bytes[p]; false past the end.
inline bool read_varint(const std::string& bytes, size_t& p, uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64 && p < bytes.size(); shift += 7) {
    const uint8_t b = static_cast<uint8_t>(bytes[p++]);
    v |= uint64_t{b & 0x7fu} << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

// The TracePackets of a Perfetto trace (a Trace: field 1, length-delimited, repeated), with every
// packet that holds compressed_packets (field 50) replaced by the packets inflated from it.
// Returns "" or what is wrong.
inline std::string perfetto_packets(const std::string& trace, std::vector<std::string>& packets) {
  size_t p = 0;
  while (p < trace.size()) {
    uint64_t tag = 0, len = 0;
    if (!read_varint(trace, p, tag) || tag != (1u << 3 | 2)) return "not a Trace.packet at byte " + std::to_string(p);
    if (!read_varint(trace, p, len) || len > trace.size() - p) return "a packet cut short at byte " + std::to_string(p);
    const std::string packet = trace.substr(p, len);
    p += len;
    size_t q = 0;
    uint64_t ftag = 0, flen = 0;
    if (read_varint(packet, q, ftag) && ftag == (50u << 3 | 2) && read_varint(packet, q, flen) &&
        flen == packet.size() - q) {
      std::string inner(4 << 20, '\0');  // a batch is ~1 MiB of packets
      uLongf size = inner.size();
      if (uncompress(reinterpret_cast<Bytef*>(inner.data()), &size, reinterpret_cast<const Bytef*>(packet.data() + q),
                     static_cast<uLong>(flen)) != Z_OK)
        return "compressed_packets that do not inflate";
      inner.resize(size);
      const std::string e = perfetto_packets(inner, packets);
      if (!e.empty()) return "inside compressed_packets: " + e;
    } else {
      packets.push_back(packet);
    }
  }
  return "";
}

}  // namespace hetvp::test
