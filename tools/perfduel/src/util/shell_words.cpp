#include "util/shell_words.hpp"

#include <algorithm>
#include <cctype>

namespace perfduel::util {

Expected<std::vector<std::string>> split_shell_words(std::string_view command) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  enum class Quote { none, single, double_ } quote = Quote::none;

  for (std::size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    switch (quote) {
      case Quote::single:
        if (c == '\'') {
          quote = Quote::none;
        } else {
          word += c;
        }
        continue;
      case Quote::double_:
        if (c == '"') {
          quote = Quote::none;
        } else if (c == '\\' && i + 1 < command.size() &&
                   std::string_view("\"\\$`").find(command[i + 1]) != std::string_view::npos) {
          word += command[++i];
        } else {
          word += c;
        }
        continue;
      case Quote::none:
        break;
    }
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) {
        words.push_back(std::move(word));
        word.clear();
        in_word = false;
      }
      continue;
    }
    in_word = true;
    if (c == '\'') {
      quote = Quote::single;
    } else if (c == '"') {
      quote = Quote::double_;
    } else if (c == '\\') {
      if (i + 1 == command.size()) {
        return Expected<std::vector<std::string>>::failure("trailing backslash");
      }
      word += command[++i];
    } else {
      word += c;
    }
  }
  if (quote != Quote::none) {
    return Expected<std::vector<std::string>>::failure(quote == Quote::single ? "unterminated single quote"
                                                                              : "unterminated double quote");
  }
  if (in_word) {
    words.push_back(std::move(word));
  }
  return words;
}

std::string quote_shell_word(std::string_view word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("@%+=:,./_-").find(c) != std::string_view::npos;
  });
  if (plain) {
    return std::string(word);
  }
  std::string quoted = "'";
  for (const char c : word) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

std::string join_shell_words(const std::vector<std::string>& words) {
  std::string joined;
  for (const auto& word : words) {
    if (!joined.empty()) {
      joined += ' ';
    }
    joined += quote_shell_word(word);
  }
  return joined;
}

}  // namespace perfduel::util
