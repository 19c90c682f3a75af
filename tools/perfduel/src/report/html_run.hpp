#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/html_page.hpp"
#include "report/suite_summary.hpp"
#include "report_format/saved_report.hpp"

// The run page: what happened in a CI run's gates (`summary --html`), or in one duel
// (`compare --html`, `analyze --html`). First the table of every gate (as `summary` prints it,
// the failed and undecided ones said in words), then each gate's duel: per metric every run of
// both sides by round, and each round's change with the estimate, its interval and the
// tolerance band (the same data as `--svg`), a suite's metrics in a table sortable by change
// and filterable by verdict, where each regression happened (an icicle of the differential call
// tree beside the functions that carry it), and the duel's notes. src/report/html/run_page.js draws it.
namespace perfduel {

// What the page shows of one duel, from its JSON report `report` (compare --json): the
// commands, how it ended, the notes, per metric its result and the values by round (baseline,
// candidate, change in percent; null where a round lacks one), and per regressed (or likely
// regressed) metric with an explanation where it got slower: the functions and the differential
// call tree ("explanations").
nlohmann::json duel_page_data(const SavedReport& report);

// The page of a CI run's `gates`, each drawn from its JSON report (GateResult::report; a
// skip note has no duel). Throws perfduel::Error when a report cannot be read.
HtmlPage run_page(const std::vector<GateResult>& gates);

// The page of the one duel `report`, named `name` (the table's gate column).
HtmlPage duel_page(const SavedReport& report, const std::string& name);

}  // namespace perfduel
