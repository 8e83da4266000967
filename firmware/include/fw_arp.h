/* ARP responder: answers ARP requests for the port's IPv4 addresses (the IPv4-mapped GIDs set by
 * SET_GID) from the firmware's Ethernet queue (spec fw_mmio eth_*), so peers resolve our MAC
 * without a static neighbour entry. */
#ifndef FW_ARP_H
#define FW_ARP_H

#include <stdint.h>

#define FW_ARP_REPLY_BYTES 60u /* 42 bytes of ARP over Ethernet padded to the minimum frame */

struct fw_arp_stats {
	uint32_t frames;   /* frames taken from the queue */
	uint32_t replies;  /* replies sent */
	uint32_t ignored;  /* not a request, malformed, or for an address that is not ours */
};
extern struct fw_arp_stats fw_arp_stats;

/* The reply to frame (len bytes, at most 64 of them present) in reply[FW_ARP_REPLY_BYTES]:
 * returns FW_ARP_REPLY_BYTES, or 0 when the frame is not an ARP request for one of our
 * addresses. */
unsigned fw_arp_answer(const uint8_t *frame, unsigned len, uint8_t *reply);
/* Serves one queued frame if there is one and the transmit buffer is free; returns 1 if it
 * took a frame. */
uint32_t fw_arp_poll(void);

#endif /* FW_ARP_H */
