#pragma once

#include <map>
#include <string>
#include <utility>

// Where a counted run's instructions went, function by function: what callgrind (each dump) and
// cachegrind (each output file) write besides their totals, read and combined in
// count/profile.hpp. A function is named as Valgrind demangles it ("crc32(unsigned char const*,
// unsigned long)"), which is what matches it across two builds of one program; code without a
// symbol ("0x00000000000011a0") is named by its object instead ("(no symbol) in libfoo.so.1"), as
// its address moves with every change.
namespace perfduel {

// One function's cost over a window, a run, or per iteration.
struct FunctionCost {
  double self = 0;       // instructions executed in the function's own code (Ir)
  double inclusive = 0;  // with those of the functions it called (callgrind only; else = self)
  // Estimated cycles of its own code (count/valgrind.hpp, estimated_cycles), with the cache
  // simulation; 0 without it.
  double self_cycles = 0;
  std::string file;  // its source file; empty without debug information
  int line = 0;      // the first line counted in it in that file; 0 without
  // Its own instructions by source file and line (inlined code under the file and line it came
  // from), with debug information; empty without.
  std::map<std::pair<std::string, int>, double> lines;
  // How often other functions called it (callgrind only): with `inclusive`, its cost per call.
  double calls = 0;
};

// The functions of one window (or run) by name, and the calls between them: caller, callee → the
// instructions of those calls, callee's callees included (callgrind only).
struct Profile {
  std::map<std::string, FunctionCost> functions;
  std::map<std::pair<std::string, std::string>, double> calls;
};

}  // namespace perfduel
