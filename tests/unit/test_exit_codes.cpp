#include <span>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "exit_codes.hpp"
#include "util/file.hpp"
#include "util/text.hpp"

using namespace perfduel;

namespace {

struct DocumentedCode {
  std::string code;
  std::string meaning;
};

// The rows "| code | meaning | ... |" of the section `heading` (a Markdown heading line of any
// level, up to the next heading) of the file `path` (relative to the source tree) whose first
// cell is a number, with the cell `column` (1: the second) as the meaning: a table's header and
// rule, and other tables of the section, left out.
std::vector<DocumentedCode> documented_exit_codes(const std::string& path, const std::string& heading,
                                                  std::size_t column = 1) {
  const auto text = util::read_file(PERFDUEL_TEST_DATA_DIR "/../../" + path);
  REQUIRE(text);
  std::vector<DocumentedCode> rows;
  bool inside = false;
  for (const auto& line : util::split_lines(*text)) {
    if (line.starts_with("#")) {
      inside = line == heading;
      continue;
    }
    if (!inside || !line.starts_with("| ") || !line.ends_with(" |")) {
      continue;
    }
    std::vector<std::string> cells;
    for (std::size_t start = 2;;) {
      const auto bar = line.find(" | ", start);
      cells.emplace_back(util::trim(std::string_view(line).substr(
          start, bar == std::string::npos ? line.size() - 2 - start : bar - start)));
      if (bar == std::string::npos) {
        break;
      }
      start = bar + 3;
    }
    const std::string& code = cells.front();
    if (code.empty() || code.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    REQUIRE(cells.size() > column);
    rows.push_back({code, cells[column]});
  }
  return rows;
}

// Checks that the documented `rows` are `table`'s, code for code and word for word.
void check_documented(std::span<const ExitCodeRow> table, const std::vector<DocumentedCode>& rows) {
  REQUIRE(rows.size() == table.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    CHECK(rows[i].code == std::to_string(to_int(table[i].code)));
    CHECK(rows[i].meaning == table[i].meaning);
  }
}

}  // namespace

TEST_CASE("README's exit codes are the table's, code for code and word for word", "[exit_codes]") {
  check_documented(k_exit_code_table, documented_exit_codes("README.md", "## Exit codes"));
}

TEST_CASE("docs/bisect.md's exit codes are bisect's table, code for code and word for word", "[exit_codes]") {
  check_documented(k_bisect_exit_code_table,
                   documented_exit_codes("docs/bisect.md", "## Options and exit codes"));
  const auto help = exit_codes_help(k_bisect_exit_code_table);
  CHECK(help.starts_with(
      "Exit codes:\n  0    the first bad commit, confirmed by its duel against its parent\n"));
  CHECK(util::split_lines(help).size() == k_bisect_exit_code_table.size() + 1);
}

TEST_CASE("docs/cmake.md's CTest table names the table's codes", "[exit_codes]") {
  std::vector<ExitCodeRow> names;
  for (const auto& row : k_exit_code_table) {
    names.push_back({row.code, row.name, row.name});
  }
  check_documented(names, documented_exit_codes("docs/cmake.md", "## What gets registered"));
}

TEST_CASE("docs/command-line.md's exit codes are each command's table, word for word", "[exit_codes]") {
  check_documented(k_summary_exit_code_table,
                   documented_exit_codes("docs/command-line.md", "### `perfduel summary`"));
  check_documented(k_calibrate_exit_code_table,
                   documented_exit_codes("docs/command-line.md", "### `perfduel calibrate`"));
  check_documented(k_record_exit_code_table,
                   documented_exit_codes("docs/command-line.md", "### `perfduel record`"));
  check_documented(k_trend_exit_code_table,
                   documented_exit_codes("docs/command-line.md", "### `perfduel trend`"));
  check_documented(k_doctor_exit_code_table,
                   documented_exit_codes("docs/command-line.md", "### `perfduel doctor`"));
}

TEST_CASE("--help lists each code of the table with its meaning", "[exit_codes]") {
  const auto help = exit_codes_help();
  CHECK(help.starts_with("Exit codes:\n  0    pass: no gated metric regressed\n  1    regression"));
  CHECK(help.find("\n  77   inconclusive: the budget ran out first") != std::string::npos);
  CHECK(
      help.ends_with("\n  130  interrupted by SIGINT, SIGTERM or SIGHUP: children killed, partial report "
                     "written"));
  CHECK(util::split_lines(help).size() == k_exit_code_table.size() + 1);
}

TEST_CASE("sub-commands name the codes from the table", "[exit_codes]") {
  CHECK(exit_code_names() ==
        "0 pass, 1 regression, 2 usage/config error, 3 benchmark failed, 77 inconclusive, 130 interrupted");
}
