/* The per-tag loop of newscrawl.extract.blocks.page_lines, in C.
 *
 * A line-for-line port of `_page_lines_python` (the reference: see its docstring and the
 * module docstring of blocks.py for the semantics): the same chunks, the same tokens, the
 * same element stack. At each boundary it finishes the text gathered since the last one
 * into a `blocks.Line` as `blocks._line` does (whitespace collapsed, soft breaks kept,
 * character counts, sentence punctuation), and returns the lines and the parents dict.
 * Python is called only for what C does not implement: decoding the character references
 * of a line with a '&' other than in "&nbsp;" (`blocks._unescaped`), the flags of an
 * attribute string that is not ASCII (`blocks._attribute_flags`, once per distinct string
 * per page), and any pattern of blocks.py that differs from the copy C implements (see
 * `configure`).
 *
 * The page is read with PyUnicode_READ, so every string kind works; tag names are ASCII.
 * Every search only moves forward (or is cached), the stack is bounded, so the scan is
 * linear like the Python one. The GIL is held throughout; all state is per call except the
 * tag table, which `configure` fills once at import.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_line.h"
#include <string.h>
#if defined(__SSE2__) && defined(__GNUC__)
#define USE_SSE2 1
#include <emmintrin.h>
#endif

enum { K_INLINE, K_BLOCK, K_LINK, K_BREAK, K_VOID, K_SKIP, K_RAW, K_PRE, K_CELL, K_COUNT };

#define NAME_MAX_LEN 15
#define TABLE_SIZE 512 /* a power of two, well above twice the known names */

typedef struct {
    PyObject *str; /* the lower-case name (owned by the table, or by the scan's dict) */
    int kind;
    char noise;   /* in NOISE_TAGS */
    char implied; /* in _IMPLIED_END */
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
static PyObject *punctuation_func = NULL;   /* blocks.sentence_punctuation */
static int native_punctuation = 0;          /* blocks.py's punctuation patterns are C's */

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
    Py_ssize_t id;
    PyObject *block;      /* borrowed, as name */
    PyObject *noise;      /* borrowed (a tag name or a flags tuple's item), NULL: None */
    Py_ssize_t noise_element;
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
is_name_char(Py_UCS4 c)
{
    return is_alpha(c) || (c >= '0' && c <= '9') || c == ':' || c == '-';
}

static inline Py_UCS4
ascii_lower(Py_UCS4 c)
{
    return (c >= 'A' && c <= 'Z') ? c + 32 : c;
}

/* Whether `c` matches lower-case ASCII letter `letter` under re.IGNORECASE (which also
 * folds U+0130/U+0131 to i, U+017F to s and U+212A to k). */
static inline int
ignorecase_eq(Py_UCS4 c, char letter)
{
    if (c < 128) {
        return ascii_lower(c) == (Py_UCS4)letter;
    }
    switch (letter) {
    case 'i':
        return c == 0x130 || c == 0x131;
    case 's':
        return c == 0x17f;
    case 'k':
        return c == 0x212a;
    default:
        return 0;
    }
}

static Py_ssize_t
find_char(Scan *s, Py_UCS4 ch, Py_ssize_t start, Py_ssize_t end)
{
    if (start >= end) {
        return -1;
    }
    if (s->kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *d = (const Py_UCS1 *)s->data;
        const void *p = memchr(d + start, (int)ch, (size_t)(end - start));
        return p ? (const Py_UCS1 *)p - d : -1;
    }
    if (s->kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *d = (const Py_UCS2 *)s->data;
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
    for (Py_ssize_t i = start; i < end; i++) {
        if (CH(s, i) == ch) {
            return i;
        }
    }
    return -1;
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

/* Where the text from `start` stops: the next '<' that starts a tag (followed by a
 * letter, '!', '?', or '/' and a letter, all before `end`), else `end`. */
static Py_ssize_t
find_tag_start(Scan *s, Py_ssize_t start, Py_ssize_t end)
{
    Py_ssize_t i = start;
    for (;;) {
        i = find_char(s, '<', i, end);
        if (i < 0) {
            return end;
        }
        if (i + 1 < end) {
            Py_UCS4 c = CH(s, i + 1);
            if (is_alpha(c) || c == '!' || c == '?') {
                return i;
            }
            if (c == '/' && i + 2 < end && is_alpha(CH(s, i + 2))) {
                return i;
            }
        }
        i++;
    }
}

/* Whether [start, end) holds `word` (lower-case ASCII) ignoring ASCII case: exactly
 * `word in text.lower()` for the words used here (no other character lowers to one of
 * their letters followed by the next one). */
static int
contains_ascii_ci(Scan *s, Py_ssize_t start, Py_ssize_t end, const char *word)
{
    Py_ssize_t len = (Py_ssize_t)strlen(word);
    for (Py_ssize_t i = start; i + len <= end; i++) {
        Py_ssize_t j = 0;
        while (j < len && ascii_lower(CH(s, i + j)) == (Py_UCS4)word[j]) {
            j++;
        }
        if (j == len) {
            return 1;
        }
    }
    return 0;
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

/* The sentence punctuation `blocks.sentence_punctuation` counts, as blocks.py spells its
 * two patterns (`configure` compares them; where they differ, it is called instead). */
static const char CJK_PUNCTUATION_PATTERN[] =
    "[\xef\xbc\x8c\xe3\x80\x82\xef\xbc\x81\xef\xbc\x9f\xef\xbc\x9b\xef\xbc\x9a\xe3\x80\x81"
    "\xe2\x80\x9c\xe2\x80\x9d]"; /* [，。！？；：、“”] in UTF-8 */
static const char LATIN_PUNCTUATION_PATTERN[] = "[,.;!?:\\\"](?=\\s|$)";

static inline int
is_cjk_punctuation(Py_UCS4 c)
{
    switch (c) {
    case 0xff0c: case 0x3002: case 0xff01: case 0xff1f: case 0xff1b: case 0xff1a:
    case 0x3001: case 0x201c: case 0x201d:
        return 1;
    default:
        return 0;
    }
}

static inline int
is_latin_punctuation(Py_UCS4 c)
{
    switch (c) {
    case ',': case '.': case ';': case '!': case '?': case ':': case '"':
        return 1;
    default:
        return 0;
    }
}

typedef struct {
    Py_ssize_t len;   /* of the collapsed text in `out` */
    Py_ssize_t chars; /* its characters other than whitespace and soft breaks */
    Py_ssize_t punctuation;
} Collapsed;

/* The character references C decodes as `blocks._unescaped` does, where the answer is
 * plain: "&nbsp;" (a space: `raw.replace("&nbsp;", " ")`, and no "&nbsp;" overlaps
 * another reference), "&lt;", "&gt;", "&amp;", "&quot;", and "&#N;"/"&#xH;" of at most 7
 * digits naming a character `html.unescape` returns unchanged (printable ASCII, and the
 * ranges from U+00A0 that hold no surrogate, noncharacter or code `html.unescape` maps
 * elsewhere). A decoded character is then read like the same character written out.
 * Returns the index of the reference's ';' with its character in `*c`, or -1: Python
 * decodes the line. Each is whole (ends in ';'), so html.unescape's longest-prefix rules
 * for names without ';' never apply. */
static inline Py_ssize_t
reference_end(int kind, const void *data, Py_ssize_t amp, Py_ssize_t len, Py_UCS4 *c)
{
    static const struct {
        const char *name;
        Py_UCS4 ch;
    } named[] = {{"nbsp;", ' '}, {"lt;", '<'}, {"gt;", '>'}, {"amp;", '&'}, {"quot;", '"'}};
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
    for (size_t k = 0; k < sizeof named / sizeof named[0]; k++) {
        const char *name = named[k].name;
        Py_ssize_t j = 0;
        while (name[j] && i + j < len && PyUnicode_READ(kind, data, i + j) == (Py_UCS4)name[j]) {
            j++;
        }
        if (name[j] == '\0') {
            *c = named[k].ch;
            return i + j - 1;
        }
    }
    return -1;
}

/* `_line`'s whitespace handling of `len` characters of `kind` at `data`, written to `out`
 * (same kind; at most `len` characters): the words (runs of characters other than
 * whitespace, Py_UNICODE_ISSPACE like str.split, and soft breaks: '\0', and '\n' in
 * <pre>), joined by '\n' where a soft break lies between two words, else by ' '. Counts
 * the sentence punctuation of the result on the way: CJK marks anywhere, Latin ones at the
 * end of a word (followed by the ' ' or '\n' after it, or the end of the text, which is
 * all `(?=\s|$)` can see there). With `references` (raw text), the references
 * `reference_end` knows are decoded, and any other '&' stops it: returns 1, and the caller
 * has Python decode the text (`blocks._unescaped`); else returns 0. */
static inline int
collapse(int kind, const void *data, Py_ssize_t len, int pre, int references, void *out,
         Collapsed *result)
{
    Py_ssize_t n = 0, chars = 0, punctuation = 0;
    int in_word = 0, have_word = 0, soft_break = 0;
    Py_UCS4 last = 0;
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
        else if (!Py_UNICODE_ISSPACE(c)) {
            if (!in_word) {
                if (have_word) {
                    PyUnicode_WRITE(kind, out, n, soft_break ? '\n' : ' ');
                    n++;
                }
                in_word = have_word = 1;
                soft_break = 0;
            }
            PyUnicode_WRITE(kind, out, n, c);
            n++;
            chars++;
            if (c >= 0x2000 && is_cjk_punctuation(c)) {
                punctuation++;
            }
            last = c;
            continue;
        }
        if (in_word) { /* a word ends */
            in_word = 0;
            punctuation += is_latin_punctuation(last);
        }
    }
    if (in_word) {
        punctuation += is_latin_punctuation(last);
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
    Py_ssize_t punctuation = done.punctuation;
    if (!native_punctuation) {
        PyObject *count = PyObject_CallOneArg(punctuation_func, text);
        punctuation = count == NULL ? -1 : PyLong_AsSsize_t(count);
        Py_XDECREF(count);
        if (punctuation == -1 && PyErr_Occurred()) {
            Py_DECREF(text);
            return -1;
        }
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
    PyTuple_SET_ITEM(line, F_ELEMENT, PyLong_FromSsize_t(top->id));
    PyTuple_SET_ITEM(line, F_CHARS, PyLong_FromSsize_t(done.chars));
    PyTuple_SET_ITEM(line, F_LINK_CHARS,
                     PyLong_FromSsize_t(s->link_chars < done.chars ? s->link_chars : done.chars));
    PyTuple_SET_ITEM(line, F_PUNCTUATION, PyLong_FromSsize_t(punctuation));
    PyTuple_SET_ITEM(line, F_NOISE, Py_NewRef(top->noise ? top->noise : Py_None));
    PyTuple_SET_ITEM(line, F_NOISE_ELEMENT, PyLong_FromSsize_t(top->noise_element));
    for (int i = F_ELEMENT; i < LINE_FIELDS; i++) {
        if (PyTuple_GET_ITEM(line, i) == NULL) { /* out of memory (the tuple frees the rest) */
            Py_DECREF(line);
            return -1;
        }
    }
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
    info->skip = -1;
    return 0;
}

/* ---------------------------------------------------------------- attribute flags */

/* `_attribute_flags` for an ASCII attribute string, without the regex engine: the same
 * three patterns, below as blocks.py spells them, matched by hand. `configure` compares
 * blocks.py's patterns with these copies, and where they differ (or the attributes are
 * not ASCII: CJK noise words, Unicode case and \s) the Python function is called. */
static const char HIDDEN_PATTERN[] =
    "display\\s*:\\s*none|visibility\\s*:\\s*hidden|(?:^|\\s)hidden(?=[\\s=/]|$)";
static const char CLASS_ID_PATTERN[] =
    "(?<![\\w-])(?:class|id)\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)'|([^\\s\"'>]+))";
static const char NOISE_WORD_PATTERN[] =
    "a(?:dvert|uthor)|b(?:anner|readcrumb)|c(?:arousel|o(?:mment|nsent|okie|pyright)|rumbs)|disqus|footer"
    "|gallery|login|modal|newsletter|popup|re(?:commend|lated|ply)"
    "|s(?:har(?:e|ing)|idebar|lideshow|ocial|ponsor|ubscribe)"
    "|(?<![a-z])(?:ads?|foot|gg|hot|menu|nav(?:bar)?|rank|toolbar)(?![a-z])"
    "|\xe8\xaf\x84\xe8\xae\xba|\xe7\x95\x99\xe8\xa8\x80|\xe7\x9b\xb8\xe5\x85\xb3"
    "|\xe6\x8e\xa8\xe8\x8d\x90|\xe7\x89\x88\xe6\x9d\x83|\xe5\x88\x86\xe4\xba\xab"
    "|\xe5\xb9\xbf\xe5\x91\x8a|\xe5\xaf\xbc\xe8\x88\xaa|\xe7\x83\xad\xe9\x97\xa8"
    "|\xe6\x8e\x92\xe8\xa1\x8c"; /* the CJK words in UTF-8: never in ASCII attributes */
/* NOISE_WORD_PATTERN's alternatives in the order the regex tries them at one position. */
static const char *const NOISE_WORDS[] = {
    "advert", "author", "banner", "breadcrumb", "carousel", "comment", "consent", "cookie", "copyright", "crumbs",
    "disqus", "footer", "gallery", "login", "modal", "newsletter", "popup", "recommend",
    "related", "reply", "share", "sharing", "sidebar", "slideshow", "social", "sponsor",
    "subscribe", NULL};
static const char *const BOUNDED_NOISE_WORDS[] = {"ads", "ad", "foot", "gg", "hot", "menu",
                                                 "navbar", "nav", "rank", "toolbar", NULL};
static PyObject *noise_word_strs[sizeof(NOISE_WORDS) / sizeof(NOISE_WORDS[0])];
static PyObject *bounded_word_strs[sizeof(BOUNDED_NOISE_WORDS) / sizeof(BOUNDED_NOISE_WORDS[0])];
static int native_flags = 0; /* blocks.py's patterns are the ones above */
static unsigned int noise_first_letters = 0; /* bit k: a word above starts with 'a' + k */

#define LOW(s, i) ascii_lower(CH(s, i))

static inline int
is_lower_letter(Py_UCS4 c)
{
    return c >= 'a' && c <= 'z';
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

/* _HIDDEN_RE.search on ASCII [start, end). */
static int
native_hidden(Scan *s, Py_ssize_t start, Py_ssize_t end)
{
    for (Py_ssize_t i = start; i < end; i++) {
        Py_UCS4 c = LOW(s, i);
        if (c == 'd' && starts_with(s, i, end, "display")) {
            Py_ssize_t j = skip_spaces(s, i + 7, end);
            if (j < end && CH(s, j) == ':' && starts_with(s, skip_spaces(s, j + 1, end), end, "none")) {
                return 1;
            }
        }
        else if (c == 'v' && starts_with(s, i, end, "visibility")) {
            Py_ssize_t j = skip_spaces(s, i + 10, end);
            if (j < end && CH(s, j) == ':' &&
                starts_with(s, skip_spaces(s, j + 1, end), end, "hidden")) {
                return 1;
            }
        }
        else if (c == 'h' && (i == start || Py_UNICODE_ISSPACE(CH(s, i - 1))) &&
                 starts_with(s, i, end, "hidden")) {
            Py_ssize_t j = i + 6;
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

/* NOISE_WORD_RE.search on ASCII [start, end): the word (borrowed), or NULL. */
static PyObject *
native_noise_in(Scan *s, Py_ssize_t start, Py_ssize_t end)
{
    for (Py_ssize_t i = start; i < end; i++) {
        Py_UCS4 c = LOW(s, i);
        /* Most positions start no word: test the first letter before the word lists
         * (distinct class strings such as "line number12 index11" are one per element). */
        if (!is_lower_letter(c) || !(noise_first_letters & (1u << (c - 'a')))) {
            continue;
        }
        for (int w = 0; NOISE_WORDS[w]; w++) {
            if ((Py_UCS4)(unsigned char)NOISE_WORDS[w][0] == c &&
                starts_with(s, i, end, NOISE_WORDS[w])) {
                return noise_word_strs[w];
            }
        }
        if (i > start && is_lower_letter(LOW(s, i - 1))) {
            continue;
        }
        for (int w = 0; BOUNDED_NOISE_WORDS[w]; w++) {
            const char *word = BOUNDED_NOISE_WORDS[w];
            if ((Py_UCS4)(unsigned char)word[0] != c) {
                continue;
            }
            Py_ssize_t after = i + (Py_ssize_t)strlen(word);
            if (starts_with(s, i, end, word) && (after >= end || !is_lower_letter(LOW(s, after)))) {
                return bounded_word_strs[w];
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

/* `noise_word` on ASCII [start, end): _CLASS_ID_RE.finditer, then the first value's
 * noise word. */
static PyObject *
native_noise(Scan *s, Py_ssize_t start, Py_ssize_t end)
{
    Py_ssize_t i = start;
    while (i < end) {
        Py_UCS4 c = LOW(s, i);
        Py_ssize_t j;
        if (c == 'c' && starts_with(s, i, end, "class")) {
            j = i + 5;
        }
        else if (c == 'i' && starts_with(s, i, end, "id")) {
            j = i + 2;
        }
        else {
            i++;
            continue;
        }
        if (i > start && is_word_char(LOW(s, i - 1))) {
            i++;
            continue;
        }
        j = skip_spaces(s, j, end);
        if (j >= end || CH(s, j) != '=') {
            i++;
            continue;
        }
        j = skip_spaces(s, j + 1, end);
        Py_ssize_t value_start, value_end, match_end;
        Py_UCS4 q = j < end ? CH(s, j) : 0;
        if (j < end && (q == '"' || q == '\'')) {
            Py_ssize_t close = find_char(s, q, j + 1, end);
            if (close < 0) {
                i++;
                continue;
            }
            value_start = j + 1;
            value_end = close;
            match_end = close + 1;
        }
        else {
            Py_ssize_t k = j;
            while (k < end) {
                Py_UCS4 v = CH(s, k);
                if (Py_UNICODE_ISSPACE(v) || v == '"' || v == '\'' || v == '>') {
                    break;
                }
                k++;
            }
            if (k == j) {
                i++;
                continue;
            }
            value_start = j;
            value_end = k;
            match_end = k;
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
    if (native_flags && is_ascii_span(s, start, end)) {
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

/* `_quoted_tag_end`: after the first '>' from `start` outside values quoted right after
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

/* `_skip_content`: the position after the end tag of the skipped element `info` whose
 * content starts at `start`. The search for "</name" (re.IGNORECASE) is cached per name,
 * so pages of unclosed skipped elements stay linear. */
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
            while (j < len && ignorecase_eq(CH(s, i + 2 + j), name[j])) {
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
    PyTuple_SET_ITEM(tag, 3, PyLong_FromSsize_t(TOP(s)->noise_element));
    PyTuple_SET_ITEM(tag, 4, PyUnicode_Substring(s->page, position, end >= 0 ? end : limit));
    int failed = PyTuple_GET_ITEM(tag, 1) == NULL || PyTuple_GET_ITEM(tag, 3) == NULL ||
                 PyTuple_GET_ITEM(tag, 4) == NULL || PyList_Append(s->dated, tag) < 0;
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
            if (c1 == '/' || is_alpha(c1)) {
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
                if (comment) { /* "<!-->" and "<!--->" close at once, as in browsers */
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
                Py_ssize_t quotes = 0;
                for (Py_ssize_t i = attr_start; i < attr_end; i++) {
                    quotes += CH(s, i) == '"';
                }
                if (quotes % 2) {
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
                ((PyUnicode_GET_LENGTH(name) == 4 &&
                  PyUnicode_CompareWithASCIIString(name, "time") == 0) ||
                 (has_attributes && (contains_ascii_ci(s, attr_start, attr_end, "itemprop") ||
                                     contains_ascii_ci(s, attr_start, attr_end, "data-"))))) {
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
                    if (!contains_ascii_ci(s, attr_start, attr_end, "none") &&
                        !contains_ascii_ci(s, attr_start, attr_end, "hidden")) {
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
                s->in_link = !closing && contains_ascii_ci(s, attr_start, attr_end, "href");
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
            PyObject *key = PyLong_FromSsize_t(element_id);
            PyObject *value = key ? PyLong_FromSsize_t(parent->id) : NULL;
            int failed = value == NULL || PyDict_SetItem(s->parents, key, value) < 0 ||
                         PyList_Append(s->tags, name) < 0;
            if (!failed && has_attributes) {
                PyObject *text = PyUnicode_Substring(s->page, attr_start, attr_end);
                failed = text == NULL || PyDict_SetItem(s->attributes, key, text) < 0;
                Py_XDECREF(text);
            }
            Py_XDECREF(key);
            Py_XDECREF(value);
            if (failed) {
                return -1;
            }
            Entry entry;
            entry.name = name;
            entry.id = element_id;
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
                    entry.noise_element = element_id;
                }
                entry.hidden = parent->hidden || hidden;
            }
            s->stack[s->depth++] = entry;
        }
        chunk_start = chunk_end > position ? chunk_end : position;
    }

    if (position < n && !TOP(s)->hidden) { /* `_unclosed_tail` */
        Py_ssize_t start = position > last_tag_end ? position : last_tag_end;
        Py_ssize_t stop = n;
        for (Py_ssize_t i = find_char(s, '<', start, n); i >= 0;
             i = find_char(s, '<', i + 1, n)) {
            if (i + 1 < n) {
                Py_UCS4 c = CH(s, i + 1);
                if (is_alpha(c) || c == '/' || c == '!' || c == '?') {
                    stop = i;
                    break;
                }
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
    s.stack[0].id = 0;
    s.stack[0].block = root_block;
    s.stack[0].noise = NULL;
    s.stack[0].noise_element = 0;
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

static int
add_name(PyObject *name, int kind, int set_kind)
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
        if (!is_name_char((Py_UCS4)text[i]) || ascii_lower((Py_UCS4)text[i]) != (Py_UCS4)text[i]) {
            PyErr_SetString(PyExc_ValueError, "tag names must be lower-case name characters");
            return -1;
        }
    }
    Known *slot = known_slot(text, len);
    if (slot->len == 0) {
        memcpy(slot->name, text, (size_t)len);
        slot->name[len] = '\0';
        slot->len = len;
        Py_INCREF(name);
        slot->info.str = name;
        slot->info.kind = K_INLINE;
        slot->info.noise = 0;
        slot->info.implied = 0;
        slot->info.skip = -1;
    }
    if (set_kind) {
        if (kind < 0 || kind >= K_COUNT) {
            PyErr_SetString(PyExc_ValueError, "unknown tag kind");
            return -1;
        }
        slot->info.kind = kind;
        if ((kind == K_SKIP || kind == K_RAW) && slot->info.skip < 0) {
            slot->info.skip = skip_count++;
        }
    }
    return 0;
}

/* Lines and dated tags are made as tuple.__new__(cls, ...): only a plain tuple layout will
 * do (a NamedTuple: no __dict__, no extra slots). */
static int
is_plain_tuple_class(PyTypeObject *type)
{
    return PyType_IsSubtype(type, &PyTuple_Type) &&
           type->tp_basicsize == PyTuple_Type.tp_basicsize &&
           type->tp_itemsize == PyTuple_Type.tp_itemsize && type->tp_dictoffset == 0 &&
           type->tp_weaklistoffset == 0 && type->tp_alloc != NULL;
}

static PyObject *
configure(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *kinds, *noise_tags, *implied_end, *flags_func, *kind_order, *patterns;
    PyObject *line_class, *unescape, *punctuation, *dated_class;
    Py_ssize_t depth, search_depth, chunk, class_limit, dated_limit;
    if (!PyArg_ParseTuple(args, "O!OOnnnnOO!O!O!OOO!n:configure", &PyDict_Type, &kinds,
                          &noise_tags, &implied_end, &depth, &search_depth, &chunk,
                          &class_limit, &flags_func, &PyTuple_Type, &kind_order,
                          &PyTuple_Type, &patterns, &PyType_Type, &line_class, &unescape,
                          &punctuation, &PyType_Type, &dated_class, &dated_limit)) {
        return NULL;
    }
    /* The native attribute flags and punctuation only where blocks.py's patterns are the
     * ones in C. */
    int same[5] = {0, 0, 0, 0, 0};
    const char *copies[5] = {HIDDEN_PATTERN, CLASS_ID_PATTERN, NOISE_WORD_PATTERN,
                             CJK_PUNCTUATION_PATTERN, LATIN_PUNCTUATION_PATTERN};
    for (Py_ssize_t i = 0; i < 5 && i < PyTuple_GET_SIZE(patterns); i++) {
        PyObject *pattern = PyTuple_GET_ITEM(patterns, i);
        const char *text = PyUnicode_Check(pattern) ? PyUnicode_AsUTF8(pattern) : NULL;
        if (text == NULL) {
            PyErr_Clear();
        }
        else {
            same[i] = strcmp(text, copies[i]) == 0;
        }
    }
    PyTypeObject *type = (PyTypeObject *)line_class;
    PyTypeObject *dated = (PyTypeObject *)dated_class;
    if (!is_plain_tuple_class(type) || !is_plain_tuple_class(dated)) {
        PyErr_SetString(PyExc_TypeError, "Line and DatedTag must be NamedTuple classes");
        return NULL;
    }
    if (!PyCallable_Check(unescape) || !PyCallable_Check(punctuation)) {
        PyErr_SetString(PyExc_TypeError, "unescape and sentence_punctuation must be callable");
        return NULL;
    }
    if (PyTuple_GET_SIZE(kind_order) != K_COUNT) {
        PyErr_SetString(PyExc_ValueError, "kind_order must list the 9 kinds");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < K_COUNT; i++) {
        PyObject *item = PyTuple_GET_ITEM(kind_order, i);
        if (!PyLong_Check(item) || PyLong_AsSsize_t(item) != i) {
            PyErr_SetString(PyExc_ValueError, "kind_order must be 0..8 in the C enum's order");
            return NULL;
        }
    }
    if (depth < 1 || depth > 1000000 || search_depth < 0 || chunk < 1 || class_limit < 1 ||
        dated_limit < 0 || !PyCallable_Check(flags_func)) {
        PyErr_SetString(PyExc_ValueError, "bad limits or attribute_flags");
        return NULL;
    }
    clear_table();
    PyObject *key, *value, *iterator, *item;
    Py_ssize_t pos = 0;
    while (PyDict_Next(kinds, &pos, &key, &value)) {
        long kind = PyLong_AsLong(value);
        if (kind == -1 && PyErr_Occurred()) {
            goto fail;
        }
        if (add_name(key, (int)kind, 1) < 0) {
            goto fail;
        }
    }
    for (int pass = 0; pass < 2; pass++) {
        iterator = PyObject_GetIter(pass ? implied_end : noise_tags);
        if (iterator == NULL) {
            goto fail;
        }
        while ((item = PyIter_Next(iterator)) != NULL) {
            int failed = add_name(item, 0, 0);
            if (!failed) {
                Known *slot = known_slot((const char *)PyUnicode_1BYTE_DATA(item),
                                         PyUnicode_GET_LENGTH(item));
                if (pass) {
                    slot->info.implied = 1;
                }
                else {
                    slot->info.noise = 1;
                }
            }
            Py_DECREF(item);
            if (failed) {
                Py_DECREF(iterator);
                goto fail;
            }
        }
        Py_DECREF(iterator);
        if (PyErr_Occurred()) {
            goto fail;
        }
    }
    {
        Known *hr = known_slot("hr", 2);
        if (hr->len == 0 || hr->info.kind != K_BREAK) {
            PyErr_SetString(PyExc_ValueError, "kinds must map 'hr' to the break kind");
            goto fail;
        }
        hr_name = hr->info.str;
    }
    Py_INCREF(flags_func);
    Py_XSETREF(attribute_flags_func, flags_func);
    Py_INCREF(line_class);
    Py_XSETREF(line_type, type);
    Py_INCREF(dated_class);
    Py_XSETREF(dated_type, dated);
    Py_INCREF(unescape);
    Py_XSETREF(unescape_func, unescape);
    Py_INCREF(punctuation);
    Py_XSETREF(punctuation_func, punctuation);
    native_flags = same[0] && same[1] && same[2];
    native_punctuation = same[3] && same[4];
    max_depth = depth;
    close_depth = search_depth;
    chunk_size = chunk;
    class_chars = class_limit;
    dated_text_chars = dated_limit;
    configured = 1;
    return Py_BuildValue("(OO)", native_flags ? Py_True : Py_False,
                         native_punctuation ? Py_True : Py_False);

fail:
    clear_table();
    return NULL;
}

static PyObject *
native_attribute_flags(PyObject *Py_UNUSED(module), PyObject *attributes)
{
    if (!PyUnicode_Check(attributes) || PyUnicode_READY(attributes) < 0 ||
        !PyUnicode_IS_ASCII(attributes)) {
        PyErr_SetString(PyExc_TypeError, "attributes must be an ASCII str");
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
    {"native_attribute_flags", native_attribute_flags, METH_O,
     "The C `_attribute_flags` of an ASCII attribute string (for the tests)."},
    {"scan", scan, METH_O,
     "scan(page) -> (lines, parents, dated): the `blocks.Line`s of the page, the element tree "
     "and the `blocks.DatedTag`s "
     "(see blocks._page_lines_native)."},
    {"configure", configure, METH_VARARGS,
     "configure(kinds, noise_tags, implied_end, max_depth, close_search_depth, chunk, max_class_chars, "
     "attribute_flags, kind_order, (hidden, class_id, noise_word, cjk_punctuation, "
     "latin_punctuation patterns), Line, unescaped, sentence_punctuation, DatedTag, "
     "dated_text_chars): blocks.py's "
     "tables, once at import. Returns (native_flags, native_punctuation): whether the "
     "attribute flags of ASCII attributes and the sentence punctuation are worked out in C "
     "(blocks.py's patterns are the ones the C code implements), else Python's are called."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_blockscan",
    "The per-tag loop of newscrawl.extract.blocks.page_lines in C (see blocks.py).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__blockscan(void)
{
    if (root_name == NULL) {
        root_name = PyUnicode_FromString("");
        root_block = PyUnicode_InternFromString("body");
        if (root_name == NULL || root_block == NULL) {
            return NULL;
        }
        for (int w = 0; NOISE_WORDS[w]; w++) {
            if ((noise_word_strs[w] = PyUnicode_InternFromString(NOISE_WORDS[w])) == NULL) {
                return NULL;
            }
            noise_first_letters |= 1u << (NOISE_WORDS[w][0] - 'a');
        }
        for (int w = 0; BOUNDED_NOISE_WORDS[w]; w++) {
            bounded_word_strs[w] = PyUnicode_InternFromString(BOUNDED_NOISE_WORDS[w]);
            noise_first_letters |= 1u << (BOUNDED_NOISE_WORDS[w][0] - 'a');
            if (bounded_word_strs[w] == NULL) {
                return NULL;
            }
        }
    }
    return PyModule_Create(&module_def);
}
