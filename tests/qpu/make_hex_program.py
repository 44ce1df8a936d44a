#!/usr/bin/env python3
"""Writes a QPU program as a Pi project ships it (a .hex file of comma-separated 32-bit words, the
low word of each instruction first), its input data and the expected output, without hetvp's
assembler: every instruction is encoded here by hand from the VideoCore IV 3D Architecture
Reference Guide's ALU instruction format (section 3, figure 4). Used by tests/qpu/test_qpu_pi.cpp.

The program (per QPU; uniforms: src, dst, VPM write setup, VDW setup):
    y[i] = x[i] < 0 ? x[i] + 2.0 : x[i] * 2.0   for the 16 elements,
with the add and the mul ALU both writing r2 under complementary conditions (ifn / ifnn).

usage: make_hex_program.py OUTDIR QPUS
"""
import struct
import sys

NOP_W, NOP_R = 39, 39
SIG_NONE, SIG_THREND, SIG_LDTMU0, SIG_SMALL_IMM = 1, 3, 10, 13
NEVER, ALWAYS, NS, NC = 0, 1, 4, 5
A_FADD, A_ADD, A_SHL, A_OR = 1, 12, 17, 21
M_FMUL = 1
R0, R1, R2, R4, MUX_A, MUX_B = 0, 1, 2, 4, 6, 7
W_R0, W_R1, W_R2 = 32, 33, 34
W_VPM, W_VPM_SETUP, W_VPM_ADDR, W_TMU0_S = 48, 49, 50, 56
RA_UNIF, RA_ELEM, RB_VPM_WAIT = 32, 38, 50


def alu(sig=SIG_NONE, cond_add=NEVER, cond_mul=NEVER, sf=0, ws=0, waddr_add=NOP_W, waddr_mul=NOP_W, op_mul=0,
        op_add=0, raddr_a=NOP_R, raddr_b=NOP_R, add_a=0, add_b=0, mul_a=0, mul_b=0):
    return (sig << 60 | cond_add << 49 | cond_mul << 46 | sf << 45 | ws << 44 | waddr_add << 38 | waddr_mul << 32
            | op_mul << 29 | op_add << 24 | raddr_a << 18 | raddr_b << 12 | add_a << 9 | add_b << 6 | mul_a << 3
            | mul_b)


def mov_a(waddr, raddr_a, ws=0):  # or waddr, raddr_a, raddr_a (add ALU)
    return alu(cond_add=ALWAYS, ws=ws, waddr_add=waddr, op_add=A_OR, raddr_a=raddr_a, add_a=MUX_A, add_b=MUX_A)


def mov_acc(waddr, acc, sf=0):
    return alu(cond_add=ALWAYS, sf=sf, waddr_add=waddr, op_add=A_OR, add_a=acc, add_b=acc)


NOP = alu()
program = [
    mov_a(1, RA_UNIF),                    # mov ra1, unif   (src)
    mov_a(2, RA_UNIF),                    # mov ra2, unif   (dst)
    mov_a(3, RA_UNIF),                    # mov ra3, unif   (VPM write setup)
    mov_a(4, RA_UNIF),                    # mov ra4, unif   (VDW setup)
    mov_a(W_R0, RA_ELEM),                 # mov r0, elem_num
    alu(sig=SIG_SMALL_IMM, cond_add=ALWAYS, waddr_add=W_R0, op_add=A_SHL, raddr_b=2, add_a=R0, add_b=MUX_B),  # shl r0, r0, 2
    alu(cond_add=ALWAYS, waddr_add=W_R1, op_add=A_ADD, raddr_a=1, add_a=MUX_A, add_b=R0),  # add r1, ra1, r0
    mov_acc(W_TMU0_S, R1),                # mov tmu0_s, r1
    alu(sig=SIG_LDTMU0),                  # nop ; ldtmu0
    mov_acc(NOP_W, R4, sf=1),             # mov.setf -, r4    (N: x < 0)
    # fadd.ifn r2, r4, 2.0 ; fmul.ifnn r2, r4, 2.0   (small immediate 33 = 2.0)
    alu(sig=SIG_SMALL_IMM, cond_add=NS, cond_mul=NC, waddr_add=W_R2, waddr_mul=W_R2, op_add=A_FADD, op_mul=M_FMUL,
        raddr_b=33, add_a=R4, add_b=MUX_B, mul_a=R4, mul_b=MUX_B),
    mov_a(W_VPM_SETUP, 3, ws=1),          # mov vw_setup, ra3  (regfile B address 49 via write swap)
    mov_acc(W_VPM, R2),                   # mov vpm, r2
    mov_a(W_VPM_SETUP, 4, ws=1),          # mov vw_setup, ra4
    mov_a(W_VPM_ADDR, 2, ws=1),           # mov vw_addr, ra2
    alu(raddr_b=RB_VPM_WAIT),             # read vw_wait
    alu(sig=SIG_THREND),                  # nop ; thrend
    NOP,
    NOP,
]


def main():
    out, qpus = sys.argv[1], int(sys.argv[2])
    with open(out + "/prog.hex", "w") as f:
        f.write("// y = x < 0 ? x + 2 : 2 x, hand-encoded by tests/qpu/make_hex_program.py\n")
        for w in program:
            f.write("0x%08x, 0x%08x,\n" % (w & 0xffffffff, w >> 32))
    with open(out + "/prog.bin", "wb") as f:
        for w in program:
            f.write(struct.pack("<Q", w))
    xs = [(i - 8) * 0.5 + q for q in range(qpus) for i in range(16)]
    with open(out + "/in.bin", "wb") as f:
        f.write(struct.pack("<%df" % len(xs), *xs))
    ys = [x + 2.0 if x < 0 else x * 2.0 for x in xs]
    with open(out + "/expected.bin", "wb") as f:
        f.write(struct.pack("<%df" % len(ys), *ys))
    streams = []
    for q in range(qpus):
        vpm = 0x1a00 | q
        vdw = 0x80000000 | 1 << 23 | 16 << 16 | 1 << 14 | q << 7
        streams.append("@in+%d,@out+%d,0x%x,0x%x" % (64 * q, 64 * q, vpm, vdw))
    with open(out + "/uniforms.txt", "w") as f:
        f.write(";".join(streams))


if __name__ == "__main__":
    main()
