/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz.h — the entry points libFuzzer calls in every harness (tests/fuzz/fuzz_*.c). */
#ifndef PPSLAB_TESTS_FUZZ_FUZZ_H
#define PPSLAB_TESTS_FUZZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
