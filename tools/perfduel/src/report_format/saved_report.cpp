#include "report_format/saved_report.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "config/names.hpp"
#include "error.hpp"
#include "report_format/report_fields.hpp"
#include "util/file.hpp"

namespace perfduel {

namespace {

using Json = nlohmann::ordered_json;

// The member `key` of `object`, or null when `object` is not an object or lacks it.
const Json& member(const Json& object, const char* key) {
  static const Json k_null;
  if (!object.is_object()) {
    return k_null;
  }
  const auto it = object.find(key);
  return it == object.end() ? k_null : *it;
}

std::optional<std::string> string_at(const Json& object, const char* key) {
  const auto& value = member(object, key);
  return value.is_string() ? std::optional<std::string>(value.get<std::string>()) : std::nullopt;
}

std::optional<double> number_at(const Json& object, const char* key) {
  const auto& value = member(object, key);
  return value.is_number() ? std::optional<double>(value.get<double>()) : std::nullopt;
}

// The items of the array `key` of `object`: none when it is not an array.
const Json& items_at(const Json& object, const char* key) {
  static const Json k_empty = Json::array();
  const auto& value = member(object, key);
  return value.is_array() ? value : k_empty;
}

bool flag_at(const Json& object, const char* key) {
  const auto& value = member(object, key);
  return value.is_boolean() && value.get<bool>();
}

template <typename T>
T count_at(const Json& object, const char* key) {
  const auto& value = member(object, key);
  return value.is_number_integer() || value.is_number_unsigned() ? value.get<T>() : T{0};
}

// The strings of the array `key`, its other items left out.
std::vector<std::string> strings_at(const Json& object, const char* key) {
  std::vector<std::string> texts;
  for (const auto& item : items_at(object, key)) {
    texts.push_back(item.is_string() ? item.get<std::string>() : item.dump());
  }
  return texts;
}

std::optional<stats::Interval> interval_at(const Json& object, const char* key) {
  const auto& value = member(object, key);
  if (!value.is_array() || value.size() != 2 || !value[0].is_number() || !value[1].is_number()) {
    return std::nullopt;
  }
  return stats::Interval{value[0].get<double>(), value[1].get<double>()};
}

SavedMetric metric_from_json(const Json& json) {
  SavedMetric metric;
  metric.name = string_at(json, report_field::k_name);
  metric.unit = string_at(json, report_field::k_unit);
  metric.direction = string_at(json, report_field::k_direction);
  metric.gated = flag_at(json, report_field::k_gated);
  metric.baseline_median = number_at(json, report_field::k_baseline_median);
  metric.candidate_median = number_at(json, report_field::k_candidate_median);
  metric.change = number_at(json, report_field::k_change);
  metric.ci = interval_at(json, report_field::k_ci);
  metric.confidence = number_at(json, report_field::k_confidence);
  metric.threshold = number_at(json, report_field::k_threshold);
  metric.tolerance = number_at(json, report_field::k_tolerance);
  metric.verdict = string_at(json, report_field::k_verdict);
  metric.likely_regression = flag_at(json, report_field::k_likely_regression);
  metric.settled_by = string_at(json, report_field::k_settled_by);
  if (const auto side = string_at(json, report_field::k_read_zero)) {
    metric.read_zero = util::value_of(k_side_names, *side);
  }
  if (const auto& signs = member(json, report_field::k_signs); signs.is_object()) {
    metric.signs = SavedSigns{count_at<std::size_t>(signs, report_field::k_beyond),
                              count_at<std::size_t>(signs, report_field::k_rounds),
                              number_at(signs, report_field::k_by_more_than).value_or(0.0),
                              flag_at(signs, report_field::k_shown_instead_of_interval)};
  }
  metric.rounds = count_at<int>(json, report_field::k_rounds);
  metric.estimator = string_at(member(json, report_field::k_estimator), report_field::k_name).value_or("");
  metric.at_driver_floor = flag_at(json, report_field::k_at_driver_floor);
  return metric;
}

std::optional<ProgramFingerprint> fingerprint_from_json(const Json& json) {
  if (!json.is_object()) {
    return std::nullopt;
  }
  ProgramFingerprint fingerprint;
  fingerprint.sha256 = string_at(json, report_field::k_sha256).value_or("");
  for (const auto& item : items_at(json, report_field::k_files)) {
    FingerprintedFile file;
    file.role = util::value_of(k_file_role_names, string_at(item, report_field::k_role).value_or(""))
                    .value_or(FileRole::argument);
    file.name = string_at(item, report_field::k_name).value_or("");
    file.path = string_at(item, report_field::k_path).value_or("");
    file.sha256 = string_at(item, report_field::k_sha256).value_or("");
    fingerprint.files.push_back(std::move(file));
  }
  return fingerprint;
}

// The "programs" section back; a report without one (written before fingerprints) was not
// fingerprinted, and an unknown "compared" is left so (report_from_json_strict rejects it).
ProgramComparison programs_from_json(const Json& json) {
  ProgramComparison programs;
  if (!json.is_object()) {
    return programs;
  }
  programs.result = util::value_of(k_programs_compared_names,
                                   string_at(json, report_field::k_compared).value_or("not-fingerprinted"))
                        .value_or(programs.result);
  programs.reason = string_at(json, report_field::k_reason).value_or("");
  programs.baseline = fingerprint_from_json(member(json, report_field::k_baseline));
  programs.candidate = fingerprint_from_json(member(json, report_field::k_candidate));
  return programs;
}

Environment environment_from_json(const Json& json) {
  Environment environment;
  environment.host = string_at(json, report_field::k_host).value_or("");
  environment.cpu_model = string_at(json, report_field::k_cpu_model).value_or("");
  environment.cpu_count = count_at<int>(json, report_field::k_cpu_count);
  environment.kernel = string_at(json, report_field::k_kernel).value_or("");
  environment.kernel_release = string_at(json, report_field::k_kernel_release).value_or("");
  environment.machine = string_at(json, report_field::k_machine).value_or("");
  environment.machine_id = string_at(json, report_field::k_machine_id).value_or("");
  for (const auto& load : items_at(json, report_field::k_load)) {
    environment.load.push_back(load.is_number() ? load.get<double>() : 0.0);
  }
  environment.governor = string_at(json, report_field::k_governor).value_or("");
  environment.driver_peak_rss_bytes = number_at(json, report_field::k_driver_peak_rss_bytes).value_or(0.0);
  return environment;
}

Pinning pinning_from_json(const Json& json) {
  Pinning pinning;
  for (const auto& cpu : items_at(json, report_field::k_cpus)) {
    if (cpu.is_number_integer()) {
      pinning.cpus.push_back(cpu.get<int>());
    }
  }
  if (const auto source =
          util::value_of(k_pinning_source_names, string_at(json, report_field::k_source).value_or(""))) {
    pinning.source = *source;
  }
  pinning.reason = string_at(json, report_field::k_reason).value_or("");
  pinning.parallelism = number_at(json, report_field::k_warmup_parallelism).value_or(0.0);
  return pinning;
}

SuiteChanges suite_from_json(const Json& json) {
  SuiteChanges suite;
  suite.added = strings_at(json, report_field::k_new);
  suite.removed = strings_at(json, report_field::k_removed);
  suite.unmeasurable = strings_at(json, report_field::k_unmeasurable);
  const auto& uncountable = member(json, report_field::k_uncountable);
  for (auto it = uncountable.begin(); uncountable.is_object() && it != uncountable.end(); ++it) {
    suite.uncountable[it.key()] = it->is_string() ? it->get<std::string>() : it->dump();
  }
  return suite;
}

// A run as recorded, its values those of `names` (NaN for one it lacks); nullopt for an item
// that is not a run.
std::optional<RunRecord> run_from_json(const Json& item, const std::vector<std::string>& names) {
  const auto round = member(item, report_field::k_round);
  const auto side = util::value_of(k_side_names, string_at(item, report_field::k_side).value_or(""));
  if (!round.is_number_integer() || !side) {
    return std::nullopt;
  }
  RunRecord run;
  run.round = round.get<int>();
  run.side = *side;
  run.warmup = flag_at(item, report_field::k_warmup);
  run.cpu = member(item, report_field::k_cpu).is_number_integer()
                ? member(item, report_field::k_cpu).get<int>()
                : -1;
  run.alone = flag_at(item, report_field::k_alone);
  const auto& values = member(item, report_field::k_values);
  for (const auto& name : names) {
    run.values.push_back(number_at(values, name.c_str()).value_or(std::numeric_limits<double>::quiet_NaN()));
  }
  return run;
}

// The gate's settings in `config`, its keys as the YAML file's, without the build tree's paths.
std::optional<std::string> gate_settings_of(const Json& config) {
  if (!config.is_object()) {
    return std::nullopt;
  }
  Json gate = config;
  for (const char* side : {"baseline", "candidate"}) {
    if (auto it = gate.find(side); it != gate.end() && it->is_object()) {
      if (auto argv = it->find("command");
          argv != it->end() && argv->is_array() && !argv->empty() && (*argv)[0].is_string()) {
        (*argv)[0] = std::filesystem::path((*argv)[0].get<std::string>()).filename().string();
      }
      it->erase("working_directory");
    }
  }
  return gate.dump();
}

FunctionChange change_of(const Json& item) {
  return util::value_of(k_function_change_names, string_at(item, report_field::k_change).value_or(""))
      .value_or(FunctionChange::changed);
}

// A function's part in a change as recorded ("functions" items, "culprit").
FunctionShare function_from_json(const Json& item) {
  FunctionShare function{string_at(item, report_field::k_name).value_or(""),
                         string_at(item, report_field::k_source_file).value_or(""),
                         count_at<int>(item, report_field::k_source_line)};
  function.baseline = number_at(item, report_field::k_baseline).value_or(0.0);
  function.candidate = number_at(item, report_field::k_candidate).value_or(0.0);
  function.baseline_inclusive = number_at(item, report_field::k_baseline_inclusive).value_or(0.0);
  function.candidate_inclusive = number_at(item, report_field::k_candidate_inclusive).value_or(0.0);
  function.moved = number_at(item, report_field::k_moved).value_or(0.0);
  function.share = number_at(item, report_field::k_share).value_or(0.0);
  function.change = change_of(item);
  return function;
}

// An explanation as recorded ("explanations" items), leniently: what it lacks is left empty.
Explanation explanation_from_json(const Json& json) {
  Explanation explanation;
  explanation.metric = string_at(json, report_field::k_metric).value_or("");
  explanation.benchmark = string_at(json, report_field::k_benchmark).value_or("");
  explanation.event =
      util::value_of(config::k_counted_events, string_at(json, report_field::k_event).value_or(""))
          .value_or(CountedEvent::instructions);
  explanation.basis =
      util::value_of(k_profile_basis_names, string_at(json, report_field::k_basis).value_or(""))
          .value_or(ProfileBasis::counted);
  explanation.metric_change = number_at(json, report_field::k_metric_change).value_or(0.0);
  explanation.instructions_change = number_at(json, report_field::k_instructions_change).value_or(0.0);
  explanation.cycles_change = number_at(json, report_field::k_cycles_change).value_or(0.0);
  Attribution& attribution = explanation.attribution;
  attribution.reading = util::value_of(k_reading_names, string_at(json, report_field::k_reading).value_or(""))
                            .value_or(ProfileReading::explained);
  attribution.baseline_total = number_at(json, report_field::k_baseline_total).value_or(0.0);
  attribution.candidate_total = number_at(json, report_field::k_candidate_total).value_or(0.0);
  for (const auto& item : items_at(json, report_field::k_functions)) {
    attribution.functions.push_back(function_from_json(item));
  }
  if (const auto& culprit = member(json, report_field::k_culprit); culprit.is_object()) {
    attribution.culprit = function_from_json(culprit);
  }
  for (const auto& item : items_at(json, report_field::k_moves)) {
    attribution.moves.push_back({string_at(item, report_field::k_from).value_or(""),
                                 string_at(item, report_field::k_into).value_or(""),
                                 number_at(item, report_field::k_amount).value_or(0.0), change_of(item)});
  }
  for (const auto& row : items_at(json, report_field::k_tree)) {
    if (row.is_array() && row.size() == 4 && row[0].is_string() && row[1].is_number_integer() &&
        row[2].is_number() && row[3].is_number()) {
      explanation.tree.push_back(
          {row[0].get<std::string>(), row[1].get<int>(), row[2].get<double>(), row[3].get<double>()});
    }
  }
  return explanation;
}

// What `json` recorded, leniently, all but its runs (each reader reads those its own way, once).
SavedReport recorded_results(const Json& json) {
  SavedReport report;
  report.text = json.dump(-1, ' ', false, Json::error_handler_t::replace);
  report.verdict = string_at(json, report_field::k_verdict);
  report.end_name = string_at(json, report_field::k_end).value_or("decided");
  report.end = util::value_of(k_duel_end_names, report.end_name).value_or(DuelEnd::decided);
  report.failure = string_at(json, report_field::k_error);
  report.elapsed_seconds = number_at(json, report_field::k_elapsed_seconds).value_or(0.0);
  report.measured_rounds = count_at<int>(json, report_field::k_measured_rounds);
  report.seed = count_at<std::uint64_t>(json, report_field::k_seed);
  report.started = string_at(json, report_field::k_started).value_or("");
  report.perfduel_version = string_at(json, report_field::k_perfduel_version);
  report.baseline_command = strings_at(member(json, report_field::k_baseline), report_field::k_command);
  report.candidate_command = strings_at(member(json, report_field::k_candidate), report_field::k_command);
  report.programs = programs_from_json(member(json, report_field::k_programs));
  report.suite = suite_from_json(member(json, report_field::k_benchmarks));
  report.environment = environment_from_json(member(json, report_field::k_environment));
  report.pinning = pinning_from_json(member(json, report_field::k_pinning));
  for (auto& text : strings_at(json, report_field::k_duel_notes)) {
    report.duel_notes.push_back({NoteWeight::key, std::move(text)});
  }
  report.notes = strings_at(json, report_field::k_notes);
  report.explain_seconds = number_at(json, report_field::k_explain_seconds).value_or(0.0);
  for (const auto& item : items_at(json, report_field::k_explanations)) {
    report.explanations.push_back(explanation_from_json(item));
  }
  const auto& metrics = member(json, report_field::k_metrics);
  report.has_metrics = metrics.is_array();
  for (const auto& item : items_at(json, report_field::k_metrics)) {
    report.metrics.push_back(metric_from_json(item));
    report.value_names.push_back(report.metrics.back().name.value_or(""));
  }
  report.gate_settings = gate_settings_of(member(json, report_field::k_config));
  return report;
}

}  // namespace

SavedReport report_from_json_lenient(const Json& json) {
  SavedReport report = recorded_results(json);
  for (const auto& item : items_at(json, report_field::k_runs)) {
    if (auto run = run_from_json(item, report.value_names)) {
      report.runs.push_back(std::move(*run));
    }
  }
  return report;
}

nlohmann::ordered_json read_report_json(const std::filesystem::path& path) {
  const auto text = util::read_file(path);
  if (!text) {
    throw Error(fmt::format("{}: cannot read the report", path.string()));
  }
  // Ordered, so that the metrics keep the order they were measured and reported in.
  auto json = Json::parse(*text, nullptr, false);
  if (json.is_discarded()) {
    throw Error(fmt::format("{}: not valid JSON (write the report with `perfduel compare --json FILE`)",
                            path.string()));
  }
  return json;
}

namespace {

// The runs of `json`, strictly: each with a known side and every value of `config`'s metrics.
std::vector<RunRecord> runs_from_json(const Json& json, const Config& config, const std::string& origin) {
  std::vector<RunRecord> runs;
  for (const auto& item : json[report_field::k_runs]) {
    RunRecord run;
    try {
      run.round = item.at(report_field::k_round).get<int>();
      const auto side = item.at(report_field::k_side).get<std::string>();
      const auto known_side = util::value_of(k_side_names, side);
      if (!known_side) {
        throw Error(fmt::format("{}: run {} has an unknown \"side\" \"{}\" (one of {})", origin,
                                runs.size() + 1, side, util::names_of(k_side_names)));
      }
      run.side = *known_side;
      run.warmup = item.at(report_field::k_warmup).get<bool>();
      run.cpu = item.value(report_field::k_cpu, -1);
      run.alone = item.value(report_field::k_alone, false);
      for (const auto& metric : config.metrics) {
        run.values.push_back(item.at(report_field::k_values).at(metric.name).get<double>());
      }
    } catch (const nlohmann::json::exception& e) {
      throw Error(fmt::format("{}: run {} is malformed: {}", origin, runs.size() + 1, e.what()));
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

SavedReport read_report(const Json& json, const std::string& origin) {
  if (!json.is_object()) {
    throw Error(fmt::format("{}: not a JSON report (is it the file written by compare --json?)", origin));
  }
  for (const char* key : {report_field::k_config, report_field::k_runs}) {
    if (!json.contains(key)) {
      throw Error(fmt::format("{}: the report has no \"{}\"; it was not written by perfduel compare --json",
                              origin, key));
    }
  }
  SavedReport report = recorded_results(json);
  // The config section uses the YAML file's keys, and JSON is YAML, so the one parser reads both.
  report.config = parse_config(json[report_field::k_config].dump(), origin + " (config)");
  if (!util::value_of(k_duel_end_names, report.end_name)) {
    throw Error(fmt::format("{}: unknown \"end\" \"{}\" (one of {})", origin, report.end_name,
                            util::names_of(k_duel_end_names)));
  }
  if (const auto compared = string_at(member(json, report_field::k_programs), report_field::k_compared);
      compared && !util::value_of(k_programs_compared_names, *compared)) {
    throw Error(fmt::format("{}: unknown \"programs\" \"compared\" \"{}\" (one of {})", origin, *compared,
                            util::names_of(k_programs_compared_names)));
  }
  report.runs = runs_from_json(json, report.config, origin);
  report.value_names.clear();
  for (const auto& metric : report.config.metrics) {
    report.value_names.push_back(metric.name);
  }
  return report;
}

}  // namespace

SavedReport report_from_json_strict(const Json& json, const std::string& origin) {
  try {
    return read_report(json, origin);
  } catch (const nlohmann::json::exception& e) {
    // A section of the wrong type, e.g. "runs": {"new": "x"}.
    throw Error(fmt::format("{}: the report is malformed: {}", origin, e.what()));
  }
}

SavedReport load_report_strict(const std::filesystem::path& path) {
  return report_from_json_strict(read_report_json(path), path.string());
}

SavedReport load_report_lenient(const std::filesystem::path& path) {
  return report_from_json_lenient(read_report_json(path));
}

double run_value(const SavedReport& report, const RunRecord& run, const std::string& metric) {
  for (std::size_t m = 0; m < report.value_names.size() && m < run.values.size(); ++m) {
    if (report.value_names[m] == metric) {
      return run.values[m];
    }
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace perfduel
