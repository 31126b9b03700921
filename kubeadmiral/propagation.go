// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/decode"
	"github.com/apply-overrides/apply-overrides/policy"
)

// The propagation policy kinds.
const (
	KindPropagationPolicy        = "PropagationPolicy"
	KindClusterPropagationPolicy = "ClusterPropagationPolicy"
)

// The types below mirror kubeadmiral pkg/apis/core/v1alpha1
// types_propagationpolicy.go @19de01c; `required` marks the CRD's required
// fields. KubeAdmiral has no admission webhook for these policies: the CRD
// schema is all the validation and defaulting they get.
type propagationObject struct {
	APIVersion string          `yaml:"apiVersion,omitempty"`
	Kind       string          `yaml:"kind,omitempty"`
	Metadata   *yaml.Node      `yaml:"metadata,omitempty"`
	Spec       propagationSpec `yaml:"spec,omitempty" required:"true"`
	Status     *yaml.Node      `yaml:"status,omitempty"`
}

type propagationSpec struct {
	SchedulingProfile         string                `yaml:"schedulingProfile,omitempty"`
	SchedulingMode            string                `yaml:"schedulingMode,omitempty" required:"true"`
	ReplicasStrategy          string                `yaml:"replicasStrategy,omitempty"`
	ClusterSelector           map[string]string     `yaml:"clusterSelector,omitempty"`
	ClusterAffinity           []clusterSelectorTerm `yaml:"clusterAffinity,omitempty"`
	Tolerations               []policy.Toleration   `yaml:"tolerations,omitempty"`
	MaxClusters               *int64                `yaml:"maxClusters,omitempty"`
	Placements                []desiredPlacement    `yaml:"placement,omitempty"`
	DisableFollowerScheduling bool                  `yaml:"disableFollowerScheduling,omitempty"`
	AutoMigration             *yaml.Node            `yaml:"autoMigration,omitempty"`
	ReschedulePolicy          *yaml.Node            `yaml:"reschedulePolicy,omitempty"`
}

// desiredPlacement is one entry of spec.placement.
type desiredPlacement struct {
	Cluster     string `yaml:"cluster,omitempty" required:"true"`
	Preferences struct {
		MinReplicas int64  `yaml:"minReplicas,omitempty"`
		MaxReplicas *int64 `yaml:"maxReplicas,omitempty"`
		Weight      *int64 `yaml:"weight,omitempty"`
		Priority    *int64 `yaml:"priority,omitempty"`
	} `yaml:"preferences,omitempty"`
}

// The enums of the CRD schema.
var (
	schedulingModes      = []string{"Duplicate", "Divide"}
	replicasStrategies   = []string{"Binpack", "Spread"}
	selectorOperatorEnum = []string{"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"}
)

// propagationPolicy is a valid PropagationPolicy or ClusterPropagationPolicy
// with the CRD's defaults.
type propagationPolicy struct {
	ref  policy.Ref
	spec propagationSpec
}

// propagationKey names the propagation policies as the resources' labels
// name them.
func propagationKey(ref policy.Ref) (string, bool) {
	switch ref.Kind {
	case KindClusterPropagationPolicy:
		return ref.Kind + "/" + ref.Name, true
	case KindPropagationPolicy:
		return ref.Kind + "/" + ref.Namespace + "/" + ref.Name, true
	}
	return "", false
}

// decodePropagation decodes and validates a policy as KubeAdmiral's CRD
// schema does (there is no webhook), then applies its defaults.
func decodePropagation(obj *yaml.RNode, ref policy.Ref) (*propagationPolicy, []error) {
	var o propagationObject
	errs := decode.Options{CRD: true}.Decode(obj.YNode(), nil, &o)
	errs = append(errs, policy.ValidateMetadata(obj, ref.Kind == KindPropagationPolicy)...)
	if len(ref.Name) > 63 {
		errs = append(errs, field.TooLong(field.NewPath("metadata", "name"), ref.Name, 63))
	}
	if ref.Kind == KindPropagationPolicy && ref.Namespace == "" {
		errs = append(errs, field.Required(field.NewPath("metadata", "namespace"),
			"a PropagationPolicy propagates only resources of its own namespace"))
	}
	s := &o.Spec
	spec := field.NewPath("spec")
	errs = append(errs, policy.Enum(spec.Child("schedulingMode"), s.SchedulingMode, schedulingModes)...)
	errs = append(errs, policy.Enum(spec.Child("replicasStrategy"), s.ReplicasStrategy, replicasStrategies)...)
	for i, term := range s.ClusterAffinity {
		tp := spec.Child("clusterAffinity").Index(i)
		for j, e := range term.MatchExpressions {
			errs = append(errs, policy.Enum(tp.Child("matchExpressions").Index(j).Child("operator"), e.Operator, selectorOperatorEnum)...)
		}
		for j, e := range term.MatchFields {
			errs = append(errs, policy.Enum(tp.Child("matchFields").Index(j).Child("operator"), e.Operator, selectorOperatorEnum)...)
		}
	}
	for i, p := range s.Placements {
		pp := spec.Child("placement").Index(i).Child("preferences")
		for _, v := range []struct {
			name string
			v    *int64
		}{{"minReplicas", &p.Preferences.MinReplicas}, {"maxReplicas", p.Preferences.MaxReplicas}, {"weight", p.Preferences.Weight}, {"priority", p.Preferences.Priority}} {
			if v.v != nil && *v.v < 0 {
				errs = append(errs, field.Invalid(pp.Child(v.name), *v.v, "should be greater than or equal to 0"))
			}
		}
	}
	if s.SchedulingProfile != "" {
		errs = append(errs, field.Invalid(spec.Child("schedulingProfile"), s.SchedulingProfile,
			"a SchedulingProfile changes the scheduler's plugins, which the render does not reproduce: remove it to render with the default profile"))
	}
	if len(errs) > 0 {
		return nil, policy.FieldErrors(errs)
	}
	if s.ReplicasStrategy == "" {
		s.ReplicasStrategy = "Spread" // the CRD's default
	}
	return &propagationPolicy{ref: ref, spec: *s}, nil
}
