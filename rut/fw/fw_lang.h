/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_lang.h — the rule language: fw_lex.c (lexer, diagnostics) and fw_parse.c
 * (compiler), as the commands use them.
 * Internal to the firewall (fw_impl.h); not part of the contract (fw.h). */
#ifndef PPSLAB_RUT_FW_FW_LANG_H
#define PPSLAB_RUT_FW_FW_LANG_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fw_impl.h"

/* ---- the rule language: fw_lex.c (lexer, diagnostics), fw_parse.c (compiler) ---- */
struct fw_tok {
	const char *s;   /* NUL-terminated */
	int col;         /* 1-based column in the line */
};
struct fw_lex {
	struct fw_tok t[FW_MAX_TOKS];
	int n;
	int eol_col;     /* column just past the last non-blank character */
	char buf[2 * FW_MAX_LINE];
};
/* Splits a line into tokens: blanks separate; '#' starts a comment; '{' '}' '(' ')'
 * are tokens of their own except inside an address set ("10.0.0.0/24{1,5}"); a
 * leading '!' is a token ("not"). 0 or -EINVAL with d->col/msg. */
int fw_lex(const char *line, struct fw_lex *lx, struct fw_diag *d);

struct fw_compiled {
	uint32_t number;     /* 0: automatic */
	struct fw_hot hot;
	struct fw_rule rule;
};
/* Compiles "[N] [set S] ACTION [log [logamount L]] BODY" from t[0..n) into c (the
 * caller frees c->rule.insn with free() unless it keeps it). 0 or -EINVAL with
 * d->col/msg/ex. */
int fw_compile(struct fw *fw, const struct fw_tok *t, int n, int eol_col,
	       struct fw_compiled *c, struct fw_diag *d);
/* Appends a warning line to d->warn (cut, with "...", when full). */
void fw_warn(struct fw_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Sets d->col (from tok, or eol) and formats d->msg; returns -EINVAL. */
int fw_err(struct fw_diag *d, int col, int ex, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The same for what the "kernel" refused (no such rule or table...), not an error in
 * the text: d->kernel is set, so a command line's message has no column. */
int fw_kernel_err(struct fw_diag *d, int col, int ex, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Fills d with "out of memory" (EX_OSERR) and returns -ENOMEM. */
int fw_oom(struct fw_diag *d);
/* ipfw's keyword match: tok is a non-empty prefix of word (min_len characters at least). */
bool fw_prefix(const char *tok, const char *word, int min_len);

/* print_ext6hdr's words for the ext6hdr bits (FW_EXT_*), in its listing order: fw_show.c
 * lists a rule's with them, fw_opts.c (opt_ext6list) reads that listing back */
struct fw_ext6_word {
	const char *name;
	uint8_t bit;
};
#define FW_EXT6_WORDS 8
extern const struct fw_ext6_word fw_ext6_words[FW_EXT6_WORDS];

#endif
