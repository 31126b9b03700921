// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package oracle

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/sets"

	fedcorev1a1 "github.com/kubewharf/kubeadmiral/pkg/apis/core/v1alpha1"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/common"
	federatectl "github.com/kubewharf/kubeadmiral/pkg/controllers/federate"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler"
)

// crdDefaults applies the structural defaults of the (Cluster)PropagationPolicy
// CRDs (config/crds/bases/core_kubeadmiral_io, and the patch script that
// defaults replicaRescheduling to {}), which the API server applies and Go
// code on raw YAML would miss: replicasStrategy Spread, reschedulePolicy
// {rescheduleWhen: {policyContentChanged: true}} and, recursively,
// replicaRescheduling {avoidDisruption: true}. For a fresh schedule none of
// these changes the result except replicasStrategy (spec §0, §4.1).
func crdDefaults(u *unstructured.Unstructured) *unstructured.Unstructured {
	u = u.DeepCopy()
	spec, ok := u.Object["spec"].(map[string]any)
	if !ok {
		return u
	}
	if _, ok := spec["replicasStrategy"]; !ok {
		spec["replicasStrategy"] = string(fedcorev1a1.ReplicasStrategySpread)
	}
	rp, ok := spec["reschedulePolicy"].(map[string]any)
	if !ok {
		rp = map[string]any{"rescheduleWhen": map[string]any{"policyContentChanged": true}}
		spec["reschedulePolicy"] = rp
	}
	rr, ok := rp["replicaRescheduling"].(map[string]any)
	if !ok {
		rr = map[string]any{}
		rp["replicaRescheduling"] = rr
	}
	if _, ok := rr["avoidDisruption"]; !ok {
		rr["avoidDisruption"] = true
	}
	return u
}

// defaultTemplate applies the host API server's default that matters here:
// spec.replicas 1 on Deployments, StatefulSets and ReplicaSets (Kubernetes'
// apps/v1 defaulters live in k8s.io/kubernetes, which is not importable).
func defaultTemplate(u *unstructured.Unstructured) {
	if u.GetAPIVersion() != "apps/v1" {
		return
	}
	switch u.GetKind() {
	case "Deployment", "StatefulSet", "ReplicaSet":
		if _, ok, _ := unstructured.NestedFieldNoCopy(u.Object, "spec", "replicas"); !ok {
			_ = unstructured.SetNestedField(u.Object, int64(1), "spec", "replicas")
		}
	}
}

// federatedLabels and federatedAnnotations mirror the unexported
// federatedLabelSet / federatedAnnotationSet of pkg/controllers/federate/util.go:
// the source keys the federate controller moves onto the FederatedObject
// (where the scheduler and follower controller read them). droppedAnnotations
// is its ignoredAnnotationSet.
var (
	federatedLabels = sets.New(
		scheduler.PropagationPolicyNameLabel,
		scheduler.ClusterPropagationPolicyNameLabel,
		common.DefaultPrefix+"override-policy-name",
		common.DefaultPrefix+"cluster-override-policy-name",
	)
	federatedAnnotations = sets.New(
		common.RetainReplicasAnnotation,
		scheduler.SchedulingModeAnnotation,
		scheduler.StickyClusterAnnotation,
		noAutoPropagationAnnotation,
		common.DefaultPrefix+"orphan",
		common.DefaultPrefix+"conflict-resolution",
		common.DefaultPrefix+"clusters-to-adopt",
		scheduler.TolerationsAnnotations,
		scheduler.PlacementsAnnotations,
		scheduler.ClusterSelectorAnnotations,
		scheduler.AffinityAnnotations,
		scheduler.MaxClustersAnnotations,
		common.NoSchedulingAnnotation,
		scheduler.FollowsObjectAnnotation,
		common.FollowersAnnotation,
		common.DisableFollowingAnnotation,
		common.MigrationConfigurationAnnotation,
		common.DryRunAnnotation,
	)
	droppedAnnotations = sets.New(
		common.LatestReplicasetDigestsAnnotation,
		common.AppliedMigrationConfigurationAnnotation,
		scheduler.SchedulingAnnotation,
	)
)

// federate builds the fresh (Cluster)FederatedObject of a source object as
// the federate controller's newFederatedObjectForSourceObject does for what
// the scheduler and the follower controller read: the classified labels and
// annotations on the FO, and the template from federate.TemplateForSourceObject
// (called). No placement, overrides or status: the object is fresh.
func federate(src *unstructured.Unstructured) (fedcorev1a1.GenericFederatedObject, error) {
	var fo fedcorev1a1.GenericFederatedObject = &fedcorev1a1.FederatedObject{}
	if src.GetNamespace() == "" {
		fo = &fedcorev1a1.ClusterFederatedObject{}
	}
	foLabels, tplLabels := map[string]string{}, map[string]string{}
	for k, v := range src.GetLabels() {
		if federatedLabels.Has(k) {
			foLabels[k] = v
		} else {
			tplLabels[k] = v
		}
	}
	foAnn, tplAnn := map[string]string{}, map[string]string{}
	for k, v := range src.GetAnnotations() {
		switch {
		case droppedAnnotations.Has(k):
		case federatedAnnotations.Has(k):
			foAnn[k] = v
		default:
			tplAnn[k] = v
		}
	}
	fo.SetNamespace(src.GetNamespace())
	fo.SetName(src.GetName())
	fo.SetLabels(foLabels)
	fo.SetAnnotations(foAnn)
	raw, err := federatectl.TemplateForSourceObject(src, tplAnn, tplLabels).MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("template of %s %s/%s: %w", src.GetKind(), src.GetNamespace(), src.GetName(), err)
	}
	fo.GetSpec().Template.Raw = raw
	return fo, nil
}

// assume applies the function's documented assumptions to the oracle's
// input, so that the rest of the decision compares exactly:
//   - a FederatedCluster without status.apiResourceTypes serves every API
//     of the scenario (APIResources would reject it for every type);
//   - a FederatedCluster without a Ready condition is Ready and Joined
//     (conditions it lacks are added as True).
//
// It returns what it assumed, per cluster.
func assume(clusters []*fedcorev1a1.FederatedCluster, templates []*template) []string {
	var apis []fedcorev1a1.APIResource
	seen := map[string]bool{}
	for _, t := range templates {
		k := t.gvk.String()
		if seen[k] {
			continue
		}
		seen[k] = true
		apis = append(apis, fedcorev1a1.APIResource{
			Group: t.gvk.Group, Version: t.gvk.Version, Kind: t.gvk.Kind,
			PluralName: strings.ToLower(t.gvk.Kind) + "s",
		})
	}
	sort.Slice(apis, func(i, j int) bool {
		return apis[i].Group+"/"+apis[i].Version+"/"+apis[i].Kind < apis[j].Group+"/"+apis[j].Version+"/"+apis[j].Kind
	})
	var out []string
	for _, c := range clusters {
		if len(c.Status.APIResourceTypes) == 0 {
			c.Status.APIResourceTypes = append([]fedcorev1a1.APIResource(nil), apis...)
			out = append(out, c.Name+": apiResourceTypes")
		}
		if !hasCondition(c, fedcorev1a1.ClusterReady) {
			c.Status.Conditions = append(c.Status.Conditions, fedcorev1a1.ClusterCondition{Type: fedcorev1a1.ClusterReady, Status: "True"})
			if !hasCondition(c, fedcorev1a1.ClusterJoined) {
				c.Status.Conditions = append(c.Status.Conditions, fedcorev1a1.ClusterCondition{Type: fedcorev1a1.ClusterJoined, Status: "True"})
			}
			out = append(out, c.Name+": Ready=True,Joined=True")
		}
	}
	return out
}

func hasCondition(c *fedcorev1a1.FederatedCluster, t fedcorev1a1.ClusterConditionType) bool {
	for _, cond := range c.Status.Conditions {
		if cond.Type == t {
			return true
		}
	}
	return false
}
