// The FIFO block's front end (fifo.h): the GP entries and push-buffer words a channel fetches
// through the MMU in its own address space, their decoding into methods (SEC_OP headers), and
// the FIFO class's own methods (SET_OBJECT, the semaphores). Other classes' methods go to
// engines.cpp.
#include <algorithm>
#include <cinttypes>

#include "firmware/include/hetvp/compute.h"
#include "models/gpu/fifo/fifo.h"
#include "platform/format.h"
#include "platform/trace.h"

namespace hetvp::gpu {

// ---- fetch ----
bool Fifo::read_ramfc(Channel& c) {
  uint32_t w[2] = {};
  if (c.inst + INST_BYTES > vram_limit() ||
      !access(inst, inst_gp_, tlm::TLM_READ_COMMAND, c.inst + INST_RAMFC_GP_BASE_LO, w, 8)) {
    fail(c, FIFO_ERR_BAD_CHANNEL, 0, format("instance block at VRAM 0x%" PRIx64 " cannot be read", c.inst));
    return false;
  }
  c.gp_base = w[0] | uint64_t(w[1] & 0xff) << 32;
  const unsigned log2 = (w[1] >> 16) & 0x1f;
  c.gp_entries = 1u << log2;
  c.need_ramfc = false;
  return true;
}

// Next push-buffer word of the channel (false: none fetched; `failed` may be set).
bool Fifo::next_word(Channel& c, uint32_t& w, uint64_t& va) {
  while (c.buf_pos == c.buf.size()) {
    if (c.seg_words == 0) {
      if (c.gp_get == c.gp_put) arrive_puts();
      if (c.gp_get == c.gp_put) return false;
      if (c.gp_put >= c.gp_entries) {
        fail(c, FIFO_ERR_BAD_CHANNEL, 0,
             format("GP_PUT %u is outside its GPFIFO of %u entries (instance +0x4c)", c.gp_put, c.gp_entries));
        return false;
      }
      uint32_t e[2] = {};
      const uint64_t at = c.gp_base + uint64_t(c.gp_get) * GP_ENTRY_BYTES;
      ++gp_entries_;
      fetch_bytes_ += 8;
      if (!mem_access(c, tlm::TLM_READ_COMMAND, at, e, 8)) {
        fail(c, FIFO_ERR_FETCH_FAULT, at,
             format("GP entry %u at GPU VA 0x%" PRIx64 " is outside the channel's address space (%s)", c.gp_get, at,
                    mem_gp_.get_response_string().c_str()));
        return false;
      }
      c.gp_get = (c.gp_get + 1) % c.gp_entries;
      bank_.at(FIFO_GP_GET_N(c.id)).value = c.gp_get;
      c.seg_va = (e[0] & ~3u) | uint64_t(e[1] & 0xff) << 32;
      c.seg_words = (e[1] >> GP_ENTRY1_LENGTH_SHIFT) & GP_ENTRY1_LENGTH_MASK;
      HETVP_DEBUG(Fifo, "channel %u: GP entry at VA 0x%" PRIx64 " fetched: %u push-buffer words at VA 0x%" PRIx64, c.id,
                  at, c.seg_words, c.seg_va);
      continue;
    }
    const uint64_t page_left = 4096 - (c.seg_va & 4095);
    const unsigned n = unsigned(std::min<uint64_t>({uint64_t(c.seg_words) * 4, fetch_chunk_, page_left}));
    c.buf.resize(n / 4);
    ++fetches_;
    fetch_bytes_ += n;
    if (!mem_access(c, tlm::TLM_READ_COMMAND, c.seg_va, c.buf.data(), n)) {
      c.buf.clear();
      fail(c, FIFO_ERR_FETCH_FAULT, c.seg_va,
           format("push-buffer segment at GPU VA 0x%" PRIx64 " is outside the channel's address space (%s)", c.seg_va,
                  mem_gp_.get_response_string().c_str()));
      return false;
    }
    c.buf_va = c.seg_va;
    c.buf_pos = 0;
    c.seg_va += n;
    c.seg_words -= n / 4;
  }
  va = c.buf_va + 4 * c.buf_pos;
  w = c.buf[c.buf_pos++];
  cursor_ += method_cost_;
  return true;
}

// One word of the channel: a header, or the data of the current method.
void Fifo::step(Channel& c) {
  uint32_t w = 0;
  uint64_t va = 0;
  if (c.count == 0) {
    if (!next_word(c, w, va)) return;
    const uint32_t op = w >> FIFO_HDR_SEC_OP_SHIFT;
    c.subch = (w >> 13) & 7;
    c.mthd = (w & 0xfff) << 2;
    c.hdr_va = va;
    if (op == FIFO_SEC_OP_IMMD) {
      ++methods_;
      execute(c, c.mthd, (w >> 16) & 0x1fff);
      return;
    }
    if (op != FIFO_SEC_OP_INC && op != FIFO_SEC_OP_NON_INC && op != FIFO_SEC_OP_ONE_INC) {
      fail(c, FIFO_ERR_UNKNOWN_METHOD, va,
           format("push-buffer word 0x%08x at GPU VA 0x%" PRIx64 " is not a method header (SEC_OP %u)", w, va, op));
      return;
    }
    c.op = op;
    c.count = (w >> 16) & 0x1fff;
    return;
  }
  if (!next_word(c, w, va)) return;
  ++methods_;
  const uint32_t m = c.mthd;
  --c.count;
  if (c.op == FIFO_SEC_OP_INC) c.mthd += 4;
  if (c.op == FIFO_SEC_OP_ONE_INC) {
    c.mthd += 4;
    c.op = FIFO_SEC_OP_NON_INC;
  }
  execute(c, m, w);
}

// ---- decode ----
void Fifo::unknown(Channel& c, uint32_t m, uint32_t data) {
  fail(c, FIFO_ERR_UNKNOWN_METHOD, c.hdr_va,
       format("unknown %s (data 0x%08x) at push-buffer address 0x%" PRIx64, method_text(c, m).c_str(), data, c.hdr_va));
}

void Fifo::execute(Channel& c, uint32_t m, uint32_t data) {
  cur_method_ = m;
  HETVP_DEBUG(Fifo, "channel %u: method 0x%04x = 0x%08x on subchannel %u (%s) at VA 0x%" PRIx64, c.id, m, data, c.subch,
              m < 0x100 ? "fifo" : class_name(c.cls[c.subch]), c.hdr_va);
  if (m < 0x100) return fifo_method(c, m, data);
  const uint32_t cls = c.cls[c.subch];
  if (!cls) {
    fail(c, FIFO_ERR_UNBOUND_SUBCHANNEL, c.hdr_va,
         format("method 0x%04x (data 0x%08x) on subchannel %u, which no SET_OBJECT bound, at push-buffer address "
                "0x%" PRIx64,
                m, data, c.subch, c.hdr_va));
    return;
  }
  if (cls == FIFO_CLASS_COMPUTE) return compute_method(c, m, data);
  return copy_method(c, m, data);
}

// ---- the FIFO class: objects and semaphores ----
void Fifo::fifo_method(Channel& c, uint32_t m, uint32_t data) {
  switch (m) {
    case FIFO_M_SET_OBJECT:
      if (data != FIFO_CLASS_COMPUTE && data != FIFO_CLASS_COPY) {
        fail(c, FIFO_ERR_UNKNOWN_METHOD, c.hdr_va,
             format("SET_OBJECT (method 0x0000) on subchannel %u of unknown class 0x%04x at push-buffer address "
                    "0x%" PRIx64,
                    c.subch, data, c.hdr_va));
        return;
      }
      c.cls[c.subch] = data;
      if (data == FIFO_CLASS_COMPUTE) {
        // The compute object of this channel: GR's address-space selection becomes the channel's.
        if (!ensure_gr(c)) return;
        compute_write(c, CMP_CHAN, chan_word(c.inst));
        compute_write(c, CMP_CHAN_ID, c.id);
      }
      return;
    case FIFO_M_SEMAPHOREA:
      c.sem_addr = (c.sem_addr & 0xffffffffull) | uint64_t(data & 0xff) << 32;
      return;
    case FIFO_M_SEMAPHOREB:
      c.sem_addr = (c.sem_addr & ~0xffffffffull) | (data & ~3u);
      return;
    case FIFO_M_SEMAPHOREC:
      c.sem_payload = data;
      return;
    case FIFO_M_SEMAPHORED: {
      const uint32_t op = data & 0xf;
      if (op == FIFO_SEM_ACQUIRE || op == FIFO_SEM_ACQ_GEQ) {
        ++acquires_;
        c.acq_op = op;
        c.acq_hdr_va = c.hdr_va;
        if (!acquire_satisfied(c)) {
          ++sem_waits_;
          c.blocked = true;
          c.blocked_since = sc_core::sc_time_stamp() + local();
          HETVP_DEBUG(Fifo, "channel %u: semaphore acquire at VA 0x%" PRIx64 " (%s 0x%08x) blocks the channel", c.id,
                      c.sem_addr, op == FIFO_SEM_ACQUIRE ? "==" : ">=", c.sem_payload);
        } else {
          HETVP_DEBUG(Fifo, "channel %u: semaphore acquire at VA 0x%" PRIx64 " (%s 0x%08x) satisfied", c.id, c.sem_addr,
                      op == FIFO_SEM_ACQUIRE ? "==" : ">=", c.sem_payload);
        }
        return;
      }
      if (op == FIFO_SEM_RELEASE) {
        ++releases_;
        // Every earlier method of the channel is complete (engines are waited for): the release
        // is ordered after them, as RELEASE_WFI asks.
        uint32_t v[4] = {c.sem_payload, 0, 0, 0};
        const uint64_t ts = uint64_t((sc_core::sc_time_stamp() + local()).to_seconds() * 1e9 + 0.5);
        v[2] = uint32_t(ts);
        v[3] = uint32_t(ts >> 32);
        const unsigned len = (data & FIFO_SEM_RELEASE_4BYTE) ? 4 : 16;
        HETVP_DEBUG(Fifo, "channel %u: semaphore release 0x%08x to VA 0x%" PRIx64 " (%u B)", c.id, c.sem_payload,
                    c.sem_addr, len);
        // Written at the FIFO's own time, not ahead of it: the host polls the value, and must not
        // see it before its time whatever the quantum.
        sync_all();
        if (!mem_access(c, tlm::TLM_WRITE_COMMAND, c.sem_addr, v, len))
          fail(c, FIFO_ERR_SEMAPHORE_FAULT, c.hdr_va,
               format("semaphore release to GPU VA 0x%" PRIx64
                      " outside the channel's address space (SEMAPHORED at push-buffer address 0x%" PRIx64 ")",
                      c.sem_addr, c.hdr_va));
        return;
      }
      return unknown(c, m, data);
    }
    default:
      return unknown(c, m, data);
  }
}

// Reads the semaphore; true when the acquire may go on.
bool Fifo::acquire_satisfied(Channel& c) {
  uint32_t v = 0;
  if (!mem_access(c, tlm::TLM_READ_COMMAND, c.sem_addr, &v, 4)) {
    c.blocked = false;
    fail(c, FIFO_ERR_SEMAPHORE_FAULT, c.acq_hdr_va,
         format("semaphore acquire at GPU VA 0x%" PRIx64
                " outside the channel's address space (SEMAPHORED at push-buffer address 0x%" PRIx64 ")",
                c.sem_addr, c.acq_hdr_va));
    return false;
  }
  return c.acq_op == FIFO_SEM_ACQUIRE ? v == c.sem_payload : int32_t(v - c.sem_payload) >= 0;
}

}  // namespace hetvp::gpu
