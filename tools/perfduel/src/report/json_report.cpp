#include "report/json_report.hpp"

#include <chrono>
#include <ctime>

#include <fmt/format.h>
#include <unistd.h>

#include "error.hpp"
#include "report/labels.hpp"
#include "util/file.hpp"

namespace perfduel {

namespace {

nlohmann::ordered_json metric_to_json(const MetricResult& result) {
  nlohmann::ordered_json json;
  const auto& spec = result.spec;
  json["name"] = spec.name;
  json["unit"] = spec.unit;
  json["direction"] = util::name_of(stats::k_direction_names, spec.direction);
  json["gated"] = spec.gating == Gating::gated;
  json["baseline_median"] = result.baseline_median;
  json["candidate_median"] = result.candidate_median;
  const bool has_interval = result.estimate.status == stats::EstimateStatus::ok;
  json["change"] = has_interval || result.estimate.status == stats::EstimateStatus::unstable
                       ? nlohmann::ordered_json(result.change)
                       : nlohmann::ordered_json(nullptr);
  json["ci"] = has_interval ? nlohmann::ordered_json::array({result.ci.lo, result.ci.hi})
                            : nlohmann::ordered_json(nullptr);
  json["confidence"] = result.confidence;
  json["inside_band_uncorrected"] = result.equivalence;  // no change shown without Bonferroni
  json["threshold"] = spec.threshold;
  json["tolerance"] = spec.tolerance;
  json["verdict"] = to_string(result.verdict);
  json["likely_regression"] = result.likely_regression;  // worse than its threshold, not shown (yet)
  json["settled_by"] =
      result.settled_by == SettledBy::none
          ? nlohmann::ordered_json(nullptr)
          : nlohmann::ordered_json(std::string(util::name_of(k_settled_by_names, result.settled_by)));
  json["stopping_width"] =
      std::isfinite(result.stopping_width) ? nlohmann::ordered_json(result.stopping_width) : nullptr;
  json["sequence"] = result.sequence
                         ? nlohmann::ordered_json::array({result.sequence->lo, result.sequence->hi})
                         : nlohmann::ordered_json(nullptr);
  json["signs"] = result.settled_by == SettledBy::signs
                      ? nlohmann::ordered_json{{"beyond", result.signs_beyond},
                                               {"rounds", result.signs_rounds},
                                               {"by_more_than", signs_bound(spec)},
                                               {"shown_instead_of_interval", shows_signs(result)}}
                      : nlohmann::ordered_json(nullptr);
  json["rounds"] = result.estimate.rounds;
  if (result.cpu_effect) {
    // Order duet: the higher-numbered CPU of the pair against the other, on the same program.
    json["cpu_effect"] = {
        {"change", *result.cpu_effect},
        {"ci", nlohmann::ordered_json::array({result.cpu_effect_ci.lo, result.cpu_effect_ci.hi})}};
  }
  const auto& estimate = result.estimate;
  json["estimator"] = {
      {"name", util::name_of(stats::k_estimator_names, result.estimator)},
      {"batch_size", estimate.batch_size},
      {"batches", estimate.batches},
      {"lag1", std::isfinite(estimate.lag1) ? nlohmann::ordered_json(estimate.lag1) : nullptr},
      {"p_value", estimate.p_value},
      {"note", estimate.note}};
  return json;
}

nlohmann::ordered_json fingerprint_to_json(const std::optional<ProgramFingerprint>& fingerprint) {
  if (!fingerprint) {
    return nullptr;
  }
  auto files = nlohmann::ordered_json::array();
  for (const auto& file : fingerprint->files) {
    files.push_back({{"role", util::name_of(k_file_role_names, file.role)},
                     {"name", file.name},
                     {"path", file.path.string()},
                     {"sha256", file.sha256}});
  }
  return {{"sha256", fingerprint->sha256}, {"files", files}};
}

// What the two sides were found to run before the warm-up (duel/programs.hpp): whether they were
// identical, why not (or why not fingerprinted), and per side its fingerprint and the files in it.
nlohmann::ordered_json programs_to_json(const ProgramComparison& programs) {
  nlohmann::ordered_json json;
  json["compared"] = util::name_of(k_programs_compared_names, programs.result);
  json["reason"] = programs.reason;
  json["baseline"] = fingerprint_to_json(programs.baseline);
  json["candidate"] = fingerprint_to_json(programs.candidate);
  return json;
}

std::optional<ProgramFingerprint> fingerprint_from_json(const nlohmann::ordered_json& json) {
  if (!json.is_object()) {
    return std::nullopt;
  }
  ProgramFingerprint fingerprint;
  fingerprint.sha256 = json.value("sha256", "");
  for (const auto& item : json.value("files", nlohmann::ordered_json::array())) {
    FingerprintedFile file;
    file.role = util::value_of(k_file_role_names, item.value("role", "")).value_or(FileRole::argument);
    file.name = item.value("name", "");
    file.path = item.value("path", "");
    file.sha256 = item.value("sha256", "");
    fingerprint.files.push_back(std::move(file));
  }
  return fingerprint;
}

// The "programs" section back; a report without one (written before fingerprints) was not
// fingerprinted.
ProgramComparison programs_from_json(const nlohmann::ordered_json& report, const std::string& origin) {
  ProgramComparison programs;
  if (!report.contains("programs") || !report["programs"].is_object()) {
    return programs;
  }
  const auto& json = report["programs"];
  const auto compared = json.value("compared", "not-fingerprinted");
  const auto known = util::value_of(k_programs_compared_names, compared);
  if (!known) {
    throw Error(fmt::format("{}: unknown \"programs\" \"compared\" \"{}\" (one of {})", origin, compared,
                            util::names_of(k_programs_compared_names)));
  }
  programs.result = *known;
  programs.reason = json.value("reason", "");
  programs.baseline = fingerprint_from_json(json.value("baseline", nlohmann::ordered_json()));
  programs.candidate = fingerprint_from_json(json.value("candidate", nlohmann::ordered_json()));
  return programs;
}

// Every note of the analysis, then those the duel made while it ran (the early budget note).
std::vector<std::string> report_notes(const DuelOutcome& outcome) {
  auto notes = note_texts(outcome.analysis.notes);
  for (auto& text : note_texts(outcome.notes)) {
    notes.push_back(std::move(text));
  }
  return notes;
}

}  // namespace

std::string overall_verdict(const DuelOutcome& outcome) {
  return verdict_word(outcome.end, outcome.analysis.verdict);
}

nlohmann::ordered_json report_to_json(const RunSummary& summary) {
  const auto& config = *summary.config;
  const auto& outcome = *summary.outcome;
  nlohmann::ordered_json json;
  json["perfduel_version"] = PERFDUEL_VERSION;
  json["verdict"] = overall_verdict(outcome);
  json["exit_code"] = to_int(summary.exit_code);
  if (!outcome.failure.empty()) {
    json["error"] = outcome.failure;
    json["error_stderr"] = outcome.failure_stderr;
    if (!outcome.failure_stdout.empty()) {
      // The tail of the failing run's stdout, or where a metric was looked for and not found.
      json["error_stdout"] = outcome.failure_stdout;
    }
  }
  json["end"] = to_string(outcome.end);
  // Failed runs whose round was discarded and played again (the config's "retries").
  json["retried"] = outcome.retried;
  json["left_behind"] = outcome.left_behind;
  json["started"] = summary.started;
  json["elapsed_seconds"] = outcome.elapsed_seconds;
  json["measured_rounds"] = outcome.analysis.measured_rounds;
  json["seed"] = outcome.seed;
  if (summary.reanalysis) {
    const auto& reanalysis = *summary.reanalysis;
    json["reanalysis"] = {{"of", reanalysis.report},
                          {"settings_from", reanalysis.settings},
                          {"changed", reanalysis.changes},
                          {"ignored", reanalysis.ignored}};
  }
  json["baseline"] = {{"command", config.baseline ? config.baseline->argv : std::vector<std::string>{}}};
  json["candidate"] = {{"command", config.candidate ? config.candidate->argv : std::vector<std::string>{}}};
  json["programs"] = programs_to_json(outcome.programs);
  auto metrics = nlohmann::ordered_json::array();
  for (const auto& result : outcome.analysis.metrics) {
    metrics.push_back(metric_to_json(result));
  }
  json["metrics"] = metrics;
  json["notes"] = report_notes(outcome);
  json["duel_notes"] = note_texts(outcome.notes);  // the same, apart, for a re-analysis to repeat
  // Benchmarks that a pattern found on one side only: not compared, listed by metric name.
  json["benchmarks"] = {{"new", outcome.suite.added},
                        {"removed", outcome.suite.removed},
                        {"unmeasurable", outcome.suite.unmeasurable},
                        {"uncountable", outcome.suite.uncountable}};
  json["config"] = nlohmann::ordered_json::parse(config_to_json(config));
  const auto& environment = summary.environment;
  json["environment"] = {{"host", environment.host},
                         {"cpu_model", environment.cpu_model},
                         {"cpu_count", environment.cpu_count},
                         {"kernel", environment.kernel},
                         {"kernel_release", environment.kernel_release},
                         {"machine", environment.machine},
                         {"machine_id", environment.machine_id},
                         {"load", environment.load},
                         {"governor", environment.governor},
                         {"driver_peak_rss_bytes", environment.driver_peak_rss_bytes}};
  json["pinning"] = {{"cpus", summary.pinning.cpus},
                     {"source", to_string(summary.pinning.source)},
                     {"reason", summary.pinning.reason},
                     {"warmup_parallelism", summary.pinning.parallelism}};
  auto runs = nlohmann::ordered_json::array();
  for (const auto& run : outcome.runs) {
    nlohmann::ordered_json values;
    for (std::size_t m = 0; m < config.metrics.size() && m < run.values.size(); ++m) {
      values[config.metrics[m].name] = run.values[m];
    }
    nlohmann::ordered_json item{
        {"round", run.round}, {"side", util::name_of(k_side_names, run.side)}, {"warmup", run.warmup}};
    if (run.cpu >= 0) {
      item["cpu"] = run.cpu;  // order: duet: the assignment, which the analysis needs again
    }
    if (run.alone) {
      item["alone"] = true;
    }
    item["values"] = values;
    runs.push_back(std::move(item));
  }
  json["runs"] = runs;
  return json;
}

void write_json_file(const std::filesystem::path& path, const nlohmann::ordered_json& json) {
  // A benchmark's output need not be UTF-8 (a Latin-1 program), and it reaches the report in
  // error messages and excerpts: such bytes become U+FFFD rather than losing the report.
  const auto text = json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  if (const auto error = util::write_file_atomically(path, text); !error.empty()) {
    throw Error(fmt::format("{}: cannot write the report: {}", path.string(), error));
  }
}

nlohmann::ordered_json read_report_json(const std::filesystem::path& path) {
  const auto text = util::read_file(path);
  if (!text) {
    throw Error(fmt::format("{}: cannot read the report", path.string()));
  }
  // Ordered, so that the metrics keep the order they were measured and reported in.
  auto json = nlohmann::ordered_json::parse(*text, nullptr, false);
  if (json.is_discarded()) {
    throw Error(fmt::format("{}: not valid JSON (write the report with `perfduel compare --json FILE`)",
                            path.string()));
  }
  return json;
}

namespace {

SavedReport read_report(const nlohmann::ordered_json& json, const std::string& origin) {
  if (!json.is_object()) {
    throw Error(fmt::format("{}: not a JSON report (is it the file written by compare --json?)", origin));
  }
  for (const char* key : {"config", "runs"}) {
    if (!json.contains(key)) {
      throw Error(fmt::format("{}: the report has no \"{}\"; it was not written by perfduel compare --json",
                              origin, key));
    }
  }
  SavedReport report;
  // The config section uses the YAML file's keys, and JSON is YAML, so the one parser reads both.
  report.config = parse_config(json["config"].dump(), origin + " (config)");
  report.verdict = json.value("verdict", "");
  const auto end = json.value("end", "decided");
  const auto known_end = util::value_of(k_duel_end_names, end);
  if (!known_end) {
    throw Error(
        fmt::format("{}: unknown \"end\" \"{}\" (one of {})", origin, end, util::names_of(k_duel_end_names)));
  }
  report.end = *known_end;
  report.programs = programs_from_json(json, origin);
  report.failure = json.value("error", "");
  report.elapsed_seconds = json.value("elapsed_seconds", 0.0);
  for (const auto& text : json.value("duel_notes", std::vector<std::string>{})) {
    report.duel_notes.push_back({NoteWeight::key, text});
  }
  report.seed = json.value("seed", std::uint64_t{0});
  if (json.contains("benchmarks") && json["benchmarks"].is_object()) {
    report.suite.added = json["benchmarks"].value("new", std::vector<std::string>{});
    report.suite.removed = json["benchmarks"].value("removed", std::vector<std::string>{});
    report.suite.unmeasurable = json["benchmarks"].value("unmeasurable", std::vector<std::string>{});
    report.suite.uncountable = json["benchmarks"].value("uncountable", std::map<std::string, std::string>{});
  }
  if (json.contains("environment") && json["environment"].is_object()) {
    const auto& environment = json["environment"];
    report.environment.host = environment.value("host", "");
    report.environment.cpu_model = environment.value("cpu_model", "");
    report.environment.cpu_count = environment.value("cpu_count", 0);
    report.environment.kernel = environment.value("kernel", "");
    report.environment.kernel_release = environment.value("kernel_release", "");
    report.environment.machine = environment.value("machine", "");
    report.environment.machine_id = environment.value("machine_id", "");
    report.environment.load = environment.value("load", std::vector<double>{});
    report.environment.governor = environment.value("governor", "");
    report.environment.driver_peak_rss_bytes = environment.value("driver_peak_rss_bytes", 0.0);
  }
  if (json.contains("pinning") && json["pinning"].is_object()) {
    const auto& pinning = json["pinning"];
    report.pinning.cpus = pinning.value("cpus", std::vector<int>{});
    if (const auto source = util::value_of(k_pinning_source_names, pinning.value("source", ""))) {
      report.pinning.source = *source;
    }
    report.pinning.reason = pinning.value("reason", "");
    report.pinning.parallelism = pinning.value("warmup_parallelism", 0.0);
  }
  for (const auto& item : json["runs"]) {
    RunRecord run;
    try {
      run.round = item.at("round").get<int>();
      const auto side = item.at("side").get<std::string>();
      const auto known_side = util::value_of(k_side_names, side);
      if (!known_side) {
        throw Error(fmt::format("{}: run {} has an unknown \"side\" \"{}\" (one of {})", origin,
                                report.runs.size() + 1, side, util::names_of(k_side_names)));
      }
      run.side = *known_side;
      run.warmup = item.at("warmup").get<bool>();
      run.cpu = item.value("cpu", -1);
      run.alone = item.value("alone", false);
      for (const auto& metric : report.config.metrics) {
        run.values.push_back(item.at("values").at(metric.name).get<double>());
      }
    } catch (const nlohmann::json::exception& e) {
      throw Error(fmt::format("{}: run {} is malformed: {}", origin, report.runs.size() + 1, e.what()));
    }
    report.runs.push_back(std::move(run));
  }
  return report;
}

}  // namespace

SavedReport report_from_json(const nlohmann::ordered_json& json, const std::string& origin) {
  try {
    return read_report(json, origin);
  } catch (const nlohmann::json::exception& e) {
    // A section of the wrong type, e.g. "benchmarks": {"new": "x"}.
    throw Error(fmt::format("{}: the report is malformed: {}", origin, e.what()));
  }
}

SavedReport load_report(const std::filesystem::path& path) {
  return report_from_json(read_report_json(path), path.string());
}

std::string now_iso8601() {
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace perfduel
