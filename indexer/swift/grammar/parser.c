// One translation unit per generated file: parser.c and scanner.c both
// define TOKEN_COUNT.
#include "src/parser.c"
