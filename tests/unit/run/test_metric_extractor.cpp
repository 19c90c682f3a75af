#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "run/benchmark_names.hpp"
#include "run/gbench_results.hpp"
#include "run/metric_extractor.hpp"

using namespace perfduel;

namespace {

// Real output of tests/programs/gbench_sample (Debian's libbenchmark 1.7.1), captured once
// with --benchmark_format=json, and again with --benchmark_repetitions=3.
std::string gbench_output(const std::string& file) {
  std::ifstream in(std::string(PERFDUEL_TEST_DATA_DIR) + "/gbench/" + file);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

MetricSpec regex_metric(const std::string& name, const std::string& pattern) {
  MetricSpec spec;
  spec.name = name;
  spec.source = MetricSource::regex;
  spec.pattern = pattern;
  return spec;
}

MetricSpec pointer_metric(const std::string& name, const std::string& pointer) {
  MetricSpec spec;
  spec.name = name;
  spec.source = MetricSource::json_pointer;
  spec.pattern = pointer;
  return spec;
}

MetricSpec gbench_metric(const std::string& name, const std::string& benchmark, const std::string& field) {
  MetricSpec spec;
  spec.name = name;
  spec.source = MetricSource::google_benchmark;
  spec.benchmark = benchmark;
  spec.field = field;
  return spec;
}

RunResult run_with_output(std::string out) {
  RunResult run;
  run.status = RunStatus::exited;
  run.exit_code = 0;
  run.out = std::move(out);
  return run;
}

// The single value of `spec` for a run that printed `out`, or the error.
util::Expected<double> extract_one(const MetricSpec& spec, const std::string& out) {
  const std::vector<MetricSpec> specs{spec};
  const MetricExtractor extractor(specs);
  auto values = extractor.extract(run_with_output(out));
  if (!values) {
    return util::Expected<double>::failure(values.error());
  }
  REQUIRE(values->size() == 1);
  return values->front();
}

}  // namespace

TEST_CASE("built-in metrics come from the run's clock and rusage", "[metrics]") {
  const Config config = default_config();
  const MetricExtractor extractor(config.metrics);
  RunResult run = run_with_output("");
  run.wall_seconds = 1.25;
  run.user_seconds = 0.75;
  run.system_seconds = 0.125;
  run.max_rss_bytes = 4096;
  const auto values = extractor.extract(run);
  REQUIRE(values.ok());
  CHECK(*values == std::vector<double>{1.25, 0.75, 0.125, 4096});
}

TEST_CASE("values come out in the order of the metrics", "[metrics]") {
  std::vector<MetricSpec> specs{regex_metric("score", R"(score: (\d+))"), default_config().metrics[0],
                                regex_metric("items", R"(items=(\d+))")};
  const MetricExtractor extractor(specs);
  RunResult run = run_with_output("items=7\nscore: 3\n");
  run.wall_seconds = 2.0;
  const auto values = extractor.extract(run);
  REQUIRE(values.ok());
  CHECK(*values == std::vector<double>{3, 2.0, 7});
}

TEST_CASE("a regex metric is the first capture group", "[metrics]") {
  const auto spec = regex_metric("score", R"(^score: ([0-9.e+-]+) ms$)");
  CHECK(*extract_one(spec, "warming up\nscore: 12.5 ms\nscore: 99 ms\n") == 12.5);  // first match wins
  CHECK(*extract_one(spec, "score: 1.5e-3 ms") == Approx(0.0015));
  CHECK(extract_one(spec, "total: 12 ms\n").error() ==
        R"(metric "score": no match for regex "^score: ([0-9.e+-]+) ms$" in the output)");
  CHECK(extract_one(spec, "").error() ==
        R"(metric "score": the run printed nothing on stdout, where the metric is read)");
  CHECK(extract_one(regex_metric("score", R"(score: (\S+))"), "score: fast\n").error() ==
        R"~(metric "score": regex "score: (\S+)" captured "fast", which is not a number)~");
}

TEST_CASE("a JSON pointer metric reads a number from the JSON output", "[metrics]") {
  const std::string out =
      R"({"results": [{"name": "a", "time": 0.5}, {"name": "b", "time": 2}], "label": "x"})";
  CHECK(*extract_one(pointer_metric("t", "/results/0/time"), out) == 0.5);
  CHECK(*extract_one(pointer_metric("t", "/results/1/time"), out) == 2.0);
  CHECK(extract_one(pointer_metric("t", "/results/2/time"), out).error() ==
        R"(metric "t": the JSON output has nothing at /results/2/time)");
  CHECK(extract_one(pointer_metric("t", "/results/0/speed"), out).error() ==
        R"(metric "t": the JSON output has nothing at /results/0/speed)");
  CHECK(extract_one(pointer_metric("t", "/results/first/time"), out).error() ==
        R"(metric "t": the JSON output has nothing at /results/first/time)");
  CHECK(extract_one(pointer_metric("t", "/label/time"), out).error() ==
        R"(metric "t": the JSON output has nothing at /label/time)");
  CHECK(extract_one(pointer_metric("t", "/label"), out).error() ==
        R"(metric "t": the JSON output has "x" at /label, not a number)");
  CHECK(extract_one(pointer_metric("t", "/results/0/time"), "time: 0.5\n").error() ==
        R"(metric "t": stdout is not valid JSON (starts with "time: 0.5"))");
}

TEST_CASE("stdout is parsed as JSON once for several metrics", "[metrics]") {
  const std::vector<MetricSpec> specs{pointer_metric("a", "/a"), pointer_metric("b", "/b"),
                                      gbench_metric("sum", "BM_sum/1024", "widgets")};
  const MetricExtractor extractor(specs);
  auto out = gbench_output("sample.json");
  out.insert(out.find('{') + 1, R"("a": 1, "b": 2.5,)");
  const auto values = extractor.extract(run_with_output(out));
  REQUIRE(values.ok());
  CHECK(*values == std::vector<double>{1, 2.5, 42});
}

TEST_CASE("Google Benchmark times are converted to seconds per time_unit", "[metrics]") {
  const auto out = gbench_output("sample.json");
  // Values as written in sample.json: BM_sum/1024 in ns, BM_concat in us.
  CHECK(*extract_one(gbench_metric("sum", "BM_sum/1024", "real_time"), out) == Approx(2410.5669721685376e-9));
  CHECK(*extract_one(gbench_metric("sum", "BM_sum/1024", "cpu_time"), out) == Approx(355.08188793055143e-9));
  CHECK(*extract_one(gbench_metric("concat", "BM_concat", "real_time"), out) ==
        Approx(3.4229050570002073e-6));
  CHECK(*extract_one(gbench_metric("concat", "BM_concat", "cpu_time"), out) == Approx(0.4620922659999999e-6));
}

TEST_CASE("Google Benchmark time units ms and s are converted too", "[metrics]") {
  const std::string ms = R"({"benchmarks": [{"name": "BM_x", "run_type": "iteration", "real_time": 2.5,
                             "cpu_time": 2.0, "time_unit": "ms"}]})";
  const std::string s = R"({"benchmarks": [{"name": "BM_x", "run_type": "iteration", "real_time": 2.5,
                            "cpu_time": 2.0, "time_unit": "s"}]})";
  CHECK(*extract_one(gbench_metric("x", "BM_x", "real_time"), ms) == Approx(2.5e-3));
  CHECK(*extract_one(gbench_metric("x", "BM_x", "cpu_time"), s) == Approx(2.0));
  // A time_unit this version does not know is an error, not a silent factor of 1.
  std::string minutes = s;
  minutes.replace(minutes.find("\"s\""), 3, "\"min\"");
  CHECK(extract_one(gbench_metric("x", "BM_x", "real_time"), minutes).error() ==
        R"(metric "x": benchmark "BM_x" has time_unit "min", expected ns, us, ms or s)");
}

TEST_CASE("a Google Benchmark counter is read as is", "[metrics]") {
  CHECK(*extract_one(gbench_metric("widgets", "BM_sum/1024", "widgets"), gbench_output("sample.json")) ==
        42.0);
  CHECK(*extract_one(gbench_metric("iterations", "BM_sum/1024", "iterations"),
                     gbench_output("sample.json")) == 1962890.0);
}

TEST_CASE("Google Benchmark repetitions give the median of the iteration entries", "[metrics]") {
  const auto out = gbench_output("sample_repetitions.json");
  // The three BM_sum/1024 repetitions have real_time 2647.9…, 2462.9…, 2592.72424099981 ns;
  // the _mean aggregate (2567.86 ns) and the other aggregates must not take part.
  CHECK(*extract_one(gbench_metric("sum", "BM_sum/1024", "real_time"), out) == Approx(2592.7242409998144e-9));
  // cpu_time: 368.107883, 349.68425, 351.320091 ns → 351.320091 ns.
  CHECK(*extract_one(gbench_metric("sum", "BM_sum/1024", "cpu_time"), out) == Approx(351.32009099999993e-9));
  // BM_concat (us): 3.5414896760003103, 3.788618653999947, 3.7518345470002714 → the last.
  CHECK(*extract_one(gbench_metric("concat", "BM_concat", "real_time"), out) ==
        Approx(3.7518345470002714e-6));
  // The counter has the same value in every repetition, and 0 in the stddev and cv aggregates.
  CHECK(*extract_one(gbench_metric("widgets", "BM_sum/1024", "widgets"), out) == 42.0);
}

TEST_CASE("repetitions: best gives the fastest repetition, by the metric's direction", "[metrics]") {
  const auto out = gbench_output("sample_repetitions.json");
  auto sum = gbench_metric("sum", "BM_sum/1024", "real_time");
  sum.repetitions = Repetitions::best;
  // real_time 2647.9…, 2462.9444500001227, 2592.7… ns: the least (the median is the third).
  CHECK(*extract_one(sum, out) == Approx(2462.9444500001227e-9));
  auto concat = gbench_metric("concat", "BM_concat", "real_time");
  concat.repetitions = Repetitions::best;
  CHECK(*extract_one(concat, out) == Approx(3.5414896760003103e-6));
  // A rate (higher is better): the greatest. Three repetitions of 10, 30 and 20 items/s.
  const std::string rates =
      R"({"benchmarks": [{"name": "BM_r", "run_type": "iteration", "items_per_second": 10},
                        {"name": "BM_r", "run_type": "iteration", "items_per_second": 30},
                        {"name": "BM_r", "run_type": "iteration", "items_per_second": 20}]})";
  auto rate = gbench_metric("r", "BM_r", "items_per_second");
  rate.direction = Direction::higher_is_better;
  CHECK(*extract_one(rate, rates) == 20.0);
  rate.repetitions = Repetitions::best;
  CHECK(*extract_one(rate, rates) == 30.0);
}

TEST_CASE("an unknown benchmark name lists the names found", "[metrics]") {
  CHECK(extract_one(gbench_metric("sum", "BM_summ", "real_time"), gbench_output("sample.json")).error() ==
        R"(metric "sum": no benchmark named "BM_summ" in the output (found: BM_sum/1024, BM_concat))");
}

TEST_CASE("Google Benchmark output problems are reported", "[metrics]") {
  const auto out = gbench_output("sample.json");
  CHECK(extract_one(gbench_metric("sum", "BM_sum/1024", "bytes_per_second"), out).error() ==
        R"(metric "sum": benchmark "BM_sum/1024" has no numeric field "bytes_per_second")");
  CHECK(extract_one(gbench_metric("sum", "BM_concat", "time_unit"), out).error() ==
        R"(metric "sum": benchmark "BM_concat" has no numeric field "time_unit")");
  CHECK(extract_one(gbench_metric("sum", "BM_sum/1024", "real_time"), R"({"results": []})").error() ==
        R"(metric "sum": the output is JSON but not Google Benchmark's (no "benchmarks" array); )"
        "pass --benchmark_format=json");
  const std::string failed =
      R"({"benchmarks": [{"name": "BM_x", "run_type": "iteration", "error_occurred": true,
                                 "error_message": "out of memory"}]})";
  CHECK(extract_one(gbench_metric("x", "BM_x", "real_time"), failed).error() ==
        R"(metric "x": benchmark "BM_x" reported an error: out of memory)");
}

TEST_CASE("non-JSON stdout is reported for Google Benchmark metrics", "[metrics]") {
  CHECK(extract_one(gbench_metric("sum", "BM_sum/1024", "real_time"),
                    "BM_sum/1024   2410 ns   355 ns   1990066 iterations\n")
            .error() ==
        R"(metric "sum": stdout is not valid JSON (starts with "BM_sum/1024   2410 ns   355 ns   1990066"); )"
        "pass --benchmark_format=json to the benchmark");
  // The console format's first line is a date; only that line is quoted.
  CHECK(extract_one(gbench_metric("sum", "BM_sum/1024", "real_time"),
                    "2026-11-21T10:00:00+00:00\nRunning ./bench\n")
            .error() ==
        R"(metric "sum": stdout is not valid JSON (starts with "2026-11-21T10:00:00+00:00"); )"
        "pass --benchmark_format=json to the benchmark");
  CHECK(extract_one(gbench_metric("sum", "BM_sum/1024", "real_time"), " \n").error() ==
        R"(metric "sum": the run printed nothing on stdout, where the metric is read)");
}

// Found by fuzzing (tests/fuzz/corpus/json_pointer_metric/empty_token_into_array.txt): the
// pointer "/" into an array made nlohmann's contains() throw, an internal error of perfduel.
TEST_CASE("a JSON pointer with a token that cannot index an array finds nothing", "[metrics]") {
  CHECK(extract_one(pointer_metric("t", "/"), "[\"a\", 740]").error() ==
        "metric \"t\": the JSON output has nothing at /");
  CHECK(extract_one(pointer_metric("t", "/x/"), "{\"x\": [1, 2]}").error() ==
        "metric \"t\": the JSON output has nothing at /x/");
  CHECK(*extract_one(pointer_metric("t", "/"), "{\"\": 4}") == 4.0);
}

// Found by fuzzing (tests/fuzz/corpus/google_benchmark/name_not_a_string.json): a field of the
// wrong type threw nlohmann's type_error out of the extractor, an internal error of perfduel.
TEST_CASE("Google Benchmark JSON with a field of the wrong type fails the metric", "[metrics]") {
  for (const char* out : {R"({"benchmarks": [{"name": 5, "real_time": 1}]})", R"({"benchmarks": [7]})",
                          R"({"benchmarks": [{"name": "BM_x", "error_occurred": "yes", "real_time": 1}]})"}) {
    const auto value = extract_one(gbench_metric("t", "BM_x", "real_time"), out);
    REQUIRE_FALSE(value);
    CHECK_THAT(value.error(), Catch::StartsWith("metric \"t\": the output is not Google Benchmark's JSON: "));
  }
}

// Google Benchmark's JSON read once into a typed list (run/gbench_results.hpp), which the
// metrics, the names a pattern matches and the per-benchmark counts all take.
TEST_CASE("Google Benchmark's JSON is read into a typed list", "[metrics]") {
  const auto reading = read_gbench_results(gbench_output("sample_repetitions.json"));
  REQUIRE(reading.fault == GbenchFault::none);
  const auto& entries = reading.results.entries;
  REQUIRE(entries.size() == 14);
  CHECK(entries[0].name == "BM_sum/1024");  // a name with '/' is the name
  CHECK_FALSE(entries[0].is_aggregate());
  CHECK(entries[0].time_unit == "ns");
  CHECK(entries[0].numbers.at("real_time") == Approx(2647.9151670000647));
  CHECK(entries[0].numbers.at("widgets") == 42.0);  // a counter
  CHECK(entries[0].numbers.count("name") == 0);     // text is no number
  CHECK(entries[3].name == "BM_sum/1024_mean");
  CHECK(entries[3].is_aggregate());
  CHECK(entries[7].time_unit == "us");
  CHECK(entries[7].seconds_per_time_unit() == 1e-6);
  GbenchEntry minutes;
  minutes.time_unit = "min";
  CHECK_FALSE(minutes.seconds_per_time_unit());
  CHECK(entries[0].json.at("name") == "BM_sum/1024");  // as written, for a gathered output
  CHECK(reading.results.context.contains("num_cpus"));

  const auto failed = read_gbench_results(
      R"({"benchmarks": [{"name": "BM_x", "error_occurred": true, "error_message": "out of memory"}]})");
  REQUIRE(failed.fault == GbenchFault::none);
  CHECK(failed.results.entries.at(0).error_occurred);
  CHECK(failed.results.entries.at(0).error_message == "out of memory");
  CHECK(failed.results.entries.at(0).run_type == "iteration");  // none written: older versions
  CHECK(failed.results.context.is_null());
}

TEST_CASE("what is not Google Benchmark's JSON is told apart", "[metrics]") {
  CHECK(read_gbench_results("BM_x 10 ns").fault == GbenchFault::not_json);
  CHECK(read_gbench_results(R"({"results": []})").fault == GbenchFault::no_benchmarks);
  CHECK(read_gbench_results(R"({"benchmarks": {}})").fault == GbenchFault::no_benchmarks);
  const auto not_object = read_gbench_results(R"({"benchmarks": [{"name": "a"}, 7]})");
  CHECK(not_object.fault == GbenchFault::malformed);
  CHECK(not_object.error == "the output is not Google Benchmark's JSON: benchmarks[1]: 7 is not an object");
  CHECK(not_object.results.entries.empty());
  CHECK(read_gbench_results(R"({"benchmarks": [{"name": 5}]})").error ==
        "the output is not Google Benchmark's JSON: benchmarks[0]: \"name\" is 5, not a string");
  CHECK(read_gbench_results(R"({"benchmarks": [{"name": "a", "error_occurred": "yes"}]})").error ==
        "the output is not Google Benchmark's JSON: benchmarks[0]: \"error_occurred\" is \"yes\", not a "
        "boolean");
}

TEST_CASE("a suite's benchmark names come from the same typed list", "[metrics]") {
  const auto names =
      benchmark_names(MetricSource::google_benchmark, gbench_output("sample_repetitions.json"));
  REQUIRE(names);
  CHECK(*names == std::vector<std::string>{"BM_sum/1024", "BM_concat"});  // no aggregates, each once
  for (const char* out : {"plain text", R"({"results": []})"}) {
    CHECK(
        benchmark_names(MetricSource::google_benchmark, out).error() ==
        "the output is not Google Benchmark's JSON (no \"benchmarks\" array); pass --benchmark_format=json");
  }
  CHECK(benchmark_names(MetricSource::google_benchmark, R"({"benchmarks": [{"name": 5}]})").error() ==
        "the output is not Google Benchmark's JSON: benchmarks[0]: \"name\" is 5, not a string");
}

TEST_CASE("counted values are read from the run's counts", "[valgrind][counters]") {
  const Config config = parse_config(
      "metrics: {hw: {counter: instructions}, sim: {valgrind: instructions}, est: {valgrind: cycles}}",
      "gate.yaml");
  const MetricExtractor extractor(config.metrics);
  RunResult run;
  run.wall_seconds = 0.5;
  run.counters[CountedEvent::instructions] = 1000;
  run.simulated[CountedEvent::instructions] = 900;
  run.simulated[CountedEvent::cycles] = 1900;
  const auto values = extractor.extract(run);
  REQUIRE(values);
  CHECK(values->back() == 1900);
  CHECK(values->at(values->size() - 2) == 900);
  CHECK(values->at(values->size() - 3) == 1000);
  run.simulated.erase(CountedEvent::cycles);
  CHECK(extractor.extract(run).error() == "metric \"est\": the run has no valgrind count of cycles");
}
