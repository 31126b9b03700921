// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/apply-overrides/apply-overrides/internal/conformancetest"
)

// TestV2beta1TwinsInV1 runs the v2beta1 conformance cases with their
// policies moved to kyverno.io/v1: `kyverno apply` converts v2beta1
// policies to the v1 types, so the twins give the same output.
func TestV2beta1TwinsInV1(t *testing.T) {
	twins := 0
	for _, c := range conformancetest.Load(t, "../testdata/conformance", "kyverno") {
		if !strings.HasPrefix(c.Name, "v2beta1-") {
			continue
		}
		twins++
		t.Run(c.ID, func(t *testing.T) {
			for _, p := range c.Policies {
				require.Equal(t, "kyverno.io/v2beta1", p["apiVersion"], "a v2beta1 case's policies are v2beta1")
				p["apiVersion"] = "kyverno.io/v1"
			}
			conformancetest.RunDialect(t, c, Dialect{})
		})
	}
	assert.GreaterOrEqual(t, twins, 2)
}

func TestV2beta1Check(t *testing.T) {
	policy := func(rule string) string {
		return "apiVersion: kyverno.io/v2beta1\nkind: ClusterPolicy\nmetadata: {name: p}\nspec:\n  rules:\n  - name: r\n    match: {any: [{resources: {kinds: [ConfigMap]}}]}\n" + rule
	}
	const mutate = "    mutate: {patchStrategicMerge: {metadata: {labels: {a: b}}}}\n"
	for name, c := range map[string]struct{ rule, want string }{
		"any/all preconditions and every v2beta1 operator": {"    preconditions:\n      any: [{key: a, operator: DurationLessThan, value: 1h, message: m}]\n      all: [{key: a, operator: AllNotIn, value: [b]}]\n" + mutate, ""},
		"exclude any":                       {"    exclude: {any: [{resources: {names: [x]}}]}\n" + mutate, ""},
		"validate with deny any":            {"    validate: {message: m, deny: {conditions: {any: [{key: a, operator: Equals, value: b}]}}}\n", ""},
		"verifyImages with imageReferences": {"    verifyImages: [{imageReferences: [\"ghcr.io/*\"], failureAction: Enforce, mutateDigest: false}]\n", ""},
		"match subjects":                    {"    exclude: {subjects: [{kind: User, name: a}]}\n" + mutate, "spec.rules[0].exclude.subjects: Forbidden: unknown field"},
		"condition message not a string":    {"    preconditions: {all: [{key: a, operator: Equals, value: a, message: [x]}]}\n" + mutate, `spec.rules[0].preconditions.all[0].message: Invalid value: "array": must be of type string`},
		"deny NotIn":                        {"    validate: {deny: {conditions: {all: [{key: a, operator: NotIn, value: [b]}]}}}\n", `spec.rules[0].validate.deny.conditions.all[0].operator: Unsupported value: "NotIn"`},
		"verifyImages key":                  {"    verifyImages: [{imageReferences: [\"ghcr.io/*\"], key: k}]\n", "spec.rules[0].verifyImages[0].key: Forbidden: unknown field"},
	} {
		_, errs := compileSet(t, nil, policy(c.rule))
		if c.want == "" {
			assert.Empty(t, errs, name)
			continue
		}
		require.Len(t, errs, 1, name)
		assert.ErrorContains(t, errs[0], c.want, name)
	}
}
