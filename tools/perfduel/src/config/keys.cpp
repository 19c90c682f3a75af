#include "config/keys.hpp"

#include <array>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "config/names.hpp"
#include "config/value_kinds.hpp"
#include "config/yaml_reader.hpp"
#include "util/text.hpp"

namespace perfduel::config {

namespace {

using kinds::boolean;
using kinds::choice;
using kinds::copy_member;
using kinds::duration;
using kinds::fraction;
using kinds::number;
using kinds::operations;
using kinds::same_member;
using kinds::text;
using kinds::whole;

// The widest tolerance: 1000 %, as the widest threshold (a lower-is-better metric only above
// 100 %, see check_tolerance_direction in config/parse.cpp).
constexpr double k_max_tolerance = 10.0;

// `value` with the rule `check` beyond its range.
template <typename Target>
constexpr Value<Target> checked(Value<Target> value, std::optional<std::string> (*check)(const Target&)) {
  value.check = check;
  return value;
}

// `value` read by `read` (which checks what the kind alone does not).
template <typename Target>
constexpr Value<Target> read_by(Value<Target> value, decltype(Value<Target>::read) read) {
  value.read = read;
  return value;
}

// `value` written by `write`; null when another key writes it.
template <typename Target>
constexpr Value<Target> written_by(Value<Target> value, decltype(Value<Target>::write) write) {
  value.write = write;
  return value;
}

// --- Top-level values that need more than their kind -----------------------------------------

std::optional<std::string> positive_timeout(const Config& config) {
  if (config.run_timeout <= 0) {
    return "\"timeout\" must be positive";
  }
  return std::nullopt;
}

std::optional<std::string> retries_at_most_max(const Config& config) {
  if (config.retries > k_max_retries) {
    return fmt::format(
        "\"retries\" must be at most {} (a benchmark that fails more often is broken, not "
        "flaky), not {}",
        k_max_retries, config.retries);
  }
  return std::nullopt;
}

// `cpus`: auto, none, or a list of CPUs written as a YAML list or as text ("0-3,6").
void read_cpus(const Value<Config>& /*self*/, const Reader& reader, const YAML::Node& node,
               const std::string& key, Config& config) {
  std::string text;
  if (node.IsSequence()) {
    for (const auto& cpu : node) {
      text += (text.empty() ? "" : ",") + reader.scalar(cpu, key);
    }
  } else {
    text = reader.scalar(node, key);
  }
  if (text == "auto" && !node.IsSequence()) {
    config.cpu_mode = CpuMode::automatic;
  } else if ((text == "none" && !node.IsSequence()) || (text.empty() && node.IsSequence())) {
    config.cpu_mode = CpuMode::none;  // an empty list, as before "none" existed, means no pinning
  } else {
    config.cpu_mode = CpuMode::list;
    config.cpus = reader.unwrap(node, key, util::parse_cpu_list(text));
  }
}

// The CPUs matter only as a list: with auto or none, `cpus` is the set the runs started on.
bool same_cpus(const Config& a, const Config& b) {
  return a.cpu_mode == b.cpu_mode && (a.cpu_mode != CpuMode::list || a.cpus == b.cpus);
}

// The words of the CPU modes that are not a list, as `cpus:` takes them.
constexpr util::NameTable<CpuMode, 2> k_cpu_mode_words{
    {{CpuMode::automatic, "auto"}, {CpuMode::none, "none"}}};

std::string cpus_text(const Value<Config>& /*self*/, const Config& config) {
  if (config.cpu_mode == CpuMode::list) {
    return fmt::format("{}", fmt::join(config.cpus, ","));
  }
  return std::string(util::name_of(k_cpu_mode_words, config.cpu_mode));
}

void write_cpus(const Config& config, const std::string& key, nlohmann::ordered_json& json) {
  if (config.cpu_mode == CpuMode::list) {
    json[key] = config.cpus;
  } else {
    json[key] = util::name_of(k_cpu_mode_words, config.cpu_mode);
  }
}

void copy_cpus(const Config& from, Config& to) {
  to.cpu_mode = from.cpu_mode;
  to.cpus = from.cpus;
}

constexpr auto k_cpus = operations<Config>(read_cpus, same_cpus, cpus_text, write_cpus, copy_cpus);

// `seed`: digits only, since std::stoull would read "-1" as 2^64 - 1 and skip leading blanks.
void read_seed(const Value<Config>& /*self*/, const Reader& reader, const YAML::Node& node,
               const std::string& key, Config& config) {
  const auto text = reader.scalar(node, key);
  try {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
      throw std::invalid_argument(text);
    }
    config.seed = std::stoull(text);
  } catch (const std::exception&) {
    reader.fail(node, fmt::format("\"{}\" must be a non-negative whole number, not \"{}\"", key, text));
  }
}

std::string seed_text(const Value<Config>& /*self*/, const Config& config) {
  return config.seed ? std::to_string(*config.seed) : "no seed";
}

void write_seed(const Config& config, const std::string& key, nlohmann::ordered_json& json) {
  if (config.seed) {
    json[key] = *config.seed;
  }
}

constexpr auto k_seed = operations<Config>(read_seed, same_member<&Config::seed>, seed_text, write_seed,
                                           copy_member<&Config::seed>);

// --- Metric values that need more than their kind ---------------------------------------------

void read_gate(const Value<MetricSpec>& /*self*/, const Reader& reader, const YAML::Node& node,
               const std::string& key, MetricSpec& metric) {
  metric.gating = reader.boolean(node, key) ? Gating::gated : Gating::report_only;
}

std::string gate_text(const Value<MetricSpec>& /*self*/, const MetricSpec& metric) {
  return metric.gating == Gating::gated ? "true" : "false";
}

void write_gate(const MetricSpec& metric, const std::string& key, nlohmann::ordered_json& json) {
  json[key] = metric.gating == Gating::gated;
}

constexpr auto k_gate = operations<MetricSpec>(read_gate, same_member<&MetricSpec::gating>, gate_text,
                                               write_gate, copy_member<&MetricSpec::gating>);

void write_unit(const MetricSpec& metric, const std::string& key, nlohmann::ordered_json& json) {
  if (!metric.unit.empty()) {
    json[key] = metric.unit;
  }
}

bool suite_source(const MetricSpec& metric) {
  return metric.source == MetricSource::google_benchmark || metric.source == MetricSource::catch2 ||
         metric.framework != BenchmarkFramework::none;
}

// Fails unless `metric` reads a suite's benchmark (Google Benchmark, Catch2): `key` applies to
// those only.
void require_suite_source(const Reader& reader, const YAML::Node& node, const std::string& key,
                          const MetricSpec& metric) {
  if (!suite_source(metric)) {
    reader.fail(node, fmt::format("\"{}\" only applies with \"google_benchmark\" or \"catch2\"", key));
  }
}

// `field` of a suite's benchmark: any of Google Benchmark's, the mean of Catch2's.
void read_field(const Value<MetricSpec>& /*self*/, const Reader& reader, const YAML::Node& node,
                const std::string& key, MetricSpec& metric) {
  require_suite_source(reader, node, key, metric);
  if (metric.framework != BenchmarkFramework::none) {
    reader.fail(node, "\"field\" does not apply to a benchmark counted by valgrind (it reads the count)");
  }
  metric.field = reader.scalar(node, key);
  if (metric.source == MetricSource::catch2 && metric.field != "mean") {
    reader.fail(node, fmt::format("\"field\" of a Catch2 benchmark must be mean, not \"{}\"", metric.field));
  }
}

void read_missing(const Value<MetricSpec>& /*self*/, const Reader& reader, const YAML::Node& node,
                  const std::string& key, MetricSpec& metric) {
  require_suite_source(reader, node, key, metric);
  metric.missing = reader.choice(node, key, k_missing_names);
}

// Only a pattern's, and only when not the default: an expanded metric has no more use for it.
void write_missing(const MetricSpec& metric, const std::string& key, nlohmann::ordered_json& json) {
  if (is_benchmark_pattern(metric) && metric.missing == MissingBenchmark::error) {
    json[key] = "error";
  }
}

void read_repetitions(const Value<MetricSpec>& /*self*/, const Reader& reader, const YAML::Node& node,
                      const std::string& key, MetricSpec& metric) {
  require_suite_source(reader, node, key, metric);
  if (metric.framework != BenchmarkFramework::none) {
    reader.fail(node,
                "\"repetitions\" does not apply to a benchmark counted by valgrind (a count does not vary)");
  }
  metric.repetitions = reader.choice(node, key, k_repetitions_names);
}

// Only when not the default, which a metric of another source could not read back.
void write_repetitions(const MetricSpec& metric, const std::string& key, nlohmann::ordered_json& json) {
  if (metric.repetitions != Repetitions::median) {
    json[key] = util::name_of(k_repetitions_names, metric.repetitions);
  }
}

void read_zeros(const Value<MetricSpec>& /*self*/, const Reader& reader, const YAML::Node& node,
                const std::string& key, MetricSpec& metric) {
  metric.zeros = reader.choice(node, key, k_zeros_names);
}

// As it applies: set, or by source.
std::string zeros_text(const Value<MetricSpec>& /*self*/, const MetricSpec& metric) {
  return zeros_allowed(metric) ? "allowed" : "error";
}

void write_zeros(const MetricSpec& metric, const std::string& key, nlohmann::ordered_json& json) {
  if (metric.zeros) {
    json[key] = util::name_of(k_zeros_names, *metric.zeros);
  }
}

constexpr auto k_zeros = operations<MetricSpec>(read_zeros, same_member<&MetricSpec::zeros>, zeros_text,
                                                write_zeros, copy_member<&MetricSpec::zeros>);

// --- The tables ------------------------------------------------------------------------------

using enum Reanalysis;

// One row per key: its name, what a re-analysis does with it, its default as the template
// writes it, one line of help and its Value: the kind of value, the member it sets and its range
// (none for a structural key). The order is that of config_to_json and of the key suggestions.
constexpr auto k_top_level = std::to_array<Key<Config>>({
    {"baseline", made_the_runs, "", "the program as it was: a command line, a list of words, or a mapping"},
    {"candidate", made_the_runs, "", "the program as it is now, written as baseline"},
    {"metrics", made_the_runs, "", "settings per metric, and the metrics read from the program's output"},
    {"confidence", decides, "95%", "family-wise: with m gated metrics each interval is at 1 − α/m",
     fraction<&Config::confidence>(0.5, 0.9999)},
    {"warmup", made_the_runs, "1", "rounds run first and thrown away",
     whole<&Config::warmup>(0, "warm-up rounds")},
    {"detect_warmup", decides, "false", "also drop an unstable initial phase found as a change point",
     boolean<&Config::detect_warmup>()},
    {"min_rounds", decides, "20", "never stop before this many measured rounds",
     whole<&Config::min_rounds>(2)},
    {"max_rounds", budget, "2000", "at most this many measured rounds", whole<&Config::max_rounds>(2)},
    {"max_seconds", budget, "9m", "at most this long measuring", duration<&Config::max_seconds>()},
    {"timeout", budget, "60s", "per run; a run that takes longer is killed",
     checked(duration<&Config::run_timeout>(), positive_timeout)},
    {"retries", budget, "0", "failed runs tolerated in one duel, each round played again",
     checked(whole<&Config::retries>(0), retries_at_most_max)},
    {"cpus", made_the_runs, "auto", "the CPUs both sides run on: auto, none, or a list (2-3, 1,3)", k_cpus},
    {"order", made_the_runs, "random", "who runs first in a round: random, abba, duet or duet-fixed",
     choice<&Config::order, k_order_names>()},
    {"env_padding", made_the_runs, "true", "a random-length PERFDUEL_PAD in each run's environment",
     boolean<&Config::env_padding>()},
    {"identical_programs", made_the_runs, "skip",
     "identical programs (executable, libraries, files the arguments name): skip (no change) or measure",
     choice<&Config::identical_programs, k_identical_programs_names>()},
    {"seed", made_the_runs, "", "the seed of every random choice; default: drawn and reported", k_seed},
    {"stopping", decides, "hybrid", "when a metric is settled: hybrid, width or anytime",
     choice<&Config::stopping, k_stopping_names>()},
    {"correction", decides, "bonferroni", "for several gated metrics: bonferroni or holm",
     choice<&Config::correction, k_correction_names>()},
    {"inconclusive", decides, "skip", "the exit code of an undecided gate: skip (77), fail (1) or pass (0)",
     choice<&Config::on_inconclusive, k_inconclusive_names>()},
    {"explain", made_the_runs, "failures",
     "profile a regressed timed metric by one counted run a side (valgrind): failures, always or off",
     choice<&Config::explain, k_explain_names>()},
    {"autocorrelation_limit", decides, "0.1", "|lag-1 autocorrelation| above this batches rounds (1: off)",
     number<&Config::autocorrelation_limit>(0.0, 1.0)},
    {"min_batches", decides, "20", "batching never goes below this many batches",
     whole<&Config::min_batches>(2)},
    {"best_of", decides, "3", "estimator min: the best k runs of each batch", whole<&Config::min_best_of>(1)},
    {"stability_limit", decides, "2%", "estimator min: how far the two halves of the data may differ",
     fraction<&Config::stability_limit>(0.0, 10.0)},
});

constexpr auto k_command = std::to_array<Key<CommandSpec>>({
    {"command", made_the_runs, "", "a command line (split as a shell would) or a list of words"},
    {"shell", made_the_runs, "", "true: run command with /bin/sh -c"},
    {"working_directory", made_the_runs, "", "where the command runs; default: the current directory"},
    {"env", made_the_runs, "", "variables added to the inherited environment"},
});

constexpr auto k_metric = std::to_array<Key<MetricSpec>>({
    {"threshold", decides, "2%", "target width of the interval of the change",
     fraction<&MetricSpec::threshold>(1e-6, 10.0)},
    {"tolerance", decides, "1%", "changes within ±tolerance are no change; default: half the threshold",
     fraction<&MetricSpec::tolerance>(0.0, k_max_tolerance)},
    {"gate", decides, "true", "false: reported, never fails the gate", k_gate},
    {"direction", decides, "lower", "which is better: lower or higher",
     choice<&MetricSpec::direction, stats::k_direction_names>()},
    {"estimator", decides, "mean", "mean, trimmed, median, min or ratio",
     choice<&MetricSpec::estimator, stats::k_estimator_names>()},
    {"unit", decides, "\"\"", "for display; Google Benchmark's fields and the built-ins have theirs",
     written_by(text<&MetricSpec::unit>(), write_unit)},
    {"regex", made_the_runs, "", "source: the first capture group of a regex over stdout"},
    {"json_pointer", made_the_runs, "", "source: a number at a JSON pointer in stdout"},
    {"google_benchmark", made_the_runs, "", "source: a benchmark (or pattern) of Google Benchmark's JSON"},
    {"catch2", made_the_runs, "", "source: the mean of a BENCHMARK (or pattern) of a Catch2 XML report"},
    {"counter", made_the_runs, "", "source: a hardware counter over the timed run"},
    {"valgrind", made_the_runs, "",
     "source: instructions or cycles counted by Valgrind (with google_benchmark: per benchmark)"},
    {"heap", made_the_runs, "",
     "source: the whole run's heap, counted natively: allocations, allocated_bytes or peak"},
    {"field", made_the_runs, "real_time",
     "the field of a Google Benchmark (a time or a counter) or Catch2 (mean)",
     written_by(read_by(text<&MetricSpec::field>(), read_field), nullptr)},
    {"missing", expansion, "report", "a pattern's benchmark on one side only: report or error",
     written_by(read_by(choice<&MetricSpec::missing, k_missing_names>(), read_missing), write_missing)},
    {"repetitions", made_the_runs, "median",
     "how a run's repetitions of a benchmark combine: median, or best (for noise that only slows)",
     written_by(read_by(choice<&MetricSpec::repetitions, k_repetitions_names>(), read_repetitions),
                write_repetitions)},
    {"zeros", decides, "", "a reading of 0: allowed or error; default: by source", k_zeros},
});

}  // namespace

std::span<const Key<Config>> top_level_keys() {
  return k_top_level;
}

std::span<const Key<CommandSpec>> command_keys() {
  return k_command;
}

std::span<const Key<MetricSpec>> metric_keys() {
  return k_metric;
}

template <typename Target>
void read_key(const Key<Target>& key, const Reader& reader, const YAML::Node& node, Target& target) {
  key.value.read(key.value, reader, node, std::string(key.name), target);
  if (key.value.check) {
    if (const auto message = key.value.check(target)) {
      reader.fail(node, *message);
    }
  }
}

template void read_key(const Key<Config>&, const Reader&, const YAML::Node&, Config&);
template void read_key(const Key<MetricSpec>&, const Reader&, const YAML::Node&, MetricSpec&);

}  // namespace perfduel::config
