#pragma once

#include <vector>

#include <sys/types.h>

// The processes of this process's tree, from /proc: what a run left behind once it ended
// (ProcessExecutor is a child subreaper, so they become its children).
namespace perfduel {

// The children of this process (every thread's), from /proc/self/task/*/children; empty where
// the kernel lacks that file.
std::vector<pid_t> own_children();

// Whether `pid` is still running (not a zombie waiting to be reaped).
bool is_running(pid_t pid);

// The process group of `pid`; 0 when it cannot be read.
pid_t process_group(pid_t pid);

// Kills and reaps every child this process still has after a run was reaped (what it left
// behind), and theirs, which become ours as each one dies.
void kill_left_behind();

}  // namespace perfduel
