#ifndef ARCLOUD_CFUZZERDRIVER_H
#define ARCLOUD_CFUZZERDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry point for programs that have their own `main` (compiler-rt,
/// FuzzerDriver.cpp). SwiftPM gives every executable a `main`, which hides libFuzzer's,
/// so `arcloud-fuzz` calls this instead. `argc`/`argv` are libFuzzer's flags and corpus
/// folders; they are read, and may be rearranged, during the call. `callback` runs once
/// per input; the bytes it receives are libFuzzer's and valid only during that call.
/// Returns the process exit status.
int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*callback)(const uint8_t *data, size_t size));

#endif
