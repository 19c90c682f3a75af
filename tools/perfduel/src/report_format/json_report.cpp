#include "report_format/json_report.hpp"

#include <fmt/format.h>

#include "config/names.hpp"
#include "duel/verdict.hpp"
#include "report_format/report_fields.hpp"
#include "report_format/report_notes.hpp"

namespace perfduel {

namespace {

// How `result` was settled, into its `json`: the rule, the width rule's width, the confidence and
// sign sequences, and for a count from or to 0 the side that read 0.
void settlement_to_json(const MetricResult& result, nlohmann::ordered_json& json) {
  const auto& spec = result.spec;
  json[report_field::k_settled_by] =
      result.settled_by == SettledBy::none
          ? nlohmann::ordered_json(nullptr)
          : nlohmann::ordered_json(std::string(util::name_of(k_settled_by_names, result.settled_by)));
  if (result.zero_side) {  // a count from or to 0: no change or interval, the verdict all the same
    json[report_field::k_read_zero] = std::string(util::name_of(k_side_names, *result.zero_side));
  }
  json[report_field::k_stopping_width] =
      std::isfinite(result.stopping_width) ? nlohmann::ordered_json(result.stopping_width) : nullptr;
  json[report_field::k_sequence] =
      result.sequence ? nlohmann::ordered_json::array({result.sequence->lo, result.sequence->hi})
                      : nlohmann::ordered_json(nullptr);
  json[report_field::k_signs] =
      result.settled_by == SettledBy::signs
          ? nlohmann::ordered_json{{report_field::k_beyond, result.signs_beyond},
                                   {report_field::k_rounds, result.signs_rounds},
                                   {report_field::k_by_more_than, signs_bound(spec)},
                                   {report_field::k_shown_instead_of_interval, shows_signs(result)}}
          : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json metric_to_json(const MetricResult& result, const Environment& environment) {
  nlohmann::ordered_json json;
  const auto& spec = result.spec;
  json[report_field::k_name] = spec.name;
  json[report_field::k_unit] = spec.unit;
  json[report_field::k_direction] = util::name_of(stats::k_direction_names, spec.direction);
  json[report_field::k_gated] = spec.gating == Gating::gated;
  json[report_field::k_baseline_median] = result.baseline_median;
  json[report_field::k_candidate_median] = result.candidate_median;
  const bool has_interval = result.estimate.status == stats::EstimateStatus::ok;
  json[report_field::k_change] = has_interval || result.estimate.status == stats::EstimateStatus::unstable
                                     ? nlohmann::ordered_json(result.change)
                                     : nlohmann::ordered_json(nullptr);
  json[report_field::k_ci] = has_interval ? nlohmann::ordered_json::array({result.ci.lo, result.ci.hi})
                                          : nlohmann::ordered_json(nullptr);
  json[report_field::k_confidence] = result.confidence;
  json[report_field::k_inside_band_uncorrected] = result.equivalence;  // no change shown without Bonferroni
  json[report_field::k_threshold] = spec.threshold;
  json[report_field::k_tolerance] = spec.tolerance;
  json[report_field::k_verdict] = to_string(result.verdict);
  json[report_field::k_likely_regression] =
      result.likely_regression;  // worse than its threshold, not shown (yet)
  if (at_driver_floor(result, environment)) {
    json[report_field::k_at_driver_floor] = true;  // not the programs' memory: a note, not a row
  }
  settlement_to_json(result, json);
  json[report_field::k_rounds] = result.estimate.rounds;
  if (result.cpu_effect) {
    // Order duet: the higher-numbered CPU of the pair against the other, on the same program.
    json[report_field::k_cpu_effect] = {
        {report_field::k_change, *result.cpu_effect},
        {report_field::k_ci,
         nlohmann::ordered_json::array({result.cpu_effect_ci.lo, result.cpu_effect_ci.hi})}};
  }
  const auto& estimate = result.estimate;
  json[report_field::k_estimator] = {
      {report_field::k_name, util::name_of(stats::k_estimator_names, result.estimator)},
      {report_field::k_batch_size, estimate.batch_size},
      {report_field::k_batches, estimate.batches},
      {report_field::k_lag1, std::isfinite(estimate.lag1) ? nlohmann::ordered_json(estimate.lag1) : nullptr},
      {report_field::k_p_value, estimate.p_value},
      {report_field::k_note, estimate.note}};
  return json;
}

nlohmann::ordered_json fingerprint_to_json(const std::optional<ProgramFingerprint>& fingerprint) {
  if (!fingerprint) {
    return nullptr;
  }
  auto files = nlohmann::ordered_json::array();
  for (const auto& file : fingerprint->files) {
    files.push_back({{report_field::k_role, util::name_of(k_file_role_names, file.role)},
                     {report_field::k_name, file.name},
                     {report_field::k_path, file.path.string()},
                     {report_field::k_sha256, file.sha256}});
  }
  return {{report_field::k_sha256, fingerprint->sha256}, {report_field::k_files, files}};
}

// What the two sides were found to run before the warm-up (duel/programs.hpp): whether they were
// identical, why not (or why not fingerprinted), and per side its fingerprint and the files in it.
nlohmann::ordered_json programs_to_json(const ProgramComparison& programs) {
  nlohmann::ordered_json json;
  json[report_field::k_compared] = util::name_of(k_programs_compared_names, programs.result);
  json[report_field::k_reason] = programs.reason;
  json[report_field::k_baseline] = fingerprint_to_json(programs.baseline);
  json[report_field::k_candidate] = fingerprint_to_json(programs.candidate);
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
    nlohmann::ordered_json item{{report_field::k_round, run.round},
                                {report_field::k_side, util::name_of(k_side_names, run.side)},
                                {report_field::k_warmup, run.warmup}};
    if (run.cpu >= 0) {
      item[report_field::k_cpu] = run.cpu;  // order: duet: the assignment, which the analysis needs again
    }
    if (run.alone) {
      item[report_field::k_alone] = true;
    }
    item[report_field::k_values] = values;
    runs.push_back(std::move(item));
  }
  return runs;
}

nlohmann::ordered_json function_to_json(const FunctionShare& function) {
  return {{report_field::k_name, function.name},
          {report_field::k_source_file, function.file},
          {report_field::k_source_line, function.line},
          {report_field::k_change, util::name_of(k_function_change_names, function.change)},
          {report_field::k_baseline, function.baseline},
          {report_field::k_candidate, function.candidate},
          {report_field::k_baseline_inclusive, function.baseline_inclusive},
          {report_field::k_candidate_inclusive, function.candidate_inclusive},
          {report_field::k_moved, function.moved},
          {report_field::k_share, function.share}};
}

// The functions and moves of one explanation (duel/explanation.hpp).
nlohmann::ordered_json explanation_to_json(const Explanation& explanation) {
  const Attribution& attribution = explanation.attribution;
  auto functions = nlohmann::ordered_json::array();
  for (const FunctionShare& function : attribution.functions) {
    functions.push_back(function_to_json(function));
  }
  auto moves = nlohmann::ordered_json::array();
  for (const CostMove& move : attribution.moves) {
    moves.push_back({{report_field::k_from, move.from},
                     {report_field::k_into, move.into},
                     {report_field::k_amount, move.amount},
                     {report_field::k_change, util::name_of(k_function_change_names, move.from_change)}});
  }
  // The call tree compactly, a node a row: name, parent's index, baseline, candidate.
  auto tree = nlohmann::ordered_json::array();
  for (const CallTreeNode& node : explanation.tree) {
    tree.push_back(nlohmann::ordered_json::array({node.name, node.parent, node.baseline, node.candidate}));
  }
  return {{report_field::k_metric, explanation.metric},
          {report_field::k_benchmark, explanation.benchmark},
          {report_field::k_event, util::name_of(config::k_counted_events, explanation.event)},
          {report_field::k_basis, util::name_of(k_profile_basis_names, explanation.basis)},
          {report_field::k_metric_change, explanation.metric_change},
          {report_field::k_instructions_change, explanation.instructions_change},
          {report_field::k_cycles_change, explanation.cycles_change},
          {report_field::k_reading, util::name_of(k_reading_names, attribution.reading)},
          {report_field::k_baseline_total, attribution.baseline_total},
          {report_field::k_candidate_total, attribution.candidate_total},
          {report_field::k_culprit,
           attribution.culprit ? function_to_json(*attribution.culprit) : nlohmann::ordered_json(nullptr)},
          {report_field::k_functions, functions},
          {report_field::k_moves, moves},
          {report_field::k_tree, tree}};
}

nlohmann::ordered_json environment_to_json(const Environment& environment) {
  return {{report_field::k_host, environment.host},
          {report_field::k_cpu_model, environment.cpu_model},
          {report_field::k_cpu_count, environment.cpu_count},
          {report_field::k_kernel, environment.kernel},
          {report_field::k_kernel_release, environment.kernel_release},
          {report_field::k_machine, environment.machine},
          {report_field::k_machine_id, environment.machine_id},
          {report_field::k_load, environment.load},
          {report_field::k_governor, environment.governor},
          {report_field::k_driver_peak_rss_bytes, environment.driver_peak_rss_bytes}};
}

nlohmann::ordered_json reanalysis_to_json(const Reanalysis& reanalysis) {
  return {{report_field::k_of, reanalysis.report},
          {report_field::k_settings_from, reanalysis.settings},
          {report_field::k_changed, reanalysis.changes},
          {report_field::k_ignored, reanalysis.ignored}};
}

// Where the changes happened, by function.
nlohmann::ordered_json explanations_to_json(const std::vector<Explanation>& explanations) {
  auto items = nlohmann::ordered_json::array();
  for (const Explanation& explanation : explanations) {
    items.push_back(explanation_to_json(explanation));
  }
  return items;
}

}  // namespace

std::string overall_verdict(const DuelOutcome& outcome) {
  return verdict_word(outcome.end, outcome.analysis.verdict);
}

nlohmann::ordered_json report_to_json(const RunSummary& summary) {
  const auto& config = *summary.config;
  const auto& outcome = *summary.outcome;
  nlohmann::ordered_json json;
  json[report_field::k_perfduel_version] = PERFDUEL_VERSION;
  json[report_field::k_verdict] = overall_verdict(outcome);
  json[report_field::k_exit_code] = to_int(summary.exit_code);
  if (!outcome.failure.empty()) {
    json[report_field::k_error] = outcome.failure;
    json[report_field::k_error_stderr] = outcome.failure_stderr;
    if (!outcome.failure_stdout.empty()) {
      // The tail of the failing run's stdout, or where a metric was looked for and not found.
      json[report_field::k_error_stdout] = outcome.failure_stdout;
    }
  }
  json[report_field::k_end] = to_string(outcome.end);
  // Failed runs whose round was discarded and played again (the config's "retries").
  json[report_field::k_retried] = outcome.retried;
  json[report_field::k_left_behind] = outcome.left_behind;
  json[report_field::k_started] = summary.started;
  json[report_field::k_elapsed_seconds] = outcome.elapsed_seconds;
  json[report_field::k_measured_rounds] = outcome.analysis.measured_rounds;
  json[report_field::k_seed] = outcome.seed;
  if (summary.reanalysis) {
    json[report_field::k_reanalysis] = reanalysis_to_json(*summary.reanalysis);
  }
  json[report_field::k_baseline] = {
      {report_field::k_command, config.baseline ? config.baseline->argv : std::vector<std::string>{}}};
  json[report_field::k_candidate] = {
      {report_field::k_command, config.candidate ? config.candidate->argv : std::vector<std::string>{}}};
  json[report_field::k_programs] = programs_to_json(outcome.programs);
  auto metrics = nlohmann::ordered_json::array();
  for (const auto& result : outcome.analysis.metrics) {
    metrics.push_back(metric_to_json(result, summary.environment));
  }
  json[report_field::k_metrics] = metrics;
  json[report_field::k_explanations] = explanations_to_json(outcome.explanations);
  json[report_field::k_explain_seconds] = outcome.explain_seconds;
  json[report_field::k_notes] = note_texts(duel_report_notes(summary));
  // Those the duel made, apart, for a re-analysis to repeat.
  json[report_field::k_duel_notes] = note_texts(outcome.notes);
  // Benchmarks that a pattern found on one side only: not compared, listed by metric name.
  json[report_field::k_benchmarks] = {{report_field::k_new, outcome.suite.added},
                                      {report_field::k_removed, outcome.suite.removed},
                                      {report_field::k_unmeasurable, outcome.suite.unmeasurable},
                                      {report_field::k_uncountable, outcome.suite.uncountable}};
  json[report_field::k_config] = nlohmann::ordered_json::parse(config_to_json(config));
  json[report_field::k_environment] = environment_to_json(summary.environment);
  json[report_field::k_pinning] = {{report_field::k_cpus, summary.pinning.cpus},
                                   {report_field::k_source, to_string(summary.pinning.source)},
                                   {report_field::k_reason, summary.pinning.reason},
                                   {report_field::k_warmup_parallelism, summary.pinning.parallelism}};
  json[report_field::k_runs] = runs_to_json(config, outcome.runs);
  return json;
}

bool shows_signs(const MetricResult& result) {
  return result.settled_by == SettledBy::signs && (result.estimate.status != stats::EstimateStatus::ok ||
                                                   !interval_shows(result.ci, result.verdict, result.spec));
}

}  // namespace perfduel
