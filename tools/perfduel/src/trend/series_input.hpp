#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

#include "util/expected.hpp"

namespace perfduel::trend {

// A series read from a file: every item a run of one or more samples.
using Series = std::vector<std::vector<double>>;

// Parses `text` as a series: a JSON array whose items are numbers or arrays of numbers (an
// array is a run that stays in one group), or else CSV with one value per line (blank lines
// and lines starting with '#' are skipped; a first line that is not a number is a header).
// Errors name `source` and the line: `series.csv:3: invalid number: "abc"`.
util::Expected<Series> parse_series(std::string_view text, std::string_view source);

// Reads and parses the series in `path`.
util::Expected<Series> read_series(const std::filesystem::path& path);

}  // namespace perfduel::trend
