#include "history/report_import.hpp"

#include <filesystem>
#include <sstream>

#include <fmt/core.h>

#include "duel/analysis.hpp"
#include "duel/verdict.hpp"
#include "history/provenance.hpp"
#include "machine/facts.hpp"

namespace perfduel::history {

namespace {

std::optional<double> optional_number(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_number()) {
    return std::nullopt;
  }
  return it->get<double>();
}

std::optional<std::string> optional_string(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string()) {
    return std::nullopt;
  }
  return it->get<std::string>();
}

}  // namespace

std::string report_run_key(const nlohmann::ordered_json& report) {
  return "report-" + machine_id(report.dump());
}

std::optional<std::string> report_config_hash(const nlohmann::ordered_json& report) {
  const auto config = report.find("config");
  if (config == report.end() || !config->is_object()) {
    return std::nullopt;
  }
  nlohmann::ordered_json gate = *config;
  // Where the build tree is differs between runners; what runs and how is the gate.
  for (const char* side : {"baseline", "candidate"}) {
    if (auto it = gate.find(side); it != gate.end() && it->is_object()) {
      if (auto argv = it->find("command");
          argv != it->end() && argv->is_array() && !argv->empty() && (*argv)[0].is_string()) {
        (*argv)[0] = std::filesystem::path((*argv)[0].get<std::string>()).filename().string();
      }
      it->erase("working_directory");
    }
  }
  return machine_id(gate.dump()).substr(0, 12);
}

namespace {

// The machine a report was measured on, as machine_fingerprint describes it, from its
// "environment"; none when the report does not say.
std::optional<std::string> report_machine(const nlohmann::ordered_json& report) {
  const auto env = report.find("environment");
  if (env == report.end() || !env->is_object()) {
    return std::nullopt;
  }
  const auto host = optional_string(*env, "host");
  const auto cpu = optional_string(*env, "cpu_model");
  auto release = optional_string(*env, "kernel_release");
  if (const auto kernel = optional_string(*env, "kernel"); !release && kernel) {
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
void add_candidate_samples(const nlohmann::ordered_json& report, std::vector<Measurement>& measurements) {
  const auto runs = report.find("runs");
  if (runs == report.end() || !runs->is_array()) {
    return;
  }
  for (const auto& run : *runs) {
    if (!run.is_object() || run.value("side", "") != util::name_of(k_side_names, Side::candidate) ||
        run.value("warmup", false)) {
      continue;
    }
    const auto values = run.find("values");
    if (values == run.end() || !values->is_object()) {
      continue;
    }
    for (Measurement& m : measurements) {
      if (const auto v = values->find(m.metric); v != values->end() && v->is_number()) {
        m.samples.push_back(v->get<double>());
      }
    }
  }
}

}  // namespace

std::optional<std::string> nothing_measured(const nlohmann::ordered_json& report) {
  if (!report.is_object() || optional_string(report, "end") != to_string(DuelEnd::identical)) {
    return std::nullopt;
  }
  return end_reason(DuelEnd::identical);
}

util::Expected<Record> record_from_report(const nlohmann::ordered_json& report, std::string_view source) {
  const auto failure = [&](const std::string& what) {
    return util::Expected<Record>::failure(fmt::format("{}: {}", source, what));
  };
  if (!report.is_object() || !report.contains("metrics") || !report.at("metrics").is_array()) {
    return failure(
        "not a perfduel compare report (no \"metrics\" array; write one with `perfduel compare --json`)");
  }
  Record record;
  record.source = "report";
  record.verdict = optional_string(report, "verdict");
  record.perfduel_version = optional_string(report, "perfduel_version");
  record.run_key = report_run_key(report);
  record.config_hash = report_config_hash(report);
  if (auto started = optional_string(report, "started"); started && is_iso_time(*started)) {
    record.recorded_at = *started;
  }
  if (auto machine = report_machine(report)) {
    record.machine = std::move(*machine);
  }

  const auto& metrics = report.at("metrics");
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    const auto& metric = metrics[i];
    const auto name = metric.is_object() ? optional_string(metric, "name") : std::nullopt;
    if (!name) {
      return failure(fmt::format("metric {} has no \"name\"", i));
    }
    const auto candidate = optional_number(metric, "candidate_median");
    if (!candidate) {
      return failure(fmt::format("metric \"{}\" has no \"candidate_median\"", *name));
    }
    Measurement m;
    m.metric = *name;
    m.value = *candidate;
    m.unit = optional_string(metric, "unit");
    m.direction = optional_string(metric, "direction");
    m.baseline = optional_number(metric, "baseline_median");
    m.change = optional_number(metric, "change");
    if (const auto ci = metric.find("ci"); ci != metric.end() && ci->is_array() && ci->size() == 2 &&
                                           (*ci)[0].is_number() && (*ci)[1].is_number()) {
      m.ci_low = (*ci)[0].get<double>();
      m.ci_high = (*ci)[1].get<double>();
    }
    m.verdict = optional_string(metric, "verdict");
    record.measurements.push_back(std::move(m));
  }

  add_candidate_samples(report, record.measurements);
  return record;
}

}  // namespace perfduel::history
