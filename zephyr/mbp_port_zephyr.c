/* SPDX-License-Identifier: MIT */
/* mbp_port_zephyr.c: mbp's assert hook on Zephyr (CONFIG_MBP_ZEPHYR_ASSERT): the one function
 * the library calls on the platform (port/mbp_port.h). A failed check is a programming error
 * such as a NULL world: print it and stop the thread with a kernel panic. */
#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include "mbp_port.h"

void mbp_port_assert_failed(const char *expr, const char *file, int line)
{
    printk("mbp: ASSERT %s at %s:%d\n", expr, file, line);
    k_panic();
    CODE_UNREACHABLE;
}
