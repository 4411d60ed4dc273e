#ifndef VIGIL_C_DISPLAY_WIDTH_H
#define VIGIL_C_DISPLAY_WIDTH_H

#include <stdint.h>

/// The columns a terminal gives one Unicode scalar, from the C library's wcwidth(3) in a UTF-8
/// locale: 2 for East Asian wide and fullwidth characters and emoji, 0 for combining marks and
/// zero-width characters, 1 for the rest, -1 for a control or a scalar glibc does not know.
/// -2 when no UTF-8 locale could be made (the caller falls back to its own estimate).
int vigil_scalar_width(uint32_t scalar);

#endif
