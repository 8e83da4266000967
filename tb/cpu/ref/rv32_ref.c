/* rv32_ref.c: RV32IM reference interpreter, written for the rv_cpu lock-step test. */
#include "rv32_ref.h"

static uint8_t *ref_mem(rv32_ref_t *s, uint32_t a) {
  if ((a >> 28) == 0) return &s->imem[a % s->imem_bytes];
  if ((a >> 28) == 1) return &s->dmem[(a & 0x0FFFFFFFu) % s->dmem_bytes];
  if ((a >> 28) == (s->mmio_seg ? s->mmio_seg : 4u) && s->mmio && (a & 0x0FFFFFFFu) < s->mmio_bytes)
    return &s->mmio[a & 0x0FFFFFFFu];
  return 0;
}

static uint32_t ref_load(rv32_ref_t *s, uint32_t a, int n) {
  uint32_t v = 0;
  for (int i = 0; i < n; i++) {
    uint8_t *p = ref_mem(s, a + (uint32_t)i);
    v |= (uint32_t)(p ? *p : 0) << (8 * i);
  }
  return v;
}

static void ref_store(rv32_ref_t *s, uint32_t a, uint32_t v, int n) {
  for (int i = 0; i < n; i++) {
    uint8_t *p = ref_mem(s, a + (uint32_t)i);
    if (p) *p = (uint8_t)(v >> (8 * i));
  }
}

static int32_t sx(uint32_t v, int bits) { return (int32_t)(v << (32 - bits)) >> (32 - bits); }

void rv32_ref_step(rv32_ref_t *s, rv32_ret_t *r) {
  uint32_t pc = s->pc, in = ref_load(s, pc, 4);
  uint32_t op = in & 0x7F, rd = (in >> 7) & 31, f3 = (in >> 12) & 7, rs1 = (in >> 15) & 31;
  uint32_t rs2 = (in >> 20) & 31, f7 = in >> 25;
  uint32_t a = s->x[rs1], b = s->x[rs2];
  uint32_t ii = (uint32_t)sx(in >> 20, 12);
  uint32_t is = (uint32_t)sx(((in >> 25) << 5) | ((in >> 7) & 31), 12);
  uint32_t ib = (uint32_t)sx((((in >> 31) & 1) << 12) | (((in >> 7) & 1) << 11) |
                             (((in >> 25) & 63) << 5) | (((in >> 8) & 15) << 1), 13);
  uint32_t ij = (uint32_t)sx((((in >> 31) & 1) << 20) | (((in >> 12) & 255) << 12) |
                             (((in >> 20) & 1) << 11) | (((in >> 21) & 1023) << 1), 21);
  uint32_t npc = pc + 4, res = 0;
  int we = 0, trap = 0;

  switch (op) {
    case 0x37: res = in & 0xFFFFF000u; we = 1; break;                /* LUI */
    case 0x17: res = pc + (in & 0xFFFFF000u); we = 1; break;         /* AUIPC */
    case 0x6F: res = pc + 4; npc = pc + ij; we = 1; break;           /* JAL */
    case 0x67: res = pc + 4; npc = (a + ii) & ~1u; we = 1; trap = f3 != 0; break; /* JALR */
    case 0x63: {                                                     /* branches */
      int t = 0;
      switch (f3) {
        case 0: t = a == b; break;
        case 1: t = a != b; break;
        case 4: t = (int32_t)a < (int32_t)b; break;
        case 5: t = (int32_t)a >= (int32_t)b; break;
        case 6: t = a < b; break;
        case 7: t = a >= b; break;
        default: trap = 1;
      }
      if (t) npc = pc + ib;
      break;
    }
    case 0x03: {                                                     /* loads */
      uint32_t ea = a + ii;
      we = 1;
      switch (f3) {
        case 0: res = (uint32_t)sx(ref_load(s, ea, 1), 8); break;
        case 1: res = (uint32_t)sx(ref_load(s, ea, 2), 16); trap = ea & 1; break;
        case 2: res = ref_load(s, ea, 4); trap = (ea & 3) != 0; break;
        case 4: res = ref_load(s, ea, 1); break;
        case 5: res = ref_load(s, ea, 2); trap = ea & 1; break;
        default: trap = 1;
      }
      break;
    }
    case 0x23: {                                                     /* stores */
      uint32_t ea = a + is;
      int n = f3 == 0 ? 1 : f3 == 1 ? 2 : 4;
      if (f3 > 2 || (ea & (uint32_t)(n - 1))) trap = 1;
      else ref_store(s, ea, b, n);
      break;
    }
    case 0x13: case 0x33: {                                          /* OP-IMM, OP */
      int isreg = op == 0x33;
      uint32_t bb = isreg ? b : ii;
      we = 1;
      if (isreg && f7 == 1) {                                        /* M extension */
        int64_t sa = (int32_t)a, sb = (int32_t)b;
        uint64_t ua = a, ub = b;
        switch (f3) {
          case 0: res = a * b; break;
          case 1: res = (uint32_t)((uint64_t)(sa * sb) >> 32); break;
          case 2: res = (uint32_t)((uint64_t)(sa * (int64_t)ub) >> 32); break;
          case 3: res = (uint32_t)((ua * ub) >> 32); break;
          case 4: res = b == 0 ? 0xFFFFFFFFu : (a == 0x80000000u && b == 0xFFFFFFFFu) ? a
                        : (uint32_t)((int32_t)a / (int32_t)b); break;
          case 5: res = b == 0 ? 0xFFFFFFFFu : a / b; break;
          case 6: res = b == 0 ? a : (a == 0x80000000u && b == 0xFFFFFFFFu) ? 0
                        : (uint32_t)((int32_t)a % (int32_t)b); break;
          default: res = b == 0 ? a : a % b; break;
        }
        break;
      }
      switch (f3) {
        case 0: res = (isreg && f7 == 0x20) ? a - bb : a + bb; break;
        case 1: res = a << (bb & 31); break;
        case 2: res = (int32_t)a < (int32_t)bb; break;
        case 3: res = a < bb; break;
        case 4: res = a ^ bb; break;
        case 5: res = (f7 & 0x20) ? (uint32_t)((int32_t)a >> (bb & 31)) : a >> (bb & 31); break;
        case 6: res = a | bb; break;
        default: res = a & bb; break;
      }
      break;
    }
    case 0x0F: break;                                                /* FENCE */
    case 0x73: {                                                     /* SYSTEM */
      uint32_t csr = in >> 20, src = (f3 & 4) ? rs1 : a, old, nv, *reg, mask;
      if (in == 0x30200073u) {                                       /* mret */
        npc = s->mepc;
        s->mstatus = ((s->mstatus >> 4) & 8u) | 0x80u;
        break;
      }
      switch (csr) {
        case 0x300: reg = &s->mstatus;  mask = 0x88u; break;
        case 0x304: reg = &s->mie;      mask = 0x888u; break;
        case 0x305: reg = &s->mtvec;    mask = ~3u; break;
        case 0x340: reg = &s->mscratch; mask = ~0u; break;
        case 0x341: reg = &s->mepc;     mask = ~3u; break;
        case 0x342: reg = &s->mcause;   mask = ~0u; break;
        default: reg = 0; mask = 0;
      }
      if (!reg || (f3 & 3) == 0) { trap = 1; break; }
      old = *reg | (csr == 0x300 ? 0x1800u : 0u);                    /* MPP reads as M */
      nv = (f3 & 3) == 1 ? src : (f3 & 3) == 2 ? (old | src) : (old & ~src);
      if ((f3 & 3) == 1 || rs1 != 0) *reg = nv & mask;
      res = old; we = 1;
      break;
    }
    default: trap = 1;
  }
  if (!trap && (npc & 3)) trap = 1;
  r->pc = pc; r->insn = in; r->trap = trap;
  r->we = !trap && we && rd != 0;
  r->rd = r->we ? rd : 0;
  r->wdata = r->we ? res : 0;
  if (r->we) s->x[rd] = res;
  if (!trap) s->pc = npc;
}

void rv32_ref_interrupt(rv32_ref_t *s, uint32_t cause) {
  s->mepc = s->pc;
  s->mcause = cause;
  s->mstatus = (s->mstatus & 8u) ? 0x80u : 0u;
  s->pc = s->mtvec;
}
