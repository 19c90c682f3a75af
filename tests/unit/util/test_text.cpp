#include <catch2/catch.hpp>

#include "util/text.hpp"

using namespace perfduel::util;

TEST_CASE("parse_fraction accepts percentages and plain fractions", "[text]") {
  CHECK(*parse_fraction("2%") == Approx(0.02));
  CHECK(*parse_fraction(" 0.5 % ") == Approx(0.005));
  CHECK(*parse_fraction("0.02") == Approx(0.02));
  CHECK(parse_fraction("two").error() == "invalid fraction: \"two\" (write 2% or 0.02)");
  CHECK(parse_fraction("x%").error() == "invalid percentage: \"x%\"");
}

TEST_CASE("parse_duration understands units", "[text]") {
  CHECK(*parse_duration("90") == 90.0);
  CHECK(*parse_duration("90s") == 90.0);
  CHECK(*parse_duration("1.5m") == 90.0);
  CHECK(*parse_duration("2min") == 120.0);
  CHECK(*parse_duration("250ms") == Approx(0.25));
  CHECK(*parse_duration("1h") == 3600.0);
  CHECK(parse_duration("-1s").error() == "invalid duration: \"-1s\" (write 90, 90s, 1.5m or 250ms)");
  CHECK(!parse_duration("soon").ok());
}

TEST_CASE("parse_cpu_list expands ranges", "[text]") {
  CHECK(*parse_cpu_list("0-3,6") == std::vector<int>{0, 1, 2, 3, 6});
  CHECK(*parse_cpu_list("1") == std::vector<int>{1});
  CHECK(*parse_cpu_list("3,1,1") == std::vector<int>{1, 3});
  CHECK(parse_cpu_list("3-1").error() == "invalid CPU list: \"3-1\" (write e.g. 2 or 0-3,6)");
  CHECK(!parse_cpu_list("a").ok());
  CHECK(!parse_cpu_list("").ok());
}

TEST_CASE("closest_match suggests likely typos only", "[text]") {
  const std::vector<std::string> keys{"warmup", "min_rounds", "max_rounds", "confidence"};
  CHECK(closest_match("warmup_runs", keys) == "warmup");
  CHECK(closest_match("confidnce", keys) == "confidence");
  CHECK(closest_match("max_round", keys) == "max_rounds");
  CHECK_FALSE(closest_match("colour", keys).has_value());
}

TEST_CASE("excerpt_lines keeps both ends of a long text", "[text]") {
  CHECK(excerpt_lines("a\nb\nc\nd", 2) == "a\nb\nc\nd\n");  // short enough: all of it
  CHECK(excerpt_lines("1\n2\n3\n4\n5\n6\n7\n", 2) == "1\n2\n… (3 lines left out) …\n6\n7\n");
  CHECK(excerpt_lines("", 2).empty());
  CHECK(excerpt_lines("abcdef\nµµµ\n", 1, 4) == "abcd…\nµµ…\n");  // cut at a character boundary
}

TEST_CASE("tail_lines keeps the last lines", "[text]") {
  CHECK(tail_lines("a\nb\nc\nd\n", 2) == "c\nd");
  CHECK(tail_lines("only", 3) == "only");
  CHECK(tail_lines("", 3).empty());
  CHECK(tail_lines("a\nb", 5) == "a\nb");
}

TEST_CASE("formatting helpers", "[text]") {
  CHECK(format_percent(0.031) == "+3.10 %");
  CHECK(format_percent(-0.5, 1) == "-50.0 %");
  CHECK(format_percent(99.99) == "+9999.00 %");
  CHECK(format_percent(23316731564810.835) == "+2.33e+15 %");
  CHECK(format_seconds(0.00123) == "1.23 ms");
  CHECK(format_seconds(2.5) == "2.500 s");
  // Minutes and seconds are rounded together: 239.6 s was once "3 min 60 s".
  CHECK(format_seconds(239.6) == "4 min 0 s");
  CHECK(format_seconds(299.7) == "5 min 0 s");
  CHECK(format_seconds(125.2) == "2 min 5 s");
  CHECK(format_bytes(100.0 * 1024 * 1024) == "100.0 MiB");
  CHECK(format_bytes(512) == "512 B");
}

TEST_CASE("counted nouns: one round, not one rounds", "[text]") {
  CHECK(counted(1, "round") == "1 round");
  CHECK(counted(0, "round") == "0 rounds");
  CHECK(counted(40, "measured round") == "40 measured rounds");
}

TEST_CASE("invalid_utf8_offset finds the first byte that is not UTF-8", "[text]") {
  CHECK_FALSE(invalid_utf8_offset(""));
  CHECK_FALSE(invalid_utf8_offset("plain ASCII\n"));
  CHECK_FALSE(
      invalid_utf8_offset("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF"));  // é € 😀 U+10FFFF
  CHECK(invalid_utf8_offset("ab\xFF") == 2u);                                              // never in UTF-8
  CHECK(invalid_utf8_offset("caf\xE9!") == 3u);                                            // Latin-1 é
  CHECK(invalid_utf8_offset("x\xC3") == 1u);                                               // cut short
  CHECK(invalid_utf8_offset("\xC0\xAF") == 0u);                                            // overlong '/'
  CHECK(invalid_utf8_offset("\xE0\x80\xAF") == 0u);      // overlong, three bytes
  CHECK(invalid_utf8_offset("\xED\xA0\x80") == 0u);      // surrogate U+D800
  CHECK(invalid_utf8_offset("\xF4\x90\x80\x80") == 0u);  // above U+10FFFF
  CHECK(invalid_utf8_offset("\xE2\x82(") == 0u);         // bad continuation byte
}
