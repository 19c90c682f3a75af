#pragma once

#include "config/config.hpp"
#include "duel/duel.hpp"
#include "report_format/json_report.hpp"
#include "report_format/saved_report.hpp"

// `perfduel analyze`: a duel re-decided from the runs a report saved, without running anything.
namespace perfduel {

// The duel `saved` recorded, re-decided under `config` (the report's settings, or others laid
// over them, as `reanalysis` says): its runs, benchmarks, programs and explanations as saved,
// its analysis and end decided again (identical programs stay no change without a run), the
// duel's own notes kept only when no setting changed, and first among the analysis's notes one
// saying that this is a re-analysis, of which report and with which settings.
DuelOutcome reanalyze(const SavedReport& saved, const Config& config, const Reanalysis& reanalysis);

// What the reports of the re-analysis `outcome` (reanalyze) show: `saved`'s environment and
// pinning, started now, the exit code of its end and verdict by `config`. The summary points at
// `config` and `outcome`, which must outlive it.
RunSummary reanalysis_summary(const SavedReport& saved, const Config& config, const DuelOutcome& outcome,
                              Reanalysis reanalysis);

}  // namespace perfduel
