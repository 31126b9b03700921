// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package mpol

import (
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// The declared types of request and namespaceObject: Kubernetes'
// admission request and Namespace types (k8s.io/apiserver
// plugin/cel/compile.go BuildRequestType, BuildNamespaceType), with
// request.object and request.oldObject added as dyn, as Kyverno declares
// them (pkg/cel/compiler/request.go, namespace.go). They are declared
// here rather than taken from that package so that the function does not
// link the API server's admission packages.
func requestDeclType() *apiservercel.DeclType {
	str, strs := apiservercel.StringType, apiservercel.NewListType(apiservercel.StringType, -1)
	gvk := declObject("kubernetes.GroupVersionKind", req("group", str), req("version", str), req("kind", str))
	gvr := declObject("kubernetes.GroupVersionResource", req("group", str), req("version", str), req("resource", str))
	user := declObject("kubernetes.UserInfo", opt("username", str), opt("uid", str), opt("groups", strs),
		opt("extra", apiservercel.NewMapType(str, strs, -1)))
	return declObject("kubernetes.AdmissionRequest",
		req("kind", gvk), req("resource", gvr), opt("subResource", str),
		req("requestKind", gvk), req("requestResource", gvr), opt("requestSubResource", str),
		req("name", str), opt("namespace", str), req("operation", str), req("userInfo", user),
		opt("dryRun", apiservercel.BoolType), opt("options", apiservercel.DynType),
		opt(varObject, apiservercel.DynType), opt(varOldObject, apiservercel.DynType))
}

func namespaceDeclType() *apiservercel.DeclType {
	str, strs := apiservercel.StringType, apiservercel.NewListType(apiservercel.StringType, -1)
	labels := apiservercel.NewMapType(str, str, -1)
	ts := apiservercel.TimestampType
	condition := declObject("kubernetes.NamespaceCondition", req("status", str), req("type", str),
		req("lastTransitionTime", ts), req("message", str), req("reason", str))
	return declObject("kubernetes.Namespace",
		req("metadata", declObject("kubernetes.NamespaceMetadata",
			req("name", str), req("generateName", str), req("namespace", str), req("labels", labels),
			req("annotations", labels), req("UID", str), req("creationTimestamp", ts),
			req("deletionGracePeriodSeconds", apiservercel.IntType), req("deletionTimestamp", ts),
			req("generation", apiservercel.IntType), req("resourceVersion", str), req("finalizers", strs))),
		req("spec", declObject("kubernetes.NamespaceSpec", req("finalizers", strs))),
		req("status", declObject("kubernetes.NamespaceStatus",
			req("conditions", apiservercel.NewListType(condition, -1)), req("phase", str))))
}

func declObject(name string, fields ...*apiservercel.DeclField) *apiservercel.DeclType {
	m := make(map[string]*apiservercel.DeclField, len(fields))
	for _, f := range fields {
		m[f.Name] = f
	}
	return apiservercel.NewObjectType(name, m)
}

func req(name string, t *apiservercel.DeclType) *apiservercel.DeclField {
	return apiservercel.NewDeclField(name, t, true, nil, nil)
}

func opt(name string, t *apiservercel.DeclType) *apiservercel.DeclField {
	return apiservercel.NewDeclField(name, t, false, nil, nil)
}

// variablesType is the type of `variables`: an object whose fields are the
// policy's variables, each typed by its expression's output, registered
// as they compile (Kyverno's VariablesProvider,
// pkg/cel/compiler/variables.go).
var variablesType = types.NewObjectType("kyverno.variables")

// variablesProvider answers for variablesType and passes every other
// question to the environment's own provider. One per policy.
type variablesProvider struct {
	types.Provider
	fields map[string]*types.Type
	names  []string
}

func (p *variablesProvider) register(name string, t *types.Type) {
	if _, ok := p.fields[name]; !ok {
		p.names = append(p.names, name)
	}
	p.fields[name] = t
}

func (p *variablesProvider) FindStructType(name string) (*types.Type, bool) {
	if name == variablesType.DeclaredTypeName() {
		return types.NewTypeTypeWithParam(variablesType), true
	}
	return p.Provider.FindStructType(name)
}

func (p *variablesProvider) FindStructFieldNames(name string) ([]string, bool) {
	if name == variablesType.DeclaredTypeName() {
		return p.names, true
	}
	return p.Provider.FindStructFieldNames(name)
}

func (p *variablesProvider) FindStructFieldType(name, field string) (*types.FieldType, bool) {
	if name == variablesType.DeclaredTypeName() {
		t, ok := p.fields[field]
		if !ok {
			return nil, false
		}
		return &types.FieldType{Type: t}, true
	}
	return p.Provider.FindStructFieldType(name, field)
}

func (p *variablesProvider) NewValue(name string, fields map[string]ref.Val) ref.Val {
	return p.Provider.NewValue(name, fields)
}
