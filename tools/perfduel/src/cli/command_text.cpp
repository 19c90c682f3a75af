#include "cli/command_text.hpp"

#include <filesystem>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "error.hpp"
#include "run/program_path.hpp"
#include "util/shell_words.hpp"
#include "util/text.hpp"

namespace perfduel::cli {

// Puts `text` (from --baseline or --candidate) into `slot`, keeping the config's working
// directory and environment for that side if it had any.
void set_command_text(std::optional<CommandSpec>& slot, const std::string& text, bool shell,
                      const std::string& option) {
  CommandSpec command = slot.value_or(CommandSpec{});
  if (shell) {
    command.launch = Launch::shell;
    command.argv = {text};
  } else {
    auto words = util::split_shell_words(text);
    if (!words) {
      throw Error(fmt::format("{}: {} in \"{}\"", option, words.error(), text));
    }
    command.launch = Launch::direct;
    command.argv = std::move(words).value();
  }
  if (command.argv.empty() || command.argv.front().empty()) {
    throw Error(fmt::format("{}: the command is empty", option));
  }
  slot = std::move(command);
}

// Fails before any run when a program cannot be started, naming where it came from.
void check_command_runs(const std::optional<CommandSpec>& command, const std::string& side,
                        const std::string& origin) {
  if (!command) {
    throw Error(
        fmt::format("no {0} command: pass --{0} 'CMD ARGS...' or set \"{0}\" in the configuration", side));
  }
  std::error_code ec;
  if (!command->working_directory.empty() && !std::filesystem::is_directory(command->working_directory, ec)) {
    // Taken as written: no variable, "~" or glob is expanded in a path from the configuration.
    throw Error(fmt::format("{} ({}): working directory \"{}\" does not exist", side, origin,
                            command->working_directory.string()));
  }
  if (command->launch == Launch::shell) {
    return;
  }
  const auto resolved = resolve_program(command->argv.front(), command->working_directory);
  if (!resolved) {
    throw Error(fmt::format("{} ({}): {}", side, origin, resolved.error()));
  }
}

// Applies --cpus to `config`: auto, none or a CPU list.
void apply_cpus_text(Config& config, const std::string& cpus_option) {
  if (cpus_option == "auto") {
    config.cpu_mode = CpuMode::automatic;
  } else if (cpus_option == "none") {
    config.cpu_mode = CpuMode::none;
  } else if (!cpus_option.empty()) {
    auto cpus = util::parse_cpu_list(cpus_option);
    if (!cpus) {
      throw Error(fmt::format("--cpus: {} (or auto, none)", cpus.error()));
    }
    config.cpu_mode = CpuMode::list;
    config.cpus = std::move(cpus).value();
  }
}

}  // namespace perfduel::cli
