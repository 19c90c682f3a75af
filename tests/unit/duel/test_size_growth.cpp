// The binary_size metric: which symbols grew (duel/size_growth.hpp, pure), and a duel on it that
// runs nothing (duel/program_sizes.hpp) with the real programs of tests/programs/size_app.cpp.
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "duel/duel.hpp"
#include "duel/size_growth.hpp"

using namespace perfduel;

namespace {

util::ElfSize sized(std::map<std::string, std::uint64_t> symbols) {
  util::ElfSize size;
  for (const auto& [name, bytes] : symbols) {
    size.bytes += bytes;
  }
  size.symbols = std::move(symbols);
  return size;
}

// An executor that must not be asked to run anything.
class NothingRuns final : public Executor {
 public:
  RunResult run(const CommandSpec& /*command*/, const RunLimits& /*limits*/) override {
    ++runs;
    return {};
  }
  double now_seconds() override { return 0; }
  int runs = 0;
};

Config size_gate(const std::string& baseline, const std::string& candidate) {
  Config config = parse_config("metrics:\n  binary_size: {threshold: 1%}\n", "gate.yaml");
  config.baseline = CommandSpec{{baseline}, Launch::direct, {}, {}};
  config.candidate = CommandSpec{{candidate}, Launch::direct, {}, {}};
  return config;
}

}  // namespace

TEST_CASE("the symbols that grew, most first: new, grown; shrunk and unchanged ones left out", "[size]") {
  const auto before = sized({{"kept", 100}, {"grown", 40}, {"shrunk", 50}, {"gone", 10}});
  const auto after = sized({{"kept", 100}, {"grown", 72}, {"shrunk", 20}, {"table", 4096}, {"b", 32}});
  const auto grown = grown_symbols(before, after);
  REQUIRE(grown.size() == 3);
  CHECK(grown[0].name == "table");
  CHECK(grown[0].bytes() == 4096);
  CHECK(grown[1].name == "b");  // ties by name: b before grown
  CHECK(grown[2].name == "grown");
  CHECK(describe_growth(grown) == "table (+4096 B, new), b (+32 B, new), grown (+32 B)");
  CHECK(grown_symbols(before, after, 1).size() == 1);
  CHECK(grown_symbols(after, after).empty());
}

TEST_CASE("binary_size is a counted metric that needs no run", "[size][config]") {
  const Config config = parse_config("metrics:\n  binary_size:\n", "gate.yaml");
  REQUIRE(config.metrics.size() == 1);  // the built-in timed ones are dropped: nothing runs
  const MetricSpec& metric = config.metrics[0];
  CHECK(metric.source == MetricSource::binary_size);
  CHECK(metric.unit == "B");
  CHECK(metric.gating == Gating::gated);
  CHECK(metric.tolerance == Approx(0.001));
  CHECK(config.warmup == 0);
  CHECK(parse_config(config_to_json(config), "effective.json").metrics[0].source ==
        MetricSource::binary_size);
  CHECK_THROWS_WITH(parse_config("metrics:\n  binary_size: {regex: 'x(1)'}\n", "gate.yaml"),
                    Catch::Contains("\"binary_size\" is a built-in metric and takes no source"));
  // Beside a gated wall time, the timed runs are made as before.
  const Config both = parse_config("metrics:\n  wall_time: {gate: true}\n  binary_size:\n", "gate.yaml");
  CHECK(both.metrics.size() == 5);
}

TEST_CASE("a binary_size duel reads the files, runs nothing and names the symbol that grew", "[size]") {
  NothingRuns executor;
  const auto grown = run_duel(size_gate(PERFDUEL_SIZE_APP, PERFDUEL_SIZE_APP_TABLE), executor, 1, {});
  CHECK(executor.runs == 0);
  CHECK(grown.analysis.verdict == Verdict::regression);
  CHECK(grown.analysis.measured_rounds == 3);
  REQUIRE(grown.notes.size() == 1);
  CHECK(grown.notes[0].text.find("binary_size: +") == 0);
  CHECK(grown.notes[0].text.find("grew most: size_app_table (+4096 B, new)") != std::string::npos);

  const auto same = run_duel(size_gate(PERFDUEL_SIZE_APP, PERFDUEL_SIZE_APP), executor, 1, {});
  CHECK(executor.runs == 0);
  CHECK(same.analysis.verdict == Verdict::no_change);
  CHECK(same.analysis.measured_rounds == 3);
  CHECK(same.notes.empty());

  CHECK_THROWS_WITH(run_duel(size_gate(PERFDUEL_SIZE_APP, "/nonexistent/app"), executor, 1, {}),
                    Catch::StartsWith("metric \"binary_size\": "));
}
