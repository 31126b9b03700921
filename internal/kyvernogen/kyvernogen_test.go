// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyvernogen

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestGenerateIsDeterministic(t *testing.T) {
	a, b := Generate(7, 20), Generate(7, 20)
	assert.Equal(t, a, b)
	assert.Equal(t, a[:5], Generate(7, 5), "scenario i does not depend on how many are asked for")
	assert.Equal(t, a[3], GenerateOne(7, 3))
	assert.NotEqual(t, a, Generate(8, 20), "another seed gives other scenarios")
	assert.Empty(t, Generate(1, 0))
	assert.Empty(t, Generate(1, -1))
}

func TestScenarioShape(t *testing.T) {
	names := map[string]bool{}
	for _, s := range Generate(DefaultSeed, 200) {
		assert.False(t, names[s.Name], "duplicate name %s", s.Name)
		names[s.Name] = true
		assert.True(t, strings.HasPrefix(s.Name, "gen-1-"), s.Name)
		assert.GreaterOrEqual(t, len(s.Resources), 3, s.Name)
		assert.LessOrEqual(t, len(s.Resources), 6, s.Name)
		assert.GreaterOrEqual(t, len(s.Policies), 1, s.Name)
		assert.LessOrEqual(t, len(s.Policies), 3, s.Name)
		assert.NotEmpty(t, s.Features, s.Name)
		for _, doc := range s.Resources {
			var m map[string]any
			require.NoError(t, yaml.Unmarshal([]byte(doc), &m), "%s:\n%s", s.Name, doc)
			assert.Contains(t, kinds, m["kind"], s.Name)
			meta, ok := m["metadata"].(map[string]any)
			require.True(t, ok, "%s:\n%s", s.Name, doc)
			assert.NotEmpty(t, meta["name"])
		}
		for _, doc := range s.Policies {
			n, err := yaml.Parse(doc)
			require.NoError(t, err, "%s:\n%s", s.Name, doc)
			v2beta1 := n.GetApiVersion() == "kyverno.io/v2beta1"
			assert.Contains(t, []string{"kyverno.io/v1", "kyverno.io/v2beta1"}, n.GetApiVersion())
			assert.Contains(t, []string{"ClusterPolicy", "Policy"}, n.GetKind())
			rules, err := n.Pipe(yaml.Lookup("spec", "rules"))
			require.NoError(t, err)
			require.NotNil(t, rules, "%s:\n%s", s.Name, doc)
			for _, r := range rules.Content() {
				rn := yaml.NewRNode(r)
				assert.NotNil(t, rn.Field("match"), "%s:\n%s", s.Name, doc)
				assert.True(t, rn.Field("mutate") != nil || rn.Field("validate") != nil, "%s:\n%s", s.Name, doc)
				if v2beta1 {
					// v2beta1 has no inline match nor plain precondition list.
					assert.Nil(t, rn.Field("match").Value.Field("resources"), "%s:\n%s", s.Name, doc)
					if pre := rn.Field("preconditions"); pre != nil {
						assert.Equal(t, yaml.MappingNode, pre.Value.YNode().Kind, "%s:\n%s", s.Name, doc)
					}
				}
			}
		}
	}
}

// TestFeatureCoverage checks that the default scenarios (and a few more)
// exercise every template and the main matching forms.
func TestFeatureCoverage(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Generate(DefaultSeed, 80) {
		for _, f := range s.Features {
			seen[f] = true
		}
	}
	for _, f := range []string{
		"smp-labels", "smp-container-condition", "smp-add-if-not-present", "smp-global-anchor",
		"smp-patch-delete", "smp-null", "smp-data", "jsonpatch", "foreach-smp", "foreach-jsonpatch",
		"pod-rule", "context-variable", "preconditions", "match-all", "match-names", "match-selector",
		"exclude-names", "applyRules-one", "namespaced-policy", "var-request-object-name",
		"smp-volume", "smp-container-ports", "smp-patch-replace", "smp-service-ports", "smp-widget-items",
		"var-images", "var-map-value", "jsonpatch-json-form", "foreach-context",
		"v2beta1", "validate-only", "validate-pattern", "validate-any-pattern", "validate-deny",
	} {
		assert.True(t, seen[f], "feature %s never drawn", f)
	}
}

func TestYAMLHelpers(t *testing.T) {
	assert.Equal(t, "spec:\n  template:\n    x: 1\n", nest("spec.template", "x: 1\n"))
	assert.Equal(t, "x: 1\n", nest("", "x: 1\n"))
	assert.Equal(t, "- a: 1\n  b: 2\n", listItem("a: 1\nb: 2\n"))
	assert.Equal(t, "/spec/template/spec", pointer("spec.template.spec"))
	assert.Equal(t, "k:\n  - x\n", field("k", "- x\n"))
	assert.Equal(t, "a: \"1\"\nb: \"x y\"\n", pairs{{"a", "1"}, {"b", "x y"}}.yaml())
}

func TestGenerateCELIsDeterministic(t *testing.T) {
	a := GenerateCEL(7, 20)
	assert.Equal(t, a, GenerateCEL(7, 20))
	assert.Equal(t, a[:5], GenerateCEL(7, 5), "scenario i does not depend on how many are asked for")
	assert.Equal(t, a[3], GenerateCELOne(7, 3))
	assert.NotEqual(t, a, GenerateCEL(8, 20), "another seed gives other scenarios")
	assert.NotEqual(t, Generate(7, 1)[0].Resources, a[0].Resources, "CEL scenario i is not JMESPath scenario i")
	assert.Empty(t, GenerateCEL(1, 0))
}

func TestCELScenarioShape(t *testing.T) {
	celKindsSeen := map[string]bool{}
	for _, s := range GenerateCEL(DefaultSeed, 200) {
		assert.True(t, strings.HasPrefix(s.Name, "cel-1-"), s.Name)
		assert.GreaterOrEqual(t, len(s.Resources), 3, s.Name)
		assert.LessOrEqual(t, len(s.Resources), 6, s.Name)
		namespaces := map[string]bool{}
		for _, doc := range s.Resources {
			n, err := yaml.Parse(doc)
			require.NoError(t, err, "%s:\n%s", s.Name, doc)
			assert.NotEmpty(t, n.GetNamespace(), "%s: every CEL scenario resource has a namespace:\n%s", s.Name, doc)
			namespaces[n.GetNamespace()] = true
		}
		for _, doc := range s.Namespaces {
			n, err := yaml.Parse(doc)
			require.NoError(t, err, "%s:\n%s", s.Name, doc)
			assert.Equal(t, "Namespace", n.GetKind())
			assert.True(t, namespaces[n.GetName()], "%s: Namespace %s is no resource's", s.Name, n.GetName())
			assert.Equal(t, n.GetName(), n.GetLabels()["kubernetes.io/metadata.name"], s.Name)
		}
		cel := 0
		for _, doc := range s.Policies {
			n, err := yaml.Parse(doc)
			require.NoError(t, err, "%s:\n%s", s.Name, doc)
			if !strings.HasPrefix(n.GetApiVersion(), "policies.kyverno.io/") {
				continue
			}
			cel++
			celKindsSeen[n.GetKind()+" "+n.GetApiVersion()] = true
			for _, path := range [][]string{{"spec", "matchConstraints", "resourceRules"}, {"spec", "mutations"}} {
				v, err := n.Pipe(yaml.Lookup(path...))
				require.NoError(t, err)
				require.NotNil(t, v, "%s: no %v:\n%s", s.Name, path, doc)
				assert.NotEmpty(t, v.Content(), "%s: empty %v:\n%s", s.Name, path, doc)
			}
			if n.GetKind() == "NamespacedMutatingPolicy" {
				assert.NotEmpty(t, n.GetNamespace(), s.Name)
				cond, err := n.Pipe(yaml.Lookup("spec", "matchConditions", "[name=in-policy-namespace]", "expression"))
				require.NoError(t, err)
				require.NotNil(t, cond, "%s: a NamespacedMutatingPolicy keeps to its namespace:\n%s", s.Name, doc)
				assert.Contains(t, cond.YNode().Value, "has(object.metadata.namespace) && ", "%s: a NamespacedMutatingPolicy skips cluster-scoped resources:\n%s", s.Name, doc)
			}
		}
		assert.GreaterOrEqual(t, cel, 1, s.Name)
		assert.LessOrEqual(t, cel, 3, s.Name)
	}
	// Every kind and version the Kyverno CLI v1.19.1 loads.
	assert.Equal(t, map[string]bool{
		"MutatingPolicy policies.kyverno.io/v1alpha1":          true,
		"MutatingPolicy policies.kyverno.io/v1beta1":           true,
		"MutatingPolicy policies.kyverno.io/v1":                true,
		"NamespacedMutatingPolicy policies.kyverno.io/v1beta1": true,
		"NamespacedMutatingPolicy policies.kyverno.io/v1":      true,
	}, celKindsSeen)
}

// TestCELFeatureCoverage checks that the 200 CEL scenarios of the
// default seed (what make differential-kyverno runs) exercise every
// template.
func TestCELFeatureCoverage(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range GenerateCEL(DefaultSeed, 200) {
		for _, f := range s.Features {
			seen[f] = true
		}
	}
	for _, f := range []string{
		"mixed-jmespath", "mixed-jmespath-after-cel", "namespace-object-missing",
		"operations-no-create", "match-kind", "match-resource-names", "match-pods-autogen",
		"match-several-kinds", "match-wildcard", "namespaceSelector", "objectSelector", "exclude-widgets",
		"excludeResourceRules", "autogen-controllers", "failurePolicy-Fail", "failurePolicy-Ignore",
		"variable-appName", "variable-team", "variable-nsEnv", "variable-tier", "variable-containerCount",
		"matchCondition", "matchCondition-namespaceObject", "matchCondition-request", "matchCondition-true",
		"matchCondition-false", "matchCondition-variable", "mutation-uses-variable", "mutation-uses-object",
		"ac-labels", "ac-annotations", "jp-add-label", "jp-remove-annotation", "ac-securityContext",
		"ac-containers-map", "ac-container-env", "ac-sidecar", "jp-container-env", "ac-template-labels",
		"ac-replicas", "jp-replicas", "ac-configmap-data", "jp-widget-size",
		"fail-no-such-key", "fail-missing-path", "fail-conversion", "fail-matchCondition-error",
	} {
		assert.True(t, seen[f], "feature %s never drawn", f)
	}
}
