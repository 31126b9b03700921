// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The typed pod spec upstream decodes (corev1.PodSpec, k8s.io/api v0.31.0),
// cut down to the fields the overriders read. Decoding it with
// apimachinery's unstructured converter reproduces upstream's type errors
// for these fields; the other pod spec fields are not type-checked.
type (
	podSpecFields struct {
		InitContainers []containerSpec `json:"initContainers,omitempty"`
		Containers     []containerSpec `json:"containers"`
	}
	containerSpec struct {
		Name    string   `json:"name"`
		Image   string   `json:"image,omitempty"`
		Command []string `json:"command,omitempty"`
		Args    []string `json:"args,omitempty"`
		Env     []envVar `json:"env,omitempty"`
	}
	// envVar is corev1.EnvVar: re-serialising it drops an empty value and
	// unknown fields, and writes divisor "0" into a resourceFieldRef that
	// has none (resource.Quantity is a struct, which omitempty keeps).
	envVar struct {
		Name      string        `json:"name"`
		Value     string        `json:"value,omitempty"`
		ValueFrom *envVarSource `json:"valueFrom,omitempty"`
	}
	envVarSource struct {
		FieldRef         *objectFieldSelector   `json:"fieldRef,omitempty"`
		ResourceFieldRef *resourceFieldSelector `json:"resourceFieldRef,omitempty"`
		ConfigMapKeyRef  *keySelector           `json:"configMapKeyRef,omitempty"`
		SecretKeyRef     *keySelector           `json:"secretKeyRef,omitempty"`
	}
	objectFieldSelector struct {
		APIVersion string `json:"apiVersion,omitempty"`
		FieldPath  string `json:"fieldPath"`
	}
	resourceFieldSelector struct {
		ContainerName string          `json:"containerName,omitempty"`
		Resource      string          `json:"resource"`
		Divisor       boundedQuantity `json:"divisor,omitempty"`
	}
	// keySelector is corev1.ConfigMapKeySelector and SecretKeySelector.
	keySelector struct {
		Name     string `json:"name,omitempty"`
		Key      string `json:"key"`
		Optional *bool  `json:"optional,omitempty"`
	}
)

// boundedQuantity is resource.Quantity (it marshals as the canonical form:
// "1000m" becomes "1", "1024Ki" "1Mi"), except that it refuses a decimal
// exponent beyond ±maxQuantityExponent, which apimachinery would take
// minutes to parse (its int32 exponent wraps, so "1e4044444440" reads as
// 1e-250522856).
type boundedQuantity struct{ resource.Quantity }

const maxQuantityExponent = 100000

// UnmarshalJSON is resource.Quantity's, behind the exponent check.
func (q *boundedQuantity) UnmarshalJSON(data []byte) error {
	s := strings.TrimSpace(strings.Trim(string(data), `"`))
	if i := strings.IndexAny(s, "eE"); i >= 0 && i+1 < len(s) {
		if exp, err := strconv.ParseInt(s[i+1:], 10, 64); err == nil {
			if e := int32(exp); e > maxQuantityExponent || e < -maxQuantityExponent {
				return fmt.Errorf("quantity %q: a decimal exponent beyond ±%d is not supported", s, maxQuantityExponent)
			}
		}
	}
	return q.Quantity.UnmarshalJSON(data)
}

// decodeTyped decodes n into out with apimachinery's unstructured converter,
// as upstream decodes its unstructured objects into typed ones.
func decodeTyped(n *yaml.Node, out any) error {
	v, err := safeUnstructured(n)
	if err != nil {
		return err
	}
	m, ok := v.(map[string]any)
	if !ok {
		if v != nil {
			return fmt.Errorf("cannot restore struct from: %T", v)
		}
		m = map[string]any{}
	}
	return runtime.DefaultUnstructuredConverter.FromUnstructured(m, out)
}
