// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package oracle

import (
	"context"
	"errors"

	"k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	clusterv1alpha1 "github.com/karmada-io/karmada/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/karmada-io/karmada/pkg/apis/work/v1alpha2"
	clusterlister "github.com/karmada-io/karmada/pkg/generated/listers/cluster/v1alpha1"
	schedcache "github.com/karmada-io/karmada/pkg/scheduler/cache"
	"github.com/karmada-io/karmada/pkg/scheduler/core"
	"github.com/karmada-io/karmada/pkg/scheduler/framework"
	"github.com/karmada-io/karmada/pkg/scheduler/framework/plugins"
	"github.com/karmada-io/karmada/pkg/util"
)

// newScheduler is Karmada's generic scheduler with every in-tree plugin
// (karmada-scheduler's default --plugins=*), reading the Clusters through
// its own cache over a lister.
func newScheduler(clusters []*clusterv1alpha1.Cluster) (core.ScheduleAlgorithm, error) {
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, c := range clusters {
		if err := idx.Add(c.DeepCopy()); err != nil {
			return nil, err
		}
	}
	return core.NewGenericScheduler(schedcache.NewCache(clusterlister.NewClusterLister(idx)), plugins.NewInTreeRegistry())
}

// scheduleBinding decides as karmada-scheduler does for a fresh binding
// (reimplemented glue: pkg/scheduler/event_handler.go
// resourceBindingEventFilter, scheduler.go scheduleResourceBinding,
// scheduleResourceBindingWithClusterAffinity/-ies, helper.go
// getAffinityIndex are methods of the Scheduler type and unexported), calls
// the generic scheduler's Schedule, and writes spec.clusters back.
func scheduleBinding(ctx context.Context, c client.Client, alg core.ScheduleAlgorithm, obj client.Object,
	spec *workv1alpha2.ResourceBindingSpec, status *workv1alpha2.ResourceBindingStatus, d *Decision) error {
	if spec.Placement == nil {
		return nil // attached bindings have no placement
	}
	labels := obj.GetLabels()
	if util.GetLabelValue(labels, policyv1alpha1.PropagationPolicyPermanentIDLabel) == "" &&
		util.GetLabelValue(labels, policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel) == "" &&
		util.GetLabelValue(labels, workv1alpha2.BindingManagedByLabel) == "" {
		return nil
	}
	if spec.SchedulerName != "" && spec.SchedulerName != defaultScheduler {
		setReason(d, "schedulerName "+spec.SchedulerName+" is not the default scheduler")
		return nil
	}
	if spec.SchedulingSuspended() {
		setReason(d, "scheduling suspended")
		return nil
	}
	opt := &core.ScheduleAlgorithmOption{EnableEmptyWorkloadPropagation: false}
	var result core.ScheduleResult
	var err error
	if affinities := spec.Placement.ClusterAffinities; affinities != nil {
		var firstErr error
		ok := false
		st := status.DeepCopy()
		for _, term := range affinities { // fresh binding: start at index 0
			st.SchedulerObservedAffinityName = term.AffinityName
			result, err = alg.Schedule(ctx, spec, st, opt)
			if err == nil {
				ok = true
				if d != nil {
					d.Affinity = term.AffinityName
				}
				status.SchedulerObservedAffinityName = term.AffinityName
				break
			}
			if firstErr == nil {
				firstErr = err
			}
		}
		if !ok {
			if firstErr == nil {
				setReason(d, "clusterAffinities is empty")
			} else {
				setReason(d, "scheduling: "+firstErr.Error())
			}
			return nil
		}
	} else {
		result, err = alg.Schedule(ctx, spec, status, opt)
		if err != nil {
			var fitErr *framework.FitError
			if errors.As(err, &fitErr) {
				setReason(d, "no cluster fits: "+err.Error())
			} else {
				setReason(d, "scheduling: "+err.Error())
			}
			return nil
		}
	}
	spec.Clusters = result.SuggestedClusters
	if d != nil {
		d.Scheduled = result.SuggestedClusters
		if len(result.SuggestedClusters) == 0 {
			setReason(d, "scheduled to no cluster")
		}
	}
	return c.Update(ctx, obj)
}

func setReason(d *Decision, r string) {
	if d == nil {
		return
	}
	if d.Reason != "" {
		d.Reason += "; "
	}
	d.Reason += r
}
