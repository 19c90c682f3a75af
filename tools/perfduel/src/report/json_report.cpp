#include "report/json_report.hpp"

#include <chrono>
#include <ctime>

#include <fmt/format.h>
#include <unistd.h>

#include "error.hpp"
#include "report/labels.hpp"
#include "report/report_fields.hpp"
#include "report/report_notes.hpp"
#include "util/file.hpp"

namespace perfduel {

namespace field = report_field;

namespace {

nlohmann::ordered_json metric_to_json(const MetricResult& result, const Environment& environment) {
  nlohmann::ordered_json json;
  const auto& spec = result.spec;
  json[field::k_name] = spec.name;
  json[field::k_unit] = spec.unit;
  json[field::k_direction] = util::name_of(stats::k_direction_names, spec.direction);
  json[field::k_gated] = spec.gating == Gating::gated;
  json[field::k_baseline_median] = result.baseline_median;
  json[field::k_candidate_median] = result.candidate_median;
  const bool has_interval = result.estimate.status == stats::EstimateStatus::ok;
  json[field::k_change] = has_interval || result.estimate.status == stats::EstimateStatus::unstable
                              ? nlohmann::ordered_json(result.change)
                              : nlohmann::ordered_json(nullptr);
  json[field::k_ci] = has_interval ? nlohmann::ordered_json::array({result.ci.lo, result.ci.hi})
                                   : nlohmann::ordered_json(nullptr);
  json[field::k_confidence] = result.confidence;
  json[field::k_inside_band_uncorrected] = result.equivalence;  // no change shown without Bonferroni
  json[field::k_threshold] = spec.threshold;
  json[field::k_tolerance] = spec.tolerance;
  json[field::k_verdict] = to_string(result.verdict);
  json[field::k_likely_regression] = result.likely_regression;  // worse than its threshold, not shown (yet)
  if (at_driver_floor(result, environment)) {
    json[field::k_at_driver_floor] = true;  // not the programs' memory: a note, not a row
  }
  json[field::k_settled_by] =
      result.settled_by == SettledBy::none
          ? nlohmann::ordered_json(nullptr)
          : nlohmann::ordered_json(std::string(util::name_of(k_settled_by_names, result.settled_by)));
  json[field::k_stopping_width] =
      std::isfinite(result.stopping_width) ? nlohmann::ordered_json(result.stopping_width) : nullptr;
  json[field::k_sequence] = result.sequence
                                ? nlohmann::ordered_json::array({result.sequence->lo, result.sequence->hi})
                                : nlohmann::ordered_json(nullptr);
  json[field::k_signs] =
      result.settled_by == SettledBy::signs
          ? nlohmann::ordered_json{{field::k_beyond, result.signs_beyond},
                                   {field::k_rounds, result.signs_rounds},
                                   {field::k_by_more_than, signs_bound(spec)},
                                   {field::k_shown_instead_of_interval, shows_signs(result)}}
          : nlohmann::ordered_json(nullptr);
  json[field::k_rounds] = result.estimate.rounds;
  if (result.cpu_effect) {
    // Order duet: the higher-numbered CPU of the pair against the other, on the same program.
    json[field::k_cpu_effect] = {
        {field::k_change, *result.cpu_effect},
        {field::k_ci, nlohmann::ordered_json::array({result.cpu_effect_ci.lo, result.cpu_effect_ci.hi})}};
  }
  const auto& estimate = result.estimate;
  json[field::k_estimator] = {
      {field::k_name, util::name_of(stats::k_estimator_names, result.estimator)},
      {field::k_batch_size, estimate.batch_size},
      {field::k_batches, estimate.batches},
      {field::k_lag1, std::isfinite(estimate.lag1) ? nlohmann::ordered_json(estimate.lag1) : nullptr},
      {field::k_p_value, estimate.p_value},
      {field::k_note, estimate.note}};
  return json;
}

nlohmann::ordered_json fingerprint_to_json(const std::optional<ProgramFingerprint>& fingerprint) {
  if (!fingerprint) {
    return nullptr;
  }
  auto files = nlohmann::ordered_json::array();
  for (const auto& file : fingerprint->files) {
    files.push_back({{field::k_role, util::name_of(k_file_role_names, file.role)},
                     {field::k_name, file.name},
                     {field::k_path, file.path.string()},
                     {field::k_sha256, file.sha256}});
  }
  return {{field::k_sha256, fingerprint->sha256}, {field::k_files, files}};
}

// What the two sides were found to run before the warm-up (duel/programs.hpp): whether they were
// identical, why not (or why not fingerprinted), and per side its fingerprint and the files in it.
nlohmann::ordered_json programs_to_json(const ProgramComparison& programs) {
  nlohmann::ordered_json json;
  json[field::k_compared] = util::name_of(k_programs_compared_names, programs.result);
  json[field::k_reason] = programs.reason;
  json[field::k_baseline] = fingerprint_to_json(programs.baseline);
  json[field::k_candidate] = fingerprint_to_json(programs.candidate);
  return json;
}

// Every run with its values by metric name, enough for a re-analysis.
nlohmann::ordered_json runs_to_json(const Config& config, const std::vector<RunRecord>& runs_made) {
  auto runs = nlohmann::ordered_json::array();
  for (const auto& run : runs_made) {
    nlohmann::ordered_json values;
    for (std::size_t m = 0; m < config.metrics.size() && m < run.values.size(); ++m) {
      values[config.metrics[m].name] = run.values[m];
    }
    nlohmann::ordered_json item{{field::k_round, run.round},
                                {field::k_side, util::name_of(k_side_names, run.side)},
                                {field::k_warmup, run.warmup}};
    if (run.cpu >= 0) {
      item[field::k_cpu] = run.cpu;  // order: duet: the assignment, which the analysis needs again
    }
    if (run.alone) {
      item[field::k_alone] = true;
    }
    item[field::k_values] = values;
    runs.push_back(std::move(item));
  }
  return runs;
}

}  // namespace

std::string overall_verdict(const DuelOutcome& outcome) {
  return verdict_word(outcome.end, outcome.analysis.verdict);
}

nlohmann::ordered_json report_to_json(const RunSummary& summary) {
  const auto& config = *summary.config;
  const auto& outcome = *summary.outcome;
  nlohmann::ordered_json json;
  json[field::k_perfduel_version] = PERFDUEL_VERSION;
  json[field::k_verdict] = overall_verdict(outcome);
  json[field::k_exit_code] = to_int(summary.exit_code);
  if (!outcome.failure.empty()) {
    json[field::k_error] = outcome.failure;
    json[field::k_error_stderr] = outcome.failure_stderr;
    if (!outcome.failure_stdout.empty()) {
      // The tail of the failing run's stdout, or where a metric was looked for and not found.
      json[field::k_error_stdout] = outcome.failure_stdout;
    }
  }
  json[field::k_end] = to_string(outcome.end);
  // Failed runs whose round was discarded and played again (the config's "retries").
  json[field::k_retried] = outcome.retried;
  json[field::k_left_behind] = outcome.left_behind;
  json[field::k_started] = summary.started;
  json[field::k_elapsed_seconds] = outcome.elapsed_seconds;
  json[field::k_measured_rounds] = outcome.analysis.measured_rounds;
  json[field::k_seed] = outcome.seed;
  if (summary.reanalysis) {
    const auto& reanalysis = *summary.reanalysis;
    json[field::k_reanalysis] = {{field::k_of, reanalysis.report},
                                 {field::k_settings_from, reanalysis.settings},
                                 {field::k_changed, reanalysis.changes},
                                 {field::k_ignored, reanalysis.ignored}};
  }
  json[field::k_baseline] = {
      {field::k_command, config.baseline ? config.baseline->argv : std::vector<std::string>{}}};
  json[field::k_candidate] = {
      {field::k_command, config.candidate ? config.candidate->argv : std::vector<std::string>{}}};
  json[field::k_programs] = programs_to_json(outcome.programs);
  auto metrics = nlohmann::ordered_json::array();
  for (const auto& result : outcome.analysis.metrics) {
    metrics.push_back(metric_to_json(result, summary.environment));
  }
  json[field::k_metrics] = metrics;
  json[field::k_notes] = note_texts(duel_report_notes(summary));
  // Those the duel made, apart, for a re-analysis to repeat.
  json[field::k_duel_notes] = note_texts(outcome.notes);
  // Benchmarks that a pattern found on one side only: not compared, listed by metric name.
  json[field::k_benchmarks] = {{field::k_new, outcome.suite.added},
                               {field::k_removed, outcome.suite.removed},
                               {field::k_unmeasurable, outcome.suite.unmeasurable},
                               {field::k_uncountable, outcome.suite.uncountable}};
  json[field::k_config] = nlohmann::ordered_json::parse(config_to_json(config));
  const auto& environment = summary.environment;
  json[field::k_environment] = {{field::k_host, environment.host},
                                {field::k_cpu_model, environment.cpu_model},
                                {field::k_cpu_count, environment.cpu_count},
                                {field::k_kernel, environment.kernel},
                                {field::k_kernel_release, environment.kernel_release},
                                {field::k_machine, environment.machine},
                                {field::k_machine_id, environment.machine_id},
                                {field::k_load, environment.load},
                                {field::k_governor, environment.governor},
                                {field::k_driver_peak_rss_bytes, environment.driver_peak_rss_bytes}};
  json[field::k_pinning] = {{field::k_cpus, summary.pinning.cpus},
                            {field::k_source, to_string(summary.pinning.source)},
                            {field::k_reason, summary.pinning.reason},
                            {field::k_warmup_parallelism, summary.pinning.parallelism}};
  json[field::k_runs] = runs_to_json(config, outcome.runs);
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

std::string now_iso8601() {
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace perfduel
