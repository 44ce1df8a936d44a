// The executor's memory instructions: ld/st in every state space (generic addresses split by window),
// shared memory with its bank-conflict degree, local memory word-interleaved across a warp's lanes, parameter
// and constant banks, and atomics (shared: here; global: the environment).
#include <algorithm>
#include <cstdio>

#include "models/gpu/compute/ptx/exec_impl.h"

namespace hetvp::gpu::ptx {

uint64_t atom_apply(AtomOp op, AtomType type, uint64_t old, uint64_t b, uint64_t c) {
  const bool wide = type == AtomType::U64 || type == AtomType::S64 || type == AtomType::B64 || type == AtomType::F64;
  const uint64_t keep = wide ? ~uint64_t(0) : 0xffffffffu;
  old &= keep, b &= keep, c &= keep;
  auto sgn = [&](uint64_t v) { return wide ? int64_t(v) : int64_t(int32_t(uint32_t(v))); };
  const bool is_signed = type == AtomType::S32 || type == AtomType::S64;
  switch (op) {
    case AtomOp::Add:
      if (type == AtomType::F32) {
        float x, y;
        uint32_t ox = uint32_t(old), by = uint32_t(b);
        std::memcpy(&x, &ox, 4), std::memcpy(&y, &by, 4);
        x += y;
        std::memcpy(&ox, &x, 4);
        return ox;
      }
      if (type == AtomType::F64) {
        double x, y;
        std::memcpy(&x, &old, 8), std::memcpy(&y, &b, 8);
        x += y;
        uint64_t r;
        std::memcpy(&r, &x, 8);
        return r;
      }
      return (old + b) & keep;
    case AtomOp::Min: return is_signed ? (sgn(b) < sgn(old) ? b : old) : std::min(old, b);
    case AtomOp::Max: return is_signed ? (sgn(b) > sgn(old) ? b : old) : std::max(old, b);
    case AtomOp::Inc: return old >= b ? 0 : (old + 1) & keep;
    case AtomOp::Dec: return (old == 0 || old > b) ? b : old - 1;
    case AtomOp::And: return old & b;
    case AtomOp::Or: return old | b;
    case AtomOp::Xor: return old ^ b;
    case AtomOp::Exch: return b;
    case AtomOp::Cas: return old == b ? c : old;
  }
  return old;
}

namespace detail {

namespace {

inline uint64_t extend(const uint8_t* p, Ty t) {
  switch (t) {
    case Ty::S8: return uint64_t(int64_t(int8_t(p[0])));
    case Ty::S16: { int16_t v; std::memcpy(&v, p, 2); return uint64_t(int64_t(v)); }
    case Ty::S32: { int32_t v; std::memcpy(&v, p, 4); return uint64_t(int64_t(v)); }
    case Ty::U8: case Ty::B8: return p[0];
    case Ty::U16: case Ty::B16: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case Ty::U32: case Ty::B32: case Ty::F32: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    default: { uint64_t v; std::memcpy(&v, p, 8); return v; }
  }
}

// Copies `size` bytes (1, 2, 4, 8 or 16) with a fixed-size copy the compiler inlines.
inline void copy(uint8_t* d, const uint8_t* s, unsigned size) {
  switch (size) {
    case 4: std::memcpy(d, s, 4); break;
    case 8: std::memcpy(d, s, 8); break;
    case 1: *d = *s; break;
    case 2: std::memcpy(d, s, 2); break;
    default: std::memcpy(d, s, 16); break;
  }
}

// Bank-conflict degree of a shared access: the most distinct 32-bit words any of the 32 banks serves.
unsigned conflict_degree(const uint64_t* off, uint32_t lanes, unsigned size) {
  uint64_t keys[kWarpLanes * 4];
  unsigned n = 0, words = std::max(1u, size / 4);
  for (uint32_t r = lanes; r; r &= r - 1) {
    unsigned l = unsigned(__builtin_ctz(r));
    for (unsigned i = 0; i < words; ++i) {
      uint64_t word = (off[l] >> 2) + i;
      keys[n++] = (word & 31) << 40 | word;
    }
  }
  std::sort(keys, keys + n);
  unsigned best = n ? 1 : 0, run = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (i && keys[i] == keys[i - 1]) continue;  // the same word: a broadcast
    run = (i && (keys[i] >> 40) == (keys[i - 1] >> 40)) ? run + 1 : 1;
    best = std::max(best, run);
  }
  return best;
}

}  // namespace

void BlockState::memory(const Instr& in, WarpCtx& W, uint32_t mask) {
  const bool store = in.op == Op::St;
  const unsigned esz = ty_bytes(in.type), n = in.vec, size = esz * n;
  const unsigned w = cur_warp;
  uint64_t addr[kWarpLanes];
  const Operand& a = in.a;
  if (a.neg) {
    std::fill(addr, addr + kWarpLanes, sym_value(a));
  } else if (a.reg == kNoReg) {
    std::fill(addr, addr + kWarpLanes, uint64_t(a.imm));
  } else {
    const uint64_t* r = W.regs + size_t(a.reg) * kWarpLanes;
    HETVP_PTX_LANES(mask, addr[l] = r[l] + uint64_t(a.imm));
  }
  alignas(16) uint8_t data[kWarpLanes * 16];
  // store: gather the values
  if (store) {
    for (unsigned i = 0; i < n; ++i) {
      const Operand& v = in.b;
      uint64_t tmp[kWarpLanes];
      const uint64_t* src;
      if (v.kind == Operand::Vec) src = W.regs + size_t(m.vec_regs[v.reg + i]) * kWarpLanes;
      else src = this->src(v, W, tmp);
      HETVP_PTX_LANES(mask, copy(data + l * size + i * esz, reinterpret_cast<const uint8_t*>(&src[l]), esz));
    }
  }
  // classify lanes by the space they access
  uint32_t lanes_global = 0, lanes_shared = 0, lanes_local = 0, lanes_const = 0, lanes_param = 0;
  uint64_t off[kWarpLanes];
  switch (in.space) {
    case Space::Global: lanes_global = mask; break;
    case Space::Shared: lanes_shared = mask; HETVP_PTX_LANES(mask, off[l] = addr[l]); break;
    case Space::Local: lanes_local = mask; HETVP_PTX_LANES(mask, off[l] = addr[l]); break;
    case Space::Const: lanes_const = mask; HETVP_PTX_LANES(mask, off[l] = addr[l]); break;
    case Space::Param: lanes_param = mask; HETVP_PTX_LANES(mask, off[l] = addr[l]); break;
    case Space::Generic:
      HETVP_PTX_LANES(mask, {
        uint64_t x = addr[l];
        if (x - launch.generic_shared_base < (uint64_t(1) << 32)) lanes_shared |= 1u << l, off[l] = x - launch.generic_shared_base;
        else if (x - launch.generic_local_base < (uint64_t(1) << 32)) lanes_local |= 1u << l, off[l] = x - launch.generic_local_base;
        else if (x - launch.generic_const_base < (uint64_t(2) << 32)) lanes_const |= 1u << l, off[l] = x - launch.generic_const_base;
        else lanes_global |= 1u << l;
      });
      break;
  }
  const char* verb = store ? "store" : "load";
  auto bad = [&](uint32_t lanes, const char* what, uint64_t x, const char* sp, const std::string& tail) {
    char b[160];
    std::snprintf(b, sizeof b, "%s %s %s of %u bytes at %s address 0x%llx%s", what, sp, verb, size, sp,
                  static_cast<unsigned long long>(x), tail.c_str());
    fail(in, lanes, b);
  };
  auto check = [&](uint32_t lanes, const uint64_t* o, uint64_t limit, const char* sp) {
    for (uint32_t r = lanes; r; r &= r - 1) {
      unsigned l = unsigned(__builtin_ctz(r));
      if (o[l] % size) bad(1u << l, "misaligned", o[l], sp, "");
      if (o[l] > limit || limit - o[l] < size)
        bad(1u << l, "out-of-bounds", o[l], sp, " (the " + std::string(sp) + " window has " + std::to_string(limit) + " bytes)");
    }
  };
  if (lanes_global) {
    for (uint32_t r = lanes_global; r; r &= r - 1) {
      unsigned l = unsigned(__builtin_ctz(r));
      if (addr[l] % size) bad(1u << l, "misaligned", addr[l], "global", "");
    }
    env.mem(store, in.sys ? EnvSpace::System : EnvSpace::Global, *reinterpret_cast<const LaneArray<uint64_t>*>(addr),
            lanes_global, size, data);
  }
  if (lanes_shared) {
    check(lanes_shared, off, shared_bytes, "shared");
    HETVP_PTX_LANES(lanes_shared, {
      if (store) copy(shared.data() + off[l], data + l * size, size);
      else copy(data + l * size, shared.data() + off[l], size);
    });
    env.shared_access(store, conflict_degree(off, lanes_shared, size));
  }
  if (lanes_local) {
    check(lanes_local, off, local_bytes, "local");
    // Word-interleaved (local_address()): an access of up to 4 bytes stays inside one word of its
    // lane; an 8- or 16-byte one covers 2 or 4 of the lane's words, 128 bytes apart, so it goes to
    // the environment as one 4-byte warp access per word (the same word of every lane: one 128-byte
    // line when the lanes use the same offset).
    const uint64_t warp_base = local_address(local_base, local_bytes, uint64_t(w) * kWarpLanes, 0);
    const uint64_t row = kWarpLanes * kLocalWordBytes;
    LaneArray<uint64_t> va;
    if (size <= kLocalWordBytes) {
      HETVP_PTX_LANES(lanes_local, va[l] = warp_base + off[l] / kLocalWordBytes * row + l * kLocalWordBytes +
                                           off[l] % kLocalWordBytes);
      env.mem(store, EnvSpace::Local, va, lanes_local, size, data);
    } else {
      alignas(16) uint8_t word[kWarpLanes * kLocalWordBytes];
      for (unsigned i = 0; i < size / kLocalWordBytes; ++i) {
        const unsigned at = i * kLocalWordBytes;
        HETVP_PTX_LANES(lanes_local, {
          va[l] = warp_base + (off[l] / kLocalWordBytes + i) * row + l * kLocalWordBytes;
          if (store) std::memcpy(word + l * kLocalWordBytes, data + l * size + at, kLocalWordBytes);
        });
        env.mem(store, EnvSpace::Local, va, lanes_local, kLocalWordBytes, word);
        if (!store) HETVP_PTX_LANES(lanes_local, std::memcpy(data + l * size + at, word + l * kLocalWordBytes, kLocalWordBytes));
      }
    }
  }
  if (lanes_const) {
    for (uint32_t r = lanes_const; r; r &= r - 1) {
      unsigned l = unsigned(__builtin_ctz(r));
      uint64_t bank = off[l] >> 32, o = off[l] & 0xffffffffu;
      if (bank > 1) bad(1u << l, "out-of-bounds", off[l], "const", " (no such constant bank)");
      const auto& cb = cbank[bank];
      if (o % size) bad(1u << l, "misaligned", off[l], "const", "");
      if (o + size > cb.size())
        bad(1u << l, "out-of-bounds", off[l], "const",
            " (constant bank " + std::to_string(bank) + " has " + std::to_string(cb.size()) + " bytes)");
      std::memcpy(data + l * size, cb.data() + o, size);
    }
  }
  if (lanes_param) {
    const bool frame = a.neg && a.sym == SymKind::FrameParam;
    if (frame) {
      check(lanes_param, off, frame_bytes, "param");
      HETVP_PTX_LANES(lanes_param, {
        uint8_t* p = W.frame + size_t(l) * frame_bytes + off[l];
        if (store) std::memcpy(p, data + l * size, size);
        else std::memcpy(data + l * size, p, size);
      });
    } else {
      if (store) fail(in, lanes_param, "store to a kernel parameter");
      check(lanes_param, off, launch.params.size(), "param");
      HETVP_PTX_LANES(lanes_param, std::memcpy(data + l * size, launch.params.data() + off[l], size));
    }
  }
  if (!store) {
    for (unsigned i = 0; i < n; ++i) {
      uint32_t slot = in.d.kind == Operand::Vec ? m.vec_regs[in.d.reg + i] : in.d.reg;
      uint64_t* d = W.regs + size_t(slot) * kWarpLanes;
      HETVP_PTX_LANES(mask, d[l] = extend(data + l * size + i * esz, in.type));
    }
  }
}

void BlockState::atomic(const Instr& in, WarpCtx& W, uint32_t mask) {
  const unsigned size = ty_bytes(in.type);
  const AtomOp op = AtomOp(in.mode);
  const AtomType at = AtomType(in.atype);
  uint64_t addr[kWarpLanes];
  const Operand& a = in.a;
  if (a.neg) std::fill(addr, addr + kWarpLanes, sym_value(a));
  else if (a.reg == kNoReg) std::fill(addr, addr + kWarpLanes, uint64_t(a.imm));
  else {
    const uint64_t* r = W.regs + size_t(a.reg) * kWarpLanes;
    HETVP_PTX_LANES(mask, addr[l] = r[l] + uint64_t(a.imm));
  }
  uint64_t tb[kWarpLanes], tc[kWarpLanes];
  const uint64_t* b = src(in.b, W, tb);
  const uint64_t* c = in.c.kind != Operand::None ? src(in.c, W, tc) : tb;
  LaneArray<uint64_t> bv, cv, old{};
  HETVP_PTX_LANES(mask, (bv[l] = b[l], cv[l] = c[l]));
  uint32_t lanes_shared = 0, lanes_global = 0;
  uint64_t off[kWarpLanes];
  if (in.space == Space::Shared) {
    lanes_shared = mask;
    HETVP_PTX_LANES(mask, off[l] = addr[l]);
  } else if (in.space == Space::Global) {
    lanes_global = mask;
  } else {
    HETVP_PTX_LANES(mask, {
      uint64_t x = addr[l];
      if (x - launch.generic_shared_base < (uint64_t(1) << 32)) lanes_shared |= 1u << l, off[l] = x - launch.generic_shared_base;
      else if (x - launch.generic_local_base < (uint64_t(1) << 32) || x - launch.generic_const_base < (uint64_t(2) << 32))
        fail(in, 1u << l, "atomic on local or constant memory");
      else lanes_global |= 1u << l;
    });
  }
  for (uint32_t r = mask; r; r &= r - 1) {
    unsigned l = unsigned(__builtin_ctz(r));
    uint64_t x = (lanes_shared >> l & 1) ? off[l] : addr[l];
    if (x % size) {
      char s[120];
      std::snprintf(s, sizeof s, "misaligned %s atomic of %u bytes at address 0x%llx",
                    (lanes_shared >> l & 1) ? "shared" : "global", size, static_cast<unsigned long long>(x));
      fail(in, 1u << l, s);
    }
    if ((lanes_shared >> l & 1) && (off[l] > shared_bytes || shared_bytes - off[l] < size)) {
      char s[160];
      std::snprintf(s, sizeof s, "out-of-bounds shared atomic of %u bytes at shared address 0x%llx (the shared window "
                    "has %u bytes)", size, static_cast<unsigned long long>(off[l]), shared_bytes);
      fail(in, 1u << l, s);
    }
  }
  if (lanes_shared) {
    for (uint32_t r = lanes_shared; r; r &= r - 1) {  // lane order: same-address lanes serialize
      unsigned l = unsigned(__builtin_ctz(r));
      uint64_t v = 0;
      std::memcpy(&v, shared.data() + off[l], size);
      old[l] = v;
      v = atom_apply(op, at, v, bv[l], cv[l]);
      std::memcpy(shared.data() + off[l], &v, size);
    }
    env.shared_access(true, conflict_degree(off, lanes_shared, size));
  }
  if (lanes_global)
    env.atom(op, at, *reinterpret_cast<const LaneArray<uint64_t>*>(addr), lanes_global, size, bv, cv, old,
             in.op == Op::Atom);
  if (in.op == Op::Atom) {
    uint64_t* d = W.regs + size_t(in.d.reg) * kWarpLanes;
    HETVP_PTX_LANES(mask, d[l] = in.type == Ty::S32 ? uint64_t(int64_t(int32_t(uint32_t(old[l])))) : old[l]);
  }
}

}  // namespace detail
}  // namespace hetvp::gpu::ptx
