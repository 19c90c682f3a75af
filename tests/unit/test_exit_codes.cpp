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

// The rows "| code | meaning |" of README.md's "## Exit codes" section, its header and rule left out.
std::vector<DocumentedCode> readme_exit_codes() {
  const auto readme = util::read_file(PERFDUEL_TEST_DATA_DIR "/../../README.md");
  REQUIRE(readme);
  std::vector<DocumentedCode> rows;
  bool inside = false;
  for (const auto& line : util::split_lines(*readme)) {
    if (line.starts_with("## ")) {
      inside = line == "## Exit codes";
      continue;
    }
    if (!inside || !line.starts_with("| ")) {
      continue;
    }
    const auto bar = line.find(" | ", 2);
    REQUIRE(bar != std::string::npos);
    const std::string code(util::trim(std::string_view(line).substr(2, bar - 2)));
    if (code == "code") {
      continue;
    }
    std::string_view meaning = std::string_view(line).substr(bar + 3);
    REQUIRE(meaning.ends_with(" |"));
    meaning.remove_suffix(2);
    rows.push_back({code, std::string(util::trim(meaning))});
  }
  return rows;
}

}  // namespace

TEST_CASE("README's exit codes are the table's, code for code and word for word", "[exit_codes]") {
  std::vector<DocumentedCode> table;
  for (const auto& row : k_exit_code_table) {
    table.push_back({std::to_string(to_int(row.code)), std::string(row.meaning)});
  }
  const auto readme = readme_exit_codes();
  REQUIRE(readme.size() == table.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    CHECK(readme[i].code == table[i].code);
    CHECK(readme[i].meaning == table[i].meaning);
  }
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
