// SwiftPM needs one source file per C target; everything lives in the header as
// static inline functions so Swift can inline the register access into the callback.
#include "CTouchstoneFTZ.h"
