// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"testing"

	"github.com/apply-overrides/apply-overrides/internal/overridertest"
	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

func TestFieldJSON(t *testing.T) {
	op := func(o, path, value string) yamlpatch.Operation {
		if value == "" {
			return yamlpatch.Operation{Op: o, Path: path}
		}
		return yamlpatch.Operation{Op: o, Path: path, Value: overridertest.Node(t, value)}
	}
	runCases(t, map[string]filterCase{
		"replace a nested value": {
			input:    configMap("# the config\ntest.json: '{\"key\":{\"key1\":\"value\"}}' # json\n"),
			filter:   Field{FieldPath: "/data/test.json", JSON: []yamlpatch.Operation{op("replace", "/key/key1", "updated_value")}},
			expected: configMap("# the config\ntest.json: '{\"key\":{\"key1\":\"updated_value\"}}' # json\n"),
		},
		"output is compact and HTML-escaped, key order kept, new keys last": {
			input: configMap(`config.json: '{"endpoint": "https://api.example.com/?a=1&b=2", "banner": "<b>hi</b>", "replicas": 1, "n": 1.50, "debug": false}' # json
`),
			filter: Field{FieldPath: "/data/config.json", JSON: []yamlpatch.Operation{op("replace", "/debug", "true"), op("add", "/timeout", "30")}},
			expected: configMap(`config.json: '{"endpoint":"https://api.example.com/?a=1\u0026b=2","banner":"\u003cb\u003ehi\u003c/b\u003e","replicas":1,"n":1.50,"debug":true,"timeout":30}' # json
`),
		},
		"inserted objects have sorted keys, values are read as YAML 1.1": {
			input:    configMap("c.json: '{\"list\": []}' # json\n"),
			filter:   Field{FieldPath: "/data/c.json", JSON: []yamlpatch.Operation{op("add", "/list/-", "{name: x, image: 'y', on: yes, q: 'yes', v: 1.10}")}},
			expected: configMap("c.json: '{\"list\":[{\"image\":\"y\",\"name\":\"x\",\"q\":\"yes\",\"true\":true,\"v\":1.1}]}' # json\n"),
		},
		"an absent value is null": {
			input:    configMap("c.json: '{}' # json\n"),
			filter:   Field{FieldPath: "/data/c.json", JSON: []yamlpatch.Operation{op("add", "/a", "")}},
			expected: configMap("c.json: '{\"a\":null}' # json\n"),
		},
		"ops apply in order": {
			input: configMap(`deploy.json: |
  {
    "spec": {"replicas": 3, "containers": [{"name": "nginx", "image": "nginx:1.19.0"}]}
  }
`),
			filter: Field{FieldPath: "/data/deploy.json", JSON: []yamlpatch.Operation{
				op("replace", "/spec/replicas", "5"),
				op("add", "/spec/containers/-", "{name: nginx-helper, image: 'nginx:1.19.1'}"),
				op("remove", "/spec/containers/0/image", ""),
			}},
			expected: configMap(`deploy.json: |-
  {"spec":{"replicas":5,"containers":[{"name":"nginx"},{"image":"nginx:1.19.1","name":"nginx-helper"}]}}
`),
		},
		"an annotation addressed with an escaped pointer": {
			input:    withMeta("annotations:\n  example.com/config: '{\"enabled\": false, \"level\": \"info\"}' # config\n"),
			filter:   Field{FieldPath: "/metadata/annotations/example.com~1config", JSON: []yamlpatch.Operation{op("replace", "/enabled", "true")}},
			expected: withMeta("annotations:\n  example.com/config: '{\"enabled\":true,\"level\":\"info\"}' # config\n"),
		},
		"an empty string is left alone": {
			input:    configMap("c.json: \"\" # empty\n"),
			filter:   Field{FieldPath: "/data/c.json", JSON: []yamlpatch.Operation{op("add", "/a", "1")}},
			expected: configMap("c.json: \"\" # empty\n"),
		},
		"an unchanged compact document keeps its bytes": {
			input:    configMap("c.json: \"{\\\"a\\\":1}\" # double quoted\n"),
			filter:   Field{FieldPath: "/data/c.json", JSON: []yamlpatch.Operation{op("replace", "/a", "1")}},
			expected: configMap("c.json: \"{\\\"a\\\":1}\" # double quoted\n"),
		},
		"neither JSON nor YAML empties the field": {
			input:    configMap("c.json: '{\"a\": 1}' # json\n"),
			filter:   Field{FieldPath: "/data/c.json"},
			expected: configMap("c.json: '' # json\n"),
		},
	})
}

func TestFieldYAML(t *testing.T) {
	op := func(o, path, value string) yamlpatch.Operation {
		if value == "" {
			return yamlpatch.Operation{Op: o, Path: path}
		}
		return yamlpatch.Operation{Op: o, Path: path, Value: overridertest.Node(t, value)}
	}
	runCases(t, map[string]filterCase{
		"re-serialised as YAML 1.1 with sorted keys and no comments": {
			input: configMap(`# the flags
flags.yaml: | # literal
  # feature flags
  debug: no
  version: 1.10
  country: NO
  retries: 3
  name: app
`),
			filter: Field{FieldPath: "/data/flags.yaml", YAML: []yamlpatch.Operation{op("replace", "/retries", "5")}},
			expected: configMap(`# the flags
flags.yaml: | # literal
  country: false
  debug: false
  name: app
  retries: 5
  version: 1.1
`),
		},
		"multiple ops, escaped keys, unindented sequences": {
			input: configMap(`nginx.yaml: |
  server:
    listen: 80
    location /:
      root: /usr/share/nginx/html
      index:
        - index.html
    error_page:
      - code: 500
`),
			filter: Field{FieldPath: "/data/nginx.yaml", YAML: []yamlpatch.Operation{
				op("replace", "/server/location ~1/root", "/var/www/html"),
				op("add", "/server/error_page/-", "{code: 400}"),
				op("remove", "/server/location ~1/index", ""),
			}},
			expected: configMap(`nginx.yaml: |
  server:
    error_page:
    - code: 500
    - code: 400
    listen: 80
    location /:
      root: /var/www/html
`),
		},
		"YAML wins over JSON": {
			input:    configMap("c.yaml: | # yaml\n  a: 1\n"),
			filter:   Field{FieldPath: "/data/c.yaml", JSON: []yamlpatch.Operation{op("replace", "/a", "2")}, YAML: []yamlpatch.Operation{op("replace", "/a", "3")}},
			expected: configMap("c.yaml: | # yaml\n  a: 3\n"),
		},
	})
}

func TestFieldErrors(t *testing.T) {
	op := func(o, path, value string) yamlpatch.Operation {
		return yamlpatch.Operation{Op: o, Path: path, Value: overridertest.Node(t, value)}
	}
	replace := []yamlpatch.Operation{op("replace", "/a", "1")}
	runCases(t, map[string]filterCase{
		"a missing field": {
			input:       configMap("test.json: '{}' # json\n"),
			filter:      Field{FieldPath: "/data/missing.json", JSON: replace},
			expectedErr: `/data/missing.json: object has no key "missing.json": JSON pointer error`,
		},
		"an index past the end": {
			input:       pod("containers:\n- name: a # a\n"),
			filter:      Field{FieldPath: "/spec/containers/3/name", JSON: replace},
			expectedErr: "JSON pointer error",
		},
		"a non-string field": {
			input:       deployment("containers: [] # none\n"),
			filter:      Field{FieldPath: "/spec/replicas", JSON: replace},
			expectedErr: "Get object's value by overrider's path(/spec/replicas) is not string",
		},
		"a map field": {
			input:       configMap("a: b # b\n"),
			filter:      Field{FieldPath: "/data", JSON: replace},
			expectedErr: "Get object's value by overrider's path(/data) is not string",
		},
		"an empty field path is the whole object": {
			input:       configMap("a: b # b\n"),
			filter:      Field{FieldPath: "", JSON: replace},
			expectedErr: "Get object's value by overrider's path() is not string",
		},
		"a string that is not JSON": {
			input:       configMap("c.json: 'a: 1' # yaml, not json\n"),
			filter:      Field{FieldPath: "/data/c.json", JSON: replace},
			expectedErr: "/data/c.json: invalid state detected",
		},
		"a JSON scalar document": {
			input:       configMap("c.json: '\"abc\"' # a JSON string\n"),
			filter:      Field{FieldPath: "/data/c.json", JSON: replace},
			expectedErr: "/data/c.json: json: cannot unmarshal string into Go value of type map[string]*jsonpatch.lazyNode",
		},
		"a JSON patch error": {
			input:       configMap("c.json: '{\"b\": 1}' # json\n"),
			filter:      Field{FieldPath: "/data/c.json", JSON: replace},
			expectedErr: "/data/c.json: replace operation does not apply: doc is missing key: /a: missing value",
		},
		"an unsupported operation": {
			input:       configMap("c.json: '{\"a\": 1}' # json\n"),
			filter:      Field{FieldPath: "/data/c.json", JSON: []yamlpatch.Operation{op("merge", "/a", "2")}},
			expectedErr: `invalid operation {"op":"merge","path":"/a","value":2}: unsupported operation`,
		},
		"a YAML parse error": {
			input:       configMap("c.yaml: '[a, b' # broken\n"),
			filter:      Field{FieldPath: "/data/c.yaml", YAML: replace},
			expectedErr: "/data/c.yaml: yaml: line 1: did not find expected ',' or ']'",
		},
		"a YAML scalar document": {
			input:       configMap("c.yaml: abc # a scalar\n"),
			filter:      Field{FieldPath: "/data/c.yaml", YAML: replace},
			expectedErr: "json: cannot unmarshal string into Go value of type map[string]*jsonpatch.lazyNode",
		},
	})
}
