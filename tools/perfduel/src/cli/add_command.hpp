#pragma once

#include <memory>
#include <string>

#include <CLI/App.hpp>

namespace perfduel::cli {

// A sub-command and the options it fills in, both owned by the CLI11 app (pointers, as
// CLI::App::add_subcommand gives them).
template <typename Options>
struct Command {
  CLI::App* command;
  Options* options;
};

// Adds to `app` the sub-command `name` with `help`, whose options are an `Options` it keeps;
// once the command line is parsed, its callback stores `run(options)` in `exit_code`. The
// caller adds the command's own options and footer to the returned pair.
template <typename Options, typename Run>
Command<Options> add_command(CLI::App& app, int& exit_code, const std::string& name, const std::string& help,
                             Run run) {
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(name, help);
  command->callback([options, run, &exit_code] { exit_code = run(*options); });
  return {command, options.get()};
}

}  // namespace perfduel::cli
