// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package oracle

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	fedcorev1a1 "github.com/kubewharf/kubeadmiral/pkg/apis/core/v1alpha1"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/scheduler/framework"
	podutil "github.com/kubewharf/kubeadmiral/pkg/util/pod"
	resourceutil "github.com/kubewharf/kubeadmiral/pkg/util/resource"
	unstructuredutil "github.com/kubewharf/kubeadmiral/pkg/util/unstructured"
)

// schedulingUnit is a port of KubeAdmiral's unexported
// pkg/controllers/scheduler/schedulingunit.go schedulingUnitForFedObject (at
// 19de01c), for a fresh FederatedObject: no scheduler placement yet (so
// CurrentClusters is empty), no auto-migration info and no applied custom
// migration (the oracle refuses objects carrying the migration annotations,
// see Run). It keeps the upstream order of precedence: the policy's field,
// replaced by the FO annotation when that parses (the get*FromObject helpers
// below), Divide falling back to Duplicate for FTCs without
// pathDefinition.replicasSpec, and only the GPU request kept (katalyst
// support is off by default).
func schedulingUnit(ftc *fedcorev1a1.FederatedTypeConfig, fo fedcorev1a1.GenericFederatedObject, policy fedcorev1a1.GenericPropagationPolicy) (*framework.SchedulingUnit, error) {
	tpl, err := fo.GetSpec().GetTemplateAsUnstructured()
	if err != nil {
		return nil, err
	}
	spec := policy.GetSpec()
	ann := fo.GetAnnotations()

	mode := scheduler.DefaultSchedulingMode
	switch spec.SchedulingMode {
	case fedcorev1a1.SchedulingModeDuplicate, fedcorev1a1.SchedulingModeDivide:
		mode = spec.SchedulingMode
	}
	if v, ok := ann[scheduler.SchedulingModeAnnotation]; ok && (v == string(fedcorev1a1.SchedulingModeDuplicate) || v == string(fedcorev1a1.SchedulingModeDivide)) {
		mode = fedcorev1a1.SchedulingMode(v)
	}
	replicasPath := ftc.Spec.PathDefinition.ReplicasSpec
	if mode == fedcorev1a1.SchedulingModeDivide && replicasPath == "" {
		mode = fedcorev1a1.SchedulingModeDuplicate
	}
	var desired *int64
	if mode == fedcorev1a1.SchedulingModeDivide {
		desired, err = unstructuredutil.GetInt64FromPath(tpl, replicasPath, nil)
		if err != nil {
			return nil, err
		}
		if desired == nil {
			return nil, fmt.Errorf("replicas path %q does not exist", replicasPath)
		}
	}

	src := ftc.GetSourceType()
	su := &framework.SchedulingUnit{
		GroupVersion:    schema.GroupVersion{Group: src.Group, Version: src.Version},
		Kind:            src.Kind,
		Resource:        src.Name,
		Namespace:       tpl.GetNamespace(),
		Name:            tpl.GetName(),
		Labels:          tpl.GetLabels(),
		Annotations:     tpl.GetAnnotations(),
		DesiredReplicas: desired,
		CurrentClusters: map[string]*int64{},
		SchedulingMode:  mode,
	}
	su.ReplicasStrategy = fedcorev1a1.ReplicasStrategySpread
	if spec.ReplicasStrategy != nil && *spec.ReplicasStrategy == fedcorev1a1.ReplicasStrategyBinpack {
		su.ReplicasStrategy = fedcorev1a1.ReplicasStrategyBinpack
	}
	if spec.AutoMigration != nil {
		su.AutoMigration = &framework.AutoMigrationSpec{KeepUnschedulableReplicas: spec.AutoMigration.KeepUnschedulableReplicas}
	}
	if rp := spec.ReschedulePolicy; rp != nil {
		su.AvoidDisruption = rp.ReplicaRescheduling != nil && rp.ReplicaRescheduling.AvoidDisruption
		su.StickyCluster = rp.DisableRescheduling
	}
	switch ann[scheduler.StickyClusterAnnotation] {
	case scheduler.StickyClusterAnnotationTrue:
		su.StickyCluster = true
	case scheduler.StickyClusterAnnotationFalse:
		su.StickyCluster = false
	}

	su.ClusterSelector = spec.ClusterSelector
	if v, ok := ann[scheduler.ClusterSelectorAnnotations]; ok {
		sel := map[string]string{}
		if json.Unmarshal([]byte(v), &sel) == nil {
			su.ClusterSelector = sel
		}
	}

	// Placements: every map comes from the policy, and is replaced by the
	// annotation's one when the annotation parses and that map has no
	// negative value.
	if spec.Placements != nil {
		su.ClusterNames, su.MinReplicas, su.MaxReplicas, su.Weights, su.Priorities = placementMaps(spec.Placements)
	}
	if v, ok := ann[scheduler.PlacementsAnnotations]; ok {
		var ps []fedcorev1a1.DesiredPlacement
		if json.Unmarshal([]byte(v), &ps) == nil {
			names, mins, maxs, weights, prios := placementMaps(ps)
			su.ClusterNames = names
			if !anyNegative(mins) {
				su.MinReplicas = mins
			}
			if !anyNegative(maxs) {
				su.MaxReplicas = maxs
			}
			if !anyNegative(weights) {
				su.Weights = weights
			}
			if !anyNegative(prios) {
				su.Priorities = prios
			}
		}
	}

	if len(spec.ClusterAffinity) > 0 {
		su.Affinity = &framework.Affinity{ClusterAffinity: &framework.ClusterAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: &framework.ClusterSelector{ClusterSelectorTerms: spec.ClusterAffinity},
		}}
	}
	if v, ok := ann[scheduler.AffinityAnnotations]; ok {
		a := &framework.Affinity{}
		if json.Unmarshal([]byte(v), a) == nil {
			su.Affinity = a
		}
	}

	su.Tolerations = spec.Tolerations
	if v, ok := ann[scheduler.TolerationsAnnotations]; ok {
		t := []corev1.Toleration{}
		if json.Unmarshal([]byte(v), &t) == nil {
			su.Tolerations = t
		}
	}

	su.MaxClusters = spec.MaxClusters
	if v, ok := ann[scheduler.MaxClustersAnnotations]; ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			m := int64(n)
			su.MaxClusters = &m
		}
	}

	// The resource request, as the unexported scheduler/util.go
	// getResourceRequest computes it, of which only the GPU is kept.
	if podSpec, err := podutil.GetResourcePodSpec(fo, ftc.GetSourceTypeGVK()); err == nil {
		req := framework.NewResource(resourceutil.GetPodResourceRequests(podSpec))
		if req.HasScalarResource(framework.ResourceGPU) {
			su.ResourceRequest.SetScalar(framework.ResourceGPU, req.ScalarResources[framework.ResourceGPU])
		}
	} else if !errors.Is(err, podutil.ErrUnknownTypeToGetPodSpec) {
		return nil, err
	}
	return su, nil
}

// placementMaps splits placement entries into the scheduling unit's maps:
// the cluster set, minReplicas for every entry, and maxReplicas, weight and
// priority only where set (schedulingunit.go get*FromPolicy).
func placementMaps(ps []fedcorev1a1.DesiredPlacement) (names map[string]struct{}, mins, maxs, weights, prios map[string]int64) {
	names = map[string]struct{}{}
	mins, maxs, weights, prios = map[string]int64{}, map[string]int64{}, map[string]int64{}, map[string]int64{}
	for _, p := range ps {
		names[p.Cluster] = struct{}{}
		mins[p.Cluster] = p.Preferences.MinReplicas
		if p.Preferences.MaxReplicas != nil {
			maxs[p.Cluster] = *p.Preferences.MaxReplicas
		}
		if p.Preferences.Weight != nil {
			weights[p.Cluster] = *p.Preferences.Weight
		}
		if p.Preferences.Priority != nil {
			prios[p.Cluster] = *p.Preferences.Priority
		}
	}
	return
}

func anyNegative(m map[string]int64) bool {
	for _, v := range m {
		if v < 0 {
			return true
		}
	}
	return false
}
