// perfduel: wires the command line to the sub-commands; all behaviour lives in perfduel_core.
#include <cstdio>
#include <exception>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "bisect/git_bisect_codes.hpp"
#include "cli/commands.hpp"
#include "error.hpp"
#include "exit_codes.hpp"
#include "version_commit.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "perfduel: a performance regression gate. Runs a baseline and a candidate "
      "alternately until the confidence interval of their ratio decides.",
      "perfduel"};
  app.footer(perfduel::exit_codes_help());
  app.set_version_flag("--version",
                       fmt::format("perfduel {} (commit {})", PERFDUEL_VERSION, PERFDUEL_COMMIT));
  app.require_subcommand(1);

  int exit_code = 0;
  perfduel::cli::add_subcommands(app, exit_code);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    if (code != 0 && perfduel::bisect::asks_for_git_bisect_codes(argc, argv)) {
      return perfduel::to_int(perfduel::ExitCode::git_bisect_abort);  // 2 would mark the commit bad
    }
    return code == 0 ? 0 : perfduel::to_int(perfduel::ExitCode::usage);
  } catch (const perfduel::Error& e) {
    std::fflush(stdout);
    fmt::print(stderr, "perfduel: error: {}\n", e.what());
    return perfduel::to_int(e.exit_code());
  } catch (const std::exception& e) {
    std::fflush(stdout);
    fmt::print(stderr, "perfduel: internal error: {}\n", e.what());
    return perfduel::to_int(perfduel::ExitCode::usage);
  }
  return exit_code;
}
