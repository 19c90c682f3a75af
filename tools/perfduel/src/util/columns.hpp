#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

// Plain-text tables for the terminal: rows of cells laid out in aligned columns.
namespace perfduel::util {

// `header` and then `rows` as lines of columns two spaces apart, each column as wide as its
// widest cell (counted in bytes), a column right-aligned where `right_aligned` says so for its
// index and left-aligned elsewhere; trailing spaces are dropped and each line ends in "\n".
// Every row has at most as many cells as `header`.
std::string aligned_columns(const std::vector<std::string>& header,
                            const std::vector<std::vector<std::string>>& rows,
                            const std::function<bool(std::size_t)>& right_aligned);

}  // namespace perfduel::util
