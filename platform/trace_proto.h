// Perfetto's protobuf trace format (`hetvp run --trace FILE.pftrace`), written by hand from the
// published field numbers; Perfetto (ui.perfetto.dev, trace_processor) opens it natively.
//
// ProtoMessage: a protobuf wire-format encoder (varints, length-delimited fields, 64-bit doubles),
// enough for the handful of messages below.
// PerfettoPackets: the Tracer's events as TracePackets of one packet sequence: tracks as
// TrackDescriptors, slices as TYPE_SLICE_BEGIN/END pairs, instants, counters; event names and
// argument keys interned (InternedData), arguments as DebugAnnotations. The file is a Trace of
// packets that each hold ~1 MiB of these deflated (TracePacket.compressed_packets, as Perfetto's
// own tracing service writes when asked to compress): about 10x smaller again.
//
// Field numbers, from google/perfetto's protos/perfetto/trace/ (read, not copied):
//   trace.proto                          Trace.packet = 1
//   trace_packet.proto                   TracePacket: timestamp = 8, trusted_packet_sequence_id = 10,
//                                        track_event = 11, interned_data = 12, sequence_flags = 13
//                                        (SEQ_INCREMENTAL_STATE_CLEARED = 1, SEQ_NEEDS_INCREMENTAL_STATE = 2),
//                                        compressed_packets = 50 (zlib-wrapped deflate of a Trace's
//                                        packets: src/trace_processor's tokenizer inflates it),
//                                        track_descriptor = 60
//   track_event/track_descriptor.proto   TrackDescriptor: uuid = 1, name = 2, process = 3, thread = 4,
//                                        parent_uuid = 5, counter = 8
//   track_event/process_descriptor.proto ProcessDescriptor: pid = 1, process_name = 6
//   track_event/thread_descriptor.proto  ThreadDescriptor: pid = 1, tid = 2, thread_name = 5
//   track_event/counter_descriptor.proto CounterDescriptor (empty: a plain counter track)
//   track_event/track_event.proto        TrackEvent: debug_annotations = 4, type = 9 (SLICE_BEGIN = 1,
//                                        SLICE_END = 2, INSTANT = 3, COUNTER = 4), name_iid = 10,
//                                        track_uuid = 11, double_counter_value = 44
//   track_event/debug_annotation.proto   DebugAnnotation: name_iid = 1, bool_value = 2, uint_value = 3,
//                                        int_value = 4, double_value = 5, string_value = 6;
//                                        DebugAnnotationName: iid = 1, name = 2
//   interned_data/interned_data.proto    InternedData: event_names = 2 (EventName: iid = 1, name = 2),
//                                        debug_annotation_names = 3
// Timestamps are nanoseconds of simulated time (the packets' default clock); the format has no
// finer unit, so a span shorter than 1 ns shows as 0 ns (the JSON trace keeps picoseconds).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace hetvp {

// One message's bytes, appended field by field.
class ProtoMessage {
 public:
  void varint(uint32_t field, uint64_t v);
  void sint(uint32_t field, int64_t v) { varint(field, static_cast<uint64_t>(v)); }  // int64: two's complement
  void fixed_double(uint32_t field, double v);
  void bytes(uint32_t field, const char* data, size_t n);
  void bytes(uint32_t field, std::string_view s) { bytes(field, s.data(), s.size()); }
  void message(uint32_t field, const ProtoMessage& m) { bytes(field, m.b_); }
  void append(const char* data, size_t n) { b_.append(data, n); }  // bytes already encoded
  const std::string& data() const { return b_; }
  void clear() { b_.clear(); }

 private:
  void raw_varint(uint64_t v);
  std::string b_;
};

// Which format a trace file's name asks for (`hetvp run --trace FILE`): ".json.gz" the JSON
// gzip-compressed, ".pftrace" and ".perfetto-trace" Perfetto's protobuf format, anything else JSON.
enum class TraceFormat { kJson, kJsonGz, kPerfetto };
TraceFormat trace_format_of(const std::string& path);

// The packets of one trace file, appended to pending() for the Tracer to write. Track uuids are
// handed out here, small (1, 2, ...: one-byte varints on every event).
class PerfettoPackets {
 public:
  // Tracks: a process per instance, a thread per model track under it (`tid` the Tracer's), lanes
  // (tracks of their own for spans that overlap on a thread's track) and counters.
  void process_track(int pid, const std::string& name);
  void thread_track(int pid, int tid, const std::string& name);
  uint64_t thread_uuid(int tid) const { return tid >= 0 && size_t(tid) < threads_.size() ? threads_[tid] : 0; }
  // The lane's track (`lane_id` the Tracer's async id), made under `tid`'s the first time.
  uint64_t lane_track(uint64_t lane_id, int tid, const std::string& thread_name, size_t lane_number);
  uint64_t counter_track(int pid, std::string_view name);
  // `args`: the body of a JSON object ("\"addr\":4096,\"kind\":\"MWr\""), the Tracer's span args;
  // each member becomes a DebugAnnotation (numbers as uint/int/double, strings, booleans).
  void slice_begin(uint64_t track, uint64_t ts_ns, std::string_view name, const char* args, size_t args_len);
  void slice_end(uint64_t track, uint64_t ts_ns);
  void instant(uint64_t track, uint64_t ts_ns, std::string_view name, const char* args, size_t args_len);
  void counter(uint64_t track, uint64_t ts_ns, double value);

  // The packets made since the last clear_pending(): whole Trace.packet fields.
  const std::string& pending() const { return pending_.data(); }
  void clear_pending() { pending_.clear(); }
  // `n` bytes of whole packets as one packet of TracePacket.compressed_packets (deflate, zlib
  // format, level 1), which Perfetto inflates as it loads the file; the bytes to write. Uses no
  // member: the Tracer's writer thread calls it (platform/trace_writer.h).
  static std::string compress(const char* data, size_t n);
  uint64_t packets() const { return packets_; }

 private:
  void finish(bool uses_interned);  // packet_ as one Trace.packet into pending_
  void descriptor();                // desc_ as a TrackDescriptor packet
  uint64_t name_iid(std::string_view name);
  uint64_t key_iid(const std::string& key);
  void add_args(const char* args, size_t n);

  ProtoMessage packet_, event_, desc_, sub_, interned_, entry_, annotation_, pending_;
  std::unordered_map<std::string, uint64_t> names_, keys_, counters_;
  std::unordered_map<int, uint64_t> processes_;  // by pid
  std::vector<uint64_t> threads_;                 // by tid
  std::unordered_map<uint64_t, uint64_t> lanes_;  // by async id
  static constexpr size_t kRecent = 8;
  std::pair<std::string, uint64_t> recent_keys_[kRecent];   // key_iid's last answers (iid 0: empty)
  std::pair<std::string, uint64_t> recent_names_[kRecent];  // name_iid's
  size_t next_recent_key_ = 0, next_recent_name_ = 0;
  uint64_t packets_ = 0, next_uuid_ = 1;
};

}  // namespace hetvp
