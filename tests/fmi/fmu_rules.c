/* The FMI state machines' rules for the test FMUs (fmu_rules.h): the
 * model description's variables (with their array sizes, start values and
 * slots in the instance's arrays, and FMI 3's continuous states), read by
 * a line-based parser, the start values given at instantiation and reset,
 * and the checks of calls and value references both runtimes make. */
#include "fmu_rules.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Live instances of this binary (canBeInstantiatedOnlyOncePerProcess). */
static int live_instances = 0;

static const char* const kTypeNames[FMU_TYPE_COUNT] = {
    "Real",  "Integer", "Boolean", "String", "Enumeration", "Float32", "Float64", "Int8",  "UInt8",
    "Int16", "UInt16",  "Int32",   "UInt32", "Int64",       "UInt64",  "Binary",  "Clock",
};
static const char* const kCausalities[] = {"parameter",   "calculatedParameter", "input", "output", "local",
                                           "independent", "structuralParameter"};
static const char* const kVariabilities[] = {"constant", "fixed", "tunable", "discrete", "continuous"};
static const char* const kInitials[] = {"exact", "approx", "calculated"};

static void say(char* why, size_t size, const char* format, ...) __attribute__((format(printf, 3, 4)));
static void say(char* why, size_t size, const char* format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(why, size, format, args);
  va_end(args);
}

/* ---- The path of modelDescription.xml */

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* FMI 2: the path of a file URI (file:///path, file://localhost/path or
 * file:/path), its %XX escapes decoded. */
static int uri_path(const char* uri, char* path, size_t size, char* why, size_t why_size) {
  if (strncmp(uri, "file:", 5) != 0) {
    say(why, why_size, "the resource location '%s' is not a file URI", uri);
    return -1;
  }
  const char* p = uri + 5;
  if (p[0] == '/' && p[1] == '/') {
    p += 2;
    const char* slash = strchr(p, '/');
    const size_t host = slash == NULL ? strlen(p) : (size_t)(slash - p);
    if (slash == NULL || !(host == 0 || (host == 9 && strncmp(p, "localhost", 9) == 0))) {
      say(why, why_size, "the resource location '%s' names a host or no path", uri);
      return -1;
    }
    p = slash;
  } else if (p[0] != '/') {
    say(why, why_size, "the resource location '%s' is not an absolute file URI", uri);
    return -1;
  }
  size_t n = 0;
  for (; *p != '\0'; ++p) {
    char c = *p;
    if (c == '%') {
      const int hi = hex_digit(p[1]);
      const int lo = hi < 0 ? -1 : hex_digit(p[2]);
      if (lo < 0 || (hi == 0 && lo == 0)) {
        say(why, why_size, "the resource location '%s' has a '%%' that is not an escape %%XX", uri);
        return -1;
      }
      c = (char)(hi * 16 + lo);
      p += 2;
    }
    if (n + 1 >= size) {
      say(why, why_size, "the resource location '%s' is too long", uri);
      return -1;
    }
    path[n++] = c;
  }
  path[n] = '\0';
  return 0;
}

/* <folder>/../modelDescription.xml, taking ".." lexically (the folder need not exist). */
static int description_path(const char* folder, char* path, size_t size, char* why, size_t why_size) {
  size_t n = strlen(folder);
  while (n > 1 && folder[n - 1] == '/') --n; /* the folder's trailing slashes */
  while (n > 0 && folder[n - 1] != '/') --n; /* the folder's own name */
  while (n > 1 && folder[n - 1] == '/') --n; /* the slashes before it */
  const int written = n == 0 ? snprintf(path, size, "modelDescription.xml")
                             : snprintf(path, size, "%.*s%smodelDescription.xml", (int)n, folder,
                                        folder[n - 1] == '/' ? "" : "/");
  if (written < 0 || (size_t)written >= size) {
    say(why, why_size, "the resource folder '%s' is too long a path", folder);
    return -1;
  }
  return 0;
}

/* ---- The line-based parser */

/* The value of attribute `key` on `line` (key="value", after a blank), with
 * the five XML entities decoded: 1, or 0 when absent. */
static int attribute(const char* line, const char* key, char* value, size_t size) {
  const size_t k = strlen(key);
  for (const char* p = strstr(line, key); p != NULL; p = strstr(p + 1, key)) {
    if (p == line || (p[-1] != ' ' && p[-1] != '\t') || p[k] != '=' || p[k + 1] != '"') continue;
    const char* v = p + k + 2;
    size_t n = 0;
    while (*v != '\0' && *v != '"') {
      static const struct {
        const char* entity;
        char c;
      } kEntities[] = {{"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
      char c = *v;
      size_t skip = 1;
      if (c == '&') {
        for (size_t e = 0; e < sizeof kEntities / sizeof kEntities[0]; ++e) {
          const size_t len = strlen(kEntities[e].entity);
          if (strncmp(v, kEntities[e].entity, len) == 0) {
            c = kEntities[e].c;
            skip = len;
            break;
          }
        }
      }
      if (n + 1 < size) value[n++] = c;
      v += skip;
    }
    value[n] = '\0';
    return 1;
  }
  return 0;
}

static int lookup(const char* const names[], int count, const char* name) {
  for (int k = 0; k < count; ++k) {
    if (strcmp(names[k], name) == 0) return k;
  }
  return -1;
}

/* Whether `line` has the element <name (followed by a blank, '/' or '>'). */
static int has_element(const char* line, const char* name) {
  const size_t n = strlen(name);
  for (const char* p = strstr(line, name); p != NULL; p = strstr(p + 1, name)) {
    if (p > line && p[-1] == '<' && (p[n] == ' ' || p[n] == '\t' || p[n] == '/' || p[n] == '>')) return 1;
  }
  return 0;
}

/* The variable's type: FMI 2 its child element, FMI 3 its element; -1 when none. */
static int variable_type(const char* line, int fmi3) {
  if (!fmi3) {
    if (!has_element(line, "ScalarVariable")) return -1;
    for (int t = FMU_REAL; t <= FMU_ENUMERATION; ++t) {
      if (has_element(line, kTypeNames[t])) return t;
    }
    return -1;
  }
  const char* p = line;
  while (*p == ' ' || *p == '\t') ++p;
  if (*p != '<') return -1;
  ++p;
  size_t n = 0;
  while (p[n] != '\0' && p[n] != ' ' && p[n] != '\t' && p[n] != '/' && p[n] != '>') ++n;
  for (int t = FMU_BOOLEAN; t < FMU_TYPE_COUNT; ++t) {
    if (t == FMU_REAL || t == FMU_INTEGER) continue;
    if (strlen(kTypeNames[t]) == n && strncmp(p, kTypeNames[t], n) == 0) return t;
  }
  return -1;
}

/* The first '>' at or after `p` outside quoted attribute values, or NULL. */
static const char* tag_end(const char* p) {
  char quote = 0;
  for (; *p != '\0'; ++p) {
    if (quote != 0) {
      if (*p == quote) quote = 0;
    } else if (*p == '"' || *p == '\'') {
      quote = *p;
    } else if (*p == '>') {
      return p;
    }
  }
  return NULL;
}

/* A variable element spanning several lines (its children on lines of
 * their own): its lines made one (newlines become blanks), when the element
 * ends before </ModelVariables>. `line` is where the rest of the
 * description begins (not yet split into lines). */
static void join_element(char* line, int fmi3) {
  const char* p = line;
  while (*p == ' ' || *p == '\t' || *p == '\r') ++p;
  if (*p != '<') return;
  ++p;
  size_t n = 0;
  while (p[n] != '\0' && strchr(" \t\r\n/>", p[n]) == NULL) ++n;
  if (n == 0 || n > 32) return;
  char name[40];
  snprintf(name, sizeof name, "%.*s", (int)n, p);
  if (fmi3 ? lookup(kTypeNames, FMU_TYPE_COUNT, name) < 0 : strcmp(name, "ScalarVariable") != 0) return;
  const char* open_end = tag_end(p + n);
  if (open_end == NULL) return;
  const char* end = open_end;
  if (open_end[-1] != '/') {
    char closing[48];
    snprintf(closing, sizeof closing, "</%s>", name);
    end = strstr(open_end, closing);
    const char* bound = strstr(open_end, "</ModelVariables");
    if (end == NULL || (bound != NULL && end > bound)) return;
  }
  for (char* q = line; q < end; ++q) {
    if (*q == '\n' || *q == '\r') *q = ' ';
  }
}

/* The opening tag of the child element <name ...> at or after `p` (up to
 * its '>') copied into `tag`: the rest after it, or NULL when there is no
 * such child (or it does not fit `tag`). */
static const char* child(const char* p, const char* name, char* tag, size_t size) {
  const size_t n = strlen(name);
  for (const char* q = strstr(p, name); q != NULL; q = strstr(q + 1, name)) {
    if (q == p || q[-1] != '<' || strchr(" \t/>", q[n]) == NULL) continue;
    const char* end = tag_end(q + n);
    if (end == NULL || (size_t)(end - q) + 2 > size) return NULL;
    snprintf(tag, size, "<%.*s", (int)(end - q + 1), q);
    return end + 1;
  }
  return NULL;
}

/* The instance's array that holds a variable of type `type`, and the value
 * reference of its slot 0 there (fmu_runtime.h). */
static int storage_of(int type, int fmi3, int independent, unsigned int* base) {
  *base = 0;
  if (!fmi3) {
    switch (type) {
      case FMU_REAL:
        return FMU_STORE_R;
      case FMU_STRING:
        return FMU_STORE_S;
      default:
        return FMU_STORE_I; /* Integer, Enumeration, Boolean */
    }
  }
  if (independent) return FMU_STORE_NONE;
  switch (type) {
    case FMU_FLOAT64:
      return FMU_STORE_R;
    case FMU_FLOAT32:
      *base = 200;
      return FMU_STORE_F32;
    case FMU_INT8:
    case FMU_UINT8:
    case FMU_INT16:
    case FMU_UINT16:
    case FMU_UINT32:
    case FMU_INT64:
      *base = 300;
      return FMU_STORE_I64;
    case FMU_UINT64:
      *base = 400;
      return FMU_STORE_U64;
    case FMU_STRING:
      *base = 500;
      return FMU_STORE_S;
    case FMU_BINARY:
      *base = 600;
      return FMU_STORE_BIN;
    default:
      *base = 100;
      return FMU_STORE_I; /* Int32, Enumeration, Boolean, Clock */
  }
}

/* The range of the integer types held in m->i and m->i64. */
static void integer_range(int type, long long* lo, long long* hi) {
  switch (type) {
    case FMU_INT8:
      *lo = INT8_MIN, *hi = INT8_MAX;
      break;
    case FMU_UINT8:
      *lo = 0, *hi = UINT8_MAX;
      break;
    case FMU_INT16:
      *lo = INT16_MIN, *hi = INT16_MAX;
      break;
    case FMU_UINT16:
      *lo = 0, *hi = UINT16_MAX;
      break;
    case FMU_UINT32:
      *lo = 0, *hi = UINT32_MAX;
      break;
    case FMU_INT64:
      *lo = LLONG_MIN, *hi = LLONG_MAX;
      break;
    default: /* Integer, Int32, Enumeration */
      *lo = INT_MIN, *hi = INT_MAX;
      break;
  }
}

/* Start value `t` of element `at` of variable v: stored into the instance
 * when m is not NULL; 0, or -1 when `t` is no value of the variable's type. */
static int start_value(Instance* m, const FmuVar* v, size_t at, const char* t) {
  char* end = NULL;
  errno = 0;
  switch (v->storage) {
    case FMU_STORE_R: {
      const double x = strtod(t, &end);
      if (end == t || *end != '\0') return -1;
      if (m != NULL) m->r[at] = x;
      return 0;
    }
    case FMU_STORE_F32: {
      const float x = strtof(t, &end);
      if (end == t || *end != '\0') return -1;
      if (m != NULL) m->f32[at] = x;
      return 0;
    }
    case FMU_STORE_I:
    case FMU_STORE_I64: {
      long long x = 0;
      if (v->type == FMU_BOOLEAN && (strcmp(t, "true") == 0 || strcmp(t, "false") == 0)) {
        x = t[0] == 't';
      } else {
        x = strtoll(t, &end, 10);
        long long lo = 0, hi = 0;
        integer_range(v->type, &lo, &hi);
        if (v->type == FMU_BOOLEAN) lo = 0, hi = 1;
        if (end == t || *end != '\0' || errno != 0 || x < lo || x > hi) return -1;
      }
      if (m != NULL && v->storage == FMU_STORE_I) m->i[at] = (int)x;
      if (m != NULL && v->storage == FMU_STORE_I64) m->i64[at] = (int64_t)x;
      return 0;
    }
    case FMU_STORE_U64: {
      const char* digits = t;
      while (*digits == ' ') ++digits;
      const unsigned long long x = strtoull(t, &end, 10);
      if (end == t || *end != '\0' || errno != 0 || *digits == '-') return -1;
      if (m != NULL) m->u64[at] = (uint64_t)x;
      return 0;
    }
    case FMU_STORE_S:
      if (strlen(t) > FMU_MAX_STRING) return -1;
      if (m != NULL) snprintf(m->s[at], sizeof m->s[at], "%s", t);
      return 0;
    case FMU_STORE_BIN: {
      const size_t n = strlen(t);
      if (n % 2 != 0 || n / 2 > FMU_MAX_BINARY) return -1;
      for (size_t k = 0; k < n; k += 2) {
        const int hi = hex_digit(t[k]);
        const int lo = hex_digit(t[k + 1]);
        if (hi < 0 || lo < 0) return -1;
        if (m != NULL) m->bin[at][k / 2] = (uint8_t)(hi * 16 + lo);
      }
      if (m != NULL) m->bin_size[at] = n / 2;
      return 0;
    }
    default:
      return -1;
  }
}

/* Appends start text `t` to v->starts: 0, or -1 when full. */
static int add_start(FmuVar* v, const char* t, size_t n) {
  size_t used = 0;
  for (int k = 0; k < v->n_starts; ++k) used += strlen(v->starts + used) + 1;
  if (used + n + 1 > sizeof v->starts) return -1;
  memcpy(v->starts + used, t, n);
  v->starts[used + n] = '\0';
  ++v->n_starts;
  return 0;
}

/* The variable's elements (FMI 3: its <Dimension> children), start values
 * and slot; `element` is its whole element, `tag` its opening tag (FMI 2:
 * the whole element too). */
static int parse_values(const char* element, const char* tag, int fmi3, FmuVar* v, char* why,
                        size_t why_size) {
  char child_tag[512];
  char text[1024];
  v->elements = 1;
  if (fmi3) {
    const char* rest = element + strlen(tag);
    for (const char* p = rest; (p = child(p, "Dimension", child_tag, sizeof child_tag)) != NULL;) {
      char* end = NULL;
      if (!attribute(child_tag, "start", text, sizeof text)) {
        say(why, why_size,
            "variable '%s': a <Dimension> without a start (a size from a structural parameter, "
            "which this runtime does not have)",
            v->name);
        return -1;
      }
      const unsigned long size = strtoul(text, &end, 10);
      if (end == text || *end != '\0' || size < 1 || size > FMU_MAX_VARS ||
          v->elements * size > FMU_MAX_VARS) {
        say(why, why_size,
            "variable '%s': <Dimension start=\"%s\"> makes more elements than this runtime's %d, or none",
            v->name, text, FMU_MAX_VARS);
        return -1;
      }
      v->elements *= size;
    }
  }
  const int text_values = v->type == FMU_STRING || v->type == FMU_BINARY;
  if (fmi3 && text_values) {
    const char* rest = element + strlen(tag);
    for (const char* p = rest; (p = child(p, "Start", child_tag, sizeof child_tag)) != NULL;) {
      if (!attribute(child_tag, "value", text, sizeof text)) text[0] = '\0';
      if (add_start(v, text, strlen(text)) != 0) {
        say(why, why_size, "variable '%s': too long start values for this runtime", v->name);
        return -1;
      }
    }
  } else if (v->type != FMU_CLOCK && attribute(fmi3 ? tag : element, "start", text, sizeof text)) {
    if (strlen(text) + 1 >= sizeof text) {
      say(why, why_size, "variable '%s': too long start values for this runtime", v->name);
      return -1;
    }
    if (text_values) { /* FMI 2 String: the whole text */
      if (add_start(v, text, strlen(text)) != 0) {
        say(why, why_size, "variable '%s': too long start values for this runtime", v->name);
        return -1;
      }
    } else {
      for (const char* p = text;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') ++p;
        if (*p == '\0') break;
        size_t n = 0;
        while (p[n] != '\0' && strchr(" \t\n\r", p[n]) == NULL) ++n;
        if (add_start(v, p, n) != 0) {
          say(why, why_size, "variable '%s': too long start values for this runtime", v->name);
          return -1;
        }
        p += n;
      }
    }
  }
  if (v->n_starts != 0 && (size_t)v->n_starts != v->elements) {
    say(why, why_size, "variable '%s' has %d start values for %zu elements", v->name, v->n_starts,
        v->elements);
    return -1;
  }
  unsigned int base = 0;
  v->storage = storage_of(v->type, fmi3, v->causality == FMU_INDEPENDENT, &base);
  v->slot = -1;
  if (v->storage != FMU_STORE_NONE && v->vr >= base && v->vr - base + v->elements <= FMU_MAX_VARS) {
    v->slot = (int)(v->vr - base);
  }
  const char* t = v->starts;
  for (int k = 0; k < v->n_starts; ++k, t += strlen(t) + 1) {
    if (start_value(NULL, v, 0, t) != 0) {
      say(why, why_size, "variable '%s': start value '%s' is no %s value this runtime holds", v->name, t,
          kTypeNames[v->type]);
      return -1;
    }
  }
  return 0;
}

/* The variable on `line` (its whole element), of type `type`, with the
 * standard's defaults for the attributes it omits. FMI 3: the attributes
 * of its opening tag, FMI 2: of the element and its type child. */
static int parse_variable(const char* element, int fmi3, int type, FmuVar* v, char* why, size_t why_size) {
  char text[128];
  char tag_text[2048];
  memset(v, 0, sizeof *v);
  v->type = type;
  v->derivative = -1;
  const char* line = element; /* where the attributes are */
  if (fmi3) {
    const char* start = strchr(element, '<');
    const char* end = start == NULL ? NULL : tag_end(start);
    if (end == NULL || (size_t)(end - element) + 2 > sizeof tag_text) {
      say(why, why_size, "a variable element this runtime cannot read: %.80s", element);
      return -1;
    }
    snprintf(tag_text, sizeof tag_text, "%.*s", (int)(end - element + 1), element);
    line = tag_text;
  }
  attribute(line, "name", v->name, sizeof v->name);
  if (!attribute(line, "valueReference", text, sizeof text)) return -1;
  char* end = NULL;
  errno = 0;
  const unsigned long vr = strtoul(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0 || vr > 0xFFFFFFFFul) {
    say(why, why_size, "variable '%s': valueReference '%s' is not a number", v->name, text);
    return -1;
  }
  v->vr = (unsigned int)vr;
  v->causality = FMU_LOCAL;
  if (attribute(line, "causality", text, sizeof text)) {
    v->causality = lookup(kCausalities, (int)(sizeof kCausalities / sizeof kCausalities[0]), text);
    if (v->causality < 0) {
      say(why, why_size, "variable '%s': unknown causality '%s'", v->name, text);
      return -1;
    }
  }
  const int real = v->type == FMU_REAL || v->type == FMU_FLOAT32 || v->type == FMU_FLOAT64;
  v->variability = real ? FMU_CONTINUOUS : FMU_DISCRETE;
  if (attribute(line, "variability", text, sizeof text)) {
    v->variability = lookup(kVariabilities, (int)(sizeof kVariabilities / sizeof kVariabilities[0]), text);
    if (v->variability < 0) {
      say(why, why_size, "variable '%s': unknown variability '%s'", v->name, text);
      return -1;
    }
  }
  switch (v->causality) {
    case FMU_PARAMETER:
    case FMU_STRUCTURAL_PARAMETER:
    case FMU_INPUT:
      v->initial = FMU_EXACT;
      break;
    case FMU_CALCULATED_PARAMETER:
      v->initial = FMU_CALCULATED;
      break;
    case FMU_INDEPENDENT:
      v->initial = FMU_NO_INITIAL;
      break;
    default:
      v->initial = v->variability == FMU_CONSTANT ? FMU_EXACT : FMU_CALCULATED;
      break;
  }
  if (attribute(line, "initial", text, sizeof text)) {
    v->initial = lookup(kInitials, (int)(sizeof kInitials / sizeof kInitials[0]), text);
    if (v->initial < 0) {
      say(why, why_size, "variable '%s': unknown initial '%s'", v->name, text);
      return -1;
    }
  }
  if (attribute(line, "derivative", text, sizeof text)) v->derivative = strtol(text, NULL, 10);
  v->reinit = fmi3 && attribute(line, "reinit", text, sizeof text) && strcmp(text, "true") == 0;
  v->can_be_deactivated =
      fmi3 && attribute(line, "canBeDeactivated", text, sizeof text) && strcmp(text, "true") == 0;
  if (fmi3) attribute(line, "intervalVariability", v->interval_variability, sizeof v->interval_variability);
  return parse_values(element, line, fmi3, v, why, why_size);
}

/* FMI 3: no two variables share a slot of the instance's arrays. */
static int check_slots(const FmuDescription* d, char* why, size_t why_size) {
  for (int a = 0; a < d->n; ++a) {
    const FmuVar* x = &d->vars[a];
    for (int b = a + 1; b < d->n && x->slot >= 0; ++b) {
      const FmuVar* y = &d->vars[b];
      if (y->slot < 0 || y->storage != x->storage) continue;
      if ((size_t)x->slot < (size_t)y->slot + y->elements &&
          (size_t)y->slot < (size_t)x->slot + x->elements) {
        say(why, why_size,
            "variables '%s' (%u, %zu elements) and '%s' (%u, %zu elements) share slots of this "
            "runtime's arrays",
            x->name, x->vr, x->elements, y->name, y->vr, y->elements);
        return -1;
      }
    }
  }
  return 0;
}

/* FMI 3: the continuous states, element-wise, in the order of the
 * derivatives `order` (the <ContinuousStateDerivative> elements; without
 * them, the variables with a derivative attribute in ModelVariables order). */
static int state_layout(FmuDescription* d, const unsigned int order[], int n_order, char* why,
                        size_t why_size) {
  const int listed = n_order > 0;
  const int count = listed ? n_order : d->n;
  d->nx = 0;
  for (int k = 0; k < count; ++k) {
    const FmuVar* der = NULL;
    if (listed) {
      for (int v = 0; v < d->n && der == NULL; ++v) {
        if (d->vars[v].vr == order[k]) der = &d->vars[v];
      }
      if (der == NULL || der->derivative < 0) {
        say(why, why_size,
            "<ContinuousStateDerivative valueReference=\"%u\"> names no variable with a derivative "
            "attribute",
            order[k]);
        return -1;
      }
    } else {
      if (d->vars[k].derivative < 0) continue;
      der = &d->vars[k];
    }
    const FmuVar* state = NULL;
    for (int v = 0; v < d->n && state == NULL; ++v) {
      if ((long)d->vars[v].vr == der->derivative) state = &d->vars[v];
    }
    if (state == NULL || state->type != FMU_FLOAT64 || der->type != FMU_FLOAT64 ||
        state->elements != der->elements || state->slot < 0 || der->slot < 0 ||
        (size_t)d->nx + der->elements > FMU_MAX_VARS) {
      say(why, why_size,
          "derivative '%s' (%u) is not the derivative of a Float64 variable of as many elements "
          "that this runtime holds",
          der->name, der->vr);
      return -1;
    }
    for (size_t j = 0; j < der->elements; ++j, ++d->nx) {
      d->state_slot[d->nx] = state->slot + (int)j;
      d->der_slot[d->nx] = der->slot + (int)j;
    }
  }
  return 0;
}

static FmuDescription* parse(char* xml, int fmi3, const char* path, char* why, size_t why_size) {
  if (strstr(xml, "<fmiModelDescription") == NULL) {
    say(why, why_size, "%s is not a model description (no <fmiModelDescription>)", path);
    return NULL;
  }
  FmuDescription* d = (FmuDescription*)calloc(1, sizeof(FmuDescription));
  if (d == NULL) {
    say(why, why_size, "out of memory");
    return NULL;
  }
  d->fmi3 = fmi3;
  int in_variables = 0;
  int in_structure = 0;
  int index = 0;
  char text[32];
  unsigned int derivatives[FMU_MAX_DESCRIBED]; /* FMI 3: the <ContinuousStateDerivative> elements */
  int n_derivatives = 0;
  for (char* line = xml; line != NULL;) {
    if (in_variables) join_element(line, fmi3);
    char* next = strchr(line, '\n');
    if (next != NULL) *next++ = '\0';
    const int me = has_element(line, "ModelExchange");
    const int cs = has_element(line, "CoSimulation");
    if (me) d->model_exchange = 1;
    if (cs) d->co_simulation = 1;
    if ((me || cs) && attribute(line, "canBeInstantiatedOnlyOncePerProcess", text, sizeof text) &&
        strcmp(text, "true") == 0) {
      d->once_per_process = 1;
    }
    if ((me || cs) &&
        attribute(line, fmi3 ? "canGetAndSetFMUState" : "canGetAndSetFMUstate", text, sizeof text))
      d->can_get_and_set_state[cs] = strcmp(text, "true") == 0;
    if ((me || cs) &&
        attribute(line, fmi3 ? "canSerializeFMUState" : "canSerializeFMUstate", text, sizeof text))
      d->can_serialize_state[cs] = strcmp(text, "true") == 0;
    if ((me || cs) &&
        attribute(line, fmi3 ? "providesDirectionalDerivatives" : "providesDirectionalDerivative", text,
                  sizeof text))
      d->provides_directional[cs] = strcmp(text, "true") == 0;
    if (has_element(line, "ModelVariables")) in_variables = 1;
    if (strstr(line, "</ModelVariables") != NULL) in_variables = 0;
    if (has_element(line, "ModelStructure")) in_structure = 1;
    if (fmi3 && in_structure && has_element(line, "ContinuousStateDerivative")) {
      char* end = NULL;
      const int known = attribute(line, "valueReference", text, sizeof text);
      const unsigned long vr = known ? strtoul(text, &end, 10) : 0;
      if (!known || end == text || *end != '\0' || n_derivatives == FMU_MAX_DESCRIBED) {
        say(why, why_size, "%s: a <ContinuousStateDerivative> this runtime cannot read", path);
        free(d);
        return NULL;
      }
      derivatives[n_derivatives++] = (unsigned int)vr;
    }
    if (in_variables && strstr(line, "valueReference=\"") != NULL) {
      const int type = variable_type(line, fmi3);
      if (type >= 0) {
        if (d->n == FMU_MAX_DESCRIBED) {
          say(why, why_size, "%s has more than %d variables", path, FMU_MAX_DESCRIBED);
          free(d);
          return NULL;
        }
        FmuVar* v = &d->vars[d->n];
        if (parse_variable(line, fmi3, type, v, why, why_size) != 0) {
          free(d);
          return NULL;
        }
        v->index = ++index;
        ++d->n;
      }
    }
    line = next;
  }
  for (int k = 0; k < d->n; ++k) {
    const long of = d->vars[k].derivative;
    if (of < 0) continue;
    for (int s = 0; s < d->n; ++s) {
      if (fmi3 ? (long)d->vars[s].vr == of : (long)d->vars[s].index == of) d->vars[s].is_state = 1;
    }
  }
  if (fmi3 && (check_slots(d, why, why_size) != 0 ||
               state_layout(d, derivatives, n_derivatives, why, why_size) != 0)) {
    free(d);
    return NULL;
  }
  return d;
}

static FmuDescription* read_description(const char* path, int fmi3, char* why, size_t why_size) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) {
    say(why, why_size, "cannot read the model description %s: %s", path, strerror(errno));
    return NULL;
  }
  size_t size = 0;
  size_t capacity = 4096;
  char* xml = (char*)malloc(capacity);
  for (;;) {
    if (xml == NULL) break;
    size += fread(xml + size, 1, capacity - 1 - size, f);
    if (size < capacity - 1) break;
    capacity *= 2;
    char* grown = (char*)realloc(xml, capacity);
    if (grown == NULL) free(xml);
    xml = grown;
  }
  const int failed = ferror(f);
  fclose(f);
  if (xml == NULL || failed) {
    free(xml);
    say(why, why_size, "cannot read the model description %s", path);
    return NULL;
  }
  xml[size] = '\0';
  FmuDescription* d = parse(xml, fmi3, path, why, why_size);
  free(xml);
  return d;
}

FmuDescription* fmu_open(const char* resources, int fmi3, int co_simulation, char* why, size_t why_size) {
  char folder[4096];
  char path[4096];
  if (resources == NULL) {
    say(why, why_size, "no resource location");
    return NULL;
  }
  if (fmi3) {
    if (strncmp(resources, "file:", 5) == 0) {
      say(why, why_size, "the resource location '%s' must be a path, not a URI", resources);
      return NULL;
    }
    snprintf(folder, sizeof folder, "%s", resources);
  } else if (uri_path(resources, folder, sizeof folder, why, why_size) != 0) {
    return NULL;
  }
  if (description_path(folder, path, sizeof path, why, why_size) != 0) return NULL;
  FmuDescription* d = read_description(path, fmi3, why, why_size);
  if (d == NULL) return NULL;
  if (co_simulation ? !d->co_simulation : !d->model_exchange) {
    say(why, why_size, "the model description %s has no <%s> element", path,
        co_simulation ? "CoSimulation" : "ModelExchange");
    free(d);
    return NULL;
  }
  if (d->once_per_process && live_instances > 0) {
    say(why, why_size,
        "this FMU can be instantiated only once per process (canBeInstantiatedOnlyOncePerProcess) and has a "
        "live "
        "instance");
    free(d);
    return NULL;
  }
  ++live_instances;
  return d;
}

void fmu_close(Instance* m) {
  if (m->desc != NULL) --live_instances;
  free(m->desc);
  m->desc = NULL;
}

void fmu_reset(Instance* m) {
  memset(m->r, 0, sizeof m->r);
  memset(m->i, 0, sizeof m->i);
  memset(m->f32, 0, sizeof m->f32);
  memset(m->i64, 0, sizeof m->i64);
  memset(m->u64, 0, sizeof m->u64);
  memset(m->s, 0, sizeof m->s);
  memset(m->bin, 0, sizeof m->bin);
  memset(m->bin_size, 0, sizeof m->bin_size);
  for (int k = 0; m->desc != NULL && k < m->desc->n; ++k) { /* the description's start values */
    const FmuVar* v = &m->desc->vars[k];
    if (v->slot < 0) continue;
    const char* t = v->starts;
    for (int j = 0; j < v->n_starts; ++j, t += strlen(t) + 1)
      (void)start_value(m, v, (size_t)(v->slot + j), t);
  }
  m->time = 0;
  m->next_defined = 0;
  m->next_time = 0;
  m->terminate = 0;
  m->message[0] = '\0';
  m->state = FMU_INSTANTIATED;
  m->event_calls = 0;
  m->discrete_states_needed = 0;
  m->last_event_needed_more = 0;
  m->start_time = 0;
  m->setup_done = 0;
  m->event_time = 0;
  m->step_times[0] = m->step_times[1] = 0;
  m->steps_completed = 0;
  model_defaults(m);
}

/* ---- The checks */

const char* fmu_state_name(const Instance* m) {
  switch (m->state) {
    case FMU_INSTANTIATED:
      return "the Instantiated state";
    case FMU_INITIALIZATION_MODE:
      return "Initialization Mode";
    case FMU_EVENT_MODE:
      return "Event Mode";
    case FMU_CONTINUOUS_TIME_MODE:
      return "Continuous-Time Mode";
    case FMU_STEP_MODE:
      return m->desc != NULL && m->desc->fmi3 ? "Step Mode" : "the Step Complete state";
    case FMU_STEP_IN_PROGRESS:
      return "a step in progress";
    case FMU_STEP_FAILED:
      return "the Step Failed state";
    case FMU_TERMINATED:
      return "the Terminated state";
    default:
      return "the Error state";
  }
}

int fmu_fail(Instance* m, const char* fn, const char* format, ...) {
  char text[512];
  const int n = snprintf(text, sizeof text, "%s: ", fn);
  va_list args;
  va_start(args, format);
  vsnprintf(text + n, sizeof text - (size_t)n, format, args);
  va_end(args);
  model_log(m, 3, "error", text); /* fmi2Error, fmi3Error */
  m->state = FMU_ERROR;
  return 0;
}

int fmu_allow(Instance* m, const char* fn, int interface, unsigned states) {
  if (m == NULL) return 0;
  const int co_simulation = m->type == 1;
  if (interface == FMU_ME && co_simulation && m->state != FMU_ERROR) {
    return fmu_fail(m, fn, "a Model Exchange function, not allowed in Co-Simulation");
  }
  if (interface == FMU_CS && !co_simulation && m->state != FMU_ERROR) {
    return fmu_fail(m, fn, "a Co-Simulation function, not allowed in Model Exchange");
  }
  if ((states & FMU_IN(m->state)) == 0) {
    const int error = m->state == FMU_ERROR;
    const int fmi3 = m->desc != NULL && m->desc->fmi3;
    return fmu_fail(m, fn, "not allowed in %s%s", fmu_state_name(m),
                    !error ? ""
                    : fmi3 ? " (after an error only fmi3FreeInstance and fmi3Reset are)"
                           : " (after an error only fmi2FreeInstance and fmi2Reset are)");
  }
  return 1;
}

const FmuVar* fmu_variable(const Instance* m, unsigned int vr, unsigned types) {
  const FmuDescription* d = m->desc;
  for (int k = 0; k < d->n; ++k) {
    if (d->vars[k].vr == vr && (types & FMU_TYPE(d->vars[k].type)) != 0) return &d->vars[k];
  }
  return NULL;
}

int fmu_may_set(const Instance* m, const FmuVar* v) {
  const int input = v->causality == FMU_INPUT;
  const int tunable_parameter = v->causality == FMU_PARAMETER && v->variability == FMU_TUNABLE;
  const int fmi3_me_state = m->desc->fmi3 && m->type == 0 && v->is_state;
  if (v->causality == FMU_CALCULATED_PARAMETER || v->causality == FMU_INDEPENDENT ||
      v->variability == FMU_CONSTANT) {
    return 0;
  }
  switch (m->state) {
    case FMU_INSTANTIATED:
      return v->initial == FMU_EXACT || v->initial == FMU_APPROX || input;
    case FMU_INITIALIZATION_MODE:
      return v->initial == FMU_EXACT || input;
    case FMU_EVENT_MODE:
      return input || tunable_parameter || (fmi3_me_state && !v->reinit);
    case FMU_CONTINUOUS_TIME_MODE:
      return (input && v->variability == FMU_CONTINUOUS) || fmi3_me_state;
    case FMU_STEP_MODE:
      return input || tunable_parameter;
    default:
      return 0;
  }
}

/* "Real", "Integer or Enumeration"... */
static void type_names(unsigned types, char* text, size_t size) {
  size_t n = 0;
  text[0] = '\0';
  for (int t = 0; t < FMU_TYPE_COUNT; ++t) {
    if ((types & FMU_TYPE(t)) == 0) continue;
    const int w = snprintf(text + n, size - n, "%s%s", n == 0 ? "" : " or ", kTypeNames[t]);
    if (w < 0 || (size_t)w >= size - n) break;
    n += (size_t)w;
  }
}

/* "an Int8", "a UInt8". */
static const char* article(const char* word) { return strchr("AEIO", word[0]) != NULL ? "an" : "a"; }

int fmu_access(Instance* m, const char* fn, int set, unsigned types, const unsigned int vr[], size_t n) {
  if (m == NULL) return 0;
  const int fmi3 = m->desc->fmi3;
  unsigned states =
      set ? FMU_IN(FMU_INSTANTIATED) | FMU_IN(FMU_INITIALIZATION_MODE) | FMU_IN(FMU_EVENT_MODE) |
                FMU_IN(FMU_CONTINUOUS_TIME_MODE) | FMU_IN(FMU_STEP_MODE)
          : FMU_IN(FMU_INITIALIZATION_MODE) | FMU_IN(FMU_EVENT_MODE) | FMU_IN(FMU_CONTINUOUS_TIME_MODE) |
                FMU_IN(FMU_STEP_MODE) | FMU_IN(FMU_STEP_FAILED) | FMU_IN(FMU_TERMINATED);
  if (fmi3 && !set) states |= FMU_IN(FMU_INSTANTIATED);
  if (!fmu_allow(m, fn, FMU_ANY, states)) return 0;
  if (n > 0 && vr == NULL) return fmu_fail(m, fn, "no value references (NULL) for %zu values", n);
  char wanted[64]; /* the expected types' names: made only for a message (this is every Get's path) */
  wanted[0] = '\0';
  for (size_t k = 0; k < n; ++k) {
    const FmuVar* v = fmu_variable(m, vr[k], types);
    if (v == NULL) {
      type_names(types, wanted, sizeof wanted);
      const FmuVar* other = fmu_variable(m, vr[k], ~0u);
      if (other == NULL) {
        return fmi3 ? fmu_fail(m, fn, "no variable has value reference %u", vr[k])
                    : fmu_fail(m, fn, "no %s variable has value reference %u", wanted, vr[k]);
      }
      return fmu_fail(m, fn, "variable %u ('%s') is %s %s, not %s %s", vr[k], other->name,
                      article(kTypeNames[other->type]), kTypeNames[other->type], article(wanted), wanted);
    }
    if (v->slot < 0 && !(fmi3 && v->causality == FMU_INDEPENDENT)) {
      return fmu_fail(m, fn, "variable %u ('%s') is outside the runtime's arrays", vr[k], v->name);
    }
    if (set && !fmu_may_set(m, v)) {
      const int never = v->causality == FMU_CALCULATED_PARAMETER || v->causality == FMU_INDEPENDENT ||
                        v->variability == FMU_CONSTANT;
      const int initial_matters = m->state == FMU_INSTANTIATED || m->state == FMU_INITIALIZATION_MODE;
      char initial[32] = "";
      if (initial_matters && v->initial != FMU_NO_INITIAL) {
        snprintf(initial, sizeof initial, ", initial %s", kInitials[v->initial]);
      }
      return fmu_fail(m, fn, "variable %u ('%s', causality %s, variability %s%s) cannot be set %s%s", vr[k],
                      v->name, kCausalities[v->causality], kVariabilities[v->variability], initial,
                      never ? "in any state" : "in ", never ? "" : fmu_state_name(m));
    }
  }
  return 1;
}
