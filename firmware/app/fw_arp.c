/* ARP responder (RFC 826 over Ethernet, IPv4): see fw_arp.h. */
#include "fw_arp.h"

#include "fw_res.h"
#include "hal.h"

struct fw_arp_stats fw_arp_stats;

static uint32_t ld_be(const uint8_t *p, unsigned n)
{
	uint32_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static void st_be(uint8_t *p, unsigned n, uint64_t v)
{
	for (unsigned i = n; i-- > 0; v >>= 8)
		p[i] = (uint8_t)v;
}

/* Frame offsets: Ethernet header 14 bytes, then the ARP packet. */
enum { ETH_DST = 0, ETH_SRC = 6, ETH_TYPE = 12, ARP_HTYPE = 14, ARP_PTYPE = 16, ARP_HLEN = 18,
       ARP_PLEN = 19, ARP_OPER = 20, ARP_SHA = 22, ARP_SPA = 28, ARP_THA = 32, ARP_TPA = 38,
       ARP_END = 42 };

unsigned fw_arp_answer(const uint8_t *f, unsigned len, uint8_t *r)
{
	if (len < ARP_END || ld_be(f + ETH_TYPE, 2) != RNIC_FW_ETH_RX_ETHERTYPE || ld_be(f + ARP_HTYPE, 2) != 1 ||
	    ld_be(f + ARP_PTYPE, 2) != 0x0800 || f[ARP_HLEN] != 6 || f[ARP_PLEN] != 4 || ld_be(f + ARP_OPER, 2) != 1)
		return 0;
	uint32_t tpa = ld_be(f + ARP_TPA, 4), spa = ld_be(f + ARP_SPA, 4);
	/* A request whose sender claims our address (gratuitous ARP) is not a question to us. */
	if (spa == tpa)
		return 0;
	for (unsigned i = 0; i < FW_NUM_GIDS; i++) {
		const struct fw_gid *g = &fw_res.gids[i];
		if (!g->valid || g->ipv4 != tpa || tpa == 0)
			continue;
		for (unsigned k = 0; k < FW_ARP_REPLY_BYTES; k++)
			r[k] = 0;
		for (unsigned k = 0; k < 6; k++) {
			r[ETH_DST + k] = f[ARP_SHA + k]; /* unicast back to the asker */
			r[ARP_THA + k] = f[ARP_SHA + k];
		}
		st_be(r + ETH_SRC, 6, g->mac);
		st_be(r + ARP_SHA, 6, g->mac);
		st_be(r + ETH_TYPE, 2, RNIC_FW_ETH_RX_ETHERTYPE);
		st_be(r + ARP_HTYPE, 2, 1);
		st_be(r + ARP_PTYPE, 2, 0x0800);
		r[ARP_HLEN] = 6;
		r[ARP_PLEN] = 4;
		st_be(r + ARP_OPER, 2, 2);
		st_be(r + ARP_SPA, 4, tpa);
		st_be(r + ARP_TPA, 4, spa);
		return FW_ARP_REPLY_BYTES;
	}
	return 0;
}

uint32_t fw_arp_poll(void)
{
	uint32_t st = hal_rd32(RNIC_FW_REG_ETH_RX_STATUS);
	if (!(st & 1u))
		return 0;
	/* The transmit buffer still holds the previous reply: leave the frame queued for now. */
	if (hal_rd32(RNIC_FW_REG_ETH_TX_STATUS) & 1u)
		return 0;
	uint8_t f[RNIC_FW_ETH_SLOT_BYTES], r[FW_ARP_REPLY_BYTES];
	for (unsigned w = 0; w < RNIC_FW_ETH_SLOT_BYTES / 4; w++) {
		uint32_t v = hal_rd32(RNIC_FW_REG_ETH_RX_DATA + 4 * w);
		for (unsigned k = 0; k < 4; k++)
			f[4 * w + k] = (uint8_t)(v >> (8 * k));
	}
	hal_wr32(RNIC_FW_REG_ETH_RX_POP, 1);
	fw_arp_stats.frames++;
	unsigned n = fw_arp_answer(f, st >> 16, r);
	if (!n) {
		fw_arp_stats.ignored++;
		return 1;
	}
	for (unsigned w = 0; w < n / 4; w++)
		hal_wr32(RNIC_FW_REG_ETH_TX_DATA + 4 * w, (uint32_t)r[4 * w] | (uint32_t)r[4 * w + 1] << 8 |
								  (uint32_t)r[4 * w + 2] << 16 | (uint32_t)r[4 * w + 3] << 24);
	hal_wr32(RNIC_FW_REG_ETH_TX_SEND, n);
	fw_arp_stats.replies++;
	return 1;
}
