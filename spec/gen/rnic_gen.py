#!/usr/bin/env python3
"""Renders spec/rnic.toml into the SV package, the BAR0 register file, the C headers, the Python
module (spec/py/rnic_spec.py, for the build's Python tools) and the interface document. Python 3
standard library only.

  rnic_gen.py                 write the generated files
  rnic_gen.py --check         exit 1 and name every generated file that differs from the spec
  rnic_gen.py --spec F --root D   read another spec / write or check under another tree
"""
import argparse
import re
import binascii
import os
import sys
import tomllib

OUTPUTS = {
    "sv_pkg": "rtl/common/rnic_spec_pkg.sv",
    "sv_regs": "rtl/common/rnic_regs.sv",
    "c_hdr": "spec/include/rnic_spec.h",
    "c_regs": "spec/include/rnic_spec_regs.h",
    "md": "docs/interface.md",
    "py": "spec/py/rnic_spec.py",
}
REG_ADDR_W = 12  # register blocks live in BAR0 0x000-0xFFF
# Names that cannot be SV identifiers or C members.
RESERVED = {"type", "logic", "reg", "wire", "input", "output", "module", "int", "bit", "byte", "string",
            "class", "default", "case", "struct", "union", "enum", "const", "static", "signed",
            "unsigned", "char", "long", "short", "for", "if", "else", "do", "while", "return", "inside"}


class SpecError(Exception):
    pass


def container_bits(lsb, bits):
    for c in (8, 16, 32, 64):
        if lsb + bits <= c:
            return c
    raise SpecError(f"field of {bits} bits at bit {lsb} fits no container")


class Spec:
    def __init__(self, raw_bytes):
        self.raw = raw_bytes
        self.hash = binascii.crc32(raw_bytes) & 0xFFFFFFFF
        d = tomllib.loads(raw_bytes.decode())
        self.device = d["device"]
        self.bar0 = d["bar0"]
        self.blocks = d["block"]
        self.counters = d["counters"]["names"]
        self.db_page = d["doorbell_page"]
        self.db_bar = d["db_bar"]
        self.fw_mmio = d["fw_mmio"]
        self.fw_tc = d["fw_tc"]
        self.enums = d["enum"]
        self.layouts = d["layout"]
        self.consts = dict(self.device)
        self.consts.update(self.bar0)
        self.consts.update({"db_bar_" + k: v for k, v in self.db_bar.items()})
        self.consts["spec_hash"] = self.hash
        self.consts["num_counters"] = len(self.counters)
        self._check()
        self.reg_fields = {(b["name"], r["name"]): reg_doc_fields(b["name"], r, self.layouts)
                           for b in self.blocks for r in b["regs"]}
        self.reg_enum = {(b["name"], r["name"]): e for b in self.blocks for r in b["regs"]
                         for e in [reg_doc_enum(r, self.enums)] if e}

    def const_value(self, expr):
        try:
            return int(eval(str(expr), {"__builtins__": {}}, dict(self.consts))) & 0xFFFFFFFF
        except Exception as e:  # the spec is ours; a bad expression is a spec bug
            raise SpecError(f"bad const expression {expr!r}: {e}")

    def block_base(self, i):
        return i * self.bar0["block_stride"]

    def _check(self):
        names = set()
        for i, b in enumerate(self.blocks):
            if b["name"] in names:
                raise SpecError(f"duplicate block {b['name']}")
            names.add(b["name"])
            offs = {0, 4, 8}
            for r in b["regs"]:
                if r["off"] % 4 or r["off"] in offs or r["off"] >= self.bar0["block_stride"]:
                    raise SpecError(f"block {b['name']}: bad or overlapping offset for {r['name']}")
                if r["kind"] not in ("const", "ro", "rw", "wo"):
                    raise SpecError(f"block {b['name']}: unknown kind {r['kind']}")
                offs.add(r["off"])
            if b["name"] == "counters":
                end = b["counter_base"] + 4 * len(self.counters)
                if any(r["off"] >= b["counter_base"] for r in b["regs"]) or end > self.bar0["block_stride"]:
                    raise SpecError("counters do not fit their block")
        if len(self.blocks) * self.bar0["block_stride"] > (1 << REG_ADDR_W):
            raise SpecError("register blocks overflow the register window")
        dv = self.device
        if dv["max_cores"] not in (1, 2, 4) or \
                next(f for f in self.layouts["hw_caps"]["fields"] if f["name"] == "log2_cores")["bits"] < 2:
            raise SpecError("device: max_cores must be 1, 2 or 4 (QPN mod the core count), told in hw_caps.log2_cores")
        if dv["read_contexts"] < dv["max_rd_atomic"]:
            raise SpecError("device: read_contexts below max_rd_atomic (one QP could not use its limit)")
        bf = next(r for r in self.db_page["regs"] if r["name"] == "bf_data")
        if dv["wqebb_bytes"] * dv["max_wqebbs"] != bf.get("size", 4):
            raise SpecError("device: wqebb_bytes * max_wqebbs is not the doorbell page's bf_data size")
        if self.db_bar["page_size"] * self.db_bar["num_pages"] != self.db_bar["size"] or \
                self.db_bar["size"] & (self.db_bar["size"] - 1) or self.db_bar["page_size"] != 0x1000:
            raise SpecError("db_bar: size must be page_size (4 KiB) * num_pages, a power of two")
        mp = self.fw_tc["mbox_page"]
        if mp != 0x1000:
            raise SpecError("fw_tc: mbox_page must be 0x1000 (told apart from the engines' page by offset bit 12)")
        for r in self.fw_tc["regs"]:
            if r["off"] >= mp:
                raise SpecError(f"fw_tc register {r['name']}: beyond the engines' page")
        db, dn = self.fw_tc["dbr_base"], self.fw_tc["dbr_num"]
        if not mp <= db < 2 * mp or db % 256 or dn & (dn - 1) or not 1 <= dn <= 16:
            raise SpecError("fw_tc: dbr_base must be 256-byte aligned in mbox_page, dbr_num a power of two <= 16")
        for r in self.fw_tc["mbox_regs"]:
            if not mp <= r["off"] < 2 * mp or r["off"] % 4:
                raise SpecError(f"fw_tc mailbox register {r['name']}: not a word in mbox_page")
            if "desc" in r and r["desc"] not in self.layouts:
                raise SpecError(f"fw_tc mailbox register {r['name']}: unknown layout {r['desc']}")
        for r in [r for b in self.blocks for r in b["regs"]] + self.fw_mmio["regs"] + self.fw_tc["regs"] + \
                self.fw_tc["mbox_regs"]:
            if "layout" in r and (r["layout"] not in self.layouts or self.layouts[r["layout"]]["size"] != 4):
                raise SpecError(f"register {r['name']}: layout {r['layout']} is not a 4-byte layout")
        for ename, e in self.enums.items():
            seen = set()
            for n, v in e["values"]:
                if n in seen:
                    raise SpecError(f"enum {ename}: duplicate {n}")
                seen.add(n)
        for lname, l in self.layouts.items():
            used = [False] * (l["size"] * 8)
            for f in l["fields"]:
                if f["name"] in RESERVED:
                    raise SpecError(f"layout {lname}: field name {f['name']} is a reserved word")
                lsb = f.get("lsb", 0)
                c = container_bits(lsb, f["bits"])
                if f["off"] * 8 + c > l["size"] * 8 and f["off"] * 8 + lsb + f["bits"] > l["size"] * 8:
                    raise SpecError(f"layout {lname}: field {f['name']} beyond size")
                start = f["off"] * 8 + lsb
                for bit in range(start, start + f["bits"]):
                    if bit >= len(used) or used[bit]:
                        raise SpecError(f"layout {lname}: field {f['name']} overlaps or overflows")
                    used[bit] = True
                if "enum" in f and f["enum"] not in self.enums:
                    raise SpecError(f"layout {lname}: unknown enum {f['enum']}")
            self._check_sges(lname, l)

    def _check_sges(self, lname, l):
        # The RTL and firmware walk descriptor SGEs by index from sge0 (16 bytes each: addr, len,
        # lkey), so every layout with SGEs holds exactly max_sge of them in that shape.
        by = {f["name"]: f for f in l["fields"]}
        if "sge0_addr" not in by:
            return
        base = by["sge0_addr"]["off"]
        n = self.device["max_sge"]
        for i in range(n + 1):
            want = {f"sge{i}_addr": (base + 16 * i, 64), f"sge{i}_len": (base + 16 * i + 8, 32),
                    f"sge{i}_lkey": (base + 16 * i + 12, 32)}
            for name, (off, bits) in want.items():
                f = by.get(name)
                if i == n and f:
                    raise SpecError(f"layout {lname}: more than max_sge = {n} SGEs")
                if i < n and (not f or f["off"] != off or f["bits"] != bits or f.get("lsb", 0)):
                    raise SpecError(f"layout {lname}: {name} missing or not at byte {off} ({bits} bits)")


# Register docs name their bit fields in a fixed phrasing ("bit0: running; bit1: image accepted",
# "consumer index (bits 30:0); bit31 re-arms ...") and their value sets as "see <enum>". The
# register table for tools reads them from there, so the names exist once, in the spec.
FIELD_FORMS = (
    (re.compile(r"^bit(\d+):? (.+)$"), lambda m: (int(m[1]), 1, m[2])),
    (re.compile(r"^bits (\d+):(\d+):? (.+)$"), lambda m: (int(m[2]), int(m[1]) - int(m[2]) + 1, m[3])),
    (re.compile(r"^(.+) \(bits (\d+):(\d+)\)$"), lambda m: (int(m[3]), int(m[2]) - int(m[3]) + 1, m[1])),
)


def device_keys(s):
    """[device] integers in spec order: the first six as before, every later one after them."""
    first = ["pci_vendor_id", "pci_device_id", "hw_version", "clock_mhz", "max_sge", "max_num_qps"]
    return first + [k for k, v in s.device.items() if k not in first and isinstance(v, int)]


def layout_reg_fields(l):
    """A 4-byte layout as the bit fields of a 32-bit register value: [(lsb, bits, name)], the
    name being the field's doc (its words up to any parenthesis are what tools print)."""
    return [(f["off"] * 8 + f.get("lsb", 0), f["bits"], f.get("doc", f["name"])) for f in
            sorted(l["fields"], key=lambda f: f["off"] * 8 + f.get("lsb", 0))]


def reg_doc_fields(bname, r, layouts=None):
    """[(lsb, bits, name)]: the fields of the register's layout (`layout = NAME`), else those its
    doc names when every ';'-separated part of the doc names a field, else []."""
    if layouts is not None and "layout" in r:
        return layout_reg_fields(layouts[r["layout"]])
    out = []
    for part in (p.strip() for p in r["doc"].split(";")):
        for rx, conv in FIELD_FORMS:
            m = rx.match(part)
            if m:
                out.append(conv(m))
                break
        else:
            return []
    used = 0
    for lsb, bits, name in out:
        mask = ((1 << bits) - 1) << lsb
        if bits < 1 or lsb + bits > 32 or used & mask:
            raise SpecError(f"block {bname}: register {r['name']}: doc fields overlap or leave 32 bits")
        used |= mask
    return out


def reg_doc_enum(r, enums):
    m = re.search(r"\bsee (?:the )?(\w+)", r["doc"])
    return m[1] if m and m[1] in enums else None


def enum_is_bits(e):
    return re.search(r"\bbits?\b", e["doc"]) is not None


def c_ident(text):
    return re.sub(r"[^A-Za-z0-9]+", "_", text.split(" (")[0]).strip("_").upper()


def c_str(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def hdr_comment(style):
    text = "Generated by spec/gen/rnic_gen.py from spec/rnic.toml: do not edit, run `make gen`."
    return {"sv": f"// {text}\n", "c": f"/* {text} */\n", "md": f"<!-- {text} -->\n"}[style]


# ---------------------------------------------------------------- SystemVerilog package -----
def gen_sv_pkg(s):
    o = [hdr_comment("sv"), "// The hardware/software contract: addresses, enumerations and layouts.\n",
         "package rnic_spec_pkg;\n\n"]
    P = o.append
    P(f"  localparam logic [31:0] SPEC_HASH = 32'h{s.hash:08X};\n")
    for k in device_keys(s):
        P(f"  localparam int unsigned {k.upper()} = 32'h{s.device[k]:X};\n")
    for k, v in s.bar0.items():
        P(f"  localparam int unsigned BAR0_{k.upper()} = 32'h{v:X};\n")
    P(f"  localparam int unsigned REG_ADDR_W = {REG_ADDR_W};\n\n  // Register blocks (BAR0 byte addresses)\n")
    for i, b in enumerate(s.blocks):
        base = s.block_base(i)
        n = b["name"].upper()
        P(f"  localparam logic [31:0] BLK_{n}_BASE = 32'h{base:05X};\n")
        P(f"  localparam logic [31:0] BLK_{n}_TYPE = 32'h{b['type']:08X};\n")
        for r in b["regs"]:
            P(f"  localparam logic [31:0] REG_{n}_{r['name'].upper()} = 32'h{base + r['off']:05X};\n")
    cb = next(b for b in s.blocks if b["name"] == "counters")
    cbase = s.block_base(s.blocks.index(cb)) + cb["counter_base"]
    P(f"\n  // Counters: counter n at COUNTER_BASE + 4n\n  localparam int unsigned NUM_COUNTERS = {len(s.counters)};\n")
    P(f"  localparam logic [31:0] COUNTER_BASE = 32'h{cbase:05X};\n")
    for i, c in enumerate(s.counters):
        P(f"  localparam int unsigned CNT_{c.upper()} = {i};\n")
    P("\n  // Doorbell page offsets\n")
    for r in s.db_page["regs"]:
        P(f"  localparam logic [11:0] DB_{r['name'].upper()} = 12'h{r['off']:03X};\n")
    P(f"  localparam int unsigned DB_BF_DATA_BYTES = {s.db_page['regs'][-1].get('size', 4)};\n")
    P("\n  // The doorbell BAR (rnic_core s_axi_db_*)\n")
    for k, v in s.db_bar.items():
        P(f"  localparam int unsigned DB_BAR_{k.upper()} = 32'h{v:X};\n")
    P(f"\n  // Firmware MMIO registers (soft-core addresses)\n  localparam logic [31:0] FW_MMIO_BASE = 32'h{s.fw_mmio['base']:08X};\n")
    P(f"  localparam logic [31:0] FW_IMEM_BASE = 32'h{s.fw_mmio['imem_base']:08X};\n")
    P(f"  localparam logic [31:0] FW_DMEM_BASE = 32'h{s.fw_mmio['dmem_base']:08X};\n")
    P(f"  localparam logic [31:0] FW_DMA_BUF_BASE = 32'h{s.fw_mmio['dma_buf_base']:08X};\n")
    P(f"  localparam int unsigned FW_DMA_BUF_SIZE = {s.fw_mmio['dma_buf_size']};\n")
    for k in ("eth_rx_slots", "eth_slot_bytes", "eth_rx_ethertype"):
        P(f"  localparam int unsigned FW_{k.upper()} = {s.fw_mmio[k]};\n")
    for r in s.fw_mmio["regs"]:
        P(f"  localparam logic [11:0] FW_REG_{r['name'].upper()} = 12'h{r['off']:03X};\n")
    P(f"\n  // Tightly coupled window (soft-core addresses)\n  localparam logic [31:0] FW_TC_BASE = 32'h{s.fw_tc['base']:08X};\n")
    P(f"  localparam logic [11:0] FW_TC_CQ_REC_BASE = 12'h{s.fw_tc['cq_rec_base']:03X};\n")
    P(f"  localparam int unsigned FW_TC_CQ_REC_NUM = {s.fw_tc['cq_rec_num']};\n")
    P(f"  localparam logic [11:0] FW_TC_BF_DATA_BASE = 12'h{s.fw_tc['bf_data_base']:03X};\n")
    P(f"  localparam logic [31:0] FW_TC_QPC_BASE = 32'h{s.fw_tc['qpc_base']:08X};\n")
    P(f"  localparam int unsigned FW_TC_QPC_ENTRY_BYTES = {s.fw_tc['qpc_entry_bytes']};\n")
    P(f"  localparam logic [11:0] FW_TC_WQF_BUF_BASE = 12'h{s.fw_tc['wqf_buf_base']:03X};\n")
    P(f"  localparam int unsigned FW_TC_WQF_BUF_BBS = {s.fw_tc['wqf_buf_bbs']};\n")
    P(f"  localparam int unsigned FW_TC_WQF_CMD_NUM = {s.fw_tc['wqf_cmd_num']};\n")
    P(f"  localparam logic [11:0] FW_TC_WQF_RQ_BUF_BASE = 12'h{s.fw_tc['wqf_rq_buf_base']:03X};\n")
    P(f"  localparam int unsigned FW_TC_WQF_RQ_BUF_BBS = {s.fw_tc['wqf_rq_buf_bbs']};\n")
    P(f"  localparam logic [11:0] FW_TC_WQF_DB_BUF_BASE = 12'h{s.fw_tc['wqf_db_buf_base']:03X};\n")
    P(f"  localparam int unsigned FW_TC_WQF_DB_BUF_BBS = {s.fw_tc['wqf_db_buf_bbs']};\n")
    P(f"  localparam int unsigned FW_TC_WQF_DB_NUM = {s.fw_tc['wqf_db_num']};\n")
    P(f"  localparam logic [11:0] FW_TC_WQF_RDB_BUF_BASE = 12'h{s.fw_tc['wqf_rdb_buf_base']:03X};\n")
    P(f"  localparam int unsigned FW_TC_WQF_RDB_BUF_BBS = {s.fw_tc['wqf_rdb_buf_bbs']};\n")
    P(f"  localparam int unsigned FW_TC_WQF_RDB_NUM = {s.fw_tc['wqf_rdb_num']};\n")
    P(f"  localparam int unsigned FW_TC_WQF_RQF_YIELD = {s.fw_tc['wqf_rqf_yield']};\n")
    P(f"  localparam int unsigned FW_TC_RQF_AHEAD_BBS = {s.fw_tc['rqf_ahead_bbs']};\n")
    P(f"  localparam logic [11:0] FW_TC_EV_REC_BASE = 12'h{s.fw_tc['ev_rec_base']:03X};\n")
    P(f"  localparam int unsigned FW_TC_EV_REC_NUM = {s.fw_tc['ev_rec_num']};\n")
    P(f"  localparam logic [11:0] FW_TC_EVR_BASE = 12'h{s.fw_tc['evr_base']:03X};\n")
    P(f"  localparam int unsigned FW_TC_EVR_NUM = {s.fw_tc['evr_num']};\n")
    P(f"  localparam int unsigned FW_TC_EVR_COUNT_BITS = {s.fw_tc['evr_count_bits']};\n")
    P(f"  localparam logic [12:0] FW_TC_DBR_BASE = 13'h{s.fw_tc['dbr_base']:04X};\n")
    P(f"  localparam int unsigned FW_TC_DBR_NUM = {s.fw_tc['dbr_num']};\n")
    P(f"  localparam int unsigned FW_TC_DBR_COUNT_BITS = {s.fw_tc['dbr_count_bits']};\n")
    for r in s.fw_tc["regs"]:
        P(f"  localparam logic [11:0] FW_TC_{r['name'].upper()} = 12'h{r['off']:03X};\n")
    P(f"  // the descriptor mailboxes' page (offset bit 12) and their registers, offsets in the window\n")
    P(f"  localparam logic [12:0] FW_TC_MBOX_PAGE = 13'h{s.fw_tc['mbox_page']:04X};\n")
    for r in s.fw_tc["mbox_regs"]:
        P(f"  localparam logic [12:0] FW_TC_{r['name'].upper()} = 13'h{r['off']:04X};\n")
    for ename, e in s.enums.items():
        P(f"\n  // {e['doc']}\n")
        for n, v in e["values"]:
            P(f"  localparam logic [7:0] {ename.upper()}_{n} = 8'd{v};\n")
    for lname, l in s.layouts.items():
        L = lname.upper()
        P(f"\n  // {lname}: {l['size']} bytes. {l['doc'].split('.')[0]}.\n")
        P(f"  localparam int unsigned {L}_BYTES = {l['size']};\n")
        for f in l["fields"]:
            lsb = f["off"] * 8 + f.get("lsb", 0)
            P(f"  localparam int unsigned {L}_{f['name'].upper()}_LSB = {lsb};\n")
            P(f"  localparam int unsigned {L}_{f['name'].upper()}_W = {f['bits']};\n")
        # Packed struct whose bit 0 is byte 0 bit 0 of the little-endian layout.
        P(f"  typedef struct packed {{\n")
        pos, items = 0, []
        for f in sorted(l["fields"], key=lambda f: f["off"] * 8 + f.get("lsb", 0)):
            lsb = f["off"] * 8 + f.get("lsb", 0)
            if lsb > pos:
                items.append((f"rsvd{pos}", lsb - pos))
            items.append((f["name"], f["bits"]))
            pos = lsb + f["bits"]
        if pos < l["size"] * 8:
            items.append((f"rsvd{pos}", l["size"] * 8 - pos))
        for name, bits in reversed(items):
            P(f"    logic [{bits - 1}:0] {name};\n")
        P(f"  }} {lname}_t;\n")
    P("\nendpackage\n")
    return "".join(o)


# ---------------------------------------------------------------- SystemVerilog registers ---
def reg_port(b, r):
    return f"{b['name']}_{r['name']}"


def gen_sv_regs(s):
    o = [hdr_comment("sv"),
         "// BAR0 register file: the self-describing block chain (TYPE, VERSION, NEXT) and every\n",
         "// register of spec/rnic.toml. A plain register bus: a write takes effect on the clock edge\n",
         "// when req_i && we_i; rdata_o is combinational on addr_i and registered by the bus adapter.\n",
         "module rnic_regs (\n  input  logic clk_i,\n  input  logic rst_ni,\n",
         "  input  logic req_i,\n  input  logic we_i,\n",
         f"  input  logic [{REG_ADDR_W - 1}:0] addr_i,\n",
         "  input  logic [31:0] wdata_i,\n  input  logic [3:0] wstrb_i,\n  output logic [31:0] rdata_o"]
    P = o.append
    for b in s.blocks:
        for r in b["regs"]:
            n = reg_port(b, r)
            if r["kind"] == "ro":
                P(f",\n  input  logic [31:0] {n}_i")
            elif r["kind"] in ("rw", "wo"):
                P(f",\n  output logic [31:0] {n}_o")
                if r["kind"] == "wo":
                    P(f",\n  output logic {n}_we_o")
    P(f",\n  input  logic [{len(s.counters)}*32-1:0] counters_i\n);\n\n")
    stored = [(b, r) for b in s.blocks for r in b["regs"] if r["kind"] in ("rw", "wo")]
    for b, r in stored:
        P(f"  logic [31:0] {reg_port(b, r)}_q;\n")
    P("  logic wr;\n  assign wr = req_i && we_i;\n\n")
    P("  // Byte-enable merge of a register write.\n")
    P("  function automatic logic [31:0] merge(input logic [31:0] old, input logic [31:0] nv,\n")
    P("                                        input logic [3:0] be);\n")
    P("    for (int i = 0; i < 4; i++) merge[i*8 +: 8] = be[i] ? nv[i*8 +: 8] : old[i*8 +: 8];\n")
    P("  endfunction\n\n")
    P("  always_ff @(posedge clk_i or negedge rst_ni) begin\n    if (!rst_ni) begin\n")
    for b, r in stored:
        P(f"      {reg_port(b, r)}_q <= 32'h{int(r.get('reset', 0)):X};\n")
    P("    end else if (wr) begin\n      unique case (addr_i)\n")
    for i, b in enumerate(s.blocks):
        for r in b["regs"]:
            if r["kind"] in ("rw", "wo"):
                a = s.block_base(i) + r["off"]
                P(f"        {REG_ADDR_W}'h{a:03X}: {reg_port(b, r)}_q <= merge({reg_port(b, r)}_q, wdata_i, wstrb_i);\n")
    P("        default: ;\n      endcase\n    end\n  end\n\n")
    for i, b in enumerate(s.blocks):
        for r in b["regs"]:
            if r["kind"] in ("rw", "wo"):
                n = reg_port(b, r)
                P(f"  assign {n}_o = {n}_q;\n")
                if r["kind"] == "wo":
                    P(f"  assign {n}_we_o = wr && addr_i == {REG_ADDR_W}'h{s.block_base(i) + r['off']:03X};\n")
    cb = next(b for b in s.blocks if b["name"] == "counters")
    ci = s.blocks.index(cb)
    cstart = s.block_base(ci) + cb["counter_base"]
    P("\n  always_comb begin\n    rdata_o = 32'h0;\n    unique case (addr_i)\n")
    for i, b in enumerate(s.blocks):
        base = s.block_base(i)
        nxt = s.block_base(i + 1) if i + 1 < len(s.blocks) else 0
        P(f"      // block {b['name']}\n")
        P(f"      {REG_ADDR_W}'h{base:03X}: rdata_o = 32'h{b['type']:08X};\n")
        P(f"      {REG_ADDR_W}'h{base + 4:03X}: rdata_o = 32'h{b['version']:08X};\n")
        P(f"      {REG_ADDR_W}'h{base + 8:03X}: rdata_o = 32'h{nxt:08X};\n")
        for r in b["regs"]:
            a, n = base + r["off"], reg_port(b, r)
            val = {"const": lambda: f"32'h{s.const_value(r['value']):08X}", "ro": lambda: f"{n}_i",
                   "rw": lambda: f"{n}_q", "wo": lambda: f"{n}_q"}[r["kind"]]()
            P(f"      {REG_ADDR_W}'h{a:03X}: rdata_o = {val};\n")
    P("      default: begin\n")
    P(f"        if (addr_i >= {REG_ADDR_W}'h{cstart:03X} && addr_i < {REG_ADDR_W}'h{cstart + 4 * len(s.counters):03X})\n")
    P(f"          rdata_o = counters_i[(({REG_ADDR_W}'(addr_i - {REG_ADDR_W}'h{cstart:03X})) >> 2) * 32 +: 32];\n")
    P("      end\n    endcase\n  end\n\nendmodule\n")
    return "".join(o)


# ---------------------------------------------------------------- C header ------------------

def layout_align(l):
    """The alignment a layout's buffers promise (RNIC_<L>_ALIGN): the largest power of two up
    to 8 that divides its size. Fields whose container is aligned under it get single-access
    accessors."""
    a = 8
    while l["size"] % a:
        a //= 2
    return a


C_ACCESS = """
/* Field access. Every field is little-endian in memory. A field whose container (8/16/32/64
 * bits) is naturally aligned inside its layout is one load or store of that container through
 * memcpy (a single instruction where the target allows it), byte-swapped on big-endian hosts;
 * the few odd fields go byte by byte. Without GNU C (or with RNIC_NO_FAST_ACCESS) everything
 * goes byte by byte.
 *
 * Code that keeps its layout buffers aligned to RNIC_<LAYOUT>_ALIGN may define
 * RNIC_LAYOUT_ALIGNED before including this header: the compiler is then told the alignment,
 * so a core that traps misaligned access (the firmware's) still gets single loads and stores.
 * RNIC_ASSUME_ALIGNED may be predefined instead (tests use it to check that promise). */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
	(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ || __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
#define RNIC_FAST_ACCESS 1
#endif
#ifndef RNIC_ASSUME_ALIGNED
#if defined(RNIC_LAYOUT_ALIGNED) && defined(RNIC_FAST_ACCESS)
#define RNIC_ASSUME_ALIGNED(p, a) __builtin_assume_aligned((p), (a))
#else
#define RNIC_ASSUME_ALIGNED(p, a) (p)
#endif
#endif

/* Little-endian container access, byte by byte: alignment- and host-endian-independent. */
static inline uint64_t rnic_ld_le(const void *p, unsigned bytes)
{
\tconst uint8_t *b = (const uint8_t *)p;
\tuint64_t v = 0;
\tfor (unsigned i = 0; i < bytes; i++)
\t\tv |= (uint64_t)b[i] << (8 * i);
\treturn v;
}

static inline void rnic_st_le(void *p, unsigned bytes, uint64_t v)
{
\tuint8_t *b = (uint8_t *)p;
\tfor (unsigned i = 0; i < bytes; i++)
\t\tb[i] = (uint8_t)(v >> (8 * i));
}

static inline uint64_t rnic_get_field(const void *base, unsigned off, unsigned cbytes, unsigned lsb,
\t\t\t\t      unsigned bits)
{
\tuint64_t v = rnic_ld_le((const uint8_t *)base + off, cbytes) >> lsb;
\treturn bits == 64 ? v : v & ((1ull << bits) - 1);
}

static inline void rnic_set_field(void *base, unsigned off, unsigned cbytes, unsigned lsb, unsigned bits,
\t\t\t\t  uint64_t v)
{
\tuint64_t mask = (bits == 64 ? ~0ull : ((1ull << bits) - 1)) << lsb;
\tuint64_t c = rnic_ld_le((const uint8_t *)base + off, cbytes);
\trnic_st_le((uint8_t *)base + off, cbytes, (c & ~mask) | ((v << lsb) & mask));
}

/* One little-endian container of 8, 16, 32 or 64 bits: a single access where possible. */
#ifdef RNIC_FAST_ACCESS
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define RNIC_LE16(x) __builtin_bswap16(x)
#define RNIC_LE32(x) __builtin_bswap32(x)
#define RNIC_LE64(x) __builtin_bswap64(x)
#else
#define RNIC_LE16(x) (x)
#define RNIC_LE32(x) (x)
#define RNIC_LE64(x) (x)
#endif
#define RNIC_LD_ST(n)                                                          \\
\tstatic inline uint##n##_t rnic_ld_le##n(const void *p)                 \\
\t{                                                                      \\
\t\tuint##n##_t v;                                                 \\
\t\t__builtin_memcpy(&v, p, sizeof(v));                            \\
\t\treturn RNIC_LE##n(v);                                          \\
\t}                                                                      \\
\tstatic inline void rnic_st_le##n(void *p, uint##n##_t v)              \\
\t{                                                                      \\
\t\tv = RNIC_LE##n(v);                                             \\
\t\t__builtin_memcpy(p, &v, sizeof(v));                            \\
\t}
#define RNIC_LE8(x) (x)
RNIC_LD_ST(8)
RNIC_LD_ST(16)
RNIC_LD_ST(32)
RNIC_LD_ST(64)
#undef RNIC_LD_ST
#else
static inline uint8_t rnic_ld_le8(const void *p) { return (uint8_t)rnic_ld_le(p, 1); }
static inline uint16_t rnic_ld_le16(const void *p) { return (uint16_t)rnic_ld_le(p, 2); }
static inline uint32_t rnic_ld_le32(const void *p) { return (uint32_t)rnic_ld_le(p, 4); }
static inline uint64_t rnic_ld_le64(const void *p) { return rnic_ld_le(p, 8); }
static inline void rnic_st_le8(void *p, uint8_t v) { rnic_st_le(p, 1, v); }
static inline void rnic_st_le16(void *p, uint16_t v) { rnic_st_le(p, 2, v); }
static inline void rnic_st_le32(void *p, uint32_t v) { rnic_st_le(p, 4, v); }
static inline void rnic_st_le64(void *p, uint64_t v) { rnic_st_le(p, 8, v); }
#endif
"""

def c_type(bits):
    return "uint64_t" if bits > 32 else "uint32_t"


def gen_c(s):
    o = [hdr_comment("c"),
         "/* The hardware/software contract of the RNIC, shared by firmware, kernel module, provider,\n",
         " * tools and testbenches. Every in-memory field is little-endian; use the accessors. */\n",
         "#ifndef RNIC_SPEC_H\n#define RNIC_SPEC_H\n\n",
         "#ifdef __KERNEL__\n#include <linux/types.h>\n#else\n#include <stdint.h>\n#endif\n\n"]
    P = o.append
    P(f"#define RNIC_SPEC_HASH 0x{s.hash:08X}u\n")
    for k in device_keys(s):
        P(f"#define RNIC_{k.upper()} 0x{s.device[k]:X}u\n")
    for k, v in s.bar0.items():
        P(f"#define RNIC_BAR0_{k.upper()} 0x{v:X}u\n")
    P("\n/* Register blocks: BAR0 byte addresses. Every block starts with TYPE, VERSION, NEXT. */\n")
    P("#define RNIC_BLK_TYPE 0x0u\n#define RNIC_BLK_VERSION 0x4u\n#define RNIC_BLK_NEXT 0x8u\n")
    for i, b in enumerate(s.blocks):
        n, base = b["name"].upper(), s.block_base(i)
        P(f"#define RNIC_BLK_{n}_TYPE 0x{b['type']:08X}u\n#define RNIC_BLK_{n}_VERSION 0x{b['version']:08X}u\n")
        P(f"#define RNIC_BLK_{n}_BASE 0x{base:05X}u\n")
        for r in b["regs"]:
            P(f"#define RNIC_REG_{n}_{r['name'].upper()} 0x{base + r['off']:05X}u\n")
    cb = next(b for b in s.blocks if b["name"] == "counters")
    cbase = s.block_base(s.blocks.index(cb)) + cb["counter_base"]
    P(f"\n/* Counters: counter n at RNIC_COUNTER_BASE + 4n. */\n#define RNIC_NUM_COUNTERS {len(s.counters)}u\n")
    P(f"#define RNIC_COUNTER_BASE 0x{cbase:05X}u\n")
    for i, c in enumerate(s.counters):
        P(f"#define RNIC_CNT_{c.upper()} {i}u\n")
    P("static const char *const rnic_counter_names[] __attribute__((unused)) = {\n")
    for c in s.counters:
        P(f"\t\"{c}\",\n")
    P("};\n\n/* Doorbell page offsets. */\n")
    for r in s.db_page["regs"]:
        P(f"#define RNIC_DB_{r['name'].upper()} 0x{r['off']:03X}u\n")
    P(f"#define RNIC_DB_BF_DATA_BYTES {s.db_page['regs'][-1].get('size', 4)}u\n")
    P("\n/* The doorbell BAR: PCIe BAR index, page per user context, size. */\n")
    for k, v in s.db_bar.items():
        P(f"#define RNIC_DB_BAR_{k.upper()} 0x{v:X}u\n")
    P(f"\n/* Firmware MMIO registers (soft-core addresses). */\n#define RNIC_FW_MMIO_BASE 0x{s.fw_mmio['base']:08X}u\n")
    P(f"#define RNIC_FW_IMEM_BASE 0x{s.fw_mmio['imem_base']:08X}u\n#define RNIC_FW_DMEM_BASE 0x{s.fw_mmio['dmem_base']:08X}u\n")
    P(f"#define RNIC_FW_DMA_BUF_BASE 0x{s.fw_mmio['dma_buf_base']:08X}u\n#define RNIC_FW_DMA_BUF_SIZE {s.fw_mmio['dma_buf_size']}u\n")
    for k in ("eth_rx_slots", "eth_slot_bytes", "eth_rx_ethertype"):
        P(f"#define RNIC_FW_{k.upper()} {s.fw_mmio[k]}u\n")
    for r in s.fw_mmio["regs"]:
        P(f"#define RNIC_FW_REG_{r['name'].upper()} 0x{r['off']:03X}u\n")
    P(f"\n/* Tightly coupled window (soft-core addresses). */\n#define RNIC_FW_TC_BASE 0x{s.fw_tc['base']:08X}u\n")
    P(f"#define RNIC_FW_TC_CQ_REC_BASE 0x{s.fw_tc['cq_rec_base']:03X}u\n#define RNIC_FW_TC_CQ_REC_NUM {s.fw_tc['cq_rec_num']}u\n")
    P(f"#define RNIC_FW_TC_BF_DATA_BASE 0x{s.fw_tc['bf_data_base']:03X}u\n")
    P(f"#define RNIC_FW_TC_QPC_BASE 0x{s.fw_tc['qpc_base']:08X}u\n#define RNIC_FW_TC_QPC_ENTRY_BYTES {s.fw_tc['qpc_entry_bytes']}u\n")
    P(f"#define RNIC_FW_TC_WQF_BUF_BASE 0x{s.fw_tc['wqf_buf_base']:03X}u\n#define RNIC_FW_TC_WQF_BUF_BBS {s.fw_tc['wqf_buf_bbs']}u\n")
    P(f"#define RNIC_FW_TC_WQF_CMD_NUM {s.fw_tc['wqf_cmd_num']}u\n")
    P(f"#define RNIC_FW_TC_WQF_RQ_BUF_BASE 0x{s.fw_tc['wqf_rq_buf_base']:03X}u\n#define RNIC_FW_TC_WQF_RQ_BUF_BBS {s.fw_tc['wqf_rq_buf_bbs']}u\n")
    P(f"#define RNIC_FW_TC_WQF_DB_BUF_BASE 0x{s.fw_tc['wqf_db_buf_base']:03X}u\n#define RNIC_FW_TC_WQF_DB_BUF_BBS {s.fw_tc['wqf_db_buf_bbs']}u\n")
    P(f"#define RNIC_FW_TC_WQF_DB_NUM {s.fw_tc['wqf_db_num']}u\n")
    P(f"#define RNIC_FW_TC_WQF_RDB_BUF_BASE 0x{s.fw_tc['wqf_rdb_buf_base']:03X}u\n#define RNIC_FW_TC_WQF_RDB_BUF_BBS {s.fw_tc['wqf_rdb_buf_bbs']}u\n")
    P(f"#define RNIC_FW_TC_WQF_RDB_NUM {s.fw_tc['wqf_rdb_num']}u\n")
    P(f"#define RNIC_FW_TC_WQF_RQF_YIELD {s.fw_tc['wqf_rqf_yield']}u\n")
    P(f"#define RNIC_FW_TC_RQF_AHEAD_BBS {s.fw_tc['rqf_ahead_bbs']}u\n")
    P(f"#define RNIC_FW_TC_EV_REC_BASE 0x{s.fw_tc['ev_rec_base']:03X}u\n#define RNIC_FW_TC_EV_REC_NUM {s.fw_tc['ev_rec_num']}u\n")
    P(f"#define RNIC_FW_TC_EVR_BASE 0x{s.fw_tc['evr_base']:03X}u\n#define RNIC_FW_TC_EVR_NUM {s.fw_tc['evr_num']}u\n")
    P(f"#define RNIC_FW_TC_EVR_COUNT_BITS {s.fw_tc['evr_count_bits']}u\n")
    P(f"#define RNIC_FW_TC_DBR_BASE 0x{s.fw_tc['dbr_base']:04X}u\n#define RNIC_FW_TC_DBR_NUM {s.fw_tc['dbr_num']}u\n")
    P(f"#define RNIC_FW_TC_DBR_COUNT_BITS {s.fw_tc['dbr_count_bits']}u\n")
    for r in s.fw_tc["regs"]:
        P(f"#define RNIC_FW_TC_{r['name'].upper()} 0x{r['off']:03X}u\n")
    P(f"#define RNIC_FW_TC_MBOX_PAGE 0x{s.fw_tc['mbox_page']:04X}u\n")
    for r in s.fw_tc["mbox_regs"]:
        P(f"#define RNIC_FW_TC_{r['name'].upper()} 0x{r['off']:04X}u\n")
    for ename, e in s.enums.items():
        P(f"\n/* {e['doc']} */\n")
        for n, v in e["values"]:
            P(f"#define RNIC_{ename.upper()}_{n} {v}u\n")
    P(C_ACCESS)
    for lname, l in s.layouts.items():
        L = lname.upper()
        la = layout_align(l)
        P(f"\n/* {lname} ({l['size']} bytes): {l['doc']} */\n#define RNIC_{L}_SIZE {l['size']}u\n"
          f"#define RNIC_{L}_ALIGN {la}u\n")
        for f in l["fields"]:
            lsb = f.get("lsb", 0)
            cb_ = container_bits(lsb, f["bits"]) // 8
            F = f["name"].upper()
            t = c_type(f["bits"])
            off, bits = f["off"], f["bits"]
            P(f"#define RNIC_{L}_{F}_OFF {off}u\n")
            if off % cb_ or cb_ > la:
                # An odd field: its container is not naturally aligned inside the layout.
                P(f"static inline {t} rnic_{lname}_get_{f['name']}(const void *p)\n"
                  f"{{\n\treturn ({t})rnic_get_field(p, {off}, {cb_}, {lsb}, {bits});\n}}\n")
                P(f"static inline void rnic_{lname}_set_{f['name']}(void *p, {t} v)\n"
                  f"{{\n\trnic_set_field(p, {off}, {cb_}, {lsb}, {bits}, v);\n}}\n")
                continue
            n = cb_ * 8
            ct = f"uint{n}_t"
            src = f"(const uint8_t *)RNIC_ASSUME_ALIGNED(p, {la}) + {off}"
            dst = f"(uint8_t *)RNIC_ASSUME_ALIGNED(p, {la}) + {off}"
            if lsb == 0 and bits == n:
                P(f"static inline {t} rnic_{lname}_get_{f['name']}(const void *p)\n"
                  f"{{\n\treturn rnic_ld_le{n}({src});\n}}\n")
                P(f"static inline void rnic_{lname}_set_{f['name']}(void *p, {t} v)\n"
                  f"{{\n\trnic_st_le{n}({dst}, ({ct})v);\n}}\n")
            else:
                mask = f"0x{((1 << bits) - 1) << lsb:X}u" + ("ll" if n == 64 else "")
                P(f"static inline {t} rnic_{lname}_get_{f['name']}(const void *p)\n"
                  f"{{\n\treturn ({t})((rnic_ld_le{n}({src}) & {mask}) >> {lsb});\n}}\n")
                P(f"static inline void rnic_{lname}_set_{f['name']}(void *p, {t} v)\n"
                  f"{{\n\tuint8_t *q = {dst};\n"
                  f"\trnic_st_le{n}(q, ({ct})((rnic_ld_le{n}(q) & ~{mask}) | ((({ct})v << {lsb}) & {mask})));\n}}\n")
        if l["size"] == 4:
            # A 4-byte layout is also a register value (MMIO or tightly coupled): field of a value
            # (rnic_L_v_F) and a field placed in a value (rnic_L_mk_F), for one load or store.
            for f in l["fields"]:
                F = f["name"].upper()
                lsb = f["off"] * 8 + f.get("lsb", 0)
                mask = ((1 << f["bits"]) - 1) << lsb
                P(f"#define RNIC_{L}_{F}_LSB {lsb}u\n#define RNIC_{L}_{F}_MASK 0x{mask:08X}u\n")
                P(f"static inline uint32_t rnic_{lname}_v_{f['name']}(uint32_t v)\n"
                  f"{{\n\treturn (v & 0x{mask:08X}u) >> {lsb};\n}}\n")
                P(f"static inline uint32_t rnic_{lname}_mk_{f['name']}(uint32_t x)\n"
                  f"{{\n\treturn (x << {lsb}) & 0x{mask:08X}u;\n}}\n")
    P("\n/* Every layout field as X(layout, field, off, container bytes, lsb, bits): for tools and the\n"
      " * accessor self-test. */\n#define RNIC_FOR_EACH_FIELD(X) \\\n")
    rows = []
    for lname, l in s.layouts.items():
        for f in l["fields"]:
            lsb = f.get("lsb", 0)
            rows.append(f"\tX({lname}, {f['name']}, {f['off']}, {container_bits(lsb, f['bits']) // 8}, {lsb}, {f['bits']})")
    P(" \\\n".join(rows) + "\n")
    P("\n/* Every field of a 4-byte layout (a register value) as X(layout, field, lsb, bits): the value\n"
      " * accessors rnic_<layout>_v_<field> / _mk_<field> and their masks, for the self-test. */\n"
      "#define RNIC_FOR_EACH_REG_FIELD(X) \\\n")
    rows = [f"\tX({lname}, {f['name']}, {f['off'] * 8 + f.get('lsb', 0)}, {f['bits']})"
            for lname, l in s.layouts.items() if l["size"] == 4 for f in l["fields"]]
    P(" \\\n".join(rows) + "\n")
    P("\n#endif /* RNIC_SPEC_H */\n")
    return "".join(o)


# ---------------------------------------------------------------- C register table ----------
C_REGS_TYPES = """
/* Register kinds, as in the spec. */
enum rnic_spec_kind { RNIC_SPEC_CONST = 0, RNIC_SPEC_RO = 1, RNIC_SPEC_RW = 2, RNIC_SPEC_WO = 3 };

struct rnic_spec_field {
\tconst char *name;\t/* the doc's words up to any parenthesis */
\tconst char *doc;\t/* the doc's whole words for this field */
\tuint8_t lsb, bits;
};

struct rnic_spec_enumval {
\tconst char *name;
\tuint32_t value;
};

struct rnic_spec_reg {
\tconst char *name;
\tconst char *doc;
\tuint32_t off;\t\t/* from the block's base */
\tenum rnic_spec_kind kind;
\tuint32_t value;\t\t/* const: the value the spec fixes; rw/wo: the reset value; ro: 0 */
\tconst struct rnic_spec_field *fields;\t/* bit fields named by the doc, or NULL */
\tunsigned num_fields;
\tconst char *enum_name;\t/* the value set the doc points to ("see ..."), or NULL */
\tconst struct rnic_spec_enumval *enumvals;
\tunsigned num_enumvals;
\tint enum_bits;\t\t/* the enum lists bit positions, not values */
};

struct rnic_spec_block {
\tconst char *name;
\tconst char *doc;
\tuint32_t type, version;
\tuint32_t base;\t\t/* where this spec puts it; drivers find blocks by walking the chain */
\tconst struct rnic_spec_reg *regs;
\tunsigned num_regs;
\tuint32_t counter_base;\t/* counters block: offset of counter 0 (names: rnic_counter_names) */
\tunsigned num_counters;
};
"""


def gen_c_regs(s):
    o = [hdr_comment("c"),
         "/* Every BAR0 register block of the spec as data: names, offsets, kinds, docs, the bit fields\n",
         " * and value sets their docs name. For tools that print registers by name (rnic-tool) and\n",
         " * for test models of the register file. */\n",
         "#ifndef RNIC_SPEC_REGS_H\n#define RNIC_SPEC_REGS_H\n\n#include \"rnic_spec.h\"\n",
         "\n#ifdef __GNUC__\n#define RNIC_SPEC_UNUSED __attribute__((unused))\n#else\n#define RNIC_SPEC_UNUSED\n#endif\n",
         C_REGS_TYPES]
    P = o.append
    P("\n/* Masks of the named bit fields: RNIC_REG_<BLOCK>_<REG>_F_<FIELD>. */\n")
    for b in s.blocks:
        for r in b["regs"]:
            for lsb, bits, name in s.reg_fields[(b["name"], r["name"])]:
                P(f"#define RNIC_REG_{b['name'].upper()}_{r['name'].upper()}_F_{c_ident(name)} 0x{((1 << bits) - 1) << lsb:08X}u\n")
    used_enums = sorted(set(s.reg_enum.values()))
    for ename in used_enums:
        P(f"\nstatic const struct rnic_spec_enumval rnic_spec_enum_{ename}[] RNIC_SPEC_UNUSED = {{\n")
        for n, v in s.enums[ename]["values"]:
            P(f"\t{{ \"{n}\", {v}u }},\n")
        P("};\n")
    for b in s.blocks:
        for r in b["regs"]:
            f = s.reg_fields[(b["name"], r["name"])]
            if not f:
                continue
            P(f"\nstatic const struct rnic_spec_field rnic_spec_fields_{b['name']}_{r['name']}[] RNIC_SPEC_UNUSED = {{\n")
            for lsb, bits, name in f:
                P(f"\t{{ {c_str(name.split(' (')[0])}, {c_str(name)}, {lsb}, {bits} }},\n")
            P("};\n")
    kinds = {"const": "RNIC_SPEC_CONST", "ro": "RNIC_SPEC_RO", "rw": "RNIC_SPEC_RW", "wo": "RNIC_SPEC_WO"}
    for b in s.blocks:
        P(f"\nstatic const struct rnic_spec_reg rnic_spec_regs_{b['name']}[] RNIC_SPEC_UNUSED = {{\n")
        for r in b["regs"]:
            key = (b["name"], r["name"])
            val = s.const_value(r["value"]) if r["kind"] == "const" else int(r.get("reset", 0))
            f = s.reg_fields[key]
            fld = f"rnic_spec_fields_{b['name']}_{r['name']}, {len(f)}u" if f else "0, 0u"
            e = s.reg_enum.get(key)
            en = (f"\"{e}\", rnic_spec_enum_{e}, {len(s.enums[e]['values'])}u, {int(enum_is_bits(s.enums[e]))}"
                  if e else "0, 0, 0u, 0")
            P(f"\t{{ \"{r['name']}\", {c_str(r['doc'])}, 0x{r['off']:02X}u, {kinds[r['kind']]}, 0x{val:08X}u,\n"
              f"\t  {fld}, {en} }},\n")
        P("};\n")
    P(f"\n#define RNIC_SPEC_NUM_BLOCKS {len(s.blocks)}u\n")
    P("static const struct rnic_spec_block rnic_spec_blocks[] RNIC_SPEC_UNUSED = {\n")
    for i, b in enumerate(s.blocks):
        cnt = f"0x{b['counter_base']:02X}u, {len(s.counters)}u" if "counter_base" in b else "0u, 0u"
        P(f"\t{{ \"{b['name']}\", {c_str(b['doc'])},\n\t  0x{b['type']:08X}u, 0x{b['version']:08X}u, 0x{s.block_base(i):03X}u,\n"
          f"\t  rnic_spec_regs_{b['name']}, {len(b['regs'])}u, {cnt} }},\n")
    P("};\n\n#endif /* RNIC_SPEC_REGS_H */\n")
    return "".join(o)


# ---------------------------------------------------------------- Markdown ------------------
def md_layout(r):
    return f" (fields: layout `{r['layout']}`)" if "layout" in r else ""


def gen_md(s):
    o = [hdr_comment("md"), "# Hardware/software interface\n\n",
         "Everything here is generated from `spec/rnic.toml`, the single source of the contract between\n",
         "the RTL, the firmware, the kernel module and the provider. Multi-byte fields in host memory\n",
         "are little-endian. `off` is the byte offset of the field's container, `bits` its width,\n",
         "`lsb` its first bit inside the container.\n\n",
         f"Spec hash (CRC-32 of `spec/rnic.toml`, readable in `id.spec_hash`): `0x{s.hash:08X}`.\n\n",
         "## BAR0\n\n| region | offset | size |\n|---|---|---|\n",
         f"| register blocks | 0x0 | 0x{len(s.blocks) * s.bar0['block_stride']:X} |\n",
         f"| firmware window (IMEM, then DMEM) | 0x{s.bar0['fw_window_base']:X} | 0x{s.bar0['fw_window_size']:X} |\n",
         f"| reserved (SLVERR) | 0x{s.bar0['fw_window_base'] + s.bar0['fw_window_size']:X} | to the end (0x{s.bar0['size']:X}) |\n\n",
         "Every register block starts with TYPE (+0x0), VERSION (+0x4) and NEXT (+0x8, the BAR0 offset\n",
         "of the next block; 0 ends the chain). The driver walks the chain from offset 0.\n\n"]
    P = o.append
    for i, b in enumerate(s.blocks):
        base = s.block_base(i)
        tname = b["type"].to_bytes(4, "big").decode()
        P(f"### Block `{b['name']}` at 0x{base:03X} (type 0x{b['type']:08X} '{tname}', version 0x{b['version']:08X})\n\n{b['doc']}\n\n")
        P("| offset | register | kind | description |\n|---|---|---|---|\n")
        for r in b["regs"]:
            extra = f" (= 0x{s.const_value(r['value']):X})" if r["kind"] == "const" else ""
            P(f"| 0x{base + r['off']:03X} | `{r['name']}` | {r['kind']} | {r['doc']}{extra}{md_layout(r)} |\n")
        if b["name"] == "counters":
            for j, c in enumerate(s.counters):
                P(f"| 0x{base + b['counter_base'] + 4 * j:03X} | `{c}` | ro | counter {j} |\n")
        P("\n")
    d = s.db_bar
    P(f"## Doorbell BAR\n\nPCIe BAR {d['index']} (rnic_core's wide AXI4 slave `s_axi_db_*`, on a board the PCIe bridge's DMA-bypass master): {d['num_pages']} pages of 0x{d['page_size']:X} bytes, page N at offset N x 0x{d['page_size']:X} for user context N (page 0: the kernel), 0x{d['size']:X} bytes in all. A doorbell word that finds the doorbell FIFO full is held at most {d['hold_cycles']} cycles, then dropped and counted (`doorbell.db_dropped`).\n\n")
    P(f"## Doorbell page\n\n{s.db_page['doc']}\n\n| offset | name | description |\n|---|---|---|\n")
    for r in s.db_page["regs"]:
        P(f"| 0x{r['off']:03X} | `{r['name']}` | {r['doc']} |\n")
    P(f"\n## Firmware MMIO registers\n\n{s.fw_mmio['doc']} Base 0x{s.fw_mmio['base']:08X}; the soft core's IMEM is at 0x{s.fw_mmio['imem_base']:08X} and its DMEM at 0x{s.fw_mmio['dmem_base']:08X}; the firmware DMA staging buffer ({s.fw_mmio['dma_buf_size']} bytes) at 0x{s.fw_mmio['dma_buf_base']:08X}.\n\n| offset | name | description |\n|---|---|---|\n")
    for r in s.fw_mmio["regs"]:
        P(f"| 0x{r['off']:03X} | `{r['name']}` | {r['doc']}{md_layout(r)} |\n")
    P(f"\n## Firmware tightly coupled window\n\n{s.fw_tc['doc']} Base 0x{s.fw_tc['base']:08X}; the completion-record ring ({s.fw_tc['cq_rec_num']} slots of `cq_rec`) at offset 0x{s.fw_tc['cq_rec_base']:03X}; the BlueFlame capture (the doorbell page's `bf_data`, {s.db_page['regs'][-1].get('size', 4)} bytes, read only) at offset 0x{s.fw_tc['bf_data_base']:03X}; the WQE fetch buffer ({s.fw_tc['wqf_buf_bbs']} WQEBBs the fetch engine DMA-reads, rtl/wqe_fetch; {s.fw_tc['wqf_cmd_num']} commands queued at most; read only) at offset 0x{s.fw_tc['wqf_buf_base']:03X}; its receive region ({s.fw_tc['wqf_rq_buf_bbs']} WQEBBs, RQ WQEs, `wqf_cmd.rq`; read only) at offset 0x{s.fw_tc['wqf_rq_buf_base']:03X}; its doorbell region ({s.fw_tc['wqf_db_buf_bbs']} WQEBBs the engine fetched on an sq_db by itself, `wqf_sq_*`, at most {s.fw_tc['wqf_db_num']} records; read only) at offset 0x{s.fw_tc['wqf_db_buf_base']:03X}; its receive doorbell region ({s.fw_tc['wqf_rdb_buf_bbs']} WQEBBs the engine fetched on an rq_db by itself, `wqf_rq_*`, at most {s.fw_tc['wqf_rdb_num']} records; read only) at offset 0x{s.fw_tc['wqf_rdb_buf_base']:03X}; the receive-event ring ({s.fw_tc['evr_num']} slots of `rx_event` the RTL fills in order, `evr_prod` / `evr_cons`; read only) at offset 0x{s.fw_tc['evr_base']:03X}; the QP-context RAM (firmware-owned per-QP state, {s.fw_tc['qpc_entry_bytes']} bytes per QP of the configuration, plain memory with byte enables) at offset 0x{s.fw_tc['qpc_base']:07X}.\n\n| offset | name | description |\n|---|---|---|\n")
    for r in s.fw_tc["regs"]:
        P(f"| 0x{r['off']:03X} | `{r['name']}` | {r['doc']} |\n")
    P(f"\nThe descriptor mailboxes and the doorbell ring ({s.fw_tc['dbr_num']} slots of two words, `db_event` then the value, the RTL fills in order, `dbr_prod` / `dbr_cons`; read only) at offset 0x{s.fw_tc['dbr_base']:04X}, in the window's page at 0x{s.fw_tc['mbox_page']:04X}:\n\n| offset | name | description |\n|---|---|---|\n")
    for r in s.fw_tc["mbox_regs"]:
        P(f"| 0x{r['off']:04X} | `{r['name']}` | {r['doc']}{md_layout(r)} |\n")
    P("\n## Enumerations\n\n")
    for ename, e in s.enums.items():
        P(f"### `{ename}`\n\n{e['doc']}\n\n| name | value |\n|---|---|\n")
        for n, v in e["values"]:
            P(f"| {n} | {v} (0x{v:X}) |\n")
        P("\n")
    P("## Layouts\n\n")
    for lname, l in s.layouts.items():
        P(f"### `{lname}` ({l['size']} bytes)\n\n{l['doc']}\n\n| off | lsb | bits | field | description |\n|---|---|---|---|---|\n")
        for f in l["fields"]:
            doc = f.get("doc", "")
            if "enum" in f:
                doc = (doc + " " if doc else "") + f"(enum `{f['enum']}`)"
            P(f"| {f['off']} | {f.get('lsb', 0)} | {f['bits']} | `{f['name']}` | {doc} |\n")
        P("\n")
    return "".join(o)


# ---------------------------------------------------------------- Python module -------------
PY_ACCESS = '''

def get(layout, field, buf, base=0):
    """Field `field` of layout `layout` in the bytes buf (the layout starting at buf[base])."""
    off, lsb, bits = LAYOUTS[layout][1][field]
    c = _container(lsb, bits)
    v = int.from_bytes(bytes(buf[base + off:base + off + c]), "little")
    return (v >> lsb) & ((1 << bits) - 1)


def put(layout, field, buf, value, base=0):
    """Stores value into field `field` of layout `layout` in the bytearray buf."""
    off, lsb, bits = LAYOUTS[layout][1][field]
    c = _container(lsb, bits)
    mask = ((1 << bits) - 1) << lsb
    if value >> bits:
        raise ValueError(f"{layout}.{field}: {value:#x} does not fit {bits} bits")
    v = int.from_bytes(bytes(buf[base + off:base + off + c]), "little")
    buf[base + off:base + off + c] = ((v & ~mask) | (value << lsb)).to_bytes(c, "little")


def _container(lsb, bits):
    for c in (1, 2, 4, 8):
        if lsb + bits <= 8 * c:
            return c
    raise ValueError("no container")
'''


def gen_py(s):
    o = ["# " + hdr_comment("c")[3:-4] + "\n",
         '"""The hardware/software contract for the project\'s Python tools (mkimage.py, test scripts):\n',
         "constants, enumerations and every layout as (size, {field: (byte offset, lsb, bits)}).\n",
         'Import it with spec/py on sys.path; get()/put() read and write a field in bytes."""\n\n']
    P = o.append
    P(f"SPEC_HASH = 0x{s.hash:08X}\n")
    for k in device_keys(s):
        P(f"{k.upper()} = 0x{s.device[k]:X}\n")
    for k in ("imem_base", "dmem_base"):
        P(f"FW_{k.upper()} = 0x{s.fw_mmio[k]:08X}\n")
    for ename, e in s.enums.items():
        for n, v in e["values"]:
            P(f"{ename.upper()}_{n} = {v}\n")
    P("\nLAYOUTS = {\n")
    for lname, l in s.layouts.items():
        P(f"    \"{lname}\": ({l['size']}, {{\n")
        for f in l["fields"]:
            P(f"        \"{f['name']}\": ({f['off']}, {f.get('lsb', 0)}, {f['bits']}),\n")
        P("    }),\n")
    P("}\n")
    P(PY_ACCESS)
    return "".join(o)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--spec", default=os.path.join(here, "..", "rnic.toml"))
    ap.add_argument("--root", default=os.path.join(here, "..", ".."))
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    try:
        with open(a.spec, "rb") as fh:
            spec = Spec(fh.read())
    except (SpecError, tomllib.TOMLDecodeError, KeyError) as e:
        print(f"rnic_gen: error in {a.spec}: {e}", file=sys.stderr)
        return 2
    texts = {"sv_pkg": gen_sv_pkg(spec), "sv_regs": gen_sv_regs(spec), "c_hdr": gen_c(spec),
             "c_regs": gen_c_regs(spec), "md": gen_md(spec), "py": gen_py(spec)}
    stale = []
    for key, rel in OUTPUTS.items():
        path = os.path.join(a.root, rel)
        old = open(path).read() if os.path.exists(path) else None
        if a.check:
            if old != texts[key]:
                stale.append(rel)
        elif old != texts[key]:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as fh:
                fh.write(texts[key])
            print(f"rnic_gen: wrote {rel}")
    if stale:
        print("rnic_gen: stale generated files (run `make gen`): " + " ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
