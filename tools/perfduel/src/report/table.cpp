#include "report/table.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "report/labels.hpp"
#include "report/programs_view.hpp"
#include "report/suite_view.hpp"
#include "report/where_view.hpp"
#include "report_format/report_notes.hpp"
#include "util/shell_words.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

std::string interval_text(const MetricResult& result) {
  if (shows_signs(result)) {
    return signs_test_text(result.signs_beyond, result.signs_rounds, result.spec.direction,
                           signs_bound(result.spec));
  }
  if (result.estimate.status != stats::EstimateStatus::ok) {
    return "n/a";
  }
  return interval_words(result.ci);
}

// Which rule settled the gated metrics, e.g. "wall_time by its confidence sequence, cpu_time by
// the width rule", or for more than three "12 by the width rule, 8 by their confidence
// sequences"; with `regressions_only`, only the settled regressions, each by name.
std::string settled_list(const Analysis& analysis, bool regressions_only) {
  const auto rule_text = [](SettledBy by) {
    switch (by) {
      case SettledBy::width:
        return "the " + to_string(by) + " (interval narrower than its threshold)";
      case SettledBy::signs:
        return "its " + to_string(by) + " (rounds beyond its threshold)";
      case SettledBy::identical:
        return to_string(by);
      case SettledBy::count_of_zero:
        return "a " + to_string(by) + " (no ratio needed)";
      case SettledBy::none:
      case SettledBy::sequence:
        break;
    }
    return "its " + to_string(SettledBy::sequence);
  };
  std::vector<const MetricResult*> settled;
  for (const auto& result : analysis.metrics) {
    if (result.spec.gating == Gating::gated && result.settled_by != SettledBy::none &&
        (!regressions_only || result.verdict == Verdict::regression)) {
      settled.push_back(&result);
    }
  }
  if (!regressions_only && settled.size() > 3) {
    const auto by_width = std::count_if(settled.begin(), settled.end(), [](const MetricResult* r) {
      return r->settled_by == SettledBy::width;
    });
    return fmt::format("{} by the width rule, {} by their sequences", by_width,
                       static_cast<std::ptrdiff_t>(settled.size()) - by_width);
  }
  std::string text;
  for (const MetricResult* result : settled) {
    text += fmt::format("{}{} {}by {}", text.empty() ? "" : ", ", result->spec.name,
                        regressions_only ? "regressed, settled " : "", rule_text(result->settled_by));
  }
  return text;
}

// The analysis of `summary` as the table shows it: without a max_rss below the driver's own
// peak, which is a note instead of a row, so that the header and the legend do not name it.
Analysis shown_analysis(const RunSummary& summary) {
  Analysis analysis = summary.outcome->analysis;
  std::erase_if(analysis.metrics,
                [&](const MetricResult& result) { return at_driver_floor(result, summary.environment); });
  return analysis;
}

// Which rows a table shows: all, or (a suite's Markdown) the changes or the unchanged ones.
enum class RowSet { all, changes, unchanged };

std::vector<std::vector<std::string>> rows(const RunSummary& summary, RowSet set = RowSet::all) {
  std::vector<std::vector<std::string>> table;
  const auto& analysis = summary.outcome->analysis;
  table.push_back({"metric", "baseline median", "candidate median", change_header(shown_analysis(summary)),
                   "interval", "verdict"});
  for (const std::size_t m : display_order(analysis)) {
    const auto& result = analysis.metrics[m];
    // A max_rss below the driver's own peak measured nothing of the programs: a note, not a row.
    if ((set == RowSet::changes && is_unchanged(result)) ||
        (set == RowSet::unchanged && !is_unchanged(result)) || at_driver_floor(result, summary.environment)) {
      continue;
    }
    table.push_back({result.spec.name, format_value(result.baseline_median, result.spec.unit),
                     format_value(result.candidate_median, result.spec.unit), change_label(result),
                     interval_text(result), verdict_label(result)});
  }
  return table;
}

std::string headline(const RunSummary& summary) {
  const auto& outcome = *summary.outcome;
  const auto verdict = overall_verdict(outcome);
  std::string reason;
  switch (outcome.end) {
    case DuelEnd::decided:
      reason = "every gated metric settled: " + settled_list(outcome.analysis, false);
      break;
    case DuelEnd::regression_found:
      reason = settled_list(outcome.analysis, true) + "; the other metrics cannot change the verdict";
      break;
    case DuelEnd::round_budget:
    case DuelEnd::time_budget:
    case DuelEnd::interrupted:
    case DuelEnd::runs_ended:
    case DuelEnd::futile:
    case DuelEnd::identical:
      reason = end_reason(outcome.end);
      break;
    case DuelEnd::benchmark_failed:
      reason = outcome.failure;
      break;
  }
  // The regressions by name whatever ended the duel, so that a suite's log says which.
  const auto regressed = gated_names(outcome.analysis, Verdict::regression);
  if (!regressed.empty() && outcome.end != DuelEnd::regression_found &&
      outcome.end != DuelEnd::benchmark_failed && outcome.end != DuelEnd::interrupted) {
    reason = fmt::format("regressed: {}; {}", regressed, reason);
  }
  std::string upper = verdict;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](char c) { return static_cast<char>(std::toupper(c)); });
  return fmt::format("verdict: {} after {} in {} ({}); exit code {}", upper,
                     util::counted(outcome.analysis.measured_rounds, "round"),
                     util::format_seconds(outcome.elapsed_seconds), reason, to_int(summary.exit_code));
}

// The notes a reader sees by default: the key ones, at most k_shown_notes lines, the last of
// them saying how many more there are and where (--verbose, the JSON report).
constexpr std::size_t k_shown_notes = 5;

struct ShownNotes {
  std::vector<std::string> shown;
  std::size_t hidden = 0;
};

ShownNotes shown_notes(const std::vector<Note>& all, Verbosity verbosity) {
  ShownNotes result;
  for (const auto& note : all) {
    if (verbosity == Verbosity::verbose || note.weight == NoteWeight::key) {
      result.shown.push_back(note.text);
    }
  }
  result.hidden = all.size() - result.shown.size();
  const std::size_t room =
      result.hidden > 0 || result.shown.size() > k_shown_notes ? k_shown_notes - 1 : k_shown_notes;
  if (verbosity == Verbosity::normal && result.shown.size() > room) {
    result.hidden += result.shown.size() - room;
    result.shown.resize(room);
  }
  return result;
}

}  // namespace

// Whether there is a table to show: a duel that failed (or was interrupted) before its first
// measured round has no value to compare, and a table of zeros would only hide the cause.
bool has_results(const RunSummary& summary) {
  return summary.outcome->analysis.measured_rounds > 0;
}

// What the failing run printed, each line marked "  | ": the excerpt of the stdout its metrics
// were read from when reading them failed; else the tail of its stderr, then the tail of its
// stdout (a program may print its usage or its error on either).
std::string failure_output(const DuelOutcome& outcome) {
  std::string text;
  const auto section = [&text](const char* title, const std::string& output) {
    if (output.empty()) {
      return;
    }
    text += title;
    for (const auto& line : util::split_lines(output)) {
      text += "  | " + line + "\n";
    }
  };
  section("stderr of the failing run (last lines):\n", outcome.failure_stderr);
  section(outcome.failure_stdout_read ? "stdout of the failing run, which the metrics are read from:\n"
                                      : "stdout of the failing run (last lines):\n",
          outcome.failure_stdout);
  return text;
}

std::string format_table(const RunSummary& summary, Verbosity verbosity) {
  if (summary.outcome->end == DuelEnd::identical) {
    // No run, so none of the notes about runs: the analysis's own (a re-analysis says it is one).
    std::string text = identical_programs_text(
        summary, verbosity == Verbosity::verbose ? FileList::shown : FileList::hidden);
    for (const auto& note : note_texts(duel_report_notes(summary))) {
      text += "note: " + note + "\n";
    }
    return text + headline(summary) + "\n";
  }
  if (!has_results(summary)) {
    return failure_output(*summary.outcome) + headline(summary) + "\n";
  }
  const auto table = rows(summary);
  std::vector<std::size_t> widths(table.front().size(), 0);
  for (const auto& row : table) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      // Count code points, not bytes, so "µs" lines up.
      const auto length = static_cast<std::size_t>(std::count_if(row[c].begin(), row[c].end(), [](char ch) {
        return (static_cast<unsigned char>(ch) & 0xC0U) != 0x80U;
      }));
      widths[c] = std::max(widths[c], length);
    }
  }
  std::string text;
  for (const auto& row : table) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const auto length = static_cast<std::size_t>(std::count_if(row[c].begin(), row[c].end(), [](char ch) {
        return (static_cast<unsigned char>(ch) & 0xC0U) != 0x80U;
      }));
      const std::string pad(widths[c] - length, ' ');
      line += (c == 0 || c == row.size() - 1) ? row[c] + pad : pad + row[c];
      line += c + 1 < row.size() ? "  " : "";
    }
    text += std::string(util::trim(line)) + "\n";
  }
  text += format_where(summary);
  for (const auto& line : column_legend(shown_analysis(summary), summary.config->confidence)) {
    text += line + "\n";
  }
  const ShownNotes shown = shown_notes(duel_report_notes(summary), verbosity);
  for (const auto& note : shown.shown) {
    text += "note: " + note + "\n";
  }
  if (shown.hidden > 0) {
    text += fmt::format(
        "note: {} more note{} (settings, levels, how each metric settled): --verbose, or the "
        "JSON report\n",
        shown.hidden, shown.hidden == 1 ? "" : "s");
  }
  text += failure_output(*summary.outcome);
  text += headline(summary) + "\n";
  return text;
}

namespace {

// The rows of a results table (its header first) as a Markdown table.
std::string metric_rows_markdown(const std::vector<std::vector<std::string>>& table) {
  std::string lines;
  for (std::size_t r = 0; r < table.size(); ++r) {
    lines += "|";
    for (const auto& cell : table[r]) {
      lines += fmt::format(" {} |", cell);
    }
    lines += "\n";
    if (r == 0) {
      lines += "|---|---:|---:|---:|---:|---|\n";
    }
  }
  return lines + "\n";
}

// The key notes of `summary` as a list, then the detail notes folded in <details>.
std::string notes_markdown(const RunSummary& summary) {
  const auto all = duel_report_notes(summary);
  std::string text;
  std::string details;
  for (const auto& note : all) {
    (note.weight == NoteWeight::key ? text : details) += "- " + note.text + "\n";
  }
  if (!details.empty()) {
    text += fmt::format("\n<details><summary>{} more notes</summary>\n\n{}\n</details>\n",
                        std::count_if(all.begin(), all.end(),
                                      [](const Note& note) { return note.weight == NoteWeight::detail; }),
                        details);
  }
  return text;
}

}  // namespace

std::string format_markdown(const RunSummary& summary) {
  const auto& config = *summary.config;
  std::string text = fmt::format("### perfduel: {}\n\n", overall_verdict(*summary.outcome));
  if (config.baseline && config.candidate) {
    text += fmt::format("Baseline `{}` against candidate `{}`.\n\n",
                        util::join_shell_words(config.baseline->argv),
                        util::join_shell_words(config.candidate->argv));
  }
  const std::string printed = failure_output(*summary.outcome);
  if (!printed.empty()) {
    text += fmt::format("```text\n{}```\n\n", printed);
  }
  if (summary.outcome->end == DuelEnd::identical) {
    text += identical_programs_markdown(summary);
    const auto notes = note_texts(duel_report_notes(summary));
    for (const auto& note : notes) {
      text += "- " + note + "\n";
    }
    return text + fmt::format("{}{}\n", notes.empty() ? "" : "\n", headline(summary));
  }
  if (!has_results(summary)) {
    return text + fmt::format("{}\n", headline(summary));
  }
  if (is_suite(summary.outcome->analysis)) {
    // A suite: the changes in view, the unchanged metrics folded away.
    const auto changes = rows(summary, RowSet::changes);
    const auto unchanged = rows(summary, RowSet::unchanged);
    text += changes.size() > 1 ? metric_rows_markdown(changes) : "No gated metric changed.\n\n";
    if (unchanged.size() > 1) {
      text +=
          fmt::format("<details><summary>{} unchanged or report-only metrics</summary>\n\n{}</details>\n\n",
                      unchanged.size() - 1, metric_rows_markdown(unchanged));
    }
  } else {
    text += metric_rows_markdown(rows(summary));
  }
  for (const auto& line : column_legend(shown_analysis(summary), summary.config->confidence)) {
    text += line + "  \n";  // a hard line break
  }
  text += "\n" + format_where_markdown(summary);
  text += notes_markdown(summary);
  text += fmt::format("\n{}\n", headline(summary));
  return text;
}

std::string format_ctest_measurements(const RunSummary& summary) {
  std::string text;
  const auto tag = [&](const std::string& name, double value) {
    text += fmt::format("<CTestMeasurement type=\"numeric/double\" name=\"{}\">{:.6g}</CTestMeasurement>",
                        name, value);
  };
  for (const auto& result : summary.outcome->analysis.metrics) {
    if (result.estimate.status != stats::EstimateStatus::ok) {
      continue;
    }
    const auto name = measurement_name(result.spec.name);
    tag(name + ".change", result.change);
    tag(name + ".ci_lo", result.ci.lo);
    tag(name + ".ci_hi", result.ci.hi);
    tag(name + ".rounds", static_cast<double>(result.estimate.rounds));
  }
  // One line, whatever the number of metrics: CTest finds the tags anywhere in the output and
  // drops them from what it sends to CDash, but --output-on-failure prints the output as it
  // was, and a tag per line buried a failing gate's table under a screen of XML.
  return text + (text.empty() ? "" : "\n") + "CTEST_FULL_OUTPUT\n";
}

}  // namespace perfduel
