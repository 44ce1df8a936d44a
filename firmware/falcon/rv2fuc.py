#!/usr/bin/env python3
"""rv2fuc — translate GCC's RV32E assembly (-march=rv32e -mabi=ilp32e -S) into Falcon v3 assembly
(envyas syntax, assembled by `hetvp falcon-as`). docs/firmware_falcon.md describes the scheme.

No C compiler targets the Falcon. RV32E has 16 registers like the Falcon, so GCC's register
allocation carries over one to one; this tool only rewrites instructions, sections and symbols.
Written in Python (Debian's python3, already a build dependency): a text-to-text build step that
needs no binary of its own in the simulator.

Usage: rv2fuc.py --start START.fuc [--asm RT.fuc]... --stack-top N [--keep SYM]... --name NAME -o OUT.fuc FILE.s...

Register mapping (RV32E x -> Falcon):
  x0 zero -> $r0  (the start file clears it; nothing else writes it)
  x1 ra   -> $r1  (a Falcon `call` pushes the return address: every function pops it into $r1 on
                   entry and `ret` pushes it back first, so GCC's own saves of ra keep working)
  x2 sp   -> $sp  (the Falcon stack pointer; both stacks grow down in data memory)
  x5..x15 -> $r5..$r15 (t0-t2, s0-s1, a0-a5: the same numbers)
  $r2..$r4: scratch for the translation (RV32E's gp/tp are never allocated by GCC).
Harvard: code and data are separate address spaces starting at 0. `%hi(S)` is 0 and `%lo(S)` the
whole address (every address of a GF100 controller fits 16 bits), so `lui/addi` and `lui/lw` pairs
stay correct wherever GCC schedules them. Sections: .text* -> the code segment; .rodata*, .data*,
.sdata*, .bss*, .sbss* -> the data segment (bss as zeros, uploaded with the image). Sections no root
reaches (GCC's -ffunction-sections/-fdata-sections units) are dropped, as the linker's --gc-sections
does for the RV32 images.
"""
import argparse
import re
import sys

REGS = {'zero': 0, 'ra': 1, 'sp': 2, 'gp': 3, 'tp': 4, 't0': 5, 't1': 6, 't2': 7, 's0': 8, 'fp': 8,
        's1': 9, 'a0': 10, 'a1': 11, 'a2': 12, 'a3': 13, 'a4': 14, 'a5': 15}
for _i in range(16):
    REGS['x%d' % _i] = _i
SP = 2
SCRATCH = '$r2'
SCRATCH2 = '$r3'


class TranslateError(Exception):
    pass


def sanitize(name):
    return re.sub(r'[^A-Za-z0-9_]', '_', name)


class Unit:
    """One input .s file: its chunks (one per section switch) and which symbols are global."""

    def __init__(self, path, index):
        self.path = path
        self.index = index
        self.globals = set()
        self.functions = set()
        self.weak = set()


class Chunk:
    def __init__(self, unit, section, kind):
        self.unit = unit
        self.section = section
        self.kind = kind  # 'code' or 'data'
        self.lines = []  # (lineno, text)
        self.defines = []
        self.out = []
        self.refs = set()


AT0_SECTION = '.data.hetvp_at0'  # placed at data address 0 (emit)


def section_kind(name):
    if name.startswith('.text'):
        return 'code'
    if re.match(r'\.(s?rodata|s?data|s?bss|tbss|tdata)', name):
        return 'data'
    if name.startswith(('.note', '.comment', '.debug', '.riscv')):
        return None
    raise TranslateError('unsupported section %s' % name)


def split_operands(s):
    out, depth, cur = [], 0, ''
    for ch in s:
        if ch == '(':
            depth += 1
        elif ch == ')':
            depth -= 1
        if ch == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


class Translator:
    def __init__(self):
        self.units = []
        self.chunks = []
        self.label_seq = 0

    # ---- parsing ---------------------------------------------------------------------------------
    def load(self, path):
        unit = Unit(path, len(self.units))
        self.units.append(unit)
        with open(path) as f:
            lines = f.read().split('\n')
        chunk = None
        # first pass: globals (a .globl may come after the definition)
        for raw in lines:
            t = raw.split('#', 1)[0].strip() if not raw.strip().startswith('.string') else raw.strip()
            m = re.match(r'\.(globl|weak)\s+(\S+)', t)
            if m:
                unit.globals.add(m.group(2))
                if m.group(1) == 'weak':
                    unit.weak.add(sanitize(m.group(2)))
            m = re.match(r'\.type\s+([^,\s]+)\s*,\s*@function', t)
            if m:
                unit.functions.add(m.group(1))
        for no, raw in enumerate(lines, 1):
            t = raw.strip()
            if not t or t.startswith('#'):
                continue
            m = re.match(r'\.(text|data|bss|section)\b\s*([^,\s]*)', t)
            if m:
                name = m.group(2) if m.group(1) == 'section' else '.' + m.group(1)
                try:
                    kind = section_kind(name)
                except TranslateError as e:
                    raise TranslateError('%s:%d: %s' % (path, no, e))
                chunk = Chunk(unit, name, kind) if kind else None
                if chunk:
                    self.chunks.append(chunk)
                continue
            if chunk is None:
                continue
            chunk.lines.append((no, t))

    def sym(self, unit, name):
        """The output name of symbol `name` as seen from `unit`."""
        if name.startswith('.L'):
            return 'L%d_%s' % (unit.index, sanitize(name[2:]))
        if name in unit.globals or unit.index < 0:
            return sanitize(name)
        if any(name in u.globals for u in self.units):
            # a reference to another unit's global (an undefined symbol here is an extern)
            return sanitize(name)
        if name in self.defined_locals[unit.index]:
            return 'f%d_%s' % (unit.index, sanitize(name))
        return sanitize(name)

    def expr(self, unit, chunk, e):
        """A symbolic expression (sym, sym+4, sym-8, 12) -> envyas text; records references."""
        e = e.strip()
        if re.fullmatch(r'-?(0x[0-9a-fA-F]+|\d+)', e):
            return str(int(e, 0))
        m = re.fullmatch(r'([A-Za-z_.$][\w.$]*)\s*([+-]\s*(0x[0-9a-fA-F]+|\d+))?', e)
        if not m:
            raise TranslateError('unsupported expression "%s"' % e)
        s = self.sym(unit, m.group(1))
        chunk.refs.add(s)
        off = int(m.group(2).replace(' ', ''), 0) if m.group(2) else 0
        return '#%s' % s + ('' if off == 0 else (' + %d' % off if off > 0 else ' - %d' % -off))

    # ---- instructions ----------------------------------------------------------------------------
    def reg(self, r):
        if r not in REGS:
            raise TranslateError('unknown register %s' % r)
        n = REGS[r]
        if n == SP:
            return '$sp'
        if n in (3, 4):
            raise TranslateError('register %s (gp/tp) has no Falcon mapping' % r)
        return '$r%d' % n

    def new_label(self):
        self.label_seq += 1
        return 'T_%d' % self.label_seq

    def imm(self, s):
        return int(s, 0)

    def is_lo(self, s):
        return s.startswith('%lo(')

    def lo_expr(self, unit, chunk, s):
        m = re.fullmatch(r'%lo\((.*)\)', s)
        return self.expr(unit, chunk, m.group(1))

    def li(self, rd, v):
        v &= 0xffffffff
        sv = v - (1 << 32) if v & 0x80000000 else v
        if -0x8000 <= sv <= 0x7fff:
            return ['mov %s %d' % (rd, sv)]
        lo = v & 0xffff
        lo = lo - 0x10000 if lo & 0x8000 else lo
        return ['mov %s %d' % (rd, lo), 'sethi %s 0x%x' % (rd, v & 0xffff0000)]

    def add_imm(self, rd, rs, val):
        """rd = rs + val for general registers (rd, rs not $sp); val an int or '#sym' text."""
        if isinstance(val, str):
            return ['add b32 %s %s %s' % (rd, rs, val)]
        if val == 0:
            return [] if rd == rs else ['mov b32 %s %s' % (rd, rs)]
        if 0 < val <= 0xffff:
            return ['add b32 %s %s %d' % (rd, rs, val)]
        if -0xffff <= val < 0:
            return ['sub b32 %s %s %d' % (rd, rs, -val)]
        return self.li(SCRATCH2, val) + ['add b32 %s %s %s' % (rd, rs, SCRATCH2)]

    def address(self, unit, chunk, mem, size):
        """'off(base)' -> the Falcon memory operand, plus the instructions that compute it."""
        m = re.fullmatch(r'(.*)\((\w+)\)', mem)
        if not m:
            raise TranslateError('unsupported memory operand %s' % mem)
        off_s, base = m.group(1).strip() or '0', m.group(2)
        b = self.reg(base)
        if self.is_lo(off_s):
            off = self.lo_expr(unit, chunk, off_s)
        else:
            off = self.imm(off_s)
        scale = {1: 1, 2: 2, 4: 4}[size]
        if isinstance(off, int) and off >= 0 and off % scale == 0 and off // scale <= 0xff:
            return [], 'D[%s + %d]' % (b, off) if off else 'D[%s]' % b
        pre = []
        if b == '$sp':
            pre.append('mov %s $sp' % SCRATCH)
            pre += self.add_imm(SCRATCH, SCRATCH, off)
        else:
            pre += self.add_imm(SCRATCH, b, off)
        return pre, 'D[%s]' % SCRATCH

    def set_cond(self, rd, a, b, cond):
        """rd = (a cond b) ? 1 : 0 through a compare and a branch (the Falcon has no set-on-compare)."""
        lab = self.new_label()
        return ['cmp b32 %s %s' % (a, b), 'mov %s 1' % rd, 'bra %s #%s' % (cond, lab), 'mov %s 0' % rd, '%s:' % lab]

    def insn(self, unit, chunk, op, ops):
        R = self.reg
        BR = {'beq': 'e', 'bne': 'ne', 'blt': 'l', 'bge': 'ge', 'bltu': 'c', 'bgeu': 'nc'}
        SWAP = {'bgt': 'blt', 'ble': 'bge', 'bgtu': 'bltu', 'bleu': 'bgeu'}
        ZBR = {'beqz': 'e', 'bnez': 'ne', 'bltz': 'l', 'bgez': 'ge', 'blez': 'le', 'bgtz': 'g'}
        ALU3 = {'add': 'add b32', 'sub': 'sub b32', 'and': 'and', 'or': 'or', 'xor': 'xor',
                'sll': 'shl b32', 'srl': 'shr b32', 'sra': 'sar b32'}
        SHI = {'slli': 'shl b32', 'srli': 'shr b32', 'srai': 'sar b32'}
        LOGI = {'andi': 'and', 'ori': 'or', 'xori': 'xor'}
        LD = {'lw': (4, False), 'lh': (2, True), 'lhu': (2, False), 'lb': (1, True), 'lbu': (1, False)}
        ST = {'sw': 4, 'sh': 2, 'sb': 1}
        SZ = {1: 'b8', 2: 'b16', 4: 'b32'}

        def target(t):
            return self.expr(unit, chunk, t)

        def dst(r):  # writes to x0 are dropped
            return None if REGS.get(r) == 0 else R(r)

        if op == 'nop':
            return []
        if op in SWAP:
            op, ops = SWAP[op], [ops[1], ops[0], ops[2]]
        if op in BR:
            return ['cmp b32 %s %s' % (R(ops[0]), R(ops[1])), 'bra %s %s' % (BR[op], target(ops[2]))]
        if op in ZBR:
            return ['cmp b32 %s 0' % R(ops[0]), 'bra %s %s' % (ZBR[op], target(ops[1]))]
        if op == 'j':
            return ['bra %s' % target(ops[0])]
        if op in ('ret',) or (op == 'jr' and ops[0] == 'ra'):
            return ['push $r1', 'ret']
        if op == 'jr':
            return ['bra %s' % R(ops[0])]
        if op == 'call':
            return ['call %s' % target(ops[-1])]
        if op == 'tail':
            return ['push $r1', 'bra %s' % target(ops[0])]
        if op == 'jalr':
            # jalr rs | jalr rd, rs | jalr rd, 0(rs) | jalr rd, rs, 0
            if len(ops) == 1:
                rd, rs = 'ra', ops[0]
            else:
                rd, rs = ops[0], re.sub(r'^0?\((\w+)\)$', r'\1', ops[1])
            if rd == 'ra':
                return ['call %s' % R(rs)]
            if rd == 'zero':
                return ['push $r1', 'ret'] if rs == 'ra' else ['bra %s' % R(rs)]
            raise TranslateError('jalr with link register %s' % rd)
        if op == 'jal':
            if len(ops) == 1 or ops[0] == 'ra':
                return ['call %s' % target(ops[-1])]
            if ops[0] == 'zero':
                return ['bra %s' % target(ops[1])]
            raise TranslateError('jal with link register %s' % ops[0])
        if op in LD:
            size, signed = LD[op]
            rd = dst(ops[0])
            pre, mem = self.address(unit, chunk, ops[1], size)
            if rd is None:
                return []
            out = pre + ['ld %s %s %s' % (SZ[size], rd, mem)]
            # a b8/b16 load writes only the register's low part: extend it over the rest
            if signed:
                out.append('sext %s %d' % (rd, size * 8 - 1))
            elif size < 4:
                out.append('and %s %s 0x%x' % (rd, rd, (1 << (8 * size)) - 1))
            return out
        if op in ST:
            pre, mem = self.address(unit, chunk, ops[1], ST[op])
            return pre + ['st %s %s %s' % (SZ[ST[op]], mem, R(ops[0]))]
        if op in ('li',):
            rd = dst(ops[0])
            return [] if rd is None else self.li(rd, self.imm(ops[1]))
        if op == 'lui':
            rd = dst(ops[0])
            if rd is None:
                return []
            if ops[1].startswith('%hi('):
                self.expr(unit, chunk, ops[1][4:-1])  # the reference keeps its section alive
                return ['mov %s 0' % rd]
            return self.li(rd, self.imm(ops[1]) << 12)
        if op in ('la', 'lla'):
            return ['mov %s %s' % (R(ops[0]), self.expr(unit, chunk, ops[1]))]
        if op == 'mv':
            rd, rs = R(ops[0]), R(ops[1])
            if rd == '$sp' or rs == '$sp':
                return ['mov %s %s' % (rd, rs)]
            return ['mov b32 %s %s' % (rd, rs)]
        if op == 'addi':
            rd, rs = R(ops[0]), R(ops[1])
            val = self.lo_expr(unit, chunk, ops[2]) if self.is_lo(ops[2]) else self.imm(ops[2])
            if rd == '$sp' and rs == '$sp' and isinstance(val, int) and -0x8000 <= val <= 0x7fff:
                return ['add $sp %d' % val] if val else []
            if rs == '$sp':
                out = ['mov %s $sp' % (SCRATCH if rd == '$sp' else rd)]
                t = SCRATCH if rd == '$sp' else rd
                out += self.add_imm(t, t, val)
                if rd == '$sp':
                    out.append('mov $sp %s' % SCRATCH)
                return out
            if rd == '$sp':
                return self.add_imm(SCRATCH, rs, val) + ['mov $sp %s' % SCRATCH]
            if ops[0] == 'zero':
                return []
            return self.add_imm(rd, rs, val)
        if op in ALU3:
            rd = dst(ops[0])
            if rd is None:
                return []
            if op == 'add' and '$sp' in (rd, R(ops[1]), R(ops[2])):
                a, b = R(ops[1]), R(ops[2])
                out = []
                if a == '$sp':
                    out.append('mov %s $sp' % SCRATCH)
                    a = SCRATCH
                if b == '$sp':
                    out.append('mov %s $sp' % SCRATCH)
                    b = SCRATCH
                if rd == '$sp':
                    return out + ['add b32 %s %s %s' % (SCRATCH, a, b), 'mov $sp %s' % SCRATCH]
                return out + ['add b32 %s %s %s' % (rd, a, b)]
            return ['%s %s %s %s' % (ALU3[op], rd, R(ops[1]), R(ops[2]))]
        if op in SHI:
            rd = dst(ops[0])
            return [] if rd is None else ['%s %s %s %d' % (SHI[op], rd, R(ops[1]), self.imm(ops[2]) & 31)]
        if op in LOGI:
            rd = dst(ops[0])
            if rd is None:
                return []
            v = self.imm(ops[2])
            if op == 'xori' and v == -1:
                return ['not b32 %s %s' % (rd, R(ops[1]))]
            if 0 <= v <= 0xffff:
                return ['%s %s %s %d' % (LOGI[op], rd, R(ops[1]), v)]
            return self.li(SCRATCH, v) + ['%s %s %s %s' % (LOGI[op], rd, R(ops[1]), SCRATCH)]
        if op == 'not':
            return ['not b32 %s %s' % (R(ops[0]), R(ops[1]))]
        if op == 'neg':
            return ['neg b32 %s %s' % (R(ops[0]), R(ops[1]))]
        if op in ('sgt', 'sgtu'):
            op, ops = 'slt' if op == 'sgt' else 'sltu', [ops[0], ops[2], ops[1]]
        if op in ('slt', 'sltu'):
            return self.set_cond(R(ops[0]), R(ops[1]), R(ops[2]), 'l' if op == 'slt' else 'c')
        if op in ('slti', 'sltiu'):
            return self.set_cond(R(ops[0]), R(ops[1]), str(self.imm(ops[2])), 'l' if op == 'slti' else 'c')
        if op == 'seqz':
            return self.set_cond(R(ops[0]), R(ops[1]), '0', 'e')
        if op == 'snez':
            return self.set_cond(R(ops[0]), R(ops[1]), '0', 'ne')
        if op == 'sltz':
            return self.set_cond(R(ops[0]), R(ops[1]), '0', 'l')
        if op == 'sgtz':
            return self.set_cond(R(ops[0]), R(ops[1]), '0', 'g')
        raise TranslateError('instruction "%s" has no Falcon translation (rv32e without M/C only)' % op)

    # ---- data ------------------------------------------------------------------------------------
    def data(self, unit, chunk, d, rest):
        if d in ('.word', '.4byte', '.long'):
            return ['.b32 %s' % self.expr(unit, chunk, x) for x in split_operands(rest)]
        if d in ('.half', '.2byte', '.short'):
            return ['.b16 %s' % self.expr(unit, chunk, x) for x in split_operands(rest)]
        if d in ('.byte',):
            return ['.b8 %s' % ' '.join(str(int(x, 0) & 0xff) for x in split_operands(rest))]
        if d in ('.zero', '.skip', '.space'):
            n = int(split_operands(rest)[0], 0)
            return ['.skip %d' % n] if n else []
        if d in ('.string', '.asciz', '.ascii'):
            b = bytes(eval(rest.strip()), 'latin-1') if False else self.cstring(rest.strip())
            if d != '.ascii':
                b += b'\0'
            return ['.b8 %s' % ' '.join(str(x) for x in b[i:i + 16]) for i in range(0, len(b), 16)]
        raise TranslateError('unsupported data directive %s' % d)

    @staticmethod
    def cstring(s):
        if not (s.startswith('"') and s.endswith('"')):
            raise TranslateError('unsupported string %s' % s)
        s = s[1:-1]
        out, i = bytearray(), 0
        esc = {'n': 10, 't': 9, 'r': 13, '\\': 92, '"': 34, "'": 39, 'a': 7, 'b': 8, 'f': 12, 'v': 11}
        while i < len(s):
            c = s[i]
            if c == '\\':
                i += 1
                c = s[i]
                if c in esc:
                    out.append(esc[c])
                    i += 1
                elif c in '01234567':
                    j = i
                    while j < len(s) and j < i + 3 and s[j] in '01234567':
                        j += 1
                    out.append(int(s[i:j], 8) & 0xff)
                    i = j
                elif c == 'x':
                    j = i + 1
                    while j < len(s) and s[j] in '0123456789abcdefABCDEF':
                        j += 1
                    out.append(int(s[i + 1:j], 16) & 0xff)
                    i = j
                else:
                    raise TranslateError('unsupported escape \\%s' % c)
            else:
                out.append(ord(c))
                i += 1
        return bytes(out)

    # ---- driver ----------------------------------------------------------------------------------
    def translate(self):
        self.defined_locals = {}
        for u in self.units:
            names = set()
            for c in self.chunks:
                if c.unit is u:
                    for _, t in c.lines:
                        m = re.match(r'([A-Za-z_.$][\w.$]*):', t)
                        if m and not m.group(1).startswith('.L'):
                            names.add(m.group(1))
            self.defined_locals[u.index] = names - u.globals
        for c in self.chunks:
            u = c.unit
            for no, t in c.lines:
                try:
                    self.line(u, c, t)
                except TranslateError as e:
                    raise TranslateError('%s:%d: %s' % (u.path, no, e))

    def line(self, u, c, t):
        m = re.match(r'([A-Za-z_.$][\w.$]*):\s*(.*)$', t)
        if m:
            name = self.sym(u, m.group(1))
            c.defines.append(name)
            c.out.append('%s:' % name)
            if m.group(1) in u.functions:
                c.out.append('pop $r1')
            if m.group(2):
                self.line(u, c, m.group(2))
            return
        parts = t.split(None, 1)
        op, rest = parts[0], parts[1] if len(parts) > 1 else ''
        if op.startswith('.'):
            if op in ('.align', '.p2align', '.balign'):
                n = int(split_operands(rest)[0], 0)
                if c.kind == 'data':
                    c.out.append('.align %d' % (n if op == '.balign' else 1 << n))
                return
            if op in ('.globl', '.global', '.type', '.size', '.file', '.ident', '.option', '.attribute',
                      '.local', '.weak', '.hidden', '.cfi_startproc', '.cfi_endproc') or op.startswith('.cfi_'):
                return
            if c.kind != 'data':
                raise TranslateError('directive %s in a code section' % op)
            c.out += self.data(u, c, op, rest)
            return
        if c.kind != 'code':
            raise TranslateError('instruction %s in a data section' % op)
        rest = rest.split('#', 1)[0]
        c.out += ['\t' + x if not x.endswith(':') else x for x in self.insn(u, c, op, split_operands(rest))]

    @staticmethod
    def asm_chunks(path, text, always):
        """Hand-written Falcon assembly: one chunk per label at column 0 (labels inside a routine are
        indented), so that only the routines something calls are kept."""
        chunks, cur = [], None
        for line in text.split('\n'):
            m = re.match(r'([A-Za-z_]\w*):', line)
            if m and (cur is None or not always):
                cur = Chunk(Unit(path, -1), '.text.asm', 'code')
                chunks.append(cur)
            if cur is None:
                cur = Chunk(Unit(path, -1), '.text.asm', 'code')
                chunks.append(cur)
            cur.out.append(line)
            m = re.match(r'\s*([A-Za-z_]\w*):', line)
            if m:
                cur.defines.append(m.group(1))
            cur.refs.update(re.findall(r'#([A-Za-z_]\w*)', line.split('//', 1)[0]))
        return chunks

    def emit(self, start, asm, roots, name, stack_top):
        """start: (path, text) placed at code address 0, always kept; asm: [(path, text)]."""
        start_chunks = self.asm_chunks(start[0], start[1], True)
        asm_chunks = [c for p, t in asm for c in self.asm_chunks(p, t, False)]
        chunks = start_chunks + asm_chunks + self.chunks
        where = {}
        for c in chunks:
            for d in c.defines:
                if d in where:
                    raise TranslateError('symbol %s defined twice (%s and %s)' % (d, where[d].unit.path, c.unit.path))
                where[d] = c
        weak = set().union(*(u.weak for u in self.units)) if self.units else set()
        undefined_weak = set()
        live, work = set(), list(start_chunks)
        for r in roots:
            if r not in where:
                raise TranslateError('root symbol %s is not defined' % r)
            work.append(where[r])
        while work:
            c = work.pop()
            if id(c) in live:
                continue
            live.add(id(c))
            for r in c.refs:
                if r == '__stack_top':
                    continue
                if r not in where and r in weak:
                    undefined_weak.add(r)  # an undefined weak symbol is 0, as the linker makes it
                    continue
                if r not in where:
                    raise TranslateError('undefined symbol %s (referenced from %s)' % (r, c.unit.path))
                work.append(where[r])
        out = ['/* generated by firmware/falcon/rv2fuc.py: do not edit */', '.equ #__stack_top %d' % stack_top,
               ]
        out += ['.equ #%s 0' % w for w in sorted(undefined_weak)]
        out.append('.section #%s_data' % name)
        # A data section named AT0_SECTION goes to data address 0, first: the driver finds what it holds
        # there (the context-switch lists' bounds, as in nouveau's images: falcon_lists.h).
        at0 = [c for c in chunks if c.kind == 'data' and id(c) in live and c.section == AT0_SECTION]
        if len(at0) > 1:
            raise TranslateError('section %s is defined twice (%s and %s): only one object can be at data address 0'
                                 % (AT0_SECTION, at0[0].unit.path, at0[1].unit.path))
        for c in at0 + [c for c in chunks if c.kind == 'data' and id(c) in live and c.section != AT0_SECTION]:
            out += c.out
        out.append('.section #%s_code' % name)
        for c in chunks:
            if c.kind == 'code' and id(c) in live:
                out += c.out
        return '\n'.join(out) + '\n'


def main():
    ap = argparse.ArgumentParser(description='RV32E assembly (GCC -S) -> Falcon v3 assembly (envyas syntax)')
    ap.add_argument('--start', required=True, help='Falcon start file (placed at code address 0)')
    ap.add_argument('--asm', action='append', default=[], help='hand-written Falcon routines (runtime helpers, I/O)')
    ap.add_argument('--stack-top', type=lambda x: int(x, 0), required=True, help='data address the stack starts at')
    ap.add_argument('--keep', action='append', default=[], help='extra root symbol (e.g. an interrupt handler)')
    ap.add_argument('--name', required=True, help='section name prefix: NAME_data, NAME_code')
    ap.add_argument('-o', required=True)
    ap.add_argument('inputs', nargs='+')
    a = ap.parse_args()
    t = Translator()
    try:
        for p in a.inputs:
            t.load(p)
        t.translate()
        def rd(p):
            with open(p) as f:
                return (p, f.read())
        text = t.emit(rd(a.start), [rd(p) for p in a.asm], a.keep, a.name, a.stack_top)
    except TranslateError as e:
        print('rv2fuc: error: %s' % e, file=sys.stderr)
        return 1
    with open(a.o, 'w') as f:
        f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
