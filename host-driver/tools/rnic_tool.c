/* rnic-tool: the board tool. Finds cards on the PCI bus, prints BAR0's register blocks with the
 * spec's names, the counters and the firmware log, loads a firmware image, resets the soft core.
 * The same commands reach a simulated NIC over the simulator service's socket (--sim). Register
 * names come only from the generated spec/include/rnic_spec_regs.h; device access goes through
 * the driver core (rnic_discover, rnic_fw) on a struct rnic_os backed by tool_bar. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "rnic_discover.h"
#include "rnic_fw.h"
#include "rnic_os.h"
#include "rnic_spec_regs.h"
#include "rnicp_sim_proto.h"
#include "tool_bar.h"
#include "tool_fwimg.h"

struct opts {
	const char *slot;
	const char *sim;	/* socket path when --sim */
	int use_sim;
	const char *ibdev;
	unsigned timeout_s;
	int verbose;
};

struct dev {
	struct tool_bar *bar;
	struct rnic_os os;
	struct rnic_dev_info info;
	int discover_rc;
};

static const char usage_text[] =
	"usage: rnic-tool [-s SLOT | --sim [PATH] [-d DEV]] [-t SECONDS] [-v] COMMAND [FILE]\n"
	"commands:\n"
	"  list          cards with PCI ID %04x:%04x: slot, IDs, BAR0 (with --sim: the simulated NICs)\n"
	"  regs          every register block in BAR0, decoded with the spec's names\n"
	"  counters      the statistics counters, by name\n"
	"  fwlog         the firmware's log ring\n"
	"  fw-load FILE  load a firmware image (fw.img); a bad image is refused before anything is written\n"
	"  reset         hold the soft core in reset, release it, wait for fw_status READY\n"
	"options:\n"
	"  -s SLOT       the card at PCI slot DDDD:BB:DD.F (default: the only card)\n"
	"  --sim [PATH]  a simulated NIC, through the simulator service's socket at PATH\n"
	"                (default $" RNIC_SVC_ENV "); PATH, if given, comes before the command\n"
	"  -d DEV        with --sim: which NIC, rnic0 (default), rnic1, ...\n"
	"  -t SECONDS    how long to wait for the firmware (default 10)\n"
	"  -v            regs: print each register's description too\n"
	"  -h, --help    this text\n";

/* Bad arguments: the reason, the usage text, exit status 2. */
static void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "rnic-tool: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	fprintf(stderr, usage_text, RNIC_PCI_VENDOR_ID, RNIC_PCI_DEVICE_ID);
	va_end(ap);
	exit(2);
}

/* Anything else that stops a command: the reason, exit status 1. */
static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "rnic-tool: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

/* ---- the driver core's OS interface on a tool_bar ---------------------------------------- */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* rnic_fw_load counts its polls as microseconds; over a socket a poll costs far more, so the
 * tool bounds the wait in wall time itself. */
static uint64_t sleep_deadline_ns;

static uint32_t os_rd32(void *ctx, uint32_t off)
{
	struct tool_bar *b = ctx;

	return b->ops->rd32(b, off);
}

static void os_wr32(void *ctx, uint32_t off, uint32_t val)
{
	struct tool_bar *b = ctx;

	b->ops->wr32(b, off, val);
}

static void os_log(void *ctx, const char *msg)
{
	struct tool_bar *b = ctx;

	fprintf(stderr, "rnic-tool: %s: %s\n", b->name, msg);
}

static void sleep_us(unsigned us)
{
	struct timespec ts = { (time_t)(us / 1000000u), (long)(us % 1000000u) * 1000 };

	nanosleep(&ts, NULL);
}

static void os_sleep_us(void *ctx, unsigned us)
{
	struct tool_bar *b = ctx;

	if (sleep_deadline_ns && now_ns() > sleep_deadline_ns)
		die("%s: no answer from the firmware loader in time (cpu_status 0x%08X)", b->name,
		    b->ops->rd32(b, RNIC_REG_CPU_CPU_STATUS));
	sleep_us(us);
}

static uint64_t os_now_ns(void *ctx)
{
	(void)ctx;
	return now_ns();
}

static uint32_t rd(struct dev *d, uint32_t off)
{
	return rnic_rd32(&d->os, off);
}

static void wr(struct dev *d, uint32_t off, uint32_t val)
{
	rnic_wr32(&d->os, off, val);
}

static struct tool_bar *open_bar(const struct opts *o, const char *ibdev, unsigned *num_nics)
{
	struct tool_bar *bar = NULL;
	const char *why = NULL;
	int rc = o->use_sim ? tool_bar_open_sim(&bar, o->sim, ibdev, num_nics, &why)
			    : tool_bar_open_pci(&bar, o->slot, &why);

	if (rc)
		die("%s", why ? why : strerror(-rc));
	return bar;
}

/* Opens the device and walks its block chain. A spec-hash mismatch is a warning here: the
 * tool exists to look at such a card. */
static void dev_open(struct dev *d, const struct opts *o)
{
	d->bar = open_bar(o, o->ibdev, NULL);
	d->os = (struct rnic_os){ .ctx = d->bar, .mmio_read32 = os_rd32, .mmio_write32 = os_wr32, .log = os_log,
				  .sleep_us = os_sleep_us, .now_ns = os_now_ns };
	d->discover_rc = rnic_discover(&d->os, &d->info);
	if (d->discover_rc == -ENODEV)
		die("%s: BAR0 does not start with the identity block (read 0x%08X at 0): not an rnic card, or no "
		    "bitstream loaded", d->bar->name, rd(d, RNIC_BLK_TYPE));
	if (d->discover_rc == -ELOOP)
		die("%s: the register-block chain does not end (more than %u blocks, or a bad NEXT)", d->bar->name,
		    RNIC_MAX_BLOCKS);
	if (d->discover_rc == -EPROTO)
		fprintf(stderr,
			"rnic-tool: %s: warning: built from another spec (hash 0x%08X, this tool 0x%08X): names may "
			"not match\n",
			d->bar->name, d->info.spec_hash, RNIC_SPEC_HASH);
	else if (d->discover_rc)
		die("%s: discovery failed: %s", d->bar->name, strerror(-d->discover_rc));
}

static int dev_close(struct dev *d)
{
	unsigned errors = d->bar->errors;

	if (errors)
		fprintf(stderr, "rnic-tool: %s: %u BAR0 access%s answered with an error\n", d->bar->name, errors,
			errors == 1 ? "" : "es");
	tool_bar_close(d->bar);
	return errors ? 1 : 0;
}

/* The cpu block must sit where the spec puts it: the driver core's firmware code addresses it
 * there. */
static void need_cpu_block(struct dev *d)
{
	uint32_t base = rnic_find_block(&d->info, RNIC_BLK_CPU_TYPE);

	if (base != RNIC_BLK_CPU_BASE)
		die("%s: the cpu block is %s (this tool expects it at 0x%03X)", d->bar->name,
		    base ? "elsewhere in BAR0" : "missing", RNIC_BLK_CPU_BASE);
}

static const struct rnic_spec_block *spec_block(uint32_t type)
{
	for (unsigned i = 0; i < RNIC_SPEC_NUM_BLOCKS; i++)
		if (rnic_spec_blocks[i].type == type)
			return &rnic_spec_blocks[i];
	return NULL;
}

/* One column for every register and counter name of the spec (at least 20 wide, so the
 * layout stays put when the spec grows a name). */
static int name_width(void)
{
	static int w;

	if (!w) {
		w = 20;
		for (unsigned i = 0; i < RNIC_SPEC_NUM_BLOCKS; i++)
			for (unsigned k = 0; k < rnic_spec_blocks[i].num_regs; k++)
				if ((int)strlen(rnic_spec_blocks[i].regs[k].name) > w)
					w = (int)strlen(rnic_spec_blocks[i].regs[k].name);
		for (unsigned k = 0; k < RNIC_NUM_COUNTERS; k++)
			if ((int)strlen(rnic_counter_names[k]) > w)
				w = (int)strlen(rnic_counter_names[k]);
	}
	return w;
}

static const char *enum_name(const struct rnic_spec_enumval *v, unsigned n, uint32_t val)
{
	for (unsigned i = 0; i < n; i++)
		if (v[i].value == val)
			return v[i].name;
	return NULL;
}

/* ---- commands ------------------------------------------------------------------------------ */

static int cmd_list(const struct opts *o)
{
	if (o->use_sim) {
		unsigned n = 0;
		struct tool_bar *bar = open_bar(o, "rnic0", &n);

		tool_bar_close(bar);
		for (unsigned i = 0; i < n; i++) {
			char name[16];
			uint32_t pci;

			snprintf(name, sizeof(name), "rnic%u", i);
			bar = open_bar(o, name, NULL);
			pci = bar->ops->rd32(bar, RNIC_REG_ID_PCI_ID);
			printf("%-6s %04x:%04x  simulated NIC %u of %u at %s\n", name, pci & 0xFFFF, pci >> 16, i, n,
			       o->sim);
			tool_bar_close(bar);
		}
		return 0;
	}
	struct tool_pci_card cards[64];
	int n = tool_pci_list(cards, 64);

	if (n < 0)
		die("cannot read the PCI bus: %s", strerror(-n));
	if (n == 0)
		die("no rnic card (%04x:%04x) found", RNIC_PCI_VENDOR_ID, RNIC_PCI_DEVICE_ID);
	for (int i = 0; i < n && i < 64; i++) {
		const struct tool_pci_card *c = &cards[i];

		printf("%s  %04x:%04x  subsystem %04x:%04x  ", c->slot, c->vendor_id, c->device_id, c->subvendor_id,
		       c->subdevice_id);
		if (c->bar0_addr)
			printf("BAR0 0x%llx size 0x%llx\n", (unsigned long long)c->bar0_addr,
			       (unsigned long long)c->bar0_size);
		else
			printf("BAR0 absent\n");
	}
	return 0;
}

static void print_reg(struct dev *d, const struct opts *o, uint32_t base, const struct rnic_spec_reg *r)
{
	static const char *const kinds[] = { "const", "ro", "rw", "wo" };
	unsigned err0 = d->bar->errors;
	uint32_t v = rd(d, base + r->off);

	printf("  0x%03X %-*s %-5s 0x%08X", base + r->off, name_width(), r->name, kinds[r->kind], v);
	if (d->bar->errors != err0)
		printf("  (read error)");
	else if (r->kind == RNIC_SPEC_CONST && v != r->value)
		printf("  (spec: 0x%08X)", r->value);
	else if (r->enumvals && !r->enum_bits) {
		const char *n = enum_name(r->enumvals, r->num_enumvals, v);

		printf("  %s", n ? n : "(not in the spec)");
	} else if (r->enumvals) {
		uint32_t rest = v;

		printf(" ");
		for (unsigned i = 0; i < r->num_enumvals; i++)
			if (r->enumvals[i].value < 32 && (v >> r->enumvals[i].value) & 1) {
				printf(" %s", r->enumvals[i].name);
				rest &= ~(1u << r->enumvals[i].value);
			}
		if (rest)
			printf(" other:0x%X", rest);
	}
	printf("\n");
	if (o->verbose)
		printf("        %s\n", r->doc);
	if (d->bar->errors != err0)
		return;
	uint32_t known = 0;

	for (unsigned i = 0; i < r->num_fields; i++) {
		const struct rnic_spec_field *f = &r->fields[i];
		uint32_t mask = f->bits >= 32 ? 0xFFFFFFFFu : ((1u << f->bits) - 1);
		uint32_t fv = (v >> f->lsb) & mask;

		known |= mask << f->lsb;
		if (f->bits == 1)
			printf("        [%u] %s: %u\n", f->lsb, f->name, fv);
		else
			printf("        [%u:%u] %s: 0x%X\n", f->lsb + f->bits - 1, f->lsb, f->name, fv);
	}
	if (r->num_fields && (v & ~known))
		printf("        other bits: 0x%08X\n", v & ~known);
}

static int cmd_regs(const struct opts *o)
{
	struct dev d;

	dev_open(&d, o);
	printf("%s: %u register blocks, PCI ID %04x:%04x, hw %u.%u, spec hash 0x%08X (%s)\n", d.bar->name,
	       d.info.num_blocks, d.info.vendor_id, d.info.device_id, d.info.hw_version >> 16,
	       d.info.hw_version & 0xFFFF, d.info.spec_hash,
	       d.info.spec_hash == RNIC_SPEC_HASH ? "this tool's" : "NOT this tool's");
	for (unsigned i = 0; i < d.info.num_blocks; i++) {
		const struct rnic_block *b = &d.info.blocks[i];
		const struct rnic_spec_block *sb = spec_block(b->type);
		char tname[5];

		rnic_block_name(b->type, tname);
		printf("\nblock %s at 0x%03X: type 0x%08X '%s', version 0x%08X", sb ? sb->name : "?", b->base, b->type,
		       tname, b->version);
		if (!sb) {
			printf(": not in this tool's spec\n");
			continue;
		}
		if (b->version != sb->version)
			printf(" (this tool knows 0x%08X)", sb->version);
		printf("\n");
		if (o->verbose)
			printf("  %s\n", sb->doc);
		for (unsigned k = 0; k < sb->num_regs; k++)
			print_reg(&d, o, b->base, &sb->regs[k]);
		for (unsigned k = 0; k < sb->num_counters; k++) {
			uint32_t off = b->base + sb->counter_base + 4 * k;
			uint32_t v = rd(&d, off);

			printf("  0x%03X %-*s %-5s 0x%08X  %u\n", off, name_width(), rnic_counter_names[k], "ro", v, v);
		}
	}
	return dev_close(&d);
}

static int cmd_counters(const struct opts *o)
{
	struct dev d;
	uint32_t base, n, cb;

	dev_open(&d, o);
	base = rnic_find_block(&d.info, RNIC_BLK_COUNTERS_TYPE);
	if (!base)
		die("%s: no counters block in BAR0", d.bar->name);
	/* The device says how many counters it has and where; names beyond the spec's are numbers. */
	n = rd(&d, base + (RNIC_REG_COUNTERS_NUM_COUNTERS - RNIC_BLK_COUNTERS_BASE));
	cb = rd(&d, base + (RNIC_REG_COUNTERS_COUNTER_BASE - RNIC_BLK_COUNTERS_BASE));
	if (cb < 0x10 || (cb & 3) || cb + 4ull * n > RNIC_BAR0_BLOCK_STRIDE)
		die("%s: the counters block says %u counters at +0x%X: more than the block holds", d.bar->name, n, cb);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t v = rd(&d, base + cb + 4 * i);

		if (i < RNIC_NUM_COUNTERS)
			printf("%-20s %10u\n", rnic_counter_names[i], v);
		else
			printf("counter%-13u %10u\n", i, v);
	}
	return dev_close(&d);
}

static int cmd_fwlog(const struct opts *o)
{
	struct dev d;
	uint32_t size, head;
	char *buf;
	int n;

	dev_open(&d, o);
	need_cpu_block(&d);
	size = rd(&d, RNIC_REG_CPU_LOG_SIZE);
	head = rd(&d, RNIC_REG_CPU_LOG_HEAD);
	if (size > RNIC_BAR0_FW_WINDOW_SIZE / 2)
		size = RNIC_BAR0_FW_WINDOW_SIZE / 2; /* rnic_fw_log_read refuses it anyway */
	buf = malloc((size_t)size + 1);
	if (!buf)
		die("out of memory");
	n = rnic_fw_log_read(&d.os, buf, (size_t)size + 1);
	if (n < 0) {
		uint32_t st = rd(&d, RNIC_REG_CPU_FW_STATUS);
		const char *sn = enum_name(rnic_spec_enum_fw_status, sizeof(rnic_spec_enum_fw_status) /
					   sizeof(rnic_spec_enum_fw_status[0]), st);

		die("%s: the firmware has published no log ring (fw_status %u %s)", d.bar->name, st, sn ? sn : "?");
	}
	if (head > size)
		fprintf(stderr, "rnic-tool: %s: the log wrapped: its oldest %u bytes are gone\n", d.bar->name,
			head - size);
	fwrite(buf, 1, (size_t)n, stdout);
	if (n && buf[n - 1] != '\n')
		putchar('\n');
	free(buf);
	return dev_close(&d);
}

static const char *fw_status_name(uint32_t st)
{
	const char *n = enum_name(rnic_spec_enum_fw_status,
				  sizeof(rnic_spec_enum_fw_status) / sizeof(rnic_spec_enum_fw_status[0]), st);

	return n ? n : "?";
}

/* After the core runs: the firmware says READY (or PANIC, BAD_IMAGE) in fw_status. */
static void wait_fw_ready(struct dev *d, const struct opts *o)
{
	uint64_t end = now_ns() + (uint64_t)o->timeout_s * 1000000000u;
	uint32_t st;

	for (;;) {
		st = rd(d, RNIC_REG_CPU_FW_STATUS);
		if (st == RNIC_FW_STATUS_READY)
			break;
		if (st == RNIC_FW_STATUS_PANIC || st == RNIC_FW_STATUS_BAD_IMAGE ||
		    (rd(d, RNIC_REG_CPU_CPU_STATUS) & RNIC_REG_CPU_CPU_STATUS_F_PANICKED))
			die("%s: firmware stopped: fw_status %u %s, mcause 0x%08X mepc 0x%08X mtval 0x%08X (see fwlog)",
			    d->bar->name, st, fw_status_name(st), rd(d, RNIC_REG_CPU_PANIC_MCAUSE),
			    rd(d, RNIC_REG_CPU_PANIC_MEPC), rd(d, RNIC_REG_CPU_PANIC_MTVAL));
		if (now_ns() > end)
			die("%s: firmware not READY after %u s (fw_status %u %s, heartbeat %u)", d->bar->name,
			    o->timeout_s, st, fw_status_name(st), rd(d, RNIC_REG_CPU_HEARTBEAT));
		sleep_us(1000);
	}
	printf("%s: firmware 0x%08X READY\n", d->bar->name, rd(d, RNIC_REG_CPU_FW_VERSION));
}

static int cmd_fw_load(const struct opts *o, const char *file)
{
	/* the largest file that can be an image: header, a full IMEM and a full DMEM */
	const size_t cap = RNIC_FW_IMAGE_HDR_SIZE + RNIC_BAR0_FW_WINDOW_SIZE;
	struct rnic_fw_image_info info;
	char why[256];
	uint32_t crc = 0;
	uint8_t *img;
	size_t len;
	struct dev d;
	FILE *f;
	int rc;

	/* Every check on the file comes before the device is even opened. */
	f = fopen(file, "rb");
	if (!f)
		die("%s: %s", file, strerror(errno));
	img = malloc(cap + 1);
	if (!img)
		die("out of memory");
	len = fread(img, 1, cap + 1, f);
	if (ferror(f))
		die("%s: read error", file);
	fclose(f);
	if (len > cap)
		die("%s: refused, nothing written: too big: more than %zu bytes, the largest image the window holds",
		    file, cap);
	if (tool_fwimg_check(img, len, &info, &crc, why, sizeof(why)))
		die("%s: refused, nothing written: %s", file, why);

	dev_open(&d, o);
	need_cpu_block(&d);
	printf("%s: loading %s: version 0x%08X, IMEM %u bytes (CRC 0x%08X), DMEM %u bytes\n", d.bar->name, file,
	       info.version, info.imem_size, crc, info.dmem_size);
	fflush(stdout);
	sleep_deadline_ns = now_ns() + (uint64_t)o->timeout_s * 1000000000u;
	rc = rnic_fw_load(&d.os, img, len, o->timeout_s * 1000000u);
	sleep_deadline_ns = 0;
	free(img);
	if (rc == -EBADMSG)
		die("%s: the NIC's loader refused the image (cpu_status 0x%08X): the core stays held in reset",
		    d.bar->name, rd(&d, RNIC_REG_CPU_CPU_STATUS));
	if (rc)
		die("%s: loading failed: %s", d.bar->name, strerror(-rc));
	wait_fw_ready(&d, o);
	return dev_close(&d);
}

static int cmd_reset(const struct opts *o)
{
	struct dev d;
	uint64_t end;
	uint32_t ctl, st;

	dev_open(&d, o);
	need_cpu_block(&d);
	end = now_ns() + (uint64_t)o->timeout_s * 1000000000u;
	ctl = rd(&d, RNIC_REG_CPU_CPU_CONTROL);
	wr(&d, RNIC_REG_CPU_CPU_CONTROL, ctl | RNIC_REG_CPU_CPU_CONTROL_F_HOLD_ALL_SOFT_CORES_IN_RESET);
	while ((st = rd(&d, RNIC_REG_CPU_CPU_STATUS)) & RNIC_REG_CPU_CPU_STATUS_F_RUNNING) {
		if (now_ns() > end)
			die("%s: the core still runs %u s after the hold (cpu_status 0x%08X)", d.bar->name, o->timeout_s,
			    st);
		sleep_us(100);
	}
	/* Releasing the hold makes the loader check the image in IMEM/DMEM again before it runs;
	 * the firmware's status registers clear when the core starts. */
	wr(&d, RNIC_REG_CPU_CPU_CONTROL, ctl & ~RNIC_REG_CPU_CPU_CONTROL_F_HOLD_ALL_SOFT_CORES_IN_RESET);
	printf("%s: soft core held in reset and released\n", d.bar->name);
	fflush(stdout);
	for (;;) {
		st = rd(&d, RNIC_REG_CPU_CPU_STATUS);
		if (st & RNIC_REG_CPU_CPU_STATUS_F_IMAGE_REFUSED)
			die("%s: the loader refused the image in the NIC's memories (cpu_status 0x%08X): the core stays "
			    "in reset; load one with fw-load",
			    d.bar->name, st);
		if ((st & RNIC_REG_CPU_CPU_STATUS_F_IMAGE_ACCEPTED) && (st & RNIC_REG_CPU_CPU_STATUS_F_RUNNING))
			break;
		if (now_ns() > end)
			die("%s: no verdict from the loader after %u s (cpu_status 0x%08X)", d.bar->name, o->timeout_s,
			    st);
		sleep_us(100);
	}
	wait_fw_ready(&d, o);
	return dev_close(&d);
}

static int is_command(const char *s)
{
	static const char *const cmds[] = { "list", "regs", "counters", "fwlog", "fw-load", "reset" };

	for (unsigned i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(s, cmds[i]))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { .ibdev = "rnic0", .timeout_s = 10 };
	const char *cmd = NULL, *args[2] = { 0 };
	int nargs = 0, dev_given = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			printf(usage_text, RNIC_PCI_VENDOR_ID, RNIC_PCI_DEVICE_ID);
			return 0;
		} else if (!strcmp(a, "-s")) {
			if (++i == argc)
				usage_error("-s needs a SLOT");
			o.slot = argv[i];
		} else if (!strcmp(a, "-d")) {
			if (++i == argc)
				usage_error("-d needs a device name");
			o.ibdev = argv[i];
			dev_given = 1;
		} else if (!strcmp(a, "-t")) {
			char *end;
			unsigned long t;

			if (++i == argc)
				usage_error("-t needs a number of seconds");
			t = strtoul(argv[i], &end, 10);
			if (*end || !*argv[i] || t == 0 || t > 86400)
				usage_error("bad timeout '%s' (whole seconds, 1 to 86400)", argv[i]);
			o.timeout_s = (unsigned)t;
		} else if (!strcmp(a, "-v")) {
			o.verbose = 1;
		} else if (!strncmp(a, "--sim=", 6)) {
			o.use_sim = 1;
			o.sim = a + 6;
		} else if (!strcmp(a, "--sim")) {
			o.use_sim = 1;
			/* An optional PATH: taken only before the command, and never a command name. */
			if (!cmd && i + 1 < argc && argv[i + 1][0] != '-' && !is_command(argv[i + 1]))
				o.sim = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			usage_error("unknown option '%s'", a);
		} else if (!cmd) {
			if (!is_command(a))
				usage_error("unknown command '%s'", a);
			cmd = a;
		} else {
			if (nargs == 2)
				usage_error("too many arguments at '%s'", a);
			args[nargs++] = a;
		}
	}
	if (!cmd)
		usage_error("no command given");
	if (o.use_sim && o.slot)
		usage_error("-s (a PCI slot) and --sim exclude each other");
	if (dev_given && !o.use_sim)
		usage_error("-d names a simulated NIC: it needs --sim");
	if (o.use_sim && (!o.sim || !*o.sim)) {
		o.sim = getenv(RNIC_SVC_ENV);
		if (!o.sim || !*o.sim)
			usage_error("--sim needs a PATH or $%s", RNIC_SVC_ENV);
	}
	if (!strcmp(cmd, "fw-load")) {
		if (nargs != 1)
			usage_error("fw-load needs exactly one FILE");
		return cmd_fw_load(&o, args[0]);
	}
	if (nargs)
		usage_error("%s takes no argument", cmd);
	if (!strcmp(cmd, "list"))
		return cmd_list(&o);
	if (!strcmp(cmd, "regs"))
		return cmd_regs(&o);
	if (!strcmp(cmd, "counters"))
		return cmd_counters(&o);
	if (!strcmp(cmd, "fwlog"))
		return cmd_fwlog(&o);
	return cmd_reset(&o);
}
