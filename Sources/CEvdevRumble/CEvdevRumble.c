// The functions are static inline in include/CEvdevRumble.h; this file gives SwiftPM a C target to build.
#include "CEvdevRumble.h"
