// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kyverno

// The kyverno.io/v1 ClusterPolicy and Policy API, as far as a mutate rule
// reads it (v2beta1 policies decode into it too, see v2beta1.go). Fields the offline render does not use (validate, generate,
// verifyImages rules, webhook settings) are accepted and left alone, so that
// a policy the Kyverno CRD admits decodes here too; unknown fields are
// errors, as kubectl-validate makes them for `kyverno apply`.
//
// The yaml tags drive the strict decoder, the json tags the rule's JSON
// value (variable substitution and autogen work on JSON, as upstream's do).

// Policy is a ClusterPolicy or a namespaced Policy.
type Policy struct {
	APIVersion string   `yaml:"apiVersion" json:"apiVersion"`
	Kind       string   `yaml:"kind" json:"kind"`
	Metadata   Metadata `yaml:"metadata" json:"metadata" required:"true"`
	Spec       Spec     `yaml:"spec" json:"spec" required:"true"`
	Status     any      `yaml:"status" json:"-"`
}

// Metadata is the part of ObjectMeta a policy carries in a package.
type Metadata struct {
	Name              string            `yaml:"name" json:"name" required:"true"`
	Namespace         string            `yaml:"namespace" json:"namespace,omitempty"`
	Labels            map[string]string `yaml:"labels" json:"labels,omitempty"`
	Annotations       map[string]string `yaml:"annotations" json:"annotations,omitempty"`
	GenerateName      string            `yaml:"generateName" json:"-"`
	UID               string            `yaml:"uid" json:"-"`
	ResourceVersion   string            `yaml:"resourceVersion" json:"-"`
	Generation        int64             `yaml:"generation" json:"-"`
	CreationTimestamp any               `yaml:"creationTimestamp" json:"-"`
	ManagedFields     any               `yaml:"managedFields" json:"-"`
	Finalizers        []string          `yaml:"finalizers" json:"-"`
	OwnerReferences   any               `yaml:"ownerReferences" json:"-"`
}

// Spec is the policy spec.
type Spec struct {
	Rules                            []Rule                `yaml:"rules" json:"rules,omitempty"`
	ApplyRules                       string                `yaml:"applyRules" json:"applyRules,omitempty"`
	FailurePolicy                    string                `yaml:"failurePolicy" json:"failurePolicy,omitempty"`
	ValidationFailureAction          string                `yaml:"validationFailureAction" json:"validationFailureAction,omitempty"`
	ValidationFailureActionOverrides any                   `yaml:"validationFailureActionOverrides" json:"-"`
	EmitWarning                      *bool                 `yaml:"emitWarning" json:"emitWarning,omitempty"`
	Admission                        *bool                 `yaml:"admission" json:"admission,omitempty"`
	Background                       *bool                 `yaml:"background" json:"background,omitempty"`
	SchemaValidation                 *bool                 `yaml:"schemaValidation" json:"schemaValidation,omitempty"`
	WebhookTimeoutSeconds            *int32                `yaml:"webhookTimeoutSeconds" json:"webhookTimeoutSeconds,omitempty"`
	MutateExistingOnPolicyUpdate     bool                  `yaml:"mutateExistingOnPolicyUpdate" json:"mutateExistingOnPolicyUpdate,omitempty"`
	GenerateExistingOnPolicyUpdate   *bool                 `yaml:"generateExistingOnPolicyUpdate" json:"-"`
	GenerateExisting                 bool                  `yaml:"generateExisting" json:"-"`
	UseServerSideApply               bool                  `yaml:"useServerSideApply" json:"-"`
	WebhookConfiguration             *WebhookConfiguration `yaml:"webhookConfiguration" json:"webhookConfiguration,omitempty"`
}

// WebhookConfiguration holds the policy's webhook settings.
type WebhookConfiguration struct {
	FailurePolicy   string `yaml:"failurePolicy" json:"failurePolicy,omitempty"`
	TimeoutSeconds  *int32 `yaml:"timeoutSeconds" json:"timeoutSeconds,omitempty"`
	MatchConditions any    `yaml:"matchConditions" json:"matchConditions,omitempty"`
}

// Rule is one policy rule. Only mutate rules are applied.
type Rule struct {
	Name                   string            `yaml:"name" json:"name" required:"true"`
	Context                []ContextEntry    `yaml:"context" json:"context,omitempty"`
	ReportProperties       map[string]string `yaml:"reportProperties" json:"reportProperties,omitempty"`
	Match                  MatchResources    `yaml:"match" json:"match"`
	Exclude                *MatchResources   `yaml:"exclude" json:"exclude,omitempty"`
	ImageExtractors        any               `yaml:"imageExtractors" json:"imageExtractors,omitempty"`
	Preconditions          any               `yaml:"preconditions" json:"preconditions,omitempty"`
	CELPreconditions       any               `yaml:"celPreconditions" json:"celPreconditions,omitempty"`
	Mutate                 *Mutation         `yaml:"mutate" json:"mutate,omitempty"`
	Validate               any               `yaml:"validate" json:"validate,omitempty"`
	Generate               any               `yaml:"generate" json:"generate,omitempty"`
	VerifyImages           any               `yaml:"verifyImages" json:"verifyImages,omitempty"`
	SkipBackgroundRequests *bool             `yaml:"skipBackgroundRequests" json:"skipBackgroundRequests,omitempty"`
}

// ContextEntry is a rule or foreach context entry. Only variable entries
// can be loaded offline.
type ContextEntry struct {
	Name            string    `yaml:"name" json:"name"`
	ConfigMap       any       `yaml:"configMap" json:"configMap,omitempty"`
	APICall         any       `yaml:"apiCall" json:"apiCall,omitempty"`
	ImageRegistry   any       `yaml:"imageRegistry" json:"imageRegistry,omitempty"`
	Variable        *Variable `yaml:"variable" json:"variable,omitempty"`
	GlobalReference any       `yaml:"globalReference" json:"globalReference,omitempty"`
}

// Variable is a variable context entry.
type Variable struct {
	Value    any    `yaml:"value" json:"value,omitempty"`
	JMESPath string `yaml:"jmesPath" json:"jmesPath,omitempty"`
	Default  any    `yaml:"default" json:"default,omitempty"`
}

// MatchResources is a rule's match or exclude block.
type MatchResources struct {
	Any       []ResourceFilter    `yaml:"any" json:"any,omitempty"`
	All       []ResourceFilter    `yaml:"all" json:"all,omitempty"`
	Resources ResourceDescription `yaml:"resources" json:"resources,omitempty"`
	Subjects  any                 `yaml:"subjects" json:"subjects,omitempty"`
	Roles     []string            `yaml:"roles" json:"roles,omitempty"`
	// ClusterRoles of the deprecated inline form.
	ClusterRoles []string `yaml:"clusterRoles" json:"clusterRoles,omitempty"`
}

// ResourceFilter is one entry of match/exclude any or all.
type ResourceFilter struct {
	Resources    ResourceDescription `yaml:"resources" json:"resources,omitempty"`
	Subjects     any                 `yaml:"subjects" json:"subjects,omitempty"`
	Roles        []string            `yaml:"roles" json:"roles,omitempty"`
	ClusterRoles []string            `yaml:"clusterRoles" json:"clusterRoles,omitempty"`
}

// ResourceDescription selects resources.
type ResourceDescription struct {
	Kinds             []string          `yaml:"kinds" json:"kinds,omitempty"`
	Name              string            `yaml:"name" json:"name,omitempty"`
	Names             []string          `yaml:"names" json:"names,omitempty"`
	Namespaces        []string          `yaml:"namespaces" json:"namespaces,omitempty"`
	Annotations       map[string]string `yaml:"annotations" json:"annotations,omitempty"`
	Selector          *LabelSelector    `yaml:"selector" json:"selector,omitempty"`
	NamespaceSelector *LabelSelector    `yaml:"namespaceSelector" json:"namespaceSelector,omitempty"`
	Operations        []string          `yaml:"operations" json:"operations,omitempty"`
}

// LabelSelector is metav1.LabelSelector.
type LabelSelector struct {
	MatchLabels      map[string]string          `yaml:"matchLabels" json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `yaml:"matchExpressions" json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement is metav1.LabelSelectorRequirement.
type LabelSelectorRequirement struct {
	Key      string   `yaml:"key" json:"key" required:"true"`
	Operator string   `yaml:"operator" json:"operator" required:"true"`
	Values   []string `yaml:"values" json:"values,omitempty"`
}

// Mutation is a rule's mutate block.
type Mutation struct {
	MutateExistingOnPolicyUpdate *bool             `yaml:"mutateExistingOnPolicyUpdate" json:"mutateExistingOnPolicyUpdate,omitempty"`
	Targets                      any               `yaml:"targets" json:"targets,omitempty"`
	PatchStrategicMerge          any               `yaml:"patchStrategicMerge" json:"patchStrategicMerge,omitempty"`
	PatchesJSON6902              string            `yaml:"patchesJson6902" json:"patchesJson6902,omitempty"`
	ForEach                      []ForEachMutation `yaml:"foreach" json:"foreach,omitempty"`
}

// ForEachMutation is one foreach entry; nested entries are decoded from
// the raw value because the CRD leaves them schemaless.
type ForEachMutation struct {
	List                string         `yaml:"list" json:"list,omitempty"`
	Order               string         `yaml:"order" json:"order,omitempty"`
	Context             []ContextEntry `yaml:"context" json:"context,omitempty"`
	Preconditions       any            `yaml:"preconditions" json:"preconditions,omitempty"`
	PatchStrategicMerge any            `yaml:"patchStrategicMerge" json:"patchStrategicMerge,omitempty"`
	PatchesJSON6902     string         `yaml:"patchesJson6902" json:"patchesJson6902,omitempty"`
	ForEach             any            `yaml:"foreach" json:"foreach,omitempty"`
}
