# shellcheck shell=bash
# Sourced by run_templates.sh and ../release/roots_ci.sh: the example project (examples/sort_gate,
# copied to the current directory) made a git repository with main and pull request #7's two
# pushes, the commits the template runs check out.
#
#   pull_request_history CALLER   # CALLER names the script in an error
#
# Sets c_main; c_slower (the first push: the insertion-sort cutoff raised to 1024, really
# slower); c_same (the second push: the cutoff back, a comment reworded: the same programs);
# m_slower and m_same (GitHub's merge of each push into main, a pull request's checkout). Leaves
# main checked out; defines git_ (git with a fixed author). Returns 1 if the source no longer
# has the cutoff it changes.

git_() { git -c user.name="perfduel test" -c user.email=test@perfduel.invalid -c commit.gpgsign=false "$@"; }

pull_request_history() {
  git_ init -q -b main
  git_ add -A
  git_ commit -q -m "sort_gate"
  c_main=$(git rev-parse HEAD)
  git_ checkout -q -b slower
  sed -i 's/k_insertion_sort_cutoff = 16;/k_insertion_sort_cutoff = 1024;/' src/sort.cpp
  grep -q 'k_insertion_sort_cutoff = 1024;' src/sort.cpp || { echo "$1: the cutoff is gone from src/sort.cpp"; return 1; }
  git_ commit -q -am "sort: raise the insertion-sort cutoff to 1024"
  c_slower=$(git rev-parse HEAD)
  sed -i 's/k_insertion_sort_cutoff = 1024;/k_insertion_sort_cutoff = 16;/' src/sort.cpp
  sed -i 's|^// Ranges up to this size|// Ranges up to this size (a few dozen)|' src/sort.cpp
  git_ commit -q -am "sort: back to 16, a comment reworded"
  c_same=$(git rev-parse HEAD)
  git_ checkout -q --detach main
  git_ merge -q --no-ff -m "Merge slower into main" "$c_slower"
  m_slower=$(git rev-parse HEAD)
  git_ checkout -q --detach main
  git_ merge -q --no-ff -m "Merge slower into main" "$c_same"
  m_same=$(git rev-parse HEAD)
  git_ checkout -q main
}
