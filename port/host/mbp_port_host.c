/* SPDX-License-Identifier: MIT */
/*
 * mbp_port_host.c: the port for tests and benchmarks on a PC.
 *
 * stdio for output, exit() for the status, CLOCK_MONOTONIC for the counter.
 * The counter counts nanoseconds here, not instructions: host numbers are
 * for spotting regressions on one machine, the QEMU targets give the
 * repeatable instruction counts.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c99 */

#include "mbp_port.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void mbp_port_assert_failed(const char *expr, const char *file, int line)
{
    /* stderr is unbuffered; flush stdout first so the order on a terminal
     * matches the order of events. */
    fflush(stdout);
    fprintf(stderr, "ASSERT %s at %s:%d\n", expr, file, line);
    exit(3);
}

uint64_t mbp_port_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
        return 0u;
    }
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void mbp_port_counter_init(void)
{
    /* CLOCK_MONOTONIC is always running. */
}

uint32_t mbp_port_counter(void)
{
    return (uint32_t)mbp_port_ns();
}

const char *mbp_port_counter_unit(void)
{
    return "ns";
}

void mbp_port_write(const char *s)
{
    fputs(s, stdout);
}

void mbp_port_exit(int status)
{
    fflush(stdout);
    exit(status);
}
