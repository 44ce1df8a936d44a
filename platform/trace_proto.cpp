// Perfetto's protobuf trace format (trace_proto.h: the field numbers and their proto files).
#include "platform/trace_proto.h"

#include <zlib.h>

#include <charconv>
#include <cstring>

namespace hetvp {

namespace {
enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2 };

// Trace and TracePacket (trace.proto, trace_packet.proto).
constexpr uint32_t kTracePacket = 1;
constexpr uint32_t kTimestamp = 8, kSequenceId = 10, kTrackEvent = 11, kInternedData = 12, kSequenceFlags = 13,
                   kCompressedPackets = 50, kTrackDescriptor = 60;
constexpr uint64_t kIncrementalStateCleared = 1, kNeedsIncrementalState = 2;
constexpr uint64_t kSequence = 1;  // every packet is on one sequence: hetvp is one writer
// TrackDescriptor, ProcessDescriptor, ThreadDescriptor.
constexpr uint32_t kTdUuid = 1, kTdName = 2, kTdProcess = 3, kTdThread = 4, kTdParent = 5, kTdCounter = 8;
constexpr uint32_t kPdPid = 1, kPdName = 6;
constexpr uint32_t kThPid = 1, kThTid = 2, kThName = 5;
// TrackEvent and its Type.
constexpr uint32_t kTeAnnotations = 4, kTeType = 9, kTeNameIid = 10, kTeTrack = 11, kTeDoubleCounter = 44;
constexpr uint64_t kSliceBegin = 1, kSliceEnd = 2, kInstant = 3, kCounter = 4;
// DebugAnnotation; InternedData and its entries (EventName, DebugAnnotationName: iid 1, name 2).
constexpr uint32_t kDaNameIid = 1, kDaBool = 2, kDaUint = 3, kDaInt = 4, kDaDouble = 5, kDaString = 6;
constexpr uint32_t kIdEventNames = 2, kIdAnnotationNames = 3, kEntryIid = 1, kEntryName = 2;
}  // namespace

TraceFormat trace_format_of(const std::string& path) {
  auto ends_with = [&](const char* tail) {
    const size_t n = std::strlen(tail);
    return path.size() >= n && path.compare(path.size() - n, n, tail) == 0;
  };
  if (ends_with(".json.gz")) return TraceFormat::kJsonGz;
  if (ends_with(".pftrace") || ends_with(".perfetto-trace")) return TraceFormat::kPerfetto;
  return TraceFormat::kJson;
}

// ------------------------------------------------------------------ ProtoMessage
// A byte at a time with push_back (inline): most varints here are one or two bytes, and a call
// to append() per varint was the encoder's largest cost.
void ProtoMessage::raw_varint(uint64_t v) {
  while (v >= 0x80) {
    b_.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  b_.push_back(static_cast<char>(v));
}

void ProtoMessage::varint(uint32_t field, uint64_t v) {
  raw_varint(uint64_t{field} << 3 | kVarint);
  raw_varint(v);
}

void ProtoMessage::fixed_double(uint32_t field, double v) {
  raw_varint(uint64_t{field} << 3 | kFixed64);
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  char b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<char>(bits >> (8 * i));  // little-endian on the wire
  b_.append(b, 8);
}

void ProtoMessage::bytes(uint32_t field, const char* data, size_t n) {
  raw_varint(uint64_t{field} << 3 | kLengthDelimited);
  raw_varint(n);
  if (n) b_.append(data, n);
}

// ------------------------------------------------------------------ PerfettoPackets
// Appends packet_ as one Trace.packet. The first packet of the file clears the sequence's
// incremental state (the interning tables); packets that refer to interned names say they need it.
void PerfettoPackets::finish(bool uses_interned) {
  packet_.varint(kSequenceId, kSequence);
  if (packets_ == 0)
    packet_.varint(kSequenceFlags, kIncrementalStateCleared);
  else if (uses_interned)
    packet_.varint(kSequenceFlags, kNeedsIncrementalState);
  ++packets_;
  pending_.message(kTracePacket, packet_);  // Trace.packet's tag and length, then the packet
}

void PerfettoPackets::descriptor() {
  packet_.clear();
  packet_.message(kTrackDescriptor, desc_);
  finish(false);
}

std::string PerfettoPackets::compress(const char* data, size_t n) {
  uLongf size = compressBound(static_cast<uLong>(n));
  std::string deflated(size, '\0');
  if (compress2(reinterpret_cast<Bytef*>(deflated.data()), &size, reinterpret_cast<const Bytef*>(data),
                static_cast<uLong>(n), 1) != Z_OK)
    size = 0;  // cannot happen with compressBound's room; an empty packet rather than a broken one
  ProtoMessage packet, out;
  packet.bytes(kCompressedPackets, deflated.data(), size);
  out.message(kTracePacket, packet);
  return out.data();
}

// Names and argument keys are few ("DMA write", "addr", "bytes"...): the last ones found are
// compared before the table is hashed.
uint64_t PerfettoPackets::name_iid(std::string_view name) {
  for (const auto& [n, iid] : recent_names_)
    if (iid && n == name) return iid;
  auto [it, added] = names_.try_emplace(std::string(name), names_.size() + 1);  // iid 0 is "not set"
  if (added) {
    entry_.clear();
    entry_.varint(kEntryIid, it->second);
    entry_.bytes(kEntryName, name);
    interned_.message(kIdEventNames, entry_);
  }
  recent_names_[next_recent_name_++ % kRecent] = {it->first, it->second};
  return it->second;
}

uint64_t PerfettoPackets::key_iid(const std::string& key) {
  for (const auto& [k, iid] : recent_keys_)
    if (iid && k == key) return iid;
  auto [it, added] = keys_.try_emplace(key, keys_.size() + 1);
  if (added) {
    entry_.clear();
    entry_.varint(kEntryIid, it->second);
    entry_.bytes(kEntryName, key);
    interned_.message(kIdAnnotationNames, entry_);
  }
  recent_keys_[next_recent_key_++ % kRecent] = {key, it->second};
  return it->second;
}

namespace {
// The JSON args body's members, one at a time: "key":value, value a number, a string (escaped as
// JSON), true/false, or anything else (kept as its text).
struct ArgReader {
  const char* p;
  const char* end;
  std::string key, text;

  // A JSON string at p (after its opening quote) into out, unescaped (\uXXXX below 0x80 only:
  // the Tracer's args are ASCII).
  bool string(std::string& out) {
    out.clear();
    while (p < end && *p != '"') {
      if (*p == '\\' && p + 1 < end) {
        ++p;
        switch (*p) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'u': {
            unsigned v = 0;
            if (end - p >= 5 && std::from_chars(p + 1, p + 5, v, 16).ptr == p + 5) {
              out += static_cast<char>(v < 0x80 ? v : '?');
              p += 4;
            }
            break;
          }
          default: out += *p;
        }
        ++p;
      } else {
        out += *p++;
      }
    }
    if (p >= end) return false;
    ++p;  // the closing quote
    return true;
  }
  enum Kind { kNone, kString, kNumber, kBool, kOther };
  Kind next() {
    while (p < end && (*p == ',' || *p == ' ')) ++p;
    if (p >= end || *p != '"') return kNone;
    ++p;
    if (!string(key) || p >= end || *p != ':') return kNone;
    ++p;
    if (p < end && *p == '"') {
      ++p;
      return string(text) ? kString : kNone;
    }
    const char* b = p;
    int depth = 0;  // a nested object or array is kept whole, as text
    while (p < end && (depth > 0 || *p != ',')) {
      if (*p == '{' || *p == '[') ++depth;
      if (*p == '}' || *p == ']') --depth;
      ++p;
    }
    text.assign(b, p);
    if (text == "true" || text == "false") return kBool;
    return !text.empty() && (text[0] == '-' || (text[0] >= '0' && text[0] <= '9')) ? kNumber : kOther;
  }
};
}  // namespace

void PerfettoPackets::add_args(const char* args, size_t n) {
  if (!n) return;
  ArgReader r{args, args + n, {}, {}};
  for (ArgReader::Kind k; (k = r.next()) != ArgReader::kNone;) {
    annotation_.clear();
    annotation_.varint(kDaNameIid, key_iid(r.key));
    const char* b = r.text.data();
    const char* e = b + r.text.size();
    uint64_t u = 0;
    int64_t i = 0;
    double d = 0;
    if (k == ArgReader::kBool) {
      annotation_.varint(kDaBool, r.text == "true");
    } else if (k == ArgReader::kNumber && std::from_chars(b, e, u).ptr == e) {
      annotation_.varint(kDaUint, u);
    } else if (k == ArgReader::kNumber && std::from_chars(b, e, i).ptr == e) {
      annotation_.sint(kDaInt, i);
    } else if (k == ArgReader::kNumber && std::from_chars(b, e, d).ptr == e) {
      annotation_.fixed_double(kDaDouble, d);
    } else {
      annotation_.bytes(kDaString, r.text);
    }
    event_.message(kTeAnnotations, annotation_);
  }
}

void PerfettoPackets::process_track(int pid, const std::string& name) {
  const uint64_t uuid = next_uuid_++;
  processes_[pid] = uuid;
  sub_.clear();
  sub_.varint(kPdPid, static_cast<uint64_t>(pid));
  sub_.bytes(kPdName, name);
  desc_.clear();
  desc_.varint(kTdUuid, uuid);
  desc_.bytes(kTdName, name);
  desc_.message(kTdProcess, sub_);
  descriptor();
}

void PerfettoPackets::thread_track(int pid, int tid, const std::string& name) {
  const uint64_t uuid = next_uuid_++;
  if (tid < 0) return;
  if (threads_.size() <= size_t(tid)) threads_.resize(size_t(tid) + 1, 0);
  threads_[tid] = uuid;
  sub_.clear();
  sub_.varint(kThPid, static_cast<uint64_t>(pid));
  sub_.varint(kThTid, static_cast<uint64_t>(tid));
  sub_.bytes(kThName, name);
  desc_.clear();
  desc_.varint(kTdUuid, uuid);
  desc_.varint(kTdParent, processes_[pid]);
  desc_.bytes(kTdName, name);
  desc_.message(kTdThread, sub_);
  descriptor();
}

uint64_t PerfettoPackets::lane_track(uint64_t lane_id, int tid, const std::string& thread_name, size_t lane_number) {
  auto [it, added] = lanes_.try_emplace(lane_id, next_uuid_);
  if (!added) return it->second;
  ++next_uuid_;
  desc_.clear();
  desc_.varint(kTdUuid, it->second);
  desc_.varint(kTdParent, thread_uuid(tid));
  desc_.bytes(kTdName, thread_name + " lane " + std::to_string(lane_number));
  descriptor();
  return it->second;
}

uint64_t PerfettoPackets::counter_track(int pid, std::string_view name) {
  auto [it, added] = counters_.try_emplace(std::string(name), next_uuid_);
  if (!added) return it->second;
  ++next_uuid_;
  sub_.clear();  // an empty CounterDescriptor: a plain counter
  desc_.clear();
  desc_.varint(kTdUuid, it->second);
  desc_.varint(kTdParent, processes_[pid]);
  desc_.bytes(kTdName, name);
  desc_.message(kTdCounter, sub_);
  descriptor();
  return it->second;
}

void PerfettoPackets::slice_begin(uint64_t track, uint64_t ts_ns, std::string_view name, const char* args,
                                  size_t args_len) {
  interned_.clear();
  event_.clear();
  event_.varint(kTeType, kSliceBegin);
  event_.varint(kTeTrack, track);
  event_.varint(kTeNameIid, name_iid(name));
  add_args(args, args_len);
  packet_.clear();
  packet_.varint(kTimestamp, ts_ns);
  packet_.message(kTrackEvent, event_);
  if (!interned_.data().empty()) packet_.message(kInternedData, interned_);
  finish(true);
}

void PerfettoPackets::slice_end(uint64_t track, uint64_t ts_ns) {
  event_.clear();
  event_.varint(kTeType, kSliceEnd);
  event_.varint(kTeTrack, track);
  packet_.clear();
  packet_.varint(kTimestamp, ts_ns);
  packet_.message(kTrackEvent, event_);
  finish(false);
}

void PerfettoPackets::instant(uint64_t track, uint64_t ts_ns, std::string_view name, const char* args,
                              size_t args_len) {
  interned_.clear();
  event_.clear();
  event_.varint(kTeType, kInstant);
  event_.varint(kTeTrack, track);
  event_.varint(kTeNameIid, name_iid(name));
  add_args(args, args_len);
  packet_.clear();
  packet_.varint(kTimestamp, ts_ns);
  packet_.message(kTrackEvent, event_);
  if (!interned_.data().empty()) packet_.message(kInternedData, interned_);
  finish(true);
}

void PerfettoPackets::counter(uint64_t track, uint64_t ts_ns, double value) {
  event_.clear();
  event_.varint(kTeType, kCounter);
  event_.varint(kTeTrack, track);
  event_.fixed_double(kTeDoubleCounter, value);
  packet_.clear();
  packet_.varint(kTimestamp, ts_ns);
  packet_.message(kTrackEvent, event_);
  finish(false);
}

}  // namespace hetvp
