// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package mpol

import (
	"fmt"
	"sync"

	"github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"
	"k8s.io/apiserver/pkg/cel/mutation"
)

// The names the expressions read (Kyverno pkg/cel/compiler/keys.go).
const (
	varObject          = "object"
	varOldObject       = "oldObject"
	varRequest         = "request"
	varNamespaceObject = "namespaceObject"
	varVariables       = "variables"
)

// Types the mutations return: an ApplyConfiguration expression an Object,
// a JSONPatch expression a list of JSONPatch (k8s.io/apiserver
// pkg/cel/mutation).
var (
	applyConfigType = types.NewObjectType("Object")
	jsonPatchType   = types.NewObjectType(mutation.JSONPatchTypeName)
	variablesType   = types.NewMapType(types.StringType, types.DynType)
)

// compilerVersion is the compatibility version Kyverno's MutatingPolicy
// compiler asks the Kubernetes base environment for
// (pkg/cel/policies/mpol/compiler/compiler.go:42).
var compilerVersion = version.MajorMinor(2, 0)

// The environment is built once, on the first policy that needs it: a run
// without MutatingPolicies never pays for it.
var (
	envOnce sync.Once
	envVal  *cel.Env
	envErr  error
)

// celEnv returns the environment every MutatingPolicy expression is
// compiled in.
func celEnv() (*cel.Env, error) {
	envOnce.Do(func() { envVal, envErr = newEnv() })
	return envVal, envErr
}

// newEnv builds the environment as Kyverno's newExtendedEnv does
// (compiler.go:169-280): the Kubernetes base environment at version 2.0
// for stored expressions, extended with Kyverno's default options
// (pkg/cel/compiler/env.go:49-99), the variables object, oldObject,
// request, namespaceObject and variables, the Object and JSONPatch types
// and the Kubernetes JSONPatch library. Kyverno's own libraries (http,
// resource, globalContext, image, imagedata, json, yaml, hash, math,
// random, x509, time, transform, gzip, user) are not declared: an
// expression calling them fails to compile, and compile() says so.
func newEnv() (*cel.Env, error) {
	opts := []cel.EnvOption{
		cel.HomogeneousAggregateLiterals(),
		cel.EagerlyValidateDeclarations(true),
		cel.DefaultUTCTimeZone(true),
		cel.CrossTypeNumericComparisons(true),
		cel.OptionalTypes(),
		ext.Bindings(),
		ext.Encoders(),
		ext.Lists(ext.ListsVersion(3)),
		ext.Math(),
		ext.Protos(),
		ext.Sets(),
		ext.Strings(ext.StringsVersion(2)),
		ext.Regex(ext.RegexVersion(1)),
		library.CIDR(),
		library.Format(),
		library.IP(),
		library.Lists(),
		library.Regex(),
		library.URLs(),
		library.Quantity(),
		library.SemverLib(library.SemverVersion(1)),
		// cel-go v0.28 made orValue on a value that is not optional an
		// error; Kyverno keeps the v0.27 behaviour (env.go:107-143).
		cel.Macros(cel.ReceiverMacro("orValue", 1, orValueMacro)),
		cel.Function(orValueFunc,
			cel.Overload(orValueFunc+"_dyn_dyn", []*cel.Type{cel.DynType, cel.DynType}, cel.DynType,
				cel.BinaryBinding(orValue))),
		cel.Variable(varNamespaceObject, cel.DynType),
		cel.Variable(varObject, cel.DynType),
		cel.Variable(varOldObject, cel.DynType),
		cel.Variable(varRequest, cel.DynType),
		cel.Variable(varVariables, variablesType),
		cel.Types(applyConfigType),
		cel.Types(jsonPatchType),
		common.ResolverEnvOption(&mutation.DynamicTypeResolver{}),
		environment.UnversionedLib(library.JSONPatch),
	}
	base, err := environment.MustBaseEnvSet(compilerVersion).Extend(environment.VersionedOptions{
		IntroducedVersion: compilerVersion,
		EnvOptions:        opts,
	})
	if err != nil {
		return nil, fmt.Errorf("build the CEL environment: %w", err)
	}
	env, err := base.Env(environment.StoredExpressions)
	if err != nil {
		return nil, fmt.Errorf("build the CEL environment: %w", err)
	}
	return env, nil
}

const orValueFunc = "__orValueCompat__"

// orValueMacro rewrites x.orValue(y) to a call of orValue.
func orValueMacro(eh cel.MacroExprFactory, target celast.Expr, args []celast.Expr) (celast.Expr, *cel.Error) {
	return eh.NewCall(orValueFunc, target, args[0]), nil
}

// orValue is x.orValue(y): an optional's value or y, y for an error, and
// any other x itself.
func orValue(lhs, rhs ref.Val) ref.Val {
	switch v := lhs.(type) {
	case *types.Optional:
		if v.HasValue() {
			return v.GetValue()
		}
		return rhs
	case *types.Err:
		return rhs
	}
	return lhs
}
