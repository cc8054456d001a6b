/* SPDX-License-Identifier: MIT */
/* fuzz_ops.c: the libFuzzer entry point. Every input is a scene for ops.c, run on the backend
 * its first byte picks and on brute force; any disagreement or undocumented status aborts, which
 * libFuzzer records as a crash (its input lands in build/fuzz-<config>/findings/). */
#include <stdio.h>
#include <stdlib.h>
#include "ops.h"
#include "mbp_port.h"

static mbp_world g_w, g_ref;

/* The library's assert hook (port/mbp_port.h): a programmer error inside the library is a
 * finding too, and abort() gives libFuzzer the stack. */
void mbp_port_assert_failed(const char *expr, const char *file, int line)
{
    fprintf(stderr, "ASSERT %s at %s:%d\n", expr, file, line);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *why;
    uint32_t op = fuzz_ops_run(data, size, &g_w, &g_ref, &why);
    if (op != 0u) {
        fprintf(stderr, "mbp fuzz: backend %d, operation %u: %s\n",
                (int)fuzz_ops_backend(size > 0u ? data[0] : 0u), (unsigned)op, why);
        abort();
    }
    return 0;
}
