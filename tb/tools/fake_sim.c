/* A stand-in for the simulator device service, for testing rnic-tool's socket backend: it
 * answers HELLO (kind BAR), BAR_READ and BAR_WRITE on a Unix SOCK_SEQPACKET socket from an
 * in-memory model of BAR0 built from the generated register table (the block chain, const
 * values, reset values), with just enough behaviour: a soft-core hold/release with an image
 * check like the loader's, firmware status and log ring, counters, the IMEM/DMEM window.
 *
 *   fake_sim --sock PATH [--nics N] [--journal FILE] [options]   serve until killed
 *   fake_sim --bar-image FILE [options]                           write NIC 0's BAR0 as a file
 * options: --hash X (report another spec hash), --bad-image (the memories hold a corrupted
 * image), --refuse (the loader refuses every image), --log-wrap (a log ring that wrapped).
 * Every BAR write is appended to the journal as "W OFFSET VALUE". */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "rnic_spec_regs.h"
#include "rnicp_sim_proto.h"

#define MEM_BYTES 65536u /* the soft core's IMEM and DMEM, each (an rnic_core parameter) */
#define WIN_IMEM RNIC_BAR0_FW_WINDOW_BASE
#define WIN_DMEM (RNIC_BAR0_FW_WINDOW_BASE + RNIC_BAR0_FW_WINDOW_SIZE / 2)
#define REG_BYTES (RNIC_SPEC_NUM_BLOCKS * RNIC_BAR0_BLOCK_STRIDE)
#define LOG_OFF 0x100u	  /* DMEM offset of the fake firmware's log ring */
#define FAKE_FW_VERSION 0x00010002u
#define CST_RUNNING RNIC_REG_CPU_CPU_STATUS_F_RUNNING
#define CST_ACCEPTED RNIC_REG_CPU_CPU_STATUS_F_IMAGE_ACCEPTED
#define CST_REFUSED RNIC_REG_CPU_CPU_STATUS_F_IMAGE_REFUSED

struct fake_nic {
	uint32_t regs[REG_BYTES / 4];
	uint8_t imem[MEM_BYTES], dmem[MEM_BYTES];
	int held;
	int check_in;	/* cpu_status reads until the loader's verdict */
	int boot_in;	/* fw_status reads until the firmware says READY */
	unsigned index;
};

static struct {
	uint32_t hash;
	int hash_set, bad_image, refuse, log_wrap;
	FILE *journal;
} cfg;

static uint32_t crc32_ieee(const uint8_t *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;

	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0xEDB88320u : c >> 1;
	}
	return ~c;
}

static void st32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t ld32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t *reg(struct fake_nic *n, uint32_t off)
{
	return &n->regs[off / 4];
}

static void log_text(struct fake_nic *n, const char *s)
{
	uint32_t size = *reg(n, RNIC_REG_CPU_LOG_SIZE), head = *reg(n, RNIC_REG_CPU_LOG_HEAD);

	for (; *s; s++, head++)
		n->dmem[LOG_OFF + (head & (size - 1))] = (uint8_t)*s;
	*reg(n, RNIC_REG_CPU_LOG_HEAD) = head;
}

/* The firmware after its boot: status registers and its first log line. */
static void fw_boot(struct fake_nic *n, uint32_t version)
{
	char line[64];

	*reg(n, RNIC_REG_CPU_FW_VERSION) = version;
	*reg(n, RNIC_REG_CPU_LOG_BASE) = RNIC_FW_DMEM_BASE + LOG_OFF;
	*reg(n, RNIC_REG_CPU_LOG_SIZE) = cfg.log_wrap ? 64 : 256;
	*reg(n, RNIC_REG_CPU_LOG_HEAD) = 0;
	*reg(n, RNIC_REG_CPU_HEARTBEAT) = 4242;
	if (cfg.log_wrap) {
		for (int i = 0; i < 12; i++) {
			snprintf(line, sizeof(line), "line %02d\n", i);
			log_text(n, line);
		}
	} else {
		snprintf(line, sizeof(line), "boot ok 0x%08x core %u\n", version, 0u);
		log_text(n, line);
	}
}

/* The loader's checks on the image in the memories (rtl/core/rnic_fw_loader.sv). */
static int image_ok(const struct fake_nic *n)
{
	uint32_t imem = ld32(n->dmem + 8), dmem = ld32(n->dmem + 12);

	return !cfg.refuse && ld32(n->dmem) == RNIC_FW_IMAGE_MAGIC && imem && imem <= MEM_BYTES && dmem <= MEM_BYTES &&
	       ld32(n->dmem + 16) == 0 && crc32_ieee(n->imem, imem) == ld32(n->dmem + 20);
}

static void nic_init(struct fake_nic *n, unsigned index)
{
	memset(n, 0, sizeof(*n));
	n->index = index;
	for (unsigned i = 0; i < RNIC_SPEC_NUM_BLOCKS; i++) {
		const struct rnic_spec_block *b = &rnic_spec_blocks[i];

		*reg(n, b->base + RNIC_BLK_TYPE) = b->type;
		*reg(n, b->base + RNIC_BLK_VERSION) = b->version;
		*reg(n, b->base + RNIC_BLK_NEXT) = i + 1 < RNIC_SPEC_NUM_BLOCKS ? rnic_spec_blocks[i + 1].base : 0;
		for (unsigned k = 0; k < b->num_regs; k++)
			*reg(n, b->base + b->regs[k].off) = b->regs[k].value;
		for (unsigned k = 0; k < b->num_counters; k++)
			*reg(n, b->base + b->counter_base + 4 * k) = 1000 * k + 1;
	}
	if (cfg.hash_set)
		*reg(n, RNIC_REG_ID_SPEC_HASH) = cfg.hash;
	*reg(n, RNIC_REG_ID_DATA_WIDTH) = 512;
	*reg(n, RNIC_REG_ID_NUM_CORES) = 1;
	*reg(n, RNIC_REG_ID_CAPS) = 0x3F;
	*reg(n, RNIC_REG_CTRL_CYCLE_LO) = 0x12345678;
	*reg(n, RNIC_REG_CTRL_CYCLE_HI) = 0x9;
	/* A baked-in image: 64 bytes of code, the header at DMEM 0. */
	for (unsigned i = 0; i < 64; i++)
		n->imem[i] = (uint8_t)(i * 7 + 1);
	st32(n->dmem, RNIC_FW_IMAGE_MAGIC);
	st32(n->dmem + 4, FAKE_FW_VERSION);
	st32(n->dmem + 8, 64);
	st32(n->dmem + 12, 0x400);
	st32(n->dmem + 16, 0);
	st32(n->dmem + 20, crc32_ieee(n->imem, 64));
	if (cfg.bad_image)
		n->imem[5] ^= 0x40;
	*reg(n, RNIC_REG_CPU_CPU_STATUS) = CST_RUNNING | CST_ACCEPTED;
	*reg(n, RNIC_REG_CPU_FW_STATUS) = RNIC_FW_STATUS_READY;
	*reg(n, RNIC_REG_CTRL_STATUS) = RNIC_REG_CTRL_STATUS_F_FIRMWARE_READY;
	fw_boot(n, FAKE_FW_VERSION);
}

/* 0 OKAY, 2 SLVERR, like the AXI-Lite port. */
static uint32_t nic_read(struct fake_nic *n, uint32_t off, uint32_t *val)
{
	int running = (*reg(n, RNIC_REG_CPU_CPU_STATUS) & CST_RUNNING) != 0;

	*val = 0;
	if (off & 3)
		return 2;
	if (off < REG_BYTES) {
		if (off == RNIC_REG_CPU_CPU_STATUS && n->check_in && --n->check_in == 0) {
			if (image_ok(n)) {
				/* the core starts: the firmware's registers clear, then it boots */
				*reg(n, off) = CST_RUNNING | CST_ACCEPTED;
				*reg(n, RNIC_REG_CPU_FW_STATUS) = RNIC_FW_STATUS_BOOTING;
				*reg(n, RNIC_REG_CPU_FW_VERSION) = 0;
				*reg(n, RNIC_REG_CPU_LOG_HEAD) = 0;
				n->boot_in = 2;
			} else {
				*reg(n, off) = CST_REFUSED;
			}
		}
		if (off == RNIC_REG_CPU_FW_STATUS && n->boot_in && --n->boot_in == 0) {
			fw_boot(n, ld32(n->dmem + 4));
			*reg(n, off) = RNIC_FW_STATUS_READY;
		}
		*val = *reg(n, off);
		return 0;
	}
	if (off >= WIN_IMEM && off < WIN_IMEM + MEM_BYTES && !running) {
		*val = ld32(n->imem + (off - WIN_IMEM));
		return 0;
	}
	if (off >= WIN_DMEM && off < WIN_DMEM + MEM_BYTES) {
		*val = ld32(n->dmem + (off - WIN_DMEM));
		return 0;
	}
	return 2;
}

static uint32_t nic_write(struct fake_nic *n, uint32_t off, uint32_t val)
{
	int running = (*reg(n, RNIC_REG_CPU_CPU_STATUS) & CST_RUNNING) != 0;

	if (cfg.journal) {
		fprintf(cfg.journal, "W 0x%06X 0x%08X\n", off, val);
		fflush(cfg.journal);
	}
	if (off & 3)
		return 2;
	if (off < REG_BYTES) {
		if (off == RNIC_REG_CPU_CPU_CONTROL) {
			int hold = val & RNIC_REG_CPU_CPU_CONTROL_F_HOLD_ALL_SOFT_CORES_IN_RESET;

			if (hold) {
				*reg(n, RNIC_REG_CPU_CPU_STATUS) = 0;
				n->check_in = n->boot_in = 0;
			} else if (n->held) {
				n->check_in = 3;
			}
			n->held = hold;
		}
		for (unsigned i = 0; i < RNIC_SPEC_NUM_BLOCKS; i++)
			for (unsigned k = 0; k < rnic_spec_blocks[i].num_regs; k++) {
				const struct rnic_spec_reg *r = &rnic_spec_blocks[i].regs[k];

				if (rnic_spec_blocks[i].base + r->off == off &&
				    (r->kind == RNIC_SPEC_RW || r->kind == RNIC_SPEC_WO))
					*reg(n, off) = val;
			}
		return 0;
	}
	if (running || n->check_in)
		return 2;
	if (off >= WIN_IMEM && off < WIN_IMEM + MEM_BYTES) {
		st32(n->imem + (off - WIN_IMEM), val);
		return 0;
	}
	if (off >= WIN_DMEM && off < WIN_DMEM + MEM_BYTES) {
		st32(n->dmem + (off - WIN_DMEM), val);
		return 0;
	}
	return 2;
}

static void reply(int fd, struct rnic_svc_hdr *h, int32_t rc, const void *out, size_t len)
{
	uint8_t msg[RNIC_SVC_MAX_MSG];

	h->rc = rc;
	memcpy(msg, h, sizeof(*h));
	if (!rc && len)
		memcpy(msg + sizeof(*h), out, len);
	if (send(fd, msg, sizeof(*h) + (rc ? 0 : len), MSG_NOSIGNAL) < 0)
		perror("fake_sim: send");
}

static void serve(int fd, struct fake_nic *nics, unsigned num)
{
	uint8_t msg[RNIC_SVC_MAX_MSG];
	struct fake_nic *n = NULL;
	ssize_t len;

	while ((len = recv(fd, msg, sizeof(msg), 0)) > 0) {
		struct rnic_svc_hdr h;
		const uint8_t *in = msg + sizeof(h);
		size_t in_len = (size_t)len - sizeof(h);

		if ((size_t)len < sizeof(h))
			return;
		memcpy(&h, msg, sizeof(h));
		if (!(h.flags & RNIC_SVC_F_REPLY))
			continue;
		if (h.op == RNIC_SVC_HELLO) {
			struct rnic_svc_hello hi;
			struct rnic_svc_hello_out ho = { RNIC_SVC_VERSION, 0, 0, num };
			unsigned idx;
			char tail;

			if (in_len < sizeof(hi)) {
				reply(fd, &h, -EINVAL, NULL, 0);
				continue;
			}
			memcpy(&hi, in, sizeof(hi));
			hi.ibdev[sizeof(hi.ibdev) - 1] = 0;
			if (hi.version != RNIC_SVC_VERSION || hi.kind != RNIC_SVC_KIND_BAR) {
				reply(fd, &h, -EPROTONOSUPPORT, NULL, 0);
				continue;
			}
			if (sscanf(hi.ibdev, "rnic%u%c", &idx, &tail) != 1 || idx >= num) {
				reply(fd, &h, -ENODEV, NULL, 0);
				continue;
			}
			n = &nics[idx];
			ho.nic = idx;
			reply(fd, &h, 0, &ho, sizeof(ho));
		} else if (!n) {
			reply(fd, &h, -EPROTO, NULL, 0);
		} else if (h.op == RNIC_SVC_BAR_READ && in_len >= sizeof(struct rnic_svc_bar)) {
			/* like sim/service: BAR_READ's input is a whole svc_bar (off used) */
			struct rnic_svc_bar b;

			memcpy(&b, in, sizeof(b));
			if (b.off >= RNIC_BAR0_SIZE) {
				reply(fd, &h, -EINVAL, NULL, 0);
				continue;
			}
			b.resp = nic_read(n, b.off, &b.val);
			reply(fd, &h, 0, &b, sizeof(b));
		} else if (h.op == RNIC_SVC_BAR_WRITE && in_len >= sizeof(struct rnic_svc_bar)) {
			struct rnic_svc_bar b;

			memcpy(&b, in, sizeof(b));
			if (b.off >= RNIC_BAR0_SIZE) {
				reply(fd, &h, -EINVAL, NULL, 0);
				continue;
			}
			b.resp = nic_write(n, b.off, b.val);
			reply(fd, &h, 0, &b, sizeof(b));
		} else {
			reply(fd, &h, -EOPNOTSUPP, NULL, 0);
		}
	}
}

static int write_bar_image(const char *path, struct fake_nic *n)
{
	FILE *f = fopen(path, "wb");
	uint8_t w[4];

	if (!f)
		return -1;
	for (uint32_t off = 0; off < REG_BYTES; off += 4) {
		st32(w, n->regs[off / 4]);
		fwrite(w, 1, 4, f);
	}
	fseek(f, WIN_IMEM, SEEK_SET);
	fwrite(n->imem, 1, MEM_BYTES, f);
	fseek(f, WIN_DMEM, SEEK_SET);
	fwrite(n->dmem, 1, MEM_BYTES, f);
	/* the file spans the whole BAR, as a resource0 file does */
	if (ftruncate(fileno(f), RNIC_BAR0_SIZE))
		return -1;
	return fclose(f);
}

int main(int argc, char **argv)
{
	const char *sock = NULL, *image = NULL;
	unsigned num = 1;
	static struct fake_nic nics[4];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int lfd;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--sock") && v)
			sock = argv[++i];
		else if (!strcmp(a, "--bar-image") && v)
			image = argv[++i];
		else if (!strcmp(a, "--nics") && v)
			num = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(a, "--journal") && v)
			cfg.journal = fopen(argv[++i], "w");
		else if (!strcmp(a, "--hash") && v) {
			cfg.hash = (uint32_t)strtoul(argv[++i], NULL, 0);
			cfg.hash_set = 1;
		} else if (!strcmp(a, "--bad-image"))
			cfg.bad_image = 1;
		else if (!strcmp(a, "--refuse"))
			cfg.refuse = 1;
		else if (!strcmp(a, "--log-wrap"))
			cfg.log_wrap = 1;
		else {
			fprintf(stderr, "fake_sim: bad argument %s\n", a);
			return 2;
		}
	}
	if (!num || num > 4 || (!sock && !image)) {
		fprintf(stderr, "fake_sim: need --sock PATH or --bar-image FILE, 1 to 4 NICs\n");
		return 2;
	}
	for (unsigned i = 0; i < num; i++)
		nic_init(&nics[i], i);
	if (image)
		return write_bar_image(image, &nics[0]) ? 1 : 0;
	if (strlen(sock) >= sizeof(sa.sun_path))
		return 2;
	strcpy(sa.sun_path, sock);
	unlink(sock);
	lfd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, 4)) {
		perror("fake_sim: listen");
		return 1;
	}
	/* One client at a time is all the tool needs; the NICs keep their state across clients. */
	for (;;) {
		int fd = accept(lfd, NULL, NULL);

		if (fd < 0) {
			if (errno == EINTR)
				continue;
			perror("fake_sim: accept");
			return 1;
		}
		serve(fd, nics, num);
		close(fd);
	}
}
