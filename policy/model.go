// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// Cluster is a member cluster as every dialect sees it, whichever control
// plane's object described it: its name, its labels and its topology.
type Cluster struct {
	// Name is the cluster's name, e.g. "member1" (ACK One: the cluster ID).
	Name string
	// Labels are the cluster object's metadata.labels.
	Labels map[string]string
	// Provider, Region and Zones are where the cluster runs (Karmada's
	// Cluster.spec.provider, region and zones; empty where the control
	// plane does not say). Zone is Karmada's deprecated singular field.
	Provider, Region, Zone string
	Zones                  []string
	// Taints are the cluster's taints (spec.taints of Karmada's Cluster and
	// KubeAdmiral's FederatedCluster), which placement tolerates or not.
	Taints []Taint
	// Ready is the status of the cluster object's Ready condition: "True",
	// "False" or "Unknown"; "" when the object carries no such condition
	// (an inventory written by hand), which placement must say it assumed.
	Ready string
	// Joined is the status of KubeAdmiral's Joined condition, "" when not
	// reported: KubeAdmiral schedules only onto joined clusters.
	Joined string
	// Resources is the capacity the cluster object's status reports; nil
	// when it reports none.
	Resources *Resources
	// Properties are the named properties the cluster object's status
	// reports (KubeFleet MemberCluster status.properties, e.g.
	// "kubernetes-fleet.io/node-count": "3"); nil when it reports none.
	Properties map[string]string
	// Leaving is set when the cluster object is being deleted
	// (metadata.deletionTimestamp): a control plane places nothing new
	// on a cluster that leaves the fleet.
	Leaving bool
	// APIs lists the group/version/kinds the cluster serves (Karmada's
	// status.apiEnablements, KubeAdmiral's status.apiResourceTypes), e.g.
	// "apps/v1/Deployment"; nil when the object does not say.
	APIs []string
	// Source is the object the cluster was read from; empty for a cluster
	// of the functionConfig's inline inventory.
	Source Ref
}

// Taint is a cluster taint: placement skips a cluster whose NoSchedule or
// NoExecute taint a policy does not tolerate.
type Taint struct {
	Key    string `yaml:"key"`
	Value  string `yaml:"value"`
	Effect string `yaml:"effect"`
}

// Resources is a cluster's capacity as its object's status reports it,
// by resource name ("cpu", "memory", "pods", …). A map the status leaves
// out is nil.
type Resources struct {
	// Allocatable is what the cluster's nodes offer to pods.
	Allocatable map[string]resource.Quantity
	// Allocating and Allocated are what pending and scheduled pods request
	// (Karmada's resourceSummary).
	Allocating, Allocated map[string]resource.Quantity
	// Available is what is left (KubeAdmiral's status.resources.available).
	Available map[string]resource.Quantity
	// Capacity is the nodes' total capacity (KubeFleet's
	// status.resourceUsage.capacity).
	Capacity map[string]resource.Quantity
	// SchedulableNodes counts the nodes pods can be scheduled on
	// (KubeAdmiral); nil when not reported.
	SchedulableNodes *int64
	// Models are the cluster's resource models (Karmada spec.resourceModels:
	// node grades by resource ranges) and Modelings how many nodes of each
	// grade it has (status.resourceSummary.allocatableModelings), which
	// Karmada's estimator prefers to the summary when both are present.
	Models    []ResourceModel
	Modelings []Modeling
}

// ResourceModel is one grade of a cluster's resource models: for each
// resource name, the [Min, Max) range a node of this grade offers.
type ResourceModel struct {
	Grade  uint
	Ranges map[string]ResourceRange
}

// ResourceRange is a [Min, Max) quantity range.
type ResourceRange struct {
	Min, Max resource.Quantity
}

// Modeling is the number of nodes of one grade.
type Modeling struct {
	Grade uint
	Count int64
}

// Target is what a render compiles policies for.
type Target struct {
	// Cluster is the member cluster; nil when the functionConfig names none
	// and no policy needs one (admission policies only).
	Cluster *Cluster
	// Admission, when set, limits the admission policies (Kyverno) the
	// cluster runs (the functionConfig's spec.admissionPolicies).
	Admission *Selection
	// Placement is the functionConfig's placement mode.
	Placement PlacementMode
	// Fleet is every cluster of the inventory, sorted by name: placement
	// decides over the whole fleet, whichever cluster is rendered.
	Fleet []*Cluster
	// Resources are the input's workload resources (what placement
	// decides on), in input order; they must not be edited.
	Resources []*yaml.RNode
}

// PlacementMode says whether placement policies decide what a cluster
// receives.
type PlacementMode string

// The placement modes of the functionConfig's spec.placement.
const (
	// PlacementAuto places when the input holds a placement policy of any
	// dialect, and renders every resource for every cluster otherwise.
	PlacementAuto PlacementMode = "auto"
	// PlacementEnforce always places: without a placement policy a
	// resource goes nowhere, as in the control plane.
	PlacementEnforce PlacementMode = "enforce"
	// PlacementOff renders every resource for every cluster.
	PlacementOff PlacementMode = "off"
)

// Selection picks policies by name pattern ("name" for cluster-scoped
// policies, "namespace/name" for namespaced ones; * and ? wildcards): a
// policy no Scoped pattern matches is selected everywhere, one that some
// Scoped pattern matches only where a Selected pattern matches it too.
type Selection struct {
	Scoped, Selected []string
}

// Ref identifies an object of the ResourceList in messages and results.
type Ref struct {
	APIVersion, Kind, Namespace, Name string
	// File and Index locate the object in the package
	// (internal.config.kubernetes.io/path and index), when known.
	File  string
	Index int
}

// RefOf reads the identity of an item.
func RefOf(rn *yaml.RNode) Ref {
	r := Ref{
		APIVersion: scalar(rn, yaml.APIVersionField),
		Kind:       scalar(rn, yaml.KindField),
		Namespace:  scalar(rn, yaml.MetadataField, yaml.NamespaceField),
		Name:       scalar(rn, yaml.MetadataField, yaml.NameField),
	}
	annos := rn.Field(yaml.MetadataField)
	if annos != nil {
		annos = annos.Value.Field(yaml.AnnotationsField)
	}
	if annos != nil {
		for _, key := range []string{"internal.config.kubernetes.io/path", "config.kubernetes.io/path"} {
			if f := annos.Value.Field(key); f != nil && r.File == "" {
				r.File = f.Value.YNode().Value
			}
		}
		for _, key := range []string{"internal.config.kubernetes.io/index", "config.kubernetes.io/index"} {
			if f := annos.Value.Field(key); f != nil {
				if _, err := fmt.Sscanf(f.Value.YNode().Value, "%d", &r.Index); err == nil {
					break
				}
			}
		}
	}
	return r
}

// String renders the reference the way messages name objects:
// "OverridePolicy default/nginx", "apps/v1 Deployment default/web".
func (r Ref) String() string {
	name := r.Name
	if r.Namespace != "" {
		name = r.Namespace + "/" + r.Name
	}
	return r.Kind + " " + name
}

// GVKString is String prefixed with the apiVersion.
func (r Ref) GVKString() string { return r.APIVersion + " " + r.String() }

// scalar returns the scalar value at path, or "".
func scalar(rn *yaml.RNode, path ...string) string {
	n := rn.YNode()
	for _, p := range path {
		if n == nil || n.Kind != yaml.MappingNode {
			return ""
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == p {
				next = n.Content[i+1]
				break
			}
		}
		n = next
	}
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == yaml.NodeTagNull {
		return ""
	}
	return n.Value
}

// Resource is a resource under override together with the identity the
// dialects select on. Refresh re-reads the identity after an edit.
type Resource struct {
	Node *yaml.RNode
	Ref
	Labels map[string]string
	// Touched is set by Apply when a step ran that may have changed Node (a
	// counting step says whether it did).
	Touched bool
	// reinvocation is the admission chain's memory between its passes
	// (Reinvocation), nil until an admission Set makes it.
	reinvocation *Reinvocation
}

// NewResource reads the identity of rn.
func NewResource(rn *yaml.RNode) *Resource {
	r := &Resource{Node: rn}
	r.Refresh()
	return r
}

// Refresh re-reads apiVersion, kind, namespace, name and labels.
func (r *Resource) Refresh() {
	ref := RefOf(r.Node)
	r.Ref = ref
	r.Labels = nil
	if m := r.Node.Field(yaml.MetadataField); m != nil {
		if l := m.Value.Field(yaml.LabelsField); l != nil && l.Value.YNode().Kind == yaml.MappingNode {
			c := l.Value.YNode().Content
			r.Labels = make(map[string]string, len(c)/2)
			for i := 0; i+1 < len(c); i += 2 {
				r.Labels[c[i].Value] = c[i+1].Value
			}
		}
	}
}

// Step is one overrider of a rule.
type Step struct {
	// Field is the overrider's path inside the policy, e.g.
	// "spec.overrideRules[0].overriders.imageOverrider[1]".
	Field string
	// Filter edits the resource in place.
	Filter yaml.Filter
}

// Rule is an ordered list of steps from one policy, already known to target
// the cluster being rendered.
type Rule struct {
	// Policy is the policy the rule comes from.
	Policy *Ref
	// Field is the rule's path inside the policy, e.g. "spec.overrideRules[0]".
	Field string
	Steps []Step
	// Internal marks a dialect's bookkeeping step (e.g. KubeAdmiral's
	// template), which is not counted as an applied rule.
	Internal bool
}

// Set selects, for one resource, the rules to apply and their order. An
// error (e.g. a policy the resource names is missing) fails the resource.
type Set interface {
	Rules(res *Resource) ([]*Rule, error)
}

// Apply runs every Set in order on res, refreshing res's identity before each
// Set when an earlier one changed it. It returns the number of rules
// applied; the first failing step stops it with an *Error, and so does a
// step that leaves the resource without apiVersion, kind or name.
func Apply(res *Resource, sets []Set) (int, error) { return ApplyTrace(res, sets, nil) }

// Applied is one step of a policy's rule that applied to a resource.
type Applied struct {
	Policy *Ref
	// Rule and Step are the rule's and the step's fields inside the policy,
	// e.g. "spec.overrideRules[0]" and
	// "spec.overrideRules[0].overriders.plaintext[0]".
	Rule, Step string
	// Changed lists the JSON pointers (RFC 6901) of the values the step
	// changed, added or removed, at most MaxChanged of them; More counts
	// the rest. Both are filled only when the Trace explains.
	Changed []string
	More    int
}

// Trace collects, when passed to ApplyTrace, the steps that applied to a
// resource (a bookkeeping rule's steps are not listed). With Explain,
// each step's changes are computed by comparing the resource's JSON view
// before and after it, which costs two encodings per step: only a run
// that explains pays it.
type Trace struct {
	Explain bool
	Applied []Applied
	// Placement is what a Placer decided for the resource, when one did.
	Placement *Placement
	// Matched lists the rules that matched the resource, once each, whether
	// or not they changed it: every rule a Set returned, and of a step that
	// runs many rules of its policy (a MatchingFilter) those it says
	// matched. A bookkeeping rule is not listed.
	Matched []Match
}

// Match is a rule of a policy that matched a resource.
type Match struct {
	Policy *Ref
	// Rule is the rule's field inside the policy, e.g.
	// "spec.overrideRules[0]" or "spec.rules[1]".
	Rule string
}

// ApplyTrace is Apply recording the steps that applied in tr (nil: none).
func ApplyTrace(res *Resource, sets []Set, tr *Trace) (int, error) {
	applied := 0
	for i, set := range sets {
		if i > 0 && res.Touched {
			res.Refresh()
		}
		rules, err := set.Rules(res)
		if err != nil {
			resRef := res.Ref
			return applied, &Error{Resource: &resRef, Err: err}
		}
		for _, rule := range rules {
			counted := rule.Internal
			ruleMatched := tr != nil && !rule.Internal
			for _, step := range rule.Steps {
				var before []byte
				if tr != nil && tr.Explain && !rule.Internal {
					before, _ = yamlnode.MarshalJSON(res.Node.YNode())
				}
				n, modified, matched, err := runStep(step, res.Node)
				if err == nil && modified {
					err = checkIdentity(res.Node)
				}
				if err != nil {
					resRef := res.Ref
					field := step.Field
					var fe interface{ PolicyField() string }
					if errors.As(err, &fe) {
						field = fe.PolicyField()
					}
					return applied, &Error{Policy: *rule.Policy, Field: field, Resource: &resRef, Err: err}
				}
				res.Touched = res.Touched || modified
				if tr != nil && !rule.Internal && matched != nil {
					// The step says which of its policy's rules matched.
					ruleMatched = false
					for _, m := range matched {
						tr.match(rule.Policy, m)
					}
				}
				if tr != nil && !rule.Internal && n != 0 {
					a := Applied{Policy: rule.Policy, Rule: rule.Field, Step: step.Field}
					if tr.Explain && modified {
						after, _ := yamlnode.MarshalJSON(res.Node.YNode())
						a.Changed, a.More = ChangedPointers(before, after, MaxChanged)
					}
					tr.Applied = append(tr.Applied, a)
				}
				if n >= 0 {
					applied += n
					counted = true
				}
			}
			if ruleMatched {
				tr.match(rule.Policy, rule.Field)
			}
			if !counted {
				applied++
				if tr != nil && len(rule.Steps) == 0 {
					// A rule without steps still applies (and counts).
					tr.Applied = append(tr.Applied, Applied{Policy: rule.Policy, Rule: rule.Field})
				}
			}
		}
	}
	return applied, nil
}

// match records that a rule of p matched, once.
func (tr *Trace) match(p *Ref, rule string) {
	for _, m := range tr.Matched {
		if m.Rule == rule && *m.Policy == *p {
			return
		}
	}
	tr.Matched = append(tr.Matched, Match{Policy: p, Rule: rule})
}

// checkIdentity fails a resource that an override left without apiVersion,
// kind or metadata.name. Karmada re-decodes the patched object after each
// overrider and fails it when its kind is gone ("Object 'Kind' is missing",
// apimachinery's unstructured decoding); an object without apiVersion or
// name would be refused by the member cluster's API server as well.
func checkIdentity(n *yaml.RNode) error {
	for _, f := range [][]string{{yaml.APIVersionField}, {yaml.KindField}, {yaml.MetadataField, yaml.NameField}} {
		if scalar(n, f...) == "" {
			return fmt.Errorf("the override leaves the resource without %s: the control plane fails such an object when it decodes it, so no cluster would receive it; change the rule so that it keeps %s", strings.Join(f, "."), strings.Join(f, "."))
		}
	}
	return nil
}

// CountingFilter is a Filter that reports how many rules it applied (a
// Kyverno policy runs many rules in one step, some or none of which change
// the resource) and whether it edited the node at all (a rule can edit it
// and count as unapplied, e.g. when its net effect is nil).
type CountingFilter interface {
	yaml.Filter
	FilterCount(n *yaml.RNode) (applied int, modified bool, err error)
}

// MatchingFilter is a CountingFilter whose step runs several rules of its
// policy (a Kyverno policy's mutate rules) and also says which of them
// matched the resource, by their fields in the policy, whether or not they
// changed it: a rule that matched is working as meant, even when the
// resource already had what it sets.
type MatchingFilter interface {
	CountingFilter
	FilterMatch(n *yaml.RNode) (applied int, modified bool, matched []string, err error)
}

// runStep runs a step; n is the rules it applied, or -1 when the step
// does not count them; modified is false only when the step says it left
// the node alone; matched is nil unless the step is a MatchingFilter, and
// then not nil.
func runStep(step Step, node *yaml.RNode) (n int, modified bool, matched []string, err error) {
	if m, ok := step.Filter.(MatchingFilter); ok {
		n, modified, matched, err = m.FilterMatch(node)
		if matched == nil {
			matched = []string{}
		}
		return n, modified, matched, err
	}
	if c, ok := step.Filter.(CountingFilter); ok {
		n, modified, err = c.FilterCount(node)
		return n, modified, nil, err
	}
	_, err = step.Filter.Filter(node)
	return -1, true, nil, err
}

// Error is a problem with a policy: invalid (Resource is nil), failing to
// apply to a resource, or (Policy empty) a resource whose policies cannot be
// found.
type Error struct {
	Policy Ref
	// Field is the path inside the policy, e.g.
	// "spec.overrideRules[0].overriders.plaintext".
	Field    string
	Resource *Ref
	Err      error
}

func (e *Error) Error() string {
	if e.Policy.Kind == "" && e.Resource != nil {
		return e.Resource.GVKString() + ": " + e.Err.Error()
	}
	var b strings.Builder
	b.WriteString(e.Policy.String())
	if e.Resource != nil {
		if e.Field != "" {
			b.WriteString(" " + e.Field)
		}
		b.WriteString(": " + e.Resource.GVKString())
	}
	b.WriteString(": " + e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Warning marks a compile problem that does not stop the run (e.g. a
// policy whose result depends on the time it runs).
type Warning struct{ Err error }

func (w *Warning) Error() string { return w.Err.Error() }
func (w *Warning) Unwrap() error { return w.Err }

// IsWarning reports whether err is, or wraps, a *Warning.
func IsWarning(err error) bool {
	var w *Warning
	return errors.As(err, &w)
}

// Note marks something a render assumed or decided that the user should
// know, reported as an info result when the run succeeds (e.g. a cluster
// whose object does not say which APIs it serves).
type Note struct{ Err error }

func (n *Note) Error() string { return n.Err.Error() }
func (n *Note) Unwrap() error { return n.Err }

// IsNote reports whether err is, or wraps, a *Note.
func IsNote(err error) bool {
	var n *Note
	return errors.As(err, &n)
}
