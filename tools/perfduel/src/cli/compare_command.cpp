#include "cli/commands.hpp"

#include "util/error.hpp"

namespace perfduel::cli {

void add_compare_command(CLI::App& app, int& /*exit_code*/) {
  auto* command = app.add_subcommand("compare", "(not available in this build yet)");
  command->callback([] { throw Error("the compare command is not available in this build yet"); });
}

}  // namespace perfduel::cli
