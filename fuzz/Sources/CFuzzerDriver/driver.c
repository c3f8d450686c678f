// Nothing to compile: SwiftPM needs a source file in a C target. The function declared
// in include/CFuzzerDriver.h comes from libFuzzer (linked by -sanitize=fuzzer).
#include "CFuzzerDriver.h"
