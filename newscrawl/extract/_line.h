/* The fields of `blocks.Line` (a NamedTuple), by index: the C extensions build and read
 * lines as tuples, and this is the one place that knows their layout. Keep it in the order
 * of blocks.Line's fields (test_blockscan.py checks the two agree). */
#ifndef NEWSCRAWL_LINE_H
#define NEWSCRAWL_LINE_H

enum {
    F_TEXT = 0,
    F_TAG = 1,
    F_ELEMENT = 2,
    F_CHARS = 3,
    F_LINK_CHARS = 4,
    F_PUNCTUATION = 5,
    F_NOISE = 6,
    F_NOISE_ELEMENT = 7,
    LINE_FIELDS = 8
};

#endif
