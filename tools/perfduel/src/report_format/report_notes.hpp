#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report_format/json_report.hpp"

// The notes of a finished duel, assembled once: the table (which may abbreviate them), the
// Markdown summary, the JSON report and the HTML page all carry this list, in this order.
namespace perfduel {

// Every note of `summary`'s duel, each weighed (NoteWeight): the analysis's, those the duel made
// while it ran, then the report's own (benchmarks found on one side only, the programs, the
// settings, what settling would take, the machine). For identical programs, which ran nothing,
// only the first two.
std::vector<Note> duel_report_notes(const RunSummary& summary);

// Whether `result` is a max_rss at or below the driver's own peak (`environment`): Linux reports
// that peak as the least max RSS of any child the driver starts, so the programs' own peak is
// not measured, and the metric is a note instead of a row.
bool at_driver_floor(const MetricResult& result, const Environment& environment);

// The per-metric settings notes ("<names>: 99.78 % interval, threshold 5.00 % wide"), one per
// distinct setting: metrics that share it are named together, the first three and a count.
// Report-only metrics with a ratio and a tolerance get theirs ("<names>: report-only, 95 %
// interval, changes within ±1.00 % count as no change").
std::vector<std::string> settings_notes(const Analysis& analysis);

// Why a duel that ran measured its programs (a detail note): "programs measured: the executable
// differs", "programs measured, not fingerprinted: identical_programs: measure"; none when the
// comparison was not made (a duel run_duel started directly, a report written before).
std::optional<Note> programs_note(const ProgramComparison& programs);

}  // namespace perfduel
