/* SPDX-License-Identifier: MIT */
/*
 * startup.c: reset, vector table and fault reporting for every target.
 *
 * The same file serves Cortex-M0, M3, M4F, M7 and M33 (Secure). Reset:
 *   1. enable the FPU, if the build uses one, before any float instruction
 *      (a float instruction with the FPU off is a fault);
 *   2. on v8-M, set MSPLIM so a stack overflow faults;
 *   3. copy .data from flash and zero .bss. QEMU loads ELF sections into
 *      RAM directly, which would hide a missing copy; a real board does not;
 *   4. on v7-M (M3, M4, M7), make the 64 KB below the stack a no-access
 *      MPU region, so a stack overflow faults there too;
 *   5. start the counter, call main(), exit with its return value.
 * The linker script puts the stack first in RAM, below .data and .bss, so
 * an overflow never overwrites them: it hits MSPLIM (v8-M), the MPU guard
 * (v7-M), or the unmapped memory below RAM (the microbit's M0). The mps2
 * boards answer reads and writes below RAM without a fault, hence the
 * guard region.
 *
 * Every exception other than SysTick and reset is unexpected here: faults,
 * NMI, SVC and any interrupt print one "FAULT ..." line and exit with
 * status 4. Never a loop: a looping handler would only end at the runner's
 * timeout, and say nothing about why.
 */
#include "mbp_port.h"

#include <stddef.h>

int main(void);

/* From the linker script, targets/common/cortex-m.ld. */
extern uint32_t __stack_bottom;
extern uint32_t __stack_top;
extern uint32_t __data_load;
extern uint32_t __data_start;
extern uint32_t __data_end;
extern uint32_t __bss_start;
extern uint32_t __bss_end;

void Reset_Handler(void);
void mbp_reset_c(void);
void mbp_fault_entry(void);
void mbp_fault_report(const uint32_t *frame, uint32_t ipsr);
void SysTick_Handler(void); /* in the port: counts SysTick wraps */

/* 16 system entries, then external interrupts. None is enabled, so the
 * table stops at 32 (the most a Cortex-M0 has); an interrupt beyond the
 * table is as unexpected as one inside it. */
#define VECTOR_IRQS 32u

typedef void (*vector_fn)(void);

struct vector_table {
    uint32_t *initial_sp;
    vector_fn handler[15u + VECTOR_IRQS];
};

/* Unexpected entries go to the fault report; it names the exception. */
#define F mbp_fault_entry
__attribute__((section(".vectors"), used))
const struct vector_table mbp_vectors = {
    &__stack_top,
    {
        Reset_Handler, /*  1 Reset */
        F,             /*  2 NMI */
        F,             /*  3 HardFault */
        F,             /*  4 MemManage (M3 and up) */
        F,             /*  5 BusFault */
        F,             /*  6 UsageFault */
        F,             /*  7 SecureFault (v8-M) */
        F, F, F,       /*  8-10 reserved */
        F,             /* 11 SVCall */
        F,             /* 12 DebugMonitor */
        F,             /* 13 reserved */
        F,             /* 14 PendSV */
        SysTick_Handler, /* 15 SysTick */
        F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F,
        F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F,
    },
};
#undef F

/* Naked: the stack is all that is set up, and the FPU must be on before
 * the compiler gets a chance to use it. Plain ldr/bx so the branch reaches
 * anywhere, even on the M0. */
__attribute__((naked, noreturn)) void Reset_Handler(void)
{
    __asm__ volatile(
        ".syntax unified\n\t"
#if defined(__ARM_FP)
        /* CPACR: full access to CP10 and CP11, the FPU. */
        "ldr r0, =0xE000ED88\n\t"
        "ldr r1, [r0]\n\t"
        "ldr r2, =0x00F00000\n\t"
        "orrs r1, r1, r2\n\t"
        "str r1, [r0]\n\t"
        "dsb\n\t"
        "isb\n\t"
#endif
#if defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8M_BASE__)
        "ldr r0, =__stack_bottom\n\t"
        "msr msplim, r0\n\t"
#endif
        "ldr r0, =mbp_reset_c\n\t"
        "bx r0\n\t"
        ".ltorg\n\t");
}

#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
#define MPU_TYPE (*(volatile uint32_t *)0xE000ED90u)
#define MPU_CTRL (*(volatile uint32_t *)0xE000ED94u)
#define MPU_RNR  (*(volatile uint32_t *)0xE000ED98u)
#define MPU_RBAR (*(volatile uint32_t *)0xE000ED9Cu)
#define MPU_RASR (*(volatile uint32_t *)0xE000EDA0u)
#define MPU_RASR_XN_NOACCESS_64K_ENABLE ((1u << 28) | (0u << 24) | (15u << 1) | 1u)
#define MPU_CTRL_PRIVDEFENA_ENABLE 0x5u

/* Region 0 forbids the 64 KB below __stack_bottom, which is not ours: the
 * stack is first in RAM (the linker script checks the 64 KB alignment an
 * MPU region needs). Everything else keeps the default memory map. A small
 * guard inside the stack would not do: one large frame steps over it.
 * A push into the guard is a MemManage fault, escalated to HardFault, whose
 * own stacking succeeds because the MPU is off at HardFault priority
 * (HFNMIENA = 0); the mps2 boards ignore writes there. */
static void stack_guard_init(void)
{
    if ((MPU_TYPE & 0xFF00u) == 0u) {
        return; /* no MPU regions on this part */
    }
    MPU_RNR = 0u;
    MPU_RBAR = (uint32_t)(uintptr_t)&__stack_bottom - 0x10000u;
    MPU_RASR = MPU_RASR_XN_NOACCESS_64K_ENABLE;
    MPU_CTRL = MPU_CTRL_PRIVDEFENA_ENABLE;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
}
#else
static void stack_guard_init(void)
{
}
#endif

/* gcc would turn the copy loops into calls to memcpy and memset. Those
 * exist (in the port) and need neither .data nor .bss, but keeping reset
 * self-contained leaves nothing to reason about. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
__attribute__((noreturn)) void mbp_reset_c(void)
{
    const uint32_t *src = &__data_load;
    uint32_t *dst = &__data_start;
    while (dst < &__data_end) {
        *dst++ = *src++;
    }
    for (dst = &__bss_start; dst < &__bss_end; dst++) {
        *dst = 0u;
    }

    stack_guard_init();
    mbp_port_counter_init();
    mbp_port_exit(main());
}

/* ---- fault report --------------------------------------------------- */

/* Passes the stacked frame (MSP: nothing here uses PSP) and the exception
 * number to C, on a fresh stack: the old one may be what failed, and the
 * report never returns to it. */
__attribute__((naked)) void mbp_fault_entry(void)
{
    __asm__ volatile(
        ".syntax unified\n\t"
        "mrs r0, msp\n\t"
        "mrs r1, ipsr\n\t"
        "ldr r2, =__stack_top\n\t"
        "mov sp, r2\n\t"
        "ldr r2, =mbp_fault_report\n\t"
        "bx r2\n\t"
        ".ltorg\n\t");
}

static const char *exception_name(uint32_t n)
{
    switch (n) {
    case 2u:  return "NMI";
    case 3u:  return "HardFault";
    case 4u:  return "MemManage";
    case 5u:  return "BusFault";
    case 6u:  return "UsageFault";
    case 7u:  return "SecureFault";
    case 11u: return "SVCall";
    case 12u: return "DebugMonitor";
    case 14u: return "PendSV";
    default:  return n >= 16u ? "IRQ" : "reserved";
    }
}

static void write_hex(uint32_t v)
{
    static const char digits[] = "0123456789abcdef";
    char buf[11];
    buf[0] = '0';
    buf[1] = 'x';
    for (unsigned i = 0u; i < 8u; i++) {
        buf[2u + i] = digits[(v >> (28u - 4u * i)) & 0xFu];
    }
    buf[10] = '\0';
    mbp_port_write(buf);
}

#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || defined(__ARM_ARCH_8M_MAIN__)
#define SCB_CFSR  (*(volatile uint32_t *)0xE000ED28u)
#define SCB_MMFAR (*(volatile uint32_t *)0xE000ED34u)
#define CFSR_MMARVALID (1u << 7)
#define CFSR_STKOF     (1u << 20) /* v8-M: MSPLIM hit */
#define HAVE_CFSR 1
#endif

/* The stacked PC says where it went wrong; CFSR, where the core has one,
 * says how (e.g. bit 19 NOCP: a float instruction with the FPU off). */
__attribute__((noreturn)) void mbp_fault_report(const uint32_t *frame, uint32_t ipsr)
{
    uint32_t n = ipsr & 0x1FFu;
    int frame_ok = 1;
    mbp_port_write("FAULT ");
    mbp_port_write(exception_name(n));
#if defined(HAVE_CFSR)
    uint32_t cfsr = SCB_CFSR;
    mbp_port_write(" cfsr=");
    write_hex(cfsr);
    uint32_t guard = (uint32_t)(uintptr_t)&__stack_bottom - 0x10000u;
    if ((cfsr & CFSR_STKOF) != 0u ||
        ((cfsr & CFSR_MMARVALID) != 0u && SCB_MMFAR - guard < 0x10000u)) {
        /* No frame was stacked, or it went below the stack. */
        mbp_port_write(" stack overflow");
        frame_ok = 0;
    }
#endif
    /* Only trust the frame if it lies inside the stack: a fault from a
     * broken stack pointer must not fault again while being reported. */
    if (frame_ok && frame >= &__stack_bottom && frame + 8 <= &__stack_top) {
        mbp_port_write(" pc=");
        write_hex(frame[6]);
        mbp_port_write(" lr=");
        write_hex(frame[5]);
    }
    mbp_port_write("\n");
    mbp_port_exit(4);
}
