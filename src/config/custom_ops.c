/* custom_ops.c - the custom_operators config key: user kernels for CUSTOM
 * operators (see config.h for the syntax).
 *
 * This file only records what the user wrote, with where it came from, and
 * checks the form of each field (a C identifier for the function, a known
 * dtype and non-negative dims for an output rule). Whether the source file
 * exists and defines the function, and whether the model uses the code, is
 * checked when a model is compiled (src/ops/op_custom.c), so that the message
 * can name the model's op too. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static const char *const FIELDS = "code, source, function, scratch_bytes, outputs";

static aotc_custom_op *find_or_add(aotc_config *c, const char *code, const char *where) {
  for (int i = 0; i < c->n_custom_ops; i++)
    if (c->custom_ops[i].code && !strcmp(c->custom_ops[i].code, code)) return &c->custom_ops[i];
  c->custom_ops = xrealloc(c->custom_ops, (size_t)(c->n_custom_ops + 1) * sizeof *c->custom_ops);
  aotc_custom_op *o = &c->custom_ops[c->n_custom_ops++];
  memset(o, 0, sizeof *o);
  o->code = xstrdup(code);
  o->noutputs = -1;
  o->where = xstrdup(where);
  return o;
}

static int is_identifier(const char *s) {
  if (!s || !*s || (*s >= '0' && *s <= '9')) return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '_'))
      return 0;
  return 1;
}

static int parse_dtype(const char *s) {
  static const int dts[] = {DT_FLOAT32, DT_FLOAT16, DT_INT32, DT_UINT8, DT_INT64,
                            DT_BOOL,    DT_INT16,   DT_INT8};
  for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++)
    if (!strcmp(s, dtype_name(dts[i]))) return dts[i];
  return -1;
}

static int parse_dim(const char *s, int32_t *v) {
  char *end;
  errno = 0;
  long x = strtol(s, &end, 10);
  while (*end == ' ') end++;
  if (end == s || *end || errno || x < 0 || x > INT32_MAX) return -1;
  *v = (int32_t)x;
  return 0;
}

static int add_output(aotc_custom_op *o, const char *dtype, const int32_t *shape, int rank,
                      const char *where, aotc_diag *d) {
  int dt = parse_dtype(dtype);
  if (dt < 0)
    return diag_error(d, "custom_operators '%s' (%s): output dtype '%s' is not one of float32, float16, int32, uint8, int64, bool, int16, int8",
                      o->code, where, dtype);
  if (rank < 0 || rank > 8)
    return diag_error(d, "custom_operators '%s' (%s): an output shape has rank %d; give at most 8 dims",
                      o->code, where, rank);
  if (o->noutputs < 0) o->noutputs = 0;
  o->outputs = xrealloc(o->outputs, (size_t)(o->noutputs + 1) * sizeof *o->outputs);
  aotc_custom_output *x = &o->outputs[o->noutputs++];
  memset(x, 0, sizeof *x);
  x->dtype = dt;
  x->rank = rank;
  for (int i = 0; i < rank; i++) x->shape[i] = shape[i];
  return 0;
}

/* "int8[1,10];float32[4]" */
static int outputs_text(aotc_custom_op *o, const char *text, const char *where, aotc_diag *d) {
  free(o->outputs);
  o->outputs = NULL;
  o->noutputs = 0;
  char *s = xstrdup(text);
  int rc = 0;
  for (char *item = s; item && *item && rc == 0;) {
    char *next = strchr(item, ';');
    if (next) *next++ = 0;
    while (*item == ' ') item++;
    char *br = strchr(item, '['), *end = br ? strchr(br, ']') : NULL;
    if (!br || !end || end[1]) {
      rc = diag_error(d, "custom_operators '%s' (%s): output '%s' is not of the form dtype[d0,d1,...] (e.g. int8[1,10])",
                      o->code, where, item);
      break;
    }
    *br = 0;
    *end = 0;
    int32_t shape[9];
    int rank = 0;
    for (char *p = br + 1; *p && rc == 0;) {
      char *comma = strchr(p, ',');
      if (comma) *comma = 0;
      if (rank >= 9 || parse_dim(p, &shape[rank]) != 0)
        rc = diag_error(d, "custom_operators '%s' (%s): output dim '%s' is not a non-negative integer (at most 8 dims)",
                        o->code, where, p);
      rank++;
      p = comma ? comma + 1 : p + strlen(p);
    }
    if (rc == 0) rc = add_output(o, item, shape, rank, where, d);
    item = next;
  }
  free(s);
  return rc;
}

/* Sets one field from text. dir: directory relative sources resolve against
 * ("" for the working directory). */
static int set_field(aotc_custom_op *o, const char *field, const char *val, const char *dir,
                     const char *where, aotc_diag *d) {
  if (!strcmp(field, "source")) {
    if (!*val) return diag_error(d, "custom_operators '%s' (%s): source is empty; give the kernel's .c file", o->code, where);
    free(o->source);
    o->source = (*dir && val[0] != '/') ? xasprintf("%s/%s", dir, val) : xstrdup(val);
  } else if (!strcmp(field, "function")) {
    if (!is_identifier(val))
      return diag_error(d, "custom_operators '%s' (%s): function '%s' is not a C identifier", o->code, where, val);
    free(o->function);
    o->function = xstrdup(val);
  } else if (!strcmp(field, "scratch_bytes")) {
    char *end;
    errno = 0;
    long v = strtol(val, &end, 0);
    if (end == val || *end || errno || v < 0 || v > INT32_MAX)
      return diag_error(d, "custom_operators '%s' (%s): scratch_bytes '%s' is not an integer in 0..2147483647", o->code, where, val);
    o->scratch_bytes = v;
  } else if (!strcmp(field, "outputs")) {
    return outputs_text(o, val, where, d);
  } else {
    return diag_error(d, "custom_operators '%s' (%s): unknown field '%s'; fields: %s", o->code, where, field, FIELDS);
  }
  return 0;
}

int config_custom_ops_flag(aotc_config *c, const char *rest, const char *value, aotc_diag *d) {
  const char *dot = strrchr(rest, '.');
  char *where = xasprintf("flag --custom_operators.%s", rest);
  int rc = 0;
  if (!dot || dot == rest || !dot[1]) {
    rc = diag_error(d, "%s: write --custom_operators.<CODE>.<field> VALUE with a field of: %s", where, FIELDS);
  } else if (!value) {
    rc = diag_error(d, "%s needs a value", where);
  } else {
    char *code = xstrndup(rest, (size_t)(dot - rest));
    char *field = xstrdup(dot + 1);
    for (char *p = field; *p; p++)
      if (*p == '-') *p = '_';
    char *ow = xasprintf("flags --custom_operators.%s.*", code);
    aotc_custom_op *o = find_or_add(c, code, ow);
    free(ow);
    if (!strcmp(field, "code")) {
      if (strcmp(value, code) != 0)
        rc = diag_error(d, "%s: the code is the flag's <CODE> part ('%s'), got '%s'", where, code, value);
    } else {
      rc = set_field(o, field, value, "", where, d);
    }
    free(code);
    free(field);
  }
  free(where);
  return rc;
}

/* ---- YAML ---- */

static const char *scalar(const yaml_node_t *n) {
  return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int yaml_outputs(aotc_custom_op *o, yaml_document_t *doc, yaml_node_t *v, const char *file,
                        aotc_diag *d) {
  char where[600];
  snprintf(where, sizeof where, "%s line %zu", file, v->start_mark.line + 1);
  if (scalar(v)) return outputs_text(o, scalar(v), where, d);
  if (v->type != YAML_SEQUENCE_NODE)
    return diag_error(d, "custom_operators '%s' (%s): outputs must be a list of {dtype: T, shape: [d0, ...]}", o->code, where);
  free(o->outputs);
  o->outputs = NULL;
  o->noutputs = 0;
  for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
    yaml_node_t *m = yaml_document_get_node(doc, *it);
    snprintf(where, sizeof where, "%s line %zu", file, m ? m->start_mark.line + 1 : 0);
    if (!m || m->type != YAML_MAPPING_NODE)
      return diag_error(d, "custom_operators '%s' (%s): each output must be a mapping {dtype: T, shape: [d0, ...]}", o->code, where);
    const char *dt = NULL;
    int32_t shape[9];
    int rank = -1;
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
      const char *k = scalar(yaml_document_get_node(doc, p->key));
      yaml_node_t *val = yaml_document_get_node(doc, p->value);
      if (k && !strcmp(k, "dtype") && scalar(val)) {
        dt = scalar(val);
      } else if (k && !strcmp(k, "shape") && val && val->type == YAML_SEQUENCE_NODE) {
        rank = 0;
        for (yaml_node_item_t *e = val->data.sequence.items.start; e < val->data.sequence.items.top; e++) {
          const char *sv = scalar(yaml_document_get_node(doc, *e));
          if (rank >= 9 || !sv || parse_dim(sv, &shape[rank]) != 0)
            return diag_error(d, "custom_operators '%s' (%s): output shape entries must be non-negative integers (at most 8)", o->code, where);
          rank++;
        }
      } else {
        return diag_error(d, "custom_operators '%s' (%s): an output takes dtype: T and shape: [d0, ...], got '%s'",
                          o->code, where, k ? k : "?");
      }
    }
    if (!dt || rank < 0)
      return diag_error(d, "custom_operators '%s' (%s): an output needs both dtype and shape", o->code, where);
    if (add_output(o, dt, shape, rank, where, d) != 0) return -1;
  }
  return 0;
}

int config_custom_ops_yaml(aotc_config *c, void *docp, void *nodep, const char *file, aotc_diag *d) {
  yaml_document_t *doc = docp;
  yaml_node_t *v = nodep;
  if (v->type == YAML_SCALAR_NODE && !*scalar(v)) return 0;
  if (v->type != YAML_SEQUENCE_NODE)
    return diag_error(d, "custom_operators (%s line %zu) must be a list of {code, source, function, ...} mappings",
                      file, v->start_mark.line + 1);
  /* sources resolve against the config file's directory */
  char *dir = xstrdup(file && strcmp(file, "<string>") ? file : "");
  char *slash = strrchr(dir, '/');
  if (slash) *slash = 0;
  else dir[0] = 0;
  int rc = 0;
  for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top && !rc; it++) {
    yaml_node_t *m = yaml_document_get_node(doc, *it);
    char where[600];
    snprintf(where, sizeof where, "%s line %zu", file, m ? m->start_mark.line + 1 : 0);
    if (!m || m->type != YAML_MAPPING_NODE) {
      rc = diag_error(d, "custom_operators (%s): each entry must be a mapping with %s", where, FIELDS);
      break;
    }
    const char *code = NULL;
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
      const char *k = scalar(yaml_document_get_node(doc, p->key));
      if (k && !strcmp(k, "code")) code = scalar(yaml_document_get_node(doc, p->value));
    }
    if (!code || !*code) {
      rc = diag_error(d, "custom_operators (%s): the entry has no code; give the model's custom code (code: MY_OP)", where);
      break;
    }
    for (int i = 0; i < c->n_custom_ops && !rc; i++)
      if (!strcmp(c->custom_ops[i].code, code))
        rc = diag_error(d, "custom_operators (%s): code '%s' is registered twice (first %s); keep one entry",
                        where, code, c->custom_ops[i].where);
    if (rc) break;
    aotc_custom_op *o = find_or_add(c, code, where);
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top && !rc; p++) {
      yaml_node_t *kn = yaml_document_get_node(doc, p->key), *val = yaml_document_get_node(doc, p->value);
      const char *k = scalar(kn);
      char fw[600];
      snprintf(fw, sizeof fw, "%s line %zu", file, kn ? kn->start_mark.line + 1 : 0);
      if (!k) {
        rc = diag_error(d, "custom_operators '%s' (%s): field names must be plain keys", code, fw);
      } else if (!strcmp(k, "code")) {
        continue;
      } else if (!strcmp(k, "outputs")) {
        rc = yaml_outputs(o, doc, val, file, d);
      } else if (!scalar(val)) {
        rc = diag_error(d, "custom_operators '%s' (%s): field '%s' takes a value", code, fw, k);
      } else {
        rc = set_field(o, k, scalar(val), dir, fw, d);
      }
    }
  }
  free(dir);
  return rc;
}

void config_custom_ops_free(aotc_config *c) {
  for (int i = 0; i < c->n_custom_ops; i++) {
    aotc_custom_op *o = &c->custom_ops[i];
    free(o->code);
    free(o->source);
    free(o->function);
    free(o->outputs);
    free(o->where);
  }
  free(c->custom_ops);
  c->custom_ops = NULL;
  c->n_custom_ops = 0;
}

void config_custom_ops_help(FILE *out) {
  fprintf(out, "  %-36s %s\n", "--custom_operators.<CODE>.source F",
          "C99 kernel file for the model's CUSTOM('<CODE>') ops (YAML: custom_operators: [{code, source, ...}], "
          "relative to the config file)");
  fprintf(out, "  %-36s %s\n", "    .function NAME", "its int32_t NAME(const aot_custom_args *a) (runtime/aot_custom.h)");
  fprintf(out, "  %-36s %s\n", "    .scratch_bytes N", "scratch buffer bytes for the call (default: 0)");
  fprintf(out, "  %-36s %s\n", "    .outputs T[d,..];..", "output dtypes and shapes, when the model has no static ones");
}

static void put_str(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
    else if (*p < 0x20 || *p == 0x7f) fprintf(out, "\\x%02x", *p);
    else fputc(*p, out);
  }
  fputc('"', out);
}

void config_custom_ops_dump(const aotc_config *c, FILE *out) {
  if (c->n_custom_ops == 0) return;
  fputs("custom_operators:\n", out);
  for (int i = 0; i < c->n_custom_ops; i++) {
    const aotc_custom_op *o = &c->custom_ops[i];
    fputs("  - code: ", out);
    put_str(out, o->code);
    if (o->source) {
      fputs("\n    source: ", out);
      put_str(out, o->source);
    }
    if (o->function) fprintf(out, "\n    function: %s", o->function);
    fprintf(out, "\n    scratch_bytes: %ld\n", o->scratch_bytes);
    if (o->noutputs >= 0) {
      fputs("    outputs: [", out);
      for (int k = 0; k < o->noutputs; k++) {
        fprintf(out, "%s{dtype: %s, shape: [", k ? ", " : "", dtype_name(o->outputs[k].dtype));
        for (int j = 0; j < o->outputs[k].rank; j++) fprintf(out, "%s%d", j ? ", " : "", (int)o->outputs[k].shape[j]);
        fputs("]}", out);
      }
      fputs("]\n", out);
    }
  }
}
