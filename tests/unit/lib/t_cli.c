/* SPDX-License-Identifier: BSD-2-Clause */
/* t_cli.c — the shared command-line helpers: empty items of comma lists, by position. */
#include "cli.h"
#include "tap.h"

static void t_list_empty(void)
{
	T_EQ_INT(cli_list_empty("64"), 0);
	T_EQ_INT(cli_list_empty("64,594:4,1518"), 0);
	T_EQ_INT(cli_list_empty(""), 1);
	T_EQ_INT(cli_list_empty(",64"), 1);
	T_EQ_INT(cli_list_empty("64,,1518"), 2);
	T_EQ_INT(cli_list_empty("ip-csum,"), 2);
	T_EQ_INT(cli_list_empty("10k@1s,20k@1s,,"), 3);
	T_EQ_INT(cli_list_empty(","), 1);
}

int main(void)
{
	T_RUN(t_list_empty);
	return t_done();
}
