// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"strconv"

	"github.com/blang/semver/v4"
	"k8s.io/apimachinery/pkg/api/resource"
)

// ordered implements GreaterThan, GreaterThanOrEquals, LessThan and
// LessThanOrEquals (upstream operator/numeric.go).
//
// A number key (int, int64, float64) is compared with a number value, or
// with a string value that is (in this order) a duration when the key counts
// as seconds (see [durationPair]), a float, or a base-10 integer.
//
// A string key is tried as: a duration pair; a resource quantity when the
// value is a quantity string too; a float or integer (then as a number key);
// a semantic version compared with a semver string value. Anything else,
// including bool, nil, map and list keys, is false.
func ordered(key any, op string, value any) bool {
	switch k := key.(type) {
	case int:
		return orderedNumber(float64(k), key, op, value)
	case int64:
		return orderedNumber(float64(k), key, op, value)
	case float64:
		return orderedNumber(k, key, op, value)
	case string:
		return orderedString(k, op, value)
	}
	return false
}

// orderedNumber compares the number key k (raw is the key as given, which
// decides how it converts to a duration) with value.
func orderedNumber(k float64, raw any, op string, value any) bool {
	switch v := value.(type) {
	case int:
		return compareFloats(k, float64(v), op)
	case int64:
		return compareFloats(k, float64(v), op)
	case float64:
		return compareFloats(k, v, op)
	case string:
		if kd, vd, ok := durationPair(raw, v); ok {
			return compareFloats(kd.Seconds(), vd.Seconds(), op)
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return compareFloats(k, f, op)
		}
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return compareFloats(k, float64(n), op)
		}
	}
	return false
}

func orderedString(k string, op string, value any) bool {
	if kd, vd, ok := durationPair(k, value); ok {
		return compareFloats(kd.Seconds(), vd.Seconds(), op)
	}
	if kq, err := resource.ParseQuantity(k); err == nil {
		if v, ok := value.(string); ok {
			if vq, err := resource.ParseQuantity(v); err == nil {
				return compareFloats(float64(kq.Cmp(vq)), 0, op)
			}
		}
	}
	if f, err := strconv.ParseFloat(k, 64); err == nil {
		return orderedNumber(f, f, op, value)
	}
	if n, err := strconv.ParseInt(k, 10, 64); err == nil {
		return orderedNumber(float64(n), n, op, value)
	}
	kv, err := semver.Parse(k)
	if err != nil {
		return false
	}
	v, ok := value.(string)
	if !ok {
		return false
	}
	vv, err := semver.Parse(v)
	if err != nil {
		return false
	}
	return compareFloats(float64(kv.Compare(vv)), 0, op)
}

// compareFloats applies op, which must be spelled exactly; any other
// spelling is false, as upstream.
func compareFloats(k, v float64, op string) bool {
	switch op {
	case OpGreaterThanOrEquals:
		return k >= v
	case OpGreaterThan:
		return k > v
	case OpLessThanOrEquals:
		return k <= v
	case OpLessThan:
		return k < v
	}
	return false
}
