#include <string>
#include <vector>

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "support/config_helpers.hpp"
#include "error.hpp"

using namespace perfduel;
using perfduel::testing::metric;

namespace {

Config parse(const std::string& text) {
  return parse_config(text, "gate.yaml");
}

std::vector<std::string> metric_names(const Config& config) {
  std::vector<std::string> names;
  for (const auto& spec : config.metrics) {
    names.push_back(spec.name);
  }
  return names;
}

}  // namespace

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
  const Config config = parse(R"(metrics:
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
  const Config config = parse(R"(metrics:
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
  const Config config = parse(R"(metrics:
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
  const Config config = parse("# nothing but a comment\n");
  CHECK(config.origin == "gate.yaml");
  CHECK(config_to_json(config) == config_to_json(default_config()));
}

TEST_CASE("every top-level key is parsed", "[config]") {
  const Config config = parse(R"(baseline: ./bench --size 'a b'
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
  CHECK(parse("baseline: ./bench -n '3 4'").baseline->argv == argv);
  CHECK(parse("baseline: [./bench, -n, 3 4]").baseline->argv == argv);
  CHECK(parse("baseline:\n  - ./bench\n  - -n\n  - 3 4\n").baseline->argv == argv);
  CHECK(parse("baseline: {command: ./bench -n \"3 4\"}").baseline->argv == argv);
  CHECK(parse("baseline: {command: [./bench, -n, 3 4]}").baseline->argv == argv);
  // Both sides in the short form, which must not disturb each other.
  const Config both = parse("baseline: ./old\ncandidate: ./new --fast\n");
  CHECK(both.baseline->argv == std::vector<std::string>{"./old"});
  CHECK(both.candidate->argv == std::vector<std::string>{"./new", "--fast"});
}

TEST_CASE("a shell command is kept as one script", "[config]") {
  const Config config = parse("baseline:\n  command: ./a | wc -l\n  shell: true\n");
  REQUIRE(config.baseline.has_value());
  CHECK(config.baseline->launch == Launch::shell);
  CHECK(config.baseline->argv == std::vector<std::string>{"./a | wc -l"});
}

TEST_CASE("fractions are read as percentages or plain numbers", "[config]") {
  CHECK(parse("confidence: 90%").confidence == Approx(0.90));
  CHECK(parse("confidence: 0.9").confidence == Approx(0.90));
  CHECK(metric(parse("metrics: {wall_time: {threshold: 5%}}"), "wall_time").threshold == Approx(0.05));
  CHECK(metric(parse("metrics: {wall_time: {threshold: 0.05}}"), "wall_time").threshold == Approx(0.05));
  CHECK(metric(parse("metrics: {wall_time: {tolerance: 1%}}"), "wall_time").tolerance == Approx(0.01));
}

TEST_CASE("durations take units", "[config]") {
  CHECK(parse("max_seconds: 90").max_seconds == 90.0);
  CHECK(parse("max_seconds: 90s").max_seconds == 90.0);
  CHECK(parse("max_seconds: 2min").max_seconds == 120.0);
  CHECK(parse("max_seconds: 1h").max_seconds == 3600.0);
  CHECK(parse("timeout: 1.5m").run_timeout == 90.0);
  CHECK(parse("timeout: 500ms").run_timeout == Approx(0.5));
}

TEST_CASE("cpus are a list, a range or a mix", "[config]") {
  CHECK(parse("cpus: [0, 1, 2]").cpus == std::vector<int>{0, 1, 2});
  CHECK(parse("cpus: 0-3").cpus == std::vector<int>{0, 1, 2, 3});
  CHECK(parse("cpus: \"0-1,6\"").cpus == std::vector<int>{0, 1, 6});
  CHECK(parse("cpus: 5").cpus == std::vector<int>{5});
  CHECK(parse("cpus: [0-1, 4]").cpus == std::vector<int>{0, 1, 4});
  CHECK(parse("cpus: [0, 1, 2]").cpu_mode == CpuMode::list);
  CHECK(parse("cpus: []").cpus.empty());
  CHECK(parse("cpus: []").cpu_mode == CpuMode::none);
  CHECK(parse("cpus: none").cpu_mode == CpuMode::none);
  CHECK(parse("cpus: auto").cpu_mode == CpuMode::automatic);
  CHECK(parse("order: abba").cpu_mode == CpuMode::automatic);  // pinned by default
  CHECK(parse(config_to_json(parse("cpus: none"))).cpu_mode == CpuMode::none);
  CHECK(parse(config_to_json(parse("cpus: auto"))).cpu_mode == CpuMode::automatic);
  CHECK(parse(config_to_json(parse("cpus: 2-3"))).cpus == std::vector<int>{2, 3});
}

TEST_CASE("every enum value is accepted", "[config]") {
  CHECK(parse("order: random").order == Order::random);
  CHECK(parse("order: abba").order == Order::abba);
  CHECK(parse("stopping: width").stopping == Stopping::width);
  CHECK(parse("stopping: hybrid").stopping == Stopping::hybrid);
  CHECK(parse("stopping: anytime").stopping == Stopping::anytime);
  CHECK(parse("correction: bonferroni").correction == Correction::bonferroni);
  CHECK(parse("correction: holm").correction == Correction::holm);
  CHECK(parse("inconclusive: skip").on_inconclusive == InconclusivePolicy::skip);
  CHECK(parse("inconclusive: fail").on_inconclusive == InconclusivePolicy::fail);
  CHECK(parse("inconclusive: pass").on_inconclusive == InconclusivePolicy::pass);
  CHECK(metric(parse("metrics: {wall_time: {direction: higher}}"), "wall_time").direction ==
        Direction::higher_is_better);
  CHECK(metric(parse("metrics: {wall_time: {direction: lower}}"), "wall_time").direction ==
        Direction::lower_is_better);
  CHECK(metric(parse("metrics: {wall_time: {estimator: median}}"), "wall_time").estimator ==
        Estimator::median);
  CHECK(metric(parse("metrics: {wall_time: {estimator: min}}"), "wall_time").estimator == Estimator::min);
  CHECK(metric(parse("metrics: {wall_time: {estimator: mean}}"), "wall_time").estimator == Estimator::mean);
}

TEST_CASE("built-in metrics take settings but keep their place", "[config]") {
  const Config config = parse(R"(metrics:
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
  CHECK(metric(parse("metrics: {user_time: }"), "user_time").gating == Gating::report_only);
}

TEST_CASE("metric sources: regex, JSON pointer, Google Benchmark", "[config]") {
  const Config config = parse(R"(metrics:
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

TEST_CASE("unknown keys are rejected with a suggestion", "[config]") {
  CHECK_THROWS_WITH(parse("min_rounds: 20\nwarmup_runs: 3\n"),
                    "gate.yaml:2: unknown key \"warmup_runs\" (did you mean \"warmup\"?)");
  CHECK_THROWS_WITH(parse("confidense: 95%"),
                    "gate.yaml:1: unknown key \"confidense\" (did you mean \"confidence\"?)");
  CHECK_THROWS_WITH(parse("colour: blue"), "gate.yaml:1: unknown key \"colour\" in the configuration");
  CHECK_THROWS_WITH(parse("metrics:\n  wall_time:\n    treshold: 5%\n"),
                    "gate.yaml:3: unknown key \"treshold\" (did you mean \"threshold\"?)");
  CHECK_THROWS_WITH(parse("baseline:\n  command: ./a\n  enviroment: {A: 1}\n"),
                    "gate.yaml:3: unknown key \"enviroment\" (did you mean \"env\"?)");
}

// Found by fuzzing (tests/fuzz/corpus/config/complex_key.yaml): YAML's "? key" syntax allows a
// list or a mapping as a key, which escaped as yaml-cpp's bad-conversion exception.
// Found by fuzzing (tests/fuzz/corpus/config/not_utf8.yaml): a Latin-1 byte was accepted, then
// writing the JSON report (which holds the configuration) threw nlohmann's UTF-8 error.
TEST_CASE("a configuration that is not UTF-8 is rejected with its line", "[config]") {
  CHECK_THROWS_WITH(parse("min_rounds: 20\nmetrics:\n  caf\xE9: {regex: 'x(1)', gate: true}\n"),
                    "gate.yaml:3: not valid UTF-8 (byte 30); save the file as UTF-8");
  CHECK(parse("metrics:\n  caf\xC3\xA9: {regex: 'x(1)', gate: true}\n").metrics.back().name == "caf\xC3\xA9");
}

// Found by fuzzing (tests/fuzz/corpus/config/nul_byte.yaml): yaml-cpp reads "c\x01\0_time" as
// bytes that are not UTF-8, so the report could not be written.
TEST_CASE("a configuration with a control character is rejected with its line", "[config]") {
  using namespace std::string_literals;
  CHECK_THROWS_WITH(parse("metrics:\n  t: {google_benchmark: BM_x, field: c\x01\0_time}\n"s),
                    "gate.yaml:2: control character 0x01 (byte 48); YAML allows only tabs, line breaks and "
                    "printable text");
  CHECK_THROWS_WITH(parse("seed: 1\x7f\n"),
                    "gate.yaml:1: control character 0x7F (byte 8); YAML allows only tabs, "
                    "line breaks and printable text");
  CHECK(parse("seed:\t1\r\nwarmup: 2\r\n").warmup == 2);
}

// Found by fuzzing (tests/fuzz/corpus/config/escape_not_utf8.yaml): yaml-cpp decodes "\_" (a
// no-break space) in a double-quoted value to the single byte 0xA0, which is not UTF-8, and the
// report that copies the configuration could not be written.
TEST_CASE("a value whose escapes decode to bytes that are not UTF-8 is rejected", "[config]") {
  CHECK_THROWS_WITH(
      parse("baseline:\n  command: ./a\n  env: {X: \"a\\_b\"}\n"),
      "gate.yaml:3: \"env\" is not UTF-8 once its escapes are decoded; write the character itself "
      "or \\u followed by its code (\\u00A0 for \\_)");
  CHECK_THROWS_WITH(parse("metrics:\n  \"w\\Nt\": {regex: 'x(1)'}\n"),
                    Catch::StartsWith("gate.yaml:2: a key in \"metrics\" is not UTF-8 once its escapes"));
  CHECK(parse("baseline:\n  command: ./a\n  env: {X: \"a\\u00A0b\"}\n").baseline->environment.at("X") ==
        "a\xC2\xA0"
        "b");
}

TEST_CASE("a key that is a list or mapping is rejected with its line", "[config]") {
  CHECK_THROWS_WITH(parse("? [a, b]\n: 1\n"),
                    "gate.yaml:1: a key in the configuration must be a plain name, not a list or mapping");
  CHECK_THROWS_WITH(parse("metrics:\n  ? {a: 1}\n  : {regex: 'x(1)', gate: true}\n"),
                    "gate.yaml:2: a key in \"metrics\" must be a plain name, not a list or mapping");
  CHECK_THROWS_WITH(parse("metrics:\n  wall_time:\n    ? [gate]\n    : true\n"),
                    "gate.yaml:3: a key in metric \"wall_time\" must be a plain name, not a list or mapping");
  CHECK_THROWS_WITH(parse("baseline:\n  command: ./a\n  env:\n    ? [A]\n    : 1\n"),
                    "gate.yaml:4: a key in \"env\" must be a plain name, not a list or mapping");
}

TEST_CASE("a bad enum value lists the choices", "[config]") {
  CHECK_THROWS_WITH(parse("warmup: 2\norder: shuffled\n"),
                    "gate.yaml:2: \"order\" must be one of random, abba, duet, duet-fixed, not \"shuffled\"");
  CHECK_THROWS_WITH(parse("inconclusive: ignore"),
                    "gate.yaml:1: \"inconclusive\" must be one of skip, fail, pass, not \"ignore\"");
  CHECK_THROWS_WITH(parse("metrics:\n  wall_time:\n    direction: down\n"),
                    "gate.yaml:3: \"direction\" must be one of lower, higher, not \"down\"");
  CHECK_THROWS_WITH(
      parse("metrics:\n  wall_time:\n    estimator: mode\n"),
      "gate.yaml:3: \"estimator\" must be one of mean, median, min, ratio, trimmed, not \"mode\"");
  CHECK_THROWS_WITH(parse("detect_warmup: maybe"),
                    "gate.yaml:1: \"detect_warmup\" must be true or false, not \"maybe\"");
}

TEST_CASE("a bad number names the key and the text", "[config]") {
  CHECK_THROWS_WITH(parse("warmup: lots"), "gate.yaml:1: \"warmup\": invalid number: \"lots\"");
  CHECK_THROWS_WITH(parse("warmup: 1.5"), "gate.yaml:1: \"warmup\" must be a whole number, not 1.5");
  CHECK_THROWS_WITH(parse("min_rounds: 1"),
                    "gate.yaml:1: \"min_rounds\" must be between 2 and 1000000000, not 1");
  CHECK_THROWS_WITH(parse("confidence: high"),
                    "gate.yaml:1: \"confidence\": invalid fraction: \"high\" (write 2% or 0.02)");
  CHECK_THROWS_WITH(parse("confidence: 120%"),
                    "gate.yaml:1: \"confidence\" must be between +50.00 % and +99.99 %, not 120%");
  CHECK_THROWS_WITH(parse("metrics:\n  wall_time:\n    threshold: x%\n"),
                    "gate.yaml:3: \"threshold\": invalid percentage: \"x%\"");
  CHECK_THROWS_WITH(
      parse("max_seconds: soon"),
      "gate.yaml:1: \"max_seconds\": invalid duration: \"soon\" (write 90, 90s, 1.5m or 250ms)");
  CHECK_THROWS_WITH(parse("timeout: 0s"), "gate.yaml:1: \"timeout\" must be positive");
  CHECK_THROWS_WITH(parse("cpus: 3-1"),
                    "gate.yaml:1: \"cpus\": invalid CPU list: \"3-1\" (write e.g. 2 or 0-3,6)");
  CHECK_THROWS_WITH(parse("seed: abc"),
                    "gate.yaml:1: \"seed\" must be a non-negative whole number, not \"abc\"");
  CHECK_THROWS_WITH(parse("seed: 12x"),
                    "gate.yaml:1: \"seed\" must be a non-negative whole number, not \"12x\"");
  CHECK_THROWS_WITH(parse("seed: -1"),
                    "gate.yaml:1: \"seed\" must be a non-negative whole number, not \"-1\"");
}

TEST_CASE("malformed YAML names the line", "[config]") {
  CHECK_THROWS_WITH(parse("warmup: 1\norder: [random\n"),
                    "gate.yaml:3: malformed YAML: end of sequence flow not found");
  CHECK_THROWS_WITH(parse("warmup: 1\n  order: random\n"), "gate.yaml:2: malformed YAML: illegal map value");
  CHECK_THROWS_WITH(parse("warmup: 1\nseed: '12"), "gate.yaml:2: malformed YAML: illegal EOF in scalar");
  CHECK_THROWS_WITH(parse("- warmup\n- order\n"),
                    "gate.yaml:1: the configuration must be a mapping of keys to values");
}

// The eight characters that YAML reads as an indicator at the start of a plain value. Some
// make the file malformed (%, @, `, an alias * of no anchor, a block header | or > with text
// after it); the others parse, to a value the user did not write: "&5" is an anchor and no
// value, "!5" a tag and an empty value, "|5" and ">5" an empty block. Either way the error is
// reported at the value, with the fix.
TEST_CASE("a value starting with a YAML indicator must be quoted, and the error says so", "[config]") {
  const auto hint = [](int column, char indicator, const std::string& example, const std::string& reading) {
    return fmt::format(
        "gate.yaml:2:{}: value starting with \"{}\" must be quoted (write {}; YAML reads an "
        "unquoted \"{}\" as {})",
        column, indicator, example, indicator, reading);
  };
  SECTION("malformed YAML") {
    CHECK_THROWS_WITH(parse("warmup: 1\nconfidence: %95\n"),
                      hint(13, '%', "confidence: \"%95\"", "a directive"));
    CHECK_THROWS_WITH(parse("metrics:\n  bench: {google_benchmark: *, gate: true}\n"),
                      hint(29, '*', "google_benchmark: \"*\"", "an alias of an anchor"));
    CHECK_THROWS_WITH(parse("metrics:\n  wall_time: {unit: @s}\n"),
                      hint(21, '@', "unit: \"@s\"", "a reserved indicator"));
    CHECK_THROWS_WITH(parse("baseline:\n  command: `bench`\n"),
                      hint(12, '`', "command: \"`bench`\"", "a reserved indicator"));
    CHECK_THROWS_WITH(parse("warmup: 1\nmax_seconds: | 60\n"),
                      hint(14, '|', "max_seconds: \"| 60\"", "the start of a literal block"));
    CHECK_THROWS_WITH(parse("warmup: 1\nconfidence: >90%\n"),
                      hint(13, '>', "confidence: \">90%\"", "the start of a folded block"));
    // In a list and with a comment after the value.
    CHECK_THROWS_WITH(parse("baseline:\n  - %bench # the program\n"),
                      hint(5, '%', "- \"%bench\"", "a directive"));
  }
  SECTION("YAML that reads as an empty value") {
    CHECK_THROWS_WITH(parse("warmup: 1\nconfidence: &95\n"),
                      hint(13, '&', "confidence: \"&95\"", "an anchor"));
    CHECK_THROWS_WITH(parse("warmup: 1\nconfidence: !95\n"), hint(13, '!', "confidence: \"!95\"", "a tag"));
    CHECK_THROWS_WITH(parse("warmup: 1\nconfidence: |95\n"),
                      hint(13, '|', "confidence: \"|95\"", "the start of a literal block"));
    CHECK_THROWS_WITH(parse("warmup: 1\nconfidence: >95\n"),
                      hint(13, '>', "confidence: \">95\"", "the start of a folded block"));
    // A value that may be any text would take the empty one without complaint.
    CHECK_THROWS_WITH(parse("metrics:\n  wall_time: {unit: !x}\n"), hint(21, '!', "unit: \"!x\"", "a tag"));
  }
  SECTION("quoted, and the indicators used as YAML means them, values are read as written") {
    const Config config = parse(
        "metrics:\n"
        "  wall_time: {threshold: &t 5%, unit: \"%\"}\n"
        "  user_time: {threshold: *t, unit: '`s`'}\n"
        "baseline:\n"
        "  shell: true\n"
        "  command: |\n"
        "    echo '>fast'\n"
        "candidate: {command: \"!slow\"}\n");
    CHECK(metric(config, "wall_time").threshold == Approx(0.05));
    CHECK(metric(config, "wall_time").unit == "%");
    CHECK(metric(config, "user_time").threshold == Approx(0.05));
    CHECK(metric(config, "user_time").unit == "`s`");
    CHECK(config.baseline->argv == std::vector<std::string>{"echo '>fast'\n"});
    CHECK(config.candidate->argv == std::vector<std::string>{"!slow"});
  }
  SECTION("other errors keep their message") {
    CHECK_THROWS_WITH(parse("warmup: 1\nconfidence: 5%\n"),
                      "gate.yaml:2: \"confidence\" must be between +50.00 % and +99.99 %, not 5%");
  }
}

TEST_CASE("commands must be usable", "[config]") {
  CHECK_THROWS_WITH(parse("baseline: \"\""), "gate.yaml:1: \"baseline\" command is empty");
  CHECK_THROWS_WITH(parse("warmup: 1\ncandidate: []\n"), "gate.yaml:2: \"candidate\" command is empty");
  CHECK_THROWS_WITH(parse("candidate:\n  command: ''\n"), "gate.yaml:2: \"candidate\" command is empty");
  CHECK_THROWS_WITH(parse("baseline: [./a, [b]]"), "gate.yaml:1: \"command\" must be a single value");
  CHECK_THROWS_WITH(parse("candidate:\n  shell: true\n"), "gate.yaml:2: \"candidate\" needs a \"command\"");
  CHECK_THROWS_WITH(parse("baseline: ./a 'unterminated"), Catch::StartsWith("gate.yaml:1: \"command\": "));
  CHECK_THROWS_WITH(parse("baseline:\n  command: ./a\n  env: [A]\n"),
                    "gate.yaml:3: \"env\" must be a mapping of variable names to values");
}

TEST_CASE("a regex needs exactly one capture group", "[config]") {
  CHECK_THROWS_WITH(parse("metrics:\n  score:\n    regex: 'score: \\d+'\n"),
                    R"(gate.yaml:3: "regex" must have exactly one capture group, "score: \d+" has 0)");
  CHECK_THROWS_WITH(parse("metrics:\n  score:\n    regex: '(\\w+): (\\d+)'\n"),
                    R"~(gate.yaml:3: "regex" must have exactly one capture group, "(\w+): (\d+)" has 2)~");
  CHECK_THROWS_WITH(parse("metrics:\n  score:\n    regex: 'score: (\\d+'\n"),
                    Catch::StartsWith(R"(gate.yaml:3: "regex": invalid regular expression "score: (\d+": )"));
  // A non-capturing group does not count.
  CHECK(metric(parse("metrics:\n  score:\n    regex: '(?:ms|us) (\\d+)'\n"), "score").source ==
        MetricSource::regex);
}

TEST_CASE("a metric needs exactly one source", "[config]") {
  CHECK_THROWS_WITH(parse("metrics:\n  score:\n"),
                    "gate.yaml:2: metric \"score\" needs a source: regex, json_pointer, google_benchmark, "
                    "catch2, counter or valgrind");
  CHECK_THROWS_WITH(parse("metrics:\n  score:\n    gate: true\n"),
                    "gate.yaml:2: metric \"score\" needs exactly one source: regex, json_pointer, "
                    "google_benchmark, catch2, counter or valgrind");
  CHECK_THROWS_WITH(parse("metrics:\n  score:\n    regex: '(\\d+)'\n    json_pointer: /score\n"),
                    "gate.yaml:2: metric \"score\" needs exactly one source: regex, json_pointer, "
                    "google_benchmark, catch2, counter or valgrind");
  CHECK_THROWS_WITH(
      parse("metrics:\n  score:\n    json_pointer: score\n"),
      "gate.yaml:3: \"json_pointer\": invalid JSON pointer \"score\" (write e.g. /results/0/time)");
  CHECK_THROWS_WITH(parse("metrics:\n  score:\n    regex: '(\\d+)'\n    field: cpu_time\n"),
                    "gate.yaml:4: \"field\" only applies with \"google_benchmark\" or \"catch2\"");
  CHECK_THROWS_WITH(parse("metrics:\n  score:\n    regex: '(\\d+)'\n  score:\n    regex: '(\\d+)'\n"),
                    "gate.yaml:4: metric \"score\" is defined twice");
  CHECK_THROWS_WITH(parse("metrics: [wall_time]"),
                    "gate.yaml:1: \"metrics\" must be a mapping of metric names to settings");
}

TEST_CASE("counted metrics: hardware counters and valgrind", "[config]") {
  const Config config = parse(R"(metrics:
  insns: {counter: instructions}
  cycles: {counter: cycles}
  bm: {counter: branch-misses}
  cm: {counter: cache-misses, gate: false}
  sim_insns: {valgrind: instructions}
  est_cycles: {valgrind: cycles, threshold: 1%}
)");
  CHECK(metric(config, "insns").source == MetricSource::counter);
  CHECK(metric(config, "insns").event == CountedEvent::instructions);
  CHECK(metric(config, "cycles").event == CountedEvent::cycles);
  CHECK(metric(config, "bm").event == CountedEvent::branch_misses);
  CHECK(metric(config, "cm").event == CountedEvent::cache_misses);
  CHECK(metric(config, "sim_insns").source == MetricSource::valgrind);
  CHECK(metric(config, "est_cycles").event == CountedEvent::cycles);
  CHECK(metric(config, "est_cycles").threshold == Approx(0.01));
  // Counts are exact: below 0.1 % is no change by default (the path alone moves a count).
  CHECK(metric(config, "insns").tolerance == Approx(0.001));
  CHECK(metric(config, "sim_insns").tolerance == Approx(0.001));
  CHECK(metric(parse("metrics: {i: {valgrind: instructions, tolerance: 0}}"), "i").tolerance == 0.0);
  CHECK(std::string(counted_event_name(CountedEvent::branch_misses)) == "branch-misses");

  CHECK_THROWS_WITH(
      parse("metrics:\n  insns:\n    counter: instruction\n"),
      "gate.yaml:3: \"counter\" must be one of instructions, cycles, branch-misses, cache-misses, "
      "not \"instruction\"");
  CHECK_THROWS_WITH(parse("metrics:\n  bm:\n    valgrind: branch-misses\n"),
                    "gate.yaml:3: \"valgrind\" must be one of instructions, cycles, not \"branch-misses\"");
  CHECK_THROWS_WITH(
      parse("metrics:\n  insns:\n    valgrind: instructions\n    counter: instructions\n"),
      "gate.yaml:2: metric \"insns\" needs exactly one source: regex, json_pointer, google_benchmark, "
      "catch2, counter or valgrind");
}

TEST_CASE("a counted metric makes wall time report-only unless its gate is set", "[config]") {
  SECTION("hardware counters keep the plain runs and the built-ins") {
    const Config config = parse("metrics:\n  insns: {counter: instructions}\n");
    CHECK(metric_names(config) ==
          std::vector<std::string>{"wall_time", "user_time", "system_time", "max_rss", "insns"});
    CHECK(metric(config, "wall_time").gating == Gating::report_only);
    CHECK(config.warmup == 1);
  }
  SECTION("wall time gated on request") {
    const Config config = parse("metrics:\n  wall_time: {gate: true}\n  insns: {valgrind: instructions}\n");
    CHECK(metric(config, "wall_time").gating == Gating::gated);
    CHECK(metric_names(config) ==
          std::vector<std::string>{"wall_time", "user_time", "system_time", "max_rss", "insns"});
  }
  SECTION("only valgrind metrics gated: the unnamed built-ins go, and with them the warm-up") {
    const Config config = parse("metrics:\n  insns: {valgrind: instructions}\n");
    CHECK(metric_names(config) == std::vector<std::string>{"insns"});
    CHECK(config.warmup == 0);
  }
  SECTION("a built-in that is named stays, report-only, and so does an explicit warm-up") {
    const Config config =
        parse("warmup: 2\nmetrics:\n  max_rss: {gate: false}\n  insns: {valgrind: instructions}\n");
    CHECK(metric_names(config) == std::vector<std::string>{"max_rss", "insns"});
    CHECK(config.warmup == 2);
  }
  SECTION("report-only counted metrics change nothing else") {
    const Config config =
        parse("metrics:\n  wall_time: {gate: true}\n  insns: {valgrind: instructions, gate: false}\n");
    CHECK(metric_names(config).size() == 5);
    CHECK(config.gated_metrics().front()->name == "wall_time");
  }
}

TEST_CASE("a built-in metric takes no source", "[config]") {
  CHECK_THROWS_WITH(parse("metrics:\n  wall_time:\n    regex: 'took (\\d+) ms'\n"),
                    "gate.yaml:2: \"wall_time\" is a built-in metric and takes no source; pick another name");
  CHECK_THROWS_WITH(parse("metrics:\n  max_rss:\n    google_benchmark: BM_x\n"),
                    "gate.yaml:2: \"max_rss\" is a built-in metric and takes no source; pick another name");
}

TEST_CASE("max_rounds below min_rounds is rejected where it is written", "[config]") {
  CHECK_THROWS_WITH(parse("min_rounds: 30\nmax_rounds: 10\n"),
                    "gate.yaml:2: \"max_rounds\" (10) is below \"min_rounds\" (30)");
  CHECK_THROWS_WITH(parse("warmup: 0\nmin_rounds: 3000\n"),
                    "gate.yaml:2: \"max_rounds\" (2000) is below \"min_rounds\" (3000)");
  CHECK(parse("min_rounds: 10\nmax_rounds: 10\n").max_rounds == 10);
}

TEST_CASE("at least one metric must be gated", "[config]") {
  CHECK_THROWS_WITH(parse("warmup: 2\nmetrics:\n  wall_time:\n    gate: false\n"),
                    "gate.yaml:1: no metric is gated; set \"gate: true\" on at least one metric");
  CHECK_THROWS_WITH(parse("metrics:\n  wall_time: {gate: no}\n  score: {regex: '(\\d+)', gate: no}\n"),
                    "gate.yaml:1: no metric is gated; set \"gate: true\" on at least one metric");
}

TEST_CASE("load_config names the file it cannot read", "[config]") {
  CHECK_THROWS_WITH(load_config("/nonexistent/perfduel/gate.yaml"),
                    "/nonexistent/perfduel/gate.yaml: cannot read the configuration file");
}

TEST_CASE("config errors carry the usage exit code", "[config]") {
  try {
    parse("order: sideways");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.exit_code() == ExitCode::usage);
  }
}

TEST_CASE("config_to_json reads back to the same configuration", "[config]") {
  const auto round_trip = [](const Config& config) {
    const std::string json = config_to_json(config);
    const Config again = parse_config(json, "report.json");
    CHECK(config_to_json(again) == json);
    return again;
  };

  SECTION("defaults") {
    const Config again = round_trip(default_config());
    CHECK_FALSE(again.baseline.has_value());
    CHECK_FALSE(again.seed.has_value());
  }

  SECTION("counted metrics") {
    const Config again = round_trip(
        parse("metrics:\n  insns: {valgrind: instructions}\n  est: {valgrind: cycles, gate: false}\n"));
    CHECK(metric_names(again) == std::vector<std::string>{"insns", "est"});
    CHECK(metric(again, "est").event == CountedEvent::cycles);
    CHECK(again.warmup == 0);
    const Config counters = round_trip(parse("metrics:\n  bm: {counter: branch-misses}\n"));
    CHECK(metric(counters, "bm").source == MetricSource::counter);
    CHECK(metric(counters, "wall_time").gating == Gating::report_only);
  }

  SECTION("every key set away from its default") {
    const Config config = parse(R"(baseline:
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
    const Config again = round_trip(config);
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
}

TEST_CASE("retries default to none and are capped", "[config][retries]") {
  CHECK(parse("min_rounds: 20\n").retries == 0);
  CHECK(parse("retries: 3\n").retries == 3);
  CHECK(parse("retries: 10\n").retries == k_max_retries);
  CHECK_THROWS_WITH(
      parse("retries: 11\n"),
      "gate.yaml:1: \"retries\" must be at most 10 (a benchmark that fails more often is broken, "
      "not flaky), not 11");
  CHECK_THROWS_WITH(parse("retries: 1.5\n"), "gate.yaml:1: \"retries\" must be a whole number, not 1.5");
  // The report's config section gives them back.
  CHECK(parse_config(config_to_json(parse("retries: 4\n")), "report").retries == 4);
}

TEST_CASE("a tolerance above 100 % is for lower-is-better metrics", "[config]") {
  // "Fail only beyond 3× slower": a coarse gate for a very noisy benchmark.
  CHECK(metric(parse("metrics: {wall_time: {threshold: 400%, tolerance: 200%}}"), "wall_time").tolerance ==
        Approx(2.0));
  CHECK(metric(parse("metrics: {wall_time: {tolerance: 1000%}}"), "wall_time").tolerance == Approx(10.0));
  CHECK_THROWS_WITH(parse("metrics: {wall_time: {tolerance: 1001%}}"),
                    "gate.yaml:1: \"tolerance\" must be between +0.00 % and +1000.00 %, not 1001%");
  CHECK_THROWS_WITH(
      parse("metrics:\n  rate:\n    regex: 'r: (\\S+)'\n    direction: higher\n    tolerance: 100%\n"),
      "gate.yaml:5: \"tolerance\" of 100.00 % needs a lower-is-better metric: a higher-is-better "
      "one cannot fall by 100 % or more, so its gate could never fail");
  CHECK(
      metric(parse("metrics:\n  rate:\n    regex: 'r: (\\S+)'\n    direction: higher\n    tolerance: 99%\n"),
             "rate")
          .tolerance == Approx(0.99));
}
