/* SPDX-License-Identifier: BSD-2-Clause */
/* opt.h — options as typed rows: one table per program or command drives getopt_long,
 * the checks of every value, the defaults and --help.
 *
 * A row names the long option, its short letter (0 for none), the argument's name (NULL
 * for a flag), one line of help, then what it is: a type, the field it fills (an offset
 * into the struct passed to opt_parse, OPT_AT), the range, the default and, for an enum,
 * the names. opt_parse stores every default first (parsed as if typed), then each option
 * given, and refuses a bad value with one message naming the option, the value and what
 * was expected ("--burst 0: expected a burst of 1..512 frames"). --help is made from the
 * same rows: a row's {default}, {range}, {min}, {max} and {names} are filled in, and a
 * default not placed in the text is appended as " (default D)". So a range or default is
 * written once, where it is checked. */
#ifndef PPSLAB_LIB_OPT_H
#define PPSLAB_LIB_OPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum opt_type {
	OPT_FLAG = 1,   /* the integer field set to 1 */
	OPT_CLEAR,      /* the integer field set to 0 (--quiet, --no-udp-csum) */
	OPT_INC,        /* the integer field incremented (--verbose) */
	OPT_UINT,       /* a whole number min..max, stored in an integer field of any size */
	OPT_COUNT,      /* the same with k, M or G (100k, 1.5M) */
	OPT_DOUBLE,     /* a number lo..hi into a double */
	OPT_DURATION,   /* 10s, 500ms, 2m...: nanoseconds min..max into a uint64_t */
	OPT_ENUM,       /* one of names (any case): its index, stored in an integer field */
	OPT_STR,        /* the text itself (const char *) */
	OPT_PATH,       /* a file name: not empty */
	OPT_LIST,       /* a comma list without an empty item */
	OPT_STRS,       /* repeatable: appended to a const char *[max], counted in n_off */
	OPT_CSV,        /* repeatable comma list: its items added to a struct strlist */
	OPT_FN,         /* parsed by the row's fn */
	OPT_HELP,       /* prints --help on stdout */
	OPT_VERSION,    /* prints "NAME VERSION" on stdout */
};

struct opt_def;
/* A row's own parser (OPT_FN): 0, or a sysexits code after a message. base is the
 * struct passed to opt_parse; the field is (char *)base + d->off. */
typedef int opt_fn(const struct opt_def *d, const char *arg, void *base);

struct opt_def {
	const char *name;   /* long name without "--" */
	int short_name;     /* 'i', or 0 */
	const char *arg;    /* "PORTSPEC", or NULL for a flag */
	const char *help;   /* NULL: an older spelling kept working, not listed by --help;
			     * it repeats the row of the option it stands for */
	enum opt_type type;
	size_t off, size;   /* the field: OPT_AT(struct, member) */
	size_t n_off;       /* OPT_STRS: offset of its int count */
	uint64_t min, max;  /* OPT_UINT, OPT_COUNT, OPT_DURATION (ns), OPT_STRS (max only) */
	double lo, hi;      /* OPT_DOUBLE */
	const char *def;    /* the default as a user would type it, or NULL */
	const char *const *names;   /* OPT_ENUM: NULL-terminated */
	const char *what;   /* the error's "expected ..." ({range} etc. filled), or NULL:
			     * made from the type and range */
	opt_fn *fn;         /* OPT_FN */
	unsigned seen;      /* times given on the command line (set by opt_parse) */
};

#define OPT_AT(T, m) .off = offsetof(T, m), .size = sizeof(((T *)0)->m)
/* A numeric constant as a default's text: .def = OPT_TEXT(PKT_DEFAULT_DPORT) */
#define OPT_TEXT(x) OPT_TEXT_(x)
#define OPT_TEXT_(x) #x
#define OPT_HELP_ROW { "help", 'h', NULL, "this help", OPT_HELP }
#define OPT_VERSION_ROW { "version", 'V', NULL, "print the version", OPT_VERSION }

/* A program or a command: its name (--version's first word), --help's usage line(s) and
 * its rows, ending with a row whose name is NULL. */
struct opt_prog {
	const char *name;
	const char *synopsis;
	struct opt_def *defs;
};

/* opt_parse's answer to --help and --version (printed on stdout): exit with EX_OK. */
#define OPT_DONE (-1)

/* Stores the defaults into base, then parses argv[1..]. With first, *first is the index
 * of the first operand; without, an operand is refused ("unexpected argument"). Returns
 * 0, OPT_DONE, or a sysexits code after a message: an unknown option, a missing or
 * unwanted argument, a bad value (EX_USAGE), a default the row cannot parse
 * (EX_SOFTWARE). */
int opt_parse(const struct opt_prog *p, int argc, char **argv, void *base, int *first);

/* Logs "--NAME ARG: expected WHAT" (the row's what, or one made from its type and
 * range) and returns EX_USAGE: for a row's own parser. */
int opt_bad(const struct opt_def *d, const char *arg);

/* Times the option name was given in the last opt_parse of defs (0 when unknown). */
unsigned opt_seen(const struct opt_def *defs, const char *name);

/* Prints "usage: SYNOPSIS" and the rows' help (two columns, aligned). */
void opt_usage(FILE *f, const char *synopsis, const struct opt_def *defs);

/* A row's text (help or what) into out with {default}, {range}, {min}, {max} and
 * {names} filled in from the row; returns out. */
char *opt_text(const struct opt_def *d, const char *text, char *out, size_t len);

/* A duration in ns as the shortest exact text: 0, 250us, 10ms, 1s, 2m, 1h. */
char *opt_duration_text(uint64_t ns, char *out, size_t len);

/* Replaces the help of the option named name (text made at run time, such as the port
 * backends this build has). */
void opt_set_help(struct opt_def *defs, const char *name, const char *help);

#endif
