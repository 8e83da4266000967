/* MOCK_MMIO host build: the firmware's registers as an array, the writes it made, and checks. */
#ifndef MOCK_MMIO_H
#define MOCK_MMIO_H

#include <stdint.h>

extern uint32_t regs[0x800];
extern uint32_t writes[64][2];
extern unsigned nwrites;
extern int mock_failed;

void check(int ok, const char *name);

#endif
