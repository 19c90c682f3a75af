#include "count/heap_report.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "util/text.hpp"

namespace perfduel {

namespace {

// The value of `key=` in the words of `line`, or nothing.
std::optional<std::uint64_t> field(const std::vector<std::string>& words, std::string_view key) {
  for (const auto& word : words) {
    const std::string_view text(word);
    if (text.size() > key.size() && text.starts_with(key) && text[key.size()] == '=') {
      const std::string_view digits = text.substr(key.size() + 1);
      std::uint64_t value = 0;
      const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
      if (error == std::errc() && end == digits.data() + digits.size()) {
        return value;
      }
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

util::Expected<std::map<CountedEvent, double>> parse_heap_report(const std::string& text) {
  double allocations = 0;
  double bytes = 0;
  double peak = 0;
  int processes = 0;
  for (const auto& line : util::split_lines(text)) {
    if (util::trim(line).empty()) {
      continue;
    }
    const auto words = util::split_words(line);
    const auto pid = field(words, "pid");
    const auto counted = field(words, "allocations");
    const auto asked = field(words, "allocated_bytes");
    const auto held = field(words, "peak");
    if (!pid || !counted || !asked || !held) {
      return util::Expected<std::map<CountedEvent, double>>::failure(
          fmt::format("the heap report has a line that is not the allocation counter's: \"{}\"", line));
    }
    allocations += static_cast<double>(*counted);
    bytes += static_cast<double>(*asked);
    peak = std::max(peak, static_cast<double>(*held));
    ++processes;
  }
  if (processes == 0) {
    return util::Expected<std::map<CountedEvent, double>>::failure(
        "no process reported its heap: the program ended without its exit handlers (_exit, a signal, or an "
        "exec into a program that did not return), so its heap was not counted");
  }
  return std::map<CountedEvent, double>{{CountedEvent::allocations, allocations},
                                        {CountedEvent::allocated_bytes, bytes},
                                        {CountedEvent::peak_heap, peak}};
}

CommandSpec with_heap_counter(const CommandSpec& command, const std::filesystem::path& library,
                              const std::filesystem::path& report) {
  CommandSpec counted = command;
  auto& preload = counted.environment["LD_PRELOAD"];
  preload = preload.empty() ? library.string() : preload + ":" + library.string();
  counted.environment[std::string(k_heap_report_variable)] = report.string();
  return counted;
}

}  // namespace perfduel
