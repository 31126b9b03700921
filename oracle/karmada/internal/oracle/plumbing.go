// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package oracle

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/tools/cache"

	"github.com/karmada-io/karmada/pkg/resourceinterpreter/default/native"
)

// nativeInterpreter is Karmada's default (native) resource interpreter as a
// resourceinterpreter.ResourceInterpreter: the full chain's other layers
// (Lua customizations, webhooks, third-party Lua) have nothing to say about
// the built-in kinds the scenarios hold.
type nativeInterpreter struct {
	*native.DefaultInterpreter
}

func (nativeInterpreter) Start(context.Context) error { return nil }

// staticInformers is a genericmanager.SingleClusterInformerManager whose
// caches are filled once with the templates, already synced. (The real
// manager's informers would list and watch an API server; the controllers
// only read its listers.)
type staticInformers struct {
	indexers map[schema.GroupVersionResource]cache.Indexer
	dyn      dynamic.Interface
}

func newStaticInformers(mapper meta.RESTMapper, templates []*unstructured.Unstructured) *staticInformers {
	s := &staticInformers{indexers: map[schema.GroupVersionResource]cache.Indexer{}}
	for _, t := range templates {
		m, err := mapper.RESTMapping(t.GroupVersionKind().GroupKind(), t.GroupVersionKind().Version)
		if err != nil {
			continue
		}
		s.indexer(m.Resource).Add(t.DeepCopy()) //nolint:errcheck // a key always derives
	}
	return s
}

func (s *staticInformers) indexer(gvr schema.GroupVersionResource) cache.Indexer {
	idx, ok := s.indexers[gvr]
	if !ok {
		idx = cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
		s.indexers[gvr] = idx
	}
	return idx
}

func (s *staticInformers) ForResource(gvr schema.GroupVersionResource, _ cache.ResourceEventHandler) {
	s.indexer(gvr)
}
func (s *staticInformers) IsInformerSynced(schema.GroupVersionResource) bool { return true }
func (s *staticInformers) IsHandlerExist(schema.GroupVersionResource, cache.ResourceEventHandler) bool {
	return true
}
func (s *staticInformers) Lister(gvr schema.GroupVersionResource) cache.GenericLister {
	return cache.NewGenericLister(s.indexer(gvr), gvr.GroupResource())
}
func (s *staticInformers) Start() {}
func (s *staticInformers) Stop()  {}
func (s *staticInformers) WaitForCacheSync() map[schema.GroupVersionResource]bool {
	return map[schema.GroupVersionResource]bool{}
}
func (s *staticInformers) WaitForCacheSyncWithTimeout(time.Duration) map[schema.GroupVersionResource]bool {
	return map[schema.GroupVersionResource]bool{}
}
func (s *staticInformers) Context() context.Context     { return context.Background() }
func (s *staticInformers) GetClient() dynamic.Interface { return s.dyn }

// newDynamic is a fake dynamic client holding the templates (the
// controllers' fallback when a lister misses).
func newDynamic(templates []*unstructured.Unstructured) dynamic.Interface {
	objs := make([]runtime.Object, 0, len(templates))
	for _, t := range templates {
		objs = append(objs, t.DeepCopy())
	}
	return dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{}, objs...)
}
