// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package admissionpolicy

import (
	celgo "github.com/google/cel-go/cel"
	admissionv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating/patch"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	"k8s.io/apiserver/pkg/cel/environment"
)

// evaluator is a policy's CEL, compiled once: its variables (held by
// the composited compiler), its matchConditions and one patcher per
// mutation, in the policy's order.
type evaluator struct {
	compiler *plugincel.CompositedCompiler
	matcher  matchconditions.Matcher // nil without matchConditions
	patchers []patch.Patcher
}

// compilePolicy compiles p's expressions as the API server's mutating
// policy plugin does (policy/mutating/compilation.go compilePolicy: the
// base environment at the default compatibility version, params declared
// when paramKind is set, the authorizer always, patch types for the
// mutations). The API server's validation compiles them when the policy
// is created and rejects one that does not compile; so does this, naming
// the expression's field.
func compilePolicy(p *admissionv1.MutatingAdmissionPolicy) (*evaluator, field.ErrorList) {
	spec := field.NewPath("spec")
	opts := plugincel.OptionalVariableDeclarations{HasParams: p.Spec.ParamKind != nil, HasAuthorizer: true}
	compiler, err := plugincel.NewCompositedCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
	if err != nil {
		return nil, field.ErrorList{field.InternalError(spec, err)}
	}
	var errs field.ErrorList
	for i, v := range p.Spec.Variables {
		res := compiler.CompileAndStoreVariable(&variable{name: v.Name, expression: v.Expression}, opts, environment.StoredExpressions)
		if res.Error != nil {
			errs = append(errs, field.Invalid(spec.Child("variables").Index(i).Child("expression"), v.Expression, res.Error.Error()))
		}
	}
	ev := &evaluator{compiler: compiler}
	if conds := p.Spec.MatchConditions; len(conds) > 0 {
		accessors := make([]plugincel.ExpressionAccessor, len(conds))
		for i := range conds {
			accessors[i] = (*matchconditions.MatchCondition)(&conds[i])
		}
		cond := compiler.CompileCondition(accessors, opts, environment.StoredExpressions)
		for _, err := range cond.CompilationErrors() {
			errs = append(errs, field.Invalid(spec.Child("matchConditions"), "", err.Error()))
		}
		ev.matcher = matchconditions.NewMatcher(cond, p.Spec.FailurePolicy, "policy", "mutate", p.Name)
	}
	patchOpts := opts
	patchOpts.HasPatchTypes = true
	for i, m := range p.Spec.Mutations {
		mp := spec.Child("mutations").Index(i)
		var accessor plugincel.ExpressionAccessor
		var path *field.Path
		switch m.PatchType {
		case admissionv1.PatchTypeJSONPatch:
			accessor, path = &patch.JSONPatchCondition{Expression: m.JSONPatch.Expression}, mp.Child("jsonPatch", "expression")
		default:
			accessor, path = &patch.ApplyConfigurationCondition{Expression: m.ApplyConfiguration.Expression}, mp.Child("applyConfiguration", "expression")
		}
		eval := compiler.CompileMutatingEvaluator(accessor, patchOpts, environment.StoredExpressions)
		for _, err := range eval.CompilationErrors() {
			errs = append(errs, field.Invalid(path, accessor.GetExpression(), err.Error()))
		}
		if m.PatchType == admissionv1.PatchTypeJSONPatch {
			ev.patchers = append(ev.patchers, patch.NewJSONPatcher(eval))
		} else {
			ev.patchers = append(ev.patchers, patch.NewApplyConfigurationPatcher(eval))
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return ev, nil
}

// variable is a policy variable as the compiler reads it; its value may
// be of any type.
type variable struct{ name, expression string }

func (v *variable) GetName() string            { return v.name }
func (v *variable) GetExpression() string      { return v.expression }
func (v *variable) ReturnTypes() []*celgo.Type { return []*celgo.Type{celgo.AnyType} }
