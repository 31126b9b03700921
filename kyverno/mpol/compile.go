// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package mpol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/cel-go/cel"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// Policy is one compiled MutatingPolicy or NamespacedMutatingPolicy: the
// policy itself and the policies autogen derives from it for pod
// controllers, in the order `kyverno apply` runs them
// (pkg/cel/policies/mpol/engine/provider.go:158-203).
type Policy struct {
	Name, Kind string
	variants   []*variant
}

// variant is one policy as the engine runs it.
type variant struct {
	// autogen names the pod-controller configuration it was generated
	// for ("" for the policy as written).
	autogen          string
	match            admissionregistrationv1.MatchResources
	matchConditions  []program
	variables        []namedProgram
	mutations        []mutationStep
	serverSideApply  bool
	hasMatchSelector bool
}

type program struct {
	field string
	prog  cel.Program
}

type namedProgram struct {
	name string
	program
}

// mutationStep is one entry of spec.mutations.
type mutationStep struct {
	index int
	field string
	apply bool // ApplyConfiguration; JSONPatch otherwise
	prog  cel.Program
}

// FieldError is a policy that cannot be applied, at a field of it.
type FieldError struct {
	Field string
	Err   error
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Err.Error() }
func (e *FieldError) Unwrap() error { return e.Err }

// Compile decodes and compiles one policy: every expression once, here,
// not per resource.
func Compile(obj *yaml.RNode) (*Policy, error) {
	b, err := yamlnode.MarshalJSON(obj.YNode())
	if err != nil {
		return nil, fmt.Errorf("read the policy as JSON: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var o object
	if err := dec.Decode(&o); err != nil {
		return nil, &FieldError{Field: "spec", Err: fmt.Errorf("%w (the fields are those of Kyverno's policies.kyverno.io/v1beta1 %s)", err, o.Kind)}
	}
	var meta struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(o.Metadata, &meta) // the name was already read by the caller's policy.Ref
	p := &Policy{Name: meta.Name, Kind: o.Kind}
	s := &o.Spec
	if err := check(s); err != nil {
		return nil, err
	}
	v, err := compileVariant(s, "")
	if err != nil {
		return nil, err
	}
	p.variants = append(p.variants, v)
	gen, err := autogen(s)
	if err != nil {
		return nil, err
	}
	for _, g := range gen {
		v, err := compileVariant(g.spec, g.config)
		if err != nil {
			return nil, fmt.Errorf("autogen for %s: %w", g.config, err)
		}
		p.variants = append(p.variants, v)
	}
	return p, nil
}

// check rejects what cannot be rendered offline.
func check(s *spec) error {
	if s.MatchConstraints == nil || len(s.MatchConstraints.ResourceRules) == 0 {
		// The CLI matches every resource then, but Kyverno's admission
		// webhook is never registered for such a policy.
		return &FieldError{Field: "spec.matchConstraints.resourceRules", Err: fmt.Errorf("Required value: name the resources the policy mutates (apiGroups, apiVersions, resources, operations)")}
	}
	if s.Evaluation != nil && s.Evaluation.MutateExisting != nil && s.Evaluation.MutateExisting.Enabled != nil && *s.Evaluation.MutateExisting.Enabled {
		return &FieldError{Field: "spec.evaluation.mutateExisting.enabled", Err: fmt.Errorf("mutate-existing policies change other objects of a live cluster and are not applied offline; set it to false or remove it")}
	}
	if len(s.TargetMatchConstraints) > 0 && string(s.TargetMatchConstraints) != "null" {
		return &FieldError{Field: "spec.targetMatchConstraints", Err: fmt.Errorf("targets of mutate-existing policies are live cluster objects and are not applied offline; remove it")}
	}
	if len(s.TargetMatchConditions) > 0 {
		return &FieldError{Field: "spec.targetMatchConditions", Err: fmt.Errorf("targets of mutate-existing policies are live cluster objects and are not applied offline; remove it")}
	}
	for i, m := range s.Mutations {
		f := fmt.Sprintf("spec.mutations[%d]", i)
		switch m.PatchType {
		case patchTypeApply:
			if m.ApplyConfiguration == nil || m.ApplyConfiguration.Expression == "" {
				return &FieldError{Field: f + ".applyConfiguration.expression", Err: fmt.Errorf("Required value: patchType ApplyConfiguration needs applyConfiguration.expression")}
			}
		case patchTypeJSONPatch:
			if m.JSONPatch == nil || m.JSONPatch.Expression == "" {
				return &FieldError{Field: f + ".jsonPatch.expression", Err: fmt.Errorf("Required value: patchType JSONPatch needs jsonPatch.expression")}
			}
		default:
			return &FieldError{Field: f + ".patchType", Err: fmt.Errorf("Unsupported value: %q: supported values: %q, %q", m.PatchType, patchTypeApply, patchTypeJSONPatch)}
		}
	}
	return nil
}

// compileVariant compiles the expressions of one spec in Kyverno's order
// (compiler.go:56-167): variables, matchConditions, mutations.
func compileVariant(s *spec, config string) (*variant, error) {
	env, err := celEnv()
	if err != nil {
		return nil, err
	}
	v := &variant{autogen: config, match: *s.MatchConstraints}
	if s.Evaluation != nil {
		v.serverSideApply = s.Evaluation.UseServerSideApply
	}
	v.hasMatchSelector = hasSelector(&v.match)
	for i, d := range s.Variables {
		f := fmt.Sprintf("spec.variables[%d].expression", i)
		p, err := compileExpr(env, f, d.Expression, nil)
		if err != nil {
			return nil, err
		}
		v.variables = append(v.variables, namedProgram{name: d.Name, program: program{field: f, prog: p}})
	}
	for i, c := range s.MatchConditions {
		f := fmt.Sprintf("spec.matchConditions[%d].expression", i)
		p, err := compileExpr(env, f, c.Expression, cel.BoolType)
		if err != nil {
			return nil, err
		}
		v.matchConditions = append(v.matchConditions, program{field: f, prog: p})
	}
	for i, m := range s.Mutations {
		mu := mutationStep{index: i}
		var expr string
		var want *cel.Type
		if m.PatchType == patchTypeApply {
			mu.apply, expr, want = true, m.ApplyConfiguration.Expression, applyConfigType
			mu.field = fmt.Sprintf("spec.mutations[%d].applyConfiguration.expression", i)
		} else {
			expr, want = m.JSONPatch.Expression, cel.ListType(jsonPatchType)
			mu.field = fmt.Sprintf("spec.mutations[%d].jsonPatch.expression", i)
		}
		p, err := compileExpr(env, mu.field, expr, want)
		if err != nil {
			return nil, err
		}
		mu.prog = p
		v.mutations = append(v.mutations, mu)
	}
	return v, nil
}

// kyvernoLibraries are the prefixes of Kyverno's own CEL libraries, which
// this environment does not declare.
var kyvernoLibraries = []string{"http", "resource", "globalContext", "image", "imagedata", "json", "yaml", "hash", "math", "random", "x509", "time", "transform", "gzip", "user", "exceptions"}

// compileExpr compiles one expression; want, when set, is the type it
// must have (as Kubernetes' CompileMutation and match conditions check).
func compileExpr(env *cel.Env, field, expr string, want *cel.Type) (cel.Program, error) {
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		err := fmt.Errorf("compilation failed: %v", iss.Err())
		msg := iss.Err().Error()
		for _, lib := range kyvernoLibraries {
			if strings.Contains(msg, "undeclared reference to '"+lib+"'") || strings.Contains(msg, "undeclared reference to '"+lib+".") {
				err = fmt.Errorf("%w; Kyverno's own CEL libraries (%s) read a live cluster, registry or clock, or are not reproduced here, and are not available offline: compute the value in the expression or drop the policy from this cluster with spec.admissionPolicies", err, strings.Join(kyvernoLibraries, ", "))
				break
			}
		}
		return nil, &FieldError{Field: field, Err: err}
	}
	if want != nil && !ast.OutputType().IsExactType(want) && (want != cel.BoolType || !ast.OutputType().IsExactType(cel.DynType)) {
		return nil, &FieldError{Field: field, Err: fmt.Errorf("output is expected to be of type %s, not %s", want.TypeName(), ast.OutputType())}
	}
	p, err := env.Program(ast)
	if err != nil {
		return nil, &FieldError{Field: field, Err: fmt.Errorf("program: %w", err)}
	}
	return p, nil
}

// hasSelector is the CLI's test (policy_processor.go:1255-1280) for a
// policy whose skipped result it does not print.
func hasSelector(m *admissionregistrationv1.MatchResources) bool {
	if m.NamespaceSelector != nil && (len(m.NamespaceSelector.MatchLabels) > 0 || len(m.NamespaceSelector.MatchExpressions) > 0) {
		return false
	}
	if m.ObjectSelector != nil && (len(m.ObjectSelector.MatchLabels) > 0 || len(m.ObjectSelector.MatchExpressions) > 0) {
		return false
	}
	if len(m.ExcludeResourceRules) != 0 || len(m.ResourceRules) != 1 {
		return false
	}
	return len(m.ResourceRules[0].ResourceNames) == 0
}
