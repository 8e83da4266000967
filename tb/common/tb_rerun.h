// The command that reruns this program exactly as it was started (its own argv, seed included,
// read from /proc/self/cmdline and shell-quoted), printed as "RERUN <command>" after a FAIL line:
// scripts/run-suite.sh shows it next to the failure and puts it into the JUnit XML. A second line
// "RERUN with waves: WAVES=1 <command>" reruns it writing an FST (sim/main/sim_waves.h: the
// program builds its trace build and runs that; the file's name is printed as an INFO line).
#pragma once
#include <cctype>
#include <cstdio>
#include <string>

inline const std::string &tb_rerun_command() {
  static std::string cmd = [] {
    std::string out, arg;
    FILE *f = std::fopen("/proc/self/cmdline", "rb");
    if (!f) return std::string("?");
    int c;
    auto flush = [&] {
      bool plain = !arg.empty();
      for (char ch : arg)
        if (!(isalnum((unsigned char)ch) || std::string("/._-+=:,%@").find(ch) != std::string::npos)) plain = false;
      if (!out.empty()) out += ' ';
      if (plain) {
        out += arg;
      } else {  // single quotes, each ' as '\''
        out += '\'';
        for (char ch : arg) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
        out += '\'';
      }
      arg.clear();
    };
    while ((c = std::fgetc(f)) != EOF) {
      if (c == 0) flush();
      else arg += char(c);
    }
    std::fclose(f);
    if (!arg.empty()) flush();
    return out;
  }();
  return cmd;
}

inline void tb_print_rerun() {
  std::printf("RERUN %s\nRERUN with waves: WAVES=1 %s\n", tb_rerun_command().c_str(), tb_rerun_command().c_str());
}
