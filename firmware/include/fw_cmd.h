/* The driver's command queue: fetch, execute, complete (spec cmd_entry and cmd_* layouts). */
#ifndef FW_CMD_H
#define FW_CMD_H

#include <stdint.h>

#include "rnic_spec.h"


void fw_cmd_init(void);
/* Executes one command entry in place: writes its outputs and returns a cmd_status. */
uint32_t fw_cmd_exec(uint8_t *entry); /* RNIC_CMD_ENTRY_SIZE bytes */
/* Serves every command the host has posted; returns how many it completed. */
uint32_t fw_cmd_poll(void);

#endif /* FW_CMD_H */
