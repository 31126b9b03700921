// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubefleet

import (
	"fmt"
	"sort"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/policy"
)

// ClusterAPIVersion is the storage version of KubeFleet's MemberCluster;
// ClusterAPIVersions lists every served version.
const ClusterAPIVersion = ClusterGroup + "/v1beta1"

// ClusterType is the apiVersion and kind of KubeFleet's cluster objects.
func (Dialect) ClusterType() (apiVersion, kind string) { return ClusterAPIVersion, KindMemberCluster }

// OtherClusterTypes are the other served versions of the cluster object
// (MemberCluster v1 repeats v1beta1 field for field).
func (Dialect) OtherClusterTypes() [][2]string {
	return [][2]string{{ClusterGroup + "/v1", KindMemberCluster}}
}

// memberAgent is the agent whose status the scheduler's eligibility check
// reads (clusterv1beta1.MemberAgent).
const memberAgent = "MemberAgent"

// DecodeCluster reads a MemberCluster into the neutral cluster model: name,
// labels and spec.taints (what override matching and the scheduler's
// filters read), status.properties and status.resourceUsage (what property
// selectors and sorters read), metadata.deletionTimestamp and the member
// agent's Joined and Healthy conditions (the scheduler's eligibility
// check, pkg/scheduler/clustereligibilitychecker @78e6ca7), which land in
// Joined and Ready. KubeFleet synthesizes no label for the cluster name.
func (Dialect) DecodeCluster(obj *yaml.RNode) (policy.Cluster, error) {
	var mc struct {
		Metadata struct {
			DeletionTimestamp any `yaml:"deletionTimestamp"`
		} `yaml:"metadata"`
		Status struct {
			Properties map[string]struct {
				Value string `yaml:"value"`
			} `yaml:"properties"`
			ResourceUsage *struct {
				Capacity    map[string]yaml.Node `yaml:"capacity"`
				Allocatable map[string]yaml.Node `yaml:"allocatable"`
				Available   map[string]yaml.Node `yaml:"available"`
			} `yaml:"resourceUsage"`
			AgentStatus []struct {
				Type       string `yaml:"type"`
				Conditions []struct {
					Type   string `yaml:"type"`
					Status string `yaml:"status"`
				} `yaml:"conditions"`
			} `yaml:"agentStatus"`
		} `yaml:"status"`
	}
	c, err := policy.DecodeCluster(obj, &mc)
	if err != nil {
		return policy.Cluster{}, err
	}
	// The MemberCluster's own conditions are not the scheduler's: it reads
	// the member agent's.
	c.Ready, c.Joined = "", ""
	c.Leaving = mc.Metadata.DeletionTimestamp != nil
	if mc.Status.Properties != nil {
		c.Properties = make(map[string]string, len(mc.Status.Properties))
		for k, v := range mc.Status.Properties {
			c.Properties[k] = v.Value
		}
	}
	for _, a := range mc.Status.AgentStatus {
		if a.Type != memberAgent {
			continue
		}
		c.Joined, c.Ready = "Unknown", "" // reported: a missing condition fails the check
		for _, cond := range a.Conditions {
			switch cond.Type {
			case "Joined":
				c.Joined = cond.Status
			case "Healthy":
				c.Ready = cond.Status
			}
		}
		if c.Ready == "" {
			c.Ready = "Absent"
		}
	}
	if ru := mc.Status.ResourceUsage; ru != nil {
		c.Resources = &policy.Resources{}
		p := field.NewPath("status", "resourceUsage")
		var errs, more field.ErrorList
		c.Resources.Capacity, errs = policy.Quantities(ru.Capacity, p.Child("capacity"))
		c.Resources.Allocatable, more = policy.Quantities(ru.Allocatable, p.Child("allocatable"))
		errs = append(errs, more...)
		c.Resources.Available, more = policy.Quantities(ru.Available, p.Child("available"))
		if errs = append(errs, more...); len(errs) > 0 {
			return policy.Cluster{}, fmt.Errorf("%s: %w", c.Source.GVKString(), errs.ToAggregate())
		}
	}
	return c, nil
}

// hasStatus reports whether the MemberCluster reported its member agent.
func hasStatus(c *policy.Cluster) bool { return c.Joined != "" }

// ineligible says why KubeFleet's scheduler would not place on c, or "".
// A cluster whose object carries no member agent status is assumed
// connected, joined and healthy (an inventory kept in git usually has no
// status); heartbeats are assumed recent, and a Healthy condition that is
// not True is taken as failing for longer than the health check timeout.
func ineligible(c *policy.Cluster) string {
	switch {
	case c.Leaving:
		return "cluster has left the fleet"
	case !hasStatus(c):
		return ""
	case c.Joined != "True":
		return "cluster is not connected to the fleet: member agent not joined yet"
	case c.Ready == "Absent":
		return "cluster is not connected to the fleet: health condition from member agent is not available"
	case c.Ready != "True":
		return "cluster is not connected to the fleet: unhealthy for a prolonged period of time"
	}
	return ""
}

// statusNotes are the notes about the clusters whose eligibility the
// render assumed.
func statusNotes(fleet []*policy.Cluster) []error {
	var names []string
	for _, c := range fleet {
		if c.Source.Kind == KindMemberCluster && !hasStatus(c) && !c.Leaving {
			names = append(names, c.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	sort.Strings(names)
	return []error{&policy.Note{Err: fmt.Errorf("MemberCluster(s) %v report no member agent status: KubeFleet's scheduler was assumed to find them joined, healthy and sending heartbeats", names)}}
}
