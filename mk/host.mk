# The OS-independent driver core as a static library (C11, warnings are errors).
HOST_CC := gcc
HOST_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -Ispec/include -Ihost-driver/core
HOST_CORE_SRCS := $(sort $(wildcard host-driver/core/*.c))
HOST_CORE_OBJS := $(HOST_CORE_SRCS:%.c=$(BUILD)/%.o)
HOST_CORE_LIB := $(BUILD)/host-driver/librnic_core.a

$(BUILD)/host-driver/core/%.o: host-driver/core/%.c $(wildcard host-driver/core/*.h) spec/include/rnic_spec.h
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -c $< -o $@

$(HOST_CORE_LIB): $(HOST_CORE_OBJS)
	@mkdir -p $(dir $@)
	ar rcs $@ $^
