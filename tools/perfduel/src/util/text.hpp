#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/expected.hpp"

namespace perfduel::util {

// Parses all of `text` as a finite floating-point number; the error quotes the text.
Expected<double> parse_double(std::string_view text);

// Parses a relative amount: "2%" is 0.02, "0.02" is 0.02.
Expected<double> parse_fraction(std::string_view text);

// Parses a duration in seconds: "90", "90s", "1.5m", "250ms", "2h".
Expected<double> parse_duration(std::string_view text);

// Parses a CPU list such as "0-3,6" into {0,1,2,3,6}.
Expected<std::vector<int>> parse_cpu_list(std::string_view text);

// The candidate closest to `word` by edit distance, if close enough to be a likely typo.
std::optional<std::string> closest_match(std::string_view word, const std::vector<std::string>& candidates);

// The character reference that stands for `c` in HTML and XML text ("&amp;" for '&', and '<',
// '>', '"' alike), or nothing for any other character.
std::string_view markup_entity(char c);

// `text` without leading and trailing blanks.
std::string_view trim(std::string_view text);

// The offset of the first byte of `text` that is not part of well-formed UTF-8 (no overlong
// forms, surrogates or code points above U+10FFFF), or nothing when all of it is.
std::optional<std::size_t> invalid_utf8_offset(std::string_view text);

// The last `max_lines` lines of `text` (at most `max_bytes`), for showing a benchmark's stderr.
std::string tail_lines(std::string_view text, std::size_t max_lines, std::size_t max_bytes = 4096);

// `text` cut to at most `limit` bytes at a UTF-8 character boundary, with "…" added when cut.
std::string shorten(std::string_view text, std::size_t limit);

// An excerpt of `text` to show where something was looked for: all of it when it has at most
// 2 × `edge_lines` lines, else the first and the last `edge_lines` with a line "… (N lines
// left out) …" between; each line cut to `max_line` bytes (at a UTF-8 boundary, "…" added).
std::string excerpt_lines(std::string_view text, std::size_t edge_lines, std::size_t max_line = 160);

// `text` split at newlines, without the newline characters.
std::vector<std::string> split_lines(std::string_view text);

// The words of `text`: its runs of characters other than white space.
std::vector<std::string> split_words(std::string_view text);

// The first line of `text` once leading and trailing white space is trimmed; empty for blank text.
std::string first_line(std::string_view text);

// A duration in seconds as a short human string ("1.23 ms", "4.5 s", "2 min 3 s").
std::string format_seconds(double seconds);

// `count` and `noun`, the noun in the plural unless `count` is 1: "1 round", "40 rounds".
std::string counted(long long count, std::string_view noun);

// The first `shown` of `names` joined by ", ", then " and N more" for the rest: "a, b, c and 2 more".
std::string first_names(const std::vector<std::string>& names, std::size_t shown = 3);

// A byte count as a short human string ("12.3 MiB").
std::string format_bytes(double bytes);

// A signed percentage such as "+3.10 %" for `fraction` 0.031.
std::string format_percent(double fraction, int decimals = 2);

}  // namespace perfduel::util
