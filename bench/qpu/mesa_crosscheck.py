#!/usr/bin/env python3
"""Cross-check hetvp's QPU assembler against an independent disassembler: Mesa's vc4
(src/gallium/drivers/vc4/vc4_qpu_disasm.c), built OUTSIDE the project (no Mesa code is kept here).

Words: every instruction of sw/qpu/programs/*.qasm, plus N random instructions written in hetvp's
assembly syntax and assembled by `qpu_as --hex` (lines the assembler rightly refuses are skipped).
Each word is disassembled by Mesa's disassembler and by hetvp's (`qpu_as --disasm`); both texts
are brought to one canonical form (operation, condition, .setf, destination with pack, sources
with unpack, signal; load immediates: destinations, conditions, value; branches: kind only, as
that Mesa version prints no branch fields) and compared. Exit status 1 on any difference.

Building Mesa's disassembler (docs/qpu.md, "Cross-check"):
  mkdir /tmp/mesa_vc4 && cd /tmp/mesa_vc4
  # vc4_qpu_disasm.c, vc4_qpu.h, vc4_qpu_defines.h from Mesa's src/gallium/drivers/vc4 (2015-2016)
  # util/macros.h: #define ARRAY_SIZE(x) (sizeof(x)/sizeof((x)[0]))
  # util/u_math.h: static inline float uif(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
  # main.c: read hex words from stdin, vc4_qpu_disasm(&w, 1); fprintf(stderr, "\\n") for each
  gcc -std=gnu99 -I. -o mesa_disasm main.c vc4_qpu_disasm.c
Usage: mesa_crosscheck.py MESA_DISASM QPU_AS PROGRAMS_DIR [N_RANDOM] [SEED]
"""
import glob
import random
import re
import subprocess
import sys
import tempfile

MESA, QPU_AS, PROGS = sys.argv[1], sys.argv[2], sys.argv[3]
N = int(sys.argv[4]) if len(sys.argv) > 4 else 3000
rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 1)

ADD = ["fadd", "fsub", "fmin", "fmax", "fminabs", "fmaxabs", "ftoi", "itof", "add", "sub", "shr", "asr", "ror",
       "shl", "min", "max", "and", "or", "xor", "not", "clz", "v8adds", "v8subs"]
MUL = ["fmul", "mul24", "v8muld", "v8min", "v8max", "v8adds", "v8subs"]
CONDS = ["", ".ifz", ".ifnz", ".ifn", ".ifnn", ".ifc", ".ifnc"]
DSTS = ["r0", "r1", "r2", "r3", "-", "tmu0_s", "tmu1_s", "vpm", "host_int", "unif_addr", "mutex_rel", "sfu_recip",
        "sfu_exp", "r5quad", "r5rep", "vr_setup", "vw_setup", "vr_addr", "vw_addr", "tmu_noswap"] + \
       ["ra%d" % i for i in range(32)] + ["rb%d" % i for i in range(32)]
SRCS = ["r0", "r1", "r2", "r3", "r4", "r5", "unif", "elem_num", "qpu_num", "vpm", "vr_wait", "vw_wait",
        "mutex_acq"] + ["ra%d" % i for i in range(32)] + ["rb%d" % i for i in range(32)]
IMMS = [str(i) for i in range(-16, 16)] + ["1.0", "2.0", "4.0", "128.0", "0.5", "0.25", "0.00390625"]
SIGS = ["ldtmu0", "ldtmu1", "thrsw", "thrend", "sbwait", "sbdone", "lthrsw"]
PACKS = ["16a", "16b", "8888", "8a", "8b", "8c", "8d", "32s", "16as", "16bs", "8888s", "8as", "8bs", "8cs", "8ds"]
UNPACKS = ["16a", "16b", "8d_rep", "8a", "8b", "8c", "8d"]


def src():
    return rng.choice(SRCS + IMMS)


def random_line():
    k = rng.random()
    if k < 0.08:
        return "ldi%s %s, %s, 0x%08x" % (rng.choice(CONDS), rng.choice(DSTS), rng.choice(DSTS), rng.getrandbits(32))
    if k < 0.12:
        return "%s %s, %s, %d" % (rng.choice(["sacq", "srel"]), rng.choice(DSTS), rng.choice(DSTS), rng.randrange(16))
    if k < 0.15:
        return "brr%s %s, -, %d" % (rng.choice([".anyz", ".allnc", ""]), rng.choice(DSTS), rng.randrange(-64, 64) * 8)
    parts = []
    if rng.random() < 0.85:
        parts.append("%s%s%s %s, %s, %s" % (rng.choice(ADD), rng.choice(CONDS), rng.choice(["", ".setf"]),
                                             rng.choice(DSTS), src(), src()))
    else:
        parts.append("nop")
    if rng.random() < 0.6:
        parts.append("%s%s %s, %s, %s" % (rng.choice(MUL), rng.choice(CONDS), rng.choice(DSTS), src(), src()))
    if rng.random() < 0.25:
        parts.append(rng.choice(SIGS))
    r = rng.random()
    if r < 0.1:
        parts.append("unpack " + rng.choice(UNPACKS))
    elif r < 0.2:
        parts.append("pack " + rng.choice(PACKS))
    elif r < 0.25:
        parts += ["pm", "pack " + rng.choice(["8888", "8a", "8b", "8c", "8d"])]
    elif r < 0.3:
        parts += ["pm", "unpack " + rng.choice(UNPACKS)]
    return " ; ".join(parts)


def assemble(text):
    with tempfile.NamedTemporaryFile("w", suffix=".qasm", delete=False) as f:
        f.write(text)
    r = subprocess.run([QPU_AS, "--hex", f.name], capture_output=True, text=True)
    return r.stdout.split() if r.returncode == 0 else None


words = []
for p in sorted(glob.glob(PROGS + "/*.qasm")):
    words += assemble(open(p).read())
programs = len(set(words))
lines = [random_line() for _ in range(N)]
accepted = 0
for i in range(0, N, 200):  # assemble in batches; a batch with a refused line is split up
    batch = lines[i:i + 200]
    w = assemble("\n".join(batch) + "\n")
    if w is not None:
        words += w
        accepted += len(batch)
        continue
    for l in batch:
        w = assemble(l + "\n")
        if w is not None:
            words += w
            accepted += 1
words = sorted(set(words))

mesa = subprocess.run([MESA], input="\n".join(words) + "\n", capture_output=True, text=True).stderr.splitlines()
mesa = [l for l in mesa if l.strip()]  # that version prints "branch\n" itself
mine = subprocess.run([QPU_AS, "--disasm"], input="\n".join(words) + "\n", capture_output=True,
                      text=True).stdout.splitlines()
assert len(mesa) == len(words) == len(mine), (len(mesa), len(words), len(mine))

M_COND = {"": "", ".never": "never", ".zs": "ifz", ".zc": "ifnz", ".ns": "ifn", ".nc": "ifnn", ".cs": "ifc",
          ".cc": "ifnc"}
M_SIG = {"sig_brk": "bkpt", "sig_switch": "thrsw", "sig_end": "thrend", "sig_wait_score": "sbwait",
         "sig_unlock_score": "sbdone", "sig_thread_switch": "lthrsw", "load_tmu0": "ldtmu0", "load_tmu1": "ldtmu1",
         "sig_small_imm": ""}
M_NAME = {"uni": "unif", "elem": "elem_num", "qpu": "qpu_num", "nop": "-", "vpm_read": "vpm", "vpm_ld_busy": "vr_busy",
          "vpm_ld_wait": "vr_wait", "vpm_st_busy": "vw_busy", "vpm_st_wait": "vw_wait", "x_pix": "x_coord",
          "y_pix": "y_coord", "uniforms_addr": "unif_addr", "mutex_release": "mutex_rel",
          "tlb_stencil_setup": "tlb_stencil", "r5quad": "r5", "r5rep": "r5"}
PACK_M = {"32s": "sat", "16as": "16a.sat", "16bs": "16b.sat", "8888s": "8888.sat", "8as": "8a.sat", "8bs": "8b.sat",
          "8cs": "8c.sat", "8ds": "8d.sat"}


def num(s):
    try:
        return repr(float(s))
    except ValueError:
        return None


MESA_SMALL_DEN = {256: 40, 128: 41, 85: 42, 64: 43, 51: 44, 42: 45, 36: 46, 32: 47}


def imm_code(s, mesa):
    """A float small immediate as its code 32..47. That Mesa version prints codes 42..47 through
    1.0 / (256 / (code - 39)) (a bug fixed later in Mesa: the guide's values are 2^(code-48)), so
    its text is mapped back through that formula; hetvp prints the guide's values."""
    v = float(s)
    if v >= 1.0:
        return "imm%d" % (32 + round(__import__("math").log2(v)))
    if mesa:
        return "imm%d" % MESA_SMALL_DEN[round(1.0 / v)]
    return "imm%d" % (48 + round(__import__("math").log2(v)))


def name(s, mesa=False):
    s = M_NAME.get(s, s)
    if "." in s and num(s) is not None:
        return imm_code(s, mesa)
    n = num(s)
    return n if n is not None else s


def canon_mesa(t):
    t = t.strip()
    if t == "branch":
        return "branch"
    if t.startswith("load_imm "):
        m = re.match(r"load_imm (\S+?), (\S+?), 0x([0-9a-f]+)", t)
        def d(x):
            for c in sorted(M_COND, key=len, reverse=True):
                if c and x.endswith(c):
                    return name(x[: -len(c)]), M_COND[c]
            return name(x), ""
        (a, ca), (b, cb) = d(m.group(1)), d(m.group(2))
        return "ldi %s%s %s%s %s" % (a, "." + ca if ca and a != "-" else "", b, "." + cb if cb and b != "-" else "",
                                     int(m.group(3), 16))
    sig = ""
    first = t.split(" ", 1)[0]
    if first in M_SIG:
        sig = M_SIG[first]
        t = t.split(" ", 1)[1]
    out = []
    for part, alu in zip(t.split(" ; "), ("add", "mul")):
        op_s, rest = part.split(" ", 1)
        toks = op_s.split(".")
        op, sf, cond = toks[0], ".sf" in op_s, ""
        for c in M_COND:
            if c and op_s.endswith(c):
                cond = M_COND[c]
        ops = [x.strip() for x in rest.split(",")]
        dst = ops[0].rstrip(".")
        dname, _, dpack = dst.partition(".")
        dst = name(dname) + ("." + dpack if dpack else "")
        srcs = []
        for s in ops[1:]:
            b, _, up = s.partition(".")
            if num(s) is not None:  # a float immediate: its dot is not an unpack
                b, up = s, ""
            up = {"f16a": "16a", "f16b": "16b"}.get(up, up)  # that version's names of the 16-bit unpacks
            srcs.append(name(b, True) + ("." + up if up and (b.startswith("ra") or b == "r4") else ""))
        if op == "mov":
            op = "or" if alu == "add" else "v8min"
            srcs = [srcs[0], srcs[0]]
        if op == "nop":
            out.append("%s:nop %s%s" % (alu, dst, " sf" if sf else ""))
        else:
            out.append("%s:%s.%s%s %s %s" % (alu, op, cond, " sf" if sf else "", dst, " ".join(srcs)))
    return " | ".join(out) + (" | " + sig if sig else "")


def canon_mine(t):
    t = t.split("  #")[0].strip()
    parts = t.split(" ; ")
    mods = parts[1:]
    word = parts[0].split(" ", 1)[0]
    if word.startswith("brr") or word.startswith("bra"):
        return "branch"
    ws = "ws" in mods
    pm = "pm" in mods
    pack = next((m.split()[1] for m in mods if m.startswith("pack ")), "")
    unpack = next((m.split()[1] for m in mods if m.startswith("unpack ")), "")
    mcond = next((m.split()[1] for m in mods if m.startswith("mcond ")), "")
    if word.split(".")[0] in ("ldi", "sacq", "srel"):
        head, rest = parts[0].split(" ", 1)
        toks = head.split(".")
        cond = next((x for x in toks[1:] if x.startswith("if") or x == "never"), "")
        a, b, v = [x.strip() for x in rest.split(",")]
        a, b = name(a), name(b)
        val = int(v, 16) if toks[0] == "ldi" else int(v) | (16 if toks[0] == "sacq" else 0)
        mc = "" if mcond in ("", "always") else mcond
        return "ldi %s%s %s%s %s" % (a, "." + cond if cond and a != "-" else "", b, "." + mc if mc and b != "-" else "",
                                     val)
    sig = ""
    for m in mods:
        if m in ("ldtmu0", "ldtmu1", "thrsw", "thrend", "sbwait", "sbdone", "lthrsw", "bkpt"):
            sig = m
    alu = [parts[0]]
    if mods and mods[0].split(" ")[0].split(".")[0] in MUL:
        alu.append(mods[0])
    else:
        alu.append("nop")
    out = []
    for part, kind in zip(alu, ("add", "mul")):
        is_mul = kind == "mul"
        is_a = ws if is_mul else not ws
        op_s = part.split(" ", 1)[0]
        toks = op_s.split(".")
        op, sf = toks[0], "setf" in toks
        cond = next((x for x in toks[1:] if x.startswith("if") or x == "never"), "")
        if op == "nop" and " " not in part:
            dst = "-"
            if pack and ((pm and is_mul) or (not pm and is_a)):
                dst += "." + PACK_M.get(pack, pack)
            out.append("%s:nop %s%s" % (kind, dst, " sf" if sf else ""))
            continue
        ops = [x.strip() for x in part.split(" ", 1)[1].split(",")]
        dst = name(ops[0])
        if pack and ((pm and is_mul) or (not pm and is_a)):
            dst += "." + PACK_M.get(pack, pack)
        srcs = []
        for s in ops[1:]:
            srcs.append(name(s) + ("." + unpack if unpack and ((s.startswith("ra") and not pm) or (s == "r4" and pm))
                                   else ""))
        if op == "nop":
            out.append("%s:nop %s%s" % (kind, dst, " sf" if sf else ""))
        else:
            out.append("%s:%s.%s%s %s %s" % (kind, op, cond, " sf" if sf else "", dst, " ".join(srcs)))
    # Mesa shows .sf on the mul ALU when the add ALU is a nop
    if out[0].startswith("add:nop") and out[0].endswith(" sf"):
        out[0] = out[0][:-3]
        out[1] += " sf"
    return " | ".join(out) + (" | " + sig if sig else "")


bad = 0
for w, a, b in zip(words, mesa, mine):
    ca, cb = canon_mesa(a), canon_mine(b)
    if ca != cb:
        bad += 1
        if bad <= 20:
            print("DIFF %s\n  mesa : %s\n  hetvp: %s\n  canon: %s\n       : %s" % (w, a, b, ca, cb))
print("%d words (%d from sw/qpu/programs, %d of %d random lines accepted): %d agree with Mesa's vc4 "
      "disassembler, %d differ" % (len(words), programs, accepted, N, len(words) - bad, bad))
sys.exit(1 if bad else 0)
