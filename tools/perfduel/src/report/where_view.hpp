#pragma once

#include <string>

#include "report/json_report.hpp"

// "Where": a duel's changes attributed to functions (duel/explanation.hpp), as the terminal and
// the Markdown comment show them under the regressed metrics.
namespace perfduel {

// How many functions a short "where" names.
inline constexpr std::size_t k_where_functions = 3;

// The terminal's block: per regressed (or likely regressed) metric with an explanation, a head
// line (the metric, its counted change) and at most k_where_functions lines, each a function's
// share of the change, its name and its place; or what the profiles say instead (cost moved by
// inlining; instructions that do not explain a timed change). Empty when nothing is explained.
std::string format_where(const RunSummary& summary);

// The same as a collapsible Markdown section, each metric with a table of the functions kept.
std::string format_where_markdown(const RunSummary& summary);

}  // namespace perfduel
