#include "mock_mmio.h"

#include <stdio.h>

#include "hal.h"

uint32_t regs[0x800];
uint32_t writes[64][2];
unsigned nwrites;
int mock_failed;

uint32_t mock_mmio_rd32(uint32_t off) { return regs[(off / 4) % 0x800]; }

void mock_mmio_wr32(uint32_t off, uint32_t v)
{
	regs[(off / 4) % 0x800] = v;
	if (nwrites < 64)
		writes[nwrites][0] = off, writes[nwrites][1] = v;
	nwrites++;
}

uint64_t mock_cycles(void) { return 0; }

void check(int ok, const char *name)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", name);
	mock_failed |= !ok;
}
