// SPDX-License-Identifier: GPL-2.0
/*
 * nl_dump_pause - hold a GET_HIST dump of the clkstat family paused
 * between two reads while something else changes the metrics, then read
 * the rest: the dump must be whole as of its start, or end in an error.
 *
 *   nl_dump_pause METRIC
 *
 * Asks for the dump on a socket of its own and reads it through a 4 KiB
 * buffer, so that the kernel fills one small skb per read (netlink sizes
 * a dump's skb to the largest read the socket has seen: the family's
 * lookup reads more, on another socket), after the first read; then prints "paused" and waits for a line on stdin (the test
 * untraces METRIC then, which frees the metric).  Then it reads the rest
 * and prints "METRIC seen after the pause: N messages; end: done" (or
 * "end: error E").  With the metric already in the first part, the test
 * would test nothing: that is exit status 2.  A malformed message is
 * exit status 1, as is a dump that ends neither in NLMSG_DONE nor in an
 * error.  Under KASAN a dump that read the freed metric shows in the
 * kernel log, which the test checks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include "../../kmod/uapi/clkstat_netlink_ext.h"

enum { READ_SIZE = 4096 };

/* Messages of @metric in one read; -1 at the end (*end set), -2 bad. */
static int scan(char *buf, ssize_t len, const char *metric, int *end)
{
	struct nlattr *tb[CLKSTAT_A_MAX + 1], *mt[CLKSTAT_A_M_MAX + 1];
	struct nlmsghdr *nlh = (void *)buf;
	int n = 0, rem = (int)len;

	for (; nlmsg_ok(nlh, rem); nlh = nlmsg_next(nlh, &rem)) {
		if (nlh->nlmsg_type == NLMSG_DONE) {
			*end = 0;
			return n ? n : -1;
		}
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = nlmsg_data(nlh);

			*end = e->error ? e->error : -EPROTO;
			return n ? n : -1;
		}
		if (genlmsg_parse(nlh, 0, tb, CLKSTAT_A_MAX,
				  NULL) || !tb[CLKSTAT_A_METRIC] ||
		    nla_parse_nested(mt, CLKSTAT_A_M_MAX, tb[CLKSTAT_A_METRIC],
				     NULL) || !mt[CLKSTAT_A_M_NAME])
			return -2;
		if (!strcmp(nla_get_string(mt[CLKSTAT_A_M_NAME]), metric))
			n++;
	}
	return n;
}

int main(int argc, char **argv)
{
	int family, fd, end = 1, n, after = 0, paused = 0;
	struct nl_sock *sk, *dsk;
	struct nl_msg *msg;
	char line[64];
	char *buf;
	ssize_t len;

	if (argc != 2) {
		fprintf(stderr, "usage: nl_dump_pause METRIC\n");
		return 1;
	}
	buf = malloc(READ_SIZE);
	sk = nl_socket_alloc();
	dsk = nl_socket_alloc();
	if (!buf || !sk || !dsk || genl_connect(sk) || genl_connect(dsk)) {
		fprintf(stderr, "nl_dump_pause: no generic netlink socket\n");
		return 1;
	}
	family = genl_ctrl_resolve(sk, CLKSTAT_GENL_NAME);
	msg = nlmsg_alloc();
	if (family < 0 || !msg ||
	    !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_DUMP,
			 CLKSTAT_CMD_GET_HIST, CLKSTAT_GENL_VERSION) ||
	    nl_send_auto(dsk, msg) < 0) {
		fprintf(stderr, "nl_dump_pause: cannot ask for the dump (family %d)\n",
			family);
		return 1;
	}
	nlmsg_free(msg);
	fd = nl_socket_get_fd(dsk);
	while (end > 0) {
		/* MSG_TRUNC: the datagram's whole length, to see a cut. */
		len = recv(fd, buf, READ_SIZE, MSG_TRUNC);
		if (len <= 0 || len > READ_SIZE) {
			fprintf(stderr, "nl_dump_pause: recv: %s\n",
				len > READ_SIZE ? "a message longer than the read" :
				len ? strerror(errno) : "end of file");
			return 1;
		}
		n = scan(buf, len, argv[1], &end);
		if (n == -2) {
			fprintf(stderr, "nl_dump_pause: a malformed message\n");
			return 1;
		}
		if (!paused && (n > 0 || end <= 0)) {
			fprintf(stderr, "nl_dump_pause: %s in the dump's first part: nothing to test\n",
				n > 0 ? argv[1] : "the whole dump");
			return 2;
		}
		if (!paused) {
			/* The first read is in: hold the dump here. */
			printf("paused\n");
			fflush(stdout);
			if (!fgets(line, sizeof(line), stdin))
				return 1;
			paused = 1;
			continue;
		}
		if (n > 0)
			after += n;
	}
	if (end)
		printf("%s seen after the pause: %d messages; end: error %d\n",
		       argv[1], after, end);
	else
		printf("%s seen after the pause: %d messages; end: done\n",
		       argv[1], after);
	nl_socket_free(sk);
	nl_socket_free(dsk);
	free(buf);
	return 0;
}
