/* yaml_limits.c - bounds a YAML config before it is loaded into a document.
 *
 * libyaml's document loader keeps every node and its scanner does work per
 * token that grows with the nesting depth, so a flow sequence nested a
 * million deep hangs it and a large file costs memory in proportion. The
 * config loader therefore first refuses a file larger than
 * CONFIG_YAML_MAX_BYTES, then streams the events once (no document built)
 * and stops at the first collection nested deeper than
 * CONFIG_YAML_MAX_DEPTH or after CONFIG_YAML_MAX_EVENTS events; only then is
 * the document parsed. A config of aotc's options is a few levels deep and a
 * few hundred events long. */
#include "yaml_limits.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

int config_yaml_read(const char *path, unsigned char **buf, size_t *len, aotc_diag *d) {
  uint8_t *data;
  if (read_regular_file(path, CONFIG_YAML_MAX_BYTES, "config file", &data, len, d)) return -1;
  *buf = data;
  return 0;
}

int config_yaml_check(const unsigned char *buf, size_t len, const char *name, aotc_diag *d) {
  if (len > CONFIG_YAML_MAX_BYTES)
    return diag_error(d, "%s: config has %zu bytes, more than the limit of %d bytes", name, len,
                      CONFIG_YAML_MAX_BYTES);
  yaml_parser_t p;
  if (!yaml_parser_initialize(&p)) return diag_error(d, "%s: cannot initialise the YAML parser", name);
  yaml_parser_set_input_string(&p, buf, len);
  int depth = 0, rc = 0;
  long events = 0;
  for (;;) {
    yaml_event_t ev;
    /* a syntax error is left to the loader, which reports it with its line */
    if (!yaml_parser_parse(&p, &ev)) break;
    yaml_event_type_t t = ev.type;
    size_t line = ev.start_mark.line + 1, col = ev.start_mark.column + 1;
    yaml_event_delete(&ev);
    if (t == YAML_STREAM_END_EVENT) break;
    if (++events > CONFIG_YAML_MAX_EVENTS) {
      rc = diag_error(d, "%s line %zu column %zu: config has more than %d YAML nodes (the limit); "
                      "a config of aotc options is much smaller", name, line, col,
                      CONFIG_YAML_MAX_EVENTS);
      break;
    }
    if (t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT) {
      if (++depth > CONFIG_YAML_MAX_DEPTH) {
        rc = diag_error(d, "%s line %zu column %zu: YAML nested more than %d levels deep (the "
                        "limit); aotc options are at most a few levels deep", name, line, col,
                        CONFIG_YAML_MAX_DEPTH);
        break;
      }
    } else if (t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT) {
      depth--;
    }
  }
  yaml_parser_delete(&p);
  return rc;
}
