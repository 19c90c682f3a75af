#include "support.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX declares it nowhere

namespace ci_local {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string trim(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) {
    return "";
  }
  return text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
}

std::pair<std::string, std::string> split_assignment(const std::string& text, const std::string& option) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0) {
    throw Unsupported(fmt::format("{} \"{}\": expected NAME=VALUE", option, text));
  }
  return {text.substr(0, equals), text.substr(equals + 1)};
}

Env process_environment() {
  Env env;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text = *entry;
    const auto equals = text.find('=');
    if (equals != std::string::npos) {
      env[text.substr(0, equals)] = text.substr(equals + 1);
    }
  }
  return env;
}

// Runs `argv` (an absolute program) in `directory` with exactly `env`; its exit code, 128 + the
// signal that killed it.
int run(const std::vector<std::string>& argv, const Env& env, const fs::path& directory) {
  // Everything the child needs is built before fork().
  std::vector<std::string> entries;
  entries.reserve(env.size());
  for (const auto& [name, value] : env) {
    entries.push_back(fmt::format("{}={}", name, value));
  }
  std::vector<char*> envp;
  envp.reserve(entries.size() + 1);
  for (auto& entry : entries) {
    envp.push_back(entry.data());
  }
  envp.push_back(nullptr);
  std::vector<std::string> args = argv;
  std::vector<char*> cargs;
  cargs.reserve(args.size() + 1);
  for (auto& arg : args) {
    cargs.push_back(arg.data());
  }
  cargs.push_back(nullptr);
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = fork();
  if (pid < 0) {
    throw std::runtime_error("fork failed");
  }
  if (pid == 0) {
    if (chdir(directory.c_str()) != 0) {
      std::perror(directory.c_str());
      _exit(127);
    }
    execve(cargs[0], cargs.data(), envp.data());
    std::perror(cargs[0]);
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string scalar(const YAML::Node& node) {
  return node && node.IsScalar() ? node.Scalar() : "";
}

// A step or command that would reach the network, which a test must replace.
bool reaches_network(const std::string& script) {
  return script.find("apt-get") != std::string::npos || script.find("git clone") != std::string::npos;
}

void check_keys(const YAML::Node& node, const std::vector<std::string>& known, const std::string& where) {
  if (!node.IsMap()) {
    throw Unsupported(fmt::format("{}: expected a mapping", where));
  }
  for (const auto& entry : node) {
    const auto key = entry.first.Scalar();
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      throw Unsupported(fmt::format("{}: key \"{}\" is not supported by ci_local", where, key));
    }
  }
}

}  // namespace ci_local
