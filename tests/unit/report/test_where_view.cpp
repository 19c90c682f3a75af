// The "where" block (report/where_view.hpp): a long C++ name folded to fit a line, and the block
// of a saved report, which `perfduel bisect` prints under the first bad commit's confirmation.
#include <string>

#include <catch2/catch.hpp>

#include "report/where_view.hpp"

using namespace perfduel;

TEST_CASE("a long function name folds its parameters, then its template arguments", "[where]") {
  CHECK(short_function_name("work(int)") == "work(int)");
  CHECK(short_function_name("sortlib::(anonymous namespace)::quick_sort(std::span<unsigned int, "
                            "18446744073709551615ul>)",
                            50) == "sortlib::(anonymous namespace)::quick_sort(...)");
  CHECK(short_function_name("void std::__introsort_loop<__gnu_cxx::__normal_iterator<unsigned int*, "
                            "std::vector<unsigned int> >, long>(int*, int*, long)",
                            40) == "void std::__introsort_loop<...>(...)");
}

TEST_CASE("the where block of a saved report: its gated regressions only", "[where]") {
  SavedReport report;
  SavedMetric regressed;
  regressed.name = "insns";
  regressed.gated = true;
  regressed.verdict = "regression";
  SavedMetric reported = regressed;
  reported.name = "est_cycles";
  reported.gated = false;
  report.metrics = {regressed, reported};
  Explanation explanation;
  explanation.metric = "insns";
  explanation.attribution.reading = ProfileReading::explained;
  explanation.attribution.baseline_total = 1000;
  explanation.attribution.candidate_total = 1100;
  FunctionShare crc{"crc32(char const*, unsigned long)", "/src/crc.cc", 42};
  crc.share = 1.0;
  explanation.attribution.functions = {crc};
  Explanation other = explanation;
  other.metric = "est_cycles";
  report.explanations = {explanation, other};
  CHECK(format_saved_where(report) ==
        "where: insns: +10.00 % instructions (+100 per run)\n"
        "    100 %  crc32(char const*, unsigned long)  crc.cc:42\n");
  report.metrics[0].verdict = "no-change";
  CHECK(format_saved_where(report).empty());
}
