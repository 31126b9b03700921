// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

// What one replica of a workload asks of a cluster, as Karmada v1.16.0's
// helper.GenerateReplicaRequirements computes it from the pod template
// (pkg/util/helper/binding.go, pkg/util/resource.go AddPodTemplateRequest,
// pkg/util/lifted IsScalarResourceName). The scheduler's general estimator
// divides a cluster's free resources by these requests.

import (
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
	"github.com/apply-overrides/apply-overrides/policy"
)

// podRequirements reads the pod spec at p (nil when absent). Its requests are
// the sum over containers, raised to the largest init container's request
// where that is higher, plus the pod overhead; a container limit stands in
// for a missing request, as the API server defaults it. The result is nil
// when nothing is requested and the spec has no node selector, tolerations
// or required node affinity (upstream's node claim, which the estimator this
// tool reproduces does not read otherwise).
func (t *template) podRequirements(spec *yaml.Node, p *field.Path) (*requirements, error) {
	claim, err := t.hasNodeClaim(spec, p)
	if err != nil {
		return nil, err
	}
	var sum podResources
	for _, group := range []struct {
		key    string
		reduce func(total, one int64) int64
	}{
		{"containers", func(total, one int64) int64 { return total + one }},
		{"initContainers", func(total, one int64) int64 { return max(total, one) }},
	} {
		containers, cp, err := t.ListAt(spec, p, group.key)
		if err != nil {
			return nil, err
		}
		for i, c := range containers {
			requests, err := t.containerRequests(c, cp.Index(i))
			if err != nil {
				return nil, err
			}
			sum.combine(requests, group.reduce)
		}
	}
	overhead, err := t.quantities(spec, p, "overhead")
	if err != nil {
		return nil, err
	}
	sum.combine(overhead, func(total, one int64) int64 { return total + one })
	requests := sum.list()
	if requests == nil && !claim {
		return nil, nil
	}
	return &requirements{Requests: requests}, nil
}

// hasNodeClaim reports whether the pod spec constrains the nodes it may run
// on: a nodeSelector (even an empty one), at least one toleration, or a
// required node affinity.
func (t *template) hasNodeClaim(spec *yaml.Node, p *field.Path) (bool, error) {
	selector, _, err := t.ObjectAt(spec, p, "nodeSelector")
	if err != nil {
		return false, err
	}
	tolerations, _, err := t.ListAt(spec, p, "tolerations")
	if err != nil {
		return false, err
	}
	affinity, _, err := t.ObjectAt(spec, p, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
	if err != nil {
		return false, err
	}
	return selector != nil || len(tolerations) > 0 || affinity != nil, nil
}

// containerRequests returns a container's requests with its limits filling
// in the resources it does not request.
func (t *template) containerRequests(c *yaml.Node, p *field.Path) (map[string]resource.Quantity, error) {
	resources, p, err := t.ObjectAt(c, p, "resources")
	if err != nil {
		return nil, err
	}
	requests, err := t.quantities(resources, p, "requests")
	if err != nil {
		return nil, err
	}
	limits, err := t.quantities(resources, p, "limits")
	if err != nil {
		return nil, err
	}
	for name, q := range limits {
		if _, ok := requests[name]; !ok {
			if requests == nil {
				requests = map[string]resource.Quantity{}
			}
			requests[name] = q
		}
	}
	return requests, nil
}

// quantities reads the ResourceList at key below m (at p). A null quantity
// is zero, as the API server decodes it; the first of duplicate names
// counts, as MapGet reads.
func (t *template) quantities(m *yaml.Node, p *field.Path, key string) (map[string]resource.Quantity, error) {
	m, p, err := t.ObjectAt(m, p, key)
	if err != nil || m == nil {
		return nil, err
	}
	out := make(map[string]resource.Quantity, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		name, v := m.Content[i].Value, yamlnode.Deref(m.Content[i+1])
		if _, dup := out[name]; dup {
			continue
		}
		if yamlnode.IsNull(v) {
			out[name] = resource.Quantity{}
			continue
		}
		text := ""
		if v.Kind == yaml.ScalarNode && v.ShortTag() != yaml.NodeTagBool {
			text = v.Value
		}
		// A YAML integer reaches the API server as a JSON number, so spellings
		// such as 0x10 or 1_000 count as the number they stand for.
		var whole int64
		if v.ShortTag() == yaml.NodeTagInt && v.Decode(&whole) == nil {
			text = strconv.FormatInt(whole, 10)
		}
		q, err := resource.ParseQuantity(text)
		if err != nil {
			return nil, t.Invalid(p.Key(name), v, "a quantity, e.g. 500m, 2 or 1Gi")
		}
		out[name] = q
	}
	return out, nil
}

// podResources accumulates requests the way upstream's util.Resource does:
// CPU in millicores, everything else in whole units rounded up, and only the
// resource names its scheduler counts.
type podResources struct {
	milliCPU, memory, ephemeralStorage, pods int64
	scalars                                  map[string]int64
}

// combine folds list into r with reduce(current, value) per resource.
func (r *podResources) combine(list map[string]resource.Quantity, reduce func(total, one int64) int64) {
	for name, q := range list {
		switch name {
		case "cpu":
			r.milliCPU = reduce(r.milliCPU, q.MilliValue())
		case "memory":
			r.memory = reduce(r.memory, q.Value())
		case "ephemeral-storage":
			r.ephemeralStorage = reduce(r.ephemeralStorage, q.Value())
		case "pods":
			r.pods = reduce(r.pods, q.Value())
		default:
			if !policy.IsScalarResource(name) {
				continue // e.g. "gpu": upstream drops names it cannot schedule
			}
			if r.scalars == nil {
				r.scalars = map[string]int64{}
			}
			r.scalars[name] = reduce(r.scalars[name], q.Value())
		}
	}
}

// list returns the positive totals as quantities in upstream's formats,
// nil when there are none.
func (r *podResources) list() map[string]resource.Quantity {
	out := map[string]resource.Quantity{}
	put := func(name string, v int64, format resource.Format) {
		if v > 0 {
			out[name] = *resource.NewQuantity(v, format)
		}
	}
	if r.milliCPU > 0 {
		out["cpu"] = *resource.NewMilliQuantity(r.milliCPU, resource.DecimalSI)
	}
	put("memory", r.memory, resource.BinarySI)
	put("ephemeral-storage", r.ephemeralStorage, resource.BinarySI)
	put("pods", r.pods, resource.DecimalSI)
	for name, v := range r.scalars {
		format := resource.DecimalSI
		if strings.HasPrefix(name, "hugepages-") {
			format = resource.BinarySI
		}
		put(name, v, format)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
