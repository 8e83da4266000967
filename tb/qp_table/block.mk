# tb/qp_table/block.mk: the QP table (rtl/qp_table) alone against a C++ model (tb_qp_table.cpp),
# at NumQps 32 with 2 and 8 receive slots per QP. (It is also exercised with the receive engine
# in tb/xport_rx and in the system.)
QPT_BUILD   := $(BUILD)/qp_table
QPT_TB_CPP  := tb/qp_table/tb_qp_table.cpp
QPT_TB_DEPS := $(QPT_TB_CPP) tb/common/tb_check.h spec/include/rnic_spec.h $(wildcard rtl/qp_table/*.sv) \
               rtl/common/rnic_spec_pkg.sv rtl/xport_rx/xport_rx_pkg.sv
QPT_SEED    ?= 1
QPT_CYCLES  ?= 40000
QPT_SLOTS   := 2 8

TEST_SUITES += qp_table

$(QPT_BUILD)/s%/Vqp_table: $(QPT_TB_DEPS)
	$(call verilate,$(QPT_BUILD)/s$*,qp_table,,$(QPT_TB_CPP),-GNumQps=32 -GRqSlots=$* -CFLAGS -DTB_RQ_SLOTS=$*)

.PHONY: test-qp_table
test-qp_table: $(foreach s,$(QPT_SLOTS),$(QPT_BUILD)/s$(s)/Vqp_table)
	@rc=0; for s in $(QPT_SLOTS); do \
	  $(QPT_BUILD)/s$$s/Vqp_table --seed $(QPT_SEED) --cycles $(QPT_CYCLES) | sed "s/^\(PASS\|FAIL\) /\1 slots$$s-/"; \
	  test $${PIPESTATUS[0]} -eq 0 || rc=1; done; exit $$rc
