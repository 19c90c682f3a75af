#pragma once

#include <string>

#include "report/units.hpp"
#include "report_format/json_report.hpp"

namespace perfduel {

// How many notes a table shows: the key ones (NoteWeight::key, at most five lines), or all.
enum class Verbosity { normal, verbose };

// The final table for a terminal or log: metric, baseline, candidate, change, interval,
// verdict; its legend; the notes `verbosity` asks for; and a one-line summary.
std::string format_table(const RunSummary& summary, Verbosity verbosity = Verbosity::normal);

// The same content as GitHub-flavoured Markdown, for a pull-request comment or job summary.
std::string format_markdown(const RunSummary& summary);

// CTest measurement tags (change, ci_lo, ci_hi, rounds per metric) that CDash shows, all on one
// line, then `CTEST_FULL_OUTPUT`; printed before the table, so that a gate's output ends with its
// table and verdict.
std::string format_ctest_measurements(const RunSummary& summary);

}  // namespace perfduel
