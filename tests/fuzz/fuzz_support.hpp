#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "run/executor.hpp"
#include "run/metric_extractor.hpp"

// Shared by the fuzz targets: invariant checks that abort (libFuzzer then reports a crash and
// saves the input as crash-<sha1>, the reproducer), and one metric read from one run's output.
namespace perfduel::fuzz {

// Prints `what` and `detail` (may be null) and aborts.
[[noreturn]] inline void fail(const char* what, const char* detail = nullptr) {
  std::fprintf(stderr, "fuzz invariant violated: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  std::abort();
}

// The value of `metric` read from a run that exited 0 after printing `out`, as the duel reads
// it. Checks what every caller relies on: a value is finite, an error says which metric; an
// exception escapes and so fails the target.
inline util::Expected<double> extract_checked(const MetricSpec& metric, std::string out) {
  const std::vector<MetricSpec> metrics{metric};
  const MetricExtractor extractor(metrics);
  RunResult run;
  run.status = RunStatus::exited;
  run.exit_code = 0;
  run.out = std::move(out);
  const auto values = extractor.extract(run);
  if (!values) {
    if (values.error().find("metric \"" + metric.name + "\"") != 0) {
      fail("an extraction error does not name its metric", values.error().c_str());
    }
    return util::Expected<double>::failure(values.error());
  }
  if (values->size() != 1) {
    fail("one metric gave other than one value");
  }
  if (!std::isfinite(values->front())) {
    fail("an extracted value is not finite");
  }
  return values->front();
}

}  // namespace perfduel::fuzz

// Checks `condition` in every build type (unlike assert).
#define PERFDUEL_FUZZ_CHECK(condition)                                             \
  do {                                                                             \
    if (!(condition)) {                                                            \
      ::perfduel::fuzz::fail(#condition " (" __FILE__ ":" PERFDUEL_FUZZ_LINE ")"); \
    }                                                                              \
  } while (false)
#define PERFDUEL_FUZZ_STRINGIFY(x) #x
#define PERFDUEL_FUZZ_TO_STRING(x) PERFDUEL_FUZZ_STRINGIFY(x)
#define PERFDUEL_FUZZ_LINE PERFDUEL_FUZZ_TO_STRING(__LINE__)
