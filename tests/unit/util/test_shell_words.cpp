#include <catch2/catch.hpp>

#include "util/shell_words.hpp"

using perfduel::util::join_shell_words;
using perfduel::util::split_shell_words;
using Words = std::vector<std::string>;

TEST_CASE("split_shell_words splits like a POSIX shell without expanding", "[shell_words]") {
  CHECK(*split_shell_words("gzip -1 -c file.txt") == Words{"gzip", "-1", "-c", "file.txt"});
  CHECK(*split_shell_words("  a\t b  ") == Words{"a", "b"});
  CHECK(*split_shell_words("echo 'a b' \"c d\"") == Words{"echo", "a b", "c d"});
  CHECK(*split_shell_words(R"(x "say \"hi\"" 'it''s' a\ b)") == Words{"x", "say \"hi\"", "its", "a b"});
  CHECK(*split_shell_words("echo $HOME '*' ~") == Words{"echo", "$HOME", "*", "~"});
  CHECK(*split_shell_words("a '' b") == Words{"a", "", "b"});
  CHECK(split_shell_words("").value().empty());
}

TEST_CASE("split_shell_words reports broken quoting", "[shell_words]") {
  CHECK(split_shell_words("echo 'open").error() == "unterminated single quote");
  CHECK(split_shell_words("echo \"open").error() == "unterminated double quote");
  CHECK(split_shell_words("echo \\").error() == "trailing backslash");
}

TEST_CASE("join_shell_words quotes what needs quoting and round-trips", "[shell_words]") {
  const Words words{"./bench", "--name", "a b", "it's", "", "x=1"};
  const auto joined = join_shell_words(words);
  CHECK(joined == R"(./bench --name 'a b' 'it'\''s' '' x=1)");
  CHECK(*split_shell_words(joined) == words);
}
