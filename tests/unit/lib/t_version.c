/* SPDX-License-Identifier: BSD-2-Clause */
/* t_version.c — the release of a version string: a rebuild is the same release, another
 * release is not, a version that could not be read is never taken for ours. */
#include <string.h>

#include "tap.h"
#include "version.h"

static void t_same_release(void)
{
	T_TRUE(ppslab_same_release("0.1.0 (git 669017a)", "0.1.0 (git 5d6e7f8-dirty)"));
	T_TRUE(ppslab_same_release("0.1.0 (git 669017a)", "0.1.0 (git 669017a)"));
	T_TRUE(ppslab_same_release("0.1.0", "0.1.0 (git unknown)"));
	T_TRUE(ppslab_same_release(ppslab_version(), PPSLAB_VERSION " (git elsewhere)"));
}

static void t_other_release(void)
{
	T_TRUE(!ppslab_same_release("0.0.9 (git old)", "0.1.0 (git 669017a)"));
	T_TRUE(!ppslab_same_release("0.1.0 (git 669017a)", "0.1.01 (git 669017a)"));
	T_TRUE(!ppslab_same_release("0.1 (git 669017a)", "0.1.0 (git 669017a)"));
	T_TRUE(!ppslab_same_release(NULL, "0.1.0 (git 669017a)"));
	T_TRUE(!ppslab_same_release("0.1.0 (git 669017a)", NULL));
	T_TRUE(!ppslab_same_release("", ""));
}

int main(void)
{
	T_RUN(t_same_release);
	T_RUN(t_other_release);
	return t_done();
}
