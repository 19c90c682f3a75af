#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "util/expected.hpp"

// The gate file add_perf_gate() writes per gate (<build>/perfduel/gates/<NAME>.cmake): how the
// gate's baseline is built (read by PerfDuelBaseline.cmake) and what its duel runs. `perfduel
// bisect --gate NAME` reads it to build any commit the way the gate builds its baseline and to
// duel it the way the gate does.
namespace perfduel::bisect {

struct GateFile {
  std::filesystem::path path;
  std::string name;                         // NAME
  std::string target;                       // TARGET
  std::filesystem::path source_dir;         // the project's top-level source directory
  std::string generator;                    // CMAKE_GENERATOR of the build
  std::string git;                          // git executable found at configure time, may be empty
  std::vector<std::string> args;            // ARGS (FRAMEWORK's arguments added)
  std::filesystem::path config;             // CONFIG, absolute; empty: the driver's defaults
  std::filesystem::path working_directory;  // WORKING_DIRECTORY, absolute
  double max_seconds = 0;                   // the duel budget inside the gate's TIMEOUT
  std::filesystem::path script;             // PerfDuelBaseline.cmake
  std::filesystem::path cmake;              // the cmake that configured the build
};

// The `set(<NAME> [==[<value>]==])` lines of a gate file, by name. Other lines are ignored.
std::map<std::string, std::string> parse_gate_variables(std::string_view text);

// A CMake list split into its elements (`a;b` is two, `a\;b` one element "a;b").
std::vector<std::string> split_cmake_list(std::string_view list);

// Whether `generator` chooses the configuration at build time (Ninja Multi-Config, Visual
// Studio, Xcode).
bool is_multi_config(std::string_view generator);

// Reads the gate file of gate `name` in the build directory `build_dir`. Throws
// perfduel::Error naming the file and the fix when there is none (listing the gates there),
// or when it comes from a perfduel that did not record the duel (reconfigure), or uses
// generator expressions in ARGS (which only CTest evaluates).
GateFile read_gate_file(const std::filesystem::path& build_dir, const std::string& name);

}  // namespace perfduel::bisect
