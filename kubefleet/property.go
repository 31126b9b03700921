// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package kubefleet

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/apply-overrides/apply-overrides/policy"
)

// resourcePropertyPrefix names the properties read from
// status.resourceUsage, e.g. resources.kubernetes-fleet.io/available-cpu.
const resourcePropertyPrefix = "resources.kubernetes-fleet.io/"

// propertyOf is retrievePropertyValueFrom: a resource property from
// status.resourceUsage, any other from status.properties; nil when the
// cluster does not report it.
func propertyOf(c *policy.Cluster, name string) (*resource.Quantity, error) {
	if rest, ok := strings.CutPrefix(name, resourcePropertyPrefix); ok {
		capacity, res, ok := strings.Cut(rest, "-")
		if !ok || capacity == "" || res == "" || strings.Contains(res, "-") {
			return nil, fmt.Errorf("invalid resource property name: %s", rest)
		}
		if c.Resources == nil {
			return nil, nil
		}
		var m map[string]resource.Quantity
		switch capacity {
		case "total":
			m = c.Resources.Capacity
		case "allocatable":
			m = c.Resources.Allocatable
		case "available":
			m = c.Resources.Available
		default:
			return nil, fmt.Errorf("invalid capacity type %s in resource property name %s", capacity, rest)
		}
		q, ok := m[res]
		if !ok {
			return nil, nil
		}
		return &q, nil
	}
	v, ok := c.Properties[name]
	if !ok {
		return nil, nil
	}
	q, err := resource.ParseQuantity(v)
	if err != nil {
		return nil, fmt.Errorf("value %s of property %s from cluster %s is not a valid quantity: %w", v, name, c.Name, err)
	}
	return &q, nil
}
