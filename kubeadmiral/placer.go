// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubeadmiral

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/sets"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/workload"
	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/policy"
)

// The annotations KubeAdmiral reads on a source object for placement
// (pkg/controllers/common/constants.go, scheduler/constants.go,
// follower/util.go @19de01c).
const (
	noSchedulingAnnotation     = "kubeadmiral.io/no-scheduling"
	noFederatedAnnotation      = "kubeadmiral.io/no-federated-resource"
	noAutoPropAnnotation       = "kubeadmiral.io/no-auto-propagation"
	followersAnnotation        = "kubeadmiral.io/followers"
	disableFollowingAnnotation = "kubeadmiral.io/disable-following"
	modeAnnotation             = "kubeadmiral.io/scheduling-mode"
	selectorAnnotation         = "kubeadmiral.io/clusterSelector"
	tolerationsAnnotation      = "kubeadmiral.io/tolerations"
	maxClustersAnnotation      = "kubeadmiral.io/maxClusters"
	placementsAnnotation       = "kubeadmiral.io/placements"
	affinityAnnotation         = "kubeadmiral.io/affinity"
	migrationAnnotation        = "kubeadmiral.io/migration-configuration"

	// fedSystemNamespace is KubeAdmiral's own namespace
	// (common.DefaultFedSystemNamespace), whose objects are never federated.
	fedSystemNamespace = "kube-admiral-system"
)

// federatedTypes are the source types of the default FederatedTypeConfigs
// (config/sample/host/01-ftc.yaml @19de01c): an object of another type is
// not federated, and so reaches no member cluster.
var federatedTypes = sets.New(
	"v1/Namespace", "v1/ConfigMap", "apps/v1/Deployment", "v1/ServiceAccount", "v1/Secret", "v1/Service",
	"storage.k8s.io/v1/StorageClass", "v1/PersistentVolume", "v1/PersistentVolumeClaim",
	"rbac.authorization.k8s.io/v1/ClusterRoleBinding", "rbac.authorization.k8s.io/v1/ClusterRole",
	"rbac.authorization.k8s.io/v1/RoleBinding", "rbac.authorization.k8s.io/v1/Role",
	"apps/v1/StatefulSet", "apps/v1/DaemonSet", "batch/v1/Job", "batch/v1/CronJob",
	"networking.k8s.io/v1/Ingress", "v1/LimitRange", "v1/ResourceQuota",
	"apiextensions.k8s.io/v1/CustomResourceDefinition", "autoscaling/v2/HorizontalPodAutoscaler",
	"multicluster.x-k8s.io/v1alpha1/ServiceImport", "multicluster.x-k8s.io/v1alpha1/ServiceExport",
	"discovery.k8s.io/v1/EndpointSlice",
)

// leaderPodSpecPaths are the group/kinds whose pod spec names followers,
// and where it is (follower/util.go leaderPodSpecPaths): ReplicaSet is not
// a leader.
var leaderPodSpecPaths = map[string][]string{
	"apps/Deployment": {"spec", "template", "spec"}, "apps/StatefulSet": {"spec", "template", "spec"},
	"apps/DaemonSet": {"spec", "template", "spec"}, "batch/Job": {"spec", "template", "spec"},
	"batch/CronJob": {"spec", "jobTemplate", "spec", "template", "spec"}, "/Pod": {"spec"},
}

// followerKinds are the kinds a leader's references may name
// (supportedFollowerTypes), by the apiVersion of their default FTC.
var followerKinds = map[string]string{
	"ConfigMap": "v1", "Secret": "v1", "PersistentVolumeClaim": "v1", "ServiceAccount": "v1", "Service": "v1",
	"Ingress": "networking.k8s.io/v1", "HorizontalPodAutoscaler": "autoscaling/v2",
}

// resourceKey identifies a resource of the input.
type resourceKey struct{ apiVersion, kind, namespace, name string }

func keyOf(r *policy.Resource) resourceKey {
	return resourceKey{r.APIVersion, r.Kind, r.Namespace, r.Name}
}

// gvkOf is a resource's "group/version/Kind" ("v1/Kind" for the core group).
func gvkOf(r *policy.Resource) string { return r.APIVersion + "/" + r.Kind }

// groupKind is "group/Kind", "" for the core group.
func groupKind(r *policy.Resource) string {
	group := ""
	if g, _, ok := strings.Cut(r.APIVersion, "/"); ok {
		group = g
	}
	return group + "/" + r.Kind
}

// placed is where one resource goes by its own policy.
type placed struct {
	policy *propagationPolicy
	// clusters maps each receiving cluster to its replicas; nil replicas in
	// Duplicate mode (the template's own count).
	clusters map[string]*int64
	// why says, per cluster left out, why.
	why map[string]string
	// nowhere is why the resource goes to no cluster by its own policy.
	nowhere string
}

// placements decides for the input: the policies, the fleet and the
// followers' clusters, which depend on every leader.
type placements struct {
	pps map[string]*propagationPolicy // propagationKey → policy
	// ordered are the policies in input order.
	ordered []*propagationPolicy
	fleet   []*policy.Cluster
	// follows holds, per follower, the clusters its leaders go to.
	follows map[resourceKey]map[string]bool
}

// decide places one resource by its own policy.
func (ps *placements) decide(res *policy.Resource) (*placed, error) {
	annotations := res.Node.GetAnnotations()
	if why := unfederated(res, annotations); why != "" {
		return &placed{nowhere: why}, nil
	}
	if res.APIVersion == "v1" && res.Kind == "Namespace" {
		return ps.namespace(res, annotations), nil
	}
	p, why := ps.lookup(res)
	if p == nil {
		return &placed{nowhere: why}, nil
	}
	if annotations[noSchedulingAnnotation] != "" {
		return &placed{policy: p, nowhere: "annotation " + noSchedulingAnnotation + " keeps the scheduler away"}, nil
	}
	u, err := ps.unit(res, p, annotations)
	if err != nil {
		return nil, &policy.Error{Policy: p.ref, Resource: &res.Ref, Err: err}
	}
	var candidates []*policy.Cluster
	out := &placed{policy: p, why: map[string]string{}}
	for _, c := range ps.fleet {
		if c.Joined != "" && c.Joined != "True" {
			out.why[c.Name] = "the FederatedCluster has not joined (condition Joined is " + c.Joined + ")"
			continue
		}
		candidates = append(candidates, c)
	}
	clusters, reasons, err := scheduleUnit(u, candidates)
	if err != nil {
		return nil, &policy.Error{Policy: p.ref, Resource: &res.Ref, Err: err}
	}
	for c, w := range reasons {
		out.why[c] = w
	}
	out.clusters = clusters
	if len(clusters) == 0 {
		why := policy.Reasons(out.why)
		if why == "" {
			why = "no cluster"
		}
		out.nowhere = fmt.Sprintf("%s places it on no cluster (%s)", p.ref, why)
	}
	return out, nil
}

// unfederated says why KubeAdmiral federates no object from res, or "".
func unfederated(res *policy.Resource, annotations map[string]string) string {
	switch {
	case !federatedTypes.Has(gvkOf(res)):
		return fmt.Sprintf("KubeAdmiral federates no %s %s: no default FederatedTypeConfig has it as source type", res.APIVersion, res.Kind)
	case res.Namespace == fedSystemNamespace || res.Kind == "Namespace" && res.APIVersion == "v1" && res.Name == fedSystemNamespace:
		return "objects of KubeAdmiral's own namespace " + fedSystemNamespace + " are not federated"
	case annotations[noFederatedAnnotation] != "":
		return "annotation " + noFederatedAnnotation + " keeps it from being federated"
	}
	return ""
}

// contest is how the propagation policies contend for res: the one its
// labels name (lookup) claims it; another one they name does not, and
// says why.
func (ps *placements) contest(res *policy.Resource) policy.Claim {
	var named []*propagationPolicy // the policies the labels name, in lookup's order
	if name, ok := res.Labels[PropagationPolicyLabel]; ok && res.Namespace != "" {
		if p := ps.pps[KindPropagationPolicy+"/"+res.Namespace+"/"+name]; p != nil {
			named = append(named, p)
		}
	}
	if name, ok := res.Labels[ClusterPropagationPolicyLabel]; ok {
		if p := ps.pps[KindClusterPropagationPolicy+"/"+name]; p != nil {
			named = append(named, p)
		}
	}
	if len(named) == 0 {
		return policy.Claim{}
	}
	gate := unfederated(res, res.Node.GetAnnotations())
	if gate == "" && res.APIVersion == "v1" && res.Kind == "Namespace" {
		gate = "KubeAdmiral places a Namespace by namespace auto-propagation, not by a propagation policy"
	}
	var out policy.Claim
	p, why := ps.lookup(res)
	if gate == "" && p != nil {
		out.By = &p.ref
	}
	for _, n := range named {
		switch {
		case gate != "":
			out.Lost = append(out.Lost, policy.Lost{Policy: n.ref, Why: gate})
		case p == nil:
			out.Lost = append(out.Lost, policy.Lost{Policy: n.ref, Why: why})
		case n != p:
			out.Lost = append(out.Lost, policy.Lost{Policy: n.ref, Why: fmt.Sprintf("its label %s names %s, which KubeAdmiral reads before label %s", PropagationPolicyLabel, p.ref, ClusterPropagationPolicyLabel)})
		}
	}
	return out
}

// namespace is the nsautoprop controller's placement of a Namespace: every
// cluster, except the kube- namespaces, those opted out, and those the sync
// controller never dispatches.
func (ps *placements) namespace(res *policy.Resource, annotations map[string]string) *placed {
	switch {
	case strings.HasPrefix(res.Name, "kube-"), res.Name == "default":
		return &placed{nowhere: "KubeAdmiral never propagates namespace " + res.Name}
	case annotations[noAutoPropAnnotation] == "true":
		return &placed{nowhere: "annotation " + noAutoPropAnnotation + ": \"true\" keeps it from every cluster"}
	}
	out := &placed{clusters: map[string]*int64{}, why: map[string]string{}}
	for _, c := range ps.fleet {
		if c.Joined != "" && c.Joined != "True" {
			out.why[c.Name] = "the FederatedCluster has not joined (condition Joined is " + c.Joined + "): the sync controller dispatches to joined clusters only"
			continue
		}
		out.clusters[c.Name] = nil
	}
	return out
}

// lookup is GetMatchedPolicyKey: on a namespaced object the
// PropagationPolicy label wins, even when it names a missing policy; the
// ClusterPropagationPolicy label comes next; without either the object is
// not scheduled.
func (ps *placements) lookup(res *policy.Resource) (*propagationPolicy, string) {
	if name, ok := res.Labels[PropagationPolicyLabel]; ok && res.Namespace != "" {
		key := KindPropagationPolicy + "/" + res.Namespace + "/" + name
		if p := ps.pps[key]; p != nil {
			return p, ""
		}
		return nil, fmt.Sprintf("label %s names PropagationPolicy %s/%s, which the input does not hold (KubeAdmiral does not fall back to a ClusterPropagationPolicy)", PropagationPolicyLabel, res.Namespace, name)
	}
	if name, ok := res.Labels[ClusterPropagationPolicyLabel]; ok {
		if p := ps.pps[KindClusterPropagationPolicy+"/"+name]; p != nil {
			return p, ""
		}
		return nil, fmt.Sprintf("label %s names ClusterPropagationPolicy %s, which the input does not hold", ClusterPropagationPolicyLabel, name)
	}
	return nil, fmt.Sprintf("it has no %s or %s label", PropagationPolicyLabel, ClusterPropagationPolicyLabel)
}

// unit builds the scheduling unit as schedulingUnitForFedObject does for a
// fresh object: the policy's fields, each replaced by the object's
// annotation when that parses, Divide only where the FederatedTypeConfig
// has a replicas path (Deployments).
func (ps *placements) unit(res *policy.Resource, p *propagationPolicy, annotations map[string]string) (*unit, error) {
	s := p.spec
	u := &unit{
		key: res.Name, apiResource: gvkOf(res), divide: s.SchedulingMode == "Divide", binpack: s.ReplicasStrategy == "Binpack",
		clusterSelector: s.ClusterSelector, tolerations: s.Tolerations, maxClusters: s.MaxClusters,
	}
	if res.Namespace != "" {
		u.key = res.Namespace + "/" + res.Name
	}
	if len(s.ClusterAffinity) > 0 {
		u.affinity = s.ClusterAffinity
	}
	placementsOf(u, s.Placements)
	if v, ok := annotations[modeAnnotation]; ok && (v == "Duplicate" || v == "Divide") {
		u.divide = v == "Divide"
	}
	if v, ok := annotations[selectorAnnotation]; ok {
		var sel map[string]string
		if json.Unmarshal([]byte(v), &sel) == nil {
			u.clusterSelector = sel
		}
	}
	if v, ok := annotations[tolerationsAnnotation]; ok {
		var tols []policy.Toleration
		if json.Unmarshal([]byte(v), &tols) == nil {
			u.tolerations = tols
		}
	}
	if v, ok := annotations[maxClustersAnnotation]; ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			m := int64(n)
			u.maxClusters = &m
		}
	}
	if v, ok := annotations[placementsAnnotation]; ok {
		var list []desiredPlacement
		if json.Unmarshal([]byte(v), &list) == nil {
			placementsOf(u, list)
		}
	}
	if _, ok := annotations[affinityAnnotation]; ok {
		return nil, fmt.Errorf("annotation %s (preferred cluster affinity) is not reproduced offline: remove it to render the policy's own affinity", affinityAnnotation)
	}
	if _, ok := annotations[migrationAnnotation]; ok {
		return nil, fmt.Errorf("annotation %s depends on the time and the clusters' live state: remove it to render", migrationAnnotation)
	}
	if rp := s.ReschedulePolicy; rp != nil {
		if v := yamlnode.MapGet(yamlnode.MapGet(rp, "replicaRescheduling"), "avoidDisruption"); v != nil && v.Value == "false" {
			u.disruptive = true
		}
	}
	if gpuRequested(res) {
		return nil, fmt.Errorf("a GPU request (nvidia.com/gpu) changes KubeAdmiral's weights and scores, which the render does not reproduce: render without it")
	}
	if u.divide && gvkOf(res) != "apps/v1/Deployment" {
		u.divide = false // only the Deployment FederatedTypeConfig has a replicas path
	}
	if u.divide {
		n, err := specReplicas(res.Node)
		if err != nil {
			return nil, err
		}
		u.replicas = n
	}
	return u, nil
}

// gpuRequested reports whether a workload's pod spec requests or limits
// nvidia.com/gpu in any container: the key alone switches KubeAdmiral's
// dynamic weights and resource scores to GPUs.
func gpuRequested(res *policy.Resource) bool {
	path := leaderPodSpecPaths[groupKind(res)]
	if path == nil {
		return false
	}
	spec := res.Node.YNode()
	for _, k := range path {
		spec = yamlnode.MapGet(spec, k)
	}
	for _, group := range []string{"initContainers", "containers"} {
		list := yamlnode.MapGet(spec, group)
		if list == nil || list.Kind != yaml.SequenceNode {
			continue
		}
		for _, c := range list.Content {
			resources := yamlnode.MapGet(c, "resources")
			for _, kind := range []string{"requests", "limits"} {
				if yamlnode.MapGet(yamlnode.MapGet(resources, kind), "nvidia.com/gpu") != nil {
					return true
				}
			}
		}
	}
	return false
}

// specReplicas reads spec.replicas at the FederatedTypeConfig's replicas
// path, 1 when absent (the API server's default).
func specReplicas(n *yaml.RNode) (int64, error) {
	v := yamlnode.MapGet(yamlnode.MapGet(n.YNode(), "spec"), "replicas")
	if v == nil || yamlnode.IsNull(v) {
		return 1, nil
	}
	r, err := strconv.ParseInt(v.Value, 10, 32)
	if v.Kind != yaml.ScalarNode || v.ShortTag() != yaml.NodeTagInt || err != nil {
		return 0, fmt.Errorf("spec.replicas: Invalid value: %q: must be an integer, e.g. 3", v.Value)
	}
	return r, nil
}

// setReplicas is the scheduler's replica override (replace /spec/replicas)
// on one member's copy, editing the value in place so that its comments
// stay.
func setReplicas(rn *yaml.RNode, n int64) error {
	spec, err := rn.Pipe(yaml.LookupCreate(yaml.MappingNode, "spec"))
	if err != nil {
		return err
	}
	if v := yamlnode.MapGet(spec.YNode(), "replicas"); v != nil && v.Kind == yaml.ScalarNode {
		v.Tag, v.Value, v.Style = yaml.NodeTagInt, strconv.FormatInt(n, 10), 0
		return nil
	}
	return spec.PipeE(yaml.SetField("replicas", yaml.NewScalarRNode(strconv.FormatInt(n, 10))))
}

// placementsOf fills the unit's placement maps (getPlacementsFromPolicy):
// the last entry of a cluster wins.
func placementsOf(u *unit, list []desiredPlacement) {
	u.clusterNames = map[string]bool{}
	u.minReplicas, u.maxReplicas, u.weights, u.priorities = map[string]int64{}, map[string]int64{}, map[string]int64{}, map[string]int64{}
	for _, p := range list {
		u.clusterNames[p.Cluster] = true
		u.minReplicas[p.Cluster] = p.Preferences.MinReplicas
		for _, v := range []struct {
			into map[string]int64
			v    *int64
		}{{u.maxReplicas, p.Preferences.MaxReplicas}, {u.weights, p.Preferences.Weight}, {u.priorities, p.Preferences.Priority}} {
			if v.v != nil {
				v.into[p.Cluster] = *v.v
			}
		}
	}
}

// planFollowers is the follower controller over the input: each follower a
// scheduled leader names goes where the leader goes.
func (ps *placements) planFollowers(resources []*yaml.RNode) error {
	ps.follows = map[resourceKey]map[string]bool{}
	present := map[resourceKey]*policy.Resource{}
	for _, n := range resources {
		r := policy.NewResource(n)
		present[keyOf(r)] = r
	}
	for _, n := range resources {
		leader := present[keyOf(policy.NewResource(n))]
		if leaderPodSpecPaths[groupKind(leader)] == nil {
			continue
		}
		at, err := ps.decide(leader)
		if err != nil {
			return err
		}
		if at.policy == nil || at.policy.spec.DisableFollowerScheduling || len(at.clusters) == 0 {
			continue
		}
		names, err := followersOf(leader)
		if err != nil {
			return err
		}
		for _, key := range names {
			f := present[key]
			if f == nil || f.Node.GetAnnotations()[disableFollowingAnnotation] == "true" {
				continue
			}
			if ps.follows[key] == nil {
				ps.follows[key] = map[string]bool{}
			}
			for c := range at.clusters {
				ps.follows[key][c] = true
			}
		}
	}
	return nil
}

// followersOf lists what a leader names: the kubeadmiral.io/followers
// annotation, then its pod spec's ConfigMaps, Secrets, claims (an empty
// name included) and service account ("default" included).
func followersOf(leader *policy.Resource) ([]resourceKey, error) {
	var keys []resourceKey
	add := func(kind, name string) {
		if v, ok := followerKinds[kind]; ok {
			keys = append(keys, resourceKey{v, kind, leader.Namespace, name})
		}
	}
	if v, ok := leader.Node.GetAnnotations()[followersAnnotation]; ok {
		var list []struct{ Group, Kind, Name string }
		if err := json.Unmarshal([]byte(v), &list); err != nil {
			return nil, fmt.Errorf("%s: annotation %s: %w: write a JSON list such as [{\"group\": \"\", \"kind\": \"ConfigMap\", \"name\": \"settings\"}]", leader.Ref.GVKString(), followersAnnotation, err)
		}
		for _, f := range list {
			add(f.Kind, f.Name)
		}
	}
	o, err := workload.New(leader.Node)
	if err != nil {
		return nil, err
	}
	o.Reader = "KubeAdmiral"
	spec, p, err := o.ObjectAt(o.Root, nil, leaderPodSpecPaths[groupKind(leader)]...)
	if err != nil || spec == nil {
		return keys, err
	}
	refs, err := o.PodRefs(spec, p)
	if err != nil {
		return nil, err
	}
	for _, kind := range []struct {
		kind  string
		names sets.Set[string]
	}{{"ConfigMap", refs.ConfigMaps}, {"Secret", refs.Secrets}, {"PersistentVolumeClaim", refs.Claims}} {
		for _, name := range sets.List(kind.names) {
			if kind.kind != "PersistentVolumeClaim" && name == "" {
				continue
			}
			add(kind.kind, name)
		}
	}
	if refs.ServiceAccount != "" {
		add("ServiceAccount", refs.ServiceAccount)
	}
	return keys, nil
}

// placer answers for one rendered cluster.
type placer struct {
	ps      *placements
	cluster *policy.Cluster
}

// Claim implements policy.Claimer: the propagation policy that claims
// res, whichever cluster is rendered, and why the others its labels name
// do not.
func (pl placer) Claim(res *policy.Resource) policy.Claim { return pl.ps.contest(res) }

// Place says whether the cluster receives res and with how many replicas.
func (pl placer) Place(res *policy.Resource) (policy.Placement, bool, error) {
	if pl.cluster == nil {
		return policy.Placement{}, false, nil
	}
	name := pl.cluster.Name
	at, err := pl.ps.decide(res)
	if err != nil {
		return policy.Placement{}, false, err
	}
	var by *policy.Ref
	if at.policy != nil {
		by = &at.policy.ref
	}
	if replicas, ok := at.clusters[name]; ok {
		out := policy.Placement{Placed: true, By: by, Reason: "scheduled"}
		if replicas == nil {
			return out, true, nil
		}
		n := *replicas
		out.Replicas = &n
		out.Revise = policy.Step{Field: "spec.replicas", Filter: yaml.FilterFunc(func(rn *yaml.RNode) (*yaml.RNode, error) {
			return rn, setReplicas(rn, n)
		})}
		return out, true, nil
	}
	if pl.ps.follows[keyOf(res)][name] {
		return policy.Placement{Placed: true, By: by, Reason: "a follower of a workload placed there"}, true, nil
	}
	why := at.nowhere
	switch {
	case why == "" && at.policy != nil:
		why = fmt.Sprintf("%s: %s", at.policy.ref, at.why[name])
	case why == "":
		why = at.why[name]
	}
	return policy.Placement{By: by, Reason: why}, true, nil
}

// placementNotes are the assumptions the placement made about the fleet.
func placementNotes(fleet []*policy.Cluster) []error {
	var apis, ready, joined []string
	for _, c := range fleet {
		if c.APIs == nil {
			apis = append(apis, c.Name)
		}
		if c.Ready == "" {
			ready = append(ready, c.Name)
		}
		if c.Joined == "" {
			joined = append(joined, c.Name)
		}
	}
	var notes []error
	for _, n := range []struct {
		names []string
		what  string
	}{
		{apis, "carry no status.apiResourceTypes, so every API is taken as served there (KubeAdmiral's scheduler places nothing on such a cluster)"},
		{ready, "carry no Ready condition, so they are taken as ready (KubeAdmiral's scheduler skips clusters that are not)"},
		{joined, "carry no Joined condition, so they are taken as joined (KubeAdmiral schedules only onto joined clusters)"},
	} {
		if len(n.names) > 0 {
			notes = append(notes, &policy.Note{Err: fmt.Errorf("placement: FederatedCluster(s) %s %s; export the FederatedCluster objects with their status to decide as the control plane does", strings.Join(n.names, ", "), n.what)})
		}
	}
	return notes
}

// planOnce computes the follower plan on first use; For runs once per
// cluster, the plan is the same for all.
type planOnce struct {
	once sync.Once
	err  error
}
