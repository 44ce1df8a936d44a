/* hetvp — basic firmware library: interrupt handler, command queue, sleep, xfer, context switch. */
#include "fw.h"

#include "hetvp/gpu_map.h"
#include "hetvp/pmc.h"

#define QLEN 8u

static volatile uint32_t q_cmd[QLEN], q_data[QLEN];
static volatile uint32_t q_head, q_tail; /* head: written by ihbody, tail: by work */
static volatile uint32_t xfer_done, timer_fired;
static volatile uint32_t chsw_requested; /* MCU_IRQ_CHSW seen (HUB): served by fw_chsw() in the main loop */
static uint32_t done_count;

#ifndef FW_CTX_BYTES
#define FW_CTX_BYTES 512u
#endif
/* The context: a block of data memory plus the context registers (mailboxes 8..15). Both are
 * aligned to 256 B so the xfer DMA can move them in 256-byte steps. */
static uint32_t ctx_hdr[FW_CTX_HEADER / 4] __attribute__((aligned(256)));
static uint32_t ctx_area[FW_CTX_BYTES / 4] __attribute__((aligned(256)));

/* ---- ihbody: the interrupt handler ------------------------------------------------------------ */
#ifdef HETVP_FALCON
void ihbody(void) { /* called by start_fw.fuc's interrupt entry, which saves and restores the registers */
#else
void __attribute__((interrupt("machine"), aligned(4))) ihbody(void) {
  uint32_t cause = CSR_READ(mcause);
  if (!(cause & MCAUSE_INTERRUPT)) {
    /* A synchronous exception in firmware: report it (the model records mepc/mcause/mtval,
     * UC_CTRL reads TRAPPED, the host sees it) and stop. */
    mcu_reg_write(MCU_UC_FW_TRAP, cause);
    for (;;) wfi();
  }
#endif
  uint32_t st = mcu_reg_read(MCU_IRQSTAT) & mcu_reg_read(MCU_IRQMASK);
  if (st & MCU_IRQ_METHOD) {
    uint32_t h = q_head;
    if (h - q_tail < QLEN) {
      q_data[h % QLEN] = mcu_reg_read(MCU_METHOD_DATA);
      q_cmd[h % QLEN] = mcu_reg_read(MCU_METHOD_CMD);
      q_head = h + 1;
    }
#ifdef HETVP_FALCON
    falcon_iowr(FCTX_IO(FCTX_FIFO_ACK, 0), 1); /* pop the FIFO's head (its line is level-triggered) */
#endif
  }
  if (st & MCU_IRQ_XFER) xfer_done = 1;
  if (st & MCU_IRQ_TIMER) timer_fired = 1;
  if (st & MCU_IRQ_CHSW) chsw_requested = 1;
  /* MCU_IRQ_CTXSW only wakes fw_ctxsw_wait_idle(), which looks at SIGNAL itself. */
  mcu_reg_write(MCU_IRQSCLR, st);
}

#ifndef HETVP_FALCON
/* Sleep until *flag becomes non-zero: interrupts off while testing, wfi wakes on a pending
 * interrupt even with MIE clear, then MIE on lets ihbody run. No busy-polling. */
static void wait_flag(volatile uint32_t* flag) {
  for (;;) {
    irq_disable();
    if (*flag) break;
    wfi();
    irq_enable();
  }
  irq_enable();
}
#endif

#ifdef HETVP_FALCON
/* The modelled GF100 controller has no timer: waits spin, about 8 cycles a turn (assumption), and a
 * condition is looked at after 64, 128, ... up to FALCON_NAP_MAX cycles: a GPC's answer is seen at most
 * that late (256 cycles: 0.18 us on the HUB), and a 10 ms wait stays under the controller's poll
 * watchdog (54,688 looks < 100,000). */
#ifndef FALCON_NAP_MAX
#define FALCON_NAP_MAX 256u
#endif
static void spin(uint32_t cycles) {
  for (volatile uint32_t n = cycles / 8u; n; --n) {
  }
}
int fw_wait_until(int (*cond)(void), uint32_t timeout_cycles) {
  for (uint32_t spent = 0, nap = 64u;; spent += nap, nap = nap < FALCON_NAP_MAX ? nap * 2u : nap) {
    if (cond()) return 1;
    if (spent >= timeout_cycles) return 0;
    spin(nap);
  }
}
void fw_sleep_cycles(uint32_t cycles) { spin(cycles); }
/* The Falcon has no "engines idle" interrupt (nouveau polls SIGNAL): poll. */
void fw_ctxsw_wait_idle(void) {
  while (mcu_reg_read(GRC_SIGNAL) & (GRC_SIGNAL_MMCTX | GRC_SIGNAL_STRAND)) {
  }
}
uint32_t fw_dmem_offset(const void* p) { return (uint32_t)(uintptr_t)p - FALCON_DMEM_BASE; }
/* Not yet on the Falcon: hetvp's xfer engine is the RV32 block's; the Falcon's xdld/xdst reach only
 * the context-switch unit's memory port. The commands that move data answer an xfer fault. */
uint32_t fw_xfer(uint32_t ctrl, uint32_t ext_lo, uint32_t ext_hi, uint32_t dmem_off) {
  (void)ctrl, (void)ext_lo, (void)ext_hi, (void)dmem_off;
  return MCU_XFER_FAULT;
}
#else
int fw_wait_until(int (*cond)(void), uint32_t timeout_cycles) {
  timer_fired = 0;
  mcu_reg_write(MCU_TIMER_CYCLES, timeout_cycles);
  mcu_reg_write(MCU_TIMER_CTRL, 1);
  int ok = 0;
  for (;;) {
    irq_disable();
    if ((ok = cond()) || timer_fired) break;
    wfi();
    irq_enable();
  }
  irq_enable();
  mcu_reg_write(MCU_TIMER_CTRL, 0);
  return ok;
}

void fw_sleep_cycles(uint32_t cycles) {
  timer_fired = 0;
  mcu_reg_write(MCU_TIMER_CYCLES, cycles);
  mcu_reg_write(MCU_TIMER_CTRL, 1);
  wait_flag(&timer_fired);
}

/* Sleeps until the context-switch unit's MMCTX and strand engines are idle (gr_ctxsw.h SIGNAL):
 * the unit raises MCU_IRQ_CTXSW when they go idle, so the core sleeps instead of polling. */
void fw_ctxsw_wait_idle(void) {
  for (;;) {
    irq_disable();
    if (!(mcu_reg_read(GRC_SIGNAL) & (GRC_SIGNAL_MMCTX | GRC_SIGNAL_STRAND))) break;
    wfi();
    irq_enable();
  }
  irq_enable();
}

uint32_t fw_dmem_offset(const void* p) { return (uint32_t)(uintptr_t)p - MCU_DMEM_BASE; }

uint32_t fw_xfer(uint32_t ctrl, uint32_t ext_lo, uint32_t ext_hi, uint32_t dmem_off) {
  xfer_done = 0;
  mcu_reg_write(MCU_XFER_EXT_LO, ext_lo);
  mcu_reg_write(MCU_XFER_EXT_HI, ext_hi);
  mcu_reg_write(MCU_XFER_DMEM, dmem_off);
  mcu_reg_write(MCU_XFER_CTRL, ctrl);
  wait_flag(&xfer_done);
  return mcu_reg_read(MCU_XFER_STATUS);
}
#endif

/* Moves `bytes` (a multiple of 256) between DMEM object p and GPU VA (lo, hi) in 256-B steps. */
static uint32_t move_256(void* p, uint32_t bytes, uint32_t lo, uint32_t hi, uint32_t dir) {
  for (uint32_t off = 0; off < bytes; off += 256) {
    uint32_t l = lo + off;
    uint32_t h = hi + (l < lo);
    uint32_t st = fw_xfer(8u | dir, l, h, fw_dmem_offset((uint8_t*)p + off));
    if (st & MCU_XFER_FAULT) return st;
  }
  return 0;
}

static uint32_t ctx_hash(void) {
  uint32_t h = 2166136261u;
  const uint8_t* b = (const uint8_t*)ctx_area;
  for (uint32_t i = 0; i < sizeof ctx_area; ++i) h = (h ^ b[i]) * 16777619u;
  for (uint32_t r = 0; r < FW_CTXREG_COUNT; ++r) {
    uint32_t v = mcu_reg_read(FW_CTXREG(r));
    for (int k = 0; k < 4; ++k) h = (h ^ ((v >> (8 * k)) & 0xff)) * 16777619u;
  }
  return h;
}

static void ctx_fill(uint32_t seed) {
  uint32_t x = seed ? seed : 0x9e3779b9u;
  for (uint32_t i = 0; i < FW_CTX_BYTES / 4; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    ctx_area[i] = x;
  }
  for (uint32_t r = 0; r < FW_CTXREG_COUNT; ++r) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    mcu_reg_write(FW_CTXREG(r), x);
  }
}

static uint32_t ctx_save(uint32_t lo, uint32_t hi, uint32_t* error) {
  ctx_hdr[0] = FW_CTX_MAGIC;
  ctx_hdr[1] = 1; /* version */
  ctx_hdr[2] = mcu_reg_read(MCU_UC_ID);
  ctx_hdr[3] = FW_CTX_BYTES;
  for (uint32_t r = 0; r < FW_CTXREG_COUNT; ++r) ctx_hdr[4 + r] = mcu_reg_read(FW_CTXREG(r));
  ctx_hdr[12] = ctx_hash();
  uint32_t st = move_256(ctx_hdr, FW_CTX_HEADER, lo, hi, MCU_XFER_DIR_STORE);
  if (!st)
    st = move_256(ctx_area, FW_CTX_BYTES, lo + FW_CTX_HEADER, hi + (lo + FW_CTX_HEADER < lo), MCU_XFER_DIR_STORE);
  if (st) {
    *error = FW_ERR_XFER;
    return st;
  }
  return FW_CTX_HEADER + FW_CTX_BYTES;
}

static uint32_t ctx_load(uint32_t lo, uint32_t hi, uint32_t* error) {
  uint32_t st = move_256(ctx_hdr, FW_CTX_HEADER, lo, hi, MCU_XFER_DIR_LOAD);
  if (st) {
    *error = FW_ERR_XFER;
    return st;
  }
  if (ctx_hdr[0] != FW_CTX_MAGIC || ctx_hdr[3] != FW_CTX_BYTES) {
    *error = FW_ERR_BAD_CONTEXT;
    return ctx_hdr[0];
  }
  st = move_256(ctx_area, FW_CTX_BYTES, lo + FW_CTX_HEADER, hi + (lo + FW_CTX_HEADER < lo), MCU_XFER_DIR_LOAD);
  if (st) {
    *error = FW_ERR_XFER;
    return st;
  }
  for (uint32_t r = 0; r < FW_CTXREG_COUNT; ++r) mcu_reg_write(FW_CTXREG(r), ctx_hdr[4 + r]);
  if (ctx_hash() != ctx_hdr[12]) {
    *error = FW_ERR_BAD_CONTEXT;
    return 0;
  }
  return FW_CTX_HEADER + FW_CTX_BYTES;
}

/* ---- work: dequeue and dispatch ---------------------------------------------------------------- */
static int work(uint32_t cmd_word, uint32_t data, int* exit_code) {
  const uint32_t cmd = cmd_word & FW_CMD_MASK;
  uint32_t result = 0, error = FW_ERR_OK;
  int leave = 0;
  switch (cmd) {
    case FW_CMD_ECHO:
      result = data;
      break;
    case FW_CMD_CTX_SAVE:
      result = ctx_save(data, mcu_reg_read(FW_ARG0), &error);
      break;
    case FW_CMD_CTX_LOAD:
      result = ctx_load(data, mcu_reg_read(FW_ARG0), &error);
      break;
    case FW_CMD_CTX_FILL:
      ctx_fill(data);
      result = ctx_hash();
      break;
    case FW_CMD_CTX_HASH:
      result = ctx_hash();
      break;
    case FW_CMD_XFER:
      result = fw_xfer(data, mcu_reg_read(FW_ARG0), mcu_reg_read(FW_ARG1), mcu_reg_read(FW_ARG2));
      if (result & MCU_XFER_FAULT) error = FW_ERR_XFER;
      break;
    case FW_CMD_COPY: {
      const uint32_t hi = mcu_reg_read(FW_ARG2);
      result = fw_copy(FW_COPY_SRC_HI(hi) | mcu_reg_read(FW_ARG0), FW_COPY_DST_HI(hi) | mcu_reg_read(FW_ARG1), data,
                       &error);
      break;
    }
    case FW_CMD_TRAP:
#ifdef HETVP_FALCON
      falcon_trap();
#else
      __asm__ volatile("unimp");
#endif
      break;
    case FW_CMD_EXIT:
      leave = 1;
      *exit_code = (int)data;
      break;
    default:
      if (!fw_dispatch(cmd, data, &result, &error)) error = FW_ERR_UNKNOWN_CMD;
  }
  mcu_reg_write(FW_RESULT, result);
  mcu_reg_write(FW_ERROR, error);
  mcu_reg_write(MCU_STATUS1, ++done_count);
  if (cmd_word & FW_CMD_NOTIFY) mcu_reg_write(MCU_HOST_INTR, 1);
  if (cmd_word & FW_CMD_NOTIFY_HUB) bar0_write(bar0_read(GPU_PTOP_BASE + PTOP_HUB_BASE) + MCU_IRQSSET, MCU_IRQ_SWGEN1);
  return leave;
}

int fw_main(void) {
  /* initialize: install the interrupt handler, enable method/xfer/timer interrupts */
#ifndef HETVP_FALCON /* the Falcon's vector is set by start_fw.fuc */
  CSR_WRITE(mtvec, (uint32_t)(uintptr_t)&ihbody);
#endif
  mcu_reg_write(MCU_IRQMSET, MCU_IRQ_METHOD | MCU_IRQ_XFER | MCU_IRQ_TIMER | MCU_IRQ_CHSW | MCU_IRQ_CTXSW |
                                 MCU_IRQ_SWGEN1); /* SWGEN1: a GPC's FW_CMD_NOTIFY_HUB (wakes fw_wait_until) */
#ifdef HETVP_FALCON
  falcon_irq_on();
#else
  CSR_SET(mie, MIE_MEIE);
#endif
  irq_enable();
  done_count = mcu_reg_read(MCU_STATUS1);
  fw_initialize();
  int exit_code = 0;
  for (;;) {
    /* sleep until a command is queued or a channel switch is asked for */
    for (;;) {
      irq_disable();
      if (q_tail != q_head || chsw_requested) break;
      wfi();
      irq_enable();
    }
    irq_enable();
    if (chsw_requested) { /* the FIFO waits on it: before any queued command */
      chsw_requested = 0;
      if (fw_chsw) fw_chsw();
    }
    /* work */
    while (q_tail != q_head) {
      uint32_t t = q_tail;
      uint32_t cmd = q_cmd[t % QLEN], data = q_data[t % QLEN];
      q_tail = t + 1;
      if (work(cmd, data, &exit_code)) return exit_code;
    }
  }
}
