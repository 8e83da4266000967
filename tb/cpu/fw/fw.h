/* fw.h: tiny freestanding support for rv_cpu test firmware: console, checks, CSR access. */
#pragma once
#include <stdint.h>

#define SIM_IRQ_SET  (*(volatile uint32_t *)0x4FFFFFE0u)
#define SIM_IRQ_CLR  (*(volatile uint32_t *)0x4FFFFFE4u)
#define SIM_LATENCY  (*(volatile uint32_t *)0x4FFFFFE8u)
#define SIM_CYCLE    (*(volatile uint32_t *)0x4FFFFFECu)
#define SIM_EXIT     (*(volatile uint32_t *)0x4FFFFFF0u)
#define SIM_PUTC     (*(volatile uint32_t *)0x4FFFFFF4u)
#define MMIO_RAM     ((volatile uint32_t *)0x40000000u)
#define MTIME_LO     (*(volatile uint32_t *)0x20000000u)
#define MTIME_HI     (*(volatile uint32_t *)0x20000004u)
#define MTIMECMP_LO  (*(volatile uint32_t *)0x20000008u)
#define MTIMECMP_HI  (*(volatile uint32_t *)0x2000000Cu)

#define CSR_READ(csr) ({ uint32_t _v; asm volatile("csrr %0, " #csr : "=r"(_v)); _v; })
#define CSR_WRITE(csr, v) asm volatile("csrw " #csr ", %0" ::"r"(v))
#define CSR_SET(csr, v) asm volatile("csrs " #csr ", %0" ::"r"(v))
#define CSR_CLEAR(csr, v) asm volatile("csrc " #csr ", %0" ::"r"(v))

static inline void fw_putc(char c) { SIM_PUTC = (uint8_t)c; }
static inline void fw_puts(const char *s) { while (*s) fw_putc(*s++); }
static inline void fw_hex(uint32_t v) {
  fw_puts("0x");
  for (int i = 28; i >= 0; i -= 4) fw_putc("0123456789abcdef"[(v >> i) & 15]);
}
static inline void fw_dec(uint32_t v) {
  char b[12]; int n = 0;
  do { b[n++] = (char)('0' + v % 10); v /= 10; } while (v);
  while (n) fw_putc(b[--n]);
}

static int fw_fails, fw_checks;
static const char *fw_prefix = "";

static inline void check(const char *name, uint32_t got, uint32_t exp) {
  fw_checks++;
  if (got == exp) {
    fw_puts("PASS "); fw_puts(fw_prefix); fw_puts(name); fw_putc('\n');
  } else {
    fw_fails++;
    fw_puts("FAIL "); fw_puts(fw_prefix); fw_puts(name); fw_puts(" got "); fw_hex(got);
    fw_puts(" expected "); fw_hex(exp); fw_putc('\n');
  }
}
