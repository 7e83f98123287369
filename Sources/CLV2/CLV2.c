#include "CLV2.h"
