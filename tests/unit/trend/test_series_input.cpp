#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "trend/series_input.hpp"

using namespace perfduel::trend;

TEST_CASE("series input: CSV and JSON", "[trend]") {
  const auto csv = parse_series("value\n1.5\n\n# a comment\n2.5,abc123\n", "s.csv");
  REQUIRE(csv);
  CHECK(*csv == Series{{1.5}, {2.5}});
  const auto json = parse_series("[1, [2, 3.5], 4]", "s.json");
  REQUIRE(json);
  CHECK(*json == Series{{1.0}, {2.0, 3.5}, {4.0}});
}

TEST_CASE("series input: CSV details", "[trend]") {
  CHECK(*parse_series("", "s.csv") == Series{});
  CHECK(*parse_series("# only a comment\n\n", "s.csv") == Series{});
  CHECK(*parse_series("time\n", "s.csv") == Series{});  // a header and no data
  CHECK(*parse_series("1\r\n2\r\n", "s.csv") == Series{{1.0}, {2.0}});
  CHECK(*parse_series("  3 , x\n-4e-3\n", "s.csv") == Series{{3.0}, {-4e-3}});
  CHECK(*parse_series("  [1, 2]\n", "s.json") == Series{{1.0}, {2.0}});  // JSON after blanks
}

TEST_CASE("series input errors name the source and line or item", "[trend]") {
  const auto bad_line = parse_series("1\n2\nabc\n", "s.csv");
  REQUIRE_FALSE(bad_line);
  CHECK(bad_line.error() == "s.csv:3: invalid number: \"abc\"");
  const auto after_header = parse_series("value\n\n# c\nx\n", "s.csv");
  REQUIRE_FALSE(after_header);
  CHECK(after_header.error() == "s.csv:4: invalid number: \"x\"");
  const auto bad_item = parse_series("[1, \"x\"]", "s.json");
  REQUIRE_FALSE(bad_item);
  CHECK(bad_item.error() == "s.json: item 1: expected a number or a non-empty array of numbers, found \"x\"");
  const auto empty_run = parse_series("[1, []]", "s.json");
  REQUIRE_FALSE(empty_run);
  CHECK(empty_run.error() == "s.json: item 1: expected a number or a non-empty array of numbers, found []");
  const auto bad_run = parse_series("[[1, null]]", "s.json");
  REQUIRE_FALSE(bad_run);
  CHECK(bad_run.error() == "s.json: item 0: a run must hold only numbers, found null");
  const auto bad_json = parse_series("[1, 2", "s.json");
  REQUIRE_FALSE(bad_json);
  CHECK(bad_json.error().rfind("s.json: invalid JSON: [json.exception.parse_error.101]", 0) == 0);
}

TEST_CASE("series input from a file", "[trend]") {
  const auto path = std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "_series.csv");
  std::ofstream(path) << "wall_time,commit\n0.5,abc\n0.25,def\n";
  const auto series = read_series(path);
  std::filesystem::remove(path);
  REQUIRE(series);
  CHECK(*series == Series{{0.5}, {0.25}});
  const auto missing = read_series("/nonexistent/series.csv");
  REQUIRE_FALSE(missing);
  CHECK(missing.error() == "/nonexistent/series.csv: cannot open the file");
}
