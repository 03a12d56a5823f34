// SPDX-License-Identifier: GPL-2.0
/*
 * nl_fuzz - send N malformed requests to the clkstat generic netlink
 * family and read every answer: random commands (every command of the
 * ABI, the GET_HIST and GET_EVENTS dumps included, and two past the last)
 * and flags, random attribute types (every attribute of the top-level
 * space and three past the last), lengths (some past the message's end)
 * and payloads.
 * The kernel must answer each with an error or a well-formed reply, and
 * never oops; this program counts what came back.
 *
 *   nl_fuzz N SEED
 *
 * Prints "sent N errors E replies R" and exits 0, or 1 if a request got
 * no answer.  Uses libnl only to find the family's id.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <sys/socket.h>
#include "../../kmod/uapi/clkstat_netlink.h"

static int family_id(void)
{
	struct nl_sock *sk = nl_socket_alloc();
	int id = -1;

	if (sk && genl_connect(sk) == 0)
		id = genl_ctrl_resolve(sk, CLKSTAT_GENL_NAME);
	nl_socket_free(sk);
	return id;
}

/* One random request in buf; returns its length. */
static size_t make_request(unsigned char *buf, size_t cap, int family,
			   uint32_t seq)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)buf;
	struct genlmsghdr *gh = NLMSG_DATA(nh);
	size_t len = NLMSG_HDRLEN + GENL_HDRLEN;
	int nattr = rand() % 6, i;

	memset(buf, 0, cap);
	nh->nlmsg_type = family;
	nh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK |
			  (rand() % 3 == 0 ? NLM_F_DUMP : 0);
	nh->nlmsg_seq = seq;
	/* Every command of the ABI (0..CLKSTAT_CMD_MAX) and two more. */
	gh->cmd = rand() % (CLKSTAT_CMD_MAX + 3);
	gh->version = rand() % 4 == 0 ? rand() % 256 : CLKSTAT_GENL_VERSION;
	gh->reserved = rand() % 8 == 0 ? rand() % 65536 : 0;
	for (i = 0; i < nattr; i++) {
		struct nlattr *a = (struct nlattr *)(buf + len);
		size_t plen = rand() % 4 == 0 ? rand() % 300 : rand() % 24;
		size_t j;

		if (len + NLA_HDRLEN + plen + 4 > cap)
			break;
		a->nla_type = rand() % (CLKSTAT_A_MAX + 4);
		if (rand() % 10 == 0)
			a->nla_type |= NLA_F_NESTED;
		a->nla_len = NLA_HDRLEN + plen;
		for (j = 0; j < plen; j++)
			buf[len + NLA_HDRLEN + j] = rand() % 4 ? rand() : 0;
		/* Sometimes a length that runs past the message. */
		if (rand() % 12 == 0)
			a->nla_len = NLA_HDRLEN + plen + 1 + rand() % 4000;
		len += NLA_ALIGN(NLA_HDRLEN + plen);
	}
	nh->nlmsg_len = len;
	return len;
}

int main(int argc, char **argv)
{
	static unsigned char buf[8192], rbuf[65536];
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	long n, i, errors = 0, replies = 0;
	int fd, family;

	if (argc != 3) {
		fprintf(stderr, "usage: nl_fuzz N SEED\n");
		return 2;
	}
	n = strtol(argv[1], NULL, 10);
	srand(strtoul(argv[2], NULL, 10));
	family = family_id();
	if (family < 0) {
		fprintf(stderr, "nl_fuzz: no clkstat family\n");
		return 1;
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0) {
		perror("nl_fuzz: socket");
		return 1;
	}
	for (i = 0; i < n; i++) {
		size_t len = make_request(buf, sizeof(buf), family, i + 1);
		int done = 0;

		if (sendto(fd, buf, len, 0, (struct sockaddr *)&kernel,
			   sizeof(kernel)) < 0) {
			/* The kernel may refuse a malformed message outright. */
			errors++;
			continue;
		}
		/* Read until this request's ack, error or DONE. */
		while (!done) {
			ssize_t r = recv(fd, rbuf, sizeof(rbuf), 0);
			struct nlmsghdr *nh = (struct nlmsghdr *)rbuf;

			if (r < 0) {
				if (errno == EINTR)
					continue;
				perror("nl_fuzz: recv");
				return 1;
			}
			for (; NLMSG_OK(nh, r); nh = NLMSG_NEXT(nh, r)) {
				if (nh->nlmsg_seq != (uint32_t)(i + 1))
					continue;
				if (nh->nlmsg_type == NLMSG_ERROR) {
					struct nlmsgerr *e = NLMSG_DATA(nh);

					if (e->error)
						errors++;
					else
						replies++;
					done = 1;
				} else if (nh->nlmsg_type == NLMSG_DONE) {
					replies++;
					done = 1;
				}
			}
		}
	}
	close(fd);
	printf("sent %ld errors %ld replies %ld\n", n, errors, replies);
	return 0;
}
