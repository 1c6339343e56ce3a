/* SPDX-License-Identifier: BSD-2-Clause */
/* t_ready.c — lib/ready.h: the ready record's fields, the stderr line, --ready-fd
 * (exactly one byte, then closed; a reader gone is no SIGPIPE; a bad descriptor
 * refused), one announcement only, and the reader that finds the record. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "jout.h"
#include "ready.h"
#include "tap.h"

static const char *jstr(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static void t_record(void)
{
	struct ready r;
	ready_init(&r, "rut");
	T_EQ_INT(r.fd, -1);
	r.has_ctl = true;
	T_EQ_INT(ready_spec_add(&r, "rut0", "afpacket"), 0);
	T_EQ_INT(ready_spec_add(&r, "afpacket:rut1,ring=v2", "afpacket"), 0);
	T_EQ_INT(ready_spec_add(&r, "rut0", "afpacket"), 0);   /* listed once */
	json_t *o = ready_record(&r, 4242);
	T_TRUE(o != NULL);
	T_STREQ(jstr(o, "schema"), "ppslab/rut");
	T_STREQ(jstr(o, "schema_version"), PPSLAB_JSON_SCHEMA_VERSION);
	T_STREQ(jstr(o, "tool"), "rut");
	T_STREQ(jstr(o, "type"), "ready");
	T_EQ_INT(json_integer_value(json_object_get(o, "pid")), 4242);
	json_t *p = json_object_get(o, "ports");
	T_EQ_INT(json_array_size(p), 2);
	T_STREQ(json_string_value(json_array_get(p, 0)), "afpacket:rut0");
	T_STREQ(json_string_value(json_array_get(p, 1)), "afpacket:rut1,ring=v2");
	T_TRUE(json_is_null(json_object_get(o, "ctl")));   /* rut without --ctl */
	json_decref(o);
	r.ctl = "/run/r.sock";
	o = ready_record(&r, 1);
	T_STREQ(jstr(o, "ctl"), "/run/r.sock");
	json_decref(o);

	struct ready s;
	ready_init(&s, "sink");
	ready_spec_add(&s, "udp:127.0.0.1:9", "udp");
	o = ready_record(&s, 1);
	T_TRUE(json_object_get(o, "ctl") == NULL);   /* only ppslab-rut has one */
	T_STREQ(json_string_value(json_array_get(json_object_get(o, "ports"), 0)), "udp:127.0.0.1:9");
	json_decref(o);
}

static void t_line(void)
{
	struct ready r;
	char buf[256];
	ready_init(&r, "rut");
	r.has_ctl = true;
	ready_spec_add(&r, "rut0", "afpacket");
	ready_spec_add(&r, "rut1", "afpacket");
	ready_line(&r, buf, sizeof(buf));
	T_STREQ(buf, "ppslab-rut: ready: ports afpacket:rut0, afpacket:rut1; control socket none");
	r.ctl = "/tmp/s";
	ready_line(&r, buf, sizeof(buf));
	T_STREQ(buf, "ppslab-rut: ready: ports afpacket:rut0, afpacket:rut1; control socket /tmp/s");
	ready_init(&r, "gen");
	ready_spec_add(&r, "xdp:gen0,mode=copy", "xdp");
	ready_line(&r, buf, sizeof(buf));
	T_STREQ(buf, "ppslab-gen: ready: ports xdp:gen0,mode=copy");
	ready_line(&r, buf, 12);   /* cut, still a string */
	T_STREQ(buf, "ppslab-gen:");
}

/* What a FILE received, as a string (the FILE is closed). */
static char *contents(FILE *f)
{
	static char buf[4096];
	fflush(f);
	rewind(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void t_announce_json(void)
{
	struct ready r;
	int p[2];
	T_TRUE(pipe(p) == 0);
	ready_init(&r, "sink");
	r.json = true;
	r.fd = p[1];
	ready_spec_add(&r, "sink0", "afpacket");
	FILE *out = tmpfile(), *err = tmpfile();
	T_EQ_INT(ready_announce(&r, out, err), 0);
	T_TRUE(r.done);
	T_EQ_INT(r.fd, -1);
	T_EQ_INT(ready_announce(&r, out, err), 0);   /* a second call says nothing */
	/* exactly one byte, then end of file: the write end was closed */
	char b[4];
	T_EQ_INT(read(p[0], b, sizeof(b)), 1);
	T_EQ_INT(b[0], '\n');
	T_EQ_INT(read(p[0], b, sizeof(b)), 0);
	T_TRUE(fcntl(p[1], F_GETFD) < 0 && errno == EBADF);
	close(p[0]);
	T_STREQ(contents(err), "");
	char *o = contents(out);
	char want[256];
	snprintf(want, sizeof(want), "{\"schema\":\"ppslab/sink\",\"schema_version\":\"%s\","
		 "\"tool\":\"sink\",\"type\":\"ready\",\"pid\":%d,\"ports\":[\"afpacket:sink0\"]}\n",
		 PPSLAB_JSON_SCHEMA_VERSION, (int)getpid());
	T_STREQ(o, want);
}

static void t_announce_text(void)
{
	struct ready r;
	ready_init(&r, "gen");
	ready_spec_add(&r, "udp:198.19.0.2:9", "udp");
	FILE *out = tmpfile(), *err = tmpfile();
	T_EQ_INT(ready_announce(&r, out, err), 0);
	T_STREQ(contents(out), "");
	T_STREQ(contents(err), "ppslab-gen: ready: ports udp:198.19.0.2:9\n");
	ready_init(&r, "gen");
	r.quiet = true;   /* -q: nothing, but the descriptor still gets its byte */
	int p[2];
	T_TRUE(pipe(p) == 0);
	r.fd = p[1];
	out = tmpfile();
	err = tmpfile();
	T_EQ_INT(ready_announce(&r, out, err), 0);
	T_STREQ(contents(out), "");
	T_STREQ(contents(err), "");
	char b[4];
	T_EQ_INT(read(p[0], b, sizeof(b)), 1);
	close(p[0]);
}

static void t_reader_gone(void)
{
	struct ready r;
	int p[2];
	T_TRUE(pipe(p) == 0);
	close(p[0]);
	ready_init(&r, "rut");
	r.quiet = true;
	r.fd = p[1];
	FILE *out = tmpfile(), *err = tmpfile();
	/* SIGPIPE is not delivered: the process would die of it before the check */
	T_EQ_INT(ready_announce(&r, out, err), -EPIPE);
	sigset_t pend;
	sigpending(&pend);
	T_TRUE(!sigismember(&pend, SIGPIPE));
	fclose(out);
	fclose(err);
}

static void t_fd_parse(void)
{
	int fd = -1, p[2];
	T_TRUE(pipe(p) == 0);
	char a[16];
	snprintf(a, sizeof(a), "%d", p[1]);
	T_EQ_INT(ready_fd_parse(a, &fd), 0);
	T_EQ_INT(fd, p[1]);
	snprintf(a, sizeof(a), "%d", p[0]);
	T_EQ_INT(ready_fd_parse(a, &fd), -EACCES);   /* the read end */
	close(p[1]);
	snprintf(a, sizeof(a), "%d", p[1]);
	T_EQ_INT(ready_fd_parse(a, &fd), -EBADF);    /* closed */
	close(p[0]);
	T_EQ_INT(ready_fd_parse("1", &fd), -EINVAL);  /* stdout is the output's */
	T_EQ_INT(ready_fd_parse("2", &fd), -EINVAL);
	T_EQ_INT(ready_fd_parse("", &fd), -EINVAL);
	T_EQ_INT(ready_fd_parse("3x", &fd), -EINVAL);
	T_EQ_INT(ready_fd_parse("-3", &fd), -EINVAL);
	T_EQ_INT(ready_fd_parse("+3", &fd), -EINVAL);
	T_EQ_INT(ready_fd_parse("99999999999", &fd), -EINVAL);
	/* the command-line form: EX_USAGE (64) */
	T_EQ_INT(cli_ready_fd("1000", &fd), 64);
}

static void t_find(void)
{
	const char *head = "{\"type\":\"interval\",\"note\":\"ready\"}\n";
	const char *rec = "{\"tool\":\"sink\",\"type\":\"ready\",\"pid\":3,\"ports\":[]}\n";
	char buf[512];
	snprintf(buf, sizeof(buf), "%s%s", head, rec);
	json_t *o = ready_find(buf, strlen(buf));
	T_TRUE(o != NULL);
	T_EQ_INT(json_integer_value(json_object_get(o, "pid")), 3);
	json_decref(o);
	/* a line still being written is not read */
	T_TRUE(ready_find(buf, strlen(buf) - 1) == NULL);
	T_TRUE(ready_find(head, strlen(head)) == NULL);
	T_TRUE(ready_find("", 0) == NULL);
	const char *junk = "ppslab-sink: ready: ports x\nnot json \"ready\"\n";
	T_TRUE(ready_find(junk, strlen(junk)) == NULL);
}

int main(void)
{
	T_RUN(t_record);
	T_RUN(t_line);
	T_RUN(t_announce_json);
	T_RUN(t_announce_text);
	T_RUN(t_reader_gone);
	T_RUN(t_fd_parse);
	T_RUN(t_find);
	return t_done();
}
