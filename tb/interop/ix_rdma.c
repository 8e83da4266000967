// ix_rdma: RC operations with byte-exact checks on both sides, between two libibverbs devices
// of any kind (here: rxe in the QEMU guest and our NIC through the simulator service).
//   ix_rdma -d DEV -g GIDIDX -p PORT [-m MTU] [-t TIMEOUT] [-r MIN_RNR_TIMER] [-s SIZE,SIZE...] server
//   ix_rdma ... client HOST
// QP details go over TCP (the out-of-band port). Phase 1: the client is the requester, phase 2:
// the server. Per size, the requester does WRITE, WRITE_WITH_IMM, READ and SEND, then CAS and
// FAA once, then an RNR case (the responder posts its receive a second after the requester's
// SEND: the requester is RNR-NAKed and retries until it lands, rnr_retry 7 = for ever); the side
// that can see the result checks it (the responder the data written or sent
// and the immediate, the requester the data read and the atomics' original values, the
// responder the final atomic value) and prints PASS/FAIL; the other side learns it over TCP.
// perftest has no WRITE_IMM and checks no data, ibv_rc_pingpong has no MR: hence this program.
// With -u COUNT it runs UD instead (ud_run): per phase and size the sender sends COUNT datagrams,
// the receiver checks each one that arrives (sequence number, length, source QP, bytes) and counts
// them; UD has no retransmission, so under loss fewer arrive and the suite accounts for the rest
// with the link's loss counters.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { MAX_SIZES = 8, MSG = 96, UD_MAX = 240, GRH = 40, UD_QKEY = 0x1A2B3C4D };

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq;
static struct ibv_qp *qp;
static struct ibv_mr *mr;
static uint8_t *buf;     // [0, max): source; [max, 2 max): destination; [2 max, +8): atomic word
static size_t max_sz;
static int sock = -1, failures;
static const char *side;

static void die(const char *what) {
  fprintf(stderr, "ix_rdma %s: %s: %s\n", side, what, strerror(errno));
  exit(2);
}

static void put(const char *m) {
  char b[MSG] = {0};
  snprintf(b, sizeof b, "%s", m);
  if (write(sock, b, MSG) != MSG) die("oob write");
}
static void get(char *m) {
  size_t n = 0;
  while (n < MSG) {
    ssize_t r = read(sock, m + n, MSG - n);
    if (r <= 0) die("oob read");
    n += (size_t)r;
  }
  m[MSG - 1] = 0;
}

static uint8_t pat(size_t i, size_t size, int tag) { return (uint8_t)(i * 7 + size * 13 + (size_t)tag * 31 + (i >> 8)); }
static void fill(uint8_t *p, size_t n, int tag) {
  for (size_t i = 0; i < n; i++) p[i] = pat(i, n, tag);
}
// Returns the first wrong offset, or -1.
static long check(const uint8_t *p, size_t n, int tag) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != pat(i, n, tag)) return (long)i;
  return -1;
}

static void result(const char *name, const char *why) {
  if (why) {
    printf("FAIL %s %s\n", name, why);
    failures++;
  } else {
    printf("PASS %s\n", name);
  }
  fflush(stdout);
}

// One completion, wall_limit seconds of wall time at most (-w, default 60): a guard against a
// hang, not a performance check. The simulated peer is slow: a 1 MiB message at MTU 1024 under 5 %
// loss (go-back-N from each NAK) takes minutes of wall time.
static int wall_limit = 60;
static int poll1(struct ibv_wc *wc) {
  time_t t0 = time(NULL);
  for (;;) {
    int n = ibv_poll_cq(cq, 1, wc);
    if (n < 0) return -1;
    if (n == 1) return 0;
    if (time(NULL) - t0 > wall_limit) return -2;
  }
}

static void post_recv(uint64_t off, uint32_t len) {
  struct ibv_sge sge = {(uintptr_t)buf + off, len, mr->lkey};
  struct ibv_recv_wr wr = {.wr_id = 2, .sg_list = &sge, .num_sge = 1}, *bad;
  if (ibv_post_recv(qp, &wr, &bad)) die("post_recv");
}

// A send-queue operation; returns NULL or why it failed.
static const char *post_send(enum ibv_wr_opcode op, uint64_t loff, uint32_t len, uint64_t raddr, uint32_t rkey,
                             uint32_t imm, uint64_t cmp, uint64_t swp, struct ibv_wc *wc) {
  static char why[128];
  struct ibv_sge sge = {(uintptr_t)buf + loff, len, mr->lkey};
  struct ibv_send_wr wr = {.wr_id = 1, .sg_list = &sge, .num_sge = 1, .opcode = op, .send_flags = IBV_SEND_SIGNALED}, *bad;
  wr.imm_data = htonl(imm);
  if (op == IBV_WR_ATOMIC_CMP_AND_SWP || op == IBV_WR_ATOMIC_FETCH_AND_ADD) {
    wr.wr.atomic.remote_addr = raddr;
    wr.wr.atomic.rkey = rkey;
    wr.wr.atomic.compare_add = cmp;
    wr.wr.atomic.swap = swp;
  } else {
    wr.wr.rdma.remote_addr = raddr;
    wr.wr.rdma.rkey = rkey;
  }
  if (ibv_post_send(qp, &wr, &bad)) return "post_send refused";
  int rc = poll1(wc);
  if (rc) return rc == -2 ? "no completion within the wall-time limit (-w)" : "poll_cq error";
  if (wc->status != IBV_WC_SUCCESS || wc->wr_id != 1) {
    snprintf(why, sizeof why, "completion status %s (%d) wr_id %llu", ibv_wc_status_str(wc->status), wc->status,
             (unsigned long long)wc->wr_id);
    return why;
  }
  return NULL;
}

struct peer {
  uint32_t qpn, psn, rkey;
  uint64_t addr;
  union ibv_gid gid;
};

// rxe resolves the peer's MAC (ARP through the kernel) in modify_qp to RTR and in create_ah, and
// gives up with ETIMEDOUT when the request or the reply is lost (the lossy sessions lose ARP
// frames too): try again a few times, as an application on a lossy network would.
static int resolve_again(int err, int tries) {
  if (err != ETIMEDOUT || tries >= 5) return 0;
  fprintf(stderr, "ix_rdma %s: address resolution timed out, again (%d)\n", side, tries + 1);
  sleep(1);
  return 1;
}

static void teardown(struct ibv_device **list) {
  ibv_destroy_qp(qp);
  ibv_dereg_mr(mr);
  ibv_destroy_cq(cq);
  ibv_dealloc_pd(pd);
  ibv_close_device(ctx);
  ibv_free_device_list(list);
}

// ---- UD (-u COUNT) ------------------------------------------------------------------------------
// Datagram payload: 0x5A, the round, the sequence number + 1 (16 bits, big-endian), then pat() of
// the tag (round << 16 | sequence number), so a datagram is checked on its own whatever was lost
// or reordered around it, and one that arrives after its round ended (slow, not lost) is still
// recognised and counted. The header's shape keeps tshark's InfiniBand dissector from taking the
// payload for an IPoIB header (bytes 2-3 zero) or EoIB (first byte 0xC.), which it would call
// malformed.
static void ud_fill(uint8_t *p, size_t n, uint32_t tag) {
  const uint32_t q1 = (tag & 0xFFFF) + 1;
  const uint8_t h[4] = {0x5A, (uint8_t)(tag >> 16), (uint8_t)(q1 >> 8), (uint8_t)q1};
  for (size_t i = 0; i < n; i++) p[i] = i < 4 ? h[i] : pat(i, n, (int)tag);
}

static int readable(int fd) {
  struct pollfd f = {.fd = fd, .events = POLLIN};
  return poll(&f, 1, 0) > 0;
}

// Phase 1 the client sends, phase 2 the server; per size COUNT datagrams. The receiver keeps COUNT
// receives posted (ring of UD_MAX slots, each GRH + largest size), checks every completion (status,
// opcode, GRH flag, source QP, length, tag not seen before, bytes), stops when all arrived or 2 s
// after the sender said it is done with nothing more arriving, and prints
// "UDRECV round size arrived count late"; the sender prints PASS when every send completed.
static int ud_run(int server, int gidx, const size_t *sizes, int nsizes, int count) {
  struct ibv_qp_attr a = {.qp_state = IBV_QPS_RTR};
  if (ibv_modify_qp(qp, &a, IBV_QP_STATE)) die("UD RTR");
  a.qp_state = IBV_QPS_RTS;
  a.sq_psn = 0;
  if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN)) die("UD RTS");
  union ibv_gid gid, rgid;
  if (ibv_query_gid(ctx, 1, gidx, &gid)) die("query_gid");
  char m[MSG], g[33], name[64], why[200];
  for (int i = 0; i < 16; i++) sprintf(g + 2 * i, "%02x", gid.raw[i]);
  snprintf(m, sizeof m, "%06x %s", qp->qp_num, g);
  put(m);
  get(m);
  unsigned rqpn;
  if (sscanf(m, "%x %32s", &rqpn, g) != 2) die("peer message");
  for (int i = 0; i < 16; i++) sscanf(g + 2 * i, "%2hhx", &rgid.raw[i]);
  struct ibv_ah_attr aa = {.is_global = 1, .grh = {.dgid = rgid, .sgid_index = (uint8_t)gidx, .hop_limit = 64}, .port_num = 1};
  struct ibv_ah *ah;
  for (int t = 0; !(ah = ibv_create_ah(pd, &aa)); t++)
    if (!resolve_again(errno, t)) die("create_ah");
  const size_t slot = GRH + max_sz;
  uint8_t *rbuf = buf, *sbuf = buf + UD_MAX * slot;
  static uint8_t seen[2 * MAX_SIZES][UD_MAX];
  uint64_t rposted = 0, rdone = 0;  // receives posted / completed, in order (the ring index)
  long total = 0;
  for (int phase = 1; phase <= 2; phase++) {
    int snd = (phase == 1) == !server;
    for (int k = 0; k < nsizes; k++) {
      const size_t s = sizes[k];
      const uint32_t round = (uint32_t)((phase - 1) * nsizes + k);
      struct ibv_wc wc;
      if (s < 4 || s > max_sz) die("UD sizes must be 4 bytes or more");
      if (snd) {
        snprintf(name, sizeof name, "p%d-send-ud-%zu", phase, s);
        get(m);  // the receiver has its receives posted
        int posted = 0, done = 0;
        why[0] = 0;
        while (done < count) {
          while (posted < count && posted - done < 16) {
            uint8_t *p = sbuf + (size_t)(posted % 16) * max_sz;  // send completions come in order
            ud_fill(p, s, round << 16 | (uint32_t)posted);
            struct ibv_sge sge = {(uintptr_t)p, (uint32_t)s, mr->lkey};
            struct ibv_send_wr wr = {.wr_id = (uint64_t)posted, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
                                     .send_flags = IBV_SEND_SIGNALED},
                               *bad;
            wr.wr.ud.ah = ah;
            wr.wr.ud.remote_qpn = rqpn;
            wr.wr.ud.remote_qkey = UD_QKEY;
            if (ibv_post_send(qp, &wr, &bad)) die("UD post_send");
            posted++;
          }
          int rc = poll1(&wc);
          if (rc) {
            snprintf(why, sizeof why, "send %d: %s", done, rc == -2 ? "no completion within the wall-time limit (-w)" : "poll_cq error");
            break;
          }
          if (wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV) {
            // a straggler of this side's last receive round (slow, not lost): counted, not checked
            rdone++;
            total++;
            printf("# ud round %u: a datagram of an earlier round arrived while sending\n", round);
            continue;
          }
          if (wc.status != IBV_WC_SUCCESS && !why[0])
            snprintf(why, sizeof why, "send %llu: completion status %s", (unsigned long long)wc.wr_id, ibv_wc_status_str(wc.status));
          done++;
        }
        result(name, why[0] ? why : NULL);
        snprintf(m, sizeof m, "sent %d", done);
        put(m);
        get(m);
        printf("# ud round %u size %zu: peer %s\n", round, s, m);
      } else {
        snprintf(name, sizeof name, "p%d-recv-ud-%zu", phase, s);
        while (rposted - rdone < (uint64_t)count) {
          struct ibv_sge sge = {(uintptr_t)rbuf + (rposted % UD_MAX) * slot, (uint32_t)slot, mr->lkey};
          struct ibv_recv_wr wr = {.wr_id = rposted, .sg_list = &sge, .num_sge = 1}, *bad;
          if (ibv_post_recv(qp, &wr, &bad)) die("UD post_recv");
          rposted++;
        }
        put("posted");
        int got = 0, late = 0, sender_done = 0;
        why[0] = 0;
        time_t t0 = time(NULL), last = t0;
        for (;;) {
          int n = ibv_poll_cq(cq, 1, &wc);
          time_t now = time(NULL);
          if (n < 0) die("poll_cq");
          if (n == 0) {
            if (!sender_done && readable(sock)) {
              get(m);
              sender_done = 1;
              last = now;
            }
            if (got == count || (sender_done && now - last >= 2)) break;
            if (now - t0 > 180) {
              snprintf(why, sizeof why, "still waiting after 180 s (%d arrived, sender %s)", got, sender_done ? "done" : "not done");
              break;
            }
            continue;
          }
          last = now;
          if (wc.wr_id != rdone) die("UD receive completions out of order");
          const uint8_t *p = rbuf + (rdone % UD_MAX) * slot + GRH;
          rdone++;
          uint32_t r = p[1], q = ((uint32_t)p[2] << 8 | p[3]) - 1, tag = r << 16 | q;
          size_t want = r < (uint32_t)(2 * nsizes) ? sizes[r % (uint32_t)nsizes] : 0;
          char e[160] = "";
          if (wc.status != IBV_WC_SUCCESS || wc.opcode != IBV_WC_RECV)
            snprintf(e, sizeof e, "completion status %s opcode %d", ibv_wc_status_str(wc.status), wc.opcode);
          else if (!(wc.wc_flags & IBV_WC_GRH) || wc.src_qp != rqpn)
            snprintf(e, sizeof e, "flags %x src_qp %06x, want GRH and %06x", wc.wc_flags, wc.src_qp, rqpn);
          else if (p[0] != 0x5A || r > round || q >= (uint32_t)count || !want || wc.byte_len != GRH + want)
            snprintf(e, sizeof e, "tag %08x byte_len %u: not a datagram of a round so far", tag, wc.byte_len);
          else if (seen[r][q])
            snprintf(e, sizeof e, "datagram %u of round %u twice", q, r);
          else {
            long off = -1;
            for (size_t i = 4; i < want && off < 0; i++)
              if (p[i] != pat(i, want, (int)tag)) off = (long)i;
            if (off >= 0) snprintf(e, sizeof e, "datagram %u byte %ld is %02x, want %02x", q, off, p[off], pat((size_t)off, want, (int)tag));
          }
          if (e[0]) {
            if (!why[0]) snprintf(why, sizeof why, "%s", e);
            continue;
          }
          seen[r][q] = 1;
          total++;
          if (r == round) got++;
          else late++;
        }
        if (!sender_done) get(m);
        result(name, why[0] ? why : NULL);
        printf("UDRECV %u %zu %d %d %d\n", round, s, got, count, late);
        snprintf(m, sizeof m, "received %d of %d (+%d late)", got, count, late);
        put(m);
      }
    }
  }
  if (!server) printf("UDTOTAL client %ld\n", total);
  else printf("UDTOTAL server %ld\n", total);
  // Late datagrams that arrive after the last round are not waited for: the suite's accounting
  // compares these totals with the link's counters and would show them.
  put("bye");
  get(m);
  ibv_destroy_ah(ah);
  printf("%s: %d failures\n", side, failures);
  return failures ? 1 : 0;
}

int main(int argc, char **argv) {
  const char *dev = NULL, *host = NULL;
  int gidx = 1, port = 18515, mtu = 1024, timeout = 20, min_rnr = 12, ud_count = 0, opt;
  size_t sizes[MAX_SIZES] = {1, 4095, 4096, 65536};
  int nsizes = 4;
  while ((opt = getopt(argc, argv, "d:g:p:m:t:r:s:u:w:")) != -1) {
    switch (opt) {
      case 'd': dev = optarg; break;
      case 'g': gidx = atoi(optarg); break;
      case 'p': port = atoi(optarg); break;
      case 'm': mtu = atoi(optarg); break;
      case 't': timeout = atoi(optarg); break;
      case 'r': min_rnr = atoi(optarg); break;
      case 'u': ud_count = atoi(optarg); break;
      case 'w': wall_limit = atoi(optarg); break;
      case 's':
        nsizes = 0;
        for (char *t = strtok(optarg, ","); t && nsizes < MAX_SIZES; t = strtok(NULL, ",")) sizes[nsizes++] = strtoul(t, NULL, 0);
        break;
      default: return 2;
    }
  }
  if (optind >= argc || !dev) {
    fprintf(stderr, "usage: ix_rdma -d DEV [-g GID] [-p PORT] [-m MTU] [-t TIMEOUT] [-s SIZES] [-u COUNT] [-w SECONDS] server|client HOST\n");
    return 2;
  }
  int server = !strcmp(argv[optind], "server");
  if (!server) host = optind + 1 < argc ? argv[optind + 1] : NULL;
  if (!server && !host) return 2;
  side = server ? "server" : "client";
  for (int i = 0; i < nsizes; i++)
    if (sizes[i] > max_sz) max_sz = sizes[i];

  // Device, resources.
  int n;
  struct ibv_device **list = ibv_get_device_list(&n), *d = NULL;
  for (int i = 0; list && i < n; i++)
    if (!strcmp(ibv_get_device_name(list[i]), dev)) d = list[i];
  if (!d || !(ctx = ibv_open_device(d))) die("open device");
  if (ud_count < 0 || ud_count > UD_MAX) {
    fprintf(stderr, "ix_rdma: -u takes 1..%d\n", UD_MAX);
    return 2;
  }
  // UD: every receive may complete before the receiver polls, so room for all of them.
  if (!(pd = ibv_alloc_pd(ctx)) || !(cq = ibv_create_cq(ctx, ud_count ? 2 * UD_MAX : 64, NULL, NULL, 0))) die("pd/cq");
  // UD: a ring of UD_MAX receive slots (GRH + largest size) and 16 send slots.
  size_t len = ud_count ? (UD_MAX + 16) * (GRH + max_sz) : 2 * max_sz + 64;
  buf = aligned_alloc(4096, (len + 4095) & ~(size_t)4095);
  if (!buf) die("alloc");
  memset(buf, 0, len);
  mr = ibv_reg_mr(pd, buf, len,
                  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC);
  if (!mr) die("reg_mr");
  struct ibv_qp_init_attr ia = {.send_cq = cq, .recv_cq = cq, .qp_type = ud_count ? IBV_QPT_UD : IBV_QPT_RC,
                                .cap = {.max_send_wr = 16, .max_recv_wr = ud_count ? UD_MAX : 16, .max_send_sge = 1,
                                        .max_recv_sge = 1}};
  if (!(qp = ibv_create_qp(pd, &ia))) die("create_qp");
  struct ibv_qp_attr a = {.qp_state = IBV_QPS_INIT, .pkey_index = 0, .port_num = 1,
                          .qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC};
  if (ud_count) {
    a.qkey = UD_QKEY;
    if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY)) die("UD INIT");
  } else if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS)) {
    die("INIT");
  }

  // Out of band.
  if (server) {
    int l = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr.s_addr = htonl(INADDR_ANY)};
    setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (l < 0 || bind(l, (struct sockaddr *)&sa, sizeof sa) || listen(l, 1)) die("listen");
    if ((sock = accept(l, NULL, NULL)) < 0) die("accept");
    close(l);
  } else {
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *res;
    char ps[16];
    snprintf(ps, sizeof ps, "%d", port);
    if (getaddrinfo(host, ps, &hints, &res)) die("getaddrinfo");
    for (int t = 0;; t++) {
      sock = socket(AF_INET, SOCK_STREAM, 0);
      if (!connect(sock, res->ai_addr, res->ai_addrlen)) break;
      close(sock);
      if (t > 100) die("connect");
      usleep(100000);
    }
  }
  if (ud_count) {
    int rc = ud_run(server, gidx, sizes, nsizes, ud_count);
    teardown(list);
    return rc;
  }
  struct peer me = {qp->qp_num, 0, mr->rkey, (uintptr_t)buf, {{0}}}, rem;
  srand((unsigned)time(NULL) ^ (unsigned)getpid());
  me.psn = (uint32_t)rand() & 0xFFFFFF;
  if (ibv_query_gid(ctx, 1, gidx, &me.gid)) die("query_gid");
  char m[MSG], g[33];
  for (int i = 0; i < 16; i++) sprintf(g + 2 * i, "%02x", me.gid.raw[i]);
  snprintf(m, sizeof m, "%06x %06x %08x %016llx %s", me.qpn, me.psn, me.rkey, (unsigned long long)me.addr, g);
  put(m);
  get(m);
  unsigned long long raddr;
  if (sscanf(m, "%x %x %x %llx %32s", &rem.qpn, &rem.psn, &rem.rkey, &raddr, g) != 5) die("peer message");
  rem.addr = raddr;
  for (int i = 0; i < 16; i++) sscanf(g + 2 * i, "%2hhx", &rem.gid.raw[i]);

  memset(&a, 0, sizeof a);
  a.qp_state = IBV_QPS_RTR;
  a.path_mtu = mtu == 4096 ? IBV_MTU_4096 : mtu == 2048 ? IBV_MTU_2048 : mtu == 512 ? IBV_MTU_512 : IBV_MTU_1024;
  a.dest_qp_num = rem.qpn;
  a.rq_psn = rem.psn;
  a.max_dest_rd_atomic = 4;
  // The RNR NAKs this QP sends carry it: the peer waits that long before retrying (in its clock).
  a.min_rnr_timer = (uint8_t)min_rnr;
  a.ah_attr.is_global = 1;
  a.ah_attr.grh.dgid = rem.gid;
  a.ah_attr.grh.sgid_index = (uint8_t)gidx;
  a.ah_attr.grh.hop_limit = 64;
  a.ah_attr.port_num = 1;
  for (int t = 0;; t++) {
    int rc = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                                       IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
    if (!rc) break;
    if (!resolve_again(rc, t)) {
      errno = rc;
      die("RTR");
    }
  }
  a.qp_state = IBV_QPS_RTS;
  a.timeout = (uint8_t)timeout;  // 4.096 us x 2^timeout: rxe's timers run in wall time, the simulation slowly
  a.retry_cnt = 7;
  a.rnr_retry = 7;
  a.sq_psn = me.psn;
  a.max_rd_atomic = 4;
  if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
                                IBV_QP_MAX_QP_RD_ATOMIC))
    die("RTS");
  put("rts");
  get(m);

  // Phase 1: client requests; phase 2: server requests.
  uint8_t *src = buf, *dst = buf + max_sz;
  uint64_t *word = (uint64_t *)(buf + 2 * max_sz);
  const uint64_t rdst = rem.addr + max_sz, rsrc = rem.addr, rword = rem.addr + 2 * max_sz;
  for (int phase = 1; phase <= 2; phase++) {
    int req = (phase == 1) == !server;
    const char *who = req ? "req" : "resp";
    struct ibv_wc wc;
    char name[64], why[160];
    for (int k = 0; k < nsizes; k++) {
      size_t s = sizes[k];
      // WRITE: the responder checks its destination.
      snprintf(name, sizeof name, "p%d-%s-write-%zu", phase, who, s);
      if (req) {
        fill(src, s, 1);
        const char *e = post_send(IBV_WR_RDMA_WRITE, 0, (uint32_t)s, rdst, rem.rkey, 0, 0, 0, &wc);
        result(name, e);
        put("written");
        get(m);
        if (strcmp(m, "ok")) printf("# peer: write-%zu %s\n", s, m);
      } else {
        get(m);
        long off = check(dst, s, 1);
        snprintf(why, sizeof why, "byte %ld is %02x, want %02x", off, off >= 0 ? dst[off] : 0, off >= 0 ? pat((size_t)off, s, 1) : 0);
        result(name, off >= 0 ? why : NULL);
        put(off >= 0 ? why : "ok");
      }
      // WRITE_WITH_IMM: the responder posts a receive first, then checks the completion and data.
      snprintf(name, sizeof name, "p%d-%s-write_imm-%zu", phase, who, s);
      uint32_t imm = 0xA5000000u | (uint32_t)s;
      if (req) {
        get(m);
        fill(src, s, 2);
        result(name, post_send(IBV_WR_RDMA_WRITE_WITH_IMM, 0, (uint32_t)s, rdst, rem.rkey, imm, 0, 0, &wc));
        get(m);
        if (strcmp(m, "ok")) printf("# peer: write_imm-%zu %s\n", s, m);
      } else {
        post_recv(0, 0);
        put("ready");
        int rc = poll1(&wc);
        long off = check(dst, s, 2);
        if (rc) snprintf(why, sizeof why, "no receive completion (%d)", rc);
        else if (wc.status != IBV_WC_SUCCESS || wc.opcode != IBV_WC_RECV_RDMA_WITH_IMM || !(wc.wc_flags & IBV_WC_WITH_IMM) ||
                 ntohl(wc.imm_data) != imm || wc.byte_len != s)
          snprintf(why, sizeof why, "completion status %d opcode %d flags %x imm %08x byte_len %u, want imm %08x len %zu",
                   wc.status, wc.opcode, wc.wc_flags, ntohl(wc.imm_data), wc.byte_len, imm, s);
        else if (off >= 0) snprintf(why, sizeof why, "byte %ld is %02x, want %02x", off, dst[off], pat((size_t)off, s, 2));
        else why[0] = 0;
        result(name, why[0] ? why : NULL);
        put(why[0] ? why : "ok");
      }
      // READ: the responder fills its source; the requester checks what it read.
      snprintf(name, sizeof name, "p%d-%s-read-%zu", phase, who, s);
      if (req) {
        get(m);
        memset(dst, 0, s);
        const char *e = post_send(IBV_WR_RDMA_READ, max_sz, (uint32_t)s, rsrc, rem.rkey, 0, 0, 0, &wc);
        long off = e ? -1 : check(dst, s, 3);
        snprintf(why, sizeof why, "byte %ld is %02x, want %02x", off, off >= 0 ? dst[off] : 0, off >= 0 ? pat((size_t)off, s, 3) : 0);
        result(name, e ? e : off >= 0 ? why : NULL);
        put("read");
      } else {
        fill(src, s, 3);
        put("filled");
        get(m);
      }
      // SEND: the responder posts a receive of exactly s bytes and checks it.
      snprintf(name, sizeof name, "p%d-%s-send-%zu", phase, who, s);
      if (req) {
        get(m);
        fill(src, s, 4);
        result(name, post_send(IBV_WR_SEND, 0, (uint32_t)s, 0, 0, 0, 0, 0, &wc));
        get(m);
        if (strcmp(m, "ok")) printf("# peer: send-%zu %s\n", s, m);
      } else {
        memset(dst, 0, s);
        post_recv(max_sz, (uint32_t)s);
        put("ready");
        int rc = poll1(&wc);
        long off = check(dst, s, 4);
        if (rc) snprintf(why, sizeof why, "no receive completion (%d)", rc);
        else if (wc.status != IBV_WC_SUCCESS || wc.opcode != IBV_WC_RECV || wc.byte_len != s)
          snprintf(why, sizeof why, "completion status %d opcode %d byte_len %u, want len %zu", wc.status, wc.opcode, wc.byte_len, s);
        else if (off >= 0) snprintf(why, sizeof why, "byte %ld is %02x, want %02x", off, dst[off], pat((size_t)off, s, 4));
        else why[0] = 0;
        result(name, why[0] ? why : NULL);
        put(why[0] ? why : "ok");
      }
    }
    // Atomics: FAA then CAS on the responder's word; the requester checks the returned
    // originals, the responder the final value.
    const uint64_t v0 = 0x0123456789AB0000ull + (uint64_t)phase, add = 0x1111, swp = 0xFEDCBA9876543210ull;
    if (req) {
      get(m);
      const char *e = post_send(IBV_WR_ATOMIC_FETCH_AND_ADD, 2 * max_sz, 8, rword, rem.rkey, 0, add, 0, &wc);
      snprintf(name, sizeof name, "p%d-req-faa", phase);
      snprintf(why, sizeof why, "returned %016llx, want %016llx", (unsigned long long)*word, (unsigned long long)v0);
      result(name, e ? e : *word != v0 ? why : NULL);
      e = post_send(IBV_WR_ATOMIC_CMP_AND_SWP, 2 * max_sz, 8, rword, rem.rkey, 0, v0 + add, swp, &wc);
      snprintf(name, sizeof name, "p%d-req-cas", phase);
      snprintf(why, sizeof why, "returned %016llx, want %016llx", (unsigned long long)*word, (unsigned long long)(v0 + add));
      result(name, e ? e : *word != v0 + add ? why : NULL);
      put("done");
      get(m);
      if (strcmp(m, "ok")) printf("# peer: atomics %s\n", m);
    } else {
      *word = v0;
      put("set");
      get(m);
      snprintf(name, sizeof name, "p%d-resp-atomic-final", phase);
      snprintf(why, sizeof why, "word %016llx, want %016llx", (unsigned long long)*word, (unsigned long long)swp);
      result(name, *word != swp ? why : NULL);
      put(*word != swp ? why : "ok");
    }
    // RNR: a SEND before the responder posts its receive.
    snprintf(name, sizeof name, "p%d-%s-rnr-send", phase, who);
    if (req) {
      get(m);
      fill(src, 64, 5);
      result(name, post_send(IBV_WR_SEND, 0, 64, 0, 0, 0, 0, 0, &wc));
      get(m);
      if (strcmp(m, "ok")) printf("# peer: rnr-send %s\n", m);
    } else {
      memset(dst, 0, 64);
      put("late");
      sleep(1);
      post_recv(max_sz, 64);
      int rc = poll1(&wc);
      long off = check(dst, 64, 5);
      if (rc) snprintf(why, sizeof why, "no receive completion (%d)", rc);
      else if (wc.status != IBV_WC_SUCCESS || wc.opcode != IBV_WC_RECV || wc.byte_len != 64)
        snprintf(why, sizeof why, "completion status %d opcode %d byte_len %u, want len 64", wc.status, wc.opcode, wc.byte_len);
      else if (off >= 0) snprintf(why, sizeof why, "byte %ld is %02x, want %02x", off, dst[off], pat((size_t)off, 64, 5));
      else why[0] = 0;
      result(name, why[0] ? why : NULL);
      put(why[0] ? why : "ok");
    }
  }
  put("bye");
  get(m);
  teardown(list);
  printf("%s: %d failures\n", side, failures);
  return failures ? 1 : 0;
}
