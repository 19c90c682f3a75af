#include "bisect/gate_file.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "error.hpp"
#include "util/file.hpp"
#include "util/text.hpp"

namespace perfduel::bisect {

namespace {

constexpr std::string_view k_open = "[==[";
constexpr std::string_view k_close = "]==]";

std::string gate_list(const std::filesystem::path& gates_dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(gates_dir, ec)) {
    if (entry.path().extension() == ".cmake") {
      names.push_back(entry.path().stem().string());
    }
  }
  std::sort(names.begin(), names.end());
  std::string text;
  for (const auto& name : names) {
    text += (text.empty() ? "" : ", ") + name;
  }
  return text;
}

}  // namespace

std::map<std::string, std::string> parse_gate_variables(std::string_view text) {
  std::map<std::string, std::string> variables;
  std::size_t at = 0;
  while ((at = text.find("set(", at)) != std::string_view::npos) {
    const std::size_t name_start = at + 4;
    const std::size_t space = text.find(' ', name_start);
    if (space == std::string_view::npos || text.substr(space + 1, k_open.size()) != k_open) {
      at = name_start;
      continue;
    }
    const std::size_t value_start = space + 1 + k_open.size();
    const std::size_t value_end = text.find(k_close, value_start);
    if (value_end == std::string_view::npos) {
      break;
    }
    variables[std::string(text.substr(name_start, space - name_start))] =
        std::string(text.substr(value_start, value_end - value_start));
    at = value_end + k_close.size();
  }
  return variables;
}

std::vector<std::string> split_cmake_list(std::string_view list) {
  std::vector<std::string> items;
  if (list.empty()) {
    return items;
  }
  std::string item;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i] == '\\' && i + 1 < list.size() && list[i + 1] == ';') {
      item += ';';
      ++i;
    } else if (list[i] == ';') {
      items.push_back(std::move(item));
      item.clear();
    } else {
      item += list[i];
    }
  }
  items.push_back(std::move(item));
  return items;
}

bool is_multi_config(std::string_view generator) {
  return generator.find("Multi-Config") != std::string_view::npos ||
         generator.rfind("Visual Studio", 0) == 0 || generator == "Xcode";
}

GateFile read_gate_file(const std::filesystem::path& build_dir, const std::string& name) {
  const std::filesystem::path gates_dir = build_dir / "perfduel" / "gates";
  GateFile gate;
  gate.path = gates_dir / (name + ".cmake");
  const auto text = util::read_file(gate.path);
  if (!text) {
    const std::string known = gate_list(gates_dir);
    throw Error(fmt::format(
        "--gate {}: no gate file {}; run bisect in the build directory of a project with add_perf_gate(NAME "
        "{} ...) (or give --build-dir DIR), configured with this perfduel{}",
        name, gate.path.string(), name,
        known.empty() ? std::string(" (this directory has no gates)")
                      : fmt::format(" (gates here: {})", known)));
  }
  const auto variables = parse_gate_variables(*text);
  const auto get = [&](const char* key) -> std::string {
    const auto it = variables.find(key);
    if (it == variables.end()) {
      throw Error(
          fmt::format("{}: no {}: the build was configured by an older perfduel; reconfigure it "
                      "(cmake {}) and run bisect again",
                      gate.path.string(), key, build_dir.string()));
    }
    return it->second;
  };
  gate.name = get("PERFDUEL_GATE_NAME");
  gate.target = get("PERFDUEL_TARGET");
  gate.source_dir = get("PERFDUEL_SOURCE_DIR");
  gate.generator = get("PERFDUEL_GENERATOR");
  gate.git = get("PERFDUEL_GIT_EXECUTABLE");
  gate.args = split_cmake_list(get("PERFDUEL_RUN_ARGS"));
  gate.config = get("PERFDUEL_RUN_CONFIG");
  gate.working_directory = get("PERFDUEL_RUN_DIRECTORY");
  gate.script = get("PERFDUEL_BASELINE_SCRIPT");
  gate.cmake = get("PERFDUEL_CMAKE_COMMAND");
  const auto seconds = util::parse_double(get("PERFDUEL_RUN_SECONDS"));
  gate.max_seconds = seconds ? *seconds : 0.0;
  for (const auto& arg : gate.args) {
    if (arg.find("$<") != std::string::npos) {
      throw Error(
          fmt::format("gate {}: ARGS has the generator expression \"{}\", which only CTest evaluates; "
                      "bisect with --build CMD --run CMD instead (docs/bisect.md)",
                      name, arg));
    }
  }
  return gate;
}

}  // namespace perfduel::bisect
