/* The loops of newscrawl.extract.default.select over lines and the element tree, in C.
 *
 * score_lines(lines, noisy, costs, max_link_share, plain_title, plain_description,
 *             link_rule, boilerplate_line) -> (dropped, scores, headline)
 *
 * A port of `default._score_lines_python` (the reference: see its docstring for the
 * rules): for each `blocks.Line` the rule that drops it (a str, or None), its score, and
 * the index of the headline line (or None). `costs` is the tuple of ints line_cost,
 * short_line_cost, punctuation_weight, prose_link_chars, description_weight (the options)
 * and MAX_BOILERPLATE_LINE, MIN_QUOTED_CHARS (default.py's limits);
 * `boilerplate_line(text)` is `BOILERPLATE_LINE_RE`'s test, called only for short lines
 * that hold what every match holds (a colon, 权, "ight" in any case). Lines are read by
 * index: text, tag, element, chars, link_chars, punctuation, noise, noise_element.
 *
 * best_region(lines, scores, inside_element) -> (first, last) or None
 *
 * A port of `default._best_region_python`: the contiguous run of lines with the highest
 * positive sum, each line counting its score when its element is inside the article's
 * elements (`inside_element[line.element]`) and minus its chars when not.
 *
 * The element-tree loops, ports of their namesakes in default.py (element ids run 1..n in
 * document order; `parents` maps each to its parent, 0 for the page):
 * subtree_scores(lines, scores, parents) -> list of each element's summed positive score;
 * inside_elements(chosen, parents) -> list of whether each element is or lies in one of
 * `chosen`; boilerplate_elements(lines, parents, max_link_share, prose_link_chars,
 * wrapper_share) -> set of the noise elements that are not layout wrappers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_line.h"

/* `_MAY_BE_BOILERPLATE_RE.search(text)`: "[：:权]|[iI][gG][hH][tT]". */
static int
may_be_boilerplate(PyObject *text)
{
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c == ':' || c == 0xFF1A || c == 0x6743) {
            return 1;
        }
        if ((c | 0x20) == 'i' && i + 3 < n && (PyUnicode_READ(kind, data, i + 1) | 0x20) == 'g' &&
            (PyUnicode_READ(kind, data, i + 2) | 0x20) == 'h' &&
            (PyUnicode_READ(kind, data, i + 3) | 0x20) == 't') {
            return 1;
        }
    }
    return 0;
}

/* `"".join(text.split())`: the text without its whitespace. */
static PyObject *
without_whitespace(PyObject *text)
{
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), kept = 0;
    Py_UCS4 *chars = PyMem_Malloc(sizeof(Py_UCS4) * (size_t)(n ? n : 1));
    if (chars == NULL) {
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (!Py_UNICODE_ISSPACE(c)) {
            chars[kept++] = c;
        }
    }
    PyObject *result = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, chars, kept);
    PyMem_Free(chars);
    return result;
}

static int
read_long(PyObject *tuple, Py_ssize_t index, long long *value)
{
    PyObject *item = PyTuple_GET_ITEM(tuple, index);
    if (!PyLong_CheckExact(item)) {
        PyErr_SetString(PyExc_TypeError, "line fields and costs must be ints");
        return -1;
    }
    *value = PyLong_AsLongLong(item);
    return *value == -1 && PyErr_Occurred() ? -1 : 0;
}

/* The reason string of a boilerplate element, one per noise word (cached in `reasons`). */
static PyObject *
element_reason(PyObject *reasons, PyObject *noise)
{
    PyObject *reason = PyDict_GetItemWithError(reasons, noise);
    if (reason != NULL || PyErr_Occurred()) {
        return reason;
    }
    reason = PyUnicode_FromFormat("boilerplate element: %S", noise);
    if (reason == NULL || PyDict_SetItem(reasons, noise, reason) < 0) {
        Py_XDECREF(reason);
        return NULL;
    }
    Py_DECREF(reason); /* the dict holds it */
    return reason;
}

static PyObject *
score_lines(PyObject *self, PyObject *args)
{
    PyObject *lines, *noisy, *costs, *plain_title, *plain_description, *link_rule, *boilerplate;
    double max_link_share;
    if (!PyArg_ParseTuple(args, "O!OO!dUUUO:score_lines", &PyList_Type, &lines, &noisy,
                          &PyTuple_Type, &costs, &max_link_share, &plain_title,
                          &plain_description, &link_rule, &boilerplate)) {
        return NULL;
    }
    long long cost[7];
    if (PyTuple_GET_SIZE(costs) != 7) {
        PyErr_SetString(PyExc_TypeError, "costs must hold seven ints");
        return NULL;
    }
    for (int k = 0; k < 7; k++) {
        if (read_long(costs, k, &cost[k]) < 0) {
            return NULL;
        }
    }
    long long line_cost = cost[0], short_line_cost = cost[1], punctuation_weight = cost[2],
              prose_link_chars = cost[3], description_weight = cost[4],
              max_boilerplate_line = cost[5], min_quoted_chars = cost[6];
    Py_ssize_t count = PyList_GET_SIZE(lines);
    Py_ssize_t title_chars = PyUnicode_GET_LENGTH(plain_title);
    int have_description = PyUnicode_GET_LENGTH(plain_description) > 0;
    PyObject *dropped = PyList_New(count), *scores = PyList_New(count);
    PyObject *reasons = PyDict_New(), *credit = PyUnicode_FromString(
                                          "boilerplate line: credit/statement");
    PyObject *headline = Py_None, *result = NULL;
    Py_INCREF(headline);
    if (dropped == NULL || scores == NULL || reasons == NULL || credit == NULL) {
        goto done;
    }
    for (Py_ssize_t index = 0; index < count; index++) {
        PyObject *line = PyList_GET_ITEM(lines, index);
        if (!PyTuple_Check(line) || PyTuple_GET_SIZE(line) < LINE_FIELDS) {
            PyErr_SetString(PyExc_TypeError, "lines must be blocks.Line tuples");
            goto done;
        }
        PyObject *text = PyTuple_GET_ITEM(line, F_TEXT);
        long long chars, link_chars, punctuation;
        if (!PyUnicode_Check(text) || read_long(line, F_CHARS, &chars) < 0 ||
            read_long(line, F_LINK_CHARS, &link_chars) < 0 ||
            read_long(line, F_PUNCTUATION, &punctuation) < 0) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_TypeError, "a line's text must be a str");
            }
            goto done;
        }
        PyObject *reason = NULL; /* borrowed */
        int in_noisy = PySet_Contains(noisy, PyTuple_GET_ITEM(line, F_NOISE_ELEMENT));
        if (in_noisy < 0) {
            goto done;
        }
        if (in_noisy) {
            if ((reason = element_reason(reasons, PyTuple_GET_ITEM(line, F_NOISE))) == NULL) {
                goto done;
            }
        }
        else if (chars <= max_boilerplate_line && may_be_boilerplate(text)) {
            PyObject *hit = PyObject_CallOneArg(boilerplate, text);
            int is_credit = hit == NULL ? -1 : PyObject_IsTrue(hit);
            Py_XDECREF(hit);
            if (is_credit < 0) {
                goto done;
            }
            if (is_credit) {
                reason = credit;
            }
        }
        if (reason == NULL && link_chars &&
            (double)link_chars > max_link_share * (double)chars &&
            (chars - link_chars < prose_link_chars || !punctuation)) {
            reason = link_rule;
        }
        long long score;
        if (reason != NULL) {
            score = -chars;
        }
        else {
            score = chars - link_chars + punctuation_weight * punctuation - line_cost;
            if (score < -short_line_cost) {
                score = -short_line_cost;
            }
        }
        /* `_quoted_by` and `_is_headline`: both compare the text without its whitespace. */
        int may_be_quoted = score <= 0 && reason == NULL && have_description &&
                            chars >= min_quoted_chars && link_chars * 2 <= chars;
        int may_be_headline = headline == Py_None && chars == title_chars;
        if (may_be_quoted || may_be_headline) {
            PyObject *plain = without_whitespace(text);
            if (plain == NULL) {
                goto done;
            }
            if (may_be_quoted) {
                int quoted = PyUnicode_Contains(plain_description, plain);
                if (quoted < 0) {
                    Py_DECREF(plain);
                    goto done;
                }
                if (quoted) {
                    score = description_weight * chars;
                }
            }
            if (may_be_headline && PyUnicode_Compare(plain, plain_title) == 0) {
                Py_DECREF(headline);
                if ((headline = PyLong_FromSsize_t(index)) == NULL) {
                    Py_DECREF(plain);
                    goto done;
                }
            }
            Py_DECREF(plain);
        }
        PyObject *value = PyLong_FromLongLong(score);
        if (value == NULL) {
            goto done;
        }
        PyObject *rule = reason ? reason : Py_None;
        Py_INCREF(rule);
        PyList_SET_ITEM(dropped, index, rule);
        PyList_SET_ITEM(scores, index, value);
    }
    result = PyTuple_Pack(3, dropped, scores, headline);
done:
    Py_XDECREF(dropped);
    Py_XDECREF(scores);
    Py_XDECREF(reasons);
    Py_XDECREF(credit);
    Py_XDECREF(headline);
    return result;
}

static PyObject *
best_region(PyObject *self, PyObject *args)
{
    PyObject *lines, *scores, *inside_element;
    if (!PyArg_ParseTuple(args, "O!O!O!:best_region", &PyList_Type, &lines, &PyList_Type,
                          &scores, &PyList_Type, &inside_element)) {
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(lines);
    if (PyList_GET_SIZE(scores) != n) {
        PyErr_SetString(PyExc_ValueError, "best_region() needs one score per line");
        return NULL;
    }
    long long best = 0, running = 0;
    Py_ssize_t start = 0, first = -1, last = -1;
    for (Py_ssize_t index = 0; index < n; index++) {
        PyObject *line = PyList_GET_ITEM(lines, index);
        if (!PyTuple_Check(line) || PyTuple_GET_SIZE(line) < LINE_FIELDS) {
            PyErr_SetString(PyExc_TypeError, "best_region() needs blocks.Line tuples");
            return NULL;
        }
        Py_ssize_t element = PyLong_AsSsize_t(PyTuple_GET_ITEM(line, F_ELEMENT));
        if (element == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (element < 0 || element >= PyList_GET_SIZE(inside_element)) {
            PyErr_SetString(PyExc_IndexError, "a line's element is not in inside_element");
            return NULL;
        }
        int inside = PyObject_IsTrue(PyList_GET_ITEM(inside_element, element));
        long long value = inside ? PyLong_AsLongLong(PyList_GET_ITEM(scores, index))
                                 : -PyLong_AsLongLong(PyTuple_GET_ITEM(line, F_CHARS));
        if (inside < 0 || PyErr_Occurred()) {
            return NULL;
        }
        if (running <= 0) {
            running = value;
            start = index;
        } else {
            running += value;
        }
        if (running > best) {
            best = running;
            first = start;
            last = index;
        }
    }
    if (first < 0) {
        Py_RETURN_NONE;
    }
    return Py_BuildValue("(nn)", first, last);
}

/* `parents` (a dict of element id -> parent id, ids 1..n) as an array indexed by id, with
 * parent[0] = 0; NULL with an exception when an id is out of range. */
static Py_ssize_t *
parent_array(PyObject *parents, Py_ssize_t *size)
{
    if (!PyDict_Check(parents)) {
        PyErr_SetString(PyExc_TypeError, "parents must be a dict");
        return NULL;
    }
    Py_ssize_t n = PyDict_GET_SIZE(parents), position = 0;
    Py_ssize_t *parent = PyMem_Malloc(((size_t)n + 1) * sizeof(Py_ssize_t));
    if (parent == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    parent[0] = 0;
    PyObject *key, *value;
    while (PyDict_Next(parents, &position, &key, &value)) {
        Py_ssize_t element = PyLong_AsSsize_t(key), up = PyLong_AsSsize_t(value);
        if (PyErr_Occurred()) {
            PyMem_Free(parent);
            return NULL;
        }
        if (element < 1 || element > n || up < 0 || up > n) {
            PyErr_SetString(PyExc_IndexError, "element ids must run from 1 to len(parents)");
            PyMem_Free(parent);
            return NULL;
        }
        parent[element] = up;
    }
    *size = n + 1; /* n distinct keys, each in 1..n: every id has its parent */
    return parent;
}

/* Field `field` of `line` (a blocks.Line tuple) as a C integer; -1 with an exception when
 * it is not an int. */
static int
line_field(PyObject *line, Py_ssize_t field, long long *value)
{
    if (!PyTuple_Check(line) || PyTuple_GET_SIZE(line) < LINE_FIELDS) {
        PyErr_SetString(PyExc_TypeError, "lines must be blocks.Line tuples");
        return -1;
    }
    return read_long(line, field, value);
}

static PyObject *
subtree_scores(PyObject *self, PyObject *args)
{
    PyObject *lines, *scores, *parents;
    if (!PyArg_ParseTuple(args, "O!O!O:subtree_scores", &PyList_Type, &lines, &PyList_Type,
                          &scores, &parents)) {
        return NULL;
    }
    Py_ssize_t size, n = PyList_GET_SIZE(lines);
    if (PyList_GET_SIZE(scores) != n) {
        PyErr_SetString(PyExc_ValueError, "subtree_scores() needs one score per line");
        return NULL;
    }
    Py_ssize_t *parent = parent_array(parents, &size);
    long long *mass = parent ? PyMem_Calloc((size_t)size, sizeof(long long)) : NULL;
    PyObject *result = NULL;
    if (mass == NULL) {
        goto done;
    }
    for (Py_ssize_t index = 0; index < n; index++) {
        long long element, score = PyLong_AsLongLong(PyList_GET_ITEM(scores, index));
        if ((score == -1 && PyErr_Occurred()) ||
            line_field(PyList_GET_ITEM(lines, index), F_ELEMENT, &element) < 0) {
            goto done;
        }
        if (score > 0) {
            if (element < 0 || element >= size) {
                PyErr_SetString(PyExc_IndexError, "a line's element is not in parents");
                goto done;
            }
            mass[element] += score;
        }
    }
    for (Py_ssize_t element = size - 1; element > 0; element--) {
        mass[parent[element]] += mass[element];
    }
    if ((result = PyList_New(size)) == NULL) {
        goto done;
    }
    for (Py_ssize_t element = 0; element < size; element++) {
        PyObject *value = PyLong_FromLongLong(mass[element]);
        if (value == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, element, value);
    }
done:
    if (parent != NULL && mass == NULL && !PyErr_Occurred()) {
        PyErr_NoMemory();
    }
    PyMem_Free(parent);
    PyMem_Free(mass);
    return result;
}

static PyObject *
inside_elements(PyObject *self, PyObject *args)
{
    PyObject *chosen, *parents;
    if (!PyArg_ParseTuple(args, "OO:inside_elements", &chosen, &parents)) {
        return NULL;
    }
    if (!PyAnySet_Check(chosen)) {
        PyErr_SetString(PyExc_TypeError, "chosen must be a set");
        return NULL;
    }
    Py_ssize_t size;
    Py_ssize_t *parent = parent_array(parents, &size);
    char *inside = parent ? PyMem_Calloc((size_t)size, 1) : NULL;
    PyObject *result = NULL, *iterator = NULL, *item;
    if (inside == NULL) {
        goto done;
    }
    /* The chosen ids first (an id outside the tree chooses nothing, as in Python)... */
    if ((iterator = PyObject_GetIter(chosen)) == NULL) {
        goto done;
    }
    int everything = 0;
    while ((item = PyIter_Next(iterator)) != NULL) {
        Py_ssize_t element = PyLong_Check(item) ? PyLong_AsSsize_t(item) : -1;
        Py_DECREF(item);
        if (PyErr_Occurred()) {
            PyErr_Clear(); /* a huge int is no element either */
        } else if (element == 0) {
            everything = 1;
        } else if (element > 0 && element < size) {
            inside[element] = 1;
        }
    }
    if (PyErr_Occurred()) {
        goto done;
    }
    /* ...then each element after its parent, ids growing in document order. */
    for (Py_ssize_t element = 1; element < size; element++) {
        inside[element] = (char)(everything || inside[element] || inside[parent[element]]);
    }
    inside[0] = (char)everything;
    if ((result = PyList_New(size)) == NULL) {
        goto done;
    }
    for (Py_ssize_t element = 0; element < size; element++) {
        PyObject *flag = inside[element] ? Py_True : Py_False;
        Py_INCREF(flag);
        PyList_SET_ITEM(result, element, flag);
    }
done:
    if (parent != NULL && inside == NULL && !PyErr_Occurred()) {
        PyErr_NoMemory();
    }
    Py_XDECREF(iterator);
    PyMem_Free(parent);
    PyMem_Free(inside);
    return result;
}

static PyObject *
boilerplate_elements(PyObject *self, PyObject *args)
{
    PyObject *lines, *parents;
    double max_link_share, wrapper_share;
    long long prose_link_chars;
    if (!PyArg_ParseTuple(args, "O!OdLd:boilerplate_elements", &PyList_Type, &lines, &parents,
                          &max_link_share, &prose_link_chars, &wrapper_share)) {
        return NULL;
    }
    Py_ssize_t size, n = PyList_GET_SIZE(lines);
    Py_ssize_t *parent = parent_array(parents, &size);
    char *named = parent ? PyMem_Calloc((size_t)size, 1) : NULL;
    long long *prose = named ? PyMem_Calloc((size_t)size, sizeof(long long)) : NULL;
    PyObject *result = NULL;
    long long total = 0;
    if (prose == NULL) {
        goto done;
    }
    for (Py_ssize_t index = 0; index < n; index++) {
        long long noise_element;
        if (line_field(PyList_GET_ITEM(lines, index), F_NOISE_ELEMENT, &noise_element) < 0) {
            goto done;
        }
        if (noise_element < 0 || noise_element >= size) {
            PyErr_SetString(PyExc_IndexError, "a line's noise element is not in parents");
            goto done;
        }
        named[noise_element] = 1;
    }
    named[0] = 0;
    for (Py_ssize_t index = 0; index < n; index++) {
        PyObject *line = PyList_GET_ITEM(lines, index);
        long long chars, link_chars, punctuation, element;
        if (read_long(line, F_CHARS, &chars) < 0 ||
            read_long(line, F_LINK_CHARS, &link_chars) < 0 ||
            read_long(line, F_PUNCTUATION, &punctuation) < 0 ||
            read_long(line, F_NOISE_ELEMENT, &element) < 0) {
            goto done;
        }
        int link_line = (double)link_chars > max_link_share * (double)chars &&
                        (chars - link_chars < prose_link_chars || !punctuation);
        if (!punctuation || link_line) {
            continue;
        }
        total += chars;
        for (; element; element = parent[element]) {
            if (named[element]) {
                prose[element] += chars;
            }
        }
    }
    if ((result = PySet_New(NULL)) == NULL) {
        goto done;
    }
    for (Py_ssize_t element = 1; element < size; element++) {
        if (!named[element] || (double)prose[element] > wrapper_share * (double)total) {
            continue;
        }
        PyObject *key = PyLong_FromSsize_t(element);
        if (key == NULL || PySet_Add(result, key) < 0) {
            Py_XDECREF(key);
            Py_CLEAR(result);
            goto done;
        }
        Py_DECREF(key);
    }
done:
    if (parent != NULL && prose == NULL && !PyErr_Occurred()) {
        PyErr_NoMemory();
    }
    PyMem_Free(parent);
    PyMem_Free(named);
    PyMem_Free(prose);
    return result;
}

static PyMethodDef methods[] = {
    {"score_lines", score_lines, METH_VARARGS,
     "score_lines(lines, noisy, costs, max_link_share, plain_title, plain_description, "
     "link_rule, boilerplate_line) -> (dropped, scores, headline): default.select's "
     "per-line loop (see default._score_lines_python)."},
    {"best_region", best_region, METH_VARARGS,
     "best_region(lines, scores, inside_element) -> (first, last) or None: the run of lines "
     "with the highest positive sum (see default._best_region_python)."},
    {"subtree_scores", subtree_scores, METH_VARARGS,
     "subtree_scores(lines, scores, parents) -> list: each element's summed positive line "
     "score over its subtree (see default.subtree_scores)."},
    {"inside_elements", inside_elements, METH_VARARGS,
     "inside_elements(chosen, parents) -> list of bool by element id (see "
     "default._inside_elements)."},
    {"boilerplate_elements", boilerplate_elements, METH_VARARGS,
     "boilerplate_elements(lines, parents, max_link_share, prose_link_chars, wrapper_share) "
     "-> set (see default.boilerplate_elements)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_select",
    "The line and element-tree loops of newscrawl.extract.default.select in C (see default.py).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__select(void)
{
    return PyModule_Create(&module_def);
}
