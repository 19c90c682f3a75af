#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "util/expected.hpp"

// Where a counted run's instructions went, function by function: what callgrind (each dump) and
// cachegrind (each output file) write besides their totals. A function is named as Valgrind
// demangles it ("crc32(unsigned char const*, unsigned long)"), which is what matches it across
// two builds of one program; code without a symbol ("0x00000000000011a0") is named by its object
// instead ("(no symbol) in libfoo.so.1"), as its address moves with every change.
namespace perfduel {

// One function's cost over a window, a run, or per iteration.
struct FunctionCost {
  double self = 0;       // instructions executed in the function's own code (Ir)
  double inclusive = 0;  // with those of the functions it called (callgrind only; else = self)
  // Estimated cycles of its own code (run/valgrind.hpp, estimated_cycles), with the cache
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

// The profile in a callgrind dump or a cachegrind output file `text`: every cost line added to its
// function (compressed names and files, "(12) name" then "(12)", and relative positions, "+3",
// "-1", "*", as callgrind writes them), a cost line after "calls=" to the call instead. The error
// names the cost line that is malformed.
util::Expected<Profile> parse_profile(std::string_view text);

// `larger` less `smaller`, divided by `divisor` (> 0): the cost per iteration of the iterations
// `larger` ran beyond `smaller`. A function or call in one only counts 0 in the other; where they
// are named in either, the file and line are `larger`'s, else `smaller`'s.
Profile profile_difference(const Profile& larger, const Profile& smaller, double divisor);

// `profile` with every cost divided by `divisor` (> 0).
Profile scaled_profile(Profile profile, double divisor);

// Adds `from`'s costs to `into`'s (the processes of one run).
void add_profile(Profile& into, const Profile& from);

// The sum of every function's own instructions: the window's total.
double total_instructions(const Profile& profile);

}  // namespace perfduel
