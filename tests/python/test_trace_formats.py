"""The trace's compact formats, chosen by the file's extension (platform/trace.h): FILE.json.gz is the
JSON trace gzip-compressed (Python's gzip module reads it back, byte for byte the .json of the same
run), FILE.pftrace is Perfetto's protobuf format, decoded here by Debian's protobuf compiler
(`protoc --decode` with perfetto_subset.proto, package protobuf-compiler) once its
compressed_packets are inflated, and compared with the JSON trace of the same run: the same
processes, threads, slices, lanes, instants, counter values and argument keys."""
import collections
import gzip
import json
import os
import shutil
import subprocess
import zlib

import pytest

SRC = os.environ["HETVP_SOURCE_DIR"]
BIN = os.environ["HETVP_BIN"]
# A short run of the main job with every kind of event: TLP runs, DMA pieces in flight at once
# (lanes), MSIs (instants) and, with per-TLP detail, the links' occupancy counters.
RUN = ["--set", "workload.args.max_size=1KiB", "--set", "workload.args.methods=dma,hub",
       "--set", "pcie0.trace_detail=tlps"]


def run(path, *extra):
    subprocess.run([BIN, "run", os.path.join(SRC, "configs", "default.yaml"), "--quiet", *RUN, "--trace", str(path),
                    *extra], check=True)


def varint(data, p):
    v, shift = 0, 0
    while True:
        b = data[p]
        p += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v, p


def inflated(data):
    """A Trace's bytes with each packet that holds compressed_packets (field 50: zlib-wrapped deflate
    of more packets) replaced by those packets, as Perfetto reads them."""
    out, p = b"", 0
    while p < len(data):
        start = p
        tag, p = varint(data, p)
        assert tag == (1 << 3 | 2), f"not a Trace.packet at byte {start}"
        n, p = varint(data, p)
        packet, p = data[p:p + n], p + n
        assert len(packet) == n, "a packet cut short"
        ftag, r = varint(packet, 0)
        if ftag == (50 << 3 | 2):
            flen, r = varint(packet, r)
            assert r + flen == len(packet)
            out += inflated(zlib.decompress(packet[r:]))
        else:
            out += data[start:p]
    return out


SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "perfetto_subset.proto")


def decode(path):
    """The (inflated) trace as protoc --decode prints it with perfetto_subset.proto, as nested lists:
    a message is a list of (field name, value), value a string (a scalar as protoc prints it) or a
    message. A field the schema does not declare would print as its number: none may."""
    raw = inflated(open(path, "rb").read())
    p = subprocess.run(["protoc", "--proto_path", os.path.dirname(SCHEMA), "--decode=hetvp_test.Trace",
                        os.path.basename(SCHEMA)], input=raw, capture_output=True)
    assert p.returncode == 0, p.stderr.decode()
    root, stack = [], []
    cur = root
    for line in p.stdout.decode("utf-8").splitlines():
        line = line.strip()
        if line.endswith("{"):
            child = []
            cur.append((line.split()[0], child))
            stack.append(cur)
            cur = child
        elif line == "}":
            cur = stack.pop()
        else:
            field, value = line.split(": ", 1)
            cur.append((field, value))
        assert not line[:1].isdigit(), f"a field the schema does not declare: {line}"
    return root


def fields(msg, n):
    return [v for f, v in msg if f == n]


def one(msg, n, default=None):
    vs = fields(msg, n)
    return vs[0] if vs else default


def text(value):
    """A string field as protoc prints it ("gpu0.ce"): the quotes off, the C escapes read."""
    return value[1:-1].encode("latin-1").decode("unicode_escape")


needs_protoc = pytest.mark.skipif(shutil.which("protoc") is None,
                                  reason="protoc (Debian's protobuf-compiler, .ci/install-deps) is not installed")


def test_json_gz_is_the_json_compressed(tmp_path):
    run(tmp_path / "t.json")
    run(tmp_path / "t.json.gz")
    plain = (tmp_path / "t.json").read_bytes()
    with gzip.open(tmp_path / "t.json.gz") as f:
        unzipped = f.read()
    assert unzipped == plain  # the same run, the same events, byte for byte
    assert len(json.loads(unzipped)["traceEvents"]) > 100
    assert (tmp_path / "t.json.gz").stat().st_size * 5 < len(plain)


@needs_protoc
def test_pftrace_holds_what_the_json_holds(tmp_path):
    run(tmp_path / "t.json")
    run(tmp_path / "t.pftrace")
    events = json.loads((tmp_path / "t.json").read_text())["traceEvents"]
    packets = fields(decode(tmp_path / "t.pftrace"), "packet")
    assert len(packets) > 100
    for p in packets:
        assert one(p, "trusted_packet_sequence_id") == "1"  # one sequence
    assert one(packets[0], "sequence_flags") == "1"  # SEQ_INCREMENTAL_STATE_CLEARED first

    # Tracks: processes, threads, lanes, counters.
    processes, threads, lanes, counter_tracks = {}, {}, {}, {}
    for p in packets:
        d = one(p, "track_descriptor")
        if d is None:
            continue
        uuid, name, parent = one(d, "uuid"), text(one(d, "name")), one(d, "parent_uuid")
        if one(d, "process") is not None:
            assert text(one(one(d, "process"), "process_name")) == name
            processes[uuid] = name
        elif one(d, "thread") is not None:  # a model's track, under its instance's process
            assert parent in processes and text(one(one(d, "thread"), "thread_name")) == name
            assert name.split(".")[0] == processes[parent]
            threads[uuid] = name
        elif one(d, "counter") is not None:  # under its instance's process
            assert parent in processes
            counter_tracks[uuid] = name
        else:  # a lane of overlapping spans, under its model's track
            assert parent in threads and name.startswith(threads[parent] + " lane ")
            lanes[uuid] = threads[parent]
    meta = [e for e in events if e["ph"] == "M"]
    assert sorted(processes.values()) == sorted(e["args"]["name"] for e in meta if e["name"] == "process_name")
    assert sorted(threads.values()) == sorted(e["args"]["name"] for e in meta if e["name"] == "thread_name")
    assert lanes and counter_tracks

    # Events, with the interned names and argument keys.
    names, keys = {}, {}
    begins, instants, counters = collections.Counter(), collections.Counter(), []
    open_slices, ends = collections.Counter(), collections.Counter()
    args = collections.Counter()
    for p in packets:
        interned = one(p, "interned_data", [])
        for entry in fields(interned, "event_names"):
            names[one(entry, "iid")] = text(one(entry, "name"))
        for entry in fields(interned, "debug_annotation_names"):
            keys[one(entry, "iid")] = text(one(entry, "name"))
        ev = one(p, "track_event")
        if ev is None:
            continue
        kind, track = one(ev, "type"), one(ev, "track_uuid")
        assert one(p, "timestamp") is not None  # every event has its time
        if kind == "TYPE_SLICE_BEGIN":
            where = threads.get(track) or lanes[track]
            begins[(where, "lane" if track in lanes else "thread", names[one(ev, "name_iid")])] += 1
            open_slices[track] += 1
            for a in fields(ev, "debug_annotations"):
                args[keys[one(a, "name_iid")]] += 1
        elif kind == "TYPE_SLICE_END":
            ends[track] += 1
        elif kind == "TYPE_INSTANT":
            instants[(threads[track], names[one(ev, "name_iid")])] += 1
        elif kind == "TYPE_COUNTER":
            counters.append((counter_tracks[track], float(one(ev, "double_counter_value"))))
    assert ends == open_slices  # every slice ends

    tid_names = {(e["pid"], e["tid"]): e["args"]["name"] for e in meta if e["name"] == "thread_name"}
    want = collections.Counter()
    for e in events:
        if e["ph"] in ("X", "b"):
            want[(tid_names[(e["pid"], e["tid"])], "thread" if e["ph"] == "X" else "lane", e["name"])] += 1
    assert begins == want
    assert sum(n for (_, kind, _), n in begins.items() if kind == "lane") > 0
    assert instants == collections.Counter((tid_names[(e["pid"], e["tid"])], e["name"])
                                           for e in events if e["ph"] == "i")
    assert counters == [(e["name"], e["args"]["value"]) for e in events if e["ph"] == "C"]
    # The JSON's args, key by key, as debug annotations.
    want_args = collections.Counter(k for e in events if e["ph"] in ("X", "b") for k in e.get("args", {}))
    assert args == want_args
    assert os.path.getsize(tmp_path / "t.pftrace") * 5 < os.path.getsize(tmp_path / "t.json")


@needs_protoc
@pytest.mark.parametrize("name", ["t.pftrace", "t.perfetto-trace"])
def test_window_and_filter_apply_to_the_protobuf_format(tmp_path, name):
    run(tmp_path / name, "--trace-filter", "pcie0", "--trace-window", "0:2ms")
    packets = fields(decode(tmp_path / name), "packet")
    tracks = [text(one(one(p, "track_descriptor"), "name")) for p in packets if one(p, "track_descriptor") is not None]
    assert tracks and all(t.startswith("pcie0") for t in tracks), tracks
    for p in packets:
        if one(p, "track_event") is not None:
            assert int(one(p, "timestamp")) <= 3_000_000  # the window's end and its 1 ms slack, in ns
