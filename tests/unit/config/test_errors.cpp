// What a configuration that cannot be used says: the file, the line, the key and the fix.
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

TEST_CASE("unknown keys are rejected with a suggestion", "[config]") {
  CHECK_THROWS_WITH(parse_gate("min_rounds: 20\nwarmup_runs: 3\n"),
                    "gate.yaml:2: unknown key \"warmup_runs\" (did you mean \"warmup\"?)");
  CHECK_THROWS_WITH(parse_gate("confidense: 95%"),
                    "gate.yaml:1: unknown key \"confidense\" (did you mean \"confidence\"?)");
  CHECK_THROWS_WITH(parse_gate("colour: blue"), "gate.yaml:1: unknown key \"colour\" in the configuration");
  CHECK_THROWS_WITH(parse_gate("metrics:\n  wall_time:\n    treshold: 5%\n"),
                    "gate.yaml:3: unknown key \"treshold\" (did you mean \"threshold\"?)");
  CHECK_THROWS_WITH(parse_gate("baseline:\n  command: ./a\n  enviroment: {A: 1}\n"),
                    "gate.yaml:3: unknown key \"enviroment\" (did you mean \"env\"?)");
}

// Found by fuzzing (tests/fuzz/corpus/config/complex_key.yaml): YAML's "? key" syntax allows a
// list or a mapping as a key, which escaped as yaml-cpp's bad-conversion exception.
// Found by fuzzing (tests/fuzz/corpus/config/not_utf8.yaml): a Latin-1 byte was accepted, then
// writing the JSON report (which holds the configuration) threw nlohmann's UTF-8 error.
TEST_CASE("a configuration that is not UTF-8 is rejected with its line", "[config]") {
  CHECK_THROWS_WITH(parse_gate("min_rounds: 20\nmetrics:\n  caf\xE9: {regex: 'x(1)', gate: true}\n"),
                    "gate.yaml:3: not valid UTF-8 (byte 30); save the file as UTF-8");
  CHECK(parse_gate("metrics:\n  caf\xC3\xA9: {regex: 'x(1)', gate: true}\n").metrics.back().name ==
        "caf\xC3\xA9");
}

// Found by fuzzing (tests/fuzz/corpus/config/nul_byte.yaml): yaml-cpp reads "c\x01\0_time" as
// bytes that are not UTF-8, so the report could not be written.
TEST_CASE("a configuration with a control character is rejected with its line", "[config]") {
  using namespace std::string_literals;
  CHECK_THROWS_WITH(parse_gate("metrics:\n  t: {google_benchmark: BM_x, field: c\x01\0_time}\n"s),
                    "gate.yaml:2: control character 0x01 (byte 48); YAML allows only tabs, line breaks and "
                    "printable text");
  CHECK_THROWS_WITH(parse_gate("seed: 1\x7f\n"),
                    "gate.yaml:1: control character 0x7F (byte 8); YAML allows only tabs, "
                    "line breaks and printable text");
  CHECK(parse_gate("seed:\t1\r\nwarmup: 2\r\n").warmup == 2);
}

// Found by fuzzing (tests/fuzz/corpus/config/escape_not_utf8.yaml): yaml-cpp decodes "\_" (a
// no-break space) in a double-quoted value to the single byte 0xA0, which is not UTF-8, and the
// report that copies the configuration could not be written.
TEST_CASE("a value whose escapes decode to bytes that are not UTF-8 is rejected", "[config]") {
  CHECK_THROWS_WITH(
      parse_gate("baseline:\n  command: ./a\n  env: {X: \"a\\_b\"}\n"),
      "gate.yaml:3: \"env\" is not UTF-8 once its escapes are decoded; write the character itself "
      "or \\u followed by its code (\\u00A0 for \\_)");
  CHECK_THROWS_WITH(parse_gate("metrics:\n  \"w\\Nt\": {regex: 'x(1)'}\n"),
                    Catch::StartsWith("gate.yaml:2: a key in \"metrics\" is not UTF-8 once its escapes"));
  CHECK(parse_gate("baseline:\n  command: ./a\n  env: {X: \"a\\u00A0b\"}\n").baseline->environment.at("X") ==
        "a\xC2\xA0"
        "b");
}

TEST_CASE("a key that is a list or mapping is rejected with its line", "[config]") {
  CHECK_THROWS_WITH(parse_gate("? [a, b]\n: 1\n"),
                    "gate.yaml:1: a key in the configuration must be a plain name, not a list or mapping");
  CHECK_THROWS_WITH(parse_gate("metrics:\n  ? {a: 1}\n  : {regex: 'x(1)', gate: true}\n"),
                    "gate.yaml:2: a key in \"metrics\" must be a plain name, not a list or mapping");
  CHECK_THROWS_WITH(parse_gate("metrics:\n  wall_time:\n    ? [gate]\n    : true\n"),
                    "gate.yaml:3: a key in metric \"wall_time\" must be a plain name, not a list or mapping");
  CHECK_THROWS_WITH(parse_gate("baseline:\n  command: ./a\n  env:\n    ? [A]\n    : 1\n"),
                    "gate.yaml:4: a key in \"env\" must be a plain name, not a list or mapping");
}

TEST_CASE("a bad enum value lists the choices", "[config]") {
  CHECK_THROWS_WITH(parse_gate("warmup: 2\norder: shuffled\n"),
                    "gate.yaml:2: \"order\" must be one of random, abba, duet, duet-fixed, not \"shuffled\"");
  CHECK_THROWS_WITH(parse_gate("inconclusive: ignore"),
                    "gate.yaml:1: \"inconclusive\" must be one of skip, fail, pass, not \"ignore\"");
  CHECK_THROWS_WITH(parse_gate("metrics:\n  wall_time:\n    direction: down\n"),
                    "gate.yaml:3: \"direction\" must be one of lower, higher, not \"down\"");
  CHECK_THROWS_WITH(
      parse_gate("metrics:\n  wall_time:\n    estimator: mode\n"),
      "gate.yaml:3: \"estimator\" must be one of mean, median, min, ratio, trimmed, not \"mode\"");
  CHECK_THROWS_WITH(parse_gate("detect_warmup: maybe"),
                    "gate.yaml:1: \"detect_warmup\" must be true or false, not \"maybe\"");
}

TEST_CASE("a bad number names the key and the text", "[config]") {
  CHECK_THROWS_WITH(parse_gate("warmup: lots"), "gate.yaml:1: \"warmup\": invalid number: \"lots\"");
  CHECK_THROWS_WITH(parse_gate("warmup: 1.5"), "gate.yaml:1: \"warmup\" must be a whole number, not 1.5");
  CHECK_THROWS_WITH(parse_gate("min_rounds: 1"),
                    "gate.yaml:1: \"min_rounds\" must be between 2 and 1000000000, not 1");
  CHECK_THROWS_WITH(parse_gate("confidence: high"),
                    "gate.yaml:1: \"confidence\": invalid fraction: \"high\" (write 2% or 0.02)");
  CHECK_THROWS_WITH(parse_gate("confidence: 120%"),
                    "gate.yaml:1: \"confidence\" must be between +50.00 % and +99.99 %, not 120%");
  CHECK_THROWS_WITH(parse_gate("metrics:\n  wall_time:\n    threshold: x%\n"),
                    "gate.yaml:3: \"threshold\": invalid percentage: \"x%\"");
  CHECK_THROWS_WITH(
      parse_gate("max_seconds: soon"),
      "gate.yaml:1: \"max_seconds\": invalid duration: \"soon\" (write 90, 90s, 1.5m or 250ms)");
  CHECK_THROWS_WITH(parse_gate("timeout: 0s"), "gate.yaml:1: \"timeout\" must be positive");
  CHECK_THROWS_WITH(parse_gate("cpus: 3-1"),
                    "gate.yaml:1: \"cpus\": invalid CPU list: \"3-1\" (write e.g. 2 or 0-3,6)");
  CHECK_THROWS_WITH(parse_gate("seed: abc"),
                    "gate.yaml:1: \"seed\" must be a non-negative whole number, not \"abc\"");
  CHECK_THROWS_WITH(parse_gate("seed: 12x"),
                    "gate.yaml:1: \"seed\" must be a non-negative whole number, not \"12x\"");
  CHECK_THROWS_WITH(parse_gate("seed: -1"),
                    "gate.yaml:1: \"seed\" must be a non-negative whole number, not \"-1\"");
}

TEST_CASE("malformed YAML names the line", "[config]") {
  CHECK_THROWS_WITH(parse_gate("warmup: 1\norder: [random\n"),
                    "gate.yaml:3: malformed YAML: end of sequence flow not found");
  CHECK_THROWS_WITH(parse_gate("warmup: 1\n  order: random\n"),
                    "gate.yaml:2: malformed YAML: illegal map value");
  CHECK_THROWS_WITH(parse_gate("warmup: 1\nseed: '12"), "gate.yaml:2: malformed YAML: illegal EOF in scalar");
  CHECK_THROWS_WITH(parse_gate("- warmup\n- order\n"),
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
    CHECK_THROWS_WITH(parse_gate("warmup: 1\nconfidence: %95\n"),
                      hint(13, '%', "confidence: \"%95\"", "a directive"));
    CHECK_THROWS_WITH(parse_gate("metrics:\n  bench: {google_benchmark: *, gate: true}\n"),
                      hint(29, '*', "google_benchmark: \"*\"", "an alias of an anchor"));
    CHECK_THROWS_WITH(parse_gate("metrics:\n  wall_time: {unit: @s}\n"),
                      hint(21, '@', "unit: \"@s\"", "a reserved indicator"));
    CHECK_THROWS_WITH(parse_gate("baseline:\n  command: `bench`\n"),
                      hint(12, '`', "command: \"`bench`\"", "a reserved indicator"));
    CHECK_THROWS_WITH(parse_gate("warmup: 1\nmax_seconds: | 60\n"),
                      hint(14, '|', "max_seconds: \"| 60\"", "the start of a literal block"));
    CHECK_THROWS_WITH(parse_gate("warmup: 1\nconfidence: >90%\n"),
                      hint(13, '>', "confidence: \">90%\"", "the start of a folded block"));
    // In a list and with a comment after the value.
    CHECK_THROWS_WITH(parse_gate("baseline:\n  - %bench # the program\n"),
                      hint(5, '%', "- \"%bench\"", "a directive"));
  }
  SECTION("YAML that reads as an empty value") {
    CHECK_THROWS_WITH(parse_gate("warmup: 1\nconfidence: &95\n"),
                      hint(13, '&', "confidence: \"&95\"", "an anchor"));
    CHECK_THROWS_WITH(parse_gate("warmup: 1\nconfidence: !95\n"),
                      hint(13, '!', "confidence: \"!95\"", "a tag"));
    CHECK_THROWS_WITH(parse_gate("warmup: 1\nconfidence: |95\n"),
                      hint(13, '|', "confidence: \"|95\"", "the start of a literal block"));
    CHECK_THROWS_WITH(parse_gate("warmup: 1\nconfidence: >95\n"),
                      hint(13, '>', "confidence: \">95\"", "the start of a folded block"));
    // A value that may be any text would take the empty one without complaint.
    CHECK_THROWS_WITH(parse_gate("metrics:\n  wall_time: {unit: !x}\n"),
                      hint(21, '!', "unit: \"!x\"", "a tag"));
  }
  SECTION("quoted, and the indicators used as YAML means them, values are read as written") {
    const Config config = parse_gate(
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
    CHECK_THROWS_WITH(parse_gate("warmup: 1\nconfidence: 5%\n"),
                      "gate.yaml:2: \"confidence\" must be between +50.00 % and +99.99 %, not 5%");
  }
}

TEST_CASE("commands must be usable", "[config]") {
  CHECK_THROWS_WITH(parse_gate("baseline: \"\""), "gate.yaml:1: \"baseline\" command is empty");
  CHECK_THROWS_WITH(parse_gate("warmup: 1\ncandidate: []\n"), "gate.yaml:2: \"candidate\" command is empty");
  CHECK_THROWS_WITH(parse_gate("candidate:\n  command: ''\n"), "gate.yaml:2: \"candidate\" command is empty");
  CHECK_THROWS_WITH(parse_gate("baseline: [./a, [b]]"), "gate.yaml:1: \"command\" must be a single value");
  CHECK_THROWS_WITH(parse_gate("candidate:\n  shell: true\n"),
                    "gate.yaml:2: \"candidate\" needs a \"command\"");
  CHECK_THROWS_WITH(parse_gate("baseline: ./a 'unterminated"),
                    Catch::StartsWith("gate.yaml:1: \"command\": "));
  CHECK_THROWS_WITH(parse_gate("baseline:\n  command: ./a\n  env: [A]\n"),
                    "gate.yaml:3: \"env\" must be a mapping of variable names to values");
}

TEST_CASE("a regex needs exactly one capture group", "[config]") {
  CHECK_THROWS_WITH(parse_gate("metrics:\n  score:\n    regex: 'score: \\d+'\n"),
                    R"(gate.yaml:3: "regex" must have exactly one capture group, "score: \d+" has 0)");
  CHECK_THROWS_WITH(parse_gate("metrics:\n  score:\n    regex: '(\\w+): (\\d+)'\n"),
                    R"~(gate.yaml:3: "regex" must have exactly one capture group, "(\w+): (\d+)" has 2)~");
  CHECK_THROWS_WITH(parse_gate("metrics:\n  score:\n    regex: 'score: (\\d+'\n"),
                    Catch::StartsWith(R"(gate.yaml:3: "regex": invalid regular expression "score: (\d+": )"));
  // A non-capturing group does not count.
  CHECK(metric(parse_gate("metrics:\n  score:\n    regex: '(?:ms|us) (\\d+)'\n"), "score").source ==
        MetricSource::regex);
}

TEST_CASE("a metric needs exactly one source", "[config]") {
  CHECK_THROWS_WITH(parse_gate("metrics:\n  score:\n"),
                    "gate.yaml:2: metric \"score\" needs a source: regex, json_pointer, google_benchmark, "
                    "catch2, counter, valgrind or heap");
  CHECK_THROWS_WITH(parse_gate("metrics:\n  score:\n    gate: true\n"),
                    "gate.yaml:2: metric \"score\" needs exactly one source: regex, json_pointer, "
                    "google_benchmark, catch2, counter, valgrind or heap");
  CHECK_THROWS_WITH(parse_gate("metrics:\n  score:\n    regex: '(\\d+)'\n    json_pointer: /score\n"),
                    "gate.yaml:2: metric \"score\" needs exactly one source: regex, json_pointer, "
                    "google_benchmark, catch2, counter, valgrind or heap");
  CHECK_THROWS_WITH(
      parse_gate("metrics:\n  score:\n    json_pointer: score\n"),
      "gate.yaml:3: \"json_pointer\": invalid JSON pointer \"score\" (write e.g. /results/0/time)");
  CHECK_THROWS_WITH(parse_gate("metrics:\n  score:\n    regex: '(\\d+)'\n    field: cpu_time\n"),
                    "gate.yaml:4: \"field\" only applies with \"google_benchmark\" or \"catch2\"");
  CHECK_THROWS_WITH(parse_gate("metrics:\n  score:\n    regex: '(\\d+)'\n  score:\n    regex: '(\\d+)'\n"),
                    "gate.yaml:4: metric \"score\" is defined twice");
  CHECK_THROWS_WITH(parse_gate("metrics: [wall_time]"),
                    "gate.yaml:1: \"metrics\" must be a mapping of metric names to settings");
}

TEST_CASE("counted metrics: hardware counters and valgrind", "[config]") {
  const Config config = parse_gate(R"(metrics:
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
  CHECK(metric(parse_gate("metrics: {i: {valgrind: instructions, tolerance: 0}}"), "i").tolerance == 0.0);
  CHECK(std::string(counted_event_name(CountedEvent::branch_misses)) == "branch-misses");

  CHECK_THROWS_WITH(
      parse_gate("metrics:\n  insns:\n    counter: instruction\n"),
      "gate.yaml:3: \"counter\" must be one of instructions, cycles, branch-misses, cache-misses, "
      "not \"instruction\"");
  CHECK_THROWS_WITH(
      parse_gate("metrics:\n  bm:\n    valgrind: branch-misses\n"),
      "gate.yaml:3: \"valgrind\" must be one of instructions, cycles, allocations, allocated_bytes, not "
      "\"branch-misses\"");
  CHECK_THROWS_WITH(
      parse_gate("metrics:\n  insns:\n    valgrind: instructions\n    counter: instructions\n"),
      "gate.yaml:2: metric \"insns\" needs exactly one source: regex, json_pointer, google_benchmark, "
      "catch2, counter, valgrind or heap");
}

TEST_CASE("a counted metric makes wall time report-only unless its gate is set", "[config]") {
  SECTION("hardware counters keep the plain runs and the built-ins") {
    const Config config = parse_gate("metrics:\n  insns: {counter: instructions}\n");
    CHECK(metric_names(config) ==
          std::vector<std::string>{"wall_time", "user_time", "system_time", "max_rss", "insns"});
    CHECK(metric(config, "wall_time").gating == Gating::report_only);
    CHECK(config.warmup == 1);
  }
  SECTION("wall time gated on request") {
    const Config config =
        parse_gate("metrics:\n  wall_time: {gate: true}\n  insns: {valgrind: instructions}\n");
    CHECK(metric(config, "wall_time").gating == Gating::gated);
    CHECK(metric_names(config) ==
          std::vector<std::string>{"wall_time", "user_time", "system_time", "max_rss", "insns"});
  }
  SECTION("only valgrind metrics gated: the unnamed built-ins go, and with them the warm-up") {
    const Config config = parse_gate("metrics:\n  insns: {valgrind: instructions}\n");
    CHECK(metric_names(config) == std::vector<std::string>{"insns"});
    CHECK(config.warmup == 0);
  }
  SECTION("a built-in that is named stays, report-only, and so does an explicit warm-up") {
    const Config config =
        parse_gate("warmup: 2\nmetrics:\n  max_rss: {gate: false}\n  insns: {valgrind: instructions}\n");
    CHECK(metric_names(config) == std::vector<std::string>{"max_rss", "insns"});
    CHECK(config.warmup == 2);
  }
  SECTION("report-only counted metrics change nothing else") {
    const Config config =
        parse_gate("metrics:\n  wall_time: {gate: true}\n  insns: {valgrind: instructions, gate: false}\n");
    CHECK(metric_names(config).size() == 5);
    CHECK(config.gated_metrics().front()->name == "wall_time");
  }
}

TEST_CASE("a built-in metric takes no source", "[config]") {
  CHECK_THROWS_WITH(parse_gate("metrics:\n  wall_time:\n    regex: 'took (\\d+) ms'\n"),
                    "gate.yaml:2: \"wall_time\" is a built-in metric and takes no source; pick another name");
  CHECK_THROWS_WITH(parse_gate("metrics:\n  max_rss:\n    google_benchmark: BM_x\n"),
                    "gate.yaml:2: \"max_rss\" is a built-in metric and takes no source; pick another name");
}

TEST_CASE("max_rounds below min_rounds is rejected where it is written", "[config]") {
  CHECK_THROWS_WITH(parse_gate("min_rounds: 30\nmax_rounds: 10\n"),
                    "gate.yaml:2: \"max_rounds\" (10) is below \"min_rounds\" (30)");
  CHECK_THROWS_WITH(parse_gate("warmup: 0\nmin_rounds: 3000\n"),
                    "gate.yaml:2: \"max_rounds\" (2000) is below \"min_rounds\" (3000)");
  CHECK(parse_gate("min_rounds: 10\nmax_rounds: 10\n").max_rounds == 10);
}

TEST_CASE("at least one metric must be gated", "[config]") {
  CHECK_THROWS_WITH(parse_gate("warmup: 2\nmetrics:\n  wall_time:\n    gate: false\n"),
                    "gate.yaml:1: no metric is gated; set \"gate: true\" on at least one metric");
  CHECK_THROWS_WITH(parse_gate("metrics:\n  wall_time: {gate: no}\n  score: {regex: '(\\d+)', gate: no}\n"),
                    "gate.yaml:1: no metric is gated; set \"gate: true\" on at least one metric");
}

TEST_CASE("load_config names the file it cannot read", "[config]") {
  CHECK_THROWS_WITH(load_config("/nonexistent/perfduel/gate.yaml"),
                    "/nonexistent/perfduel/gate.yaml: cannot read the configuration file");
}

TEST_CASE("config errors carry the usage exit code", "[config]") {
  try {
    parse_gate("order: sideways");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.exit_code() == ExitCode::usage);
  }
}
