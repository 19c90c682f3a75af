#include "history/report_import.hpp"

#include <cmath>
#include <sstream>

#include <fmt/core.h>

#include "duel/analysis.hpp"
#include "duel/verdict.hpp"
#include "history/provenance.hpp"
#include "machine/facts.hpp"

namespace perfduel::history {

namespace {

std::optional<std::string> non_empty(const std::string& text) {
  return text.empty() ? std::nullopt : std::optional<std::string>(text);
}

// The machine a report was measured on, as machine_fingerprint describes it, from its
// "environment"; none when the report does not say.
std::optional<std::string> report_machine(const Environment& environment) {
  const auto host = non_empty(environment.host);
  const auto cpu = non_empty(environment.cpu_model);
  auto release = non_empty(environment.kernel_release);
  if (const auto kernel = non_empty(environment.kernel); !release && kernel) {
    // Reports before "kernel_release" carry uname's "Linux <release> <machine>".
    std::istringstream words(*kernel);
    std::string name;
    std::string version;
    std::string machine;
    std::string extra;
    release = (words >> name >> version >> machine) && !(words >> extra) ? version : *kernel;
  }
  if (!host && !cpu && !release) {
    return std::nullopt;
  }
  return machine_fingerprint(host.value_or(""), cpu.value_or(""), release.value_or("")).description;
}

// Adds to each of `measurements` the raw candidate samples of the report's measured rounds.
void add_candidate_samples(const SavedReport& report, std::vector<Measurement>& measurements) {
  for (const auto& run : report.runs) {
    if (run.side != Side::candidate || run.warmup) {
      continue;
    }
    for (Measurement& m : measurements) {
      if (const double v = run_value(report, run, m.metric); !std::isnan(v)) {
        m.samples.push_back(v);
      }
    }
  }
}

}  // namespace

std::string report_run_key(const SavedReport& report) {
  return "report-" + machine_id(report.text);
}

std::optional<std::string> report_config_hash(const SavedReport& report) {
  if (!report.gate_settings) {
    return std::nullopt;
  }
  return machine_id(*report.gate_settings).substr(0, 12);
}

std::optional<std::string> nothing_measured(const SavedReport& report) {
  if (report.end_name != to_string(DuelEnd::identical)) {
    return std::nullopt;
  }
  return end_reason(DuelEnd::identical);
}

util::Expected<Record> record_from_report(const SavedReport& report, std::string_view source) {
  const auto failure = [&](const std::string& what) {
    return util::Expected<Record>::failure(fmt::format("{}: {}", source, what));
  };
  if (!report.has_metrics) {
    return failure(
        "not a perfduel compare report (no \"metrics\" array; write one with `perfduel compare --json`)");
  }
  Record record;
  record.source = "report";
  record.verdict = report.verdict;
  record.perfduel_version = report.perfduel_version;
  record.run_key = report_run_key(report);
  record.config_hash = report_config_hash(report);
  if (is_iso_time(report.started)) {
    record.recorded_at = report.started;
  }
  if (auto machine = report_machine(report.environment)) {
    record.machine = std::move(*machine);
  }
  for (std::size_t i = 0; i < report.metrics.size(); ++i) {
    const auto& metric = report.metrics[i];
    if (!metric.name) {
      return failure(fmt::format("metric {} has no \"name\"", i));
    }
    if (!metric.candidate_median) {
      return failure(fmt::format("metric \"{}\" has no \"candidate_median\"", *metric.name));
    }
    Measurement m;
    m.metric = *metric.name;
    m.value = *metric.candidate_median;
    m.unit = metric.unit;
    m.direction = metric.direction;
    m.baseline = metric.baseline_median;
    m.change = metric.change;
    if (metric.ci) {
      m.ci_low = metric.ci->lo;
      m.ci_high = metric.ci->hi;
    }
    m.verdict = metric.verdict;
    record.measurements.push_back(std::move(m));
  }
  add_candidate_samples(report, record.measurements);
  return record;
}

}  // namespace perfduel::history
