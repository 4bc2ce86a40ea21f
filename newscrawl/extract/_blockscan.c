/* The C of newscrawl.extract: the per-tag loop of blocks.page_lines, and at the end of
 * this file the metadata's passes over the lines it makes, the default selection's
 * passes over every line or element of a page (newscrawl.extract.default) and the simhash
 * of the extracted body (newscrawl.fingerprint).
 *
 * The loop is a line-for-line port of `_page_lines_python` (the reference: see its docstring and the
 * module docstring of blocks.py for the semantics): the same chunks, the same tokens
 * (blocks.py's `tokens`), the same element stack. At each boundary it finishes the text
 * gathered since the last one into a `blocks.Line` as `blocks._line` does (whitespace
 * collapsed, soft breaks kept, character counts, sentence punctuation), and returns the
 * lines, the element tree and the dated tags. Python is called only for what C does not
 * implement: decoding the character references of a line with a '&' other than the plain
 * ones (`blocks._unescaped`), and the flags of an attribute string that is not ASCII
 * (`blocks._attribute_flags`, once per distinct string per page).
 *
 * Nothing blocks.py defines is copied here: `configure` receives, by keyword, its tag
 * kinds, word lists, punctuation marks, plain references, name characters, limits and
 * classes, at import. What stays in C is how they are matched: the patterns blocks.py
 * builds from those tables (`_HIDDEN_RE`, `_CLASS_ID_RE`, `NOISE_WORD_RE`, the
 * punctuation and the tokens) are matched by hand, and blocks.py's import-time probe and
 * the tests hold this loop to the Python one.
 *
 * The page is read with PyUnicode_READ, so every string kind works; tag names are ASCII.
 * Every search only moves forward (or is cached), the stack is bounded, so the scan is
 * linear like the Python one. The GIL is held throughout; all state is per call except the
 * tables, which `configure` fills once at import, and the ints shared by every call
 * (`int_object`), made at import.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>
#if defined(__SSE2__) && defined(__GNUC__)
#define USE_SSE2 1
#include <emmintrin.h>
#endif

enum { K_INLINE, K_BLOCK, K_LINK, K_BREAK, K_VOID, K_SKIP, K_RAW, K_PRE, K_CELL, K_COUNT };
/* The kinds as blocks.py names them in `configure`'s tag_kinds. */
static const char *const KIND_NAMES[K_COUNT] = {"inline", "block", "link", "break", "void",
                                                "skip",   "raw",   "pre",  "cell"};

/* The fields of `blocks.Line` and `blocks.DatedTag`, by index: C builds them as tuples.
 * `configure` checks the classes' fields against these names. */
enum {
    F_TEXT,
    F_TAG,
    F_ELEMENT,
    F_CHARS,
    F_LINK_CHARS,
    F_PUNCTUATION,
    F_NOISE,
    F_NOISE_ELEMENT,
    LINE_FIELDS
};
static const char *const LINE_FIELD_NAMES[LINE_FIELDS] = {
    "text", "tag", "element", "chars", "link_chars", "punctuation", "noise", "noise_element"};
enum { DATED_FIELDS = 5 };
static const char *const DATED_FIELD_NAMES[DATED_FIELDS] = {"tag", "attributes", "noise",
                                                            "noise_element", "text"};

#define NAME_MAX_LEN 15
#define TABLE_SIZE 512 /* a power of two, well above twice the known names */

typedef struct {
    PyObject *str; /* the lower-case name (owned by the table, or by the scan's dict) */
    int kind;
    char noise;   /* in NOISE_TAGS */
    char implied; /* in _IMPLIED_END */
    char dated;   /* in DATED_TAGS */
    int skip;     /* index of the end-tag search cache (skipped and raw-text tags), or -1 */
} TagInfo;

typedef struct {
    char name[NAME_MAX_LEN + 1];
    Py_ssize_t len; /* 0: empty slot */
    TagInfo info;
} Known;

static Known known[TABLE_SIZE];
static int configured = 0;
static int skip_count = 0;
static Py_ssize_t max_depth = 256, close_depth = 32, chunk_size = 65536, class_chars = 512;
static Py_ssize_t dated_text_chars = 200; /* blocks.DATED_TEXT_CHARS (`configure`) */
static PyObject *attribute_flags_func = NULL;
static PyObject *root_name = NULL;  /* "": never equal to a tag name */
static PyObject *root_block = NULL; /* "body" */
static PyObject *hr_name = NULL;    /* the table's "hr" */
static PyTypeObject *line_type = NULL;      /* blocks.Line (a tuple subclass) */
static PyTypeObject *dated_type = NULL;     /* blocks.DatedTag (a tuple subclass) */
static PyObject *unescape_func = NULL;      /* blocks._unescaped */

/* blocks.py's tables (`configure`). */
static char name_start_table[128];   /* tokens.NAME_START */
static char name_char_table[128];    /* tokens.NAME_CHARACTERS */

/* A word list: lower-case ASCII str, owned by `tuple`, with their text at hand. */
#define MAX_WORDS 64
typedef struct {
    PyObject *tuple;
    Py_ssize_t count;
    const char *text[MAX_WORDS]; /* NUL-terminated (PyUnicode_1BYTE_DATA of each str) */
    Py_ssize_t len[MAX_WORDS];
    Py_UCS4 first[MAX_WORDS]; /* the first character of each, tested before the rest */
    char starts_read[128]; /* whether a word starts with the character as read (any case) */
    /* The words starting with character c: indices by[from[c]] to by[from[c + 1] - 1], in
     * the list's order. */
    unsigned char by[MAX_WORDS];
    unsigned char from[129];
} WordList;
static WordList noise_words;      /* NOISE_WORDS */
static WordList standalone_words; /* STANDALONE_NOISE_WORDS */
static WordList noise_attributes; /* NOISE_ATTRIBUTES */
static WordList style_names;      /* HIDDEN_STYLES: the properties ... */
static WordList style_values;     /* ... and the values that hide */
static WordList bare_attribute;   /* HIDDEN_ATTRIBUTE (one word) */
static WordList hiding_words;     /* the styles' values and HIDDEN_ATTRIBUTE */
static WordList dated_words;      /* DATED_ATTRIBUTE_WORDS */
/* `WordList.starts_read` of two lists at once: the hiding style names and attribute, and
 * the noise words of both kinds (`next_marked`). */
static char hidden_first_read[128], noise_first_read[128];
static unsigned char script_marks[0x10000 / 8]; /* SCRIPT_PUNCTUATION, a bit per BMP character */
static Py_UCS4 script_mark_min = 0x10000;       /* the smallest of them */
static char latin_marks[128];                /* LATIN_PUNCTUATION */
static Py_UCS4 spaced_low = 1, spaced_high = 0; /* SPACED_SCRIPTS (none until configured) */
#define MAX_REFERENCES 16
#define MAX_REFERENCE_LEN 15
typedef struct {
    char name[MAX_REFERENCE_LEN + 1]; /* after the '&', with its ';' */
    Py_UCS4 ch;
} Reference;
static Reference references[MAX_REFERENCES]; /* the named references C decodes */
static int reference_count = 0;

/* Make `list` hold the words of `tuple` (checked by `word_tuple`; a new reference taken). */
static void
set_words(WordList *list, PyObject *tuple)
{
    Py_XSETREF(list->tuple, Py_NewRef(tuple));
    list->count = PyTuple_GET_SIZE(tuple);
    for (Py_ssize_t i = 0; i < list->count; i++) {
        list->text[i] = (const char *)PyUnicode_1BYTE_DATA(PyTuple_GET_ITEM(tuple, i));
        list->len[i] = PyUnicode_GET_LENGTH(PyTuple_GET_ITEM(tuple, i));
        list->first[i] = (unsigned char)list->text[i][0];
    }
    memset(list->starts_read, 0, sizeof list->starts_read);
    memset(list->from, 0, sizeof list->from);
    for (Py_ssize_t i = 0; i < list->count; i++) {
        Py_UCS4 first = list->first[i];
        list->starts_read[first] = 1;
        if (first >= 'a' && first <= 'z') {
            list->starts_read[first - ('a' - 'A')] = 1;
        }
        list->from[first + 1]++;
    }
    for (int c = 0; c < 128; c++) {
        list->from[c + 1] += list->from[c];
    }
    unsigned char placed[128];
    memcpy(placed, list->from, sizeof placed);
    for (Py_ssize_t i = 0; i < list->count; i++) {
        list->by[placed[list->first[i]]++] = (unsigned char)i;
    }
}

static inline unsigned int
name_hash(const char *name, Py_ssize_t len)
{
    unsigned int h = 2166136261u;
    for (Py_ssize_t i = 0; i < len; i++) {
        h = (h ^ (unsigned char)name[i]) * 16777619u;
    }
    return h & (TABLE_SIZE - 1);
}

static Known *
known_slot(const char *name, Py_ssize_t len)
{
    unsigned int h = name_hash(name, len);
    for (;;) {
        Known *slot = &known[h];
        if (slot->len == 0 || (slot->len == len && memcmp(slot->name, name, len) == 0)) {
            return slot;
        }
        h = (h + 1) & (TABLE_SIZE - 1);
    }
}

/* ---------------------------------------------------------------- the scan's state */

typedef struct {
    PyObject *name; /* borrowed: the tag table, or the scan's unknown-name dict */
    PyObject *id;   /* borrowed: its key in `parents`, which holds it (the root's: shared) */
    PyObject *block;      /* borrowed, as name */
    PyObject *noise;      /* borrowed (a tag name or a flags tuple's item), NULL: None */
    PyObject *noise_element; /* borrowed, as id */
    char hidden;
    char pre;
} Entry;

typedef struct {
    PyObject *page;
    int kind;
    const void *data;
    Py_ssize_t n;

    Entry *stack;
    Py_ssize_t depth; /* len(stack), the root included */

    PyObject *lines;
    PyObject *parents;
    PyObject *dated; /* `blocks.DatedTag` tuples */
    PyObject *tags;       /* element id -> tag name */
    PyObject *attributes; /* element id -> raw attribute text, where there is one */
    Py_ssize_t element_count;
    PyObject *flags_cache;   /* attribute string -> (hidden, noise word) */
    PyObject *unknown_names; /* lower-case name -> itself */

    char *buffer; /* the pieces since the last boundary, in the page's kind */
    Py_ssize_t buffer_len, buffer_cap; /* length in characters, capacity in bytes */
    Py_ssize_t pieces;
    char *out; /* a line's collapsed text (`finish_line`) */
    Py_ssize_t out_cap; /* in bytes */

    Py_ssize_t link_chars;
    int in_link;
    Py_ssize_t link_depth;
    int break_pending;

    Py_ssize_t *skip_from; /* end-tag search cache: searched from, found at (-1: none) */
    Py_ssize_t *skip_found;
} Scan;

#define CH(s, i) PyUnicode_READ((s)->kind, (s)->data, (i))
#define TOP(s) (&(s)->stack[(s)->depth - 1])

static inline int
is_alpha(Py_UCS4 c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline int
is_name_start(Py_UCS4 c)
{
    return c < 128 && name_start_table[c];
}

static inline int
is_name_char(Py_UCS4 c)
{
    return c < 128 && name_char_table[c];
}

static inline Py_UCS4
ascii_lower(Py_UCS4 c)
{
    return (c >= 'A' && c <= 'Z') ? c + 32 : c;
}


/* The index of the first `ch` in data[start:end] of a string of `kind`, or -1: memchr for
 * one-byte strings, 8 characters at a time (SSE2) for two-byte ones. */
static Py_ssize_t
find_in(int kind, const void *data, Py_UCS4 ch, Py_ssize_t start, Py_ssize_t end)
{
    if (start >= end) {
        return -1;
    }
    if (kind == PyUnicode_1BYTE_KIND) {
        if (ch > 0xff) {
            return -1;
        }
        const Py_UCS1 *d = (const Py_UCS1 *)data;
        const void *p = memchr(d + start, (int)ch, (size_t)(end - start));
        return p ? (const Py_UCS1 *)p - d : -1;
    }
    if (kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *d = (const Py_UCS2 *)data;
        Py_ssize_t i = start;
#ifdef USE_SSE2
        if (ch <= 0xffff) {
            const __m128i needle = _mm_set1_epi16((short)ch);
            for (; i + 8 <= end; i += 8) {
                __m128i block = _mm_loadu_si128((const __m128i *)(d + i));
                int mask = _mm_movemask_epi8(_mm_cmpeq_epi16(block, needle));
                if (mask) {
                    return i + (__builtin_ctz((unsigned int)mask) >> 1);
                }
            }
        }
#endif
        for (; i < end; i++) {
            if (d[i] == ch) {
                return i;
            }
        }
        return -1;
    }
    const Py_UCS4 *d = (const Py_UCS4 *)data;
    for (Py_ssize_t i = start; i < end; i++) {
        if (d[i] == ch) {
            return i;
        }
    }
    return -1;
}

static Py_ssize_t
find_char(Scan *s, Py_UCS4 ch, Py_ssize_t start, Py_ssize_t end)
{
    return find_in(s->kind, s->data, ch, start, end);
}

static Py_ssize_t
rfind_char(Scan *s, Py_UCS4 ch, Py_ssize_t start, Py_ssize_t end)
{
    for (Py_ssize_t i = end - 1; i >= start; i--) {
        if (CH(s, i) == ch) {
            return i;
        }
    }
    return -1;
}

/* tokens.TAG_OPEN: whether the '<' at `i` starts a tag (followed by a name's first
 * character, '!', '?', or '/' and a name's first character, all before `end`). */
static inline int
opens_tag(Scan *s, Py_ssize_t i, Py_ssize_t end)
{
    if (i + 1 >= end) {
        return 0;
    }
    Py_UCS4 c = CH(s, i + 1);
    return is_name_start(c) || c == '!' || c == '?' ||
           (c == '/' && i + 2 < end && is_name_start(CH(s, i + 2)));
}

/* Where the text from `start` stops: the next '<' that starts a tag, else `end`. */
static Py_ssize_t
find_tag_start(Scan *s, Py_ssize_t start, Py_ssize_t end)
{
    for (Py_ssize_t i = find_char(s, '<', start, end); i >= 0; i = find_char(s, '<', i + 1, end)) {
        if (opens_tag(s, i, end)) {
            return i;
        }
    }
    return end;
}

/* Whether `word` (`len` lower-case ASCII bytes) stands at `i`, ASCII case folded; its first
 * `from` characters are known to match. */
static inline int
matches_ascii_ci(Scan *s, Py_ssize_t i, const char *word, Py_ssize_t len, Py_ssize_t from)
{
    Py_ssize_t j = from;
    while (j < len && ascii_lower(CH(s, i + j)) == (Py_UCS4)word[j]) {
        j++;
    }
    return j == len;
}

/* Whether [start, end) holds `word` (lower-case ASCII) ignoring ASCII case: exactly
 * `word in text.lower()` for a word without a 'k' (the Kelvin sign lowers to one; no
 * other character lowers to an ASCII letter followed by the next character), which
 * `configure` requires of the words blocks.py tests so. */
static int
contains_ascii_ci(Scan *s, Py_ssize_t start, Py_ssize_t end, const char *word, Py_ssize_t len)
{
    for (Py_ssize_t i = start; i + len <= end; i++) {
        if (matches_ascii_ci(s, i, word, len, 0)) {
            return 1;
        }
    }
    return 0;
}

/* `contains_any` for a string of `kind` (a constant where it is inlined, so that reading a
 * character is one load, not a switch per character: every tag's attribute text is
 * searched so). */
static inline int
contains_any_of_kind(int kind, const void *data, Py_ssize_t start, Py_ssize_t end,
                     const WordList *words)
{
    for (Py_ssize_t i = start; i < end; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c >= 128 || !words->starts_read[c]) { /* most places start none of them */
            continue;
        }
        c = ascii_lower(c);
        for (Py_ssize_t w = 0; w < words->count; w++) {
            Py_ssize_t len = words->len[w], j = 1;
            if (words->first[w] != c || i + len > end) {
                continue;
            }
            while (j < len &&
                   ascii_lower(PyUnicode_READ(kind, data, i + j)) == (Py_UCS4)words->text[w][j]) {
                j++;
            }
            if (j == len) {
                return 1;
            }
        }
    }
    return 0;
}

/* Whether [start, end) holds one of `words` (as `contains_ascii_ci`), in one pass. */
static int
contains_any(Scan *s, Py_ssize_t start, Py_ssize_t end, const WordList *words)
{
    switch (s->kind) {
    case PyUnicode_1BYTE_KIND:
        return contains_any_of_kind(PyUnicode_1BYTE_KIND, s->data, start, end, words);
    case PyUnicode_2BYTE_KIND:
        return contains_any_of_kind(PyUnicode_2BYTE_KIND, s->data, start, end, words);
    default:
        return contains_any_of_kind(PyUnicode_4BYTE_KIND, s->data, start, end, words);
    }
}

/* ---------------------------------------------------------------- pieces */

/* Grow `*block` (of `*cap` bytes) to hold `bytes`, doubling so that appends stay linear. */
static int
reserve_bytes(char **block, Py_ssize_t *cap, Py_ssize_t bytes)
{
    if (bytes <= *cap) {
        return 0;
    }
    if (bytes > PY_SSIZE_T_MAX / 2) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t grown_cap = *cap * 2 > bytes ? *cap * 2 : bytes;
    if (grown_cap < 256) {
        grown_cap = 256;
    }
    char *grown = PyMem_Realloc(*block, (size_t)grown_cap);
    if (grown == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *block = grown;
    *cap = grown_cap;
    return 0;
}

static int
buffer_reserve(Scan *s, Py_ssize_t extra)
{
    if (s->buffer_len + extra > PY_SSIZE_T_MAX / 4) {
        PyErr_NoMemory();
        return -1;
    }
    return reserve_bytes(&s->buffer, &s->buffer_cap, (s->buffer_len + extra) * s->kind);
}

static int
append_span(Scan *s, Py_ssize_t start, Py_ssize_t end)
{
    Py_ssize_t count = end - start;
    if (count <= 0) {
        s->pieces++;
        return 0;
    }
    if (buffer_reserve(s, count) < 0) {
        return -1;
    }
    memcpy(s->buffer + s->buffer_len * s->kind, (const char *)s->data + start * s->kind,
           (size_t)count * (size_t)s->kind);
    s->buffer_len += count;
    s->pieces++;
    return 0;
}

static int
append_char(Scan *s, Py_UCS4 ch)
{
    if (buffer_reserve(s, 1) < 0) {
        return -1;
    }
    PyUnicode_WRITE(s->kind, s->buffer, s->buffer_len, ch);
    s->buffer_len++;
    s->pieces++;
    return 0;
}

/* ---------------------------------------------------------------- finishing a line */

/* The sentence punctuation `blocks.sentence_punctuation` counts: SCRIPT_PUNCTUATION marks
 * anywhere, LATIN_PUNCTUATION ones at the end of a word (`collapse`, which passes the
 * tables in: read through globals, they are reloaded after every character it writes). */
static inline int
is_script_punctuation(Py_UCS4 c, Py_UCS4 min, const unsigned char *marks)
{
    return c >= min && c < 0x10000 && (marks[c >> 3] >> (c & 7)) & 1;
}

static inline int
is_latin_punctuation(Py_UCS4 c, const char *marks)
{
    return c < 128 && marks[c];
}

/* blocks.SPACED_SCRIPTS, [low, high]: a space between two of their characters is a mark. */
static inline int
is_spaced_script(Py_UCS4 c, Py_UCS4 low, Py_UCS4 high)
{
    return c >= low && c <= high;
}

typedef struct {
    Py_ssize_t len;   /* of the collapsed text in `out` */
    Py_ssize_t chars; /* its characters other than whitespace and soft breaks */
    Py_ssize_t punctuation;
} Collapsed;

/* The character references C decodes as `blocks._unescaped` does, where the answer is
 * plain: the named ones blocks.py lists (`references`: "&nbsp;" is a space, as
 * `raw.replace("&nbsp;", " ")` makes it, and no "&nbsp;" overlaps another reference;
 * "&lt;" ... as html.unescape), and "&#N;"/"&#xH;" of at most 7 digits naming a
 * character `html.unescape` returns unchanged (printable ASCII, and the ranges from U+00A0
 * that hold no surrogate, noncharacter or code `html.unescape` maps elsewhere). A decoded
 * character is then read like the same character written out. Returns the index of the
 * reference's ';' with its character in `*c`, or -1: Python decodes the line. Each is
 * whole (ends in ';'), so html.unescape's longest-prefix rules for names without ';'
 * never apply. */
static inline Py_ssize_t
reference_end(int kind, const void *data, Py_ssize_t amp, Py_ssize_t len, Py_UCS4 *c)
{
    Py_ssize_t i = amp + 1;
    if (i < len && PyUnicode_READ(kind, data, i) == '#') {
        int hex = i + 1 < len && (PyUnicode_READ(kind, data, i + 1) | 0x20) == 'x';
        Py_ssize_t digits = 0;
        Py_UCS4 value = 0;
        for (i += 1 + hex; i < len && digits < 8; i++, digits++) {
            Py_UCS4 d = PyUnicode_READ(kind, data, i);
            if (d >= '0' && d <= '9') {
                value = value * (hex ? 16 : 10) + (d - '0');
            }
            else if (hex && (d | 0x20) >= 'a' && (d | 0x20) <= 'f') {
                value = value * 16 + ((d | 0x20) - 'a' + 10);
            }
            else {
                break;
            }
        }
        if (digits == 0 || digits > 7 || i >= len || PyUnicode_READ(kind, data, i) != ';') {
            return -1;
        }
        int plain = (value >= 0x21 && value <= 0x7E) || (value >= 0xA0 && value <= 0xD7FF) ||
                    (value >= 0xE000 && value <= 0xFDCF) ||
                    (value >= 0xFDF0 && value <= 0x10FFFF && (value & 0xFFFE) != 0xFFFE);
        Py_UCS4 widest = kind == PyUnicode_1BYTE_KIND   ? 0xFF
                         : kind == PyUnicode_2BYTE_KIND ? 0xFFFF
                                                        : 0x10FFFF;
        if (!plain || value > widest) { /* the line is written in the page's own kind */
            return -1;
        }
        *c = value;
        return i;
    }
    for (int k = 0; k < reference_count; k++) {
        const char *name = references[k].name;
        Py_ssize_t j = 0;
        while (name[j] && i + j < len && PyUnicode_READ(kind, data, i + j) == (Py_UCS4)name[j]) {
            j++;
        }
        if (name[j] == '\0') {
            *c = references[k].ch;
            return i + j - 1;
        }
    }
    return -1;
}

/* Py_UNICODE_ISSPACE without its function call for the characters above U+3000 (CJK
 * text): no whitespace lies there. */
static inline int
is_space(Py_UCS4 c)
{
    return c < 128 ? Py_UNICODE_ISSPACE(c) : c <= 0x3000 && Py_UNICODE_ISSPACE(c);
}

/* `_line`'s whitespace handling of `len` characters of `kind` at `data`, written to `out`
 * (same kind; at most `len` characters): the words (runs of characters other than
 * whitespace, Py_UNICODE_ISSPACE like str.split, and soft breaks: '\0', and '\n' in
 * <pre>), joined by '\n' where a soft break lies between two words, else by ' '. Counts
 * the sentence punctuation of the result on the way: script marks anywhere, Latin ones at the
 * end of a word (followed by the ' ' or '\n' after it, or the end of the text, which is
 * all `(?=\s|$)` can see there), and the space between two words of a spaced script.
 * With `references` (raw text), the references `reference_end` knows are decoded, and
 * any other '&' stops it: returns 1, and the caller has Python decode the text
 * (`blocks._unescaped`); else returns 0. */
static inline int
collapse(int kind, const void *data, Py_ssize_t len, int pre, int references, void *out,
         Collapsed *result)
{
    Py_ssize_t n = 0, chars = 0, punctuation = 0;
    int in_word = 0, have_word = 0, soft_break = 0;
    Py_UCS4 last = 0;
    const Py_UCS4 script_min = script_mark_min;
    const unsigned char *const script = script_marks;
    const char *const latin = latin_marks;
    const Py_UCS4 spaced_min = spaced_low, spaced_max = spaced_high;
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c == '&' && references) {
            Py_ssize_t end = reference_end(kind, data, i, len, &c);
            if (end < 0) {
                return 1;
            }
            i = end;
        }
        if (c == 0 || (c == '\n' && pre)) {
            soft_break = 1;
        }
        else if (!is_space(c)) {
            if (!in_word) {
                if (have_word) {
                    PyUnicode_WRITE(kind, out, n, soft_break ? '\n' : ' ');
                    n++;
                    punctuation += is_spaced_script(c, spaced_min, spaced_max) &&
                                   is_spaced_script(last, spaced_min, spaced_max);
                }
                in_word = have_word = 1;
                soft_break = 0;
            }
            PyUnicode_WRITE(kind, out, n, c);
            n++;
            chars++;
            if (is_script_punctuation(c, script_min, script)) {
                punctuation++;
            }
            last = c;
            /* The rest of a run of characters above U+3000 (CJK text: none is whitespace,
             * '&' or a soft break), written straight. */
            while (i + 1 < len && (c = PyUnicode_READ(kind, data, i + 1)) > 0x3000) {
                PyUnicode_WRITE(kind, out, n, c);
                n++;
                chars++;
                punctuation += is_script_punctuation(c, script_min, script);
                last = c;
                i++;
            }
            continue;
        }
        if (in_word) { /* a word ends */
            in_word = 0;
            punctuation += is_latin_punctuation(last, latin);
        }
    }
    if (in_word) {
        punctuation += is_latin_punctuation(last, latin);
    }
    result->len = n;
    result->chars = chars;
    result->punctuation = punctuation;
    return 0;
}

/* `collapse` specialised for each kind (the switch lets the compiler inline it thrice). */
static int
collapse_any(int kind, const void *data, Py_ssize_t len, int pre, int references, void *out,
             Collapsed *result)
{
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        return collapse(PyUnicode_1BYTE_KIND, data, len, pre, references, out, result);
    case PyUnicode_2BYTE_KIND:
        return collapse(PyUnicode_2BYTE_KIND, data, len, pre, references, out, result);
    default:
        return collapse(PyUnicode_4BYTE_KIND, data, len, pre, references, out, result);
    }
}

/* Take a tuple that holds only strings, ints, bools and None (a `Line`, a `DatedTag`, a
 * visible line) out of the garbage collector's lists: no reference cycle can run through
 * it, and a page's hundreds of lines would otherwise be walked by every collection while
 * they live (CPython untracks such plain tuples itself, but not NamedTuple instances). */
static inline void
untrack_atomic(PyObject *tuple)
{
    PyObject_GC_UnTrack(tuple);
}

/* The ints a page's lines and scores hold by the hundred (lengths, line indices and
 * element ids, minus a line's length) are made once, at import: CPython shares only -5 to
 * 256, and a scan of a news page made hundreds of each above that. */
#define SHARED_INT_MIN (-1024)
#define SHARED_INT_END 4096
static PyObject *shared_ints[SHARED_INT_END - SHARED_INT_MIN];

static int
make_shared_ints(void)
{
    for (long long value = SHARED_INT_MIN; value < SHARED_INT_END; value++) {
        shared_ints[value - SHARED_INT_MIN] = PyLong_FromLongLong(value);
        if (shared_ints[value - SHARED_INT_MIN] == NULL) {
            return -1;
        }
    }
    return 0;
}

/* `value` as a new reference to an int: a shared one where there is one. */
static inline PyObject *
int_object(long long value)
{
    if (value >= SHARED_INT_MIN && value < SHARED_INT_END) {
        return Py_NewRef(shared_ints[value - SHARED_INT_MIN]);
    }
    return PyLong_FromLongLong(value);
}

static int
out_reserve(Scan *s, Py_ssize_t bytes)
{
    return reserve_bytes(&s->out, &s->out_cap, bytes);
}

/* `_line`: the raw text of `len` characters of `kind` at `data`, gathered under `top`,
 * as a `Line` appended to the lines (nothing if it is blank). */
static int
finish_line(Scan *s, int kind, const void *data, Py_ssize_t len, Entry *top)
{
    Collapsed done;
    PyObject *unescaped = NULL;
    if (out_reserve(s, len * kind) < 0) {
        return -1;
    }
    if (collapse_any(kind, data, len, top->pre, 1, s->out, &done)) {
        /* a '&' (not "&nbsp;"): Python decodes the references (`blocks._unescaped`) and C
         * goes on with the text it returns */
        PyObject *raw = PyUnicode_FromKindAndData(kind, data, len);
        if (raw == NULL) {
            return -1;
        }
        unescaped = PyObject_CallOneArg(unescape_func, raw);
        Py_DECREF(raw);
        if (unescaped == NULL) {
            return -1;
        }
        if (!PyUnicode_Check(unescaped) || PyUnicode_READY(unescaped) < 0) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_TypeError, "_unescaped must return a str");
            }
            Py_DECREF(unescaped);
            return -1;
        }
        kind = PyUnicode_KIND(unescaped);
        data = PyUnicode_DATA(unescaped);
        len = PyUnicode_GET_LENGTH(unescaped);
        if (out_reserve(s, len * kind) < 0) {
            Py_DECREF(unescaped);
            return -1;
        }
        collapse_any(kind, data, len, top->pre, 0, s->out, &done);
    }
    PyObject *text = done.len ? PyUnicode_FromKindAndData(kind, s->out, done.len) : NULL;
    Py_XDECREF(unescaped);
    if (done.len == 0) { /* blank */
        return 0;
    }
    if (text == NULL) {
        return -1;
    }
    /* Line(text, tag, element, chars, link_chars, punctuation, noise, noise_element), made
     * as tuple.__new__(Line, ...) makes it (the NamedTuple's __new__ adds only a call). */
    PyObject *line = line_type->tp_alloc(line_type, LINE_FIELDS);
    if (line == NULL) {
        Py_DECREF(text);
        return -1;
    }
    PyTuple_SET_ITEM(line, F_TEXT, text);
    PyTuple_SET_ITEM(line, F_TAG, Py_NewRef(top->block));
    PyTuple_SET_ITEM(line, F_ELEMENT, Py_NewRef(top->id));
    PyTuple_SET_ITEM(line, F_CHARS, int_object(done.chars));
    PyTuple_SET_ITEM(line, F_LINK_CHARS,
                     int_object(s->link_chars < done.chars ? s->link_chars : done.chars));
    PyTuple_SET_ITEM(line, F_PUNCTUATION, int_object(done.punctuation));
    PyTuple_SET_ITEM(line, F_NOISE, Py_NewRef(top->noise ? top->noise : Py_None));
    PyTuple_SET_ITEM(line, F_NOISE_ELEMENT, Py_NewRef(top->noise_element));
    for (int i = F_ELEMENT; i < LINE_FIELDS; i++) {
        if (PyTuple_GET_ITEM(line, i) == NULL) { /* out of memory (the tuple frees the rest) */
            Py_DECREF(line);
            return -1;
        }
    }
    untrack_atomic(line);
    int failed = PyList_Append(s->lines, line);
    Py_DECREF(line);
    return failed;
}

/* `_flush`: the pieces since the last boundary become a `Line` (if not blank). */
static int
flush(Scan *s)
{
    if (s->pieces == 0) {
        return 0;
    }
    Py_ssize_t len = s->buffer_len;
    s->buffer_len = 0;
    s->pieces = 0;
    return finish_line(s, s->kind, s->buffer, len, TOP(s));
}

/* The text before a tag (`text_start` already moved up to the scan position). */
static int
take_text(Scan *s, Py_ssize_t start, Py_ssize_t end)
{
    Py_ssize_t first = start;
    while (first < end && Py_UNICODE_ISSPACE(CH(s, first))) {
        first++;
    }
    if (first < end) {
        if (append_span(s, start, end) < 0) {
            return -1;
        }
        s->break_pending = 0;
        if (s->in_link) {
            Py_ssize_t last = end;
            while (last > first && Py_UNICODE_ISSPACE(CH(s, last - 1))) {
                last--;
            }
            s->link_chars += last - first;
        }
        return 0;
    }
    if (s->pieces || TOP(s)->pre) {
        return TOP(s)->pre ? append_span(s, start, end) : append_char(s, ' ');
    }
    return 0;
}

/* ---------------------------------------------------------------- tags */

/* The tag named by [start, end) (ASCII name characters). 0 on success. */
static int
lookup_tag(Scan *s, Py_ssize_t start, Py_ssize_t end, TagInfo *info)
{
    Py_ssize_t len = end - start;
    PyObject *lowered;
    if (len <= NAME_MAX_LEN) {
        char name[NAME_MAX_LEN + 1];
        for (Py_ssize_t i = 0; i < len; i++) {
            name[i] = (char)ascii_lower(CH(s, start + i));
        }
        Known *slot = known_slot(name, len);
        if (slot->len) {
            *info = slot->info;
            return 0;
        }
        lowered = PyUnicode_FromStringAndSize(name, len);
    }
    else {
        lowered = PyUnicode_New(len, 127);
        if (lowered != NULL) {
            Py_UCS1 *out = PyUnicode_1BYTE_DATA(lowered);
            for (Py_ssize_t i = 0; i < len; i++) {
                out[i] = (Py_UCS1)ascii_lower(CH(s, start + i));
            }
        }
    }
    if (lowered == NULL) {
        return -1;
    }
    PyObject *canonical = PyDict_SetDefault(s->unknown_names, lowered, lowered);
    Py_DECREF(lowered);
    if (canonical == NULL) {
        return -1;
    }
    info->str = canonical; /* borrowed: the dict holds it */
    info->kind = K_INLINE;
    info->noise = 0;
    info->implied = 0;
    info->dated = 0;
    info->skip = -1;
    return 0;
}

/* ---------------------------------------------------------------- attribute flags */

/* `_attribute_flags` for an ASCII attribute string, without the regex engine: the three
 * patterns blocks.py builds from its tables (`_HIDDEN_RE`, `_CLASS_ID_RE`,
 * `NOISE_WORD_RE`), matched by hand on the same tables. Attributes that are not ASCII (CJK
 * noise words, Unicode case and \s) go to the Python function. */

#define LOW(s, i) ascii_lower(CH(s, i))

static inline int
is_lower_letter(Py_UCS4 c)
{
    return c >= 'a' && c <= 'z';
}

/* The first position from `i` on, before `end`, whose character is ASCII and marked in
 * `marked` (a table by character as read), or `end`: the attribute loops below pass over
 * the places where none of their words starts with one load and one test each. */
static inline Py_ssize_t
next_marked(Scan *s, Py_ssize_t i, Py_ssize_t end, const char *marked)
{
    switch (s->kind) {
    case PyUnicode_1BYTE_KIND: {
        const Py_UCS1 *d = s->data;
        while (i < end && (d[i] >= 128 || !marked[d[i]])) {
            i++;
        }
        return i;
    }
    case PyUnicode_2BYTE_KIND: {
        const Py_UCS2 *d = s->data;
        while (i < end && (d[i] >= 128 || !marked[d[i]])) {
            i++;
        }
        return i;
    }
    default: {
        const Py_UCS4 *d = s->data;
        while (i < end && (d[i] >= 128 || !marked[d[i]])) {
            i++;
        }
        return i;
    }
    }
}

/* Whether the lower-cased page at `i` (< end) starts with `word`. */
static inline int
starts_with(Scan *s, Py_ssize_t i, Py_ssize_t end, const char *word)
{
    for (; *word; word++, i++) {
        if (i >= end || LOW(s, i) != (Py_UCS4)(unsigned char)*word) {
            return 0;
        }
    }
    return 1;
}

static Py_ssize_t
skip_spaces(Scan *s, Py_ssize_t i, Py_ssize_t end)
{
    while (i < end && Py_UNICODE_ISSPACE(CH(s, i))) {
        i++;
    }
    return i;
}

/* _HIDDEN_RE.search on ASCII [start, end): a hidden style, "name\s*:\s*value", or the
 * hidden attribute, "(?:^|\s)word(?=[\s=/]|$)". */
static int
native_hidden(Scan *s, Py_ssize_t start, Py_ssize_t end)
{
    const char *bare = bare_attribute.text[0];
    const Py_UCS4 bare_first = bare_attribute.first[0];
    const Py_ssize_t styles = style_names.count;
    const Py_UCS4 *const style_firsts = style_names.first;
    for (Py_ssize_t i = next_marked(s, start, end, hidden_first_read); i < end;
         i = next_marked(s, i + 1, end, hidden_first_read)) {
        Py_UCS4 c = LOW(s, i);
        for (Py_ssize_t k = 0; k < styles; k++) {
            if (style_firsts[k] != c || !starts_with(s, i, end, style_names.text[k])) {
                continue;
            }
            Py_ssize_t j = skip_spaces(s, i + style_names.len[k], end);
            if (j < end && CH(s, j) == ':' &&
                starts_with(s, skip_spaces(s, j + 1, end), end, style_values.text[k])) {
                return 1;
            }
        }
        if (bare_first == c && (i == start || Py_UNICODE_ISSPACE(CH(s, i - 1))) &&
            starts_with(s, i, end, bare)) {
            Py_ssize_t j = i + bare_attribute.len[0];
            if (j == end) {
                return 1;
            }
            Py_UCS4 next = CH(s, j);
            if (Py_UNICODE_ISSPACE(next) || next == '=' || next == '/') {
                return 1;
            }
        }
    }
    return 0;
}

/* Whether the place `i` of [start, end) follows "no-" or "no_": a class that says the
 * box is not there ("no-sidebars", Drupal's layout class on <body>). */
static inline int
negated(Scan *s, Py_ssize_t start, Py_ssize_t i)
{
    return i - start >= 3 && LOW(s, i - 3) == 'n' && LOW(s, i - 2) == 'o' &&
           (CH(s, i - 1) == '-' || CH(s, i - 1) == '_');
}

/* NOISE_WORD_RE.search on ASCII [start, end): the word (borrowed from the tables), or
 * NULL. At each place not `negated` the words are tried in blocks.py's order, the
 * standalone ones only with no ASCII letter before or after. */
static PyObject *
native_noise_in(Scan *s, Py_ssize_t start, Py_ssize_t end)
{
    /* Most places start no word: their first letter is tested before the word lists
     * (distinct class strings such as "line number12 index11" are one per element). */
    for (Py_ssize_t i = next_marked(s, start, end, noise_first_read); i < end;
         i = next_marked(s, i + 1, end, noise_first_read)) {
        if (negated(s, start, i)) {
            continue;
        }
        Py_UCS4 c = LOW(s, i); /* ASCII: `next_marked` */
        for (int k = noise_words.from[c]; k < noise_words.from[c + 1]; k++) {
            int w = noise_words.by[k];
            if (starts_with(s, i, end, noise_words.text[w])) {
                return PyTuple_GET_ITEM(noise_words.tuple, w);
            }
        }
        if (i > start && is_lower_letter(LOW(s, i - 1))) {
            continue;
        }
        for (int k = standalone_words.from[c]; k < standalone_words.from[c + 1]; k++) {
            int w = standalone_words.by[k];
            Py_ssize_t after = i + standalone_words.len[w];
            if (starts_with(s, i, end, standalone_words.text[w]) &&
                (after >= end || !is_lower_letter(LOW(s, after)))) {
                return PyTuple_GET_ITEM(standalone_words.tuple, w);
            }
        }
    }
    return NULL;
}

static inline int
is_word_char(Py_UCS4 c) /* \w or '-', for ASCII */
{
    return is_alpha(c) || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* The value of an attribute whose name ends at `j`: `\s*=\s*` and a value quoted in
 * '"' or "'" (up to the closing quote), or bare (`[^\s"'>]+`), as _CLASS_ID_RE reads it.
 * 1 with the value's span and the match's end, or 0 when none follows. */
static int
attribute_value(Scan *s, Py_ssize_t j, Py_ssize_t end, Py_ssize_t *value_start,
                Py_ssize_t *value_end, Py_ssize_t *match_end)
{
    j = skip_spaces(s, j, end);
    if (j >= end || CH(s, j) != '=') {
        return 0;
    }
    j = skip_spaces(s, j + 1, end);
    Py_UCS4 q = j < end ? CH(s, j) : 0;
    if (q == '"' || q == '\'') {
        Py_ssize_t close = find_char(s, q, j + 1, end);
        if (close < 0) {
            return 0;
        }
        *value_start = j + 1;
        *value_end = close;
        *match_end = close + 1;
        return 1;
    }
    Py_ssize_t k = j;
    while (k < end) {
        Py_UCS4 v = CH(s, k);
        if (Py_UNICODE_ISSPACE(v) || v == '"' || v == '\'' || v == '>') {
            break;
        }
        k++;
    }
    *value_start = j;
    *value_end = k;
    *match_end = k;
    return k > j;
}

/* `noise_word` on ASCII [start, end): _CLASS_ID_RE.finditer (a NOISE_ATTRIBUTES name not
 * after a word character or '-', tried in order, and its value), then the first value's
 * noise word. */
static PyObject *
native_noise(Scan *s, Py_ssize_t start, Py_ssize_t end)
{
    Py_ssize_t i = start;
    while ((i = next_marked(s, i, end, noise_attributes.starts_read)) < end) {
        Py_ssize_t value_start = 0, value_end = 0, match_end = -1;
        Py_UCS4 c = LOW(s, i);
        for (Py_ssize_t k = 0; k < noise_attributes.count; k++) {
            if (noise_attributes.first[k] == c &&
                starts_with(s, i, end, noise_attributes.text[k]) &&
                (i == start || !is_word_char(LOW(s, i - 1))) &&
                attribute_value(s, i + noise_attributes.len[k], end, &value_start, &value_end,
                                &match_end)) {
                break;
            }
            match_end = -1;
        }
        if (match_end < 0) {
            i++;
            continue;
        }
        if (value_end - value_start > class_chars) {
            value_end = value_start + class_chars; /* blocks.MAX_CLASS_CHARS */
        }
        PyObject *word = native_noise_in(s, value_start, value_end);
        if (word != NULL) {
            return word;
        }
        i = match_end;
    }
    return NULL;
}

static int
is_ascii_span(Scan *s, Py_ssize_t start, Py_ssize_t end)
{
    if (s->kind == PyUnicode_1BYTE_KIND && PyUnicode_IS_ASCII(s->page)) {
        return 1;
    }
    for (Py_ssize_t i = start; i < end; i++) {
        if (CH(s, i) > 127) {
            return 0;
        }
    }
    return 1;
}

/* `_attribute_flags(attributes.lower())` of the attribute string [start, end), cached per
 * string for the page. Sets *hidden and *noise (borrowed, NULL for None). */
static int
attribute_flags(Scan *s, Py_ssize_t start, Py_ssize_t end, int *hidden, PyObject **noise)
{
    if (is_ascii_span(s, start, end)) {
        *hidden = native_hidden(s, start, end);
        *noise = native_noise(s, start, end);
        return 0;
    }
    PyObject *key = PyUnicode_Substring(s->page, start, end);
    if (key == NULL) {
        return -1;
    }
    PyObject *flags = PyDict_GetItemWithError(s->flags_cache, key);
    if (flags == NULL) {
        if (PyErr_Occurred()) {
            Py_DECREF(key);
            return -1;
        }
        PyObject *lowered = PyObject_CallMethod(key, "lower", NULL);
        if (lowered == NULL) {
            Py_DECREF(key);
            return -1;
        }
        flags = PyObject_CallOneArg(attribute_flags_func, lowered);
        Py_DECREF(lowered);
        if (flags == NULL) {
            Py_DECREF(key);
            return -1;
        }
        if (!PyTuple_Check(flags) || PyTuple_GET_SIZE(flags) != 2) {
            Py_DECREF(flags);
            Py_DECREF(key);
            PyErr_SetString(PyExc_TypeError, "attribute_flags must return a 2-tuple");
            return -1;
        }
        int failed = PyDict_SetItem(s->flags_cache, key, flags);
        Py_DECREF(flags); /* the dict keeps it */
        if (failed) {
            Py_DECREF(key);
            return -1;
        }
    }
    Py_DECREF(key);
    int truth = PyObject_IsTrue(PyTuple_GET_ITEM(flags, 0));
    if (truth < 0) {
        return -1;
    }
    *hidden = truth;
    PyObject *word = PyTuple_GET_ITEM(flags, 1);
    *noise = word == Py_None ? NULL : word;
    return 0;
}

/* `tokens.quoted_tag_end`: after the first '>' from `start` outside values quoted right after
 * an '=', else `end`. */
static Py_ssize_t
quoted_tag_end(Scan *s, Py_ssize_t start, Py_ssize_t end)
{
    Py_ssize_t i = start;
    while (i < s->n) {
        Py_UCS4 c = CH(s, i);
        if (c == '>') {
            return i + 1;
        }
        i++;
        if (c == '=') {
            while (i < s->n && Py_UNICODE_ISSPACE(CH(s, i))) {
                i++;
            }
            if (i < s->n) {
                Py_UCS4 quote = CH(s, i);
                if (quote == '"' || quote == '\'') {
                    Py_ssize_t close = find_char(s, quote, i + 1, s->n);
                    if (close >= 0) {
                        i = close + 1;
                    }
                }
            }
        }
    }
    return end;
}

/* `tokens.content_end`: the position after the end tag of the skipped element `info` whose
 * content starts at `start`. The search for "</name" (in any ASCII case) is cached per
 * name, so pages of unclosed skipped elements stay linear. */
static Py_ssize_t
skip_content(Scan *s, const TagInfo *info, Py_ssize_t start)
{
    int index = info->skip;
    Py_ssize_t found;
    if (s->skip_from[index] >= 0 && start >= s->skip_from[index] &&
        (s->skip_found[index] < 0 || s->skip_found[index] >= start)) {
        found = s->skip_found[index];
    }
    else {
        const char *name = (const char *)PyUnicode_1BYTE_DATA(info->str);
        Py_ssize_t len = PyUnicode_GET_LENGTH(info->str);
        found = -1;
        for (Py_ssize_t i = find_char(s, '<', start, s->n); i >= 0;
             i = find_char(s, '<', i + 1, s->n)) {
            if (i + 2 + len > s->n) {
                break;
            }
            if (CH(s, i + 1) != '/') {
                continue;
            }
            Py_ssize_t j = 0;
            while (j < len && ascii_lower(CH(s, i + 2 + j)) == (Py_UCS4)name[j]) {
                j++;
            }
            if (j == len) {
                found = i;
                break;
            }
        }
        s->skip_from[index] = start;
        s->skip_found[index] = found;
    }
    if (found < 0) {
        return info->kind == K_RAW ? s->n : start;
    }
    Py_ssize_t close = find_char(s, '>', found + 2 + PyUnicode_GET_LENGTH(info->str), s->n);
    return close < 0 ? s->n : close + 1;
}

/* `_close`: close the innermost open `name` within `close_depth` entries of the top. */
static int
close_element(Scan *s, PyObject *name)
{
    Py_ssize_t stop = s->depth - 1 - close_depth;
    if (stop < 0) {
        stop = 0;
    }
    for (Py_ssize_t d = s->depth - 1; d > stop; d--) {
        if (s->stack[d].name == name) {
            s->depth = d;
            return 1;
        }
    }
    return 0;
}

/* `blocks._dated_tag`: DatedTag(tag, attributes, noise, noise_element, text) of a start tag
 * ending at `position`, made as `finish_line` makes a Line, appended to the dated tags. */
static int
add_dated(Scan *s, PyObject *name, Py_ssize_t attr_start, Py_ssize_t attr_end,
          Py_ssize_t position)
{
    Py_ssize_t limit = position + dated_text_chars < s->n ? position + dated_text_chars : s->n;
    Py_ssize_t end = find_char(s, '<', position, limit);
    PyObject *tag = dated_type->tp_alloc(dated_type, 5);
    if (tag == NULL) {
        return -1;
    }
    PyTuple_SET_ITEM(tag, 0, Py_NewRef(name));
    PyTuple_SET_ITEM(tag, 1, PyUnicode_Substring(s->page, attr_start, attr_end));
    PyTuple_SET_ITEM(tag, 2, Py_NewRef(TOP(s)->noise ? TOP(s)->noise : Py_None));
    PyTuple_SET_ITEM(tag, 3, Py_NewRef(TOP(s)->noise_element));
    PyTuple_SET_ITEM(tag, 4, PyUnicode_Substring(s->page, position, end >= 0 ? end : limit));
    int failed = PyTuple_GET_ITEM(tag, 1) == NULL || PyTuple_GET_ITEM(tag, 3) == NULL ||
                 PyTuple_GET_ITEM(tag, 4) == NULL;
    if (!failed) {
        untrack_atomic(tag);
        failed = PyList_Append(s->dated, tag) < 0;
    }
    Py_DECREF(tag);
    return failed ? -1 : 0;
}

/* ---------------------------------------------------------------- the loop */

static int
run(Scan *s)
{
    Py_ssize_t n = s->n;
    Py_ssize_t position = 0;
    Py_ssize_t last_tag_end = rfind_char(s, '>', 0, n) + 1;
    Py_ssize_t chunk_start = 0;

    while (chunk_start < last_tag_end) {
        Py_ssize_t limit = chunk_start + chunk_size < last_tag_end ? chunk_start + chunk_size
                                                                   : last_tag_end;
        Py_ssize_t chunk_end = rfind_char(s, '>', chunk_start, limit) + 1;
        if (chunk_end <= chunk_start) {
            chunk_end = find_char(s, '>', chunk_start + chunk_size, n) + 1;
            if (chunk_end <= chunk_start) { /* cannot happen: a '>' ends at last_tag_end */
                break;
            }
        }
        Py_ssize_t cursor = chunk_start;
        for (;;) {
            if (cursor < position) {
                /* Python tokenises [cursor, position) and drops those tokens (scripts,
                 * comments, quoted '>'): position is right after a '>', so no tag spans
                 * it, and a text that does is cut at it; starting there is the same. */
                if (position >= chunk_end) {
                    break;
                }
                cursor = position;
            }
            Py_ssize_t text_start = cursor;
            Py_ssize_t tag_start = find_tag_start(s, cursor, chunk_end);
            if (tag_start >= chunk_end) { /* the chunk's last token: text without a tag */
                cursor = chunk_end;
                if (chunk_end > text_start && cursor > position && !TOP(s)->hidden) {
                    if (take_text(s, text_start < position ? position : text_start, cursor) <
                        0) {
                        return -1;
                    }
                }
                break;
            }
            /* The tag: <name ...>, </name ...>, <!-- or <!...> / <?...>. */
            Py_UCS4 c1 = CH(s, tag_start + 1);
            int closing = 0, comment = 0, named = 1;
            Py_ssize_t name_start = 0, name_end = 0, attr_start = 0, attr_end = 0, tag_end;
            if (c1 == '/' || is_name_start(c1)) {
                closing = c1 == '/';
                name_start = tag_start + 1 + closing;
                name_end = name_start + 1;
                while (name_end < chunk_end && is_name_char(CH(s, name_end))) {
                    name_end++;
                }
                Py_ssize_t gt = find_char(s, '>', name_end, chunk_end);
                attr_start = name_end;
                attr_end = gt < 0 ? chunk_end : gt;
                tag_end = gt < 0 ? chunk_end : gt + 1;
            }
            else {
                named = 0;
                if (c1 == '!' && tag_start + 3 < chunk_end && CH(s, tag_start + 2) == '-' &&
                    CH(s, tag_start + 3) == '-') {
                    comment = 1;
                    tag_end = tag_start + 4;
                }
                else {
                    Py_ssize_t gt = find_char(s, '>', tag_start + 1, chunk_end);
                    tag_end = gt < 0 ? chunk_end : gt + 1;
                }
            }
            cursor = tag_end;
            if (cursor <= position) {
                continue;
            }
            if (tag_start > text_start && !TOP(s)->hidden && tag_start > position) {
                if (take_text(s, text_start < position ? position : text_start, tag_start) <
                    0) {
                    return -1;
                }
            }
            if (tag_start < position) {
                continue;
            }
            position = cursor;
            if (!named) {
                if (comment) { /* `tokens.comment_end`: "<!-->" and "<!--->" close at once */
                    Py_ssize_t ender = position - 2;
                    for (;;) {
                        ender = find_char(s, '-', ender, n);
                        if (ender < 0 || ender + 2 >= n) {
                            ender = -1;
                            break;
                        }
                        if (CH(s, ender + 1) == '-' && CH(s, ender + 2) == '>') {
                            break;
                        }
                        ender++;
                    }
                    position = ender < 0 ? n : ender + 3;
                }
                continue;
            }
            if (attr_end > attr_start) {
                Py_ssize_t doubles = 0, singles = 0;
                for (Py_ssize_t i = attr_start; i < attr_end; i++) {
                    Py_UCS4 c = CH(s, i);
                    doubles += c == '"';
                    singles += c == '\'';
                }
                if (doubles % 2 || singles % 2) {
                    position = quoted_tag_end(s, name_end, position);
                    attr_start = name_end;
                    attr_end = position - 1;
                }
            }
            int has_attributes = attr_end > attr_start;

            TagInfo info;
            if (lookup_tag(s, name_start, name_end, &info) < 0) {
                return -1;
            }
            PyObject *name = info.str;
            int kind = info.kind;
            if (!closing &&
                (info.dated ||
                 (has_attributes && contains_any(s, attr_start, attr_end, &dated_words)))) {
                if (add_dated(s, name, attr_start, attr_end, position) < 0) {
                    return -1;
                }
            }
            int hidden = 0;
            PyObject *noise = NULL;
            int have_flags = 0;

            if (kind == K_INLINE && !TOP(s)->hidden) { /* the commonest tags: decided first */
                if (closing) {
                    if (TOP(s)->name != name) {
                        continue;
                    }
                }
                else {
                    if (!has_attributes) {
                        continue;
                    }
                    if (!contains_any(s, attr_start, attr_end, &hiding_words)) {
                        continue;
                    }
                    if (attribute_flags(s, attr_start, attr_end, &hidden, &noise) < 0) {
                        return -1;
                    }
                    have_flags = 1;
                    if (!hidden) {
                        continue;
                    }
                }
            }
            if (kind == K_LINK) {
                s->in_link = !closing && contains_ascii_ci(s, attr_start, attr_end, "href", 4);
                s->link_depth = s->depth;
                continue;
            }
            if (kind == K_BREAK) {
                if (s->break_pending || name == hr_name) {
                    if (s->pieces && flush(s) < 0) {
                        return -1;
                    }
                    s->link_chars = 0;
                    s->break_pending = 0;
                }
                else if (s->pieces) {
                    if (append_char(s, 0) < 0) {
                        return -1;
                    }
                    s->break_pending = 1;
                }
                continue;
            }
            if (closing) {
                if (kind != K_INLINE && kind != K_CELL && s->pieces) {
                    if (flush(s) < 0) {
                        return -1;
                    }
                    s->link_chars = 0;
                    s->break_pending = 0;
                }
                if (TOP(s)->name == name) {
                    s->depth--;
                }
                else if (!close_element(s, name)) {
                    continue;
                }
                if (s->in_link && s->depth < s->link_depth) {
                    s->in_link = 0;
                }
                continue;
            }
            if (kind == K_BLOCK || kind == K_PRE || kind == K_CELL) {
                if (kind == K_CELL) {
                    if (s->pieces && append_char(s, ' ') < 0) {
                        return -1;
                    }
                }
                else if (s->pieces) {
                    if (flush(s) < 0) {
                        return -1;
                    }
                    s->link_chars = 0;
                    s->break_pending = 0;
                }
                if (TOP(s)->name == name && info.implied) {
                    s->depth--;
                }
            }
            else if (kind == K_VOID) {
                continue;
            }
            else if (kind != K_INLINE) { /* skipped and raw-text elements */
                position = skip_content(s, &info, position);
                continue;
            }
            if (s->depth > max_depth ||
                (kind == K_INLINE && has_attributes && CH(s, attr_end - 1) == '/')) {
                continue;
            }
            Entry *parent = TOP(s);
            Py_ssize_t element_id = ++s->element_count;
            /* One int object per element (`parents` holds it): its lines, its children's
             * parent entries and the lines of a box it makes noise hold that same one. */
            PyObject *key = int_object(element_id);
            int failed = key == NULL || PyDict_SetItem(s->parents, key, parent->id) < 0 ||
                         PyList_Append(s->tags, name) < 0;
            if (!failed && has_attributes) {
                PyObject *text = PyUnicode_Substring(s->page, attr_start, attr_end);
                failed = text == NULL || PyDict_SetItem(s->attributes, key, text) < 0;
                Py_XDECREF(text);
            }
            Py_XDECREF(key); /* `parents` holds it (or it failed) */
            if (failed) {
                return -1;
            }
            Entry entry;
            entry.name = name;
            entry.id = key;
            entry.block = kind != K_INLINE ? name : parent->block;
            entry.noise = parent->noise;
            entry.noise_element = parent->noise_element;
            entry.hidden = parent->hidden;
            entry.pre = parent->pre || kind == K_PRE;
            if (has_attributes || info.noise) {
                if (!have_flags &&
                    attribute_flags(s, attr_start, attr_end, &hidden, &noise) < 0) {
                    return -1;
                }
                PyObject *word = info.noise ? name : noise;
                if (word != NULL) {
                    entry.noise = word;
                    entry.noise_element = key;
                }
                entry.hidden = parent->hidden || hidden;
            }
            s->stack[s->depth++] = entry;
        }
        chunk_start = chunk_end > position ? chunk_end : position;
    }

    if (position < n && !TOP(s)->hidden) { /* `tokens.unclosed_tail` */
        Py_ssize_t start = position > last_tag_end ? position : last_tag_end;
        Py_ssize_t stop = n;
        for (Py_ssize_t i = find_char(s, '<', start, n); i >= 0;
             i = find_char(s, '<', i + 1, n)) {
            if (opens_tag(s, i, n)) {
                stop = i;
                break;
            }
        }
        if (append_span(s, start, stop) < 0) {
            return -1;
        }
    }
    return flush(s);
}

static PyObject *
scan(PyObject *Py_UNUSED(module), PyObject *page)
{
    if (!PyUnicode_Check(page)) {
        PyErr_Format(PyExc_TypeError, "page must be str, not %.100s", Py_TYPE(page)->tp_name);
        return NULL;
    }
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "_blockscan.configure() was not called");
        return NULL;
    }
    if (PyUnicode_READY(page) < 0) {
        return NULL;
    }
    Scan s;
    memset(&s, 0, sizeof(s));
    s.page = page;
    s.kind = PyUnicode_KIND(page);
    s.data = PyUnicode_DATA(page);
    s.n = PyUnicode_GET_LENGTH(page);
    PyObject *result = NULL;

    s.stack = PyMem_Malloc(sizeof(Entry) * (size_t)(max_depth + 2));
    s.skip_from = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(skip_count + 1));
    s.skip_found = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(skip_count + 1));
    s.lines = PyList_New(0);
    s.parents = PyDict_New();
    s.dated = PyList_New(0);
    s.tags = PyList_New(0);
    s.attributes = PyDict_New();
    s.flags_cache = PyDict_New();
    s.unknown_names = PyDict_New();
    if (s.stack == NULL || s.skip_from == NULL || s.skip_found == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (s.lines == NULL || s.parents == NULL || s.dated == NULL || s.tags == NULL ||
        s.attributes == NULL || s.flags_cache == NULL || s.unknown_names == NULL) {
        goto done;
    }
    if (PyList_Append(s.tags, root_name) < 0) {
        goto done;
    }
    for (int i = 0; i <= skip_count; i++) {
        s.skip_from[i] = -1;
        s.skip_found[i] = -1;
    }
    s.stack[0].name = root_name;
    s.stack[0].id = shared_ints[0 - SHARED_INT_MIN]; /* 0: the root's id */
    s.stack[0].block = root_block;
    s.stack[0].noise = NULL;
    s.stack[0].noise_element = s.stack[0].id;
    s.stack[0].hidden = 0;
    s.stack[0].pre = 0;
    s.depth = 1;

    if (run(&s) == 0) {
        result = PyTuple_Pack(5, s.lines, s.parents, s.dated, s.tags, s.attributes);
    }

done:
    PyMem_Free(s.stack);
    PyMem_Free(s.skip_from);
    PyMem_Free(s.skip_found);
    PyMem_Free(s.buffer);
    PyMem_Free(s.out);
    Py_XDECREF(s.lines);
    Py_XDECREF(s.parents);
    Py_XDECREF(s.dated);
    Py_XDECREF(s.tags);
    Py_XDECREF(s.attributes);
    Py_XDECREF(s.flags_cache);
    Py_XDECREF(s.unknown_names);
    return result;
}

/* ---------------------------------------------------------------- configuration */

static void
clear_table(void)
{
    for (int i = 0; i < TABLE_SIZE; i++) {
        Py_CLEAR(known[i].info.str);
        known[i].len = 0;
    }
    skip_count = 0;
    hr_name = NULL;
    configured = 0;
}

/* Fill a 128-entry table with the characters of `chars` (ASCII str). */
static int
char_table(PyObject *chars, char *table, const char *what)
{
    if (!PyUnicode_Check(chars) || !PyUnicode_IS_ASCII(chars)) {
        PyErr_Format(PyExc_ValueError, "%s must be an ASCII str", what);
        return -1;
    }
    memset(table, 0, 128);
    const char *text = (const char *)PyUnicode_1BYTE_DATA(chars);
    for (Py_ssize_t i = 0; i < PyUnicode_GET_LENGTH(chars); i++) {
        table[(unsigned char)text[i]] = 1;
    }
    return 0;
}

/* Whether `name` can be a tag name in the table: lower-case name characters (of the new
 * `chars` table), 1 to NAME_MAX_LEN of them. */
static int
check_name(PyObject *name, const char *chars)
{
    if (!PyUnicode_Check(name) || !PyUnicode_IS_ASCII(name)) {
        PyErr_SetString(PyExc_ValueError, "tag names must be ASCII str");
        return -1;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(name);
    const char *text = (const char *)PyUnicode_1BYTE_DATA(name);
    if (len == 0 || len > NAME_MAX_LEN) {
        PyErr_SetString(PyExc_ValueError, "tag names must be 1 to 15 characters");
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        if (!chars[(unsigned char)text[i]] || ascii_lower((Py_UCS4)text[i]) != (Py_UCS4)text[i]) {
            PyErr_SetString(PyExc_ValueError, "tag names must be lower-case name characters");
            return -1;
        }
    }
    return 0;
}

/* The table slot of `name` (checked), added as an inline tag if new. */
static Known *
add_name(PyObject *name)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(name);
    const char *text = (const char *)PyUnicode_1BYTE_DATA(name);
    Known *slot = known_slot(text, len);
    if (slot->len == 0) {
        memcpy(slot->name, text, (size_t)len);
        slot->name[len] = '\0';
        slot->len = len;
        slot->info.str = Py_NewRef(name);
        slot->info.kind = K_INLINE;
        slot->info.noise = 0;
        slot->info.implied = 0;
        slot->info.dated = 0;
        slot->info.skip = -1;
    }
    return slot;
}

/* `names` (any iterable of tag names) as a tuple, each checked (`check_name`). */
static PyObject *
name_tuple(PyObject *names, const char *chars)
{
    PyObject *tuple = PySequence_Tuple(names);
    if (tuple == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tuple); i++) {
        if (check_name(PyTuple_GET_ITEM(tuple, i), chars) < 0) {
            Py_DECREF(tuple);
            return NULL;
        }
    }
    return tuple;
}

/* `words` (a sequence of str) as a tuple of non-empty lower-case ASCII str: what C
 * compares with ASCII-lowered text. With `letter_first`, each starts with a letter
 * a-z (the noise words: `noise_first_read`); with `no_k`, none holds a 'k' (the words
 * `contains_ascii_ci` finds, as `in` finds them in Python's lowered text). */
static PyObject *
word_tuple(PyObject *words, const char *what, int letter_first, int no_k)
{
    PyObject *tuple = PySequence_Tuple(words);
    if (tuple == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tuple); i++) {
        PyObject *word = PyTuple_GET_ITEM(tuple, i);
        int ok = PyUnicode_Check(word) && PyUnicode_IS_ASCII(word) &&
                 PyUnicode_GET_LENGTH(word) > 0;
        const char *text = ok ? (const char *)PyUnicode_1BYTE_DATA(word) : "";
        for (Py_ssize_t j = 0; ok && j < PyUnicode_GET_LENGTH(word); j++) {
            ok = text[j] != '\0' && ascii_lower((Py_UCS4)text[j]) == (Py_UCS4)text[j] &&
                 !(no_k && text[j] == 'k');
        }
        if (ok && letter_first) {
            ok = is_lower_letter((Py_UCS4)text[0]);
        }
        ok = ok && i < MAX_WORDS;
        if (!ok) {
            PyErr_Format(PyExc_ValueError, "%s must be at most 64 lower-case ASCII words%s%s", what,
                         letter_first ? " starting with a letter" : "",
                         no_k ? " without a 'k'" : "");
            Py_DECREF(tuple);
            return NULL;
        }
    }
    return tuple;
}

/* The hidden attribute (`word`) as a checked word list of one. */
static PyObject *
single_word(PyObject *word)
{
    PyObject *one = PyTuple_Pack(1, word);
    PyObject *words = one ? word_tuple(one, "hidden_attribute", 0, 1) : NULL;
    Py_XDECREF(one);
    return words;
}

/* Lines and dated tags are made as tuple.__new__(cls, ...): only a plain tuple layout will
 * do (a NamedTuple: no __dict__, no extra slots), with the fields C fills, in its order. */
static int
check_tuple_class(PyObject *cls, const char *const *fields, Py_ssize_t count, const char *what)
{
    PyTypeObject *type = (PyTypeObject *)cls;
    int plain = PyType_Check(cls) && PyType_IsSubtype(type, &PyTuple_Type) &&
                type->tp_basicsize == PyTuple_Type.tp_basicsize &&
                type->tp_itemsize == PyTuple_Type.tp_itemsize && type->tp_dictoffset == 0 &&
                type->tp_weaklistoffset == 0 && type->tp_alloc != NULL;
    PyObject *names = plain ? PyObject_GetAttrString(cls, "_fields") : NULL;
    int same = names != NULL && PyTuple_Check(names) && PyTuple_GET_SIZE(names) == count;
    for (Py_ssize_t i = 0; same && i < count; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        same = PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, fields[i]) == 0;
    }
    Py_XDECREF(names);
    PyErr_Clear();
    if (!same) {
        PyErr_Format(PyExc_TypeError, "%s must be a NamedTuple with the fields C fills", what);
        return -1;
    }
    return 0;
}

/* The marks of SCRIPT_PUNCTUATION (BMP characters) and LATIN_PUNCTUATION (ASCII characters
 * other than whitespace), into the given tables. */
static int
mark_tables(PyObject *script, PyObject *latin, unsigned char *script_bits, Py_UCS4 *script_min,
            char *latin_table)
{
    memset(script_bits, 0, 0x10000 / 8);
    memset(latin_table, 0, 128);
    *script_min = 0x10000;
    for (Py_ssize_t i = 0; i < PyUnicode_GET_LENGTH(script); i++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(script, i);
        if (c >= 0x10000) {
            PyErr_SetString(PyExc_ValueError, "script_punctuation must be BMP characters");
            return -1;
        }
        script_bits[c >> 3] |= (unsigned char)(1u << (c & 7));
        *script_min = c < *script_min ? c : *script_min;
    }
    for (Py_ssize_t i = 0; i < PyUnicode_GET_LENGTH(latin); i++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(latin, i);
        if (c == 0 || c >= 128 || Py_UNICODE_ISSPACE(c)) {
            PyErr_SetString(PyExc_ValueError,
                            "latin_punctuation must be ASCII characters other than whitespace");
            return -1;
        }
        latin_table[c] = 1;
    }
    return 0;
}

/* The named references C decodes (`reference_end`): "&name;" -> one ASCII character. */
static int
reference_table(PyObject *named, Reference *table, int *count)
{
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    *count = 0;
    while (PyDict_Next(named, &pos, &key, &value)) {
        int ok = *count < MAX_REFERENCES && PyUnicode_Check(key) && PyUnicode_IS_ASCII(key) &&
                 PyUnicode_GET_LENGTH(key) >= 3 &&
                 PyUnicode_GET_LENGTH(key) <= MAX_REFERENCE_LEN + 1 && PyUnicode_Check(value) &&
                 PyUnicode_GET_LENGTH(value) == 1 && PyUnicode_READ_CHAR(value, 0) < 128;
        const char *text = ok ? (const char *)PyUnicode_1BYTE_DATA(key) : "";
        Py_ssize_t len = ok ? PyUnicode_GET_LENGTH(key) : 0;
        ok = ok && text[0] == '&' && text[len - 1] == ';';
        for (Py_ssize_t i = 1; ok && i < len - 1; i++) {
            ok = is_alpha((Py_UCS4)text[i]) || (text[i] >= '0' && text[i] <= '9');
        }
        if (!ok) {
            PyErr_SetString(PyExc_ValueError, "references must map at most 16 \"&name;\" "
                                              "to one ASCII character each");
            return -1;
        }
        memcpy(table[*count].name, text + 1, (size_t)(len - 1));
        table[*count].name[len - 1] = '\0';
        table[*count].ch = PyUnicode_READ_CHAR(value, 0);
        (*count)++;
    }
    return 0;
}

static PyObject *
configure(PyObject *Py_UNUSED(module), PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {
        "tag_kinds", "noise_tags", "implied_end", "dated_tags", "dated_attribute_words",
        "noise_words", "standalone_noise_words", "noise_attributes", "hidden_styles",
        "hidden_attribute", "script_punctuation", "latin_punctuation", "spaced_scripts",
        "references",
        "name_start", "name_characters", "max_depth", "close_search_depth", "chunk",
        "max_class_chars", "dated_text_chars", "line", "dated_tag", "attribute_flags",
        "unescaped", NULL};
    PyObject *kinds = NULL, *noise_tag_names = NULL, *implied = NULL, *dated_tag_names = NULL;
    PyObject *dated_arg = NULL, *noise_arg = NULL, *standalone_arg = NULL, *attributes_arg = NULL;
    PyObject *styles_arg = NULL, *bare_arg = NULL, *script_arg = NULL, *latin_arg = NULL;
    PyObject *spaced_arg = NULL;
    PyObject *references_arg = NULL, *start_arg = NULL, *chars_arg = NULL;
    PyObject *line_class = NULL, *dated_class = NULL, *flags_func = NULL, *unescape = NULL;
    Py_ssize_t depth = -1, search_depth = -1, chunk = -1, class_limit = -1, dated_limit = -1;
    if (PyTuple_GET_SIZE(args) != 0) {
        PyErr_SetString(PyExc_TypeError, "configure() takes keyword arguments only");
        return NULL;
    }
    if (!PyArg_ParseTupleAndKeywords(
            args, kwargs, "|$O!OOOOOOOOUUUUO!UUnnnnnOOOO:configure", keywords, &PyDict_Type,
            &kinds, &noise_tag_names, &implied, &dated_tag_names, &dated_arg, &noise_arg,
            &standalone_arg, &attributes_arg, &styles_arg, &bare_arg, &script_arg, &latin_arg,
            &spaced_arg, &PyDict_Type, &references_arg, &start_arg, &chars_arg, &depth,
            &search_depth, &chunk, &class_limit, &dated_limit, &line_class, &dated_class,
            &flags_func, &unescape)) {
        return NULL;
    }
    PyObject *given[] = {kinds,      noise_tag_names, implied,        dated_tag_names, dated_arg,
                         noise_arg,  standalone_arg,  attributes_arg, styles_arg,      bare_arg,
                         script_arg,    latin_arg,       references_arg, start_arg,       chars_arg,
                         line_class, dated_class,     flags_func,     unescape,        spaced_arg};
    for (size_t i = 0; i < sizeof given / sizeof given[0]; i++) {
        if (given[i] == NULL) {
            PyErr_SetString(PyExc_TypeError, "configure() needs every keyword argument");
            return NULL;
        }
    }
    if (depth < 1 || depth > 1000000 || search_depth < 0 || chunk < 1 || class_limit < 1 ||
        dated_limit < 0) {
        PyErr_SetString(PyExc_ValueError, "bad limits");
        return NULL;
    }
    if (PyUnicode_GET_LENGTH(spaced_arg) != 2 ||
        PyUnicode_READ_CHAR(spaced_arg, 0) > PyUnicode_READ_CHAR(spaced_arg, 1)) {
        PyErr_SetString(PyExc_ValueError, "spaced_scripts must be a range's two ends");
        return NULL;
    }
    if (!PyCallable_Check(flags_func) || !PyCallable_Check(unescape)) {
        PyErr_SetString(PyExc_TypeError, "attribute_flags and unescaped must be callable");
        return NULL;
    }
    if (check_tuple_class(line_class, LINE_FIELD_NAMES, LINE_FIELDS, "line") < 0 ||
        check_tuple_class(dated_class, DATED_FIELD_NAMES, DATED_FIELDS, "dated_tag") < 0) {
        return NULL;
    }

    /* Everything is checked before anything is replaced: a refused configuration leaves
     * the one before it in place. */
    char new_start[128], new_chars[128], new_latin[128];
    static unsigned char new_script[0x10000 / 8];
    Py_UCS4 new_script_min;
    Reference new_references[MAX_REFERENCES];
    int new_reference_count;
    if (char_table(start_arg, new_start, "name_start") < 0 ||
        char_table(chars_arg, new_chars, "name_characters") < 0 ||
        mark_tables(script_arg, latin_arg, new_script, &new_script_min, new_latin) < 0 ||
        reference_table(references_arg, new_references, &new_reference_count) < 0) {
        return NULL;
    }
    enum { NOISE_NAMES, IMPLIED_NAMES, DATED_NAMES, WORDS, STANDALONE, ATTRIBUTES, DATED,
           STYLE_NAMES, STYLE_VALUES, BARE, HIDING, TUPLES };
    PyObject *t[TUPLES] = {NULL};
    PyObject *result = NULL, *styles = NULL, *hiding = NULL;
    if ((t[NOISE_NAMES] = name_tuple(noise_tag_names, new_chars)) == NULL ||
        (t[IMPLIED_NAMES] = name_tuple(implied, new_chars)) == NULL ||
        (t[DATED_NAMES] = name_tuple(dated_tag_names, new_chars)) == NULL ||
        (t[WORDS] = word_tuple(noise_arg, "noise_words", 1, 0)) == NULL ||
        (t[STANDALONE] = word_tuple(standalone_arg, "standalone_noise_words", 1, 0)) == NULL ||
        (t[ATTRIBUTES] = word_tuple(attributes_arg, "noise_attributes", 0, 0)) == NULL ||
        (t[DATED] = word_tuple(dated_arg, "dated_attribute_words", 0, 1)) == NULL ||
        (t[BARE] = single_word(bare_arg)) == NULL ||
        (styles = PySequence_Tuple(styles_arg)) == NULL ||
        (t[STYLE_NAMES] = PyTuple_New(PyTuple_GET_SIZE(styles))) == NULL ||
        (t[STYLE_VALUES] = PyTuple_New(PyTuple_GET_SIZE(styles))) == NULL ||
        (hiding = PyList_New(0)) == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(styles); i++) {
        PyObject *style = word_tuple(PyTuple_GET_ITEM(styles, i), "hidden_styles", 0, 1);
        if (style != NULL && PyTuple_GET_SIZE(style) != 2) {
            PyErr_SetString(PyExc_ValueError, "hidden_styles must be (name, value) pairs");
            Py_CLEAR(style);
        }
        if (style == NULL || PyList_Append(hiding, PyTuple_GET_ITEM(style, 1)) < 0) {
            Py_XDECREF(style);
            goto done;
        }
        PyTuple_SET_ITEM(t[STYLE_NAMES], i, Py_NewRef(PyTuple_GET_ITEM(style, 0)));
        PyTuple_SET_ITEM(t[STYLE_VALUES], i, Py_NewRef(PyTuple_GET_ITEM(style, 1)));
        Py_DECREF(style);
    }
    if (PyTuple_GET_SIZE(styles) > MAX_WORDS || PyList_Append(hiding, bare_arg) < 0 ||
        (t[HIDING] = PyList_AsTuple(hiding)) == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "hidden_styles: at most 64");
        }
        goto done;
    }
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(kinds, &pos, &key, &value)) {
        int known_kind = 0;
        for (int k = 0; k < K_COUNT && PyUnicode_Check(value); k++) {
            known_kind |= PyUnicode_CompareWithASCIIString(value, KIND_NAMES[k]) == 0;
        }
        if (check_name(key, new_chars) < 0) {
            goto done;
        }
        if (!known_kind) {
            PyErr_SetString(PyExc_ValueError, "tag_kinds values must be kind names");
            goto done;
        }
    }

    /* Apply. */
    clear_table();
    memcpy(name_start_table, new_start, sizeof name_start_table);
    memcpy(name_char_table, new_chars, sizeof name_char_table);
    memcpy(script_marks, new_script, sizeof script_marks);
    script_mark_min = new_script_min;
    memcpy(latin_marks, new_latin, sizeof latin_marks);
    spaced_low = PyUnicode_READ_CHAR(spaced_arg, 0);
    spaced_high = PyUnicode_READ_CHAR(spaced_arg, 1);
    memcpy(references, new_references, sizeof references);
    reference_count = new_reference_count;
    pos = 0;
    while (PyDict_Next(kinds, &pos, &key, &value)) {
        Known *slot = add_name(key);
        for (int k = 0; k < K_COUNT; k++) {
            if (PyUnicode_CompareWithASCIIString(value, KIND_NAMES[k]) == 0) {
                slot->info.kind = k;
            }
        }
        if ((slot->info.kind == K_SKIP || slot->info.kind == K_RAW) && slot->info.skip < 0) {
            slot->info.skip = skip_count++;
        }
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(t[NOISE_NAMES]); i++) {
        add_name(PyTuple_GET_ITEM(t[NOISE_NAMES], i))->info.noise = 1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(t[IMPLIED_NAMES]); i++) {
        add_name(PyTuple_GET_ITEM(t[IMPLIED_NAMES], i))->info.implied = 1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(t[DATED_NAMES]); i++) {
        add_name(PyTuple_GET_ITEM(t[DATED_NAMES], i))->info.dated = 1;
    }
    Known *hr = known_slot("hr", 2);
    if (hr->len == 0 || hr->info.kind != K_BREAK) {
        PyErr_SetString(PyExc_ValueError, "tag_kinds must map 'hr' to the break kind");
        clear_table();
        goto done;
    }
    hr_name = hr->info.str;
    set_words(&noise_words, t[WORDS]);
    set_words(&standalone_words, t[STANDALONE]);
    set_words(&noise_attributes, t[ATTRIBUTES]);
    set_words(&dated_words, t[DATED]);
    set_words(&style_names, t[STYLE_NAMES]);
    set_words(&style_values, t[STYLE_VALUES]);
    set_words(&bare_attribute, t[BARE]);
    set_words(&hiding_words, t[HIDING]);
    for (int c = 0; c < 128; c++) {
        hidden_first_read[c] = bare_attribute.starts_read[c] || style_names.starts_read[c];
        noise_first_read[c] = noise_words.starts_read[c] || standalone_words.starts_read[c];
    }
    Py_XSETREF(attribute_flags_func, Py_NewRef(flags_func));
    Py_XSETREF(line_type, (PyTypeObject *)Py_NewRef(line_class));
    Py_XSETREF(dated_type, (PyTypeObject *)Py_NewRef(dated_class));
    Py_XSETREF(unescape_func, Py_NewRef(unescape));
    max_depth = depth;
    close_depth = search_depth;
    chunk_size = chunk;
    class_chars = class_limit;
    dated_text_chars = dated_limit;
    configured = 1;
    result = Py_NewRef(Py_None);

done:
    for (int i = 0; i < TUPLES; i++) {
        Py_XDECREF(t[i]);
    }
    Py_XDECREF(styles);
    Py_XDECREF(hiding);
    return result;
}

/* ---------------------------------------------------------------- the metadata's passes
 *
 * Three passes of the metadata (newscrawl.extract.metadata.lines) over the lines this scan
 * made, one over the page's scripts (metadata.scripts) and one over its first text
 * (metadata.page_facts), each with its Python reference there, which the tests hold it
 * to. In Python the three cost about 6% more extraction time on the crawl benchmark's pages
 * (BENCHMARKS.md, "Speed"), and the other two made a page with metadata 4-8% slower
 * (CHANGELOG.md).
 *
 * line_hits(text, groups) -> tuple of lists: for each group (a tuple of needles), the
 * indices, ascending and distinct, of the "\n"-separated lines of `text` that hold one of
 * its needles. The metadata rules look for lines holding a label (来源, 作者, 发布时间,
 * posted ...) all over the page; a regular expression per label kind tests every
 * character of the page against a character set once per kind, where this pass tests each
 * character once against bitmaps of the needles' first characters and first pairs
 * (`NeedleIndex`) and compares the few needles that start with it. Text characters are
 * folded before comparing (`fold`: ASCII capitals to lower case, and the four characters
 * beyond ASCII a case-blind pattern matches to an ASCII letter as that letter); needles
 * are given folded (`Keyword.needles`, whose
 * patterns confirm every line: a superset filter, tested so). Linear time.
 *
 * visible_lines(lines, other_content, heading_tags, max_chars, line_class) -> list: for each
 * `blocks.Line` not in an `other_content` box, one `line_class(text, heading, tag, linked)` per
 * "\n"-separated part of its text, cut at `max_chars`; `heading` is whether its tag is one
 * of `heading_tags`, `linked` whether the line holds link text (reference:
 * `metadata.lines._visible_lines_python`).
 *
 * box_chars(lines, words) -> (total, {element: chars}): the chars of all `lines`, and per
 * noise element the chars of the lines whose noise word is in `words` (reference:
 * `metadata.lines._box_chars_python`).
 *
 * range_counts(text, groups) -> tuple: for each group of (low, high) code point ranges
 * (inclusive, disjoint across all groups), how many characters of `text` fall in one: the
 * letters per script of the page's first text, its language's evidence, where the
 * reference reads the text as a numpy array (reference: `metadata.page_facts.script_letters`).
 *
 * substrings_in(texts, names) -> list of tuples: for each text, those of `names` that occur
 * in it, exactly (no folding), in their given order: the variable names the metadata looks
 * for in a page's scripts, found in one pass over each script as line_hits finds its
 * needles, where a substring test per name read the scripts once per name (reference:
 * `metadata.scripts.substrings_in`).
 */

typedef struct {
    Py_UCS4 *chars; /* folded needle */
    Py_ssize_t len;
    Py_ssize_t group;
} Needle;

/* `c` as a case-blind pattern compares it with ASCII letters: capitals in lower case, and
 * the four characters beyond ASCII that match one (`needles.CASE_FOLDS_TO_ASCII`) as it. */
static inline Py_UCS4
fold(Py_UCS4 c)
{
    if (c < 128) {
        return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
    }
    if (c > 0x212A || (c > 0x017F && c < 0x212A)) { /* most text beyond ASCII: one test */
        return c;
    }
    switch (c) {
    case 0x0130: /* İ */
    case 0x0131: /* ı */
        return 'i';
    case 0x017F: /* ſ */
        return 's';
    case 0x212A: /* Kelvin sign */
        return 'k';
    default:
        return c;
    }
}

static void
free_needles(Needle *needles, Py_ssize_t count)
{
    for (Py_ssize_t i = 0; i < count; i++) {
        PyMem_Free(needles[i].chars);
    }
    PyMem_Free(needles);
}

/* The needles of one group, appended at needles[*at]; -1 with an exception on bad input. */
static int
read_group(PyObject *group, Py_ssize_t g, Needle *needles, Py_ssize_t *at)
{
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(group); i++) {
        PyObject *needle = PyTuple_GET_ITEM(group, i);
        if (!PyUnicode_Check(needle) || PyUnicode_GET_LENGTH(needle) == 0) {
            PyErr_SetString(PyExc_TypeError, "needles must be non-empty strings");
            return -1;
        }
        needles[*at].chars = PyUnicode_AsUCS4Copy(needle);
        if (needles[*at].chars == NULL) {
            return -1;
        }
        needles[*at].len = PyUnicode_GET_LENGTH(needle);
        needles[*at].group = g;
        (*at)++;
    }
    return 0;
}

/* The needles of every group (a tuple of tuples of strings, or with `flat` one tuple of
 * strings, each its own group), flattened; NULL with an exception set on bad input. */
static Needle *
read_needles(PyObject *groups, int flat, Py_ssize_t *count)
{
    Py_ssize_t n_groups = PyTuple_GET_SIZE(groups), total = flat ? n_groups : 0;
    for (Py_ssize_t g = 0; g < n_groups && !flat; g++) {
        PyObject *group = PyTuple_GET_ITEM(groups, g);
        if (!PyTuple_Check(group)) {
            PyErr_SetString(PyExc_TypeError, "each group must be a tuple of strings");
            return NULL;
        }
        total += PyTuple_GET_SIZE(group);
    }
    Needle *needles = PyMem_Calloc(total ? total : 1, sizeof(Needle));
    if (needles == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    Py_ssize_t at = 0;
    for (Py_ssize_t g = 0; g < (flat ? 1 : n_groups); g++) {
        if (read_group(flat ? groups : PyTuple_GET_ITEM(groups, g), g, needles, &at) < 0) {
            free_needles(needles, at);
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; flat && i < total; i++) {
        needles[i].group = i;
    }
    *count = total;
    return needles;
}

/* The needles by their first character: `order` holds their indices sorted by it, `firsts`
 * the first characters in that order. Three bitmaps rule out most text positions: `starts`
 * marks every needle's first character (by its low 16 bits), which most text characters
 * are not, so one test rules them out; of the rest, `singles` marks the characters of
 * one-character needles, `pairs` the first two characters of the others (by `pair_bit`).
 * A position they do not rule out costs a binary search and a comparison with the needles
 * that start with its character. */
typedef struct {
    const Needle *needles;
    Py_ssize_t count;
    Py_ssize_t *order;
    Py_UCS4 *firsts;
    unsigned char starts[65536 / 8];
    unsigned char singles[65536 / 8];
    unsigned char pairs[65536 / 8];
} NeedleIndex;

/* The bit of two successive characters in `NeedleIndex.pairs`: their low bytes. */
static inline unsigned
pair_bit(Py_UCS4 first, Py_UCS4 second)
{
    return ((first & 0xFF) << 8) | (second & 0xFF);
}

static inline int
bit_set(const unsigned char *bitmap, unsigned bit)
{
    return bitmap[bit >> 3] & (1u << (bit & 7));
}

static inline void
set_bit(unsigned char *bitmap, unsigned bit)
{
    bitmap[bit >> 3] |= (unsigned char)(1u << (bit & 7));
}

/* 0, or -1 with MemoryError set. */
static int
index_needles(NeedleIndex *index, const Needle *needles, Py_ssize_t count)
{
    index->needles = needles;
    index->count = count;
    index->order = PyMem_Malloc((count ? count : 1) * sizeof(Py_ssize_t));
    index->firsts = PyMem_Malloc((count ? count : 1) * sizeof(Py_UCS4));
    if (index->order == NULL || index->firsts == NULL) {
        PyMem_Free(index->order);
        PyMem_Free(index->firsts);
        PyErr_NoMemory();
        return -1;
    }
    memset(index->starts, 0, sizeof index->starts);
    memset(index->singles, 0, sizeof index->singles);
    memset(index->pairs, 0, sizeof index->pairs);
    for (Py_ssize_t i = 0; i < count; i++) { /* insertion sort: a few dozen needles */
        const Needle *needle = &needles[i];
        Py_UCS4 c = needle->chars[0];
        Py_ssize_t j = i;
        while (j > 0 && index->firsts[j - 1] > c) {
            index->firsts[j] = index->firsts[j - 1];
            index->order[j] = index->order[j - 1];
            j--;
        }
        index->firsts[j] = c;
        index->order[j] = i;
        set_bit(index->starts, c & 0xFFFF);
        if (needle->len == 1) {
            set_bit(index->singles, c & 0xFFFF);
        } else {
            set_bit(index->pairs, pair_bit(c, needle->chars[1]));
        }
    }
    return 0;
}

static void
free_index(NeedleIndex *index)
{
    PyMem_Free(index->order);
    PyMem_Free(index->firsts);
}

/* The first position from `pos` on that the bitmaps of `index` do not rule out (its
 * character, folded when `folded`, marked in `starts` and then in `singles`, or it and the
 * next in `pairs`), or n. The loop that reads most of the text: a character that starts no
 * needle costs one test, and the next is read only after one that does. */
static inline Py_ssize_t
next_candidate_of_kind(const NeedleIndex *index, int kind, const void *data, Py_ssize_t pos,
                       Py_ssize_t n, int folded)
{
    for (; pos < n; pos++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, pos);
        c = folded ? fold(c) : c;
        if (!bit_set(index->starts, c & 0xFFFF)) {
            continue;
        }
        if (bit_set(index->singles, c & 0xFFFF)) {
            return pos;
        }
        if (pos + 1 < n) {
            Py_UCS4 next = PyUnicode_READ(kind, data, pos + 1);
            next = folded ? fold(next) : next;
            if (bit_set(index->pairs, pair_bit(c, next))) {
                return pos;
            }
        }
    }
    return n;
}

/* `next_candidate_of_kind` specialised for each kind (as `collapse_any`). */
static Py_ssize_t
next_candidate(const NeedleIndex *index, int kind, const void *data, Py_ssize_t pos,
               Py_ssize_t n, int folded)
{
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        return next_candidate_of_kind(index, PyUnicode_1BYTE_KIND, data, pos, n, folded);
    case PyUnicode_2BYTE_KIND:
        return next_candidate_of_kind(index, PyUnicode_2BYTE_KIND, data, pos, n, folded);
    default:
        return next_candidate_of_kind(index, PyUnicode_4BYTE_KIND, data, pos, n, folded);
    }
}

/* The first position in `index->order` of the needles starting with `c`; *end is set past
 * the last (equal when none does). */
static inline Py_ssize_t
needles_starting(const NeedleIndex *index, Py_UCS4 c, Py_ssize_t *end)
{
    Py_ssize_t low = 0, high = index->count;
    while (low < high) {
        Py_ssize_t middle = low + (high - low) / 2;
        if (index->firsts[middle] < c) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    Py_ssize_t past = low;
    while (past < index->count && index->firsts[past] == c) {
        past++;
    }
    *end = past;
    return low;
}

/* Whether `needle`, whose first character is the text's at `pos`, occurs there (the
 * text's characters folded first when `folded`). */
static inline int
needle_at(const Needle *needle, int kind, const void *data, Py_ssize_t n, Py_ssize_t pos,
          int folded)
{
    if (needle->len > n - pos) {
        return 0;
    }
    for (Py_ssize_t k = 1; k < needle->len; k++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, pos + k);
        if ((folded ? fold(c) : c) != needle->chars[k]) {
            return 0;
        }
    }
    return 1;
}

static PyObject *
line_hits(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *text, *groups;
    if (!PyArg_ParseTuple(args, "UO!:line_hits", &text, &PyTuple_Type, &groups)) {
        return NULL;
    }
    Py_ssize_t n_needles = 0, n_groups = PyTuple_GET_SIZE(groups);
    Needle *needles = read_needles(groups, 0, &n_needles);
    if (needles == NULL) {
        return NULL;
    }
    NeedleIndex index;
    if (index_needles(&index, needles, n_needles) < 0) {
        free_needles(needles, n_needles);
        return NULL;
    }
    PyObject *result = PyTuple_New(n_groups);
    Py_ssize_t *last_line = PyMem_Malloc((n_groups ? n_groups : 1) * sizeof(Py_ssize_t));
    if (result == NULL || last_line == NULL) {
        goto fail;
    }
    for (Py_ssize_t g = 0; g < n_groups; g++) {
        last_line[g] = -1;
        PyObject *list = PyList_New(0);
        if (list == NULL) {
            goto fail;
        }
        PyTuple_SET_ITEM(result, g, list);
    }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), line = 0;
    set_bit(index.starts, '\n'); /* a line break is always a candidate */
    set_bit(index.singles, '\n');
    for (Py_ssize_t pos = next_candidate(&index, kind, data, 0, n, 1); pos < n;
         pos = next_candidate(&index, kind, data, pos + 1, n, 1)) {
        Py_UCS4 c = fold(PyUnicode_READ(kind, data, pos));
        if (c == '\n') {
            line++;
            continue;
        }
        Py_ssize_t end;
        for (Py_ssize_t i = needles_starting(&index, c, &end); i < end; i++) {
            const Needle *needle = &needles[index.order[i]];
            if (last_line[needle->group] == line || !needle_at(needle, kind, data, n, pos, 1)) {
                continue;
            }
            PyObject *found = int_object(line);
            if (found == NULL ||
                PyList_Append(PyTuple_GET_ITEM(result, needle->group), found) < 0) {
                Py_XDECREF(found);
                goto fail;
            }
            Py_DECREF(found);
            last_line[needle->group] = line;
        }
    }
    PyMem_Free(last_line);
    free_index(&index);
    free_needles(needles, n_needles);
    return result;
fail:
    Py_XDECREF(result);
    PyMem_Free(last_line);
    free_index(&index);
    free_needles(needles, n_needles);
    return PyErr_Occurred() ? NULL : PyErr_NoMemory();
}

/* The needles of `index` that occur in `text`, exactly, as flags by needle (cleared first);
 * the pass stops once all are found. */
static void
mark_substrings(const NeedleIndex *index, PyObject *text, char *found)
{
    memset(found, 0, index->count ? (size_t)index->count : 1);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), missing = index->count;
    for (Py_ssize_t pos = next_candidate(index, kind, data, 0, n, 0); pos < n && missing;
         pos = next_candidate(index, kind, data, pos + 1, n, 0)) {
        Py_ssize_t end;
        for (Py_ssize_t i = needles_starting(index, PyUnicode_READ(kind, data, pos), &end);
             i < end; i++) {
            Py_ssize_t which = index->order[i];
            if (!found[which] && needle_at(&index->needles[which], kind, data, n, pos, 0)) {
                found[which] = 1;
                missing--;
            }
        }
    }
}

static PyObject *
substrings_in(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *texts, *names;
    if (!PyArg_ParseTuple(args, "OO!:substrings_in", &texts, &PyTuple_Type, &names)) {
        return NULL;
    }
    PyObject *sequence = PySequence_Fast(texts, "texts must be a sequence of strings");
    if (sequence == NULL) {
        return NULL;
    }
    Py_ssize_t count = 0, n_texts = PySequence_Fast_GET_SIZE(sequence);
    Needle *needles = read_needles(names, 1, &count);
    char *found = PyMem_Malloc(count ? count : 1);
    NeedleIndex index;
    if (needles == NULL || found == NULL || index_needles(&index, needles, count) < 0) {
        if (needles != NULL) {
            free_needles(needles, count);
        }
        PyMem_Free(found);
        Py_DECREF(sequence);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    PyObject *result = PyList_New(n_texts);
    for (Py_ssize_t t = 0; result != NULL && t < n_texts; t++) {
        PyObject *text = PySequence_Fast_GET_ITEM(sequence, t);
        if (!PyUnicode_Check(text)) {
            PyErr_SetString(PyExc_TypeError, "texts must be a sequence of strings");
            Py_CLEAR(result);
            break;
        }
        mark_substrings(&index, text, found);
        Py_ssize_t held = 0;
        for (Py_ssize_t i = 0; i < count; i++) {
            held += found[i];
        }
        PyObject *names_held = PyTuple_New(held);
        if (names_held == NULL) {
            Py_CLEAR(result);
            break;
        }
        for (Py_ssize_t i = 0, at = 0; i < count; i++) {
            if (found[i]) {
                PyObject *name = PyTuple_GET_ITEM(names, i);
                Py_INCREF(name);
                PyTuple_SET_ITEM(names_held, at++, name);
            }
        }
        PyList_SET_ITEM(result, t, names_held);
    }
    PyMem_Free(found);
    free_index(&index);
    free_needles(needles, count);
    Py_DECREF(sequence);
    return result;
}

typedef struct {
    Py_UCS4 low, high;
    Py_ssize_t group;
} CodeRange;

/* Adds to counts[group] each of the `n` characters of `kind` at `data` in one of the
 * `count` sorted `ranges` (`ascii`: the group of each ASCII character, or -1). */
static inline void
count_in_ranges_of_kind(int kind, const void *data, Py_ssize_t n, const CodeRange *ranges,
                        Py_ssize_t count, const Py_ssize_t *ascii, Py_ssize_t *counts)
{
    /* the range the last character beyond ASCII fell in: text runs in one script, and
     * testing it first spares most characters the search's unpredictable branches */
    CodeRange last = {1, 0, 0}; /* empty */
    for (Py_ssize_t pos = 0; pos < n; pos++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, pos);
        if (c < 128) {
            if (ascii[c] >= 0) {
                counts[ascii[c]]++;
            }
            continue;
        }
        if (last.low <= c && c <= last.high) {
            counts[last.group]++;
            continue;
        }
        Py_ssize_t low = 0, high = count; /* the first range with ranges[].low > c */
        while (low < high) {
            Py_ssize_t middle = low + (high - low) / 2;
            if (ranges[middle].low <= c) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        if (low > 0 && c <= ranges[low - 1].high) {
            last = ranges[low - 1];
            counts[last.group]++;
        }
    }
}

/* `count_in_ranges_of_kind` specialised for each kind (as `collapse_any`). */
static void
count_in_ranges(int kind, const void *data, Py_ssize_t n, const CodeRange *ranges,
                Py_ssize_t count, const Py_ssize_t *ascii, Py_ssize_t *counts)
{
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        count_in_ranges_of_kind(PyUnicode_1BYTE_KIND, data, n, ranges, count, ascii, counts);
        break;
    case PyUnicode_2BYTE_KIND:
        count_in_ranges_of_kind(PyUnicode_2BYTE_KIND, data, n, ranges, count, ascii, counts);
        break;
    default:
        count_in_ranges_of_kind(PyUnicode_4BYTE_KIND, data, n, ranges, count, ascii, counts);
    }
}

static PyObject *
range_counts(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *text, *groups;
    if (!PyArg_ParseTuple(args, "UO!:range_counts", &text, &PyTuple_Type, &groups)) {
        return NULL;
    }
    Py_ssize_t n_groups = PyTuple_GET_SIZE(groups), total = 0;
    for (Py_ssize_t g = 0; g < n_groups; g++) {
        if (!PyTuple_Check(PyTuple_GET_ITEM(groups, g))) {
            PyErr_SetString(PyExc_TypeError, "each group must be a tuple of (low, high) pairs");
            return NULL;
        }
        total += PyTuple_GET_SIZE(PyTuple_GET_ITEM(groups, g));
    }
    CodeRange *ranges = PyMem_Malloc((total ? total : 1) * sizeof(CodeRange));
    Py_ssize_t *counts = PyMem_Calloc(n_groups ? n_groups : 1, sizeof(Py_ssize_t));
    if (ranges == NULL || counts == NULL) {
        PyMem_Free(ranges);
        PyMem_Free(counts);
        return PyErr_NoMemory();
    }
    Py_ssize_t count = 0;
    for (Py_ssize_t g = 0; g < n_groups; g++) {
        PyObject *group = PyTuple_GET_ITEM(groups, g);
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(group); i++) {
            unsigned int low, high;
            PyObject *pair = PyTuple_GET_ITEM(group, i);
            if (!PyTuple_Check(pair) || !PyArg_ParseTuple(pair, "II", &low, &high) ||
                low > high || high > 0x10FFFF) {
                if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
                    PyErr_Clear();
                    PyErr_SetString(PyExc_ValueError,
                                    "each range must be a (low, high) pair of code points, "
                                    "low <= high");
                }
                goto fail;
            }
            Py_ssize_t j = count++; /* insertion sort by `low`: a handful of ranges */
            while (j > 0 && ranges[j - 1].low > low) {
                ranges[j] = ranges[j - 1];
                j--;
            }
            ranges[j] = (CodeRange){low, high, g};
        }
    }
    for (Py_ssize_t j = 1; j < count; j++) {
        if (ranges[j].low <= ranges[j - 1].high) {
            PyErr_SetString(PyExc_ValueError, "the ranges overlap");
            goto fail;
        }
    }
    Py_ssize_t ascii[128]; /* the group of each ASCII character, or -1 */
    for (Py_UCS4 c = 0; c < 128; c++) {
        ascii[c] = -1;
        for (Py_ssize_t j = 0; j < count && ranges[j].low <= c; j++) {
            if (c <= ranges[j].high) {
                ascii[c] = ranges[j].group;
            }
        }
    }
    count_in_ranges(PyUnicode_KIND(text), PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text),
                    ranges, count, ascii, counts);
    PyObject *result = PyTuple_New(n_groups);
    for (Py_ssize_t g = 0; result != NULL && g < n_groups; g++) {
        PyObject *value = int_object(counts[g]);
        if (value == NULL) {
            Py_CLEAR(result);
            break;
        }
        PyTuple_SET_ITEM(result, g, value);
    }
    PyMem_Free(ranges);
    PyMem_Free(counts);
    return result;
fail:
    PyMem_Free(ranges);
    PyMem_Free(counts);
    return NULL;
}

/* The index of the first `c` (an ASCII character) in data[pos:n], or n. */
static Py_ssize_t
find_ascii(int kind, const void *data, Py_ssize_t pos, Py_ssize_t n, Py_UCS4 c)
{
    Py_ssize_t found = find_in(kind, data, c, pos, n);
    return found < 0 ? n : found;
}

/* start_tags(page, names) -> list of (name, start, end): `head.PageHead._head_tags`, whose
 * Python loop is the reference the tests hold this to. For each "<" followed by one of
 * `names` (lower-case ASCII, matched in any ASCII case) and a character that cannot go on
 * a tag name: the name as given, the index of the "<" and that of the next ">" (the page's
 * length when none follows); the search goes on from that ">", so a tag inside another's
 * attribute text is not one. A regular expression tried a match at every "<" of the page
 * (a news page has thousands); here memchr finds each "<" and a few compares reject it.
 * Linear time. */
static PyObject *
start_tags(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *page, *names;
    if (!PyArg_ParseTuple(args, "UO!:start_tags", &page, &PyTuple_Type, &names)) {
        return NULL;
    }
    Py_ssize_t n_names = PyTuple_GET_SIZE(names);
    for (Py_ssize_t i = 0; i < n_names; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        if (!PyUnicode_Check(name) || !PyUnicode_IS_ASCII(name) ||
            PyUnicode_GET_LENGTH(name) == 0) {
            PyErr_SetString(PyExc_TypeError, "names must be non-empty ASCII strings");
            return NULL;
        }
    }
    char firsts[128] = {0}; /* the names' first letters: most tags start with none */
    for (Py_ssize_t i = 0; i < n_names; i++) {
        Py_UCS1 first = PyUnicode_1BYTE_DATA(PyTuple_GET_ITEM(names, i))[0];
        firsts[first] = 1;
        firsts[first >= 'a' && first <= 'z' ? first - ('a' - 'A') : first] = 1;
    }
    int kind = PyUnicode_KIND(page);
    const void *data = PyUnicode_DATA(page);
    Py_ssize_t n = PyUnicode_GET_LENGTH(page);
    PyObject *found = PyList_New(0);
    if (found == NULL) {
        return NULL;
    }
    Py_ssize_t pos = 0;
    while ((pos = find_ascii(kind, data, pos, n, '<')) < n) {
        Py_UCS4 next = pos + 1 < n ? PyUnicode_READ(kind, data, pos + 1) : 0;
        if (next >= 128 || !firsts[next]) {
            pos++;
            continue;
        }
        PyObject *which = NULL;
        Py_ssize_t after = 0;
        for (Py_ssize_t i = 0; i < n_names && which == NULL; i++) {
            PyObject *name = PyTuple_GET_ITEM(names, i);
            const Py_UCS1 *chars = PyUnicode_1BYTE_DATA(name);
            Py_ssize_t len = PyUnicode_GET_LENGTH(name), k = 0;
            if (pos + 1 + len > n) {
                continue;
            }
            while (k < len) {
                Py_UCS4 c = PyUnicode_READ(kind, data, pos + 1 + k);
                if (c >= 'A' && c <= 'Z') {
                    c += 'a' - 'A';
                }
                if (c != chars[k]) {
                    break;
                }
                k++;
            }
            if (k == len &&
                (pos + 1 + len == n || !is_name_char(PyUnicode_READ(kind, data, pos + 1 + len)))) {
                which = name;
                after = pos + 1 + len;
            }
        }
        if (which == NULL) {
            pos++;
            continue;
        }
        Py_ssize_t end = find_ascii(kind, data, after, n, '>');
        PyObject *tag = Py_BuildValue("(Onn)", which, pos, end);
        if (tag == NULL || PyList_Append(found, tag) < 0) {
            Py_XDECREF(tag);
            Py_DECREF(found);
            return NULL;
        }
        Py_DECREF(tag);
        pos = end;
    }
    return found;
}

/* Append line_class(text[start:end][:max_chars], heading, tag) to `visible`. */
static int
append_visible(PyObject *visible, PyTypeObject *line_class, PyObject *text, Py_ssize_t start,
               Py_ssize_t end, Py_ssize_t max_chars, PyObject *heading, PyObject *tag,
               PyObject *linked)
{
    if (end - start > max_chars) {
        end = start + max_chars;
    }
    PyObject *part = start == 0 && end == PyUnicode_GET_LENGTH(text)
                         ? Py_NewRef(text)
                         : PyUnicode_Substring(text, start, end);
    PyObject *line = part ? line_class->tp_alloc(line_class, 4) : NULL;
    if (line == NULL) {
        Py_XDECREF(part);
        return -1;
    }
    PyTuple_SET_ITEM(line, 0, part);
    PyTuple_SET_ITEM(line, 1, Py_NewRef(heading));
    PyTuple_SET_ITEM(line, 2, Py_NewRef(tag));
    PyTuple_SET_ITEM(line, 3, Py_NewRef(linked));
    if (line_class->tp_dictoffset == 0 && PyUnicode_CheckExact(tag)) { /* else: not ours */
        untrack_atomic(line);
    }
    int failed = PyList_Append(visible, line);
    Py_DECREF(line);
    return failed;
}

static PyObject *
visible_lines(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *lines, *other_content, *heading_tags;
    PyTypeObject *line_class;
    Py_ssize_t max_chars;
    if (!PyArg_ParseTuple(args, "O!OOnO!:visible_lines", &PyList_Type, &lines, &other_content,
                          &heading_tags, &max_chars, &PyType_Type, &line_class)) {
        return NULL;
    }
    if (!PyAnySet_Check(other_content) || !PyAnySet_Check(heading_tags) ||
        !PyType_IsSubtype(line_class, &PyTuple_Type) || max_chars < 0) {
        PyErr_SetString(PyExc_TypeError,
                        "visible_lines() needs two sets, max_chars >= 0 and a tuple class");
        return NULL;
    }
    PyObject *visible = PyList_New(0);
    if (visible == NULL) {
        return NULL;
    }
    for (Py_ssize_t index = 0; index < PyList_GET_SIZE(lines); index++) {
        PyObject *line = PyList_GET_ITEM(lines, index);
        if (!PyTuple_Check(line) || PyTuple_GET_SIZE(line) < LINE_FIELDS ||
            !PyUnicode_Check(PyTuple_GET_ITEM(line, F_TEXT))) {
            PyErr_SetString(PyExc_TypeError, "visible_lines() needs blocks.Line tuples");
            goto fail;
        }
        int hidden = PySet_Contains(other_content, PyTuple_GET_ITEM(line, F_NOISE_ELEMENT));
        PyObject *tag = PyTuple_GET_ITEM(line, F_TAG);
        int heading = hidden ? 0 : PySet_Contains(heading_tags, tag);
        if (hidden < 0 || heading < 0) {
            goto fail;
        }
        if (hidden) {
            continue;
        }
        PyObject *text = PyTuple_GET_ITEM(line, F_TEXT);
        int linked = PyObject_IsTrue(PyTuple_GET_ITEM(line, F_LINK_CHARS));
        if (linked < 0) {
            goto fail;
        }
        int kind = PyUnicode_KIND(text);
        const void *data = PyUnicode_DATA(text);
        Py_ssize_t n = PyUnicode_GET_LENGTH(text), start = 0;
        for (Py_ssize_t end = find_ascii(kind, data, 0, n, '\n');; end = find_ascii(kind, data, start, n, '\n')) {
            if (append_visible(visible, line_class, text, start, end, max_chars,
                               heading ? Py_True : Py_False, tag,
                               linked ? Py_True : Py_False) < 0) {
                goto fail;
            }
            if (end >= n) {
                break;
            }
            start = end + 1;
        }
    }
    return visible;
fail:
    Py_DECREF(visible);
    return NULL;
}

/* Adds `chars` to boxes[element]; 0, or -1 with an exception set. */
static int
add_box_chars(PyObject *boxes, PyObject *element, long long chars)
{
    PyObject *held = PyDict_GetItemWithError(boxes, element);
    long long before = held == NULL ? 0 : PyLong_AsLongLong(held);
    if ((held == NULL || before == -1) && PyErr_Occurred()) {
        return -1;
    }
    PyObject *sum = int_object(before + chars);
    int failed = sum == NULL || PyDict_SetItem(boxes, element, sum) < 0;
    Py_XDECREF(sum);
    return failed ? -1 : 0;
}

static PyObject *
box_chars(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *lines_arg, *words;
    if (!PyArg_ParseTuple(args, "O!O:box_chars", &PyList_Type, &lines_arg, &words)) {
        return NULL;
    }
    if (!PyAnySet_Check(words)) {
        PyErr_SetString(PyExc_TypeError, "box_chars() needs a set of words");
        return NULL;
    }
    PyObject *lines = PySequence_Tuple(lines_arg); /* a set lookup may run code */
    PyObject *boxes = lines ? PyDict_New() : NULL;
    if (boxes == NULL) {
        Py_XDECREF(lines);
        return NULL;
    }
    long long total = 0;
    /* A box's lines come one after another: a run of lines of one named box is summed
     * here and added to its entry once, when the run ends. */
    PyObject *run_box = NULL, *run_noise = NULL;
    long long run_chars = 0;
    for (Py_ssize_t index = 0; index < PyTuple_GET_SIZE(lines); index++) {
        PyObject *line = PyTuple_GET_ITEM(lines, index);
        if (!PyTuple_Check(line) || PyTuple_GET_SIZE(line) < LINE_FIELDS) {
            PyErr_SetString(PyExc_TypeError, "box_chars() needs blocks.Line tuples");
            goto fail;
        }
        long long chars = PyLong_AsLongLong(PyTuple_GET_ITEM(line, F_CHARS));
        if (chars == -1 && PyErr_Occurred()) {
            goto fail;
        }
        total += chars;
        PyObject *noise = PyTuple_GET_ITEM(line, F_NOISE);
        PyObject *element = PyTuple_GET_ITEM(line, F_NOISE_ELEMENT);
        if (run_box != NULL && noise == run_noise && element == run_box) {
            run_chars += chars; /* the same objects: the run goes on */
            continue;
        }
        if (run_box != NULL && add_box_chars(boxes, run_box, run_chars) < 0) {
            goto fail;
        }
        run_box = NULL;
        int named = noise == Py_None ? 0 : PySet_Contains(words, noise);
        if (named < 0) {
            goto fail;
        }
        if (named) {
            run_box = element;
            run_noise = noise;
            run_chars = chars;
        }
    }
    if (run_box != NULL && add_box_chars(boxes, run_box, run_chars) < 0) {
        goto fail;
    }
    Py_DECREF(lines);
    return Py_BuildValue("(LN)", total, boxes);
fail:
    Py_DECREF(lines);
    Py_DECREF(boxes);
    return NULL;
}

/* ---------------------------------------------------------------- the body's selection
 *
 * Passes of the default method's selection (newscrawl.extract.default) over every line or
 * every element of a page, each with its Python reference there, which the tests hold it
 * to. A news page's lines are mostly menus, so these loops run over hundreds of lines that
 * the selection then leaves alone, at a Python step each (CHANGELOG.md has the saving).
 * Scores, character counts and element ids are ints (the int `Options`); any other item is
 * a TypeError, an element id or a line index out of range an IndexError, a missing parent
 * a KeyError, as in Python. Every pass is linear in the page.
 *
 * region_over(lines, scores, inside, floor) -> (first, last) or None: the maximum-sum run
 * (Kadane's algorithm: the first best, a run restarting after a sum <= 0) of the lines'
 * values, each its score where its element is `inside` (by element id) but never below
 * `floor`, and minus its chars elsewhere (reference: `default._region_over_python`).
 *
 * subtree_ends(parents) -> list and subtree_scores(lines, scores, parents) -> list: by
 * element id, the highest id in each element's subtree, and the summed positive line
 * scores of each subtree (references: `default._subtree_ends_python`,
 * `default._subtree_scores_python`).
 *
 * element_drops(lines, noisy, prefix) -> (dropped, scores, candidates): per line,
 * `prefix` + its noise word where its noise element is `noisy` (else None) and minus its
 * chars; the indices of the others (reference: `default._element_drops_python`).
 *
 * prose_boxes(lines, max_link_share, prose_link_chars, separator_share) -> (first_line,
 * prose_before, boxed): the first line of each noise element, the prose chars outside
 * every box before it, and the prose chars of each noise element (0: outside every box),
 * prose being a punctuated line that is not a link line (reference:
 * `default._prose_boxes_python`). The shares are compared in doubles, which gives
 * Python's comparison of an int with a float for counts under 2**53.
 *
 * line_chars(lines) -> int and lines_of_chars(lines, chars) -> list: the chars of all
 * the lines, and the indices of the lines of `chars` chars (references:
 * `default._line_chars_python`, `default._lines_of_chars_python`).
 *
 * indices_over(values, threshold) -> list: the indices of the int `values` over
 * `threshold` (reference: `default._above_python`).
 *
 * lines_in(lines, elements) -> list: the indices of the lines whose element is in
 * `elements`, a set or frozenset (reference: `metadata.lines.lines_in_python`): the
 * lines of a page's byline elements, found without a Python step per line.
 *
 * paragraph_votes(lines, scores, parents, paragraph_score, near_score, near_start,
 * near_stop, in_landmark, landmark_weight) -> dict: by element id in order of first vote,
 * the votes of the lines scoring over `paragraph_score`, or over `near_score` at an index
 * in near_start..near_stop-1: twice the line's score for its element's parent, once for
 * its grandparent (0 where there is none), doubled near and times `landmark_weight` where
 * `in_landmark` (None, or a bool by element id) holds the line's element (reference:
 * `default._paragraph_votes_python`).
 *
 * page_evidence(lines, scores, dropped, parents, paragraph_score) -> (page_score, chars,
 * containers): the summed score of the lines over 0 that no rule drops (`dropped` None),
 * the chars of all the lines, and how many distinct parents (`parents` by element id, 0
 * where it has none) the lines scoring over `paragraph_score` sit in (reference:
 * `default._page_evidence_python`).
 */

/* A list's or tuple's items as a tuple (a new reference: a list is copied, so that Python
 * code a set or dict lookup may run cannot change it under the loop), or NULL with a
 * TypeError. */
static PyObject *
as_tuple(PyObject *items, const char *who)
{
    if (!PyList_Check(items) && !PyTuple_Check(items)) {
        PyErr_Format(PyExc_TypeError, "%s() needs lists or tuples", who);
        return NULL;
    }
    return PySequence_Tuple(items);
}

/* An int item as a long long; -1 with a TypeError or OverflowError set on failure. */
static int
read_int(PyObject *item, const char *who, long long *value)
{
    if (!PyLong_Check(item)) {
        PyErr_Format(PyExc_TypeError, "%s() needs int values", who);
        return -1;
    }
    *value = PyLong_AsLongLong(item);
    return (*value == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* A noise element id as a long long, `*big` set (and `*id` -1) where it does not fit one:
 * such an id is only looked up, never compared here. -1 with a TypeError on failure. */
static int
read_id(PyObject *item, const char *who, long long *id, int *big)
{
    if (!PyLong_Check(item)) {
        PyErr_Format(PyExc_TypeError, "%s() needs int values", who);
        return -1;
    }
    *id = PyLong_AsLongLongAndOverflow(item, big);
    return (*id == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* Item `index` of a tuple of `blocks.Line`s, or NULL with a TypeError. */
static PyObject *
line_item(PyObject *lines, Py_ssize_t index, const char *who)
{
    PyObject *line = PyTuple_GET_ITEM(lines, index);
    if (!PyTuple_Check(line) || PyTuple_GET_SIZE(line) < LINE_FIELDS) {
        PyErr_Format(PyExc_TypeError, "%s() needs blocks.Line tuples", who);
        return NULL;
    }
    return line;
}

/* Field `field` (an int) of a `blocks.Line`. */
static inline int
line_int(PyObject *line, int field, const char *who, long long *value)
{
    return read_int(PyTuple_GET_ITEM(line, field), who, value);
}

/* `*sum += value`, or -1 with an OverflowError where a long long cannot hold the sum. */
static inline int
add_checked(long long *sum, long long value)
{
    if ((value > 0 && *sum > LLONG_MAX - value) || (value < 0 && *sum < LLONG_MIN - value)) {
        PyErr_SetString(PyExc_OverflowError, "a sum of the selection's ints overflows");
        return -1;
    }
    *sum += value;
    return 0;
}

/* An id in 0..count-1, or -1 with an IndexError. */
static inline int
check_id(long long id, Py_ssize_t count, const char *who)
{
    if (id < 0 || id >= count) {
        PyErr_Format(PyExc_IndexError, "%s(): element id %lld out of range", who, id);
        return -1;
    }
    return 0;
}

/* A list of ints from `count` long longs, or NULL. */
static PyObject *
int_list(const long long *values, Py_ssize_t count)
{
    PyObject *list = PyList_New(count);
    if (list == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *value = int_object(values[i]);
        if (value == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, value);
    }
    return list;
}

#define NO_PARENT LLONG_MIN

/* By element id 0..len(parents), the parent of each of 1..len(parents) (NO_PARENT where
 * `parents` has no such key; keys outside that range cannot be asked for); NULL with an
 * exception set on bad input. `*count` gets len(parents) + 1. */
static long long *
read_parents(PyObject *parents, Py_ssize_t *count, const char *who)
{
    if (!PyDict_Check(parents)) {
        PyErr_Format(PyExc_TypeError, "%s() needs a dict of parents", who);
        return NULL;
    }
    Py_ssize_t n = PyDict_GET_SIZE(parents) + 1;
    long long *parent = PyMem_Malloc(n * sizeof(long long));
    if (parent == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        parent[i] = NO_PARENT;
    }
    Py_ssize_t position = 0;
    PyObject *key, *value;
    while (PyDict_Next(parents, &position, &key, &value)) {
        long long element, of;
        if (read_int(key, who, &element) < 0 || read_int(value, who, &of) < 0) {
            PyMem_Free(parent);
            return NULL;
        }
        if (element > 0 && element < n) {
            parent[element] = of;
        }
    }
    *count = n;
    return parent;
}

/* The parent of `element` as an index into the `count` ids, or -1 with a KeyError or an
 * IndexError (as `parents[element]` and indexing by it raise in Python). */
static Py_ssize_t
parent_of(const long long *parent, Py_ssize_t element, Py_ssize_t count, const char *who)
{
    long long of = parent[element];
    if (of == NO_PARENT) {
        PyObject *key = int_object(element);
        if (key != NULL) {
            PyErr_SetObject(PyExc_KeyError, key);
            Py_DECREF(key);
        }
        return -1;
    }
    return check_id(of, count, who) < 0 ? -1 : (Py_ssize_t)of;
}

static PyObject *
region_over(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *lines_arg, *scores_arg, *inside_arg;
    long long floor;
    if (!PyArg_ParseTuple(args, "OOOL:region_over", &lines_arg, &scores_arg, &inside_arg,
                          &floor)) {
        return NULL;
    }
    PyObject *lines = as_tuple(lines_arg, "region_over");
    PyObject *scores = lines ? as_tuple(scores_arg, "region_over") : NULL;
    PyObject *inside = scores ? as_tuple(inside_arg, "region_over") : NULL;
    PyObject *result = NULL;
    char *flags = NULL;
    if (inside == NULL) {
        goto done;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(lines);
    if (PyTuple_GET_SIZE(scores) != count) {
        PyErr_SetString(PyExc_ValueError, "region_over() needs a score per line");
        goto done;
    }
    Py_ssize_t elements = PyTuple_GET_SIZE(inside);
    flags = PyMem_Malloc(elements ? elements : 1);
    if (flags == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < elements; i++) {
        PyObject *flag = PyTuple_GET_ITEM(inside, i);
        if (!PyBool_Check(flag)) {
            PyErr_SetString(PyExc_TypeError, "region_over() needs bool flags");
            goto done;
        }
        flags[i] = flag == Py_True;
    }
    long long best = 0, running = 0;
    Py_ssize_t start = 0, best_start = -1, best_end = -1;
    for (Py_ssize_t index = 0; index < count; index++) {
        PyObject *line = line_item(lines, index, "region_over");
        long long element, value;
        if (line == NULL || line_int(line, F_ELEMENT, "region_over", &element) < 0 ||
            check_id(element, elements, "region_over") < 0) {
            goto done;
        }
        if (flags[element]) {
            if (read_int(PyTuple_GET_ITEM(scores, index), "region_over", &value) < 0) {
                goto done;
            }
            if (value <= floor) {
                value = floor;
            }
        }
        else {
            if (line_int(line, F_CHARS, "region_over", &value) < 0) {
                goto done;
            }
            if (value == LLONG_MIN) {
                PyErr_SetString(PyExc_OverflowError, "region_over(): chars out of range");
                goto done;
            }
            value = -value;
        }
        if (running <= 0) {
            running = value;
            start = index;
        }
        else if (add_checked(&running, value) < 0) {
            goto done;
        }
        if (running > best) {
            best = running;
            best_start = start;
            best_end = index;
        }
    }
    if (best_start < 0) {
        result = Py_NewRef(Py_None);
    }
    else {
        result = Py_BuildValue("(nn)", best_start, best_end);
    }
done:
    PyMem_Free(flags);
    Py_XDECREF(lines);
    Py_XDECREF(scores);
    Py_XDECREF(inside);
    return result;
}

static PyObject *
subtree_ends(PyObject *Py_UNUSED(module), PyObject *parents)
{
    Py_ssize_t count = 0;
    long long *parent = read_parents(parents, &count, "subtree_ends");
    if (parent == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    long long *ends = PyMem_Malloc(count * sizeof(long long));
    if (ends == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t element = 0; element < count; element++) {
        ends[element] = element;
    }
    for (Py_ssize_t element = count - 1; element > 0; element--) {
        Py_ssize_t of = parent_of(parent, element, count, "subtree_ends");
        if (of < 0) {
            goto done;
        }
        if (ends[of] < ends[element]) {
            ends[of] = ends[element];
        }
    }
    result = int_list(ends, count);
done:
    PyMem_Free(ends);
    PyMem_Free(parent);
    return result;
}

static PyObject *
subtree_scores(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *lines_arg, *scores_arg, *parents;
    if (!PyArg_ParseTuple(args, "OOO:subtree_scores", &lines_arg, &scores_arg, &parents)) {
        return NULL;
    }
    Py_ssize_t count = 0;
    long long *parent = read_parents(parents, &count, "subtree_scores");
    if (parent == NULL) {
        return NULL;
    }
    PyObject *lines = as_tuple(lines_arg, "subtree_scores");
    PyObject *scores = lines ? as_tuple(scores_arg, "subtree_scores") : NULL;
    PyObject *result = NULL;
    long long *mass = scores ? PyMem_Calloc(count, sizeof(long long)) : NULL;
    if (scores != NULL && mass == NULL) {
        PyErr_NoMemory();
    }
    if (mass == NULL) {
        goto done;
    }
    for (Py_ssize_t index = 0; index < PyTuple_GET_SIZE(scores); index++) {
        long long score, element;
        if (read_int(PyTuple_GET_ITEM(scores, index), "subtree_scores", &score) < 0) {
            goto done;
        }
        if (score <= 0) {
            continue;
        }
        if (index >= PyTuple_GET_SIZE(lines)) {
            PyErr_SetString(PyExc_IndexError, "subtree_scores() needs a line per score");
            goto done;
        }
        PyObject *line = line_item(lines, index, "subtree_scores");
        if (line == NULL || line_int(line, F_ELEMENT, "subtree_scores", &element) < 0 ||
            check_id(element, count, "subtree_scores") < 0 ||
            add_checked(&mass[element], score) < 0) {
            goto done;
        }
    }
    for (Py_ssize_t element = count - 1; element > 0; element--) {
        if (mass[element] == 0) {
            continue;
        }
        Py_ssize_t of = parent_of(parent, element, count, "subtree_scores");
        if (of < 0 || add_checked(&mass[of], mass[element]) < 0) {
            goto done;
        }
    }
    result = int_list(mass, count);
done:
    PyMem_Free(mass);
    PyMem_Free(parent);
    Py_XDECREF(lines);
    Py_XDECREF(scores);
    return result;
}

static PyObject *
element_drops(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *lines_arg, *noisy, *prefix;
    if (!PyArg_ParseTuple(args, "OO!U:element_drops", &lines_arg, &PySet_Type, &noisy,
                          &prefix)) {
        return NULL;
    }
    PyObject *lines = as_tuple(lines_arg, "element_drops");
    if (lines == NULL) {
        return NULL;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(lines);
    PyObject *dropped = PyList_New(count);
    PyObject *scores = dropped ? PyList_New(count) : NULL;
    PyObject *candidates = scores ? PyList_New(0) : NULL;
    PyObject *noise = NULL, *rule = NULL; /* the last noise word seen, and its rule */
    PyObject *result = NULL;
    long long last_element = 0;
    int last_noisy = -1; /* whether `last_element` is noisy; -1: not known */
    if (candidates == NULL) {
        goto done;
    }
    for (Py_ssize_t index = 0; index < count; index++) {
        PyObject *line = line_item(lines, index, "element_drops");
        long long element, chars;
        int big;
        if (line == NULL ||
            read_id(PyTuple_GET_ITEM(line, F_NOISE_ELEMENT), "element_drops", &element, &big) < 0 ||
            line_int(line, F_CHARS, "element_drops", &chars) < 0) {
            goto done;
        }
        if (chars == LLONG_MIN) {
            PyErr_SetString(PyExc_OverflowError, "element_drops(): chars out of range");
            goto done;
        }
        if (big || last_noisy < 0 || element != last_element) {
            last_noisy = PySet_Contains(noisy, PyTuple_GET_ITEM(line, F_NOISE_ELEMENT));
            if (last_noisy < 0) {
                goto done;
            }
            last_element = element;
        }
        int is_noisy = last_noisy;
        if (big) {
            last_noisy = -1;
        }
        PyObject *score = int_object(-chars);
        if (score == NULL) {
            goto done;
        }
        PyList_SET_ITEM(scores, index, score);
        if (is_noisy) {
            PyObject *word = PyTuple_GET_ITEM(line, F_NOISE);
            if (word != noise) {
                PyObject *text = PyObject_Format(word, NULL);
                PyObject *joined = text ? PyUnicode_Concat(prefix, text) : NULL;
                Py_XDECREF(text);
                if (joined == NULL) {
                    goto done;
                }
                Py_XSETREF(rule, joined);
                Py_INCREF(word);
                Py_XSETREF(noise, word);
            }
            Py_INCREF(rule);
            PyList_SET_ITEM(dropped, index, rule);
        }
        else {
            Py_INCREF(Py_None);
            PyList_SET_ITEM(dropped, index, Py_None);
            PyObject *at = int_object(index);
            if (at == NULL || PyList_Append(candidates, at) < 0) {
                Py_XDECREF(at);
                goto done;
            }
            Py_DECREF(at);
        }
    }
    result = PyTuple_Pack(3, dropped, scores, candidates);
done:
    Py_XDECREF(noise);
    Py_XDECREF(rule);
    Py_XDECREF(dropped);
    Py_XDECREF(scores);
    Py_XDECREF(candidates);
    Py_DECREF(lines);
    return result;
}

/* Adds `chars` to `boxes[element]` (a missing key counts 0); -1 with an exception set. */
static int
add_to_box(PyObject *boxes, PyObject *element, long long chars)
{
    PyObject *held = PyDict_GetItemWithError(boxes, element);
    long long sum = 0;
    if (held == NULL && PyErr_Occurred()) {
        return -1;
    }
    if (held != NULL && (read_int(held, "prose_boxes", &sum) < 0 || add_checked(&sum, chars) < 0)) {
        return -1;
    }
    if (held == NULL) {
        sum = chars;
    }
    PyObject *value = int_object(sum);
    if (value == NULL || PyDict_SetItem(boxes, element, value) < 0) {
        Py_XDECREF(value);
        return -1;
    }
    Py_DECREF(value);
    return 0;
}

static PyObject *
prose_boxes(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *lines_arg;
    double share, separator_share;
    long long prose_link_chars;
    if (!PyArg_ParseTuple(args, "OdLd:prose_boxes", &lines_arg, &share, &prose_link_chars,
                          &separator_share)) {
        return NULL;
    }
    PyObject *lines = as_tuple(lines_arg, "prose_boxes");
    if (lines == NULL) {
        return NULL;
    }
    PyObject *first_line = PyDict_New();
    PyObject *prose_before = first_line ? PyDict_New() : NULL;
    PyObject *boxed = prose_before ? PyDict_New() : NULL;
    PyObject *result = NULL;
    PyObject *run_element = NULL; /* the noise element of the run of lines being summed */
    long long run_chars = 0, unboxed = 0, last_element = 0;
    int run_prose = 0, seen = 0; /* `seen`: a run is open, and its id fits `last_element` */
    if (boxed == NULL) {
        goto done;
    }
    for (Py_ssize_t index = 0; index < PyTuple_GET_SIZE(lines); index++) {
        PyObject *line = line_item(lines, index, "prose_boxes");
        long long element, chars, links, marks;
        int big;
        if (line == NULL ||
            read_id(PyTuple_GET_ITEM(line, F_NOISE_ELEMENT), "prose_boxes", &element, &big) < 0 ||
            line_int(line, F_CHARS, "prose_boxes", &chars) < 0 ||
            line_int(line, F_LINK_CHARS, "prose_boxes", &links) < 0 ||
            line_int(line, F_PUNCTUATION, "prose_boxes", &marks) < 0) {
            goto done;
        }
        PyObject *key = PyTuple_GET_ITEM(line, F_NOISE_ELEMENT);
        int prose = marks && !(links && (double)links > share * (double)chars &&
                               (chars - links < prose_link_chars || !marks ||
                                (double)marks > separator_share * (double)(chars - links)));
        if (big || !seen || element != last_element) {
            if (run_element != NULL && run_prose &&
                add_to_box(boxed, run_element, run_chars) < 0) {
                goto done;
            }
            Py_INCREF(key);
            Py_XSETREF(run_element, key);
            run_chars = 0;
            run_prose = 0;
            seen = !big; /* a run of a big id ends at its line */
            last_element = element;
            if (element || big) {
                int known = PyDict_Contains(first_line, key);
                if (known < 0) {
                    goto done;
                }
                if (!known) {
                    PyObject *before = int_object(unboxed);
                    if (before == NULL || PyDict_SetItem(first_line, key, line) < 0 ||
                        PyDict_SetItem(prose_before, key, before) < 0) {
                        Py_XDECREF(before);
                        goto done;
                    }
                    Py_DECREF(before);
                }
            }
        }
        if (prose) {
            run_prose = 1;
            if (add_checked(&run_chars, chars) < 0 ||
                (!element && add_checked(&unboxed, chars) < 0)) {
                goto done;
            }
        }
    }
    if (run_element != NULL && run_prose && add_to_box(boxed, run_element, run_chars) < 0) {
        goto done;
    }
    result = PyTuple_Pack(3, first_line, prose_before, boxed);
done:
    Py_XDECREF(run_element);
    Py_XDECREF(first_line);
    Py_XDECREF(prose_before);
    Py_XDECREF(boxed);
    Py_DECREF(lines);
    return result;
}

static PyObject *
line_chars(PyObject *Py_UNUSED(module), PyObject *lines_arg)
{
    PyObject *lines = as_tuple(lines_arg, "line_chars");
    if (lines == NULL) {
        return NULL;
    }
    long long total = 0;
    for (Py_ssize_t index = 0; index < PyTuple_GET_SIZE(lines); index++) {
        PyObject *line = line_item(lines, index, "line_chars");
        long long chars;
        if (line == NULL || line_int(line, F_CHARS, "line_chars", &chars) < 0 ||
            add_checked(&total, chars) < 0) {
            Py_DECREF(lines);
            return NULL;
        }
    }
    Py_DECREF(lines);
    return int_object(total);
}

/* `*value` times `factor` (>= 0), or -1 with an OverflowError. */
static inline int
times_checked(long long *value, long long factor)
{
    if (factor > 0 && (*value > LLONG_MAX / factor || *value < LLONG_MIN / factor)) {
        PyErr_SetString(PyExc_OverflowError, "a product of the selection's ints overflows");
        return -1;
    }
    *value *= factor;
    return 0;
}

/* votes[key] += amount (a missing key counts 0 and is added last, as in a Counter). */
static int
add_vote(PyObject *votes, PyObject *key, long long amount)
{
    PyObject *held = PyDict_GetItemWithError(votes, key);
    long long total = amount;
    if (held == NULL && PyErr_Occurred()) {
        return -1;
    }
    if (held != NULL) {
        long long before;
        if (read_int(held, "paragraph_votes", &before) < 0 || add_checked(&total, before) < 0) {
            return -1;
        }
    }
    PyObject *value = int_object(total);
    if (value == NULL) {
        return -1;
    }
    int status = PyDict_SetItem(votes, key, value);
    Py_DECREF(value);
    return status;
}

/* parents.get(element, 0) as a new reference: a dict's __eq__ on an int subclass may empty
 * `parents` while the caller still uses it. */
static PyObject *
held_parent(PyObject *parents, PyObject *element, PyObject *no_parent)
{
    PyObject *parent = PyDict_GetItemWithError(parents, element);
    if (parent == NULL && PyErr_Occurred()) {
        return NULL;
    }
    parent = parent ? parent : no_parent;
    Py_INCREF(parent);
    return parent;
}

static PyObject *
paragraph_votes(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *lines_arg, *scores_arg, *parents, *landmark_arg;
    long long paragraph, near_score, weight_in_landmark;
    Py_ssize_t near_start, near_stop;
    if (!PyArg_ParseTuple(args, "OOO!LLnnOL:paragraph_votes", &lines_arg, &scores_arg,
                          &PyDict_Type, &parents, &paragraph, &near_score, &near_start,
                          &near_stop, &landmark_arg, &weight_in_landmark)) {
        return NULL;
    }
    if (weight_in_landmark < 0) {
        PyErr_SetString(PyExc_ValueError, "paragraph_votes() needs a landmark weight >= 0");
        return NULL;
    }
    PyObject *lines = as_tuple(lines_arg, "paragraph_votes");
    PyObject *scores = lines ? as_tuple(scores_arg, "paragraph_votes") : NULL;
    PyObject *landmarks = NULL;
    if (scores != NULL && landmark_arg != Py_None) {
        landmarks = as_tuple(landmark_arg, "paragraph_votes");
    }
    PyObject *votes = NULL, *no_parent = NULL, *result = NULL;
    if (scores == NULL || (landmark_arg != Py_None && landmarks == NULL)) {
        goto done;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(lines);
    if (PyTuple_GET_SIZE(scores) != count) {
        PyErr_SetString(PyExc_ValueError, "paragraph_votes() needs a score per line");
        goto done;
    }
    votes = PyDict_New();
    no_parent = votes ? PyLong_FromLong(0) : NULL;
    if (no_parent == NULL) {
        goto done;
    }
    for (Py_ssize_t index = 0; index < count; index++) {
        long long score;
        if (read_int(PyTuple_GET_ITEM(scores, index), "paragraph_votes", &score) < 0) {
            goto done;
        }
        int near = near_start <= index && index < near_stop;
        if (!(score > paragraph || (near && score > near_score))) {
            continue;
        }
        PyObject *line = line_item(lines, index, "paragraph_votes");
        long long weight = near ? 2 : 1, element;
        if (line == NULL) {
            goto done;
        }
        if (landmarks != NULL) {
            if (line_int(line, F_ELEMENT, "paragraph_votes", &element) < 0 ||
                check_id(element, PyTuple_GET_SIZE(landmarks), "paragraph_votes") < 0) {
                goto done;
            }
            int held = PyObject_IsTrue(PyTuple_GET_ITEM(landmarks, element));
            if (held < 0 || (held && times_checked(&weight, weight_in_landmark) < 0)) {
                goto done;
            }
        }
        long long twice = score, once = score;
        if (times_checked(&twice, 2) < 0 || times_checked(&twice, weight) < 0 ||
            times_checked(&once, weight) < 0) {
            goto done;
        }
        PyObject *parent = held_parent(parents, PyTuple_GET_ITEM(line, F_ELEMENT), no_parent);
        if (parent == NULL) {
            goto done;
        }
        PyObject *grandparent = NULL;
        int failed = add_vote(votes, parent, twice) < 0 ||
                     (grandparent = held_parent(parents, parent, no_parent)) == NULL ||
                     add_vote(votes, grandparent, once) < 0;
        Py_XDECREF(grandparent);
        Py_DECREF(parent);
        if (failed) {
            goto done;
        }
    }
    result = votes;
    votes = NULL;
done:
    Py_XDECREF(no_parent);
    Py_XDECREF(votes);
    Py_XDECREF(landmarks);
    Py_XDECREF(scores);
    Py_XDECREF(lines);
    return result;
}

static PyObject *
page_evidence(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *lines_arg, *scores_arg, *dropped_arg, *parents;
    long long paragraph;
    if (!PyArg_ParseTuple(args, "OOOO!L:page_evidence", &lines_arg, &scores_arg, &dropped_arg,
                          &PyDict_Type, &parents, &paragraph)) {
        return NULL;
    }
    PyObject *lines = as_tuple(lines_arg, "page_evidence");
    PyObject *scores = lines ? as_tuple(scores_arg, "page_evidence") : NULL;
    PyObject *dropped = scores ? as_tuple(dropped_arg, "page_evidence") : NULL;
    PyObject *containers = dropped ? PySet_New(NULL) : NULL;
    PyObject *no_parent = containers ? PyLong_FromLong(0) : NULL;
    PyObject *result = NULL;
    if (no_parent == NULL) {
        goto done;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(lines);
    if (PyTuple_GET_SIZE(scores) != count || PyTuple_GET_SIZE(dropped) != count) {
        PyErr_SetString(PyExc_ValueError, "page_evidence() needs a score and a rule per line");
        goto done;
    }
    long long page_score = 0, chars = 0;
    for (Py_ssize_t index = 0; index < count; index++) {
        PyObject *line = line_item(lines, index, "page_evidence");
        long long line_chars_value, score;
        if (line == NULL || line_int(line, F_CHARS, "page_evidence", &line_chars_value) < 0 ||
            add_checked(&chars, line_chars_value) < 0 ||
            read_int(PyTuple_GET_ITEM(scores, index), "page_evidence", &score) < 0) {
            goto done;
        }
        if (score > 0 && PyTuple_GET_ITEM(dropped, index) == Py_None &&
            add_checked(&page_score, score) < 0) {
            goto done;
        }
        if (score > paragraph) {
            PyObject *parent = held_parent(parents, PyTuple_GET_ITEM(line, F_ELEMENT), no_parent);
            if (parent == NULL) {
                goto done;
            }
            int added = PySet_Add(containers, parent);
            Py_DECREF(parent);
            if (added < 0) {
                goto done;
            }
        }
    }
    result = Py_BuildValue("(LLn)", page_score, chars, PySet_GET_SIZE(containers));
done:
    Py_XDECREF(no_parent);
    Py_XDECREF(containers);
    Py_XDECREF(dropped);
    Py_XDECREF(scores);
    Py_XDECREF(lines);
    return result;
}

/* visible_columns(lines) -> (texts, headings, linked): of the visible lines (tuples of a
 * text, a heading flag, a tag and a linked flag: `metadata.lines.VisibleLine`), the texts
 * as a tuple, and the indices of the headings and of the linked lines as lists
 * (`metadata.lines._visible_columns_python`, the reference). A page's hundreds of lines
 * took a Python step each for every one of those in ``map``. */
static PyObject *
visible_columns(PyObject *Py_UNUSED(module), PyObject *lines_arg)
{
    PyObject *lines = as_tuple(lines_arg, "visible_columns");
    if (lines == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(lines);
    PyObject *texts = PyTuple_New(n), *headings = PyList_New(0), *linked = PyList_New(0);
    if (texts == NULL || headings == NULL || linked == NULL) {
        goto fail;
    }
    for (Py_ssize_t index = 0; index < n; index++) {
        PyObject *line = PyTuple_GET_ITEM(lines, index);
        if (!PyTuple_Check(line) || PyTuple_GET_SIZE(line) < 4) {
            PyErr_SetString(PyExc_TypeError,
                            "visible_columns() needs (text, heading, tag, linked) tuples");
            goto fail;
        }
        PyTuple_SET_ITEM(texts, index, Py_NewRef(PyTuple_GET_ITEM(line, 0)));
        PyObject *columns[2] = {headings, linked};
        int flags[2] = {1, 3}; /* the fields of the heading and linked flags */
        for (int k = 0; k < 2; k++) {
            int set = PyObject_IsTrue(PyTuple_GET_ITEM(line, flags[k]));
            PyObject *at = set > 0 ? int_object(index) : NULL;
            int failed = set < 0 || (set > 0 && (at == NULL || PyList_Append(columns[k], at) < 0));
            Py_XDECREF(at);
            if (failed) {
                goto fail;
            }
        }
    }
    Py_DECREF(lines);
    return Py_BuildValue("(NNN)", texts, headings, linked);
fail:
    Py_DECREF(lines);
    Py_XDECREF(texts);
    Py_XDECREF(headings);
    Py_XDECREF(linked);
    return NULL;
}

/* Whether item `index` of `items` passes a test: 1, 0, or -1 with an exception set. */
typedef int (*IndexTest)(PyObject *items, Py_ssize_t index, const void *context);

/* The indices of the items of `items_arg` (a list or tuple) that pass `test`, as a list:
 * the shape of `lines_of_chars`, `indices_over` and `lines_in`. */
static PyObject *
indices_where(PyObject *items_arg, const char *who, IndexTest test, const void *context)
{
    PyObject *items = as_tuple(items_arg, who);
    PyObject *found = items ? PyList_New(0) : NULL;
    if (found == NULL) {
        Py_XDECREF(items);
        return NULL;
    }
    for (Py_ssize_t index = 0; index < PyTuple_GET_SIZE(items); index++) {
        int passes = test(items, index, context);
        PyObject *at = passes > 0 ? int_object(index) : NULL;
        if (passes < 0 || (passes > 0 && (at == NULL || PyList_Append(found, at) < 0))) {
            Py_XDECREF(at);
            Py_DECREF(items);
            Py_DECREF(found);
            return NULL;
        }
        Py_XDECREF(at);
    }
    Py_DECREF(items);
    return found;
}

/* `lines_of_chars`' test: the line has `*context` chars. */
static int
has_chars(PyObject *lines, Py_ssize_t index, const void *context)
{
    PyObject *line = line_item(lines, index, "lines_of_chars");
    long long chars;
    if (line == NULL || line_int(line, F_CHARS, "lines_of_chars", &chars) < 0) {
        return -1;
    }
    return chars == *(const long long *)context;
}

/* `indices_where` of the pass `who`, whose arguments (`format`) are its items and an int
 * for `test` to compare with. */
static PyObject *
indices_where_int(PyObject *args, const char *format, const char *who, IndexTest test)
{
    PyObject *items;
    long long value;
    if (!PyArg_ParseTuple(args, format, &items, &value)) {
        return NULL;
    }
    return indices_where(items, who, test, &value);
}

static PyObject *
lines_of_chars(PyObject *Py_UNUSED(module), PyObject *args)
{
    return indices_where_int(args, "OL:lines_of_chars", "lines_of_chars", has_chars);
}

/* `indices_over`' test: the int value is over `*context`. */
static int
is_over(PyObject *values, Py_ssize_t index, const void *context)
{
    PyObject *item = PyTuple_GET_ITEM(values, index);
    if (!PyLong_Check(item)) {
        PyErr_SetString(PyExc_TypeError, "indices_over() needs int values");
        return -1;
    }
    int overflow;
    long long value = PyLong_AsLongLongAndOverflow(item, &overflow);
    if (value == -1 && !overflow && PyErr_Occurred()) {
        return -1;
    }
    return overflow > 0 || (!overflow && value > *(const long long *)context);
}

/* indices_over(values, threshold): see the module's list of passes. */
static PyObject *
indices_over(PyObject *Py_UNUSED(module), PyObject *args)
{
    return indices_where_int(args, "OL:indices_over", "indices_over", is_over);
}

#define FEW_ELEMENTS 16

/* `lines_in`' elements: a set, and a few exact ints among them as C values (`count` of
 * them in `ids`; -1: the set is looked up for every element). */
typedef struct {
    PyObject *elements;
    long long ids[FEW_ELEMENTS];
    Py_ssize_t count;
} ElementSet;

/* `lines_in`' test: the line's element is in the set. An exact int is compared with the
 * few `ids` as a C value, which spares each line a hash and a set lookup. */
static int
element_in(PyObject *lines, Py_ssize_t index, const void *context)
{
    const ElementSet *set = context;
    PyObject *line = line_item(lines, index, "lines_in");
    if (line == NULL) {
        return -1;
    }
    PyObject *element = PyTuple_GET_ITEM(line, F_ELEMENT);
    if (set->count < 0 || !PyLong_CheckExact(element)) {
        return PySet_Contains(set->elements, element);
    }
    int overflow;
    long long id = PyLong_AsLongLongAndOverflow(element, &overflow);
    if (overflow) { /* no id of `ids` is that big */
        return 0;
    }
    for (Py_ssize_t i = 0; i < set->count; i++) {
        if (set->ids[i] == id) {
            return 1;
        }
    }
    return 0;
}

/* lines_in(lines, elements): see the module's list of passes. */
static PyObject *
lines_in(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *lines;
    ElementSet set;
    if (!PyArg_ParseTuple(args, "OO:lines_in", &lines, &set.elements)) {
        return NULL;
    }
    if (!PyAnySet_Check(set.elements)) {
        PyErr_SetString(PyExc_TypeError, "lines_in() needs a set or frozenset of elements");
        return NULL;
    }
    set.count = PySet_GET_SIZE(set.elements) <= FEW_ELEMENTS ? 0 : -1;
    Py_ssize_t position = 0;
    PyObject *member;
    Py_hash_t hash;
    while (set.count >= 0 && _PySet_NextEntry(set.elements, &position, &member, &hash)) {
        int overflow = 1;
        long long id = PyLong_CheckExact(member) ? PyLong_AsLongLongAndOverflow(member, &overflow)
                                                 : 0;
        if (overflow) {
            set.count = -1;
        }
        else {
            set.ids[set.count++] = id;
        }
    }
    return indices_where(lines, "lines_in", element_in, &set);
}

/* ---------------------------------------------------------------- the body's simhash
 *
 * shingle_simhash(text) -> int: `newscrawl.fingerprint.simhash` of a normalised text,
 * whose numpy code (`shingle_hashes`, `_majority_bits`) is the reference and the fallback
 * the tests hold this to: XXH64 (seed 0) of each 4-character shingle in UTF-32-LE, the
 * distinct hashes, and bit i set when more than half of them have bit i set. numpy takes
 * 0.23 ms for a 5,000-character body, its largest part sorting the hashes to drop repeats
 * (a hash set does that here in linear time); this takes 0.04 ms. A lone surrogate raises
 * what ``text.encode("utf-32-le")`` raises, as there.
 */

#define XXH_PRIME1 0x9E3779B185EBCA87ULL
#define XXH_PRIME2 0xC2B2AE3D27D4EB4FULL
#define XXH_PRIME3 0x165667B19E3779F9ULL
#define XXH_PRIME4 0x85EBCA77C2B2AE63ULL
#define XXH_PRIME5 0x27D4EB2F165667C5ULL
#define SHINGLE 4        /* characters: 16 bytes in UTF-32 */
#define LANE_ROWS 255    /* rows a one-byte bit counter holds */

static inline uint64_t
rotl64(uint64_t x, int bits)
{
    return (x << bits) | (x >> (64 - bits));
}

static inline uint64_t
xxh64_absorb(uint64_t acc, uint64_t word)
{
    return rotl64(acc ^ (rotl64(word * XXH_PRIME2, 31) * XXH_PRIME1), 27) * XXH_PRIME1 +
           XXH_PRIME4;
}

/* XXH64 with seed 0 of the 16 bytes of characters c[0..3] in UTF-32-LE. */
static inline uint64_t
shingle_hash(const Py_UCS4 *c)
{
    uint64_t acc = XXH_PRIME5 + SHINGLE * 4;
    acc = xxh64_absorb(acc, (uint64_t)c[0] | (uint64_t)c[1] << 32);
    acc = xxh64_absorb(acc, (uint64_t)c[2] | (uint64_t)c[3] << 32);
    acc = (acc ^ (acc >> 33)) * XXH_PRIME2;
    acc = (acc ^ (acc >> 29)) * XXH_PRIME3;
    return acc ^ (acc >> 32);
}

/* The bits of `value` spread one per byte: added up, eight counters per word. */
static uint64_t byte_spread[256];

static void
fill_byte_spread(void)
{
    for (int value = 0; value < 256; value++) {
        uint64_t spread = 0;
        for (int bit = 0; bit < 8; bit++) {
            spread |= (uint64_t)(value >> bit & 1) << (8 * bit);
        }
        byte_spread[value] = spread;
    }
}

/* The distinct values of `hashes` moved to its front (in no order); their number. */
static Py_ssize_t
distinct_hashes(uint64_t *hashes, Py_ssize_t n)
{
    size_t size = 16; /* at most 3/4 full */
    while (3 * size < 4 * (size_t)n) {
        size *= 2;
    }
    uint64_t *slots = PyMem_Calloc(size, sizeof(uint64_t)); /* 0: empty */
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t distinct = 0;
    int zero_seen = 0; /* 0 marks an empty slot, so a zero hash is counted aside */
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t hash = hashes[i];
        if (hash == 0) {
            if (!zero_seen) {
                zero_seen = 1;
                hashes[distinct++] = 0;
            }
            continue;
        }
        size_t at = (size_t)hash & (size - 1);
        while (slots[at] != 0 && slots[at] != hash) {
            at = (at + 1) & (size - 1);
        }
        if (slots[at] == 0) {
            slots[at] = hash;
            hashes[distinct++] = hash;
        }
    }
    PyMem_Free(slots);
    return distinct;
}

/* Bit i set where more than half of the n `hashes` have it: their bytes are added as
 * eight one-byte counters per word, LANE_ROWS rows at a time, then widened. */
static uint64_t
majority_bits(const uint64_t *hashes, Py_ssize_t n)
{
    Py_ssize_t counts[64] = {0};
    for (Py_ssize_t start = 0; start < n; start += LANE_ROWS) {
        uint64_t lanes[8] = {0};
        Py_ssize_t end = n - start < LANE_ROWS ? n : start + LANE_ROWS;
        for (Py_ssize_t i = start; i < end; i++) {
            for (int byte = 0; byte < 8; byte++) {
                lanes[byte] += byte_spread[hashes[i] >> (8 * byte) & 0xFF];
            }
        }
        for (int bit = 0; bit < 64; bit++) {
            counts[bit] += (Py_ssize_t)(lanes[bit / 8] >> (8 * (bit % 8)) & 0xFF);
        }
    }
    uint64_t majority = 0;
    for (int bit = 0; bit < 64; bit++) {
        if (2 * counts[bit] > n) {
            majority |= (uint64_t)1 << bit;
        }
    }
    return majority;
}

static PyObject *
shingle_simhash(PyObject *Py_UNUSED(module), PyObject *text)
{
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "shingle_simhash() needs a str");
        return NULL;
    }
    Py_UCS4 *chars = PyUnicode_AsUCS4Copy(text);
    if (chars == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), shingles = n < SHINGLE ? 0 : n - SHINGLE + 1;
    if (PyUnicode_KIND(text) != PyUnicode_1BYTE_KIND) {
        for (Py_ssize_t i = 0; i < n; i++) {
            if (Py_UNICODE_IS_SURROGATE(chars[i])) {
                PyMem_Free(chars);
                Py_XDECREF(PyUnicode_AsEncodedString(text, "utf-32-le", "strict"));
                return NULL;
            }
        }
    }
    uint64_t *hashes = PyMem_Malloc(sizeof(uint64_t) * (size_t)(shingles ? shingles : 1));
    if (hashes == NULL) {
        PyMem_Free(chars);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < shingles; i++) {
        hashes[i] = shingle_hash(chars + i);
    }
    PyMem_Free(chars);
    Py_ssize_t distinct = distinct_hashes(hashes, shingles);
    PyObject *result = distinct < 0 ? NULL
                                    : PyLong_FromUnsignedLongLong(majority_bits(hashes, distinct));
    PyMem_Free(hashes);
    return result;
}

/* ---------------------------------------------------------------- page decoding
 *
 * gb_decode(data, pairs) -> str or None: `data` decoded as GB18030 where it is ASCII and
 * two-byte characters only, each pair read from `pairs` (65,536 little-endian UTF-16 code
 * units by lead byte * 256 + trail byte, 0 where the pair is no character of its own:
 * `decode.gb_pairs`, built from Python's codec); None for anything else (a four-byte
 * character, a lone lead byte, an invalid byte), which the caller gives the codec
 * (reference: ``bytes.decode("gb18030")``): a table lookup a character, where Python's CJK
 * codecs are several times slower.
 */

#define GB_PAIRS (256 * 256)

static PyObject *
gb_decode(PyObject *Py_UNUSED(module), PyObject *args)
{
    Py_buffer data, pairs;
    if (!PyArg_ParseTuple(args, "y*y*:gb_decode", &data, &pairs)) {
        return NULL;
    }
    PyObject *result = NULL;
    Py_UCS2 *out = NULL;
    if (pairs.len != 2 * GB_PAIRS) {
        PyErr_SetString(PyExc_ValueError, "gb_decode() needs 65,536 two-byte pairs");
        goto done;
    }
    const unsigned char *in = data.buf, *table = pairs.buf;
    Py_ssize_t n = data.len, k = 0;
    out = PyMem_Malloc((n ? n : 1) * sizeof(Py_UCS2));
    if (out == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n;) {
        unsigned c = in[i];
        if (c < 0x80) {
            out[k++] = (Py_UCS2)c;
            i++;
            continue;
        }
        if (i + 1 >= n) {
            result = Py_NewRef(Py_None);
            goto done;
        }
        size_t at = 2 * (((size_t)c << 8) | in[i + 1]);
        Py_UCS2 decoded = (Py_UCS2)(table[at] | (table[at + 1] << 8));
        if (decoded == 0) {
            result = Py_NewRef(Py_None);
            goto done;
        }
        out[k++] = decoded;
        i += 2;
    }
    result = PyUnicode_FromKindAndData(PyUnicode_2BYTE_KIND, out, k);
done:
    PyMem_Free(out);
    PyBuffer_Release(&data);
    PyBuffer_Release(&pairs);
    return result;
}

static PyObject *
native_attribute_flags(PyObject *Py_UNUSED(module), PyObject *attributes)
{
    if (!PyUnicode_Check(attributes) || PyUnicode_READY(attributes) < 0 ||
        !PyUnicode_IS_ASCII(attributes)) {
        PyErr_SetString(PyExc_TypeError, "attributes must be an ASCII str");
        return NULL;
    }
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "_blockscan.configure() was not called");
        return NULL;
    }
    Scan s;
    memset(&s, 0, sizeof(s));
    s.page = attributes;
    s.kind = PyUnicode_KIND(attributes);
    s.data = PyUnicode_DATA(attributes);
    s.n = PyUnicode_GET_LENGTH(attributes);
    PyObject *noise = native_noise(&s, 0, s.n);
    return Py_BuildValue("(OO)", native_hidden(&s, 0, s.n) ? Py_True : Py_False,
                         noise ? noise : Py_None);
}

static PyMethodDef methods[] = {
    {"gb_decode", gb_decode, METH_VARARGS,
     "gb_decode(data, pairs) -> str or None: GB18030 of ASCII and two-byte characters by "
     "table, None for anything else (see decode.gb_pairs)."},
    {"native_attribute_flags", native_attribute_flags, METH_O,
     "The C `_attribute_flags` of an ASCII attribute string (for the tests)."},
    {"scan", scan, METH_O,
     "scan(page) -> (lines, parents, dated, tags, attributes): the `blocks.Line`s of the "
     "page, its element tree and its `blocks.DatedTag`s (see blocks._page_lines_native)."},
    {"line_hits", line_hits, METH_VARARGS,
     "line_hits(text, groups) -> tuple of lists: per group of folded needles, the indices "
     "of the \"\\n\"-separated lines of text holding one of them (see the source)."},
    {"substrings_in", substrings_in, METH_VARARGS,
     "substrings_in(texts, names) -> list of tuples: per text, those of `names` (non-empty "
     "strings) that occur in it, in their order (see metadata.scripts.substrings_in)."},
    {"range_counts", range_counts, METH_VARARGS,
     "range_counts(text, groups) -> tuple: per group of disjoint (low, high) code point "
     "ranges, how many characters of text fall in one (see metadata.page_facts.script_letters)."},
    {"start_tags", start_tags, METH_VARARGS,
     "start_tags(page, names) -> list of (name, start, end): the start tags of `names` "
     "anywhere in the page (see head.PageHead._head_tags)."},
    {"visible_lines", visible_lines, METH_VARARGS,
     "visible_lines(lines, other_content, heading_tags, max_chars, line_class) -> list "
     "(see metadata.lines._visible_lines_python)."},
    {"box_chars", box_chars, METH_VARARGS,
     "box_chars(lines, words) -> (total, {element: chars}) (see "
     "metadata.lines._box_chars_python)."},
    {"region_over", region_over, METH_VARARGS,
     "region_over(lines, scores, inside, floor) -> (first, last) or None (see "
     "default._region_over_python)."},
    {"subtree_ends", subtree_ends, METH_O,
     "subtree_ends(parents) -> list (see default._subtree_ends_python)."},
    {"subtree_scores", subtree_scores, METH_VARARGS,
     "subtree_scores(lines, scores, parents) -> list (see default._subtree_scores_python)."},
    {"element_drops", element_drops, METH_VARARGS,
     "element_drops(lines, noisy, prefix) -> (dropped, scores, candidates) (see "
     "default._element_drops_python)."},
    {"prose_boxes", prose_boxes, METH_VARARGS,
     "prose_boxes(lines, max_link_share, prose_link_chars, separator_share) -> (first_line, "
     "prose_before, boxed) (see default._prose_boxes_python)."},
    {"paragraph_votes", paragraph_votes, METH_VARARGS,
     "paragraph_votes(lines, scores, parents, paragraph_score, near_score, near_start, "
     "near_stop, in_landmark, landmark_weight) -> dict (see "
     "default._paragraph_votes_python)."},
    {"page_evidence", page_evidence, METH_VARARGS,
     "page_evidence(lines, scores, dropped, parents, paragraph_score) -> (page_score, chars, "
     "containers) (see default._page_evidence_python)."},
    {"line_chars", line_chars, METH_O,
     "line_chars(lines) -> int: the chars of all the lines (see default._line_chars_python)."},
    {"indices_over", indices_over, METH_VARARGS,
     "indices_over(values, threshold) -> list: the indices of the values over threshold "
     "(see default._above_python)."},
    {"visible_columns", visible_columns, METH_O,
     "visible_columns(lines) -> (texts, headings, linked): the visible lines' texts and the "
     "indices of their headings and linked lines (see metadata.lines)."},
    {"lines_in", lines_in, METH_VARARGS,
     "lines_in(lines, elements) -> list: the indices of the lines whose element is in "
     "`elements` (see metadata.lines.lines_in_python)."},
    {"lines_of_chars", lines_of_chars, METH_VARARGS,
     "lines_of_chars(lines, chars) -> list: the indices of the lines of `chars` chars (see "
     "default._lines_of_chars_python)."},
    {"shingle_simhash", shingle_simhash, METH_O,
     "shingle_simhash(text) -> int: the simhash of a normalised text (see "
     "newscrawl.fingerprint.simhash)."},
    {"configure", (PyCFunction)(void (*)(void))configure, METH_VARARGS | METH_KEYWORDS,
     "configure(*, tag_kinds, noise_tags, implied_end, dated_tags, dated_attribute_words, "
     "noise_words, standalone_noise_words, noise_attributes, hidden_styles, hidden_attribute, "
     "script_punctuation, latin_punctuation, references, name_start, name_characters, max_depth, "
     "close_search_depth, chunk, max_class_chars, dated_text_chars, line, dated_tag, "
     "attribute_flags, unescaped): blocks.py's tables, limits, classes and fallbacks, by "
     "keyword (see blocks._configure_native). A refused configuration leaves the previous "
     "one in place."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_blockscan",
    "The per-tag loop of newscrawl.extract.blocks.page_lines in C (see blocks.py), and the "
    "metadata's passes over its lines (see metadata/lines.py), the default selection's "
    "passes over every line or element (see default.py), and the body's simhash "
    "(see newscrawl/fingerprint.py).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__blockscan(void)
{
    if (root_name == NULL) {
        fill_byte_spread();
        root_name = PyUnicode_FromString("");
        root_block = PyUnicode_InternFromString("body");
        if (root_name == NULL || root_block == NULL || make_shared_ints() < 0) {
            return NULL;
        }
    }
    return PyModule_Create(&module_def);
}
