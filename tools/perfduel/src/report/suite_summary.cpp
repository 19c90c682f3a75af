#include "report/suite_summary.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "duel/verdict.hpp"
#include "error.hpp"
#include "exit_codes.hpp"
#include "report/labels.hpp"
#include "report_format/saved_report.hpp"
#include "util/columns.hpp"
#include "util/file.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

std::string rounds_text(const GateResult& gate) {
  return gate.verdict == "skipped" ? "-" : std::to_string(gate.rounds);
}

std::string time_text(const GateResult& gate) {
  return gate.verdict == "skipped" ? "-" : util::format_seconds(gate.seconds);
}

// The table's rows: one per gated metric, the gate's own columns on its first row only.
std::vector<std::vector<std::string>> table_rows(const std::vector<GateResult>& gates) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& gate : gates) {
    if (gate.metrics.empty()) {
      rows.push_back({gate.name, gate.verdict, "-", "-", "-", rounds_text(gate), time_text(gate)});
      continue;
    }
    for (std::size_t i = 0; i < gate.metrics.size(); ++i) {
      const auto& metric = gate.metrics[i];
      const bool first = i == 0;
      rows.push_back({first ? gate.name : "", first ? gate.verdict : "",
                      metric.verdict == gate.verdict ? metric.metric
                                                     : fmt::format("{} ({})", metric.metric, metric.verdict),
                      metric.change, metric.interval, first ? rounds_text(gate) : "",
                      first ? time_text(gate) : ""});
    }
  }
  return rows;
}

const std::vector<std::string> k_table_columns{"gate",     "verdict", "metric", "change",
                                               "interval", "rounds",  "time"};

std::vector<std::string> reason_lines(const std::vector<GateResult>& gates) {
  std::vector<std::string> lines;
  for (const auto& gate : gates) {
    const bool decided =
        gate.verdict == "no-change" || gate.verdict == "improvement" || gate.verdict == "regression";
    if (!gate.reason.empty() && (!decided || gate.identical)) {
      lines.push_back(fmt::format("{}: {}: {}", gate.name, gate.verdict, gate.reason));
    }
  }
  return lines;
}

// "2 regression, 1 no-change": how many gates ended each way, the worst first.
std::string count_words(const std::vector<GateResult>& gates) {
  std::map<std::string, int> counts;
  for (const auto& gate : gates) {
    ++counts[gate.verdict];
  }
  std::string text;
  for (const char* verdict :
       {"regression", "error", "interrupted", "inconclusive", "skipped", "no-change", "improvement"}) {
    if (const auto it = counts.find(verdict); it != counts.end()) {
      text += fmt::format("{}{} {}", text.empty() ? "" : ", ", it->second, verdict);
      counts.erase(it);
    }
  }
  for (const auto& [verdict, count] : counts) {
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", count, verdict);
  }
  return text;
}

std::string count_line(const std::vector<GateResult>& gates) {
  return fmt::format("perf gates: {} ({} in all)", count_words(gates), gates.size());
}

// `text` for a Markdown table cell or list item: "|" would end the cell, and "<", ">", "&"
// would be read as HTML (a benchmark named BM_Sort<int> would lose "<int>").
std::string markdown_cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const std::string_view entity = c == '"' ? std::string_view{} : util::markup_entity(c);
    if (c == '|') {
      out += "\\|";
    } else if (!entity.empty()) {
      out += entity;
    } else {
      out += c;
    }
  }
  return out;
}

// Every gate as a Markdown table, one row per gated metric, the verdict in bold.
std::string markdown_table(const std::vector<GateResult>& gates) {
  std::string text =
      "| gate | verdict | metric | change | interval | rounds | time |\n"
      "|---|---|---|---:|---:|---:|---:|\n";
  for (const auto& row : table_rows(gates)) {
    text += "|";
    for (std::size_t c = 0; c < row.size(); ++c) {
      const auto cell = markdown_cell(row[c]);
      text += " " + (c == 1 && !cell.empty() ? "**" + cell + "**" : cell) + " |";
    }
    text += "\n";
  }
  return text;
}

// "2.00 %" for 0.02: a threshold or tolerance, which has no sign.
std::string unsigned_percent(double fraction) {
  return util::format_percent(fraction).substr(1);
}

// Whether text is written for Markdown (escaped, the gate's name in bold) or as it is.
enum class Markup { markdown, plain };

// One undecided or failed gate in plain words: how it ended, why, and for an inconclusive one
// each gated metric still open with what it lacks.

std::string undecided_line(const GateResult& gate, Markup markup = Markup::markdown) {
  const auto cell = [markup](const std::string& text) {
    return markup == Markup::markdown ? markdown_cell(text) : text;
  };
  std::string line = markup == Markup::markdown
                         ? fmt::format("**{}** ({}", markdown_cell(gate.name), gate.verdict)
                         : fmt::format("{} ({}", gate.name, gate.verdict);
  if (gate.verdict != "skipped") {
    line +=
        fmt::format(" after {}, {}", util::counted(gate.rounds, "round"), util::format_seconds(gate.seconds));
  }
  line += ")";
  if (!gate.reason.empty()) {
    line += ": " + cell(gate.reason);
  }
  std::vector<std::string> open;
  for (const auto& metric : gate.metrics) {
    if (metric.verdict != "inconclusive" && metric.verdict != "pending") {
      continue;
    }
    std::string what = fmt::format("{} {} {}", cell(metric.metric), metric.change, metric.interval);
    if (metric.threshold) {
      what += fmt::format(", not yet known to within its {} threshold", unsigned_percent(*metric.threshold));
      if (metric.tolerance && *metric.tolerance > 0) {
        what += fmt::format(" nor outside ±{}", unsigned_percent(*metric.tolerance));
      }
    }
    open.push_back(what);
  }
  if (!open.empty()) {
    line += ". Still open: ";
    for (std::size_t i = 0; i < open.size(); ++i) {
      line += (i == 0 ? "" : "; ") + open[i];
    }
  }
  return line + ".";
}

}  // namespace

std::string undecided_text(const GateResult& gate) {
  return undecided_line(gate, Markup::plain);
}

std::string format_suite_table(const std::vector<GateResult>& gates) {
  const auto rows = table_rows(gates);
  // Text columns left-aligned; numbers (change, interval, rounds, time) right-aligned.
  std::string text = util::aligned_columns(k_table_columns, rows, [](std::size_t c) { return c >= 3; });
  for (const auto& line : reason_lines(gates)) {
    text += line + "\n";
  }
  text += count_line(gates) + "\n";
  return text;
}

std::string format_suite_markdown(const std::vector<GateResult>& gates) {
  std::string text = "### Performance gates\n\n" + markdown_table(gates);
  const auto reasons = reason_lines(gates);
  if (!reasons.empty()) {
    text += "\n";
    for (const auto& line : reasons) {
      text += "- " + markdown_cell(line) + "\n";
    }
  }
  text += "\n" + count_line(gates) + "\n";
  return text;
}

namespace {

// The gates a comment names, sorted by what a reader must do about them.
struct CommentGates {
  std::vector<const GateResult*> failed;
  std::vector<const GateResult*> undecided;
  // Each regressed metric with its gate; a regressed gate without metric rows, once with none.
  std::vector<std::pair<const GateResult*, const GateMetricRow*>> regressed;
  int regressed_gates = 0;
  int improved_gates = 0;
  int identical_gates = 0;  // no change without a run: identical programs
};

CommentGates sort_for_comment(const std::vector<GateResult>& gates) {
  CommentGates sorted;
  for (const auto& gate : gates) {
    if (gate.verdict == "regression") {
      ++sorted.regressed_gates;
      for (const auto& metric : gate.metrics) {
        if (metric.verdict == "regression") {
          sorted.regressed.emplace_back(&gate, &metric);
        }
      }
      if (gate.metrics.empty()) {
        sorted.regressed.emplace_back(&gate, nullptr);
      }
    } else if (gate.verdict == "error" || gate.verdict == "interrupted") {
      sorted.failed.push_back(&gate);
    } else if (gate.verdict == "inconclusive" || gate.verdict == "skipped") {
      sorted.undecided.push_back(&gate);
    } else if (gate.verdict == "improvement") {
      ++sorted.improved_gates;
    }
    sorted.identical_gates += gate.identical ? 1 : 0;
  }
  return sorted;
}

// The comment's heading, the worst news of `sorted` out of `total` gates first.
std::string comment_heading(const CommentGates& sorted, std::size_t total) {
  const int regressed_gates = sorted.regressed_gates;
  const auto& failed = sorted.failed;
  if (regressed_gates > 0 || !failed.empty()) {
    std::string heading = regressed_gates > 0
                              ? fmt::format("regression in {} of {} gates", regressed_gates, total)
                              : fmt::format("{} of {} gates failed to run", failed.size(), total);
    if (regressed_gates > 0 && !failed.empty()) {
      heading += fmt::format(", {} failed to run", failed.size());
    }
    // An undecided gate is counted whatever else happened: it decided nothing, and must not
    // hide behind a worse verdict elsewhere.
    if (!sorted.undecided.empty()) {
      heading += fmt::format(", {} undecided", sorted.undecided.size());
    }
    return heading;
  }
  if (!sorted.undecided.empty()) {
    return fmt::format("no regression, but {} of {} gates undecided", sorted.undecided.size(), total);
  }
  std::vector<std::string> notes;
  if (sorted.improved_gates > 0) {
    notes.push_back(fmt::format("{} improved", sorted.improved_gates));
  }
  if (sorted.identical_gates > 0) {
    notes.push_back(fmt::format("{} ran identical programs, nothing measured", sorted.identical_gates));
  }
  return fmt::format("no regression in {}{}", util::counted(static_cast<long long>(total), "gate"),
                     notes.empty() ? "" : fmt::format(" ({})", fmt::join(notes, "; ")));
}

// Whether `text` leaves room for another line of a section below the comment size limit.
bool comment_budget_left(const std::string& text) {
  return text.size() < k_comment_limit - 2000;
}

// Appends to `text` the table of `regressed` metrics, stopping short of the size limit.
void append_regressed(std::string& text,
                      const std::vector<std::pair<const GateResult*, const GateMetricRow*>>& regressed) {
  if (regressed.empty()) {
    return;
  }
  text +=
      "**Regressed**: each interval lies wholly beyond its tolerance (or, where rounds are shown, its "
      "sign sequence showed them beyond the threshold), so the job fails.\n\n"
      "| gate | metric | change | interval |\n|---|---|---:|---:|\n";
  for (std::size_t i = 0; i < regressed.size(); ++i) {
    if (!comment_budget_left(text)) {
      text += fmt::format("\n… and {} more regressed metrics (the job summary lists them all)\n",
                          regressed.size() - i);
      break;
    }
    const auto& [gate, metric] = regressed[i];
    text += metric == nullptr ? fmt::format("| {} | - | - | - |\n", markdown_cell(gate->name))
                              : fmt::format("| {} | {} | {} | {} |\n", markdown_cell(gate->name),
                                            markdown_cell(metric->metric), metric->change, metric->interval);
  }
  text += "\n";
}

// Appends to `text` the section `title` listing `gates`, stopping short of the size limit.
void append_gate_list(std::string& text, const std::vector<const GateResult*>& gates,
                      const std::string& title) {
  if (gates.empty()) {
    return;
  }
  text += title + "\n\n";
  for (std::size_t i = 0; i < gates.size(); ++i) {
    if (!comment_budget_left(text)) {
      text += fmt::format("- … and {} more (the job summary lists them all)\n", gates.size() - i);
      break;
    }
    text += "- " + undecided_line(*gates[i]) + "\n";
  }
  text += "\n";
}

}  // namespace

std::string suite_headline(const std::vector<GateResult>& gates) {
  return comment_heading(sort_for_comment(gates), gates.size());
}

std::string format_suite_comment(const std::vector<GateResult>& gates, std::string_view page_url) {
  const CommentGates sorted = sort_for_comment(gates);
  const auto total = gates.size();
  std::string text =
      fmt::format("{}\n### perfduel: {}\n\n", k_comment_marker, comment_heading(sorted, total));
  if (!page_url.empty()) {
    text += fmt::format("[The run's page]({}): every gate's duel, run by run, and its notes.\n\n", page_url);
  }

  // The sections a reader must act on, worst first; each list stops short of the size limit.
  append_regressed(text, sorted.regressed);
  append_gate_list(text, sorted.failed, "**Failed to run**: no verdict; the gate's log in the job says why.");
  append_gate_list(text, sorted.undecided,
                   "**Undecided**: neither passed nor failed, so they do not fail the job, but what they "
                   "measure is not known well enough to say whether it changed.");

  const auto counts =
      fmt::format("{}: {}", util::counted(static_cast<long long>(total), "gate"), count_words(gates));
  const auto all =
      fmt::format("<details><summary>{}</summary>\n\n{}\n</details>\n", counts, markdown_table(gates));
  if (text.size() + all.size() <= k_comment_limit) {
    text += all;
  } else {
    text += fmt::format("{}; their table is too long for a comment: see the job summary.\n", counts);
  }
  return text;
}

int suite_exit_code(const std::vector<GateResult>& gates) {
  bool undecided = false;
  for (const auto& gate : gates) {
    if (gate.verdict == "regression" || gate.verdict == "error" || gate.verdict == "interrupted") {
      return to_int(ExitCode::regression);
    }
    undecided = undecided || gate.verdict == "inconclusive" || gate.verdict == "skipped";
  }
  return to_int(undecided ? ExitCode::inconclusive : ExitCode::pass);
}

}  // namespace perfduel
