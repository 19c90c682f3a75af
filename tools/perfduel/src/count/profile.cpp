#include "count/profile.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "count/callgrind_dump.hpp"
#include "count/valgrind.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

// Names that callgrind compresses: "(12) name" defines id 12, "(12)" alone repeats it. Files,
// functions and objects each have their own table.
class NameTable {
 public:
  std::string resolve(std::string_view value) {
    value = util::trim(value);
    if (!value.starts_with('(')) {
      return std::string(value);
    }
    const auto close = value.find(')');
    const auto digits = value.substr(1, close == std::string_view::npos ? 0 : close - 1);
    if (digits.empty() ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return std::string(value);  // a name that starts with '(': "(anonymous namespace)::f", "(below main)"
    }
    const std::string id(digits);
    const auto name = util::trim(value.substr(close + 1));
    if (!name.empty()) {
      m_names[id] = std::string(name);
      return std::string(name);
    }
    const auto found = m_names.find(id);
    return found == m_names.end() ? std::string(value) : found->second;
  }

 private:
  std::map<std::string, std::string> m_names;
};

// A function's costs by event while the file is read.
struct Accumulated {
  double calls = 0;  // calls of it by other functions
  std::vector<double> self;
  std::vector<double> called;  // calls to other functions, callees included
  std::string file;
  int line = 0;
  std::map<std::pair<std::string, int>, double> lines;  // own instructions by file and line
};

// The key of function `name` in object `object`: code without a symbol by its object, as its
// address differs between builds.
std::string function_key(std::string name, const std::string& object) {
  // Callgrind names a recursive function's deeper levels "f'2", "f'3" (--separate-recs): one
  // function, whose calls of itself are in its own cost.
  if (const auto quote = name.rfind('\'');
      quote != std::string::npos && quote + 1 < name.size() &&
      std::all_of(name.begin() + static_cast<std::ptrdiff_t>(quote) + 1, name.end(),
                  [](char c) { return c >= '0' && c <= '9'; })) {
    name.resize(quote);
  }
  if (!name.starts_with("0x")) {
    return name;
  }
  const auto base = std::filesystem::path(object).filename().string();
  return base.empty() ? "(no symbol)" : fmt::format("(no symbol) in {}", base);
}

bool is_cost_line(std::string_view line) {
  const char first = line.empty() ? '\0' : line.front();
  return (first >= '0' && first <= '9') || first == '+' || first == '-' || first == '*';
}

// Reads callgrind's and cachegrind's per-function lines.
class ProfileReader {
 public:
  util::Expected<Profile> read(std::string_view text) {
    const auto lines = util::split_lines(text);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (auto error = line(lines[i]); !error.empty()) {
        return util::Expected<Profile>::failure(fmt::format("line {}: {}", i + 1, error));
      }
    }
    return finish();
  }

 private:
  // One line; an error when it breaks the format.
  std::string line(std::string_view line) {
    if (m_pending_call && !is_cost_line(line)) {
      m_pending_call = false;  // a call without its cost line: nothing to add
    }
    if (line.starts_with("events:")) {
      m_events = util::split_words(line.substr(7));
      m_ir_column =
          static_cast<std::size_t>(std::find(m_events.begin(), m_events.end(), "Ir") - m_events.begin());
    } else if (line.starts_with("positions:")) {
      const auto positions = util::split_words(line.substr(10));
      m_positions = std::max<std::size_t>(positions.size(), 1);
      const auto found = std::find(positions.begin(), positions.end(), "line");
      m_line_column = found == positions.end() ? -1 : static_cast<int>(found - positions.begin());
    } else if (line.starts_with("ob=")) {
      m_object = m_objects.resolve(line.substr(3));
    } else if (line.starts_with("cob=")) {
      m_called_object = m_objects.resolve(line.substr(4));
    } else if (line.starts_with("fl=")) {
      m_file = m_files.resolve(line.substr(3));
      m_cost_file = m_file;
    } else if (line.starts_with("fi=") || line.starts_with("fe=")) {
      m_cost_file = m_files.resolve(line.substr(3));
    } else if (line.starts_with("cfl=") || line.starts_with("cfi=")) {
      m_files.resolve(line.substr(4));
    } else if (line.starts_with("fn=")) {
      m_function = function_key(m_functions.resolve(line.substr(3)), m_object);
      m_cost_file = m_file;
      m_called_object = m_object;
      auto& function = slot(m_function);
      if (function.file.empty() && m_file != "???") {
        function.file = m_file;
      }
    } else if (line.starts_with("cfn=")) {
      m_callee = function_key(m_functions.resolve(line.substr(4)), m_called_object);
    } else if (line.starts_with("calls=")) {
      m_pending_call = true;
      const auto words = util::split_words(line.substr(6));
      m_call_count = words.empty() ? 0.0 : std::strtod(words.front().c_str(), nullptr);
    } else if (is_cost_line(line)) {
      return cost(line);
    }
    return {};
  }

  // A cost line: positions, then one value per event (trailing zeros may be left out).
  std::string cost(std::string_view line) {
    const auto words = util::split_words(line);
    if (words.size() < m_positions) {
      return fmt::format("cost line \"{}\" has fewer than {} positions", line, m_positions);
    }
    if (m_line.size() < m_positions) {
      m_line.resize(m_positions, 0);
    }
    for (std::size_t p = 0; p < m_positions; ++p) {
      m_line[p] = position(words[p], m_line[p]);
    }
    std::vector<double> values(m_events.size(), 0.0);
    for (std::size_t e = 0; e < m_events.size() && m_positions + e < words.size(); ++e) {
      const auto& word = words[m_positions + e];
      long long value = 0;
      const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
      if (error != std::errc() || end != word.data() + word.size()) {
        return fmt::format("cost \"{}\" of {} is not a whole number", word, m_events[e]);
      }
      values[e] = static_cast<double>(value);
    }
    auto& function = slot(m_function);
    if (m_pending_call) {
      m_pending_call = false;
      add(function.called, values, m_callee == m_function);
      m_calls[{m_function, m_callee}] += m_ir_column < values.size() ? values[m_ir_column] : 0.0;
      if (m_callee != m_function) {
        slot(m_callee).calls += m_call_count;
      }
      return {};
    }
    add(function.self, values, false);
    const long long line_number = m_line_column < 0 ? 0 : m_line[static_cast<std::size_t>(m_line_column)];
    if (line_number > 0 && m_ir_column < values.size() && !m_cost_file.empty() && m_cost_file != "???") {
      function.lines[{m_cost_file, static_cast<int>(line_number)}] += values[m_ir_column];
    }
    if (line_number > 0 && m_cost_file == function.file &&
        (function.line == 0 || line_number < function.line)) {
      function.line = static_cast<int>(line_number);
    }
    return {};
  }

  // A position: absolute (decimal or 0x hex), relative to the last ("+3", "-1") or the same ("*").
  static long long position(const std::string& word, long long last) {
    if (word == "*") {
      return last;
    }
    if (word.starts_with('+') || word.starts_with('-')) {
      return last + std::strtoll(word.c_str(), nullptr, 10);
    }
    return std::strtoll(word.c_str(), nullptr, 0);
  }

  static void add(std::vector<double>& into, const std::vector<double>& values, bool recursive) {
    if (into.size() < values.size()) {
      into.resize(values.size(), 0.0);
    }
    if (recursive) {
      return;  // a function's call of itself is in its own cost already
    }
    for (std::size_t e = 0; e < values.size(); ++e) {
      into[e] += values[e];
    }
  }

  Accumulated& slot(const std::string& name) { return m_accumulated[name]; }

  // The events of `values` by name.
  EventTotals by_event(const std::vector<double>& values) const {
    EventTotals totals;
    for (std::size_t e = 0; e < m_events.size() && e < values.size(); ++e) {
      totals[m_events[e]] = values[e];
    }
    return totals;
  }

  util::Expected<Profile> finish() const {
    Profile profile;
    const bool cache = std::find(m_events.begin(), m_events.end(), "D1mr") != m_events.end();
    for (const auto& [name, accumulated] : m_accumulated) {
      const auto self = by_event(accumulated.self);
      const auto called = by_event(accumulated.called);
      FunctionCost cost;
      cost.self = self.contains("Ir") ? self.at("Ir") : 0.0;
      cost.inclusive = cost.self + (called.contains("Ir") ? called.at("Ir") : 0.0);
      cost.self_cycles = cache ? estimated_cycles(self) : 0.0;
      cost.file = accumulated.file;
      cost.line = accumulated.line;
      cost.lines = accumulated.lines;
      cost.calls = accumulated.calls;
      if (cost.inclusive != 0 || cost.self != 0) {
        profile.functions.emplace(name, std::move(cost));
      }
    }
    profile.calls = m_calls;
    return profile;
  }

  std::vector<std::string> m_events;
  std::size_t m_ir_column = 0;  // where Ir is among the events
  std::size_t m_positions = 1;
  int m_line_column = 0;
  std::vector<long long> m_line;
  NameTable m_objects;
  NameTable m_files;
  NameTable m_functions;
  std::string m_object;
  std::string m_called_object;
  std::string m_file;
  std::string m_cost_file;
  std::string m_function;
  std::string m_callee;
  bool m_pending_call = false;
  double m_call_count = 0;  // of the pending call
  std::map<std::string, Accumulated> m_accumulated;
  std::map<std::pair<std::string, std::string>, double> m_calls;
};

// The larger of two file names and lines: the first's where it has one.
void take_place(FunctionCost& into, const FunctionCost& from) {
  if (into.file.empty()) {
    into.file = from.file;
    into.line = from.line;
  }
}

}  // namespace

util::Expected<Profile> parse_profile(std::string_view text) {
  return ProfileReader().read(text);
}

Profile profile_difference(const Profile& larger, const Profile& smaller, double divisor) {
  Profile difference = larger;
  for (const auto& [name, cost] : smaller.functions) {
    auto& into = difference.functions[name];
    into.self -= cost.self;
    into.inclusive -= cost.inclusive;
    into.self_cycles -= cost.self_cycles;
    into.calls -= cost.calls;
    for (const auto& [line, instructions] : cost.lines) {
      into.lines[line] -= instructions;
    }
    take_place(into, cost);
  }
  for (const auto& [call, instructions] : smaller.calls) {
    difference.calls[call] -= instructions;
  }
  return scaled_profile(std::move(difference), divisor);
}

Profile scaled_profile(Profile profile, double divisor) {
  for (auto& [name, cost] : profile.functions) {
    cost.self /= divisor;
    cost.inclusive /= divisor;
    cost.self_cycles /= divisor;
    cost.calls /= divisor;
    for (auto& [line, instructions] : cost.lines) {
      instructions /= divisor;
    }
  }
  for (auto& [call, instructions] : profile.calls) {
    instructions /= divisor;
  }
  return profile;
}

void add_profile(Profile& into, const Profile& from) {
  for (const auto& [name, cost] : from.functions) {
    auto& sum = into.functions[name];
    sum.self += cost.self;
    sum.inclusive += cost.inclusive;
    sum.self_cycles += cost.self_cycles;
    sum.calls += cost.calls;
    for (const auto& [line, instructions] : cost.lines) {
      sum.lines[line] += instructions;
    }
    take_place(sum, cost);
  }
  for (const auto& [call, instructions] : from.calls) {
    into.calls[call] += instructions;
  }
}

double total_instructions(const Profile& profile) {
  double total = 0;
  for (const auto& [name, cost] : profile.functions) {
    total += cost.self;
  }
  return total;
}

}  // namespace perfduel
