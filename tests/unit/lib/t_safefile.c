/* SPDX-License-Identifier: BSD-2-Clause */
/* t_safefile.c — files created beside their target and renamed over it: a planted
 * symlink at the target or at a predictable name is replaced, never written through. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safefile.h"
#include "tap.h"

static char dir[] = "/tmp/t_safefile.XXXXXX";

static char *at(const char *name)
{
	static char b[4][256];
	static int i;
	i = (i + 1) % 4;
	snprintf(b[i], sizeof(b[i]), "%s/%s", dir, name);
	return b[i];
}

static void slurp(const char *path, char *buf, size_t len)
{
	buf[0] = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
}

static size_t entries(void)
{
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "ls -A %s | wc -l", dir);
	FILE *p = popen(cmd, "r");
	size_t n = 0;
	if (p) {
		if (fscanf(p, "%zu", &n) != 1)
			n = 0;
		pclose(p);
	}
	return n;
}

static void t_tmp_name(void)
{
	char *a = safe_tmp_name("/x/y/out.png"), *b = safe_tmp_name("/x/y/out.png");
	T_TRUE(a && b);
	T_TRUE(!strncmp(a, "/x/y/.out.png.", 14));
	T_EQ_U64(strlen(a), strlen("/x/y/.out.png.") + 12);
	T_TRUE(strcmp(a, b) != 0);   /* not predictable from the target's name */
	free(a);
	free(b);
	a = safe_tmp_name("plain");
	T_TRUE(a && !strncmp(a, ".plain.", 7));
	free(a);
}

static void t_write_replace(void)
{
	char buf[64];
	T_EQ_INT(safe_write_file(at("f"), 0644, "one\n", 4, SAFE_SYNC), 0);
	slurp(at("f"), buf, sizeof(buf));
	T_STREQ(buf, "one\n");
	struct safefile sf;
	T_EQ_INT(safe_create(&sf, at("f"), 0600), 0);
	fputs("two\n", sf.f);
	slurp(at("f"), buf, sizeof(buf));
	T_STREQ(buf, "one\n");   /* the old version until the commit */
	T_EQ_INT(safe_commit(&sf, 0), 0);
	slurp(at("f"), buf, sizeof(buf));
	T_STREQ(buf, "two\n");
	T_TRUE(sf.tmp == NULL && sf.f == NULL);
	/* abort leaves the target and no temporary */
	T_EQ_INT(safe_create(&sf, at("f"), 0600), 0);
	fputs("three\n", sf.f);
	safe_abort(&sf);
	slurp(at("f"), buf, sizeof(buf));
	T_STREQ(buf, "two\n");
	T_EQ_U64(entries(), 1);
	unlink(at("f"));
}

static void t_symlink_target(void)
{
	char buf[64];
	FILE *v = fopen(at("victim"), "w");
	fputs("precious\n", v);
	fclose(v);
	T_EQ_INT(symlink(at("victim"), at("out.dat")), 0);
	T_EQ_INT(safe_write_file(at("out.dat"), 0644, "data\n", 5, 0), 0);
	slurp(at("victim"), buf, sizeof(buf));
	T_STREQ(buf, "precious\n");   /* not written through */
	struct stat st;
	T_EQ_INT(lstat(at("out.dat"), &st), 0);
	T_TRUE(S_ISREG(st.st_mode));   /* the link was replaced by our file */
	slurp(at("out.dat"), buf, sizeof(buf));
	T_STREQ(buf, "data\n");
	/* a dangling link to a file that does not exist yet is not followed either */
	T_EQ_INT(symlink(at("created"), at("out2")), 0);
	T_EQ_INT(safe_write_file(at("out2"), 0644, "x", 1, 0), 0);
	T_TRUE(access(at("created"), F_OK) < 0);
	/* a released temporary (for another program to write) is still committed by rename */
	struct safefile sf;
	T_EQ_INT(safe_create(&sf, at("img"), 0644), 0);
	T_EQ_INT(safe_release(&sf), 0);
	T_TRUE(sf.f == NULL);
	FILE *g = fopen(sf.tmp, "w");
	fputs("png", g);
	fclose(g);
	T_EQ_INT(safe_commit(&sf, 0), 0);
	slurp(at("img"), buf, sizeof(buf));
	T_STREQ(buf, "png");
	unlink(at("victim"));
	unlink(at("out.dat"));
	unlink(at("out2"));
	unlink(at("img"));
	T_EQ_U64(entries(), 0);
}

/* a lock file: made if missing, reopened if it is ours; never a link of either kind */
static void t_lock(void)
{
	int fd = safe_open_lock(at("l.lock"), 0644);
	T_TRUE(fd >= 0);
	close(fd);
	fd = safe_open_lock(at("l.lock"), 0644);   /* there already, ours, one link */
	T_TRUE(fd >= 0);
	close(fd);
	FILE *v = fopen(at("victim"), "w");
	fputs("precious\n", v);
	fclose(v);
	T_EQ_INT(symlink(at("victim"), at("s.lock")), 0);
	T_EQ_INT(safe_open_lock(at("s.lock"), 0644), -ELOOP);
	T_EQ_INT(link(at("victim"), at("h.lock")), 0);
	T_EQ_INT(safe_open_lock(at("h.lock"), 0644), -EPERM);
	char buf[64];
	slurp(at("victim"), buf, sizeof(buf));
	T_STREQ(buf, "precious\n");
	unlink(at("l.lock"));
	unlink(at("s.lock"));
	unlink(at("h.lock"));
	unlink(at("victim"));
	T_EQ_U64(entries(), 0);
}

static void t_errors(void)
{
	struct safefile sf;
	T_EQ_INT(safe_create(&sf, "/nonexistent-dir/x", 0644), -ENOENT);
	T_TRUE(sf.tmp == NULL && sf.path == NULL);
	safe_abort(&sf);   /* harmless */
	T_EQ_INT(safe_create(&sf, "", 0644), -ENOENT);
	/* a commit whose rename fails (the target is a directory) keeps no temporary */
	T_EQ_INT(mkdir(at("d"), 0755), 0);
	T_EQ_INT(safe_create(&sf, at("d"), 0644), 0);
	T_TRUE(safe_commit(&sf, 0) < 0);
	T_EQ_INT(rmdir(at("d")), 0);
	T_EQ_U64(entries(), 0);
	/* the mode is the creator's, less the umask */
	mode_t old = umask(022);
	T_EQ_INT(safe_write_file(at("m"), 0666, "", 0, 0), 0);
	umask(old);
	struct stat st;
	T_EQ_INT(stat(at("m"), &st), 0);
	T_EQ_INT((int)(st.st_mode & 0777), 0644);
	unlink(at("m"));
}

int main(void)
{
	if (!mkdtemp(dir)) {
		printf("1..0 # SKIP no temporary directory\n");
		return 0;
	}
	T_RUN(t_tmp_name);
	T_RUN(t_write_replace);
	T_RUN(t_symlink_target);
	T_RUN(t_lock);
	T_RUN(t_errors);
	rmdir(dir);
	return t_done();
}
