#ifndef LEGACY_H
#define LEGACY_H

#ifdef __cplusplus
extern "C" {
#endif

/* legacy_round rounds a price the old way. */
int legacy_round(int cents);

#ifdef __cplusplus
}
#endif

#endif
