/* One-pass scans for the metadata rules (newscrawl.extract.metadata) and the page head
 * (newscrawl.extract.head): which lines hold which keywords (`line_hits`), how many
 * letters each script has (`script_letters`), where the head's start tags are
 * (`tag_starts`), the visible lines (`visible_lines`) and the chars per box (`box_chars`).
 * Each has a Python reference, named in its description below, that tests hold it to.
 *
 * Keywords:
 * The metadata rules look for lines holding a label (来源, 作者, 发布时间, posted ...) all
 * over the page. With a regular expression per label kind, Python's engine tests every
 * character of the page against a character set once per kind (about 60 ns a character for
 * the eight kinds); here one pass tests each character once against a bitmap of the
 * needles' first characters and compares the few needles that start with it.
 *
 * line_hits(text, groups) -> tuple of lists: for each group (a tuple of needles), the
 * indices, ascending and distinct, of the "\n"-separated lines of `text` that hold one of
 * its needles. Text characters are folded before comparing (ASCII capitals to lower case,
 * U+017F long s to "s"); needles are given folded. The result is a superset filter for
 * the Python patterns it stands in front of (`metadata.lines.Keyword`), which confirm
 * every line. The text is read with PyUnicode_READ (any string kind); linear time.
 *
 * tag_starts(text, names) -> list of (name, start, end): every "<name" of `text` followed by
 * whitespace (as Python's \s), "/" or ">", with `name` one of `names` (lower case, matched
 * ASCII-case-insensitively, as HTML reads tag names): the matches of the regex
 * <(name)(?=[\s/>]), in text order, leaving out those inside the previous one (before its
 * ">": attribute text, not a tag). `start` is the index of the "<", `end` the index of the
 * first ">" after the name (len(text) when none). `head.PageHead` reads its metas, scripts
 * and links from these instead of running a regex over the whole page for each
 * (reference: `head._tag_starts_python`).
 *
 * visible_lines(lines, other_content, heading_tags, max_chars, line_class) -> list: the
 * port of `metadata.lines._visible_lines_python`: for each `blocks.Line` not in an
 * `other_content` box, one `line_class(text, heading, tag)` per "\n"-separated part of its
 * text, cut at `max_chars`; `heading` is whether its tag is one of `heading_tags`.
 *
 * box_chars(lines, words) -> (total, {element: chars}): the chars of all `lines`
 * (`blocks.Line` tuples, read by index), and per noise element the chars of the lines
 * whose noise word is in `words` (a set): what `metadata.lines.other_content_boxes`
 * weighs, in one pass instead of a Python loop over a page's hundreds of lines
 * (reference: `metadata.lines._box_chars_python`).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_line.h"
#include <string.h>

typedef struct {
    Py_UCS4 *chars; /* folded needle */
    Py_ssize_t len;
    Py_ssize_t group;
} Needle;

static inline Py_UCS4
fold(Py_UCS4 c)
{
    if (c >= 'A' && c <= 'Z') {
        return c + ('a' - 'A');
    }
    return c == 0x017F ? 's' : c;
}

static void
free_needles(Needle *needles, Py_ssize_t count)
{
    for (Py_ssize_t i = 0; i < count; i++) {
        PyMem_Free(needles[i].chars);
    }
    PyMem_Free(needles);
}

/* The needles of every group, flattened; NULL with an exception set on bad input. */
static Needle *
read_needles(PyObject *groups, Py_ssize_t *count)
{
    Py_ssize_t n_groups = PyTuple_GET_SIZE(groups), total = 0;
    for (Py_ssize_t g = 0; g < n_groups; g++) {
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
    for (Py_ssize_t g = 0; g < n_groups; g++) {
        PyObject *group = PyTuple_GET_ITEM(groups, g);
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(group); i++) {
            PyObject *needle = PyTuple_GET_ITEM(group, i);
            if (!PyUnicode_Check(needle) || PyUnicode_GET_LENGTH(needle) == 0) {
                PyErr_SetString(PyExc_TypeError, "needles must be non-empty strings");
                free_needles(needles, at);
                return NULL;
            }
            needles[at].chars = PyUnicode_AsUCS4Copy(needle);
            if (needles[at].chars == NULL) {
                free_needles(needles, at);
                return NULL;
            }
            needles[at].len = PyUnicode_GET_LENGTH(needle);
            needles[at].group = g;
            at++;
        }
    }
    *count = total;
    return needles;
}

static PyObject *
line_hits(PyObject *self, PyObject *args)
{
    PyObject *text, *groups;
    if (!PyArg_ParseTuple(args, "UO!:line_hits", &text, &PyTuple_Type, &groups)) {
        return NULL;
    }
    Py_ssize_t n_needles = 0, n_groups = PyTuple_GET_SIZE(groups);
    Needle *needles = read_needles(groups, &n_needles);
    if (needles == NULL) {
        return NULL;
    }
    PyObject *result = PyTuple_New(n_groups);
    Py_ssize_t *last_line = PyMem_Malloc((n_groups ? n_groups : 1) * sizeof(Py_ssize_t));
    unsigned char first[65536 / 8]; /* first characters of needles, by their low 16 bits */
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
    memset(first, 0, sizeof first);
    for (Py_ssize_t i = 0; i < n_needles; i++) {
        Py_UCS4 c = needles[i].chars[0] & 0xFFFF;
        first[c >> 3] |= (unsigned char)(1u << (c & 7));
    }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), line = 0;
    for (Py_ssize_t pos = 0; pos < n; pos++) {
        Py_UCS4 c = fold(PyUnicode_READ(kind, data, pos));
        if (c == '\n') {
            line++;
            continue;
        }
        if (!(first[(c & 0xFFFF) >> 3] & (1u << (c & 7)))) {
            continue;
        }
        for (Py_ssize_t i = 0; i < n_needles; i++) {
            Needle *needle = &needles[i];
            if (needle->chars[0] != c || last_line[needle->group] == line ||
                needle->len > n - pos) {
                continue;
            }
            Py_ssize_t k = 1;
            while (k < needle->len &&
                   fold(PyUnicode_READ(kind, data, pos + k)) == needle->chars[k]) {
                k++;
            }
            if (k < needle->len) {
                continue;
            }
            PyObject *index = PyLong_FromSsize_t(line);
            if (index == NULL ||
                PyList_Append(PyTuple_GET_ITEM(result, needle->group), index) < 0) {
                Py_XDECREF(index);
                goto fail;
            }
            Py_DECREF(index);
            last_line[needle->group] = line;
        }
    }
    PyMem_Free(last_line);
    free_needles(needles, n_needles);
    return result;
fail:
    Py_XDECREF(result);
    PyMem_Free(last_line);
    free_needles(needles, n_needles);
    return PyErr_Occurred() ? NULL : PyErr_NoMemory();
}

/* script_letters(text) -> (kana, hangul, han, latin): how many characters of `text` fall in
 * each of the ranges of page_facts.py's _KANA_RE, _HANGUL_RE, _CJK_RE and _LATIN_RE (one
 * pass instead of four regular-expression scans). */
static PyObject *
script_letters(PyObject *self, PyObject *text)
{
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "script_letters() needs a str");
        return NULL;
    }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), kana = 0, hangul = 0, han = 0, latin = 0;
    for (Py_ssize_t pos = 0; pos < n; pos++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, pos);
        if (c < 0x80) {
            latin += (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
        } else if (c >= 0x3040 && c <= 0x30FF) {
            kana++;
        } else if (c >= 0xAC00 && c <= 0xD7AF) {
            hangul++;
        } else if ((c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) ||
                   (c >= 0xF900 && c <= 0xFAFF)) {
            han++;
        }
    }
    return Py_BuildValue("(nnnn)", kana, hangul, han, latin);
}

static inline Py_UCS4
ascii_lower(Py_UCS4 c)
{
    return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* The index of the first `c` (an ASCII character) in data[pos:n], or n. */
static Py_ssize_t
find_ascii(int kind, const void *data, Py_ssize_t pos, Py_ssize_t n, Py_UCS4 c)
{
    if (pos >= n) {
        return n;
    }
    if (kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *found = memchr((const Py_UCS1 *)data + pos, (int)c, (size_t)(n - pos));
        return found ? found - (const Py_UCS1 *)data : n;
    }
    if (kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *chars = data;
        while (pos < n && chars[pos] != c) {
            pos++;
        }
        return pos;
    }
    const Py_UCS4 *chars = data;
    while (pos < n && chars[pos] != c) {
        pos++;
    }
    return pos;
}

static PyObject *
tag_starts(PyObject *self, PyObject *args)
{
    PyObject *text, *names;
    if (!PyArg_ParseTuple(args, "UO!:tag_starts", &text, &PyTuple_Type, &names)) {
        return NULL;
    }
    Py_ssize_t n_names = PyTuple_GET_SIZE(names);
    for (Py_ssize_t i = 0; i < n_names; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        if (!PyUnicode_Check(name) || PyUnicode_GET_LENGTH(name) == 0 ||
            PyUnicode_KIND(name) != PyUnicode_1BYTE_KIND) {
            PyErr_SetString(PyExc_TypeError, "tag_starts() needs non-empty ASCII names");
            return NULL;
        }
    }
    PyObject *found = PyList_New(0);
    if (found == NULL) {
        return NULL;
    }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    for (Py_ssize_t start = find_ascii(kind, data, 0, n, '<'); start < n;
         start = find_ascii(kind, data, start + 1, n, '<')) {
        for (Py_ssize_t i = 0; i < n_names; i++) {
            PyObject *name = PyTuple_GET_ITEM(names, i);
            const Py_UCS1 *chars = PyUnicode_1BYTE_DATA(name);
            Py_ssize_t len = PyUnicode_GET_LENGTH(name), k = 0;
            if (start + 1 + len >= n) {
                continue; /* the lookahead needs a character after the name */
            }
            while (k < len && ascii_lower(PyUnicode_READ(kind, data, start + 1 + k)) == chars[k]) {
                k++;
            }
            Py_UCS4 after = PyUnicode_READ(kind, data, start + 1 + len);
            if (k < len || !(Py_UNICODE_ISSPACE(after) || after == '/' || after == '>')) {
                continue;
            }
            Py_ssize_t end = find_ascii(kind, data, start + 1 + len, n, '>');
            PyObject *entry = Py_BuildValue("(Onn)", name, start, end);
            if (entry == NULL || PyList_Append(found, entry) < 0) {
                Py_XDECREF(entry);
                Py_DECREF(found);
                return NULL;
            }
            Py_DECREF(entry);
            start = end; /* the scan goes on after this tag's ">" */
            break;
        }
    }
    return found;
}


/* Append line_class(text[start:end][:max_chars], heading, tag) to `visible`. */
static int
append_visible(PyObject *visible, PyTypeObject *line_class, PyObject *text, Py_ssize_t start,
               Py_ssize_t end, Py_ssize_t max_chars, PyObject *heading, PyObject *tag)
{
    if (end - start > max_chars) {
        end = start + max_chars;
    }
    PyObject *part = start == 0 && end == PyUnicode_GET_LENGTH(text)
                         ? Py_NewRef(text)
                         : PyUnicode_Substring(text, start, end);
    PyObject *line = part ? line_class->tp_alloc(line_class, 3) : NULL;
    if (line == NULL) {
        Py_XDECREF(part);
        return -1;
    }
    PyTuple_SET_ITEM(line, 0, part);
    PyTuple_SET_ITEM(line, 1, Py_NewRef(heading));
    PyTuple_SET_ITEM(line, 2, Py_NewRef(tag));
    int failed = PyList_Append(visible, line);
    Py_DECREF(line);
    return failed;
}

static PyObject *
visible_lines(PyObject *self, PyObject *args)
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
        int kind = PyUnicode_KIND(text);
        const void *data = PyUnicode_DATA(text);
        Py_ssize_t n = PyUnicode_GET_LENGTH(text), start = 0;
        for (Py_ssize_t end = find_ascii(kind, data, 0, n, '\n');; end = find_ascii(kind, data, start, n, '\n')) {
            if (append_visible(visible, line_class, text, start, end, max_chars,
                               heading ? Py_True : Py_False, tag) < 0) {
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

static PyObject *
box_chars(PyObject *self, PyObject *args)
{
    PyObject *lines, *words;
    if (!PyArg_ParseTuple(args, "O!O:box_chars", &PyList_Type, &lines, &words)) {
        return NULL;
    }
    if (!PyAnySet_Check(words)) {
        PyErr_SetString(PyExc_TypeError, "box_chars() needs a set of words");
        return NULL;
    }
    PyObject *boxes = PyDict_New();
    if (boxes == NULL) {
        return NULL;
    }
    long long total = 0;
    for (Py_ssize_t index = 0; index < PyList_GET_SIZE(lines); index++) {
        PyObject *line = PyList_GET_ITEM(lines, index);
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
        int named = noise == Py_None ? 0 : PySet_Contains(words, noise);
        if (named < 0) {
            goto fail;
        }
        if (!named) {
            continue;
        }
        PyObject *element = PyTuple_GET_ITEM(line, F_NOISE_ELEMENT);
        PyObject *held = PyDict_GetItemWithError(boxes, element);
        long long before = held == NULL ? 0 : PyLong_AsLongLong(held);
        if ((held == NULL || before == -1) && PyErr_Occurred()) {
            goto fail;
        }
        PyObject *sum = PyLong_FromLongLong(before + chars);
        if (sum == NULL || PyDict_SetItem(boxes, element, sum) < 0) {
            Py_XDECREF(sum);
            goto fail;
        }
        Py_DECREF(sum);
    }
    return Py_BuildValue("(LN)", total, boxes);
fail:
    Py_DECREF(boxes);
    return NULL;
}

static PyMethodDef methods[] = {
    {"line_hits", line_hits, METH_VARARGS,
     "line_hits(text, groups) -> tuple of lists: per group of folded needles, the indices "
     "of the \"\\n\"-separated lines of text holding one of them (see the module source)."},
    {"tag_starts", tag_starts, METH_VARARGS,
     "tag_starts(text, names) -> list of (name, start, end): every \"<name\" start tag, "
     "the index of its \"<\" and of the next \">\" (see the module source)."},
    {"visible_lines", visible_lines, METH_VARARGS,
     "visible_lines(lines, other_content, heading_tags, max_chars, line_class) -> list "
     "(see metadata.lines._visible_lines_python)."},
    {"box_chars", box_chars, METH_VARARGS,
     "box_chars(lines, words) -> (total, {element: chars}): all lines' chars, and per "
     "noise element the chars of its lines named by a word (see other_content_boxes)."},
    {"script_letters", script_letters, METH_O,
     "script_letters(text) -> (kana, hangul, han, latin) letter counts (see page_facts.py)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_textscan",
    "One-pass scans for the metadata rules and the page head (see metadata/lines.py, "
    "metadata/page_facts.py, head.py).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__textscan(void)
{
    return PyModule_Create(&module_def);
}
