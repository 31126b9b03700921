// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"sort"
	"strings"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/decode"
	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/policy"
)

// Enums of the CRD schema; KubeAdmiral has no admission webhook for these
// types, so the schema is all the validation upstream does.
var (
	selectorOperators  = []string{"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"}
	imageComponents    = []string{"Registry", "Repository", "Tag", "Digest"}
	mapOperators       = []string{"addIfAbsent", "overwrite", "delete"}
	entrypointOperator = []string{"append", "overwrite", "delete"}
)

func validateRule(r *overrideRule, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	enum := func(path *field.Path, v string, allowed []string) {
		errs = append(errs, policy.Enum(path, v, allowed)...)
	}
	if t := r.TargetClusters; t != nil {
		for i, term := range t.ClusterAffinity {
			tp := p.Child("targetClusters", "clusterAffinity").Index(i)
			for j, e := range term.MatchExpressions {
				enum(tp.Child("matchExpressions").Index(j).Child("operator"), e.Operator, selectorOperators)
			}
			for j, e := range term.MatchFields {
				enum(tp.Child("matchFields").Index(j).Child("operator"), e.Operator, selectorOperators)
			}
		}
	}
	o := r.Overriders
	if o == nil {
		return errs
	}
	op := p.Child("overriders")
	pointer := func(ptr string, path *field.Path) {
		if msg := policy.PointerEscapeError(ptr); msg != "" {
			errs = append(errs, field.Invalid(path, ptr, msg))
		}
	}
	for i, img := range o.Image {
		pointer(img.ImagePath, op.Child("image").Index(i).Child("imagePath"))
		for j, x := range img.Operations {
			xp := op.Child("image").Index(i).Child("operations").Index(j)
			enum(xp.Child("imageComponent"), x.ImageComponent, imageComponents)
			enum(xp.Child("operator"), x.Operator, mapOperators)
			// Beyond upstream, which checks tags and digests after the
			// operation but writes any registry or repository.
			if x.Operator != "delete" && (x.ImageComponent == "Registry" || x.ImageComponent == "Repository") {
				if msg := policy.ImageValueError(x.ImageComponent, x.Value); msg != "" {
					errs = append(errs, field.Invalid(xp.Child("value"), x.Value, msg))
				}
			}
		}
	}
	for i, x := range o.Command {
		enum(op.Child("command").Index(i).Child("operator"), x.Operator, entrypointOperator)
	}
	for i, x := range o.Args {
		enum(op.Child("args").Index(i).Child("operator"), x.Operator, entrypointOperator)
	}
	for i, x := range o.Envs {
		ep := op.Child("envs").Index(i)
		enum(ep.Child("operator"), x.Operator, mapOperators)
		for j, v := range x.Value {
			errs = append(errs, validateEnvVar(v, ep.Child("value").Index(j))...)
		}
	}
	for _, sm := range []struct {
		name string
		list []stringMapOverrider
	}{{"annotations", o.Annotations}, {"labels", o.Labels}} {
		for i, x := range sm.list {
			sp := op.Child(sm.name).Index(i)
			enum(sp.Child("operator"), x.Operator, mapOperators)
			m, merrs := validateStringMap(x.Value, sp.Child("value"))
			errs = append(errs, merrs...)
			if len(merrs) == 0 && x.Operator != "delete" {
				errs = append(errs, validateKeys(sm.name, m, sp.Child("value"))...)
			}
		}
	}
	for i, x := range o.JSONPatch {
		path := op.Child("jsonpatch").Index(i).Child("path")
		if x.Path != "" && !strings.HasPrefix(x.Path, "/") {
			// Beyond upstream: KubeAdmiral's patch library (evanphx v4) drops
			// the first segment of such a path and patches another field
			// (spec/replicas sets a top-level replicas).
			errs = append(errs, field.Invalid(path, x.Path, `a JSON pointer starts with "/" (RFC 6901), e.g. /spec/replicas; without it KubeAdmiral's patch library drops the first segment and patches another field`))
			continue
		}
		pointer(x.Path, path)
	}
	return errs
}

// validateKeys checks the keys and values an overrider writes as the
// member cluster's apiserver will (beyond upstream, which has no webhook
// and writes them unchecked).
func validateKeys(kind string, m map[string]string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if kind == "labels" {
		errs = metav1validation.ValidateLabels(m, p)
	} else {
		errs = apivalidation.ValidateAnnotations(m, p)
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return errs
}

// validateEnvVar checks the shape of a corev1.EnvVar: name (required),
// value (a string), valueFrom (an object).
func validateEnvVar(n *yaml.Node, p *field.Path) field.ErrorList {
	var v struct {
		Name      string     `yaml:"name" required:"true"`
		Value     string     `yaml:"value"`
		ValueFrom *yaml.Node `yaml:"valueFrom"`
	}
	if yamlnode.IsNull(n) {
		return field.ErrorList{field.Invalid(p, "null", "must be of type object")}
	}
	errs := decode.Options{CRD: true}.Decode(n, p, &v)
	if v.ValueFrom != nil && !yamlnode.IsNull(v.ValueFrom) && v.ValueFrom.Kind != yaml.MappingNode {
		errs = append(errs, field.Invalid(p.Child("valueFrom"), v.ValueFrom.Value, "must be of type object"))
	}
	return errs
}

func validateStringMap(n *yaml.Node, p *field.Path) (map[string]string, field.ErrorList) {
	var m map[string]string
	errs := decode.Options{CRD: true}.Decode(n, p, &m)
	return m, errs
}
