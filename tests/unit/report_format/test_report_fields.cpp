// The report's field tables (report_format/report_fields.hpp): each member of a section's type has
// its field, and every field reads back what it writes, through the lenient and the strict reader.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "duel/verdict.hpp"
#include "report_format/report_fields.hpp"
#include "support/made_up_duels.hpp"

using namespace perfduel;
using namespace perfduel::report_field;

namespace {

// Converts to any member's type, so that `T{AnyMember{}, …}` compiles with at most as many as
// the aggregate T has members.
struct AnyMember {
  template <typename T>
  operator T() const {
    return T{};
  }
};

// How many members the aggregate T has: a member added to a section's type without a field in
// its table fails the test that compares the two.
template <typename T, typename... Members>
constexpr std::size_t member_count() {
  if constexpr (requires { T{Members{}..., AnyMember{}}; }) {
    return member_count<T, Members..., AnyMember>();
  } else {
    return sizeof...(Members);
  }
}

// The fields of `fields` that a reader reads back.
template <typename Source, typename Target>
std::size_t fields_read(const FieldTable<Source, Target>& fields) {
  return static_cast<std::size_t>(
      std::count_if(fields.begin(), fields.end(), [](const auto& field) { return bool(field.read); }));
}

// Writes `sample`, whose members all differ from a default T's and from each other: `expected`.
// Reads it back and writes that: the same JSON. Each field must differ from a default T's, so
// that a field that reads nothing back, or another member, shows.
template <typename T>
void check_round_trip(const T& sample, const std::string& expected) {
  const Json written = write_value(sample);
  CHECK(written.dump() == expected);
  const Json defaults = write_value(T{});
  for (const auto& field : Table<T>::fields()) {
    INFO(field.name);
    REQUIRE(written.contains(field.name));
    CHECK(written.at(field.name) != defaults.at(field.name));
  }
  T read{};
  CHECK(read_value(written, read));
  CHECK(write_value(read) == written);
}

FunctionShare function_sample(const std::string& name) {
  FunctionShare function;
  function.name = name;
  function.file = "sort.cpp";
  function.line = 42;
  function.change = FunctionChange::added;
  function.baseline = 1;
  function.candidate = 2;
  function.baseline_inclusive = 3;
  function.candidate_inclusive = 4;
  function.moved = 0.5;
  function.share = 0.9;
  return function;
}

Explanation explanation_sample() {
  Explanation explanation;
  explanation.metric = "insns";
  explanation.benchmark = "BM_Sort";
  explanation.event = CountedEvent::cycles;
  explanation.basis = ProfileBasis::profiled;
  explanation.metric_change = 0.3;
  explanation.instructions_change = 0.2;
  explanation.cycles_change = 0.25;
  explanation.attribution.baseline_total = 100;
  explanation.attribution.candidate_total = 130;
  explanation.attribution.functions = {function_sample("insertion_sort")};
  explanation.attribution.moves = {{"partition", "sort", 7, FunctionChange::added}};
  explanation.attribution.culprit = function_sample("sort");
  explanation.attribution.reading = ProfileReading::moved;
  explanation.tree = {{"main", -1, 100, 130}, {"sort", 0, 90, 120}};
  return explanation;
}

ProgramComparison programs_sample() {
  ProgramFingerprint fingerprint;
  fingerprint.sha256 = "ab12";
  fingerprint.files = {{FileRole::library, "libc.so.6", "/lib/libc.so.6", "cd34"}};
  ProgramComparison programs;
  programs.result = ProgramsCompared::different;
  programs.reason = "the shared library libsort.so differs";
  programs.baseline = fingerprint;
  fingerprint.sha256 = "ef56";
  programs.candidate = fingerprint;
  return programs;
}

// A metric settled by the sign sequence, from a duet, at the driver's floor: every field written.
MetricResult metric_sample() {
  MetricResult result;
  result.spec.name = "max_rss";
  result.spec.unit = "bytes";
  result.spec.source = MetricSource::max_rss;
  result.spec.direction = Direction::higher_is_better;
  result.spec.gating = Gating::gated;
  result.spec.threshold = 0.05;
  result.spec.tolerance = 0.01;
  result.estimator = Estimator::median;
  result.confidence = 0.99;
  result.baseline_median = 1000;
  result.candidate_median = 1100;
  result.change = 0.1;
  result.ci = {0.05, 0.15};
  result.estimate.status = stats::EstimateStatus::ok;
  result.estimate.rounds = 12;
  result.verdict = Verdict::regression;
  result.likely_regression = true;
  result.settled_by = SettledBy::signs;
  result.signs_beyond = 9;
  result.signs_rounds = 10;
  result.cpu_effect = 0.01;
  result.cpu_effect_ci = {-0.01, 0.03};
  return result;
}

}  // namespace

TEST_CASE("each section's table has a field for every member of its type", "[report_fields]") {
  CHECK(Table<Environment>::fields().size() == member_count<Environment>());
  CHECK(Table<Pinning>::fields().size() == member_count<Pinning>());
  CHECK(Table<SuiteChanges>::fields().size() == member_count<SuiteChanges>());
  CHECK(Table<Reanalysis>::fields().size() == member_count<Reanalysis>());
  CHECK(Table<FingerprintedFile>::fields().size() == member_count<FingerprintedFile>());
  // Its `entries` are not written: the files behind them are.
  CHECK(Table<ProgramFingerprint>::fields().size() == member_count<ProgramFingerprint>() - 1);
  CHECK(Table<ProgramComparison>::fields().size() == member_count<ProgramComparison>());
  CHECK(Table<FunctionShare>::fields().size() == member_count<FunctionShare>());
  CHECK(Table<CostMove>::fields().size() == member_count<CostMove>());
  // The attribution's members are the explanation's fields.
  CHECK(Table<Explanation>::fields().size() == member_count<Explanation>() - 1 + member_count<Attribution>());
  CHECK(run_fields().size() == member_count<RunRecord>());
  CHECK(fields_read(metric_fields()) == member_count<SavedMetric>());
  // Besides one member per field read: "end" also sets end_name, "metrics" has_metrics and
  // value_names; the configuration and the runs are read apart (strictly, or leniently), and
  // `text` is the whole report.
  CHECK(member_count<SavedReport>() == fields_read(report_fields()) + 6);
}

TEST_CASE("every section's fields read back what they write", "[report_fields]") {
  check_round_trip(
      Environment{"host", "cpu", 8, "Linux 6.1 x86_64", "6.1", "machine", "id", {1, 2, 3}, "powersave", 1e6},
      R"({"host":"host","cpu_model":"cpu","cpu_count":8,"kernel":"Linux 6.1 x86_64",)"
      R"("kernel_release":"6.1","machine":"machine","machine_id":"id","load":[1.0,2.0,3.0],)"
      R"("governor":"powersave","driver_peak_rss_bytes":1000000.0})");
  check_round_trip(Pinning{{1, 3}, PinningSource::requested, "CPU 1 and 3: requested", 1.5},
                   R"({"cpus":[1,3],"source":"requested","reason":"CPU 1 and 3: requested",)"
                   R"("warmup_parallelism":1.5})");
  check_round_trip(SuiteChanges{{"new"}, {"removed"}, {"unmeasurable"}, {{"uncountable", "why"}}},
                   R"({"new":["new"],"removed":["removed"],"unmeasurable":["unmeasurable"],)"
                   R"("uncountable":{"uncountable":"why"}})");
  check_round_trip(Reanalysis{"r.json", {"gate.yaml"}, {"threshold"}, {"max_rounds"}},
                   R"({"of":"r.json","settings_from":["gate.yaml"],"changed":["threshold"],)"
                   R"("ignored":["max_rounds"]})");
  check_round_trip(FingerprintedFile{FileRole::library, "libc.so.6", "/lib/libc.so.6", "cd34"},
                   R"({"role":"library","name":"libc.so.6","path":"/lib/libc.so.6","sha256":"cd34"})");
  check_round_trip(*programs_sample().baseline,
                   R"({"sha256":"ab12","files":[{"role":"library","name":"libc.so.6",)"
                   R"("path":"/lib/libc.so.6","sha256":"cd34"}]})");
  check_round_trip(programs_sample(),
                   R"({"compared":"different","reason":"the shared library libsort.so differs",)"
                   R"("baseline":{"sha256":"ab12","files":[{"role":"library","name":"libc.so.6",)"
                   R"("path":"/lib/libc.so.6","sha256":"cd34"}]},"candidate":{"sha256":"ef56",)"
                   R"("files":[{"role":"library","name":"libc.so.6","path":"/lib/libc.so.6",)"
                   R"("sha256":"cd34"}]}})");
  check_round_trip(function_sample("sort"),
                   R"({"name":"sort","source_file":"sort.cpp","source_line":42,"change":"added",)"
                   R"("baseline":1.0,"candidate":2.0,"baseline_inclusive":3.0,"candidate_inclusive":4.0,)"
                   R"("moved":0.5,"share":0.9})");
  check_round_trip(CostMove{"partition", "sort", 7, FunctionChange::added},
                   R"({"from":"partition","into":"sort","amount":7.0,"change":"added"})");
  check_round_trip(explanation_sample(),
                   R"({"metric":"insns","benchmark":"BM_Sort","event":"cycles","basis":"profiled",)"
                   R"("metric_change":0.3,"instructions_change":0.2,"cycles_change":0.25,)"
                   R"("reading":"moved","baseline_total":100.0,"candidate_total":130.0,)"
                   R"("culprit":{"name":"sort","source_file":"sort.cpp","source_line":42,"change":"added",)"
                   R"("baseline":1.0,"candidate":2.0,"baseline_inclusive":3.0,"candidate_inclusive":4.0,)"
                   R"("moved":0.5,"share":0.9},"functions":[{"name":"insertion_sort",)"
                   R"("source_file":"sort.cpp","source_line":42,"change":"added","baseline":1.0,)"
                   R"("candidate":2.0,"baseline_inclusive":3.0,"candidate_inclusive":4.0,"moved":0.5,)"
                   R"("share":0.9}],"moves":[{"from":"partition","into":"sort","amount":7.0,)"
                   R"("change":"added"}],"tree":[["main",-1,100.0,130.0],["sort",0,90.0,120.0]]})");
}

TEST_CASE("a name or value a section does not know reads as its fallback, or leaves the member",
          "[report_fields]") {
  FingerprintedFile file;
  read_value(Json{{"role", "socket"}, {"name", 3}}, file);
  CHECK(file.role == FileRole::argument);
  CHECK(file.name.empty());
  ProgramComparison programs;
  programs.result = ProgramsCompared::identical;
  read_value(Json{{"compared", "maybe"}}, programs);
  CHECK(programs.result == ProgramsCompared::identical);
  Pinning pinning;
  read_value(Json{{"cpus", {1, "two", 3}}, {"warmup_parallelism", "x"}}, pinning);
  CHECK(pinning.cpus == std::vector<int>{1, 3});
  CHECK(pinning.parallelism == 0);
}

TEST_CASE("a run's fields: the optional ones left out when empty, read back leniently and strictly",
          "[report_fields]") {
  const std::vector<std::string> names{"wall_time", "max_rss"};
  const RunRecord run{3, Side::candidate, true, {1.5, 2e6}, 1, true};
  const Json written = write_fields(run_fields(), NamedRun{run, names});
  CHECK(written.dump() == R"({"round":3,"side":"candidate","warmup":true,"cpu":1,"alone":true,)"
                          R"("values":{"wall_time":1.5,"max_rss":2000000.0}})");
  NamedRun lenient{{}, names};
  CHECK(read_fields(run_fields(), written, lenient));
  NamedRun strict{{}, names};
  read_fields_strict(run_fields(), written, strict);
  for (const NamedRun* read : {&lenient, &strict}) {
    CHECK(write_fields(run_fields(), *read) == written);
  }
  const RunRecord plain{0, Side::baseline, false, {1.0, 1e6}, -1, false};
  CHECK(write_fields(run_fields(), NamedRun{plain, names}).dump() ==
        R"({"round":0,"side":"baseline","warmup":false,"values":{"wall_time":1.0,"max_rss":1000000.0}})");

  // A run without its round is skipped by the lenient reader, refused by the strict one.
  Json no_round = written;
  no_round.erase("round");
  NamedRun skipped{{}, names};
  CHECK_FALSE(read_fields(run_fields(), no_round, skipped));
  REQUIRE_THROWS_WITH(read_fields_strict(run_fields(), no_round, skipped),
                      Catch::Contains("key 'round' not found"));
  Json sideways = written;
  sideways["side"] = "left";
  REQUIRE_THROWS_WITH(read_fields_strict(run_fields(), sideways, skipped),
                      "unknown \"side\" \"left\" (one of baseline, candidate)");
  // A value it lacks: NaN leniently, refused strictly.
  Json no_value = written;
  no_value["values"].erase("max_rss");
  NamedRun partial{{}, names};
  CHECK(read_fields(run_fields(), no_value, partial));
  CHECK(std::isnan(partial.run.values[1]));
  REQUIRE_THROWS_WITH(read_fields_strict(run_fields(), no_value, skipped),
                      Catch::Contains("key 'max_rss' not found"));
}

TEST_CASE("a metric's fields read back what they write", "[report_fields]") {
  const MetricResult result = metric_sample();
  Environment environment;
  environment.driver_peak_rss_bytes = 1000;
  const Json written = write_fields(metric_fields(), MetricInReport{result, environment});
  SavedMetric read;
  read_fields(metric_fields(), written, read);
  CHECK(read.name == "max_rss");
  CHECK(read.unit == "bytes");
  CHECK(read.direction == "higher");
  CHECK(read.gated);
  CHECK(read.baseline_median == 1000);
  CHECK(read.candidate_median == 1100);
  CHECK(read.change == 0.1);
  REQUIRE(read.ci);
  CHECK(read.ci->lo == 0.05);
  CHECK(read.ci->hi == 0.15);
  CHECK(read.confidence == 0.99);
  CHECK(read.threshold == 0.05);
  CHECK(read.tolerance == 0.01);
  CHECK(read.verdict == "regression");
  CHECK(read.likely_regression);
  CHECK(read.settled_by == "signs");
  REQUIRE(read.signs);
  CHECK(read.signs->beyond == 9);
  CHECK(read.signs->rounds == 10);
  CHECK(read.signs->by_more_than == signs_bound(result.spec));
  CHECK(read.signs->shown_instead_of_interval == shows_signs(result));
  CHECK(read.rounds == 12);
  CHECK(read.estimator == "median");
  CHECK(read.at_driver_floor);
  // Written, not read back: the duet's CPU effect, among others.
  CHECK(written.at("cpu_effect").dump() == R"({"change":0.01,"ci":[-0.01,0.03]})");
  // Left out when empty.
  MetricResult plain = result;
  plain.cpu_effect.reset();
  environment.driver_peak_rss_bytes = 0;
  const Json without = write_fields(metric_fields(), MetricInReport{plain, environment});
  CHECK_FALSE(without.contains("cpu_effect"));
  CHECK_FALSE(without.contains("at_driver_floor"));
}

TEST_CASE("the report's top level reads back what it writes, in the table's order", "[report_fields]") {
  const Config config = default_config();
  DuelOutcome outcome = testing::made_up_duel(config, 10, testing::tiny_rss_change);
  outcome.failure = "the candidate crashed";
  outcome.failure_stderr = "segfault";
  outcome.explanations = {explanation_sample()};
  outcome.programs = programs_sample();
  RunSummary summary;
  summary.config = &config;
  summary.outcome = &outcome;
  summary.started = "2026-01-02T03:04:05Z";
  summary.reanalysis = Reanalysis{"r.json", {}, {}, {}};
  const Json written = report_to_json(summary);
  std::vector<std::string> keys;
  for (auto it = written.begin(); it != written.end(); ++it) {
    keys.push_back(it.key());
  }
  std::vector<std::string> table;
  for (const auto& field : report_fields()) {
    if (field.name != std::string("error_stdout")) {  // left out: no stdout
      table.push_back(field.name);
    }
  }
  CHECK(keys == table);
  const SavedReport lenient = report_from_json_lenient(written);
  const SavedReport strict = report_from_json_strict(written, "r.json");
  for (const SavedReport* read : {&lenient, &strict}) {
    CHECK(read->failure == "the candidate crashed");
    CHECK(read->started == "2026-01-02T03:04:05Z");
    CHECK(write_value(read->explanations) == write_value(outcome.explanations));
    CHECK(write_value(read->programs) == write_value(outcome.programs));
    CHECK(read->runs.size() == outcome.runs.size());
    CHECK(read->value_names.size() == config.metrics.size());
  }
  CHECK(strict.config.metrics.size() == config.metrics.size());
}
