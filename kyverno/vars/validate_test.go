// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const bgRegex = `request\.|element|elementIndex|@|images|images\.|image\.|([a-z_0-9]+\()[^{}]`

func TestValidateVariables(t *testing.T) {
	cases := map[string]struct {
		rule       string
		names      []string
		background bool
		err        string
	}{
		"err-user-info-variable-in-background-mode": {background: true, rule: `
name: created-by
match: {any: [{resources: {kinds: [Pod]}}]}
mutate: {patchStrategicMerge: {metadata: {annotations: {created-by: "{{ request.userInfo.username }}"}}}}`,
			err: "only select variables are allowed in background mode. Set spec.background=false to disable background mode for this policy rule: variable {{ request.userInfo.username }} is not allowed "},
		"user info allowed without background": {rule: `
name: r
mutate: {patchStrategicMerge: {metadata: {annotations: {a: "{{ request.userInfo.username }}", b: "{{serviceAccountName}}"}}}}`},
		"service account in background": {background: true, rule: `
name: r
mutate: {patchStrategicMerge: {metadata: {annotations: {b: "x-{{serviceAccountName}}"}}}}`,
			err: "only select variables are allowed in background mode. Set spec.background=false to disable background mode for this policy rule: variable {{serviceAccountName}} is not allowed "},
		"subjects in background": {background: true, rule: `
name: r
match: {any: [{resources: {kinds: [Pod]}}, {subjects: [{kind: User, name: x}]}]}`,
			err: "only select variables are allowed in background mode. Set spec.background=false to disable background mode for this policy rule: invalid variable used at path: spec/rules[0]/match/any[1]/subjects "},
		"exclude roles in background": {background: true, rule: `
name: r
match: {any: [{resources: {kinds: [Pod]}}]}
exclude: {all: [{clusterRoles: [admin]}]}`,
			err: "only select variables are allowed in background mode. Set spec.background=false to disable background mode for this policy rule: invalid variable used at path: spec/rules[0]/exclude/all[0]/clusterRoles "},
		"err-smp-dollar-paren-reference": {background: true, rule: `
name: set-db-host
match: {any: [{resources: {kinds: [Deployment]}}]}
mutate:
  patchStrategicMerge:
    spec:
      template:
        spec:
          containers:
            - name: wordpress
              env:
                - name: WORDPRESS_DB_HOST
                  value: $(MYSQL_SERVICE)`,
			err: "policy contains invalid variables: variable substitution failed for rule set-db-host: got nil resolved variable $(MYSQL_SERVICE) at path /mutate/patchStrategicMerge/spec/template/spec/containers/0/env/0/value: <nil>"},
		"err-jp-variable-in-path": {background: true, rule: `
name: label-by-name
match: {any: [{resources: {kinds: [Pod]}}]}
mutate:
  patchesJson6902: |-
    - op: add
      path: /metadata/labels/{{request.object.metadata.name}}
      value: "true"`,
			err: `policy contains invalid variables: rule "label-by-name" should not have variables in patchesJSON6902 path section`},
		"variable in a patch value is fine": {background: true, rule: `
name: r
mutate:
  patchesJson6902: |-
    - op: add
      path: /metadata/labels/x
      value: "{{request.object.metadata.name}}"`},
		"variable in match": {rule: `
name: r
match: {any: [{resources: {kinds: [Pod], names: ["{{request.object.metadata.name}}"]}}]}`,
			err: `policy contains invalid variables: rule "r" should not have variables in match section`},
		"variable in exclude": {rule: `
name: r
exclude: {any: [{resources: {names: ['\{{x}}']}}]}`,
			err: `policy contains invalid variables: rule "r" should not have variables in exclude section`},
		"unknown variable": {background: true, rule: `
name: r
mutate: {patchStrategicMerge: {metadata: {labels: {a: "{{ foo.bar }}"}}}}`,
			err: `policy contains invalid variables: variable substitution failed for rule r: variable foo.bar must match regex "` + bgRegex + `" or patterns []`},
		"quotes are dropped before matching": {rule: `
name: r
context: [{name: my-map, variable: {value: {a: 1}}}]
mutate: {patchStrategicMerge: {metadata: {labels: {a: '{{ "my-map".a }}'}}}}`},
		"context entry names": {background: true, rule: `
name: r
context:
  - {name: cm, configMap: {name: x, namespace: y}}
  - {name: v, variable: {jmesPath: request.object.metadata.name}}
mutate:
  foreach:
    - list: request.object.spec.containers
      context: [{name: fe, variable: {value: 1}}]
      patchStrategicMerge: {metadata: {labels: {a: "{{ cm.data.a }}{{ v }}{{ fe.x }}{{ element.name }}", b: "{{ cm.other }}"}}}`,
			err: `policy contains invalid variables: variable substitution failed for rule r: variable cm.other must match regex "` + bgRegex + `" or patterns [cm.data cm.metadata cm.data.* cm.metadata.* v* fe*]`},
		"extra names are added once": {background: true, names: []string{"v", "extra"}, rule: `
name: r
context: [{name: v, variable: {value: 1}}]
mutate: {patchStrategicMerge: {a: "{{ extra.x }}", b: "{{ nope }}"}}`,
			err: `policy contains invalid variables: variable substitution failed for rule r: variable nope must match regex "` + bgRegex + `" or patterns [v* extra*]`},
		"serviceAccountName regex without background": {rule: `
name: r
mutate: {patchStrategicMerge: {a: "{{ serviceAccountNamespace }}", b: "{{ other }}"}}`,
			err: `policy contains invalid variables: variable substitution failed for rule r: variable other must match regex "request|serviceAccountName|serviceAccountNamespace|element|elementIndex|@|images|image|([a-z_0-9]+\()[^{}]" or patterns []`},
		"functions are allowed": {background: true, rule: `
name: r
mutate: {patchStrategicMerge: {a: "{{ to_upper('x') }}", b: "{{ @ }}", c: "{{ images.containers.x.tag }}"}}`},
		"syntax error": {background: true, rule: `
name: r
mutate: {patchStrategicMerge: {a: "{{ request.object.[ }}"}}`,
			err: "policy contains invalid variables: variable substitution failed for rule r: failed to resolve request.object.[ at path /mutate/patchStrategicMerge/a: invalid JMESPath query request.object.[: SyntaxError: Incomplete expression"},
		"nested variables": {background: true, rule: `
name: r
mutate: {patchStrategicMerge: {a: "{{ images.containers.\"{{element.name}}\".tag }}"}}`,
			err: "variable 'element.name' present outside of foreach at path /mutate/patchStrategicMerge/a"},
		"err-element-variable-outside-foreach": {background: true, rule: `
name: r
preconditions: {all: [{key: "{{ element.name }}", operator: Equals, value: x}]}
mutate: {foreach: [{list: "request.object.spec.containers", patchStrategicMerge: {name: "{{ element.name }}"}}]}`,
			err: "variable 'element.name' present outside of foreach at path /preconditions/all/0/key"},
		"elementIndex outside foreach": {background: true, rule: `
name: r
mutate: {patchesJson6902: "- op: remove\n  path: /spec/containers/{{elementIndex}}"}`,
			err: `policy contains invalid variables: rule "r" should not have variables in patchesJSON6902 path section`},
		"elementIndex inside foreach": {background: true, rule: `
name: r
mutate: {foreach: [{list: "request.object.spec.containers", patchesJson6902: "- op: remove\n  path: /spec/containers/{{elementIndex}}"}]}`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := ValidateVariables(fromYAML(t, tc.rule), tc.names, tc.background)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
		})
	}
}

func TestValidatePolicyVariables(t *testing.T) {
	policy := fromYAML(t, `
apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: p
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{"x": "{{ request.userInfo }}"}'
spec:
  rules:
    - name: a
      match: {any: [{resources: {kinds: [Pod]}}]}
    - name: b
      match: {any: [{resources: {kinds: [Pod]}}, {roles: [r]}]}
`)
	rules := at(policy, "spec", "rules").([]any)
	err := ValidatePolicyVariables(policy, rules, true)
	require.EqualError(t, err, "only select variables are allowed in background mode. Set spec.background=false to disable background mode for this policy rule: invalid variable used at path: spec/rules[1]/match/any[1]/roles ")
	require.NoError(t, ValidatePolicyVariables(policy, rules, false))
	require.NoError(t, ValidatePolicyVariables(policy, rules[:1], true), "the last-applied annotation is not scanned")

	policy = fromYAML(t, `
metadata: {annotations: {note: "{{ request.roles }}"}}
spec: {rules: [{name: a, mutate: {targets: [{kind: x}]}}]}`)
	require.NoError(t, ValidatePolicyVariables(policy, nil, true), "mutateExisting policies skip the user-variable scan")
	policy = fromYAML(t, `
metadata: {annotations: {note: "{{ request.roles }}"}}
spec: {rules: [{name: a}]}`)
	require.EqualError(t, ValidatePolicyVariables(policy, nil, true), "only select variables are allowed in background mode. Set spec.background=false to disable background mode for this policy rule: variable {{ request.roles }} is not allowed ")

	rules = []any{fromYAML(t, `{name: r, mutate: {patchStrategicMerge: {a: "{{ target.x }}"}, targets: [{kind: Pod}]}}`)}
	require.NoError(t, ValidatePolicyVariables(map[string]any{}, rules, true), "target. is allowed with targets")
}

func TestVariables(t *testing.T) {
	assert.Equal(t, []string{"{{a}}", "{{ b }}"}, Variables(`{{a}} x {{ b }} \{{c}}`))
	assert.Equal(t, []string{"{{x}}"}, Variables(`{{ to_upper('{{x}}') }}`))
	assert.Equal(t, []string{"{{a}}"}, Variables(`{{a}}{{b}}`), "the second of two adjacent variables is found once the first is replaced")
	assert.Nil(t, Variables("plain"))
}
