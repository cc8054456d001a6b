/* SPDX-License-Identifier: MIT */
/*
 * mbp_port.h: everything the library and its tests need from the platform.
 *
 * The library itself calls only mbp_port_assert_failed(). The counter, the
 * output and the exit serve tests, demos and benchmarks, so a product that
 * links only the library has one function to provide.
 *
 * Two ports ship with mbp:
 *   port/host/mbp_port_host.c     stdio and clock_gettime, for tests on a PC
 *   port/cortex-m/mbp_port_cm.c   semihosting and SysTick, for the QEMU targets
 *                                 in targets/ (and, minus semihosting, real boards)
 */
#ifndef MBP_PORT_H
#define MBP_PORT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Called when an MBP_ASSERT fails: a programming error such as a NULL world.
 * Must not return. Both shipped ports print "ASSERT <expr> at <file>:<line>"
 * and exit with status 3. */
#if defined(__GNUC__)
__attribute__((noreturn))
#endif
void mbp_port_assert_failed(const char *expr, const char *file, int line);

/* A free-running 32-bit counter for measuring intervals: read it twice and
 * subtract with unsigned arithmetic, which stays correct across one wrap.
 * What it counts depends on the port, see mbp_port_counter_unit():
 *   Cortex-M under QEMU -icount shift=3: retired instructions, exact and
 *     repeatable (QEMU is not cycle-accurate, so these are not cycles).
 *     It wraps after 2^32 instructions; read it with interrupts enabled,
 *     because the upper bits are kept by the SysTick exception.
 *   Host: nanoseconds of CLOCK_MONOTONIC, truncated; wraps every 4.3 s.
 * Returns 0 forever on a port without a counter. */
uint32_t mbp_port_counter(void);

/* Starts (or restarts) the counter. Call once before mbp_port_counter();
 * calling it again is harmless. The Cortex-M startup already calls it. */
void mbp_port_counter_init(void);

/* What one count of mbp_port_counter() is, for printing next to results:
 * "instr" on Cortex-M, "ns" on the host, "none" without a counter.
 * A string rather than a number because instructions and time do not
 * convert into each other. */
const char *mbp_port_counter_unit(void);

/* Writes a NUL-terminated string as-is, with no newline added.
 * Tests and demos only: on Cortex-M it goes through semihosting, which
 * stops the core if no debugger or QEMU is attached. */
void mbp_port_write(const char *s);

/* Ends the program with this status (0 = success). Tests and demos only.
 * Does not return. */
#if defined(__GNUC__)
__attribute__((noreturn))
#endif
void mbp_port_exit(int status);

/* Host port only: CLOCK_MONOTONIC in nanoseconds, not truncated, for
 * benchmarks that run longer than the 4.3 s the 32-bit counter covers.
 * The Cortex-M port does not define it, so a target build that calls it
 * fails at link time rather than measuring something else. */
uint64_t mbp_port_ns(void);

#ifdef __cplusplus
}
#endif

#endif /* MBP_PORT_H */
