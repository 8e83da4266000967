/* Host unit tests of the ARP responder (MOCK_MMIO build): frames put into the mock's Ethernet
 * queue registers, the reply checked byte for byte against a frame written out by hand. */
#include <string.h>

#include "fw_arp.h"
#include "fw_res.h"
#include "hal.h"
#include "mock_mmio.h"

/* A request from 10.0.0.2 (52:54:00:12:34:56) asking who has 10.0.0.1, padded to 60 bytes. */
static const uint8_t req_for_us[60] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x52, 0x54, 0x00, 0x12, 0x34, 0x56, 0x08, 0x06,
	0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x01,
	0x52, 0x54, 0x00, 0x12, 0x34, 0x56, 10, 0, 0, 2,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 10, 0, 0, 1,
};
/* The answer: 10.0.0.1 is at 02:00:00:00:00:01, unicast to the asker. */
static const uint8_t reply_expected[60] = {
	0x52, 0x54, 0x00, 0x12, 0x34, 0x56, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06,
	0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x02,
	0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 10, 0, 0, 1,
	0x52, 0x54, 0x00, 0x12, 0x34, 0x56, 10, 0, 0, 2,
};

/* Puts frame (len bytes) at the head of the mock queue, as rnic_fw_eth shows it. */
static void queue(const uint8_t *f, unsigned len)
{
	uint8_t slot[64] = { 0 };
	memcpy(slot, f, len < 64 ? len : 64);
	for (unsigned w = 0; w < 16; w++)
		regs[RNIC_FW_REG_ETH_RX_DATA / 4 + w] = (uint32_t)rnic_ld_le(slot + 4 * w, 4);
	regs[RNIC_FW_REG_ETH_RX_STATUS / 4] = len << 16 | 1u;
}

/* Serves one frame; 1 if it was popped and nothing was sent. */
static int ignored(const uint8_t *f, unsigned len)
{
	unsigned sent = mock_eth_sent, ign = fw_arp_stats.ignored;
	queue(f, len);
	return fw_arp_poll() == 1 && regs[RNIC_FW_REG_ETH_RX_STATUS / 4] == 0 && mock_eth_sent == sent &&
	       fw_arp_stats.ignored == ign + 1;
}

int main(void)
{
	uint8_t f[64];
	fw_res.gids[0] = (struct fw_gid){ .ipv4 = 0x0A000063, .mac = 0x020000000063ull, .valid = 1 };
	fw_res.gids[3] = (struct fw_gid){ .ipv4 = 0x0A000001, .mac = 0x020000000001ull, .valid = 1 };

	check(fw_arp_poll() == 0 && mock_eth_sent == 0, "fw-arp-idle-queue-empty");

	queue(req_for_us, 60);
	check(fw_arp_poll() == 1 && regs[RNIC_FW_REG_ETH_RX_STATUS / 4] == 0 && mock_eth_sent == 1 &&
		      mock_eth_tx_len == 60 && memcmp(mock_eth_tx, reply_expected, 60) == 0 && fw_arp_stats.replies == 1,
	      "fw-arp-reply-byte-for-byte");

	/* a request for the other GID's address answers with that GID's MAC */
	memcpy(f, req_for_us, 60);
	f[41] = 0x63;
	queue(f, 60);
	check(fw_arp_poll() == 1 && mock_eth_sent == 2 && mock_eth_tx[5] == 0x56 && mock_eth_tx[11] == 0x63 &&
		      mock_eth_tx[27] == 0x63 && mock_eth_tx[31] == 0x63 && mock_eth_tx[41] == 2,
	      "fw-arp-reply-second-gid");

	/* a 42-byte frame (no padding) is a whole request */
	queue(req_for_us, 42);
	check(fw_arp_poll() == 1 && mock_eth_sent == 3 && memcmp(mock_eth_tx, reply_expected, 60) == 0,
	      "fw-arp-reply-unpadded-request");

	/* transmit buffer busy: the request waits in the queue, then goes */
	regs[RNIC_FW_REG_ETH_TX_STATUS / 4] = 1;
	queue(req_for_us, 60);
	int waited = fw_arp_poll() == 0 && (regs[RNIC_FW_REG_ETH_RX_STATUS / 4] & 1) && mock_eth_sent == 3;
	regs[RNIC_FW_REG_ETH_TX_STATUS / 4] = 0;
	check(waited && fw_arp_poll() == 1 && mock_eth_sent == 4, "fw-arp-waits-for-tx-buffer");

	memcpy(f, req_for_us, 60);
	f[41] = 7; /* 10.0.0.7: not ours */
	check(ignored(f, 60), "fw-arp-other-ip-ignored");
	memcpy(f, req_for_us, 60);
	f[21] = 2; /* a reply, not a request */
	check(ignored(f, 60), "fw-arp-reply-ignored");
	memcpy(f, req_for_us, 60);
	f[31] = 1; /* gratuitous: sender address = target address */
	check(ignored(f, 60), "fw-arp-gratuitous-ignored");
	check(ignored(req_for_us, 41), "fw-arp-short-frame-ignored");
	memcpy(f, req_for_us, 60);
	f[17] = 0xDD; /* protocol type not IPv4 */
	check(ignored(f, 60), "fw-arp-ptype-ignored");
	memcpy(f, req_for_us, 60);
	f[13] = 0x00; /* EtherType IPv4 */
	check(ignored(f, 60), "fw-arp-ethertype-ignored");
	fw_res.gids[3].valid = 0;
	check(ignored(req_for_us, 60), "fw-arp-invalid-gid-ignored");
	check(fw_arp_stats.frames == 11 && fw_arp_stats.replies == 4 && fw_arp_stats.ignored == 7, "fw-arp-stats");
	return mock_failed;
}
