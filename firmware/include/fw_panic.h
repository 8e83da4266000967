/* Fatal traps: record mcause/mepc/mtval where the host can read them, mark the firmware as
 * panicked (an error the host sees in cpu.cpu_status) and stop. */
#ifndef FW_PANIC_H
#define FW_PANIC_H

#include <stdint.h>

#define FW_VERSION 0x00010000u /* major.minor in 16.16 */

void fw_panic_record(uint32_t mcause, uint32_t mepc, uint32_t mtval);
/* After the record: one FW_PANIC event (subtype mcause, handle mepc, data mtval) when the
 * application links fw_eq.c; a weak no-op otherwise. */
void fw_panic_notify(uint32_t mcause, uint32_t mepc, uint32_t mtval);
void fw_trap_handler(uint32_t mcause, uint32_t mepc, uint32_t mtval) __attribute__((noreturn));

#endif /* FW_PANIC_H */
