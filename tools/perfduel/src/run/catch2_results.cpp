#include "run/catch2_results.hpp"

#include <string_view>

#include <fmt/format.h>
#include <pugixml.hpp>

#include "util/text.hpp"

namespace perfduel {

namespace {

using ParsedBenchmarks = util::Expected<std::vector<Catch2Benchmark>>;

// What the output looks like when it is not Catch2's XML, so the message says what to change.
std::string not_xml_message(const std::string& output) {
  const auto first = util::trim(std::string_view(output).substr(0, output.find('\n')));
  if (!first.empty() && (first.front() == '{' || first.front() == '[')) {
    return "the output is JSON; Catch2's JSON reporter records no benchmark results, run the test binary "
           "with -r xml";
  }
  return fmt::format("the output is not Catch2's XML (starts with \"{}\"); run the test binary with -r xml",
                     std::string(first.substr(0, 40)));
}

}  // namespace

util::Expected<std::vector<Catch2Benchmark>> read_catch2_benchmarks(const std::string& output) {
  // The console reporter's text may hold a '<' (in a benchmark's name), so look at the start.
  const auto start = util::trim(output);
  if (start.empty() || start.front() != '<') {
    return ParsedBenchmarks::failure(not_xml_message(output));
  }
  pugi::xml_document document;
  const pugi::xml_parse_result parsed = document.load_buffer(output.data(), output.size());
  if (!parsed) {
    if (parsed.status == pugi::status_no_document_element) {
      return ParsedBenchmarks::failure(not_xml_message(output));
    }
    // A benchmark binary that crashed half-way leaves a truncated document; say where.
    return ParsedBenchmarks::failure(
        fmt::format("Catch2's XML output is malformed at byte {}: {}", parsed.offset, parsed.description()));
  }
  const pugi::xml_node root = document.document_element();
  const std::string_view root_name = root.name();
  if (root_name != "Catch" && root_name != "Catch2TestRun") {
    return ParsedBenchmarks::failure(fmt::format(
        "the output is XML with root <{}>, not Catch2's XML reporter (<Catch> or <Catch2TestRun>)",
        root_name));
  }
  std::vector<Catch2Benchmark> benchmarks;
  for (const pugi::xpath_node& item : root.select_nodes(".//BenchmarkResults")) {
    const pugi::xml_node node = item.node();
    Catch2Benchmark benchmark;
    benchmark.name = node.attribute("name").as_string();
    if (const auto iterations = util::parse_double(node.attribute("iterations").as_string())) {
      benchmark.iterations = *iterations;
    }
    if (const pugi::xml_node failed = node.child("failed")) {
      benchmark.failure = failed.attribute("message").as_string("failed");
    } else if (const pugi::xml_node mean = node.child("mean")) {
      // Not pugixml's as_double, which reads text that is no number as 0.
      const auto nanoseconds = util::parse_double(mean.attribute("value").as_string());
      if (nanoseconds) {
        benchmark.mean_seconds = *nanoseconds * 1e-9;
      } else {
        benchmark.failure =
            fmt::format("its mean is \"{}\", not a number", mean.attribute("value").as_string());
      }
    } else {
      // Catch2 writes <mean> when the benchmark ends; without it the run stopped inside it.
      benchmark.failure = "no <mean> in its results (did the benchmark end?)";
    }
    benchmarks.push_back(std::move(benchmark));
  }
  return benchmarks;
}

}  // namespace perfduel
