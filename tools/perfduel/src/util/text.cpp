#include "util/text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <sstream>

#include <fmt/format.h>

namespace perfduel::util {

std::optional<std::size_t> invalid_utf8_offset(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    if (lead < 0x80) {
      ++i;
      continue;
    }
    // The sequence length and the range of the second byte, which rules out overlong forms,
    // surrogates (U+D800..DFFF) and code points above U+10FFFF (RFC 3629, table 3-7 of Unicode).
    std::size_t length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      low = lead == 0xE0 ? 0xA0 : 0x80;
      high = lead == 0xED ? 0x9F : 0xBF;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      low = lead == 0xF0 ? 0x90 : 0x80;
      high = lead == 0xF4 ? 0x8F : 0xBF;
    } else {
      return i;
    }
    if (i + length > text.size()) {
      return i;
    }
    for (std::size_t k = 1; k < length; ++k) {
      const auto byte = static_cast<unsigned char>(text[i + k]);
      if (byte < (k == 1 ? low : 0x80) || byte > (k == 1 ? high : 0xBF)) {
        return i;
      }
    }
    i += length;
  }
  return std::nullopt;
}

std::string_view markup_entity(char c) {
  switch (c) {
    case '&':
      return "&amp;";
    case '<':
      return "&lt;";
    case '>':
      return "&gt;";
    case '"':
      return "&quot;";
    default:
      return {};
  }
}

std::string_view trim(std::string_view text) {
  const auto is_blank = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!text.empty() && is_blank(text.front())) {
    text.remove_prefix(1);
  }
  while (!text.empty() && is_blank(text.back())) {
    text.remove_suffix(1);
  }
  return text;
}

Expected<double> parse_double(std::string_view text) {
  const auto trimmed = trim(text);
  double value = 0;
  const auto* end = trimmed.data() + trimmed.size();
  const auto [ptr, ec] = std::from_chars(trimmed.data(), end, value);
  if (trimmed.empty() || ec != std::errc() || ptr != end || !std::isfinite(value)) {
    return Expected<double>::failure(fmt::format("invalid number: \"{}\"", text));
  }
  return value;
}

Expected<double> parse_fraction(std::string_view text) {
  auto trimmed = trim(text);
  if (!trimmed.empty() && trimmed.back() == '%') {
    trimmed.remove_suffix(1);
    auto value = parse_double(trimmed);
    if (!value) {
      return Expected<double>::failure(fmt::format("invalid percentage: \"{}\"", text));
    }
    return *value / 100.0;
  }
  auto value = parse_double(trimmed);
  if (!value) {
    return Expected<double>::failure(fmt::format("invalid fraction: \"{}\" (write 2% or 0.02)", text));
  }
  return value;
}

Expected<double> parse_duration(std::string_view text) {
  const auto trimmed = trim(text);
  struct Suffix {
    std::string_view text;
    double seconds;
  };
  // Longest suffixes first so that "ms" is not read as "s".
  static constexpr Suffix k_suffixes[] = {
      {"ms", 1e-3}, {"min", 60.0}, {"s", 1.0}, {"m", 60.0}, {"h", 3600.0}};
  for (const auto& suffix : k_suffixes) {
    if (trimmed.size() > suffix.text.size() && trimmed.ends_with(suffix.text)) {
      auto value = parse_double(trimmed.substr(0, trimmed.size() - suffix.text.size()));
      if (value && *value >= 0) {
        return *value * suffix.seconds;
      }
      return Expected<double>::failure(
          fmt::format("invalid duration: \"{}\" (write 90, 90s, 1.5m or 250ms)", text));
    }
  }
  auto value = parse_double(trimmed);
  if (!value || *value < 0) {
    return Expected<double>::failure(
        fmt::format("invalid duration: \"{}\" (write 90, 90s, 1.5m or 250ms)", text));
  }
  return value;
}

Expected<std::vector<int>> parse_cpu_list(std::string_view text) {
  std::vector<int> cpus;
  const auto bad = [&] {
    return Expected<std::vector<int>>::failure(
        fmt::format("invalid CPU list: \"{}\" (write e.g. 2 or 0-3,6)", text));
  };
  const auto parse_int = [](std::string_view s, int& out) {
    s = trim(s);
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc() && ptr == s.data() + s.size() && out >= 0;
  };
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = std::min(text.find(',', start), text.size());
    const auto item = text.substr(start, comma - start);
    const auto dash = item.find('-');
    int first = 0;
    int last = 0;
    if (dash == std::string_view::npos) {
      if (!parse_int(item, first)) {
        return bad();
      }
      last = first;
    } else if (!parse_int(item.substr(0, dash), first) || !parse_int(item.substr(dash + 1), last) ||
               last < first) {
      return bad();
    }
    for (int cpu = first; cpu <= last; ++cpu) {
      cpus.push_back(cpu);
    }
    start = comma + 1;
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    row[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::optional<std::string> closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const auto& candidate : candidates) {
    const auto distance = edit_distance(word, candidate);
    // A typo changes at most about a third of a word; a prefix or suffix match ("warmup_runs"
    // for "warmup") also counts.
    const bool close = distance * 3 <= std::max(word.size(), candidate.size()) ||
                       word.starts_with(candidate) || candidate.starts_with(word);
    if (close && (!best || distance < best_distance)) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

std::string tail_lines(std::string_view text, std::size_t max_lines, std::size_t max_bytes) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  std::size_t start = text.size();
  std::size_t lines = 0;
  while (start > 0 && lines < max_lines) {
    const auto newline = text.rfind('\n', start - 1);
    start = newline == std::string_view::npos ? 0 : newline;
    ++lines;
    if (start == 0) {
      break;
    }
  }
  auto tail = text.substr(start);
  if (!tail.empty() && tail.front() == '\n') {
    tail.remove_prefix(1);
  }
  if (tail.size() > max_bytes) {
    tail = tail.substr(tail.size() - max_bytes);
  }
  return std::string(tail);
}

std::string shorten(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) {
    return std::string(text);
  }
  std::size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0U) == 0x80U) {
    --end;
  }
  return std::string(text.substr(0, end)) + "…";
}

std::string excerpt_lines(std::string_view text, std::size_t edge_lines, std::size_t max_line) {
  const auto lines = split_lines(text);
  std::string excerpt;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines.size() > 2 * edge_lines && i == edge_lines) {
      excerpt += fmt::format("… ({} lines left out) …\n", lines.size() - 2 * edge_lines);
      i = lines.size() - edge_lines;
    }
    excerpt += shorten(lines[i], max_line) + "\n";
  }
  return excerpt;
}

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::istringstream in{std::string(text)};
  std::string word;
  while (in >> word) {
    words.push_back(word);
  }
  return words;
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto newline = std::min(text.find('\n', start), text.size());
    lines.emplace_back(text.substr(start, newline - start));
    start = newline + 1;
  }
  return lines;
}

std::string first_line(std::string_view text) {
  const auto lines = split_lines(trim(text));
  return lines.empty() ? std::string() : lines.front();
}

std::string format_seconds(double seconds) {
  const double magnitude = std::abs(seconds);
  if (magnitude == 0) {
    return "0 s";
  }
  if (magnitude < 1e-6) {
    return fmt::format("{:.1f} ns", seconds * 1e9);
  }
  if (magnitude < 1e-3) {
    return fmt::format("{:.2f} µs", seconds * 1e6);
  }
  if (magnitude < 1.0) {
    return fmt::format("{:.2f} ms", seconds * 1e3);
  }
  if (magnitude < 120.0) {
    return fmt::format("{:.3f} s", seconds);
  }
  // Round once, then split: rounding the seconds part alone printed 239.6 s as "3 min 60 s".
  const long long total = std::llround(magnitude);
  return fmt::format("{}{} min {} s", seconds < 0 ? "-" : "", total / 60, total % 60);
}

std::string format_bytes(double bytes) {
  static constexpr const char* k_units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t unit = 0;
  while (std::abs(bytes) >= 1024.0 && unit + 1 < std::size(k_units)) {
    bytes /= 1024.0;
    ++unit;
  }
  return unit == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.1f} {}", bytes, k_units[unit]);
}

std::string format_percent(double fraction, int decimals) {
  const double percent = fraction * 100.0;
  // An interval of a few wild rounds can reach +10^15 %: three significant digits say as much
  // and keep the column narrow.
  if (std::abs(percent) >= 1e5) {
    return fmt::format("{:+.3g} %", percent);
  }
  return fmt::format("{:+.{}f} %", percent, decimals);
}

std::string counted(long long count, std::string_view noun) {
  return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

std::string first_names(const std::vector<std::string>& names, std::size_t shown) {
  std::string text;
  for (std::size_t i = 0; i < names.size() && i < shown; ++i) {
    text += (i == 0 ? "" : ", ") + names[i];
  }
  if (names.size() > shown) {
    text += fmt::format(" and {} more", names.size() - shown);
  }
  return text;
}

}  // namespace perfduel::util
