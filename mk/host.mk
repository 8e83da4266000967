# The OS-independent driver core and the provider's data path as static libraries (C11,
# warnings are errors), linked by the simulator programs and the tools.
HOST_CC := gcc
HOST_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -Ispec/include -Ihost-driver/core -Ihost-driver/provider
HOST_CORE_SRCS := $(sort $(wildcard host-driver/core/*.c))
# The OS-independent data path only: the libibverbs glue and the backends are in mk/provider.mk.
HOST_PROV_SRCS := $(addprefix host-driver/provider/,rnicp_cq.c rnicp_db.c rnicp_wqe.c)
HOST_CORE_LIB := $(BUILD)/host-driver/librnic_core.a
HOST_PROV_LIB := $(BUILD)/host-driver/librnicp.a

$(BUILD)/host-driver/%.o: host-driver/%.c $(wildcard host-driver/core/*.h host-driver/provider/*.h) spec/include/rnic_spec.h
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -c $< -o $@

$(HOST_CORE_LIB): $(HOST_CORE_SRCS:host-driver/%.c=$(BUILD)/host-driver/%.o)
	@mkdir -p $(dir $@)
	ar rcs $@ $^

$(HOST_PROV_LIB): $(HOST_PROV_SRCS:host-driver/%.c=$(BUILD)/host-driver/%.o)
	@mkdir -p $(dir $@)
	ar rcs $@ $^
