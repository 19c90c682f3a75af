#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "config/config.hpp"
#include "util/expected.hpp"

// A whole program's heap, counted natively (metrics `heap: allocations | allocated_bytes |
// peak`): the allocation counter (src/alloc_counter.cpp, libperfduel-alloc.so) preloaded into the
// plain run, told by an environment variable where to report, writes one line per process that
// reaches its exit: "pid=<pid> allocations=<n> allocated_bytes=<n> peak=<bytes>". Pure: text in,
// counts out.
namespace perfduel {

// The environment variable that names the report's file; set, the counter counts natively.
inline constexpr std::string_view k_heap_report_variable = "PERFDUEL_ALLOC_REPORT";

// The counts of a report's `text`: the allocations and the bytes they asked for summed over its
// processes (a program and the programs it started), the peak heap the largest of any one of
// them (CountedEvent::allocations, allocated_bytes, peak_heap). The error names the line that is
// not a report's, or says that no process reported (the program ended without its exit
// handlers: _exit, a signal, exec into a program that never returned).
util::Expected<std::map<CountedEvent, double>> parse_heap_report(const std::string& text);

// `command` with the counter `library` preloaded (after any LD_PRELOAD of its own) and told to
// report to `report`.
CommandSpec with_heap_counter(const CommandSpec& command, const std::filesystem::path& library,
                              const std::filesystem::path& report);

}  // namespace perfduel
