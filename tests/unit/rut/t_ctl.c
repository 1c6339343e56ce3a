/* SPDX-License-Identifier: BSD-2-Clause */
/* t_ctl.c — the control socket without a forwarder: the protocol end to end through
 * ctl_open and ctl_client (a responder thread stands in for the forwarding thread and
 * answers from the mailbox), owner-only mode, exit status and the two output streams,
 * rule files sent as `load`, the line limit, a NUL in a command refused, silent and
 * non-reading clients delaying nobody, a stale socket replaced, a live one or a plain
 * file refused, and status 69 once the forwarder is gone. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctl.h"
#include "tap.h"

static char dir[64], sock[128];
static struct ctl *C;
static atomic_int quit;

/* The stand-in forwarding thread: answers "sysctl ..." by echoing, "load ..." with the
 * payload's length and first line, "fail" with status 3 on stderr. */
static void *responder(void *arg)
{
	struct ctl_req *r = arg;
	while (!atomic_load(&quit)) {
		if (!ctl_pending(r)) {
			usleep(200);
			continue;
		}
		if (!strncmp(r->line, "load ", 5)) {
			char first[64] = "";
			sscanf(r->data, "%63[^\n]", first);
			sbuf_printf(&r->out, "got %zu bytes, '%s'\n", r->datalen, first);
			r->status = 0;
		} else if (!strcmp(r->line, "fail")) {
			sbuf_cat(&r->err, "it failed\n");
			r->status = 3;
		} else {
			sbuf_printf(&r->out, "echo: %s\n", r->line);
			r->status = 0;
		}
		ctl_complete(r);
	}
	return NULL;
}

/* Runs the client with stdout and stderr captured into out/err. */
static int client(int argc, char **argv, char *out, size_t outlen, char *err, size_t errlen)
{
	char po[128], pe[128];
	snprintf(po, sizeof(po), "%s/out", dir);
	snprintf(pe, sizeof(pe), "%s/err", dir);
	fflush(stdout);
	int so = dup(1), se = dup(2);
	int fo = open(po, O_RDWR | O_CREAT | O_TRUNC, 0600), fe = open(pe, O_RDWR | O_CREAT | O_TRUNC, 0600);
	dup2(fo, 1);
	dup2(fe, 2);
	int st = ctl_client(sock, argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	ssize_t n = pread(fo, out, outlen - 1, 0);
	out[n > 0 ? n : 0] = 0;
	n = pread(fe, err, errlen - 1, 0);
	err[n > 0 ? n : 0] = 0;
	close(fo);
	close(fe);
	return st;
}

/* heap buffers: the captured text can be long, TAP messages are short */
static char *O, *E;
#define OLEN 4096

static void t_roundtrip(void)
{
	struct stat st;
	T_EQ_INT(stat(sock, &st), 0);
	T_EQ_U64(st.st_mode & 0777, 0600);
	T_TRUE(S_ISSOCK(st.st_mode));
	char *a[] = { "sysctl", "kern.polling.pollhz=4000" };
	T_EQ_INT(client(2, a, O, OLEN, E, OLEN), 0);
	T_STREQ(O, "echo: sysctl kern.polling.pollhz=4000\n");
	T_STREQ(E, "");
	char *b[] = { "fail" };
	T_EQ_INT(client(1, b, O, OLEN, E, OLEN), 3);
	T_STREQ(O, "");
	T_STREQ(E, "it failed\n");
}

static void t_load(void)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/rules", dir);
	FILE *f = fopen(path, "w");
	fputs("add 100 deny ip from any to any\n", f);
	for (int i = 0; i < 20000; i++)
		fprintf(f, "add %d count ip from any to any\n", 200 + i);
	long len = ftell(f);
	fclose(f);
	char *a[] = { "ipfw", "-q", path };
	T_EQ_INT(client(3, a, O, OLEN, E, OLEN), 0);
	char want[128];
	snprintf(want, sizeof(want), "got %ld bytes, 'add 100 deny ip from any to any'\n", len);
	T_STREQ(O, want);
	/* a relative name is a command word for ipfw(8), not a file */
	char *b[] = { "ipfw", "rules" };
	T_EQ_INT(client(2, b, O, OLEN, E, OLEN), 0);
	T_STREQ(O, "echo: ipfw rules\n");
	char *c[] = { "ipfw", "/nonexistent/rules" };
	T_EQ_INT(client(2, c, O, OLEN, E, OLEN), 64);
	T_STREQ(E, "ipfw: pathname: /nonexistent/rules: No such file or directory\n");
}

static void t_limits(void)
{
	static char longw[5000];
	memset(longw, 'x', sizeof(longw) - 1);
	char *a[] = { "sysctl", longw };
	T_EQ_INT(client(2, a, O, OLEN, E, OLEN), 64);
	T_TRUE(strstr(E, "longer than 4096 bytes") != NULL);
	/* the server side: a line that never ends is answered with 64 and closed */
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	strcpy(sa.sun_path, sock);
	T_EQ_INT(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	T_EQ_INT(write(fd, longw, sizeof(longw) - 1), (int)sizeof(longw) - 1);
	char rep[256] = "";
	ssize_t n = read(fd, rep, sizeof(rep) - 1);
	T_TRUE(n > 0 && !strncmp(rep, "64 0 ", 5));
	close(fd);
	/* a load header announcing more than 64 MiB, or no number: 64, nothing read */
	static const char *const heads[] = { "load 67108865 ipfw r\n", "load x ipfw r\n",
					     "load -1 ipfw r\n" };
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		T_EQ_INT(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
		T_EQ_INT(write(fd, heads[i], strlen(heads[i])), (int)strlen(heads[i]));
		memset(rep, 0, sizeof(rep));
		n = read(fd, rep, sizeof(rep) - 1);
		if (!(n > 0 && !strncmp(rep, "64 0 ", 5)))
			T_FAIL("'%.20s': reply '%.60s'", heads[i], rep);
		close(fd);
	}
	char *b[] = { "stats" };
	T_EQ_INT(client(1, b, O, OLEN, E, OLEN), 0);   /* still serving */
}

/* a NUL inside a request line: refused with 64, nothing run, the connection kept; a
 * silent client and one that never reads its replies delay nobody */
static void t_misbehaving(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	strcpy(sa.sun_path, sock);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	T_EQ_INT(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	static const char nul[] = "sysctl a=1\0b\nsysctl c\n";
	T_EQ_INT(write(fd, nul, sizeof(nul) - 1), (int)sizeof(nul) - 1);
	char rep[256] = "";
	size_t got = 0;
	/* both replies: the refusal, then the echo of the next line on the same connection */
	while (got < sizeof(rep) - 1 && !strstr(rep, "echo: sysctl c\n")) {
		ssize_t n = read(fd, rep + got, sizeof(rep) - 1 - got);
		if (n <= 0)
			break;
		got += (size_t)n;
		rep[got] = 0;
	}
	T_STREQ(rep, "64 0 53\nppslab-rut: the command contains a NUL byte: refused\n"
		"0 15 0\necho: sysctl c\n");
	close(fd);
	/* a silent client, and a client that sends and never reads */
	int idle = socket(AF_UNIX, SOCK_STREAM, 0), hog = socket(AF_UNIX, SOCK_STREAM, 0);
	T_EQ_INT(connect(idle, (struct sockaddr *)&sa, sizeof(sa)), 0);
	T_EQ_INT(connect(hog, (struct sockaddr *)&sa, sizeof(sa)), 0);
	fcntl(hog, F_SETFL, O_NONBLOCK);
	static char many[65536];
	for (size_t i = 0; i + 8 <= sizeof(many); i += 8)
		memcpy(many + i, "sysctl \n", 8);
	int sent = 0;
	while (sent < 64 && write(hog, many, sizeof(many)) > 0)
		sent++;
	char *a[] = { "stats" };
	T_EQ_INT(client(1, a, O, OLEN, E, OLEN), 0);   /* answered, with both connected */
	T_STREQ(O, "echo: stats\n");
	struct pollfd p = { .fd = idle, .events = POLLIN };
	T_EQ_INT(poll(&p, 1, 0), 0);   /* the silent one is still connected, unanswered */
	close(idle);
	close(hog);
}

static void t_open_errors(void)
{
	char err[256], path[128];
	struct ctl *c2;
	T_EQ_INT(ctl_open(&c2, sock, err, sizeof(err)), -EADDRINUSE);
	T_TRUE(strstr(err, "another process is listening") != NULL);
	snprintf(path, sizeof(path), "%s/plain", dir);
	close(open(path, O_CREAT | O_WRONLY, 0600));
	T_EQ_INT(ctl_open(&c2, path, err, sizeof(err)), -EEXIST);
	T_TRUE(strstr(err, "is not a socket") != NULL);
	/* a socket file nobody listens on (a crashed forwarder's) is replaced */
	snprintf(path, sizeof(path), "%s/stale", dir);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	strcpy(sa.sun_path, path);
	T_EQ_INT(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(fd);
	T_EQ_INT(ctl_open(&c2, path, err, sizeof(err)), 0);
	ctl_close(c2);
	T_TRUE(access(path, F_OK) != 0);                       /* removed at close */
	char lp[200];
	memset(lp, 'a', sizeof(lp) - 1);
	lp[0] = '/';
	lp[sizeof(lp) - 1] = 0;
	T_EQ_INT(ctl_open(&c2, lp, err, sizeof(err)), -ENAMETOOLONG);
}

static void t_gone(void)
{
	atomic_store(&quit, 1);
	ctl_forwarder_gone(C);
	char *a[] = { "stats" };
	T_EQ_INT(client(1, a, O, OLEN, E, OLEN), 69);
	T_STREQ(E, "ppslab-rut: the forwarder is not running\n");
	ctl_close(C);
	C = NULL;
	T_EQ_INT(client(1, a, O, OLEN, E, OLEN), 69);
	T_TRUE(strstr(E, "is ppslab-rut running with --ctl there?") != NULL);
}

int main(void)
{
	char err[256];
	pthread_t th;
	snprintf(dir, sizeof(dir), "/tmp/ppslab-t_ctl.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(sock, sizeof(sock), "%s/rut.sock", dir);
	if (ctl_open(&C, sock, err, sizeof(err))) {
		printf("Bail out! ctl_open: %s\n", err);
		return 1;
	}
	O = calloc(1, OLEN);
	E = calloc(1, OLEN);
	pthread_create(&th, NULL, responder, ctl_mailbox(C));
	T_RUN(t_roundtrip);
	T_RUN(t_load);
	T_RUN(t_limits);
	T_RUN(t_misbehaving);
	T_RUN(t_open_errors);
	T_RUN(t_gone);
	pthread_join(th, NULL);
	char cmd[160];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	free(O);
	free(E);
	if (system(cmd))
		return 1;
	return t_done();
}
