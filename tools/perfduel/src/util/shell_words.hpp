#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/expected.hpp"

namespace perfduel::util {

// Splits `command` into words the way a POSIX shell does for a simple command: blanks
// separate words; single quotes keep everything literal; double quotes keep blanks and
// honour \" \\ \$ \` escapes; a backslash outside quotes escapes the next character.
// No expansion of any kind happens. Returns the words, or an error message on an
// unterminated quote or a trailing backslash.
Expected<std::vector<std::string>> split_shell_words(std::string_view command);

// Quotes `word` so that split_shell_words gives it back unchanged (for display and logs).
std::string quote_shell_word(std::string_view word);

// Joins `words`, quoting each as needed.
std::string join_shell_words(const std::vector<std::string>& words);

}  // namespace perfduel::util
