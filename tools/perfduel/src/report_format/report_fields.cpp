#include "report_format/report_fields.hpp"

#include <cmath>
#include <limits>

#include "config/names.hpp"
#include "duel/verdict.hpp"
#include "report_format/report_notes.hpp"

namespace perfduel::report_field {

namespace {

using Summary = const RunSummary&;
using Report = SavedReport&;
using ReportField = Field<RunSummary, SavedReport>;
using Metric = const MetricInReport&;
using MetricField = Field<MetricInReport, SavedMetric>;
using Result = const MetricResult&;
using Run = const NamedRun&;

Json interval_json(const stats::Interval& interval) {
  return Json::array({interval.lo, interval.hi});
}

// An interval as written, [lo, hi]; anything else leaves `target` empty.
bool read_interval(const Json& value, std::optional<stats::Interval>& target) {
  if (!value.is_array() || value.size() != 2 || !value[0].is_number() || !value[1].is_number()) {
    return false;
  }
  target = stats::Interval{value[0].get<double>(), value[1].get<double>()};
  return true;
}

// The sign sequence's evidence ("signs"), written when it settled the metric.
const FieldTable<MetricResult, SavedSigns> k_signs_fields{
    {"beyond", [](Result r) { return Json(r.signs_beyond); }, read_into(&SavedSigns::beyond)},
    {"rounds", [](Result r) { return Json(r.signs_rounds); }, read_into(&SavedSigns::rounds)},
    {"by_more_than", [](Result r) { return Json(signs_bound(r.spec)); },
     read_into(&SavedSigns::by_more_than)},
    {"shown_instead_of_interval", [](Result r) { return Json(shows_signs(r)); },
     read_into(&SavedSigns::shown_instead_of_interval)},
};

// Order duet: the higher-numbered CPU of the pair against the other, on the same program.
const FieldTable<MetricResult> k_cpu_effect_fields{
    {"change", [](Result r) { return Json(r.cpu_effect.value_or(0.0)); }},
    {"ci", [](Result r) { return interval_json(r.cpu_effect_ci); }},
};

const FieldTable<MetricResult, SavedMetric> k_estimator_fields{
    {"name", [](Result r) { return Json(util::name_of(stats::k_estimator_names, r.estimator)); },
     read_into(&SavedMetric::estimator)},
    {"batch_size", [](Result r) { return Json(r.estimate.batch_size); }},
    {"batches", [](Result r) { return Json(r.estimate.batches); }},
    {"lag1", [](Result r) { return std::isfinite(r.estimate.lag1) ? Json(r.estimate.lag1) : Json(nullptr); }},
    {"p_value", [](Result r) { return Json(r.estimate.p_value); }},
    {"note", [](Result r) { return Json(r.estimate.note); }},
};

bool has_interval(const MetricResult& result) {
  return result.estimate.status == stats::EstimateStatus::ok;
}

// Each run with its values by metric name, enough for a re-analysis.
Json runs_json(const RunSummary& summary) {
  std::vector<std::string> names;
  names.reserve(summary.config->metrics.size());
  for (const auto& metric : summary.config->metrics) {
    names.push_back(metric.name);
  }
  auto runs = Json::array();
  for (const auto& run : summary.outcome->runs) {
    runs.push_back(write_fields(run_fields(), NamedRun{run, names}));
  }
  return runs;
}

Json metrics_json(const RunSummary& summary) {
  auto metrics = Json::array();
  for (const auto& result : summary.outcome->analysis.metrics) {
    metrics.push_back(write_fields(metric_fields(), MetricInReport{result, summary.environment}));
  }
  return metrics;
}

void read_metrics(const Json& value, SavedReport& report) {
  report.has_metrics = value.is_array();
  for (const auto& item : value.is_array() ? value : Json::array()) {
    report.metrics.push_back({});
    read_fields(metric_fields(), item, report.metrics.back());
    report.value_names.push_back(report.metrics.back().name.value_or(""));
  }
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

// A side's section: its command.
const FieldTable<std::vector<std::string>> k_command_fields{
    {"command", [](const std::vector<std::string>& argv) { return Json(argv); },
     [](const Json& value, std::vector<std::string>& argv) { return read_value(value, argv); }},
};

Json side_json(const std::optional<CommandSpec>& command) {
  return write_fields(k_command_fields, command ? command->argv : std::vector<std::string>{});
}

bool failed(const RunSummary& summary) {
  return !summary.outcome->failure.empty();
}

}  // namespace

const FieldTable<RunSummary, SavedReport> k_report_fields{
    {"perfduel_version", [](Summary) { return Json(PERFDUEL_VERSION); },
     read_into(&SavedReport::perfduel_version)},
    {"verdict", [](Summary s) { return Json(overall_verdict(*s.outcome)); },
     read_into(&SavedReport::verdict)},
    {"exit_code", [](Summary s) { return Json(to_int(s.exit_code)); }},
    omitted_unless(failed, ReportField{"error", [](Summary s) { return Json(s.outcome->failure); },
                                       read_into(&SavedReport::failure)}),
    omitted_unless(failed,
                   ReportField{"error_stderr", [](Summary s) { return Json(s.outcome->failure_stderr); }}),
    // The tail of the failing run's stdout, or where a metric was looked for and not found.
    omitted_unless([](Summary s) { return failed(s) && !s.outcome->failure_stdout.empty(); },
                   ReportField{"error_stdout", [](Summary s) { return Json(s.outcome->failure_stdout); }}),
    {"end", [](Summary s) { return Json(to_string(s.outcome->end)); },
     [](const Json& value, Report report) {
       if (read_value(value, report.end_name)) {  // an unknown one is kept by its name only
         report.end = util::value_of(k_duel_end_names, report.end_name).value_or(DuelEnd::decided);
       }
     }},
    // Failed runs whose round was discarded and played again (the config's "retries").
    {"retried", [](Summary s) { return Json(s.outcome->retried); }},
    {"left_behind", [](Summary s) { return Json(s.outcome->left_behind); }},
    {"started", [](Summary s) { return Json(s.started); }, read_into(&SavedReport::started)},
    {"elapsed_seconds", [](Summary s) { return Json(s.outcome->elapsed_seconds); },
     read_into(&SavedReport::elapsed_seconds)},
    {"measured_rounds", [](Summary s) { return Json(s.outcome->analysis.measured_rounds); },
     read_into(&SavedReport::measured_rounds)},
    {"seed", [](Summary s) { return Json(s.outcome->seed); }, read_into(&SavedReport::seed)},
    omitted_unless([](Summary s) { return s.reanalysis.has_value(); },
                   ReportField{"reanalysis", [](Summary s) { return write_value(s.reanalysis); }}),
    {"baseline", [](Summary s) { return side_json(s.config->baseline); },
     [](const Json& value, Report report) { read_fields(k_command_fields, value, report.baseline_command); }},
    {"candidate", [](Summary s) { return side_json(s.config->candidate); },
     [](const Json& value, Report report) {
       read_fields(k_command_fields, value, report.candidate_command);
     }},
    {"programs", [](Summary s) { return write_value(s.outcome->programs); },
     read_into(&SavedReport::programs)},
    {"metrics", metrics_json, read_metrics},
    {"explanations", [](Summary s) { return write_value(s.outcome->explanations); },
     read_into(&SavedReport::explanations)},
    {"explain_seconds", [](Summary s) { return Json(s.outcome->explain_seconds); },
     read_into(&SavedReport::explain_seconds)},
    {"notes", [](Summary s) { return Json(note_texts(duel_report_notes(s))); },
     read_into(&SavedReport::notes)},
    // Those the duel made, apart, for a re-analysis to repeat.
    {"duel_notes", [](Summary s) { return Json(note_texts(s.outcome->notes)); },
     [](const Json& value, Report report) {
       std::vector<std::string> texts;
       read_value(value, texts);
       for (auto& text : texts) {
         report.duel_notes.push_back({NoteWeight::key, std::move(text)});
       }
     }},
    // Benchmarks that a pattern found on one side only: not compared, listed by metric name.
    {"benchmarks", [](Summary s) { return write_value(s.outcome->suite); }, read_into(&SavedReport::suite)},
    {"config", [](Summary s) { return Json::parse(config_to_json(*s.config)); },
     [](const Json& value, Report report) { report.gate_settings = gate_settings_of(value); }},
    {"environment", [](Summary s) { return write_value(s.environment); },
     read_into(&SavedReport::environment)},
    {"pinning", [](Summary s) { return write_value(s.pinning); }, read_into(&SavedReport::pinning)},
    {"runs", runs_json},
};

const FieldTable<RunSummary, SavedReport>& report_fields() {
  return k_report_fields;
}

const FieldTable<MetricInReport, SavedMetric> k_metric_fields{
    {"name", [](Metric m) { return Json(m.result.spec.name); }, read_into(&SavedMetric::name)},
    {"unit", [](Metric m) { return Json(m.result.spec.unit); }, read_into(&SavedMetric::unit)},
    {"direction",
     [](Metric m) { return Json(util::name_of(stats::k_direction_names, m.result.spec.direction)); },
     read_into(&SavedMetric::direction)},
    {"gated", [](Metric m) { return Json(m.result.spec.gating == Gating::gated); },
     read_into(&SavedMetric::gated)},
    {"baseline_median", [](Metric m) { return Json(m.result.baseline_median); },
     read_into(&SavedMetric::baseline_median)},
    {"candidate_median", [](Metric m) { return Json(m.result.candidate_median); },
     read_into(&SavedMetric::candidate_median)},
    {"change",
     [](Metric m) {
       return has_interval(m.result) || m.result.estimate.status == stats::EstimateStatus::unstable
                  ? Json(m.result.change)
                  : Json(nullptr);
     },
     read_into(&SavedMetric::change)},
    {"ci", [](Metric m) { return has_interval(m.result) ? interval_json(m.result.ci) : Json(nullptr); },
     [](const Json& value, SavedMetric& metric) { return read_interval(value, metric.ci); }},
    {"confidence", [](Metric m) { return Json(m.result.confidence); }, read_into(&SavedMetric::confidence)},
    // No change shown without Bonferroni.
    {"inside_band_uncorrected", [](Metric m) { return Json(m.result.equivalence); }},
    {"threshold", [](Metric m) { return Json(m.result.spec.threshold); }, read_into(&SavedMetric::threshold)},
    {"tolerance", [](Metric m) { return Json(m.result.spec.tolerance); }, read_into(&SavedMetric::tolerance)},
    {"verdict", [](Metric m) { return Json(to_string(m.result.verdict)); }, read_into(&SavedMetric::verdict)},
    // Worse than its threshold, not shown (yet).
    {"likely_regression", [](Metric m) { return Json(m.result.likely_regression); },
     read_into(&SavedMetric::likely_regression)},
    // Not the programs' memory: a note, not a row.
    omitted_unless([](Metric m) { return at_driver_floor(m.result, m.environment); },
                   MetricField{"at_driver_floor", [](Metric) { return Json(true); },
                               read_into(&SavedMetric::at_driver_floor)}),
    {"settled_by",
     [](Metric m) {
       return m.result.settled_by == SettledBy::none
                  ? Json(nullptr)
                  : Json(std::string(util::name_of(k_settled_by_names, m.result.settled_by)));
     },
     read_into(&SavedMetric::settled_by)},
    // A count from or to 0: the side that read 0 (no change or interval; a verdict all the same).
    omitted_unless(
        [](Metric m) { return m.result.zero_side.has_value(); },
        MetricField{
            "read_zero",
            [](Metric m) { return Json(std::string(util::name_of(k_side_names, *m.result.zero_side))); },
            [](const Json& value, SavedMetric& metric) {
              metric.read_zero =
                  util::value_of(k_side_names, value.is_string() ? value.get<std::string>() : std::string());
              return metric.read_zero.has_value();
            }}),
    {"stopping_width",
     [](Metric m) {
       return std::isfinite(m.result.stopping_width) ? Json(m.result.stopping_width) : Json(nullptr);
     }},
    {"sequence",
     [](Metric m) { return m.result.sequence ? interval_json(*m.result.sequence) : Json(nullptr); }},
    {"signs",
     [](Metric m) {
       return m.result.settled_by == SettledBy::signs ? write_fields(k_signs_fields, m.result)
                                                      : Json(nullptr);
     },
     [](const Json& value, SavedMetric& metric) {
       if (value.is_object()) {
         read_fields(k_signs_fields, value, metric.signs.emplace());
       }
     }},
    {"rounds", [](Metric m) { return Json(m.result.estimate.rounds); }, read_into(&SavedMetric::rounds)},
    omitted_unless(
        [](Metric m) { return m.result.cpu_effect.has_value(); },
        MetricField{"cpu_effect", [](Metric m) { return write_fields(k_cpu_effect_fields, m.result); }}),
    {"estimator", [](Metric m) { return write_fields(k_estimator_fields, m.result); },
     [](const Json& value, SavedMetric& metric) { read_fields(k_estimator_fields, value, metric); }},
};

const FieldTable<MetricInReport, SavedMetric>& metric_fields() {
  return k_metric_fields;
}

const FieldTable<NamedRun> k_run_fields{
    member("round", &NamedRun::run, &RunRecord::round, Need::key),
    named("side", &NamedRun::run, &RunRecord::side, k_side_names, std::nullopt, Need::key),
    member("warmup", &NamedRun::run, &RunRecord::warmup, Need::required),
    // Order duet: the assignment, which the analysis needs again.
    omitted_unless([](Run named) { return named.run.cpu >= 0; },
                   member("cpu", &NamedRun::run, &RunRecord::cpu)),
    omitted_unless([](Run named) { return named.run.alone; },
                   member("alone", &NamedRun::run, &RunRecord::alone)),
    // By metric name; a value a run lacks reads as NaN, or fails the strict reader.
    {"values",
     [](Run named) {
       Json values;
       for (std::size_t m = 0; m < named.names.size() && m < named.run.values.size(); ++m) {
         values[named.names[m]] = named.run.values[m];
       }
       return values;
     },
     [](const Json& value, NamedRun& named) {
       for (const auto& name : named.names) {
         double read = std::numeric_limits<double>::quiet_NaN();
         read_value(member_of(value, name.c_str()), read);
         named.run.values.push_back(read);
       }
     },
     [](const Json& value, NamedRun& named) {
       for (const auto& name : named.names) {
         named.run.values.push_back(value.at(name).get<double>());
       }
     },
     Need::required},
};

const FieldTable<NamedRun>& run_fields() {
  return k_run_fields;
}

const FieldTable<Environment> k_environment_fields{
    member("host", &Environment::host),
    member("cpu_model", &Environment::cpu_model),
    member("cpu_count", &Environment::cpu_count),
    member("kernel", &Environment::kernel),
    member("kernel_release", &Environment::kernel_release),
    member("machine", &Environment::machine),
    member("machine_id", &Environment::machine_id),
    member("load", &Environment::load),
    member("governor", &Environment::governor),
    member("driver_peak_rss_bytes", &Environment::driver_peak_rss_bytes),
};

const FieldTable<Environment>& Table<Environment>::fields() {
  return k_environment_fields;
}

const FieldTable<Pinning> k_pinning_fields{
    member("cpus", &Pinning::cpus),
    named("source", &Pinning::source, k_pinning_source_names),
    member("reason", &Pinning::reason),
    member("warmup_parallelism", &Pinning::parallelism),
};

const FieldTable<Pinning>& Table<Pinning>::fields() {
  return k_pinning_fields;
}

const FieldTable<SuiteChanges> k_suite_changes_fields{
    member("new", &SuiteChanges::added),
    member("removed", &SuiteChanges::removed),
    member("unmeasurable", &SuiteChanges::unmeasurable),
    member("uncountable", &SuiteChanges::uncountable),
};

const FieldTable<SuiteChanges>& Table<SuiteChanges>::fields() {
  return k_suite_changes_fields;
}

const FieldTable<Reanalysis> k_reanalysis_fields{
    member("of", &Reanalysis::report),
    member("settings_from", &Reanalysis::settings),
    member("changed", &Reanalysis::changes),
    member("ignored", &Reanalysis::ignored),
};

const FieldTable<Reanalysis>& Table<Reanalysis>::fields() {
  return k_reanalysis_fields;
}

const FieldTable<FingerprintedFile> k_fingerprinted_file_fields{
    named("role", &FingerprintedFile::role, k_file_role_names, FileRole::argument),
    member("name", &FingerprintedFile::name),
    member("path", &FingerprintedFile::path),
    member("sha256", &FingerprintedFile::sha256),
};

const FieldTable<FingerprintedFile>& Table<FingerprintedFile>::fields() {
  return k_fingerprinted_file_fields;
}

const FieldTable<ProgramFingerprint> k_program_fingerprint_fields{
    member("sha256", &ProgramFingerprint::sha256),
    member("files", &ProgramFingerprint::files),
};

const FieldTable<ProgramFingerprint>& Table<ProgramFingerprint>::fields() {
  return k_program_fingerprint_fields;
}

// What the two sides were found to run before the warm-up (duel/programs.hpp): whether they were
// identical, why not (or why not fingerprinted), and per side its fingerprint and the files in it.
// An unknown "compared" is left as it was (report_from_json_strict rejects it).
const FieldTable<ProgramComparison> k_program_comparison_fields{
    named("compared", &ProgramComparison::result, k_programs_compared_names),
    member("reason", &ProgramComparison::reason),
    member("baseline", &ProgramComparison::baseline),
    member("candidate", &ProgramComparison::candidate),
};

const FieldTable<ProgramComparison>& Table<ProgramComparison>::fields() {
  return k_program_comparison_fields;
}

}  // namespace perfduel::report_field
