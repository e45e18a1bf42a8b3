// What a waitpid() status means for the user and for shmpirun's exit code.
#pragma once

#include <string>

namespace shmpi::launcher {

// "exited with status 3", "killed by signal 9 (Killed)",
// "killed by signal 11 (Segmentation fault), core dumped".
std::string describe_wait_status(int status);

// The shell's convention: the exit status, or 128 + signal number.
int exit_code_of(int status);

// "SIGINT" for 2; "signal 64" when the signal has no name.
std::string signal_name(int signal_number);

}  // namespace shmpi::launcher
