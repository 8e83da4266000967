// Result lines for testbenches: one "PASS name" or "FAIL name why" per check; a FAIL is followed
// by "RERUN <this program's command line>" (tb_rerun.h).
#pragma once
#include <cstdarg>
#include <cstdio>

#include "tb_rerun.h"

struct TbResults {
  int passed = 0, failed = 0;
  // Records one check; returns ok so callers can stop early.
  bool check(bool ok, const char *name, const char *fmt = nullptr, ...) {
    if (ok) {
      std::printf("PASS %s\n", name);
      passed++;
    } else {
      std::printf("FAIL %s", name);
      if (fmt) {
        std::printf(" ");
        va_list ap;
        va_start(ap, fmt);
        std::vprintf(fmt, ap);
        va_end(ap);
      }
      std::printf("\n");
      tb_print_rerun();
      failed++;
    }
    std::fflush(stdout);
    return ok;
  }
  int exit_code() const { return failed ? 1 : 0; }
};
