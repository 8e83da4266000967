/* bench.c: IPC of firmware-like hot loops, measured with mcycle/minstret. */
#include "fw.h"

struct desc { uint32_t next, len, flags, pad; };
static struct desc ring[64];
static uint32_t src[1024], dst[1024];
static uint8_t cmds[512];

static inline void counters(uint32_t *c, uint32_t *i) {
  asm volatile("csrr %0, mcycle\n\tcsrr %1, minstret" : "=r"(*c), "=r"(*i));
}

static void row(const char *name, uint32_t cyc, uint32_t ins, uint32_t result) {
  fw_puts("| "); fw_puts(name);
  int n = 0;
  while (name[n]) n++;
  for (; n < 14; n++) fw_putc(' ');
  fw_puts(" | "); fw_dec(ins); fw_puts(" | "); fw_dec(cyc); fw_puts(" | ");
  uint32_t ipc = ins * 1000u / cyc;
  fw_dec(ipc / 1000); fw_putc('.'); fw_putc((char)('0' + ipc / 100 % 10)); fw_putc((char)('0' + ipc / 10 % 10));
  fw_putc((char)('0' + ipc % 10));
  fw_puts(" | "); fw_hex(result); fw_puts(" |\n");
}

__attribute__((noinline)) static uint32_t ring_walk(uint32_t steps) {
  uint32_t i = 0, sum = 0;
  while (steps--) {
    const struct desc *d = &ring[i];
    if (d->flags & 1) sum += d->len; else sum ^= d->len;
    i = d->next;
  }
  return sum;
}

__attribute__((noinline)) static void copy_words(uint32_t *d, const uint32_t *s, uint32_t n) {
  for (uint32_t k = 0; k < n; k++) d[k] = s[k];
}

__attribute__((noinline)) static uint32_t dispatch(uint32_t n) {
  uint32_t st = 1, acc = 0;
  for (uint32_t k = 0; k < n; k++) {
    switch (cmds[k & 511]) {
      case 0: acc += st; break;
      case 1: st ^= acc; break;
      case 2: acc = acc * 3 + 1; break;
      case 3: st += 7; break;
      case 4: acc ^= st << 3; break;
      case 5: st = acc >> 2; break;
      case 6: acc -= 5; break;
      default: st = st + acc + 1; break;
    }
  }
  return acc ^ st;
}

__attribute__((noinline)) static uint32_t mmio_poll(uint32_t n) {
  uint32_t s = 0;
  for (uint32_t k = 0; k < n; k++) s += MMIO_RAM[k & 15];
  return s;
}

int main(void) {
  uint32_t x = 12345;
  for (int k = 0; k < 64; k++) {
    x = x * 1103515245u + 12345u;
    ring[k].next = (uint32_t)(k + 1) & 63; ring[k].len = x >> 8; ring[k].flags = (x >> 3) & 1;
  }
  for (int k = 0; k < 1024; k++) src[k] = (uint32_t)k * 0x9E3779B9u;
  for (int k = 0; k < 512; k++) { x = x * 1103515245u + 12345u; cmds[k] = (uint8_t)((x >> 16) & 7); }

  uint32_t c0, i0, c1, i1, r;
  fw_puts("| loop           | instructions | cycles | IPC | result |\n|---|---|---|---|---|\n");
  counters(&c0, &i0); r = ring_walk(4000); counters(&c1, &i1);
  row("ring_walk", c1 - c0, i1 - i0, r);
  counters(&c0, &i0); copy_words(dst, src, 1024); counters(&c1, &i1);
  row("memcpy_4KiB", c1 - c0, i1 - i0, dst[1023]);
  counters(&c0, &i0); r = dispatch(4000); counters(&c1, &i1);
  row("dispatch", c1 - c0, i1 - i0, r);
  counters(&c0, &i0); r = mmio_poll(1000); counters(&c1, &i1);
  row("mmio_read", c1 - c0, i1 - i0, r);
  fw_puts("PASS bench.ipc_table\n");
  return 0;
}
