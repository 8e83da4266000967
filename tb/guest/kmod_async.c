/* Runs inside the guest (tb/guest/kmod.sh, phase 2): holds a context of rnic0 open and waits
 * for an asynchronous event on it (up to 60 s); prints "READY" once open, then "EVENT <name>"
 * for each event (ibv_event_type_str: IBV_EVENT_DEVICE_FATAL is "local catastrophic error")
 * until the device's fatal one. Exit 0 when IBV_EVENT_DEVICE_FATAL arrived. */
#define _GNU_SOURCE
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>

int main(void)
{
	struct ibv_device **l = ibv_get_device_list(NULL);
	struct ibv_context *c = NULL;
	int fatal = 0;

	for (int i = 0; l && l[i]; i++)
		if (!strcmp(ibv_get_device_name(l[i]), "rnic0"))
			c = ibv_open_device(l[i]);
	if (!c) {
		printf("OPEN FAILED\n");
		return 1;
	}
	printf("READY\n");
	fflush(stdout);
	while (!fatal) {
		struct pollfd p = { .fd = c->async_fd, .events = POLLIN };
		struct ibv_async_event ev;

		if (poll(&p, 1, 60000) <= 0) {
			printf("TIMEOUT\n");
			break;
		}
		if (ibv_get_async_event(c, &ev))
			break;
		printf("EVENT %s\n", ibv_event_type_str(ev.event_type));
		fatal = ev.event_type == IBV_EVENT_DEVICE_FATAL;
		ibv_ack_async_event(&ev);
	}
	ibv_close_device(c);
	ibv_free_device_list(l);
	return fatal ? 0 : 1;
}
