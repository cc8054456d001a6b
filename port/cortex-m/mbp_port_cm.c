/* SPDX-License-Identifier: MIT */
/*
 * mbp_port_cm.c: the port for Cortex-M0/M3/M4/M7/M33 under QEMU.
 *
 * Output and exit go through Arm semihosting (bkpt 0xAB): QEMU, or a
 * debugger, services the call. Without either, the bkpt stops the core,
 * so a product keeps only mbp_port_assert_failed() and replaces it.
 *
 * The counter is SysTick on the processor clock. Under QEMU with
 * -icount shift=3 each instruction advances virtual time by 8 ns, so
 * SysTick ticks are a fixed number of instructions and the count repeats
 * exactly from run to run. SysTick is 24 bits; its exception counts the
 * wraps to give 32 bits.
 *
 * The image links with -nostdlib, so memcpy, memset and memmove, which
 * gcc emits for struct copies and initialisers even under -ffreestanding,
 * are defined at the end of this file.
 *
 * Build-time settings (targets/<machine>/target.mk passes them):
 *   MBP_PORT_INSN_PER_TICK_NUM, MBP_PORT_INSN_PER_TICK_SHIFT
 *     instructions per SysTick tick = NUM / 2^SHIFT, that is
 *     tick_ns / 2^icount_shift: 40/8 = 5/2^0 on mps2-an385/386/500,
 *     50/8 = 25/2^2 on mps2-an505, 62.5/8 = 125/2^4 on the microbit.
 */
#include "mbp_port.h"

#include <stddef.h>

#if !defined(MBP_PORT_INSN_PER_TICK_NUM) || !defined(MBP_PORT_INSN_PER_TICK_SHIFT)
#error "define MBP_PORT_INSN_PER_TICK_NUM and _SHIFT: see targets/<machine>/target.mk"
#endif
#if MBP_PORT_INSN_PER_TICK_NUM < 1 || MBP_PORT_INSN_PER_TICK_NUM > 127 || \
    MBP_PORT_INSN_PER_TICK_SHIFT < 0 || MBP_PORT_INSN_PER_TICK_SHIFT > 8
#error "MBP_PORT_INSN_PER_TICK_NUM must be 1..127 and _SHIFT 0..8 (32-bit math below)"
#endif

/* ---- semihosting ---------------------------------------------------- */

#define SEMIHOST_SYS_WRITE0        0x04u
#define SEMIHOST_SYS_EXIT          0x18u
#define SEMIHOST_SYS_EXIT_EXTENDED 0x20u
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

static uint32_t semihost(uint32_t op, const void *arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    /* "memory": the host reads the buffer r1 points to. */
    __asm__ volatile(".syntax unified\n\tbkpt 0xAB"
                     : "+r"(r0)
                     : "r"(r1)
                     : "memory");
    return r0;
}

void mbp_port_write(const char *s)
{
    (void)semihost(SEMIHOST_SYS_WRITE0, s);
}

void mbp_port_exit(int status)
{
    /* SYS_EXIT_EXTENDED passes the whole status to QEMU's exit code. */
    const uint32_t block[2] = { ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status };
    (void)semihost(SEMIHOST_SYS_EXIT_EXTENDED, block);
    /* A host without the extended call: plain SYS_EXIT on AArch32 takes the
     * reason in r1 and can only say "stopped". Nothing is left to try after
     * it; the runner's timeout ends the run. */
    (void)semihost(SEMIHOST_SYS_EXIT, (const void *)(uintptr_t)ADP_STOPPED_APPLICATION_EXIT);
    for (;;) {
    }
}

/* Formats n in decimal at the end of buf[len], returns the first digit.
 * Private: the port must not need a C library for an assert message. */
static char *format_uint(char *buf, size_t len, uint32_t n)
{
    char *p = buf + len - 1;
    *p = '\0';
    do {
        *--p = (char)('0' + (n % 10u));
        n /= 10u;
    } while (n != 0u && p > buf);
    return p;
}

void mbp_port_assert_failed(const char *expr, const char *file, int line)
{
    char num[12];
    mbp_port_write("ASSERT ");
    mbp_port_write(expr != NULL ? expr : "?");
    mbp_port_write(" at ");
    mbp_port_write(file != NULL ? file : "?");
    mbp_port_write(":");
    mbp_port_write(format_uint(num, sizeof num, line >= 0 ? (uint32_t)line : 0u));
    mbp_port_write("\n");
    mbp_port_exit(3);
}

/* ---- counter -------------------------------------------------------- */

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
#define SYST_CSR_ENABLE_TICKINT_CPUCLK 0x7u
#define SYST_MAX 0xFFFFFFu

/* The SysTick exception sets the pending bit as the counter reaches 0;
 * the counter reloads 0xFFFFFF one tick later. So a period runs from 0
 * (wraps just incremented) down through 0xFFFFFF..1, and the ticks into
 * the current period are (2^24 - CVR) mod 2^24. Counting the other way
 * round would make the value jump ahead by 2^24 for one tick. */
static volatile uint32_t s_wraps;

void SysTick_Handler(void);
void SysTick_Handler(void)
{
    s_wraps = s_wraps + 1u;
}

void mbp_port_counter_init(void)
{
    SYST_CSR = 0u;
    SYST_RVR = SYST_MAX;
    SYST_CVR = 0u; /* any write clears the counter and COUNTFLAG */
    s_wraps = 0u;
    SYST_CSR = SYST_CSR_ENABLE_TICKINT_CPUCLK;
}

uint32_t mbp_port_counter(void)
{
    uint32_t wraps;
    uint32_t cvr;
    /* Re-read if the exception ran in between: the two values must come
     * from the same period. Needs interrupts enabled (see the header). */
    do {
        wraps = s_wraps;
        cvr = SYST_CVR;
    } while (wraps != s_wraps);

    uint32_t ticks = (0x1000000u - cvr) & SYST_MAX;
    /* All in 32 bits, exact modulo 2^32: a whole period is an integer
     * number of instructions (2^24 >> SHIFT is exact for SHIFT <= 8), and
     * ticks * NUM < 2^24 * 128 = 2^31 cannot overflow. */
    const uint32_t insn_per_wrap =
        (0x1000000u >> MBP_PORT_INSN_PER_TICK_SHIFT) * (uint32_t)MBP_PORT_INSN_PER_TICK_NUM;
    return wraps * insn_per_wrap +
           ((ticks * (uint32_t)MBP_PORT_INSN_PER_TICK_NUM) >> MBP_PORT_INSN_PER_TICK_SHIFT);
}

const char *mbp_port_counter_unit(void)
{
    return "instr";
}

/* ---- the memory functions gcc may call ------------------------------ */

/* Byte loops: small and correct on the M0, which faults on unaligned word
 * access. gcc would turn these very loops back into calls to memcpy and
 * memset (endless recursion), so that pattern matching is switched off
 * for these three functions. */
#if defined(__GNUC__) && !defined(__clang__)
#define MBP_NO_LOOP_TO_CALL __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define MBP_NO_LOOP_TO_CALL
#endif

void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
void *memmove(void *dst, const void *src, size_t n);

MBP_NO_LOOP_TO_CALL void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    while (n-- != 0u) {
        *d++ = *s++;
    }
    return dst;
}

MBP_NO_LOOP_TO_CALL void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    while (n-- != 0u) {
        *d++ = (unsigned char)c;
    }
    return dst;
}

MBP_NO_LOOP_TO_CALL void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if ((uintptr_t)d < (uintptr_t)s) {
        while (n-- != 0u) {
            *d++ = *s++;
        }
    } else {
        while (n != 0u) {
            n--;
            d[n] = s[n];
        }
    }
    return dst;
}
