/* SPDX-License-Identifier: BSD-2-Clause */
/* cmds.h — the subcommands of `ppslab`, one function each (argv[0] is the subcommand
 * name). Each returns a sysexits code. */
#ifndef PPSLAB_ANALYSIS_CMDS_H
#define PPSLAB_ANALYSIS_CMDS_H

int cmd_lab(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_trend(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_env(int argc, char **argv);

#endif
