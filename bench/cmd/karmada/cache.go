// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	clusterv1alpha1 "github.com/karmada-io/karmada/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"
)

// cacheClient is the read side of the informer-backed client Karmada's
// controllers are built with: Get and List answer from memory, and List
// shares the stored objects when the caller passes UnsafeDisableDeepCopy,
// as the override manager does. The override manager calls nothing else;
// every other method of the embedded nil client.Client panics.
type cacheClient struct {
	client.Client
	cops     []policyv1alpha1.ClusterOverridePolicy
	ops      map[string][]policyv1alpha1.OverridePolicy // by namespace
	clusters map[string]*clusterv1alpha1.Cluster
}

var _ client.Reader = (*cacheClient)(nil)

func newCacheClient(ops []policyv1alpha1.OverridePolicy, cops []policyv1alpha1.ClusterOverridePolicy, clusters []clusterv1alpha1.Cluster) *cacheClient {
	c := &cacheClient{
		cops:     cops,
		ops:      map[string][]policyv1alpha1.OverridePolicy{},
		clusters: map[string]*clusterv1alpha1.Cluster{},
	}
	for _, p := range ops {
		c.ops[p.Namespace] = append(c.ops[p.Namespace], p)
	}
	for i := range clusters {
		c.clusters[clusters[i].Name] = &clusters[i]
	}
	return c
}

// Get serves Clusters. Like an informer cache's Get it copies the object.
func (c *cacheClient) Get(_ context.Context, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	out, ok := obj.(*clusterv1alpha1.Cluster)
	if !ok {
		return fmt.Errorf("cacheClient: Get of %T is not supported", obj)
	}
	src, ok := c.clusters[key.Name]
	if !ok {
		return apierrors.NewNotFound(schema.GroupResource{Group: clusterv1alpha1.GroupName, Resource: "clusters"}, key.Name)
	}
	src.DeepCopyInto(out)
	return nil
}

// List serves ClusterOverridePolicies and OverridePolicies (of one
// namespace, or of all).
func (c *cacheClient) List(_ context.Context, list client.ObjectList, opts ...client.ListOption) error {
	lo := &client.ListOptions{}
	lo.ApplyOptions(opts)
	share := lo.UnsafeDisableDeepCopy != nil && *lo.UnsafeDisableDeepCopy
	switch l := list.(type) {
	case *policyv1alpha1.ClusterOverridePolicyList:
		l.Items = c.cops
		if !share {
			l.Items = (&policyv1alpha1.ClusterOverridePolicyList{Items: c.cops}).DeepCopy().Items
		}
	case *policyv1alpha1.OverridePolicyList:
		var items []policyv1alpha1.OverridePolicy
		if lo.Namespace != "" {
			items = c.ops[lo.Namespace]
		} else {
			for _, ps := range c.ops {
				items = append(items, ps...)
			}
		}
		l.Items = items
		if !share {
			l.Items = (&policyv1alpha1.OverridePolicyList{Items: items}).DeepCopy().Items
		}
	default:
		return fmt.Errorf("cacheClient: List of %T is not supported", list)
	}
	return nil
}
