#pragma once

#include <string>

#include "report_format/json_report.hpp"

// "Where": a duel's changes attributed to functions (duel/explanation.hpp), as the terminal and
// the Markdown comment show them under the regressed metrics.
namespace perfduel {

// How many functions a short "where" names.
inline constexpr std::size_t k_where_functions = 3;

// The longest function name a line shows: a C++ template's name can run to hundreds.
inline constexpr std::size_t k_longest_name = 72;

// `name` within `longest` characters: its parameter list, then its template arguments, folded to
// "(...)" and "<...>" from the outside in, then cut.
std::string short_function_name(std::string name, std::size_t longest = k_longest_name);

// Where `function` is defined, "crc.cpp:42", or empty without debug information.
std::string function_place(const FunctionShare& function);

// What each count of `explanation` is per: "per iteration" for a benchmark, "per run" for a process.
std::string counted_per(const Explanation& explanation);

// The counted event of `explanation` in words: "instructions" or "estimated cycles".
std::string counted_event_word(const Explanation& explanation);

// The head line of `explanation`: the metric and its counted change, and for a timed metric its
// measured change and that one counted run a side was made.
std::string where_head(const Explanation& explanation);

// What stands instead of functions in `explanation` (cost moved by inlining; a count that did not
// change or does not explain a timed change), or empty when functions explain the change.
std::string where_instead(const Explanation& explanation);

// The terminal's block: per regressed (or likely regressed) metric with an explanation, a head
// line (the metric, its counted change) and at most k_where_functions lines, each a function's
// share of the change, its name and its place; or what the profiles say instead (cost moved by
// inlining; instructions that do not explain a timed change). Empty when nothing is explained.
std::string format_where(const RunSummary& summary);

// The same block from a saved report `report` (its gated metrics that regressed): what `perfduel
// bisect` shows under the first bad commit's duel against its parent.
std::string format_saved_where(const SavedReport& report);

// The same as a collapsible Markdown section, each metric with a table of the functions kept.
std::string format_where_markdown(const RunSummary& summary);

}  // namespace perfduel
