#include "util/columns.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace perfduel::util {

std::string aligned_columns(const std::vector<std::string>& header,
                            const std::vector<std::vector<std::string>>& rows,
                            const std::function<bool(std::size_t)>& right_aligned) {
  std::vector<std::size_t> widths;
  widths.reserve(header.size());
  for (const auto& cell : header) {
    widths.push_back(cell.size());
  }
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      widths[c] = std::max(widths[c], row[c].size());
    }
  }
  std::string text;
  const auto add_row = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      line += right_aligned(c) ? fmt::format("{:>{}}", row[c], widths[c])
                               : fmt::format("{:<{}}", row[c], widths[c]);
      line += c + 1 < row.size() ? "  " : "";
    }
    while (!line.empty() && line.back() == ' ') {
      line.pop_back();
    }
    text += line + "\n";
  };
  add_row(header);
  for (const auto& row : rows) {
    add_row(row);
  }
  return text;
}

}  // namespace perfduel::util
