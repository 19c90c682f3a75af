#include <string>
#include <vector>

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "error.hpp"
#include "support/config_helpers.hpp"

using namespace perfduel;
using perfduel::testing::metric;
using perfduel::testing::metric_names;
using perfduel::testing::parse_gate;

TEST_CASE("default_config gates wall time at 2 % and reports the other built-ins", "[config]") {
  const Config config = default_config();
  REQUIRE(metric_names(config) ==
          std::vector<std::string>{"wall_time", "user_time", "system_time", "max_rss"});

  const auto& wall = metric(config, "wall_time");
  CHECK(wall.source == MetricSource::wall_time);
  CHECK(wall.gating == Gating::gated);
  CHECK(wall.threshold == Approx(0.02));
  CHECK(wall.tolerance == Approx(0.01));  // half the threshold
  CHECK(wall.direction == Direction::lower_is_better);
  CHECK(wall.estimator == Estimator::mean);
  CHECK(wall.unit == "s");

  CHECK(metric(config, "user_time").source == MetricSource::user_time);
  CHECK(metric(config, "system_time").source == MetricSource::system_time);
  CHECK(metric(config, "max_rss").source == MetricSource::max_rss);
  CHECK(metric(config, "max_rss").unit == "B");
  for (const char* name : {"user_time", "system_time", "max_rss"}) {
    CHECK(metric(config, name).gating == Gating::report_only);
  }
  REQUIRE(config.gated_metrics().size() == 1);
  CHECK(config.gated_metrics().front()->name == "wall_time");

  CHECK(config.confidence == Approx(0.95));
  CHECK(config.warmup == 1);
  CHECK_FALSE(config.detect_warmup);
  CHECK(config.min_rounds >= 20);
  CHECK(config.max_rounds >= config.min_rounds);
  CHECK(config.max_seconds <= 600);  // the budget ends within 10 minutes
  CHECK(config.cpus.empty());
  CHECK(config.order == Order::random);
  CHECK_FALSE(config.seed.has_value());
  CHECK(config.stopping == Stopping::hybrid);
  CHECK(config.correction == Correction::bonferroni);
  CHECK(config.on_inconclusive == InconclusivePolicy::skip);
  CHECK_FALSE(config.baseline.has_value());
  CHECK_FALSE(config.candidate.has_value());
}

TEST_CASE("a metric's tolerance defaults to half its threshold, a gated count's to 0.1 %", "[config]") {
  // At tolerance 0 every certain difference, however small, would be called a regression (a
  // +0.94 % [+0.00 %, +1.88 %] failed a 2 % gate) and no interval could show no change; half the
  // threshold makes the band as wide as the interval sought.
  const Config defaults = default_config();
  for (const char* name : {"wall_time", "user_time", "system_time", "max_rss"}) {
    CHECK(metric(defaults, name).tolerance == Approx(0.01));
  }
  const Config config = parse_gate(R"(metrics:
  max_rss: {gate: true}
  user_time: {threshold: 10%}
  system_time: {tolerance: 0}
  score: {regex: 'score: ([0-9]+)', gate: false}
  cycles: {valgrind: cycles, gate: false}
  instructions: {valgrind: instructions}
  rate: {regex: 'rate: ([0-9]+)', direction: higher, threshold: 400%}
)");
  CHECK(metric(config, "max_rss").tolerance == Approx(0.01));    // gated or not
  CHECK(metric(config, "user_time").tolerance == Approx(0.05));  // half of its own threshold
  CHECK(metric(config, "system_time").tolerance == 0.0);         // set explicitly
  CHECK(metric(config, "score").tolerance == Approx(0.01));
  CHECK(metric(config, "cycles").tolerance == Approx(0.01));         // report-only: the band too
  CHECK(metric(config, "instructions").tolerance == Approx(0.001));  // a gated count: 0.1 %
  CHECK(metric(config, "rate").tolerance == Approx(0.9));            // a rate cannot fall by 200 %
  // A counted metric makes wall time report-only; it keeps its band.
  CHECK(metric(config, "wall_time").gating == Gating::report_only);
  CHECK(metric(config, "wall_time").tolerance == Approx(0.01));
}

TEST_CASE("Google Benchmark fields get units, and rates a direction, by default", "[config]") {
  const Config config = parse_gate(R"(metrics:
  time: {google_benchmark: BM_x}
  cpu: {google_benchmark: BM_x, field: cpu_time}
  bytes: {google_benchmark: BM_x, field: bytes_per_second}
  items: {google_benchmark: BM_x, field: items_per_second}
  widgets: {google_benchmark: BM_x, field: widgets}
  slow_bytes: {google_benchmark: BM_x, field: bytes_per_second, direction: lower, unit: MB/s}
)");
  CHECK(metric(config, "time").unit == "s");
  CHECK(metric(config, "cpu").unit == "s");
  CHECK(metric(config, "bytes").unit == "B/s");
  CHECK(metric(config, "bytes").direction == Direction::higher_is_better);
  CHECK(metric(config, "items").unit == "items/s");
  CHECK(metric(config, "items").direction == Direction::higher_is_better);
  CHECK(metric(config, "widgets").unit.empty());
  CHECK(metric(config, "widgets").direction == Direction::lower_is_better);
  CHECK(metric(config, "slow_bytes").unit == "MB/s");
  CHECK(metric(config, "slow_bytes").direction == Direction::lower_is_better);
}

TEST_CASE("a benchmark pattern (a suite) is estimated by its trimmed mean unless it says otherwise",
          "[config]") {
  const Config config = parse_gate(R"(metrics:
  suite: {google_benchmark: "BM_*"}
  sorts: {catch2: "sort*"}
  plain: {catch2: "sort*", estimator: mean}
  one: {google_benchmark: BM_x}
)");
  CHECK(metric(config, "suite").estimator == Estimator::trimmed);
  CHECK(metric(config, "sorts").estimator == Estimator::trimmed);
  CHECK(metric(config, "plain").estimator == Estimator::mean);
  CHECK(metric(config, "one").estimator == Estimator::mean);
  CHECK(metric(config, "wall_time").estimator == Estimator::mean);
}

TEST_CASE("an empty file gives the defaults", "[config]") {
  const Config config = parse_gate("# nothing but a comment\n");
  CHECK(config.origin == "gate.yaml");
  CHECK(config_to_json(config) == config_to_json(default_config()));
}

TEST_CASE("every top-level key is parsed", "[config]") {
  const Config config = parse_gate(R"(baseline: ./bench --size 'a b'
candidate:
  command: [./bench-new, --size, a b]
  working_directory: /tmp/work
  env:
    OMP_NUM_THREADS: "1"
    MODE: fast
confidence: 99%
warmup: 3
detect_warmup: yes
min_rounds: 30
max_rounds: 400
max_seconds: 1.5m
timeout: 250ms
cpus: [2, 3]
order: abba
seed: 12345
stopping: anytime
correction: holm
inconclusive: fail
autocorrelation_limit: 0.2
min_batches: 10
best_of: 5
stability_limit: 3%
)");
  REQUIRE(config.baseline.has_value());
  CHECK(config.baseline->argv == std::vector<std::string>{"./bench", "--size", "a b"});
  CHECK(config.baseline->launch == Launch::direct);
  CHECK(config.baseline->working_directory.empty());
  CHECK(config.baseline->environment.empty());
  REQUIRE(config.candidate.has_value());
  CHECK(config.candidate->argv == std::vector<std::string>{"./bench-new", "--size", "a b"});
  CHECK(config.candidate->working_directory.string() == "/tmp/work");
  CHECK(config.candidate->environment ==
        std::map<std::string, std::string>{{"MODE", "fast"}, {"OMP_NUM_THREADS", "1"}});

  CHECK(config.confidence == Approx(0.99));
  CHECK(config.warmup == 3);
  CHECK(config.detect_warmup);
  CHECK(config.min_rounds == 30);
  CHECK(config.max_rounds == 400);
  CHECK(config.max_seconds == Approx(90.0));
  CHECK(config.run_timeout == Approx(0.25));
  CHECK(config.cpus == std::vector<int>{2, 3});
  CHECK(config.order == Order::abba);
  REQUIRE(config.seed.has_value());
  CHECK(*config.seed == 12345U);
  CHECK(config.stopping == Stopping::anytime);
  CHECK(config.correction == Correction::holm);
  CHECK(config.on_inconclusive == InconclusivePolicy::fail);
  CHECK(config.autocorrelation_limit == Approx(0.2));
  CHECK(config.min_batches == 10);
  CHECK(config.min_best_of == 5);
  CHECK(config.stability_limit == Approx(0.03));
}

TEST_CASE("a command may be a string, a list or a mapping", "[config]") {
  const std::vector<std::string> argv{"./bench", "-n", "3 4"};
  CHECK(parse_gate("baseline: ./bench -n '3 4'").baseline->argv == argv);
  CHECK(parse_gate("baseline: [./bench, -n, 3 4]").baseline->argv == argv);
  CHECK(parse_gate("baseline:\n  - ./bench\n  - -n\n  - 3 4\n").baseline->argv == argv);
  CHECK(parse_gate("baseline: {command: ./bench -n \"3 4\"}").baseline->argv == argv);
  CHECK(parse_gate("baseline: {command: [./bench, -n, 3 4]}").baseline->argv == argv);
  // Both sides in the short form, which must not disturb each other.
  const Config both = parse_gate("baseline: ./old\ncandidate: ./new --fast\n");
  CHECK(both.baseline->argv == std::vector<std::string>{"./old"});
  CHECK(both.candidate->argv == std::vector<std::string>{"./new", "--fast"});
}

TEST_CASE("a shell command is kept as one script", "[config]") {
  const Config config = parse_gate("baseline:\n  command: ./a | wc -l\n  shell: true\n");
  REQUIRE(config.baseline.has_value());
  CHECK(config.baseline->launch == Launch::shell);
  CHECK(config.baseline->argv == std::vector<std::string>{"./a | wc -l"});
}

TEST_CASE("fractions are read as percentages or plain numbers", "[config]") {
  CHECK(parse_gate("confidence: 90%").confidence == Approx(0.90));
  CHECK(parse_gate("confidence: 0.9").confidence == Approx(0.90));
  CHECK(metric(parse_gate("metrics: {wall_time: {threshold: 5%}}"), "wall_time").threshold == Approx(0.05));
  CHECK(metric(parse_gate("metrics: {wall_time: {threshold: 0.05}}"), "wall_time").threshold == Approx(0.05));
  CHECK(metric(parse_gate("metrics: {wall_time: {tolerance: 1%}}"), "wall_time").tolerance == Approx(0.01));
}

TEST_CASE("durations take units", "[config]") {
  CHECK(parse_gate("max_seconds: 90").max_seconds == 90.0);
  CHECK(parse_gate("max_seconds: 90s").max_seconds == 90.0);
  CHECK(parse_gate("max_seconds: 2min").max_seconds == 120.0);
  CHECK(parse_gate("max_seconds: 1h").max_seconds == 3600.0);
  CHECK(parse_gate("timeout: 1.5m").run_timeout == 90.0);
  CHECK(parse_gate("timeout: 500ms").run_timeout == Approx(0.5));
}

TEST_CASE("cpus are a list, a range or a mix", "[config]") {
  CHECK(parse_gate("cpus: [0, 1, 2]").cpus == std::vector<int>{0, 1, 2});
  CHECK(parse_gate("cpus: 0-3").cpus == std::vector<int>{0, 1, 2, 3});
  CHECK(parse_gate("cpus: \"0-1,6\"").cpus == std::vector<int>{0, 1, 6});
  CHECK(parse_gate("cpus: 5").cpus == std::vector<int>{5});
  CHECK(parse_gate("cpus: [0-1, 4]").cpus == std::vector<int>{0, 1, 4});
  CHECK(parse_gate("cpus: [0, 1, 2]").cpu_mode == CpuMode::list);
  CHECK(parse_gate("cpus: []").cpus.empty());
  CHECK(parse_gate("cpus: []").cpu_mode == CpuMode::none);
  CHECK(parse_gate("cpus: none").cpu_mode == CpuMode::none);
  CHECK(parse_gate("cpus: auto").cpu_mode == CpuMode::automatic);
  CHECK(parse_gate("order: abba").cpu_mode == CpuMode::automatic);  // pinned by default
  CHECK(parse_gate(config_to_json(parse_gate("cpus: none"))).cpu_mode == CpuMode::none);
  CHECK(parse_gate(config_to_json(parse_gate("cpus: auto"))).cpu_mode == CpuMode::automatic);
  CHECK(parse_gate(config_to_json(parse_gate("cpus: 2-3"))).cpus == std::vector<int>{2, 3});
}

TEST_CASE("every enum value is accepted", "[config]") {
  CHECK(parse_gate("order: random").order == Order::random);
  CHECK(parse_gate("order: abba").order == Order::abba);
  CHECK(parse_gate("stopping: width").stopping == Stopping::width);
  CHECK(parse_gate("stopping: hybrid").stopping == Stopping::hybrid);
  CHECK(parse_gate("stopping: anytime").stopping == Stopping::anytime);
  CHECK(parse_gate("correction: bonferroni").correction == Correction::bonferroni);
  CHECK(parse_gate("correction: holm").correction == Correction::holm);
  CHECK(parse_gate("inconclusive: skip").on_inconclusive == InconclusivePolicy::skip);
  CHECK(parse_gate("inconclusive: fail").on_inconclusive == InconclusivePolicy::fail);
  CHECK(parse_gate("inconclusive: pass").on_inconclusive == InconclusivePolicy::pass);
  CHECK(metric(parse_gate("metrics: {wall_time: {direction: higher}}"), "wall_time").direction ==
        Direction::higher_is_better);
  CHECK(metric(parse_gate("metrics: {wall_time: {direction: lower}}"), "wall_time").direction ==
        Direction::lower_is_better);
  CHECK(metric(parse_gate("metrics: {wall_time: {estimator: median}}"), "wall_time").estimator ==
        Estimator::median);
  CHECK(metric(parse_gate("metrics: {wall_time: {estimator: min}}"), "wall_time").estimator ==
        Estimator::min);
  CHECK(metric(parse_gate("metrics: {wall_time: {estimator: mean}}"), "wall_time").estimator ==
        Estimator::mean);
}

TEST_CASE("built-in metrics take settings but keep their place", "[config]") {
  const Config config = parse_gate(R"(metrics:
  max_rss:
    gate: true
    threshold: 10%
    tolerance: 1%
    unit: bytes
  wall_time:
    gate: false
)");
  CHECK(metric_names(config) == std::vector<std::string>{"wall_time", "user_time", "system_time", "max_rss"});
  const auto& rss = metric(config, "max_rss");
  CHECK(rss.source == MetricSource::max_rss);
  CHECK(rss.gating == Gating::gated);
  CHECK(rss.threshold == Approx(0.10));
  CHECK(rss.tolerance == Approx(0.01));
  CHECK(rss.unit == "bytes");
  CHECK(metric(config, "wall_time").gating == Gating::report_only);
  // A built-in named without settings keeps its defaults.
  CHECK(metric(parse_gate("metrics: {user_time: }"), "user_time").gating == Gating::report_only);
}

TEST_CASE("metric sources: regex, JSON pointer, Google Benchmark", "[config]") {
  const Config config = parse_gate(R"(metrics:
  score:
    regex: 'score: (\d+(?:\.\d+)?)'
    direction: higher
    unit: points
  latency:
    json_pointer: /results/0/latency
    gate: false
  sum_time:
    google_benchmark: BM_sum/1024
  sum_cpu:
    google_benchmark: BM_sum/1024
    field: cpu_time
  widgets:
    google_benchmark: BM_sum/1024
    field: widgets
    threshold: 4%
)");
  CHECK(metric_names(config) == std::vector<std::string>{"wall_time", "user_time", "system_time", "max_rss",
                                                         "score", "latency", "sum_time", "sum_cpu",
                                                         "widgets"});
  const auto& score = metric(config, "score");
  CHECK(score.source == MetricSource::regex);
  CHECK(score.pattern == R"(score: (\d+(?:\.\d+)?))");
  CHECK(score.direction == Direction::higher_is_better);
  CHECK(score.unit == "points");
  CHECK(score.gating == Gating::gated);  // a metric the user names is gated unless told otherwise

  const auto& latency = metric(config, "latency");
  CHECK(latency.source == MetricSource::json_pointer);
  CHECK(latency.pattern == "/results/0/latency");
  CHECK(latency.gating == Gating::report_only);

  const auto& sum_time = metric(config, "sum_time");
  CHECK(sum_time.source == MetricSource::google_benchmark);
  CHECK(sum_time.benchmark == "BM_sum/1024");
  CHECK(sum_time.field == "real_time");  // the default field
  CHECK(metric(config, "sum_cpu").field == "cpu_time");
  CHECK(metric(config, "widgets").field == "widgets");
  CHECK(metric(config, "widgets").threshold == Approx(0.04));
  CHECK(config.gated_metrics().size() == 5);
}

namespace {

// `config` written as JSON and read back, checked to write the same JSON again.
Config json_round_trip(const Config& config) {
  const std::string json = config_to_json(config);
  Config again = parse_config(json, "report.json");
  CHECK(config_to_json(again) == json);
  return again;
}

}  // namespace

TEST_CASE("config_to_json reads back to the same configuration", "[config]") {
  SECTION("defaults") {
    const Config again = json_round_trip(default_config());
    CHECK_FALSE(again.baseline.has_value());
    CHECK_FALSE(again.seed.has_value());
  }

  SECTION("counted metrics") {
    const Config again = json_round_trip(
        parse_gate("metrics:\n  insns: {valgrind: instructions}\n  est: {valgrind: cycles, gate: false}\n"));
    CHECK(metric_names(again) == std::vector<std::string>{"insns", "est"});
    CHECK(metric(again, "est").event == CountedEvent::cycles);
    CHECK(again.warmup == 0);
    const Config counters = json_round_trip(parse_gate("metrics:\n  bm: {counter: branch-misses}\n"));
    CHECK(metric(counters, "bm").source == MetricSource::counter);
    CHECK(metric(counters, "wall_time").gating == Gating::report_only);
  }
}

TEST_CASE("config_to_json reads back every key set away from its default", "[config]") {
  const Config config = parse_gate(R"(baseline:
  command: ./bench --label "two words" 'q"uote' 'back\slash'
  working_directory: /tmp/work dir
  env: {A: "1", B: "true", EMPTY: ""}
candidate:
  command: ./bench | tee out.txt
  shell: true
confidence: 99.9%
warmup: 0
detect_warmup: true
min_rounds: 25
max_rounds: 250
max_seconds: 250ms
timeout: 2.5m
cpus: 0-2,7
order: abba
seed: 18446744073709551615
stopping: anytime
correction: holm
inconclusive: pass
autocorrelation_limit: 0.3
min_batches: 7
best_of: 2
stability_limit: 0.0001%
metrics:
  wall_time: {gate: false}
  max_rss: {gate: true, threshold: 0.5%, tolerance: 0.1%, direction: lower, estimator: min}
  score:
    regex: "score:\t(\\d+) \"pts\" é"
    direction: higher
    unit: pts
    estimator: median
  latency:
    json_pointer: /a~1b/0/c~0d
    gate: false
  gb:
    google_benchmark: BM_sum/1024
    field: widgets
)");
  const Config again = json_round_trip(config);
  REQUIRE(again.baseline.has_value());
  CHECK(again.baseline->argv == config.baseline->argv);
  CHECK(again.baseline->argv ==
        std::vector<std::string>{"./bench", "--label", "two words", "q\"uote", "back\\slash"});
  CHECK(again.baseline->environment == config.baseline->environment);
  CHECK(again.baseline->working_directory.string() == "/tmp/work dir");
  REQUIRE(again.candidate.has_value());
  CHECK(again.candidate->launch == Launch::shell);
  CHECK(again.candidate->argv == std::vector<std::string>{"./bench | tee out.txt"});
  CHECK(again.confidence == config.confidence);
  CHECK(again.max_seconds == config.max_seconds);
  CHECK(again.seed == config.seed);
  CHECK(again.cpus == std::vector<int>{0, 1, 2, 7});
  CHECK(metric(again, "score").pattern == "score:\t(\\d+) \"pts\" é");
  CHECK(metric(again, "latency").pattern == "/a~1b/0/c~0d");
  CHECK(metric(again, "max_rss").threshold == config.metrics[3].threshold);
  CHECK(metric_names(again) == metric_names(config));
}

TEST_CASE("retries default to none and are capped", "[config][retries]") {
  CHECK(parse_gate("min_rounds: 20\n").retries == 0);
  CHECK(parse_gate("retries: 3\n").retries == 3);
  CHECK(parse_gate("retries: 10\n").retries == k_max_retries);
  CHECK_THROWS_WITH(
      parse_gate("retries: 11\n"),
      "gate.yaml:1: \"retries\" must be at most 10 (a benchmark that fails more often is broken, "
      "not flaky), not 11");
  CHECK_THROWS_WITH(parse_gate("retries: 1.5\n"), "gate.yaml:1: \"retries\" must be a whole number, not 1.5");
  // The report's config section gives them back.
  CHECK(parse_config(config_to_json(parse_gate("retries: 4\n")), "report").retries == 4);
}

TEST_CASE("a tolerance above 100 % is for lower-is-better metrics", "[config]") {
  // "Fail only beyond 3× slower": a coarse gate for a very noisy benchmark.
  CHECK(
      metric(parse_gate("metrics: {wall_time: {threshold: 400%, tolerance: 200%}}"), "wall_time").tolerance ==
      Approx(2.0));
  CHECK(metric(parse_gate("metrics: {wall_time: {tolerance: 1000%}}"), "wall_time").tolerance ==
        Approx(10.0));
  CHECK_THROWS_WITH(parse_gate("metrics: {wall_time: {tolerance: 1001%}}"),
                    "gate.yaml:1: \"tolerance\" must be between +0.00 % and +1000.00 %, not 1001%");
  CHECK_THROWS_WITH(
      parse_gate("metrics:\n  rate:\n    regex: 'r: (\\S+)'\n    direction: higher\n    tolerance: 100%\n"),
      "gate.yaml:5: \"tolerance\" of 100.00 % needs a lower-is-better metric: a higher-is-better "
      "one cannot fall by 100 % or more, so its gate could never fail");
  CHECK(metric(parse_gate(
                   "metrics:\n  rate:\n    regex: 'r: (\\S+)'\n    direction: higher\n    tolerance: 99%\n"),
               "rate")
            .tolerance == Approx(0.99));
}
