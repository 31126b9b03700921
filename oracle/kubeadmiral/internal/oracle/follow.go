// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package oracle

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"

	fedcorev1a1 "github.com/kubewharf/kubeadmiral/pkg/apis/core/v1alpha1"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/common"
	"github.com/kubewharf/kubeadmiral/pkg/controllers/follower"
	podutil "github.com/kubewharf/kubeadmiral/pkg/lifted/kubernetes/pkg/api/v1/pod"
	fedpodutil "github.com/kubewharf/kubeadmiral/pkg/util/pod"
)

// followerKinds mirrors the unexported supportedFollowerTypes of
// pkg/controllers/follower/controller.go. FTCs annotated with
// common.HPAScaleTargetRefPath count as follower kinds too (isHPAType).
var followerKinds = sets.New(
	schema.GroupKind{Kind: common.ConfigMapKind},
	schema.GroupKind{Kind: common.SecretKind},
	schema.GroupKind{Kind: common.PersistentVolumeClaimKind},
	schema.GroupKind{Kind: common.ServiceAccountKind},
	schema.GroupKind{Kind: common.ServiceKind},
	schema.GroupKind{Group: networkingv1.GroupName, Kind: common.IngressKind},
)

// leaderPodSpecPath is the follower controller's leaderPodSpecPaths, which
// its init fills from pkg/util/pod PodSpecPaths for exactly the kinds that
// map lists; so a kind is a leader iff PodSpecPaths has it.
func leaderPodSpecPath(gk schema.GroupKind) (string, bool) {
	p, ok := fedpodutil.PodSpecPaths[gk]
	return p, ok
}

// inferFollowers follows the follower controller's inferFollowers: nothing
// unless the leader FO enables follower scheduling, is not no-scheduling
// "true" and is not skipped by follower.SkipSync; then the followers of the
// leader annotation (follower.GetFollowersFromAnnotation) and of the pod spec.
// An error (bad annotation, missing pod spec) leaves the leader without
// followers, as the controller's StatusError does on a fresh object.
func inferFollowers(gk schema.GroupKind, fo fedcorev1a1.GenericFederatedObject) (sets.Set[follower.FollowerReference], error) {
	ann := fo.GetAnnotations()
	if ann[common.EnableFollowerSchedulingAnnotation] != common.AnnotationValueTrue ||
		ann[common.NoSchedulingAnnotation] == common.AnnotationValueTrue || follower.SkipSync(fo) {
		return nil, nil
	}
	fromAnn, err := follower.GetFollowersFromAnnotation(fo)
	if err != nil {
		return nil, err
	}
	path, _ := leaderPodSpecPath(gk)
	spec, err := fedpodutil.GetPodSpec(fo, path)
	if err != nil {
		return nil, err
	}
	return fromAnn.Union(followersFromPod(fo.GetNamespace(), &corev1.Pod{Spec: *spec})), nil
}

// followersFromPod is ported from the unexported getFollowersFromPod of
// pkg/controllers/follower/util.go (19de01c): Secrets and ConfigMaps through
// the lifted Kubernetes visitors (called here, not copied), every PVC claim
// name (empty included) and a non-empty serviceAccountName.
func followersFromPod(ns string, pod *corev1.Pod) sets.Set[follower.FollowerReference] {
	out := sets.New[follower.FollowerReference]()
	add := func(kind, name string) {
		out.Insert(follower.FollowerReference{GroupKind: schema.GroupKind{Kind: kind}, Namespace: ns, Name: name})
	}
	podutil.VisitPodSecretNames(pod, func(name string) bool { add(common.SecretKind, name); return true })
	podutil.VisitPodConfigmapNames(pod, func(name string) bool { add(common.ConfigMapKind, name); return true })
	for _, v := range pod.Spec.Volumes {
		if v.PersistentVolumeClaim != nil {
			add(common.PersistentVolumeClaimKind, v.PersistentVolumeClaim.ClaimName)
		}
	}
	if pod.Spec.ServiceAccountName != "" {
		add(common.ServiceAccountKind, pod.Spec.ServiceAccountName)
	}
	return out
}

// autoPropagated ports the nsautoprop controller's unexported
// shouldBeAutoPropagated with the default flags: no kube-* names, not the fed
// system namespace, no exclusion regexp, and not annotated
// kubeadmiral.io/no-auto-propagation: "true".
func autoPropagated(name string, annotations map[string]string) bool {
	return !strings.HasPrefix(name, "kube-") && name != common.DefaultFedSystemNamespace &&
		annotations[noAutoPropagationAnnotation] != common.AnnotationValueTrue
}

// systemNamespace ports the sync controller's unexported
// resourceAccessor.isSystemNamespace: Namespaces sync never dispatches.
func systemNamespace(name string) bool {
	switch name {
	case "kube-system", "kube-public", "default", common.DefaultFedSystemNamespace:
		return true
	}
	return false
}
