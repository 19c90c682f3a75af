#pragma once

#include <memory>

#include <CLI/App.hpp>

namespace perfduel::cli {

// A sub-command and the options it fills in, both owned by the CLI11 app (pointers, as
// CLI::App::add_subcommand gives them).
template <typename Options>
struct Command {
  CLI::App* command;
  Options* options;
};

// Gives `subcommand` an `Options` it keeps; once the command line is parsed, its callback
// stores `run(options)` in `exit_code`. The caller adds the command's own options and footer
// to the returned pair.
template <typename Options, typename Run>
Command<Options> bind_command(CLI::App& subcommand, int& exit_code, Run run) {
  auto options = std::make_shared<Options>();
  subcommand.callback([options, run, &exit_code] { exit_code = run(*options); });
  return {&subcommand, options.get()};
}

}  // namespace perfduel::cli
