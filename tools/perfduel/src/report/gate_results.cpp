#include "report/gate_results.hpp"

#include <algorithm>
#include <optional>
#include <string_view>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "error.hpp"
#include "report/labels.hpp"
#include "report_format/json_report.hpp"
#include "util/file.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

constexpr std::string_view k_skip_heading = "### perfduel: skipped";

// The interval column of a gate whose two sides ran identical programs.
constexpr std::string_view k_identical_not_measured = "identical programs, not measured";

// The interval column of a gated metric of a report: its interval, or for a regression its sign
// sequence showed before the interval did, that test and its rounds (as `compare`'s table).
std::string interval_cell(const SavedMetric& metric) {
  if (metric.signs && metric.signs->shown_instead_of_interval) {
    const auto direction = util::value_of(stats::k_direction_names, metric.direction.value_or(""));
    return signs_test_text(metric.signs->beyond, metric.signs->rounds,
                           direction.value_or(Direction::lower_is_better), metric.signs->by_more_than);
  }
  return metric.ci ? interval_words(*metric.ci) : "n/a";
}

// The fingerprint a report of identical programs recorded: " (fingerprint sha256 <hex>)", or
// nothing when it has none.
std::string identical_fingerprint(const SavedReport& report) {
  if (!report.programs.baseline || report.programs.baseline->sha256.empty()) {
    return {};
  }
  return fmt::format(" (fingerprint sha256 {})", report.programs.baseline->sha256);
}

GateResult gate_from_json(const std::filesystem::path& path) {
  GateResult gate = gate_result(load_report_lenient(path), path.stem().string(), path.string());
  gate.report = path;
  return gate;
}

// The row of the gated `metric`.
GateMetricRow metric_row(const SavedMetric& metric) {
  GateMetricRow row;
  row.metric = metric.name.value_or("?");
  row.change = change_label(metric);
  row.interval = interval_cell(metric);
  row.verdict = metric.verdict.value_or("?");
  if (metric.likely_regression && !metric.settled_by &&
      (row.verdict == "inconclusive" || row.verdict == "pending")) {
    row.verdict = "likely regression (open)";  // as the duel's own table says
  }
  row.threshold = metric.threshold;
  row.tolerance = metric.tolerance;
  return row;
}

}  // namespace

GateResult gate_result(const SavedReport& report, const std::string& name, const std::string& origin) {
  if (!report.verdict || !report.has_metrics) {
    throw Error(
        fmt::format("{}: not a perfduel report (expected the JSON written by compare --json)", origin));
  }
  GateResult gate;
  gate.name = name;
  gate.verdict = *report.verdict;
  gate.rounds = report.measured_rounds;
  gate.seconds = report.elapsed_seconds;
  if (gate.verdict == "error") {
    gate.reason = report.failure.value_or("a benchmark run failed");
  } else {
    const auto end = duel_end_from_string(report.end_name);
    if (!end) {
      throw Error(fmt::format("{}: unknown \"end\" value \"{}\"", origin, report.end_name));
    }
    gate.reason = end_reason(*end);
    gate.identical = *end == DuelEnd::identical;
    if (gate.identical) {
      gate.reason += identical_fingerprint(report);
    }
  }
  for (const auto& metric : report.metrics) {
    // A max_rss below the driver's own peak measured nothing of the programs (a note says so).
    if (!metric.gated || metric.at_driver_floor) {
      continue;
    }
    gate.metrics.push_back(metric_row(metric));
    if (gate.identical) {
      // No run: a change of +0 % in [+0 %, +0 %] would read as measured.
      gate.metrics.back().change = "-";
      gate.metrics.back().interval = std::string(k_identical_not_measured);
    }
  }
  return gate;
}

namespace {

// The note `compare --skip-if` writes instead of a JSON report; nullopt for other Markdown.
std::optional<GateResult> gate_from_skip_note(const std::filesystem::path& path) {
  const auto text = util::read_file(path);
  if (!text) {
    throw Error(fmt::format("{}: cannot read the report", path.string()));
  }
  const auto lines = util::split_lines(*text);
  if (lines.empty() || lines.front() != k_skip_heading) {
    return std::nullopt;
  }
  GateResult gate;
  gate.name = path.stem().string();
  gate.verdict = "skipped";
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (!util::trim(lines[i]).empty()) {
      gate.reason = lines[i];
      break;
    }
  }
  return gate;
}

std::vector<GateResult> gates_in_directory(const std::filesystem::path& directory) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
    if (entry.is_regular_file()) {
      files.push_back(entry.path());
    }
  }
  if (ec) {
    throw Error(fmt::format("{}: cannot list the directory: {}", directory.string(), ec.message()));
  }
  std::sort(files.begin(), files.end());
  std::vector<GateResult> gates;
  for (const auto& file : files) {
    if (file.extension() == ".json") {
      gates.push_back(gate_from_json(file));
    } else if (file.extension() == ".md") {
      auto json = file;
      json.replace_extension(".json");
      if (!std::filesystem::exists(json)) {
        if (auto skipped = gate_from_skip_note(file)) {
          gates.push_back(std::move(*skipped));
        }
      }
    }
  }
  if (gates.empty()) {
    throw Error(fmt::format("{}: no perfduel report in this directory (did `ctest -L perf` run any gate?)",
                            directory.string()));
  }
  std::sort(gates.begin(), gates.end(),
            [](const GateResult& a, const GateResult& b) { return a.name < b.name; });
  return gates;
}

}  // namespace

std::vector<GateResult> read_gate_results(const std::vector<std::filesystem::path>& paths) {
  std::vector<GateResult> gates;
  for (const auto& path : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
      auto found = gates_in_directory(path);
      gates.insert(gates.end(), found.begin(), found.end());
    } else if (!std::filesystem::exists(path, ec)) {
      throw Error(fmt::format("{}: no such file or directory", path.string()));
    } else if (path.extension() == ".md") {
      auto skipped = gate_from_skip_note(path);
      if (!skipped) {
        throw Error(fmt::format("{}: not a perfduel skip note; expected a JSON report", path.string()));
      }
      gates.push_back(std::move(*skipped));
    } else {
      gates.push_back(gate_from_json(path));
    }
  }
  return gates;
}

}  // namespace perfduel
