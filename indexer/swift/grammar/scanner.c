// One translation unit per generated file: see parser.c.
#include "src/scanner.c"
