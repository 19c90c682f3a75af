#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/gate_results.hpp"

// The gates of a CI run in one table, one Markdown job summary and one pull-request comment.
namespace perfduel {

// The outcome of `gates` in a few words, the worst news first, as the pull-request comment's
// heading says it: "regression in 1 of 3 gates", "no regression in 3 gates (1 improved)".
std::string suite_headline(const std::vector<GateResult>& gates);

// One failed or undecided gate in plain words: how it ended, after how many rounds, why, and
// for an inconclusive one each gated metric still open with what it lacks (the comment's line,
// without Markdown).
std::string undecided_text(const GateResult& gate);

// Every gate as one terminal table (gate, verdict, metric, change, interval, rounds, time),
// then why the undecided ones ended and which ran identical programs, then a count per outcome.
std::string format_suite_table(const std::vector<GateResult>& gates);

// The same as GitHub-flavoured Markdown, for a job summary.
std::string format_suite_markdown(const std::vector<GateResult>& gates);

// The first line of the pull-request comment body, hidden when rendered: a CI job looks for
// it among a pull request's comments to update its own comment instead of adding one per push.
inline constexpr std::string_view k_comment_marker = "<!-- perfduel-summary -->";

// GitHub refuses a comment longer than 65,536 characters; kept a margin below it.
inline constexpr std::size_t k_comment_limit = 60000;

// A Markdown body for one pull-request (or merge-request) comment that every push updates:
// `k_comment_marker`, a heading with the outcome (and how many gates ran identical programs), the
// regressed metrics first (gate, metric,
// change, interval), then the gates that failed to run, then the undecided ones, each with why
// and what is still open, and every gate's row folded in <details>. Kept under
// `k_comment_limit` characters by leaving out the folded table when it would not fit.
// `page_url`, when given, is linked under the heading: the run's HTML page (`summary --html`).
std::string format_suite_comment(const std::vector<GateResult>& gates, std::string_view page_url = {});

// 1 when a gate regressed or failed (error, interrupted), else 77 when one is inconclusive or
// skipped, else 0: the compare exit codes of the worst gate.
int suite_exit_code(const std::vector<GateResult>& gates);

}  // namespace perfduel
