#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

// Google Benchmark's JSON output (--benchmark_format=json), read once into a typed list for
// every user of it: the metrics read from it, the names a pattern matches, the counts of a suite
// run one benchmark at a time. As run/catch2_results is for Catch2's XML.
namespace perfduel {

// One entry of the "benchmarks" array: a run of a benchmark, or an aggregate of its repetitions.
struct GbenchEntry {
  std::string name;
  // "iteration" (a run; older versions write no run_type) or "aggregate" (BM_x_mean, ...).
  std::string run_type = "iteration";
  bool error_occurred = false;  // the benchmark called State::SkipWithError
  std::string error_message;
  std::string time_unit = "ns";  // of real_time and cpu_time
  // Every numeric field by name: real_time, cpu_time, iterations, threads, the counters.
  std::map<std::string, double> numbers;
  // The entry as written, for an output that gathers the entries of several runs.
  nlohmann::json json;

  // Whether the entry is an aggregate of repetitions (never a metric's reading).
  bool is_aggregate() const { return run_type == "aggregate"; }
  // Seconds per `time_unit` (ns, us, ms, s); nothing for another.
  std::optional<double> seconds_per_time_unit() const;
};

// The entries of one output, in order, and its "context" (null when it has none).
struct GbenchResults {
  std::vector<GbenchEntry> entries;
  nlohmann::json context;
};

// Why an output was not read: each caller words it for its user.
enum class GbenchFault { none, not_json, no_benchmarks, malformed };

// What read_gbench_results found: the `results`, or the `fault` and an `error` saying what is
// wrong (for `malformed`, which entry and field; then `results` is empty).
struct GbenchReading {
  GbenchFault fault = GbenchFault::none;
  std::string error;
  GbenchResults results;
};

// The results in `output`, the stdout of a Google Benchmark program run with
// --benchmark_format=json. An output that is JSON with no "benchmarks" array is no_benchmarks;
// an entry that is no object, or a name, run_type, error_occurred, error_message or time_unit
// of the wrong type, is malformed.
GbenchReading read_gbench_results(std::string_view output);

// As read_gbench_results, of an output already parsed as `document` (a discarded one is
// not_json).
GbenchReading read_gbench_document(const nlohmann::json& document);

}  // namespace perfduel
