#include <catch2/catch.hpp>

#include "util/columns.hpp"

using namespace perfduel::util;

TEST_CASE("aligned_columns pads each column to its widest cell and drops trailing spaces", "[text]") {
  const std::vector<std::string> header{"name", "n", "note"};
  const std::vector<std::vector<std::string>> rows{{"a", "100", ""}, {"longer", "7", "x"}};
  CHECK(aligned_columns(header, rows, [](std::size_t c) { return c == 1; }) ==
        "name      n  note\n"
        "a       100\n"
        "longer    7  x\n");
}

TEST_CASE("aligned_columns of a header alone is one line", "[text]") {
  CHECK(aligned_columns({"a", "b"}, {}, [](std::size_t) { return false; }) == "a  b\n");
}
